//! The database: the SQLite file under the data dir, or a PostgreSQL database that several nodes
//! share ([`postgres`]). Request code reaches data only through [`Scoped`], a pooled connection
//! bound to the caller's account whose queries read the `v_*` views (on PostgreSQL, under
//! row-level security too); operator commands (import, fetch, check) use [`Store::admin`], a
//! separate connection.
//!
//! Three pools, so that the async threads never wait: request connections and lookup connections
//! are checked out on the async threads only without waiting ([`Store::try_scoped`],
//! [`Store::lookup`]), and there are at least as many as threads that can hold one at a time
//! (each is held for a synchronous read). Everything that may wait (for a connection, or for the
//! database's one writer) uses [`Store::scoped`] or [`Store::system`] from a blocking thread.
//!
//! The layout, floor by floor (`values`, `schema`; `postgres`; the `sql` facade; `rows`; the data
//! held in memory; `sqlite`; `backend`; `connections`; the query modules), and what a new table
//! or query touches: docs/architecture.md, "Adding a table or a query".

pub mod accounts;
pub mod as_of;
pub mod backend;
pub mod blocks;
pub mod briefings;
pub mod classification;
pub mod connections;
pub mod datasets;
pub mod error;
pub mod eurostat;
pub mod generations;
pub mod import;
pub mod observations;
pub mod past_rows;
pub mod per_generation;
pub mod postgres;
pub mod process_lock;
pub mod public_catalogue;
pub mod public_rows;
pub mod region_index;
pub mod regions;
pub mod revisions;
pub mod rows;
pub mod schema;
pub mod sql;
pub mod sqlite;
pub mod to_postgres;
pub mod usage;
pub mod values;
pub mod webhooks;

pub use backend::{Admin, Database};
pub use connections::{HeldPublicData, Lookup, ReadSnapshot, Scoped, Store, System};
pub use error::{StoreError, StoreResult};
pub use sqlite::file::{DB_FILE, integrity_check, open_read_only};

#[cfg(test)]
mod tests;
