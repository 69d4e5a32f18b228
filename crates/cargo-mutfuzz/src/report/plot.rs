//! The report's plots: a campaign's counters over time (`stats.csv`) drawn with
//! `plotters` into SVG text that the HTML embeds, so the file needs nothing else.

use plotters::prelude::*;

/// Width and height of one plot, in pixels.
const SIZE: (u32, u32) = (420, 230);

/// An SVG line chart of `points` (seconds, value); `None` when there are no points.
pub fn line_chart(title: &str, what: &str, points: &[(u64, u64)], color: RGBColor) -> Option<String> {
    if points.is_empty() {
        return None;
    }
    let mut svg = String::new();
    draw(&mut svg, title, what, points, color).ok()?;
    Some(svg)
}

fn draw(
    svg: &mut String,
    title: &str,
    what: &str,
    points: &[(u64, u64)],
    color: RGBColor,
) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(svg, SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let x_max = points.iter().map(|p| p.0).max().unwrap_or(0).max(1);
    let y_max = points.iter().map(|p| p.1).max().unwrap_or(0);
    // Headroom above the highest value, and a non-empty range for a flat zero line.
    let y_top = (y_max + y_max / 10).max(y_max + 1);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 15))
        .margin(10)
        .x_label_area_size(32)
        .y_label_area_size(44)
        .build_cartesian_2d(0..x_max, 0..y_top)?;
    chart
        .configure_mesh()
        .x_desc("seconds")
        .y_desc(what)
        .x_labels(6)
        .y_labels(5)
        .light_line_style(RGBColor(238, 238, 238))
        .label_style(("sans-serif", 11))
        .draw()?;
    // A step line: a counter keeps its value until the next row.
    let mut steps = Vec::with_capacity(points.len() * 2);
    for (i, &(x, y)) in points.iter().enumerate() {
        if i > 0 {
            steps.push((x, points[i - 1].1));
        }
        steps.push((x, y));
    }
    chart.draw_series(LineSeries::new(steps, color.stroke_width(2)))?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_is_svg_text_with_its_title_and_no_outside_reference() {
        let svg = line_chart("Mutants killed", "killed", &[(0, 0), (1, 3), (5, 7)], BLUE).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..80.min(svg.len())]);
        assert!(svg.contains("Mutants killed") && svg.contains("<polyline"), "{svg}");
        assert!(!svg.contains("href") && !svg.contains("url("), "{svg}");
        assert_eq!(line_chart("x", "y", &[], BLUE), None);
        // One point, all zero: still a chart.
        assert!(line_chart("x", "y", &[(0, 0)], BLUE).is_some());
    }
}
