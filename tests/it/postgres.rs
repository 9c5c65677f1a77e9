//! The store on PostgreSQL, against a throwaway database of the test cluster.

use crate::bounded::Bounded;

use regintel::store::postgres::testing::TestDatabase;
use std::time::Duration;

use regintel::store::{Database, Store};

use crate::support::BASE;

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
    // A server derives the request role's password from its pepper.
    stores[0]
        .open_requests(&|_| "a test password".into())
        .unwrap();
    let catalogue = regintel::bundled::Catalogue::bundled();
    let mut seen = Vec::new();
    for store in &stores {
        let report = regintel::import::import_bundled(
            store,
            &catalogue,
            &regintel::import::Room::default(),
            &mut regintel::runtime::progress::Progress::hidden(),
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
/// revoked through one is refused by the other from its next background round.
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
    // B reads the new data generation on its next background round.
    b.background_rounds(2).await;
    let seen = b
        .client
        .get_with(&format!("{BASE}/datasets/shared_jobs"), &mine)
        .await;
    assert_eq!(seen.json()["data"]["observations"], 1, "{}", seen.json());
    // Revoked through A with a session: B refuses the key from its next background round.
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
    b.background_rounds(2).await;
    let refused = b
        .client
        .get_with(&format!("{BASE}/account/usage"), &mine)
        .await;
    assert_eq!(refused.status, 401);
    b.stop().await.unwrap();
    a.stop().await.unwrap();
}

/// A PostgreSQL cluster of its own under a fresh directory the `postgres` user can reach:
/// stopping it must not stop the other tests' cluster.
struct OwnCluster {
    dir: tempfile::TempDir,
}

impl OwnCluster {
    fn script(&self, command: &str) {
        let cluster = self.dir.path().join("cluster");
        let status = std::process::Command::new("bash")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/postgres-cluster.sh"
            ))
            .arg(command)
            .arg(&cluster)
            .bounded_output()
            .status;
        assert!(status.success(), "postgres-cluster.sh {command}");
    }

    fn start() -> OwnCluster {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
        let cluster = OwnCluster { dir };
        cluster.script("start");
        cluster
    }

    fn socket(&self) -> String {
        self.dir.path().join("cluster/socket").display().to_string()
    }
}

impl Drop for OwnCluster {
    fn drop(&mut self) {
        self.script("stop");
    }
}

/// PostgreSQL down: `/readyz` and every request that needs it answer 503 with `Retry-After`;
/// back up, the server serves again without a restart (the pool replaces the connections the
/// outage broke).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_outage_of_postgresql_is_503_and_service_resumes_without_a_restart() {
    use crate::support::TestServer;
    use regintel::store::accounts::Tier;
    let cluster = tokio::task::spawn_blocking(OwnCluster::start)
        .await
        .unwrap();
    let socket = cluster.socket();
    let db = tokio::task::spawn_blocking(move || TestDatabase::create_in(&socket))
        .await
        .unwrap();
    let database = Database::Postgres(db.url());
    // One public dataset, so that the server is ready.
    let data = tempfile::tempdir().unwrap();
    let csv = data.path().join("tiny.csv");
    std::fs::write(
        &csv,
        "dataset_code,nuts_code,nuts_level,time,value,unit\ntiny,DE21,2,2023,1.5,NR\n",
    )
    .unwrap();
    let opened = database.clone();
    tokio::task::spawn_blocking(move || {
        let store =
            Store::open_with(&opened, 1, 1, regintel::config::defaults::DATABASE_WAIT).unwrap();
        regintel::import::import_files(
            &store,
            &regintel::bundled::Catalogue::bundled(),
            &[csv.as_path()],
            &regintel::import::Naming::default(),
            None,
            &regintel::import::Room::default(),
            &mut regintel::runtime::progress::Progress::hidden(),
        )
        .unwrap();
    })
    .await
    .unwrap();
    let s = TestServer::start_on(database).await;
    let who = s.account("outage@example.org", Tier::Professional);
    let mine = [who.key_header()];
    assert_eq!(s.client.get("/readyz").await.status, 200);
    assert_eq!(s.get("/account/usage").await.status, 401);
    let usage = "/api/v1/regional/account/usage";
    assert_eq!(s.client.get_with(usage, &mine).await.status, 200);
    let public = "/regions/DE21/profile";
    let answered = s.get(public).await;
    assert_eq!(answered.status, 200);

    cluster.script("pause");
    let ready = s.client.get("/readyz").await;
    assert_eq!(ready.status, 503);
    assert_eq!(s.client.get("/healthz").await.status, 200);
    let cached = s.get(public).await;
    assert_eq!(
        cached.status,
        200,
        "{}",
        String::from_utf8_lossy(&cached.body)
    );
    assert_eq!(
        cached.json()["data"],
        answered.json()["data"],
        "the cached answer"
    );
    let r = s.client.get_with(usage, &mine).await;
    assert_eq!(r.status, 503, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.header("retry-after"), Some("5"));
    r.error(503, "unavailable");

    cluster.script("resume");
    let back = s
        .eventually("/account/usage", &mine, 200, Duration::from_secs(60))
        .await;
    assert_eq!(back.status, 200, "{}", String::from_utf8_lossy(&back.body));
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while s.client.get("/readyz").await.status != 200 {
        assert!(std::time::Instant::now() < deadline, "not ready again");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    s.stop().await.unwrap();
    tokio::task::spawn_blocking(move || drop(db)).await.unwrap();
    drop(cluster);
}

