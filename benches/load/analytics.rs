//! The analytics scenarios: the correlation matrix and a briefing end to end, each against the
//! bare SQLite reads of its own input rows (the same SELECTs through the same views, nothing
//! else) timed in the same run; and the bulk export of a generated dataset against the sqlite3
//! shell writing the same rows as CSV, with the server's peak memory beside that of a small
//! export.

use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{BufWriter, Write as _};
use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use http::Request;
use http::header::{CONTENT_TYPE, HOST};
use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use rusqlite::{Connection, OpenFlags, params};
use serde::Serialize;

use super::{Check, Ctx, HIGH_LIMITS, IMPORT_TIMEOUT, Target, check, logged, peak_rss_mb};

/// Requests timed per analytics scenario (one client, one after the other), and runs of the
/// bare reads; each reports its median.
const RUNS: usize = 15;
const MATRIX_REGION: &str = "DE";
const MATRIX_LEVEL: i64 = 3;
const BRIEFING_REGION: &str = "DE21";
const BRIEFING_TYPES: &[&str] = &["profile_summary", "peer_comparison"];
/// The generated export's rows (`BENCH_EXPORT_ROWS` overrides), and the small one's.
const EXPORT_ROWS: u64 = 10_000_000;
const SMALL_EXPORT_ROWS: u64 = 10_000;
const BIG_DATASET: &str = "bench_big";
const SMALL_DATASET: &str = "bench_small";
/// Time an export may take end to end.
const EXPORT_TIMEOUT: Duration = Duration::from_secs(900);

#[derive(Serialize)]
pub struct Timed {
    name: String,
    end_to_end_ms: f64,
    bare_reads_ms: f64,
    ratio: f64,
    body_bytes: usize,
}

#[derive(Serialize)]
pub struct ExportResult {
    rows: u64,
    import_s: f64,
    regintel_s: f64,
    sqlite3_s: f64,
    /// sqlite3 time / regintel time: above 1, regintel is faster.
    ratio: f64,
    rows_received: u64,
    peak_rss_small_mb: f64,
    peak_rss_big_mb: f64,
}

#[derive(Serialize)]
pub struct AnalyticsResult {
    pub timed: Vec<Timed>,
    pub export: ExportResult,
}

