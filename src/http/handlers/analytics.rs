//! The analytics endpoints of the specification (briefings, bulk export, correlation matrix).
//! Gating is done by the route table; bulk export answers in full; briefings and correlations
//! validate their input and answer 501 until the analytics release computes them.

use serde::Deserialize;

use super::Req;
use crate::domain::regions;
use crate::error::{ApiError, FieldError};
use crate::reply::Reply;

pub const BRIEFING_TYPES: &[&str] = &[
    "profile_summary",
    "economy",
    "labour_market",
    "demography",
    "health",
    "peer_comparison",
];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BriefingRequest {
    region_nuts_code: String,
    briefing_type: String,
}

pub fn briefing(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let body: BriefingRequest = req.json_body()?;
    if !BRIEFING_TYPES.contains(&body.briefing_type.as_str()) {
        return Err(ApiError::ValidationFailed {
            errors: vec![FieldError {
                pointer: "#/briefing_type".into(),
                detail: format!("briefing_type must be one of {}", BRIEFING_TYPES.join(", ")),
            }],
        });
    }
    regions::find(&req.store()?, &body.region_nuts_code)?;
    Err(ApiError::NotImplemented(
        "briefings arrive with the analytics release; the request was valid".into(),
    ))
}

pub fn correlations(req: &mut Req) -> Result<Reply, ApiError> {
    let code = req.query.require("nuts_code")?;
    req.no_more_params()?;
    regions::find(&req.store()?, &code)?;
    Err(ApiError::NotImplemented(
        "correlation matrices arrive with the analytics release; the request was valid".into(),
    ))
}

/// Runs on the blocking pool: a whole dataset is written as CSV.
pub fn export(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let code = req.param("dataset").to_owned();
    let store = req.store()?;
    let dataset = store
        .dataset(&code)?
        .ok_or_else(|| ApiError::UnknownDataset(code.clone()))?;
    let csv = crate::domain::export::dataset_csv(&store, &dataset)?;
    Ok(Reply::Raw {
        content_type: "text/csv; charset=utf-8",
        body: csv.into(),
    })
}
