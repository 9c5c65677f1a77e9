//! Briefings: written from cited facts, every number a verified claim, stored per account.

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::support::{Resp, TestAccount, TestServer, Tier};

async fn create(s: &TestServer, who: &TestAccount, region: &str, kind: &str) -> Resp {
    s.call(
        "POST",
        "/briefings",
        &[who.key_header(), ("content-type", "application/json")],
        json!({"region_nuts_code": region, "briefing_type": kind})
            .to_string()
            .as_bytes(),
    )
    .await
}

/// Numbers as a reader sees them: digit runs with separators, not inside a word.
fn numbers_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let inside_word = i > 0 && (chars[i - 1].is_alphanumeric() || chars[i - 1] == '_');
        if chars[i].is_ascii_digit() && !inside_word {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_digit()
                    || (matches!(chars[j], ',' | '.')
                        && chars.get(j + 1).is_some_and(char::is_ascii_digit)))
            {
                j += 1;
            }
            if !chars.get(j).is_some_and(|c| c.is_alphanumeric()) {
                out.push(chars[i..j].iter().collect());
            }
            i = j;
        } else {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            i += 1;
        }
    }
    out
}

/// Every claim against the rows, read through `GET /citations`: a direct claim is its row's
/// value; a derived one is its operation on its inputs, which are their rows' values.
async fn check_claims(s: &TestServer, who: &TestAccount, briefing: &Value) {
    let mut value_of = BTreeMap::new();
    for claim in briefing["claims"].as_array().unwrap() {
        let citations: Vec<String> = match claim["kind"].as_str().unwrap() {
            "direct" => vec![claim["citations"][0].as_str().unwrap().to_owned()],
            _ => claim["inputs"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["citation"].as_str().unwrap().to_owned())
                .collect(),
        };
        for id in citations {
            if value_of.contains_key(&id) {
                continue;
            }
            let r = s
                .client
                .get_with(
                    &format!("/api/v1/regional/citations/{id}"),
                    &[who.key_header()],
                )
                .await;
            assert_eq!(r.status, 200, "{id}");
            value_of.insert(id, r.json()["data"]["value"].as_f64().unwrap());
        }
        let value = claim["value"].as_f64().unwrap();
        let display: f64 = claim["display"]
            .as_str()
            .unwrap()
            .replace(',', "")
            .parse()
            .unwrap();
        assert_eq!(display, value, "{claim}");
        if claim["kind"] == "direct" {
            assert_eq!(
                value_of[claim["citations"][0].as_str().unwrap()],
                value,
                "{claim}"
            );
            continue;
        }
        let inputs: Vec<f64> = claim["inputs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                let v = i["value"].as_f64().unwrap();
                assert_eq!(value_of[i["citation"].as_str().unwrap()], v, "{claim}");
                v
            })
            .collect();
        let round1 = |x: f64| (x * 10.0).round() / 10.0;
        let expected = match claim["operation"].as_str().unwrap() {
            "percent_change" => round1((inputs[1] - inputs[0]).abs() / inputs[0].abs() * 100.0),
            "share" => round1(inputs[1] / inputs[0] * 100.0),
            "difference" => (inputs[1] - inputs[0]).abs(),
            "rank" => 1.0 + inputs[1..].iter().filter(|v| **v > inputs[0]).count() as f64,
            "count" => inputs.len() as f64,
            other => panic!("operation {other}"),
        };
        assert!(
            (expected - value).abs() < 1e-6,
            "{claim}: expected {expected}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_number_in_a_briefing_is_a_claim_that_holds() {
    let s = TestServer::start().await;
    let a = s.account("inst@example.org", Tier::Institutional);
    // Dataset and unit names the text quotes hold digits ("per 100 000 inhabitants") that are
    // names, not figures.
    let mut names: Vec<String> = Vec::new();
    for d in s.get("/datasets").await.json()["data"].as_array().unwrap() {
        names.extend(d["label"].as_str().map(str::to_owned));
        for unit in d["units"].as_array().unwrap() {
            names.extend(unit["label"].as_str().map(str::to_owned));
        }
    }
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    for &kind in regintel::domain::briefings::TYPES {
        let r = create(&s, &a, "de21", kind).await;
        assert_eq!(
            r.status,
            201,
            "{kind}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let v = r.json();
        let b = &v["data"];
        assert_eq!(b["region"]["code"], "DE21");
        assert_eq!(b["briefing_type"], kind);
        assert_eq!(b["verification"]["status"], "verified");
        assert_eq!(b["generator"]["name"], "deterministic");
        assert!(b["id"].as_str().unwrap().starts_with("brf_"));
        let claims = b["claims"].as_array().unwrap();
        assert!(claims.len() >= 4, "{kind}: {b}");
        let displays: Vec<&str> = claims
            .iter()
            .map(|c| c["display"].as_str().unwrap())
            .collect();
        let text: String = b["sections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["text"].as_str().unwrap())
            .collect::<Vec<_>>()
            .join(" ");
        // Every number of the text is a claim's display or a year; every claim is in the text.
        let unnamed = names
            .iter()
            .fold(text.clone(), |t, name| t.replace(name, " "));
        for number in numbers_in(&unnamed) {
            let year =
                number.len() == 4 && (1990..=2030).contains(&number.parse::<u32>().unwrap_or(0));
            assert!(
                displays.contains(&number.as_str()) || year,
                "{kind}: {number} in {text}"
            );
        }
        for display in &displays {
            assert!(text.contains(display), "{kind}: {display} not in {text}");
        }
        // Every cited row, of direct and derived claims alike, is in meta.citations.
        let citations = v["meta"]["citations"].as_object().unwrap();
        let mut cited = 0;
        for claim in claims {
            let direct = claim["citations"].as_array().into_iter().flatten();
            let inputs = claim["inputs"].as_array().into_iter().flatten();
            for c in direct.chain(inputs.map(|i| &i["citation"])) {
                assert!(citations.contains_key(c.as_str().unwrap()), "{c}");
                cited += 1;
            }
        }
        assert!(
            cited > claims.len(),
            "derived claims' inputs are counted too"
        );
        check_claims(&s, &a, b).await;
    }
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_region_with_little_data_gets_a_short_briefing_saying_what_is_missing() {
    let s = TestServer::start().await;
    let a = s.account("inst@example.org", Tier::Institutional);
    let v = create(&s, &a, "EU27_2020", "health").await.json();
    let b = &v["data"];
    assert_eq!(b["claims"], json!([]));
    assert_eq!(b["sections"][0]["heading"], "No data");
    assert!(!b["not_covered"].as_array().unwrap().is_empty(), "{b}");
    assert_eq!(b["verification"]["numbers_checked"], 0);
    s.stop().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn briefings_are_stored_per_account_and_report_later_revisions() {
    let s = TestServer::start().await;
    let owner = s.account("owner@example.org", Tier::Institutional);
    let other = s.account("other@example.org", Tier::Institutional);
    let pro = s.account("pro@example.org", Tier::Professional);
    // The owner's private series for Oberbayern and its siblings, which the briefing cites.
    let first = "nuts_code,period,value\nDE21,2021,50.5\nDE21,2022,52.5\nDE22,2022,40.1\n";
    let definition = json!({"code": "my_index", "title": "Our index", "unit": "PC"});
    s.private_dataset(&owner, definition, first).await;
    let headers = [owner.key_header(), ("content-type", "text/csv")];
    let posted = create(&s, &owner, "DE21", "peer_comparison").await;
    assert_eq!(posted.status, 201);
    let posted = posted.json();
    let id = posted["data"]["id"].as_str().unwrap().to_owned();
    let text = posted["data"].to_string();
    assert!(
        text.contains("Our index") && text.contains("52.5"),
        "{text}"
    );

    let path = format!("/api/v1/regional/briefings/{id}");
    let got = s.client.get_with(&path, &[owner.key_header()]).await.json();
    assert_eq!(got["data"]["sections"], posted["data"]["sections"]);
    assert_eq!(got["data"]["claims"], posted["data"]["claims"]);
    assert_eq!(got["data"]["revisions"]["any_superseded"], false);
    let list = s
        .client
        .get_with("/api/v1/regional/briefings", &[owner.key_header()])
        .await
        .json();
    assert_eq!(list["data"][0]["id"], id.as_str());

    // Another account: 404 like a missing id, and an empty list; a professional one: 403.
    s.client
        .get_with(&path, &[other.key_header()])
        .await
        .error(404, "not_found");
    let missing = path.replace(&id[4..], "00000000000000000000000000");
    s.client
        .get_with(&missing, &[owner.key_header()])
        .await
        .error(404, "not_found");
    let theirs = s
        .client
        .get_with("/api/v1/regional/briefings", &[other.key_header()])
        .await
        .json();
    assert_eq!(theirs["data"], json!([]));
    s.client
        .get_with(&path, &[pro.key_header()])
        .await
        .error(403, "insufficient_tier");

    // A revision of a cited row shows, with the row that stands now.
    let revised = "nuts_code,period,value\nDE21,2021,50.5\nDE21,2022,53.0\nDE22,2022,40.1\n";
    let put = s.call(
        "PUT",
        "/datasets/my_index/data",
        &headers,
        revised.as_bytes(),
    );
    assert_eq!(put.await.status, 200);
    let got = s.client.get_with(&path, &[owner.key_header()]).await.json();
    let revisions = &got["data"]["revisions"];
    assert_eq!(revisions["any_superseded"], true, "{revisions}");
    let superseded = revisions["superseded"].as_array().unwrap();
    assert_eq!(superseded.len(), 1, "{revisions}");
    let current = superseded[0]["current_citation"].as_str().unwrap();
    let row = s
        .client
        .get_with(
            &format!("/api/v1/regional/citations/{current}"),
            &[owner.key_header()],
        )
        .await
        .json();
    assert_eq!(row["data"]["value"], 53.0);
    // The stored text is unchanged: it says what the data said when it was written.
    assert_eq!(got["data"]["sections"], posted["data"]["sections"]);
    s.stop().await.unwrap();
}

/// An account keeps at most 10,000 briefings; the next is refused and nothing is written.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_keeps_a_bounded_number_of_briefings() {
    let s = TestServer::start().await;
    let a = s.account("inst@example.org", Tier::Institutional);
    let store = regintel::store::Store::open(s.dir.path(), 1).unwrap();
    let admin = store.admin().unwrap();
    let kept = regintel::store::briefings::MAX_PER_ACCOUNT;
    admin
        .execute(
            "WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
             INSERT INTO briefings (public_id, account_id, region_code, briefing_type, title, created_at, body_json)
             SELECT 'brf_filler' || i, ?1, 'DE21', 'economy', 'filler', 0, '{}' FROM n",
            [a.id, kept],
        )
        .unwrap();
    let r = create(&s, &a, "DE21", "economy").await;
    r.error(409, "conflict");
    let count: i64 = admin
        .query_row(
            "SELECT count(*) FROM briefings WHERE account_id = ?1",
            [a.id],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(count, kept);
    s.stop().await.unwrap();
}

/// A stand-in for a model server speaking OpenAI's chat completions. By model name: `faithful`
/// rewrites the fact sheet's sections without adding a number, `inventive` adds one, `broken`
/// answers 500, `silent` never answers.
/// Holds the `gated` model's answer: `arrived` is signalled when its request comes, and it
/// answers faithfully once `release` is.
#[derive(Default)]
struct Gate {
    arrived: tokio::sync::Notify,
    release: tokio::sync::Notify,
}

async fn fake_model_server(gate: std::sync::Arc<Gate>) -> std::net::SocketAddr {
    use http_body_util::{BodyExt, Full};
    use hyper::body::Bytes;
    use hyper_util::rt::TokioIo;

    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else {
                return;
            };
            let gate = gate.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(
                    move |req: hyper::Request<hyper::body::Incoming>| {
                        let gate = gate.clone();
                        async move {
                            let body = req.into_body().collect().await.unwrap().to_bytes();
                            let chat: Value = serde_json::from_slice(&body).unwrap();
                            let facts: Value = serde_json::from_str(
                                chat["messages"][1]["content"].as_str().unwrap(),
                            )
                            .unwrap();
                            let mut sections = facts["fact_sheet"].as_array().unwrap().clone();
                            for s in &mut sections {
                                s["text"] =
                                    json!(format!("In brief: {}", s["text"].as_str().unwrap()));
                            }
                            let status = match chat["model"].as_str().unwrap() {
                                "inventive" => {
                                    let text = sections[0]["text"].as_str().unwrap().to_owned();
                                    sections[0]["text"] =
                                        json!(format!("{text} It has 12 universities."));
                                    200
                                }
                                "broken" => 500,
                                "silent" => {
                                    tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
                                    200
                                }
                                "gated" => {
                                    gate.arrived.notify_one();
                                    gate.release.notified().await;
                                    200
                                }
                                _ => 200,
                            };
                            let content = json!({"sections": sections}).to_string();
                            let answer = json!({"choices": [{"message": {"role": "assistant", "content": content}}]});
                            Ok::<_, std::convert::Infallible>(
                                hyper::Response::builder()
                                    .status(status)
                                    .header("content-type", "application/json")
                                    .body(Full::new(Bytes::from(answer.to_string())))
                                    .unwrap(),
                            )
                        }
                    },
                );
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), service)
                    .await;
            });
        }
    });
    addr
}

