//! `regintel migrate --to`: moves an appliance onto PostgreSQL, every row of its SQLite file
//! copied with its ids (see [`crate::store::to_postgres`]). The secrets stay in the
//! data dir: each node serving the PostgreSQL database needs a copy of that directory.

use std::path::Path;

use anyhow::bail;

use super::logging::Printed;
use crate::store::to_postgres;
use crate::store::{Database, Store};

pub fn run(data_dir: &Path, url: String, printed: Printed) -> anyhow::Result<()> {
    let secrets = data_dir.join("secrets");
    if !secrets.is_dir() {
        bail!(
            "no secrets directory at {}: the keys, sessions and webhook secrets of the database need it; migrate from the server's own data dir",
            secrets.display()
        );
    }
    let target = Database::choose(Some(&url), data_dir)?;
    to_postgres::check_target(&url)?;
    let source = super::admin::open(&Database::Sqlite(data_dir.to_path_buf()))?;
    let target = Store::open_with(&target, 1, 1, crate::config::defaults::DATABASE_WAIT)?;
    let copied = to_postgres::copy(&source.admin()?, &mut target.admin()?)?;
    let rows: u64 = copied.iter().map(|(_, rows)| rows).sum();
    let tables: serde_json::Map<String, serde_json::Value> = copied
        .iter()
        .map(|(table, rows)| ((*table).to_owned(), (*rows).into()))
        .collect();
    printed.print(
        &serde_json::json!({ "rows": rows, "tables": tables }),
        || {
            format!(
                "migrated {rows} rows of {} tables into PostgreSQL. Serve it with --database-url on every node, each with a copy of {} (the pepper, session and sealing keys the copied keys, sessions and webhooks depend on).",
                copied.len(),
                secrets.display()
            )
        },
    );
    Ok(())
}
