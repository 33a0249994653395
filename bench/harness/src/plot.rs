//! Grouped bar charts as SVG (plotters, no system fonts needed: SVG text is rendered by the viewer).

use std::path::Path;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One group of bars: a label under it and one value per series (NaN = no bar).
pub struct Group {
    /// Shown under the group; ` (` starts a second line.
    pub label: String,
    /// One per series.
    pub values: Vec<f64>,
}

const COLORS: [RGBColor; 4] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
];

fn fmt_value(v: f64) -> String {
    if v >= 100.0 {
        format!("{v:.0}")
    } else if v >= 10.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Draws `groups` as grouped bars, one colour per entry of `series`, into an SVG at `path`.
pub fn grouped_bars(
    path: &Path,
    title: &str,
    y_desc: &str,
    series: &[&str],
    groups: &[Group],
    log: bool,
) -> Result<(), String> {
    draw(path, title, y_desc, series, groups, log).map_err(|e| format!("{}: {e}", path.display()))
}

fn draw(
    path: &Path,
    title: &str,
    y_desc: &str,
    series: &[&str],
    groups: &[Group],
    log: bool,
) -> Result<(), Box<dyn std::error::Error>> {
    let values = || {
        groups
            .iter()
            .flat_map(|g| g.values.iter().copied())
            .filter(|v| v.is_finite() && *v > 0.0)
    };
    let max = values().fold(0.0f64, f64::max).max(1e-9);
    let min = values().fold(f64::INFINITY, f64::min).min(max);
    let width = (160 * groups.len() as u32).max(640);
    let root = SVGBackend::new(path, (width, 460)).into_drawing_area();
    root.fill(&WHITE)?;
    let n = groups.len() as f64;
    let bars = series.len() as f64;
    let label_style = TextStyle::from(("sans-serif", 13).into_font())
        .pos(Pos::new(HPos::Center, VPos::Top))
        .color(&BLACK);
    let value_style = TextStyle::from(("sans-serif", 10).into_font())
        .pos(Pos::new(HPos::Center, VPos::Bottom))
        .color(&BLACK);
    let mut builder = ChartBuilder::on(&root);
    builder
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(44)
        .y_label_area_size(70);

    macro_rules! body {
        ($chart:expr, $floor:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .disable_x_mesh()
                .x_labels(0)
                .y_desc(y_desc)
                .draw()?;
            for (s, name) in series.iter().enumerate() {
                let color = COLORS[s % COLORS.len()];
                let rects = groups.iter().enumerate().filter_map(move |(i, g)| {
                    let v = *g.values.get(s)?;
                    if !v.is_finite() || v <= 0.0 {
                        return None;
                    }
                    let x0 = i as f64 + 0.1 + 0.8 * s as f64 / bars;
                    let x1 = x0 + 0.8 / bars;
                    Some(Rectangle::new([(x0, $floor), (x1, v)], color.filled()))
                });
                chart
                    .draw_series(rects)?
                    .label(*name)
                    .legend(move |(x, y)| {
                        Rectangle::new([(x, y - 5), (x + 12, y + 5)], color.filled())
                    });
                let labels = groups.iter().enumerate().filter_map(|(i, g)| {
                    let v = *g.values.get(s)?;
                    if !v.is_finite() || v <= 0.0 {
                        return None;
                    }
                    let x = i as f64 + 0.1 + 0.8 * (s as f64 + 0.5) / bars;
                    Some(Text::new(fmt_value(v), (x, v), value_style.clone()))
                });
                chart.draw_series(labels)?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()?;
            for (i, g) in groups.iter().enumerate() {
                let (x, y) = chart.backend_coord(&(i as f64 + 0.5, $floor));
                let (first, second) = match g.label.split_once(" (") {
                    Some((a, b)) => (a.to_owned(), format!("({b}")),
                    None => (g.label.clone(), String::new()),
                };
                root.draw(&Text::new(first, (x, y + 6), label_style.clone()))?;
                if !second.is_empty() {
                    root.draw(&Text::new(second, (x, y + 22), label_style.clone()))?;
                }
            }
        }};
    }

    if log {
        let floor = 10f64.powf(min.log10().floor() - 0.3);
        let top = 10f64.powf(max.log10() + 0.6);
        body!(
            builder.build_cartesian_2d(0f64..n, (floor..top).log_scale())?,
            floor
        );
    } else {
        body!(builder.build_cartesian_2d(0f64..n, 0f64..max * 1.25)?, 0.0);
    }
    root.present()?;
    Ok(())
}
