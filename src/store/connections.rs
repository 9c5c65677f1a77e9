//! What holds a connection: [`Store`] (the pools, and the public data held in memory), and the
//! connections it hands out: [`Scoped`] for requests, bound to the caller's account; [`Lookup`]
//! for authentication on the async threads; [`System`] for the account API's writes and
//! background work. The store's query modules add their methods to these.

use std::path::Path;
use std::time::Duration;

use super::backend::{self, Admin, Database, Pooled};
use super::error::{StoreError, StoreResult};
use super::per_generation::PerGeneration;
use super::public_catalogue::PublicCatalogue;
use super::public_rows::{self, Loaded, NotHeld, PublicData};
use super::region_index::RegionIndex;
use super::sql;
use crate::config::defaults::DATABASE_WAIT;

#[derive(Clone)]
pub struct Store {
    pub(super) pools: backend::Pools,
    /// What request connections of callers who see public data only take from memory.
    pub(super) public: std::sync::Arc<PublicInMemory>,
}

impl Store {
    /// Opens (creating if new, readable by its owner only) and migrates the SQLite database in
    /// `data_dir`, with one lookup connection.
    pub fn open(data_dir: &Path, pool_size: u32) -> anyhow::Result<Store> {
        Self::open_with(
            &Database::Sqlite(data_dir.to_path_buf()),
            pool_size,
            1,
            DATABASE_WAIT,
        )
    }

    /// Opens and migrates `database` for the server: `pool_size` request connections (on
    /// PostgreSQL, once [`Store::open_requests`] has their password) and `lookups` lookup
    /// connections, all opened at once, so checking one out never waits for one to be made; a
    /// write waits up to `wait` for a lock, and a blocking thread as long for a pooled
    /// connection.
    pub fn open_with(
        database: &Database,
        pool_size: u32,
        lookups: u32,
        wait: Duration,
    ) -> anyhow::Result<Store> {
        Ok(Store {
            pools: backend::Pools::open(database, pool_size, lookups, wait)?,
            public: Default::default(),
        })
    }

    /// PostgreSQL: opens the request connections, which log in as the request role with the
    /// password `password_of` derives from the role's name (the pepper's
    /// `request_role_password`, so that it passes through no statement and no table). Called
    /// once the secrets are loaded and checked; until then only the owner's connections are
    /// open. Nothing on SQLite.
    pub fn open_requests(&self, password_of: &dyn Fn(&str) -> String) -> anyhow::Result<()> {
        self.pools.open_requests(password_of)
    }

    /// A connection that sees public rows and those of `account` (None = anonymous), waiting up
    /// to the store's wait for one: blocking threads only.
    pub fn scoped(&self, account: Option<i64>) -> StoreResult<Scoped> {
        let conn = self.pools.request()?;
        Ok(Scoped::bind(conn, account, &self.public))
    }

    /// [`Store::scoped`] without waiting, for a read on an async thread: None when every request
    /// connection is in use.
    pub fn try_scoped(&self, account: Option<i64>) -> Option<Scoped> {
        let conn = self.pools.try_request()?;
        Some(Scoped::bind(conn, account, &self.public))
    }

    /// A read-only system connection for authentication on the async threads; never waits (Busy
    /// when every one is in use, which their number makes a transient state).
    pub fn lookup(&self) -> StoreResult<Lookup> {
        Ok(Lookup {
            conn: self.pools.lookup()?,
        })
    }

    /// A system connection for the account API's writes and background work, waiting up to the
    /// store's wait for one: blocking threads only. Its methods (see `accounts.rs`) take the account they act
    /// for from the authenticated caller.
    pub fn system(&self) -> StoreResult<System> {
        Ok(System {
            conn: self.pools.system()?,
        })
    }

    /// Whether several nodes may serve from this database at once (PostgreSQL): what one counts
    /// in memory, others need to read back. One process owns a SQLite file.
    pub fn shared(&self) -> bool {
        matches!(self.pools, backend::Pools::Postgres { .. })
    }

    /// A fresh connection outside the pools for operator work (imports, checks).
    pub fn admin(&self) -> anyhow::Result<Admin> {
        self.pools.admin()
    }

