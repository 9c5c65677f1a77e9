//! The component schemas of the OpenAPI document: one per answer and request type, and the
//! envelope's parts.

use serde_json::{Value, json};

use crate::http::error::ApiError;

pub fn r(name: &str) -> Value {
    json!({ "$ref": format!("#/components/schemas/{name}") })
}

pub fn nullable(schema: &str) -> Value {
    json!({ "type": [schema, "null"] })
}

pub fn array_of(name: &str) -> Value {
    json!({ "type": "array", "items": r(name) })
}

pub fn object(required: &[&str], properties: Value) -> Value {
    json!({ "type": "object", "required": required, "properties": properties })
}

/// `schema` with `example` (abridged from a real answer) as its JSON Schema `examples`.
fn with_example(mut schema: Value, example: Value) -> Value {
    schema["examples"] = json!([example]);
    schema
}

/// Abridged from `?nuts_code=DE&level=1&datasets=nama_10r_2gdp,demo_r_mlifexp` on the bundled
/// data.
fn matrix_example() -> Value {
    json!({
        "method": "pearson", "transform": "none", "basis": "cross_section", "level": 1, "min_n": 8, "period": null,
        "region": {"code": "DE", "name": "Deutschland", "level": 0, "country": "DE", "parent_code": null,
                   "classification": "NUTS", "nuts_editions": ["2021", "2024"], "in_classification": true, "name_national": "Deutschland"},
        "variables": [
            {"id": "nama_10r_3gdp", "dataset": "nama_10r_3gdp", "title": "Gross domestic product (GDP) at current market prices by NUTS 3 region",
             "series": {"freq": "A"}, "unit": "EUR_HAB", "series_choice": "headline", "period": "2022", "coverage": 16},
            {"id": "demo_r_mlifexp", "dataset": "demo_r_mlifexp", "title": "Life expectancy by age, sex and NUTS 2 region",
             "series": {"age": "Y_LT1", "sex": "T"}, "unit": "YR", "series_choice": "headline", "period": "2021", "coverage": 16},
        ],
        "cells": [{"x": "nama_10r_3gdp", "y": "demo_r_mlifexp", "n": 16, "status": "ok", "r": 0.5951675229321699,
                   "p_value": 0.015007803921566209, "ci95": [0.1410866710348494, 0.8423548327113022],
                   "leave_one_out": {"r_min": 0.5560179511986154, "r_max": 0.6957758341827014, "most_influential": "DE6", "r_without": 0.6957758341827014}}],
        "inputs": {
            "demo_r_mlifexp": [{"region": "DE1", "period": "2021", "value": 82.1, "citation": "cit_rofkkisgwoiazxattls7"}],
            "nama_10r_3gdp": [{"region": "DE1", "period": "2022", "value": 51300, "citation": "cit_me4qcndbvoxb7qk4sbvt"}],
        },
        "regions_used": ["DE1", "DE2", "DE3"],
        "regions_dropped": [],
        "caveats": [
            {"code": "ecological_inference", "message": "these correlations describe regions, not the people or firms in them: a relation between regional figures need not hold for individuals (ecological inference), and neither shows cause"},
            {"code": "small_n", "message": "1 cell on 10 to 29 regions: their intervals are wide, and a single one can move r far (see each cell's leave_one_out)",
             "details": {"cells": [{"x": "nama_10r_3gdp", "y": "demo_r_mlifexp", "n": 16}]}},
            {"code": "different_periods", "message": "the variables are taken at different periods: nama_10r_3gdp 2022, demo_r_mlifexp 2021"},
        ],
    })
}

