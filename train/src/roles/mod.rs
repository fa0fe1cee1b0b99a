//! Training as three roles that can run in one process or many: the [`SelfPlayWorker`] (a
//! model in, a [`Shard`](crate::io::Shard) of finished games out), the [`Learner`] (games in;
//! learner steps, numbered model versions and checkpoints out) and the [`Gauntlet`] (model
//! versions against fixed opponents). `fanorona train` composes them in one loop (with the
//! worker and learner of its game's own type, `game_worker` and `game_learner`). Over a shared
//! run directory (its model versions and shards: [`RunDir`](crate::run_dir::RunDir)) each
//! role has its loop, stoppable and reporting events: [`run_learner`], [`run_worker`] and
//! [`run_gauntlet`], which `fanorona learn`, `selfplay` and `gauntlet --run` wrap. Python and
//! the Ray driver drive the same types, which take and give bytes and reach the run's game
//! through the registry ([`GameId::visit`](fanorona_env::GameId::visit)); the Ray learner
//! advances with [`Learner::advance`], the step of [`run_learner`].

pub(crate) mod evaluation;
mod game_learner;
mod game_worker;
mod gauntlet;
mod gauntlet_loop;
mod labels;
mod learner;
mod learner_loop;
mod start;
pub(crate) mod state;
mod worker;
mod worker_loop;

pub use evaluation::{Evaluation, NetworkMatch, strength_opponent};
pub(crate) use game_learner::GameLearner;
pub use game_learner::{Ingested, LossMeans};
pub(crate) use game_worker::GameWorker;
pub use game_worker::shard_rng;
pub use gauntlet::{Gauntlet, GauntletRow};
pub use gauntlet_loop::{GauntletSchedule, run_gauntlet};
pub(crate) use labels::{run_labels, run_prover};
pub use learner::{DEFAULT_REPLAY_RATIO, Learner, LearnerRow};
pub use learner_loop::{LearnLimits, LearnerEnd, LearnerEvent, run_learner};
pub(crate) use start::check_start_network;
pub use worker::SelfPlayWorker;
pub use worker_loop::{WorkerLimits, WorkerTotals, run_worker};
