//! Claims: every number a briefing's text states, with where it comes from. A direct claim is a
//! cited value as published; a derived one is computed in code from cited values by a named
//! operation, so the verifier (and anyone) can compute it again. Each claim carries the flags of
//! every value in its window: its rows, and for a change over time the values between them.

use serde::{Deserialize, Serialize};

use super::numbers;
use crate::bundled::Catalogue;
use crate::domain::decimals;
use crate::store::observations::ObsRow;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Claim {
    pub id: String,
    /// Exactly as the text writes it.
    pub display: String,
    pub value: f64,
    /// `direct` or `derived`.
    pub kind: String,
    /// Direct: the row the value is.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub citations: Vec<String>,
    /// Derived: the cited values it is computed from, in the operation's order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inputs: Vec<ClaimInput>,
    /// Derived: the claim whose inputs (and flags) are this one's too, in place of `inputs`:
    /// the count of the regions a rank is among.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub inputs_of: Option<String>,
    /// Derived: the formula, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derivation: Option<String>,
    /// How the text must state it, when more than the display: "2.1 % more", "1.5 times". A
    /// direction word at its end (more, above; less, below) is checked against the inputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<String>,
    /// Derived: the operation's name (see [`OPERATIONS`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
    /// The flags of every value in the claim's window, each with its row.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flags: Vec<ClaimFlag>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ClaimInput {
    pub citation: String,
    pub value: f64,
}

/// A flag of a value in a claim's window.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ClaimFlag {
    pub citation: String,
    pub period: String,
    pub code: String,
    pub meaning: String,
}

/// The operations' names, as `Claim::operation` and the OpenAPI document give them.
pub const OPERATIONS: &[&str] = &[
    "percent_change",
    "difference",
    "share",
    "ratio",
    "index_change",
    "rank",
    "rank_from_bottom",
    "count",
];

/// How a derived claim is computed from its inputs `[a, b, ...]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    /// |b − a| / |a| × 100, to one decimal: how much higher or lower b is than a, in percent.
    PercentChange,
    /// |b − a|, to the decimals of the inputs: the gap in the unit itself (percentage points
    /// for a percentage).
    Difference,
    /// b / a × 100, to 1 decimal: b's share of a total a.
    Share,
    /// b / a, to 1 decimal: how many times a b is.
    Ratio,
    /// |a − 100|, to the decimals of a: how far an index (base year = 100) lies from its base
    /// year, in percent.
    IndexChange,
    /// 1 + the number of inputs after the first that are higher than the first: its rank,
    /// highest first, ties sharing the better rank. Shown as "highest", "second-highest", ...
    Rank,
    /// 1 + the number of inputs after the first that are lower than the first. Shown as
    /// "lowest", "second-lowest", ...
    RankFromBottom,
    /// The number of inputs.
    Count,
}

