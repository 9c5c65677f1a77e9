//! What an operations team relies on: `check` and `backup`, the metrics, JSON logs, the systemd
//! protocol (readiness, stopping, socket activation), the Debian package and the profile its
//! packaged build is laid out by.

use crate::bounded::Bounded;

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::support::{
    BASE, Client, Options, Running, TestServer, Tier, account_in, bundled_data_dir, regintel,
    serve_plain, start_plain, tool,
};

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// `regintel check --plain-http --data-dir DIR`: whether it passed, and what it said.
fn check(data_dir: &Path) -> (bool, String) {
    let out = regintel()
        .args(["check", "--plain-http", "--data-dir"])
        .arg(data_dir)
        .bounded_output();
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), said)
}

#[test]
fn check_fails_on_exposed_secrets_a_corrupted_file_and_a_newer_schema() {
    let data = bundled_data_dir();
    chmod(data.path(), 0o700);
    let secrets = regintel::auth::secrets::secrets_dir(data.path()).unwrap();
    regintel::auth::secrets::Pepper::load_or_create(&secrets).unwrap();
    let (ok, said) = check(data.path());
    assert!(ok, "{said}");
    assert!(said.contains("secrets") && said.contains("ok"), "{said}");

    // Secrets other users may list or read.
    chmod(&secrets, 0o755);
    let (ok, said) = check(data.path());
    assert!(!ok);
    assert!(
        said.contains("the secrets directory") && said.contains("chmod 700"),
        "{said}"
    );
    chmod(&secrets, 0o700);
    chmod(&secrets.join(regintel::auth::secrets::PEPPER_FILE), 0o644);
    let (ok, said) = check(data.path());
    assert!(!ok && said.contains("the secret"), "{said}");
    chmod(&secrets.join(regintel::auth::secrets::PEPPER_FILE), 0o600);
    assert!(check(data.path()).0);

    // A database from a newer regintel: a downgrade is refused.
    let db = data.path().join(regintel::store::DB_FILE);
    let newer = regintel::store::schema::latest_version() + 1;
    rusqlite::Connection::open(&db)
        .unwrap()
        .execute_batch(&format!("PRAGMA user_version = {newer}"))
        .unwrap();
    let (ok, said) = check(data.path());
    assert!(!ok && said.contains("downgrade is refused"), "{said}");

    // A corrupted file: pages in the middle overwritten.
    let fresh = bundled_data_dir();
    chmod(fresh.path(), 0o700);
    let db = fresh.path().join(regintel::store::DB_FILE);
    let mut bytes = std::fs::read(&db).unwrap();
    let middle = bytes.len() / 2 / 4096 * 4096;
    bytes[middle..middle + 3 * 4096].fill(0x5a);
    std::fs::write(&db, bytes).unwrap();
    let (ok, said) = check(fresh.path());
    assert!(!ok, "{said}");
    assert!(said.contains("database"), "{said}");
}

