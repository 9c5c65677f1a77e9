//! Comparison (`GET /compare`): one series of one dataset for 2 to 50 regions, the value at the
//! latest period they all have (or a requested one), derived figures with the rows they come from,
//! and warnings where the regions are not strictly comparable.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use super::error::{Error, Rejection};
use super::regions;
use super::{Cited, Citer, Derived, Sources, Warning, decimals, round_to};
use crate::bundled::Catalogue;
use crate::citation_id::CitationId;
use crate::json_text;
use crate::store::Scoped;
use crate::store::observations::ObsRow;
use crate::store::regions::RegionRow;

pub const MIN_REGIONS: usize = 2;
pub const MAX_REGIONS: usize = 50;

pub struct CompareQuery {
    pub regions: Vec<String>,
    pub dataset: String,
    pub period: Option<String>,
    /// `unit` and dimension values that replace the headline series' ones.
    pub filters: BTreeMap<String, String>,
}

/// A comparison. Answers write it with [`Comparison::write_json`]; its `Serialize` is what that
/// is tested against.
#[derive(Debug)]
#[cfg_attr(test, derive(Serialize))]
pub struct Comparison {
    pub dataset: DatasetRef,
    /// The period compared; null when the regions have no period in common.
    pub period: Option<String>,
    /// `requested`, `latest_common`, or `latest_each` when there is no common period.
    pub period_basis: &'static str,
    pub regions: Vec<RegionValues>,
    /// Differences and ratios against the first region, and the ranking.
    pub derived: Vec<Derived>,
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Serialize)]
pub struct DatasetRef {
    pub code: String,
    pub title: String,
    pub unit: String,
    pub unit_label: Option<String>,
    pub series: BTreeMap<String, String>,
}

#[derive(Debug)]
#[cfg_attr(test, derive(Serialize))]
pub struct RegionValues {
    /// Shown as its summary ([`regions::summary_text`]).
    #[cfg_attr(test, serde(serialize_with = "regions::shown_summary"))]
    pub region: Arc<RegionRow>,
    /// The value at the compared period (for `latest_each`, the region's own latest).
    pub value: Option<Cited>,
    /// Rank by value at the compared period, 1 = highest; ties share a rank.
    pub rank: Option<usize>,
    pub series: Vec<Cited>,
}

impl Comparison {
    /// The comparison as JSON text, byte for byte what serde_json writes for it; its cited values
    /// by [`Cited::write_json`].
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"dataset\":");
        json_text::append(out, &self.dataset)?;
        out.extend_from_slice(b",\"period\":");
        json_text::push_opt_str(out, self.period.as_deref());
        out.extend_from_slice(b",\"period_basis\":");
        json_text::push_str(out, self.period_basis);
        out.extend_from_slice(b",\"regions\":[");
        for (i, region) in self.regions.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            region.write_json(out)?;
        }
        out.extend_from_slice(b"],\"derived\":");
        json_text::append(out, &self.derived)?;
        out.extend_from_slice(b",\"warnings\":");
        json_text::append(out, &self.warnings)?;
        out.push(b'}');
        Ok(())
    }
}

impl RegionValues {
    fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(b"{\"region\":");
        out.extend_from_slice(regions::summary_text(&self.region).get().as_bytes());
        out.extend_from_slice(b",\"value\":");
        Cited::write_opt(self.value.as_ref(), out);
        out.extend_from_slice(b",\"rank\":");
        match self.rank {
            Some(rank) => json_text::push_int(out, rank),
            None => out.extend_from_slice(b"null"),
        }
        out.extend_from_slice(b",\"series\":");
        Cited::write_list(&self.series, out);
        out.push(b'}');
        Ok(())
    }
}

