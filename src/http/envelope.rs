//! From a [`Reply`] or an [`ApiError`] to bytes and headers: the `{data, meta, error}` envelope,
//! content coding, the headers every answer carries and those an error calls for, and the answer
//! to a CORS preflight.

use std::io::Write;

use http::header::{self, HeaderMap, HeaderName, HeaderValue};
use http::{Response, StatusCode};
use std::collections::VecDeque;
use std::pin::Pin;
use std::task::{Context, Poll};

use http_body::{Frame, SizeHint};
use hyper::body::Bytes;
use serde_json::json;

use crate::http::error::ApiError;
use crate::reply::{Reply, StreamChunk};

/// A response body of a few buffers sent one after another: the per-request envelope parts
/// around the cached `data` and `meta`, which are sent as they are (hyper writes them with one
/// vectored write) instead of being copied into one buffer.
#[derive(Default)]
pub struct Body {
    chunks: VecDeque<Bytes>,
    remaining: u64,
    /// Chunks still being produced (a streamed export): sent after `chunks`, length unknown.
    /// Ending without [`StreamChunk::End`] aborts the response (see there).
    stream: Option<tokio::sync::mpsc::Receiver<StreamChunk>>,
}

impl Body {
    pub fn from_chunks(chunks: impl IntoIterator<Item = Bytes>) -> Body {
        let chunks: VecDeque<Bytes> = chunks.into_iter().filter(|c| !c.is_empty()).collect();
        let remaining = chunks.iter().map(|c| c.len() as u64).sum();
        Body {
            chunks,
            remaining,
            stream: None,
        }
    }

    /// A body whose chunks arrive on a channel, sent chunked as they come.
    pub fn streamed(chunks: tokio::sync::mpsc::Receiver<StreamChunk>) -> Body {
        Body {
            stream: Some(chunks),
            ..Body::default()
        }
    }

    /// The whole body in one buffer (for compression).
    fn concat(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.remaining as usize);
        for chunk in &self.chunks {
            out.extend_from_slice(chunk);
        }
        out
    }
}

impl http_body::Body for Body {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        if let Some(chunk) = self.chunks.pop_front() {
            self.remaining -= chunk.len() as u64;
            return Poll::Ready(Some(Ok(Frame::data(chunk))));
        }
        let Some(rx) = &mut self.stream else {
            return Poll::Ready(None);
        };
        match rx.poll_recv(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(Some(StreamChunk::Data(chunk))) => {
                Poll::Ready(Some(Ok(Frame::data(chunk))))
            }
            Poll::Ready(Some(StreamChunk::End)) => {
                self.stream = None;
                Poll::Ready(None)
            }
            Poll::Ready(None) => {
                self.stream = None;
                Poll::Ready(Some(Err(std::io::Error::other(
                    "the answer's producer stopped before the end",
                ))))
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.chunks.is_empty() && self.stream.is_none()
    }

    fn size_hint(&self) -> SizeHint {
        match self.stream {
            Some(_) => SizeHint::default(),
            None => SizeHint::with_exact(self.remaining),
        }
    }
}

pub const API_VERSION: &str = "v1";

/// Bodies smaller than this are sent as they are: compressing them saves nothing.
const COMPRESS_MIN_BYTES: usize = 1024;

/// Headers a browser script may read: without `Access-Control-Expose-Headers` a cross-origin
/// script sees none of the rate-limit headers (Fetch standard, CORS-safelisted response headers).
const EXPOSE: &str = "X-Request-Id, ETag, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, \
                      X-RateLimit-Reset, X-RateLimit-Used, X-RateLimit-Resource, RateLimit, RateLimit-Policy";

/// What the per-request part of an envelope says.
pub struct Envelope<'a> {
    pub request_id: &'a str,
    pub generated_at: &'a str,
    /// `public` (anonymous) or `account`.
    pub access: &'a str,
}

/// `{"data": <data>, "meta": {request_id, api_version, generated_at, access, <meta...>}}`.
/// `data` and `meta` are already JSON; `meta` is an object whose members are appended. They are
/// shared, not copied: the body is the sequence of parts.
pub fn envelope(e: &Envelope<'_>, data: &Bytes, meta: &Bytes) -> Body {
    // The request id is validated to [A-Za-z0-9._-] and the time is generated: no escaping needed.
    let mut middle = String::with_capacity(160);
    for part in [
        ",\"meta\":{\"request_id\":\"",
        e.request_id,
        "\",\"api_version\":\"",
        API_VERSION,
        "\",\"generated_at\":\"",
        e.generated_at,
        "\",\"access\":\"",
        e.access,
        "\"",
    ] {
        middle.push_str(part);
    }
    let members = meta
        .strip_prefix(b"{")
        .and_then(|m| m.strip_suffix(b"}"))
        .map_or_else(Bytes::new, |m| meta.slice_ref(m));
    let comma = if members.is_empty() { "" } else { "," };
    Body::from_chunks([
        Bytes::from_static(b"{\"data\":"),
        data.clone(),
        Bytes::from(middle),
        Bytes::from_static(comma.as_bytes()),
        members,
        Bytes::from_static(b"}}"),
    ])
}

