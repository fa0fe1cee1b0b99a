//! Drawing panels of curves: axes, lines, 95% intervals, caption and legend (when there is a
//! font), on linear or logarithmic x axes, into a white PNG.

use std::ops::Range;
use std::path::Path;

use plotters::coord::Shift;
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::prelude::*;

use super::PlotError;
use super::font::font_available;

/// One curve: a name, a colour, its points and, optionally, intervals `(x, y, low, high)`
/// around points.
pub(super) struct Curve {
    pub name: String,
    pub color: RGBColor,
    pub points: Vec<(f64, f64)>,
    pub intervals: Vec<(f64, f64, f64, f64)>,
}

/// One panel: a title, the name of its x axis and its curves.
pub(super) struct Panel {
    pub title: &'static str,
    pub x_name: &'static str,
    pub curves: Vec<Curve>,
    /// Whether the x-axis is logarithmic (points at x <= 0 are then left out).
    pub log_x: bool,
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
pub(super) fn draw_png(
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

/// Draws one panel into `area`: axes, curves and, when there is a font (`text`), the
/// caption, axis name and legend.
pub(super) fn draw_panel(
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
}
