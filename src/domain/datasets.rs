//! Datasets as the API shows them: what they measure, their dimensions, periods and snapshots.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::Serialize;

use super::Citer;
use super::error::{Error, Rejection};
use crate::bundled::SourceRecord;
use crate::citation_id::parse_dims;
use crate::store::Scoped;
use crate::store::datasets::{DatasetRow, SeriesRow, SnapshotRow};

#[derive(Debug, Serialize)]
pub struct CodeLabel {
    pub code: String,
    pub label: Option<String>,
}

/// A dataset named by its code and title.
#[derive(Debug, Serialize)]
pub struct CodeTitle {
    pub code: String,
    pub title: String,
}

#[derive(Debug, Serialize)]
pub struct Dimension {
    pub name: String,
    pub values: Vec<CodeLabel>,
}

#[derive(Debug, Serialize)]
pub struct Periods {
    pub first: Option<String>,
    pub last: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct DatasetSummary {
    pub code: String,
    pub title: String,
    pub label: Option<String>,
    pub topic: String,
    /// True for an account's own dataset.
    pub private: bool,
    pub nuts_edition: Option<String>,
    pub units: Vec<CodeLabel>,
    pub dimensions: Vec<Dimension>,
    /// `unit` and dimension values of the series profiles show.
    pub headline: BTreeMap<String, String>,
    pub periods: Periods,
    pub observations: i64,
    pub latest_snapshot: Option<SnapshotInfo>,
    /// How old its data are, as the source of its latest snapshot says.
    pub data_obtained: Option<Obtained>,
    /// The latest snapshot, which the description, periods and counts are of, as a citation.
    pub citation: Option<String>,
}

/// When a dataset's data were obtained from Eurostat: the age of what it says.
#[derive(Debug, Serialize)]
pub struct Obtained {
    /// RFC 3339.
    pub at: String,
    /// `downloaded`: a fetch from Eurostat, at that time. `no_later_than`: a file of the bundled
    /// extract, copied from a repository whose commit of that time held it (the data may be
    /// older: the file carries no date of its own).
    pub basis: &'static str,
    /// Eurostat's "last update of data" of the dataset when it was fetched (a fetch only).
    pub eurostat_last_update: Option<String>,
}

impl Obtained {
    /// What the origin of a source (`SourceRecord::shown`) says of when its data were obtained:
    /// a fetch's download time, or the commit date of the repository a bundled file came from.
    fn of(origin: &serde_json::Value) -> Option<Obtained> {
        let text = |field: &str| origin[field].as_str().map(str::to_owned);
        match origin["type"].as_str()? {
            "eurostat" => Some(Obtained {
                at: text("downloaded_at")?,
                basis: "downloaded",
                eurostat_last_update: text("last_update_of_data"),
            }),
            "github" => Some(Obtained {
                at: text("that_commit_date")?,
                basis: "no_later_than",
                eurostat_last_update: None,
            }),
            _ => None,
        }
    }
}

#[derive(Debug, Serialize)]
pub struct SnapshotInfo {
    pub id: String,
    pub imported_at: String,
    pub file_name: String,
    pub file_sha256: String,
    pub format: String,
    pub rows_in_file: i64,
    pub rows_added: i64,
    pub rows_revised: i64,
    pub rows_unchanged: i64,
    pub rows_withdrawn: i64,
}

/// A snapshot and its citation (which resolves to the snapshot and its source).
#[derive(Debug, Serialize)]
pub struct CitedSnapshot {
    #[serde(flatten)]
    pub snapshot: SnapshotInfo,
    pub citation: Option<String>,
}

#[derive(Debug, Serialize)]
pub struct SeriesInfo {
    pub unit: String,
    pub dimensions: BTreeMap<String, String>,
    pub headline: bool,
    pub observations: i64,
    pub regions: i64,
    pub periods: Periods,
}

#[derive(Debug, Serialize)]
pub struct DatasetDetail {
    #[serde(flatten)]
    pub summary: DatasetSummary,
    pub series: Vec<SeriesInfo>,
    /// The newest snapshots ([`SNAPSHOTS_IN_DETAIL`] at most).
    pub snapshots: Vec<CitedSnapshot>,
    /// All its snapshots.
    pub snapshot_count: usize,
    #[serde(serialize_with = "shown_source")]
    pub source: Option<Arc<SourceRecord>>,
    /// An account's own dataset: whether its uploads refuse codes of no known region.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict_regions: Option<bool>,
}

/// A source as answers show it (`SourceRecord::shown`): its publisher, title, landing URL,
/// license, origin and transformation.
pub fn shown_source<S: serde::Serializer, R: std::ops::Deref<Target = SourceRecord>>(
    source: &Option<R>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match source {
        Some(source) => source.shown().json.serialize(s),
        None => s.serialize_none(),
    }
}

/// A snapshot as answers show it ([`SnapshotInfo`]), its text made once per row.
pub fn snapshot_text(snapshot: &SnapshotRow) -> &serde_json::value::RawValue {
    snapshot.shown.get_or_make(|| snapshot_info(snapshot))
}

/// [`snapshot_text`] for `serialize_with`.
#[cfg(test)]
pub fn shown_snapshot<S: serde::Serializer>(
    snapshot: &&SnapshotRow,
    s: S,
) -> Result<S::Ok, S::Error> {
    snapshot_text(snapshot).serialize(s)
}

pub fn snapshot_info(s: &SnapshotRow) -> SnapshotInfo {
    SnapshotInfo {
        id: s.public_id.clone(),
        imported_at: s.imported_at.clone(),
        file_name: s.file_name.clone(),
        file_sha256: s.file_sha256.clone(),
        format: s.format.clone(),
        rows_in_file: s.rows_in_file,
        rows_added: s.rows_added,
        rows_revised: s.rows_revised,
        rows_unchanged: s.rows_unchanged,
        rows_withdrawn: s.rows_withdrawn,
    }
}

fn json<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Error> {
    serde_json::from_str(text).map_err(Error::internal)
}

fn summarize(
    citer: &mut Citer,
    d: &DatasetRow,
    series: &[SeriesRow],
    latest: Option<&SnapshotRow>,
) -> Result<DatasetSummary, Error> {
    let citation = match latest {
        Some(snapshot) => citer.cite_snapshot(d, snapshot)?.map(|c| c.to_string()),
        None => None,
    };
    let source = match latest.and_then(|s| s.source_id).or(d.source_id) {
        Some(id) => citer.store.source(id)?,
        None => None,
    };
    let data_obtained = source.and_then(|s| Obtained::of(&s.shown().origin));
    let labels = d.labels().map_err(Error::internal)?;
    let dim_names = d.dim_names().map_err(Error::internal)?;
    let label = |dim: &str, code: &str| labels.get(dim).and_then(|m| m.get(code)).cloned();
    let units: BTreeSet<&str> = series.iter().map(|s| s.unit.as_str()).collect();
    let mut values: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for s in series {
        for (name, value) in parse_dims(&s.dims) {
            values.entry(name).or_default().insert(value);
        }
    }
    Ok(DatasetSummary {
        code: d.code.clone(),
        title: d.title.clone(),
        label: d.description.clone(),
        topic: d.topic.clone(),
        private: d.private,
        nuts_edition: d.nuts_edition.clone(),
        units: units
            .into_iter()
            .map(|u| CodeLabel {
                code: u.to_owned(),
                label: label("unit", u),
            })
            .collect(),
        dimensions: dim_names
            .iter()
            .map(|name| Dimension {
                name: name.clone(),
                values: values
                    .get(name.as_str())
                    .into_iter()
                    .flatten()
                    .map(|v| CodeLabel {
                        code: (*v).to_owned(),
                        label: label(name, v),
                    })
                    .collect(),
            })
            .collect(),
        headline: json(&d.headline_json)?,
        periods: Periods {
            first: series.iter().filter_map(|s| s.period_min.clone()).min(),
            last: series.iter().filter_map(|s| s.period_max.clone()).max(),
        },
        observations: series.iter().map(|s| s.obs_count).sum(),
        latest_snapshot: latest.map(snapshot_info),
        data_obtained,
        citation,
    })
}

/// The datasets the caller sees that `page` keeps (given them public first, then the caller's
/// own, each by code), each with its latest snapshot cited by `citer`, and how many the caller
/// sees in all; as of a moment, those held then, as they were.
pub fn list(
    store: &Scoped,
    citer: &mut Citer,
    page: impl FnOnce(Vec<Arc<DatasetRow>>) -> Vec<Arc<DatasetRow>>,
) -> Result<(Vec<DatasetSummary>, usize), Error> {
    let _snapshot = store.snapshot()?;
    let mut all = store.datasets()?;
    if store.as_of().is_some() {
        let mut held = Vec::with_capacity(all.len());
        for d in all {
            if store.snapshot_as_of(d.id)?.is_some() {
                held.push(d);
            }
        }
        all = held;
    }
    let total = all.len();
    let summaries = page(all)
        .iter()
        .map(|d| {
            let series = store.series_then(d.id)?;
            let latest = store.latest_snapshot_of(d.id)?;
            summarize(citer, d, &series, latest.as_ref())
        })
        .collect::<Result<_, _>>()?;
    Ok((summaries, total))
}

/// The snapshots a dataset's detail shows, newest first; the rest are paged by
/// `GET /datasets/{code}/snapshots` (a fetched dataset gains two a day).
pub const SNAPSHOTS_IN_DETAIL: usize = 10;

/// A dataset with its series, source and newest snapshots, each snapshot cited by `citer`.
pub fn detail(store: &Scoped, citer: &mut Citer, code: &str) -> Result<DatasetDetail, Error> {
    let _snapshot = store.snapshot()?;
    let d = dataset(store, code)?;
    let series = store.series_then(d.id)?;
    let snapshots = store.snapshots_of(d.id, None, SNAPSHOTS_IN_DETAIL)?;
    // The latest snapshot's (as of a moment, that of then), as the summary's.
    let source = match snapshots.first().and_then(|s| s.source_id).or(d.source_id) {
        Some(id) => store.source(id)?,
        None => None,
    };
    Ok(DatasetDetail {
        summary: summarize(citer, &d, &series, snapshots.first())?,
        snapshot_count: store.snapshot_count(d.id)?,
        series: series
            .iter()
            .map(|s| SeriesInfo {
                unit: s.unit.clone(),
                dimensions: parse_dims(&s.dims)
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v.to_owned()))
                    .collect(),
                headline: Some(s.id) == d.headline_series_id,
                observations: s.obs_count,
                regions: s.region_count,
                periods: Periods {
                    first: s.period_min.clone(),
                    last: s.period_max.clone(),
                },
            })
            .collect(),
        snapshots: cite_snapshots(citer, &d, &snapshots)?,
        source,
        strict_regions: d.private.then_some(d.strict_regions),
    })
}

