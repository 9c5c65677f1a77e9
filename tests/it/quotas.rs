//! Quotas an account or a stranger could multiply, freeze or aim at someone else: sessions,
//! logins, key creation, login lock-outs, `last_used_at`, revocations seen by another process.

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::support::{
    BASE, Client, Options, Request, Resp, TestServer, Tier, serve_plain, start_plain,
};

async fn login_raw(client: &Client, email: &str, password: &str) -> Resp {
    let body = serde_json::json!({ "email": email, "password": password });
    client
        .send(Request {
            method: "POST",
            path: &format!("{BASE}/auth/login"),
            headers: &[("content-type", "application/json")],
            body: body.to_string().into_bytes(),
        })
        .await
}

fn session_limits(c: &mut regintel::config::ServerConfig) {
    c.limits.professional = regintel::config::Quotas {
        minute: 3,
        hour: 100,
        day: 100,
    };
}

/// Each login made fresh minute and hour buckets: logging in again multiplied the quota. The
/// sessions of an account now share theirs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sessions_of_an_account_share_their_buckets() {
    let s = TestServer::start_with(Options {
        configure: Some(session_limits),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    let first = format!("Bearer {}", s.login(&a).await);
    let second = format!("Bearer {}", s.login(&a).await);
    let path = format!("{BASE}/regions/DE21");
    for _ in 0..3 {
        let r = s.client.get_with(&path, &[("authorization", &first)]).await;
        assert_eq!(r.status, 200);
    }
    let r = s
        .client
        .get_with(&path, &[("authorization", &second)])
        .await;
    let e = r.error(429, "rate_limit_exceeded");
    assert_eq!(e["details"]["violated_policies"][0], "session-minute");
}

/// Logins (sessions) and key creations count per account: revoking and creating keys, or
/// logging in again and again, no longer brings fresh buckets without end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logins_and_key_creations_are_limited_per_account() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            c.limits.logins_per_hour = 2;
            c.limits.key_creations_per_hour = 2;
        }),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Institutional);
    // A failed login does not use the account's logins up.
    login_raw(&s.client, &a.email, "not the password")
        .await
        .error(401, "invalid_credential");
    let token = s.login(&a).await;
    s.login(&a).await;
    let third = login_raw(&s.client, &a.email, &a.password).await;
    let e = third.error(429, "rate_limit_exceeded");
    assert_eq!(e["details"]["violated_policies"][0], "account-logins");
    assert!(third.header("retry-after").is_some());

    let bearer = format!("Bearer {token}");
    let create = async |name: &str| {
        s.call(
            "POST",
            "/account/api-keys",
            &[
                ("authorization", &bearer),
                ("content-type", "application/json"),
            ],
            serde_json::json!({ "name": name }).to_string().as_bytes(),
        )
        .await
    };
    assert_eq!(create("one").await.status, 201);
    assert_eq!(create("two").await.status, 201);
    let e = create("three").await.error(429, "rate_limit_exceeded");
    assert_eq!(
        e["details"]["violated_policies"][0],
        "account-key-creations"
    );
}

/// Five failures for a victim's email from anywhere made everyone wait, the victim too: a
/// lock-out aimed from another address. Failures now count per email and address (and only far
/// more of them per email from everywhere).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_lock_out_cannot_be_aimed_from_another_address() {
    let s = TestServer::start().await;
    let victim = s.account("victim@example.org", Tier::Professional);
    let attacker = s.client.with_source("127.0.0.2");
    // Waits double (1, 2, 4 ... s), so however slow the run, a guess soon lands in one.
    let mut throttled = false;
    for _ in 0..12 {
        if login_raw(&attacker, &victim.email, "guess").await.status == 429 {
            throttled = true;
            break;
        }
    }
    assert!(throttled, "the attacker's address is throttled");
    let r = login_raw(&s.client, &victim.email, &victim.password).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
}

/// A request with a victim's key id but a wrong secret marked the key as "used just now", so the
/// victim's real use in the next minute was not recorded: sent once a minute, it froze
/// `last_used_at`. Only a verified key counts as used.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wrong_secret_does_not_freeze_last_used_at() {
    let s = TestServer::start().await;
    let victim = s.account("victim@example.org", Tier::Professional);
    let body = format!("sk_service_{}{}", victim.key_id, "A".repeat(32));
    let forged = format!("{body}{}", regintel::auth::api_key::checksum(&body));
    let path = format!("{BASE}/regions/DE21");
    s.client
        .get_with(&path, &[("x-api-key", &forged)])
        .await
        .error(401, "invalid_credential");
    let r = s.client.get_with(&path, &[victim.key_header()]).await;
    assert_eq!(r.status, 200);
    let bearer = format!("Bearer {}", s.login(&victim).await);
    let mut last_used = Value::Null;
    let deadline = Instant::now() + Duration::from_secs(20);
    while last_used.is_null() && Instant::now() < deadline {
        let keys = s
            .call(
                "GET",
                "/account/api-keys",
                &[("authorization", &bearer)],
                b"",
            )
            .await
            .json();
        last_used = keys["data"][0]["last_used_at"].clone();
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(last_used.is_string(), "the victim's use was recorded");
}

/// A key revoked through the API stops working in another server process on the same database
/// from that process's next background round (the revocation bumps `auth_generation`, which
/// every process reads each round), not when its 30-second key cache expires.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_key_revoked_through_the_api_stops_in_another_process() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let other = start_plain(&mut serve_plain(s.dir.path()));
    let other_client = Client::new(other.addr, None);
    let path = format!("{BASE}/regions/DE21");
    // The other process verifies the key and caches it, for 30 s from now at most.
    assert_eq!(
        other_client.get_with(&path, &[a.key_header()]).await.status,
        200
    );
    let bearer = format!("Bearer {}", s.login(&a).await);
    let revoked = s
        .call(
            "DELETE",
            &format!("/account/api-keys/{}", a.key_id),
            &[("authorization", &bearer)],
            b"",
        )
        .await;
    assert_eq!(revoked.status, 204);
    // From the other process's next background round on (about a second), long before its
    // cache of the key expires (30 s).
    crate::support::background_rounds(&other_client, 2).await;
    let status = other_client.get_with(&path, &[a.key_header()]).await.status;
    assert_eq!(status, 401, "the other process stopped accepting the key");
}
