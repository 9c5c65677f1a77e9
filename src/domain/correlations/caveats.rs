//! What a reader must keep in mind about a matrix: what the method cannot show, and where the
//! inputs give a statistician pause, each with the figures that say how much.

use std::collections::BTreeSet;

use serde_json::json;

use super::cells::{Cell, Computed, LOO_BUDGET};
use super::variables::Collected;
use super::{Basis, Caveat};
use crate::domain::series;
use crate::domain::stats::Method;
use crate::period::{STALE_YEARS, year};

/// Below this many pairs, the t and Fisher z approximations behind p-values and intervals are
/// rough.
const FEW_PAIRS: usize = 10;
/// Below this many pairs, a cell's interval is wide and one region can move r a lot.
const SMALL_N: usize = 30;
/// A share of a variable's regions removed by flags from which the cells say what they would be
/// with them: one in ten.
const FLAGGED_SHARE: f64 = 0.1;
/// How far leaving out one pair may move r before the cell is named as resting on it.
const INFLUENCE: f64 = 0.2;

pub fn of(
    basis: Basis,
    collected: &[Collected],
    computed: &Computed,
    method: Method,
) -> Vec<Caveat> {
    let mut out = Vec::new();
    let what = match basis {
        Basis::CrossSection => "regions",
        Basis::TimeSeries => "periods",
    };
    out.push(match basis {
        Basis::CrossSection => Caveat::new(
            "ecological_inference",
            "these correlations describe regions, not the people or firms in them: a relation between regional figures need not hold for individuals (ecological inference), and neither shows cause".into(),
        ),
        Basis::TimeSeries => Caveat::new(
            "trending_series",
            "series that both trend over time correlate whether or not they are related, and successive years are not independent observations, so p-values over time overstate certainty".into(),
        ),
    });
    let ok: Vec<&Cell> = computed.cells.iter().filter(|c| c.status == "ok").collect();
    out.extend(small(&ok, what));
    if ok.len() > 1 {
        out.push(Caveat::new(
            "multiple_comparisons",
            format!(
                "p-values are per cell and not adjusted for the {} cells computed: some will look significant by chance",
                ok.len()
            ),
        ));
    }
    out.extend(flagged(collected, computed, what));
    out.extend(influential(&ok, what));
    if computed.unchecked > 0 {
        out.push(Caveat::new(
            "influential_points_unchecked",
            format!(
                "{} no leave-one-out range: for {} it costs n² steps a cell, and a matrix spends at most {LOO_BUDGET}; name fewer datasets or choose a higher level to have them",
                match computed.unchecked {
                    1 => "1 cell has".to_owned(),
                    n => format!("{n} cells have"),
                },
                method.name()
            ),
        ));
    }
    out.extend(periods(collected));
    let totals: Vec<&str> = collected
        .iter()
        .filter(|c| basis == Basis::CrossSection && series::is_total(&c.variable.unit))
        .map(|c| c.variable.id.as_str())
        .collect();
    if !totals.is_empty() {
        out.push(Caveat::new(
            "totals_not_rates",
            format!(
                "{} are totals, not rates, as asked: across regions they largely measure how big a region is, and correlate with other totals for that reason alone",
                totals.join(", ")
            ),
        ));
    }
    if basis == Basis::TimeSeries {
        out.extend(over_time(collected));
    }
    let editions: BTreeSet<&str> = collected
        .iter()
        .filter_map(|c| c.dataset.nuts_edition.as_deref())
        .collect();
    if editions.len() > 1 || editions.contains("mixed") {
        let each = each_variable(collected, |c| c.dataset.nuts_edition.as_deref());
        out.push(Caveat::new(
            "mixed_nuts_editions",
            format!(
                "the datasets follow different NUTS editions ({each}): a region recoded between editions appears under different codes and pairs only where the code is the same"
            ),
        ));
    }
    out
}

/// `id value, id value, ...` for the variables `value` gives something for.
fn each_variable<'c>(
    collected: &'c [Collected],
    value: impl Fn(&'c Collected) -> Option<&'c str>,
) -> String {
    let each: Vec<String> = collected
        .iter()
        .filter_map(|c| Some(format!("{} {}", c.variable.id, value(c)?)))
        .collect();
    each.join(", ")
}

