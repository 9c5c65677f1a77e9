//! Webhook endpoints and the durable outbox. Writes run on a [`System`] connection for the
//! account the caller names; an account reads its own endpoints, deliveries and attempts through
//! the `v_webhook_*` views. Events are enqueued with [`enqueue`] inside the transaction of the
//! change that caused them, so an event exists exactly when its change does.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, Row, params};

use super::{Scoped, StoreResult, System};
use crate::webhooks::breaker::{self, Breaker};
use crate::webhooks::egress::WebhookUrl;
use crate::webhooks::events;

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

const ENDPOINT_COLUMNS: &str = "id, public_id, url, description, event_types, enabled,
    disabled_reason, previous_secret_until, breaker_state, consecutive_failures,
    breaker_open_until, breaker_trips, failing_since, created_at";

fn endpoint_from_row(r: &Row) -> rusqlite::Result<EndpointRow> {
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

/// A new endpoint; its secret sealed for `public_id` by the caller.
pub struct NewEndpoint<'a> {
    pub public_id: &'a str,
    pub url: &'a str,
    pub description: &'a str,
    pub event_types: &'a str,
    pub secret_sealed: &'a str,
    pub now: i64,
}

/// Who receives an event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience {
    /// The subscribed endpoints of one account.
    Account(i64),
    /// Every account's subscribed endpoints (a change of public data).
    Everyone,
    /// One endpoint (row id) of one account, subscribed or not: a test event.
    Endpoint { account: i64, endpoint: i64 },
}

impl Audience {
    /// The account the event is for; None for everyone.
    fn account(self) -> Option<i64> {
        match self {
            Audience::Account(id) | Audience::Endpoint { account: id, .. } => Some(id),
            Audience::Everyone => None,
        }
    }
}

/// An event for the outbox: its id (the `webhook-id` header), type and exact body.
pub struct NewEvent<'a> {
    pub public_id: &'a str,
    pub event_type: &'a str,
    pub occurred_at: i64,
    pub payload: &'a [u8],
}

/// Writes `event` and one pending delivery, due now, for each enabled endpoint of `audience`
/// subscribed to its type, on `conn` (inside the caller's transaction). Returns the deliveries.
pub fn enqueue(
    conn: &Connection,
    event: &NewEvent<'_>,
    audience: Audience,
) -> rusqlite::Result<usize> {
    conn.prepare_cached(
        "INSERT INTO webhook_events (public_id, type, occurred_at, payload, account_id)
         VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        event.public_id,
        event.event_type,
        event.occurred_at,
        event.payload,
        audience.account()
    ])?;
    let event_id = conn.last_insert_rowid();
    let endpoint = match audience {
        Audience::Endpoint { endpoint, .. } => Some(endpoint),
        _ => None,
    };
    // Random delivery ids: rowids would tell an account how many events others had.
    conn.prepare_cached(
        "INSERT INTO webhook_deliveries (public_id, event_id, endpoint_id, status, next_attempt_at)
         SELECT 'dlv_' || lower(hex(randomblob(12))), ?1, p.id, 'pending', ?2
         FROM webhook_endpoints p JOIN accounts a ON a.id = p.account_id
         WHERE p.enabled AND NOT a.disabled AND (?3 IS NULL OR p.account_id = ?3)
           AND (?5 IS NULL AND EXISTS (SELECT 1 FROM json_each(p.event_types) WHERE value = ?4)
                OR p.id = ?5)",
    )?
    .execute(params![
        event_id,
        event.occurred_at,
        audience.account(),
        event.event_type,
        endpoint
    ])
}

/// Builds the event of `event_type` with `data` (see [`crate::webhooks::events`]) and enqueues
/// it for `audience` on `conn`, inside the caller's transaction. Returns the event's id.
pub fn emit<D: serde::Serialize>(
    conn: &Connection,
    event_type: &str,
    audience: Audience,
    data: &D,
) -> rusqlite::Result<String> {
    let id = events::message_id();
    let now = crate::clock::now_ms();
    let payload = events::envelope(&id, event_type, now, data);
    let event = NewEvent {
        public_id: &id,
        event_type,
        occurred_at: now,
        payload: &payload,
    };
    enqueue(conn, &event, audience)?;
    Ok(id)
}

/// A delivery a worker has claimed: everything one attempt needs.
#[derive(Debug, Clone)]
pub struct Claimed {
    pub delivery_id: i64,
    pub attempts: i64,
    pub event_public_id: String,
    /// When the delivery's schedule began (the event, or its resend or replay).
    pub scheduled_at: i64,
    pub payload: Vec<u8>,
    pub endpoint_id: i64,
    pub endpoint_public_id: String,
    pub url: String,
    pub secret_sealed: String,
    pub previous_secret_sealed: Option<String>,
    pub previous_secret_until: Option<i64>,
    pub account_id: i64,
}

/// How an attempt went, as recorded.
pub struct AttemptRecord {
    pub delivery_id: i64,
    pub at: i64,
    pub status_code: Option<u16>,
    pub latency_ms: i64,
    pub error: Option<String>,
    /// What becomes of the delivery.
    pub next: NextStep,
    /// What the attempt changed of its endpoint, saved in the same transaction.
    pub endpoint: Option<EndpointChange>,
}

/// An endpoint's breaker after an attempt, and the reason it is disabled, if it is; `url` is the
/// URL the attempt went to (the endpoint may have another by the time it is recorded, or be
/// gone), `account_id` its owner's.
pub struct EndpointChange {
    pub endpoint_id: i64,
    pub account_id: i64,
    pub breaker: Breaker,
    pub disable: Option<&'static str>,
    pub url: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NextStep {
    Delivered,
    /// Tried again at this time.
    RetryAt(i64),
    /// The schedule is spent, or the endpoint is gone.
    Failed,
    /// Not attempted (the breaker is open): due again at this time, no attempt spent.
    DeferTo(i64),
}

impl System {
    /// Deliveries waiting to be sent (for the metrics); the partial index of pending ones
    /// holds exactly these.
    pub fn pending_deliveries(&self) -> StoreResult<i64> {
        Ok(self.db().query_row(
            "SELECT count(*) FROM webhook_deliveries INDEXED BY webhook_deliveries_pending
             WHERE status = 'pending'",
            [],
            |r| r.get(0),
        )?)
    }

