//! The accept loop. Each connection takes a permit of a semaphore (the connection limit), runs
//! its TLS handshake under a timeout, and is served by hyper-util's auto builder (HTTP/1.1 and
//! HTTP/2) under a graceful-shutdown watcher. On shutdown the listener closes at once, in-flight
//! requests get `drain_timeout` to finish, and what remains is dropped.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tokio_rustls::TlsAcceptor;

use crate::state::AppState;

pub async fn serve(
    state: Arc<AppState>,
    listener: TcpListener,
    tls: Option<TlsAcceptor>,
    shutdown: impl Future<Output = ()>,
) {
    let config = &state.config;
    // Bounds memory and file descriptors; excess connections wait in the accept queue.
    let permits = Arc::new(Semaphore::new(config.max_connections));
    let graceful = GracefulShutdown::new();
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(config.header_read_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(128)
        .keep_alive_interval(Duration::from_secs(30));
    let builder = Arc::new(builder);
    let handshake_timeout = config.tls_handshake_timeout;
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
        let _ = stream.set_nodelay(true);
        let state = Arc::clone(&state);
        let builder = Arc::clone(&builder);
        let watcher = graceful.watcher();
        let tls = tls.clone();
        tokio::spawn(async move {
            let service = service_fn(move |req| {
                let state = Arc::clone(&state);
                async move { Ok::<_, Infallible>(crate::http::handle(state, req, peer).await) }
            });
            let result = match tls {
                None => {
                    let conn = builder.serve_connection(TokioIo::new(stream), service);
                    watcher.watch(conn).await
                }
                Some(acceptor) => {
                    match tokio::time::timeout(handshake_timeout, acceptor.accept(stream)).await {
                        Ok(Ok(stream)) => {
                            let conn = builder.serve_connection(TokioIo::new(stream), service);
                            watcher.watch(conn).await
                        }
                        Ok(Err(e)) => {
                            tracing::debug!(%peer, error = %e, "TLS handshake failed");
                            Ok(())
                        }
                        Err(_) => {
                            tracing::debug!(%peer, "TLS handshake timed out");
                            Ok(())
                        }
                    }
                }
            };
            if let Err(e) = result {
                tracing::debug!(%peer, error = %e, "connection ended with an error");
            }
            drop(permit);
        });
    }

    drop(listener);
    tracing::info!(drain_timeout = ?config.drain_timeout, "shutting down: draining connections");
    tokio::select! {
        () = graceful.shutdown() => tracing::info!("all connections closed"),
        () = tokio::time::sleep(config.drain_timeout) => {
            tracing::warn!("drain deadline passed; closing the remaining connections");
        }
    }
}
