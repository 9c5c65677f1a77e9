//! The public regions (the NUTS classification) in memory. They change only when public data is
//! imported, yet a comparison looks three of them up and a search reads all 2,500: from SQLite
//! that is a view with a `UNION ALL` read, and for a search sorted, on every request. A caller
//! who can see no region code of private data sees exactly the `regions` table, so its region
//! reads can come from one index per public data generation, shared by every request.

use std::collections::HashMap;
use std::sync::Arc;

use compact_str::CompactString;

use super::rows::regions::{RegionMatches, RegionRow};

pub struct RegionIndex {
    /// In code order (bytes, as SQLite's BINARY collation orders them).
    /// Shared with the answers that name them: a comparison or a citation names a few regions,
    /// and copying a row's eight texts cost more than finding it.
    rows: Vec<Arc<RegionRow>>,
    /// Each row's place by its code: a search through the sorted rows compared a dozen codes,
    /// each behind a pointer. Hashed with foldhash (seeded per process; the codes are the
    /// operator's imported data), a fraction of SipHash's cost on every lookup.
    by_code: HashMap<CompactString, u32, foldhash::fast::RandomState>,
    /// Every row's code, Latin and national name, lower-cased (Unicode-aware), row after row,
    /// each text followed by [`SEPARATOR`]: a search is one pass over this text, not thousands
    /// of short ones.
    folded: String,
    /// Where each row's texts begin in `folded`.
    starts: Vec<usize>,
    /// Each parent's children, as places in `rows`: in code order. (A profile names its region's
    /// children, a matrix reads a country's regions level by level.)
    children: HashMap<String, Vec<usize>>,
}

/// Ends each text in [`RegionIndex::folded`]. No region's code or name holds it, so a match never
/// runs from one text into the next unless the needle holds it too.
const SEPARATOR: char = '\0';

impl RegionIndex {
    pub fn new(mut rows: Vec<RegionRow>) -> RegionIndex {
        rows.sort_by(|a, b| a.code.cmp(&b.code));
        let mut folded = String::new();
        let mut starts = Vec::with_capacity(rows.len());
        for r in &rows {
            starts.push(folded.len());
            for text in [
                Some(&r.code),
                r.name_latin.as_ref(),
                r.name_national.as_ref(),
            ]
            .into_iter()
            .flatten()
            {
                folded.push_str(&text.to_lowercase());
                folded.push(SEPARATOR);
            }
        }
        let mut children: HashMap<String, Vec<usize>> = HashMap::new();
        for (at, r) in rows.iter().enumerate() {
            if let Some(parent) = &r.parent_code {
                children.entry(parent.clone()).or_default().push(at);
            }
        }
        RegionIndex {
            by_code: (rows.iter().enumerate())
                .map(|(at, r)| (CompactString::new(&r.code), at as u32))
                .collect(),
            rows: rows.into_iter().map(Arc::new).collect(),
            folded,
            starts,
            children,
        }
    }

    /// The regions whose parent is `code`, in code order.
    pub fn children(&self, code: &str) -> impl Iterator<Item = &RegionRow> {
        let places = self.children.get(code).map_or(&[][..], Vec::as_slice);
        places.iter().map(|&at| &*self.rows[at])
    }

    /// The rows, in code order, one of whose texts contains `needle` (lower case): after a match
    /// the search goes on from the next row.
    fn containing<'n>(&'n self, needle: &'n str) -> impl Iterator<Item = usize> + 'n {
        let finder = memchr::memmem::Finder::new(needle.as_bytes());
        // A needle holding the separator is in no text.
        let mut from = if needle.contains(SEPARATOR) {
            self.folded.len()
        } else {
            0
        };
        // The row whose texts `from` is in. Matches come in text order, so a match's row is
        // found walking on from there: a whole search walks past each row once, where a binary
        // search for every match (most rows, for a needle of one letter) took a dozen steps.
        let mut row = 0;
        std::iter::from_fn(move || {
            let rest = self
                .folded
                .as_bytes()
                .get(from..)
                .filter(|r| !r.is_empty())?;
            let at = from + finder.find(rest)?;
            while self.starts.get(row + 1).is_some_and(|&start| start <= at) {
                row += 1;
            }
            let found = row;
            row += 1;
            from = self.starts.get(row).copied().unwrap_or(self.folded.len());
            Some(found)
        })
    }

    pub fn get(&self, code: &str) -> Option<&Arc<RegionRow>> {
        let at = *self.by_code.get(code)?;
        Some(&self.rows[at as usize])
    }

    /// The region `code` names in another case (`crate::region_code::region_code_key`'s rule).
    pub fn any_case(&self, code: &str) -> Option<&Arc<RegionRow>> {
        (self.rows.iter()).find(|r| crate::region_code::same_region_code(code, &r.code))
    }

    pub fn codes(&self) -> Vec<String> {
        self.rows.iter().map(|r| r.code.clone()).collect()
    }

    /// `Scoped::regions_matching` on the index.
    pub fn matching(
        &self,
        (level, country): (Option<i64>, Option<&str>),
        needle: Option<&str>,
        after: Option<&str>,
        limit: usize,
    ) -> RegionMatches {
        let candidates: Box<dyn Iterator<Item = usize>> = match needle {
            Some(needle) => Box::new(self.containing(needle)),
            None => Box::new(0..self.rows.len()),
        };
        let mut found = RegionMatches::default();
        for row in candidates.map(|i| &self.rows[i]) {
            let selected = level.is_none_or(|l| row.level == Some(l))
                && country.is_none_or(|c| row.country_code.as_deref() == Some(c));
            if selected && found.counts_on_page(&row.code, after, limit) {
                found.page.push(Arc::clone(row));
            }
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(index: &RegionIndex, needle: &str) -> Vec<String> {
        let matches = index.matching((None, None), Some(needle), None, 10);
        matches.page.iter().map(|r| r.code.clone()).collect()
    }

    /// A region counts once however often its texts hold the needle, and a match never runs
    /// from one text into the next; an empty needle is in every text, and the search ends.
    #[test]
    fn each_region_is_found_once_and_the_search_ends() {
        let index = RegionIndex::new(vec![
            RegionRow::sample("FR10", "Ile-de-France"),
            RegionRow::sample("DE21", "Oberbayern"),
            RegionRow::sample("DE22", "Niederbayern"),
            RegionRow::sample("DE23", "Oberpfalz"),
        ]);
        assert_eq!(found(&index, "bayern"), ["DE21", "DE22"]);
        assert_eq!(found(&index, "ober"), ["DE21", "DE23"]);
        assert_eq!(found(&index, "fr"), ["FR10"]);
        assert_eq!(found(&index, "e"), ["DE21", "DE22", "DE23", "FR10"]);
        assert_eq!(found(&index, "21o"), Vec::<String>::new());
        assert_eq!(found(&index, "e\0"), Vec::<String>::new());
        assert_eq!(found(&index, ""), ["DE21", "DE22", "DE23", "FR10"]);
    }
}
