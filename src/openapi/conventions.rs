//! The API's naming, time and paging conventions (see `docs/api.md`), checked on the whole
//! OpenAPI document: every answer schema of every operation, and every event.

use serde_json::Value;

use super::document;
use crate::config::LimitConfig;

/// The schema at a `#/components/schemas/…` reference, or the schema itself.
fn resolve<'a>(doc: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(at) => {
            let name = at.trim_start_matches("#/components/schemas/");
            &doc["components"]["schemas"][name]
        }
        None => schema,
    }
}

/// The properties of an object schema, `allOf` parts included.
fn properties<'a>(doc: &'a Value, schema: &'a Value) -> Vec<(&'a String, &'a Value)> {
    let schema = resolve(doc, schema);
    let mut out: Vec<(&String, &Value)> = schema["properties"]
        .as_object()
        .map(|p| p.iter().collect())
        .unwrap_or_default();
    for part in schema["allOf"].as_array().into_iter().flatten() {
        out.extend(properties(doc, part));
    }
    out
}

/// Every schema below `schema` (itself included), each with the property name it sits under.
fn walk<'a>(
    doc: &'a Value,
    name: &str,
    schema: &'a Value,
    depth: usize,
    out: &mut Vec<(String, &'a Value)>,
) {
    if depth > 12 {
        return;
    }
    let schema = resolve(doc, schema);
    out.push((name.to_owned(), schema));
    for (child, value) in properties(doc, schema) {
        walk(doc, child, value, depth + 1, out);
    }
    for key in ["items", "additionalProperties"] {
        if schema[key].is_object() {
            walk(doc, name, &schema[key], depth + 1, out);
        }
    }
}

/// The words of a schema's name, lower case: `WebhookDelivery` → `["webhook", "delivery"]`.
fn words(schema_name: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for c in schema_name.chars() {
        if c.is_uppercase() || words.is_empty() {
            words.push(String::new());
        }
        words.last_mut().unwrap().push(c.to_ascii_lowercase());
    }
    words
}

/// Names a resource's own identifier would have under another name than `id`: `key_id` and
/// `api_key_id` for `ApiKey`, `delivery_id` and `webhook_delivery_id` for `WebhookDelivery`.
fn own_identifier_names(schema_name: &str) -> Vec<String> {
    let words = words(schema_name);
    (0..words.len())
        .map(|from| format!("{}_id", words[from..].join("_")))
        .collect()
}

/// Every operation's successful JSON answer: (operation id, its data schema's name, its meta
/// schema, its query parameter names).
fn answers(doc: &Value) -> Vec<(String, String, String, Vec<String>)> {
    let mut out = Vec::new();
    for item in doc["paths"].as_object().unwrap().values() {
        for operation in item.as_object().unwrap().values() {
            for (status, response) in operation["responses"].as_object().unwrap() {
                let schema = &response["content"]["application/json"]["schema"];
                if !status.starts_with('2') || schema["properties"]["data"].is_null() {
                    continue;
                }
                let name = |at: &Value| {
                    at["$ref"]
                        .as_str()
                        .unwrap()
                        .trim_start_matches("#/components/schemas/")
                        .to_owned()
                };
                let query = operation["parameters"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|p| p["in"] == "query")
                    .map(|p| p["name"].as_str().unwrap().to_owned())
                    .collect();
                out.push((
                    operation["operationId"].as_str().unwrap().to_owned(),
                    name(&schema["properties"]["data"]),
                    name(&schema["properties"]["meta"]),
                    query,
                ));
            }
        }
    }
    out
}

