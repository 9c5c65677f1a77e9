//! The store on PostgreSQL, for several stateless nodes sharing one database: the schema
//! (`schema.postgres.sql`, migrated under an advisory lock so that nodes starting together
//! migrate once) and the request role whose connections row-level security binds.

pub mod migrate;
pub mod pool;
pub mod roles;
pub mod testing;

use std::str::FromStr;

use anyhow::Context;

/// The connection settings of `url` (`postgres://user:password@host:port/database`, or a Unix
/// socket's directory as `?host=/run/postgresql`), checked without connecting.
pub fn config(url: &str) -> anyhow::Result<postgres::Config> {
    // The URL's text is not repeated: it may hold a password.
    postgres::Config::from_str(url)
        .map_err(|e| anyhow::anyhow!("the database URL is not a PostgreSQL connection URL: {e}"))
}

/// A connection with `config`, as whichever role it names.
pub fn connect(config: &postgres::Config) -> anyhow::Result<postgres::Client> {
    config
        .connect(postgres::NoTls)
        .context("while connecting to PostgreSQL")
}
