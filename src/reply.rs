//! A rendered answer, before the per-request parts (request id, time, headers) are added. Kept
//! separate from HTTP types so the response cache can hold it.

use std::sync::Mutex;

use hyper::body::Bytes;
use serde::Serialize;
use tokio::sync::mpsc;

pub enum Reply {
    /// The `data` member and extra `meta` members (a JSON object) of an envelope.
    Json {
        status: u16,
        data: Bytes,
        meta: Bytes,
    },
    /// A document served as is (the OpenAPI description).
    Raw {
        content_type: &'static str,
        body: Bytes,
    },
    /// 204: done, nothing to say (a revocation, a logout).
    NoContent,
    /// Another reply that also sets cookies (`Set-Cookie` values): the browser's session.
    /// Never cached.
    WithCookies {
        reply: Box<Reply>,
        cookies: Vec<String>,
    },
    /// A document produced while it is sent (bulk CSV export): chunks arrive on the channel.
    /// Taken once, when the response is built; stream replies are never cached.
    Stream {
        content_type: &'static str,
        /// The chunks are gzip-coded (`Content-Encoding: gzip`).
        gzip: bool,
        /// Offered to save as (`Content-Disposition: attachment`).
        file_name: Option<String>,
        chunks: Mutex<Option<mpsc::Receiver<StreamChunk>>>,
    },
}

/// What the producer of a [`Reply::Stream`] sends: data, then `End` once all of it was sent. A
/// channel that closes without `End` (the producer failed, or gave up on a client that stopped
/// reading) aborts the response, so a client never takes a truncated body for a whole one.
pub enum StreamChunk {
    Data(Bytes),
    End,
}

impl Reply {
    /// Serialises `data` and `meta` (which must serialise to a JSON object).
    pub fn json<D: Serialize, M: Serialize>(
        data: &D,
        meta: &M,
    ) -> Result<Reply, serde_json::Error> {
        Ok(Reply::text(
            crate::json_text::to_vec(data)?,
            crate::json_text::to_vec(meta)?,
        ))
    }

    /// `data` and `meta` already written as JSON text.
    pub fn text(data: Vec<u8>, meta: Vec<u8>) -> Reply {
        Reply::Json {
            status: 200,
            data: Bytes::from(data),
            meta: Bytes::from(meta),
        }
    }

    /// The same reply with `name` (its value `value`, JSON text) added to its `meta`; other
    /// replies have no `meta` and stay as they are.
    pub fn with_meta_member(self, name: &str, value: &[u8]) -> Reply {
        match self {
            Reply::Json { status, data, meta } => {
                let mut out = Vec::with_capacity(meta.len() + name.len() + value.len() + 8);
                out.extend_from_slice(meta.strip_suffix(b"}").unwrap_or(b"{"));
                if out.len() > 1 {
                    out.push(b',');
                }
                crate::json_text::push_str(&mut out, name);
                out.push(b':');
                out.extend_from_slice(value);
                out.push(b'}');
                Reply::Json {
                    status,
                    data,
                    meta: Bytes::from(out),
                }
            }
            Reply::WithCookies { reply, cookies } => Reply::WithCookies {
                reply: Box::new(reply.with_meta_member(name, value)),
                cookies,
            },
            other => other,
        }
    }

    /// The same reply with another status (201 for a created object).
    pub fn with_status(self, new: u16) -> Reply {
        match self {
            Reply::Json { data, meta, .. } => Reply::Json {
                status: new,
                data,
                meta,
            },
            other => other,
        }
    }

    pub fn size(&self) -> usize {
        match self {
            Reply::Json { data, meta, .. } => data.len() + meta.len(),
            Reply::Raw { body, .. } => body.len(),
            Reply::WithCookies { reply, .. } => reply.size(),
            Reply::NoContent | Reply::Stream { .. } => 0,
        }
    }
}
