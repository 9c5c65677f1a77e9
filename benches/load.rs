//! Load benchmark: regintel's region profile endpoint under wrk, against a minimal hyper
//! server serving a body of the same size (the machine's ceiling) and stock Datasette doing a
//! one-row lookup, plus `regintel import` against the sqlite3 shell's `.import`.
//! Run with `cargo bench --bench load`; see benches/README.md.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::fmt::Write as _;
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write as _};
use std::net::{SocketAddr, TcpListener};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitCode, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, anyhow, bail, ensure};
use http::header::{CONTENT_TYPE, HOST};
use http::{HeaderValue, Request, Response};
use http_body_util::{BodyExt, Empty, Full};
use hyper::body::Bytes;
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use serde::Serialize;

#[path = "load/analytics.rs"]
mod analytics;
#[path = "load/as_of.rs"]
mod as_of;
#[path = "../tests/it/child_memory.rs"]
mod child_memory;
#[path = "load/explorer.rs"]
mod explorer;
#[path = "load/fetch.rs"]
mod fetch;
#[path = "load/large.rs"]
mod large;
#[path = "load/postgres.rs"]
mod postgres;
#[path = "../tests/it/sample.rs"]
mod sample;
#[path = "load/uncached.rs"]
mod uncached;
#[path = "load/webhooks.rs"]
mod webhooks;

/// Argument that makes the bench binary act as the minimal server (it re-executes itself).
const MINIMAL_SERVER_ARG: &str = "--minimal-server";
const WRK_THREADS: u32 = 1;
const WRK_CONNECTIONS: u32 = 32;
const START_TIMEOUT: Duration = Duration::from_secs(60);
const STOP_GRACE: Duration = Duration::from_secs(5);
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
const INSTALL_TIMEOUT: Duration = Duration::from_secs(900);
const IMPORT_TIMEOUT: Duration = Duration::from_secs(900);
const TOOL_TIMEOUT: Duration = Duration::from_secs(30);
/// Datasette names a database after its file.
const DATASETTE_DB: &str = "regintel";
/// How many observation ids the Datasette scenario rotates through.
const DATASETTE_IDS: u64 = 1000;

const PROFILE_ANONYMOUS: &str = "profile anonymous";
const PROFILE_API_KEY: &str = "profile with API key";
const PROFILE_NO_LIMITS: &str = "profile, limiter off";
const PROFILE_UNDER_ATTACK: &str = "profile under attack";
/// Idle connections the attacker keeps open from one address (reopening those the server closes).
const ATTACK_IDLE_CONNECTIONS: usize = 2_000;
const ATTACKER_ADDRESS: [u8; 4] = [127, 0, 0, 2];
/// The client stalling an export comes from a third address, so it is not one of the idle ones.
const STALLER_ADDRESS: [u8; 4] = [127, 0, 0, 3];
/// A persistent attacker: a connection the server closed is opened again after this long.
const ATTACK_RECONNECT: Duration = Duration::from_secs(1);
/// The stalled export is opened anew this often, before regintel's 30 s send timeout cuts it.
const STALL_RENEW: Duration = Duration::from_secs(20);
/// Rate limits far above what the run sends: every request is checked and counted, none refused.
const HIGH_LIMITS: &[&str] = &[
    "--limit-anonymous-minute=1000000000",
    "--limit-anonymous-hour=1000000000",
    "--limit-anonymous-day=1000000000",
    "--limit-institutional-minute=1000000000",
    "--limit-institutional-hour=1000000000",
    "--limit-institutional-day=1000000000",
    // The webhook scenarios' receiver listens on loopback (no other scenario registers one).
    "--webhook-allow-loopback",
];
const MINIMAL: &str = "minimal hyper";
const DATASETTE: &str = "datasette row";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let result = match args.iter().position(|a| a == MINIMAL_SERVER_ARG) {
        Some(i) => args
            .get(i + 1)
            .and_then(|len| len.parse().ok())
            .context("--minimal-server needs a body length")
            .and_then(minimal_server),
        None => bench(),
    };
    // The error chain alone (no backtrace): every failure here is a setup problem to fix.
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("load bench failed: {e:#}");
            ExitCode::FAILURE
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The run

/// What is started to serve a scenario; each scenario gets a fresh process so that its peak
/// RSS is its own and idle servers do not share the 2 cores.
enum Target {
    /// `regintel serve` with these extra flags.
    Regintel(&'static [&'static str]),
    /// `regintel serve` with [`HIGH_LIMITS`] and the answer cache off (`--cache-mb 0`).
    Uncached,
    /// [`Target::Uncached`] on another data dir.
    UncachedIn(PathBuf),
    /// `regintel serve` on a PostgreSQL database, with these extra flags, its answer cache
    /// on or off.
    Postgres {
        url: String,
        data_dir: PathBuf,
        flags: &'static [&'static str],
        cached: bool,
    },
    /// This binary serving a fixed JSON body of this many bytes.
    Minimal(usize),
    /// Stock `datasette serve` on this database file.
    Datasette(PathBuf),
}

struct Scenario {
    name: &'static str,
    target: Target,
    paths: Vec<String>,
    headers: Vec<(String, String)>,
    /// Run while the load is measured (warm-up included).
    attack: Option<Attack>,
}

impl Scenario {
    fn new(name: &'static str, target: Target, paths: &[String], headers: &[(&str, &str)]) -> Self {
        let headers = headers
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        Self {
            name,
            target,
            paths: paths.to_vec(),
            headers,
            attack: None,
        }
    }

    fn under(self, attack: Attack) -> Self {
        Self {
            attack: Some(attack),
            ..self
        }
    }
}

struct Ctx {
    regintel: PathBuf,
    tools: Tools,
    data_dir: PathBuf,
    tmp: PathBuf,
    rt: tokio::runtime::Runtime,
    warmup_secs: u64,
    measure_secs: u64,
}

