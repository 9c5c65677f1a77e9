//! A dataset's map page: one series at one NUTS level and period as a choropleth of five
//! quantile classes, its legend, the figures as a table, and the codes the map cannot draw.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::boundaries::Boundaries;
use super::maps::{self, Shaded};
use super::{cited_value_html, flags_html, format_value, region_href, series_html, warnings_html};
use crate::domain::maps::{COVERAGE, MapFigures};
use crate::pages::escape;

/// The series a map page was asked for beyond the headline's: its dimension filters, and the
/// same as an encoded query, which the links to other levels and periods keep.
pub struct SeriesQuery<'a> {
    pub filters: &'a BTreeMap<String, String>,
    pub encoded: &'a str,
}

/// The page's `main` content.
pub fn render(figures: &MapFigures, boundaries: &Boundaries, query: &SeriesQuery<'_>) -> String {
    let dataset = &figures.dataset;
    let unit = dataset.unit_label.as_deref().unwrap_or(&dataset.unit);
    let period = figures.period.as_deref().unwrap_or("no period");
    let mut html = String::with_capacity(512 * 1024);
    let _ = write!(
        html,
        "<h1>{} <span class=\"code\">NUTS {}, {}</span></h1>\
         <p class=\"series\">Dataset <code>{}</code>; unit: {}{}.</p>",
        escape(&dataset.title),
        figures.level,
        escape(period),
        escape(&dataset.code),
        escape(unit),
        series_html(&dataset.series),
    );
    let shown: Vec<f64> = figures.values.iter().filter_map(|(_, c)| c.value).collect();
    let _ = write!(
        html,
        "<p>{} of the {} NUTS {} regions with this series have a value in {}{}.</p>",
        shown.len(),
        figures.regions_with_series,
        figures.level,
        escape(period),
        match figures.period_basis {
            "coverage" => format!(
                ": the latest period with values for at least {:.0} % of them",
                COVERAGE * 100.0
            ),
            "requested" => " (as asked)".to_owned(),
            _ => String::new(),
        }
    );
    html.push_str(&warnings_html(&figures.warnings));
    push_choices(&mut html, figures, query);

    let bounds = maps::quantile_bounds(&shown);
    let shaded: Vec<Shaded<'_>> = figures
        .values
        .iter()
        .map(|(region, cited)| {
            let name = region.name().unwrap_or(&region.code);
            let flags: Vec<&str> = cited.flags.iter().map(|f| f.meaning.as_str()).collect();
            Shaded {
                code: &region.code,
                class: cited.value.map(|v| maps::class_of(v, &bounds)),
                info: format!(
                    "{name} ({}): {}{}",
                    region.code,
                    cited.value.map_or("no value".to_owned(), |v| format!(
                        "{} {unit}",
                        format_value(v)
                    )),
                    if flags.is_empty() {
                        String::new()
                    } else {
                        format!(" ({})", flags.join(", "))
                    }
                ),
            }
        })
        .collect();
    let label = format!(
        "Map of {} by NUTS {} region, {}",
        dataset.title, figures.level, period
    );
    html.push_str("<figure class=\"map choropleth\">");
    // The NUTS edition most of the regions shown belong to: drawing two editions at once would
    // draw redrawn regions over those they replaced.
    let edition = boundaries.edition_for(shaded.iter().map(|s| s.code));
    let unmapped = maps::choropleth(
        &mut html,
        boundaries,
        edition,
        figures.level as u8,
        &label,
        &shaded,
    );
    html.push_str(
        "<p class=\"map-info\" data-map-info aria-live=\"polite\">Point at or focus a region to \
         read its value; a click opens its page.</p>",
    );
    push_legend(&mut html, &bounds, unit);
    html.push_str(&maps::source_caption(
        edition,
        boundaries.other_edition(edition),
    ));
    html.push_str("</figure>");

    if !unmapped.is_empty() {
        let _ = write!(
            html,
            "<h2>Not on the map</h2><p>These regions have figures but no outline in the NUTS {} \
             boundaries the map draws (the edition of most of its regions): they belong to \
             another edition, or lie outside the map's extent. Their values are in the table \
             below.</p><ul class=\"regions unmapped\" data-testid=\"unmapped\">{}</ul>",
            edition.year,
            unmapped
                .iter()
                .map(|code| format!(
                    "<li><a href=\"{}\">{}</a></li>",
                    region_href(code),
                    escape(code)
                ))
                .collect::<String>()
        );
    }
    push_table(&mut html, figures, &bounds, unit);
    html
}

