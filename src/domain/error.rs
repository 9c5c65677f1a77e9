//! What a question about the data, or a change to it, can fail with: a [`Rejection`] of what was
//! asked (the caller can fix it), the database, or something unexpected. The HTTP layer gives
//! each its status and code.

use crate::error_text::{FieldError, shown};
use crate::store::StoreError;

/// What was asked cannot be answered as asked. Messages quote input through [`shown`].
#[derive(Debug, thiserror::Error)]
pub enum Rejection {
    /// A parameter is malformed or not allowed here; names the parameter.
    #[error("{message}")]
    InvalidParameter { parameter: String, message: String },
    /// A well-formed body that says something invalid; `errors` lists every problem found, up
    /// to a bound past which `not_listed` counts them.
    #[error("the request body is not valid: {}", .errors.first().map(|e| format!("{}: {}", e.pointer, e.detail)).unwrap_or_default())]
    Invalid {
        errors: Vec<FieldError>,
        not_listed: usize,
    },
    /// With the closest known codes, when there are some.
    #[error("no region with code {}", shown(.code))]
    UnknownRegion {
        code: String,
        suggestions: Vec<String>,
    },
    #[error("no dataset with code {}", shown(.0))]
    UnknownDataset(String),
    /// A read as of a moment before the dataset's first snapshot (on the basis asked for).
    #[error("{message}")]
    NotHeldYet { dataset: String, message: String },
    /// Missing objects and routes; also someone else's object, so existence never leaks.
    #[error("{0}")]
    NotFound(String),
    /// A briefing type with no figure to state about the region; `available` lists the types
    /// that have some.
    #[error("{message}")]
    NothingToSay {
        message: String,
        available: Vec<&'static str>,
    },
}

impl Rejection {
    /// A bad parameter; `message` must quote input through [`shown`].
    pub fn invalid(parameter: &str, message: impl Into<String>) -> Self {
        Rejection::InvalidParameter {
            parameter: shown(parameter).into_owned(),
            message: message.into(),
        }
    }

    /// One problem at `pointer` (a JSON Pointer, or `line N` of a CSV body).
    pub fn invalid_at(pointer: impl Into<String>, detail: impl Into<String>) -> Self {
        Rejection::Invalid {
            errors: vec![FieldError {
                pointer: pointer.into(),
                detail: detail.into(),
            }],
            not_listed: 0,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Rejected(#[from] Rejection),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Anything unexpected (stored JSON that does not parse, a CSV writer failing).
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}

impl Error {
    pub fn internal(cause: impl Into<anyhow::Error>) -> Self {
        Error::Internal(cause.into())
    }
}
