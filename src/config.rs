//! Settings of a running server. The command line (`cli.rs`) fills these from flags and
//! `REGINTEL_*` environment variables; tests build them directly.

use std::path::PathBuf;
use std::time::Duration;

/// Requests per minute, hour and UTC day for one kind of caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quotas {
    pub minute: u64,
    pub hour: u64,
    /// For accounts: the tier's daily cap, shared by the account's keys (also each key's own
    /// day limit).
    pub day: u64,
}

/// Rate limits (conventions §2.3 defaults).
#[derive(Debug, Clone)]
pub struct LimitConfig {
    /// Off only for a deployment whose gateway limits requests itself.
    pub enabled: bool,
    pub anonymous: Quotas,
    pub professional: Quotas,
    pub institutional: Quotas,
    /// Failed authentications per client address per minute.
    pub auth_fail_per_minute: u64,
    /// Peers whose `Forwarded` / `X-Forwarded-For` headers name the client.
    pub trusted_proxies: Vec<crate::limits::Cidr>,
    /// Bucket entries kept in memory at most.
    pub max_entries: usize,
    /// Overrides of route weights by operation id (`exportDataset=20`).
    pub route_weights: Vec<(String, u64)>,
}

impl Default for LimitConfig {
    fn default() -> Self {
        LimitConfig {
            enabled: true,
            anonymous: Quotas {
                minute: 30,
                hour: 300,
                day: 1_000,
            },
            professional: Quotas {
                minute: 60,
                hour: 1_000,
                day: 10_000,
            },
            institutional: Quotas {
                minute: 300,
                hour: 10_000,
                day: 100_000,
            },
            auth_fail_per_minute: 20,
            trusted_proxies: Vec::new(),
            max_entries: 100_000,
            route_weights: Vec::new(),
        }
    }
}

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
    pub limits: LimitConfig,
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
            limits: LimitConfig::default(),
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
        anyhow::ensure!(
            self.pool_size > 0,
            "the database pool needs at least 1 connection"
        );
        let l = &self.limits;
        for (name, q) in [
            ("ANONYMOUS", l.anonymous),
            ("PROFESSIONAL", l.professional),
            ("INSTITUTIONAL", l.institutional),
        ] {
            for (window, value) in [("MINUTE", q.minute), ("HOUR", q.hour), ("DAY", q.day)] {
                anyhow::ensure!(
                    value > 0,
                    "REGINTEL_LIMIT_{name}_{window} (--limit-{}-{}) must be at least 1",
                    name.to_lowercase(),
                    window.to_lowercase()
                );
            }
        }
        anyhow::ensure!(
            l.auth_fail_per_minute > 0,
            "--limit-auth-fail-minute must be at least 1"
        );

        if let Some(url) = &self.public_url {
            anyhow::ensure!(
                url.starts_with("https://") || url.starts_with("http://"),
                "--public-url must be an http(s) URL such as https://stats.example.org (got {url:?})"
            );
        }
        Ok(())
    }
}
