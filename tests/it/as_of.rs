//! Reads as of a past moment, against the running server: what it answered at each moment
//! between imports is what it answers for that moment later; a figure's revisions; `as_of`
//! checked before anything is read.

use serde_json::{Value, json};

use crate::support::{Options, TestAccount, TestServer};
use regintel::store::accounts::Tier;

const BASE: &str = "/api/v1/regional";

/// The rounds of a private dataset's uploads: revisions, a flag that comes and goes, a value
/// back to an earlier one (a new row: its file differs), a new region and period.
const ROUNDS: [&str; 4] = [
    "nuts_code,period,value,flags\nDE21,2021,100,\nDE21,2022,110,p\nDE22,2021,200,\nDE22,2022,210,\n",
    "nuts_code,period,value,flags\nDE21,2022,111,\nDE22,2022,210,e\n",
    "nuts_code,period,value,flags\nDE21,2022,110,p\nDE22,2023,220,\nDE21,2023,120,\n",
    "nuts_code,period,value,flags\nDE21,2021,101,\nDE22,2023,221,p\n",
];

/// The reads recorded after each round and replayed as of its moment, with the caller's key:
/// the comparison (public data and private), the profile, the region and dataset lists, the
/// dataset with its snapshots and changes, its export, the explorer's figures (its CSV: the page
/// itself says it was read as of a moment); and, for those that cite values (true), each cited
/// value's citation.
fn reads() -> [(&'static str, bool); 12] {
    [
        ("/compare?regions=DE21,DE22&dataset=own_series", true),
        ("/compare?regions=DE21,DE22&dataset=tgs00010", true),
        ("/regions/DE21/profile", true),
        ("/regions?country=DE&level=1&limit=5", false),
        ("/datasets", false),
        ("/datasets/own_series", false),
        ("/datasets/own_series/snapshots", false),
        ("/datasets/own_series/changes", false),
        ("/export/bulk/own_series.csv", false),
        (
            "/explore/compare?regions=DE21,DE22&dataset=own_series&format=csv",
            false,
        ),
        ("/explore/regions/DE21?format=csv", false),
        ("/explore/maps/own_series?level=2&format=csv", false),
    ]
}

/// A read of the API (below its base path) or of the explorer's pages (at the root).
async fn get(s: &TestServer, who: &TestAccount, path: &str) -> crate::support::Resp {
    let url = match path.starts_with("/explore") {
        true => path.to_owned(),
        false => format!("{BASE}{path}"),
    };
    s.client.get_with(&url, &[who.key_header()]).await
}

fn is_csv(path: &str) -> bool {
    path.ends_with(".csv") || path.ends_with("format=csv")
}

/// `data` (an export: its CSV), and the citation ids it cites in order.
fn data_and_citations(r: &crate::support::Resp) -> (Value, Vec<String>) {
    if r.header("content-type")
        .is_some_and(|t| t.starts_with("text/csv"))
    {
        return (String::from_utf8_lossy(&r.body).into(), Vec::new());
    }
    let data = r.json()["data"].clone();
    let mut ids = Vec::new();
    collect_citations(&data, &mut ids);
    (data, ids)
}

fn collect_citations(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) if s.starts_with("cit_") => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|i| collect_citations(i, out)),
        Value::Object(members) => members.values().for_each(|m| collect_citations(m, out)),
        _ => {}
    }
}

/// The moment after everything so far: a millisecond the clock has moved past (so the next
/// import is later), waited for rather than assumed.
pub async fn a_moment_after_now() -> i64 {
    let now = regintel::runtime::clock::now_ms();
    crate::bounded::until(
        "the clock to move a millisecond",
        std::time::Duration::from_secs(60),
        || async {
            match regintel::runtime::clock::now_ms() > now {
                true => Ok(()),
                false => Err("not yet".to_owned()),
            }
        },
    )
    .await;
    now
}

