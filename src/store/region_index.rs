//! The public regions (the NUTS classification) in memory. They change only when public data is
//! imported, yet a comparison looks three of them up and a search reads all 2,500: from SQLite
//! that is a view with a `UNION ALL` read, and for a search sorted, on every request. A caller
//! who can see no region code of private data sees exactly the `regions` table, so its region
//! reads can come from one index per public data generation, shared by every request.

use super::regions::{RegionMatches, RegionRow};

pub struct RegionIndex {
    /// In code order (bytes, as SQLite's BINARY collation orders them).
    rows: Vec<RegionRow>,
    /// Each row's code, Latin and national name, lower-cased (Unicode-aware) for search.
    folded: Vec<[Option<String>; 3]>,
}

impl RegionIndex {
    pub fn new(mut rows: Vec<RegionRow>) -> RegionIndex {
        rows.sort_by(|a, b| a.code.cmp(&b.code));
        let folded = rows
            .iter()
            .map(|r| {
                [
                    Some(&r.code),
                    r.name_latin.as_ref(),
                    r.name_national.as_ref(),
                ]
                .map(|t| t.map(|t| t.to_lowercase()))
            })
            .collect();
        RegionIndex { rows, folded }
    }

    pub fn get(&self, code: &str) -> Option<&RegionRow> {
        let at = self
            .rows
            .binary_search_by(|r| r.code.as_str().cmp(code))
            .ok()?;
        Some(&self.rows[at])
    }

    /// The first region in code order whose code equals `code` ignoring ASCII case (as SQLite's
    /// NOCASE compares).
    pub fn any_case(&self, code: &str) -> Option<&RegionRow> {
        self.rows.iter().find(|r| r.code.eq_ignore_ascii_case(code))
    }

    pub fn codes(&self) -> Vec<String> {
        self.rows.iter().map(|r| r.code.clone()).collect()
    }

    /// [`super::Scoped::regions_matching`] on the index.
    pub fn matching(
        &self,
        (level, country): (Option<i64>, Option<&str>),
        needle: Option<&str>,
        after: Option<&str>,
        limit: usize,
    ) -> RegionMatches {
        let mut found = RegionMatches::default();
        for (row, folded) in self.rows.iter().zip(&self.folded) {
            let selected = level.is_none_or(|l| row.level == Some(l))
                && country.is_none_or(|c| row.country_code.as_deref() == Some(c))
                && needle.is_none_or(|n| folded.iter().flatten().any(|t| t.contains(n)));
            if selected && found.counts_on_page(&row.code, after, limit) {
                found.page.push(row.clone());
            }
        }
        found
    }
}
