//! Schema migrations on PostgreSQL: `schema.postgres.sql`, numbered as `schema.sql` is, applied
//! in one transaction under an advisory lock (nodes starting together migrate once: the others
//! wait, then find nothing to do), with the version in `store_meta`. A database newer than this
//! binary is refused, as on SQLite.

use anyhow::Context;
use postgres::Client;

use super::roles;
use crate::store::schema::{POSTGRES_FIRST, latest_version, postgres_migrations, too_new};

/// The advisory lock migrations (and the setting of the request role's password) hold (any
/// number; this one spells "regintel").
pub const MIGRATION_LOCK: i64 = 0x7265_6769_6e74_656c;

/// The schema version of the database: 0 before the first migration.
fn version(tx: &mut postgres::Transaction<'_>) -> anyhow::Result<i64> {
    let exists: bool = tx
        .query_one("SELECT to_regclass('store_meta') IS NOT NULL", &[])?
        .get(0);
    if !exists {
        return Ok(0);
    }
    Ok(tx
        .query_opt(
            "SELECT value FROM store_meta WHERE key = 'schema_version'",
            &[],
        )?
        .map_or(0, |r| r.get(0)))
}

/// The schema version of the database behind `client`, read in a transaction of its own.
pub fn version_of(client: &mut Client) -> anyhow::Result<i64> {
    let mut tx = client.transaction()?;
    let version = version(&mut tx)?;
    tx.commit()?;
    Ok(version)
}

/// What a migration run did: the versions it applied, and the role request connections log in
/// as.
pub struct Migrated {
    pub applied: Vec<i64>,
    pub request_role: String,
}

