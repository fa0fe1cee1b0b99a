//! The minimax player: a [`Searcher`] behind the [`TurnChooser`] interface.

use std::path::PathBuf;

use fanorona_env::{AgentError, Budget, Fanorona, SearchInfo, SearchLimits, Turn};

use super::evaluate::{Handcrafted, StaticEvaluation};
use super::search::{MATE_BOUND, MinimaxResult, Searcher};
use crate::agents::turn_agent::TurnChooser;
use fanorona_exact::tables::shared_tables;

/// Score (hundredths of a piece) whose value is tanh(1) ~ 0.76 in [`value_of_score`].
const VALUE_SCALE: f32 = 300.0;

/// Chooses turns by alpha-beta search, its leaves valued by `E`.
#[derive(Debug)]
pub struct MinimaxChooser<E = Handcrafted> {
    name: String,
    searcher: Searcher<E>,
    /// The budget of the specification, which stands unless a caller's replaces it.
    configured: Budget,
    last: Option<MinimaxResult>,
    /// The expected continuation of the last search, in notation.
    pv: Vec<String>,
    /// The folder of endgame tables to probe, loaded for the game's board at its first move.
    tables: Option<PathBuf>,
}

impl MinimaxChooser {
    /// A minimax player called `name` searching within `budget`, with a `hash_mb` MiB table
    /// and a seed.
    pub fn new(name: impl Into<String>, budget: Budget, hash_mb: usize, seed: u64) -> Self {
        MinimaxChooser::with_evaluation(name, budget, hash_mb, seed, Handcrafted)
    }
}

impl<E: StaticEvaluation> MinimaxChooser<E> {
    /// A minimax player as [`MinimaxChooser::new`] whose leaves `evaluation` values.
    pub fn with_evaluation(
        name: impl Into<String>,
        budget: Budget,
        hash_mb: usize,
        seed: u64,
        evaluation: E,
    ) -> Self {
        MinimaxChooser {
            name: name.into(),
            searcher: Searcher::with_evaluation(budget, hash_mb, seed, evaluation),
            configured: budget,
            last: None,
            pv: Vec::new(),
            tables: None,
        }
    }

    /// The same player with late-move reductions on or off ([`Searcher::set_reductions`]).
    pub fn with_reductions(mut self, on: bool) -> Self {
        self.searcher.set_reductions(on);
        self
    }

    /// The same player with the use of unfinished iterations on or off
    /// ([`Searcher::set_unfinished`]).
    pub fn with_unfinished(mut self, on: bool) -> Self {
        self.searcher.set_unfinished(on);
        self
    }

    /// The same player probing the endgame tables in the folder `dir` (if given): exact
    /// values of positions with few pieces at its leaves and root.
    pub fn with_tables(mut self, dir: Option<PathBuf>) -> Self {
        self.tables = dir;
        self
    }

    /// Loads the tables of `game`'s board into the searcher, where a folder is given and
    /// they are not loaded yet.
    fn load_tables(&mut self, game: &Fanorona) -> Result<(), AgentError> {
        let Some(dir) = &self.tables else {
            return Ok(());
        };
        let board = game.position().board();
        if self
            .searcher
            .tables()
            .is_some_and(|t| std::ptr::eq(t.board(), board))
        {
            return Ok(());
        }
        let tables = shared_tables(dir, board).map_err(|e| AgentError {
            agent: self.name.clone(),
            reason: e.to_string(),
        })?;
        self.searcher.set_tables(Some(tables));
        Ok(())
    }
}

/// A score in hundredths of a piece as an expected result in `[-1, 1]`: a forced win or
/// loss is ±1, otherwise `tanh(score / 300)` (a rough scale: one piece ahead ~ 0.32).
pub fn value_of_score(score: i32) -> f32 {
    if score.abs() > MATE_BOUND {
        score.signum() as f32
    } else {
        (score as f32 / VALUE_SCALE).tanh()
    }
}

/// The inverse of [`value_of_score`] for a value strictly inside `(-1, 1)`: the score in
/// hundredths of a piece whose value it is (values beyond ±0.999 count as ±0.999, so that the
/// score stays far from the forced results').
pub fn score_of_value(value: f32) -> i32 {
    score_of_logit(value.clamp(-0.999, 0.999).atanh())
}

/// `atanh(0.999)`: the logit of the largest value [`score_of_value`] distinguishes.
pub const LARGEST_LOGIT: f32 = 3.800_201;

/// The score of the value `tanh(logit)` as [`score_of_value`] gives it, without computing
/// either function: for a network whose value is the tanh of its output.
pub fn score_of_logit(logit: f32) -> i32 {
    (VALUE_SCALE * logit.clamp(-LARGEST_LOGIT, LARGEST_LOGIT)).round() as i32
}