/// Links to the other levels, and a form for the period (kept without JavaScript: a plain GET).
fn push_choices(html: &mut String, figures: &MapFigures, query: &SeriesQuery<'_>) {
    let path = format!("/explore/maps/{}", escape(&figures.dataset.code));
    let keep = if query.encoded.is_empty() {
        String::new()
    } else {
        format!("&amp;{}", escape(query.encoded))
    };
    html.push_str("<nav class=\"choices\" aria-label=\"Level\"><span>Level:</span>");
    for level in 0..=3 {
        if level == figures.level {
            let _ = write!(html, " <strong aria-current=\"page\">NUTS {level}</strong>");
        } else {
            let _ = write!(
                html,
                " <a href=\"{path}?level={level}{keep}\">NUTS {level}</a>"
            );
        }
    }
    html.push_str("</nav>");
    if figures.periods.is_empty() {
        return;
    }
    let _ = write!(
        html,
        "<form class=\"inline\" method=\"get\" action=\"{path}\"><input type=\"hidden\" name=\"level\" value=\"{}\">\
         <label for=\"map-period\">Period</label><select id=\"map-period\" name=\"period\">",
        figures.level
    );
    for (period, n) in figures.periods.iter().rev() {
        let selected = if figures.period.as_deref() == Some(period.as_str()) {
            " selected"
        } else {
            ""
        };
        let _ = write!(
            html,
            "<option value=\"{0}\"{selected}>{0} ({n} regions)</option>",
            escape(period)
        );
    }
    html.push_str("</select>");
    for (name, value) in query.filters {
        let _ = write!(
            html,
            "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
            escape(name),
            escape(value)
        );
    }
    html.push_str("<button type=\"submit\">Show</button></form>");
}

fn push_legend(html: &mut String, bounds: &[f64], unit: &str) {
    let _ = write!(
        html,
        "<ul class=\"legend\" aria-label=\"Legend ({})\" data-testid=\"legend\">",
        escape(unit)
    );
    let mut low: Option<f64> = None;
    for (i, bound) in bounds.iter().enumerate() {
        let range = match low {
            None => format!("up to {}", format_value(*bound)),
            Some(low) => format!("over {} to {}", format_value(low), format_value(*bound)),
        };
        let _ = write!(
            html,
            "<li><span class=\"swatch q{}\"></span>{range}</li>",
            i + 1
        );
        low = Some(*bound);
    }
    html.push_str("<li><span class=\"swatch missing\"></span>no data</li></ul>");
}

fn push_table(html: &mut String, figures: &MapFigures, bounds: &[f64], unit: &str) {
    let _ = write!(
        html,
        "<details class=\"figures\"><summary>Figures ({} regions)</summary><div class=\"scroll\">\
         <table data-testid=\"map-table\"><thead><tr><th scope=\"col\">Region</th><th scope=\"col\">Value ({})</th>\
         <th scope=\"col\">Class</th><th scope=\"col\">Flags</th></tr></thead><tbody>",
        figures.values.len(),
        escape(unit)
    );
    for (region, cited) in &figures.values {
        let value = cited_value_html(cited);
        let _ = write!(
            html,
            "<tr><th scope=\"row\"><a href=\"{}\">{}</a> <span class=\"code\">{}</span></th><td>{value}</td><td>{}</td><td>{}</td></tr>",
            region_href(&region.code),
            escape(region.name().unwrap_or(&region.code)),
            escape(&region.code),
            cited
                .value
                .map_or(String::new(), |v| maps::class_of(v, bounds).to_string()),
            flags_html(&cited.flags),
        );
    }
    html.push_str("</tbody></table></div></details>");
}

/// The map's figures as CSV: each region's value at the map's period, and its class.
pub fn csv(figures: &MapFigures) -> Vec<u8> {
    let shown: Vec<f64> = figures.values.iter().filter_map(|(_, c)| c.value).collect();
    let bounds = maps::quantile_bounds(&shown);
    super::csv_text(
        &[
            "region", "name", "period", "value", "unit", "class", "flags", "citation",
        ],
        figures.values.iter().map(|(region, cited)| {
            vec![
                region.code.clone(),
                region.name().unwrap_or_default().to_owned(),
                cited.period.to_string(),
                super::csv_value(cited.value),
                figures.dataset.unit.clone(),
                cited
                    .value
                    .map(|v| maps::class_of(v, &bounds).to_string())
                    .unwrap_or_default(),
                super::csv_flags(&cited.flags),
                cited.citation.as_str().to_owned(),
            ]
        }),
    )
}
