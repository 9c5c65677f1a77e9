//! The command line: `demo`, `serve`, `import`, `account`, `key`, `openapi`, `check`, `backup`,
//! `migrate`. Settings
//! come from flags or `REGINTEL_*` environment variables, with the defaults of
//! [`crate::config::defaults`]; bad settings stop the program with a message saying what to fix.
//! This module holds the flags and turns them into settings; the commands are carried out by
//! `demo`, `launch` (`serve`), `admin` (`import`, `account`, `key`), `check`, `backup`,
//! `migrate` and [`crate::openapi`] (`openapi`).

mod admin;
mod backup;
mod check;
mod demo;
mod fetch;
mod launch;
mod logging;
mod mcp;
mod migrate;
mod variables;

use crate::store::Database;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;
pub use variables::known_variables;
use variables::warn_unknown_variables;

use anyhow::{Context, bail};
use clap::builder::BoolishValueParser;
use clap::{Args, Parser, Subcommand};

use crate::config::{AccessLines, LimitConfig, LlmConfig, Quotas, ServerConfig, defaults};

#[derive(Parser)]
#[command(
    name = "regintel",
    version,
    about = "Regional Intelligence Service: cited Eurostat regional statistics over HTTPS"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Log lines as text or as JSON objects (one per line).
    #[arg(long, env = "REGINTEL_LOG_FORMAT", value_enum, default_value_t = logging::LogFormat::Text, global = true)]
    log_format: logging::LogFormat,
}