    /// Holds the current public rows of public data generation `generation` in memory, within
    /// `budget` bytes (see `public_rows`): unless they (or a later generation's) are held
    /// already, being read, or known not to fit, they are read on a thread of their own, at a low priority, through a request
    /// connection of no account, while requests go on reading SQLite. A budget of 0 holds
    /// nothing. Returns at once.
    pub fn hold_public_data(&self, generation: i64, budget: usize) {
        let public = &self.public;
        if budget == 0 {
            *public.data.write().unwrap_or_else(|e| e.into_inner()) = None;
            return;
        }
        let known_not_held = *public.not_held.lock().unwrap_or_else(|e| e.into_inner());
        // Rows of a later generation than the caller knows of (read just after an import) are
        // used once it knows of it.
        if public.held().is_some_and(|d| d.generation >= generation)
            || known_not_held == Some(generation)
            || public
                .loading
                .swap(true, std::sync::atomic::Ordering::AcqRel)
        {
            return;
        }
        // No request reads the rows of an older generation: they go before the new ones come,
        // so that two copies are never held at once.
        *public.data.write().unwrap_or_else(|e| e.into_inner()) = None;
        let (public, pools) = (std::sync::Arc::clone(&self.public), self.pools.clone());
        let read = move || {
            // However the read ends (a panic too), the next tick may start another.
            let _done = Loading(&public.loading);
            let _ = crate::runtime::priority::lower_this_thread(10);
            let started = std::time::Instant::now();
            let loaded = pools
                .public_reader()
                .map_err(StoreError::Other)
                .and_then(|conn| PublicData::load(&conn.sql(), budget));
            match loaded {
                Ok(Loaded::Held(data)) => {
                    let (datasets, of, unfit) = data.rows.datasets();
                    tracing::info!(
                        generation = data.generation,
                        datasets,
                        of,
                        unfit,
                        rows = data.rows.rows(),
                        megabytes = data.rows.bytes() / (1024 * 1024),
                        millis = started.elapsed().as_millis() as u64,
                        "public data held in memory"
                    );
                    *public.data.write().unwrap_or_else(|e| e.into_inner()) =
                        Some(std::sync::Arc::from(data));
                }
                Ok(Loaded::NotHeld { generation, reason }) => {
                    let why = match reason {
                        NotHeld::TooLarge => "every dataset larger than --public-data-mb",
                        NotHeld::Unfit => {
                            "every dataset that fits holds a value the compact form cannot"
                        }
                    };
                    tracing::info!(
                        generation,
                        budget_megabytes = budget / (1024 * 1024),
                        "public data {why}: read from the database"
                    );
                    *public.not_held.lock().unwrap_or_else(|e| e.into_inner()) = Some(generation);
                }
                Err(e) => {
                    // Not tried again at every tick: at the next generation, or after a restart.
                    tracing::warn!(error = %e, generation, "could not read public data into memory");
                    *public.not_held.lock().unwrap_or_else(|e| e.into_inner()) = Some(generation);
                }
            }
        };
        if let Err(e) = std::thread::Builder::new()
            .name("public-data".into())
            .spawn(read)
        {
            tracing::warn!(error = %e, "could not start reading public data into memory");
            self.public
                .loading
                .store(false, std::sync::atomic::Ordering::Release);
        }
    }

    /// The public data held in memory, if any.
    pub fn held_public_data(&self) -> Option<HeldPublicData> {
        self.public.held().map(|d| HeldPublicData {
            generation: d.generation,
            datasets: {
                let (held, of, _) = d.rows.datasets();
                (held, of)
            },
            rows: d.rows.rows(),
            bytes: d.rows.bytes(),
            past_bytes: d.past.bytes(),
        })
    }
}

/// The public data in memory, one copy per public data generation, shared by every request
/// connection (see `region_index`, `public_catalogue` and `public_rows`).
#[derive(Default)]
pub(super) struct PublicInMemory {
    pub(super) regions: PerGeneration<RegionIndex>,
    pub(super) catalogues: PerGeneration<PublicCatalogue>,
    /// The current public rows with their catalogue, of the datasets that fit the operator's
    /// budget: read on a thread of their own ([`Store::hold_public_data`]); until then, for any
    /// other generation and for the datasets not held, requests read the database.
    pub(super) data: std::sync::RwLock<Option<std::sync::Arc<PublicData>>>,
    /// A read of `data` is under way.
    pub(super) loading: std::sync::atomic::AtomicBool,
    /// The last generation found not to fit (or that could not be read), so that it is not read
    /// again at every tick.
    pub(super) not_held: std::sync::Mutex<Option<i64>>,
}

impl PublicInMemory {
    pub(super) fn held(&self) -> Option<std::sync::Arc<PublicData>> {
        self.data.read().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Marks the read of the public rows as ended when dropped.
struct Loading<'a>(&'a std::sync::atomic::AtomicBool);

impl Drop for Loading<'_> {
    fn drop(&mut self) {
        self.0.store(false, std::sync::atomic::Ordering::Release);
    }
}