impl Operation {
    pub fn name(self) -> &'static str {
        match self {
            Operation::PercentChange => "percent_change",
            Operation::Difference => "difference",
            Operation::Share => "share",
            Operation::Ratio => "ratio",
            Operation::IndexChange => "index_change",
            Operation::Rank => "rank",
            Operation::RankFromBottom => "rank_from_bottom",
            Operation::Count => "count",
        }
    }

    const ALL: [Operation; 8] = [
        Operation::PercentChange,
        Operation::Difference,
        Operation::Share,
        Operation::Ratio,
        Operation::IndexChange,
        Operation::Rank,
        Operation::RankFromBottom,
        Operation::Count,
    ];

    pub fn parse(name: &str) -> Option<Operation> {
        Operation::ALL.into_iter().find(|op| op.name() == name)
    }

    pub fn formula(self) -> &'static str {
        match self {
            Operation::PercentChange => {
                "|b − a| / |a| × 100, to 1 decimal (a, b: the inputs in order)"
            }
            Operation::Difference => {
                "|b − a|, to the decimals of the inputs (a, b: the inputs in order)"
            }
            Operation::Share => "b / a × 100, to 1 decimal (a, b: the inputs in order)",
            Operation::Ratio => "b / a, to 1 decimal (a, b: the inputs in order)",
            Operation::IndexChange => {
                "|a − 100|, to the decimals of a (a: an index whose base year is 100)"
            }
            Operation::Rank => {
                "1 + the number of the other inputs higher than the first (rank, highest first; ties share the better rank)"
            }
            Operation::RankFromBottom => {
                "1 + the number of the other inputs lower than the first (rank, lowest first; ties share the better rank)"
            }
            Operation::Count => "the number of inputs",
        }
    }

    /// A rank of either direction.
    pub fn is_rank(self) -> bool {
        matches!(self, Operation::Rank | Operation::RankFromBottom)
    }

    /// The value and the decimals it is shown with, from the inputs' values and the decimals
    /// they were published with; None where it is undefined (a change from zero) or too large
    /// for a double (a ratio of 1e300 to 1e-300).
    pub fn compute(self, values: &[f64], input_decimals: usize) -> Option<(f64, usize)> {
        let round = crate::domain::round_to;
        let computed = match (self, values) {
            (Operation::PercentChange, [a, b]) if *a != 0.0 => {
                Some((round((b - a).abs() / a.abs() * 100.0, 1), 1))
            }
            (Operation::Difference, [a, b]) => {
                Some((round((b - a).abs(), input_decimals), input_decimals))
            }
            (Operation::Share, [a, b]) if *a != 0.0 => Some((round(b / a * 100.0, 1), 1)),
            (Operation::Ratio, [a, b]) if *a > 0.0 && *b >= 0.0 => Some((round(b / a, 1), 1)),
            (Operation::IndexChange, [a]) => {
                Some((round((a - 100.0).abs(), input_decimals), input_decimals))
            }
            (Operation::Rank, [first, rest @ ..]) => {
                Some((1.0 + rest.iter().filter(|v| *v > first).count() as f64, 0))
            }
            (Operation::RankFromBottom, [first, rest @ ..]) => {
                Some((1.0 + rest.iter().filter(|v| *v < first).count() as f64, 0))
            }
            (Operation::Count, values) if !values.is_empty() => Some((values.len() as f64, 0)),
            _ => None,
        };
        computed.filter(|(value, _)| value.is_finite())
    }

    /// The value as the text writes it: a rank as its phrase ("second-highest"), any other
    /// number with `decimals` places and thousands separators.
    pub fn display(self, value: f64, decimals: usize) -> String {
        match self {
            Operation::Rank => numbers::rank_phrase(value as u64, "highest"),
            Operation::RankFromBottom => numbers::rank_phrase(value as u64, "lowest"),
            _ => numbers::display(value, decimals),
        }
    }
}

/// The claims of one briefing as its text is written: each call gives the display to write.
pub struct ClaimBook<'c> {
    pub claims: Vec<Claim>,
    catalogue: &'c Catalogue,
}

impl<'c> ClaimBook<'c> {
    pub fn new(catalogue: &'c Catalogue) -> Self {
        ClaimBook {
            claims: Vec::new(),
            catalogue,
        }
    }

    /// A published value, as published (with the decimals of its source text).
    pub fn direct(&mut self, row: &ObsRow) -> Option<String> {
        let value = row.value?;
        if let Some(known) = self
            .claims
            .iter()
            .find(|c| c.kind == "direct" && c.citations == [row.citation_id.as_str()])
        {
            return Some(known.display.clone());
        }
        let display = numbers::display(value, decimals(&row.value_text));
        let flags = self.flags(&[row]);
        self.push(Claim {
            id: String::new(),
            display: display.clone(),
            value,
            kind: "direct".into(),
            citations: vec![row.citation_id.to_string()],
            inputs: Vec::new(),
            inputs_of: None,
            derivation: None,
            operation: None,
            reads: None,
            flags,
        });
        Some(display)
    }

    /// A value computed by `operation` from the rows' values, to be stated as its display then
    /// `words` ("%", "times"): the reading to write, which the verifier holds the text to. The
    /// claim carries the flags of the rows and of `window` (the values between them). None
    /// where it is undefined.
    pub fn derived_reading(
        &mut self,
        operation: Operation,
        rows: &[&ObsRow],
        window: &[&ObsRow],
        words: &str,
    ) -> Option<String> {
        self.derived(operation, rows, window)?;
        let claim = self.claims.last_mut().expect("pushed by derived");
        let reads = format!("{} {words}", claim.display);
        claim.reads = Some(reads.clone());
        Some(reads)
    }

    /// The last claim made, taken back (a change that rounds to nothing is not worth stating).
    pub fn take_back(&mut self) {
        self.claims.pop();
    }

