//! The exam on a solved board: does the agent's turn keep the position's game-theoretic
//! value? Positions come half from the agent's own games, half from random play
//! ([`questions`]); the agent answers each as a fresh game ([`examine`]).

use std::collections::HashSet;

use fanorona_env::{Agent, Fanorona, Position, RandomAgent};
use fanorona_util::progress::ProgressBar;
use rayon::prelude::*;
use serde_json::json;

use super::error::ExamError;
use super::sample::{Sampler, Source};
use super::value_score::{ValueScore, share, share_interval};
use crate::agents::complete_turn::agent_turn;
use crate::arena::{AgentFactory, Built};
use fanorona_exact::prover::Verdict;
use fanorona_exact::solver::{Solution, Value};

/// Random turns that open each of the agent's own games (1 to 3), so that they differ.
const OPENING_PLIES: u32 = 1;

/// Most positions taken from one game.
const PER_GAME: usize = 4;

/// Positions one agent answers in a row (one agent is built per chunk, seeded by its
/// number, so that the answers do not depend on the threads).
const CHUNK: usize = 32;

/// A position of the exam with its solved value for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    /// The position, a fresh game under the standard rules.
    pub position: Position,
    /// The games it comes from.
    pub source: Source,
    /// Its value under perfect play, draw limits ignored.
    pub value: Value,
}

/// The solved value of `pos`, or the error naming it.
fn solved(solution: &Solution, pos: &Position) -> Result<Value, ExamError> {
    solution
        .value(pos)
        .ok_or_else(|| ExamError::NotSolved { fen: pos.to_fen() })
}

/// The seed of what is derived from `seed` under `salt`.
fn derive(seed: u64, salt: u64) -> u64 {
    seed ^ salt.wrapping_add(1).wrapping_mul(0xD1B5_4A32_D192_ED03)
}

/// About `count` distinct positions of `solution`'s board with their values: half from
/// games the agent of `agent` plays against itself (after one to three random turns), half from
/// random games, seeded by `seed`. Positions whose solved distance reaches the no-capture
/// limit are left out (their value with the limit may differ): the second number is how
/// many. Fewer on boards with few positions.
pub fn questions(
    agent: &AgentFactory,
    solution: &Solution,
    count: usize,
    seed: u64,
    progress: &ProgressBar,
) -> Result<(Vec<Question>, usize), ExamError> {
    if count == 0 {
        return Err(ExamError::Settings(
            "at least one position is needed".into(),
        ));
    }
    let start = Position::initial(solution.board());
    let limit = start.rules().no_capture_limit.unwrap_or(u16::MAX);
    let random = |seed: u64| -> Built { Ok(Box::new(RandomAgent::new(seed))) };
    let own = Sampler::new(start, vec![(agent, agent)], OPENING_PLIES, PER_GAME, seed);
    let played = Sampler::new(
        start,
        vec![(&random, &random)],
        0,
        PER_GAME,
        derive(seed, 1),
    );
    let mut seen = HashSet::new();
    let half = count.div_ceil(2);
    let mut out = Vec::with_capacity(count);
    let mut excluded = 0;
    for (source, sampler, target) in [
        (Source::Agent, own, half),
        (Source::Random, played, count - half),
    ] {
        for position in sampler.sample(target, &mut seen, progress)? {
            let value = solved(solution, &position)?;
            if value.distance().is_some_and(|d| d >= limit) {
                excluded += 1;
                continue;
            }
            out.push(Question {
                position,
                source,
                value,
            });
        }
    }
    Ok((out, excluded))
}

/// How an agent did on a set of questions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KeepTally {
    /// Positions answered.
    pub positions: u64,
    /// Of which won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost (any turn keeps a loss: not scored).
    pub losses: u64,
    /// Won positions where the chosen turn keeps the win.
    pub kept_wins: u64,
    /// Drawn positions where the chosen turn keeps the draw.
    pub kept_draws: u64,
    /// Positions where the chosen turn is among the best, distance included (the fastest
    /// win, a draw, the slowest loss).
    pub optimal: u64,
}

impl KeepTally {
    /// Adds the answer to a question of value `value` whose chosen turn is worth `chosen`
    /// for the side that played it.
    pub fn add(&mut self, value: Value, chosen: Value) {
        self.positions += 1;
        self.optimal += u64::from(chosen == value);
        match value {
            Value::Win(_) => {
                self.wins += 1;
                self.kept_wins += u64::from(matches!(chosen, Value::Win(_)));
            }
            Value::Draw => {
                self.draws += 1;
                self.kept_draws += u64::from(chosen >= Value::Draw);
            }
            Value::Loss(_) => self.losses += 1,
        }
    }

