//! The secret files and the database belong together: API keys are MACs under the pepper,
//! webhook secrets are sealed with the sealing key, sessions are signed with the key ring. A
//! database restored without its `secrets/` (or with another installation's) would start, make
//! new secrets, and then answer every API key with 401 and never deliver a webhook. So the
//! database keeps a fingerprint of each file it was used with, and the server (and `check`)
//! refuses to start when a file on which rows depend is missing or (pepper, sealing key)
//! different, naming it; making new secrets over a database that holds what the old ones protect
//! takes `--new-secrets`, which says what breaks.

use std::path::Path;

use crate::store::sql::{Db, Dialect, OptionalExtension, params};
use anyhow::bail;
use sha2::{Digest, Sha256};

use super::jwt::KEYRING_FILE;
use super::secrets::{PEPPER_FILE, SEALING_KEY_FILE};

/// A secret file, the rows that depend on it (counted by `protected`, whose `?1`, if it has one,
/// is now in unix milliseconds; named), what a new one does to them, and
/// whether another file in its place breaks them: the key ring is edited by hand to rotate its
/// keys (its sessions are minutes long), so only its absence is refused.
struct Guarded {
    file: &'static str,
    protected: &'static str,
    rows_are: &'static str,
    new_one: &'static str,
    contents_matter: bool,
}

const GUARDED: [Guarded; 3] = [
    Guarded {
        file: PEPPER_FILE,
        protected: "SELECT count(*) FROM api_keys WHERE revoked_at IS NULL",
        rows_are: "active API keys",
        new_one: "each would answer 401",
        contents_matter: true,
    },
    Guarded {
        file: SEALING_KEY_FILE,
        protected: "SELECT count(*) FROM webhook_endpoints",
        rows_are: "webhook endpoints",
        new_one: "none could sign a delivery until its secret is rotated",
        contents_matter: true,
    },
    Guarded {
        file: KEYRING_FILE,
        protected: "SELECT count(*) FROM sessions WHERE revoked_at IS NULL AND expires_at > ?1",
        rows_are: "sessions",
        new_one: "each would end",
        contents_matter: false,
    },
];

/// A secret's fingerprint: a labelled SHA-256 of the file, from which nothing of it follows.
pub fn fingerprint(bytes: &[u8]) -> String {
    let digest = Sha256::new()
        .chain_update(b"regintel secret fingerprint v1\0")
        .chain_update(bytes)
        .finalize();
    crate::ids::hex(&digest)
}

/// What is wrong between the secret files in `secrets_dir` and the database: for each file on
/// which rows of the database depend, missing, or (where its contents matter) another than the
/// one the database was used with. Read-only.
pub fn problems(conn: &Db<'_>, secrets_dir: &Path) -> anyhow::Result<Vec<String>> {
    // A database from before the fingerprints (an old backup) has no record, and its rows
    // still need their files.
    let fingerprinted: bool = conn.query_row(
        match conn.dialect() {
            Dialect::Sqlite => {
                "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'secret_fingerprints'"
            }
            Dialect::Postgres => "SELECT to_regclass('secret_fingerprints') IS NOT NULL",
        },
        params![],
        |r| r.get(0),
    )?;
    let now = crate::runtime::clock::now_ms();
    let mut out = Vec::new();
    for guarded in &GUARDED {
        let Guarded {
            file,
            protected,
            rows_are,
            new_one,
            contents_matter,
        } = *guarded;
        let mut count = conn.prepare(protected)?;
        let rows: i64 = match protected.contains("?1") {
            true => count.query_row(params![now], |r| r.get(0))?,
            false => count.query_row(params![], |r| r.get(0))?,
        };
        if rows == 0 {
            continue;
        }
        let recorded: Option<String> = match fingerprinted {
            true => conn
                .query_row(
                    "SELECT fingerprint FROM secret_fingerprints WHERE file = ?1",
                    params![file],
                    |r| r.get(0),
                )
                .optional()?,
            false => None,
        };
        let path = secrets_dir.join(file);
        let present = match std::fs::read(&path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => bail!("cannot read {}: {e}", path.display()),
        };
        let what = match (&recorded, &present) {
            (_, None) => "is missing",
            (Some(known), Some(bytes)) if contents_matter && *known != fingerprint(bytes) => {
                "is not the one the database was used with"
            }
            _ => continue,
        };
        out.push(format!(
            "{} {what}: the database holds {rows} {rows_are} that depend on it ({new_one} with a new one). Restore it from the backup of the secrets directory, or start with --new-secrets to make new ones",
            path.display()
        ));
    }
    Ok(out)
}

/// At start, before the secrets are loaded: refuses on [`problems`], unless `new_secrets`, which
/// logs what the new secrets break (a different file present is then taken as the new one).
fn before_loading(conn: &Db<'_>, secrets_dir: &Path, new_secrets: bool) -> anyhow::Result<()> {
    let problems = problems(conn, secrets_dir)?;
    if problems.is_empty() {
        if new_secrets {
            tracing::warn!(
                "--new-secrets (REGINTEL_NEW_SECRETS) is set and nothing needed it: remove it, or a later start without the secrets would make new ones without refusing"
            );
        }
        return Ok(());
    }
    if !new_secrets {
        bail!("{}", problems.join("; "));
    }
    for problem in &problems {
        tracing::warn!(%problem, "--new-secrets: a new secret replaces the one the database was used with");
    }
    Ok(())
}

