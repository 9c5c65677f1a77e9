//! Credentials: API keys, session tokens, login and logout, the account API.

use crate::bounded::Bounded;

use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Value, json};
use sha2::{Sha256, Sha512};

use crate::support::{
    BASE, Client, Request, Resp, Started, TestServer, Tier, bundled_db, regintel, serve_plain,
    start_plain,
};

const PROFILE: &str = "/regions/DE21/profile";
const KEYS: &str = "/account/api-keys";
const INVALID_TOKEN: &str = r#"Bearer realm="regintel", error="invalid_token""#;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The 32-character secret of a key: what must never leak.
fn secret_of(key: &str) -> &str {
    &key["sk_service_".len() + 8..key.len() - 6]
}

/// `sk_service_` + `key_id` + `secret` with a valid checksum: passes the offline format check.
fn key_with_checksum(key_id: &str, secret: &str) -> String {
    let body = format!("sk_service_{key_id}{secret}");
    let sum = regintel::auth::api_key::checksum(&body);
    format!("{body}{sum}")
}

/// Whether `key` has the documented shape `sk_service_[0-9A-Za-z]{46}`.
fn looks_like_key(key: &str) -> bool {
    key.len() == 57
        && key
            .strip_prefix("sk_service_")
            .is_some_and(|t| t.bytes().all(|b| b.is_ascii_alphanumeric()))
}

fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// Asserts a 401 `invalid_credential` with the RFC 6750 `invalid_token` challenge.
fn assert_invalid(r: &Resp, what: &str) {
    assert_eq!(
        r.status,
        401,
        "{what}: {}",
        String::from_utf8_lossy(&r.body)
    );
    r.error(401, "invalid_credential");
    assert_eq!(r.header("www-authenticate"), Some(INVALID_TOKEN), "{what}");
}

async fn get_with(s: &TestServer, path: &str, headers: &[(&str, &str)]) -> Resp {
    s.call("GET", path, headers, b"").await
}

async fn post_json(s: &TestServer, path: &str, headers: &[(&str, &str)], body: &Value) -> Resp {
    let mut all = vec![("content-type", "application/json")];
    all.extend_from_slice(headers);
    s.call("POST", path, &all, body.to_string().as_bytes())
        .await
}

async fn login_raw(s: &TestServer, email: &str, password: &str) -> Resp {
    post_json(
        s,
        "/auth/login",
        &[],
        &json!({ "email": email, "password": password }),
    )
    .await
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

/// The server's current JWT key id and key, from `<data_dir>/secrets/jwt_keys.json`.
fn jwt_key(s: &TestServer) -> (String, Vec<u8>) {
    let path = s.dir.path().join("secrets").join("jwt_keys.json");
    let file: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let kid = file["current"].as_str().unwrap().to_owned();
    let key = STANDARD
        .decode(file["keys"][&kid].as_str().unwrap())
        .unwrap();
    assert_eq!(key.len(), 32);
    (kid, key)
}

fn b64(value: &Value) -> String {
    URL_SAFE_NO_PAD.encode(serde_json::to_vec(value).unwrap())
}

/// The claims of a token, read without verification.
pub fn claims_of(token: &str) -> Value {
    let payload = token.split('.').nth(1).unwrap();
    serde_json::from_slice(&URL_SAFE_NO_PAD.decode(payload).unwrap()).unwrap()
}

/// `header.payload` signed by hand with HMAC-SHA256 under `key`.
fn hs256(header: &Value, payload: &Value, key: &[u8]) -> String {
    let input = format!("{}.{}", b64(header), b64(payload));
    let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
    mac.update(input.as_bytes());
    format!(
        "{input}.{}",
        URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    )
}

fn hs512(header: &Value, payload: &Value, key: &[u8]) -> String {
    let input = format!("{}.{}", b64(header), b64(payload));
    let mut mac = Hmac::<Sha512>::new_from_slice(key).unwrap();
    mac.update(input.as_bytes());
    format!(
        "{input}.{}",
        URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
    )
}

fn list_entry<'a>(list: &'a Value, key_id: &str) -> &'a Value {
    list["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["id"] == key_id)
        .unwrap_or_else(|| panic!("{key_id} not listed: {list}"))
}

// ---------------------------------------------------------------------------------------------
// 1. API keys accepted
// ---------------------------------------------------------------------------------------------

/// A key works in `X-API-Key` and in `Authorization: Bearer`; keyed answers say `access:
/// account` and are privately cacheable, anonymous ones say `public`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn api_key_is_accepted_in_either_header() {
    let s = TestServer::start().await;
    let a = s.account("keys@example.org", Tier::Professional);
    let auth = bearer(&a.api_key);
    for headers in [
        [("x-api-key", a.api_key.as_str())],
        [("authorization", auth.as_str())],
        // The scheme is case-insensitive (RFC 9110 §11.1).
        [("authorization", &auth.replacen("Bearer", "bearer", 1))],
    ] {
        let r = get_with(&s, PROFILE, &headers).await;
        assert_eq!(r.status, 200, "{headers:?}");
        assert_eq!(r.json()["meta"]["access"], "account", "{headers:?}");
        assert_eq!(r.header("cache-control"), Some("private, no-cache"));
        assert!(r.header("vary").unwrap().contains("X-API-Key"));
    }
    let r = s.get(PROFILE).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["meta"]["access"], "public");
    assert_ne!(r.header("cache-control"), Some("private, no-cache"));
}

