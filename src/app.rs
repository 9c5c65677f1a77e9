//! Start-up: open and migrate the store, build the state and the OpenAPI document, start the
//! background workers, then serve until the shutdown signal.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper::body::Bytes;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

use crate::catalogue::Catalogue;
use crate::config::ServerConfig;
use crate::state::AppState;
use crate::store::Store;

/// How often the server looks for imports and credential changes made by another process, and
/// flushes daily usage.
const GENERATION_POLL: Duration = Duration::from_secs(1);
/// How often idle rate-limit buckets are dropped.
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
                .any(|r| r.doc.operation_id == op),
            "--route-weight names {op:?}, which is no route's operation id (see regintel openapi)"
        );
    }
    let store = Store::open(&config.data_dir, config.pool_size)?;
    let base_path = format!("/api/v1/{}", config.service);
    let openapi = crate::openapi::document(&base_path, &config.limits.route_weights);
    let openapi = Bytes::from(serde_json::to_vec(&openapi)?);
    let state = Arc::new(AppState::new(
        config,
        base_path,
        store,
        Catalogue::bundled(),
        openapi,
    )?);

    let poller = tokio::spawn(background(Arc::clone(&state)));
    crate::net::server::serve(
        Arc::clone(&state),
        listener,
        tls.map(TlsAcceptor::from),
        shutdown,
    )
    .await;
    poller.abort();
    // The last counts since the previous flush.
    state.flush_usage();
    Ok(())
}

async fn background(state: Arc<AppState>) {
    let mut tick = tokio::time::interval(GENERATION_POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut last_sweep = std::time::Instant::now();
    loop {
        tick.tick().await;
        if state.refresh_generation() {
            tracing::info!(
                generation = state.generation(),
                "data changed; cached answers renewed"
            );
        }
        state.auth.refresh(&state.store);
        // A write that may wait for the database's writer: off the async threads.
        let flushing = Arc::clone(&state);
        let _ = tokio::task::spawn_blocking(move || flushing.flush_usage()).await;
        let now = std::time::Instant::now();
        if now.duration_since(last_sweep) >= SWEEP_EVERY {
            state
                .limiter
                .sweep(now, crate::clock::now_ms().div_euclid(1000));
            last_sweep = now;
        }
    }
}
