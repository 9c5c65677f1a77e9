//! Regions as the API shows them: classification, NUTS editions and family.

use std::sync::Arc;

use serde::Serialize;

use super::Citer;
use super::error::{Error, Rejection};
use crate::store::Scoped;
use crate::store::regions::RegionRow;

#[derive(Debug, Clone, Serialize)]
pub struct ParentRef {
    pub code: String,
    pub name: Option<String>,
    /// The classification row its name comes from.
    pub citation: Option<String>,
}

/// A region in lists and comparisons.
#[derive(Debug, Clone, Serialize)]
pub struct RegionSummary {
    pub code: String,
    pub name: Option<String>,
    pub name_national: Option<String>,
    pub level: Option<i64>,
    pub country: Option<String>,
    pub parent_code: Option<String>,
    /// NUTS, SR (statistical regions of EFTA and candidate countries), NUTS2016_UK,
    /// historical (a code of an earlier edition, seen only in data) or aggregate (EU27_2020, ...).
    pub classification: String,
    /// Editions of the classification that contain the code: "2021", "2024", or "2016" for UK codes.
    pub nuts_editions: Vec<String>,
    /// False for codes that appear in data but in no edition regintel ships.
    pub in_classification: bool,
    /// The row of the bundled classification (`nuts_regions.csv`; for an aggregate,
    /// `catalogue.json`) its names, level and parent come from; null for a code seen only in
    /// data, whose level, country and parent are derived from the code.
    pub citation: Option<String>,
}

/// A region on its own or in a profile: its parent and children too.
#[derive(Debug, Clone, Serialize)]
pub struct RegionDetail {
    #[serde(flatten)]
    pub summary: RegionSummary,
    pub parent: Option<ParentRef>,
    pub children: Vec<String>,
    pub change_2021_2024: Option<String>,
    pub recoded_from: Option<String>,
    pub recoded_to: Option<String>,
}

/// Extra-regio territory (`DEZZZ`: continental shelf, embassies): no region to set others
/// against or to correlate across.
pub fn is_extra_regio(code: &str) -> bool {
    code.len() > 2 && code.bytes().skip(2).all(|b| b == b'Z')
}

pub fn summary(row: &RegionRow) -> RegionSummary {
    RegionSummary {
        code: row.code.clone(),
        name: row.name().map(str::to_owned),
        name_national: row.name_national.clone(),
        level: row.level,
        country: row.country_code.clone(),
        parent_code: row.parent_code.clone(),
        in_classification: row.in_classification(),
        classification: row.classification.clone(),
        nuts_editions: editions(row).iter().map(|e| (*e).to_owned()).collect(),
        citation: row.citation.map(|c| c.to_string()),
    }
}

/// Editions of the classification that contain the region's code.
pub fn editions(row: &RegionRow) -> Vec<&'static str> {
    let mut editions = Vec::with_capacity(2);
    if row.classification == "NUTS2016_UK" {
        editions.push("2016");
    }
    if row.in_nuts2021 {
        editions.push("2021");
    }
    if row.in_nuts2024 {
        editions.push("2024");
    }
    editions
}

/// A region's [`RegionSummary`] as JSON text, made once per row.
pub fn summary_text(row: &RegionRow) -> &serde_json::value::RawValue {
    row.shown.get_or_make(|| summary(row))
}

/// Rows serialised as the list of their summaries, each summary's text made once per row: a
/// search's page would otherwise make and serialise every summary anew.
pub struct Summaries<'a>(pub &'a [Arc<RegionRow>]);

impl Serialize for Summaries<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|row| summary_text(row)))
    }
}

/// [`summary_text`] for `serialize_with`.
#[cfg(test)]
pub fn shown_summary<S: serde::Serializer>(row: &Arc<RegionRow>, s: S) -> Result<S::Ok, S::Error> {
    summary_text(row).serialize(s)
}

/// The region with this code in any case (its row carries the code as published: `de21` finds
/// `DE21`), or `unknown_region` with the closest known codes.
pub fn find(store: &Scoped, code: &str) -> Result<Arc<RegionRow>, Error> {
    if let Some(row) = store.region(code)? {
        return Ok(row);
    }
    if let Some(row) = store.region_any_case(code)? {
        return Ok(row);
    }
    Err(Rejection::UnknownRegion {
        code: code.to_owned(),
        suggestions: crate::region_code::nearest_codes(code, &store.region_codes()?),
    }
    .into())
}