/// A switch read from the environment takes the values environment files write: 1, yes, on,
/// true (and 0, no, off, false), as `REGINTEL_PLAIN_HTTP=1` in a unit's environment file.
#[test]
fn switches_from_the_environment_read_1_and_yes() {
    let data = bundled_data_dir();
    chmod(data.path(), 0o700);
    let check_with = |value: &str| {
        let out = regintel()
            .args(["check", "--data-dir"])
            .arg(data.path())
            .env("REGINTEL_PLAIN_HTTP", value)
            .bounded_output();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    for on in ["1", "yes", "on", "true", "TRUE"] {
        let (ok, said) = check_with(on);
        assert!(ok, "{on}: {said}");
    }
    for off in ["0", "no", "off", "false"] {
        let (ok, said) = check_with(off);
        assert!(!ok && said.contains("--tls-cert"), "{off}: {said}");
    }
    // Plain HTTP is served behind a proxy: without a metrics token, check says what that means.
    let (ok, said) = check(data.path());
    assert!(ok && said.contains("warning: no metrics token"), "{said}");
}

/// `REGINTEL_WEBHOOKS_PAUSED` (a restore drill, a staging copy): `/readyz` and `/metrics` say
/// deliveries are paused, and the log says so at start.
#[test]
fn paused_webhooks_are_said_in_readyz_metrics_and_the_log() {
    let data = bundled_data_dir();
    chmod(data.path(), 0o700);
    let mut started = start_plain(
        serve_plain(data.path())
            .env("REGINTEL_WEBHOOKS_PAUSED", "yes")
            .stderr(Stdio::piped()),
    );
    let log = started.child.0.stderr.take().unwrap();
    let (lines, logged) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(log).lines().map_while(Result::ok) {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let client = Client::new(started.addr, None);
    let ready = runtime.block_on(client.get("/readyz"));
    assert_eq!(
        ready.json()["data"]["webhooks"],
        "paused",
        "{}",
        ready.json()
    );
    let metrics = runtime.block_on(client.get("/metrics"));
    assert!(
        String::from_utf8_lossy(&metrics.body).contains("regintel_webhooks_paused 1\n"),
        "{}",
        String::from_utf8_lossy(&metrics.body)
    );
    // The log says so once the worker starts: waited for, never timed.
    let said = std::iter::from_fn(|| logged.recv_timeout(Duration::from_secs(60)).ok())
        .find(|line| line.contains("webhook deliveries are paused"))
        .expect("the log says deliveries are paused");
    assert!(said.contains("WARN"), "{said}");
    drop(started);

    let started = start_plain(&mut serve_plain(data.path()));
    let ready = runtime.block_on(Client::new(started.addr, None).get("/readyz"));
    assert_eq!(ready.json()["data"]["webhooks"], "delivering");
}

/// A database restored without its secrets, or with another installation's, is refused at
/// `check` and at start, naming the file, instead of starting with new ones under which every
/// API key answers 401; `--new-secrets` makes new ones over it, saying what that breaks.
#[test]
fn a_database_without_its_secrets_is_refused_naming_the_file() {
    let data = bundled_data_dir();
    chmod(data.path(), 0o700);
    account_in(data.path(), "keyholder@example.org", Tier::Professional);
    // A first start records the fingerprints of the secrets it starts with.
    let started = start_plain(&mut serve_plain(data.path()));
    let ready = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(Client::new(started.addr, None).get("/readyz"));
    assert_eq!(ready.status, 200);
    drop(started);
    assert!(check(data.path()).0);
    let secrets = data.path().join("secrets");
    let kept = data.path().join("secrets-kept");
    std::fs::rename(&secrets, &kept).unwrap();
    let (ok, said) = check(data.path());
    assert!(!ok && said.contains("api_key_pepper is missing"), "{said}");
    assert!(said.contains("--new-secrets"), "{said}");
    let start = serve_plain(data.path())
        .stderr(Stdio::piped())
        .bounded_output();
    let told = String::from_utf8_lossy(&start.stderr);
    assert!(
        !start.status.success() && told.contains("api_key_pepper is missing"),
        "{told}"
    );
    assert!(
        !secrets.join("api_key_pepper").exists(),
        "no new pepper was made"
    );

    // Another installation's secrets: different, and refused as such.
    let other = bundled_data_dir();
    chmod(other.path(), 0o700);
    account_in(other.path(), "elsewhere@example.org", Tier::Professional);
    std::fs::rename(other.path().join("secrets"), &secrets).unwrap();
    let (ok, said) = check(data.path());
    assert!(
        !ok && said.contains("is not the one the database records"),
        "{said}"
    );
    let new_secrets = regintel()
        .args(["check", "--plain-http", "--new-secrets", "--data-dir"])
        .arg(data.path())
        .bounded_output();
    let said = String::from_utf8_lossy(&new_secrets.stdout);
    assert!(
        new_secrets.status.success() && said.contains("warning: --new-secrets"),
        "{said}"
    );

    // Its own secrets back: all is well.
    std::fs::remove_dir_all(&secrets).unwrap();
    std::fs::rename(&kept, &secrets).unwrap();
    let (ok, said) = check(data.path());
    assert!(ok && said.contains("those the database records"), "{said}");
}

/// A digest of every observation, in citation order.
fn observations_digest(db: &Path) -> (i64, String) {
    use sha2::{Digest, Sha256};
    let conn = rusqlite::Connection::open(db).unwrap();
    let mut stmt = conn
        .prepare(
            "SELECT citation_id, series_id, region_code, period, value_text, flags, conf_status,
                    snapshot_id, superseded_by FROM observations ORDER BY citation_id",
        )
        .unwrap();
    let mut digest = Sha256::new();
    let mut rows = 0;
    let mut query = stmt.query([]).unwrap();
    while let Some(row) = query.next().unwrap() {
        for i in 0..9 {
            let value: rusqlite::types::Value = row.get(i).unwrap();
            digest.update(format!("{value:?}\u{1f}"));
        }
        rows += 1;
    }
    let hex = digest
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    (rows, hex)
}

/// `regintel backup --data-dir DATA TARGET`, run off the async threads.
async fn backup_of(data: &Path, target: &Path) -> std::process::Output {
    let mut backup = regintel();
    backup.arg("backup").arg("--data-dir").arg(data).arg(target);
    crate::bounded::output_aside(backup, "regintel backup").await
}

/// The secrets of a data directory, which are backed up once, apart from the database: each
/// file's name and bytes.
fn backed_up_secrets(data: &Path) -> Vec<(std::ffi::OsString, Vec<u8>)> {
    std::fs::read_dir(data.join("secrets"))
        .unwrap()
        .map(|f| {
            let f = f.unwrap();
            (f.file_name(), std::fs::read(f.path()).unwrap())
        })
        .collect()
}

/// A restore: a fresh data directory with `backup` as its database and the secrets beside it.
fn restore(backup: &Path, secrets: &[(std::ffi::OsString, Vec<u8>)]) -> tempfile::TempDir {
    let restored = tempfile::tempdir().unwrap();
    chmod(restored.path(), 0o700);
    std::fs::copy(backup, restored.path().join(regintel::store::DB_FILE)).unwrap();
    let dir = restored.path().join("secrets");
    std::fs::create_dir(&dir).unwrap();
    chmod(&dir, 0o700);
    for (name, bytes) in secrets {
        std::fs::write(dir.join(name), bytes).unwrap();
        chmod(&dir.join(name), 0o600);
    }
    restored
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_under_load_restores_to_identical_observations() {
    let server = TestServer::start().await;
    let analyst = server.account(
        "ops@example.org",
        regintel::store::accounts::Tier::Professional,
    );
    // Load while the backup runs: readers of every kind, and writers (sessions, usage), each
    // counting what it was answered.
    use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let answered = std::sync::Arc::new(AtomicU32::new(0));
    let logins = std::sync::Arc::new(AtomicU32::new(0));
    let mut load = Vec::new();
    for worker in 0..4 {
        let client = server.client.clone();
        let (stop, answered) = (stop.clone(), answered.clone());
        let key = analyst.api_key.clone();
        load.push(tokio::spawn(async move {
            let paths = [
                format!("{BASE}/regions/DE21/profile"),
                format!("{BASE}/compare?regions=DE21,FR10,ITC4&dataset=nama_10r_2gdp"),
                format!("{BASE}/regions?level=2"),
            ];
            for n in 0.. {
                if stop.load(Relaxed) {
                    break;
                }
                let path = &paths[n % paths.len()];
                let resp = if worker % 2 == 0 {
                    client.get(path).await
                } else {
                    client.get_with(path, &[("x-api-key", &key)]).await
                };
                assert!(resp.status < 500, "{path}: {}", resp.status);
                answered.fetch_add(1, Relaxed);
            }
        }));
    }
    load.push({
        let (stop, logins) = (stop.clone(), logins.clone());
        let server_client = server.client.clone();
        let email = analyst.email.clone();
        let password = analyst.password.clone();
        tokio::spawn(async move {
            // At most 25: each is a password hash's work and a session row.
            while !stop.load(Relaxed) && logins.load(Relaxed) < 25 {
                let body = serde_json::json!({"email": email, "password": password}).to_string();
                let resp = server_client
                    .send(crate::support::Request {
                        method: "POST",
                        path: &format!("{BASE}/auth/login"),
                        headers: &[("content-type", "application/json")],
                        body: body.into_bytes(),
                    })
                    .await;
                assert_eq!(resp.status, 200);
                logins.fetch_add(1, Relaxed);
            }
        })
    });
    // The load is going (answers of both kinds came back) before the copy starts, and goes on
    // while it runs: answers come back between its start and its end.
    crate::bounded::until(
        "the load to get going",
        Duration::from_secs(120),
        || async {
            let counts = (answered.load(Relaxed), logins.load(Relaxed));
            match counts {
                (1.., 1..) => Ok(()),
                _ => Err(format!("{counts:?} (reads, logins)")),
            }
        },
    )
    .await;
    let backups = tempfile::tempdir().unwrap();
    let target = backups.path().join("regintel-backup.sqlite");
    let before = answered.load(Relaxed);
    let out = backup_of(server.dir.path(), &target).await;
    let during = answered.load(Relaxed) - before;
    stop.store(true, Relaxed);
    for worker in load {
        worker.await.unwrap();
    }
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(during > 0, "no read was answered while the copy ran");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("integrity checked"), "{stdout}");
    assert_eq!(
        std::fs::metadata(&target).unwrap().permissions().mode() & 0o777,
        0o600
    );
    // Never over an existing file.
    let again = regintel()
        .arg("backup")
        .arg("--data-dir")
        .arg(server.dir.path())
        .arg(&target)
        .bounded_output();
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("never overwrites"));

    let original = server.get("/regions/DE21/profile").await;
    assert_eq!(original.status, 200);
    let original = original.json();
    let source = observations_digest(&server.dir.path().join(regintel::store::DB_FILE));
    let secrets = backed_up_secrets(server.dir.path());
    server.stop().await.unwrap();

    let restored = restore(&target, &secrets);
    let db = restored.path().join(regintel::store::DB_FILE);
    let integrity: String = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
    assert_eq!(observations_digest(&db), source);
    assert!(source.0 > 100_000, "{source:?}");
    let (ok, said) = check(restored.path());
    assert!(ok, "{said}");
    let server = TestServer::start_in(restored, Options::default()).await;
    let again = server.get("/regions/DE21/profile").await.json();
    assert_eq!(again["data"], original["data"]);
    assert_eq!(again["meta"]["citations"], original["meta"]["citations"]);
    server.stop().await.unwrap();
}

/// Writes of one kind counted as they begin and as they commit.
#[derive(Default)]
struct Writes {
    begun: std::sync::atomic::AtomicU32,
    committed: std::sync::atomic::AtomicU32,
}

impl Writes {
    fn begin(&self) -> u32 {
        self.begun.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1
    }
    fn committed(&self, generation: u32) {
        self.committed
            .store(generation, std::sync::atomic::Ordering::SeqCst);
    }
    fn counts(&self) -> (u32, u32) {
        (
            self.committed.load(std::sync::atomic::Ordering::SeqCst),
            self.begun.load(std::sync::atomic::Ordering::SeqCst),
        )
    }
}

/// The private dataset the uploads replace and the public row the imports revise.
const UPLOADED: &str = "backup_upload";
const IMPORTED: &str = "tgs00010";

/// Upload `generation`: four rows whose values are `generation * 10 + i` and a half.
fn upload_csv(generation: u32) -> String {
    let mut csv = String::from("dataset_code,nuts_code,nuts_level,time,value,unit,flags\n");
    let rows = [
        ("DE21", "2021"),
        ("DE21", "2022"),
        ("FR10", "2021"),
        ("FR10", "2022"),
    ];
    for (i, (region, period)) in rows.iter().enumerate() {
        let value = generation * 10 + i as u32;
        csv.push_str(&format!("{UPLOADED},{region},2,{period},{value}.5,NR,\n"));
    }
    csv
}

/// What a copy holds of each writer's work, as generations; it fails where the tables disagree
/// on it (a copy of no single moment).
fn generations_in(db: &Path, imported_snapshots_before: i64) -> (u32, u32) {
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .unwrap();
    let one = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    let values = |sql: &str| -> Vec<(f64, bool)> {
        let mut stmt = conn.prepare(sql).unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    let announced = |code: &str| {
        one(&format!(
            "SELECT count(*) FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id
             WHERE e.type = 'dataset.updated' AND CAST(e.payload AS TEXT) LIKE '%\"{code}\"%'"
        ))
    };
    let rows_of = |code: &str, owned: &str, filter: &str| {
        format!(
            "SELECT o.value, o.superseded_by IS NULL FROM observations o
             JOIN series s ON s.id = o.series_id JOIN datasets d ON d.id = s.dataset_id
             WHERE d.code = '{code}' AND d.owner_account_id {owned} {filter}"
        )
    };

    // Uploads: every generation's four rows, the last current; a snapshot and an announced
    // delivery each.
    let uploaded = values(&rows_of(UPLOADED, "IS NOT NULL", ""));
    let upload = (uploaded.len() / 4) as u32;
    let current: Vec<u32> = uploaded
        .iter()
        .filter(|(_, current)| *current)
        .map(|(v, _)| (*v as u32) / 10)
        .collect();
    assert_eq!(
        current,
        vec![upload; 4 * upload.min(1) as usize],
        "{uploaded:?}"
    );
    let snapshots = one(&format!(
        "SELECT count(*) FROM snapshots s JOIN datasets d ON d.id = s.dataset_id
         WHERE d.code = '{UPLOADED}'"
    ));
    assert_eq!(snapshots, upload as i64);
    assert_eq!(announced(UPLOADED), upload as i64);

    // Imports: one row of 2099 each, the last current; a snapshot and an announced delivery each.
    let imported = values(&rows_of(
        IMPORTED,
        "IS NULL",
        "AND o.region_code = 'DE21' AND o.period = '2099'",
    ));
    let import = imported.len() as u32;
    let current: Vec<u32> = imported
        .iter()
        .filter(|(_, current)| *current)
        .map(|(v, _)| *v as u32)
        .collect();
    assert_eq!(
        current,
        vec![import; import.min(1) as usize],
        "{imported:?}"
    );
    let snapshots = one(&format!(
        "SELECT count(*) FROM snapshots s JOIN datasets d ON d.id = s.dataset_id
         WHERE d.code = '{IMPORTED}' AND d.owner_account_id IS NULL"
    ));
    assert_eq!(snapshots - imported_snapshots_before, import as i64);
    assert_eq!(announced(IMPORTED), import as i64);
    (upload, import)
}

/// A backup taken while uploads and imports commit in a loop is one consistent state: in each
/// copy, a writer's current rows, all its rows, its snapshots and the webhook deliveries that
/// announce them are of one generation, no older than the last committed before the copy began
/// and no newer than the last begun before it ended. Copies are taken until one overlapped a
/// commit of each writer. Restored with its secrets, the copy authenticates the account's key
/// and delivers a webhook signed with the endpoint's secret.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_taken_while_imports_and_uploads_commit_is_one_consistent_state() {
    use crate::receiver::{Receiver, verify};
    use crate::support::Request;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    let server = TestServer::start().await;
    let owner = server.account("writer@example.org", Tier::Institutional);
    let key = ("x-api-key", owner.api_key.as_str());
    let json = ("content-type", "application/json");
    let receiver = Receiver::start(204).await;
    let hook = serde_json::json!({
        "url": receiver.url("/hook"),
        "event_types": ["dataset.updated", "webhook.test"],
    });
    let r = server
        .call(
            "POST",
            "/webhooks",
            &[key, json],
            hook.to_string().as_bytes(),
        )
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let (webhook, secret) = (
        r.json()["data"]["id"].as_str().unwrap().to_owned(),
        r.json()["data"]["secret"].as_str().unwrap().to_owned(),
    );
    let dataset = serde_json::json!({"code": UPLOADED, "title": "Backup", "unit": "NR"});
    let r = server
        .call(
            "POST",
            "/datasets",
            &[key, json],
            dataset.to_string().as_bytes(),
        )
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
    let db = server.dir.path().join(regintel::store::DB_FILE);
    let imported_snapshots_before = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row(
            "SELECT count(*) FROM snapshots s JOIN datasets d ON d.id = s.dataset_id
             WHERE d.code = ?1 AND d.owner_account_id IS NULL",
            [IMPORTED],
            |r| r.get::<_, i64>(0),
        )
        .unwrap();

    let stop = Arc::new(AtomicBool::new(false));
    let uploads = Arc::new(Writes::default());
    let uploader = tokio::spawn({
        let (client, stop, uploads) = (server.client.clone(), stop.clone(), uploads.clone());
        let key = owner.api_key.clone();
        async move {
            while !stop.load(Ordering::SeqCst) {
                let generation = uploads.begin();
                let r = client
                    .send(Request {
                        method: "PUT",
                        path: &format!("{BASE}/datasets/{UPLOADED}/data"),
                        headers: &[("x-api-key", &key), ("content-type", "text/csv")],
                        body: upload_csv(generation).into_bytes(),
                    })
                    .await;
                assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
                uploads.committed(generation);
            }
        }
    });
    let imports = Arc::new(Writes::default());
    let importer = std::thread::spawn({
        let (data, stop, imports) = (server.dir.path().to_owned(), stop.clone(), imports.clone());
        move || {
            let file = tempfile::tempdir().unwrap();
            let path = file.path().join(format!("{IMPORTED}.csv"));
            while !stop.load(Ordering::SeqCst) {
                let generation = imports.begin();
                std::fs::write(
                    &path,
                    format!(
                        "dataset_code,nuts_code,nuts_level,time,value,unit,flags,freq,isced11,age,sex\n\
                         {IMPORTED},DE21,2,2099,{generation}.25,PC,,A,TOTAL,Y15-74,T\n"
                    ),
                )
                .unwrap();
                crate::support::run_ok(&["import", path.to_str().unwrap()], &data, None);
                imports.committed(generation);
            }
        }
    });

    // Both writers have committed a few times before the first copy, so no copy can pass by
    // holding nothing of either.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while uploads.counts().0 < 3 || imports.counts().0 < 3 {
        assert!(std::time::Instant::now() < deadline, "the writers stalled");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let backups = tempfile::tempdir().unwrap();
    let mut overlapped = false;
    let mut target = backups.path().join("none");
    for attempt in 0..20 {
        let (uploaded_before, _) = uploads.counts();
        let (imported_before, _) = imports.counts();
        target = backups.path().join(format!("backup-{attempt}.sqlite"));
        let out = backup_of(server.dir.path(), &target).await;
        let (uploaded_after, uploads_begun) = uploads.counts();
        let (imported_after, imports_begun) = imports.counts();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (upload, import) = generations_in(&target, imported_snapshots_before);
        assert!(upload >= 3 && import >= 3);
        assert!(
            (uploaded_before..=uploads_begun).contains(&upload),
            "upload {upload} not in {uploaded_before}..={uploads_begun}"
        );
        assert!(
            (imported_before..=imports_begun).contains(&import),
            "import {import} not in {imported_before}..={imports_begun}"
        );
        eprintln!(
            "backup {attempt}: upload {upload} of {uploaded_before}..={uploads_begun}, import \
             {import} of {imported_before}..={imports_begun}"
        );
        if uploaded_after > uploaded_before && imported_after > imported_before {
            overlapped = true;
            break;
        }
    }
    stop.store(true, Ordering::SeqCst);
    uploader.await.unwrap();
    importer.join().unwrap();
    assert!(overlapped, "no backup overlapped a commit of each writer");

    let secrets = backed_up_secrets(server.dir.path());
    server.stop().await.unwrap();
    let restored = restore(&target, &secrets);
    let (ok, said) = check(restored.path());
    assert!(ok, "{said}");
    let server = TestServer::start_in(restored, Options::default()).await;
    let key = ("x-api-key", owner.api_key.as_str());
    let r = server
        .call("GET", &format!("/datasets/{UPLOADED}"), &[key], b"")
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    let r = server
        .call("POST", &format!("/webhooks/{webhook}/test"), &[key], b"")
        .await;
    assert_eq!(r.status, 202, "{}", String::from_utf8_lossy(&r.body));
    let event = r.json()["data"]["event_id"].as_str().unwrap().to_owned();
    let got = receiver
        .wait_for(Duration::from_secs(60), |all| {
            all.iter().any(|r| r.header("webhook-id") == event)
        })
        .await;
    let test = got
        .iter()
        .find(|r| r.header("webhook-id") == event)
        .expect("the restored server delivers the test event");
    assert!(verify(
        &secret,
        test.header("webhook-id"),
        test.header("webhook-timestamp"),
        test.header("webhook-signature"),
        &test.body,
    ));
    server.stop().await.unwrap();
}

/// `regintel backup` never writes through what someone else put beside the target: a link at
/// the old temporary name (to a file the attacker wants overwritten), a world-readable file
/// there, or a link at the target's name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backup_never_writes_through_a_link_or_a_file_made_beside_it() {
    let server = TestServer::start().await;
    let backups = tempfile::tempdir().unwrap();
    let target = backups.path().join("regintel-backup.sqlite");
    let victim = backups.path().join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(
        &victim,
        backups.path().join("regintel-backup.sqlite.partial"),
    )
    .unwrap();
    let backup = |target: &Path| {
        regintel()
            .arg("backup")
            .arg("--data-dir")
            .arg(server.dir.path())
            .arg(target)
            .bounded_output()
    };
    let out = backup(&target);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    let meta = std::fs::symlink_metadata(&target).unwrap();
    assert!(meta.file_type().is_file());
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    // Nothing of the copy's workspace is left.
    let left: Vec<String> = std::fs::read_dir(backups.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial-"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
    // A world-readable file made at the old temporary name is neither written nor the copy.
    let second = backups.path().join("second.sqlite");
    let planted = backups.path().join("second.sqlite.partial");
    std::fs::write(&planted, "planted").unwrap();
    std::fs::set_permissions(&planted, std::fs::Permissions::from_mode(0o666)).unwrap();
    assert!(backup(&second).status.success());
    assert_eq!(std::fs::read_to_string(&planted).unwrap(), "planted");
    let meta = std::fs::symlink_metadata(&second).unwrap();
    assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    // A link at the target's name, even a dangling one, is never followed.
    let linked = backups.path().join("linked.sqlite");
    std::os::unix::fs::symlink(backups.path().join("nowhere"), &linked).unwrap();
    let out = backup(&linked);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("never overwrites"));
    assert!(!backups.path().join("nowhere").exists());
    server.stop().await.unwrap();
}

