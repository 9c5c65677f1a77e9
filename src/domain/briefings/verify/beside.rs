//! What a model writes right beside a number it states. The number may be a claim written
//! exactly, and still say something else: a sign (`minus 274.9`), a magnitude or unit that is
//! not the claim's (`274.9 bn`, `274.9 euro` of a density), arithmetic between claims
//! (`274.9 x 274.9`, `274.9/7`, `274.9 squared`), or a region of the fact sheet that the claim
//! is not about (`46.1 % above Hamburg` where the claim compares with Bayern).

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use super::super::claims::{Claim, Operation};
use super::words::{ARITHMETIC_SIGNS, ARITHMETIC_WORDS, SIGN_WORDS, UNIT_FAMILIES};

/// What the verifier learnt of a claim from the rows it read for it.
#[derive(Default, Debug)]
pub(super) struct ClaimRows {
    /// The unit a value of the claim is in: its row's (a direct claim, a difference); none for
    /// a percentage, a ratio, a rank or a count.
    pub unit: Option<String>,
    /// The regions of its rows.
    pub regions: BTreeSet<String>,
}

impl ClaimRows {
    /// What `claim` is of, given the units and regions of the rows read for it, in order.
    pub fn of(claim: &Claim, rows: &[(String, String)]) -> ClaimRows {
        let has_unit = match claim.operation.as_deref().and_then(Operation::parse) {
            None => true,
            Some(operation) => operation == Operation::Difference,
        };
        ClaimRows {
            unit: (rows.first())
                .filter(|_| has_unit)
                .map(|(unit, _)| unit.clone()),
            regions: rows.iter().map(|(_, region)| region.clone()).collect(),
        }
    }
}

/// Up to `n` words of `text` from its start (after spaces and an opening parenthesis),
/// lower-cased, up to the first character that is neither a letter, a digit nor a space.
fn words_after(text: &str, n: usize) -> Vec<String> {
    let text = text.trim_start_matches([' ', '(']);
    let clause = text
        .split(|c: char| !(c.is_alphanumeric() || c == ' '))
        .next()
        .unwrap_or("");
    (clause.split(' ').filter(|w| !w.is_empty()))
        .take(n)
        .map(str::to_lowercase)
        .collect()
}

/// The nearest word of `text` before its end, lower-cased, if only spaces stand between.
fn word_before(text: &str) -> Option<String> {
    let text = text.trim_end_matches(' ');
    let word: String = text
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (!word.is_empty()).then(|| word.to_lowercase())
}

/// Why the number at `span` of `text`, which states `claim` (of `rows`), says more than the
/// claim, if it does; `names` are the fact sheet's regions by code, each with the names a text
/// may call it by.
pub(super) fn beside(
    claim: &Claim,
    rows: &ClaimRows,
    text: &str,
    span: Range<usize>,
    names: &BTreeMap<String, Vec<String>>,
) -> Option<String> {
    let read = claim.reads.as_ref().map_or(span.len(), String::len);
    let after = &text[(span.start + read).min(text.len())..];
    let before = &text[..span.start];
    let what = &claim.display;
    let id = &claim.id;
    // A sign.
    if let Some(word) = word_before(before).filter(|w| SIGN_WORDS.contains(&w.as_str())) {
        return Some(format!(
            "the text writes \"{word}\" before {what}: claim {id} has no sign to give"
        ));
    }
    // Arithmetic.
    let next = after.trim_start_matches(' ');
    let previous = before.trim_end_matches(' ');
    let spaced_minus = next.starts_with("- ") || next.starts_with("-\t");
    let sign_after = next.starts_with(ARITHMETIC_SIGNS) || spaced_minus;
    let sign_before = previous.ends_with(ARITHMETIC_SIGNS);
    let word_after = words_after(after, 1).pop();
    let arithmetic_word = [word_after.clone(), word_before(before)]
        .into_iter()
        .flatten()
        .find(|w| ARITHMETIC_WORDS.contains(&w.as_str()));
    if sign_after || sign_before || arithmetic_word.is_some() {
        let how = arithmetic_word.unwrap_or_else(|| "a sign of arithmetic".into());
        return Some(format!(
            "the text writes {how} beside {what}: a model states claims, never arithmetic of them (claim {id})"
        ));
    }
    // Units and magnitudes.
    let beside_words = (words_after(after, 2).into_iter().map(|w| (w, false)))
        .chain(word_before(before).map(|w| (w, true)));
    for (word, is_before) in beside_words {
        let family = UNIT_FAMILIES
            .iter()
            .find(|f| f.words.contains(&word.as_str()) && (f.before_too || !is_before));
        if let Some(family) = family
            && !rows.unit.as_deref().is_some_and(family.fits)
        {
            let unit = rows.unit.as_deref().unwrap_or("none: it is no amount");
            return Some(format!(
                "the text writes \"{word}\" beside {what}, which is not the unit of claim {id} ({unit})"
            ));
        }
    }
    // Regions: after the number, to the end of its clause, only the claim's own.
    let counts = matches!(
        claim.operation.as_deref().and_then(Operation::parse),
        Some(Operation::Count | Operation::Rank | Operation::RankFromBottom)
    );
    if counts || claim.inputs_of.is_some() {
        return None;
    }
    let clause_end = after
        .find(|c: char| matches!(c, ';' | ':' | '!' | '?' | '\n') || c.is_ascii_digit())
        .unwrap_or(after.len());
    let clause_end = (after.match_indices(". ").map(|(at, _)| at))
        .chain(after.ends_with('.').then_some(after.len() - 1))
        .filter(|&at| at < clause_end)
        .min()
        .unwrap_or(clause_end);
    let clause = &after[..clause_end];
    for (code, called) in names {
        if rows.regions.contains(code) {
            continue;
        }
        let called: Vec<&str> = called.iter().map(String::as_str).collect();
        if let Some((_, i)) = super::label_spans(clause, &called).into_iter().next() {
            return Some(format!(
                "the text names {} after {what}, which claim {id} does not compare with",
                called[i]
            ));
        }
    }
    None
}
