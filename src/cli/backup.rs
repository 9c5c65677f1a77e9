//! `regintel backup`: an online copy of the database, consistent at one moment, taken while the
//! server runs. `VACUUM INTO` (<https://www.sqlite.org/lang_vacuum.html#vacuuminto>) writes the
//! copy from one read transaction, so the server's writers carry on, and the copy is compact. It
//! is written into a new directory beside the target that only its owner can enter, checked
//! (`PRAGMA integrity_check`), synced, and only then linked to the target's name, which must not
//! exist: a file at the target's name is always a whole, sound backup, and a link or a file
//! someone else made beside it is never written through.
//!
//! The copy holds accounts and their data: it is readable by its owner only. The
//! secrets (`<data dir>/secrets/`) are not in it; they are backed up once, apart from it.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};

use crate::store::{integrity_check, open_read_only};

pub fn run(
    database: &crate::store::Database,
    target: &Path,
    say: super::logging::LogFormat,
) -> anyhow::Result<()> {
    let data_dir = match database {
        crate::store::Database::Sqlite(data_dir) => data_dir,
        crate::store::Database::Postgres(_) => bail!(
            "the database is PostgreSQL: back it up with PostgreSQL's tools (pg_dump, or the cluster's base backups and WAL archive), and the secrets directory apart from it; see docs/scaling.md"
        ),
    };
    let database = super::launch::database(data_dir)?;
    if target.symlink_metadata().is_ok() {
        bail!(
            "{} exists: give a new file name (a backup never overwrites a file)",
            target.display()
        );
    }
    let workspace = Workspace::create(target)?;
    let copy_path = workspace.dir.join("copy.sqlite");
    copy(&database, &copy_path)?;
    verify(&copy_path)?;
    let copied = std::fs::File::open(&copy_path)?;
    copied.set_permissions(std::fs::Permissions::from_mode(0o600))?;
    copied.sync_all()?;
    // A hard link fails where the name exists: nothing is ever replaced, not even a file or link
    // made at the target's name while the copy was taken.
    std::fs::hard_link(&copy_path, target).with_context(|| {
        format!(
            "while putting the backup in place at {} (a backup never overwrites a file)",
            target.display()
        )
    })?;
    drop(workspace);
    let (version, observations) = summary(target)?;
    say.say(&format!(
        "backup {}: ok (schema version {version}, {observations} observations, integrity checked)",
        target.display()
    ));
    Ok(())
}

/// A directory beside the target that only the service user can enter, made anew for this
/// backup (never one that exists, nor a link: `mkdir` refuses both), where the copy is written.
/// `VACUUM INTO` opens its file by name, so the name must lie where no one else can put a link.
/// Removed with what it holds when dropped.
struct Workspace {
    dir: PathBuf,
}

impl Workspace {
    fn create(target: &Path) -> anyhow::Result<Workspace> {
        use std::os::unix::fs::DirBuilderExt;
        let name = target
            .file_name()
            .with_context(|| format!("{} is not a file name", target.display()))?;
        let mut random = [0u8; 10];
        crate::ids::fill_random(&mut random);
        let mut dir_name = std::ffi::OsString::from(".");
        dir_name.push(name);
        dir_name.push(format!(
            ".partial-{}",
            crate::ids::base32_lower(&random, 16)
        ));
        let dir = target.with_file_name(dir_name);
        std::fs::DirBuilder::new()
            .mode(0o700)
            .create(&dir)
            .with_context(|| format!("while creating the directory {}", dir.display()))?;
        Ok(Workspace { dir })
    }
}

impl Drop for Workspace {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
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
