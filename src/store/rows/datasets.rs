//! The catalogue's rows (datasets, their series, snapshots and sources) and how each is read
//! from a result.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use crate::bundled::{ShownOnce, SourceRecord};
use crate::store::sql::{Row, SqlResult};

#[derive(Debug, Clone)]
pub struct DatasetRow {
    pub id: i64,
    pub code: String,
    pub title: String,
    pub topic: String,
    pub description: Option<String>,
    pub nuts_edition: Option<String>,
    pub headline_json: String,
    pub dim_names_json: String,
    pub labels_json: String,
    pub source_id: Option<i64>,
    pub headline_series_id: Option<i64>,
    pub private: bool,
    /// An account's dataset whose uploads refuse region codes of no known region.
    pub strict_regions: bool,
    /// The JSON columns parsed, once per row: a row of the public catalogue serves every
    /// request of its data generation. (Rows are only read, never edited.)
    parsed: OnceLock<Result<ParsedDataset, String>>,
}

/// Labels by dimension (`unit` among them) then code.
pub type Labels = BTreeMap<String, BTreeMap<String, String>>;

#[derive(Debug, Clone)]
pub(crate) struct ParsedDataset {
    labels: Labels,
    dim_names: Vec<String>,
    /// The headline series' unit and other dimension values.
    headline: (String, BTreeMap<String, String>),
}

/// A headline series as `headline_json` stores it: its unit (empty if it names none) and its
/// other dimension values.
pub fn headline_of(
    headline_json: &str,
) -> serde_json::Result<(String, std::collections::BTreeMap<String, String>)> {
    let mut series: std::collections::BTreeMap<String, String> =
        serde_json::from_str(headline_json)?;
    let unit = series.remove("unit").unwrap_or_default();
    Ok((unit, series))
}

impl DatasetRow {
    /// The headline series: its unit (empty if it names none) and its other dimension values.
    pub fn headline(&self) -> anyhow::Result<&(String, BTreeMap<String, String>)> {
        Ok(&self.parsed()?.headline)
    }

    fn parsed(&self) -> anyhow::Result<&ParsedDataset> {
        let parsed = self.parsed.get_or_init(|| {
            let text = |e: serde_json::Error| e.to_string();
            Ok(ParsedDataset {
                labels: serde_json::from_str(&self.labels_json).map_err(text)?,
                dim_names: serde_json::from_str(&self.dim_names_json).map_err(text)?,
                headline: headline_of(&self.headline_json).map_err(text)?,
            })
        });
        parsed.as_ref().map_err(|e| {
            anyhow::anyhow!("dataset {} has an unreadable JSON column: {e}", self.code)
        })
    }

    /// `labels_json`, parsed.
    pub fn labels(&self) -> anyhow::Result<&Labels> {
        Ok(&self.parsed()?.labels)
    }

    /// `dim_names_json`, parsed: the dimension names in source order.
    pub fn dim_names(&self) -> anyhow::Result<&[String]> {
        Ok(&self.parsed()?.dim_names)
    }

    /// The label of `code` in dimension `dim`, if the source gives one.
    pub fn label(&self, dim: &str, code: &str) -> anyhow::Result<Option<&str>> {
        Ok(self
            .labels()?
            .get(dim)
            .and_then(|m| m.get(code))
            .map(String::as_str))
    }
}

/// What a dataset says of itself, as an import leaves it: kept with each snapshot
/// (`snapshots.described_json`), so that a read as of a moment shows the dataset as it was.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Described {
    pub title: String,
    pub topic: String,
    pub description: Option<String>,
    pub nuts_edition: Option<String>,
    pub headline_json: String,
    pub labels_json: String,
    pub headline_series_id: Option<i64>,
}

impl DatasetRow {
    /// What it says of itself now.
    pub fn described(&self) -> Described {
        Described {
            title: self.title.clone(),
            topic: self.topic.clone(),
            description: self.description.clone(),
            nuts_edition: self.nuts_edition.clone(),
            headline_json: self.headline_json.clone(),
            labels_json: self.labels_json.clone(),
            headline_series_id: self.headline_series_id,
        }
    }

    /// The same dataset as `then` describes it.
    pub fn described_as(&self, then: Described) -> DatasetRow {
        DatasetRow {
            title: then.title,
            topic: then.topic,
            description: then.description,
            nuts_edition: then.nuts_edition,
            headline_json: then.headline_json,
            labels_json: then.labels_json,
            headline_series_id: then.headline_series_id,
            parsed: OnceLock::new(),
            ..self.clone()
        }
    }
}

