//! Clients that want the service down: idle connections, partial prefaces, readers that never
//! read, slow bodies, concurrent uploads, work that waits for the database. Each test is the
//! attack; the assertions are what the service must still do.

use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{BASE, Options, Request, Resp, TestServer, Tier};

/// Connections one address opens: more than the server's whole connection limit.
const ATTACKER_CONNECTIONS: usize = 24;

fn small_connection_limits(c: &mut regintel::config::ServerConfig) {
    c.max_connections = 16;
    c.max_connections_per_address = Some(4);
    // The attacker's connections within its share stay while the test looks at them.
    c.header_read_timeout = Duration::from_secs(600);
    c.tls_handshake_timeout = Duration::from_secs(600);
}

/// How many of `held` (connections that sent nothing) the server keeps: waits, at most a
/// minute, until it has closed all but `share` of them (a closed one reads EOF or an error),
/// then asks for `/healthz` on each left; those answered are the ones kept. No race: a slow
/// machine only makes the closes come later, and a kept connection is seen serving.
async fn kept_open(held: Vec<TcpStream>, share: usize) -> usize {
    let total = held.len();
    let (probe, probed) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    for mut tcp in held {
        let mut probed = probed.clone();
        connections.spawn(async move {
            let mut buf = [0u8; 64];
            tokio::select! {
                () = async { while matches!(tcp.read(&mut buf).await, Ok(1..)) {} } => false,
                () = async { drop(probed.wait_for(|now| *now).await) } => {
                    let asked = tcp.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n").await;
                    let answer = tokio::time::timeout(Duration::from_secs(60), tcp.read(&mut buf));
                    asked.is_ok()
                        && matches!(answer.await, Ok(Ok(n)) if buf[..n].starts_with(b"HTTP/1.1 200"))
                }
            }
        });
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    for closed in 0..total.saturating_sub(share) {
        match tokio::time::timeout_at(deadline, connections.join_next()).await {
            Ok(Some(_)) => {}
            _ => panic!(
                "{} of {total} connections still open after a minute",
                total - closed
            ),
        }
    }
    probe.send_replace(true);
    let mut kept = 0;
    while let Some(served) = connections.join_next().await {
        kept += usize::from(served.unwrap());
    }
    kept
}

/// Opens [`ATTACKER_CONNECTIONS`] connections from 127.0.0.1 that send `prefix` and then
/// nothing, and keeps them (the server closes those beyond the address's share).
async fn idle_plain(s: &TestServer, prefix: &'static [u8]) -> Vec<TcpStream> {
    let mut held = Vec::new();
    for _ in 0..ATTACKER_CONNECTIONS {
        let mut tcp = s.client.tcp().await.unwrap();
        if tcp.write_all(prefix).await.is_ok() {
            held.push(tcp);
        }
    }
    held
}

/// Asks from another address (127.0.0.2); the answer must come within a minute, where a starved
/// one would wait for the attacker's connections' ten-minute timeouts.
async fn other_address_is_served(s: &TestServer, what: &str) {
    let other = s.client.with_source("127.0.0.2");
    let r = tokio::time::timeout(Duration::from_secs(60), other.get("/healthz"))
        .await
        .unwrap_or_else(|_| panic!("{what}: another address got no answer within a minute"));
    assert_eq!(r.status, 200, "{what}");
}

/// 1,100 idle connections from one laptop held every slot for 15 minutes: one address now gets
/// its share of the slots, and another address is still answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_connections_from_one_address_cannot_starve_another() {
    let s = TestServer::start_with(Options {
        configure: Some(small_connection_limits),
        ..Default::default()
    })
    .await;
    let silent = idle_plain(&s, b"").await;
    other_address_is_served(&s, "connections that send nothing").await;
    // The attack held what its share allows, and no more.
    let open = kept_open(silent, 4).await;
    assert!(
        (1..=4).contains(&open),
        "{open} of the attacker's connections kept"
    );
    let preface = idle_plain(&s, b"PRI * HTTP/2.0\r\n").await;
    other_address_is_served(&s, "partial HTTP/2 prefaces").await;
    drop(preface);

    let s = TestServer::start_with(Options {
        tls: true,
        configure: Some(small_connection_limits),
        ..Default::default()
    })
    .await;
    // Handshakes beyond the address's share fail at once; on a server without shares they
    // would wait for a slot that never comes, and the first such wait fails the test.
    let mut handshaken = Vec::new();
    for n in 0..ATTACKER_CONNECTIONS {
        let handshake = tokio::time::timeout(Duration::from_secs(60), s.client.tls_handshake())
            .await
            .unwrap_or_else(|_| panic!("handshake {n} neither completed nor was refused"));
        handshaken.extend(handshake.ok());
    }
    assert!(
        !handshaken.is_empty(),
        "the attacker holds some connections"
    );
    assert!(handshaken.len() <= 4, "{} held", handshaken.len());
    other_address_is_served(&s, "TLS connections that send nothing").await;
}

