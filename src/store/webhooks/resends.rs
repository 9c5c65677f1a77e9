//! Sending again: a test event, one delivery resent, an endpoint's events replayed.

use crate::store::sql::{OptionalExtension, params};

use super::endpoint_state::{RESCHEDULE, disabled, ensure_enabled, url_key};
use super::events::{Audience, emit};
use crate::store::connections::System;
use crate::store::error::StoreResult;
use crate::webhooks::events;

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

impl System {
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
                "UPDATE webhook_deliveries SET next_attempt_at = CASE WHEN next_attempt_at < ?2 THEN next_attempt_at ELSE ?2 END
                 WHERE id = ?1",
                params![id, now],
            )?;
        } else {
            tx.execute(
                &format!(
                    "UPDATE webhook_deliveries SET {RESCHEDULE}, replayed = FALSE WHERE id = ?1"
                ),
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
            params![endpoint],
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
                 VALUES ('dlv_' || lower(hex(randomblob(12))), ?1, ?3, 'pending', ?2, ?2, TRUE)
                 ON CONFLICT (event_id, endpoint_id) DO UPDATE SET {RESCHEDULE}, replayed = TRUE
                 WHERE webhook_deliveries.status != 'pending'"
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
}

/// A delivery made due by [`System::resend`].
pub struct Resent {
    /// Its endpoint, whose breaker still decides when it goes.
    pub endpoint: i64,
    /// An attempt was under way: it was left as it is.
    pub under_way: bool,
}

#[cfg(test)]
mod tests {
    use super::super::fixtures::{HOOK, emit, on_each_backend, register, status_of};
    use super::*;

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
        on_each_backend(|store| {
            register(store, 1, "whk_a", r#"["dataset.updated"]"#, HOOK, "v1:s");
            for (i, id) in ["msg_1", "msg_2", "msg_3"].into_iter().enumerate() {
                emit(
                    store,
                    id,
                    "dataset.updated",
                    Audience::Account(1),
                    2_000 + i as i64,
                );
            }
            let mut system = store.system().unwrap();
            system
                .sql()
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
            assert_eq!(status_of(store, "msg_1", "whk_a"), "delivered", "not asked");
            assert_eq!(status_of(store, "msg_2", "whk_a"), "pending");
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
            assert_eq!(status_of(store, "msg_1", "whk_a"), "pending");
            // The hour is the destination's: an endpoint deleted and made again for the same URL
            // waits it out too; a replay that finds nothing to send takes its hour as well.
            system.delete_endpoint(1, "whk_a").unwrap();
            register(store, 1, "whk_a2", r#"["dataset.updated"]"#, HOOK, "v1:s");
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
                    store,
                    &format!("msg_b{i}"),
                    "dataset.updated",
                    Audience::Account(2),
                    5_000 + i as i64,
                );
            }
            register(store, 2, "whk_b", r#"["dataset.updated"]"#, HOOK, "v1:s");
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
                store,
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
        });
    }
}
