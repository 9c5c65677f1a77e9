//! The binary, black-box: the demo in one command, serve's configuration checks, import and check.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::support::{BASE, Client, bundled_db};

fn regintel() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_regintel"));
    cmd.env_clear().env("RUST_LOG", "info");
    cmd
}

/// Kills the child on drop, so a failing test leaves no server behind.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn sigterm(child: &Child) {
    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Reads stdout lines until one contains `marker`; returns all lines read.
fn read_until(child: &mut Child, marker: &str) -> Vec<String> {
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

    let client = Client::new(addr, Some(&dir.path().join("demo-cert.pem")));
    let r = client.get(&format!("{BASE}/regions/DE21/profile")).await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["data"]["region"]["name"], "Oberbayern");

    sigterm(&child.0);
    let status = child.0.wait().unwrap();
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
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
}

#[test]
fn serve_announces_plain_http_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(bundled_db(), dir.path().join(regintel::store::DB_FILE)).unwrap();
    let mut child = regintel()
        .args([
            "serve",
            "--plain-http",
            "--listen",
            "127.0.0.1:0",
            "--data-dir",
        ])
        .arg(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    read_until(&mut child, "listening on http://");
    let mut child = Running(child);
    sigterm(&child.0);
    assert!(child.0.wait().unwrap().success());
    let mut stderr = String::new();
    std::io::Read::read_to_string(child.0.stderr.as_mut().unwrap(), &mut stderr).unwrap();
    assert!(stderr.contains("plain HTTP"), "{stderr}");
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
        .output()
        .unwrap();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("bad.tsv:2:") && stderr.contains("12x"),
        "{stderr}"
    );

    let data = tempfile::tempdir().unwrap();
    std::fs::copy(bundled_db(), data.path().join(regintel::store::DB_FILE)).unwrap();
    let out = regintel()
        .arg("check")
        .arg("--data-dir")
        .arg(data.path())
        .output()
        .unwrap();
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
}
