//! `GET /datasets`, `GET /datasets/{dataset_code}`: each cites the snapshots it describes.

use super::{Req, cited};
use crate::domain::{Citer, catalog};
use crate::http::error::ApiError;
use crate::http::paging::PageRequest;
use crate::reply::Reply;

/// Datasets in a page of the list at most, and by default (the bundled data has 13).
const DATASETS_PER_PAGE: usize = 100;

pub fn list(req: &mut Req) -> Result<Reply, ApiError> {
    let page = PageRequest::take(&mut req.query, DATASETS_PER_PAGE, DATASETS_PER_PAGE)?;
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let mut next = None;
    let (datasets, total) = catalog::list(store, &mut citer, |all| {
        // Public datasets first, then the caller's own, each by code: a code may be both.
        let (rows, after) = page.page_in_memory(all, |d| {
            if d.private {
                format!("own:{}", d.code)
            } else {
                d.code.clone()
            }
        });
        next = after;
        rows
    })?;
    let data = crate::json_text::to_vec(&datasets).map_err(|e| ApiError::Internal(e.into()))?;
    let meta = page.meta(next, Some(total));
    Ok(Reply::text(data, citer.sources.to_json_with(&meta)))
}

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let dataset = catalog::detail(store, &mut citer, req.param("dataset_code"))?;
    cited(&dataset, citer.sources)
}
