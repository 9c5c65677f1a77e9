//! The verifier: before a briefing is stored or shown, it re-reads the text, finds every number
//! in it (on characters: a digit after a non-breaking space, a currency sign or a dash counts),
//! matches each to a claim written exactly so, and checks every claim against the rows it cites,
//! with the rounding it shows and the flags of its window. A text that fails is never stored or
//! shown.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;
use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::claims::{Claim, Operation};
use super::draft::{Break, Label, Section};
use super::numbers;
use crate::domain::{Error, decimals};
use beside::ClaimRows;
pub use cited_row::CitedRow;
pub(super) use labels::label_spans;
use words::{
    AFTER_PERIOD, BEFORE_PERIOD, CHANGING, COMPARING, NOT_SUPERLATIVES, NUMBER_WORDS,
    PERCENT_WORDS, RANK_WORDS, ROMAN_COUNTRY_CODES, UNIT_WORDS,
};

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

/// How the verifier reads a cited row (None: no such row), each once.
type ReadRow<'a> = dyn FnMut(&str) -> Result<Option<Rc<CitedRow>>, Error> + 'a;

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
    read_row: &mut dyn FnMut(&str) -> Result<Option<CitedRow>, Error>,
    sections: &[Section],
    claims: &[Claim],
    labels: &[Label],
    breaks: &[Break],
    author: Author,
) -> Result<Result<Checked, String>, Error> {
    // Each row once: a rank claim's inputs are every peer's row, and several claims share them.
    let mut read: HashMap<String, Option<Rc<CitedRow>>> = HashMap::new();
    let rows = &mut |citation: &str| -> Result<Option<Rc<CitedRow>>, Error> {
        if let Some(row) = read.get(citation) {
            return Ok(row.clone());
        }
        let row = read_row(citation)?.map(Rc::new);
        read.insert(citation.to_owned(), row.clone());
        Ok(row)
    };
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
                        crate::error_text::shown(of)
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
            Some(row) if row.flags.contains('b') => cited.note(&row),
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
                            crate::error_text::shown(number)
                        ),
                    }));
                };
                if author == Author::Model {
                    let unread = ClaimRows::default();
                    let rows = cited.claims.get(&claim.id).unwrap_or(&unread);
                    let why = compared_beyond(claim, &own_words, span.clone())
                        .or_else(|| beside::beside(claim, rows, &text, span.clone(), &cited.names));
                    if let Some(why) = why {
                        return Ok(Err(why));
                    }
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

/// What the cited rows say about the text: the periods it may write as dates, the regions (by
/// code, with the names the text may call each by), and what each claim's rows are.
#[derive(Default)]
struct Cited {
    periods: BTreeSet<String>,
    regions: BTreeSet<String>,
    names: std::collections::BTreeMap<String, Vec<String>>,
    claims: std::collections::HashMap<String, ClaimRows>,
}

impl Cited {
    fn note(&mut self, row: &CitedRow) {
        if let Some(base) = crate::domain::series::index_base(&row.unit) {
            self.periods.insert(base.to_string());
        }
        if !self.periods.contains(&row.period) {
            self.periods.insert(row.period.clone());
        }
        if self.regions.contains(&row.region) {
            return;
        }
        self.regions.insert(row.region.clone());
        if !row.region_name.is_empty() {
            let mut called = vec![row.region_name.clone()];
            // The writer calls the Union's aggregates "the EU".
            if row.region_name.starts_with("European Union") {
                called.extend(["EU".to_owned(), "European Union".to_owned()]);
            }
            self.names.insert(row.region.clone(), called);
        }
    }
}

/// `text` with each cited period blanked where it stands as a date: a whole word after one of
/// [`BEFORE_PERIOD`], or after a comma that follows such a date (a list: "in 2019, 2021 and
/// 2024"), not followed by `%` or one of [`UNIT_WORDS`], and in a model's text (`strict`)
/// followed by punctuation, a number or one of [`AFTER_PERIOD`]. Longer periods first: 2024 is
/// not blanked out of 2024-01.
fn without_periods(text: &str, periods: &BTreeSet<String>, strict: bool) -> String {
    let mut periods: Vec<&String> = periods.iter().collect();
    periods.sort_by_key(|p| std::cmp::Reverse(p.len()));
    // Every occurrence, a longer period's first (its bytes taken, a shorter one inside it is
    // none), then read once in text order: a list's items each follow the one before.
    let mut taken = vec![false; text.len()];
    let mut found: Vec<Range<usize>> = Vec::new();
    for period in periods {
        for (at, _) in text.match_indices(period.as_str()) {
            let span = at..at + period.len();
            if !taken[span.clone()].contains(&true) {
                taken[span.clone()].fill(true);
                found.push(span);
            }
        }
    }
    found.sort_by_key(|span| span.start);
    let mut out = text.to_owned();
    let mut last_date_end = None;
    for span in found {
        if is_date(&out, span.clone(), last_date_end, strict) {
            out.replace_range(span.clone(), &" ".repeat(span.len()));
            last_date_end = Some(span.end);
        }
    }
    out
}

/// Whether the period at `span` of `out` stands as a date (see [`without_periods`]);
/// `last_date_end` is where the last date before it ends.
fn is_date(out: &str, span: Range<usize>, last_date_end: Option<usize>, strict: bool) -> bool {
    let (at, end) = (span.start, span.end);
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
    let amount = after.starts_with(['%', '\u{2030}']) || UNIT_WORDS.contains(&word_after.as_str());
    let joined = |rest: &str, joiners: &[char]| {
        rest.starts_with(joiners) && rest[1..].starts_with(|c: char| c.is_alphanumeric())
    };
    let whole = out[..at].ends_with([' ', '('])
        && !out[end..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
        && !joined(&out[end..], &['.', ',', '-']);
    let listed = (out[..at].trim_end_matches(' ').strip_suffix(','))
        .is_some_and(|rest| Some(rest.len()) == last_date_end);
    let date = BEFORE_PERIOD.contains(&word_before.to_lowercase().as_str()) || listed;
    let fits = !strict
        || !after.starts_with(char::is_alphabetic)
        || AFTER_PERIOD.contains(&word_after.as_str());
    whole && !amount && date && fits
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
                crate::error_text::shown(word)
            ));
        }
        if roman_numeral(word) && !regions.contains(word) && !ROMAN_COUNTRY_CODES.contains(&word) {
            return Err(format!(
                "the text writes \"{}\", a Roman numeral, which is no claim",
                crate::error_text::shown(word)
            ));
        }
        let digits_in_word =
            word.chars().any(|c| c.is_ascii_digit()) && !word.chars().all(|c| c.is_ascii_digit());
        if digits_in_word && !regions.contains(word) {
            return Err(format!(
                "the text writes \"{}\", a number inside a word",
                crate::error_text::shown(word)
            ));
        }
    }
    Ok(())
}

