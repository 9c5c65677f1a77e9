//! Conditional requests and the answer cache: a weak ETag per answer, `If-None-Match` → 304
//! (RFC 9110 §13.1.2), cached replies per data generation, and the `Cache-Control` every answer
//! carries.

use std::sync::Arc;

use http::header::{self, HeaderValue};
use http::request::Parts;
use http::{Response, StatusCode};

use super::envelope::Body;
use super::query::Query;
use crate::cache::AnswerGenerations;
use crate::reply::Reply;
use crate::state::AppState;

/// Where a cacheable answer lives in the cache, and its ETag.
pub struct Cached {
    generations: AnswerGenerations,
    key: String,
    pub etag: String,
    /// Where it lives, and its strong ETag, if it is an answer as of a past moment that can no
    /// longer change (see [`Cached::store_final`]).
    final_entry: Option<(String, String)>,
}

/// The generations of answers that never change: no import makes them stale.
const FINAL: AnswerGenerations = (-1, -1);

/// What the cache could answer before the handler runs.
pub enum Hit {
    /// The client's copy is current.
    NotModified(Response<Body>),
    Reply(Arc<Reply>),
    /// An answer that can no longer change, with its strong ETag.
    Final(Arc<Reply>, String),
}

/// Whether the answer to `query` may be one that never changes: read as of a moment on the
/// basis of imports here (a later fetch may record an earlier publication).
fn may_be_final(query: &Query) -> bool {
    query.has("as_of") && query.get("as_of_basis").is_none_or(|b| b == "imported")
}

/// The strong ETag of a final answer: the release (whose region names it shows) and its key.
fn final_etag(key: &str) -> String {
    let hash = fnv1a(key.as_bytes());
    format!("\"{}-{hash:016x}\"", env!("CARGO_PKG_VERSION"))
}

impl Cached {
    /// The cache entry of an answer for `account` that depends on the data, the path and the
    /// (canonical) query only.
    pub fn entry(state: &AppState, account: Option<i64>, path: &str, query: &Query) -> Cached {
        let generations = state.generation_of(account);
        let canonical = query.canonical();
        let mut key = String::with_capacity(24 + path.len() + canonical.len());
        key.push_str(itoa::Buffer::new().format(account.unwrap_or(0)));
        key.push('|');
        key.push_str(path);
        key.push('?');
        key.push_str(&canonical);
        let etag = etag(generations, &key);
        let final_entry = may_be_final(query).then(|| {
            let key = ["final|", &key].concat();
            let etag = final_etag(&key);
            (key, etag)
        });
        Cached {
            generations,
            key,
            etag,
            final_entry,
        }
    }

    /// A 304 when the client holds this answer, else the cached reply if there is one. `page`:
    /// the answer is an explorer page (see [`cache_headers`]).
    pub fn lookup(
        &self,
        state: &AppState,
        parts: &Parts,
        private: bool,
        page: bool,
    ) -> Option<Hit> {
        // A final ETag is only ever given to an answer that can no longer change.
        let final_etag = self.final_entry.as_ref().map(|(_, etag)| etag);
        for etag in final_etag.into_iter().chain([&self.etag]) {
            if if_none_match(parts, etag) {
                let mut response = Response::new(Body::default());
                *response.status_mut() = StatusCode::NOT_MODIFIED;
                cache_headers(&mut response, etag, private, page);
                return Some(Hit::NotModified(response));
            }
        }
        if let Some((key, etag)) = &self.final_entry
            && let Some(reply) = state.cache.get(key, FINAL)
        {
            return Some(Hit::Final(reply, etag.clone()));
        }
        state.cache.get(&self.key, self.generations).map(Hit::Reply)
    }

    /// [`Cached::store`] for an answer as of a past moment that can no longer change: kept
    /// whatever is imported later, under a strong ETag. None if the request could not be one.
    pub fn store_final(self, state: &AppState, reply: &Arc<Reply>) -> Option<String> {
        let (key, etag) = self.final_entry?;
        if matches!(**reply, Reply::Stream { .. } | Reply::WithCookies { .. }) {
            return None;
        }
        state.cache.put(key, FINAL, Arc::clone(reply));
        Some(etag)
    }

