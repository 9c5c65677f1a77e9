//! `POST /briefings`, `GET /briefings/{briefing_id}` and `GET /briefings`: an account's briefings.

use serde::Deserialize;

use super::{Req, cited, json};
use crate::domain::briefings::ProseModel;
use crate::domain::{Rejection, briefings};
use crate::http::error::ApiError;
use crate::http::paging::PageRequest;
use crate::llm::ChatModel;
use crate::reply::Reply;
use crate::store::briefings::BriefingRow;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BriefingRequest {
    region_nuts_code: String,
    briefing_type: String,
    /// Written from the data as of this moment (see `AsOf::parse`).
    as_of: Option<String>,
    as_of_basis: Option<String>,
}

/// Writes, verifies and stores a briefing; on the blocking pool, as it reads many rows, may wait
/// for the model server (up to `--llm-timeout`) and writes one row.
pub fn create(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let body: BriefingRequest = req.json_body()?;
    let account = req.caller()?.account_id;
    let now = crate::runtime::clock::now_ms();
    let as_of =
        crate::store::as_of::AsOf::parse(body.as_of.as_deref(), body.as_of_basis.as_deref(), now)
            .map_err(|(field, message)| Rejection::invalid_at(format!("#/{field}"), message))?;
    let store = req.store()?;
    store.check_briefing_room()?;
    store.read_as_of(as_of);
    // The model server, when one is configured, is asked from this blocking thread, under a
    // model slot; without a free slot the writer's own text stands.
    let model = req.state.config.llm.clone().map(|config| {
        let runtime = tokio::runtime::Handle::current();
        ChatModel::new(config, runtime, req.state.model_calls.clone(), account)
    });
    let (briefing, sources) = briefings::generate(
        store,
        &req.state.catalogue,
        &body.region_nuts_code,
        &body.briefing_type,
        model.as_ref().map(|m| m as &dyn ProseModel),
        crate::ids::briefing_id(),
        crate::runtime::clock::rfc3339(now),
    )?;
    let row = BriefingRow {
        public_id: briefing.id.clone(),
        region_code: briefing.region.code.clone(),
        briefing_type: briefing.briefing_type.clone(),
        title: briefing.title.clone(),
        created_at: now,
        body_json: serde_json::to_string(&briefing).map_err(|e| ApiError::Internal(e.into()))?,
    };
    req.state.store.system()?.insert_briefing(account, &row)?;
    // The answer's `data` is the stored text, serialised once.
    Ok(Reply::text(row.body_json.into_bytes(), sources.to_json()).with_status(201))
}

pub fn get(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let id = req.param("briefing_id").to_owned();
    let store = req.store()?;
    let row = store.briefing(&id)?.ok_or_else(|| {
        Rejection::NotFound(format!("no briefing {}", crate::error_text::shown(&id)))
    })?;
    let (briefing, sources) = briefings::stored(store, &req.state.catalogue, &row)?;
    cited(&briefing, sources)
}

/// Briefings in a page of the list at most, and by default.
const PAGE: usize = 100;

pub fn list(req: &mut Req) -> Result<Reply, ApiError> {
    let page = PageRequest::take(&mut req.query, PAGE, PAGE)?;
    req.no_more_params()?;
    let store = req.store()?;
    let mut rows = store.briefings(page.cursor.as_deref(), page.limit + 1)?;
    let next = page.trim_to_limit(&mut rows, |b| b.public_id.clone());
    let list: Vec<_> = rows.iter().map(briefings::summary).collect();
    json(&list, &page.meta(next, Some(store.briefing_count()?)))
}