pub fn run(ctx: &Ctx, api_key: &str) -> Result<AnalyticsResult> {
    println!("\n== analytics: matrix and briefings against their bare reads");
    let db = ctx.data_dir.join("regintel.sqlite");
    let server = ctx.start("analytics", &Target::Regintel(HIGH_LIMITS))?;
    let key = ("X-API-Key".to_owned(), api_key.to_owned());
    let mut client = ctx.rt.block_on(Client::connect(server.addr))?;
    let mut timed = Vec::new();

    // Each request names another min_n (all far below the region count), so none is answered
    // from the cache and every one computes the same matrix.
    let mut latencies = Vec::new();
    let mut body_bytes = 0;
    for i in 0..RUNS {
        let path = format!(
            "/api/v1/regional/intelligence/correlations/matrix?nuts_code={MATRIX_REGION}&level={MATRIX_LEVEL}&min_n={}",
            8 + i
        );
        let started = Instant::now();
        let (status, body) = ctx.rt.block_on(client.send("GET", &path, &key, None))?;
        latencies.push(started.elapsed());
        ensure!(
            status == 200,
            "matrix: {status}: {}",
            String::from_utf8_lossy(&body)
        );
        body_bytes = body.len();
    }
    let bare = median_of(RUNS, || matrix_reads(&db))?;
    timed.push(timed_result(
        "matrix DE NUTS 3",
        &latencies,
        bare,
        body_bytes,
    ));

    for kind in BRIEFING_TYPES {
        let body =
            format!(r#"{{"region_nuts_code":"{BRIEFING_REGION}","briefing_type":"{kind}"}}"#);
        let mut latencies = Vec::new();
        let mut answer = Bytes::new();
        for _ in 0..RUNS {
            let started = Instant::now();
            let (status, got) = ctx.rt.block_on(client.send(
                "POST",
                "/api/v1/regional/briefings",
                &key,
                Some(body.clone()),
            ))?;
            latencies.push(started.elapsed());
            ensure!(
                status == 201,
                "briefing: {status}: {}",
                String::from_utf8_lossy(&got)
            );
            answer = got;
        }
        let citations = claim_citations(&answer)?;
        let peers = *kind != "profile_summary";
        let bare = median_of(RUNS, || briefing_reads(&db, peers, &citations))?;
        let name = format!("briefing {BRIEFING_REGION} {kind}");
        timed.push(timed_result(&name, &latencies, bare, answer.len()));
    }
    drop((client, server));

    let export = export_timing(ctx, api_key)?;
    Ok(AnalyticsResult { timed, export })
}

pub fn checks(result: &AnalyticsResult) -> Vec<Check> {
    let mut checks: Vec<Check> = result
        .timed
        .iter()
        .map(|t| {
            let (name, target): (&'static str, f64) = if t.name.starts_with("matrix") {
                ("matrix end to end / bare reads", 3.0)
            } else if t.name.ends_with("profile_summary") {
                ("briefing (summary) / bare reads", 5.0)
            } else {
                ("briefing (peers) / bare reads", 5.0)
            };
            check(name, t.ratio, false, target, true)
        })
        .collect();
    let e = &result.export;
    checks.push(check(
        "export: sqlite3 shell s / regintel s",
        e.ratio,
        true,
        0.8,
        e.rows_received == e.rows,
    ));
    checks.push(check(
        "export: peak RSS big - small, MB",
        e.peak_rss_big_mb - e.peak_rss_small_mb,
        false,
        20.0,
        e.rows_received == e.rows,
    ));
    checks
}

pub fn print(result: &AnalyticsResult) {
    println!(
        "\n{:<34} {:>12} {:>12} {:>7}",
        "analytics", "end to end ms", "bare ms", "ratio"
    );
    for t in &result.timed {
        println!(
            "{:<34} {:>12.2} {:>12.2} {:>7.2}",
            t.name, t.end_to_end_ms, t.bare_reads_ms, t.ratio
        );
    }
    let e = &result.export;
    println!(
        "export of {} rows (imported in {:.1} s): regintel {:.2} s, sqlite3 shell {:.2} s; peak RSS {:.1} MB (a {SMALL_EXPORT_ROWS}-row export: {:.1} MB)",
        e.rows, e.import_s, e.regintel_s, e.sqlite3_s, e.peak_rss_big_mb, e.peak_rss_small_mb
    );
}

fn timed_result(name: &str, latencies: &[Duration], bare: Duration, body_bytes: usize) -> Timed {
    let end_to_end = median(latencies.to_vec());
    Timed {
        name: name.to_owned(),
        end_to_end_ms: end_to_end.as_secs_f64() * 1e3,
        bare_reads_ms: bare.as_secs_f64() * 1e3,
        ratio: end_to_end.as_secs_f64() / bare.as_secs_f64(),
        body_bytes,
    }
}

fn median(mut times: Vec<Duration>) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn median_of(runs: usize, mut f: impl FnMut() -> Result<()>) -> Result<Duration> {
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        f()?;
        times.push(started.elapsed());
    }
    Ok(median(times))
}

/// One client on one kept-alive connection, as an analyst's script would hold it: the requests
/// are timed, not the connection's set-up.
pub(super) struct Client {
    addr: SocketAddr,
    sender: hyper::client::conn::http1::SendRequest<Full<Bytes>>,
}

impl Client {
    pub(super) async fn connect(addr: SocketAddr) -> Result<Client> {
        let stream = tokio::net::TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
        tokio::spawn(async move { conn.await.ok() });
        Ok(Client { addr, sender })
    }

    /// One request, with a JSON body if any: the status and the body.
    pub(super) async fn send(
        &mut self,
        method: &str,
        path: &str,
        header: &(String, String),
        body: Option<String>,
    ) -> Result<(u16, Bytes)> {
        match body {
            Some(body) => {
                self.send_typed(method, path, header, "application/json", body)
                    .await
            }
            None => self.request(method, path, header, None).await,
        }
    }

