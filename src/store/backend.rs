//! Which backend the store runs on, and its pools of connections: the SQLite file of the data dir
//! (one process, the default; `store::sqlite`) or a PostgreSQL database that several nodes share
//! (`store::postgres`); [`Admin`], an operator's connection outside the pools; and
//! [`check_postgres`], what `regintel check` reads of a PostgreSQL database. Above this module a
//! connection is a [`Db`]; nothing else differs.

use std::path::PathBuf;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::Context;

use super::error::{StoreError, StoreResult};
use super::postgres::pool::PgManager;
use super::sql::{Db, PgConn, SqlResult, Tx};
use super::sqlite::file::{DB_FILE, create_private};
use super::sqlite::migrate;
use super::sqlite::pool::{self, Manager, PooledConn, Role};
pub use crate::config::Database;

/// System connections in a pool: SQLite serialises writes anyway; PostgreSQL's are shared by
/// every node, so each node takes few.
const SYSTEM_POOL_SIZE: u32 = 4;

#[derive(Clone)]
pub(super) enum Pools {
    Sqlite {
        /// Read-only connections for requests, guarded by the authorizer (see `pool::Role`).
        requests: r2d2::Pool<Manager>,
        /// Read-only connections for authentication lookups on the async threads.
        lookups: r2d2::Pool<Manager>,
        /// The account API's writes and background work (blocking threads only).
        system: r2d2::Pool<Manager>,
        path: PathBuf,
    },
    Postgres {
        /// Connections of the request role, which row-level security binds, and its settings
        /// for a connection outside the pool: opened once the secrets are loaded (see
        /// [`Pools::open_requests`]).
        requests: Arc<OnceLock<(r2d2::Pool<PgManager>, postgres::Config)>>,
        /// The request role's name, and how many request connections to open.
        request_role: String,
        pool_size: u32,
        /// The owner's connections for authentication lookups.
        lookups: r2d2::Pool<PgManager>,
        /// The owner's connections for writes and background work.
        system: r2d2::Pool<PgManager>,
        owner: Box<postgres::Config>,
        wait: Duration,
    },
}

fn pool<M: r2d2::ManageConnection>(
    manager: M,
    size: u32,
    min_idle: u32,
    wait: Duration,
) -> anyhow::Result<r2d2::Pool<M>> {
    r2d2::Pool::builder()
        .max_size(size)
        .min_idle(Some(min_idle))
        // A check on every checkout costs a round trip (SQLite: ~3%) and catches little that
        // the first use does not report anyway; broken connections are dropped when returned.
        .test_on_check_out(false)
        .connection_timeout(wait)
        .build(manager)
        .context("while creating the connection pool")
}

impl Pools {
    /// Opens and migrates the database: `pool_size` request connections (on PostgreSQL, by
    /// [`Pools::open_requests`], once the secrets give their password) and `lookups` lookup
    /// connections, all opened at once, so checking one out never waits for one to be made; a
    /// write waits up to `wait` for a lock, and a blocking thread as long for a connection.
    pub(super) fn open(
        database: &Database,
        pool_size: u32,
        lookups: u32,
        wait: Duration,
    ) -> anyhow::Result<Pools> {
        match database {
            Database::Sqlite(data_dir) => {
                let path = data_dir.join(DB_FILE);
                create_private(&path)?;
                let mut first = pool::open(&path, Role::System)
                    .with_context(|| format!("while opening the database {}", path.display()))?;
                migrate::migrate(&mut first.conn)?;
                drop(first);
                let manager = |role| Manager {
                    path: path.clone(),
                    role,
                    busy: wait,
                };
                Ok(Pools::Sqlite {
                    requests: pool(manager(Role::Request), pool_size, pool_size, wait)?,
                    lookups: pool(manager(Role::Lookup), lookups, lookups, wait)?,
                    system: pool(manager(Role::System), SYSTEM_POOL_SIZE, 1, wait)?,
                    path,
                })
            }
            Database::Postgres(url) => {
                let owner = super::postgres::config(url)?;
                let mut client = super::postgres::connect(&owner)?;
                // The client waits for the server on a runtime of its own, which cannot start
                // on an async thread.
                let migrated = super::postgres::conn::blocking(|| {
                    let migrated = super::postgres::migrate::migrate(&mut client);
                    drop(client);
                    migrated
                })?;
                Ok(Pools::Postgres {
                    requests: Arc::default(),
                    request_role: migrated.request_role,
                    pool_size,
                    lookups: pool(PgManager::new(owner.clone(), wait), lookups, lookups, wait)?,
                    system: pool(
                        PgManager::new(owner.clone(), wait),
                        SYSTEM_POOL_SIZE,
                        1,
                        wait,
                    )?,
                    owner: Box::new(owner),
                    wait,
                })
            }
        }
    }

