//! The secret files and the database belong together: API keys are MACs under the pepper,
//! webhook secrets are sealed with the sealing key, sessions are signed with the key ring. A
//! database restored without its `secrets/` (or with another installation's), or a second node
//! started without a copy of the first one's, would start, make secrets of its own, and then
//! answer every API key with 401 or sign no webhook. So the three are made together, once, under
//! a lock of the database, and the database records a fingerprint of each (and where it was
//! made) when it is made; a process (and `check`) refuses to start when a recorded pepper or
//! sealing key is missing or different, or the key ring missing, naming the file and where to
//! copy it from. Only `--new-secrets` makes new ones over recorded ones, and says what breaks.

use std::path::Path;

use crate::store::sql::{Db, OptionalExtension, params};
use anyhow::bail;
use sha2::{Digest, Sha256};

use super::Auth;
use super::jwt::KEYRING_FILE;
use super::secrets::{PEPPER_FILE, SEALING_KEY_FILE, SealingKey};

/// A secret file, the rows that depend on it (counted by `protected`, whose `?1`, if it has one,
/// is now in unix milliseconds; named), what a new one does to them, and whether another file in
/// its place breaks them: the key ring is edited by hand to rotate its keys (its sessions are
/// minutes long), so only its absence is refused.
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

/// The advisory lock under which PostgreSQL nodes make and record the secrets ("secrets!").
const SECRETS_LOCK: i64 = 0x7365_6372_6574_7321;

/// A secret's fingerprint: a labelled SHA-256 of the file, from which nothing of it follows.
pub fn fingerprint(bytes: &[u8]) -> String {
    let digest = Sha256::new()
        .chain_update(b"regintel secret fingerprint v1\0")
        .chain_update(bytes)
        .finalize();
    crate::ids::hex(&digest)
}

/// What the database records of a secret: its fingerprint, and where and when it was made
/// (where: none for one recorded before the database kept it).
struct Recorded {
    fingerprint: String,
    made_on: Option<String>,
    recorded_at: i64,
}

impl Recorded {
    /// Where an operator finds the file the database records.
    fn origin(&self) -> String {
        let when = crate::runtime::clock::rfc3339(self.recorded_at);
        match &self.made_on {
            Some(place) => format!("the one made in {place} at {when}"),
            None => format!("the one it was first used with (recorded at {when})"),
        }
    }
}

fn recorded(conn: &Db<'_>, file: &str, fingerprinted: bool) -> anyhow::Result<Option<Recorded>> {
    if !fingerprinted {
        return Ok(None);
    }
    let found = conn
        .query_row(
            "SELECT fingerprint, recorded_at FROM secret_fingerprints WHERE file = ?1",
            params![file],
            |r| Ok((r.get::<String>(0)?, r.get::<i64>(1)?)),
        )
        .optional()?;
    let Some((fingerprint, recorded_at)) = found else {
        return Ok(None);
    };
    // A database from before the column (checked before the server migrates it) has none.
    let made_on = match conn.column_exists("secret_fingerprints", "made_on")? {
        true => conn.query_row(
            "SELECT made_on FROM secret_fingerprints WHERE file = ?1",
            params![file],
            |r| r.get::<Option<String>>(0),
        )?,
        false => None,
    };
    Ok(Some(Recorded {
        fingerprint,
        made_on,
        recorded_at,
    }))
}

/// What is wrong between the secret files in `secrets_dir` and the database: each file the
/// database recorded that is missing or (pepper, sealing key) another, and each file on which
/// rows depend that is missing (a database from before the record). Read-only.
pub fn problems(conn: &Db<'_>, secrets_dir: &Path) -> anyhow::Result<Vec<String>> {
    let fingerprinted = conn.table_exists("secret_fingerprints")?;
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
        let recorded = recorded(conn, file, fingerprinted)?;
        let path = secrets_dir.join(file);
        let present = match std::fs::read(&path) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => bail!("cannot read {}: {e}", path.display()),
        };
        let what = match (&recorded, &present) {
            (Some(_), None) => "is missing",
            (None, None) if rows > 0 => "is missing",
            (Some(known), Some(bytes))
                if contents_matter && known.fingerprint != fingerprint(bytes) =>
            {
                "is not the one the database records"
            }
            _ => continue,
        };
        let copy = match &recorded {
            Some(known) => format!(
                "Copy {} here (owner-only, mode 0600): every process of one database uses the \
                 same secret files",
                known.origin()
            ),
            None => "Restore it from the backup of the secrets directory".to_owned(),
        };
        let depending = match rows {
            0 => String::new(),
            n => format!(
                " The database holds {n} {rows_are} that depend on it ({new_one} with a new one)."
            ),
        };
        out.push(format!(
            "{} {what}. {copy}.{depending} Or start with --new-secrets to make new ones",
            path.display()
        ));
    }
    Ok(out)
}

