//! One node on PostgreSQL against one on SQLite, in the same run: the same bundled data
//! imported into a database of a throwaway cluster (`tests/postgres-cluster.sh`, under the
//! target directory, a Unix socket only), then each pair of scenarios on fresh servers, one per
//! database. Public reads (the cached profile; uncached comparisons, NUTS-3 profiles and
//! citations, which a node answers from the public rows it holds in memory) are checked against
//! targets; reads of an account's private data, key creation, a 100,000-row upload and the
//! import are reported as ratios.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use regintel::store::postgres::testing::TestDatabase;
use serde::Serialize;

use super::analytics::Client;
use super::sample::Sample;
use super::{
    Check, Ctx, HIGH_LIMITS, Scenario, ScenarioResult, Target, capture, check, nuts_regions,
    run_scenario, uncached,
};

const PROFILE: &str = "profile, cached";
const COMPARE: &str = "compare, uncached";
const PROFILE_NUTS3: &str = "profile NUTS 3, uncached";
const CITATION: &str = "citation, uncached";
const PRIVATE: &str = "private compare, uncached";
/// The private dataset's rows: every NUTS-2 region, over this many years.
const UPLOAD_ROWS: usize = 100_000;
const UPLOADS: usize = 3;
const KEYS: usize = 50;
const PRIVATE_COMPARISONS: usize = 5_000;

/// Limits far above the run's, key creations and logins included.
const KEY_LIMITS: &[&str] = &[
    "--limit-institutional-minute=1000000000",
    "--limit-institutional-hour=1000000000",
    "--limit-institutional-day=1000000000",
    "--limit-key-creations-hour=1000000000",
    "--limit-logins-hour=1000000000",
];

#[derive(Serialize)]
pub struct Pair {
    sqlite: ScenarioResult,
    postgres: ScenarioResult,
}

impl Pair {
    fn ratio(&self) -> f64 {
        self.postgres.req_per_s / self.sqlite.req_per_s
    }

    fn valid(&self) -> bool {
        self.sqlite.invalid.is_empty() && self.postgres.invalid.is_empty()
    }
}

/// Work timed once per database (the median of a few runs): PostgreSQL's rate as a ratio of
/// SQLite's.
#[derive(Serialize)]
pub struct Timed {
    name: &'static str,
    sqlite_s: f64,
    postgres_s: f64,
}

impl Timed {
    fn ratio(&self) -> f64 {
        self.sqlite_s / self.postgres_s
    }
}

#[derive(Serialize)]
pub struct PostgresResult {
    server_version: String,
    pairs: Vec<Pair>,
    timed: Vec<Timed>,
}

/// A cluster of the bench's own, stopped when dropped.
pub(super) struct Cluster(PathBuf);

impl Cluster {
    pub(super) fn start(target_dir: &Path) -> Result<Cluster> {
        let dir = target_dir.join("bench-postgres");
        let cluster = Cluster(dir);
        cluster.script("start")?;
        Ok(cluster)
    }

    fn script(&self, command: &str) -> Result<()> {
        let status = Command::new("bash")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/postgres-cluster.sh"
            ))
            .arg(command)
            .arg(&self.0)
            .status()?;
        ensure!(
            status.success(),
            "tests/postgres-cluster.sh {command} failed"
        );
        Ok(())
    }

    pub(super) fn socket(&self) -> String {
        self.0.join("socket").display().to_string()
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.script("stop");
    }
}

/// The two nodes' data dirs and databases.
struct Nodes {
    sqlite_dir: PathBuf,
    postgres_dir: PathBuf,
    url: String,
}

impl Nodes {
    fn target(&self, on_postgres: bool, flags: &'static [&'static str], cached: bool) -> Target {
        match (on_postgres, cached) {
            (false, true) => Target::Regintel(flags),
            (false, false) => Target::Uncached,
            (true, _) => Target::Postgres {
                url: self.url.clone(),
                data_dir: self.postgres_dir.clone(),
                flags,
                cached,
            },
        }
    }

    /// A fresh server of one node (its answer cache on, limits far off), named by `names`
    /// (SQLite's, PostgreSQL's), and a client kept alive to it.
    fn serve(
        &self,
        ctx: &Ctx,
        on_postgres: bool,
        names: [&str; 2],
    ) -> Result<(super::Server, Client)> {
        let server = ctx.start(
            names[usize::from(on_postgres)],
            &self.target(on_postgres, KEY_LIMITS, true),
        )?;
        let client = ctx.rt.block_on(Client::connect(server.addr))?;
        Ok((server, client))
    }

    /// `regintel ARGS` against one node's database.
    fn command(&self, ctx: &Ctx, on_postgres: bool, args: &[&str]) -> Command {
        let mut cmd = Command::new(&ctx.regintel);
        cmd.args(args);
        if on_postgres {
            cmd.arg("--data-dir").arg(&self.postgres_dir);
            cmd.args(["--database-url", &self.url]);
        } else {
            cmd.arg("--data-dir").arg(&self.sqlite_dir);
        }
        cmd
    }
}

