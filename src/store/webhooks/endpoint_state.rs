//! An endpoint's row, and what every write to endpoints and deliveries checks: the URL's key, a
//! receiver that answered 410 Gone, an endpoint disabled.

use crate::store::sql::{Db, OptionalExtension, Row, SqlResult, Tx, params};

use crate::store::connections::System;
use crate::store::error::StoreResult;
use crate::webhooks::egress::WebhookUrl;

/// Endpoints an account may register.
pub const MAX_ENDPOINTS_PER_ACCOUNT: i64 = 20;

/// An endpoint as its owner sees it: never its secret.
#[derive(Debug, Clone, PartialEq)]
pub struct EndpointRow {
    pub id: i64,
    pub public_id: String,
    pub url: String,
    pub description: String,
    /// JSON array of event type names.
    pub event_types: String,
    pub enabled: bool,
    pub disabled_reason: Option<String>,
    pub previous_secret_until: Option<i64>,
    pub breaker_state: String,
    pub consecutive_failures: i64,
    pub breaker_open_until: Option<i64>,
    pub breaker_trips: i64,
    pub failing_since: Option<i64>,
    pub created_at: i64,
}

pub(super) const ENDPOINT_COLUMNS: &str = "id, public_id, url, description, event_types, enabled,
    disabled_reason, previous_secret_until, breaker_state, consecutive_failures,
    breaker_open_until, breaker_trips, failing_since, created_at";

pub(super) fn endpoint_from_row(r: &Row) -> SqlResult<EndpointRow> {
    Ok(EndpointRow {
        id: r.get(0)?,
        public_id: r.get(1)?,
        url: r.get(2)?,
        description: r.get(3)?,
        event_types: r.get(4)?,
        enabled: r.get(5)?,
        disabled_reason: r.get(6)?,
        previous_secret_until: r.get(7)?,
        breaker_state: r.get(8)?,
        consecutive_failures: r.get(9)?,
        breaker_open_until: r.get(10)?,
        breaker_trips: r.get(11)?,
        failing_since: r.get(12)?,
        created_at: r.get(13)?,
    })
}

/// How long a URL whose receiver answered 410 Gone stays refused to its account's endpoints.
pub const GONE_FOR_MS: i64 = 30 * 24 * 3600 * 1000;

/// A URL in the form destinations are remembered by ([`WebhookUrl::key`]); as written when it
/// does not parse (it was checked when it was stored).
pub(super) fn url_key(url: &str) -> String {
    WebhookUrl::parse(url).map_or_else(|_| url.to_owned(), |u| u.key())
}

/// Refuses `url` for `account` while its receiver's 410 Gone holds.
pub(super) fn ensure_not_gone(conn: &Db<'_>, account: i64, url: &str, now: i64) -> StoreResult<()> {
    let gone_at: Option<i64> = conn
        .prepare_cached(
            "SELECT gone_at FROM webhook_destinations WHERE account_id = ?1 AND url_key = ?2",
        )?
        .query_row(params![account, url_key(url)], |r| r.get(0))
        .optional()?
        .flatten();
    match gone_at {
        Some(at) if now - at < GONE_FOR_MS => {
            Err(crate::store::error::StoreError::Conflict(format!(
                "the receiver at this URL answered 410 Gone on {}, asking never to be called again: no endpoint may name it before {}",
                crate::runtime::clock::rfc3339(at),
                crate::runtime::clock::rfc3339(at + GONE_FOR_MS)
            )))
        }
        _ => Ok(()),
    }
}

impl System {
    /// A write transaction on `account`'s endpoint `public_id`, with the endpoint's row id;
    /// None when the account has no such endpoint (another account's included).
    pub(super) fn endpoint_write(
        &mut self,
        account: i64,
        public_id: &str,
    ) -> StoreResult<Option<(Tx<'_>, i64)>> {
        let tx = self.transaction()?;
        let id = tx
            .prepare_cached(
                "SELECT id FROM webhook_endpoints WHERE public_id = ?1 AND account_id = ?2",
            )?
            .query_row(params![public_id, account], |r| r.get(0))
            .optional()?;
        Ok(id.map(|id| (tx, id)))
    }
}

/// The reason an endpoint is disabled after its receiver answered 410 Gone: it stays until the
/// URL changes, whatever else is done to the endpoint.
pub const GONE_REASON: &str = "the receiver answered 410 Gone";

/// Refuses to schedule deliveries to a disabled endpoint: nothing would send them.
pub(super) fn ensure_enabled(conn: &Db<'_>, endpoint: i64) -> StoreResult<()> {
    let enabled: bool = conn
        .prepare_cached("SELECT enabled FROM webhook_endpoints WHERE id = ?1")?
        .query_row(params![endpoint], |r| r.get(0))?;
    if enabled { Ok(()) } else { Err(disabled()) }
}

pub(super) fn disabled() -> crate::store::error::StoreError {
    crate::store::error::StoreError::Conflict(
        "the endpoint is disabled; enable it (PATCH status: enabled) first".into(),
    )
}

/// A delivery scheduled again from its first attempt at `?2` (the schedule's age counts from
/// then).
pub(super) const RESCHEDULE: &str = "status = 'pending', attempts = 0, next_attempt_at = ?2,
    scheduled_at = ?2, lease_until = NULL, last_status = NULL, last_error = NULL,
    delivered_at = NULL";

pub(super) fn endpoint_by_id(conn: &Db<'_>, id: i64) -> SqlResult<EndpointRow> {
    conn.prepare_cached(&format!(
        "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?1"
    ))?
    .query_row(params![id], endpoint_from_row)
}