/// What [`Store::hold_public_data`] holds now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HeldPublicData {
    pub generation: i64,
    /// Datasets held, and public datasets in all.
    pub datasets: (usize, usize),
    pub rows: usize,
    pub bytes: usize,
    /// Bytes of rows as of past snapshots held (see `past_rows`).
    pub past_bytes: usize,
}

/// How long one statement of a request may run on PostgreSQL: far past any answer's reads (an
/// export reads 10,000 rows a statement).
const STATEMENT_TIMEOUT: &str = "60s";
/// How long a request's transaction may wait between its statements on PostgreSQL: past an
/// export's longest wait for a slow reader (its send timeout).
const IDLE_TIMEOUT: &str = "120s";

/// A pooled connection bound to one caller; unbinds when dropped, so the next holder of the
/// connection starts anonymous.
pub struct Scoped {
    pub(super) conn: Pooled,
    pub(super) account: Option<i64>,
    pub(super) in_memory: std::sync::Arc<PublicInMemory>,
    /// Set by [`Scoped::with_public_data_only`]: region reads come from memory.
    pub(super) public_regions: Option<std::sync::Arc<RegionIndex>>,
    /// Set by [`Scoped::with_public_data_only`]: read transactions take the public catalogue.
    pub(super) public_only: bool,
    /// Set by [`Scoped::with_public_data_only`] when the public rows of the caller's generation
    /// are held: rows, datasets, sources and snapshots come from memory, without a read
    /// transaction.
    pub(super) public_data: Option<std::sync::Arc<PublicData>>,
    /// The public catalogue of the generation the current read transaction reads.
    pub(super) catalogue: std::cell::RefCell<Option<std::sync::Arc<PublicCatalogue>>>,
    /// A read snapshot of a caller reading from memory, begun at its first SQLite read.
    pub(super) snapshot_on_first_read: std::cell::Cell<bool>,
    /// The database had moved past `public_data`'s generation (a public import committed since
    /// the server last looked) when this caller first read it: the rest of its answer reads
    /// the database alone, so that it does not mix rows of two generations any further.
    pub(super) behind_the_database: std::cell::Cell<bool>,
    /// Set by [`Scoped::read_as_of`]: observations are read as of that moment.
    pub(super) as_of: std::cell::Cell<Option<super::as_of::AsOf>>,
    /// The snapshots reads as of a moment resolved to.
    pub(super) resolutions: std::cell::RefCell<super::as_of::Resolutions>,
}

impl Scoped {
    pub(super) fn bind(
        conn: Pooled,
        account: Option<i64>,
        in_memory: &std::sync::Arc<PublicInMemory>,
    ) -> Scoped {
        if let Some(conn) = conn.sqlite() {
            conn.bind_account(account);
        }
        Scoped {
            conn,
            account,
            in_memory: std::sync::Arc::clone(in_memory),
            public_regions: None,
            public_only: false,
            public_data: None,
            catalogue: Default::default(),
            snapshot_on_first_read: Default::default(),
            behind_the_database: Default::default(),
            as_of: Default::default(),
            resolutions: Default::default(),
        }
    }

