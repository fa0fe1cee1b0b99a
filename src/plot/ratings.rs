//! A plot of runs' ratings against training time (`fanorona rate --plot`).

use std::path::Path;

use fanorona_train::run::{CurvePoint, ExamPoint};
use plotters::prelude::*;

use super::PlotError;
use super::chart::{Curve, Panel, draw_panel, draw_png};

/// The colours of successive runs on a rating plot.
const RUN_COLORS: [RGBColor; 6] = [BLUE, RED, GREEN, MAGENTA, CYAN, BLACK];

/// Draws the ratings of each run's checkpoints (`points`, grouped by run and search, as
/// [`learning_curve`](fanorona_train::run::learning_curve) orders them) against core hours,
/// with their 95% intervals, into the PNG at `path`, above the runs' exact exams (`exams`: the
/// raw policy's kept values, in percent) against the same axis; a panel without points is
/// left out.
pub fn plot_learning_curves(
    points: &[CurvePoint],
    exams: &[ExamPoint],
    path: &Path,
) -> Result<(), PlotError> {
    let mut curves: Vec<Curve> = Vec::new();
    for p in points {
        let curve = curve_of(&mut curves, p.series());
        curve.points.push((p.core_hours, p.rating));
        if let (Some(low), Some(high)) = (p.low, p.high) {
            curve.intervals.push((p.core_hours, p.rating, low, high));
        }
    }
    let mut panels = Vec::new();
    if !curves.is_empty() {
        panels.push(Panel {
            title: "rating (Elo) against training time",
            x_name: "core hours (log scale)",
            curves,
            log_x: true,
        });
    }
    let mut curves: Vec<Curve> = Vec::new();
    for p in exams {
        let curve = curve_of(&mut curves, p.run.clone());
        curve.points.push((p.core_hours, 100.0 * p.keeps));
    }
    if !curves.is_empty() {
        panels.push(Panel {
            title: "exact exam: raw policy keeps the proven value (%)",
            x_name: "core hours (log scale)",
            curves,
            log_x: true,
        });
    }
    let height = 640 * panels.len().max(1) as u32;
    draw_png(path, (1024, height), |root, text| {
        let areas = root.split_evenly((panels.len().max(1), 1));
        for (area, panel) in areas.iter().zip(panels) {
            draw_panel(area, panel, text)?;
        }
        Ok(())
    })
}

/// The last of `curves` if it is called `name`, else a new one of the next colour.
fn curve_of(curves: &mut Vec<Curve>, name: String) -> &mut Curve {
    if curves.last().is_none_or(|c| c.name != name) {
        curves.push(Curve {
            name,
            color: RUN_COLORS[curves.len() % RUN_COLORS.len()],
            points: Vec::new(),
            intervals: Vec::new(),
        });
    }
    curves.last_mut().expect("pushed above")
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
        crate::plot::assert_draws_png("rating.png", |path| {
            plot_learning_curves(&points, &[], path)
        });
        let exam = |run: &str, hours: f64, keeps: f64| ExamPoint {
            run: run.into(),
            iteration: (hours * 10.0) as u64,
            core_hours: hours,
            keeps,
        };
        let exams = [exam("runs/a", 0.5, 0.5), exam("runs/a", 1.0, 0.6)];
        crate::plot::assert_draws_png("rating-exam.png", |path| {
            plot_learning_curves(&points, &exams, path)
        });
        crate::plot::assert_draws_png("exam.png", |path| plot_learning_curves(&[], &exams, path));
    }
}
