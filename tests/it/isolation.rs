//! Per-account isolation, route by route (OWASP API1, Broken Object Level Authorization): two
//! institutional accounts hold private datasets under the same code and under their own codes,
//! with values, titles and citations found nowhere else; each attacks the other over every route
//! of the route table, with its key, its session token, a signed-in browser, that browser's
//! cookie without its CSRF token or with another session's (answered exactly as nobody is),
//! anonymously, and through the MCP tool (`{base_url}/mcp`) that mirrors a route, with its key;
//! answers, caches and the database layer are checked for anything of the other account's.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::sync::Arc;

use regintel::http::routes::{BodyKind, ROUTES, Route};
use regintel::openapi::operations::{self, Location};
use serde_json::{Value, json};

use crate::briefings::{Gate, fake_model_server, model_at};
use crate::browser::Browser;
use crate::receiver::Receiver;
use crate::support::{BASE, Client, Options, Request, Resp, TestAccount, TestServer, Tier};

/// The code both accounts use for a private dataset.
const SHARED: &str = "shared_code";
/// Regions of the private data: all also in the public data.
const REGIONS: &[(&str, u8)] = &[("DE21", 2), ("FR10", 2), ("DE2", 1), ("FR1", 1)];
const PERIODS: &[&str] = &["2021", "2022"];
/// The comparison each account reads of its own `shared_code`.
const COMPARE: &str = "/compare?regions=DE21,FR10&dataset=shared_code";
/// First value of the rows the attacker uploads (`PUT /datasets/{code}/data`), as for the parties,
/// and the private region code of those rows (after every party's own and missing ones).
const ATTACK_BASE: u32 = 555_551;
const ATTACK_REGION: &str = "QX21";
/// Identifiers of the shapes the victim's use, that exist nowhere.
const MISSING_CODE: &str = "z_only";
const MISSING_CITATION: &str = "cit_aaaaaaaaaaaaaaaaaaaa";
const MISSING_BRIEFING: &str = "brf_00000000000000000000000000";
const MISSING_SNAPSHOT: &str = "snp_00000000000000000000000000";
const MISSING_KEY_ID: &str = "Zz9Zz9Zz";
const MISSING_EMAIL: &str = "nobody@example.org";
const MISSING_WEBHOOK: &str = "whk_00000000000000000000000000";
const MISSING_DELIVERY: &str = "dlv_000000000000000000000000";
/// Requests in flight at once while probing read-only routes.
const PARALLEL: usize = 4;

/// One account of the fixture and what it owns.
struct Party {
    account: TestAccount,
    session: String,
    /// Its private dataset whose code no other account uses.
    own_code: &'static str,
    /// A region code found only in its private data, and a made-up one of the same shape with
    /// no code of any account between the two (so region lists after either are the same).
    own_region: &'static str,
    missing_region: &'static str,
    title: &'static str,
    /// Value texts of its rows, all `<n>.5` with `n` from these bases up.
    shared_base: u32,
    own_base: u32,
    /// The citations of its rows, and of its snapshots (which its dataset answers cite).
    citations: Vec<String>,
    snapshot_citations: Vec<String>,
    snapshots: Vec<String>,
    file_sha256: Vec<String>,
    /// Its briefing, which quotes its private values.
    briefings: Vec<String>,
    /// A moment between its first uploads and its revision (RFC 3339): the replaced row was
    /// current then.
    between: String,
    /// Its webhook endpoint (subscribed to every event), the path its deliveries go to, its
    /// signing secret, and its deliveries.
    webhooks: Vec<String>,
    hook_path: &'static str,
    hook_secret: String,
    deliveries: Vec<String>,
}

impl Party {
    fn key(&self) -> (&'static str, &str) {
        self.account.key_header()
    }

    /// Value texts of its rows, the revised one and the one it replaced included.
    fn values(&self) -> Vec<String> {
        let n = ((REGIONS.len() + 1) * PERIODS.len()) as u32;
        let mut values: Vec<String> = (0..n)
            .flat_map(|i| [self.shared_base + i, self.own_base + i])
            .map(|v| format!("{v}.5"))
            .collect();
        values.push(format!("{}.75", self.own_base));
        values
    }

    /// Everything another caller must never read: titles, value texts, citation and snapshot
    /// ids, file hashes, the key's id and secret part, the email.
    fn secrets(&self) -> Vec<String> {
        let key = &self.account.api_key;
        let mut all = vec![
            self.title.to_owned(),
            self.own_region.to_owned(),
            key.clone(),
            key["sk_service_".len() + 8..key.len() - 6].to_owned(),
            self.account.key_id.clone(),
            self.account.email.clone(),
        ];
        all.extend(self.values());
        all.extend(self.citations.iter().cloned());
        all.extend(self.snapshot_citations.iter().cloned());
        all.extend(self.snapshots.iter().cloned());
        all.extend(self.file_sha256.iter().cloned());
        all.extend(self.briefings.iter().cloned());
        all.extend(self.webhooks.iter().cloned());
        all.extend(self.deliveries.iter().cloned());
        all.push(self.hook_path.to_owned());
        all.push(self.hook_secret.clone());
        all
    }

    /// The answers that show this account's private data, as it reads them (normalised).
    async fn views(&self, s: &TestServer) -> Vec<(String, Value)> {
        let paths = [
            COMPARE.to_owned(),
            format!("/datasets/{SHARED}"),
            format!("/datasets/{}", self.own_code),
            format!("/export/bulk/{SHARED}.csv"),
            format!("/export/bulk/{}.csv", self.own_code),
            "/webhooks".to_owned(),
        ];
        let mut out = Vec::new();
        for path in paths {
            let r = s.call("GET", &path, &[self.key()], b"").await;
            assert_eq!(r.status, 200, "{path}: {}", text(&r.body));
            out.push((path, normalised(&r.body, &[])));
        }
        out
    }
}

/// What the fixture's server runs with.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Settings {
    /// The test server's: public rows read from the database, briefings written without a
    /// model.
    Test,
    /// The shipped defaults where they shape answers: public rows held in memory (the default
    /// amount), and briefings written by a model, a fake one that records every prompt.
    Production,
    /// The test server's on PostgreSQL: isolation by its row-level security, through the
    /// request role.
    Postgres,
}

/// The fixture's server, its two accounts, the receiver of their webhooks, and under
/// production settings the model's record of prompts.
struct Fixture {
    s: TestServer,
    alpha: Party,
    bravo: Party,
    receiver: Receiver,
    model: Option<Arc<Gate>>,
}

