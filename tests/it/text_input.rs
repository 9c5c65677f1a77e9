//! Text the database cannot store, sent everywhere: a NUL or another control character in every
//! path parameter and query parameter of every route (explorer pages included), in every string
//! of every JSON body, invalid UTF-8 and lone surrogates in JSON, a NUL in an uploaded cell, and
//! the same in every string argument of every MCP tool. No answer may be a 5xx, each is refused
//! where it should be (a path names no object: 404; a parameter or body: 400), and SQLite and
//! PostgreSQL answer every probe alike.

use std::collections::BTreeMap;

use regintel::http::routes::{Access, BodyKind, ROUTES, Route};
use serde_json::{Value, json};

use crate::support::{BASE, Options, Request, TestServer, Tier};

/// Control characters as a query or path carries them, percent-encoded: NUL, ESC, a C1
/// character (U+0085).
const ENCODED: [&str; 3] = ["x%00", "%1B%5B2J", "a%C2%85"];

/// The same in JSON: escaped control characters, and a lone surrogate.
const IN_JSON: [&str; 4] = [r"x\u0000", r"\u001b[2J", r"a\u0085", r"\ud800"];

/// Query parameters of the pages at the host's root, which the OpenAPI document leaves out.
const PAGE_PARAMETERS: [&str; 8] = [
    "regions",
    "dataset",
    "datasets",
    "period",
    "level",
    "nuts_code",
    "q",
    "country",
];

/// A path parameter's value that names an object of the right shape.
fn plausible(parameter: &str) -> &'static str {
    match parameter {
        "region_code" => "DE21",
        "dataset_code" => "nama_10r_3gdp",
        "citation_id" => "cit_aaaaaaaaaaaaaaaaaaaa",
        "key_id" => "abcdefgh",
        "webhook_id" => "wh_aaaaaaaaaaaaaaaaaaaa",
        "delivery_id" => "dlv_aaaaaaaaaaaaaaaaaaaa",
        "briefing_id" => "brf_aaaaaaaaaaaaaaaaaaaa",
        other => panic!("no plausible value for the path parameter {other}"),
    }
}

/// `route`'s path with each parameter given by `value`.
fn path_of(route: &Route, value: &dyn Fn(&str) -> String) -> String {
    let mut path = String::new();
    for (i, segment) in route.path.split('/').enumerate() {
        if i > 0 {
            path.push('/');
        }
        match segment.strip_prefix('{').and_then(|s| s.split_once('}')) {
            Some((name, suffix)) => {
                path.push_str(&value(name));
                path.push_str(suffix);
            }
            None => path.push_str(segment),
        }
    }
    match route.root {
        true => path,
        false => format!("{BASE}{path}"),
    }
}

/// `#/components/...` references resolved in `doc`.
fn resolved<'a>(doc: &'a Value, value: &'a Value) -> &'a Value {
    match value["$ref"].as_str() {
        Some(reference) => reference
            .trim_start_matches("#/")
            .split('/')
            .fold(doc, |at, part| &at[part]),
        None => value,
    }
}

/// The query parameters and the JSON body's properties the OpenAPI document gives `route`.
fn documented(doc: &Value, route: &Route) -> (Vec<String>, Vec<String>) {
    let operation = &doc["paths"][route.path][route.method.as_str().to_lowercase()];
    let query = (operation["parameters"].as_array().into_iter().flatten())
        .map(|p| resolved(doc, p))
        .filter(|p| p["in"] == "query")
        .filter_map(|p| p["name"].as_str().map(str::to_owned))
        .collect();
    let schema = resolved(
        doc,
        &operation["requestBody"]["content"]["application/json"]["schema"],
    );
    let properties = (schema["properties"].as_object().into_iter().flatten())
        .map(|(name, _)| name.clone())
        .collect();
    (query, properties)
}

/// One request and what it must be answered with, if the place it hits is known.
struct Probe {
    what: String,
    method: &'static str,
    path: String,
    body: Vec<u8>,
    content_type: &'static str,
    expected: Option<u16>,
}

