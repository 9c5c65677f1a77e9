//! The command line: `demo`, `serve`, `import`, `account`, `key`, `openapi`, `check`. Settings come from flags or
//! `REGINTEL_*` environment variables; bad settings stop the program with a message saying what
//! to fix.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{Context, bail};
use clap::{Args, Parser, Subcommand};
use tokio::net::TcpListener;

use crate::catalogue::Catalogue;
use crate::config::ServerConfig;
use crate::net::tls;
use crate::store::Store;

#[derive(Parser)]
#[command(
    name = "regintel",
    version,
    about = "Regional Intelligence Service: cited Eurostat regional statistics over HTTPS"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
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
    },
    /// The production server.
    Serve(Box<ServeArgs>),
    /// Load data: the bundled extract (--bundled), Eurostat bulk TSV (.tsv, .tsv.gz), SDMX-CSV,
    /// or regintel's tidy CSV. Each file becomes a snapshot of its dataset.
    Import {
        /// Files to import.
        files: Vec<PathBuf>,
        /// Import the Eurostat extract compiled into this binary.
        #[arg(long)]
        bundled: bool,
        /// Dataset code for files that do not name it (TSV named otherwise than the dataset).
        #[arg(long)]
        dataset: Option<String>,
        /// Import as this account's private data.
        #[arg(long)]
        account: Option<String>,
        #[arg(long, env = "REGINTEL_DATA_DIR", default_value = "./regintel-data")]
        data_dir: PathBuf,
        /// Print the outcome as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Operator administration of accounts.
    Account {
        #[command(subcommand)]
        action: crate::admin::AccountAction,
        #[command(flatten)]
        admin: AdminArgs,
    },
    /// Operator administration of API keys.
    Key {
        #[command(subcommand)]
        action: crate::admin::KeyAction,
        #[command(flatten)]
        admin: AdminArgs,
    },
    /// Print the OpenAPI 3.1 document.
    Openapi {
        #[arg(long, env = "REGINTEL_SERVICE", default_value = "regional")]
        service: String,
        /// The URL clients use to reach the server: the document's base URL is this with
        /// `/api/v1/<service>` (without it, the base path alone).
        #[arg(long, env = "REGINTEL_PUBLIC_URL")]
        public_url: Option<String>,
    },
    /// Check the database (integrity, schema version, data) and the TLS files, then exit.
    Check {
        #[arg(long, env = "REGINTEL_DATA_DIR", default_value = "./regintel-data")]
        data_dir: PathBuf,
        #[arg(long, env = "REGINTEL_TLS_CERT")]
        tls_cert: Option<PathBuf>,
        #[arg(long, env = "REGINTEL_TLS_KEY")]
        tls_key: Option<PathBuf>,
    },
}

/// Rate limits; every one also from `REGINTEL_LIMIT_<TIER>_<WINDOW>`.
#[derive(Args)]
struct LimitArgs {
    #[arg(long, env = "REGINTEL_LIMIT_ANONYMOUS_MINUTE", default_value_t = 30)]
    limit_anonymous_minute: u64,
    #[arg(long, env = "REGINTEL_LIMIT_ANONYMOUS_HOUR", default_value_t = 300)]
    limit_anonymous_hour: u64,
    #[arg(long, env = "REGINTEL_LIMIT_ANONYMOUS_DAY", default_value_t = 1_000)]
    limit_anonymous_day: u64,
    #[arg(long, env = "REGINTEL_LIMIT_PROFESSIONAL_MINUTE", default_value_t = 60)]
    limit_professional_minute: u64,
    #[arg(
        long,
        env = "REGINTEL_LIMIT_PROFESSIONAL_HOUR",
        default_value_t = 1_000
    )]
    limit_professional_hour: u64,
    /// The professional daily cap, per account (shared by its keys).
    #[arg(
        long,
        env = "REGINTEL_LIMIT_PROFESSIONAL_DAY",
        default_value_t = 10_000
    )]
    limit_professional_day: u64,
    #[arg(
        long,
        env = "REGINTEL_LIMIT_INSTITUTIONAL_MINUTE",
        default_value_t = 300
    )]
    limit_institutional_minute: u64,
    #[arg(
        long,
        env = "REGINTEL_LIMIT_INSTITUTIONAL_HOUR",
        default_value_t = 10_000
    )]
    limit_institutional_hour: u64,
    /// The institutional daily cap, per account (shared by its keys).
    #[arg(
        long,
        env = "REGINTEL_LIMIT_INSTITUTIONAL_DAY",
        default_value_t = 100_000
    )]
    limit_institutional_day: u64,
    /// Failed authentications per client address per minute.
    #[arg(long, env = "REGINTEL_LIMIT_AUTH_FAIL_MINUTE", default_value_t = 20)]
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
    #[arg(long, env = "REGINTEL_LIMIT_LOGINS_HOUR", default_value_t = 30)]
    limit_logins_hour: u64,
    /// API keys an account may create per hour.
    #[arg(long, env = "REGINTEL_LIMIT_KEY_CREATIONS_HOUR", default_value_t = 10)]
    limit_key_creations_hour: u64,
    /// Cost of a route in requests, by operation id: `exportDataset=20` (repeatable).
    #[arg(long, env = "REGINTEL_ROUTE_WEIGHTS", value_delimiter = ',', value_parser = parse_weight)]
    route_weight: Vec<(String, u64)>,
    /// Serve without rate limits (for a gateway that limits requests itself).
    #[arg(long, env = "REGINTEL_NO_RATE_LIMITS")]
    no_rate_limits: bool,
}

