//! Why a caller was not let in, or an operation on credentials failed. The HTTP layer gives each
//! its status, code and `WWW-Authenticate` challenge.

use crate::store::StoreError;

/// A credential or login refused. Never a downgrade to anonymous.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// Two credentials at once, or a scheme other than Bearer.
    #[error("{0}")]
    Ambiguous(&'static str),
    /// A malformed, unknown, revoked or expired key or token.
    #[error("the credential is not valid")]
    InvalidCredential,
    /// The same answer for an unknown email and a wrong password.
    #[error("invalid email or password")]
    LoginFailed,
}

#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// This address failed to log in to this email too often: it may try again in
    /// `retry_after` seconds.
    #[error("too many failed logins; retry in {retry_after} seconds")]
    Throttled { retry_after: u64 },
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A session token could not be signed.
    #[error("internal error")]
    Internal(#[source] anyhow::Error),
}
