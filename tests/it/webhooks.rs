//! Webhooks end to end: registration and its checks, deliveries signed as Standard Webhooks
//! specifies (checked with its official Python package), the events each change emits and who
//! receives them, rotation, resend and replay, the breaker on a failing receiver, and delivery
//! across a SIGKILL of the real binary.

use crate::bounded::Bounded;

use std::time::Duration;

use serde_json::{Value, json};

use crate::receiver::{Received, Receiver, verify};
use crate::support::{Options, TestAccount, TestServer, Tier, tool};

const MINUTE: Duration = Duration::from_secs(60);

async fn register(s: &TestServer, who: &TestAccount, url: &str, types: &[&str]) -> Value {
    let r = try_register(s, who, url, types).await;
    assert_eq!(r.0, 201, "{}", r.1);
    r.1["data"].clone()
}

async fn try_register(
    s: &TestServer,
    who: &TestAccount,
    url: &str,
    types: &[&str],
) -> (u16, Value) {
    let body = json!({"url": url, "event_types": types});
    let r = s
        .call(
            "POST",
            "/webhooks",
            &[who.key_header(), ("content-type", "application/json")],
            body.to_string().as_bytes(),
        )
        .await;
    (
        r.status,
        serde_json::from_slice(&r.body).unwrap_or(Value::Null),
    )
}

async fn send_test(s: &TestServer, who: &TestAccount, id: &str) -> String {
    let r = s
        .call(
            "POST",
            &format!("/webhooks/{id}/test"),
            &[who.key_header()],
            b"",
        )
        .await;
    assert_eq!(r.status, 202, "{}", String::from_utf8_lossy(&r.body));
    r.json()["data"]["event_id"].as_str().unwrap().to_owned()
}

fn types_of(received: &[Received]) -> Vec<String> {
    received
        .iter()
        .map(|r| r.json()["type"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn registration_checks_the_url_the_types_and_who_asks() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| c.webhook_egress.allow_loopback = false),
        ..Options::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    let b = s.account("b@example.org", Tier::Professional);
    let anonymous = s
        .call(
            "POST",
            "/webhooks",
            &[("content-type", "application/json")],
            br#"{"url":"https://example.org/","event_types":["webhook.test"]}"#,
        )
        .await;
    anonymous.error(401, "missing_credential");
    for (url, types, code) in [
        (
            "ftp://example.org/",
            vec!["webhook.test"],
            "validation_failed",
        ),
        (
            "https://user:pw@example.org/",
            vec!["webhook.test"],
            "validation_failed",
        ),
        (
            "https://example.org/",
            vec!["nope.event"],
            "validation_failed",
        ),
        ("https://example.org/", vec![], "validation_failed"),
        (
            "http://127.0.0.1:9/in",
            vec!["webhook.test"],
            "webhook_url_not_allowed",
        ),
        (
            "https://10.1.2.3/in",
            vec!["webhook.test"],
            "webhook_url_not_allowed",
        ),
        (
            "https://169.254.169.254/latest",
            vec!["webhook.test"],
            "webhook_url_not_allowed",
        ),
        (
            "https://[::1]/in",
            vec!["webhook.test"],
            "webhook_url_not_allowed",
        ),
        // Plain http is for allowed internal targets only, and this is public.
        (
            "http://93.184.215.14/in",
            vec!["webhook.test"],
            "webhook_url_not_allowed",
        ),
    ] {
        let (status, body) = try_register(&s, &a, url, &types).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (422, Some(code)),
            "{url} {types:?}: {body}"
        );
    }
    // A public literal address passes the check (nothing is sent until an event happens).
    let hook = register(
        &s,
        &a,
        "https://93.184.215.14/in",
        &["webhook.test", "webhook.test"],
    )
    .await;
    let id = hook["id"].as_str().unwrap();
    let secret = hook["secret"].as_str().unwrap();
    assert!(
        secret.starts_with("whsec_") && secret.len() == 50,
        "{secret}"
    );
    assert_eq!(
        hook["event_types"],
        json!(["webhook.test"]),
        "each type once"
    );
    assert_eq!(hook["status"], "enabled");
    assert_eq!(hook["breaker"]["state"], "closed");
    let listed = s.call("GET", "/webhooks", &[a.key_header()], b"").await;
    assert_eq!(listed.status, 200);
    assert!(
        !String::from_utf8_lossy(&listed.body).contains(&secret[6..]),
        "the secret is shown once"
    );
    assert_eq!(listed.json()["data"][0]["id"], id);
    // Another account neither sees nor changes it.
    let theirs = s.call("GET", "/webhooks", &[b.key_header()], b"").await;
    assert_eq!(theirs.json()["data"], json!([]));
    s.call("GET", &format!("/webhooks/{id}"), &[b.key_header()], b"")
        .await
        .error(404, "not_found");
    // Disabled, it takes no test; deleted, it is gone.
    let r = s
        .call(
            "PATCH",
            &format!("/webhooks/{id}"),
            &[a.key_header(), ("content-type", "application/json")],
            br#"{"status":"disabled","description":"paused"}"#,
        )
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(
        (
            r.json()["data"]["status"].clone(),
            r.json()["data"]["description"].clone()
        ),
        (json!("disabled"), json!("paused"))
    );
    s.call(
        "POST",
        &format!("/webhooks/{id}/test"),
        &[a.key_header()],
        b"",
    )
    .await
    .error(409, "conflict");
    let since = json!({"since": regintel::runtime::clock::rfc3339(regintel::runtime::clock::now_ms() - 60_000)});
    s.call(
        "POST",
        &format!("/webhooks/{id}/replay"),
        &[a.key_header(), ("content-type", "application/json")],
        since.to_string().as_bytes(),
    )
    .await
    .error(409, "conflict");
    let r = s
        .call("DELETE", &format!("/webhooks/{id}"), &[a.key_header()], b"")
        .await;
    assert_eq!(r.status, 204);
    s.call("GET", &format!("/webhooks/{id}"), &[a.key_header()], b"")
        .await
        .error(404, "not_found");
}

