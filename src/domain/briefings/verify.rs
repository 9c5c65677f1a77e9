//! The verifier: before a briefing is stored or shown, it re-reads the text, finds every number
//! in it (on characters: a digit after a non-breaking space, a currency sign or a dash counts),
//! matches each to a claim written exactly so, and checks every claim against the rows it cites,
//! with the rounding it shows and the flags of its window. A text that fails is never stored or
//! shown.

use std::collections::BTreeSet;
use std::ops::Range;

use serde::{Deserialize, Serialize};

use super::claims::{Claim, Operation};
use super::{Break, Label, Section, numbers};
use crate::domain::{Error, decimals};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Verification {
    /// `verified`: every number in the text is a claim and every claim holds.
    pub status: String,
    /// Numbers found in the text (years of the cited periods not counted).
    pub numbers_checked: usize,
    pub claims_checked: usize,
}

/// A text that passed: its verification and the ids of the claims it states.
pub struct Checked {
    pub verification: Verification,
    pub used: BTreeSet<String>,
}

/// Who wrote the text under check.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Author {
    /// regintel's writer: it states every claim it made, and may quote any label.
    Writer,
    /// A model: it may leave claims out, and it is held to the letter: no digit outside a claim,
    /// a period or a quoted name of the catalogue (labels of an account's own datasets count
    /// like any other text), no number or rank words, no look-alike digits, non-ASCII spaces or
    /// dashes, or invisible characters.
    Model,
}

/// A cited row as the verifier reads it.
pub struct CitedRow {
    pub period: String,
    pub region: String,
    pub value: Option<f64>,
    /// The value as published (its decimals are the rounding a claim must show).
    pub value_text: String,
    /// Its unit: an index's (`I15`) names the base year the text may write as a period.
    pub unit: String,
    pub flags: String,
    pub conf_status: String,
}

impl CitedRow {
    /// Its flags as claims carry them: the letters, and `c` for a confidential status.
    fn flag_codes(&self) -> BTreeSet<char> {
        let mut codes: BTreeSet<char> = self.flags.chars().collect();
        if self.conf_status.eq_ignore_ascii_case("c") {
            codes.insert('c');
        }
        codes
    }
}

/// Words that state a number without digits; a model's text may not use them (nor the
/// ordinals of [`numbers::ORDINAL_WORDS`], nor any of these or those before "fold").
const NUMBER_WORDS: &[&str] = &[
    "zero",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
    "hundred",
    "hundreds",
    "hundredth",
    "thousand",
    "thousands",
    "thousandth",
    "million",
    "millions",
    "millionth",
    "billion",
    "billions",
    "trillion",
    "trillions",
    "thirtieth",
    "fortieth",
    "fiftieth",
    "sixtieth",
    "seventieth",
    "eightieth",
    "ninetieth",
    "twice",
    "thrice",
    "double",
    "doubled",
    "triple",
    "tripled",
    "quadruple",
    "quadrupled",
    "halved",
    "dozen",
    "dozens",
    "percent",
    "half",
    "quarter",
];

/// Words that rank without a rank claim's phrase; a model's text may not use them, nor a
/// superlative (a word ending in "est" but those of [`NOT_SUPERLATIVES`]).
const RANK_WORDS: &[&str] = &[
    "top",
    "bottom",
    "last",
    "best",
    "worst",
    "most",
    "least",
    "penultimate",
    "runner",
    "foremost",
];

/// Words ending in "est" that rank nothing.
const NOT_SUPERLATIVES: &[&str] = &[
    "latest",
    "interest",
    "interests",
    "west",
    "rest",
    "forest",
    "honest",
    "modest",
    "request",
    "suggest",
    "suggests",
    "invest",
    "invests",
    "harvest",
    "test",
    "tests",
    "digest",
    "manifest",
];

/// Words after a number that compare it: a model may write one there only as a claim's `reads`.
const COMPARING: &[&str] = &[
    "more",
    "less",
    "fewer",
    "above",
    "below",
    "higher",
    "lower",
    "greater",
    "larger",
    "smaller",
    "times",
    "up",
    "down",
    "over",
    "under",
    "ahead",
    "behind",
    "increase",
    "increased",
    "decrease",
    "decreased",
    "rise",
    "rose",
    "fall",
    "fell",
    "grew",
    "growth",
    "gain",
    "drop",
    "dropped",
];

/// Words that make a number a percentage: a model may write one after a number only as its
/// claim's `reads`.
const PERCENT_WORDS: &[&str] = &["cent", "pct", "pp", "percentage", "points"];

/// Verbs of change: before a number, they say it is a change, which only a claim reading a
/// direction states.
const CHANGING: &[&str] = &[
    "by",
    "rose",
    "risen",
    "fell",
    "fallen",
    "declined",
    "climbed",
    "jumped",
    "slipped",
    "lost",
    "gained",
    "shrank",
    "expanded",
    "grown",
    "dropped",
    "increased",
    "decreased",
];

/// Words a model may write after a period standing as a date; before any other, the period is a
/// number like any other (a model writing "in 2015 regions" states a number of regions).
const AFTER_PERIOD: &[&str] = &[
    "and", "or", "to", "on", "the", "it", "its", "when", "where", "which", "with", "while", "but",
    "in", "of", "for", "from", "until", "since", "than", "was", "were", "is", "are", "has", "had",
    "have", "as", "by", "at", "so", "because", "after", "before", "compared", "against", "there",
    "this", "that", "then", "a", "an",
];

/// Words before a period that make a four-digit number a year ("in 2022", "since 2015").
const BEFORE_PERIOD: &[&str] = &[
    "in", "since", "from", "to", "until", "between", "and", "for",
];

