//! An account's webhook endpoints: register, list, change, delete, rotate the secret, send a
//! test, read the delivery log, resend a delivery and replay events since a time. Any
//! credential (professional and institutional); an account sees and manages only its own.

use serde::{Deserialize, Serialize};
use serde_json::json;

use super::{Req, json, shown_once};
use crate::auth::Principal;
use crate::domain::Rejection;
use crate::http::error::ApiError;
use crate::http::paging::PageRequest;
use crate::reply::Reply;
use crate::state::AppState;
use crate::store::StoreError;
use crate::store::webhooks::{
    DeliveryRow, EndpointPatch, EndpointRow, MAX_ENDPOINTS_PER_ACCOUNT, NewEndpoint, ReplayOutcome,
};
use crate::webhooks::egress::{MAX_URL_LEN, WebhookUrl};
use crate::webhooks::events;
use crate::webhooks::signing::Secret;
use crate::webhooks::url_checks::Unchecked;

/// How long a rotated secret keeps signing beside the new one (Stripe's maximum grace).
const SECRET_GRACE_MS: i64 = 24 * 3600 * 1000;
const MAX_DESCRIPTION_CHARS: usize = 200;

/// An endpoint as its owner sees it: never its secret.
#[derive(Serialize)]
struct EndpointView {
    id: String,
    url: String,
    description: String,
    event_types: Vec<String>,
    /// `enabled`, or `disabled` (by its owner, after a 410, or after 5 days of failures).
    status: &'static str,
    disabled_reason: Option<String>,
    breaker: BreakerView,
    /// While a rotated secret still signs beside the current one.
    previous_secret_expires_at: Option<String>,
    created_at: String,
    links: Links,
}

#[derive(Serialize)]
struct BreakerView {
    state: String,
    consecutive_failures: i64,
    open_until: Option<String>,
    trips: i64,
    failing_since: Option<String>,
}

#[derive(Serialize)]
struct Links {
    #[serde(rename = "self")]
    this: String,
    deliveries: String,
}