    /// The connection, as the store's queries run on it. On SQLite a read of a caller reading
    /// from memory begins the snapshot here; on PostgreSQL every first read begins one (the
    /// transaction that sets the account for row-level security, `SET LOCAL` in effect: it
    /// ends with the transaction, as a transaction-pooling PgBouncer needs).
    pub(super) fn sql(&self) -> sql::Db<'_> {
        let db = self.conn.sql();
        let begin = match db {
            sql::Db::Sqlite(conn) => self.snapshot_on_first_read.get() && conn.is_autocommit(),
            sql::Db::Postgres(conn) => !conn.in_transaction(),
        };
        // Should the BEGIN fail, so does the read that follows (PostgreSQL), or it runs alone (a
        // read-only SQLite connection's BEGIN does not fail).
        if begin && self.begin(db).is_ok() {
            self.check_generation(db);
        }
        db
    }

    /// For a caller reading from memory, at its first database read (of what memory does not
    /// hold: a dataset past the budget, a superseded row): whether the database is still at
    /// the generation of the rows in memory.
    pub(super) fn check_generation(&self, db: sql::Db<'_>) {
        let Some(data) = &self.public_data else {
            return;
        };
        let now = db.query_row("SELECT value FROM v_data_generation", sql::params![], |r| {
            r.get::<i64>(0)
        });
        if now.map_or(true, |g| g != data.generation) {
            self.behind_the_database.set(true);
        }
    }

    pub(super) fn begin(&self, db: sql::Db<'_>) -> sql::SqlResult<()> {
        match db {
            sql::Db::Sqlite(conn) => Ok(conn.execute_batch("BEGIN")?),
            sql::Db::Postgres(conn) => {
                // One round trip: the account is a number, written into the statement. The
                // limits, local to the transaction as the account is (so they hold behind a
                // transaction-pooling PgBouncer too): a statement stuck in PostgreSQL, or a
                // request that stopped between its reads, lets go of its connection.
                let account = self.account.map_or(String::new(), |a| a.to_string());
                conn.batch_execute(&format!(
                    "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY;
                     SELECT set_config('regintel.account', '{account}', true),
                            set_config('statement_timeout', '{STATEMENT_TIMEOUT}', true),
                            set_config('idle_in_transaction_session_timeout', '{IDLE_TIMEOUT}', true)"
                ))?;
                conn.set_in_transaction(true);
                Ok(())
            }
        }
    }

    /// Makes `account` the one the views and policies show rows of, from now on.
    pub(super) fn bind_account(&self, db: sql::Db<'_>, account: Option<i64>) -> sql::SqlResult<()> {
        match (&self.conn, db) {
            (Pooled::Sqlite(conn), _) => {
                conn.bind_account(account);
                Ok(())
            }
            (Pooled::Postgres(_), db) => {
                let account = account.map_or(String::new(), |a| a.to_string());
                db.query_row(
                    "SELECT set_config('regintel.account', ?1, true)",
                    sql::params![account],
                    |_| Ok(()),
                )
            }
        }
    }

    /// Begins a read transaction: until the returned guard is dropped, every read of this
    /// connection sees the database as it was at its first read, whatever commits meanwhile,
    /// and takes the WAL's read lock once rather than once per statement. For a caller who
    /// sees public data only, that first read is the public data generation (and, for an
    /// account, that it owns no dataset: its own generation, in memory, may lag behind an
    /// import by another process), whose public catalogue then answers dataset, series, source
    /// and snapshot reads from memory.
    /// Inside a snapshot already, the guard changes nothing: the outer one ends it. A caller whose
    /// reads come from the public rows in memory (one generation already) reads no generation,
    /// and its transaction begins at its first SQLite read, if any; its own generation is the
    /// one in memory: an account that has just imported
    /// private data from another process reads public data only until the server polls the
    /// generations (about a second), as its answers in the answer cache do.
    pub fn snapshot(&self) -> StoreResult<ReadSnapshot<'_>> {
        let guard = |begun_on_first_read| ReadSnapshot {
            _tx: None,
            catalogue: None,
            begun_on_first_read,
        };
        if self.snapshot_on_first_read.get() || self.conn.sql().in_transaction() {
            return Ok(guard(None));
        }
        if self.public_data.is_some() {
            // An answer read wholly from memory begins none (a BEGIN and a ROLLBACK per answer
            // were a fifth of its instructions); what else it reads is read in one state, the
            // database's alone if a public import has committed since (`check_generation`).
            self.snapshot_on_first_read.set(true);
            return Ok(guard(Some(self)));
        }
        let tx = match self.conn.sql() {
            // PostgreSQL's request connections read in the one transaction of their first read.
            sql::Db::Postgres(_) => None,
            db @ sql::Db::Sqlite(_) => Some(db.read_snapshot()?),
        };
        if self.public_only {
            let (generation, owns_data): (i64, bool) = self
                .sql()
                .prepare_cached(
                    "SELECT (SELECT value FROM v_data_generation),
                            EXISTS (SELECT 1 FROM v_datasets
                                    WHERE coalesce(owner_account_id, 0) = current_account())",
                )?
                .query_row(sql::params![], |r| Ok((r.get(0)?, r.get(1)?)))?;
            if !owns_data {
                let catalogue = self.in_memory.catalogues.at(generation, || {
                    // Loaded for everyone: read as no account, whoever asked first.
                    let db = self.sql();
                    self.bind_account(db, None)?;
                    let loaded = PublicCatalogue::load(&db);
                    self.bind_account(db, self.account)?;
                    loaded
                })?;
                *self.catalogue.borrow_mut() = Some(catalogue);
            }
        }
        Ok(ReadSnapshot {
            _tx: tx,
            catalogue: Some(&self.catalogue),
            begun_on_first_read: None,
        })
    }

    /// The public catalogue, inside a read transaction of a caller who sees public data only.
    pub(super) fn public_catalogue(&self) -> Option<std::sync::Arc<PublicCatalogue>> {
        match self.public_data() {
            Some(data) => Some(std::sync::Arc::clone(&data.catalogue)),
            None => self.catalogue.borrow().clone(),
        }
    }

    /// The public data in memory, while this caller reads it.
    pub(super) fn public_data(&self) -> Option<&PublicData> {
        let current = !self.behind_the_database.get();
        self.public_data.as_deref().filter(|_| current)
    }

    /// The same connection reading rows from SQLite, for work that reads all of them (a bulk
    /// export) and may outlive a public import: it holds no copy of an old generation meanwhile.
    pub fn without_public_rows(mut self) -> Scoped {
        self.public_data = None;
        self
    }

    /// The public rows, for a caller who sees public data only while they are held.
    pub(super) fn public_rows(&self) -> Option<&public_rows::PublicRows> {
        self.public_data().map(|d| &d.rows)
    }

    /// [`Scoped::public_rows`] when they hold `series_id`'s.
    pub(super) fn public_rows_of(&self, series_id: i64) -> Option<&public_rows::PublicRows> {
        self.public_rows().filter(|rows| rows.holds(series_id))
    }

    /// The database's schema version: a read, so an error says it does not answer.
    pub fn ping(&self) -> StoreResult<i64> {
        let db = self.sql();
        let sql = match db.dialect() {
            sql::Dialect::Sqlite => "PRAGMA user_version",
            sql::Dialect::Postgres => "SELECT value FROM store_meta WHERE key = 'schema_version'",
        };
        Ok(db.query_row(sql, sql::params![], |r| r.get(0))?)
    }
}

