//! The verifier: before a briefing is stored or shown, it re-reads the text, finds every number
//! in it, matches each to a claim written exactly so, and checks every claim against the rows it
//! cites, with the rounding it shows. A text that fails is never stored or shown.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::Section;
use super::claims::{Claim, Operation};
use super::numbers;
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
    /// regintel's writer: it states every claim it made.
    Writer,
    /// A model: it may leave claims out, and it is held to the letter: no digit outside a claim,
    /// a period or a quoted name, no number words, no look-alike digits or invisible characters.
    Model,
}

/// A cited row as the verifier reads it.
pub struct CitedRow {
    pub period: String,
    pub region: String,
    pub value: Option<f64>,
    /// The value as published (its decimals are the rounding a claim must show).
    pub value_text: String,
}

/// Words that state a number without digits; a model's text may not use them.
const NUMBER_WORDS: &[&str] = &[
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
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "hundred",
    "hundreds",
    "thousand",
    "thousands",
    "million",
    "millions",
    "billion",
    "billions",
    "twice",
    "double",
    "doubled",
    "triple",
    "tripled",
    "halved",
    "dozen",
    "dozens",
    "percent",
];

/// Words before a period that make a four-digit number a year ("in 2022", "a 2022 figure").
const BEFORE_PERIOD: &[&str] = &["in", "since", "from", "to", "until", "between", "and", "a"];

