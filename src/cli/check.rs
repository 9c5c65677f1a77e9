//! `regintel check`: what `serve` would start with, checked without starting it, for installers,
//! `ExecStartPre` and health scripts: the settings (the same flags and variables as `serve`), the
//! TLS files, who may read the secret files the settings name, the data directory, the database
//! and the secrets, the database's integrity and schema version. The first problem stops it
//! with a non-zero exit and a reason.

use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use anyhow::{Context, bail};

use super::logging::LogFormat;
use crate::auth::jwt::{KEYRING_FILE, KeyRing};
use crate::auth::secrets::{PEPPER_FILE, Pepper, SEALING_KEY_FILE, SealingKey};
use crate::store::schema::latest_version;
use crate::store::{Database, integrity_check, open_read_only};

pub fn run(args: &super::args::ServeArgs, say: LogFormat) -> anyhow::Result<()> {
    let config = args.config()?;
    super::launch::tls_settings(args.tls.pair()?, args.plain_http)?;
    for (file, what) in args.secret_files() {
        private(file, 0o077, what)
            .context("consider what it holds exposed: after fixing the mode, change it")?;
    }
    say.say("settings: ok");
    if config.metrics_token.is_none()
        && (args.plain_http || !config.limits.trusted_proxies.is_empty())
    {
        say.warn(
            "no metrics token: /metrics answers only loopback clients that no proxy forwarded, and no one while trusted proxies are set; give --metrics-token-file so a scrape is authenticated",
        );
    }
    let data_dir = &config.data_dir;
    if let Database::Postgres(url) = &config.database {
        private(data_dir, 0o007, "the data directory")?;
        secrets(&data_dir.join("secrets"), config.issuer(), say)?;
        let conn = crate::store::backend::check_postgres(url)?;
        say.say(&format!(
            "database: PostgreSQL, schema version {}",
            conn.version
        ));
        let dir = data_dir.join("secrets");
        let problems = crate::auth::secret_guard::problems(&conn.admin.sql(), &dir)?;
        secrets_found(problems, config.new_secrets, say)?;
        sealed_here(&conn.admin.sql(), &dir, say)?;
        return eurostat_state(&conn.admin.sql(), say);
    }
    let database = super::launch::database(data_dir)?;
    private(data_dir, 0o007, "the data directory")?;
    for suffix in ["", "-wal", "-shm"] {
        let mut name = database.clone().into_os_string();
        name.push(suffix);
        let file = Path::new(&name);
        if file.exists() {
            private(file, 0o007, "the database")?;
        }
    }
    secrets(&data_dir.join("secrets"), config.issuer(), say)?;
    database_state(&database, say)?;
    secrets_of_the_database(
        &database,
        &data_dir.join("secrets"),
        config.new_secrets,
        say,
    )?;
    eurostat_state(
        &crate::store::sql::Db::Sqlite(&open_read_only(&database)?),
        say,
    )
}

/// What was fetched from Eurostat: each dataset's last fetch, and a warning for each whose last
/// attempt failed. Never a refusal: a failed fetch or sync keeps what the dataset held.
fn eurostat_state(conn: &crate::store::sql::Db<'_>, say: LogFormat) -> anyhow::Result<()> {
    // A database from before the record (checked before the server migrates it) has none.
    let recorded = conn.table_exists("eurostat_fetches")?;
    if !recorded {
        return Ok(());
    }
    let time = crate::runtime::clock::rfc3339;
    for f in crate::store::eurostat::all(conn)? {
        let code = &f.dataset_code;
        let fetched = match (f.succeeded_at, &f.last_update_of_data) {
            (Some(at), Some(data)) => format!("fetched {} (Eurostat's data of {data})", time(at)),
            (Some(at), None) => format!("fetched {}", time(at)),
            (None, _) => "never fetched".to_owned(),
        };
        let unclassified = crate::store::eurostat::unclassified_codes(conn, code)?;
        if !unclassified.is_empty() {
            say.say(&format!(
                "eurostat {code}: {}",
                unclassified_said(&unclassified)
            ));
        }
        match (&f.error, f.failed_at) {
            (Some(error), Some(at)) => say.warn(&format!(
                "eurostat {code}: {fetched}; the last attempt failed at {}: {error}",
                time(at)
            )),
            _ => say.say(&format!("eurostat {code}: {fetched}")),
        }
    }
    Ok(())
}

/// Region codes the classification does not know, in words (the first ten named).
pub fn unclassified_said(codes: &[String]) -> String {
    let named: Vec<&str> = codes.iter().take(10).map(String::as_str).collect();
    format!(
        "{} region codes the classification does not know, kept and served as published ({}{})",
        codes.len(),
        named.join(", "),
        if codes.len() > named.len() {
            ", ..."
        } else {
            ""
        }
    )
}

