//! Reads as of a past moment: each dataset is read as its latest snapshot by then left it (see
//! `observation_spans` in schema.sql for how a row's stretches of time are kept). The rows held
//! in memory and the blocks are the current ones only: a public dataset's rows as of a snapshot
//! are held in memory when first read (see `past_rows`), others are read from the database.

use std::collections::HashMap;
use std::sync::Arc;

use crate::store::sql::{OptionalExtension, params};

use super::connections::Scoped;
use super::error::StoreResult;
use super::public_rows::{PublicRows, ROW_BYTES, SeriesCounts};
use super::revisions::SnapshotTimes;
use super::rows::datasets::{DatasetRow, Described, SeriesRow};
use super::rows::observations::{OBS_COLUMNS, ObsRow, obs_at};

/// Which time of a snapshot a moment is compared with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Basis {
    /// When the snapshot was imported here: what this installation answered then.
    Imported,
    /// When Eurostat published its data; a snapshot whose publication time is not known is
    /// taken from its import (it was published by then at the latest).
    Published,
}

impl Basis {
    pub fn as_str(self) -> &'static str {
        match self {
            Basis::Imported => "imported",
            Basis::Published => "published",
        }
    }
}

/// A moment to read the data as of: unix ms, and the basis it is compared on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AsOf {
    pub at_ms: i64,
    pub basis: Basis,
    /// Asked as today's date, which means now: asked again later, the same words mean a later
    /// moment, so an answer to them is never final.
    pub moving: bool,
}

impl AsOf {
    /// The time of snapshot `t` this moment is compared with, on its basis (as the statements
    /// that resolve a snapshot in the database compare them).
    fn time_of(&self, t: &SnapshotTimes) -> i64 {
        match self.basis {
            Basis::Imported => t.imported_at,
            Basis::Published => t.published_at.unwrap_or(t.imported_at),
        }
    }

    /// `as_of` (an RFC 3339 instant, or a date meaning the end of that day UTC, today's
    /// meaning `now_ms`) and `as_of_basis` (`imported`, the default, or `published`), as a
    /// request gives them. A moment after `now_ms` is refused: the data of then is not known
    /// yet. An error names the field at fault and says why.
    pub fn parse(
        as_of: Option<&str>,
        basis: Option<&str>,
        now_ms: i64,
    ) -> Result<Option<AsOf>, (&'static str, String)> {
        use crate::error_text::shown;
        let basis = match basis {
            None | Some("imported") => Basis::Imported,
            Some("published") => Basis::Published,
            Some(other) => {
                return Err((
                    "as_of_basis",
                    format!(
                        "as_of_basis is imported or published, not \"{}\"",
                        shown(other)
                    ),
                ));
            }
        };
        let Some(text) = as_of else {
            if basis == Basis::Published {
                return Err((
                    "as_of_basis",
                    "as_of_basis takes an as_of to apply to".into(),
                ));
            }
            return Ok(None);
        };
        const DAY_MS: i64 = 86_400_000;
        let today = |day: i64| day + DAY_MS > now_ms && day <= now_ms;
        let moving = crate::runtime::clock::parse_date(text).is_some_and(today);
        let at_ms = match crate::runtime::clock::parse_date(text) {
            Some(day) if today(day) => now_ms,
            Some(day) => day + DAY_MS - 1,
            None => crate::runtime::clock::parse_rfc3339(text).ok_or_else(|| {
                (
                    "as_of",
                    format!(
                        "as_of is an RFC 3339 date-time (2026-03-01T12:00:00Z) or a date \
                         (2026-03-01), not \"{}\"",
                        shown(text)
                    ),
                )
            })?,
        };
        if at_ms > now_ms {
            return Err((
                "as_of",
                format!(
                    "as_of {} is later than now ({}): the data of then is not known yet",
                    shown(text),
                    crate::runtime::clock::rfc3339(now_ms)
                ),
            ));
        }
        Ok(Some(AsOf {
            at_ms,
            basis,
            moving,
        }))
    }
}