/// Brings the database up to the latest version and makes sure of the request role, as its
/// owner (the client's role).
pub fn migrate(client: &mut Client) -> anyhow::Result<Migrated> {
    let latest = latest_version();
    let mut tx = client.transaction()?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    let current = version(&mut tx)?;
    if current > latest {
        return Err(too_new(current, latest));
    }
    // Migration 21 has the first node of its release set the request role's password anew
    // (the one older releases kept in the database goes): refused before anything changes where
    // the owner could not, rather than leaving a database no release can serve.
    if (POSTGRES_FIRST..21).contains(&current) {
        let may: bool = tx
            .query_one(
                "SELECT rolcreaterole FROM pg_roles WHERE rolname = current_user",
                &[],
            )?
            .get(0);
        if !may {
            anyhow::bail!(
                "this release sets the request role's password anew (it is no longer kept in the \
                 database), which takes CREATEROLE: run `ALTER ROLE <owner> CREATEROLE` as a \
                 superuser, start, and take it away again afterwards if you wish"
            );
        }
    }
    let mut applied = Vec::new();
    for m in postgres_migrations()
        .into_iter()
        .filter(|m| m.version > current)
    {
        tx.batch_execute(m.sql)
            .with_context(|| format!("while applying migration {} ({})", m.version, m.title))?;
        applied.push(m.version);
    }
    if !applied.is_empty() {
        tx.execute(
            "INSERT INTO store_meta (key, value) VALUES ('schema_version', $1)
             ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            &[&latest],
        )?;
    }
    let request_role = roles::ensure_request_role(&mut tx)?;
    tx.commit()?;
    Ok(Migrated {
        applied,
        request_role,
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::store::postgres::testing::TestDatabase;

    /// Tables of the PostgreSQL schema that SQLite has no need of.
    use crate::store::schema::POSTGRES_ONLY;

    /// A column as both schemas are compared: name, type (in SQLite's words), NOT NULL.
    type Columns = Vec<(String, String, bool)>;

    /// SQLite's word for a PostgreSQL type: its affinity (booleans are SQLite integers).
    fn as_sqlite(pg_type: &str) -> &'static str {
        match pg_type {
            "bigint" | "boolean" => "INTEGER",
            "text" => "TEXT",
            "double precision" => "REAL",
            "bytea" => "BLOB",
            other => panic!("a PostgreSQL type with no SQLite match: {other}"),
        }
    }

    fn sqlite_schema() -> (BTreeMap<String, Columns>, BTreeMap<String, Vec<String>>) {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::connections::Store::open(dir.path(), 1).unwrap();
        let admin = store.admin().unwrap();
        let conn = admin.sqlite();
        let objects: Vec<(String, String)> = conn
            .prepare(
                "SELECT type, name FROM sqlite_master
                 WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%'",
            )
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let (mut tables, mut views) = (BTreeMap::new(), BTreeMap::new());
        for (kind, name) in objects {
            let columns: Columns = conn
                .prepare("SELECT name, type, \"notnull\" OR pk FROM pragma_table_info(?1)")
                .unwrap()
                .query_map([&name], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            if kind == "table" {
                tables.insert(name, columns);
            } else {
                views.insert(name, columns.into_iter().map(|c| c.0).collect());
            }
        }
        (tables, views)
    }

    fn postgres_schema(
        client: &mut postgres::Client,
    ) -> (BTreeMap<String, Columns>, BTreeMap<String, Vec<String>>) {
        let rows = client
            .query(
                "SELECT t.table_type::text, c.table_name::text, c.column_name::text,
                        c.data_type::text, c.is_nullable = 'NO'
                 FROM information_schema.columns c
                 JOIN information_schema.tables t
                   ON t.table_schema = c.table_schema AND t.table_name = c.table_name
                 WHERE c.table_schema = current_schema()
                 ORDER BY c.table_name, c.ordinal_position",
                &[],
            )
            .unwrap();
        let (mut tables, mut views) = (BTreeMap::new(), BTreeMap::new());
        for row in rows {
            let (kind, table, column): (String, String, String) =
                (row.get(0), row.get(1), row.get(2));
            if POSTGRES_ONLY.contains(&table.as_str()) {
                continue;
            }
            if kind == "VIEW" {
                views.entry(table).or_insert_with(Vec::new).push(column);
            } else {
                let sqlite_type = as_sqlite(row.get::<_, &str>(3)).to_owned();
                tables.entry(table).or_insert_with(Vec::new).push((
                    column,
                    sqlite_type,
                    row.get(4),
                ));
            }
        }
        (tables, views)
    }

    /// Both dialects end at the same migration, with the same tables (their columns in order,
    /// of matching types, nullable alike) and the same views (their columns in order).
    #[test]
    fn the_schema_is_sqlites_in_the_other_dialect() {
        assert_eq!(
            postgres_migrations().last().map(|m| m.version),
            Some(latest_version()),
            "schema.postgres.sql ends at schema.sql's last migration"
        );
        let db = TestDatabase::create();
        let mut client = db.connect_as(&db.owner);
        migrate(&mut client).unwrap();
        let (sqlite_tables, sqlite_views) = sqlite_schema();
        let (pg_tables, pg_views) = postgres_schema(&mut client);
        assert_eq!(
            sqlite_tables.keys().collect::<Vec<_>>(),
            pg_tables.keys().collect::<Vec<_>>()
        );
        for (table, columns) in &sqlite_tables {
            assert_eq!(columns, &pg_tables[table], "the columns of {table}");
        }
        assert_eq!(sqlite_views, pg_views);
    }

    /// Nodes starting together: one migrates, the others wait for its lock and find nothing to
    /// do; all of them know the role request connections log in as.
    #[test]
    fn nodes_starting_together_migrate_once() {
        let db = TestDatabase::create();
        let runs: Vec<Migrated> = std::thread::scope(|s| {
            let nodes: Vec<_> = (0..3)
                .map(|_| s.spawn(|| migrate(&mut db.connect_as(&db.owner)).unwrap()))
                .collect();
            nodes.into_iter().map(|n| n.join().unwrap()).collect()
        });
        let mut applied: Vec<Vec<i64>> = runs.iter().map(|m| m.applied.clone()).collect();
        applied.sort();
        let all: Vec<i64> = postgres_migrations().iter().map(|m| m.version).collect();
        assert_eq!(applied, vec![vec![], vec![], all]);
        assert!(runs.iter().all(|m| m.request_role == runs[0].request_role));
    }

    #[test]
    fn a_newer_database_is_refused_with_a_clear_message() {
        let db = TestDatabase::create();
        let mut client = db.connect_as(&db.owner);
        migrate(&mut client).unwrap();
        client
            .execute(
                "UPDATE store_meta SET value = value + 1 WHERE key = 'schema_version'",
                &[],
            )
            .unwrap();
        let err = migrate(&mut client).err().unwrap().to_string();
        assert!(err.contains("newer than this regintel binary"), "{err}");
    }

    #[test]
    fn a_failing_migration_leaves_the_database_untouched() {
        let db = TestDatabase::create();
        let mut client = db.connect_as(&db.owner);
        client.batch_execute("CREATE TABLE series (x int)").unwrap();
        assert!(migrate(&mut client).is_err());
        let tables: i64 = client
            .query_one(
                "SELECT count(*) FROM pg_tables WHERE tablename IN ('accounts', 'store_meta')",
                &[],
            )
            .unwrap()
            .get(0);
        assert_eq!(tables, 0, "the transaction rolled back what it made");
    }
}
