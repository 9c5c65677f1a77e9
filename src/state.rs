//! `AppState`: everything a request needs, built once at start and shared as `Arc` (no globals).

use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, RwLock};

use hyper::body::Bytes;

use tokio::sync::Semaphore;

use crate::auth::Auth;
use crate::auth::secret_guard::Secrets;
use crate::bundled::Catalogue;
use crate::cache::ResponseCache;
use crate::config::ServerConfig;
use crate::outbox::Outbox;
use crate::pages::Pages;
use crate::rate_limiter::{Limiter, Scope};
use crate::runtime::slots::Slots;
use crate::store::accounts::Tier;
use crate::store::generations::Generations;
use crate::store::{Scoped, Store, StoreResult};

/// Uploads, exports and model calls one account may run at once.
const SLOTS_PER_ACCOUNT: usize = 1;

pub struct AppState {
    pub config: ServerConfig,
    pub store: Store,
    pub auth: Auth,
    /// Bounds the writes and password hashing run on the blocking pool at once: each argon2id
    /// verification takes ~19 MiB, so this also bounds memory under a burst of logins. (CSV
    /// uploads are bounded by their upload slots instead.) A permit moves into the blocking
    /// task, so it is held for as long as the work runs.
    pub blocking: Arc<Semaphore>,
    /// Lookups of webhook URLs being registered, bounded at once and per account.
    pub url_checks: crate::webhooks::url_checks::UrlChecks,
    /// Bounds the reads run off the async threads at once: long reads (`Handler::Heavy`), short
    /// ones that found no request connection free, and the compression of large answers.
    pub reads: Arc<Semaphore>,
    /// Where those reads run: as many threads as `reads` has permits.
    pub read_threads: crate::runtime::task::Threads,
    pub catalogue: Catalogue,
    /// `/api/v1/<service>`: the base path of every API route.
    pub base_path: String,
    /// The OpenAPI document, built from the route table at start.
    pub openapi: Bytes,
    /// The pages at the root of the host (the account area, the API reference).
    pub pages: Pages,
    /// The region outlines the explorer's maps draw, parsed when a map is first drawn.
    boundaries: std::sync::OnceLock<crate::explore::boundaries::Boundaries>,
    /// Bulk exports streaming (each holds a database connection and a read transaction).
    pub exports: Arc<Slots<i64>>,
    /// CSV uploads being read or imported (each holds up to `--max-upload` bytes).
    pub uploads: Arc<Slots<i64>>,
    /// Briefings waiting for the model server (each holds a blocking permit for up to
    /// `--llm-timeout`): one per account, and half the blocking permits in all, so slow model
    /// answers never hold every permit. A briefing that finds none free is written without the
    /// model.
    pub model_calls: Arc<Slots<i64>>,
    /// Uploads are parsed and written one at a time: each writes one transaction under the
    /// database's one writer, and a second would only wait on its lock (and give up after 5 s),
    /// while holding a whole file's parsed rows in memory.
    pub import: std::sync::Mutex<()>,
    /// Rate-limit buckets; day counters are flushed to `usage_daily` by `app`.
    pub limiter: Limiter,
    /// Rendered answers keyed by request; entries of older data generations are ignored.
    pub cache: ResponseCache,
    /// The webhook delivery worker (started by `app`); woken after commits that enqueue events.
    pub outbox: Arc<Outbox>,
    /// What `/metrics` reports; the webhook worker counts its attempts here too.
    pub metrics: Arc<crate::metrics::Metrics>,
    /// The data generations last read from the database. Checked by a background task about once
    /// a second, so imports by `regintel import` in another process become visible without a
    /// restart.
    generations: DataGenerations,
}

/// The data generations in memory: public data's, and each account's that has private data.
#[derive(Default)]
struct DataGenerations {
    public: AtomicI64,
    accounts: RwLock<HashMap<i64, i64>>,
}

impl DataGenerations {
    /// Replaces what is known; true if anything changed.
    fn set(&self, g: Generations) -> bool {
        let public_changed = self.public.swap(g.public, Ordering::AcqRel) != g.public;
        let accounts: HashMap<i64, i64> = g.accounts.into_iter().collect();
        let mut known = self.accounts.write().unwrap_or_else(|e| e.into_inner());
        let accounts_changed = *known != accounts;
        *known = accounts;
        public_changed || accounts_changed
    }
}

