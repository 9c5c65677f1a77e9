//! Settings of a running server. The command line (`cli`) fills these from flags and
//! `REGINTEL_*` environment variables; tests build them directly. Both start from [`defaults`].

use std::path::{Path, PathBuf};
use std::time::Duration;

/// The default of every setting a flag can change: [`ServerConfig::new`] and the command line's
/// flags both take them from here.
pub mod defaults {
    use super::Quotas;

    pub const DATA_DIR: &str = "./regintel-data";
    pub const SERVICE: &str = "regional";
    /// Where `serve` (and the demo over HTTPS) listens.
    pub const LISTEN: &str = "127.0.0.1:8443";
    /// Where the demo listens with `--plain-http`.
    pub const LISTEN_PLAIN_HTTP: &str = "127.0.0.1:8080";
    pub const MAX_CONNECTIONS: usize = 1024;
    pub const HEADER_TIMEOUT_SECS: u64 = 10;
    pub const IDLE_TIMEOUT_SECS: u64 = 60;
    pub const SEND_TIMEOUT_SECS: u64 = 30;
    pub const BODY_TIMEOUT_SECS: u64 = 120;
    pub const MAX_BODY_BYTES: u64 = 1024 * 1024;
    pub const MAX_UPLOAD_BYTES: u64 = 32 * 1024 * 1024;
    pub const MAX_UPLOADS: usize = 4;
    pub const MAX_EXPORTS: usize = 4;
    pub const DRAIN_TIMEOUT_SECS: u64 = 10;
    pub const CACHE_MB: usize = 32;
    pub const PUBLIC_DATA_MB: usize = 48;
    /// How long a write waits for the database's write lock, and a blocking thread for a
    /// database connection, before the request fails.
    /// Long enough for any one write transaction here, short enough that a stuck writer
    /// surfaces as an error instead of a hang.
    pub const DATABASE_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

    pub const ANONYMOUS: Quotas = Quotas {
        minute: 30,
        hour: 300,
        day: 1_000,
    };
    /// The day is the tier's promised daily cap.
    pub const PROFESSIONAL: Quotas = Quotas {
        minute: 60,
        hour: 1_000,
        day: 10_000,
    };
    /// The day is the tier's promised daily cap.
    pub const INSTITUTIONAL: Quotas = Quotas {
        minute: 300,
        hour: 10_000,
        day: 100_000,
    };
    pub const AUTH_FAIL_PER_MINUTE: u64 = 20;
    pub const LOGINS_PER_HOUR: u64 = 30;
    pub const KEY_CREATIONS_PER_HOUR: u64 = 10;
    pub const LLM_TIMEOUT_SECS: u64 = 30;
}

/// The optional model server that writes briefings' prose (see `llm`).
#[derive(Clone)]
pub struct LlmConfig {
    /// The chat-completions URL, e.g. `http://127.0.0.1:8000/v1/chat/completions`.
    pub url: http::Uri,
    pub model: String,
    pub timeout: Duration,
    /// Sent as `Authorization: Bearer`; read from a file, never from the command line.
    pub api_key: Option<String>,
}

impl std::fmt::Debug for LlmConfig {
    // The key stays out of logs and panics.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmConfig")
            .field("url", &self.url)
            .field("model", &self.model)
            .field("timeout", &self.timeout)
            .field("api_key", &self.api_key.as_ref().map(|_| "[set]"))
            .finish()
    }
}

impl LlmConfig {
    /// Checks the URL: `http://host[:port]/path`.
    pub fn parse_url(url: &str) -> Result<http::Uri, String> {
        let uri: http::Uri = url
            .parse()
            .map_err(|_| format!("--llm-url {url:?} is not a URL"))?;
        if uri.scheme_str() != Some("http") || uri.host().is_none() {
            return Err(format!(
                "--llm-url must be an http:// URL of a chat-completions endpoint (such as http://127.0.0.1:8000/v1/chat/completions), not {url:?}"
            ));
        }
        Ok(uri)
    }
}

/// Requests per minute, hour and UTC day for one kind of caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quotas {
    pub minute: u64,
    pub hour: u64,
    /// For accounts: the tier's daily cap, shared by the account's keys (also each key's own
    /// day limit).
    pub day: u64,
}