// ---------------------------------------------------------------------------------------------
// 2. Key attacks
// ---------------------------------------------------------------------------------------------

/// Malformed keys and a guessed secret for a real key id are 401 `invalid_credential` with the
/// `invalid_token` challenge, on a public route too (never the anonymous answer), in either
/// header.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_and_malformed_keys_are_401_never_anonymous() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Institutional);
    let b = s.account("b@example.org", Tier::Institutional);
    let key = a.api_key.as_str();

    let mut flipped = key.to_owned();
    let last = flipped.pop().unwrap();
    flipped.push(if last == 'A' { 'B' } else { 'A' });
    let guessed_secret = regintel::auth::api_key::generate().plaintext[19..51].to_owned();
    let guessed = key_with_checksum(&b.key_id, &guessed_secret);
    assert!(
        regintel::auth::api_key::parse(&guessed).is_some(),
        "the guess passes the format check"
    );
    let attacks = [
        ("bad checksum", flipped),
        ("too short", key[..key.len() - 1].to_owned()),
        ("too long", format!("{key}A")),
        (
            "short secret with a valid checksum",
            key_with_checksum(&a.key_id, &guessed_secret[..31]),
        ),
        ("wrong prefix", key.replacen("sk_service_", "sk_live_", 1)),
        (
            "other prefix",
            key.replacen("sk_service_", "pk_service_", 1),
        ),
        (
            "upper-case prefix",
            key.replacen("sk_service_", "SK_SERVICE_", 1),
        ),
        ("guessed secret for B's key id", guessed),
        (
            "unknown key id",
            key_with_checksum("ZZZZZZZZ", &guessed_secret),
        ),
        ("empty", String::new()),
    ];
    for (what, bad) in &attacks {
        let r = get_with(&s, PROFILE, &[("x-api-key", bad)]).await;
        assert_invalid(&r, &format!("X-API-Key {what}"));
        assert_eq!(r.json()["data"], Value::Null, "{what}");
        if !bad.is_empty() {
            let auth = bearer(bad);
            let r = get_with(&s, PROFILE, &[("authorization", &auth)]).await;
            assert_invalid(&r, &format!("Authorization {what}"));
        }
    }
    // The real keys still work after the attempts.
    for acct in [&a, &b] {
        let r = get_with(&s, PROFILE, &[acct.key_header()]).await;
        assert_eq!(r.status, 200);
    }
}

/// A key revoked through the account API fails on the very next request, even though it was
/// verified (and cached) just before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn revoked_key_fails_on_the_next_request() {
    let s = TestServer::start().await;
    let a = s.account("revoke@example.org", Tier::Professional);
    let token = s.login(&a).await;
    let auth = bearer(&token);
    assert_eq!(get_with(&s, PROFILE, &[a.key_header()]).await.status, 200);
    let r = s
        .call(
            "DELETE",
            &format!("{KEYS}/{}", a.key_id),
            &[("authorization", &auth)],
            b"",
        )
        .await;
    assert_eq!(r.status, 204, "{}", String::from_utf8_lossy(&r.body));
    assert_invalid(
        &get_with(&s, PROFILE, &[a.key_header()]).await,
        "revoked key",
    );
    let key_auth = bearer(&a.api_key);
    assert_invalid(
        &get_with(&s, PROFILE, &[("authorization", &key_auth)]).await,
        "revoked key as Bearer",
    );
    let list = get_with(&s, KEYS, &[("authorization", &auth)]).await.json();
    let entry = list_entry(&list, &a.key_id);
    assert_eq!(entry["status"], "revoked");
    assert!(entry["revoked_at"].is_string());
    // Revoking again: nothing active under that id.
    let r = s
        .call(
            "DELETE",
            &format!("{KEYS}/{}", a.key_id),
            &[("authorization", &auth)],
            b"",
        )
        .await;
    r.error(404, "not_found");
}

/// Disabling an account out of process (as `regintel account disable` does) stops its session
/// tokens at once, its logins, and its API keys from the server's next background round (about
/// a second), even a key the server has just verified.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn disabled_account_loses_keys_and_sessions() {
    let s = TestServer::start().await;
    let a = s.account("disable@example.org", Tier::Institutional);
    let token = s.login(&a).await;
    let auth = bearer(&token);
    assert_eq!(get_with(&s, PROFILE, &[a.key_header()]).await.status, 200);
    assert_eq!(
        get_with(&s, KEYS, &[("authorization", &auth)]).await.status,
        200
    );

    let store = regintel::store::Store::open(s.dir.path(), 1).unwrap();
    let system = store.system().unwrap();
    assert!(system.update_account(&a.email, None, Some(true)).unwrap());
    system.bump_auth_generation().unwrap();

    assert_invalid(
        &get_with(&s, KEYS, &[("authorization", &auth)]).await,
        "session of a disabled account",
    );
    login_raw(&s, &a.email, &a.password)
        .await
        .error(401, "invalid_credential");
    // The server reads the change on its next background round (about a second).
    s.background_rounds(2).await;
    let r = get_with(&s, PROFILE, &[a.key_header()]).await;
    assert_invalid(
        &r,
        "key of a disabled account (background rounds after disabling)",
    );
}