/// Words after a number that make it an amount, never a year: a period before one of them (or
/// before `%`) is a number like any other.
const UNIT_WORDS: &[&str] = &[
    "percent",
    "percentage",
    "pp",
    "points",
    "per",
    "years",
    "year",
    "euro",
    "euros",
    "eur",
    "pps",
    "persons",
    "people",
    "inhabitants",
    "km",
    "times",
    "million",
    "thousand",
    "billion",
    "index",
];

/// Checks `sections` against `claims`, reading each cited row through `rows` (None: no such
/// row). Names and titles in `labels` (such as "Physicians per 100 000 inhabitants") are not
/// numbers, except, for a model, those of an account's own datasets; periods of the cited rows
/// (and the base year of a cited index) are not numbers where they stand as dates: after one of
/// [`BEFORE_PERIOD`], and not before `%` or a unit. Every other number must be written exactly as
/// a claim's `display`, followed by its `reads` where it has one, whose direction word must
/// agree with its inputs; a rank phrase ("second-highest") must be a rank claim's display.
/// `breaks` are the breaks in series the text names: each must be a row flagged `b`. The inner
/// error says what failed.
pub fn verify(
    rows: &mut dyn FnMut(&str) -> Result<Option<CitedRow>, Error>,
    sections: &[Section],
    claims: &[Claim],
    labels: &[Label],
    breaks: &[Break],
    author: Author,
) -> Result<Result<Checked, String>, Error> {
    let mut cited = Cited::default();
    for claim in claims {
        // A claim that names another for its inputs is checked on that one's.
        let inputs_of = match &claim.inputs_of {
            None => None,
            Some(of) => match claims.iter().find(|c| c.id == *of && c.inputs_of.is_none()) {
                Some(other) => Some(other),
                None => {
                    return Ok(Err(format!(
                        "claim {} names {}, which is no claim with inputs",
                        claim.id,
                        crate::error::shown(of)
                    )));
                }
            },
        };
        if let Err(why) = check_claim(rows, claim, inputs_of, &mut cited)? {
            return Ok(Err(format!(
                "claim {} ({}): {why}",
                claim.id, claim.display
            )));
        }
    }
    for b in breaks {
        match rows(&b.citation)? {
            Some(row) if row.flags.contains('b') => cited.note(row),
            _ => {
                return Ok(Err(format!(
                    "{} is named as a break in series but is no row flagged b",
                    b.citation
                )));
            }
        }
    }
    // Names and titles that excuse the digits in them: for a model, not an account's own.
    let names_of = |private: bool| -> Vec<&str> {
        (labels.iter())
            .filter(|l| l.private == private && !l.text.is_empty())
            .map(|l| l.text.as_str())
            .collect()
    };
    let (public, private) = (names_of(false), names_of(true));
    let excusing: Vec<&str> = match author {
        Author::Writer => public.iter().chain(&private).copied().collect(),
        Author::Model => public.clone(),
    };
    let mut used = BTreeSet::new();
    let mut numbers_checked = 0;
    for section in sections {
        for part in [&section.heading, &section.text] {
            // A number or rank phrase that is a claim is one, wherever it stands; one that is
            // not may still be part of a name or title.
            let names: Vec<Range<usize>> = (label_spans(part, &excusing).into_iter())
                .map(|(span, _)| span)
                .collect();
            // For a model, an account's titles: their words are the account's, their digits
            // still numbers.
            let quoted: Vec<Range<usize>> = match author {
                Author::Writer => Vec::new(),
                Author::Model => (label_spans(part, &private).into_iter())
                    .map(|(span, _)| span)
                    .collect(),
            };
            let inside = |spans: &[Range<usize>], range: &Range<usize>| {
                (spans.iter()).any(|n| n.start <= range.start && range.end <= n.end)
            };
            let in_a_name = |range: &Range<usize>| inside(&names, range);
            let mut text = without_periods(part, &cited.periods, author == Author::Model);
            for range in numbers::find_ranks(&text).into_iter().rev() {
                let phrase = text[range.clone()].to_ascii_lowercase();
                let rank = |c: &&Claim| {
                    c.display == phrase
                        && c.operation
                            .as_deref()
                            .and_then(Operation::parse)
                            .is_some_and(Operation::is_rank)
                };
                let unmatched = claims
                    .iter()
                    .filter(rank)
                    .find(|c| !used.contains(c.id.as_str()));
                // The writer states a rank once; a model stating one phrase twice would lend
                // one measure's rank to another.
                let again = || match author {
                    Author::Writer => claims.iter().find(rank),
                    Author::Model => None,
                };
                match unmatched.or_else(again) {
                    Some(claim) => {
                        numbers_checked += 1;
                        used.insert(claim.id.as_str());
                    }
                    None if in_a_name(&range) || inside(&quoted, &range) => {}
                    None => {
                        return Ok(Err(format!(
                            "the text states a rank (\"{phrase}\") that is no claim, or one already stated"
                        )));
                    }
                }
                text.replace_range(range.clone(), &" ".repeat(range.len()));
            }
            // A model's text without names and titles, an account's own too: what it writes
            // itself, held to the letter.
            let mut own_words = String::new();
            if author == Author::Model {
                own_words.clone_from(&text);
                for name in names.iter().chain(&quoted) {
                    own_words.replace_range(name.clone(), &" ".repeat(name.len()));
                }
                if let Err(why) = held_to_the_letter(&own_words, &cited.regions) {
                    return Ok(Err(why));
                }
            }
            // Where each number stated ends, and the claim it is.
            let mut stated: Vec<(usize, &Claim)> = Vec::new();
            for (at, number) in numbers::find(&text) {
                let span = at..at + number.len();
                // Two claims may read the same ("7 regions", "7.0 %"): each occurrence takes
                // one not matched yet, one the text reads as it must be read before one without
                // words to read.
                let reads_here = |c: &Claim| {
                    (c.reads.as_ref()).is_none_or(|reads| text[at..].starts_with(reads.as_str()))
                };
                let mut alike = claims.iter().filter(|c| c.display == number);
                let claim = (alike.clone().filter(|c| reads_here(c)))
                    .min_by_key(|c| (used.contains(c.id.as_str()), c.reads.is_none()));
                let Some(claim) = claim else {
                    if in_a_name(&span) {
                        continue;
                    }
                    return Ok(Err(match alike.next() {
                        Some(claim) => format!(
                            "claim {} must read \"{}\" where the text states it",
                            claim.id,
                            claim.reads.as_deref().unwrap_or_default()
                        ),
                        None => format!(
                            "the number {} in the text is not a claim",
                            crate::error::shown(number)
                        ),
                    }));
                };
                if author == Author::Model
                    && let Some(why) = compared_beyond(claim, &own_words, span.clone())
                {
                    return Ok(Err(why));
                }
                numbers_checked += 1;
                used.insert(claim.id.as_str());
                stated.push((span.end, claim));
            }
            if author == Author::Model {
                // A percentage only where a claim reads as one.
                for (at, _) in own_words.match_indices('%') {
                    let number_end = text[..at].trim_end_matches(' ').len();
                    let percentage = stated.iter().any(|(end, c)| {
                        *end == number_end
                            && (c.reads.as_ref())
                                .and_then(|r| r.strip_prefix(c.display.as_str()))
                                .is_some_and(|r| r.trim_start().starts_with('%'))
                    });
                    if !percentage {
                        return Ok(Err(
                            "the text writes % after no claim that reads as a percentage".into(),
                        ));
                    }
                }
            }
        }
    }
    let unused = claims.iter().find(|c| !used.contains(c.id.as_str()));
    if let (Author::Writer, Some(unused)) = (author, unused) {
        return Ok(Err(format!(
            "claim {} ({}) does not appear in the text",
            unused.id, unused.display
        )));
    }
    Ok(Ok(Checked {
        verification: Verification {
            status: "verified".into(),
            numbers_checked,
            claims_checked: used.len(),
        },
        used: used.into_iter().map(str::to_owned).collect(),
    }))
}