/// Two nodes hold one daily cap together: each adds what it counted to the stored sum and takes
/// the sum back every second. Requests alternate between the nodes in batches of 10; after
/// each, once both have written what they admitted, each reads the sum (two background rounds
/// of each: a round already under way may have read before the writes). Of 60 calls
/// against a cap of 40 at most 40 and one batch (10) are answered: each node may overshoot by
/// what it admits before it next reads the sum. (Counted apart, as before, all 60 were.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_hold_one_daily_cap() {
    use crate::support::{Options, TestServer};
    use regintel::store::accounts::Tier;
    let capped = || Options {
        postgres: true,
        configure: Some(|c| c.limits.professional.day = 40),
        ..Options::default()
    };
    let a = TestServer::start_with(capped()).await;
    let b = a.second_node_with(capped()).await;
    let who = a.account("capped@example.org", Tier::Professional);
    let store =
        Store::open_with(&a.database, 1, 1, regintel::config::defaults::DATABASE_WAIT).unwrap();
    let stored = || {
        let today = a.today();
        let scope = format!("acct:{}", who.id);
        store
            .system()
            .unwrap()
            .usage_of_day(today)
            .unwrap()
            .into_iter()
            .find(|(s, _)| *s == scope)
            .map_or(0, |(_, used)| used)
    };
    let mut admitted = 0;
    for _batch in 0..6 {
        for i in 0..10 {
            let node = if i % 2 == 0 { &a } else { &b };
            let r = node
                .client
                .get_with("/api/v1/regional/account/usage", &[who.key_header()])
                .await;
            match r.status {
                200 => admitted += 1,
                429 => {}
                other => panic!("{other}: {}", String::from_utf8_lossy(&r.body)),
            }
        }
        let deadline = std::time::Instant::now() + Duration::from_secs(30);
        while tokio::task::block_in_place(stored) < admitted {
            assert!(
                std::time::Instant::now() < deadline,
                "the counts were not written"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        // Two more rounds of each node's background task: one that began before the counts
        // were written may have read before them; the next reads the sum.
        tokio::join!(a.background_rounds(2), b.background_rounds(2));
    }
    assert!(
        (40..=50).contains(&admitted),
        "{admitted} of 60 answered against a daily cap of 40"
    );
    b.stop().await.unwrap();
    a.stop().await.unwrap();
}

/// `regintel migrate --to-file` (the URL in an owner-only file) moves an appliance onto
/// PostgreSQL: served from there with the same data dir's secrets, the public and private
/// answers and their citation ids are what they were, the key made before the move still works,
/// accounts stay apart, and a second copy (`--to URL`) into the now-full database is refused
/// without changing it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_appliance_migrated_to_postgres_serves_the_same_answers_and_keys() {
    use crate::support::{Options, TestServer, regintel};
    use regintel::store::accounts::Tier;
    let appliance = TestServer::start_with(Options::default()).await;
    let who = appliance.account("moved@example.org", Tier::Institutional);
    let other = appliance.account("other@example.org", Tier::Professional);
    appliance
        .private_dataset(
            &who,
            serde_json::json!({"code": "moved_jobs", "title": "Jobs", "unit": "NR", "dimensions": ["sex"]}),
            "dataset_code,nuts_code,nuts_level,time,value,unit,flags,sex\nmoved_jobs,DE21,2,2023,1300,NR,,T\n",
        )
        .await;
    let mine = [who.key_header()];
    let paths = [
        "/regions/DE21",
        "/datasets/moved_jobs",
        "/compare?regions=DE21,FR10&dataset=nama_10r_3gdp",
    ];
    let answers = async |server: &TestServer| {
        let mut data = Vec::new();
        for path in paths {
            let r = server.call("GET", path, &mine, b"").await;
            assert_eq!(
                r.status,
                200,
                "{path}: {}",
                String::from_utf8_lossy(&r.body)
            );
            data.push(r.json()["data"].clone());
        }
        data
    };
    let before = answers(&appliance).await;
    let citation = before[0].to_string();
    let citation = citation
        .split("\"cit_")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .map(|id| format!("cit_{id}"))
        .expect("a profile cites its numbers");
    let cited = appliance
        .call("GET", &format!("/citations/{citation}"), &[], b"")
        .await;
    assert_eq!(cited.status, 200);
    let dir = appliance.stop_keeping_data().await;

    let db = tokio::task::spawn_blocking(TestDatabase::create)
        .await
        .unwrap();
    let migrate = |to: Vec<String>, dir: std::path::PathBuf| {
        tokio::task::spawn_blocking(move || {
            regintel()
                .args(["migrate", "--json"])
                .args(to)
                .arg("--data-dir")
                .arg(dir)
                .bounded_output()
        })
    };
    let url_dir = tempfile::tempdir().unwrap();
    let url_file = url_dir.path().join("database-url");
    std::fs::write(&url_file, format!("{}\n", db.url())).unwrap();
    std::fs::set_permissions(
        &url_file,
        std::os::unix::fs::PermissionsExt::from_mode(0o600),
    )
    .unwrap();
    let to_file = vec!["--to-file".to_owned(), url_file.display().to_string()];
    let out = migrate(to_file, dir.path().to_path_buf()).await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["tables"]["observations"].as_u64().unwrap() > 100_000,
        "{report}"
    );
    assert_eq!(report["tables"]["api_keys"], 2, "{report}");

    let moved = TestServer::start_in_postgres(dir, db).await;
    assert_eq!(answers(&moved).await, before);
    let again = moved
        .call("GET", &format!("/citations/{citation}"), &[], b"")
        .await;
    assert_eq!(again.json()["data"], cited.json()["data"]);
    let theirs = moved
        .call("GET", "/datasets/moved_jobs", &[other.key_header()], b"")
        .await;
    assert_eq!(theirs.status, 404);

    let Database::Postgres(url) = moved.database.clone() else {
        unreachable!()
    };
    let out = migrate(vec!["--to".to_owned(), url], moved.dir.path().to_path_buf())
        .await
        .unwrap();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("already holds data"), "{said}");
    let still = moved.call("GET", "/datasets/moved_jobs", &mine, b"").await;
    assert_eq!(still.json()["data"], before[1]);
    moved.stop().await.unwrap();
}

