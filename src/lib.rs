//! regintel: the Regional Intelligence Service, a REST API over HTTPS answering questions about
//! European regions (NUTS codes) with numbers that each carry a citation resolving to a
//! verifiable primary data row.
//!
//! # Code map
//!
//! Layers, top to bottom; each uses only layers below it, never one above or beside it (the
//! `layering` test checks every `crate::` path against this list):
//!
//! - `main.rs` / [`cli`]: the command line; commands and flags in `cli`, and one module per command (`demo`,
//!   `check`, `backup`, `admin` for `import`, `account` and `key`), starting the server
//!   (`launch`) and logging, as text or JSON lines, with keys redacted (`logging`).
//! - [`app`]: [`start`] takes a bound listener and a shutdown signal; builds [`state::AppState`]
//!   and the OpenAPI document; runs the background workers.
//! - [`net`] and [`openapi`]: the accept loop, TLS (rustls), per-address connection shares,
//!   per-connection deadlines and graceful shutdown; the OpenAPI document, built from the route
//!   table and the text of each operation (`openapi::operations`).
//! - [`http`]: the request pipeline (`http::handle`), the route table (`http::routes`) that drives
//!   the router, the pipeline and the OpenAPI document; rate-limit admission (`http::charge`),
//!   conditional requests and the answer cache (`http::caching`), the error envelope and its
//!   statuses (`http::error`, `http::envelope`), thin handlers.
//! - [`mcp`]: the Model Context Protocol tools for AI assistants, each making the REST request
//!   it mirrors through a backend (in-process through the pipeline: `http::mcp`; over HTTPS:
//!   `regintel mcp`).
//! - [`llm`]: the optional model server (OpenAI-compatible chat completions) that writes a
//!   briefing's prose from the writer's facts.
//! - [`state`]: everything a request needs, built once and shared.
//! - [`explore`]: the region explorer's pages (`/explore/...`), rendered per request from the
//!   domain's answers: SVG charts, and maps drawn from the bundled NUTS boundaries.
//! - [`pages`]: the pages at the root of the host (what the service is, the account area, the API
//!   reference rendered from the OpenAPI document) and their embedded script and stylesheet,
//!   rendered once at start.
//! - [`outbox`]: the webhook delivery worker, which sends the outbox's due deliveries and keeps
//!   each endpoint's circuit breaker.
//! - [`eurostat`]: the data supply: `regintel fetch` reads Eurostat's table of contents, a
//!   dataset's structure and its data from the dissemination API, and imports each download.
//! - [`import`]: imports as the operator and the upload route run them: parse, then write in one
//!   transaction.
//! - [`domain`] and [`auth`]: what the endpoints compute (profile, compare, catalogue, citations,
//!   export, briefings, the correlation matrix and its statistics), HTTP-free; who is calling
//!   (API keys, session JWTs, passwords, the login throttle).
//! - [`store`] and [`file_formats`]: the database, SQLite or PostgreSQL side by side under one SQL
//!   facade (migrations from `schema.sql` and `schema.postgres.sql`, scoped reads through `v_*`
//!   views, the import write path); the file parsers (Eurostat TSV, SDMX-CSV, tidy CSV).
//! - [`config`], [`cache`], [`citation_id`] and [`access_log`]: settings and their defaults; the
//!   bounded answer cache; citation ids; the access line of each request and the text log lines
//!   that write it directly.
//! - [`webhooks`]: Standard Webhooks signatures and secrets; the egress policy that decides which
//!   addresses a webhook may reach.
//! - [`period`]: reference periods in the one form regintel stores (`2023`, `2023-Q1`, `2023-S1`,
//!   `2023-01`), whatever file they came from.
//! - [`error_text`], [`ids`], [`text`], [`region_code`], [`client_addr`], [`reply`], [`rate_limiter`],
//!   [`dataset_file`], [`bundled`] and [`metrics`]: small pieces that use no other module of
//!   the crate but the two below (error-message quoting, identifiers, control characters in
//!   outside text, region codes' case and near misses, client addresses, rendered answers, the
//!   GCRA limiter, the parsed-file types, the bundled extract, the Prometheus counters).
//! - [`json_text`]: JSON text written byte for byte as serde_json writes it, with fewer
//!   instructions.
//! - [`runtime`]: the process and its resources: time formatting, tasks that end with their
//!   owner, bounded work slots, lower CPU priority for background threads, owner-only files, the
//!   systemd notification protocol, an import's progress on a terminal, log lines captured and
//!   a listening socket's accept queue for tests.
//!
//! # Invariants
//!
//! - Request code reads data only through [`store::Scoped`] (the `v_*` views filtered by
//!   `current_account()`); only operator commands use [`store::Store::admin`].
//! - Every number in an answer's `data` is a cited row ([`domain::Cited`]) or derived in code from
//!   cited rows ([`domain::Derived`]); `meta.citations` lists each citation used.
//! - A citation id is a hash of its row and source file: it never changes and never disappears.
//! - Answers are cached per data generation (`store_meta`); an import bumps it.
//! - No global state: everything lives in `AppState`, so tests run many servers in one process.

// The OpenAPI schemas are one large `json!` literal.
#![recursion_limit = "256"]

pub mod access_log;
pub mod app;
pub mod auth;
pub mod bundled;
pub mod cache;
pub mod citation_id;
pub mod cli;
pub mod client_addr;
pub mod config;
pub mod dataset_file;
pub mod domain;
pub mod error_text;
pub mod eurostat;
pub mod explore;
pub mod file_formats;
pub mod http;
pub mod ids;
pub mod import;
pub mod json_text;
#[cfg(test)]
mod layering;
pub mod llm;
pub mod mcp;
pub mod metrics;
pub mod net;
pub mod openapi;
pub mod outbox;
pub mod pages;
pub mod period;
pub mod rate_limiter;
pub mod region_code;
pub mod reply;
pub mod runtime;
pub mod state;
pub mod store;
pub mod text;
pub mod webhooks;

pub use app::start;
