//! Claims: every number a briefing's text states, with where it comes from. A direct claim is a
//! cited value as published; a derived one is computed in code from cited values by a named
//! operation, so the verifier (and anyone) can compute it again.

use serde::{Deserialize, Serialize};

use super::numbers;
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
    /// Derived: the formula, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub derivation: Option<String>,
    /// How the text must state it, when more than the display: "2.1 % more", "3 from the top".
    /// A direction word at its end (more, above; less, below) is checked against the inputs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<String>,
    /// Derived: the operation's name (`percent_change`, `difference`, `share`, `rank`, `count`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub operation: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct ClaimInput {
    pub citation: String,
    pub value: f64,
}

/// The operations' names, as `Claim::operation` and the OpenAPI document give them.
pub const OPERATIONS: &[&str] = &["percent_change", "difference", "share", "rank", "count"];

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
    /// 1 + the number of inputs after the first that are higher than the first: its rank,
    /// highest first.
    Rank,
    /// The number of inputs.
    Count,
}

impl Operation {
    pub fn name(self) -> &'static str {
        match self {
            Operation::PercentChange => "percent_change",
            Operation::Difference => "difference",
            Operation::Share => "share",
            Operation::Rank => "rank",
            Operation::Count => "count",
        }
    }

    const ALL: [Operation; 5] = [
        Operation::PercentChange,
        Operation::Difference,
        Operation::Share,
        Operation::Rank,
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
            Operation::Rank => {
                "1 + the number of the other inputs higher than the first (rank, highest first)"
            }
            Operation::Count => "the number of inputs",
        }
    }

    /// The value and the decimals it is shown with, from the inputs' values and the decimals
    /// they were published with; None where it is undefined (a change from zero).
    pub fn compute(self, values: &[f64], input_decimals: usize) -> Option<(f64, usize)> {
        match (self, values) {
            (Operation::PercentChange, [a, b]) if *a != 0.0 => Some((
                crate::domain::round_to((b - a).abs() / a.abs() * 100.0, 1),
                1,
            )),
            (Operation::Difference, [a, b]) => Some((
                crate::domain::round_to((b - a).abs(), input_decimals),
                input_decimals,
            )),
            (Operation::Share, [a, b]) if *a != 0.0 => {
                Some((crate::domain::round_to(b / a * 100.0, 1), 1))
            }
            (Operation::Rank, [first, rest @ ..]) => {
                Some((1.0 + rest.iter().filter(|v| *v > first).count() as f64, 0))
            }
            (Operation::Count, values) if !values.is_empty() => Some((values.len() as f64, 0)),
            _ => None,
        }
    }
}

/// The claims of one briefing as its text is written: each call gives the display to write.
#[derive(Default)]
pub struct ClaimBook {
    pub claims: Vec<Claim>,
}

impl ClaimBook {
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
        self.push(Claim {
            id: String::new(),
            display: display.clone(),
            value,
            kind: "direct".into(),
            citations: vec![row.citation_id.to_string()],
            inputs: Vec::new(),
            derivation: None,
            operation: None,
            reads: None,
        });
        Some(display)
    }

    /// A value computed by `operation` from the rows' values, to be stated as its display then
    /// `words` ("%", "from the top"): the reading to write, which the verifier holds the text
    /// to. None where it is undefined.
    pub fn derived_reading(
        &mut self,
        operation: Operation,
        rows: &[&ObsRow],
        words: &str,
    ) -> Option<String> {
        self.derived(operation, rows)?;
        let claim = self.claims.last_mut().expect("pushed by derived");
        let reads = format!("{} {words}", claim.display);
        claim.reads = Some(reads.clone());
        Some(reads)
    }

    /// The last claim made, taken back (a change that rounds to nothing is not worth stating).
    pub fn take_back(&mut self) {
        self.claims.pop();
    }

    /// A value computed by `operation` from the rows' values; None where it is undefined.
    pub fn derived(&mut self, operation: Operation, rows: &[&ObsRow]) -> Option<String> {
        let values: Vec<f64> = rows.iter().map(|r| r.value).collect::<Option<_>>()?;
        let places = rows
            .iter()
            .map(|r| decimals(&r.value_text))
            .max()
            .unwrap_or(0);
        let (value, shown) = operation.compute(&values, places)?;
        let display = numbers::display(value, shown);
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
            derivation: Some(operation.formula().into()),
            operation: Some(operation.name().into()),
            reads: None,
        });
        Some(display)
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
        assert_eq!(Operation::Count.compute(&[1.0, 2.0], 0), Some((2.0, 0)));
        assert_eq!(
            Operation::Share.compute(&[83_237_124.0, 4_729_243.0], 0),
            Some((5.7, 1))
        );
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
