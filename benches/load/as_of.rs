//! Reads as of a past moment against the same reads now, side by side on one server: the
//! bundled data after ten revision rounds, each revising 5 % of every dataset's rows (a file of
//! the dataset with those values changed, imported as the operator would), read as of the
//! moment after the fifth. Profiles, comparisons and citations, uncached; and what a revised
//! row costs on disk against a row of the first import. On SQLite, then on PostgreSQL.

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, ensure};
use regintel::store::postgres::testing::TestDatabase;
use serde::Serialize;

use super::postgres::Cluster;
use super::{Check, Ctx, Scenario, ScenarioResult, Target, capture, check, run_scenario};

const API: &str = "/api/v1/regional";
const ROUNDS: u32 = 10;
/// The round whose end the reads are as of.
const MIDDLE: u32 = 5;
/// One row in this many is revised each round (5 %).
const REVISED_ONE_IN: u64 = 20;
const CITATIONS: usize = 20_000;

#[derive(Serialize)]
pub struct Pair {
    name: &'static str,
    now: ScenarioResult,
    as_of: ScenarioResult,
}

impl Pair {
    fn ratio(&self) -> f64 {
        self.as_of.req_per_s / self.now.req_per_s
    }

    fn valid(&self) -> bool {
        self.now.invalid.is_empty() && self.as_of.invalid.is_empty()
    }
}

/// One backend's figures.
#[derive(Serialize)]
pub struct Backend {
    name: &'static str,
    rows_first: u64,
    rows_after: u64,
    bytes_first: u64,
    bytes_after: u64,
    /// Seconds the ten rounds' imports took.
    rounds_s: f64,
    pairs: Vec<Pair>,
}

impl Backend {
    fn bytes_per_row(&self) -> f64 {
        self.bytes_first as f64 / self.rows_first as f64
    }

    fn bytes_per_revised_row(&self) -> f64 {
        (self.bytes_after - self.bytes_first) as f64 / (self.rows_after - self.rows_first) as f64
    }
}

#[derive(Serialize)]
pub struct AsOfResult {
    backends: Vec<Backend>,
}

pub fn run(ctx: &Ctx, target_dir: &Path) -> Result<AsOfResult> {
    println!("\n== reads as of a past moment");
    let files = revised_files(ctx)?;
    // The database with the secrets it was made with (its API keys depend on them).
    let sqlite_dir = ctx.tmp.join("as-of-sqlite");
    super::large::copy_dir(&ctx.data_dir, &sqlite_dir)?;
    let sqlite = Node::Sqlite(sqlite_dir);
    let mut backends = vec![backend(ctx, "SQLite", &sqlite, &files)?];

    let cluster = Cluster::start(target_dir)?;
    let database = TestDatabase::create_in(&cluster.socket());
    let postgres_dir = ctx.tmp.join("as-of-postgres");
    std::fs::create_dir_all(&postgres_dir)?;
    std::fs::set_permissions(
        &postgres_dir,
        std::os::unix::fs::PermissionsExt::from_mode(0o700),
    )?;
    let postgres = Node::Postgres {
        dir: postgres_dir,
        url: database.url(),
        database: &database,
    };
    let (status, out) = capture(
        &mut postgres.command(ctx, &["import", "--bundled"]),
        super::IMPORT_TIMEOUT,
    )?;
    ensure!(status.success(), "import into PostgreSQL failed: {out}");
    backends.push(backend(ctx, "PostgreSQL", &postgres, &files)?);
    drop(database);
    drop(cluster);
    Ok(AsOfResult { backends })
}

/// Where the bench's revisions are imported and read.
enum Node<'d> {
    Sqlite(PathBuf),
    Postgres {
        dir: PathBuf,
        url: String,
        database: &'d TestDatabase,
    },
}

