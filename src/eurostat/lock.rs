//! One data supply at a time per database: two syncs (two nodes, the timer and a person), or a
//! fetch beside a sync, would import one update twice and write the same download files.

use std::path::Path;

use crate::store::Store;
use crate::store::process_lock::ProcessLock;

/// The advisory lock key of syncs ("eurosync").
const SYNC_LOCK: i64 = 0x6575_726f_7379_6e63;

/// The lock of a database's data supply, held by a sync, a fetch or a bundle's import while it
/// runs (held until dropped), or None when another holds it: PostgreSQL's advisory lock of a
/// session (its nodes share the database, not a disk); SQLite's a file lock in the downloads
/// directory (only one machine writes it).
pub fn take(store: &Store, data_dir: &Path) -> anyhow::Result<Option<ProcessLock>> {
    ProcessLock::try_take(store, SYNC_LOCK, || {
        Ok(super::fetch::downloads_dir(data_dir)?.join("sync.lock"))
    })
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
        let first = take(&store, dir.path()).unwrap();
        assert!(first.is_some());
        assert!(take(&store, dir.path()).unwrap().is_none());
        drop(first);
        assert!(take(&store, dir.path()).unwrap().is_some());
    }
}
