//! The write path of imports. Every function takes the caller's transaction, so one file (or the
//! whole bundled extract) is written entirely or not at all.
//!
//! Snapshot rules: a row whose value, flags and status equal the current row for the
//! same region, series and period is unchanged and keeps its citation; a different one is added
//! and the old row is marked superseded by it; a file identical to the dataset's latest snapshot
//! changes nothing. Imports add and revise; they never delete. A file that is the whole dataset
//! (a Eurostat download) also withdraws the current rows it lacks: each gets a withdrawal, a row
//! of the new snapshot without a value that supersedes it (see [`WITHDRAWN`]).

use std::collections::{BTreeMap, HashMap, HashSet};

use crate::store::sql::{BulkInsert, Column, Db, OptionalExtension, SqlResult, Stmt, params};
use anyhow::bail;

use crate::bundled::SourceRecord;
use crate::citation_id::{CanonicalRow, canonical_dims, citation_id};
use crate::dataset_file::{FileHeader, RawObservation};
use crate::store::datasets::{Replaced, RowChange};
use crate::store::rows::datasets::{DATASET_COLUMNS, dataset_from_row};
use crate::store::webhooks::{Audience, emit};
use crate::webhooks::events;
use regions::UnclassifiedRegions;
pub use regions::{classification_in_place, name_aggregates, upsert_regions};

pub use crate::store::rows::observations::WITHDRAWN;

/// Descriptive fields of a dataset.
#[derive(Debug, Clone)]
pub struct DatasetMeta {
    pub code: String,
    pub title: String,
    pub topic: String,
    pub description: Option<String>,
    pub nuts_edition: Option<String>,
    /// `unit` plus dimension values of the headline series.
    pub headline: BTreeMap<String, String>,
    /// `{"unit": {code: label}, "<dim>": {code: label}}`
    pub labels_json: String,
}

/// What one import did to one dataset.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ImportOutcome {
    pub dataset: String,
    pub file: String,
    /// The new snapshot, or None when the file changed no row.
    pub snapshot: Option<String>,
    /// The file was read and its dataset's description written (false: skipped, the same file
    /// as its dataset's latest snapshot).
    pub written: bool,
    pub rows_in_file: u64,
    pub added: u64,
    pub revised: u64,
    pub unchanged: u64,
    /// Current rows a whole-dataset file lacked, withdrawn.
    pub withdrawn: u64,
    /// Codes of no known region the file named, which this import made regions of the
    /// account's own (an upload's only), each with the known codes it may be a typo of.
    pub new_regions: Vec<NewRegion>,
}

/// A code an upload made a region of the account's own.
#[derive(Debug, Clone, serde::Serialize, PartialEq, Eq)]
pub struct NewRegion {
    pub code: String,
    /// Known codes within two edits of it, closest first, at most five (filled in by the
    /// import, which knows the codes).
    pub suggestions: Vec<String>,
}

/// The source public dataset `code` was last imported from.
pub fn dataset_source_id(conn: &Db<'_>, code: &str) -> SqlResult<Option<i64>> {
    Ok(conn
        .query_row(
            "SELECT source_id FROM datasets WHERE code = ?1 AND owner_account_id IS NULL",
            params![code],
            |r| r.get::<Option<i64>>(0),
        )
        .optional()?
        .flatten())
}

/// The public id of public dataset `code`'s latest snapshot.
pub fn latest_snapshot_id(conn: &Db<'_>, code: &str) -> SqlResult<Option<String>> {
    conn.query_row(
        "SELECT s.public_id FROM snapshots s JOIN datasets d ON d.id = s.dataset_id
         WHERE d.code = ?1 AND d.owner_account_id IS NULL ORDER BY s.id DESC LIMIT 1",
        params![code],
        |r| r.get(0),
    )
    .optional()
}

/// The codes of the public datasets, in lower case.
pub fn public_dataset_codes(conn: &Db<'_>) -> SqlResult<std::collections::HashSet<String>> {
    let mut stmt =
        conn.prepare("SELECT lower(code) FROM datasets WHERE owner_account_id IS NULL")?;
    let codes = stmt.query_map(params![], |r| r.get(0))?;
    codes.collect()
}

/// Inserts a source, or returns the id of an identical one.
pub fn upsert_source(tx: &Db<'_>, s: &SourceRecord) -> SqlResult<i64> {
    let fields = params![
        s.publisher,
        s.title,
        s.landing_url,
        s.license,
        s.origin_json,
        s.transformation
    ];
    let existing: Option<i64> = tx
        .query_row(
            "SELECT id FROM sources WHERE publisher = ?1 AND title = ?2 AND landing_url IS NOT DISTINCT FROM ?3
               AND license = ?4 AND origin_json = ?5 AND transformation IS NOT DISTINCT FROM ?6",
            fields,
            |r| r.get(0),
        )
        .optional()?;
    if let Some(id) = existing {
        return Ok(id);
    }
    tx.query_row(
        "INSERT INTO sources (publisher, title, landing_url, license, origin_json, transformation)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) RETURNING id",
        fields,
        |r| r.get(0),
    )
}

