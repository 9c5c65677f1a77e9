//! A region's page: what it is and where, its family, and each headline series as a chart with
//! its figures, every value linked to its citation.

use std::fmt::Write;
use std::sync::Arc;

use super::boundaries::Boundaries;
use super::{
    charts, citation_href, cited_value_html, flags_html, maps, region_href, region_name,
    series_html, warnings_html,
};
use crate::domain::profile::{Indicator, Profile};
use crate::pages::escape;
use crate::store::regions::RegionRow;

/// What a region's page shows beyond its profile.
pub struct RegionPage<'a> {
    pub profile: &'a Profile,
    /// The region's parents, the country first.
    pub ancestors: Vec<Arc<RegionRow>>,
    pub children: Vec<Arc<RegionRow>>,
    /// Regions of the same parent and level, to compare it with.
    pub siblings: Vec<String>,
}

/// The most regions a "compare" link puts beside this one.
const COMPARE_WITH: usize = 5;

/// The page's `main` content.
pub fn render(page: &RegionPage<'_>, boundaries: &Boundaries) -> String {
    let region = &page.profile.region.summary;
    let name = region.name.as_deref().unwrap_or(&region.code);
    let mut html = String::with_capacity(32 * 1024);

    html.push_str("<nav class=\"crumbs\" aria-label=\"Breadcrumb\"><ol><li><a href=\"/explore\">Explore</a></li>");
    for ancestor in &page.ancestors {
        let _ = write!(
            html,
            "<li><a href=\"{}\">{}</a></li>",
            region_href(&ancestor.code),
            escape(&region_name(&ancestor.code, ancestor.name()))
        );
    }
    let _ = write!(
        html,
        "<li aria-current=\"page\">{}</li></ol></nav>",
        escape(&region_name(&region.code, region.name.as_deref()))
    );

    let _ = write!(
        html,
        "<h1>{} <span class=\"code\" data-testid=\"region-code\">{}</span></h1>",
        escape(name),
        escape(&region.code)
    );
    html.push_str("<dl class=\"facts\">");
    if let Some(national) = region.name_national.as_deref().filter(|n| *n != name) {
        let _ = write!(html, "<dt>National name</dt><dd>{}</dd>", escape(national));
    }
    let level = region
        .level
        .map_or("not classified".to_owned(), |l| format!("NUTS {l}"));
    let _ = write!(
        html,
        "<dt>Level</dt><dd>{level}</dd><dt>Classification</dt><dd>{}</dd><dt>NUTS editions</dt><dd>{}</dd>",
        escape(&region.classification),
        if region.nuts_editions.is_empty() {
            "none that regintel ships".to_owned()
        } else {
            region.nuts_editions.join(", ")
        }
    );
    if let Some(change) = &page.profile.region.change_2021_2024 {
        let _ = write!(
            html,
            "<dt>Change 2021 to 2024</dt><dd>{}</dd>",
            escape(change)
        );
    }
    for (label, code) in [
        ("Recoded from", &page.profile.region.recoded_from),
        ("Recoded to", &page.profile.region.recoded_to),
    ] {
        if let Some(code) = code {
            let _ = write!(
                html,
                "<dt>{label}</dt><dd><a href=\"{}\">{}</a></dd>",
                region_href(code),
                escape(code)
            );
        }
    }
    if let Some(citation) = &region.citation {
        let _ = write!(
            html,
            "<dt>Classification row</dt><dd><a href=\"{}\">{}</a></dd>",
            citation_href(citation),
            escape(citation)
        );
    }
    html.push_str("</dl>");
    html.push_str(&warnings_html(&page.profile.warnings));

    html.push_str("<div class=\"region-top\">");
    let country = region.country.as_deref().unwrap_or(&region.code);
    match maps::locator(boundaries, country, &region.code, name) {
        Some(map) => html.push_str(&map),
        None => {
            let _ = write!(
                html,
                "<p class=\"note\">No map: the bundled boundaries have no outline of {}.</p>",
                escape(country)
            );
        }
    }
    html.push_str("</div>");

    if !page.children.is_empty() {
        html.push_str("<h2>Regions within</h2><ul class=\"children\">");
        for child in &page.children {
            let _ = write!(
                html,
                "<li><a href=\"{}\">{}</a></li>",
                region_href(&child.code),
                escape(&region_name(&child.code, child.name()))
            );
        }
        html.push_str("</ul>");
    }

    html.push_str("<h2>Headline figures</h2>");
    if page.profile.indicators.is_empty() {
        html.push_str("<p>No dataset has figures for this region.</p>");
    }
    for indicator in &page.profile.indicators {
        push_indicator(&mut html, page, indicator);
    }
    html
}