/// Checks the secrets of `data_dir` against the database before `load` reads them (and makes
/// the missing ones), and records their fingerprints after.
pub fn guarded<T>(
    store: &crate::store::Store,
    data_dir: &Path,
    new_secrets: bool,
    load: impl FnOnce() -> anyhow::Result<T>,
) -> anyhow::Result<T> {
    let dir = super::secrets::secrets_dir(data_dir)?;
    let admin = store.admin()?;
    let conn = admin.sql();
    before_loading(&conn, &dir, new_secrets)?;
    let loaded = load()?;
    record(&conn, &dir)?;
    Ok(loaded)
}

/// Once the secrets are loaded (made where missing): records the fingerprint of each file there
/// is.
fn record(conn: &Db<'_>, secrets_dir: &Path) -> anyhow::Result<()> {
    for Guarded { file, .. } in &GUARDED {
        let Ok(bytes) = std::fs::read(secrets_dir.join(file)) else {
            continue;
        };
        conn.execute(
            "INSERT INTO secret_fingerprints (file, fingerprint, recorded_at) VALUES (?1, ?2, ?3)
             ON CONFLICT (file) DO UPDATE SET fingerprint = excluded.fingerprint,
                 recorded_at = excluded.recorded_at
             WHERE secret_fingerprints.fingerprint <> excluded.fingerprint",
            params![file, fingerprint(&bytes), crate::runtime::clock::now_ms()],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database_with_a_key() -> rusqlite::Connection {
        let mut conn =
            crate::store::pool::open(Path::new(":memory:"), crate::store::pool::Role::System)
                .unwrap()
                .conn;
        crate::store::migrate::migrate(&mut conn).unwrap();
        conn.execute_batch(
            "INSERT INTO accounts (id, email, display_name, tier, created_at)
                 VALUES (1, 'a@example.org', 'A', 'professional', 0);
             INSERT INTO api_keys (id, key_id, account_id, name, mac, pepper_version, created_at)
                 VALUES (1, 'abcdefgh', 1, 'k', x'00', 1, 0);",
        )
        .unwrap();
        conn
    }

    /// A database from before the fingerprints (none recorded) that holds keys still needs its
    /// pepper; a recorded fingerprint tells another installation's file from its own.
    #[test]
    fn missing_and_different_secrets_are_named_with_what_depends_on_them() {
        let conn = database_with_a_key();
        let conn = Db::Sqlite(&conn);
        let dir = tempfile::tempdir().unwrap();
        let problems = problems(&conn, dir.path()).unwrap();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("api_key_pepper is missing")
                && problems[0].contains("1 active API keys"),
            "{problems:?}"
        );
        assert!(before_loading(&conn, dir.path(), false).is_err());
        assert!(before_loading(&conn, dir.path(), true).is_ok());

        std::fs::write(dir.path().join(PEPPER_FILE), [7u8; 32]).unwrap();
        assert!(super::problems(&conn, dir.path()).unwrap().is_empty());
        record(&conn, dir.path()).unwrap();
        std::fs::write(dir.path().join(PEPPER_FILE), [8u8; 32]).unwrap();
        let problems = super::problems(&conn, dir.path()).unwrap();
        assert!(
            problems.len() == 1
                && problems[0].contains("is not the one the database was used with"),
            "{problems:?}"
        );
        // What is stored is the labelled digest, not the secret.
        let stored: String = conn
            .query_row(
                "SELECT fingerprint FROM secret_fingerprints",
                params![],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(stored, fingerprint(&[7u8; 32]));
        assert!(!stored.contains(&"07".repeat(32)));
    }

    /// The key ring is edited by hand to rotate its keys: another one in its place is taken;
    /// only its absence is refused, and only while a session that has not expired needs it.
    #[test]
    fn the_key_ring_is_refused_only_when_missing_under_live_sessions() {
        let conn = database_with_a_key();
        let conn = Db::Sqlite(&conn);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(PEPPER_FILE), [7u8; 32]).unwrap();
        std::fs::write(dir.path().join(KEYRING_FILE), "ring one").unwrap();
        record(&conn, dir.path()).unwrap();
        std::fs::write(dir.path().join(KEYRING_FILE), "ring two").unwrap();
        conn.execute_batch(
            "INSERT INTO sessions (id, account_id, created_at, expires_at)
             VALUES ('s1', 1, 0, unixepoch() * 1000 + 3600000);",
        )
        .unwrap();
        assert!(
            problems(&conn, dir.path()).unwrap().is_empty(),
            "a rotated ring"
        );
        std::fs::remove_file(dir.path().join(KEYRING_FILE)).unwrap();
        let found = problems(&conn, dir.path()).unwrap();
        assert!(
            found.len() == 1 && found[0].contains("is missing") && found[0].contains("1 sessions"),
            "{found:?}"
        );
        conn.execute("UPDATE sessions SET expires_at = 0", params![])
            .unwrap();
        assert!(
            problems(&conn, dir.path()).unwrap().is_empty(),
            "expired sessions"
        );
        // A database from before the fingerprints (an old backup) still needs its pepper.
        conn.execute_batch("DROP TABLE secret_fingerprints")
            .unwrap();
        std::fs::remove_file(dir.path().join(PEPPER_FILE)).unwrap();
        let found = problems(&conn, dir.path()).unwrap();
        assert!(
            found.len() == 1 && found[0].contains("api_key_pepper is missing"),
            "{found:?}"
        );
    }
}
