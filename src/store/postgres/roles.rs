//! The request role. Requests read through connections that log in as a role of their own: it
//! has no `BYPASSRLS`, owns nothing, and may read only the `v_*` views and the public tables
//! (and, where views run with their caller's rights, the columns they show), so row-level
//! security binds it and no statement, however wrong, can read past it. A `SET ROLE` from the
//! owner would not do: a bug could `RESET ROLE`.
//!
//! regintel makes the role itself, so an installation needs one ordinary role with `CREATEROLE`
//! that owns the database. Its password is derived on each node from the API key pepper (every
//! node holds the same one), so it passes through no statement and no table: the database holds
//! only its SCRAM verifier, set by [`set_password`] when the role is new, when an older release
//! kept a password in the database (which a server log may have recorded), or when the pepper
//! was replaced.

use anyhow::{Context, bail};
use postgres::Transaction;

/// Tables the request role reads directly, as SQLite's request connections may: they hold
/// nothing private.
use crate::store::schema::PUBLIC_TABLES;

/// The request role of the database owner `owner`.
pub fn request_role_name(owner: &str) -> anyhow::Result<String> {
    let role = format!("{owner}_request");
    // PostgreSQL cuts longer names to 63 bytes: two owners could then share one role.
    if role.len() > 63 {
        bail!("the database owner's role name `{owner}` is too long: at most 55 bytes");
    }
    Ok(role)
}

/// A name as an SQL identifier.
fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

/// Makes the request role when it is missing (without a password: none logs in as it until
/// [`set_password`]) and grants it what it reads, in the migration's transaction `tx`, which
/// holds the migration lock: nodes starting together make it once. Returns its name. A role of
/// that name that is not this database's (`request_login` records the role this database made),
/// or may hold other roles' rights, is refused.
pub fn ensure_request_role(tx: &mut Transaction<'_>) -> anyhow::Result<String> {
    let owner: String = tx.query_one("SELECT current_user::text", &[])?.get(0);
    let role = request_role_name(&owner)?;
    let existing = tx.query_opt(
        "SELECT rolsuper OR rolbypassrls, rolcanlogin FROM pg_roles WHERE rolname = $1",
        &[&role],
    )?;
    if let Some(row) = &existing {
        let (bypasses, can_login): (bool, bool) = (row.get(0), row.get(1));
        if bypasses || !can_login {
            bail!(
                "the role {role} exists but is not the request role regintel makes (a login \
                 role without SUPERUSER or BYPASSRLS); drop it or name another database owner"
            );
        }
        // A member of another role may hold that role's rights (its tables', the owner's).
        let member: bool = tx
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM pg_auth_members m JOIN pg_roles r ON r.oid = m.member
                                WHERE r.rolname = $1)",
                &[&role],
            )?
            .get(0);
        if member {
            bail!(
                "the role {role} is a member of another role, which may give it rights past \
                 row-level security: revoke its memberships, or drop it and let regintel make it"
            );
        }
    }
    let recorded = tx
        .query_opt("SELECT role FROM request_login WHERE role = $1", &[&role])?
        .is_some();
    match (recorded, &existing) {
        (true, Some(_)) => {}
        // Roles belong to the cluster, databases' records of them to a database: a role this
        // database did not make serves another database of the same owner, whose nodes a new
        // password would lock out.
        (false, Some(_)) => bail!(
            "the role {role} exists, but this database did not make it: it is the request role \
             of another database of the owner {owner}. Give each regintel database an owner \
             role of its own"
        ),
        (_, None) => {
            tx.batch_execute(&format!(
                "CREATE ROLE {} LOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE NOINHERIT \
                 PASSWORD NULL",
                quoted(&role)
            ))
            .with_context(|| {
                format!("while making the request role {role} (the owner needs CREATEROLE)")
            })?;
            tx.execute(
                "INSERT INTO request_login (role) VALUES ($1) ON CONFLICT (role) DO NOTHING",
                &[&role],
            )?;
            tx.execute(
                "DELETE FROM store_meta WHERE key = 'request_password_set'",
                &[],
            )?;
        }
    }
    grant_reads(tx, &role)?;
    // Revoked from PUBLIC by migration 21, which only the database's owner can do.
    let temporary: bool = tx
        .query_one(
            "SELECT has_database_privilege($1, current_database(), 'TEMPORARY')",
            &[&role],
        )?
        .get(0);
    if temporary {
        tracing::warn!(
            role = %role,
            "the request role may make temporary tables: run `REVOKE TEMPORARY ON DATABASE <database> FROM PUBLIC` as the database's owner"
        );
    }
    Ok(role)
}

