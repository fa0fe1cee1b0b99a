//! PNGs of a run's learning curves (losses, policy entropy, the strength of its agent, the
//! exact exam, self-play speed) and of runs' ratings against training time, drawn with `plotters`' bitmap backend.
//! Text needs a TrueType font, looked up at run time (`FANORONA_PLOT_FONT`, else common system
//! paths); with none found the curves are drawn without labels, so the build never depends on
//! system fonts.

use std::ops::Range;
use std::path::Path;
use std::sync::OnceLock;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use crate::run::CurvePoint;
use crate::run_dir::MetricsRow;

/// A plot that cannot be drawn or written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot draw the plot {path}: {message}")]
pub struct PlotError {
    /// The image file.
    pub path: String,
    /// What went wrong.
    pub message: String,
}

const FONT_PATHS: [&str; 6] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
    "/Library/Fonts/Arial.ttf",
    "C:\\Windows\\Fonts\\arial.ttf",
];

/// Registers a font for plot text once; whether one was found.
fn font_available() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        let candidates = std::env::var("FANORONA_PLOT_FONT")
            .into_iter()
            .chain(FONT_PATHS.iter().map(|p| p.to_string()));
        for path in candidates {
            if let Ok(bytes) = std::fs::read(&path) {
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return true;
                }
            }
        }
        false
    })
}

/// One curve: a name, a colour, its points and, optionally, intervals `(x, y, low, high)`
/// around points.
struct Curve {
    name: String,
    color: RGBColor,
    points: Vec<(f64, f64)>,
    intervals: Vec<(f64, f64, f64, f64)>,
}

impl Curve {
    /// The curve of `y` against `x` over the rows where `y` is known.
    fn new(
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
}

/// One panel: a title, the name of its x axis and its curves.
struct Panel {
    title: &'static str,
    x_name: &'static str,
    curves: Vec<Curve>,
    /// Whether the x-axis is logarithmic (points at x <= 0 are then left out).
    log_x: bool,
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
            Curve::new("total", BLACK, rows, step, |r| Some(r.loss_total)),
            Curve::new("policy", BLUE, rows, step, |r| Some(r.loss_policy)),
            Curve::new("value", RED, rows, step, |r| Some(r.loss_value)),
        ],
    }
}

/// The policy entropy over learner steps.
fn entropy_panel(rows: &[MetricsRow]) -> Panel {
    Panel {
        log_x: false,
        title: "policy entropy",
        x_name: "learner step",
        curves: vec![Curve::new("entropy", MAGENTA, rows, step, |r| {
            Some(r.policy_entropy)
        })],
    }
}

