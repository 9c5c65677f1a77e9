//! Region codes as people write them: one rule of case, and the known codes an unknown one may
//! be a typo of.

/// Longest region code there is (`file_formats` refuses longer ones), so that the search for codes
/// near an unknown one stays short.
pub const MAX_LEN: usize = 16;

/// The one rule for region codes written in another case: a code that differs from a known code
/// only in ASCII case (`de21`, `De21`) is that code (`DE21`), wherever a code is looked up (paths,
/// parameters, uploads); where known codes differ only in case, the first in code order. This is
/// the form both compare in.
pub fn region_code_key(code: &str) -> String {
    code.to_ascii_uppercase()
}

/// Whether `written` names the region `known` under [`region_code_key`]'s rule.
pub fn same_region_code(written: &str, known: &str) -> bool {
    written.eq_ignore_ascii_case(known)
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
    if wanted.len() > MAX_LEN + MAX_EDITS {
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

    #[test]
    fn suggestions_are_the_nearest_known_codes() {
        let known: Vec<String> = ["DE21", "DE22", "DE2", "FR10", "EU27_2020"]
            .map(String::from)
            .to_vec();
        assert_eq!(nearest_codes("de2x", &known), ["DE2", "DE21", "DE22"]);
        assert_eq!(nearest_codes("EU27_2002", &known), ["EU27_2020"]);
        assert!(nearest_codes("ZZZZZZZZ", &known).is_empty());
        assert!(nearest_codes(&"D".repeat(5000), &known).is_empty());
    }

    #[test]
    fn codes_in_another_case_are_the_same_code() {
        assert_eq!(region_code_key("de21"), "DE21");
        assert!(same_region_code("De21", "DE21"));
        assert!(!same_region_code("DE21", "DE2"));
    }
}
