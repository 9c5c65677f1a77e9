//! Region codes as an account's upload writes them: read in any case as the known code they
//! name (`crate::region_code`'s rule), refused where a strict upload names no known code, and,
//! for a code no region has, the known codes it may be a typo of.

use std::collections::{HashMap, HashSet};

use crate::region_code::{nearest_codes, region_code_key};

/// Region codes as published, each also found in any case: a user's own data may write `de21`
/// for `DE21`, and is stored as the code is published, so it joins that region's public figures;
/// a code the account made its own is read so too. Codes of no known region stay as written; a
/// strict reader refuses them.
pub struct KnownRegions {
    /// By [`region_code_key`]: the first public code in code order, else the account's own.
    by_key: HashMap<String, String>,
    /// The public codes' keys (for suggestions, which name no account's code).
    public: HashSet<String>,
    strict: bool,
}

impl KnownRegions {
    pub fn new(codes: &[String]) -> Self {
        let mut known = KnownRegions {
            by_key: HashMap::with_capacity(codes.len()),
            public: HashSet::with_capacity(codes.len()),
            strict: false,
        };
        known.add(codes);
        known.public = known.by_key.keys().cloned().collect();
        known
    }

    /// With `own`, the codes an account's earlier uploads made its own.
    pub fn with_own(mut self, own: &[String]) -> Self {
        self.add(own);
        self
    }

    /// Refusing codes of no known region (public or the account's own).
    pub fn strict(mut self) -> Self {
        self.strict = true;
        self
    }

    fn add(&mut self, codes: &[String]) {
        let mut sorted: Vec<&String> = codes.iter().collect();
        sorted.sort();
        for code in sorted {
            (self.by_key.entry(region_code_key(code))).or_insert_with(|| code.clone());
        }
    }

    pub(super) fn canonical(&self, region: &mut String) {
        if let Some(code) = self.by_key.get(&region_code_key(region))
            && code != region
        {
            region.clone_from(code);
        }
    }

    /// Why a strict reader refuses `region`: it names no known region, public or the
    /// account's own.
    pub fn refusal(&self, region: &str) -> Option<String> {
        if !self.strict || self.by_key.contains_key(&region_code_key(region)) {
            return None;
        }
        let near = self.nearest(region);
        Some(format!(
            "region code \"{}\" is no known region (strict_regions){}",
            crate::error_text::shown(region),
            match near.is_empty() {
                true => String::new(),
                false => format!("; did you mean {}?", near.join(", ")),
            }
        ))
    }

    /// The public codes `code` may be a typo of (see `crate::region_code::nearest_codes`).
    pub fn nearest(&self, code: &str) -> Vec<String> {
        let known: Vec<&str> = (self.by_key.iter())
            .filter(|(key, _)| self.public.contains(*key))
            .map(|(_, code)| code.as_str())
            .collect();
        nearest_codes(code, &known)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A code in another case is the known code (the account's own too); where known codes
    /// differ only in case, the first in code order; a strict reader refuses codes of no known
    /// region, naming the nearest public ones.
    #[test]
    fn codes_are_read_by_one_rule_of_case_and_strictly_when_asked() {
        let known = KnownRegions::new(&["DE22".into(), "DE21".into(), "Xy1".into(), "XY1".into()])
            .with_own(&["mine1".into(), "de21".into()]);
        let read = |written: &str| {
            let mut region = written.to_owned();
            known.canonical(&mut region);
            region
        };
        assert_eq!(read("de22"), "DE22");
        assert_eq!(read("xy1"), "XY1", "the first in code order");
        assert_eq!(
            read("MINE1"),
            "mine1",
            "the account's own, as it first wrote it"
        );
        assert_eq!(read("de21"), "DE21", "a public code before an own one");
        assert_eq!(read("QQ99"), "QQ99");
        assert_eq!(known.refusal("QQ99"), None, "not strict");
        assert_eq!(
            known.nearest("mine2"),
            Vec::<String>::new(),
            "no account's code"
        );
        let strict = KnownRegions::new(&["DE22".into(), "DE21".into()])
            .with_own(&["mine1".into()])
            .strict();
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