/// What the cited rows say about the text: the periods it may write as dates, and the regions.
#[derive(Default)]
struct Cited {
    periods: BTreeSet<String>,
    regions: BTreeSet<String>,
}

impl Cited {
    fn note(&mut self, row: CitedRow) {
        if let Some(base) = crate::domain::series::index_base(&row.unit) {
            self.periods.insert(base.to_string());
        }
        self.periods.insert(row.period);
        self.regions.insert(row.region);
    }
}

/// Where `labels` stand whole in `text`, each with the label's index: not inside a longer word or
/// number (a dataset titled "1" is not in "10" or "1.5"). Every such occurrence, overlapping ones
/// too ("5 Jobs" and "Jobs in Oberbayern" in "5 Jobs in Oberbayern"), in text order.
pub(super) fn label_spans(text: &str, labels: &[&str]) -> Vec<(Range<usize>, usize)> {
    let mut spans: Vec<(Range<usize>, usize)> = Vec::new();
    for (index, label) in labels.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
        let mut from = 0;
        while let Some(found) = text[from..].find(label) {
            let (at, end) = (from + found, from + found + label.len());
            let before = text[..at].chars().rev().take(2).collect::<Vec<_>>();
            let after = text[end..].chars().take(2).collect::<Vec<_>>();
            let joins = |near: &[char]| match near {
                [c, ..] if c.is_alphanumeric() => true,
                ['.' | ',', d, ..] => d.is_ascii_digit(),
                _ => false,
            };
            if !joins(&before) && !joins(&after) {
                spans.push((at..end, index));
            }
            from = at + text[at..].chars().next().map_or(1, char::len_utf8);
        }
    }
    spans.sort_by_key(|(span, index)| (span.start, *index));
    spans
}

/// `text` with each cited period blanked where it stands as a date: a whole word after one of
/// [`BEFORE_PERIOD`], not followed by `%` or one of [`UNIT_WORDS`], and in a model's text
/// (`strict`) followed by punctuation, a number or one of [`AFTER_PERIOD`]. Longer periods first:
/// 2024 is not blanked out of 2024-01.
fn without_periods(text: &str, periods: &BTreeSet<String>, strict: bool) -> String {
    let mut out = text.to_owned();
    let mut periods: Vec<&String> = periods.iter().collect();
    periods.sort_by_key(|p| std::cmp::Reverse(p.len()));
    for period in periods {
        let mut from = 0;
        while let Some(found) = out[from..].find(period.as_str()) {
            let at = from + found;
            let end = at + period.len();
            let before = out[..at].trim_end_matches(['(', ' ']);
            let word_before = before
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("");
            let after = out[end..].trim_start_matches(' ');
            let word_after: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric())
                .collect::<String>()
                .to_lowercase();
            let amount =
                after.starts_with(['%', '\u{2030}']) || UNIT_WORDS.contains(&word_after.as_str());
            let joined = |rest: &str, joiners: &[char]| {
                rest.starts_with(joiners) && rest[1..].starts_with(|c: char| c.is_alphanumeric())
            };
            let whole = out[..at].ends_with([' ', '('])
                && !out[end..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                && !joined(&out[end..], &['.', ',', '-']);
            let date = BEFORE_PERIOD.contains(&word_before.to_lowercase().as_str());
            let fits = !strict
                || !after.starts_with(char::is_alphabetic)
                || AFTER_PERIOD.contains(&word_after.as_str());
            if whole && !amount && date && fits {
                out.replace_range(at..end, &" ".repeat(period.len()));
            }
            from = end;
        }
    }
    out
}

