//! The one integration-test binary: every test starts the real server on an ephemeral port (or
//! runs the real binary) and speaks HTTP to it.

mod answers;
mod api;
mod auth;
mod bounded;
mod briefings;
mod browser;
mod cache;
mod child_memory;
mod cli;
mod correlations;
mod docs;
mod errors;
mod eurostat;
mod explore;
mod export;
mod hostile;
mod import;
mod isolation;
mod limits;
mod mcp;
mod openapi;
mod operations;
mod postgres;
mod private;
mod provenance;
mod python_client;
mod python_package;
mod quotas;
mod receiver;
mod sample;
mod server;
mod support;
mod text_input;
mod tiers;
mod webhooks;
