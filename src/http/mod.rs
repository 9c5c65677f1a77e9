//! The request pipeline, in the order it runs (see [`handle`]). Everything HTTP-specific lives in
//! this module; handlers see a [`handlers::Req`] and return a [`crate::reply::Reply`].

mod answer;
mod body_text;
pub mod caching;
pub mod charge;
pub mod envelope;
pub mod error;
pub mod handlers;
pub mod mcp;
pub mod paging;
pub mod query;
pub mod router;
pub mod routes;
mod scrape;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use http::header;
use http::request::Parts;
use http::{Method, Request, Response};
use http_body_util::{BodyExt, Limited};
use hyper::body::Bytes;

use crate::auth::{Principal, Via};
use crate::domain::Rejection;
use crate::ids;
use crate::reply::Reply;
use crate::state::AppState;
use crate::store::accounts::Tier;
use answer::Answer;
use caching::{Cached, Hit};
use charge::Charge;
use envelope::{Body, Envelope};
use error::ApiError;
use handlers::{Handler, Req};
use query::Query;
use router::Match;
use routes::{Access, BodyKind, Route};

/// [`handle`] as the MCP transport's [`mcp::Pipeline`]: each tool call is a request of its own
/// through this pipeline.
fn handle_boxed(
    state: Arc<AppState>,
    req: Request<http_body_util::Full<hyper::body::Bytes>>,
    peer: SocketAddr,
) -> std::pin::Pin<Box<dyn std::future::Future<Output = Response<Body>> + Send>> {
    Box::pin(handle(state, req, peer))
}

/// One request, top to bottom:
/// 1. request id (inbound `X-Request-Id` if well-formed, else a new one) and client address;
/// 2. the answer (see `answer`);
/// 3. envelope and gzip (`render`);
/// 4. the headers every answer carries: security, CORS, and the rate limits (answers that do
///    not count are refunded, a refused credential charged to its address);
/// 5. one access-log line and the request's metrics.
///
/// Everything logged while the request runs (on any thread) carries its request id.
pub async fn handle<B>(state: Arc<AppState>, req: Request<B>, peer: SocketAddr) -> Response<Body>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    use tracing::Instrument;
    let request_id = request_id(req.headers());
    let span = tracing::info_span!("request", request_id = %request_id);
    let in_span = !span.is_disabled();
    handle_identified(state, req, peer, request_id, in_span)
        .instrument(span)
        .await
}