/// Rate limits, per tier and window; the daily caps are the tiers' promised quotas.
#[derive(Debug, Clone)]
pub struct LimitConfig {
    /// Off only for a deployment whose gateway limits requests itself.
    pub enabled: bool,
    pub anonymous: Quotas,
    pub professional: Quotas,
    pub institutional: Quotas,
    /// Failed authentications per client address per minute.
    pub auth_fail_per_minute: u64,
    /// Peers whose forwarding header names the client.
    pub trusted_proxies: Vec<crate::client_addr::Cidr>,
    /// Which forwarding header those proxies set; required when there are trusted proxies, since
    /// trusting whichever is present would let a client supply the other one itself.
    pub proxy_header: Option<crate::client_addr::ProxyHeader>,
    /// Successful logins (new sessions) per account per rolling hour.
    pub logins_per_hour: u64,
    /// API keys an account may create per rolling hour: a new key has fresh buckets, so without
    /// this, revoking and creating keys would multiply an account's per-minute quota.
    pub key_creations_per_hour: u64,
    /// Bucket entries kept in memory at most.
    pub max_entries: usize,
    /// Overrides of route weights by operation id (`exportDataset=5`).
    pub route_weights: Vec<(String, u64)>,
}

impl Default for LimitConfig {
    fn default() -> Self {
        LimitConfig {
            enabled: true,
            anonymous: defaults::ANONYMOUS,
            professional: defaults::PROFESSIONAL,
            institutional: defaults::INSTITUTIONAL,
            auth_fail_per_minute: defaults::AUTH_FAIL_PER_MINUTE,
            trusted_proxies: Vec::new(),
            proxy_header: None,
            logins_per_hour: defaults::LOGINS_PER_HOUR,
            key_creations_per_hour: defaults::KEY_CREATIONS_PER_HOUR,
            max_entries: 100_000,
            route_weights: Vec::new(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Everything regintel keeps lives here: the database (unless `database` is PostgreSQL),
    /// the secrets, and for the demo the certificate.
    pub data_dir: PathBuf,
    /// The SQLite file of the data dir, or a PostgreSQL database.
    pub database: Database,
    /// The `<service>` of `/api/v1/<service>`.
    pub service: String,
    /// True when serving HTTPS: adds `Strict-Transport-Security`.
    pub tls: bool,
    /// Connections served at once; more wait in the kernel's accept queue.
    pub max_connections: usize,
    /// Connections one client address (IPv6: one /64) may hold at once; more are closed on
    /// accept. Trusted proxies are exempt. None: 1/16 of `max_connections` (see
    /// [`ServerConfig::connection_share`]).
    pub max_connections_per_address: Option<usize>,
    /// Time a client has to send a request's headers, counted from when the connection opened
    /// (after TLS) or its previous answer was sent: the deadline of a first request, and of
    /// HTTP/1.1 keep-alive (slowloris defence).
    pub header_read_timeout: Duration,
    /// An HTTP/2 connection with no request in flight for this long is closed (GOAWAY).
    pub idle_timeout: Duration,
    /// An answer with a piece ready that is not taken for sending for this long (the client
    /// stopped reading) is cut off, with its connection, freeing what it holds.
    pub send_timeout: Duration,
    /// Time a client has to send a whole request body.
    pub body_timeout: Duration,
    /// Time a TLS handshake may take.
    pub tls_handshake_timeout: Duration,
    /// Largest JSON request body accepted.
    pub max_body_bytes: u64,
    /// Largest CSV upload (`PUT /datasets/{dataset_code}/data`).
    pub max_upload_bytes: u64,
    /// Uploads being read or imported at once (one per account; parsed and written one at a time).
    pub max_uploads: usize,
    /// Bulk exports streaming at once (one per account).
    pub max_exports: usize,
    /// The URL clients use to reach this server; the issuer of session tokens.
    pub public_url: Option<String>,
    /// How long shutdown waits for in-flight requests before closing connections.
    pub drain_timeout: Duration,
    /// Memory for cached answers.
    pub cache_bytes: usize,
    /// Memory for the current public rows (`store::public_rows`); 0: always read from SQLite.
    pub public_data_bytes: usize,
    /// SQLite connections in the pool.
    pub pool_size: u32,
    pub limits: LimitConfig,
    /// The model server that writes briefings' prose; None: regintel's own writer only.
    pub llm: Option<LlmConfig>,
    /// Where webhooks may be delivered: public addresses, and what the operator allows besides.
    pub webhook_egress: crate::webhooks::egress::EgressPolicy,
    /// The delivery worker's clock (retry times, breakers, leases, message ages; the API's
    /// handlers read the wall clock): the wall clock, which tests move forward to reach later
    /// steps of the retry schedule.
    pub webhook_clock: crate::runtime::clock::Clock,
    /// The rate limiter's clock (its rolling buckets and UTC days, and the days of
    /// `usage_daily`): the wall clock, which tests move forward to reach a refill or the next
    /// day without waiting for it.
    pub limits_clock: crate::runtime::clock::Clock,
    /// How long a registration or URL change waits for the host's addresses before it is
    /// refused (the lookup goes on in its place, see `webhooks::url_checks`).
    pub webhook_resolve_wait: Duration,
    /// Queue webhook deliveries and send nothing (`--webhooks-paused`).
    pub webhooks_paused: bool,
    /// Permits of each blocking pool (reads; writes and password hashing): one per processor,
    /// which tests set to a number of their own.
    pub blocking_permits: usize,
    /// How long a write waits for the database's write lock, and a blocking thread for a
    /// database connection ([`defaults::DATABASE_WAIT`]; tests lengthen it to hold writers).
    pub database_wait: std::time::Duration,
    /// Make new secrets over a database that holds what the old ones protected (`--new-secrets`):
    /// without it, a missing or different secret file stops the start.
    pub new_secrets: bool,
    /// The token a Prometheus scrape of `/metrics` must present; None: loopback clients only.
    pub metrics_token: Option<String>,
    /// Where text logs take each request's access line, written without tracing; None: through
    /// tracing (JSON logs, logs to a terminal, and servers that set up no logging).
    pub access_lines: Option<AccessLines>,
}

/// What takes access lines written directly: one line at a time, whole, keys and all (the
/// writer redacts them).
#[derive(Clone)]
pub struct AccessLines(std::sync::Arc<dyn Fn(&str) + Send + Sync>);

impl AccessLines {
    pub fn new(write: impl Fn(&str) + Send + Sync + 'static) -> AccessLines {
        AccessLines(std::sync::Arc::new(write))
    }

    pub fn write(&self, line: &str) {
        (self.0)(line)
    }
}

impl std::fmt::Debug for AccessLines {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AccessLines")
    }
}

impl ServerConfig {
    /// `/api/v1/<service>`: the base path of every API route.
    pub fn base_path(&self) -> String {
        format!("/api/v1/{}", self.service)
    }

    /// The API's base URL (`https://<host>/api/v1/<service>`):
    /// the public URL with the base path, or the base path alone when no public URL is set.
    pub fn base_url(&self) -> String {
        let origin = self.public_url.as_deref().unwrap_or("");
        format!("{}{}", origin.trim_end_matches('/'), self.base_path())
    }

    /// The `iss` of session tokens: the public URL, or "regintel" when none is configured.
    pub fn issuer(&self) -> &str {
        self.public_url.as_deref().unwrap_or("regintel")
    }

    pub fn new(data_dir: PathBuf) -> ServerConfig {
        ServerConfig {
            database: Database::Sqlite(data_dir.clone()),
            data_dir,
            service: defaults::SERVICE.into(),
            tls: false,
            max_connections: defaults::MAX_CONNECTIONS,
            max_connections_per_address: None,
            header_read_timeout: Duration::from_secs(defaults::HEADER_TIMEOUT_SECS),
            idle_timeout: Duration::from_secs(defaults::IDLE_TIMEOUT_SECS),
            send_timeout: Duration::from_secs(defaults::SEND_TIMEOUT_SECS),
            body_timeout: Duration::from_secs(defaults::BODY_TIMEOUT_SECS),
            tls_handshake_timeout: Duration::from_secs(10),
            max_body_bytes: defaults::MAX_BODY_BYTES,
            max_upload_bytes: defaults::MAX_UPLOAD_BYTES,
            max_uploads: defaults::MAX_UPLOADS,
            max_exports: defaults::MAX_EXPORTS,
            public_url: None,
            drain_timeout: Duration::from_secs(defaults::DRAIN_TIMEOUT_SECS),
            cache_bytes: defaults::CACHE_MB * 1024 * 1024,
            public_data_bytes: defaults::PUBLIC_DATA_MB * 1024 * 1024,
            pool_size: 8,
            limits: LimitConfig::default(),
            llm: None,
            webhook_egress: Default::default(),
            webhook_clock: Default::default(),
            limits_clock: Default::default(),
            webhook_resolve_wait: crate::webhooks::send::CONNECT_TIMEOUT,
            new_secrets: false,
            webhooks_paused: false,
            blocking_permits: blocking_permits(),
            database_wait: defaults::DATABASE_WAIT,
            metrics_token: None,
            access_lines: None,
        }
    }

    /// Connections one client address may hold: as set, or 1/16 of `max_connections` (at least
    /// one), so one address can never hold every slot.
    pub fn connection_share(&self) -> usize {
        self.max_connections_per_address
            .unwrap_or((self.max_connections / 16).max(1))
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
            (1..=self.max_connections).contains(&self.connection_share()),
            "--max-connections-per-address must be from 1 to --max-connections ({})",
            self.max_connections
        );
        for (flag, value) in [
            ("--header-timeout", self.header_read_timeout),
            ("--idle-timeout", self.idle_timeout),
            ("--send-timeout", self.send_timeout),
            ("--body-timeout", self.body_timeout),
        ] {
            anyhow::ensure!(!value.is_zero(), "{flag} must be at least 1 second");
        }
        anyhow::ensure!(
            self.max_uploads > 0 && self.max_exports > 0,
            "--max-uploads and --max-exports must be at least 1"
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
        for (flag, value) in [
            ("--limit-auth-fail-minute", l.auth_fail_per_minute),
            ("--limit-logins-hour", l.logins_per_hour),
            ("--limit-key-creations-hour", l.key_creations_per_hour),
        ] {
            anyhow::ensure!(value > 0, "{flag} must be at least 1");
        }
        anyhow::ensure!(
            l.trusted_proxies.is_empty() || l.proxy_header.is_some(),
            "--trusted-proxy needs --trusted-proxy-header: the header your proxy sets, forwarded or x-forwarded-for"
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

/// Work run on the blocking pool at once, of each kind (writes and hashing; long reads): one per
/// core.
pub fn blocking_permits() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

#[cfg(test)]
mod llm_tests {
    use super::*;

    #[test]
    fn only_plain_http_model_urls_are_taken() {
        assert!(LlmConfig::parse_url("http://127.0.0.1:8000/v1/chat/completions").is_ok());
        assert!(LlmConfig::parse_url("https://models.example/v1/chat/completions").is_err());
        assert!(LlmConfig::parse_url("not a url").is_err());
    }

    #[test]
    fn the_model_key_stays_out_of_debug_output() {
        let config = LlmConfig {
            url: LlmConfig::parse_url("http://127.0.0.1:1/v1/chat/completions").unwrap(),
            model: "m".into(),
            timeout: Duration::from_secs(1),
            api_key: Some("sk-very-secret".into()),
        };
        assert!(!format!("{config:?}").contains("very-secret"));
    }
}

/// The connection settings of a PostgreSQL URL (`postgres://user:password@host:port/database`,
/// or a Unix socket's directory as `?host=/run/postgresql`), checked without connecting. An
/// error does not repeat the URL: it may hold a password.
pub fn postgres_config(url: &str) -> anyhow::Result<postgres::Config> {
    <postgres::Config as std::str::FromStr>::from_str(url)
        .map_err(|e| anyhow::anyhow!("the database URL is not a PostgreSQL connection URL: {e}"))
}

/// The database a store opens.
#[derive(Clone, PartialEq, Eq)]
pub enum Database {
    /// `regintel.sqlite` in this data dir.
    Sqlite(PathBuf),
    /// A PostgreSQL connection URL, naming the database's owner.
    Postgres(String),
}

impl Database {
    /// The database `url` names (a `postgres://` or `postgresql://` URL), else the SQLite file
    /// of `data_dir`.
    pub fn choose(url: Option<&str>, data_dir: &Path) -> anyhow::Result<Database> {
        match url {
            None => Ok(Database::Sqlite(data_dir.to_path_buf())),
            Some(url) if url.starts_with("postgres://") || url.starts_with("postgresql://") => {
                // Checked now, so a mistyped URL is refused before anything starts.
                postgres_config(url)?;
                Ok(Database::Postgres(url.to_owned()))
            }
            Some(_) => anyhow::bail!(
                "the database URL must start with postgres:// or postgresql:// (without one, \
                 the SQLite file of the data dir is used)"
            ),
        }
    }
}

/// Without the URL, which may hold a password.
impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Database::Sqlite(dir) => f.debug_tuple("Sqlite").field(dir).finish(),
            Database::Postgres(_) => f.write_str("Postgres(..)"),
        }
    }
}

#[cfg(test)]
mod database_tests {
    use super::*;

    /// A replicated PostgreSQL is reached through every host of the URL, the primary chosen as
    /// the one that takes writes (docs/scaling.md relies on both).
    #[test]
    fn a_url_may_name_several_hosts_and_ask_for_the_primary() {
        let config = postgres_config(
            "postgres://regintel@db1.example.org,db2.example.org/regintel?target_session_attrs=read-write",
        )
        .unwrap();
        assert_eq!(config.get_hosts().len(), 2);
        assert_eq!(
            config.get_target_session_attrs(),
            postgres::config::TargetSessionAttrs::ReadWrite
        );
        let chosen = Database::choose(Some("postgres://u:secret@h/db"), Path::new("/d")).unwrap();
        assert!(!format!("{chosen:?}").contains("secret"));
        assert!(Database::choose(Some("mysql://h/db"), Path::new("/d")).is_err());
    }
}