/// Whether `word` is a Roman numeral of two letters or more, in capitals (`XII`, `MMXXIV`, `LI`):
/// written exactly as the numeral it reads as is written.
fn roman_numeral(word: &str) -> bool {
    const VALUES: [(u32, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    if word.len() < 2 || !word.bytes().all(|b| b"IVXLCDM".contains(&b)) {
        return false;
    }
    let value = |c: u8| {
        VALUES
            .iter()
            .find(|(_, r)| r.as_bytes() == [c])
            .map_or(0, |v| v.0)
    };
    let bytes = word.as_bytes();
    let mut n: u32 = 0;
    for (i, &c) in bytes.iter().enumerate() {
        let v = value(c);
        match bytes.get(i + 1) {
            Some(&next) if value(next) > v => n = n.wrapping_sub(v),
            _ => n = n.wrapping_add(v),
        }
    }
    if n == 0 || n >= 4000 {
        return false;
    }
    let mut written = String::new();
    for (v, r) in VALUES {
        while n >= v {
            written.push_str(r);
            n -= v;
        }
    }
    written == word
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
    rows: &mut ReadRow<'_>,
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
    // The rows read for the claim, in order.
    let mut seen: Vec<Rc<CitedRow>> = Vec::new();
    let mut read = |citation: &str,
                    cited: &mut Cited|
     -> Result<Result<Option<(f64, String)>, String>, Error> {
        let Some(row) = rows(citation)? else {
            return Ok(Ok(None));
        };
        seen.push(Rc::clone(&row));
        if let Some(code) = row
            .flag_codes()
            .into_iter()
            .find(|code| !carried.contains(&(citation, *code)))
        {
            return Ok(Err(format!("it does not carry flag {code} of {citation}")));
        }
        let value = row.value.map(|v| (v, row.value_text.clone()));
        cited.note(&row);
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
        other => {
            return Ok(Err(format!(
                "unknown kind {}",
                crate::error_text::shown(other)
            )));
        }
    };
    cited
        .claims
        .insert(claim.id.clone(), ClaimRows::of(claim, &seen));
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
                cited.note(&row);
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

mod beside;
mod cited_row;
mod labels;
#[cfg(test)]
mod tests;
mod words;