fn bench() -> Result<()> {
    let target_dir = target_dir()?;
    let regintel = regintel_bin(&target_dir)?;
    let measure_secs = env_number("BENCH_SECONDS", 10)?;
    let warmup_secs = env_number("BENCH_WARMUP_SECONDS", 2)?;
    let tools = Tools::ensure(&target_dir)?;
    let regions = nuts2_regions()?;
    println!("{} NUTS-2 regions in the rotation set", regions.len());
    let profile_paths: Vec<String> = regions
        .iter()
        .map(|code| format!("/api/v1/regional/regions/{code}/profile"))
        .collect();

    let keep_tmp = std::env::var_os("BENCH_KEEP_TMP").is_some();
    let tmp = tempfile::Builder::new()
        .prefix("regintel-bench-")
        .disable_cleanup(keep_tmp)
        .tempdir()?;
    if keep_tmp {
        println!(
            "keeping logs, scripts and databases in {}",
            tmp.path().display()
        );
    }
    let ctx = Ctx {
        regintel,
        tools,
        data_dir: tmp.path().join("data"),
        tmp: tmp.path().to_owned(),
        rt: tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?,
        warmup_secs,
        measure_secs,
    };
    if std::env::var("BENCH_ONLY").as_deref() == Ok("fetch") {
        let fetched = fetch::run(&ctx, &target_dir)?;
        fetch::print(&fetched);
        for c in fetch::checks(&fetched) {
            print_check(&c);
        }
        let json_path = target_dir.join("bench-fetch.json");
        fs::write(&json_path, serde_json::to_string_pretty(&fetched)? + "\n")?;
        println!("\nresults written to {}", json_path.display());
        return Ok(());
    }
    let import = import_timing(&ctx)?;
    let api_key = bench_api_key(&ctx)?;
    match std::env::var("BENCH_ONLY").as_deref() {
        Ok("webhooks") => {
            let webhooks = webhooks::run(&ctx, &api_key, &profile_paths)?;
            webhooks::print(&webhooks);
            return Ok(());
        }
        Ok("uncached") => {
            let uncached = uncached::run(&ctx, &api_key)?;
            uncached::print(&uncached);
            for c in uncached::checks(&uncached) {
                print_check(&c);
            }
            return Ok(());
        }
        Ok("postgres") => {
            let postgres = postgres::run(&ctx, &target_dir, &profile_paths)?;
            postgres::print(&postgres);
            for c in postgres::checks(&postgres) {
                print_check(&c);
            }
            return Ok(());
        }
        Ok("large") => {
            let large = large::run(&ctx, &target_dir)?;
            large::print(&large);
            for c in large::checks(&large) {
                print_check(&c);
            }
            let json_path = target_dir.join("bench-large.json");
            fs::write(&json_path, serde_json::to_string_pretty(&large)? + "\n")?;
            println!("\nresults written to {}", json_path.display());
            return Ok(());
        }
        Ok("explorer") => {
            let explorer = explorer::run(&ctx)?;
            explorer::print(&explorer);
            for c in explorer::checks(&explorer) {
                print_check(&c);
            }
            return Ok(());
        }
        Ok("as_of") => {
            let result = as_of::run(&ctx, &target_dir)?;
            as_of::print(&result);
            for c in as_of::checks(&result) {
                print_check(&c);
            }
            let json_path = target_dir.join("bench-as-of.json");
            fs::write(&json_path, serde_json::to_string_pretty(&result)? + "\n")?;
            println!("\nresults written to {}", json_path.display());
            return Ok(());
        }
        Ok("analytics") => {
            let analytics = analytics::run(&ctx, &api_key)?;
            analytics::print(&analytics);
            for c in analytics::checks(&analytics) {
                print_check(&c);
            }
            return Ok(());
        }
        _ => {}
    }
    let (datasette_db, max_id) = datasette_db(&ctx)?;
    // Each scenario is a line, compared against PROFILE_ANONYMOUS: extra `regintel serve` flags
    // in Target::Regintel, extra headers last.
    #[rustfmt::skip]
    let regintel_scenarios = [
        Scenario::new(PROFILE_ANONYMOUS, Target::Regintel(HIGH_LIMITS), &profile_paths, &[]),
        Scenario::new(PROFILE_API_KEY, Target::Regintel(HIGH_LIMITS), &profile_paths, &[("X-API-Key", &api_key)]),
        Scenario::new(PROFILE_NO_LIMITS, Target::Regintel(&["--no-rate-limits"]), &profile_paths, &[]),
        Scenario::new(PROFILE_UNDER_ATTACK, Target::Regintel(HIGH_LIMITS), &profile_paths, &[])
            .under(Attack { export_path: "/api/v1/regional/export/bulk/nama_10r_3gdp.csv".into(), api_key: api_key.clone() }),
    ];
    let mut results = Vec::new();
    for scenario in &regintel_scenarios {
        results.push(run_scenario(&ctx, scenario)?);
    }
    let mean_profile_bytes = find(&results, PROFILE_ANONYMOUS).mean_body_bytes;
    let minimal = Scenario::new(
        MINIMAL,
        Target::Minimal(mean_profile_bytes),
        &profile_paths,
        &[],
    );
    results.push(run_scenario(&ctx, &minimal)?);
    let row_paths: Vec<String> = spread_ids(max_id, DATASETTE_IDS)
        .map(|id| format!("/{DATASETTE_DB}/observations/{id}.json"))
        .collect();
    let datasette = Scenario::new(DATASETTE, Target::Datasette(datasette_db), &row_paths, &[]);
    results.push(run_scenario(&ctx, &datasette)?);

    let uncached = uncached::run(&ctx, &api_key)?;
    let explorer = explorer::run(&ctx)?;
    let analytics = analytics::run(&ctx, &api_key)?;
    let webhooks = webhooks::run(&ctx, &api_key, &profile_paths)?;
    let postgres = postgres::run(&ctx, &target_dir, &profile_paths)?;

    let mut checks = checks(&results, &import);
    checks.extend(uncached::checks(&uncached));
    checks.extend(explorer::checks(&explorer));
    checks.extend(analytics::checks(&analytics));
    checks.extend(webhooks::checks(&webhooks));
    checks.extend(postgres::checks(&postgres));
    print_report(&results, &import, &checks);
    uncached::print(&uncached);
    explorer::print(&explorer);
    analytics::print(&analytics);
    webhooks::print(&webhooks);
    postgres::print(&postgres);
    let report = Report {
        bench_seconds: ctx.measure_secs,
        wrk_threads: WRK_THREADS,
        wrk_connections: WRK_CONNECTIONS,
        tool_versions: ctx.tools.versions.clone(),
        regions: regions.len(),
        mean_profile_bytes,
        import,
        scenarios: results,
        uncached,
        explorer,
        analytics,
        webhooks,
        postgres,
        checks,
    };
    let json_path = target_dir.join("bench-results.json");
    fs::write(&json_path, serde_json::to_string_pretty(&report)? + "\n")?;
    println!("\nresults written to {}", json_path.display());
    Ok(())
}

/// An institutional account with one API key in the bench database, made with the operator
/// commands as a deployment would.
fn bench_api_key(ctx: &Ctx) -> Result<String> {
    let email = "bench@regintel.local";
    let mut create = Command::new(&ctx.regintel);
    create
        .args([
            "account",
            "create",
            email,
            "--tier",
            "institutional",
            "--data-dir",
        ])
        .arg(&ctx.data_dir);
    run(&mut create, TOOL_TIMEOUT)?;
    let mut key = Command::new(&ctx.regintel);
    key.args(["key", "create", email, "--json", "--data-dir"])
        .arg(&ctx.data_dir);
    let (status, stdout) = capture(&mut key, TOOL_TIMEOUT)?;
    ensure!(status.success(), "regintel key create failed: {stdout}");
    // `capture` merges stderr into the text; the JSON document starts at the first brace.
    let json = stdout.find('{').map_or("", |at| &stdout[at..]);
    let created: serde_json::Value = serde_json::from_str(json)?;
    created["api_key"]
        .as_str()
        .map(str::to_owned)
        .context("regintel key create --json printed no api_key")
}