/// The error envelope: `data` null and `error` with RFC 9457 members (`code`, `message`, `status`,
/// `request_id` and, where there are any, `details`).
pub fn error_body(e: &Envelope<'_>, err: &ApiError) -> Vec<u8> {
    let mut error = json!({
        "code": err.code(),
        "message": err.to_string(),
        "status": err.status(),
        "request_id": e.request_id,
    });
    if let Some(details) = err.details() {
        error["details"] = details;
    }
    let body = json!({
        "data": null,
        "meta": {
            "request_id": e.request_id,
            "api_version": API_VERSION,
            "generated_at": e.generated_at,
            "access": e.access,
        },
        "error": error,
    });
    // Whatever the message echoes from the request (a path, a parameter), a key never comes back.
    let text = serde_json::to_string(&body).expect("a json! value serialises");
    crate::auth::api_key::redact(&text)
        .into_owned()
        .into_bytes()
}

pub fn render(e: &Envelope<'_>, reply: &Reply) -> (StatusCode, Body, &'static str) {
    match reply {
        Reply::Json { status, data, meta } => (
            StatusCode::from_u16(*status).unwrap_or(StatusCode::OK),
            envelope(e, data, meta),
            "application/json",
        ),
        Reply::Raw { content_type, body } => (
            StatusCode::OK,
            Body::from_chunks([body.clone()]),
            content_type,
        ),
        Reply::NoContent => (StatusCode::NO_CONTENT, Body::default(), "application/json"),
        Reply::WithCookies { reply, .. } => render(e, reply),
        Reply::Stream {
            content_type,
            chunks,
            ..
        } => {
            let taken = chunks.lock().unwrap_or_else(|e| e.into_inner()).take();
            (
                StatusCode::OK,
                taken.map(Body::streamed).unwrap_or_default(),
                content_type,
            )
        }
    }
}

