//! Dataset, series, snapshot and source reads: of public data from the public catalogue in
//! memory when the caller sees public data only and reads in a snapshot, from SQLite otherwise.

use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock};

use crate::store::sql::{OptionalExtension, Row, SqlResult, params};

use super::{Scoped, StoreResult};
use crate::catalogue::{ShownOnce, SourceRecord};

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
struct ParsedDataset {
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

/// The rows of a dataset's changes after a cursor's row in its snapshot (`?1` the snapshot,
/// `?2` the row), and those of its snapshots after one (`?1` the dataset, `?2` the snapshot).
const REST_OF_SNAPSHOT: &str = "sn.id = ?1 AND o.id > ?2";
const LATER_SNAPSHOTS: &str = "sn.dataset_id = ?1 AND sn.id > ?2";

fn change_query(filter: &str) -> String {
    format!(
        "SELECT sn.public_id, o.citation_id, o.region_code, o.period, o.value_text, o.flags,
                s.unit, s.dims, p.citation_id, p.value_text, p.flags, o.withdrawn, p.withdrawn
         FROM v_snapshots sn
         JOIN v_observations o ON o.snapshot_id = sn.id
         JOIN v_series s ON s.id = o.series_id
         LEFT JOIN v_observations p ON p.id =
              (SELECT id FROM v_observations WHERE superseded_by = o.citation_id
               ORDER BY id LIMIT 1)
         WHERE {filter}
         ORDER BY sn.id, o.id
         LIMIT ?3"
    )
}

#[cfg(test)]
mod change_tests {
    use super::*;

    /// A page of changes is read in order from the indexes, never sorted: its cost is its rows,
    /// however many the dataset holds (through the views a request reads).
    #[test]
    fn a_page_of_changes_is_read_from_indexes_without_a_sort() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(dir.path(), 1).unwrap();
        let scoped = store.scoped(Some(1)).unwrap();
        for filter in [REST_OF_SNAPSHOT, LATER_SNAPSHOTS] {
            let plan: Vec<String> = scoped
                .sql()
                .prepare(&format!("EXPLAIN QUERY PLAN {}", change_query(filter)))
                .unwrap()
                .query_map(params![1, 1, 100], |r| r.get(3))
                .unwrap()
                .map(Result::unwrap)
                .collect();
            let plan = plan.join("\n");
            assert!(!plan.contains("TEMP B-TREE"), "{filter}: {plan}");
            assert!(plan.contains("observations_snapshot"), "{filter}: {plan}");
            assert!(plan.contains("observations_superseded"), "{filter}: {plan}");
        }
    }
}

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
    crate::citation::source_citation_id("snapshot", &[public_id, file_sha256])
}

/// A row an import added, revised or withdrew, as `dataset.updated` and a dataset's changes list
/// it: where, when, which series, the value and flags as published (none for a withdrawal), and
/// those of the row it replaces.
#[derive(serde::Serialize)]
pub struct RowChange {
    pub change: &'static str,
    pub region: String,
    pub period: String,
    pub unit: String,
    pub dimensions: BTreeMap<String, String>,
    pub value: Option<String>,
    pub flags: Option<String>,
    pub previous_value: Option<String>,
    pub previous_flags: Option<String>,
    pub citation_id: String,
    pub replaces: Option<String>,
}

/// The row a change replaces: its citation, value and flags as published, and whether it is a
/// withdrawal (which a row publishing the cell again replaces).
pub struct Replaced {
    pub citation_id: String,
    pub value_text: String,
    pub flags: String,
    pub withdrawal: bool,
}

impl Replaced {
    /// The withdrawal cited `citation_id`, which had no value.
    pub fn withdrawal(citation_id: String) -> Replaced {
        Replaced {
            citation_id,
            value_text: String::new(),
            flags: String::new(),
            withdrawal: true,
        }
    }
}

impl RowChange {
    /// The change that wrote row `citation_id` (`dims` canonical `name=value;...`) with `value`
    /// and flags, replacing `replaced`: added (nothing replaced, or a withdrawal: the cell is
    /// published again), revised, or withdrawn (no value: a withdrawal of `replaced`).
    pub fn new(
        (region, period, unit, dims): (&str, &str, &str, &str),
        value: Option<(&str, &str)>,
        citation_id: &str,
        replaced: Option<Replaced>,
    ) -> RowChange {
        let change = match (&value, &replaced) {
            (None, _) => "withdrawn",
            (Some(_), Some(r)) if !r.withdrawal => "revised",
            (Some(_), _) => "added",
        };
        let (replaces, previous_value, previous_flags) = match replaced {
            Some(r) if r.withdrawal => (Some(r.citation_id), None, None),
            Some(r) => (Some(r.citation_id), Some(r.value_text), Some(r.flags)),
            None => (None, None, None),
        };
        RowChange {
            change,
            region: region.to_owned(),
            period: period.to_owned(),
            unit: unit.to_owned(),
            dimensions: crate::citation::parse_dims(dims)
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value.to_owned()))
                .collect(),
            value: value.map(|(v, _)| v.to_owned()),
            flags: value.map(|(_, f)| f.to_owned()),
            previous_value,
            previous_flags,
            citation_id: citation_id.to_owned(),
            replaces,
        }
    }
}