/// Abridged from `{"region_nuts_code": "DE21", "briefing_type": "labour_market"}` on the
/// bundled data (the unemployment rate's section, to its first ranking; three of its claims, the
/// rank's inputs cut to two).
fn briefing_example() -> Value {
    json!({
        "id": "brf_01m84p3v6w2k9d1q7c5x8z0b4t", "briefing_type": "labour_market",
        "region": {"code": "DE21", "name": "Oberbayern", "level": 2},
        "title": "Labour market: Oberbayern (DE21)", "created_at": "2026-11-26T17:00:00Z",
        "sections": [{"heading": "Unemployment rate",
                      "text": "Unemployment rate in Oberbayern: 2.7 (Percentage) in 2024. The series breaks in 2020 and 2021 (break in time series), so it is compared only from 2022 on: it is 0.5 percentage points more than in 2022 (2.2). Of the 26 NUTS 2 regions of Deutschland with a reliable figure for 2024, Oberbayern has the third-lowest unemployment rate (tied with Mittelfranken)."}],
        "claims": [
            {"id": "c10", "display": "2.7", "value": 2.7, "kind": "direct", "citations": ["cit_cjrhjnnt2ajnlnkugdaw"]},
            {"id": "c12", "display": "0.5", "value": 0.5, "kind": "derived", "inputs": [{"citation": "cit_e4p7kiigh55ticewr2gz", "value": 2.2}, {"citation": "cit_cjrhjnnt2ajnlnkugdaw", "value": 2.7}], "derivation": "|b − a|, to the decimals of the inputs (a, b: the inputs in order)", "reads": "0.5 percentage points more", "operation": "difference"},
            {"id": "c14", "display": "third-lowest", "value": 3.0, "kind": "derived", "inputs": [{"citation": "cit_cjrhjnnt2ajnlnkugdaw", "value": 2.7}, {"citation": "cit_b7ohbzcpqme4m43mhxnd", "value": 3.2}], "derivation": "1 + the number of the other inputs lower than the first (rank, lowest first; ties share the better rank)", "operation": "rank_from_bottom"},
        ],
        "breaks": [{"dataset": "tgs00010", "period": "2020", "citation": "cit_3czg6wxkrfmoulmymn7m"},
                   {"dataset": "tgs00010", "period": "2021", "citation": "cit_ugipgqrqf6v4qgostlcz"}],
        "not_covered": [],
        "verification": {"status": "verified", "numbers_checked": 18, "claims_checked": 18},
        "generator": {"name": "deterministic", "version": 2},
    })
}

/// The component schemas of the API's answers and requests, and the envelope's parts (the
/// webhook events' are in `webhooks.rs`).
pub fn all() -> Value {
    let mut all = answers();
    let more = past_answers();
    let (Value::Object(all_map), Value::Object(more)) = (&mut all, more) else {
        unreachable!("both are JSON objects")
    };
    all_map.extend(more);
    all
}

/// The schemas of reads as of a moment and of a figure's revisions.
fn past_answers() -> Value {
    json!({
        "AsOfMeta": object(&["at", "basis", "datasets"], json!({
            "at": {"type": "string", "format": "date-time", "description": "The moment the answer was read as of (a date's end, or now for today's date)."},
            "basis": {"type": "string", "enum": ["imported", "published"], "description": "What the moment was compared with: each snapshot's import here, or Eurostat's publication of its data (its import where that is not known)."},
            "datasets": {"type": "array", "description": "The snapshot each dataset read was read as of.", "items": object(&["dataset", "snapshot", "imported_at", "published_at"], json!({
                "dataset": {"type": "string"},
                "snapshot": {"type": "string"},
                "imported_at": {"type": "string", "format": "date-time"},
                "published_at": {"type": ["string", "null"], "format": "date-time", "description": "When Eurostat published the snapshot's data (the end of its \"last update of data\" day, UTC, or its download if that came first: the date gives no hour); null where not known (the bundled extract, uploads)."},
            }))},
        })),
        "CitationRevisionList": array_of("CitationRevision"),
        "CitationRevision": object(&["id", "value", "value_text", "flags", "withdrawn", "snapshot", "imported_at", "published_at", "current", "is_current"], json!({
            "id": {"type": "string", "description": "The citation id of this value (or withdrawal)."},
            "value": {"type": ["number", "null"]},
            "value_text": {"type": "string", "description": "As published; empty for a withdrawal."},
            "flags": array_of("Flag"),
            "withdrawn": {"type": "boolean", "description": "A withdrawal: the whole-dataset file of its snapshot no longer held the observation."},
            "snapshot": {"type": "string", "description": "The snapshot that wrote it."},
            "imported_at": {"type": "string", "format": "date-time"},
            "published_at": {"type": ["string", "null"], "format": "date-time", "description": "When Eurostat published the snapshot's data; null where not known."},
            "current": {"type": "array", "description": "The stretches of time it was current in, in order: a value an identical file published again is current again from then.", "items": object(&["from", "until"], json!({
                "from": r("RevisionMoment"),
                "until": {"oneOf": [{"type": "null"}, r("RevisionMoment")], "description": "Null while it is current."},
            }))},
            "is_current": {"type": "boolean"},
        })),
        "RevisionMoment": object(&["snapshot", "imported_at", "published_at"], json!({
            "snapshot": {"type": "string"},
            "imported_at": {"type": "string", "format": "date-time"},
            "published_at": {"type": ["string", "null"], "format": "date-time"},
        })),
    })
}