/// Up to `limit` snapshots of dataset `code`, newest first, after the snapshot `after`, each
/// cited by `citer`; and how many the dataset has.
pub fn snapshots(
    store: &Scoped,
    citer: &mut Citer,
    code: &str,
    after: Option<&str>,
    limit: usize,
) -> Result<(Vec<CitedSnapshot>, usize), Error> {
    let _snapshot = store.snapshot()?;
    let d = dataset(store, code)?;
    let page = store.snapshots_of(d.id, after, limit)?;
    Ok((
        cite_snapshots(citer, &d, &page)?,
        store.snapshot_count(d.id)?,
    ))
}

/// The dataset `code` names, which must have been held at the moment reads are as of.
pub fn dataset(store: &Scoped, code: &str) -> Result<Arc<DatasetRow>, Error> {
    let d = store
        .dataset(code)?
        .ok_or_else(|| Rejection::UnknownDataset(code.to_owned()))?;
    held_then(store, &d)?;
    Ok(d)
}

/// Refuses a dataset that held no snapshot yet at the moment reads are as of (on their basis):
/// its answer then was that it did not exist, not that it was empty.
pub fn held_then(store: &Scoped, d: &DatasetRow) -> Result<(), Error> {
    let Some(as_of) = store.as_of() else {
        return Ok(());
    };
    if store.snapshot_as_of(d.id)?.is_some() {
        return Ok(());
    }
    let basis = match as_of.basis {
        crate::store::as_of::Basis::Imported => "imported here",
        crate::store::as_of::Basis::Published => {
            "published by Eurostat (or imported, where that is not known)"
        }
    };
    Err(Rejection::NotHeldYet {
        dataset: d.code.clone(),
        message: format!(
            "dataset {} did not exist yet at {}: its first snapshot was {basis} later",
            d.code,
            crate::runtime::clock::rfc3339_millis(as_of.at_ms)
        ),
    }
    .into())
}

fn cite_snapshots(
    citer: &mut Citer,
    d: &DatasetRow,
    snapshots: &[SnapshotRow],
) -> Result<Vec<CitedSnapshot>, Error> {
    snapshots
        .iter()
        .map(|snapshot| {
            Ok(CitedSnapshot {
                snapshot: snapshot_info(snapshot),
                citation: citer.cite_snapshot(d, snapshot)?.map(|c| c.to_string()),
            })
        })
        .collect()
}
