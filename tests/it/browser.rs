//! The account pages' session: its token in an HttpOnly cookie, usable only with the CSRF token
//! the pages send back in a header.

use serde_json::json;

use crate::support::{Request, Resp, TestAccount, TestServer, Tier};

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
struct Browser {
    cookie: String,
    csrf: String,
}

impl Browser {
    async fn sign_in(s: &TestServer, who: &TestAccount) -> Browser {
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
    assert_eq!(ok.json()["data"][0]["key_id"], who.key_id.as_str());

    // A request another site makes the browser send carries the cookie but not the header: it
    // is anonymous, and an account route refuses it.
    browser
        .send(&s, "GET", KEYS, None)
        .await
        .error(401, "missing_credential");
    let forged = browser.send(&s, "POST", "/api/v1/regional/account/api-keys", None);
    forged.await.error(401, "missing_credential");
    // A wrong token, or another session's, is a bad credential.
    browser
        .send(&s, "GET", KEYS, Some("AAAA"))
        .await
        .error(401, "invalid_credential");
    browser
        .send(&s, "GET", KEYS, Some(&other.csrf))
        .await
        .error(401, "invalid_credential");
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