/// The headers a streamed answer carries about itself: its coding and the file name to save it
/// as. (Its chunks are coded by their producer, not here.)
pub fn stream_headers(response: &mut Response<Body>, reply: &Reply) {
    let Reply::Stream {
        gzip, file_name, ..
    } = reply
    else {
        return;
    };
    let headers = response.headers_mut();
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if *gzip {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    }
    let disposition = file_name
        .as_deref()
        .and_then(|name| HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")).ok());
    if let Some(value) = disposition {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
}

/// The cookies a reply sets.
pub fn cookie_headers(response: &mut Response<Body>, reply: &Reply) {
    let Reply::WithCookies { cookies, .. } = reply else {
        return;
    };
    for cookie in cookies {
        if let Ok(value) = HeaderValue::from_str(cookie) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
}

/// Whether the client takes gzip (`Accept-Encoding`, honouring `q=0`).
pub fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|item| {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q="))
                .and_then(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            (coding.eq_ignore_ascii_case("gzip") || coding == "*") && q > 0.0
        })
}

/// Bodies at least this large are compressed on the blocking pool: deflating tens of KiB takes
/// time the async threads owe to other connections.
const COMPRESS_OFF_THREAD_BYTES: u64 = 16 * 1024;

/// [`build`], compressing a large body on the read threads under one of their permits, so that
/// compression too is bounded. Without a free permit the answer goes out uncompressed rather
/// than waiting: a cached answer never queues behind slow reads.
pub async fn build_async(
    status: StatusCode,
    body: Body,
    content_type: &'static str,
    gzip: bool,
    state: &crate::state::AppState,
) -> Response<Body> {
    let large = body.stream.is_none() && body.remaining >= COMPRESS_OFF_THREAD_BYTES;
    if !(gzip && large) {
        return build(status, body, content_type, gzip);
    }
    let Ok(permit) = std::sync::Arc::clone(&state.reads).try_acquire_owned() else {
        return build(status, body, content_type, false);
    };
    let compressed = state
        .read_threads
        .run(move || {
            let _permit = permit;
            build(status, body, content_type, true)
        })
        .await;
    compressed.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// Headers of a typical answer: its own, [`common_headers`], the cache's and the rate limits'.
const ANSWER_HEADERS: usize = 24;

/// Builds the response, gzipping large bodies for clients that accept it.
pub fn build(
    status: StatusCode,
    body: Body,
    content_type: &'static str,
    gzip: bool,
) -> Response<Body> {
    let mut builder = Response::builder().status(status);
    if let Some(headers) = builder.headers_mut() {
        // Room for every header an answer gets (about 21), instead of growing and rehashing the
        // map three times on the way.
        headers.reserve(ANSWER_HEADERS);
    }
    builder = builder.header(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    // A streamed body is sent as it is produced; it is not buffered to be compressed.
    let body = if gzip && body.stream.is_none() && body.remaining >= COMPRESS_MIN_BYTES as u64 {
        let mut encoder = flate2::write::GzEncoder::new(
            Vec::with_capacity(body.remaining as usize / 4),
            flate2::Compression::new(6),
        );
        encoder
            .write_all(&body.concat())
            .expect("writing to a Vec cannot fail");
        builder = builder.header(header::CONTENT_ENCODING, "gzip");
        let zipped = encoder.finish().expect("writing to a Vec cannot fail");
        Body::from_chunks([Bytes::from(zipped)])
    } else {
        body
    };
    builder.body(body).expect("static headers are valid")
}

/// The request id's header, on requests and answers.
pub const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Who may read an answer from a script of another origin, and whether its route is a page.
#[derive(Clone, Copy)]
pub struct Exposure {
    /// Scripts of any origin may read it (the data API), without credentials.
    pub cross_origin: bool,
    /// A page of the explorer: it loads its own script and stylesheet.
    pub page: bool,
}

/// Headers on every answer: request id, security headers (OWASP HTTP Security Response
/// Headers cheat sheet) and, where
/// `cross_origin`, CORS for the public data API. `page`: the request was for an explorer page,
/// whose `304 Not Modified` carries no content type but must keep the page's policy (a
/// browser takes a 304's headers into the page it revalidated).
///
/// The names and values are constants: made from text on every answer, each was checked byte by
/// byte (and a name looked up among the standard ones) every time.
pub fn common_headers(
    headers: &mut HeaderMap,
    request_id: &str,
    tls: bool,
    Exposure {
        cross_origin,
        page: page_route,
    }: Exposure,
) {
    const API_CSP: HeaderValue =
        HeaderValue::from_static("default-src 'none'; frame-ancestors 'none'");
    const PAGE_CSP: HeaderValue = HeaderValue::from_static(crate::pages::PAGE_CSP);
    const NOSNIFF: HeaderValue = HeaderValue::from_static("nosniff");
    const DENY: HeaderValue = HeaderValue::from_static("DENY");
    const NO_REFERRER: HeaderValue = HeaderValue::from_static("no-referrer");
    const ANY_ORIGIN: HeaderValue = HeaderValue::from_static("*");
    const EXPOSED: HeaderValue = HeaderValue::from_static(EXPOSE);
    const HSTS: HeaderValue = HeaderValue::from_static("max-age=31536000");
    if let Ok(v) = HeaderValue::from_str(request_id) {
        headers.insert(X_REQUEST_ID, v);
    }
    // An API answer may load nothing; a page loads its own script and stylesheet.
    let page = page_route
        || headers
            .get(header::CONTENT_TYPE)
            .is_some_and(|t| t.as_bytes().starts_with(b"text/html"));
    let fixed = [
        (header::X_CONTENT_TYPE_OPTIONS, NOSNIFF),
        (
            header::CONTENT_SECURITY_POLICY,
            if page { PAGE_CSP } else { API_CSP },
        ),
        (header::X_FRAME_OPTIONS, DENY),
        (header::REFERRER_POLICY, NO_REFERRER),
    ];
    for (name, value) in fixed {
        headers.insert(name, value);
    }
    if cross_origin {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, ANY_ORIGIN);
        headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED);
    }
    if tls {
        headers.insert(header::STRICT_TRANSPORT_SECURITY, HSTS);
    }
}

/// An error in the error envelope, with the headers its status calls for (`Allow`,
/// `Retry-After`, `WWW-Authenticate`).
/// `page`: the base path, when the error answers a page of the explorer, which a person reads
/// as a page rather than an envelope.
pub fn error_response(
    envelope: &Envelope<'_>,
    err: &ApiError,
    gzip: bool,
    page: Option<&str>,
) -> Response<Body> {
    if let ApiError::Internal(cause) = err {
        tracing::error!(
            request_id = envelope.request_id,
            error = format!("{cause:#}"),
            "internal error"
        );
    }
    let status = StatusCode::from_u16(err.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let (body, content_type) = match page {
        None => (Bytes::from(error_body(envelope, err)), "application/json"),
        Some(base_path) => (
            crate::pages::error_page(
                base_path,
                err.status(),
                err.code(),
                &crate::auth::api_key::redact(&err.to_string()),
                envelope.request_id,
            ),
            "text/html; charset=utf-8",
        ),
    };
    let mut response = build(status, Body::from_chunks([body]), content_type, gzip);
    let headers = response.headers_mut();
    match err {
        ApiError::MethodNotAllowed { allow, .. } => {
            if let Ok(v) = HeaderValue::from_str(allow) {
                headers.insert(header::ALLOW, v);
            }
        }
        ApiError::Unavailable => {
            headers.insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        }
        ApiError::RateLimited { retry_after, .. } => {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(*retry_after));
        }
        // RFC 6750 §3: no error attribute when no credential was sent.
        ApiError::MissingCredential => {
            headers.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"regintel\""),
            );
        }
        err if err.is_refused_credential() => {
            headers.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"regintel\", error=\"invalid_token\""),
            );
        }
        _ => {}
    }
    no_store(&mut response);
    response
}

