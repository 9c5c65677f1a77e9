//! The request pipeline, in the order it runs (see [`handle`]). Everything HTTP-specific lives in
//! this module; handlers see a [`handlers::Req`] and return a [`crate::reply::Reply`].

pub mod handlers;
pub mod query;
pub mod ratelimit;
pub mod respond;
pub mod router;
pub mod routes;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;

use http::header::{self, HeaderValue};
use http::request::Parts;
use http::{Method, Request, Response, StatusCode};
use http_body_util::{BodyExt, Limited};
use hyper::body::{Bytes, Incoming};

use crate::auth::{Principal, Via};
use crate::error::ApiError;
use crate::ids;
use crate::limits::{self, Decision, Kind, Policy, Scope};
use crate::reply::Reply;
use crate::state::AppState;
use crate::store::accounts::Tier;
use handlers::{Handler, Req};
use query::Query;
use respond::{Body, Envelope};
use router::Match;
use routes::{Access, BodyKind, Route};

/// What `answer` produced: a finished response (304, preflight) or a reply to render.
enum Answer {
    Ready(Response<Body>),
    Reply {
        reply: Arc<Reply>,
        /// ETag of a cacheable answer.
        etag: Option<String>,
        secret: bool,
    },
}

/// One request, top to bottom:
/// 1. request id (inbound `X-Request-Id` if well-formed, else a new one);
/// 2. declared body size (413 before anything is read);
/// 3. route (404, 405 with `Allow`, CORS preflight for OPTIONS);
/// 4. rate limits: the client's failed-authentication bucket, then credentials (400 for two at
///    once, 401 for a bad one; never downgraded to anonymous), then every bucket the caller
///    touches (429 if one has no room); then the route's access rule (401 missing, 403 tier or
///    credential kind);
/// 5. query and body (415 wrong media type, 413 over the limit);
/// 6. conditional GET (`If-None-Match` → 304) and the answer cache;
/// 7. the handler, inline or on the bounded blocking pool;
/// 8. envelope, gzip, and the headers every answer carries (rate limits included; answers that
///    do not count are refunded); one access-log line.
pub async fn handle(
    state: Arc<AppState>,
    req: Request<Incoming>,
    peer: SocketAddr,
) -> Response<Body> {
    let started = Instant::now();
    let request_id = req
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .filter(|v| ids::accept_request_id(v))
        .map(str::to_owned)
        .unwrap_or_else(ids::request_id);
    let (parts, body) = req.into_parts();
    let mut principal = Principal::Anonymous;
    let mut charge = None;
    let result = answer(&state, &parts, body, peer, &mut principal, &mut charge).await;

    let generated_at = crate::clock::rfc3339(crate::clock::now_ms());
    let account = principal.account_id();
    let envelope = Envelope {
        request_id: &request_id,
        generated_at: &generated_at,
        access: if account.is_some() {
            "account"
        } else {
            "public"
        },
    };
    let gzip = respond::accepts_gzip(&parts.headers);
    let bad_credential = matches!(
        &result,
        Err(ApiError::InvalidCredential | ApiError::LoginFailed)
    );
    let mut response = match result {
        Ok(Answer::Ready(response)) => response,
        Ok(Answer::Reply {
            reply,
            etag,
            secret,
        }) => {
            let (status, body, content_type) = respond::render(&envelope, &reply);
            let mut response =
                respond::build_async(status, body, content_type, gzip && !secret, &state.reads)
                    .await;
            match etag {
                Some(etag) => cache_headers(&mut response, &etag, account.is_some()),
                None => no_store(&mut response),
            }
            response
        }
        Err(err) => error_response(&envelope, &err, gzip),
    };
    // The account plane is for the same-origin account area: no cross-origin reads, so a
    // page elsewhere cannot use a logged-in browser; the public data API is open to scripts from anywhere, without credentials.
    let cross_origin = !parts
        .uri
        .path()
        .strip_prefix(state.base_path.as_str())
        .is_some_and(|p| p.starts_with("/auth/") || p.starts_with("/account/"));
    respond::common_headers(
        response.headers_mut(),
        &request_id,
        state.config.tls,
        cross_origin,
    );
    if let Some(charge) = charge {
        settle(
            &state,
            &mut response,
            charge,
            account.is_some(),
            bad_credential,
        );
    }
    if parts.method == Method::HEAD {
        *response.body_mut() = Body::default();
    }
    let key_id = match &principal {
        Principal::Account(c) => match &c.via {
            Via::ApiKey { key_id } => key_id.as_str(),
            Via::Session { .. } => "session",
        },
        Principal::Anonymous => "-",
    };
    tracing::info!(
        target: "regintel::access",
        request_id = %request_id,
        peer = %peer.ip(),
        account = account.unwrap_or(0),
        key_id,
        method = %parts.method,
        path = %crate::auth::api_key::redact(parts.uri.path()),
        status = response.status().as_u16(),
        micros = started.elapsed().as_micros() as u64,
    );
    response
}

