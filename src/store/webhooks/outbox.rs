//! The outbox's work: claiming due deliveries under a lease, recording attempts and what they
//! changed of their endpoints (breakers, 410 Gone), freeing leases and purging old deliveries.

use std::collections::HashMap;

use crate::store::sql::{Db, Dialect, OptionalExtension, SqlResult, params};

use super::endpoint_state::{GONE_REASON, url_key};
use crate::store::connections::System;
use crate::store::error::StoreResult;
use crate::webhooks::breaker::{self, Breaker};

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
        Ok(self.sql().query_row(
            "SELECT count(*) FROM webhook_deliveries INDEXED BY webhook_deliveries_pending
             WHERE status = 'pending'",
            params![],
            |r| r.get(0),
        )?)
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
            // On PostgreSQL, nodes claim at once: each skips the rows another's claim holds
            // (and sees its lease once that claim commits). SQLite's write lock lets one
            // claim run at a time.
            let mut first_due = tx.prepare_cached(match tx.dialect() {
                Dialect::Sqlite => {
                    "SELECT id, next_attempt_at
                     FROM webhook_deliveries INDEXED BY webhook_deliveries_pending
                     WHERE endpoint_id = ?1 AND status = 'pending' AND replayed = ?4
                       AND next_attempt_at <= ?2 AND (lease_until IS NULL OR lease_until <= ?2)
                     ORDER BY next_attempt_at, id LIMIT ?3"
                }
                Dialect::Postgres => {
                    "SELECT id, next_attempt_at FROM webhook_deliveries
                     WHERE endpoint_id = ?1 AND status = 'pending' AND replayed = ?4
                       AND next_attempt_at <= ?2 AND (lease_until IS NULL OR lease_until <= ?2)
                     ORDER BY next_attempt_at, id LIMIT ?3
                     FOR UPDATE SKIP LOCKED"
                }
            })?;
            let endpoints: Vec<(i64, i64)> = endpoints
                .query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?
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
                claimed.push(read.query_row(params![delivery], |r| {
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
fn record_attempt(tx: &Db<'_>, record: &AttemptRecord) -> StoreResult<()> {
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
fn hold_gone_url(tx: &Db<'_>, change: &EndpointChange, at: i64) -> StoreResult<()> {
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
    tx: &Db<'_>,
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
            Ok((r.get::<i64>(0)?, r.get::<String>(1)?))
        })?
        .filter_map(|row| match row {
            Ok((id, url)) => (url_key(&url) == key).then_some(Ok(id)),
            Err(e) => Some(Err(e)),
        })
        .collect::<Result<_, _>>()?;
    let mut disable = tx.prepare_cached(
        "UPDATE webhook_endpoints SET enabled = FALSE, disabled_reason = ?2 WHERE id = ?1",
    )?;
    for id in naming {
        disable.execute(params![id, reason])?;
    }
    Ok(())
}

impl System {
    /// An endpoint's breaker as last saved.
    pub fn breaker(&self, endpoint_id: i64) -> StoreResult<Breaker> {
        let mut stmt = self.sql().prepare_cached(
            "SELECT breaker_state, consecutive_failures, breaker_open_until, breaker_trips,
                    failing_since, breaker_version
             FROM webhook_endpoints WHERE id = ?1",
        )?;
        let found = stmt
            .query_row(params![endpoint_id], |r| {
                Ok(Breaker {
                    state: breaker::State::parse(&r.get::<String>(0)?)
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
fn save_breaker(conn: &Db<'_>, endpoint_id: i64, b: &Breaker) -> SqlResult<()> {
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
            params![before],
        )?;
        tx.execute(
            &format!("DELETE FROM webhook_deliveries WHERE id IN ({OLD})"),
            params![before],
        )?;
        let events = tx.execute(
            "DELETE FROM webhook_events WHERE occurred_at < ?1
               AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = webhook_events.id)",
            params![before],
        )?;
        // What a destination said or was asked before then: its holds (an hour, and
        // [`GONE_FOR_MS`], as long as events are kept) have run out.
        tx.execute(
            "DELETE FROM webhook_destinations
             WHERE coalesce(last_replay_at, 0) < ?1 AND coalesce(gone_at, 0) < ?1",
            params![before],
        )?;
        tx.commit()?;
        Ok(events)
    }
}

impl System {
    /// Frees every lease: at start, deliveries a previous run claimed and did not record (it
    /// was killed mid-send) are due again at once instead of when their leases run out. Sent
    /// again, they may arrive twice, as at-least-once delivery allows. Returns how many. On
    /// PostgreSQL nothing: the leases may be other nodes', sending now; a dead node's run out.
    pub fn release_leases(&mut self) -> StoreResult<usize> {
        if self.sql().dialect() == Dialect::Postgres {
            return Ok(0);
        }
        Ok(self.sql().execute(
            "UPDATE webhook_deliveries SET lease_until = NULL
             WHERE status = 'pending' AND lease_until IS NOT NULL",
            params![],
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{HOOK, emit, gone_at, on_each_backend, register, status_of};
    use super::super::*;
    use super::*;

    /// Attempts end after their endpoint changed: one deleted meanwhile spoils no other record
    /// of the group (another account's included) and its 410 still holds the URL; one whose URL
    /// was written another way is still disabled by its receiver's 410.
    #[test]
    fn an_attempt_recorded_after_its_endpoint_changed_or_went_spoils_nothing() {
        on_each_backend(|store| {
            let other = "https://b.example.org/in";
            let a = register(store, 1, "whk_a", r#"["webhook.test"]"#, HOOK, "v1:s").id;
            let b = register(store, 2, "whk_b", r#"["webhook.test"]"#, other, "v1:s").id;
            emit(store, "msg_1", "webhook.test", Audience::Account(1), 2_000);
            emit(store, "msg_2", "webhook.test", Audience::Account(2), 2_000);
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
            assert_eq!(status_of(store, "msg_2", "whk_b"), "delivered");
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
            emit(store, "msg_3", "webhook.test", Audience::Account(2), 5_000);
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
        });
    }

    #[test]
    fn claims_lease_deliveries_and_attempts_are_recorded() {
        on_each_backend(|store| {
            register(store, 1, "whk_a1", r#"["webhook.test"]"#, HOOK, "v1:sealed");
            emit(store, "msg_1", "webhook.test", Audience::Account(1), 2_000);
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
            .sql()
            .query_row(
                "SELECT (SELECT count(*) FROM webhook_attempts), status FROM webhook_deliveries",
                params![],
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
            emit(store, "msg_2", "webhook.test", Audience::Account(1), 2_000);
            let second = system.claim_due(100_000, 60_000, 1, 4, 100).unwrap()[0].delivery_id;
            emit(store, "msg_3", "webhook.test", Audience::Account(1), 2_000);
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
        });
    }

    /// Attempts end in any order: a state saved late never overwrites a newer one, and
    /// re-enabling an endpoint closes its breaker above whatever is still under way.
    #[test]
    fn an_older_breaker_state_saved_late_is_ignored() {
        on_each_backend(|store| {
            let row = register(
                store,
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
                    store,
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
        });
    }

    /// Two nodes claim from one PostgreSQL outbox at once: every delivery is claimed, none by
    /// both (each skips the rows the other's claim holds, and then sees its lease).
    #[test]
    fn nodes_claiming_at_once_on_postgres_never_take_the_same_delivery() {
        let (_db, store) = super::super::fixtures::postgres_store_with_accounts(1);
        for (i, account) in [(0, 1), (1, 1), (2, 2), (3, 2)] {
            register(
                &store,
                account,
                &format!("whk_{i}"),
                r#"["webhook.test"]"#,
                HOOK,
                "v1:s",
            );
        }
        let mut made = 0;
        for i in 0..250 {
            for account in [1, 2] {
                made += emit(
                    &store,
                    &format!("msg_{account}_{i}"),
                    "webhook.test",
                    Audience::Account(account),
                    2_000,
                );
            }
        }
        assert_eq!(made, 1_000);
        let claim_all = || {
            let mut system = store.system().unwrap();
            let mut claimed = Vec::new();
            loop {
                let batch = system.claim_due(3_000, 600_000, 20, 10, 20).unwrap();
                if batch.is_empty() {
                    return claimed;
                }
                claimed.extend(batch.into_iter().map(|c| c.delivery_id));
            }
        };
        let (a, b) = std::thread::scope(|s| {
            let a = s.spawn(claim_all);
            let b = s.spawn(claim_all);
            (a.join().unwrap(), b.join().unwrap())
        });
        assert!(
            !a.is_empty() && !b.is_empty(),
            "both nodes claimed: {} and {}",
            a.len(),
            b.len()
        );
        let mut all: Vec<i64> = a.into_iter().chain(b).collect();
        let claims = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(
            (claims, all.len()),
            (1_000, 1_000),
            "a delivery claimed twice, or missed"
        );
    }
}
