//! Handlers: thin steps from a parsed request to a domain call to a [`Reply`]. They take the
//! parameters they know from [`Req::query`] and `finish()` it, so unknown parameters are errors.

pub mod account;
pub mod analytics;
pub mod briefings;
pub mod citations;
pub mod compare;
pub mod datasets;
pub mod explore;
pub mod meta;
pub mod pages;
pub mod private;
pub mod regions;
pub mod webhooks;

use std::cell::OnceCell;
use std::sync::Arc;

use hyper::body::Bytes;

use crate::auth::{Caller, Principal};
use crate::domain::Rejection;
use crate::http::error::ApiError;
use crate::reply::Reply;
use crate::runtime::slots::Refused;
use crate::state::AppState;
use crate::store::Scoped;

use super::query::Query;

/// What a handler gets: the state, path parameters, the query to take from, the caller, the
/// client's address key (see `client_addr::client_key`) and the body (empty for routes without one).
/// Owned, so blocking handlers can move it to a thread.
pub struct Req {
    pub state: Arc<AppState>,
    pub params: Vec<(&'static str, String)>,
    pub query: Query,
    pub principal: Principal,
    pub client: u128,
    /// The client takes gzip: a handler that streams may code its chunks.
    pub accepts_gzip: bool,
    pub body: Bytes,
    /// The caller's database connection: checked out by the pipeline without waiting for an
    /// inline handler, on first use for a blocking one.
    pub conn: OnceCell<Scoped>,
    /// The body's webhook URL and whether it leads where webhooks may go, found before the
    /// handler ran (routes that check one).
    pub checked_url: Option<(String, Result<(), crate::webhooks::url_checks::Unchecked>)>,
}

impl Req {
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

    /// A database connection that sees exactly what the caller may see. Inline handlers get the
    /// one the pipeline checked out; blocking ones check one out here (which may wait).
    pub fn store(&self) -> Result<&Scoped, ApiError> {
        if let Some(conn) = self.conn.get() {
            return Ok(conn);
        }
        let conn = self.state.scoped(self.principal.account_id())?;
        Ok(self.conn.get_or_init(|| conn))
    }

    /// Reads from here on as of the request's `as_of` (see [`Query::take_as_of`]), if it names
    /// one; the answer's `meta.as_of` then says what was read (see [`as_of_meta`]).
    pub fn read_as_of(&mut self) -> Result<(), ApiError> {
        let as_of = self.query.take_as_of(crate::runtime::clock::now_ms())?;
        if as_of.is_some() {
            self.store()?.read_as_of(as_of);
        }
        Ok(())
    }

    /// The connection, to move into a task that outlives the handler (a streamed export).
    pub fn take_store(&mut self) -> Result<Scoped, ApiError> {
        match self.conn.take() {
            Some(conn) => Ok(conn),
            None => Ok(self.state.scoped(self.principal.account_id())?),
        }
    }

    /// The authenticated caller; the route table guarantees one for routes that need it.
    pub fn caller(&self) -> Result<&Caller, ApiError> {
        match &self.principal {
            Principal::Account(caller) => Ok(caller),
            Principal::Anonymous => Err(ApiError::MissingCredential),
        }
    }

