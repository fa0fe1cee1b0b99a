//! Training as three roles that can run in one process or many: the [`SelfPlayWorker`] (a
//! model in, a [`Shard`](crate::io::Shard) of finished games out), the [`Learner`] (games in;
//! learner steps, numbered model versions and checkpoints out) and the [`Gauntlet`] (model
//! versions against fixed opponents). `fanorona train` composes them in one loop (with the
//! worker and learner of its game's own type, `game_worker` and `game_learner`); `fanorona
//! selfplay`, `learn` and `gauntlet --run` run each alone over a shared run directory (its
//! model versions and shards: [`RunDir`](crate::run_dir::RunDir)), and Python and Ray drive the same types, which take
//! and give bytes and reach the run's game through the registry
//! ([`GameId::visit`](fanorona_env::GameId::visit)).

pub(crate) mod evaluation;
mod game_learner;
mod game_worker;
mod gauntlet;
mod labels;
mod learner;
mod start;
pub(crate) mod state;
mod worker;

pub use evaluation::{Evaluation, NetworkMatch, strength_opponent};
pub(crate) use game_learner::GameLearner;
pub use game_learner::{Ingested, LossMeans};
pub(crate) use game_worker::GameWorker;
pub use game_worker::shard_rng;
pub use gauntlet::{Gauntlet, GauntletRow};
pub(crate) use labels::run_labels;
pub use learner::{DEFAULT_REPLAY_RATIO, Learner, LearnerRow};
pub use worker::SelfPlayWorker;
