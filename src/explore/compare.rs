//! The comparison page: the `/compare` answer as a bar chart with its table beside it (ranks,
//! values linked to their citations, differences and ratios with the rows they come from).

use std::fmt::Write;

use super::{
    citation_href, cited_value_html, flags_html, format_value, region_href, series_html,
    warnings_html,
};
use crate::domain::compare::Comparison;
use crate::pages::escape;

const BAR_HEIGHT: f64 = 22.0;
const LABEL_WIDTH: f64 = 150.0;
const CHART_WIDTH: f64 = 480.0;

/// The page's `main` content.
pub fn render(comparison: &Comparison) -> String {
    let dataset = &comparison.dataset;
    let unit = dataset.unit_label.as_deref().unwrap_or(&dataset.unit);
    let mut html = String::with_capacity(16 * 1024);
    let _ = write!(
        html,
        "<h1>{}</h1><p class=\"series\">Dataset <code>{}</code>; unit: {}{}. {}</p>",
        escape(&dataset.title),
        escape(&dataset.code),
        escape(unit),
        series_html(&dataset.series),
        match (&comparison.period, comparison.period_basis) {
            (Some(p), "requested") => format!("Period {} (as asked).", escape(p)),
            (Some(p), _) => format!("Period {}: the latest all of them have.", escape(p)),
            (None, _) =>
                "No period has values for all of them: each region's own latest value is shown."
                    .to_owned(),
        }
    );
    html.push_str(&warnings_html(&comparison.warnings));
    html.push_str("<div class=\"compare\">");
    html.push_str(&bar_chart(comparison, unit));
    push_table(&mut html, comparison, unit);
    html.push_str("</div>");
    push_derived(&mut html, comparison);
    html
}

/// Horizontal bars from a zero line, one per region with a value, each linked to its citation.
fn bar_chart(comparison: &Comparison, unit: &str) -> String {
    let values: Vec<f64> = comparison
        .regions
        .iter()
        .filter_map(|r| r.value.as_ref()?.value)
        .collect();
    let low = values.iter().copied().fold(0.0, f64::min);
    let high = values.iter().copied().fold(0.0, f64::max);
    let span = if high > low { high - low } else { 1.0 };
    let n = comparison.regions.len();
    let height = BAR_HEIGHT * n as f64 + 8.0;
    let plot = CHART_WIDTH - LABEL_WIDTH - 60.0;
    let x_of = |v: f64| LABEL_WIDTH + plot * (v - low) / span;
    let mut svg = String::with_capacity(512 + n * 300);
    let _ = write!(
        svg,
        "<svg class=\"chart bars\" viewBox=\"0 0 {CHART_WIDTH} {height}\" role=\"group\" \
         aria-label=\"{}\" data-bars=\"{}\"><line class=\"axis\" x1=\"{x0:.1}\" y1=\"0\" x2=\"{x0:.1}\" y2=\"{height}\"/>",
        escape(&format!("{} by region", comparison.dataset.title)),
        values.len(),
        x0 = x_of(0.0),
    );
    for (i, region) in comparison.regions.iter().enumerate() {
        let y = 4.0 + BAR_HEIGHT * i as f64;
        let name = region.region.name().unwrap_or(&region.region.code);
        let _ = write!(
            svg,
            "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            LABEL_WIDTH - 6.0,
            y + BAR_HEIGHT * 0.65,
            escape(&clip(name, 22)),
        );
        let Some((cited, v)) = region.value.as_ref().and_then(|c| Some((c, c.value?))) else {
            let _ = write!(
                svg,
                "<text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\">no value</text>",
                x_of(0.0) + 4.0,
                y + BAR_HEIGHT * 0.65
            );
            continue;
        };
        let (x, width) = if v >= 0.0 {
            (x_of(0.0), x_of(v) - x_of(0.0))
        } else {
            (x_of(v), x_of(0.0) - x_of(v))
        };
        let _ = write!(
            svg,
            "<a class=\"bar\" href=\"{}\" data-region=\"{}\" data-value=\"{v}\"><title>{}: {} {} in {}</title>\
             <rect x=\"{x:.1}\" y=\"{y:.1}\" width=\"{:.1}\" height=\"{:.1}\"/></a>\
             <text class=\"tick\" x=\"{:.1}\" y=\"{:.1}\">{}</text>",
            citation_href(cited.citation.as_str()),
            escape(&region.region.code),
            escape(name),
            format_value(v),
            escape(unit),
            escape(&cited.period),
            width.max(1.0),
            BAR_HEIGHT - 6.0,
            x_of(v.max(0.0)) + 4.0,
            y + BAR_HEIGHT * 0.65,
            // Without a common period each bar is its region's own latest: say which.
            if comparison.period.is_none() {
                format!("{} ({})", format_value(v), escape(&cited.period))
            } else {
                format_value(v)
            },
        );
    }
    svg.push_str("</svg>");
    svg
}

fn clip(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        return text.to_owned();
    }
    let mut clipped: String = text.chars().take(chars - 1).collect();
    clipped.push('…');
    clipped
}

