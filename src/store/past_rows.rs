//! Public datasets' rows as they stood in past snapshots, held in memory for reads as of a
//! moment as the current ones are for reads now. A dataset's rows as of a snapshot are read
//! once (three index ranges over the whole dataset, sorted) into the compact form of the
//! current rows ([`PublicRows`]), and serve every later read as of a moment that resolves to
//! that snapshot: a profile as of a moment read thirteen series' rows from the database per
//! answer, six times the time of the same profile now.
//!
//! What is held is bounded by a budget (the least recently used go first), and one dataset is
//! read at a time: a read that would wait for another's reads the database instead, so no
//! number of moments asked at once makes more than one such read run.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::error::StoreResult;
use super::public_rows::PublicRows;

/// A dataset's row id and the row id of its snapshot.
type Key = (i64, i64);

pub struct PastRows {
    budget: usize,
    held: Mutex<Held>,
    /// Held while a dataset's rows are read.
    reading: Mutex<()>,
}

#[derive(Default)]
struct Held {
    by_key: HashMap<Key, (Arc<PublicRows>, u64)>,
    bytes: usize,
    /// Counts uses: an entry's is when it was last used.
    uses: u64,
}

impl Held {
    fn get(&mut self, key: Key) -> Option<Arc<PublicRows>> {
        self.uses += 1;
        let uses = self.uses;
        let (rows, used) = self.by_key.get_mut(&key)?;
        *used = uses;
        Some(Arc::clone(rows))
    }

    /// Holds `rows`, then lets the least recently used go until what is held fits `budget`.
    fn insert(&mut self, key: Key, rows: Arc<PublicRows>, budget: usize) {
        self.uses += 1;
        self.bytes += rows.bytes();
        if let Some((old, _)) = self.by_key.insert(key, (rows, self.uses)) {
            self.bytes -= old.bytes();
        }
        while self.bytes > budget {
            let Some(oldest) = (self.by_key.iter())
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| *k)
            else {
                break;
            };
            if let Some((gone, _)) = self.by_key.remove(&oldest) {
                self.bytes -= gone.bytes();
            }
        }
    }
}

impl PastRows {
    /// Holds at most `budget` bytes (as [`PublicRows::bytes`] counts them).
    pub fn new(budget: usize) -> PastRows {
        PastRows {
            budget,
            held: Mutex::new(Held::default()),
            reading: Mutex::new(()),
        }
    }

    /// The rows of dataset `dataset_id` as of its snapshot `snapshot_id`: those held, or read by
    /// `read` (given the budget; None: they do not fit it or the compact form). None too when
    /// another dataset is being read: the caller reads the database instead.
    pub fn get_or_read(
        &self,
        dataset_id: i64,
        snapshot_id: i64,
        read: impl FnOnce(usize) -> StoreResult<Option<PublicRows>>,
    ) -> StoreResult<Option<Arc<PublicRows>>> {
        let key = (dataset_id, snapshot_id);
        if let Some(rows) = self.lock().get(key) {
            return Ok(Some(rows));
        }
        let Ok(_reading) = self.reading.try_lock() else {
            return Ok(None);
        };
        // Read by another while this one looked.
        if let Some(rows) = self.lock().get(key) {
            return Ok(Some(rows));
        }
        let Some(rows) = read(self.budget)? else {
            return Ok(None);
        };
        let rows = Arc::new(rows);
        self.lock().insert(key, Arc::clone(&rows), self.budget);
        Ok(Some(rows))
    }

    /// Bytes held now.
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held> {
        // A panic while holding it leaves counts that are still whole numbers: go on.
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}
