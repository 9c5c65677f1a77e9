//! Dataset, series, snapshot and source reads.

use rusqlite::{OptionalExtension, Row};

use super::{Scoped, StoreResult};
use crate::catalogue::SourceRecord;

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
    /// The headline series: see [`headline_of`].
    pub fn headline(
        &self,
    ) -> serde_json::Result<(String, std::collections::BTreeMap<String, String>)> {
        headline_of(&self.headline_json)
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

#[derive(Debug, Clone)]
pub struct SnapshotRow {
    pub public_id: String,
    pub imported_at: i64,
    pub file_name: String,
    pub file_sha256: String,
    pub format: String,
    pub rows_in_file: i64,
    pub rows_added: i64,
    pub rows_revised: i64,
    pub rows_unchanged: i64,
}

const DATASET_COLUMNS: &str = "id, code, title, topic, description, nuts_edition, headline_json,
    dim_names_json, labels_json, source_id, headline_series_id, owner_account_id IS NOT NULL";

fn dataset_from_row(r: &Row) -> rusqlite::Result<DatasetRow> {
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
    })
}

impl Scoped {
    /// Datasets the caller can see, public first then private, each in code order.
    pub fn datasets(&self) -> StoreResult<Vec<DatasetRow>> {
        let mut stmt = self.db().prepare_cached(&format!(
            "SELECT {DATASET_COLUMNS} FROM v_datasets ORDER BY owner_account_id IS NOT NULL, code"
        ))?;
        let rows = stmt.query_map([], dataset_from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The dataset with this code; the caller's own private dataset wins over a public one.
    pub fn dataset(&self, code: &str) -> StoreResult<Option<DatasetRow>> {
        let mut stmt = self.db().prepare_cached(&format!(
            "SELECT {DATASET_COLUMNS} FROM v_datasets WHERE code = ?1
             ORDER BY owner_account_id IS NULL LIMIT 1"
        ))?;
        Ok(stmt.query_row([code], dataset_from_row).optional()?)
    }

    pub fn series_of(&self, dataset_id: i64) -> StoreResult<Vec<SeriesRow>> {
        let mut stmt = self.db().prepare_cached(
            "SELECT id, unit, dims, obs_count, region_count, period_min, period_max
             FROM v_series WHERE dataset_id = ?1 ORDER BY unit, dims",
        )?;
        let rows = stmt.query_map([dataset_id], |r| {
            Ok(SeriesRow {
                id: r.get(0)?,
                unit: r.get(1)?,
                dims: r.get(2)?,
                obs_count: r.get(3)?,
                region_count: r.get(4)?,
                period_min: r.get(5)?,
                period_max: r.get(6)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Snapshots of a dataset, newest first.
    pub fn snapshots_of(&self, dataset_id: i64) -> StoreResult<Vec<SnapshotRow>> {
        let mut stmt = self.db().prepare_cached(
            "SELECT public_id, imported_at, file_name, file_sha256, format, rows_in_file,
                    rows_added, rows_revised, rows_unchanged
             FROM v_snapshots WHERE dataset_id = ?1 ORDER BY id DESC",
        )?;
        let rows = stmt.query_map([dataset_id], |r| {
            Ok(SnapshotRow {
                public_id: r.get(0)?,
                imported_at: r.get(1)?,
                file_name: r.get(2)?,
                file_sha256: r.get(3)?,
                format: r.get(4)?,
                rows_in_file: r.get(5)?,
                rows_added: r.get(6)?,
                rows_revised: r.get(7)?,
                rows_unchanged: r.get(8)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    pub fn source(&self, id: i64) -> StoreResult<Option<SourceRecord>> {
        let mut stmt = self.db().prepare_cached(
            "SELECT publisher, title, landing_url, license, origin_json, transformation
             FROM v_sources WHERE id = ?1",
        )?;
        Ok(stmt
            .query_row([id], |r| {
                Ok(SourceRecord {
                    publisher: r.get(0)?,
                    title: r.get(1)?,
                    landing_url: r.get(2)?,
                    license: r.get(3)?,
                    origin_json: r.get(4)?,
                    transformation: r.get(5)?,
                })
            })
            .optional()?)
    }
}
