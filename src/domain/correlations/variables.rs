//! What a matrix correlates: across which regions (or over which periods), which series of each
//! dataset, and which of their values take part.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::{Basis, Caveat, Dropped, MAX_UNITS, MAX_VARIABLES, MatrixQuery, Variable};
use crate::bundled::Catalogue;
use crate::domain::error::{Error, Rejection};
use crate::domain::regions;
use crate::domain::series::{self, Chosen};
use crate::error_text::shown;
use crate::store::Scoped;
use crate::store::datasets::DatasetRow;
use crate::store::observations::{ObsRow, RowValue};
use crate::store::regions::RegionRow;

/// Deepest NUTS level.
const DEEPEST_LEVEL: i64 = 3;

/// What is correlated across.
pub struct Across {
    pub basis: Basis,
    pub level: Option<i64>,
    pub units: Vec<Unit>,
    /// Why the level is not the next one down, or why no level has enough regions.
    pub caveat: Option<Caveat>,
}

/// A region a cross-section spans (or, for a time series, the region itself).
pub struct Unit {
    pub code: String,
    /// Of NUTS 2021 and of NUTS 2024: a region of a classification in neither (the UK's of NUTS
    /// 2016, statistical regions) counts as of both, a code seen only in data as of neither
    /// (it takes part only where it has data; one of the dataset's edition without a value is
    /// listed as dropped).
    pub in_2021: bool,
    pub in_2024: bool,
}

impl Unit {
    fn of(region: &RegionRow) -> Unit {
        let classified = region.in_classification();
        let in_neither = classified && !region.in_nuts2021 && !region.in_nuts2024;
        Unit {
            code: region.code.clone(),
            in_2021: region.in_nuts2021 || in_neither,
            in_2024: region.in_nuts2024 || in_neither,
        }
    }

    /// Whether a dataset of NUTS `edition` should have a value for it: of that edition, or of
    /// either for a dataset of mixed or unknown codes.
    fn expected_in(&self, edition: Option<&str>) -> bool {
        match edition {
            Some("2021") => self.in_2021,
            Some("2024") => self.in_2024,
            _ => self.in_2021 || self.in_2024,
        }
    }
}

/// How many of `units` a dataset of NUTS `edition` can have values for: of mixed or unknown
/// codes, those of the larger edition (a region recoded between editions counts once).
fn expected(units: &[Unit], edition: Option<&str>) -> usize {
    let count = |edition| {
        units
            .iter()
            .filter(|u| u.expected_in(Some(edition)))
            .count()
    };
    match edition {
        Some(e @ ("2021" | "2024")) => count(e),
        _ => count("2021").max(count("2024")),
    }
}

