//! The store on PostgreSQL, for several stateless nodes sharing one database: the schema
//! (`schema.postgres.sql`, migrated under an advisory lock so that nodes starting together
//! migrate once) and the request role whose connections row-level security binds.

pub mod from_sqlite;
pub mod migrate;
pub mod pool;
pub mod roles;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

use anyhow::Context;

pub use crate::config::postgres_config as config;

/// A connection with `config`, as whichever role it names, bounded in time as pooled ones are.
pub fn connect(config: &postgres::Config) -> anyhow::Result<postgres::Client> {
    let config = pool::bounded(config.clone(), crate::config::defaults::DATABASE_WAIT);
    crate::store::sql::postgres::blocking(|| config.connect(postgres::NoTls))
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
    let version = crate::store::sql::postgres::blocking(|| migrate::version_of(&mut client))?;
    let latest = crate::store::migrate::latest_version();
    if version > latest {
        return Err(crate::store::migrate::too_new(version, latest));
    }
    Ok(Checked {
        version,
        admin: crate::store::Admin::postgres(crate::store::sql::PgConn::new(client)),
    })
}
