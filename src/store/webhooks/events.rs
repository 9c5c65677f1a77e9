//! Events and their deliveries, written in the transaction of the change that caused them.

use crate::store::sql::{Db, SqlResult, params};

use crate::webhooks::events;

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
pub fn enqueue(conn: &Db<'_>, event: &NewEvent<'_>, audience: Audience) -> SqlResult<usize> {
    let event_id: i64 = conn
        .prepare_cached(
            "INSERT INTO webhook_events (public_id, type, occurred_at, payload, account_id)
         VALUES (?1, ?2, ?3, ?4, ?5) RETURNING id",
        )?
        .query_row(
            params![
                event.public_id,
                event.event_type,
                event.occurred_at,
                event.payload,
                audience.account()
            ],
            |r| r.get(0),
        )?;
    let endpoint = match audience {
        Audience::Endpoint { endpoint, .. } => Some(endpoint),
        _ => None,
    };
    // Random delivery ids: rowids would tell an account how many events others had.
    conn.prepare_cached(
        "INSERT INTO webhook_deliveries (public_id, event_id, endpoint_id, status, next_attempt_at)
         SELECT 'dlv_' || lower(hex(randomblob(12))), ?1, p.id, 'pending', ?2
         FROM webhook_endpoints p JOIN accounts a ON a.id = p.account_id
         WHERE p.enabled AND NOT a.disabled AND (p.account_id = ?3 OR ?3 IS NULL)
           AND (p.id = ?5
                OR ?5 IS NULL AND EXISTS (SELECT 1 FROM json_each(p.event_types) WHERE value = ?4))",
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
    conn: &Db<'_>,
    event_type: &str,
    audience: Audience,
    data: &D,
) -> SqlResult<String> {
    let id = events::message_id();
    let now = crate::runtime::clock::now_ms();
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

#[cfg(test)]
mod tests {
    use super::super::fixtures::{HOOK, emit, on_each_backend, register};
    use super::*;

    #[test]
    fn events_reach_the_subscribed_endpoints_of_their_audience_only() {
        on_each_backend(|store| {
            register(
                store,
                1,
                "whk_a1",
                r#"["api_key.created","dataset.updated"]"#,
                HOOK,
                "v1:sealed",
            );
            register(store, 1, "whk_a2", r#"["webhook.test"]"#, HOOK, "v1:sealed");
            register(
                store,
                2,
                "whk_b1",
                r#"["api_key.created","dataset.updated"]"#,
                HOOK,
                "v1:sealed",
            );
            assert_eq!(
                emit(
                    store,
                    "msg_1",
                    "api_key.created",
                    Audience::Account(1),
                    2_000
                ),
                1
            );
            assert_eq!(
                emit(store, "msg_2", "dataset.updated", Audience::Everyone, 2_000),
                2
            );
            assert_eq!(
                emit(
                    store,
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
                    store,
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
                .sql()
                .execute(
                    "UPDATE accounts SET disabled = TRUE WHERE id = 2",
                    params![],
                )
                .unwrap();
            drop(system);
            assert_eq!(
                emit(store, "msg_4", "dataset.updated", Audience::Everyone, 2_000),
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
        });
    }
}
