//! Every value one observation (series, region, period) has had, with the stretches of time
//! each was current in: what `GET /citations/{id}/revisions` lists, and what a citation read as
//! of a moment resolves against.

use std::collections::HashMap;

use crate::store::sql::{OptionalExtension, params};

use super::connections::Scoped;
use super::error::StoreResult;

/// A snapshot as a revision names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnapshotTimes {
    pub id: i64,
    pub public_id: String,
    pub imported_at: i64,
    pub published_at: Option<i64>,
}

/// A stretch of time a row was current in: from the snapshot that wrote or revived it until the
/// one that superseded or withdrew it (None: it still stands).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stretch {
    pub since: SnapshotTimes,
    pub until: Option<SnapshotTimes>,
}

/// One row of an observation's history: a value, or a withdrawal (no value).
#[derive(Debug, Clone)]
pub struct Revision {
    pub row_id: i64,
    pub citation_id: String,
    pub value: Option<f64>,
    pub value_text: String,
    pub flags: String,
    pub conf_status: String,
    pub withdrawn: bool,
    /// The snapshot that wrote it.
    pub snapshot: SnapshotTimes,
    /// In order of time; the first begins at `snapshot`.
    pub stretches: Vec<Stretch>,
}

impl Revision {
    /// Whether the row was current in snapshot `snapshot` (a row id of the same dataset's).
    pub fn stands_in(&self, snapshot: i64) -> bool {
        self.stretches
            .iter()
            .any(|s| s.since.id <= snapshot && s.until.as_ref().is_none_or(|u| u.id > snapshot))
    }
}

/// The rows of the cell (series ?1, region ?2, period ?3): its current row and its superseded
/// ones, each found through the index of its kind.
const CELL_ROWS: &str = "SELECT {ROW} FROM v_observations o
    WHERE o.series_id = ?1 AND o.region_code = ?2 AND o.period = ?3 AND o.superseded_by IS NULL
    UNION ALL
    SELECT {ROW} FROM v_observations o
    WHERE o.series_id = ?1 AND o.region_code = ?2 AND o.period = ?3
      AND o.superseded_by IS NOT NULL";
const ROW: &str = "o.id, o.citation_id, o.value, o.value_text, o.flags, o.conf_status, o.withdrawn,
                   o.snapshot_id, o.until_snapshot_id";

impl Scoped {
    /// The history of the observation citation `citation_id` is a row of, in order of time (of
    /// each row's first stretch), or None if the caller sees no such row.
    pub fn revisions(&self, citation_id: &str) -> StoreResult<Option<Vec<Revision>>> {
        let db = self.sql();
        let cell: Option<(i64, String, String)> = db
            .prepare_cached(
                "SELECT series_id, region_code, period FROM v_observations WHERE citation_id = ?1",
            )?
            .query_row(params![citation_id], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })
            .optional()?;
        let Some((series, region, period)) = cell else {
            return Ok(None);
        };
        static SQL: std::sync::LazyLock<String> =
            std::sync::LazyLock::new(|| CELL_ROWS.replace("{ROW}", ROW));
        type Row = (
            i64,
            String,
            Option<f64>,
            String,
            String,
            String,
            bool,
            i64,
            Option<i64>,
        );
        let rows: Vec<Row> = db
            .prepare_cached(&SQL)?
            .query_map(params![series, &region, &period], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                    r.get(6)?,
                    r.get(7)?,
                    r.get(8)?,
                ))
            })?
            .collect::<Result<_, _>>()?;
        let mut later: HashMap<i64, Vec<(i64, Option<i64>)>> = HashMap::new();
        let mut spans = db.prepare_cached(
            "SELECT observation_id, since_snapshot_id, until_snapshot_id
             FROM v_observation_spans WHERE series_id = ?1 AND region_code = ?2
             ORDER BY since_snapshot_id",
        )?;
        for span in spans.query_map(params![series, &region], |r| {
            Ok((r.get::<i64>(0)?, r.get::<i64>(1)?, r.get::<Option<i64>>(2)?))
        })? {
            let (row, since, until) = span?;
            later.entry(row).or_default().push((since, until));
        }
        let mut times = SnapshotLookup::default();
        let mut out = Vec::with_capacity(rows.len());
        for (row_id, citation_id, value, value_text, flags, conf_status, withdrawn, from, until) in
            rows
        {
            let snapshot = times.get(self, from)?;
            let mut stretches = vec![Stretch {
                since: snapshot.clone(),
                until: until.map(|u| times.get(self, u)).transpose()?,
            }];
            for (since, until) in later.remove(&row_id).unwrap_or_default() {
                stretches.push(Stretch {
                    since: times.get(self, since)?,
                    until: until.map(|u| times.get(self, u)).transpose()?,
                });
            }
            out.push(Revision {
                row_id,
                citation_id,
                value,
                value_text,
                flags,
                conf_status,
                withdrawn,
                snapshot,
                stretches,
            });
        }
        out.sort_by_key(|r| (r.snapshot.id, r.row_id));
        Ok(Some(out))
    }
}

/// Snapshots' times by row id, each read once.
#[derive(Default)]
struct SnapshotLookup {
    known: HashMap<i64, SnapshotTimes>,
}

impl SnapshotLookup {
    fn get(&mut self, store: &Scoped, id: i64) -> StoreResult<SnapshotTimes> {
        if let Some(found) = self.known.get(&id) {
            return Ok(found.clone());
        }
        let found = store
            .sql()
            .prepare_cached(
                "SELECT public_id, imported_at, published_at FROM v_snapshots WHERE id = ?1",
            )?
            .query_row(params![id], |r| {
                Ok(SnapshotTimes {
                    id,
                    public_id: r.get(0)?,
                    imported_at: r.get(1)?,
                    published_at: r.get(2)?,
                })
            })?;
        self.known.insert(id, found.clone());
        Ok(found)
    }
}
