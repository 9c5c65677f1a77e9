//! Data a hundred times larger (`BENCH_ONLY=large`, not part of the full run: it takes about an
//! hour). A Eurostat-shaped extract of `BENCH_LARGE_ROWS` observations (50 million unless told;
//! made by `benches/large/generate.py` under the target directory and kept for later runs) is
//! imported on top of the bundled data, about ten million rows at a time, into SQLite and into
//! PostgreSQL: rows per second of each batch, the import's peak RSS, and the database's bytes
//! per row. Then the same uncached answers of the bundled data (comparisons, NUTS-3 profiles,
//! citations) are served from a database of the bundled data alone and from the large one, in
//! the same run: the large one's rate as a ratio of the bundled one's, and the server's peak RSS,
//! bounded by `--public-data-mb`. The server holds the smallest datasets in memory (the bundled
//! ones), so comparisons of the extract's datasets, read from the database, are measured too.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use regintel::store::postgres::testing::TestDatabase;
use serde::Serialize;

use super::child_memory::run_measured;
use super::postgres::Cluster;
use super::{Check, Ctx, ScenarioResult, Target, check, run_scenario, uncached};

const COMPARE: &str = "compare, uncached";
const PROFILE_NUTS3: &str = "profile NUTS 3, uncached";
const CITATION: &str = "citation, uncached";
const COMPARE_NOT_HELD: &str = "compare, dataset not held";
/// Observations per dataset of the extract (one file each, of equal size): more than the
/// largest bundled dataset's (268,494), so the bundled datasets are those the server holds in
/// memory, and more than the rest of the default memory bound takes (48 MiB, the bundled rows
/// 30 of it), so the extract's are read from the database.
const ROWS_PER_DATASET: u64 = 500_000;
/// Import batches: the extract's files in this many commands.
const BATCHES: usize = 5;
const BATCH_TIMEOUT: Duration = Duration::from_secs(4 * 3600);

#[derive(Serialize)]
pub struct Batch {
    files: usize,
    rows: u64,
    seconds: f64,
    peak_rss_mb: f64,
}

impl Batch {
    fn rows_per_s(&self) -> f64 {
        self.rows as f64 / self.seconds
    }
}

#[derive(Serialize)]
pub struct Pair {
    bundled: ScenarioResult,
    large: ScenarioResult,
}

impl Pair {
    fn ratio(&self) -> f64 {
        self.large.req_per_s / self.bundled.req_per_s
    }

    /// [`Pair::ratio`] per byte of answer: a profile lists every dataset, so over the large
    /// database it is a larger answer (113 datasets' headline series instead of 13).
    fn bytes_ratio(&self) -> f64 {
        self.ratio() * self.large.mean_body_bytes as f64 / self.bundled.mean_body_bytes as f64
    }

    fn valid(&self) -> bool {
        self.bundled.invalid.is_empty() && self.large.invalid.is_empty()
    }
}

#[derive(Serialize)]
pub struct Backend {
    name: &'static str,
    batches: Vec<Batch>,
    /// Observations in the large database, the bundled ones included.
    observations: u64,
    database_bytes: u64,
    pairs: Vec<Pair>,
    /// Comparisons of the extract's datasets over the large database: past the memory
    /// bound, read from the database.
    not_held: ScenarioResult,
}

impl Backend {
    fn bytes_per_row(&self) -> f64 {
        self.database_bytes as f64 / self.observations as f64
    }
}

#[derive(Serialize)]
pub struct LargeResult {
    extract_rows: u64,
    backends: Vec<Backend>,
}

pub fn run(ctx: &Ctx, target_dir: &Path) -> Result<LargeResult> {
    let extract_rows = super::env_number("BENCH_LARGE_ROWS", 50_000_000)?;
    let files = extract(
        target_dir,
        extract_rows,
        (extract_rows / ROWS_PER_DATASET).max(1),
    )?;
    let citations = uncached::citations(ctx)?;
    let comparisons = uncached::comparisons()?;
    let not_held = of_the_extract(&comparisons, files.len());
    #[rustfmt::skip]
    let answers = Answers {
        pairs: [
            (COMPARE, comparisons),
            (PROFILE_NUTS3, uncached::profiles()?),
            (CITATION, citations),
        ],
        not_held,
    };
    let mut backends = Vec::new();
    let only = std::env::var("BENCH_LARGE_BACKEND").ok();
    if only.as_deref() != Some("postgres") {
        backends.push(on_sqlite(ctx, &files, &answers)?);
    }
    if only.as_deref() != Some("sqlite") {
        backends.push(on_postgres(ctx, target_dir, &files, &answers)?);
    }
    Ok(LargeResult {
        extract_rows,
        backends,
    })
}