/// A key revoked out of process (as `regintel key revoke` does) stops working from the server's
/// next background round (about a second), even a key the server has just verified.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_revoked_by_the_operator_stops_after_a_background_round() {
    let s = TestServer::start().await;
    let a = s.account("oprevoke@example.org", Tier::Professional);
    assert_eq!(get_with(&s, PROFILE, &[a.key_header()]).await.status, 200);
    let store = regintel::store::Store::open(s.dir.path(), 1).unwrap();
    let auth = regintel::auth::Auth::open(s.dir.path(), "regintel").unwrap();
    assert!(auth.revoke_key(&store, None, &a.key_id).unwrap());
    store.system().unwrap().bump_auth_generation().unwrap();
    s.background_rounds(2).await;
    let r = get_with(&s, PROFILE, &[a.key_header()]).await;
    assert_invalid(
        &r,
        "key revoked by the operator (background rounds after revoking)",
    );
}

/// Two credentials at once, or a scheme other than Bearer, are 400 `invalid_request`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ambiguous_or_unsupported_credentials_are_400() {
    let s = TestServer::start().await;
    let a = s.account("both@example.org", Tier::Professional);
    let auth = bearer(&a.api_key);
    let r = get_with(
        &s,
        PROFILE,
        &[("x-api-key", &a.api_key), ("authorization", &auth)],
    )
    .await;
    r.error(400, "invalid_request");
    let token = s.login(&a).await;
    let session = bearer(&token);
    get_with(
        &s,
        KEYS,
        &[("x-api-key", &a.api_key), ("authorization", &session)],
    )
    .await
    .error(400, "invalid_request");
    let basic = format!(
        "Basic {}",
        STANDARD.encode(format!("{}:{}", a.email, a.password))
    );
    get_with(&s, PROFILE, &[("authorization", &basic)])
        .await
        .error(400, "invalid_request");
    let basic_key = format!("Basic {}", STANDARD.encode(&a.api_key));
    get_with(&s, PROFILE, &[("authorization", &basic_key)])
        .await
        .error(400, "invalid_request");
}

// ---------------------------------------------------------------------------------------------
// 3. JWT attacks
// ---------------------------------------------------------------------------------------------

/// Hand-made session tokens, each signed with the server's real key but wrong in exactly one
/// property, are 401 `invalid_credential`; the same construction with nothing wrong works, as
/// does the genuine token from /auth/login.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forged_session_tokens_are_401() {
    let s = TestServer::start().await;
    let a = s.account("jwt-a@example.org", Tier::Institutional);
    let b = s.account("jwt-b@example.org", Tier::Institutional);
    let genuine = s.login(&a).await;
    let b_token = s.login(&b).await;
    let (kid, key) = jwt_key(&s);
    let real = claims_of(&genuine);
    assert_eq!(real["sub"], a.id.to_string());
    assert_eq!(real["iss"], "regintel");
    assert_eq!(real["aud"], "regintel:account");
    let sid = real["sid"].as_str().unwrap();
    let b_sid = claims_of(&b_token)["sid"].as_str().unwrap().to_owned();
    let t = now();
    let header = json!({"alg": "HS256", "typ": "session+jwt", "kid": kid});
    let claims = json!({"sub": a.id.to_string(), "sid": sid, "iat": t, "nbf": t, "exp": t + 600,
                        "iss": "regintel", "aud": "regintel:account"});

    // Controls: the genuine token and a hand-made one with nothing wrong.
    assert_eq!(session_get(&s, &genuine).await.status, 200);
    let control = session_get(&s, &hs256(&header, &claims, &key)).await;
    assert_eq!(
        control.status,
        200,
        "{}",
        String::from_utf8_lossy(&control.body)
    );

    let tampered = {
        let signed = hs256(&header, &claims, &key);
        let parts: Vec<&str> = signed.split('.').collect();
        let forged = b64(&edit(&claims, &[("sub", json!(b.id.to_string()))]));
        format!("{}.{forged}.{}", parts[0], parts[2])
    };
    let truncated = {
        let mut t = hs256(&header, &claims, &key);
        t.truncate(t.len() - 2);
        t
    };
    let attacks: Vec<(&str, String)> = vec![
        (
            "alg none",
            format!(
                "{}.{}.",
                b64(&edit(&header, &[("alg", json!("none"))])),
                b64(&claims)
            ),
        ),
        (
            "alg HS512 with the right key",
            hs512(&edit(&header, &[("alg", json!("HS512"))]), &claims, &key),
        ),
        (
            "HS256 header, HS512 signature",
            hs512(&header, &claims, &key),
        ),
        (
            "signed with a wrong key",
            hs256(&header, &claims, &[7u8; 32]),
        ),
        (
            "expired",
            hs256(
                &header,
                &edit(
                    &claims,
                    &[
                        ("iat", json!(t - 4500)),
                        ("nbf", json!(t - 4500)),
                        ("exp", json!(t - 3600)),
                    ],
                ),
                &key,
            ),
        ),
        (
            "nbf in the future",
            hs256(
                &header,
                &edit(
                    &claims,
                    &[("nbf", json!(t + 3600)), ("exp", json!(t + 4500))],
                ),
                &key,
            ),
        ),
        (
            "wrong audience",
            hs256(
                &header,
                &edit(&claims, &[("aud", json!("regintel:admin"))]),
                &key,
            ),
        ),
        (
            "wrong issuer",
            hs256(
                &header,
                &edit(&claims, &[("iss", json!("https://evil.example"))]),
                &key,
            ),
        ),
        ("tampered sub, original signature", tampered),
        (
            "missing typ",
            hs256(&edit(&header, &[("typ", Value::Null)]), &claims, &key),
        ),
        (
            "typ JWT",
            hs256(&edit(&header, &[("typ", json!("JWT"))]), &claims, &key),
        ),
        (
            "missing kid",
            hs256(&edit(&header, &[("kid", Value::Null)]), &claims, &key),
        ),
        (
            "missing exp",
            hs256(&header, &edit(&claims, &[("exp", Value::Null)]), &key),
        ),
        (
            "missing nbf",
            hs256(&header, &edit(&claims, &[("nbf", Value::Null)]), &key),
        ),
        (
            "missing aud",
            hs256(&header, &edit(&claims, &[("aud", Value::Null)]), &key),
        ),
        (
            "unknown session id",
            hs256(
                &header,
                &edit(
                    &claims,
                    &[("sid", json!("nosuchsession0000000000000000000"))],
                ),
                &key,
            ),
        ),
        (
            "B's session under A's sub",
            hs256(&header, &edit(&claims, &[("sid", json!(b_sid))]), &key),
        ),
        ("truncated signature", truncated),
    ];
    for (what, token) in &attacks {
        assert_invalid(&session_get(&s, token).await, what);
    }
    // Nothing above disturbed the genuine sessions.
    assert_eq!(session_get(&s, &genuine).await.status, 200);
    assert_eq!(session_get(&s, &b_token).await.status, 200);
}