fn no_rate_limits(config: &mut regintel::config::ServerConfig) {
    config.limits.enabled = false;
}

/// The series of `/metrics` that requests make (each sample line's name and labels).
fn request_series(metrics: &[u8]) -> std::collections::BTreeSet<String> {
    String::from_utf8_lossy(metrics)
        .lines()
        .filter(|l| l.starts_with("regintel_http_"))
        .filter_map(|l| l.rsplit_once(' ').map(|(series, _)| series.to_owned()))
        .collect()
}

/// `/metrics` stays bounded: a thousand distinct paths and methods (random paths under the API,
/// under known routes' parameters, odd methods) add no series beyond those a few such requests
/// made, and no series names a path a client chose.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_stay_bounded_whatever_paths_and_methods_clients_send() {
    let server = TestServer::start_with(Options {
        configure: Some(no_rate_limits),
        ..Options::default()
    })
    .await;
    let methods = [
        "GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "BREW", "PROPFIND",
    ];
    let request = |i: usize| {
        let method = methods[i % methods.len()];
        let path = match i % 3 {
            0 => format!("/no-such-route-{i}"),
            1 => format!("/regions/ZZ{i}/profile"),
            _ => format!("/citations/cit_{i:020}"),
        };
        (method, path)
    };
    let send = |i| {
        let (method, path) = request(i);
        let server = &server;
        async move { server.call(method, &path, &[], b"").await }
    };
    // A scrape counts itself from the next one on.
    server.client.get("/metrics").await;
    for i in 0..48 {
        send(i).await;
    }
    let before = request_series(&server.client.get("/metrics").await.body);
    for i in 48..1048 {
        send(i).await;
    }
    let metrics = server.client.get("/metrics").await;
    let after = request_series(&metrics.body);
    let added: Vec<&String> = after.difference(&before).collect();
    assert!(added.is_empty(), "{added:?}");
    assert!(!String::from_utf8_lossy(&metrics.body).contains("no-such-route"));
    server.stop().await.unwrap();
}

