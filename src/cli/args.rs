//! Flags that several commands share, and how each becomes the setting it names.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, bail};
use clap::Args;
use clap::builder::BoolishValueParser;

use crate::config::{LimitConfig, LlmConfig, Quotas, ServerConfig, defaults};
use crate::store::Database;

/// How much memory an import (or a fetch's) may hold.
#[derive(Args)]
pub(super) struct ImportMemory {
    /// Most memory in MiB that checking a file for duplicate rows may hold; the rest goes to
    /// temporary files in the data directory (the system's temporary directory when there is
    /// none). Then, while the rows are written, SQLite's page cache. Everything else an import
    /// holds has a fixed bound, whatever its files' size.
    #[arg(long, value_name = "MIB", default_value_t = crate::import::DEFAULT_MEMORY as u64 >> 20,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    pub(super) memory: u64,
}

impl ImportMemory {
    pub(super) fn bytes(&self) -> anyhow::Result<usize> {
        Ok(usize::try_from(self.memory << 20)?)
    }
}

#[derive(Args)]
pub(super) struct DataDir {
    /// Directory holding the database (the SQLite file), the secrets and the demo certificate.
    #[arg(long, env = "REGINTEL_DATA_DIR", default_value = defaults::DATA_DIR)]
    pub(super) data_dir: PathBuf,
    #[command(flatten)]
    pub(super) database: DatabaseArgs,
}

impl DataDir {
    pub(super) fn database(&self) -> anyhow::Result<Database> {
        self.database.choose(&self.data_dir)
    }
}

/// A PostgreSQL database instead of the data dir's SQLite file (see docs/scaling.md).
#[derive(Args)]
pub(super) struct DatabaseArgs {
    /// PostgreSQL (14 or newer) instead of the SQLite file of the data dir, for several nodes:
    /// postgres://OWNER:PASSWORD@HOST/DATABASE, as the database's owner (a role with CREATEROLE,
    /// not a superuser; ?host=/run/postgresql for a Unix socket). A password on a command line
    /// is visible to every user of the machine: give the URL in a file (--database-url-file).
    #[arg(
        long,
        env = "REGINTEL_DATABASE_URL",
        hide_env_values = true,
        global = true
    )]
    pub(super) database_url: Option<String>,
    /// A file holding the PostgreSQL URL (see --database-url).
    #[arg(long, env = "REGINTEL_DATABASE_URL_FILE", global = true)]
    pub(super) database_url_file: Option<PathBuf>,
}

impl DatabaseArgs {
    /// The database named, else the SQLite file of `data_dir`.
    pub(super) fn choose(&self, data_dir: &Path) -> anyhow::Result<Database> {
        let url = url_given(
            self.database_url.as_deref(),
            self.database_url_file.as_deref(),
            "--database-url (REGINTEL_DATABASE_URL) and --database-url-file",
        )?;
        Database::choose(url.as_deref(), data_dir)
    }
}

/// A URL given on the command line or in a file, `flags` naming both: at most one of them.
pub(super) fn url_given(
    url: Option<&str>,
    file: Option<&Path>,
    flags: &str,
) -> anyhow::Result<Option<String>> {
    match (url, file) {
        (Some(_), Some(_)) => bail!("{flags} both name the database: keep one"),
        (Some(url), None) => Ok(Some(url.trim().to_owned())),
        (None, Some(path)) => Ok(Some(
            std::fs::read_to_string(path)
                .with_context(|| format!("while reading {}", path.display()))?
                .trim()
                .to_owned(),
        )),
        (None, None) => Ok(None),
    }
}

#[derive(Args)]
pub(super) struct TlsFiles {
    /// PEM certificate chain for HTTPS.
    #[arg(long, env = "REGINTEL_TLS_CERT")]
    pub(super) tls_cert: Option<PathBuf>,
    /// PEM private key for HTTPS.
    #[arg(long, env = "REGINTEL_TLS_KEY")]
    pub(super) tls_key: Option<PathBuf>,
}

