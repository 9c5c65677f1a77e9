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

/// How often the server looks for imports and credential changes made by another process.
const GENERATION_POLL: Duration = Duration::from_secs(1);

/// Runs regintel on an already-bound listener until `shutdown` resolves and the connections have
/// drained (or the drain deadline passed). `tls` None serves plain HTTP.
pub async fn start(
    config: ServerConfig,
    listener: TcpListener,
    tls: Option<Arc<rustls::ServerConfig>>,
    shutdown: impl Future<Output = ()>,
) -> anyhow::Result<()> {
    config.validate()?;
    let store = Store::open(&config.data_dir, config.pool_size)?;
    let base_path = format!("/api/v1/{}", config.service);
    let openapi = Bytes::from(serde_json::to_vec(&crate::openapi::document(&base_path))?);
    let state = Arc::new(AppState::new(config, store, Catalogue::bundled(), openapi)?);

    let poller = tokio::spawn(poll_generation(Arc::clone(&state)));
    crate::net::server::serve(state, listener, tls.map(TlsAcceptor::from), shutdown).await;
    poller.abort();
    Ok(())
}

async fn poll_generation(state: Arc<AppState>) {
    let mut tick = tokio::time::interval(GENERATION_POLL);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if state.refresh_generation() {
            tracing::info!(
                generation = state.generation(),
                "data changed; cached answers renewed"
            );
        }
        state.auth.refresh(&state.store);
    }
}