/// [`handle`] inside the request's span (`in_span`: unless the log filter leaves it out).
async fn handle_identified<B>(
    state: Arc<AppState>,
    req: Request<B>,
    peer: SocketAddr,
    request_id: String,
    in_span: bool,
) -> Response<Body>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    let started = Instant::now();
    let (parts, body) = req.into_parts();
    let limits = &state.config.limits;
    let client = crate::client_addr::client_key(crate::client_addr::client_ip(
        peer.ip(),
        &parts.headers,
        &limits.trusted_proxies,
        limits.proxy_header,
    ));
    let mut charge = limits.enabled.then(|| Charge::new(&state.limiter, client));
    let mut learned = Learned {
        principal: Principal::Anonymous,
        route_name: "unmatched",
        explore_page: false,
    };
    let gzip = envelope::accepts_gzip(&parts.headers);
    let ending = Ending {
        state: &state,
        peer,
        request_id: &request_id,
        started,
        in_span,
    };

    if parts.uri.path().strip_prefix(state.base_path.as_str()) == Some(mcp::PATH) {
        // The message costs one request, like any other, unless it made REST requests: each
        // tool call inside is a request of its own through this pipeline (limited, charged and
        // logged as its route), so a tool call costs what its route costs.
        learned.route_name = "mcp";
        let head = Parts::clone(&parts);
        let result = match authenticate(&state, &parts, &Match::NotFound, charge.as_mut()) {
            Ok(caller) => {
                learned.principal = caller;
                mcp::transport(&state, handle_boxed, parts, body, peer).await
            }
            Err(e) => Err(e),
        };
        let bad_credential = result.as_ref().is_err_and(ApiError::is_refused_credential);
        let (response, made_requests) = match result {
            Ok(answered) => answered,
            Err(e) => {
                let plain = Presentation { gzip, page: false };
                let response = render(&state, plain, &request_id, &learned.principal, Err(e));
                (response.await, false)
            }
        };
        let exposure = envelope::Exposure {
            cross_origin: false,
            page: false,
        };
        let settled = Settled {
            charge,
            waived: made_requests,
            bad_credential,
        };
        return ending.end(&head, &learned, response, exposure, settled);
    }
    let result = if parts.uri.path() == scrape::PATH {
        learned.route_name = "metrics";
        scrape::answer(&state, &parts, peer, charge.as_mut())
    } else {
        answer(
            &state,
            &parts,
            body,
            client,
            &mut learned,
            charge.as_mut(),
            gzip,
        )
        .await
    }
    .map_err(ApiError::blaming_input);
    if let Err(ApiError::RateLimited { violated, .. }) = &result {
        state.metrics.rate_limited(violated);
    }
    let bad_credential = result.as_ref().is_err_and(ApiError::is_refused_credential);
    let presentation = Presentation {
        gzip,
        page: learned.explore_page,
    };
    let response = render(
        &state,
        presentation,
        &request_id,
        &learned.principal,
        result,
    )
    .await;
    let exposure = envelope::Exposure {
        cross_origin: cross_origin(&state, &parts),
        page: learned.explore_page,
    };
    let settled = Settled {
        charge,
        waived: false,
        bad_credential,
    };
    ending.end(&parts, &learned, response, exposure, settled)
}

/// What the pipeline learns of a request as it goes: who asks, which route answers (its
/// operation id, the name of its metrics), and whether that route is a page of the explorer.
struct Learned {
    principal: Principal,
    route_name: &'static str,
    explore_page: bool,
}

/// How an answer is written: compressed when the client takes gzip and the answer is no
/// secret, and, for a page of the explorer, its errors as a page too.
#[derive(Clone, Copy)]
struct Presentation {
    gzip: bool,
    page: bool,
}

/// The rate limits' part of an answer: the charge (none with limits off), whether it is given
/// back whole (an MCP message whose tool calls were charged as requests of their own), and
/// whether the answer refused a credential.
struct Settled {
    charge: Option<Charge>,
    waived: bool,
    bad_credential: bool,
}

/// What every answer ends with, a REST answer, a page or an MCP message alike.
struct Ending<'a> {
    state: &'a AppState,
    peer: SocketAddr,
    request_id: &'a str,
    started: Instant,
    /// Whether the request's span is logged (its access line then names it).
    in_span: bool,
}

impl Ending<'_> {
    /// The common headers, the rate limits' settlement and their headers, no body for HEAD, the
    /// access line and the metrics.
    fn end(
        &self,
        parts: &Parts,
        learned: &Learned,
        mut response: Response<Body>,
        exposure: envelope::Exposure,
        settled: Settled,
    ) -> Response<Body> {
        let state = self.state;
        envelope::common_headers(
            response.headers_mut(),
            self.request_id,
            state.config.tls,
            exposure,
        );
        if let Some(mut charge) = settled.charge {
            if settled.waived {
                charge.waive(state);
            }
            let authenticated = learned.principal.account_id().is_some();
            charge.settle(state, &mut response, authenticated, settled.bad_credential);
        }
        if parts.method == Method::HEAD {
            *response.body_mut() = Body::default();
        }
        let span_id = self.in_span.then_some(self.request_id);
        log_access(
            state,
            parts,
            self.peer,
            &learned.principal,
            &response,
            self.started,
            span_id,
        );
        state.metrics.request(
            learned.route_name,
            response.status().as_u16(),
            self.started.elapsed(),
        );
        response
    }
}

