//! What the pipeline's answering stage hands to its ending: a finished response (304, a CORS
//! preflight, the metrics scrape) or a reply to render into the envelope.

use std::sync::Arc;

use http::Response;

use super::envelope::Body;
use crate::reply::Reply;

pub enum Answer {
    Ready(Response<Body>),
    Reply {
        reply: Arc<Reply>,
        /// ETag of a cacheable answer.
        etag: Option<String>,
        secret: bool,
    },
}
