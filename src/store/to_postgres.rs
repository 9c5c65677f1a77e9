//! Moving an appliance onto PostgreSQL (`regintel migrate --to`): every row of its SQLite file
//! copied into an empty PostgreSQL database of the same schema version, with its ids, so that
//! citations, briefings, webhook endpoints and keys (checked against the same pepper) stay
//! what they were. The source is read in one snapshot and the target written in one
//! transaction: the copy is of one moment, and a failed copy leaves the target as it was.

use anyhow::{Context, bail, ensure};

use crate::store::backend::Admin;
use crate::store::schema::{POSTGRES_ONLY, TABLES};
use crate::store::sql::{Db, Dialect, Owned, Param, params};

/// Rows copied, table by table, in the order of [`TABLES`].
pub type Copied = Vec<(&'static str, u64)>;

/// Copies every row of `source` (SQLite) into `target` (PostgreSQL, migrated and empty).
pub fn copy(source: &Admin, target: &mut Admin) -> anyhow::Result<Copied> {
    let from = source.sql();
    ensure!(
        from.dialect() == Dialect::Sqlite,
        "the source of a migration is a SQLite file"
    );
    let tx = target.transaction()?;
    ensure!(
        tx.dialect() == Dialect::Postgres,
        "the target of a migration is a PostgreSQL database"
    );
    let source_version: i64 = from.query_row("PRAGMA user_version", params![], |r| r.get(0))?;
    let target_version: i64 = tx.query_row(
        "SELECT value FROM store_meta WHERE key = 'schema_version'",
        params![],
        |r| r.get(0),
    )?;
    ensure!(
        source_version == target_version,
        "the SQLite file is at schema version {source_version}, the PostgreSQL database at {target_version}: both must be this release's"
    );
    known_tables(&tx)?;
    holds_no_rows(&tx)?;
    // The counters the target's migration started (the schema version stays its own).
    tx.execute(
        "DELETE FROM store_meta WHERE key <> 'schema_version'",
        params![],
    )?;
    let _snapshot = from.read_snapshot()?;
    let mut copied = Copied::new();
    for table in TABLES {
        let rows = copy_table(from, &tx, table)
            .with_context(|| format!("while copying the table {table}"))?;
        copied.push((table, rows));
    }
    continue_identities(&tx)?;
    for (table, rows) in &copied {
        let held: i64 = tx.query_row(
            &format!("SELECT count(*) FROM {table} WHERE {}", only_copied(table)),
            params![],
            |r| r.get(0),
        )?;
        ensure!(
            u64::try_from(held) == Ok(*rows),
            "the table {table} holds {held} rows after copying {rows}"
        );
    }
    tx.commit()?;
    // The planner's statistics, which a bulk load leaves empty until autovacuum comes by.
    target.sql().execute_batch("ANALYZE")?;
    Ok(copied)
}

/// Refuses, before anything is written to it, a PostgreSQL database at `url` that is not new:
/// one holding tables regintel did not make (another application's), or regintel's with rows.
pub fn check_target(url: &str) -> anyhow::Result<()> {
    let checked = crate::store::backend::check_postgres(url)?;
    let db = checked.admin.sql();
    if checked.version == 0 {
        let tables: i64 = db.query_row(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema()",
            params![],
            |r| r.get(0),
        )?;
        ensure!(
            tables == 0,
            "the PostgreSQL database holds tables regintel did not make: migrate into a new, empty database (see docs/scaling.md)"
        );
        return Ok(());
    }
    known_tables(&db)?;
    holds_no_rows(&db)
}

/// Refuses a database whose tables hold rows (the counters of `store_meta` aside).
fn holds_no_rows(db: &Db<'_>) -> anyhow::Result<()> {
    for table in TABLES.iter().filter(|t| **t != "store_meta") {
        let holds: bool = db.query_row(
            &format!("SELECT EXISTS (SELECT 1 FROM {table})"),
            params![],
            |r| r.get(0),
        )?;
        if holds {
            bail!(
                "the PostgreSQL database already holds data (table {table}): migrate into an empty database, which regintel sets up itself"
            );
        }
    }
    Ok(())
}

/// The rows of `table` a copy carries: all but the target's own schema version.
fn only_copied(table: &str) -> &'static str {
    if table == "store_meta" {
        "key <> 'schema_version'"
    } else {
        "TRUE"
    }
}

