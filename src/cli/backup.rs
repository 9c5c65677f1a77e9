//! `regintel backup`: an online copy of the database, consistent at one moment, taken while the
//! server runs. `VACUUM INTO` (<https://www.sqlite.org/lang_vacuum.html#vacuuminto>) writes the
//! copy from one read transaction, so the server's writers carry on, and the copy is compact. It
//! is written beside the target under a temporary name, checked (`PRAGMA integrity_check`),
//! synced, and only then renamed: a file at the target's name is always a whole, sound backup.
//!
//! The copy holds accounts and their data: it is created readable by its owner only. The
//! secrets (`<data dir>/secrets/`) are not in it; they are backed up once, apart from it.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::store::{integrity_check, open_read_only};

pub fn run(data_dir: &Path, target: &Path) -> anyhow::Result<()> {
    let database = super::launch::database(data_dir)?;
    if target.exists() {
        bail!(
            "{} exists: give a new file name (a backup never overwrites a file)",
            target.display()
        );
    }
    let partial = partial_name(target)?;
    // VACUUM INTO takes an empty file; created here so that it is private from the start.
    crate::private_files::write(&partial, b"")?;
    let copied = copy(&database, &partial).and_then(|()| verify(&partial));
    if let Err(e) = copied {
        let _ = std::fs::remove_file(&partial);
        return Err(e);
    }
    std::fs::File::open(&partial)?.sync_all()?;
    std::fs::rename(&partial, target)
        .with_context(|| format!("while renaming the backup to {}", target.display()))?;
    let (version, observations) = summary(target)?;
    println!(
        "backup {}: ok (schema version {version}, {observations} observations, integrity checked)",
        target.display()
    );
    Ok(())
}

fn partial_name(target: &Path) -> anyhow::Result<PathBuf> {
    let name = target
        .file_name()
        .with_context(|| format!("{} is not a file name", target.display()))?;
    let mut partial = name.to_owned();
    partial.push(".partial");
    Ok(target.with_file_name(partial))
}

/// Copies from a read-only connection: a backup changes nothing (not even the schema version,
/// which only the server's start moves on).
fn copy(database: &Path, partial: &Path) -> anyhow::Result<()> {
    let conn = open_read_only(database)?;
    let into = partial
        .to_str()
        .with_context(|| format!("{} is not a UTF-8 path", partial.display()))?;
    conn.execute("VACUUM INTO ?1", [into])
        .with_context(|| format!("while copying the database into {}", partial.display()))?;
    Ok(())
}

/// The copy must pass SQLite's full integrity check.
fn verify(copy: &Path) -> anyhow::Result<()> {
    integrity_check(&open_read_only(copy)?).context("the copy is not sound")
}

fn summary(copy: &Path) -> anyhow::Result<(i64, i64)> {
    Ok(open_read_only(copy)?.query_row(
        "SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM observations)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}
