//! Correlation matrix (`GET /intelligence/correlations/matrix`): one series of each of several
//! datasets, correlated pairwise across a region's subregions (a cross-section) or, for a region
//! without subregions, over the years. Every value that enters a cell is listed with its citation,
//! so anyone can recompute the cell; regions left out say why, and the caveats give the figures a
//! statistician would ask for before believing a cell (how flagged values, single regions and small
//! n move it).

mod caveats;
mod cells;
mod variables;

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::error::{Error, Rejection};
use super::regions::{self, RegionSummary};
use super::stats::{Method, Transform};
use super::{Citer, Sources, number};
use crate::bundled::Catalogue;
use crate::store::Scoped;
use variables::Collected;

/// Variables a matrix holds at most: 20 make 190 cells.
pub const MAX_VARIABLES: usize = 20;
/// Datasets a matrix examines at most (each costs a read per region), kept or not.
pub const MAX_EXAMINED: usize = 40;
/// Regions a cross-section spans at most (NUTS 3 of the largest country: about 400; an account's
/// own codes could add up to 10,000).
pub const MAX_UNITS: usize = 2_000;
pub const DEFAULT_MIN_N: usize = 8;
/// Below three pairs r says nothing and has no p-value.
pub const SMALLEST_MIN_N: usize = 3;

pub struct MatrixQuery {
    pub region: String,
    /// Level of the subregions; default the next level down that holds at least `min_n`.
    pub level: Option<i64>,
    pub method: Method,
    /// Dataset codes whose series are correlated; default every dataset with enough data.
    pub datasets: Option<Vec<String>>,
    /// Series other than the default, by dataset code: dimension values (`unit` among them).
    pub series: BTreeMap<String, BTreeMap<String, String>>,
    /// One period for every variable of a cross-section (canonical form).
    pub period: Option<String>,
    pub transform: Transform,
    pub min_n: usize,
}