/// The tables of the database's schema.
fn schema_tables(db: &Db<'_>) -> anyhow::Result<Vec<String>> {
    Ok(db
        .prepare(
            "SELECT table_name::text FROM information_schema.tables
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
        )?
        .query_map(params![], |r| r.get(0))?
        .collect::<Result<_, _>>()?)
}

/// Refuses a target with a table this release does not know how to copy.
fn known_tables(target: &Db<'_>) -> anyhow::Result<()> {
    for table in schema_tables(target)? {
        if !TABLES.contains(&table.as_str()) && !POSTGRES_ONLY.contains(&table.as_str()) {
            bail!("the PostgreSQL database has a table this release does not copy: {table}");
        }
    }
    Ok(())
}

/// Copies `table`'s rows, column by column as the target names them; the number copied.
fn copy_table(from: Db<'_>, to: &Db<'_>, table: &str) -> anyhow::Result<u64> {
    let columns: Vec<String> = to
        .prepare(
            "SELECT column_name::text FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = ?1
             ORDER BY ordinal_position",
        )?
        .query_map(params![table], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let names: Vec<&str> = columns.iter().map(String::as_str).collect();
    let mut select = from.prepare(&format!(
        "SELECT {} FROM {table} WHERE {}",
        names.join(", "),
        only_copied(table)
    ))?;
    let mut insert = to.bulk_insert(table, &names)?;
    let mut cursor = select.query(params![])?;
    let mut rows = 0;
    let mut values = Vec::with_capacity(names.len());
    while let Some(row) = cursor.next_row()? {
        let row = row.row();
        values.clear();
        for index in 0..names.len() {
            values.push(row.get::<Owned>(index)?);
        }
        let params: Vec<&dyn Param> = values.iter().map(|v| v as &dyn Param).collect();
        insert.add(&params)?;
        rows += 1;
    }
    insert.finish()?;
    Ok(rows)
}

/// Sets each identity column's next value past the ids copied into it, so that rows made
/// after the move never take a copied id.
fn continue_identities(tx: &Db<'_>) -> anyhow::Result<()> {
    let identities: Vec<(String, String)> = tx
        .prepare(
            "SELECT table_name::text, column_name::text FROM information_schema.columns
             WHERE table_schema = current_schema() AND is_identity = 'YES'",
        )?
        .query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect::<Result<_, _>>()?;
    for (table, column) in identities {
        tx.query_row(
            &format!(
                "SELECT setval(pg_get_serial_sequence(?1, ?2), coalesce(max({column}), 0) + 1, false)
                 FROM {table}"
            ),
            params![table, column],
            |r| r.get::<i64>(0),
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::backend::Database;
    use crate::store::connections::Store;
    use crate::store::postgres::testing::TestDatabase;

    fn postgres_store(db: &TestDatabase) -> Store {
        Store::open_with(
            &Database::Postgres(db.url()),
            1,
            1,
            crate::config::defaults::DATABASE_WAIT,
        )
        .unwrap()
    }

    #[test]
    fn every_table_of_the_schema_is_copied_parents_first() {
        let db = TestDatabase::create();
        let store = postgres_store(&db);
        let admin = store.admin().unwrap();
        known_tables(&admin.sql()).unwrap();
        let mut tables = schema_tables(&admin.sql()).unwrap();
        tables.sort();
        let mut expected: Vec<&str> = TABLES.iter().chain(POSTGRES_ONLY).copied().collect();
        expected.sort();
        assert_eq!(tables, expected);
        // A table's foreign keys name only tables copied before it.
        let references: Vec<(String, String)> = admin
            .sql()
            .prepare(
                "SELECT c.conrelid::regclass::text, c.confrelid::regclass::text
                 FROM pg_constraint c WHERE c.contype = 'f'",
            )
            .unwrap()
            .query_map(params![], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(!references.is_empty());
        let position = |t: &str| TABLES.iter().position(|x| *x == t).unwrap();
        for (child, parent) in references {
            assert!(
                position(&parent) < position(&child),
                "{child} refers to {parent}, copied after it"
            );
        }
    }

    #[test]
    fn a_copy_keeps_ids_values_and_types_and_new_rows_take_new_ids() {
        let dir = tempfile::tempdir().unwrap();
        let sqlite = Store::open(dir.path(), 1).unwrap();
        let system = sqlite.system().unwrap();
        let account = system
            .create_account(
                "a@example.org",
                "A",
                crate::store::accounts::Tier::Professional,
                "hash",
                0,
            )
            .unwrap();
        sqlite
            .admin()
            .unwrap()
            .sql()
            .execute_batch(
                "INSERT INTO accounts (id, email, display_name, tier, password_hash, created_at, disabled)
                 VALUES (40, 'b@example.org', 'B', 'institutional', 'h', 7, 1);
                 INSERT INTO api_keys (key_id, account_id, name, mac, pepper_version, created_at)
                 VALUES ('abcdefgh', 40, 'k', x'00ff10', 1, 9);",
            )
            .unwrap();
        let db = TestDatabase::create();
        let target = postgres_store(&db);
        let copied = copy(&sqlite.admin().unwrap(), &mut target.admin().unwrap()).unwrap();
        assert!(copied.contains(&("accounts", 2)));
        assert!(copied.contains(&("api_keys", 1)));
        let admin = target.admin().unwrap();
        let (email, disabled): (String, bool) = admin
            .sql()
            .query_row(
                "SELECT email, disabled FROM accounts WHERE id = 40",
                params![],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!((email.as_str(), disabled), ("b@example.org", true));
        let mac: Vec<u8> = admin
            .sql()
            .query_row("SELECT mac FROM api_keys", params![], |r| r.get(0))
            .unwrap();
        assert_eq!(mac, [0x00, 0xff, 0x10]);
        let next = target
            .system()
            .unwrap()
            .create_account(
                "c@example.org",
                "C",
                crate::store::accounts::Tier::Professional,
                "hash",
                0,
            )
            .unwrap();
        assert!(next.id > 40 && next.id != account.id, "{}", next.id);
        // A second copy into a database that holds data changes nothing.
        let again = copy(&sqlite.admin().unwrap(), &mut target.admin().unwrap())
            .unwrap_err()
            .to_string();
        assert!(again.contains("already holds data"), "{again}");
        let accounts: i64 = admin
            .sql()
            .query_row("SELECT count(*) FROM accounts", params![], |r| r.get(0))
            .unwrap();
        assert_eq!(accounts, 3);
        check_target(&db.url()).unwrap_err();
    }

    /// A database holding another application's tables is refused before regintel makes
    /// anything in it; a new one, or one regintel migrated and left empty, is taken.
    #[test]
    fn a_foreign_database_is_refused_untouched() {
        let db = TestDatabase::create();
        check_target(&db.url()).unwrap();
        let mut owner = db.connect_as(&db.owner);
        owner
            .batch_execute("CREATE TABLE invoices (id int)")
            .unwrap();
        let refused = check_target(&db.url()).unwrap_err().to_string();
        assert!(refused.contains("did not make"), "{refused}");
        let tables: i64 = owner
            .query_one(
                "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'",
                &[],
            )
            .unwrap()
            .get(0);
        assert_eq!(tables, 1, "nothing made");
        let empty = TestDatabase::create();
        drop(postgres_store(&empty));
        check_target(&empty.url()).unwrap();
    }
}