#[derive(Subcommand)]
enum Command {
    /// The local demo in one command: imports the bundled data, makes a self-signed certificate
    /// for localhost, writes demo-credentials.json, prints curl commands, serves until Ctrl-C.
    Demo {
        /// Directory for the demo's database, certificate and credentials.
        #[arg(long, default_value = "./regintel-demo")]
        dir: PathBuf,
        /// Address to listen on (default 127.0.0.1:8443, or 127.0.0.1:8080 with --plain-http).
        #[arg(long)]
        listen: Option<SocketAddr>,
        /// Serve plain HTTP instead of HTTPS.
        #[arg(long)]
        plain_http: bool,
        #[command(flatten)]
        limits: LimitArgs,
        #[command(flatten)]
        webhooks: WebhookArgs,
    },
    /// The production server.
    Serve(Box<ServeArgs>),
    /// The MCP tools over stdio for a desktop AI assistant, answering from the REST API at
    /// --url with the key in REGINTEL_API_KEY (anonymous without one).
    Mcp {
        /// The API's base URL, such as https://stats.example.org/api/v1/regional.
        #[arg(long)]
        url: String,
        /// A file holding the API key, instead of REGINTEL_API_KEY.
        #[arg(long)]
        api_key_file: Option<PathBuf>,
        /// A certificate authority (PEM) to trust besides the system's: a private CA, or the
        /// demo's certificate.
        #[arg(long)]
        ca_file: Option<PathBuf>,
    },
    /// Load data: the bundled extract (--bundled), Eurostat bulk TSV (.tsv, .tsv.gz), SDMX-CSV,
    /// or regintel's tidy CSV. Each file becomes a snapshot of its dataset.
    Import {
        /// Files to import.
        files: Vec<PathBuf>,
        /// Import the Eurostat extract compiled into this binary.
        #[arg(long)]
        bundled: bool,
        /// Import a bundle made by `regintel bundle create`: every file is checked against its
        /// manifest before anything is imported.
        #[arg(long, value_name = "FILE", conflicts_with_all = ["files", "bundled", "dataset", "unit", "title", "account"])]
        bundle: Option<PathBuf>,
        /// With --bundle: refuse a bundle not signed by this ed25519 public key (PEM, the
        /// `.pub` file of `bundle keygen`).
        #[arg(long, value_name = "PUBKEY", requires = "bundle")]
        trust: Option<PathBuf>,
        /// With --bundle: import a dataset whose download is older than the one this install
        /// holds (refused otherwise: it would take the dataset back).
        #[arg(long, requires = "bundle")]
        allow_older: bool,
        /// Dataset code for files that do not name it (TSV named otherwise than the dataset, a
        /// tidy CSV without a dataset_code column).
        #[arg(long)]
        dataset: Option<String>,
        /// Unit of a tidy CSV's rows without a unit column (a code such as PC; read in
        /// capitals). An account's existing dataset has its own.
        #[arg(long)]
        unit: Option<String>,
        /// Title of a dataset the bundled catalogue does not know (otherwise its code).
        #[arg(long)]
        title: Option<String>,
        /// Import as this account's private data.
        #[arg(long)]
        account: Option<String>,
        #[command(flatten)]
        memory: ImportMemory,
        #[command(flatten)]
        data: DataDir,
        /// Print the outcome as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Download Eurostat datasets whole from its API and import each as a snapshot.
    Fetch(fetch::FetchArgs),
    /// Fetch again every dataset fetched before whose data or structure Eurostat changed since.
    Sync(fetch::EurostatArgs),
    /// Carry Eurostat downloads to an install without a route to Eurostat.
    Bundle {
        #[command(subcommand)]
        action: fetch::BundleAction,
    },
    /// Operator administration of accounts.
    Account {
        #[command(subcommand)]
        action: admin::AccountAction,
        #[command(flatten)]
        admin: AdminArgs,
    },
    /// Operator administration of API keys.
    Key {
        #[command(subcommand)]
        action: admin::KeyAction,
        #[command(flatten)]
        admin: AdminArgs,
    },
    /// Print the OpenAPI 3.1 document.
    Openapi {
        #[command(flatten)]
        address: PublicAddress,
    },
    /// Check what `serve` would start with (the same flags and variables), then exit: settings,
    /// TLS files, file permissions, secrets, database integrity and schema version. Exits
    /// non-zero with the reason at the first problem.
    Check(Box<ServeArgs>),
    /// Copy the database while the server runs into FILE (a new file), consistent at one
    /// moment, and check the copy's integrity. Restore: stop the server and put FILE in place
    /// of <data dir>/regintel.sqlite (see docs/operations.md, installed as
    /// /usr/share/doc/regintel/docs/operations.md).
    Backup {
        #[command(flatten)]
        data: DataDir,
        /// The backup file to write; it must not exist.
        file: PathBuf,
    },
    /// Move this appliance onto PostgreSQL, for several nodes: copies every row of the data
    /// dir's SQLite file into a new PostgreSQL database, ids unchanged, so citations stay what
    /// they were and keys keep working with the data dir's secrets. Stop the server first: what
    /// it writes meanwhile stays behind. A database holding other tables or any rows is refused
    /// before anything is written to it; a failed copy leaves no row behind.
    Migrate {
        /// The data dir whose SQLite file to copy, and whose secrets every node then needs.
        #[arg(long, env = "REGINTEL_DATA_DIR", default_value = defaults::DATA_DIR)]
        data_dir: PathBuf,
        /// The PostgreSQL database to copy into (see --database-url of serve): new, owned by an
        /// ordinary role with CREATEROLE. A password on a command line is visible to every user
        /// of the machine: prefer --to-file.
        #[arg(long)]
        to: Option<String>,
        /// A file holding that URL.
        #[arg(long)]
        to_file: Option<PathBuf>,
        /// Print the rows copied as JSON.
        #[arg(long)]
        json: bool,
    },
}

/// How much memory an import (or a fetch's) may hold.
#[derive(Args)]
struct ImportMemory {
    /// Most memory in MiB that checking a file for duplicate rows may hold; the rest goes to
    /// temporary files in the data directory (the system's temporary directory when there is
    /// none). Then, while the rows are written, SQLite's page cache. Everything else an import
    /// holds has a fixed bound, whatever its files' size.
    #[arg(long, value_name = "MIB", default_value_t = crate::import::DEFAULT_MEMORY as u64 >> 20,
          value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
    memory: u64,
}

impl ImportMemory {
    fn bytes(&self) -> anyhow::Result<usize> {
        Ok(usize::try_from(self.memory << 20)?)
    }
}

#[derive(Args)]
struct DataDir {
    /// Directory holding the database (the SQLite file), the secrets and the demo certificate.
    #[arg(long, env = "REGINTEL_DATA_DIR", default_value = defaults::DATA_DIR)]
    data_dir: PathBuf,
    #[command(flatten)]
    database: DatabaseArgs,
}

impl DataDir {
    fn database(&self) -> anyhow::Result<Database> {
        self.database.choose(&self.data_dir)
    }
}

/// A PostgreSQL database instead of the data dir's SQLite file (see docs/scaling.md).
#[derive(Args)]
struct DatabaseArgs {
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
    database_url: Option<String>,
    /// A file holding the PostgreSQL URL (see --database-url).
    #[arg(long, env = "REGINTEL_DATABASE_URL_FILE", global = true)]
    database_url_file: Option<PathBuf>,
}

impl DatabaseArgs {
    /// The database named, else the SQLite file of `data_dir`.
    fn choose(&self, data_dir: &Path) -> anyhow::Result<Database> {
        let url = url_given(
            self.database_url.as_deref(),
            self.database_url_file.as_deref(),
            "--database-url (REGINTEL_DATABASE_URL) and --database-url-file",
        )?;
        Database::choose(url.as_deref(), data_dir)
    }
}

/// A URL given on the command line or in a file, `flags` naming both: at most one of them.
fn url_given(
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
struct TlsFiles {
    /// PEM certificate chain for HTTPS.
    #[arg(long, env = "REGINTEL_TLS_CERT")]
    tls_cert: Option<PathBuf>,
    /// PEM private key for HTTPS.
    #[arg(long, env = "REGINTEL_TLS_KEY")]
    tls_key: Option<PathBuf>,
}

impl TlsFiles {
    /// The certificate and the key, or neither.
    fn pair(&self) -> anyhow::Result<Option<(&Path, &Path)>> {
        match (&self.tls_cert, &self.tls_key) {
            (Some(cert), Some(key)) => Ok(Some((cert, key))),
            (None, None) => Ok(None),
            _ => bail!("--tls-cert and --tls-key go together: give both"),
        }
    }
}

/// Where clients reach the API.
#[derive(Args)]
struct PublicAddress {
    /// The <service> of the base path /api/v1/<service>.
    #[arg(long, env = "REGINTEL_SERVICE", default_value = defaults::SERVICE)]
    service: String,
    /// The URL clients use to reach the server, e.g. https://stats.example.org: the API's base
    /// URL is this with /api/v1/<service> (without it, the base path alone), and session tokens
    /// name it as their issuer.
    #[arg(long, env = "REGINTEL_PUBLIC_URL")]
    public_url: Option<String>,
}

/// Rate limits; each also from its `REGINTEL_*` variable (the quotas from
/// `REGINTEL_LIMIT_<TIER>_<WINDOW>`).
#[derive(Args)]
struct LimitArgs {
    #[arg(long, env = "REGINTEL_LIMIT_ANONYMOUS_MINUTE", default_value_t = defaults::ANONYMOUS.minute)]
    limit_anonymous_minute: u64,
    #[arg(long, env = "REGINTEL_LIMIT_ANONYMOUS_HOUR", default_value_t = defaults::ANONYMOUS.hour)]
    limit_anonymous_hour: u64,
    #[arg(long, env = "REGINTEL_LIMIT_ANONYMOUS_DAY", default_value_t = defaults::ANONYMOUS.day)]
    limit_anonymous_day: u64,
    #[arg(long, env = "REGINTEL_LIMIT_PROFESSIONAL_MINUTE", default_value_t = defaults::PROFESSIONAL.minute)]
    limit_professional_minute: u64,
    #[arg(long, env = "REGINTEL_LIMIT_PROFESSIONAL_HOUR", default_value_t = defaults::PROFESSIONAL.hour)]
    limit_professional_hour: u64,
    /// The professional daily cap, per account (shared by its keys).
    #[arg(long, env = "REGINTEL_LIMIT_PROFESSIONAL_DAY", default_value_t = defaults::PROFESSIONAL.day)]
    limit_professional_day: u64,
    #[arg(long, env = "REGINTEL_LIMIT_INSTITUTIONAL_MINUTE", default_value_t = defaults::INSTITUTIONAL.minute)]
    limit_institutional_minute: u64,
    #[arg(long, env = "REGINTEL_LIMIT_INSTITUTIONAL_HOUR", default_value_t = defaults::INSTITUTIONAL.hour)]
    limit_institutional_hour: u64,
    /// The institutional daily cap, per account (shared by its keys).
    #[arg(long, env = "REGINTEL_LIMIT_INSTITUTIONAL_DAY", default_value_t = defaults::INSTITUTIONAL.day)]
    limit_institutional_day: u64,
    /// Failed authentications per client address per minute.
    #[arg(long, env = "REGINTEL_LIMIT_AUTH_FAIL_MINUTE", default_value_t = defaults::AUTH_FAIL_PER_MINUTE)]
    limit_auth_fail_minute: u64,
    /// Proxies (address or CIDR) whose forwarding header names the client (see
    /// --trusted-proxy-header); exempt from the per-address connection share.
    #[arg(long, env = "REGINTEL_TRUSTED_PROXIES", value_delimiter = ',')]
    trusted_proxy: Vec<crate::client_addr::Cidr>,
    /// The header the trusted proxies set: forwarded (RFC 7239) or x-forwarded-for. Only that
    /// one is read; required with --trusted-proxy.
    #[arg(long, env = "REGINTEL_TRUSTED_PROXY_HEADER")]
    trusted_proxy_header: Option<crate::client_addr::ProxyHeader>,
    /// Successful logins (new sessions) per account per hour.
    #[arg(long, env = "REGINTEL_LIMIT_LOGINS_HOUR", default_value_t = defaults::LOGINS_PER_HOUR)]
    limit_logins_hour: u64,
    /// API keys an account may create per hour.
    #[arg(long, env = "REGINTEL_LIMIT_KEY_CREATIONS_HOUR", default_value_t = defaults::KEY_CREATIONS_PER_HOUR)]
    limit_key_creations_hour: u64,
    /// Cost of a route in requests, by operation id: `exportDataset=5` (repeatable).
    #[arg(long, env = "REGINTEL_ROUTE_WEIGHTS", value_delimiter = ',', value_parser = parse_weight)]
    route_weight: Vec<(String, u64)>,
    /// Serve without rate limits (for a gateway that limits requests itself).
    #[arg(long, env = "REGINTEL_NO_RATE_LIMITS", value_parser = BoolishValueParser::new())]
    no_rate_limits: bool,
}

fn parse_weight(text: &str) -> Result<(String, u64), String> {
    let (op, weight) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: write operationId=weight, e.g. exportDataset=5"))?;
    let weight = weight
        .parse()
        .map_err(|_| format!("{text:?}: the weight must be a whole number"))?;
    Ok((op.trim().to_owned(), weight))
}

impl LimitArgs {
    fn config(&self) -> LimitConfig {
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
struct AdminArgs {
    #[arg(long, env = "REGINTEL_DATA_DIR", default_value = defaults::DATA_DIR, global = true)]
    data_dir: PathBuf,
    #[command(flatten)]
    database: DatabaseArgs,
    /// Print results as JSON, for scripts.
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Args)]
struct ServeArgs {
    #[command(flatten)]
    data: DataDir,
    /// Address to listen on; port 0 picks a free one (printed at start).
    #[arg(long, env = "REGINTEL_LISTEN", default_value = defaults::LISTEN)]
    listen: SocketAddr,
    #[command(flatten)]
    tls: TlsFiles,
    /// Serve plain HTTP (behind a TLS-terminating proxy, or for local tests).
    #[arg(long, env = "REGINTEL_PLAIN_HTTP", value_parser = BoolishValueParser::new())]
    plain_http: bool,
    #[command(flatten)]
    address: PublicAddress,
    /// Start although secret files the database recorded are missing (made anew) or, for the
    /// pepper and the sealing key, others than those it recorded (taken as they are, and
    /// recorded): what depended on the old ones stops working (API keys answer 401, sessions
    /// end, webhooks deliver nothing until their secrets are rotated), and the log says which.
    /// Without it such a start is refused, naming the file and where to copy it from. Remove it
    /// once the server has started.
    #[arg(long, env = "REGINTEL_NEW_SECRETS", value_parser = BoolishValueParser::new())]
    new_secrets: bool,
    /// Connections served at once.
    #[arg(long, env = "REGINTEL_MAX_CONNECTIONS", default_value_t = defaults::MAX_CONNECTIONS)]
    max_connections: usize,
    /// Connections one client address (IPv6: one /64) may hold at once [default: 1/16 of
    /// --max-connections].
    #[arg(long, env = "REGINTEL_MAX_CONNECTIONS_PER_ADDRESS")]
    max_connections_per_address: Option<usize>,
    /// Seconds a client has to send a request's headers, from when the connection opened or its
    /// previous answer was sent (the first request's and HTTP/1.1 keep-alive's deadline).
    #[arg(long, env = "REGINTEL_HEADER_TIMEOUT", default_value_t = defaults::HEADER_TIMEOUT_SECS)]
    header_timeout: u64,
    /// Seconds an HTTP/2 connection with no request in flight is kept open.
    #[arg(long, env = "REGINTEL_IDLE_TIMEOUT", default_value_t = defaults::IDLE_TIMEOUT_SECS)]
    idle_timeout: u64,
    /// Seconds an answer with a piece ready may wait to be taken for sending (the client not
    /// reading) before its connection is cut.
    #[arg(long, env = "REGINTEL_SEND_TIMEOUT", default_value_t = defaults::SEND_TIMEOUT_SECS)]
    send_timeout: u64,
    /// Seconds a client has to send a whole request body.
    #[arg(long, env = "REGINTEL_BODY_TIMEOUT", default_value_t = defaults::BODY_TIMEOUT_SECS)]
    body_timeout: u64,
    /// Largest JSON request body in bytes (CSV uploads: --max-upload).
    #[arg(long, env = "REGINTEL_MAX_BODY", default_value_t = defaults::MAX_BODY_BYTES)]
    max_body: u64,
    /// Largest CSV upload (`PUT /datasets/{dataset_code}/data`) in bytes.
    #[arg(long, env = "REGINTEL_MAX_UPLOAD", default_value_t = defaults::MAX_UPLOAD_BYTES)]
    max_upload: u64,
    /// CSV uploads being read or imported at once (one per account; they are parsed and
    /// written one at a time).
    #[arg(long, env = "REGINTEL_MAX_UPLOADS", default_value_t = defaults::MAX_UPLOADS)]
    max_uploads: usize,
    /// Bulk exports streamed at once (one per account).
    #[arg(long, env = "REGINTEL_MAX_EXPORTS", default_value_t = defaults::MAX_EXPORTS)]
    max_exports: usize,
    /// Seconds shutdown waits for in-flight requests.
    #[arg(long, env = "REGINTEL_DRAIN_TIMEOUT", default_value_t = defaults::DRAIN_TIMEOUT_SECS)]
    drain_timeout: u64,
    /// Megabytes of memory for cached answers.
    #[arg(long, env = "REGINTEL_CACHE_MB", default_value_t = defaults::CACHE_MB)]
    cache_mb: usize,
    /// Megabytes of memory for the current public rows, read once per public data generation
    /// (about 30 for the bundled data): as many whole datasets as fit, the smallest first; the
    /// rest is read from the database. 0: always from the database.
    #[arg(long, env = "REGINTEL_PUBLIC_DATA_MB", default_value_t = defaults::PUBLIC_DATA_MB)]
    public_data_mb: usize,
    /// A file holding the token Prometheus sends to read /metrics (Authorization: Bearer), or
    /// the token itself in REGINTEL_METRICS_TOKEN; without one, /metrics answers loopback
    /// clients only.
    #[arg(long, env = "REGINTEL_METRICS_TOKEN_FILE")]
    metrics_token_file: Option<PathBuf>,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    llm: LlmArgs,
    #[command(flatten)]
    webhooks: WebhookArgs,
}

/// Secrets given as a value in a variable: they have no flag (a command line is visible to
/// every user of the machine), only the `*_FILE` variable and flag naming a file that holds it.
struct SecretVar;

impl SecretVar {
    const LLM_KEY: &str = "REGINTEL_LLM_KEY";
    const METRICS_TOKEN: &str = "REGINTEL_METRICS_TOKEN";
    /// The API key `regintel mcp` calls the API with: a client's setting, not the server's.
    const API_KEY: &str = "REGINTEL_API_KEY";
    const ALL: [&str; 2] = [SecretVar::LLM_KEY, SecretVar::METRICS_TOKEN];
}

/// A secret from the variable `var` or from `file` (its `*_FILE` variable or flag, named
/// `flag`), trimmed; both at once is an error.
fn secret(var: &str, flag: &str, file: Option<&Path>) -> anyhow::Result<Option<String>> {
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
struct WebhookArgs {
    /// Let webhooks reach loopback addresses (127.0.0.0/8, ::1): for tests and the local demo.
    #[arg(long, env = "REGINTEL_WEBHOOK_ALLOW_LOOPBACK", value_parser = BoolishValueParser::new())]
    webhook_allow_loopback: bool,
    /// Internal ranges (CIDR) webhooks may reach besides public addresses, e.g. 10.20.0.0/16
    /// (repeatable, or comma-separated in the variable).
    #[arg(long, env = "REGINTEL_WEBHOOK_ALLOW_CIDRS", value_delimiter = ',')]
    webhook_allow_cidr: Vec<crate::client_addr::Cidr>,
    /// Host names webhooks may reach over plain http:// (their addresses must still be public
    /// or in an allowed range).
    #[arg(long, env = "REGINTEL_WEBHOOK_ALLOW_HOSTS", value_delimiter = ',')]
    webhook_allow_host: Vec<String>,
    /// Ranges (CIDR) webhooks never reach, even inside an allowed range.
    #[arg(long, env = "REGINTEL_WEBHOOK_DENY_CIDRS", value_delimiter = ',')]
    webhook_deny_cidr: Vec<crate::client_addr::Cidr>,
    /// Queue webhook deliveries and send none (restore drills, staging copies of production
    /// data); /readyz, /metrics and the log say so. A message not sent within 84 hours of its
    /// event is given up.
    #[arg(long, env = "REGINTEL_WEBHOOKS_PAUSED", value_parser = BoolishValueParser::new())]
    webhooks_paused: bool,
}

impl WebhookArgs {
    /// The egress policy and the pause, into `config`.
    fn apply(&self, config: &mut ServerConfig) {
        config.webhook_egress = self.policy();
        config.webhooks_paused = self.webhooks_paused;
    }

    fn policy(&self) -> crate::webhooks::egress::EgressPolicy {
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
struct LlmArgs {
    /// An OpenAI-compatible chat-completions URL (plain http://, e.g.
    /// http://127.0.0.1:8000/v1/chat/completions) whose model rewrites briefings' prose from
    /// regintel's facts; its text must pass the same number check as regintel's own. Off when
    /// unset.
    #[arg(long, env = "REGINTEL_LLM_URL", requires = "llm_model")]
    llm_url: Option<String>,
    /// The model name sent to the model server.
    #[arg(long, env = "REGINTEL_LLM_MODEL", requires = "llm_url")]
    llm_model: Option<String>,
    /// Seconds a briefing waits for the model before regintel's own text stands.
    #[arg(long, env = "REGINTEL_LLM_TIMEOUT", default_value_t = defaults::LLM_TIMEOUT_SECS)]
    llm_timeout: u64,
    /// A file holding the model server's API key (sent as a Bearer token), if it wants one
    /// (or the key itself in REGINTEL_LLM_KEY).
    #[arg(long, env = "REGINTEL_LLM_KEY_FILE", requires = "llm_url")]
    llm_key_file: Option<PathBuf>,
}

impl LlmArgs {
    fn config(&self) -> anyhow::Result<Option<LlmConfig>> {
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
    fn secret_files(&self) -> Vec<(&Path, &'static str)> {
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

    fn config(&self) -> anyhow::Result<ServerConfig> {
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

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    let format = cli.log_format;
    let logged = logging::init(format);
    warn_unknown_variables();
    let outcome = dispatch(cli.command, format, logged.access_lines());
    if let (Err(e), logging::LogFormat::Json) = (&outcome, format) {
        tracing::error!(error = %format!("{e:#}"), "regintel stopped");
    }
    drop(logged);
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if format == logging::LogFormat::Text {
                eprintln!("regintel: {e:#}");
            }
            ExitCode::FAILURE
        }
    }
}

/// Runs `command`, telling the operator in `format`; a server writes its access lines to
/// `access_lines` where logging gives one.
fn dispatch(
    command: Command,
    format: logging::LogFormat,
    access_lines: Option<AccessLines>,
) -> anyhow::Result<()> {
    match command {
        Command::Demo {
            dir,
            listen,
            plain_http,
            limits,
            webhooks,
        } => {
            let mut config = ServerConfig::new(dir);
            config.access_lines = access_lines;
            config.tls = !plain_http;
            config.limits = limits.config();
            webhooks.apply(&mut config);
            demo::run(config, listen, plain_http, format)
        }
        Command::Serve(args) => {
            let mut config = args.config()?;
            config.access_lines = access_lines;
            launch::production(
                config,
                args.listen,
                args.tls.pair()?,
                args.plain_http,
                format,
            )
        }
        Command::Import {
            bundle: Some(bundle),
            trust,
            allow_older,
            memory,
            data,
            json,
            ..
        } => fetch::import_bundle(
            (&bundle, trust.as_deref(), allow_older),
            (&data, &memory),
            json,
            format,
        ),
        Command::Import {
            files,
            bundled,
            dataset,
            unit,
            title,
            account,
            memory,
            data,
            json,
            ..
        } => admin::import(
            &data.database()?,
            &crate::import::Room {
                memory: memory.bytes()?,
                spill_dir: if data.data_dir.is_dir() {
                    data.data_dir.clone()
                } else {
                    std::env::temp_dir()
                },
            },
            admin::ImportSources {
                files: &files,
                bundled,
            },
            &crate::import::Naming {
                dataset: dataset.as_deref(),
                unit: unit.as_deref(),
                title: title.as_deref(),
            },
            account.as_deref(),
            json,
            format,
        ),
        Command::Account { action, admin } => admin::account(
            &admin.database.choose(&admin.data_dir)?,
            action,
            logging::Printed::of(admin.json, format),
        ),
        Command::Key { action, admin } => admin::key(
            &admin.data_dir,
            &admin.database.choose(&admin.data_dir)?,
            action,
            logging::Printed::of(admin.json, format),
        ),
        Command::Openapi { address } => {
            let mut config = ServerConfig::new(PathBuf::new());
            config.service = address.service;
            config.public_url = address.public_url;
            config.validate()?;
            let doc = crate::openapi::document(&config.base_url(), &config.limits);
            println!("{}", serde_json::to_string_pretty(&doc)?);
            Ok(())
        }
        Command::Check(args) => check::run(&args, format),
        Command::Fetch(args) => fetch::run(args, format),
        Command::Sync(args) => fetch::sync(args, format),
        Command::Bundle { action } => fetch::bundle(action, format),
        Command::Mcp {
            url,
            api_key_file,
            ca_file,
        } => {
            let from_env = std::env::var(SecretVar::API_KEY).is_ok_and(|v| !v.trim().is_empty());
            if from_env && api_key_file.is_some() {
                bail!("REGINTEL_API_KEY and --api-key-file both give the key: keep one");
            }
            let key = secret(
                SecretVar::API_KEY,
                "--api-key-file",
                api_key_file.as_deref(),
            )?;
            mcp::run(&url, key, ca_file)
        }
        Command::Backup { data, file } => backup::run(&data.database()?, &file, format),
        Command::Migrate {
            data_dir,
            to,
            to_file,
            json,
        } => {
            if let Some(file) = &to_file {
                check::private(file, 0o077, "--to-file")
                    .context("it holds the database's URL, which may hold its owner's password")?;
            }
            let Some(url) = url_given(to.as_deref(), to_file.as_deref(), "--to and --to-file")?
            else {
                bail!(
                    "name the PostgreSQL database to copy into: --to postgres://OWNER@HOST/DATABASE, or --to-file FILE"
                );
            };
            migrate::run(&data_dir, url, logging::Printed::of(json, format))
        }
    }
}

#[cfg(test)]
mod tests;