/// The server to measure: BENCH_SERVER_BIN if set (`pgo/make-profile` runs an instrumented
/// build), else the binary `cargo deb` packages: the `packaged` profile laid out by the profile
/// in `pgo/` (`--config pgo/cargo.toml`), or without it when BENCH_PGO is `off`, built here into
/// `<target>/shipped` (`<target>/shipped-plain`). Not the one Cargo builds with this bench: a
/// bench's build unifies the features of the dev-dependencies (tokio's `test-util`, hyper-util's
/// client) into the server's, so its code, and its symbols, differ from the shipped binary's,
/// and the profile in `pgo/` (recorded from a packaged build) matches none of them. Its own
/// target directory, because Cargo holds this one's lock while the bench runs.
fn regintel_bin(target_dir: &Path) -> Result<PathBuf> {
    if let Some(bin) = std::env::var_os("BENCH_SERVER_BIN") {
        let bin = PathBuf::from(bin);
        ensure!(
            bin.is_file(),
            "BENCH_SERVER_BIN {} does not exist",
            bin.display()
        );
        return Ok(bin);
    }
    let guided = match std::env::var("BENCH_PGO").as_deref() {
        Err(_) | Ok("on") => true,
        Ok("off") => false,
        Ok(other) => bail!("BENCH_PGO is `on` or `off`, not {other:?}"),
    };
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let mut build = Command::new(cargo);
    build
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "build",
            "--profile",
            "packaged",
            "--locked",
            "--bin",
            "regintel",
        ])
        .args([
            "--message-format",
            "json-render-diagnostics",
            "--target-dir",
        ]);
    let (dir, config): (&str, &[&str]) = if guided {
        ("shipped", &["--config", "pgo/cargo.toml"])
    } else {
        ("shipped-plain", &[])
    };
    println!("building the shipped server: cargo build --profile packaged {config:?}");
    build.arg(target_dir.join(dir)).args(config);
    let out = build
        .stderr(Stdio::inherit())
        .output()
        .context("running cargo build")?;
    ensure!(
        out.status.success(),
        "cargo build --profile packaged failed"
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let executable = stdout
        .lines()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok())
        .filter(|m| m["reason"] == "compiler-artifact" && m["target"]["name"] == "regintel")
        .find_map(|m| m["executable"].as_str().map(PathBuf::from));
    executable.context("cargo build --profile packaged named no regintel executable")
}

/// The cargo target dir: the bench binary lives in `<target>/<profile>/deps/`.
fn target_dir() -> Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let deps = exe.parent().filter(|d| d.ends_with("deps"));
    deps.and_then(|d| d.parent()?.parent())
        .map(Path::to_path_buf)
        .with_context(|| format!("{} is not in <target>/<profile>/deps/", exe.display()))
}

/// The whole number environment variable `name` gives, `default` without it.
fn env_number(name: &str, default: u64) -> Result<u64> {
    match std::env::var(name) {
        Ok(v) => v
            .parse()
            .with_context(|| format!("{name}={v} is not a whole number")),
        Err(_) => Ok(default),
    }
}

/// NUTS-2 codes of the 2024 classification, without the extra-regio `..ZZ` codes.
fn nuts2_regions() -> Result<Vec<String>> {
    nuts_regions(2)
}

/// Codes of one NUTS level of the 2024 classification, without the extra-regio `..Z` codes.
fn nuts_regions(wanted: u8) -> Result<Vec<String>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/nuts_regions.csv");
    let mut reader = csv::Reader::from_path(path).with_context(|| format!("reading {path}"))?;
    let headers = reader.headers()?.clone();
    let column = |name: &str| {
        headers
            .iter()
            .position(|h| h == name)
            .with_context(|| format!("{path}: no column {name}"))
    };
    let (code, level, class, in_2024) = (
        column("nuts_code")?,
        column("level")?,
        column("classification")?,
        column("in_nuts2024")?,
    );
    let mut codes = Vec::new();
    for record in reader.records() {
        let record = record?;
        let code = &record[code];
        if record[level] == wanted.to_string()
            && &record[class] == "NUTS"
            && &record[in_2024] == "true"
            && !code.ends_with('Z')
        {
            codes.push(code.to_owned());
        }
    }
    ensure!(!codes.is_empty(), "{path}: no NUTS-{wanted} regions");
    Ok(codes)
}

/// `count` ids spread evenly over 1..=max.
fn spread_ids(max: u64, count: u64) -> impl Iterator<Item = u64> {
    let count = count.min(max).max(1);
    let mut ids: Vec<u64> = (0..count)
        .map(|i| 1 + i * max.saturating_sub(1) / count.saturating_sub(1).max(1))
        .collect();
    ids.dedup();
    ids.into_iter()
}

fn find<'a>(results: &'a [ScenarioResult], name: &str) -> &'a ScenarioResult {
    results
        .iter()
        .find(|r| r.name == name)
        .expect("scenario ran")
}

// ---------------------------------------------------------------------------------------------
// Tools

struct Tools {
    wrk: PathBuf,
    sqlite3: PathBuf,
    datasette: PathBuf,
    versions: BTreeMap<&'static str, String>,
}

impl Tools {
    fn ensure(target_dir: &Path) -> Result<Self> {
        let missing: Vec<&str> = ["wrk", "sqlite3"]
            .into_iter()
            .filter(|t| on_path(t).is_none())
            .collect();
        if !missing.is_empty() {
            ensure!(
                is_root(),
                "{} missing: install with `apt-get install {}`",
                missing.join(" and "),
                missing.join(" ")
            );
            println!("installing {} with apt-get", missing.join(", "));
            shown(Command::new("apt-get").arg("update"))?;
            shown(
                Command::new("apt-get")
                    .args(["install", "-y"])
                    .args(&missing),
            )?;
        }
        let wrk = on_path("wrk").context("wrk still not on PATH after apt-get install wrk")?;
        let sqlite3 = on_path("sqlite3")
            .context("sqlite3 still not on PATH after apt-get install sqlite3")?;

        let venv = target_dir.join("bench-venv");
        let datasette = venv.join("bin/datasette");
        if !datasette.is_file() {
            println!("installing Datasette into {}", venv.display());
            let python =
                on_path("python3").context("python3 missing: needed for the Datasette baseline")?;
            shown(Command::new(python).args(["-m", "venv"]).arg(&venv))
                .context("python3 -m venv failed (Debian: apt-get install python3-venv)")?;
            shown(Command::new(venv.join("bin/pip")).args(["install", "datasette"]))?;
        }
        let versions = BTreeMap::from([
            ("wrk", version(&wrk, "-v")?),
            ("sqlite3", version(&sqlite3, "--version")?),
            ("datasette", version(&datasette, "--version")?),
        ]);
        for (tool, version) in &versions {
            println!("{tool}: {version}");
        }
        Ok(Self {
            wrk,
            sqlite3,
            datasette,
            versions,
        })
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

fn is_root() -> bool {
    let status = fs::read_to_string("/proc/self/status").unwrap_or_default();
    let euid = status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1));
    euid == Some("0")
}

// ---------------------------------------------------------------------------------------------
// Import: regintel against the sqlite3 shell

#[derive(Serialize)]
struct ImportResult {
    rows: i64,
    regintel_s: f64,
    sqlite3_s: f64,
    sqlite3_rows: i64,
    ratio: f64,
}

