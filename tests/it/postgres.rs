//! The store on PostgreSQL, against a throwaway database of the test cluster.

use regintel::store::postgres::testing::TestDatabase;
use std::time::Duration;

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

/// Two nodes on one PostgreSQL database share accounts, keys and private data: a key made
/// by the operator works on both; private data loaded through one is served by the other; a key
/// revoked through one is refused by the other within 5 seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_share_keys_and_private_data() {
    use crate::support::{Options, TestServer};
    use regintel::store::accounts::Tier;
    let a = TestServer::start_with(Options {
        postgres: true,
        ..Options::default()
    })
    .await;
    let b = a.second_node().await;
    let who = a.account("two-nodes@example.org", Tier::Institutional);
    let mine = [who.key_header()];
    for node in [&a, &b] {
        let r = node
            .client
            .get_with("/api/v1/regional/account/usage", &mine)
            .await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    }
    a.private_dataset(
        &who,
        serde_json::json!({"code": "shared_jobs", "title": "Jobs", "unit": "NR", "dimensions": ["sex"]}),
        "dataset_code,nuts_code,nuts_level,time,value,unit,flags,sex\nshared_jobs,DE21,2,2023,1300,NR,,T\n",
    )
    .await;
    let seen = b
        .eventually("/datasets/shared_jobs", &mine, 200, Duration::from_secs(5))
        .await;
    assert_eq!(seen.json()["data"]["observations"], 1, "{}", seen.json());
    // Revoked through A with a session: B refuses the key within 5 s.
    let session = a.login(&who).await;
    let bearer = format!("Bearer {session}");
    let r = a
        .call(
            "DELETE",
            &format!("/account/api-keys/{}", who.key_id),
            &[("authorization", &bearer)],
            b"",
        )
        .await;
    assert!(
        r.status == 200 || r.status == 204,
        "{}",
        String::from_utf8_lossy(&r.body)
    );
    let refused = b
        .eventually("/account/usage", &mine, 401, Duration::from_secs(5))
        .await;
    assert_eq!(refused.status, 401);
    b.stop().await.unwrap();
    a.stop().await.unwrap();
}