/// CORS preflight: which methods and request headers the API takes, cached by the
/// browser for two hours (Chromium's cap on `Access-Control-Max-Age`).
pub fn preflight(allow: &str) -> Response<Body> {
    let mut response = Response::new(Body::default());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(allow) {
        headers.insert(header::ALLOW, v.clone());
        headers.insert(header::ACCESS_CONTROL_ALLOW_METHODS, v);
    }
    headers.insert(
        header::ACCESS_CONTROL_ALLOW_HEADERS,
        HeaderValue::from_static(
            "Authorization, Content-Type, X-API-Key, X-Request-Id, If-None-Match",
        ),
    );
    headers.insert(
        header::ACCESS_CONTROL_MAX_AGE,
        HeaderValue::from_static("7200"),
    );
    response
}

/// Marks an answer as not to be stored by any cache (errors, and answers that vary by caller
/// in ways no `Vary` header can name).
pub fn no_store(response: &mut Response<Body>) {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
}

#[cfg(test)]
mod tests {
    use http_body::Body as _;

    use super::*;

    const E: Envelope<'static> = Envelope {
        request_id: "req_1",
        generated_at: "2026-01-01T00:00:00Z",
        access: "public",
    };

    #[test]
    fn envelope_is_valid_json_with_meta_members_merged() {
        let body = envelope(
            &E,
            &Bytes::from_static(br#"{"a":1}"#),
            &Bytes::from_static(br#"{"citations":{"cit_x":{}}}"#),
        );
        let v: serde_json::Value = serde_json::from_slice(&body.concat()).unwrap();
        assert_eq!(v["data"]["a"], 1);
        assert_eq!(v["meta"]["request_id"], "req_1");
        assert_eq!(v["meta"]["api_version"], "v1");
        assert!(v["meta"]["citations"]["cit_x"].is_object());
        let empty = envelope(&E, &Bytes::from_static(b"[]"), &Bytes::from_static(b"{}"));
        assert_eq!(empty.size_hint().exact(), Some(empty.concat().len() as u64));
        let v: serde_json::Value = serde_json::from_slice(&empty.concat()).unwrap();
        assert_eq!(v["meta"]["access"], "public");
    }

    #[test]
    fn errors_carry_rfc9457_members_and_no_internals() {
        let err = ApiError::Internal(anyhow::anyhow!("SELECT secret FROM x"));
        let body = String::from_utf8(error_body(&E, &err)).unwrap();
        assert!(!body.contains("SELECT"), "{body}");
        let v: serde_json::Value = serde_json::from_str(&body).unwrap();
        assert_eq!(v["data"], serde_json::Value::Null);
        assert_eq!(v["error"]["status"], 500);
        assert_eq!(v["error"]["code"], "internal");
        assert_eq!(v["error"]["request_id"], "req_1");
    }

    #[test]
    fn errors_never_echo_an_api_key() {
        let key = "sk_service_Ab3dE5gHk7Q2mZp9LwX4vB8nR1tY6cJ3hF0sD5gA1GYRVj";
        let err = ApiError::from(crate::domain::Rejection::UnknownRegion {
            code: key.into(),
            suggestions: Vec::new(),
        });
        let body = String::from_utf8(error_body(&E, &err)).unwrap();
        assert!(!body.contains("k7Q2mZp9"), "{body}");
        assert!(body.contains("sk_service_Ab3dE5gH"), "{body}");
    }

    #[test]
    fn gzip_negotiation_honours_q_values() {
        let mut h = HeaderMap::new();
        assert!(!accepts_gzip(&h));
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("br, gzip;q=0.5"),
        );
        assert!(accepts_gzip(&h));
        h.insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip;q=0, br"),
        );
        assert!(!accepts_gzip(&h));
        h.insert(header::ACCEPT_ENCODING, HeaderValue::from_static("*"));
        assert!(accepts_gzip(&h));
    }
}