/// A server with two institutional accounts, each with a key, a session and two private datasets
/// (`shared_code` and its own code) holding data for DE21, FR10, DE2 and FR1.
async fn fixture(settings: Settings) -> Fixture {
    let mut options = Options {
        postgres: settings == Settings::Postgres,
        ..Options::default()
    };
    let mut model = None;
    if settings == Settings::Production {
        let gate = Arc::new(Gate::default());
        let at = fake_model_server(gate.clone()).await;
        options.llm = Some(model_at(at, "faithful"));
        options.configure = Some(|c| {
            c.public_data_bytes = regintel::config::defaults::PUBLIC_DATA_MB * 1024 * 1024;
        });
        model = Some(gate);
    }
    let s = TestServer::start_with(options).await;
    let receiver = Receiver::start(204).await;
    let alpha = s.account("alpha@example.org", Tier::Institutional);
    let bravo = s.account("bravo@example.org", Tier::Institutional);
    let mut a = Party {
        session: s.login(&alpha).await,
        account: alpha,
        own_code: "a_only",
        hook_path: "/hook/alpha-private",
        hook_secret: String::new(),
        webhooks: Vec::new(),
        deliveries: Vec::new(),
        // U and L never occur in the Crockford base32 of request and object ids, so these
        // codes cannot turn up in an answer by chance.
        own_region: "QU21",
        missing_region: "QU22",
        title: "Alpha secret title",
        shared_base: 111_111,
        own_base: 222_221,
        citations: Vec::new(),
        snapshot_citations: Vec::new(),
        snapshots: Vec::new(),
        briefings: Vec::new(),
        file_sha256: Vec::new(),
        between: String::new(),
    };
    let mut b = Party {
        session: s.login(&bravo).await,
        account: bravo,
        own_code: "b_only",
        hook_path: "/hook/bravo-private",
        hook_secret: String::new(),
        webhooks: Vec::new(),
        deliveries: Vec::new(),
        own_region: "QL21",
        missing_region: "QL22",
        title: "Bravo secret title",
        shared_base: 333_331,
        own_base: 444_441,
        citations: Vec::new(),
        snapshot_citations: Vec::new(),
        snapshots: Vec::new(),
        briefings: Vec::new(),
        file_sha256: Vec::new(),
        between: String::new(),
    };
    for p in [&mut a, &mut b] {
        for (code, base) in [(SHARED, p.shared_base), (p.own_code, p.own_base)] {
            let body = json!({
                "code": code,
                "title": format!("{} ({code})", p.title),
                "unit": "NR",
                "dimensions": ["sex"],
            });
            let r = s
                .call(
                    "POST",
                    "/datasets",
                    &[p.key(), ("content-type", "application/json")],
                    body.to_string().as_bytes(),
                )
                .await;
            assert_eq!(r.status, 201, "{}", text(&r.body));
            let r = s
                .call(
                    "PUT",
                    &format!("/datasets/{code}/data"),
                    &[p.key(), ("content-type", "text/csv")],
                    tidy_csv(code, base, p.own_region).as_bytes(),
                )
                .await;
            assert_eq!(r.status, 200, "{}", text(&r.body));
        }
        p.collect_ids(&s).await;
        p.between =
            regintel::runtime::clock::rfc3339_millis(crate::as_of::a_moment_after_now().await);
        // A revision of one value: the old row is superseded, its citation still its own.
        let revised = tidy_csv(p.own_code, p.own_base, p.own_region).replacen(
            &format!(",{}.5,", p.own_base),
            &format!(",{}.75,", p.own_base),
            1,
        );
        let r = s
            .call(
                "PUT",
                &format!("/datasets/{}/data", p.own_code),
                &[p.key(), ("content-type", "text/csv")],
                revised.as_bytes(),
            )
            .await;
        assert_eq!(r.json()["data"]["revised"], 1, "{}", text(&r.body));
        p.collect_ids(&s).await;
        let rows = (REGIONS.len() + 1) * PERIODS.len();
        assert_eq!(p.citations.len(), 2 * rows + 1, "{:?}", p.citations);
        assert_eq!(p.snapshot_citations.len(), 3, "{:?}", p.snapshot_citations);
        assert_eq!(p.snapshots.len(), 3, "{:?}", p.snapshots);
        assert_eq!(p.file_sha256.len(), 3);
        let body = json!({"region_nuts_code": "DE21", "briefing_type": "profile_summary"});
        let r = s
            .call(
                "POST",
                "/briefings",
                &[p.key(), ("content-type", "application/json")],
                body.to_string().as_bytes(),
            )
            .await;
        assert_eq!(r.status, 201, "{}", text(&r.body));
        let briefing = r.json();
        assert!(
            briefing["data"].to_string().contains(p.title),
            "cites the private data"
        );
        p.briefings
            .push(briefing["data"]["id"].as_str().unwrap().to_owned());
        p.register_webhook(&s, &receiver).await;
    }
    if settings == Settings::Production {
        assert!(
            s.public_data_held().await > 0,
            "public rows are held in memory"
        );
    }
    Fixture {
        s,
        alpha: a,
        bravo: b,
        receiver,
        model,
    }
}

impl Party {
    /// Registers an endpoint for every event at `receiver`, sends it a test and waits for it,
    /// keeping the endpoint's id, secret and delivery ids.
    async fn register_webhook(&mut self, s: &TestServer, receiver: &Receiver) {
        let body = json!({
            "url": receiver.url(self.hook_path),
            "event_types": regintel::webhooks::events::TYPES,
            "description": self.title,
        });
        let r = s
            .call(
                "POST",
                "/webhooks",
                &[self.key(), ("content-type", "application/json")],
                body.to_string().as_bytes(),
            )
            .await;
        assert_eq!(r.status, 201, "{}", text(&r.body));
        let id = r.json()["data"]["id"].as_str().unwrap().to_owned();
        self.hook_secret = r.json()["data"]["secret"].as_str().unwrap().to_owned();
        let r = s
            .call("POST", &format!("/webhooks/{id}/test"), &[self.key()], b"")
            .await;
        assert_eq!(r.status, 202, "{}", text(&r.body));
        let event = r.json()["data"]["event_id"].as_str().unwrap().to_owned();
        let path = self.hook_path;
        let got = receiver
            .wait_for(std::time::Duration::from_secs(60), |all| {
                all.iter()
                    .any(|r| r.path == path && r.header("webhook-id") == event)
            })
            .await;
        assert!(got.iter().any(|r| r.header("webhook-id") == event));
        // Recorded after the answer: wait for the log to show it.
        let deliveries = s
            .eventually_json(&format!("/webhooks/{id}/deliveries"), &[self.key()], |v| {
                v["data"][0]["status"] == "delivered"
            })
            .await;
        for d in deliveries["data"].as_array().unwrap() {
            self.deliveries.push(d["id"].as_str().unwrap().to_owned());
        }
        self.webhooks.push(id);
    }

    /// Adds the identifiers its own answers reveal now.
    async fn collect_ids(&mut self, s: &TestServer) {
        for (path, view) in self.views(s).await {
            let body = match &view {
                Value::String(raw) => raw.clone(),
                v => v.to_string(),
            };
            self.citations.extend(ids_in(&body, "cit_"));
            self.snapshots.extend(ids_in(&body, "snp_"));
            if path.starts_with("/datasets/") {
                for snapshot in view["data"]["snapshots"].as_array().unwrap() {
                    let sha = snapshot["file_sha256"].as_str().unwrap();
                    self.file_sha256.push(sha.to_owned());
                    let cited = snapshot["citation"].as_str().unwrap();
                    self.snapshot_citations.push(cited.to_owned());
                }
            }
        }
        for ids in [
            &mut self.citations,
            &mut self.snapshot_citations,
            &mut self.snapshots,
            &mut self.file_sha256,
        ] {
            ids.sort();
            ids.dedup();
        }
        // The rows of the public classification that the answers cite for their regions are
        // everybody's: what stays private is what an anonymous caller cannot resolve.
        let mut rows = Vec::new();
        for id in std::mem::take(&mut self.citations) {
            let private = s.get(&format!("/citations/{id}")).await.status != 200;
            if private && !self.snapshot_citations.contains(&id) {
                rows.push(id);
            }
        }
        self.citations = rows;
    }
}

/// A tidy CSV with one row per region (the public ones and `private_region`) and period, values
/// counting up from `base`.
fn tidy_csv(code: &str, base: u32, private_region: &str) -> String {
    let mut csv = String::from("dataset_code,nuts_code,nuts_level,time,value,unit,flags,sex\n");
    let mut value = base;
    let regions = REGIONS.iter().copied().chain([(private_region, 2)]);
    for (region, level) in regions {
        for period in PERIODS {
            writeln!(csv, "{code},{region},{level},{period},{value}.5,NR,,T").unwrap();
            value += 1;
        }
    }
    csv
}

