//! The account plane: sign in and out and the account's API keys (session token only), and the
//! account's usage (any credential).

use serde::Deserialize;
use serde_json::json;

use super::{Req, json, shown_once};
use crate::auth::{CSRF_COOKIE, SESSION_COOKIE, Session, Via};
use crate::domain::Rejection;
use crate::http::charge;
use crate::http::error::ApiError;
use crate::http::paging::PageRequest;
use crate::rate_limiter::Scope;
use crate::reply::Reply;
use crate::store::accounts::KeyRow;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Login {
    email: String,
    password: String,
}

/// Runs on the blocking pool: argon2id takes tens of milliseconds by design. Successful logins
/// are limited per account (`--limit-logins-hour`): each one is a stored session.
pub fn login(req: &mut Req) -> Result<Reply, ApiError> {
    let session = open_session(req)?;
    json(&session, &json!({}))
}

/// Checks the email and password of the body and opens a session (within the account's
/// logins per hour).
fn open_session(req: &mut Req) -> Result<Session, ApiError> {
    req.no_more_params()?;
    let body: Login = req.json_body()?;
    let state = &req.state;
    let account = state
        .auth
        .verify_login(&state.store, &body.email, &body.password, req.client)?;
    charge::account_action(
        state,
        "account-logins",
        Scope::Logins(account.id),
        state.config.limits.logins_per_hour,
        || Ok(state.auth.open_session(&state.store, account)?),
    )
}

pub fn logout(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    if let Via::Session { sid } = &req.caller()?.via {
        req.state.auth.logout(&req.state.store, sid)?;
    }
    Ok(Reply::NoContent)
}

/// The account pages' sign-in: a session like [`login`]'s, whose token the browser keeps in an
/// HttpOnly cookie (no script, and so no injected script, can read it) beside its CSRF token,
/// which the pages send back in `X-CSRF-Token`. The answer is the account, never the token.
pub fn browser_login(req: &mut Req) -> Result<Reply, ApiError> {
    let session = open_session(req)?;
    let csrf = req.state.auth.csrf_token(&session.access_token);
    let max_age = session.expires_in;
    Ok(Reply::WithCookies {
        reply: Box::new(json(&session.account, &json!({}))?),
        cookies: vec![
            session_cookie(SESSION_COOKIE, &session.access_token, max_age, true),
            session_cookie(CSRF_COOKIE, &csrf, max_age, false),
        ],
    })
}

/// Signs the browser out: the session ends on the server and both cookies are dropped.
pub fn browser_logout(req: &mut Req) -> Result<Reply, ApiError> {
    logout(req)?;
    Ok(Reply::WithCookies {
        reply: Box::new(Reply::NoContent),
        cookies: vec![
            session_cookie(SESSION_COOKIE, "", 0, true),
            session_cookie(CSRF_COOKIE, "", 0, false),
        ],
    })
}

/// A `Set-Cookie` value for this host only, over HTTPS only, sent with same-site requests
/// only; `http_only` hides it from scripts.
fn session_cookie(name: &str, value: &str, max_age: i64, http_only: bool) -> String {
    let script = if http_only { "; HttpOnly" } else { "" };
    format!("{name}={value}; Path=/; Max-Age={max_age}; Secure; SameSite=Strict{script}")
}

/// A key as listed: id, name, dates, status; never secret material.
#[derive(serde::Serialize)]
struct KeyView {
    id: String,
    /// How the key starts, to recognise it: `sk_service_<key_id>…`.
    prefix: String,
    name: String,
    created_at: String,
    last_used_at: Option<String>,
    status: &'static str,
    revoked_at: Option<String>,
}

fn view(k: &KeyRow) -> KeyView {
    let time = crate::runtime::clock::rfc3339;
    KeyView {
        id: k.key_id.clone(),
        prefix: format!("{}{}…", crate::auth::api_key::PREFIX, k.key_id),
        name: k.name.clone(),
        created_at: time(k.created_at),
        last_used_at: k.last_used_at.map(time),
        status: if k.revoked_at.is_some() {
            "revoked"
        } else {
            "active"
        },
        revoked_at: k.revoked_at.map(time),
    }
}

/// Keys in a page of the list at most, and by default.
const KEYS_PER_PAGE: usize = 100;