    /// PostgreSQL: opens the request connections, logging in as the request role with the
    /// password `password_of` derives for it (from the pepper, once the secrets are loaded and
    /// checked), after setting the role's password to it where it is to be set (see
    /// `roles::password_to_set`). Nothing on SQLite, nor when they are open already.
    pub(super) fn open_requests(&self, password_of: &dyn Fn(&str) -> String) -> anyhow::Result<()> {
        let Pools::Postgres {
            requests,
            request_role,
            pool_size,
            owner,
            wait,
            ..
        } = self
        else {
            return Ok(());
        };
        if requests.get().is_some() {
            return Ok(());
        }
        let password = password_of(request_role);
        let mut request = (**owner).clone();
        request.user(request_role).password(&password);
        let manager = PgManager::new(request.clone(), *wait);
        let refused =
            |e: &postgres::Error| e.code() == Some(&postgres::error::SqlState::INVALID_PASSWORD);
        let first = {
            use r2d2::ManageConnection;
            manager.connect()
        };
        let rejected = first.as_ref().is_err_and(refused);
        super::postgres::conn::blocking(|| -> anyhow::Result<()> {
            let mut client = super::postgres::connect(owner)?;
            if super::postgres::roles::password_to_set(&mut client, rejected)? {
                super::postgres::roles::set_password(
                    &mut client,
                    request_role,
                    &password,
                    super::postgres::migrate::MIGRATION_LOCK,
                )?;
            }
            Ok(())
        })?;
        if !rejected {
            first.context("while logging in as the request role")?;
        }
        let opened = pool(manager, *pool_size, *pool_size, *wait)
            .context("while opening the request connections")?;
        let _ = requests.set((opened, request));
        Ok(())
    }

    /// A request connection, waiting up to the store's wait for one.
    pub(super) fn request(&self) -> StoreResult<Pooled> {
        match self {
            Pools::Sqlite { requests, .. } => requests.get().map(Pooled::Sqlite),
            Pools::Postgres { requests, .. } => opened(requests)?.0.get().map(Pooled::Postgres),
        }
        .map_err(|_| StoreError::Busy)
    }

    /// A request connection if one is free now. On PostgreSQL too: a caller answered from the
    /// public data in memory never waits for the network, and a read that does waits through
    /// [`super::postgres::conn::blocking`], which moves the async thread's other tasks away.
    pub(super) fn try_request(&self) -> Option<Pooled> {
        match self {
            Pools::Sqlite { requests, .. } => requests.try_get().map(Pooled::Sqlite),
            Pools::Postgres { requests, .. } => requests.get()?.0.try_get().map(Pooled::Postgres),
        }
    }

    /// A lookup connection: on SQLite never waiting for one (its lookups are local reads, over
    /// as soon as begun, so all in use is a moment's state); on PostgreSQL waiting up to the
    /// store's wait, off the async thread as every wait for PostgreSQL is (its lookups cross the
    /// network, and a burst of them takes every connection for longer).
    pub(super) fn lookup(&self) -> StoreResult<Pooled> {
        match self {
            Pools::Sqlite { lookups, .. } => lookups
                .try_get()
                .map(Pooled::Sqlite)
                .ok_or(StoreError::Busy),
            Pools::Postgres { lookups, .. } => super::postgres::conn::blocking(|| lookups.get())
                .map(Pooled::Postgres)
                .map_err(|_| StoreError::Busy),
        }
    }

    pub(super) fn system(&self) -> StoreResult<Pooled> {
        match self {
            Pools::Sqlite { system, .. } => system.get().map(Pooled::Sqlite),
            Pools::Postgres { system, .. } => system.get().map(Pooled::Postgres),
        }
        .map_err(|_| StoreError::Busy)
    }

    /// A connection outside the pools, as the database's owner.
    pub(super) fn admin(&self) -> anyhow::Result<Admin> {
        Ok(Admin(match self {
            Pools::Sqlite { path, .. } => Own::Sqlite(pool::open(path, Role::System)?),
            Pools::Postgres { owner, wait, .. } => Own::Postgres(connect(owner, *wait)?),
        }))
    }

