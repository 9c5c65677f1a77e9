//! regintel: the Regional Intelligence Service, a REST API over HTTPS answering questions about
//! European regions (NUTS codes) with numbers that each carry a citation resolving to a
//! verifiable primary data row.
//!
//! # Code map
//!
//! Layers, each using only those below it (no cycles):
//!
//! - `main.rs` / [`cli`]: the command line (`demo`, `serve`, `import`, `account`, `key`, `openapi`,
//!   `check`); [`admin`] carries out the operator commands.
//! - [`app`]: [`start`] takes a bound listener and a shutdown signal; builds [`state::AppState`].
//! - [`net`]: accept loop, TLS (rustls), connection limits, graceful shutdown with a drain deadline.
//! - [`http`]: the request pipeline (`http::handle`), the route table (`http::routes`), which drives
//!   the router and [`openapi`], envelopes and headers (`http::respond`), thin handlers.
//! - [`domain`]: what the endpoints compute (profile, compare, catalogue, citations, export),
//!   HTTP-free.
//! - [`auth`]: who is calling (API keys, session JWTs, passwords); accounts' key and session
//!   records live in `store::accounts`.
//! - [`import`] and [`ingest`]: reading Eurostat TSV, SDMX-CSV and tidy CSV; writing snapshots.
//! - [`store`]: SQLite (pool, migrations from `schema.sql`, scoped reads through `v_*` views).
//! - Small shared pieces: [`error`], [`reply`], [`cache`], [`citation`], [`catalogue`], [`ids`],
//!   [`clock`], [`config`], [`state`].
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

pub mod app;
pub mod auth;
pub mod cache;
pub mod catalogue;
pub mod citation;
pub mod cli;
pub mod client_addr;
pub mod clock;
pub mod config;
pub mod dataset_file;
pub mod domain;
pub mod error;
pub mod http;
pub mod ids;
pub mod import;
pub mod ingest;
pub mod limits;
pub mod net;
pub mod openapi;
pub mod private_files;
pub mod reply;
pub mod slots;
pub mod state;
pub mod store;

pub use app::start;