impl AppState {
    pub fn boundaries(&self) -> &crate::explore::boundaries::Boundaries {
        self.boundaries
            .get_or_init(crate::explore::boundaries::Boundaries::bundled)
    }

    pub fn new(
        config: ServerConfig,
        base_path: String,
        store: Store,
        catalogue: Catalogue,
        openapi: &serde_json::Value,
    ) -> anyhow::Result<AppState> {
        let pages = Pages::new(&config.base_url(), &base_path, openapi);
        let openapi = Bytes::from(serde_json::to_vec(openapi)?);
        let generations = DataGenerations::default();
        generations.set(store.system()?.generations()?);
        let Secrets { auth, sealing } = crate::auth::secret_guard::open(
            &store,
            &config.data_dir,
            config.issuer(),
            config.new_secrets,
        )?;
        auth.refresh(&store);
        let limiter = Limiter::new(config.limits.max_entries, config.limits_clock.clone());
        // Today's counters, so a restart does not reset a daily cap.
        load_usage_of_today(&store, &limiter)?;
        let permits = config.blocking_permits;
        let metrics = Arc::new(crate::metrics::Metrics::default());
        let outbox = Arc::new(
            Outbox::new(
                store.clone(),
                Arc::new(sealing),
                config.webhook_egress.clone(),
                crate::webhooks::send::client_tls(),
                config.webhook_clock.clone(),
                Arc::clone(&metrics),
            )
            .paused(config.webhooks_paused),
        );
        Ok(AppState {
            outbox,
            metrics,
            base_path,
            auth,
            blocking: Arc::new(Semaphore::new(permits)),
            url_checks: Default::default(),
            reads: Arc::new(Semaphore::new(permits)),
            read_threads: crate::runtime::task::Threads::new("reads", permits)?,
            exports: Slots::new(config.max_exports, SLOTS_PER_ACCOUNT),
            uploads: Slots::new(config.max_uploads, SLOTS_PER_ACCOUNT),
            model_calls: Slots::new((permits / 2).max(1), SLOTS_PER_ACCOUNT),
            import: std::sync::Mutex::new(()),
            limiter,
            cache: ResponseCache::new(config.cache_bytes),
            boundaries: std::sync::OnceLock::new(),
            config,
            store,
            catalogue,
            openapi,
            pages,
            generations,
        })
    }

    /// The generation of public data.
    pub fn public_generation(&self) -> i64 {
        self.generations.public.load(Ordering::Acquire)
    }

    /// What `account`'s answers depend on: public data's generation and the account's own (0
    /// for anonymous callers and accounts without private data).
    pub fn generation_of(&self, account: Option<i64>) -> crate::cache::AnswerGenerations {
        let own = account.map_or(0, |id| {
            let accounts = self
                .generations
                .accounts
                .read()
                .unwrap_or_else(|e| e.into_inner());
            accounts.get(&id).copied().unwrap_or(0)
        });
        (self.public_generation(), own)
    }

    /// Whether the caller never loaded private data, so that its reads of regions (and, while
    /// they are held, of public rows) come from memory ([`AppState::try_scoped`]).
    pub fn sees_public_only(&self, account: Option<i64>) -> bool {
        self.generation_of(account).1 == 0
    }

    /// Writes changed day counters to `usage_daily` (about every second, and at shutdown). May
    /// wait for the database's writer: blocking threads only.
    pub fn flush_usage(&self) {
        self.write_usage();
        // What every node on the database counted, this one's included: nodes sharing one
        // database hold one daily cap together (docs/scaling.md states the bound). Alone on its
        // database, a process holds the sums already.
        if self.store.shared()
            && let Err(e) = load_usage_of_today(&self.store, &self.limiter)
        {
            tracing::warn!(error = %e, "could not read daily usage");
        }
    }