impl Node<'_> {
    fn command(&self, ctx: &Ctx, args: &[&str]) -> Command {
        let mut cmd = Command::new(&ctx.regintel);
        cmd.args(args);
        match self {
            Node::Sqlite(dir) => {
                cmd.arg("--data-dir").arg(dir);
            }
            Node::Postgres { dir, url, .. } => {
                cmd.arg("--data-dir").arg(dir);
                cmd.args(["--database-url", url]);
            }
        }
        cmd
    }

    fn target(&self) -> Target {
        match self {
            Node::Sqlite(dir) => Target::UncachedIn(dir.clone()),
            Node::Postgres { dir, url, .. } => Target::Postgres {
                url: url.clone(),
                data_dir: dir.clone(),
                flags: super::HIGH_LIMITS,
                cached: false,
            },
        }
    }

    /// One number the database answers to `sql` (written for both dialects).
    fn number(&self, sql: &str) -> Result<i64> {
        match self {
            Node::Sqlite(dir) => {
                let db = rusqlite::Connection::open(dir.join("regintel.sqlite"))?;
                Ok(db.query_row(sql, [], |r| r.get(0))?)
            }
            Node::Postgres { database, .. } => {
                let mut client = database.connect_as("postgres");
                Ok(client.query_one(sql, &[])?.get(0))
            }
        }
    }

    /// Bytes the database uses: SQLite's pages in use after a checkpoint; PostgreSQL's database
    /// after a vacuum and a checkpoint.
    fn bytes(&self) -> Result<u64> {
        let bytes = match self {
            Node::Sqlite(dir) => {
                let db = rusqlite::Connection::open(dir.join("regintel.sqlite"))?;
                db.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
                db.query_row(
                    "SELECT (page_count - freelist_count) * page_size
                     FROM pragma_page_count, pragma_freelist_count, pragma_page_size",
                    [],
                    |r| r.get::<_, i64>(0),
                )?
            }
            Node::Postgres { database, .. } => {
                let mut client = database.connect_as("postgres");
                client.batch_execute("VACUUM ANALYZE")?;
                client.batch_execute("CHECKPOINT")?;
                client
                    .query_one("SELECT pg_database_size(current_database())", &[])?
                    .get(0)
            }
        };
        Ok(u64::try_from(bytes)?)
    }
}

/// The ten rounds' files: each bundled data file with one row in 20 revised (another one each
/// round), as plain CSV under the bench's directory.
fn revised_files(ctx: &Ctx) -> Result<Vec<Vec<PathBuf>>> {
    let data = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data"));
    let mut sources: Vec<PathBuf> = std::fs::read_dir(data)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    sources.retain(|p| {
        let name = p.file_name().and_then(|n| n.to_str()).unwrap_or("");
        (name.ends_with(".csv") || name.ends_with(".csv.gz")) && name != "nuts_regions.csv"
    });
    sources.sort();
    ensure!(
        sources.len() >= 10,
        "the bundled data files in {}",
        data.display()
    );
    let mut rounds = Vec::new();
    for round in 1..=ROUNDS {
        let dir = ctx.tmp.join(format!("as-of-round-{round}"));
        std::fs::create_dir_all(&dir)?;
        let mut files = Vec::new();
        for source in &sources {
            let name = source
                .file_name()
                .and_then(|n| n.to_str())
                .context("name")?;
            let out = dir.join(name.trim_end_matches(".gz"));
            revise(source, &out, round)?;
            files.push(out);
        }
        rounds.push(files);
    }
    Ok(rounds)
}

/// `source` as it stands after `round` rounds: in each round one row in [`REVISED_ONE_IN`]
/// (another set each round) has its value raised by the round's number, and keeps what earlier
/// rounds made of it, so that each round revises 5 % of the rows anew.
fn revise(source: &Path, out: &Path, round: u32) -> Result<()> {
    let raw = std::fs::File::open(source)?;
    let reader: Box<dyn std::io::Read> = match source.extension().and_then(|e| e.to_str()) {
        Some("gz") => Box::new(flate2::read::GzDecoder::new(raw)),
        _ => Box::new(raw),
    };
    let mut lines = BufReader::new(reader).lines();
    let header = lines.next().context("an empty file")??;
    let value_at = header
        .split(',')
        .position(|c| c == "value")
        .context("no value column")?;
    let mut writer = std::io::BufWriter::new(std::fs::File::create(out)?);
    writeln!(writer, "{header}")?;
    for (n, line) in lines.enumerate() {
        let line = line?;
        let n = n as u64;
        let raised: u32 = (1..=round)
            .filter(|&r| {
                (n.wrapping_mul(2_654_435_761) ^ (u64::from(r) * 40_503))
                    .is_multiple_of(REVISED_ONE_IN)
            })
            .sum();
        let mut fields: Vec<&str> = line.split(',').collect();
        let revised;
        if raised > 0
            && let Some(value) = fields.get(value_at).and_then(|v| v.parse::<f64>().ok())
        {
            revised = format!("{}", value + f64::from(raised));
            fields[value_at] = &revised;
        }
        writeln!(writer, "{}", fields.join(","))?;
    }
    writer.flush()?;
    Ok(())
}

