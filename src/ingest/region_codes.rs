//! Region codes as an account's upload writes them: read in any case as the known code they
//! name (`crate::text::region_code_key`'s rule), refused where a strict upload names no known
//! code, and, for a code no region has, the known codes it may be a typo of.

use std::collections::{HashMap, HashSet};

use crate::text::region_code_key;

/// Region codes as published, each also found in any case: a user's own data may write `de21`
/// for `DE21`, and is stored as the code is published, so it joins that region's public figures.
/// Codes of no known region stay as written; a strict reader refuses them, but those the
/// account already has as its own.
pub struct KnownRegions {
    /// By [`region_code_key`]: the first known code in code order.
    by_key: HashMap<String, String>,
    /// With the account's own codes, when codes of no known region are refused.
    strict: Option<HashSet<String>>,
}

impl KnownRegions {
    pub fn new(codes: &[String]) -> Self {
        let mut by_key = HashMap::with_capacity(codes.len());
        let mut sorted: Vec<&String> = codes.iter().collect();
        sorted.sort();
        for code in sorted {
            by_key
                .entry(region_code_key(code))
                .or_insert_with(|| code.clone());
        }
        KnownRegions {
            by_key,
            strict: None,
        }
    }

    /// Refusing codes of no known region but `own` (the account's own, which earlier uploads
    /// added).
    pub fn strict(mut self, own: &[String]) -> Self {
        self.strict = Some(own.iter().map(|c| region_code_key(c)).collect());
        self
    }

    pub(super) fn canonical(&self, region: &mut String) {
        // Most codes are written as published (in capitals): those need no copy of their key.
        if region.bytes().any(|b| b.is_ascii_lowercase())
            && let Some(code) = self.by_key.get(&region_code_key(region))
        {
            region.clone_from(code);
        }
    }

    /// Why a strict reader refuses `region` (as [`Self::canonical`] left it): it names no known
    /// region and is not the account's own.
    pub(super) fn refusal(&self, region: &str) -> Option<String> {
        let own = self.strict.as_ref()?;
        let key = region_code_key(region);
        if self.by_key.contains_key(&key) || own.contains(&key) {
            return None;
        }
        let known: Vec<&str> = self.by_key.values().map(String::as_str).collect();
        let near = nearest_codes(region, &known);
        Some(format!(
            "region code \"{}\" is no known region (strict_regions){}",
            crate::error::shown(region),
            match near.is_empty() {
                true => String::new(),
                false => format!("; did you mean {}?", near.join(", ")),
            }
        ))
    }

    /// The known codes `code` may be a typo of (see [`nearest_codes`]).
    pub fn nearest(&self, code: &str) -> Vec<String> {
        let known: Vec<&str> = self.by_key.values().map(String::as_str).collect();
        nearest_codes(code, &known)
    }
}

/// Suggestions for an unknown code: known codes at most two edits away (ignoring case), closest
/// first, at most five.
const MAX_SUGGESTIONS: usize = 5;
const MAX_EDITS: usize = 2;

/// The known codes within two edits of `code` (ignoring case), closest first, then in code
/// order, at most five. Codes are ASCII (`[A-Za-z0-9_]`), so they are compared byte by byte. A
/// known code whose length differs by more than two cannot be two edits away and costs only the
/// length check; the rest are at most 16 + 2 bytes long, so each comparison is a few hundred
/// steps.
pub fn nearest_codes(code: &str, known: &[impl AsRef<str>]) -> Vec<String> {
    let wanted = region_code_key(code).into_bytes();
    // Longer input cannot be within two edits of any code; don't spend time on it.
    if wanted.len() > super::MAX_REGION_CODE_LEN + MAX_EDITS {
        return Vec::new();
    }
    let mut rows = (Vec::new(), Vec::new());
    let mut near: Vec<(usize, &str)> = known
        .iter()
        .map(AsRef::as_ref)
        .filter(|k| k.len().abs_diff(wanted.len()) <= MAX_EDITS)
        .filter_map(|k| {
            let d = edit_distance(&wanted, region_code_key(k).as_bytes(), &mut rows);
            (d <= MAX_EDITS).then_some((d, k))
        })
        .collect();
    near.sort();
    near.into_iter()
        .take(MAX_SUGGESTIONS)
        .map(|(_, k)| k.to_owned())
        .collect()
}

/// Levenshtein distance (insertions, deletions, substitutions), in the two rows of `rows`,
/// reused from one comparison to the next.
fn edit_distance(a: &[u8], b: &[u8], rows: &mut (Vec<usize>, Vec<usize>)) -> usize {
    let (previous, current) = rows;
    previous.clear();
    previous.extend(0..=b.len());
    for (i, ca) in a.iter().enumerate() {
        current.clear();
        current.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current.push(substitution.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        std::mem::swap(previous, current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A code in another case is the known code; where known codes differ only in case, the
    /// first in code order; a strict reader refuses codes of no known region but the account's
    /// own, naming the nearest known ones.
    #[test]
    fn codes_are_read_by_one_rule_of_case_and_strictly_when_asked() {
        let known = KnownRegions::new(&["DE22".into(), "DE21".into(), "Xy1".into(), "XY1".into()]);
        let read = |written: &str| {
            let mut region = written.to_owned();
            known.canonical(&mut region);
            region
        };
        assert_eq!(read("de22"), "DE22");
        assert_eq!(read("xy1"), "XY1", "the first in code order");
        assert_eq!(read("QQ99"), "QQ99");
        assert_eq!(known.refusal("QQ99"), None, "not strict");
        let strict = KnownRegions::new(&["DE22".into(), "DE21".into()]).strict(&["mine1".into()]);
        assert_eq!(strict.refusal("DE22"), None);
        assert_eq!(strict.refusal("MINE1"), None, "the account's own");
        let why = strict.refusal("DE23").unwrap();
        assert!(
            why.contains("\"DE23\" is no known region") && why.contains("DE21, DE22"),
            "{why}"
        );
        assert!(!strict.refusal("QQ99").unwrap().contains("did you mean"));
        assert_eq!(strict.nearest("de2"), ["DE21", "DE22"]);
    }
}