/// Keys created and revoked, a briefing, a test before and after a rotation: every delivery
/// verifies with the official `standardwebhooks` package, with both secrets during the grace.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deliveries_verify_with_the_official_standard_webhooks_package() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Institutional);
    let receiver = Receiver::start(204).await;
    let all = regintel::webhooks::events::TYPES;
    let hook = register(&s, &a, &receiver.url("/in"), &all).await;
    let id = hook["id"].as_str().unwrap().to_owned();
    let first_secret = hook["secret"].as_str().unwrap().to_owned();

    let session = format!("Bearer {}", s.login(&a).await);
    let r = s
        .call(
            "POST",
            "/account/api-keys",
            &[
                ("authorization", &session),
                ("content-type", "application/json"),
            ],
            br#"{"name":"ci"}"#,
        )
        .await;
    assert_eq!(r.status, 201);
    let key_id = r.json()["data"]["id"].as_str().unwrap().to_owned();
    let r = s
        .call(
            "DELETE",
            &format!("/account/api-keys/{key_id}"),
            &[("authorization", &session)],
            b"",
        )
        .await;
    assert_eq!(r.status, 204);
    let r = s
        .call(
            "POST",
            "/briefings",
            &[a.key_header(), ("content-type", "application/json")],
            br#"{"region_nuts_code":"DE21","briefing_type":"profile_summary"}"#,
        )
        .await;
    assert_eq!(r.status, 201);
    let briefing = r.json()["data"]["id"].as_str().unwrap().to_owned();
    send_test(&s, &a, &id).await;
    let mut before = receiver.wait_for(MINUTE, |r| r.len() >= 4).await;
    // Deliveries are unordered; sorted by type to look at each.
    before.sort_by_key(|r| r.json()["type"].as_str().unwrap().to_owned());
    assert_eq!(
        types_of(&before),
        [
            "api_key.created",
            "api_key.revoked",
            "briefing.created",
            "webhook.test"
        ]
    );
    assert_eq!(before[0].json()["data"]["key_id"], key_id.as_str());
    assert_eq!(before[1].json()["data"]["key_id"], key_id.as_str());
    assert_eq!(before[2].json()["data"]["briefing_id"], briefing.as_str());
    assert_eq!(
        before[2].json()["data"]["links"]["briefing"],
        format!("/briefings/{briefing}")
    );

    let r = s
        .call(
            "POST",
            &format!("/webhooks/{id}/rotate-secret"),
            &[a.key_header()],
            b"",
        )
        .await;
    assert_eq!(r.status, 200);
    let second_secret = r.json()["data"]["secret"].as_str().unwrap().to_owned();
    assert_ne!(second_secret, first_secret);
    assert!(r.json()["data"]["previous_secret_expires_at"].is_string());
    // A second rotation would drop the secret receivers may still verify with.
    s.call(
        "POST",
        &format!("/webhooks/{id}/rotate-secret"),
        &[a.key_header()],
        b"",
    )
    .await
    .error(409, "conflict");
    send_test(&s, &a, &id).await;
    let mut received = before;
    received.extend(
        receiver
            .wait_for(MINUTE, |r| r.len() >= 5)
            .await
            .split_off(4),
    );
    let last = &received[4];
    assert_eq!(
        last.header("webhook-signature").split(' ').count(),
        2,
        "both secrets sign"
    );

    let verified = verify_with_standardwebhooks(s.dir.path(), &received, |i| {
        if i < 4 {
            vec![first_secret.clone()]
        } else {
            vec![first_secret.clone(), second_secret.clone()]
        }
    });
    assert!(verified.starts_with("ok 5"), "{verified}");
    for (i, r) in received.iter().enumerate() {
        let check = |secret: &str| {
            verify(
                secret,
                r.header("webhook-id"),
                r.header("webhook-timestamp"),
                r.header("webhook-signature"),
                &r.body,
            )
        };
        assert!(
            check(&first_secret),
            "the Rust check of docs/webhooks.md accepts it"
        );
        assert_eq!(check(&second_secret), i == 4);
        assert!(
            !check("whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD"),
            "another secret"
        );
        assert_eq!(r.header("content-type"), "application/json");
        assert!(r.header("user-agent").starts_with("regintel-Webhooks/"));
    }
}