impl<E: StaticEvaluation + Send> TurnChooser for MinimaxChooser<E> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn choose_turn(&mut self, game: &Fanorona) -> Result<Turn, AgentError> {
        self.load_tables(game)?;
        self.last = self.searcher.search(game);
        let result = self.last.ok_or_else(|| AgentError {
            agent: self.name.clone(),
            reason: "no legal turn in this position".into(),
        })?;
        let pos = game.position();
        let pv = self
            .searcher
            .principal_variation(pos, &result.turn, result.depth.max(1) as usize);
        let mut at = *pos;
        self.pv.clear();
        for turn in &pv {
            self.pv.push(turn.notation(at.board()));
            at.play_turn_unchecked(turn);
        }
        Ok(result.turn)
    }

    fn reset(&mut self) {
        self.searcher.clear();
        self.last = None;
        self.pv.clear();
    }

    /// A caller's time, nodes or depth replace the specification's budget (see
    /// [`Budget::under`]); the stop flag ends a search once set.
    fn set_limits(&mut self, limits: &SearchLimits) {
        self.searcher
            .set_budget(self.configured.under(&limits.budget, true));
        self.searcher.set_stop(limits.stop.clone());
    }

    fn last_info(&self) -> Option<SearchInfo> {
        let result = self.last?;
        Some(SearchInfo {
            depth: Some(result.depth),
            value: Some(value_of_score(result.score)),
            wdl: None,
            centipieces: result.mate_in().is_none().then_some(result.score),
            mate_in: result.mate_in(),
            nodes: result.nodes,
            time: result.elapsed,
            pv: self.pv.clone(),
            note: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};

    use fanorona_env::{Agent, Game, Position};

    use super::*;
    use crate::agents::turn_agent::TurnAgent;

    fn agent(budget: Budget) -> TurnAgent<MinimaxChooser> {
        TurnAgent::new(MinimaxChooser::new("minimax", budget, 1, 0))
    }

    #[test]
    fn caller_limits_replace_the_configured_ones_and_info_follows() {
        let mut player = agent(Budget::fixed_depth(4));
        let game = Fanorona::standard();
        assert!(player.last_info().is_none());
        player.set_limits(&SearchLimits::of(Budget::fixed_depth(2)));
        let action = player.act(&game).unwrap();
        let info = player.last_info().unwrap();
        assert_eq!(info.depth, Some(2));
        assert!(info.nodes > 0 && (-1.0..=1.0).contains(&info.value.unwrap()));
        // The principal variation starts with the turn played and is a legal line.
        assert!(!info.pv.is_empty() && info.pv.len() <= 2, "{:?}", info.pv);
        let mut pos = *game.position();
        let first = pos.play_turn(&info.pv[0]).unwrap();
        assert_eq!(
            game.step_to_action(Position::standard().turn_steps(&first)[0]),
            action
        );
        for turn in &info.pv[1..] {
            pos.play_turn(turn).unwrap();
        }
    }

    #[test]
    fn a_set_stop_flag_ends_a_long_search_after_depth_one() {
        let stop = Arc::new(AtomicBool::new(true));
        let mut player = agent(Budget::default());
        player.set_limits(&SearchLimits {
            stop: Some(stop),
            ..SearchLimits::default()
        });
        let start = Instant::now();
        let game = Fanorona::standard();
        let action = player.act(&game).unwrap();
        assert!(game.is_legal(action));
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(player.last_info().unwrap().depth.unwrap() <= 2);
    }

    #[test]
    fn scores_and_values_convert_both_ways() {
        for score in [-900, -300, -1, 0, 1, 150, 1000] {
            assert_eq!(score_of_value(value_of_score(score)), score);
        }
        // Values of certain results stay far from the forced results' scores, in order.
        assert!(score_of_value(1.0) < MATE_BOUND / 100);
        assert_eq!(score_of_value(-1.0), -score_of_value(1.0));
        assert!(score_of_value(1.0) > score_of_value(0.99));
        assert!((LARGEST_LOGIT - 0.999f32.atanh()).abs() < 1e-5);
        for logit in [-9.0, -3.5, -0.4, 0.0, 0.01, 1.0, 2.5, 3.9, 20.0] {
            let through_value = score_of_value(f32::tanh(logit));
            assert!(
                (score_of_logit(logit) - through_value).abs() <= 1,
                "{logit}"
            );
        }
    }

    #[test]
    fn wins_have_value_one_and_no_centipieces() {
        // White c1 takes both black pieces with the chain c1d1Ad2A.
        let game = Fanorona::new(Position::from_fen("9/9/3B5/9/2W1B4 w").unwrap());
        let mut player = agent(Budget::fixed_depth(2));
        player.act(&game).unwrap();
        let info = player.last_info().unwrap();
        assert_eq!(
            (info.value, info.centipieces, info.mate_in),
            (Some(1.0), None, Some(1))
        );
        assert_eq!(info.pv[0], "c1d1Ad2A");
    }
}
