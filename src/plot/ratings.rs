//! A plot of runs' ratings against training time (`fanorona rate --plot`).

use std::path::Path;

use fanorona_train::run::CurvePoint;
use plotters::prelude::*;

use super::PlotError;
use super::chart::{Curve, Panel, draw_panel, draw_png};

/// The colours of successive runs on a rating plot.
const RUN_COLORS: [RGBColor; 4] = [BLUE, RED, GREEN, MAGENTA];

/// Draws the ratings of each run's checkpoints (`points`, grouped by run and search, as
/// [`learning_curve`](fanorona_train::run::learning_curve) orders them) against core hours,
/// with their 95% intervals, into the PNG at `path`.
pub fn plot_learning_curves(points: &[CurvePoint], path: &Path) -> Result<(), PlotError> {
    let mut curves: Vec<Curve> = Vec::new();
    for p in points {
        let series = p.series();
        if curves.last().is_none_or(|c| c.name != series) {
            curves.push(Curve {
                name: series,
                color: RUN_COLORS[curves.len() % RUN_COLORS.len()],
                points: Vec::new(),
                intervals: Vec::new(),
            });
        }
        let curve = curves.last_mut().expect("pushed above");
        curve.points.push((p.core_hours, p.rating));
        if let (Some(low), Some(high)) = (p.low, p.high) {
            curve.intervals.push((p.core_hours, p.rating, low, high));
        }
    }
    let panel = Panel {
        title: "rating (Elo) against training time",
        x_name: "core hours (log scale)",
        curves,
        log_x: true,
    };
    draw_png(path, (1024, 640), |root, text| {
        draw_panel(root, panel, text)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_of_ratings_against_time_is_written() {
        let point = |run: &str, hours: f64, rating: f64| CurvePoint {
            run: run.into(),
            search: "sims=400".into(),
            step: (hours * 1000.0) as u64,
            iteration: (hours * 10.0) as u64,
            positions: (hours * 1e6) as u64,
            wall_hours: hours / 2.0,
            core_hours: hours,
            rating,
            low: Some(rating - 80.0),
            high: Some(rating + 90.0),
            games: 40,
        };
        // The axis is logarithmic: a checkpoint at no training time is left out.
        let points = [
            point("runs/a", 0.0, 0.0),
            point("runs/a", 0.5, 100.0),
            point("runs/a", 1.0, 250.0),
            point("runs/b", 0.2, 20.0),
            point("runs/b", 0.6, 180.0),
        ];
        crate::plot::assert_draws_png("rating.png", |path| plot_learning_curves(&points, path));
    }
}
