//! `regintel mcp --url BASE_URL`: the MCP tools over stdio for a desktop assistant, each tool
//! call a request to the REST API at BASE_URL with the key in `REGINTEL_API_KEY` (or the file
//! `--api-key-file` names; anonymous without either), so it costs and sees what that key's
//! requests do.

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, bail};
use http_body_util::Full;
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use rmcp::ServiceExt;
use serde_json::Value;

use crate::http::mcp::target;
use crate::mcp::{Answer, Backend, BackendFuture, Call, Tools};

/// How long one request may take, connection included.
const REQUEST_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(60);

/// The REST API at `base`, over HTTPS (or plain HTTP to this machine).
struct Remote {
    base: http::Uri,
    key: Option<String>,
    tls: Option<tokio_rustls::TlsConnector>,
}

impl Remote {
    async fn send(
        &self,
        method: http::Method,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Answer> {
        tokio::time::timeout(REQUEST_TIMEOUT, self.exchange(method, path, body))
            .await
            .context("regintel did not answer in time")?
    }

    async fn exchange(
        &self,
        method: http::Method,
        path: &str,
        body: Option<Value>,
    ) -> anyhow::Result<Answer> {
        let host = self.base.host().context("the URL has no host")?.to_owned();
        let secure = self.base.scheme_str() == Some("https");
        let port = self
            .base
            .port_u16()
            .unwrap_or(if secure { 443 } else { 80 });
        let tcp = tokio::net::TcpStream::connect((host.as_str(), port))
            .await
            .with_context(|| format!("cannot reach {host}:{port}"))?;
        let target = format!("{}{path}", self.base.path().trim_end_matches('/'));
        let mut request = http::Request::builder()
            .method(method)
            .uri(target)
            .header(
                http::header::HOST,
                self.base.authority().map_or(host.as_str(), |a| a.as_str()),
            )
            .header(http::header::ACCEPT, "application/json");
        if let Some(key) = &self.key {
            request = request.header(http::header::AUTHORIZATION, format!("Bearer {key}"));
        }
        let payload = match body {
            Some(body) => {
                request = request.header(http::header::CONTENT_TYPE, "application/json");
                Bytes::from(body.to_string())
            }
            None => Bytes::new(),
        };
        let request = request.body(Full::new(payload))?;
        let response = match (&self.tls, secure) {
            (Some(tls), true) => {
                let name = rustls_pki_types::ServerName::try_from(host.clone())?;
                let stream = tls.connect(name, tcp).await.context("TLS handshake")?;
                send(TokioIo::new(stream), request).await?
            }
            (_, false) => send(TokioIo::new(tcp), request).await?,
            (None, true) => bail!("no TLS configuration for an https URL"),
        };
        Ok(response)
    }
}

async fn send<S>(io: TokioIo<S>, request: http::Request<Full<Bytes>>) -> anyhow::Result<Answer>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io).await?;
    // Aborted however this ends, so no socket outlives the call.
    let connection = crate::runtime::task::AbortOnDrop(tokio::spawn(connection));
    let response = sender.send_request(request).await?;
    let answer = crate::mcp::read_answer(response).await;
    drop(connection);
    answer
}

impl Backend for Remote {
    fn get(&self, call: Call) -> BackendFuture<'_> {
        Box::pin(async move { self.send(http::Method::GET, &target(&call), None).await })
    }

    fn post(&self, call: Call, body: Value) -> BackendFuture<'_> {
        Box::pin(async move { (self.send(http::Method::POST, &target(&call), Some(body))).await })
    }
}

/// Serves the tools over stdin and stdout until the assistant closes them.
pub fn run(url: &str, key: Option<String>, ca_file: Option<PathBuf>) -> anyhow::Result<()> {
    let base: http::Uri = url.parse().context("--url is not a URL")?;
    // A user name or password would go out in the Host header of every request.
    if base.authority().is_some_and(|a| a.as_str().contains('@')) {
        bail!(
            "--url must not hold a user name or password: give the API key in REGINTEL_API_KEY or --api-key-file"
        );
    }
    let loopback = base
        .host()
        .map(|h| h.trim_start_matches('[').trim_end_matches(']'))
        .is_some_and(|h| {
            h == "localhost"
                || h.parse::<std::net::IpAddr>()
                    .is_ok_and(|ip| ip.is_loopback())
        });
    match base.scheme_str() {
        Some("https") => {}
        // The key would cross the network in the clear.
        Some("http") if loopback => {}
        Some("http") => bail!("--url must be https:// (plain http only to this machine)"),
        _ => {
            bail!("--url is the API's base URL, such as https://stats.example.org/api/v1/regional")
        }
    }
    let tls = tls_connector(ca_file)?;
    let remote = Remote {
        base,
        key,
        tls: Some(tls),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let service = Tools::new(Box::new(remote))
            .serve(rmcp::transport::stdio())
            .await
            .context("the MCP handshake over stdio failed")?;
        service.waiting().await?;
        Ok(())
    })
}

/// The system's trusted certificates, and `ca_file`'s (a private CA, or the demo's certificate).
fn tls_connector(ca_file: Option<PathBuf>) -> anyhow::Result<tokio_rustls::TlsConnector> {
    use rustls_pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(cert);
    }
    if let Some(file) = ca_file {
        for cert in rustls_pki_types::CertificateDer::pem_file_iter(&file)
            .with_context(|| format!("cannot read --ca-file {}", file.display()))?
        {
            roots.add(cert?)?;
        }
    }
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_rustls::TlsConnector::from(Arc::new(config)))
}
