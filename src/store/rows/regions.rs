//! The rows of regions (the NUTS classification plus codes seen only in data), how one is read
//! from a result, and the matches of a search.

use std::sync::Arc;

use crate::citation_id::CitationId;
use crate::store::sql::{Row, SqlResult};

#[derive(Debug, Clone)]
pub struct RegionRow {
    pub code: String,
    pub name_latin: Option<String>,
    pub name_national: Option<String>,
    pub level: Option<i64>,
    pub parent_code: Option<String>,
    pub country_code: Option<String>,
    pub classification: String,
    pub in_nuts2021: bool,
    pub in_nuts2024: bool,
    pub change_2021_2024: Option<String>,
    pub recoded_from: Option<String>,
    pub recoded_to: Option<String>,
    /// The citation of the classification row its names, level and parent come from (None for a
    /// code seen only in data, whose every field is derived from the code).
    pub citation: Option<CitationId>,
    /// Its summary's JSON text as answers show it, made when first shown: a comparison shows
    /// the summary of each region it compares.
    pub shown: crate::json_text::Kept,
}

impl RegionRow {
    /// A NUTS 2 region of both editions named `name`, for tests.
    #[cfg(test)]
    pub fn sample(code: &str, name: &str) -> RegionRow {
        RegionRow {
            code: code.into(),
            name_latin: Some(name.into()),
            name_national: None,
            level: Some(2),
            parent_code: None,
            country_code: Some(code[..2].into()),
            classification: "NUTS".into(),
            in_nuts2021: true,
            in_nuts2024: true,
            change_2021_2024: None,
            recoded_from: None,
            recoded_to: None,
            citation: None,
            shown: Default::default(),
        }
    }

    /// A region of a classification regintel ships (NUTS, its statistical regions, the UK's of
    /// NUTS 2016), not a code seen only in data (historical) nor an aggregate.
    pub fn in_classification(&self) -> bool {
        !matches!(self.classification.as_str(), "historical" | "aggregate")
    }

    /// The name in Latin script where Eurostat gives one, else the national one.
    pub fn name(&self) -> Option<&str> {
        self.name_latin.as_deref().or(self.name_national.as_deref())
    }
}

pub(crate) const COLUMNS: &str =
    "code, name_latin, name_national, level, parent_code, country_code,
    classification, in_nuts2021, in_nuts2024, change_2021_2024, recoded_from, recoded_to,
    citation_id";

pub(crate) fn from_row(r: &Row) -> SqlResult<RegionRow> {
    Ok(RegionRow {
        code: r.get(0)?,
        name_latin: r.get(1)?,
        name_national: r.get(2)?,
        level: r.get(3)?,
        parent_code: r.get(4)?,
        country_code: r.get(5)?,
        classification: r.get(6)?,
        in_nuts2021: r.get(7)?,
        in_nuts2024: r.get(8)?,
        change_2021_2024: r.get(9)?,
        recoded_from: r.get(10)?,
        recoded_to: r.get(11)?,
        citation: r
            .get::<Option<String>>(12)?
            .and_then(|id| CitationId::new(&id)),
        shown: Default::default(),
    })
}

/// Where a region's row of the classification stands, as its citation resolves it.
#[derive(Debug, Clone)]
pub struct RegionSourceRow {
    pub code: String,
    pub file: String,
    pub sha256: String,
    pub line: i64,
    pub name_source: Option<String>,
    pub name_latin_source: Option<String>,
}

/// A page of [`Scoped::regions_matching`].
#[derive(Default)]
pub struct RegionMatches {
    /// Shared with the index that holds them: a page's answer shows each row's summary text,
    /// made once per row.
    pub page: Vec<Arc<RegionRow>>,
    /// Regions that match, in all.
    pub total: usize,
    /// Regions that match at or before the page's `after`.
    pub skipped: usize,
}

impl RegionMatches {
    /// Counts a matching region (they come in code order); true if it belongs on the page.
    pub(crate) fn counts_on_page(&mut self, code: &str, after: Option<&str>, limit: usize) -> bool {
        self.total += 1;
        if after.is_some_and(|after| code <= after) {
            self.skipped += 1;
            return false;
        }
        self.page.len() < limit
    }
}

/// Whether `text`, lower-cased, contains `needle` (lower case already). ASCII text, nearly every
/// code and Latin name, is compared in place; other text is lower-cased Unicode-aware first.
pub(crate) fn contains_folded(text: &str, needle: &str) -> bool {
    if text.is_ascii() {
        text.as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
    } else {
        text.to_lowercase().contains(needle)
    }
}