/// A private upload tells its owner which rows are new and revised (where, when, the value and
/// the one it replaces, and both citations), and no one else; the
/// delivery log shows each attempt; resend and replay send events again under the same id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_data_changes_reach_their_owner_only_and_can_be_sent_again() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let b = s.account("b@example.org", Tier::Professional);
    let receiver = Receiver::start(204).await;
    let hook_a = register(&s, &a, &receiver.url("/a"), &["dataset.updated"]).await;
    register(&s, &b, &receiver.url("/b"), &["dataset.updated"]).await;
    let r = s
        .call(
            "POST",
            "/datasets",
            &[a.key_header(), ("content-type", "application/json")],
            br#"{"code":"a_data","title":"A","unit":"NR","dimensions":[]}"#,
        )
        .await;
    assert_eq!(r.status, 201);
    let upload = |value: &str| {
        format!(
            "dataset_code,nuts_code,nuts_level,time,value,unit,flags\na_data,DE21,2,2021,{value},NR,\na_data,FR10,2,2021,7,NR,\n"
        )
    };
    for value in ["5", "6"] {
        let r = s
            .call(
                "PUT",
                "/datasets/a_data/data",
                &[a.key_header(), ("content-type", "text/csv")],
                upload(value).as_bytes(),
            )
            .await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    }
    let got = receiver.wait_for(MINUTE, |r| r.len() >= 2).await;
    assert!(
        got.iter().all(|r| r.path == "/a"),
        "only the owner hears of private data"
    );
    // Deliveries are unordered: the upload's event is the one with rows added.
    let mut got = got;
    got.sort_by_key(|r| r.json()["data"]["rows_added"] == 0);
    let (first, second) = (got[0].json(), got[1].json());
    assert_eq!(first["data"]["visibility"], "private");
    assert_eq!(first["data"]["rows_added"], 2);
    assert_eq!(first["data"]["changes"].as_array().unwrap().len(), 2);
    assert_eq!(second["data"]["rows_revised"], 1);
    let change = &second["data"]["changes"][0];
    assert_eq!(change["change"], "revised");
    // What changed, where and when: DE21's 2021 value went from 5 to 6.
    assert_eq!(change["region"], "DE21", "{change}");
    assert_eq!(change["period"], "2021");
    assert_eq!(change["unit"], "NR");
    assert_eq!(change["dimensions"], json!({}));
    assert_eq!(change["value"], "6");
    assert_eq!(change["previous_value"], "5");
    assert_eq!(
        (&change["flags"], &change["previous_flags"]),
        (&json!(""), &json!(""))
    );
    let added = &first["data"]["changes"][0];
    assert_eq!(added["change"], "added");
    assert_eq!(added["previous_value"], Value::Null);
    assert_eq!(added["replaces"], Value::Null);
    let replaced = change["replaces"].as_str().unwrap();
    assert!(
        first["data"]["changes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["citation_id"] == replaced),
        "the revision names the citation it supersedes"
    );
    // The new citation resolves.
    let cit = change["citation_id"].as_str().unwrap();
    let r = s
        .call("GET", &format!("/citations/{cit}"), &[a.key_header()], b"")
        .await;
    assert_eq!(r.status, 200);

    let id = hook_a["id"].as_str().unwrap();
    let log = s
        .eventually_json(
            &format!("/webhooks/{id}/deliveries"),
            &[a.key_header()],
            |v| {
                v["data"]
                    .as_array()
                    .is_some_and(|d| d.len() == 2 && d.iter().all(|d| d["status"] == "delivered"))
            },
        )
        .await;
    let newest = &log["data"][0];
    assert_eq!(newest["attempt_log"][0]["status_code"], 204);
    assert!(newest["attempt_log"][0]["latency_ms"].is_number());
    let delivery = newest["id"].as_str().unwrap();
    let r = s
        .call(
            "POST",
            &format!("/webhooks/deliveries/{delivery}/resend"),
            &[a.key_header()],
            b"",
        )
        .await;
    assert_eq!(r.status, 202);
    s.call(
        "POST",
        &format!("/webhooks/deliveries/{delivery}/resend"),
        &[b.key_header()],
        b"",
    )
    .await
    .error(404, "not_found");
    let again = receiver.wait_for(MINUTE, |r| r.len() >= 3).await;
    assert_eq!(
        again[2].header("webhook-id"),
        got[1].header("webhook-id"),
        "same event, same id"
    );
    assert_eq!(again[2].body, got[1].body, "the same bytes");

    // A delivery still pending is left as it is by a replay: wait until the resend is recorded.
    let all_delivered = |v: &Value| {
        v["data"]
            .as_array()
            .is_some_and(|d| d.iter().all(|d| d["status"] == "delivered"))
    };
    let recorded = s
        .eventually_json(
            &format!("/webhooks/{id}/deliveries"),
            &[a.key_header()],
            all_delivered,
        )
        .await;
    assert!(all_delivered(&recorded), "{recorded}");
    let since = regintel::runtime::clock::rfc3339(regintel::runtime::clock::now_ms() - 3_600_000);
    let r = s
        .call(
            "POST",
            &format!("/webhooks/{id}/replay"),
            &[a.key_header(), ("content-type", "application/json")],
            json!({"since": since, "include_delivered": true})
                .to_string()
                .as_bytes(),
        )
        .await;
    assert_eq!(r.status, 202, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["data"]["complete"], true);
    // The replay also sends the public imports of the last hour (the test database's own).
    let both = |r: &[Received]| {
        [&got[0], &got[1]].iter().all(|g| {
            r[3..]
                .iter()
                .any(|x| x.header("webhook-id") == g.header("webhook-id"))
        })
    };
    let replayed = receiver.wait_for(MINUTE, |r| r.len() >= 5 && both(r)).await;
    let ids: Vec<&str> = replayed[3..]
        .iter()
        .map(|r| r.header("webhook-id"))
        .collect();
    assert!(
        ids.contains(&got[0].header("webhook-id")) && ids.contains(&got[1].header("webhook-id")),
        "replayed {ids:?}; all: {:?}; replay answered {}",
        replayed
            .iter()
            .map(|r| r.header("webhook-id"))
            .collect::<Vec<_>>(),
        String::from_utf8_lossy(&r.body)
    );
    assert!(replayed.iter().all(|r| r.path == "/a"));
    // Once an hour per endpoint: a second replay is refused with the time to wait.
    let again = s
        .call(
            "POST",
            &format!("/webhooks/{id}/replay"),
            &[a.key_header(), ("content-type", "application/json")],
            json!({"since": since}).to_string().as_bytes(),
        )
        .await;
    let retry_after: u64 = again.header("retry-after").unwrap().parse().unwrap();
    assert!((3_000..=3_600).contains(&retry_after), "{retry_after}");
    let e = again.error(429, "rate_limit_exceeded");
    assert_eq!(
        e["details"]["violated_policies"],
        json!(["endpoint-replays"])
    );
    let r = s
        .call(
            "POST",
            &format!("/webhooks/{id}/replay"),
            &[a.key_header(), ("content-type", "application/json")],
            br#"{"since":"2020-01-01T00:00:00Z"}"#,
        )
        .await;
    r.error(422, "validation_failed");
}

/// A public import (here by another process, as `regintel import` runs) reaches every endpoint
/// subscribed to `dataset.updated`, of every account, and no other; a change of more rows than
/// an event lists says so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_public_import_reaches_every_subscribed_endpoint() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let b = s.account("b@example.org", Tier::Institutional);
    let receiver = Receiver::start(204).await;
    register(&s, &a, &receiver.url("/a"), &["dataset.updated"]).await;
    register(&s, &b, &receiver.url("/b"), &["dataset.updated"]).await;
    register(&s, &b, &receiver.url("/other"), &["briefing.created"]).await;
    let rows = regintel::webhooks::events::MAX_LISTED_CHANGES + 50;
    let mut csv = String::from("dataset_code,nuts_code,nuts_level,time,value,unit,flags\n");
    for i in 0..rows {
        csv.push_str(&format!("pub_test,DE21,2,{},{i},NR,\n", 1800 + i));
    }
    let file = s.dir.path().join("pub_test.csv");
    std::fs::write(&file, csv).unwrap();
    let store = regintel::store::Store::open(s.dir.path(), 1).unwrap();
    regintel::import::import_files(
        &store,
        &regintel::bundled::Catalogue::bundled(),
        &[&file],
        &Default::default(),
        None,
        &regintel::import::Room::default(),
        &mut regintel::runtime::progress::Progress::hidden(),
    )
    .unwrap();
    let got = receiver.wait_for(MINUTE, |r| r.len() >= 2).await;
    let mut paths: Vec<&str> = got.iter().map(|r| r.path.as_str()).collect();
    paths.sort_unstable();
    assert_eq!(paths, ["/a", "/b"]);
    let data = got[0].json()["data"].clone();
    assert_eq!(data["visibility"], "public");
    assert_eq!(data["dataset"], "pub_test");
    assert_eq!(data["rows_added"], rows);
    assert_eq!(
        data["changes"].as_array().unwrap().len(),
        regintel::webhooks::events::MAX_LISTED_CHANGES
    );
    assert_eq!(data["changes_complete"], false);
    assert_eq!(data["links"]["export"], "/export/bulk/pub_test.csv");
    let cit = data["changes"][0]["citation_id"].as_str().unwrap();
    let r = s.call("GET", &format!("/citations/{cit}"), &[], b"").await;
    assert_eq!(r.status, 200, "a listed citation resolves");
    assert_eq!(
        got[0].body, got[1].body,
        "one event, the same bytes to each"
    );
    // The outbox was written with the import: one delivery per subscribed endpoint, none to the
    // endpoint subscribed to another event, so nothing more can arrive.
    let deliveries: Vec<String> = outbox_db(&s)
        .prepare(
            "SELECT p.url FROM webhook_deliveries d
             JOIN webhook_endpoints p ON p.id = d.endpoint_id ORDER BY p.url",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(deliveries, [receiver.url("/a"), receiver.url("/b")]);
}