impl TlsFiles {
    /// The certificate and the key, or neither.
    pub(super) fn pair(&self) -> anyhow::Result<Option<(&Path, &Path)>> {
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Ok(Some((cert, key))),
            (None, None) => Ok(None),
            _ => bail!("--tls-cert and --tls-key go together: give both"),
        }
    }
}

/// Where clients reach the API.
#[derive(Args)]
pub(super) struct PublicAddress {
    /// The <service> of the base path /api/v1/<service>.
    #[arg(long, env = "REGINTEL_SERVICE", default_value = defaults::SERVICE)]
    pub(super) service: String,
    /// The URL clients use to reach the server, e.g. https://stats.example.org: the API's base
    /// URL is this with /api/v1/<service> (without it, the base path alone), and session tokens
    /// name it as their issuer.
    #[arg(long, env = "REGINTEL_PUBLIC_URL")]
    pub(super) public_url: Option<String>,
}

/// Rate limits; each also from its `REGINTEL_*` variable (the quotas from
/// `REGINTEL_LIMIT_<TIER>_<WINDOW>`).
#[derive(Args)]
pub(super) struct LimitArgs {
    #[arg(long, env = "REGINTEL_LIMIT_ANONYMOUS_MINUTE", default_value_t = defaults::ANONYMOUS.minute)]
    pub(super) limit_anonymous_minute: u64,
    #[arg(long, env = "REGINTEL_LIMIT_ANONYMOUS_HOUR", default_value_t = defaults::ANONYMOUS.hour)]
    pub(super) limit_anonymous_hour: u64,
    #[arg(long, env = "REGINTEL_LIMIT_ANONYMOUS_DAY", default_value_t = defaults::ANONYMOUS.day)]
    pub(super) limit_anonymous_day: u64,
    #[arg(long, env = "REGINTEL_LIMIT_PROFESSIONAL_MINUTE", default_value_t = defaults::PROFESSIONAL.minute)]
    pub(super) limit_professional_minute: u64,
    #[arg(long, env = "REGINTEL_LIMIT_PROFESSIONAL_HOUR", default_value_t = defaults::PROFESSIONAL.hour)]
    pub(super) limit_professional_hour: u64,
    /// The professional daily cap, per account (shared by its keys).
    #[arg(long, env = "REGINTEL_LIMIT_PROFESSIONAL_DAY", default_value_t = defaults::PROFESSIONAL.day)]
    pub(super) limit_professional_day: u64,
    #[arg(long, env = "REGINTEL_LIMIT_INSTITUTIONAL_MINUTE", default_value_t = defaults::INSTITUTIONAL.minute)]
    pub(super) limit_institutional_minute: u64,
    #[arg(long, env = "REGINTEL_LIMIT_INSTITUTIONAL_HOUR", default_value_t = defaults::INSTITUTIONAL.hour)]
    pub(super) limit_institutional_hour: u64,
    /// The institutional daily cap, per account (shared by its keys).
    #[arg(long, env = "REGINTEL_LIMIT_INSTITUTIONAL_DAY", default_value_t = defaults::INSTITUTIONAL.day)]
    pub(super) limit_institutional_day: u64,
    /// Failed authentications per client address per minute.
    #[arg(long, env = "REGINTEL_LIMIT_AUTH_FAIL_MINUTE", default_value_t = defaults::AUTH_FAIL_PER_MINUTE)]
    pub(super) limit_auth_fail_minute: u64,
    /// Proxies (address or CIDR) whose forwarding header names the client (see
    /// --trusted-proxy-header); exempt from the per-address connection share.
    #[arg(long, env = "REGINTEL_TRUSTED_PROXIES", value_delimiter = ',')]
    pub(super) trusted_proxy: Vec<crate::client_addr::Cidr>,
    /// The header the trusted proxies set: forwarded (RFC 7239) or x-forwarded-for. Only that
    /// one is read; required with --trusted-proxy.
    #[arg(long, env = "REGINTEL_TRUSTED_PROXY_HEADER")]
    pub(super) trusted_proxy_header: Option<crate::client_addr::ProxyHeader>,
    /// Successful logins (new sessions) per account per hour.
    #[arg(long, env = "REGINTEL_LIMIT_LOGINS_HOUR", default_value_t = defaults::LOGINS_PER_HOUR)]
    pub(super) limit_logins_hour: u64,
    /// API keys an account may create per hour.
    #[arg(long, env = "REGINTEL_LIMIT_KEY_CREATIONS_HOUR", default_value_t = defaults::KEY_CREATIONS_PER_HOUR)]
    pub(super) limit_key_creations_hour: u64,
    /// Cost of a route in requests, by operation id: `exportDataset=5` (repeatable).
    #[arg(long, env = "REGINTEL_ROUTE_WEIGHTS", value_delimiter = ',', value_parser = parse_weight)]
    pub(super) route_weight: Vec<(String, u64)>,
    /// Serve without rate limits (for a gateway that limits requests itself).
    #[arg(long, env = "REGINTEL_NO_RATE_LIMITS", value_parser = BoolishValueParser::new())]
    pub(super) no_rate_limits: bool,
}

