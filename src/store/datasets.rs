//! Dataset, series, snapshot and source reads: of public data from the public catalogue in
//! memory when the caller sees public data only and reads in a snapshot, from SQLite otherwise.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::store::sql::{OptionalExtension, params};

use super::connections::Scoped;
use super::error::StoreResult;
use super::rows::datasets::{
    DATASET_COLUMNS, SERIES_COLUMNS, SNAPSHOT_COLUMNS, SOURCE_COLUMNS, dataset_from_row,
    series_from_row, snapshot_from_row, source_from_row,
};
pub use super::rows::datasets::{
    DatasetRow, Labels, SeriesRow, SnapshotRow, headline_of, snapshot_citation_id,
};
use crate::bundled::SourceRecord;

const REST_OF_SNAPSHOT: &str = "sn.id = ?1 AND o.id > ?2 AND sn.id <= ?4";
const LATER_SNAPSHOTS: &str = "sn.dataset_id = ?1 AND sn.id > ?2 AND sn.id <= ?4";

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
        let store = crate::store::connections::Store::open(dir.path(), 1).unwrap();
        let scoped = store.scoped(Some(1)).unwrap();
        for filter in [REST_OF_SNAPSHOT, LATER_SNAPSHOTS] {
            let plan: Vec<String> = scoped
                .sql()
                .prepare(&format!("EXPLAIN QUERY PLAN {}", change_query(filter)))
                .unwrap()
                .query_map(params![1, 1, 100, 1000], |r| r.get(3))
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
            dimensions: crate::citation_id::parse_dims(dims)
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

impl Scoped {
    /// Datasets the caller can see, public first then private, each in code order; as of a
    /// moment, each as its snapshot then described it.
    pub fn datasets(&self) -> StoreResult<Vec<Arc<DatasetRow>>> {
        let now = self.datasets_now()?;
        if self.as_of().is_none() {
            return Ok(now);
        }
        now.into_iter().map(|d| self.dataset_then(d)).collect()
    }

    /// The dataset with this code; the caller's own private dataset wins over a public one. As
    /// of a moment, as its snapshot then described it.
    pub fn dataset(&self, code: &str) -> StoreResult<Option<Arc<DatasetRow>>> {
        match self.dataset_now(code)? {
            Some(now) => Ok(Some(self.dataset_then(now)?)),
            None => Ok(None),
        }
    }

    fn datasets_now(&self) -> StoreResult<Vec<Arc<DatasetRow>>> {
        if let Some(catalogue) = self.public_catalogue() {
            return Ok(catalogue.datasets().to_vec());
        }
        let mut stmt = self.sql().prepare_cached(&format!(
            "SELECT {DATASET_COLUMNS} FROM v_datasets ORDER BY owner_account_id IS NOT NULL, code"
        ))?;
        let rows = stmt.query_map(params![], |r| dataset_from_row(r).map(Arc::new))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    fn dataset_now(&self, code: &str) -> StoreResult<Option<Arc<DatasetRow>>> {
        if let Some(found) = self
            .public_catalogue()
            .and_then(|c| c.dataset(code).cloned())
        {
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
        if let Some(found) = self
            .public_catalogue()
            .and_then(|c| c.series_of(dataset_id))
        {
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
    /// `after` (its public id; none when the dataset has no such snapshot); as of the moment
    /// reads are as of, those it had then.
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
               AND s.id <= ?4
             ORDER BY s.id DESC LIMIT ?3"
        ))?;
        let bound = self.snapshot_bound(dataset_id)?;
        let rows = stmt.query_map(params![dataset_id, after, limit as i64, bound], |r| {
            snapshot_from_row(r, 0)
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The newest snapshot of dataset `dataset_id`.
    pub fn latest_snapshot_of(&self, dataset_id: i64) -> StoreResult<Option<SnapshotRow>> {
        Ok(self.snapshots_of(dataset_id, None, 1)?.pop())
    }

    /// How many snapshots dataset `dataset_id` has (had, as of the moment reads are as of).
    pub fn snapshot_count(&self, dataset_id: i64) -> StoreResult<usize> {
        let bound = self.snapshot_bound(dataset_id)?;
        let n: i64 = self
            .sql()
            .prepare_cached("SELECT count(*) FROM v_snapshots WHERE dataset_id = ?1 AND id <= ?2")?
            .query_row(params![dataset_id, bound], |r| r.get(0))?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// The internal id of the snapshot `public_id` of dataset `dataset_id`, if the caller sees it
    /// (and the dataset had it, as of the moment reads are as of).
    pub fn snapshot_of(&self, dataset_id: i64, public_id: &str) -> StoreResult<Option<i64>> {
        let bound = self.snapshot_bound(dataset_id)?;
        Ok(self
            .sql()
            .prepare_cached(
                "SELECT id FROM v_snapshots WHERE dataset_id = ?1 AND public_id = ?2 AND id <= ?3",
            )?
            .query_row(params![dataset_id, public_id, bound], |r| r.get(0))
            .optional()?)
    }

    /// Up to `limit` rows of dataset `dataset_id` written by its snapshots after `since` (an
    /// internal snapshot id; 0 for all), in import order (snapshot, then row), after the row
    /// cited `after` (none when that is no such row of the dataset), each with the row it
    /// revised; as of the moment reads are as of, those its snapshots by then wrote. Every page
    /// is two index ranges, however deep: the rest of the cursor's snapshot, then the snapshots
    /// after it.
    pub fn changes(
        &self,
        dataset_id: i64,
        since: i64,
        after: Option<&str>,
        limit: usize,
    ) -> StoreResult<Vec<SnapshotChange>> {
        let bound = self.snapshot_bound(dataset_id)?;
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
                let rest = self.change_rows(
                    REST_OF_SNAPSHOT,
                    params![snapshot, row, limit as i64, bound],
                )?;
                (snapshot, rest)
            }
        };
        if rows.len() < limit {
            let more = limit - rows.len();
            rows.extend(self.change_rows(
                LATER_SNAPSHOTS,
                params![dataset_id, from_snapshot, more as i64, bound],
            )?);
        }
        Ok(rows)
    }

    /// The change rows `filter` (on snapshot `sn` and row `o`, with `?1`, `?2` and the newest
    /// snapshot seen `?4`) selects, in
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
        if let Some(found) = self.public_catalogue().and_then(|c| c.source(id).cloned()) {
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
