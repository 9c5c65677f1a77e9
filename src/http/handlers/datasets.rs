//! `GET /datasets`, `GET /datasets/{dataset_code}`: each cites the snapshots it describes.

use serde_json::json;

use super::{Req, cited};
use crate::domain::{Citer, catalog};
use crate::http::error::ApiError;
use crate::reply::Reply;

pub fn list(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let datasets = catalog::list(store, &mut citer)?;
    let data = crate::json_text::to_vec(&datasets).map_err(|e| ApiError::Internal(e.into()))?;
    let meta = json!({ "total": datasets.len() });
    Ok(Reply::text(data, citer.sources.to_json_with(&meta)))
}

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let store = req.store()?;
    let mut citer = Citer::new(store, &req.state.catalogue);
    let dataset = catalog::detail(store, &mut citer, req.param("dataset_code"))?;
    cited(&dataset, citer.sources)
}
