//! The events regintel sends and their envelope: `{id, type, timestamp, api_version, data}`, as
//! Standard Webhooks recommends (<https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md#payload-structure>).
//! Payloads are thin: identifiers, what changed, and links (paths below the API's base URL) to
//! fetch the rest with the receiver's own credentials.

use serde::Serialize;

pub const DATASET_UPDATED: &str = "dataset.updated";
pub const BRIEFING_CREATED: &str = "briefing.created";
pub const API_KEY_CREATED: &str = "api_key.created";
pub const API_KEY_REVOKED: &str = "api_key.revoked";
pub const USAGE_THRESHOLD: &str = "usage.threshold";
pub const WEBHOOK_TEST: &str = "webhook.test";

/// Every event type, as endpoints subscribe to them.
pub const TYPES: [&str; 6] = [
    DATASET_UPDATED,
    BRIEFING_CREATED,
    API_KEY_CREATED,
    API_KEY_REVOKED,
    USAGE_THRESHOLD,
    WEBHOOK_TEST,
];

/// The version of the envelope and its payloads.
pub const API_VERSION: &str = "v1";

/// Changes a `dataset.updated` event lists at most: about 15 KB, under the 20 KB Standard
/// Webhooks recommends for a payload. A larger change says so (`changes_complete: false`) and
/// links to the list of every change (`GET /datasets/{code}/changes`).
pub const MAX_LISTED_CHANGES: usize = 50;

/// The percentages of an account's daily cap that emit `usage.threshold`.
pub const USAGE_THRESHOLDS: [u64; 2] = [80, 100];

/// A new event id: `msg_` and a ULID (no `.`, which the signed content uses as a separator).
pub fn message_id() -> String {
    format!("msg_{}", crate::ids::ulid())
}

#[derive(Serialize)]
struct Envelope<'a, D: Serialize> {
    id: &'a str,
    #[serde(rename = "type")]
    event_type: &'a str,
    timestamp: String,
    api_version: &'static str,
    data: &'a D,
}

/// The exact bytes of an event, sent unchanged on every attempt.
pub fn envelope<D: Serialize>(id: &str, event_type: &str, occurred_at: i64, data: &D) -> Vec<u8> {
    let envelope = Envelope {
        id,
        event_type,
        timestamp: crate::runtime::clock::rfc3339_millis(occurred_at),
        api_version: API_VERSION,
        data,
    };
    serde_json::to_vec(&envelope).expect("an event's data serialises")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_envelope_has_the_standard_fields_in_order() {
        let body = envelope(
            "msg_1",
            WEBHOOK_TEST,
            1_649_367_553_123,
            &serde_json::json!({"endpoint_id": "whk_1"}),
        );
        assert_eq!(
            String::from_utf8(body).unwrap(),
            r#"{"id":"msg_1","type":"webhook.test","timestamp":"2022-04-07T21:39:13.123Z","api_version":"v1","data":{"endpoint_id":"whk_1"}}"#
        );
        assert!(!message_id().contains('.'));
    }
}