fn parse_weight(text: &str) -> Result<(String, u64), String> {
    let (op, weight) = text
        .split_once('=')
        .ok_or_else(|| format!("{text:?}: write operationId=weight, e.g. exportDataset=20"))?;
    let weight = weight
        .parse()
        .map_err(|_| format!("{text:?}: the weight must be a whole number"))?;
    Ok((op.trim().to_owned(), weight))
}

impl LimitArgs {
    fn config(&self) -> crate::config::LimitConfig {
        use crate::config::Quotas;
        crate::config::LimitConfig {
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
    #[arg(
        long,
        env = "REGINTEL_DATA_DIR",
        default_value = "./regintel-data",
        global = true
    )]
    data_dir: PathBuf,
    /// Print results as JSON, for scripts.
    #[arg(long, global = true)]
    json: bool,
}

#[derive(Args)]
struct ServeArgs {
    /// Directory holding the database.
    #[arg(long, env = "REGINTEL_DATA_DIR", default_value = "./regintel-data")]
    data_dir: PathBuf,
    /// Address to listen on; port 0 picks a free one (printed at start).
    #[arg(long, env = "REGINTEL_LISTEN", default_value = "127.0.0.1:8443")]
    listen: SocketAddr,
    /// PEM certificate chain for HTTPS.
    #[arg(long, env = "REGINTEL_TLS_CERT")]
    tls_cert: Option<PathBuf>,
    /// PEM private key for HTTPS.
    #[arg(long, env = "REGINTEL_TLS_KEY")]
    tls_key: Option<PathBuf>,
    /// Serve plain HTTP (behind a TLS-terminating proxy, or for local tests).
    #[arg(long, env = "REGINTEL_PLAIN_HTTP")]
    plain_http: bool,
    /// The <service> of the base path /api/v1/<service>.
    #[arg(long, env = "REGINTEL_SERVICE", default_value = "regional")]
    service: String,
    /// Connections served at once.
    #[arg(long, env = "REGINTEL_MAX_CONNECTIONS", default_value_t = 1024)]
    max_connections: usize,
    /// Connections one client address (IPv6: one /64) may hold at once [default: 1/16 of
    /// --max-connections].
    #[arg(long, env = "REGINTEL_MAX_CONNECTIONS_PER_ADDRESS")]
    max_connections_per_address: Option<usize>,
    /// Seconds a client has to send a request's headers, from when the connection opened or its
    /// previous answer was sent (the first request's and HTTP/1.1 keep-alive's deadline).
    #[arg(long, env = "REGINTEL_HEADER_TIMEOUT", default_value_t = 10)]
    header_timeout: u64,
    /// Seconds an HTTP/2 connection with no request in flight is kept open.
    #[arg(long, env = "REGINTEL_IDLE_TIMEOUT", default_value_t = 60)]
    idle_timeout: u64,
    /// Seconds an answer with a piece ready may wait to be taken for sending (the client not
    /// reading) before its connection is cut.
    #[arg(long, env = "REGINTEL_SEND_TIMEOUT", default_value_t = 30)]
    send_timeout: u64,
    /// Seconds a client has to send a whole request body.
    #[arg(long, env = "REGINTEL_BODY_TIMEOUT", default_value_t = 120)]
    body_timeout: u64,
    /// Largest JSON request body in bytes (CSV uploads: --max-upload).
    #[arg(long, env = "REGINTEL_MAX_BODY", default_value_t = 1024 * 1024)]
    max_body: u64,
    /// Largest CSV upload (`PUT /datasets/{dataset_code}/data`) in bytes.
    #[arg(long, env = "REGINTEL_MAX_UPLOAD", default_value_t = 32 * 1024 * 1024)]
    max_upload: u64,
    /// CSV uploads being read or imported at once (one per account; they are parsed and
    /// written one at a time).
    #[arg(long, env = "REGINTEL_MAX_UPLOADS", default_value_t = 4)]
    max_uploads: usize,
    /// Bulk exports streamed at once (one per account).
    #[arg(long, env = "REGINTEL_MAX_EXPORTS", default_value_t = 4)]
    max_exports: usize,
    /// Seconds shutdown waits for in-flight requests.
    #[arg(long, env = "REGINTEL_DRAIN_TIMEOUT", default_value_t = 10)]
    drain_timeout: u64,
    /// Megabytes of memory for cached answers.
    #[arg(long, env = "REGINTEL_CACHE_MB", default_value_t = 32)]
    cache_mb: usize,
    /// The URL clients use to reach this server (the issuer of session tokens).
    #[arg(long, env = "REGINTEL_PUBLIC_URL")]
    public_url: Option<String>,
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn run() -> ExitCode {
    let cli = Cli::parse();
    init_logging();
    match dispatch(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("regintel: {e:#}");
            ExitCode::FAILURE
        }
    }
}