/// Checks `sections` against `claims`, reading each cited row through `rows` (None: no such
/// row). Names and titles in `labels` (such as "Physicians per 100 000 inhabitants") and cited
/// periods after one of [`BEFORE_PERIOD`] are not numbers; every other number must be written
/// exactly as a claim's `display`, followed by its `reads` where it has one, whose direction
/// word must agree with its inputs. The inner error says what failed.
pub fn verify(
    rows: &mut dyn FnMut(&str) -> Result<Option<CitedRow>, Error>,
    sections: &[Section],
    claims: &[Claim],
    labels: &[String],
    author: Author,
) -> Result<Result<Checked, String>, Error> {
    let mut cited = Cited::default();
    for claim in claims {
        if let Err(why) = check_claim(rows, claim, &mut cited)? {
            return Ok(Err(format!(
                "claim {} ({}): {why}",
                claim.id, claim.display
            )));
        }
    }
    let mut labels: Vec<&str> = labels
        .iter()
        .map(String::as_str)
        .filter(|l| !l.is_empty())
        .collect();
    // Longest first, so a name inside a longer title does not break the title apart.
    labels.sort_by_key(|l| std::cmp::Reverse(l.len()));
    let mut used = BTreeSet::new();
    let mut numbers_checked = 0;
    for section in sections {
        for part in [&section.heading, &section.text] {
            let mut text = part.clone();
            for label in &labels {
                // `replace` copies the whole text even when the label is not in it.
                if text.contains(label) {
                    text = text.replace(label, " ");
                }
            }
            let text = without_periods(&text, &cited.periods);
            if author == Author::Model
                && let Err(why) = held_to_the_letter(&text, &cited.regions)
            {
                return Ok(Err(why));
            }
            for (at, number) in numbers::find(&text) {
                numbers_checked += 1;
                // Two claims may read the same ("7 regions", "ranks 7"): each occurrence takes
                // one not matched yet.
                let unmatched = claims
                    .iter()
                    .find(|c| c.display == number && !used.contains(c.id.as_str()));
                let Some(claim) = unmatched.or_else(|| claims.iter().find(|c| c.display == number))
                else {
                    return Ok(Err(format!(
                        "the number {} in the text is not a claim",
                        crate::error::shown(number)
                    )));
                };
                if let Some(reads) = &claim.reads
                    && !text[at..].starts_with(reads.as_str())
                {
                    return Ok(Err(format!(
                        "claim {} must read \"{reads}\" where the text states it",
                        claim.id
                    )));
                }
                used.insert(claim.id.as_str());
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

/// What the cited rows say about the text: their periods and regions.
#[derive(Default)]
struct Cited {
    periods: BTreeSet<String>,
    regions: BTreeSet<String>,
}

/// `text` with each cited period blanked where it stands as a period: a whole word after one of
/// [`BEFORE_PERIOD`].
fn without_periods(text: &str, periods: &BTreeSet<String>) -> String {
    let mut out = text.to_owned();
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
            let whole = out[..at].ends_with([' ', '('])
                && !out[end..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
                && !(out[end..].starts_with(['.', ','])
                    && out[end + 1..].starts_with(|c: char| c.is_ascii_digit()));
            if whole && BEFORE_PERIOD.contains(&word_before) {
                out.replace_range(at..end, &" ".repeat(period.len()));
            }
            from = end;
        }
    }
    out
}

/// A model's text may write digits only as numbers (a claim, a period, a region code), never
/// inside other words, nor as look-alike digits, number words or behind invisible characters.
fn held_to_the_letter(text: &str, regions: &BTreeSet<String>) -> Result<(), String> {
    if let Some(c) = text.chars().find(|c| {
        (c.is_numeric() && !c.is_ascii_digit())
            || matches!(c, '\u{2212}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
    }) {
        return Err(format!("the text writes U+{:04X}, which may hide a number", c as u32));
    }
    for word in text.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
        let lower = word.to_lowercase();
        if NUMBER_WORDS.contains(&lower.as_str()) {
            return Err(format!(
                "the text writes the number word \"{}\"",
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

/// One claim against its rows: a direct one is the row's value shown with the row's decimals; a
/// derived one is its operation on the rows' values, and the direction word it reads (more,
/// above; less, below) must be the way its second input lies from its first. The rows' periods
/// and regions are collected.
fn check_claim(
    rows: &mut dyn FnMut(&str) -> Result<Option<CitedRow>, Error>,
    claim: &Claim,
    cited: &mut Cited,
) -> Result<Result<(), String>, Error> {
    let mut row = |citation: &str| -> Result<Option<(f64, String)>, Error> {
        let Some(row) = rows(citation)? else {
            return Ok(None);
        };
        cited.periods.insert(row.period);
        cited.regions.insert(row.region);
        Ok(row.value.map(|v| (v, row.value_text)))
    };
    let (value, shown) = match claim.kind.as_str() {
        "direct" => {
            let [citation] = claim.citations.as_slice() else {
                return Ok(Err("a direct claim cites exactly one row".into()));
            };
            let Some((value, text)) = row(citation)? else {
                return Ok(Err(format!("{citation} is no row with a value")));
            };
            (value, decimals(&text))
        }
        "derived" => {
            let Some(operation) = claim.operation.as_deref().and_then(Operation::parse) else {
                return Ok(Err("unknown operation".into()));
            };
            let mut values = Vec::with_capacity(claim.inputs.len());
            let mut places = 0;
            for input in &claim.inputs {
                let Some((value, text)) = row(&input.citation)? else {
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
                Some(computed) => computed,
                None => return Ok(Err("the operation is undefined on its inputs".into())),
            }
        }
        other => return Ok(Err(format!("unknown kind {}", crate::error::shown(other)))),
    };
    if value != claim.value {
        return Ok(Err(format!("the rows give {value}, not {}", claim.value)));
    }
    let display = numbers::display(value, shown);
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
        if let (Some(up), [a, b]) = (up, claim.inputs.as_slice())
            && up != (b.value > a.value)
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
        let mut book = ClaimBook::default();
        let now = book.direct(&rows[1]).unwrap();
        let then = book.direct(&rows[0]).unwrap();
        let change = book
            .derived_reading(Operation::PercentChange, &[&rows[0], &rows[1]], "% more")
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
        let by_id: HashMap<&str, &ObsRow> =
            rows.iter().map(|r| (r.citation_id.as_str(), r)).collect();
        let mut lookup = |id: &str| {
            Ok(by_id.get(id).map(|r| CitedRow {
                period: r.period.to_string(),
                region: "DE21".into(),
                value: r.value,
                value_text: r.value_text.to_string(),
            }))
        };
        let sections = [Section {
            heading: "Physicians per 100 000 inhabitants".into(),
            text: text.into(),
        }];
        let labels = [
            "Physicians per 100 000 inhabitants".to_owned(),
            String::new(),
        ];
        verify(&mut lookup, &sections, claims, &labels, author)
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
    fn periods_of_any_format_are_years_after_in_or_since() {
        for (then, now) in [
            ("2017Q1", "2022Q1"),
            ("2017-07", "2022-07"),
            ("2017M07", "2022M07"),
        ] {
            let (rows, claims, text) = written_at(then, now);
            assert!(check(&rows, &claims, &text).is_ok(), "{text}");
        }
        // A cited period used as a count is a number like any other.
        let (rows, claims, text) = written();
        let count = format!("{text} It lost 2017 jobs.");
        assert!(check(&rows, &claims, &count).is_err());
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

    #[test]
    fn a_model_is_held_to_the_letter() {
        let (rows, claims, text) = written();
        for trick in [
            "It has EUR45,000 more.",
            "It grew by \u{2212}3.5.",
            "It has \u{200B}12 towns.",
            "It has \u{0661}\u{0662} towns.",
            "Twelve towns grew.",
            "Its output doubled.",
        ] {
            let tricked = format!("{text} {trick}");
            assert!(
                check_by(&rows, &claims, &tricked, Author::Model).is_err(),
                "{trick}"
            );
        }
        // Flipping the direction of a change is refused, writer or model.
        let flipped = text.replace("% more", "% less");
        assert!(check_by(&rows, &claims, &flipped, Author::Model).is_err());
        // A model may leave claims out; those it states must still hold.
        let shorter = text.replace("4,729,243 in 2022", "a new high");
        assert!(check(&rows, &claims, &shorter).is_err());
        let v = check_by(&rows, &claims, &shorter, Author::Model).unwrap();
        assert_eq!(v.claims_checked, 2);
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
}
