//! The account pages: their session (a token in an HttpOnly cookie, usable only with the CSRF
//! token the pages send back in a header), how the pages are served, and the whole area driven
//! in headless Chromium.

use std::time::Duration;

use serde_json::{Value, json};

use crate::receiver::{Received, Receiver};
use crate::support::{BASE, Request, Resp, TestAccount, TestServer, Tier};

const SESSION: &str = "/account/session";
const KEYS: &str = "/api/v1/regional/account/api-keys";

async fn send(s: &TestServer, method: &str, path: &str, headers: &[(&str, &str)]) -> Resp {
    s.client
        .send(Request {
            method,
            path,
            headers,
            body: Vec::new(),
        })
        .await
}

async fn sign_in(s: &TestServer, email: &str, password: &str) -> Resp {
    let body = json!({ "email": email, "password": password });
    s.client
        .send(Request {
            method: "POST",
            path: SESSION,
            headers: &[("content-type", "application/json")],
            body: body.to_string().into_bytes(),
        })
        .await
}

fn set_cookies(r: &Resp) -> Vec<&str> {
    r.headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap())
        .collect()
}

/// A signed-in browser: the cookie header it sends, and its CSRF token.
#[derive(Clone)]
pub struct Browser {
    pub cookie: String,
    pub csrf: String,
}

impl Browser {
    pub async fn sign_in(s: &TestServer, who: &TestAccount) -> Browser {
        let r = sign_in(s, &who.email, &who.password).await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        let value = |name: &str| {
            set_cookies(&r)
                .into_iter()
                .find_map(|c| c.strip_prefix(&format!("{name}=")))
                .and_then(|rest| rest.split(';').next())
                .unwrap_or_else(|| panic!("no {name} cookie"))
                .to_owned()
        };
        let token = value("__Host-regintel_session");
        Browser {
            cookie: format!("__Host-regintel_session={token}; other=1"),
            csrf: value("__Host-regintel_csrf"),
        }
    }

    /// The session token its cookie carries.
    pub fn session_token(&self) -> &str {
        let value = self
            .cookie
            .strip_prefix("__Host-regintel_session=")
            .unwrap();
        value.split(';').next().unwrap()
    }

    async fn send(&self, s: &TestServer, method: &str, path: &str, csrf: Option<&str>) -> Resp {
        let mut headers = vec![("cookie", self.cookie.as_str())];
        headers.extend(csrf.map(|c| ("x-csrf-token", c)));
        send(s, method, path, &headers).await
    }
}

#[tokio::test]
async fn signing_in_sets_an_httponly_session_cookie_and_no_token_in_the_body() {
    let s = TestServer::start().await;
    let who = s.account("cookie@example.org", Tier::Professional);
    let r = sign_in(&s, &who.email, &who.password).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.header("cache-control"), Some("no-store"));
    assert_eq!(
        r.header("access-control-allow-origin"),
        None,
        "no other site's script may read it"
    );
    let cookies = set_cookies(&r);
    assert_eq!(cookies.len(), 2, "{cookies:?}");
    let session = cookies
        .iter()
        .find(|c| c.starts_with("__Host-regintel_session="))
        .unwrap();
    let csrf = cookies
        .iter()
        .find(|c| c.starts_with("__Host-regintel_csrf="))
        .unwrap();
    for attribute in ["; Path=/", "; Secure", "; SameSite=Strict", "; Max-Age="] {
        assert!(session.contains(attribute), "{session}");
        assert!(csrf.contains(attribute), "{csrf}");
    }
    assert!(session.ends_with("; HttpOnly"), "{session}");
    assert!(!csrf.contains("HttpOnly"), "the pages read it: {csrf}");
    let token = session
        .split(';')
        .next()
        .unwrap()
        .trim_start_matches("__Host-regintel_session=");
    let body = String::from_utf8_lossy(&r.body);
    assert!(
        !body.contains(token),
        "the token stays in the cookie: {body}"
    );
    assert_eq!(r.json()["data"]["email"], "cookie@example.org");

    let wrong = sign_in(&s, &who.email, "not the password").await;
    wrong.error(401, "invalid_credential");
    assert!(wrong.headers.get("set-cookie").is_none());
}

#[tokio::test]
async fn the_cookie_counts_only_with_its_csrf_token() {
    let s = TestServer::start().await;
    let who = s.account("csrf@example.org", Tier::Professional);
    let browser = Browser::sign_in(&s, &who).await;
    let other = Browser::sign_in(&s, &who).await;

    let ok = browser.send(&s, "GET", KEYS, Some(&browser.csrf)).await;
    assert_eq!(ok.status, 200, "{}", String::from_utf8_lossy(&ok.body));
    assert_eq!(ok.json()["data"][0]["id"], who.key_id.as_str());

    // A request another site makes the browser send carries the cookie but not the header: it
    // is anonymous, and an account route refuses it.
    browser
        .send(&s, "GET", KEYS, None)
        .await
        .error(401, "missing_credential");
    let forged = browser.send(&s, "POST", "/api/v1/regional/account/api-keys", None);
    forged.await.error(401, "missing_credential");
    // A wrong token, or another session's, makes no credential either: anonymous again.
    for wrong in ["AAAA", other.csrf.as_str()] {
        browser
            .send(&s, "GET", KEYS, Some(wrong))
            .await
            .error(401, "missing_credential");
        let r = browser.send(&s, "GET", "/api/v1/regional/account/usage", Some(wrong));
        r.await.error(401, "missing_credential");
    }
}