fn init_logging() {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,rustls=error"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(|| RedactingStderr)
        .with_ansi(std::io::stderr().is_terminal())
        .init();
}

/// Log output with every API key redacted (OWASP Logging cheat
/// sheet: no secrets in logs): whatever a log line quotes, a key
/// never reaches the log. tracing-subscriber writes each event in one call.
struct RedactingStderr;

impl std::io::Write for RedactingStderr {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let text = String::from_utf8_lossy(buf);
        std::io::stderr().write_all(crate::auth::api_key::redact(&text).as_bytes())?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("while starting the async runtime")
}

fn dispatch(command: Command) -> anyhow::Result<()> {
    match command {
        Command::Demo {
            dir,
            listen,
            plain_http,
            limits,
        } => demo(&dir, listen, plain_http, limits.config()),
        Command::Serve(args) => serve(*args),
        Command::Import {
            files,
            bundled,
            dataset,
            account,
            data_dir,
            json,
        } => import(
            &data_dir,
            &files,
            bundled,
            dataset.as_deref(),
            account.as_deref(),
            json,
        ),
        Command::Account { action, admin } => {
            crate::admin::account(&admin.data_dir, action, admin.json)
        }
        Command::Key { action, admin } => crate::admin::key(&admin.data_dir, action, admin.json),
        Command::Openapi {
            service,
            public_url,
        } => {
            let mut config = ServerConfig::new(PathBuf::new());
            config.service = service;
            config.public_url = public_url;
            config.validate()?;
            let doc = crate::openapi::document(&config.base_url(), &[]);
            println!("{}", serde_json::to_string_pretty(&doc)?);
            Ok(())
        }
        Command::Check {
            data_dir,
            tls_cert,
            tls_key,
        } => check(&data_dir, tls_cert.as_deref(), tls_key.as_deref()),
    }
}

fn import(
    data_dir: &Path,
    files: &[PathBuf],
    bundled: bool,
    dataset: Option<&str>,
    account: Option<&str>,
    json: bool,
) -> anyhow::Result<()> {
    if !bundled && files.is_empty() {
        bail!("name files to import, or --bundled for the extract compiled into regintel");
    }
    if bundled && account.is_some() {
        bail!("--bundled imports public data; --account goes with files");
    }
    crate::store::create_data_dir(data_dir)?;
    let store = Store::open(data_dir, 1)?;
    let catalogue = Catalogue::bundled();
    let started = std::time::Instant::now();
    let owner = match account {
        Some(email) => Some(crate::admin::account_id(&store, email)?),
        None => None,
    };
    let mut reports = Vec::new();
    if bundled {
        reports.push(crate::import::import_bundled(&store, &catalogue)?);
    }
    if !files.is_empty() {
        let paths: Vec<&Path> = files.iter().map(PathBuf::as_path).collect();
        reports.push(crate::import::import_files(
            &store, &catalogue, &paths, dataset, owner,
        )?);
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&reports)?);
    } else {
        for d in reports.iter().flat_map(|r| &r.datasets) {
            match &d.snapshot {
                Some(s) => println!(
                    "{}: snapshot {s} from {}: {} rows, {} added, {} revised, {} unchanged",
                    d.dataset, d.file, d.rows_in_file, d.added, d.revised, d.unchanged
                ),
                None => println!("{}: {} unchanged, nothing written", d.dataset, d.file),
            }
        }
        println!("done in {:.1} s", started.elapsed().as_secs_f64());
    }
    Ok(())
}