    /// Adds the answer to a question of proven value `value` (no distance: `optimal` is not
    /// counted) whose chosen turn keeps it or not.
    pub fn add_proven(&mut self, value: Verdict, kept: bool) {
        self.positions += 1;
        let kept = u64::from(kept);
        match value {
            Verdict::Win => {
                self.wins += 1;
                self.kept_wins += kept;
            }
            Verdict::Draw => {
                self.draws += 1;
                self.kept_draws += kept;
            }
            Verdict::Loss => self.losses += 1,
        }
    }

    /// Adds the counts of `other`.
    pub fn merge(&mut self, other: &KeepTally) {
        self.positions += other.positions;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
        self.kept_wins += other.kept_wins;
        self.kept_draws += other.kept_draws;
        self.optimal += other.optimal;
    }

    /// The share of won and drawn positions whose value the chosen turn keeps: the exam's
    /// score. `None` without such positions.
    pub fn keeps_value(&self) -> Option<f64> {
        share(self.kept_wins + self.kept_draws, self.wins + self.draws)
    }

    /// The 95% interval of [`KeepTally::keeps_value`] (Wilson's).
    pub fn keeps_value_interval(&self) -> Option<(f64, f64)> {
        share_interval(self.kept_wins + self.kept_draws, self.wins + self.draws)
    }

    /// The share of won positions where the turn keeps the win.
    pub fn keeps_wins(&self) -> Option<f64> {
        share(self.kept_wins, self.wins)
    }

    /// The share of drawn positions where the turn keeps the draw.
    pub fn keeps_draws(&self) -> Option<f64> {
        share(self.kept_draws, self.draws)
    }

    /// The share of positions where the turn is among the best, distance included.
    pub fn optimal_share(&self) -> Option<f64> {
        share(self.optimal, self.positions)
    }

    /// The counts and shares as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "positions": self.positions,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "kept_wins": self.kept_wins,
            "kept_draws": self.kept_draws,
            "optimal": self.optimal,
            "keeps_value": self.keeps_value(),
            "keeps_wins": self.keeps_wins(),
            "keeps_draws": self.keeps_draws(),
            "optimal_share": self.optimal_share(),
        })
    }
}

/// The result of an exam on a solved board.
#[derive(Clone, Debug, PartialEq)]
pub struct ExamReport {
    /// The agent's name.
    pub agent: String,
    /// The board, `WxH`.
    pub board: String,
    /// The exam's seed.
    pub seed: u64,
    /// Every position.
    pub all: KeepTally,
    /// The positions from the agent's own games.
    pub own_games: KeepTally,
    /// The positions from random play.
    pub random_games: KeepTally,
    /// Positions left out: their solved distance reaches the no-capture limit.
    pub excluded: usize,
    /// The value head's score, for an agent with a network (filled in by the caller).
    pub value_head: Option<ValueScore>,
}

impl ExamReport {
    /// The report as JSON.
    pub fn to_json(&self) -> serde_json::Value {
        json!({
            "agent": self.agent,
            "board": self.board,
            "seed": self.seed,
            "positions": self.all.positions,
            "keeps_value": self.all.keeps_value(),
            "all": self.all.to_json(),
            "own_games": self.own_games.to_json(),
            "random_games": self.random_games.to_json(),
            "excluded_long": self.excluded,
            "value_head": self.value_head.as_ref().map(ValueScore::to_json),
        })
    }
}

/// The value, for the side that played it, of the turn `agent` chooses in `question`.
fn answer(
    agent: &mut dyn Agent<Fanorona>,
    solution: &Solution,
    question: &Question,
) -> Result<Value, ExamError> {
    agent.reset();
    let mut game = Fanorona::new(question.position);
    agent_turn(agent, &mut game).map_err(|e| ExamError::Agent {
        agent: e.agent,
        reason: e.reason,
    })?;
    Ok(solved(solution, game.position())?.before_turn())
}

