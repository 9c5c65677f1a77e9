//! One connection: its TLS handshake under a timeout, then hyper-util's auto builder under a
//! watchdog. hyper bounds the time to send HTTP/1.1 headers; the watchdog bounds everything a
//! client could otherwise hold a connection with by doing nothing:
//!
//! - no request within `--header-timeout` of the connection opening (after TLS): closed, whatever
//!   the protocol, including a client that sends part of the HTTP/2 preface and stops;
//! - no request in flight for `--idle-timeout`: closed (HTTP/2 with GOAWAY);
//! - an answer with a piece ready that hyper has not asked for in `--send-timeout` (the client
//!   stopped reading, or stopped granting HTTP/2 flow-control window to its stream): the
//!   connection is cut, which drops the answer and frees what its producer holds. Each answer is
//!   watched on its own, so other streams' traffic cannot hide a stalled one; an answer waiting
//!   for its producer is not the client's fault and is not counted.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use http_body::{Body, Frame, SizeHint};
use hyper::service::service_fn;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;
use tokio::sync::watch;
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
    // The watchdog is a task of its own: here, it would be polled again whenever the
    // connection is, which is every time its socket is ready.
    let watched = Arc::clone(&activity);
    let mut watching = crate::runtime::task::AbortOnDrop(tokio::spawn(async move {
        tokio::select! {
            verdict = watchdog(&watched, &deadlines) => verdict,
            _ = stopping.wait_for(|stop| *stop) => Verdict::ShuttingDown,
        }
    }));
    let verdict = tokio::select! {
        biased;
        result = conn.as_mut() => {
            if let Err(e) = result {
                tracing::debug!(%peer, error = %e, "connection ended with an error");
            }
            return;
        }
        verdict = &mut watching.0 => match verdict {
            Ok(verdict) => verdict,
            Err(e) => {
                tracing::error!(%peer, error = %e, "the connection's watchdog failed: closed");
                return;
            }
        },
    };
    match verdict {
        Verdict::Stalled => {
            tracing::info!(%peer, "connection cut off: an answer made no progress (the client stopped reading)");
        }
        Verdict::Idle => {
            tracing::debug!(%peer, "idle connection closed");
            // Nothing is in flight, so this ends at once (after a GOAWAY for HTTP/2).
            conn.as_mut().graceful_shutdown();
            let _ = tokio::time::timeout(config.send_timeout, conn).await;
        }
        Verdict::ShuttingDown => {
            conn.as_mut().graceful_shutdown();
            let idle = || activity.in_flight.load(Ordering::Acquire) == 0;
            // With no request in flight, the send timeout to close cleanly (a GOAWAY for
            // HTTP/2; an answer's last bytes still being flushed), and no wait for a request
            // still arriving, whose head could take the header deadline. A request that got
            // in meanwhile, like one in flight from the start, finishes within the server's
            // drain deadline.
            if idle()
                && tokio::time::timeout(config.send_timeout, conn.as_mut())
                    .await
                    .is_ok()
            {
                return;
            }
            if !idle() {
                let _ = conn.await;
            }
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
/// that applies now, and never longer than the shorter of the idle and send timeouts: what
/// happens meanwhile (a request ending, an answer starting) brings a deadline at least that far
/// off, so it is seen in time without the connection waking the watchdog, three times a request.
async fn watchdog(activity: &Activity, deadlines: &Deadlines) -> Verdict {
    // At least a tenth of a second: a timeout of 0 would otherwise have it look again at once,
    // for as long as the connection lasts.
    const SHORTEST_SLEEP: Duration = Duration::from_millis(100);
    let longest_sleep = deadlines.idle.min(deadlines.send).max(SHORTEST_SLEEP);
    loop {
        let now = activity.now_ms();
        let wait = if activity.in_flight.load(Ordering::Acquire) == 0 {
            let limit = if activity.any_request.load(Ordering::Acquire) {
                deadlines.idle
            } else {
                deadlines.first_request
            };
            let quiet = Duration::from_millis(
                now.saturating_sub(activity.last_request.load(Ordering::Acquire)),
            );
            if quiet >= limit {
                return Verdict::Idle;
            }
            limit - quiet
        } else {
            match activity.oldest_stalled_since() {
                Some(since) => {
                    let stalled = Duration::from_millis(now.saturating_sub(since));
                    if stalled >= deadlines.send {
                        return Verdict::Stalled;
                    }
                    deadlines.send - stalled
                }
                // Handlers at work, or answers waiting for their producers: their own
                // deadlines bound them. Look again later.
                None => deadlines.send,
            }
        };
        tokio::time::sleep(wait.clamp(SHORTEST_SLEEP, longest_sleep)).await;
    }
}

/// What a connection is doing, for its watchdog.
struct Activity {
    /// tokio's clock, which a test may pause and move on.
    origin: tokio::time::Instant,
    /// Requests from when hyper hands them over until their answer's body is dropped.
    in_flight: AtomicUsize,
    /// Whether a request arrived yet (until then the first-request deadline applies).
    any_request: AtomicBool,
    /// When a request last arrived or ended, in milliseconds since `origin`.
    last_request: AtomicU64,
    /// The answers being sent, by a number of their own (counted here, so hashed with foldhash
    /// rather than SipHash: no client picks them).
    answers: Mutex<Answers>,
    next_answer: AtomicU64,
}

type Answers = HashMap<u64, Arc<Sending>, foldhash::fast::RandomState>;

/// One answer being sent: when hyper last asked it for a piece, and whether it had none ready
/// then (so it is the producer's turn, not the client's).
struct Sending {
    last_asked: AtomicU64,
    producing: AtomicBool,
}

impl Activity {
    fn new() -> Activity {
        Activity {
            origin: tokio::time::Instant::now(),
            in_flight: AtomicUsize::new(0),
            any_request: AtomicBool::new(false),
            last_request: AtomicU64::new(0),
            answers: Mutex::default(),
            next_answer: AtomicU64::new(0),
        }
    }

    fn now_ms(&self) -> u64 {
        self.origin.elapsed().as_millis() as u64
    }

    fn answers(&self) -> std::sync::MutexGuard<'_, Answers> {
        self.answers.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Since when the longest-waiting answer that has a piece ready has not been asked for one:
    /// hyper stops asking while the client does not read (or, in HTTP/2, grants no window).
    fn oldest_stalled_since(&self) -> Option<u64> {
        self.answers()
            .values()
            .filter(|a| !a.producing.load(Ordering::Acquire))
            .map(|a| a.last_asked.load(Ordering::Acquire))
            .min()
    }

    /// A request arrived or ended: the idle deadline runs from now.
    fn request_moved(&self) {
        self.last_request.store(self.now_ms(), Ordering::Release);
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
        activity.request_moved();
        InFlight {
            activity: Arc::clone(activity),
        }
    }

    /// The answer is ready: its body is watched while it is sent.
    fn sending<B>(self, body: B) -> Watched<B> {
        let sending = Arc::new(Sending {
            last_asked: AtomicU64::new(self.activity.now_ms()),
            producing: AtomicBool::new(false),
        });
        let id = self.activity.next_answer.fetch_add(1, Ordering::Relaxed);
        self.activity.answers().insert(id, Arc::clone(&sending));
        Watched {
            body,
            id,
            sending,
            request: self,
        }
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.activity.in_flight.fetch_sub(1, Ordering::AcqRel);
        self.activity.request_moved();
    }
}

/// An answer's body that tells its connection's watchdog when hyper asks it for a piece.
pub struct Watched<B> {
    body: B,
    id: u64,
    sending: Arc<Sending>,
    request: InFlight,
}

impl<B> Drop for Watched<B> {
    fn drop(&mut self) {
        self.request.activity.answers().remove(&self.id);
    }
}

impl<B: Body + Unpin> Body for Watched<B> {
    type Data = B::Data;
    type Error = B::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<B::Data>, B::Error>>> {
        let now = self.request.activity.now_ms();
        self.sending.last_asked.store(now, Ordering::Release);
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        self.sending
            .producing
            .store(polled.is_pending(), Ordering::Release);
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A send timeout of 0 (nothing may wait to be sent) does not keep the watchdog looking
    /// again at once: on a paused clock (which moves only while every task sleeps) the first
    /// request's deadline comes after a handful of polls, not thousands.
    #[tokio::test(start_paused = true)]
    async fn a_zero_timeout_does_not_keep_the_watchdog_awake() {
        use std::future::Future;
        let deadlines = Deadlines {
            first_request: Duration::from_secs(10),
            idle: Duration::from_secs(60),
            send: Duration::ZERO,
        };
        let activity = Activity::new();
        let started = tokio::time::Instant::now();
        let mut watching = std::pin::pin!(watchdog(&activity, &deadlines));
        let mut polls = 0;
        let verdict = std::future::poll_fn(|cx| {
            polls += 1;
            assert!(polls < 1000, "the watchdog was polled {polls} times");
            watching.as_mut().poll(cx)
        })
        .await;
        assert_eq!(verdict, Verdict::Idle);
        assert!(started.elapsed() >= Duration::from_secs(10));
    }

    use std::future::Future;

    use crate::runtime::clock::on_time;

    const DEADLINES: Deadlines = Deadlines {
        first_request: Duration::from_secs(10),
        idle: Duration::from_secs(60),
        send: Duration::from_secs(30),
    };

    /// When the watchdog gives its verdict on a paused clock, moved on only by its own sleeps
    /// (and `moves`, run first).
    async fn verdict_after(
        activity: &Arc<Activity>,
        moves: impl Future<Output = ()>,
    ) -> (Verdict, Duration) {
        let started = tokio::time::Instant::now();
        let (verdict, ()) = tokio::join!(watchdog(activity, &DEADLINES), moves);
        (verdict, started.elapsed())
    }

    /// No request within the header timeout: closed at that timeout, not before.
    #[tokio::test(start_paused = true)]
    async fn a_connection_without_a_request_is_closed_at_the_header_timeout() {
        let activity = Arc::new(Activity::new());
        let (verdict, after) = verdict_after(&activity, async {}).await;
        assert_eq!(verdict, Verdict::Idle);
        assert!(on_time(Duration::from_secs(10), after), "{after:?}");
    }

    /// After a request has ended, the idle timeout runs from its end.
    #[tokio::test(start_paused = true)]
    async fn a_connection_is_closed_the_idle_timeout_after_its_last_request() {
        let activity = Arc::new(Activity::new());
        let moves = async {
            tokio::time::sleep(Duration::from_secs(5)).await;
            drop(InFlight::begin(&activity));
        };
        let (verdict, after) = verdict_after(&activity, moves).await;
        assert_eq!(verdict, Verdict::Idle);
        assert!(on_time(Duration::from_secs(65), after), "{after:?}");
    }

    /// An answer with a piece ready that nobody asks for is cut at the send timeout; one whose
    /// producer is still working is not the client's fault, however long it takes.
    #[tokio::test(start_paused = true)]
    async fn an_answer_the_client_does_not_take_is_cut_at_the_send_timeout() {
        let activity = Arc::new(Activity::new());
        let waiting_producer = InFlight::begin(&activity).sending(());
        waiting_producer
            .sending
            .producing
            .store(true, Ordering::Release);
        let moves = async {
            tokio::time::sleep(Duration::from_secs(100)).await;
            let unread = InFlight::begin(&activity).sending(());
            // Held until the verdict: the join drops it after.
            tokio::time::sleep(Duration::from_secs(3600)).await;
            drop(unread);
        };
        let started = tokio::time::Instant::now();
        let verdict = tokio::select! {
            verdict = watchdog(&activity, &DEADLINES) => verdict,
            () = moves => panic!("no verdict within an hour"),
        };
        let after = started.elapsed();
        assert_eq!(verdict, Verdict::Stalled);
        assert!(on_time(Duration::from_secs(130), after), "{after:?}");
        drop(waiting_producer);
    }
}