fn push_table(html: &mut String, comparison: &Comparison, unit: &str) {
    let _ = write!(
        html,
        "<div class=\"scroll\"><table data-testid=\"compare-table\"><thead><tr><th scope=\"col\">Rank</th>\
         <th scope=\"col\">Region</th><th scope=\"col\">Value ({})</th><th scope=\"col\">Period</th>\
         <th scope=\"col\">Flags</th></tr></thead><tbody>",
        escape(unit)
    );
    for region in &comparison.regions {
        let name = region.region.name().unwrap_or(&region.region.code);
        let _ = write!(
            html,
            "<tr><td>{}</td><th scope=\"row\"><a href=\"{}\">{}</a> <span class=\"code\">{}</span></th>",
            region.rank.map_or("–".to_owned(), |r| r.to_string()),
            region_href(&region.region.code),
            escape(name),
            escape(&region.region.code),
        );
        match &region.value {
            Some(cited) => {
                let _ = write!(
                    html,
                    "<td>{}</td><td>{}</td><td>{}</td></tr>",
                    cited_value_html(cited),
                    escape(&cited.period),
                    flags_html(&cited.flags)
                );
            }
            None => html.push_str("<td>no row</td><td></td><td></td></tr>"),
        }
    }
    html.push_str("</tbody></table></div>");
}

/// Differences and ratios against the first region: derived in code, so each shows its formula
/// and links the rows it comes from.
fn push_derived(html: &mut String, comparison: &Comparison) {
    if comparison.derived.is_empty() {
        return;
    }
    html.push_str(
        "<h2>Against the first region</h2><div class=\"scroll\"><table><thead><tr>\
         <th scope=\"col\">Figure</th><th scope=\"col\">Value</th><th scope=\"col\">From the rows</th></tr></thead><tbody>",
    );
    for derived in &comparison.derived {
        let inputs: Vec<String> = derived
            .citations
            .iter()
            .map(|c| {
                format!(
                    "<a href=\"{}\">{}</a>",
                    citation_href(c.as_str()),
                    escape(c.as_str())
                )
            })
            .collect();
        let _ = write!(
            html,
            "<tr><th scope=\"row\">{} ({})</th><td>{}</td><td>{}</td></tr>",
            escape(&derived.description),
            derived.kind,
            format_value(derived.value),
            inputs.join(", ")
        );
    }
    html.push_str("</tbody></table></div>");
}

/// The comparison's figures as CSV: each region's value at the compared period.
pub fn csv(comparison: &Comparison) -> Vec<u8> {
    super::csv_text(
        &[
            "region", "name", "rank", "period", "value", "unit", "flags", "citation",
        ],
        comparison.regions.iter().map(|r| {
            let cited = r.value.as_ref();
            vec![
                r.region.code.clone(),
                r.region.name().unwrap_or_default().to_owned(),
                r.rank.map(|n| n.to_string()).unwrap_or_default(),
                cited.map(|c| c.period.to_string()).unwrap_or_default(),
                super::csv_value(cited.and_then(|c| c.value)),
                comparison.dataset.unit.clone(),
                cited
                    .map(|c| super::csv_flags(&c.flags))
                    .unwrap_or_default(),
                cited
                    .map(|c| c.citation.as_str().to_owned())
                    .unwrap_or_default(),
            ]
        }),
    )
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::citation_id::CitationId;
    use crate::domain::Cited;
    use crate::domain::compare::{DatasetRef, RegionValues};
    use crate::store::regions::RegionRow;

    fn region(code: &str, period: &str, value: f64) -> RegionValues {
        RegionValues {
            region: Arc::new(RegionRow::sample(code, code)),
            value: Some(Cited {
                period: period.into(),
                value: Some(value),
                flags: Vec::new(),
                citation: CitationId::new(&format!("cit_{code}")).unwrap(),
            }),
            rank: None,
            series: Vec::new(),
        }
    }

    /// Bars of different periods say which: without a common period, each region's own latest
    /// stands beside the others'.
    #[test]
    fn bars_name_their_period_when_the_regions_share_none() {
        let comparison = |period: Option<&str>| Comparison {
            dataset: DatasetRef {
                code: "tgs00010".into(),
                title: "Unemployment".into(),
                unit: "PC".into(),
                unit_label: None,
                series: Default::default(),
            },
            period: period.map(str::to_owned),
            period_basis: if period.is_some() {
                "latest_common"
            } else {
                "latest_each"
            },
            regions: vec![region("DE21", "2023", 2.5), region("FR10", "2019", 7.5)],
            derived: Vec::new(),
            warnings: Vec::new(),
        };
        let apart = bar_chart(&comparison(None), "PC");
        assert!(apart.contains(">2.5 (2023)</text>") && apart.contains(">7.5 (2019)</text>"));
        let shared = bar_chart(&comparison(Some("2023")), "PC");
        assert!(shared.contains(">2.5</text>") && !shared.contains("(2023)</text>"));
    }
}