/// Every identifier `prefix` + lowercase letters and digits in `text`.
fn ids_in(text: &str, prefix: &str) -> Vec<String> {
    text.match_indices(prefix)
        .map(|(at, _)| {
            text[at..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect::<String>()
        })
        .filter(|id| id.len() > prefix.len() + 10)
        .collect()
}

/// Up to 150 characters either side of `needle` in `body` (all of a short body).
fn clip(body: &str, needle: &str) -> String {
    let at = body.find(needle).unwrap_or(0);
    let start = body.floor_char_boundary(at.saturating_sub(150));
    let end = body.ceil_char_boundary((at + needle.len() + 150).min(body.len()));
    format!("…{}…", &body[start..end])
}

fn text(body: &[u8]) -> String {
    String::from_utf8_lossy(body).into_owned()
}

/// The body with `replace` applied, as JSON without the per-request fields (request id and time),
/// or as a string when it is not JSON.
fn normalised(body: &[u8], replace: &[(String, String)]) -> Value {
    let mut raw = text(body);
    for (from, to) in replace {
        raw = raw.replace(from.as_str(), to);
    }
    match serde_json::from_str::<Value>(&raw) {
        Ok(mut v) => {
            if let Some(meta) = v.get_mut("meta").and_then(Value::as_object_mut) {
                meta.remove("request_id");
                meta.remove("generated_at");
            }
            if let Some(error) = v.get_mut("error").and_then(Value::as_object_mut) {
                error.remove("request_id");
            }
            // `/readyz` counts the limiter's buckets of every caller, which other requests of the
            // walk change between two answers.
            if let Some(data) = v.get_mut("data").and_then(Value::as_object_mut) {
                data.remove("rate_limit_entries");
            }
            v
        }
        // A page (the explorer's): its error pages name the request id.
        Err(_) => Value::String(without_request_id(&raw)),
    }
}

/// A page's text without the request id its error pages quote.
fn without_request_id(page: &str) -> String {
    const MARK: &str = "<code class=\"request-id\">";
    match page.split_once(MARK) {
        Some((before, after)) => {
            let rest = after.split_once('<').map_or("", |(_, rest)| rest);
            format!("{before}{MARK}<{rest}")
        }
        None => page.to_owned(),
    }
}

/// An answer with a new session's token taken out: each sign-in opens a session of its own.
fn without_token(mut answer: Value) -> Value {
    if let Some(data) = answer.get_mut("data").and_then(Value::as_object_mut) {
        data.remove("access_token");
    }
    answer
}

/// An answer with `error.details.suggestions` taken out: they are the known codes closest to the
/// code asked for, so they differ between a code and its made-up twin by construction (they are
/// checked on their own for the victim's codes).
fn without_suggestions(mut answer: Value) -> Value {
    if let Some(details) = answer
        .get_mut("error")
        .and_then(|e| e.get_mut("details"))
        .and_then(Value::as_object_mut)
    {
        details.remove("suggestions");
    }
    answer
}

/// A value for a path or query parameter; `private` is set when the value names an object
/// private to the victim: the part of it that does, and a made-up identifier of the same shape
/// that exists nowhere.
#[derive(Clone)]
struct Ident {
    text: String,
    private: Option<(String, String)>,
}

fn ident(text: &str, twin: Option<&str>) -> Ident {
    Ident {
        text: text.to_owned(),
        private: twin.map(|t| (text.to_owned(), t.to_owned())),
    }
}

/// A value of which `part` names the victim's object (`DE21,QU21`), with `twin` for it.
fn ident_with(text: &str, part: &str, twin: &str) -> Ident {
    Ident {
        text: text.to_owned(),
        private: Some((part.to_owned(), twin.to_owned())),
    }
}

/// What an attacker could put in a parameter called `name`, from the victim's secrets or public
/// knowledge. Parameters of a kind this test does not know get every identifier.
fn idents_for(name: &str, victim: &Party) -> Vec<Ident> {
    let codes = || {
        vec![
            ident(victim.own_code, Some(MISSING_CODE)),
            ident(SHARED, None),
        ]
    };
    let object_ids = || {
        let mut ids: Vec<Ident> = victim
            .citations
            .iter()
            .map(|c| ident(c, Some(MISSING_CITATION)))
            .collect();
        ids.extend(
            victim
                .snapshot_citations
                .iter()
                .map(|c| ident(c, Some(MISSING_CITATION))),
        );
        ids.extend(
            victim
                .snapshots
                .iter()
                .map(|s| ident(s, Some(MISSING_SNAPSHOT))),
        );
        ids
    };
    let key_id = || vec![ident(&victim.account.key_id, Some(MISSING_KEY_ID))];
    // The victim's private region code, and a public one.
    let region = || {
        vec![
            ident(victim.own_region, Some(victim.missing_region)),
            ident("DE21", None),
        ]
    };
    match name {
        // A cursor names an item of a list: one of each kind the victim holds (each list is
        // probed with all of them).
        "cursor" => {
            let first = |ids: &[String], twin: &str| ids.first().map(|id| ident(id, Some(twin)));
            let mut v = codes();
            v.extend(region());
            v.extend(key_id());
            v.extend(first(&victim.citations, MISSING_CITATION));
            v.extend(first(&victim.snapshots, MISSING_SNAPSHOT));
            v.extend(first(&victim.briefings, MISSING_BRIEFING));
            v.extend(first(&victim.webhooks, MISSING_WEBHOOK));
            v.extend(first(&victim.deliveries, MISSING_DELIVERY));
            v
        }
        "since_snapshot" => victim
            .snapshots
            .iter()
            .map(|s| ident(s, Some(MISSING_SNAPSHOT)))
            .collect(),
        "region_code" => {
            let mut v = codes();
            v.extend(region());
            v
        }
        "dataset_code" => codes(),
        "datasets" => {
            let mut v = codes();
            v.push(ident_with(
                &format!("tgs00010,{}", victim.own_code),
                victim.own_code,
                MISSING_CODE,
            ));
            v
        }
        "citation_id" => object_ids(),
        "briefing_id" => victim
            .briefings
            .iter()
            .map(|b| ident(b, Some(MISSING_BRIEFING)))
            .collect(),
        "key_id" => key_id(),
        "webhook_id" => victim
            .webhooks
            .iter()
            .map(|w| ident(w, Some(MISSING_WEBHOOK)))
            .collect(),
        "delivery_id" => victim
            .deliveries
            .iter()
            .map(|d| ident(d, Some(MISSING_DELIVERY)))
            .collect(),
        "regions" => vec![
            ident("DE21,FR10", None),
            ident_with(
                &format!("DE21,{}", victim.own_region),
                victim.own_region,
                victim.missing_region,
            ),
        ],
        // A whole country too, so the correlation matrix is computed (over DE's NUTS 2 regions,
        // the victim's private codes among them), not refused for its level.
        "nuts_code" => {
            let mut v = region();
            v.push(ident("DE", None));
            v
        }
        "region" | "region_nuts_code" | "after" => region(),
        "q" => vec![
            ident("secret", None),
            ident(victim.own_region, Some(victim.missing_region)),
        ],
        "period" => vec![ident("2022", None)],
        "unit" => vec![ident("NR", None)],
        "country" => vec![ident("DE", None)],
        "level" => vec![ident("2", None)],
        "sex" => vec![ident("T", None)],
        // Now, as an instant (the same for every caller of a probe): every past row the victim
        // had by then is in reach of the read; and a moment between the victim's uploads and
        // its revision, when the row it replaced was current.
        "as_of" => vec![
            ident(
                &regintel::runtime::clock::rfc3339_millis(regintel::runtime::clock::now_ms()),
                None,
            ),
            ident(&victim.between, None),
        ],
        _ => {
            let mut v = codes();
            v.extend(region());
            v.extend(object_ids());
            v.extend(key_id());
            v
        }
    }
}

/// Optional query parameters this test fills too, and dimension filters a route takes beyond
/// its documented parameters (by operation id).
const OPTIONAL_QUERY: &[&str] = &[
    "q",
    "cursor",
    "period",
    "unit",
    "country",
    "level",
    "datasets",
    "since_snapshot",
    "as_of",
];
const DIMENSION_QUERY: &[(&str, &str)] = &[
    ("compareRegions", "sex"),
    ("pageExploreCompare", "sex"),
    ("pageExplore", "q"),
];
/// Explorer pages that take the query of a data route, by operation id: (page, data route).
const EXPLORE_SHOWS: &[(&str, &str)] = &[
    ("pageExploreCompare", "compareRegions"),
    ("pageExploreMatrix", "correlationMatrix"),
];

/// Victim-private identifiers in a request, each with its made-up twin.
type Names = Vec<(String, String)>;

/// A request body a route may take: the request schema it fits, and the victim-private
/// identifiers in it.
struct BodyTemplate {
    schema: &'static str,
    body: Value,
    names: Names,
}

/// A concrete request body.
struct Body {
    bytes: Vec<u8>,
    names: Names,
    content_type: Option<&'static str>,
}

/// The request schemas of routes at the root of the host, which the OpenAPI document leaves
/// out, by operation id.
const ROOT_REQUESTS: &[(&str, &str)] = &[("startBrowserSession", "LoginRequest")];

/// JSON bodies for `route`: those of its request schema, or all when the schema is not one this
/// test knows.
fn json_bodies(route: &Route, victim: &Party, attacker: &Party) -> Vec<Body> {
    let dataset =
        |code: &str| json!({"code": code, "title": "t", "unit": "NR", "dimensions": ["sex"]});
    let all = [
        BodyTemplate {
            schema: "LoginRequest",
            body: json!({"email": victim.account.email, "password": "not-the-password"}),
            names: vec![(victim.account.email.clone(), MISSING_EMAIL.to_owned())],
        },
        // The attacker's own login: the route is exercised past its checks.
        BodyTemplate {
            schema: "LoginRequest",
            body: json!({"email": attacker.account.email, "password": attacker.account.password}),
            names: Vec::new(),
        },
        BodyTemplate {
            schema: "CreateApiKey",
            body: json!({"name": "x"}),
            names: Vec::new(),
        },
        BodyTemplate {
            schema: "CreateDataset",
            body: dataset(victim.own_code),
            names: vec![(victim.own_code.to_owned(), MISSING_CODE.to_owned())],
        },
        BodyTemplate {
            schema: "CreateDataset",
            body: dataset(SHARED),
            names: Vec::new(),
        },
        BodyTemplate {
            schema: "BriefingRequest",
            body: json!({"region_nuts_code": "DE21", "briefing_type": "profile_summary"}),
            names: Vec::new(),
        },
        BodyTemplate {
            schema: "CreateWebhook",
            body: json!({"url": "http://127.0.0.1:9/attacker", "event_types": ["webhook.test"]}),
            names: Vec::new(),
        },
        BodyTemplate {
            schema: "UpdateWebhook",
            body: json!({"description": "changed by another account"}),
            names: Vec::new(),
        },
        BodyTemplate {
            schema: "ReplayWebhookEvents",
            body: json!({"since": regintel::runtime::clock::rfc3339(regintel::runtime::clock::now_ms() - 3_600_000)}),
            names: Vec::new(),
        },
        BodyTemplate {
            schema: "BriefingRequest",
            body: json!({"region_nuts_code": victim.own_region, "briefing_type": "profile_summary"}),
            names: vec![(
                victim.own_region.to_owned(),
                victim.missing_region.to_owned(),
            )],
        },
    ];
    let request = operations::of(route).and_then(|op| op.request).or_else(|| {
        ROOT_REQUESTS
            .iter()
            .find(|(id, _)| *id == route.operation_id)
            .map(|(_, schema)| *schema)
    });
    let fits = |t: &&BodyTemplate| Some(t.schema) == request;
    let chosen: Vec<&BodyTemplate> = if all.iter().any(|t| fits(&t)) {
        all.iter().filter(fits).collect()
    } else {
        all.iter().collect()
    };
    chosen
        .into_iter()
        .map(|t| Body {
            bytes: t.body.to_string().into_bytes(),
            names: t.names.clone(),
            content_type: Some("application/json"),
        })
        .collect()
}

/// One concrete request of the attack.
#[derive(Clone)]
struct Probe {
    /// The route's operation id.
    operation: &'static str,
    method: String,
    /// From the root, base path included.
    path: String,
    body: Vec<u8>,
    content_type: Option<&'static str>,
    names: Names,
    /// The value of the first path parameter, if any.
    first_param: Option<String>,
    /// Its place in the attack, which every caller's copy shares.
    id: usize,
}

impl Probe {
    /// The same request naming made-up identifiers instead of the victim's.
    fn twin(&self) -> Option<Probe> {
        if self.names.is_empty() {
            return None;
        }
        let mut path = self.path.clone();
        let mut body = text(&self.body);
        for (from, to) in &self.names {
            path = path.replace(from.as_str(), to);
            body = body.replace(from.as_str(), to);
        }
        Some(Probe {
            path,
            body: body.into_bytes(),
            names: Vec::new(),
            ..self.clone()
        })
    }

    fn names_own_code_of(&self, victim: &Party) -> bool {
        self.first_param.as_deref() == Some(victim.own_code)
    }

    fn describe(&self) -> String {
        format!("{} {} {}", self.method, self.path, text(&self.body))
    }
}

/// Names of the `{params}` of a path template, in order.
fn path_params(template: &str) -> Vec<&str> {
    template
        .split('/')
        .filter_map(|seg| seg.strip_prefix('{')?.split_once('}').map(|(n, _)| n))
        .collect()
}

/// Every request of the attack on `route`: each path parameter and each required (or known)
/// query parameter set to each identifier an attacker could guess, with a body if it takes one.
fn probes(route: &'static Route, victim: &Party, attacker: &Party) -> Vec<Probe> {
    // (path, query, names, first path parameter)
    type Partial = (String, Vec<String>, Names, Option<String>);
    let prefix = if route.root { "" } else { BASE };
    let mut partial: Vec<Partial> = vec![(format!("{prefix}{}", route.path), vec![], vec![], None)];
    let expand = |partial: Vec<Partial>, name: &str, query: bool| -> Vec<Partial> {
        let mut out = Vec::new();
        for (path, q, names, first) in &partial {
            for id in idents_for(name, victim) {
                let mut names = names.clone();
                names.extend(id.private.clone());
                if query {
                    let mut q = q.clone();
                    q.push(format!("{name}={}", id.text));
                    out.push((path.clone(), q, names, first.clone()));
                } else {
                    let path = path.replace(&format!("{{{name}}}"), &id.text);
                    let first = first.clone().or_else(|| Some(id.text.clone()));
                    out.push((path, q.clone(), names, first));
                }
            }
        }
        out
    };
    for name in path_params(route.path) {
        partial = expand(partial, name, false);
    }
    // An explorer page takes the query of the data route whose answer it shows.
    let shown = EXPLORE_SHOWS
        .iter()
        .find(|(page, _)| *page == route.operation_id)
        .and_then(|(_, data)| ROUTES.iter().find(|r| r.operation_id == *data));
    for p in operations::of(shown.unwrap_or(route)).map_or(&[][..], |op| op.params) {
        if p.location == Location::Query && (p.required || OPTIONAL_QUERY.contains(&p.name)) {
            partial = expand(partial, p.name, true);
        }
    }
    for (operation, dimension) in DIMENSION_QUERY {
        if route.operation_id == *operation {
            partial = expand(partial, dimension, true);
        }
    }
    let mut out = Vec::new();
    for (path, query, names, first) in partial {
        let path = if query.is_empty() {
            path
        } else {
            format!("{path}?{}", query.join("&"))
        };
        let bodies = match route.body {
            BodyKind::None => vec![Body {
                bytes: Vec::new(),
                names: Vec::new(),
                content_type: None,
            }],
            BodyKind::Csv => {
                let code = first.clone().unwrap_or_else(|| SHARED.to_owned());
                vec![Body {
                    bytes: tidy_csv(&code, ATTACK_BASE, ATTACK_REGION).into_bytes(),
                    names: Vec::new(),
                    content_type: Some("text/csv"),
                }]
            }
            BodyKind::Json => json_bodies(route, victim, attacker),
        };
        for body in bodies {
            let mut names = names.clone();
            names.extend(body.names);
            out.push(Probe {
                operation: route.operation_id,
                method: route.method.to_string(),
                path: path.clone(),
                body: body.bytes,
                content_type: body.content_type,
                names,
                first_param: first.clone(),
                id: 0,
            });
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Caller {
    Anonymous,
    /// The attacker's key in `X-API-Key`.
    Key,
    /// The same key as `Authorization: Bearer`.
    KeyAsBearer,
    Session,
    /// A signed-in browser: the session cookie with its CSRF token in `X-CSRF-Token`.
    Cookie,
    /// The session cookie alone, as a page of another site makes the browser send it.
    CookieAlone,
    /// The session cookie with the CSRF token of another of the attacker's sessions.
    CookieOtherToken,
    /// The attacker's key calling the MCP tool that makes the route's request ([`mcp_call`]):
    /// its answer is the REST answer the tool returns.
    Mcp,
}

impl Caller {
    /// Callers whose credential is no credential: each must be answered exactly as nobody is.
    /// On an explorer page the session cookie alone reads as its account (a page only reads,
    /// and `SameSite=Strict` keeps other sites from sending the cookie), so there they are the
    /// signed-in browser.
    fn counts_as_anonymous(self, operation: &str) -> bool {
        matches!(self, Caller::CookieAlone | Caller::CookieOtherToken) && !explore_page(operation)
    }
}

fn explore_page(operation: &str) -> bool {
    ROUTES
        .iter()
        .any(|r| r.operation_id == operation && r.explore)
}

/// Those that count as anonymous right after the anonymous caller, so the state a request
/// changes is the same for the three.
const CALLERS: [Caller; 7] = [
    Caller::Anonymous,
    Caller::CookieAlone,
    Caller::CookieOtherToken,
    Caller::Key,
    Caller::KeyAsBearer,
    Caller::Session,
    Caller::Cookie,
];

/// What the attacker holds: its key, a session token, a signed-in browser, and the CSRF token
/// of another signed-in browser.
#[derive(Clone)]
struct Credentials {
    key: String,
    session: String,
    browser: Browser,
    other_csrf: String,
}

async fn send(client: &Client, probe: &Probe, caller: Caller, creds: &Credentials) -> Resp {
    if caller == Caller::Mcp {
        return send_mcp(client, probe, creds).await;
    }
    let bearer = format!("Bearer {}", creds.session);
    let key_as_bearer = format!("Bearer {}", creds.key);
    let mut headers: Vec<(&str, &str)> = Vec::new();
    match caller {
        Caller::Anonymous => {}
        Caller::Key => headers.push(("x-api-key", &creds.key)),
        Caller::KeyAsBearer => headers.push(("authorization", &key_as_bearer)),
        Caller::Session => headers.push(("authorization", &bearer)),
        Caller::Cookie => {
            headers.push(("cookie", &creds.browser.cookie));
            headers.push(("x-csrf-token", &creds.browser.csrf));
        }
        Caller::CookieAlone => headers.push(("cookie", &creds.browser.cookie)),
        Caller::CookieOtherToken => {
            headers.push(("cookie", &creds.browser.cookie));
            headers.push(("x-csrf-token", &creds.other_csrf));
        }
        Caller::Mcp => unreachable!("sent by send_mcp"),
    }
    if let Some(ct) = probe.content_type {
        headers.push(("content-type", ct));
    }
    client
        .send(Request {
            method: &probe.method,
            path: &probe.path,
            headers: &headers,
            body: probe.body.clone(),
        })
        .await
}

/// The MCP tool call that makes `probe`'s request, for the routes a tool mirrors: the JSON-RPC
/// `tools/call` naming the tool, with its arguments taken from the probe's path, query and body
/// (a tool takes no cursor and no dimension filter; `search_datasets` searches for the word
/// both accounts' private titles hold).
fn mcp_call(probe: &Probe) -> Option<Value> {
    let (path, query) = probe
        .path
        .strip_prefix(BASE)?
        .split_once('?')
        .unwrap_or((probe.path.strip_prefix(BASE)?, ""));
    let query: HashMap<&str, &str> = query.split('&').filter_map(|p| p.split_once('=')).collect();
    let list = |name: &str| query.get(name).map(|v| v.split(',').collect::<Vec<_>>());
    let level = query.get("level").and_then(|l| l.parse::<u8>().ok());
    let segments: Vec<&str> = path.split('/').skip(1).collect();
    let (tool, arguments) = match (probe.method.as_str(), segments.as_slice()) {
        ("GET", ["regions"]) => (
            "search_regions",
            json!({"query": query.get("q"), "level": level, "country": query.get("country")}),
        ),
        ("GET", ["regions", region, "profile"]) => (
            "region_profile",
            json!({"region": region, "as_of": query.get("as_of")}),
        ),
        ("GET", ["compare"]) => (
            "compare_regions",
            json!({"regions": list("regions"), "dataset": query.get("dataset"),
                   "period": query.get("period"), "as_of": query.get("as_of")}),
        ),
        ("GET", ["citations", citation]) => (
            "get_citation",
            json!({"citation": citation, "as_of": query.get("as_of")}),
        ),
        ("GET", ["datasets"]) => ("search_datasets", json!({"query": "secret"})),
        ("GET", ["intelligence", "correlations", "matrix"]) => (
            "correlation_matrix",
            json!({"region": query.get("nuts_code"), "datasets": list("datasets"),
                   "level": level, "method": query.get("method"), "as_of": query.get("as_of")}),
        ),
        ("POST", ["briefings"]) => {
            let body: Value = serde_json::from_slice(&probe.body).ok()?;
            (
                "create_briefing",
                json!({"region": body["region_nuts_code"], "briefing_type": body["briefing_type"]}),
            )
        }
        _ => return None,
    };
    Some(
        json!({"jsonrpc": "2.0", "id": probe.id, "method": "tools/call",
                "params": {"name": tool, "arguments": arguments}}),
    )
}

/// The tool's name in an MCP call.
fn mcp_tool(call: &Value) -> &str {
    call["params"]["name"].as_str().unwrap_or_default()
}

/// `probe` made by its MCP tool with the attacker's key. The answer is the REST answer the tool
/// returns (the text of its result), with the status its error names; a JSON-RPC error (no
/// tool reached) stays whole, as a 400.
async fn send_mcp(client: &Client, probe: &Probe, creds: &Credentials) -> Resp {
    let call = mcp_call(probe).expect("a route an MCP tool mirrors");
    let mut resp = client
        .send(Request {
            method: "POST",
            path: &format!("{BASE}/mcp"),
            headers: &[
                ("x-api-key", &creds.key),
                ("content-type", "application/json"),
                ("accept", "application/json, text/event-stream"),
                ("mcp-protocol-version", "2025-11-25"),
            ],
            body: call.to_string().into_bytes(),
        })
        .await;
    let message: Value = serde_json::from_slice(&resp.body).unwrap_or(Value::Null);
    if let Some(answer) = message["result"]["content"][0]["text"].as_str() {
        resp.body = answer.as_bytes().to_vec();
        if message["result"]["isError"] == true {
            let answer: Value = serde_json::from_str(answer).unwrap_or(Value::Null);
            resp.status = answer["error"]["status"].as_u64().map_or(599, |s| s as u16);
        }
    } else if message.get("error").is_some() {
        resp.status = 400;
    }
    resp
}

/// A probe's answer and, when it names a victim's object, the answer to its twin.
struct Outcome {
    probe: Probe,
    caller: Caller,
    resp: Resp,
    twin: Option<(Probe, Resp)>,
}

async fn run(client: &Client, probe: &Probe, caller: Caller, creds: &Credentials) -> Outcome {
    let resp = send(client, probe, caller, creds).await;
    let twin = match probe.twin() {
        Some(twin) => {
            let r = send(client, &twin, caller, creds).await;
            Some((twin, r))
        }
        None => None,
    };
    Outcome {
        probe: probe.clone(),
        caller,
        resp,
        twin,
    }
}

/// The attacker's requests to every route about the victim's objects, and the checks on them.
async fn attack(f: &Fixture, attacker: &Party, victim: &Party) {
    let (s, receiver) = (&f.s, &f.receiver);
    // The model wrote both accounts' briefings: the search below finds the victim's secrets in
    // the prompts made for the victim. Every prompt from now on is made for the attacker.
    if let Some(model) = &f.model {
        let prompts = std::mem::take(&mut *model.prompts.lock().unwrap());
        let text = serde_json::to_string(&prompts).unwrap();
        assert!(text.contains(victim.title), "{text}");
    }
    let before = victim.views(s).await;
    let mut all: Vec<Probe> = Vec::new();
    for route in ROUTES {
        let p = probes(route, victim, attacker);
        assert!(
            !p.is_empty(),
            "no request for {} {}",
            route.method,
            route.path
        );
        all.extend(p);
    }
    for (id, probe) in all.iter_mut().enumerate() {
        probe.id = id;
    }
    // Exports go one at a time too: an account runs one export at once (a second is refused).
    let (safe, mut unsafe_): (Vec<Probe>, Vec<Probe>) = all
        .into_iter()
        .partition(|p| (p.method == "GET" || p.method == "HEAD") && !p.path.contains("/export/"));
    // Creations last, so a dataset the attacker creates under the victim's code cannot change
    // how the other requests are answered.
    unsafe_.sort_by_key(|p| p.method == "POST");
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut requests = 0;

    // Read-only requests, a few at a time.
    let jobs: Vec<(Probe, Caller)> = safe
        .iter()
        .flat_map(|p| CALLERS.map(|c| (p.clone(), c)))
        .chain(mcp_probes(&safe))
        .collect();
    let mut chunks: Vec<Vec<(Probe, Caller)>> = (0..PARALLEL).map(|_| Vec::new()).collect();
    for (i, job) in jobs.into_iter().enumerate() {
        chunks[i % PARALLEL].push(job);
    }
    let mut creds = Credentials {
        key: attacker.account.api_key.clone(),
        session: attacker.session.clone(),
        browser: Browser::sign_in(s, &attacker.account).await,
        other_csrf: Browser::sign_in(s, &attacker.account).await.csrf,
    };
    let mut tasks = tokio::task::JoinSet::new();
    for chunk in chunks {
        let client = s.client.clone();
        let creds = creds.clone();
        tasks.spawn(async move {
            let mut out = Vec::new();
            for (probe, caller) in chunk {
                out.push(run(&client, &probe, caller, &creds).await);
            }
            out
        });
    }
    while let Some(done) = tasks.join_next().await {
        outcomes.extend(done.unwrap());
    }

    // Requests that change something (and exports), one at a time; a session ended by the attack
    // (logout) is replaced by a new one before the next request.
    // Sign-ins with a wrong password count against the victim's email per client address,
    // which waits after five: each caller signs in from an address of its own, one per route.
    let sign_in_from = |route: u8, caller: usize| {
        s.client
            .with_source(&format!("127.0.{route}.{}", caller + 1))
    };
    let sign_ins: Vec<[Client; 2]> = (0..CALLERS.len())
        .map(|i| [sign_in_from(1, i), sign_in_from(2, i)])
        .collect();
    for probe in &unsafe_ {
        if mcp_call(probe).is_some() {
            outcomes.push(run(&s.client, probe, Caller::Mcp, &creds).await);
        }
        for (i, caller) in CALLERS.into_iter().enumerate() {
            let client = match probe.operation {
                "login" => &sign_ins[i][0],
                "startBrowserSession" => &sign_ins[i][1],
                _ => &s.client,
            };
            outcomes.push(run(client, probe, caller, &creds).await);
            let bearer = format!("Bearer {}", creds.session);
            let still = match caller {
                Caller::Session => vec![("authorization", bearer.as_str())],
                Caller::Cookie => vec![
                    ("cookie", creds.browser.cookie.as_str()),
                    ("x-csrf-token", creds.browser.csrf.as_str()),
                ],
                _ => continue,
            };
            requests += 1;
            let check = s.call("GET", "/account/api-keys", &still, b"").await;
            if check.status == 401 {
                requests += 1;
                match caller {
                    Caller::Session => creds.session = s.login(&attacker.account).await,
                    _ => creds.browser = Browser::sign_in(s, &attacker.account).await,
                }
            }
        }
    }
    let twins = outcomes.iter().filter(|o| o.twin.is_some()).count();
    requests += outcomes.len() + twins;

    // Judge every answer.
    let secrets = victim.secrets();
    let mut failures: Vec<String> = Vec::new();
    let answers_of = |caller: Caller| -> HashMap<usize, &Outcome> {
        outcomes
            .iter()
            .filter(|o| o.caller == caller)
            .map(|o| (o.probe.id, o))
            .collect()
    };
    let anonymous = answers_of(Caller::Anonymous);
    let signed_in_browser = answers_of(Caller::Cookie);
    for o in &outcomes {
        let who = format!("{:?} {}", o.caller, o.probe.describe());
        let mut answers = vec![(&o.probe, &o.resp)];
        if let Some((twin, r)) = &o.twin {
            answers.push((twin, r));
        }
        for (probe, resp) in answers {
            // The body and every header, as one text to search.
            let mut body = text(&resp.body);
            for (name, value) in &resp.headers {
                let _ = write!(
                    body,
                    "\n{name}: {}",
                    String::from_utf8_lossy(value.as_bytes())
                );
            }
            // What the caller named (for the MCP caller, the tool's arguments: it drops some of
            // the route's parameters).
            let request = match o.caller {
                Caller::Mcp => mcp_call(probe).map(|c| c.to_string()).unwrap_or_default(),
                _ => format!("{} {}", probe.path, text(&probe.body)),
            };
            for secret in &secrets {
                if body.contains(secret.as_str()) && !request.contains(secret.as_str()) {
                    failures.push(format!(
                        "{who}: answer {} contains the victim's {secret:?}: {}",
                        resp.status,
                        clip(&body, secret)
                    ));
                }
            }
            // Suggestions for an unknown code come from what the caller may see: never the
            // victim's codes, not even the one asked for.
            let answer = normalised(&resp.body, &[]);
            let suggested = answer["error"]["details"]["suggestions"].to_string();
            if let Some(secret) = secrets.iter().find(|s| suggested.contains(s.as_str())) {
                failures.push(format!("{who}: suggests the victim's {secret:?}"));
            }
            // (599: a tool error without the API's envelope.)
            if matches!(resp.status, 500 | 429 | 599) {
                failures.push(format!(
                    "{who}: answered {}: {}",
                    resp.status,
                    clip(&body, "")
                ));
            }
        }
        if let Some((_, twin)) = &o.twin {
            // Naming the victim's object answers exactly like naming a made-up one: status and
            // body, successful answers included.
            let ours = without_suggestions(normalised(&o.resp.body, &o.probe.names));
            let missing = without_suggestions(normalised(&twin.body, &[]));
            let same = o.resp.status == twin.status && ours == missing;
            if !same {
                failures.push(format!(
                    "{who}: answers {} {ours} but for a missing object {} {missing}",
                    o.resp.status, twin.status
                ));
            }
        }
        let answer = |r: &Resp| without_token(normalised(&r.body, &[]));
        if o.caller.counts_as_anonymous(o.probe.operation) {
            // A cookie without its own CSRF token is nobody: answered exactly as nobody is,
            // on every route but the explorer's pages (a session opened by signing in differs
            // only in its token).
            let nobody = anonymous[&o.probe.id];
            if o.resp.status != nobody.resp.status || answer(&o.resp) != answer(&nobody.resp) {
                failures.push(format!(
                    "{who}: answers {} {} but anonymously {} {}",
                    o.resp.status,
                    answer(&o.resp),
                    nobody.resp.status,
                    answer(&nobody.resp)
                ));
            }
        } else if matches!(o.caller, Caller::CookieAlone | Caller::CookieOtherToken) {
            // On a page the cookie alone is the signed-in browser, whatever the header says.
            let browser = signed_in_browser[&o.probe.id];
            if o.resp.status != browser.resp.status || answer(&o.resp) != answer(&browser.resp) {
                failures.push(format!(
                    "{who}: answers {} but the signed-in browser {}",
                    o.resp.status, browser.resp.status
                ));
            }
        }
        if o.probe.method == "PUT"
            && o.caller != Caller::Anonymous
            && !o.caller.counts_as_anonymous(o.probe.operation)
            && o.probe.names_own_code_of(victim)
        {
            let v = normalised(&o.resp.body, &[]);
            if o.resp.status != 404 || v["error"]["code"] != "unknown_dataset" {
                failures.push(format!("{who}: expected 404 unknown_dataset, got {v}"));
            }
        }
    }
    // The session callers really are signed in (a refused cookie would be anonymous and show
    // nothing): each could list its own keys.
    for caller in [Caller::Session, Caller::Cookie] {
        if !outcomes.iter().any(|o| {
            o.caller == caller && o.probe.operation == "listApiKeys" && o.resp.status == 200
        }) {
            failures.push(format!("{caller:?} never got past authentication"));
        }
    }
    check_mcp_reached(&outcomes, attacker, &mut failures);
    // Every route was really attacked: some request to it got past authentication, the tier
    // and body checks (a route that refuses everything shows nothing about isolation).
    for route in ROUTES {
        let reached = outcomes.iter().any(|o| {
            o.probe.operation == route.operation_id
                && !matches!(o.resp.status, 401 | 403 | 415 | 422)
        });
        if !reached {
            failures.push(format!(
                "{} {}: no probe got past authentication and validation",
                route.method, route.path
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems in {} answers:\n{}",
        failures.len(),
        outcomes.len(),
        failures.join("\n")
    );

    // The victim's data is as it was, and its key still works.
    let after = victim.views(s).await;
    requests += 2 * before.len();
    for ((path, b), (_, a)) in before.iter().zip(&after) {
        assert_eq!(a, b, "{path} changed for the victim");
    }
    let bearer = format!("Bearer {}", victim.session);
    let r = s
        .call(
            "GET",
            "/account/api-keys",
            &[("authorization", &bearer)],
            b"",
        )
        .await;
    assert_eq!(r.status, 200, "{}", text(&r.body));
    let keys = r.json();
    let key = keys["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == victim.account.key_id.as_str())
        .expect("the victim's key is listed");
    assert_eq!(key["status"], "active");

    // The attacker's uploads to `shared_code` went to its own dataset.
    let r = s
        .call(
            "GET",
            &format!("/export/bulk/{SHARED}.csv"),
            &[attacker.key()],
            b"",
        )
        .await;
    requests += 2;
    let export = text(&r.body);
    assert!(export.contains(&format!("{ATTACK_BASE}.5")), "{export}");
    assert!(
        !export.contains(&format!("{}.5", attacker.shared_base)),
        "{export}"
    );
    // Nothing of the victim's reached a webhook endpoint but its own. The attacker's own
    // endpoint heard of the attacker's changes (keys, uploads): wait until all are delivered.
    let attacker_log = s
        .eventually_json(
            &format!("/webhooks/{}/deliveries?limit=100", attacker.webhooks[0]),
            &[attacker.key()],
            |v| {
                v["data"]
                    .as_array()
                    .is_some_and(|d| d.len() > 1 && d.iter().all(|d| d["status"] == "delivered"))
            },
        )
        .await;
    let heard = receiver
        .received()
        .iter()
        .filter(|r| r.path == attacker.hook_path)
        .count();
    assert!(
        heard > 1,
        "the attacker's endpoint heard of its changes: {attacker_log}"
    );
    for delivered in receiver.received() {
        if delivered.path == victim.hook_path {
            continue;
        }
        let body = text(&delivered.body);
        for secret in victim.secrets() {
            assert!(
                !body.contains(&secret),
                "a delivery to {} holds {secret}: {}",
                delivered.path,
                clip(&body, &secret)
            );
        }
    }
    // No prompt made for the attacker holds anything of the victim's, and there were some.
    if let Some(model) = &f.model {
        let prompts = model.prompts.lock().unwrap().clone();
        assert!(
            !prompts.is_empty(),
            "the attacker's briefings reached the model"
        );
        for prompt in &prompts {
            let text = serde_json::to_string(prompt).unwrap();
            for secret in victim.secrets() {
                assert!(
                    !text.contains(&secret),
                    "a prompt for the attacker holds {secret}: {}",
                    clip(&text, &secret)
                );
            }
        }
        eprintln!("isolation: {} prompts for the attacker", prompts.len());
    }
    eprintln!(
        "isolation: {} → {}: {} routes, {} requests ({} probes × {} callers, {} through MCP \
         tools, {} also sent with a missing twin)",
        attacker.account.email,
        victim.account.email,
        ROUTES.len(),
        requests,
        outcomes
            .iter()
            .filter(|o| o.caller == Caller::Anonymous)
            .count(),
        CALLERS.len(),
        outcomes.iter().filter(|o| o.caller == Caller::Mcp).count(),
        twins
    );
}

/// The probes an MCP tool makes, each for [`Caller::Mcp`].
fn mcp_probes(probes: &[Probe]) -> impl Iterator<Item = (Probe, Caller)> + '_ {
    probes
        .iter()
        .filter(|p| mcp_call(p).is_some())
        .map(|p| (p.clone(), Caller::Mcp))
}

/// The MCP caller was really its account, reaching every tool: each tool answered some probe
/// with data, `search_datasets` found the attacker's own private dataset, and a profile and a
/// citation read through a tool are the answers the key reads from their routes.
fn check_mcp_reached(outcomes: &[Outcome], attacker: &Party, failures: &mut Vec<String>) {
    let mcp: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| o.caller == Caller::Mcp)
        .collect();
    for tool in [
        "search_regions",
        "region_profile",
        "compare_regions",
        "get_citation",
        "search_datasets",
        "correlation_matrix",
        "create_briefing",
    ] {
        let answered = mcp.iter().any(|o| {
            mcp_call(&o.probe).is_some_and(|c| mcp_tool(&c) == tool)
                && normalised(&o.resp.body, &[]).get("data").is_some()
        });
        if !answered {
            failures.push(format!("the MCP tool {tool} never answered with data"));
        }
    }
    let found_own = mcp.iter().any(|o| {
        o.probe.operation == "listDatasets" && text(&o.resp.body).contains(attacker.title)
    });
    if !found_own {
        failures.push("search_datasets over MCP did not find the caller's own dataset".into());
    }
    let by_key: HashMap<usize, &Outcome> = outcomes
        .iter()
        .filter(|o| o.caller == Caller::Key)
        .map(|o| (o.probe.id, o))
        .collect();
    // Every MCP probe reached its tool where its route took the request.
    for o in &mcp {
        let unreached = normalised(&o.resp.body, &[]).get("jsonrpc").is_some();
        if unreached && (200..300).contains(&by_key[&o.probe.id].resp.status) {
            failures.push(format!(
                "MCP {}: no tool was reached: {}",
                o.probe.describe(),
                clip(&text(&o.resp.body), "")
            ));
        }
    }
    let mut compared = 0;
    for o in mcp
        .iter()
        .filter(|o| matches!(o.probe.operation, "getRegionProfile" | "getCitation"))
    {
        let rest = by_key[&o.probe.id];
        let (ours, theirs) = (
            normalised(&o.resp.body, &[]),
            normalised(&rest.resp.body, &[]),
        );
        if ours != theirs {
            failures.push(format!(
                "MCP {}: answers {} but its route {}",
                o.probe.describe(),
                clip(&ours.to_string(), ""),
                clip(&theirs.to_string(), "")
            ));
        }
        compared += 1;
    }
    if compared == 0 {
        failures.push("no MCP answer was compared with its route's".into());
    }
}

/// Bravo attacks Alpha over every route of the route table (each `{param}` set to each of
/// Alpha's identifiers or public ones, with every caller of [`CALLERS`], and through the MCP
/// tool that mirrors the route): no answer
/// holds anything of Alpha's, naming Alpha's objects answers like naming missing ones, writes
/// touch only Bravo's own data, and Alpha's data and key are as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_keeps_alpha_private_from_bravo() {
    let f = fixture(Settings::Test).await;
    attack(&f, &f.bravo, &f.alpha).await;
}

/// The same attack in the other direction: Alpha against Bravo.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_keeps_bravo_private_from_alpha() {
    let f = fixture(Settings::Test).await;
    attack(&f, &f.alpha, &f.bravo).await;
}

/// Bravo's attack on Alpha with the data on PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_keeps_alpha_private_from_bravo_on_postgres() {
    let f = fixture(Settings::Postgres).await;
    attack(&f, &f.bravo, &f.alpha).await;
}

/// Alpha's attack on Bravo with the data on PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_keeps_bravo_private_from_alpha_on_postgres() {
    let f = fixture(Settings::Postgres).await;
    attack(&f, &f.alpha, &f.bravo).await;
}

/// Bravo's attack on Alpha under production settings: public rows come from memory, and
/// briefings are written by a model, to which no prompt made for Bravo carries Alpha's data.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_keeps_alpha_private_from_bravo_under_production_settings() {
    let f = fixture(Settings::Production).await;
    attack(&f, &f.bravo, &f.alpha).await;
}

/// Alpha's attack on Bravo under production settings.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_route_keeps_bravo_private_from_alpha_under_production_settings() {
    let f = fixture(Settings::Production).await;
    attack(&f, &f.alpha, &f.bravo).await;
}