fn view(e: &EndpointRow, now: i64) -> EndpointView {
    let time = crate::runtime::clock::rfc3339;
    EndpointView {
        id: e.public_id.clone(),
        url: e.url.clone(),
        description: e.description.clone(),
        event_types: serde_json::from_str(&e.event_types).unwrap_or_default(),
        status: if e.enabled { "enabled" } else { "disabled" },
        disabled_reason: e.disabled_reason.clone(),
        breaker: BreakerView {
            state: e.breaker_state.clone(),
            consecutive_failures: e.consecutive_failures,
            open_until: e.breaker_open_until.map(time),
            trips: e.breaker_trips,
            failing_since: e.failing_since.map(time),
        },
        previous_secret_expires_at: e.previous_secret_until.filter(|t| *t > now).map(time),
        created_at: time(e.created_at),
        links: Links {
            this: format!("/webhooks/{}", e.public_id),
            deliveries: format!("/webhooks/{}/deliveries", e.public_id),
        },
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateEndpoint {
    url: String,
    event_types: Vec<String>,
    #[serde(default)]
    description: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UpdateEndpoint {
    url: Option<String>,
    event_types: Option<Vec<String>>,
    description: Option<String>,
    /// `enabled` or `disabled`.
    status: Option<String>,
}

pub fn create(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let body: CreateEndpoint = req.json_body()?;
    let event_types = checked_types(&body.event_types)?;
    let description = checked_description(&body.description)?;
    let url = checked_url(req, &body.url)?;
    let account = req.caller()?.account_id;
    let public_id = format!("whk_{}", crate::ids::ulid().to_ascii_lowercase());
    let (secret, sealed) = new_secret(req, &public_id);
    let now = crate::runtime::clock::now_ms();
    let row = req
        .state
        .store
        .system()?
        .insert_endpoint(
            account,
            &NewEndpoint {
                public_id: &public_id,
                url: &url,
                description,
                event_types: &event_types,
                secret_sealed: &sealed,
                now,
            },
        )
        .map_err(too_many)?;
    Ok(shown_once(
        &view(&row, now),
        "secret",
        &secret.shown(),
        "Store this secret now: it verifies the webhook-signature header, and regintel will not show it again.",
    )?
    .with_status(201))
}

/// An account's endpoints are few ([`MAX_ENDPOINTS_PER_ACCOUNT`]): the list is paged in memory,
/// all of them in one page by default.
const ENDPOINTS_PER_PAGE: usize = MAX_ENDPOINTS_PER_ACCOUNT as usize;

pub fn list(req: &mut Req) -> Result<Reply, ApiError> {
    let page = PageRequest::take(&mut req.query, ENDPOINTS_PER_PAGE, 100)?;
    req.no_more_params()?;
    let now = crate::runtime::clock::now_ms();
    let endpoints: Vec<EndpointView> = req
        .store()?
        .my_endpoints()?
        .iter()
        .map(|e| view(e, now))
        .collect();
    let total = endpoints.len();
    let (endpoints, next) = page.page_in_memory(endpoints, |e| e.id.clone());
    let mut meta = page.meta(next, Some(total));
    meta["max_endpoints"] = json!(MAX_ENDPOINTS_PER_ACCOUNT);
    meta["event_types"] = json!(events::TYPES);
    json(&endpoints, &meta)
}

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let endpoint = own_endpoint(req)?;
    json(
        &view(&endpoint, crate::runtime::clock::now_ms()),
        &json!({}),
    )
}

pub fn update(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let body: UpdateEndpoint = req.json_body()?;
    let event_types = body.event_types.as_deref().map(checked_types).transpose()?;
    let description = body
        .description
        .as_deref()
        .map(checked_description)
        .transpose()?;
    let enabled = match body.status.as_deref() {
        None => None,
        Some("enabled") => Some(true),
        Some("disabled") => Some(false),
        Some(_) => {
            return Err(
                Rejection::invalid_at("#/status", "status must be enabled or disabled").into(),
            );
        }
    };
    let url = body
        .url
        .as_deref()
        .map(|u| checked_url(req, u))
        .transpose()?;
    let account = req.caller()?.account_id;
    let patch = EndpointPatch {
        url: url.as_deref(),
        description,
        event_types: event_types.as_deref(),
        enabled,
        now: crate::runtime::clock::now_ms(),
    };
    let row = req
        .state
        .store
        .system()?
        .update_endpoint(account, req.param("webhook_id"), &patch)?
        .ok_or_else(|| not_found(req))?;
    req.state.outbox.forget(row.id);
    if enabled == Some(true) {
        req.state.outbox.wake();
    }
    json(&view(&row, crate::runtime::clock::now_ms()), &json!({}))
}

pub fn delete(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let account = req.caller()?.account_id;
    let id = req
        .state
        .store
        .system()?
        .delete_endpoint(account, req.param("webhook_id"))?
        .ok_or_else(|| not_found(req))?;
    req.state.outbox.forget(id);
    Ok(Reply::NoContent)
}

pub fn rotate_secret(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let account = req.caller()?.account_id;
    let public_id = req.param("webhook_id").to_owned();
    let (secret, sealed) = new_secret(req, &public_id);
    let now = crate::runtime::clock::now_ms();
    let row = req
        .state
        .store
        .system()?
        .rotate_secret(account, &public_id, &sealed, now, now + SECRET_GRACE_MS)?
        .ok_or_else(|| not_found(req))?;
    shown_once(
        &view(&row, now),
        "secret",
        &secret.shown(),
        "Store this secret now. Until previous_secret_expires_at, deliveries carry a signature by the previous secret too.",
    )
}

pub fn test(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let account = req.caller()?.account_id;
    let public_id = req.param("webhook_id");
    let data = json!({
        "webhook_id": public_id,
        "message": "A test event, sent at your request.",
        "links": { "webhook": format!("/webhooks/{public_id}") },
    });
    let event = req
        .state
        .store
        .system()?
        .send_test_event(account, public_id, &data)?
        .ok_or_else(|| not_found(req))?;
    req.state.outbox.wake();
    Ok(json(
        &json!({ "event_id": event, "type": events::WEBHOOK_TEST, "status": "pending" }),
        &json!({}),
    )?
    .with_status(202))
}

#[derive(Serialize)]
struct DeliveryView {
    id: String,
    event_id: String,
    event_type: String,
    occurred_at: String,
    /// `pending`, `delivered` or `failed`.
    status: String,
    attempts: i64,
    next_attempt_at: Option<String>,
    delivered_at: Option<String>,
    attempt_log: Vec<AttemptView>,
}

#[derive(Serialize)]
struct AttemptView {
    at: String,
    /// The receiver's HTTP status; null when there was no answer.
    status_code: Option<u16>,
    latency_ms: i64,
    error: Option<String>,
}

fn delivery_view(d: DeliveryRow) -> DeliveryView {
    let time = crate::runtime::clock::rfc3339_millis;
    DeliveryView {
        next_attempt_at: (d.status == "pending").then(|| time(d.next_attempt_at)),
        id: d.public_id,
        event_id: d.event_public_id,
        event_type: d.event_type,
        occurred_at: time(d.occurred_at),
        status: d.status,
        attempts: d.attempts,
        delivered_at: d.delivered_at.map(time),
        attempt_log: d
            .log
            .into_iter()
            .map(|a| AttemptView {
                at: time(a.attempted_at),
                status_code: a.status_code,
                latency_ms: a.latency_ms,
                error: a.error,
            })
            .collect(),
    }
}

/// Deliveries are kept 30 days and may be many: no `total`, which would count them all.
pub fn deliveries(req: &mut Req) -> Result<Reply, ApiError> {
    let page = PageRequest::take(&mut req.query, 20, 100)?;
    req.no_more_params()?;
    let endpoint = own_endpoint(req)?;
    let mut rows =
        req.store()?
            .my_deliveries(&endpoint.public_id, page.limit + 1, page.cursor.as_deref())?;
    let next = page.trim_to_limit(&mut rows, |d| d.public_id.clone());
    let data: Vec<DeliveryView> = rows.into_iter().map(delivery_view).collect();
    json(&data, &page.meta(next, None))
}

pub fn resend(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let account = req.caller()?.account_id;
    let delivery = req.param("delivery_id").to_owned();
    let now = crate::runtime::clock::now_ms();
    let resent = req
        .state
        .store
        .system()?
        .resend(account, &delivery, now)?
        .ok_or_else(|| {
            ApiError::from(Rejection::NotFound(format!(
                "no webhook delivery {}",
                crate::error_text::shown(&delivery)
            )))
        })?;
    req.state.outbox.wake();
    let breaker = req
        .state
        .outbox
        .breaker(resent.endpoint)
        .map_err(ApiError::Internal)?;
    let held = breaker.holds_at(now);
    let sending = match (resent.under_way, held) {
        (true, _) => "under_way",
        (false, Some(_)) => "when_the_breaker_allows",
        (false, None) => "now",
    };
    let answer = json!({
        "id": delivery,
        "status": "pending",
        "sending": sending,
        "not_before": held.flatten().map(crate::runtime::clock::rfc3339_millis),
        "breaker": breaker.state.as_str(),
    });
    Ok(json(&answer, &json!({}))?.with_status(202))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReplayRequest {
    since: String,
    /// Events the endpoint received are sent again only when asked.
    #[serde(default)]
    include_delivered: bool,
}

pub fn replay(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let body: ReplayRequest = req.json_body()?;
    let now = crate::runtime::clock::now_ms();
    let since = crate::runtime::clock::parse_rfc3339(&body.since).ok_or_else(|| {
        ApiError::from(Rejection::invalid_at(
            "#/since",
            "since must be an RFC 3339 date-time such as 2026-11-20T08:00:00Z",
        ))
    })?;
    let oldest = now - crate::outbox::RETENTION_MS;
    if since < oldest || since > now {
        return Err(Rejection::invalid_at(
            "#/since",
            format!(
                "since must be within the last 30 days, the time events are kept (from {})",
                crate::runtime::clock::rfc3339(oldest)
            ),
        )
        .into());
    }
    let account = req.caller()?.account_id;
    let outcome = req
        .state
        .store
        .system()?
        .replay(
            account,
            req.param("webhook_id"),
            since,
            body.include_delivered,
            now,
        )?
        .ok_or_else(|| not_found(req))?;
    let replay = match outcome {
        ReplayOutcome::Scheduled(replay) => replay,
        ReplayOutcome::TooSoon { next_at } => {
            return Err(ApiError::RateLimited {
                retry_after: u64::try_from(next_at - now)
                    .unwrap_or(0)
                    .div_ceil(1000)
                    .max(1),
                violated: vec!["endpoint-replays"],
            });
        }
    };
    req.state.outbox.wake();
    Ok(json(
        &json!({
            "scheduled": replay.scheduled,
            "complete": replay.complete,
            "resume_from": replay.resume_from.map(crate::runtime::clock::rfc3339_millis),
        }),
        &json!({}),
    )?
    .with_status(202))
}

/// A new signing secret for endpoint `public_id`, and its sealed form to store.
fn new_secret(req: &Req, public_id: &str) -> (Secret, String) {
    let secret = Secret::generate();
    let sealed = req.state.outbox.sealing().seal(&secret.shown(), public_id);
    (secret, sealed)
}

/// The caller's endpoint named in the path; another account's answers 404 like a missing one.
fn own_endpoint(req: &Req) -> Result<EndpointRow, ApiError> {
    req.store()?
        .my_endpoint(req.param("webhook_id"))?
        .ok_or_else(|| not_found(req))
}

fn not_found(req: &Req) -> ApiError {
    Rejection::NotFound(format!(
        "no webhook endpoint {}",
        crate::error_text::shown(req.param("webhook_id"))
    ))
    .into()
}

fn too_many(e: StoreError) -> ApiError {
    match e {
        StoreError::LimitReached(limit) => ApiError::Conflict(format!(
            "the account has {limit} webhook endpoints, the most it may; delete one first"
        )),
        other => other.into(),
    }
}

/// The event types as a JSON array: known, at least one, each once.
fn checked_types(types: &[String]) -> Result<String, ApiError> {
    if types.is_empty() {
        return Err(Rejection::invalid_at(
            "#/event_types",
            format!(
                "name at least one event type of: {}",
                events::TYPES.join(", ")
            ),
        )
        .into());
    }
    let mut seen: Vec<&str> = Vec::new();
    for (i, t) in types.iter().enumerate() {
        let Some(known) = events::TYPES.iter().find(|k| **k == t) else {
            return Err(Rejection::invalid_at(
                format!("#/event_types/{i}"),
                format!(
                    "unknown event type {}; the types are {}",
                    crate::error_text::shown(t),
                    events::TYPES.join(", ")
                ),
            )
            .into());
        };
        if !seen.contains(known) {
            seen.push(known);
        }
    }
    serde_json::to_string(&seen).map_err(|e| ApiError::Internal(e.into()))
}

fn checked_description(text: &str) -> Result<&str, ApiError> {
    let text = text.trim();
    if text.chars().count() > MAX_DESCRIPTION_CHARS || text.chars().any(char::is_control) {
        return Err(Rejection::invalid_at(
            "#/description",
            format!("description must have at most {MAX_DESCRIPTION_CHARS} printable characters"),
        )
        .into());
    }
    Ok(text)
}

/// What a refused webhook URL is told, whatever the reason: whether the host resolves or where it
/// leads stays in the server's log, so answers cannot map the operator's internal names.
const NOT_REACHABLE: &str = "the webhook URL must lead to an address webhooks may reach: a host that resolves to public addresses, over https://, or one the operator allows";

/// The body's `url` and whether it leads where webhooks may go, found before the handler runs
/// (and takes a permit of the blocking pool), within `webhook_resolve_wait` and the bounds of
/// [`crate::webhooks::url_checks`]; the handler answers with it once the rest of the body is
/// checked. None when the body has no URL of the right form: the handler says what is wrong.
pub async fn check_url_first(
    state: &AppState,
    principal: &Principal,
    body: &[u8],
) -> Option<(String, Result<(), Unchecked>)> {
    let account = principal.account_id()?;
    let value = serde_json::from_slice::<serde_json::Value>(body).ok()?;
    let text = value.get("url")?.as_str()?;
    let url = (text.len() <= MAX_URL_LEN)
        .then(|| WebhookUrl::parse(text).ok())
        .flatten()?;
    let policy = state.outbox.policy().clone();
    let wait = state.config.webhook_resolve_wait;
    let host = url.host.clone();
    let checked = state.url_checks.check(account, url, policy, wait).await;
    if let Err(why @ (Unchecked::TimedOut | Unchecked::Refused(_))) = &checked {
        tracing::info!(%host, reason = %why, "webhook URL refused");
    }
    Some((text.to_owned(), checked))
}

/// A URL of the right form, found to lead where webhooks may go before the handler ran (it is
/// checked again before every attempt).
fn checked_url(req: &Req, text: &str) -> Result<String, ApiError> {
    if text.len() > MAX_URL_LEN {
        return Err(Rejection::invalid_at(
            "#/url",
            format!("url must be at most {MAX_URL_LEN} bytes"),
        )
        .into());
    }
    WebhookUrl::parse(text).map_err(|why| Rejection::invalid_at("#/url", why))?;
    match &req.checked_url {
        Some((checked, Ok(()))) if checked == text => Ok(text.to_owned()),
        Some((checked, Err(why))) if checked == text => Err(match why {
            Unchecked::Busy => ApiError::Unavailable,
            Unchecked::AccountBusy => ApiError::Conflict(
                "this account's previous webhook URL is still being checked: send again once it is answered".into(),
            ),
            Unchecked::TimedOut | Unchecked::Refused(_) => {
                ApiError::WebhookUrlNotAllowed(NOT_REACHABLE.into())
            }
        }),
        _ => Err(ApiError::Internal(anyhow::anyhow!(
            "the webhook URL reached its handler unchecked"
        ))),
    }
}
