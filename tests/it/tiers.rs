//! The tier matrix of the five endpoints of the service (profile, compare, briefings, bulk
//! export, correlation matrix).

use serde_json::{Value, json};

use crate::support::{Resp, TestServer, Tier};

/// Who calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Caller {
    Anonymous,
    ProfessionalKey,
    InstitutionalKey,
    ProfessionalSession,
    InstitutionalSession,
    InvalidKey,
}

const CALLERS: [Caller; 6] = [
    Caller::Anonymous,
    Caller::ProfessionalKey,
    Caller::InstitutionalKey,
    Caller::ProfessionalSession,
    Caller::InstitutionalSession,
    Caller::InvalidKey,
];

impl Caller {
    fn tier(self) -> Option<Tier> {
        match self {
            Caller::ProfessionalKey | Caller::ProfessionalSession => Some(Tier::Professional),
            Caller::InstitutionalKey | Caller::InstitutionalSession => Some(Tier::Institutional),
            Caller::Anonymous | Caller::InvalidKey => None,
        }
    }
}

/// What a caller must get.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// A successful answer with this status.
    Ok(u16),
    /// The error envelope with this status and code.
    Error(u16, &'static str),
}

/// The credential headers of each caller, for one server.
struct Credentials {
    professional_key: String,
    institutional_key: String,
    professional_session: String,
    institutional_session: String,
    invalid_key: String,
}

impl Credentials {
    async fn new(s: &TestServer) -> Credentials {
        let pro = s.account("pro@example.org", Tier::Professional);
        let inst = s.account("inst@example.org", Tier::Institutional);
        // A well-formed key (valid checksum) for the institutional key id with a wrong secret.
        let body = format!("sk_service_{}{}", inst.key_id, "0".repeat(32));
        let invalid_key = format!("{body}{}", regintel::auth::api_key::checksum(&body));
        Credentials {
            professional_session: format!("Bearer {}", s.login(&pro).await),
            institutional_session: format!("Bearer {}", s.login(&inst).await),
            professional_key: pro.api_key,
            institutional_key: inst.api_key,
            invalid_key,
        }
    }

    fn headers(&self, caller: Caller) -> Vec<(&'static str, &str)> {
        match caller {
            Caller::Anonymous => vec![],
            Caller::ProfessionalKey => vec![("x-api-key", self.professional_key.as_str())],
            Caller::InstitutionalKey => vec![("x-api-key", self.institutional_key.as_str())],
            Caller::ProfessionalSession => {
                vec![("authorization", self.professional_session.as_str())]
            }
            Caller::InstitutionalSession => {
                vec![("authorization", self.institutional_session.as_str())]
            }
            Caller::InvalidKey => vec![("x-api-key", self.invalid_key.as_str())],
        }
    }
}

/// One of the five endpoints: how to call it and what each caller gets.
struct Endpoint {
    name: &'static str,
    method: &'static str,
    path: &'static str,
    body: Option<Value>,
    want: fn(Caller) -> Want,
}

fn endpoints() -> Vec<Endpoint> {
    vec![
        Endpoint {
            name: "profile",
            method: "GET",
            path: "/regions/DE21/profile",
            body: None,
            want: public,
        },
        Endpoint {
            name: "compare",
            method: "GET",
            path: "/compare?regions=DE21,FR10&dataset=tgs00010",
            body: None,
            want: public,
        },
        Endpoint {
            name: "briefings",
            method: "POST",
            path: "/briefings",
            body: Some(json!({"region_nuts_code": "DE21", "briefing_type": "profile_summary"})),
            want: |c| institutional(c, Want::Ok(201)),
        },
        Endpoint {
            name: "export",
            method: "GET",
            path: "/export/bulk/tgs00042.csv",
            body: None,
            want: |c| institutional(c, Want::Ok(200)),
        },
        Endpoint {
            name: "correlations",
            method: "GET",
            path: "/intelligence/correlations/matrix?nuts_code=DE",
            body: None,
            want: |c| match c {
                Caller::Anonymous => Want::Error(401, "missing_credential"),
                Caller::InvalidKey => Want::Error(401, "invalid_credential"),
                _ => Want::Ok(200),
            },
        },
    ]
}

/// Anyone may call; a bad key is still refused.
fn public(caller: Caller) -> Want {
    match caller {
        Caller::InvalidKey => Want::Error(401, "invalid_credential"),
        _ => Want::Ok(200),
    }
}

/// Institutional accounts only; `passed` is what they get past the gate.
fn institutional(caller: Caller, passed: Want) -> Want {
    match caller.tier() {
        _ if caller == Caller::InvalidKey => Want::Error(401, "invalid_credential"),
        None => Want::Error(401, "missing_credential"),
        Some(Tier::Professional) => Want::Error(403, "insufficient_tier"),
        Some(Tier::Institutional) => passed,
    }
}

