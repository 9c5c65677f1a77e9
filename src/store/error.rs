//! Database failures as request code sees them.

use super::sql;

/// Database failures as request code sees them: busy (retry later) or anything else.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database busy")]
    Busy,
    /// A uniqueness rule (email, dataset code) would be broken; the message says which.
    #[error("{0}")]
    Conflict(String),
    /// A count limit (active keys per tier) is reached.
    #[error("limit of {0} reached")]
    LimitReached(usize),
    #[error(transparent)]
    Other(anyhow::Error),
}

impl From<rusqlite::Error> for StoreError {
    fn from(err: rusqlite::Error) -> Self {
        match err.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                StoreError::Busy
            }
            _ => StoreError::Other(err.into()),
        }
    }
}

impl From<sql::SqlError> for StoreError {
    fn from(err: sql::SqlError) -> Self {
        match err {
            sql::SqlError::Sqlite(e) => e.into(),
            // Answered 503 with Retry-After, like a busy SQLite: PostgreSQL may be back soon,
            // and the pool replaces the connections it broke.
            e if e.is_unreachable() => StoreError::Busy,
            other => StoreError::Other(other.into()),
        }
    }
}

impl StoreError {
    /// An error of a write path written with anyhow: a store error stays what it is, a busy
    /// database stays busy (the client may retry), anything else is unexpected.
    pub fn from_anyhow(err: anyhow::Error) -> StoreError {
        let err = match err.downcast::<StoreError>() {
            Ok(e) => return e,
            Err(e) => e,
        };
        let err = match err.downcast::<sql::SqlError>() {
            Ok(e) => return e.into(),
            Err(e) => e,
        };
        match err.downcast::<rusqlite::Error>() {
            Ok(e) => e.into(),
            Err(e) => StoreError::Other(e),
        }
    }
}

pub type StoreResult<T> = Result<T, StoreError>;
