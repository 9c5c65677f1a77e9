//! The public datasets and their series, the sources (a table request connections may read
//! whole) and the public snapshots in memory, one catalogue per public data generation. Every
//! answer reads some of them (a comparison its dataset and series, a profile every dataset,
//! every cited row its source and snapshot, a citation its series, dataset and snapshot), yet
//! they change only when public data is imported; read from SQLite on every request they took
//! a sixth of an uncached answer's time. A caller who sees no private data sees exactly these
//! rows. A read transaction of such a caller reads the public data generation first
//! (`v_data_generation`) and takes the catalogue of that generation, so what an answer takes
//! from memory is what SQLite would have given it in the same transaction. What the catalogue
//! lacks is asked of SQLite (an unknown code, say), so it only ever saves a read.

use std::collections::HashMap;
use std::sync::Arc;

use super::sql::{Db, params};

use super::error::StoreResult;
use super::revisions::SnapshotTimes;
use super::rows::datasets::{
    DATASET_COLUMNS, DatasetRow, Described, SERIES_COLUMNS, SNAPSHOT_COLUMNS, SOURCE_COLUMNS,
    SeriesRow, SnapshotRow, dataset_from_row, series_from_row, snapshot_from_row, source_from_row,
};
use crate::bundled::SourceRecord;

/// The maps' hasher: foldhash (seeded per process) costs a fraction of SipHash for these short
/// keys, looked up several times in every answer; the keys are the operator's imported data.
type Fast = foldhash::fast::RandomState;

pub struct PublicCatalogue {
    /// In code order, as `Scoped::datasets` lists them.
    datasets: Vec<Arc<DatasetRow>>,
    /// Each dataset's series in (unit, dims) order, by dataset id.
    series: HashMap<i64, Arc<[SeriesRow]>, Fast>,
    /// Where each series is: its dataset's place in `datasets` and its own among the dataset's
    /// series.
    series_ids: HashMap<i64, (usize, usize), Fast>,
    sources: HashMap<i64, Arc<SourceRecord>, Fast>,
    /// The public snapshots, by row id.
    snapshots: HashMap<i64, Arc<SnapshotRow>, Fast>,
    /// Each public dataset's snapshots' times, by row id, by dataset id: what reads as of a
    /// moment resolve.
    snapshot_times: HashMap<i64, Vec<SnapshotTimes>, Fast>,
    /// Each public dataset as the snapshots that described it otherwise than it is now describe
    /// it, by snapshot row id (see [`Described`]).
    described: HashMap<i64, Arc<DatasetRow>, Fast>,
}