pub(super) fn parse_weight(text: &str) -> Result<(String, u64), String> {
    let (op, weight) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: write operationId=weight, e.g. exportDataset=5"))?;
    let weight = weight
        .parse()
        .map_err(|_| format!("{text:?}: the weight must be a whole number"))?;
    Ok((op.trim().to_owned(), weight))
}

impl LimitArgs {
    pub(super) fn config(&self) -> LimitConfig {
        LimitConfig {
            enabled: !self.no_rate_limits,
            anonymous: Quotas {
                minute: self.limit_anonymous_minute,
                hour: self.limit_anonymous_hour,
                day: self.limit_anonymous_day,
            },
            professional: Quotas {
                minute: self.limit_professional_minute,
                hour: self.limit_professional_hour,
                day: self.limit_professional_day,
            },
            institutional: Quotas {
                minute: self.limit_institutional_minute,
                hour: self.limit_institutional_hour,
                day: self.limit_institutional_day,
            },
            auth_fail_per_minute: self.limit_auth_fail_minute,
            trusted_proxies: self.trusted_proxy.clone(),
            proxy_header: self.trusted_proxy_header,
            logins_per_hour: self.limit_logins_hour,
            key_creations_per_hour: self.limit_key_creations_hour,
            route_weights: self.route_weight.clone(),
            ..Default::default()
        }
    }
}

/// Where operator commands act, and how they print.
#[derive(Args)]
pub(super) struct AdminArgs {
    #[arg(long, env = "REGINTEL_DATA_DIR", default_value = defaults::DATA_DIR, global = true)]
    pub(super) data_dir: PathBuf,
    #[command(flatten)]
    pub(super) database: DatabaseArgs,
    /// Print results as JSON, for scripts.
    #[arg(long, global = true)]
    pub(super) json: bool,
}