/// A change of a dataset's list: the snapshot that made it, and the change.
#[derive(serde::Serialize)]
pub struct SnapshotChange {
    pub snapshot: String,
    #[serde(flatten)]
    pub change: RowChange,
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

pub(super) const DATASET_COLUMNS: &str = "id, code, title, topic, description, nuts_edition,
    headline_json, dim_names_json, labels_json, source_id, headline_series_id,
    owner_account_id IS NOT NULL, strict_regions";

pub(super) fn dataset_from_row(r: &Row) -> SqlResult<DatasetRow> {
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
pub(super) const SNAPSHOT_COLUMNS: &str = "s.public_id, s.imported_at, s.file_name,
    s.file_sha256, s.format, s.rows_in_file, s.rows_added, s.rows_revised, s.rows_unchanged,
    s.citation_id, s.rows_withdrawn, s.source_id";

/// [`SNAPSHOT_COLUMNS`] starting at column `at`.
pub(super) fn snapshot_from_row(r: &Row, at: usize) -> SqlResult<SnapshotRow> {
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

pub(super) const SERIES_COLUMNS: &str =
    "s.id, s.unit, s.dims, s.obs_count, s.region_count, s.period_min, s.period_max";

/// [`SERIES_COLUMNS`] starting at column `at`.
pub(super) fn series_from_row(r: &Row, at: usize) -> SqlResult<SeriesRow> {
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

pub(super) const SOURCE_COLUMNS: &str =
    "publisher, title, landing_url, license, origin_json, transformation";

/// [`SOURCE_COLUMNS`] starting at column `at`.
pub(super) fn source_from_row(r: &Row, at: usize) -> SqlResult<SourceRecord> {
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

impl Scoped {
    /// Datasets the caller can see, public first then private, each in code order.
    pub fn datasets(&self) -> StoreResult<Vec<Arc<DatasetRow>>> {
        if let Some(catalog) = self.public_catalog() {
            return Ok(catalog.datasets().to_vec());
        }
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {DATASET_COLUMNS} FROM v_datasets ORDER BY owner_account_id IS NOT NULL, code"
        ))?;
        let rows = stmt.query_map(params![], |r| dataset_from_row(r).map(Arc::new))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The dataset with this code; the caller's own private dataset wins over a public one.
    pub fn dataset(&self, code: &str) -> StoreResult<Option<Arc<DatasetRow>>> {
        if let Some(found) = self.public_catalog().and_then(|c| c.dataset(code).cloned()) {
            return Ok(Some(found));
        }
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {DATASET_COLUMNS} FROM v_datasets WHERE code = ?1
             ORDER BY owner_account_id IS NULL LIMIT 1"
        ))?;
        Ok(stmt
            .query_row(params![code], |r| dataset_from_row(r).map(Arc::new))
            .optional()?)
    }

    pub fn series_of(&self, dataset_id: i64) -> StoreResult<Arc<[SeriesRow]>> {
        if let Some(found) = self.public_catalog().and_then(|c| c.series_of(dataset_id)) {
            return Ok(found);
        }
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {SERIES_COLUMNS} FROM v_series s WHERE s.dataset_id = ?1
             ORDER BY s.unit, s.dims"
        ))?;
        let rows = stmt.query_map(params![dataset_id], |r| series_from_row(r, 0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Up to `limit` snapshots of dataset `dataset_id`, newest first, after the snapshot
    /// `after` (its public id; none when the dataset has no such snapshot).
    pub fn snapshots_of(
        &self,
        dataset_id: i64,
        after: Option<&str>,
        limit: usize,
    ) -> StoreResult<Vec<SnapshotRow>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {SNAPSHOT_COLUMNS} FROM v_snapshots s WHERE s.dataset_id = ?1
               AND (s.id < (SELECT id FROM v_snapshots WHERE dataset_id = ?1 AND public_id = ?2)
                    OR ?2 IS NULL)
             ORDER BY s.id DESC LIMIT ?3"
        ))?;
        let rows = stmt.query_map(params![dataset_id, after, limit as i64], |r| {
            snapshot_from_row(r, 0)
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The newest snapshot of dataset `dataset_id`.
    pub fn latest_snapshot_of(&self, dataset_id: i64) -> StoreResult<Option<SnapshotRow>> {
        Ok(self.snapshots_of(dataset_id, None, 1)?.pop())
    }

    /// How many snapshots dataset `dataset_id` has.
    pub fn snapshot_count(&self, dataset_id: i64) -> StoreResult<usize> {
        let n: i64 = self
            .sql()
            .prepare_cached("SELECT count(*) FROM v_snapshots WHERE dataset_id = ?1")?
            .query_row(params![dataset_id], |r| r.get(0))?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// The internal id of the snapshot `public_id` of dataset `dataset_id`, if the caller sees it.
    pub fn snapshot_of(&self, dataset_id: i64, public_id: &str) -> StoreResult<Option<i64>> {
        Ok(self
            .sql()
            .prepare_cached("SELECT id FROM v_snapshots WHERE dataset_id = ?1 AND public_id = ?2")?
            .query_row(params![dataset_id, public_id], |r| r.get(0))
            .optional()?)
    }

    /// Up to `limit` rows of dataset `dataset_id` written by its snapshots after `since` (an
    /// internal snapshot id; 0 for all), in import order (snapshot, then row), after the row
    /// cited `after` (none when that is no such row of the dataset), each with the row it
    /// revised. Every page is two index ranges, however deep: the rest of the cursor's
    /// snapshot, then the snapshots after it.
    pub fn changes(
        &self,
        dataset_id: i64,
        since: i64,
        after: Option<&str>,
        limit: usize,
    ) -> StoreResult<Vec<SnapshotChange>> {
        let (from_snapshot, mut rows) = match after {
            None => (since, Vec::new()),
            Some(cited) => {
                let Some((snapshot, row)) = self
                    .sql()
                    .prepare_cached(
                        "SELECT o.snapshot_id, o.id FROM v_observations o
                         JOIN v_snapshots sn ON sn.id = o.snapshot_id
                         WHERE o.citation_id = ?1 AND sn.dataset_id = ?2 AND sn.id > ?3",
                    )?
                    .query_row(params![cited, dataset_id, since], |r| {
                        Ok((r.get::<i64>(0)?, r.get::<i64>(1)?))
                    })
                    .optional()?
                else {
                    return Ok(Vec::new());
                };
                let rest =
                    self.change_rows(REST_OF_SNAPSHOT, params![snapshot, row, limit as i64])?;
                (snapshot, rest)
            }
        };
        if rows.len() < limit {
            let more = limit - rows.len();
            rows.extend(self.change_rows(
                LATER_SNAPSHOTS,
                params![dataset_id, from_snapshot, more as i64],
            )?);
        }
        Ok(rows)
    }

    /// The change rows `filter` (on snapshot `sn` and row `o`, with `?1` and `?2`) selects, in
    /// import order, at most `?3`: read in that order from the indexes, never sorted, so a page
    /// costs its rows whatever follows. A revision's replaced row is the first whose
    /// `superseded_by` names it (a row revived later may be named by a second one).
    fn change_rows(
        &self,
        filter: &str,
        args: &[&dyn crate::store::sql::Param],
    ) -> StoreResult<Vec<SnapshotChange>> {
        let mut stmt = self.sql().prepare_cached(&change_query(filter))?;
        let rows = stmt.query_map(args, |r| {
            let replaced = match r.get::<Option<String>>(8)? {
                Some(citation_id) => Some(Replaced {
                    citation_id,
                    value_text: r.get(9)?,
                    flags: r.get(10)?,
                    withdrawal: r.get(12)?,
                }),
                None => None,
            };
            let (region, period, unit, dims): (String, String, String, String) =
                (r.get(2)?, r.get(3)?, r.get(6)?, r.get(7)?);
            let (value, flags): (String, String) = (r.get(4)?, r.get(5)?);
            let withdrawn: bool = r.get(11)?;
            let citation: String = r.get(1)?;
            Ok(SnapshotChange {
                snapshot: r.get(0)?,
                change: RowChange::new(
                    (&region, &period, &unit, &dims),
                    (!withdrawn).then_some((value.as_str(), flags.as_str())),
                    &citation,
                    replaced,
                ),
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The snapshot the caller can see whose citation id is `id`, with its dataset.
    pub fn snapshot_cited(&self, id: &str) -> StoreResult<Option<(SnapshotRow, Arc<DatasetRow>)>> {
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {SNAPSHOT_COLUMNS}, s.dataset_id FROM v_snapshots s WHERE s.citation_id = ?1"
        ))?;
        let Some((snapshot, dataset_id)) = stmt
            .query_row(params![id], |r| {
                Ok((snapshot_from_row(r, 0)?, r.get::<i64>(12)?))
            })
            .optional()?
        else {
            return Ok(None);
        };
        let dataset = self.datasets()?.into_iter().find(|d| d.id == dataset_id);
        Ok(dataset.map(|d| (snapshot, d)))
    }

    pub fn source(&self, id: i64) -> StoreResult<Option<Arc<SourceRecord>>> {
        if let Some(found) = self.public_catalog().and_then(|c| c.source(id).cloned()) {
            return Ok(Some(found));
        }
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {SOURCE_COLUMNS} FROM v_sources WHERE id = ?1"
        ))?;
        Ok(stmt
            .query_row(params![id], |r| source_from_row(r, 0).map(Arc::new))
            .optional()?)
    }
}