fn tight_anonymous_limit(config: &mut regintel::config::ServerConfig) {
    config.limits.anonymous.minute = 4;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_parse_with_prometheus_clients_parser() {
    let server = TestServer::start_with(Options {
        configure: Some(tight_anonymous_limit),
        ..Options::default()
    })
    .await;
    // Four requests a minute: the unknown route's, then three profiles (one miss, two cache
    // hits), then two refused.
    server.get("/no-such-route").await;
    for _ in 0..5 {
        server.get("/regions/DE21/profile").await;
    }
    let resp = server.client.get("/metrics").await;
    assert_eq!(resp.status, 200, "{}", String::from_utf8_lossy(&resp.body));
    assert_eq!(
        resp.header("content-type"),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );
    // /metrics is neither counted against nor limited by the anonymous minute.
    assert_eq!(server.client.get("/metrics").await.status, 200);
    // A request a same-host proxy forwarded comes from loopback too, and from anywhere.
    let forwarded = server
        .client
        .get_with("/metrics", &[("x-forwarded-for", "203.0.113.7")])
        .await;
    assert_eq!(forwarded.status, 403);

    let parser = "import json, sys\n\
        from prometheus_client.parser import text_string_to_metric_families\n\
        out = {}\n\
        for family in text_string_to_metric_families(sys.stdin.read()):\n\
        \x20   out[family.name] = {'type': family.type, 'samples': [[s.name, s.labels, s.value] for s in family.samples]}\n\
        print(json.dumps(out))\n";
    let out = crate::bounded::output_with_input(
        Command::new(tool("TEST_PYTHON")).args(["-c", parser]),
        &resp.body,
        "prometheus_client reading the metrics",
    );
    assert!(
        out.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&out.stderr),
        String::from_utf8_lossy(&resp.body)
    );
    let families: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let sample = |family: &str, name: &str, labels: serde_json::Value| -> f64 {
        families[family]["samples"]
            .as_array()
            .unwrap_or_else(|| panic!("no family {family}: {families}"))
            .iter()
            .find(|s| s[0] == name && s[1] == labels)
            .unwrap_or_else(|| panic!("no {name} {labels} in {}", families[family]))[2]
            .as_f64()
            .unwrap()
    };
    // prometheus_client names a counter's family without `_total`.
    let requests = "regintel_http_requests";
    assert_eq!(families[requests]["type"], "counter");
    let ok = serde_json::json!({"route": "getRegionProfile", "status": "200"});
    let refused = serde_json::json!({"route": "getRegionProfile", "status": "429"});
    assert_eq!(sample(requests, "regintel_http_requests_total", ok), 3.0);
    assert_eq!(
        sample(requests, "regintel_http_requests_total", refused),
        2.0
    );
    let unmatched = serde_json::json!({"route": "unmatched", "status": "404"});
    assert_eq!(
        sample(requests, "regintel_http_requests_total", unmatched),
        1.0
    );
    let latency = "regintel_http_request_duration_seconds";
    assert_eq!(families[latency]["type"], "histogram");
    let route = serde_json::json!({"route": "getRegionProfile"});
    assert_eq!(
        sample(
            latency,
            "regintel_http_request_duration_seconds_count",
            route
        ),
        5.0
    );
    // The two refused profiles, each by the anonymous address's minute.
    let refusals = "regintel_rate_limit_refusals";
    assert_eq!(
        sample(
            refusals,
            "regintel_rate_limit_refusals_total",
            serde_json::json!({"bucket": "ip-minute"}),
        ),
        2.0
    );
    let cache = "regintel_cache_requests";
    let hits = sample(
        cache,
        "regintel_cache_requests_total",
        serde_json::json!({"result": "hit"}),
    );
    let misses = sample(
        cache,
        "regintel_cache_requests_total",
        serde_json::json!({"result": "miss"}),
    );
    assert_eq!((hits, misses), (2.0, 1.0));
    assert_eq!(families["regintel_webhook_queue_depth"]["type"], "gauge");
    for outcome in ["delivered", "retried", "failed", "deferred"] {
        sample(
            "regintel_webhook_deliveries",
            "regintel_webhook_deliveries_total",
            serde_json::json!({ "outcome": outcome }),
        );
    }
    assert_eq!(families["regintel_pool_wait_seconds"]["type"], "histogram");
    assert_eq!(
        sample(
            "regintel_import_duration_seconds",
            "regintel_import_duration_seconds_count",
            serde_json::json!({})
        ),
        0.0
    );
    // An upload's import is timed.
    let owner = server.account(
        "metrics@example.org",
        regintel::store::accounts::Tier::Professional,
    );
    let definition =
        serde_json::json!({"code": "metrics_test", "title": "Metrics test", "unit": "NR"});
    server
        .private_dataset(
            &owner,
            definition,
            "nuts_code,period,value,flags\nDE21,2024,1,\n",
        )
        .await;
    let text = String::from_utf8(server.client.get("/metrics").await.body).unwrap();
    assert!(
        text.contains("\nregintel_import_duration_seconds_count 1\n"),
        "{text}"
    );
    server.stop().await.unwrap();
}