fn import_timing(ctx: &Ctx) -> Result<ImportResult> {
    println!("\n== import");
    let mut import = Command::new(&ctx.regintel);
    import
        .args(["import", "--bundled", "--data-dir"])
        .arg(&ctx.data_dir);
    let regintel_s =
        logged(&mut import, &ctx.tmp.join("import.log"), IMPORT_TIMEOUT)?.as_secs_f64();
    let db = ctx.data_dir.join("regintel.sqlite");
    ensure!(
        db.is_file(),
        "regintel import did not create {}",
        db.display()
    );
    let (rows, schema) = {
        let conn = rusqlite::Connection::open(&db)?;
        let rows: i64 = conn.query_row("SELECT count(*) FROM observations", [], |r| r.get(0))?;
        let mut stmt = conn.prepare(
            "SELECT sql FROM sqlite_master WHERE tbl_name = 'observations' \
             AND type IN ('table', 'index') AND sql IS NOT NULL ORDER BY type = 'index'",
        )?;
        let ddl = stmt
            .query_map([], |r| r.get::<_, String>(0))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let mut schema = String::from("PRAGMA journal_mode=WAL;\n");
        for (i, sql) in ddl.iter().enumerate() {
            // The first statement is the table; it must stand alone without the tables it references.
            let sql = if i == 0 {
                strip_foreign_keys(sql)?
            } else {
                sql.clone()
            };
            writeln!(schema, "{sql};")?;
        }
        (rows, schema)
    };
    println!("regintel import: {rows} rows in {regintel_s:.2} s");

    let csv = ctx.tmp.join("obs.csv");
    let mut export = Command::new(&ctx.tools.sqlite3);
    export
        .args(["-bail", "-noheader", "-csv"])
        .arg(&db)
        .arg("SELECT * FROM observations");
    let export_log = ctx.tmp.join("export.log");
    export
        .stdout(File::create(&csv)?)
        .stderr(File::create(&export_log)?);
    run(&mut export, IMPORT_TIMEOUT).map_err(|e| anyhow!("{e:#}{}", log_tail(&export_log)))?;

    let baseline = ctx.tmp.join("baseline.db");
    let schema_sql = ctx.tmp.join("schema.sql");
    fs::write(&schema_sql, &schema)?;
    let mut create = Command::new(&ctx.tools.sqlite3);
    create
        .arg("-bail")
        .arg(&baseline)
        .stdin(File::open(&schema_sql)?);
    logged(&mut create, &ctx.tmp.join("schema.log"), TOOL_TIMEOUT)
        .context("creating the baseline schema")?;

    let import_sql = ctx.tmp.join("import.sql");
    fs::write(
        &import_sql,
        "PRAGMA synchronous=NORMAL;\n.mode csv\nBEGIN;\n.import obs.csv observations\nCOMMIT;\n",
    )?;
    let mut dot_import = Command::new(&ctx.tools.sqlite3);
    dot_import
        .arg("-bail")
        .arg(&baseline)
        .current_dir(&ctx.tmp)
        .stdin(File::open(&import_sql)?);
    let sqlite3_s = logged(
        &mut dot_import,
        &ctx.tmp.join("dot-import.log"),
        IMPORT_TIMEOUT,
    )?
    .as_secs_f64();
    let sqlite3_rows: i64 = rusqlite::Connection::open(&baseline)?.query_row(
        "SELECT count(*) FROM observations",
        [],
        |r| r.get(0),
    )?;
    println!("sqlite3 .import: {sqlite3_rows} rows in {sqlite3_s:.2} s");
    if sqlite3_rows != rows {
        println!(
            "WARNING: sqlite3 .import loaded {sqlite3_rows} of {rows} rows: the import ratio is invalid"
        );
    }
    Ok(ImportResult {
        rows,
        regintel_s,
        sqlite3_s,
        sqlite3_rows,
        ratio: regintel_s / sqlite3_s,
    })
}

/// Removes the foreign-key clauses from a CREATE TABLE statement: table-level
/// `[CONSTRAINT name] FOREIGN KEY (..) REFERENCES ..` items and column-level
/// `[CONSTRAINT name] REFERENCES t(..) [ON ..] [MATCH ..] [[NOT] DEFERRABLE [INITIALLY ..]]`.
fn strip_foreign_keys(ddl: &str) -> Result<String> {
    let ddl = &strip_comments(ddl);
    let open = ddl
        .find('(')
        .context("CREATE TABLE without a column list")?;
    let close = open + matching_paren(&ddl[open..]).context("unbalanced CREATE TABLE")?;
    let mut items = Vec::new();
    for item in split_top_level(&ddl[open + 1..close]) {
        let tokens = tokens(item);
        let word = |i: usize| {
            tokens
                .get(i)
                .map_or(String::new(), |&(s, e)| item[s..e].to_ascii_uppercase())
        };
        if word(0) == "FOREIGN" || (word(0) == "CONSTRAINT" && word(2) == "FOREIGN") {
            continue;
        }
        let Some(at) = (0..tokens.len()).find(|&i| word(i) == "REFERENCES") else {
            items.push(item.trim().to_owned());
            continue;
        };
        let start = if at >= 2 && word(at - 2) == "CONSTRAINT" {
            at - 2
        } else {
            at
        };
        let mut end = at + 2; // REFERENCES table
        if word(end).starts_with('(') {
            end += 1;
        }
        loop {
            match word(end).as_str() {
                "ON" => {
                    end += if matches!(word(end + 2).as_str(), "SET" | "NO") {
                        4
                    } else {
                        3
                    }
                }
                "MATCH" | "INITIALLY" => end += 2,
                "NOT" if word(end + 1) == "DEFERRABLE" => end += 2,
                "DEFERRABLE" => end += 1,
                _ => break,
            }
        }
        let tail = tokens.get(end).map_or("", |&(s, _)| &item[s..]);
        items.push(
            format!("{} {}", item[..tokens[start].0].trim(), tail.trim())
                .trim()
                .to_owned(),
        );
    }
    Ok(format!(
        "{}({}){}",
        &ddl[..open],
        items.join(", "),
        &ddl[close + 1..]
    ))
}

/// Byte offset of the parenthesis closing the one `s` starts with.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0;
    let mut quote = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '[') => quote = Some(']'),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Splits at commas outside parentheses and quotes.
fn split_top_level(s: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut from = 0;
    for (start, end) in tokens(s) {
        if &s[start..end] == "," {
            parts.push(&s[from..start]);
            from = end;
        }
    }
    parts.push(&s[from..]);
    parts
}

