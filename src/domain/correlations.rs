//! Correlation matrix (spec endpoint 5): the headline series of several datasets, correlated
//! pairwise across a region's subregions (a cross-section) or, for a region without subregions,
//! over the years. Every value that enters a cell is listed with its citation, so anyone can
//! recompute the cell; regions left out say why.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

use serde::Serialize;

use super::error::{Error, Rejection};
use super::regions::{self, RegionSummary};
use super::stats::{self, Method, NoCorrelation};
use super::{Citer, Sources, Warning, number};
use crate::catalogue::Catalogue;
use crate::error::shown;
use crate::store::Scoped;
use crate::store::datasets::DatasetRow;
use crate::store::observations::{ObsRow, RowValue};
use crate::store::regions::RegionRow;

/// Variables a matrix holds at most: 20 make 190 cells.
pub const MAX_VARIABLES: usize = 20;
/// Datasets a matrix examines at most (each costs a read per region), kept or not.
pub const MAX_EXAMINED: usize = 40;
/// Regions a cross-section spans at most (NUTS 3 of the largest country: about 400; an account's
/// own codes could add up to 10,000).
pub const MAX_UNITS: usize = 2_000;
/// Below this many pairs, the t and Fisher z approximations behind p-values and intervals are
/// rough.
const FEW_PAIRS: usize = 10;
pub const DEFAULT_MIN_N: usize = 8;
/// Below three pairs r says nothing and has no p-value.
pub const SMALLEST_MIN_N: usize = 3;
/// Deepest NUTS level.
const DEEPEST_LEVEL: i64 = 3;

pub struct MatrixQuery {
    pub region: String,
    /// Level of the subregions; default the next level down.
    pub level: Option<i64>,
    pub method: Method,
    /// Dataset codes whose headline series are correlated; default every dataset with enough data.
    pub datasets: Option<Vec<String>>,
    pub min_n: usize,
}

#[derive(Debug, Serialize)]
pub struct Matrix {
    pub method: &'static str,
    pub basis: Basis,
    /// Level of the regions correlated (for a time series, the region's own).
    pub level: Option<i64>,
    pub region: RegionSummary,
    pub min_n: usize,
    pub variables: Vec<Variable>,
    /// One per pair of variables, in the order of `variables`.
    pub cells: Vec<Cell>,
    /// For each variable id, the values used: one per region (cross-section) or period (time
    /// series).
    pub inputs: BTreeMap<String, Vec<Input>>,
    pub regions_used: Vec<String>,
    pub regions_dropped: Vec<Dropped>,
    pub caveats: Vec<Warning>,
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
    /// Dimension codes of the headline series (without the unit).
    pub series: BTreeMap<String, String>,
    pub unit: String,
    /// Cross-section: the period taken, the latest at which enough regions have a usable value.
    pub period: Option<String>,
    /// Values usable (regions for a cross-section, periods for a time series).
    pub coverage: usize,
}

#[derive(Debug, Serialize)]
pub struct Cell {
    pub x: String,
    pub y: String,
    /// Regions (or periods) with a usable value of both variables.
    pub n: usize,
    /// `ok`; `insufficient_data` below `min_n` pairs; `constant_input` when a variable has the
    /// same value at every pair (r is undefined).
    pub status: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_value: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ci95: Option<[f64; 2]>,
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
    /// `missing`, `confidential` or `flagged` (low reliability, flag u).
    pub reason: &'static str,
}

/// A value fit to correlate, or why it is not.
fn usable(row: &RowValue) -> Result<f64, &'static str> {
    if row.is_confidential() {
        return Err("confidential");
    }
    let value = row.value.ok_or("missing")?;
    if row.flags.contains('u') {
        return Err("flagged");
    }
    Ok(value)
}

/// One variable: its values and what was left out.
struct Collected<'d> {
    dataset: &'d DatasetRow,
    variable: Variable,
    points: Vec<Point>,
    dropped: Vec<Dropped>,
}

