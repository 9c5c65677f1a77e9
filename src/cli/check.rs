//! `regintel check`: the database (integrity, foreign keys, schema version, data) and the TLS
//! files, checked without starting the server, for installers and health scripts.

use std::path::Path;

use anyhow::bail;

use crate::net::tls;
use crate::store::Store;

pub fn run(data_dir: &Path, tls: Option<(&Path, &Path)>) -> anyhow::Result<()> {
    let path = super::launch::database(data_dir)?;
    let store = Store::open(data_dir, 1)?;
    let conn = store.admin()?;
    let integrity: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if integrity != "ok" {
        bail!("database integrity check failed: {integrity}");
    }
    let violations: i64 =
        conn.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })?;
    if violations > 0 {
        bail!("database has {violations} foreign key violations");
    }
    let (datasets, observations): (i64, i64) = conn.query_row(
        "SELECT (SELECT count(*) FROM datasets), (SELECT count(*) FROM observations)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    println!(
        "database {}: ok (schema version {}, {datasets} datasets, {observations} observations)",
        path.display(),
        crate::store::migrate::latest_version()
    );
    if let Some((cert, key)) = tls {
        tls::server_config(cert, key)?;
        println!(
            "TLS certificate {} and key {}: ok",
            cert.display(),
            key.display()
        );
    }
    Ok(())
}
