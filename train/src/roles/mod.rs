//! Training as three roles that can run in one process or many: the self-play
//! [`SelfPlayWorker`] (a model in, a [`Shard`](crate::io::Shard) of finished games out), the
//! [`ShardLearner`] (games in; learner steps, numbered model versions and checkpoints out) and
//! the [`ModelEvaluator`] (model versions against fixed opponents). `fanorona train` composes
//! them in one loop; `fanorona selfplay`, `learn` and `gauntlet` run each alone over a shared
//! run directory (the [`models`] store and `games/*.shard`); [`actors`] gives the same roles
//! to other drivers (Ray) as functions from bytes to bytes.

pub mod actors;
mod evaluator;
mod learner;
pub mod models;
mod worker;

pub use evaluator::{GAUNTLET_FILE, GauntletRow, ModelEvaluator};
pub use learner::{Ingested, LossMeans, ShardLearner};
pub use worker::{SelfPlayWorker, shard_rng};