/// "1 cell", "2 cells".
fn cells(n: usize) -> String {
    match n {
        1 => "1 cell".into(),
        n => format!("{n} cells"),
    }
}

fn cell_names(cells: &[&Cell]) -> serde_json::Value {
    cells
        .iter()
        .map(|c| json!({"x": c.x, "y": c.y, "n": c.n}))
        .collect()
}

/// Cells on few pairs: under 10, the approximations are rough; under 30, intervals are wide.
fn small(ok: &[&Cell], what: &str) -> Vec<Caveat> {
    let mut out = Vec::new();
    let few: Vec<&Cell> = ok.iter().copied().filter(|c| c.n < FEW_PAIRS).collect();
    if !few.is_empty() {
        out.push(Caveat {
            code: "few_pairs",
            message: format!(
                "{} on fewer than {FEW_PAIRS} {what}: their p-values and intervals come from approximations (Student's t, Fisher's z) that are rough that small, and a perfect rank order there gives p = 0",
                cells(few.len())
            ),
            details: Some(json!({"cells": cell_names(&few)})),
        });
    }
    let small: Vec<&Cell> = (ok.iter().copied())
        .filter(|c| (FEW_PAIRS..SMALL_N).contains(&c.n))
        .collect();
    if !small.is_empty() {
        out.push(Caveat {
            code: "small_n",
            message: format!(
                "{} on {FEW_PAIRS} to {} {what}: their intervals are wide, and a single one can move r far (see each cell's leave_one_out)",
                cells(small.len()),
                SMALL_N - 1
            ),
            details: Some(json!({"cells": cell_names(&small)})),
        });
    }
    out
}

/// Variables that flags cost a tenth or more of their regions, and what r would be with them in
/// the cells concerned.
fn flagged(collected: &[Collected], computed: &Computed, what: &str) -> Vec<Caveat> {
    let mut details = Vec::new();
    let mut said = Vec::new();
    for c in collected {
        let of = c.points.len() + c.flag_dropped;
        if c.flag_dropped == 0 || (c.flag_dropped as f64) < FLAGGED_SHARE * of as f64 {
            continue;
        }
        let id = c.variable.id.as_str();
        let mut cells = Vec::new();
        let mut words = Vec::new();
        for (cell, with) in computed.cells.iter().zip(&computed.with_flagged) {
            let (Some(r), Some((r_with, n_with))) = (cell.r, with) else {
                continue;
            };
            if cell.x != id && cell.y != id {
                continue;
            }
            cells.push(
                json!({"x": cell.x, "y": cell.y, "r_without": r, "n_without": cell.n,
                              "r_with": r_with, "n_with": n_with}),
            );
            words.push(format!(
                "{}~{} {r:.2} without (n = {}), {r_with:.2} with them (n = {n_with})",
                cell.x, cell.y, cell.n
            ));
        }
        said.push(format!(
            "{id}: flags (low reliability, confidential) remove {} of {of} {what}{}",
            c.flag_dropped,
            if words.is_empty() {
                String::new()
            } else {
                format!("; r {}", words.join("; "))
            }
        ));
        details.push(json!({"variable": id, "dropped": c.flag_dropped, "of": of, "cells": cells}));
    }
    if details.is_empty() {
        return Vec::new();
    }
    vec![Caveat {
        code: "flagged_values_dropped",
        message: format!(
            "values flagged as unreliable or confidential are left out, and where they are a tenth or more of a variable's {what} the rest may not stand for all: {}",
            said.join(". ")
        ),
        details: Some(json!({"variables": details})),
    }]
}