pub fn compare(
    store: &Scoped,
    catalogue: &Catalogue,
    q: &CompareQuery,
) -> Result<(Comparison, Sources), Error> {
    if !(MIN_REGIONS..=MAX_REGIONS).contains(&q.regions.len()) {
        return Err(Rejection::invalid(
            "regions",
            format!(
                "give between {MIN_REGIONS} and {MAX_REGIONS} comma-separated region codes, not {}",
                q.regions.len()
            ),
        )
        .into());
    }
    let _snapshot = store.snapshot()?;
    // Codes as published, whatever case they were asked in.
    let found = q
        .regions
        .iter()
        .map(|code| regions::find(store, code))
        .collect::<Result<Vec<_>, _>>()?;
    let mut seen = BTreeSet::new();
    if let Some(dup) = found.iter().find(|r| !seen.insert(r.code.as_str())) {
        return Err(
            Rejection::invalid("regions", format!("region {} is listed twice", dup.code)).into(),
        );
    }
    let dataset = super::datasets::dataset(store, &q.dataset)?;
    let super::series::Chosen {
        id: series_id,
        unit,
        dims: series,
    } = super::series::select(store, &dataset, &q.filters, None)?;
    let unit_label = dataset
        .label("unit", &unit)
        .map_err(Error::internal)?
        .map(str::to_owned);

    let mut rows: Vec<Vec<ObsRow>> = Vec::with_capacity(found.len());
    for region in &found {
        rows.push(store.series_rows(&region.code, series_id)?);
    }

    /// A region's periods with a value, in order (as its rows mostly come already).
    fn with_value(r: &[ObsRow]) -> Vec<&str> {
        // Made at the size of all the rows: collected from a filter, the list grew step by step.
        let mut periods = Vec::with_capacity(r.len());
        periods.extend((r.iter().filter(|o| o.value.is_some())).map(|o| o.period.as_str()));
        periods.sort_unstable();
        periods
    }
    let (period, basis) = match &q.period {
        Some(p) => (Some(p.clone()), "requested"),
        None => {
            // The latest period of the first region that every other one has too: sorted lists
            // searched, where sets built and intersected took a tenth of a comparison.
            let others: Vec<Vec<&str>> = rows[1..].iter().map(|r| with_value(r)).collect();
            let latest = (with_value(&rows[0]).into_iter().rev())
                .find(|p| others.iter().all(|o| o.binary_search(p).is_ok()));
            match latest {
                Some(p) => (Some(p.to_owned()), "latest_common"),
                None => (None, "latest_each"),
            }
        }
    };

    let mut citer = Citer::new(store, catalogue);
    for region in &found {
        citer.cite_region(region);
    }
    let mut out = Vec::with_capacity(rows.len());
    let mut warnings = Vec::new();
    let mut missing = Vec::new();
    for (region, region_rows) in found.into_iter().zip(&rows) {
        let chosen = match &period {
            Some(p) => region_rows.iter().position(|o| o.period == *p),
            None => region_rows.iter().rposition(|o| o.value.is_some()),
        };
        let series_values = citer.cite_all(&dataset, &region.code, region_rows)?;
        // One of the series' rows, cited there already.
        let value = chosen.map(|at| series_values[at].clone());
        if value.as_ref().and_then(|v| v.value).is_none() {
            missing.push(region.code.clone());
        }
        if let Some(v) = &value {
            let noteworthy: Vec<String> = v
                .flags
                .iter()
                .filter(|f| super::is_noteworthy_flag(&f.code))
                .map(|f| [&f.code, " (", &f.meaning, ")"].concat())
                .collect();
            if !noteworthy.is_empty() {
                warnings.push(Warning {
                    code: "flagged_value",
                    message: format!("{} {}: {}", region.code, v.period, noteworthy.join(", ")),
                });
            }
        }
        out.push(RegionValues {
            region,
            value,
            rank: None,
            series: series_values,
        });
    }

    if basis == "latest_each" {
        warnings.push(Warning {
            code: "no_common_period",
            message: "the regions have no period with values for all of them; each region's own latest value is shown".into(),
        });
    }
    if !missing.is_empty() {
        warnings.push(Warning {
            code: "missing_value",
            message: format!(
                "no value for {}{}",
                missing.join(", "),
                period
                    .as_deref()
                    .map(|p| format!(" in {p}"))
                    .unwrap_or_default()
            ),
        });
    }
    warnings.extend(comparability_warnings(&out));
    let derived = derive(&mut out, &rows);

    Ok((
        Comparison {
            dataset: DatasetRef {
                code: dataset.code.clone(),
                title: dataset.title.clone(),
                unit_label,
                unit,
                series,
            },
            period,
            period_basis: basis,
            regions: out,
            derived,
            warnings,
        },
        citer.sources,
    ))
}

