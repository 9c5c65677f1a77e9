//! `GET /metrics` for Prometheus, outside the API: it takes no account credential and costs no
//! request. With a metrics token set (`--metrics-token-file` or `REGINTEL_METRICS_TOKEN`), a
//! scrape must send it as `Authorization: Bearer <token>` (compared in constant time); a wrong
//! one is a refused credential like a bad API key, so guessing is capped per client address by
//! the auth-fail limit. Without a token, only loopback clients are answered, and only directly:
//! not a request a proxy forwarded (a same-host proxy's connections come from loopback too), so
//! behind trusted proxies the token is required.

use std::net::SocketAddr;
use std::sync::Arc;

use http::request::Parts;
use http::{Method, header};
use sha2::{Digest, Sha256};

use super::answer::Answer;
use super::charge::Charge;
use super::error::ApiError;
use crate::auth::Refusal;
use crate::reply::Reply;
use crate::state::AppState;

pub const PATH: &str = "/metrics";
/// The Prometheus text exposition format, version 0.0.4.
const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

pub fn answer(
    state: &AppState,
    parts: &Parts,
    peer: SocketAddr,
    charge: Option<&mut Charge>,
) -> Result<Answer, ApiError> {
    if parts.method != Method::GET && parts.method != Method::HEAD {
        return Err(ApiError::MethodNotAllowed {
            method: parts.method.to_string(),
            allow: "GET, HEAD".into(),
        });
    }
    let token = state.config.metrics_token.as_deref();
    if let Some(charge) = charge
        && token.is_some()
    {
        charge.refuse_guessing(state, parts.headers.contains_key(header::AUTHORIZATION))?;
    }
    let proxied = !state.config.limits.trusted_proxies.is_empty();
    admit(token, parts, peer, proxied)?;
    Ok(Answer::Reply {
        reply: Arc::new(Reply::Raw {
            content_type: CONTENT_TYPE,
            body: state.metrics.render().into(),
        }),
        etag: None,
        secret: true,
    })
}

/// Headers a proxy adds to what it forwards: a request carrying one came through a proxy, from
/// wherever its client is.
const FORWARDING: [&str; 3] = ["forwarded", "x-forwarded-for", "x-real-ip"];

/// Without a token: loopback clients only, and not behind trusted proxies (`proxied`) nor
/// forwarded by a proxy (403 for others). With one: 403 without it, and a refused credential
/// (401, charged to the address) for a wrong one.
fn admit(
    token: Option<&str>,
    parts: &Parts,
    peer: SocketAddr,
    proxied: bool,
) -> Result<(), ApiError> {
    let Some(token) = token else {
        let forwarded = FORWARDING.iter().any(|h| parts.headers.contains_key(*h));
        return if peer.ip().is_loopback() && !forwarded && !proxied {
            Ok(())
        } else {
            Err(ApiError::Forbidden(
                "the metrics answer loopback clients only, directly and not behind a proxy, unless the server has a metrics token"
                    .into(),
            ))
        };
    };
    let presented = parts
        .headers
        .get(header::AUTHORIZATION)
        .ok_or_else(|| {
            ApiError::Forbidden(
                "the metrics need the metrics token as Authorization: Bearer".into(),
            )
        })?
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    if same_secret(presented, token) {
        Ok(())
    } else {
        Err(ApiError::Refused(Refusal::InvalidCredential))
    }
}

/// Compares digests of the two, every byte: the time taken says nothing about the token.
fn same_secret(presented: &str, token: &str) -> bool {
    let (a, b) = (Sha256::digest(presented), Sha256::digest(token));
    a.iter().zip(b.iter()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(authorization: Option<&str>) -> Parts {
        parts_with(authorization.map(|a| ("authorization", a)))
    }

    fn parts_with(header: Option<(&str, &str)>) -> Parts {
        let mut req = http::Request::get(PATH);
        if let Some((name, value)) = header {
            req = req.header(name, value);
        }
        req.body(()).unwrap().into_parts().0
    }

    #[test]
    fn without_a_token_only_loopback_is_answered_and_never_through_a_proxy() {
        let local: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let remote: SocketAddr = "192.0.2.7:5000".parse().unwrap();
        assert!(admit(None, &parts(None), local, false).is_ok());
        assert!(admit(None, &parts(None), remote, false).is_err());
        // A same-host proxy connects from loopback: what it forwards is from anywhere.
        for header in FORWARDING {
            let forwarded = parts_with(Some((header, "203.0.113.7")));
            assert!(admit(None, &forwarded, local, false).is_err(), "{header}");
        }
        assert!(admit(None, &parts(None), local, true).is_err());
        assert!(admit(Some("t"), &parts(Some("Bearer t")), local, true).is_ok());
    }

    #[test]
    fn with_a_token_it_must_be_presented_from_anywhere() {
        let local: SocketAddr = "[::1]:5000".parse().unwrap();
        let remote: SocketAddr = "192.0.2.7:5000".parse().unwrap();
        let token = Some("s3cret-scrape");
        assert!(admit(token, &parts(Some("Bearer s3cret-scrape")), remote, false).is_ok());
        assert!(admit(token, &parts(None), local, false).is_err());
        assert!(admit(token, &parts(Some("Bearer s3cret-scrapE")), remote, false).is_err());
        assert!(admit(token, &parts(Some("s3cret-scrape")), remote, false).is_err());
    }
}