/// The strength of the run's agent over iterations, with its 95% intervals (and the scores
/// against minimax of depths 1 and 2 of runs before 2026-12-06).
fn strength_panel(rows: &[MetricsRow]) -> Panel {
    let mut strength = Curve::new("named agent", BLACK, rows, iteration, |r| r.strength_score);
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
        Curve::new("net vs depth 1", BLUE, rows, iteration, |r| {
            r.score_vs_minimax1
        }),
        Curve::new("net vs depth 2", RED, rows, iteration, |r| {
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

/// The exact exam over iterations: the raw policy's kept values by phase, and the value
/// head's accuracy.
fn exact_panel(rows: &[MetricsRow]) -> Panel {
    Panel {
        log_x: false,
        title: "exact exam (9x5, proven values)",
        x_name: "iteration",
        curves: vec![
            Curve::new("keeps, all", BLACK, rows, iteration, |r| r.exact_keeps),
            Curve::new("8-10 pieces", BLUE, rows, iteration, |r| r.exact_keeps_8_10),
            Curve::new("11-13 pieces", GREEN, rows, iteration, |r| {
                r.exact_keeps_11_13
            }),
            Curve::new("14-16 pieces", RED, rows, iteration, |r| {
                r.exact_keeps_14_16
            }),
            Curve::new("value accuracy", MAGENTA, rows, iteration, |r| {
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
        curves: vec![Curve::new("positions/s", GREEN, rows, iteration, |r| {
            Some(r.positions_per_s)
        })],
    }
}

/// The range covering `values`, padded a little (and never empty).
fn range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if lo > hi {
        return 0.0..1.0;
    }
    let pad = ((hi - lo) * 0.05).max(1e-6);
    lo - pad..hi + pad
}

/// A white PNG of `size` at `path`, drawn by `draw` (given the drawing area and whether text
/// can be written), then saved.
fn draw_png(
    path: &Path,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>, bool) -> Result<(), String>,
) -> Result<(), PlotError> {
    let error = |message: String| PlotError {
        path: path.display().to_string(),
        message,
    };
    let root = BitMapBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| error(e.to_string()))?;
    draw(&root, font_available()).map_err(error)?;
    root.present().map_err(|e| error(e.to_string()))
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

/// The colours of successive runs on a rating plot.
const RUN_COLORS: [RGBColor; 4] = [BLUE, RED, GREEN, MAGENTA];

/// Draws the ratings of each run's checkpoints (`points`, grouped by run and search, as
/// [`learning_curve`](crate::run::learning_curve) orders them) against core hours,
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

/// Draws one panel into `area`: axes, curves and, when there is a font (`text`), the
/// caption, axis name and legend.
fn draw_panel(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    mut panel: Panel,
    text: bool,
) -> Result<(), String> {
    if panel.log_x {
        for c in &mut panel.curves {
            c.points.retain(|p| p.0 > 0.0);
            c.intervals.retain(|i| i.0 > 0.0);
        }
    }
    let xs = || {
        panel
            .curves
            .iter()
            .flat_map(|c| c.points.iter().map(|p| p.0))
    };
    let y = range(panel.curves.iter().flat_map(|c| {
        let ends = c.intervals.iter().flat_map(|i| [i.2, i.3]);
        c.points.iter().map(|p| p.1).chain(ends)
    }));
    if panel.log_x {
        let x = log_range(xs());
        draw_on(area, panel, x.log_scale(), y, text)
    } else {
        let x = range(xs());
        draw_on(area, panel, x, y, text)
    }
}

/// The range of positive `values`, a quarter of a decade wider on each side (0.1 to 1 when
/// there is none).
fn log_range(values: impl Iterator<Item = f64>) -> Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if lo > hi {
        return 0.1..1.0;
    }
    let pad = 10f64.powf(0.25);
    lo / pad..hi * pad
}

/// An axis tick's text: the value to one significant digit after its leading digits, without
/// trailing zeros (0.3, not 0.30000000000000004; 0.05; 240).
fn tick_label(value: &f64) -> String {
    if *value == 0.0 || !value.is_finite() {
        return format!("{value}");
    }
    let decimals = (-value.abs().log10().floor()).max(0.0) as usize + 1;
    let text = format!("{value:.decimals$}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// [`draw_panel`] on the x coordinate `x` (linear or logarithmic).
fn draw_on<X>(
    area: &DrawingArea<BitMapBackend<'_>, Shift>,
    panel: Panel,
    x: X,
    y: Range<f64>,
    text: bool,
) -> Result<(), String>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: ValueFormatter<f64> + Ranged<ValueType = f64>,
{
    let Panel {
        title,
        x_name,
        curves,
        ..
    } = panel;
    let mut builder = ChartBuilder::on(area);
    builder.margin(12);
    if text {
        builder
            .caption(title, ("sans-serif", 22))
            .x_label_area_size(36)
            .y_label_area_size(56);
    }
    let mut chart = builder
        .build_cartesian_2d(x, y)
        .map_err(|e| e.to_string())?;
    let mut mesh = chart.configure_mesh();
    if text {
        mesh.x_desc(x_name).x_label_formatter(&tick_label);
    } else {
        mesh.x_labels(0).y_labels(0);
    }
    mesh.draw().map_err(|e| e.to_string())?;
    for c in curves {
        let color = c.color;
        chart
            .draw_series(c.intervals.iter().map(|&(x, y, low, high)| {
                ErrorBar::new_vertical(x, low, y, high, color.filled(), 6)
            }))
            .map_err(|e| e.to_string())?;
        let series = chart
            .draw_series(LineSeries::new(c.points, color.stroke_width(2)))
            .map_err(|e| e.to_string())?;
        if text {
            series
                .label(c.name.as_str())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
        }
    }
    if text {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| e.to_string())?;
    }
    Ok(())
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
                exact_keeps_8_10: (i % 2 == 0).then_some(0.6),
                exact_value_accuracy: (i % 2 == 0).then_some(0.4),
                ..MetricsRow::default()
            })
            .collect();
        let dir = std::env::temp_dir().join(format!("fanorona-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("curves.png");
        plot_metrics(&rows, &path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        assert!(bytes.len() > 5_000);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tick_labels_are_short() {
        let labels: Vec<String> = [
            0.30000000000000004,
            0.05,
            0.2,
            2.5,
            240.0,
            1000.0,
            0.0,
            -0.5,
        ]
        .iter()
        .map(tick_label)
        .collect();
        assert_eq!(
            labels,
            ["0.3", "0.05", "0.2", "2.5", "240", "1000", "0", "-0.5"]
        );
    }

    #[test]
    fn a_logarithmic_range_spans_the_positive_values_a_quarter_decade_wider() {
        let r = log_range([0.0, -1.0, 0.5, 2.0, f64::NAN].into_iter());
        let pad = 10f64.powf(0.25);
        assert!((r.start - 0.5 / pad).abs() < 1e-12 && (r.end - 2.0 * pad).abs() < 1e-12);
        assert_eq!(log_range([0.0].into_iter()), 0.1..1.0);
    }

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
        let dir = std::env::temp_dir().join(format!("fanorona-curve-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rating.png");
        plot_learning_curves(&points, &path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(&bytes[1..4], b"PNG");
        assert!(bytes.len() > 5_000);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
