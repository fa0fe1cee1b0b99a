//! The training run in one process: the loop composing the roles ([`crate::roles`]) with
//! checkpoints and resume, the plot of its metrics, the learning curve in rating, an `abnet`
//! run's gate, and the student a finished MCTS run teaches its network to.

mod gate;
mod learning_curve;
mod plot;
mod progress;
mod student;
mod train;

pub use learning_curve::{CurveError, CurvePoint, curve_csv, curve_table, learning_curve};
pub use plot::{PlotError, plot_learning_curves, plot_metrics};
pub use train::{RunSummary, TrainOptions, train};
