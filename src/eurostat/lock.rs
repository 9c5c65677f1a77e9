//! One data supply at a time per database: two syncs (two nodes, the timer and a person), or a
//! fetch beside a sync, would import one update twice and write the same download files.

use std::path::Path;

use anyhow::Context;

use crate::store::Store;
use crate::store::sql::{Dialect, params};

/// The lock of a database's data supply, held by a sync, a fetch or a bundle's import while it
/// runs: PostgreSQL's advisory lock of a session (its nodes share the database, not a disk);
/// SQLite's a file lock in the downloads directory (only one machine writes it).
pub enum Lock {
    Postgres(Box<crate::store::Admin>),
    /// Locked while it is open.
    Sqlite {
        _held: std::fs::File,
    },
}

/// The advisory lock key of syncs ("eurosync").
const SYNC_LOCK: i64 = 0x6575_726f_7379_6e63;

impl Lock {
    /// The lock, or None when another sync, fetch or import holds it.
    pub fn take(store: &Store, data_dir: &Path) -> anyhow::Result<Option<Lock>> {
        let admin = store.admin()?;
        if admin.sql().dialect() == Dialect::Postgres {
            let taken: bool = admin.sql().query_row(
                "SELECT pg_try_advisory_lock(?1)",
                params![SYNC_LOCK],
                |r| r.get(0),
            )?;
            return Ok(taken.then(|| Lock::Postgres(Box::new(admin))));
        }
        let path = super::fetch::downloads_dir(data_dir)?.join("sync.lock");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .with_context(|| format!("cannot open {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => Ok(Some(Lock::Sqlite { _held: file })),
            Err(std::fs::TryLockError::WouldBlock) => Ok(None),
            Err(std::fs::TryLockError::Error(e)) => {
                Err(e).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        if let Lock::Postgres(admin) = self {
            let _ =
                admin
                    .sql()
                    .query_row("SELECT pg_advisory_unlock(?1)", params![SYNC_LOCK], |r| {
                        r.get::<bool>(0)
                    });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A second taker of the same SQLite database finds the lock taken; once the first lets go, the
    /// lock is free again.
    #[test]
    fn one_sync_at_a_time() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), 1).unwrap();
        let first = Lock::take(&store, dir.path()).unwrap();
        assert!(first.is_some());
        assert!(Lock::take(&store, dir.path()).unwrap().is_none());
        drop(first);
        assert!(Lock::take(&store, dir.path()).unwrap().is_some());
    }
}