/// The answer, or the first refusal:
/// 1. declared body size (413 before anything is read);
/// 2. route lookup (404, 405 with `Allow` and CORS preflight for OPTIONS come after step 3, so
///    they count too);
/// 3. credentials within the rate limits ([`authenticate`]); then the route's access rule (401
///    missing, 403 tier or credential kind);
/// 4. query and body (415 wrong media type, 413 over the limit; an upload first takes its
///    account's upload slot);
/// 5. conditional GET (`If-None-Match` → 304) and the answer cache;
/// 6. the handler, inline or on the bounded blocking pool ([`run_handler`]).
///
/// The caller and the route's operation id are set as soon as they are known.
async fn answer<B>(
    state: &Arc<AppState>,
    parts: &Parts,
    body: B,
    client: u128,
    learned: &mut Learned,
    charge: Option<&mut Charge>,
    accepts_gzip: bool,
) -> Result<Answer, ApiError>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    refuse_declared_size(state, parts)?;
    let found = router::find(&state.base_path, &parts.method, parts.uri.path());
    if let Match::Found { route, .. } = &found {
        learned.route_name = route.operation_id;
        learned.explore_page = route.explore;
    }
    learned.principal = authenticate(state, parts, &found, charge)?;
    let principal = &learned.principal;
    let (route, params) = match found {
        Match::Found { route, params } => (route, params),
        Match::MethodNotAllowed { allow } if parts.method == Method::OPTIONS => {
            return Ok(Answer::Ready(envelope::preflight(&allow)));
        }
        Match::MethodNotAllowed { allow } => {
            return Err(ApiError::MethodNotAllowed {
                method: parts.method.to_string(),
                allow,
            });
        }
        Match::NotFound => {
            return Err(Rejection::NotFound(format!(
                "no route for {} {}",
                crate::error_text::shown(parts.method.as_str()),
                crate::error_text::shown(parts.uri.path())
            ))
            .into());
        }
    };
    authorize(route, principal)?;

    let query = Query::parse(parts.uri.query())?;
    let upload = upload_slot(state, route, principal)?;
    let body = read_body(state, route, parts, body).await?;
    if route.body == BodyKind::Json {
        body_text::refuse_unstorable(&body)?;
    }
    let checked_url = match route.checks_webhook_url {
        true => handlers::webhooks::check_url_first(state, principal, &body).await,
        false => None,
    };

    let account = principal.account_id();
    let cached = route
        .cacheable
        .then(|| Cached::entry(state, account, parts.uri.path(), &query));
    let hit = cached
        .as_ref()
        .and_then(|c| c.lookup(state, parts, account.is_some(), route.explore));
    if cached.is_some() {
        state.metrics.cache(hit.is_some());
    }
    match hit {
        Some(Hit::NotModified(response)) => return Ok(Answer::Ready(response)),
        Some(Hit::Reply(reply)) => {
            return Ok(Answer::Reply {
                reply,
                etag: cached.map(|c| c.etag),
                secret: route.secret,
            });
        }
        Some(Hit::Final(reply, etag)) => {
            return Ok(Answer::Reply {
                reply,
                etag: Some(etag),
                secret: route.secret,
            });
        }
        None => {}
    }

    let req = Req {
        state: Arc::clone(state),
        params,
        query,
        principal: principal.clone(),
        client,
        accepts_gzip,
        body,
        conn: std::cell::OnceCell::new(),
        checked_url,
    };
    let (reply, is_final) = run_handler(state, route.handler, req, upload).await?;
    let reply = Arc::new(reply);
    Ok(Answer::Reply {
        etag: cached.and_then(|c| match is_final {
            true => c.store_final(state, &reply),
            false => c.store(state, &reply),
        }),
        reply,
        secret: route.secret,
    })
}

/// The inbound `X-Request-Id` if it is well-formed, else a new one.
fn request_id(headers: &http::HeaderMap) -> String {
    headers
        .get(envelope::X_REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| ids::accept_request_id(v))
        .map(str::to_owned)
        .unwrap_or_else(ids::request_id)
}

