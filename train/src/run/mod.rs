//! The training run: its configuration (presets, TOML), the loop of self-play, replay and
//! learner steps with checkpoints and resume, evaluation matches, metrics and their plot, and
//! the learning curve in rating; an `abnet` run's start network and gate; the student a
//! finished MCTS run teaches its network to.

mod config;
pub(crate) mod evaluation;
mod gate;
mod learning_curve;
mod metrics;
mod plot;
mod progress;
mod start;
pub(crate) mod state;
mod student;
mod train;

pub use config::{FanoronaPart, LoopConfig, PRESETS, RunConfig, RunConfigError, TrainingConfig};
pub use evaluation::{Evaluation, NetworkMatch, strength_opponent};
pub use learning_curve::{CurveError, CurvePoint, curve_csv, curve_table, learning_curve};
pub use metrics::{MetricsError, MetricsRow, MetricsWriter, Row, read_metrics, read_rows};
pub use plot::{PlotError, plot_learning_curves, plot_metrics};
pub use train::{RunSummary, TrainError, TrainOptions, resolve_config, train};