fn probes(doc: &Value, route: &'static Route) -> Vec<Probe> {
    let method = route.method.as_str();
    let method: &'static str = ["GET", "POST", "PUT", "PATCH", "DELETE"]
        .into_iter()
        .find(|m| *m == method)
        .expect("a method the test knows");
    let mut out = Vec::new();
    let probe = |what: String, path: String, body: Vec<u8>, expected| Probe {
        what: format!("{} {}: {what}", route.method, route.path),
        method,
        path,
        body,
        content_type: match route.body {
            BodyKind::Csv => "text/csv",
            _ => "application/json",
        },
        expected,
    };
    let good_path = path_of(route, &|p| plausible(p).to_owned());
    let good_body = match route.body {
        BodyKind::None => Vec::new(),
        BodyKind::Json => b"{}".to_vec(),
        BodyKind::Csv => b"geo,time,value\nDE21,2020,1\n".to_vec(),
    };
    for bad in ENCODED {
        if route.path.contains('{') {
            let path = path_of(route, &|_| bad.to_owned());
            out.push(probe(
                format!("path {bad}"),
                path,
                good_body.clone(),
                Some(404),
            ));
        }
        let (mut query, _) = documented(doc, route);
        if route.root {
            query.extend(PAGE_PARAMETERS.map(str::to_owned));
        }
        query.push(bad.to_owned());
        for name in query {
            let (name, value) = match name == bad {
                true => (bad.to_owned(), "1".to_owned()),
                false => (name, bad.to_owned()),
            };
            out.push(probe(
                format!("query {name}={value}"),
                format!("{good_path}?{name}={value}"),
                good_body.clone(),
                Some(400),
            ));
        }
    }
    match route.body {
        BodyKind::Json => {
            let (_, properties) = documented(doc, route);
            let mut properties = properties;
            properties.push("unknown".into());
            for name in properties {
                for bad in IN_JSON {
                    for body in [
                        format!(r#"{{"{name}": "{bad}"}}"#),
                        format!(r#"{{"{name}": ["{bad}"]}}"#),
                    ] {
                        out.push(probe(
                            format!("body {body}"),
                            good_path.clone(),
                            body.into_bytes(),
                            Some(400),
                        ));
                    }
                }
                out.push(probe(
                    format!("body {name} not UTF-8"),
                    good_path.clone(),
                    format!("{{\"{name}\": \"\u{0}")
                        .into_bytes()
                        .into_iter()
                        .chain([0xff, b'"', b'}'])
                        .collect(),
                    Some(400),
                ));
            }
        }
        BodyKind::Csv => {
            for cell in ["DE\u{0}21", "DE21\u{1b}", "DE21"] {
                let period = if cell == "DE21" { "20\u{0}20" } else { "2020" };
                out.push(probe(
                    format!("a cell {cell:?} / {period:?}"),
                    good_path.clone(),
                    format!("geo,time,value\n{cell},{period},1\n").into_bytes(),
                    None,
                ));
            }
        }
        BodyKind::None => {}
    }
    out
}

/// Every MCP tool with each of its string arguments given a control character (the others
/// plausible ones).
fn mcp_probes(tools: &[Value]) -> Vec<(String, Value)> {
    let plausible = |name: &str| match name {
        "region" => json!("DE21"),
        "regions" => json!(["DE21", "DE22"]),
        "dataset" => json!("nama_10r_3gdp"),
        "datasets" => json!(["nama_10r_3gdp", "demo_r_d3dens"]),
        "briefing_type" => json!("economy"),
        "citation" => json!("cit_aaaaaaaaaaaaaaaaaaaa"),
        _ => json!("x"),
    };
    let mut out = Vec::new();
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        let properties = tool["inputSchema"]["properties"].as_object().unwrap();
        let required: Vec<&str> = (tool["inputSchema"]["required"].as_array())
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        for (property, schema) in properties {
            let bad = match (schema["type"].as_str(), &schema["type"]) {
                (Some("string"), _) => json!("x\u{0}"),
                (Some("array"), _) => json!(["x\u{0}", "DE22"]),
                (_, Value::Array(types)) if types.contains(&json!("string")) => {
                    json!("x\u{0}")
                }
                _ => continue,
            };
            let mut arguments: BTreeMap<&str, Value> =
                required.iter().map(|r| (*r, plausible(r))).collect();
            arguments.insert(property, bad);
            out.push((
                format!("tool {name}: {property}"),
                json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments}}),
            ));
        }
    }
    out
}

