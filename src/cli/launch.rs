//! Running the server from the command line (`regintel serve`, and the demo): HTTPS or plain
//! HTTP, the async runtime, the listening socket, the line scripts read to learn the address,
//! and shutdown on SIGTERM or Ctrl-C.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, bail};
use tokio::net::TcpListener;

use super::logging::LogFormat;
use crate::config::ServerConfig;
use crate::net::tls;

/// `regintel serve`: HTTPS with the certificate and key `tls`, or plain HTTP when
/// `plain_http` (behind a TLS-terminating proxy); the database must exist.
pub fn production(
    config: ServerConfig,
    listen: SocketAddr,
    tls: Option<(&Path, &Path)>,
    plain_http: bool,
    format: LogFormat,
) -> anyhow::Result<()> {
    let tls = tls_settings(tls, plain_http)?;
    if let crate::store::Database::Sqlite(data_dir) = &config.database {
        database(data_dir)?;
    }
    serve(config, listen, tls, format, |_| Ok(()))
}

/// HTTPS with the certificate and key (both read and matched), or plain HTTP when asked.
pub fn tls_settings(
    tls: Option<(&Path, &Path)>,
    plain_http: bool,
) -> anyhow::Result<Option<Arc<rustls::ServerConfig>>> {
    match (tls, plain_http) {
        (Some((cert, key)), false) => Ok(Some(tls::server_config(cert, key)?)),
        (None, true) => Ok(None),
        (Some(_), true) => {
            bail!("--plain-http and --tls-cert/--tls-key exclude each other: choose one")
        }
        (None, false) => bail!(
            "regintel serves HTTPS: give --tls-cert and --tls-key (PEM files), or --plain-http to serve plain HTTP behind a TLS-terminating proxy"
        ),
    }
}

/// The database file in `data_dir`, which must exist.
pub fn database(data_dir: &Path) -> anyhow::Result<PathBuf> {
    let path = data_dir.join(crate::store::DB_FILE);
    if !path.exists() {
        bail!(
            "no database in {}: run `regintel import --bundled --data-dir {}` first",
            data_dir.display(),
            data_dir.display()
        );
    }
    Ok(path)
}

/// Serves `config` on `listen` until a signal. `on_bound` runs once the address is known (port
/// 0 picks one), before the first connection is accepted.
pub fn serve(
    config: ServerConfig,
    listen: SocketAddr,
    tls: Option<Arc<rustls::ServerConfig>>,
    format: LogFormat,
    on_bound: impl FnOnce(SocketAddr) -> anyhow::Result<()> + Send + 'static,
) -> anyhow::Result<()> {
    runtime()?.block_on(async move {
        let shutdown = shutdown_signal()?;
        let listener = match crate::runtime::systemd::activated_listener()? {
            Some(socket) => TcpListener::from_std(socket)?,
            None => TcpListener::bind(listen).await.with_context(|| {
                format!("cannot listen on {listen} (in use? choose another with --listen)")
            })?,
        };
        let addr = announce(&listener, tls.is_some(), format)?;
        on_bound(addr)?;
        crate::start(config, listener, tls, shutdown).await
    })
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("while starting the async runtime")
}

/// Prints the bound address on stdout (scripts and the benchmark read it; with JSON logs as a
/// JSON object, `{"listening":"http://..."}`) and logs the mode.
fn announce(listener: &TcpListener, tls: bool, format: LogFormat) -> anyhow::Result<SocketAddr> {
    let addr = listener.local_addr()?;
    let scheme = if tls { "https" } else { "http" };
    if !tls {
        tracing::warn!(
            "serving plain HTTP (--plain-http): use only on loopback or behind a TLS-terminating proxy"
        );
    }
    let url = format!("{scheme}://{addr}");
    match format {
        LogFormat::Text => println!("regintel listening on {url}"),
        LogFormat::Json => println!("{}", serde_json::json!({ "listening": url })),
    }
    Ok(addr)
}

/// Resolves on SIGTERM or SIGINT (Ctrl-C). The handlers are installed when this is called, not
/// when first polled, so a signal arriving during start-up is not lost to the default action.
fn shutdown_signal() -> anyhow::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate()).context("while installing a SIGTERM handler")?;
    let mut int = signal(SignalKind::interrupt()).context("while installing a SIGINT handler")?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => tracing::info!("SIGTERM received"),
            _ = int.recv() => tracing::info!("Ctrl-C received"),
        }
    })
}