/// The operator commands reach PostgreSQL through the binary, the database named after the
/// subcommand as before it (`regintel account create ... --database-url URL`): an account and a
/// key made there are served by a node on that database, a key revoked there is refused, data
/// imported there is served from the node's next background round (the cached answer renewed),
/// and `check` reads the
/// database's schema and secrets.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_commands_act_on_postgres_through_the_binary() {
    use crate::support::{Options, TestServer, run_ok};
    let node = TestServer::start_with(Options {
        postgres: true,
        empty: true,
        ..Options::default()
    })
    .await;
    let Database::Postgres(url) = node.database.clone() else {
        unreachable!()
    };
    let dir = node.dir.path().to_path_buf();
    let run = |args: &[&str]| {
        let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        args.extend(["--database-url".to_owned(), url.clone()]);
        let dir = dir.clone();
        tokio::task::spawn_blocking(move || {
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            run_ok(&args, &dir, None)
        })
    };
    run(&[
        "account",
        "create",
        "cli@example.org",
        "--tier",
        "professional",
    ])
    .await
    .unwrap();
    let key: serde_json::Value = serde_json::from_str(
        &run(&["key", "create", "cli@example.org", "--json"])
            .await
            .unwrap(),
    )
    .unwrap();
    let api_key = key["api_key"].as_str().unwrap();
    let header = [("x-api-key", api_key)];
    let r = node
        .client
        .get_with("/api/v1/regional/account/usage", &header)
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    run(&["key", "revoke", key["key_id"].as_str().unwrap()])
        .await
        .unwrap();
    node.background_rounds(2).await;
    let refused = node
        .client
        .get_with("/api/v1/regional/account/usage", &header)
        .await;
    assert_eq!(refused.status, 401, "revoked by the CLI");
    // Data imported by the CLI is served from the next background round, the answer cached
    // before renewed.
    let listed = |r: &crate::support::Resp| {
        r.json()["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "cli_tiny")
    };
    assert!(!listed(&node.get("/datasets").await));
    let csv = dir.join("cli_tiny.csv");
    std::fs::write(
        &csv,
        "dataset_code,nuts_code,nuts_level,time,value,unit\ncli_tiny,DE21,2,2023,1.5,NR\n",
    )
    .unwrap();
    run(&["import", csv.to_str().unwrap()]).await.unwrap();
    node.background_rounds(2).await;
    assert!(listed(&node.get("/datasets").await), "served after a round");
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let checked = run(&["check", "--plain-http"]).await.unwrap();
    assert!(checked.contains("schema"), "{checked}");
    node.stop().await.unwrap();
}

