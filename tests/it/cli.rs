//! The binary, black-box: the demo in one command, serve's configuration checks, import and check.

use crate::bounded::Bounded;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::support::{BASE, Client, Running, bundled_db, regintel, run_ok, serve_plain};

/// Sends a signal (`-TERM`, `-INT`) to the child.
fn signal(child: &Child, which: &str) {
    let status = Command::new("kill")
        .args([which, &child.id().to_string()])
        .bounded_output()
        .status;
    assert!(status.success());
}

/// Reads stdout lines until one contains `marker`; returns all lines read.
pub fn read_until(child: &mut Child, marker: &str) -> Vec<String> {
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap_or_default()).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(120)) {
        let done = line.contains(marker);
        lines.push(line);
        if done {
            return lines;
        }
    }
    panic!("never printed {marker:?}; got {lines:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn demo_serves_https_with_credentials_file_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    // Reuse the bundled database so the demo's import step finds nothing to do.
    std::fs::copy(bundled_db(), dir.path().join(regintel::store::DB_FILE)).unwrap();
    let mut child = regintel()
        // The demo honours the rate-limit and webhook variables like `serve`.
        .env("REGINTEL_LIMIT_ANONYMOUS_MINUTE", "4")
        .env("REGINTEL_WEBHOOKS_PAUSED", "on")
        .args(["demo", "--listen", "127.0.0.1:0", "--dir"])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = read_until(&mut child, "Press Ctrl-C");
    let mut child = Running(child);
    let listening = lines
        .iter()
        .find(|l| l.contains("listening on https://"))
        .expect("address line");
    let addr: std::net::SocketAddr = listening
        .rsplit("https://")
        .next()
        .unwrap()
        .parse()
        .unwrap();
    let curl = lines
        .iter()
        .filter(|l| l.trim_start().starts_with("curl --cacert"))
        .count();
    assert_eq!(curl, 3, "{lines:?}");

    let credentials: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("demo-credentials.json")).unwrap())
            .unwrap();
    let base_url = credentials["base_url"].as_str().unwrap();
    assert_eq!(base_url, format!("https://localhost:{}{BASE}", addr.port()));

    // Every file the demo writes is readable by its owner only.
    for file in ["demo-cert.pem", "demo-key.pem", "demo-credentials.json"] {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(dir.path().join(file))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "{file}");
    }

    let client = Client::new(addr, Some(&dir.path().join("demo-cert.pem")));
    let r = client.get(&format!("{BASE}/regions/DE21/profile")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["data"]["region"]["name"], "Oberbayern");
    // It prints the explorer's address (the page itself is tested in tests/it/explore.rs; this
    // demo's anonymous budget of 4 a minute is spent below).
    let explorer = lines
        .iter()
        .find_map(|l| l.strip_prefix("Explorer: "))
        .expect("the explorer's address");
    assert!(explorer.starts_with(&format!("https://localhost:{}/explore ", addr.port())));
    let ready = client.get("/readyz").await;
    assert_eq!(ready.json()["data"]["webhooks"], "paused");

    // One professional and one institutional account, each with a working key and password.
    let accounts = credentials["accounts"].as_array().unwrap();
    let tiers: Vec<&str> = accounts
        .iter()
        .map(|a| a["tier"].as_str().unwrap())
        .collect();
    assert_eq!(tiers, ["professional", "institutional"]);
    let export = format!("{BASE}/export/bulk/tgs00010.csv");
    for account in accounts {
        let key = account["api_key"].as_str().unwrap();
        let r = client.get_with(&export, &[("x-api-key", key)]).await;
        let expected = if account["tier"] == "institutional" {
            200
        } else {
            403
        };
        assert_eq!(r.status, expected, "{account}");
        let login = serde_json::json!({"email": account["email"], "password": account["password"]});
        let r = client
            .send(crate::support::Request {
                method: "POST",
                path: &format!("{BASE}/auth/login"),
                headers: &[("content-type", "application/json")],
                body: login.to_string().into_bytes(),
            })
            .await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    }

    // Three anonymous requests so far (a profile, two logins): the fourth is the last allowed.
    let fourth = client.get(&format!("{BASE}/regions/DE21")).await;
    assert_eq!(fourth.status, 200);
    assert_eq!(fourth.header("x-ratelimit-limit"), Some("4"));
    assert_eq!(fourth.header("x-ratelimit-remaining"), Some("0"));
    let fifth = client.get(&format!("{BASE}/regions/DE21")).await;
    fifth.error(429, "rate_limit_exceeded");

    signal(&child.0, "-TERM");
    let status = crate::bounded::wait(&mut child.0, "the demo to stop on SIGTERM");
    assert!(status.success(), "{status:?}");
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.0.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains("reusing the data"), "{stderr}");
    assert!(stderr.contains("SIGTERM received"), "{stderr}");
}

