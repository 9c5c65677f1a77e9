//! The store on PostgreSQL, for several stateless nodes sharing one database: the connection
//! with its prepared statements, cursors and COPY (`conn`), the store's SQL in PostgreSQL's
//! words (`translate`), the pool (`pool`), the request role whose connections row-level security
//! binds (`roles`), the schema's migrations (`migrate`, under an advisory lock so that nodes
//! starting together migrate once), and throwaway databases for tests (`testing`).

pub mod conn;
pub mod migrate;
pub mod pool;
pub mod roles;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
mod translate;

use anyhow::Context;

pub use crate::config::postgres_config as config;

/// A connection with `config`, as whichever role it names, bounded in time as pooled ones are.
pub fn connect(config: &postgres::Config) -> anyhow::Result<postgres::Client> {
    let config = pool::bounded(config.clone(), crate::config::defaults::DATABASE_WAIT);
    conn::blocking(|| config.connect(postgres::NoTls)).context("while connecting to PostgreSQL")
}
