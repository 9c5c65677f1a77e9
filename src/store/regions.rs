//! Region reads (the NUTS classification plus codes seen only in data).

use rusqlite::{OptionalExtension, Row};

use super::{Scoped, StoreResult};

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
}

impl RegionRow {
    /// The name in Latin script where Eurostat gives one, else the national one.
    pub fn name(&self) -> Option<&str> {
        self.name_latin.as_deref().or(self.name_national.as_deref())
    }
}

const COLUMNS: &str = "code, name_latin, name_national, level, parent_code, country_code,
    classification, in_nuts2021, in_nuts2024, change_2021_2024, recoded_from, recoded_to";

fn from_row(r: &Row) -> rusqlite::Result<RegionRow> {
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
    })
}

/// A page of [`Scoped::regions_matching`].
#[derive(Default)]
pub struct RegionMatches {
    pub page: Vec<RegionRow>,
    /// Regions that match, in all.
    pub total: usize,
    /// Regions that match at or before the page's `after`.
    pub skipped: usize,
}

/// A text column, borrowed from the row.
fn text<'r>(row: &'r Row<'_>, i: usize) -> rusqlite::Result<Option<&'r str>> {
    row.get_ref(i)?.as_str_or_null().map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(i, rusqlite::types::Type::Text, Box::new(e))
    })
}

impl Scoped {
    pub fn region(&self, code: &str) -> StoreResult<Option<RegionRow>> {
        let mut stmt = self
            .db()
            .prepare_cached(&format!("SELECT {COLUMNS} FROM v_regions WHERE code = ?1"))?;
        Ok(stmt.query_row([code], from_row).optional()?)
    }

    /// The region whose code is `code` in another case (`de21` for `DE21`); the first in code
    /// order if several differ only in case.
    pub fn region_any_case(&self, code: &str) -> StoreResult<Option<RegionRow>> {
        let mut stmt = self.db().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM v_regions WHERE code = ?1 COLLATE NOCASE ORDER BY code LIMIT 1"
        ))?;
        Ok(stmt.query_row([code], from_row).optional()?)
    }

    /// Every code the caller can see.
    pub fn region_codes(&self) -> StoreResult<Vec<String>> {
        let mut stmt = self.db().prepare_cached("SELECT code FROM v_regions")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Codes of the regions whose parent is `code`, in code order.
    pub fn children(&self, code: &str) -> StoreResult<Vec<String>> {
        let mut stmt = self
            .db()
            .prepare_cached("SELECT code FROM v_regions WHERE parent_code = ?1 ORDER BY code")?;
        let rows = stmt.query_map([code], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The regions whose parent is `code`, in code order.
    pub fn subregions(&self, code: &str) -> StoreResult<Vec<RegionRow>> {
        let mut stmt = self.db().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM v_regions WHERE parent_code = ?1 ORDER BY code"
        ))?;
        let rows = stmt.query_map([code], from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// One page of the regions of a level and country (in code order) that `matches` accepts by
    /// their code and names: the first `limit` with a code after `after`. `matches` sees the
    /// text as SQLite holds it, so a search builds rows for the page only, not for every region
    /// it looks at (names need Unicode-aware matching SQLite lacks).
    pub fn regions_matching(
        &self,
        (level, country): (Option<i64>, Option<&str>),
        mut matches: impl FnMut([Option<&str>; 3]) -> bool,
        after: Option<&str>,
        limit: usize,
    ) -> StoreResult<RegionMatches> {
        let mut stmt = self.db().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM v_regions
             WHERE (?1 IS NULL OR level = ?1) AND (?2 IS NULL OR country_code = ?2)
             ORDER BY code"
        ))?;
        let mut rows = stmt.query(rusqlite::params![level, country])?;
        let mut found = RegionMatches::default();
        while let Some(row) = rows.next()? {
            let code = text(row, 0)?.unwrap_or_default();
            if !matches([Some(code), text(row, 1)?, text(row, 2)?]) {
                continue;
            }
            found.total += 1;
            if after.is_some_and(|after| code <= after) {
                found.skipped += 1;
            } else if found.page.len() < limit {
                found.page.push(from_row(row)?);
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
        let mut stmt = self.db().prepare_cached(&format!(
            "SELECT {COLUMNS} FROM v_regions
             WHERE (?1 IS NULL OR level = ?1) AND (?2 IS NULL OR country_code = ?2)
             ORDER BY code"
        ))?;
        let rows = stmt.query_map(rusqlite::params![level, country], from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
