//! The OpenAPI text of every operation of the route table, under its operation id: summary,
//! description, parameters, request and answer schemas, and the error codes it can answer beyond
//! the ones every route can. The runtime facts (method, path, access, body kind, weight) stay in
//! the route table.

use crate::http::routes::Route;

/// The OpenAPI text of one operation of the route table.
pub struct Operation {
    /// The route's operation id.
    pub id: &'static str,
    pub tag: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    pub params: &'static [Param],
    /// Component schema of the request body, if it takes one.
    pub request: Option<&'static str>,
    /// Component schema of the envelope's `data` (or of the whole body for raw documents);
    /// empty for 204 answers.
    pub schema: &'static str,
    /// Error codes (see `ApiError::CODES`) this route can answer beyond the ones every route can.
    pub errors: &'static [&'static str],
    /// Status of a successful answer (200, 201 created, 204 no content).
    pub success: u16,
    /// Media type when the body is a document itself (OpenAPI, CSV), not an envelope.
    pub raw: Option<&'static str>,
}

pub struct Param {
    pub name: &'static str,
    pub location: Location,
    pub required: bool,
    /// JSON Schema of the value.
    pub schema: &'static str,
    pub description: &'static str,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Location {
    Path,
    Query,
}

/// Error codes any route can answer.
pub const COMMON_ERRORS: &[&str] = &[
    // Every handler refuses query parameters it does not know.
    "invalid_parameter",
    "invalid_request",
    "invalid_credential",
    "rate_limit_exceeded",
    "payload_too_large",
    "internal",
    "unavailable",
];

const REGION_CODE: Param = Param {
    name: "region_code",
    location: Location::Path,
    required: true,
    schema: r#"{"type":"string","pattern":"^[A-Za-z0-9_]{1,16}$","examples":["DE21"]}"#,
    description: "Region code as published by Eurostat: a NUTS code (DE, DE2, DE21, DE212), a code of an earlier NUTS edition, or an aggregate such as EU27_2020.",
};

const KEY_ID: Param = Param {
    name: "key_id",
    location: Location::Path,
    required: true,
    schema: r#"{"type":"string","pattern":"^[0-9A-Za-z]{8}$"}"#,
    description: "The 8 characters after sk_service_ (shown in key lists).",
};

const DATASET_CODE: Param = Param {
    name: "dataset_code",
    location: Location::Path,
    required: true,
    schema: r#"{"type":"string","examples":["tgs00010"]}"#,
    description: "Dataset code.",
};

