//! Region reads (the NUTS classification plus codes seen only in data).

use std::sync::Arc;

use crate::store::sql::{Dialect, OptionalExtension, params};

use super::connections::Scoped;
use super::error::StoreResult;
use super::region_index::RegionIndex;
use super::rows::regions::{COLUMNS, contains_folded, from_row};
pub use super::rows::regions::{RegionMatches, RegionRow, RegionSourceRow};

impl Scoped {
    /// For a caller who sees public data only (anonymous, or an account that never loaded
    /// private data): region reads from now on come from the public regions in memory, as of
    /// public data generation `generation` ([`super::region_index`]), and read transactions
    /// take the public catalogue ([`super::public_catalogue`]); when the public rows of that
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
            let code = row.text_or_null(0)?.unwrap_or_default();
            let texts = [Some(code), row.text_or_null(1)?, row.text_or_null(2)?];
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
