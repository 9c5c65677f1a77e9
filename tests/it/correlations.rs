//! The correlation matrix: cross-sections over subregions, time series for a region without
//! any, every cell recomputable from the cited inputs listed beside it.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Value, json};

use crate::support::{Resp, TestAccount, TestServer, Tier};
use regintel::domain::correlations;

const MATRIX: &str = "/api/v1/regional/intelligence/correlations/matrix";

/// Germany's NUTS 1 regions.
const NUTS1_DE: [&str; 16] = [
    "DE1", "DE2", "DE3", "DE4", "DE5", "DE6", "DE7", "DE8", "DE9", "DEA", "DEB", "DEC", "DED",
    "DEE", "DEF", "DEG",
];

async fn matrix(s: &TestServer, who: &TestAccount, query: &str) -> Resp {
    s.client
        .get_with(&format!("{MATRIX}?{query}"), &[who.key_header()])
        .await
}

/// Pearson's r written out plainly, to check the server's cells against (on values divided by
/// their largest magnitude, which leaves r as it is and keeps sums of 1e300s finite).
fn pearson(x: &[f64], y: &[f64]) -> f64 {
    let scaled = |v: &[f64]| -> Vec<f64> {
        let largest = v.iter().fold(0.0_f64, |m, a| m.max(a.abs()));
        v.iter().map(|a| a / largest).collect()
    };
    let (x, y) = (&scaled(x)[..], &scaled(y)[..]);
    let n = x.len() as f64;
    let (mx, my) = (x.iter().sum::<f64>() / n, y.iter().sum::<f64>() / n);
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let sxx: f64 = x.iter().map(|a| (a - mx).powi(2)).sum();
    let syy: f64 = y.iter().map(|b| (b - my).powi(2)).sum();
    sxy / (sxx * syy).sqrt()
}

/// Ranks with ties averaged, for Spearman's ρ.
fn ranks(v: &[f64]) -> Vec<f64> {
    v.iter()
        .map(|a| {
            let below = v.iter().filter(|b| *b < a).count() as f64;
            let equal = v.iter().filter(|b| *b == a).count() as f64;
            below + (equal + 1.0) / 2.0
        })
        .collect()
}