/// A value used, the key it pairs on (the region across regions, the period over time) and its
/// row (cited once the variable is kept).
struct Point {
    region: String,
    value: f64,
    key: String,
    row: ObsRow,
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
    let (basis, level, units) = units(store, &region, q.level)?;
    let candidates = candidates(store, q.datasets.as_deref())?;
    let explicit = q.datasets.is_some();

    let mut collected: Vec<Collected> = Vec::new();
    let mut caveats = Vec::new();
    let mut too_little = Vec::new();
    let mut unexamined = 0;
    for (examined, dataset) in candidates.iter().enumerate() {
        if collected.len() == MAX_VARIABLES || examined == MAX_EXAMINED {
            unexamined += 1;
            continue;
        }
        let c = collect(store, dataset, basis, &units, q.min_n)?;
        if !explicit && c.points.len() < q.min_n {
            too_little.push(dataset.code.clone());
            continue;
        }
        collected.push(c);
    }
    if !too_little.is_empty() {
        caveats.push(Warning {
            code: "variables_left_out",
            message: format!(
                "left out for having fewer than {} usable values here: {}",
                q.min_n,
                too_little.join(", ")
            ),
        });
    }
    if unexamined > 0 {
        caveats.push(Warning {
            code: "datasets_not_examined",
            message: format!(
                "a matrix holds at most {MAX_VARIABLES} variables and examines at most {MAX_EXAMINED} datasets; {unexamined} more were not examined (name them in `datasets`)"
            ),
        });
    }

    let cells = cells(&collected, q.method, q.min_n);
    caveats.extend(caveats_of(basis, &collected, &cells));
    // Only the variables kept are cited.
    let mut citer = Citer::new(store, catalogue);
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
                    .cite(c.dataset, &p.region, &p.row)?
                    .citation
                    .to_string(),
                region: p.region.clone(),
                period: p.row.period.to_string(),
                value: p.value,
            });
        }
        inputs.insert(c.variable.id.clone(), cited);
        regions_dropped.extend(c.dropped);
        variables.push(c.variable);
    }
    Ok((
        Matrix {
            method: q.method.name(),
            basis,
            level,
            region: regions::summary(&region),
            min_n: q.min_n,
            variables,
            cells,
            inputs,
            regions_used: regions_used.into_iter().collect(),
            regions_dropped,
            caveats,
        },
        citer.sources,
    ))
}

/// What a matrix correlates across: regions, or one region's periods.
struct Unit {
    code: String,
    /// In a classification regintel ships (not a code seen only in data): such a region without
    /// a value is listed as dropped; a code of an earlier edition takes part only where it has
    /// data.
    classified: bool,
}

/// What is correlated across: the subregions at `level` (default the next level down) when there
/// are some, else the region itself over time. An explicit level must lie below the region and
/// hold subregions.
fn units(
    store: &Scoped,
    region: &RegionRow,
    level: Option<i64>,
) -> Result<(Basis, Option<i64>, Vec<Unit>), Error> {
    let own = region.level;
    let below = |level| -> Result<Vec<Unit>, Error> {
        Ok(descendants(store, region, level)?
            .iter()
            .filter(|r| !regions::is_extra_regio(&r.code))
            .map(|r| Unit {
                code: r.code.clone(),
                classified: regions::summary(r).in_classification,
            })
            .collect())
    };
    let time_series = || {
        let unit = Unit {
            code: region.code.clone(),
            classified: true,
        };
        (Basis::TimeSeries, own, vec![unit])
    };
    let Some(level) = level else {
        let next = own.map(|l| l + 1).filter(|l| *l <= DEEPEST_LEVEL);
        return Ok(match next {
            Some(next) => {
                let below = below(next)?;
                if below.is_empty() {
                    time_series()
                } else {
                    too_many(&below, next)?;
                    (Basis::CrossSection, Some(next), below)
                }
            }
            None => time_series(),
        });
    };
    if own.is_some_and(|own| level <= own) {
        return Err(Rejection::invalid(
            "level",
            format!(
                "level must lie below {}'s own level {}",
                region.code,
                own.unwrap_or_default()
            ),
        )
        .into());
    }
    let below = below(level)?;
    if below.is_empty() {
        return Err(Rejection::invalid(
            "level",
            format!("{} has no subregions at level {level}", region.code),
        )
        .into());
    }
    too_many(&below, level)?;
    Ok((Basis::CrossSection, Some(level), below))
}

