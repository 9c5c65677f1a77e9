//! The documentation cannot drift from the code. Against a real demo (`regintel demo`), every
//! shell block of README.md and docs/*.md marked `sh runnable` runs, each file's blocks in order
//! as one bash script, and each command ending in `# -> STATUS FRAGMENT` is checked: the status
//! of the last HTTP answer it got, and the fragment in what it printed (whitespace ignored, `...`
//! standing for any text). Every answer example (a `json answer METHOD PATH [BODY]` block) holds
//! only keys the real answer has, where it has them.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use serde_json::Value;

use crate::cli::read_until;
use crate::support::{BASE, Client, Request, Running, bundled_db, regintel};

const MARK: &str = "# -> ";

/// README.md and every page of docs/.
fn documents() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    pages.sort();
    pages.insert(0, root.join("README.md"));
    pages
}

/// The fenced blocks of a Markdown text whose info string starts with `info`: (the rest of the
/// info string, the block's lines without the fence's indent, the line of its opening fence).
fn blocks<'a>(text: &'a str, info: &str) -> Vec<(&'a str, Vec<&'a str>, usize)> {
    struct Open<'a> {
        rest: &'a str,
        indent: usize,
        lines: Vec<&'a str>,
        wanted: bool,
        at: usize,
    }
    let mut out = Vec::new();
    let mut open: Option<Open> = None;
    for (n, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        match open.take() {
            Some(block) if trimmed.trim_end() == "```" => {
                if block.wanted {
                    out.push((block.rest, block.lines, block.at));
                }
            }
            Some(mut block) => {
                block.lines.push(&line[indent.min(block.indent)..]);
                open = Some(block);
            }
            None => {
                if let Some(fence) = trimmed.strip_prefix("```") {
                    let rest = fence.strip_prefix(info);
                    open = Some(Open {
                        wanted: rest.is_some_and(|r| r.is_empty() || r.starts_with(' ')),
                        rest: rest.unwrap_or_default().trim(),
                        indent,
                        lines: Vec::new(),
                        at: n + 1,
                    });
                }
            }
        }
    }
    assert!(open.is_none(), "a fence is not closed");
    out
}

/// One expectation: the command, its line in the document, the status and the fragment.
struct Expected {
    line: String,
    status: u16,
    fragment: String,
}

/// The bash script of a document's runnable blocks, and its expectations (the `n`th writes its
/// output to `out/n` and the headers of its last answer to `out/n.headers`).
fn script(blocks: &[(&str, Vec<&str>, usize)]) -> (String, Vec<Expected>) {
    let mut script = String::from("set -euo pipefail\n");
    let mut expected = Vec::new();
    for (_, lines, _) in blocks {
        let mut command: Vec<&str> = Vec::new();
        for line in lines {
            command.push(line);
            if line.trim_end().ends_with('\\') {
                continue;
            }
            let last = command.pop().unwrap();
            match last.split_once(MARK) {
                Some((code, expectation)) => {
                    let (status, fragment) = expectation
                        .trim()
                        .split_once(' ')
                        .unwrap_or((expectation.trim(), ""));
                    let n = expected.len();
                    let mut text = command.join("\n");
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(code.trim_end());
                    script.push_str(&format!(
                        "rm -f \"$CURL_HOME/headers\"\n( {text}\n) > out/{n}\n\
                         cp \"$CURL_HOME/headers\" out/{n}.headers 2>/dev/null || true\n"
                    ));
                    expected.push(Expected {
                        line: text,
                        status: status
                            .parse()
                            .unwrap_or_else(|_| panic!("not a status: {status:?} in {last}")),
                        fragment: fragment.to_owned(),
                    });
                }
                None => {
                    for line in command.iter().chain([&last]) {
                        script.push_str(line);
                        script.push('\n');
                    }
                }
            }
            command.clear();
        }
        assert!(command.is_empty(), "a block ends in a continuation");
    }
    (script, expected)
}

/// Whether `text` holds `fragment`, all whitespace ignored and `...` standing for any text.
fn holds(text: &str, fragment: &str) -> bool {
    let squeeze = |s: &str| s.split_whitespace().collect::<String>();
    let text = squeeze(text);
    let mut at = 0;
    for piece in squeeze(fragment).split("...") {
        match text[at..].find(piece) {
            Some(found) => at += found + piece.len(),
            None => return false,
        }
    }
    true
}