#[test]
fn serve_refuses_bad_configuration_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (
            &["serve", "--listen", "127.0.0.1:0"],
            "give --tls-cert and --tls-key",
        ),
        (
            &["serve", "--listen", "127.0.0.1:0", "--tls-cert", "x.pem"],
            "go together",
        ),
        (
            &["serve", "--listen", "127.0.0.1:0", "--plain-http"],
            "regintel import --bundled",
        ),
        (
            &[
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--plain-http",
                "--service",
                "Bad Name",
            ],
            "--service",
        ),
    ];
    for (args, message) in cases {
        let out = regintel()
            .args(args)
            .arg("--data-dir")
            .arg(dir.path())
            .bounded_output();
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

/// Ctrl-C (SIGINT) stops the server as SIGTERM does (the demo test sends SIGTERM).
#[test]
fn serve_announces_plain_http_and_stops_on_ctrl_c() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(bundled_db(), dir.path().join(regintel::store::DB_FILE)).unwrap();
    let mut child = serve_plain(dir.path())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    read_until(&mut child, "listening on http://");
    let mut child = Running(child);
    signal(&child.0, "-INT");
    assert!(crate::bounded::wait(&mut child.0, "the server to stop on SIGINT").success());
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.0.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains("plain HTTP"), "{stderr}");
    assert!(stderr.contains("Ctrl-C received"), "{stderr}");
}

