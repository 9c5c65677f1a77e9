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
    /// What `claim` is of, given the rows read for it, in order.
    pub fn of(claim: &Claim, rows: &[std::rc::Rc<super::cited_row::CitedRow>]) -> ClaimRows {
        let has_unit = match claim.operation.as_deref().and_then(Operation::parse) {
            None => true,
            Some(operation) => operation == Operation::Difference,
        };
        ClaimRows {
            unit: (rows.first())
                .filter(|_| has_unit)
                .map(|row| row.unit.clone()),
            // A count or rank names no region beside its number (see [`beside`]).
            regions: match counts(claim) {
                true => BTreeSet::new(),
                false => rows.iter().map(|row| row.region.clone()).collect(),
            },
        }
    }
}

/// A count or a rank, or a claim counting another's inputs: read among many regions.
fn counts(claim: &Claim) -> bool {
    claim.inputs_of.is_some()
        || matches!(
            claim.operation.as_deref().and_then(Operation::parse),
            Some(Operation::Count | Operation::Rank | Operation::RankFromBottom)
        )
}

/// Characters that stand between a number and the words bound to it without ending its clause:
/// spaces, brackets, quotes, hyphens, commas and colons ("274.9 (in EUR bn)", "274.9-bn",
/// "USD: 274.9").
const BETWEEN: &[char] = &[' ', '(', ')', '[', ']', '"', '\'', '-', ',', ':'];

/// Characters that end a clause (a full stop only before a space or the end: not "Prov. X").
fn ends_clause(text: &str, at: usize, c: char) -> bool {
    matches!(c, ';' | '!' | '?' | '\n')
        || (c == '.'
            && text[at + 1..]
                .chars()
                .next()
                .is_none_or(char::is_whitespace))
}

/// Up to `n` words of `text` from its start, lower-cased, skipping [`BETWEEN`], up to the end
/// of the clause or the next number.
fn words_after(text: &str, n: usize) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    for (at, c) in text.char_indices() {
        if c.is_alphanumeric() {
            if word.is_empty() && c.is_ascii_digit() {
                break;
            }
            word.extend(c.to_lowercase());
            continue;
        }
        if !word.is_empty() {
            words.push(std::mem::take(&mut word));
        }
        if words.len() == n || ends_clause(text, at, c) || !BETWEEN.contains(&c) {
            break;
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words.truncate(n);
    words
}

/// The nearest word of `text` before its end, lower-cased, with only [`BETWEEN`] between.
fn word_before(text: &str) -> Option<String> {
    let text = text.trim_end_matches(BETWEEN);
    let word: String = text
        .chars()
        .rev()
        .take_while(|c| c.is_alphanumeric())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    (!word.is_empty() && !word.starts_with(|c: char| c.is_ascii_digit()))
        .then(|| word.to_lowercase())
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
    let previous = before.trim_end_matches(' ');
    // A sign: a word, or a hyphen standing alone before the number ("- 274.9", "minus-274.9").
    let sign_word = word_before(before).filter(|w| SIGN_WORDS.contains(&w.as_str()));
    if sign_word.is_some() || previous.ends_with('-') {
        let sign = sign_word.unwrap_or_else(|| "-".into());
        return Some(format!(
            "the text writes \"{sign}\" before {what}: claim {id} has no sign to give"
        ));
    }
    // Arithmetic and comparison by sign: "274.9 + 270.1", "274.9/7", "274.9 > 188.2", "274.9 -
    // 188.2", "274.9:188.2".
    let next = after.trim_start_matches(' ');
    let before_number = |rest: &str| {
        rest.trim_start_matches(' ')
            .starts_with(|c: char| c.is_ascii_digit())
    };
    let sign_after = next.starts_with(ARITHMETIC_SIGNS)
        || (next.strip_prefix(['-', ':']).is_some_and(before_number));
    let sign_before = previous.ends_with(ARITHMETIC_SIGNS);
    let arithmetic_word = (words_after(after, 1).into_iter().chain(word_before(before)))
        .find(|w| ARITHMETIC_WORDS.contains(&w.as_str()));
    if sign_after || sign_before || arithmetic_word.is_some() {
        let how = arithmetic_word.unwrap_or_else(|| "a sign of arithmetic".into());
        return Some(format!(
            "the text writes {how} beside {what}: a model states claims, never arithmetic of them (claim {id})"
        ));
    }
    // Units and magnitudes, on either side.
    for word in words_after(after, 3).into_iter().chain(word_before(before)) {
        let family = UNIT_FAMILIES
            .iter()
            .find(|f| f.words.contains(&word.as_str()));
        if let Some(family) = family
            && !rows.unit.as_deref().is_some_and(family.fits)
        {
            let unit = rows.unit.as_deref().unwrap_or("none: it is no amount");
            return Some(format!(
                "the text writes \"{word}\" beside {what}, which is not the unit of claim {id} ({unit})"
            ));
        }
    }
    // Regions, by name or code in any case: after the number, to the end of its clause or the
    // next number, only the claim's own.
    if counts(claim) {
        return None;
    }
    let clause_end = (after.char_indices())
        .find(|&(at, c)| {
            ends_clause(after, at, c)
                || (c.is_ascii_digit()
                    && !after[..at].ends_with(|p: char| p.is_ascii_alphanumeric()))
        })
        .map_or(after.len(), |(at, _)| at);
    // Names in any case; codes as written (in capitals: "IT" is Italy, "it" a word).
    let clause = &after[..clause_end];
    let lower = clause.to_lowercase();
    for (code, called) in names {
        if rows.regions.contains(code) {
            continue;
        }
        let called_lower: Vec<String> = called.iter().map(|n| n.to_lowercase()).collect();
        let called_lower: Vec<&str> = called_lower.iter().map(String::as_str).collect();
        let by_name = (super::labels::label_spans(&lower, &called_lower)
            .into_iter()
            .next())
        .map(|(_, i)| called[i].as_str());
        let by_code = (!super::labels::label_spans(clause, &[code.as_str()]).is_empty())
            .then_some(code.as_str());
        if let Some(name) = by_name.or(by_code) {
            return Some(format!(
                "the text names {name} after {what}, which claim {id} does not compare with"
            ));
        }
    }
    None
}
