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

/// Every list's cursor (see `http::paging`).
const CURSOR: Param = Param {
    name: "cursor",
    location: Location::Query,
    required: false,
    schema: r#"{"type":"string","minLength":1,"maxLength":100}"#,
    description: "The `meta.next_cursor` of the previous page, as it came; absent for the first page.",
};

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

const WEBHOOK_ID: Param = Param {
    name: "webhook_id",
    location: Location::Path,
    required: true,
    schema: r#"{"type":"string","pattern":"^whk_[0-9a-z]{26}$"}"#,
    description: "A webhook endpoint id (`whk_...`).",
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
            CURSOR,
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
                description: "Compare at this period instead of the latest common one: a year, `2021-Q3`, `2021-S1` or `2021-07` (`2021Q3` and `2021M07` are read as these).",
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
        description: "Every dataset the caller can see, in code order: title, topic, units, dimensions, the headline series profiles show, periods covered, number of current observations and the latest snapshot.",
        params: &[
            Param {
                name: "limit",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":1,"maximum":100,"default":100}"#,
                description: "Datasets per page.",
            },
            CURSOR,
        ],
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
        description: "The primary row behind a number: value as published, unit, dimensions, flags with their meanings, the snapshot it was imported in (time, file SHA-256), the source (publisher, title, landing page, licence, origin), the line and column of the original file, how to verify it by hand, and, if a later import revised the value, the citation that supersedes it. A region's citation (`kind` `classification`) resolves to its row of the bundled classification file (its SHA-256 and line), each field with its column and the source the row names for it, or how it follows from the code; a dataset's snapshot citation (`kind` `snapshot`) to the snapshot and its source. Citations resolve forever.",
        params: &[Param {
            name: "citation_id",
            location: Location::Path,
            required: true,
            schema: r#"{"type":"string","pattern":"^cit_[a-z2-7]{20}$"}"#,
            description: "Citation id.",
        }],
        request: None,
        schema: "Citation",
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
        description: "Newest first: key id, name, creation and last use (recorded at most once a minute), and status (active or revoked); never the key itself, which is shown once at creation.",
        params: &[
            Param {
                name: "limit",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":1,"maximum":100,"default":100}"#,
                description: "Keys per page.",
            },
            CURSOR,
        ],
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
        description: "A CSV body (`text/csv`, or the file's bytes as `application/octet-stream`) in the form of the `TidyCsv` schema: at least `nuts_code,period,value` and a column per dimension of the dataset. The full form of regintel's data/ directory is accepted as it is. The whole body is validated before anything is written; every problem is listed with its line and reason (422 `validation_failed`, `details.errors`; past 100, `details.errors_not_listed` counts the rest), and a header naming its columns `region`, `year`, `GEO` and the like is told the names to use. A unit in lower case is read in capitals (`pc` is `PC`). The load is a snapshot: unchanged rows keep their citations, revised ones are superseded. An account uploads one body at a time (a second concurrent upload answers 429 `account-uploads`; all upload slots busy answers 503), and the body must arrive within the body timeout (408).",
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
        description: "Institutional tier. Writes a briefing about the region and stores it for the account (201). regintel's own writer is deterministic and offline and follows the rules of docs/analysis.md: for each headline series of the briefing's topics it states the region's latest value (with its flags spelled out, `at current prices` for money at current prices, and `the latest available` when more than 3 years older than the briefing's newest period) and its change over five years (for data within the year, from the same quarter, half or month a year before), never across a break in series (a value flagged b between or at either end): it then compares only within the stretch after the break, or says no comparable change exists, and lists the break in `breaks`; nor from or to a value of low reliability or a confidential one, which it says. An index (unit such as `I15`) reads as growth since its base year. Every type but `profile_summary` ranks the region among the regions of its NUTS level in its country (\"Of the 38 NUTS 2 regions of Deutschland, ...\", counted in the NUTS edition the dataset uses) and among the EU member states' regions of that level where the data cover at least 80 % of them (a country among the member states, or all countries), and among its parent's other children only when at least three are of the dataset's NUTS edition (a region not of the edition a group is counted in is not ranked in it; only regions of the classification are peers); ranks say their direction (`highest`, `second-lowest`) and ties name the tied regions; values of low reliability (flag u) or confidential are left out of ranks and named, and a region whose own value is so is neither ranked nor compared. It gives the gap to its parent (unless the region is its only child, or the parent is alone at its level in its country), its country (unless the region is alone at its level there) and the EU (the EU aggregate itself is set against nothing) (for totals such as population: the region's share; past twice as high: `9.7 times`); across countries, money in euro is compared in purchasing power standards where the dataset holds them, and otherwise said not to be adjusted for price levels. Types: `profile_summary` (every topic, latest values and change), `economy`, `labour_market`, `demography`, `health` (one topic each) and `peer_comparison` (every topic, against the peers). A type with no figure for the region is refused: 422 `validation_failed` with `details.errors[0].pointer` `#/briefing_type` and `details.available_types`, the types that have figures for it (costing 1 request, not 10). Series of the type without a value for the region are named in `not_covered`. Every number in the text (periods of the cited rows in a date position aside) is the `display` of a claim, written exactly so: `direct` claims cite the row whose value they are; `derived` claims give their `inputs` (each a cited value), the `operation` and its formula; a rank's display is its phrase (`second-highest`). Each claim carries in `flags` the flags of every value in its window (its rows, and for a change the values between them). Where the text must say more than the number, `reads` gives the words (\"2.1 % more\", \"9.7 times\"). Before a briefing is stored, a verifier re-reads the text, finding numbers on characters (a digit after a non-breaking space, a currency sign or a dash is a number): every number must be a claim's display followed by its `reads`, whose direction word (more, above; less, below) must agree with the inputs; every rank phrase must be a rank claim; a cited period counts as a period only in a date position (after in/since/from/to/until/between/and/for, never before % or a unit); every claim is recomputed from the cited rows with the rounding shown, must carry every flag of the rows it cites, and may carry only flags its cited rows have; a name or title excuses digits only where it stands whole and they are no claim; `verification` reports it. It checks the numbers and the words bound to them, not the rest of the prose. A text that fails is never stored or shown. Where the operator has configured a model server, the model rewrites the prose from the writer's text and claims; titles of an account's own datasets reach it only as quoted data in a message of their own (the fact sheet names them `[[Q1]]`, ...); its text passes the same verifier and more strictly (outside names ASCII only, typographic quotes aside; no digits inside words; no number, ordinal, rank or superlative words; no % or comparing word after a number but as its claim's `reads`, and no verb of change before a number whose claim reads no direction; each rank phrase takes a rank claim of its own; a cited year after in/since/... is a date only before punctuation, a number or a word such as and, the, it, was; and the digits of an account's own titles count; it may leave claims out, and `claims` then lists only those it states), and `generator.name` is `model`; a text that fails, a model error or a timeout leaves the deterministic text in place, with `generator.fallback_reason` saying why. `generator.version` is the writer's version (2; briefings stored by version 1 stay as they were written). Cost: 10 requests. An account keeps at most 10,000 briefings (409 `conflict` beyond).",
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
        description: "Institutional tier. The caller's briefings, newest first; another account's are never listed.",
        params: &[
            Param {
                name: "limit",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":1,"maximum":100,"default":100}"#,
                description: "Briefings per page.",
            },
            CURSOR,
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
                description: "First period: a year, `2021-Q3`, `2021-S1` or `2021-07` (`2021Q3` and `2021M07` are read as these); periods compare as text, which orders those of one frequency.",
            },
            Param {
                name: "to",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","examples":["2022"]}"#,
                description: "Last period, in the forms `from` takes.",
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
        description: "Any API key or session. Correlates one series of each of several datasets pairwise. For a region with subregions it is a cross-section over its subregions at `level` (extra-regio codes left out; by default the next level down, or the first level below it with at least `min_n` regions of one NUTS edition, said in the `level_lowered` caveat): each variable is taken at `period` when given, else at the latest period at which at least half of the subregions of the dataset's NUTS edition, and at least `min_n`, have a usable value (failing that, the period where most do), named in `variables[].period`. For a region without subregions it is over time: the periods both series have, each series only after its last break in series (flag b; the flagged value is left out too, as producers mark a break on either side of it). A variable's series is the dataset's headline series, or the one `series` names; across regions, a dataset whose headline series is a total (persons, million euro) gives its rate series instead (per inhabitant, per area or a share; never a growth rate, an index or national currency; `series_choice`: `rate_instead_of_total`), and a dataset of totals only is left out unless named in `datasets`. Each cell holds r, n, the two-sided p-value (Student's t with n-2 degrees of freedom, as scipy.stats computes it), a 95 % interval (Fisher's z; for Spearman with the 1.06/(n-3) variance of Fieller, Hartley and Pearson) and `leave_one_out` (the range of r with each pair left out, and the pair that moves it most); below `min_n` pairs a cell has status `insufficient_data` and no r, and a value or sum that is not a finite number gives `not_computable` with a `reason`, never a number. Values are scaled by their largest magnitude before they are summed, so figures up to about 1e300 give the right r. `inputs` lists every value used, as published, with its citation, so any cell can be recomputed (with `transform=log`, from the natural logarithms of the values); `regions_dropped` says why a subregion (or, over time, a period) was left out of a variable. `caveats` name what the method cannot show (ecological inference, trending series, unadjusted p-values) and give figures where the inputs give pause: `flagged_values_dropped` (flags remove a tenth or more of a variable's regions: r with and without them for each cell concerned), `influential_points` (one region moves r by more than 0.2), `small_n` (10 to 29 pairs) and `few_pairs` (fewer than 10), `stale_variable` (a period more than 3 years before the newest), `totals_not_rates`, `totals_left_out`, `different_periods`, `mixed_nuts_editions`, and over time `break_in_series` and `current_prices`. Leave-one-out ranges cost n² steps a cell for Spearman: past 4,000,000 steps in a matrix the remaining cells go without, counted in `influential_points_unchecked`. The caller's private datasets take part like public ones. Cost: 5 requests.",
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
                description: "NUTS level of the subregions, below the region's own; default the next level down with at least `min_n` regions.",
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
                schema: r#"{"type":"string","examples":["nama_10r_3gdp,tgs00010,demo_r_mlifexp"]}"#,
                description: "Comma-separated dataset codes (at most 20) whose series are correlated; default every dataset with at least `min_n` usable values here (at most 20), totals-only datasets left out of a cross-section.",
            },
            Param {
                name: "series",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","pattern":"^[^,:=]+:[^,:=]+=[^,:=]+(,[^,:=]+:[^,:=]+=[^,:=]+)*$","examples":["nama_10r_3gdp:unit=PPS_EU27_2020_HAB,demo_r_mlifexp:sex=F"]}"#,
                description: "Series other than the default, as comma-separated `dataset:dimension=code` items (at most 40): each sets one dimension (or `unit`) of that dataset's series, the rest staying the headline series' (`demo_r_mlifexp:sex=F,demo_r_mlifexp:age=Y65` is life expectancy of women at 65). Each dataset named must be one of the matrix's; a series the dataset does not hold is refused, listing those it does.",
            },
            Param {
                name: "period",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","examples":["2021"]}"#,
                description: "A cross-section's period, the same for every variable (a year, `2021-Q3`, `2021-S1` or `2021-07`; `2021Q3` and `2021M07` are read as these). Refused for a region without subregions, whose matrix runs over time.",
            },
            Param {
                name: "transform",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"string","enum":["none","log"],"default":"none"}"#,
                description: "`log` correlates the natural logarithms of the values (skewed figures such as density or GDP); values at or below zero are left out with the reason `non_positive`.",
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
        id: "createWebhook",
        tag: "webhooks",
        summary: "Register a webhook endpoint",
        description: "API key or session token. `url` must be `https://` (plain `http://` only to hosts or ranges the operator allows), and every address its host resolves to must be public or allowed by the operator's egress policy, else 422 `webhook_url_not_allowed` (the same message whether the host does not resolve, does not resolve within 5 s, or leads inside); it is checked again before every delivery. The host is looked up before the request takes its turn on the server: at most 16 lookups run at once (503 `unavailable` beyond) and one per account (409 `conflict` while the account's previous one is unanswered). `event_types` names at least one of the events in the `webhooks` section of this document. The answer carries the signing `secret` (`whsec_` + base64 of 32 random bytes) once, uncompressed and with `Cache-Control: no-store`; regintel keeps it encrypted. Deliveries are signed as Standard Webhooks 1.0 specifies (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>`). An account registers at most 20 endpoints (409 `conflict`).",
        params: &[],
        request: Some("CreateWebhook"),
        schema: "CreatedWebhook",
        errors: &[
            "validation_failed",
            "unsupported_media_type",
            "request_timeout",
            "webhook_url_not_allowed",
            "conflict",
        ],
        success: 201,
        raw: None,
    },
    Operation {
        id: "listWebhooks",
        tag: "webhooks",
        summary: "The account's webhook endpoints",
        description: "Each with its status (`enabled`, or `disabled` with the reason: by its owner, after a `410 Gone`, or after 5 days in which every attempt failed) and its circuit breaker (`closed`; `open` after 10 failed attempts in a row, for 5 minutes doubling to an hour, while deliveries wait without spending attempts; `half_open` while one probe is sent). Never the secret. `meta` also gives `max_endpoints` (an account's endpoints at most) and the `event_types` one may subscribe to.",
        params: &[
            Param {
                name: "limit",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":1,"maximum":100,"default":20}"#,
                description: "Endpoints per page.",
            },
            CURSOR,
        ],
        request: None,
        schema: "WebhookList",
        errors: &[],
        success: 200,
        raw: None,
    },
    Operation {
        id: "getWebhook",
        tag: "webhooks",
        summary: "One webhook endpoint",
        description: "Another account's endpoint answers 404, like a missing one.",
        params: &[WEBHOOK_ID],
        request: None,
        schema: "Webhook",
        errors: &["not_found"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "updateWebhook",
        tag: "webhooks",
        summary: "Change a webhook endpoint",
        description: "Any of `url` (checked as at registration), `event_types`, `description` and `status`. `status: enabled` re-enables a disabled endpoint with its breaker as it was (the breaker belongs to the receiver at the URL: a new `url` starts a closed one); an endpoint disabled because its receiver answered 410 Gone is enabled again only with a new `url` (409 `conflict` otherwise), and for 30 days no endpoint of the account may name the URL that answered 410 (409). Deliveries still pending resume (replay events since a time for those given up). `status: disabled` stops deliveries: events while it is disabled are not queued for it (replay them after enabling it), and pending ones wait.",
        params: &[WEBHOOK_ID],
        request: Some("UpdateWebhook"),
        schema: "Webhook",
        errors: &[
            "validation_failed",
            "unsupported_media_type",
            "request_timeout",
            "webhook_url_not_allowed",
            "not_found",
            "conflict",
        ],
        success: 200,
        raw: None,
    },
    Operation {
        id: "deleteWebhook",
        tag: "webhooks",
        summary: "Delete a webhook endpoint",
        description: "With its deliveries and their attempts; nothing more is sent to it.",
        params: &[WEBHOOK_ID],
        request: None,
        schema: "",
        errors: &["not_found"],
        success: 204,
        raw: None,
    },
    Operation {
        id: "rotateWebhookSecret",
        tag: "webhooks",
        summary: "Rotate a webhook endpoint's signing secret",
        description: "Returns the new secret once. For 24 hours (`previous_secret_expires_at`) every delivery carries two signatures in `webhook-signature`, by the new secret and by the previous one, so a receiver can switch without losing a delivery. Another rotation within those 24 hours answers 409 `conflict`.",
        params: &[WEBHOOK_ID],
        request: None,
        schema: "CreatedWebhook",
        errors: &["not_found", "conflict"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "testWebhook",
        tag: "webhooks",
        summary: "Send a test event",
        description: "Emits a `webhook.test` event to this endpoint (whether or not it subscribes to the type) and answers 202 with the event id; the delivery and its attempts appear in the endpoint's deliveries. A disabled endpoint answers 409 `conflict`.",
        params: &[WEBHOOK_ID],
        request: None,
        schema: "WebhookTestSent",
        errors: &["not_found", "conflict"],
        success: 202,
        raw: None,
    },
    Operation {
        id: "listWebhookDeliveries",
        tag: "webhooks",
        summary: "An endpoint's deliveries and every attempt",
        description: "Newest first, each with its status (`pending`, `delivered`, `failed`) and its latest 20 attempts: time, the receiver's status code (null when there was no answer), latency and error. Deliveries are kept 30 days from when their schedule began (the event, or the resend or replay of a delivered or failed delivery).",
        params: &[
            WEBHOOK_ID,
            Param {
                name: "limit",
                location: Location::Query,
                required: false,
                schema: r#"{"type":"integer","minimum":1,"maximum":100,"default":20}"#,
                description: "Deliveries per page.",
            },
            CURSOR,
        ],
        request: None,
        schema: "WebhookDeliveryList",
        errors: &["not_found"],
        success: 200,
        raw: None,
    },
    Operation {
        id: "replayWebhookEvents",
        tag: "webhooks",
        summary: "Send every event since a time again",
        description: "Schedules a new delivery to this endpoint of every event since `since` (within the last 30 days) that the account received or would have received by the endpoint's current subscription (not test events), oldest first, whose delivery to the endpoint failed or never was; events it received are sent again only with `include_delivered: true`; deliveries still pending are left as they are. At most 1,000 events a call: `complete: false` says to call again, an hour later, with `since` = `resume_from`. At most one replay an hour per destination URL of the account (whichever endpoint names it, and whether or not it found events): before, 429 `rate_limit_exceeded` with `Retry-After` and `details.violated_policies` `[\"endpoint-replays\"]`. Replayed deliveries go after the account's new events; every delivery of an account goes at most 10 a second (bursts of 20) to one destination address (the one its host resolves to, whatever names lead there). A disabled endpoint answers 409 `conflict`.",
        params: &[WEBHOOK_ID],
        request: Some("ReplayWebhookEvents"),
        schema: "WebhookReplay",
        errors: &[
            "validation_failed",
            "unsupported_media_type",
            "request_timeout",
            "not_found",
            "conflict",
        ],
        success: 202,
        raw: None,
    },
    Operation {
        id: "resendWebhookDelivery",
        tag: "webhooks",
        summary: "Send a delivery again",
        description: "Sends a delivery now: a pending one (waiting for a retry) with its attempts so far, a delivered or failed one again from its first attempt (the same event, the same `webhook-id`). The endpoint's circuit breaker still decides: while it is open, the answer says `sending: when_the_breaker_allows` and until when. Another account's delivery answers 404; a delivery to a disabled endpoint 409 `conflict`.",
        params: &[Param {
            name: "delivery_id",
            location: Location::Path,
            required: true,
            schema: r#"{"type":"string","pattern":"^dlv_[0-9a-f]{24}$"}"#,
            description: "A delivery id from the endpoint's deliveries.",
        }],
        request: None,
        schema: "WebhookResent",
        errors: &["not_found", "conflict"],
        success: 202,
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