/// The test server's database, read as it stands.
fn outbox_db(s: &TestServer) -> rusqlite::Connection {
    rusqlite::Connection::open(s.dir.path().join(regintel::store::DB_FILE)).unwrap()
}

/// A professional account with a daily cap of 10 hears at the 8th call and at the 10th, and
/// again at the 8th of the next UTC day (reached on the rate limiter's clock).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn usage_thresholds_are_announced_at_80_and_100_percent() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| c.limits.professional.day = 10),
        ..Options::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    let receiver = Receiver::start(204).await;
    register(&s, &a, &receiver.url("/in"), &["usage.threshold"]).await;
    // The day's count is written about once a second: eight calls, written; then four more,
    // written. The second write starts past the 80 % mark, which must not be announced again.
    let written = |day: &str, at_least: i64| {
        crate::bounded::until_blocking("the day's count written", MINUTE, || {
            let used: Option<i64> = outbox_db(&s)
                .query_row(
                    "SELECT max(used) FROM usage_daily WHERE day = ?1",
                    [day],
                    |r| r.get(0),
                )
                .unwrap();
            match used.unwrap_or(0) >= at_least {
                true => Ok(()),
                false => Err(format!("{used:?} of {day}")),
            }
        })
    };
    let today = regintel::store::usage::day_label(s.today());
    for calls in [8, 4] {
        for _ in 0..calls {
            s.call("GET", "/regions/DE21", &[a.key_header()], b"").await;
        }
        written(&today, if calls == 8 { 8 } else { 10 });
    }
    let got = receiver.wait_for(MINUTE, |r| r.len() >= 2).await;
    let marks: Vec<Value> = got
        .iter()
        .map(|r| r.json()["data"]["threshold_percent"].clone())
        .collect();
    // Unordered: deliveries may overtake each other.
    let mut marks: Vec<i64> = marks.iter().filter_map(Value::as_i64).collect();
    marks.sort_unstable();
    assert_eq!(marks, [80, 100]);
    assert_eq!(got[1].json()["data"]["daily_cap"], 10);
    // Each threshold once a day: two events in all, and the day's count past both marks, so that
    // no later write of it can cross one again.
    let (events, used): (i64, i64) = outbox_db(&s)
        .query_row(
            "SELECT (SELECT count(*) FROM webhook_events WHERE type = 'usage.threshold'),
                    (SELECT max(used) FROM usage_daily)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(events, 2);
    assert!(used >= 10, "{used}");

    // The next day (half a day and a second past noon) starts a count of its own: its 8th call
    // is announced again, for that day.
    s.limits_clock.advance(12 * 3600 * 1000 + 1000);
    let tomorrow = regintel::store::usage::day_label(s.today());
    assert_ne!(tomorrow, today);
    for _ in 0..8 {
        let r = s.call("GET", "/regions/DE21", &[a.key_header()], b"").await;
        assert_eq!(r.status, 200, "the cap starts again");
    }
    written(&tomorrow, 8);
    let got = receiver.wait_for(MINUTE, |r| r.len() >= 3).await;
    let next_day: Vec<Value> = (got.iter().map(|r| r.json()["data"].clone()))
        .filter(|d| d["day"] == tomorrow.as_str())
        .collect();
    assert_eq!(next_day.len(), 1, "{next_day:?}");
    assert_eq!(next_day[0]["threshold_percent"], 80);
}

/// `POST /webhooks/deliveries/{delivery}/resend` as `who`: accepted (202), its data.
async fn resend(s: &TestServer, who: &TestAccount, delivery: &str) -> Value {
    let r = s
        .call(
            "POST",
            &format!("/webhooks/deliveries/{delivery}/resend"),
            &[who.key_header()],
            b"",
        )
        .await;
    assert_eq!(r.status, 202, "{}", String::from_utf8_lossy(&r.body));
    r.json()["data"].clone()
}

/// A resend sends a delivery waiting for its retry now: after two failed attempts the next is
/// five minutes off (on the outbox's clock, which does not move here), yet the resent one
/// arrives at once, under the same id, its attempts kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resend_sends_a_delivery_waiting_for_its_retry_now() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let receiver = Receiver::start(500).await;
    let hook = register(&s, &a, &receiver.url("/in"), &["webhook.test"]).await;
    let id = hook["id"].as_str().unwrap();
    let event = send_test(&s, &a, id).await;
    receiver.wait_for(MINUTE, |r| !r.is_empty()).await;
    // The retry 5 s later, brought on by the clock: it fails too.
    s.webhook_clock.advance(10_000);
    let failed = receiver.wait_for(MINUTE, |r| r.len() >= 2).await;
    assert_eq!(failed.len(), 2, "two attempts");
    let log = s
        .eventually_json(
            &format!("/webhooks/{id}/deliveries"),
            &[a.key_header()],
            |v| v["data"][0]["attempts"] == 2,
        )
        .await;
    assert_eq!(log["data"][0]["status"], "pending", "{log}");
    let delivery = log["data"][0]["id"].as_str().unwrap();

    receiver.answer(204);
    let resent = &resend(&s, &a, delivery).await;
    assert_eq!(resent["sending"], "now", "{resent}");
    assert_eq!(resent["not_before"], Value::Null);
    assert_eq!(resent["breaker"], "closed");
    let got = receiver.wait_for(MINUTE, |r| r.len() >= 3).await;
    assert_eq!(
        got.len(),
        3,
        "the resent delivery arrived before its retry was due"
    );
    assert_eq!(got[2].header("webhook-id"), event);
    let done = s
        .eventually_json(
            &format!("/webhooks/{id}/deliveries"),
            &[a.key_header()],
            |v| v["data"][0]["status"] == "delivered",
        )
        .await;
    assert_eq!(done["data"][0]["attempts"], 3, "{done}");
}

