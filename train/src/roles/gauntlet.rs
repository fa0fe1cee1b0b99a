//! The gauntlet (the evaluator role): plays model versions against the run's fixed opponents
//! ([`EVAL_OPPONENTS`](crate::run::EVAL_OPPONENTS)) in quick arena matches with the run
//! configuration's `eval_games` and `eval_simulations`, seeded from the run's seed and the
//! version. `fanorona train` evaluates every `eval_every_iterations` iterations with it,
//! `fanorona gauntlet --run` every new model version the learner publishes.

use fanorona_env::{Board, GameId};
use serde::{Deserialize, Serialize};

use crate::model::PolicyValueNet;
use crate::run::evaluation::evaluate;
use crate::run::{Row, RunConfig, TrainError};

/// Evaluates networks of one run.
pub struct Gauntlet {
    config: RunConfig,
    board: &'static Board,
}

impl Gauntlet {
    /// The evaluator of the run `config`, if its game has evaluation opponents (Fanorona;
    /// the arena and minimax do not play Telo).
    pub fn for_run(config: &RunConfig) -> Result<Option<Gauntlet>, TrainError> {
        Ok(match config.game.id()? {
            GameId::Fanorona(board) => Some(Gauntlet {
                config: config.clone(),
                board,
            }),
            GameId::Telo => None,
        })
    }

    /// The scores of `net` (model version or iteration `version`) against each opponent.
    pub fn scores(&self, net: &PolicyValueNet, version: u64) -> Result<[f64; 2], TrainError> {
        evaluate(net, &self.config, self.board, version)
    }
}

/// The evaluator's results file in a run directory: one [`GauntletRow`] per model version.
pub const GAUNTLET_FILE: &str = "gauntlet.csv";

/// One model version's scores against the evaluation opponents.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct GauntletRow {
    /// The model version.
    pub version: u64,
    /// Its learner step.
    pub step: u64,
    /// Games per opponent.
    pub games: u64,
    /// Score (win 1, draw 1/2) against `minimax:depth=1`.
    pub score_vs_minimax1: f64,
    /// Score against `minimax:depth=2`.
    pub score_vs_minimax2: f64,
}

impl Row for GauntletRow {
    fn iteration(&self) -> u64 {
        self.version
    }
}