/// Every operation below the base path, in the route table's order.
pub static OPERATIONS: &[Operation] = &[
    Operation {
        id: "listRegions",
        tag: "regions",
        summary: "List and search regions",
        description: "All regions of the NUTS 2021 and 2024 classifications, the statistical regions of EFTA and candidate countries, UK NUTS 2016 codes, and codes that appear only in data (earlier NUTS editions, marked `historical`; aggregates such as EU27_2020). Ordered by code; page with `after`.",
        params: &[
            Param {
                name: "level",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":0,"maximum":3}"#,
                description: "NUTS level: 0 country, 1, 2 or 3.",
            },
            Param {
                name: "country",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","pattern":"^[A-Za-z]{2}$","examples":["DE"]}"#,
                description: "Two-letter country code as used by Eurostat (EL for Greece).",
            },
            Param {
                name: "q",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","minLength":1,"maxLength":100}"#,
                description: "Case-insensitive text found in the code, the Latin name or the national name.",
            },
            Param {
                name: "limit",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":1,"maximum":1000,"default":100}"#,
                description: "Regions per page.",
            },
            Param {
                name: "after",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string"}"#,
                description: "Cursor: `meta.next_after` of the previous page.",
            },
        ],
        request: None,
        schema: "RegionList",
        errors: &["invalid_parameter"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "getRegion",
        tag: "regions",
        summary: "One region",
        description: "Code, names, level, country, parent, children and the NUTS editions that contain the code.",
        params: &[REGION_CODE],
        request: None,
        schema: "RegionDetail",
        errors: &["unknown_region"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "getRegionProfile",
        tag: "regions",
        summary: "Region profile",
        description: "The region and, for every dataset with data for it, the headline series (see `GET /datasets`) with its latest value and full history. Every value carries a citation that resolves through `GET /citations/{citation_id}`; flags are explained; warnings say where the code or a dataset's NUTS edition calls for care.",
        params: &[REGION_CODE],
        request: None,
        schema: "Profile",
        errors: &["unknown_region"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "compareRegions",
        tag: "regions",
        summary: "Compare regions",
        description: "One series of one dataset for 2 to 50 regions: each region's series, its value at the latest period all regions have (or at `period`), its rank, and differences and ratios against the first region, each with the citations of its inputs. Warnings flag different NUTS levels or editions, missing values and flagged values (b, p, e, u, c, d, r). The series is the dataset's headline series; any further query parameter named after a dimension of the dataset (or `unit`) selects another value of it, e.g. `sex=F`.",
        params: &[
            Param {
                name: "regions",
                location: Location::Query,
                required: true,
                schema: r#"{"type":"string","pattern":"^[A-Za-z0-9_]+(,[A-Za-z0-9_]+){1,49}$","examples":["DE21,FR10,ITC4"]}"#,
                description: "2 to 50 comma-separated region codes; the first is the reference for differences and ratios.",
            },
            Param {
                name: "dataset",
                location: Location::Query,
                required: true,
                schema: r#"{"type":"string","examples":["demo_r_pjangrp3"]}"#,
                description: "Dataset code (see `GET /datasets`).",
            },
            Param {
                name: "period",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","examples":["2021"]}"#,
                description: "Compare at this period instead of the latest common one.",
            },
            Param {
                name: "unit",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","examples":["MIO_EUR"]}"#,
                description: "Unit instead of the headline unit. Other dimension filters (sex, age, ...) work the same way and are listed per dataset by `GET /datasets/{dataset_code}`.",
            },
        ],
        request: None,
        schema: "Comparison",
        errors: &["invalid_parameter", "unknown_region", "unknown_dataset"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "listDatasets",
        tag: "datasets",
        summary: "List datasets",
        description: "Every dataset the caller can see: title, topic, units, dimensions, the headline series profiles show, periods covered, number of current observations and the latest snapshot.",
        params: &[],
        request: None,
        schema: "DatasetList",
        errors: &["invalid_parameter"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "getDataset",
        tag: "datasets",
        summary: "One dataset",
        description: "As in the list, plus every series (unit and dimension values) with its coverage, every snapshot (import) newest first, and the source with its licence.",
        params: &[DATASET_CODE],
        request: None,
        schema: "DatasetDetail",
        errors: &["unknown_dataset"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "getCitation",
        tag: "citations",
        summary: "Resolve a citation",
        description: "The primary row behind a number: value as published, unit, dimensions, flags with their meanings, the snapshot it was imported in (time, file SHA-256), the source (publisher, title, landing page, licence, origin), the line and column of the original file, how to verify it by hand, and, if a later import revised the value, the citation that supersedes it. Citations resolve forever.",
        params: &[Param {
            name: "citation_id",
            location: Location::Path,
            required: true,
            schema: r#"{"type":"string","pattern":"^cit_[a-z2-7]{20}$"}"#,
            description: "Citation id.",
        }],
        request: None,
        schema: "CitationDetail",
        errors: &["not_found"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "login",
        tag: "account",
        summary: "Sign in",
        description: "Email and password (argon2id) give a session token (HS256 JWT, 15 minutes) for `Authorization: Bearer`, used by the account area and the account API. A wrong email and a wrong password answer alike. After 5 failures for an email from one client address, further attempts from there answer 429 for a doubling wait (up to 15 minutes); after 100 failures for an email from anywhere, every attempt does. Successful logins are limited per account (30 an hour by default, `account-logins`).",
        params: &[],
        request: Some("LoginRequest"),
        schema: "Session",
        errors: &[
            "validation_failed",
            "unsupported_media_type",
            "request_timeout",
            "rate_limit_exceeded",
        ],
        success: 200,
        raw: None,
    },
    Operation {
        id: "logout",
        tag: "account",
        summary: "Sign out",
        description: "Ends the session at once: its token is refused from the next request on.",
        params: &[],
        request: None,
        schema: "",
        errors: &[],
        success: 204,
        raw: None,
    },
    Operation {
        id: "listApiKeys",
        tag: "account",
        summary: "The account's API keys",
        description: "Key id, name, creation and last use (recorded at most once a minute), and status (active or revoked); never the key itself, which is shown once at creation.",
        params: &[],
        request: None,
        schema: "ApiKeyList",
        errors: &[],
        success: 200,
        raw: None,
    },
    Operation {
        id: "createApiKey",
        tag: "account",
        summary: "Create an API key",
        description: "Returns the key (`sk_service_` + key id + secret + checksum) once, uncompressed and with `Cache-Control: no-store`; only its HMAC is stored. Professional accounts hold 1 active key, institutional 10; one more answers 409 `key_limit_reached`. An account creates at most 10 keys an hour by default (429, `account-key-creations`).",
        params: &[],
        request: Some("CreateApiKey"),
        schema: "CreatedApiKey",
        errors: &[
            "validation_failed",
            "unsupported_media_type",
            "request_timeout",
            "key_limit_reached",
        ],
        success: 201,
        raw: None,
    },
    Operation {
        id: "revokeApiKey",
        tag: "account",
        summary: "Revoke an API key",
        description: "Takes effect on the next request. Another account's key id answers 404, like a missing one.",
        params: &[KEY_ID],
        request: None,
        schema: "",
        errors: &["not_found"],
        success: 204,
        raw: None,
    },
    Operation {
        id: "createDataset",
        tag: "datasets",
        summary: "Create a private dataset",
        description: "A dataset only the calling account sees: code, title, unit and up to 32 dimension names (not the names the CSV format gives a meaning: geo, dataset_code, nuts_code, nuts_level, time, value, unit, flags, conf_status, src_line). Load its data with `PUT /datasets/{dataset_code}/data`. It then appears in this account's profiles, comparisons, dataset lists and citations, and nowhere else. An account has at most 100 private datasets (409 `conflict`).",
        params: &[],
        request: Some("CreateDataset"),
        schema: "DatasetDetail",
        errors: &[
            "validation_failed",
            "unsupported_media_type",
            "request_timeout",
            "conflict",
        ],
        success: 201,
        raw: None,
    },
    Operation {
        id: "putDatasetData",
        tag: "datasets",
        summary: "Load a private dataset's data",
        description: "A CSV body (`text/csv`, or the file's bytes as `application/octet-stream`) in the form of the `TidyCsv` schema: at least `nuts_code,period,value` and a column per dimension of the dataset. The full form of regintel's data/ directory is accepted as it is. The whole body is validated before anything is written; problems are listed with line and reason (422). The load is a snapshot: unchanged rows keep their citations, revised ones are superseded. An account uploads one body at a time (a second concurrent upload answers 429 `account-uploads`; all upload slots busy answers 503), and the body must arrive within the body timeout (408).",
        params: &[DATASET_CODE],
        request: Some("TidyCsv"),
        schema: "ImportOutcome",
        errors: &[
            "unknown_dataset",
            "validation_failed",
            "unsupported_media_type",
            "request_timeout",
        ],
        success: 200,
        raw: None,
    },
    Operation {
        id: "createBriefing",
        tag: "analytics",
        summary: "AI briefing for a region",
        description: "Institutional tier. Writes a briefing about the region and stores it for the account (201). regintel's own writer is deterministic and offline: for each headline series of the briefing's topics it states the region's latest value, its change over about five periods, and for every type but `profile_summary` its rank among the regions of its parent, the gap to its parent and to its country (for totals such as population: its share of each) and the EU figure where the data has them. Types: `profile_summary` (every topic, latest values and change), `economy`, `labour_market`, `demography`, `health` (one topic each) and `peer_comparison` (every topic, against the peers). Series without a value for the region are named in `not_covered`. Every number in the text (periods of the cited rows aside) is the `display` of a claim, written exactly so: `direct` claims cite the row whose value they are; `derived` claims give their `inputs` (each a cited value), the `operation` (`percent_change`, `difference`, `share`, `rank`, `count`) and its formula. Where the text must say more than the number, `reads` gives the words (\"2.1 % more\", \"2 from the top\"). Before a briefing is stored, a verifier re-reads the text: every number must be a claim's display followed by its `reads`, whose direction word (more, above; less, below) must agree with the inputs; periods of the cited rows count as periods after in/since/from/to/until/between/and/a; every claim is recomputed from the cited rows with the rounding shown; `verification` reports it. It checks the numbers and the words bound to them, not the rest of the prose. A text that fails is never stored or shown. Where the operator has configured a model server, the model rewrites the prose from the writer's text and claims; its text passes the same verifier and more strictly (no digits inside words, no number words, no look-alike digits or invisible characters; it may leave claims out, and `claims` then lists only those it states), and `generator.name` is `model`; a text that fails, a model error or a timeout leaves the deterministic text in place, with `generator.fallback_reason` saying why. Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond).",
        params: &[],
        request: Some("BriefingRequest"),
        schema: "Briefing",
        errors: &[
            "validation_failed",
            "unsupported_media_type",
            "request_timeout",
            "unknown_region",
            "conflict",
        ],
        success: 201,
        raw: None,
    },
    Operation {
        id: "listBriefings",
        tag: "analytics",
        summary: "The account's briefings",
        description: "Institutional tier. The caller's briefings, newest first; another account's are never listed. Page with `before` (the last id of the previous page).",
        params: &[
            Param {
                name: "limit",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":1,"maximum":100,"default":100}"#,
                description: "Briefings per page.",
            },
            Param {
                name: "before",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","examples":["brf_01jd3m8q6k2v5x7z9b1c3d5f7h"]}"#,
                description: "Only briefings created before this one.",
            },
        ],
        request: None,
        schema: "BriefingList",
        errors: &[],
        success: 200,
        raw: None,
    },
    Operation {
        id: "getBriefing",
        tag: "analytics",
        summary: "A stored briefing",
        description: "Institutional tier. The briefing as it was written, and `revisions`: the cited rows that a later import has revised (`superseded`, each with the row that stands now), so a reader knows whether the text still matches the data. Another account's briefing answers 404 like a missing one.",
        params: &[Param {
            name: "briefing_id",
            location: Location::Path,
            required: true,
            schema: r#"{"type":"string","pattern":"^brf_[0-9a-z]{26}$"}"#,
            description: "The briefing's id, as `POST /briefings` gave it.",
        }],
        request: None,
        schema: "Briefing",
        errors: &["not_found"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "exportDataset",
        tag: "analytics",
        summary: "Bulk CSV export of a dataset",
        description: "Institutional tier. Every current observation of the dataset the account can see, or those of one `country`, one `level` and the periods from `from` to `to` (both included), one CSV row each with its region's name and NUTS level and its `citation_id`. Streamed as it is read (chunked; a failure mid-way aborts the connection rather than ending the body early), gzip-coded for clients that accept it, and offered as `<dataset_code>.csv` (`Content-Disposition: attachment`). The columns are described in CSV on the Web terms at `/export/bulk/{dataset_code}.csv-metadata.json`. Text cells starting with = + - @ are prefixed with ' so spreadsheets do not run them. One export per account at a time (a second answers 429 `account-exports`) and at most 4 in all by default (more answer 503 with Retry-After). A client that takes no data for the send timeout (30 s by default), or takes under 32 KiB/s of CSV on average after the first 30 s, is cut off.",
        params: &[
            Param {
                name: "dataset_code",
                location: Location::Path,
                required: true,
                schema: r#"{"type":"string","examples":["tgs00010"]}"#,
                description: "Dataset code (the path ends in .csv).",
            },
            Param {
                name: "country",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","pattern":"^[A-Za-z]{2}$","examples":["DE"]}"#,
                description: "Only regions of this country (two letters as Eurostat writes them: EL for Greece).",
            },
            Param {
                name: "level",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":0,"maximum":3}"#,
                description: "Only regions of this NUTS level.",
            },
            Param {
                name: "from",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","examples":["2015"]}"#,
                description: "First period (periods compare as text, which orders those of one format).",
            },
            Param {
                name: "to",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","examples":["2022"]}"#,
                description: "Last period.",
            },
        ],
        request: None,
        schema: "CsvExport",
        errors: &["unknown_dataset"],
        success: 200,
        raw: Some("text/csv"),
    },
    Operation {
        id: "exportMetadata",
        tag: "analytics",
        summary: "CSV on the Web description of a dataset's export",
        description: "Institutional tier. The W3C CSVW metadata (https://www.w3.org/TR/tabular-metadata/) of `/export/bulk/{dataset_code}.csv`: each column's name, title, datatype and meaning (dimension codes with their labels), the dataset's title, publisher, source and licence, the latest snapshot, the units and flags used, and the number of rows of the whole export.",
        params: &[Param {
            name: "dataset_code",
            location: Location::Path,
            required: true,
            schema: r#"{"type":"string","examples":["tgs00010"]}"#,
            description: "Dataset code (the path ends in .csv-metadata.json).",
        }],
        request: None,
        schema: "CsvwMetadata",
        errors: &["unknown_dataset"],
        success: 200,
        raw: Some("application/csvm+json"),
    },
    Operation {
        id: "correlationMatrix",
        tag: "analytics",
        summary: "Correlation matrix for a region",
        description: "Any API key or session. Correlates the headline series of several datasets pairwise. For a region with subregions it is a cross-section over its subregions at `level` (extra-regio codes left out): each variable is taken at the latest period at which at least half of the subregions, and at least `min_n`, have a usable value (failing that, the period where most do), named in `variables[].period`. For a region without subregions it is over time: the periods both series have. Each cell holds r, n, the two-sided p-value (Student's t with n-2 degrees of freedom, as scipy.stats computes it) and a 95 % interval (Fisher's z; for Spearman with the 1.06/(n-3) variance of Fieller, Hartley and Pearson); below `min_n` pairs a cell has status `insufficient_data` and no r. `inputs` lists every value used with its citation, so any cell can be recomputed; `regions_dropped` says why a subregion (or, over time, a period) was left out of a variable: `missing`, `confidential` or `flagged` (flag u, low reliability). `caveats` name what the method cannot show (ecological inference, trending series, unadjusted p-values) and where the inputs differ (periods, NUTS editions, breaks in series). The caller's private datasets take part like public ones. Cost: 5 requests.",
        params: &[
            Param {
                name: "nuts_code",
                location: Location::Query,
                required: true,
                schema: r#"{"type":"string","examples":["DE"]}"#,
                description: "The region whose subregions (or years) are correlated; any case.",
            },
            Param {
                name: "level",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":1,"maximum":3}"#,
                description: "NUTS level of the subregions, below the region's own; default the next level down.",
            },
            Param {
                name: "method",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","enum":["pearson","spearman"],"default":"pearson"}"#,
                description: "Pearson's r on the values, or Spearman's rank correlation.",
            },
            Param {
                name: "datasets",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","examples":["nama_10r_2gdp,tgs00010,demo_r_mlifexp"]}"#,
                description: "Comma-separated dataset codes (at most 20) whose headline series are correlated; default every dataset with at least `min_n` usable values here (at most 20).",
            },
            Param {
                name: "min_n",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":3,"maximum":10000,"default":8}"#,
                description: "Fewest pairs for a cell to get a coefficient.",
            },
        ],
        request: None,
        schema: "CorrelationMatrix",
        errors: &["unknown_region"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "getUsage",
        tag: "account",
        summary: "The account's rate limits and daily usage",
        description: "API key or session token. Where the caller's buckets stand now (per key, or for all the account's sessions together: minute and hour; per account: the tier's daily cap, shared by its keys), and the account's calls per UTC day for the last 90 days against the cap.",
        params: &[],
        request: None,
        schema: "Usage",
        errors: &[],
        success: 200,
        raw: None,
    },
    Operation {
        id: "getOpenApi",
        tag: "operations",
        summary: "This OpenAPI document",
        description: "The OpenAPI 3.1 description of every route, built from the same route table as the router.",
        params: &[],
        request: None,
        schema: "OpenApiDocument",
        errors: &[],
        success: 200,
        raw: Some("application/json"),
    },
];

/// The text of `route`'s operation; none for the root routes, which are outside the document.
pub fn of(route: &Route) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|op| op.id == route.operation_id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::routes::ROUTES;

    #[test]
    fn every_route_below_the_base_path_has_one_operation_and_every_operation_a_route() {
        for route in ROUTES.iter().filter(|r| !r.root) {
            let found = OPERATIONS
                .iter()
                .filter(|op| op.id == route.operation_id)
                .count();
            assert_eq!(found, 1, "{}", route.operation_id);
        }
        for op in OPERATIONS {
            assert!(
                ROUTES.iter().any(|r| !r.root && r.operation_id == op.id),
                "{} has no route",
                op.id
            );
        }
    }
}