/// Profiles, dataset lists and details and comparisons show each account its own private data
/// and anonymous callers none, with `meta.access` saying so; asked in the order Alpha, Bravo,
/// anonymous (then again, from the answer cache), nobody is served another's cached answer, ETags
/// differ per caller, and one caller's ETag never earns another a 304.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_and_their_cache_are_per_account() {
    let Fixture {
        s,
        alpha: a,
        bravo: b,
        ..
    } = fixture(Settings::Test).await;
    let paths = [
        "/regions/DE21/profile",
        "/datasets",
        "/datasets/shared_code",
        COMPARE,
    ];
    let (a_secrets, b_secrets) = (a.secrets(), b.secrets());
    let a_session = format!("Bearer {}", a.session);
    for path in paths {
        let mut first: Vec<Value> = Vec::new();
        for round in 0..2 {
            let mut etags: Vec<Option<String>> = Vec::new();
            let callers: [(&str, Vec<(&str, &str)>); 4] = [
                ("alpha", vec![a.key()]),
                ("bravo", vec![b.key()]),
                ("anonymous", vec![]),
                ("alpha session", vec![("authorization", &a_session)]),
            ];
            for (i, (who, headers)) in callers.iter().enumerate() {
                let r = s.call("GET", path, headers, b"").await;
                let body = text(&r.body);
                let v = r.json();
                let (own, other): (&[String], Vec<&String>) = match *who {
                    "bravo" => (&b_secrets, a_secrets.iter().collect()),
                    "anonymous" => (&[], a_secrets.iter().chain(&b_secrets).collect()),
                    _ => (&a_secrets, b_secrets.iter().collect()),
                };
                for secret in other {
                    assert!(
                        !body.contains(secret.as_str()),
                        "{who} {path} round {round}: {secret}: {body}"
                    );
                }
                let access = if own.is_empty() { "public" } else { "account" };
                assert_eq!(v["meta"]["access"], access, "{who} {path}");
                if own.is_empty() {
                    if path.contains(SHARED) {
                        assert_eq!(r.status, 404, "{who} {path}: {body}");
                        assert_eq!(v["error"]["code"], "unknown_dataset", "{body}");
                    } else {
                        assert_eq!(r.status, 200, "{who} {path}: {body}");
                        assert!(!body.contains(SHARED), "{who} {path}: {body}");
                    }
                } else {
                    assert_eq!(r.status, 200, "{who} {path}: {body}");
                    // Its own title, and, where values are shown, its own first value.
                    assert!(body.contains(own[0].as_str()), "{who} {path}: {body}");
                    let party = if *who == "bravo" { &b } else { &a };
                    if path != "/datasets" && !path.starts_with("/datasets/") {
                        let value = format!("{}.5", party.shared_base);
                        assert!(body.contains(&value), "{who} {path}: {body}");
                    }
                    let cache = r.header("cache-control").unwrap_or("");
                    assert!(cache.starts_with("private"), "{who} {path}: {cache}");
                }
                if path == "/datasets" || path.ends_with("/profile") {
                    let codes = if path == "/datasets" {
                        v["data"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|d| d["code"].clone())
                            .collect::<Vec<_>>()
                    } else {
                        v["data"]["indicators"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|d| d["dataset"].clone())
                            .collect()
                    };
                    let has = |c: &str| codes.iter().any(|x| x == c);
                    assert_eq!(has("a_only"), who.starts_with("alpha"), "{who} {path}");
                    assert_eq!(has("b_only"), *who == "bravo", "{who} {path}");
                    assert_eq!(has(SHARED), *who != "anonymous", "{who} {path}");
                }
                let etag = r.header("etag").map(str::to_owned);
                if r.status == 200 {
                    assert!(etag.is_some(), "{who} {path}: no ETag");
                }
                etags.push(etag);
                let n = normalised(&r.body, &[]);
                if round == 0 {
                    first.push(n);
                } else {
                    assert_eq!(n, first[i], "{who} {path}: the cached answer differs");
                }
            }
            // Alpha's key and session are one account: one answer, one ETag.
            assert_eq!(etags[0], etags[3], "{path}");
            let distinct: BTreeSet<&Option<String>> = etags[..3].iter().collect();
            if etags[2].is_some() {
                assert_eq!(distinct.len(), 3, "{path}: {etags:?}");
            }
            // Alpha's ETag: 304 for Alpha, a full answer of their own for the others.
            let alpha_etag = etags[0].clone().unwrap();
            let r = s
                .call("GET", path, &[a.key(), ("if-none-match", &alpha_etag)], b"")
                .await;
            assert_eq!(r.status, 304, "{path}");
            for (who, headers) in [("bravo", vec![b.key()]), ("anonymous", vec![])] {
                let mut headers = headers.clone();
                headers.push(("if-none-match", &alpha_etag));
                let r = s.call("GET", path, &headers, b"").await;
                assert_ne!(r.status, 304, "{who} {path} revalidated with Alpha's ETag");
                let body = text(&r.body);
                assert!(!body.contains(a.title), "{who} {path}: {body}");
            }
        }
    }
}

