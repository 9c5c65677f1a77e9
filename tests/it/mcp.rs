//! regintel's MCP server, driven by the official MCP Python SDK (tests/it/mcp_py/client.py) over
//! both transports: `{base_url}/mcp` and `regintel mcp --url` over stdio. Every tool is called,
//! the citations resolve, another account's key sees none of the owner's private data, and a
//! browser page of another origin is refused; a message after initialize names a protocol version
//! regintel speaks.

use crate::bounded::Bounded;

use serde_json::json;

use crate::support::{BASE, Options, TestServer, Tier, run_script};

/// The day's quota of [`counted`].
const DAY_QUOTA: u64 = 100_000;

/// Quotas small enough that the headers count each request (the tests' defaults are vast).
fn counted(c: &mut regintel::config::ServerConfig) {
    c.limits.institutional = regintel::config::Quotas {
        minute: 1_000,
        hour: 10_000,
        day: DAY_QUOTA,
    }
}

/// What a key has used today, read from its day bucket in the `RateLimit` header of a request
/// costing 1 (the minute's and the hour's buckets refill as a slow run goes on; the day's
/// does not).
async fn used_today(s: &TestServer, key: (&'static str, &str)) -> u64 {
    let r = s.call("GET", "/regions/DE21", &[key], b"").await;
    let buckets = r.header("ratelimit").expect("a RateLimit header");
    let remaining: u64 = buckets
        .split(',')
        .find_map(|b| b.trim().strip_prefix("\"key-day\";r="))
        .and_then(|rest| rest.split(';').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no key-day bucket in {buckets}"));
    DAY_QUOTA - remaining
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_mcp_tools_answer_over_http_and_stdio_for_the_callers_own_data() {
    let s = TestServer::start_with(Options {
        configure: Some(counted),
        ..Default::default()
    })
    .await;
    let owner = s.account("mcp-owner@example.org", Tier::Institutional);
    let other = s.account("mcp-other@example.org", Tier::Institutional);
    let private_title = "Ferry passengers of the MCP owner";
    s.private_dataset(
        &owner,
        json!({"code": "my_ferries", "title": private_title, "unit": "NR"}),
        "nuts_code,period,value\nDE21,2022,120\nDE21,2023,130\n",
    )
    .await;
    let given = json!({
        "api": format!("http://{}{BASE}", s.addr),
        "regintel": env!("CARGO_BIN_EXE_regintel"),
        "owner": {"key": owner.api_key, "private_title": private_title, "private_code": "my_ferries"},
        "other": {"key": other.api_key},
    });
    let file = s.dir.path().join("mcp-test.json");
    std::fs::write(&file, given.to_string()).unwrap();
    let out = run_script("MCP_PYTHON", "tests/it/mcp_py/client.py", file).await;
    let printed = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{printed}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(printed.contains("7 tools called"), "{printed}");

    // A page of another origin may not call the tools with a visitor's browser.
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    let headers = [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    let evil = [&headers[..], &[("origin", "https://evil.example")]].concat();
    let refused = s
        .call("POST", "/mcp", &evil, initialize.to_string().as_bytes())
        .await;
    assert_eq!(refused.status, 403);
    let accepted = s
        .call("POST", "/mcp", &headers, initialize.to_string().as_bytes())
        .await;
    assert_eq!(accepted.status, 200);
    assert_eq!(accepted.json()["result"]["serverInfo"]["name"], "regintel");

    // After initialize, a message names the protocol version it speaks, one regintel speaks.
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}).to_string();
    let batch = format!("[{list}]");
    for (version, message) in [
        (None, &list),
        (None, &batch),
        (Some("2025-03-26"), &list),
        (Some("1999-01-01"), &list),
    ] {
        let with = [
            &headers[..],
            version.map(|v| ("mcp-protocol-version", v)).as_slice(),
        ]
        .concat();
        let refused = s.call("POST", "/mcp", &with, message.as_bytes()).await;
        assert_eq!(refused.status, 400, "{version:?} {message}");
        let error = &refused.json()["error"];
        assert_eq!(error["code"], "invalid_request", "{error}");
        assert!(
            error["message"]
                .as_str()
                .unwrap()
                .contains("2025-06-18, 2025-11-25"),
            "{error}"
        );
    }
    for version in ["2025-06-18", "2025-11-25"] {
        let with = [&headers[..], &[("mcp-protocol-version", version)]].concat();
        let listed = s.call("POST", "/mcp", &with, list.as_bytes()).await;
        assert_eq!(listed.status, 200, "{version}");
        assert_eq!(
            listed.json()["result"]["tools"].as_array().unwrap().len(),
            7
        );
    }

    s.stop().await.unwrap();
}

/// `regintel mcp` sends its key only over HTTPS, or to this machine.
#[test]
fn the_stdio_server_refuses_plain_http_to_another_machine() {
    let out = crate::support::regintel()
        .args(["mcp", "--url", "http://stats.example.org/api/v1/regional"])
        .env("REGINTEL_API_KEY", "sk_service_test")
        .bounded_output();
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--url must be https://"), "{said}");
}

/// A user name or password in `--url` would go out in every request's Host header.
#[test]
fn the_stdio_server_refuses_a_url_with_userinfo() {
    for url in [
        "https://user:secret@stats.example.org/api/v1/regional",
        "http://user@127.0.0.1:8080/api/v1/regional",
    ] {
        let out = crate::support::regintel()
            .args(["mcp", "--url", url])
            .env("REGINTEL_API_KEY", "sk_service_test")
            .bounded_output();
        assert!(!out.status.success(), "{url}");
        let said = String::from_utf8_lossy(&out.stderr);
        assert!(
            said.contains("must not hold a user name or password"),
            "{said}"
        );
        assert!(!said.contains("secret@"), "{said}");
    }
}

/// With a public URL, a client names its host with the port or without it (as clients write a
/// default port); another host, or a page of another origin, is refused. A message that makes
/// no REST request (initialize, tools/list, a call of no tool) costs one request; a tool call
/// costs what its route costs, and nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_http_transport_takes_the_public_host_and_charges_each_message() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            counted(c);
            c.public_url = Some("https://stats.example.org".to_owned());
        }),
        ..Default::default()
    })
    .await;
    let caller = s.account("mcp-host@example.org", Tier::Institutional);
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}});
    for (host, origin, expected) in [
        ("stats.example.org", None, 200),
        ("stats.example.org:443", None, 200),
        ("stats.example.org", Some("https://stats.example.org"), 200),
        ("evil.example", None, 403),
        ("stats.example.org", Some("https://evil.example"), 403),
    ] {
        let mut headers = vec![
            ("content-type", "application/json"),
            ("accept", "application/json, text/event-stream"),
            ("host", host),
        ];
        headers.extend(origin.map(|o| ("origin", o)));
        let r = s
            .call("POST", "/mcp", &headers, initialize.to_string().as_bytes())
            .await;
        assert_eq!(r.status, expected, "{host} {origin:?}");
    }

    let keyed = [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
        ("host", "stats.example.org"),
        ("mcp-protocol-version", "2025-11-25"),
        caller.key_header(),
    ];
    let call = |name: &str, arguments: serde_json::Value| {
        json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": name, "arguments": arguments}})
        .to_string()
    };
    let list = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}).to_string();
    // (message, what it costs besides the GET that reads the count)
    for (message, cost) in [
        (list, 1),
        (call("no_such_tool", json!({})), 1),
        (call("region_profile", json!({"region": "DE21"})), 1),
        (
            call(
                "correlation_matrix",
                json!({"region": "DE", "level": 2, "datasets": ["tgs00010", "tgs00007"]}),
            ),
            5,
        ),
        (
            call(
                "create_briefing",
                json!({"region": "DE21", "briefing_type": "profile_summary"}),
            ),
            10,
        ),
    ] {
        let before = used_today(&s, caller.key_header()).await;
        let r = s.call("POST", "/mcp", &keyed, message.as_bytes()).await;
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
        assert_ne!(
            r.json()["result"]["isError"],
            true,
            "{message}: {}",
            r.json()
        );
        let after = used_today(&s, caller.key_header()).await;
        assert_eq!(after, before + cost + 1, "{message}");
    }
    s.stop().await.unwrap();
}