fn backend(
    ctx: &Ctx,
    name: &'static str,
    node: &Node<'_>,
    rounds: &[Vec<PathBuf>],
) -> Result<Backend> {
    println!("\n== as of, on {name}: ten revision rounds");
    let rows_first = u64::try_from(node.number("SELECT count(*) FROM observations")?)?;
    let bytes_first = node.bytes()?;
    let started = std::time::Instant::now();
    let mut middle_ms = 0;
    for (round, files) in (1..).zip(rounds) {
        let mut args = vec!["import"];
        args.extend(files.iter().filter_map(|f| f.to_str()));
        let (status, out) = capture(&mut node.command(ctx, &args), super::IMPORT_TIMEOUT)?;
        ensure!(status.success(), "round {round} on {name}: {out}");
        if round == MIDDLE {
            middle_ms = node.number("SELECT max(imported_at) FROM snapshots")?;
        }
    }
    let rounds_s = started.elapsed().as_secs_f64();
    let rows_after = u64::try_from(node.number("SELECT count(*) FROM observations")?)?;
    let bytes_after = node.bytes()?;
    let as_of = regintel::runtime::clock::rfc3339_millis(middle_ms);
    println!(
        "{rows_first} rows, then {rows_after}; {bytes_first} bytes, then {bytes_after}; as of {as_of}"
    );
    let citations = citations(node, middle_ms)?;
    let mut pairs = Vec::new();
    for (scenario, paths) in [
        ("profile NUTS 2, uncached", profiles()?),
        ("compare, uncached", super::uncached::comparisons()?),
        ("citation, uncached", citations),
    ] {
        let with: Vec<String> = (paths.iter())
            .map(|p| {
                let joined = if p.contains('?') { '&' } else { '?' };
                format!("{p}{joined}as_of={as_of}")
            })
            .collect();
        let now = run_scenario(ctx, &Scenario::new(scenario, node.target(), &paths, &[]))?;
        let then = run_scenario(ctx, &Scenario::new(scenario, node.target(), &with, &[]))?;
        pairs.push(Pair {
            name: scenario,
            now,
            as_of: then,
        });
    }
    Ok(Backend {
        name,
        rows_first,
        rows_after,
        bytes_first,
        bytes_after,
        rounds_s,
        pairs,
    })
}

fn profiles() -> Result<Vec<String>> {
    Ok(super::nuts_regions(2)?
        .iter()
        .map(|code| format!("{API}/regions/{code}/profile"))
        .collect())
}

/// Citations of rows written by the middle round or before, spread over them.
fn citations(node: &Node<'_>, middle_ms: i64) -> Result<Vec<String>> {
    let sql = format!(
        "SELECT o.citation_id FROM observations o JOIN snapshots s ON s.id = o.snapshot_id
         WHERE s.imported_at <= {middle_ms} AND NOT o.withdrawn AND o.owner_account_id IS NULL
         ORDER BY o.id"
    );
    let all: Vec<String> = match node {
        Node::Sqlite(dir) => {
            let db = rusqlite::Connection::open(dir.join("regintel.sqlite"))?;
            let mut stmt = db.prepare(&sql)?;
            stmt.query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?
        }
        Node::Postgres { database, .. } => {
            let mut client = database.connect_as("postgres");
            client.query(&sql, &[])?.iter().map(|r| r.get(0)).collect()
        }
    };
    ensure!(!all.is_empty(), "no citation before the middle round");
    let step = (all.len() / CITATIONS).max(1);
    Ok(all
        .iter()
        .step_by(step)
        .take(CITATIONS)
        .map(|c| format!("{API}/citations/{c}"))
        .collect())
}

pub fn checks(result: &AsOfResult) -> Vec<Check> {
    let mut checks = Vec::new();
    let Some(sqlite) = result.backends.iter().find(|b| b.name == "SQLite") else {
        return checks;
    };
    for (pair, name) in sqlite.pairs.iter().zip([
        "profile as of / now, uncached",
        "compare as of / now, uncached",
        "citation as of / now, uncached",
    ]) {
        checks.push(check(name, pair.ratio(), true, 0.5, pair.valid()));
    }
    checks.push(check(
        "bytes per revised row / per row",
        sqlite.bytes_per_revised_row() / sqlite.bytes_per_row(),
        false,
        1.5,
        true,
    ));
    checks
}

pub fn print(result: &AsOfResult) {
    let mut out = format!(
        "\n{:<12} {:<26} {:>9} {:>9} {:>8} {:>8} {:>8}\n",
        "as of", "answers", "now r/s", "as of r/s", "ratio", "now p99", "p99"
    );
    for b in &result.backends {
        for p in &b.pairs {
            let _ = writeln!(
                out,
                "{:<12} {:<26} {:>9.0} {:>9.0} {:>8.3} {:>8.2} {:>8.2}{}",
                b.name,
                p.name,
                p.now.req_per_s,
                p.as_of.req_per_s,
                p.ratio(),
                p.now.p99_ms,
                p.as_of.p99_ms,
                if p.valid() { "" } else { "  INVALID" }
            );
        }
        let _ = writeln!(
            out,
            "{:<12} rows {} -> {}, bytes per row {:.1}, per revised row {:.1} ({:.2} x); rounds {:.1} s",
            b.name,
            b.rows_first,
            b.rows_after,
            b.bytes_per_row(),
            b.bytes_per_revised_row(),
            b.bytes_per_revised_row() / b.bytes_per_row(),
            b.rounds_s
        );
    }
    print!("{out}");
}
