//! The cells of a matrix: each pair of variables over the keys (regions or periods) both have,
//! with how far single pairs move r (leave-one-out) and what r would be with the values flags
//! removed.

use std::collections::HashMap;

use serde::Serialize;

use super::variables::Collected;
use crate::domain::stats::{self, Method, NoCorrelation};

/// A variable as its cells see it: its id, its values by key (region or period), and the values
/// flags removed.
pub struct Values<'c> {
    pub id: &'c str,
    pub points: Vec<(&'c str, f64)>,
    pub flagged: &'c [(String, f64)],
}

impl<'c> From<&'c Collected> for Values<'c> {
    fn from(c: &'c Collected) -> Self {
        Values {
            id: &c.variable.id,
            points: c.points.iter().map(|p| (p.key.as_str(), p.value)).collect(),
            flagged: &c.flagged,
        }
    }
}

/// Leave-one-out work a matrix may spend, in [`stats::loo_work`] steps: Spearman's costs n² a
/// cell, so the budget covers 190 cells of 145 regions, a bound on the work whatever the data;
/// Pearson's, n a cell, always fits.
pub const LOO_BUDGET: usize = 4_000_000;

#[derive(Debug, Serialize)]
pub struct Cell {
    pub x: String,
    pub y: String,
    /// Regions (or periods) with a usable value of both variables.
    pub n: usize,
    /// `ok`; `insufficient_data` below `min_n` pairs; `constant_input` when a variable has the
    /// same value at every pair (r is undefined); `not_computable` when a value or an
    /// intermediate result is not a finite number (`reason` says which).
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci95: Option<[f64; 2]>,
    /// r with each pair left out in turn: its range, and the pair that moves it most.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leave_one_out: Option<LeaveOneOut>,
}

#[derive(Debug, Serialize)]
pub struct LeaveOneOut {
    pub r_min: f64,
    pub r_max: f64,
    /// The region (or period) whose leaving out moves r most.
    pub most_influential: String,
    /// r without it.
    pub r_without: f64,
}

impl LeaveOneOut {
    /// How far leaving out the most influential pair moves r.
    pub fn moves(&self, r: f64) -> f64 {
        (self.r_without - r).abs()
    }
}

pub struct Computed {
    pub cells: Vec<Cell>,
    /// By cell: r and n with the values flags removed put back, where either variable lost
    /// some that have a number and r can be computed so.
    pub with_flagged: Vec<Option<(f64, usize)>>,
    /// `ok` cells whose leave-one-out range was not computed, for the budget.
    pub unchecked: usize,
}

/// Each pair of variables once, in the order of `variables`.
pub fn compute(variables: &[Values], method: Method, min_n: usize) -> Computed {
    // Each variable's values by key, built once, not once per pair; with the flagged ones too,
    // for the variables that have some.
    let by_key: Vec<HashMap<&str, f64>> = variables
        .iter()
        .map(|c| c.points.iter().copied().collect())
        .collect();
    let with_flagged: Vec<Option<HashMap<&str, f64>>> = variables
        .iter()
        .zip(&by_key)
        .map(|(c, used)| {
            (!c.flagged.is_empty()).then(|| {
                let mut all = used.clone();
                all.extend(c.flagged.iter().map(|(k, v)| (k.as_str(), *v)));
                all
            })
        })
        .collect();
    let mut out = Computed {
        cells: Vec::new(),
        with_flagged: Vec::new(),
        unchecked: 0,
    };
    let mut budget = LOO_BUDGET;
    for (i, a) in variables.iter().enumerate() {
        for (j, b) in variables.iter().enumerate().skip(i + 1) {
            let (keys, x, y) = pairs(&by_key[i], &by_key[j]);
            let mut cell = Cell {
                x: a.id.to_owned(),
                y: b.id.to_owned(),
                n: x.len(),
                status: "insufficient_data",
                reason: None,
                r: None,
                p_value: None,
                ci95: None,
                leave_one_out: None,
            };
            if cell.n >= min_n {
                match stats::correlate(method, &x, &y) {
                    Ok(c) => {
                        cell.status = "ok";
                        cell.r = Some(c.r);
                        cell.p_value = Some(c.p_value);
                        cell.ci95 = c.ci95;
                        let work = stats::loo_work(method, x.len());
                        if work <= budget {
                            budget -= work;
                            cell.leave_one_out = leave_one_out(method, c.r, &keys, &x, &y);
                        } else {
                            out.unchecked += 1;
                        }
                    }
                    Err(NoCorrelation::Constant) => cell.status = "constant_input",
                    Err(NoCorrelation::NotComputable(why)) => {
                        cell.status = "not_computable";
                        cell.reason = Some(why);
                    }
                    Err(NoCorrelation::TooFew) => {}
                }
            }
            let flagged = match (&with_flagged[i], &with_flagged[j]) {
                (None, None) => None,
                (wa, wb) => {
                    let (_, x, y) = pairs(
                        wa.as_ref().unwrap_or(&by_key[i]),
                        wb.as_ref().unwrap_or(&by_key[j]),
                    );
                    let n = x.len();
                    stats::correlate(method, &x, &y).ok().map(|c| (c.r, n))
                }
            };
            out.with_flagged.push(flagged);
            out.cells.push(cell);
        }
    }
    out
}

