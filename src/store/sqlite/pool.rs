//! Pooled SQLite connections. Every connection gets the same pragmas and the `current_account()`
//! SQL function the `v_*` views filter on; the account it returns is the one bound by
//! `Scoped` while a request holds the connection.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use rusqlite::functions::FunctionFlags;
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::{Connection, OpenFlags};

use crate::store::schema::PUBLIC_TABLES;

/// No account bound: `current_account()` is NULL and the views show public rows only.
const NO_ACCOUNT: i64 = i64::MIN;

/// A connection with the account slot its `current_account()` function reads.
pub struct PooledConn {
    pub conn: Connection,
    account: Arc<AtomicI64>,
}

impl PooledConn {
    pub fn bind_account(&self, account: Option<i64>) {
        self.account
            .store(account.unwrap_or(NO_ACCOUNT), Ordering::Relaxed);
    }
}

/// What a connection is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Serving reads for a caller: read-only, and every table but [`PUBLIC_TABLES`] is readable
    /// only through the `v_*` views (enforced by an authorizer when statements are prepared).
    Request,
    /// Authentication lookups on the async threads: reads of any table, never a write, so a
    /// lookup never waits for the database's writer.
    Lookup,
    /// The writes of the account API, imports and operator commands.
    System,
}

/// The tables of the schema that request connections must not read directly: every table of
/// `sqlite_master` not in [`PUBLIC_TABLES`].
pub fn protected_tables(conn: &Connection) -> rusqlite::Result<Vec<String>> {
    let mut tables: Vec<String> = schema_names(conn, "table")?
        .into_iter()
        .filter(|n| !PUBLIC_TABLES.contains(&n.as_str()))
        .collect();
    tables.sort();
    Ok(tables)
}

/// Names of the schema's objects of one type (`table`, `view`), SQLite's own left out.
fn schema_names(conn: &Connection, kind: &str) -> rusqlite::Result<HashSet<String>> {
    let mut stmt = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = ?1 AND name NOT LIKE 'sqlite_%'")?;
    let names = stmt.query_map([kind], |r| r.get(0))?;
    names.collect()
}

/// Pragmas a read-only connection may query (not set).
fn readable_pragma(name: &str, value: Option<&str>) -> bool {
    value.is_none()
        && matches!(
            name,
            "user_version" | "data_version" | "journal_mode" | "foreign_keys" | "busy_timeout"
        )
}

/// Prepared statements a connection keeps.
const STATEMENT_CACHE: usize = 128;

/// The authorizer of request connections: reads only; protected tables only inside a view.
/// `views` are the schema's views: the way to the other tables.
fn authorize_request(views: &HashSet<String>, ctx: AuthContext<'_>) -> Authorization {
    match ctx.action {
        AuthAction::Select | AuthAction::Function { .. } => Authorization::Allow,
        AuthAction::Read { table_name, .. } => {
            let direct = ctx.accessor.is_none();
            if !direct || PUBLIC_TABLES.contains(&table_name) || views.contains(table_name) {
                Authorization::Allow
            } else {
                Authorization::Deny
            }
        }
        AuthAction::Pragma {
            pragma_name,
            pragma_value,
        } if readable_pragma(pragma_name, pragma_value) => Authorization::Allow,
        // Read transactions (`Scoped::snapshot`); `query_only` keeps them from taking the
        // write lock.
        AuthAction::Transaction { .. } => Authorization::Allow,
        _ => Authorization::Deny,
    }
}

/// The authorizer of lookup connections: reads of anything, no writes.
fn authorize_lookup(ctx: AuthContext<'_>) -> Authorization {
    match ctx.action {
        AuthAction::Select | AuthAction::Function { .. } | AuthAction::Read { .. } => {
            Authorization::Allow
        }
        AuthAction::Pragma {
            pragma_name,
            pragma_value,
        } if readable_pragma(pragma_name, pragma_value) => Authorization::Allow,
        _ => Authorization::Deny,
    }
}

/// Turns off SQLite's memory statistics before the first connection initialises the library:
/// with them on, every allocation SQLite makes takes one process-wide mutex, which the request
/// threads then queue on (https://sqlite.org/compile.html#default_memstatus). regintel never
/// reads them.
pub(super) fn without_memory_statistics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: `sqlite3_config` with SQLITE_CONFIG_MEMSTATUS takes one int. Called before
        // the library is initialised it sets the option; afterwards (another part of the
        // process opened a database first) it returns SQLITE_MISUSE and changes nothing.
        unsafe {
            rusqlite::ffi::sqlite3_config(rusqlite::ffi::SQLITE_CONFIG_MEMSTATUS, 0);
        }
    });
}

