/// A request's transaction on PostgreSQL sets its account and its limits, all local to it.
#[test]
fn a_postgres_request_reads_under_time_limits() {
    let (_db, store) = super::webhooks::fixtures::postgres_store_with_accounts(1);
    let scoped = store.scoped(Some(1)).unwrap();
    let settings: (String, String, String) = scoped
        .sql()
        .query_row(
            "SELECT current_setting('regintel.account'), current_setting('statement_timeout'),
                        current_setting('idle_in_transaction_session_timeout')",
            sql::params![],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!(settings, ("1".into(), "1min".into(), "2min".into()));
}

use super::*;

#[test]
fn pooled_connections_have_wal_foreign_keys_and_busy_timeout() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), 2).unwrap();
    // Check out both connections, so the pool's second connection is tested too.
    let a = store.scoped(None).unwrap();
    let b = store.scoped(Some(1)).unwrap();
    for scoped in [&a, &b] {
        let db = scoped.db();
        let mode: String = db
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .unwrap();
        let fk: i64 = db
            .query_row("PRAGMA foreign_keys", [], |r| r.get(0))
            .unwrap();
        let busy: i64 = db
            .query_row("PRAGMA busy_timeout", [], |r| r.get(0))
            .unwrap();
        assert_eq!((mode.as_str(), fk, busy), ("wal", 1, 5000));
    }
}

#[test]
fn request_connections_read_protected_tables_only_through_views() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), 1).unwrap();
    let scoped = store.scoped(Some(1)).unwrap();
    let protected =
        crate::store::sqlite::pool::protected_tables(store.system().unwrap().db()).unwrap();
    for table in [
        "usage_daily",
        "api_keys",
        "store_meta",
        "account_generations",
    ] {
        assert!(protected.iter().any(|t| t == table), "{table} is protected");
    }
    for table in &protected {
        let direct = scoped.db().prepare(&format!("SELECT * FROM {table}"));
        assert!(direct.is_err(), "{table} readable directly");
    }
    for view in [
        "v_observations",
        "v_datasets",
        "v_api_keys",
        "v_accounts",
        "v_regions",
    ] {
        scoped
            .db()
            .prepare(&format!("SELECT * FROM {view}"))
            .unwrap();
    }
    // No writes at all, even to unprotected tables.
    assert!(scoped.db().prepare("DELETE FROM regions").is_err());
    assert!(
        scoped
            .db()
            .prepare("UPDATE store_meta SET value = 0")
            .is_err()
    );
    assert!(scoped.db().prepare("ATTACH 'x.db' AS x").is_err());
    // The system connection is not restricted.
    let system = store.system().unwrap();
    system.db().prepare("SELECT * FROM api_keys").unwrap();
}

#[test]
fn a_read_snapshot_sees_one_state_and_is_always_ended() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), 1).unwrap();
    let regions = |s: &Scoped| -> i64 {
        s.db()
            .query_row("SELECT count(*) FROM v_regions", [], |r| r.get(0))
            .unwrap()
    };
    let add_region = |code: &str| {
        store
            .system()
            .unwrap()
            .db()
            .execute(
                "INSERT INTO regions (code, level, country_code, classification)
                     VALUES (?1, 0, 'XX', 'NUTS')",
                [code],
            )
            .unwrap();
    };
    let scoped = store.scoped(None).unwrap();
    let snapshot = scoped.snapshot().unwrap();
    let before = regions(&scoped);
    add_region("XA");
    assert_eq!(regions(&scoped), before, "a commit is not seen inside");
    // Still a request connection: a transaction does not make it writable.
    assert!(scoped.db().prepare("DELETE FROM regions").is_err());
    // Nested, a snapshot changes nothing.
    drop(scoped.snapshot().unwrap());
    assert!(!scoped.db().is_autocommit());
    drop(snapshot);
    // Nor can it take the write lock.
    assert!(scoped.db().execute_batch("BEGIN IMMEDIATE").is_err());
    assert!(scoped.db().is_autocommit());
    assert!(
        store
            .lookup()
            .unwrap()
            .sql()
            .execute_batch("BEGIN EXCLUSIVE")
            .is_err()
    );
    assert_eq!(regions(&scoped), before + 1);
    assert!(scoped.db().is_autocommit());

    // A connection given back inside a transaction is not handed out again.
    scoped.db().execute_batch("BEGIN").unwrap();
    regions(&scoped);
    drop(scoped);
    add_region("XB");
    let next = store.scoped(None).unwrap();
    assert!(next.db().is_autocommit());
    assert_eq!(regions(&next), before + 2);
}

#[test]
fn current_account_follows_each_checkout() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(dir.path(), 1).unwrap();
    let account = |s: &Scoped| -> Option<i64> {
        s.db()
            .query_row("SELECT current_account()", [], |r| r.get(0))
            .unwrap()
    };
    let scoped = store.scoped(Some(42)).unwrap();
    assert_eq!(account(&scoped), Some(42));
    drop(scoped);
    // The pool has one connection: the same one comes back, bound to the new caller.
    assert_eq!(account(&store.scoped(None).unwrap()), None);
}