/// A cross-section over more than [`MAX_UNITS`] regions is refused: each costs a read per
/// variable.
fn too_many(units: &[Unit], level: i64) -> Result<(), Error> {
    if units.len() > MAX_UNITS {
        return Err(Rejection::invalid(
            "level",
            format!(
                "{} regions at level {level}: a cross-section spans at most {MAX_UNITS}; choose a smaller region or a higher level",
                units.len()
            ),
        )
        .into());
    }
    Ok(())
}

/// The regions below `region` at `level`, one level of parent links at a time (at most three
/// steps: levels run from 0 to 3), in code order.
fn descendants(store: &Scoped, region: &RegionRow, level: i64) -> Result<Vec<RegionRow>, Error> {
    let mut frontier = vec![region.clone()];
    for _ in region.level.unwrap_or(0)..level {
        let mut next = Vec::new();
        for parent in &frontier {
            next.extend(store.subregions(&parent.code)?);
        }
        frontier = next;
    }
    frontier.retain(|r| r.level == Some(level));
    frontier.sort_by(|a, b| a.code.cmp(&b.code));
    Ok(frontier)
}

/// The datasets named (each once, each visible, each with a headline series), or every visible
/// dataset with a headline series, public first, a private one replacing a public one of the
/// same code (as everywhere else).
fn candidates(store: &Scoped, named: Option<&[String]>) -> Result<Vec<Arc<DatasetRow>>, Error> {
    let Some(named) = named else {
        return super::headline_datasets(store);
    };
    if named.len() > MAX_VARIABLES {
        return Err(Rejection::invalid(
            "datasets",
            format!("name at most {MAX_VARIABLES} datasets, not {}", named.len()),
        )
        .into());
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::with_capacity(named.len());
    for code in named {
        let dataset = store.dataset(code)?.ok_or_else(|| {
            Rejection::invalid("datasets", format!("no dataset with code {}", shown(code)))
        })?;
        if !seen.insert(dataset.id) {
            return Err(Rejection::invalid(
                "datasets",
                format!("dataset {} is named twice", dataset.code),
            )
            .into());
        }
        if dataset.headline_series_id.is_none() {
            return Err(Rejection::invalid(
                "datasets",
                format!(
                    "dataset {} has no headline series to correlate",
                    dataset.code
                ),
            )
            .into());
        }
        out.push(dataset);
    }
    Ok(out)
}

/// The variable's values: for a cross-section, each unit's value at the latest period where at
/// least half of the units (and at least `min_n`) have a usable one, or failing that the period
/// where most do; for a time series, every period of the region.
fn collect<'d>(
    store: &Scoped,
    dataset: &'d DatasetRow,
    basis: Basis,
    units: &[Unit],
    min_n: usize,
) -> Result<Collected<'d>, Error> {
    let series_id = dataset
        .headline_series_id
        .expect("candidates have a headline series");
    let (unit, headline) = dataset.headline().map_err(Error::internal)?.clone();
    // Every period of every unit is read to choose, and only the rows used are made whole.
    let rows: Vec<(&Unit, Vec<RowValue>)> = units
        .iter()
        .map(|u| Ok((u, store.series_values(&u.code, series_id)?)))
        .collect::<Result<_, Error>>()?;

    let period = match basis {
        Basis::TimeSeries => None,
        Basis::CrossSection => {
            let mut usable_at: BTreeMap<&str, usize> = BTreeMap::new();
            for (_, series) in &rows {
                for row in series.iter().filter(|r| usable(r).is_ok()) {
                    *usable_at.entry(row.period.as_str()).or_default() += 1;
                }
            }
            let classified = units.iter().filter(|u| u.classified).count();
            let enough = min_n.max(classified.div_ceil(2));
            let latest_enough = usable_at
                .iter()
                .rev()
                .find(|(_, n)| **n >= enough)
                .map(|(p, _)| *p);
            // Failing that, the latest of the best-covered periods (`max_by_key` keeps the last
            // of equals, and periods ascend).
            let best = || usable_at.iter().max_by_key(|(_, n)| **n).map(|(p, _)| *p);
            latest_enough.or_else(best).map(str::to_owned)
        }
    };

    let mut points = Vec::new();
    let mut dropped = Vec::new();
    for (unit, series) in rows {
        let unit_code = &unit.code;
        let chosen: Vec<&RowValue> = match &period {
            Some(p) => series.iter().filter(|r| r.period == *p).collect(),
            None => series.iter().collect(),
        };
        if chosen.is_empty() && basis == Basis::CrossSection && unit.classified {
            dropped.push(Dropped {
                code: unit_code.clone(),
                variable: dataset.code.clone(),
                period: None,
                reason: "missing",
            });
        }
        for row in chosen {
            match usable(row) {
                Ok(value) => {
                    let key = match basis {
                        Basis::CrossSection => unit_code.clone(),
                        Basis::TimeSeries => row.period.to_string(),
                    };
                    // Read in the same snapshot as its value, so it is there.
                    let whole = store.whole(unit_code, series_id, row)?.ok_or_else(|| {
                        Error::internal(anyhow::anyhow!(
                            "{unit_code}'s row of series {series_id} at {} vanished",
                            row.period
                        ))
                    })?;
                    points.push(Point {
                        region: unit_code.clone(),
                        value,
                        key,
                        row: whole,
                    });
                }
                Err(reason) => dropped.push(Dropped {
                    code: unit_code.clone(),
                    variable: dataset.code.clone(),
                    period: (basis == Basis::TimeSeries).then(|| row.period.to_string()),
                    reason,
                }),
            }
        }
    }
    Ok(Collected {
        dataset,
        variable: Variable {
            id: dataset.code.clone(),
            dataset: dataset.code.clone(),
            title: dataset.title.clone(),
            series: headline,
            unit,
            period,
            coverage: points.len(),
        },
        points,
        dropped,
    })
}