/// Opens a connection with regintel's pragmas and SQL functions. Used by both pools and by the
/// operator commands, so every connection behaves the same.
pub fn open(path: &std::path::Path, role: Role) -> rusqlite::Result<PooledConn> {
    // The operator commands wait the default; the server's pools take theirs from its settings.
    open_waiting(path, role, crate::config::defaults::DATABASE_WAIT)
}

/// [`open`], waiting up to `busy` for another writer's lock.
fn open_waiting(
    path: &std::path::Path,
    role: Role,
    busy: Duration,
) -> rusqlite::Result<PooledConn> {
    without_memory_statistics();
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(busy)?;
    // Every statement of src/store/ stays prepared: rusqlite's default of 16 is fewer than one
    // connection runs across routes, and re-preparing also re-runs the authorizer.
    conn.set_prepared_statement_cache_capacity(STATEMENT_CACHE);
    // WAL lets readers run beside the one writer; NORMAL is durable across application crashes
    // and loses at most the last transactions on power loss, the usual WAL trade-off.
    conn.execute_batch(
        "PRAGMA journal_mode = WAL;
         PRAGMA synchronous = NORMAL;
         PRAGMA foreign_keys = ON;",
    )?;
    let account = Arc::new(AtomicI64::new(NO_ACCOUNT));
    let slot = Arc::clone(&account);
    conn.create_scalar_function(
        "current_account",
        0,
        FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_INNOCUOUS,
        move |_| {
            let id = slot.load(Ordering::Relaxed);
            Ok((id != NO_ACCOUNT).then_some(id))
        },
    )?;
    if role != Role::System {
        // Not even a lock: the authorizer refuses every write, but a `BEGIN IMMEDIATE` would
        // still take the database's write lock and hold back every writer.
        conn.execute_batch("PRAGMA query_only = ON")?;
    }
    match role {
        Role::Request => {
            let views = schema_names(&conn, "view")?;
            conn.authorizer(Some(move |ctx: AuthContext<'_>| {
                authorize_request(&views, ctx)
            }))?
        }
        Role::Lookup => conn.authorizer(Some(authorize_lookup))?,
        Role::System => {}
    }
    Ok(PooledConn { conn, account })
}

pub struct Manager {
    pub path: PathBuf,
    pub role: Role,
    /// The connections' busy timeout.
    pub busy: Duration,
}

impl r2d2::ManageConnection for Manager {
    type Connection = PooledConn;
    type Error = rusqlite::Error;

    fn connect(&self) -> Result<PooledConn, rusqlite::Error> {
        open_waiting(&self.path, self.role, self.busy)
    }

    fn is_valid(&self, conn: &mut PooledConn) -> Result<(), rusqlite::Error> {
        conn.conn.execute_batch("")
    }

    /// A connection given back inside a transaction (which every guard in `store` ends on
    /// drop, so this is a defect) would serve its next caller an old snapshot: it is closed.
    fn has_broken(&self, conn: &mut PooledConn) -> bool {
        !conn.conn.is_autocommit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every connection of this process is opened through `open` (or `open_read_only`), so the
    /// statistics are off before SQLite starts: it counts no memory, and takes no lock to count.
    #[test]
    fn sqlite_keeps_no_memory_statistics() {
        let dir = tempfile::tempdir().unwrap();
        let conn = open(&dir.path().join("t.sqlite"), Role::System).unwrap();
        conn.conn
            .execute_batch("CREATE TABLE t (x); INSERT INTO t VALUES (randomblob(100000));")
            .unwrap();
        let (mut current, mut highest) = (0_i64, 0_i64);
        // SAFETY: both pointers are valid for the call.
        let rc = unsafe {
            rusqlite::ffi::sqlite3_status64(
                rusqlite::ffi::SQLITE_STATUS_MEMORY_USED,
                &mut current,
                &mut highest,
                0,
            )
        };
        assert_eq!(rc, rusqlite::ffi::SQLITE_OK);
        assert_eq!((current, highest), (0, 0), "SQLite counted its memory");
    }
}