fn push_indicator(html: &mut String, page: &RegionPage<'_>, indicator: &Indicator) {
    let region = &page.profile.region.summary;
    let unit = indicator.unit_label.as_deref().unwrap_or(&indicator.unit);
    let _ = write!(
        html,
        "<section class=\"indicator\" id=\"{dataset}\" data-dataset=\"{dataset}\"><h3>{title}</h3>\
         <p class=\"series\">{label}Unit: {unit}{dims}. Dataset <code>{dataset}</code>.</p>",
        dataset = escape(&indicator.dataset),
        title = escape(&indicator.title),
        label = indicator
            .label
            .as_deref()
            .map(|l| format!("{}. ", escape(l)))
            .unwrap_or_default(),
        unit = escape(unit),
        dims = series_html(&indicator.series),
    );
    match &indicator.latest {
        Some(latest) => {
            let _ = write!(
                html,
                "<p class=\"latest\">Latest: {} {} in {}{}</p>",
                cited_value_html(latest),
                escape(unit),
                escape(&latest.period),
                if latest.flags.is_empty() {
                    String::new()
                } else {
                    format!(" (flags: {})", flags_html(&latest.flags))
                }
            );
        }
        None => html
            .push_str("<p class=\"latest\">No published value: every period is a flagged gap.</p>"),
    }
    html.push_str(&charts::line_chart(
        &format!("{} of {}, by period", indicator.title, region.code),
        unit,
        &indicator.history,
    ));
    let _ = write!(
        html,
        "<details class=\"figures\"><summary>Figures ({} periods)</summary><div class=\"scroll\"><table>\
         <thead><tr><th scope=\"col\">Period</th><th scope=\"col\">Value ({})</th><th scope=\"col\">Flags</th></tr></thead><tbody>",
        indicator.history.len(),
        escape(unit)
    );
    for cited in &indicator.history {
        let _ = write!(
            html,
            "<tr><th scope=\"row\">{}</th><td>{}</td><td>{}</td></tr>",
            escape(&cited.period),
            cited_value_html(cited),
            flags_html(&cited.flags)
        );
    }
    html.push_str("</tbody></table></div></details>");
    html.push_str(&warnings_html(&indicator.notes));

    let mut compare: Vec<&str> = vec![region.code.as_str()];
    compare.extend(
        page.siblings
            .iter()
            .map(String::as_str)
            .filter(|s| *s != region.code)
            .take(COMPARE_WITH),
    );
    html.push_str("<ul class=\"links\">");
    if compare.len() > 1 {
        let _ = write!(
            html,
            "<li><a href=\"/explore/compare?regions={}&amp;dataset={}\">Compare with {} other regions of the same parent</a></li>",
            escape(&compare.join(",")),
            escape(&indicator.dataset),
            compare.len() - 1
        );
    }
    if let Some(level) = region.level {
        let _ = write!(
            html,
            "<li><a href=\"/explore/maps/{}?level={level}\">Map of this dataset at NUTS {level}</a></li>",
            escape(&indicator.dataset)
        );
    }
    html.push_str("</ul></section>");
}

/// The page's figures as CSV: every period of every headline series.
pub fn csv(profile: &Profile) -> Vec<u8> {
    let region = &profile.region.summary.code;
    super::csv_text(
        &[
            "region", "dataset", "series", "unit", "period", "value", "flags", "citation",
        ],
        profile.indicators.iter().flat_map(|indicator| {
            let series = super::series_csv(&indicator.series);
            indicator.history.iter().map(move |cited| {
                vec![
                    region.clone(),
                    indicator.dataset.clone(),
                    series.clone(),
                    indicator.unit.clone(),
                    cited.period.to_string(),
                    super::csv_value(cited.value),
                    super::csv_flags(&cited.flags),
                    cited.citation.as_str().to_owned(),
                ]
            })
        }),
    )
}