/// The statement with its `--` and `/* */` comments blanked out, as their text (an apostrophe,
/// a comma) would mislead the scanners.
fn strip_comments(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut chars = sql.chars().peekable();
    let mut quote = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"' | '`') => quote = Some(c),
            (None, '[') => quote = Some(']'),
            (None, '-') if chars.peek() == Some(&'-') => {
                chars.by_ref().find(|&c| c == '\n');
                out.push('\n');
                continue;
            }
            (None, '/') if chars.peek() == Some(&'*') => {
                chars.next();
                while chars
                    .next()
                    .is_some_and(|c| c != '*' || chars.peek() != Some(&'/'))
                {}
                chars.next();
                out.push(' ');
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

/// SQL tokens as byte ranges: words, quoted names/strings, parenthesised groups, single symbols.
fn tokens(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(c) = s[i..].chars().next() {
        let len = if c.is_whitespace() {
            i += c.len_utf8();
            continue;
        } else if c == '(' {
            matching_paren(&s[i..]).map_or(s.len() - i, |e| e + 1)
        } else if let Some(close) = match c {
            '\'' | '"' | '`' => Some(c),
            '[' => Some(']'),
            _ => None,
        } {
            s[i + 1..].find(close).map_or(s.len() - i, |e| e + 2)
        } else if c.is_alphanumeric() || c == '_' {
            s[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .unwrap_or(s.len() - i)
        } else {
            c.len_utf8()
        };
        out.push((i, i + len));
        i += len;
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Datasette's copy of the database

/// A copy of regintel's database that stock Datasette can open: checkpointed, and without the
/// views (they call a SQL function only regintel defines). Returns it with the largest id.
fn datasette_db(ctx: &Ctx) -> Result<(PathBuf, u64)> {
    let db = ctx.data_dir.join("regintel.sqlite");
    let mut checkpoint = Command::new(&ctx.tools.sqlite3);
    checkpoint
        .arg("-bail")
        .arg(&db)
        .arg("PRAGMA wal_checkpoint(TRUNCATE)");
    logged(
        &mut checkpoint,
        &ctx.tmp.join("checkpoint.log"),
        TOOL_TIMEOUT,
    )?;
    let dir = ctx.tmp.join("datasette");
    fs::create_dir(&dir)?;
    let copy = dir.join(format!("{DATASETTE_DB}.db"));
    fs::copy(&db, &copy)?;
    let conn = rusqlite::Connection::open(&copy)?;
    let views = conn
        .prepare("SELECT name FROM sqlite_master WHERE type = 'view'")?
        .query_map([], |r| r.get::<_, String>(0))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    for view in &views {
        conn.execute_batch(&format!("DROP VIEW \"{}\"", view.replace('"', "\"\"")))?;
    }
    let max_id: i64 = conn.query_row("SELECT max(id) FROM observations", [], |r| r.get(0))?;
    ensure!(max_id > 0, "observations is empty");
    Ok((copy, max_id as u64))
}

// ---------------------------------------------------------------------------------------------
// Servers

struct Server {
    proc: Proc,
    addr: SocketAddr,
}

impl Ctx {
    fn start(&self, name: &str, target: &Target) -> Result<Server> {
        let deadline = Instant::now() + START_TIMEOUT;
        let log = self.tmp.join(format!("{}.log", name.replace(' ', "-")));
        let server = match target {
            Target::Regintel(_)
            | Target::Uncached
            | Target::UncachedIn(_)
            | Target::Postgres { .. } => {
                let mut cmd = Command::new(&self.regintel);
                cmd.args(["serve", "--listen", "127.0.0.1:0", "--plain-http"]);
                match target {
                    Target::Regintel(extra) => {
                        cmd.arg("--data-dir").arg(&self.data_dir).args(*extra)
                    }
                    Target::Postgres {
                        url,
                        data_dir,
                        flags,
                        cached,
                    } => {
                        cmd.arg("--data-dir").arg(data_dir);
                        cmd.args(["--database-url", url]).args(*flags);
                        if !cached {
                            cmd.args(["--cache-mb", "0"]);
                        }
                        &mut cmd
                    }
                    _ => {
                        let dir = match target {
                            Target::UncachedIn(dir) => dir,
                            _ => &self.data_dir,
                        };
                        cmd.arg("--data-dir")
                            .arg(dir)
                            .args(HIGH_LIMITS)
                            .args(["--cache-mb", "0"])
                    }
                };
                let mut server = announced(name, &mut cmd, &log, deadline)?;
                self.wait_ready(&mut server, "/readyz", &log, deadline)?;
                server
            }
            Target::Minimal(body_len) => {
                let mut cmd = Command::new(std::env::current_exe()?);
                cmd.arg(MINIMAL_SERVER_ARG).arg(body_len.to_string());
                announced(name, &mut cmd, &log, deadline)?
            }
            Target::Datasette(db) => {
                // Datasette has no port 0: take a free port and hand it over.
                let port = TcpListener::bind("127.0.0.1:0")?.local_addr()?.port();
                let mut cmd = Command::new(&self.tools.datasette);
                cmd.arg("serve")
                    .arg(db)
                    .args(["--host", "127.0.0.1", "--port", &port.to_string()]);
                let out = OpenOptions::new().create(true).append(true).open(&log)?;
                cmd.stdin(Stdio::null())
                    .stdout(out.try_clone()?)
                    .stderr(out);
                let addr = SocketAddr::from(([127, 0, 0, 1], port));
                let mut server = Server {
                    proc: Proc::spawn(name, &mut cmd)?,
                    addr,
                };
                self.wait_ready(&mut server, "/-/versions.json", &log, deadline)?;
                server
            }
        };
        println!(
            "{name}: pid {} on http://{}",
            server.proc.child.id(),
            server.addr
        );
        Ok(server)
    }

    /// Polls `path` until it answers 200.
    fn wait_ready(
        &self,
        server: &mut Server,
        path: &str,
        log: &Path,
        deadline: Instant,
    ) -> Result<()> {
        loop {
            match self.rt.block_on(get(server.addr, path, &[])) {
                Ok((200, _)) => return Ok(()),
                result if Instant::now() > deadline => {
                    bail!(
                        "{} not ready within {START_TIMEOUT:?} of its start: {result:?}{}",
                        server.proc.name,
                        log_tail(log)
                    )
                }
                _ => {}
            }
            if let Some(status) = server.proc.child.try_wait()? {
                bail!(
                    "{} exited ({status}) before it was ready{}",
                    server.proc.name,
                    log_tail(log)
                );
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Starts a server that prints `listening on http://ADDR` on stdout once bound. Its stdout is
/// drained into `log` (after the address is read) and its stderr goes there too.
fn announced(name: &str, cmd: &mut Command, log: &Path, deadline: Instant) -> Result<Server> {
    let mut out = OpenOptions::new().create(true).append(true).open(log)?;
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(out.try_clone()?);
    let mut proc = Proc::spawn(name, cmd)?;
    let stdout = proc.child.stdout.take().expect("piped stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = writeln!(out, "{line}"); // Losing a log line must not stop the draining.
            if let Some(addr) = listening_addr(&line) {
                let _ = tx.send(addr); // The receiver is gone only if the start was abandoned.
            }
        }
    });
    match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(Ok(addr)) => Ok(Server { proc, addr }),
        Ok(Err(e)) => Err(e.context(format!("{name}: bad listening line"))),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            let logged = fs::read_to_string(log).unwrap_or_default();
            let hint = if logged.contains("listening on ") {
                " on stdout (its log has the line: stderr?)"
            } else {
                ""
            };
            bail!(
                "{name} did not print its address{hint} within {START_TIMEOUT:?}{}",
                log_tail(log)
            )
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            let status = proc
                .wait_timeout(STOP_GRACE)
                .context("it closed its stdout without printing its address")?;
            bail!("{name} exited ({status}) before listening{}", log_tail(log))
        }
    }
}

/// The address in a `listening on (https?)://(\S+)` line.
fn listening_addr(line: &str) -> Option<Result<SocketAddr>> {
    let rest = &line[line.find("listening on ")? + "listening on ".len()..];
    let (scheme, rest) = rest.split_once("://")?;
    let addr = rest.split_whitespace().next()?.trim_end_matches('/');
    Some(match scheme {
        "http" => addr.parse().with_context(|| format!("address {addr:?}")),
        "https" => Err(anyhow!("serving https although --plain-http was given")),
        _ => return None,
    })
}

/// The minimal server: hyper on a 2-worker tokio runtime answering every request with the same
/// JSON body of exactly `body_len` bytes (at least the 24 bytes of the empty envelope).
fn minimal_server(body_len: usize) -> Result<()> {
    let envelope = r#"{"data":{"padding":""}}"#;
    let padding = "x".repeat(body_len.saturating_sub(envelope.len()));
    let body = Bytes::from(format!(r#"{{"data":{{"padding":"{padding}"}}}}"#));
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
        println!("listening on http://{}", listener.local_addr()?);
        loop {
            let (stream, _) = listener.accept().await?;
            stream.set_nodelay(true)?;
            let body = body.clone();
            let service = service_fn(move |_req| {
                let mut response = Response::new(Full::new(body.clone()));
                response
                    .headers_mut()
                    .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
                async move { Ok::<_, Infallible>(response) }
            });
            tokio::spawn(async move {
                let builder = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
                // A client dropping its connection is no error for a baseline server.
                let _ = builder
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    })
}

/// One GET on a fresh connection: the status and the body length.
async fn get(addr: SocketAddr, path: &str, headers: &[(String, String)]) -> Result<(u16, usize)> {
    let request = async {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (mut sender, conn) =
            hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        // Connection errors surface through send_request.
        tokio::spawn(async move { conn.await.ok() });
        let mut request = Request::get(path).header(HOST, addr.to_string());
        for (name, value) in headers {
            request = request.header(name, value);
        }
        let response = sender
            .send_request(request.body(Empty::<Bytes>::new())?)
            .await?;
        let status = response.status().as_u16();
        let body = response.into_body().collect().await?.to_bytes();
        anyhow::Ok((status, body.len()))
    };
    tokio::time::timeout(REQUEST_TIMEOUT, request)
        .await
        .map_err(|_| anyhow!("GET {path}: timed out"))?
}

// ---------------------------------------------------------------------------------------------
// Attack

/// What a hostile client does during a scenario: [`ATTACK_IDLE_CONNECTIONS`] connections from
/// one address that send nothing, and an export (of `export_path`, with `api_key`) whose client
/// reads the status line and then nothing more.
struct Attack {
    export_path: String,
    api_key: String,
}

#[derive(Serialize)]
struct AttackStats {
    idle_opened: usize,
    idle_open_at_end: usize,
    exports_stalled: usize,
}

/// An attack running on a thread of its own (the bench thread waits for wrk meanwhile).
struct RunningAttack {
    stop: tokio::sync::watch::Sender<bool>,
    thread: std::thread::JoinHandle<Result<AttackStats>>,
}

impl Attack {
    fn start(&self, addr: SocketAddr) -> RunningAttack {
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let request = format!(
            "GET {} HTTP/1.1\r\nhost: {addr}\r\nx-api-key: {}\r\n\r\n",
            self.export_path, self.api_key
        );
        let thread = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            rt.block_on(attack(addr, request, stopped))
        });
        RunningAttack { stop, thread }
    }
}

impl RunningAttack {
    fn stop(self) -> Result<AttackStats> {
        let _ = self.stop.send(true);
        self.thread
            .join()
            .map_err(|_| anyhow!("the attack thread panicked"))?
    }
}

async fn attack(
    addr: SocketAddr,
    export_request: String,
    stopped: tokio::sync::watch::Receiver<bool>,
) -> Result<AttackStats> {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let opened = Arc::new(AtomicUsize::new(0));
    let open = Arc::new(AtomicUsize::new(0));
    let mut idle = tokio::task::JoinSet::new();
    for _ in 0..ATTACK_IDLE_CONNECTIONS {
        let (opened, open, mut stopped) = (opened.clone(), open.clone(), stopped.clone());
        idle.spawn(async move {
            while !*stopped.borrow() {
                if let Ok(mut tcp) = connect_from(ATTACKER_ADDRESS, addr, None).await {
                    opened.fetch_add(1, Ordering::Relaxed);
                    open.fetch_add(1, Ordering::Relaxed);
                    let mut buf = [0u8; 64];
                    tokio::select! {
                        _ = tokio::io::AsyncReadExt::read(&mut tcp, &mut buf) => {}
                        _ = stopped.changed() => {}
                    }
                    open.fetch_sub(1, Ordering::Relaxed);
                }
                tokio::select! {
                    () = tokio::time::sleep(ATTACK_RECONNECT) => {}
                    _ = stopped.changed() => {}
                }
            }
        });
    }
    let mut stalled = 0;
    let mut stopped = stopped;
    while !*stopped.borrow() {
        let mut tcp = connect_from(STALLER_ADDRESS, addr, Some(4096)).await?;
        tokio::io::AsyncWriteExt::write_all(&mut tcp, export_request.as_bytes()).await?;
        let mut head = [0u8; 12];
        tokio::io::AsyncReadExt::read_exact(&mut tcp, &mut head).await?;
        // Right after a renewal the previous export may still hold the account's slot (429):
        // try again shortly.
        let hold = if head.starts_with(b"HTTP/1.1 200") {
            stalled += 1;
            STALL_RENEW
        } else {
            Duration::from_millis(200)
        };
        // Read nothing more; hold it until the run ends or it is renewed.
        tokio::select! {
            () = tokio::time::sleep(hold) => {}
            _ = stopped.changed() => {}
        }
    }
    let idle_open_at_end = open.load(Ordering::Relaxed);
    while idle.join_next().await.is_some() {}
    Ok(AttackStats {
        idle_opened: opened.load(Ordering::Relaxed),
        idle_open_at_end,
        exports_stalled: stalled,
    })
}

/// A TCP connection from a local loopback `source` address, with a small receive buffer if
/// given (so the kernel cannot take a whole answer in a client's place).
async fn connect_from(
    source: [u8; 4],
    addr: SocketAddr,
    recv_buffer: Option<u32>,
) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((source, 0)))?;
    if let Some(size) = recv_buffer {
        socket.set_recv_buffer_size(size)?;
    }
    socket.connect(addr).await
}

// ---------------------------------------------------------------------------------------------
// Load

#[derive(Serialize)]
struct ScenarioResult {
    name: &'static str,
    paths: usize,
    /// Mean and median body of one GET of every path (before the load).
    mean_body_bytes: usize,
    median_body_bytes: usize,
    requests: u64,
    req_per_s: f64,
    p50_ms: f64,
    p99_ms: f64,
    peak_rss_mb: f64,
    non_2xx: u64,
    socket_errors: u64,
    /// What the attack of a hostile scenario did.
    #[serde(skip_serializing_if = "Option::is_none")]
    attack: Option<AttackStats>,
    /// Why the figures are not to be trusted; empty when they are.
    invalid: Vec<String>,
}

fn run_scenario(ctx: &Ctx, s: &Scenario) -> Result<ScenarioResult> {
    println!("\n== {}", s.name);
    let server = ctx.start(s.name, &s.target)?;

    // One GET of every path: the mean body size, and a check that the paths are served at all.
    let (mut sizes, mut failures) = (Vec::with_capacity(s.paths.len()), Vec::new());
    for path in &s.paths {
        match ctx.rt.block_on(get(server.addr, path, &s.headers)) {
            Ok((200, len)) => sizes.push(len),
            Ok((status, _)) => failures.push(format!("{path} → {status}")),
            Err(e) => failures.push(format!("{path} → {e:#}")),
        }
    }
    ensure!(
        !sizes.is_empty(),
        "{}: no path answered 200, e.g. {}",
        s.name,
        failures[0]
    );
    let mut invalid = Vec::new();
    if !failures.is_empty() {
        println!(
            "WARNING: {} of {} paths did not answer 200, e.g. {}",
            failures.len(),
            s.paths.len(),
            failures[..failures.len().min(5)].join(", ")
        );
        invalid.push(format!("{} paths did not answer 200", failures.len()));
    }
    sizes.sort_unstable();
    let ok = sizes.len();
    let mean_body_bytes = sizes.iter().sum::<usize>() / ok;
    let median_body_bytes = sizes[ok / 2];
    println!(
        "{ok} of {} paths answered 200, mean body {mean_body_bytes} bytes, median {median_body_bytes}",
        s.paths.len(),
    );

    let script = ctx.tmp.join(format!("{}.lua", s.name.replace(' ', "-")));
    fs::write(&script, lua_script(&s.paths, &s.headers))?;
    let attack = s.attack.as_ref().map(|a| a.start(server.addr));
    wrk(ctx, server.addr, &script, ctx.warmup_secs, false)?;
    let out = wrk(ctx, server.addr, &script, ctx.measure_secs, true)?;
    let stats = parse_wrk(&out).with_context(|| format!("parsing wrk output:\n{out}"))?;
    let peak_rss_mb = peak_rss_mb(server.proc.child.id())?;
    let attack = attack.map(RunningAttack::stop).transpose()?;
    if let Some(a) = &attack {
        println!(
            "attack: {} idle connections opened in all (those the server closes are reopened), \
             {} open on the attacker's side at the end; {} exports stalled",
            a.idle_opened, a.idle_open_at_end, a.exports_stalled
        );
        if a.exports_stalled == 0 {
            invalid.push("no export was stalled".to_owned());
        }
    }
    drop(server);

    if stats.non_2xx > 0 {
        invalid.push(format!("{} responses were not 2xx", stats.non_2xx));
    }
    if stats.requests == 0 {
        invalid.push("no request completed".to_owned());
    }
    Ok(ScenarioResult {
        name: s.name,
        paths: s.paths.len(),
        mean_body_bytes,
        median_body_bytes,
        requests: stats.requests,
        req_per_s: stats.req_per_s,
        p50_ms: stats.p50_ms,
        p99_ms: stats.p99_ms,
        peak_rss_mb,
        non_2xx: stats.non_2xx,
        socket_errors: stats.socket_errors,
        attack,
        invalid,
    })
}

/// A wrk script that cycles through `paths`, sending `headers` with each request.
fn lua_script(paths: &[String], headers: &[(String, String)]) -> String {
    let mut lua = String::from("local paths = {\n");
    for path in paths {
        let _ = writeln!(lua, "  {},", lua_string(path));
    }
    lua.push_str("}\nlocal headers = {\n");
    for (name, value) in headers {
        let _ = writeln!(lua, "  [{}] = {},", lua_string(name), lua_string(value));
    }
    lua.push_str(
        "}\nlocal i = 0\n\nrequest = function()\n  i = i % #paths + 1\n  \
         return wrk.format(\"GET\", paths[i], headers)\nend\n",
    );
    lua
}

fn lua_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' | b'\\' => {
                out.push('\\');
                out.push(b as char);
            }
            b' '..=b'~' => out.push(b as char),
            _ => {
                let _ = write!(out, "\\{b:03}");
            }
        }
    }
    out.push('"');
    out
}

