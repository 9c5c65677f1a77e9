//! `GET /citations/{citation_id}`.

use serde_json::json;

use super::{Req, json};
use crate::domain::citations;
use crate::http::error::ApiError;
use crate::reply::Reply;

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let id = req.param("citation_id");
    let citation = citations::detail(req.store()?, &req.state.catalogue, id)?;
    let snapshots = [citation.snapshot.public_id.clone()];
    json(&citation, &json!({ "snapshots": snapshots }))
}
