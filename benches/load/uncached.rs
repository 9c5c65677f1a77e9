//! Answers the cache cannot hide. Each scenario runs on a fresh server started with
//! `--cache-mb 0` (no answer cache), so every request is computed from the database; then the
//! minimal hyper server serves a body of that scenario's median size to the same paths, in the
//! same run, as its ceiling.

use std::fmt::Write as _;

use anyhow::{Context, Result, ensure};
use rusqlite::{Connection, OpenFlags};
use serde::Serialize;

use super::sample::Sample;
use super::{
    Check, Ctx, Scenario, ScenarioResult, Target, check, nuts_regions, run_scenario, spread_ids,
};

const COMPARE: &str = "compare, uncached";
const PROFILE: &str = "profile NUTS 3, uncached";
const CITATION: &str = "citation, uncached";
const SEARCH: &str = "region search, uncached";
const MATRIX: &str = "correlation matrix, uncached";

/// Distinct (three NUTS-2 regions, dataset) comparisons, citations by id, and search prefixes.
const COMPARISONS: usize = 20_000;
const CITATIONS: u64 = 20_000;
const SEARCHES: usize = 5_000;
/// Matrices of these countries' regions at NUTS 2 and 3, each with another `min_n`.
const MATRIX_COUNTRIES: &[&str] = &["DE", "FR", "IT", "ES", "PL"];
const MATRIX_MIN_N: std::ops::RangeInclusive<u32> = 8..=30;

const API: &str = "/api/v1/regional";

#[derive(Serialize)]
pub struct Pair {
    regintel: ScenarioResult,
    minimal: ScenarioResult,
}

impl Pair {
    fn ratio(&self) -> f64 {
        self.regintel.req_per_s / self.minimal.req_per_s
    }

    fn p99_ratio(&self) -> f64 {
        self.regintel.p99_ms / self.minimal.p99_ms
    }

    fn valid(&self) -> bool {
        self.regintel.invalid.is_empty() && self.minimal.invalid.is_empty()
    }
}

pub fn run(ctx: &Ctx, api_key: &str) -> Result<Vec<Pair>> {
    let key = [("X-API-Key", api_key)];
    // Each scenario with the name of its minimal server's run.
    #[rustfmt::skip]
    let scenarios = [
        (Scenario::new(COMPARE, Target::Uncached, &comparisons()?, &[]), "minimal, compare bytes"),
        (Scenario::new(PROFILE, Target::Uncached, &profiles()?, &[]), "minimal, profile bytes"),
        (Scenario::new(CITATION, Target::Uncached, &citations(ctx)?, &[]), "minimal, citation bytes"),
        (Scenario::new(SEARCH, Target::Uncached, &searches()?, &[]), "minimal, search bytes"),
        (Scenario::new(MATRIX, Target::Uncached, &matrices(), &key), "minimal, matrix bytes"),
    ];
    let mut pairs = Vec::new();
    for (scenario, minimal_name) in &scenarios {
        let regintel = run_scenario(ctx, scenario)?;
        let minimal = Scenario::new(
            minimal_name,
            Target::Minimal(regintel.median_body_bytes),
            &scenario.paths,
            &[],
        );
        let minimal = run_scenario(ctx, &minimal)?;
        pairs.push(Pair { regintel, minimal });
    }
    Ok(pairs)
}

/// Comparisons of three distinct NUTS-2 regions in one of the bundled datasets, all distinct.
pub(super) fn comparisons() -> Result<Vec<String>> {
    let regions = nuts_regions(2)?;
    let datasets = bundled_datasets()?;
    let mut sample = Sample(13);
    let mut seen = std::collections::HashSet::new();
    let mut paths = Vec::with_capacity(COMPARISONS);
    while paths.len() < COMPARISONS {
        let mut three: Vec<&str> = Vec::with_capacity(3);
        while three.len() < 3 {
            let code = regions[sample.below(regions.len())].as_str();
            if !three.contains(&code) {
                three.push(code);
            }
        }
        let dataset = &datasets[sample.below(datasets.len())];
        let path = format!(
            "{API}/compare?regions={}&dataset={dataset}",
            three.join(",")
        );
        if seen.insert(path.clone()) {
            paths.push(path);
        }
    }
    Ok(paths)
}

fn bundled_datasets() -> Result<Vec<String>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/catalogue.json");
    let catalogue: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path)?)?;
    let codes: Vec<String> = catalogue["datasets"]
        .as_array()
        .context("catalogue.json: no datasets")?
        .iter()
        .filter_map(|d| d["code"].as_str().map(str::to_owned))
        .collect();
    ensure!(!codes.is_empty(), "{path}: no dataset codes");
    Ok(codes)
}