/// The keys both maps have, in key order (so a cell does not depend on hashing), with their
/// values.
fn pairs<'k>(
    a: &HashMap<&'k str, f64>,
    b: &HashMap<&str, f64>,
) -> (Vec<&'k str>, Vec<f64>, Vec<f64>) {
    let mut keys: Vec<&str> = a.keys().filter(|k| b.contains_key(*k)).copied().collect();
    keys.sort_unstable();
    let x = keys.iter().map(|k| a[k]).collect();
    let y = keys.iter().map(|k| b[k]).collect();
    (keys, x, y)
}

/// The range of r with each pair left out, and the pair whose leaving out moves `full` (r of all
/// pairs) most.
fn leave_one_out(
    method: Method,
    full: f64,
    keys: &[&str],
    x: &[f64],
    y: &[f64],
) -> Option<LeaveOneOut> {
    let without = stats::leave_one_out(method, x, y).ok()?;
    let mut out: Option<LeaveOneOut> = None;
    for (key, r) in keys.iter().zip(without) {
        let Some(r) = r else { continue };
        let o = out.get_or_insert_with(|| LeaveOneOut {
            r_min: r,
            r_max: r,
            most_influential: (*key).to_owned(),
            r_without: r,
        });
        o.r_min = o.r_min.min(r);
        o.r_max = o.r_max.max(r);
        if (r - full).abs() > o.moves(full) {
            o.most_influential = (*key).to_owned();
            o.r_without = r;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values<'c>(
        id: &'c str,
        points: &[(&'c str, f64)],
        flagged: &'c [(String, f64)],
    ) -> Values<'c> {
        Values {
            id,
            points: points.to_vec(),
            flagged,
        }
    }

    /// r with the flagged values put back is r over all pairs; the cell keeps r without them.
    #[test]
    fn a_cell_says_what_r_would_be_with_the_flagged_values() {
        let keys = ["A", "B", "C", "D", "E", "F"];
        let x = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
        let y = [2.0, 1.0, 4.0, 3.0, 6.0, 5.0];
        let used: Vec<(&str, f64)> = keys[..4]
            .iter()
            .copied()
            .zip(y[..4].iter().copied())
            .collect();
        let flagged: Vec<(String, f64)> = vec![("E".into(), 6.0), ("F".into(), 5.0)];
        let all: Vec<(&str, f64)> = keys.iter().copied().zip(x).collect();
        let computed = compute(
            &[values("x", &all, &[]), values("y", &used, &flagged)],
            Method::Pearson,
            3,
        );
        let cell = &computed.cells[0];
        assert_eq!(cell.n, 4);
        let without = stats::correlate(Method::Pearson, &x[..4], &y[..4])
            .unwrap()
            .r;
        assert_eq!(cell.r, Some(without));
        let with = stats::correlate(Method::Pearson, &x, &y).unwrap().r;
        assert_eq!(computed.with_flagged[0], Some((with, 6)));
        assert!((with - without).abs() > 0.1, "the test tells the two apart");
        // A cell whose variables lost nothing to flags has no such figure.
        let plain = compute(
            &[values("x", &all, &[]), values("y", &all, &[])],
            Method::Pearson,
            3,
        );
        assert_eq!(plain.with_flagged[0], None);
    }

    /// A pair that carries r alone is named, with r without it.
    #[test]
    fn leave_one_out_names_the_pair_that_moves_r_most() {
        let x: Vec<(&str, f64)> = vec![("A", 1.0), ("B", 2.0), ("C", 1.5), ("D", 2.5), ("E", 20.0)];
        let y: Vec<(&str, f64)> = vec![("A", 3.0), ("B", 1.0), ("C", 2.0), ("D", 1.5), ("E", 30.0)];
        let computed = compute(
            &[values("x", &x, &[]), values("y", &y, &[])],
            Method::Pearson,
            3,
        );
        let cell = &computed.cells[0];
        let loo = cell.leave_one_out.as_ref().unwrap();
        assert_eq!(loo.most_influential, "E");
        assert!(cell.r.unwrap() > 0.9 && loo.r_without < 0.0, "{cell:?}");
        assert_eq!(loo.r_min, loo.r_without);
        assert!(loo.r_max >= cell.r.unwrap());
        assert_eq!(computed.unchecked, 0);
    }

    /// Spearman's leave-one-out costs n² a cell: past the budget, cells go without it and are
    /// counted.
    #[test]
    fn spearman_leave_one_out_stops_at_its_budget() {
        let n = 1_500;
        let keys: Vec<String> = (0..n).map(|i| format!("R{i:04}")).collect();
        let x: Vec<(&str, f64)> = keys
            .iter()
            .map(|k| k.as_str())
            .zip((0..n).map(|i| i as f64))
            .collect();
        let y: Vec<(&str, f64)> = keys
            .iter()
            .map(|k| k.as_str())
            .zip((0..n).map(|i| ((i * 7) % 13) as f64))
            .collect();
        let z: Vec<(&str, f64)> = keys
            .iter()
            .map(|k| k.as_str())
            .zip((0..n).map(|i| ((i * 3) % 11) as f64))
            .collect();
        let three = [
            values("x", &x, &[]),
            values("y", &y, &[]),
            values("z", &z, &[]),
        ];
        let spearman = compute(&three, Method::Spearman, 3);
        // 1,500² = 2,250,000 steps a cell: one cell fits in 4,000,000, the next two do not.
        assert_eq!(
            spearman
                .cells
                .iter()
                .filter(|c| c.leave_one_out.is_some())
                .count(),
            1
        );
        assert_eq!(spearman.unchecked, 2);
        let pearson = compute(&three, Method::Pearson, 3);
        assert_eq!(pearson.unchecked, 0);
    }
}
