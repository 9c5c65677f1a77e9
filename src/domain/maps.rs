//! A map's figures: one series of a dataset for every region of one NUTS level at one period,
//! each value cited, and how well the period covers the level.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use super::compare::DatasetRef;
use super::error::{Error, Rejection};
use super::{Cited, Warning};
use crate::bundled::Catalogue;
use crate::store::Scoped;
use crate::store::regions::RegionRow;

/// The share of a level's regions (those with any row of the series) a period must have values
/// for to be the default: below it a map is mostly holes.
pub const COVERAGE: f64 = 0.8;
/// The level a map shows unless asked: NUTS 2, the level of most regional statistics.
pub const DEFAULT_LEVEL: i64 = 2;

pub struct MapQuery {
    pub dataset: String,
    pub level: Option<i64>,
    pub period: Option<String>,
    /// `unit` and dimension values that replace the headline series' ones.
    pub filters: BTreeMap<String, String>,
}

pub struct MapFigures {
    pub dataset: DatasetRef,
    pub level: i64,
    /// Null when no region of the level has a row of the series.
    pub period: Option<String>,
    /// `requested`; `coverage` (the latest period with values for [`COVERAGE`] of the
    /// regions); `best_coverage` (no period reaches it: the one with the most values).
    pub period_basis: &'static str,
    /// Every period with a value, oldest first, and how many regions have one.
    pub periods: Vec<(String, usize)>,
    /// Regions of the level with any row of the series: the coverage's denominator.
    pub regions_with_series: usize,
    /// Regions with a row at the period (its value may be a flagged gap), in code order.
    pub values: Vec<(Arc<RegionRow>, Cited)>,
    pub warnings: Vec<Warning>,
}

pub fn figures(store: &Scoped, catalogue: &Catalogue, q: &MapQuery) -> Result<MapFigures, Error> {
    let level = q.level.unwrap_or(DEFAULT_LEVEL);
    if !(0..=3).contains(&level) {
        return Err(Rejection::invalid("level", "level is a NUTS level, 0 to 3").into());
    }
    let _snapshot = store.snapshot()?;
    let dataset = super::datasets::dataset(store, &q.dataset)?;
    let chosen = super::series::select(store, &dataset, &q.filters, None)?;
    let unit_label = dataset
        .label("unit", &chosen.unit)
        .map_err(Error::internal)?
        .map(str::to_owned);

    let regions = store
        .regions_matching((Some(level), None), None, None, usize::MAX)?
        .page;
    // Counted without reading any row whole: only the shown period's rows are read and cited.
    let coverage = store.series_coverage(chosen.id, regions.iter().map(|r| r.code.as_str()))?;
    let with_series = coverage.regions.len();
    let needed = (COVERAGE * with_series as f64).ceil() as usize;
    let counts = &coverage.periods;
    let (period, basis) = match &q.period {
        Some(p) => (Some(p.clone()), "requested"),
        None => match counts.iter().rev().find(|(_, n)| *n >= needed.max(1)) {
            Some((p, _)) => (Some(p.to_string()), "coverage"),
            None => (
                // The last of the largest: the latest period on a tie.
                counts
                    .iter()
                    .max_by_key(|(_, n)| *n)
                    .map(|(p, _)| p.to_string()),
                "best_coverage",
            ),
        },
    };
    let periods: Vec<(String, usize)> = counts.iter().map(|(p, n)| (p.to_string(), *n)).collect();

    // A page lists its citations beside each value, not in an answer's `meta`: no Citer.
    let mut values = Vec::new();
    if let Some(period) = &period {
        for (k, region) in coverage.regions.iter().map(|&at| &regions[at]).enumerate() {
            // The row as read to be counted, or from memory.
            let row = match coverage.rows.get(k) {
                Some(rows) => rows.iter().find(|r| r.period == *period).cloned(),
                None => store.value_at(&region.code, chosen.id, period)?,
            };
            let Some(row) = row else {
                continue;
            };
            let cited = Cited {
                flags: super::explain_flags(catalogue, &row.flags, &row.conf_status),
                period: row.period,
                value: row.value,
                citation: row.citation_id,
            };
            values.push((Arc::clone(region), cited));
        }
    }
    let mut warnings = Vec::new();
    let shown = values.iter().filter(|(_, c)| c.value.is_some()).count();
    let latest = periods.last().map(|(p, n)| format!("{p} ({n} values)"));
    match (basis, &period, &latest) {
        ("best_coverage", Some(_), Some(latest)) => warnings.push(Warning {
            code: "low_coverage",
            message: format!(
                "no period has values for {:.0} % of the {with_series} regions with this series; \
                 the period with the most values is shown ({shown}); the latest is {latest}",
                COVERAGE * 100.0
            ),
        }),
        ("requested", Some(p), latest) if shown == 0 => warnings.push(Warning {
            code: "no_values",
            message: format!(
                "no region of this level has a value in {p}{}",
                latest
                    .as_deref()
                    .map(|l| format!("; the latest period with values is {l}"))
                    .unwrap_or_default()
            ),
        }),
        _ => {}
    }
    let mut flagged: Vec<(&str, usize)> = values
        .iter()
        .flat_map(|(_, c)| c.flags.iter())
        .filter(|f| super::is_noteworthy_flag(&f.code))
        .fold(HashMap::new(), |mut m: HashMap<&str, usize>, f| {
            *m.entry(f.meaning.as_str()).or_default() += 1;
            m
        })
        .into_iter()
        .collect();
    if !flagged.is_empty() {
        // The most frequent first.
        flagged.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        let listed: Vec<String> = flagged
            .iter()
            .map(|(meaning, n)| format!("{n} {meaning}"))
            .collect();
        warnings.push(Warning {
            code: "flagged_values",
            message: format!("flagged values on the map: {}", listed.join(", ")),
        });
    }
    Ok(MapFigures {
        dataset: DatasetRef {
            code: dataset.code.clone(),
            title: dataset.title.clone(),
            unit: chosen.unit,
            unit_label,
            series: chosen.dims,
        },
        level,
        period,
        period_basis: basis,
        periods,
        regions_with_series: with_series,
        values,
        warnings,
    })
}