/// After the answer is known: refunds what does not count (401, 429, 5xx and, as GitHub does,
/// an authenticated 304), charges a refused credential to the address's auth-fail bucket, and
/// describes the buckets in the headers.
fn settle(
    state: &AppState,
    response: &mut Response<Body>,
    mut charge: Charge,
    authenticated: bool,
    bad_credential: bool,
) {
    let status = response.status();
    let free = status == StatusCode::UNAUTHORIZED
        || status == StatusCode::TOO_MANY_REQUESTS
        || status.is_server_error()
        || (status == StatusCode::NOT_MODIFIED && authenticated);
    if free {
        state
            .limiter
            .refund(&charge.policies, charge.weight, charge.wall_secs);
    }
    if bad_credential {
        // Only a credential that was sent and refused counts as a failure (not a missing one);
        // the answer then describes the bucket it was charged to.
        charge.decision = state.limiter.admit(
            &[auth_fail_policy(state, charge.client)],
            1,
            Instant::now(),
            charge.wall_secs,
        );
        state.limiter.note_auth_failure(Instant::now());
    }
    ratelimit::headers(response.headers_mut(), &charge.decision, charge.wall_secs);
}

/// What an admitted request was charged, to refund answers that do not count and to describe
/// the buckets in headers.
struct Charge {
    policies: Vec<Policy>,
    weight: u64,
    wall_secs: i64,
    client: u128,
    decision: Decision,
}

fn auth_fail_policy(state: &AppState, client: u128) -> Policy {
    Policy {
        name: "auth-fail",
        scope: Scope::AuthFail(client),
        kind: Kind::Minute,
        limit: state.config.limits.auth_fail_per_minute,
    }
}

async fn answer(
    state: &Arc<AppState>,
    parts: &Parts,
    body: Incoming,
    peer: SocketAddr,
    principal: &mut Principal,
    charge: &mut Option<Charge>,
) -> Result<Answer, ApiError> {
    let config = &state.config;
    let largest_body = config.max_body_bytes.max(config.max_upload_bytes);
    if declared_length(parts).is_some_and(|n| n > largest_body) {
        return Err(ApiError::PayloadTooLarge {
            limit: largest_body,
        });
    }
    let path = parts.uri.path();
    let found = router::find(&state.base_path, &parts.method, path);
    let limits = &config.limits;
    let client = limits::client_key(limits::client_ip(
        peer.ip(),
        &parts.headers,
        &limits.trusted_proxies,
        limits.proxy_header,
    ));
    if limits.enabled {
        authenticate_within_limits(state, parts, client, &found, principal, charge)?;
    } else {
        *principal = state.auth.authenticate(&state.store, &parts.headers)?;
    }
    let (route, params) = match found {
        Match::Found { route, params } => (route, params),
        Match::MethodNotAllowed { allow } if parts.method == Method::OPTIONS => {
            return Ok(Answer::Ready(preflight(&allow)));
        }
        Match::MethodNotAllowed { allow } => {
            return Err(ApiError::MethodNotAllowed {
                method: parts.method.to_string(),
                allow,
            });
        }
        Match::NotFound => {
            return Err(ApiError::NotFound(format!(
                "no route for {} {}",
                crate::error::shown(parts.method.as_str()),
                crate::error::shown(path)
            )));
        }
    };
    authorize(route, principal)?;
    let query = Query::parse(parts.uri.query())?;
    // An upload holds one of its account's slots from before its body is read until it is
    // written, so one account cannot make the server hold many bodies at once.
    let upload = match (route.body, principal.account_id()) {
        (BodyKind::Csv, Some(account)) => Some(
            state
                .uploads
                .try_take(account)
                .map_err(|refused| handlers::slot_refused(refused, "account-uploads"))?,
        ),
        _ => None,
    };
    let body = read_body(state, route, parts, body).await?;

    let account = principal.account_id();
    let cache = route.cacheable.then(|| {
        let generations = state.generation_of(account);
        let key = format!("{}|{path}?{}", account.unwrap_or(0), query.canonical());
        let etag = etag(generations, &key);
        (generations, key, etag)
    });
    if let Some((_, _, etag)) = &cache
        && if_none_match(parts, etag)
    {
        let mut response = Response::new(Body::default());
        *response.status_mut() = StatusCode::NOT_MODIFIED;
        cache_headers(&mut response, etag, account.is_some());
        return Ok(Answer::Ready(response));
    }
    if let Some((generations, key, etag)) = &cache
        && let Some(reply) = state.cache.get(key, *generations)
    {
        return Ok(Answer::Reply {
            reply,
            etag: Some(etag.clone()),
            secret: route.secret,
        });
    }
    let req = Req {
        state: Arc::clone(state),
        params,
        query,
        principal: principal.clone(),
        client,
        body,
        conn: std::cell::OnceCell::new(),
    };
    let reply = Arc::new(run_handler(state, route.handler, req, upload).await?);
    // A streamed reply can be sent once only: it is never cached.
    let cacheable = !matches!(*reply, Reply::Stream { .. });
    let etag = cache.filter(|_| cacheable).map(|(generations, key, etag)| {
        state.cache.put(key, generations, Arc::clone(&reply));
        etag
    });
    Ok(Answer::Reply {
        reply,
        etag,
        secret: route.secret,
    })
}