/// Uploads the rounds one by one, recording the answers after each; then reads each moment
/// again with `as_of` and finds what was answered then, citations and `meta.as_of` included.
async fn answers_replay_as_they_were(s: &TestServer) {
    let who = s.account("analyst@example.org", Tier::Institutional);
    s.private_dataset(
        &who,
        json!({"code": "own_series", "title": "Own series", "unit": "NR", "dimensions": []}),
        ROUNDS[0],
    )
    .await;
    // Each moment with the answers of then: each read's data and the citations it holds.
    type Answers = Vec<(Value, Vec<String>)>;
    let mut recorded: Vec<(i64, Answers)> = Vec::new();
    for (round, csv) in ROUNDS.iter().enumerate() {
        if round > 0 {
            let put = s
                .call(
                    "PUT",
                    "/datasets/own_series/data",
                    &[who.key_header(), ("content-type", "text/csv")],
                    csv.as_bytes(),
                )
                .await;
            assert_eq!(put.status, 200, "{}", String::from_utf8_lossy(&put.body));
        }
        let mut answers = Vec::new();
        for (path, _) in reads() {
            let r = get(s, &who, path).await;
            assert_eq!(
                r.status,
                200,
                "{path}: {}",
                String::from_utf8_lossy(&r.body)
            );
            if !is_csv(path) {
                assert!(r.json()["meta"].get("as_of").is_none(), "no as_of asked");
            }
            answers.push(data_and_citations(&r));
        }
        recorded.push((a_moment_after_now().await, answers));
    }
    for (at, answers) in &recorded {
        let at_text = regintel::runtime::clock::rfc3339_millis(*at);
        for ((path, cites_values), (data, citations)) in reads().iter().zip(answers) {
            let joined = if path.contains('?') { '&' } else { '?' };
            let r = get(s, &who, &format!("{path}{joined}as_of={at_text}")).await;
            assert_eq!(
                r.status,
                200,
                "{path} as of {at_text}: {}",
                String::from_utf8_lossy(&r.body)
            );
            assert_eq!(&data_and_citations(&r).0, data, "{path} as of {at_text}");
            if is_csv(path) {
                continue;
            }
            let answer = r.json();
            let as_of = &answer["meta"]["as_of"];
            assert_eq!(as_of["at"], at_text.as_str(), "{answer}");
            assert_eq!(as_of["basis"], "imported");
            if !cites_values {
                continue;
            }
            assert!(!as_of["datasets"].as_array().unwrap().is_empty(), "{as_of}");
            // Each cited value (a row's: regions cite their classification rows too)
            // resolves, as of then, to a citation current then.
            let mut rows = 0;
            for id in citations.iter().take(12) {
                let c = get(s, &who, &format!("/citations/{id}?as_of={at_text}")).await;
                assert_eq!(c.status, 200, "{id}: {}", String::from_utf8_lossy(&c.body));
                let c = c.json();
                if c["data"].get("current_citation").is_some() {
                    assert_eq!(c["data"]["superseded_by"], Value::Null, "{c}");
                    assert_eq!(c["data"]["current_citation"], id.as_str(), "{c}");
                    rows += 1;
                }
            }
            assert!(rows > 0, "{path}: no row citation among the first cited");
        }
    }
    // The export's description as of a moment describes the export as of the same moment.
    let (at, _) = &recorded[1];
    let at_text = regintel::runtime::clock::rfc3339_millis(*at);
    let described = get(
        s,
        &who,
        &format!("/export/bulk/own_series.csv-metadata.json?as_of={at_text}"),
    )
    .await;
    assert_eq!(described.status, 200);
    let described: Value = serde_json::from_slice(&described.body).unwrap();
    assert_eq!(
        described["url"],
        format!("own_series.csv?as_of={at_text}&as_of_basis=imported").as_str()
    );
    assert_eq!(described["notes"][0]["as_of"]["at"], at_text.as_str());
    let export = &recorded[1].1[8].0;
    assert_eq!(
        described["notes"][0]["rows"],
        export.as_str().unwrap().lines().count() - 1,
        "the rows of the export as of then"
    );
    // A value the next round revised was superseded as of that round's moment, by a value of
    // that round's answer.
    for pair in recorded.windows(2) {
        let ((_, before), (at, after)) = (&pair[0], &pair[1]);
        let at_text = regintel::runtime::clock::rfc3339_millis(*at);
        let (gone, now): (Vec<&String>, &Vec<String>) = (
            before[0]
                .1
                .iter()
                .filter(|c| !after[0].1.contains(c))
                .collect(),
            &after[0].1,
        );
        assert!(
            !gone.is_empty(),
            "each round revises a value of the comparison"
        );
        for id in gone {
            let c = get(s, &who, &format!("/citations/{id}?as_of={at_text}"))
                .await
                .json();
            let current = c["data"]["current_citation"].as_str().unwrap();
            assert!(c["data"]["superseded_by"].is_string(), "{c}");
            assert!(now.iter().any(|n| n == current), "{c}");
        }
    }
    // DE21 2022 of the first round (110 p), revised to 111, then published as 110 p again by
    // another file (a row of its own: a citation names its file): three rows, the last current.
    let (first_answer, _) = &recorded[0].1[0];
    let first_value = &first_answer["regions"][0]["series"];
    let cited_2022 = (first_value.as_array().unwrap().iter())
        .find(|v| v["period"] == "2022")
        .unwrap()["citation"]
        .as_str()
        .unwrap()
        .to_owned();
    let revisions = get(s, &who, &format!("/citations/{cited_2022}/revisions"))
        .await
        .json();
    let values: Vec<(&str, bool)> = (revisions["data"].as_array().unwrap().iter())
        .map(|r| {
            (
                r["value_text"].as_str().unwrap(),
                r["is_current"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        values,
        [("110", false), ("111", false), ("110", true)],
        "{revisions}"
    );
    assert_eq!(revisions["meta"]["total"], 3);
    let first = &revisions["data"][0];
    assert_eq!(first["id"], cited_2022.as_str());
    assert_eq!(first["flags"][0]["code"], "p", "{first}");
    assert_eq!(
        first["published_at"],
        Value::Null,
        "an upload has no publication time"
    );
    assert_eq!(
        first["current"][0]["until"]["snapshot"], revisions["data"][1]["snapshot"],
        "the first value stood until the second's snapshot"
    );
    // Paged one at a time, the same list.
    let mut paged = Vec::new();
    let mut cursor: Option<String> = None;
    loop {
        let path = match &cursor {
            None => format!("/citations/{cited_2022}/revisions?limit=1"),
            Some(c) => format!("/citations/{cited_2022}/revisions?limit=1&cursor={c}"),
        };
        let page = get(s, &who, &path).await.json();
        paged.extend(page["data"].as_array().unwrap().iter().cloned());
        match page["meta"]["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(Value::Array(paged), revisions["data"]);
    // The citation links to them.
    let cited = get(s, &who, &format!("/citations/{cited_2022}"))
        .await
        .json();
    assert_eq!(
        cited["data"]["links"]["revisions"],
        format!("/citations/{cited_2022}/revisions").as_str()
    );

    // A snapshot the dataset did not have yet at a moment is none of its snapshots then.
    let latest = get(s, &who, "/datasets/own_series/snapshots").await.json();
    let latest = latest["data"][0]["id"].as_str().unwrap().to_owned();
    let first_moment = regintel::runtime::clock::rfc3339_millis(recorded[0].0);
    let early = get(
        s,
        &who,
        &format!("/datasets/own_series/changes?since_snapshot={latest}&as_of={first_moment}"),
    )
    .await;
    let error = early.error(400, "invalid_parameter");
    assert!(
        error["message"]
            .as_str()
            .unwrap()
            .contains("as of the moment read"),
        "{error}"
    );

    // Nobody else sees any of it, as of any moment.
    let other = s.account("other@example.org", Tier::Institutional);
    let (at, _) = recorded[1];
    let at_text = regintel::runtime::clock::rfc3339_millis(at);
    let r = get(
        s,
        &other,
        &format!("/compare?regions=DE21,DE22&dataset=own_series&as_of={at_text}"),
    )
    .await;
    r.error(404, "unknown_dataset");
    for path in [
        format!("/citations/{cited_2022}?as_of={at_text}"),
        format!("/citations/{cited_2022}/revisions"),
    ] {
        get(s, &other, &path).await.error(404, "not_found");
    }
    let profile = get(s, &other, &format!("/regions/DE21/profile?as_of={at_text}")).await;
    assert_eq!(profile.status, 200);
    assert!(!String::from_utf8_lossy(&profile.body).contains("own_series"));
}

/// On SQLite.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_as_of_each_moment_are_those_given_then() {
    let s = TestServer::start().await;
    answers_replay_as_they_were(&s).await;
}

/// On PostgreSQL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn answers_as_of_each_moment_are_those_given_then_on_postgres() {
    let s = TestServer::start_with(Options {
        postgres: true,
        ..Default::default()
    })
    .await;
    answers_replay_as_they_were(&s).await;
}

/// `as_of` is checked before anything is read: a moment after now, a malformed one and a basis
/// without a moment are refused (400); a date is the end of that day, today's is now; before a
/// dataset's first snapshot its comparison answers 404 `not_held_yet`, not an empty answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn as_of_is_checked_and_a_dataset_not_held_yet_says_so() {
    let s = TestServer::start().await;
    let now = regintel::runtime::clock::now_ms();
    let tomorrow = regintel::runtime::clock::rfc3339(now + 86_400_000);
    for (query, parameter) in [
        (format!("as_of={tomorrow}"), "as_of"),
        ("as_of=yesterday".to_owned(), "as_of"),
        ("as_of=2026-02-30".to_owned(), "as_of"),
        ("as_of_basis=published".to_owned(), "as_of_basis"),
        (
            "as_of=2026-01-01&as_of_basis=vintage".to_owned(),
            "as_of_basis",
        ),
    ] {
        let r = s
            .get(&format!(
                "/compare?regions=DE21,DE22&dataset=tgs00010&{query}"
            ))
            .await;
        let error = r.error(400, "invalid_parameter");
        assert_eq!(error["details"]["parameter"], parameter, "{query}: {error}");
    }
    // Before the bundled extract was imported here.
    let r = s
        .get("/compare?regions=DE21,DE22&dataset=tgs00010&as_of=2001-01-01")
        .await;
    let error = r.error(404, "not_held_yet");
    assert_eq!(error["details"]["dataset"], "tgs00010");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("did not exist yet at 2001-01-01T23:59:59.999Z"),
        "{message}"
    );
    // Its citations too.
    let today = s
        .get("/compare?regions=DE21,DE22&dataset=tgs00010")
        .await
        .json();
    let cited = today["data"]["regions"][0]["value"]["citation"]
        .as_str()
        .unwrap()
        .to_owned();
    s.get(&format!("/citations/{cited}?as_of=2001-01-01"))
        .await
        .error(404, "not_held_yet");
    // A matrix naming it too; as of today, the matrix of now.
    let matrix = "/intelligence/correlations/matrix?nuts_code=AT&datasets=tgs00010,tgs00007";
    let key = s.account("matrix@example.org", Tier::Professional);
    get(&s, &key, &format!("{matrix}&as_of=2001-01-01"))
        .await
        .error(404, "not_held_yet");
    let date_now = &regintel::runtime::clock::rfc3339(regintel::runtime::clock::now_ms())[..10];
    let now_matrix = get(&s, &key, matrix).await.json();
    let then_matrix = get(&s, &key, &format!("{matrix}&as_of={date_now}"))
        .await
        .json();
    assert_eq!(then_matrix["data"], now_matrix["data"]);
    assert_eq!(
        then_matrix["meta"]["as_of"]["datasets"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
    // The dataset itself, its snapshots, changes and export; the list held none of them.
    let institutional = s.account("export@example.org", Tier::Institutional);
    for path in [
        "/datasets/tgs00010",
        "/datasets/tgs00010/snapshots",
        "/datasets/tgs00010/changes",
        "/export/bulk/tgs00010.csv",
        "/export/bulk/tgs00010.csv-metadata.json",
    ] {
        get(&s, &institutional, &format!("{path}?as_of=2001-01-01"))
            .await
            .error(404, "not_held_yet");
    }
    let list = s.get("/datasets?as_of=2001-01-01").await.json();
    assert_eq!(list["data"], json!([]), "{list}");
    assert_eq!(list["meta"]["total"], 0);
    // The explorer's pages say they were read as of then, and link the page as of now; its
    // map of a dataset not held then is a 404 page saying why; a moment to come is refused.
    let page = s.client.get("/explore/regions/DE21?as_of=2001-01-01").await;
    assert_eq!(page.status, 200);
    let page = String::from_utf8_lossy(&page.body).into_owned();
    assert!(
        page.contains(
            "Read as of 2001-01-01T23:59:59.999Z (imported basis): the figures as this \
             installation answered then."
        ),
        "{page}"
    );
    assert!(page.contains("href=\"/explore/regions/DE21\""), "{page}");
    assert!(
        page.contains(
            "/regions/DE21/profile?as_of=2001-01-01T23:59:59.999Z&amp;as_of_basis=imported"
        ),
        "the API's answer as of the same moment: {page}"
    );
    let map = s
        .client
        .get("/explore/maps/tgs00010?as_of=2001-01-01")
        .await;
    assert_eq!(map.status, 404);
    assert!(String::from_utf8_lossy(&map.body).contains("did not exist yet"));
    let later = s
        .client
        .get(&format!("/explore/regions/DE21?as_of={tomorrow}"))
        .await;
    assert_eq!(later.status, 400);
    // A profile then had no figures at all.
    let profile = s.get("/regions/DE21/profile?as_of=2001-01-01").await.json();
    assert_eq!(profile["data"]["indicators"], json!([]), "{profile}");
    assert_eq!(profile["meta"]["as_of"]["datasets"], json!([]));
    // Today's date is now: the same answer as without as_of, with the snapshot it read.
    let date = &regintel::runtime::clock::rfc3339(regintel::runtime::clock::now_ms())[..10];
    let r = s
        .get(&format!(
            "/compare?regions=DE21,DE22&dataset=tgs00010&as_of={date}"
        ))
        .await
        .json();
    assert_eq!(r["data"], today["data"]);
    let read = &r["meta"]["as_of"]["datasets"][0];
    assert_eq!(read["dataset"], "tgs00010", "{r}");
    assert_eq!(read["snapshot"], today["meta"]["snapshots"][0], "{r}");
    assert_eq!(
        read["published_at"],
        Value::Null,
        "the bundled extract records no publication"
    );
    // Published basis: the bundled extract's snapshots count from their import.
    let r = s
        .get(&format!(
            "/compare?regions=DE21,DE22&dataset=tgs00010&as_of={date}&as_of_basis=published"
        ))
        .await
        .json();
    assert_eq!(r["data"], today["data"]);
    assert_eq!(r["meta"]["as_of"]["basis"], "published");
}

/// An answer as of a moment before the caller's latest import can no longer change: a strong
/// ETag (the release's), a year's `Cache-Control` (`private` for an account's answer), 304 for
/// that ETag, and the same answer and ETag after later imports. An answer as of a moment after
/// every import (or on the published basis) may still change, and is tagged as any other.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_as_of_a_past_moment_is_final() {
    let s = TestServer::start().await;
    let who = s.account("analyst@example.org", Tier::Professional);
    s.private_dataset(
        &who,
        json!({"code": "own_series", "title": "Own series", "unit": "NR", "dimensions": []}),
        ROUNDS[0],
    )
    .await;
    let moment = regintel::runtime::clock::rfc3339_millis(a_moment_after_now().await);
    let upload = |round: usize| {
        let s = &s;
        let who = &who;
        async move {
            let put = s
                .call(
                    "PUT",
                    "/datasets/own_series/data",
                    &[who.key_header(), ("content-type", "text/csv")],
                    ROUNDS[round].as_bytes(),
                )
                .await;
            assert_eq!(put.status, 200, "{}", String::from_utf8_lossy(&put.body));
        }
    };
    let path = format!("/compare?regions=DE21,DE22&dataset=own_series&as_of={moment}");
    // After every import yet: it may still change.
    let open = get(&s, &who, &path).await;
    assert!(
        open.header("etag").unwrap().starts_with("W/"),
        "{:?}",
        open.headers
    );
    assert_eq!(open.header("cache-control"), Some("private, no-cache"));
    upload(1).await;
    let fixed = get(&s, &who, &path).await;
    assert_eq!(fixed.status, 200);
    let etag = fixed.header("etag").unwrap().to_owned();
    assert!(!etag.starts_with("W/") && etag.starts_with('"'), "{etag}");
    assert!(etag.contains(env!("CARGO_PKG_VERSION")), "{etag}");
    assert_eq!(
        fixed.header("cache-control"),
        Some("private, max-age=31536000, immutable")
    );
    assert_eq!(fixed.json()["data"], open.json()["data"]);
    let not_modified = s
        .client
        .get_with(
            &format!("{BASE}{path}"),
            &[who.key_header(), ("if-none-match", &etag)],
        )
        .await;
    assert_eq!(not_modified.status, 304);
    upload(2).await;
    let later = get(&s, &who, &path).await;
    assert_eq!(later.header("etag"), Some(etag.as_str()));
    assert_eq!(later.json()["data"], open.json()["data"]);
    // On the published basis, a later fetch may still record an earlier publication.
    let published = get(&s, &who, &format!("{path}&as_of_basis=published")).await;
    assert!(published.header("etag").unwrap().starts_with("W/"));
    // A snapshot whose data were published long before they were imported here: as of a moment
    // between the two, the published basis reads it and the imported basis does not.
    rusqlite::Connection::open(s.dir.path().join(regintel::store::DB_FILE))
        .unwrap()
        .execute(
            "UPDATE snapshots SET published_at = ?1 WHERE id = (SELECT min(s.id) FROM snapshots s
             JOIN datasets d ON d.id = s.dataset_id WHERE d.code = 'own_series')",
            [regintel::runtime::clock::parse_rfc3339("2001-01-01T00:00:00Z").unwrap()],
        )
        .unwrap();
    let between = "/compare?regions=DE21,DE22&dataset=own_series&as_of=2001-06-01";
    get(&s, &who, between).await.error(404, "not_held_yet");
    let read = get(&s, &who, &format!("{between}&as_of_basis=published"))
        .await
        .json();
    assert_eq!(
        read["data"],
        open.json()["data"],
        "the first upload's values"
    );
    let resolved = &read["meta"]["as_of"]["datasets"][0];
    assert_eq!(
        resolved["published_at"], "2001-01-01T00:00:00.000Z",
        "{read}"
    );
    // Public data imported before the moment, and nothing since: not final yet.
    let public = s
        .get(&format!(
            "/compare?regions=DE21,DE22&dataset=tgs00010&as_of={moment}"
        ))
        .await;
    assert_eq!(public.status, 200);
    assert!(public.header("etag").unwrap().starts_with("W/"));
    assert_eq!(public.header("cache-control"), Some("public, max-age=300"));
}

/// A briefing written as of a moment is written from the data of then: before the data were
/// imported there is nothing to say; as of a moment after, the same claims as one written now,
/// the moment stored with it and named in `meta.as_of`. A moment that is not one is refused
/// at its field.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_briefing_is_written_from_the_data_as_of_a_moment() {
    let s = TestServer::start().await;
    let who = s.account("writer@example.org", Tier::Institutional);
    let create = |body: Value| {
        let (s, who) = (&s, &who);
        async move {
            s.call(
                "POST",
                "/briefings",
                &[who.key_header(), ("content-type", "application/json")],
                body.to_string().as_bytes(),
            )
            .await
        }
    };
    let body = json!({"region_nuts_code": "DE21", "briefing_type": "labour_market"});
    let now = create(body.clone()).await;
    assert_eq!(now.status, 201, "{}", String::from_utf8_lossy(&now.body));
    let now = now.json();
    assert!(now["data"].get("as_of").is_none());
    let moment = regintel::runtime::clock::rfc3339_millis(a_moment_after_now().await);
    let mut then = body.clone();
    then["as_of"] = moment.as_str().into();
    let written = create(then).await;
    assert_eq!(
        written.status,
        201,
        "{}",
        String::from_utf8_lossy(&written.body)
    );
    let written = written.json();
    assert_eq!(written["data"]["claims"], now["data"]["claims"]);
    assert_eq!(written["data"]["sections"], now["data"]["sections"]);
    assert_eq!(
        written["data"]["as_of"],
        json!({"at": moment, "basis": "imported"})
    );
    assert_eq!(written["meta"]["as_of"]["at"], moment.as_str());
    let stored = get(
        &s,
        &who,
        &format!("/briefings/{}", written["data"]["id"].as_str().unwrap()),
    )
    .await
    .json();
    assert_eq!(stored["data"]["as_of"], written["data"]["as_of"]);
    // Before the bundled extract was imported here, no figure to state.
    let mut before = body.clone();
    before["as_of"] = "2001-01-01".into();
    let refused = create(before).await;
    refused.error(422, "validation_failed");
    let mut bad = body;
    bad["as_of"] = "tomorrow".into();
    let error = create(bad).await.error(422, "validation_failed");
    assert_eq!(
        error["details"]["errors"][0]["pointer"], "#/as_of",
        "{error}"
    );
}