    /// A value computed by `operation` from the rows' values, carrying the flags of the rows and
    /// of `window`; None where it is undefined.
    pub fn derived(
        &mut self,
        operation: Operation,
        rows: &[&ObsRow],
        window: &[&ObsRow],
    ) -> Option<String> {
        let values: Vec<f64> = rows.iter().map(|r| r.value).collect::<Option<_>>()?;
        let places = rows
            .iter()
            .map(|r| decimals(&r.value_text))
            .max()
            .unwrap_or(0);
        let (value, shown) = operation.compute(&values, places)?;
        let display = operation.display(value, shown);
        let mut flagged: Vec<&ObsRow> = rows.to_vec();
        flagged.extend(
            window
                .iter()
                .filter(|w| !rows.iter().any(|r| r.citation_id == w.citation_id)),
        );
        let flags = self.flags(&flagged);
        self.push(Claim {
            id: String::new(),
            display: display.clone(),
            value,
            kind: "derived".into(),
            citations: Vec::new(),
            inputs: rows
                .iter()
                .zip(&values)
                .map(|(r, v)| ClaimInput {
                    citation: r.citation_id.to_string(),
                    value: *v,
                })
                .collect(),
            inputs_of: None,
            derivation: Some(operation.formula().into()),
            operation: Some(operation.name().into()),
            reads: None,
            flags,
        });
        Some(display)
    }

    /// The number of inputs of the last claim made, as a claim of its own that names that one
    /// for its inputs (a rank's regions, counted, without listing them twice).
    pub fn count_of_last(&mut self) -> Option<String> {
        let of = self.claims.last()?;
        let (value, of_id) = (of.inputs.len() as f64, of.id.clone());
        let display = Operation::Count.display(value, 0);
        self.push(Claim {
            id: String::new(),
            display: display.clone(),
            value,
            kind: "derived".into(),
            citations: Vec::new(),
            inputs: Vec::new(),
            inputs_of: Some(of_id),
            derivation: Some(Operation::Count.formula().into()),
            operation: Some(Operation::Count.name().into()),
            reads: None,
            flags: Vec::new(),
        });
        Some(display)
    }

    /// Every flag of `rows` (a confidential status as flag `c`), each with its row.
    fn flags(&self, rows: &[&ObsRow]) -> Vec<ClaimFlag> {
        rows.iter()
            .flat_map(|row| {
                crate::domain::explain_flags(self.catalogue, &row.flags, &row.conf_status)
                    .into_iter()
                    .map(|f| ClaimFlag {
                        citation: row.citation_id.to_string(),
                        period: row.period.to_string(),
                        code: f.code.into_string(),
                        meaning: f.meaning.into_string(),
                    })
            })
            .collect()
    }

    fn push(&mut self, mut claim: Claim) {
        claim.id = format!("c{}", self.claims.len() + 1);
        self.claims.push(claim);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operations_compute_what_their_formulas_say() {
        let pc = Operation::PercentChange;
        assert_eq!(pc.compute(&[200.0, 150.0], 0), Some((25.0, 1)));
        assert_eq!(pc.compute(&[0.0, 150.0], 0), None);
        assert_eq!(
            Operation::Difference.compute(&[5.3, 7.1], 1),
            Some((1.8, 1))
        );
        assert_eq!(
            Operation::Rank.compute(&[5.0, 9.0, 1.0, 7.0], 0),
            Some((3.0, 0))
        );
        assert_eq!(
            Operation::RankFromBottom.compute(&[5.0, 9.0, 1.0, 7.0], 0),
            Some((2.0, 0))
        );
        // Ties share the better rank.
        assert_eq!(Operation::Rank.compute(&[7.0, 9.0, 7.0], 0), Some((2.0, 0)));
        assert_eq!(Operation::Count.compute(&[1.0, 2.0], 0), Some((2.0, 0)));
        assert_eq!(
            Operation::Share.compute(&[83_237_124.0, 4_729_243.0], 0),
            Some((5.7, 1))
        );
        assert_eq!(
            Operation::Ratio.compute(&[106.9, 1032.4], 1),
            Some((9.7, 1))
        );
        assert_eq!(Operation::Ratio.compute(&[0.0, 1.0], 1), None);
        assert_eq!(Operation::Ratio.compute(&[1e-300, 1e300], 1), None);
        assert_eq!(pc.compute(&[1e-300, 1e300], 0), None);
        assert_eq!(Operation::Difference.compute(&[-1.7e308, 1.7e308], 0), None);
        assert_eq!(Operation::IndexChange.compute(&[107.9], 1), Some((7.9, 1)));
        assert_eq!(Operation::IndexChange.compute(&[95.35], 2), Some((4.65, 2)));
        assert_eq!(Operation::Rank.display(2.0, 0), "second-highest");
        assert_eq!(Operation::RankFromBottom.display(1.0, 0), "lowest");
        assert_eq!(Operation::Count.display(1234.0, 0), "1,234");
        let names: Vec<&str> = Operation::ALL.iter().map(|op| op.name()).collect();
        assert_eq!(
            names, OPERATIONS,
            "the documented names are every operation's"
        );
        for &op in OPERATIONS {
            assert_eq!(Operation::parse(op).map(Operation::name), Some(op));
        }
    }
}