/// Finds or creates the dataset and brings its descriptive fields up to date. A file whose
/// dimensions differ from the dataset's is refused: its rows could not be compared.
fn upsert_dataset(
    tx: &Db<'_>,
    meta: &DatasetMeta,
    dim_names: &[String],
    source_id: Option<i64>,
    owner: Option<i64>,
) -> anyhow::Result<i64> {
    let dim_names_json = serde_json::to_string(dim_names)?;
    let headline_json = serde_json::to_string(&meta.headline)?;
    let existing: Option<(i64, String)> = tx
        .query_row(
            "SELECT id, dim_names_json FROM datasets
             WHERE coalesce(owner_account_id, 0) = coalesce(?1, 0) AND code = ?2",
            params![owner, meta.code],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    match existing {
        Some((id, known)) => {
            let mut known: Vec<String> = serde_json::from_str(&known)?;
            let mut given = dim_names.to_vec();
            known.sort();
            given.sort();
            if known != given {
                bail!(
                    "dataset {} has dimensions [{}] but the file has [{}]",
                    meta.code,
                    known.join(", "),
                    given.join(", ")
                );
            }
            tx.execute(
                "UPDATE datasets SET title = ?2, topic = ?3, description = ?4, nuts_edition = ?5,
                        headline_json = ?6, labels_json = ?7, source_id = coalesce(?8, source_id)
                 WHERE id = ?1",
                params![
                    id,
                    meta.title,
                    meta.topic,
                    meta.description,
                    meta.nuts_edition,
                    headline_json,
                    meta.labels_json,
                    source_id
                ],
            )?;
            Ok(id)
        }
        None => Ok(tx.query_row(
            "INSERT INTO datasets (owner_account_id, code, title, topic, description,
                                       nuts_edition, headline_json, dim_names_json, labels_json,
                                       source_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) RETURNING id",
            params![
                owner,
                meta.code,
                meta.title,
                meta.topic,
                meta.description,
                meta.nuts_edition,
                headline_json,
                dim_names_json,
                meta.labels_json,
                source_id
            ],
            |r| r.get(0),
        )?),
    }
}

/// Private datasets one account may have: every one is in the account's dataset lists and
/// profiles, which must stay quick to render.
pub const MAX_PRIVATE_DATASETS: i64 = 100;

/// Dimensions a private dataset may have: far more than any Eurostat dataset.
pub const MAX_DIMENSIONS: usize = 32;

/// Region codes one account may have of its own (codes in its data that neither the
/// classification nor public data has): an unknown code is compared with every code its caller
/// can see, so they must stay few.
pub const MAX_PRIVATE_REGIONS: i64 = 10_000;

/// Creates an account's private dataset (no data yet). Its code must be new for the account and
/// not a public dataset's, so a code always means one dataset to its owner.
pub fn create_private_dataset(
    tx: &Db<'_>,
    meta: &DatasetMeta,
    dim_names: &[String],
    owner: i64,
    strict_regions: bool,
) -> Result<i64, crate::store::error::StoreError> {
    let taken: bool = tx.query_row(
        "SELECT EXISTS (SELECT 1 FROM datasets WHERE code = ?1
                        AND (owner_account_id IS NULL OR owner_account_id = ?2))",
        params![meta.code, owner],
        |r| r.get(0),
    )?;
    if taken {
        return Err(crate::store::error::StoreError::Conflict(format!(
            "a dataset with code {} exists; choose another code",
            meta.code
        )));
    }
    let owned: i64 = tx.query_row(
        "SELECT count(*) FROM datasets WHERE owner_account_id = ?1",
        params![owner],
        |r| r.get(0),
    )?;
    if owned >= MAX_PRIVATE_DATASETS {
        return Err(crate::store::error::StoreError::Conflict(format!(
            "the account has its limit of {MAX_PRIVATE_DATASETS} private datasets"
        )));
    }
    let id = upsert_dataset(tx, meta, dim_names, None, Some(owner))
        .map_err(crate::store::error::StoreError::from_anyhow)?;
    tx.execute(
        "UPDATE datasets SET strict_regions = ?2 WHERE id = ?1",
        params![id, strict_regions],
    )?;
    Ok(id)
}

/// The codes `owner`'s earlier uploads made regions of its own.
pub fn own_region_codes(conn: &Db<'_>, owner: i64) -> SqlResult<Vec<String>> {
    let mut stmt = conn.prepare_cached("SELECT code FROM private_regions WHERE account_id = ?1")?;
    let rows = stmt.query_map(params![owner], |r| r.get(0))?;
    rows.collect()
}

/// Every public region code (the classification and codes seen in public data).
pub fn region_codes(conn: &Db<'_>) -> SqlResult<Vec<String>> {
    let mut stmt = conn.prepare_cached("SELECT code FROM regions")?;
    let rows = stmt.query_map(params![], |r| r.get(0))?;
    rows.collect()
}

/// The `headline_json` of `owner`'s private dataset `code`, if it exists.
pub fn private_headline_json(conn: &Db<'_>, code: &str, owner: i64) -> SqlResult<Option<String>> {
    conn.query_row(
        "SELECT headline_json FROM datasets WHERE owner_account_id = ?1 AND code = ?2",
        params![owner, code],
        |r| r.get(0),
    )
    .optional()
}