/// Cells that one region (or period) moves by more than [`INFLUENCE`].
fn influential(ok: &[&Cell], what: &str) -> Vec<Caveat> {
    let moved: Vec<(&Cell, f64)> = ok
        .iter()
        .filter_map(|c| {
            let (r, loo) = (c.r?, c.leave_one_out.as_ref()?);
            (loo.moves(r) > INFLUENCE).then_some((*c, r))
        })
        .collect();
    if moved.is_empty() {
        return Vec::new();
    }
    let words: Vec<String> = moved
        .iter()
        .map(|(c, r)| {
            let loo = c.leave_one_out.as_ref().expect("filtered");
            format!(
                "{}~{} r {r:.2} ranges from {:.2} to {:.2}, {:.2} without {}",
                c.x, c.y, loo.r_min, loo.r_max, loo.r_without, loo.most_influential
            )
        })
        .collect();
    let details: Vec<serde_json::Value> = moved
        .iter()
        .map(|(c, r)| {
            let loo = c.leave_one_out.as_ref().expect("filtered");
            json!({"x": c.x, "y": c.y, "r": r, "r_min": loo.r_min, "r_max": loo.r_max,
                   "most_influential": loo.most_influential, "r_without": loo.r_without})
        })
        .collect();
    let unit = what.trim_end_matches('s');
    vec![Caveat {
        code: "influential_points",
        message: format!(
            "in {} a single {unit} moves r by more than {INFLUENCE}: {}",
            cells(moved.len()),
            words.join("; ")
        ),
        details: Some(json!({"cells": details})),
    }]
}

/// Variables taken at different periods, and those that lag the newest by more than
/// [`STALE_YEARS`].
fn periods(collected: &[Collected]) -> Vec<Caveat> {
    let mut out = Vec::new();
    let periods: BTreeSet<&str> = collected
        .iter()
        .filter_map(|c| c.variable.period.as_deref())
        .collect();
    if periods.len() > 1 {
        let each = each_variable(collected, |c| c.variable.period.as_deref());
        out.push(Caveat::new(
            "different_periods",
            format!("the variables are taken at different periods: {each}"),
        ));
    }
    let Some(newest) = periods.iter().filter_map(|p| year(p)).max() else {
        return out;
    };
    let stale: Vec<(&str, &str, i32)> = collected
        .iter()
        .filter_map(|c| {
            let period = c.variable.period.as_deref()?;
            let lag = newest - year(period)?;
            (lag > STALE_YEARS).then_some((c.variable.id.as_str(), period, lag))
        })
        .collect();
    if !stale.is_empty() {
        let words: Vec<String> = stale
            .iter()
            .map(|(id, period, lag)| format!("{id} ({period}, {lag} years earlier)"))
            .collect();
        out.push(Caveat {
            code: "stale_variable",
            message: format!(
                "taken more than {STALE_YEARS} years before the newest variable ({newest}), at the latest period with enough data: {}; the regions may have changed since",
                words.join(", ")
            ),
            details: Some(json!({
                "newest_year": newest,
                "variables": stale.iter().map(|(id, period, lag)| json!({"variable": id, "period": period, "years_earlier": lag})).collect::<Vec<_>>(),
            })),
        });
    }
    out
}

/// Over time: series cut at a break, and money at current prices.
fn over_time(collected: &[Collected]) -> Vec<Caveat> {
    let mut out = Vec::new();
    let cut: Vec<(&str, &str, usize)> = collected
        .iter()
        .filter_map(|c| {
            let (period, dropped) = c.break_cut.as_ref()?;
            Some((c.variable.id.as_str(), period.as_str(), *dropped))
        })
        .collect();
    if !cut.is_empty() {
        let words: Vec<String> = cut
            .iter()
            .map(|(id, period, dropped)| {
                format!("{id} breaks in {period} ({dropped} periods up to it left out)")
            })
            .collect();
        out.push(Caveat {
            code: "break_in_series",
            message: format!(
                "a series is compared over time only after its last break in series (flag b), where its values are comparable: {}",
                words.join(", ")
            ),
            details: Some(json!({
                "variables": cut.iter().map(|(id, period, dropped)| json!({"variable": id, "break_period": period, "periods_dropped": dropped})).collect::<Vec<_>>(),
            })),
        });
    }
    let current: Vec<&str> = collected
        .iter()
        .filter(|c| c.current_prices)
        .map(|c| c.variable.id.as_str())
        .collect();
    if !current.is_empty() {
        out.push(Caveat::new(
            "current_prices",
            format!(
                "{} are at current prices: over time they grow with inflation too, which any two such series share",
                current.join(", ")
            ),
        ));
    }
    out
}