/// Fails when `path` grants any of the permission bits `forbidden` (0o007: others; 0o077: group
/// and others).
pub(super) fn private(path: &Path, forbidden: u32, what: &str) -> anyhow::Result<()> {
    let mode = std::fs::metadata(path)
        .with_context(|| format!("cannot read {}", path.display()))?
        .permissions()
        .mode();
    if mode & forbidden != 0 {
        let fix = if path.is_dir() { "700" } else { "600" };
        bail!(
            "{what} {} has mode {:o}: other users may read it. Run `chmod {fix} {}`",
            path.display(),
            mode & 0o7777,
            path.display()
        );
    }
    Ok(())
}

/// The secrets directory and each secret: private to the service user, and readable as the
/// server reads them. A missing one is made at the first start.
fn secrets(dir: &Path, issuer: &str, say: LogFormat) -> anyhow::Result<()> {
    if !dir.exists() {
        say.say(&format!(
            "secrets {}: none yet (made at the first start)",
            dir.display()
        ));
        return Ok(());
    }
    private(dir, 0o077, "the secrets directory").context(
        "consider the secrets exposed: after fixing the mode, rotate the API keys and webhook secrets",
    )?;
    for entry in std::fs::read_dir(dir)? {
        private(&entry?.path(), 0o077, "the secret")
            .context("consider it exposed: after fixing the mode, rotate what it protects")?;
    }
    if dir.join(PEPPER_FILE).exists() {
        Pepper::load_or_create(dir)?;
    }
    if dir.join(SEALING_KEY_FILE).exists() {
        SealingKey::load_or_create(dir)?;
    }
    if dir.join(KEYRING_FILE).exists() {
        KeyRing::load_or_create(dir, issuer)?;
    }
    say.say(&format!("secrets {}: ok", dir.display()));
    Ok(())
}

/// The secret files are those the database records (or `--new-secrets` is given).
fn secrets_of_the_database(
    database: &Path,
    dir: &Path,
    new_secrets: bool,
    say: LogFormat,
) -> anyhow::Result<()> {
    let conn = open_read_only(database)?;
    let conn = crate::store::sql::Db::Sqlite(&conn);
    let problems = crate::auth::secret_guard::problems(&conn, dir)?;
    secrets_found(problems, new_secrets, say)?;
    sealed_here(&conn, dir, say)
}

/// Warns of webhook endpoints whose secret another sealing key sealed (secrets that forked
/// between nodes): they sign nothing until their secret is rotated, or the key that sealed them
/// is put back. A warning, not a refusal: rotating needs the server running.
fn sealed_here(conn: &crate::store::sql::Db<'_>, dir: &Path, say: LogFormat) -> anyhow::Result<()> {
    let elsewhere = crate::auth::secret_guard::sealed_elsewhere(conn, dir)?;
    if !elsewhere.is_empty() {
        let shown: Vec<&str> = elsewhere.iter().take(10).map(String::as_str).collect();
        say.warn(&format!(
            "{} webhook endpoints ({}{}) hold a signing secret sealed under another key than {}: a process made a sealing key of its own. Put back the key that sealed them, or rotate each one's secret (POST /webhooks/{{webhook_id}}/rotate-secret); docs/scaling.md, \"Secrets that forked\"",
            elsewhere.len(),
            shown.join(", "),
            if elsewhere.len() > shown.len() { ", ..." } else { "" },
            dir.join(crate::auth::secrets::SEALING_KEY_FILE).display()
        ));
    }
    Ok(())
}

/// Says the secrets are right, or what is wrong with them (a warning with `new_secrets`).
fn secrets_found(problems: Vec<String>, new_secrets: bool, say: LogFormat) -> anyhow::Result<()> {
    match (problems.is_empty(), new_secrets) {
        (true, _) => say.say("secrets: those the database records"),
        (false, true) => say.warn(&format!("--new-secrets: {}", problems.join("; "))),
        (false, false) => bail!("{}", problems.join("; ")),
    }
    Ok(())
}

/// Integrity, foreign keys, schema version (older: migrated at the next start; newer: this
/// binary is older than the data, and refuses it), data. Read-only: a check changes nothing.
fn database_state(path: &Path, say: LogFormat) -> anyhow::Result<()> {
    let conn = open_read_only(path)?;
    integrity_check(&conn).with_context(|| format!("database {}", path.display()))?;
    let violations: i64 =
        conn.query_row("SELECT count(*) FROM pragma_foreign_key_check", [], |r| {
            r.get(0)
        })?;
    if violations > 0 {
        bail!("database has {violations} foreign key violations");
    }
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let latest = latest_version();
    if version > latest {
        bail!(
            "the database is at schema version {version}, newer than this regintel binary \
             (version {latest}): a downgrade is refused. Run the newer regintel, or restore a \
             backup taken before the upgrade"
        );
    }
    let (datasets, observations): (i64, i64) = conn.query_row(
        "SELECT (SELECT count(*) FROM datasets), (SELECT count(*) FROM observations)",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if datasets == 0 {
        bail!(
            "database {} holds no data: run `regintel import --bundled` first",
            path.display()
        );
    }
    let migrations = if version < latest {
        format!(", migrated to {latest} at the next start")
    } else {
        String::new()
    };
    say.say(&format!(
        "database {}: ok (schema version {version}{migrations}, {datasets} datasets, {observations} observations)",
        path.display()
    ));
    Ok(())
}
