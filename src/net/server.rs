//! The accept loop. Each connection takes a slot of the connection limit (when all are taken, new
//! connections wait in the kernel's accept queue) and one of its client address's share (beyond
//! the share, a connection is closed at once, so one address can never hold every slot), then is
//! served by [`super::conn`]. On shutdown the listener closes at once, in-flight requests get
//! `drain_timeout` to finish, and what remains is aborted.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinSet;
use tokio_rustls::TlsAcceptor;

use crate::client_addr;
use crate::config::ServerConfig;
use crate::runtime::slots::Slots;
use crate::state::AppState;

/// Requests one HTTP/2 connection may have in flight at once.
const H2_MAX_STREAMS: u32 = 128;
/// HTTP/2 keep-alive: a ping this often, and a connection whose peer does not answer one in
/// [`H2_PING_TIMEOUT`] is closed (a peer that vanished holds nothing for long).
const H2_PING_EVERY: Duration = Duration::from_secs(30);
const H2_PING_TIMEOUT: Duration = Duration::from_secs(20);

pub async fn serve(
    state: Arc<AppState>,
    listener: TcpListener,
    tls: Option<TlsAcceptor>,
    shutdown: impl Future<Output = ()>,
) {
    let config = &state.config;
    let permits = Arc::new(Semaphore::new(config.max_connections));
    let per_address = Slots::new(usize::MAX, config.connection_share());
    let builder = Arc::new(builder(config));
    let (stop, stopping) = watch::channel(false);
    let mut connections = JoinSet::new();
    tokio::pin!(shutdown);

    loop {
        let permit = tokio::select! {
            permit = Arc::clone(&permits).acquire_owned() => permit.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    // Usually EMFILE: back off instead of spinning.
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Proxies carry many clients' connections: they are exempt from the per-address share.
        let address_slot = if client_addr::is_trusted(peer.ip(), &config.limits.trusted_proxies) {
            None
        } else {
            match per_address.try_take(client_addr::client_key(peer.ip())) {
                Ok(slot) => Some(slot),
                Err(_) => {
                    tracing::debug!(%peer, "connection closed: its address holds its share");
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        while connections.try_join_next().is_some() {}
        connections.spawn(super::conn::serve(
            Arc::clone(&state),
            Arc::clone(&builder),
            stream,
            peer,
            tls.clone(),
            stopping.clone(),
            (permit, address_slot),
        ));
    }

    drop(listener);
    tracing::info!(
        drain_timeout_seconds = config.drain_timeout.as_secs_f64(),
        "shutting down: draining connections"
    );
    let _ = stop.send(true);
    let drained = tokio::time::timeout(config.drain_timeout, async {
        while connections.join_next().await.is_some() {}
    })
    .await;
    match drained {
        Ok(()) => tracing::info!("all connections closed"),
        Err(_) => {
            tracing::warn!("drain deadline passed; closing the remaining connections");
            connections.shutdown().await;
        }
    }
}

/// hyper-util's auto builder (HTTP/1.1 and HTTP/2 by ALPN or preface) with the deadlines hyper
/// enforces itself; the others are the watchdog's (`conn.rs`).
fn builder(config: &ServerConfig) -> auto::Builder<TokioExecutor> {
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(H2_MAX_STREAMS)
        .keep_alive_interval(H2_PING_EVERY)
        .keep_alive_timeout(H2_PING_TIMEOUT);
    builder
}
