//! The configuration layer, the bottom of the crate: every settings type of a run as pure data
//! with its serde form, defaults, validation and descriptions, one file a section: the network
//! ([`NetworkConfig`], [`Architecture`]), the device ([`ComputeDevice`]), the learning-rate
//! schedule ([`LrSchedule`]), the trainer ([`TrainerConfig`], [`OptimizerConfig`]), the replay
//! window ([`ReplayConfig`]), self-play ([`SelfPlayConfig`], [`MctsConfig`],
//! [`AlphaBetaConfig`]), distillation ([`DistillSettings`]) and the whole run
//! ([`RunConfig`]: read from TOML, with embedded presets). It uses no other module of the
//! crate; the layers above build their things from these settings.

mod device;
mod distill;
mod network;
mod replay;
mod run;
mod schedule;
mod selfplay;
mod trainer;

pub use device::{ComputeDevice, DeviceError};
pub use distill::{DistillSettings, DistillSettingsError, MAX_POSITIONS};
pub use network::{Architecture, NetworkConfig, NetworkConfigError, NetworkSection, ValueHead};
pub use replay::ReplayConfig;
pub use run::{
    FanoronaPart, LoopConfig, MAX_ACTIONS, MAX_BATCH, MAX_CONFIG_BYTES, MAX_GAMES, MAX_NODES,
    MAX_PARALLEL_GAMES, MAX_SIMULATIONS, MAX_STEPS, MAX_WINDOW_GAMES, PRESETS, RunConfig,
    RunConfigError, TrainingConfig,
};
pub use schedule::LrSchedule;
pub use selfplay::{AlphaBetaConfig, MctsConfig, PlayoutCap, ProverTargets, SelfPlayConfig};
pub use trainer::{OptimizerConfig, TrainerConfig};
