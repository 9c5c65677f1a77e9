//! The MCP tools' requests made in-process: each through the whole request pipeline
//! (`http::handle`, handed in as a [`Pipeline`]) as the caller made them, with the caller's credential headers and
//! address, so a tool call is authenticated, limited, charged and isolated exactly as the REST
//! request it mirrors; and `{base_url}/mcp`, MCP's streamable HTTP transport, that uses it.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use http::{HeaderMap, HeaderValue, Request, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use serde_json::Value;

use crate::mcp::{Answer, Backend, BackendFuture, Call, MAX_ANSWER_BYTES};
use crate::state::AppState;

/// The caller's headers a tool's request carries: its credential (an API key or a session
/// token, never a cookie) and how it was forwarded (the same client address).
const CARRIED: [&str; 4] = ["authorization", "x-api-key", "x-forwarded-for", "forwarded"];

/// The request pipeline a tool call goes through: `http::handle`, handed in by the pipeline that
/// carries the MCP message (so this transport does not reach back up to it).
pub type Pipeline = fn(
    Arc<AppState>,
    Request<Full<Bytes>>,
    SocketAddr,
) -> std::pin::Pin<
    Box<dyn std::future::Future<Output = http::Response<super::envelope::Body>> + Send>,
>;

pub struct InProcess {
    state: Arc<AppState>,
    pipeline: Pipeline,
    peer: SocketAddr,
    carried: HeaderMap,
    /// Set once a request is made: the message around it is then not charged itself.
    made_requests: Arc<AtomicBool>,
}

impl InProcess {
    /// Requests as the caller of `headers` from `peer` would make them.
    pub fn new(
        state: Arc<AppState>,
        pipeline: Pipeline,
        headers: &HeaderMap,
        peer: SocketAddr,
        made_requests: Arc<AtomicBool>,
    ) -> InProcess {
        let mut carried = HeaderMap::new();
        for name in CARRIED {
            for value in headers.get_all(name) {
                carried.append(name, value.clone());
            }
        }
        InProcess {
            state,
            pipeline,
            peer,
            carried,
            made_requests,
        }
    }

    async fn send(
        &self,
        method: http::Method,
        call: Call,
        body: Option<Value>,
    ) -> anyhow::Result<Answer> {
        let mut request = Request::builder().method(method).uri(format!(
            "{}{}",
            self.state.base_path,
            target(&call)
        ));
        if let Some(headers) = request.headers_mut() {
            headers.extend(self.carried.clone());
            headers.insert(header::ACCEPT, HeaderValue::from_static("application/json"));
        }
        let payload = match body {
            Some(body) => {
                request = request.header(header::CONTENT_TYPE, "application/json");
                Bytes::from(body.to_string())
            }
            None => Bytes::new(),
        };
        self.made_requests.store(true, Ordering::Relaxed);
        let response = (self.pipeline)(
            Arc::clone(&self.state),
            request.body(Full::new(payload))?,
            self.peer,
        )
        .await;
        crate::mcp::read_answer(response).await
    }
}

impl Backend for InProcess {
    fn get(&self, call: Call) -> BackendFuture<'_> {
        Box::pin(self.send(http::Method::GET, call, None))
    }

    fn post(&self, call: Call, body: Value) -> BackendFuture<'_> {
        Box::pin(self.send(http::Method::POST, call, Some(body)))
    }
}

/// A tool's request as a path below the API's base path with its query, every segment and
/// value percent-encoded (a list's values each, joined by commas).
pub fn target(call: &Call) -> String {
    let mut out = String::new();
    for segment in &call.segments {
        out.push('/');
        if segment == "." || segment == ".." {
            // A dot segment names a value, not a step up: a proxy that normalises paths
            // (RFC 3986, section 5.2.4) would otherwise send the request to another route.
            out.push_str(&"%2E".repeat(segment.len()));
        } else {
            super::query::encode_into(&mut out, segment);
        }
    }
    for (i, (name, values)) in call.query.iter().enumerate() {
        out.push(if i == 0 { '?' } else { '&' });
        out.push_str(name);
        out.push('=');
        for (j, value) in values.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            super::query::encode_into(&mut out, value);
        }
    }
    out
}

/// The MCP path below the API's base path.
pub const PATH: &str = "/mcp";
/// The largest JSON-RPC message a client may send.
const MAX_MESSAGE_BYTES: usize = 64 << 10;