    /// One request with a body of `content_type`.
    pub(super) async fn send_typed(
        &mut self,
        method: &str,
        path: &str,
        header: &(String, String),
        content_type: &str,
        body: String,
    ) -> Result<(u16, Bytes)> {
        self.request(method, path, header, Some((content_type, body)))
            .await
    }

    async fn request(
        &mut self,
        method: &str,
        path: &str,
        header: &(String, String),
        body: Option<(&str, String)>,
    ) -> Result<(u16, Bytes)> {
        let mut request = Request::builder()
            .method(method)
            .uri(path)
            .header(HOST, self.addr.to_string())
            .header(&header.0, &header.1);
        let body = match body {
            Some((content_type, body)) => {
                request = request.header(CONTENT_TYPE, content_type);
                body
            }
            None => String::new(),
        };
        let request = request.body(Full::new(Bytes::from(body)))?;
        self.sender.ready().await?;
        let response = self.sender.send_request(request).await?;
        let status = response.status().as_u16();
        let body = response.into_body().collect().await?.to_bytes();
        Ok((status, body))
    }
}

// ---------------------------------------------------------------------------------------------
// The bare reads: the statements the server runs for the answer, through the same views (as an
// anonymous connection: the bench account has no private data), every column read.

const DATASETS: &str = "SELECT id, headline_series_id FROM v_datasets
    ORDER BY owner_account_id IS NOT NULL, code";
const REGION: &str = "SELECT code, name_latin, name_national, level, parent_code, country_code,
    classification, in_nuts2021, in_nuts2024, change_2021_2024, recoded_from, recoded_to, citation_id
    FROM v_regions WHERE code = ?1";
const SUBREGIONS: &str = "SELECT code, name_latin, name_national, level, parent_code, country_code,
    classification, in_nuts2021, in_nuts2024, change_2021_2024, recoded_from, recoded_to, citation_id
    FROM v_regions WHERE parent_code = ?1 ORDER BY code";
/// A dataset's series.
const SERIES_OF: &str = "SELECT id, unit, dims FROM v_series WHERE dataset_id = ?1 ORDER BY id";
/// The regions of a level.
const AT_LEVEL: &str = "SELECT code, name_latin, name_national, level, parent_code, country_code,
    classification, in_nuts2021, in_nuts2024, change_2021_2024, recoded_from, recoded_to, citation_id
    FROM v_regions WHERE level = ?1 ORDER BY code";
/// A region's current rows of a series: its block (see `regintel::store::blocks`).
const SERIES_ROWS: &str =
    "SELECT rows FROM v_observation_blocks WHERE series_id = ?2 AND region_code = ?1";
const VALUE_AT: &str = "SELECT o.citation_id, o.series_id, o.period, o.value, o.value_text,
    o.flags, o.conf_status, o.snapshot_id
    FROM v_observations o
    WHERE o.region_code = ?1 AND o.series_id = ?2 AND o.period = ?3
      AND o.superseded_by IS NULL";
const CITATION: &str = "SELECT o.citation_id, o.series_id, o.period, o.value, o.value_text,
    o.flags, o.conf_status, o.snapshot_id, o.region_code, o.src_line, o.superseded_by, d.code,
    d.id, se.unit, se.dims, s.imported_at, s.file_name, s.file_sha256, s.format, s.rows_in_file,
    s.rows_added, s.rows_revised, s.rows_unchanged, d.source_id, s.public_id, s.citation_id
    FROM v_observations o
    JOIN v_snapshots s ON s.id = o.snapshot_id
    JOIN v_series se ON se.id = o.series_id
    JOIN v_datasets d ON d.id = se.dataset_id
    WHERE o.citation_id = ?1";

fn open(db: &Path) -> Result<Connection> {
    let conn = Connection::open_with_flags(db, OpenFlags::SQLITE_OPEN_READ_ONLY)?;
    conn.create_scalar_function(
        "current_account",
        0,
        rusqlite::functions::FunctionFlags::SQLITE_DETERMINISTIC,
        |_| Ok(None::<i64>),
    )?;
    Ok(conn)
}

/// Steps through every row, reading every column as its value.
fn read_all(conn: &Connection, sql: &str, params: impl rusqlite::Params) -> Result<usize> {
    let mut stmt = conn.prepare_cached(sql)?;
    let columns = stmt.column_count();
    let mut rows = stmt.query(params)?;
    let mut n = 0;
    while let Some(row) = rows.next()? {
        for i in 0..columns {
            let _: rusqlite::types::Value = row.get(i)?;
        }
        n += 1;
    }
    Ok(n)
}

