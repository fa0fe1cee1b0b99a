//! PNGs of a run's learning curves (`curves.png`: losses, policy entropy, the strength of
//! its agent, the exact exam, self-play speed) and of runs' ratings against training time,
//! drawn with `plotters`' bitmap backend. Text needs a TrueType font, looked up at run time
//! (`font.rs`); with none found the curves are drawn without labels, so the build never depends
//! on system fonts.

mod chart;
mod font;
mod metrics;
mod ratings;

pub use metrics::plot_metrics;
pub use ratings::plot_learning_curves;

/// A plot that cannot be drawn or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot draw the plot {path}: {message}")]
pub struct PlotError {
    /// The image file.
    pub path: String,
    /// What went wrong.
    pub message: String,
}