/// Below HTTP, the store keeps accounts apart: Bravo's scoped handle finds none of Alpha's
/// citations, datasets, series, snapshots or rows; a request connection cannot prepare reads of
/// the protected tables (however the read is wrapped), and its views show no private rows while no
/// account is bound, and only the bound account's when one is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_store_enforces_isolation_below_http() {
    use regintel::store::Store;
    use regintel::store::sqlite::pool::{self, Role};

    let Fixture {
        s,
        alpha: a,
        bravo: b,
        ..
    } = fixture(Settings::Test).await;
    let store = Store::open(s.dir.path(), 1).unwrap();

    // Alpha's own handle sees Alpha's things (so the checks below are not vacuous).
    let alpha = store.scoped(Some(a.account.id)).unwrap();
    let a_only = alpha.dataset("a_only").unwrap().expect("alpha sees a_only");
    let a_shared = alpha.dataset(SHARED).unwrap().unwrap();
    assert!(a_shared.title.starts_with(a.title));
    assert!(alpha.citation(&a.citations[0]).unwrap().is_some());
    drop(alpha);

    let bravo = store.scoped(Some(b.account.id)).unwrap();
    for cit in &a.citations {
        assert!(bravo.citation(cit).unwrap().is_none(), "{cit}");
        assert_eq!(&bravo.chain_end(cit).unwrap().citation, cit);
    }
    assert!(bravo.citation(&b.citations[0]).unwrap().is_some());
    assert!(bravo.dataset("a_only").unwrap().is_none());
    let b_shared = bravo.dataset(SHARED).unwrap().unwrap();
    assert!(b_shared.title.starts_with(b.title), "{}", b_shared.title);
    let titles: Vec<String> = bravo
        .datasets()
        .unwrap()
        .into_iter()
        .map(|d| d.title.clone())
        .collect();
    assert!(titles.iter().all(|t| !t.contains(a.title)), "{titles:?}");
    assert!(titles.iter().any(|t| t.contains(b.title)), "{titles:?}");
    for dataset in [&a_only, &a_shared] {
        assert!(bravo.series_of(dataset.id).unwrap().is_empty());
        assert!(bravo.snapshots_of(dataset.id, None, 10).unwrap().is_empty());
        let mut rows = 0;
        bravo
            .for_each_export_row(dataset.id, &Default::default(), |_| {
                rows += 1;
                true
            })
            .unwrap();
        assert_eq!(rows, 0);
    }
    for region in ["DE21", "FR10", "DE2", "FR1"] {
        for row in bravo
            .headline_rows(region)
            .unwrap()
            .into_iter()
            .flat_map(|(_, rows)| rows)
        {
            assert!(
                !a.citations.contains(&row.citation_id.to_string()),
                "{region}"
            );
        }
    }
    drop(bravo);
    let anonymous = store.scoped(None).unwrap();
    assert!(anonymous.citation(&a.citations[0]).unwrap().is_none());
    assert!(anonymous.dataset(SHARED).unwrap().is_none());
    drop(anonymous);

    // A raw request connection.
    let conn = pool::open(&s.dir.path().join(regintel::store::DB_FILE), Role::Request).unwrap();
    let db = &conn.conn;
    // Every table of the schema but the public ones (listed from sqlite_master, so a table added
    // later is covered), however a read of it is wrapped, must be refused when prepared.
    let system = pool::open(&s.dir.path().join(regintel::store::DB_FILE), Role::System).unwrap();
    let protected = pool::protected_tables(&system.conn).unwrap();
    assert!(protected.len() >= 10, "{protected:?}");
    let mut prepared = Vec::new();
    for table in &protected {
        for sql in [
            format!("SELECT * FROM {table}"),
            format!("SELECT * FROM main.{table}"),
            format!("SELECT (SELECT count(*) FROM {table})"),
            format!("SELECT 1 WHERE EXISTS (SELECT 1 FROM {table})"),
            format!("SELECT * FROM (SELECT * FROM {table})"),
            format!("SELECT * FROM (SELECT * FROM {table}) AS t"),
            format!("SELECT * FROM v_regions JOIN (SELECT * FROM {table}) AS t ON 0"),
            format!("CREATE TEMP VIEW leak AS SELECT * FROM {table}"),
        ] {
            if db.prepare(&sql).is_ok() {
                prepared.push(sql);
            }
        }
    }
    let private_rows = |db: &rusqlite::Connection| -> Vec<(Option<i64>, String)> {
        db.prepare(
            "SELECT owner_account_id, citation_id FROM v_observations
             WHERE owner_account_id IS NOT NULL",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    };
    // Rows a query returns (plain `SELECT *`: the authorizer refuses some aggregates on views).
    let count = |db: &rusqlite::Connection, sql: &str| -> usize {
        let mut stmt = db.prepare(sql).unwrap_or_else(|e| panic!("{sql}: {e}"));
        let mut rows = stmt.query([]).unwrap();
        let mut n = 0;
        while rows.next().unwrap().is_some() {
            n += 1;
        }
        n
    };
    assert!(
        count(db, "SELECT * FROM v_observations LIMIT 10") > 0,
        "public rows are visible"
    );
    assert_eq!(private_rows(db), vec![]);
    assert_eq!(
        count(
            db,
            "SELECT * FROM v_datasets WHERE owner_account_id IS NOT NULL"
        ),
        0
    );
    assert_eq!(
        count(
            db,
            "SELECT * FROM v_snapshots WHERE owner_account_id IS NOT NULL"
        ),
        0
    );
    assert_eq!(count(db, "SELECT * FROM v_api_keys"), 0);
    assert_eq!(count(db, "SELECT * FROM v_accounts"), 0);

    conn.bind_account(Some(b.account.id));
    let rows = private_rows(db);
    assert_eq!(rows.len(), b.citations.len());
    assert!(
        rows.iter()
            .all(|(owner, cit)| *owner == Some(b.account.id) && b.citations.contains(cit))
    );
    assert_eq!(count(db, "SELECT * FROM v_api_keys"), 1);
    assert_eq!(count(db, "SELECT * FROM v_accounts"), 1);
    let datasets = count(
        db,
        &format!(
            "SELECT * FROM v_datasets WHERE owner_account_id = {}",
            a.account.id
        ),
    );
    assert_eq!(datasets, 0);
    conn.bind_account(None);
    assert_eq!(private_rows(db), vec![]);
    assert!(
        prepared.is_empty(),
        "a request connection (no account bound) prepared {} reads of protected tables:\n{}",
        prepared.len(),
        prepared.join("\n"),
    );
    // SQLite's authorizer names a CTE as the "view" responsible for a read, so a statement that
    // wraps a protected table in `WITH` cannot be told apart from a read through a real view
    // (even by name: a CTE may shadow one). Request connections therefore rely on never being
    // handed such a statement: all their SQL is fixed text in src/store/, and none uses WITH.
    let mut dirs = vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store")];
    let mut files = Vec::new();
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 20, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        for (i, line) in text.lines().enumerate() {
            let upper = line.to_ascii_uppercase();
            assert!(
                !(upper.contains("\"WITH ") || upper.trim_start().starts_with("WITH ")),
                "{}:{}: a CTE in store SQL would escape the authorizer: {line}",
                path.display(),
                i + 1
            );
        }
    }
}