#[test]
fn import_reports_malformed_files_and_check_reports_the_database() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.tsv");
    std::fs::write(&bad, "unit,geo\\time\t2020 \nNR,DE21\t12x \n").unwrap();
    let out = regintel()
        .arg("import")
        .arg(&bad)
        .arg("--data-dir")
        .arg(dir.path())
        .bounded_output();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.tsv:2:") && stderr.contains("12x"),
        "{stderr}"
    );

    let data = tempfile::tempdir().unwrap();
    std::fs::copy(bundled_db(), data.path().join(regintel::store::DB_FILE)).unwrap();
    // A data directory other users may read fails the check (see tests/it/operations.rs).
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(data.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    }
    let out = regintel()
        .args(["check", "--plain-http", "--data-dir"])
        .arg(data.path())
        .bounded_output();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("ok") && stdout.contains("13 datasets"),
        "{stdout}"
    );

    // A secret file the settings name, readable by others, fails the check, naming it; so does
    // a database URL file handed to `migrate`.
    {
        use std::os::unix::fs::PermissionsExt;
        let token = data.path().join("metrics.token");
        std::fs::write(&token, "a-token-of-enough-length-0123456789").unwrap();
        std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o644)).unwrap();
        let out = regintel()
            .args(["check", "--plain-http", "--data-dir"])
            .arg(data.path())
            .arg("--metrics-token-file")
            .arg(&token)
            .bounded_output();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{said}");
        assert!(
            said.contains("--metrics-token-file") && said.contains("mode 644"),
            "{said}"
        );
        std::fs::set_permissions(&token, std::fs::Permissions::from_mode(0o600)).unwrap();
        let out = regintel()
            .args(["check", "--plain-http", "--data-dir"])
            .arg(data.path())
            .arg("--metrics-token-file")
            .arg(&token)
            .bounded_output();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let url = data.path().join("url");
        std::fs::write(&url, "postgres://owner:pw@127.0.0.1:1/db").unwrap();
        std::fs::set_permissions(&url, std::fs::Permissions::from_mode(0o640)).unwrap();
        for args in [
            &["check", "--plain-http", "--database-url-file"][..],
            &["migrate", "--to-file"],
        ] {
            let out = regintel()
                .args(args)
                .arg(&url)
                .arg("--data-dir")
                .arg(data.path())
                .bounded_output();
            let said = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{args:?}: {said}");
            assert!(
                said.contains("mode 640") && said.contains("chmod 600"),
                "{said}"
            );
            assert!(!said.contains("owner:pw"), "{said}");
        }
        std::fs::remove_file(&url).unwrap();
        std::fs::remove_file(&token).unwrap();
    }

    // `import --bundled` on data that already holds the extract writes nothing.
    let again = run_ok(&["import", "--bundled", "--json"], data.path(), None);
    let reports: serde_json::Value = serde_json::from_str(&again).unwrap();
    let datasets = reports[0]["datasets"].as_array().unwrap();
    assert_eq!(datasets.len(), 13);
    assert!(datasets.iter().all(|d| d["snapshot"].is_null()), "{again}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_commands_manage_accounts_keys_and_private_imports() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(bundled_db(), dir.path().join(regintel::store::DB_FILE)).unwrap();
    let d = dir.path();
    // Password from standard input; a short one is refused.
    let short = regintel()
        .args([
            "account",
            "create",
            "short@example.org",
            "--tier",
            "professional",
            "--password-stdin",
            "--data-dir",
        ])
        .arg(d)
        .stdin(Stdio::null())
        .bounded_output();
    assert!(!short.status.success());
    assert!(String::from_utf8_lossy(&short.stderr).contains("15 characters"));
    let created = run_ok(
        &[
            "account",
            "create",
            "ana@example.org",
            "--tier",
            "professional",
            "--name",
            "Ana",
            "--password-stdin",
            "--json",
        ],
        d,
        Some("correct horse battery staple\n"),
    );
    let created: serde_json::Value = serde_json::from_str(&created).unwrap();
    assert_eq!(created["account"]["tier"], "professional");
    assert!(
        created.get("password").is_none(),
        "a password from stdin is not printed"
    );
    // A generated password is printed once.
    let generated = run_ok(
        &[
            "account",
            "create",
            "bo@example.org",
            "--tier",
            "institutional",
            "--json",
        ],
        d,
        None,
    );
    let generated: serde_json::Value = serde_json::from_str(&generated).unwrap();
    assert_eq!(generated["password"].as_str().unwrap().len(), 24);

    let list: serde_json::Value =
        serde_json::from_str(&run_ok(&["account", "list", "--json"], d, None)).unwrap();
    assert_eq!(list["accounts"].as_array().unwrap().len(), 2);
    assert!(
        !list.to_string().contains("argon2"),
        "no password hashes in listings"
    );

    let key: serde_json::Value = serde_json::from_str(&run_ok(
        &["key", "create", "ana@example.org", "--json"],
        d,
        None,
    ))
    .unwrap();
    let api_key = key["api_key"].as_str().unwrap().to_owned();
    let key_id = key["key_id"].as_str().unwrap().to_owned();
    // Professional: one active key.
    let second = regintel()
        .args(["key", "create", "ana@example.org", "--data-dir"])
        .arg(d)
        .bounded_output();
    assert!(!second.status.success());
    let keys: serde_json::Value = serde_json::from_str(&run_ok(
        &["key", "list", "--email", "ana@example.org", "--json"],
        d,
        None,
    ))
    .unwrap();
    assert_eq!(keys["keys"][0]["key_id"], key_id.as_str());
    assert!(
        !keys.to_string().contains(&api_key[19..]),
        "listings never show the secret"
    );

    // A private import for ana, served with her key only.
    let csv = d.join("mine.csv");
    std::fs::write(&csv, "dataset_code,nuts_code,nuts_level,time,value,unit,flags,src_line\nana_data,DE21,2,2022,42,NR,,2\n").unwrap();
    run_ok(
        &[
            "import",
            "--account",
            "ana@example.org",
            csv.to_str().unwrap(),
        ],
        d,
        None,
    );

    // The minimal form, as for uploads: --dataset names it, the unit is the dataset's own.
    let minimal = d.join("more.csv");
    std::fs::write(&minimal, "geo,period,value\nDE21,2023,43\n").unwrap();
    let added = run_ok(
        &[
            "import",
            "--account",
            "ana@example.org",
            "--dataset",
            "ana_data",
            "--json",
            minimal.to_str().unwrap(),
        ],
        d,
        None,
    );
    let added: serde_json::Value = serde_json::from_str(&added).unwrap();
    assert_eq!(added[0]["datasets"][0]["added"], 1, "{added}");
    // Without a dataset to take the unit from, the column is needed.
    let unitless = regintel()
        .args([
            "import",
            "--account",
            "ana@example.org",
            "--dataset",
            "new_one",
        ])
        .arg(&minimal)
        .arg("--data-dir")
        .arg(d)
        .bounded_output();
    assert!(!unitless.status.success());
    assert!(
        String::from_utf8_lossy(&unitless.stderr).contains("missing column \"unit\""),
        "{}",
        String::from_utf8_lossy(&unitless.stderr)
    );

    let s = crate::support::TestServer::start_in(dir, crate::support::Options::default()).await;
    let path = "/compare?regions=DE21,FR10&dataset=ana_data";
    let r = s
        .client
        .get_with(&format!("{BASE}{path}"), &[("x-api-key", &api_key)])
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    s.get(path).await.error(404, "unknown_dataset");

    // set-tier and disable take effect on the running server from its next background round
    // (about a second): an upgrade opens the export, a downgrade and a disabled account close
    // it again.
    let export = "/export/bulk/tgs00010.csv";
    let key = [("x-api-key", api_key.as_str())];
    let next = async || {
        s.background_rounds(2).await;
        s.client.get_with(&format!("{BASE}{export}"), &key).await
    };
    let operator = |args: &[&str]| run_ok(args, s.dir.path(), None);
    assert_eq!(s.get(export).await.status, 401);
    s.client
        .get_with(&format!("{BASE}{export}"), &key)
        .await
        .error(403, "insufficient_tier");
    let tier = |t: &'static str| ["account", "set-tier", "ana@example.org", t];
    operator(&tier("institutional"));
    let r = next().await;
    assert_eq!(r.status, 200, "the upgrade applies");
    operator(&tier("professional"));
    next().await.error(403, "insufficient_tier");
    operator(&tier("institutional"));
    assert_eq!(next().await.status, 200);
    operator(&["account", "disable", "ana@example.org"]);
    next().await.error(401, "invalid_credential");

    let revoked = run_ok(&["key", "revoke", &key_id], s.dir.path(), None);
    assert!(revoked.contains("revoked"));
}