fn serve(args: ServeArgs) -> anyhow::Result<()> {
    let tls = match (&args.tls_cert, &args.tls_key, args.plain_http) {
        (Some(cert), Some(key), false) => Some(tls::server_config(cert, key)?),
        (None, None, true) => None,
        (Some(_), Some(_), true) => {
            bail!("--plain-http and --tls-cert/--tls-key exclude each other: choose one")
        }
        (None, None, false) => bail!(
            "regintel serves HTTPS: give --tls-cert and --tls-key (PEM files), or --plain-http to serve plain HTTP behind a TLS-terminating proxy"
        ),
        _ => bail!("--tls-cert and --tls-key go together: give both"),
    };
    let mut config = ServerConfig::new(args.data_dir);
    config.service = args.service;
    config.tls = tls.is_some();
    config.max_connections = args.max_connections;
    config.max_connections_per_address = args.max_connections_per_address;
    config.header_read_timeout = Duration::from_secs(args.header_timeout);
    config.idle_timeout = Duration::from_secs(args.idle_timeout);
    config.send_timeout = Duration::from_secs(args.send_timeout);
    config.body_timeout = Duration::from_secs(args.body_timeout);
    config.max_body_bytes = args.max_body;
    config.max_upload_bytes = args.max_upload;
    config.max_uploads = args.max_uploads;
    config.max_exports = args.max_exports;
    config.drain_timeout = Duration::from_secs(args.drain_timeout);
    config.cache_bytes = args.cache_mb * 1024 * 1024;
    config.public_url = args.public_url;
    config.limits = args.limits.config();
    config.validate()?;
    if !config.data_dir.join(crate::store::DB_FILE).exists() {
        bail!(
            "no database in {}: run `regintel import --bundled --data-dir {}` first",
            config.data_dir.display(),
            config.data_dir.display()
        );
    }
    runtime()?.block_on(async move {
        let shutdown = shutdown_signal()?;
        let listener = bind(args.listen).await?;
        announce(&listener, tls.is_some())?;
        crate::start(config, listener, tls, shutdown).await
    })
}

async fn bind(addr: SocketAddr) -> anyhow::Result<TcpListener> {
    TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr} (in use? choose another with --listen)"))
}