    /// The JSON body as `T`; unknown fields are refused (`deny_unknown_fields` on `T`).
    pub fn json_body<T: serde::de::DeserializeOwned>(&self) -> Result<T, ApiError> {
        serde_json::from_slice(&self.body).map_err(|e| {
            Rejection::invalid_at("#", crate::error_text::shorten_quotes(&e.to_string())).into()
        })
    }
}

pub type HandlerFn = fn(&mut Req) -> Result<Reply, ApiError>;

#[derive(Clone, Copy)]
pub enum Handler {
    /// Runs on the async worker: short reads through a connection checked out without waiting
    /// (WAL readers never wait for the writer). If none is free, it runs as a blocking one.
    Inline(HandlerFn),
    /// Runs on the blocking pool, a bounded number at a time: writes (which may wait for the
    /// database's one writer, e.g. during an import), password hashing, and CSV uploads (those
    /// under their upload slot).
    Blocking(HandlerFn),
    /// A read whose answer the client can make large (a page of 1,000 regions, a text search, an
    /// account's own datasets with all their series): milliseconds of work, so on the blocking
    /// pool, under permits of its own so it never queues behind imports and password hashing.
    Heavy(HandlerFn),
    /// A read that memory answers for a caller who sees public data only, and SQLite otherwise:
    /// a region search reads at most the public regions' index in memory (microseconds), or
    /// scans the caller's own view of regions (milliseconds). Runs as [`Handler::Inline`] for
    /// the first and as [`Handler::Heavy`] for the second: handing a short read to another
    /// thread and back cost more than the read.
    Indexed(HandlerFn),
    /// Runs on the async worker without a database connection: answers held in memory (the
    /// pages and their assets).
    Memory(HandlerFn),
}

/// Seconds a caller refused a slot is asked to wait: slots are held for the length of an upload or
/// export, which nothing predicts better.
const SLOT_RETRY_SECS: u64 = 5;

/// A refused slot (upload, export): the caller's own share in use is the caller's limit (429,
/// naming `policy`); every slot in use is the server's (503). Both ask to retry later.
pub fn slot_refused(refused: Refused, policy: &'static str) -> ApiError {
    match refused {
        Refused::Holder => ApiError::RateLimited {
            retry_after: SLOT_RETRY_SECS,
            violated: vec![policy],
        },
        Refused::Full => ApiError::Unavailable,
    }
}

/// An answer that shows a secret once: `view` with the secret under `field`, and a note saying
/// it will not be shown again. (The route is marked `secret`: never compressed, never stored.)
pub fn shown_once<V: serde::Serialize>(
    view: &V,
    field: &str,
    secret: &str,
    note: &str,
) -> Result<Reply, ApiError> {
    let mut data = serde_json::to_value(view).map_err(|e| ApiError::Internal(e.into()))?;
    data[field] = serde_json::json!(secret);
    data["note"] = serde_json::json!(note);
    json(&data, &serde_json::json!({}))
}

/// An answer whose `meta` is the citations and snapshots its `data` used.
pub fn cited<D: serde::Serialize>(
    data: &D,
    sources: crate::domain::Sources,
) -> Result<Reply, ApiError> {
    cited_text(crate::json_text::to_vec(data), sources)
}

/// A page of a list whose items cite sources: `data`, and `meta` with the page's fields
/// (`page_meta`) beside the citations.
pub fn cited_page<D: serde::Serialize>(
    data: &D,
    sources: crate::domain::Sources,
    page_meta: &serde_json::Value,
) -> Result<Reply, ApiError> {
    let data = crate::json_text::to_vec(data).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(Reply::text(data, sources.to_json_with(page_meta)))
}

/// [`cited`] for `data` already written as JSON text.
pub fn cited_text(
    data: serde_json::Result<Vec<u8>>,
    sources: crate::domain::Sources,
) -> Result<Reply, ApiError> {
    let data = data.map_err(|e| ApiError::Internal(e.into()))?;
    Ok(Reply::text(data, sources.to_json()))
}

/// `meta.as_of` of an answer read as of a moment: the moment (`at`) and its `basis`, and the
/// snapshot each dataset read was read as of (`datasets`), with its import and publication
/// times (`published_at` null where not known).
pub fn as_of_meta(store: &Scoped) -> Option<Vec<u8>> {
    use crate::domain::revisions::SnapshotRef;
    #[derive(serde::Serialize)]
    struct Dataset {
        dataset: String,
        #[serde(flatten)]
        snapshot: SnapshotRef,
    }
    #[derive(serde::Serialize)]
    struct AsOfMeta {
        at: String,
        basis: &'static str,
        datasets: Vec<Dataset>,
    }
    let as_of = store.as_of()?;
    let meta = AsOfMeta {
        at: crate::runtime::clock::rfc3339_millis(as_of.at_ms),
        basis: as_of.basis.as_str(),
        datasets: (store.resolved().into_iter())
            .map(|r| Dataset {
                snapshot: SnapshotRef::from(&r.snapshot),
                dataset: r.dataset,
            })
            .collect(),
    };
    crate::json_text::to_vec(&meta).ok()
}

/// Serialisation of our own types cannot fail; if it did, it is a bug to log, not a 400.
pub fn json<D: serde::Serialize, M: serde::Serialize>(
    data: &D,
    meta: &M,
) -> Result<Reply, ApiError> {
    Reply::json(data, meta).map_err(|e| ApiError::Internal(e.into()))
}
