//! Learning to play Fanorona by self-play: the policy/value network and its evaluator for the
//! tree search of `fanorona-search`, self-play, replay, the learner, checkpoints and export.

pub mod device;
pub mod io;
pub mod learner;
pub mod metrics;
pub mod net_agent;
pub mod network;
pub mod network_evaluator;
pub mod network_match;
pub mod plot;
mod registry;
pub mod replay;
pub mod rl_adapter;
pub mod rng;
pub mod run_config;
pub mod schedule;
pub mod selfplay;
#[cfg(test)]
mod test_support;
pub mod trainer;

pub use device::{ComputeDevice, DeviceError};
pub use io::checkpoint::{Checkpoint, CheckpointError, CheckpointMeta};
pub use io::policy::{
    LoadedPolicy, PolicyFileError, PolicyMeta, export_checkpoint, export_policy, load_policy,
};
pub use io::{FileError, FileKind};
pub use learner::{Learner, LearnerConfig, LossReport, OptimizerConfig};
pub use metrics::{MetricsRow, MetricsWriter};
pub use network::{Architecture, NetworkConfig, PolicyValueNet};
pub use network_evaluator::NetworkEvaluator;
pub use registry::registry;
pub use replay::{
    Batch, GameMeta, GameRecorder, ReplayBuffer, ReplayConfig, ReplayFileError, StoredGame,
};
pub use rl_adapter::{RlEnv, RlState};
pub use rng::{RngState, TrainRng};
pub use run_config::{RunConfig, RunConfigError};
pub use schedule::LrSchedule;
