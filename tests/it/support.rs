//! The test harness: a database with the bundled extract built once per target directory and
//! copied per test, the real server started in-process on port 0 (plain or TLS), and a small
//! HTTP client over hyper. Servers stop when their `TestServer` is dropped.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::{TokioExecutor, TokioIo};
use regintel::config::ServerConfig;
use regintel::store::Database;
pub use regintel::store::accounts::Tier;
use regintel::store::postgres::testing::TestDatabase;
use serde_json::Value;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub const BASE: &str = "/api/v1/regional";

/// The code that decides what an import writes, read from the source tree: a change to any of
/// it makes a new cached database (a list of files would miss those added or moved later).
const IMPORTER: [&str; 7] = [
    "src/import",
    "src/file_formats",
    "src/store",
    "src/dataset_file.rs",
    "src/period.rs",
    "src/citation_id.rs",
    "src/bundled.rs",
];

/// Every `.rs` file at or below `path`, in a stable order.
fn sources(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for entry in entries {
            sources(&entry, out);
        }
    } else if path.extension().is_some_and(|e| e == "rs") {
        out.push(path.to_owned());
    }
}

/// What the bundled database depends on: schema, data and importer, as a short hex key.
fn bundled_key() -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    h.update(regintel::store::schema::SQLITE);
    h.update(regintel::bundled::CATALOGUE_JSON);
    h.update(regintel::bundled::NUTS_REGIONS_CSV);
    for f in regintel::bundled::BUNDLED_FILES {
        h.update(f.bytes);
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for place in IMPORTER {
        sources(&root.join(place), &mut files);
    }
    assert!(files.len() > 50, "the importer's sources are read");
    for file in files {
        h.update(
            file.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .as_bytes(),
        );
        h.update(std::fs::read(&file).unwrap());
    }
    h.update(regintel::store::schema::POSTGRES);
    h.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A PostgreSQL database of the test cluster holding the whole bundled extract: a copy of a
/// template imported once per cluster (and per schema, data and importer version).
pub fn bundled_postgres() -> TestDatabase {
    TestDatabase::from_template(&format!("bundled_{}", bundled_key()), |url| {
        let store = regintel::store::Store::open_with(
            &Database::Postgres(url.to_owned()),
            1,
            1,
            regintel::config::defaults::DATABASE_WAIT,
        )
        .unwrap();
        regintel::import::import_bundled(
            &store,
            &regintel::bundled::Catalogue::bundled(),
            &regintel::import::Room::default(),
            &mut regintel::runtime::progress::Progress::hidden(),
        )
        .unwrap();
    })
}

/// Path of a database holding the whole bundled extract, imported once per target directory
/// (and per schema, data and importer version); concurrent test processes wait on a file lock.
pub fn bundled_db() -> PathBuf {
    let key = bundled_key();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("bundled-{key}"));
    std::fs::create_dir_all(&dir).unwrap();
    let lock = std::fs::File::create(dir.join("lock")).unwrap();
    lock.lock().unwrap();
    let ready = dir.join("ready");
    if !ready.exists() {
        let store = regintel::store::Store::open(&dir, 1).unwrap();
        regintel::import::import_bundled(
            &store,
            &regintel::bundled::Catalogue::bundled(),
            &regintel::import::Room::default(),
            &mut regintel::runtime::progress::Progress::hidden(),
        )
        .unwrap();
        let conn = store.admin().unwrap();
        conn.sql()
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .unwrap();
        std::fs::write(&ready, b"ok").unwrap();
    }
    dir.join(regintel::store::DB_FILE)
}

/// Creates an account with a password and one API key in the data dir `dir`, as the operator
/// commands do (a server running on it sees it at once).
pub fn account_in(dir: &Path, email: &str, tier: Tier) -> TestAccount {
    account_on(&Database::Sqlite(dir.to_path_buf()), dir, email, tier)
}

/// [`account_in`] with the data dir's secrets and the database `database`.
pub fn account_on(database: &Database, dir: &Path, email: &str, tier: Tier) -> TestAccount {
    let store = regintel::store::Store::open_with(
        database,
        1,
        1,
        regintel::config::defaults::DATABASE_WAIT,
    )
    .unwrap();
    let auth = regintel::auth::Auth::open(dir, "regintel").unwrap();
    let password = regintel::auth::password::generate();
    let hash = regintel::auth::password::hash(&password).unwrap();
    let account = store
        .system()
        .unwrap()
        .create_account(email, email, tier, &hash, 0)
        .unwrap();
    let (row, api_key) = auth.create_key(&store, account.id, tier, "test").unwrap();
    TestAccount {
        id: account.id,
        email: email.to_owned(),
        password,
        api_key,
        key_id: row.key_id,
    }
}