/// GET /account/api-keys with `token` as Bearer.
async fn session_get(s: &TestServer, token: &str) -> Resp {
    let auth = bearer(token);
    get_with(s, KEYS, &[("authorization", &auth)]).await
}

/// `value` with members set, or removed where the new value is null.
fn edit(value: &Value, changes: &[(&str, Value)]) -> Value {
    let mut v = value.clone();
    let map = v.as_object_mut().unwrap();
    for (name, new) in changes {
        if new.is_null() {
            map.remove(*name);
        } else {
            map.insert((*name).to_owned(), new.clone());
        }
    }
    v
}

// ---------------------------------------------------------------------------------------------
// 4. Login and logout
// ---------------------------------------------------------------------------------------------

/// A right password gives a 15-minute Bearer token, never stored or compressed, and no password
/// material in the answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_returns_an_uncached_uncompressed_token() {
    let s = TestServer::start().await;
    let a = s.account("login@example.org", Tier::Professional);
    let r = post_json(
        &s,
        "/auth/login",
        &[("accept-encoding", "gzip")],
        &json!({ "email": a.email, "password": a.password }),
    )
    .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert_eq!(r.header("content-encoding"), None);
    let v = r.json();
    let data = &v["data"];
    assert_eq!(data["token_type"], "Bearer");
    assert_eq!(data["expires_in"], 900);
    let token = data["access_token"].as_str().unwrap();
    assert_eq!(token.split('.').count(), 3);
    let claims = claims_of(token);
    assert_eq!(
        claims["exp"].as_i64().unwrap() - claims["iat"].as_i64().unwrap(),
        900
    );
    let text = String::from_utf8_lossy(&r.body).to_lowercase();
    assert!(!text.contains(&a.password.to_lowercase()));
    assert!(!text.contains("argon2"), "{text}");
    assert!(!text.contains("password"), "{text}");
    // The email is matched case-insensitively.
    let r = login_raw(&s, &a.email.to_uppercase(), &a.password).await;
    assert_eq!(r.status, 200);
    // The token works at once.
    let auth = bearer(token);
    assert_eq!(
        get_with(&s, KEYS, &[("authorization", &auth)]).await.status,
        200
    );
}

/// A wrong password and an unknown email are indistinguishable: same status, code, message and
/// challenge.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_logins_do_not_reveal_whether_the_email_exists() {
    let s = TestServer::start().await;
    let a = s.account("exists@example.org", Tier::Professional);
    let wrong = login_raw(&s, &a.email, "not the password at all").await;
    let unknown = login_raw(&s, "nobody@example.org", "not the password at all").await;
    let empty = login_raw(&s, &a.email, "").await;
    let mut messages = Vec::new();
    for r in [&wrong, &unknown, &empty] {
        let e = r.error(401, "invalid_credential");
        assert_eq!(e["message"], "invalid email or password");
        assert_eq!(e.get("details"), None, "{e}");
        assert_eq!(r.header("www-authenticate"), Some(INVALID_TOKEN));
        assert_eq!(r.header("cache-control"), Some("no-store"));
        messages.push(e["message"].clone());
    }
    assert_eq!(messages[0], messages[1]);
    assert_eq!(wrong.status, unknown.status);
}