#[derive(Args)]
pub(super) struct ServeArgs {
    #[command(flatten)]
    pub(super) data: DataDir,
    /// Address to listen on; port 0 picks a free one (printed at start).
    #[arg(long, env = "REGINTEL_LISTEN", default_value = defaults::LISTEN)]
    pub(super) listen: SocketAddr,
    #[command(flatten)]
    pub(super) tls: TlsFiles,
    /// Serve plain HTTP (behind a TLS-terminating proxy, or for local tests).
    #[arg(long, env = "REGINTEL_PLAIN_HTTP", value_parser = BoolishValueParser::new())]
    pub(super) plain_http: bool,
    #[command(flatten)]
    pub(super) address: PublicAddress,
    /// Start although secret files the database recorded are missing (made anew) or, for the
    /// pepper and the sealing key, others than those it recorded (taken as they are, and
    /// recorded): what depended on the old ones stops working (API keys answer 401, sessions
    /// end, webhooks deliver nothing until their secrets are rotated), and the log says which.
    /// Without it such a start is refused, naming the file and where to copy it from. Remove it
    /// once the server has started.
    #[arg(long, env = "REGINTEL_NEW_SECRETS", value_parser = BoolishValueParser::new())]
    pub(super) new_secrets: bool,
    /// Connections served at once.
    #[arg(long, env = "REGINTEL_MAX_CONNECTIONS", default_value_t = defaults::MAX_CONNECTIONS)]
    pub(super) max_connections: usize,
    /// Connections one client address (IPv6: one /64) may hold at once [default: 1/16 of
    /// --max-connections].
    #[arg(long, env = "REGINTEL_MAX_CONNECTIONS_PER_ADDRESS")]
    pub(super) max_connections_per_address: Option<usize>,
    /// Seconds a client has to send a request's headers, from when the connection opened or its
    /// previous answer was sent (the first request's and HTTP/1.1 keep-alive's deadline).
    #[arg(long, env = "REGINTEL_HEADER_TIMEOUT", default_value_t = defaults::HEADER_TIMEOUT_SECS)]
    pub(super) header_timeout: u64,
    /// Seconds an HTTP/2 connection with no request in flight is kept open.
    #[arg(long, env = "REGINTEL_IDLE_TIMEOUT", default_value_t = defaults::IDLE_TIMEOUT_SECS)]
    pub(super) idle_timeout: u64,
    /// Seconds an answer with a piece ready may wait to be taken for sending (the client not
    /// reading) before its connection is cut.
    #[arg(long, env = "REGINTEL_SEND_TIMEOUT", default_value_t = defaults::SEND_TIMEOUT_SECS)]
    pub(super) send_timeout: u64,
    /// Seconds a client has to send a whole request body.
    #[arg(long, env = "REGINTEL_BODY_TIMEOUT", default_value_t = defaults::BODY_TIMEOUT_SECS)]
    pub(super) body_timeout: u64,
    /// Largest JSON request body in bytes (CSV uploads: --max-upload).
    #[arg(long, env = "REGINTEL_MAX_BODY", default_value_t = defaults::MAX_BODY_BYTES)]
    pub(super) max_body: u64,
    /// Largest CSV upload (`PUT /datasets/{dataset_code}/data`) in bytes.
    #[arg(long, env = "REGINTEL_MAX_UPLOAD", default_value_t = defaults::MAX_UPLOAD_BYTES)]
    pub(super) max_upload: u64,
    /// CSV uploads being read or imported at once (one per account; they are parsed and
    /// written one at a time).
    #[arg(long, env = "REGINTEL_MAX_UPLOADS", default_value_t = defaults::MAX_UPLOADS)]
    pub(super) max_uploads: usize,
    /// Bulk exports streamed at once (one per account).
    #[arg(long, env = "REGINTEL_MAX_EXPORTS", default_value_t = defaults::MAX_EXPORTS)]
    pub(super) max_exports: usize,
    /// Seconds shutdown waits for in-flight requests.
    #[arg(long, env = "REGINTEL_DRAIN_TIMEOUT", default_value_t = defaults::DRAIN_TIMEOUT_SECS)]
    pub(super) drain_timeout: u64,
    /// Megabytes of memory for cached answers.
    #[arg(long, env = "REGINTEL_CACHE_MB", default_value_t = defaults::CACHE_MB)]
    pub(super) cache_mb: usize,
    /// Megabytes of memory for the current public rows, read once per public data generation
    /// (about 30 for the bundled data): as many whole datasets as fit, the smallest first; the
    /// rest is read from the database. 0: always from the database.
    #[arg(long, env = "REGINTEL_PUBLIC_DATA_MB", default_value_t = defaults::PUBLIC_DATA_MB)]
    pub(super) public_data_mb: usize,
    /// A file holding the token Prometheus sends to read /metrics (Authorization: Bearer), or
    /// the token itself in REGINTEL_METRICS_TOKEN; without one, /metrics answers loopback
    /// clients only.
    #[arg(long, env = "REGINTEL_METRICS_TOKEN_FILE")]
    pub(super) metrics_token_file: Option<PathBuf>,
    #[command(flatten)]
    pub(super) limits: LimitArgs,
    #[command(flatten)]
    pub(super) llm: LlmArgs,
    #[command(flatten)]
    pub(super) webhooks: WebhookArgs,
}

/// Secrets given as a value in a variable: they have no flag (a command line is visible to
/// every user of the machine), only the `*_FILE` variable and flag naming a file that holds it.
pub(super) struct SecretVar;

