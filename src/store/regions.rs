//! Region reads (the NUTS classification plus codes seen only in data).

use std::sync::Arc;

use crate::store::sql::{Dialect, OptionalExtension, Row, SqlResult, params};

use super::region_index::RegionIndex;
use super::{Scoped, StoreResult, text_or_null};
use crate::citation::CitationId;

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

const COLUMNS: &str = "code, name_latin, name_national, level, parent_code, country_code,
    classification, in_nuts2021, in_nuts2024, change_2021_2024, recoded_from, recoded_to,
    citation_id";

fn from_row(r: &Row) -> SqlResult<RegionRow> {
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
    pub(super) fn counts_on_page(&mut self, code: &str, after: Option<&str>, limit: usize) -> bool {
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
fn contains_folded(text: &str, needle: &str) -> bool {
    if text.is_ascii() {
        text.as_bytes()
            .windows(needle.len())
            .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
    } else {
        text.to_lowercase().contains(needle)
    }
}

impl Scoped {
    /// For a caller who sees public data only (anonymous, or an account that never loaded
    /// private data): region reads from now on come from the public regions in memory, as of
    /// public data generation `generation` ([`super::region_index`]), and read transactions
    /// take the public catalogue ([`super::public_catalog`]); when the public rows of that
    /// generation are held in memory ([`super::public_rows`]), every read they answer comes
    /// from there, without a read transaction, until the caller's first database read finds
    /// a later generation there.
    pub fn with_public_data_only(mut self, generation: i64) -> StoreResult<Scoped> {
        self.public_only = true;
        self.public_data = self
            .in_memory
            .held()
            .filter(|data| data.generation == generation);
        let index = self.in_memory.regions.at(generation, || {
            let mut stmt = self
                .sql()
                .prepare(&format!("SELECT {COLUMNS} FROM regions ORDER BY code"))?;
            let rows = stmt.query_map(params![], from_row)?;
            Ok(RegionIndex::new(rows.collect::<Result<_, _>>()?))
        })?;
        self.public_regions = Some(index);
        Ok(self)
    }

    pub fn region(&self, code: &str) -> StoreResult<Option<Arc<RegionRow>>> {
        if let Some(index) = &self.public_regions {
            return Ok(index.get(code).map(Arc::clone));
        }
        let mut stmt = self
            .sql()
            .prepare_cached(&format!("SELECT {COLUMNS} FROM v_regions WHERE code = ?1"))?;
        Ok(stmt
            .query_row(params![code], from_row)
            .optional()?
            .map(Arc::new))
    }

    /// The region whose code is `code` in another case (`de21` for `DE21`), by
    /// `crate::region_code::region_code_key`'s rule.
    pub fn region_any_case(&self, code: &str) -> StoreResult<Option<Arc<RegionRow>>> {
        // Codes are ASCII: PostgreSQL's upper() would fold other letters (ı to I), SQLite's
        // NOCASE not.
        if !code.is_ascii() {
            return Ok(None);
        }
        if let Some(index) = &self.public_regions {
            return Ok(index.any_case(code).map(Arc::clone));
        }
        let db = self.sql();
        // The same rule in each dialect, as its index of codes in any case has them (for ASCII,
        // NOCASE and upper() fold the same letters).
        let any_case = match db.dialect() {
            Dialect::Sqlite => "code = ?1 COLLATE NOCASE",
            Dialect::Postgres => "upper(code) = upper(?1)",
        };
        let mut stmt = db.prepare_cached(&format!(
            "SELECT {COLUMNS} FROM v_regions WHERE {any_case} ORDER BY code LIMIT 1"
        ))?;
        Ok(stmt
            .query_row(params![code], from_row)
            .optional()?
            .map(Arc::new))
    }

    /// The classification row whose citation id is `id`.
    pub fn region_source(&self, id: &str) -> StoreResult<Option<RegionSourceRow>> {
        let mut stmt = self.sql().prepare_cached(
            "SELECT code, source_file, source_sha256, source_line, name_source, name_latin_source
             FROM v_region_sources WHERE citation_id = ?1",
        )?;
        Ok(stmt
            .query_row(params![id], |r| {
                Ok(RegionSourceRow {
                    code: r.get(0)?,
                    file: r.get(1)?,
                    sha256: r.get(2)?,
                    line: r.get(3)?,
                    name_source: r.get(4)?,
                    name_latin_source: r.get(5)?,
                })
            })
            .optional()?)
    }

    /// Every code the caller can see.
    pub fn region_codes(&self) -> StoreResult<Vec<String>> {
        if let Some(index) = &self.public_regions {
            return Ok(index.codes());
        }
        let mut stmt = self.sql().prepare_cached("SELECT code FROM v_regions")?;
        let rows = stmt.query_map(params![], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Codes of the regions whose parent is `code`, in code order.
    pub fn children(&self, code: &str) -> StoreResult<Vec<String>> {
        if let Some(index) = &self.public_regions {
            return Ok(index.children(code).map(|r| r.code.clone()).collect());
        }
        let mut stmt = self
            .sql()
            .prepare_cached("SELECT code FROM v_regions WHERE parent_code = ?1 ORDER BY code")?;
        let rows = stmt.query_map(params![code], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The regions whose parent is `code`, in code order.
    pub fn subregions(&self, code: &str) -> StoreResult<Vec<RegionRow>> {
        if let Some(index) = &self.public_regions {
            return Ok(index.children(code).cloned().collect());
        }
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM v_regions WHERE parent_code = ?1 ORDER BY code"
        ))?;
        let rows = stmt.query_map(params![code], from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// One page of the regions of a level and country, in code order, whose code, Latin or
    /// national name contains `needle` (lower case) ignoring case: the first `limit` with a
    /// code after `after`, and how many match. Only the page's rows are built: the text is
    /// matched as SQLite holds it (Unicode-aware, which SQLite's `lower` is not).
    pub fn regions_matching(
        &self,
        (level, country): (Option<i64>, Option<&str>),
        needle: Option<&str>,
        after: Option<&str>,
        limit: usize,
    ) -> StoreResult<RegionMatches> {
        if let Some(index) = &self.public_regions {
            return Ok(index.matching((level, country), needle, after, limit));
        }
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM v_regions
             WHERE (level = ?1 OR ?1 IS NULL) AND (country_code = ?2 OR ?2 IS NULL)
             ORDER BY code"
        ))?;
        let mut rows = stmt.query(params![level, country])?;
        let mut found = RegionMatches::default();
        while let Some(row) = rows.next_row()? {
            let row = &row.row();
            let code = text_or_null(row, 0)?.unwrap_or_default();
            let texts = [Some(code), text_or_null(row, 1)?, text_or_null(row, 2)?];
            let matches =
                needle.is_none_or(|n| texts.into_iter().flatten().any(|t| contains_folded(t, n)));
            if matches && found.counts_on_page(code, after, limit) {
                found.page.push(Arc::new(from_row(row)?));
            }
        }
        Ok(found)
    }

    /// Regions filtered by level and country, in code order.
    pub fn regions(
        &self,
        level: Option<i64>,
        country: Option<&str>,
    ) -> StoreResult<Vec<RegionRow>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM v_regions
             WHERE (level = ?1 OR ?1 IS NULL) AND (country_code = ?2 OR ?2 IS NULL)
             ORDER BY code"
        ))?;
        let rows = stmt.query_map(params![level, country], from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_folds_case_as_unicode_lower_casing_does() {
        for (text, needle) in [
            ("DE21", "de2"),
            ("Oberbayern", "bayern"),
            ("Île-de-France", "île"),
            ("İstanbul", "i̇s"),
            ("ÅLAND", "åland"),
        ] {
            assert!(contains_folded(text, needle), "{text} {needle}");
            assert_eq!(
                contains_folded(text, needle),
                text.to_lowercase().contains(needle)
            );
        }
        assert!(!contains_folded("Berlin", "bern"));
        assert!(!contains_folded("DE21", "é"));
    }
}