/// Reads from `stream` until what arrived contains `needle` (at most 30 s).
async fn read_until(stream: &mut TcpStream, needle: &str) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + Duration::from_secs(30);
    while !String::from_utf8_lossy(&got).contains(needle) {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Ok(Ok(n)) if n > 0 => got.extend_from_slice(&buf[..n]),
            _ => panic!("no {needle:?} in {}", String::from_utf8_lossy(&got)),
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

/// Waits until the server closes `stream` (EOF or reset); false if it is still open after 20 s.
async fn closed_by_server(stream: &mut (impl AsyncReadExt + Unpin)) -> bool {
    let mut buf = [0u8; 1024];
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0) | Err(_)) => return true,
            Ok(Ok(_)) => continue,
        }
    }
}

/// A connection must bring its first request within the header timeout, and one with nothing in
/// flight is closed after the idle timeout, HTTP/1.1, HTTP/2 and TLS alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_that_do_nothing_are_closed() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            c.header_read_timeout = Duration::from_secs(1);
            c.idle_timeout = Duration::from_secs(1);
        }),
        ..Default::default()
    })
    .await;
    let mut silent = s.client.tcp().await.unwrap();
    let mut preface = s.client.tcp().await.unwrap();
    preface.write_all(b"PRI * HTTP/2.0\r\n").await.unwrap();
    assert!(closed_by_server(&mut silent).await, "no first byte");
    assert!(closed_by_server(&mut preface).await, "partial preface");

    // HTTP/2 with prior knowledge: one request, then nothing.
    let tcp = s.client.tcp().await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(tcp),
    )
    .await
    .unwrap();
    let conn = tokio::spawn(conn);
    let req = http::Request::get(format!("http://localhost{BASE}/regions/DE"))
        .body(http_body_util::Full::new(hyper::body::Bytes::new()))
        .unwrap();
    assert_eq!(sender.send_request(req).await.unwrap().status(), 200);
    tokio::time::timeout(Duration::from_secs(20), conn)
        .await
        .expect("the idle HTTP/2 connection is closed")
        .unwrap()
        .unwrap();

    let s = TestServer::start_with(Options {
        tls: true,
        configure: Some(|c| c.header_read_timeout = Duration::from_secs(1)),
        ..Default::default()
    })
    .await;
    let mut tls = s.client.tls_handshake().await.unwrap();
    assert!(closed_by_server(&mut tls).await, "TLS, then nothing");
}

/// A raw HTTP/1.1 export request that reads the answer's status line and then stops reading;
/// the stream is returned so the caller decides how long to hold it. Its receive buffer is
/// small, so the kernel cannot take the whole export in its place.
async fn stalled_export(s: &TestServer, key: &str) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let mut tcp = socket.connect(s.addr).await.unwrap();
    let request = format!(
        "GET {BASE}/export/bulk/nama_10r_3gdp.csv HTTP/1.1\r\nhost: localhost\r\nx-api-key: {key}\r\n\r\n"
    );
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut head = [0u8; 64];
    let n = tcp.read(&mut head).await.unwrap();
    assert!(
        head[..n].starts_with(b"HTTP/1.1 200"),
        "{}",
        String::from_utf8_lossy(&head[..n])
    );
    tcp
}

