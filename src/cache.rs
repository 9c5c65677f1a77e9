//! A bounded in-memory cache of rendered answers. Data only changes on import, so an answer is
//! valid for as long as the data generation it was rendered at; the cache keeps the generation
//! with each entry and treats older ones as misses. Memory is bounded by total bytes: the oldest
//! entries go first.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, RwLock};

struct Cached<T> {
    generation: i64,
    value: Arc<T>,
    bytes: usize,
}

pub struct ResponseCache {
    limit_bytes: usize,
    inner: RwLock<Inner>,
}

#[derive(Default)]
struct Inner {
    entries: HashMap<String, Cached<crate::reply::Reply>>,
    order: VecDeque<String>,
    bytes: usize,
}

impl ResponseCache {
    pub fn new(limit_bytes: usize) -> Self {
        ResponseCache {
            limit_bytes,
            inner: RwLock::new(Inner::default()),
        }
    }

    pub fn get(&self, key: &str, generation: i64) -> Option<Arc<crate::reply::Reply>> {
        let inner = self.inner.read().unwrap_or_else(|e| e.into_inner());
        inner
            .entries
            .get(key)
            .filter(|c| c.generation == generation)
            .map(|c| Arc::clone(&c.value))
    }

    pub fn put(&self, key: String, generation: i64, value: Arc<crate::reply::Reply>) {
        let bytes = value.size() + key.len();
        if bytes > self.limit_bytes / 4 {
            return; // one answer must not evict most of the cache
        }
        let mut inner = self.inner.write().unwrap_or_else(|e| e.into_inner());
        if let Some(old) = inner.entries.remove(&key) {
            inner.bytes -= old.bytes;
            inner.order.retain(|k| k != &key);
        }
        while inner.bytes + bytes > self.limit_bytes {
            let Some(oldest) = inner.order.pop_front() else {
                break;
            };
            if let Some(old) = inner.entries.remove(&oldest) {
                inner.bytes -= old.bytes;
            }
        }
        inner.bytes += bytes;
        inner.order.push_back(key.clone());
        inner.entries.insert(
            key,
            Cached {
                generation,
                value,
                bytes,
            },
        );
    }
}
