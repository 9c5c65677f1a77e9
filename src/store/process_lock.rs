//! A lock that keeps a piece of operator work (a data supply, say) to one process at a time for
//! as long as it runs: on PostgreSQL a session advisory lock, since its nodes share the database
//! and not a disk; on SQLite a lock of a file beside the data, since one machine writes it.

use std::path::{Path, PathBuf};

use anyhow::Context;

use super::backend::Admin;
use super::connections::Store;
use super::sql::params;

/// Held until dropped. On PostgreSQL only the key tells locks apart, on SQLite only the file:
/// two kinds of work that must exclude each other use the same key and the same file.
pub struct ProcessLock(Held);

enum Held {
    Postgres {
        admin: Box<Admin>,
        key: i64,
    },
    /// Locked while it is open.
    File {
        _locked: std::fs::File,
    },
}

impl ProcessLock {
    /// The lock `key` (PostgreSQL) or a lock of the file `lock_file` names (SQLite; made if
    /// missing), or None when another process holds it.
    pub fn try_take(
        store: &Store,
        key: i64,
        lock_file: impl FnOnce() -> anyhow::Result<PathBuf>,
    ) -> anyhow::Result<Option<ProcessLock>> {
        // Only PostgreSQL's lock needs a connection of its own (one per holder: the session
        // holds it); SQLite's is a file.
        if store.shared() {
            let admin = store.admin()?;
            let taken: bool =
                admin
                    .sql()
                    .query_row("SELECT pg_try_advisory_lock(?1)", params![key], |r| {
                        r.get(0)
                    })?;
            return Ok(taken.then(|| {
                ProcessLock(Held::Postgres {
                    admin: Box::new(admin),
                    key,
                })
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
        Ok(()) => Ok(Some(ProcessLock(Held::File { _locked: file }))),
        Err(std::fs::TryLockError::WouldBlock) => Ok(None),
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {}", path.display()))
        }
    }
}

impl Drop for ProcessLock {
    fn drop(&mut self) {
        if let Held::Postgres { admin, key } = &self.0 {
            let _ = admin
                .sql()
                .query_row("SELECT pg_advisory_unlock(?1)", params![*key], |r| {
                    r.get::<bool>(0)
                });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::backend::Database;
    use crate::store::postgres::testing::TestDatabase;

    /// On PostgreSQL the key is the lock: a second taker, on another connection, finds it
    /// taken and the file is never asked for; once the first lets go it is free again.
    #[test]
    fn one_holder_of_a_key_on_postgresql() {
        let db = TestDatabase::create();
        let store = Store::open_with(
            &Database::Postgres(db.url()),
            1,
            1,
            crate::config::defaults::DATABASE_WAIT,
        )
        .unwrap();
        let no_file = || -> anyhow::Result<PathBuf> { panic!("PostgreSQL locks by key") };
        let first = ProcessLock::try_take(&store, 42, no_file).unwrap();
        assert!(first.is_some());
        assert!(
            ProcessLock::try_take(&store, 42, no_file)
                .unwrap()
                .is_none()
        );
        assert!(
            ProcessLock::try_take(&store, 43, no_file)
                .unwrap()
                .is_some()
        );
        drop(first);
        assert!(
            ProcessLock::try_take(&store, 42, no_file)
                .unwrap()
                .is_some()
        );
    }
}