/// What is correlated across: the subregions at `level` when there are some, else the region
/// itself over time. By default the next level down, or the first below it with at least
/// `min_n` regions of one NUTS edition (Nord-Ovest's four NUTS 2 regions could give no cell;
/// Portugal's ten NUTS 2 codes are five of 2021 and seven of 2024); an explicit level must lie
/// below the region and hold subregions.
pub fn units(
    store: &Scoped,
    region: &RegionRow,
    level: Option<i64>,
    min_n: usize,
) -> Result<Across, Error> {
    let own = region.level;
    let below = |level| -> Result<Vec<Unit>, Error> {
        Ok(descendants(store, region, level)?
            .iter()
            .filter(|r| !regions::is_extra_regio(&r.code))
            .map(Unit::of)
            .collect())
    };
    let cross_section = |level, units: Vec<Unit>, caveat| -> Result<Across, Error> {
        too_many(&units, level)?;
        Ok(Across {
            basis: Basis::CrossSection,
            level: Some(level),
            units,
            caveat,
        })
    };
    let Some(level) = level else {
        let next = own.map_or(DEEPEST_LEVEL + 1, |l| l + 1);
        // The first level with regions, and how many it counts.
        let mut first: Option<(i64, Vec<Unit>, usize)> = None;
        for level in next..=DEEPEST_LEVEL {
            let units = below(level)?;
            if units.is_empty() {
                continue;
            }
            let counted = expected(&units, None);
            if counted >= min_n {
                let caveat = first.map(|(higher, _, had)| {
                    Caveat::new(
                        "level_lowered",
                        format!(
                            "{} has {had} regions at NUTS level {higher}, fewer than min_n = {min_n}: the matrix runs across its {counted} regions at level {level} instead",
                            region.code,
                        ),
                    )
                });
                return cross_section(level, units, caveat);
            }
            first.get_or_insert((level, units, counted));
        }
        return match first {
            Some((level, units, had)) => {
                let caveat = Caveat::new(
                    "too_few_regions",
                    format!(
                        "{} has {had} regions at NUTS level {level} and no level with min_n = {min_n}: no cell can reach min_n pairs",
                        region.code,
                    ),
                );
                cross_section(level, units, Some(caveat))
            }
            None => Ok(Across {
                basis: Basis::TimeSeries,
                level: own,
                units: vec![Unit::of(region)],
                caveat: None,
            }),
        };
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
    let units = below(level)?;
    if units.is_empty() {
        return Err(Rejection::invalid(
            "level",
            format!("{} has no subregions at level {level}", region.code),
        )
        .into());
    }
    cross_section(level, units, None)
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

/// A dataset to correlate and the series taken of it.
pub struct Candidate {
    pub dataset: Arc<DatasetRow>,
    pub series: Chosen,
    pub choice: &'static str,
}

pub struct Candidates {
    pub kept: Vec<Candidate>,
    /// Datasets left out of a default matrix for holding totals only.
    pub totals_left_out: Vec<String>,
    /// The caller named the datasets: each is kept whatever its coverage.
    pub explicit: bool,
}

/// The datasets named (each once, each visible, each with a headline series or a series named
/// in `series`), or every visible dataset with a headline series, public first, a private one
/// replacing a public one of the same code (as everywhere else); and the series of each.
pub fn candidates(store: &Scoped, q: &MatrixQuery, basis: Basis) -> Result<Candidates, Error> {
    let datasets = match &q.datasets {
        None => crate::domain::headline_datasets(store)?,
        Some(named) => named_datasets(store, named, &q.series)?,
    };
    for code in q.series.keys() {
        if !datasets.iter().any(|d| d.code == *code) {
            return Err(Rejection::invalid(
                "series",
                format!(
                    "series names {}, which is not among the matrix's datasets",
                    shown(code)
                ),
            )
            .into());
        }
    }
    let explicit = q.datasets.is_some();
    let mut out = Candidates {
        kept: Vec::with_capacity(datasets.len()),
        totals_left_out: Vec::new(),
        explicit,
    };
    for dataset in datasets {
        if let Some(filters) = q.series.get(&dataset.code) {
            let series = series::select(store, &dataset, filters, Some("series"))?;
            out.kept.push(Candidate {
                dataset,
                series,
                choice: "requested",
            });
            continue;
        }
        let (unit, dims) = dataset.headline().map_err(Error::internal)?.clone();
        let headline = Chosen {
            id: dataset
                .headline_series_id
                .expect("named and default datasets have a headline series"),
            unit,
            dims,
        };
        // Across regions a total mostly measures size; over time it is a figure like any other.
        if basis == Basis::TimeSeries || !series::is_total(&headline.unit) {
            out.kept.push(Candidate {
                dataset,
                series: headline,
                choice: "headline",
            });
            continue;
        }
        let all = store.series_of(dataset.id)?;
        match series::other_unit(&all, &headline, series::rate_rank) {
            Some(rate) => out.kept.push(Candidate {
                dataset,
                series: rate,
                choice: "rate_instead_of_total",
            }),
            None if explicit => out.kept.push(Candidate {
                dataset,
                series: headline,
                choice: "headline",
            }),
            None => out.totals_left_out.push(dataset.code.clone()),
        }
    }
    Ok(out)
}

/// The datasets named, each once and visible, each with a headline series or a series named for
/// it in `series`.
fn named_datasets(
    store: &Scoped,
    named: &[String],
    series: &BTreeMap<String, BTreeMap<String, String>>,
) -> Result<Vec<Arc<DatasetRow>>, Error> {
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
        crate::domain::datasets::held_then(store, &dataset)?;
        if !seen.insert(dataset.id) {
            return Err(Rejection::invalid(
                "datasets",
                format!("dataset {} is named twice", dataset.code),
            )
            .into());
        }
        if dataset.headline_series_id.is_none() && !series.contains_key(&dataset.code) {
            return Err(Rejection::invalid(
                "datasets",
                format!(
                    "dataset {} has no headline series to correlate; name one in `series`",
                    dataset.code
                ),
            )
            .into());
        }
        out.push(dataset);
    }
    Ok(out)
}

/// One variable: its values and what was left out.
pub struct Collected {
    pub dataset: Arc<DatasetRow>,
    pub variable: Variable,
    pub points: Vec<Point>,
    /// Values flags removed that have a number, by key, transformed: r is also computed with
    /// them, to show what removing them changed.
    pub flagged: Vec<(String, f64)>,
    /// Regions (or periods) flags removed, with a number or not.
    pub flag_dropped: usize,
    pub dropped: Vec<Dropped>,
    /// Over time: the period of the series' last break and how many periods before it, with
    /// the break, were left out.
    pub break_cut: Option<(String, usize)>,
    /// Money at current prices (the catalogue says so), whose changes over time include
    /// inflation.
    pub current_prices: bool,
}

/// A value used: the region it is of, the key it pairs on (the region across regions, the
/// period over time), the value correlated (transformed), the value published, and its row.
pub struct Point {
    pub region: String,
    pub key: String,
    pub value: f64,
    pub published: f64,
    pub row: ObsRow,
}

/// A value fit to correlate, or why it is not: published, not confidential, not flagged `u`.
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

/// The variable's values: for a cross-section, each unit's value at the period asked for, or
/// else at the latest period where at least half of the units (and at least `min_n`) have a
/// usable one, or failing that the period where most do; for a time series, every period of the
/// region after the series' last break.
pub fn collect(
    store: &Scoped,
    catalogue: &Catalogue,
    candidate: Candidate,
    across: &Across,
    q: &MatrixQuery,
) -> Result<Collected, Error> {
    let Candidate {
        dataset,
        series,
        choice,
    } = candidate;
    let series_id = series.id;
    let fit = |row: &RowValue| usable(row).and_then(|v| q.transform.apply(v));
    // Every period of every unit is read to choose, and only the rows used are made whole.
    let rows: Vec<(&Unit, Vec<RowValue>)> = across
        .units
        .iter()
        .map(|u| Ok((u, store.series_values(&u.code, series_id)?)))
        .collect::<Result<_, Error>>()?;

    let period = match (across.basis, &q.period) {
        (Basis::TimeSeries, _) => None,
        (Basis::CrossSection, Some(p)) => Some(p.clone()),
        (Basis::CrossSection, None) => {
            let mut usable_at: BTreeMap<&str, usize> = BTreeMap::new();
            for (_, series) in &rows {
                for row in series.iter().filter(|r| fit(r).is_ok()) {
                    *usable_at.entry(row.period.as_str()).or_default() += 1;
                }
            }
            let expected = expected(&across.units, dataset.nuts_edition.as_deref());
            let enough = q.min_n.max(expected.div_ceil(2));
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

    let mut c = Collected {
        current_prices: series::at_current_prices(catalogue, &dataset, &series.unit),
        variable: Variable {
            id: dataset.code.clone(),
            dataset: dataset.code.clone(),
            title: dataset.title.clone(),
            series: series.dims,
            unit: series.unit,
            series_choice: choice,
            period,
            coverage: 0,
        },
        points: Vec::new(),
        flagged: Vec::new(),
        flag_dropped: 0,
        dropped: Vec::new(),
        break_cut: None,
        dataset,
    };
    for (unit, series) in rows {
        let unit_code = &unit.code;
        let mut chosen: Vec<&RowValue> = match &c.variable.period {
            Some(p) => series.iter().filter(|r| r.period == *p).collect(),
            None => series.iter().collect(),
        };
        let expected = unit.expected_in(c.dataset.nuts_edition.as_deref());
        if chosen.is_empty() && across.basis == Basis::CrossSection && expected {
            c.dropped.push(Dropped {
                code: unit_code.clone(),
                variable: c.variable.id.clone(),
                period: None,
                reason: "missing",
            });
        }
        if across.basis == Basis::TimeSeries {
            chosen = after_last_break(&mut c, unit_code, chosen);
        }
        for row in chosen {
            let key = match across.basis {
                Basis::CrossSection => unit_code.clone(),
                Basis::TimeSeries => row.period.to_string(),
            };
            let reason = match fit(row) {
                Ok(value) => {
                    // Read in the same snapshot as its value, so it is there.
                    let whole = store.whole(unit_code, series_id, row)?.ok_or_else(|| {
                        Error::internal(anyhow::anyhow!(
                            "{unit_code}'s row of series {series_id} at {} vanished",
                            row.period
                        ))
                    })?;
                    c.points.push(Point {
                        region: unit_code.clone(),
                        key,
                        value,
                        published: row.value.expect("usable rows have a value"),
                        row: whole,
                    });
                    continue;
                }
                Err(reason) => reason,
            };
            if matches!(reason, "flagged" | "confidential") {
                c.flag_dropped += 1;
                if let Some(value) = row.value.and_then(|v| q.transform.apply(v).ok()) {
                    c.flagged.push((key, value));
                }
            }
            c.dropped.push(Dropped {
                code: unit_code.clone(),
                variable: c.variable.id.clone(),
                period: (across.basis == Basis::TimeSeries).then(|| row.period.to_string()),
                reason,
            });
        }
    }
    c.variable.coverage = c.points.len();
    Ok(c)
}

/// A series over time is compared only within the stretch after its last break in series (a
/// value flagged `b` starts a series its predecessors do not compare with): the rows up to and
/// including that value are listed as dropped, and the rest returned.
fn after_last_break<'r>(
    c: &mut Collected,
    region: &str,
    rows: Vec<&'r RowValue>,
) -> Vec<&'r RowValue> {
    let Some(at) = rows.iter().rposition(|r| r.flags.contains('b')) else {
        return rows;
    };
    c.break_cut = Some((rows[at].period.to_string(), at + 1));
    for (i, row) in rows[..=at].iter().enumerate() {
        c.dropped.push(Dropped {
            code: region.to_owned(),
            variable: c.variable.id.clone(),
            period: Some(row.period.to_string()),
            reason: if i == at {
                "break_in_series"
            } else {
                "before_break"
            },
        });
    }
    rows[at + 1..].to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cross_section_over_more_than_2000_regions_is_refused_naming_level() {
        let units = |n: usize| -> Vec<Unit> {
            (0..n)
                .map(|i| Unit::of(&RegionRow::sample(&format!("R{i}"), "R")))
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