/// SHA-256 of the file of the latest snapshot of `owner`'s dataset `code` (None: no snapshot).
pub fn latest_snapshot_sha(
    conn: &Db<'_>,
    code: &str,
    owner: Option<i64>,
) -> SqlResult<Option<String>> {
    conn.query_row(
        "SELECT s.file_sha256 FROM snapshots s JOIN datasets d ON d.id = s.dataset_id
         WHERE d.code = ?1 AND coalesce(d.owner_account_id, 0) = coalesce(?2, 0)
         ORDER BY s.id DESC LIMIT 1",
        params![code, owner],
        |r| r.get(0),
    )
    .optional()
}

/// Where a parsed file came from: its source row, its name and the SHA-256 of its bytes, and
/// whether it is the whole dataset (its current rows the file lacks are then withdrawn).
pub struct FileOrigin<'a> {
    pub source_id: Option<i64>,
    pub name: &'a str,
    pub sha256: &'a str,
    pub whole_dataset: bool,
}

// An import's reads of rows, each answered from `observations_current` (tested below): the table
// may hold tens of millions of rows. A series with rows has current rows (a revision replaces the
// row it supersedes), so whether a dataset has rows is asked of its current ones.
const HAS_ROWS: &str = "SELECT EXISTS (SELECT 1 FROM observations
                        WHERE series_id IN (SELECT id FROM series WHERE dataset_id = ?1)
                          AND superseded_by IS NULL)";
const CURRENT_ROW: &str = "SELECT citation_id, value_text, flags, conf_status, id FROM observations
                           WHERE region_code = ?1 AND series_id = ?2 AND period = ?3
                             AND superseded_by IS NULL";
/// The regions of a snapshot's rows, a page after the row id ?2.
const SNAPSHOT_REGIONS: &str = "SELECT id, region_code FROM observations
                                WHERE snapshot_id = ?1 AND id > ?2 ORDER BY id LIMIT 10000";
/// Whether the dataset ?1 has a withdrawal standing for a cell (which a row of the file restores).
const HAS_WITHDRAWALS: &str = "SELECT EXISTS (SELECT 1 FROM series s
                               JOIN observations o INDEXED BY observations_withdrawn
                                 ON o.series_id = s.id AND o.superseded_by = 'withdrawn'
                               WHERE s.dataset_id = ?1)";
/// A page of series ?1's current rows that an earlier snapshot than ?2 wrote, after the cell
/// (?3, ?4) in the order of `observations_current`.
const OLDER_CURRENT_ROWS: &str = "SELECT id, citation_id, region_code, period, value_text, flags
    FROM observations INDEXED BY observations_current
    WHERE series_id = ?1 AND superseded_by IS NULL AND snapshot_id <> ?2
      AND (region_code > ?3 OR (region_code = ?3 AND period > ?4))
    ORDER BY region_code, period LIMIT 10000";
const SERIES_STATS: &str = "UPDATE series SET (obs_count, region_count, period_min, period_max) =
                                (SELECT count(*), count(DISTINCT region_code), min(period),
                                        max(period)
                                 FROM observations WHERE series_id = ?1 AND superseded_by IS NULL)
                            WHERE id = ?1";

/// The advisory lock imports hold from the moment they take their time to their commit (any
/// number; this one spells "imported").
const IMPORT_TIME_LOCK: i64 = 0x696d_706f_7274_6564;

/// The advisory locks an import of one dataset holds from its start to its commit, one per
/// dataset (this number plus the dataset's row id): its snapshots are numbered in the order
/// they commit, as reads as of a moment take them.
const DATASET_IMPORT_LOCKS: i64 = 0x6461_7461_0000_0000;

/// Gives the snapshots an import made (public ids) the time of its commit, as the last step
/// before it: a read as of an earlier moment must not take a snapshot no read then could see.
/// Each also keeps its dataset as the import leaves it (`described_json`).
/// Imports take their time and commit one at a time (on SQLite as its writes do; on PostgreSQL
/// under an advisory lock held to the commit), so no import still to commit can be earlier than
/// one committed, and an answer as of a moment before the latest import never changes.
pub fn stamp_import_time<'s>(
    tx: &Db<'_>,
    snapshots: impl IntoIterator<Item = &'s str>,
) -> SqlResult<()> {
    let mut snapshots = snapshots.into_iter().peekable();
    if snapshots.peek().is_none() {
        return Ok(());
    }
    tx.lock_transaction(IMPORT_TIME_LOCK)?;
    // Later than every import committed, whatever the clock of the node that made it said.
    let latest: Option<i64> =
        tx.query_row("SELECT max(imported_at) FROM snapshots", params![], |r| {
            r.get(0)
        })?;
    let now = crate::runtime::clock::now_ms().max(latest.map_or(0, |t| t + 1));
    let mut stamp = tx.prepare_cached(
        "UPDATE snapshots SET imported_at = ?2, described_json = ?3 WHERE public_id = ?1",
    )?;
    let mut dataset_of = tx.prepare_cached(&format!(
        "SELECT {DATASET_COLUMNS} FROM datasets
         WHERE id = (SELECT dataset_id FROM snapshots WHERE public_id = ?1)"
    ))?;
    for snapshot in snapshots {
        // The dataset as this import leaves it: what a read as of then shows of it.
        let dataset = dataset_of.query_row(params![snapshot], dataset_from_row)?;
        let described =
            serde_json::to_string(&dataset.described()).expect("a dataset's description is JSON");
        stamp.execute(params![snapshot, now, described])?;
    }
    Ok(())
}