/// The answers each backend serves: from both databases, a name and its paths; and from the
/// large one alone, comparisons of datasets it does not hold in memory.
struct Answers {
    pairs: [(&'static str, Vec<String>); 3],
    not_held: Vec<String>,
}

/// `comparisons` of the bundled data, each of the same regions in one of the extract's
/// `datasets` datasets (`ESTAT_SYNTH_000.tsv.gz` is dataset `synth_000`) instead.
fn of_the_extract(comparisons: &[String], datasets: usize) -> Vec<String> {
    (comparisons.iter().enumerate())
        .filter_map(|(i, path)| {
            let (regions, _) = path.split_once("&dataset=")?;
            Some(format!("{regions}&dataset=synth_{:03}", i % datasets))
        })
        .collect()
}

fn on_sqlite(ctx: &Ctx, files: &[PathBuf], answers: &Answers) -> Result<Backend> {
    println!("\n== {} files more, on SQLite", files.len());
    let large_dir = ctx.tmp.join("large-sqlite");
    copy_dir(&ctx.data_dir, &large_dir)?;
    let node = Node {
        data_dir: large_dir.clone(),
        url: None,
    };
    let batches = import_batches(ctx, &node, files)?;
    let (observations, database_bytes) = sqlite_size(&large_dir)?;
    let run = |name, target, paths: &[String]| {
        run_scenario(ctx, &super::Scenario::new(name, target, paths, &[]))
    };
    let mut pairs = Vec::new();
    for (name, paths) in &answers.pairs {
        pairs.push(Pair {
            bundled: run(name, Target::UncachedIn(ctx.data_dir.clone()), paths)?,
            large: run(name, Target::UncachedIn(large_dir.clone()), paths)?,
        });
    }
    let not_held = run(
        COMPARE_NOT_HELD,
        Target::UncachedIn(large_dir),
        &answers.not_held,
    )?;
    Ok(Backend {
        name: "SQLite",
        batches,
        observations,
        database_bytes,
        pairs,
        not_held,
    })
}

fn on_postgres(
    ctx: &Ctx,
    target_dir: &Path,
    files: &[PathBuf],
    answers: &Answers,
) -> Result<Backend> {
    println!("\n== {} files more, on PostgreSQL", files.len());
    let cluster = Cluster::start(target_dir)?;
    let bundled_db = TestDatabase::create_in(&cluster.socket());
    let large_db = TestDatabase::create_in(&cluster.socket());
    let [bundled, large] =
        [("bundled", &bundled_db), ("large", &large_db)].map(|(name, db)| Node {
            data_dir: ctx.tmp.join(format!("postgres-{name}")),
            url: Some(db.url()),
        });
    for node in [&bundled, &large] {
        std::fs::create_dir_all(&node.data_dir)?;
        std::fs::set_permissions(
            &node.data_dir,
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )?;
        let finished = run_measured(
            &mut node.command(ctx, &["import", "--bundled"]),
            BATCH_TIMEOUT,
        )?;
        let stderr = String::from_utf8_lossy(&finished.stderr);
        ensure!(
            finished.status.success(),
            "import --bundled into PostgreSQL failed: {stderr}"
        );
    }
    let batches = import_batches(ctx, &large, files)?;
    let mut superuser = large_db.connect_as("postgres");
    let (observations, database_bytes) = {
        let row = superuser.query_one(
            "SELECT (SELECT count(*) FROM observations), pg_database_size(current_database())",
            &[],
        )?;
        (row.get::<_, i64>(0) as u64, row.get::<_, i64>(1) as u64)
    };
    // What the imports left to autovacuum and the checkpointer, done before the loads.
    for db in [&bundled_db, &large_db] {
        let mut superuser = db.connect_as("postgres");
        superuser.batch_execute("VACUUM ANALYZE")?;
        superuser.batch_execute("CHECKPOINT")?;
    }
    drop(superuser);
    let run = |name, node: &Node, paths: &[String]| {
        let target = Target::Postgres {
            url: node.url.clone().context("a PostgreSQL node")?,
            data_dir: node.data_dir.clone(),
            flags: super::HIGH_LIMITS,
            cached: false,
        };
        run_scenario(ctx, &super::Scenario::new(name, target, paths, &[]))
    };
    let mut pairs = Vec::new();
    for (name, paths) in &answers.pairs {
        pairs.push(Pair {
            bundled: run(name, &bundled, paths)?,
            large: run(name, &large, paths)?,
        });
    }
    let not_held = run(COMPARE_NOT_HELD, &large, &answers.not_held)?;
    drop((bundled_db, large_db));
    drop(cluster);
    Ok(Backend {
        name: "PostgreSQL",
        batches,
        observations,
        database_bytes,
        pairs,
        not_held,
    })
}

/// An extract of `rows` observations in `datasets` files (`estat_synth_NNN.tsv.gz`), made once
/// per size under the target directory.
pub fn extract(target_dir: &Path, rows: u64, datasets: u64) -> Result<Vec<PathBuf>> {
    let dir = (target_dir.join("bench-large")).join(format!("rows-{rows}-datasets-{datasets}"));
    let done = dir.join("complete");
    if !done.exists() {
        println!("generating {rows} rows into {}", dir.display());
        let status = Command::new("python3")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/benches/large/generate.py"
            ))
            .arg("--rows")
            .arg(rows.to_string())
            .arg("--datasets")
            .arg(datasets.to_string())
            .arg("--out")
            .arg(&dir)
            .stderr(Stdio::null())
            .status()?;
        ensure!(status.success(), "benches/large/generate.py failed");
        std::fs::write(&done, "")?;
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<_>>()?;
    files.retain(|f| f.extension().is_some_and(|e| e == "gz"));
    files.sort();
    ensure!(!files.is_empty(), "no files in {}", dir.display());
    Ok(files)
}

/// Where imports go: a data dir, and the PostgreSQL database of a node on one.
struct Node {
    data_dir: PathBuf,
    url: Option<String>,
}

impl Node {
    fn command(&self, ctx: &Ctx, args: &[&str]) -> Command {
        let mut cmd = Command::new(&ctx.regintel);
        cmd.args(args).arg("--data-dir").arg(&self.data_dir);
        if let Some(url) = &self.url {
            cmd.args(["--database-url", url]);
        }
        cmd
    }
}

/// The files imported in [`BATCHES`] commands, one after another, each timed.
fn import_batches(ctx: &Ctx, node: &Node, files: &[PathBuf]) -> Result<Vec<Batch>> {
    let mut batches = Vec::new();
    for chunk in files.chunks(files.len().div_ceil(BATCHES)) {
        let mut cmd = node.command(ctx, &["import", "--json"]);
        cmd.args(chunk);
        let started = Instant::now();
        let finished = run_measured(&mut cmd, BATCH_TIMEOUT)?;
        let seconds = started.elapsed().as_secs_f64();
        let stderr = String::from_utf8_lossy(&finished.stderr);
        ensure!(finished.status.success(), "import failed: {stderr}");
        let report: serde_json::Value = serde_json::from_slice(&finished.stdout)?;
        let rows = report
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|r| r["datasets"].as_array().into_iter().flatten())
            .map(|d| d["rows_in_file"].as_u64().unwrap_or(0))
            .sum();
        let peak_rss_mb = finished.peak_rss_bytes as f64 / 1e6;
        let batch = Batch {
            files: chunk.len(),
            rows,
            seconds,
            peak_rss_mb,
        };
        println!(
            "{} files, {rows} rows in {seconds:.1} s: {:.0} rows/s, peak RSS {peak_rss_mb:.0} MB",
            batch.files,
            batch.rows_per_s()
        );
        batches.push(batch);
    }
    Ok(batches)
}