/// Asks the agent of `agent` for a turn in each question and scores the turns against
/// `solution`. Agents are built per chunk of questions with seeds derived from `seed`; the
/// chunks run in parallel. `excluded` is passed on to the report.
pub fn examine(
    agent: &AgentFactory,
    solution: &Solution,
    questions: &[Question],
    seed: u64,
    excluded: usize,
    progress: &ProgressBar,
) -> Result<ExamReport, ExamError> {
    if questions.is_empty() {
        return Err(ExamError::Settings("no positions to examine".into()));
    }
    let answers: Vec<Result<(String, Vec<Value>), ExamError>> = questions
        .par_chunks(CHUNK)
        .enumerate()
        .map(|(chunk, questions)| {
            let mut player = agent(derive(seed, 2 + chunk as u64)).map_err(ExamError::Build)?;
            let values = questions
                .iter()
                .map(|q| {
                    let value = answer(&mut *player, solution, q);
                    progress.inc(1);
                    value
                })
                .collect::<Result<_, _>>()?;
            Ok((player.name(), values))
        })
        .collect();
    let board = solution.board();
    let mut report = ExamReport {
        agent: String::new(),
        board: format!("{}x{}", board.width(), board.height()),
        seed,
        all: KeepTally::default(),
        own_games: KeepTally::default(),
        random_games: KeepTally::default(),
        excluded,
        value_head: None,
    };
    let mut chosen = Vec::with_capacity(questions.len());
    for chunk in answers {
        let (name, values) = chunk?;
        report.agent = name;
        chosen.extend(values);
    }
    for (q, chosen) in questions.iter().zip(chosen) {
        report.all.add(q.value, chosen);
        match q.source {
            Source::Agent => report.own_games.add(q.value, chosen),
            Source::Random => report.random_games.add(q.value, chosen),
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SolverAgent;
    use crate::agents::turn_agent::{TurnAgent, TurnChooser};
    use fanorona_env::{AgentError, Turn};
    use fanorona_exact::solver::{TableSource, shared_solution};
    use std::sync::Arc;

    fn table(w: usize, h: usize) -> Arc<Solution> {
        shared_solution(&TableSource::Solve(w, h)).unwrap()
    }

    /// Plays the turn of the worst value for itself (the fastest loss): a deliberately bad
    /// agent.
    struct Worst(Arc<Solution>);

    impl TurnChooser for Worst {
        fn name(&self) -> String {
            "worst".into()
        }

        fn choose_turn(&mut self, game: &Fanorona) -> Result<Turn, AgentError> {
            let values = self.0.turn_values(game.position()).unwrap();
            Ok(values.into_iter().min_by_key(|&(_, v)| v).unwrap().0)
        }
    }

    /// The report of `agent`'s exam on `solution`'s board: 300 positions, seed 5.
    fn exam(agent: &AgentFactory, solution: &Solution) -> ExamReport {
        let hidden = ProgressBar::hidden();
        let (questions, excluded) = questions(agent, solution, 300, 5, &hidden).unwrap();
        examine(agent, solution, &questions, 5, excluded, &hidden).unwrap()
    }

    #[test]
    fn the_solver_keeps_every_value_and_worse_players_do_not() {
        let solution = table(5, 3);
        let perfect = |seed| -> Built { Ok(Box::new(SolverAgent::new(table(5, 3), seed))) };
        let random = |seed| -> Built { Ok(Box::new(RandomAgent::new(seed))) };
        let worst = |_| -> Built { Ok(Box::new(TurnAgent::new(Worst(table(5, 3))))) };
        let best = exam(&perfect, &solution);
        assert_eq!(best.all.positions, 300);
        assert_eq!(
            best.all.positions,
            best.own_games.positions + best.random_games.positions
        );
        assert_eq!(best.own_games.positions, 150);
        assert_eq!(best.excluded, 0);
        assert!(best.all.wins > 50 && best.all.losses > 20, "{:?}", best.all);
        assert_eq!(best.all.keeps_value(), Some(1.0));
        assert_eq!(best.all.optimal_share(), Some(1.0));
        assert_eq!(best.agent, "solver:board=5x3");

        let played = exam(&random, &solution);
        let kept = played.all.keeps_value().unwrap();
        assert!(kept < 0.95, "random keeps {kept}");
        let bad = exam(&worst, &solution).all;
        let bad_kept = bad.keeps_value().unwrap();
        assert!(bad_kept < 0.5 && bad_kept < kept, "worst keeps {bad_kept}");
        // Seeded: the same exam again gives the same report.
        assert_eq!(exam(&random, &solution), played);
    }

    #[test]
    fn a_tally_scores_wins_and_draws_only() {
        let mut tally = KeepTally::default();
        tally.add(Value::Win(3), Value::Win(3));
        tally.add(Value::Win(3), Value::Win(7));
        tally.add(Value::Win(5), Value::Draw);
        tally.add(Value::Draw, Value::Draw);
        tally.add(Value::Draw, Value::Loss(4));
        tally.add(Value::Loss(2), Value::Loss(2));
        tally.add(Value::Loss(6), Value::Loss(2));
        assert_eq!((tally.wins, tally.draws, tally.losses), (3, 2, 2));
        assert_eq!((tally.kept_wins, tally.kept_draws), (2, 1));
        assert_eq!(tally.keeps_value(), Some(0.6));
        assert_eq!(tally.optimal, 3);
        assert_eq!(KeepTally::default().keeps_value(), None);
    }

    #[test]
    fn no_positions_is_an_error() {
        let solution = table(3, 3);
        let random = |seed| -> Built { Ok(Box::new(RandomAgent::new(seed))) };
        let hidden = ProgressBar::hidden();
        assert!(matches!(
            questions(&random, &solution, 0, 1, &hidden),
            Err(ExamError::Settings(_))
        ));
        assert!(matches!(
            examine(&random, &solution, &[], 1, 0, &hidden),
            Err(ExamError::Settings(_))
        ));
    }
}
