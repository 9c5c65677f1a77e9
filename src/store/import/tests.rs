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