    /// Keeps `reply` for the next caller and returns its ETag; a streamed reply can be sent once
    /// only, and cookies are one caller's: neither is kept nor tagged.
    pub fn store(self, state: &AppState, reply: &Arc<Reply>) -> Option<String> {
        if matches!(**reply, Reply::Stream { .. } | Reply::WithCookies { .. }) {
            return None;
        }
        state
            .cache
            .put(self.key, self.generations, Arc::clone(reply));
        Some(self.etag)
    }
}

/// A weak ETag for an answer that depends on `generations` and the request `key` (which holds
/// the caller's account): it changes when the caller's data changes, and only then.
fn etag(generations: AnswerGenerations, key: &str) -> String {
    let (public, own) = generations;
    let hash = fnv1a(key.as_bytes());
    // `W/"g{public}-{hash:016x}"` or `W/"g{public}.{own}-{hash:016x}"`, written without
    // `format!`, whose machinery cost more than the rest of the lookup.
    let mut etag = String::with_capacity(48);
    etag.push_str("W/\"g");
    etag.push_str(itoa::Buffer::new().format(public));
    if own != 0 {
        etag.push('.');
        etag.push_str(itoa::Buffer::new().format(own));
    }
    etag.push('-');
    for shift in (0..16).rev() {
        etag.push(char::from(
            b"0123456789abcdef"[(hash >> (4 * shift)) as usize & 15],
        ));
    }
    etag.push('"');
    etag
}

/// Weak comparison (RFC 9110 §13.1.2): any listed tag equal to ours. (`*` is not honoured: it
/// would have to mean "the resource exists", which is only known after the handler ran.)
fn if_none_match(parts: &Parts, etag: &str) -> bool {
    parts
        .headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .any(|tag| tag.trim_start_matches("W/") == etag.trim_start_matches("W/"))
}

/// Public answers may be cached by anyone; keyed ones only by the client, and a response to an
/// `X-API-Key` request is not protected by RFC 9111 §3.5, hence `private`. An explorer page
/// (`page`) also depends on the session cookie, which a shared cache must key it by.
pub fn cache_headers(response: &mut Response<Body>, etag: &str, private: bool, page: bool) {
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(etag) {
        headers.insert(header::ETAG, v);
    }
    const PRIVATE: HeaderValue = HeaderValue::from_static("private, no-cache");
    const PUBLIC: HeaderValue = HeaderValue::from_static("public, max-age=300");
    // A final answer (the only kind given a strong ETag) never changes: a year, long enough to
    // mean "never" to any cache, and `immutable` (RFC 8246) so that none asks again.
    const PRIVATE_FINAL: HeaderValue =
        HeaderValue::from_static("private, max-age=31536000, immutable");
    const PUBLIC_FINAL: HeaderValue =
        HeaderValue::from_static("public, max-age=31536000, immutable");
    let is_final = !etag.starts_with("W/");
    const VARY: HeaderValue = HeaderValue::from_static("Authorization, X-API-Key, Accept-Encoding");
    const PAGE_VARY: HeaderValue =
        HeaderValue::from_static("Authorization, X-API-Key, Cookie, Accept-Encoding");
    headers.insert(
        header::CACHE_CONTROL,
        match (private, is_final) {
            (true, false) => PRIVATE,
            (false, false) => PUBLIC,
            (true, true) => PRIVATE_FINAL,
            (false, true) => PUBLIC_FINAL,
        },
    );
    headers.insert(header::VARY, if page { PAGE_VARY } else { VARY });
}

/// FNV-1a: a fast, stable hash for ETags (not a security boundary).
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ETag reads as `format!` would write it, with and without the caller's own generation.
    #[test]
    fn etags_are_written_as_format_writes_them() {
        for (public, own, key) in [(0, 0, ""), (7, 0, "0|/x?a=1"), (123_456, 42, "5|/y?")] {
            let hash = fnv1a(key.as_bytes());
            let expected = if own == 0 {
                format!("W/\"g{public}-{hash:016x}\"")
            } else {
                format!("W/\"g{public}.{own}-{hash:016x}\"")
            };
            assert_eq!(etag((public, own), key), expected);
        }
    }
}
