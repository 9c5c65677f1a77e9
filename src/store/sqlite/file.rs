//! The SQLite database file: its name in the data directory, made readable by its owner only,
//! opened read-only for the operator's checks, and SQLite's own integrity check.

use std::path::Path;

use anyhow::Context;

use crate::config::defaults::DATABASE_WAIT;

/// File name of the database inside the data dir.
pub const DB_FILE: &str = "regintel.sqlite";

/// A read-only connection to the database file `path`, outside the pools and without migrating:
/// for operator commands that must change nothing (`check`, `backup`).
pub fn open_read_only(path: &Path) -> anyhow::Result<rusqlite::Connection> {
    super::pool::without_memory_statistics();
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
pub(crate) fn create_private(path: &Path) -> anyhow::Result<()> {
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
