//! The endpoints, answering real bundled data.

use serde_json::Value;

use crate::support::{BASE, TestServer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn profile_shows_headline_series_with_cited_latest_values() {
    let s = TestServer::start().await;
    let r = s.get("/regions/DE21/profile").await;
    assert_eq!(r.status, 200);
    let v = r.json();
    let region = &v["data"]["region"];
    assert_eq!(region["name"], "Oberbayern");
    assert_eq!(region["level"], 2);
    assert_eq!(region["parent"]["code"], "DE2");
    assert_eq!(region["parent"]["name"], "Bayern");
    assert!(
        region["children"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "DE212")
    );
    assert_eq!(region["nuts_editions"], serde_json::json!(["2021", "2024"]));

    let indicators = v["data"]["indicators"].as_array().unwrap();
    let population = indicators
        .iter()
        .find(|i| i["dataset"] == "demo_r_pjangrp3")
        .expect("population indicator");
    assert_eq!(population["series"]["sex"], "T");
    assert_eq!(population["series"]["age"], "TOTAL");
    assert_eq!(population["unit"], "NR");
    assert_eq!(population["latest"]["period"], "2022");
    assert_eq!(population["latest"]["value"], 4729243.0);
    assert_eq!(population["history"].as_array().unwrap().len(), 9);

    let gdp = indicators
        .iter()
        .find(|i| i["dataset"] == "nama_10r_3gdp")
        .unwrap();
    assert_eq!(gdp["unit"], "EUR_HAB");
    assert_eq!(gdp["latest"]["value"], 67200.0);
    assert_eq!(gdp["latest"]["flags"][0]["code"], "e");
    assert_eq!(gdp["latest"]["flags"][0]["meaning"], "estimated");

    // meta: envelope fields, snapshots and a citation map covering every citation in data.
    let meta = &v["meta"];
    assert_eq!(meta["api_version"], "v1");
    assert_eq!(meta["access"], "public");
    assert!(meta["request_id"].as_str().unwrap().starts_with("req_"));
    assert!(meta["generated_at"].as_str().unwrap().ends_with('Z'));
    assert!(!meta["snapshots"].as_array().unwrap().is_empty());
    let cit = population["latest"]["citation"].as_str().unwrap();
    assert_eq!(meta["citations"][cit]["dataset"], "demo_r_pjangrp3");
    assert_eq!(meta["citations"][cit]["region"], "DE21");
    assert_eq!(meta["citations"][cit]["period"], "2022");
    assert!(
        meta["citations"][cit]["source_url"]
            .as_str()
            .unwrap()
            .contains("demo_r_pjangrp3")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn profiles_warn_about_codes_outside_current_editions() {
    let s = TestServer::start().await;
    // HR04 is a pre-2021 code seen only in data.
    let v = s.get("/regions/HR04/profile").await.json();
    assert_eq!(v["data"]["region"]["classification"], "historical");
    assert_eq!(v["data"]["region"]["in_classification"], false);
    assert_eq!(v["data"]["warnings"][0]["code"], "historical_code");
    assert!(!v["data"]["indicators"].as_array().unwrap().is_empty());
    // EU27_2020 is an aggregate with a name.
    let v = s.get("/regions/EU27_2020").await.json();
    assert_eq!(v["data"]["classification"], "aggregate");
    assert!(v["data"]["name"].as_str().unwrap().contains("27"));
    // UK codes come from NUTS 2016.
    let v = s.get("/regions/UKI/profile").await.json();
    assert_eq!(
        v["data"]["region"]["nuts_editions"],
        serde_json::json!(["2016"])
    );
    assert_eq!(v["data"]["warnings"][0]["code"], "uk_nuts2016");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn regions_filter_search_and_paginate() {
    let s = TestServer::start().await;
    let v = s.get("/regions?level=1&country=DE").await.json();
    let codes: Vec<&str> = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["code"].as_str().unwrap())
        .collect();
    assert!(
        codes.contains(&"DE2") && codes.contains(&"DEG"),
        "{codes:?}"
    );
    assert!(codes.iter().all(|c| c.len() == 3 && c.starts_with("DE")));
    assert_eq!(v["meta"]["total"], codes.len());

    // Unicode-aware, case-insensitive name search.
    let v = s.get("/regions?q=m%C3%9CNCHEN").await.json();
    let names: Vec<&str> = v["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap())
        .collect();
    assert!(names.iter().any(|n| n.contains("München")), "{names:?}");

    // Cursor pagination visits every region exactly once.
    let mut after: Option<String> = None;
    let mut seen = Vec::new();
    loop {
        let path = match &after {
            Some(a) => format!("/regions?level=2&country=FR&limit=7&cursor={a}"),
            None => "/regions?level=2&country=FR&limit=7".to_owned(),
        };
        let v = s.get(&path).await.json();
        let page = v["data"].as_array().unwrap();
        assert!(page.len() <= 7);
        seen.extend(page.iter().map(|r| r["code"].as_str().unwrap().to_owned()));
        match v["meta"]["next_cursor"].as_str() {
            Some(next) => after = Some(next.to_owned()),
            None => break,
        }
    }
    let total = s.get("/regions?level=2&country=FR&limit=1000").await.json()["meta"]["total"]
        .as_u64()
        .unwrap();
    assert_eq!(seen.len() as u64, total);
    let mut sorted = seen.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted, seen, "pages are in code order without repeats");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compare_uses_the_latest_common_period_and_derives_with_citations() {
    let s = TestServer::start().await;
    let v = s
        .get("/compare?regions=DE21,FR10,ITC4&dataset=nama_10r_3gdp")
        .await
        .json();
    let d = &v["data"];
    assert_eq!(d["period"], "2022");
    assert_eq!(d["period_basis"], "latest_common");
    assert_eq!(d["dataset"]["unit"], "EUR_HAB");
    let regions = d["regions"].as_array().unwrap();
    assert_eq!(regions.len(), 3);
    let value = |i: usize| regions[i]["value"]["value"].as_f64().unwrap();
    assert_eq!(value(0), 67200.0);
    assert_eq!(regions[0]["rank"], 1);
    // Differences and ratios cite both inputs.
    let diff = d["derived"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["kind"] == "difference")
        .unwrap();
    assert_eq!(diff["value"].as_f64().unwrap(), value(1) - value(0));
    assert_eq!(diff["citations"][0], regions[1]["value"]["citation"]);
    assert_eq!(diff["citations"][1], regions[0]["value"]["citation"]);
    // Flagged values are warned about.
    let warnings = d["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w["code"] == "flagged_value"
            && w["message"].as_str().unwrap().contains("estimated"))
    );

    // Dimension filter, requested period, mixed levels.
    let v = s
        .get("/compare?regions=DE,DE21&dataset=demo_r_pjangrp3&sex=F&period=2020")
        .await
        .json();
    let d = &v["data"];
    assert_eq!(d["period_basis"], "requested");
    assert_eq!(d["dataset"]["series"]["sex"], "F");
    assert_eq!(d["regions"][1]["value"]["value"], 2379713.0);
    assert!(
        d["warnings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|w| w["code"] == "mixed_levels")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn compare_warns_about_mixed_editions_and_missing_values() {
    let s = TestServer::start().await;
    // HR04 (historical) and HR03 (NUTS 2021) have no common period in tgs00010.
    let v = s
        .get("/compare?regions=HR03,HR04&dataset=tgs00010")
        .await
        .json();
    let codes = warning_codes(&v);
    assert!(codes.contains(&"mixed_editions"), "{codes:?}");
    let v = s
        .get("/compare?regions=DE21,FR10&dataset=tgs00010&period=1990")
        .await
        .json();
    let codes = warning_codes(&v);
    assert!(codes.contains(&"missing_value"), "{codes:?}");
    assert_eq!(v["data"]["regions"][0]["value"], Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn datasets_list_and_detail_describe_the_catalogue() {
    let s = TestServer::start().await;
    let v = s.get("/datasets").await.json();
    let list = v["data"].as_array().unwrap();
    assert_eq!(list.len(), 13);
    let unemployment = list.iter().find(|d| d["code"] == "tgs00010").unwrap();
    assert_eq!(unemployment["topic"], "labour market");
    assert_eq!(unemployment["headline"]["sex"], "T");
    assert_eq!(unemployment["observations"], 3744);
    assert_eq!(unemployment["periods"]["first"], "2013");
    assert_eq!(unemployment["units"][0]["label"], "Percentage");
    // How old each bundled file is: no later than the commit it was copied from.
    for d in list {
        let obtained = &d["data_obtained"];
        assert_eq!(obtained["basis"], "no_later_than", "{d}");
        assert!(obtained["at"].as_str().unwrap() >= "2017", "{d}");
    }
    let income = list
        .iter()
        .find(|d| d["code"] == "nama_10r_2hhinc")
        .unwrap();
    assert_eq!(
        income["data_obtained"]["at"], "2017-05-02T13:48:16+01:00",
        "{income}"
    );

    let v = s.get("/datasets/nama_10r_3gdp").await.json();
    let d = &v["data"];
    assert_eq!(d["series"].as_array().unwrap().len(), 7);
    assert_eq!(
        d["series"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|x| x["headline"] == true)
            .count(),
        1
    );
    assert_eq!(d["snapshots"][0]["rows_added"], 268494);
    assert_eq!(d["source"]["publisher"], "Eurostat");
    assert!(
        d["source"]["license"]
            .as_str()
            .unwrap()
            .contains("Eurostat")
    );
    assert_eq!(d["source"]["origin"]["repo"], "clementlefevre/Kohesio");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn citations_resolve_to_the_primary_row() {
    let s = TestServer::start().await;
    let v = s.get("/regions/DE21/profile").await.json();
    let population = v["data"]["indicators"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["dataset"] == "demo_r_pjangrp3")
        .unwrap()
        .clone();
    let cit = population["latest"]["citation"].as_str().unwrap();
    let c = s.get(&format!("/citations/{cit}")).await.json();
    let d = &c["data"];
    assert_eq!(d["id"], cit);
    assert_eq!(d["value"], 4729243.0);
    assert_eq!(d["value_text"], "4729243");
    assert_eq!(d["unit"], "NR");
    assert_eq!(d["dimensions"]["sex"], "T");
    assert_eq!(d["location"]["line"], 91344);
    assert_eq!(d["location"]["column"], "the column headed 2022");
    assert_eq!(d["superseded_by"], Value::Null);
    assert_eq!(d["current_citation"], cit);
    assert_eq!(
        d["source"]["origin"]["commit"],
        "f4677daad30d08709dcbac5ff17d600efb914565"
    );
    assert_eq!(d["snapshot"]["file_sha256"].as_str().unwrap().len(), 64);
    // meta names the one snapshot the row is from.
    assert!(d["snapshot"]["id"].as_str().unwrap().starts_with("snp_"));
    assert_eq!(
        c["meta"]["snapshots"],
        serde_json::json!([d["snapshot"]["id"]])
    );
    let how = d["how_to_verify"].as_str().unwrap();
    assert!(
        how.contains("line 91344") && how.contains("4729243"),
        "{how}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn etags_give_304_and_large_answers_are_gzipped() {
    let s = TestServer::start().await;
    let path = format!("{BASE}/regions/DE21/profile");
    let first = s.client.get(&path).await;
    let etag = first.header("etag").unwrap().to_owned();
    assert!(etag.starts_with("W/\""), "{etag}");
    assert_eq!(first.header("cache-control"), Some("public, max-age=300"));
    assert_eq!(
        first.header("vary"),
        Some("Authorization, X-API-Key, Accept-Encoding")
    );

    let again = s.client.get_with(&path, &[("if-none-match", &etag)]).await;
    assert_eq!(again.status, 304);
    assert!(again.body.is_empty());
    assert_eq!(again.header("etag"), Some(etag.as_str()));
    let other = s
        .client
        .get_with(&path, &[("if-none-match", "W/\"g0-0\"")])
        .await;
    assert_eq!(other.status, 200);
    // `*` is not taken as a match: whether the resource exists is known only after the handler.
    let star = s
        .client
        .get_with(&format!("{BASE}/regions/XX99"), &[("if-none-match", "*")])
        .await;
    star.error(404, "unknown_region");

    let zipped = s
        .client
        .get_with(&path, &[("accept-encoding", "gzip")])
        .await;
    assert_eq!(zipped.header("content-encoding"), Some("gzip"));
    let mut plain = Vec::new();
    std::io::Read::read_to_end(
        &mut flate2::read::GzDecoder::new(&zipped.body[..]),
        &mut plain,
    )
    .unwrap();
    let a: Value = serde_json::from_slice(&plain).unwrap();
    assert_eq!(a["data"], first.json()["data"]);
    // Small answers are not compressed.
    let small = s
        .client
        .get_with("/healthz", &[("accept-encoding", "gzip")])
        .await;
    assert_eq!(small.header("content-encoding"), None);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_request_id_and_security_headers() {
    let s = TestServer::start().await;
    for path in [
        format!("{BASE}/regions/DE21"),
        format!("{BASE}/regions/XX99"),
        format!("{BASE}/nope"),
        "/healthz".to_owned(),
        "/readyz".to_owned(),
        format!("{BASE}/openapi.json"),
    ] {
        let r = s.client.get(&path).await;
        assert!(r.header("x-request-id").is_some(), "{path}");
        assert_eq!(
            r.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
        assert!(
            r.header("content-security-policy")
                .unwrap()
                .contains("frame-ancestors 'none'")
        );
        assert!(
            r.header("access-control-expose-headers")
                .unwrap()
                .contains("X-Request-Id")
        );
        assert_eq!(r.header("content-type"), Some("application/json"), "{path}");
    }
    // The data API is open to cross-origin scripts; the account plane is same-origin only.
    let public = s.client.get(&format!("{BASE}/regions/DE21")).await;
    assert_eq!(public.header("access-control-allow-origin"), Some("*"));
    for path in ["/account/api-keys", "/auth/logout"] {
        let r = s.client.get(&format!("{BASE}{path}")).await;
        assert_eq!(r.header("access-control-allow-origin"), None, "{path}");
    }
    // A well-formed inbound request id is echoed; a malformed one is replaced.
    let r = s
        .client
        .get_with(
            &format!("{BASE}/regions/DE21"),
            &[("x-request-id", "trace-42.a_b")],
        )
        .await;
    assert_eq!(r.header("x-request-id"), Some("trace-42.a_b"));
    assert_eq!(r.json()["meta"]["request_id"], "trace-42.a_b");
    let r = s
        .client
        .get_with(
            &format!("{BASE}/regions/DE21"),
            &[("x-request-id", "bad id!")],
        )
        .await;
    assert!(r.header("x-request-id").unwrap().starts_with("req_"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_readiness() {
    let s = TestServer::start().await;
    let r = s.client.get("/healthz").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["data"]["status"], "ok");
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let r = s.client.get("/readyz").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["data"]["datasets"], 13);

    // An empty database is alive but not ready.
    let empty = TestServer::start_with(crate::support::Options {
        empty: true,
        ..Default::default()
    })
    .await;
    assert_eq!(empty.client.get("/healthz").await.status, 200);
    let r = empty.client.get("/readyz").await;
    r.error(503, "unavailable");
    assert_eq!(r.header("retry-after"), Some("5"));
}

/// The `code` of every warning of an answer.
fn warning_codes(answer: &Value) -> Vec<&str> {
    answer["data"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["code"].as_str().unwrap())
        .collect()
}

/// Codes as a user types them: any case is the published code; an unknown one comes with the
/// closest known codes; a long one is quoted short.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn region_codes_in_any_case_and_suggestions_for_unknown_ones() {
    let s = TestServer::start().await;
    let r = s.get("/regions/de21/profile").await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["data"]["region"]["code"], "DE21");
    assert!(
        !r.json()["data"]["indicators"]
            .as_array()
            .unwrap()
            .is_empty(),
        "the figures of DE21"
    );
    assert_eq!(s.get("/regions/dE2").await.json()["data"]["code"], "DE2");
    let cmp = s.get("/compare?regions=de21,fr10&dataset=tgs00010").await;
    assert_eq!(cmp.status, 200);
    let cmp = cmp.json();
    let codes: Vec<&str> = cmp["data"]["regions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["region"]["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["DE21", "FR10"]);
    s.get("/compare?regions=de21,DE21&dataset=tgs00010")
        .await
        .error(400, "invalid_parameter");

    let e = s
        .get("/regions/DE2X/profile")
        .await
        .error(404, "unknown_region");
    let suggestions = e["details"]["suggestions"].as_array().unwrap();
    assert!(suggestions.contains(&"DE21".into()), "{e}");
    assert!(suggestions.len() <= 5);

    let long = "X".repeat(5_000);
    let r = s.get(&format!("/regions/{long}")).await;
    assert_eq!(r.status, 404);
    assert!(r.body.len() < 1_000, "{} bytes", r.body.len());
    assert!(!String::from_utf8_lossy(&r.body).contains(&"X".repeat(65)));
    let r = s.get(&format!("/regions?level={long}")).await;
    assert_eq!(r.status, 400);
    assert!(r.body.len() < 1_000, "{} bytes", r.body.len());
    // A JSON key holding the quote character of the parser's message ends the quote early; the
    // message is bounded all the same.
    let body = format!(r#"{{"email":"a","password":"b","x`{long}":1}}"#);
    let r = s
        .call(
            "POST",
            "/auth/login",
            &[("content-type", "application/json")],
            body.as_bytes(),
        )
        .await;
    r.error(422, "validation_failed");
    assert!(r.body.len() < 2_000, "{} bytes", r.body.len());
}

/// Every list pages alike: walked one item a page by `meta.next_cursor`, each list gives the
/// items one page of all of them gives, in the same order, with `meta.limit` and `meta.total`
/// (deliveries have none) as they say; the last page's `next_cursor` is null.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_list_is_walked_by_one_cursor_convention() {
    use crate::support::Tier;
    let s = TestServer::start().await;
    let a = s.account("lists@example.org", Tier::Institutional);
    let session = format!("Bearer {}", s.login(&a).await);
    let json = ("content-type", "application/json");
    let post = async |path: &str, auth: (&str, &str), body: serde_json::Value| {
        let r = s
            .call("POST", path, &[auth, json], body.to_string().as_bytes())
            .await;
        assert!(
            r.status < 300,
            "{path}: {}",
            String::from_utf8_lossy(&r.body)
        );
        r.json()
    };
    post(
        "/account/api-keys",
        ("authorization", &session),
        serde_json::json!({"name": "second"}),
    )
    .await;
    let mut hooks = Vec::new();
    for path in ["/one", "/two"] {
        let hook = serde_json::json!({"url": format!("http://127.0.0.1:9{path}"), "event_types": ["webhook.test"]});
        hooks.push(
            post("/webhooks", a.key_header(), hook).await["data"]["id"]
                .as_str()
                .unwrap()
                .to_owned(),
        );
    }
    for _ in 0..2 {
        let body =
            serde_json::json!({"region_nuts_code": "DE21", "briefing_type": "profile_summary"});
        post("/briefings", a.key_header(), body).await;
        s.call(
            "POST",
            &format!("/webhooks/{}/test", hooks[0]),
            &[a.key_header()],
            b"",
        )
        .await;
    }
    let key = a.key_header();
    let lists: [(&str, (&str, &str), bool); 6] = [
        ("/regions?level=0", key, true),
        ("/datasets", key, true),
        ("/account/api-keys", ("authorization", &session), true),
        ("/briefings", key, true),
        ("/webhooks", key, true),
        (&format!("/webhooks/{}/deliveries", hooks[0]), key, false),
    ];
    for (list, auth, counted) in lists {
        let join = if list.contains('?') { '&' } else { '?' };
        let all = s
            .call("GET", &format!("{list}{join}limit=100"), &[auth], b"")
            .await
            .json();
        let ids = |page: &Value| -> Vec<String> {
            page["data"]
                .as_array()
                .unwrap_or_else(|| panic!("{list}: {page}"))
                .iter()
                .map(|item| {
                    item.get("id")
                        .or(item.get("code"))
                        .unwrap()
                        .as_str()
                        .unwrap()
                        .to_owned()
                })
                .collect()
        };
        let expected = ids(&all);
        assert!(expected.len() >= 2, "{list}: {all}");
        assert_eq!(all["meta"]["next_cursor"], Value::Null, "{list}");
        assert_eq!(all["meta"]["limit"], 100, "{list}");
        if counted {
            assert_eq!(all["meta"]["total"], expected.len(), "{list}");
        } else {
            assert!(all["meta"].get("total").is_none(), "{list}");
        }
        let mut walked = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let path = match &cursor {
                Some(c) => format!("{list}{join}limit=1&cursor={c}"),
                None => format!("{list}{join}limit=1"),
            };
            let page = s.call("GET", &path, &[auth], b"").await.json();
            assert_eq!(page["meta"]["limit"], 1, "{path}: {page}");
            walked.extend(ids(&page));
            match page["meta"]["next_cursor"].as_str() {
                Some(next) => cursor = Some(next.to_owned()),
                None => break,
            }
            assert!(walked.len() <= expected.len(), "{list}: {walked:?}");
        }
        assert_eq!(walked, expected, "{list}");
        // A cursor that names nothing gives an empty last page (the regions': one past every
        // code).
        let nothing = if list.starts_with("/regions") {
            "ZZZZZ"
        } else {
            "nothing_here"
        };
        let none = s
            .call(
                "GET",
                &format!("{list}{join}cursor={nothing}"),
                &[auth],
                b"",
            )
            .await
            .json();
        assert_eq!(none["data"], serde_json::json!([]), "{list}: {none}");
        assert_eq!(none["meta"]["next_cursor"], Value::Null, "{list}");
    }
}