fn metrics_token_and_two_failures_a_minute(config: &mut regintel::config::ServerConfig) {
    config.metrics_token = Some("scrape-token-0123456789".into());
    config.limits.auth_fail_per_minute = 2;
}

/// With a token, a scrape from anywhere must send it; a wrong one is a refused credential, so
/// an address guessing it is stopped by the auth-fail limit like one guessing API keys.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_the_metrics_token_is_capped_per_address() {
    let server = TestServer::start_with(Options {
        configure: Some(metrics_token_and_two_failures_a_minute),
        ..Options::default()
    })
    .await;
    let scrape = |client: Client, token: &'static str| async move {
        let header = format!("Bearer {token}");
        client
            .get_with("/metrics", &[("authorization", header.as_str())])
            .await
            .status
    };
    assert_eq!(
        server.client.get("/metrics").await.status,
        403,
        "loopback needs it too"
    );
    assert_eq!(
        scrape(server.client.clone(), "scrape-token-0123456789").await,
        200
    );
    for _ in 0..2 {
        assert_eq!(scrape(server.client.clone(), "a-guess").await, 401);
    }
    // The address has used its failures: even the right token waits.
    assert_eq!(scrape(server.client.clone(), "a-guess").await, 429);
    assert_eq!(
        scrape(server.client.clone(), "scrape-token-0123456789").await,
        429
    );
    // Another address is not held back by the guesser.
    let other = server.client.with_source("127.0.0.2");
    assert_eq!(scrape(other, "scrape-token-0123456789").await, 200);
    server.stop().await.unwrap();
}