pub fn run(ctx: &Ctx, target_dir: &Path, profile_paths: &[String]) -> Result<PostgresResult> {
    println!("\n== PostgreSQL against SQLite");
    let cluster = Cluster::start(target_dir)?;
    let database = TestDatabase::create_in(&cluster.socket());
    let mut superuser = database.connect_as("postgres");
    let server_version: String = superuser.query_one("SHOW server_version", &[])?.get(0);
    drop(superuser);
    let nodes = Nodes {
        sqlite_dir: ctx.data_dir.clone(),
        postgres_dir: ctx.tmp.join("postgres-node"),
        url: database.url(),
    };
    // The node's data dir, holding its secrets only, private to its user as a server's is.
    std::fs::create_dir_all(&nodes.postgres_dir)?;
    std::fs::set_permissions(
        &nodes.postgres_dir,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )?;
    let mut timed = Vec::new();

    let mut import = nodes.command(ctx, true, &["import", "--bundled"]);
    let started = Instant::now();
    let (status, out) = capture(&mut import, super::IMPORT_TIMEOUT)?;
    ensure!(status.success(), "import into PostgreSQL failed: {out}");
    let postgres_import = started.elapsed();
    // Into a fresh SQLite file, as the PostgreSQL database was fresh.
    let mut import = Command::new(&ctx.regintel);
    import
        .args(["import", "--bundled", "--data-dir"])
        .arg(ctx.tmp.join("sqlite-import"));
    let started = Instant::now();
    let (status, out) = capture(&mut import, super::IMPORT_TIMEOUT)?;
    ensure!(status.success(), "import into SQLite failed: {out}");
    timed.push(Timed {
        name: "import --bundled",
        sqlite_s: started.elapsed().as_secs_f64(),
        postgres_s: postgres_import.as_secs_f64(),
    });

    // Before the uploads: their rows are private, and their citations not public.
    let citations = uncached::citations(ctx)?;
    let accounts = [false, true].map(|on_postgres| account(ctx, &nodes, on_postgres));
    let [sqlite_account, postgres_account] = accounts;
    let (sqlite_account, postgres_account) = (sqlite_account?, postgres_account?);
    let csv = upload_csv()?;
    timed.push(Timed {
        name: "100,000-row upload",
        sqlite_s: uploads(ctx, &nodes, false, &sqlite_account, &csv)?.as_secs_f64(),
        postgres_s: uploads(ctx, &nodes, true, &postgres_account, &csv)?.as_secs_f64(),
    });
    timed.push(Timed {
        name: "key creation",
        sqlite_s: key_creation(ctx, &nodes, false, &sqlite_account)?.as_secs_f64(),
        postgres_s: key_creation(ctx, &nodes, true, &postgres_account)?.as_secs_f64(),
    });

    // What the uploads left to autovacuum and the checkpointer, done before the loads, so that
    // neither runs beside one of them by chance.
    let mut superuser = database.connect_as("postgres");
    // One statement a call: VACUUM cannot run in the transaction a batch is.
    superuser.batch_execute("VACUUM ANALYZE")?;
    superuser.batch_execute("CHECKPOINT")?;
    drop(superuser);
    let mut pairs = Vec::new();
    #[rustfmt::skip]
    let public = [
        (PROFILE, profile_paths.to_vec(), HIGH_LIMITS, true),
        (COMPARE, uncached::comparisons()?, HIGH_LIMITS, false),
        (PROFILE_NUTS3, uncached::profiles()?, HIGH_LIMITS, false),
        (CITATION, citations, HIGH_LIMITS, false),
    ];
    for (name, paths, flags, cached) in public {
        pairs.push(pair(ctx, &nodes, name, &paths, flags, cached)?);
    }
    let private = private_comparisons()?;
    let mut keyed = Vec::new();
    for (on_postgres, account) in [(false, &sqlite_account), (true, &postgres_account)] {
        let scenario = Scenario::new(
            PRIVATE,
            nodes.target(on_postgres, KEY_LIMITS, false),
            &private,
            &[("X-API-Key", &account.api_key)],
        );
        keyed.push(run_scenario(ctx, &scenario)?);
    }
    let postgres = keyed.pop().context("the PostgreSQL run")?;
    let sqlite = keyed.pop().context("the SQLite run")?;
    pairs.push(Pair { sqlite, postgres });
    drop(database);
    drop(cluster);
    Ok(PostgresResult {
        server_version,
        pairs,
        timed,
    })
}

