//! `POST /briefings`, `GET /briefings/{briefing_id}` and `GET /briefings`: an account's briefings.

use serde::Deserialize;

use super::{Req, json};
use crate::domain::{Rejection, briefings};
use crate::http::error::ApiError;
use crate::reply::Reply;
use crate::store::briefings::BriefingRow;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BriefingRequest {
    region_nuts_code: String,
    briefing_type: String,
}

/// Writes, verifies and stores a briefing; on the blocking pool, as it reads many rows and
/// writes one.
pub fn create(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let body: BriefingRequest = req.json_body()?;
    let account = req.caller()?.account_id;
    let now = crate::clock::now_ms();
    let (briefing, sources) = briefings::generate(
        req.store()?,
        &req.state.catalogue,
        &body.region_nuts_code,
        &body.briefing_type,
        crate::ids::briefing_id(),
        crate::clock::rfc3339(now),
    )?;
    let row = BriefingRow {
        public_id: briefing.id.clone(),
        region_code: briefing.region.code.clone(),
        briefing_type: briefing.briefing_type.clone(),
        created_at: now,
        body_json: serde_json::to_string(&briefing).map_err(|e| ApiError::Internal(e.into()))?,
    };
    req.state.store.system()?.insert_briefing(account, &row)?;
    Ok(json(&briefing, &sources)?.with_status(201))
}

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let id = req.param("briefing_id").to_owned();
    let store = req.store()?;
    let row = store
        .briefing(&id)?
        .ok_or_else(|| Rejection::NotFound(format!("no briefing {}", crate::error::shown(&id))))?;
    let (briefing, sources) = briefings::stored(store, &row)?;
    json(&briefing, &sources)
}

/// Briefings in a page of the list at most.
const PAGE: i64 = 100;

pub fn list(req: &mut Req) -> Result<Reply, ApiError> {
    let limit = req.query.take_int("limit", 1, PAGE)?.unwrap_or(PAGE);
    let before = req.query.take("before");
    req.no_more_params()?;
    let rows = req.store()?.briefings(before.as_deref(), limit as usize)?;
    let list = rows
        .iter()
        .map(briefings::summary)
        .collect::<Result<Vec<_>, _>>()?;
    json(&list, &serde_json::json!({}))
}