/// Typographic quotes, the only characters beyond ASCII a model may write outside names.
fn typographic_quote(c: char) -> bool {
    matches!(c, '\u{2018}' | '\u{2019}' | '\u{201C}' | '\u{201D}')
}

/// Whether `lower` (a lower-case word) states a number or a rank without digits.
fn number_or_rank_word(lower: &str) -> Option<&'static str> {
    let numeric = |w: &str| NUMBER_WORDS.contains(&w) || numbers::ORDINAL_WORDS.contains(&w);
    if numeric(lower) || lower.strip_suffix("fold").is_some_and(numeric) {
        return Some("the number word");
    }
    let superlative =
        lower.len() > 4 && lower.ends_with("est") && !NOT_SUPERLATIVES.contains(&lower);
    if RANK_WORDS.contains(&lower) || superlative {
        return Some("the rank word");
    }
    None
}

/// A model's text, its names blanked, may write only ASCII (and typographic quotes) without
/// control characters, and digits only as numbers (a claim, a period, a region code): never
/// inside other words, nor as number, ordinal, rank or superlative words. A letter beyond ASCII
/// may be a digit's look-alike (Cyrillic З for 3), a space beyond ASCII may hide where a number
/// ends.
fn held_to_the_letter(text: &str, regions: &BTreeSet<String>) -> Result<(), String> {
    let unwritable = |c: &char| {
        (!c.is_ascii() && !typographic_quote(*c))
            || (c.is_ascii_control() && !matches!(c, '\n' | '\t'))
    };
    if let Some(c) = text.chars().find(unwritable) {
        return Err(format!(
            "the text writes U+{:04X}; outside names a model writes ASCII",
            c as u32
        ));
    }
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        let lower = word.to_lowercase();
        if let Some(what) = number_or_rank_word(&lower) {
            return Err(format!(
                "the text writes {what} \"{}\", which is no claim",
                crate::error::shown(word)
            ));
        }
        let digits_in_word =
            word.chars().any(|c| c.is_ascii_digit()) && !word.chars().all(|c| c.is_ascii_digit());
        if digits_in_word && !regions.contains(word) {
            return Err(format!(
                "the text writes \"{}\", a number inside a word",
                crate::error::shown(word)
            ));
        }
    }
    Ok(())
}

/// The words of a clause next to a number: up to the nearest punctuation or number, three at
/// most, lower-cased.
fn clause_words(text: &str, after: bool) -> Vec<String> {
    let ends =
        |c: char| matches!(c, '.' | ',' | ';' | ':' | '(' | ')' | '!' | '?') || c.is_ascii_digit();
    let clause = match after {
        true => text.split(ends).next(),
        false => text.rsplit(ends).next(),
    };
    let words: Vec<String> = (clause.unwrap_or("").split(|c: char| !c.is_alphanumeric()))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    match after {
        true => words.into_iter().take(3).collect(),
        false => words.into_iter().rev().take(3).collect(),
    }
}

/// Why a model's number at `span` of `text` (its names blanked) says more than its claim: a
/// comparing or percentage word right after what the claim reads ("9.7 times lower", "5.7 %
/// higher", "2.1 per cent"), or, for a claim that reads no direction, a comparing word or verb of
/// change right before it ("fell by 2.1", "4,633,323 more").
fn compared_beyond(claim: &Claim, text: &str, span: Range<usize>) -> Option<String> {
    let read = claim.reads.as_ref().map_or(span.len(), String::len);
    let after = clause_words(&text[(span.start + read).min(text.len())..], true);
    let beyond = |words: &[String], list: &[&str]| {
        words.iter().find(|w| list.contains(&w.as_str())).cloned()
    };
    if let Some(word) = beyond(&after, COMPARING).or_else(|| beyond(&after, PERCENT_WORDS)) {
        return Some(format!(
            "the text writes \"{word}\" after {}, which claim {} does not read",
            claim.display, claim.id
        ));
    }
    let direction = claim.reads.as_ref().and_then(|r| r.rsplit(' ').next());
    let directed = direction.is_some_and(|d| matches!(d, "more" | "less" | "above" | "below"));
    let before = clause_words(&text[..span.start], false);
    match beyond(&before, COMPARING).or_else(|| beyond(&before, CHANGING)) {
        Some(word) if !directed => Some(format!(
            "the text writes \"{word}\" before {}, which claim {} reads as no change",
            claim.display, claim.id
        )),
        _ => None,
    }
}