/// A body declared larger than any route takes is refused before anything is read.
fn refuse_declared_size(state: &AppState, parts: &Parts) -> Result<(), ApiError> {
    let config = &state.config;
    let largest_body = config.max_body_bytes.max(config.max_upload_bytes);
    if declared_length(parts).is_some_and(|n| n > largest_body) {
        return Err(ApiError::PayloadTooLarge {
            limit: largest_body,
        });
    }
    Ok(())
}

/// The caller: anonymous, or the account of a valid key or token (400 for two credentials at
/// once, 401 for a bad one; never downgraded to anonymous). With rate limits on, a credential is
/// checked only while its address has failures left, and the caller is then admitted against
/// every bucket it touches (429 if one has no room).
fn authenticate(
    state: &AppState,
    parts: &Parts,
    found: &Match,
    charge: Option<&mut Charge>,
) -> Result<Principal, ApiError> {
    let route = match found {
        Match::Found { route, .. } => Some(*route),
        _ => None,
    };
    let cookie_reads =
        route.is_some_and(|r| r.explore) && matches!(parts.method, Method::GET | Method::HEAD);
    let authenticate = || {
        Ok(state
            .auth
            .authenticate(&state.store, &parts.headers, cookie_reads)?)
    };
    let Some(charge) = charge else {
        return authenticate();
    };
    let presents_credential = parts.headers.contains_key(crate::auth::API_KEY_HEADER)
        || parts.headers.contains_key(header::AUTHORIZATION)
        || crate::auth::browser_session(&parts.headers).is_some()
        || route.is_some_and(|r| r.presents_credential);
    charge.refuse_guessing(state, presents_credential)?;
    let principal = authenticate()?;
    let weight = route.map_or(1, |r| r.cost(&state.config.limits.route_weights));
    charge.admit(state, &principal, weight)?;
    Ok(principal)
}

/// An upload holds one of its account's slots from before its body is read until it is
/// written, so one account cannot make the server hold many bodies at once.
fn upload_slot(
    state: &AppState,
    route: &Route,
    principal: &Principal,
) -> Result<Option<crate::runtime::slots::Slot<i64>>, ApiError> {
    match (route.body, principal.account_id()) {
        (BodyKind::Csv, Some(account)) => state
            .uploads
            .try_take(account)
            .map(Some)
            .map_err(|refused| handlers::slot_refused(refused, "account-uploads")),
        _ => Ok(None),
    }
}

/// The answer in its envelope (or an error in the error envelope, or on a page for an
/// explorer page), gzip-coded when the client takes it (`gzip`) and the answer holds no secret.
async fn render(
    state: &AppState,
    Presentation {
        gzip,
        page: explore_page,
    }: Presentation,
    request_id: &str,
    principal: &Principal,
    result: Result<Answer, ApiError>,
) -> Response<Body> {
    let generated_at = crate::runtime::clock::rfc3339(crate::runtime::clock::now_ms());
    let account = principal.account_id();
    let envelope = Envelope {
        request_id,
        generated_at: &generated_at,
        access: if account.is_some() {
            "account"
        } else {
            "public"
        },
    };
    match result {
        Ok(Answer::Ready(response)) => response,
        Ok(Answer::Reply {
            reply,
            etag,
            secret,
        }) => {
            let (status, body, content_type) = envelope::render(&envelope, &reply);
            let mut response =
                envelope::build_async(status, body, content_type, gzip && !secret, state).await;
            envelope::stream_headers(&mut response, &reply);
            envelope::cookie_headers(&mut response, &reply);
            match etag {
                Some(etag) => {
                    caching::cache_headers(&mut response, &etag, account.is_some(), explore_page)
                }
                None => envelope::no_store(&mut response),
            }
            response
        }
        Err(err) => envelope::error_response(
            &envelope,
            &err,
            gzip,
            explore_page.then_some(state.base_path.as_str()),
        ),
    }
}