#[test]
fn json_logs_carry_each_requests_id_and_unknown_variables_are_warned_about() {
    let data = bundled_data_dir();
    let analyst = account_in(
        data.path(),
        "logs@example.org",
        regintel::store::accounts::Tier::Institutional,
    );
    let mut cmd = serve_plain(data.path());
    cmd.args(["--log-format", "json"])
        .env("REGINTEL_LISTN", "0.0.0.0:80")
        .stderr(Stdio::piped());
    let mut started = start_plain(&mut cmd);
    let stderr = started.child.0.stderr.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel::<String>();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stderr).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let client = Client::new(started.addr, None);
    let resp = runtime.block_on(client.get_with(
        &format!("{BASE}/regions/DE21/profile"),
        &[("x-request-id", "ops-trace-0001")],
    ));
    assert_eq!(resp.status, 200);
    let mut seen = Vec::new();
    // One deadline for every event: log lines that keep coming do not put it off.
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let mut next_event = |what: &str, wanted: &dyn Fn(&serde_json::Value) -> bool| loop {
        let line = lines
            .recv_timeout(deadline.saturating_duration_since(std::time::Instant::now()))
            .unwrap_or_else(|_| panic!("no {what}; saw {seen:#?}"));
        let event: serde_json::Value =
            serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line}"));
        seen.push(event.clone());
        if wanted(&event) {
            break (event, seen.clone());
        }
    };
    let (access, _) = next_event("access line", &|e| e["target"] == "regintel::access");
    assert_eq!(access["span"]["request_id"], "ops-trace-0001", "{access}");
    assert_eq!(access["fields"]["status"], 200, "{access}");

    // A line logged by work the request left running on another thread: an export whose
    // client reads the status line and leaves.
    runtime.block_on(async {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut tcp = tokio::net::TcpStream::connect(started.addr).await.unwrap();
        let request = format!(
            "GET {BASE}/export/bulk/nama_10r_3gdp.csv HTTP/1.1\r\nhost: localhost\r\n\
             x-api-key: {}\r\nx-request-id: ops-trace-0002\r\n\r\n",
            analyst.api_key
        );
        tcp.write_all(request.as_bytes()).await.unwrap();
        let mut head = [0u8; 16];
        tcp.read_exact(&mut head).await.unwrap();
        assert!(head.starts_with(b"HTTP/1.1 200"), "{head:?}");
    });
    let (stopped, seen) = next_event("line of the abandoned export", &|e| {
        e["fields"]["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("export stopped"))
    });
    assert_eq!(stopped["span"]["request_id"], "ops-trace-0002", "{stopped}");
    let warned = seen.iter().any(|e| {
        e["level"] == "WARN"
            && e["fields"]["variable"] == "REGINTEL_LISTN"
            && e["fields"]["message"]
                .as_str()
                .is_some_and(|m| m.contains("unknown REGINTEL_ variable"))
    });
    assert!(warned, "{seen:#?}");
    drop(started);
}

