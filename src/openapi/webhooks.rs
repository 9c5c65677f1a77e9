//! The webhook part of the OpenAPI document: the schemas of endpoints, deliveries and replays,
//! and the events themselves in the document's `webhooks` section (OpenAPI 3.1), one JSON Schema
//! per event type.

use serde_json::{Value, json};

use super::schemas::{array_of, nullable, object, r};
use crate::webhooks::events;

pub fn schemas() -> Value {
    let time = json!({"type": "string", "format": "date-time"});
    let types = json!({"type": "array", "minItems": 1, "uniqueItems": true,
                       "items": {"type": "string", "enum": events::TYPES}});
    json!({
        "Webhook": object(&["id", "url", "description", "event_types", "status", "breaker", "created_at", "links"], json!({
            "id": {"type": "string", "pattern": "^whk_[0-9a-z]{26}$"},
            "url": {"type": "string", "format": "uri"},
            "description": {"type": "string"},
            "event_types": types,
            "status": {"type": "string", "enum": ["enabled", "disabled"]},
            "disabled_reason": nullable("string"),
            "breaker": object(&["state", "consecutive_failures", "trips"], json!({
                "state": {"type": "string", "enum": ["closed", "open", "half_open"]},
                "consecutive_failures": {"type": "integer"},
                "open_until": {"type": ["string", "null"], "format": "date-time", "description": "While open: when the next probe is sent."},
                "trips": {"type": "integer", "description": "Times it opened since it last closed after a success."},
                "failing_since": {"type": ["string", "null"], "format": "date-time"},
            })),
            "previous_secret_expires_at": {"type": ["string", "null"], "format": "date-time", "description": "After a rotation: until when the previous secret signs too."},
            "created_at": time,
            "links": object(&["self", "deliveries"], json!({"self": {"type": "string"}, "deliveries": {"type": "string"}})),
        })),
        "WebhookList": array_of("Webhook"),
        "CreateWebhook": {"type": "object", "additionalProperties": false, "required": ["url", "event_types"], "properties": {
            "url": {"type": "string", "maxLength": 2048, "description": "https:// (http:// only where the operator allows)."},
            "event_types": types,
            "description": {"type": "string", "maxLength": 200},
        }},
        "UpdateWebhook": {"type": "object", "additionalProperties": false, "properties": {
            "url": {"type": "string", "maxLength": 2048},
            "event_types": types,
            "description": {"type": "string", "maxLength": 200},
            "status": {"type": "string", "enum": ["enabled", "disabled"]},
        }},
        "CreatedWebhook": {"allOf": [r("Webhook"), object(&["secret", "note"], json!({
            "secret": {"type": "string", "pattern": "^whsec_[A-Za-z0-9+/]{43}=$", "description": "Shown once."},
            "note": {"type": "string"},
        }))]},
        "WebhookTestSent": object(&["event_id", "type", "status"], json!({
            "event_id": {"type": "string", "description": "The webhook-id of the test event."},
            "type": {"const": events::WEBHOOK_TEST},
            "status": {"const": "pending"},
        })),
        "WebhookDelivery": object(&["id", "event_id", "event_type", "occurred_at", "status", "attempts", "attempt_log"], json!({
            "id": {"type": "string", "pattern": "^dlv_[0-9a-f]{24}$"},
            "event_id": {"type": "string", "description": "The webhook-id header."},
            "event_type": {"type": "string", "enum": events::TYPES},
            "occurred_at": time,
            "status": {"type": "string", "enum": ["pending", "delivered", "failed"]},
            "attempts": {"type": "integer", "description": "Attempts of the current schedule (at most 10)."},
            "next_attempt_at": {"type": ["string", "null"], "format": "date-time"},
            "delivered_at": {"type": ["string", "null"], "format": "date-time"},
            "attempt_log": {"type": "array", "description": "The latest 20 attempts, oldest first.", "items": object(&["at", "status_code", "latency_ms", "error"], json!({
                "at": time,
                "status_code": {"type": ["integer", "null"], "description": "The receiver's status; null when it did not answer."},
                "latency_ms": {"type": "integer"},
                "error": nullable("string"),
            }))},
        })),
        "WebhookDeliveryList": array_of("WebhookDelivery"),
        "ReplayWebhookEvents": {"type": "object", "additionalProperties": false, "required": ["since"], "properties": {
            "since": {"type": "string", "format": "date-time", "description": "Within the last 30 days."},
            "include_delivered": {"type": "boolean", "default": false, "description": "Also send again the events the endpoint received."},
        }},
        "WebhookReplay": object(&["scheduled", "complete", "resume_from"], json!({
            "scheduled": {"type": "integer", "description": "Deliveries scheduled (pending ones are not counted)."},
            "complete": {"type": "boolean"},
            "resume_from": {"type": ["string", "null"], "format": "date-time"},
        })),
        "WebhookResent": object(&["id", "status", "sending", "not_before", "breaker"], json!({
            "id": {"type": "string"}, "status": {"const": "pending"},
            "sending": {"type": "string", "enum": ["now", "under_way", "when_the_breaker_allows"], "description": "`now`: due at once. `under_way`: an attempt is being made; its outcome stands (a failure is retried on the schedule). `when_the_breaker_allows`: the endpoint's circuit breaker holds its deliveries: while open until `not_before` (then one probe goes first), while half-open until its probe succeeds."},
            "not_before": {"type": ["string", "null"], "format": "date-time", "description": "While the breaker is open: when its probe may go."},
            "breaker": {"type": "string", "enum": ["closed", "open", "half_open"]},
        })),
        "DatasetUpdatedData": object(&["dataset", "snapshot", "visibility", "rows_added", "rows_revised", "rows_unchanged", "rows_withdrawn", "changes", "changes_complete", "links"], json!({
            "dataset": {"type": "string"},
            "snapshot": {"type": "string", "description": "The new snapshot (`snp_...`)."},
            "visibility": {"type": "string", "enum": ["public", "private"], "description": "Public data goes to every subscribed endpoint; an account's private data only to its own."},
            "rows_added": {"type": "integer"}, "rows_revised": {"type": "integer"}, "rows_unchanged": {"type": "integer"},
            "rows_withdrawn": {"type": "integer", "description": "Rows a whole-dataset fetch from Eurostat no longer held, withdrawn (0 for any other import)."},
            "changes": {"type": "array", "maxItems": events::MAX_LISTED_CHANGES, "description": "The rows that are new, revised or withdrawn, in the file's order (withdrawals last), up to the bound: each with its region, period and series, its value as published and, for a revision or a withdrawal, the value and citation it replaces.",
                        "items": r("RowChange")},
            "changes_complete": {"type": "boolean", "description": "False when more rows changed than are listed: `links.changes` lists them all, paged."},
            "links": object(&["dataset", "export", "changes"], json!({"dataset": {"type": "string"}, "export": {"type": "string"}, "changes": {"type": "string", "description": "`GET /datasets/{dataset_code}/changes` since the snapshot before this one: this import's changes (and any later)."}})),
        })),
        "BriefingCreatedData": object(&["briefing_id", "region", "briefing_type", "title", "created_at", "links"], json!({
            "briefing_id": {"type": "string"}, "region": {"type": "string"}, "briefing_type": {"type": "string"},
            "title": {"type": "string"}, "created_at": time,
            "links": object(&["briefing"], json!({"briefing": {"type": "string"}})),
        })),
        "ApiKeyEventData": object(&["key_id", "name", "at", "links"], json!({
            "key_id": {"type": "string"}, "name": {"type": "string"}, "at": time,
            "links": object(&["api_keys"], json!({"api_keys": {"type": "string"}})),
        })),
        "UsageThresholdData": object(&["day", "threshold_percent", "used", "daily_cap", "tier", "links"], json!({
            "day": {"type": "string", "format": "date"},
            "threshold_percent": {"type": "integer", "enum": events::USAGE_THRESHOLDS},
            "used": {"type": "integer"}, "daily_cap": {"type": "integer"},
            "tier": {"type": "string", "enum": ["professional", "institutional"]},
            "links": object(&["usage"], json!({"usage": {"type": "string"}})),
        })),
        "WebhookTestData": object(&["webhook_id", "message", "links"], json!({
            "webhook_id": {"type": "string"}, "message": {"type": "string"},
            "links": object(&["webhook"], json!({"webhook": {"type": "string"}})),
        })),
    })
}

