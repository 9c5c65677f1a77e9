//! `GET /citations/{citation_id}`.

use super::{Req, cited};
use crate::domain::citations::{self, Citation};
use crate::domain::{Citer, Sources};
use crate::http::error::ApiError;
use crate::reply::Reply;

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
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
