//! Handlers: thin steps from a parsed request to a domain call to a [`Reply`]. They take the
//! parameters they know from [`Req::query`] and `finish()` it, so unknown parameters are errors.

pub mod citations;
pub mod compare;
pub mod datasets;
pub mod meta;
pub mod regions;

use crate::error::ApiError;
use crate::reply::Reply;
use crate::state::AppState;
use crate::store::Scoped;

use super::query::Query;

/// What a handler gets: the state, path parameters, the query to take from, and the caller.
pub struct Req<'a> {
    pub state: &'a AppState,
    pub params: &'a [(&'static str, String)],
    pub query: Query,
    /// The caller's account; None for anonymous callers.
    pub account: Option<i64>,
}

impl Req<'_> {
    pub fn param(&self, name: &str) -> &str {
        self.params
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
            .expect("the route template declares this parameter")
    }

    /// Fails on any query parameter the handler did not take.
    pub fn no_more_params(&mut self) -> Result<(), ApiError> {
        std::mem::take(&mut self.query).finish()
    }

    /// A database connection that sees exactly what the caller may see.
    pub fn store(&self) -> Result<Scoped, ApiError> {
        Ok(self.state.store.scoped(self.account)?)
    }
}

pub type Handler = fn(&mut Req) -> Result<Reply, ApiError>;

/// Serialisation of our own types cannot fail; if it did, it is a bug to log, not a 400.
pub fn json<D: serde::Serialize, M: serde::Serialize>(
    data: &D,
    meta: &M,
) -> Result<Reply, ApiError> {
    Reply::json(data, meta).map_err(|e| ApiError::Internal(e.into()))
}