/// Prints the bound address on stdout (scripts and the benchmark read it) and logs the mode.
fn announce(listener: &TcpListener, tls: bool) -> anyhow::Result<SocketAddr> {
    let addr = listener.local_addr()?;
    let scheme = if tls { "https" } else { "http" };
    if !tls {
        tracing::warn!(
            "serving plain HTTP (--plain-http): use only on loopback or behind a TLS-terminating proxy"
        );
    }
    println!("regintel listening on {scheme}://{addr}");
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

fn demo(
    dir: &Path,
    listen: Option<SocketAddr>,
    plain_http: bool,
    limits: crate::config::LimitConfig,
) -> anyhow::Result<()> {
    crate::store::create_data_dir(dir)?;
    let store = Store::open(dir, 1)?;
    let report = crate::import::import_bundled(&store, &Catalogue::bundled())?;
    if report.changed() {
        eprintln!(
            "regintel: imported the bundled Eurostat extract into {}",
            dir.display()
        );
    } else {
        eprintln!("regintel: reusing the data in {}", dir.display());
    }
    let auth = crate::auth::Auth::open(dir, "regintel")?;
    let accounts = crate::admin::demo_accounts(&store, &auth)?;
    drop((store, auth));
    let tls = if plain_http {
        None
    } else {
        let (cert, key) = tls::demo_certificate(dir)?;
        Some((tls::server_config(&cert, &key)?, cert))
    };
    let listen = listen.unwrap_or_else(|| {
        if plain_http {
            SocketAddr::from(([127, 0, 0, 1], 8080))
        } else {
            SocketAddr::from(([127, 0, 0, 1], 8443))
        }
    });
    let mut config = ServerConfig::new(dir.to_path_buf());
    config.tls = tls.is_some();
    config.limits = limits;
    config.validate()?;
    runtime()?.block_on(async move {
        let shutdown = shutdown_signal()?;
        let listener = bind(listen).await?;
        let addr = announce(&listener, tls.is_some())?;
        let host = if addr.ip().is_loopback() {
            "localhost".to_owned()
        } else {
            addr.ip().to_string()
        };
        let base_url = format!(
            "{}://{host}:{}/api/v1/{}",
            if tls.is_some() { "https" } else { "http" },
            addr.port(),
            config.service
        );
        let credentials = serde_json::json!({ "base_url": base_url, "accounts": accounts });
        let path = dir.join("demo-credentials.json");
        tls::write_private(
            &path,
            serde_json::to_string_pretty(&credentials)?.as_bytes(),
        )?;
        let curl = match &tls {
            Some((_, cert)) => format!("curl --cacert {}", cert.display()),
            None => "curl".to_owned(),
        };
        println!(
            "\nregintel demo: {base_url}  (credentials: {})",
            path.display()
        );
        println!("Try:");
        let key = |i: usize| accounts[i].api_key.as_str();
        println!("  {curl} {base_url}/regions/DE21/profile");
        println!(
            "  {curl} -H 'X-API-Key: {}' '{base_url}/compare?regions=DE21,FR10,ITC4&dataset=nama_10r_3gdp'",
            key(0)
        );
        println!("  {curl} -H 'X-API-Key: {}' {base_url}/export/bulk/tgs00010.csv", key(1));
        println!("Press Ctrl-C to stop.\n");
        crate::start(config, listener, tls.map(|(t, _)| t), shutdown).await
    })
}

fn check(data_dir: &Path, cert: Option<&Path>, key: Option<&Path>) -> anyhow::Result<()> {
    let path = data_dir.join(crate::store::DB_FILE);
    if !path.exists() {
        bail!("no database at {}", path.display());
    }
    let store = Store::open(data_dir, 1)?;
    let conn = store.admin()?;
    let integrity: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if integrity != "ok" {
        bail!("database integrity check failed: {integrity}");
    }
    let violations: i64 =
        conn.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })?;
    if violations > 0 {
        bail!("database has {violations} foreign key violations");
    }
    let (datasets, observations): (i64, i64) = conn.query_row(
        "SELECT (SELECT count(*) FROM datasets), (SELECT count(*) FROM observations)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    println!(
        "database {}: ok (schema version {}, {datasets} datasets, {observations} observations)",
        path.display(),
        crate::store::migrate::latest_version()
    );
    match (cert, key) {
        (Some(cert), Some(key)) => {
            tls::server_config(cert, key)?;
            println!(
                "TLS certificate {} and key {}: ok",
                cert.display(),
                key.display()
            );
        }
        (None, None) => {}
        _ => bail!("--tls-cert and --tls-key go together: give both"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The defaults the README documents, as the command line gives them and as a config built in
    /// code has them: one source of truth checked against the other.
    #[test]
    fn default_quotas_are_the_documented_ones() {
        use crate::config::{LimitConfig, Quotas};
        let Cli {
            command: Command::Serve(args),
        } = Cli::try_parse_from(["regintel", "serve", "--plain-http"]).unwrap()
        else {
            panic!("serve parses");
        };
        let parsed = args.limits.config();
        let defaults = LimitConfig::default();
        let documented = [
            (
                parsed.anonymous,
                Quotas {
                    minute: 30,
                    hour: 300,
                    day: 1_000,
                },
            ),
            (
                parsed.professional,
                Quotas {
                    minute: 60,
                    hour: 1_000,
                    day: 10_000,
                },
            ),
            (
                parsed.institutional,
                Quotas {
                    minute: 300,
                    hour: 10_000,
                    day: 100_000,
                },
            ),
        ];
        for (given, expected) in documented {
            assert_eq!(given, expected);
        }
        assert_eq!(
            (
                defaults.anonymous,
                defaults.professional,
                defaults.institutional
            ),
            (parsed.anonymous, parsed.professional, parsed.institutional)
        );
        assert_eq!(
            (
                parsed.auth_fail_per_minute,
                parsed.logins_per_hour,
                parsed.key_creations_per_hour
            ),
            (20, 30, 10)
        );
        assert_eq!(
            (
                defaults.auth_fail_per_minute,
                defaults.logins_per_hour,
                defaults.key_creations_per_hour
            ),
            (20, 30, 10)
        );
        assert!(parsed.enabled && parsed.trusted_proxies.is_empty());
        assert_eq!(defaults.max_entries, 100_000);
    }
}
