//! The analytics endpoints of the specification (briefings, bulk export, correlation matrix).
//! Gating is done by the route table; bulk export answers in full; briefings and correlations
//! validate their input and answer 501 until the analytics release computes them.

use std::sync::Mutex;

use serde::Deserialize;
use tokio::sync::mpsc;

use super::Req;
use crate::domain::regions;
use crate::error::{ApiError, FieldError};
use crate::reply::{Reply, StreamChunk};

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
    regions::find(req.store()?, &body.region_nuts_code)?;
    Err(ApiError::NotImplemented(
        "briefings arrive with the analytics release; the request was valid".into(),
    ))
}

pub fn correlations(req: &mut Req) -> Result<Reply, ApiError> {
    let code = req.query.require("nuts_code")?;
    req.no_more_params()?;
    regions::find(req.store()?, &code)?;
    Err(ApiError::NotImplemented(
        "correlation matrices arrive with the analytics release; the request was valid".into(),
    ))
}

/// Streams the dataset as CSV: the rows are read and written by a blocking task in chunks while
/// the response is being sent, so memory stays at a few chunks whatever the dataset's size. Each
/// export holds a slot (one per account, `--max-exports` in all; see [`super::slot_refused`]), a
/// database connection and its read transaction; a chunk the client does not take within
/// `--send-timeout` ends the export and frees all three.
pub fn export(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let code = req.param("dataset").to_owned();
    let account = req.caller()?.account_id;
    let dataset = req
        .store()?
        .dataset(&code)?
        .ok_or_else(|| ApiError::UnknownDataset(code.clone()))?;
    let slot = req
        .state
        .exports
        .try_take(account)
        .map_err(|refused| super::slot_refused(refused, "account-exports"))?;
    let store = req.take_store()?;
    let deadline = req.state.config.send_timeout;
    let runtime = tokio::runtime::Handle::current();
    let (tx, rx) = mpsc::channel(8);
    tokio::task::spawn_blocking(move || {
        let send = |chunk| {
            runtime
                .block_on(tokio::time::timeout(deadline, tx.send(chunk)))
                .is_ok_and(|sent| sent.is_ok())
        };
        let written = crate::domain::export::write_csv(&store, &dataset, |chunk| {
            send(StreamChunk::Data(chunk.into()))
        });
        // Free the connection and the slot before the client can see the end, so its next
        // export finds them free.
        drop((store, slot));
        match written {
            Ok(true) => {
                send(StreamChunk::End);
            }
            Ok(false) => tracing::info!(
                dataset = %dataset.code,
                "export stopped: the client left or stopped reading"
            ),
            // Ending without `End` aborts the response.
            Err(e) => {
                tracing::error!(dataset = %dataset.code, error = %e, "export failed mid-stream")
            }
        }
    });
    Ok(Reply::Stream {
        content_type: "text/csv; charset=utf-8",
        chunks: Mutex::new(Some(rx)),
    })
}
