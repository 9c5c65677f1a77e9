//! The request pipeline, in the order it runs (see [`handle`]). Everything HTTP-specific lives in
//! this module; handlers see a [`handlers::Req`] and return a [`crate::reply::Reply`].

pub mod handlers;
pub mod query;
pub mod respond;
pub mod router;
pub mod routes;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use http::header::{self, HeaderValue};
use http::{Method, Request, Response, StatusCode};

use crate::error::ApiError;
use crate::ids;
use crate::state::AppState;
use handlers::Req;
use query::Query;
use respond::{Body, Envelope};
use router::Match;

/// One request, top to bottom:
/// 1. request id (inbound `X-Request-Id` if well-formed, else a new one);
/// 2. body size check (413 before anything else is read);
/// 3. route (404, 405 with `Allow`, CORS preflight for OPTIONS);
/// 4. query parsing; conditional GET (`If-None-Match` → 304) and the answer cache;
/// 5. the handler;
/// 6. envelope, gzip, and the headers every answer carries; one access-log line.
pub fn handle<B>(state: &Arc<AppState>, req: &Request<B>, peer: SocketAddr) -> Response<Body> {
    let started = Instant::now();
    let request_id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| ids::accept_request_id(v))
        .map(str::to_owned)
        .unwrap_or_else(ids::request_id);
    let account = None;
    let generated_at = crate::clock::rfc3339(crate::clock::now_ms());
    let envelope = Envelope {
        request_id: &request_id,
        generated_at: &generated_at,
        access: if account.is_some() {
            "account"
        } else {
            "public"
        },
    };
    let gzip = respond::accepts_gzip(req.headers());

    let mut response = match answer(state, req, account, &envelope, gzip) {
        Ok(response) => response,
        Err(err) => error_response(&envelope, &err, gzip),
    };
    respond::common_headers(response.headers_mut(), &request_id, state.config.tls);
    if *req.method() == Method::HEAD {
        *response.body_mut() = Body::default();
    }
    tracing::info!(
        target: "regintel::access",
        request_id = %request_id,
        peer = %peer.ip(),
        method = %req.method(),
        path = %req.uri().path(),
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
    );
    response
}

fn answer<B>(
    state: &Arc<AppState>,
    req: &Request<B>,
    account: Option<i64>,
    envelope: &Envelope<'_>,
    gzip: bool,
) -> Result<Response<Body>, ApiError> {
    let declared_length = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared_length.is_some_and(|n| n > state.config.max_body_bytes) {
        return Err(ApiError::PayloadTooLarge {
            limit: state.config.max_body_bytes,
        });
    }
    let path = req.uri().path();
    let (route, params) = match router::find(&state.base_path, req.method(), path) {
        Match::Found { route, params } => (route, params),
        Match::MethodNotAllowed { allow } if req.method() == Method::OPTIONS => {
            return Ok(preflight(&allow));
        }
        Match::MethodNotAllowed { allow } => {
            return Err(ApiError::MethodNotAllowed {
                method: req.method().to_string(),
                allow,
            });
        }
        Match::NotFound => {
            return Err(ApiError::NotFound(format!(
                "no route for {} {path}",
                req.method()
            )));
        }
    };
    let query = Query::parse(req.uri().query())?;

    let cache = route.cacheable.then(|| {
        let generation = state.generation();
        let key = format!("{}|{path}?{}", account.unwrap_or(0), query.canonical());
        let etag = format!("W/\"g{generation}-{:016x}\"", fnv1a(key.as_bytes()));
        (generation, key, etag)
    });
    if let Some((_, _, etag)) = &cache
        && if_none_match(req, etag)
    {
        let mut response = Response::new(Body::default());
        *response.status_mut() = StatusCode::NOT_MODIFIED;
        cache_headers(&mut response, etag, account.is_some());
        return Ok(response);
    }
    let cached = cache
        .as_ref()
        .and_then(|(generation, key, _)| state.cache.get(key, *generation));
    let reply = match cached {
        Some(reply) => reply,
        None => {
            let mut handler_req = Req {
                state,
                params: &params,
                query,
                account,
            };
            let reply = Arc::new((route.handler)(&mut handler_req)?);
            if let Some((generation, key, _)) = cache.as_ref() {
                state
                    .cache
                    .put(key.clone(), *generation, Arc::clone(&reply));
            }
            reply
        }
    };
    let (body, content_type) = respond::render(envelope, &reply);
    let mut response = respond::build(StatusCode::OK, body, content_type, gzip);
    match &cache {
        Some((_, _, etag)) => cache_headers(&mut response, etag, account.is_some()),
        None => no_store(&mut response),
    }
    Ok(response)
}

fn error_response(envelope: &Envelope<'_>, err: &ApiError, gzip: bool) -> Response<Body> {
    if let ApiError::Internal(cause) = err {
        tracing::error!(
            request_id = envelope.request_id,
            error = format!("{cause:#}"),
            "internal error"
        );
    }
    let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let mut response = respond::build(
        status,
        respond::error_body(envelope, err),
        "application/json",
        gzip,
    );
    if let ApiError::MethodNotAllowed { allow, .. } = err
        && let Ok(v) = HeaderValue::from_str(allow)
    {
        response.headers_mut().insert(header::ALLOW, v);
    }
    if matches!(err, ApiError::Unavailable) {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
    }
    no_store(&mut response);
    response
}

/// CORS preflight: which methods and request headers the API takes (conventions §7).
fn preflight(allow: &str) -> Response<Body> {
    let mut response = Response::new(Body::default());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(allow) {
        headers.insert(header::ALLOW, v.clone());
        headers.insert(header::ACCESS_CONTROL_ALLOW_METHODS, v);
    }
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(
            "Authorization, Content-Type, X-API-Key, X-Request-Id, If-None-Match",
        ),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("7200"),
    );
    response
}

/// Weak comparison (RFC 9110 §13.1.2): `*` or any listed tag equal to ours.
fn if_none_match<B>(req: &Request<B>, etag: &str) -> bool {
    req.headers()
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag == "*" || tag.trim_start_matches("W/") == etag.trim_start_matches("W/"))
}

fn cache_headers(response: &mut Response<Body>, etag: &str, private: bool) {
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(etag) {
        headers.insert(header::ETAG, v);
    }
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(if private {
            "private, no-cache"
        } else {
            "public, max-age=300"
        }),
    );
    headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
}

fn no_store(response: &mut Response<Body>) {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

/// FNV-1a: a fast, stable hash for ETags (not a security boundary).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}