/// The rows of a dataset's changes after a cursor's row in its snapshot (`?1` the snapshot,
/// `?2` the row), and those of its snapshots after one (`?1` the dataset, `?2` the snapshot).
#[cfg(test)]
impl DatasetRow {
    /// A public dataset of the 2021 NUTS edition whose headline series is `series` in `unit`,
    /// for tests.
    pub fn sample(id: i64, code: &str, topic: &str, short: &str, unit: &str, series: i64) -> Self {
        DatasetRow {
            id,
            code: code.into(),
            title: format!("{short} by NUTS 2 region"),
            topic: topic.into(),
            description: Some(short.into()),
            nuts_edition: Some("2021".into()),
            headline_json: serde_json::json!({ "unit": unit }).to_string(),
            dim_names_json: "[]".into(),
            labels_json: "{}".into(),
            source_id: None,
            headline_series_id: Some(series),
            private: false,
            strict_regions: false,
            parsed: OnceLock::new(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct SeriesRow {
    pub id: i64,
    pub unit: String,
    pub dims: String,
    pub obs_count: i64,
    pub region_count: i64,
    pub period_min: Option<String>,
    pub period_max: Option<String>,
}

/// A snapshot's citation id: of its public id and its file's SHA-256.
pub fn snapshot_citation_id(public_id: &str, file_sha256: &str) -> String {
    crate::citation_id::source_citation_id("snapshot", &[public_id, file_sha256])
}

#[derive(Debug, Clone)]
pub struct SnapshotRow {
    pub public_id: String,
    /// RFC 3339 UTC, seconds precision, as every answer shows it.
    pub imported_at: String,
    pub file_name: String,
    pub file_sha256: String,
    pub format: String,
    pub rows_in_file: i64,
    pub rows_added: i64,
    pub rows_revised: i64,
    pub rows_unchanged: i64,
    pub rows_withdrawn: i64,
    /// The source it was imported from (None for uploads, and snapshots made before sources were
    /// kept per snapshot: their dataset's source stands for it).
    pub source_id: Option<i64>,
    /// What a dataset answer cites it by (None for a snapshot made before citations of
    /// snapshots, until the migration that gives it one).
    pub citation_id: Option<String>,
    /// Its JSON text as answers show it, made when first shown: a public snapshot is shown in
    /// every citation of its rows.
    pub shown: crate::json_text::Kept,
}

pub(crate) const DATASET_COLUMNS: &str = "id, code, title, topic, description, nuts_edition,
    headline_json, dim_names_json, labels_json, source_id, headline_series_id,
    owner_account_id IS NOT NULL, strict_regions";

pub(crate) fn dataset_from_row(r: &Row) -> SqlResult<DatasetRow> {
    Ok(DatasetRow {
        id: r.get(0)?,
        code: r.get(1)?,
        title: r.get(2)?,
        topic: r.get(3)?,
        description: r.get(4)?,
        nuts_edition: r.get(5)?,
        headline_json: r.get(6)?,
        dim_names_json: r.get(7)?,
        labels_json: r.get(8)?,
        source_id: r.get(9)?,
        headline_series_id: r.get(10)?,
        private: r.get(11)?,
        strict_regions: r.get(12)?,
        parsed: OnceLock::new(),
    })
}

/// Of `v_snapshots` as `s`.
pub(crate) const SNAPSHOT_COLUMNS: &str = "s.public_id, s.imported_at, s.file_name,
    s.file_sha256, s.format, s.rows_in_file, s.rows_added, s.rows_revised, s.rows_unchanged,
    s.citation_id, s.rows_withdrawn, s.source_id";

/// [`SNAPSHOT_COLUMNS`] starting at column `at`.
pub(crate) fn snapshot_from_row(r: &Row, at: usize) -> SqlResult<SnapshotRow> {
    Ok(SnapshotRow {
        public_id: r.get(at)?,
        imported_at: crate::runtime::clock::rfc3339(r.get(at + 1)?),
        file_name: r.get(at + 2)?,
        file_sha256: r.get(at + 3)?,
        format: r.get(at + 4)?,
        rows_in_file: r.get(at + 5)?,
        rows_added: r.get(at + 6)?,
        rows_revised: r.get(at + 7)?,
        rows_unchanged: r.get(at + 8)?,
        citation_id: r.get(at + 9)?,
        rows_withdrawn: r.get(at + 10)?,
        source_id: r.get(at + 11)?,
        shown: Default::default(),
    })
}

pub(crate) const SERIES_COLUMNS: &str =
    "s.id, s.unit, s.dims, s.obs_count, s.region_count, s.period_min, s.period_max";

/// [`SERIES_COLUMNS`] starting at column `at`.
pub(crate) fn series_from_row(r: &Row, at: usize) -> SqlResult<SeriesRow> {
    Ok(SeriesRow {
        id: r.get(at)?,
        unit: r.get(at + 1)?,
        dims: r.get(at + 2)?,
        obs_count: r.get(at + 3)?,
        region_count: r.get(at + 4)?,
        period_min: r.get(at + 5)?,
        period_max: r.get(at + 6)?,
    })
}

pub(crate) const SOURCE_COLUMNS: &str =
    "publisher, title, landing_url, license, origin_json, transformation";

/// [`SOURCE_COLUMNS`] starting at column `at`.
pub(crate) fn source_from_row(r: &Row, at: usize) -> SqlResult<SourceRecord> {
    Ok(SourceRecord {
        publisher: r.get(at)?,
        title: r.get(at + 1)?,
        landing_url: r.get(at + 2)?,
        license: r.get(at + 3)?,
        origin_json: r.get(at + 4)?,
        transformation: r.get(at + 5)?,
        shown: ShownOnce::default(),
    })
}