/// The data API is open to scripts from anywhere, without credentials. Its account plane is
/// for the same-origin account area: no cross-origin reads, so a page elsewhere cannot use a
/// signed-in browser. At the root of the host, the health checks are open like the data API; the
/// pages and the browser's sign-in are for this host's pages alone.
fn cross_origin(state: &AppState, parts: &Parts) -> bool {
    let path = parts.uri.path();
    match path.strip_prefix(state.base_path.as_str()) {
        Some(api) => !api.starts_with("/auth/") && !api.starts_with("/account/"),
        None => matches!(path, "/healthz" | "/readyz"),
    }
}

/// The request's access line, `span_id` the request id its span shows (None without one):
/// written directly where the logs take it so, else through tracing.
fn log_access(
    state: &AppState,
    parts: &Parts,
    peer: SocketAddr,
    principal: &Principal,
    response: &Response<Body>,
    started: Instant,
    span_id: Option<&str>,
) {
    let key_id = match principal {
        Principal::Account(c) => match &c.via {
            Via::ApiKey { key_id } => key_id.as_str(),
            Via::Session { .. } => "session",
        },
        Principal::Anonymous => "-",
    };
    let access = crate::access_log::Access {
        peer: peer.ip(),
        account: principal.account_id().unwrap_or(0),
        key_id,
        method: parts.method.as_str(),
        path: &crate::auth::api_key::redact(parts.uri.path()),
        status: response.status().as_u16(),
        micros: started.elapsed().as_micros() as u64,
    };
    match &state.config.access_lines {
        Some(lines) if crate::access_log::enabled() => {
            let mut line = String::with_capacity(256);
            let now = crate::access_log::now_micros();
            crate::access_log::line(&mut line, now, span_id, &access);
            lines.write(&line);
        }
        Some(_) => {}
        None => crate::access_log::log(&access),
    }
}

/// Runs the handler: an inline one on this thread with a connection checked out without waiting;
/// reads (heavy ones, and an inline one when every request connection is in use) on the read
/// threads under a read permit; the others on the blocking pool under a permit of their kind,
/// or, for an upload, under its upload slot (`held`): uploads are bounded by their slots and
/// never take the permits logins and account writes need. The permit or slot moves into the
/// work, so a client that disconnects cannot free it while the work goes on.
async fn run_handler(
    state: &Arc<AppState>,
    handler: Handler,
    mut req: Req,
    held: Option<crate::runtime::slots::Slot<i64>>,
) -> Result<(Reply, bool), ApiError> {
    let account = req.principal.account_id();
    // An answer read as of a moment says so, whatever its handler; and whether it is final
    // (it can no longer change).
    fn run(
        f: fn(&mut Req) -> Result<Reply, ApiError>,
        req: &mut Req,
    ) -> Result<(Reply, bool), ApiError> {
        let reply = f(req)?;
        let Some(store) = req.conn.get() else {
            return Ok((reply, false));
        };
        match handlers::as_of_meta(store) {
            Some(as_of) => Ok((
                reply.with_meta_member("as_of", &as_of),
                store.as_of_is_final()?,
            )),
            None => Ok((reply, false)),
        }
    }
    let (f, pool) = match handler {
        Handler::Memory(f) => return run(f, &mut req),
        Handler::Blocking(f) => (f, ("blocking", &state.blocking)),
        Handler::Heavy(f) => (f, ("reads", &state.reads)),
        Handler::Inline(f) | Handler::Indexed(f) => {
            // A read as of a moment reads the database, not the rows held in memory: on the
            // read threads, as a heavy read.
            let inline = (matches!(handler, Handler::Inline(_)) || state.sees_public_only(account))
                && !req.query.has("as_of");
            if inline && let Some(conn) = state.try_scoped(account) {
                let _ = req.conn.set(conn?);
                return run(f, &mut req);
            }
            (f, ("reads", &state.reads))
        }
    };
    let reads = !matches!(handler, Handler::Blocking(_));
    let permit = match held {
        Some(_) => None,
        None => Some(permit(state, pool).await?),
    };
    let work = move || {
        let _held = (permit, held);
        run(f, &mut req)
    };
    // Reads on the read threads, as many as their permits; the rest on tokio's blocking pool.
    let ran = if reads {
        state.read_threads.run(work).await
    } else {
        (crate::runtime::task::spawn_blocking_in_span(work).await).map_err(|e| e.into_panic())
    };
    ran.map_err(|panic| {
        let said = (panic.downcast_ref::<&str>().copied())
            .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
            .unwrap_or("");
        ApiError::Internal(anyhow::anyhow!("the handler panicked: {said}"))
    })?
}