/// Each pair of variables once, over the keys (regions or periods) both have.
fn cells(collected: &[Collected], method: Method, min_n: usize) -> Vec<Cell> {
    // Each variable's values by key, built once, not once per pair.
    let by_key: Vec<HashMap<&str, f64>> = collected
        .iter()
        .map(|c| c.points.iter().map(|p| (p.key.as_str(), p.value)).collect())
        .collect();
    let mut cells = Vec::new();
    for (i, a) in collected.iter().enumerate() {
        for (j, b) in collected.iter().enumerate().skip(i + 1) {
            let by_key = &by_key[j];
            let (x, y): (Vec<f64>, Vec<f64>) = a
                .points
                .iter()
                .filter_map(|p| by_key.get(p.key.as_str()).map(|v| (p.value, *v)))
                .unzip();
            let mut cell = Cell {
                x: a.variable.id.clone(),
                y: b.variable.id.clone(),
                n: x.len(),
                status: "insufficient_data",
                r: None,
                p_value: None,
                ci95: None,
            };
            if cell.n >= min_n {
                match stats::correlate(method, &x, &y) {
                    Ok(c) => {
                        cell.status = "ok";
                        cell.r = Some(c.r);
                        cell.p_value = Some(c.p_value);
                        cell.ci95 = c.ci95;
                    }
                    Err(NoCorrelation::Constant) => cell.status = "constant_input",
                    Err(NoCorrelation::TooFew) => {}
                }
            }
            cells.push(cell);
        }
    }
    cells
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

/// What a reader must keep in mind about this matrix.
fn caveats_of(basis: Basis, collected: &[Collected], computed: &[Cell]) -> Vec<Warning> {
    let mut caveats = Vec::new();
    let mut say = |code, message: String| caveats.push(Warning { code, message });
    match basis {
        Basis::CrossSection => say(
            "ecological_inference",
            "these correlations describe regions, not the people or firms in them: a relation between regional figures need not hold for individuals (ecological inference), and neither shows cause".into(),
        ),
        Basis::TimeSeries => say(
            "trending_series",
            "series that both trend over time correlate whether or not they are related, and successive years are not independent observations, so p-values over time overstate certainty".into(),
        ),
    }
    if computed.iter().any(|c| c.status == "ok" && c.n < FEW_PAIRS) {
        say(
            "few_pairs",
            format!(
                "some cells rest on fewer than {FEW_PAIRS} pairs: their p-values and intervals come from approximations (Student's t, Fisher's z) that are rough that small, and a perfect rank order there gives p = 0"
            ),
        );
    }
    let cells = computed.len();
    if cells > 1 {
        say(
            "multiple_comparisons",
            format!(
                "p-values are per cell and not adjusted for the {cells} cells computed: some will look significant by chance"
            ),
        );
    }
    let periods: BTreeSet<&str> = collected
        .iter()
        .filter_map(|c| c.variable.period.as_deref())
        .collect();
    if periods.len() > 1 {
        let each = each_variable(collected, |c| c.variable.period.as_deref());
        say(
            "different_periods",
            format!("the variables are taken at different periods: {each}"),
        );
    }
    let totals: Vec<&str> = collected
        .iter()
        .filter(|c| basis == Basis::CrossSection && super::is_total(&c.variable.unit))
        .map(|c| c.variable.id.as_str())
        .collect();
    if !totals.is_empty() {
        say(
            "size_effects",
            format!(
                "{} are totals, not rates: across regions they largely measure how big a region is, and correlate with other totals for that reason alone",
                totals.join(", ")
            ),
        );
    }
    let flagged = |flag: char| -> Vec<&str> {
        collected
            .iter()
            .filter(|c| c.points.iter().any(|p| p.row.flags.contains(flag)))
            .map(|c| c.variable.id.as_str())
            .collect()
    };
    let breaks = flagged('b');
    if !breaks.is_empty() {
        say(
            "break_in_series",
            format!(
                "some values used carry flag b (break in time series): {}",
                breaks.join(", ")
            ),
        );
    }
    let editions: BTreeSet<&str> = collected
        .iter()
        .filter_map(|c| c.dataset.nuts_edition.as_deref())
        .collect();
    if editions.len() > 1 || editions.contains("mixed") {
        let each = each_variable(collected, |c| c.dataset.nuts_edition.as_deref());
        say(
            "mixed_nuts_editions",
            format!(
                "the datasets follow different NUTS editions ({each}): a region recoded between editions appears under different codes and pairs only where the code is the same"
            ),
        );
    }
    caveats
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cross_section_over_more_than_2000_regions_is_refused_naming_level() {
        let units = |n: usize| -> Vec<Unit> {
            (0..n)
                .map(|i| Unit {
                    code: format!("R{i}"),
                    classified: true,
                })
                .collect()
        };
        assert!(too_many(&units(MAX_UNITS), 3).is_ok());
        match too_many(&units(MAX_UNITS + 1), 3) {
            Err(Error::Rejected(Rejection::InvalidParameter { parameter, message })) => {
                assert_eq!(parameter, "level");
                assert!(message.starts_with("2001 regions at level 3"), "{message}");
            }
            other => panic!("not refused: {other:?}"),
        }
    }
}
