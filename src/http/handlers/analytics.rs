//! The analytics endpoints of the specification (briefings, bulk export, correlation matrix).
//! Gating is done by the route table; bulk export answers in full; briefings and correlations
//! validate their input and answer 501 until the analytics release computes them.

use std::sync::{Arc, Mutex};

use serde::Deserialize;
use tokio::sync::mpsc;

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

/// Streams the dataset as CSV: the rows are read and written by a blocking task in chunks while
/// the response is being sent, so memory stays at a few chunks whatever the dataset's size. At
/// most [`crate::state::MAX_EXPORTS`] run at once (each holds a database connection); more
/// answer 503 with `Retry-After`.
pub fn export(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let code = req.param("dataset").to_owned();
    let store = req.store()?;
    let dataset = store
        .dataset(&code)?
        .ok_or_else(|| ApiError::UnknownDataset(code.clone()))?;
    let permit = Arc::clone(&req.state.exports)
        .try_acquire_owned()
        .map_err(|_| ApiError::Unavailable)?;
    let (tx, rx) = mpsc::channel(8);
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        let sent = crate::domain::export::write_csv(&store, &dataset, |chunk| {
            tx.blocking_send(Ok(chunk.into())).is_ok()
        });
        if let Err(e) = sent {
            tracing::error!(dataset = %dataset.code, error = %e, "export failed mid-stream");
            let _ = tx.blocking_send(Err(std::io::Error::other("export failed")));
        }
    });
    Ok(Reply::Stream {
        content_type: "text/csv; charset=utf-8",
        chunks: Mutex::new(Some(rx)),
    })
}
