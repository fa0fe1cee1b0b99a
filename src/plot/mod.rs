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

/// Draws a plot into a temporary `name` with `draw` and checks it is a PNG of some size; for
/// the plots' tests.
#[cfg(test)]
fn assert_draws_png(name: &str, draw: impl FnOnce(&std::path::Path) -> Result<(), PlotError>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    draw(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[1..4], b"PNG");
    assert!(bytes.len() > 5_000);
}