impl PublicCatalogue {
    /// Reads the catalogue through `db`'s views, public rows only, in its current transaction.
    pub fn load(db: &Db<'_>) -> StoreResult<PublicCatalogue> {
        let mut stmt = db.prepare(&format!(
            "SELECT {DATASET_COLUMNS} FROM v_datasets WHERE owner_account_id IS NULL ORDER BY code"
        ))?;
        let datasets = stmt
            .query_map(params![], |r| dataset_from_row(r).map(Arc::new))?
            .collect::<Result<Vec<_>, _>>()?;
        let mut stmt = db.prepare(&format!(
            "SELECT s.dataset_id, {SERIES_COLUMNS} FROM v_series s
             JOIN v_datasets d ON d.id = s.dataset_id AND d.owner_account_id IS NULL
             ORDER BY s.dataset_id, s.unit, s.dims"
        ))?;
        let mut rows = stmt.query(params![])?;
        let mut series: HashMap<i64, Vec<SeriesRow>> = HashMap::new();
        while let Some(r) = rows.next_row()? {
            let r = &r.row();
            series
                .entry(r.get(0)?)
                .or_default()
                .push(series_from_row(r, 1)?);
        }
        let mut stmt = db.prepare(&format!("SELECT id, {SOURCE_COLUMNS} FROM v_sources"))?;
        let sources = stmt
            .query_map(params![], |r| {
                Ok((r.get(0)?, Arc::new(source_from_row(r, 1)?)))
            })?
            .collect::<Result<_, _>>()?;
        let mut stmt = db.prepare(&format!(
            "SELECT s.id, {SNAPSHOT_COLUMNS} FROM v_snapshots s WHERE s.owner_account_id IS NULL"
        ))?;
        let snapshots = stmt
            .query_map(params![], |r| {
                Ok((r.get(0)?, Arc::new(snapshot_from_row(r, 1)?)))
            })?
            .collect::<Result<_, _>>()?;
        let mut stmt = db.prepare(
            "SELECT dataset_id, id, public_id, imported_at, published_at FROM v_snapshots
             WHERE owner_account_id IS NULL ORDER BY dataset_id, id",
        )?;
        let mut rows = stmt.query(params![])?;
        let mut snapshot_times: HashMap<i64, Vec<SnapshotTimes>, Fast> = HashMap::default();
        while let Some(r) = rows.next_row()? {
            let r = &r.row();
            snapshot_times
                .entry(r.get(0)?)
                .or_default()
                .push(SnapshotTimes {
                    id: r.get(1)?,
                    public_id: r.get(2)?,
                    imported_at: r.get(3)?,
                    published_at: r.get(4)?,
                });
        }
        let mut stmt = db.prepare(
            "SELECT dataset_id, id, described_json FROM v_snapshots
             WHERE owner_account_id IS NULL AND described_json IS NOT NULL",
        )?;
        let mut rows = stmt.query(params![])?;
        let mut described: HashMap<i64, Arc<DatasetRow>, Fast> = HashMap::default();
        while let Some(r) = rows.next_row()? {
            let r = &r.row();
            let (dataset_id, snapshot_id): (i64, i64) = (r.get(0)?, r.get(1)?);
            let Some(dataset) = datasets.iter().find(|d| d.id == dataset_id) else {
                continue;
            };
            // One that cannot be read describes nothing: the dataset shows as it is now.
            let Ok(then) = serde_json::from_str::<Described>(r.text(2)?) else {
                continue;
            };
            if then != dataset.described() {
                described.insert(snapshot_id, Arc::new(dataset.described_as(then)));
            }
        }
        let series_ids = datasets
            .iter()
            .enumerate()
            .flat_map(|(place, d)| {
                let list = series.get(&d.id).map_or(&[][..], Vec::as_slice);
                list.iter()
                    .enumerate()
                    .map(move |(at, s)| (s.id, (place, at)))
            })
            .collect();
        Ok(PublicCatalogue {
            datasets,
            series: series
                .into_iter()
                .map(|(id, s)| (id, Arc::from(s)))
                .collect(),
            series_ids,
            sources,
            snapshots,
            snapshot_times,
            described,
        })
    }

    /// Public dataset `dataset` as its snapshot `snapshot_id` described it.
    pub fn described_then(&self, dataset: &Arc<DatasetRow>, snapshot_id: i64) -> Arc<DatasetRow> {
        Arc::clone(self.described.get(&snapshot_id).unwrap_or(dataset))
    }

    /// The snapshots' times of public dataset `dataset_id`, by row id (None: not a public
    /// dataset of this catalogue).
    pub fn snapshot_times(&self, dataset_id: i64) -> Option<&[SnapshotTimes]> {
        self.snapshot_times.get(&dataset_id).map(Vec::as_slice)
    }

    /// When the newest public snapshot (by row id) was imported.
    pub fn newest_import(&self) -> Option<i64> {
        (self.snapshot_times.values())
            .filter_map(|times| times.last())
            .max_by_key(|t| t.id)
            .map(|t| t.imported_at)
    }

    /// Current rows of every public series, as the import counted them.
    pub fn observations(&self) -> i64 {
        self.series
            .values()
            .flat_map(|s| s.iter())
            .map(|s| s.obs_count)
            .sum()
    }

    pub fn datasets(&self) -> &[Arc<DatasetRow>] {
        &self.datasets
    }

    pub fn dataset(&self, code: &str) -> Option<&Arc<DatasetRow>> {
        let at = self
            .datasets
            .binary_search_by(|d| d.code.as_str().cmp(code))
            .ok()?;
        Some(&self.datasets[at])
    }

    /// The series of a public dataset that has any.
    pub fn series_of(&self, dataset_id: i64) -> Option<Arc<[SeriesRow]>> {
        self.series.get(&dataset_id).cloned()
    }