/// The webhook endpoints whose signing secret the sealing key in `secrets_dir` cannot open: they
/// were sealed under another key, by a process that made a sealing key of its own (an install
/// whose secrets forked). None when the directory holds no sealing key. Read-only.
pub fn sealed_elsewhere(conn: &Db<'_>, secrets_dir: &Path) -> anyhow::Result<Vec<String>> {
    let Some(key) = SealingKey::load(secrets_dir)? else {
        return Ok(Vec::new());
    };
    let mut stmt = conn.prepare("SELECT public_id, secret_sealed FROM webhook_endpoints")?;
    let endpoints: Vec<(String, String)> = stmt
        .query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    Ok(endpoints
        .into_iter()
        .filter(|(id, sealed)| key.open(sealed, id).is_none())
        .map(|(id, _)| id)
        .collect())
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
        tracing::warn!(%problem, "--new-secrets: a new secret replaces the one the database records");
    }
    Ok(())
}

/// The secrets of a data directory, loaded together.
pub struct Secrets {
    /// The pepper and the key ring, with what checks keys and sessions.
    pub auth: Auth,
    /// The key that seals webhook signing secrets.
    pub sealing: SealingKey,
}

/// Loads the three secrets of `data_dir`, making those missing, after checking them against
/// the database ([`problems`]; `new_secrets` takes new ones over recorded ones), records the
/// fingerprint of each one the database has no record of (of each one, with `new_secrets`), and
/// opens the store's request connections. All under a lock of the database: two processes
/// starting together on an empty database make one set, and the second, whose data directory
/// does not hold it, is refused naming the files.
pub fn open(
    store: &crate::store::Store,
    data_dir: &Path,
    issuer: &str,
    new_secrets: bool,
) -> anyhow::Result<Secrets> {
    let dir = super::secrets::secrets_dir(data_dir)?;
    let mut admin = store.admin()?;
    let tx = admin.transaction()?;
    tx.lock_transaction(SECRETS_LOCK)?;
    before_loading(&tx, &dir, new_secrets)?;
    let secrets = Secrets {
        auth: Auth::open(data_dir, issuer)?,
        sealing: SealingKey::load_or_create(&dir)?,
    };
    record(&tx, &dir, new_secrets)?;
    // PostgreSQL's request connections log in with a password derived from the pepper: opened
    // (the role's password set where it is to be) under the lock, so that a process starting
    // with --new-secrets and one starting with the pepper it replaces set it one after the other.
    store.open_requests(&|role| secrets.auth.request_role_password(role))?;
    tx.commit()?;
    Ok(secrets)
}

/// This machine's name, for where a secret was made.
fn host_name() -> String {
    let mut buffer = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
    let ok = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) } == 0;
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    match ok {
        true => String::from_utf8_lossy(&buffer[..end]).into_owned(),
        false => "this machine".to_owned(),
    }
}