/// `PRAGMA wal_checkpoint(TRUNCATE)` from outside, not waiting: whether a reader kept it from
/// completing (an open read transaction stops checkpoints, so the WAL grows without bound).
fn checkpoint_blocked(s: &TestServer) -> bool {
    let db = rusqlite_conn(s);
    let busy: i64 = db
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| r.get(0))
        .unwrap();
    busy != 0
}

fn rusqlite_conn(s: &TestServer) -> rusqlite::Connection {
    rusqlite::Connection::open(s.dir.path().join(regintel::store::DB_FILE)).unwrap()
}

async fn export_status(s: &TestServer, key: &str) -> Resp {
    s.client
        .get_with(
            &format!("{BASE}/export/bulk/nama_10r_3gdp.csv"),
            &[("x-api-key", key)],
        )
        .await
}

/// Two readers that stop reading held both export slots, their connections and read
/// transactions for as long as they liked. Now: one export per account, and a client that takes
/// nothing for the send timeout is cut off, which frees everything its export held. (The send
/// timeout is long enough for the checks made while the readers stall.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readers_that_stop_reading_are_cut_off_and_exports_are_shared() {
    // A client that leaves frees its export's slot at once: within a minute, where the send
    // timeout would take ten.
    let s = TestServer::start_with(Options {
        configure: Some(|c| c.send_timeout = Duration::from_secs(600)),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Institutional);
    drop(stalled_export(&s, &a.api_key).await);
    crate::bounded::until(
        "the export's slot to come back when its client left",
        Duration::from_secs(60),
        || async {
            match export_status(&s, &a.api_key).await.status {
                200 => Ok(()),
                other => Err(other.to_string()),
            }
        },
    )
    .await;
    s.stop().await.unwrap();

    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            c.send_timeout = Duration::from_secs(10);
            c.max_exports = 2;
        }),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Institutional);
    let b = s.account("b@example.org", Tier::Institutional);
    let c = s.account("c@example.org", Tier::Institutional);

    let stalled_a = stalled_export(&s, &a.api_key).await;
    let second = export_status(&s, &a.api_key).await;
    let e = second.error(429, "rate_limit_exceeded");
    assert_eq!(e["details"]["violated_policies"][0], "account-exports");
    assert!(second.header("retry-after").is_some());

    let stalled_b = stalled_export(&s, &b.api_key).await;
    let full = export_status(&s, &c.api_key).await;
    full.error(503, "unavailable");
    assert!(full.header("retry-after").is_some());

    // A write after the exports began: their read transactions keep it in the WAL.
    s.account("d@example.org", Tier::Professional);
    assert!(checkpoint_blocked(&s), "the stalled exports hold the WAL");

    // Without reading a byte more, the stalled clients are cut off and everything comes back.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut status = 0;
    while Instant::now() < deadline {
        status = export_status(&s, &c.api_key).await.status;
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(status, 200, "the slots came back");
    assert!(!checkpoint_blocked(&s), "no reader holds the WAL any more");
    for mut stalled in [stalled_a, stalled_b] {
        assert!(
            closed_by_server(&mut stalled).await,
            "the reader was cut off"
        );
    }
    assert_eq!(export_status(&s, &a.api_key).await.status, 200);
}

async fn create_dataset(s: &TestServer, key: &str, code: &str, dims: &[&str]) {
    let body = serde_json::json!({"code": code, "title": "t", "unit": "NR", "dimensions": dims});
    let r = s
        .call(
            "POST",
            "/datasets",
            &[("x-api-key", key), ("content-type", "application/json")],
            body.to_string().as_bytes(),
        )
        .await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
}

async fn put_csv(s: &TestServer, key: &str, code: &str, csv: &[u8]) -> Resp {
    s.call(
        "PUT",
        &format!("/datasets/{code}/data"),
        &[("x-api-key", key), ("content-type", "text/csv")],
        csv,
    )
    .await
}