fn answers() -> Value {
    let codes: Vec<&str> = ApiError::CODES.iter().map(|(c, _)| *c).collect();
    json!({
        "Meta": object(&["request_id", "api_version", "generated_at", "access"], json!({
            "request_id": {"type": "string"},
            "api_version": {"type": "string", "const": "v1"},
            "generated_at": {"type": "string", "format": "date-time"},
            "access": {"type": "string", "enum": ["public", "account"], "description": "public: only public data was used"},
            "snapshots": {"type": "array", "items": {"type": "string"}, "description": "Snapshots (imports) the data comes from."},
            "citations": {"type": "object", "additionalProperties": r("CitationRef"), "description": "Every citation id used in data, in short form."},
            "as_of": r("AsOfMeta"),
        })),
        "ListMeta": {"allOf": [r("Meta"), object(&["limit", "next_cursor"], json!({
            "limit": {"type": "integer", "description": "Items per page, as asked or the list's default."},
            "next_cursor": {"type": ["string", "null"], "description": "Pass as `cursor` for the next page; null on the last."},
            "total": {"type": "integer", "description": "Items in the whole list (where counting them is cheap)."},
        }))]},
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
        "CitationRef": {"oneOf": [r("RowCitationRef"), r("SourceCitationRef")]},
        "RowCitationRef": object(&["dataset", "region", "period"], json!({
            "dataset": {"type": "string"}, "region": {"type": "string"}, "period": {"type": "string"},
            "source_url": nullable("string"),
        })),
        "SourceCitationRef": {"type": "object", "required": ["kind", "file"], "description": "A region's row of the bundled classification, or a dataset's snapshot.", "properties": {
            "kind": {"type": "string", "enum": ["classification", "snapshot"]},
            "region": {"type": "string", "description": "classification: the region's code."},
            "dataset": {"type": "string", "description": "snapshot: the dataset's code."},
            "file": {"type": "string"},
            "source_url": nullable("string"),
        }},
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
            "citation": {"type": ["string", "null"], "description": "The row of the bundled classification (nuts_regions.csv; for an aggregate, catalogue.json) its names, level and parent come from; null for a code seen only in data, whose level, country and parent are derived from the code."},
        })),
        "RegionDetail": {"allOf": [r("RegionSummary"), object(&["children"], json!({
            "parent": {"oneOf": [{"type": "null"}, object(&["code"], json!({"code": {"type": "string"}, "name": nullable("string"), "citation": {"type": ["string", "null"], "description": "The classification row the parent's name comes from."}}))]},
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
            "rows_withdrawn": {"type": "integer", "description": "Rows of the dataset the snapshot's file no longer held (a whole-dataset fetch from Eurostat), withdrawn; 0 for any other import."},
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
            "data_obtained": {"oneOf": [{"type": "null"}, object(&["at", "basis"], json!({
                "at": {"type": "string", "format": "date-time"},
                "basis": {"type": "string", "enum": ["downloaded", "no_later_than"], "description": "`downloaded`: fetched from Eurostat at `at`. `no_later_than`: a file of the bundled extract, copied from a repository whose commit of `at` held it; its data may be older (the file carries no date of its own)."},
                "eurostat_last_update": {"type": ["string", "null"], "description": "Eurostat's last update of the dataset's data when it was fetched (`yyyy-mm-dd`); null for the bundled extract."},
            }))], "description": "How old the data are, as the source of the latest snapshot says (a later fetch of the same data makes no snapshot and leaves it as it was); null for uploads and files an operator imported."},
            "citation": {"type": ["string", "null"], "description": "The latest snapshot, which the description, periods and counts are of."},
        })),
        "DatasetList": array_of("DatasetSummary"),
        "RowChange": object(&["change", "region", "period", "unit", "dimensions", "value", "flags", "previous_value", "previous_flags", "citation_id", "replaces"], json!({
            "change": {"type": "string", "enum": ["added", "revised", "withdrawn"], "description": "`withdrawn`: a whole-dataset fetch from Eurostat no longer held the row (`replaces`), which its citation still resolves to, saying so; `added` with a `replaces`: the value is published again after a withdrawal."},
            "region": {"type": "string"}, "period": {"type": "string"}, "unit": {"type": "string"},
            "dimensions": {"type": "object", "additionalProperties": {"type": "string"}},
            "value": {"type": ["string", "null"], "description": "As published (flags apart); null for a withdrawal."},
            "flags": {"type": ["string", "null"], "description": "Its flags as published (`p` provisional, `e` estimated, `b` break in series, ...): a revision may change only them. Null for a withdrawal."},
            "previous_value": {"type": ["string", "null"], "description": "For a revision or a withdrawal: the value it replaces, as published."},
            "previous_flags": {"type": ["string", "null"], "description": "For a revision or a withdrawal: the flags of the value it replaces."},
            "citation_id": {"type": "string", "description": "The row written: for a withdrawal, the withdrawal's own citation."},
            "replaces": {"type": ["string", "null"], "description": "For a revision or a withdrawal: the citation of the value it supersedes; for a value published again, the withdrawal's."},
        })),
        "DatasetChange": {"allOf": [r("RowChange"), object(&["snapshot"], json!({
            "snapshot": {"type": "string", "description": "The snapshot that wrote the row (`snp_...`)."},
        }))]},
        "DatasetChangeList": array_of("DatasetChange"),
        "CitedSnapshot": {"allOf": [r("SnapshotInfo"), object(&["citation"], json!({
            "citation": {"type": ["string", "null"], "description": "The snapshot's citation: it resolves to the snapshot and its source."},
        }))]},
        "DatasetSnapshotList": array_of("CitedSnapshot"),
        "DatasetDetail": {"allOf": [r("DatasetSummary"), object(&["series", "snapshots", "snapshot_count"], json!({
            "series": {"type": "array", "items": object(&["unit", "dimensions", "headline"], json!({
                "unit": {"type": "string"},
                "dimensions": {"type": "object", "additionalProperties": {"type": "string"}},
                "headline": {"type": "boolean"},
                "observations": {"type": "integer"}, "regions": {"type": "integer"}, "periods": r("Periods"),
            }))},
            "snapshots": {"type": "array", "items": r("CitedSnapshot"), "description": "The newest snapshots, 10 at most: `GET /datasets/{dataset_code}/snapshots` pages them all."},
            "snapshot_count": {"type": "integer", "description": "How many snapshots the dataset has."},
            "source": {"oneOf": [{"type": "null"}, r("SourceInfo")]},
            "strict_regions": {"type": "boolean", "description": "An account's own dataset only: its uploads refuse region codes of no known region."},
        }))]},
        "CitationDetail": object(&["id", "dataset", "region", "period", "value", "value_text", "unit", "dimensions", "flags", "snapshot", "location", "superseded_by", "current_citation", "withdrawn_in", "how_to_verify", "links"], json!({
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
            "location": {"oneOf": [{"type": "null"}, r("Location")], "description": "Where the file shows the value; null for a withdrawal (the file does not hold it)."},
            "superseded_by": nullable("string"),
            "current_citation": {"type": "string"},
            "withdrawn_in": {"type": ["string", "null"], "description": "The snapshot (`snp_...`) whose file, a whole-dataset fetch from Eurostat, no longer held this observation, when its revisions end in a withdrawal (`current_citation` is then the withdrawal, which has no value); null while the observation is published."},
            "how_to_verify": {"type": "string"},
            "links": object(&["revisions"], json!({"revisions": {"type": "string", "description": "Every value the same observation has had: `GET /citations/{citation_id}/revisions`."}})),
        })),
        "Location": object(&["line", "column"], json!({"line": {"type": "integer", "description": "The line of the file (the first is 1)."}, "column": {"type": "string", "description": "Which column of that line holds the value."}})),
        "Citation": {"oneOf": [r("CitationDetail"), r("ClassificationCitation"), r("SnapshotCitation")]},
        "ClassificationCitation": object(&["id", "kind", "region", "file", "fields", "how_to_verify"], json!({
            "id": {"type": "string"},
            "kind": {"type": "string", "const": "classification"},
            "region": r("RegionSummary"),
            "file": object(&["name", "sha256", "line"], json!({
                "name": {"type": "string", "description": "nuts_regions.csv, or catalogue.json for an aggregate: files regintel ships in data/."},
                "sha256": {"type": "string"}, "line": {"type": "integer", "description": "1-based; the header is line 1."},
            })),
            "fields": {"type": "array", "items": object(&["field", "column", "value"], json!({
                "field": {"type": "string"}, "column": {"type": "string"}, "value": {},
                "source": {"type": "string", "description": "Where the row says the value comes from."},
                "derived": {"type": "string", "description": "How the value follows from the region's code."},
            }))},
            "source": {"oneOf": [{"type": "null"}, r("SourceInfo")]},
            "how_to_verify": {"type": "string"},
        })),
        "SnapshotCitation": object(&["id", "kind", "dataset", "snapshot", "how_to_verify"], json!({
            "id": {"type": "string"},
            "kind": {"type": "string", "const": "snapshot"},
            "dataset": object(&["code", "title"], json!({"code": {"type": "string"}, "title": {"type": "string"}})),
            "snapshot": r("SnapshotInfo"),
            "source": {"oneOf": [{"type": "null"}, r("SourceInfo")]},
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
            "disabled": {"type": "boolean"}, "created_at": {"type": "string", "format": "date-time"},
        })),
        "Session": object(&["access_token", "token_type", "expires_in", "account"], json!({
            "access_token": {"type": "string", "description": "Send as `Authorization: Bearer`."},
            "token_type": {"type": "string", "const": "Bearer"},
            "expires_in": {"type": "integer", "description": "seconds"},
            "account": r("Account"),
        })),
        "ApiKey": object(&["id", "prefix", "name", "created_at", "status"], json!({
            "id": {"type": "string"}, "prefix": {"type": "string"}, "name": {"type": "string"},
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
            "unit": {"type": "string", "pattern": "^[A-Za-z0-9_]{1,32}$", "description": "A code such as PC or EUR_HAB; stored in capitals (pc is PC)."},
            "dimensions": {"type": "array", "maxItems": crate::store::import::MAX_DIMENSIONS, "items": {"type": "string", "pattern": "^[a-z0-9_]{1,32}$", "not": {"enum": crate::file_formats::tidy::KNOWN}}},
            "topic": {"type": "string", "minLength": 1, "maxLength": 50},
            "description": {"type": "string", "minLength": 1, "maxLength": 200, "description": "A short name of the measure; a briefing heads its section with it (else with the title)."},
            "strict_regions": {"type": "boolean", "default": false, "description": "Uploads refuse region codes of no known region (but the account's own) instead of making them the account's own; an upload's `strict_regions` parameter overrides it."},
        }},
        "TidyCsv": {
            "type": "string",
            "description": "CSV with a header row. Columns, in any order: `nuts_code` (or `geo`), `period` (or `time`), `value`, and one column per dimension of the dataset; optional: `unit` (default: the dataset's unit), `flags` (Eurostat letters such as `p`, `e`, each at most once), `dataset_code` and `nuts_level` (when present they must be this dataset and the code's level), `conf_status`, `src_line`. Region codes are 1 to 16 letters, digits or `_` (any case: a known code is stored as published), periods a year (`2023`), quarter (`2023-Q1` or `2023Q1`), semester (`2023-S1` or `2023S1`) or month (`2023-01` or `2023M01`), stored in the first form, dimension values 1 to 64 of letters, digits, `_ - @ $`.",
            "examples": ["nuts_code,period,value,sex\nDE21,2022,12.5,T\nDE22,2022,11,T\n"],
        },
        "ImportOutcome": object(&["dataset", "rows_in_file", "added", "revised", "unchanged", "new_regions"], json!({
            "dataset": {"type": "string"}, "file": {"type": "string"},
            "snapshot": {"type": ["string", "null"], "description": "Null when the data changed nothing."},
            "rows_in_file": {"type": "integer"}, "added": {"type": "integer"},
            "revised": {"type": "integer"}, "unchanged": {"type": "integer"},
            "new_regions": {"type": "array", "description": "Codes of no known region the body named, which it made regions of the account's own.", "items": object(&["code", "suggestions"], json!({
                "code": {"type": "string"},
                "suggestions": {"type": "array", "items": {"type": "string"}, "maxItems": 5, "description": "Known codes within two edits of it, closest first: what a typo may have meant."},
            }))},
        })),
        "BriefingRequest": {"type": "object", "additionalProperties": false, "required": ["region_nuts_code", "briefing_type"], "properties": {
            "region_nuts_code": {"type": "string"},
            "briefing_type": {"type": "string", "enum": crate::domain::briefings::TYPES},
            "as_of": {"type": "string", "description": "Write from the data as of this moment: an RFC 3339 date-time, or a date meaning the end of that day UTC (today's: now); not later than now. As the `as_of` of the reads."},
            "as_of_basis": {"type": "string", "enum": ["imported", "published"], "default": "imported", "description": "What `as_of` is compared with, as for the reads."},
        }},
        "Claim": object(&["id", "display", "value", "kind"], json!({
            "id": {"type": "string"},
            "display": {"type": "string", "description": "The number exactly as the text writes it; for a rank, its phrase (\"second-highest\")."},
            "value": {"type": "number"},
            "kind": {"type": "string", "enum": ["direct", "derived"]},
            "citations": {"type": "array", "items": {"type": "string"}, "description": "Direct: the row the value is."},
            "inputs": {"type": "array", "items": object(&["citation", "value"], json!({"citation": {"type": "string"}, "value": {"type": "number"}})), "description": "Derived: the cited values, in the operation's order."},
            "inputs_of": {"type": "string", "description": "Derived: the id of the claim whose inputs (and flags) are this one's too, in place of `inputs`: the count of the regions a rank is among."},
            "operation": {"type": "string", "enum": crate::domain::briefings::OPERATIONS},
            "reads": {"type": "string", "description": "How the text must state it when more than the display (\"2.1 % more\", \"9.7 times\"); a direction word at its end is checked against the inputs."},
            "derivation": {"type": "string", "description": "The operation's formula in words."},
            "flags": {"type": "array", "description": "The flags of every value in the claim's window: its rows, and for a change over time the values between them.", "items": object(&["citation", "period", "code", "meaning"], json!({
                "citation": {"type": "string"}, "period": {"type": "string"}, "code": {"type": "string"}, "meaning": {"type": "string"},
            }))},
        })),
        "Briefing": with_example(object(&["id", "region", "briefing_type", "title", "created_at", "sections", "claims", "not_covered", "verification", "generator"], json!({
            "id": {"type": "string"},
            "region": object(&["code"], json!({"code": {"type": "string"}, "name": nullable("string"), "level": {"type": ["integer", "null"]}})),
            "briefing_type": {"type": "string", "enum": crate::domain::briefings::TYPES},
            "title": {"type": "string"},
            "created_at": {"type": "string", "format": "date-time"},
            "sections": {"type": "array", "items": object(&["heading", "text"], json!({"heading": {"type": "string"}, "text": {"type": "string"}}))},
            "claims": array_of("Claim"),
            "breaks": {"type": "array", "description": "The breaks in series the text names (a value flagged b), each with its row.", "items": object(&["dataset", "period", "citation"], json!({
                "dataset": {"type": "string"}, "period": {"type": "string"}, "citation": {"type": "string"},
            }))},
            "not_covered": {"type": "array", "items": {"type": "string"}, "description": "Series of the briefing's topics without a value for the region."},
            "verification": object(&["status", "numbers_checked", "claims_checked"], json!({
                "status": {"type": "string", "enum": ["verified"]},
                "numbers_checked": {"type": "integer"}, "claims_checked": {"type": "integer"},
            })),
            "generator": object(&["name", "version"], json!({
                "name": {"type": "string", "enum": ["deterministic", "model"], "description": "Who wrote the text: regintel's own writer, or the configured model server."},
                "version": {"type": "integer", "description": "Version of regintel's writer, whose facts and claims the text states."},
                "model": {"type": "string", "description": "The model that wrote the text, or whose text was refused."},
                "fallback_reason": {"type": "string", "description": "Why the model's text was not used; the deterministic text stands."},
            })),
            "revisions": object(&["any_superseded", "superseded"], json!({
                "any_superseded": {"type": "boolean"},
                "superseded": {"type": "array", "items": object(&["citation", "current_citation"], json!({"citation": {"type": "string"}, "current_citation": {"type": "string", "description": "The value that stands now, or the withdrawal when the observation was withdrawn."}, "withdrawn_in": {"type": "string", "description": "The snapshot whose whole-dataset file no longer held the observation; absent while it is published."}}))},
            })),
            "as_of": object(&["at", "basis"], json!({"at": {"type": "string", "format": "date-time"}, "basis": {"type": "string", "enum": ["imported", "published"]}})),
        })), briefing_example()),
        "BriefingList": {"type": "array", "items": object(&["id", "region_code", "briefing_type", "title", "created_at"], json!({
            "id": {"type": "string"}, "region_code": {"type": "string"},
            "briefing_type": {"type": "string", "enum": crate::domain::briefings::TYPES},
            "title": {"type": "string"}, "created_at": {"type": "string", "format": "date-time"},
        }))},
        "CorrelationMatrix": with_example(object(&["method", "transform", "basis", "level", "region", "min_n", "period", "variables", "cells", "inputs", "regions_used", "regions_dropped", "caveats"], json!({
            "method": {"type": "string", "enum": ["pearson", "spearman"]},
            "transform": {"type": "string", "enum": ["none", "log"], "description": "`log`: the cells correlate the natural logarithms of the inputs' values."},
            "basis": {"type": "string", "enum": ["cross_section", "time_series"]},
            "level": {"type": ["integer", "null"], "description": "Level of the regions correlated (over time: the region's own)."},
            "region": r("RegionSummary"),
            "min_n": {"type": "integer"},
            "period": {"type": ["string", "null"], "description": "The period asked for, taken for every variable."},
            "variables": {"type": "array", "items": object(&["id", "dataset", "title", "series", "unit", "series_choice", "period", "coverage"], json!({
                "id": {"type": "string", "description": "Names the variable in cells and inputs (the dataset code)."},
                "dataset": {"type": "string"}, "title": {"type": "string"},
                "series": {"type": "object", "additionalProperties": {"type": "string"}, "description": "Dimension codes of the series (without the unit)."},
                "unit": {"type": "string"},
                "series_choice": {"type": "string", "enum": ["headline", "requested", "rate_instead_of_total"], "description": "The dataset's headline series, the one named in `series`, or a rate in place of a headline series that is a total."},
                "period": {"type": ["string", "null"], "description": "Cross-section: the period taken. Over time: null."},
                "coverage": {"type": "integer", "description": "Values usable (regions, or periods over time)."},
            }))},
            "cells": {"type": "array", "description": "Each pair of variables once.", "items": object(&["x", "y", "n", "status"], json!({
                "x": {"type": "string"}, "y": {"type": "string"},
                "n": {"type": "integer", "description": "Regions (or periods) with a usable value of both."},
                "status": {"type": "string", "enum": ["ok", "insufficient_data", "constant_input", "not_computable"]},
                "reason": {"type": "string", "description": "not_computable: which value or intermediate result is not a finite number."},
                "r": {"type": "number", "minimum": -1, "maximum": 1},
                "p_value": {"type": "number", "minimum": 0, "maximum": 1, "description": "Two-sided."},
                "ci95": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2, "description": "95 % interval; absent below 4 pairs."},
                "leave_one_out": object(&["r_min", "r_max", "most_influential", "r_without"], json!({
                    "r_min": {"type": "number"}, "r_max": {"type": "number"},
                    "most_influential": {"type": "string", "description": "The region (over time: the period) whose leaving out moves r most."},
                    "r_without": {"type": "number", "description": "r without it."},
                })),
            }))},
            "inputs": {"type": "object", "description": "Per variable id, every value used, as published.", "additionalProperties": {"type": "array", "items": object(&["region", "period", "value", "citation"], json!({
                "region": {"type": "string"}, "period": {"type": "string"}, "value": {"type": "number"}, "citation": {"type": "string"},
            }))}},
            "regions_used": {"type": "array", "items": {"type": "string"}},
            "regions_dropped": {"type": "array", "items": object(&["code", "variable", "reason"], json!({
                "code": {"type": "string"}, "variable": {"type": "string"},
                "period": {"type": "string", "description": "Over time: the period left out."},
                "reason": {"type": "string", "enum": ["missing", "confidential", "flagged", "non_positive", "break_in_series", "before_break"]},
            }))},
            "caveats": {"type": "array", "items": object(&["code", "message"], json!({
                "code": {"type": "string"},
                "message": {"type": "string"},
                "details": {"type": "object", "description": "The figures behind the caveat: the cells or variables concerned and their numbers."},
            }))},
        })), matrix_example()),
        "Usage": object(&["account_id", "tier", "limits_enabled", "daily_cap", "today", "buckets", "keys", "days"], json!({
            "account_id": {"type": "integer"},
            "tier": {"type": "string", "enum": ["professional", "institutional"]},
            "limits_enabled": {"type": "boolean"},
            "daily_cap": {"type": "integer", "description": "The tier's requests per UTC day, shared by the account's keys."},
            "today": object(&["day", "used", "remaining"], json!({"day": {"type": "string", "format": "date"}, "used": {"type": "integer"}, "remaining": {"type": "integer"}})),
            "buckets": {"type": "array", "description": "The caller's buckets (the key's, or the browser sessions') and the account's day.", "items": {"$ref": "#/components/schemas/Bucket"}},
            "keys": {"type": "array", "description": "With a session token: each active key's own buckets. Empty for a key, and when rate limits are off.", "items": object(&["id", "name", "buckets"], json!({
                "id": {"type": "string"}, "name": {"type": "string"},
                "buckets": {"type": "array", "items": {"$ref": "#/components/schemas/Bucket"}},
            }))},
            "days": {"type": "array", "description": "The last 90 UTC days, oldest first.", "items": object(&["day", "used", "cap"], json!({
                "day": {"type": "string", "format": "date"}, "used": {"type": "integer"}, "cap": {"type": "integer"},
            }))},
        })),
        "Bucket": object(&["policy", "limit", "window_secs", "used", "remaining", "reset_secs"], json!({
            "policy": {"type": "string"}, "limit": {"type": "integer"}, "window_secs": {"type": "integer"},
            "used": {"type": "integer"}, "remaining": {"type": "integer"},
            "reset_secs": {"type": "integer", "description": "Seconds until the bucket is full again (rolling windows) or the next UTC midnight (days)."},
        })),
        "CsvExport": {"type": "string", "description": "CSV: dataset_code,nuts_code,region_name,nuts_level,time,unit,<dimensions...>,value,flags,conf_status,citation_id"},
        "CsvwMetadata": object(&["@context", "url", "tableSchema"], json!({
            "@context": {"const": "http://www.w3.org/ns/csvw"},
            "url": {"type": "string", "description": "The export, relative to this document."},
            "dc:title": {"type": "string"}, "dc:license": nullable("string"), "dc:source": nullable("string"),
            "tableSchema": object(&["columns"], json!({
                "columns": {"type": "array", "items": object(&["name", "titles", "datatype"], json!({
                    "name": {"type": "string"}, "titles": {"type": "string"}, "datatype": {"type": "string"},
                    "dc:description": {"type": "string"},
                }))},
                "primaryKey": {"type": "string"},
            })),
            "notes": {"type": "array", "items": {"type": "object"}, "description": "Row count, units, flags, the latest snapshot; `as_of` (as `meta.as_of`) when read as of a moment."},
        })),
    })
}
