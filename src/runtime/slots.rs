//! Slots for work that holds scarce resources while it runs (a connection, an upload, an export):
//! at most `total` at once, and at most `per_key` for any one holder (a client address, an
//! account), so one holder can never take every slot. A slot is taken without waiting, or refused
//! with the reason; it is given back when its [`Slot`] is dropped.

use std::collections::HashMap;
use std::hash::Hash;
use std::sync::{Arc, Mutex};

pub struct Slots<K: Eq + Hash + Clone> {
    total: usize,
    per_key: usize,
    state: Mutex<Held<K>>,
}

struct Held<K> {
    total: usize,
    by_key: HashMap<K, usize>,
}

/// Why a slot was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refused {
    /// This holder already has `per_key` slots.
    Holder,
    /// All `total` slots are taken.
    Full,
}

/// A taken slot; dropping it gives it back.
pub struct Slot<K: Eq + Hash + Clone> {
    slots: Arc<Slots<K>>,
    key: K,
}

impl<K: Eq + Hash + Clone> Slots<K> {
    pub fn new(total: usize, per_key: usize) -> Arc<Self> {
        Arc::new(Slots {
            total,
            per_key,
            state: Mutex::new(Held {
                total: 0,
                by_key: HashMap::new(),
            }),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Held<K>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn try_take(self: &Arc<Self>, key: K) -> Result<Slot<K>, Refused> {
        let mut held = self.lock();
        let mine = held.by_key.get(&key).copied().unwrap_or(0);
        if mine >= self.per_key {
            return Err(Refused::Holder);
        }
        if held.total >= self.total {
            return Err(Refused::Full);
        }
        held.total += 1;
        held.by_key.insert(key.clone(), mine + 1);
        Ok(Slot {
            slots: Arc::clone(self),
            key,
        })
    }

    /// Slots taken now.
    #[cfg(test)]
    pub fn taken(&self) -> usize {
        self.lock().total
    }
}

impl<K: Eq + Hash + Clone> Drop for Slot<K> {
    fn drop(&mut self) {
        let mut held = self.slots.lock();
        held.total -= 1;
        // Holders with nothing taken are forgotten, so the map stays as small as what is held.
        if let Some(n) = held.by_key.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                held.by_key.remove(&self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_holder_never_takes_every_slot_and_drops_give_back() {
        let slots = Slots::new(3, 2);
        let a1 = slots.try_take("a").unwrap();
        let _a2 = slots.try_take("a").unwrap();
        assert_eq!(slots.try_take("a").err(), Some(Refused::Holder));
        let _b1 = slots.try_take("b").unwrap();
        assert_eq!(slots.try_take("c").err(), Some(Refused::Full));
        assert_eq!(slots.taken(), 3);
        drop(a1);
        let _c1 = slots.try_take("c").unwrap();
        assert_eq!(slots.try_take("a").err(), Some(Refused::Full));
    }

    #[test]
    fn holders_with_nothing_taken_are_forgotten() {
        let slots = Slots::new(usize::MAX, 1);
        for i in 0..1000 {
            drop(slots.try_take(i).unwrap());
        }
        assert!(slots.lock().by_key.is_empty());
        assert_eq!(slots.taken(), 0);
    }
}