/// A fresh data dir holding a copy of the bundled database.
pub fn bundled_data_dir() -> tempfile::TempDir {
    let src = bundled_db();
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&src, dir.path().join(regintel::store::DB_FILE)).unwrap();
    dir
}

/// A fresh data dir holding a copy of the secrets of the data dir `from`, as another node of
/// the same database needs (the pepper, the session keys and the sealing key).
pub fn with_secrets_of(from: &Path) -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let secrets = dir.path().join("secrets");
    std::fs::create_dir(&secrets).unwrap();
    // Private, as `regintel check` wants them.
    for private in [dir.path(), &secrets] {
        std::fs::set_permissions(private, std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    for entry in std::fs::read_dir(from.join("secrets")).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), secrets.join(entry.file_name())).unwrap();
    }
    dir
}

pub struct TestServer {
    pub addr: SocketAddr,
    pub dir: tempfile::TempDir,
    /// The data dir's SQLite file, or a PostgreSQL database of the test cluster.
    pub database: Database,
    /// The PostgreSQL database, dropped after the server stops.
    _postgres: Option<TestDatabase>,
    pub client: Client,
    /// The clock of webhook deliveries, to move forward.
    pub webhook_clock: regintel::runtime::clock::Clock,
    /// The rate limiter's clock, to move forward: set to the next noon UTC when the test began
    /// (see [`clock_at_noon`]), so no test runs across the midnight that resets the daily caps.
    pub limits_clock: regintel::runtime::clock::Clock,
    shutdown: Option<oneshot::Sender<()>>,
    handle: Option<JoinHandle<anyhow::Result<()>>>,
}

#[derive(Default)]
pub struct Options {
    /// Serve HTTPS with a fresh self-signed certificate.
    pub tls: bool,
    /// Start from an empty database instead of the bundled one.
    pub empty: bool,
    pub configure: Option<fn(&mut ServerConfig)>,
    /// The model server that writes briefings' prose.
    pub llm: Option<regintel::config::LlmConfig>,
    /// Serve from PostgreSQL (a copy of the bundled data, or an empty database) instead of
    /// the data dir's SQLite file.
    pub postgres: bool,
    /// The rate limiter's clock, to go on from another server's (nodes of one database share
    /// one; a server restarted on a data dir takes its predecessor's); a new one at the next
    /// noon UTC otherwise.
    pub limits_clock: Option<regintel::runtime::clock::Clock>,
}

/// A clock at the next noon UTC when the test began (at most a day ahead of the wall clock),
/// moving on from there.
pub fn clock_at_noon() -> regintel::runtime::clock::Clock {
    const DAY_MS: i64 = regintel::rate_limiter::DAY_SECS * 1000;
    // Reckoned once for the process: every server of a test counts the same day, whenever it
    // starts.
    static AHEAD: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    let clock = regintel::runtime::clock::Clock::default();
    let ahead = *AHEAD.get_or_init(|| {
        let now = clock.now_ms();
        let noon = now.div_euclid(DAY_MS) * DAY_MS + DAY_MS / 2;
        if noon > now {
            noon - now
        } else {
            noon + DAY_MS - now
        }
    });
    clock.advance(ahead);
    clock
}

impl TestServer {
    pub async fn start() -> TestServer {
        Self::start_with(Options::default()).await
    }

    pub async fn start_with(options: Options) -> TestServer {
        let dir = if options.empty || options.postgres {
            tempfile::tempdir().unwrap()
        } else {
            bundled_data_dir()
        };
        Self::start_in(dir, options).await
    }

    pub async fn start_in(dir: tempfile::TempDir, options: Options) -> TestServer {
        let postgres = match (options.postgres, options.empty) {
            (false, _) => None,
            (true, false) => Some(tokio::task::spawn_blocking(bundled_postgres).await.unwrap()),
            (true, true) => Some(
                tokio::task::spawn_blocking(TestDatabase::create)
                    .await
                    .unwrap(),
            ),
        };
        let database = postgres.map(|db| (Database::Postgres(db.url()), Some(db)));
        Self::start_node(dir, options, database).await
    }

