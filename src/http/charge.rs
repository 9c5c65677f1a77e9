//! The rate-limit side of the pipeline: a request's [`Charge`] (the address's failed
//! authentications before credentials are checked, then every bucket the caller touches, and
//! after the answer the refund of what does not count), the per-account limits of single actions
//! ([`account_action`]), and the headers that describe the buckets: GitHub's `X-RateLimit-*` for
//! the binding bucket and the IETF `RateLimit`/`RateLimit-Policy` pair
//! (draft-ietf-httpapi-ratelimit-headers) for all of them. What a route costs is
//! `routes::Route::cost`.

use http::header::{HeaderName, HeaderValue};
use http::{HeaderMap, Response, StatusCode};

use super::envelope::Body;
use crate::auth::{Principal, Via};
use crate::config::{LimitConfig, Quotas};
use crate::http::error::ApiError;
use crate::rate_limiter::{Decision, Kind, Limiter, Policy, Scope, Status};
use crate::state::AppState;
use crate::store::accounts::Tier;

/// What a request was charged, from before its caller is known until its answer is: refunded
/// when the answer does not count, described in the answer's headers.
pub struct Charge {
    policies: Vec<Policy>,
    weight: u64,
    wall_secs: i64,
    client: u128,
    decision: Decision,
}

impl Charge {
    /// Nothing charged yet for a request from `client` (a [`crate::client_addr::client_key`])
    /// to the buckets of `limiter`.
    pub fn new(limiter: &Limiter, client: u128) -> Charge {
        Charge {
            policies: Vec::new(),
            weight: 0,
            wall_secs: limiter.clock().unix_secs(),
            client,
            decision: Decision::default(),
        }
    }

    /// Guessing credentials is capped before they are checked (OWASP API2, Broken
    /// Authentication): a request that presents one waits (429) while its address has used up
    /// its failures. With no failure anywhere in the last minute no address can have, and the
    /// lookup is skipped. Until the caller is known, the answer describes this bucket.
    pub fn refuse_guessing(
        &mut self,
        state: &AppState,
        presents_credential: bool,
    ) -> Result<(), ApiError> {
        if !presents_credential
            || !state
                .limiter
                .auth_failed_within_a_minute(state.limiter.now())
        {
            return Ok(());
        }
        let guard = [auth_fail_policy(state, self.client)];
        self.decision = state
            .limiter
            .admit(&guard, 0, state.limiter.now(), self.wall_secs);
        match self.decision.statuses.first() {
            Some(status) if status.remaining == 0 => Err(ApiError::RateLimited {
                retry_after: status.reset_secs.max(1),
                violated: vec!["auth-fail"],
            }),
            _ => Ok(()),
        }
    }

    /// Charges `weight` to every bucket the authenticated caller touches, or nothing (429) when
    /// one of them has no room.
    pub fn admit(
        &mut self,
        state: &AppState,
        principal: &Principal,
        weight: u64,
    ) -> Result<(), ApiError> {
        self.policies = policies(&state.config.limits, principal, self.client);
        self.decision =
            state
                .limiter
                .admit(&self.policies, weight, state.limiter.now(), self.wall_secs);
        if !self.decision.allowed {
            return Err(ApiError::RateLimited {
                retry_after: self.decision.retry_after,
                violated: self.decision.violated.clone(),
            });
        }
        self.weight = weight;
        Ok(())
    }

    /// Gives back what was charged to the hour's and day's quotas: the request turned out to be
    /// paid for otherwise (an MCP message whose tool calls were charged as the REST requests they
    /// made). The minute keeps it: the requests inside may have cost nothing (a 401, a 429), and
    /// a message the minute forgot could be sent as fast as the network carries it.
    pub fn waive(&mut self, state: &AppState) {
        let weight = std::mem::take(&mut self.weight);
        self.give_back(state, weight, false);
    }

