//! The route table: the one list that drives routing (`router.rs`), the pipeline's per-route
//! behaviour (`mod.rs`) and the OpenAPI document (`openapi.rs`). A route added here is routed,
//! documented and covered by the route-enumerating tests at once.

use http::Method;

use super::handlers::{self, Handler};

pub struct Route {
    pub method: Method,
    /// Path template below the base path (`/regions/{code}`), or from the root when `root`.
    pub path: &'static str,
    pub root: bool,
    pub handler: Handler,
    /// Answers depend only on the data, the path, the query and the caller's account: they are
    /// cached per data generation and carry an ETag.
    pub cacheable: bool,
    pub doc: Doc,
}

pub struct Doc {
    pub operation_id: &'static str,
    pub tag: &'static str,
    pub summary: &'static str,
    pub description: &'static str,
    pub params: &'static [Param],
    /// Component schema of the envelope's `data` (or of the whole body for raw documents).
    pub schema: &'static str,
    /// Error codes (see `ApiError::CODES`) this route can answer beyond the ones every route can.
    pub errors: &'static [&'static str],
    /// The body is the document itself, not an envelope.
    pub raw: bool,
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
pub const COMMON_ERRORS: &[&str] = &["payload_too_large", "internal", "unavailable"];

const REGION_CODE: Param = Param {
    name: "code",
    location: Location::Path,
    required: true,
    schema: r#"{"type":"string","pattern":"^[A-Za-z0-9_]{1,16}$","examples":["DE21"]}"#,
    description: "Region code as published by Eurostat: a NUTS code (DE, DE2, DE21, DE212), a code of an earlier NUTS edition, or an aggregate such as EU27_2020.",
};

pub static ROUTES: &[Route] = &[
    Route {
        method: Method::GET,
        path: "/regions",
        root: false,
        handler: handlers::regions::list,
        cacheable: true,
        doc: Doc {
            operation_id: "listRegions",
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
            schema: "RegionList",
            errors: &["invalid_parameter"],
            raw: false,
        },
    },
    Route {
        method: Method::GET,
        path: "/regions/{code}",
        root: false,
        handler: handlers::regions::get,
        cacheable: true,
        doc: Doc {
            operation_id: "getRegion",
            tag: "regions",
            summary: "One region",
            description: "Code, names, level, country, parent, children and the NUTS editions that contain the code.",
            params: &[REGION_CODE],
            schema: "RegionDetail",
            errors: &["unknown_region"],
            raw: false,
        },
    },
    Route {
        method: Method::GET,
        path: "/regions/{code}/profile",
        root: false,
        handler: handlers::regions::profile,
        cacheable: true,
        doc: Doc {
            operation_id: "getRegionProfile",
            tag: "regions",
            summary: "Region profile",
            description: "The region and, for every dataset with data for it, the headline series (see `GET /datasets`) with its latest value and full history. Every value carries a citation that resolves through `GET /citations/{id}`; flags are explained; warnings say where the code or a dataset's NUTS edition calls for care.",
            params: &[REGION_CODE],
            schema: "Profile",
            errors: &["unknown_region"],
            raw: false,
        },
    },
    Route {
        method: Method::GET,
        path: "/compare",
        root: false,
        handler: handlers::compare::compare,
        cacheable: true,
        doc: Doc {
            operation_id: "compareRegions",
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
                    description: "Unit instead of the headline unit. Other dimension filters (sex, age, ...) work the same way and are listed per dataset by `GET /datasets/{code}`.",
                },
            ],
            schema: "Comparison",
            errors: &["invalid_parameter", "unknown_region", "unknown_dataset"],
            raw: false,
        },
    },
    Route {
        method: Method::GET,
        path: "/datasets",
        root: false,
        handler: handlers::datasets::list,
        cacheable: true,
        doc: Doc {
            operation_id: "listDatasets",
            tag: "datasets",
            summary: "List datasets",
            description: "Every dataset the caller can see: title, topic, units, dimensions, the headline series profiles show, periods covered, number of current observations and the latest snapshot.",
            params: &[],
            schema: "DatasetList",
            errors: &["invalid_parameter"],
            raw: false,
        },
    },
    Route {
        method: Method::GET,
        path: "/datasets/{code}",
        root: false,
        handler: handlers::datasets::get,
        cacheable: true,
        doc: Doc {
            operation_id: "getDataset",
            tag: "datasets",
            summary: "One dataset",
            description: "As in the list, plus every series (unit and dimension values) with its coverage, every snapshot (import) newest first, and the source with its licence.",
            params: &[Param {
                name: "code",
                location: Location::Path,
                required: true,
                schema: r#"{"type":"string","examples":["tgs00010"]}"#,
                description: "Dataset code.",
            }],
            schema: "DatasetDetail",
            errors: &["unknown_dataset"],
            raw: false,
        },
    },
    Route {
        method: Method::GET,
        path: "/citations/{id}",
        root: false,
        handler: handlers::citations::get,
        cacheable: true,
        doc: Doc {
            operation_id: "getCitation",
            tag: "citations",
            summary: "Resolve a citation",
            description: "The primary row behind a number: value as published, unit, dimensions, flags with their meanings, the snapshot it was imported in (time, file SHA-256), the source (publisher, title, landing page, licence, origin), the line and column of the original file, how to verify it by hand, and, if a later import revised the value, the citation that supersedes it. Citations resolve forever.",
            params: &[Param {
                name: "id",
                location: Location::Path,
                required: true,
                schema: r#"{"type":"string","pattern":"^cit_[a-z2-7]{20}$"}"#,
                description: "Citation id.",
            }],
            schema: "CitationDetail",
            errors: &["not_found"],
            raw: false,
        },
    },
    Route {
        method: Method::GET,
        path: "/openapi.json",
        root: false,
        handler: handlers::meta::openapi,
        cacheable: false,
        doc: Doc {
            operation_id: "getOpenApi",
            tag: "operations",
            summary: "This OpenAPI document",
            description: "The OpenAPI 3.1 description of every route, built from the same route table as the router.",
            params: &[],
            schema: "OpenApiDocument",
            errors: &[],
            raw: true,
        },
    },
    Route {
        method: Method::GET,
        path: "/healthz",
        root: true,
        handler: handlers::meta::healthz,
        cacheable: false,
        doc: Doc {
            operation_id: "healthz",
            tag: "operations",
            summary: "Liveness",
            description: "200 while the process serves requests.",
            params: &[],
            schema: "Health",
            errors: &[],
            raw: false,
        },
    },
    Route {
        method: Method::GET,
        path: "/readyz",
        root: true,
        handler: handlers::meta::readyz,
        cacheable: false,
        doc: Doc {
            operation_id: "readyz",
            tag: "operations",
            summary: "Readiness",
            description: "200 when the database answers at the schema version this binary expects and data is loaded; 503 otherwise.",
            params: &[],
            schema: "Readiness",
            errors: &[],
            raw: false,
        },
    },
];