/// Runs the handler: an inline one on this thread with a connection checked out without waiting;
/// the others (and an inline one when every request connection is in use) on the blocking pool
/// under a permit of their kind, or, for an upload, under its upload slot (`held`): uploads are
/// bounded by their slots and never take the permits logins and account writes need. The permit
/// or slot moves into the blocking task, so a client that disconnects cannot free it while the
/// work goes on.
async fn run_handler(
    state: &Arc<AppState>,
    handler: Handler,
    mut req: Req,
    held: Option<crate::slots::Slot<i64>>,
) -> Result<Reply, ApiError> {
    let (f, permits) = match handler {
        Handler::Inline(f) => match state.store.try_scoped(req.principal.account_id()) {
            Some(conn) => {
                let _ = req.conn.set(conn);
                return f(&mut req);
            }
            None => (f, &state.reads),
        },
        Handler::Heavy(f) => (f, &state.reads),
        Handler::Blocking(f) => (f, &state.blocking),
    };
    let permit = match held {
        Some(_) => None,
        None => Some(
            Arc::clone(permits)
                .acquire_owned()
                .await
                .map_err(|_| ApiError::Unavailable)?,
        ),
    };
    tokio::task::spawn_blocking(move || {
        let _held = (permit, held);
        f(&mut req)
    })
    .await
    .map_err(|e| ApiError::Internal(anyhow::anyhow!("handler panicked: {e}")))?
}

/// A weak ETag for an answer that depends on `generations` and the request `key` (which holds
/// the caller's account): it changes when the caller's data changes, and only then.
fn etag(generations: crate::cache::AnswerGenerations, key: &str) -> String {
    let (public, own) = generations;
    let hash = fnv1a(key.as_bytes());
    if own == 0 {
        format!("W/\"g{public}-{hash:016x}\"")
    } else {
        format!("W/\"g{public}.{own}-{hash:016x}\"")
    }
}