fn wrk(ctx: &Ctx, addr: SocketAddr, script: &Path, secs: u64, latency: bool) -> Result<String> {
    let mut cmd = Command::new(&ctx.tools.wrk);
    cmd.arg(format!("-t{WRK_THREADS}"))
        .arg(format!("-c{WRK_CONNECTIONS}"))
        .arg(format!("-d{secs}s"));
    if latency {
        cmd.arg("--latency");
    }
    cmd.arg("-s").arg(script).arg(format!("http://{addr}"));
    let timeout = Duration::from_secs(secs + 30);
    let (status, out) = capture(&mut cmd, timeout)?;
    ensure!(status.success(), "wrk failed ({status}):\n{out}");
    if latency {
        print!("{out}");
    }
    Ok(out)
}

struct WrkStats {
    requests: u64,
    req_per_s: f64,
    p50_ms: f64,
    p99_ms: f64,
    non_2xx: u64,
    socket_errors: u64,
}

fn parse_wrk(out: &str) -> Result<WrkStats> {
    let (mut requests, mut req_per_s, mut p50_ms, mut p99_ms) = (None, None, None, None);
    let (mut non_2xx, mut socket_errors) = (0, 0);
    for line in out.lines().map(str::trim) {
        if let Some(v) = line.strip_prefix("Requests/sec:") {
            req_per_s = Some(v.trim().parse()?);
        } else if let Some(v) = line.strip_prefix("50%") {
            p50_ms = Some(wrk_millis(v.trim())?);
        } else if let Some(v) = line.strip_prefix("99%") {
            p99_ms = Some(wrk_millis(v.trim())?);
        } else if let Some(v) = line.strip_prefix("Non-2xx or 3xx responses:") {
            // wrk counts status >= 400 here; 3xx are caught by the GET of every path beforehand.
            non_2xx = v.trim().parse()?;
        } else if let Some(v) = line.strip_prefix("Socket errors:") {
            // "connect 0, read 0, write 0, timeout 0"
            for part in v.split(',') {
                socket_errors += part
                    .split_whitespace()
                    .last()
                    .context("socket errors")?
                    .parse::<u64>()?;
            }
        } else if let Some((n, _)) = line.split_once(" requests in ") {
            requests = Some(n.parse()?);
        }
    }
    Ok(WrkStats {
        requests: requests.context("no request count")?,
        req_per_s: req_per_s.context("no Requests/sec")?,
        p50_ms: p50_ms.context("no 50% latency")?,
        p99_ms: p99_ms.context("no 99% latency")?,
        non_2xx,
        socket_errors,
    })
}