    pub fn source(&self, id: i64) -> Option<&Arc<SourceRecord>> {
        self.sources.get(&id)
    }

    pub fn snapshot(&self, id: i64) -> Option<&Arc<SnapshotRow>> {
        self.snapshots.get(&id)
    }

    /// A public series by id, with its dataset.
    pub fn series(&self, id: i64) -> Option<(&Arc<DatasetRow>, &SeriesRow)> {
        let (place, at) = *self.series_ids.get(&id)?;
        let dataset = &self.datasets[place];
        Some((dataset, &self.series.get(&dataset.id)?[at]))
    }
}

#[cfg(test)]
mod tests {
    use crate::store::connections::{Scoped, Store};
    use crate::store::sql::params;

    fn add_dataset(store: &Store, owner: Option<i64>, code: &str, title: &str, bump: bool) {
        let mut system = store.system().unwrap();
        let tx = system.transaction().unwrap();
        tx.execute(
            "INSERT INTO datasets (owner_account_id, code, title, topic) VALUES (?1, ?2, ?3, 't')",
            crate::store::sql::params![owner, code, title],
        )
        .unwrap();
        if bump {
            crate::store::generations::bump(&tx, owner).unwrap();
        }
        tx.commit().unwrap();
    }

    fn title(scoped: &Scoped, code: &str) -> Option<String> {
        scoped.dataset(code).unwrap().map(|d| d.title.clone())
    }

    /// A caller who sees public data only reads datasets from the catalogue of the generation
    /// its transaction reads (a change that bumps no generation stays unseen there, which shows
    /// the catalogue answers); a new generation brings a new catalogue; outside a transaction,
    /// and for an account with private data, SQLite answers.
    #[test]
    fn a_read_transaction_takes_the_catalogue_of_the_generation_it_reads() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), 3).unwrap();
        store
            .system()
            .unwrap()
            .create_account(
                "a@example.org",
                "A",
                crate::store::accounts::Tier::Professional,
                "",
                0,
            )
            .unwrap();
        add_dataset(&store, None, "pub_a", "first", true);
        let public = store
            .scoped(None)
            .unwrap()
            .with_public_data_only(0)
            .unwrap();
        {
            let _snapshot = public.snapshot().unwrap();
            assert_eq!(title(&public, "pub_a").as_deref(), Some("first"));
        }
        store
            .system()
            .unwrap()
            .sql()
            .execute(
                "UPDATE datasets SET title = 'renamed' WHERE code = 'pub_a'",
                params![],
            )
            .unwrap();
        {
            let _snapshot = public.snapshot().unwrap();
            assert_eq!(
                title(&public, "pub_a").as_deref(),
                Some("first"),
                "from memory"
            );
        }
        assert_eq!(
            title(&public, "pub_a").as_deref(),
            Some("renamed"),
            "outside: SQLite"
        );

        add_dataset(&store, None, "pub_b", "second", true);
        {
            let _snapshot = public.snapshot().unwrap();
            assert_eq!(title(&public, "pub_a").as_deref(), Some("renamed"));
            let codes: Vec<String> = public
                .datasets()
                .unwrap()
                .iter()
                .map(|d| d.code.clone())
                .collect();
            assert_eq!(codes, ["pub_a", "pub_b"]);
        }

        // An account's own dataset of a public code is its own, and never in the catalogue,
        // even when the server still counts the account as one without private data (its own
        // generation lags behind an import by another process): the transaction sees it owns
        // a dataset and asks SQLite.
        add_dataset(&store, Some(1), "pub_a", "private", true);
        let owner = store.scoped(Some(1)).unwrap();
        let lagging = store
            .scoped(Some(1))
            .unwrap()
            .with_public_data_only(0)
            .unwrap();
        for account in [&owner, &lagging] {
            let _snapshot = account.snapshot().unwrap();
            assert_eq!(title(account, "pub_a").as_deref(), Some("private"));
        }
        let _snapshot = public.snapshot().unwrap();
        assert_eq!(title(&public, "pub_a").as_deref(), Some("renamed"));
    }
}
