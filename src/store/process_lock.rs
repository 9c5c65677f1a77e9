//! A lock that keeps a piece of operator work (a data supply, say) to one process at a time for
//! as long as it runs: on PostgreSQL a session advisory lock, since its nodes share the database
//! and not a disk; on SQLite a lock of a file beside the data, since one machine writes it.

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::backend::Admin;
use super::connections::Store;
use super::sql::{Dialect, params};

/// Held until dropped.
pub enum ProcessLock {
    Postgres {
        admin: Box<Admin>,
        key: i64,
    },
    /// Locked while it is open.
    File(std::fs::File),
}

impl ProcessLock {
    /// The lock `key` (PostgreSQL) or a lock of the file `lock_file` names (SQLite; made if
    /// missing), or None when another process holds it.
    pub fn try_take(
        store: &Store,
        key: i64,
        lock_file: impl FnOnce() -> anyhow::Result<PathBuf>,
    ) -> anyhow::Result<Option<ProcessLock>> {
        let admin = store.admin()?;
        if admin.sql().dialect() == Dialect::Postgres {
            let taken: bool =
                admin
                    .sql()
                    .query_row("SELECT pg_try_advisory_lock(?1)", params![key], |r| {
                        r.get(0)
                    })?;
            return Ok(taken.then(|| ProcessLock::Postgres {
                admin: Box::new(admin),
                key,
            }));
        }
        lock(&lock_file()?)
    }
}

fn lock(path: &Path) -> anyhow::Result<Option<ProcessLock>> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(ProcessLock::File(file))),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}

impl Drop for ProcessLock {
    fn drop(&mut self) {
        if let ProcessLock::Postgres { admin, key } = self {
            let _ = admin
                .sql()
                .query_row("SELECT pg_advisory_unlock(?1)", params![*key], |r| {
                    r.get::<bool>(0)
                });
        }
    }
}
