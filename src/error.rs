//! Everything a request can fail with, and its one mapping to an HTTP status and a stable code.
//! `status()` and `code()` are exhaustive matches: a new variant does not compile until it has both.
//! Messages are written for the API user; internal causes are logged, never sent.

use serde_json::{Value, json};

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A query parameter is malformed or not allowed here (400, names the parameter).
    #[error("{message}")]
    InvalidParameter { parameter: String, message: String },
    #[error("no region with code {0}")]
    UnknownRegion(String),
    #[error("no dataset with code {0}")]
    UnknownDataset(String),
    /// Missing objects and routes; also someone else's object, so existence never leaks.
    #[error("{0}")]
    NotFound(String),
    #[error("method {method} is not allowed here")]
    MethodNotAllowed { method: String, allow: String },
    #[error("request body larger than {limit} bytes")]
    PayloadTooLarge { limit: u64 },
    /// The database is busy or the server is shutting down; the client may retry.
    #[error("service temporarily unavailable")]
    Unavailable,
    /// Anything unexpected. The cause goes to the log with the request id, not to the client.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl ApiError {
    pub fn invalid(parameter: &str, message: impl Into<String>) -> Self {
        ApiError::InvalidParameter {
            parameter: parameter.to_owned(),
            message: message.into(),
        }
    }

    pub fn status(&self) -> u16 {
        match self {
            ApiError::InvalidParameter { .. } => 400,
            ApiError::UnknownRegion(_) | ApiError::UnknownDataset(_) | ApiError::NotFound(_) => 404,
            ApiError::MethodNotAllowed { .. } => 405,
            ApiError::PayloadTooLarge { .. } => 413,
            ApiError::Unavailable => 503,
            ApiError::Internal(_) => 500,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::InvalidParameter { .. } => "invalid_parameter",
            ApiError::UnknownRegion(_) => "unknown_region",
            ApiError::UnknownDataset(_) => "unknown_dataset",
            ApiError::NotFound(_) => "not_found",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::Unavailable => "unavailable",
            ApiError::Internal(_) => "internal",
        }
    }

    /// RFC 9457 extension members, under `error.details`.
    pub fn details(&self) -> Option<Value> {
        match self {
            ApiError::InvalidParameter { parameter, .. } => Some(json!({ "parameter": parameter })),
            ApiError::UnknownRegion(code) => Some(json!({ "region": code })),
            ApiError::UnknownDataset(code) => Some(json!({ "dataset": code })),
            ApiError::MethodNotAllowed { allow, .. } => Some(json!({ "allow": allow })),
            ApiError::PayloadTooLarge { limit } => Some(json!({ "limit_bytes": limit })),
            ApiError::NotFound(_) | ApiError::Unavailable | ApiError::Internal(_) => None,
        }
    }

    /// Every code this enum can produce with its status, for the OpenAPI document and tests.
    pub const CODES: &'static [(&'static str, u16)] = &[
        ("invalid_parameter", 400),
        ("unknown_region", 404),
        ("unknown_dataset", 404),
        ("not_found", 404),
        ("method_not_allowed", 405),
        ("payload_too_large", 413),
        ("internal", 500),
        ("unavailable", 503),
    ];
}

impl From<crate::store::StoreError> for ApiError {
    fn from(err: crate::store::StoreError) -> Self {
        match err {
            crate::store::StoreError::Busy => ApiError::Unavailable,
            crate::store::StoreError::Other(e) => ApiError::Internal(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_maps_to_a_listed_code_and_status() {
        let samples = [
            ApiError::invalid("level", "bad"),
            ApiError::UnknownRegion("XX".into()),
            ApiError::UnknownDataset("x".into()),
            ApiError::NotFound("x".into()),
            ApiError::MethodNotAllowed {
                method: "PUT".into(),
                allow: "GET".into(),
            },
            ApiError::PayloadTooLarge { limit: 1 },
            ApiError::Unavailable,
            ApiError::Internal(anyhow::anyhow!("secret detail")),
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
        // The internal cause never becomes the message.
        assert_eq!(samples[7].to_string(), "internal error");
    }
}
