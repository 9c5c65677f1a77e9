//! The MCP tools' requests made in-process: each through the whole request pipeline
//! ([`super::handle`]) as the caller made them, with the caller's credential headers and
//! address, so a tool call is authenticated, limited, charged and isolated exactly as the REST
//! request it mirrors; and `{base_url}/mcp`, MCP's streamable HTTP transport, that uses it.

use std::net::SocketAddr;
use std::sync::Arc;

use http::{HeaderMap, HeaderValue, Request, header};
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Bytes;
use serde_json::Value;

use crate::mcp::{Answer, Backend, BackendFuture, Call, MAX_ANSWER_BYTES};
use crate::state::AppState;

/// The caller's headers a tool's request carries: its credential (an API key or a session
/// token, never a cookie) and how it was forwarded (the same client address).
const CARRIED: [&str; 4] = ["authorization", "x-api-key", "x-forwarded-for", "forwarded"];

pub struct InProcess {
    state: Arc<AppState>,
    peer: SocketAddr,
    carried: HeaderMap,
}

impl InProcess {
    /// Requests as the caller of `headers` from `peer` would make them.
    pub fn new(state: Arc<AppState>, headers: &HeaderMap, peer: SocketAddr) -> InProcess {
        let mut carried = HeaderMap::new();
        for name in CARRIED {
            for value in headers.get_all(name) {
                carried.append(name, value.clone());
            }
        }
        InProcess {
            state,
            peer,
            carried,
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
        let response = super::handle(
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
        super::query::encode_into(&mut out, segment);
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
/// none may. The body is read within the server's body deadline before rmcp sees it.
pub async fn transport<B>(
    state: &Arc<AppState>,
    parts: http::request::Parts,
    body: B,
    peer: SocketAddr,
) -> Result<http::Response<super::respond::Body>, super::error::ApiError>
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
            .with_allowed_hosts([origin.split("://").nth(1).unwrap_or_default().to_owned()]);
    } else {
        config = config.with_allowed_hosts(Vec::<String>::new());
    }
    let (state_for_tools, headers) = (Arc::clone(state), parts.headers.clone());
    let service = StreamableHttpService::new(
        move || {
            Ok(crate::mcp::Tools::new(Box::new(InProcess::new(
                Arc::clone(&state_for_tools),
                &headers,
                peer,
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
    Ok(http::Response::from_parts(
        head,
        super::respond::Body::from_chunks([bytes]),
    ))
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
        None => {
            let method = serde_json::from_slice::<Value>(message)
                .ok()
                .and_then(|m| m.get("method").and_then(Value::as_str).map(str::to_owned));
            match method {
                Some(method) if method != "initialize" => {
                    refused("an MCP message after initialize must carry MCP-Protocol-Version")
                }
                // `initialize`, or not a message at all: rmcp answers it.
                _ => Ok(()),
            }
        }
    }
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