/// A receiver that fails: ten failed attempts open the breaker (visible in the API), later
/// deliveries wait; when it recovers, the probe closes the breaker and everything arrives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_receiver_opens_the_breaker_and_its_recovery_closes_it() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let receiver = Receiver::start(500).await;
    let hook = register(&s, &a, &receiver.url("/in"), &["webhook.test"]).await;
    let id = hook["id"].as_str().unwrap();
    let mut events = Vec::new();
    for _ in 0..12 {
        events.push(send_test(&s, &a, id).await);
    }
    let open = s
        .eventually_json(&format!("/webhooks/{id}"), &[a.key_header()], |v| {
            v["data"]["breaker"]["state"] == "open"
        })
        .await;
    assert_eq!(open["data"]["breaker"]["state"], "open", "{open}");
    // Attempts already in flight when it opened may add their failures.
    assert!(
        open["data"]["breaker"]["consecutive_failures"].as_i64() >= Some(10),
        "{open}"
    );
    let failed_so_far = receiver.received().len();
    assert!(failed_so_far >= 10);
    // A resend while the breaker is open is due, and says the breaker holds it, until when.
    let list = s
        .call(
            "GET",
            &format!("/webhooks/{id}/deliveries?limit=1"),
            &[a.key_header()],
            b"",
        )
        .await
        .json();
    let delivery = list["data"][0]["id"].as_str().unwrap();
    let resent = &resend(&s, &a, delivery).await;
    assert_eq!(resent["sending"], "when_the_breaker_allows", "{resent}");
    assert_eq!(resent["breaker"], "open");
    let until = resent["not_before"].as_str().unwrap();
    assert!(
        regintel::runtime::clock::parse_rfc3339(until).is_some(),
        "{until}"
    );

    receiver.answer(204);
    // Past the 5 minutes the breaker stays open, without waiting for them.
    s.webhook_clock.advance(6 * 60 * 1000);
    let delivered = receiver
        .wait_for(MINUTE, |r| {
            events
                .iter()
                .all(|e| r.iter().any(|x| x.header("webhook-id") == e))
                && r.len() >= failed_so_far + events.len()
        })
        .await;
    for e in &events {
        assert!(
            delivered.iter().any(|r| r.header("webhook-id") == e),
            "{e} arrived"
        );
    }
    let closed = s
        .eventually_json(&format!("/webhooks/{id}"), &[a.key_header()], |v| {
            v["data"]["breaker"]["state"] == "closed"
        })
        .await;
    assert_eq!(closed["data"]["breaker"]["state"], "closed", "{closed}");
    assert_eq!(closed["data"]["status"], "enabled");
    let log = s
        .eventually_json(
            &format!("/webhooks/{id}/deliveries?limit=100"),
            &[a.key_header()],
            |v| {
                v["data"]
                    .as_array()
                    .is_some_and(|d| d.iter().all(|d| d["status"] == "delivered"))
            },
        )
        .await;
    let deliveries = log["data"].as_array().unwrap();
    assert_eq!(deliveries.len(), events.len());
    assert!(
        deliveries.iter().all(|d| d["status"] == "delivered"),
        "{log}"
    );
    assert!(
        deliveries
            .iter()
            .any(|d| d["attempt_log"][0]["status_code"] == 500),
        "the failed attempts are in the log"
    );
}

/// The real binary, killed with SIGKILL while deliveries are in flight, then started again on
/// the same data directory: each of 60 events arrives at least once, correctly signed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_event_arrives_after_the_server_is_killed_mid_delivery() {
    use crate::support::{Client, bundled_db, run_ok, serve_plain, start_plain};
    const EVENTS: usize = 60;
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(bundled_db(), dir.path().join(regintel::store::DB_FILE)).unwrap();
    let d = dir.path();
    run_ok(
        &[
            "account",
            "create",
            "a@example.org",
            "--tier",
            "professional",
        ],
        d,
        None,
    );
    let key: Value = serde_json::from_str(&run_ok(
        &["key", "create", "a@example.org", "--json"],
        d,
        None,
    ))
    .unwrap();
    let key = key["api_key"].as_str().unwrap().to_owned();
    // Slow answers: deliveries are under way when the server dies.
    let receiver = Receiver::start_slow(204, Duration::from_millis(300)).await;
    let serve = || {
        let mut cmd = serve_plain(d);
        cmd.args(["--webhook-allow-loopback", "--no-rate-limits"]);
        start_plain(&mut cmd)
    };
    let first = serve();
    let client = Client::new(first.addr, None);
    let (hook, events) =
        endpoint_with_test_events(&client, &key, &receiver.url("/in"), EVENTS).await;
    let secret = hook["secret"].as_str().unwrap();
    let seen_before = receiver.wait_for(MINUTE, |r| r.len() >= 6).await.len();
    assert!(
        (6..EVENTS).contains(&seen_before),
        "killed mid-delivery ({seen_before} seen)"
    );
    let mut first = first;
    first.child.0.kill().unwrap();
    crate::bounded::wait(&mut first.child.0, "the killed node's end");

    let _second = serve();
    let all = all_arrive(&receiver, &events).await;
    // A message sent twice is the same message, byte for byte (its timestamp, and so its
    // signature, are the attempt's).
    let mut first_of: std::collections::HashMap<&str, &Received> = Default::default();
    for r in &all {
        if let Some(first) = first_of.insert(r.header("webhook-id"), r) {
            assert_eq!(first.body, r.body, "{}", r.header("webhook-id"));
        }
    }
    // And the outbox ends as it should: every delivery recorded delivered, no lease left.
    let db = rusqlite::Connection::open(d.join(regintel::store::DB_FILE)).unwrap();
    let settled = |db: &rusqlite::Connection| -> (i64, i64) {
        db.query_row(
            "SELECT count(*) FILTER (WHERE status = 'delivered'),
                    count(*) FILTER (WHERE lease_until IS NOT NULL)
             FROM webhook_deliveries",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap()
    };
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while settled(&db) != (EVENTS as i64, 0) {
        assert!(
            std::time::Instant::now() < deadline,
            "not settled: {:?}",
            settled(&db)
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    verify_with_standardwebhooks(d, &all, |_| vec![secret.to_owned()]);
    eprintln!(
        "crash test: {seen_before} requests before the kill, {} in all for {EVENTS} events",
        all.len()
    );
}

/// Checks every delivery with the official `standardwebhooks` Python package
/// (tests/it/webhooks_py/verify.py), the i-th against each of `secrets(i)`; what it printed.
pub fn verify_with_standardwebhooks(
    dir: &std::path::Path,
    received: &[Received],
    secrets: impl Fn(usize) -> Vec<String>,
) -> String {
    let cases: Vec<Value> = received
        .iter()
        .enumerate()
        .map(|(i, r)| {
            json!({
                "headers": {
                    "webhook-id": r.header("webhook-id"),
                    "webhook-timestamp": r.header("webhook-timestamp"),
                    "webhook-signature": r.header("webhook-signature"),
                },
                "body": String::from_utf8(r.body.clone()).unwrap(),
                "secrets": secrets(i),
            })
        })
        .collect();
    let file = dir.join("deliveries.json");
    std::fs::write(&file, json!({ "deliveries": cases }).to_string()).unwrap();
    let out = std::process::Command::new(tool("TEST_PYTHON"))
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/it/webhooks_py/verify.py"
        ))
        .arg(&file)
        .bounded_output();
    let printed = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{printed}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    printed
}