    /// A server in `dir` on `database` (with the test database to drop after it, if it owns
    /// one), or on the data dir's SQLite file.
    async fn start_node(
        dir: tempfile::TempDir,
        options: Options,
        database: Option<(Database, Option<TestDatabase>)>,
    ) -> TestServer {
        let mut config = ServerConfig::new(dir.path().to_path_buf());
        let postgres = match database {
            Some((database, owned)) => {
                config.database = database;
                owned
            }
            None => None,
        };
        let database = config.database.clone();
        config.tls = options.tls;
        // Tests send thousands of requests from one address: limits that never bind, unless a
        // test sets its own.
        let never = regintel::config::Quotas {
            minute: 1 << 40,
            hour: 1 << 40,
            day: 1 << 40,
        };
        config.limits.anonymous = never;
        config.limits.professional = never;
        config.limits.institutional = never;
        config.limits.auth_fail_per_minute = 1 << 40;
        config.limits.logins_per_hour = 1 << 40;
        config.limits.key_creations_per_hour = 1 << 40;
        // Tests open many connections from 127.0.0.1 at once; the share per address is tested
        // on its own.
        config.max_connections_per_address = Some(config.max_connections);
        // Webhook receivers of the tests listen on loopback.
        config.webhook_egress.allow_loopback = true;
        // Reading the public rows into memory takes seconds of a test build's processor time:
        // only the tests that compare both ways of reading turn it on.
        config.public_data_bytes = 0;
        if let Some(configure) = options.configure {
            configure(&mut config);
        }
        config.llm = options.llm;
        config.limits_clock = options.limits_clock.unwrap_or_else(clock_at_noon);
        let webhook_clock = config.webhook_clock.clone();
        let limits_clock = config.limits_clock.clone();
        let (tls, roots) = if options.tls {
            let (cert, key) = regintel::net::tls::demo_certificate(dir.path()).unwrap();
            (
                Some(regintel::net::tls::server_config(&cert, &key).unwrap()),
                Some(cert),
            )
        } else {
            (None, None)
        };
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (tx, rx) = oneshot::channel::<()>();
        let handle = tokio::spawn(regintel::start(config, listener, tls, async {
            let _ = rx.await;
        }));
        let client = Client::new(addr, roots.as_deref());
        // Ready when it answers; a server that never does fails the test here, not later.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
        let mut handle = handle;
        while client.try_get("/healthz").await.is_none() {
            if handle.is_finished() {
                let ended = (&mut handle).await;
                panic!("the test server stopped before it answered /healthz: {ended:?}");
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the test server did not answer /healthz within 120 s"
            );
            tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        }
        TestServer {
            addr,
            dir,
            database,
            _postgres: postgres,
            client,
            webhook_clock,
            limits_clock,
            shutdown: Some(tx),
            handle: Some(handle),
        }
    }

    /// A server on `database` (not dropped with it), its data dir a fresh one.
    pub async fn start_on(database: Database) -> TestServer {
        let dir = tempfile::tempdir().unwrap();
        Self::start_node(dir, Options::default(), Some((database, None))).await
    }

    /// A server in `dir` (its secrets) on the test database `db`, dropped after it.
    pub async fn start_in_postgres(dir: tempfile::TempDir, db: TestDatabase) -> TestServer {
        let database = Database::Postgres(db.url());
        Self::start_node(dir, Options::default(), Some((database, Some(db)))).await
    }

    /// Another node on this server's PostgreSQL database, with a data dir of its own holding a
    /// copy of this one's secrets (nodes share the pepper, the session keys and the sealing
    /// key).
    pub async fn second_node(&self) -> TestServer {
        self.second_node_with(Options::default()).await
    }

    /// [`TestServer::second_node`] with `options` (its own settings; the database is this one's).
    pub async fn second_node_with(&self, mut options: Options) -> TestServer {
        let Database::Postgres(url) = &self.database else {
            panic!("a second node shares a PostgreSQL database");
        };
        let url = url.clone();
        let dir = with_secrets_of(self.dir.path());
        options.limits_clock = Some(self.limits_clock.clone());
        Self::start_node(dir, options, Some((Database::Postgres(url), None))).await
    }