/// The snapshot a dataset (its code) was read as of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub dataset: String,
    pub snapshot: SnapshotTimes,
}

/// What the reads of one caller resolved: by dataset id, its snapshot (None: the dataset held
/// no snapshot by then).
#[derive(Default)]
pub(super) struct Resolutions {
    by_dataset: HashMap<i64, Option<Resolved>>,
    dataset_of_series: HashMap<i64, i64>,
    /// Each dataset as its snapshot then described it, by dataset id.
    described: HashMap<i64, Arc<DatasetRow>>,
}

/// The latest snapshot of dataset ?1 by the moment ?2, on each basis.
const SNAPSHOT_BY_IMPORT: &str = "SELECT s.id, d.code, s.public_id, s.imported_at, s.published_at
    FROM v_snapshots s JOIN v_datasets d ON d.id = s.dataset_id
    WHERE s.dataset_id = ?1 AND s.imported_at <= ?2 ORDER BY s.id DESC LIMIT 1";
const SNAPSHOT_BY_PUBLICATION: &str = "SELECT s.id, d.code, s.public_id, s.imported_at,
        s.published_at
    FROM v_snapshots s JOIN v_datasets d ON d.id = s.dataset_id
    WHERE s.dataset_id = ?1 AND coalesce(s.published_at, s.imported_at) <= ?2
    ORDER BY s.id DESC LIMIT 1";

/// The rows current in the snapshot numbered by the parameter `snapshot`, among those `filter`
/// selects (a condition on the `series_id` and `region_code` of the table alias it is given,
/// and on `o` for the rest): current rows written by then and not revived since
/// (`observations_current`), rows superseded after it (`observations_past`), and revived rows'
/// later stretches. Withdrawals are no values.
fn rows_then(columns: &str, filter: impl Fn(&str) -> String, snapshot: &str) -> String {
    let (in_rows, in_spans) = (filter("o"), filter("sp"));
    format!(
        "SELECT {columns} FROM v_observations o
         WHERE {in_rows} AND o.superseded_by IS NULL AND o.snapshot_id <= {snapshot}
           AND (o.until_snapshot_id IS NULL OR o.until_snapshot_id > {snapshot})
         UNION ALL
         SELECT {columns} FROM v_observations o
         WHERE {in_rows} AND o.superseded_by IS NOT NULL AND NOT o.withdrawn
           AND o.snapshot_id <= {snapshot} AND o.until_snapshot_id > {snapshot}
         UNION ALL
         SELECT {columns} FROM v_observation_spans sp
         JOIN v_observations o ON o.id = sp.observation_id
         WHERE {in_spans} AND NOT o.withdrawn AND sp.since_snapshot_id <= {snapshot}
           AND (sp.until_snapshot_id IS NULL OR sp.until_snapshot_id > {snapshot})"
    )
}

/// The rows of series ?2 in region ?1 current in snapshot ?3.
static ROWS_AT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    rows_then(
        OBS_COLUMNS,
        |t| format!("{t}.region_code = ?1 AND {t}.series_id = ?2"),
        "?3",
    )
});

/// How many rows and regions, and which first and last period, each series of dataset ?1 had
/// in snapshot ?2.
static SERIES_AT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let rows = rows_then(
        "o.series_id, o.region_code, o.period",
        |t| format!("{t}.series_id IN (SELECT id FROM v_series WHERE dataset_id = ?1)"),
        "?2",
    );
    format!(
        "SELECT series_id, count(*), count(DISTINCT region_code), min(period), max(period)
         FROM ({rows}) t GROUP BY series_id"
    )
});

