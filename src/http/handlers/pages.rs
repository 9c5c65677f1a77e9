//! The pages at the root of the host and their assets: bytes rendered at start, served as they
//! are (see `crate::pages`).

use hyper::body::Bytes;

use super::Req;
use crate::http::error::ApiError;
use crate::pages::{ICON, SCRIPT, STYLE};
use crate::reply::Reply;

const HTML: &str = "text/html; charset=utf-8";

fn serve(req: &mut Req, content_type: &'static str, body: Bytes) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    Ok(Reply::Raw { content_type, body })
}

/// A handler serving one of the rendered pages of [`crate::pages::Pages`].
macro_rules! page {
    ($($name:ident),+) => {$(
        pub fn $name(req: &mut Req) -> Result<Reply, ApiError> {
            let page = req.state.pages.$name.clone();
            serve(req, HTML, page)
        }
    )+};
}

page!(home, login, api_keys, webhooks, usage, docs);

pub fn script(req: &mut Req) -> Result<Reply, ApiError> {
    serve(
        req,
        "text/javascript; charset=utf-8",
        Bytes::from_static(SCRIPT),
    )
}

pub fn style(req: &mut Req) -> Result<Reply, ApiError> {
    serve(req, "text/css; charset=utf-8", Bytes::from_static(STYLE))
}

pub fn icon(req: &mut Req) -> Result<Reply, ApiError> {
    serve(req, "image/svg+xml", Bytes::from_static(ICON))
}