/// Upgrading one node at a time: once a newer node has migrated the shared database, a node of
/// the previous release stays ready (its load balancer keeps it) and goes on answering.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_older_node_stays_ready_on_a_newer_schema() {
    use crate::support::{Options, TestServer};
    let node = TestServer::start_with(Options {
        postgres: true,
        ..Options::default()
    })
    .await;
    assert_eq!(node.client.get("/readyz").await.status, 200);
    let database = node.database.clone();
    tokio::task::spawn_blocking(move || {
        let store =
            Store::open_with(&database, 1, 1, regintel::config::defaults::DATABASE_WAIT).unwrap();
        store
            .admin()
            .unwrap()
            .sql()
            .execute_batch("UPDATE store_meta SET value = value + 1 WHERE key = 'schema_version'")
            .unwrap();
    })
    .await
    .unwrap();
    let ready = node.client.get("/readyz").await;
    assert_eq!(
        ready.status,
        200,
        "{}",
        String::from_utf8_lossy(&ready.body)
    );
    assert_eq!(
        ready.json()["data"]["schema_version"],
        regintel::store::schema::latest_version() + 1
    );
    assert_eq!(node.get("/regions/DE21/profile").await.status, 200);
    node.stop().await.unwrap();
}

/// Secrets are made once per database. Two processes opening an empty database together make
/// one set: the other, whose data directory holds none, is refused naming each file and where
/// to copy it from, and opens with copies. A node started without copies is refused the same
/// way, before it serves; with them it serves the first node's keys. `check` names webhook
/// endpoints sealed under a key the database does not record (an install whose secrets forked).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_make_one_set_of_secrets_and_refuse_to_fork_it() {
    use crate::support::{TestServer, regintel};
    use regintel::auth::secret_guard;
    use regintel::store::accounts::Tier;

    let db = tokio::task::spawn_blocking(TestDatabase::create)
        .await
        .unwrap();
    let database = Database::Postgres(db.url());
    let dirs = [tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap()];
    let opened: Vec<Result<(), String>> = tokio::task::spawn_blocking({
        let database = database.clone();
        let dirs: Vec<std::path::PathBuf> = dirs.iter().map(|d| d.path().to_owned()).collect();
        move || {
            let wait = regintel::config::defaults::DATABASE_WAIT;
            let stores: Vec<Store> = (0..2)
                .map(|_| Store::open_with(&database, 1, 1, wait).unwrap())
                .collect();
            std::thread::scope(|threads| {
                let opening: Vec<_> = (stores.iter().zip(&dirs))
                    .map(|(store, dir)| {
                        threads.spawn(move || {
                            secret_guard::open(store, dir, "regintel", false)
                                .map(|_| ())
                                .map_err(|e| format!("{e:#}"))
                        })
                    })
                    .collect();
                opening.into_iter().map(|o| o.join().unwrap()).collect()
            })
        }
    })
    .await
    .unwrap();
    let made = opened
        .iter()
        .position(Result::is_ok)
        .expect("one set is made");
    let refused = opened[1 - made].as_ref().unwrap_err();
    let maker = dirs[made].path().join("secrets");
    for file in ["api_key_pepper", "webhook_secrets_key", "jwt_keys.json"] {
        assert!(
            refused.contains(&format!("{file} is missing"))
                && refused.contains(&format!("made in {}", maker.display())),
            "{file}: {refused}"
        );
    }
    // The first node serves; a second without copies of its secrets is refused before it
    // serves, whatever it was started to do.
    let first =
        TestServer::start_in_postgres(crate::support::with_secrets_of(dirs[made].path()), db).await;
    let who = first.account("forked@example.org", Tier::Institutional);
    let bare = tempfile::tempdir().unwrap();
    let mut config = regintel::config::ServerConfig::new(bare.path().to_owned());
    config.database = database.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let ended = regintel::start(config, listener, None, std::future::pending()).await;
    let said = format!("{:#}", ended.unwrap_err());
    assert!(said.contains("webhook_secrets_key is missing"), "{said}");
    assert!(said.contains("1 active API keys"), "{said}");
    assert!(!bare.path().join("secrets/api_key_pepper").exists());
    let second = first.second_node().await;
    let key = [who.key_header()];
    assert_eq!(
        second
            .client
            .get_with("/api/v1/regional/account/usage", &key)
            .await
            .status,
        200
    );

    // An endpoint sealed under the shared key, then a data directory whose sealing key is
    // another (taken with --new-secrets): check names the endpoint.
    let url = first.addr.to_string();
    let created = first
        .call(
            "POST",
            "/webhooks",
            &[who.key_header(), ("content-type", "application/json")],
            format!(r#"{{"url": "http://{url}/hook", "event_types": ["dataset.updated"]}}"#)
                .as_bytes(),
        )
        .await;
    assert_eq!(
        created.status,
        201,
        "{}",
        String::from_utf8_lossy(&created.body)
    );
    let endpoint = created.json()["data"]["id"].as_str().unwrap().to_owned();
    let forked = crate::support::with_secrets_of(first.dir.path());
    std::fs::write(forked.path().join("secrets/webhook_secrets_key"), [9u8; 32]).unwrap();
    let Database::Postgres(url) = &database else {
        unreachable!()
    };
    let out = regintel()
        .args([
            "check",
            "--plain-http",
            "--new-secrets",
            "--database-url",
            url,
            "--data-dir",
        ])
        .arg(forked.path())
        .bounded_output();
    let said =
        String::from_utf8_lossy(&out.stderr).into_owned() + &String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!("1 webhook endpoints ({endpoint})"))
            && said.contains("sealed under another key"),
        "{said}"
    );
}