/// Every `ok` cell is r over the pairs of its variables' inputs that share a key (the region for
/// a cross-section, the period for a time series), with n pairs; every input's citation is in
/// `meta.citations`. Returns the number of cells checked.
fn check_cells(v: &Value, key: &str, spearman: bool) -> usize {
    let data = &v["data"];
    let citations = v["meta"]["citations"].as_object().unwrap();
    let mut by_variable: BTreeMap<&str, BTreeMap<&str, f64>> = BTreeMap::new();
    for (id, inputs) in data["inputs"].as_object().unwrap() {
        let mut values = BTreeMap::new();
        for input in inputs.as_array().unwrap() {
            let citation = input["citation"].as_str().unwrap();
            assert!(citations.contains_key(citation), "{citation} not in meta");
            assert_eq!(citations[citation]["region"], input["region"]);
            assert_eq!(citations[citation]["period"], input["period"]);
            let previous = values.insert(
                input[key].as_str().unwrap(),
                input["value"].as_f64().unwrap(),
            );
            assert!(previous.is_none(), "{id}: one input per {key}");
        }
        by_variable.insert(id, values);
    }
    let mut checked = 0;
    for cell in data["cells"].as_array().unwrap() {
        let (x, y) = (
            &by_variable[cell["x"].as_str().unwrap()],
            &by_variable[cell["y"].as_str().unwrap()],
        );
        let (xs, ys): (Vec<f64>, Vec<f64>) = x
            .iter()
            .filter_map(|(k, a)| y.get(k).map(|b| (*a, *b)))
            .unzip();
        assert_eq!(cell["n"], xs.len(), "{cell}");
        if cell["status"] != "ok" {
            assert!(cell.get("r").is_none(), "{cell}");
            continue;
        }
        let r = if spearman {
            pearson(&ranks(&xs), &ranks(&ys))
        } else {
            pearson(&xs, &ys)
        };
        let got = cell["r"].as_f64().unwrap();
        assert!((got - r).abs() < 1e-9, "{cell}: r should be {r}");
        // Leaving out each pair in turn gives the range stated, and the pair named moves r most.
        if let Some(loo) = cell.get("leave_one_out") {
            let keys: Vec<&&str> = x.keys().filter(|k| y.contains_key(*k)).collect();
            let mut without = Vec::new();
            for (skip, key) in keys.iter().enumerate() {
                let keep = |v: &[f64]| -> Vec<f64> {
                    let mut v = v.to_vec();
                    v.remove(skip);
                    if spearman { ranks(&v) } else { v }
                };
                let r_without = pearson(&keep(&xs), &keep(&ys));
                if r_without.is_finite() {
                    without.push((r_without, **key));
                }
            }
            let min = without.iter().map(|w| w.0).fold(f64::INFINITY, f64::min);
            let max = without
                .iter()
                .map(|w| w.0)
                .fold(f64::NEG_INFINITY, f64::max);
            assert!(
                (loo["r_min"].as_f64().unwrap() - min).abs() < 1e-9,
                "{cell}"
            );
            assert!(
                (loo["r_max"].as_f64().unwrap() - max).abs() < 1e-9,
                "{cell}"
            );
            let named = loo["most_influential"].as_str().unwrap();
            let (moved, _) = without.iter().find(|w| w.1 == named).unwrap();
            let most = without.iter().map(|w| (w.0 - r).abs()).fold(0.0, f64::max);
            assert!(((moved - r).abs() - most).abs() < 1e-9, "{cell}: {named}");
            assert!((loo["r_without"].as_f64().unwrap() - moved).abs() < 1e-9);
        }
        let p = cell["p_value"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&p), "{cell}");
        let ci = cell["ci95"].as_array().unwrap();
        let (lo, hi) = (ci[0].as_f64().unwrap(), ci[1].as_f64().unwrap());
        assert!(lo <= got && got <= hi, "{cell}");
        checked += 1;
    }
    checked
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cross_section_over_subregions_recomputes_from_its_cited_inputs() {
    let s = TestServer::start().await;
    let a = s.account("analyst@example.org", Tier::Professional);
    for (query, spearman) in [
        ("nuts_code=DE&level=2", false),
        ("nuts_code=de&level=2&method=spearman", true),
    ] {
        let r = matrix(&s, &a, query).await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let v = r.json();
        let data = &v["data"];
        assert_eq!(data["basis"], "cross_section");
        assert_eq!(data["level"], 2);
        assert_eq!(data["region"]["code"], "DE");
        assert_eq!(
            data["method"],
            if spearman { "spearman" } else { "pearson" }
        );
        assert!(
            check_cells(&v, "region", spearman) >= 20,
            "{}",
            data["cells"]
        );
        // Each variable is taken at one period, the one it names.
        for variable in data["variables"].as_array().unwrap() {
            let period = variable["period"].as_str().unwrap();
            let inputs = data["inputs"][variable["id"].as_str().unwrap()]
                .as_array()
                .unwrap();
            assert!(inputs.iter().all(|i| i["period"] == period), "{variable}");
            assert_eq!(variable["coverage"], inputs.len());
        }
        let used: Vec<&str> = data["regions_used"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap())
            .collect();
        assert!(used.len() >= 30, "{used:?}");
        assert!(
            used.iter().all(|c| c.len() == 4 && c.starts_with("DE")),
            "{used:?}"
        );
        assert!(
            !used.contains(&"DEZZ"),
            "extra-regio is no region to correlate"
        );
        let caveats: BTreeSet<&str> = data["caveats"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["code"].as_str().unwrap())
            .collect();
        for code in [
            "ecological_inference",
            "multiple_comparisons",
            "mixed_nuts_editions",
            "different_periods",
            "variables_left_out",
            "flagged_values_dropped",
            "stale_variable",
            "totals_left_out",
        ] {
            assert!(caveats.contains(code), "{caveats:?}");
        }
        assert!(!caveats.contains("totals_not_rates"), "{caveats:?}");
        let caveat = |code: &str| {
            data["caveats"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["code"] == code)
                .unwrap()
                .clone()
        };
        // Totals only (population, GDP in million euro) are left out of a default matrix.
        let totals = caveat("totals_left_out")["message"].to_string();
        assert!(
            totals.contains("demo_r_pjangrp3") && totals.contains("nama_10r_2gdp"),
            "{totals}"
        );
        assert!(data["inputs"].get("demo_r_pjangrp3").is_none());
        // The p-values are said to be unadjusted for the cells actually computed.
        let ok = data["cells"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| c["status"] == "ok")
            .count();
        let multiple = caveat("multiple_comparisons")["message"].to_string();
        assert!(
            multiple.contains(&format!("the {ok} cells computed")),
            "{multiple}"
        );
        // Household income is of 2013, eleven years before the newest variable.
        let stale = caveat("stale_variable");
        assert_eq!(stale["details"]["newest_year"], 2024, "{stale}");
        assert_eq!(
            stale["details"]["variables"][0]["variable"],
            "nama_10r_2hhinc"
        );
        assert_eq!(stale["details"]["variables"][0]["years_earlier"], 11);
        // Flags take 11 of the unemployment rate's 37 regions: each of its cells says what r
        // would be with them, on that many more pairs.
        let flagged = caveat("flagged_values_dropped");
        let unemployment = flagged["details"]["variables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["variable"] == "tgs00010")
            .expect("the unemployment rate lost a tenth of its regions to flags")
            .clone();
        assert_eq!(
            (
                unemployment["dropped"].as_u64(),
                unemployment["of"].as_u64()
            ),
            (Some(11), Some(37))
        );
        let cells = unemployment["cells"].as_array().unwrap();
        assert!(cells.len() >= 5, "{unemployment}");
        for c in cells {
            let cell = data["cells"]
                .as_array()
                .unwrap()
                .iter()
                .find(|cell| cell["x"] == c["x"] && cell["y"] == c["y"])
                .unwrap();
            assert_eq!(c["r_without"], cell["r"], "{c}");
            assert_eq!(c["n_without"], cell["n"], "{c}");
            assert!(c["n_with"].as_u64() > c["n_without"].as_u64(), "{c}");
        }
        // Berlin and Hamburg alone make density and unemployment correlate linearly.
        if spearman {
            continue;
        }
        let density = data["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["x"] == "demo_r_d3dens" && c["y"] == "tgs00010")
            .unwrap();
        let loo = &density["leave_one_out"];
        assert!(
            ["DE30", "DE60"].contains(&loo["most_influential"].as_str().unwrap()),
            "{density}"
        );
    }
    // Influential regions are named with figures in a caveat.
    let v = matrix(&s, &a, "nuts_code=DE&level=2").await.json();
    let influential = v["data"]["caveats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "influential_points")
        .expect("a region moves some cell by more than 0.2")
        .clone();
    for c in influential["details"]["cells"].as_array().unwrap() {
        let moved = (c["r"].as_f64().unwrap() - c["r_without"].as_f64().unwrap()).abs();
        assert!(moved > 0.2, "{c}");
    }

    // An input's citation resolves to the row it quotes.
    let v = matrix(
        &s,
        &a,
        "nuts_code=DE&level=2&datasets=nama_10r_2gdp,tgs00010",
    )
    .await
    .json();
    let input = &v["data"]["inputs"]["nama_10r_2gdp"][0];
    let cited = s
        .get(&format!(
            "/citations/{}",
            input["citation"].as_str().unwrap()
        ))
        .await
        .json();
    assert_eq!(cited["data"]["value"], input["value"]);
    assert_eq!(cited["data"]["region"]["code"], input["region"]);
    assert_eq!(v["data"]["variables"].as_array().unwrap().len(), 2);
    assert_eq!(v["data"]["cells"].as_array().unwrap().len(), 1);
    // A total named explicitly is kept, and said to be one.
    assert_eq!(v["data"]["variables"][0]["unit"], "MIO_EUR");
    assert!(
        v["data"]["caveats"]
            .to_string()
            .contains("totals_not_rates")
    );
    assert_eq!(check_cells(&v, "region", false), 1);
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_region_without_subregions_is_correlated_over_time() {
    let s = TestServer::start().await;
    let a = s.account("analyst@example.org", Tier::Professional);
    let r = matrix(&s, &a, "nuts_code=DE212").await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let v = r.json();
    let data = &v["data"];
    assert_eq!(data["basis"], "time_series");
    assert_eq!(data["level"], 3);
    assert_eq!(data["regions_used"], json!(["DE212"]));
    assert!(check_cells(&v, "period", false) >= 3, "{}", data["cells"]);
    for inputs in data["inputs"].as_object().unwrap().values() {
        assert!(
            inputs
                .as_array()
                .unwrap()
                .iter()
                .all(|i| i["region"] == "DE212")
        );
    }
    let caveats = data["caveats"].to_string();
    assert!(caveats.contains("trending_series"), "{caveats}");

    // Below min_n a cell says so, with its n and without r.
    let v = matrix(
        &s,
        &a,
        "nuts_code=DE212&datasets=demo_r_pjangrp3,nama_10r_3gdp&min_n=500",
    )
    .await
    .json();
    let cell = &v["data"]["cells"][0];
    assert_eq!(cell["status"], "insufficient_data", "{cell}");
    assert!(cell["n"].as_u64().unwrap() >= 3, "{cell}");
    assert!(
        cell.get("r").is_none() && cell.get("p_value").is_none(),
        "{cell}"
    );
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_parameters_are_refused_naming_the_parameter() {
    let s = TestServer::start().await;
    let a = s.account("analyst@example.org", Tier::Professional);
    for (query, parameter) in [
        ("nuts_code=DE&method=kendall", "method"),
        ("nuts_code=DE&level=0", "level"),
        ("nuts_code=DE&level=four", "level"),
        ("nuts_code=DE21&level=2", "level"),
        ("nuts_code=DE212&level=3", "level"),
        ("nuts_code=DE&min_n=2", "min_n"),
        ("nuts_code=DE&datasets=no_such_dataset", "datasets"),
        ("nuts_code=DE&datasets=tgs00010,tgs00010", "datasets"),
        ("nuts_code=DE&datasets=tgs00010,", "datasets"),
        ("nuts_code=DE&colour=red", "colour"),
        ("level=2", "nuts_code"),
        ("nuts_code=DE&transform=sqrt", "transform"),
        ("nuts_code=DE&period=%402023", "period"),
        ("nuts_code=DE212&period=2021", "period"),
        ("nuts_code=DE&series=tgs00010", "series"),
        ("nuts_code=DE&series=tgs00010:sex", "series"),
        (
            "nuts_code=DE&series=tgs00010:sex=F,tgs00010:sex=M",
            "series",
        ),
        ("nuts_code=DE&series=tgs00010:colour=red", "series"),
        ("nuts_code=DE&series=tgs00010:sex=X", "series"),
        (
            "nuts_code=DE&datasets=tgs00007&series=tgs00010:sex=F",
            "series",
        ),
        ("nuts_code=DE&series=no_such:sex=F", "series"),
    ] {
        let r = matrix(&s, &a, query).await;
        let error = r.error(400, "invalid_parameter");
        assert_eq!(error["details"]["parameter"], parameter, "{query}: {error}");
    }
    let too_many = vec!["tgs00010"; 21].join(",");
    let r = matrix(&s, &a, &format!("nuts_code=DE&datasets={too_many}")).await;
    r.error(400, "invalid_parameter");
    matrix(&s, &a, "nuts_code=XX99")
        .await
        .error(404, "unknown_region");
    // Anonymous callers need a key or a session.
    s.get("/intelligence/correlations/matrix?nuts_code=DE")
        .await
        .error(401, "missing_credential");
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_callers_private_data_takes_part_and_nobody_elses() {
    let s = TestServer::start().await;
    let owner = s.account("owner@example.org", Tier::Professional);
    let other = s.account("other@example.org", Tier::Professional);
    // A score for every German NUTS 1 region.
    let mut csv = String::from("nuts_code,period,value\n");
    for (i, code) in NUTS1_DE.iter().enumerate() {
        csv.push_str(&format!("{code},2022,{}.5\n", 40 + (i * 7) % 23));
    }
    let definition = json!({"code": "my_scores", "title": "Our regional scores", "unit": "PC"});
    s.private_dataset(&owner, definition, &csv).await;

    let v = matrix(&s, &owner, "nuts_code=DE&level=1").await.json();
    let ids: Vec<&str> = v["data"]["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"my_scores"), "{ids:?}");
    assert_eq!(
        v["data"]["inputs"]["my_scores"].as_array().unwrap().len(),
        NUTS1_DE.len()
    );
    assert_eq!(v["meta"]["access"], "account");
    assert!(check_cells(&v, "region", false) > 0);

    let theirs = matrix(&s, &other, "nuts_code=DE&level=1").await;
    assert_eq!(
        theirs.status, 200,
        "a matrix computed, without the owner's data"
    );
    assert!(!String::from_utf8_lossy(&theirs.body).contains("my_scores"));
    let named = matrix(&s, &other, "nuts_code=DE&level=1&datasets=my_scores").await;
    named.error(400, "invalid_parameter");
    s.stop().await.unwrap();
}

/// A matrix keeps at most 20 variables; datasets past that are not examined, and the answer
/// says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn datasets_past_the_variable_limit_are_named_as_not_examined() {
    let s = TestServer::start().await;
    let owner = s.account("owner@example.org", Tier::Institutional);
    // With the bundled datasets, more than 20 that cover the German NUTS 1 regions.
    for n in 0..20 {
        let mut csv = String::from("nuts_code,period,value\n");
        for (i, code) in NUTS1_DE.iter().enumerate() {
            csv.push_str(&format!("{code},2022,{}.5\n", (i * (n + 3)) % 17));
        }
        let code = format!("my_score_{n:02}");
        let definition = json!({"code": code, "title": code, "unit": "PC"});
        s.private_dataset(&owner, definition, &csv).await;
    }
    let v = matrix(&s, &owner, "nuts_code=DE&level=1").await.json();
    assert_eq!(
        v["data"]["variables"].as_array().unwrap().len(),
        correlations::MAX_VARIABLES
    );
    let caveat = v["data"]["caveats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "datasets_not_examined")
        .expect("the caveat names the datasets not examined");
    assert!(
        caveat["message"]
            .as_str()
            .unwrap()
            .contains("name them in `datasets`"),
        "{caveat}"
    );
    s.stop().await.unwrap();
}

/// Left-out regions say why, a variable without variation gives no r, and the datasets named
/// are the variables, in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dropped_regions_and_constant_variables_are_explained() {
    let s = TestServer::start().await;
    let owner = s.account("owner@example.org", Tier::Professional);
    for (code, value) in [("my_flags", None), ("my_constant", Some("7.5"))] {
        let mut csv = String::from("nuts_code,period,value,flags,conf_status\n");
        for (i, region) in NUTS1_DE.iter().enumerate() {
            let (v, flags, conf) = match (value, *region) {
                (Some(v), _) => (v.to_owned(), "", ""),
                (None, "DE1") => (format!("{i}.5"), "u", ""),
                (None, "DE2") => (String::new(), "c", "C"),
                (None, _) => (format!("{}.5", i * 3 % 11), "", ""),
            };
            csv.push_str(&format!("{region},2022,{v},{flags},{conf}\n"));
        }
        let definition = json!({"code": code, "title": code, "unit": "PC"});
        s.private_dataset(&owner, definition, &csv).await;
    }
    let v = matrix(
        &s,
        &owner,
        "nuts_code=DE&level=1&datasets=my_flags,my_constant,demo_r_mlifexp",
    )
    .await
    .json();
    let data = &v["data"];
    let ids: Vec<&str> = data["variables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["my_flags", "my_constant", "demo_r_mlifexp"]);
    let dropped = data["regions_dropped"].as_array().unwrap();
    let reason = |code: &str| {
        dropped
            .iter()
            .find(|d| d["code"] == code && d["variable"] == "my_flags")
            .map(|d| d["reason"].as_str().unwrap().to_owned())
    };
    assert_eq!(reason("DE1").as_deref(), Some("flagged"), "{dropped:?}");
    assert_eq!(
        reason("DE2").as_deref(),
        Some("confidential"),
        "{dropped:?}"
    );
    assert_eq!(
        data["inputs"]["my_flags"].as_array().unwrap().len(),
        NUTS1_DE.len() - 2
    );
    let cell = |x: &str, y: &str| {
        data["cells"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["x"] == x && c["y"] == y)
            .unwrap()
            .clone()
    };
    let constant = cell("my_flags", "my_constant");
    assert_eq!(constant["status"], "constant_input", "{constant}");
    assert!(constant.get("r").is_none());
    assert_eq!(cell("my_flags", "demo_r_mlifexp")["status"], "ok");
    assert_eq!(
        check_cells(&v, "region", false),
        1,
        "my_flags with life expectancy"
    );
    s.stop().await.unwrap();
}

/// Over time, periods are what is left out, each with its reason; a series break and a cell of
/// few pairs are named among the caveats.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_time_series_drops_periods_and_names_its_caveats() {
    let s = TestServer::start().await;
    let owner = s.account("owner@example.org", Tier::Professional);
    let mut csv = String::from("nuts_code,period,value,flags,conf_status\n");
    for year in 2010..=2021 {
        let (value, flags, conf) = match year {
            2012 => ("31.5", "b", ""),
            2015 => ("", "c", "C"),
            2016 => ("30.5", "u", ""),
            _ => ("", "", ""),
        };
        let value = if value.is_empty() && conf.is_empty() {
            format!("{}.5", 20 + (year * 7) % 9)
        } else {
            value.to_owned()
        };
        csv.push_str(&format!("DE212,{year},{value},{flags},{conf}\n"));
    }
    let definition = json!({"code": "my_series", "title": "my_series", "unit": "PC"});
    s.private_dataset(&owner, definition, &csv).await;
    let r = matrix(
        &s,
        &owner,
        "nuts_code=DE212&datasets=my_series,demo_r_pjangrp3&min_n=3",
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let v = r.json();
    let data = &v["data"];
    assert_eq!(data["basis"], "time_series");
    let dropped: Vec<(String, String)> = data["regions_dropped"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["variable"] == "my_series")
        .map(|d| {
            assert_eq!(d["code"], "DE212", "{d}");
            (
                d["period"].as_str().unwrap().to_owned(),
                d["reason"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let dropped: Vec<(&str, &str)> = dropped
        .iter()
        .map(|(p, r)| (p.as_str(), r.as_str()))
        .collect();
    assert_eq!(
        dropped,
        [
            ("2010", "before_break"),
            ("2011", "before_break"),
            ("2012", "break_in_series"),
            ("2015", "confidential"),
            ("2016", "flagged")
        ]
    );
    // Population is published from 2014: 2014 and 2017 to 2021 pair with the series, which is
    // compared only after its break in 2012.
    let cell = &data["cells"][0];
    assert_eq!(
        (cell["status"].as_str(), cell["n"].as_u64()),
        (Some("ok"), Some(6)),
        "{cell}"
    );
    assert_eq!(check_cells(&v, "period", false), 1);
    let cut = data["caveats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "break_in_series")
        .unwrap();
    assert_eq!(
        cut["details"]["variables"],
        json!([{"variable": "my_series", "break_period": "2012", "periods_dropped": 3}])
    );
    let caveats: Vec<&str> = data["caveats"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["code"].as_str().unwrap())
        .collect();
    for code in ["trending_series", "few_pairs", "break_in_series"] {
        assert!(caveats.contains(&code), "{code}: {caveats:?}");
    }
    assert!(
        !caveats.contains(&"multiple_comparisons"),
        "one cell: {caveats:?}"
    );
    s.stop().await.unwrap();
}

/// The caller chooses the period, each variable's series and a log transform; the answer says
/// what it took.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn period_series_and_transform_are_the_callers_to_choose() {
    let s = TestServer::start().await;
    let a = s.account("analyst@example.org", Tier::Professional);
    let v = matrix(
        &s,
        &a,
        "nuts_code=DE&level=2&period=2021&datasets=demo_r_mlifexp,nama_10r_3gdp,tgs00010\
         &series=demo_r_mlifexp:sex=F,nama_10r_3gdp:unit=PPS_EU27_2020_HAB",
    )
    .await;
    assert_eq!(v.status, 200, "{}", String::from_utf8_lossy(&v.body));
    let v = v.json();
    let data = &v["data"];
    assert_eq!(data["period"], "2021");
    for variable in data["variables"].as_array().unwrap() {
        assert_eq!(variable["period"], "2021", "{variable}");
    }
    let variable = |id: &str| {
        data["variables"]
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(variable("demo_r_mlifexp")["series"]["sex"], "F");
    assert_eq!(variable("demo_r_mlifexp")["series_choice"], "requested");
    assert_eq!(variable("nama_10r_3gdp")["unit"], "PPS_EU27_2020_HAB");
    assert_eq!(variable("tgs00010")["series_choice"], "headline");
    // Every input is a row of the series chosen.
    let input = &data["inputs"]["demo_r_mlifexp"][0];
    let cited = s
        .get(&format!(
            "/citations/{}",
            input["citation"].as_str().unwrap()
        ))
        .await
        .json();
    assert_eq!(cited["data"]["dimensions"]["sex"], "F");
    assert_eq!(cited["data"]["period"], "2021");
    assert_eq!(check_cells(&v, "region", false), 3);

    // Logarithms: the cells correlate ln(value); the inputs stay as published.
    let v = matrix(
        &s,
        &a,
        "nuts_code=DE&level=2&datasets=demo_r_d3dens,nama_10r_3gdp&transform=log",
    )
    .await
    .json();
    assert_eq!(v["data"]["transform"], "log");
    let logged = |id: &str| -> BTreeMap<String, f64> {
        v["data"]["inputs"][id]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["region"].as_str().unwrap().to_owned(),
                    i["value"].as_f64().unwrap().ln(),
                )
            })
            .collect()
    };
    let (density, gdp) = (logged("demo_r_d3dens"), logged("nama_10r_3gdp"));
    let (x, y): (Vec<f64>, Vec<f64>) = density
        .iter()
        .filter_map(|(k, a)| gdp.get(k).map(|b| (*a, *b)))
        .unzip();
    let cell = &v["data"]["cells"][0];
    assert_eq!(cell["n"], x.len());
    assert!(
        (cell["r"].as_f64().unwrap() - pearson(&x, &y)).abs() < 1e-9,
        "{cell}"
    );
    s.stop().await.unwrap();
}

/// Values at or below zero have no logarithm: they are left out with that reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_log_transform_leaves_out_values_at_or_below_zero() {
    let s = TestServer::start().await;
    let owner = s.account("owner@example.org", Tier::Professional);
    let mut csv = String::from("nuts_code,period,value\n");
    for (i, code) in NUTS1_DE.iter().enumerate() {
        let value = match i {
            0 => "0".to_owned(),
            1 => "-4.5".to_owned(),
            _ => format!("{}.5", 3 + (i * 5) % 13),
        };
        csv.push_str(&format!("{code},2021,{value}\n"));
    }
    let definition = json!({"code": "my_growth", "title": "Growth", "unit": "PC"});
    s.private_dataset(&owner, definition, &csv).await;
    let v = matrix(
        &s,
        &owner,
        "nuts_code=DE&level=1&datasets=my_growth,demo_r_mlifexp&transform=log",
    )
    .await
    .json();
    let dropped: Vec<(&str, &str)> = v["data"]["regions_dropped"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["variable"] == "my_growth")
        .map(|d| (d["code"].as_str().unwrap(), d["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(dropped, [("DE1", "non_positive"), ("DE2", "non_positive")]);
    assert_eq!(v["data"]["cells"][0]["n"], NUTS1_DE.len() - 2);
    s.stop().await.unwrap();
}

/// Nord-Ovest has four NUTS 2 regions, too few for a cell: the default goes down to its NUTS 3
/// regions and says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_with_fewer_regions_than_min_n_gives_way_to_the_next() {
    let s = TestServer::start().await;
    let a = s.account("analyst@example.org", Tier::Professional);
    let v = matrix(&s, &a, "nuts_code=ITC").await.json();
    let data = &v["data"];
    assert_eq!(data["level"], 3, "{}", data["caveats"]);
    let lowered = data["caveats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "level_lowered")
        .unwrap();
    assert!(
        lowered["message"]
            .as_str()
            .unwrap()
            .starts_with("ITC has 4 regions at NUTS level 2, fewer than min_n = 8"),
        "{lowered}"
    );
    assert!(check_cells(&v, "region", false) > 0);
    // Asked for, the level stands.
    let v = matrix(&s, &a, "nuts_code=ITC&level=2").await.json();
    assert_eq!(v["data"]["level"], 2);
    assert!(!v["data"]["caveats"].to_string().contains("level_lowered"));
    s.stop().await.unwrap();
}

/// Where a dataset offers a rate beside a total, a default matrix takes the rate, and values
/// near the largest a double holds still give the right r.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rates_stand_in_for_totals_and_huge_values_are_correlated() {
    let s = TestServer::start().await;
    let a = s.account("analyst@example.org", Tier::Professional);
    // An operator's dataset whose headline series (its most common unit) is a count.
    let mut csv = String::from("dataset_code,nuts_code,time,unit,value\n");
    for (i, code) in NUTS1_DE.iter().enumerate() {
        csv.push_str(&format!("my_jobs,{code},2021,NR,{}\n", 1000 + i * 37 % 11));
        csv.push_str(&format!("my_jobs,{code},2020,NR,{}\n", 990 + i * 37 % 11));
        csv.push_str(&format!("my_jobs,{code},2021,PC,{}.5\n", 2 + i * 7 % 13));
        // 1e300 and more, as digits: an unscaled sum of squares overflows to infinity.
        csv.push_str(&format!(
            "my_jobs,{code},2021,XX,{}{}\n",
            1 + i * 5 % 9,
            "0".repeat(300)
        ));
    }
    let file = s.dir.path().join("my_jobs.csv");
    std::fs::write(&file, csv).unwrap();
    crate::support::run_ok(&["import", file.to_str().unwrap()], s.dir.path(), None);

    let v = matrix(
        &s,
        &a,
        "nuts_code=DE&level=1&datasets=my_jobs,demo_r_mlifexp",
    )
    .await;
    assert_eq!(v.status, 200, "{}", String::from_utf8_lossy(&v.body));
    let jobs = &v.json()["data"]["variables"][0];
    assert_eq!(jobs["unit"], "PC", "{jobs}");
    assert_eq!(jobs["series_choice"], "rate_instead_of_total");
    // The total, asked for, is what is correlated.
    let v = matrix(
        &s,
        &a,
        "nuts_code=DE&level=1&datasets=my_jobs,demo_r_mlifexp&series=my_jobs:unit=NR",
    )
    .await
    .json();
    assert_eq!(v["data"]["variables"][0]["unit"], "NR");
    assert!(
        v["data"]["caveats"]
            .to_string()
            .contains("totals_not_rates")
    );

    let v = matrix(
        &s,
        &a,
        "nuts_code=DE&level=1&datasets=my_jobs,demo_r_mlifexp&series=my_jobs:unit=XX",
    )
    .await
    .json();
    let cell = &v["data"]["cells"][0];
    assert_eq!(cell["status"], "ok", "{cell}");
    let r = cell["r"].as_f64().unwrap();
    assert!(r != 0.0 && r.is_finite(), "{cell}");
    assert_eq!(check_cells(&v, "region", false), 1);
    s.stop().await.unwrap();
}

/// Portugal's NUTS 1 region holds ten NUTS 2 codes: five of NUTS 2021, seven of 2024. A
/// matrix counts the regions of one edition, and a dataset of 2024 codes is not said to be
/// missing the codes 2024 dropped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regions_are_counted_in_one_nuts_edition() {
    let s = TestServer::start().await;
    let a = s.account("analyst@example.org", Tier::Professional);
    let v = matrix(&s, &a, "nuts_code=PT1&datasets=nama_10r_2gdp,tgs00010")
        .await
        .json();
    let lowered = v["data"]["caveats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["code"] == "level_lowered")
        .map(|c| c["message"].as_str().unwrap().to_owned())
        .unwrap_or_default();
    assert!(
        lowered.starts_with("PT1 has 7 regions at NUTS level 2, fewer than min_n = 8"),
        "{}",
        v["data"]["caveats"]
    );
    let v = matrix(
        &s,
        &a,
        "nuts_code=PT1&level=2&datasets=nama_10r_2gdp,tgs00010",
    )
    .await
    .json();
    let data = &v["data"];
    let missing = |variable: &str| -> BTreeSet<String> {
        data["regions_dropped"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["variable"] == variable && d["reason"] == "missing")
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect()
    };
    // PT16, PT17 and PT18 are of NUTS 2021 only: no dataset of 2024 codes can have them. The
    // dataset's seven regions of 2024 all have a value.
    let gdp = data["variables"]
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["id"] == "nama_10r_2gdp")
        .unwrap();
    assert_eq!(gdp["coverage"], 7, "{gdp}");
    assert!(
        missing("nama_10r_2gdp").is_empty(),
        "{}",
        data["regions_dropped"]
    );
    s.stop().await.unwrap();
}
