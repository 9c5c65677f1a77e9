//! One attempt to deliver a webhook: resolve the host, check every address against the egress
//! policy, connect to a checked address (so a second DNS answer cannot redirect the request),
//! speak TLS to the host's name when the URL is `https`, POST the signed body, and read at most
//! [`MAX_ANSWER_BYTES`] of the answer. Redirects are answers like any other: never followed.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite};

use super::egress::{EgressPolicy, WebhookUrl};
use super::schedule::parse_retry_after;

/// Time to resolve the host and open the connection, both together.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// Time for the whole attempt, from resolving to the answer's last byte read.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(15);
/// Bytes of a receiver's answer read at most; the rest is dropped with the connection.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024;
/// What the delivery log says of a host that does not resolve or leads where webhooks may not go.
pub const UNREACHABLE: &str =
    "egress_denied: the host does not lead to an address webhooks may reach";

/// What one attempt gives: the status (None: no answer), the receiver's `Retry-After`, and what
/// went wrong, in words for the delivery log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub status: Option<u16>,
    pub retry_after: Option<Duration>,
    pub error: Option<String>,
    pub latency: Duration,
}

/// The signed request to send.
pub struct Signed<'a> {
    pub message_id: &'a str,
    pub timestamp: i64,
    pub signature: &'a str,
    pub body: Bytes,
}

/// The TLS settings for `https` receivers: the operating system's trusted roots (on Debian,
/// `/etc/ssl/certs`, where an institution adds its own CA), read once at start. Certificates
/// that cannot be parsed are skipped with a warning; no roots at all only fails `https`
/// deliveries, each with its reason in the delivery log.
pub fn client_tls() -> Arc<rustls::ClientConfig> {
    let mut roots = rustls::RootCertStore::empty();
    let found = rustls_native_certs::load_native_certs();
    for error in &found.errors {
        tracing::warn!(%error, "reading the system's trusted certificates for webhooks");
    }
    let (added, ignored) = roots.add_parsable_certificates(found.certs);
    if ignored > 0 {
        tracing::warn!(ignored, "system certificates not usable for webhooks");
    }
    if added == 0 {
        tracing::warn!("no trusted root certificates found: https webhooks will fail to connect");
    }
    client_tls_with(roots)
}

/// TLS settings trusting exactly `roots`.
pub fn client_tls_with(roots: rustls::RootCertStore) -> Arc<rustls::ClientConfig> {
    let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
    Arc::new(
        rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .expect("the aws-lc-rs provider supports TLS 1.2 and 1.3")
            .with_root_certificates(roots)
            .with_no_client_auth(),
    )
}

/// Whether a request may go to the addresses the host resolved to now: `Err(at)` (unix ms) when
/// the sender's pace there says later.
pub type Pace<'a> = &'a (dyn Fn(&[IpAddr]) -> Result<(), i64> + Sync);

/// Sends `request` to `url`, if `pace` lets it go to the address the host resolves to; `Err(at)`
/// when it does not (nothing was sent). `tls` verifies `https` receivers.
pub async fn send(
    url: &WebhookUrl,
    policy: &EgressPolicy,
    tls: &Arc<rustls::ClientConfig>,
    request: Signed<'_>,
    pace: Pace<'_>,
) -> Result<Attempt, i64> {
    let started = Instant::now();
    let outcome =
        tokio::time::timeout(ATTEMPT_TIMEOUT, attempt(url, policy, tls, request, pace)).await;
    let (status, retry_after, error) = match outcome {
        Ok(Ok((status, retry_after))) => (Some(status), retry_after, None),
        Ok(Err(NotSent::Paced(at))) => return Err(at),
        Ok(Err(NotSent::Failed(error))) => (None, None, Some(error)),
        Err(_) => (
            None,
            None,
            Some(format!("no answer within {} s", ATTEMPT_TIMEOUT.as_secs())),
        ),
    };
    Ok(Attempt {
        status,
        retry_after,
        error,
        latency: started.elapsed(),
    })
}

