//! Start-up: open and migrate the store, build the state and the OpenAPI document, start the
//! background workers, then serve until the shutdown signal.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;

use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

use crate::bundled::Catalogue;
use crate::config::ServerConfig;
use crate::state::AppState;
use crate::store::Store;

/// How often the server looks for imports and credential changes made by another process, and
/// flushes daily usage.
const GENERATION_POLL: Duration = Duration::from_secs(1);
/// How often idle rate-limit buckets and old login failures are dropped.
const SWEEP_EVERY: Duration = Duration::from_secs(5);

/// Runs regintel on an already-bound listener until `shutdown` resolves and the connections have
/// drained (or the drain deadline passed). `tls` None serves plain HTTP.
pub async fn start(
    config: ServerConfig,
    listener: TcpListener,
    tls: Option<Arc<rustls::ServerConfig>>,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    config.validate()?;
    for (op, _) in &config.limits.route_weights {
        anyhow::ensure!(
            crate::http::routes::ROUTES
                .iter()
                .any(|r| r.operation_id == op),
            "--route-weight names {op:?}, which is no route's operation id (see regintel openapi)"
        );
    }
    // Request connections are checked out on the async threads without waiting: there are
    // enough for every thread that can hold one at once (each async worker, each export, each
    // upload, each permit of the blocking pool's two kinds), so a checkout finds one free.
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let needed =
        workers + config.max_exports + config.max_uploads + 2 * config.blocking_permits + 1;
    let pool_size = config
        .pool_size
        .max(u32::try_from(needed).unwrap_or(u32::MAX));
    let lookups = u32::try_from(workers + 1).unwrap_or(u32::MAX);
    let store = Store::open_with(&config.database, pool_size, lookups, config.database_wait)?;
    let base_path = config.base_path();
    let openapi = crate::openapi::document(&config.base_url(), &config.limits);
    let state = Arc::new(AppState::new(
        config,
        base_path,
        store,
        Catalogue::bundled(),
        &openapi,
    )?);

    let systemd = Arc::new(crate::runtime::systemd::Notifier::from_env());
    if systemd
        .watchdog_interval()
        .is_some_and(|half| half < GENERATION_POLL)
    {
        tracing::warn!(
            "the unit's WatchdogSec is under 2 s, shorter than two pings: set it to 10 s or more"
        );
    }
    let (stop_deliveries, deliveries) = Arc::clone(&state.outbox)
        .start_background()
        .context("starting the webhook delivery worker")?;
    systemd.ready();
    // After the readiness: the watchdog's first ping follows the first tick, which may end
    // before the rest of the start did.
    let poller = tokio::spawn(background(Arc::clone(&state), Arc::clone(&systemd)));
    let shutdown = async {
        shutdown.await;
        systemd.stopping();
    };
    crate::net::server::serve(
        Arc::clone(&state),
        listener,
        tls.map(TlsAcceptor::from),
        shutdown,
    )
    .await;
    poller.abort();
    // Attempts under way finish and are recorded (each ends within its 15 s); what is left is
    // due again at the next start.
    let _ = stop_deliveries.send(());
    if tokio::time::timeout(state.config.drain_timeout, deliveries)
        .await
        .is_err()
    {
        tracing::warn!(
            "webhook attempts still under way at shutdown; they are sent again at the next start"
        );
    }
    // The last counts since the previous flush: a write, so off the async threads.
    let flushing = Arc::clone(&state);
    let _ = tokio::task::spawn_blocking(move || flushing.flush_usage()).await;
    Ok(())
}

/// Every [`GENERATION_POLL`]: the background tick, after which systemd's watchdog (if the unit
/// has one) is told the server is alive: a tick that hangs (the database stuck, the runtime
/// starved) stops the pings and systemd restarts the service.
async fn background(state: Arc<AppState>, systemd: Arc<crate::runtime::systemd::Notifier>) {
    let mut tick = tokio::time::interval(GENERATION_POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_sweep = std::time::Instant::now();
    loop {
        tick.tick().await;
        let sweep = last_sweep.elapsed() >= SWEEP_EVERY;
        if sweep {
            last_sweep = std::time::Instant::now();
        }
        // Reads and writes that may wait for a connection or for the database's writer: off the
        // async threads.
        let ticking = Arc::clone(&state);
        match tokio::task::spawn_blocking(move || background_tick(&ticking, sweep)).await {
            Ok(()) => state.metrics.background_tick(),
            Err(e) => tracing::error!(error = %e, "a round of the background task failed"),
        }
        systemd.watchdog_ping();
    }
}

fn background_tick(state: &AppState, sweep: bool) {
    if state.refresh_generations() {
        tracing::info!(
            public_generation = state.public_generation(),
            "data changed; cached answers renewed"
        );
    }
    let budget = state.config.public_data_bytes;
    state
        .store
        .hold_public_data(state.public_generation(), budget);
    let held = (state.store.held_public_data()).map_or(0, |d| d.bytes + d.past_bytes);
    state.metrics.set_public_data_bytes(held as u64);
    state.auth.refresh(&state.store);
    state.flush_usage();
    match state
        .store
        .system()
        .and_then(|system| system.pending_deliveries())
    {
        Ok(pending) => state.metrics.set_queue_depth(pending),
        Err(e) => tracing::warn!(error = %e, "counting pending webhook deliveries"),
    }
    if sweep {
        match state.store.system().and_then(|s| s.eurostat_fetches()) {
            Ok(fetched) => state.metrics.set_eurostat(
                (fetched.into_iter())
                    .map(|f| (f.dataset_code, f.succeeded_at, f.error.and(f.failed_at)))
                    .collect(),
            ),
            Err(e) => tracing::warn!(error = %e, "reading what was fetched from Eurostat"),
        }
        let clock = state.limiter.clock();
        state.limiter.sweep(clock.instant(), clock.unix_secs());
        state.auth.sweep();
    }
}