/// An upload takes its account's upload slot before its body is read: a second concurrent upload
/// of the account is refused at once, and a body that does not arrive in time is answered 408,
/// which frees the slot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_upload_per_account_and_slow_bodies_time_out() {
    // Long enough that a machine slowed by other tests still sees the slot held for a while.
    let s = TestServer::start_with(Options {
        configure: Some(|c| c.body_timeout = Duration::from_secs(20)),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    create_dataset(&s, &a.api_key, "mine", &[]).await;
    let mut slow = s.client.tcp().await.unwrap();
    let head = format!(
        "PUT {BASE}/datasets/mine/data HTTP/1.1\r\nhost: localhost\r\nx-api-key: {}\r\ncontent-type: text/csv\r\ncontent-length: 100000\r\n\r\ndataset_code,nuts_code",
        a.api_key
    );
    slow.write_all(head.as_bytes()).await.unwrap();
    // The slow upload holds the slot as soon as its headers are in.
    let mut second = None;
    let mut seen = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    while std::time::Instant::now() < deadline {
        let r = put_csv(&s, &a.api_key, "mine", b"nuts_code,time,value\n").await;
        if r.status == 429 {
            second = Some(r);
            break;
        }
        seen.push(r.status);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let second = second.unwrap_or_else(|| {
        panic!("a second concurrent upload is refused (answers while the first was held: {seen:?})")
    });
    let e = second.error(429, "rate_limit_exceeded");
    assert_eq!(e["details"]["violated_policies"][0], "account-uploads");
    assert_eq!(second.header("retry-after"), Some("5"));

    let answer = read_until(&mut slow, "request_timeout").await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");

    let csv = "dataset_code,nuts_code,nuts_level,time,value,unit,flags\nmine,DE21,2,2022,1,NR,\n";
    assert_eq!(
        put_csv(&s, &a.api_key, "mine", csv.as_bytes()).await.status,
        200
    );
}

/// `a="x;b=y"` and `b="y;b=z"` made the same series key: the second write broke a unique index,
/// the client got a 500, and since 5xx are refunded the attack cost nothing. Now the values are
/// refused as codes (422), and refused uploads are charged like any other request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn colliding_dimension_values_are_refused_and_charged() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            c.limits.professional = regintel::config::Quotas {
                minute: 3,
                hour: 100,
                day: 100,
            };
        }),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    create_dataset(&s, &a.api_key, "pairs", &["a", "b"]).await;
    let csv = "dataset_code,nuts_code,nuts_level,time,value,unit,flags,a,b
pairs,DE21,2,2022,1,NR,,\"x;b=y\",z
pairs,DE21,2,2022,2,NR,,x,\"y;b=z\"
";
    let r = put_csv(&s, &a.api_key, "pairs", csv.as_bytes()).await;
    let e = r.error(422, "validation_failed");
    let detail = e["details"]["errors"][0]["detail"].as_str().unwrap();
    assert!(detail.contains("is not a code"), "{detail}");
    // The dataset creation and this upload used 2 of 3; the next refused upload uses the last.
    put_csv(&s, &a.api_key, "pairs", csv.as_bytes())
        .await
        .error(422, "validation_failed");
    put_csv(&s, &a.api_key, "pairs", csv.as_bytes())
        .await
        .error(429, "rate_limit_exceeded");
}

/// A header of 300,000 column names took 79 s of CPU to refuse. One of 120,000 is refused by
/// its count; one of 300,000 (over a megabyte) by its length, before any name is looked at.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_header_of_many_columns_is_refused_by_its_count() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    create_dataset(&s, &a.api_key, "wide", &[]).await;
    for (columns, refusal) in [
        (
            120_000,
            "the header has 120001 columns; at most 1000 are accepted",
        ),
        (
            300_000,
            "more than 1048576 bytes without the end of a row (a row that long, blank lines, or a quote left open)",
        ),
    ] {
        let names: Vec<String> = (0..columns).map(|i| format!("c{i}")).collect();
        let csv = format!("dataset_code,{}\n", names.join(","));
        let r = put_csv(&s, &a.api_key, "wide", csv.as_bytes()).await;
        let e = r.error(422, "validation_failed");
        let detail = e["details"]["errors"][0]["detail"].as_str().unwrap();
        assert_eq!(detail, refusal);
    }
}

