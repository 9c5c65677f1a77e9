//! The OpenAPI 3.1 document, built at start from the route table (paths, parameters, error codes)
//! and the schemas below (one per answer type). `regintel openapi` prints it; `/openapi.json`
//! serves it; the tests validate it, check it against the router and generate a client from it.
//!
//! It speaks the specification's terms: `servers` is the base URL (`.../api/v1/<service>`) and
//! every path is relative to it, so a client generated from the document and given that base URL
//! works. The operational routes at the root of the host (`/healthz`, `/readyz`) are outside the
//! base URL and so outside the document (the README describes them).

use std::collections::BTreeMap;

use serde_json::{Value, json};

use crate::error::ApiError;
use crate::http::routes::{Access, BodyKind, COMMON_ERRORS, Location, ROUTES, Route};

/// The document for the API at `base_url` (absolute, or a path when the public URL is not
/// known) whose operator changed route weights to `weights` (operation id → cost).
pub fn document(base_url: &str, weights: &[(String, u64)]) -> Value {
    let mut paths: BTreeMap<String, Value> = BTreeMap::new();
    for route in ROUTES.iter().filter(|r| !r.root) {
        let entry = paths
            .entry(route.path.to_owned())
            .or_insert_with(|| json!({}));
        let weight = weights
            .iter()
            .find(|(op, _)| op == route.doc.operation_id)
            .map_or(route.weight, |(_, w)| *w);
        entry[route.method.as_str().to_ascii_lowercase()] = operation(route, weight);
    }
    json!({
        "openapi": "3.1.0",
        "info": {
            "title": "regintel: Regional Intelligence Service",
            "version": env!("CARGO_PKG_VERSION"),
            "summary": "European regional statistics by NUTS code, every number with a citation to its primary row.",
            "description": DESCRIPTION,
            "license": {"name": "Apache-2.0", "identifier": "Apache-2.0"},
        },
        "servers": [{"url": base_url, "description": "the API's base URL"}],
        "tags": [
            {"name": "regions", "description": "Regions, profiles and comparisons"},
            {"name": "datasets", "description": "The datasets served and their snapshots"},
            {"name": "citations", "description": "The primary rows behind the numbers"},
            {"name": "analytics", "description": "Briefings, bulk export and correlations (specification endpoints 3-5)"},
            {"name": "account", "description": "Sign-in and the account's API keys"},
            {"name": "operations", "description": "Health, readiness and this document"},
        ],
        "paths": paths,
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
            "schemas": schemas(),
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

const DESCRIPTION: &str = "Answers about European regions identified by NUTS codes (DE, DE2, DE21, DE212), from Eurostat data bundled with the server. Tiers: anonymous callers (no credential) read profiles, comparisons, regions, datasets and citations of public data; professional and institutional accounts (API key or session token) also see their own private datasets and may call the correlation matrix; bulk export and briefings need the institutional tier. A credential that is sent must be valid: a bad one answers 401 `invalid_credential`, never anonymous data. Rate limits: anonymous callers per client address (30/min, 300/h, 1,000/day by default), accounts per key (professional 60/min and 1,000/h, institutional 300/min and 10,000/h) and per account per UTC day (10,000 and 100,000, shared by the account's keys); every answer describes the binding bucket in `X-RateLimit-*` and all buckets in `RateLimit-Policy` / `RateLimit`; a refusal is 429 `rate_limit_exceeded` with `Retry-After`; each operation's cost is its `x-ratelimit-weight`. Every JSON answer is an envelope `{data, meta, error?}`; `meta.citations` maps each citation id used in `data` to its dataset, region, period and source, and `GET /citations/{citation_id}` resolves it to the primary row. Errors carry `error.code` (stable, snake_case), `message`, `status`, `details` and `request_id`. GET answers carry a weak `ETag` and honour `If-None-Match` (304); large answers are gzip-compressed for clients that accept it. Data: Eurostat (source: Eurostat), reshaped extracts; see each dataset's source and licence.";

fn operation(route: &Route, weight: u64) -> Value {
    let doc = &route.doc;
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
                    "meta": {"$ref": "#/components/schemas/Meta"},
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
        "operationId": doc.operation_id,
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

fn r(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

fn nullable(schema: &str) -> Value {
    json!({ "type": [schema, "null"] })
}

fn array_of(name: &str) -> Value {
    json!({ "type": "array", "items": r(name) })
}

fn object(required: &[&str], properties: Value) -> Value {
    json!({ "type": "object", "required": required, "properties": properties })
}

fn schemas() -> Value {
    let codes: Vec<&str> = ApiError::CODES.iter().map(|(c, _)| *c).collect();
    json!({
        "Meta": object(&["request_id", "api_version", "generated_at", "access"], json!({
            "request_id": {"type": "string"},
            "api_version": {"type": "string", "const": "v1"},
            "generated_at": {"type": "string", "format": "date-time"},
            "access": {"type": "string", "enum": ["public", "account"], "description": "public: only public data was used"},
            "snapshots": {"type": "array", "items": {"type": "string"}, "description": "Snapshots (imports) the data comes from."},
            "citations": {"type": "object", "additionalProperties": r("CitationRef"), "description": "Every citation id used in data, in short form."},
            "total": {"type": "integer", "description": "Lists: number of matching items."},
            "next_after": {"type": ["string", "null"], "description": "Lists: cursor for the next page, null on the last."},
        })),
        "Error": object(&["code", "message", "status", "request_id"], json!({
            "code": {"type": "string", "enum": codes},
            "message": {"type": "string"},
            "status": {"type": "integer"},
            "details": {"type": "object", "description": "Extension members, e.g. the parameter at fault."},
            "request_id": {"type": "string"},
        })),
        "ErrorEnvelope": object(&["data", "meta", "error"], json!({
            "data": {"type": "null"},
            "meta": r("Meta"),
            "error": r("Error"),
        })),
        "CitationRef": object(&["dataset", "region", "period"], json!({
            "dataset": {"type": "string"}, "region": {"type": "string"}, "period": {"type": "string"},
            "source_url": nullable("string"),
        })),
        "Flag": object(&["code", "meaning"], json!({"code": {"type": "string"}, "meaning": {"type": "string"}})),
        "Warning": object(&["code", "message"], json!({"code": {"type": "string"}, "message": {"type": "string"}})),
        "Cited": object(&["period", "value", "flags", "citation"], json!({
            "period": {"type": "string"},
            "value": {"type": ["number", "null"], "description": "Null when the source publishes only a flag."},
            "flags": array_of("Flag"),
            "citation": {"type": "string", "pattern": "^cit_[a-z2-7]{20}$"},
        })),
        "Derived": object(&["kind", "value", "description", "citations"], json!({
            "kind": {"type": "string", "enum": ["difference", "ratio"]},
            "value": {"type": "number"},
            "description": {"type": "string"},
            "citations": {"type": "array", "items": {"type": "string"}, "description": "Citations of the inputs."},
        })),
        "RegionSummary": object(&["code", "classification", "nuts_editions", "in_classification"], json!({
            "code": {"type": "string"},
            "name": nullable("string"),
            "name_national": nullable("string"),
            "level": {"type": ["integer", "null"], "minimum": 0, "maximum": 3},
            "country": nullable("string"),
            "parent_code": nullable("string"),
            "classification": {"type": "string", "enum": ["NUTS", "SR", "NUTS2016_UK", "historical", "aggregate"]},
            "nuts_editions": {"type": "array", "items": {"type": "string"}},
            "in_classification": {"type": "boolean"},
        })),
        "RegionDetail": {"allOf": [r("RegionSummary"), object(&["children"], json!({
            "parent": {"oneOf": [{"type": "null"}, object(&["code"], json!({"code": {"type": "string"}, "name": nullable("string")}))]},
            "children": {"type": "array", "items": {"type": "string"}},
            "change_2021_2024": nullable("string"),
            "recoded_from": nullable("string"),
            "recoded_to": nullable("string"),
        }))]},
        "RegionList": array_of("RegionSummary"),
        "Indicator": object(&["dataset", "title", "topic", "series", "unit", "history", "notes"], json!({
            "dataset": {"type": "string"}, "title": {"type": "string"}, "label": nullable("string"),
            "topic": {"type": "string"},
            "series": {"type": "object", "additionalProperties": {"type": "string"}},
            "unit": {"type": "string"}, "unit_label": nullable("string"),
            "latest": {"oneOf": [{"type": "null"}, r("Cited")]},
            "history": array_of("Cited"),
            "notes": array_of("Warning"),
        })),
        "Profile": object(&["region", "indicators", "warnings"], json!({
            "region": r("RegionDetail"), "indicators": array_of("Indicator"), "warnings": array_of("Warning"),
        })),
        "RegionValues": object(&["region", "series"], json!({
            "region": r("RegionSummary"),
            "value": {"oneOf": [{"type": "null"}, r("Cited")]},
            "rank": {"type": ["integer", "null"], "minimum": 1},
            "series": array_of("Cited"),
        })),
        "Comparison": object(&["dataset", "period", "period_basis", "regions", "derived", "warnings"], json!({
            "dataset": object(&["code", "title", "unit", "series"], json!({
                "code": {"type": "string"}, "title": {"type": "string"}, "unit": {"type": "string"},
                "unit_label": nullable("string"),
                "series": {"type": "object", "additionalProperties": {"type": "string"}},
            })),
            "period": nullable("string"),
            "period_basis": {"type": "string", "enum": ["requested", "latest_common", "latest_each"]},
            "regions": array_of("RegionValues"),
            "derived": array_of("Derived"),
            "warnings": array_of("Warning"),
        })),
        "CodeLabel": object(&["code"], json!({"code": {"type": "string"}, "label": nullable("string")})),
        "Periods": object(&[], json!({"first": nullable("string"), "last": nullable("string")})),
        "SnapshotInfo": object(&["id", "imported_at", "file_name", "file_sha256", "format"], json!({
            "id": {"type": "string"}, "imported_at": {"type": "string", "format": "date-time"},
            "file_name": {"type": "string"}, "file_sha256": {"type": "string"}, "format": {"type": "string"},
            "rows_in_file": {"type": "integer"}, "rows_added": {"type": "integer"},
            "rows_revised": {"type": "integer"}, "rows_unchanged": {"type": "integer"},
        })),
        "SourceInfo": object(&["publisher", "title", "license"], json!({
            "publisher": {"type": "string"}, "title": {"type": "string"}, "landing_url": nullable("string"),
            "license": {"type": "string"}, "origin": {"type": "object"}, "transformation": nullable("string"),
        })),
        "DatasetSummary": object(&["code", "title", "topic", "private", "units", "dimensions", "headline", "periods", "observations"], json!({
            "code": {"type": "string"}, "title": {"type": "string"}, "label": nullable("string"),
            "topic": {"type": "string"}, "private": {"type": "boolean"}, "nuts_edition": nullable("string"),
            "units": array_of("CodeLabel"),
            "dimensions": {"type": "array", "items": object(&["name", "values"], json!({"name": {"type": "string"}, "values": array_of("CodeLabel")}))},
            "headline": {"type": "object", "additionalProperties": {"type": "string"}},
            "periods": r("Periods"),
            "observations": {"type": "integer"},
            "latest_snapshot": {"oneOf": [{"type": "null"}, r("SnapshotInfo")]},
        })),
        "DatasetList": array_of("DatasetSummary"),
        "DatasetDetail": {"allOf": [r("DatasetSummary"), object(&["series", "snapshots"], json!({
            "series": {"type": "array", "items": object(&["unit", "dimensions", "headline"], json!({
                "unit": {"type": "string"},
                "dimensions": {"type": "object", "additionalProperties": {"type": "string"}},
                "headline": {"type": "boolean"},
                "observations": {"type": "integer"}, "regions": {"type": "integer"}, "periods": r("Periods"),
            }))},
            "snapshots": array_of("SnapshotInfo"),
            "source": {"oneOf": [{"type": "null"}, r("SourceInfo")]},
        }))]},
        "CitationDetail": object(&["id", "dataset", "region", "period", "value", "value_text", "unit", "dimensions", "flags", "snapshot", "location", "superseded_by", "current_citation", "how_to_verify"], json!({
            "id": {"type": "string"},
            "dataset": object(&["code", "title"], json!({"code": {"type": "string"}, "title": {"type": "string"}})),
            "region": object(&["code"], json!({"code": {"type": "string"}, "name": nullable("string"), "level": {"type": ["integer", "null"]}})),
            "period": {"type": "string"},
            "value": {"type": ["number", "null"]},
            "value_text": {"type": "string", "description": "The value exactly as printed in the source."},
            "unit": {"type": "string"},
            "dimensions": {"type": "object", "additionalProperties": {"type": "string"}},
            "flags": array_of("Flag"),
            "snapshot": r("SnapshotInfo"),
            "source": {"oneOf": [{"type": "null"}, r("SourceInfo")]},
            "location": object(&["line", "column"], json!({"line": {"type": "integer"}, "column": {"type": "string"}})),
            "superseded_by": nullable("string"),
            "current_citation": {"type": "string"},
            "how_to_verify": {"type": "string"},
        })),
        "Health": object(&["status"], json!({"status": {"type": "string", "const": "ok"}})),
        "Readiness": object(&["status", "schema_version", "datasets", "data_generation", "rate_limit_entries"], json!({
            "status": {"type": "string", "const": "ready"},
            "schema_version": {"type": "integer"},
            "datasets": {"type": "integer"},
            "data_generation": {"type": "integer"},
            "rate_limit_entries": {"type": "integer", "description": "Rate-limit buckets held in memory (bounded)."},
        })),
        "OpenApiDocument": {"type": "object", "description": "An OpenAPI 3.1 document."},
        "LoginRequest": {"type": "object", "additionalProperties": false, "required": ["email", "password"], "properties": {
            "email": {"type": "string", "format": "email"}, "password": {"type": "string"},
        }},
        "Account": object(&["id", "email", "display_name", "tier", "disabled", "created_at"], json!({
            "id": {"type": "integer"}, "email": {"type": "string"}, "display_name": {"type": "string"},
            "tier": {"type": "string", "enum": ["professional", "institutional"]},
            "disabled": {"type": "boolean"}, "created_at": {"type": "integer", "description": "unix milliseconds"},
        })),
        "Session": object(&["access_token", "token_type", "expires_in", "account"], json!({
            "access_token": {"type": "string", "description": "Send as `Authorization: Bearer`."},
            "token_type": {"type": "string", "const": "Bearer"},
            "expires_in": {"type": "integer", "description": "seconds"},
            "account": r("Account"),
        })),
        "ApiKey": object(&["key_id", "prefix", "name", "created_at", "status"], json!({
            "key_id": {"type": "string"}, "prefix": {"type": "string"}, "name": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "last_used_at": {"type": ["string", "null"], "format": "date-time"},
            "status": {"type": "string", "enum": ["active", "revoked"]},
            "revoked_at": {"type": ["string", "null"], "format": "date-time"},
        })),
        "ApiKeyList": array_of("ApiKey"),
        "CreateApiKey": {"type": "object", "additionalProperties": false, "required": ["name"], "properties": {
            "name": {"type": "string", "minLength": 1, "maxLength": 100},
        }},
        "CreatedApiKey": {"allOf": [r("ApiKey"), object(&["api_key", "note"], json!({
            "api_key": {"type": "string", "pattern": "^sk_service_[0-9A-Za-z]{46}$", "description": "Shown once."},
            "note": {"type": "string"},
        }))]},
        "CreateDataset": {"type": "object", "additionalProperties": false, "required": ["code", "title", "unit"], "properties": {
            "code": {"type": "string", "pattern": "^[a-z0-9_]{1,64}$"},
            "title": {"type": "string", "minLength": 1, "maxLength": 200},
            "unit": {"type": "string", "pattern": "^[A-Z0-9_]{1,32}$"},
            "dimensions": {"type": "array", "items": {"type": "string", "pattern": "^[a-z0-9_]{1,32}$"}},
            "topic": {"type": "string"},
            "description": {"type": "string"},
        }},
        "TidyCsv": {
            "type": "string",
            "description": "CSV with a header row. Columns, in any order: `nuts_code` (or `geo`), `period` (or `time`), `value`, and one column per dimension of the dataset; optional: `unit` (default: the dataset's unit), `flags` (Eurostat letters such as `p`, `e`), `dataset_code` and `nuts_level` (when present they must be this dataset and the code's level), `conf_status`, `src_line`.",
            "examples": ["nuts_code,period,value,sex\nDE21,2022,12.5,T\nDE22,2022,11,T\n"],
        },
        "ImportOutcome": object(&["dataset", "rows_in_file", "added", "revised", "unchanged"], json!({
            "dataset": {"type": "string"}, "file": {"type": "string"},
            "snapshot": {"type": ["string", "null"], "description": "Null when the data changed nothing."},
            "rows_in_file": {"type": "integer"}, "added": {"type": "integer"},
            "revised": {"type": "integer"}, "unchanged": {"type": "integer"},
        })),
        "BriefingRequest": {"type": "object", "additionalProperties": false, "required": ["region_nuts_code", "briefing_type"], "properties": {
            "region_nuts_code": {"type": "string"},
            "briefing_type": {"type": "string", "enum": crate::http::handlers::analytics::BRIEFING_TYPES},
        }},
        "Briefing": {"type": "object", "description": "A stored briefing; defined with the analytics release."},
        "CorrelationMatrix": {"type": "object", "description": "Defined with the analytics release."},
        "Usage": object(&["account_id", "tier", "limits_enabled", "daily_cap", "today", "buckets", "days"], json!({
            "account_id": {"type": "integer"},
            "tier": {"type": "string", "enum": ["professional", "institutional"]},
            "limits_enabled": {"type": "boolean"},
            "daily_cap": {"type": "integer", "description": "The tier's requests per UTC day, shared by the account's keys."},
            "today": object(&["day", "used", "remaining"], json!({"day": {"type": "string", "format": "date"}, "used": {"type": "integer"}, "remaining": {"type": "integer"}})),
            "buckets": {"type": "array", "items": object(&["policy", "limit", "window_secs", "used", "remaining", "reset_secs"], json!({
                "policy": {"type": "string"}, "limit": {"type": "integer"}, "window_secs": {"type": "integer"},
                "used": {"type": "integer"}, "remaining": {"type": "integer"},
                "reset_secs": {"type": "integer", "description": "Seconds until the bucket is full again (rolling windows) or the next UTC midnight (days)."},
            }))},
            "days": {"type": "array", "description": "The last 90 UTC days, oldest first.", "items": object(&["day", "used", "cap"], json!({
                "day": {"type": "string", "format": "date"}, "used": {"type": "integer"}, "cap": {"type": "integer"},
            }))},
        })),
        "CsvExport": {"type": "string", "description": "CSV: dataset_code,nuts_code,time,unit,<dimensions...>,value,flags,conf_status,citation_id"},
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_is_documented_with_resolvable_refs() {
        let doc = document("/api/v1/regional", &[("exportDataset".into(), 7)]);
        assert_eq!(doc["servers"][0]["url"], "/api/v1/regional");
        let export = &doc["paths"]["/export/bulk/{dataset_code}.csv"]["get"];
        assert_eq!(
            export["x-ratelimit-weight"], 7,
            "operator weights are documented"
        );
        for route in ROUTES {
            let op = &doc["paths"][route.path][route.method.as_str().to_ascii_lowercase()];
            if route.root {
                assert!(op.is_null(), "{} is outside the base URL", route.path);
            } else {
                assert_eq!(op["operationId"], route.doc.operation_id, "{}", route.path);
            }
        }
        let text = doc.to_string();
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        for part in text.split("#/components/schemas/").skip(1) {
            let name: String = part.chars().take_while(|c| c.is_alphanumeric()).collect();
            assert!(schemas.contains_key(&name), "dangling $ref {name:?}");
        }
    }
}