/// A wrk duration such as `635.91us`, `2.25ms`, `1.02s` or `1.50m`, in milliseconds.
fn wrk_millis(s: &str) -> Result<f64> {
    let split = s
        .find(|c: char| c.is_ascii_alphabetic())
        .with_context(|| format!("no unit in {s:?}"))?;
    let value: f64 = s[..split]
        .parse()
        .with_context(|| format!("duration {s:?}"))?;
    let scale = match &s[split..] {
        "us" => 0.001,
        "ms" => 1.0,
        "s" => 1000.0,
        "m" => 60_000.0,
        "h" => 3_600_000.0,
        unit => bail!("unknown unit {unit:?} in {s:?}"),
    };
    Ok(value * scale)
}

/// Peak resident set size (VmHWM) of a live process, in MiB.
fn peak_rss_mb(pid: u32) -> Result<f64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status"))?;
    let kb = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .context("no VmHWM")?;
    let kb: f64 = kb.trim().trim_end_matches("kB").trim().parse()?;
    Ok(kb / 1024.0)
}

// ---------------------------------------------------------------------------------------------
// Report

#[derive(Serialize)]
struct Check {
    name: &'static str,
    value: f64,
    /// "<= 3" or ">= 0.5".
    target: String,
    /// PASS, MISS, or INVALID when a run it rests on is invalid.
    status: &'static str,
}

fn check(name: &'static str, value: f64, at_least: bool, target: f64, valid: bool) -> Check {
    let pass = if at_least {
        value >= target
    } else {
        value <= target
    };
    Check {
        name,
        value,
        target: format!("{} {target}", if at_least { ">=" } else { "<=" }),
        status: match (valid, pass) {
            (false, _) => "INVALID",
            (true, true) => "PASS",
            (true, false) => "MISS",
        },
    }
}