/// Sends every probe to `s` and returns each with its status, in order.
async fn probe_everything(s: &TestServer) -> Vec<(String, u16)> {
    let owner = s.account("owner@example.org", Tier::Institutional);
    let session = s.login(&owner).await;
    let bearer = format!("Bearer {session}");
    s.private_dataset(
        &owner,
        json!({"code": "mine", "title": "Mine", "unit": "NR"}),
        "geo,time,value\nDE21,2020,1\n",
    )
    .await;
    let doc = s.get("/openapi.json").await.json();
    assert!(doc["paths"].is_object(), "{doc}");
    let mut answered = Vec::new();
    for route in ROUTES {
        let credential = match route.access {
            Access::Session => ("authorization", bearer.as_str()),
            _ => owner.key_header(),
        };
        for probe in probes(&doc, route) {
            // The upload names the account's own dataset, which exists.
            let path = probe.path.replace("nama_10r_3gdp/data", "mine/data");
            let headers = [credential, ("content-type", probe.content_type)];
            let resp = s
                .client
                .send(Request {
                    method: probe.method,
                    path: &path,
                    headers: &headers,
                    body: probe.body.clone(),
                })
                .await;
            let said = String::from_utf8_lossy(&resp.body)
                .chars()
                .take(300)
                .collect::<String>();
            assert!(resp.status < 500, "{}: {} {said}", probe.what, resp.status);
            if let Some(expected) = probe.expected {
                assert_eq!(resp.status, expected, "{}: {said}", probe.what);
            } else {
                assert!(
                    (400..500).contains(&resp.status),
                    "{}: {} {said}",
                    probe.what,
                    resp.status
                );
            }
            answered.push((probe.what, resp.status));
        }
    }
    let mcp = |body: Value| {
        let key = owner.api_key.clone();
        let client = s.client.clone();
        async move {
            let resp = client
                .send(Request {
                    method: "POST",
                    path: &format!("{BASE}/mcp"),
                    headers: &[
                        ("x-api-key", &key),
                        ("content-type", "application/json"),
                        ("accept", "application/json, text/event-stream"),
                        ("mcp-protocol-version", "2025-11-25"),
                    ],
                    body: body.to_string().into_bytes(),
                })
                .await;
            assert!(resp.status < 500, "{body}: {}", resp.status);
            serde_json::from_slice::<Value>(&resp.body).unwrap()
        }
    };
    let listed = mcp(json!({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})).await;
    let tools = listed["result"]["tools"].as_array().unwrap().clone();
    assert_eq!(tools.len(), 7, "{listed}");
    for (what, call) in mcp_probes(&tools) {
        let message = mcp(call).await;
        let status = match &message["result"] {
            result if result["isError"] == true => {
                let answer: Value =
                    serde_json::from_str(result["content"][0]["text"].as_str().unwrap_or(""))
                        .unwrap_or(Value::Null);
                answer["error"]["status"].as_u64().unwrap_or(0) as u16
            }
            // A JSON-RPC error must be the arguments' (invalid params), never the server's.
            Value::Null if message["error"]["code"] == -32602 => 400,
            Value::Null => 500,
            _ => 200,
        };
        assert!((400..500).contains(&status), "{what}: {message}");
        answered.push((what, status));
    }
    answered
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_the_database_cannot_store_is_refused_alike_on_both_backends() {
    let sqlite = TestServer::start().await;
    let on_sqlite = probe_everything(&sqlite).await;
    drop(sqlite);
    let postgres = TestServer::start_with(Options {
        postgres: true,
        ..Default::default()
    })
    .await;
    let on_postgres = probe_everything(&postgres).await;
    assert!(on_sqlite.len() > 1000, "{} probes", on_sqlite.len());
    let differ: Vec<String> = (on_sqlite.iter().zip(&on_postgres))
        .filter(|(a, b)| a != b)
        .map(|(a, b)| format!("{}: SQLite {}, PostgreSQL {}", a.0, a.1, b.1))
        .collect();
    assert_eq!(on_sqlite.len(), on_postgres.len());
    assert!(differ.is_empty(), "{}", differ.join("\n"));
}