/// The binary under `sh -c 'umask 000 && exec regintel ARGS'`.
fn with_open_umask(args: &[&str], data_dir: &std::path::Path) -> std::process::Command {
    let mut cmd = std::process::Command::new("sh");
    cmd.env_clear()
        .arg("-c")
        .arg("umask 000 && exec \"$@\"")
        .arg("sh")
        .arg(env!("CARGO_BIN_EXE_regintel"))
        .args(args)
        .arg("--data-dir")
        .arg(data_dir)
        .stdout(Stdio::piped());
    cmd
}

/// With an open umask (000) SQLite created the database world-readable (0644), and its WAL and
/// shared-memory files with it; private rows and key MACs were readable by every local user.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_database_and_its_wal_are_private_whatever_the_umask() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("fresh");
    // An import makes the data directory and the database (account commands need one).
    let file = dir.path().join("tiny.csv");
    std::fs::write(&file, "nuts_code,period,value\nDE21,2023,1\n").unwrap();
    let file = file.display().to_string();
    let out = with_open_umask(
        &["import", "--dataset", "tiny", "--unit", "NR", &file],
        &data,
    )
    .bounded_output();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // While a server runs, the WAL and shared-memory files exist.
    let server = crate::support::start_plain(&mut with_open_umask(
        &["serve", "--plain-http", "--listen", "127.0.0.1:0"],
        &data,
    ));
    let r = Client::new(server.addr, None).get("/healthz").await;
    assert_eq!(r.status, 200);
    let mode = |name: &str| {
        let meta = std::fs::metadata(data.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        meta.permissions().mode() & 0o777
    };
    let db = regintel::store::DB_FILE;
    for file in [db.to_owned(), format!("{db}-wal"), format!("{db}-shm")] {
        assert_eq!(mode(&file), 0o600, "{file}");
    }
    assert_eq!(mode(""), 0o700, "the data dir");
    drop(server);
}

