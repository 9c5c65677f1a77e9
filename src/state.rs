//! `AppState`: everything a request needs, built once at start and shared as `Arc` (no globals).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use hyper::body::Bytes;

use tokio::sync::Semaphore;

use crate::auth::Auth;
use crate::cache::ResponseCache;
use crate::catalogue::Catalogue;
use crate::config::ServerConfig;
use crate::limits::{Limiter, Scope};
use crate::store::Store;

/// Bulk exports that may stream at once.
pub const MAX_EXPORTS: usize = 2;

pub struct AppState {
    pub config: ServerConfig,
    pub store: Store,
    pub auth: Auth,
    /// Bounds the work run on the blocking pool at once (argon2id, CSV imports): each argon2id
    /// verification takes ~19 MiB, so this also bounds memory under a burst of logins.
    pub blocking: Semaphore,
    pub catalogue: Catalogue,
    /// `/api/v1/<service>`: the base path of every API route.
    pub base_path: String,
    /// The OpenAPI document, built from the route table at start.
    pub openapi: Bytes,
    /// Bulk exports streaming at once (each holds a database connection while it runs).
    pub exports: Arc<Semaphore>,
    /// Rate-limit buckets; day counters are flushed to `usage_daily` by `app`.
    pub limiter: Limiter,
    /// Rendered answers keyed by request; entries of older data generations are ignored.
    pub cache: ResponseCache,
    /// The data generation last read from the database (see `store_meta`). Checked by a
    /// background task about once a second, so imports by `regintel import` in another process
    /// become visible without a restart.
    generation: AtomicI64,
}

impl AppState {
    pub fn new(
        config: ServerConfig,
        base_path: String,
        store: Store,
        catalogue: Catalogue,
        openapi: Bytes,
    ) -> anyhow::Result<AppState> {
        let generation = store.generation()?;
        let auth = Auth::open(&config.data_dir, config.issuer())?;
        auth.refresh(&store);
        let cpus = std::thread::available_parallelism().map_or(2, |n| n.get());
        let limiter = Limiter::new(config.limits.max_entries);
        // Today's counters, so a restart does not reset a daily cap.
        let today = crate::clock::now_ms().div_euclid(1000).div_euclid(86_400);
        for (scope, used) in store.system()?.usage_of_day(today)? {
            let scope = match scope.split_once(':') {
                Some(("key", key_id)) => Scope::Key(key_id.into()),
                Some(("acct", id)) => match id.parse() {
                    Ok(id) => Scope::Account(id),
                    Err(_) => continue,
                },
                _ => continue,
            };
            limiter.load_day(scope, today, used);
        }
        Ok(AppState {
            base_path,
            auth,
            blocking: Semaphore::new(cpus),
            exports: Arc::new(Semaphore::new(MAX_EXPORTS)),
            limiter,
            cache: ResponseCache::new(config.cache_bytes),
            config,
            store,
            catalogue,
            openapi,
            generation: AtomicI64::new(generation),
        })
    }

    pub fn generation(&self) -> i64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Writes changed day counters to `usage_daily` (about every second, and at shutdown).
    pub fn flush_usage(&self) {
        let dirty = self.limiter.take_dirty();
        if dirty.is_empty() {
            return;
        }
        if let Err(e) = self.store.system().and_then(|mut s| s.write_usage(&dirty)) {
            tracing::error!(error = %e, rows = dirty.len(), "could not write daily usage; will retry");
            self.limiter.requeue(dirty);
        }
    }

    /// Re-reads the data generation; returns true if it changed.
    pub fn refresh_generation(&self) -> bool {
        match self.store.generation() {
            Ok(g) => self.generation.swap(g, Ordering::AcqRel) != g,
            Err(e) => {
                tracing::warn!(error = %e, "could not read the data generation");
                false
            }
        }
    }
}
