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
    /// Citations of regions (their classification rows): the region as the answer showed it.
    regions: BTreeMap<String, Value>,
    /// Citations of snapshots: the file's SHA-256 the answer showed.
    snapshots: BTreeMap<String, String>,
}

impl Walk {
    fn visit(&mut self, v: &Value, key: &str, context: &str) {
        match v {
            Value::Object(map) if map.contains_key("citation") && !map.contains_key("value") => {
                // A region (its classification row) or a dataset's snapshot: no figure, a source.
                let Some(cit) = map["citation"].as_str() else {
                    // No source (`citation: null`): nothing vouches for its numbers, so they are
                    // walked as any others, and one that is not structure fails.
                    for (k, child) in map.iter().filter(|(k, _)| *k != "citation") {
                        self.visit(child, k, context);
                    }
                    return;
                };
                if map.contains_key("title") || map.contains_key("file_sha256") {
                    let sha = map
                        .get("file_sha256")
                        .or_else(|| map["latest_snapshot"].get("file_sha256"))
                        .and_then(Value::as_str)
                        .unwrap_or_else(|| panic!("{context}: a snapshot without its file"));
                    self.snapshots.insert(cit.to_owned(), sha.to_owned());
                } else {
                    assert!(map.contains_key("code"), "{context}: {v}");
                    self.regions.insert(cit.to_owned(), v.clone());
                }
                // Its numbers (a level, a snapshot's row counts) are the source's, which the
                // citation resolves to; what it holds may cite more.
                for (k, child) in map {
                    match child {
                        Value::Object(_) | Value::Array(_) => self.visit_sourced(child, k, context),
                        _ => {}
                    }
                }
            }
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

    /// What a region's or a snapshot's citation covers: numbers are its source's; an object
    /// inside with a citation of its own is walked as any other.
    fn visit_sourced(&mut self, v: &Value, key: &str, context: &str) {
        match v {
            Value::Object(map) if map.contains_key("citation") => self.visit(v, key, context),
            Value::Object(map) => {
                for (k, child) in map {
                    self.visit_sourced(child, k, context);
                }
            }
            Value::Array(items) => items
                .iter()
                .for_each(|i| self.visit_sourced(i, key, context)),
            _ => {}
        }
    }

    /// Every citation used in data is listed in meta.citations.
    fn check_meta(answer: &Value, context: &str) {
        let mut walk = Walk::default();
        walk.visit(&answer["data"], "data", context);
        let listed = answer["meta"]["citations"].as_object().unwrap();
        let sources = walk.regions.keys().chain(walk.snapshots.keys());
        for cit in walk.cited.keys().chain(sources) {
            assert!(
                listed.contains_key(cit),
                "{context}: {cit} missing from meta.citations"
            );
        }
    }
}

/// The walk itself: a source object whose citation is null vouches for none of its numbers; one
/// with a citation vouches for its own.
#[test]
fn a_null_citation_leaves_the_numbers_under_it_uncited() {
    let walked = |data: Value| {
        std::panic::catch_unwind(|| Walk::default().visit(&data, "data", "synthetic")).is_ok()
    };
    let region = |citation: Value| serde_json::json!({"region": {"code": "DE21", "level": 2, "citation": citation, "area_km2": 17_530}});
    assert!(walked(region(Value::from("cit_0123"))));
    assert!(
        !walked(region(Value::Null)),
        "a number under a null citation"
    );
    let structure_only =
        serde_json::json!({"region": {"code": "DE21", "level": 2, "citation": null}});
    assert!(walked(structure_only), "structure is no statistic");
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
    // Dataset answers cite their snapshots.
    for path in [
        "/datasets".to_owned(),
        "/datasets/tgs00010".to_owned(),
        "/datasets/nama_10r_3gdp".to_owned(),
    ] {
        let answer = get(path.clone()).await;
        Walk::check_meta(&answer, &path);
        walk.visit(&answer["data"], "data", &path);
    }
    // The region lists and a region on its own cite the classification rows too.
    for path in [
        "/regions?country=DE&level=2".to_owned(),
        "/regions/DE21".to_owned(),
    ] {
        let answer = get(path.clone()).await;
        Walk::check_meta(&answer, &path);
        walk.visit(&answer["data"], "data", &path);
    }
    assert!(walk.cited.len() > 10_000, "{}", walk.cited.len());
    assert!(walk.derived.len() > 5);
    assert!(walk.regions.len() > 150, "{}", walk.regions.len());
    assert!(walk.snapshots.len() >= 13, "{}", walk.snapshots.len());

    // A region's citation resolves to its row of the bundled file, whose columns hold what the
    // answer showed; the file is the one in data/, by its SHA-256.
    let sha256 = |bytes: &[u8]| -> String {
        use sha2::Digest;
        sha2::Sha256::digest(bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect()
    };
    let files = [
        ("nuts_regions.csv", regintel::bundled::NUTS_REGIONS_CSV),
        (
            "catalogue.json",
            regintel::bundled::CATALOGUE_JSON.as_bytes(),
        ),
    ];
    for (cit, shown) in &walk.regions {
        let c = get(format!("/citations/{cit}")).await;
        let data = &c["data"];
        assert_eq!(data["kind"], "classification", "{cit}");
        assert_eq!(data["region"]["code"], shown["code"], "{cit}");
        let (_, bytes) = files
            .iter()
            .find(|(name, _)| data["file"]["name"] == *name)
            .unwrap_or_else(|| panic!("{cit}: {}", data["file"]));
        assert_eq!(data["file"]["sha256"], sha256(bytes), "{cit}");
        let line = std::str::from_utf8(bytes)
            .unwrap()
            .lines()
            .nth(data["file"]["line"].as_u64().unwrap() as usize - 1)
            .unwrap();
        let code = shown["code"].as_str().unwrap();
        assert!(
            line.starts_with(&format!("{code},")) || line.contains(&format!("\"{code}\":")),
            "{cit}: line {line:?}"
        );
        let field = |name: &str| {
            data["fields"]
                .as_array()
                .unwrap()
                .iter()
                .find(|f| f["field"] == name)
                .map(|f| f["value"].clone())
        };
        assert_eq!(field("name"), Some(shown["name"].clone()), "{cit}");
        if let Some(level) = shown.get("level").filter(|l| !l.is_null()) {
            assert_eq!(field("level").as_ref(), Some(level), "{cit}");
            assert!(line.contains(&format!(",{level},")), "{cit}: {line}");
        }
        if let Some(parent) = shown.get("parent_code").filter(|p| !p.is_null()) {
            assert_eq!(field("parent_code").as_ref(), Some(parent), "{cit}");
        }
        for f in data["fields"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| !f["value"].is_null())
        {
            assert!(
                f.get("source").is_some() || f.get("derived").is_some(),
                "{cit}: {f} says where it comes from"
            );
        }
    }
    // A snapshot's citation resolves to the snapshot, its file's SHA-256 and its source.
    for (cit, sha) in &walk.snapshots {
        let c = get(format!("/citations/{cit}")).await;
        assert_eq!(c["data"]["kind"], "snapshot", "{cit}");
        assert_eq!(c["data"]["snapshot"]["file_sha256"], sha.as_str(), "{cit}");
        assert!(c["data"]["source"]["license"].is_string(), "{cit}");
    }

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
