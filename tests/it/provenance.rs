//! The promise of the product: every number in `data` has a citation that resolves, through
//! `/citations/{id}`, to a row with the same value (or is derived in code from cited rows).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::support::{BASE, Request, TestServer};

/// Numbers that are structure, not statistics.
const STRUCTURAL: &[&str] = &["level", "rank"];

#[derive(Default)]
struct Walk {
    cited: BTreeMap<String, Option<f64>>,
    derived: Vec<(String, f64, Vec<String>)>,
}

impl Walk {
    fn visit(&mut self, v: &Value, key: &str, context: &str) {
        match v {
            Value::Object(map) => {
                if let Some(cit) = map.get("citation") {
                    let cit = cit
                        .as_str()
                        .unwrap_or_else(|| panic!("{context}: citation not a string"));
                    let value = map
                        .get("value")
                        .unwrap_or_else(|| panic!("{context}: cited object without value"));
                    assert!(value.is_number() || value.is_null(), "{context}: {value}");
                    let previous = self.cited.insert(cit.to_owned(), value.as_f64());
                    if let Some(p) = previous {
                        assert_eq!(p, value.as_f64(), "{context}: one citation, two values");
                    }
                } else if let Some(Value::Array(inputs)) = map.get("citations") {
                    let value = map["value"]
                        .as_f64()
                        .unwrap_or_else(|| panic!("{context}: derived without value"));
                    let kind = map["kind"].as_str().unwrap().to_owned();
                    let inputs = inputs
                        .iter()
                        .map(|c| c.as_str().unwrap().to_owned())
                        .collect();
                    self.derived.push((kind, value, inputs));
                }
                for (k, child) in map {
                    if k == "value"
                        && (map.contains_key("citation") || map.contains_key("citations"))
                    {
                        continue;
                    }
                    self.visit(child, k, context);
                }
            }
            Value::Array(items) => items.iter().for_each(|i| self.visit(i, key, context)),
            Value::Number(_) => {
                assert!(
                    STRUCTURAL.contains(&key),
                    "{context}: uncited number under {key:?}: {v}"
                );
            }
            _ => {}
        }
    }

    /// Every citation used in data is listed in meta.citations.
    fn check_meta(answer: &Value, context: &str) {
        let mut walk = Walk::default();
        walk.visit(&answer["data"], "data", context);
        let listed = answer["meta"]["citations"].as_object().unwrap();
        for cit in walk.cited.keys() {
            assert!(
                listed.contains_key(cit),
                "{context}: {cit} missing from meta.citations"
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_number_in_profiles_and_comparisons_resolves_to_its_row() {
    let s = TestServer::start().await;
    let mut conn = s.client.connect().await;
    let mut get = async |path: String| {
        let r = conn
            .send(Request {
                method: "GET",
                path: &format!("{BASE}{path}"),
                headers: &[],
                body: Vec::new(),
            })
            .await;
        assert_eq!(
            r.status,
            200,
            "{path}: {}",
            String::from_utf8_lossy(&r.body)
        );
        r.json()
    };

    // A spread of regions: every country, a sample of levels 1-3, historical codes, aggregates.
    let mut regions: Vec<String> = Vec::new();
    for (level, step) in [(0, 1), (1, 9), (2, 7), (3, 60)] {
        let list = get(format!("/regions?level={level}&limit=1000")).await;
        regions.extend(
            list["data"]
                .as_array()
                .unwrap()
                .iter()
                .step_by(step)
                .map(|r| r["code"].as_str().unwrap().to_owned()),
        );
    }
    regions.extend(["HR04", "NO01", "EU27_2020", "UKI", "FRX"].map(String::from));

    let mut walk = Walk::default();
    let mut profiles_with_data = 0;
    for code in &regions {
        let answer = get(format!("/regions/{code}/profile")).await;
        Walk::check_meta(&answer, code);
        walk.visit(&answer["data"], "data", code);
        profiles_with_data +=
            usize::from(!answer["data"]["indicators"].as_array().unwrap().is_empty());
    }
    assert!(regions.len() > 150, "{}", regions.len());
    assert!(profiles_with_data > 100, "{profiles_with_data}");

    for (regions, dataset) in [
        ("DE21,FR10,ITC4,ES30,PL91", "nama_10r_3gdp"),
        ("DE,FR,IT", "demo_r_pjangrp3"),
        ("AT11,AT12,AT13", "tgs00010"),
        ("DE21,FR10", "tgs00042"),
        ("BE10,NL32,LU00", "demo_r_mlifexp"),
        ("DK01,SE11", "hlth_rs_physreg"),
        ("DE1,DE2", "nama_10r_2hhinc"),
        ("PT17,ES51", "tgs00109"),
    ] {
        let answer = get(format!("/compare?regions={regions}&dataset={dataset}")).await;
        Walk::check_meta(&answer, regions);
        walk.visit(&answer["data"], "data", regions);
    }
    assert!(walk.cited.len() > 10_000, "{}", walk.cited.len());
    assert!(walk.derived.len() > 5);

    // Resolve every citation and compare values.
    for (cit, value) in &walk.cited {
        let c = get(format!("/citations/{cit}")).await;
        assert_eq!(c["data"]["id"], cit.as_str());
        assert_eq!(c["data"]["value"].as_f64(), *value, "{cit}");
        let text = c["data"]["value_text"].as_str().unwrap();
        match value {
            Some(v) => assert_eq!(text.parse::<f64>().unwrap(), *v, "{cit}"),
            None => assert!(
                text.is_empty() && !c["data"]["flags"].as_array().unwrap().is_empty(),
                "{cit}"
            ),
        }
    }

    // Derived figures are computed from their cited inputs.
    for (kind, value, inputs) in &walk.derived {
        let a = walk.cited[&inputs[0]].unwrap();
        let b = walk.cited[&inputs[1]].unwrap();
        let expected = match kind.as_str() {
            "difference" => a - b,
            "ratio" => a / b,
            other => panic!("unknown derived kind {other}"),
        };
        let tolerance = if kind == "ratio" {
            5e-5
        } else {
            1e-6 * a.abs().max(1.0)
        };
        assert!(
            (value - expected).abs() <= tolerance,
            "{kind} {value} vs {expected}"
        );
    }
}