/// How an import of one file begins: the file is the dataset's latest snapshot already, or its
/// rows are to be written.
pub enum Begun<'t, 'c> {
    Same(ImportOutcome),
    Writing(Box<SnapshotWriter<'t, 'c>>),
}

/// Distinct things an import meets and must remember to the end (the series whose statistics
/// and blocks it renews, the regions it registers), up to a bound: a file of millions of series
/// must not hold them all. Past the bound, only that they overflowed: the end then asks the
/// database.
enum Met<T> {
    Items(HashSet<T>),
    Overflowed,
}

/// Most series or regions one import remembers one by one.
const MAX_MET: usize = 100_000;

/// Most bytes of series keys (unit and dimensions) one import keeps.
const MAX_SERIES_KEY_BYTES: usize = 16 << 20;

impl<T: std::hash::Hash + Eq> Met<T> {
    fn new() -> Self {
        Met::Items(HashSet::new())
    }

    fn insert(&mut self, item: T) {
        if let Met::Items(items) = self
            && !items.contains(&item)
        {
            if items.len() == MAX_MET {
                *self = Met::Overflowed;
            } else {
                items.insert(item);
            }
        }
    }
}

/// Writes one file as a snapshot of its dataset, row by row as the file is read: what it holds
/// does not grow with the file (a bounded cache of series ids, the first changes for the
/// event).
pub struct SnapshotWriter<'t, 'c> {
    tx: &'t Db<'c>,
    code: String,
    dim_names: Vec<String>,
    file_sha256: String,
    owner: Option<i64>,
    dataset_id: i64,
    snapshot_id: i64,
    snapshot_public: String,
    previous_snapshot: Option<String>,
    /// Whether the dataset has rows a row of the file may revise.
    has_rows: bool,
    outcome: ImportOutcome,
    series_ids: HashMap<String, i64>,
    /// Bytes of the keys of `series_ids`: a key may be long (a thousand dimensions).
    series_key_bytes: usize,
    series_seen: Met<i64>,
    /// The series whose current rows change: their blocks are written again.
    touched: Met<i64>,
    regions_seen: Met<String>,
    /// The first changes, for the `dataset.updated` event: only those are built (an import may
    /// change millions of rows).
    changes: Vec<RowChange>,
    /// For a whole-dataset file over rows: the current rows it holds unchanged (or revives), by
    /// id, so that the end can withdraw the others.
    met_rows: Option<RowSet>,
    /// Whether the dataset has withdrawals a row of the file may restore.
    has_withdrawals: bool,
    find_series: Stmt<'c>,
    insert: BulkInsert<'c>,
    current: Stmt<'c>,
    supersede: Stmt<'c>,
    revive: Stmt<'c>,
    restore: Stmt<'c>,
    stretches: Stretches<'c>,
    key: String,
}

/// The stretches of time a row is current in, kept as rows are superseded and revived (see
/// `observation_spans` in schema.sql): a row's first stretch ends in its own
/// `until_snapshot_id`; a revival opens a stretch of its own, which the row's next supersession
/// closes.
struct Stretches<'c> {
    open: Stmt<'c>,
    close: Stmt<'c>,
}

impl<'c> Stretches<'c> {
    fn new(tx: &Db<'c>) -> SqlResult<Self> {
        Ok(Stretches {
            open: tx.prepare_cached(
                "INSERT INTO observation_spans (observation_id, series_id, region_code,
                                                owner_account_id, since_snapshot_id)
                 SELECT id, series_id, region_code, owner_account_id, ?2 FROM observations
                 WHERE id = ?1",
            )?,
            close: tx.prepare_cached(
                "UPDATE observation_spans SET until_snapshot_id = ?2
                 WHERE observation_id = ?1 AND until_snapshot_id IS NULL",
            )?,
        })
    }

    /// Row `id` stands again from `snapshot` on.
    fn revived(&mut self, id: i64, snapshot: i64) -> SqlResult<()> {
        self.open.execute(params![id, snapshot]).map(drop)
    }

    /// Row `id` was superseded in `snapshot`, and [`SUPERSEDE`] left its first stretch ending
    /// at `first_until`: that is an earlier snapshot only when the row had been revived since,
    /// and then the stretch its revival opened ends here.
    fn ended(&mut self, id: i64, first_until: i64, snapshot: i64) -> SqlResult<()> {
        if first_until != snapshot {
            self.close.execute(params![id, snapshot])?;
        }
        Ok(())
    }
}

/// Marks the row whose citation is ?1 superseded by ?2 in snapshot ?3 (see [`Stretches`]).
const SUPERSEDE: &str = "UPDATE observations
    SET superseded_by = ?2, until_snapshot_id = coalesce(until_snapshot_id, ?3)
    WHERE citation_id = ?1 RETURNING id, until_snapshot_id";

/// A set of observation ids, a bit each: 12.5 MB per 100 million rows of the table, however many
/// of them a file holds.
#[derive(Default)]
struct RowSet {
    bits: Vec<u64>,
}

