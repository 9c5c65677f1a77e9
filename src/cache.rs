//! A bounded in-memory cache of rendered answers. Data only changes on import, so an answer is
//! valid for as long as the data generations it was rendered at (public data's and the caller's
//! account's own); the cache keeps them with each entry and treats an entry of older ones as a
//! miss.
//!
//! The cache is `quick_cache`'s: weighted by bytes, sharded so concurrent requests do not queue on
//! one lock, with S3-FIFO-like eviction that keeps answers asked for again over a stream of one-off
//! requests (a client walking every cursor page cannot flush the popular profiles).

use std::sync::Arc;

use quick_cache::Weighter;
use quick_cache::sync::Cache;

use crate::reply::Reply;

/// Bookkeeping per entry beyond its key and body, counted in its weight.
const ENTRY_OVERHEAD: usize = 128;

/// The data generations an answer depends on: public data's and the caller's account's.
pub type AnswerGenerations = (i64, i64);

#[derive(Clone)]
struct Cached {
    generations: AnswerGenerations,
    reply: Arc<Reply>,
}

/// Weighs an entry by the bytes it holds.
#[derive(Clone)]
struct ByteWeight;

impl Weighter<String, Cached> for ByteWeight {
    fn weight(&self, key: &String, value: &Cached) -> u64 {
        (key.len() + value.reply.size() + ENTRY_OVERHEAD) as u64
    }
}

pub struct ResponseCache {
    limit_bytes: usize,
    entries: Cache<String, Cached, ByteWeight>,
}

impl ResponseCache {
    pub fn new(limit_bytes: usize) -> Self {
        // A profile is ~50 KB, a region ~1 KB: size the index for small answers.
        let estimated_items = (limit_bytes / 4096).max(64);
        ResponseCache {
            limit_bytes,
            entries: Cache::with_weighter(estimated_items, limit_bytes as u64, ByteWeight),
        }
    }

    pub fn get(&self, key: &str, generations: AnswerGenerations) -> Option<Arc<Reply>> {
        self.entries
            .get(key)
            .filter(|c| c.generations == generations)
            .map(|c| c.reply)
    }

    pub fn put(&self, key: String, generations: AnswerGenerations, reply: Arc<Reply>) {
        if key.len() + reply.size() > self.limit_bytes / 4 {
            return; // one answer must not evict most of the cache
        }
        self.entries.insert(key, Cached { generations, reply });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hyper::body::Bytes;

    fn reply(size: usize) -> Arc<Reply> {
        Arc::new(Reply::Raw {
            content_type: "text/plain",
            body: Bytes::from(vec![b'x'; size]),
        })
    }

    #[test]
    fn entries_of_other_generations_are_misses() {
        let cache = ResponseCache::new(1 << 20);
        cache.put("a".into(), (1, 0), reply(10));
        assert!(cache.get("a", (1, 0)).is_some());
        assert!(cache.get("a", (2, 0)).is_none(), "public data changed");
        assert!(
            cache.get("a", (1, 1)).is_none(),
            "the account's data changed"
        );
        cache.put("a".into(), (2, 0), reply(10));
        assert!(cache.get("a", (2, 0)).is_some());
    }

    /// `--cache-mb 0` turns the cache off: nothing is kept, however small.
    #[test]
    fn a_cache_of_no_bytes_keeps_nothing() {
        let cache = ResponseCache::new(0);
        cache.put("k".into(), (0, 0), reply(0));
        assert!(cache.get("k", (0, 0)).is_none());
    }

    #[test]
    fn memory_stays_within_the_limit() {
        let cache = ResponseCache::new(1 << 20);
        for i in 0..1000 {
            cache.put(format!("k{i}"), (0, 0), reply(10_000));
        }
        let held = cache.entries.weight();
        assert!(held <= 1 << 20, "{held}");
        cache.put("huge".into(), (0, 0), reply(300_000));
        assert!(
            cache.get("huge", (0, 0)).is_none(),
            "over a quarter: not kept"
        );
    }
}
