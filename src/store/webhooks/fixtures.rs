//! Accounts, endpoints and attempt records for tests of the outbox.

use crate::store::sql::params;

use super::*;
use crate::store::connections::Store;
use crate::store::postgres::testing::TestDatabase;
use crate::webhooks::breaker::Breaker;

pub const HOOK: &str = "https://hooks.example.org/in";

/// A fresh store with institutional accounts 1 and 2.
pub fn store_with_accounts() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), 1).unwrap();
    add_accounts(&store);
    (dir, store)
}

/// A fresh PostgreSQL store with institutional accounts 1 and 2, and `pool` request
/// connections.
pub fn postgres_store_with_accounts(pool: u32) -> (TestDatabase, Store) {
    let db = TestDatabase::create();
    let store = Store::open_with(
        &crate::store::backend::Database::Postgres(db.url()),
        pool,
        1,
        crate::config::defaults::DATABASE_WAIT,
    )
    .unwrap();
    // A server derives it from its pepper.
    store.open_requests(&|_| "a test password".into()).unwrap();
    add_accounts(&store);
    (db, store)
}

/// Runs `test` on a fresh SQLite store, then on a fresh PostgreSQL store, each with
/// institutional accounts 1 and 2: the store's SQL is written once for both.
pub fn on_each_backend(test: impl Fn(&Store)) {
    let (_dir, store) = store_with_accounts();
    test(&store);
    eprintln!("passed on SQLite; now on PostgreSQL");
    let (_db, store) = postgres_store_with_accounts(1);
    test(&store);
}

fn add_accounts(store: &Store) {
    for (id, email) in [(1, "a@example.org"), (2, "b@example.org")] {
        add_account(store, id, email);
    }
}

/// An institutional account `id` with `email`.
pub fn add_account(store: &Store, id: i64, email: &str) {
    store
        .system()
        .unwrap()
        .sql()
        .execute(
            "INSERT INTO accounts (id, email, display_name, password_hash, tier, created_at)
             VALUES (?1, ?2, ?2, 'x', 'institutional', 0)",
            params![id, email],
        )
        .unwrap();
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
    enqueue(&system.sql(), &event, audience).unwrap()
}

/// The only delivery's status, attempts and next attempt time, and its attempts' statuses.
pub fn only_delivery(store: &Store) -> (String, i64, i64, Vec<Option<u16>>) {
    let system = store.system().unwrap();
    let (status, attempts, next) = system
        .sql()
        .query_row(
            "SELECT status, attempts, next_attempt_at FROM webhook_deliveries",
            params![],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    let codes = system
        .sql()
        .prepare("SELECT status_code FROM webhook_attempts ORDER BY id")
        .unwrap()
        .query_map(params![], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    (status, attempts, next, codes)
}

/// The status and attempts of every delivery.
pub fn every_delivery(store: &Store) -> Vec<(String, i64)> {
    store
        .system()
        .unwrap()
        .sql()
        .prepare("SELECT status, attempts FROM webhook_deliveries ORDER BY id")
        .unwrap()
        .query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The status, attempts and next attempt time of the delivery of event `id`.
pub fn delivery_of(store: &Store, id: &str) -> (String, i64, i64) {
    store
        .system()
        .unwrap()
        .sql()
        .query_row(
            "SELECT d.status, d.attempts, d.next_attempt_at FROM webhook_deliveries d
             JOIN webhook_events e ON e.id = d.event_id WHERE e.public_id = ?1",
            params![id],
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

/// The record of an attempt at 3,000 that the receiver at `url` answered with 410 Gone.
pub fn gone_at(
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

/// The status of the delivery of event `event` to endpoint `endpoint`.
pub fn status_of(store: &crate::store::connections::Store, event: &str, endpoint: &str) -> String {
    store
        .system()
        .unwrap()
        .sql()
        .query_row(
            "SELECT d.status FROM webhook_deliveries d
             JOIN webhook_events e ON e.id = d.event_id
             JOIN webhook_endpoints p ON p.id = d.endpoint_id
             WHERE e.public_id = ?1 AND p.public_id = ?2",
            params![event, endpoint],
            |r| r.get(0),
        )
        .unwrap()
}