/// The status of the last answer in a `curl -D` headers file.
fn last_status(headers: &str) -> Option<u16> {
    headers
        .lines()
        .rfind(|l| l.starts_with("HTTP/"))?
        .split_whitespace()
        .nth(1)?
        .parse()
        .ok()
}

/// The places in `example` whose keys `real` lacks: an object's keys (but `...`), recursively;
/// an array's objects each against some element of the real array.
fn missing_keys(example: &Value, real: &Value, at: &str, out: &mut Vec<String>) {
    match (example, real) {
        (Value::Object(e), Value::Object(r)) => {
            for (key, value) in e.iter().filter(|(k, _)| *k != "...") {
                match r.get(key) {
                    Some(inner) => missing_keys(value, inner, &format!("{at}.{key}"), out),
                    None => out.push(format!("{at}.{key}")),
                }
            }
        }
        (Value::Array(e), Value::Array(r)) => {
            for item in e.iter().filter(|i| i.is_object() || i.is_array()) {
                let misses = |candidate: &Value| {
                    let mut m = Vec::new();
                    missing_keys(item, candidate, &format!("{at}[]"), &mut m);
                    m
                };
                if let Some(fewest) = r.iter().map(misses).min_by_key(Vec::len) {
                    out.extend(fewest);
                } else {
                    out.push(format!("{at}[] (the answer's array is empty)"));
                }
            }
        }
        (Value::Object(_) | Value::Array(_), Value::Null) => {
            out.push(format!("{at} (null in the answer)"))
        }
        (Value::Object(_), _) => out.push(format!("{at} (not an object in the answer)")),
        (Value::Array(_), _) => out.push(format!("{at} (not an array in the answer)")),
        _ => {}
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_docs_runnable_blocks_and_answer_examples_hold_against_the_demo() {
    let dir = tempfile::tempdir().unwrap();
    let demo = dir.path().join("regintel-demo");
    std::fs::create_dir(&demo).unwrap();
    // Owner-only, as the demo makes it (`regintel check` refuses a directory others may read).
    std::fs::set_permissions(&demo, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
    // The bundled database: the demo's import step finds nothing to do.
    std::fs::copy(bundled_db(), demo.join(regintel::store::DB_FILE)).unwrap();
    // Limits no walk through the docs reaches, however slowly the machine runs it; webhook
    // endpoints on this machine, as docs/webhooks.md starts the demo.
    let mut command = regintel();
    command.env("REGINTEL_WEBHOOK_ALLOW_LOOPBACK", "on");
    for tier in ["ANONYMOUS", "PROFESSIONAL", "INSTITUTIONAL"] {
        for window in ["MINUTE", "HOUR", "DAY"] {
            command.env(format!("REGINTEL_LIMIT_{tier}_{window}"), "100000");
        }
    }
    let mut child = command
        .current_dir(dir.path())
        .args(["demo", "--listen", "127.0.0.1:0", "--dir", "regintel-demo"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    read_until(&mut child, "Press Ctrl-C");
    let _demo = Running(child);
    let credentials: Value =
        serde_json::from_slice(&std::fs::read(demo.join("demo-credentials.json")).unwrap())
            .unwrap();
    let key = credentials["accounts"][1]["api_key"]
        .as_str()
        .unwrap()
        .to_owned();
    let port: u16 = credentials["base_url"].as_str().unwrap()["https://localhost:".len()..]
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap();

    // `regintel` on the PATH, and curl told to keep each answer's headers and to give up on one
    // that does not come (a hung request fails its document, naming the command).
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_regintel"), bin.join("regintel")).unwrap();
    let curl_home = dir.path().join("curl-home");
    std::fs::create_dir(&curl_home).unwrap();
    std::fs::write(
        curl_home.join(".curlrc"),
        format!(
            "dump-header = \"{}\"\nmax-time = 60\n",
            curl_home.join("headers").display()
        ),
    )
    .unwrap();
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());

    let mut failures = Vec::new();
    let (mut commands, mut examples) = (0, 0);
    for document in documents() {
        let name = document.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&document).unwrap();
        let runnable = blocks(&text, "sh runnable");
        if !runnable.is_empty() {
            let (script, expected) = script(&runnable);
            let out = dir.path().join("out");
            let _ = std::fs::remove_dir_all(&out);
            std::fs::create_dir(&out).unwrap();
            let mut bash = std::process::Command::new("bash");
            bash.arg("-c")
                .arg(&script)
                .current_dir(dir.path())
                .env("PATH", &path)
                .env("CURL_HOME", &curl_home);
            let ran =
                crate::bounded::output_aside(bash, &format!("{name}'s runnable blocks")).await;
            if !ran.status.success() {
                failures.push(format!(
                    "{name}: its runnable blocks failed ({}): {}\n{script}",
                    ran.status,
                    String::from_utf8_lossy(&ran.stderr)
                ));
                continue;
            }
            for (n, e) in expected.iter().enumerate() {
                let printed = std::fs::read_to_string(out.join(n.to_string())).unwrap();
                let headers =
                    std::fs::read_to_string(out.join(format!("{n}.headers"))).unwrap_or_default();
                let status = last_status(&headers);
                if status != Some(e.status) {
                    failures.push(format!(
                        "{name}: `{}` answered {status:?}, the doc says {}: {}",
                        e.line,
                        e.status,
                        clip(&printed)
                    ));
                } else if !holds(&printed, &e.fragment) {
                    failures.push(format!(
                        "{name}: `{}` printed {}, the doc says {}",
                        e.line,
                        clip(&printed),
                        e.fragment
                    ));
                }
            }
            commands += expected.len();
        }
        let client = Client::new(
            std::net::SocketAddr::from(([127, 0, 0, 1], port)),
            Some(&demo.join("demo-cert.pem")),
        );
        for (request, lines, line) in blocks(&text, "json answer") {
            let mut parts = request.splitn(3, ' ');
            let (method, target, body) = (
                parts.next().unwrap_or_default(),
                parts.next().unwrap_or_default(),
                parts.next().unwrap_or_default(),
            );
            let example: Value = serde_json::from_str(&lines.join("\n"))
                .unwrap_or_else(|e| panic!("{name}:{line}: the example is not JSON: {e}"));
            let r = client
                .send(Request {
                    method,
                    path: &format!("{BASE}{target}"),
                    headers: &[("x-api-key", &key), ("content-type", "application/json")],
                    body: body.as_bytes().to_vec(),
                })
                .await;
            let answer = r.json();
            let real = if example.get("data").is_some() {
                answer.clone()
            } else {
                answer["data"].clone()
            };
            let mut missing = Vec::new();
            missing_keys(&example, &real, "", &mut missing);
            if !(200..300).contains(&r.status) || !missing.is_empty() {
                failures.push(format!(
                    "{name}:{line}: {method} {target} answered {} without {missing:?}: {}",
                    r.status,
                    clip(&answer.to_string())
                ));
            }
            examples += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} problems:\n{}",
        failures.len(),
        failures.join("\n\n")
    );
    assert!(
        commands > 10 && examples > 1,
        "{commands} commands, {examples} examples"
    );
    eprintln!("docs: {commands} commands and {examples} answer examples checked");
}

fn clip(text: &str) -> String {
    text.chars().take(400).collect()
}

#[test]
fn fragments_match_whitespace_free_with_gaps() {
    assert!(holds(
        r#"{"data":{"id":"whk_1","secret":"x"}}"#,
        r#"{"data": {"id": "whk_...", "secret""#
    ));
    assert!(!holds(
        r#"{"data":{"secret":"x","id":"whk_1"}}"#,
        r#"{"id": "whk_...", "secret""#
    ));
    let (script, expected) = script(&[(
        "",
        vec!["A=1", "$CURL \\", "  $BASE/x   # -> 201 {\"data\""],
        1,
    )]);
    assert_eq!(expected.len(), 1);
    assert_eq!(expected[0].status, 201);
    assert!(script.contains("A=1\n"), "{script}");
    assert!(
        script.contains("( $CURL \\\n  $BASE/x\n) > out/0"),
        "{script}"
    );
    let mut missing = Vec::new();
    missing_keys(
        &serde_json::json!({"a": [{"b": 1, "...": 2}, "..."], "c": null}),
        &serde_json::json!({"a": [{"x": 1}, {"b": 2}], "c": 3}),
        "",
        &mut missing,
    );
    assert!(missing.is_empty(), "{missing:?}");
    missing_keys(
        &serde_json::json!({"a": [{"z": 1}]}),
        &serde_json::json!({"a": [{"b": 2}]}),
        "",
        &mut missing,
    );
    assert_eq!(missing, [".a[].z"]);
    // A documented object whose real value is null documents what the answer does not hold.
    missing.clear();
    missing_keys(
        &serde_json::json!({"a": {"b": 1}, "c": [{"d": 1}]}),
        &serde_json::json!({"a": null, "c": null}),
        "",
        &mut missing,
    );
    assert_eq!(
        missing,
        [".a (null in the answer)", ".c (null in the answer)"]
    );
}