/// Whether the request role's password is to be set: it is new, an older release kept its
/// password in the database, or the pepper it is derived from was replaced (`rejected`: a login
/// with the derived one was refused).
pub fn password_to_set(client: &mut postgres::Client, rejected: bool) -> anyhow::Result<bool> {
    // No record: a database that `regintel migrate --to` filled from a SQLite file (its
    // `store_meta` rows replace the new database's), or one made before the record.
    let set: Option<i64> = client
        .query_opt(
            "SELECT value FROM store_meta WHERE key = 'request_password_set'",
            &[],
        )?
        .map(|r| r.get(0));
    Ok(rejected || set != Some(1))
}

/// Sets `role`'s password to `password`, sent as its SCRAM verifier (base64 and `$`: safe inside
/// the literal; a role takes no password parameter), so no statement or server log holds the
/// password; under the migration lock, so nodes starting together set it one after another.
pub fn set_password(
    client: &mut postgres::Client,
    role: &str,
    password: &str,
    lock: i64,
) -> anyhow::Result<()> {
    let verifier = postgres_protocol::password::scram_sha_256(password.as_bytes());
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&lock])?;
    tx.batch_execute(&format!(
        "ALTER ROLE {} PASSWORD '{verifier}'",
        quoted(role)
    ))
    .with_context(|| {
        format!(
            "while setting the password of the request role {role} (the owner needs CREATEROLE)"
        )
    })?;
    tx.execute(
        "INSERT INTO store_meta (key, value) VALUES ('request_password_set', 1)
         ON CONFLICT (key) DO UPDATE SET value = 1",
        &[],
    )?;
    tx.commit()?;
    Ok(())
}

/// The views regintel's schema makes (`CREATE VIEW v_...` in `schema.postgres.sql`): those
/// the request role reads, and no other view someone made in the database.
fn schema_views() -> Vec<String> {
    crate::store::schema::POSTGRES
        .split("CREATE VIEW ")
        .skip(1)
        .filter_map(|rest| rest.split_whitespace().next())
        .filter(|name| name.starts_with("v_"))
        .map(str::to_owned)
        .collect()
}

