//! Settings of a running server. The command line (`cli.rs`) fills these from flags and
//! `REGINTEL_*` environment variables; tests build them directly.

use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Everything regintel keeps lives here: the database, and for the demo the certificate.
    pub data_dir: PathBuf,
    /// The `<service>` of `/api/v1/<service>`.
    pub service: String,
    /// True when serving HTTPS: adds `Strict-Transport-Security`.
    pub tls: bool,
    /// Connections served at once; more wait in the kernel's accept queue.
    pub max_connections: usize,
    /// Time a client has to send a request's headers (slowloris defence).
    pub header_read_timeout: Duration,
    /// Time a TLS handshake may take.
    pub tls_handshake_timeout: Duration,
    /// Largest JSON request body accepted.
    pub max_body_bytes: u64,
    /// Largest CSV upload (`PUT /datasets/{code}/data`).
    pub max_upload_bytes: u64,
    /// The URL clients use to reach this server; the issuer of session tokens.
    pub public_url: Option<String>,
    /// How long shutdown waits for in-flight requests before closing connections.
    pub drain_timeout: Duration,
    /// Memory for cached answers.
    pub cache_bytes: usize,
    /// SQLite connections in the pool.
    pub pool_size: u32,
}

impl ServerConfig {
    /// The `iss` of session tokens: the public URL, or "regintel" when none is configured.
    pub fn issuer(&self) -> &str {
        self.public_url.as_deref().unwrap_or("regintel")
    }

    pub fn new(data_dir: PathBuf) -> ServerConfig {
        ServerConfig {
            data_dir,
            service: "regional".into(),
            tls: false,
            max_connections: 1024,
            header_read_timeout: Duration::from_secs(10),
            tls_handshake_timeout: Duration::from_secs(10),
            max_body_bytes: 1024 * 1024,
            max_upload_bytes: 32 * 1024 * 1024,
            public_url: None,
            drain_timeout: Duration::from_secs(10),
            cache_bytes: 32 * 1024 * 1024,
            pool_size: 8,
        }
    }

    /// Checks what flags and variables cannot express, with a message that says what to fix.
    pub fn validate(&self) -> anyhow::Result<()> {
        let ok = !self.service.is_empty()
            && self
                .service
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
        anyhow::ensure!(
            ok,
            "--service must be lower-case letters, digits and '-', e.g. 'regional' (got {:?})",
            self.service
        );
        anyhow::ensure!(
            self.max_connections > 0,
            "--max-connections must be at least 1"
        );
        anyhow::ensure!(self.pool_size > 0, "--db-pool-size must be at least 1");
        if let Some(url) = &self.public_url {
            anyhow::ensure!(
                url.starts_with("https://") || url.starts_with("http://"),
                "--public-url must be an http(s) URL such as https://stats.example.org (got {url:?})"
            );
        }
        Ok(())
    }
}