/// Why an attempt got no answer: its pace said later, or what failed, in words.
enum NotSent {
    Paced(i64),
    Failed(String),
}

impl From<String> for NotSent {
    fn from(why: String) -> NotSent {
        NotSent::Failed(why)
    }
}

async fn attempt(
    url: &WebhookUrl,
    policy: &EgressPolicy,
    tls: &Arc<rustls::ClientConfig>,
    request: Signed<'_>,
    pace: Pace<'_>,
) -> Result<(u16, Option<Duration>), NotSent> {
    // Resolving and connecting share one deadline: a slow resolver leaves the less to connect.
    let connect_by = tokio::time::Instant::now() + CONNECT_TIMEOUT;
    // The delivery log is read by the endpoint's owner: one message whether the host does not
    // resolve or leads inside, so that pointing a name at internal ones maps nothing of the
    // operator's network; the log says which, with the host.
    let checked = tokio::time::timeout_at(connect_by, resolve_and_check(url, policy))
        .await
        .unwrap_or_else(|_| Err(unresolved_in_time(url)));
    let addrs = checked.map_err(|e| {
        let (Destination::Unresolved(why) | Destination::Denied(why)) = e;
        tracing::info!(host = %url.host, why, "webhook destination refused");
        UNREACHABLE.to_owned()
    })?;
    // Paced by the addresses, not the name: every name leading to one receiver shares its pace.
    let ips: Vec<IpAddr> = addrs.iter().map(SocketAddr::ip).collect();
    pace(&ips).map_err(NotSent::Paced)?;
    let stream = tokio::time::timeout_at(connect_by, tokio::net::TcpStream::connect(&addrs[..]))
        .await
        .map_err(|_| "the connection was not accepted in time".to_owned())?
        .map_err(|e| format!("cannot connect: {e}"))?;
    stream.set_nodelay(true).ok();
    if url.https {
        let name = rustls::pki_types::ServerName::try_from(url.host.clone())
            .map_err(|_| "the host is not a valid TLS name".to_owned())?;
        let stream = tokio_rustls::TlsConnector::from(Arc::clone(tls))
            .connect(name, stream)
            .await
            .map_err(|e| format!("TLS failed: {e}"))?;
        Ok(exchange(url, stream, request).await?)
    } else {
        Ok(exchange(url, stream, request).await?)
    }
}

fn unresolved_in_time(url: &WebhookUrl) -> Destination {
    Destination::Unresolved(format!("{} did not resolve in time", url.host))
}

/// Resolves the URL's host and checks every address against `policy` (before every attempt, so
/// a changed DNS answer cannot lead a delivery inside): the addresses to connect to, or why not.
/// Without a deadline: the caller bounds the wait.
pub async fn resolve_and_check(
    url: &WebhookUrl,
    policy: &EgressPolicy,
) -> Result<Vec<SocketAddr>, Destination> {
    let addrs = match url.literal() {
        Some(ip) => vec![SocketAddr::new(ip, url.port)],
        None => {
            (policy.resolver.lookup(&url.host, url.port).await).map_err(Destination::Unresolved)?
        }
    };
    let ips: Vec<IpAddr> = addrs.iter().map(SocketAddr::ip).collect();
    policy.check(url, &ips).map_err(Destination::Denied)?;
    Ok(addrs)
}

/// Why a destination cannot be reached, in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Destination {
    /// The host has no address now (which may change).
    Unresolved(String),
    /// The policy refuses an address.
    Denied(String),
}

