//! Everything a request can fail with, and its one mapping to an HTTP status and a stable code.
//! `status()` and `code()` are exhaustive matches: a new variant does not compile until it has both.
//! Messages are written for the API user; internal causes are logged, never sent.

use serde_json::{Value, json};

/// Input characters a message repeats at most: a 5,000-character code or cell does not come
/// back whole in a 10 KB error.
pub const SHOWN_CHARS: usize = 64;

/// `text` as a message quotes it: at most [`SHOWN_CHARS`] characters, then `…`.
pub fn shown(text: &str) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(SHOWN_CHARS) {
        None => text.into(),
        Some((cut, _)) => format!("{}…", &text[..cut]).into(),
    }
}

/// A message from a library (serde_json) that quotes input between backticks or double quotes,
/// with every quoted part cut to [`SHOWN_CHARS`] characters.
pub fn shorten_quotes(message: &str) -> String {
    let mut out = String::with_capacity(message.len().min(512));
    let mut quoted: Option<(char, usize)> = None;
    for c in message.chars() {
        match quoted {
            Some((close, _)) if c == close => {
                quoted = None;
                out.push(c);
            }
            Some((close, n)) => {
                if n < SHOWN_CHARS {
                    out.push(c);
                } else if n == SHOWN_CHARS {
                    out.push('…');
                }
                quoted = Some((close, n + 1));
            }
            None => {
                if c == '`' || c == '"' {
                    quoted = Some((c, 0));
                }
                out.push(c);
            }
        }
    }
    out
}

