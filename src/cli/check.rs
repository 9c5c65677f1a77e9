//! `regintel check`: the database (integrity, foreign keys, schema version, data) and the TLS
//! files, checked without starting the server, for installers and health scripts.

use std::path::Path;

use anyhow::bail;

use crate::net::tls;
use crate::store::Store;

pub fn run(data_dir: &Path, cert: Option<&Path>, key: Option<&Path>) -> anyhow::Result<()> {
    let path = data_dir.join(crate::store::DB_FILE);
    if !path.exists() {
        bail!("no database at {}", path.display());
    }
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
    match (cert, key) {
        (Some(cert), Some(key)) => {
            tls::server_config(cert, key)?;
            println!(
                "TLS certificate {} and key {}: ok",
                cert.display(),
                key.display()
            );
        }
        (None, None) => {}
        _ => bail!("--tls-cert and --tls-key go together: give both"),
    }
    Ok(())
}
