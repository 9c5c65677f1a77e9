//! The OpenAPI 3.1 document, built at start from the route table (methods, paths, access, body
//! kinds, weights), the text of each operation (`operations`: parameters, error codes, prose) and
//! the component schemas (`schemas`). `regintel openapi` prints it; `/openapi.json` serves it; the
//! tests validate it, check it against the router and generate a client from it.
//!
//! `servers` is the API's base URL (`.../api/v1/<service>`) and every path is relative to it, so
//! a client generated from the document and given that base URL works. The operational routes at the root of the host (`/healthz`, `/readyz`) are outside the
//! base URL and so outside the document (docs/api.md and docs/operations.md describe them).

pub mod operations;
pub mod schemas;
mod webhooks;

#[cfg(test)]
mod conventions;

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::config::LimitConfig;
use crate::http::error::ApiError;
use crate::http::routes::{Access, BodyKind, ROUTES, Route};
use operations::{COMMON_ERRORS, Location};
use schemas::r;

/// The document for the API at `base_url` (absolute, or a path when the public URL is not
/// known) under the rate limits `limits` (quotas and the operator's route weights).
pub fn document(base_url: &str, limits: &LimitConfig) -> Value {
    let mut schemas = schemas::all();
    let Value::Object(events) = webhooks::schemas() else {
        unreachable!("the webhook schemas are an object")
    };
    schemas
        .as_object_mut()
        .expect("the schemas are an object")
        .extend(events);
    // Lists (answers whose data is an array) page alike, and say so in their meta.
    let lists: Vec<String> = schemas
        .as_object()
        .expect("the schemas are an object")
        .iter()
        .filter(|(_, schema)| schema["type"] == "array")
        .map(|(name, _)| name.clone())
        .collect();
    let mut paths: BTreeMap<String, Value> = BTreeMap::new();
    for route in ROUTES.iter().filter(|r| !r.root) {
        let entry = paths
            .entry(route.path.to_owned())
            .or_insert_with(|| json!({}));
        entry[route.method.as_str().to_ascii_lowercase()] =
            operation(route, route.cost(&limits.route_weights), &lists);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "regintel: Regional Intelligence Service",
            "version": env!("CARGO_PKG_VERSION"),
            "summary": "European regional statistics by NUTS code, every number with a citation to its primary row.",
            "description": description(limits),
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "servers": [{"url": base_url, "description": "the API's base URL"}],
        "tags": [
            {"name": "regions", "description": "Regions, profiles and comparisons"},
            {"name": "datasets", "description": "The datasets served and their snapshots"},
            {"name": "citations", "description": "The primary rows behind the numbers"},
            {"name": "analytics", "description": "Briefings, bulk export and correlations"},
            {"name": "account", "description": "Sign-in and the account's API keys"},
            {"name": "webhooks", "description": "Signed event deliveries to the account's endpoints"},
            {"name": "operations", "description": "This document"},
        ],
        "paths": paths,
        "webhooks": webhooks::events(),
        "components": {
            "securitySchemes": {
                "ApiKey": {
                    "type": "apiKey", "in": "header", "name": "X-API-Key",
                    "description": "An API key `sk_service_...` (57 characters). The same key is also accepted as `Authorization: Bearer`. Keys are never accepted in URLs.",
                },
                "Bearer": {
                    "type": "http", "scheme": "bearer",
                    "description": "An API key, or a session token (HS256 JWT, 15 minutes) from `POST /auth/login`.",
                },
            },
            "schemas": schemas,
            "headers": {
                "X-Request-Id": {"description": "Request id, also in meta.request_id and in the server log.", "schema": {"type": "string"}},
                "ETag": {"description": "Weak validator of the answer: changes when the data changes.", "schema": {"type": "string"}},
                "Cache-Control": {"schema": {"type": "string"}},
                "Allow": {"description": "Methods the path allows.", "schema": {"type": "string"}},
                "Retry-After": {"description": "Seconds to wait before retrying.", "schema": {"type": "integer"}},
                "X-RateLimit-Limit": {"description": "Quota of the binding bucket (the one with the least remaining).", "schema": {"type": "integer"}},
                "X-RateLimit-Remaining": {"description": "Requests left in the binding bucket.", "schema": {"type": "integer"}},
                "X-RateLimit-Used": {"description": "Requests used in the binding bucket.", "schema": {"type": "integer"}},
                "X-RateLimit-Reset": {"description": "When the binding bucket is full again, in unix epoch seconds.", "schema": {"type": "integer"}},
                "X-RateLimit-Resource": {"description": "Name of the binding bucket: ip-minute, ip-hour, ip-day, key-minute, key-hour, key-day, session-minute, session-hour, account-day or auth-fail.", "schema": {"type": "string"}},
                "RateLimit-Policy": {"description": "draft-ietf-httpapi-ratelimit-headers: every bucket as `\"name\";q=<quota>;w=<window seconds>`.", "schema": {"type": "string"}},
                "RateLimit": {"description": "draft-ietf-httpapi-ratelimit-headers: every bucket as `\"name\";r=<remaining>;t=<seconds to reset>`.", "schema": {"type": "string"}},
                "WWW-Authenticate": {"description": "`Bearer realm=\"regintel\"`, with `error=\"invalid_token\"` when a credential was sent but is not valid.", "schema": {"type": "string"}},
            },
        },
    })
}

