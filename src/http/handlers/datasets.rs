//! `GET /datasets`, `GET /datasets/{dataset_code}`, `GET /datasets/{dataset_code}/snapshots`:
//! each cites the snapshots it describes; `GET /datasets/{dataset_code}/changes`: the rows its
//! snapshots wrote.

use super::{Req, cited, cited_page, json};
use crate::domain::{Citer, datasets};
use crate::http::error::ApiError;
use crate::http::paging::PageRequest;
use crate::reply::Reply;

/// Datasets in a page of the list at most, and by default (the bundled data has 13).
const DATASETS_PER_PAGE: usize = 100;

pub fn list(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    let page = PageRequest::take(&mut req.query, DATASETS_PER_PAGE, DATASETS_PER_PAGE)?;
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let mut next = None;
    let (datasets, total) = datasets::list(store, &mut citer, |all| {
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
    cited_page(&datasets, citer.sources, &page.meta(next, Some(total)))
}

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let dataset = datasets::detail(store, &mut citer, req.param("dataset_code"))?;
    cited(&dataset, citer.sources)
}

/// Snapshots in a page of the list by default, and at most.
const SNAPSHOTS_PER_PAGE: usize = 20;
const MOST_SNAPSHOTS_PER_PAGE: usize = 200;

/// A dataset's snapshots, newest first.
pub fn snapshots(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    let page = PageRequest::take(&mut req.query, SNAPSHOTS_PER_PAGE, MOST_SNAPSHOTS_PER_PAGE)?;
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let code = req.param("dataset_code");
    let (mut rows, total) = datasets::snapshots(
        store,
        &mut citer,
        code,
        page.cursor.as_deref(),
        page.limit + 1,
    )?;
    let next = page.trim_to_limit(&mut rows, |s| s.snapshot.id.clone());
    cited_page(&rows, citer.sources, &page.meta(next, Some(total)))
}

/// Changes in a page of the list by default, and at most.
const CHANGES_PER_PAGE: usize = 100;
const MOST_CHANGES_PER_PAGE: usize = 1000;

/// Every row the dataset's snapshots after `since_snapshot` wrote (all its snapshots without
/// it), in import order (as of a moment, up to the snapshot read then); the many an import can
/// write make it a list without a total.
pub fn changes(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    let since = req.query.take("since_snapshot");
    let page = PageRequest::take(&mut req.query, CHANGES_PER_PAGE, MOST_CHANGES_PER_PAGE)?;
    req.no_more_params()?;
    let store = req.store()?;
    let code = req.param("dataset_code");
    let dataset = datasets::dataset(store, code)?;
    let since = match since {
        None => 0,
        Some(snapshot) => store.snapshot_of(dataset.id, &snapshot)?.ok_or_else(|| {
            ApiError::invalid(
                "since_snapshot",
                format!(
                    "since_snapshot must be one of the snapshots of {} (see GET /datasets/{}){}",
                    crate::error_text::shown(code),
                    crate::error_text::shown(code),
                    match store.as_of() {
                        Some(_) => ", as of the moment read: one it had then",
                        None => "",
                    }
                ),
            )
        })?,
    };
    let mut rows = store.changes(dataset.id, since, page.cursor.as_deref(), page.limit + 1)?;
    let next = page.trim_to_limit(&mut rows, |c| c.change.citation_id.clone());
    json(&rows, &page.meta(next, None))
}
