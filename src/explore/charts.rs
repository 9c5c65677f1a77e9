//! Charts drawn as SVG on the server: they need no script, and the page's policy (no inline
//! style) holds because every colour comes from the stylesheet through classes. Each mark of a
//! cited value is a link to its citation page, so keyboard focus reaches every point.

use std::fmt::Write;

use super::{citation_href, format_value};
use crate::domain::Cited;
use crate::pages::escape;

const WIDTH: f64 = 320.0;
const HEIGHT: f64 = 140.0;
/// Room for the value labels on the left (nine digits and a point) and the periods below.
const LEFT: f64 = 80.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 22.0;

/// A line chart of a series over its history: one point per period with a value, evenly spaced
/// in the order of the periods the series has, a line through them (broken at a period whose
/// value is a flagged gap), the lowest and highest values on the axis.
/// `label` names the series for assistive technology.
pub fn line_chart(label: &str, unit: &str, history: &[Cited]) -> String {
    let values: Vec<f64> = history.iter().filter_map(|c| c.value).collect();
    let mut svg = String::with_capacity(256 + history.len() * 160);
    let _ = write!(
        svg,
        "<svg class=\"chart line\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" role=\"group\" \
         aria-label=\"{}\" data-points=\"{}\">",
        escape(label),
        values.len()
    );
    let (Some(low), Some(high)) = (
        values.iter().copied().reduce(f64::min),
        values.iter().copied().reduce(f64::max),
    ) else {
        svg.push_str("<text class=\"empty\" x=\"8\" y=\"70\">No published value</text></svg>");
        return svg;
    };
    // A flat series sits in the middle rather than on the floor.
    let (low_axis, high_axis) = if high > low {
        (low, high)
    } else {
        (low - 1.0, high + 1.0)
    };
    let n = history.len();
    let x_of = |i: usize| {
        if n > 1 {
            LEFT + (WIDTH - LEFT - RIGHT) * i as f64 / (n - 1) as f64
        } else {
            LEFT + (WIDTH - LEFT - RIGHT) / 2.0
        }
    };
    let y_of = |v: f64| TOP + (HEIGHT - TOP - BOTTOM) * (high_axis - v) / (high_axis - low_axis);

    let bottom = HEIGHT - BOTTOM;
    let _ = write!(
        svg,
        "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{bottom}\" x2=\"{}\" y2=\"{bottom}\"/>",
        WIDTH - RIGHT,
    );
    // The axis spans the series' own range, not zero: its two ends are labelled (one label for a
    // flat series).
    let labelled = if high > low {
        vec![high, low]
    } else {
        vec![high]
    };
    for v in labelled {
        let _ = write!(
            svg,
            "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            LEFT - 4.0,
            y_of(v) + 4.0,
            format_value(v),
        );
    }
    if let (Some(first), Some(last)) = (history.first(), history.last()) {
        let _ = write!(
            svg,
            "<text class=\"tick\" x=\"{LEFT}\" y=\"{}\">{}</text>\
             <text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            HEIGHT - 6.0,
            escape(&first.period),
            WIDTH - RIGHT,
            HEIGHT - 6.0,
            escape(&last.period),
        );
    }

    // The line, one segment per run of periods with values.
    let mut path = String::new();
    let mut pen_down = false;
    for (i, cited) in history.iter().enumerate() {
        match cited.value {
            Some(v) => {
                let _ = write!(
                    path,
                    "{}{:.1} {:.1}",
                    if pen_down { "L" } else { "M" },
                    x_of(i),
                    y_of(v)
                );
                pen_down = true;
            }
            None => pen_down = false,
        }
    }
    let _ = write!(svg, "<path class=\"series\" d=\"{path}\"/>");

    for (i, cited) in history.iter().enumerate() {
        let Some(v) = cited.value else { continue };
        let flags: String = cited.flags.iter().map(|f| f.code.as_str()).collect();
        let _ = write!(
            svg,
            "<a class=\"point\" href=\"{href}\" data-period=\"{period}\" data-value=\"{v}\">\
             <title>{period}: {shown} {unit}{flagged}</title>\
             <circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"3.5\"/></a>",
            href = citation_href(cited.citation.as_str()),
            period = escape(&cited.period),
            shown = format_value(v),
            unit = escape(unit),
            flagged = if flags.is_empty() {
                String::new()
            } else {
                format!(" (flags: {})", escape(&flags))
            },
            x = x_of(i),
            y = y_of(v),
        );
    }
    svg.push_str("</svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Flag;

    fn cited(period: &str, value: Option<f64>) -> Cited {
        Cited {
            period: period.into(),
            value,
            flags: if value.is_none() {
                vec![Flag {
                    code: "c".into(),
                    meaning: "confidential".into(),
                }]
            } else {
                vec![]
            },
            citation: crate::citation_id::CitationId::new(&format!("cit_{period}")).unwrap(),
        }
    }

    #[test]
    fn a_line_chart_has_one_linked_point_per_period_with_a_value() {
        let history = [
            cited("2019", Some(10.0)),
            cited("2020", None),
            cited("2021", Some(12.5)),
            cited("2022", Some(11.0)),
        ];
        let svg = line_chart("GDP", "EUR", &history);
        assert_eq!(svg.matches("<a class=\"point\"").count(), 3, "{svg}");
        assert!(svg.contains("data-points=\"3\""));
        // The gap breaks the line: two runs.
        let path = svg.split("class=\"series\" d=\"").nth(1).unwrap();
        let path = path.split('"').next().unwrap();
        assert_eq!(path.matches('M').count(), 2, "{path}");
        assert!(svg.contains(">2019<") && svg.contains(">2022<"));
        assert!(svg.contains("data-value=\"12.5\""));
        assert!(!svg.contains("style="));
    }

    #[test]
    fn a_series_without_values_says_so() {
        let svg = line_chart("GDP", "EUR", &[cited("2020", None)]);
        assert!(svg.contains("No published value"));
        assert!(!svg.contains("<a "));
    }
}