/// What every client should know first; the rate limits as this server applies them.
fn description(limits: &LimitConfig) -> String {
    let n = |v: u64| group_thousands(v);
    let (a, p, i) = (limits.anonymous, limits.professional, limits.institutional);
    let rate_limits = if limits.enabled {
        format!(
            "Rate limits: anonymous callers per client address ({}/min, {}/h, {}/day), accounts per key (professional {}/min and {}/h, institutional {}/min and {}/h) and per account per UTC day ({} and {}, shared by the account's keys); every answer describes the binding bucket in `X-RateLimit-*` and all buckets in `RateLimit-Policy` / `RateLimit`; a refusal is 429 `rate_limit_exceeded` with `Retry-After`; each operation's cost is its `x-ratelimit-weight`.",
            n(a.minute),
            n(a.hour),
            n(a.day),
            n(p.minute),
            n(p.hour),
            n(i.minute),
            n(i.hour),
            n(p.day),
            n(i.day)
        )
    } else {
        "Rate limits: none at this server (its gateway may apply its own).".to_owned()
    };
    format!(
        "Answers about European regions identified by NUTS codes (DE, DE2, DE21, DE212), from Eurostat data bundled with the server. Tiers: anonymous callers (no credential) read profiles, comparisons, regions, datasets and citations of public data; professional and institutional accounts (API key or session token) also see their own private datasets and may call the correlation matrix; bulk export and briefings need the institutional tier. A credential that is sent must be valid: a bad one answers 401 `invalid_credential`, never anonymous data. {rate_limits} Every JSON answer is an envelope `{{data, meta, error?}}`; `meta.citations` maps each citation id used in `data` to its dataset, region, period and source, and `GET /citations/{{citation_id}}` resolves it to the primary row. Errors carry `error.code` (stable, snake_case), `message`, `status`, `details` and `request_id`. GET answers carry a weak `ETag` and honour `If-None-Match` (304); large answers are gzip-compressed for clients that accept it. Data: Eurostat (source: Eurostat), reshaped extracts; see each dataset's source and licence."
    )
}

/// `10000` as `10,000`.
fn group_thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn operation(route: &Route, weight: u64, lists: &[String]) -> Value {
    let doc =
        operations::of(route).expect("every route below the base path is documented (unit-tested)");
    let params: Vec<Value> = doc
        .params
        .iter()
        .map(|p| {
            json!({
                "name": p.name,
                "in": if p.location == Location::Path { "path" } else { "query" },
                "required": p.required,
                "description": p.description,
                "schema": serde_json::from_str::<Value>(p.schema).expect("route parameter schemas are JSON (unit-tested)"),
            })
        })
        .collect();
    let ok = if let Some(media) = doc.raw {
        json!({
            "description": doc.summary,
            "headers": headers(false),
            "content": {media: {"schema": {"$ref": format!("#/components/schemas/{}", doc.schema)}}},
        })
    } else if doc.schema.is_empty() {
        json!({ "description": doc.summary, "headers": headers(false) })
    } else {
        json!({
            "description": doc.summary,
            "headers": headers(route.cacheable),
            "content": {"application/json": {"schema": {
                "type": "object",
                "required": ["data", "meta"],
                "properties": {
                    "data": {"$ref": format!("#/components/schemas/{}", doc.schema)},
                    "meta": {"$ref": if lists.iter().any(|list| list == doc.schema) {
                        "#/components/schemas/ListMeta"
                    } else {
                        "#/components/schemas/Meta"
                    }},
                },
            }}},
        })
    };
    let mut responses = json!({ doc.success.to_string(): ok });
    if route.cacheable {
        responses["304"] = json!({
            "description": "Not modified: the `If-None-Match` tag still matches.",
            "headers": headers(true),
        });
    }
    let access_errors: &[&str] = match route.access {
        Access::Public => &[],
        Access::Credential => &["missing_credential"],
        Access::Institutional => &["missing_credential", "insufficient_tier"],
        Access::Session => &["missing_credential", "forbidden"],
    };
    let mut by_status: BTreeMap<u16, Vec<&str>> = BTreeMap::new();
    for code in doc.errors.iter().chain(access_errors).chain(COMMON_ERRORS) {
        let (_, status) = ApiError::CODES
            .iter()
            .find(|(c, _)| c == code)
            .expect("route error codes exist in ApiError::CODES (unit-tested)");
        let codes = by_status.entry(*status).or_default();
        if !codes.contains(code) {
            codes.push(code);
        }
    }
    for (status, codes) in by_status {
        let mut response = json!({
            "description": format!("error.code: {}", codes.join(", ")),
            "headers": headers(false),
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorEnvelope"}}},
        });
        if status == 503 {
            response["headers"]["Retry-After"] =
                json!({"$ref": "#/components/headers/Retry-After"});
        }
        responses[status.to_string()] = response;
    }
    // Public routes declare no security: anyone may call them, and generated clients must not
    // demand a credential for them. A credential sent anyway adds the account's private data (the
    // description says so).
    let security = match route.access {
        Access::Public => None,
        Access::Credential | Access::Institutional => Some(json!([{"ApiKey": []}, {"Bearer": []}])),
        Access::Session => Some(json!([{"Bearer": []}])),
    };
    let cost = match weight {
        0 => " Not counted against rate limits.".to_owned(),
        1 => String::new(),
        n => format!(
            " Costs {n} requests against rate limits (the operator may change this with --route-weight)."
        ),
    };
    let mut op = json!({
        "operationId": doc.id,
        "tags": [doc.tag],
        "summary": doc.summary,
        "description": format!("{}{cost}", doc.description),
        "x-ratelimit-weight": weight,
        "parameters": params,
        "responses": responses,
    });
    if let Some(security) = security {
        op["security"] = security;
    }
    if let Some(request) = doc.request {
        // A CSV body is text, also taken as `application/octet-stream` (a file's bytes as they
        // are), which client generators that know no `text/csv` can send.
        let content = match route.body {
            BodyKind::Csv => json!({
                "text/csv": {"schema": r(request)},
                "application/octet-stream": {"schema": {"type": "string", "format": "binary"}},
            }),
            BodyKind::Json | BodyKind::None => json!({"application/json": {"schema": r(request)}}),
        };
        op["requestBody"] = json!({ "required": true, "content": content });
    }
    op
}

