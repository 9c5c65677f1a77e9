//! `GET /citations/{citation_id}` and `GET /citations/{citation_id}/revisions`.

use super::{Req, cited};
use crate::domain::citations::{self, Citation};
use crate::domain::{Citer, Sources};
use crate::http::error::ApiError;
use crate::http::paging::PageRequest;
use crate::reply::Reply;

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.read_as_of()?;
    req.no_more_params()?;
    let id = req.param("citation_id");
    let store = req.store()?;
    let found = match citations::find(store, &req.state.catalogue, id)? {
        Citation::Row(found) => found,
        Citation::Classification(detail) => return cited(&detail, Sources::default()),
        Citation::Snapshot(detail) => {
            let mut citer = Citer::new(store, &req.state.catalogue);
            citer.snapshot_named(&detail.snapshot.id);
            return cited(&detail, citer.sources);
        }
    };
    /// `meta`: the one snapshot the row is from (a struct, not a `json!` tree built per answer).
    #[derive(serde::Serialize)]
    struct Meta<'a> {
        snapshots: [&'a str; 1],
    }
    let meta = Meta {
        snapshots: [&found.snapshot().public_id],
    };
    let data = crate::json_text::written_by(|out| found.detail().write_json(out));
    let meta = crate::json_text::to_vec(&meta).map_err(|e| ApiError::Internal(e.into()))?;
    Ok(Reply::text(data, meta))
}

/// Revisions listed per page by default, and at most: an observation has one per revision.
const REVISIONS_PER_PAGE: usize = 100;
const MOST_REVISIONS_PER_PAGE: usize = 1000;

/// Every value the observation of a citation has had, in order of time, a page at a time.
pub fn revisions(req: &mut Req) -> Result<Reply, ApiError> {
    let page = PageRequest::take(&mut req.query, REVISIONS_PER_PAGE, MOST_REVISIONS_PER_PAGE)?;
    req.no_more_params()?;
    let id = req.param("citation_id");
    let all = crate::domain::revisions::list(req.store()?, &req.state.catalogue, id)?;
    let total = all.len();
    let (items, next) = page.page_in_memory(all, |r| r.id.clone());
    super::json(&items, &page.meta(next, Some(total)))
}