/// Lookups of `hang.example` made through [`hanging_resolver`], and their release.
static HANG_ASKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static HANG_RELEASE: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Configures registrations' lookups to wait (for longer than any test) on a resolver that holds
/// every lookup of `host`, counting it in `asked`, until `release` is notified, and then answers
/// that it has no address; any other host is unknown.
fn held_lookups(
    config: &mut regintel::config::ServerConfig,
    host: &'static str,
    asked: &'static std::sync::atomic::AtomicUsize,
    release: &'static tokio::sync::Notify,
) {
    config.webhook_resolve_wait = Duration::from_secs(600);
    config.webhook_egress.resolver =
        regintel::webhooks::resolve::Resolver::given(move |name, _| {
            let name = name.to_owned();
            Box::pin(async move {
                if name != host {
                    return Err(format!("{name} is unknown here"));
                }
                // Waiting before it is counted: a release once the count is seen reaches it.
                let released = release.notified();
                asked.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                released.await;
                Err(format!("{host} has no address"))
            })
        });
}

/// Lookups of `hang.example` held until the test releases them, and two permits per blocking
/// pool, fewer than the registrations that hang, whatever the machine.
fn hanging_resolver(config: &mut regintel::config::ServerConfig) {
    held_lookups(config, "hang.example", &HANG_ASKED, &HANG_RELEASE);
    config.blocking_permits = 2;
}

/// Registrations whose resolver never answers hold no permit of the blocking pool (when they
/// did, two such registrations took both of a two-processor server's, and every login waited):
/// another account signs in and makes a key while three hang. One account has one lookup at a time;
/// once the resolver answers, each is refused with the one message that tells nothing of the
/// operator's network.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resolver_that_never_answers_slows_no_other_account() {
    let s = TestServer::start_with(Options {
        configure: Some(hanging_resolver),
        ..Default::default()
    })
    .await;
    let waiting: Vec<TestAccount> = (0..3)
        .map(|i| s.account(&format!("hang{i}@example.org"), Tier::Professional))
        .collect();
    let other = s.account("other@example.org", Tier::Institutional);
    {
        let hang = |who| try_register(&s, who, "https://hang.example/hook", &["webhook.test"]);
        let registrations =
            async { tokio::join!(hang(&waiting[0]), hang(&waiting[1]), hang(&waiting[2])) };
        tokio::pin!(registrations);
        let meanwhile = async {
            crate::bounded::until("three lookups at the resolver", MINUTE, || async {
                match HANG_ASKED.load(std::sync::atomic::Ordering::SeqCst) {
                    3.. => Ok(()),
                    asked => Err(format!("{asked} asked")),
                }
            })
            .await;
            let token = s.login(&other).await;
            let key = s
                .call(
                    "POST",
                    "/account/api-keys",
                    &[
                        ("authorization", &format!("Bearer {token}")),
                        ("content-type", "application/json"),
                    ],
                    br#"{"name": "while others wait"}"#,
                )
                .await;
            assert_eq!(key.status, 201, "{}", String::from_utf8_lossy(&key.body));
            // The same account again while its lookup is unanswered: refused at once.
            let (status, body) = hang(&waiting[0]).await;
            assert_eq!(
                (status, body["error"]["code"].as_str()),
                (409, Some("conflict")),
                "{body}"
            );
        };
        tokio::select! {
            _ = &mut registrations => panic!("the registrations were answered before their resolver"),
            () = meanwhile => {}
        }
        HANG_RELEASE.notify_waiters();
        let (first, second, third) = crate::bounded::within(
            "the registrations' answers once their lookups ended",
            MINUTE,
            registrations,
        )
        .await;
        let told = first.1["error"]["message"].clone();
        for (status, body) in [first, second, third] {
            assert_eq!(status, 422, "{body}");
            assert_eq!(body["error"]["code"], "webhook_url_not_allowed");
            let message = body["error"]["message"].as_str().unwrap();
            assert!(!message.contains("hang.example"), "{message}");
        }
        // An internal address is told the same message as a name that does not resolve.
        let (status, body) =
            try_register(&s, &other, "https://10.1.2.3/hook", &["webhook.test"]).await;
        assert_eq!(status, 422);
        assert_eq!(body["error"]["message"], told);
    }
    s.stop().await.unwrap();
}

/// Names that resolve inside, with loopback not allowed: `loop.example` to 127.0.0.1 and
/// `private.example` to 10.0.0.5.
fn inside_names(config: &mut regintel::config::ServerConfig) {
    config.webhook_egress.allow_loopback = false;
    config.webhook_egress.resolver = regintel::webhooks::resolve::Resolver::given(|host, port| {
        let ip: std::net::IpAddr = match host {
            "loop.example" => [127, 0, 0, 1].into(),
            "private.example" => [10, 0, 0, 5].into(),
            _ => return Box::pin(async { Err("unknown here".to_owned()) }),
        };
        Box::pin(async move { Ok(vec![std::net::SocketAddr::new(ip, port)]) })
    });
}

/// Egress is decided by the addresses a name leads to, at registration and at every send: names
/// resolving to loopback or a private range are refused at registration, and an endpoint
/// registered under a looser policy is refused at its next send after a restart under a
/// stricter one (its attempt says so; the receiver gets nothing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn egress_is_checked_by_address_at_registration_and_at_every_send() {
    let s = TestServer::start_with(Options {
        configure: Some(inside_names),
        ..Options::default()
    })
    .await;
    let a = s.account("inside@example.org", Tier::Institutional);
    for host in ["loop.example", "private.example"] {
        let (status, body) =
            try_register(&s, &a, &format!("https://{host}/hook"), &["webhook.test"]).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (422, Some("webhook_url_not_allowed")),
            "{host}: {body}"
        );
    }
    s.stop().await.unwrap();

    // Registered while loopback receivers are allowed (the tests' default)...
    let receiver = Receiver::start(204).await;
    let s = TestServer::start().await;
    let b = s.account("looser@example.org", Tier::Institutional);
    let id = register(&s, &b, &receiver.url("/in"), &["webhook.test"]).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let dir = s.stop_keeping_data().await;
    // ...then sent under a policy that does not allow them.
    let s = TestServer::start_in(
        dir,
        Options {
            configure: Some(|c| c.webhook_egress.allow_loopback = false),
            ..Options::default()
        },
    )
    .await;
    send_test(&s, &b, &id).await;
    let log = s
        .eventually_json(
            &format!("/webhooks/{id}/deliveries"),
            &[b.key_header()],
            |v| v["data"][0]["attempt_log"][0]["error"].is_string(),
        )
        .await;
    let error = log["data"][0]["attempt_log"][0]["error"].as_str().unwrap();
    assert!(error.starts_with("egress_denied"), "{error}");
    assert!(receiver.received().is_empty(), "nothing was sent");
    s.stop().await.unwrap();
}