/// A message may be 64 KiB at most (docs/api.md): an `initialize` padded to 65,536 bytes is
/// answered, one byte more is refused (413) naming the limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_mcp_message_may_be_64_kib() {
    let s = TestServer::start_with(Options {
        empty: true,
        ..Default::default()
    })
    .await;
    let initialize = json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}})
    .to_string();
    // JSON allows whitespace after the value.
    let padded = |size: usize| format!("{initialize}{}", " ".repeat(size - initialize.len()));
    let headers = [
        ("content-type", "application/json"),
        ("accept", "application/json, text/event-stream"),
    ];
    let r = s
        .call("POST", "/mcp", &headers, padded(65_536).as_bytes())
        .await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert_eq!(r.json()["result"]["serverInfo"]["name"], "regintel");
    let r = s
        .call("POST", "/mcp", &headers, padded(65_537).as_bytes())
        .await;
    let error = r.error(413, "payload_too_large");
    assert_eq!(error["details"]["limit_bytes"], 65_536, "{error}");
    s.stop().await.unwrap();
}

/// `regintel mcp` over stdio, its stdin and stdout: JSON-RPC messages a line each, every read
/// within a deadline. The child is killed when this is dropped.
struct StdioMcp {
    _child: crate::support::Running,
    stdin: std::process::ChildStdin,
    lines: tokio::sync::mpsc::UnboundedReceiver<String>,
    stderr: std::path::PathBuf,
}