/// Revoked keys stay listed, so an account's list grows: it is paged in the database.
pub fn list_keys(req: &mut Req) -> Result<Reply, ApiError> {
    let page = PageRequest::take(&mut req.query, KEYS_PER_PAGE, KEYS_PER_PAGE)?;
    req.no_more_params()?;
    let store = req.store()?;
    let mut rows = store.my_keys_page(page.cursor.as_deref(), page.limit + 1)?;
    let next = page.trim_to_limit(&mut rows, |k| k.key_id.clone());
    let keys: Vec<KeyView> = rows.iter().map(view).collect();
    json(&keys, &page.meta(next, Some(store.my_key_count()?)))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateKey {
    name: String,
}

pub fn create_key(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let body: CreateKey = req.json_body()?;
    let name = body.name.trim();
    if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(Rejection::invalid_at(
            "#/name",
            "name must have 1 to 100 printable characters",
        )
        .into());
    }
    let caller = req.caller()?.clone();
    let state = &req.state;
    // A new key brings fresh minute and hour buckets: creations are limited per account, so
    // revoking and creating keys cannot multiply the account's quota.
    let (row, plaintext) = charge::account_action(
        state,
        "account-key-creations",
        Scope::KeyCreations(caller.account_id),
        state.config.limits.key_creations_per_hour,
        || {
            Ok(state
                .auth
                .create_key(&state.store, caller.account_id, caller.tier, name)?)
        },
    )?;
    Ok(shown_once(
        &view(&row),
        "api_key",
        &plaintext,
        "Store this key now: regintel keeps only its HMAC and cannot show it again.",
    )?
    .with_status(201))
}

pub fn revoke_key(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let account = req.caller()?.account_id;
    let key_id = req.param("key_id").to_owned();
    if req
        .state
        .auth
        .revoke_key(&req.state.store, Some(account), &key_id)?
    {
        Ok(Reply::NoContent)
    } else {
        Err(Rejection::NotFound(format!(
            "no active API key {}",
            crate::error_text::shown(&key_id)
        ))
        .into())
    }
}

/// `GET /account/usage`: the caller's buckets now and the account's last 90 days.
pub fn usage(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let state = &req.state;
    let caller = req.caller()?.clone();
    let limits = &state.config.limits;
    let clock = state.limiter.clock();
    let (wall_secs, now) = (clock.unix_secs(), clock.instant());
    // The day of the same reading as the buckets', even at midnight.
    let today = wall_secs.div_euclid(crate::rate_limiter::DAY_SECS);
    let quotas = charge::quotas(limits, caller.tier);
    let peek =
        |policies: &[crate::rate_limiter::Policy]| state.limiter.peek(policies, now, wall_secs);
    let (buckets, keys) = if limits.enabled {
        let buckets = peek(&charge::policies(limits, &req.principal, 0));
        // A person at the account pages sees what each of their programs' keys has left.
        let keys: Vec<serde_json::Value> = match caller.via {
            Via::Session { .. } => req
                .store()?
                .my_keys()?
                .iter()
                .filter(|k| k.revoked_at.is_none())
                .map(|k| {
                    let buckets = peek(&charge::key_policies(quotas, &k.key_id));
                    json!({ "id": k.key_id, "name": k.name, "buckets": buckets })
                })
                .collect(),
            Via::ApiKey { .. } => Vec::new(),
        };
        (buckets, keys)
    } else {
        (Vec::new(), Vec::new())
    };
    let cap = quotas.day;
    let today_used = buckets
        .iter()
        .find(|b| b.policy == charge::ACCOUNT_DAY)
        .map_or(0, |b| b.used);
    let stored: std::collections::HashMap<String, u64> =
        req.store()?.my_usage(today - 89)?.into_iter().collect();
    let days: Vec<serde_json::Value> = (today - 89..=today)
        .map(|d| {
            let label = crate::store::usage::day_label(d);
            let used = if d == today {
                today_used.max(stored.get(&label).copied().unwrap_or(0))
            } else {
                stored.get(&label).copied().unwrap_or(0)
            };
            json!({ "day": label, "used": used, "cap": cap })
        })
        .collect();
    json(
        &json!({
            "account_id": caller.account_id,
            "tier": caller.tier,
            "limits_enabled": limits.enabled,
            "daily_cap": cap,
            "today": { "day": crate::store::usage::day_label(today), "used": today_used, "remaining": cap.saturating_sub(today_used) },
            "buckets": buckets,
            "keys": keys,
            "days": days,
        }),
        &json!({}),
    )
}
