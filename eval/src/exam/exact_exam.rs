//! The exam on an [`ExactSet`]: in how many positions the agent's turn keeps the proven
//! value, overall and by piece count (the game's phase), and, filled in by the caller for a
//! network, its value head against the proven values.

use std::collections::BTreeMap;

use fanorona_env::{Fanorona, Turn, Wdl};
use fanorona_util::progress::ProgressBar;
use rayon::prelude::*;
use serde_json::json;

use super::error::ExamError;
use super::exact_set::ExactSet;
use super::solved::KeepTally;
use super::value_score::ValueScore;
use crate::agents::complete_turn::agent_turn;
use crate::arena::AgentFactory;

/// Tallies by number of pieces.
type PhaseTallies = BTreeMap<u32, KeepTally>;

/// Positions one agent answers in a row (one agent per chunk, seeded by its number).
const CHUNK: usize = 32;

/// The result of an exam on an exact set.
#[derive(Clone, Debug, PartialEq)]
pub struct ExactExamReport {
    /// The agent's name.
    pub agent: String,
    /// The set's board, `WxH`.
    pub board: String,
    /// How the set's labels were made.
    pub labeller: String,
    /// Every position (the tallies' `optimal` stays 0: proven labels carry no distances).
    pub all: KeepTally,
    /// The positions by their number of pieces.
    pub by_pieces: BTreeMap<u32, KeepTally>,
    /// The critical positions only: those where some legal turn spoils the value
    /// ([`ProvenPosition::is_critical`](super::ProvenPosition::is_critical)).
    pub critical: KeepTally,
    /// For an agent with a network: its value head against the proven values, overall
    /// (filled in by [`ExactExamReport::score_values`]).
    pub value_head: Option<ValueScore>,
    /// The same by number of pieces.
    pub value_head_by_pieces: BTreeMap<u32, ValueScore>,
}

/// A tally's figures without distances: counts and the shares of kept values.
fn tally_json(tally: &KeepTally) -> serde_json::Value {
    json!({
        "positions": tally.positions,
        "wins": tally.wins,
        "draws": tally.draws,
        "losses": tally.losses,
        "keeps_value": tally.keeps_value(),
        "keeps_value_95": tally.keeps_value_interval().map(|(lo, hi)| [lo, hi]),
        "keeps_wins": tally.keeps_wins(),
        "keeps_draws": tally.keeps_draws(),
    })
}

impl ExactExamReport {
    /// Scores a network's `values` of the set's positions (in the set's order, for the side
    /// to move) against their proven values.
    pub fn score_values(&mut self, set: &ExactSet, values: &[Wdl]) {
        let mut all = ValueScore::default();
        let mut by_pieces: BTreeMap<u32, ValueScore> = BTreeMap::new();
        for (p, &v) in set.positions.iter().zip(values) {
            all.add_verdict(v, p.value);
            by_pieces
                .entry(p.position.piece_count())
                .or_default()
                .add_verdict(v, p.value);
        }
        self.value_head = Some(all);
        self.value_head_by_pieces = by_pieces;
    }

    /// The report as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        let by_pieces: serde_json::Map<String, serde_json::Value> = self
            .by_pieces
            .iter()
            .map(|(pieces, tally)| {
                let mut entry = tally_json(tally);
                if let Some(score) = self.value_head_by_pieces.get(pieces) {
                    entry["value_head"] = score.to_json();
                }
                (pieces.to_string(), entry)
            })
            .collect();
        json!({
            "agent": self.agent,
            "board": self.board,
            "labeller": self.labeller,
            "all": tally_json(&self.all),
            "critical": tally_json(&self.critical),
            "by_pieces": by_pieces,
            "value_head": self.value_head.as_ref().map(ValueScore::to_json),
        })
    }
}