/// One claim against its rows: a direct one is the row's value shown with the row's decimals; a
/// derived one is its operation on the rows' values, and the direction word it reads (more,
/// above; less, below) must be the way its second input lies from its first (an index's, from
/// 100). Every flag of its rows must be among its flags, and every flag it carries must be its
/// row's. The rows' periods and regions are collected.
fn check_claim(
    rows: &mut dyn FnMut(&str) -> Result<Option<CitedRow>, Error>,
    claim: &Claim,
    inputs_of: Option<&Claim>,
    cited: &mut Cited,
) -> Result<Result<(), String>, Error> {
    // The inputs, and the flags that go with them, of the claim it names, if it names one.
    let (inputs, flagged) = match inputs_of {
        Some(other) => (&other.inputs, other),
        None => (&claim.inputs, claim),
    };
    let carried: BTreeSet<(&str, char)> = flagged
        .flags
        .iter()
        .filter_map(|f| Some((f.citation.as_str(), f.code.chars().next()?)))
        .collect();
    let mut read = |citation: &str,
                    cited: &mut Cited|
     -> Result<Result<Option<(f64, String)>, String>, Error> {
        let Some(row) = rows(citation)? else {
            return Ok(Ok(None));
        };
        if let Some(code) = row
            .flag_codes()
            .into_iter()
            .find(|code| !carried.contains(&(citation, *code)))
        {
            return Ok(Err(format!("it does not carry flag {code} of {citation}")));
        }
        let value = row.value.map(|v| (v, row.value_text.clone()));
        cited.note(row);
        Ok(Ok(value))
    };
    let (value, shown, operation) = match claim.kind.as_str() {
        "direct" => {
            let [citation] = claim.citations.as_slice() else {
                return Ok(Err("a direct claim cites exactly one row".into()));
            };
            let Some((value, text)) = (match read(citation, cited)? {
                Ok(v) => v,
                Err(why) => return Ok(Err(why)),
            }) else {
                return Ok(Err(format!("{citation} is no row with a value")));
            };
            (value, decimals(&text), None)
        }
        "derived" => {
            let Some(operation) = claim.operation.as_deref().and_then(Operation::parse) else {
                return Ok(Err("unknown operation".into()));
            };
            let mut values = Vec::with_capacity(inputs.len());
            let mut places = 0;
            for input in inputs {
                let Some((value, text)) = (match read(&input.citation, cited)? {
                    Ok(v) => v,
                    Err(why) => return Ok(Err(why)),
                }) else {
                    return Ok(Err(format!("{} is no row with a value", input.citation)));
                };
                if value != input.value {
                    return Ok(Err(format!(
                        "input {} is {value}, not {}",
                        input.citation, input.value
                    )));
                }
                places = places.max(decimals(&text));
                values.push(value);
            }
            match operation.compute(&values, places) {
                Some((value, shown)) => (value, shown, Some(operation)),
                None => return Ok(Err("the operation is undefined on its inputs".into())),
            }
        }
        other => return Ok(Err(format!("unknown kind {}", crate::error::shown(other)))),
    };
    // The flags it carries beyond its own rows' (the values between them) are theirs.
    let own_rows: BTreeSet<&str> = (claim.citations.iter().map(String::as_str))
        .chain(inputs.iter().map(|i| i.citation.as_str()))
        .collect();
    for flag in &claim.flags {
        if own_rows.contains(flag.citation.as_str()) {
            continue;
        }
        let holds = match rows(&flag.citation)? {
            Some(row) => {
                let holds = flag
                    .code
                    .chars()
                    .next()
                    .is_some_and(|c| row.flag_codes().contains(&c));
                cited.note(row);
                holds
            }
            None => false,
        };
        if !holds {
            return Ok(Err(format!(
                "{} carries no flag {}",
                flag.citation, flag.code
            )));
        }
    }
    if value != claim.value {
        return Ok(Err(format!("the rows give {value}, not {}", claim.value)));
    }
    let display = match operation {
        Some(op) => op.display(value, shown),
        None => numbers::display(value, shown),
    };
    if display != claim.display {
        return Ok(Err(format!("the rows give {display} as shown")));
    }
    if let Some(reads) = &claim.reads {
        if !reads.starts_with(&claim.display) {
            return Ok(Err("it must read as its display first".into()));
        }
        let direction = reads.rsplit(' ').next().unwrap_or("");
        let up = match direction {
            "more" | "above" => Some(true),
            "less" | "below" => Some(false),
            _ => None,
        };
        let goes_up = match inputs.as_slice() {
            [a, b] => Some(b.value > a.value),
            [a] if operation == Some(Operation::IndexChange) => Some(a.value > 100.0),
            _ => None,
        };
        if let (Some(up), Some(goes_up)) = (up, goes_up)
            && up != goes_up
        {
            return Ok(Err(format!("its inputs do not go \"{direction}\"")));
        }
    }
    Ok(Ok(()))
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::super::claims::{ClaimBook, Operation};
    use super::*;
    use crate::catalogue::Catalogue;
    use crate::store::observations::ObsRow;

    fn row(citation: &str, period: &str, value: f64, text: &str) -> ObsRow {
        ObsRow {
            citation_id: crate::citation::CitationId::new(citation).unwrap(),
            series_id: 1,
            period: period.into(),
            value: Some(value),
            value_text: text.into(),
            flags: Default::default(),
            conf_status: Default::default(),
            snapshot_id: 1,
        }
    }

    /// Population at two periods, the claims a writer makes of them, and the text it writes.
    fn written_at(then_period: &str, now_period: &str) -> (Vec<ObsRow>, Vec<Claim>, String) {
        let rows = vec![
            row("cit_a", then_period, 4_633_323.0, "4633323"),
            row("cit_b", now_period, 4_729_243.0, "4729243"),
        ];
        let catalogue = Catalogue::bundled();
        let mut book = ClaimBook::new(&catalogue);
        let now = book.direct(&rows[1]).unwrap();
        let then = book.direct(&rows[0]).unwrap();
        let change = book
            .derived_reading(
                Operation::PercentChange,
                &[&rows[0], &rows[1]],
                &[],
                "% more",
            )
            .unwrap();
        let text = format!(
            "Population in DE21 Oberbayern: {now} in {now_period}. That is {change} than in {then_period} ({then})."
        );
        (rows, book.claims, text)
    }

    fn written() -> (Vec<ObsRow>, Vec<Claim>, String) {
        written_at("2017", "2022")
    }

    fn check(rows: &[ObsRow], claims: &[Claim], text: &str) -> Result<Verification, String> {
        check_by(rows, claims, text, Author::Writer)
    }

    fn check_by(
        rows: &[ObsRow],
        claims: &[Claim],
        text: &str,
        author: Author,
    ) -> Result<Verification, String> {
        check_all(rows, claims, text, author, &[], &[])
    }

    /// The verifier on `text`, the rows of `rows` (in unit `I15` when their citation says
    /// `index`), the label "Physicians per 100 000 inhabitants" from the catalogue and
    /// `private` labels of an account's dataset.
    fn check_all(
        rows: &[ObsRow],
        claims: &[Claim],
        text: &str,
        author: Author,
        private: &[&str],
        breaks: &[Break],
    ) -> Result<Verification, String> {
        let by_id: HashMap<&str, &ObsRow> =
            rows.iter().map(|r| (r.citation_id.as_str(), r)).collect();
        let mut lookup = |id: &str| {
            Ok(by_id.get(id).map(|r| CitedRow {
                period: r.period.to_string(),
                region: "DE21".into(),
                value: r.value,
                value_text: r.value_text.to_string(),
                unit: if id.contains("index") { "I15" } else { "NR" }.into(),
                flags: r.flags.to_string(),
                conf_status: r.conf_status.to_string(),
            }))
        };
        let sections = [Section {
            heading: "Physicians per 100 000 inhabitants".into(),
            text: text.into(),
        }];
        let mut labels = vec![
            Label {
                text: "Physicians per 100 000 inhabitants".to_owned(),
                private: false,
            },
            Label {
                text: String::new(),
                private: false,
            },
        ];
        labels.extend(private.iter().map(|p| Label {
            text: (*p).to_owned(),
            private: true,
        }));
        verify(&mut lookup, &sections, claims, &labels, breaks, author)
            .unwrap()
            .map(|c| c.verification)
    }

    #[test]
    fn a_faithful_text_is_verified() {
        let (rows, claims, text) = written();
        assert!(
            text.contains("4,729,243") && text.contains("2.1 % more"),
            "{text}"
        );
        let v = check(&rows, &claims, &text).unwrap();
        assert_eq!((v.numbers_checked, v.claims_checked), (3, 3));
        assert!(check_by(&rows, &claims, &text, Author::Model).is_ok());
    }

    #[test]
    fn periods_of_any_format_are_years_in_a_date_position() {
        for (then, now) in [
            ("2017-Q1", "2022-Q1"),
            ("2017-07", "2022-07"),
            ("2017-S1", "2022-S1"),
            // A year that begins a month cited too is not blanked out of it.
            ("2022", "2022-07"),
        ] {
            let (rows, claims, text) = written_at(then, now);
            assert!(check(&rows, &claims, &text).is_ok(), "{text}");
        }
        let (rows, claims, text) = written();
        for date in [
            "Since 2017 it grew.",
            "It has a figure for 2017.",
            "From 2017 to 2022.",
        ] {
            let dated = format!("{text} {date}");
            assert!(check(&rows, &claims, &dated).is_ok(), "{date}");
        }
        // A cited period used as a count, an amount or after "a" is a number like any other.
        for not_a_date in [
            "It lost 2017 jobs.",
            "It has a 2017 % margin.",
            "It has a 2017 figure.",
            "It grew in 2017 % terms.",
            "It is in 2017 percent.",
            "It spent in 2017 euro.",
        ] {
            let counted = format!("{text} {not_a_date}");
            assert!(check(&rows, &claims, &counted).is_err(), "{not_a_date}");
        }
    }

    #[test]
    fn an_invented_or_altered_number_is_refused() {
        let (rows, claims, text) = written();
        let invented = text.replace("than in", "than the 12 cities and than in");
        let why = check(&rows, &claims, &invented).unwrap_err();
        assert!(why.contains("12"), "{why}");
        // A rounded or re-formatted value is not the claim either.
        let rounded = text.replace("4,729,243", "4.7 million");
        assert!(check(&rows, &claims, &rounded).is_err());
        let ordinal = format!("{text} It ranks 3rd.");
        assert!(check(&rows, &claims, &ordinal).is_err());
        // A year that is no cited period is a number like any other.
        let year = format!("{text} Since 1990.");
        assert!(check(&rows, &claims, &year).is_err());
    }

    /// Numbers are found on characters: behind a non-breaking or narrow space, a currency sign,
    /// an en or em dash or a letter of another script, they are numbers, and must be claims,
    /// whoever wrote the text.
    #[test]
    fn numbers_behind_non_ascii_characters_are_numbers() {
        let (rows, claims, text) = written();
        for hidden in [
            "Oberbayern:\u{a0}45 (Percentage).",
            "It has\u{202f}12 towns.",
            "It gained €4521.",
            "It changed by –99.",
            "It changed by —99.",
            "Its rate is é5.",
        ] {
            let tricked = format!("{text} {hidden}");
            let why = check(&rows, &claims, &tricked).unwrap_err();
            assert!(why.contains("not a claim"), "{hidden}: {why}");
            assert!(check_by(&rows, &claims, &tricked, Author::Model).is_err());
        }
    }

    #[test]
    fn a_model_is_held_to_the_letter() {
        let (rows, claims, text) = written();
        for trick in [
            "It has EUR45,000 more.",
            "It grew by \u{2212}3.5.",
            "It has \u{200B}12 towns.",
            "It has \u{0661}\u{0662} towns.",
            "It has \u{FF11}\u{FF12} towns.",
            "It has x\u{B2} towns.",
            "Twelve towns grew.",
            "Its output doubled.",
            "It is the third region.",
            "It has the largest output.",
            // Spaces and dashes other than ASCII ones, even without a digit.
            "It grew\u{a0}fast.",
            "It grew \u{2013} fast.",
            "It grew\u{202f}fast.",
        ] {
            let tricked = format!("{text} {trick}");
            assert!(
                check_by(&rows, &claims, &tricked, Author::Model).is_err(),
                "{trick}"
            );
        }
        for (trick, refused_for) in [
            // A letter beyond ASCII may be a digit's look-alike (Cyrillic Ze for 3).
            ("It grew by \u{0417}.5 points.", "U+0417"),
            ("Thirteen towns grew.", "number word \"Thirteen\""),
            ("It has sixty towns.", "number word \"sixty\""),
            ("Its output grew tenfold.", "number word \"tenfold\""),
            ("It is the thirtieth region.", "number word \"thirtieth\""),
            ("It is at the top.", "rank word \"top\""),
            ("It is the richest region.", "rank word \"richest\""),
            ("It came last.", "rank word \"last\""),
            // A cited number compared or made a percentage where no claim reads so.
            ("It has 4,633,323 more people.", "\"more\" after 4,633,323"),
            (
                "Some 4,633,323 fewer lived there.",
                "\"fewer\" after 4,633,323",
            ),
            ("It fell by 4,633,323.", "\"fell\" before 4,633,323"),
            ("It changed by 4,633,323.", "\"by\" before 4,633,323"),
            ("It has 4,633,323 per cent.", "\"cent\" after 4,633,323"),
            ("It has 4,633,323 pp.", "\"pp\" after 4,633,323"),
            ("Its 2.1 % more is lower.", "\"lower\" after 2.1"),
            ("It has a 4,729,243 % share.", "% after no claim"),
            // A cited year as a count: "in" does not make it a date before any word.
            ("It grew in 2017 towns.", "the number 2017"),
        ] {
            let tricked = format!("{text} {trick}");
            let why = check_by(&rows, &claims, &tricked, Author::Model).unwrap_err();
            assert!(why.contains(refused_for), "{trick}: {why}");
        }
        // Flipping the direction of a change is refused, writer or model.
        let flipped = text.replace("% more", "% less");
        assert!(check_by(&rows, &claims, &flipped, Author::Model).is_err());
        // A model may leave claims out; those it states must still hold.
        let shorter = text.replace("4,729,243 in 2022", "a new high");
        assert!(check(&rows, &claims, &shorter).is_err());
        let v = check_by(&rows, &claims, &shorter, Author::Model).unwrap();
        assert_eq!(v.claims_checked, 2);
        // What a model may write: typographic quotes, a date before a word that follows one, a
        // claim's percentage as it reads.
        let plain = format!(
            "{shorter} In 2017 it had \u{201C}fewer\u{201D} people; it\u{2019}s grown since 2017 and its population is larger."
        );
        assert!(check_by(&rows, &claims, &plain, Author::Model).is_ok());
        // The writer's own phrasing keeps a date before any word.
        let dated = format!("{text} It grew in 2017 towns.");
        assert!(check(&rows, &claims, &dated).is_ok());
    }

    /// A name of the catalogue with a dash or digits may be quoted by anyone; one of an
    /// account's own datasets only by the writer: in a model's text, its digits are numbers.
    #[test]
    fn labels_of_an_accounts_datasets_are_no_exemption_for_a_model() {
        let (rows, claims, text) = written();
        let quoted = format!("{text} It is Jobs 2019 \u{2013} 45 in our own dataset.");
        let private = ["Jobs 2019 \u{2013} 45"];
        assert!(check_all(&rows, &claims, &quoted, Author::Writer, &private, &[]).is_ok());
        let why = check_all(&rows, &claims, &quoted, Author::Model, &private, &[]).unwrap_err();
        assert!(
            why.contains("U+2013") || why.contains("not a claim"),
            "{why}"
        );
    }

    /// A label is a name only where it stands whole: a dataset titled "1", "2.1" or "4,729"
    /// leaves the numbers it is part of to be checked as numbers.
    #[test]
    fn labels_are_blanked_only_where_they_stand_whole() {
        let (rows, claims, text) = written();
        for title in ["1", "2", "2.1", "4,729", "729,243", "Population in DE"] {
            let quoted = format!("{title}: {text}");
            let v = check_all(&rows, &claims, &quoted, Author::Writer, &[title], &[]);
            assert!(v.is_ok(), "{title}: {v:?}");
        }
        let spans = label_spans("A 1 in 10, 1.5, 0.1, x1 and (1).", &["1"]);
        assert_eq!(spans, [(2..3, 0), (29..30, 0)]);
        // Overlapping titles both stand: a number in either is in a name.
        let spans = label_spans(
            "5 Jobs in Oberbayern: 12",
            &["Jobs in Oberbayern", "5 Jobs"],
        );
        assert_eq!(spans, [(0..6, 1), (2..20, 0)]);
    }

    #[test]
    fn a_claim_that_does_not_hold_is_refused() {
        let (rows, mut claims, text) = written();
        // The claim says what the text says, but the row says otherwise.
        claims[0].value = 4_729_244.0;
        assert!(check(&rows, &claims, &text).unwrap_err().contains("c1"));
        let (rows, mut claims, text) = written();
        claims[2].inputs[0].value = 4_000_000.0;
        assert!(check(&rows, &claims, &text).is_err());
        let (_, claims, text) = written();
        assert!(
            check(&[], &claims, &text).is_err(),
            "rows that do not exist"
        );
        // A reading whose direction word contradicts the inputs.
        let (rows, mut claims, text) = written();
        claims[2].reads = Some("2.1 % less".into());
        let text = text.replace("% more", "% less");
        assert!(check(&rows, &claims, &text).unwrap_err().contains("less"));
    }

    /// A claim carries the flags of its rows and of the values between them, and only flags
    /// those rows have.
    #[test]
    fn a_claims_flags_are_its_rows_flags() {
        let catalogue = Catalogue::bundled();
        let mut rows = vec![
            row("cit_a", "2017", 4.0, "4.0"),
            row("cit_m", "2019", 4.5, "4.5"),
            row("cit_b", "2022", 5.0, "5.0"),
        ];
        rows[1].flags = "p".into();
        rows[2].flags = "e".into();
        let mut book = ClaimBook::new(&catalogue);
        let change = book
            .derived_reading(
                Operation::PercentChange,
                &[&rows[0], &rows[2]],
                &[&rows[0], &rows[1], &rows[2]],
                "% more",
            )
            .unwrap();
        let claims = book.claims;
        let carried: Vec<(&str, &str)> = claims[0]
            .flags
            .iter()
            .map(|f| (f.citation.as_str(), f.code.as_str()))
            .collect();
        assert_eq!(carried, [("cit_b", "e"), ("cit_m", "p")]);
        let text = format!("That is {change} than in 2017.");
        assert!(check(&rows, &claims, &text).is_ok());
        let mut dropped = claims.clone();
        dropped[0].flags.retain(|f| f.citation != "cit_b");
        let why = check(&rows, &dropped, &text).unwrap_err();
        assert!(why.contains("flag e of cit_b"), "{why}");
        let mut invented = claims.clone();
        invented[0].flags[1].code = "b".into();
        let why = check(&rows, &invented, &text).unwrap_err();
        assert!(why.contains("cit_m carries no flag b"), "{why}");
    }

    /// Ranks are claims written as phrases: "second-highest" must be a rank claim's display,
    /// and no rank phrase may stand without one.
    #[test]
    fn rank_phrases_are_claims() {
        let catalogue = Catalogue::bundled();
        let rows = vec![
            row("cit_a", "2022", 2.7, "2.7"),
            row("cit_b", "2022", 2.8, "2.8"),
            row("cit_c", "2022", 2.0, "2.0"),
        ];
        let all: Vec<&ObsRow> = rows.iter().collect();
        let mut book = ClaimBook::new(&catalogue);
        let rank = book.derived(Operation::Rank, &all, &[]).unwrap();
        let count = book.count_of_last().unwrap();
        assert_eq!((rank.as_str(), count.as_str()), ("second-highest", "3"));
        let claims = book.claims;
        assert_eq!(claims[1].inputs_of.as_deref(), Some("c1"));
        assert!(
            claims[1].inputs.is_empty(),
            "the rank's inputs are not listed twice"
        );
        let text =
            format!("Of the {count} regions with a figure for 2022, it has the {rank} rate.");
        let v = check(&rows, &claims, &text).unwrap();
        assert_eq!(v.claims_checked, 2);
        assert!(check_by(&rows, &claims, &text, Author::Model).is_ok());
        for wrong in ["highest", "third-highest", "second-lowest", "2nd-highest"] {
            let text = text.replace("second-highest", wrong);
            let why = check_by(&rows, &claims, &text, Author::Model).unwrap_err();
            assert!(
                why.contains("rank") || why.contains("not a claim"),
                "{wrong}: {why}"
            );
        }
        // One rank claim lends its phrase once: a model may not give a second measure the
        // same rank.
        let twice = format!("{text} It also has the second-highest age.");
        assert!(check(&rows, &claims, &twice).is_ok());
        let why = check_by(&rows, &claims, &twice, Author::Model).unwrap_err();
        assert!(why.contains("one already stated"), "{why}");
        let extra = format!("{text} It also has the lowest age.");
        assert!(
            check(&rows, &claims, &extra)
                .unwrap_err()
                .contains("lowest")
        );
        // A count that names no claim with inputs is refused.
        let mut dangling = claims.clone();
        dangling[1].inputs_of = Some("c9".into());
        let why = check(&rows, &dangling, &text).unwrap_err();
        assert!(why.contains("names c9"), "{why}");
        let mut miscounted = claims.clone();
        miscounted[1].value = 4.0;
        assert!(check(&rows, &miscounted, &text).is_err());
    }

    /// An index's base year is a period the text may write as a date; a break the text names
    /// must be a row flagged b, and its period is one too.
    #[test]
    fn base_years_and_breaks_are_periods() {
        let catalogue = Catalogue::bundled();
        let mut rows = vec![
            row("cit_index", "2023", 107.9, "107.9"),
            row("cit_break", "2020", 99.0, "99.0"),
        ];
        rows[1].flags = "b".into();
        let mut book = ClaimBook::new(&catalogue);
        let growth = book
            .derived_reading(Operation::IndexChange, &[&rows[0]], &[], "% more")
            .unwrap();
        assert_eq!(growth, "7.9 % more");
        let claims = book.claims;
        let text = format!("It is {growth} than in 2015. The series breaks in 2020.");
        let named = [Break {
            dataset: "x".into(),
            period: "2020".into(),
            citation: "cit_break".into(),
        }];
        let v = check_all(&rows, &claims, &text, Author::Writer, &[], &named).unwrap();
        assert_eq!(v.claims_checked, 1);
        // Without the break's row, 2020 is a number like any other.
        assert!(check_all(&rows, &claims, &text, Author::Writer, &[], &[]).is_err());
        // A break named on a row not flagged b is refused.
        rows[1].flags = "p".into();
        let why = check_all(&rows, &claims, &text, Author::Writer, &[], &named).unwrap_err();
        assert!(why.contains("no row flagged b"), "{why}");
    }
}
