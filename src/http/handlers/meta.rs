//! Operational routes: `/healthz`, `/readyz`, and the OpenAPI document.

use serde_json::json;

use super::{Req, json};
use crate::http::error::ApiError;
use crate::reply::Reply;

pub fn healthz(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    json(&json!({ "status": "ok" }), &json!({}))
}

pub fn readyz(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    let store = req.store()?;
    let version = store.ping()?;
    let datasets = store.datasets()?.len();
    // A newer schema is one a newer node migrated to while this one serves (nodes sharing a
    // PostgreSQL database, upgraded one at a time): each release's migrations keep the
    // previous release working, so this node stays ready.
    if version < crate::store::schema::latest_version() || datasets == 0 {
        tracing::warn!(
            version,
            datasets,
            "not ready: schema out of date or no data imported"
        );
        return Err(ApiError::Unavailable);
    }
    json(
        &json!({
            "status": "ready",
            "schema_version": version,
            "datasets": datasets,
            "data_generation": req.state.public_generation(),
            "rate_limit_entries": req.state.limiter.entries(),
            "webhooks": if req.state.outbox.is_paused() { "paused" } else { "delivering" },
        }),
        &json!({}),
    )
}

pub fn openapi(req: &mut Req) -> Result<Reply, ApiError> {
    req.no_more_params()?;
    Ok(Reply::Raw {
        content_type: "application/json",
        body: req.state.openapi.clone(),
    })
}