/// The rows of dataset ?1 current in snapshot ?2, by series, region and period, as
/// [`super::public_rows::PublicRows`] holds them.
pub(super) static DATASET_ROWS_AT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let rows = rows_then(
        "o.series_id, o.region_code, o.period, o.value, o.value_text, o.flags, o.conf_status,
         o.citation_id, o.snapshot_id, o.src_line",
        |t| format!("{t}.series_id IN (SELECT id FROM v_series WHERE dataset_id = ?1)"),
        "?2",
    );
    format!("SELECT * FROM ({rows}) t ORDER BY series_id, region_code, period")
});

/// The rows of series ?1 in the periods ?2 to ?3 (either NULL: unbounded) current in snapshot
/// ?4, by region and period, as an export writes them.
pub(super) static EXPORT_ROWS_AT: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    let rows = rows_then(
        "o.region_code, o.period, o.value_text, o.flags, o.conf_status, o.citation_id",
        |t| {
            format!(
                "{t}.series_id = ?1 AND (o.period >= ?2 OR ?2 IS NULL)
                 AND (o.period <= ?3 OR ?3 IS NULL)"
            )
        },
        "?4",
    );
    format!("SELECT * FROM ({rows}) t ORDER BY region_code, period")
});

impl Scoped {
    /// Reads from now on as of `as_of` (None: as of now).
    pub fn read_as_of(&self, as_of: Option<AsOf>) {
        self.as_of.set(as_of);
        *self.resolutions.borrow_mut() = Resolutions::default();
    }

    /// The moment reads are as of, if not now.
    pub fn as_of(&self) -> Option<AsOf> {
        self.as_of.get()
    }

    /// Whether what is read as of the moment can no longer change: the moment is on the basis
    /// of imports here, and before an import the caller's data has. Imports take their time as
    /// they commit, one at a time, each later than every one before (see
    /// `import::stamp_import_time`), so none still to commit can be earlier. The newest snapshot
    /// by row id is read (one row, or the public catalogue's newest: not a scan of them all):
    /// its time is at most the latest one, so the answer errs on the side of "may still change".
    pub fn as_of_is_final(&self) -> StoreResult<bool> {
        let Some(as_of) = (self.as_of.get()).filter(|a| a.basis == Basis::Imported && !a.moving)
        else {
            return Ok(false);
        };
        // A caller with a public catalogue sees public snapshots only.
        let newest: Option<i64> = match self.public_catalogue() {
            Some(catalogue) => catalogue.newest_import(),
            None => (self.sql())
                .prepare_cached("SELECT imported_at FROM v_snapshots ORDER BY id DESC LIMIT 1")?
                .query_row(params![], |r| r.get(0))
                .optional()?,
        };
        Ok(newest.is_some_and(|newest| as_of.at_ms < newest))
    }

    /// The snapshots the reads so far resolved to, by dataset code.
    pub fn resolved(&self) -> Vec<Resolved> {
        let mut out: Vec<Resolved> = (self.resolutions.borrow().by_dataset.values())
            .filter_map(Option::clone)
            .collect();
        out.sort_by(|a, b| a.dataset.cmp(&b.dataset));
        out
    }

    /// The snapshot dataset `dataset_id` is read as of, or None when it held none by then. Only
    /// when reads are as of a moment.
    pub fn snapshot_as_of(&self, dataset_id: i64) -> StoreResult<Option<Resolved>> {
        let Some(as_of) = self.as_of.get() else {
            return Ok(None);
        };
        if let Some(found) = self.resolutions.borrow().by_dataset.get(&dataset_id) {
            return Ok(found.clone());
        }
        let catalogue = self.public_catalogue();
        let held = (catalogue.as_deref()).and_then(|c| Some((c, c.snapshot_times(dataset_id)?)));
        let found = match held {
            Some((catalogue, times)) => {
                let code = (catalogue.datasets().iter()).find(|d| d.id == dataset_id);
                (times.iter().rev())
                    .find(|t| as_of.time_of(t) <= as_of.at_ms)
                    .zip(code)
                    .map(|(t, d)| Resolved {
                        dataset: d.code.clone(),
                        snapshot: t.clone(),
                    })
            }
            _ => self.snapshot_as_of_in_database(dataset_id, as_of)?,
        };
        (self.resolutions.borrow_mut().by_dataset).insert(dataset_id, found.clone());
        Ok(found)
    }