    /// Adds what the limiter counted since the last flush to `usage_daily`.
    fn write_usage(&self) {
        let dirty = self.limiter.take_dirty();
        if dirty.is_empty() {
            return;
        }
        let limits = &self.config.limits;
        let cap = |tier: Tier| match tier {
            Tier::Professional => limits.professional.day,
            Tier::Institutional => limits.institutional.day,
        };
        let caps = limits.enabled.then_some(&cap as &dyn Fn(Tier) -> u64);
        match self
            .store
            .system()
            .and_then(|mut s| s.write_usage(&dirty, caps))
        {
            Ok(0) => {}
            Ok(_) => self.outbox.wake(),
            Err(e) => {
                tracing::error!(error = %e, rows = dirty.len(), "could not write daily usage; will retry");
                self.limiter.requeue(dirty);
            }
        }
    }

    /// A request connection for `account` ([`Store::scoped`], waiting for one; a wait is
    /// measured, pool `connections`), bound as [`AppState::bind_public_only`] says.
    pub fn scoped(&self, account: Option<i64>) -> StoreResult<Scoped> {
        if let Some(conn) = self.try_scoped(account) {
            return conn;
        }
        let waiting = std::time::Instant::now();
        let counted = self.metrics.waiting_for("connections");
        let conn = self.store.scoped(account);
        drop(counted);
        self.metrics.pool_wait("connections", waiting.elapsed());
        self.bind_public_only(conn?, account)
    }

    /// [`AppState::scoped`] without waiting: None when every request connection is in use.
    pub fn try_scoped(&self, account: Option<i64>) -> Option<StoreResult<Scoped>> {
        let conn = self.store.try_scoped(account)?;
        Some(self.bind_public_only(conn, account))
    }

    /// A caller whose own data generation is 0 never loaded private data: its connection reads
    /// public regions and the public catalogue from memory ([`Scoped::with_public_data_only`]).
    fn bind_public_only(&self, conn: Scoped, account: Option<i64>) -> StoreResult<Scoped> {
        match self.generation_of(account) {
            (public, 0) => conn.with_public_data_only(public),
            _ => Ok(conn),
        }
    }

    /// Re-reads the data generations (blocking threads only); returns true if one changed.
    pub fn refresh_generations(&self) -> bool {
        match self.store.system().and_then(|s| s.generations()) {
            Ok(g) => self.generations.set(g),
            Err(e) => {
                tracing::warn!(error = %e, "could not read the data generations");
                false
            }
        }
    }
}

/// Loads today's counters from `usage_daily` into `limiter` (see [`Limiter::load_day`]).
fn load_usage_of_today(store: &Store, limiter: &Limiter) -> StoreResult<()> {
    let today = limiter.today();
    for (scope, used) in store.system()?.usage_of_day(today)? {
        if let Some(scope) = Scope::from_persisted_name(&scope) {
            limiter.load_day(scope, today, used);
        }
    }
    Ok(())
}

/// For unit tests: a server's state with `config` on the SQLite file of its data dir (made
/// there, empty), the bundled catalogue and an empty OpenAPI document.
#[cfg(test)]
pub fn for_tests(config: ServerConfig) -> AppState {
    let store = Store::open(&config.data_dir, 1).unwrap();
    let catalogue = crate::bundled::Catalogue::bundled();
    AppState::new(
        config,
        "/api".into(),
        store,
        catalogue,
        &serde_json::json!({}),
    )
    .unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request that finds every request connection taken waits for one, and the wait is in the
    /// metrics, whether it ends with a connection or (as here, after the pool's 5 s) without.
    #[test]
    fn a_wait_for_a_request_connection_is_measured() {
        let dir = tempfile::tempdir().unwrap();
        let state = for_tests(ServerConfig::new(dir.path().to_path_buf()));
        let waits = |state: &AppState| {
            state
                .metrics
                .render()
                .lines()
                .find(|l| l.starts_with("regintel_pool_wait_seconds_count{pool=\"connections\"}"))
                .map(str::to_owned)
        };
        let held = state.scoped(None).unwrap();
        assert_eq!(waits(&state), None, "a free connection is no wait");
        assert!(matches!(
            state.scoped(None),
            Err(crate::store::StoreError::Busy)
        ));
        assert_eq!(
            waits(&state).as_deref(),
            Some("regintel_pool_wait_seconds_count{pool=\"connections\"} 1")
        );
        drop(held);
    }
}
