//! The network edge: TLS with HTTP/2, connection and header-time limits, graceful shutdown.

use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use crate::support::{BASE, Options, Request, TestServer};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn https_serves_http2_and_http1_with_hsts() {
    let s = TestServer::start_with(Options {
        tls: true,
        ..Default::default()
    })
    .await;
    let mut conn = s.client.connect().await;
    assert!(conn.is_h2(), "ALPN negotiates HTTP/2");
    let r = conn
        .send(Request {
            method: "GET",
            path: &format!("{BASE}/regions/DE21/profile"),
            headers: &[],
            body: Vec::new(),
        })
        .await;
    assert_eq!(r.status, 200);
    assert_eq!(r.json()["data"]["region"]["code"], "DE21");
    assert_eq!(
        r.header("strict-transport-security"),
        Some("max-age=31536000")
    );

    // A plain-HTTP client talking to the TLS port gets nothing served.
    let mut tcp = TcpStream::connect(s.addr).await.unwrap();
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), tcp.read_to_end(&mut buf))
        .await
        .expect("the server closes the connection")
        .ok();
    // No HTTP answer of any status: at most a TLS alert record (content type 21).
    assert!(
        buf.is_empty() || buf[0] == 21,
        "{:?}",
        String::from_utf8_lossy(&buf)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn plain_http_has_no_hsts_and_speaks_h2c_with_prior_knowledge() {
    let s = TestServer::start().await;
    let r = s.client.get("/healthz").await;
    assert_eq!(r.header("strict-transport-security"), None);
    let tcp = TcpStream::connect(s.addr).await.unwrap();
    let (mut sender, conn) = hyper::client::conn::http2::handshake(
        hyper_util::rt::TokioExecutor::new(),
        hyper_util::rt::TokioIo::new(tcp),
    )
    .await
    .unwrap();
    tokio::spawn(conn);
    let req = http::Request::get(format!("http://localhost{BASE}/regions/DE"))
        .body(http_body_util::Full::new(hyper::body::Bytes::new()))
        .unwrap();
    let resp = sender.send_request(req).await.unwrap();
    assert_eq!(resp.status(), 200);
    assert_eq!(resp.version(), http::Version::HTTP_2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_headers_are_cut_off() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| c.header_read_timeout = Duration::from_millis(500)),
        ..Default::default()
    })
    .await;
    let mut tcp = TcpStream::connect(s.addr).await.unwrap();
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nhost: x\r\n")
        .await
        .unwrap();
    let mut buf = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut buf)).await;
    assert!(read.is_ok(), "the server closed the connection");
    assert!(!String::from_utf8_lossy(&buf).contains("200 OK"));
}

/// The second connection waits while the first holds the only slot: it stays in the kernel's
/// accept queue, not taken by the server, while the first makes twenty more round trips, and is
/// answered as soon as the first closes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_beyond_the_limit_wait_for_a_free_slot() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            c.max_connections = 1;
            c.max_connections_per_address = Some(1);
        }),
        ..Default::default()
    })
    .await;
    // The harness's readiness probe closed its connection; should the server not have seen it
    // yet, this one waits for the slot like any other.
    let mut first = s.client.connect().await;
    let healthz = Request {
        method: "GET",
        path: "/healthz",
        headers: &[],
        body: Vec::new(),
    };
    assert_eq!(first.send(healthz.clone()).await.status, 200);
    let client = s.client.clone();
    let second = tokio::spawn(async move { client.get("/healthz").await });
    let port = s.addr.port();
    crate::bounded::until(
        "the second connection in the accept queue",
        Duration::from_secs(60),
        || async {
            match regintel::runtime::accept_queue::accept_queue(port) {
                1 => Ok(()),
                queued => Err(format!("{queued} queued")),
            }
        },
    )
    .await;
    for _ in 0..20 {
        assert_eq!(first.send(healthz.clone()).await.status, 200);
    }
    assert_eq!(
        regintel::runtime::accept_queue::accept_queue(port),
        1,
        "the second connection waits while the first holds the only slot"
    );
    assert!(!second.is_finished());
    drop(first);
    let r = tokio::time::timeout(Duration::from_secs(60), second)
        .await
        .expect("answered once the slot is free")
        .unwrap();
    assert_eq!(r.status, 200);
}

/// Shutdown closes the listener and does not wait out the deadlines for connections that serve no
/// request: an idle kept-alive connection and a half-sent request's are closed within the send
/// timeout (5 s here), the second unanswered, though the drain, header and idle deadlines are ten
/// minutes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_closes_the_listener_and_every_connection_serving_no_request() {
    let s = TestServer::start_with(Options {
        configure: Some(|c| {
            c.drain_timeout = Duration::from_secs(600);
            c.header_read_timeout = Duration::from_secs(600);
            c.idle_timeout = Duration::from_secs(600);
            c.send_timeout = Duration::from_secs(5);
        }),
        ..Default::default()
    })
    .await;
    let addr = s.addr;
    let mut idle = s.client.connect().await;
    assert_eq!(
        idle.send(Request {
            method: "GET",
            path: "/healthz",
            headers: &[],
            body: Vec::new()
        })
        .await
        .status,
        200
    );
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\n").await.unwrap();

    tokio::time::timeout(Duration::from_secs(120), s.stop())
        .await
        .expect("stopped long before any deadline")
        .unwrap();
    assert!(TcpStream::connect(addr).await.is_err(), "listener closed");
    let mut answer = Vec::new();
    tokio::time::timeout(Duration::from_secs(60), half.read_to_end(&mut answer))
        .await
        .expect("the half-sent request's connection is closed")
        .ok();
    assert!(
        answer.is_empty(),
        "answered: {:?}",
        String::from_utf8_lossy(&answer)
    );
}