fn subregion_codes(conn: &Connection, parent: &str) -> Result<Vec<(String, Option<i64>)>> {
    let mut stmt = conn.prepare_cached(SUBREGIONS)?;
    let rows = stmt.query_map([parent], |r| Ok((r.get(0)?, r.get(3)?)))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

thread_local! {
    static CONNECTIONS: std::cell::RefCell<std::collections::HashMap<std::path::PathBuf, Connection>> =
        Default::default();
}

/// A connection kept open across runs, as the server keeps its pool.
fn with_conn<T>(db: &Path, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
    CONNECTIONS.with(|cell| {
        let mut map = cell.borrow_mut();
        if !map.contains_key(db) {
            map.insert(db.to_owned(), open(db)?);
        }
        f(&map[db])
    })
}

/// A dataset's headline series and its other series: (id, unit, dims).
type SeriesList = Vec<(i64, String, String)>;

/// Every visible dataset with a headline series: its id, its headline series and all its series.
fn datasets_and_series(conn: &Connection) -> Result<Vec<(i64, i64, SeriesList)>> {
    let mut out = Vec::new();
    let mut stmt = conn.prepare_cached(DATASETS)?;
    let datasets: Vec<(i64, Option<i64>)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    let mut series = conn.prepare_cached(SERIES_OF)?;
    for (id, headline) in datasets {
        let Some(headline) = headline else { continue };
        let all: SeriesList = series
            .query_map([id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<Result<_, _>>()?;
        out.push((id, headline, all));
    }
    Ok(out)
}

/// The series of `all` with the dims of `headline` whose unit `rank` ranks first.
fn other_unit(all: &SeriesList, headline: i64, rank: impl Fn(&str) -> Option<u8>) -> Option<i64> {
    let (_, unit, dims) = all.iter().find(|(id, _, _)| *id == headline)?;
    all.iter()
        .filter(|(_, u, d)| d == dims && u != unit)
        .filter_map(|(id, u, _)| Some((rank(u)?, u, *id)))
        .min()
        .map(|(_, _, id)| id)
}

/// The matrix's reads: the region, its subregions level by level, the datasets and their
/// series, and for each subregion the series the matrix takes of each dataset (its headline
/// series; across regions, for a total, the dataset's rate series, or none).
fn matrix_reads(db: &Path) -> Result<()> {
    use regintel::domain::series::{is_total, rate_rank};
    with_conn(db, |conn| {
        read_all(conn, REGION, [MATRIX_REGION])?;
        let mut frontier = vec![MATRIX_REGION.to_owned()];
        for _ in 0..MATRIX_LEVEL {
            let mut next = Vec::new();
            for parent in &frontier {
                next.extend(subregion_codes(conn, parent)?.into_iter().map(|(c, _)| c));
            }
            frontier = next;
        }
        for (_, headline, all) in datasets_and_series(conn)? {
            let unit = all
                .iter()
                .find(|(id, _, _)| *id == headline)
                .map(|(_, u, _)| u);
            let series = match unit {
                Some(unit) if is_total(unit) => other_unit(&all, headline, rate_rank),
                _ => Some(headline),
            };
            if let Some(series) = series {
                for code in &frontier {
                    read_all(conn, SERIES_ROWS, params![code, series])?;
                }
            }
        }
        Ok(())
    })
}

/// The briefing's reads: the region, its parent, country and the EU aggregate, the parent's
/// children and every region of the region's level; each dataset's series for the region and,
/// for a type that sets it against its `peers`, each of those regions' value at the region's
/// latest period (each row once), in purchasing power standards too for euro, and the whole
/// series of each for an index (whose breaks since the base year leave a region out); and the
/// verifier's reading of every row the answer cites.
fn briefing_reads(db: &Path, peers: bool, citations: &[String]) -> Result<()> {
    use regintel::domain::series::{in_euro, index_base, price_adjusted_rank};
    with_conn(db, |conn| {
        let parent = "DE2";
        for code in [BRIEFING_REGION, parent, "DE", "EU27_2020"] {
            read_all(conn, REGION, [code])?;
        }
        let mut around: Vec<String> = Vec::new();
        if peers {
            around.extend(subregion_codes(conn, parent)?.into_iter().map(|(c, _)| c));
            let mut stmt = conn.prepare_cached(AT_LEVEL)?;
            let level: Vec<String> = stmt
                .query_map([2], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            around.extend(level);
            around.extend([parent, "DE", "EU27_2020"].map(str::to_owned));
            around.sort();
            around.dedup();
        }
        for (_, headline, all) in datasets_and_series(conn)? {
            // The region's block, decoded as the server decodes it, and its last period (what
            // the writer asks the peers for).
            let mut stmt = conn.prepare_cached(SERIES_ROWS)?;
            let mut rows = stmt.query(params![BRIEFING_REGION, headline])?;
            let mut latest: Option<String> = None;
            if let Some(row) = rows.next()? {
                let mut block = Vec::new();
                regintel::store::blocks::read(
                    &regintel::store::sql::Row::Sqlite(row),
                    0,
                    headline,
                    &mut block,
                )?;
                latest = block.last().map(|r| r.period.to_string());
            }
            let (Some(period), true) = (latest, peers) else {
                continue;
            };
            let unit = all
                .iter()
                .find(|(id, _, _)| *id == headline)
                .map_or("", |(_, u, _)| u.as_str());
            let mut series = vec![headline];
            if in_euro(unit) {
                series.extend(other_unit(&all, headline, price_adjusted_rank(unit)));
            }
            for id in series {
                for code in &around {
                    read_all(conn, VALUE_AT, params![code, id, period])?;
                    if index_base(unit).is_some() {
                        read_all(conn, SERIES_ROWS, params![code, id])?;
                    }
                }
            }
        }
        for citation in citations {
            read_all(conn, CITATION, [citation])?;
        }
        Ok(())
    })
}

/// Every citation the claims of a briefing answer rest on (their rows, the rows whose flags
/// they carry) and the breaks in series it names.
fn claim_citations(answer: &[u8]) -> Result<Vec<String>> {
    let v: serde_json::Value = serde_json::from_slice(answer)?;
    let mut out = Vec::new();
    for claim in v["data"]["claims"].as_array().context("no claims")? {
        for c in claim["citations"].as_array().into_iter().flatten() {
            out.extend(c.as_str().map(str::to_owned));
        }
        for i in claim["inputs"].as_array().into_iter().flatten() {
            out.extend(i["citation"].as_str().map(str::to_owned));
        }
        for f in claim["flags"].as_array().into_iter().flatten() {
            out.extend(f["citation"].as_str().map(str::to_owned));
        }
    }
    for b in v["data"]["breaks"].as_array().into_iter().flatten() {
        out.extend(b["citation"].as_str().map(str::to_owned));
    }
    out.sort();
    out.dedup();
    Ok(out)
}

// ---------------------------------------------------------------------------------------------
// Export

/// Writes a tidy CSV of `rows` rows for `dataset`: NUTS 3 regions × 50 years × as many
/// `item` codes as it takes.
fn generate(path: &Path, dataset: &str, rows: u64) -> Result<()> {
    let regions = super::nuts_regions(3)?;
    let mut out = BufWriter::new(File::create(path)?);
    writeln!(out, "dataset_code,nuts_code,time,value,unit,item")?;
    let mut written = 0;
    'all: for item in 0.. {
        for region in &regions {
            for year in 1975..2025 {
                if written == rows {
                    break 'all;
                }
                let value = (written * 7919) % 100_000;
                writeln!(
                    out,
                    "{dataset},{region},{year},{}.{},NR,I{item:05}",
                    value / 10,
                    value % 10
                )?;
                written += 1;
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn export_timing(ctx: &Ctx, api_key: &str) -> Result<ExportResult> {
    let rows = super::env_number("BENCH_EXPORT_ROWS", EXPORT_ROWS)?;
    println!("\n== export of {rows} generated rows");
    let big = ctx.tmp.join(format!("{BIG_DATASET}.csv"));
    let small = ctx.tmp.join(format!("{SMALL_DATASET}.csv"));
    generate(&big, BIG_DATASET, rows)?;
    generate(&small, SMALL_DATASET, SMALL_EXPORT_ROWS)?;
    let mut import = Command::new(&ctx.regintel);
    import
        .args(["import", "--data-dir"])
        .arg(&ctx.data_dir)
        .arg(&small)
        .arg(&big);
    let import_s = logged(
        &mut import,
        &ctx.tmp.join("import-export.log"),
        IMPORT_TIMEOUT,
    )?
    .as_secs_f64();
    fs::remove_file(&big)?;

    let key = ("X-API-Key".to_owned(), api_key.to_owned());
    let (_, _, peak_rss_small_mb) = export_once(ctx, SMALL_DATASET, &key)?;
    let (regintel_s, rows_received, peak_rss_big_mb) = export_once(ctx, BIG_DATASET, &key)?;

    let db = ctx.data_dir.join("regintel.sqlite");
    let mut script = String::new();
    writeln!(script, ".mode csv")?;
    writeln!(script, ".headers on")?;
    writeln!(script, ".output /dev/null")?;
    // Ordered by the observation's own series id, the shell walks `observations_current` in
    // order and sorts nothing: its best plan for these rows, not a strawman.
    writeln!(
        script,
        "SELECT d.code, o.region_code, o.period, s.unit, s.dims, o.value_text, o.flags, o.conf_status, o.citation_id
         FROM series s JOIN observations o ON o.series_id = s.id JOIN datasets d ON d.id = s.dataset_id
         WHERE d.code = '{BIG_DATASET}' AND o.superseded_by IS NULL ORDER BY o.series_id, o.region_code, o.period;"
    )?;
    let script_path = ctx.tmp.join("export.sql");
    fs::write(&script_path, script)?;
    let mut shell = Command::new(&ctx.tools.sqlite3);
    shell
        .arg("-readonly")
        .arg(&db)
        .stdin(File::open(&script_path)?);
    let sqlite3_s = logged(
        &mut shell,
        &ctx.tmp.join("sqlite3-export.log"),
        EXPORT_TIMEOUT,
    )?
    .as_secs_f64();
    Ok(ExportResult {
        rows,
        import_s,
        regintel_s,
        sqlite3_s,
        ratio: sqlite3_s / regintel_s,
        rows_received,
        peak_rss_small_mb,
        peak_rss_big_mb,
    })
}

/// One export on a fresh server: seconds from the request to the last byte, the data rows
/// received, and the server's peak RSS afterwards.
fn export_once(ctx: &Ctx, dataset: &str, key: &(String, String)) -> Result<(f64, u64, f64)> {
    let server = ctx.start(&format!("export {dataset}"), &Target::Regintel(HIGH_LIMITS))?;
    let path = format!("/api/v1/regional/export/bulk/{dataset}.csv");
    let started = Instant::now();
    let lines = ctx.rt.block_on(async {
        tokio::time::timeout(EXPORT_TIMEOUT, count_lines(server.addr, &path, key)).await
    })??;
    let seconds = started.elapsed().as_secs_f64();
    let peak = peak_rss_mb(server.proc.child.id())?;
    println!(
        "export {dataset}: {} rows in {seconds:.2} s, peak RSS {peak:.1} MB",
        lines - 1
    );
    Ok((seconds, lines - 1, peak))
}

/// Streams a GET's body, counting its lines without keeping it.
async fn count_lines(addr: SocketAddr, path: &str, key: &(String, String)) -> Result<u64> {
    let stream = tokio::net::TcpStream::connect(addr).await?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(async move { conn.await.ok() });
    let request = Request::get(path)
        .header(HOST, addr.to_string())
        .header(&key.0, &key.1)
        .body(Full::new(Bytes::new()))?;
    let response = sender.send_request(request).await?;
    ensure!(response.status() == 200, "export: {}", response.status());
    let mut body = response.into_body();
    let mut lines = 0u64;
    while let Some(frame) = body.frame().await {
        if let Ok(data) = frame?.into_data() {
            lines += data.iter().filter(|b| **b == b'\n').count() as u64;
        }
    }
    Ok(lines)
}