impl RowSet {
    fn insert(&mut self, id: i64) {
        let Ok(id) = usize::try_from(id) else { return };
        let word = id / 64;
        if word >= self.bits.len() {
            self.bits.resize(word + 1, 0);
        }
        self.bits[word] |= 1 << (id % 64);
    }

    fn contains(&self, id: i64) -> bool {
        usize::try_from(id)
            .ok()
            .and_then(|id| self.bits.get(id / 64).map(|w| w & (1 << (id % 64)) != 0))
            .unwrap_or(false)
    }
}

impl<'t, 'c> SnapshotWriter<'t, 'c> {
    /// Writes the dataset's description and, unless the file is its latest snapshot already,
    /// begins a snapshot of `rows_in_file` rows.
    pub fn begin(
        tx: &'t Db<'c>,
        header: &FileHeader,
        meta: &DatasetMeta,
        origin: &FileOrigin<'_>,
        owner: Option<i64>,
        rows_in_file: u64,
    ) -> anyhow::Result<Begun<'t, 'c>> {
        let FileOrigin {
            source_id,
            name: file_name,
            sha256: file_sha256,
            whole_dataset,
        } = *origin;
        let dataset_id = upsert_dataset(tx, meta, &header.dim_names, source_id, owner)?;
        tx.lock_transaction(DATASET_IMPORT_LOCKS.wrapping_add(dataset_id))?;
        let outcome = ImportOutcome {
            dataset: meta.code.clone(),
            file: file_name.to_owned(),
            snapshot: None,
            written: true,
            rows_in_file,
            added: 0,
            revised: 0,
            unchanged: 0,
            withdrawn: 0,
            new_regions: Vec::new(),
        };
        if latest_snapshot_sha(tx, &meta.code, owner)?.as_deref() == Some(file_sha256) {
            // The description just written may name another headline series (an operator's
            // setting changed): its series is the one facts and briefings read.
            set_headline_series(tx, dataset_id, &meta.headline)?;
            return Ok(Begun::Same(ImportOutcome {
                unchanged: rows_in_file,
                ..outcome
            }));
        }
        let has_rows: bool = tx.query_row(HAS_ROWS, params![dataset_id], |r| r.get(0))?;
        let has_withdrawals: bool =
            tx.query_row(HAS_WITHDRAWALS, params![dataset_id], |r| r.get(0))?;
        // The changes after the dataset's latest snapshot so far are this import's.
        let previous_snapshot: Option<String> = tx
            .query_row(
                "SELECT public_id FROM snapshots WHERE dataset_id = ?1 ORDER BY id DESC LIMIT 1",
                params![dataset_id],
                |r| r.get(0),
            )
            .optional()?;
        let snapshot_public = crate::ids::snapshot_id();
        let published_at = match source_id {
            Some(id) => published_at(tx, id)?,
            None => None,
        };
        let snapshot_id: i64 = tx.query_row(
            "INSERT INTO snapshots (public_id, dataset_id, owner_account_id, imported_at, file_name,
                                    file_sha256, format, rows_in_file, rows_added, rows_revised,
                                    rows_unchanged, citation_id, source_id, published_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 0, 0, 0, ?9, ?10, ?11) RETURNING id",
            params![
                snapshot_public,
                dataset_id,
                owner,
                crate::runtime::clock::now_ms(),
                file_name,
                file_sha256,
                header.format.as_str(),
                rows_in_file as i64,
                super::datasets::snapshot_citation_id(&snapshot_public, file_sha256),
                source_id,
                published_at,
            ],
            |r| r.get(0),
        )?;
        Ok(Begun::Writing(Box::new(SnapshotWriter {
            tx,
            code: meta.code.clone(),
            dim_names: header.dim_names.clone(),
            file_sha256: file_sha256.to_owned(),
            owner,
            dataset_id,
            snapshot_id,
            snapshot_public,
            previous_snapshot,
            has_rows,
            outcome,
            series_ids: HashMap::new(),
            series_key_bytes: 0,
            series_seen: Met::new(),
            touched: Met::new(),
            regions_seen: Met::new(),
            changes: Vec::new(),
            met_rows: (whole_dataset && has_rows).then(RowSet::default),
            has_withdrawals,
            find_series: tx.prepare_cached(
                "INSERT INTO series (dataset_id, unit, dims) VALUES (?1, ?2, ?3)
                 ON CONFLICT (dataset_id, unit, dims) DO UPDATE SET unit = excluded.unit
                 RETURNING id",
            )?,
            insert: tx.bulk_insert(
                "observations",
                &[
                    "citation_id",
                    "series_id",
                    "region_code",
                    "period",
                    "value",
                    "value_text",
                    "flags",
                    "conf_status",
                    "src_line",
                    "snapshot_id",
                    "owner_account_id",
                ],
            )?,
            current: tx.prepare_cached(CURRENT_ROW)?,
            supersede: tx.prepare_cached(SUPERSEDE)?,
            revive: tx.prepare_cached(
                "UPDATE observations SET superseded_by = NULL WHERE citation_id = ?1 RETURNING id",
            )?,
            restore: tx.prepare_cached(
                "UPDATE observations
                 SET superseded_by = ?4, until_snapshot_id = coalesce(until_snapshot_id, ?5)
                 WHERE series_id = ?1 AND region_code = ?2 AND period = ?3
                   AND superseded_by = 'withdrawn'
                 RETURNING citation_id, id, until_snapshot_id",
            )?,
            stretches: Stretches::new(tx)?,
            key: String::new(),
        })))
    }

    /// The id of the series of `row`, made when it is new.
    fn series_of(&mut self, row: &RawObservation, dims: &str) -> SqlResult<i64> {
        self.key.clear();
        self.key.push_str(&row.unit);
        self.key.push('\x1f');
        self.key.push_str(dims);
        if let Some(id) = self.series_ids.get(&self.key) {
            return Ok(*id);
        }
        let id: i64 = self
            .find_series
            .query_row(params![self.dataset_id, row.unit, dims], |r| r.get(0))?;
        // A cache: past its bound it starts again rather than grow with the file.
        if self.series_ids.len() == MAX_MET || self.series_key_bytes > MAX_SERIES_KEY_BYTES {
            self.series_ids.clear();
            self.series_key_bytes = 0;
        }
        self.series_key_bytes += self.key.len();
        self.series_ids.insert(self.key.clone(), id);
        self.series_seen.insert(id);
        Ok(id)
    }

    /// Writes one row of the file: added when its cell is new, unchanged when it equals the
    /// current row, otherwise a revision superseding it.
    pub fn add(&mut self, row: &RawObservation) -> anyhow::Result<()> {
        let dims = canonical_dims(&self.dim_names, &row.dim_values);
        let series_id = self.series_of(row, &dims)?;
        self.regions_seen.insert(row.region.clone());
        let cit = citation_id(&CanonicalRow {
            dataset: &self.code,
            region: &row.region,
            period: &row.period,
            dims: &dims,
            value_text: &row.value_text,
            flags: &row.flags,
            unit: &row.unit,
            file_sha256: &self.file_sha256,
            conf_status: &row.conf_status,
            owner: self.owner,
        });
        let existing: Option<(String, String, String, String, i64)> = if self.has_rows {
            self.current
                .query_row(params![row.region, series_id, row.period], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                })
                .optional()?
        } else {
            None
        };
        let snapshot = self.snapshot_id;
        let replaced = match existing {
            None if self.has_withdrawals => {
                let restored = self
                    .restore
                    .query_row(
                        params![series_id, row.region, row.period, &cit, snapshot],
                        |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)?, r.get::<i64>(2)?)),
                    )
                    .optional()?;
                match restored {
                    Some((withdrawal, id, first_until)) => {
                        self.stretches.ended(id, first_until, snapshot)?;
                        Some(Replaced::withdrawal(withdrawal))
                    }
                    None => None,
                }
            }
            None => None,
            Some((_, text, flags, conf, id))
                if text == row.value_text && flags == row.flags && conf == row.conf_status =>
            {
                if let Some(met) = &mut self.met_rows {
                    met.insert(id);
                }
                self.outcome.unchanged += 1;
                return Ok(());
            }
            Some((old, old_text, old_flags, _, _)) => {
                // Free the (region, series, period) slot first: only one current row may hold it.
                let (id, first_until) = self
                    .supersede
                    .query_row(params![old, cit, snapshot], |r| Ok((r.get(0)?, r.get(1)?)))?;
                self.stretches.ended(id, first_until, snapshot)?;
                Some(Replaced {
                    citation_id: old,
                    value_text: old_text,
                    flags: old_flags,
                    withdrawal: false,
                })
            }
        };
        // A value that returns to an earlier one revives that row and its citation.
        let revived = match replaced.is_some() {
            true => (self.revive)
                .query_row(params![&cit], |r| r.get::<i64>(0))
                .optional()?,
            false => None,
        };
        if let Some(id) = revived {
            self.stretches.revived(id, snapshot)?;
            if let Some(met) = &mut self.met_rows {
                met.insert(id);
            }
        }
        if revived.is_none() {
            self.insert.add(params![
                cit,
                series_id,
                row.region,
                row.period,
                row.value,
                row.value_text,
                row.flags,
                row.conf_status,
                row.src_line as i64,
                self.snapshot_id,
                self.owner
            ])?;
        }
        match &replaced {
            Some(r) if !r.withdrawal => self.outcome.revised += 1,
            _ => self.outcome.added += 1,
        }
        if self.changes.len() < events::MAX_LISTED_CHANGES {
            self.changes.push(RowChange::new(
                (&row.region, &row.period, &row.unit, &dims),
                Some((&row.value_text, &row.flags)),
                &cit,
                replaced,
            ));
        }
        self.touched.insert(series_id);
        Ok(())
    }

    /// Withdraws the current rows of the dataset that a whole-dataset file did not hold: each
    /// gets a withdrawal in the new snapshot, which supersedes it. Read a page at a time, series
    /// by series, in the order of the current rows' index.
    fn withdraw_absent(&mut self, met: &RowSet) -> anyhow::Result<()> {
        let tx = self.tx;
        let mut series = tx.prepare_cached(
            "SELECT id, unit, dims FROM series WHERE dataset_id = ?1 AND id > ?2 ORDER BY id
             LIMIT 1000",
        )?;
        let mut older = tx.prepare_cached(OLDER_CURRENT_ROWS)?;
        let mut withdraw = tx.prepare_cached(
            "INSERT INTO observations (citation_id, series_id, region_code, period, value,
                                       value_text, flags, conf_status, src_line, snapshot_id,
                                       owner_account_id, superseded_by, withdrawn)
             VALUES (?1, ?2, ?3, ?4, NULL, '', '', '', 0, ?5, ?6, 'withdrawn', ?7)",
        )?;
        let mut supersede = tx.prepare_cached(SUPERSEDE)?;
        let mut made_before =
            tx.prepare_cached("SELECT id FROM observations WHERE citation_id = ?1")?;
        let mut stands_again =
            tx.prepare_cached("UPDATE observations SET superseded_by = 'withdrawn' WHERE id = ?1")?;
        let mut after_series = 0i64;
        loop {
            let page: Vec<(i64, String, String)> = series
                .query_map(params![self.dataset_id, after_series], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })?
                .collect::<SqlResult<_>>()?;
            let Some(&(last, _, _)) = page.last() else {
                return Ok(());
            };
            after_series = last;
            for (series_id, unit, dims) in page {
                let mut after = (String::new(), String::new());
                loop {
                    type Current = (i64, String, String, String, String, String);
                    let rows: Vec<Current> = older
                        .query_map(
                            params![series_id, self.snapshot_id, &after.0, &after.1],
                            |r| {
                                Ok((
                                    r.get(0)?,
                                    r.get(1)?,
                                    r.get(2)?,
                                    r.get(3)?,
                                    r.get(4)?,
                                    r.get(5)?,
                                ))
                            },
                        )?
                        .collect::<SqlResult<_>>()?;
                    let Some((_, _, region, period, _, _)) = rows.last() else {
                        break;
                    };
                    after = (region.clone(), period.clone());
                    for (id, old, region, period, value_text, flags) in rows {
                        if met.contains(id) {
                            continue;
                        }
                        let cit = crate::citation_id::source_citation_id(
                            "withdrawal",
                            &[&old, &self.file_sha256],
                        );
                        let before: Option<i64> = made_before
                            .query_row(params![&cit], |r| r.get(0))
                            .optional()?;
                        match before {
                            // This file withdrew the value before, and it was published again
                            // since: the same withdrawal stands again (its id is the same).
                            Some(withdrawal) => {
                                stands_again.execute(params![withdrawal])?;
                                self.stretches.revived(withdrawal, self.snapshot_id)?;
                            }
                            None => {
                                withdraw.execute(params![
                                    &cit,
                                    series_id,
                                    &region,
                                    &period,
                                    self.snapshot_id,
                                    self.owner,
                                    true
                                ])?;
                            }
                        };
                        let first_until = supersede
                            .query_row(params![&old, &cit, self.snapshot_id], |r| {
                                r.get::<i64>(1)
                            })?;
                        self.stretches.ended(id, first_until, self.snapshot_id)?;
                        self.outcome.withdrawn += 1;
                        self.touched.insert(series_id);
                        self.series_seen.insert(series_id);
                        if self.changes.len() < events::MAX_LISTED_CHANGES {
                            self.changes.push(RowChange::new(
                                (&region, &period, &unit, &dims),
                                None,
                                &cit,
                                Some(Replaced {
                                    citation_id: old,
                                    value_text,
                                    flags,
                                    withdrawal: false,
                                }),
                            ));
                        }
                    }
                }
            }
        }
    }

    /// Ends the snapshot: the withdrawals of a whole-dataset file, its counts, the
    /// `dataset.updated` event, the series' statistics and blocks, the headline series and the
    /// regions met.
    pub fn finish(mut self, meta: &DatasetMeta) -> anyhow::Result<ImportOutcome> {
        // Every added row is written before anything reads them (the blocks, the statistics,
        // the rows to withdraw).
        self.insert.flush()?;
        if let Some(met) = self.met_rows.take() {
            self.withdraw_absent(&met)?;
        }
        let SnapshotWriter {
            tx,
            mut outcome,
            snapshot_id,
            snapshot_public,
            dataset_id,
            owner,
            ..
        } = self;
        if outcome.added + outcome.revised + outcome.withdrawn == 0 {
            tx.execute("DELETE FROM snapshots WHERE id = ?1", params![snapshot_id])?;
        } else {
            tx.execute(
                "UPDATE snapshots SET rows_added = ?2, rows_revised = ?3, rows_unchanged = ?4,
                                      rows_withdrawn = ?5
                 WHERE id = ?1",
                params![
                    snapshot_id,
                    outcome.added as i64,
                    outcome.revised as i64,
                    outcome.unchanged as i64,
                    outcome.withdrawn as i64
                ],
            )?;
            let listed = self.changes.len() as u64;
            let data = serde_json::json!({
                "dataset": meta.code,
                "snapshot": snapshot_public,
                "visibility": if owner.is_some() { "private" } else { "public" },
                "rows_added": outcome.added,
                "rows_revised": outcome.revised,
                "rows_unchanged": outcome.unchanged,
                "rows_withdrawn": outcome.withdrawn,
                "changes": self.changes,
                "changes_complete": listed == outcome.added + outcome.revised + outcome.withdrawn,
                "links": {
                    "dataset": format!("/datasets/{}", meta.code),
                    "export": format!("/export/bulk/{}.csv", meta.code),
                    "changes": match &self.previous_snapshot {
                        Some(since) => format!("/datasets/{}/changes?since_snapshot={since}", meta.code),
                        None => format!("/datasets/{}/changes", meta.code),
                    },
                },
            });
            let audience = owner.map_or(Audience::Everyone, Audience::Account);
            emit(tx, events::DATASET_UPDATED, audience, &data)?;
            outcome.snapshot = Some(snapshot_public);
        }
        let series = |met: Met<i64>, each: &mut dyn FnMut(i64) -> SqlResult<()>| match met {
            Met::Items(items) => {
                let mut items: Vec<i64> = items.into_iter().collect();
                items.sort_unstable();
                items.into_iter().try_for_each(&mut *each)
            }
            Met::Overflowed => in_pages(
                tx,
                "SELECT id, id FROM series WHERE dataset_id = ?1 AND id > ?2 ORDER BY id
                 LIMIT 10000",
                dataset_id,
                each,
            ),
        };
        let mut stats = tx.prepare_cached(SERIES_STATS)?;
        series(self.series_seen, &mut |id| {
            stats.execute(params![id]).map(drop)
        })?;
        drop(stats);
        series(self.touched, &mut |id| super::blocks::write_series(tx, id))?;
        set_headline_series(tx, dataset_id, &meta.headline)?;
        let mut regions = UnclassifiedRegions::new(tx, owner)?;
        match self.regions_seen {
            Met::Items(items) => items.iter().try_for_each(|code| regions.add(code))?,
            // The regions of rows unchanged were registered by the import that added them.
            // Paged by row in the order of the snapshot's index, so each page costs its rows (by
            // distinct code, every page read the whole snapshot again); a code met again is
            // inserted again, which changes nothing.
            Met::Overflowed => in_pages(tx, SNAPSHOT_REGIONS, snapshot_id, &mut |code: String| {
                regions.add(&code)
            })?,
        }
        outcome.new_regions = (regions.finish()?.into_iter())
            .map(|code| NewRegion {
                code,
                suggestions: Vec::new(),
            })
            .collect();
        Ok(outcome)
    }
}