pub(super) fn profiles() -> Result<Vec<String>> {
    Ok(nuts_regions(3)?
        .iter()
        .map(|code| format!("{API}/regions/{code}/profile"))
        .collect())
}

/// Citations spread over the whole observations table, in a shuffled order.
pub(super) fn citations(ctx: &Ctx) -> Result<Vec<String>> {
    let db = Connection::open_with_flags(
        ctx.data_dir.join("regintel.sqlite"),
        OpenFlags::SQLITE_OPEN_READ_ONLY,
    )?;
    let max: i64 = db.query_row("SELECT max(id) FROM observations", [], |r| r.get(0))?;
    let mut by_id = db.prepare("SELECT citation_id FROM observations WHERE id >= ?1 LIMIT 1")?;
    let mut paths = Vec::new();
    for id in spread_ids(max.try_into()?, CITATIONS) {
        let citation: String = by_id.query_row([i64::try_from(id)?], |r| r.get(0))?;
        paths.push(format!("{API}/citations/{citation}"));
    }
    let mut sample = Sample(17);
    for i in (1..paths.len()).rev() {
        paths.swap(i, sample.below(i + 1));
    }
    Ok(paths)
}

/// Searches for the first 1 to 4 letters of region names and codes (as a user types them).
fn searches() -> Result<Vec<String>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/nuts_regions.csv");
    let mut reader = csv::Reader::from_path(path)?;
    let mut words: Vec<String> = Vec::new();
    for record in reader.records() {
        let record = record?;
        words.push(record[0].to_owned());
        words.push(record[1].to_owned());
    }
    let mut sample = Sample(19);
    let mut paths = Vec::with_capacity(SEARCHES);
    while paths.len() < SEARCHES {
        let word = &words[sample.below(words.len())];
        let letters: String = word
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .take(1 + sample.below(4))
            .collect();
        if !letters.is_empty() {
            paths.push(format!(
                "{API}/regions?q={}&limit=20",
                letters.to_lowercase()
            ));
        }
    }
    Ok(paths)
}

fn matrices() -> Vec<String> {
    let mut paths = Vec::new();
    for country in MATRIX_COUNTRIES {
        for level in [2, 3] {
            for min_n in MATRIX_MIN_N {
                paths.push(format!(
                    "{API}/intelligence/correlations/matrix?nuts_code={country}&level={level}&min_n={min_n}"
                ));
            }
        }
    }
    paths
}

pub fn checks(pairs: &[Pair]) -> Vec<Check> {
    let find = |name: &str| pairs.iter().find(|p| p.regintel.name == name);
    let mut checks = Vec::new();
    for (name, throughput, at_least) in [
        (COMPARE, "uncached compare / minimal req/s", 0.35),
        (PROFILE, "uncached profile / minimal req/s", 0.35),
        (CITATION, "citation / minimal req/s", 0.5),
    ] {
        if let Some(p) = find(name) {
            checks.push(check(throughput, p.ratio(), true, at_least, p.valid()));
        }
    }
    for (name, p99) in [
        (COMPARE, "uncached compare p99 / minimal p99"),
        (PROFILE, "uncached profile p99 / minimal p99"),
        (CITATION, "citation p99 / minimal p99"),
        (SEARCH, "region search p99 / minimal p99"),
    ] {
        if let Some(p) = find(name) {
            checks.push(check(p99, p.p99_ratio(), false, 4.0, p.valid()));
        }
    }
    let peak = pairs
        .iter()
        .map(|p| p.regintel.peak_rss_mb)
        .fold(0.0, f64::max);
    checks.push(check(
        "uncached peak RSS MB",
        peak,
        false,
        100.0,
        pairs.iter().all(Pair::valid),
    ));
    checks
}

pub fn print(pairs: &[Pair]) {
    let mut out = format!(
        "\n{:<30} {:>9} {:>9} {:>8} {:>8} {:>9} {:>8}\n",
        "uncached", "req/s", "minimal", "ratio", "p99 ms", "min p99", "bytes"
    );
    for p in pairs {
        let _ = writeln!(
            out,
            "{:<30} {:>9.0} {:>9.0} {:>8.3} {:>8.2} {:>9.2} {:>8}{}",
            p.regintel.name,
            p.regintel.req_per_s,
            p.minimal.req_per_s,
            p.ratio(),
            p.regintel.p99_ms,
            p.minimal.p99_ms,
            p.regintel.median_body_bytes,
            if p.valid() { "" } else { "  INVALID" }
        );
    }
    print!("{out}");
}