impl StdioMcp {
    fn start(args: &[&std::ffi::OsStr], stderr: std::path::PathBuf) -> StdioMcp {
        use std::process::Stdio;
        let mut child = crate::support::regintel()
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&stderr).unwrap())
            .spawn()
            .unwrap();
        let (stdin, stdout) = (child.stdin.take().unwrap(), child.stdout.take().unwrap());
        let (tx, lines) = tokio::sync::mpsc::unbounded_channel();
        // Ends with the child's stdout.
        std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        StdioMcp {
            _child: crate::support::Running(child),
            stdin,
            lines,
            stderr,
        }
    }

    fn send(&mut self, message: serde_json::Value) {
        use std::io::Write;
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// The answer to request `id` (notifications before it are passed over).
    async fn answer(&mut self, id: u64) -> serde_json::Value {
        loop {
            let line = crate::bounded::within(
                &format!("the answer to MCP request {id}"),
                std::time::Duration::from_secs(60),
                self.lines.recv(),
            )
            .await
            .unwrap_or_else(|| {
                let said = std::fs::read_to_string(&self.stderr).unwrap_or_default();
                panic!("regintel mcp ended its output: {said}")
            });
            let message: serde_json::Value = serde_json::from_str(&line).unwrap();
            if message["id"] == id {
                return message;
            }
        }
    }

    /// Initializes, then calls `search_datasets` for `query`: its answer.
    async fn search_datasets(&mut self, query: &str) -> serde_json::Value {
        self.send(json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}));
        let initialized = self.answer(1).await;
        assert_eq!(
            initialized["result"]["serverInfo"]["name"], "regintel",
            "{initialized}"
        );
        self.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        self.send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "search_datasets", "arguments": {"query": query}}}));
        self.answer(2).await
    }
}

/// `regintel mcp` takes its key from `--api-key-file` (the file's trailing newline is not part
/// of it) and trusts the certificate `--ca-file` names: over HTTPS, the key's owner finds its
/// private dataset. Without the CA file, the call fails at the TLS handshake.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_stdio_server_reads_its_key_from_a_file_and_trusts_the_ca_file() {
    let s = TestServer::start_with(Options {
        tls: true,
        ..Default::default()
    })
    .await;
    let owner = s.account("stdio-owner@example.org", Tier::Institutional);
    s.private_dataset(
        &owner,
        json!({"code": "my_lighthouses", "title": "Lighthouse visitors of the stdio owner", "unit": "NR"}),
        "nuts_code,period,value\nDE21,2022,12\n",
    )
    .await;
    let key_file = s.dir.path().join("api-key");
    std::fs::write(&key_file, format!("{}\n", owner.api_key)).unwrap();
    let ca_file = s.dir.path().join("demo-cert.pem");
    let url = format!("https://127.0.0.1:{}{BASE}", s.addr.port());
    let args = |ca: bool| {
        let mut args = vec![
            "--url".as_ref(),
            url.as_ref(),
            "--api-key-file".as_ref(),
            key_file.as_os_str(),
        ];
        if ca {
            args.extend(["--ca-file".as_ref(), ca_file.as_os_str()]);
        }
        args
    };

    let mut trusted = StdioMcp::start(&args(true), s.dir.path().join("trusted.err"));
    let found = trusted.search_datasets("lighthouse").await;
    let text = found["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{found}"));
    assert_ne!(found["result"]["isError"], true, "{found}");
    let listed: serde_json::Value = serde_json::from_str(text).unwrap();
    assert_eq!(listed["data"][0]["code"], "my_lighthouses", "{listed}");
    drop(trusted);

    let mut untrusted = StdioMcp::start(&args(false), s.dir.path().join("untrusted.err"));
    let failed = untrusted.search_datasets("lighthouse").await;
    let said = failed["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("{failed}"));
    assert!(said.contains("TLS handshake"), "{said}");
    drop(untrusted);
    s.stop().await.unwrap();
}