/// The `webhooks` section: for each event type, the request regintel sends.
pub fn events() -> Value {
    let mut out = json!({});
    for (event, data, summary) in [
        (
            events::DATASET_UPDATED,
            "DatasetUpdatedData",
            "A snapshot of a dataset was imported: which citations are new or revised.",
        ),
        (
            events::BRIEFING_CREATED,
            "BriefingCreatedData",
            "The account created a briefing.",
        ),
        (
            events::API_KEY_CREATED,
            "ApiKeyEventData",
            "An API key of the account was created.",
        ),
        (
            events::API_KEY_REVOKED,
            "ApiKeyEventData",
            "An API key of the account was revoked.",
        ),
        (
            events::USAGE_THRESHOLD,
            "UsageThresholdData",
            "The account used 80 % or 100 % of its daily cap (once a day each).",
        ),
        (
            events::WEBHOOK_TEST,
            "WebhookTestData",
            "A test event the account asked for.",
        ),
    ] {
        out[event] = json!({"post": {
            "summary": summary,
            "description": "Signed as Standard Webhooks 1.0 specifies: verify `webhook-signature` (space-separated `v1,<base64 HMAC-SHA256>`, one per active secret) over `{webhook-id}.{webhook-timestamp}.{raw body}` with the endpoint's secret (the bytes after `whsec_`, base64-decoded), reject timestamps more than 5 minutes off, and deduplicate on `webhook-id`: delivery is at least once and unordered. Answer 2xx within 15 s; anything else (redirects included) is retried after 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (±10 %), or after `Retry-After` when given; 410 disables the endpoint. Links in `data` are paths below the API's base URL.",
            "parameters": [
                header("webhook-id", "The event id (`msg_...`): the same on every attempt."),
                header("webhook-timestamp", "Unix seconds of this attempt."),
                header("webhook-signature", "`v1,<base64>`, space-separated when a rotated secret still signs."),
            ],
            "requestBody": {"required": true, "content": {"application/json": {"schema": {
                "type": "object",
                "required": ["id", "type", "timestamp", "api_version", "data"],
                "properties": {
                    "id": {"type": "string", "description": "Equals the webhook-id header."},
                    "type": {"const": event},
                    "timestamp": {"type": "string", "format": "date-time", "description": "When the event occurred."},
                    "api_version": {"const": events::API_VERSION},
                    "data": r(data),
                },
            }}}},
            "responses": {"2XX": {"description": "Received."}, "410": {"description": "Gone: regintel disables the endpoint."}},
        }});
    }
    out
}

fn header(name: &str, description: &str) -> Value {
    json!({"name": name, "in": "header", "required": true, "description": description, "schema": {"type": "string"}})
}