/// `GET path`'s answer, asked from a thread and runtime of their own, so the wait is bounded by
/// `limit` even when every async thread of the test's runtime (which the server shares) is
/// stuck.
fn get_aside(s: &TestServer, path: &str, limit: Duration) -> Resp {
    let (client, path_asked) = (s.client.clone(), path.to_owned());
    let (done, answered) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let _ = done.send(runtime.block_on(client.get(&path_asked)));
    });
    answered
        .recv_timeout(limit)
        .unwrap_or_else(|_| panic!("{path} unanswered in {limit:?} while writers wait"))
}

/// Requests waiting now for `pool`, as `/metrics` says.
fn waiting_for(s: &TestServer, pool: &str) -> i64 {
    let metrics = get_aside(s, "/metrics", Duration::from_secs(60));
    let line = format!("regintel_pool_waiting{{pool=\"{pool}\"}} ");
    String::from_utf8_lossy(&metrics.body)
        .lines()
        .find_map(|l| l.strip_prefix(&line)?.parse().ok())
        .unwrap_or(0)
}

/// While an import holds the database's write lock, writes queue on it and every blocking permit
/// is taken, fresh keys arrive (each an authentication lookup and a `last_used_at` write) and
/// session requests keep coming (each a lookup), the async threads are never the ones waiting:
/// liveness and cached reads are answered. (Lookups used to wait for a system connection, all
/// of them held by writes waiting for the lock, on the async threads.) Writes here wait for the
/// lock as long as the test holds it, so a request stuck behind them on an async thread would
/// stay unanswered until the lock is released, which comes only after the answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn async_threads_stay_free_while_the_database_is_busy() {
    let s = TestServer::start_with(crate::support::Options {
        configure: Some(|c| c.database_wait = Duration::from_secs(600)),
        ..Default::default()
    })
    .await;
    let profile = format!("{BASE}/regions/DE21/profile");
    assert_eq!(s.client.get(&profile).await.status, 200, "now cached");
    let writers = 2 * regintel::config::blocking_permits() + 2;
    let accounts: Vec<_> = (0..writers + 8)
        .map(|i| s.account(&format!("w{i}@example.org"), Tier::Professional))
        .collect();
    let browser = s.account("browser@example.org", Tier::Professional);
    let session = format!("Bearer {}", s.login(&browser).await);

    // The long import: the write lock, held until the test is done.
    let (release, released) = std::sync::mpsc::channel::<()>();
    let db_path = s.dir.path().join(regintel::store::DB_FILE);
    let (locked_tx, locked) = std::sync::mpsc::channel();
    let holder = std::thread::spawn(move || {
        let db = rusqlite::Connection::open(db_path).unwrap();
        db.execute_batch("BEGIN IMMEDIATE").unwrap();
        locked_tx.send(()).unwrap();
        let _ = released.recv_timeout(Duration::from_secs(300));
        db.execute_batch("ROLLBACK").unwrap();
    });
    locked
        .recv_timeout(Duration::from_secs(120))
        .expect("the write lock taken");

    // Writers that wait on the lock (each holding a blocking permit while it lasts), then
    // a stream of first uses of keys.
    let mut background = tokio::task::JoinSet::new();
    for (i, account) in accounts.iter().take(writers).enumerate() {
        let (client, key) = (s.client.clone(), account.api_key.clone());
        background.spawn(async move {
            let body = serde_json::json!({"code": format!("busy{i}"), "title": "t", "unit": "NR"});
            client
                .send(Request {
                    method: "POST",
                    path: &format!("{BASE}/datasets"),
                    headers: &[("x-api-key", &key), ("content-type", "application/json")],
                    body: body.to_string().into_bytes(),
                })
                .await
                .status
        });
    }
    for account in accounts.iter().skip(writers) {
        let (client, key) = (s.client.clone(), account.api_key.clone());
        background.spawn(async move {
            client
                .get_with(&format!("{BASE}/regions/DE1"), &[("x-api-key", &key)])
                .await
                .status
        });
    }
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    for _ in 0..4 {
        let (client, session, stop) = (s.client.clone(), session.clone(), stop.clone());
        background.spawn(async move {
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                client
                    .get_with(
                        &format!("{BASE}/regions/DE2"),
                        &[("authorization", &session)],
                    )
                    .await;
            }
            0
        });
    }
    // Every blocking permit is taken: writers queue for one.
    let deadline = Instant::now() + Duration::from_secs(120);
    while waiting_for(&s, "blocking") == 0 {
        assert!(
            Instant::now() < deadline,
            "the writers never took every permit"
        );
        std::thread::sleep(Duration::from_millis(50));
    }

    // A minute is far beyond any answer that no lock holds up, and far short of the lock.
    for path in ["/healthz", profile.as_str()].repeat(7) {
        assert_eq!(
            get_aside(&s, path, Duration::from_secs(60)).status,
            200,
            "{path}"
        );
    }
    assert!(
        waiting_for(&s, "blocking") > 0,
        "the permits were taken throughout"
    );
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let _ = release.send(());
    holder.join().unwrap();
    // Once the lock is free, every write that waited for it is made.
    let mut created = 0;
    let minutes = Duration::from_secs(120);
    let answered = "the writers' answers once the lock is free";
    while let Some(status) = crate::bounded::within(answered, minutes, background.join_next()).await
    {
        let status = status.unwrap();
        assert!(status == 0 || status == 200 || status == 201, "{status}");
        created += usize::from(status == 201);
    }
    assert_eq!(created, writers);
}