/// Wrong passwords for `email` until the throttle answers 429 (its wait doubles with each
/// failure past the fifth, so it soon outlasts one login however slow the machine), then at once
/// `password`, which the wait holds back too: its answer. No wall-clock budget.
async fn login_after_the_throttle_answers(s: &TestServer, email: &str, password: &str) -> Resp {
    for i in 0..16 {
        let r = login_raw(s, email, &format!("wrong password {i}")).await;
        if r.status == 429 {
            assert!(i >= 5, "throttled after only {i} failures");
            return login_raw(s, email, password).await;
        }
        r.error(401, "invalid_credential");
    }
    panic!("16 failed logins for {email}, and the throttle never answered");
}

/// After five failures for an email, the next attempts wait: 429 `rate_limit_exceeded` with
/// `Retry-After`, even with the right password; other emails are not affected. (The doubling,
/// its cap and its reset are tested with a clock of their own in `auth::throttle`.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn repeated_failed_logins_are_throttled() {
    let s = TestServer::start().await;
    let other = s.account("bystander@example.org", Tier::Professional);
    let a = s.account("throttled@example.org", Tier::Professional);
    let r = login_after_the_throttle_answers(&s, &a.email, &a.password).await;
    let e = r.error(429, "rate_limit_exceeded");
    let retry: u64 = r
        .header("retry-after")
        .expect("Retry-After")
        .parse()
        .unwrap();
    assert!(retry >= 1, "{retry}");
    assert!(e["details"]["retry_after"].as_u64().unwrap() >= 1, "{e}");
    assert_eq!(e["details"]["violated_policies"][0], "login-failures");
    assert!(!String::from_utf8_lossy(&r.body).contains("access_token"));
    assert_eq!(
        login_raw(&s, &other.email, &other.password).await.status,
        200
    );
}

/// Unknown emails are throttled exactly like known ones, so the 429 is no oracle either.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_logins_for_unknown_emails_are_throttled_too() {
    let s = TestServer::start().await;
    let r = login_after_the_throttle_answers(&s, "ghost@example.org", "wrong password").await;
    r.error(429, "rate_limit_exceeded");
    assert!(r.header("retry-after").is_some());
}

/// Login bodies are strict: unknown fields are 422, a wrong media type is 415. The browser's
/// sign-in takes JSON only too: a form on another site can post `text/plain` or a form body
/// without a preflight, never `application/json`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn login_rejects_unknown_fields_and_wrong_media_type() {
    let s = TestServer::start().await;
    let a = s.account("strict@example.org", Tier::Professional);
    let r = post_json(
        &s,
        "/auth/login",
        &[],
        &json!({ "email": a.email, "password": a.password, "tier": "institutional" }),
    )
    .await;
    r.error(422, "validation_failed");
    post_json(&s, "/auth/login", &[], &json!({ "email": a.email }))
        .await
        .error(422, "validation_failed");
    let json_body = json!({ "email": a.email, "password": a.password }).to_string();
    let form_body = format!("email={}&password={}", a.email, a.password);
    let login = format!("{BASE}/auth/login");
    for path in [login.as_str(), "/account/session"] {
        for (content_type, body) in [
            (Some("text/plain"), &json_body),
            (Some("application/x-www-form-urlencoded"), &form_body),
            (Some("multipart/form-data; boundary=x"), &form_body),
            (None, &json_body),
        ] {
            let headers: Vec<(&str, &str)> = content_type
                .map(|t| ("content-type", t))
                .into_iter()
                .collect();
            let r = s
                .client
                .send(Request {
                    method: "POST",
                    path,
                    headers: &headers,
                    body: body.clone().into_bytes(),
                })
                .await;
            let e = r.error(415, "unsupported_media_type");
            assert_eq!(e["details"]["expected"], "application/json");
            assert!(
                r.headers.get("set-cookie").is_none(),
                "{path} {content_type:?}"
            );
        }
        // The same credentials as JSON sign in: the refusals were for the media type alone.
        let r = s
            .client
            .send(Request {
                method: "POST",
                path,
                headers: &[("content-type", "application/json")],
                body: json_body.clone().into_bytes(),
            })
            .await;
        assert_eq!(
            r.status,
            200,
            "{path}: {}",
            String::from_utf8_lossy(&r.body)
        );
    }
}