/// Authentication and admission with rate limits on: the address's auth-fail bucket, the
/// credentials, then every bucket the caller touches. `charge` records what to describe in the
/// headers and what to refund.
fn authenticate_within_limits(
    state: &AppState,
    parts: &Parts,
    client: u128,
    found: &Match,
    principal: &mut Principal,
    charge: &mut Option<Charge>,
) -> Result<(), ApiError> {
    let config = &state.config;
    let limits = &config.limits;
    let wall_secs = crate::clock::now_ms().div_euclid(1000);
    // Guessing credentials is capped before they are checked (OWASP API2, Broken
    // Authentication): a
    // request that presents one (a key, a token, or a password to the login route) waits
    // while its address has used up its failures. With no failure anywhere in the last
    // minute no address can have, and the lookup is skipped.
    let presents_credential = parts.headers.contains_key("x-api-key")
        || parts.headers.contains_key(header::AUTHORIZATION)
        || matches!(&found, Match::Found { route, .. } if route.doc.operation_id == "login");
    let guard = [auth_fail_policy(state, client)];
    let fails = if presents_credential && state.limiter.auth_failed_within_a_minute(Instant::now())
    {
        state.limiter.admit(&guard, 0, Instant::now(), wall_secs)
    } else {
        Decision::default()
    };
    let exhausted = fails.statuses.first().is_some_and(|s| s.remaining == 0);
    let retry_after = fails.statuses.first().map_or(1, |s| s.reset_secs.max(1));
    // Until the caller is known, the answer describes (and a 401 charges) this bucket.
    *charge = Some(Charge {
        policies: Vec::new(),
        weight: 0,
        wall_secs,
        client,
        decision: fails,
    });
    if exhausted {
        return Err(ApiError::RateLimited {
            retry_after,
            violated: vec!["auth-fail"],
        });
    }
    *principal = state.auth.authenticate(&state.store, &parts.headers)?;
    let weight = match &found {
        Match::Found { route, .. } => ratelimit::weight(config, route),
        _ => 1,
    };
    let policies = ratelimit::policies(limits, principal, client);
    let decision = state
        .limiter
        .admit(&policies, weight, Instant::now(), wall_secs);
    let refused = (!decision.allowed).then(|| ApiError::RateLimited {
        retry_after: decision.retry_after,
        violated: decision.violated.clone(),
    });
    *charge = Some(Charge {
        policies,
        weight: if refused.is_some() { 0 } else { weight },
        wall_secs,
        client,
        decision,
    });
    if let Some(err) = refused {
        return Err(err);
    }
    Ok(())
}

/// The route's access rule against the authenticated caller: 401 without a credential, 403 for a
/// key on an account-plane route or a tier below the route's.
fn authorize(route: &Route, principal: &Principal) -> Result<(), ApiError> {
    let caller = match (route.access, principal) {
        (Access::Public, _) => return Ok(()),
        (_, Principal::Anonymous) => return Err(ApiError::MissingCredential),
        (_, Principal::Account(caller)) => caller,
    };
    match route.access {
        Access::Institutional if caller.tier != Tier::Institutional => {
            Err(ApiError::InsufficientTier {
                required: Tier::Institutional.as_str(),
                current: caller.tier.as_str(),
            })
        }
        Access::Session if matches!(caller.via, Via::ApiKey { .. }) => Err(ApiError::Forbidden(
            "the account API takes a session token from POST /auth/login, not an API key".into(),
        )),
        _ => Ok(()),
    }
}

fn declared_length(parts: &Parts) -> Option<u64> {
    parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
}

/// Reads the body a route takes, after checking its media type; other routes ignore bodies.
async fn read_body(
    state: &AppState,
    route: &Route,
    parts: &Parts,
    body: Incoming,
) -> Result<Bytes, ApiError> {
    // A CSV body may also come as a file's bytes (`application/octet-stream`), as client
    // generators that know no `text/csv` send it.
    let (accepted, expected, limit): (&[&str], _, _) = match route.body {
        BodyKind::None => return Ok(Bytes::new()),
        BodyKind::Json => (
            &["application/json"],
            "application/json",
            state.config.max_body_bytes,
        ),
        BodyKind::Csv => (
            &["text/csv", "application/octet-stream"],
            "text/csv (or application/octet-stream)",
            state.config.max_upload_bytes,
        ),
    };
    let content_type = parts
        .headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let essence = content_type.split(';').next().unwrap_or("").trim();
    if !accepted.iter().any(|a| essence.eq_ignore_ascii_case(a)) {
        return Err(ApiError::UnsupportedMediaType { expected });
    }
    if declared_length(parts).is_some_and(|n| n > limit) {
        return Err(ApiError::PayloadTooLarge { limit });
    }
    let deadline = state.config.body_timeout;
    let collected = tokio::time::timeout(deadline, Limited::new(body, limit as usize).collect())
        .await
        .map_err(|_| ApiError::RequestTimeout {
            seconds: deadline.as_secs(),
        })?;
    match collected {
        Ok(collected) => Ok(collected.to_bytes()),
        Err(e) if e.is::<http_body_util::LengthLimitError>() => {
            Err(ApiError::PayloadTooLarge { limit })
        }
        Err(_) => Err(ApiError::InvalidRequest(
            "the request body could not be read".into(),
        )),
    }
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
        respond::Body::from_chunks([Bytes::from(respond::error_body(envelope, err))]),
        "application/json",
        gzip,
    );
    let headers = response.headers_mut();
    match err {
        ApiError::MethodNotAllowed { allow, .. } => {
            if let Ok(v) = HeaderValue::from_str(allow) {
                headers.insert(header::ALLOW, v);
            }
        }
        ApiError::Unavailable => {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        }
        ApiError::RateLimited { retry_after, .. } => {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
        }
        // RFC 6750 §3: no error attribute when no credential was sent.
        ApiError::MissingCredential => {
            headers.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"regintel\""),
            );
        }
        ApiError::InvalidCredential | ApiError::LoginFailed => {
            headers.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"regintel\", error=\"invalid_token\""),
            );
        }
        _ => {}
    }
    no_store(&mut response);
    response
}