/// Rate-limit headers every answer carries (unless the operator turned limits off).
const RATE_HEADERS: &[&str] = &[
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Used",
    "X-RateLimit-Reset",
    "X-RateLimit-Resource",
    "RateLimit-Policy",
    "RateLimit",
];

fn headers(cacheable: bool) -> Value {
    let mut h = json!({"X-Request-Id": {"$ref": "#/components/headers/X-Request-Id"}});
    for name in RATE_HEADERS {
        h[*name] = json!({"$ref": format!("#/components/headers/{name}")});
    }
    if cacheable {
        h["ETag"] = json!({"$ref": "#/components/headers/ETag"});
        h["Cache-Control"] = json!({"$ref": "#/components/headers/Cache-Control"});
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_is_documented_with_resolvable_refs() {
        let limits = LimitConfig {
            route_weights: vec![("exportDataset".into(), 7)],
            ..LimitConfig::default()
        };
        let doc = document("/api/v1/regional", &limits);
        assert_eq!(doc["servers"][0]["url"], "/api/v1/regional");
        let export = &doc["paths"]["/export/bulk/{dataset_code}.csv"]["get"];
        assert_eq!(
            export["x-ratelimit-weight"], 7,
            "operator weights are documented"
        );
        let text = doc.to_string();
        for route in ROUTES {
            if route.root {
                // A root route may share its path with an API route (the `/account/api-keys`
                // page and the API's list of keys): its operation is what must be absent.
                let id = format!("\"operationId\":\"{}\"", route.operation_id);
                assert!(
                    !text.contains(&id),
                    "{} is outside the base URL",
                    route.path
                );
            } else {
                let op = &doc["paths"][route.path][route.method.as_str().to_ascii_lowercase()];
                assert_eq!(op["operationId"], route.operation_id, "{}", route.path);
            }
        }
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        for part in text.split("#/components/schemas/").skip(1) {
            let name: String = part.chars().take_while(|c| c.is_alphanumeric()).collect();
            assert!(schemas.contains_key(&name), "dangling $ref {name:?}");
        }
    }

    #[test]
    fn the_description_states_this_servers_limits() {
        let mut limits = LimitConfig::default();
        limits.anonymous.minute = 12_345;
        let text = |limits: &LimitConfig| {
            document("/x", limits)["info"]["description"]
                .as_str()
                .unwrap()
                .to_owned()
        };
        assert!(text(&limits).contains("(12,345/min, 300/h, 1,000/day)"));
        limits.enabled = false;
        assert!(text(&limits).contains("none at this server"));
        for (n, shown) in [
            (0, "0"),
            (999, "999"),
            (1_000, "1,000"),
            (100_000, "100,000"),
        ] {
            assert_eq!(group_thousands(n), shown);
        }
    }
}
