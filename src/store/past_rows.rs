//! Public datasets' rows as they stood in past snapshots, held in memory for reads as of a
//! moment as the current ones are for reads now. A dataset's rows as of a snapshot are read
//! once (three index ranges over the whole dataset, sorted) into the compact form of the
//! current rows ([`PublicRows`]), and serve every later read of a series' rows in a region as
//! of a moment that resolves to that snapshot, instead of three index ranges per series and
//! region (benches/README.md, "As of", has the figures of both).
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

/// What the budget counts of what is held.
pub trait Weighed {
    fn weight(&self) -> usize;
}

impl Weighed for PublicRows {
    fn weight(&self) -> usize {
        self.bytes()
    }
}

pub struct PastRows<T = PublicRows> {
    budget: usize,
    held: Mutex<Held<T>>,
    /// Held while a dataset's rows are read.
    reading: Mutex<()>,
}

struct Held<T> {
    by_key: HashMap<Key, (Arc<T>, u64)>,
    /// Found not to fit the budget or the compact form: not read again (gone with the
    /// generation's public data, as the rest).
    unfit: std::collections::HashSet<Key>,
    bytes: usize,
    /// Counts uses: an entry's is when it was last used.
    uses: u64,
}

impl<T> Default for Held<T> {
    fn default() -> Self {
        Held {
            by_key: HashMap::new(),
            unfit: Default::default(),
            bytes: 0,
            uses: 0,
        }
    }
}

impl<T: Weighed> Held<T> {
    fn get(&mut self, key: Key) -> Option<Arc<T>> {
        let (rows, used) = self.by_key.get_mut(&key)?;
        self.uses += 1;
        *used = self.uses;
        Some(Arc::clone(rows))
    }

    /// Holds `rows`, then lets the least recently used go until what is held fits `budget`.
    fn insert(&mut self, key: Key, rows: Arc<T>, budget: usize) {
        self.uses += 1;
        self.bytes += rows.weight();
        if let Some((old, _)) = self.by_key.insert(key, (rows, self.uses)) {
            self.bytes -= old.weight();
        }
        self.let_go_past(budget);
    }

    /// Lets the least recently used go until what is held is at most `bytes`.
    fn let_go_past(&mut self, bytes: usize) {
        while self.bytes > bytes {
            let Some(oldest) = (self.by_key.iter())
                .min_by_key(|(_, (_, used))| *used)
                .map(|(k, _)| *k)
            else {
                break;
            };
            if let Some((gone, _)) = self.by_key.remove(&oldest) {
                self.bytes -= gone.weight();
            }
        }
    }
}

impl<T: Weighed> PastRows<T> {
    /// Holds at most `budget` bytes (as [`PublicRows::bytes`] counts them).
    pub fn new(budget: usize) -> PastRows<T> {
        PastRows {
            budget,
            held: Mutex::new(Held::default()),
            reading: Mutex::new(()),
        }
    }

    /// The rows of dataset `dataset_id` as of its snapshot `snapshot_id`: those held, or read by
    /// `read` (given the bytes it may take; None: they do not fit them or the compact form).
    /// Before a read, the least recently used go until `estimate` bytes (what the read is
    /// expected to take) fit beside what is held, so that what is held and what is being read
    /// stay within the budget together. None too when another dataset is being read: the caller
    /// reads the database instead.
    pub fn get_or_read(
        &self,
        dataset_id: i64,
        snapshot_id: i64,
        estimate: usize,
        read: impl FnOnce(usize) -> StoreResult<Option<T>>,
    ) -> StoreResult<Option<Arc<T>>> {
        let key = (dataset_id, snapshot_id);
        {
            let mut held = self.lock();
            if held.unfit.contains(&key) {
                return Ok(None);
            }
            if let Some(rows) = held.get(key) {
                return Ok(Some(rows));
            }
        }
        let _reading = match self.reading.try_lock() {
            Ok(reading) => reading,
            // A read that panicked held it: nothing it guards is left half made.
            Err(std::sync::TryLockError::Poisoned(e)) => e.into_inner(),
            Err(std::sync::TryLockError::WouldBlock) => return Ok(None),
        };
        // Read by another while this one looked.
        if let Some(rows) = self.lock().get(key) {
            return Ok(Some(rows));
        }
        let room = {
            let mut held = self.lock();
            held.let_go_past(self.budget.saturating_sub(estimate));
            self.budget.saturating_sub(held.bytes)
        };
        let Some(rows) = read(room)? else {
            self.lock().unfit.insert(key);
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

    fn lock(&self) -> std::sync::MutexGuard<'_, Held<T>> {
        // A panic while holding it leaves counts that are still whole numbers: go on.
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Weight(usize);

    impl Weighed for Weight {
        fn weight(&self) -> usize {
            self.0
        }
    }

    /// What is read once is held and used again; past the budget the least recently used go
    /// first; what does not fit is not read again; a read while another is under way is not
    /// made (the caller reads the database).
    #[test]
    fn past_rows_are_read_once_and_held_within_the_budget() {
        let past: PastRows<Weight> = PastRows::new(100);
        let reads = std::cell::Cell::new(0);
        let room = std::cell::Cell::new(0);
        let read = |key: (i64, i64), weight: Option<usize>| {
            past.get_or_read(key.0, key.1, 0, |bytes| {
                room.set(bytes);
                reads.set(reads.get() + 1);
                Ok(weight.map(Weight))
            })
            .unwrap()
            .map(|held| held.0)
        };
        assert_eq!(read((1, 1), Some(40)), Some(40));
        assert_eq!(room.get(), 100);
        assert_eq!(read((1, 1), Some(99)), Some(40), "held, not read again");
        assert_eq!(reads.get(), 1);
        assert_eq!(read((2, 1), Some(40)), Some(40));
        assert_eq!(read((1, 1), None), Some(40), "(1, 1) used last");
        assert_eq!(read((3, 1), Some(40)), Some(40));
        assert_eq!(past.bytes(), 80, "(2, 1) went: the least recently used");
        assert_eq!(read((2, 1), Some(40)), Some(40), "read again");
        assert_eq!(room.get(), 20, "beside what was held");
        assert_eq!(reads.get(), 4);
        assert_eq!(read((4, 1), None), None);
        assert_eq!(read((4, 1), Some(10)), None, "not read again");
        assert_eq!(reads.get(), 5);
        let _reading = past.reading.lock().unwrap();
        assert_eq!(read((5, 1), Some(10)), None, "another read is under way");
        assert_eq!(
            read((2, 1), Some(10)),
            Some(40),
            "what is held still serves"
        );
        assert_eq!(reads.get(), 5);
        drop(_reading);
        // A read expected to take 70 bytes of the 100 finds them free: what was held went,
        // the least recently used first, until 70 fit beside the rest.
        let read = past.get_or_read(6, 1, 70, |bytes| {
            assert_eq!(bytes, 100);
            Ok(Some(Weight(70)))
        });
        assert_eq!(read.unwrap().map(|held| held.0), Some(70));
        assert_eq!(past.bytes(), 70);
    }
}
