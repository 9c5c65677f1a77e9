//! The explorer's pages against the API answers they show, in the same run, each on a fresh
//! server without an answer cache (`Target::Uncached`): a NUTS 3 region's page against its profile
//! JSON (target: at least a third of its rate), the NUTS 3 map of Europe against comparisons of
//! 50 NUTS 3 regions (at least a fifth), and the map's size as a browser receives it (gzip, at
//! most 600 KB).

use std::fmt::Write as _;

use anyhow::Result;
use serde::Serialize;

use super::sample::Sample;
use super::uncached::profiles;
use super::{Check, Ctx, Scenario, ScenarioResult, Target, check, nuts_regions, run_scenario};

const PROFILE: &str = "profile JSON NUTS 3, uncached";
const REGION_PAGE: &str = "region page NUTS 3, uncached";
const COMPARE_50: &str = "compare 50 NUTS 3, uncached";
const MAP_3: &str = "map of NUTS 3, uncached";

/// The dataset the NUTS 3 map and comparisons show: population density, at every level.
const DATASET: &str = "demo_r_d3dens";
const MAP_PERIODS: std::ops::RangeInclusive<u32> = 1990..=2022;
const COMPARISONS: usize = 2_000;
const MAX_MAP_GZIP_BYTES: f64 = 600.0 * 1024.0;

#[derive(Serialize)]
pub struct Explorer {
    runs: Vec<ScenarioResult>,
    /// The NUTS 3 map's bytes gzip-coded, as a browser that takes gzip receives it.
    map_gzip_bytes: usize,
}

pub fn run(ctx: &Ctx) -> Result<Explorer> {
    let profiles = profiles()?;
    let pages: Vec<String> = profiles
        .iter()
        .map(|p| {
            let code = p
                .trim_end_matches("/profile")
                .rsplit('/')
                .next()
                .unwrap_or_default();
            format!("/explore/regions/{code}")
        })
        .collect();
    let maps: Vec<String> = MAP_PERIODS
        .map(|year| format!("/explore/maps/{DATASET}?level=3&period={year}"))
        .collect();
    #[rustfmt::skip]
    let scenarios = [
        Scenario::new(PROFILE, Target::Uncached, &profiles, &[]),
        Scenario::new(REGION_PAGE, Target::Uncached, &pages, &[]),
        Scenario::new(COMPARE_50, Target::Uncached, &comparisons_of_50()?, &[]),
        Scenario::new(MAP_3, Target::Uncached, &maps, &[]),
    ];
    let mut runs = Vec::new();
    for scenario in &scenarios {
        runs.push(run_scenario(ctx, scenario)?);
    }
    Ok(Explorer {
        runs,
        map_gzip_bytes: gzip_size(ctx, &maps[maps.len() - 1])?,
    })
}

/// Comparisons of 50 distinct NUTS 3 regions of the map's dataset.
fn comparisons_of_50() -> Result<Vec<String>> {
    let regions = nuts_regions(3)?;
    let mut sample = Sample(23);
    let mut paths = Vec::with_capacity(COMPARISONS);
    while paths.len() < COMPARISONS {
        let mut fifty: Vec<&str> = Vec::with_capacity(50);
        while fifty.len() < 50 {
            let code = regions[sample.below(regions.len())].as_str();
            if !fifty.contains(&code) {
                fifty.push(code);
            }
        }
        paths.push(format!(
            "/api/v1/regional/compare?regions={}&dataset={DATASET}",
            fifty.join(",")
        ));
    }
    Ok(paths)
}

/// The bytes of `path`'s answer as a client that takes gzip receives them (the body as sent).
fn gzip_size(ctx: &Ctx, path: &str) -> Result<usize> {
    let server = ctx.start("map, gzip", &Target::Uncached)?;
    let gzip = [("Accept-Encoding".to_owned(), "gzip".to_owned())];
    let (status, bytes) = ctx.rt.block_on(super::get(server.addr, path, &gzip))?;
    anyhow::ensure!(status == 200, "{path}: {status}");
    Ok(bytes)
}

fn find<'a>(e: &'a Explorer, name: &str) -> Option<&'a ScenarioResult> {
    e.runs.iter().find(|r| r.name == name)
}

pub fn checks(e: &Explorer) -> Vec<Check> {
    let mut checks = Vec::new();
    for (page, api, what, at_least) in [
        (
            REGION_PAGE,
            PROFILE,
            "region page / profile JSON req/s",
            1.0 / 3.0,
        ),
        (
            MAP_3,
            COMPARE_50,
            "NUTS 3 map / compare of 50 req/s",
            1.0 / 5.0,
        ),
    ] {
        if let (Some(page), Some(api)) = (find(e, page), find(e, api)) {
            let valid = page.invalid.is_empty() && api.invalid.is_empty();
            checks.push(check(
                what,
                page.req_per_s / api.req_per_s,
                true,
                at_least,
                valid,
            ));
        }
    }
    checks.push(check(
        "NUTS 3 map gzip bytes",
        e.map_gzip_bytes as f64,
        false,
        MAX_MAP_GZIP_BYTES,
        true,
    ));
    checks
}

pub fn print(e: &Explorer) {
    let mut out = format!(
        "\n{:<32} {:>9} {:>8} {:>9}\n",
        "explorer", "req/s", "p99 ms", "bytes"
    );
    for r in &e.runs {
        let _ = writeln!(
            out,
            "{:<32} {:>9.0} {:>8.2} {:>9}{}",
            r.name,
            r.req_per_s,
            r.p99_ms,
            r.median_body_bytes,
            if r.invalid.is_empty() {
                ""
            } else {
                "  INVALID"
            }
        );
    }
    let _ = writeln!(out, "NUTS 3 map, gzip: {} bytes", e.map_gzip_bytes);
    print!("{out}");
}