/// A region code that only an account's private data uses (here DE21X, a NUTS-3-shaped code
/// under DE21 that no edition has) is that account's knowledge: other callers find it neither as
/// a region, nor in region lists and searches, nor among DE21's children; it answers like a
/// code that exists nowhere (DE21Y).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn region_codes_seen_only_in_private_data_stay_private() {
    let Fixture {
        s,
        alpha: a,
        bravo: b,
        ..
    } = fixture(Settings::Test).await;
    let csv = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,sex
a_only,DE21X,3,2022,7.5,NR,,T
";
    let r = s
        .call(
            "PUT",
            "/datasets/a_only/data",
            &[a.key(), ("content-type", "text/csv")],
            csv.as_bytes(),
        )
        .await;
    assert_eq!(r.status, 200, "{}", text(&r.body));
    // Alpha can use it, and finds it: its searches read its own regions from SQLite, not the
    // public regions' index.
    let r = s
        .call("GET", "/regions/DE21X/profile", &[a.key()], b"")
        .await;
    assert_eq!(r.status, 200, "{}", text(&r.body));
    let r = s.call("GET", "/regions?q=de21x", &[a.key()], b"").await;
    assert!(
        text(&r.body).contains("\"code\":\"DE21X\""),
        "{}",
        text(&r.body)
    );

    let bearer = format!("Bearer {}", b.session);
    let others: [(&str, Vec<(&str, &str)>); 3] = [
        ("bravo", vec![b.key()]),
        ("bravo session", vec![("authorization", &bearer)]),
        ("anonymous", vec![]),
    ];
    let mut failures = Vec::new();
    for (who, headers) in &others {
        for path in ["/regions/DE21X", "/regions/DE21X/profile"] {
            let r = s.call("GET", path, headers, b"").await;
            let twin = s
                .call("GET", &path.replace("DE21X", "DE21Y"), headers, b"")
                .await;
            let (ours, missing) = (
                normalised(&r.body, &[("DE21X".into(), "DE21Y".into())]),
                normalised(&twin.body, &[]),
            );
            if r.status != twin.status || ours != missing {
                failures.push(format!(
                    "{who} GET {path}: {} {ours}, but for DE21Y {} {missing}",
                    r.status, twin.status
                ));
            }
        }
        for path in [
            "/regions/DE21",
            "/regions?q=DE21X",
            "/regions?country=DE&level=3&limit=1000",
        ] {
            let r = s.call("GET", path, headers, b"").await;
            let body = text(&r.body);
            if body.contains("DE21X") {
                failures.push(format!(
                    "{who} GET {path} shows DE21X: {}",
                    clip(&body, "DE21X")
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