async fn call(s: &TestServer, endpoint: &Endpoint, headers: &[(&str, &str)]) -> Resp {
    let mut all = headers.to_vec();
    let body = match &endpoint.body {
        Some(body) => {
            all.push(("content-type", "application/json"));
            body.to_string().into_bytes()
        }
        None => Vec::new(),
    };
    s.call(endpoint.method, endpoint.path, &all, &body).await
}

/// Every endpoint × every caller gets exactly the documented answer: profile and compare are
/// open to all valid callers, briefings and export need the institutional tier, correlations any
/// credential; a bad key is 401 everywhere and anonymous callers of gated routes are 401
/// `missing_credential`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tier_matrix_of_the_five_endpoints() {
    let s = TestServer::start().await;
    let creds = Credentials::new(&s).await;
    let mut failures = Vec::new();
    for endpoint in endpoints() {
        for caller in CALLERS {
            let r = call(&s, &endpoint, &creds.headers(caller)).await;
            let want = (endpoint.want)(caller);
            let got = match serde_json::from_slice::<Value>(&r.body) {
                Ok(v) if r.status >= 400 => Want::Error(
                    r.status,
                    known_code(v["error"]["code"].as_str().unwrap_or("?")),
                ),
                _ => Want::Ok(r.status),
            };
            if got != want {
                failures.push(format!(
                    "{} as {caller:?}: want {want:?}, got {got:?}: {}",
                    endpoint.name,
                    String::from_utf8_lossy(&r.body[..r.body.len().min(300)])
                ));
                continue;
            }
            check_details(&endpoint, caller, want, &r);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Error codes as `&'static str` for comparison with the table.
fn known_code(code: &str) -> &'static str {
    [
        "missing_credential",
        "invalid_credential",
        "insufficient_tier",
        "unknown_region",
        "validation_failed",
    ]
    .into_iter()
    .find(|c| *c == code)
    .unwrap_or("unexpected")
}

/// The parts of an answer beyond status and code: the error envelope and its challenge or
/// details, `meta.access`, the CSV media type.
fn check_details(endpoint: &Endpoint, caller: Caller, want: Want, r: &Resp) {
    let what = format!("{} as {caller:?}", endpoint.name);
    match want {
        Want::Error(status, code) => {
            let e = r.error(status, code);
            match code {
                "missing_credential" => assert_eq!(
                    r.header("www-authenticate"),
                    Some(r#"Bearer realm="regintel""#),
                    "{what}"
                ),
                "invalid_credential" => assert_eq!(
                    r.header("www-authenticate"),
                    Some(r#"Bearer realm="regintel", error="invalid_token""#),
                    "{what}"
                ),
                "insufficient_tier" => {
                    assert_eq!(e["details"]["required_tier"], "institutional", "{what}");
                    assert_eq!(e["details"]["current_tier"], "professional", "{what}");
                }
                _ => {}
            }
            let access = if caller.tier().is_some() {
                "account"
            } else {
                "public"
            };
            assert_eq!(r.json()["meta"]["access"], access, "{what}");
        }
        Want::Ok(_) if endpoint.name == "export" => {
            assert!(
                r.header("content-type")
                    .is_some_and(|t| t.starts_with("text/csv")),
                "{what}"
            );
        }
        Want::Ok(_) => {
            let v = r.json();
            assert!(!v["data"].is_null(), "{what}");
            let access = if caller.tier().is_some() {
                "account"
            } else {
                "public"
            };
            assert_eq!(v["meta"]["access"], access, "{what}");
        }
    }
}

/// The institutional export is the whole dataset as CSV: the documented header, one row per
/// observation (as many as `GET /datasets/{code}` counts), each ending in a citation id that
/// resolves; key and session callers get the same file.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn institutional_export_is_the_whole_cited_dataset() {
    let s = TestServer::start().await;
    let creds = Credentials::new(&s).await;
    let dataset = "tgs00042";
    let path = format!("/export/bulk/{dataset}.csv");
    let r = s
        .call("GET", &path, &creds.headers(Caller::InstitutionalKey), b"")
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert!(r.header("content-type").unwrap().starts_with("text/csv"));
    let mut reader = csv::Reader::from_reader(r.body.as_slice());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    assert_eq!(
        header[..6],
        [
            "dataset_code",
            "nuts_code",
            "region_name",
            "nuts_level",
            "time",
            "unit"
        ],
        "{header:?}"
    );
    assert_eq!(header.last().unwrap(), "citation_id", "{header:?}");
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();

    let info = s.get(&format!("/datasets/{dataset}")).await.json();
    let observations = info["data"]["observations"].as_u64().unwrap();
    assert_eq!(rows.len() as u64, observations);

    let citation = |row: &csv::StringRecord| row[row.len() - 1].to_owned();
    for row in &rows {
        assert_eq!(&row[0], dataset, "{row:?}");
        let id = citation(row);
        assert!(
            id.len() == 24
                && id.starts_with("cit_")
                && id[4..]
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()),
            "{row:?}"
        );
    }
    // A sample spread over the file resolves, to the row it came from, region name and level
    // included.
    let step = (rows.len() / 10).max(1);
    for row in rows.iter().step_by(step) {
        let id = citation(row);
        let r = s.get(&format!("/citations/{id}")).await;
        assert_eq!(r.status, 200, "{id}: {}", String::from_utf8_lossy(&r.body));
        let v = r.json();
        assert_eq!(v["data"]["region"]["code"], &row[1], "{row:?}: {v}");
        // Empty cells where the region has no name or level (a code of an earlier edition).
        let cell = |field: &serde_json::Value| match field {
            serde_json::Value::Null => String::new(),
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        assert_eq!(cell(&v["data"]["region"]["name"]), &row[2], "{row:?}: {v}");
        assert_eq!(cell(&v["data"]["region"]["level"]), &row[3], "{row:?}: {v}");
        assert_eq!(v["data"]["dataset"]["code"], dataset, "{row:?}: {v}");
    }

    let by_session = s
        .call(
            "GET",
            &path,
            &creds.headers(Caller::InstitutionalSession),
            b"",
        )
        .await;
    assert_eq!(by_session.status, 200);
    assert_eq!(by_session.body, r.body);
}

/// A caller past the gate who names an unknown region gets 404 `unknown_region`, whatever the
/// tier and credential kind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn correlations_for_an_unknown_region_are_404() {
    let s = TestServer::start().await;
    let creds = Credentials::new(&s).await;
    for caller in CALLERS.into_iter().filter(|c| c.tier().is_some()) {
        let r = s
            .call(
                "GET",
                "/intelligence/correlations/matrix?nuts_code=XX99",
                &creds.headers(caller),
                b"",
            )
            .await;
        let e = r.error(404, "unknown_region");
        assert_eq!(e["details"]["region"], "XX99", "{caller:?}");
    }
    // Anonymous callers learn nothing about regions: the gate comes first.
    s.call(
        "GET",
        "/intelligence/correlations/matrix?nuts_code=XX99",
        &[],
        b"",
    )
    .await
    .error(401, "missing_credential");
}

/// Briefing requests are validated only past the tier gate: an unknown `briefing_type` is 422
/// for institutional callers, 403 for professional ones; an unknown region is 404.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn briefing_requests_are_validated_past_the_gate() {
    let s = TestServer::start().await;
    let creds = Credentials::new(&s).await;
    let post = |caller: Caller, body: Value| {
        let headers = creds.headers(caller);
        let s = &s;
        async move {
            let mut all = headers;
            all.push(("content-type", "application/json"));
            s.call("POST", "/briefings", &all, body.to_string().as_bytes())
                .await
        }
    };
    let bad_type = json!({"region_nuts_code": "DE21", "briefing_type": "horoscope"});
    for caller in [Caller::InstitutionalKey, Caller::InstitutionalSession] {
        let e = post(caller, bad_type.clone())
            .await
            .error(422, "validation_failed");
        assert_eq!(
            e["details"]["errors"][0]["pointer"], "#/briefing_type",
            "{e}"
        );
        post(
            caller,
            json!({"region_nuts_code": "XX99", "briefing_type": "economy"}),
        )
        .await
        .error(404, "unknown_region");
        post(
            caller,
            json!({"region_nuts_code": "DE21", "briefing_type": "economy", "extra": 1}),
        )
        .await
        .error(422, "validation_failed");
    }
    for caller in [Caller::ProfessionalKey, Caller::ProfessionalSession] {
        post(caller, bad_type.clone())
            .await
            .error(403, "insufficient_tier");
    }
    post(Caller::Anonymous, bad_type)
        .await
        .error(401, "missing_credential");
}

/// A large export streams (chunked, no Content-Length) and arrives whole. (Slots and stalled
/// readers: `hostile.rs`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn exports_stream_whole() {
    let s = TestServer::start().await;
    let a = s.account("big@example.org", Tier::Institutional);
    let path = format!("{}/export/bulk/nama_10r_3gdp.csv", crate::support::BASE);
    let r = s.client.get_with(&path, &[a.key_header()]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("content-length"), None, "streamed, not buffered");
    let rows = r.body.iter().filter(|b| **b == b'\n').count() - 1;
    assert_eq!(rows, 268_494);
}
