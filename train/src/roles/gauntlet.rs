//! The gauntlet (the evaluator role): evaluates model versions ([`Evaluation`]): the agent
//! the run names plays its strength opponent ([`strength_opponent`](super::strength_opponent))
//! in a quick arena match with the run configuration's `eval_games` (and `eval_simulations`),
//! seeded from the run's seed and the version, and the network takes the exact exam.
//! `fanorona train` evaluates every `eval_every_iterations` iterations with it, `fanorona
//! gauntlet --run` every new model version the learner publishes.

use fanorona_env::Board;
use serde::{Deserialize, Serialize};

use super::evaluation::{Evaluation, evaluate};
use crate::config::RunConfig;
use crate::error::TrainError;
use crate::model::PolicyValueNet;
use crate::run_dir::Row;

/// Evaluates networks of one run.
pub struct Gauntlet {
    config: RunConfig,
    board: &'static Board,
}

impl Gauntlet {
    /// The evaluator of the run `config`, if its game has evaluation opponents (a game
    /// alpha-beta plays: minimax is the arena's opponent).
    pub fn for_run(config: &RunConfig) -> Option<Gauntlet> {
        config.game.has_alpha_beta().then(|| Gauntlet {
            config: config.clone(),
            board: config.game.board(),
        })
    }

    /// Evaluates `net` (model version or iteration `version`).
    pub fn evaluate(&self, net: &PolicyValueNet, version: u64) -> Result<Evaluation, TrainError> {
        evaluate(net, &self.config, self.board, version)
    }
}

/// One model version's scores against the evaluation opponents: a row of the evaluator's
/// results in a run directory (`gauntlet.csv`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GauntletRow {
    /// The model version.
    pub version: u64,
    /// Its learner step.
    pub step: u64,
    /// Games of the strength match (per opponent, before 2026-12-06).
    pub games: u64,
    /// Of gauntlets before 2026-12-06: the network's score (win 1, draw 1/2) against
    /// `minimax:depth=1`.
    #[serde(default)]
    pub score_vs_minimax1: Option<f64>,
    /// Of gauntlets before 2026-12-06: its score against `minimax:depth=2`.
    #[serde(default)]
    pub score_vs_minimax2: Option<f64>,
    /// The score of the agent the run names against its strength opponent.
    #[serde(default)]
    pub strength_score: Option<f64>,
    /// The low end of its 95% interval.
    #[serde(default)]
    pub strength_low: Option<f64>,
    /// The high end of its 95% interval.
    #[serde(default)]
    pub strength_high: Option<f64>,
    /// Of 9x5 runs: the raw policy's share of kept values on the built-in exact set.
    #[serde(default)]
    pub exact_keeps: Option<f64>,
    /// The value head's accuracy on it.
    #[serde(default)]
    pub exact_value_accuracy: Option<f64>,
}

impl GauntletRow {
    /// The row of model version `version` at learner step `step` and its evaluation.
    pub fn new(version: u64, step: u64, evaluation: &Evaluation) -> GauntletRow {
        let strength = evaluation.score_with_interval();
        GauntletRow {
            version,
            step,
            games: evaluation.strength.map_or(0, |t| u64::from(t.games())),
            strength_score: strength.map(|s| s.0),
            strength_low: strength.map(|s| s.1),
            strength_high: strength.map(|s| s.2),
            exact_keeps: evaluation.exact.as_ref().map(|e| e.keeps),
            exact_value_accuracy: evaluation.exact.as_ref().map(|e| e.value_accuracy),
            ..GauntletRow::default()
        }
    }
}

impl Row for GauntletRow {
    fn iteration(&self) -> u64 {
        self.version
    }
}