/// Registers a `webhook.test` endpoint at `url` through `client` with the API key `key`, and
/// has it sent `n` test events: the endpoint as made, and the events' ids.
async fn endpoint_with_test_events(
    client: &crate::support::Client,
    key: &str,
    url: &str,
    n: usize,
) -> (Value, Vec<String>) {
    let call = |method: &'static str, path: String, body: Vec<u8>| async move {
        client
            .send(crate::support::Request {
                method,
                path: &format!("{}{path}", crate::support::BASE),
                headers: &[("x-api-key", key), ("content-type", "application/json")],
                body,
            })
            .await
    };
    let body = json!({"url": url, "event_types": ["webhook.test"]});
    let r = call("POST", "/webhooks".into(), body.to_string().into_bytes()).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let hook = r.json()["data"].clone();
    let id = hook["id"].as_str().unwrap();
    let mut events = Vec::new();
    for _ in 0..n {
        let r = call("POST", format!("/webhooks/{id}/test"), Vec::new()).await;
        assert_eq!(r.status, 202);
        events.push(r.json()["data"]["event_id"].as_str().unwrap().to_owned());
    }
    (hook, events)
}

/// What `receiver` received once every one of `events` arrived (waiting up to two minutes);
/// fails naming those that did not.
async fn all_arrive(receiver: &Receiver, events: &[String]) -> Vec<Received> {
    let limit = Duration::from_secs(120);
    crate::bounded::until("every event at the receiver", limit, || async {
        let all = receiver.received();
        let arrived = |e: &&String| all.iter().any(|x| x.header("webhook-id") == e.as_str());
        let missing: Vec<&String> = events.iter().filter(|e| !arrived(e)).collect();
        match missing.is_empty() {
            true => Ok(all.clone()),
            false => Err(format!("never arrived: {missing:?}")),
        }
    })
    .await
}

/// The `delivered` count of a node's `/metrics`.
async fn delivered_by(node: &TestServer) -> u64 {
    let sample = "regintel_webhook_deliveries_total{outcome=\"delivered\"}";
    crate::support::metric(&node.client, sample)
        .await
        .expect("a delivered count")
}

/// Two nodes on one PostgreSQL database share one outbox: 1,000 events of five accounts, sent
/// through either node, each arrive once, and both nodes deliver some of them (each claim
/// skips the rows another node's claim holds, and then sees its lease).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_deliver_a_thousand_events_each_once() {
    const ACCOUNTS: usize = 5;
    const EACH: usize = 200;
    let a = TestServer::start_with(Options {
        postgres: true,
        empty: true,
        ..Options::default()
    })
    .await;
    let b = a.second_node().await;
    let receiver = Receiver::start(204).await;
    let mut events = std::collections::HashSet::new();
    for n in 0..ACCOUNTS {
        let who = a.account(&format!("outbox-{n}@example.org"), Tier::Professional);
        let hook = register(&a, &who, &receiver.url(&format!("/{n}")), &["webhook.test"]).await;
        let id = hook["id"].as_str().unwrap();
        for i in 0..EACH {
            let node = if i % 2 == 0 { &a } else { &b };
            assert!(events.insert(send_test(node, &who, id).await));
        }
    }
    let all = receiver
        .wait_for(Duration::from_secs(300), |r| {
            r.iter()
                .map(|x| x.header("webhook-id"))
                .collect::<std::collections::HashSet<_>>()
                .len()
                >= events.len()
        })
        .await;
    let ids: std::collections::HashSet<String> = all
        .iter()
        .map(|x| x.header("webhook-id").to_owned())
        .collect();
    assert_eq!(ids, events, "every event arrives");
    // Every first arrival is recorded as delivered (the count rises after the receiver has
    // answered); a delivery sent twice would be recorded too, and arrive before it is.
    let (by_a, by_b) = crate::bounded::until(
        "both nodes to record every delivery",
        Duration::from_secs(120),
        || async {
            let (by_a, by_b) = (delivered_by(&a).await, delivered_by(&b).await);
            match by_a + by_b >= events.len() as u64 {
                true => Ok((by_a, by_b)),
                false => Err(format!("{by_a} + {by_b} of {}", events.len())),
            }
        },
    )
    .await;
    // Once neither node counts a delivery pending (its background task counts them each
    // round), none is left to send again: the counts stand.
    for node in [&a, &b] {
        crate::bounded::until("no delivery pending", MINUTE, || async {
            let depth = "regintel_webhook_queue_depth";
            match crate::support::metric(&node.client, depth).await {
                Some(0) => Ok(()),
                pending => Err(format!("{pending:?} pending")),
            }
        })
        .await;
    }
    assert_eq!(
        (delivered_by(&a).await, delivered_by(&b).await),
        (by_a, by_b)
    );
    assert_eq!(receiver.received().len(), events.len(), "none twice");
    assert_eq!(by_a + by_b, events.len() as u64);
    assert!(
        by_a > 0 && by_b > 0,
        "both nodes deliver: {by_a} and {by_b}"
    );
    b.stop().await.unwrap();
    a.stop().await.unwrap();
}

/// A node on PostgreSQL SIGKILLed mid-delivery: another node of the same database sends what
/// the dead one had claimed once its lease has run out (not before: the dead node might still
/// be sending), so every event arrives, and the outbox ends settled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_mid_delivery_leaves_its_deliveries_to_another_after_the_lease() {
    use crate::support::{serve_plain, start_plain, with_secrets_of};
    use regintel::store::Database;
    use regintel::store::postgres::testing::TestDatabase;
    const EVENTS: usize = 40;
    let db = tokio::task::spawn_blocking(TestDatabase::create)
        .await
        .unwrap();
    let url = db.url();
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = serve_plain(dir.path());
    cmd.args([
        "--webhook-allow-loopback",
        "--no-rate-limits",
        "--database-url",
        &url,
    ]);
    let mut killed = start_plain(&mut cmd);
    let first = crate::support::Client::new(killed.addr, None);
    let database = Database::Postgres(url.clone());
    let who = {
        let (database, dir) = (database.clone(), dir.path().to_path_buf());
        tokio::task::spawn_blocking(move || {
            crate::support::account_on(&database, &dir, "killed@example.org", Tier::Professional)
        })
        .await
        .unwrap()
    };
    // Slow answers: deliveries are under way when the node dies.
    let receiver = Receiver::start_slow(204, Duration::from_secs(2)).await;
    let (_, events) =
        endpoint_with_test_events(&first, &who.api_key, &receiver.url("/in"), EVENTS).await;
    receiver.wait_for(MINUTE, |r| !r.is_empty()).await;
    killed.child.0.kill().unwrap();
    crate::bounded::wait(&mut killed.child.0, "the killed node's end");
    let before_kill = receiver.received().len();
    // The events of the deliveries the dead node had claimed and not finished.
    let leased = |db: Database| {
        tokio::task::spawn_blocking(move || {
            let store = regintel::store::Store::open_with(
                &db,
                1,
                1,
                regintel::config::defaults::DATABASE_WAIT,
            )
            .unwrap();
            let admin = store.admin().unwrap();
            let mut stmt = admin
                .sql()
                .prepare(
                    "SELECT e.public_id, d.lease_until FROM webhook_deliveries d
                     JOIN webhook_events e ON e.id = d.event_id
                     WHERE d.status = 'pending' AND d.lease_until IS NOT NULL",
                )
                .unwrap();
            stmt.query_map(&[], |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)?)))
                .unwrap()
                .collect::<Result<std::collections::HashMap<String, i64>, _>>()
                .unwrap()
        })
    };
    let claimed = leased(database.clone()).await.unwrap();
    assert!(!claimed.is_empty(), "killed while holding claims");

    // The other node sends every delivery the dead one had not claimed, and none it had: its
    // lease (two minutes, longer than this takes) has not run out on the other node's clock.
    let other = TestServer::start_in_postgres(with_secrets_of(dir.path()), db).await;
    let unclaimed: Vec<String> = events
        .iter()
        .filter(|e| !claimed.contains_key(*e))
        .cloned()
        .collect();
    let sent = all_arrive(&receiver, &unclaimed).await;
    let of_claimed = |r: &[Received]| {
        r.iter()
            .filter(|x| claimed.contains_key(x.header("webhook-id")))
            .count()
    };
    assert_eq!(
        of_claimed(&sent),
        of_claimed(&receiver.received()[..before_kill]),
        "the dead node's claims wait for their lease"
    );
    let now_leased = leased(database.clone()).await.unwrap();
    for (event, until) in &claimed {
        assert_eq!(
            now_leased.get(event),
            Some(until),
            "{event} still the dead node's"
        );
    }
    // Past the lease on the other node's clock, it takes them over: every event arrives.
    other.webhook_clock.advance(10 * 60 * 1000);
    all_arrive(&receiver, &events).await;
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while !leased(database.clone()).await.unwrap().is_empty() {
        assert!(std::time::Instant::now() < deadline, "leases left");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    other.stop().await.unwrap();
}

