//! The one SQLite file under the data dir. Request code reaches data only through [`Scoped`], a
//! pooled connection bound to the caller's account whose queries read the `v_*` views; operator
//! commands (import, check) use [`Store::admin`], a separate connection.

pub mod accounts;
pub mod datasets;
pub mod import;
pub mod migrate;
pub mod observations;
pub mod pool;
pub mod regions;
pub mod usage;

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Context;

use pool::{Manager, PooledConn, Role};

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

pub type StoreResult<T> = Result<T, StoreError>;

/// File name of the database inside the data dir.
pub const DB_FILE: &str = "regintel.sqlite";

pub struct Store {
    /// Read-only connections for requests, guarded by the authorizer (see `pool::Role`).
    requests: r2d2::Pool<Manager>,
    /// Connections for authentication lookups and the account API's writes.
    system: r2d2::Pool<Manager>,
    path: PathBuf,
}

/// System connections in the pool: writes are serialised by SQLite anyway.
const SYSTEM_POOL_SIZE: u32 = 4;

impl Store {
    /// Opens (creating if new) and migrates the database in `data_dir`.
    pub fn open(data_dir: &Path, pool_size: u32) -> anyhow::Result<Store> {
        let path = data_dir.join(DB_FILE);
        let mut first = pool::open(&path, Role::System)
            .with_context(|| format!("while opening the database {}", path.display()))?;
        migrate::migrate(&mut first.conn)?;
        drop(first);
        let build = |size: u32, role: Role| {
            r2d2::Pool::builder()
                .max_size(size)
                .min_idle(Some(1))
                // A `SELECT 1` on every checkout costs ~3% and catches nothing a local file
                // does not report on first use anyway.
                .test_on_check_out(false)
                .connection_timeout(Duration::from_secs(5))
                .build(Manager {
                    path: path.clone(),
                    role,
                })
                .context("while creating the connection pool")
        };
        Ok(Store {
            requests: build(pool_size, Role::Request)?,
            system: build(SYSTEM_POOL_SIZE, Role::System)?,
            path,
        })
    }

    /// A connection that sees public rows and those of `account` (None = anonymous).
    pub fn scoped(&self, account: Option<i64>) -> StoreResult<Scoped> {
        let conn = self.requests.get().map_err(|_| StoreError::Busy)?;
        conn.bind_account(account);
        Ok(Scoped { conn })
    }

    /// A system connection: authentication lookups and the account API's writes. Its methods
    /// (see `accounts.rs`) take the account they act for from the authenticated caller.
    pub fn system(&self) -> StoreResult<System> {
        let conn = self.system.get().map_err(|_| StoreError::Busy)?;
        Ok(System { conn })
    }

    /// A fresh connection outside the pools for operator work (imports, checks).
    pub fn admin(&self) -> anyhow::Result<rusqlite::Connection> {
        Ok(pool::open(&self.path, Role::System)?.conn)
    }

    /// The data generation: it changes whenever served data changes (see `store_meta`).
    pub fn generation(&self) -> StoreResult<i64> {
        self.scoped(None)?.generation()
    }
}

/// A pooled connection bound to one caller; unbinds when dropped, so the next holder of the
/// connection starts anonymous.
pub struct Scoped {
    conn: r2d2::PooledConnection<Manager>,
}

impl Scoped {
    fn db(&self) -> &rusqlite::Connection {
        &self.conn.conn
    }

    pub fn generation(&self) -> StoreResult<i64> {
        Ok(self.db().query_row(
            "SELECT value FROM store_meta WHERE key = 'data_generation'",
            [],
            |r| r.get(0),
        )?)
    }

    pub fn ping(&self) -> StoreResult<i64> {
        Ok(self
            .db()
            .query_row("PRAGMA user_version", [], |r| r.get(0))?)
    }
}

/// A system connection (see [`Store::system`]).
pub struct System {
    conn: r2d2::PooledConnection<Manager>,
}

impl System {
    fn db(&self) -> &rusqlite::Connection {
        &self.conn.conn
    }

    fn db_mut(&mut self) -> &mut rusqlite::Connection {
        &mut self.conn.conn
    }

    /// A write transaction for the import path (`store::import`), which takes `&Transaction`.
    pub fn transaction(&mut self) -> rusqlite::Result<rusqlite::Transaction<'_>> {
        self.db_mut()
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
    }
}

impl Drop for Scoped {
    fn drop(&mut self) {
        let conn: &PooledConn = &self.conn;
        conn.bind_account(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooled_connections_have_wal_foreign_keys_and_busy_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), 2).unwrap();
        // Check out both connections, so the pool's second connection is tested too.
        let a = store.scoped(None).unwrap();
        let b = store.scoped(Some(1)).unwrap();
        for scoped in [&a, &b] {
            let db = scoped.db();
            let mode: String = db
                .query_row("PRAGMA journal_mode", [], |r| r.get(0))
                .unwrap();
            let fk: i64 = db
                .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
                .unwrap();
            let busy: i64 = db
                .query_row("PRAGMA busy_timeout", [], |r| r.get(0))
                .unwrap();
            assert_eq!((mode.as_str(), fk, busy), ("wal", 1, 5000));
        }
    }

    #[test]
    fn request_connections_read_protected_tables_only_through_views() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), 1).unwrap();
        let scoped = store.scoped(Some(1)).unwrap();
        for table in pool::PROTECTED_TABLES {
            let direct = scoped.db().prepare(&format!("SELECT * FROM {table}"));
            assert!(direct.is_err(), "{table} readable directly");
        }
        for view in [
            "v_observations",
            "v_datasets",
            "v_api_keys",
            "v_accounts",
            "v_regions",
        ] {
            scoped
                .db()
                .prepare(&format!("SELECT * FROM {view}"))
                .unwrap();
        }
        // No writes at all, even to unprotected tables.
        assert!(scoped.db().prepare("DELETE FROM regions").is_err());
        assert!(
            scoped
                .db()
                .prepare("UPDATE store_meta SET value = 0")
                .is_err()
        );
        assert!(scoped.db().prepare("ATTACH 'x.db' AS x").is_err());
        // The system connection is not restricted.
        let system = store.system().unwrap();
        system.db().prepare("SELECT * FROM api_keys").unwrap();
    }

    #[test]
    fn current_account_follows_each_checkout() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), 1).unwrap();
        let account = |s: &Scoped| -> Option<i64> {
            s.db()
                .query_row("SELECT current_account()", [], |r| r.get(0))
                .unwrap()
        };
        let scoped = store.scoped(Some(42)).unwrap();
        assert_eq!(account(&scoped), Some(42));
        drop(scoped);
        // The pool has one connection: the same one comes back, bound to the new caller.
        assert_eq!(account(&store.scoped(None).unwrap()), None);
    }
}