/// `from` copied into a new directory `to`, with the directories in it (the secrets), each
/// private as a data dir is.
pub(super) fn copy_dir(from: &Path, to: &Path) -> Result<()> {
    std::fs::create_dir_all(to)?;
    std::fs::set_permissions(to, std::os::unix::fs::PermissionsExt::from_mode(0o700))?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let (from, to) = (entry.path(), to.join(entry.file_name()));
        if entry.file_type()?.is_dir() {
            copy_dir(&from, &to)?;
        } else {
            std::fs::copy(&from, &to)?;
        }
    }
    Ok(())
}

/// The observations of the SQLite database in `data_dir`, and its size on disk in bytes.
fn sqlite_size(data_dir: &Path) -> Result<(u64, u64)> {
    let file = data_dir.join("regintel.sqlite");
    let conn = rusqlite::Connection::open(&file)?;
    conn.pragma_update(None, "wal_checkpoint", "TRUNCATE")?;
    let rows: i64 = conn.query_row("SELECT count(*) FROM observations", [], |r| r.get(0))?;
    drop(conn);
    Ok((rows as u64, std::fs::metadata(&file)?.len()))
}

pub fn checks(result: &LargeResult) -> Vec<Check> {
    let mut checks = Vec::new();
    for backend in &result.backends {
        for pair in &backend.pairs {
            let name: &'static str = match (backend.name, pair.large.name) {
                ("SQLite", COMPARE) => "large/bundled, compare uncached, SQLite",
                ("SQLite", PROFILE_NUTS3) => "large/bundled per byte, NUTS-3 profile, SQLite",
                ("SQLite", _) => "large/bundled, citation uncached, SQLite",
                (_, COMPARE) => "large/bundled, compare uncached, PostgreSQL",
                (_, PROFILE_NUTS3) => "large/bundled per byte, NUTS-3 profile, PostgreSQL",
                _ => "large/bundled, citation uncached, PostgreSQL",
            };
            // Comparisons and citations are the same answers over both databases.
            let ratio = match pair.large.name {
                PROFILE_NUTS3 => pair.bytes_ratio(),
                _ => pair.ratio(),
            };
            checks.push(check(name, ratio, true, 0.5, pair.valid()));
        }
    }
    checks
}