    /// Gives back `weight` of what was charged: to every bucket, or (`minutes_too` false) to
    /// the quotas only, never to the rolling minute.
    fn give_back(&mut self, state: &AppState, weight: u64, minutes_too: bool) {
        if weight == 0 {
            return;
        }
        match minutes_too {
            true => state.limiter.refund(&self.policies, weight, self.wall_secs),
            false => {
                let quotas: Vec<Policy> = (self.policies.iter())
                    .filter(|p| p.quota())
                    .cloned()
                    .collect();
                state.limiter.refund(&quotas, weight, self.wall_secs);
            }
        }
        self.decision.give_back(weight, minutes_too);
    }

    /// After the answer is known: refunds what does not count (401, 429, 5xx and, as GitHub
    /// does, an authenticated 304) and, of a request refused for what it asked (any other 4xx:
    /// a bad parameter, a briefing type with nothing to say), all but one request of the
    /// route's weight: it did no work of that weight. A 5xx is given back to the hour's and
    /// day's quotas only, never to the rolling minute: requests that make the server fail would
    /// otherwise cost nothing, and a caller could send them as fast as the network carries them.
    /// Charges a refused credential to the address's auth-fail bucket, and describes the
    /// buckets in the headers.
    pub fn settle(
        mut self,
        state: &AppState,
        response: &mut Response<Body>,
        authenticated: bool,
        bad_credential: bool,
    ) {
        let status = response.status();
        let free = status == StatusCode::UNAUTHORIZED
            || status == StatusCode::TOO_MANY_REQUESTS
            || status.is_server_error()
            || (status == StatusCode::NOT_MODIFIED && authenticated);
        let refund = if free {
            self.weight
        } else if status.is_client_error() {
            self.weight.saturating_sub(1)
        } else {
            0
        };
        self.give_back(state, refund, !status.is_server_error());
        if bad_credential {
            // Only a credential that was sent and refused counts as a failure (not a missing
            // one); the answer then describes the bucket it was charged to.
            self.decision = state.limiter.admit(
                &[auth_fail_policy(state, self.client)],
                1,
                state.limiter.now(),
                self.wall_secs,
            );
            state.limiter.note_auth_failure(state.limiter.now());
        }
        headers(response.headers_mut(), &self.decision, self.wall_secs);
    }
}

fn auth_fail_policy(state: &AppState, client: u128) -> Policy {
    rolling(
        "auth-fail",
        Scope::AuthFail(client),
        Kind::Minute,
        state.config.limits.auth_fail_per_minute,
    )
}

/// The bucket of an account's requests per UTC day, shared by its keys and sessions.
pub const ACCOUNT_DAY: &str = "account-day";

/// The quotas of an account of `tier`.
pub fn quotas(limits: &LimitConfig, tier: Tier) -> crate::config::Quotas {
    match tier {
        Tier::Professional => limits.professional,
        Tier::Institutional => limits.institutional,
    }
}

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
            let q = quotas(limits, caller.tier);
            let mut out = match &caller.via {
                Via::ApiKey { key_id } => key_policies(q, key_id),
                Via::Session { .. } => {
                    let scope = Scope::Sessions(caller.account_id);
                    vec![
                        rolling("session-minute", scope.clone(), Kind::Minute, q.minute),
                        rolling("session-hour", scope, Kind::Hour, q.hour),
                    ]
                }
            };
            out.push(day(ACCOUNT_DAY, Scope::Account(caller.account_id), q.day));
            out
        }
    }
}

/// The buckets of one API key of an account with quotas `q` (the account's day aside).
pub fn key_policies(q: Quotas, key_id: &str) -> Vec<Policy> {
    let scope = Scope::Key(key_id.into());
    vec![
        rolling("key-minute", scope.clone(), Kind::Minute, q.minute),
        rolling("key-hour", scope.clone(), Kind::Hour, q.hour),
        day("key-day", scope, q.day),
    ]
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
    let wall_secs = state.limiter.clock().unix_secs();
    let decision = state
        .limiter
        .admit(&policy, 1, state.limiter.now(), wall_secs);
    if !decision.allowed {
        return Err(ApiError::RateLimited {
            retry_after: decision.retry_after,
            violated: decision.violated,
        });
    }
    action().inspect_err(|_| state.limiter.refund(&policy, 1, wall_secs))
}

