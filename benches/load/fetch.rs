//! Fetching the regional theme (`BENCH_ONLY=fetch`, not part of the full run). A generated set
//! shaped like Eurostat's regional statistics (`BENCH_FETCH_DATASETS` datasets, 400 unless told,
//! of `BENCH_FETCH_ROWS` observations in all, 30 million unless told; made by
//! `benches/large/generate.py` and kept under the target directory) is served by a stand-in for
//! Eurostat's API on loopback (its table of contents lists them all in a regional folder; each
//! data request answers the dataset's compressed TSV; structures are not found, so codes stand
//! for labels) and fetched by one `regintel fetch --all-regional` into a fresh data directory
//! at the default `--memory`: the whole set's time, rows per second, the process's peak RSS,
//! and the disk it takes per row (the database, and the downloads kept for bundles).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, ensure};
use http_body_util::Full;
use hyper::body::Bytes;
use serde::Serialize;

use super::child_memory::run_measured;
use super::{Check, Ctx, check};

const PREFIX: &str = "/eurostat/api/dissemination";
const TIMEOUT: Duration = Duration::from_secs(6 * 3600);
/// What the issue asks of a fetch at the default `--memory`.
const MOST_RSS_MB: f64 = 512.0;

#[derive(Serialize)]
pub struct FetchResult {
    datasets: usize,
    failed: usize,
    rows: u64,
    seconds: f64,
    peak_rss_mb: f64,
    database_bytes: u64,
    downloads_bytes: u64,
}

impl FetchResult {
    fn rows_per_s(&self) -> f64 {
        self.rows as f64 / self.seconds
    }
}

/// The stand-in's table of contents: every file's dataset in one regional folder.
fn toc(codes: &[String]) -> String {
    let mut text = String::from(
        "\"title\"\t\"code\"\t\"type\"\t\"last update of data\"\t\"last table structure change\"\t\"data start\"\t\"data end\"\t\"values\"\n\
         \"Database by themes\"\t\"data\"\t\"folder\"\t\" \"\t\" \"\t\" \"\t\" \"\t\n\
         \"    General and regional statistics\"\t\"general\"\t\"folder\"\t\" \"\t\" \"\t\" \"\t\" \"\t\n\
         \"        Regional statistics by NUTS classification\"\t\"reg\"\t\"folder\"\t\" \"\t\" \"\t\" \"\t\" \"\t\n",
    );
    for code in codes {
        text.push_str(&format!(
            "\"            Generated dataset {code} by NUTS regions\"\t\"{code}\"\t\"dataset\"\t\"28.11.2026\"\t\"28.11.2026\"\t\"1990\"\t\"2024\"\t\n"
        ));
    }
    text
}

/// Serves `files` (by dataset code) and their table of contents on a loopback port, in a
/// thread of its own (the bench's runtime waits on the fetch); its base URL.
fn stand_in(files: Vec<(String, PathBuf)>) -> Result<String> {
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    listener.set_nonblocking(true)?;
    let url = format!("http://{}{PREFIX}", listener.local_addr()?);
    let toc = Bytes::from(toc(&files
        .iter()
        .map(|(c, _)| c.clone())
        .collect::<Vec<_>>()));
    let files: Arc<std::collections::HashMap<String, PathBuf>> = Arc::new(
        (files.into_iter())
            .map(|(code, path)| (code.to_ascii_uppercase(), path))
            .collect(),
    );
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime");
        rt.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let (toc, files) = (toc.clone(), Arc::clone(&files));
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(
                        move |req: hyper::Request<hyper::body::Incoming>| {
                            let path = req.uri().path().strip_prefix(PREFIX).unwrap_or("");
                            let answer = match path.strip_prefix("/sdmx/2.1/data/") {
                                _ if path == "/catalogue/toc/txt" => Some(toc.clone()),
                                Some(code) => (files.get(code))
                                    .and_then(|p| std::fs::read(p).ok())
                                    .map(Bytes::from),
                                None => None,
                            };
                            let response = match answer {
                                Some(body) => hyper::Response::new(Full::new(body)),
                                None => hyper::Response::builder()
                                    .status(404)
                                    .body(Full::new(Bytes::new()))
                                    .expect("a response"),
                            };
                            async move { Ok::<_, std::convert::Infallible>(response) }
                        },
                    );
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
                        .await;
                });
            }
        });
    });
    Ok(url)
}