/// Records the fingerprint of each secret file there is that the database has no record of
/// (with `new_secrets`, of each, over the recorded one), with where it was made.
fn record(conn: &Db<'_>, secrets_dir: &Path, new_secrets: bool) -> anyhow::Result<()> {
    let made_on = format!("{} on {}", secrets_dir.display(), host_name());
    let sql = match new_secrets {
        true => {
            "INSERT INTO secret_fingerprints (file, fingerprint, recorded_at, made_on)
             VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (file) DO UPDATE SET fingerprint = excluded.fingerprint,
                 recorded_at = excluded.recorded_at, made_on = excluded.made_on
             WHERE secret_fingerprints.fingerprint <> excluded.fingerprint"
        }
        false => {
            "INSERT INTO secret_fingerprints (file, fingerprint, recorded_at, made_on)
             VALUES (?1, ?2, ?3, ?4) ON CONFLICT (file) DO NOTHING"
        }
    };
    for Guarded { file, .. } in &GUARDED {
        let Ok(bytes) = std::fs::read(secrets_dir.join(file)) else {
            continue;
        };
        conn.execute(
            sql,
            params![
                file,
                fingerprint(&bytes),
                crate::runtime::clock::now_ms(),
                made_on
            ],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn database_with_a_key() -> rusqlite::Connection {
        let mut conn = crate::store::sqlite::pool::open(
            Path::new(":memory:"),
            crate::store::sqlite::pool::Role::System,
        )
        .unwrap()
        .conn;
        crate::store::sqlite::migrate::migrate(&mut conn).unwrap();
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
    /// pepper; a recorded fingerprint tells another installation's file from its own, and says
    /// where the recorded one was made, whether or not rows depend on it yet.
    #[test]
    fn missing_and_different_secrets_are_named_with_where_to_copy_them_from() {
        let conn = database_with_a_key();
        let conn = Db::Sqlite(&conn);
        let dir = tempfile::tempdir().unwrap();
        let problems = problems(&conn, dir.path()).unwrap();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(
            problems[0].contains("api_key_pepper is missing")
                && problems[0].contains("1 active API keys")
                && problems[0].contains("Restore it from the backup"),
            "{problems:?}"
        );
        assert!(before_loading(&conn, dir.path(), false).is_err());
        assert!(before_loading(&conn, dir.path(), true).is_ok());

        std::fs::write(dir.path().join(PEPPER_FILE), [7u8; 32]).unwrap();
        std::fs::write(dir.path().join(SEALING_KEY_FILE), [1u8; 32]).unwrap();
        assert!(super::problems(&conn, dir.path()).unwrap().is_empty());
        record(&conn, dir.path(), false).unwrap();
        std::fs::write(dir.path().join(PEPPER_FILE), [8u8; 32]).unwrap();
        // No endpoint depends on the sealing key yet; it is recorded all the same.
        std::fs::remove_file(dir.path().join(SEALING_KEY_FILE)).unwrap();
        let problems = super::problems(&conn, dir.path()).unwrap();
        let place = format!("made in {} on {}", dir.path().display(), host_name());
        assert!(
            problems.len() == 2
                && problems[0].contains("api_key_pepper is not the one the database records")
                && problems[1].contains("webhook_secrets_key is missing")
                && problems.iter().all(|p| p.contains(&place)),
            "{problems:?}"
        );
        // A recorded one is never overwritten, but by --new-secrets.
        record(&conn, dir.path(), false).unwrap();
        assert_eq!(super::problems(&conn, dir.path()).unwrap().len(), 2);
        record(&conn, dir.path(), true).unwrap();
        assert_eq!(super::problems(&conn, dir.path()).unwrap().len(), 1);
        // What is stored is the labelled digest, not the secret.
        let stored: String = conn
            .query_row(
                "SELECT fingerprint FROM secret_fingerprints WHERE file = ?1",
                params![PEPPER_FILE],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(stored, fingerprint(&[8u8; 32]));
        assert!(!stored.contains(&"08".repeat(32)));
    }

    /// The key ring is edited by hand to rotate its keys: another one in its place is taken;
    /// only its absence is refused: where the database recorded one, or (a database from before
    /// the record) while a session that has not expired needs it.
    #[test]
    fn the_key_ring_is_refused_only_when_missing() {
        let conn = database_with_a_key();
        let conn = Db::Sqlite(&conn);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join(PEPPER_FILE), [7u8; 32]).unwrap();
        std::fs::write(dir.path().join(KEYRING_FILE), "ring one").unwrap();
        record(&conn, dir.path(), false).unwrap();
        std::fs::write(dir.path().join(KEYRING_FILE), "ring two").unwrap();
        assert!(
            problems(&conn, dir.path()).unwrap().is_empty(),
            "a rotated ring"
        );
        std::fs::remove_file(dir.path().join(KEYRING_FILE)).unwrap();
        let found = problems(&conn, dir.path()).unwrap();
        assert!(
            found.len() == 1 && found[0].contains("jwt_keys.json is missing"),
            "{found:?}"
        );
        // A database from before the fingerprints (an old backup): the ring is needed while a
        // session lives, the pepper while a key does.
        conn.execute_batch("DROP TABLE secret_fingerprints")
            .unwrap();
        assert!(
            problems(&conn, dir.path()).unwrap().is_empty(),
            "no sessions"
        );
        conn.execute_batch(
            "INSERT INTO sessions (id, account_id, created_at, expires_at)
             VALUES ('s1', 1, 0, unixepoch() * 1000 + 3600000);",
        )
        .unwrap();
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
        std::fs::remove_file(dir.path().join(PEPPER_FILE)).unwrap();
        let found = problems(&conn, dir.path()).unwrap();
        assert!(
            found.len() == 1 && found[0].contains("api_key_pepper is missing"),
            "{found:?}"
        );
    }
}