/// `{base_url}/mcp`: MCP's streamable HTTP transport, stateless (no session to keep, so any
/// node answers), answering JSON. A request that carries an `Origin` (a browser's) must come
/// from the service's public URL, as the MCP specification requires; without `--public-url`,
/// none may. The body is read within the server's body deadline before rmcp sees it. With the
/// answer comes whether a tool made REST requests.
pub async fn transport<B>(
    state: &Arc<AppState>,
    pipeline: Pipeline,
    parts: http::request::Parts,
    body: B,
    peer: SocketAddr,
) -> Result<(http::Response<super::envelope::Body>, bool), super::error::ApiError>
where
    B: hyper::body::Body<Data = Bytes> + Send + 'static,
    B::Error: Into<Box<dyn std::error::Error + Send + Sync>>,
{
    use rmcp::transport::streamable_http_server::session::never::NeverSessionManager;
    use rmcp::transport::streamable_http_server::{
        StreamableHttpServerConfig, StreamableHttpService,
    };
    let deadline = state.config.body_timeout;
    let message = tokio::time::timeout(deadline, Limited::new(body, MAX_MESSAGE_BYTES).collect())
        .await
        .map_err(|_| super::error::ApiError::RequestTimeout {
            seconds: deadline.as_secs(),
        })?
        .map_err(|_| super::error::ApiError::PayloadTooLarge {
            limit: MAX_MESSAGE_BYTES as u64,
        })?
        .to_bytes();
    if parts.method == http::Method::POST {
        check_protocol_version(&parts.headers, &message)?;
    }
    let mut config = StreamableHttpServerConfig::default()
        .with_legacy_session_mode(false)
        .with_json_response(true)
        .with_sse_keep_alive(None)
        .with_max_request_body_bytes(MAX_MESSAGE_BYTES)
        .enforce_origin_validation();
    if let Some(origin) = public_origin(state.config.public_url.as_deref()) {
        config = config
            .with_allowed_origins([origin.clone()])
            .with_allowed_hosts(public_hosts(&origin));
    } else {
        config = config.with_allowed_hosts(Vec::<String>::new());
    }
    let (state_for_tools, headers) = (Arc::clone(state), parts.headers.clone());
    let made_requests = Arc::new(AtomicBool::new(false));
    let made = Arc::clone(&made_requests);
    let service = StreamableHttpService::new(
        move || {
            Ok(crate::mcp::Tools::new(Box::new(InProcess::new(
                Arc::clone(&state_for_tools),
                pipeline,
                &headers,
                peer,
                Arc::clone(&made),
            ))))
        },
        Arc::new(NeverSessionManager::default()),
        config,
    );
    let request = http::Request::from_parts(parts, Full::new(message));
    let (head, body) = service.handle(request).await.into_parts();
    // Room for a tool's largest answer escaped into the JSON-RPC text.
    let bytes = Limited::new(body, 4 * MAX_ANSWER_BYTES)
        .collect()
        .await
        .map_err(|e| super::error::ApiError::Internal(anyhow::anyhow!("an MCP answer: {e}")))?
        .to_bytes();
    let response = http::Response::from_parts(head, super::envelope::Body::from_chunks([bytes]));
    Ok((response, made_requests.load(Ordering::Relaxed)))
}

/// The protocol version a message is spoken in must be one regintel speaks: every message but
/// `initialize` (which negotiates it) names it in `MCP-Protocol-Version`, as
/// <https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#protocol-version-header>
/// asks. (Left to rmcp, a missing header would be read as 2025-03-26 and any version it knows
/// accepted, though regintel was tested with neither.)
fn check_protocol_version(
    headers: &HeaderMap,
    message: &[u8],
) -> Result<(), super::error::ApiError> {
    let speaks = |version: &[u8]| {
        crate::mcp::PROTOCOL_VERSIONS
            .iter()
            .any(|v| v.as_str().as_bytes() == version)
    };
    let refused = |problem: &str| {
        let offered: Vec<String> = crate::mcp::PROTOCOL_VERSIONS
            .iter()
            .map(ToString::to_string)
            .collect();
        Err(super::error::ApiError::InvalidRequest(format!(
            "{problem}; regintel speaks {}",
            offered.join(", ")
        )))
    };
    match headers.get("mcp-protocol-version") {
        Some(version) if speaks(version.as_bytes()) => Ok(()),
        Some(_) => refused("MCP-Protocol-Version names a version regintel does not speak"),
        None => match serde_json::from_slice::<Value>(message) {
            // Only an `initialize` request may come without it (a batch, a response or a
            // notification may not): an older client's batch would be read as 2025-03-26's.
            Ok(m) if m.get("method").and_then(Value::as_str) != Some("initialize") => {
                refused("an MCP message after initialize must carry MCP-Protocol-Version")
            }
            // `initialize`, or not JSON at all (rmcp answers a parse error).
            _ => Ok(()),
        },
    }
}

/// The `Host` values that name the public URL's origin: with its port, and without it as
/// clients write a default port (rmcp matches an allowed host that names a port only with
/// that port).
fn public_hosts(origin: &str) -> [String; 2] {
    let authority = origin.split("://").nth(1).unwrap_or_default();
    let host = authority
        .rsplit_once(':')
        .map_or(authority, |(host, _)| host);
    [authority.to_owned(), host.to_owned()]
}

/// `scheme://host:port` of the public URL, the port written out (rmcp reads an origin without
/// one as any port).
fn public_origin(public_url: Option<&str>) -> Option<String> {
    let uri: http::Uri = public_url?.parse().ok()?;
    let scheme = uri.scheme_str()?;
    let port = uri
        .port_u16()
        .unwrap_or(if scheme == "https" { 443 } else { 80 });
    Some(format!("{scheme}://{}:{port}", uri.host()?))
}

