//! The rate-limit side of the pipeline: which buckets a caller touches, what a route costs, and
//! the headers that describe the buckets: GitHub's `X-RateLimit-*` for the binding bucket and the
//! IETF `RateLimit`/`RateLimit-Policy` pair (draft-ietf-httpapi-ratelimit-headers) for all of them.

use std::fmt::Write;

use http::HeaderMap;
use http::header::{HeaderName, HeaderValue};

use super::routes::Route;
use crate::auth::{Principal, Via};
use crate::config::{LimitConfig, ServerConfig};
use crate::error::ApiError;
use crate::limits::{Decision, Kind, Policy, Scope};
use crate::state::AppState;
use crate::store::accounts::Tier;

/// The buckets a request touches: per client address for anonymous callers; per key minute,
/// hour and day (or the minute and hour of all the account's sessions together), and the
/// account's daily cap, for accounts.
pub fn policies(limits: &LimitConfig, principal: &Principal, client: u128) -> Vec<Policy> {
    match principal {
        Principal::Anonymous => {
            let q = limits.anonymous;
            let scope = Scope::Ip(client);
            vec![
                rolling("ip-minute", scope.clone(), Kind::Minute, q.minute),
                rolling("ip-hour", scope.clone(), Kind::Hour, q.hour),
                day("ip-day", scope, q.day),
            ]
        }
        Principal::Account(caller) => {
            let q = match caller.tier {
                Tier::Professional => limits.professional,
                Tier::Institutional => limits.institutional,
            };
            let mut out = match &caller.via {
                Via::ApiKey { key_id } => {
                    let scope = Scope::Key(key_id.as_str().into());
                    vec![
                        rolling("key-minute", scope.clone(), Kind::Minute, q.minute),
                        rolling("key-hour", scope.clone(), Kind::Hour, q.hour),
                        day("key-day", scope, q.day),
                    ]
                }
                Via::Session { .. } => {
                    let scope = Scope::Sessions(caller.account_id);
                    vec![
                        rolling("session-minute", scope.clone(), Kind::Minute, q.minute),
                        rolling("session-hour", scope, Kind::Hour, q.hour),
                    ]
                }
            };
            out.push(day("account-day", Scope::Account(caller.account_id), q.day));
            out
        }
    }
}

fn rolling(name: &'static str, scope: Scope, kind: Kind, limit: u64) -> Policy {
    Policy {
        name,
        scope,
        kind,
        limit,
    }
}

fn day(name: &'static str, scope: Scope, limit: u64) -> Policy {
    Policy {
        name,
        scope,
        kind: Kind::Day,
        limit,
    }
}

/// Runs `action` of an account under a per-account hourly limit (logins, key creations): refused
/// with 429 when the account used its hour up; counted only if the action succeeds. Nothing is
/// counted when rate limits are off.
pub fn account_action<T>(
    state: &AppState,
    name: &'static str,
    scope: Scope,
    per_hour: u64,
    action: impl FnOnce() -> Result<T, ApiError>,
) -> Result<T, ApiError> {
    if !state.config.limits.enabled {
        return action();
    }
    let policy = [rolling(name, scope, Kind::Hour, per_hour)];
    let wall_secs = crate::clock::now_ms().div_euclid(1000);
    let decision = state
        .limiter
        .admit(&policy, 1, std::time::Instant::now(), wall_secs);
    if !decision.allowed {
        return Err(ApiError::RateLimited {
            retry_after: decision.retry_after,
            violated: decision.violated,
        });
    }
    action().inspect_err(|_| state.limiter.refund(&policy, 1, wall_secs))
}

/// A route's cost: the operator's `--route-weight` override, or the route table's weight.
pub fn weight(config: &ServerConfig, route: &Route) -> u64 {
    config
        .limits
        .route_weights
        .iter()
        .find(|(op, _)| *op == route.doc.operation_id)
        .map_or(route.weight, |(_, w)| *w)
}

/// `X-RateLimit-*` for the binding bucket, and the IETF draft fields for every bucket.
pub fn headers(headers: &mut HeaderMap, decision: &Decision, wall_secs: i64) {
    let Some(binding) = decision.binding() else {
        return;
    };
    let mut number = |name: &'static str, value: u64| {
        headers.insert(HeaderName::from_static(name), HeaderValue::from(value));
    };
    number("x-ratelimit-limit", binding.limit);
    number("x-ratelimit-remaining", binding.remaining);
    number("x-ratelimit-used", binding.used);
    number(
        "x-ratelimit-reset",
        (wall_secs.max(0) as u64) + binding.reset_secs,
    );
    headers.insert(
        HeaderName::from_static("x-ratelimit-resource"),
        HeaderValue::from_static(binding.policy),
    );
    let mut set = |name: &'static str, value: String| {
        if let Ok(v) = HeaderValue::from_str(&value) {
            headers.insert(HeaderName::from_static(name), v);
        }
    };
    let mut policy = String::new();
    let mut state = String::new();
    for (i, s) in decision.statuses.iter().enumerate() {
        let sep = if i == 0 { "" } else { ", " };
        let _ = write!(
            policy,
            "{sep}\"{}\";q={};w={}",
            s.policy, s.limit, s.window_secs
        );
        let _ = write!(
            state,
            "{sep}\"{}\";r={};t={}",
            s.policy, s.remaining, s.reset_secs
        );
    }
    set("ratelimit-policy", policy);
    set("ratelimit", state);
}