    /// [`Scoped::snapshot_as_of`] read from the database.
    fn snapshot_as_of_in_database(
        &self,
        dataset_id: i64,
        as_of: AsOf,
    ) -> StoreResult<Option<Resolved>> {
        let sql = match as_of.basis {
            Basis::Imported => SNAPSHOT_BY_IMPORT,
            Basis::Published => SNAPSHOT_BY_PUBLICATION,
        };
        let found = (self.sql().prepare_cached(sql)?)
            .query_row(params![dataset_id, as_of.at_ms], |r| {
                Ok(Resolved {
                    dataset: r.get(1)?,
                    snapshot: SnapshotTimes {
                        id: r.get(0)?,
                        public_id: r.get(2)?,
                        imported_at: r.get(3)?,
                        published_at: r.get(4)?,
                    },
                })
            })
            .optional()?;
        Ok(found)
    }

    /// The newest snapshot (row id) of dataset `dataset_id` that reads see: the one it is read
    /// as of (0 when it held none by then), or any when reads are as of now.
    pub fn snapshot_bound(&self, dataset_id: i64) -> StoreResult<i64> {
        if self.as_of.get().is_none() {
            return Ok(i64::MAX);
        }
        Ok((self.snapshot_as_of(dataset_id)?).map_or(0, |r| r.snapshot.id))
    }

    /// The series of dataset `dataset_id` with their counts and periods as of the moment reads
    /// are as of: those that held rows then.
    pub fn series_then(&self, dataset_id: i64) -> StoreResult<Arc<[SeriesRow]>> {
        let now = self.series_of(dataset_id)?;
        if self.as_of.get().is_none() {
            return Ok(now);
        }
        let snapshot = self.snapshot_bound(dataset_id)?;
        // From the rows of then held in memory, or counted by the database.
        let mut then = match self.past_rows(dataset_id, snapshot)? {
            Some(past) => past.coverage_by_series(),
            None => {
                let mut stmt = self.sql().prepare_cached(&SERIES_AT)?;
                let rows = stmt.query_map(params![dataset_id, snapshot], |r| {
                    let counts = SeriesCounts {
                        rows: r.get(1)?,
                        regions: r.get(2)?,
                        first: r.get::<Option<String>>(3)?.map(Into::into),
                        last: r.get::<Option<String>>(4)?.map(Into::into),
                    };
                    Ok((r.get::<i64>(0)?, counts))
                })?;
                rows.collect::<Result<_, _>>()?
            }
        };
        Ok((now.iter())
            .filter_map(|s| {
                let counts = then.remove(&s.id)?;
                Some(SeriesRow {
                    id: s.id,
                    unit: s.unit.clone(),
                    dims: s.dims.clone(),
                    obs_count: counts.rows,
                    region_count: counts.regions,
                    period_min: counts.first.map(String::from),
                    period_max: counts.last.map(String::from),
                })
            })
            .collect())
    }

    /// Dataset `row` as the snapshot it is read as of described it: as it is now when reads are
    /// as of now, when it held no snapshot then, or when its snapshot was imported before
    /// snapshots kept their dataset's description.
    pub(super) fn dataset_then(&self, row: Arc<DatasetRow>) -> StoreResult<Arc<DatasetRow>> {
        if self.as_of.get().is_none() {
            return Ok(row);
        }
        if let Some(found) = self.resolutions.borrow().described.get(&row.id) {
            return Ok(Arc::clone(found));
        }
        let Some(resolved) = self.snapshot_as_of(row.id)? else {
            return Ok(row);
        };
        let snapshot = resolved.snapshot.id;
        let catalogue = self.public_catalogue();
        let then = match catalogue.filter(|c| c.snapshot_times(row.id).is_some()) {
            Some(catalogue) => catalogue.described_then(&row, snapshot),
            None => {
                let text: Option<String> = (self.sql())
                    .prepare_cached("SELECT described_json FROM v_snapshots WHERE id = ?1")?
                    .query_row(params![snapshot], |r| r.get(0))
                    .optional()?
                    .flatten();
                match text.and_then(|t| serde_json::from_str::<Described>(&t).ok()) {
                    Some(then) if then != row.described() => Arc::new(row.described_as(then)),
                    _ => row,
                }
            }
        };
        (self.resolutions.borrow_mut().described).insert(then.id, Arc::clone(&then));
        Ok(then)
    }