/// Logout revokes the session at once; an API key cannot log out (403) and nobody is 401
/// `missing_credential` with a bare challenge.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logout_revokes_the_session_immediately() {
    let s = TestServer::start().await;
    let a = s.account("logout@example.org", Tier::Professional);
    let token = s.login(&a).await;
    let other = s.login(&a).await;
    let auth = bearer(&token);
    assert_eq!(
        get_with(&s, KEYS, &[("authorization", &auth)]).await.status,
        200
    );
    let r = s
        .call("POST", "/auth/logout", &[("authorization", &auth)], b"")
        .await;
    assert_eq!(r.status, 204, "{}", String::from_utf8_lossy(&r.body));
    assert!(r.body.is_empty());
    assert_invalid(
        &get_with(&s, KEYS, &[("authorization", &auth)]).await,
        "token after logout",
    );
    assert_invalid(
        &get_with(&s, PROFILE, &[("authorization", &auth)]).await,
        "token after logout on a public route",
    );
    assert_invalid(
        &s.call("POST", "/auth/logout", &[("authorization", &auth)], b"")
            .await,
        "second logout",
    );
    // Another session of the same account is unaffected.
    let other_auth = bearer(&other);
    assert_eq!(
        get_with(&s, KEYS, &[("authorization", &other_auth)])
            .await
            .status,
        200
    );

    let r = s.call("POST", "/auth/logout", &[a.key_header()], b"").await;
    r.error(403, "forbidden");
    assert_eq!(get_with(&s, PROFILE, &[a.key_header()]).await.status, 200);

    let r = s.call("POST", "/auth/logout", &[], b"").await;
    r.error(401, "missing_credential");
    assert_eq!(
        r.header("www-authenticate"),
        Some(r#"Bearer realm="regintel""#)
    );
    assert!(!r.header("www-authenticate").unwrap().contains("error="));
}

// ---------------------------------------------------------------------------------------------
// 5. The account API
// ---------------------------------------------------------------------------------------------

/// The key list shows id, name, dates and status, with `last_used_at` set once the key was used,
/// and never secret material.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn key_list_shows_metadata_and_never_secrets() {
    let s = TestServer::start().await;
    let a = s.account("list@example.org", Tier::Institutional);
    let auth = bearer(&s.login(&a).await);
    let r = get_with(&s, KEYS, &[("authorization", &auth)]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    let list = r.json();
    assert_eq!(list["meta"]["access"], "account");
    let entry = list_entry(&list, &a.key_id);
    assert_eq!(entry["name"], "test");
    assert_eq!(entry["status"], "active");
    assert!(entry["created_at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(entry["last_used_at"], Value::Null, "never used yet");
    assert_no_secrets(&r, &a.api_key);

    assert_eq!(get_with(&s, PROFILE, &[a.key_header()]).await.status, 200);
    // The use is recorded off the request path, so it may land after the next request: wait
    // for it (however slow the machine) instead of racing it.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let (r, entry) = loop {
        let r = get_with(&s, KEYS, &[("authorization", &auth)]).await;
        let entry = list_entry(&r.json(), &a.key_id).clone();
        if !entry["last_used_at"].is_null() || std::time::Instant::now() >= deadline {
            break (r, entry);
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert!(
        entry["last_used_at"]
            .as_str()
            .is_some_and(|t| t.ends_with('Z')),
        "{entry}"
    );
    assert_no_secrets(&r, &a.api_key);
}

/// The answer neither contains the key's secret nor any field named like secret material.
fn assert_no_secrets(r: &Resp, api_key: &str) {
    let text = String::from_utf8_lossy(&r.body);
    assert!(!text.contains(secret_of(api_key)), "{text}");
    fn walk(v: &Value, path: &str) {
        match v {
            Value::Object(map) => {
                for (k, v) in map {
                    let lower = k.to_lowercase();
                    for bad in ["mac", "hash", "secret", "password", "pepper"] {
                        assert!(!lower.contains(bad), "field {path}/{k}");
                    }
                    walk(v, &format!("{path}/{k}"));
                }
            }
            Value::Array(items) => items.iter().for_each(|i| walk(i, path)),
            _ => {}
        }
    }
    walk(&r.json(), "");
}

/// Creating a key answers 201 with the plaintext once, never stored or compressed, in the
/// documented format, and the key works at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn created_key_is_shown_once_uncompressed_and_works() {
    let s = TestServer::start().await;
    let a = s.account("create@example.org", Tier::Institutional);
    let auth = bearer(&s.login(&a).await);
    let r = post_json(
        &s,
        KEYS,
        &[("authorization", &auth), ("accept-encoding", "gzip")],
        &json!({ "name": "ci" }),
    )
    .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert_eq!(r.header("content-encoding"), None);
    let v = r.json();
    let key = v["data"]["api_key"].as_str().unwrap().to_owned();
    assert!(looks_like_key(&key), "{key}");
    let key_id = v["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(&key[11..19], key_id);
    assert_eq!(v["data"]["name"], "ci");
    assert_eq!(v["data"]["status"], "active");
    assert!(regintel::auth::api_key::parse(&key).is_some());

    let r = get_with(&s, PROFILE, &[("x-api-key", &key)]).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["meta"]["access"], "account");

    // Listed afterwards, without the plaintext.
    let r = get_with(&s, KEYS, &[("authorization", &auth)]).await;
    let list = r.json();
    assert_eq!(list_entry(&list, &key_id)["name"], "ci");
    assert_no_secrets(&r, &key);
    assert_eq!(list["data"].as_array().unwrap().len(), 2);
}

/// Professional accounts hold one active key: a second is 409 `key_limit_reached` with
/// `details.limit` 1 until the first is revoked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn professional_accounts_hold_one_active_key() {
    let s = TestServer::start().await;
    let a = s.account("pro-limit@example.org", Tier::Professional);
    let auth = bearer(&s.login(&a).await);
    let h = [("authorization", auth.as_str())];
    let e = post_json(&s, KEYS, &h, &json!({ "name": "second" }))
        .await
        .error(409, "key_limit_reached");
    assert_eq!(e["details"]["limit"], 1);
    let r = s
        .call("DELETE", &format!("{KEYS}/{}", a.key_id), &h, b"")
        .await;
    assert_eq!(r.status, 204);
    let r = post_json(&s, KEYS, &h, &json!({ "name": "replacement" })).await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let key = r.json()["data"]["api_key"].as_str().unwrap().to_owned();
    assert_eq!(
        get_with(&s, PROFILE, &[("x-api-key", &key)]).await.status,
        200
    );
    post_json(&s, KEYS, &h, &json!({ "name": "third" }))
        .await
        .error(409, "key_limit_reached");
}

/// Institutional accounts hold ten active keys; the eleventh is 409 with `details.limit` 10.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn institutional_accounts_hold_ten_active_keys() {
    let s = TestServer::start().await;
    let a = s.account("inst-limit@example.org", Tier::Institutional);
    let auth = bearer(&s.login(&a).await);
    let h = [("authorization", auth.as_str())];
    for i in 2..=10 {
        let r = post_json(&s, KEYS, &h, &json!({ "name": format!("key {i}") })).await;
        assert_eq!(
            r.status,
            201,
            "key {i}: {}",
            String::from_utf8_lossy(&r.body)
        );
    }
    let e = post_json(&s, KEYS, &h, &json!({ "name": "eleventh" }))
        .await
        .error(409, "key_limit_reached");
    assert_eq!(e["details"]["limit"], 10);
    let list = get_with(&s, KEYS, &h).await.json();
    assert_eq!(list["data"].as_array().unwrap().len(), 10);
}