async fn exchange<S>(
    url: &WebhookUrl,
    stream: S,
    request: Signed<'_>,
) -> Result<(u16, Option<Duration>), String>
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("cannot speak HTTP: {e}"))?;
    // Ends with this attempt, also when its timeout drops it.
    let _connection = crate::runtime::task::AbortOnDrop(tokio::spawn(connection));
    let default_port = if url.https { 443 } else { 80 };
    let host = match (url.literal(), url.port == default_port) {
        (Some(IpAddr::V6(v6)), true) => format!("[{v6}]"),
        (Some(IpAddr::V6(v6)), false) => format!("[{v6}]:{}", url.port),
        (_, true) => url.host.clone(),
        (_, false) => format!("{}:{}", url.host, url.port),
    };
    let built = http::Request::post(url.path.as_str())
        .header(http::header::HOST, host)
        .header(http::header::CONTENT_TYPE, "application/json")
        .header(
            http::header::USER_AGENT,
            concat!("regintel-Webhooks/", env!("CARGO_PKG_VERSION")),
        )
        .header("webhook-id", request.message_id)
        .header("webhook-timestamp", request.timestamp.to_string())
        .header("webhook-signature", request.signature)
        .body(Full::new(request.body))
        .map_err(|e| format!("cannot build the request: {e}"))?;
    async {
        let response = sender
            .send_request(built)
            .await
            .map_err(|e| format!("no answer: {e}"))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get(http::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| parse_retry_after(v, crate::runtime::clock::now_ms().div_euclid(1000)));
        // The answer is read (at most this much) so the receiver is not cut off mid-write, and
        // dropped: only its status counts.
        let _ = Limited::new(response.into_body(), MAX_ANSWER_BYTES)
            .collect()
            .await;
        Ok((status, retry_after))
    }
    .await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::runtime::clock::on_time;

    /// An attempt no pace holds back.
    async fn send_unpaced(
        url: &WebhookUrl,
        policy: &EgressPolicy,
        tls: &Arc<rustls::ClientConfig>,
        request: Signed<'_>,
    ) -> Attempt {
        send(url, policy, tls, request, &|_| Ok(())).await.unwrap()
    }
    use crate::webhooks::test_receiver::{receiver, receiver_with};

    fn signed(body: &'static str) -> Signed<'static> {
        Signed {
            message_id: "msg_1",
            timestamp: 1_700_000_000,
            signature: "v1,abc",
            body: Bytes::from_static(body.as_bytes()),
        }
    }

    fn loopback() -> EgressPolicy {
        EgressPolicy {
            allow_loopback: true,
            ..EgressPolicy::default()
        }
    }

    fn tls() -> Arc<rustls::ClientConfig> {
        client_tls_with(rustls::RootCertStore::empty())
    }

    #[tokio::test]
    async fn posts_the_signed_body_with_standard_webhooks_headers() {
        let (port, mut seen) =
            receiver("HTTP/1.1 204 No Content\r\ncontent-length: 0\r\n\r\n").await;
        let url = WebhookUrl::parse(&format!("http://127.0.0.1:{port}/hook?x=1")).unwrap();
        let attempt = send_unpaced(
            &url,
            &loopback(),
            &tls(),
            signed(r#"{"type":"webhook.test"}"#),
        )
        .await;
        assert_eq!((attempt.status, attempt.error), (Some(204), None));
        let request = seen.recv().await.unwrap().to_ascii_lowercase();
        assert!(
            request.starts_with("post /hook?x=1 http/1.1\r\n"),
            "{request}"
        );
        for header in [
            format!("host: 127.0.0.1:{port}"),
            "content-type: application/json".into(),
            "webhook-id: msg_1".into(),
            "webhook-timestamp: 1700000000".into(),
            "webhook-signature: v1,abc".into(),
            "user-agent: regintel-webhooks/".into(),
        ] {
            assert!(request.contains(&header), "{header} missing from {request}");
        }
        assert!(request.ends_with(r#"{"type":"webhook.test"}"#));
    }

    #[tokio::test]
    async fn redirects_are_not_followed_and_retry_after_is_read() {
        let (port, mut seen) = receiver(
            "HTTP/1.1 307 Temporary Redirect\r\nlocation: http://169.254.169.254/\r\ncontent-length: 0\r\n\r\n",
        )
        .await;
        let url = WebhookUrl::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
        let attempt = send_unpaced(&url, &loopback(), &tls(), signed("{}")).await;
        assert_eq!(attempt.status, Some(307));
        seen.recv().await.unwrap();
        assert!(seen.try_recv().is_err(), "one request only");

        let (port, _seen) = receiver(
            "HTTP/1.1 429 Too Many Requests\r\nretry-after: 120\r\ncontent-length: 0\r\n\r\n",
        )
        .await;
        let url = WebhookUrl::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
        let attempt = send_unpaced(&url, &loopback(), &tls(), signed("{}")).await;
        assert_eq!(attempt.status, Some(429));
        assert_eq!(attempt.retry_after, Some(Duration::from_secs(120)));
    }

    #[tokio::test]
    async fn the_policy_is_checked_before_connecting() {
        let (port, mut seen) = receiver("HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").await;
        let url = WebhookUrl::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
        let attempt = send_unpaced(&url, &EgressPolicy::default(), &tls(), signed("{}")).await;
        assert_eq!(attempt.status, None);
        assert_eq!(attempt.error.as_deref(), Some(UNREACHABLE));
        // A name resolving to loopback is refused as well, and a name that does not resolve is
        // told the same: the delivery log maps nothing of what lies inside.
        let named = WebhookUrl::parse(&format!("http://localhost:{port}/")).unwrap();
        let attempt = send_unpaced(&named, &EgressPolicy::default(), &tls(), signed("{}")).await;
        assert_eq!(attempt.error.as_deref(), Some(UNREACHABLE));
        let nowhere = EgressPolicy {
            allow_loopback: true,
            resolver: crate::webhooks::resolve::Resolver::given(|host, _| {
                let why = format!("{host} does not resolve");
                Box::pin(async move { Err(why) })
            }),
            ..EgressPolicy::default()
        };
        let attempt = send_unpaced(&named, &nowhere, &tls(), signed("{}")).await;
        assert_eq!(attempt.error.as_deref(), Some(UNREACHABLE));
        assert!(seen.try_recv().is_err(), "nothing was sent");
    }

    #[tokio::test]
    async fn https_receivers_are_verified_against_the_trusted_roots() {
        let generated = rcgen::generate_simple_self_signed(vec![
            "localhost".to_owned(),
            "127.0.0.1".to_owned(),
        ])
        .unwrap();
        let cert = generated.cert.der().clone();
        let key = rustls::pki_types::PrivateKeyDer::try_from(generated.signing_key.serialize_der())
            .unwrap();
        let provider = Arc::new(rustls::crypto::aws_lc_rs::default_provider());
        let server = rustls::ServerConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![cert.clone()], key)
            .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(server));
        let (port, mut seen) = receiver_with(
            "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            Some(acceptor),
        )
        .await;
        let url = WebhookUrl::parse(&format!("https://127.0.0.1:{port}/")).unwrap();

        let untrusted = send_unpaced(&url, &loopback(), &tls(), signed("{}")).await;
        assert_eq!(untrusted.status, None);
        assert!(untrusted.error.unwrap().starts_with("TLS failed"));

        let mut roots = rustls::RootCertStore::empty();
        roots.add(cert).unwrap();
        let trusted = send_unpaced(&url, &loopback(), &client_tls_with(roots), signed("{}")).await;
        assert_eq!((trusted.status, trusted.error), (Some(200), None));
        assert!(seen.recv().await.unwrap().ends_with("{}"));
    }

    /// docs/webhooks.md: "5 s to resolve the host and connect (both together), 15 s in all".
    const DOCUMENTED_CONNECT: Duration = Duration::from_secs(5);
    const DOCUMENTED_ATTEMPT: Duration = Duration::from_secs(15);

    /// [`send_unpaced`] and the time it took on tokio's (paused) clock; an attempt that outlasts
    /// every deadline of its own fails the test instead of hanging it.
    async fn timed(url: &WebhookUrl, policy: &EgressPolicy) -> (Attempt, Duration) {
        let started = tokio::time::Instant::now();
        let attempt = tokio::time::timeout(
            Duration::from_secs(600),
            send_unpaced(url, policy, &tls(), signed("{}")),
        )
        .await
        .expect("the attempt ends by its own deadlines");
        (attempt, started.elapsed())
    }

    /// A resolver that never answers holds an attempt for the connect timeout, not longer.
    #[tokio::test(start_paused = true)]
    async fn a_host_that_does_not_resolve_in_time_is_given_up_at_the_connect_timeout() {
        let hanging = EgressPolicy {
            allow_loopback: true,
            resolver: crate::webhooks::resolve::Resolver::given(|_, _| {
                Box::pin(std::future::pending())
            }),
            ..EgressPolicy::default()
        };
        let url = WebhookUrl::parse("http://hang.example/hook").unwrap();
        let (attempt, took) = timed(&url, &hanging).await;
        assert_eq!(
            (attempt.status, attempt.error.as_deref()),
            (None, Some(UNREACHABLE))
        );
        assert!(on_time(DOCUMENTED_CONNECT, took), "{took:?}");
    }

    /// A loopback listener whose accept queue is full (the kernel drops a new connection's SYN),
    /// the connection that fills it, and its port.
    fn full_listener() -> (tokio::net::TcpListener, std::net::TcpStream, u16) {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        // Backlog 0: one connection waiting to be accepted fills the queue.
        let listener = socket.listen(0).unwrap();
        let port = listener.local_addr().unwrap().port();
        let queued = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        // Real time (the paused clock does not move while the test thread blocks).
        let deadline = std::time::Instant::now() + Duration::from_secs(60);
        while crate::runtime::accept_queue::accept_queue(port) < 1 {
            assert!(std::time::Instant::now() < deadline, "nothing queued");
            std::thread::sleep(Duration::from_millis(5));
        }
        (listener, queued, port)
    }

    /// A receiver whose accept queue is full holds an attempt for the connect timeout, not
    /// longer.
    #[tokio::test(start_paused = true)]
    async fn a_connection_not_accepted_in_time_is_given_up_at_the_connect_timeout() {
        let (_listener, _queued, port) = full_listener();
        let url = WebhookUrl::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
        let (attempt, took) = timed(&url, &loopback()).await;
        assert_eq!(
            (attempt.status, attempt.error.as_deref()),
            (None, Some("the connection was not accepted in time"))
        );
        assert!(on_time(DOCUMENTED_CONNECT, took), "{took:?}");
        assert_eq!(
            crate::runtime::accept_queue::accept_queue(port),
            1,
            "the attempt's connection never got in"
        );
    }

    /// Resolving and connecting share the connect timeout: a host that takes 4.9 s to resolve
    /// to a receiver that accepts nothing is given up at 5 s, not 9.9.
    #[tokio::test(start_paused = true)]
    async fn resolving_and_connecting_share_the_connect_timeout() {
        let (_listener, _queued, port) = full_listener();
        let slow = EgressPolicy {
            allow_loopback: true,
            resolver: crate::webhooks::resolve::Resolver::given(move |_, _| {
                Box::pin(async move {
                    tokio::time::sleep(Duration::from_millis(4900)).await;
                    Ok(vec![SocketAddr::from(([127, 0, 0, 1], port))])
                })
            }),
            ..EgressPolicy::default()
        };
        let url = WebhookUrl::parse("http://slow.example/hook").unwrap();
        let (attempt, took) = timed(&url, &slow).await;
        assert_eq!(
            (attempt.status, attempt.error.as_deref()),
            (None, Some("the connection was not accepted in time"))
        );
        assert!(on_time(DOCUMENTED_CONNECT, took), "{took:?}");
    }

    /// A receiver that reads the request and never answers is given up at the attempt timeout.
    #[tokio::test(start_paused = true)]
    async fn a_receiver_that_never_answers_is_given_up_at_the_attempt_timeout() {
        use std::io::Read;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = listener.local_addr().unwrap().port();
        // The receiver works on the blocking pool: while it runs, the paused clock does not
        // jump ahead, so no deadline can pass before the request has arrived whole. Once it
        // returns (keeping the connection open), nothing is left to wait for but the clock.
        let received = tokio::task::spawn_blocking(move || {
            listener.set_nonblocking(true).unwrap();
            let deadline = std::time::Instant::now() + Duration::from_secs(60);
            let mut socket = loop {
                match listener.accept() {
                    Ok((socket, _)) => break socket,
                    Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                        assert!(std::time::Instant::now() < deadline, "no connection");
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    Err(e) => panic!("{e}"),
                }
            };
            socket.set_nonblocking(false).unwrap();
            socket
                .set_read_timeout(Some(Duration::from_secs(60)))
                .unwrap();
            let (mut seen, mut buf) = (Vec::new(), [0u8; 4096]);
            while !seen.ends_with(b"\r\n\r\n{}") {
                let n = socket.read(&mut buf).expect("the whole request");
                assert!(n > 0, "closed mid-request");
                seen.extend_from_slice(&buf[..n]);
            }
            socket
        });
        let url = WebhookUrl::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
        let policy = loopback();
        let ((attempt, took), _socket) = tokio::join!(timed(&url, &policy), received);
        assert_eq!(
            (attempt.status, attempt.error.as_deref()),
            (None, Some("no answer within 15 s"))
        );
        assert!(on_time(DOCUMENTED_ATTEMPT, took), "{took:?}");
    }

    /// An answer longer than 64 KiB whose receiver then holds the connection open: its status
    /// counts once 64 KiB are read (reading on would wait for the attempt timeout). On the real
    /// clock: a correct attempt ends at once, a wrong one after 15 s.
    #[tokio::test]
    async fn no_more_than_64_kib_of_an_answer_is_read() {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        assert_eq!(MAX_ANSWER_BYTES, 64 * 1024, "docs/webhooks.md");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (held, open) = tokio::sync::mpsc::unbounded_channel();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let (mut seen, mut buf) = (Vec::new(), [0u8; 4096]);
            while !seen.ends_with(b"\r\n\r\n{}") {
                let n = socket.read(&mut buf).await.unwrap();
                assert!(n > 0, "closed mid-request");
                seen.extend_from_slice(&buf[..n]);
            }
            // One byte more than is read, in a chunk whose body never ends.
            let size = MAX_ANSWER_BYTES + 1;
            let head = format!("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n{size:x}\r\n");
            socket.write_all(head.as_bytes()).await.unwrap();
            let _ = socket.write_all(&vec![b'x'; size]).await;
            let _ = socket.write_all(b"\r\n").await;
            let _ = held.send(socket);
        });
        let url = WebhookUrl::parse(&format!("http://127.0.0.1:{port}/")).unwrap();
        let attempt = send_unpaced(&url, &loopback(), &tls(), signed("{}")).await;
        assert_eq!((attempt.status, attempt.error), (Some(200), None));
        // The receiver's connection stayed open until here.
        drop(open);
    }

    /// A pace that says later for the address the host resolved to sends nothing and tells when.
    #[tokio::test]
    async fn a_pace_holds_the_attempt_back_by_the_address() {
        let (port, mut seen) = receiver("HTTP/1.1 204 No Content\r\n\r\n").await;
        let url = WebhookUrl::parse(&format!("http://localhost:{port}/")).unwrap();
        let asked = std::sync::Mutex::new(Vec::new());
        let pace = |ips: &[IpAddr]| {
            asked.lock().unwrap().extend_from_slice(ips);
            Err(42)
        };
        let held = send(&url, &loopback(), &tls(), signed("{}"), &pace).await;
        assert_eq!(held, Err(42));
        assert!(
            asked.lock().unwrap()[0].is_loopback(),
            "the resolved address"
        );
        assert!(seen.try_recv().is_err(), "nothing was sent");
    }
}
