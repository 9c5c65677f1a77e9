//! The explorer's front page: a search over region names and codes of every level, and the
//! countries, from which each region's page leads down its hierarchy to NUTS 3.

use std::fmt::Write;
use std::sync::Arc;

use super::region_href;
use crate::pages::escape;
use crate::store::regions::RegionRow;

/// The page's `main` content: the search form (with `search` filled in), its results when there
/// was a search (`found`, and whether there are more than shown), and the countries.
pub fn render(
    search: Option<&str>,
    found: Option<(&[Arc<RegionRow>], bool)>,
    countries: &[Arc<RegionRow>],
    boundaries_notice: &str,
) -> String {
    let mut html = String::with_capacity(16 * 1024);
    let _ = write!(
        html,
        "<h1>Explore the regions</h1>\
         <p class=\"lead\">Every figure links to the primary row it was read from.</p>\
         <form class=\"inline\" method=\"get\" action=\"/explore\" role=\"search\">\
         <label for=\"region-search\">Find a region by name or code</label>\
         <input id=\"region-search\" name=\"q\" type=\"search\" maxlength=\"100\" required value=\"{}\" \
         data-testid=\"region-search\"><button type=\"submit\">Search</button></form>",
        escape(search.unwrap_or(""))
    );
    if let (Some(search), Some((regions, more))) = (search, found) {
        let _ = write!(html, "<h2>Regions matching “{}”</h2>", escape(search));
        if regions.is_empty() {
            html.push_str("<p>No region's name or code contains that.</p>");
        } else {
            push_list(&mut html, "results", regions);
            if more {
                html.push_str(
                    "<p class=\"help\">More regions match: add to the search to narrow it.</p>",
                );
            }
        }
    }
    html.push_str("<h2>Countries</h2>");
    push_list(&mut html, "countries", countries);
    // GISCO's provisions ask for the notice on a publication's introductory page too.
    let _ = write!(
        html,
        "<p class=\"map-source\">The maps draw Eurostat-GISCO's NUTS boundaries: {}. They may not \
         be used for commercial purposes.</p>",
        escape(boundaries_notice)
    );
    html
}

fn push_list(html: &mut String, class: &str, regions: &[Arc<RegionRow>]) {
    let _ = write!(
        html,
        "<ul class=\"regions {class}\" data-testid=\"{class}\">"
    );
    for region in regions {
        let level = region
            .level
            .map_or(String::new(), |l| format!(" · NUTS {l}"));
        let _ = write!(
            html,
            "<li><a href=\"{}\">{}</a> <span class=\"code\">{}{level}</span></li>",
            region_href(&region.code),
            escape(region.name().unwrap_or(&region.code)),
            escape(&region.code),
        );
    }
    html.push_str("</ul>");
}

/// The regions a front page lists as CSV: the search's results, or the countries.
pub fn csv(regions: &[Arc<RegionRow>]) -> Vec<u8> {
    super::csv_text(
        &["region", "name", "level", "country"],
        regions.iter().map(|r| {
            vec![
                r.code.clone(),
                r.name().unwrap_or_default().to_owned(),
                r.level.map(|l| l.to_string()).unwrap_or_default(),
                r.country_code.clone().unwrap_or_default(),
            ]
        }),
    )
}