/// Receives one datagram on the notification socket, or fails after a generous wait.
fn notification(socket: &std::os::unix::net::UnixDatagram) -> String {
    let mut buf = [0u8; 512];
    let n = socket
        .recv(&mut buf)
        .expect("a notification within the read timeout");
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn systemd_hears_of_readiness_and_stopping_on_a_socket_it_passed() {
    use std::os::fd::AsRawFd;
    use std::os::unix::process::CommandExt;
    let data = bundled_data_dir();
    let sockets = tempfile::tempdir().unwrap();
    let notify_path = sockets.path().join("notify");
    let systemd = std::os::unix::net::UnixDatagram::bind(&notify_path).unwrap();
    systemd
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    // The listening socket "systemd" made; the server must use it, not --listen.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let fd = listener.as_raw_fd();
    let mut cmd = Command::new("sh");
    // LISTEN_PID must be the server's pid: the shell's, which `exec` hands on.
    cmd.args([
        "-c",
        "LISTEN_PID=$$ LISTEN_FDS=1 exec \"$0\" \"$@\"",
        env!("CARGO_BIN_EXE_regintel"),
        "serve",
        "--plain-http",
        "--listen",
        "127.0.0.1:1",
        "--data-dir",
    ])
    .arg(data.path())
    .env_clear()
    .env("PATH", std::env::var_os("PATH").unwrap_or_default())
    .env("NOTIFY_SOCKET", &notify_path)
    .env("WATCHDOG_USEC", "20000000")
    .stdout(Stdio::null())
    .stderr(Stdio::piped());
    // SAFETY: dup2 is async-signal-safe; between fork and exec it only places the listening
    // socket at fd 3, where socket activation passes it (the copy has no close-on-exec flag).
    unsafe {
        cmd.pre_exec(move || {
            if libc::dup2(fd, 3) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = Running(cmd.spawn().unwrap());
    drop(listener);
    let ready = tokio::task::spawn_blocking({
        let systemd = systemd.try_clone().unwrap();
        move || notification(&systemd)
    })
    .await
    .unwrap();
    assert_eq!(ready, format!("READY=1\nMAINPID={}", child.0.id()));
    let client = Client::new(addr, None);
    assert_eq!(client.get("/healthz").await.status, 200);
    // The watchdog is pinged while the server works.
    let ping = tokio::task::spawn_blocking({
        let systemd = systemd.try_clone().unwrap();
        move || notification(&systemd)
    })
    .await
    .unwrap();
    assert_eq!(ping, "WATCHDOG=1");
    let status = Command::new("kill")
        .args(["-TERM", &child.0.id().to_string()])
        .bounded_output()
        .status;
    assert!(status.success());
    // Watchdog pings may come first; a server that only pings fails at the deadline.
    let stopping = tokio::task::spawn_blocking(move || {
        crate::bounded::until_blocking("STOPPING=1 after SIGTERM", Duration::from_secs(120), || {
            match notification(&systemd) {
                ping if ping == "WATCHDOG=1" => Err(ping),
                said => Ok(said),
            }
        })
    })
    .await
    .unwrap();
    assert_eq!(stopping, "STOPPING=1");
}

/// What `pgo/rustc`, the packaged build's rustc wrapper, runs for a compilation with `args`, with `echo`
/// standing in for rustc.
fn wrapped(args: &[&str]) -> Vec<String> {
    let wrapper = Path::new(env!("CARGO_MANIFEST_DIR")).join("pgo/rustc");
    let out = Command::new(&wrapper)
        .arg("echo")
        .args(args)
        .bounded_output();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8(out.stdout).unwrap();
    line.split_whitespace().map(str::to_owned).collect()
}

/// Plain builds (`cargo build`, `cargo test`, `cargo run --release`) run no wrapper: no Cargo
/// configuration of the repository names one or sets compiler flags (an offline build's
/// vendoring configuration may stand there). The packaged build (`cargo deb -- --config
/// pgo/cargo.toml` and the benches) is laid out by the release's profile, the one of Cargo.toml's
/// version, named by an absolute path (Cargo compiles dependencies in other directories); build
/// scripts and proc-macros are compiled as they are.
#[test]
fn only_packaged_builds_use_the_release_profile() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for name in [".cargo/config.toml", ".cargo/config"] {
        let config = std::fs::read_to_string(root.join(name)).unwrap_or_default();
        assert!(
            !config.contains("rustc-wrapper") && !config.contains("rustflags"),
            "{name} changes how plain builds compile"
        );
    }
    let config = std::fs::read_to_string(root.join("pgo/cargo.toml")).unwrap();
    assert!(
        config
            .lines()
            .any(|l| l == r#"rustc-wrapper = "pgo/rustc""#),
        "{config}"
    );
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
    let version = manifest
        .lines()
        .find_map(|l| l.strip_prefix("version = \""))
        .and_then(|v| v.strip_suffix('"'))
        .unwrap();
    let packaged = wrapped(&["--crate-name", "hyper", "-C", "opt-level=3"]);
    let (flag, rest) = packaged.split_last().unwrap();
    assert_eq!(rest, ["--crate-name", "hyper", "-C", "opt-level=3"]);
    let profile = Path::new(flag.strip_prefix("-Cprofile-use=").unwrap());
    assert!(profile.is_absolute(), "{flag}");
    assert_eq!(
        profile.canonicalize().unwrap(),
        root.join(format!("pgo/regintel-{version}.profdata"))
            .canonicalize()
            .unwrap(),
        "the profile of the release in Cargo.toml"
    );
    // LLVM's indexed profile (IndexedInstrProf::Magic, little-endian), not a raw recording.
    let header = std::fs::read(profile).unwrap();
    assert_eq!(header[..8], *b"\xfflprofi\x81");
    for unchanged in [
        &["--crate-name", "hyper", "-C", "opt-level=2"][..],
        &["--crate-name", "regintel", "--test"],
        &["--crate-name", "build_script_build", "-C", "opt-level=0"],
    ] {
        assert_eq!(wrapped(unchanged), unchanged);
    }
}

#[test]
fn the_debian_package_unpacks_into_a_fresh_root_and_its_binary_serves() {
    let deb = tool("REGINTEL_DEB");
    let root = tempfile::tempdir().unwrap();
    let status = Command::new("dpkg-deb")
        .arg("-x")
        .arg(&deb)
        .arg(root.path())
        .bounded_output()
        .status;
    assert!(status.success());
    for file in [
        "usr/bin/regintel",
        "usr/lib/systemd/system/regintel.service",
        "usr/lib/systemd/system/regintel-listener.socket",
        "usr/lib/systemd/system/regintel-sync.service",
        "usr/lib/systemd/system/regintel-sync.timer",
        "etc/regintel/regintel.env",
        "usr/share/doc/regintel/README.md",
        "usr/share/doc/regintel/LICENSE",
        "usr/share/doc/regintel/CHANGELOG.md",
    ] {
        assert!(root.path().join(file).is_file(), "{file} is not in {deb}");
    }
    // The docs by topic, for sites without internet access, with the pictures they show.
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    for entry in std::fs::read_dir(&docs)
        .unwrap()
        .chain(std::fs::read_dir(docs.join("screenshots")).unwrap())
    {
        let path = entry.unwrap().path();
        if path.is_file() {
            let shipped = Path::new("usr/share/doc/regintel")
                .join(path.strip_prefix(docs.parent().unwrap()).unwrap());
            assert!(
                root.path().join(&shipped).is_file(),
                "{} is not in {deb}",
                shipped.display()
            );
        }
    }
    let conffiles = Command::new("dpkg-deb")
        .args(["--info", &deb, "conffiles"])
        .bounded_output();
    assert_eq!(
        String::from_utf8_lossy(&conffiles.stdout).trim(),
        "/etc/regintel/regintel.env"
    );
    let unit = std::fs::read_to_string(root.path().join("usr/lib/systemd/system/regintel.service"))
        .unwrap();
    assert!(unit.contains("Type=notify") && unit.contains("ExecStart=/usr/bin/regintel serve"));

    let binary = root.path().join("usr/bin/regintel");
    let version = Command::new(&binary).arg("--version").bounded_output();
    assert_eq!(
        String::from_utf8_lossy(&version.stdout).trim(),
        format!("regintel {}", env!("CARGO_PKG_VERSION"))
    );
    let data = bundled_data_dir();
    let args: Vec<std::ffi::OsString> = serve_plain(data.path())
        .get_args()
        .map(ToOwned::to_owned)
        .collect();
    let mut cmd = Command::new(&binary);
    cmd.args(args).env_clear().stdout(Stdio::piped());
    let started = start_plain(&mut cmd);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let client = Client::new(started.addr, None);
    let ready = runtime.block_on(client.get("/readyz"));
    assert_eq!(
        ready.status,
        200,
        "{}",
        String::from_utf8_lossy(&ready.body)
    );
    let profile = runtime.block_on(client.get(&format!("{BASE}/regions/DE21/profile")));
    assert_eq!(profile.status, 200);
    drop(started);
}

/// The systemd units the package installs.
const UNITS: [&str; 4] = [
    "regintel.service",
    "regintel-listener.socket",
    "regintel-sync.service",
    "regintel-sync.timer",
];

/// The package as dpkg installs it: file modes, dependencies, units that systemd accepts, and
/// maintainer scripts that enable regintel.service at installation (starting it only once its
/// settings are in place, saying so otherwise), restart it after an upgrade when it runs, stop it
/// on removal, and leave the optional socket and the sync timer disabled.
#[test]
fn the_debian_package_enables_its_unit_and_its_scripts_manage_it() {
    let deb = tool("REGINTEL_DEB");
    let listing = Command::new("dpkg-deb")
        .arg("-c")
        .arg(&deb)
        .bounded_output();
    let listing = String::from_utf8_lossy(&listing.stdout);
    let mode_of = |path: &str| -> String {
        listing
            .lines()
            .find(|l| l.ends_with(&format!(" ./{path}")))
            .unwrap_or_else(|| panic!("{path} is not in the package:\n{listing}"))
            .split_whitespace()
            .next()
            .unwrap()
            .to_owned()
    };
    assert_eq!(mode_of("usr/bin/regintel"), "-rwxr-xr-x");
    assert_eq!(mode_of("etc/regintel/regintel.env"), "-rw-r-----");
    for unit in UNITS {
        assert_eq!(
            mode_of(&format!("usr/lib/systemd/system/{unit}")),
            "-rw-r--r--"
        );
    }
    let field = |name: &str| {
        let out = Command::new("dpkg-deb")
            .args(["-f", &deb, name])
            .bounded_output();
        String::from_utf8_lossy(&out.stdout).trim().to_owned()
    };
    let depends = field("Depends");
    assert!(
        depends.contains("libc6 (>=") && depends.contains("init-system-helpers"),
        "{depends}"
    );

    // systemd accepts each unit as installed (its binary in place, every key known).
    let root = tempfile::tempdir().unwrap();
    assert!(
        Command::new("dpkg-deb")
            .arg("-x")
            .arg(&deb)
            .arg(root.path())
            .bounded_output()
            .status
            .success()
    );
    for unit in UNITS {
        let out = Command::new("systemd-analyze")
            .args(["verify", "--recursive-errors=no", "--man=no"])
            .arg(format!("--root={}", root.path().display()))
            .arg(format!("/usr/lib/systemd/system/{unit}"))
            .bounded_output();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success() && said.trim().is_empty(),
            "{unit}: {said}"
        );
    }

    // The maintainer scripts, run with the systemd helpers standing in (a first installation
    // here: nothing was enabled before; no systemd runs, so nothing is started).
    let scripts = tempfile::tempdir().unwrap();
    assert!(
        Command::new("dpkg-deb")
            .arg("-e")
            .arg(&deb)
            .arg(scripts.path())
            .bounded_output()
            .status
            .success()
    );
    let script = |name: &str| std::fs::read_to_string(scripts.path().join(name)).unwrap();
    let (postinst, prerm) = (script("postinst"), script("prerm"));
    assert!(
        postinst.contains("deb-systemd-invoke try-restart regintel.service"),
        "{postinst}"
    );
    assert!(
        !postinst.contains("try-restart regintel.service regintel-listener"),
        "{postinst}"
    );
    assert!(
        prerm.contains("[ \"$1\" = remove ]")
            && prerm.contains("deb-systemd-invoke stop regintel.service"),
        "{prerm}"
    );
    let helpers = tempfile::tempdir().unwrap();
    let calls = helpers.path().join("calls");
    for (helper, answer) in [
        (
            "deb-systemd-helper",
            "case \"$*\" in *debian-installed*) exit 1;; esac",
        ),
        ("deb-systemd-invoke", ""),
        ("systemctl", ""),
    ] {
        let path = helpers.path().join(helper);
        std::fs::write(
            &path,
            format!(
                "#!/bin/sh\necho \"{helper} $*\" >> {}\n{answer}\nexit 0\n",
                calls.display()
            ),
        )
        .unwrap();
        chmod(&path, 0o755);
    }
    let run = |name: &str, args: &[&str]| {
        let out = Command::new("sh")
            .arg(scripts.path().join(name))
            .args(args)
            .env(
                "PATH",
                format!("{}:/usr/bin:/bin", helpers.path().display()),
            )
            .bounded_output();
        assert!(
            out.status.success(),
            "{name} {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let said = run("postinst", &["configure", ""]);
    let called = std::fs::read_to_string(&calls).unwrap();
    assert!(
        called.contains("deb-systemd-helper enable regintel.service"),
        "{called}"
    );
    assert!(
        !called.contains("enable regintel-listener.socket"),
        "the socket stays disabled: {called}"
    );
    // A host without a route to Eurostat must not try every day: the operator enables it.
    assert!(
        !called.contains("enable regintel-sync.timer"),
        "the sync timer stays disabled: {called}"
    );
    if !Path::new("/etc/regintel").exists() {
        assert!(
            said.contains("regintel.service is enabled (it starts at boot) but not started"),
            "{said}"
        );
        assert!(!called.contains("deb-systemd-invoke start"), "{called}");
    }
    run("prerm", &["remove"]);
    run("postrm", &["remove"]);
    let called = std::fs::read_to_string(&calls).unwrap();
    assert!(
        called.contains("deb-systemd-helper mask regintel.service"),
        "{called}"
    );
}

#[test]
fn the_services_sandboxes_keep_their_exposure_at_most_2() {
    for (unit, path) in [
        ("regintel.service", "systemd/regintel.service"),
        (
            "regintel-sync.service",
            "systemd/sync/regintel-sync.service",
        ),
    ] {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let out = crate::bounded::output(
            Command::new("systemd-analyze")
                .args(["security", "--offline=true", "--no-pager"])
                .arg(&path),
            "systemd-analyze (Debian's systemd, which tests/run.sh installs)",
        );
        let report = String::from_utf8_lossy(&out.stdout);
        let exposure: f64 = report
            .lines()
            .find_map(|l| {
                l.split(&format!("Overall exposure level for {unit}: "))
                    .nth(1)
            })
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no exposure in:\n{report}"));
        assert!(exposure <= 2.0, "{unit}: exposure {exposure}:\n{report}");
    }
}

#[test]
fn an_import_off_a_terminal_reports_progress_in_plain_lines() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("progress_test.csv");
    let mut csv = String::from("dataset_code,nuts_code,nuts_level,time,value,unit,flags\n");
    for year in 1900..2000 {
        csv.push_str(&format!("progress_test,DE21,2,{year},{year},NR,\n"));
    }
    std::fs::write(&file, csv).unwrap();
    let out = regintel()
        .arg("import")
        .arg(&file)
        .arg("--data-dir")
        .arg(dir.path())
        .bounded_output();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.starts_with("progress_test"))
        .unwrap_or_else(|| panic!("no progress line in {stderr:?}"));
    assert!(
        line.contains(" 100/100 rows, ") && line.contains(" rows/s, "),
        "{line}"
    );
    assert!(!stderr.contains('\r'), "{stderr:?}");
}

/// Secrets at rest: after an API key is used, a session opened and a webhook registered (its
/// secret shown once), neither the plaintext key, the `whsec_` secret, the password nor the
/// session token is in the database, its WAL, a backup taken meanwhile or the server's log (at
/// debug level).
#[test]
fn no_secret_is_kept_in_plain_text_at_rest() {
    use crate::support::Request;
    let data = bundled_data_dir();
    chmod(data.path(), 0o700);
    let who = account_in(data.path(), "at-rest@example.org", Tier::Institutional);
    let elsewhere = tempfile::tempdir().unwrap();
    let log = elsewhere.path().join("serve.log");
    let started = start_plain(
        serve_plain(data.path())
            .arg("--webhook-allow-loopback")
            .env("RUST_LOG", "debug")
            .stderr(std::fs::File::create(&log).unwrap()),
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let client = Client::new(started.addr, None);
    let key = ("x-api-key", who.api_key.as_str());
    let used = runtime.block_on(client.get_with(&format!("{BASE}/regions/DE21"), &[key]));
    assert_eq!(used.status, 200);
    let post = |path: String, headers: &[(&str, &str)], body: serde_json::Value| {
        let mut headers = headers.to_vec();
        headers.push(("content-type", "application/json"));
        runtime.block_on(client.send(Request {
            method: "POST",
            path: &path,
            headers: &headers,
            body: body.to_string().into_bytes(),
        }))
    };
    let login = post(
        format!("{BASE}/auth/login"),
        &[],
        serde_json::json!({"email": who.email, "password": who.password}),
    );
    assert_eq!(login.status, 200);
    let token = login.json()["data"]["access_token"]
        .as_str()
        .unwrap()
        .to_owned();
    let receiver = runtime.block_on(crate::receiver::Receiver::start(204));
    let hook = post(
        format!("{BASE}/webhooks"),
        &[key],
        serde_json::json!({"url": receiver.url("/in"), "event_types": ["webhook.test"]}),
    );
    assert_eq!(hook.status, 201, "{}", hook.json());
    let secret = hook.json()["data"]["secret"].as_str().unwrap().to_owned();
    assert!(secret.starts_with("whsec_"));
    let backup = elsewhere.path().join("backup.sqlite");
    let out = regintel()
        .args(["backup", "--data-dir"])
        .arg(data.path())
        .arg(&backup)
        .bounded_output();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    drop(started);

    let db = data.path().join(regintel::store::DB_FILE);
    let wal = data
        .path()
        .join(format!("{}-wal", regintel::store::DB_FILE));
    let places = [db, wal, backup, log];
    let secrets = [
        ("the API key", who.api_key.as_str()),
        ("the webhook secret", secret.as_str()),
        (
            "the webhook secret's key",
            secret.trim_start_matches("whsec_"),
        ),
        ("the password", who.password.as_str()),
        ("the session token", token.as_str()),
    ];
    let contains =
        |bytes: &[u8], text: &str| bytes.windows(text.len()).any(|w| w == text.as_bytes());
    // The search finds what is there: the account's email, which is no secret.
    let backed_up = std::fs::read(&places[2]).unwrap();
    assert!(contains(&backed_up, &who.email));
    let mut read = 0;
    for place in &places {
        let Ok(bytes) = std::fs::read(place) else {
            continue;
        };
        read += 1;
        for (what, secret) in secrets {
            assert!(
                !contains(&bytes, secret),
                "{what} is in {}",
                place.display()
            );
        }
    }
    assert!(read >= 3, "the database, the backup and the log were read");
}