/// Appends `"policy";{first}{x}{second}{y}` to the comma-separated list of such items that began
/// at `list`.
fn push_item(
    out: &mut Vec<u8>,
    list: usize,
    policy: &str,
    (first, x): (&str, u64),
    (second, y): (&str, u64),
) {
    if out.len() > list {
        out.extend_from_slice(b", ");
    }
    out.push(b'"');
    out.extend_from_slice(policy.as_bytes());
    out.push(b'"');
    for (name, value) in [(first, x), (second, y)] {
        out.extend_from_slice(name.as_bytes());
        push_number(out, value);
    }
}

fn push_number(out: &mut Vec<u8>, n: u64) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

const X_RATELIMIT_LIMIT: HeaderName = HeaderName::from_static("x-ratelimit-limit");
const X_RATELIMIT_REMAINING: HeaderName = HeaderName::from_static("x-ratelimit-remaining");
const X_RATELIMIT_USED: HeaderName = HeaderName::from_static("x-ratelimit-used");
const X_RATELIMIT_RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");
const X_RATELIMIT_RESOURCE: HeaderName = HeaderName::from_static("x-ratelimit-resource");
const RATELIMIT_POLICY: HeaderName = HeaderName::from_static("ratelimit-policy");
const RATELIMIT: HeaderName = HeaderName::from_static("ratelimit");

/// `X-RateLimit-*` for the binding bucket, and the IETF draft fields for every bucket. Every
/// answer carries them: their values (but the policy's, see [`policy_value`]) are written into
/// one buffer and each header holds its slice of it (one allocation, where a value each took
/// six), without `format!` (its machinery was most of their cost), and the names are constants
/// (made from text on every answer, they were parsed and looked up each time).
fn headers(headers: &mut HeaderMap, decision: &Decision, wall_secs: i64) {
    let Some(binding) = decision.binding() else {
        return;
    };
    let mut text = Vec::with_capacity(192);
    // Where each value ends: the four numbers', then the `RateLimit` list's.
    let mut ends = [0; 5];
    let reset = (wall_secs.max(0) as u64) + binding.reset_secs;
    for (end, n) in ends
        .iter_mut()
        .zip([binding.limit, binding.remaining, binding.used, reset])
    {
        push_number(&mut text, n);
        *end = text.len();
    }
    // `"name";r=29;t=2, ...`.
    let state = text.len();
    for s in &decision.statuses {
        let (r, t) = ((";r=", s.remaining), (";t=", s.reset_secs));
        push_item(&mut text, state, s.policy, r, t);
    }
    ends[4] = text.len();
    let text = hyper::body::Bytes::from(text);
    let mut values = ends.iter().scan(0, |start, &end| {
        let value = HeaderValue::from_maybe_shared(text.slice(*start..end)).ok();
        *start = end;
        Some(value)
    });
    let numbers = [
        X_RATELIMIT_LIMIT,
        X_RATELIMIT_REMAINING,
        X_RATELIMIT_USED,
        X_RATELIMIT_RESET,
    ];
    for (name, value) in numbers.into_iter().zip(&mut values) {
        if let Some(value) = value {
            headers.insert(name, value);
        }
    }
    headers.insert(
        X_RATELIMIT_RESOURCE,
        HeaderValue::from_static(binding.policy),
    );
    if let Some(policy) = policy_value(&decision.statuses) {
        headers.insert(RATELIMIT_POLICY, policy);
    }
    if let Some(Some(value)) = values.next() {
        headers.insert(RATELIMIT, value);
    }
}