/// The account API takes session tokens only: an API key is 403 `forbidden`, nobody is 401.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn account_api_refuses_api_keys() {
    let s = TestServer::start().await;
    let a = s.account("plane@example.org", Tier::Institutional);
    let key_auth = bearer(&a.api_key);
    for headers in [[a.key_header()], [("authorization", key_auth.as_str())]] {
        get_with(&s, KEYS, &headers).await.error(403, "forbidden");
        post_json(&s, KEYS, &headers, &json!({ "name": "sneaky" }))
            .await
            .error(403, "forbidden");
        s.call("DELETE", &format!("{KEYS}/{}", a.key_id), &headers, b"")
            .await
            .error(403, "forbidden");
    }
    // The key was not revoked by the refused DELETE, and no key was added.
    assert_eq!(get_with(&s, PROFILE, &[a.key_header()]).await.status, 200);
    let auth = bearer(&s.login(&a).await);
    let list = get_with(&s, KEYS, &[("authorization", &auth)]).await.json();
    assert_eq!(list["data"].as_array().unwrap().len(), 1);

    let r = get_with(&s, KEYS, &[]).await;
    r.error(401, "missing_credential");
    assert_eq!(
        r.header("www-authenticate"),
        Some(r#"Bearer realm="regintel""#)
    );
}

/// Another account's key id is 404 `not_found`, exactly like a missing one, and that key keeps
/// working; an empty name is 422.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_of_other_accounts_are_not_found() {
    let s = TestServer::start().await;
    let a = s.account("owner-a@example.org", Tier::Institutional);
    let b = s.account("owner-b@example.org", Tier::Institutional);
    let auth = bearer(&s.login(&a).await);
    let h = [("authorization", auth.as_str())];
    let theirs = s
        .call("DELETE", &format!("{KEYS}/{}", b.key_id), &h, b"")
        .await;
    let e = theirs.error(404, "not_found");
    let missing = s.call("DELETE", &format!("{KEYS}/ZZZZZZZZ"), &h, b"").await;
    let e2 = missing.error(404, "not_found");
    assert_eq!(
        e["message"].as_str().unwrap().replace(&b.key_id, "X"),
        e2["message"].as_str().unwrap().replace("ZZZZZZZZ", "X")
    );
    assert_eq!(get_with(&s, PROFILE, &[b.key_header()]).await.status, 200);
    let list = get_with(&s, KEYS, &h).await.json();
    assert!(!list.to_string().contains(&b.key_id), "{list}");

    for name in [json!(""), json!("   "), json!("x".repeat(101)), json!(5)] {
        let e = post_json(&s, KEYS, &h, &json!({ "name": name }))
            .await
            .error(422, "validation_failed");
        assert!(e["details"]["errors"].is_array(), "{e}");
    }
    post_json(&s, KEYS, &h, &json!({ "name": "ci", "tier": "x" }))
        .await
        .error(422, "validation_failed");
}