/// Asks the agent of `agent` for a turn in each position of `set` and counts those that keep
/// the proven value, overall and by piece count. Agents are built per chunk of positions
/// with seeds derived from `seed`; the chunks run in parallel.
pub fn examine_exact(
    agent: &AgentFactory,
    set: &ExactSet,
    seed: u64,
    progress: &ProgressBar,
) -> Result<ExactExamReport, ExamError> {
    let chunks: Vec<Result<(String, PhaseTallies, KeepTally), ExamError>> = set
        .positions
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(chunk, positions)| {
            let mut player = agent(seed ^ (chunk as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .map_err(ExamError::Build)?;
            let mut tallies = PhaseTallies::new();
            let mut critical = KeepTally::default();
            for proven in positions {
                player.reset();
                let mut game = Fanorona::new(proven.position);
                let turn: Turn =
                    agent_turn(&mut *player, &mut game).map_err(|e| ExamError::Agent {
                        agent: e.agent,
                        reason: e.reason,
                    })?;
                let kept = proven.kept_by(&turn);
                tallies
                    .entry(proven.position.piece_count())
                    .or_default()
                    .add_proven(proven.value, kept);
                if proven.is_critical() {
                    critical.add_proven(proven.value, kept);
                }
                progress.inc(1);
            }
            Ok((player.name(), tallies, critical))
        })
        .collect();
    let mut report = ExactExamReport {
        agent: String::new(),
        board: format!("{}x{}", set.board.width(), set.board.height()),
        labeller: set.labeller.clone(),
        all: KeepTally::default(),
        by_pieces: BTreeMap::new(),
        critical: KeepTally::default(),
        value_head: None,
        value_head_by_pieces: BTreeMap::new(),
    };
    for chunk in chunks {
        let (name, tallies, critical) = chunk?;
        report.agent = name;
        report.critical.merge(&critical);
        for (pieces, tally) in tallies {
            report.all.merge(&tally);
            report.by_pieces.entry(pieces).or_default().merge(&tally);
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SolverAgent;
    use crate::arena::Built;
    use crate::exam::exact_set::SetSampling;
    use crate::exam::labelling::{LabelBudget, Labelling};
    use fanorona_env::{Board, Position, RandomAgent};
    use fanorona_exact::solver::{TableSource, shared_solution};

    #[test]
    fn a_perfect_player_keeps_every_value_and_random_play_fewer() {
        let random = |seed| -> Built { Ok(Box::new(RandomAgent::new(seed))) };
        let sampling = SetSampling {
            start: Position::initial(Board::new(5, 3).unwrap()),
            pairs: vec![(&random, &random)],
            count: 80,
            pieces: 3..=12,
            opening_turns: 2,
            seed: 2,
            sources: "random games".into(),
            disagreement: false,
            critical: false,
        };
        let budget = LabelBudget {
            nodes: 200_000,
            max_entries: 1 << 20,
        };
        let silent = Labelling::silent();
        let set = ExactSet::make(sampling, None, budget, &silent, &ProgressBar::hidden()).unwrap();
        let hidden = ProgressBar::hidden();
        // Perfect play keeps every value.
        let table = shared_solution(&TableSource::Solve(5, 3)).unwrap();
        let perfect = |seed| -> Built { Ok(Box::new(SolverAgent::new(table.clone(), seed))) };
        let report = examine_exact(&perfect, &set, 1, &hidden).unwrap();
        assert_eq!(report.all.positions, 80);
        assert_eq!(report.all.keeps_value(), Some(1.0), "{report:?}");
        let counted: u64 = report.by_pieces.values().map(|t| t.positions).sum();
        assert_eq!(counted, 80);
        // The critical positions: those with a spoiling turn, perfect play keeps them all.
        let critical = set.positions.iter().filter(|p| p.is_critical()).count() as u64;
        assert!(critical > 0 && critical < 80, "{critical}");
        assert_eq!(report.critical.positions, critical);
        assert_eq!(report.critical.keeps_value(), Some(1.0));
        let random = examine_exact(&random, &set, 1, &hidden).unwrap();
        assert!(random.all.keeps_value().unwrap() < 0.95, "{random:?}");
        // Random play fares worse where a turn can spoil the value.
        assert!(random.critical.keeps_value() < random.all.keeps_value());
        // Values: the truth scores perfectly, its opposite does not.
        let truth: Vec<f32> = set.positions.iter().map(|p| p.value.result()).collect();
        let truth_wdl: Vec<Wdl> = truth.iter().map(|&v| Wdl::from_value(v)).collect();
        let mut scored = report.clone();
        scored.score_values(&set, &truth_wdl);
        assert_eq!(scored.value_head.as_ref().unwrap().accuracy(), Some(1.0));
        assert_eq!(scored.value_head.as_ref().unwrap().brier(), Some(0.0));
        let wrong: Vec<Wdl> = truth.iter().map(|v| Wdl::from_value(-v)).collect();
        scored.score_values(&set, &wrong);
        assert!(scored.value_head.unwrap().accuracy().unwrap() < 0.9);
        let json = report.to_json();
        assert_eq!(json["all"]["positions"], 80);
    }
}
