//! Everything a request can fail with, and its one mapping to an HTTP status and a stable code
//! (the headers an error calls for are added by `envelope::error_response`). `status()` and
//! `code()` are exhaustive matches: a new variant does not compile until it has both. Messages
//! are written for the API user; internal causes are logged, never sent.

use serde_json::{Value, json};

use crate::auth::{AuthError, Refusal};
use crate::domain::{self, Rejection};
use crate::error_text::shown;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A request that cannot be read as one (its body did not arrive whole).
    #[error("{0}")]
    InvalidRequest(String),
    /// The route needs a credential and none was sent.
    #[error("this route needs an API key (X-API-Key or Authorization: Bearer) or a session token")]
    MissingCredential,
    /// A credential or login refused (never treated as anonymous).
    #[error(transparent)]
    Refused(Refusal),
    #[error("this route needs the {required} tier; the account is {current}")]
    InsufficientTier {
        required: &'static str,
        current: &'static str,
    },
    /// Authenticated, but this kind of credential may not do this (account API with an API key).
    #[error("{0}")]
    Forbidden(String),
    #[error("the account already has its limit of {limit} active API keys; revoke one first")]
    KeyLimitReached { limit: usize },
    #[error("{0}")]
    Conflict(String),
    /// A webhook URL the egress policy refuses (or whose host does not resolve).
    #[error("{0}")]
    WebhookUrlNotAllowed(String),
    /// What was asked cannot be answered as asked (a bad parameter or body, an unknown code).
    #[error(transparent)]
    Rejected(Rejection),
    #[error("send the body as {expected}")]
    UnsupportedMediaType { expected: &'static str },
    /// A limit is exhausted: `violated` names the buckets without room.
    #[error("rate limit exceeded ({}); retry in {retry_after} seconds", .violated.join(", "))]
    RateLimited {
        retry_after: u64,
        violated: Vec<&'static str>,
    },
    #[error("method {} is not allowed here", shown(.method))]
    MethodNotAllowed { method: String, allow: String },
    #[error("request body larger than {limit} bytes")]
    PayloadTooLarge { limit: u64 },
    /// The body did not arrive in time (slow-body defence).
    #[error("the request body did not arrive within {seconds} seconds")]
    RequestTimeout { seconds: u64 },
    /// The database is busy or the server is shutting down; the client may retry.
    #[error("service temporarily unavailable")]
    Unavailable,
    /// Anything unexpected. The cause goes to the log with the request id, not to the client.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    /// A bad query parameter; `message` must quote input through [`shown`].
    pub fn invalid(parameter: &str, message: impl Into<String>) -> Self {
        ApiError::Rejected(Rejection::invalid(parameter, message))
    }

    /// An unexpected error that the request's own text caused in the database (see
    /// `store::sql::refused_text_in`) is the caller's (400), not the server's: a 500 would be
    /// logged as an error and given back to the caller's limits.
    pub fn blaming_input(self) -> Self {
        match self {
            ApiError::Internal(e) if crate::store::sql::refused_text_in(&e) => {
                // Said in the log all the same: a value the server itself cast (22P02 of a
                // stored value) would be a bug to find.
                tracing::warn!(error = %format!("{e:#}"), "the database refused a text value");
                ApiError::InvalidRequest(
                    "the request holds text the database cannot store (a control character or an \
                     invalid character)"
                        .into(),
                )
            }
            other => other,
        }
    }

    /// A credential or password that was sent and refused: charged to the address's failed
    /// authentications, and challenged with `error="invalid_token"`.
    pub fn is_refused_credential(&self) -> bool {
        matches!(
            self,
            ApiError::Refused(Refusal::InvalidCredential | Refusal::LoginFailed)
        )
    }

    pub fn status(&self) -> u16 {
        match self {
            ApiError::InvalidRequest(_) => 400,
            ApiError::MissingCredential => 401,
            ApiError::Refused(refusal) => match refusal {
                Refusal::Ambiguous(_) => 400,
                Refusal::InvalidCredential | Refusal::LoginFailed => 401,
            },
            ApiError::InsufficientTier { .. } | ApiError::Forbidden(_) => 403,
            ApiError::KeyLimitReached { .. } | ApiError::Conflict(_) => 409,
            ApiError::WebhookUrlNotAllowed(_) => 422,
            ApiError::Rejected(rejection) => match rejection {
                Rejection::InvalidParameter { .. } => 400,
                Rejection::Invalid { .. } | Rejection::NothingToSay { .. } => 422,
                Rejection::UnknownRegion { .. }
                | Rejection::UnknownDataset(_)
                | Rejection::NotHeldYet { .. }
                | Rejection::NotFound(_) => 404,
            },
            ApiError::UnsupportedMediaType { .. } => 415,
            ApiError::RateLimited { .. } => 429,
            ApiError::MethodNotAllowed { .. } => 405,
            ApiError::PayloadTooLarge { .. } => 413,
            ApiError::RequestTimeout { .. } => 408,
            ApiError::Unavailable => 503,
            ApiError::Internal(_) => 500,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::InvalidRequest(_) => "invalid_request",
            ApiError::MissingCredential => "missing_credential",
            ApiError::Refused(refusal) => match refusal {
                Refusal::Ambiguous(_) => "invalid_request",
                Refusal::InvalidCredential | Refusal::LoginFailed => "invalid_credential",
            },
            ApiError::InsufficientTier { .. } => "insufficient_tier",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::KeyLimitReached { .. } => "key_limit_reached",
            ApiError::Conflict(_) => "conflict",
            ApiError::WebhookUrlNotAllowed(_) => "webhook_url_not_allowed",
            ApiError::Rejected(rejection) => match rejection {
                Rejection::InvalidParameter { .. } => "invalid_parameter",
                Rejection::Invalid { .. } | Rejection::NothingToSay { .. } => "validation_failed",
                Rejection::UnknownRegion { .. } => "unknown_region",
                Rejection::UnknownDataset(_) => "unknown_dataset",
                Rejection::NotHeldYet { .. } => "not_held_yet",
                Rejection::NotFound(_) => "not_found",
            },
            ApiError::UnsupportedMediaType { .. } => "unsupported_media_type",
            ApiError::RateLimited { .. } => "rate_limit_exceeded",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::RequestTimeout { .. } => "request_timeout",
            ApiError::Unavailable => "unavailable",
            ApiError::Internal(_) => "internal",
        }
    }

    /// RFC 9457 extension members, under `error.details`.
    pub fn details(&self) -> Option<Value> {
        match self {
            ApiError::Rejected(rejection) => match rejection {
                Rejection::InvalidParameter { parameter, .. } => {
                    Some(json!({ "parameter": parameter }))
                }
                Rejection::Invalid { errors, not_listed } => Some(match not_listed {
                    0 => json!({ "errors": errors }),
                    n => json!({ "errors": errors, "errors_not_listed": n }),
                }),
                Rejection::UnknownRegion { code, suggestions } => {
                    Some(json!({ "region": shown(code), "suggestions": suggestions }))
                }
                Rejection::UnknownDataset(code) => Some(json!({ "dataset": shown(code) })),
                Rejection::NotHeldYet { dataset, .. } => Some(json!({ "dataset": dataset })),
                Rejection::NotFound(_) => None,
                Rejection::NothingToSay { message, available } => Some(json!({
                    "errors": [{"pointer": "#/briefing_type", "detail": message}],
                    "available_types": available,
                })),
            },
            ApiError::MethodNotAllowed { allow, .. } => Some(json!({ "allow": allow })),
            ApiError::PayloadTooLarge { limit } => Some(json!({ "limit_bytes": limit })),
            ApiError::RequestTimeout { seconds } => Some(json!({ "limit_seconds": seconds })),
            ApiError::InsufficientTier { required, current } => {
                Some(json!({ "required_tier": required, "current_tier": current }))
            }
            ApiError::KeyLimitReached { limit } => Some(json!({ "limit": limit })),
            ApiError::UnsupportedMediaType { expected } => Some(json!({ "expected": expected })),
            ApiError::RateLimited {
                retry_after,
                violated,
            } => Some(json!({ "retry_after": retry_after, "violated_policies": violated })),
            ApiError::Unavailable
            | ApiError::Internal(_)
            | ApiError::InvalidRequest(_)
            | ApiError::MissingCredential
            | ApiError::Refused(_)
            | ApiError::Forbidden(_)
            | ApiError::Conflict(_)
            | ApiError::WebhookUrlNotAllowed(_) => None,
        }
    }

    /// Every code this enum can produce with its status, for the OpenAPI document and tests.
    pub const CODES: &'static [(&'static str, u16)] = &[
        ("invalid_parameter", 400),
        ("invalid_request", 400),
        ("missing_credential", 401),
        ("invalid_credential", 401),
        ("insufficient_tier", 403),
        ("forbidden", 403),
        ("key_limit_reached", 409),
        ("conflict", 409),
        ("unsupported_media_type", 415),
        ("validation_failed", 422),
        ("webhook_url_not_allowed", 422),
        ("rate_limit_exceeded", 429),
        ("unknown_region", 404),
        ("unknown_dataset", 404),
        ("not_held_yet", 404),
        ("not_found", 404),
        ("method_not_allowed", 405),
        ("payload_too_large", 413),
        ("request_timeout", 408),
        ("internal", 500),
        ("unavailable", 503),
    ];
}

