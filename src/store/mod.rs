//! The database: the SQLite file under the data dir, or a PostgreSQL database that several nodes
//! share ([`postgres`]). Request code reaches data only through [`Scoped`], a pooled connection
//! bound to the caller's account whose queries read the `v_*` views (on PostgreSQL, under
//! row-level security too); operator commands (import, fetch, check) use [`Store::admin`], a
//! separate connection.
//!
//! Three pools, so that the async threads never wait: request connections and lookup connections
//! are checked out on the async threads only without waiting ([`Store::try_scoped`],
//! [`Store::lookup`]), and there are at least as many as threads that can hold one at a time
//! (each is held for a synchronous read). Everything that may wait (for a connection, or for the
//! database's one writer) uses [`Store::scoped`] or [`Store::system`] from a blocking thread.

pub mod accounts;
pub mod backend;
pub mod blocks;
pub mod briefings;
pub mod classification;
pub mod datasets;
pub mod eurostat;
pub mod generations;
pub mod import;
pub mod migrate;
pub mod observations;
pub mod per_generation;
pub mod pool;
pub mod postgres;
pub mod public_catalog;
pub mod public_rows;
pub mod region_index;
pub mod regions;
pub mod sql;
pub mod usage;
pub mod webhooks;

use std::path::Path;
use std::time::Duration;

use anyhow::Context;

use backend::Pooled;
pub use backend::{Admin, Database};
use per_generation::PerGeneration;
use public_catalog::PublicCatalog;
use public_rows::{Loaded, NotHeld, PublicData};
use region_index::RegionIndex;

use crate::config::defaults::DATABASE_WAIT;

/// Database failures as request code sees them: busy (retry later) or anything else.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database busy")]
    Busy,
    /// A uniqueness rule (email, dataset code) would be broken; the message says which.
    #[error("{0}")]
    Conflict(String),
    /// A count limit (active keys per tier) is reached.
    #[error("limit of {0} reached")]
    LimitReached(usize),
    #[error(transparent)]
    Other(anyhow::Error),
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        match err.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                StoreError::Busy
            }
            _ => StoreError::Other(err.into()),
        }
    }
}

impl From<sql::SqlError> for StoreError {
    fn from(err: sql::SqlError) -> Self {
        match err {
            sql::SqlError::Sqlite(e) => e.into(),
            // Answered 503 with Retry-After, like a busy SQLite: PostgreSQL may be back soon,
            // and the pool replaces the connections it broke.
            e if e.is_unreachable() => StoreError::Busy,
            other => StoreError::Other(other.into()),
        }
    }
}

impl StoreError {
    /// An error of a write path written with anyhow: a store error stays what it is, a busy
    /// database stays busy (the client may retry), anything else is unexpected.
    pub fn from_anyhow(err: anyhow::Error) -> StoreError {
        let err = match err.downcast::<StoreError>() {
            Ok(e) => return e,
            Err(e) => e,
        };
        let err = match err.downcast::<sql::SqlError>() {
            Ok(e) => return e.into(),
            Err(e) => e,
        };
        match err.downcast::<rusqlite::Error>() {
            Ok(e) => e.into(),
            Err(e) => StoreError::Other(e),
        }
    }
}

pub type StoreResult<T> = Result<T, StoreError>;

/// File name of the database inside the data dir.
pub const DB_FILE: &str = "regintel.sqlite";

#[derive(Clone)]
pub struct Store {
    pools: backend::Pools,
    /// What request connections of callers who see public data only take from memory.
    public: std::sync::Arc<PublicInMemory>,
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
        })
    }
}

/// A text column of `row`, borrowed from the statement (no allocation).
fn text<'r>(row: &sql::Row<'r>, i: usize) -> sql::SqlResult<&'r str> {
    row.text(i)
}

/// [`text`] of a column that may be NULL.
fn text_or_null<'r>(row: &sql::Row<'r>, i: usize) -> sql::SqlResult<Option<&'r str>> {
    row.text_or_null(i)
}

/// A read-only connection to the database file `path`, outside the pools and without migrating:
/// for operator commands that must change nothing (`check`, `backup`).
pub fn open_read_only(path: &Path) -> anyhow::Result<rusqlite::Connection> {
    pool::without_memory_statistics();
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .with_context(|| format!("while opening {}", path.display()))?;
    conn.busy_timeout(DATABASE_WAIT)?;
    Ok(conn)
}

/// SQLite's full `PRAGMA integrity_check` of `conn`'s database: Ok, or what it found.
pub fn integrity_check(conn: &rusqlite::Connection) -> anyhow::Result<()> {
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .context("the database cannot be read")?;
    anyhow::ensure!(integrity == "ok", "integrity check failed: {integrity}");
    Ok(())
}

/// Creates the database file readable and writable by its owner only, whatever the umask, if it
/// does not exist yet. SQLite gives its `-wal` and `-shm` files the database file's mode.
fn create_private(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(e).with_context(|| format!("while creating the database {}", path.display())),
    }
}

/// The public data in memory, one copy per public data generation, shared by every request
/// connection (see `region_index`, `public_catalog` and `public_rows`).
#[derive(Default)]
struct PublicInMemory {
    regions: PerGeneration<RegionIndex>,
    catalogs: PerGeneration<PublicCatalog>,
    /// The current public rows with their catalogue, of the datasets that fit the operator's
    /// budget: read on a thread of their own ([`Store::hold_public_data`]); until then, for any
    /// other generation and for the datasets not held, requests read the database.
    data: std::sync::RwLock<Option<std::sync::Arc<PublicData>>>,
    /// A read of `data` is under way.
    loading: std::sync::atomic::AtomicBool,
    /// The last generation found not to fit (or that could not be read), so that it is not read
    /// again at every tick.
    not_held: std::sync::Mutex<Option<i64>>,
}