/// With the public rows held in memory, a read as of a moment reads the rows of then into
/// memory too (the bytes held grow by them) and answers as from the database (a server holding
/// none); each value cited then resolves, as of then, to itself.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_as_of_a_moment_from_memory_are_those_from_the_database() {
    let held = TestServer::start_with(Options {
        configure: Some(|c| c.public_data_bytes = 64 << 20),
        ..Default::default()
    })
    .await;
    let current = held.public_data_held().await;
    let database = TestServer::start().await;
    let today = &regintel::runtime::clock::rfc3339(regintel::runtime::clock::now_ms())[..10];
    let compare = format!("/compare?regions=DE21,DE22,FR10,AT13&dataset=tgs00010&as_of={today}");
    let profile = format!("/regions/DE21/profile?as_of={today}");
    for path in [&compare, &profile] {
        let (from_memory, from_database) = (held.get(path).await, database.get(path).await);
        assert_eq!(from_memory.status, 200, "{path}");
        assert_eq!(
            from_memory.json()["data"],
            from_database.json()["data"],
            "{path}"
        );
    }
    // A map's figures (each region's coverage and value of then, from memory): the same.
    let map = format!("/explore/maps/tgs00010?level=2&as_of={today}&format=csv");
    let (from_memory, from_database) =
        (held.client.get(&map).await, database.client.get(&map).await);
    assert_eq!(from_memory.status, 200);
    assert!(
        from_memory.body.len() > 1000,
        "{}",
        String::from_utf8_lossy(&from_memory.body)
    );
    assert_eq!(from_memory.body, from_database.body);
    // A dataset's series as of then (counted from the rows of then in memory): the same.
    for path in ["/datasets/tgs00010", "/datasets/demo_r_d3dens"] {
        let path = format!("{path}?as_of={today}");
        let (from_memory, from_database) = (held.get(&path).await, database.get(&path).await);
        assert_eq!(from_memory.status, 200, "{path}");
        let series = from_memory.json()["data"]["series"].clone();
        assert!(series.as_array().is_some_and(|s| !s.is_empty()), "{path}");
        assert_eq!(series, from_database.json()["data"]["series"], "{path}");
    }
    crate::bounded::until(
        "the rows as of then held beside the current ones",
        std::time::Duration::from_secs(120),
        || async {
            match crate::support::metric(&held.client, "regintel_public_data_bytes").await {
                Some(bytes) if bytes > current => Ok(()),
                other => Err(format!("{other:?} bytes, {current} before")),
            }
        },
    )
    .await;
    // Each value cited resolves, as of then, to itself.
    let values = &held.get(&compare).await.json()["data"]["regions"];
    for region in values.as_array().unwrap() {
        let id = region["value"]["citation"].as_str().unwrap();
        let c = held.get(&format!("/citations/{id}?as_of={today}")).await;
        assert_eq!(c.status, 200, "{}", String::from_utf8_lossy(&c.body));
        let c = c.json();
        assert_eq!(c["data"]["superseded_by"], Value::Null, "{c}");
        assert_eq!(c["data"]["current_citation"], id, "{c}");
    }
}