    /// The dataset of series `series_id` (0 if the caller cannot see it).
    fn dataset_of_series(&self, series_id: i64) -> StoreResult<i64> {
        if let Some(&id) = self.resolutions.borrow().dataset_of_series.get(&series_id) {
            return Ok(id);
        }
        let held = (self.public_catalogue()).and_then(|c| c.series(series_id).map(|(d, _)| d.id));
        let id = match held {
            Some(id) => id,
            None => self
                .sql()
                .prepare_cached("SELECT dataset_id FROM v_series WHERE id = ?1")?
                .query_row(params![series_id], |r| r.get(0))
                .optional()?
                .unwrap_or(0),
        };
        (self.resolutions.borrow_mut().dataset_of_series).insert(series_id, id);
        Ok(id)
    }

    /// The rows of one series for one region as of the moment reads are as of, by period.
    pub(super) fn rows_as_of(&self, region: &str, series_id: i64) -> StoreResult<Vec<ObsRow>> {
        if let Some(held) = self.held_rows_of(series_id)? {
            return Ok(held.series_rows(series_id, region));
        }
        let dataset = self.dataset_of_series(series_id)?;
        let Some(resolved) = self.snapshot_as_of(dataset)? else {
            return Ok(Vec::new());
        };
        let snapshot = resolved.snapshot.id;
        let mut stmt = self.sql().prepare_cached(&ROWS_AT)?;
        let mut rows = stmt
            .query_map(params![region, series_id, snapshot], |r| obs_at(r, 0))?
            .collect::<Result<Vec<_>, _>>()?;
        rows.sort_unstable_by(|a, b| a.period.cmp(&b.period));
        Ok(rows)
    }
}

/// Rows held in memory a series is read from: the current ones, or those of a past snapshot.
pub(super) enum HeldRows<'a> {
    Now(&'a PublicRows),
    Then(Arc<PublicRows>),
}

impl std::ops::Deref for HeldRows<'_> {
    type Target = PublicRows;

    fn deref(&self) -> &PublicRows {
        match self {
            HeldRows::Now(rows) => rows,
            HeldRows::Then(rows) => rows,
        }
    }
}