/// An account's private datasets are bounded (each is in its lists and profiles, rendered on
/// every cache miss), and none can be declared that no upload could load.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn private_datasets_are_bounded_and_loadable() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    let post = async |body: serde_json::Value| {
        s.call(
            "POST",
            "/datasets",
            &[a.key_header(), ("content-type", "application/json")],
            body.to_string().as_bytes(),
        )
        .await
    };
    for reserved in [
        "src_line",
        "dataset_code",
        "conf_status",
        "nuts_level",
        "geo",
    ] {
        let r = post(
            serde_json::json!({"code": "x", "title": "t", "unit": "NR", "dimensions": [reserved]}),
        )
        .await;
        r.error(422, "validation_failed");
    }
    let many: Vec<String> = (0..33).map(|i| format!("d{i}")).collect();
    post(serde_json::json!({"code": "x", "title": "t", "unit": "NR", "dimensions": many}))
        .await
        .error(422, "validation_failed");
    let limit = regintel::store::import::MAX_PRIVATE_DATASETS;
    for i in 0..limit {
        create_dataset(&s, &a.api_key, &format!("d{i}"), &[]).await;
    }
    let e = post(serde_json::json!({"code": "one_more", "title": "t", "unit": "NR"}))
        .await
        .error(409, "conflict");
    assert!(e["message"].as_str().unwrap().contains("limit"), "{e}");
}

/// Every region code an account's data brings in is compared with an unknown code the account
/// asks for: codes are at most 16 characters, periods at most 32, and an account has at most
/// `MAX_PRIVATE_REGIONS` codes of its own. A file over a limit is refused whole; the suggestions
/// for an unknown code still come.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn region_codes_of_private_data_are_bounded() {
    let s = TestServer::start().await;
    let a = s.account("a@example.org", Tier::Professional);
    create_dataset(&s, &a.api_key, "mine", &[]).await;
    let long_code = format!("nuts_code,period,value\n{},2022,1\n", "Q".repeat(17));
    let e = put_csv(&s, &a.api_key, "mine", long_code.as_bytes())
        .await
        .error(422, "validation_failed");
    assert!(
        e["message"].as_str().unwrap().contains("longer than 16"),
        "{e}"
    );
    let long_period = format!("nuts_code,period,value\nDE21,{},1\n", "2".repeat(33));
    put_csv(&s, &a.api_key, "mine", long_period.as_bytes())
        .await
        .error(422, "validation_failed");

    let limit = regintel::store::import::MAX_PRIVATE_REGIONS;
    let csv = |codes: std::ops::Range<i64>| {
        let mut csv = String::from("nuts_code,period,value\n");
        for i in codes {
            csv.push_str(&format!("QQ{i:06},2022,1\n"));
        }
        csv
    };
    let r = put_csv(&s, &a.api_key, "mine", csv(0..limit).as_bytes()).await;
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    create_dataset(&s, &a.api_key, "more", &[]).await;
    let e = put_csv(&s, &a.api_key, "more", csv(limit..limit + 1).as_bytes())
        .await
        .error(409, "conflict");
    assert!(
        e["message"].as_str().unwrap().contains("region codes"),
        "{e}"
    );
    let key = [a.key_header()];
    let more = s
        .client
        .get_with(&format!("{BASE}/datasets/more"), &key)
        .await
        .json();
    assert_eq!(
        more["data"]["observations"], 0,
        "nothing of the refused file"
    );
    let e = s
        .client
        .get_with(&format!("{BASE}/regions/QQ00001X"), &key)
        .await
        .error(404, "unknown_region");
    assert_eq!(e["details"]["suggestions"][0], "QQ000010", "{e}");
}

