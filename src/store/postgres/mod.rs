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

/// What `regintel check` finds of a PostgreSQL database, without changing it.
pub struct Checked {
    /// Its schema version (0: none yet; the server migrates an older one when it starts).
    pub version: i64,
    /// The owner's connection, for the checks that read rows.
    pub admin: crate::store::Admin,
}

/// Connects as the owner and reads the schema version, refusing a newer one than this binary
/// knows, as the server would.
pub fn check(url: &str) -> anyhow::Result<Checked> {
    let mut client = connect(&config(url)?)?;
    let version = migrate::version_of(&mut client)?;
    let latest = crate::store::migrate::latest_version();
    if version > latest {
        return Err(crate::store::migrate::too_new(version, latest));
    }
    Ok(Checked {
        version,
        admin: crate::store::Admin::postgres(crate::store::sql::PgConn::new(client)),
    })
}