impl SecretVar {
    pub(super) const LLM_KEY: &str = "REGINTEL_LLM_KEY";
    pub(super) const METRICS_TOKEN: &str = "REGINTEL_METRICS_TOKEN";
    /// The API key `regintel mcp` calls the API with: a client's setting, not the server's.
    pub(super) const API_KEY: &str = "REGINTEL_API_KEY";
    pub(super) const ALL: [&str; 2] = [SecretVar::LLM_KEY, SecretVar::METRICS_TOKEN];
}

/// A secret from the variable `var` or from `file` (its `*_FILE` variable or flag, named
/// `flag`), trimmed; both at once is an error.
pub(super) fn secret(var: &str, flag: &str, file: Option<&Path>) -> anyhow::Result<Option<String>> {
    let value = std::env::var(var).ok().filter(|v| !v.trim().is_empty());
    let secret = match (value, file) {
        (Some(_), Some(_)) => bail!("{var} and {flag} ({var}_FILE) both give the secret: keep one"),
        (Some(value), None) => value,
        (None, Some(path)) => std::fs::read_to_string(path)
            .with_context(|| format!("while reading {flag} {}", path.display()))?,
        (None, None) => return Ok(None),
    };
    let secret = secret.trim();
    anyhow::ensure!(!secret.is_empty(), "{var} is empty");
    Ok(Some(secret.to_owned()))
}

/// Where webhooks may be delivered. Public addresses always; internal ones only as allowed here.
#[derive(clap::Args, Debug, Clone)]
pub(super) struct WebhookArgs {
    /// Let webhooks reach loopback addresses (127.0.0.0/8, ::1): for tests and the local demo.
    #[arg(long, env = "REGINTEL_WEBHOOK_ALLOW_LOOPBACK", value_parser = BoolishValueParser::new())]
    pub(super) webhook_allow_loopback: bool,
    /// Internal ranges (CIDR) webhooks may reach besides public addresses, e.g. 10.20.0.0/16
    /// (repeatable, or comma-separated in the variable).
    #[arg(long, env = "REGINTEL_WEBHOOK_ALLOW_CIDRS", value_delimiter = ',')]
    pub(super) webhook_allow_cidr: Vec<crate::client_addr::Cidr>,
    /// Host names webhooks may reach over plain http:// (their addresses must still be public
    /// or in an allowed range).
    #[arg(long, env = "REGINTEL_WEBHOOK_ALLOW_HOSTS", value_delimiter = ',')]
    pub(super) webhook_allow_host: Vec<String>,
    /// Ranges (CIDR) webhooks never reach, even inside an allowed range.
    #[arg(long, env = "REGINTEL_WEBHOOK_DENY_CIDRS", value_delimiter = ',')]
    pub(super) webhook_deny_cidr: Vec<crate::client_addr::Cidr>,
    /// Queue webhook deliveries and send none (restore drills, staging copies of production
    /// data); /readyz, /metrics and the log say so. A message not sent within 84 hours of its
    /// event is given up.
    #[arg(long, env = "REGINTEL_WEBHOOKS_PAUSED", value_parser = BoolishValueParser::new())]
    pub(super) webhooks_paused: bool,
}

impl WebhookArgs {
    /// The egress policy and the pause, into `config`.
    pub(super) fn apply(&self, config: &mut ServerConfig) {
        config.webhook_egress = self.policy();
        config.webhooks_paused = self.webhooks_paused;
    }

    pub(super) fn policy(&self) -> crate::webhooks::egress::EgressPolicy {
        crate::webhooks::egress::EgressPolicy {
            allow_cidrs: self.webhook_allow_cidr.clone(),
            allow_hosts: self
                .webhook_allow_host
                .iter()
                .map(|h| h.trim().to_ascii_lowercase())
                .collect(),
            deny_cidrs: self.webhook_deny_cidr.clone(),
            allow_loopback: self.webhook_allow_loopback,
            resolver: Default::default(),
        }
    }
}