impl PublicInMemory {
    fn held(&self) -> Option<std::sync::Arc<PublicData>> {
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
    conn: Pooled,
    account: Option<i64>,
    in_memory: std::sync::Arc<PublicInMemory>,
    /// Set by [`Scoped::with_public_data_only`]: region reads come from memory.
    public_regions: Option<std::sync::Arc<RegionIndex>>,
    /// Set by [`Scoped::with_public_data_only`]: read transactions take the public catalogue.
    public_only: bool,
    /// Set by [`Scoped::with_public_data_only`] when the public rows of the caller's generation
    /// are held: rows, datasets, sources and snapshots come from memory, without a read
    /// transaction.
    public_data: Option<std::sync::Arc<PublicData>>,
    /// The public catalogue of the generation the current read transaction reads.
    catalog: std::cell::RefCell<Option<std::sync::Arc<PublicCatalog>>>,
    /// A read snapshot of a caller reading from memory, begun at its first SQLite read.
    snapshot_on_first_read: std::cell::Cell<bool>,
    /// The database had moved past `public_data`'s generation (a public import committed since
    /// the server last looked) when this caller first read it: the rest of its answer reads
    /// the database alone, so that it does not mix rows of two generations any further.
    behind_the_database: std::cell::Cell<bool>,
}

impl Scoped {
    fn bind(
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
            catalog: Default::default(),
            snapshot_on_first_read: Default::default(),
            behind_the_database: Default::default(),
        }
    }

    /// The connection, as the store's queries run on it. On SQLite a read of a caller reading
    /// from memory begins the snapshot here; on PostgreSQL every first read begins one (the
    /// transaction that sets the account for row-level security, `SET LOCAL` in effect: it
    /// ends with the transaction, as a transaction-pooling PgBouncer needs).
    fn sql(&self) -> sql::Db<'_> {
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
    fn check_generation(&self, db: sql::Db<'_>) {
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

    fn begin(&self, db: sql::Db<'_>) -> sql::SqlResult<()> {
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
    fn bind_account(&self, db: sql::Db<'_>, account: Option<i64>) -> sql::SqlResult<()> {
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
            catalog: None,
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
                let catalog = self.in_memory.catalogs.at(generation, || {
                    // Loaded for everyone: read as no account, whoever asked first.
                    let db = self.sql();
                    self.bind_account(db, None)?;
                    let loaded = PublicCatalog::load(&db);
                    self.bind_account(db, self.account)?;
                    loaded
                })?;
                *self.catalog.borrow_mut() = Some(catalog);
            }
        }
        Ok(ReadSnapshot {
            _tx: tx,
            catalog: Some(&self.catalog),
            begun_on_first_read: None,
        })
    }

    /// The public catalogue, inside a read transaction of a caller who sees public data only.
    fn public_catalog(&self) -> Option<std::sync::Arc<PublicCatalog>> {
        match self.public_data() {
            Some(data) => Some(std::sync::Arc::clone(&data.catalog)),
            None => self.catalog.borrow().clone(),
        }
    }

    /// The public data in memory, while this caller reads it.
    fn public_data(&self) -> Option<&PublicData> {
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
    fn public_rows(&self) -> Option<&public_rows::PublicRows> {
        self.public_data().map(|d| &d.rows)
    }

    /// [`Scoped::public_rows`] when they hold `series_id`'s.
    fn public_rows_of(&self, series_id: i64) -> Option<&public_rows::PublicRows> {
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
    _tx: Option<sql::ReadSnapshot<'c>>,
    catalog: Option<&'c std::cell::RefCell<Option<std::sync::Arc<PublicCatalog>>>>,
    /// The connection whose transaction begins at its first SQLite read, if it reads one.
    begun_on_first_read: Option<&'c Scoped>,
}

impl Drop for ReadSnapshot<'_> {
    fn drop(&mut self) {
        if let Some(catalog) = self.catalog {
            catalog.borrow_mut().take();
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
    conn: Pooled,
}

impl Lookup {
    fn sql(&self) -> sql::Db<'_> {
        self.conn.sql()
    }
}

/// A system connection (see [`Store::system`]).
pub struct System {
    conn: Pooled,
}

impl System {
    fn sql(&self) -> sql::Db<'_> {
        self.conn.sql()
    }

    /// Every public region code.
    pub fn region_codes(&self) -> StoreResult<Vec<String>> {
        Ok(import::region_codes(&self.sql())?)
    }

    /// What was fetched from Eurostat, dataset by dataset.
    pub fn eurostat_fetches(&self) -> StoreResult<Vec<eurostat::FetchRecord>> {
        Ok(eurostat::all(&self.sql())?)
    }

    /// The codes of `owner`'s own regions (see [`import::own_region_codes`]).
    pub fn own_region_codes(&self, owner: i64) -> StoreResult<Vec<String>> {
        Ok(import::own_region_codes(&self.sql(), owner)?)
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
    fn db(&self) -> &rusqlite::Connection {
        &self.conn.sqlite().expect("a SQLite store").conn
    }
}

#[cfg(test)]
impl System {
    fn db(&self) -> &rusqlite::Connection {
        &self.conn.sqlite().expect("a SQLite store").conn
    }
}

#[cfg(test)]
mod tests;