pub fn print(result: &LargeResult) {
    let mut out = format!(
        "\n== data a hundred times larger: {} rows more\n",
        result.extract_rows
    );
    for b in &result.backends {
        let _ = writeln!(
            out,
            "{}: {} observations, {:.2} GB, {:.0} bytes per row",
            b.name,
            b.observations,
            b.database_bytes as f64 / 1e9,
            b.bytes_per_row()
        );
        for (i, batch) in b.batches.iter().enumerate() {
            let _ = writeln!(
                out,
                "  import batch {}: {} files, {} rows, {:.1} s, {:.0} rows/s, peak RSS {:.0} MB",
                i + 1,
                batch.files,
                batch.rows,
                batch.seconds,
                batch.rows_per_s(),
                batch.peak_rss_mb
            );
        }
        for p in &b.pairs {
            let _ = writeln!(
                out,
                "  {:<26} bundled {:>8.0} req/s ({} B, {:.0} MB)  large {:>8.0} req/s ({} B, {:.0} MB)  \
                 ratio {:.3}, per byte {:.3}",
                p.large.name,
                p.bundled.req_per_s,
                p.bundled.mean_body_bytes,
                p.bundled.peak_rss_mb,
                p.large.req_per_s,
                p.large.mean_body_bytes,
                p.large.peak_rss_mb,
                p.ratio(),
                p.bytes_ratio()
            );
        }
        // Against the same regions' comparisons over the bundled database, read from memory.
        let n = &b.not_held;
        if let Some(held) = b.pairs.iter().find(|p| p.large.name == COMPARE) {
            let _ = writeln!(
                out,
                "  {:<26} large {:>8.0} req/s ({} B, {:.0} MB), {:.3} of the bundled data's \
                 compare read from memory{}",
                n.name,
                n.req_per_s,
                n.mean_body_bytes,
                n.peak_rss_mb,
                n.req_per_s / held.bundled.req_per_s,
                if n.invalid.is_empty() {
                    ""
                } else {
                    " (INVALID)"
                }
            );
        }
    }
    print!("{out}");
}