    /// Sends the shutdown signal and waits for the server to finish.
    pub async fn stop(mut self) -> anyhow::Result<()> {
        let _ = self.shutdown.take().unwrap().send(());
        self.handle.take().unwrap().await.unwrap()
    }

    /// The UTC day (days since the unix epoch) the rate limiter counts now.
    pub fn today(&self) -> i64 {
        self.limits_clock
            .unix_secs()
            .div_euclid(regintel::rate_limiter::DAY_SECS)
    }

    pub async fn get(&self, path: &str) -> Resp {
        self.client.get(&format!("{BASE}{path}")).await
    }

    /// Polls `GET path` (below the base path) with `headers` every 50 ms until it answers
    /// `status` or `limit` has passed; the last answer, which the caller checks.
    #[must_use]
    pub async fn eventually(
        &self,
        path: &str,
        headers: &[(&str, &str)],
        status: u16,
        limit: std::time::Duration,
    ) -> Resp {
        let deadline = std::time::Instant::now() + limit;
        loop {
            let r = self
                .client
                .get_with(&format!("{BASE}{path}"), headers)
                .await;
            if r.status == status || std::time::Instant::now() >= deadline {
                return r;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Polls `GET path` (below the base path) with `headers` every 50 ms until its JSON answer
    /// satisfies `done`, for at most a minute; that answer (or the last, which the caller's
    /// assertions then show).
    #[must_use]
    pub async fn eventually_json(
        &self,
        path: &str,
        headers: &[(&str, &str)],
        done: impl Fn(&Value) -> bool,
    ) -> Value {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        loop {
            let r = self
                .client
                .get_with(&format!("{BASE}{path}"), headers)
                .await;
            let v: Value = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
            if done(&v) || std::time::Instant::now() >= deadline {
                return v;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
    }

    /// Waits (at most two minutes) until the server holds the public rows in memory, as its
    /// metrics say; the bytes held.
    pub async fn public_data_held(&self) -> u64 {
        crate::bounded::until(
            "the public rows held in memory",
            std::time::Duration::from_secs(120),
            || async {
                match metric(&self.client, "regintel_public_data_bytes").await {
                    Some(held @ 1..) => Ok(held),
                    other => Err(format!("{other:?} bytes")),
                }
            },
        )
        .await
    }

    /// Waits (at most two minutes) until the server's background task has finished `rounds`
    /// more rounds: see [`background_rounds`].
    pub async fn background_rounds(&self, rounds: u64) {
        background_rounds(&self.client, rounds).await
    }

    /// Stops the server gracefully and hands back its data dir, to start another on it.
    pub async fn stop_keeping_data(mut self) -> tempfile::TempDir {
        let _ = self.shutdown.take().unwrap().send(());
        self.handle.take().unwrap().await.unwrap().unwrap();
        let empty = tempfile::tempdir().unwrap();
        std::mem::replace(&mut self.dir, empty)
    }

    /// Creates an account with a password and one API key, as the operator commands do, in this
    /// server's data dir (the running server sees it at once).
    pub fn account(&self, email: &str, tier: Tier) -> TestAccount {
        account_on(&self.database, self.dir.path(), email, tier)
    }

    /// Signs in over HTTP and returns the session token.
    pub async fn login(&self, account: &TestAccount) -> String {
        let body = serde_json::json!({ "email": account.email, "password": account.password });
        let r = self
            .client
            .send(Request {
                method: "POST",
                path: &format!("{BASE}/auth/login"),
                headers: &[("content-type", "application/json")],
                body: body.to_string().into_bytes(),
            })
            .await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        r.json()["data"]["access_token"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    /// Creates a private dataset for `who` (`definition` is the `POST /datasets` body) and loads
    /// `csv` into it.
    pub async fn private_dataset(&self, who: &TestAccount, definition: Value, csv: &str) {
        let json = [who.key_header(), ("content-type", "application/json")];
        let created = self
            .call(
                "POST",
                "/datasets",
                &json,
                definition.to_string().as_bytes(),
            )
            .await;
        assert_eq!(
            created.status,
            201,
            "{}",
            String::from_utf8_lossy(&created.body)
        );
        let code = definition["code"].as_str().unwrap();
        let path = format!("/datasets/{code}/data");
        let csv_headers = [who.key_header(), ("content-type", "text/csv")];
        let put = self.call("PUT", &path, &csv_headers, csv.as_bytes()).await;
        assert_eq!(put.status, 200, "{}", String::from_utf8_lossy(&put.body));
    }

    /// A request to `BASE + path` with the given method, headers and body.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &[u8],
    ) -> Resp {
        self.client
            .send(Request {
                method,
                path: &format!("{BASE}{path}"),
                headers,
                body: body.to_vec(),
            })
            .await
    }
}

/// An account created for a test: its password and first API key in plain text.
pub struct TestAccount {
    pub id: i64,
    pub email: String,
    pub password: String,
    pub api_key: String,
    pub key_id: String,
}

impl TestAccount {
    /// `X-API-Key` header for this account's key.
    pub fn key_header(&self) -> (&'static str, &str) {
        ("x-api-key", self.api_key.as_str())
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
        if let Some(handle) = self.handle.take() {
            handle.abort();
        }
    }
}

pub struct Resp {
    pub status: u16,
    pub headers: http::HeaderMap,
    pub body: Vec<u8>,
}

impl Resp {
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }

    /// Asserts the error envelope (`data` null, `error` with code, status and request id) and
    /// returns `error`.
    pub fn error(&self, status: u16, code: &str) -> Value {
        let v = self.json();
        assert_eq!(self.status, status, "{v}");
        assert_eq!(v["data"], Value::Null, "{v}");
        assert_eq!(v["error"]["code"], code, "{v}");
        assert_eq!(v["error"]["status"], status, "{v}");
        assert_eq!(v["error"]["request_id"], v["meta"]["request_id"], "{v}");
        assert_eq!(
            self.header("x-request-id"),
            v["meta"]["request_id"].as_str()
        );
        v["error"].clone()
    }
}

/// A minimal HTTP client: HTTP/1.1 (or HTTP/2 with `h2`) over TCP or TLS, one connection per
/// request unless a [`Conn`] is kept.
#[derive(Clone)]
pub struct Client {
    pub addr: SocketAddr,
    tls: Option<tokio_rustls::TlsConnector>,
    /// The local address connections come from (another loopback address than 127.0.0.1 is
    /// another client address to the server).
    source: Option<std::net::IpAddr>,
}

#[derive(Clone)]
pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    pub headers: &'a [(&'a str, &'a str)],
    pub body: Vec<u8>,
}

impl Client {
    pub fn new(addr: SocketAddr, root_cert: Option<&Path>) -> Client {
        let tls = root_cert.map(|cert| {
            use rustls_pki_types::pem::PemObject;
            let mut roots = rustls::RootCertStore::empty();
            for c in rustls_pki_types::CertificateDer::pem_file_iter(cert).unwrap() {
                roots.add(c.unwrap()).unwrap();
            }
            let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
            let mut config = rustls::ClientConfig::builder_with_provider(provider)
                .with_safe_default_protocol_versions()
                .unwrap()
                .with_root_certificates(roots)
                .with_no_client_auth();
            config.alpn_protocols = vec![b"h2".to_vec(), b"http/1.1".to_vec()];
            tokio_rustls::TlsConnector::from(Arc::new(config))
        });
        Client {
            addr,
            tls,
            source: None,
        }
    }

    /// The same client, connecting from `source` (e.g. 127.0.0.2).
    pub fn with_source(&self, source: &str) -> Client {
        Client {
            source: Some(source.parse().unwrap()),
            ..self.clone()
        }
    }

    /// A TCP connection to the server from this client's source address.
    pub async fn tcp(&self) -> std::io::Result<TcpStream> {
        let Some(source) = self.source else {
            return TcpStream::connect(self.addr).await;
        };
        let socket = tokio::net::TcpSocket::new_v4()?;
        socket.bind(SocketAddr::new(source, 0))?;
        socket.connect(self.addr).await
    }

    /// A TLS connection whose handshake is done and on which nothing is sent.
    pub async fn tls_handshake(
        &self,
    ) -> std::io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
        let tls = self.tls.as_ref().expect("a TLS server");
        let name = rustls_pki_types::ServerName::try_from("localhost").unwrap();
        tls.connect(name, self.tcp().await?).await
    }

    pub async fn get(&self, path: &str) -> Resp {
        self.send(Request {
            method: "GET",
            path,
            headers: &[],
            body: Vec::new(),
        })
        .await
    }

    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> Resp {
        self.send(Request {
            method: "GET",
            path,
            headers,
            body: Vec::new(),
        })
        .await
    }

    async fn try_get(&self, path: &str) -> Option<Resp> {
        let mut conn = self.connect_h1().await.ok()?;
        conn.try_send(Request {
            method: "GET",
            path,
            headers: &[],
            body: Vec::new(),
        })
        .await
    }

    pub async fn send(&self, req: Request<'_>) -> Resp {
        self.connect().await.send(req).await
    }

    /// A kept-alive HTTP/1.1 connection.
    pub async fn connect(&self) -> Conn {
        self.connect_h1().await.expect("connect")
    }

    async fn connect_h1(&self) -> std::io::Result<Conn> {
        let sender = match &self.tls {
            None => {
                let tcp = self.tcp().await?;
                let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(tcp))
                    .await
                    .map_err(std::io::Error::other)?;
                tokio::spawn(conn);
                Sender::H1(sender)
            }
            Some(_) => {
                let stream = self.tls_handshake().await?;
                let h2 = stream.get_ref().1.alpn_protocol() == Some(b"h2");
                if h2 {
                    let (sender, conn) = hyper::client::conn::http2::handshake(
                        TokioExecutor::new(),
                        TokioIo::new(stream),
                    )
                    .await
                    .map_err(std::io::Error::other)?;
                    tokio::spawn(conn);
                    Sender::H2(sender)
                } else {
                    let (sender, conn) =
                        hyper::client::conn::http1::handshake(TokioIo::new(stream))
                            .await
                            .map_err(std::io::Error::other)?;
                    tokio::spawn(conn);
                    Sender::H1(sender)
                }
            }
        };
        Ok(Conn { sender })
    }
}

enum Sender {
    H1(hyper::client::conn::http1::SendRequest<Full<Bytes>>),
    H2(hyper::client::conn::http2::SendRequest<Full<Bytes>>),
}

pub struct Conn {
    sender: Sender,
}

/// How long a test waits for one answer: far beyond any single answer the suite waits for, so
/// that only a hang meets it.
const REQUEST_DEADLINE: std::time::Duration = std::time::Duration::from_secs(120);

impl Conn {
    pub fn is_h2(&self) -> bool {
        matches!(self.sender, Sender::H2(_))
    }

    /// The answer to `req`; a request with no whole answer within [`REQUEST_DEADLINE`] fails
    /// the test naming it, rather than leaving it to hang.
    pub async fn send(&mut self, req: Request<'_>) -> Resp {
        let what = format!("{} {}", req.method, req.path);
        tokio::time::timeout(REQUEST_DEADLINE, self.try_send(req))
            .await
            .unwrap_or_else(|_| {
                panic!(
                    "no whole answer within {} s: {what}",
                    REQUEST_DEADLINE.as_secs()
                )
            })
            .unwrap_or_else(|| panic!("request failed: {what}"))
    }

    async fn try_send(&mut self, req: Request<'_>) -> Option<Resp> {
        let mut builder = http::Request::builder().method(req.method).uri(req.path);
        if !req
            .headers
            .iter()
            .any(|(k, _)| k.eq_ignore_ascii_case("host"))
        {
            builder = builder.header("host", "localhost");
        }
        for (k, v) in req.headers {
            builder = builder.header(*k, *v);
        }
        if matches!(self.sender, Sender::H2(_)) {
            builder = builder.uri(format!("https://localhost{}", req.path));
        }
        let request = builder.body(Full::new(Bytes::from(req.body))).unwrap();
        let response = match &mut self.sender {
            Sender::H1(s) => {
                s.ready().await.ok()?;
                s.send_request(request).await.ok()?
            }
            Sender::H2(s) => {
                s.ready().await.ok()?;
                s.send_request(request).await.ok()?
            }
        };
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let body = response
            .into_body()
            .collect()
            .await
            .ok()?
            .to_bytes()
            .to_vec();
        Some(Resp {
            status,
            headers,
            body,
        })
    }
}

/// The value of the sample `sample` (a metric's name, with its labels if it has any:
/// `regintel_webhook_deliveries_total{outcome="delivered"}`) in the `/metrics` of the server
/// `client` speaks to; None when it has no such sample (yet).
pub async fn metric(client: &Client, sample: &str) -> Option<u64> {
    let metrics = String::from_utf8(client.get("/metrics").await.body).unwrap();
    let line = format!("{sample} ");
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(&line)?.parse().ok())
}

/// Waits (at most two minutes) until the background task of the server `client` speaks to has
/// finished `rounds` more rounds, as its metrics count them. A round may be under way when this
/// is called, and may have read before the change a test waits for: with `rounds` 2, what the
/// task does each round (data and credential changes noticed, usage written and, on a shared
/// database, read back, the webhook queue counted) has happened at least once since the call.
/// (A round counts even where a piece of its work failed: the test checks the outcome.)
pub async fn background_rounds(client: &Client, rounds: u64) {
    let ticks = || async {
        metric(client, "regintel_background_ticks_total")
            .await
            .expect("the metrics count the background rounds")
    };
    let target = ticks().await + rounds;
    crate::bounded::until(
        &format!("{rounds} rounds of the background task"),
        std::time::Duration::from_secs(120),
        || async {
            let now = ticks().await;
            if now >= target {
                Ok(())
            } else {
                Err(format!("{now} of {target}"))
            }
        },
    )
    .await
}

/// The regintel binary with an empty environment (plus what the test sets).
/// A tool the test command installs (see tests/run.sh), by its variable.
pub fn tool(variable: &str) -> String {
    std::env::var(variable).unwrap_or_else(|_| {
        panic!("{variable} is not set: run the tests with tests/run.sh, which installs the Python tools")
    })
}

pub fn regintel() -> std::process::Command {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_regintel"));
    cmd.env_clear();
    cmd
}

/// Runs `regintel ARGS --data-dir DIR` with `stdin` as its input; its stdout, after checking it
/// succeeded.
pub fn run_ok(args: &[&str], data_dir: &std::path::Path, stdin: Option<&str>) -> String {
    let out = crate::bounded::output_with_input(
        regintel().args(args).arg("--data-dir").arg(data_dir),
        stdin.unwrap_or("").as_bytes(),
        &format!("regintel {}", args.join(" ")),
    );
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// `regintel serve` over plain HTTP on an ephemeral port of `data_dir`, stdout piped (it prints
/// the address there); the caller chooses stderr and starts it.
pub fn serve_plain(data_dir: &Path) -> std::process::Command {
    let mut cmd = regintel();
    cmd.args([
        "serve",
        "--plain-http",
        "--listen",
        "127.0.0.1:0",
        "--data-dir",
    ])
    .arg(data_dir)
    .stdout(std::process::Stdio::piped());
    cmd
}

/// A server process started by [`start_plain`].
pub struct Started {
    pub child: Running,
    pub addr: SocketAddr,
    /// What it printed up to its address, and the rest of its stdout as it comes.
    pub printed: Vec<String>,
    pub stdout: std::sync::mpsc::Receiver<String>,
}

/// Starts `cmd` (see [`serve_plain`]) and waits until it announces its address.
pub fn start_plain(cmd: &mut std::process::Command) -> Started {
    use std::io::BufRead;
    let mut child = Running(cmd.spawn().unwrap());
    let stdout = std::io::BufReader::new(child.0.stdout.take().unwrap());
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stdout.lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let mut printed = Vec::new();
    loop {
        let line = rx
            .recv_timeout(std::time::Duration::from_secs(120))
            .expect("the server announces its address");
        printed.push(line.clone());
        // `regintel listening on http://...`, or with JSON logs `{"listening":"http://..."}`.
        let json: Option<serde_json::Value> = serde_json::from_str(&line).ok();
        let url = match &json {
            Some(json) => json["listening"].as_str(),
            None => line.split("listening on ").nth(1),
        };
        if let Some(addr) = url.and_then(|url| url.trim().strip_prefix("http://")) {
            return Started {
                child,
                addr: addr.parse().unwrap(),
                printed,
                stdout: rx,
            };
        }
    }
}

/// Kills the child on drop, so a failing test leaves no server behind.
pub struct Running(pub std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `script` (a path below the repository) with the Python of the tool variable `python`,
/// given the JSON file `given`, on a thread of its own: the script talks to a test server that
/// runs on the test's runtime.
pub async fn run_script(python: &str, script: &str, given: PathBuf) -> std::process::Output {
    let mut cmd = std::process::Command::new(tool(python));
    cmd.arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(script))
        .arg(given);
    crate::bounded::output_aside(cmd, script).await
}