/// The region with its parent and children, its classification row and its parent's cited by
/// `citer`.
pub fn detail(store: &Scoped, citer: &mut Citer, code: &str) -> Result<RegionDetail, Error> {
    let _snapshot = store.snapshot()?;
    let row = find(store, code)?;
    citer.cite_region(&row);
    let parent = match &row.parent_code {
        Some(p) => {
            let parent = store.region(p)?;
            Some(ParentRef {
                code: p.clone(),
                name: parent.as_ref().and_then(|r| r.name().map(str::to_owned)),
                citation: parent
                    .as_deref()
                    .and_then(|r| citer.cite_region(r))
                    .map(|c| c.to_string()),
            })
        }
        None => None,
    };
    Ok(RegionDetail {
        summary: summary(&row),
        parent,
        children: store.children(&row.code)?,
        change_2021_2024: row.change_2021_2024.clone(),
        recoded_from: row.recoded_from.clone(),
        recoded_to: row.recoded_to.clone(),
    })
}

/// Warnings about a region's code that apply to every figure shown for it.
pub fn code_warnings(region: &RegionSummary) -> Vec<super::Warning> {
    let mut out = Vec::new();
    match region.classification.as_str() {
        "historical" => out.push(super::Warning {
            code: "historical_code",
            message: format!(
                "{} is a code of an earlier NUTS edition, in neither NUTS 2021 nor NUTS 2024; \
                 its figures are as Eurostat published them under that code",
                region.code
            ),
        }),
        "aggregate" => out.push(super::Warning {
            code: "aggregate",
            message: format!(
                "{} is an aggregate of countries, not a NUTS region",
                region.code
            ),
        }),
        "NUTS2016_UK" => out.push(super::Warning {
            code: "uk_nuts2016",
            message: format!(
                "{} is a United Kingdom NUTS 2016 code; UK data end with the UK's EU membership",
                region.code
            ),
        }),
        _ if !region.nuts_editions.iter().any(|e| e == "2024") => out.push(super::Warning {
            code: "not_in_nuts2024",
            message: format!(
                "{} is in NUTS 2021 but not in NUTS 2024; newer data may use another code",
                region.code
            ),
        }),
        _ => {}
    }
    out
}

/// Filters for `GET /regions`.
pub struct RegionQuery<'a> {
    pub level: Option<i64>,
    pub country: Option<&'a str>,
    /// Case-insensitive substring of the code, the Latin or the national name.
    pub search: Option<&'a str>,
    /// Return regions with codes after this one.
    pub after: Option<&'a str>,
    pub limit: usize,
}

pub struct RegionPage {
    /// Shown as [`Summaries`].
    pub regions: Vec<Arc<RegionRow>>,
    /// Code of the last region returned when more follow.
    pub next_after: Option<String>,
    pub total: usize,
}

/// A page of regions, each one's classification row cited by `citer`.
pub fn list(store: &Scoped, citer: &mut Citer, q: &RegionQuery<'_>) -> Result<RegionPage, Error> {
    let needle = q.search.map(str::to_lowercase);
    let found =
        store.regions_matching((q.level, q.country), needle.as_deref(), q.after, q.limit)?;
    let page = found.page;
    for row in &page {
        citer.cite_region(row);
    }
    let next_after = (found.skipped + page.len() < found.total)
        .then(|| page.last().map(|r| r.code.clone()))
        .flatten();
    Ok(RegionPage {
        regions: page,
        next_after,
        total: found.total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The summary's text, made once, is what serde_json writes for the summary, and stays so.
    #[test]
    fn a_summary_is_shown_as_serde_json_writes_it() {
        for (classification, in_2021, in_2024) in [
            ("NUTS", true, true),
            ("NUTS2016_UK", false, false),
            ("historical", true, false),
        ] {
            let row = RegionRow {
                parent_code: Some("DEA".into()),
                classification: classification.into(),
                in_nuts2021: in_2021,
                in_nuts2024: in_2024,
                ..RegionRow::sample("DEA2", "K\u{f6}ln \"Rhein\"\t")
            };
            let written = serde_json::to_string(&summary(&row)).unwrap();
            assert_eq!(summary_text(&row).get(), written);
            assert_eq!(summary_text(&row).get(), written);
        }
    }
}