/// The optional model server that writes briefings' prose.
#[derive(clap::Args, Debug, Clone)]
pub(super) struct LlmArgs {
    /// An OpenAI-compatible chat-completions URL (plain http://, e.g.
    /// http://127.0.0.1:8000/v1/chat/completions) whose model rewrites briefings' prose from
    /// regintel's facts; its text must pass the same number check as regintel's own. Off when
    /// unset.
    #[arg(long, env = "REGINTEL_LLM_URL", requires = "llm_model")]
    pub(super) llm_url: Option<String>,
    /// The model name sent to the model server.
    #[arg(long, env = "REGINTEL_LLM_MODEL", requires = "llm_url")]
    pub(super) llm_model: Option<String>,
    /// Seconds a briefing waits for the model before regintel's own text stands.
    #[arg(long, env = "REGINTEL_LLM_TIMEOUT", default_value_t = defaults::LLM_TIMEOUT_SECS)]
    pub(super) llm_timeout: u64,
    /// A file holding the model server's API key (sent as a Bearer token), if it wants one
    /// (or the key itself in REGINTEL_LLM_KEY).
    #[arg(long, env = "REGINTEL_LLM_KEY_FILE", requires = "llm_url")]
    pub(super) llm_key_file: Option<PathBuf>,
}

impl LlmArgs {
    pub(super) fn config(&self) -> anyhow::Result<Option<LlmConfig>> {
        let (Some(url), Some(model)) = (&self.llm_url, &self.llm_model) else {
            return Ok(None);
        };
        let api_key = secret(
            SecretVar::LLM_KEY,
            "--llm-key-file",
            self.llm_key_file.as_deref(),
        )?;
        if self.llm_timeout == 0 {
            anyhow::bail!("--llm-timeout must be at least 1 second");
        }
        Ok(Some(LlmConfig {
            url: LlmConfig::parse_url(url).map_err(anyhow::Error::msg)?,
            model: model.clone(),
            timeout: Duration::from_secs(self.llm_timeout),
            api_key,
        }))
    }
}

impl ServeArgs {
    /// The files the settings name that hold a secret, each with what it is: only the service
    /// user may read them.
    pub(super) fn secret_files(&self) -> Vec<(&Path, &'static str)> {
        let files = [
            (&self.data.database.database_url_file, "--database-url-file"),
            (&self.metrics_token_file, "--metrics-token-file"),
            (&self.llm.llm_key_file, "--llm-key-file"),
            (&self.tls.tls_key, "the TLS key (--tls-key)"),
        ];
        (files.into_iter())
            .filter_map(|(file, what)| Some((file.as_deref()?, what)))
            .collect()
    }

    pub(super) fn config(&self) -> anyhow::Result<ServerConfig> {
        let mut config = ServerConfig::new(self.data.data_dir.clone());
        config.database = self.data.database()?;
        config.service.clone_from(&self.address.service);
        config.public_url.clone_from(&self.address.public_url);
        config.tls = !self.plain_http;
        config.max_connections = self.max_connections;
        config.max_connections_per_address = self.max_connections_per_address;
        config.header_read_timeout = Duration::from_secs(self.header_timeout);
        config.idle_timeout = Duration::from_secs(self.idle_timeout);
        config.send_timeout = Duration::from_secs(self.send_timeout);
        config.body_timeout = Duration::from_secs(self.body_timeout);
        config.max_body_bytes = self.max_body;
        config.max_upload_bytes = self.max_upload;
        config.max_uploads = self.max_uploads;
        config.max_exports = self.max_exports;
        config.drain_timeout = Duration::from_secs(self.drain_timeout);
        config.cache_bytes = self.cache_mb * 1024 * 1024;
        config.public_data_bytes = self.public_data_mb.saturating_mul(1024 * 1024);
        config.limits = self.limits.config();
        config.llm = self.llm.config()?;
        self.webhooks.apply(&mut config);
        config.new_secrets = self.new_secrets;
        config.metrics_token = secret(
            SecretVar::METRICS_TOKEN,
            "--metrics-token-file",
            self.metrics_token_file.as_deref(),
        )?;
        config.validate()?;
        Ok(config)
    }
}