/// Runs `each` on the values `sql` gives, a page at a time, so no more than a page is held:
/// `sql` takes `key` as ?1 and the last row id seen as ?2, and gives each row's id and value in
/// order of the id.
fn in_pages<T: Column>(
    tx: &Db<'_>,
    sql: &str,
    key: i64,
    each: &mut dyn FnMut(T) -> SqlResult<()>,
) -> SqlResult<()> {
    let mut stmt = tx.prepare_cached(sql)?;
    let mut after = 0i64;
    loop {
        let page: Vec<(i64, T)> = stmt
            .query_map(params![key, after], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<SqlResult<_>>()?;
        let Some(&(last, _)) = page.last() else {
            return Ok(());
        };
        page.into_iter().try_for_each(|(_, value)| each(value))?;
        after = last;
    }
}

/// When Eurostat published the data of source `source_id`, by what its origin records (a
/// Eurostat download's): the end (UTC) of its "last update of data" date, or the download if
/// that came first. The date gives no hour, so no read claims the data out any earlier than
/// they surely were.
fn published_at(tx: &Db<'_>, source_id: i64) -> SqlResult<Option<i64>> {
    let origin: Option<String> = tx
        .query_row(
            "SELECT origin_json FROM sources WHERE id = ?1",
            params![source_id],
            |r| r.get(0),
        )
        .optional()?;
    Ok(origin.and_then(|origin| {
        let origin: serde_json::Value = serde_json::from_str(&origin).ok()?;
        let day = crate::runtime::clock::parse_date(origin["last_update_of_data"].as_str()?)?;
        let day_end = day + 86_400_000 - 1;
        let downloaded = origin["downloaded_at"].as_str();
        Some(
            match downloaded.and_then(crate::runtime::clock::parse_rfc3339) {
                Some(downloaded) => day_end.min(downloaded),
                None => day_end,
            },
        )
    }))
}

fn set_headline_series(
    tx: &Db<'_>,
    dataset_id: i64,
    headline: &BTreeMap<String, String>,
) -> SqlResult<()> {
    let unit = headline.get("unit").map(String::as_str).unwrap_or("");
    let (names, values): (Vec<String>, Vec<String>) = headline
        .iter()
        .filter(|(k, _)| k.as_str() != "unit")
        .map(|(k, v)| (k.clone(), v.clone()))
        .unzip();
    tx.execute(
        "UPDATE datasets SET headline_series_id =
             (SELECT id FROM series WHERE dataset_id = ?1 AND unit = ?2 AND dims = ?3)
         WHERE id = ?1",
        params![dataset_id, unit, canonical_dims(&names, &values)],
    )?;
    Ok(())
}

mod regions;

impl crate::store::connections::System {
    /// Every public region code.
    pub fn region_codes(&self) -> crate::store::error::StoreResult<Vec<String>> {
        Ok(region_codes(&self.sql())?)
    }

    /// The codes of `owner`'s own regions (see [`own_region_codes`]).
    pub fn own_region_codes(&self, owner: i64) -> crate::store::error::StoreResult<Vec<String>> {
        Ok(own_region_codes(&self.sql(), owner)?)
    }
}

#[cfg(test)]
mod tests;