/// Snapshots and citations of an operator's import named the file by the path it had on the
/// operator's machine (`/home/ana/exports/...`); they name the file.
#[test]
fn operator_imports_record_the_file_name_not_its_path() {
    let dir = tempfile::tempdir().unwrap();
    let nested = dir.path().join("home").join("ana").join("exports");
    std::fs::create_dir_all(&nested).unwrap();
    let file = nested.join("my_survey.csv");
    std::fs::write(
        &file,
        "dataset_code,nuts_code,nuts_level,time,value,unit,flags\nmy_survey,DE21,2,2022,1,NR,\n",
    )
    .unwrap();
    let data = dir.path().join("data");
    let out = run_ok(&["import", file.to_str().unwrap(), "--json"], &data, None);
    assert!(!out.contains("exports"), "{out}");
    let db = rusqlite::Connection::open(data.join(regintel::store::DB_FILE)).unwrap();
    let (name, origin): (String, String) = db
        .query_row(
            "SELECT s.file_name, src.origin_json FROM snapshots s
             JOIN datasets d ON d.id = s.dataset_id JOIN sources src ON src.id = d.source_id",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert_eq!(name, "my_survey.csv");
    let origin: serde_json::Value = serde_json::from_str(&origin).unwrap();
    assert_eq!(origin["path"], "my_survey.csv");
}

/// The operator lines of docs/operations.md work as written: account and key commands refuse a data
/// directory without a database (they made one nobody reads), and a private import of the CSV a
/// user writes (`nuts_code,period,value`) takes its dataset, unit and title from the command.
#[test]
fn operator_lines_of_the_operations_guide_work_as_written() {
    let empty = tempfile::tempdir().unwrap();
    for args in [
        &[
            "account",
            "create",
            "ana@example.org",
            "--tier",
            "institutional",
        ][..],
        &["key", "create", "ana@example.org"][..],
        &["account", "list"][..],
    ] {
        let out = regintel()
            .args(args)
            .arg("--data-dir")
            .arg(empty.path())
            .bounded_output();
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            !out.status.success() && said.contains("no database at") && said.contains("--data-dir"),
            "{args:?}: {said}"
        );
        assert_eq!(
            std::fs::read_dir(empty.path()).unwrap().count(),
            0,
            "nothing made"
        );
    }

    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(bundled_db(), dir.path().join(regintel::store::DB_FILE)).unwrap();
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/operations.md"))
            .unwrap();
    let line = |start: &str| -> Vec<String> {
        let line = readme
            .lines()
            .find(|l| l.starts_with(start))
            .unwrap_or_else(|| panic!("docs/operations.md has no line starting {start}"));
        let command = line.split("  #").next().unwrap();
        // The words of the line, quotes kept together, the data directory made this test's.
        let mut words = Vec::new();
        let mut quoted: Option<String> = None;
        for word in command.split_whitespace().skip(1) {
            match (&mut quoted, word.strip_prefix('"')) {
                (None, Some(rest)) if rest.ends_with('"') => {
                    words.push(rest.trim_end_matches('"').to_owned())
                }
                (None, Some(rest)) => quoted = Some(rest.to_owned()),
                (Some(q), _) if word.ends_with('"') => {
                    words.push(format!("{q} {}", word.trim_end_matches('"')));
                    quoted = None;
                }
                (Some(q), _) => *q = format!("{q} {word}"),
                (None, None) => words.push(word.to_owned()),
            }
        }
        words
            .into_iter()
            .map(|w| match w.as_str() {
                "/var/lib/regintel" => dir.path().display().to_string(),
                _ => w,
            })
            .collect()
    };
    let run = |words: Vec<String>| {
        let out = regintel()
            .args(&words)
            .current_dir(dir.path())
            .bounded_output();
        assert!(
            out.status.success(),
            "{words:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    run(line("regintel account create --data-dir"));
    run(line("regintel key create --data-dir"));
    std::fs::write(
        dir.path().join("our_survey.csv"),
        "nuts_code,period,value\nDE21,2023,12.5\nde22,2023,11\n",
    )
    .unwrap();
    run(line(
        "regintel import --data-dir /var/lib/regintel --account",
    ));
    let db = rusqlite::Connection::open(dir.path().join(regintel::store::DB_FILE)).unwrap();
    let (title, headline, rows): (String, String, i64) = db
        .query_row(
            "SELECT title, headline_json,
                    (SELECT count(*) FROM observations o JOIN series s ON s.id = o.series_id
                     WHERE s.dataset_id = d.id AND s.unit = 'PC')
             FROM datasets d WHERE code = 'our_survey'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .unwrap();
    assert_eq!((title.as_str(), rows), ("Our survey", 2));
    assert!(headline.contains("\"PC\""), "{headline}");

    // The unit in lower case is read in capitals; another than the dataset's is refused.
    let again = |unit: &str| {
        regintel()
            .args([
                "import",
                "--account",
                "ana@example.org",
                "--dataset",
                "our_survey",
            ])
            .args(["--unit", unit, "--data-dir"])
            .arg(dir.path())
            .arg(dir.path().join("our_survey.csv"))
            .bounded_output()
    };
    assert!(again("pc").status.success());
    let other = again("NR");
    let said = String::from_utf8_lossy(&other.stderr);
    assert!(
        !other.status.success() && said.contains("the dataset's unit is PC"),
        "{said}"
    );
}

fn succeeded(out: &std::process::Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every line of output is one JSON object, none of it text.
fn all_json(what: &str, text: &str) -> Vec<serde_json::Value> {
    text.lines()
        .map(|line| {
            serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("{what}: a line that is not JSON ({e}): {line:?}"))
        })
        .collect()
}

/// The log event whose message is `message`.
fn event<'a>(lines: &'a [serde_json::Value], message: &str) -> &'a serde_json::Value {
    lines
        .iter()
        .find(|l| l["fields"]["message"] == message)
        .unwrap_or_else(|| panic!("no {message:?} event in {lines:?}"))
}

/// With `--log-format json` every line a command writes is JSON: an import's progress and
/// summary (as log events with their figures as fields), `check`'s findings, the listen address,
/// a refusal at exit (its reason a field).
#[test]
fn with_json_logs_every_line_is_json() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("tiny.csv");
    std::fs::write(&file, "nuts_code,period,value\nDE21,2023,1\nDE22,2023,2\n").unwrap();
    let out = regintel()
        .args([
            "--log-format",
            "json",
            "import",
            "--dataset",
            "tiny",
            "--unit",
            "NR",
        ])
        .arg(&file)
        .arg("--data-dir")
        .arg(&data)
        .bounded_output();
    succeeded(&out);
    all_json("import stdout", &String::from_utf8_lossy(&out.stdout));
    let logged = all_json("import stderr", &String::from_utf8_lossy(&out.stderr));
    let written = &event(&logged, "dataset written")["fields"];
    assert_eq!(
        (written["dataset"].as_str(), written["rows"].as_u64()),
        (Some("tiny"), Some(2))
    );
    let imported = &event(&logged, "imported")["fields"];
    assert_eq!(imported["added"], 2, "{imported}");
    assert!(event(&logged, "import done")["fields"]["seconds"].is_number());

    let out = regintel()
        .env("REGINTEL_LOG_FORMAT", "json")
        .args(["check", "--plain-http", "--data-dir"])
        .arg(&data)
        .bounded_output();
    succeeded(&out);
    assert!(
        out.stdout.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let logged = all_json("check", &String::from_utf8_lossy(&out.stderr));
    event(&logged, "settings: ok");
    assert!(
        logged.iter().any(|l| l["level"] == "WARN"
            && l["fields"]["message"]
                .as_str()
                .unwrap()
                .starts_with("no metrics token")),
        "{logged:?}"
    );

    // A refusal at exit: an ERROR event whose reason is a field.
    let out = regintel()
        .env("REGINTEL_LOG_FORMAT", "json")
        .args(["account", "list", "--data-dir"])
        .arg(dir.path().join("nowhere"))
        .bounded_output();
    assert!(!out.status.success());
    let logged = all_json("refusal", &String::from_utf8_lossy(&out.stderr));
    let stopped = event(&logged, "regintel stopped");
    assert_eq!(stopped["level"], "ERROR");
    assert!(
        stopped["fields"]["error"]
            .as_str()
            .unwrap()
            .starts_with("no database at"),
        "{stopped}"
    );

    // The listen address, on stdout as JSON; the server's log lines too.
    let crate::support::Started {
        child: mut server,
        addr,
        printed,
        ..
    } = crate::support::start_plain(
        crate::support::serve_plain(&data)
            .env("REGINTEL_LOG_FORMAT", "json")
            .stderr(Stdio::piped()),
    );
    assert_eq!(printed.len(), 1, "the address comes first: {printed:?}");
    let listening: serde_json::Value = serde_json::from_str(&printed[0]).expect(&printed[0]);
    assert!(listening["listening"].is_string(), "{listening}");
    let ready = tokio::runtime::Runtime::new()
        .unwrap()
        .block_on(Client::new(addr, None).get("/readyz"));
    assert_eq!(ready.status, 200);
    signal(&server.0, "-INT");
    crate::bounded::wait(&mut server.0, "the server to stop on SIGINT");
    let mut log = String::new();
    std::io::Read::read_to_string(&mut server.0.stderr.take().unwrap(), &mut log).unwrap();
    let logged = all_json("serve", &log);
    assert!(
        logged.iter().any(
            |l| l["fields"]["message"] == "shutting down: draining connections"
                && l["fields"]["drain_timeout_seconds"].is_number()
        ),
        "{logged:?}"
    );
}

/// `backup` copies the SQLite file; on PostgreSQL it refuses (before connecting to anything)
/// and names PostgreSQL's own tools, and writes no file.
#[test]
fn backup_refuses_a_postgresql_database_and_names_its_tools() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("backup.sqlite");
    let out = regintel()
        .args(["backup", "--data-dir"])
        .arg(dir.path())
        // No server listens there: the refusal must not depend on one.
        .args(["--database-url", "postgres://owner@127.0.0.1:1/regintel"])
        .arg(&target)
        .bounded_output();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the database is PostgreSQL") && stderr.contains("pg_dump"),
        "{stderr}"
    );
    assert!(!target.exists());
}
