//! One connection: its TLS handshake under a timeout, then hyper-util's auto builder under a
//! watchdog. hyper bounds the time to send HTTP/1.1 headers; the watchdog bounds everything a
//! client could otherwise hold a connection with by doing nothing:
//!
//! - no request within `--header-timeout` of the connection opening (after TLS): closed, whatever
//!   the protocol, including a client that sends part of the HTTP/2 preface and stops;
//! - no request in flight for `--idle-timeout`: closed (HTTP/2 with GOAWAY);
//! - an answer being sent that makes no progress for `--send-timeout` (the client stopped
//!   reading, or stopped granting HTTP/2 flow-control window): the connection is cut, which drops
//!   the answer and frees what its producer holds.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use http_body::{Body, Frame, SizeHint};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::{Notify, watch};
use tokio_rustls::TlsAcceptor;

use crate::state::AppState;

/// Serves one accepted connection until it ends, is cut off, or the server stops. `held` (the
/// connection's slots) is released when this returns.
pub(super) async fn serve(
    state: Arc<AppState>,
    builder: Arc<auto::Builder<TokioExecutor>>,
    stream: TcpStream,
    peer: SocketAddr,
    tls: Option<TlsAcceptor>,
    stopping: watch::Receiver<bool>,
    held: impl Send + 'static,
) {
    let _held = held;
    let Some(acceptor) = tls else {
        return serve_io(state, &builder, stream, peer, stopping).await;
    };
    match tokio::time::timeout(state.config.tls_handshake_timeout, acceptor.accept(stream)).await {
        Ok(Ok(stream)) => serve_io(state, &builder, stream, peer, stopping).await,
        Ok(Err(e)) => tracing::debug!(%peer, error = %e, "TLS handshake failed"),
        Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
    }
}

async fn serve_io<I>(
    state: Arc<AppState>,
    builder: &auto::Builder<TokioExecutor>,
    io: I,
    peer: SocketAddr,
    mut stopping: watch::Receiver<bool>,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    let config = &state.config;
    let deadlines = Deadlines {
        first_request: config.header_read_timeout,
        idle: config.idle_timeout,
        send: config.send_timeout,
    };
    let activity = Arc::new(Activity::new());
    let service = {
        let (state, activity) = (Arc::clone(&state), Arc::clone(&activity));
        service_fn(move |req| {
            let state = Arc::clone(&state);
            let request = InFlight::begin(&activity);
            async move {
                let response = crate::http::handle(state, req, peer).await;
                Ok::<_, Infallible>(response.map(|body| request.sending(body)))
            }
        })
    };
    let conn = builder.serve_connection(TokioIo::new(io), service);
    tokio::pin!(conn);
    let verdict = tokio::select! {
        result = conn.as_mut() => {
            if let Err(e) = result {
                tracing::debug!(%peer, error = %e, "connection ended with an error");
            }
            return;
        }
        verdict = watchdog(&activity, &deadlines) => verdict,
        _ = stopping.wait_for(|stop| *stop) => Verdict::ShuttingDown,
    };
    match verdict {
        Verdict::Stalled => {
            tracing::info!(%peer, "connection cut off: an answer made no progress (the client stopped reading)");
        }
        Verdict::Idle => {
            tracing::debug!(%peer, "idle connection closed");
            // Nothing is in flight, so this ends at once (after a GOAWAY for HTTP/2).
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(deadlines.send, conn).await;
        }
        Verdict::ShuttingDown => {
            // In-flight requests finish; the server's drain deadline bounds the wait.
            conn.as_mut().graceful_shutdown();
            let _ = conn.await;
        }
    }
}

struct Deadlines {
    first_request: Duration,
    idle: Duration,
    send: Duration,
}

#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Idle,
    Stalled,
    ShuttingDown,
}

/// Resolves when the connection has broken one of its deadlines. It sleeps until the deadline
/// that applies now, or until a request starts or ends (which changes the deadline that applies).
async fn watchdog(activity: &Activity, deadlines: &Deadlines) -> Verdict {
    loop {
        let changed = activity.changed.notified();
        let quiet = activity.quiet_for();
        let (limit, verdict) = if activity.in_flight.load(Ordering::Acquire) == 0 {
            let limit = if activity.any_request.load(Ordering::Acquire) {
                deadlines.idle
            } else {
                deadlines.first_request
            };
            (limit, Some(Verdict::Idle))
        } else if activity.sending.load(Ordering::Acquire) > 0 {
            (deadlines.send, Some(Verdict::Stalled))
        } else {
            // A handler is at work: its own deadlines bound it. Look again later.
            (deadlines.send, None)
        };
        let wait = match verdict {
            Some(verdict) if quiet >= limit => return verdict,
            Some(_) => limit - quiet,
            None => limit,
        };
        tokio::select! {
            () = tokio::time::sleep(wait) => {}
            () = changed => {}
        }
    }
}

/// What a connection is doing, for its watchdog.
struct Activity {
    origin: Instant,
    /// Requests from when hyper hands them over until their answer's body is dropped.
    in_flight: AtomicUsize,
    /// Answers whose bodies are being sent.
    sending: AtomicUsize,
    /// Whether a request arrived yet (until then the first-request deadline applies).
    any_request: AtomicBool,
    /// When something last moved, in milliseconds since `origin`: a request arrived or ended, an
    /// answer started or a piece of it was taken for sending.
    last_progress: AtomicU64,
    /// Wakes the watchdog when a request starts or ends, or an answer starts.
    changed: Notify,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            origin: Instant::now(),
            in_flight: AtomicUsize::new(0),
            sending: AtomicUsize::new(0),
            any_request: AtomicBool::new(false),
            last_progress: AtomicU64::new(0),
            changed: Notify::new(),
        }
    }

    fn now_ms(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64
    }

    fn progress(&self) {
        self.last_progress.store(self.now_ms(), Ordering::Release);
    }

    /// Progress that changes which deadline applies.
    fn transition(&self) {
        self.progress();
        self.changed.notify_one();
    }

    fn quiet_for(&self) -> Duration {
        let last = self.last_progress.load(Ordering::Acquire);
        Duration::from_millis(self.now_ms().saturating_sub(last))
    }
}

/// One request in flight, from its arrival until its answer's body is dropped.
struct InFlight {
    activity: Arc<Activity>,
}

impl InFlight {
    fn begin(activity: &Arc<Activity>) -> InFlight {
        activity.any_request.store(true, Ordering::Release);
        activity.in_flight.fetch_add(1, Ordering::AcqRel);
        activity.transition();
        InFlight {
            activity: Arc::clone(activity),
        }
    }

    /// The answer is ready: its body is watched while it is sent.
    fn sending<B>(self, body: B) -> Watched<B> {
        self.activity.sending.fetch_add(1, Ordering::AcqRel);
        self.activity.transition();
        Watched {
            body,
            request: self,
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.activity.in_flight.fetch_sub(1, Ordering::AcqRel);
        self.activity.transition();
    }
}

/// An answer's body that reports each piece taken for sending to its connection's watchdog.
pub struct Watched<B> {
    body: B,
    request: InFlight,
}

impl<B> Drop for Watched<B> {
    fn drop(&mut self) {
        self.request.activity.sending.fetch_sub(1, Ordering::AcqRel);
    }
}

impl<B: Body + Unpin> Body for Watched<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        if polled.is_ready() {
            self.request.activity.progress();
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}