/// The same scenario on each node.
fn pair(
    ctx: &Ctx,
    nodes: &Nodes,
    name: &'static str,
    paths: &[String],
    flags: &'static [&'static str],
    cached: bool,
) -> Result<Pair> {
    let run = |on_postgres| {
        run_scenario(
            ctx,
            &Scenario::new(name, nodes.target(on_postgres, flags, cached), paths, &[]),
        )
    };
    Ok(Pair {
        sqlite: run(false)?,
        postgres: run(true)?,
    })
}

struct Account {
    email: String,
    password: String,
    api_key: String,
}

/// An institutional account with a password and a key, made by the operator commands.
fn account(ctx: &Ctx, nodes: &Nodes, on_postgres: bool) -> Result<Account> {
    let email = "bench-postgres@regintel.local".to_owned();
    let json = |args: &[&str]| -> Result<serde_json::Value> {
        let (status, out) = capture(
            &mut nodes.command(ctx, on_postgres, args),
            super::TOOL_TIMEOUT,
        )?;
        ensure!(status.success(), "regintel {args:?}: {out}");
        let at = out.find('{').context("no JSON printed")?;
        Ok(serde_json::from_str(&out[at..])?)
    };
    let created = json(&[
        "account",
        "create",
        &email,
        "--tier",
        "institutional",
        "--json",
    ])?;
    let key = json(&["key", "create", &email, "--json"])?;
    Ok(Account {
        password: created["password"]
            .as_str()
            .context("no password")?
            .to_owned(),
        api_key: key["api_key"].as_str().context("no api_key")?.to_owned(),
        email,
    })
}

/// A tidy CSV of [`UPLOAD_ROWS`] rows: every NUTS-2 region, one value a year back from 2024
/// (about 410 years: a long series per region, as a private survey's monthly data would be).
fn upload_csv() -> Result<String> {
    let regions = nuts_regions(2)?;
    let mut csv = String::from("nuts_code,time,value\n");
    let mut sample = Sample(23);
    for row in 0..UPLOAD_ROWS {
        let (region, year) = (&regions[row % regions.len()], 2024 - row / regions.len());
        let _ = writeln!(csv, "{region},{year},{}", sample.below(100_000));
    }
    Ok(csv)
}

/// The median time of [`UPLOADS`] uploads of `csv` into new private datasets, one server.
fn uploads(
    ctx: &Ctx,
    nodes: &Nodes,
    on_postgres: bool,
    who: &Account,
    csv: &str,
) -> Result<Duration> {
    let (_server, mut client) =
        nodes.serve(ctx, on_postgres, ["upload, SQLite", "upload, PostgreSQL"])?;
    let key = ("X-API-Key".to_owned(), who.api_key.clone());
    let mut times = Vec::new();
    for n in 0..UPLOADS {
        let code = format!("bench_upload_{n}");
        let definition = serde_json::json!({"code": code, "title": "Bench upload", "unit": "NR"});
        let (status, body) = ctx.rt.block_on(client.send(
            "POST",
            "/api/v1/regional/datasets",
            &key,
            Some(definition.to_string()),
        ))?;
        ensure!(
            status == 201,
            "creating {code}: {status} {}",
            String::from_utf8_lossy(&body)
        );
        let started = Instant::now();
        let (status, body) = ctx.rt.block_on(client.send_typed(
            "PUT",
            &format!("/api/v1/regional/datasets/{code}/data"),
            &key,
            "text/csv",
            csv.to_owned(),
        ))?;
        times.push(started.elapsed());
        ensure!(
            status == 200,
            "uploading {code}: {status} {}",
            String::from_utf8_lossy(&body)
        );
    }
    times.sort();
    Ok(times[times.len() / 2])
}

