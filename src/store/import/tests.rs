use super::*;

/// Each of an import's reads of rows searches an index of rows (the current rows', or the
/// withdrawals' for whether a dataset has any), in order, never the table and never sorting.
#[test]
fn an_imports_reads_of_rows_search_the_current_row_index() {
    let dir = tempfile::tempdir().unwrap();
    let store = crate::store::connections::Store::open(dir.path(), 1).unwrap();
    let conn = store.admin().unwrap();
    const CURRENT: &str = "observations_current";
    for (sql, params, index) in [
        (HAS_ROWS, params![1], CURRENT),
        (CURRENT_ROW, params!["DE21", 1, "2020"], CURRENT),
        (SERIES_STATS, params![1], CURRENT),
        (HAS_WITHDRAWALS, params![1], "observations_withdrawn"),
        (OLDER_CURRENT_ROWS, params![1, 2, "DE21", "2020"], CURRENT),
    ] {
        let plan: Vec<String> = conn
            .sql()
            .prepare(&format!("EXPLAIN QUERY PLAN {sql}"))
            .unwrap()
            .query_map(params, |r| r.get(3))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        let plan = plan.join("\n");
        let on_observations: Vec<&str> = plan
            .lines()
            .filter(|l| l.contains("observations"))
            .collect();
        assert!(!on_observations.is_empty(), "{plan}");
        for step in on_observations {
            assert!(
                step.starts_with("SEARCH") && step.contains(&format!("INDEX {index} ")),
                "{sql}: {plan}"
            );
        }
        assert!(!plan.contains("B-TREE FOR ORDER BY"), "{sql}: {plan}");
    }
    // A page of a snapshot's regions is a range of its index, in order: no sort.
    let plan: Vec<String> = conn
        .sql()
        .prepare(&format!("EXPLAIN QUERY PLAN {SNAPSHOT_REGIONS}"))
        .unwrap()
        .query_map(params![1, 0], |r| r.get(3))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(
        plan,
        ["SEARCH observations USING INDEX observations_snapshot (snapshot_id=? AND rowid>?)"]
    );
}

/// A snapshot's publication time is the end of Eurostat's "last update of data" day, or the
/// download where that came first (the data were out by then); none without a date.
#[test]
fn a_publication_time_is_the_day_end_or_the_download_if_earlier() {
    let dir = tempfile::tempdir().unwrap();
    let store = crate::store::connections::Store::open(dir.path(), 1).unwrap();
    let conn = store.admin().unwrap();
    let at = crate::runtime::clock::parse_rfc3339;
    for (origin, expected) in [
        (
            r#"{"last_update_of_data": "2026-11-20", "downloaded_at": "2026-11-28T09:00:00Z"}"#,
            at("2026-11-20T23:59:59.999Z"),
        ),
        (
            r#"{"last_update_of_data": "2026-11-28", "downloaded_at": "2026-11-28T09:00:00Z"}"#,
            at("2026-11-28T09:00:00Z"),
        ),
        (
            r#"{"last_update_of_data": "2026-11-28"}"#,
            at("2026-11-28T23:59:59.999Z"),
        ),
        (
            r#"{"type": "github", "that_commit_date": "2024-01-01T00:00:00Z"}"#,
            None,
        ),
    ] {
        let id: i64 = conn
            .sql()
            .query_row(
                "INSERT INTO sources (publisher, title, license, origin_json)
                 VALUES ('Eurostat', 't', 'l', ?1) RETURNING id",
                params![origin],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(published_at(&conn.sql(), id).unwrap(), expected, "{origin}");
    }
}