/// The headline series of the dataset with `filters` applied; unknown dimension names or values
/// are a 400 naming the parameter and what it could be.
fn comparability_warnings(regions: &[RegionValues]) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let levels: BTreeSet<Option<i64>> = regions.iter().map(|r| r.region.level).collect();
    if levels.len() > 1 {
        warnings.push(Warning {
            code: "mixed_levels",
            message: format!(
                "the regions are at different NUTS levels ({}): totals of larger areas are not comparable with smaller ones",
                regions
                    .iter()
                    .map(|r| format!("{} level {}", r.region.code, r.region.level.map_or("-".into(), |l| l.to_string())))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    let editions_of: Vec<Vec<&str>> = regions
        .iter()
        .map(|r| regions::editions(&r.region))
        .collect();
    let editions: BTreeSet<&Vec<&str>> = editions_of.iter().collect();
    if editions.len() > 1 {
        warnings.push(Warning {
            code: "mixed_editions",
            message: format!(
                "the region codes belong to different NUTS editions ({}): boundaries may differ",
                regions
                    .iter()
                    .zip(&editions_of)
                    .map(|(r, editions)| format!(
                        "{}: {}",
                        r.region.code,
                        if editions.is_empty() {
                            r.region.classification.clone()
                        } else {
                            editions.join("/")
                        }
                    ))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        });
    }
    warnings
}

/// Ranks, and the difference and ratio of each region against the first, at the compared period.
fn derive(regions: &mut [RegionValues], rows: &[Vec<ObsRow>]) -> Vec<Derived> {
    let text_of = |i: usize, cit: CitationId| -> usize {
        rows[i]
            .iter()
            .find(|o| o.citation_id == cit)
            .map_or(0, |o| decimals(&o.value_text))
    };
    let values: Vec<Option<(f64, CitationId, usize)>> = regions
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let v = r.value.as_ref()?;
            Some((v.value?, v.citation, text_of(i, v.citation)))
        })
        .collect();
    for (i, region) in regions.iter_mut().enumerate() {
        if let Some((v, _, _)) = &values[i] {
            region.rank = Some(1 + values.iter().flatten().filter(|(o, _, _)| o > v).count());
        }
    }
    let mut derived = Vec::new();
    let Some((base, base_cit, base_dec)) = values[0] else {
        return derived;
    };
    let base_code = regions[0].region.code.clone();
    for (i, region) in regions.iter().enumerate().skip(1) {
        let Some((v, cit, dec)) = &values[i] else {
            continue;
        };
        let inputs = vec![*cit, base_cit];
        derived.push(Derived {
            kind: "difference",
            value: round_to(v - base, (*dec).max(base_dec)),
            // Joined rather than `format!`ted: every comparison writes these.
            description: [&region.region.code, " minus ", &base_code].concat(),
            citations: inputs.clone(),
        });
        if base != 0.0 {
            derived.push(Derived {
                kind: "ratio",
                value: round_to(v / base, 4),
                description: [&region.region.code, " divided by ", &base_code].concat(),
                citations: inputs,
            });
        }
    }
    derived
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regions with and without a value and a rank, periods and derived figures or none.
    #[test]
    fn a_comparison_is_written_as_serde_json_writes_it() {
        let cited = crate::domain::tests::cited_values();
        let region = Arc::new(RegionRow {
            parent_code: Some("DEA".into()),
            ..RegionRow::sample("DEA2", "K\u{f6}ln \"Rhein\"")
        });
        for (regions, period) in [(0, None), (3, Some("2023\"")), (10, Some("2021"))] {
            let comparison = Comparison {
                dataset: DatasetRef {
                    code: "tgs00042".into(),
                    title: "R&D \"GERD\"".into(),
                    unit: "PC_GDP".into(),
                    unit_label: period.map(|_| "Percentage of GDP".into()),
                    series: BTreeMap::from([("sectperf".into(), "TOTAL".into())]),
                },
                period: period.map(str::to_owned),
                period_basis: if period.is_some() {
                    "latest_common"
                } else {
                    "latest_each"
                },
                regions: (0..regions)
                    .map(|n: usize| RegionValues {
                        region: Arc::clone(&region),
                        value: n.is_multiple_of(2).then(|| cited[n % cited.len()].clone()),
                        rank: (!n.is_multiple_of(3)).then_some(n),
                        series: cited[..n].to_vec(),
                    })
                    .collect(),
                derived: (0..regions.min(2))
                    .map(|n| Derived {
                        kind: "ratio",
                        value: 1.5 * n as f64,
                        description: "DE94 / DEA2".into(),
                        citations: vec![CitationId::new("cit_oqrh2d7jvc5jqlzuutgd").unwrap()],
                    })
                    .collect(),
                warnings: vec![Warning {
                    code: "missing_value",
                    message: "no value for NL41".into(),
                }],
            };
            let mut ours = Vec::new();
            comparison.write_json(&mut ours).unwrap();
            assert_eq!(
                String::from_utf8(ours).unwrap(),
                serde_json::to_string(&comparison).unwrap()
            );
        }
    }
}