/// Sets of buckets [`policy_value`] keeps per thread: more than the kinds of caller (anonymous,
/// a key or a session of either tier) and the auth-fail bucket together.
const KINDS_KEPT: usize = 8;

/// `RateLimit-Policy` for `statuses`: `"name";q=30;w=60, ...`. It changes only with the caller's
/// kind and the configured quotas, so each thread keeps the ones it wrote with the buckets they
/// describe, and answers the same buckets with theirs again instead of writing it anew. A thread
/// serves callers of every kind in turn: with only the last one kept, each change of kind wrote
/// it anew.
fn policy_value(statuses: &[Status]) -> Option<HeaderValue> {
    type Described = (Vec<(&'static str, u64, u64)>, HeaderValue);
    thread_local! {
        static KEPT: std::cell::RefCell<Vec<Described>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let describes = |buckets: &[(&'static str, u64, u64)]| {
        buckets.len() == statuses.len()
            && (buckets.iter().zip(statuses)).all(|(&b, s)| b == (s.policy, s.limit, s.window_secs))
    };
    KEPT.with_borrow_mut(|kept| {
        if let Some((_, value)) = kept.iter().find(|(buckets, _)| describes(buckets)) {
            return Some(value.clone());
        }
        let mut text = Vec::with_capacity(128);
        for s in statuses {
            push_item(
                &mut text,
                0,
                s.policy,
                (";q=", s.limit),
                (";w=", s.window_secs),
            );
        }
        let value = HeaderValue::from_maybe_shared(hyper::body::Bytes::from(text)).ok()?;
        let buckets = statuses.iter().map(|s| (s.policy, s.limit, s.window_secs));
        if kept.len() == KINDS_KEPT {
            kept.remove(0);
        }
        kept.push((buckets.collect(), value.clone()));
        Some(value)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(policy: &'static str, limit: u64, window_secs: u64) -> Status {
        Status {
            policy,
            limit,
            window_secs,
            used: 1,
            remaining: limit - 1,
            reset_secs: 2,
        }
    }

    /// The policy a thread wrote last is shown again only for the same buckets: callers of
    /// another kind, or quotas of another tier, get their own.
    #[test]
    fn each_set_of_buckets_gets_its_own_policy() {
        let anonymous = [status("ip-minute", 30, 60), status("ip-day", 1000, 86400)];
        let key = [status("key-minute", 30, 60), status("key-day", 1000, 86400)];
        let other_tier = [
            status("key-minute", 120, 60),
            status("key-day", 1000, 86400),
        ];
        let fewer = [status("key-minute", 120, 60)];
        let expected = [
            r#""ip-minute";q=30;w=60, "ip-day";q=1000;w=86400"#,
            r#""key-minute";q=30;w=60, "key-day";q=1000;w=86400"#,
            r#""key-minute";q=120;w=60, "key-day";q=1000;w=86400"#,
            r#""key-minute";q=120;w=60"#,
        ];
        for _ in 0..2 {
            for (statuses, expected) in [&anonymous[..], &key, &other_tier, &fewer]
                .into_iter()
                .zip(expected)
            {
                assert_eq!(policy_value(statuses).unwrap(), expected);
                assert_eq!(policy_value(statuses).unwrap(), expected);
            }
        }
    }

    /// More sets of buckets than a thread keeps, in turn: each still gets its own policy after
    /// the oldest kept ones make room.
    #[test]
    fn sets_beyond_those_kept_get_their_own_policy() {
        let limits = 1..=(KINDS_KEPT as u64 + 2);
        for _ in 0..2 {
            for limit in limits.clone() {
                let statuses = [status("ip-minute", limit, 60)];
                let expected = format!(r#""ip-minute";q={limit};w=60"#);
                assert_eq!(policy_value(&statuses).unwrap(), expected.as_str());
            }
        }
    }
}
