//! `GET /datasets`, `GET /datasets/{dataset_code}`.

use serde_json::json;

use super::{Req, json};
use crate::domain::catalog;
use crate::http::error::ApiError;
use crate::reply::Reply;

pub fn list(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let datasets = catalog::list(req.store()?)?;
    json(&datasets, &json!({ "total": datasets.len() }))
}

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let dataset = catalog::detail(req.store()?, req.param("dataset_code"))?;
    json(&dataset, &json!({}))
}
