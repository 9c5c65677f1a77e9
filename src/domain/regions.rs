//! Regions as the API shows them: classification, NUTS editions and family.

use serde::Serialize;

use crate::error::ApiError;
use crate::store::Scoped;
use crate::store::regions::RegionRow;

#[derive(Debug, Clone, Serialize)]
pub struct ParentRef {
    pub code: String,
    pub name: Option<String>,
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

pub fn summary(row: &RegionRow) -> RegionSummary {
    let mut editions = Vec::new();
    if row.classification == "NUTS2016_UK" {
        editions.push("2016".to_owned());
    }
    if row.in_nuts2021 {
        editions.push("2021".to_owned());
    }
    if row.in_nuts2024 {
        editions.push("2024".to_owned());
    }
    RegionSummary {
        code: row.code.clone(),
        name: row.name_latin.clone().or_else(|| row.name_national.clone()),
        name_national: row.name_national.clone(),
        level: row.level,
        country: row.country_code.clone(),
        parent_code: row.parent_code.clone(),
        in_classification: !matches!(row.classification.as_str(), "historical" | "aggregate"),
        classification: row.classification.clone(),
        nuts_editions: editions,
    }
}

/// The region with this code, or `unknown_region`. Codes are matched as published (upper case).
pub fn find(store: &Scoped, code: &str) -> Result<RegionRow, ApiError> {
    store
        .region(code)?
        .ok_or_else(|| ApiError::UnknownRegion(code.to_owned()))
}

pub fn detail(store: &Scoped, code: &str) -> Result<RegionDetail, ApiError> {
    let row = find(store, code)?;
    let parent = match &row.parent_code {
        Some(p) => Some(ParentRef {
            code: p.clone(),
            name: store
                .region(p)?
                .and_then(|r| r.name_latin.or(r.name_national)),
        }),
        None => None,
    };
    Ok(RegionDetail {
        summary: summary(&row),
        parent,
        children: store.children(code)?,
        change_2021_2024: row.change_2021_2024,
        recoded_from: row.recoded_from,
        recoded_to: row.recoded_to,
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
    pub regions: Vec<RegionSummary>,
    /// Code of the last region returned when more follow.
    pub next_after: Option<String>,
    pub total: usize,
}

pub fn list(store: &Scoped, q: &RegionQuery<'_>) -> Result<RegionPage, ApiError> {
    let needle = q.search.map(str::to_lowercase);
    let matching: Vec<RegionRow> = store
        .regions(q.level, q.country)?
        .into_iter()
        .filter(|r| match &needle {
            None => true,
            Some(n) => [
                Some(&r.code),
                r.name_latin.as_ref(),
                r.name_national.as_ref(),
            ]
            .into_iter()
            .flatten()
            .any(|text| text.to_lowercase().contains(n.as_str())),
        })
        .collect();
    let total = matching.len();
    let start = match q.after {
        Some(after) => matching.partition_point(|r| r.code.as_str() <= after),
        None => 0,
    };
    let page: Vec<RegionSummary> = matching[start..]
        .iter()
        .take(q.limit)
        .map(summary)
        .collect();
    let next_after = (start + page.len() < total)
        .then(|| page.last().map(|r| r.code.clone()))
        .flatten();
    Ok(RegionPage {
        regions: page,
        next_after,
        total,
    })
}