/// HTTP/2: a stream whose reader grants no flow-control window holds its answer; traffic on the
/// connection's other streams must not hide it. Each answer is watched on its own, and the
/// connection is cut once one has waited the send timeout to be sent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_http2_stream_is_cut_even_while_others_move() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| c.send_timeout = Duration::from_secs(3)),
        ..Default::default()
    })
    .await;
    let tcp = s.client.tcp().await.unwrap();
    let (mut sender, conn) =
        hyper::client::conn::http2::Builder::new(hyper_util::rt::TokioExecutor::new())
            .initial_stream_window_size(65_535)
            .handshake(hyper_util::rt::TokioIo::new(tcp))
            .await
            .unwrap();
    let conn = tokio::spawn(conn);
    let get = |path: &str| {
        http::Request::get(format!("http://localhost{path}"))
            .body(http_body_util::Full::new(hyper::body::Bytes::new()))
            .unwrap()
    };
    // About 200 KB, of which the window lets 64 KB through; its body is never read.
    let stalled = sender
        .send_request(get(&format!("{BASE}/regions?limit=1000")))
        .await
        .unwrap();
    assert_eq!(stalled.status(), 200);
    let started = Instant::now();
    while !conn.is_finished() {
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the connection with a stalled stream is still open"
        );
        let beat =
            tokio::time::timeout(Duration::from_secs(5), sender.send_request(get("/healthz")));
        match beat.await {
            Ok(Ok(r)) => {
                let _ = http_body_util::BodyExt::collect(r.into_body()).await;
            }
            _ => break,
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
    // However the heartbeats ended (an error, or one unanswered), the server must have cut the
    // connection: its driver ends.
    let ended = tokio::time::timeout(Duration::from_secs(30), conn).await;
    assert!(
        ended.is_ok(),
        "the connection with a stalled stream is still open"
    );
    drop(stalled);
}

/// A write that cannot have the database within the server's wait (SQLite busy: another
/// process holds the write lock) is 503 `unavailable` with `Retry-After`, and changes nothing;
/// once the lock is free the same request succeeds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_database_answers_503_with_retry_after() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| c.database_wait = Duration::from_millis(200)),
        ..Default::default()
    })
    .await;
    let a = s.account("a@example.org", Tier::Professional);
    // The key's first use (a write of when it was used) before the lock.
    let read = s
        .client
        .get_with(&format!("{BASE}/regions/DE21"), &[a.key_header()])
        .await;
    assert_eq!(read.status, 200);
    let path = format!("{BASE}/datasets");
    let headers = [a.key_header(), ("content-type", "application/json")];
    let create = || {
        s.client.send(Request {
            method: "POST",
            path: &path,
            headers: &headers,
            body: br#"{"code": "busy", "title": "t", "unit": "NR"}"#.to_vec(),
        })
    };
    let lock = rusqlite_conn(&s);
    lock.execute_batch("BEGIN IMMEDIATE").unwrap();
    let r = create().await;
    let e = r.error(503, "unavailable");
    assert!(r.header("retry-after").is_some(), "{e}");
    lock.execute_batch("ROLLBACK").unwrap();
    let r = create().await;
    assert_eq!(r.status, 201, "{}", String::from_utf8_lossy(&r.body));
}