/// The time [`KEYS`] keys take to be made one after another, through the account API with a
/// session (after one login), each revoked before the next (untimed).
fn key_creation(ctx: &Ctx, nodes: &Nodes, on_postgres: bool, who: &Account) -> Result<Duration> {
    let (_server, mut client) =
        nodes.serve(ctx, on_postgres, ["keys, SQLite", "keys, PostgreSQL"])?;
    let none = ("X-Bench".to_owned(), "1".to_owned());
    let login = serde_json::json!({"email": who.email, "password": who.password});
    let (status, body) = ctx.rt.block_on(client.send(
        "POST",
        "/api/v1/regional/auth/login",
        &none,
        Some(login.to_string()),
    ))?;
    ensure!(
        status == 200,
        "login: {status} {}",
        String::from_utf8_lossy(&body)
    );
    let token: serde_json::Value = serde_json::from_slice(&body)?;
    let token = token["data"]["access_token"]
        .as_str()
        .context("no access_token")?;
    let bearer = ("Authorization".to_owned(), format!("Bearer {token}"));
    let mut creating = Duration::ZERO;
    for n in 0..KEYS {
        let body = serde_json::json!({ "name": format!("bench {n}") });
        let started = Instant::now();
        let (status, answer) = ctx.rt.block_on(client.send(
            "POST",
            "/api/v1/regional/account/api-keys",
            &bearer,
            Some(body.to_string()),
        ))?;
        creating += started.elapsed();
        ensure!(
            status == 201,
            "creating a key: {status} {}",
            String::from_utf8_lossy(&answer)
        );
        // Revoked again (untimed): an account holds at most 10 active keys.
        let created: serde_json::Value = serde_json::from_slice(&answer)?;
        let key_id = created["data"]["id"].as_str().context("no key id")?;
        let (status, _) = ctx.rt.block_on(client.send(
            "DELETE",
            &format!("/api/v1/regional/account/api-keys/{key_id}"),
            &bearer,
            None,
        ))?;
        ensure!(status == 200 || status == 204, "revoking a key: {status}");
    }
    Ok(creating)
}

/// Comparisons of three NUTS-2 regions in the uploaded private dataset, each year differently.
fn private_comparisons() -> Result<Vec<String>> {
    let regions = nuts_regions(2)?;
    let mut sample = Sample(29);
    let mut paths = Vec::with_capacity(PRIVATE_COMPARISONS);
    while paths.len() < PRIVATE_COMPARISONS {
        let three: Vec<&str> = (0..3)
            .map(|_| regions[sample.below(regions.len())].as_str())
            .collect();
        if three[0] == three[1] || three[1] == three[2] || three[0] == three[2] {
            continue;
        }
        paths.push(format!(
            "/api/v1/regional/compare?regions={}&dataset=bench_upload_0&period={}",
            three.join(","),
            2024 - sample.below(30)
        ));
    }
    Ok(paths)
}

pub fn checks(result: &PostgresResult) -> Vec<Check> {
    let find = |name: &str| result.pairs.iter().find(|p| p.sqlite.name == name);
    let mut checks = Vec::new();
    for (name, label, at_least) in [
        (PROFILE, "PostgreSQL / SQLite cached profile req/s", 0.9),
        (COMPARE, "PostgreSQL / SQLite uncached compare req/s", 0.8),
        (
            PROFILE_NUTS3,
            "PostgreSQL / SQLite uncached profile req/s",
            0.8,
        ),
        (CITATION, "PostgreSQL / SQLite uncached citation req/s", 0.8),
    ] {
        if let Some(p) = find(name) {
            checks.push(check(label, p.ratio(), true, at_least, p.valid()));
        }
    }
    checks
}

pub fn print(result: &PostgresResult) {
    let mut out = format!(
        "\nPostgreSQL {} against SQLite, the same run\n{:<30} {:>9} {:>9} {:>8} {:>8} {:>8} {:>8} {:>8}\n",
        result.server_version,
        "scenario",
        "SQLite",
        "PG req/s",
        "ratio",
        "SQ p99",
        "PG p99",
        "SQ RSS",
        "PG RSS"
    );
    for p in &result.pairs {
        let _ = writeln!(
            out,
            "{:<30} {:>9.0} {:>9.0} {:>8.3} {:>8.2} {:>8.2} {:>8.0} {:>8.0}{}",
            p.sqlite.name,
            p.sqlite.req_per_s,
            p.postgres.req_per_s,
            p.ratio(),
            p.sqlite.p99_ms,
            p.postgres.p99_ms,
            p.sqlite.peak_rss_mb,
            p.postgres.peak_rss_mb,
            if p.valid() { "" } else { "  INVALID" }
        );
    }
    let _ = writeln!(
        out,
        "{:<30} {:>9} {:>9} {:>8}",
        "timed", "SQLite s", "PG s", "ratio"
    );
    for t in &result.timed {
        let _ = writeln!(
            out,
            "{:<30} {:>9.3} {:>9.3} {:>8.3}",
            t.name,
            t.sqlite_s,
            t.postgres_s,
            t.ratio()
        );
    }
    print!("{out}");
}
