//! A webhook receiver on loopback for the tests: it records every request (path, headers, body)
//! and answers with the status it is set to, which a test may change while it runs.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Arc, Mutex};

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

/// One request as received.
#[derive(Clone, Debug)]
pub struct Received {
    pub path: String,
    pub headers: BTreeMap<String, String>,
    pub body: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> &str {
        self.headers.get(name).map_or("", String::as_str)
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

pub struct Receiver {
    pub port: u16,
    status: Arc<AtomicU16>,
    received: Arc<Mutex<Vec<Received>>>,
    _task: JoinHandle,
}

/// Aborts the accept loop when the receiver is dropped.
struct JoinHandle(tokio::task::JoinHandle<()>);

impl Drop for JoinHandle {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Receiver {
    /// A receiver answering `status` to everything.
    pub async fn start(status: u16) -> Receiver {
        Self::start_slow(status, std::time::Duration::ZERO).await
    }

    /// A receiver that records each request at once and answers `status` after `delay`.
    pub async fn start_slow(status: u16, delay: std::time::Duration) -> Receiver {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let status = Arc::new(AtomicU16::new(status));
        let received = Arc::new(Mutex::new(Vec::new()));
        let (s, r) = (Arc::clone(&status), Arc::clone(&received));
        let task = tokio::spawn(async move {
            loop {
                let Ok((stream, _)) = listener.accept().await else {
                    return;
                };
                let (status, received) = (Arc::clone(&s), Arc::clone(&r));
                tokio::spawn(async move {
                    let service = hyper::service::service_fn(
                        move |req: hyper::Request<hyper::body::Incoming>| {
                            let (status, received) = (Arc::clone(&status), Arc::clone(&received));
                            async move {
                                let path = req.uri().path().to_owned();
                                let headers = req
                                    .headers()
                                    .iter()
                                    .map(|(k, v)| {
                                        (k.as_str().to_owned(), v.to_str().unwrap_or("").to_owned())
                                    })
                                    .collect();
                                let body = req.into_body().collect().await?.to_bytes().to_vec();
                                received.lock().unwrap().push(Received {
                                    path,
                                    headers,
                                    body,
                                });
                                tokio::time::sleep(delay).await;
                                let code = status.load(Ordering::SeqCst);
                                Ok::<_, hyper::Error>(
                                    hyper::Response::builder()
                                        .status(code)
                                        .body(Full::new(Bytes::new()))
                                        .unwrap(),
                                )
                            }
                        },
                    );
                    let _ = hyper::server::conn::http1::Builder::new()
                        .serve_connection(TokioIo::new(stream), service)
                        .await;
                });
            }
        });
        Receiver {
            port,
            status,
            received,
            _task: JoinHandle(task),
        }
    }

    /// `http://127.0.0.1:<port><path>`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn answer(&self, status: u16) {
        self.status.store(status, Ordering::SeqCst);
    }

    pub fn received(&self) -> Vec<Received> {
        self.received.lock().unwrap().clone()
    }

    /// Waits until `done` holds for what was received, for at most `limit` (past it the test
    /// fails, saying how many had arrived); what was received.
    pub async fn wait_for(
        &self,
        limit: std::time::Duration,
        done: impl Fn(&[Received]) -> bool,
    ) -> Vec<Received> {
        crate::bounded::until("the deliveries the test expects", limit, || async {
            let now = self.received();
            match done(&now) {
                true => Ok(now),
                false => Err(format!("{} received", now.len())),
            }
        })
        .await
    }
}

/// A receiver's check of a delivery, as docs/webhooks.md shows it: true when one `v1` signature is
/// the HMAC of `{id}.{timestamp}.{body}` under the secret and the timestamp is within 5 minutes.
pub fn verify(secret: &str, id: &str, timestamp: &str, signatures: &str, body: &[u8]) -> bool {
    use base64::{Engine, engine::general_purpose::STANDARD};
    use hmac::{Hmac, KeyInit, Mac};
    let Ok(key) = STANDARD.decode(secret.trim_start_matches("whsec_")) else {
        return false;
    };
    let fresh = timestamp
        .parse::<i64>()
        .is_ok_and(|t| (now_unix() - t).abs() <= 300);
    fresh
        && signatures
            .split(' ')
            .filter_map(|s| s.strip_prefix("v1,"))
            .any(|given| {
                let mut mac = Hmac::<sha2::Sha256>::new_from_slice(&key).expect("any key length");
                mac.update(format!("{id}.{timestamp}.").as_bytes());
                mac.update(body);
                STANDARD
                    .decode(given)
                    .is_ok_and(|given| mac.verify_slice(&given).is_ok()) // constant time
            })
}

fn now_unix() -> i64 {
    regintel::runtime::clock::now_ms() / 1000
}