async fn with_model(model_addr: std::net::SocketAddr, model: &str) -> TestServer {
    TestServer::start_with(crate::support::Options {
        llm: Some(regintel::config::LlmConfig {
            url: format!("http://{model_addr}/v1/chat/completions")
                .parse()
                .unwrap(),
            model: model.into(),
            // Long enough for any answer that comes however loaded the machine; `silent` sends
            // none, so its outcome does not depend on timing either.
            timeout: std::time::Duration::from_secs(if model == "silent" { 2 } else { 60 }),
            api_key: None,
        }),
        ..Default::default()
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_models_text_is_used_only_when_every_number_in_it_is_a_claim() {
    let model_addr = fake_model_server(Default::default()).await;

    let s = with_model(model_addr, "faithful").await;
    let a = s.account("inst@example.org", Tier::Institutional);
    let r = create(&s, &a, "DE21", "economy").await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let b = r.json()["data"].clone();
    assert_eq!(b["generator"]["name"], "model", "{}", b["generator"]);
    assert_eq!(b["generator"]["model"], "faithful");
    assert!(b["generator"].get("fallback_reason").is_none());
    assert!(
        b["sections"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("In brief: ")
    );
    assert_eq!(b["verification"]["status"], "verified");
    check_claims(&s, &a, &b).await;
    // Stored as shown.
    let id = b["id"].as_str().unwrap();
    let got = s
        .client
        .get_with(
            &format!("/api/v1/regional/briefings/{id}"),
            &[a.key_header()],
        )
        .await
        .json();
    assert_eq!(got["data"]["sections"], b["sections"]);
    s.stop().await.unwrap();

    for (model, reason) in [
        ("inventive", "the number 12 in the text is not a claim"),
        ("broken", "500"),
        ("silent", "no answer within 2 s"),
    ] {
        let s = with_model(model_addr, model).await;
        let a = s.account("inst@example.org", Tier::Institutional);
        let r = create(&s, &a, "DE21", "economy").await;
        assert_eq!(
            r.status,
            201,
            "{model}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let b = r.json()["data"].clone();
        assert_eq!(b["generator"]["name"], "deterministic", "{model}");
        assert_eq!(b["generator"]["model"], model);
        let why = b["generator"]["fallback_reason"].as_str().unwrap();
        assert!(why.contains(reason), "{model}: {why}");
        let text = b["sections"].to_string();
        assert!(
            !text.contains("In brief") && !text.contains("12 universities"),
            "{text}"
        );
        check_claims(&s, &a, &b).await;
        s.stop().await.unwrap();
    }
}

/// Periods other than years (quarters here) are written and verified like years, and the list
/// pages with `limit` and `before`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn quarterly_data_is_briefed_and_the_list_pages() {
    let s = TestServer::start().await;
    let a = s.account("inst@example.org", Tier::Institutional);
    let csv =
        "nuts_code,period,value,flags\nDE21,2023-Q4,-1.5,\nDE21,2024-Q1,2.5,p\nDE22,2024-Q1,0.5,\n";
    let definition = json!({"code": "my_quarters", "title": "Orders received", "unit": "PCH_PRE"});
    s.private_dataset(&a, definition, csv).await;
    let mut ids = Vec::new();
    for kind in ["profile_summary", "peer_comparison", "economy"] {
        let r = create(&s, &a, "DE21", kind).await;
        assert_eq!(
            r.status,
            201,
            "{kind}: {}",
            String::from_utf8_lossy(&r.body)
        );
        let b = r.json()["data"].clone();
        ids.push(b["id"].as_str().unwrap().to_owned());
        if kind == "economy" {
            continue;
        }
        let text = b["sections"].to_string();
        // A growth rate changes by percentage points, and a flagged value says so.
        assert!(
            text.contains("2.5 (") && text.contains("in 2024-Q1, provisional"),
            "{text}"
        );
        assert!(
            text.contains("4.0 percentage points more than in 2023-Q4"),
            "{text}"
        );
        check_claims(&s, &a, &b).await;
    }
    let page = |query: String| {
        let s = &s;
        let a = &a;
        async move {
            s.client
                .get_with(
                    &format!("/api/v1/regional/briefings{query}"),
                    &[a.key_header()],
                )
                .await
                .json()["data"]
                .clone()
        }
    };
    let first = page("?limit=2".into()).await;
    let listed: Vec<&str> = first
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed, [ids[2].as_str(), ids[1].as_str()], "newest first");
    let rest = page(format!("?limit=2&before={}", ids[1])).await;
    assert_eq!(rest.as_array().unwrap().len(), 1);
    assert_eq!(rest[0]["id"], ids[0].as_str());
    assert_eq!(rest[0]["title"], "Profile summary: Oberbayern (DE21)");
    s.stop().await.unwrap();
}

/// While one briefing of an account waits for the model, the account's next one is written
/// without it and says the model was busy; the first still gets the model's text.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_briefing_while_the_model_writes_is_written_without_it() {
    assert!(
        regintel::state::blocking_permits() >= 2,
        "two briefings at once need two blocking permits (cores)"
    );
    let gate = std::sync::Arc::new(Gate::default());
    let model_addr = fake_model_server(gate.clone()).await;
    let s = std::sync::Arc::new(with_model(model_addr, "gated").await);
    let a = std::sync::Arc::new(s.account("inst@example.org", Tier::Institutional));
    let first = {
        let (s, a) = (s.clone(), a.clone());
        tokio::spawn(async move { create(&s, &a, "DE21", "economy").await })
    };
    // The first holds the account's model slot while the model writes.
    gate.arrived.notified().await;
    let second = create(&s, &a, "DE21", "economy").await;
    assert_eq!(
        second.status,
        201,
        "{}",
        String::from_utf8_lossy(&second.body)
    );
    let generator = second.json()["data"]["generator"].clone();
    assert_eq!(generator["name"], "deterministic", "{generator}");
    assert!(
        generator["fallback_reason"]
            .as_str()
            .unwrap()
            .contains("busy"),
        "{generator}"
    );
    gate.release.notify_one();
    let first = first.await.unwrap();
    assert_eq!(first.status, 201);
    assert_eq!(first.json()["data"]["generator"]["name"], "model");
}
