//! The training run: its configuration (presets, TOML), the loop of self-play, replay and
//! learner steps with checkpoints and resume, evaluation matches, metrics and their plot.

mod config;
mod evaluation;
mod metrics;
mod plot;
mod train;

pub use config::{
    CONFIG_FILE, GameConfig, LoopConfig, PRESETS, RunConfig, RunConfigError, TrainingConfig,
};
pub use evaluation::{NetworkMatch, network_agent};
pub use metrics::{METRICS_FILE, MetricsError, MetricsRow, MetricsWriter, read_metrics};
pub use plot::{PlotError, plot_metrics};
pub use train::{
    CURVES_FILE, EVAL_OPPONENTS, REPLAY_FILE, RunSummary, TrainError, TrainOptions, resolve_config,
    train,
};