/// CORS preflight: which methods and request headers the API takes, cached by the
/// browser for two hours (Chromium's cap on `Access-Control-Max-Age`).
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

/// Weak comparison (RFC 9110 §13.1.2): any listed tag equal to ours. (`*` is not honoured: it
/// would have to mean "the resource exists", which is only known after the handler ran.)
fn if_none_match(parts: &Parts, etag: &str) -> bool {
    parts
        .headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag.trim_start_matches("W/") == etag.trim_start_matches("W/"))
}

/// Public answers may be cached by anyone; keyed ones only by the client, and a response to an
/// `X-API-Key` request is not protected by RFC 9111 §3.5, hence `private`.
fn cache_headers(response: &mut Response<Body>, etag: &str, private: bool) {
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(etag) {
        headers.insert(header::ETAG, v);
    }
    let control = if private {
        "private, no-cache"
    } else {
        "public, max-age=300"
    };
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(control));
    headers.insert(
        header::VARY,
        HeaderValue::from_static("Authorization, X-API-Key, Accept-Encoding"),
    );
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    static STARTED: AtomicUsize = AtomicUsize::new(0);
    static RELEASE: AtomicBool = AtomicBool::new(false);

    /// A handler that works until released.
    fn long_work(_: &mut Req) -> Result<Reply, ApiError> {
        STARTED.fetch_add(1, Ordering::SeqCst);
        while !RELEASE.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(Reply::NoContent)
    }

    /// Lets `long_work` finish however the test ends, so a failed assertion cannot leave its
    /// thread spinning (the runtime would wait for it for ever).
    struct Release;

    impl Drop for Release {
        fn drop(&mut self) {
            RELEASE.store(true, Ordering::SeqCst);
        }
    }

    /// A client that disconnects drops its request's future; the permit (of a write) or the
    /// upload slot (of an upload) its work holds stays taken until the work on the blocking pool
    /// ends.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_client_that_leaves_does_not_free_what_its_work_holds() {
        let release = Release;
        let dir = tempfile::tempdir().unwrap();
        let config = crate::config::ServerConfig::new(dir.path().to_path_buf());
        let store = crate::store::Store::open(dir.path(), 1).unwrap();
        let catalogue = crate::catalogue::Catalogue::bundled();
        let state =
            Arc::new(AppState::new(config, "/api".into(), store, catalogue, Bytes::new()).unwrap());
        let permits = state.blocking.available_permits();
        let request = |held| {
            let state = Arc::clone(&state);
            let req = Req {
                state: Arc::clone(&state),
                params: Vec::new(),
                query: Query::default(),
                principal: Principal::Anonymous,
                client: 0,
                body: Bytes::new(),
                conn: std::cell::OnceCell::new(),
            };
            tokio::spawn(async move {
                run_handler(&state, Handler::Blocking(long_work), req, held).await
            })
        };
        let write = request(None);
        let upload = request(Some(state.uploads.try_take(1).unwrap()));
        while STARTED.load(Ordering::SeqCst) < 2 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        for left in [write, upload] {
            left.abort();
            let _ = left.await;
        }
        assert_eq!(
            state.blocking.available_permits(),
            permits - 1,
            "the write's"
        );
        assert_eq!(
            state.uploads.taken(),
            1,
            "the upload's, which takes no permit"
        );

        drop(release);
        for _ in 0..1000 {
            if state.uploads.taken() == 0 && state.blocking.available_permits() == permits {
                return;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("the permit and the slot came back when the work ended");
    }
}