#[derive(Debug, Serialize)]
pub struct Matrix {
    pub method: &'static str,
    /// `none`, or `log`: cells correlate the natural logarithms of the inputs' values.
    pub transform: &'static str,
    pub basis: Basis,
    /// Level of the regions correlated (for a time series, the region's own).
    pub level: Option<i64>,
    pub region: RegionSummary,
    pub min_n: usize,
    /// The period asked for, taken for every variable of a cross-section.
    pub period: Option<String>,
    pub variables: Vec<Variable>,
    /// One per pair of variables, in the order of `variables`.
    pub cells: Vec<cells::Cell>,
    /// For each variable id, the values used: one per region (cross-section) or period (time
    /// series), as published (before any transform).
    pub inputs: BTreeMap<String, Vec<Input>>,
    pub regions_used: Vec<String>,
    pub regions_dropped: Vec<Dropped>,
    pub caveats: Vec<Caveat>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Basis {
    CrossSection,
    TimeSeries,
}

#[derive(Debug, Serialize)]
pub struct Variable {
    /// The dataset code, which names the variable in `cells` and `inputs`.
    pub id: String,
    pub dataset: String,
    pub title: String,
    /// Dimension codes of the series (without the unit).
    pub series: BTreeMap<String, String>,
    pub unit: String,
    /// Why this series: `headline` (the dataset's), `requested` (named in `series`), or
    /// `rate_instead_of_total` (the dataset's headline series is a total).
    pub series_choice: &'static str,
    /// Cross-section: the period taken (the one asked for, or the latest at which enough
    /// regions have a usable value).
    pub period: Option<String>,
    /// Values usable (regions for a cross-section, periods for a time series).
    pub coverage: usize,
}

#[derive(Debug, Serialize)]
pub struct Input {
    pub region: String,
    pub period: String,
    #[serde(serialize_with = "number")]
    pub value: f64,
    pub citation: String,
}

#[derive(Debug, Serialize)]
pub struct Dropped {
    pub code: String,
    pub variable: String,
    /// The period concerned (a time series drops periods, not regions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
    /// `missing`, `confidential`, `flagged` (low reliability, flag u), `non_positive` (no
    /// logarithm), `break_in_series` (the value that starts a new series, flag b) or
    /// `before_break` (a value of the series before its last break).
    pub reason: &'static str,
}

/// What a reader must keep in mind about the matrix, with the figures behind it.
#[derive(Debug, Serialize)]
pub struct Caveat {
    pub code: &'static str,
    pub message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub details: Option<serde_json::Value>,
}

impl Caveat {
    fn new(code: &'static str, message: String) -> Caveat {
        Caveat {
            code,
            message,
            details: None,
        }
    }
}

pub fn matrix(
    store: &Scoped,
    catalogue: &Catalogue,
    q: &MatrixQuery,
) -> Result<(Matrix, Sources), Error> {
    if q.min_n < SMALLEST_MIN_N {
        return Err(Rejection::invalid(
            "min_n",
            format!("min_n must be at least {SMALLEST_MIN_N}"),
        )
        .into());
    }
    let _snapshot = store.snapshot()?;
    let region = regions::find(store, &q.region)?;
    let mut across = variables::units(store, &region, q.level, q.min_n)?;
    if across.basis == Basis::TimeSeries && q.period.is_some() {
        return Err(Rejection::invalid(
            "period",
            format!(
                "{} has no subregions, so its matrix runs over time and takes no period",
                region.code
            ),
        )
        .into());
    }
    let chosen = variables::candidates(store, q, across.basis)?;

    let mut caveats = Vec::new();
    caveats.extend(across.caveat.take());
    let mut collected: Vec<Collected> = Vec::new();
    let mut too_little = Vec::new();
    let mut unexamined = 0;
    for (examined, candidate) in chosen.kept.into_iter().enumerate() {
        if collected.len() == MAX_VARIABLES || examined == MAX_EXAMINED {
            unexamined += 1;
            continue;
        }
        let c = variables::collect(store, catalogue, candidate, &across, q)?;
        if !chosen.explicit && c.points.len() < q.min_n {
            too_little.push(c.variable.id.clone());
            continue;
        }
        collected.push(c);
    }
    if !too_little.is_empty() {
        caveats.push(Caveat::new(
            "variables_left_out",
            format!(
                "left out for having fewer than {} usable values here: {}",
                q.min_n,
                too_little.join(", ")
            ),
        ));
    }
    if !chosen.totals_left_out.is_empty() {
        caveats.push(Caveat::new(
            "totals_left_out",
            format!(
                "left out because their only series are totals, which across regions mostly measure size: {} (name them in `datasets` to include them anyway)",
                chosen.totals_left_out.join(", ")
            ),
        ));
    }
    if unexamined > 0 {
        caveats.push(Caveat::new(
            "datasets_not_examined",
            format!(
                "a matrix holds at most {MAX_VARIABLES} variables and examines at most {MAX_EXAMINED} datasets; {unexamined} more were not examined (name them in `datasets`)"
            ),
        ));
    }

    let values: Vec<cells::Values> = collected.iter().map(cells::Values::from).collect();
    let computed = cells::compute(&values, q.method, q.min_n);
    caveats.extend(caveats::of(across.basis, &collected, &computed, q.method));
    // Only the variables kept are cited.
    let mut citer = Citer::new(store, catalogue);
    citer.cite_region(&region);
    let mut regions_used = BTreeSet::new();
    let mut inputs = BTreeMap::new();
    let mut regions_dropped = Vec::new();
    let mut variables = Vec::new();
    for c in collected {
        let mut cited = Vec::with_capacity(c.points.len());
        for p in &c.points {
            regions_used.insert(p.region.clone());
            cited.push(Input {
                citation: citer
                    .cite(&c.dataset, &p.region, &p.row)?
                    .citation
                    .to_string(),
                region: p.region.clone(),
                period: p.row.period.to_string(),
                value: p.published,
            });
        }
        inputs.insert(c.variable.id.clone(), cited);
        regions_dropped.extend(c.dropped);
        variables.push(c.variable);
    }
    Ok((
        Matrix {
            method: q.method.name(),
            transform: q.transform.name(),
            basis: across.basis,
            level: across.level,
            region: regions::summary(&region),
            min_n: q.min_n,
            period: q.period.clone(),
            variables,
            cells: computed.cells,
            inputs,
            regions_used: regions_used.into_iter().collect(),
            regions_dropped,
            caveats,
        },
        citer.sources,
    ))
}
