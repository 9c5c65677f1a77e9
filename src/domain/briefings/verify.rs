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

/// A cited row as the verifier reads it.
pub struct CitedRow {
    pub period: String,
    pub value: Option<f64>,
    /// The value as published (its decimals are the rounding a claim must show).
    pub value_text: String,
}

/// Checks `sections` against `claims`, reading each cited row through `rows` (None: no such
/// row). Numbers inside `labels` (names and titles the text quotes, such as "Physicians per
/// 100 000 inhabitants") are not claims; a four-digit number equal to a cited period is a year.
/// With `every_claim`, each claim must also appear in the text (the writer's own text states all
/// of its claims; a model's may leave some out). The inner error says what failed.
pub fn verify(
    rows: &mut dyn FnMut(&str) -> Result<Option<CitedRow>, Error>,
    sections: &[Section],
    claims: &[Claim],
    labels: &[String],
    every_claim: bool,
) -> Result<Result<Checked, String>, Error> {
    let mut periods = BTreeSet::new();
    for claim in claims {
        if let Err(why) = check_claim(rows, claim, &mut periods)? {
            return Ok(Err(format!(
                "claim {} ({}): {why}",
                claim.id, claim.display
            )));
        }
    }
    let mut labels: Vec<&str> = labels.iter().map(String::as_str).collect();
    // Longest first, so a name inside a longer title does not break the title apart.
    labels.sort_by_key(|l| std::cmp::Reverse(l.len()));
    let mut used = BTreeSet::new();
    let mut numbers_checked = 0;
    for section in sections {
        for part in [&section.heading, &section.text] {
            let mut text = part.clone();
            for label in &labels {
                text = text.replace(label, " ");
            }
            for number in numbers::find(&text) {
                numbers_checked += 1;
                // Two claims may read the same ("7 regions", "ranks 7"): each occurrence takes
                // one not matched yet.
                let unmatched = claims
                    .iter()
                    .find(|c| c.display == number && !used.contains(c.id.as_str()));
                match unmatched.or_else(|| claims.iter().find(|c| c.display == number)) {
                    Some(claim) => {
                        used.insert(claim.id.as_str());
                    }
                    None if is_year(number, &periods) => numbers_checked -= 1,
                    None => {
                        return Ok(Err(format!(
                            "the number {} in the text is not a claim",
                            crate::error::shown(number)
                        )));
                    }
                }
            }
        }
    }
    let unused = claims.iter().find(|c| !used.contains(c.id.as_str()));
    if let (true, Some(unused)) = (every_claim, unused) {
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

fn is_year(number: &str, periods: &BTreeSet<String>) -> bool {
    number.len() == 4 && number.bytes().all(|b| b.is_ascii_digit()) && periods.contains(number)
}

/// One claim against its rows: a direct one is the row's value shown with the row's decimals; a
/// derived one is its operation on the rows' values. The rows' periods are collected as years.
fn check_claim(
    rows: &mut dyn FnMut(&str) -> Result<Option<CitedRow>, Error>,
    claim: &Claim,
    periods: &mut BTreeSet<String>,
) -> Result<Result<(), String>, Error> {
    let mut row = |citation: &str| -> Result<Option<(f64, String)>, Error> {
        let Some(row) = rows(citation)? else {
            return Ok(None);
        };
        periods.insert(row.period);
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
            citation_id: citation.into(),
            series_id: 1,
            period: period.into(),
            value: Some(value),
            value_text: text.into(),
            flags: String::new(),
            conf_status: String::new(),
            snapshot: "snp_x".into(),
        }
    }

    /// Population 2017 and 2022, the claims a writer makes of them, and the text it writes.
    fn written() -> (Vec<ObsRow>, Vec<Claim>, String) {
        let rows = vec![
            row("cit_a", "2017", 4_633_323.0, "4633323"),
            row("cit_b", "2022", 4_729_243.0, "4729243"),
        ];
        let mut book = ClaimBook::default();
        let now = book.direct(&rows[1]).unwrap();
        let then = book.direct(&rows[0]).unwrap();
        let change = book
            .derived(Operation::PercentChange, &[&rows[0], &rows[1]])
            .unwrap();
        let text = format!(
            "Population in Oberbayern: {now} in 2022. That is {change} % more than in 2017 ({then})."
        );
        (rows, book.claims, text)
    }

    fn check(rows: &[ObsRow], claims: &[Claim], text: &str) -> Result<Verification, String> {
        check_with(rows, claims, text, true)
    }

    fn check_with(
        rows: &[ObsRow],
        claims: &[Claim],
        text: &str,
        every_claim: bool,
    ) -> Result<Verification, String> {
        let by_id: HashMap<&str, &ObsRow> =
            rows.iter().map(|r| (r.citation_id.as_str(), r)).collect();
        let mut lookup = |id: &str| {
            Ok(by_id.get(id).map(|r| CitedRow {
                period: r.period.clone(),
                value: r.value,
                value_text: r.value_text.clone(),
            }))
        };
        let sections = [Section {
            heading: "Physicians per 100 000 inhabitants".into(),
            text: text.into(),
        }];
        let labels = ["Physicians per 100 000 inhabitants".to_owned()];
        verify(&mut lookup, &sections, claims, &labels, every_claim)
            .unwrap()
            .map(|c| c.verification)
    }

    #[test]
    fn a_faithful_text_is_verified() {
        let (rows, claims, text) = written();
        assert!(
            text.contains("4,729,243") && text.contains("2.1 %"),
            "{text}"
        );
        let v = check(&rows, &claims, &text).unwrap();
        assert_eq!((v.numbers_checked, v.claims_checked), (3, 3));
    }

    #[test]
    fn an_invented_or_altered_number_is_refused() {
        let (rows, claims, text) = written();
        let invented = text.replace("more than", "more than the 12 cities and more than");
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
        let (rows, mut claims, text) = written();
        claims.push(Claim {
            id: "c4".into(),
            ..claims[0].clone()
        });
        let unused = text.replace("4,729,243 in", "in");
        assert!(check(&rows, &claims, &unused).is_err());
        // A model's text may leave claims out; those it states must still hold.
        let v = check_with(&rows, &claims, &unused, false).unwrap();
        assert_eq!(v.claims_checked, 2);
    }
}