// ---------------------------------------------------------------------------------------------
// 6. Keys never in logs, URLs or bodies (the real binary)
// ---------------------------------------------------------------------------------------------

/// A request of the log test: path, credential header, and the expected status (None where only
/// the body matters).
type Probe<'a> = (String, &'a [(&'a str, &'a str)], Option<u16>);

/// Runs an operator command and returns its JSON output.
fn operator(args: &[&str], dir: &std::path::Path) -> Value {
    let out = regintel()
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .arg("--json")
        .bounded_output();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// With debug logging, requests carrying a key (valid, corrupted, cut short, in the path, in a
/// query value) never put any of its secret into a response body or the log; access lines name
/// the key id.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keys_never_reach_logs_or_bodies() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(bundled_db(), dir.path().join(regintel::store::DB_FILE)).unwrap();
    let email = "logs@example.org";
    operator(
        &["account", "create", email, "--tier", "professional"],
        dir.path(),
    );
    let created = operator(&["key", "create", email], dir.path());
    let key = created["api_key"].as_str().unwrap().to_owned();
    let key_id = created["key_id"].as_str().unwrap().to_owned();
    assert!(looks_like_key(&key));
    // Twelve characters of the secret are enough to tell a leak of any part of it.
    let secret = secret_of(&key)[..12].to_owned();
    // The key without its checksum, and with half of its secret.
    let truncated = key[..key.len() - 6].to_owned();
    let half = key[..key.len() - 6 - 16].to_owned();

    let log_path = dir.path().join("stderr.log");
    let Started {
        mut child,
        addr,
        printed: mut stdout_lines,
        stdout: rx,
    } = start_plain(
        serve_plain(dir.path())
            .env("RUST_LOG", "debug")
            .stderr(std::fs::File::create(&log_path).unwrap()),
    );
    let client = Client::new(addr, None);

    let mut corrupted = key.clone();
    let last = corrupted.pop().unwrap();
    corrupted.push(if last == 'A' { 'B' } else { 'A' });
    let wrong_secret = key_with_checksum(&key_id, &"A".repeat(32));
    let auth = bearer(&key);
    let auth_wrong = bearer(&wrong_secret);
    // (path, credential header, expected status; None where only the body matters).
    let x_key = [("x-api-key", key.as_str())];
    let cases: [Probe<'_>; 15] = [
        (format!("{BASE}{PROFILE}"), &x_key, Some(200)),
        (
            format!("{BASE}{PROFILE}"),
            &[("authorization", &auth)],
            Some(200),
        ),
        (
            format!("{BASE}{PROFILE}"),
            &[("x-api-key", &corrupted)],
            Some(401),
        ),
        (
            format!("{BASE}{PROFILE}"),
            &[("x-api-key", &wrong_secret)],
            Some(401),
        ),
        (
            format!("{BASE}{PROFILE}"),
            &[("authorization", &auth_wrong)],
            Some(401),
        ),
        (format!("{BASE}/regions/{key}"), &[], Some(404)),
        (format!("{BASE}/regions/{truncated}"), &[], Some(404)),
        (format!("{BASE}/regions/{half}/profile"), &[], Some(404)),
        (
            format!("{BASE}{PROFILE}"),
            &[("x-api-key", &truncated)],
            Some(401),
        ),
        (format!("{BASE}/regions/{key}/profile"), &x_key, Some(404)),
        (format!("{BASE}/regions?q={key}"), &[], Some(200)),
        (format!("{BASE}{PROFILE}?api_key={key}"), &[], Some(400)),
        (format!("{BASE}/datasets/{key}"), &[], Some(404)),
        (
            format!("{BASE}/compare?regions=DE21,{key}&dataset=tgs00010"),
            &[],
            Some(404),
        ),
        (
            format!("{BASE}/compare?regions=DE21,FR10&dataset=tgs00010&period={key}"),
            &[],
            None,
        ),
    ];
    let mut leaks = Vec::new();
    for (path, headers, status) in &cases {
        let r = client.get_with(path, headers).await;
        if let Some(status) = status {
            assert_eq!(r.status, *status, "{path} {headers:?}");
        }
        if String::from_utf8_lossy(&r.body).contains(&secret) {
            leaks.push(format!("{} {path}", r.status));
        }
    }

    let status = Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .bounded_output()
        .status;
    assert!(status.success());
    assert!(crate::bounded::wait(&mut child.0, "the server to stop on SIGTERM").success());
    // The rest of what it printed: the channel ends with its stdout, which ended with it.
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) {
        stdout_lines.push(line);
    }
    let log = std::fs::read_to_string(&log_path).unwrap();
    assert!(!log.contains(&secret), "the secret is in the log:\n{log}");
    assert!(!stdout_lines.join("\n").contains(&secret));
    let access: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("regintel::access"))
        .collect();
    assert!(access.len() >= cases.len(), "{log}");
    assert!(
        access
            .iter()
            .any(|l| l.contains(&key_id) && l.contains("status=200")),
        "no access line names the key id:\n{log}"
    );
    assert!(
        leaks.is_empty(),
        "response bodies contain the key's secret: {leaks:?}"
    );
}