fn bytes_under(dir: &Path) -> Result<u64> {
    let mut total = 0;
    for entry in std::fs::read_dir(dir)? {
        let meta = entry?.metadata()?;
        if meta.is_file() {
            total += meta.len();
        }
    }
    Ok(total)
}

pub fn run(ctx: &Ctx, target_dir: &Path) -> Result<FetchResult> {
    let datasets = super::env_number("BENCH_FETCH_DATASETS", 400)?;
    let rows = super::env_number("BENCH_FETCH_ROWS", 30_000_000)?;
    let files = super::large::extract(target_dir, rows, datasets)?;
    let coded: Vec<(String, PathBuf)> = (files.iter())
        .map(|f| {
            let name = f.file_name().unwrap_or_default().to_string_lossy();
            let code = name
                .trim_start_matches("estat_")
                .trim_end_matches(".tsv.gz")
                .to_owned();
            (code, f.clone())
        })
        .collect();
    let url = stand_in(coded)?;
    let data_dir = ctx.tmp.join("fetch-data");
    println!(
        "fetching {} generated datasets ({rows} observations) through a stand-in on loopback",
        files.len()
    );
    let started = Instant::now();
    let finished = run_measured(
        Command::new(&ctx.regintel)
            .args(["fetch", "--all-regional", "--json", "--retry-seconds", "1"])
            .args(["--eurostat-url", &url, "--data-dir"])
            .arg(&data_dir),
        TIMEOUT,
    )?;
    let seconds = started.elapsed().as_secs_f64();
    let outcomes: Vec<serde_json::Value> =
        serde_json::from_slice(&finished.stdout).with_context(|| {
            format!(
                "regintel fetch printed no outcomes: {}",
                String::from_utf8_lossy(&finished.stderr)
            )
        })?;
    ensure!(!outcomes.is_empty(), "regintel fetch fetched nothing");
    let failed = outcomes.iter().filter(|o| !o["error"].is_null()).count();
    let rows = outcomes
        .iter()
        .filter_map(|o| o["rows_in_file"].as_u64())
        .sum();
    let db = data_dir.join(regintel::store::DB_FILE);
    let database_bytes = [db.clone(), db.with_extension("sqlite-wal")]
        .iter()
        .filter_map(|p| std::fs::metadata(p).ok())
        .map(|m| m.len())
        .sum();
    Ok(FetchResult {
        datasets: outcomes.len(),
        failed,
        rows,
        seconds,
        peak_rss_mb: finished.peak_rss_bytes as f64 / (1 << 20) as f64,
        database_bytes,
        downloads_bytes: bytes_under(&data_dir.join("eurostat"))?,
    })
}

pub fn print(r: &FetchResult) {
    println!(
        "\nfetch --all-regional: {} datasets ({} failed), {} rows in {:.0} s ({:.1} min): {:.0} rows/s",
        r.datasets,
        r.failed,
        r.rows,
        r.seconds,
        r.seconds / 60.0,
        r.rows_per_s()
    );
    let per_row = |bytes: u64| bytes as f64 / r.rows.max(1) as f64;
    println!(
        "peak RSS {:.0} MB; database {:.0} MB ({:.1} bytes per row); downloads kept {:.0} MB ({:.1} bytes per row)",
        r.peak_rss_mb,
        r.database_bytes as f64 / 1e6,
        per_row(r.database_bytes),
        r.downloads_bytes as f64 / 1e6,
        per_row(r.downloads_bytes)
    );
}

pub fn checks(r: &FetchResult) -> Vec<Check> {
    let valid = r.failed == 0;
    vec![check(
        "fetch peak RSS (MB)",
        r.peak_rss_mb,
        false,
        MOST_RSS_MB,
        valid,
    )]
}