    /// A request connection of no account outside the pools, for reading public data into
    /// memory beside the requests.
    pub(super) fn public_reader(&self) -> anyhow::Result<Admin> {
        Ok(Admin(match self {
            Pools::Sqlite { path, .. } => Own::Sqlite(pool::open(path, Role::Request)?),
            Pools::Postgres { requests, wait, .. } => {
                Own::Postgres(connect(&opened(requests)?.1, *wait)?)
            }
        }))
    }
}

/// The request connections and their settings, once open.
fn opened(
    requests: &OnceLock<(r2d2::Pool<PgManager>, postgres::Config)>,
) -> StoreResult<&(r2d2::Pool<PgManager>, postgres::Config)> {
    requests.get().ok_or_else(|| {
        StoreError::Other(anyhow::anyhow!(
            "the request connections are opened once the secrets are loaded (Store::open_requests)"
        ))
    })
}

fn connect(config: &postgres::Config, wait: Duration) -> anyhow::Result<PgConn> {
    use r2d2::ManageConnection;
    PgManager::new(config.clone(), wait)
        .connect()
        .context("while connecting to PostgreSQL")
}

/// A pooled connection.
pub(super) enum Pooled {
    Sqlite(r2d2::PooledConnection<Manager>),
    Postgres(r2d2::PooledConnection<PgManager>),
}

impl Pooled {
    pub(super) fn sql(&self) -> Db<'_> {
        match self {
            Pooled::Sqlite(conn) => Db::Sqlite(&conn.conn),
            Pooled::Postgres(conn) => Db::Postgres(conn),
        }
    }

    /// SQLite's connection and the account slot its views read, if it is one.
    pub(super) fn sqlite(&self) -> Option<&PooledConn> {
        match self {
            Pooled::Sqlite(conn) => Some(conn),
            Pooled::Postgres(_) => None,
        }
    }
}

enum Own {
    Sqlite(PooledConn),
    Postgres(PgConn),
}

/// A connection of its own for operator work (imports, checks), as the database's owner.
pub struct Admin(Own);

impl Admin {
    pub(super) fn postgres(conn: PgConn) -> Admin {
        Admin(Own::Postgres(conn))
    }

    pub fn sql(&self) -> Db<'_> {
        match &self.0 {
            Own::Sqlite(conn) => Db::Sqlite(&conn.conn),
            Own::Postgres(conn) => Db::Postgres(conn),
        }
    }

    /// A write transaction (see [`Db::transaction`]).
    pub fn transaction(&mut self) -> SqlResult<Tx<'_>> {
        self.sql().transaction()
    }

    /// Lets SQLite's page cache of this connection grow to `bytes`, never below its default
    /// (2,000 KiB). An import into a large database adds each row at a random place of its
    /// indexes (citation ids are hashes); with a small cache nearly every row's pages are read
    /// again and, when the cache spills, written to the WAL again within the one transaction.
    /// PostgreSQL's buffers are the server's.
    pub fn page_cache(&self, bytes: usize) -> SqlResult<()> {
        if let Own::Sqlite(conn) = &self.0 {
            conn.conn
                .pragma_update(None, "cache_size", -((bytes / 1024).max(2000) as i64))?;
        }
        Ok(())
    }

    /// The SQLite connection, for tests of what is SQLite's own.
    #[cfg(test)]
    pub(crate) fn sqlite(&self) -> &rusqlite::Connection {
        match &self.0 {
            Own::Sqlite(conn) => &conn.conn,
            Own::Postgres(_) => panic!("a SQLite store"),
        }
    }
}

/// What `regintel check` finds of a PostgreSQL database, without changing it.
pub struct PostgresChecked {
    /// Its schema version (0: none yet; the server migrates an older one when it starts).
    pub version: i64,
    /// The owner's connection, for the checks that read rows.
    pub admin: Admin,
}

/// Connects as the owner and reads the schema version, refusing a newer one than this binary
/// knows, as the server would.
pub fn check_postgres(url: &str) -> anyhow::Result<PostgresChecked> {
    let mut client = super::postgres::connect(&super::postgres::config(url)?)?;
    let version =
        super::postgres::conn::blocking(|| super::postgres::migrate::version_of(&mut client))?;
    let latest = crate::store::schema::latest_version();
    if version > latest {
        return Err(crate::store::schema::too_new(version, latest));
    }
    Ok(PostgresChecked {
        version,
        admin: Admin::postgres(super::postgres::conn::PgConn::new(client)),
    })
}