/// One problem in a request body (RFC 9457 `errors[]`): where, and what is wrong.
#[derive(Debug, Clone, serde::Serialize)]
pub struct FieldError {
    /// JSON Pointer into the body (`#/name`), or `line N` for CSV bodies.
    pub pointer: String,
    pub detail: String,
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Ambiguous or unsupported credentials (two at once, an unknown scheme).
    #[error("{0}")]
    InvalidRequest(String),
    /// The route needs a credential and none was sent.
    #[error("this route needs an API key (X-API-Key or Authorization: Bearer) or a session token")]
    MissingCredential,
    /// A malformed, unknown, revoked or expired key or token: never treated as anonymous.
    #[error("the credential is not valid")]
    InvalidCredential,
    /// Login failed: the same answer for an unknown email and a wrong password.
    #[error("invalid email or password")]
    LoginFailed,
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
    /// A well-formed body that says something invalid; `errors` lists every problem found.
    #[error("the request body is not valid: {}", .errors.first().map(|e| format!("{}: {}", e.pointer, e.detail)).unwrap_or_default())]
    ValidationFailed { errors: Vec<FieldError> },
    #[error("send the body as {expected}")]
    UnsupportedMediaType { expected: &'static str },
    /// A limit is exhausted: `violated` names the buckets without room.
    #[error("rate limit exceeded ({}); retry in {retry_after} seconds", .violated.join(", "))]
    RateLimited {
        retry_after: u64,
        violated: Vec<&'static str>,
    },
    /// A query parameter is malformed or not allowed here (400, names the parameter).
    #[error("{message}")]
    InvalidParameter { parameter: String, message: String },
    /// With the closest known codes, when there are some.
    #[error("no region with code {}", shown(.code))]
    UnknownRegion {
        code: String,
        suggestions: Vec<String>,
    },
    #[error("no dataset with code {}", shown(.0))]
    UnknownDataset(String),
    /// Missing objects and routes; also someone else's object, so existence never leaks.
    #[error("{0}")]
    NotFound(String),
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
    /// A route whose computation arrives in a later release (the analytics endpoints).
    #[error("{0}")]
    NotImplemented(String),
    /// Anything unexpected. The cause goes to the log with the request id, not to the client.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    /// A bad query parameter; `message` must quote input through [`shown`].
    pub fn invalid(parameter: &str, message: impl Into<String>) -> Self {
        ApiError::InvalidParameter {
            parameter: shown(parameter).into_owned(),
            message: message.into(),
        }
    }

    pub fn unknown_region(code: &str) -> Self {
        ApiError::UnknownRegion {
            code: code.to_owned(),
            suggestions: Vec::new(),
        }
    }

    pub fn status(&self) -> u16 {
        match self {
            ApiError::InvalidParameter { .. } | ApiError::InvalidRequest(_) => 400,
            ApiError::MissingCredential | ApiError::InvalidCredential | ApiError::LoginFailed => {
                401
            }
            ApiError::InsufficientTier { .. } | ApiError::Forbidden(_) => 403,
            ApiError::KeyLimitReached { .. } | ApiError::Conflict(_) => 409,
            ApiError::UnsupportedMediaType { .. } => 415,
            ApiError::ValidationFailed { .. } => 422,
            ApiError::RateLimited { .. } => 429,
            ApiError::UnknownRegion { .. }
            | ApiError::UnknownDataset(_)
            | ApiError::NotFound(_) => 404,
            ApiError::MethodNotAllowed { .. } => 405,
            ApiError::PayloadTooLarge { .. } => 413,
            ApiError::RequestTimeout { .. } => 408,
            ApiError::Unavailable => 503,
            ApiError::Internal(_) => 500,
            ApiError::NotImplemented(_) => 501,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::InvalidParameter { .. } => "invalid_parameter",
            ApiError::InvalidRequest(_) => "invalid_request",
            ApiError::MissingCredential => "missing_credential",
            ApiError::InvalidCredential | ApiError::LoginFailed => "invalid_credential",
            ApiError::InsufficientTier { .. } => "insufficient_tier",
            ApiError::Forbidden(_) => "forbidden",
            ApiError::KeyLimitReached { .. } => "key_limit_reached",
            ApiError::Conflict(_) => "conflict",
            ApiError::ValidationFailed { .. } => "validation_failed",
            ApiError::UnsupportedMediaType { .. } => "unsupported_media_type",
            ApiError::RateLimited { .. } => "rate_limit_exceeded",
            ApiError::UnknownRegion { .. } => "unknown_region",
            ApiError::UnknownDataset(_) => "unknown_dataset",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::RequestTimeout { .. } => "request_timeout",
            ApiError::Unavailable => "unavailable",
            ApiError::Internal(_) => "internal",
            ApiError::NotImplemented(_) => "not_implemented",
        }
    }

    /// RFC 9457 extension members, under `error.details`.
    pub fn details(&self) -> Option<Value> {
        match self {
            ApiError::InvalidParameter { parameter, .. } => Some(json!({ "parameter": parameter })),
            ApiError::UnknownRegion { code, suggestions } => {
                Some(json!({ "region": shown(code), "suggestions": suggestions }))
            }
            ApiError::UnknownDataset(code) => Some(json!({ "dataset": shown(code) })),
            ApiError::MethodNotAllowed { allow, .. } => Some(json!({ "allow": allow })),
            ApiError::PayloadTooLarge { limit } => Some(json!({ "limit_bytes": limit })),
            ApiError::RequestTimeout { seconds } => Some(json!({ "limit_seconds": seconds })),
            ApiError::InsufficientTier { required, current } => {
                Some(json!({ "required_tier": required, "current_tier": current }))
            }
            ApiError::KeyLimitReached { limit } => Some(json!({ "limit": limit })),
            ApiError::ValidationFailed { errors } => Some(json!({ "errors": errors })),
            ApiError::UnsupportedMediaType { expected } => Some(json!({ "expected": expected })),
            ApiError::RateLimited {
                retry_after,
                violated,
            } => Some(json!({ "retry_after": retry_after, "violated_policies": violated })),
            ApiError::NotFound(_)
            | ApiError::Unavailable
            | ApiError::Internal(_)
            | ApiError::InvalidRequest(_)
            | ApiError::MissingCredential
            | ApiError::InvalidCredential
            | ApiError::LoginFailed
            | ApiError::Forbidden(_)
            | ApiError::Conflict(_)
            | ApiError::NotImplemented(_) => None,
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
        ("rate_limit_exceeded", 429),
        ("unknown_region", 404),
        ("unknown_dataset", 404),
        ("not_found", 404),
        ("method_not_allowed", 405),
        ("payload_too_large", 413),
        ("request_timeout", 408),
        ("internal", 500),
        ("not_implemented", 501),
        ("unavailable", 503),
    ];
}

impl From<crate::store::StoreError> for ApiError {
    fn from(err: crate::store::StoreError) -> Self {
        match err {
            crate::store::StoreError::Busy => ApiError::Unavailable,
            crate::store::StoreError::Conflict(message) => ApiError::Conflict(message),
            crate::store::StoreError::LimitReached(limit) => ApiError::KeyLimitReached { limit },
            crate::store::StoreError::Other(e) => ApiError::Internal(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_quoted_short() {
        assert_eq!(shown("DE21"), "DE21");
        let long = "é".repeat(100);
        assert_eq!(shown(&long).chars().count(), SHOWN_CHARS + 1);
        let serde = format!(
            "unknown field `{}`, expected `email` or \"x{}\"",
            "a".repeat(500),
            "b".repeat(70)
        );
        let short = shorten_quotes(&serde);
        assert!(short.len() < 200, "{short}");
        assert!(short.contains("expected `email` or"), "{short}");
        assert!(short.ends_with("…\""), "{short}");
    }

    #[test]
    fn every_variant_maps_to_a_listed_code_and_status() {
        let samples = [
            ApiError::invalid("level", "bad"),
            ApiError::unknown_region("XX"),
            ApiError::UnknownDataset("x".into()),
            ApiError::NotFound("x".into()),
            ApiError::MethodNotAllowed {
                method: "PUT".into(),
                allow: "GET".into(),
            },
            ApiError::PayloadTooLarge { limit: 1 },
            ApiError::RequestTimeout { seconds: 1 },
            ApiError::Unavailable,
            ApiError::Internal(anyhow::anyhow!("secret detail")),
            ApiError::InvalidRequest("x".into()),
            ApiError::MissingCredential,
            ApiError::InvalidCredential,
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
            ApiError::ValidationFailed { errors: vec![] },
            ApiError::RateLimited {
                retry_after: 1,
                violated: vec!["key-minute"],
            },
            ApiError::NotImplemented("x".into()),
        ];
        for err in &samples {
            assert!(
                ApiError::CODES.contains(&(err.code(), err.status())),
                "{} {}",
                err.code(),
                err.status()
            );
        }
        assert_eq!(samples.len(), ApiError::CODES.len());
        assert_eq!(
            ApiError::LoginFailed.code(),
            ApiError::InvalidCredential.code()
        );
        // The internal cause never becomes the message.
        assert_eq!(samples[8].to_string(), "internal error");
    }
}