impl From<Rejection> for ApiError {
    fn from(rejection: Rejection) -> Self {
        ApiError::Rejected(rejection)
    }
}

impl From<Refusal> for ApiError {
    fn from(refusal: Refusal) -> Self {
        ApiError::Refused(refusal)
    }
}

impl From<StoreError> for ApiError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Busy => ApiError::Unavailable,
            StoreError::Conflict(message) => ApiError::Conflict(message),
            StoreError::LimitReached(limit) => ApiError::KeyLimitReached { limit },
            StoreError::Other(e) => ApiError::Internal(e),
        }
    }
}

impl From<domain::Error> for ApiError {
    fn from(err: domain::Error) -> Self {
        match err {
            domain::Error::Rejected(rejection) => ApiError::Rejected(rejection),
            domain::Error::Store(e) => e.into(),
            domain::Error::Internal(e) => ApiError::Internal(e),
        }
    }
}

impl From<AuthError> for ApiError {
    fn from(err: AuthError) -> Self {
        match err {
            AuthError::Refused(refusal) => ApiError::Refused(refusal),
            AuthError::Throttled { retry_after } => ApiError::RateLimited {
                retry_after,
                violated: vec!["login-failures"],
            },
            AuthError::Store(e) => e.into(),
            AuthError::Internal(e) => ApiError::Internal(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    #[test]
    fn every_variant_maps_to_a_listed_code_and_status() {
        let samples = [
            ApiError::invalid("level", "bad"),
            Rejection::UnknownRegion {
                code: "XX".into(),
                suggestions: Vec::new(),
            }
            .into(),
            Rejection::UnknownDataset("x".into()).into(),
            Rejection::NotFound("x".into()).into(),
            Rejection::Invalid {
                errors: vec![],
                not_listed: 0,
            }
            .into(),
            ApiError::MethodNotAllowed {
                method: "PUT".into(),
                allow: "GET".into(),
            },
            ApiError::PayloadTooLarge { limit: 1 },
            ApiError::RequestTimeout { seconds: 1 },
            ApiError::Unavailable,
            ApiError::Internal(anyhow::anyhow!("secret detail")),
            ApiError::InvalidRequest("x".into()),
            Refusal::Ambiguous("x").into(),
            ApiError::MissingCredential,
            Refusal::InvalidCredential.into(),
            Refusal::LoginFailed.into(),
            ApiError::InsufficientTier {
                required: "institutional",
                current: "professional",
            },
            ApiError::Forbidden("x".into()),
            ApiError::KeyLimitReached { limit: 1 },
            ApiError::Conflict("x".into()),
            ApiError::UnsupportedMediaType {
                expected: "application/json",
            },
            ApiError::RateLimited {
                retry_after: 1,
                violated: vec!["key-minute"],
            },
            ApiError::WebhookUrlNotAllowed("x".into()),
            Rejection::NothingToSay {
                message: "x".into(),
                available: vec!["economy"],
            }
            .into(),
            Rejection::NotHeldYet {
                dataset: "x".into(),
                message: "x".into(),
            }
            .into(),
        ];
        let given: BTreeSet<(&str, u16)> = samples.iter().map(|e| (e.code(), e.status())).collect();
        let listed: BTreeSet<(&str, u16)> = ApiError::CODES.iter().copied().collect();
        assert_eq!(given, listed);
        assert_eq!(listed.len(), ApiError::CODES.len(), "no code listed twice");
        // A failed login answers as any refused credential.
        assert_eq!(samples[14].code(), samples[13].code());
        // The internal cause never becomes the message.
        assert_eq!(samples[9].to_string(), "internal error");
    }

    /// What PostgreSQL refuses of a text value itself, however deep it is wrapped, is the
    /// request's fault (400); other database errors stay internal.
    #[test]
    fn text_postgresql_refuses_is_the_callers_fault() {
        use crate::store::postgres::conn::blocking;
        let db = crate::store::postgres::testing::TestDatabase::create();
        let mut conn = db.connect_as(&db.owner);
        let nul = blocking(|| conn.query_one("SELECT $1::text", &[&"a\u{0}b"])).unwrap_err();
        let bad_int = blocking(|| conn.query_one("SELECT 'x'::int", &[])).unwrap_err();
        let missing = blocking(|| conn.query_one("SELECT * FROM no_such_table", &[])).unwrap_err();
        let wrapped = |e: postgres::Error| {
            let store = crate::store::StoreError::from(crate::store::sql::SqlError::Postgres(e));
            ApiError::from(domain::Error::Store(store)).blaming_input()
        };
        let nul = anyhow::Error::from(crate::store::sql::SqlError::Postgres(nul))
            .context("while reading a dataset");
        let nul = ApiError::Internal(nul).blaming_input();
        assert_eq!((nul.status(), nul.code()), (400, "invalid_request"));
        assert_eq!(wrapped(bad_int).status(), 400);
        assert_eq!(wrapped(missing).status(), 500);
    }

    #[test]
    fn errors_from_below_keep_their_meaning() {
        let throttled = ApiError::from(AuthError::Throttled { retry_after: 7 });
        assert_eq!(
            (throttled.status(), throttled.code()),
            (429, "rate_limit_exceeded")
        );
        assert_eq!(
            throttled.details().unwrap()["violated_policies"][0],
            "login-failures"
        );
        let busy = ApiError::from(domain::Error::Store(StoreError::Busy));
        assert_eq!(busy.status(), 503);
        let keys = ApiError::from(AuthError::Store(StoreError::LimitReached(10)));
        assert_eq!(keys.code(), "key_limit_reached");
    }
}