#[tokio::test]
async fn signing_out_ends_the_session_and_drops_the_cookies() {
    let s = TestServer::start().await;
    let who = s.account("out@example.org", Tier::Professional);
    let browser = Browser::sign_in(&s, &who).await;
    let r = browser
        .send(&s, "DELETE", SESSION, Some(&browser.csrf))
        .await;
    assert_eq!(r.status, 204, "{}", String::from_utf8_lossy(&r.body));
    let cleared = set_cookies(&r);
    assert_eq!(cleared.len(), 2);
    assert!(
        cleared
            .iter()
            .all(|c| c.contains("=; ") && c.contains("Max-Age=0"))
    );
    // The same cookie and token, replayed, no longer sign anyone in.
    browser
        .send(&s, "GET", KEYS, Some(&browser.csrf))
        .await
        .error(401, "invalid_credential");
}

/// Every page and asset answers with its media type, a policy that lets a page load only this
/// host's script and stylesheet (nothing inline), and `no-store`; API answers keep the policy that
/// loads nothing.
#[tokio::test]
async fn pages_are_served_under_a_strict_content_security_policy() {
    let s = TestServer::start().await;
    let pages = [
        "/",
        "/account/login",
        "/account/api-keys",
        "/account/webhooks",
        "/account/usage",
        "/docs",
    ];
    for path in pages {
        let r = s.client.get(path).await;
        assert_eq!(r.status, 200, "{path}");
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(r.header("cache-control"), Some("no-store"), "{path}");
        let csp = r.header("content-security-policy").unwrap();
        assert!(csp.starts_with("default-src 'none'; script-src 'self'; style-src 'self'"));
        assert!(!csp.contains("unsafe"), "{csp}");
        assert_eq!(r.header("access-control-allow-origin"), None, "{path}");
        let html = String::from_utf8_lossy(&r.body);
        assert!(html.contains("<script src=\"/assets/account.js\" defer></script>"));
    }
    for (path, media) in [
        ("/assets/account.js", "text/javascript; charset=utf-8"),
        ("/assets/style.css", "text/css; charset=utf-8"),
        ("/assets/icon.svg", "image/svg+xml"),
    ] {
        let r = s.client.get(path).await;
        assert_eq!((r.status, r.header("content-type")), (200, Some(media)));
    }
    let docs = String::from_utf8_lossy(&s.client.get("/docs").await.body).into_owned();
    assert!(docs.contains("id=\"op-getRegionProfile\""));
    assert!(docs.contains("id=\"schema-Usage\""));
    let api = s.get("/regions/DE21").await;
    assert_eq!(
        api.header("content-security-policy"),
        Some("default-src 'none'; frame-ancestors 'none'")
    );
    // A page takes no parameters, like any route.
    assert_eq!(s.client.get("/account/login?x=1").await.status, 400);
}

/// Where the end-to-end test leaves a screenshot of each page: under `target/`, so that a test
/// run changes nothing in the repository; with `UPDATE_SCREENSHOTS=1` (on purpose, after a change
/// to the pages), in `docs/screenshots/`, which docs/api.md links.
pub fn screenshots() -> std::path::PathBuf {
    if std::env::var_os("UPDATE_SCREENSHOTS").is_some_and(|v| v == "1") {
        return concat!(env!("CARGO_MANIFEST_DIR"), "/docs/screenshots").into();
    }
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("screenshots");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The account area in headless Chromium, as a person uses it (tests/it/browser_py/
/// account_area.py): the public pages and the API reference; a signed-out visit sent to sign in;
/// one generic message for a wrong password and for an unknown email; signing in with the
/// keyboard; the tier's key limit explained; revoking the account's key with an in-page
/// confirmation; creating a key shown once, which then answers the API, is gone after a reload,
/// and is refused once revoked; a webhook registered against a local receiver with its secret
/// shown once, a test delivery shown delivered with its latency, disable, enable and a rotated
/// secret; the usage chart with the calls made; no sideways scrolling on a narrow screen; signing
/// out; and no console errors throughout. Then the receiver's copy of the test delivery must
/// verify with the secret the page showed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_account_area_works_in_chromium() {
    let s = TestServer::start().await;
    let who = s.account("browser@example.org", Tier::Professional);
    let receiver = Receiver::start(204).await;
    let shots = screenshots();
    let given = json!({
        "origin": format!("http://127.0.0.1:{}", s.addr.port()),
        "base_path": BASE,
        "email": who.email,
        "password": who.password,
        "existing_key": "test",
        "receiver_url": receiver.url("/regintel"),
        "screenshots": shots,
    });
    let file = s.dir.path().join("browser-test.json");
    std::fs::write(&file, given.to_string()).unwrap();
    let out = crate::support::run_script(
        "TEST_PYTHON",
        "tests/it/browser_py/account_area.py",
        file.clone(),
    )
    .await;
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{printed}\n{}\n(the page at the failure: {}/failure.png)",
        String::from_utf8_lossy(&out.stderr),
        shots.display()
    );
    let shown: Value = serde_json::from_str(printed.trim()).unwrap();
    let secret = shown["webhook_secret"].as_str().unwrap().to_owned();

    let tests = receiver
        .wait_for(Duration::from_secs(60), |r| {
            r.iter()
                .any(|x| String::from_utf8_lossy(&x.body).contains("\"webhook.test\""))
        })
        .await;
    let test: Vec<Received> = tests
        .into_iter()
        .filter(|x| String::from_utf8_lossy(&x.body).contains("\"webhook.test\""))
        .collect();
    assert!(!test.is_empty(), "the test delivery never arrived");
    crate::webhooks::verify_with_standardwebhooks(s.dir.path(), &test, |_| vec![secret.clone()]);
}