/// What breaks a convention in `doc`, one line each.
fn breaches(doc: &Value) -> Vec<String> {
    let mut found = Vec::new();
    let mut every = Vec::new();
    for (operation, data, meta, query) in answers(doc) {
        let schema = &doc["components"]["schemas"][&data];
        // A list pages: `limit` and `cursor` in, `limit` and `next_cursor` in its meta.
        if schema["type"] == "array" {
            for parameter in ["limit", "cursor"] {
                if !query.iter().any(|q| q == parameter) {
                    found.push(format!(
                        "{operation}: a list without the `{parameter}` parameter"
                    ));
                }
            }
            let meta_fields = properties(doc, &doc["components"]["schemas"][&meta]);
            for field in ["limit", "next_cursor"] {
                if !meta_fields.iter().any(|(name, _)| *name == field) {
                    found.push(format!("{operation}: a list whose meta has no `{field}`"));
                }
            }
        }
        // The resource itself: the data, or a list's items.
        let (resource, resource_schema) = match schema["items"]["$ref"].as_str() {
            Some(at) => (
                at.trim_start_matches("#/components/schemas/").to_owned(),
                &schema["items"],
            ),
            None => (data.clone(), schema),
        };
        let own = own_identifier_names(&resource);
        for (name, _) in properties(doc, resource_schema) {
            if own.contains(name) {
                found.push(format!(
                    "{operation}: {resource}'s own identifier is `{name}`, not `id`"
                ));
            }
        }
        walk(doc, &data, schema, 0, &mut every);
    }
    // Events too: their data.
    for event in doc["webhooks"].as_object().unwrap().values() {
        let schema = &event["post"]["requestBody"]["content"]["application/json"]["schema"];
        walk(doc, "event", schema, 0, &mut every);
    }
    // Times: RFC 3339 strings, whatever their name says they are.
    for (name, schema) in every {
        let is_time =
            name == "at" || name == "timestamp" || name.ends_with("_at") || name == "not_before";
        let types = &schema["type"];
        let string = types == "string"
            || types
                .as_array()
                .is_some_and(|t| t.iter().any(|t| t == "string"));
        if is_time && !(string && schema["format"] == "date-time") {
            found.push(format!("`{name}` is not an RFC 3339 date-time: {schema}"));
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn every_answer_and_event_follows_the_conventions() {
    let doc = document("/api/v1/regional", &LimitConfig::default());
    let found = breaches(&doc);
    assert!(found.is_empty(), "{}", found.join("\n"));
    // The walk reaches what it checks: the lists, and the times of events.
    let lists = answers(&doc)
        .iter()
        .filter(|(_, data, _, _)| doc["components"]["schemas"][data]["type"] == "array")
        .count();
    assert_eq!(lists, 9);
    let mut walked = Vec::new();
    for event in doc["webhooks"].as_object().unwrap().values() {
        let schema = &event["post"]["requestBody"]["content"]["application/json"]["schema"];
        walk(&doc, "event", schema, 0, &mut walked);
    }
    let event_times = walked
        .iter()
        .filter(|(name, _)| name == "timestamp" || name.ends_with("_at") || name == "at")
        .count();
    assert!(event_times >= 6, "{event_times} times in events");
}

#[test]
fn a_breach_of_each_convention_is_found() {
    let mut doc = document("/api/v1/regional", &LimitConfig::default());
    let schemas = &mut doc["components"]["schemas"];
    schemas["ApiKey"]["properties"]["key_id"] = serde_json::json!({"type": "string"});
    schemas["Account"]["properties"]["created_at"] = serde_json::json!({"type": "integer"});
    schemas["DatasetUpdatedData"]["properties"]["published_at"] =
        serde_json::json!({"type": "integer"});
    let briefings = &mut doc["paths"]["/briefings"]["get"]["parameters"];
    let kept: Vec<Value> = briefings
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["name"] != "cursor")
        .cloned()
        .collect();
    *briefings = Value::Array(kept);
    let list_meta = &mut doc["components"]["schemas"]["ListMeta"]["allOf"][1]["properties"];
    list_meta.as_object_mut().unwrap().remove("next_cursor");
    let found = breaches(&doc).join("\n");
    for expected in [
        "ApiKey's own identifier is `key_id`",
        "`created_at` is not an RFC 3339 date-time",
        "`published_at` is not an RFC 3339 date-time",
        "listBriefings: a list without the `cursor` parameter",
        "listRegions: a list whose meta has no `next_cursor`",
    ] {
        assert!(
            found.contains(expected),
            "{expected} not found in:\n{found}"
        );
    }
}

#[test]
fn a_resources_own_identifier_names_are_its_words() {
    assert_eq!(own_identifier_names("ApiKey"), ["api_key_id", "key_id"]);
    assert_eq!(
        own_identifier_names("WebhookDelivery"),
        ["webhook_delivery_id", "delivery_id"]
    );
}