impl Scoped {
    /// The rows held in memory that series `series_id` is read from, as of the moment reads
    /// are as of (or now): None where the database is read instead.
    pub(super) fn held_rows_of(&self, series_id: i64) -> StoreResult<Option<HeldRows<'_>>> {
        let Some(now) = self.public_rows_of(series_id) else {
            return Ok(None);
        };
        if self.as_of().is_none() {
            return Ok(Some(HeldRows::Now(now)));
        }
        let dataset = self.dataset_of_series(series_id)?;
        let Some(resolved) = self.snapshot_as_of(dataset)? else {
            return Ok(None);
        };
        Ok((self.past_rows(dataset, resolved.snapshot.id)?).map(HeldRows::Then))
    }

    /// The rows of public dataset `dataset_id` as of its snapshot `snapshot_id`, held in memory
    /// (see [`super::past_rows`]) where the current ones are: None where they are not (or do
    /// not fit), and the database is read instead.
    fn past_rows(&self, dataset_id: i64, snapshot_id: i64) -> StoreResult<Option<Arc<PublicRows>>> {
        let Some(data) = self.public_data() else {
            return Ok(None);
        };
        let Some(series) = data.catalogue.series_of(dataset_id) else {
            return Ok(None);
        };
        if !series.first().is_some_and(|s| data.rows.holds(s.id)) {
            return Ok(None);
        }
        // About the rows it has now: revisions replace rows more often than they add them.
        let rows: i64 = series.iter().map(|s| s.obs_count).sum();
        let estimate = usize::try_from(rows)
            .unwrap_or(usize::MAX)
            .saturating_mul(ROW_BYTES);
        data.past
            .get_or_read(dataset_id, snapshot_id, estimate, |budget| {
                // Read as no account, as the current public rows are, whoever asked first.
                let db = self.sql();
                self.bind_account(db, None)?;
                let read = PublicRows::load_as_of(&db, dataset_id, &series, snapshot_id, budget);
                self.bind_account(db, self.account)?;
                Ok(read?.ok())
            })
    }

    /// Whether the row cited `id`, of dataset `dataset_id`, is known to have been current at
    /// the moment reads are as of without reading its history: the dataset's rows then are held
    /// in memory, and hold it. False says nothing.
    pub fn known_current_then(&self, dataset_id: i64, id: &str) -> StoreResult<bool> {
        let Some(resolved) = self.snapshot_as_of(dataset_id)? else {
            return Ok(false);
        };
        let past = self.past_rows(dataset_id, resolved.snapshot.id)?;
        Ok(past.is_some_and(|rows| rows.cited(id).is_some()))
    }

    /// [`Scoped::headline_rows`] as of the moment reads are as of.
    pub(super) fn headline_rows_as_of(&self, region: &str) -> StoreResult<Vec<(i64, Vec<ObsRow>)>> {
        // Each dataset's headline series as its snapshot then described it.
        let mut datasets: Vec<(i64, i64)> = (self.datasets()?.iter())
            .filter_map(|d| Some((d.id, d.headline_series_id?)))
            .collect();
        datasets.sort_unstable();
        let mut out = Vec::new();
        for (dataset, series) in datasets {
            (self.resolutions.borrow_mut().dataset_of_series).insert(series, dataset);
            let rows = self.rows_as_of(region, series)?;
            if !rows.is_empty() {
                out.push((dataset, rows));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A date is the end of its day, today's is now; an instant is itself; later than now,
    /// malformed, or a basis without a moment is refused, naming the field.
    #[test]
    fn as_of_is_read_as_the_moment_it_means() {
        let now = crate::runtime::clock::parse_rfc3339("2026-11-29T10:30:00Z").unwrap();
        let at = |as_of: &str, basis: Option<&str>| AsOf::parse(Some(as_of), basis, now);
        let day_end = crate::runtime::clock::parse_rfc3339("2026-03-01T23:59:59.999Z").unwrap();
        assert_eq!(at("2026-03-01", None).unwrap().unwrap().at_ms, day_end);
        let today = at("2026-11-29", None).unwrap().unwrap();
        assert_eq!((today.at_ms, today.moving), (now, true));
        assert!(!at("2026-03-01", None).unwrap().unwrap().moving);
        let instant = at("2026-11-29T09:00:00+01:00", Some("published"))
            .unwrap()
            .unwrap();
        assert_eq!(instant.basis, Basis::Published);
        assert_eq!(instant.at_ms, now - 150 * 60 * 1000);
        for (as_of, basis, field) in [
            ("2026-11-30", None, "as_of"),
            ("2026-11-29T10:30:00.001Z", None, "as_of"),
            ("29.11.2026", None, "as_of"),
            ("2026-01-01", Some("vintage"), "as_of_basis"),
        ] {
            assert_eq!(at(as_of, basis).unwrap_err().0, field, "{as_of}");
        }
        assert_eq!(
            AsOf::parse(None, Some("published"), now).unwrap_err().0,
            "as_of_basis"
        );
        assert_eq!(AsOf::parse(None, None, now).unwrap(), None);
    }
}
