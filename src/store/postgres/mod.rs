//! The store on PostgreSQL, for several stateless nodes sharing one database: the schema
//! (`schema.postgres.sql`, migrated under an advisory lock so that nodes starting together
//! migrate once) and the request role whose connections row-level security binds.

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