/// Grants `role` the reads of request connections: the schema's `v_*` views and the public
/// tables. Where views can run with their caller's rights (PostgreSQL 15 and later) they do, so
/// the policies bind through them too, and the role gets the columns of the tables they show.
fn grant_reads(tx: &mut Transaction<'_>, role: &str) -> anyhow::Result<()> {
    let role = quoted(role);
    let schema: String = tx.query_one("SELECT current_schema()::text", &[])?.get(0);
    let mut sql = format!("GRANT USAGE ON SCHEMA {} TO {role};\n", quoted(&schema));
    for table in PUBLIC_TABLES {
        sql += &format!("GRANT SELECT ON {} TO {role};\n", quoted(table));
    }
    let views: Vec<String> = tx
        .query(
            "SELECT table_name::text FROM information_schema.views
             WHERE table_schema = current_schema() AND table_name = ANY($1) ORDER BY 1",
            &[&schema_views()],
        )?
        .iter()
        .map(|r| r.get(0))
        .collect();
    let invoker = tx
        .query_one(
            "SELECT current_setting('server_version_num')::int >= 150000",
            &[],
        )?
        .get::<_, bool>(0);
    for view in &views {
        sql += &format!("GRANT SELECT ON {} TO {role};\n", quoted(view));
        if invoker {
            sql += &format!(
                "ALTER VIEW {} SET (security_invoker = true);\n",
                quoted(view)
            );
        }
    }
    if invoker {
        let columns = tx.query(
            "SELECT u.table_name::text, string_agg(DISTINCT u.column_name::text, ', ')
             FROM information_schema.view_column_usage u
             JOIN information_schema.tables t
               ON t.table_schema = u.table_schema AND t.table_name = u.table_name
             WHERE u.view_schema = current_schema() AND u.view_name = ANY($1)
               AND t.table_type = 'BASE TABLE'
             GROUP BY u.table_name",
            &[&views],
        )?;
        for row in columns {
            let (table, columns): (String, String) = (row.get(0), row.get(1));
            let columns: Vec<String> = columns.split(", ").map(quoted).collect();
            sql += &format!(
                "GRANT SELECT ({}) ON {} TO {role};\n",
                columns.join(", "),
                quoted(&table)
            );
        }
    }
    tx.batch_execute(&sql)
        .context("while granting the request role its reads")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{password_to_set, request_role_name, set_password};
    use crate::store::postgres::migrate::migrate;
    use crate::store::postgres::testing::TestDatabase;

    /// Rows of accounts 1 and 2 in every table that has an owner, and public ones beside them.
    const ROWS: &str = "
        INSERT INTO accounts (id, email, display_name, tier, created_at, password_hash) VALUES
            (1, 'a@example.org', 'A', 'institutional', 0, 'hash-a'),
            (2, 'b@example.org', 'B', 'institutional', 0, 'hash-b');
        INSERT INTO datasets (id, owner_account_id, code, title, topic) VALUES
            (10, NULL, 'pub', 'P', 't'), (11, 1, 'mine', 'A', 't'), (12, 2, 'mine', 'B', 't');
        INSERT INTO series (id, dataset_id, unit, dims) VALUES (10, 10, 'NR', ''), (11, 11, 'NR', ''),
            (12, 12, 'NR', '');
        INSERT INTO snapshots (id, public_id, dataset_id, owner_account_id, imported_at, file_name,
                               file_sha256, format, rows_in_file, rows_added, rows_revised,
                               rows_unchanged)
            SELECT id, 'snp_' || id, id, owner_account_id, 0, 'f', 's', 'tidy', 1, 1, 0, 0
            FROM datasets;
        INSERT INTO observations (citation_id, series_id, region_code, period, value, value_text,
                                  src_line, snapshot_id, owner_account_id)
            SELECT 'cit_' || id, id, 'DE', '2020', 1, '1', 1, id, owner_account_id FROM datasets;
        INSERT INTO observation_blocks (series_id, region_code, owner_account_id, rows)
            SELECT id, 'DE', owner_account_id, '\\x00' FROM datasets;
        INSERT INTO api_keys (key_id, account_id, name, mac, pepper_version, created_at) VALUES
            ('aaaaaaaa', 1, 'k', '\\x01', 1, 0), ('bbbbbbbb', 2, 'k', '\\x02', 1, 0);
        INSERT INTO sessions (id, account_id, created_at, expires_at) VALUES
            ('s1', 1, 0, 1), ('s2', 2, 0, 1);
        INSERT INTO usage_daily (scope, day, used) VALUES
            ('acct:1', '2026-01-01', 1), ('acct:2', '2026-01-01', 2);
        INSERT INTO private_regions (account_id, code, classification) VALUES
            (1, 'XA1', 'NUTS'), (2, 'XB1', 'NUTS');
        INSERT INTO account_generations (account_id, generation) VALUES (1, 1), (2, 1);
        INSERT INTO briefings (public_id, account_id, region_code, briefing_type, title, created_at,
                               body_json) VALUES
            ('brf_a', 1, 'DE', 'x', 'A', 0, '{}'), ('brf_b', 2, 'DE', 'x', 'B', 0, '{}');
        INSERT INTO webhook_endpoints (id, public_id, account_id, url, event_types, secret_sealed,
                                       created_at) VALUES
            (1, 'whk_a', 1, 'https://a.example', '[]', 'sealed-a', 0),
            (2, 'whk_b', 2, 'https://b.example', '[]', 'sealed-b', 0);
        INSERT INTO webhook_events (id, public_id, type, occurred_at, payload, account_id) VALUES
            (1, 'msg_a', 't', 0, '\\x00', 1), (2, 'msg_b', 't', 0, '\\x00', 2),
            (3, 'msg_all', 't', 0, '\\x00', NULL);
        INSERT INTO webhook_deliveries (id, public_id, event_id, endpoint_id, status,
                                        next_attempt_at) VALUES
            (1, 'dlv_a', 1, 1, 'pending', 0), (2, 'dlv_b', 2, 2, 'pending', 0),
            (3, 'dlv_a3', 3, 1, 'pending', 0), (4, 'dlv_b3', 3, 2, 'pending', 0);
        INSERT INTO webhook_attempts (delivery_id, attempted_at, latency_ms) VALUES
            (1, 0, 1), (2, 0, 1), (3, 0, 1), (4, 0, 1);
        INSERT INTO webhook_destinations (account_id, url_key, gone_at) VALUES
            (1, 'a', 0), (2, 'b', 0);
        INSERT INTO secret_fingerprints (file, fingerprint, recorded_at) VALUES ('pepper', 'f', 0);
    ";

    /// Rows the request role sees of `sql` (a count), or None when it may not read them.
    fn visible(tx: &mut postgres::Transaction<'_>, sql: &str) -> Option<i64> {
        tx.batch_execute("SAVEPOINT probe").unwrap();
        match tx.query_one(sql, &[]) {
            Ok(row) => {
                tx.batch_execute("RELEASE SAVEPOINT probe").unwrap();
                Some(row.get(0))
            }
            Err(e) => {
                let code = e.code().cloned();
                assert_eq!(
                    code,
                    Some(postgres::error::SqlState::INSUFFICIENT_PRIVILEGE),
                    "{sql}: {e}"
                );
                tx.batch_execute("ROLLBACK TO SAVEPOINT probe").unwrap();
                None
            }
        }
    }

    /// The tables with an owning account, and the column naming it.
    fn owned_tables(client: &mut postgres::Client) -> Vec<(String, String)> {
        client
            .query(
                "SELECT table_name::text, column_name::text FROM information_schema.columns
                 WHERE table_schema = current_schema()
                   AND column_name IN ('account_id', 'owner_account_id')
                   AND table_name IN (SELECT table_name FROM information_schema.tables
                                      WHERE table_type = 'BASE TABLE')",
                &[],
            )
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect()
    }

    /// The request role sees no account's rows unless its transaction set the account, then only
    /// that account's (and public ones); never a secret column, never a write; the setting ends
    /// with the transaction; the role bypasses nothing and owns nothing.
    #[test]
    fn the_request_role_sees_only_the_account_its_transaction_set() {
        let db = TestDatabase::create();
        let mut owner = db.connect_as(&db.owner);
        let role = migrate(&mut owner).unwrap().request_role;
        owner.batch_execute(ROWS).unwrap();
        let owned = owned_tables(&mut owner);
        assert!(owned.len() >= 12, "{owned:?}");
        let rights: (bool, i64) = {
            let row = owner
                .query_one(
                    "SELECT rolsuper OR rolbypassrls OR rolcreaterole OR rolcreatedb,
                            (SELECT count(*) FROM pg_class WHERE relowner = r.oid)
                     FROM pg_roles r WHERE rolname = $1",
                    &[&role],
                )
                .unwrap();
            (row.get(0), row.get(1))
        };
        assert_eq!(
            rights,
            (false, 0),
            "the request role bypasses nothing, owns nothing"
        );

        let mut request = db.connect_as(&role);
        for account in [None, Some(1_i64)] {
            let mut tx = request.transaction().unwrap();
            if let Some(account) = account {
                tx.execute(
                    "SELECT set_config('regintel.account', $1, true)",
                    &[&account.to_string()],
                )
                .unwrap();
            }
            let other = account.map_or("IS NOT NULL".to_owned(), |a| format!("<> {a}"));
            for (table, column) in &owned {
                let seen = visible(
                    &mut tx,
                    &format!("SELECT count(*) FROM {table} WHERE {column} {other}"),
                );
                assert!(
                    matches!(seen, None | Some(0)),
                    "account {account:?} sees {seen:?} rows of {table} of others"
                );
            }
            // Deliveries and attempts are an endpoint's: the other account's endpoint.
            for sql in [
                "SELECT count(*) FROM webhook_deliveries WHERE endpoint_id = 2",
                "SELECT count(*) FROM webhook_attempts WHERE delivery_id IN (2, 4)",
                "SELECT count(*) FROM v_webhook_deliveries WHERE endpoint_id = 2",
                "SELECT count(*) FROM v_webhook_attempts WHERE delivery_id IN (2, 4)",
                "SELECT count(*) FROM webhook_events WHERE id = 2",
            ] {
                assert_eq!(visible(&mut tx, sql).unwrap_or(0), 0, "{account:?}: {sql}");
            }
            let own = |tx: &mut postgres::Transaction<'_>, view: &str| {
                visible(tx, &format!("SELECT count(*) FROM {view}")).unwrap()
            };
            let expected_own = i64::from(account.is_some());
            for view in [
                "v_accounts",
                "v_api_keys",
                "v_briefings",
                "v_webhook_endpoints",
                "v_usage_daily",
            ] {
                assert_eq!(own(&mut tx, view), expected_own, "{account:?}: {view}");
            }
            assert_eq!(own(&mut tx, "v_datasets"), 1 + expected_own);
            assert_eq!(own(&mut tx, "v_observation_blocks"), 1 + expected_own);
            assert_eq!(own(&mut tx, "v_webhook_deliveries"), 2 * expected_own);
            for secret in [
                "SELECT count(mac) FROM api_keys",
                "SELECT count(password_hash) FROM accounts",
                "SELECT count(secret_sealed) FROM webhook_endpoints",
                "SELECT count(*) FROM request_login",
                "SELECT count(*) FROM sessions",
            ] {
                assert_eq!(visible(&mut tx, secret), None, "{secret}");
            }
            tx.commit().unwrap();
        }
        // SET LOCAL: the next transaction on the connection (another request's, behind a
        // transaction-pooling PgBouncer) starts with no account.
        let after: Option<i64> = request
            .query_one("SELECT current_account()", &[])
            .unwrap()
            .get(0);
        assert_eq!(after, None);
        for write in [
            "INSERT INTO usage_daily (scope, day, used) VALUES ('acct:1', '2026-01-02', 1)",
            "UPDATE store_meta SET value = 9",
            "DELETE FROM v_datasets",
            "CREATE TABLE mine (x int)",
        ] {
            let err = request.batch_execute(write).unwrap_err();
            assert_eq!(
                err.code(),
                Some(&postgres::error::SqlState::INSUFFICIENT_PRIVILEGE),
                "{write}: {err}"
            );
        }
    }

    /// Whether the SCRAM-SHA-256 verifier `verifier` (RFC 5802, as PostgreSQL stores it:
    /// `SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey`) is of `password`.
    fn scram_verifies(verifier: &str, password: &str) -> bool {
        use base64::Engine as _;
        use hmac::{Hmac, KeyInit, Mac};
        use sha2::{Digest, Sha256};
        let decode = |text: &str| {
            base64::engine::general_purpose::STANDARD
                .decode(text)
                .unwrap()
        };
        let rest = verifier.strip_prefix("SCRAM-SHA-256$").unwrap();
        let (iterations, rest) = rest.split_once(':').unwrap();
        let (salt, keys) = rest.split_once('$').unwrap();
        let stored_key = decode(keys.split_once(':').unwrap().0);
        let mac = |key: &[u8], data: &[u8]| {
            let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
            mac.update(data);
            mac.finalize().into_bytes().to_vec()
        };
        // Hi(password, salt, i): PBKDF2 with HMAC-SHA-256, one block.
        let mut block = [decode(salt), vec![0, 0, 0, 1]].concat();
        let mut salted = vec![0u8; 32];
        for _ in 0..iterations.parse::<u32>().unwrap() {
            block = mac(password.as_bytes(), &block);
            salted.iter_mut().zip(&block).for_each(|(s, b)| *s ^= b);
        }
        Sha256::digest(mac(&salted, b"Client Key")).to_vec() == stored_key
    }

    /// The request role's password is the one derived on the node, set as its verifier only; a
    /// password an older release kept in `request_login` (and an INSERT's logged parameters
    /// showed) is replaced at the upgrade; no statement the server logs holds the derived one;
    /// nobody may make temporary tables.
    #[test]
    fn the_password_is_derived_and_an_upgrade_rotates_the_one_kept_before() {
        let db = TestDatabase::create();
        let mut superuser = db.connect_as("postgres");
        superuser
            .batch_execute(&format!(
                "ALTER DATABASE {} SET log_statement = 'all'",
                db.name
            ))
            .unwrap();
        let mut owner = db.connect_as(&db.owner);
        // An older release: the schema of migration 20, the role's password kept in the table.
        let mut tx = owner.transaction().unwrap();
        for m in crate::store::schema::postgres_migrations() {
            if m.version <= 20 {
                tx.batch_execute(m.sql).unwrap();
            }
        }
        let role = request_role_name(&db.owner).unwrap();
        tx.batch_execute(&format!(
            "INSERT INTO store_meta (key, value) VALUES ('schema_version', 20);
             CREATE ROLE {role} LOGIN PASSWORD 'kept-before';
             INSERT INTO request_login (role, password) VALUES ('{role}', 'kept-before');"
        ))
        .unwrap();
        tx.commit().unwrap();

        let open = || {
            crate::store::connections::Store::open_with(
                &crate::store::backend::Database::Postgres(db.url()),
                1,
                1,
                crate::config::defaults::DATABASE_WAIT,
            )
        };
        // An owner that could not set the password is refused before anything changes.
        let owner_role = &db.owner;
        superuser
            .batch_execute(&format!("ALTER ROLE {owner_role} NOCREATEROLE"))
            .unwrap();
        let refused = format!("{:#}", open().err().expect("refused"));
        assert!(refused.contains("takes CREATEROLE"), "{refused}");
        let version: i64 = owner
            .query_one(
                "SELECT value FROM store_meta WHERE key = 'schema_version'",
                &[],
            )
            .unwrap()
            .get(0);
        assert_eq!(version, 20);
        superuser
            .batch_execute(&format!("ALTER ROLE {owner_role} CREATEROLE"))
            .unwrap();
        let store = open().unwrap();
        let derived = "0f1e2d3c4b5a69788796a5b4c3d2e1f0derived";
        store.open_requests(&|_| derived.to_owned()).unwrap();
        let verifier: String = superuser
            .query_one(
                "SELECT rolpassword FROM pg_authid WHERE rolname = $1",
                &[&role],
            )
            .unwrap()
            .get(0);
        assert!(scram_verifies(&verifier, derived), "{verifier}");
        assert!(!scram_verifies(&verifier, "kept-before"));
        let columns: i64 = owner
            .query_one(
                "SELECT count(*) FROM information_schema.columns
                 WHERE table_name = 'request_login' AND column_name = 'password'",
                &[],
            )
            .unwrap()
            .get(0);
        assert_eq!(columns, 0);
        let temporary: bool = owner
            .query_one(
                "SELECT has_database_privilege($1, current_database(), 'TEMPORARY')",
                &[&role],
            )
            .unwrap()
            .get(0);
        assert!(!temporary);
        // A second start finds the password set and sets nothing.
        drop(store);
        assert!(!password_to_set(&mut owner, false).unwrap());

        let socket = std::env::var("REGINTEL_TEST_POSTGRES").unwrap();
        let log =
            std::fs::read_to_string(std::path::Path::new(&socket).join("../server.log")).unwrap();
        assert!(
            log.contains(&format!("ALTER ROLE \"{role}\" PASSWORD 'SCRAM-SHA-256$")),
            "the server logged the statements"
        );
        assert!(
            !log.contains(derived),
            "the derived password is in the server log"
        );
    }

    /// A second database of the same owner is refused (its request role, a role of the whole
    /// cluster, serves the first, whose nodes a new password would lock out); a pre-made role
    /// that is a member of another is refused; the role has no password until one is set, then
    /// only the SCRAM verifier of the one given; a view someone else made is not granted.
    #[test]
    fn the_request_role_is_this_databases_alone() {
        let db = TestDatabase::create();
        let mut owner = db.connect_as(&db.owner);
        migrate(&mut owner).unwrap();
        owner
            .batch_execute("CREATE VIEW v_someone_elses AS SELECT password_hash FROM accounts")
            .unwrap();
        let role = migrate(&mut owner).unwrap().request_role;
        let mut superuser = db.connect_as("postgres");
        let stored = |superuser: &mut postgres::Client| -> Option<String> {
            superuser
                .query_one(
                    "SELECT rolpassword FROM pg_authid WHERE rolname = $1",
                    &[&role],
                )
                .unwrap()
                .get(0)
        };
        assert_eq!(stored(&mut superuser), None, "no password until one is set");
        assert!(password_to_set(&mut owner, false).unwrap());
        set_password(&mut owner, &role, "the derived one", 1).unwrap();
        assert!(!password_to_set(&mut owner, false).unwrap());
        assert!(
            password_to_set(&mut owner, true).unwrap(),
            "a refused login"
        );
        let verifier = stored(&mut superuser).unwrap();
        assert!(scram_verifies(&verifier, "the derived one"), "{verifier}");
        assert!(!scram_verifies(&verifier, "another"), "{verifier}");
        let granted: bool = owner
            .query_one(
                "SELECT has_table_privilege($1, 'v_someone_elses', 'SELECT')",
                &[&role],
            )
            .unwrap()
            .get(0);
        assert!(!granted, "a view the schema does not make is not granted");

        let second = format!("{}_second", db.name);
        superuser
            .batch_execute(&format!("CREATE DATABASE {second} OWNER {}", db.owner))
            .unwrap();
        let mut other = crate::store::postgres::conn::blocking(|| {
            postgres::Config::new()
                .host(db.url().split("host=").nth(1).unwrap())
                .user(&db.owner)
                .dbname(&second)
                .connect(postgres::NoTls)
        })
        .unwrap();
        let refused = migrate(&mut other).err().expect("refused").to_string();
        assert!(refused.contains("another database"), "{refused}");
        drop(other);
        superuser
            .batch_execute(&format!("DROP DATABASE {second} WITH (FORCE)"))
            .unwrap();
        assert!(
            migrate(&mut owner).is_ok(),
            "the first database's role is as it was"
        );

        superuser
            .batch_execute(&format!("GRANT {} TO {}", db.owner, role))
            .unwrap();
        let refused = migrate(&mut owner).err().expect("refused").to_string();
        assert!(refused.contains("member of another role"), "{refused}");
    }
}