/// A read transaction of a [`Scoped`] connection; dropping it ends the transaction (there is
/// nothing to commit: request connections cannot write) and lets go of the public catalogue it
/// took, which later reads outside a transaction must not use.
pub struct ReadSnapshot<'c> {
    pub(super) _tx: Option<sql::ReadSnapshot<'c>>,
    pub(super) catalogue: Option<&'c std::cell::RefCell<Option<std::sync::Arc<PublicCatalogue>>>>,
    /// The connection whose transaction begins at its first SQLite read, if it reads one.
    pub(super) begun_on_first_read: Option<&'c Scoped>,
}

impl Drop for ReadSnapshot<'_> {
    fn drop(&mut self) {
        if let Some(catalogue) = self.catalogue {
            catalogue.borrow_mut().take();
        }
        if let Some(scoped) = self.begun_on_first_read {
            scoped.snapshot_on_first_read.set(false);
            let db = scoped.conn.sql();
            if db.in_transaction() {
                // Nothing to keep: a request connection cannot write. Should the ROLLBACK fail,
                // the pool closes the connection it gets back inside a transaction.
                let _ = db.rollback();
            }
        }
    }
}

/// A read-only system connection for authentication (see [`Store::lookup`]); its methods are in
/// `accounts.rs`.
pub struct Lookup {
    pub(super) conn: Pooled,
}

impl Lookup {
    pub(super) fn sql(&self) -> sql::Db<'_> {
        self.conn.sql()
    }
}

/// A system connection (see [`Store::system`]).
pub struct System {
    pub(super) conn: Pooled,
}

impl System {
    pub(super) fn sql(&self) -> sql::Db<'_> {
        self.conn.sql()
    }

    /// A write transaction (see [`sql::Db::transaction`]), for the import path
    /// (`store::import`) and the store's own writes.
    pub fn transaction(&mut self) -> sql::SqlResult<sql::Tx<'_>> {
        self.sql().transaction()
    }
}

impl Drop for Scoped {
    fn drop(&mut self) {
        match &self.conn {
            Pooled::Sqlite(conn) => conn.bind_account(None),
            Pooled::Postgres(conn) => {
                if conn.in_transaction() {
                    // The account goes with the transaction. Should the ROLLBACK fail, the pool
                    // closes the connection it gets back inside a transaction.
                    let _ = self.conn.sql().rollback();
                }
            }
        }
    }
}

#[cfg(test)]
impl Scoped {
    /// The SQLite connection, for tests of what is SQLite's own (pragmas, the authorizer).
    pub(super) fn db(&self) -> &rusqlite::Connection {
        &self.conn.sqlite().expect("a SQLite store").conn
    }
}

#[cfg(test)]
impl System {
    pub(super) fn db(&self) -> &rusqlite::Connection {
        &self.conn.sqlite().expect("a SQLite store").conn
    }
}