    /// Registers an endpoint for `account`, unless it has [`MAX_ENDPOINTS_PER_ACCOUNT`].
    pub fn insert_endpoint(
        &mut self,
        account: i64,
        new: &NewEndpoint<'_>,
    ) -> StoreResult<EndpointRow> {
        let tx = self.transaction()?;
        let count: i64 = tx
            .prepare_cached("SELECT count(*) FROM webhook_endpoints WHERE account_id = ?1")?
            .query_row([account], |r| r.get(0))?;
        if count >= MAX_ENDPOINTS_PER_ACCOUNT {
            return Err(super::StoreError::LimitReached(
                MAX_ENDPOINTS_PER_ACCOUNT as usize,
            ));
        }
        ensure_not_gone(&tx, account, new.url, new.now)?;
        tx.prepare_cached(
            "INSERT INTO webhook_endpoints (public_id, account_id, url, description, event_types,
                                            secret_sealed, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(params![
            new.public_id,
            account,
            new.url,
            new.description,
            new.event_types,
            new.secret_sealed,
            new.now
        ])?;
        let row = endpoint_by_id(&tx, tx.last_insert_rowid())?;
        tx.commit()?;
        Ok(row)
    }

    /// Removes an endpoint of `account` with its deliveries and their attempts; its row id, or
    /// None when the account has no such endpoint.
    pub fn delete_endpoint(&mut self, account: i64, public_id: &str) -> StoreResult<Option<i64>> {
        let Some((tx, id)) = self.endpoint_write(account, public_id)? else {
            return Ok(None);
        };
        tx.execute(
            "DELETE FROM webhook_attempts WHERE delivery_id IN
                 (SELECT id FROM webhook_deliveries WHERE endpoint_id = ?1)",
            [id],
        )?;
        tx.execute(
            "DELETE FROM webhook_deliveries WHERE endpoint_id = ?1",
            [id],
        )?;
        tx.execute("DELETE FROM webhook_endpoints WHERE id = ?1", [id])?;
        tx.commit()?;
        Ok(Some(id))
    }

    /// Takes up to `limit` due deliveries of enabled endpoints of enabled accounts, at most
    /// `per_endpoint` of one endpoint and `per_account` of one account (so one backlog cannot
    /// fill a claim), oldest due first, a replay's after the rest, and holds them until
    /// `now + lease_ms`: another worker (or this one after a crash) takes them again only when
    /// the lease has run out.
    ///
    /// Each endpoint's first due deliveries come from its own index ranges (the new ones, then
    /// the replayed ones), so a claim costs endpoints × `per_endpoint` index reads however long
    /// the backlog is.
    pub fn claim_due(
        &mut self,
        now: i64,
        lease_ms: i64,
        limit: usize,
        per_endpoint: usize,
        per_account: usize,
    ) -> StoreResult<Vec<Claimed>> {
        let tx = self.transaction()?;
        // (replayed, next attempt, delivery, account) of every endpoint's first due deliveries:
        // an account's new events go before what it asked to be replayed.
        let mut due: Vec<(bool, i64, i64, i64)> = Vec::new();
        {
            let mut endpoints = tx.prepare_cached(
                "SELECT p.id, p.account_id FROM webhook_endpoints p
                 JOIN accounts a ON a.id = p.account_id
                 WHERE p.enabled AND NOT a.disabled",
            )?;
            let mut first_due = tx.prepare_cached(
                "SELECT id, next_attempt_at
                 FROM webhook_deliveries INDEXED BY webhook_deliveries_pending
                 WHERE endpoint_id = ?1 AND status = 'pending' AND replayed = ?4
                   AND next_attempt_at <= ?2 AND (lease_until IS NULL OR lease_until <= ?2)
                 ORDER BY next_attempt_at, id LIMIT ?3",
            )?;
            let endpoints: Vec<(i64, i64)> = endpoints
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<Result<_, _>>()?;
            for (endpoint, account) in endpoints {
                let mut room = per_endpoint;
                for replayed in [false, true] {
                    let rows = first_due
                        .query_map(params![endpoint, now, room as i64, replayed], |r| {
                            Ok((replayed, r.get(1)?, r.get(0)?, account))
                        })?;
                    for row in rows {
                        due.push(row?);
                        room -= 1;
                    }
                    if room == 0 {
                        break;
                    }
                }
            }
        }
        due.sort_unstable();
        let mut of_account: HashMap<i64, usize> = HashMap::new();
        let chosen = due
            .into_iter()
            .filter(|&(_, _, _, account)| {
                let taken = of_account.entry(account).or_default();
                *taken += 1;
                *taken <= per_account
            })
            .take(limit);
        let mut claimed = Vec::new();
        {
            let mut read = tx.prepare_cached(
                "SELECT d.id, d.attempts, e.public_id, coalesce(d.scheduled_at, e.occurred_at),
                        e.payload, p.id, p.public_id, p.url, p.secret_sealed,
                        p.previous_secret_sealed, p.previous_secret_until, p.account_id
                 FROM webhook_deliveries d
                 JOIN webhook_events e ON e.id = d.event_id
                 JOIN webhook_endpoints p ON p.id = d.endpoint_id
                 WHERE d.id = ?1",
            )?;
            let mut lease =
                tx.prepare_cached("UPDATE webhook_deliveries SET lease_until = ?2 WHERE id = ?1")?;
            for (_, _, delivery, _) in chosen {
                claimed.push(read.query_row([delivery], |r| {
                    Ok(Claimed {
                        delivery_id: r.get(0)?,
                        attempts: r.get(1)?,
                        event_public_id: r.get(2)?,
                        scheduled_at: r.get(3)?,
                        payload: r.get(4)?,
                        endpoint_id: r.get(5)?,
                        endpoint_public_id: r.get(6)?,
                        url: r.get(7)?,
                        secret_sealed: r.get(8)?,
                        previous_secret_sealed: r.get(9)?,
                        previous_secret_until: r.get(10)?,
                        account_id: r.get(11)?,
                    })
                })?);
                lease.execute(params![delivery, now + lease_ms])?;
            }
        }
        tx.commit()?;
        Ok(claimed)
    }

    /// Records attempts (or deferrals): each releases its delivery's lease and saves what the
    /// attempt changed of its endpoint. One transaction for all: the worker writes together
    /// what finished while it was writing before.
    pub fn record_attempts(&mut self, records: &[AttemptRecord]) -> StoreResult<()> {
        let tx = self.transaction()?;
        for record in records {
            record_attempt(&tx, record)?;
        }
        tx.commit()?;
        Ok(())
    }
}

/// Records one attempt in `tx`.
fn record_attempt(tx: &Connection, record: &AttemptRecord) -> StoreResult<()> {
    let (status, next_at, delivered_at, spent) = match record.next {
        NextStep::Delivered => ("delivered", None, Some(record.at), 1),
        NextStep::RetryAt(at) => ("pending", Some(at), None, 1),
        NextStep::Failed => ("failed", None, None, 1),
        NextStep::DeferTo(at) => ("pending", Some(at), None, 0),
    };
    let updated = tx
        .prepare_cached(
            "UPDATE webhook_deliveries
             SET status = ?2, next_attempt_at = coalesce(?3, next_attempt_at),
                 delivered_at = ?4, attempts = attempts + ?5, lease_until = NULL,
                 last_status = CASE WHEN ?5 = 1 THEN ?6 ELSE last_status END,
                 last_error = CASE WHEN ?5 = 1 THEN ?7 ELSE last_error END
             WHERE id = ?1",
        )?
        .execute(params![
            record.delivery_id,
            status,
            next_at,
            delivered_at,
            spent,
            record.status_code,
            record.error
        ])?;
    // No delivery to update: the endpoint was deleted while the attempt was under way, with its
    // deliveries. Nothing is left to record (an attempt naming the delivery would fail the whole
    // group's transaction, other accounts' attempts with it); a 410 still holds its URL.
    if updated == 0 {
        if let Some(change) = record
            .endpoint
            .as_ref()
            .filter(|c| c.disable == Some(GONE_REASON))
        {
            hold_gone_url(tx, change, record.at)?;
        }
        return Ok(());
    }
    if spent == 1 {
        tx.prepare_cached(
            "INSERT INTO webhook_attempts (delivery_id, attempted_at, status_code, latency_ms,
                                           error)
             VALUES (?1, ?2, ?3, ?4, ?5)",
        )?
        .execute(params![
            record.delivery_id,
            record.at,
            record.status_code,
            record.latency_ms,
            record.error
        ])?;
    }
    if let Some(change) = &record.endpoint {
        save_breaker(tx, change.endpoint_id, &change.breaker)?;
        match change.disable {
            Some(GONE_REASON) => hold_gone_url(tx, change, record.at)?,
            Some(reason) => disable_naming(tx, change, false, reason)?,
            None => {}
        }
    }
    Ok(())
}

/// The receiver asked never to be called again: every endpoint of the account that names its
/// URL (in any spelling) is disabled, and none may name it for [`GONE_FOR_MS`].
fn hold_gone_url(tx: &Connection, change: &EndpointChange, at: i64) -> StoreResult<()> {
    tx.prepare_cached(
        "INSERT INTO webhook_destinations (account_id, url_key, gone_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (account_id, url_key) DO UPDATE SET gone_at = excluded.gone_at",
    )?
    .execute(params![change.account_id, url_key(&change.url), at])?;
    disable_naming(tx, change, true, GONE_REASON)
}

/// Disables the changed endpoint (or, `every`, each endpoint of its account) while it still
/// names the URL the attempt went to, in any spelling: an attempt under way when its owner gave
/// a new one says nothing of the new receiver.
fn disable_naming(
    tx: &Connection,
    change: &EndpointChange,
    every: bool,
    reason: &str,
) -> StoreResult<()> {
    let key = url_key(&change.url);
    let naming: Vec<i64> = tx
        .prepare_cached(
            "SELECT id, url FROM webhook_endpoints
             WHERE account_id = ?1 AND enabled AND (?3 OR id = ?2)",
        )?
        .query_map(params![change.account_id, change.endpoint_id, every], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?
        .filter_map(|row| match row {
            Ok((id, url)) => (url_key(&url) == key).then_some(Ok(id)),
            Err(e) => Some(Err(e)),
        })
        .collect::<Result<_, _>>()?;
    let mut disable = tx.prepare_cached(
        "UPDATE webhook_endpoints SET enabled = 0, disabled_reason = ?2 WHERE id = ?1",
    )?;
    for id in naming {
        disable.execute(params![id, reason])?;
    }
    Ok(())
}

/// How long a URL whose receiver answered 410 Gone stays refused to its account's endpoints.
pub const GONE_FOR_MS: i64 = 30 * 24 * 3600 * 1000;

/// A URL in the form destinations are remembered by ([`WebhookUrl::key`]); as written when it
/// does not parse (it was checked when it was stored).
fn url_key(url: &str) -> String {
    WebhookUrl::parse(url).map_or_else(|_| url.to_owned(), |u| u.key())
}

/// Refuses `url` for `account` while its receiver's 410 Gone holds.
fn ensure_not_gone(conn: &Connection, account: i64, url: &str, now: i64) -> StoreResult<()> {
    let gone_at: Option<i64> = conn
        .prepare_cached(
            "SELECT gone_at FROM webhook_destinations WHERE account_id = ?1 AND url_key = ?2",
        )?
        .query_row(params![account, url_key(url)], |r| r.get(0))
        .optional()?
        .flatten();
    match gone_at {
        Some(at) if now - at < GONE_FOR_MS => Err(super::StoreError::Conflict(format!(
            "the receiver at this URL answered 410 Gone on {}, asking never to be called again: no endpoint may name it before {}",
            crate::clock::rfc3339(at),
            crate::clock::rfc3339(at + GONE_FOR_MS)
        ))),
        _ => Ok(()),
    }
}

impl System {
    /// An endpoint's breaker as last saved.
    pub fn breaker(&self, endpoint_id: i64) -> StoreResult<Breaker> {
        let mut stmt = self.db().prepare_cached(
            "SELECT breaker_state, consecutive_failures, breaker_open_until, breaker_trips,
                    failing_since, breaker_version
             FROM webhook_endpoints WHERE id = ?1",
        )?;
        let found = stmt
            .query_row([endpoint_id], |r| {
                Ok(Breaker {
                    state: breaker::State::parse(&r.get::<_, String>(0)?)
                        .unwrap_or(breaker::State::Closed),
                    consecutive_failures: r.get(1)?,
                    open_until: r.get(2)?,
                    trips: r.get(3)?,
                    failing_since: r.get(4)?,
                    probing: false,
                    version: r.get(5)?,
                })
            })
            .optional()?;
        Ok(found.unwrap_or_default())
    }
}

/// Saves an endpoint's breaker, so its state shows in the API and survives a restart, unless a
/// newer version of it was saved already.
fn save_breaker(conn: &Connection, endpoint_id: i64, b: &Breaker) -> rusqlite::Result<()> {
    conn.prepare_cached(
        "UPDATE webhook_endpoints
         SET breaker_state = ?2, consecutive_failures = ?3, breaker_open_until = ?4,
             breaker_trips = ?5, failing_since = ?6, breaker_version = ?7
         WHERE id = ?1 AND breaker_version < ?7",
    )?
    .execute(params![
        endpoint_id,
        b.state.as_str(),
        b.consecutive_failures,
        b.open_until,
        b.trips,
        b.failing_since,
        b.version
    ])?;
    Ok(())
}

impl System {
    /// A write transaction on `account`'s endpoint `public_id`, with the endpoint's row id;
    /// None when the account has no such endpoint (another account's included).
    fn endpoint_write(
        &mut self,
        account: i64,
        public_id: &str,
    ) -> StoreResult<Option<(rusqlite::Transaction<'_>, i64)>> {
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

/// What a `PATCH` changes of an endpoint; None leaves a field as it is.
#[derive(Default)]
pub struct EndpointPatch<'a> {
    pub url: Option<&'a str>,
    pub description: Option<&'a str>,
    /// JSON array of event type names.
    pub event_types: Option<&'a str>,
    /// Enabling clears the reason it was disabled (not a 410's: that takes a new URL); the
    /// breaker stays as it is.
    pub enabled: Option<bool>,
    /// When the change is made (unix ms): a 410's hold on a URL is counted from its answer.
    pub now: i64,
}

/// How far a reset moves an endpoint's breaker version: beyond every version the attempts under
/// way (a few per endpoint) may still save.
const RESET_VERSION_STEP: i64 = 1 << 20;

/// Events a replay sends at most: one call schedules a bounded amount of sending.
pub const MAX_REPLAY: usize = 1_000;
/// An endpoint is replayed at most once in this long (unix ms): a replay is a recovery, and
/// repeated ones would make the service send the same events again and again.
pub const REPLAY_EVERY_MS: i64 = 3_600_000;

/// How a replay went: the deliveries scheduled, and whether every event since the time was
/// reached (false: call again from `resume_from`).
#[derive(Debug, PartialEq, Eq)]
pub struct Replay {
    pub scheduled: usize,
    pub complete: bool,
    pub resume_from: Option<i64>,
}

/// What a replay call did: scheduled, or refused because the endpoint's last replay was less
/// than [`REPLAY_EVERY_MS`] ago (the next may start at `next_at`, unix ms).
#[derive(Debug, PartialEq, Eq)]
pub enum ReplayOutcome {
    Scheduled(Replay),
    TooSoon { next_at: i64 },
}

/// The reason an endpoint is disabled after its receiver answered 410 Gone: it stays until the
/// URL changes, whatever else is done to the endpoint.
pub const GONE_REASON: &str = "the receiver answered 410 Gone";

impl System {
    /// Changes an endpoint of `account`; None when it has no such endpoint.
    pub fn update_endpoint(
        &mut self,
        account: i64,
        public_id: &str,
        patch: &EndpointPatch<'_>,
    ) -> StoreResult<Option<EndpointRow>> {
        let Some((tx, id)) = self.endpoint_write(account, public_id)? else {
            return Ok(None);
        };
        let (url, reason): (String, Option<String>) = tx.query_row(
            "SELECT url, disabled_reason FROM webhook_endpoints WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        // The breaker's history and a 410 belong to the receiver at the URL: a new URL starts
        // afresh (closed, at a version above any an attempt under way may still save); disabling
        // and enabling again does not, so it cannot open the way to a failing or departed one.
        let new_url = patch.url.is_some_and(|u| url_key(u) != url_key(&url));
        if let Some(url) = patch.url.filter(|_| new_url) {
            ensure_not_gone(&tx, account, url, patch.now)?;
        }
        if new_url {
            tx.execute(
                "UPDATE webhook_endpoints
                 SET breaker_state = 'closed', consecutive_failures = 0, breaker_open_until = NULL,
                     breaker_trips = 0, failing_since = NULL,
                     breaker_version = breaker_version + ?2,
                     disabled_reason = CASE WHEN disabled_reason = ?3 THEN 'disabled after its previous URL answered 410 Gone' ELSE disabled_reason END
                 WHERE id = ?1",
                params![id, RESET_VERSION_STEP, GONE_REASON],
            )?;
        } else if patch.enabled == Some(true) && reason.as_deref() == Some(GONE_REASON) {
            return Err(super::StoreError::Conflict(
                "the receiver answered 410 Gone, asking never to be called again: give a new url to enable the endpoint".into(),
            ));
        }
        // Before `enabled` changes: only a change of state touches the reason.
        match patch.enabled {
            // Disabling keeps the reason of an endpoint disabled already (a 410, say).
            Some(false) => tx.execute(
                "UPDATE webhook_endpoints SET disabled_reason = 'disabled by its owner'
                 WHERE id = ?1 AND enabled",
                [id],
            )?,
            Some(true) => tx.execute(
                "UPDATE webhook_endpoints SET disabled_reason = NULL WHERE id = ?1 AND NOT enabled",
                [id],
            )?,
            None => 0,
        };
        tx.execute(
            "UPDATE webhook_endpoints
             SET url = coalesce(?2, url), description = coalesce(?3, description),
                 event_types = coalesce(?4, event_types), enabled = coalesce(?5, enabled)
             WHERE id = ?1",
            params![
                id,
                patch.url,
                patch.description,
                patch.event_types,
                patch.enabled
            ],
        )?;
        let row = endpoint_by_id(&tx, id)?;
        tx.commit()?;
        Ok(Some(row))
    }

    /// Makes `new_sealed` the endpoint's secret; the current one keeps signing beside it until
    /// `grace_until`. None when `account` has no such endpoint; a conflict while a previous
    /// secret is still in its grace period at `now`.
    pub fn rotate_secret(
        &mut self,
        account: i64,
        public_id: &str,
        new_sealed: &str,
        now: i64,
        grace_until: i64,
    ) -> StoreResult<Option<EndpointRow>> {
        let Some((tx, id)) = self.endpoint_write(account, public_id)? else {
            return Ok(None);
        };
        // A receiver may still verify with the previous secret until its grace ends: replacing
        // it now would drop deliveries signed for it.
        let previous_until: Option<i64> = tx.query_row(
            "SELECT previous_secret_until FROM webhook_endpoints WHERE id = ?1",
            [id],
            |r| r.get(0),
        )?;
        if previous_until.is_some_and(|until| until > now) {
            return Err(super::StoreError::Conflict(format!(
                "the previous secret still signs until {}; rotate again after that",
                crate::clock::rfc3339(previous_until.unwrap_or(now))
            )));
        }
        tx.execute(
            "UPDATE webhook_endpoints
             SET previous_secret_sealed = secret_sealed, previous_secret_until = ?3,
                 secret_sealed = ?2
             WHERE id = ?1",
            params![id, new_sealed, grace_until],
        )?;
        let row = endpoint_by_id(&tx, id)?;
        tx.commit()?;
        Ok(Some(row))
    }

    /// Emits a `webhook.test` event to one endpoint of `account` with `data`; its event id, or
    /// None when there is no such endpoint; a conflict when it is disabled.
    pub fn send_test_event<D: serde::Serialize>(
        &mut self,
        account: i64,
        public_id: &str,
        data: &D,
    ) -> StoreResult<Option<String>> {
        let Some((tx, endpoint)) = self.endpoint_write(account, public_id)? else {
            return Ok(None);
        };
        ensure_enabled(&tx, endpoint)?;
        let audience = Audience::Endpoint { account, endpoint };
        let id = emit(&tx, events::WEBHOOK_TEST, audience, data)?;
        tx.commit()?;
        Ok(Some(id))
    }

    /// Makes a delivery of `account` due now: a pending one (waiting for a retry) as it is, a
    /// delivered or failed one from its first attempt again; one being sent is left to its
    /// attempt. None when the account has no such delivery.
    pub fn resend(
        &mut self,
        account: i64,
        delivery: &str,
        now: i64,
    ) -> StoreResult<Option<Resent>> {
        let tx = self.transaction()?;
        let found: Option<(i64, String, bool, i64, Option<i64>)> = tx
            .query_row(
                "SELECT d.id, d.status, p.enabled, p.id, d.lease_until FROM webhook_deliveries d
                 JOIN webhook_endpoints p ON p.id = d.endpoint_id
                 WHERE d.public_id = ?1 AND p.account_id = ?2",
                params![delivery, account],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
            )
            .optional()?;
        let Some((id, status, enabled, endpoint, lease)) = found else {
            return Ok(None);
        };
        if !enabled {
            return Err(disabled());
        }
        let under_way = status == "pending" && lease.is_some_and(|until| until > now);
        if under_way {
            // Being sent: its outcome stands (a failure is retried on the schedule).
        } else if status == "pending" {
            // Waiting for a retry: due now, its attempts so far kept.
            tx.execute(
                "UPDATE webhook_deliveries SET next_attempt_at = min(next_attempt_at, ?2)
                 WHERE id = ?1",
                params![id, now],
            )?;
        } else {
            tx.execute(
                &format!("UPDATE webhook_deliveries SET {RESCHEDULE}, replayed = 0 WHERE id = ?1"),
                params![id, now],
            )?;
        }
        tx.commit()?;
        Ok(Some(Resent {
            endpoint,
            under_way,
        }))
    }

    /// Sends one endpoint of `account` every event since `since` (unix ms) that the account
    /// received or would have received by the endpoint's current subscription (test events,
    /// which were for one endpoint each, left out), oldest first, at most [`MAX_REPLAY`]:
    /// events whose delivery to the endpoint failed or never was, and with `include_delivered`
    /// those it received too; deliveries pending already stay as they are. At most once in
    /// [`REPLAY_EVERY_MS`] per destination URL of the account. None when there is no such
    /// endpoint.
    pub fn replay(
        &mut self,
        account: i64,
        public_id: &str,
        since: i64,
        include_delivered: bool,
        now: i64,
    ) -> StoreResult<Option<ReplayOutcome>> {
        let Some((tx, endpoint)) = self.endpoint_write(account, public_id)? else {
            return Ok(None);
        };
        ensure_enabled(&tx, endpoint)?;
        // Once an hour per destination: an endpoint deleted and made again for the same URL
        // does not start a new hour.
        let url: String = tx.query_row(
            "SELECT url FROM webhook_endpoints WHERE id = ?1",
            [endpoint],
            |r| r.get(0),
        )?;
        let destination = url_key(&url);
        let last: Option<i64> = tx
            .query_row(
                "SELECT last_replay_at FROM webhook_destinations
                 WHERE account_id = ?1 AND url_key = ?2",
                params![account, destination],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        if let Some(last) = last.filter(|last| now - last < REPLAY_EVERY_MS) {
            return Ok(Some(ReplayOutcome::TooSoon {
                next_at: last + REPLAY_EVERY_MS,
            }));
        }
        let events: Vec<(i64, i64)> = tx
            .prepare_cached(
                "SELECT e.id, e.occurred_at FROM webhook_events e, webhook_endpoints p
                 WHERE p.id = ?1 AND e.occurred_at >= ?2
                   AND (e.account_id IS NULL OR e.account_id = ?3) AND e.type != 'webhook.test'
                   AND EXISTS (SELECT 1 FROM json_each(p.event_types) WHERE value = e.type)
                   AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d
                                   WHERE d.event_id = e.id AND d.endpoint_id = p.id
                                     AND (d.status = 'pending'
                                          OR (d.status = 'delivered' AND NOT ?5)))
                 ORDER BY e.occurred_at, e.id LIMIT ?4",
            )?
            .query_map(
                params![
                    endpoint,
                    since,
                    account,
                    MAX_REPLAY as i64 + 1,
                    include_delivered
                ],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?
            .collect::<Result<_, _>>()?;
        let complete = events.len() <= MAX_REPLAY;
        let resume_from = (!complete).then(|| events[MAX_REPLAY].1);
        let mut scheduled = 0;
        {
            let mut upsert = tx.prepare_cached(&format!(
                "INSERT INTO webhook_deliveries (public_id, event_id, endpoint_id, status,
                                                 next_attempt_at, scheduled_at, replayed)
                 VALUES ('dlv_' || lower(hex(randomblob(12))), ?1, ?3, 'pending', ?2, ?2, 1)
                 ON CONFLICT (event_id, endpoint_id) DO UPDATE SET {RESCHEDULE}, replayed = 1
                 WHERE status != 'pending'"
            ))?;
            for (event, _) in events.iter().take(MAX_REPLAY) {
                scheduled += upsert.execute(params![event, now, endpoint])?;
            }
        }
        // Found events or not, the hour is taken: each replay reads up to 30 days of events.
        tx.execute(
            "INSERT INTO webhook_destinations (account_id, url_key, last_replay_at)
             VALUES (?1, ?2, ?3)
             ON CONFLICT (account_id, url_key) DO UPDATE SET last_replay_at = excluded.last_replay_at",
            params![account, destination, now],
        )?;
        tx.commit()?;
        Ok(Some(ReplayOutcome::Scheduled(Replay {
            scheduled,
            complete,
            resume_from,
        })))
    }

    /// Removes deliveries whose schedule began before `before` (unix ms) with their attempts:
    /// finished ones, and pending ones too, which can never be sent (a message is given up 76
    /// hours after its schedule began); then events left without deliveries. Returns the events
    /// removed.
    pub fn purge_webhooks(&mut self, before: i64) -> StoreResult<usize> {
        let tx = self.transaction()?;
        const OLD: &str =
            "SELECT d.id FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
                           WHERE coalesce(d.scheduled_at, e.occurred_at) < ?1";
        tx.execute(
            &format!("DELETE FROM webhook_attempts WHERE delivery_id IN ({OLD})"),
            [before],
        )?;
        tx.execute(
            &format!("DELETE FROM webhook_deliveries WHERE id IN ({OLD})"),
            [before],
        )?;
        let events = tx.execute(
            "DELETE FROM webhook_events WHERE occurred_at < ?1
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)",
            [before],
        )?;
        // What a destination said or was asked before then: its holds (an hour, and
        // [`GONE_FOR_MS`], as long as events are kept) have run out.
        tx.execute(
            "DELETE FROM webhook_destinations
             WHERE coalesce(last_replay_at, 0) < ?1 AND coalesce(gone_at, 0) < ?1",
            [before],
        )?;
        tx.commit()?;
        Ok(events)
    }
}

impl System {
    /// Frees every lease: at start, deliveries a previous run claimed and did not record (it
    /// was killed mid-send) are due again at once instead of when their leases run out. Sent
    /// again, they may arrive twice, as at-least-once delivery allows. Returns how many.
    pub fn release_leases(&mut self) -> StoreResult<usize> {
        Ok(self.db().execute(
            "UPDATE webhook_deliveries SET lease_until = NULL
             WHERE status = 'pending' AND lease_until IS NOT NULL",
            [],
        )?)
    }
}

/// Refuses to schedule deliveries to a disabled endpoint: nothing would send them.
fn ensure_enabled(conn: &Connection, endpoint: i64) -> StoreResult<()> {
    let enabled: bool = conn
        .prepare_cached("SELECT enabled FROM webhook_endpoints WHERE id = ?1")?
        .query_row([endpoint], |r| r.get(0))?;
    if enabled { Ok(()) } else { Err(disabled()) }
}

fn disabled() -> super::StoreError {
    super::StoreError::Conflict(
        "the endpoint is disabled; enable it (PATCH status: enabled) first".into(),
    )
}

/// A delivery made due by [`System::resend`].
pub struct Resent {
    /// Its endpoint, whose breaker still decides when it goes.
    pub endpoint: i64,
    /// An attempt was under way: it was left as it is.
    pub under_way: bool,
}

/// A delivery scheduled again from its first attempt at `?2` (the schedule's age counts from
/// then).
const RESCHEDULE: &str = "status = 'pending', attempts = 0, next_attempt_at = ?2,
    scheduled_at = ?2, lease_until = NULL, last_status = NULL, last_error = NULL,
    delivered_at = NULL";

fn endpoint_by_id(conn: &Connection, id: i64) -> rusqlite::Result<EndpointRow> {
    conn.prepare_cached(&format!(
        "SELECT {ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?1"
    ))?
    .query_row([id], endpoint_from_row)
}

/// Attempts listed per delivery at most: the latest (resends and replays add attempts to a
/// delivery without bound over its 30 days).
pub const MAX_LOGGED_ATTEMPTS: i64 = 20;

/// A delivery as its endpoint's owner sees it, with its latest attempts.
#[derive(Debug, Clone)]
pub struct DeliveryRow {
    pub public_id: String,
    pub event_public_id: String,
    pub event_type: String,
    pub occurred_at: i64,
    pub status: String,
    pub attempts: i64,
    pub next_attempt_at: i64,
    pub delivered_at: Option<i64>,
    pub log: Vec<AttemptRow>,
}

#[derive(Debug, Clone)]
pub struct AttemptRow {
    pub attempted_at: i64,
    pub status_code: Option<u16>,
    pub latency_ms: i64,
    pub error: Option<String>,
}

impl Scoped {
    /// The caller's endpoints, oldest first.
    pub fn my_endpoints(&self) -> StoreResult<Vec<EndpointRow>> {
        let mut stmt = self.db().prepare_cached(&format!(
            "SELECT {ENDPOINT_COLUMNS} FROM v_webhook_endpoints ORDER BY id"
        ))?;
        let rows = stmt.query_map([], endpoint_from_row)?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The caller's endpoint with this id; someone else's is None, like a missing one.
    pub fn my_endpoint(&self, public_id: &str) -> StoreResult<Option<EndpointRow>> {
        let mut stmt = self.db().prepare_cached(&format!(
            "SELECT {ENDPOINT_COLUMNS} FROM v_webhook_endpoints WHERE public_id = ?1"
        ))?;
        Ok(stmt.query_row([public_id], endpoint_from_row).optional()?)
    }

    /// The newest `limit` deliveries of the caller's endpoint `endpoint` (a public id), before
    /// the delivery `before` of the same endpoint (a page's last; none when it is no delivery of
    /// it) when given, each with its latest [`MAX_LOGGED_ATTEMPTS`] attempts.
    pub fn my_deliveries(
        &self,
        endpoint: &str,
        limit: usize,
        before: Option<&str>,
    ) -> StoreResult<Vec<DeliveryRow>> {
        // The page's end as a row id. The event's id is selected though unused: a query that
        // reads no column of a table joined inside a view is authorised as a direct read of it,
        // which request connections may not make.
        let before: Option<i64> = match before {
            None => None,
            Some(before) => Some(
                self.db()
                    .prepare_cached(
                        "SELECT id, event_public_id FROM v_webhook_deliveries
                         WHERE public_id = ?1 AND endpoint_public_id = ?2",
                    )?
                    .query_row([before, endpoint], |r| r.get(0))
                    .optional()?
                    .unwrap_or(0),
            ),
        };
        let mut deliveries: Vec<(i64, DeliveryRow)> = self
            .db()
            .prepare_cached(
                "SELECT id, public_id, event_public_id, type, occurred_at, status, attempts,
                        next_attempt_at, delivered_at
                 FROM v_webhook_deliveries
                 WHERE endpoint_public_id = ?1
                   AND (?3 IS NULL OR id < ?3)
                 ORDER BY id DESC LIMIT ?2",
            )?
            .query_map(params![endpoint, limit as i64, before], |r| {
                Ok((
                    r.get(0)?,
                    DeliveryRow {
                        public_id: r.get(1)?,
                        event_public_id: r.get(2)?,
                        event_type: r.get(3)?,
                        occurred_at: r.get(4)?,
                        status: r.get(5)?,
                        attempts: r.get(6)?,
                        next_attempt_at: r.get(7)?,
                        delivered_at: r.get(8)?,
                        log: Vec::new(),
                    },
                ))
            })?
            .collect::<Result<_, _>>()?;
        let mut attempts = self.db().prepare_cached(
            "SELECT attempted_at, status_code, latency_ms, error FROM
                 (SELECT id, attempted_at, status_code, latency_ms, error FROM v_webhook_attempts
                  WHERE delivery_id = ?1 ORDER BY id DESC LIMIT ?2)
             ORDER BY id",
        )?;
        for (id, delivery) in &mut deliveries {
            delivery.log = attempts
                .query_map(params![*id, MAX_LOGGED_ATTEMPTS], |r| {
                    Ok(AttemptRow {
                        attempted_at: r.get(0)?,
                        status_code: r.get(1)?,
                        latency_ms: r.get(2)?,
                        error: r.get(3)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
        }
        Ok(deliveries.into_iter().map(|(_, d)| d).collect())
    }
}

/// Accounts and endpoints for tests of the outbox.
#[cfg(test)]
pub(crate) mod fixtures {
    use super::*;
    use crate::store::Store;

    /// A fresh store with institutional accounts 1 and 2.
    pub fn store_with_accounts() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(dir.path(), 1).unwrap();
        let system = store.system().unwrap();
        for (id, email) in [(1, "a@example.org"), (2, "b@example.org")] {
            system
                .db()
                .execute(
                    "INSERT INTO accounts (id, email, display_name, password_hash, tier, created_at)
                     VALUES (?1, ?2, ?2, 'x', 'institutional', 0)",
                    params![id, email],
                )
                .unwrap();
        }
        drop(system);
        (dir, store)
    }

    /// Enqueues an event of `event_type` with a `{"type":...}` body for `audience`; the
    /// deliveries it made.
    pub fn emit(store: &Store, id: &str, event_type: &str, audience: Audience, at: i64) -> usize {
        let system = store.system().unwrap();
        let payload = format!(r#"{{"type":"{event_type}"}}"#);
        let event = NewEvent {
            public_id: id,
            event_type,
            occurred_at: at,
            payload: payload.as_bytes(),
        };
        enqueue(system.db(), &event, audience).unwrap()
    }

    /// The only delivery's status, attempts and next attempt time, and its attempts' statuses.
    pub fn only_delivery(store: &Store) -> (String, i64, i64, Vec<Option<u16>>) {
        let system = store.system().unwrap();
        let (status, attempts, next) = system
            .db()
            .query_row(
                "SELECT status, attempts, next_attempt_at FROM webhook_deliveries",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        let codes = system
            .db()
            .prepare("SELECT status_code FROM webhook_attempts ORDER BY id")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        (status, attempts, next, codes)
    }

    /// The status, attempts and next attempt time of the delivery of event `id`.
    pub fn delivery_of(store: &Store, id: &str) -> (String, i64, i64) {
        store
            .system()
            .unwrap()
            .db()
            .query_row(
                "SELECT d.status, d.attempts, d.next_attempt_at FROM webhook_deliveries d
                 JOIN webhook_events e ON e.id = d.event_id WHERE e.public_id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap()
    }

    pub fn register(
        store: &Store,
        account: i64,
        public_id: &str,
        types: &str,
        url: &str,
        secret_sealed: &str,
    ) -> EndpointRow {
        store
            .system()
            .unwrap()
            .insert_endpoint(
                account,
                &NewEndpoint {
                    public_id,
                    url,
                    description: "",
                    event_types: types,
                    secret_sealed,
                    now: 1_000,
                },
            )
            .unwrap()
    }
}

#[cfg(test)]
mod tests {
    use super::fixtures::{emit, register, store_with_accounts};
    use super::*;

    const HOOK: &str = "https://hooks.example.org/in";

    fn status_of(store: &crate::store::Store, event: &str, endpoint: &str) -> String {
        store
            .system()
            .unwrap()
            .db()
            .query_row(
                "SELECT d.status FROM webhook_deliveries d
                 JOIN webhook_events e ON e.id = d.event_id
                 JOIN webhook_endpoints p ON p.id = d.endpoint_id
                 WHERE e.public_id = ?1 AND p.public_id = ?2",
                [event, endpoint],
                |r| r.get(0),
            )
            .unwrap()
    }

    /// The record of an attempt at 3,000 that the receiver at `url` answered with 410 Gone.
    fn gone_at(
        delivery: i64,
        endpoint: i64,
        account: i64,
        url: &str,
        breaker: &Breaker,
    ) -> AttemptRecord {
        AttemptRecord {
            delivery_id: delivery,
            at: 3_000,
            status_code: Some(410),
            latency_ms: 1,
            error: None,
            next: NextStep::Failed,
            endpoint: Some(EndpointChange {
                endpoint_id: endpoint,
                account_id: account,
                breaker: breaker.clone(),
                disable: Some(GONE_REASON),
                url: url.to_owned(),
            }),
        }
    }

    fn scheduled(outcome: Option<ReplayOutcome>) -> Replay {
        match outcome {
            Some(ReplayOutcome::Scheduled(replay)) => replay,
            other => panic!("not scheduled: {other:?}"),
        }
    }

    /// A replay sends again what failed or never went, and what was delivered only when asked;
    /// once an hour per endpoint, at most [`MAX_REPLAY`] events a call.
    #[test]
    fn replays_are_bounded_and_resend_delivered_events_only_when_asked() {
        let (_dir, store) = store_with_accounts();
        register(&store, 1, "whk_a", r#"["dataset.updated"]"#, HOOK, "v1:s");
        for (i, id) in ["msg_1", "msg_2", "msg_3"].into_iter().enumerate() {
            emit(
                &store,
                id,
                "dataset.updated",
                Audience::Account(1),
                2_000 + i as i64,
            );
        }
        let mut system = store.system().unwrap();
        system
            .db()
            .execute_batch(
                "UPDATE webhook_deliveries SET status = 'delivered'
                  WHERE event_id = (SELECT id FROM webhook_events WHERE public_id = 'msg_1');
                 UPDATE webhook_deliveries SET status = 'failed'
                  WHERE event_id = (SELECT id FROM webhook_events WHERE public_id = 'msg_2');",
            )
            .unwrap();
        let now = 10_000;
        let first = scheduled(system.replay(1, "whk_a", 0, false, now).unwrap());
        assert_eq!((first.scheduled, first.complete), (1, true));
        assert_eq!(
            status_of(&store, "msg_1", "whk_a"),
            "delivered",
            "not asked"
        );
        assert_eq!(status_of(&store, "msg_2", "whk_a"), "pending");
        assert_eq!(
            system.replay(1, "whk_a", 0, true, now + 1_000).unwrap(),
            Some(ReplayOutcome::TooSoon {
                next_at: now + REPLAY_EVERY_MS
            })
        );
        let asked = scheduled(
            system
                .replay(1, "whk_a", 0, true, now + REPLAY_EVERY_MS)
                .unwrap(),
        );
        assert_eq!(
            asked.scheduled, 1,
            "msg_1; the pending ones stay as they are"
        );
        assert_eq!(status_of(&store, "msg_1", "whk_a"), "pending");
        // The hour is the destination's: an endpoint deleted and made again for the same URL
        // waits it out too; a replay that finds nothing to send takes its hour as well.
        system.delete_endpoint(1, "whk_a").unwrap();
        register(&store, 1, "whk_a2", r#"["dataset.updated"]"#, HOOK, "v1:s");
        assert!(matches!(
            system
                .replay(1, "whk_a2", 0, true, now + REPLAY_EVERY_MS + 1)
                .unwrap(),
            Some(ReplayOutcome::TooSoon { .. })
        ));
        let later = now + 2 * REPLAY_EVERY_MS;
        let nothing = scheduled(system.replay(1, "whk_a2", later, false, later).unwrap());
        assert_eq!(nothing.scheduled, 0);
        assert!(matches!(
            system.replay(1, "whk_a2", 0, false, later).unwrap(),
            Some(ReplayOutcome::TooSoon { .. })
        ));

        // An endpoint made after the events: every one is new to it, a thousand a call.
        for i in 0..MAX_REPLAY + 5 {
            emit(
                &store,
                &format!("msg_b{i}"),
                "dataset.updated",
                Audience::Account(2),
                5_000 + i as i64,
            );
        }
        register(&store, 2, "whk_b", r#"["dataset.updated"]"#, HOOK, "v1:s");
        let bounded = scheduled(system.replay(2, "whk_b", 0, false, now).unwrap());
        assert_eq!(
            bounded,
            Replay {
                scheduled: MAX_REPLAY,
                complete: false,
                resume_from: Some(5_000 + MAX_REPLAY as i64)
            }
        );
        // Its deliveries come after the account's new events.
        emit(
            &store,
            "msg_new",
            "dataset.updated",
            Audience::Account(2),
            now,
        );
        let claimed = system.claim_due(now, 60_000, 10, 4, 100).unwrap();
        let of_b: Vec<&str> = claimed
            .iter()
            .filter(|c| c.endpoint_public_id == "whk_b")
            .map(|c| c.event_public_id.as_str())
            .collect();
        assert_eq!(of_b[0], "msg_new", "{of_b:?}");
    }

    /// Disabling and enabling keep the breaker's history, and an endpoint whose receiver
    /// answered 410 is enabled again only with a new URL, which starts afresh.
    #[test]
    fn breaker_and_410_survive_disable_and_enable_until_the_url_changes() {
        let (_dir, store) = store_with_accounts();
        let endpoint = register(&store, 1, "whk_a", r#"["webhook.test"]"#, HOOK, "v1:s").id;
        emit(&store, "msg_1", "webhook.test", Audience::Account(1), 2_000);
        let mut system = store.system().unwrap();
        let delivery = system.claim_due(2_000, 60_000, 10, 4, 100).unwrap()[0].delivery_id;
        let mut tripped = Breaker::default();
        for _ in 0..crate::webhooks::breaker::TRIP_AFTER {
            tripped.record(false, 3_000);
        }
        tripped.version = 1;
        let gone = |breaker: &Breaker| gone_at(delivery, endpoint, 1, HOOK, breaker);
        system.record_attempts(&[gone(&tripped)]).unwrap();
        let patch = |enabled: Option<bool>, url: Option<&'static str>| EndpointPatch {
            url,
            description: None,
            event_types: None,
            enabled,
            now: 4_000,
        };
        let refused = system.update_endpoint(1, "whk_a", &patch(Some(true), None));
        assert!(
            matches!(&refused, Err(super::super::StoreError::Conflict(m)) if m.contains("new url")),
            "{refused:?}"
        );
        assert_eq!(system.breaker(endpoint).unwrap().trips, tripped.trips);

        // Another reason: disable and enable keep the breaker as it was.
        system
            .db()
            .execute(
                "UPDATE webhook_endpoints SET disabled_reason = 'disabled by its owner'",
                [],
            )
            .unwrap();
        let row = system
            .update_endpoint(1, "whk_a", &patch(Some(true), None))
            .unwrap()
            .unwrap();
        assert!(row.enabled);
        assert_eq!((row.breaker_state.as_str(), row.breaker_trips), ("open", 1));

        // A new URL starts afresh.
        system.record_attempts(&[gone(&tripped)]).unwrap();
        let row = system
            .update_endpoint(
                1,
                "whk_a",
                &patch(Some(true), Some("https://hooks.example.org/new")),
            )
            .unwrap()
            .unwrap();
        assert!(row.enabled && row.disabled_reason.is_none(), "{row:?}");
        assert_eq!(
            (row.breaker_state.as_str(), row.breaker_trips),
            ("closed", 0)
        );

        // The URL that answered 410 stays refused to the account for 30 days, written in any
        // form, on a new endpoint too; another account may name it.
        let back = system.update_endpoint(
            1,
            "whk_a",
            &patch(None, Some("https://HOOKS.example.org./in?")),
        );
        assert!(
            matches!(&back, Err(super::super::StoreError::Conflict(m)) if m.contains("410 Gone")),
            "{back:?}"
        );
        let new = |public_id, now| NewEndpoint {
            public_id,
            url: HOOK,
            description: "",
            event_types: r#"["webhook.test"]"#,
            secret_sealed: "v1:s",
            now,
        };
        assert!(system.insert_endpoint(1, &new("whk_b", 4_000)).is_err());
        assert!(system.insert_endpoint(2, &new("whk_c", 4_000)).is_ok());
        assert!(
            system
                .insert_endpoint(1, &new("whk_d", 3_000 + GONE_FOR_MS))
                .is_ok()
        );
    }

    /// Attempts end after their endpoint changed: one deleted meanwhile spoils no other record
    /// of the group (another account's included) and its 410 still holds the URL; one whose URL
    /// was written another way is still disabled by its receiver's 410.
    #[test]
    fn an_attempt_recorded_after_its_endpoint_changed_or_went_spoils_nothing() {
        let (_dir, store) = store_with_accounts();
        let other = "https://b.example.org/in";
        let a = register(&store, 1, "whk_a", r#"["webhook.test"]"#, HOOK, "v1:s").id;
        let b = register(&store, 2, "whk_b", r#"["webhook.test"]"#, other, "v1:s").id;
        emit(&store, "msg_1", "webhook.test", Audience::Account(1), 2_000);
        emit(&store, "msg_2", "webhook.test", Audience::Account(2), 2_000);
        let mut system = store.system().unwrap();
        let claimed = system.claim_due(2_000, 60_000, 10, 4, 100).unwrap();
        let delivery_to = |endpoint| {
            claimed
                .iter()
                .find(|c| c.endpoint_id == endpoint)
                .unwrap()
                .delivery_id
        };
        let gone = |delivery, endpoint, account, url: &str| {
            gone_at(delivery, endpoint, account, url, &Breaker::default())
        };
        system.delete_endpoint(1, "whk_a").unwrap();
        let delivered = AttemptRecord {
            status_code: Some(204),
            next: NextStep::Delivered,
            endpoint: None,
            ..gone(delivery_to(b), b, 2, other)
        };
        system
            .record_attempts(&[gone(delivery_to(a), a, 1, HOOK), delivered])
            .unwrap();
        assert_eq!(status_of(&store, "msg_2", "whk_b"), "delivered");
        let again = NewEndpoint {
            public_id: "whk_a2",
            url: HOOK,
            description: "",
            event_types: r#"["webhook.test"]"#,
            secret_sealed: "v1:s",
            now: 4_000,
        };
        assert!(system.insert_endpoint(1, &again).is_err(), "the 410 holds");

        // Account 2 writes its URL another way while an attempt to it is under way.
        emit(&store, "msg_3", "webhook.test", Audience::Account(2), 5_000);
        let delivery = system.claim_due(5_000, 60_000, 10, 4, 100).unwrap()[0].delivery_id;
        let respelled = EndpointPatch {
            url: Some("https://B.example.org./in"),
            now: 5_500,
            ..EndpointPatch::default()
        };
        system.update_endpoint(2, "whk_b", &respelled).unwrap();
        system
            .record_attempts(&[gone(delivery, b, 2, other)])
            .unwrap();
        let row = &store.scoped(Some(2)).unwrap().my_endpoints().unwrap()[0];
        assert!(!row.enabled, "{row:?}");
    }

    #[test]
    fn events_reach_the_subscribed_endpoints_of_their_audience_only() {
        let (_dir, store) = store_with_accounts();
        register(
            &store,
            1,
            "whk_a1",
            r#"["api_key.created","dataset.updated"]"#,
            HOOK,
            "v1:sealed",
        );
        register(
            &store,
            1,
            "whk_a2",
            r#"["webhook.test"]"#,
            HOOK,
            "v1:sealed",
        );
        register(
            &store,
            2,
            "whk_b1",
            r#"["api_key.created","dataset.updated"]"#,
            HOOK,
            "v1:sealed",
        );
        assert_eq!(
            emit(
                &store,
                "msg_1",
                "api_key.created",
                Audience::Account(1),
                2_000
            ),
            1
        );
        assert_eq!(
            emit(
                &store,
                "msg_2",
                "dataset.updated",
                Audience::Everyone,
                2_000
            ),
            2
        );
        assert_eq!(
            emit(
                &store,
                "msg_3",
                "briefing.created",
                Audience::Everyone,
                2_000
            ),
            0
        );

        // At most `per_endpoint` of one endpoint in a claim; a disabled account gets nothing.
        for i in 0..6 {
            emit(
                &store,
                &format!("msg_a{i}"),
                "api_key.created",
                Audience::Account(1),
                2_000,
            );
        }
        let mut system = store.system().unwrap();
        // At most `per_account` of one account: account 1's backlog leaves room for account 2.
        let capped = system.claim_due(3_000, 1, 100, 4, 3).unwrap();
        let of_account = |a: i64| capped.iter().filter(|c| c.account_id == a).count();
        assert_eq!((of_account(1), of_account(2)), (3, 1));
        let claimed = system.claim_due(4_000, 60_000, 100, 4, 100).unwrap();
        let of = |id: &str| {
            claimed
                .iter()
                .filter(|c| c.endpoint_public_id == id)
                .count()
        };
        assert_eq!((of("whk_a1"), of("whk_b1")), (4, 1));
        system
            .db()
            .execute("UPDATE accounts SET disabled = 1 WHERE id = 2", [])
            .unwrap();
        drop(system);
        assert_eq!(
            emit(
                &store,
                "msg_4",
                "dataset.updated",
                Audience::Everyone,
                2_000
            ),
            1
        );
        let a = store.scoped(Some(1)).unwrap();
        let mine: Vec<String> = a
            .my_endpoints()
            .unwrap()
            .into_iter()
            .map(|e| e.public_id)
            .collect();
        assert_eq!(mine, ["whk_a1", "whk_a2"]);
        assert_eq!(a.my_endpoint("whk_b1").unwrap(), None, "another account's");
        drop(a);
        assert!(
            store
                .system()
                .unwrap()
                .delete_endpoint(1, "whk_b1")
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn claims_lease_deliveries_and_attempts_are_recorded() {
        let (_dir, store) = store_with_accounts();
        register(
            &store,
            1,
            "whk_a1",
            r#"["webhook.test"]"#,
            HOOK,
            "v1:sealed",
        );
        emit(&store, "msg_1", "webhook.test", Audience::Account(1), 2_000);
        let mut system = store.system().unwrap();
        assert!(
            system
                .claim_due(1_999, 60_000, 10, 4, 100)
                .unwrap()
                .is_empty(),
            "not due yet"
        );
        let claimed = system.claim_due(2_000, 60_000, 10, 4, 100).unwrap();
        assert_eq!(claimed.len(), 1);
        assert_eq!(claimed[0].event_public_id, "msg_1");
        assert_eq!(claimed[0].payload, br#"{"type":"webhook.test"}"#);
        assert!(
            system
                .claim_due(2_001, 60_000, 10, 4, 100)
                .unwrap()
                .is_empty(),
            "leased"
        );
        // A lease that ran out (the worker died) is claimable again.
        assert_eq!(
            system.claim_due(62_000, 60_000, 10, 4, 100).unwrap().len(),
            1
        );

        let id = claimed[0].delivery_id;
        let record = |next, status| AttemptRecord {
            delivery_id: id,
            at: 63_000,
            status_code: status,
            latency_ms: 12,
            error: None,
            next,
            endpoint: None,
        };
        system
            .record_attempts(&[record(NextStep::DeferTo(70_000), None)])
            .unwrap();
        system
            .record_attempts(&[record(NextStep::RetryAt(80_000), Some(500))])
            .unwrap();
        assert!(
            system
                .claim_due(79_999, 60_000, 10, 4, 100)
                .unwrap()
                .is_empty()
        );
        assert_eq!(
            system.claim_due(80_000, 60_000, 10, 4, 100).unwrap()[0].attempts,
            1,
            "deferral is free"
        );
        system
            .record_attempts(&[record(NextStep::Delivered, Some(204))])
            .unwrap();
        assert!(
            system
                .claim_due(i64::MAX, 60_000, 10, 4, 100)
                .unwrap()
                .is_empty()
        );
        let (attempts, status): (i64, String) = system
            .db()
            .query_row(
                "SELECT (SELECT count(*) FROM webhook_attempts), status FROM webhook_deliveries",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((attempts, status.as_str()), (2, "delivered"));

        // An attempt saves its endpoint's breaker and may disable it; disabling stops claims.
        let endpoint = claimed[0].endpoint_id;
        assert_eq!(system.breaker(endpoint).unwrap(), Breaker::default());
        let mut tripped = Breaker::default();
        for _ in 0..breaker::TRIP_AFTER {
            tripped.record(false, 90_000);
        }
        tripped.version = 1;
        emit(&store, "msg_2", "webhook.test", Audience::Account(1), 2_000);
        let second = system.claim_due(100_000, 60_000, 1, 4, 100).unwrap()[0].delivery_id;
        emit(&store, "msg_3", "webhook.test", Audience::Account(1), 2_000);
        system
            .record_attempts(&[AttemptRecord {
                delivery_id: second,
                at: 100_000,
                status_code: Some(410),
                latency_ms: 12,
                error: None,
                next: NextStep::Failed,
                endpoint: Some(EndpointChange {
                    endpoint_id: endpoint,
                    breaker: tripped.clone(),
                    disable: Some("410 Gone"),
                    url: HOOK.to_owned(),
                    account_id: 1,
                }),
            }])
            .unwrap();
        assert_eq!(system.breaker(endpoint).unwrap(), tripped);
        let listed = store.scoped(Some(1)).unwrap().my_endpoints().unwrap();
        assert_eq!(listed[0].breaker_state, "open");
        assert!(
            system
                .claim_due(i64::MAX, 60_000, 10, 4, 100)
                .unwrap()
                .is_empty()
        );
        let listed = store.scoped(Some(1)).unwrap().my_endpoints().unwrap();
        assert_eq!(
            (listed[0].enabled, listed[0].disabled_reason.as_deref()),
            (false, Some("410 Gone"))
        );

        assert!(system.delete_endpoint(1, "whk_a1").unwrap().is_some());
        assert!(
            store
                .scoped(Some(1))
                .unwrap()
                .my_endpoints()
                .unwrap()
                .is_empty()
        );
    }
}

#[cfg(test)]
mod management_tests {
    use super::fixtures::{emit, register, store_with_accounts};
    use super::*;

    /// Attempts end in any order: a state saved late never overwrites a newer one, and
    /// re-enabling an endpoint closes its breaker above whatever is still under way.
    #[test]
    fn an_older_breaker_state_saved_late_is_ignored() {
        let (_dir, store) = store_with_accounts();
        let row = register(
            &store,
            1,
            "whk_a1",
            r#"["webhook.test"]"#,
            "https://h.example/",
            "v1:s",
        );
        let mut system = store.system().unwrap();
        let save = |system: &mut System, failures: u32, version: i64| {
            let breaker = Breaker {
                consecutive_failures: failures,
                version,
                ..Breaker::default()
            };
            emit(
                &store,
                &format!("msg_{version}_{failures}"),
                "webhook.test",
                Audience::Account(1),
                1,
            );
            let c = system.claim_due(i64::MAX / 2, 1, 1, 1, 100).unwrap();
            system
                .record_attempts(&[AttemptRecord {
                    delivery_id: c[0].delivery_id,
                    at: 2,
                    status_code: Some(500),
                    latency_ms: 1,
                    error: None,
                    next: NextStep::Failed,
                    endpoint: Some(EndpointChange {
                        endpoint_id: row.id,
                        breaker,
                        disable: None,
                        url: String::new(),
                        account_id: 1,
                    }),
                }])
                .unwrap();
        };
        save(&mut system, 2, 2);
        save(&mut system, 1, 1);
        assert_eq!(system.breaker(row.id).unwrap().consecutive_failures, 2);
        let set_enabled = |system: &mut System, enabled| {
            let patch = EndpointPatch {
                enabled: Some(enabled),
                ..EndpointPatch::default()
            };
            system
                .update_endpoint(1, "whk_a1", &patch)
                .unwrap()
                .unwrap()
        };
        // Enabling an endpoint that is enabled is no way around its breaker.
        set_enabled(&mut system, true);
        assert_eq!(system.breaker(row.id).unwrap().consecutive_failures, 2);
        assert_eq!(
            set_enabled(&mut system, false).disabled_reason.as_deref(),
            Some("disabled by its owner")
        );
        // Nor is disabling and enabling it: the breaker belongs to the receiver at the URL.
        set_enabled(&mut system, true);
        assert_eq!(system.breaker(row.id).unwrap().consecutive_failures, 2);
        // A new URL closes it, above every version an attempt under way may still save.
        let patch = EndpointPatch {
            url: Some("https://elsewhere.example/"),
            ..EndpointPatch::default()
        };
        system
            .update_endpoint(1, "whk_a1", &patch)
            .unwrap()
            .unwrap();
        save(&mut system, 3, 3);
        let after = system.breaker(row.id).unwrap();
        assert_eq!(after.consecutive_failures, 0, "closed by the new URL");
        assert!(after.version > 3);
    }

    #[test]
    fn the_delivery_log_lists_deliveries_with_their_attempts() {
        let (_dir, store) = store_with_accounts();
        register(
            &store,
            1,
            "whk_a1",
            r#"["webhook.test"]"#,
            "https://h.example/",
            "v1:s",
        );
        emit(&store, "msg_1", "webhook.test", Audience::Account(1), 2_000);
        let mut system = store.system().unwrap();
        let c = system.claim_due(3_000, 60_000, 10, 4, 100).unwrap();
        system
            .record_attempts(&[AttemptRecord {
                delivery_id: c[0].delivery_id,
                at: 3_000,
                status_code: Some(500),
                latency_ms: 7,
                error: None,
                next: NextStep::RetryAt(9_000),
                endpoint: None,
            }])
            .unwrap();
        let log = store
            .scoped(Some(1))
            .unwrap()
            .my_deliveries("whk_a1", 10, None)
            .unwrap();
        assert_eq!(log.len(), 1);
        assert_eq!(log[0].log[0].status_code, Some(500));
        let first = log[0].public_id.clone();
        emit(&store, "msg_2", "webhook.test", Audience::Account(1), 2_500);
        let scoped = store.scoped(Some(1)).unwrap();
        let page = scoped.my_deliveries("whk_a1", 1, None).unwrap();
        assert_eq!(page[0].event_public_id, "msg_2", "newest first");
        let next = scoped
            .my_deliveries("whk_a1", 1, Some(&page[0].public_id))
            .unwrap();
        assert_eq!(next[0].public_id, first);
        assert!(
            scoped
                .my_deliveries("whk_a1", 10, Some("dlv_unknown"))
                .unwrap()
                .is_empty(),
            "an unknown page end is the end"
        );
        drop(scoped);
        assert!(
            store
                .scoped(Some(2))
                .unwrap()
                .my_deliveries("whk_a1", 10, None)
                .unwrap()
                .is_empty(),
            "another account's endpoint shows nothing"
        );
    }
}
