//! `curves.png`: a run's metrics rows as five panels (losses, policy entropy, strength,
//! exact exam, self-play speed).

use std::path::Path;

use fanorona_train::run_dir::MetricsRow;
use plotters::prelude::*;

use super::PlotError;
use super::chart::{Curve, Panel, draw_panel, draw_png};

/// The curve `name` of `y` against `x` over the `rows` where `y` is known.
fn curve(
    name: &'static str,
    color: RGBColor,
    rows: &[MetricsRow],
    x: fn(&MetricsRow) -> f64,
    y: fn(&MetricsRow) -> Option<f64>,
) -> Curve {
    Curve {
        name: name.to_string(),
        color,
        points: rows
            .iter()
            .filter_map(|r| y(r).map(|v| (x(r), v)))
            .collect(),
        intervals: Vec::new(),
    }
}

/// The x of a row on panels over learner steps.
fn step(r: &MetricsRow) -> f64 {
    r.step as f64
}

/// The x of a row on panels over iterations.
fn iteration(r: &MetricsRow) -> f64 {
    r.iteration as f64
}

/// The total, policy and value losses over learner steps.
fn losses_panel(rows: &[MetricsRow]) -> Panel {
    Panel {
        log_x: false,
        title: "losses",
        x_name: "learner step",
        curves: vec![
            curve("total", BLACK, rows, step, |r| Some(r.loss_total)),
            curve("policy", BLUE, rows, step, |r| Some(r.loss_policy)),
            curve("value", RED, rows, step, |r| Some(r.loss_value)),
        ],
    }
}

/// The policy entropy over learner steps.
fn entropy_panel(rows: &[MetricsRow]) -> Panel {
    Panel {
        log_x: false,
        title: "policy entropy",
        x_name: "learner step",
        curves: vec![curve("entropy", MAGENTA, rows, step, |r| {
            Some(r.policy_entropy)
        })],
    }
}

/// The strength of the run's agent over iterations, with its 95% intervals (and the scores
/// against minimax of depths 1 and 2 of runs before 2026-12-06).
fn strength_panel(rows: &[MetricsRow]) -> Panel {
    let mut strength = curve("named agent", BLACK, rows, iteration, |r| r.strength_score);
    strength.intervals = rows
        .iter()
        .filter_map(|r| {
            Some((
                iteration(r),
                r.strength_score?,
                r.strength_low?,
                r.strength_high?,
            ))
        })
        .collect();
    let old = [
        curve("net vs depth 1", BLUE, rows, iteration, |r| {
            r.score_vs_minimax1
        }),
        curve("net vs depth 2", RED, rows, iteration, |r| {
            r.score_vs_minimax2
        }),
    ];
    Panel {
        log_x: false,
        title: "strength (score, 95% interval)",
        x_name: "iteration",
        curves: std::iter::once(strength)
            .chain(old.into_iter().filter(|c| !c.points.is_empty()))
            .collect(),
    }
}

/// The exact exam over iterations: the raw policy's kept values by phase and in the critical
/// positions, and the value head's accuracy.
fn exact_panel(rows: &[MetricsRow]) -> Panel {
    Panel {
        log_x: false,
        title: "exact exam (proven values)",
        x_name: "iteration",
        curves: vec![
            curve("keeps, all", BLACK, rows, iteration, |r| r.exact_keeps),
            curve("fewest pieces", BLUE, rows, iteration, |r| {
                r.exact_keeps_few
            }),
            curve("middle", GREEN, rows, iteration, |r| r.exact_keeps_middle),
            curve("most pieces", RED, rows, iteration, |r| r.exact_keeps_many),
            curve("critical only", CYAN, rows, iteration, |r| {
                r.exact_keeps_critical
            }),
            curve("value accuracy", MAGENTA, rows, iteration, |r| {
                r.exact_value_accuracy
            }),
        ],
    }
}

/// The self-play speed over iterations.
fn speed_panel(rows: &[MetricsRow]) -> Panel {
    Panel {
        log_x: false,
        title: "self-play positions/s",
        x_name: "iteration",
        curves: vec![curve("positions/s", GREEN, rows, iteration, |r| {
            Some(r.positions_per_s)
        })],
    }
}

/// Draws `rows` as six panels into the PNG at `path`.
pub fn plot_metrics(rows: &[MetricsRow], path: &Path) -> Result<(), PlotError> {
    let specs = [
        losses_panel(rows),
        entropy_panel(rows),
        strength_panel(rows),
        exact_panel(rows),
        speed_panel(rows),
    ];
    draw_png(path, (1280, 1350), |root, text| {
        for (area, panel) in root.split_evenly((3, 2)).iter().zip(specs) {
            draw_panel(area, panel, text)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_of_the_curves_is_written() {
        let rows: Vec<MetricsRow> = (1..=6)
            .map(|i| MetricsRow {
                iteration: i,
                step: 20 * i,
                loss_total: 4.0 / i as f64,
                loss_policy: 3.0 / i as f64,
                loss_value: 1.0 / i as f64,
                policy_entropy: 2.0 - 0.1 * i as f64,
                positions_per_s: 300.0 + i as f64,
                score_vs_minimax1: (i % 2 == 0).then_some(0.1 * i as f64),
                strength_score: (i % 2 == 0).then_some(0.1 * i as f64),
                strength_low: (i % 2 == 0).then_some(0.05 * i as f64),
                strength_high: (i % 2 == 0).then_some(0.15 * i as f64),
                exact_keeps: (i % 2 == 0).then_some(0.5 + 0.05 * i as f64),
                exact_keeps_few: (i % 2 == 0).then_some(0.6),
                exact_value_accuracy: (i % 2 == 0).then_some(0.4),
                ..MetricsRow::default()
            })
            .collect();
        crate::plot::assert_draws_png("curves.png", |path| plot_metrics(&rows, path));
    }
}