fn checks(results: &[ScenarioResult], import: &ImportResult) -> Vec<Check> {
    let (profile, keyed, unlimited, attacked, minimal, datasette) = (
        find(results, PROFILE_ANONYMOUS),
        find(results, PROFILE_API_KEY),
        find(results, PROFILE_NO_LIMITS),
        find(results, PROFILE_UNDER_ATTACK),
        find(results, MINIMAL),
        find(results, DATASETTE),
    );
    let valid = |runs: &[&ScenarioResult]| runs.iter().all(|r| r.invalid.is_empty());
    vec![
        check(
            "profile req/s / minimal req/s",
            profile.req_per_s / minimal.req_per_s,
            true,
            0.65,
            valid(&[profile, minimal]),
        ),
        check(
            "profile req/s / datasette req/s",
            profile.req_per_s / datasette.req_per_s,
            true,
            10.0,
            valid(&[profile, datasette]),
        ),
        check(
            "profile p99 / minimal p99",
            profile.p99_ms / minimal.p99_ms,
            false,
            3.0,
            valid(&[profile, minimal]),
        ),
        check(
            "regintel peak RSS MB",
            profile.peak_rss_mb,
            false,
            100.0,
            valid(&[profile]),
        ),
        check(
            "profile with key / anonymous req/s",
            keyed.req_per_s / profile.req_per_s,
            true,
            0.9,
            valid(&[keyed, profile]),
        ),
        check(
            "profile limits on / limiter off req/s",
            profile.req_per_s / unlimited.req_per_s,
            true,
            0.9,
            valid(&[profile, unlimited]),
        ),
        check(
            "profile under attack / anonymous req/s",
            attacked.req_per_s / profile.req_per_s,
            true,
            0.8,
            valid(&[attacked, profile]),
        ),
        check(
            "import time / sqlite3 .import",
            import.ratio,
            false,
            3.0,
            import.sqlite3_rows == import.rows,
        ),
    ]
}

fn print_report(results: &[ScenarioResult], import: &ImportResult, checks: &[Check]) {
    println!(
        "\n{:<20} {:>10} {:>9} {:>9} {:>12}  errors",
        "target", "req/s", "p50 ms", "p99 ms", "peak RSS MB"
    );
    for r in results {
        let mut errors = format!("non-2xx {}, socket {}", r.non_2xx, r.socket_errors);
        if !r.invalid.is_empty() {
            let _ = write!(errors, "  INVALID: {}", r.invalid.join("; "));
        }
        println!(
            "{:<20} {:>10.1} {:>9.3} {:>9.3} {:>12.1}  {errors}",
            r.name, r.req_per_s, r.p50_ms, r.p99_ms, r.peak_rss_mb
        );
    }
    println!(
        "\nimport of {} rows: regintel {:.2} s, sqlite3 .import {:.2} s",
        import.rows, import.regintel_s, import.sqlite3_s
    );
    println!();
    for c in checks {
        print_check(c);
    }
}

fn print_check(c: &Check) {
    let target = format!("(target {})", c.target);
    println!("{:<36} {:>9.2}  {target:<16} {}", c.name, c.value, c.status);
}

#[derive(Serialize)]
struct Report {
    bench_seconds: u64,
    wrk_threads: u32,
    wrk_connections: u32,
    tool_versions: BTreeMap<&'static str, String>,
    regions: usize,
    mean_profile_bytes: usize,
    import: ImportResult,
    scenarios: Vec<ScenarioResult>,
    uncached: Vec<uncached::Pair>,
    explorer: explorer::Explorer,
    analytics: analytics::AnalyticsResult,
    webhooks: webhooks::WebhookResult,
    postgres: postgres::PostgresResult,
    checks: Vec<Check>,
}

// ---------------------------------------------------------------------------------------------
// Child processes

/// A child process that is stopped (SIGTERM, then SIGKILL after STOP_GRACE) when dropped, so
/// none outlives the bench, even on error or panic.
struct Proc {
    name: String,
    child: Child,
}

impl Proc {
    fn spawn(name: &str, cmd: &mut Command) -> Result<Self> {
        let child = cmd
            .spawn()
            .with_context(|| format!("starting {name}: {cmd:?}"))?;
        Ok(Self {
            name: name.to_owned(),
            child,
        })
    }

    fn wait_timeout(&mut self, timeout: Duration) -> Result<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait()? {
                return Ok(status);
            }
            ensure!(
                Instant::now() < deadline,
                "{} did not finish within {timeout:?}",
                self.name
            );
            // Short polls: this also times the imports.
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Proc {
    fn drop(&mut self) {
        if let Ok(Some(_)) = self.child.try_wait() {
            return;
        }
        let _ = Command::new("kill")
            .args(["-TERM", &self.child.id().to_string()])
            .status();
        if self.wait_timeout(STOP_GRACE).is_err() {
            eprintln!(
                "{} ignored SIGTERM for {STOP_GRACE:?}: killing it",
                self.name
            );
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Runs `cmd` to completion within `timeout`; returns its wall-clock time.
fn run(cmd: &mut Command, timeout: Duration) -> Result<Duration> {
    let start = Instant::now();
    let status = Proc::spawn(&program(cmd), cmd)?.wait_timeout(timeout)?;
    let elapsed = start.elapsed();
    ensure!(status.success(), "{cmd:?} failed: {status}");
    Ok(elapsed)
}

fn program(cmd: &Command) -> String {
    cmd.get_program().to_string_lossy().into_owned()
}

/// `run` with stdout and stderr going to `log`, whose tail an error carries.
fn logged(cmd: &mut Command, log: &Path, timeout: Duration) -> Result<Duration> {
    let out = File::create(log)?;
    cmd.stdout(out.try_clone()?).stderr(out);
    run(cmd, timeout).map_err(|e| anyhow!("{e:#}{}", log_tail(log)))
}

/// `run` with the output shown, for the installs.
fn shown(cmd: &mut Command) -> Result<Duration> {
    println!("$ {cmd:?}");
    cmd.stdin(Stdio::null())
        .env("DEBIAN_FRONTEND", "noninteractive");
    run(cmd, INSTALL_TIMEOUT)
}

/// Runs `cmd` within `timeout`; returns its exit status and its stdout and stderr together.
fn capture(cmd: &mut Command, timeout: Duration) -> Result<(ExitStatus, String)> {
    let mut out = tempfile::tempfile()?;
    cmd.stdin(Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(out.try_clone()?);
    let status = Proc::spawn(&program(cmd), cmd)?.wait_timeout(timeout)?;
    let mut text = String::new();
    out.seek(SeekFrom::Start(0))?;
    out.read_to_string(&mut text)?;
    Ok((status, text))
}

/// The first line a tool prints for `arg`, whatever its exit status (`wrk -v` exits 1).
fn version(tool: &Path, arg: &str) -> Result<String> {
    let (_, out) = capture(Command::new(tool).arg(arg), TOOL_TIMEOUT)?;
    Ok(out.lines().next().unwrap_or_default().trim().to_owned())
}

/// The last lines of a log, to put in an error.
fn log_tail(log: &Path) -> String {
    let text = fs::read_to_string(log).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let tail = lines[lines.len().saturating_sub(20)..].join("\n");
    format!(
        "\n--- last lines of {} (BENCH_KEEP_TMP=1 keeps it) ---\n{tail}",
        log.display()
    )
}
