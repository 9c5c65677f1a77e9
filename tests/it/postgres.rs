//! The store on PostgreSQL, against a throwaway database of the test cluster.

use regintel::store::postgres::testing::TestDatabase;
use regintel::store::{Database, Store};

/// The bundled extract imports into PostgreSQL and reads back as it does from SQLite.
#[test]
fn the_bundled_extract_imports_and_reads_as_on_sqlite() {
    let db = TestDatabase::create();
    let dir = tempfile::tempdir().unwrap();
    let stores = [
        Store::open_with(
            &Database::Postgres(db.url()),
            2,
            1,
            regintel::config::defaults::DATABASE_WAIT,
        )
        .unwrap(),
        Store::open(dir.path(), 2).unwrap(),
    ];
    let catalogue = regintel::catalogue::Catalogue::bundled();
    let mut seen = Vec::new();
    for store in &stores {
        let report = regintel::import::import_bundled(
            store,
            &catalogue,
            &mut regintel::progress::Progress::hidden(),
        )
        .unwrap();
        let scoped = store.scoped(None).unwrap();
        let datasets: Vec<String> = scoped
            .datasets()
            .unwrap()
            .iter()
            .map(|d| d.code.clone())
            .collect();
        let rows = scoped.headline_rows("DE21").unwrap();
        seen.push((
            report.regions,
            datasets,
            rows.len(),
            rows.iter().map(|(_, r)| r.len()).sum::<usize>(),
        ));
    }
    assert!(seen[0].1.len() > 3, "{:?}", seen[0]);
    assert_eq!(seen[0], seen[1]);
}
