//! The exam on a [`TestSet`]: how often the agent's turn is the label's best turn (the same
//! start, end and captured pieces), and, filled in by the caller for a network, the error of
//! its value head against the labels' values. With endgame tables, the positions they hold
//! are also scored exactly, as on a solved board: does the turn keep the exact value?

use fanorona_env::{Fanorona, Position, Turn};
use fanorona_util::progress::ProgressBar;
use rayon::prelude::*;
use serde_json::json;

use super::error::ExamError;
use super::solved::KeepTally;
use super::test_set::TestSet;
use super::value_score::{ValueError, ValueScore, share};
use crate::agents::complete_turn::agent_turn;
use crate::arena::AgentFactory;
use fanorona_exact::solver::Value;
use fanorona_exact::tables::EndgameTables;

/// Positions one agent answers in a row (one agent per chunk, seeded by its number).
const CHUNK: usize = 32;

/// The result of an exam on a test set.
#[derive(Clone, Debug, PartialEq)]
pub struct SetExamReport {
    /// The agent's name.
    pub agent: String,
    /// The set's board, `WxH`.
    pub board: String,
    /// How the set's labels were made.
    pub labeller: String,
    /// Positions answered.
    pub positions: u64,
    /// Of which the agent chose the label's best turn.
    pub agreed: u64,
    /// The value head's error against the labels, for an agent with a network.
    pub value_head: Option<ValueError>,
    /// With endgame tables: the positions they hold, scored exactly (see
    /// [`exact_turn_values`]).
    pub exact: Option<KeepTally>,
    /// With endgame tables, for an agent with a network: its value head on those positions
    /// against their exact values (filled in by the caller).
    pub value_head_exact: Option<ValueScore>,
}

impl SetExamReport {
    /// The share of positions where the agent chose the label's best turn.
    pub fn agreement(&self) -> Option<f64> {
        share(self.agreed, self.positions)
    }

    /// The report as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "agent": self.agent,
            "board": self.board,
            "labeller": self.labeller,
            "positions": self.positions,
            "best_turn_agreement": self.agreement(),
            "agreed": self.agreed,
            "value_head": self.value_head.as_ref().map(ValueError::to_json),
            "exact": self.exact.as_ref().map(KeepTally::to_json),
            "value_head_exact": self.value_head_exact.as_ref().map(ValueScore::to_json),
        })
    }
}

/// The exact value of every turn of `pos` (for the side playing it) from `tables`, where
/// they hold the position and its value stands under the position's draw limits: `None`
/// beyond the tables' reach and where the exact distance reaches the no-capture limit (the
/// limit may turn such a win or loss into a draw).
pub fn exact_turn_values(tables: &EndgameTables, pos: &Position) -> Option<Vec<(Turn, Value)>> {
    let values = tables.turn_values(pos)?;
    let best = values.iter().map(|(_, v)| *v).max()?;
    let limit = pos.rules().no_capture_limit.unwrap_or(u16::MAX);
    (best.distance().unwrap_or(0) < limit).then_some(values)
}

/// Asks the agent of `agent` for a turn in each position of `set` and counts those that
/// are the label's best turn; with `tables`, the positions they hold are also scored
/// exactly. Agents are built per chunk of positions with seeds derived from `seed`; the
/// chunks run in parallel.
pub fn examine_set(
    agent: &AgentFactory,
    set: &TestSet,
    tables: Option<&EndgameTables>,
    seed: u64,
    progress: &ProgressBar,
) -> Result<SetExamReport, ExamError> {
    let chunks: Vec<Result<(String, u64, KeepTally), ExamError>> = set
        .positions
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(chunk, positions)| {
            let mut player = agent(seed ^ (chunk as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15))
                .map_err(ExamError::Build)?;
            let mut agreed = 0;
            let mut exact = KeepTally::default();
            for labelled in positions {
                player.reset();
                let mut game = Fanorona::new(labelled.position);
                let turn: Turn =
                    agent_turn(&mut *player, &mut game).map_err(|e| ExamError::Agent {
                        agent: e.agent,
                        reason: e.reason,
                    })?;
                agreed += u64::from(turn.same_result(&labelled.best));
                if let Some(values) = tables.and_then(|t| exact_turn_values(t, &labelled.position))
                {
                    let best = values.iter().map(|(_, v)| *v).max();
                    let chosen = values.iter().find(|(t, _)| t.same_result(&turn));
                    if let (Some(best), Some((_, chosen))) = (best, chosen) {
                        exact.add(best, *chosen);
                    }
                }
                progress.inc(1);
            }
            Ok((player.name(), agreed, exact))
        })
        .collect();
    let mut report = SetExamReport {
        agent: String::new(),
        board: format!("{}x{}", set.board.width(), set.board.height()),
        labeller: set.labeller.clone(),
        positions: set.positions.len() as u64,
        agreed: 0,
        value_head: None,
        exact: tables.map(|_| KeepTally::default()),
        value_head_exact: None,
    };
    for chunk in chunks {
        let (name, agreed, exact) = chunk?;
        report.agent = name;
        report.agreed += agreed;
        if let Some(total) = &mut report.exact {
            total.merge(&exact);
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TurnAgent;
    use crate::arena::Built;
    use crate::exam::test_set::label;
    use crate::minimax::MinimaxChooser;
    use fanorona_env::Budget;
    use fanorona_env::{Board, Position, RandomAgent};

    #[test]
    fn the_labeller_agrees_with_itself_and_random_play_less() {
        let board = Board::new(5, 5).unwrap();
        // Positions of seeded random games.
        let mut positions = Vec::new();
        let mut random = RandomAgent::new(3);
        while positions.len() < 24 {
            let mut game = Fanorona::new(Position::initial(board));
            while game.outcome().is_none() && positions.len() < 24 {
                positions.push(crate::exam::sample::fresh(game.position()));
                agent_turn(&mut random, &mut game).unwrap();
            }
        }
        let hidden = ProgressBar::hidden();
        let set = TestSet {
            board,
            labeller: "minimax depth 2".into(),
            sources: "random games".into(),
            positions: label(&positions, Budget::fixed_depth(2), &hidden).unwrap(),
        };
        let same = |_| -> Built {
            Ok(Box::new(TurnAgent::new(MinimaxChooser::new(
                "minimax:depth=2",
                Budget::fixed_depth(2),
                crate::exam::test_set::LABEL_HASH_MB,
                0,
            ))))
        };
        let report = examine_set(&same, &set, None, 1, &hidden).unwrap();
        assert_eq!(report.positions, 24);
        assert_eq!(report.agreement(), Some(1.0));
        assert_eq!(report.agent, "minimax:depth=2");
        let random = |seed| -> Built { Ok(Box::new(RandomAgent::new(seed))) };
        let report = examine_set(&random, &set, None, 1, &hidden).unwrap();
        assert!(report.agreement().unwrap() < 0.9, "{report:?}");
    }
}