/// An account has at most 20 endpoints (docs/webhooks.md): the 21st is refused naming the limit,
/// which the list's `meta.max_endpoints` gives too; another account is not held back by it, and
/// deleting an endpoint makes room again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_has_at_most_20_endpoints() {
    let s = TestServer::start_with(Options {
        empty: true,
        ..Options::default()
    })
    .await;
    let a = s.account("many@example.org", Tier::Professional);
    let b = s.account("few@example.org", Tier::Professional);
    // A loopback address as it is written: nothing to resolve, and no event is sent to it.
    let url = |i: usize| format!("http://127.0.0.1:9/in/{i}");
    let mut ids = Vec::new();
    for i in 0..20 {
        let hook = register(&s, &a, &url(i), &["webhook.test"]).await;
        ids.push(hook["id"].as_str().unwrap().to_owned());
    }
    let (status, body) = try_register(&s, &a, &url(20), &["webhook.test"]).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (409, Some("conflict")),
        "{body}"
    );
    let message = body["error"]["message"].as_str().unwrap();
    assert!(message.contains("has 20 webhook endpoints"), "{message}");
    let listed = s.call("GET", "/webhooks", &[a.key_header()], b"").await;
    assert_eq!(listed.status, 200);
    assert_eq!(listed.json()["meta"]["max_endpoints"], 20);
    assert_eq!(listed.json()["data"].as_array().unwrap().len(), 20);
    register(&s, &b, &url(0), &["webhook.test"]).await;
    let r = s
        .call(
            "DELETE",
            &format!("/webhooks/{}", ids[0]),
            &[a.key_header()],
            b"",
        )
        .await;
    assert_eq!(r.status, 204);
    register(&s, &a, &url(20), &["webhook.test"]).await;
    s.stop().await.unwrap();
}

/// Lookups of `busy.example` made through [`busy_resolver`], and their release.
static BUSY_ASKED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
static BUSY_RELEASE: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Lookups of `busy.example` held until the test releases them.
fn busy_resolver(config: &mut regintel::config::ServerConfig) {
    held_lookups(config, "busy.example", &BUSY_ASKED, &BUSY_RELEASE);
}

/// At most 16 lookups run at once (docs/webhooks.md): with 16 accounts' registrations waiting
/// on the resolver, a 17th account's is answered at once, 503 `unavailable` with Retry-After;
/// once the resolver answers, the 16 are refused as any unresolved name is, and the places are
/// free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lookups_beyond_16_at_once_are_answered_503_with_retry_after() {
    const AT_ONCE: usize = 16;
    let s = TestServer::start_with(Options {
        configure: Some(busy_resolver),
        empty: true,
        ..Options::default()
    })
    .await;
    let accounts: Vec<TestAccount> = (0..=AT_ONCE)
        .map(|i| s.account(&format!("busy{i}@example.org"), Tier::Professional))
        .collect();
    let body = json!({"url": "https://busy.example/hook", "event_types": ["webhook.test"]});
    let mut waiting = tokio::task::JoinSet::new();
    for who in &accounts[..AT_ONCE] {
        let (client, key, body) = (s.client.clone(), who.api_key.clone(), body.to_string());
        waiting.spawn(async move {
            let path = format!("{}/webhooks", crate::support::BASE);
            let headers = [
                ("x-api-key", key.as_str()),
                ("content-type", "application/json"),
            ];
            let r = client
                .send(crate::support::Request {
                    method: "POST",
                    path: &path,
                    headers: &headers,
                    body: body.into_bytes(),
                })
                .await;
            (r.status, r.json())
        });
    }
    crate::bounded::until("16 lookups at the resolver", MINUTE, || async {
        match BUSY_ASKED.load(std::sync::atomic::Ordering::SeqCst) {
            AT_ONCE => Ok(()),
            asked => Err(format!("{asked} asked")),
        }
    })
    .await;
    let last = &accounts[AT_ONCE];
    let refused = crate::bounded::within(
        "the 17th registration's answer",
        MINUTE,
        s.call(
            "POST",
            "/webhooks",
            &[last.key_header(), ("content-type", "application/json")],
            body.to_string().as_bytes(),
        ),
    )
    .await;
    refused.error(503, "unavailable");
    assert_eq!(refused.header("retry-after"), Some("5"));
    assert_eq!(
        BUSY_ASKED.load(std::sync::atomic::Ordering::SeqCst),
        AT_ONCE,
        "no 17th lookup"
    );
    assert!(
        waiting.try_join_next().is_none(),
        "answered before the resolver"
    );

    BUSY_RELEASE.notify_waiters();
    let answers = crate::bounded::within(
        "the 16 registrations' answers once their lookups ended",
        MINUTE,
        waiting.join_all(),
    )
    .await;
    for (status, body) in answers {
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["error"]["code"], "webhook_url_not_allowed");
    }
    register(&s, last, "http://127.0.0.1:9/in", &["webhook.test"]).await;
    s.stop().await.unwrap();
}