/// A permit of the pool `(name, permits)`, at once when one is free; a wait is measured.
async fn permit(
    state: &AppState,
    (name, pool): (&'static str, &Arc<tokio::sync::Semaphore>),
) -> Result<tokio::sync::OwnedSemaphorePermit, ApiError> {
    if let Ok(permit) = Arc::clone(pool).try_acquire_owned() {
        return Ok(permit);
    }
    let waiting = Instant::now();
    let counted = state.metrics.waiting_for(name);
    let permit = Arc::clone(pool)
        .acquire_owned()
        .await
        .map_err(|_| ApiError::Unavailable)?;
    drop(counted);
    state.metrics.pool_wait(name, waiting.elapsed());
    Ok(permit)
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
async fn read_body<B>(
    state: &AppState,
    route: &Route,
    parts: &Parts,
    body: B,
) -> Result<Bytes, ApiError>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
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
    collect_within(body, limit, state.config.body_timeout).await
}

/// `body` whole, at most `limit` bytes of it, within `deadline` (a client that sends slowly or
/// stops holds no connection slot and no handler past it).
async fn collect_within<B>(body: B, limit: u64, deadline: Duration) -> Result<Bytes, ApiError>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
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

/// Request bodies for unit tests of what reads them.
#[cfg(test)]
pub(crate) mod test_bodies {
    use hyper::body::Bytes;

    /// A body that sends its first piece and then nothing, never ending.
    pub struct Stops(pub Option<Bytes>);

    impl hyper::body::Body for Stops {
        type Data = Bytes;
        type Error = std::convert::Infallible;

        fn poll_frame(
            mut self: std::pin::Pin<&mut Self>,
            _: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Result<hyper::body::Frame<Bytes>, Self::Error>>> {
            match self.0.take() {
                Some(first) => std::task::Poll::Ready(Some(Ok(hyper::body::Frame::data(first)))),
                None => std::task::Poll::Pending,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// A body that stops coming is refused at the body deadline (408), on a paused clock: not
    /// before it, and not never.
    #[tokio::test(start_paused = true)]
    async fn a_body_that_stops_coming_is_refused_at_the_deadline() {
        let started = tokio::time::Instant::now();
        let deadline = Duration::from_secs(30);
        let refused = collect_within(
            test_bodies::Stops(Some(Bytes::from_static(b"{\"par"))),
            1024,
            deadline,
        )
        .await
        .unwrap_err();
        assert!(
            matches!(refused, ApiError::RequestTimeout { seconds: 30 }),
            "{refused:?}"
        );
        let took = started.elapsed();
        assert!(crate::runtime::clock::on_time(deadline, took), "{took:?}");
        // Within its deadline and its size, a body is read whole.
        let body = http_body_util::Full::new(Bytes::from_static(b"{}"));
        assert_eq!(collect_within(body, 1024, deadline).await.unwrap(), "{}");
        let large = http_body_util::Full::new(Bytes::from_static(b"0123456789"));
        assert!(matches!(
            collect_within(large, 4, deadline).await,
            Err(ApiError::PayloadTooLarge { limit: 4 })
        ));
    }

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
        let state = Arc::new(crate::state::for_tests(config));
        let permits = state.blocking.available_permits();
        let request = |held| {
            let state = Arc::clone(&state);
            let req = Req {
                state: Arc::clone(&state),
                params: Vec::new(),
                query: Query::default(),
                principal: Principal::Anonymous,
                client: 0,
                accepts_gzip: false,
                body: Bytes::new(),
                conn: std::cell::OnceCell::new(),
                checked_url: None,
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