#[cfg(test)]
mod tests {
    use std::net::SocketAddr;
    use std::sync::Arc;
    use std::time::Duration;

    use http::Request;
    use http_body_util::Full;
    use hyper::body::Bytes;

    use super::{Pipeline, target, transport};
    use crate::http::envelope::Body;
    use crate::http::error::ApiError;
    use crate::mcp::Call;
    use crate::state::AppState;

    /// A server's state on an empty data dir, with `body_timeout`.
    fn state(dir: &tempfile::TempDir, body_timeout: Duration) -> Arc<AppState> {
        let mut config = crate::config::ServerConfig::new(dir.path().to_path_buf());
        config.body_timeout = body_timeout;
        Arc::new(crate::state::for_tests(config))
    }

    /// An MCP message's head, as a client that speaks 2025-11-25 sends it.
    fn head() -> http::request::Parts {
        Request::post("/api/mcp")
            .header(http::header::HOST, "127.0.0.1")
            .header(http::header::CONTENT_TYPE, "application/json")
            .header(http::header::ACCEPT, "application/json, text/event-stream")
            .header("mcp-protocol-version", "2025-11-25")
            .body(())
            .unwrap()
            .into_parts()
            .0
    }

    const PEER: SocketAddr =
        SocketAddr::new(std::net::IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 9);

    type Answer = std::pin::Pin<Box<dyn std::future::Future<Output = http::Response<Body>> + Send>>;

    fn no_requests(_: Arc<AppState>, _: Request<Full<Bytes>>, _: SocketAddr) -> Answer {
        unreachable!("this message makes no request")
    }

    /// A message that stops coming is refused at the server's body deadline (408), on a paused
    /// clock: the configured one, not before it, and not never.
    #[tokio::test(start_paused = true)]
    async fn a_message_that_stops_coming_is_refused_at_the_body_deadline() {
        let dir = tempfile::tempdir().unwrap();
        let deadline = Duration::from_secs(7);
        let state = state(&dir, deadline);
        let started = tokio::time::Instant::now();
        let body =
            crate::http::test_bodies::Stops(Some(Bytes::from_static(b"{\"jsonrpc\": \"2.0\", ")));
        let answered = tokio::time::timeout(
            Duration::from_secs(600),
            transport(&state, no_requests, head(), body, PEER),
        )
        .await
        .expect("refused by its own deadline");
        let refused = answered.map(|_| ()).unwrap_err();
        assert!(
            matches!(refused, ApiError::RequestTimeout { seconds: 7 }),
            "{refused:?}"
        );
        let took = started.elapsed();
        assert!(crate::runtime::clock::on_time(deadline, took), "{took:?}");
    }

    /// The tool call's request started, and its future was dropped.
    static ENTERED: tokio::sync::Notify = tokio::sync::Notify::const_new();
    static DROPPED: tokio::sync::Notify = tokio::sync::Notify::const_new();

    /// A request that never ends, and says when it starts and when it is dropped.
    fn held(_: Arc<AppState>, _: Request<Full<Bytes>>, _: SocketAddr) -> Answer {
        Box::pin(async {
            let _dropped = crate::mcp::NotifiesOnDrop(&DROPPED);
            ENTERED.notify_one();
            std::future::pending().await
        })
    }

    /// A client that goes away (hyper drops the future answering it) ends the request its tool
    /// call was making, though rmcp runs the call on a task of its own.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_tool_call_whose_client_goes_away_ends_its_request() {
        let dir = tempfile::tempdir().unwrap();
        let state = state(&dir, Duration::from_secs(30));
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "region_profile", "arguments": {"region": "DE21"}}});
        let body = Full::new(Bytes::from(call.to_string()));
        let pipeline: Pipeline = held;
        let answering = tokio::spawn(async move {
            let _ = transport(&state, pipeline, head(), body, PEER).await;
        });
        let limit = Duration::from_secs(60);
        tokio::time::timeout(limit, ENTERED.notified())
            .await
            .expect("the tool call's request started");
        answering.abort();
        tokio::time::timeout(limit, DROPPED.notified())
            .await
            .expect("the request ended with its client");
    }

    /// A tool's arguments stay values of its one route: no dot segment, separator or second
    /// parameter can come out of them.
    #[test]
    fn arguments_cannot_leave_their_place_in_the_target() {
        let up = Call::to(&["regions", "..", "profile"]);
        assert_eq!(target(&up), "/regions/%2E%2E/profile");
        assert_eq!(target(&Call::to(&["citations", "."])), "/citations/%2E");
        let odd = Call::to(&["citations", "a/../b?c#d"]).with("period", Some("2022&x=1"));
        assert_eq!(
            target(&odd),
            "/citations/a%2F..%2Fb%3Fc%23d?period=2022%26x%3D1"
        );
        let list = Call::to(&["compare"]).with_list("regions", &["DE21".into(), "A,B".into()]);
        assert_eq!(target(&list), "/compare?regions=DE21,A%2CB");
    }
}
