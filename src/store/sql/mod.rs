//! SQL on either database. The store's queries are written once, against [`Db`], a connection of
//! SQLite or of PostgreSQL: placeholders as `?1`, `?2` (PostgreSQL's `$1`, `$2` are written for
//! it; `store/postgres/translate.rs`), values bound and read through `store::values`' [`Param`]
//! and [`Column`], which convert between SQLite's few storage classes and PostgreSQL's types (a
//! boolean column is an integer to SQLite). Where the dialects differ a query asks
//! [`Db::dialect`]; everything else is the same text. The few branches that are no query's own
//! are here: whether a table or column exists ([`Db::table_exists`], [`Db::column_exists`]) and
//! a transaction's advisory lock ([`Tx::lock_transaction`]).
//!
//! PostgreSQL gives a parameter the type of its first use: write `col = ?1 OR ?1 IS NULL`, not
//! `?1 IS NULL OR col = ?1` (which it refuses to prepare: "could not determine data type").

use std::ops::Deref;

use super::postgres::conn as pg;
pub use super::postgres::conn::PgConn;
pub(crate) use super::values::params;
pub use super::values::{Column, Owned, Param, SqlError, SqlResult, Value, refused_text_in};

/// The database a [`Db`] speaks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    Sqlite,
    Postgres,
}

/// `.optional()` on a one-row query: no row is `None`.
pub trait OptionalExtension<T> {
    fn optional(self) -> SqlResult<Option<T>>;
}

impl<T> OptionalExtension<T> for SqlResult<T> {
    fn optional(self) -> SqlResult<Option<T>> {
        match self {
            Ok(value) => Ok(Some(value)),
            Err(SqlError::NoRows) | Err(SqlError::Sqlite(rusqlite::Error::QueryReturnedNoRows)) => {
                Ok(None)
            }
            Err(e) => Err(e),
        }
    }
}

/// A row of a result.
pub enum Row<'r> {
    Sqlite(&'r rusqlite::Row<'r>),
    Postgres(&'r postgres::Row),
}

impl<'r> Row<'r> {
    /// Text read in place (no copy): the read path reads most columns so.
    pub fn text(&self, index: usize) -> SqlResult<&'r str> {
        self.text_or_null(index)?
            .ok_or_else(|| SqlError::Conversion {
                column: index,
                message: "NULL is not text".into(),
            })
    }

    pub fn text_or_null(&self, index: usize) -> SqlResult<Option<&'r str>> {
        match *self {
            Row::Sqlite(row) => {
                row.get_ref(index)?
                    .as_str_or_null()
                    .map_err(|e| SqlError::Conversion {
                        column: index,
                        message: e.to_string(),
                    })
            }
            Row::Postgres(row) => Ok(row.try_get(index)?),
        }
    }

    /// A blob read in place.
    pub fn blob(&self, index: usize) -> SqlResult<&'r [u8]> {
        match *self {
            Row::Sqlite(row) => row
                .get_ref(index)?
                .as_blob()
                .map_err(|e| SqlError::Conversion {
                    column: index,
                    message: e.to_string(),
                }),
            Row::Postgres(row) => Ok(row.try_get(index)?),
        }
    }

    pub fn get<T: Column>(&self, index: usize) -> SqlResult<T> {
        match self {
            Row::Sqlite(row) => Ok(T::from_sqlite(row, index)?),
            Row::Postgres(row) => {
                let value = pg::column(row, index)?;
                T::from_owned(value).map_err(|message| SqlError::Conversion {
                    column: index,
                    message,
                })
            }
        }
    }
}

/// A connection of either database, as the store's queries see it.
#[derive(Clone, Copy)]
pub enum Db<'c> {
    Sqlite(&'c rusqlite::Connection),
    Postgres(&'c PgConn),
}

/// A prepared statement.
pub enum Stmt<'c> {
    Sqlite(rusqlite::CachedStatement<'c>),
    /// One prepared for a single use ([`Db::prepare`]).
    SqliteOnce(rusqlite::Statement<'c>),
    Postgres(&'c PgConn, postgres::Statement),
    /// One whose rows are many ([`Db::prepare_streamed`]): its SQL, to read them through a
    /// cursor.
    PostgresStreamed(&'c PgConn, postgres::Statement, String),
}

impl<'c> Db<'c> {
    pub fn dialect(&self) -> Dialect {
        match self {
            Db::Sqlite(_) => Dialect::Sqlite,
            Db::Postgres(_) => Dialect::Postgres,
        }
    }

    /// Whether the schema holds a table or view named `name`: for reads of a database an older
    /// release made, before the server migrates it.
    pub fn table_exists(&self, name: &str) -> SqlResult<bool> {
        let sql = match self.dialect() {
            Dialect::Sqlite => "SELECT count(*) > 0 FROM sqlite_master WHERE name = ?1",
            Dialect::Postgres => "SELECT to_regclass(?1) IS NOT NULL",
        };
        self.query_row(sql, params![name], |r| r.get(0))
    }

    /// Whether `table` has a column named `column`.
    pub fn column_exists(&self, table: &str, column: &str) -> SqlResult<bool> {
        let sql = match self.dialect() {
            Dialect::Sqlite => "SELECT count(*) > 0 FROM pragma_table_info(?1) WHERE name = ?2",
            Dialect::Postgres => {
                "SELECT count(*) > 0 FROM information_schema.columns
                 WHERE table_schema = current_schema() AND table_name = ?1 AND column_name = ?2"
            }
        };
        self.query_row(sql, params![table, column], |r| r.get(0))
    }

    /// The statement `sql`, prepared once per connection and kept.
    pub fn prepare_cached(&self, sql: &str) -> SqlResult<Stmt<'c>> {
        match *self {
            Db::Sqlite(conn) => Ok(Stmt::Sqlite(conn.prepare_cached(sql)?)),
            Db::Postgres(conn) => Ok(Stmt::Postgres(conn, conn.prepare(sql)?)),
        }
    }

    /// The statement `sql`, prepared for one use: a statement made up for the occasion (its
    /// text varies) would crowd out those kept.
    pub fn prepare(&self, sql: &str) -> SqlResult<Stmt<'c>> {
        match *self {
            Db::Sqlite(conn) => Ok(Stmt::SqliteOnce(conn.prepare(sql)?)),
            Db::Postgres(conn) => Ok(Stmt::Postgres(conn, conn.prepare_once(sql)?)),
        }
    }

    /// The statement `sql`, kept as [`Db::prepare_cached`] keeps one, for a query of many rows:
    /// on PostgreSQL, in a transaction, its rows are read a batch at a time
    /// ([`pg::Streamed`]), not all at once.
    pub fn prepare_streamed(&self, sql: &str) -> SqlResult<Stmt<'c>> {
        match *self {
            Db::Sqlite(conn) => Ok(Stmt::Sqlite(conn.prepare_cached(sql)?)),
            Db::Postgres(conn) => Ok(Stmt::PostgresStreamed(
                conn,
                conn.prepare(sql)?,
                sql.to_owned(),
            )),
        }
    }

    pub fn execute(&self, sql: &str, params: &[&dyn Param]) -> SqlResult<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    pub fn query_row<T>(
        &self,
        sql: &str,
        params: &[&dyn Param],
        f: impl FnOnce(&Row<'_>) -> SqlResult<T>,
    ) -> SqlResult<T> {
        self.prepare_cached(sql)?.query_row(params, f)
    }

    /// Statements without parameters, one after another.
    pub fn execute_batch(&self, sql: &str) -> SqlResult<()> {
        match *self {
            Db::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            Db::Postgres(conn) => conn.batch_execute(sql),
        }
    }

    /// Begins a transaction, ended by [`Tx::commit`] or else rolled back when dropped. On SQLite
    /// it takes the write lock at once (`BEGIN IMMEDIATE`): a deferred one would read first and
    /// fail without waiting on its first write, had another writer committed meanwhile.
    pub fn transaction(&self) -> SqlResult<Tx<'c>> {
        self.execute_batch(match self {
            Db::Sqlite(_) => "BEGIN IMMEDIATE",
            Db::Postgres(_) => "BEGIN",
        })?;
        if let Db::Postgres(conn) = self {
            conn.set_in_transaction(true);
        }
        Ok(Tx {
            db: *self,
            open: true,
        })
    }
}

/// Binds `params` to a SQLite statement, checking their number.
fn bind_sqlite(stmt: &mut rusqlite::Statement<'_>, params: &[&dyn Param]) -> SqlResult<()> {
    let expected = stmt.parameter_count();
    if expected != params.len() {
        return Err(SqlError::ParameterCount {
            expected,
            given: params.len(),
        });
    }
    for (i, param) in params.iter().enumerate() {
        let param: &dyn rusqlite::ToSql = *param;
        stmt.raw_bind_parameter(i + 1, param)?;
    }
    Ok(())
}

impl<'c> Stmt<'c> {
    /// The SQLite statement, or else PostgreSQL's connection and statement.
    #[allow(clippy::type_complexity)]
    fn split(
        &mut self,
    ) -> Result<&mut rusqlite::Statement<'c>, (&'c PgConn, &postgres::Statement)> {
        match self {
            Stmt::Sqlite(stmt) => Ok(stmt),
            Stmt::SqliteOnce(stmt) => Ok(stmt),
            Stmt::Postgres(conn, stmt) | Stmt::PostgresStreamed(conn, stmt, _) => Err((conn, stmt)),
        }
    }

    pub fn execute(&mut self, params: &[&dyn Param]) -> SqlResult<usize> {
        match self.split() {
            Ok(stmt) => {
                bind_sqlite(stmt, params)?;
                Ok(stmt.raw_execute()?)
            }
            Err((conn, stmt)) => conn.execute(stmt, params),
        }
    }

    pub fn query_row<T>(
        &mut self,
        params: &[&dyn Param],
        f: impl FnOnce(&Row<'_>) -> SqlResult<T>,
    ) -> SqlResult<T> {
        match self.split() {
            Ok(stmt) => {
                bind_sqlite(stmt, params)?;
                let mut rows = stmt.raw_query();
                match rows.next()? {
                    Some(row) => f(&Row::Sqlite(row)),
                    None => Err(SqlError::NoRows),
                }
            }
            Err((conn, stmt)) => match conn.query(stmt, params)?.first() {
                Some(row) => f(&Row::Postgres(row)),
                None => Err(SqlError::NoRows),
            },
        }
    }

    /// The rows of the query, one at a time ([`Cursor::next`]), for reads that borrow from
    /// each row in turn.
    pub fn query(&mut self, params: &[&dyn Param]) -> SqlResult<Cursor<'_>> {
        Ok(Cursor(self.rows(params)?))
    }

    /// The rows of the query, each mapped by `f`, as they are read.
    pub fn query_map<T, F>(&mut self, params: &[&dyn Param], f: F) -> SqlResult<Mapped<'_, F>>
    where
        F: FnMut(&Row<'_>) -> SqlResult<T>,
    {
        Ok(Mapped {
            rows: self.rows(params)?,
            f,
        })
    }

    fn rows(&mut self, params: &[&dyn Param]) -> SqlResult<Rows<'_>> {
        if let Stmt::PostgresStreamed(conn, _, sql) = self
            && conn.in_transaction()
        {
            return Ok(Rows::Streamed(pg::Streamed::new(conn, sql, params)?));
        }
        Ok(match self.split() {
            Ok(stmt) => {
                bind_sqlite(stmt, params)?;
                Rows::Sqlite(stmt.raw_query())
            }
            Err((conn, stmt)) => Rows::Postgres(conn.query(stmt, params)?.into_iter()),
        })
    }
}

enum Rows<'s> {
    Sqlite(rusqlite::Rows<'s>),
    Postgres(std::vec::IntoIter<postgres::Row>),
    Streamed(pg::Streamed<'s>),
}

/// The rows of [`Stmt::query`].
pub struct Cursor<'s>(Rows<'s>);

/// A row of a [`Cursor`]: SQLite's is borrowed from the statement, PostgreSQL's held.
pub enum CursorRow<'c> {
    Sqlite(&'c rusqlite::Row<'c>),
    Postgres(postgres::Row),
}

impl CursorRow<'_> {
    pub fn row(&self) -> Row<'_> {
        match self {
            CursorRow::Sqlite(row) => Row::Sqlite(row),
            CursorRow::Postgres(row) => Row::Postgres(row),
        }
    }
}

impl Cursor<'_> {
    pub fn next_row(&mut self) -> SqlResult<Option<CursorRow<'_>>> {
        match &mut self.0 {
            Rows::Sqlite(rows) => Ok(rows.next()?.map(CursorRow::Sqlite)),
            Rows::Postgres(rows) => Ok(rows.next().map(CursorRow::Postgres)),
            Rows::Streamed(rows) => Ok(rows.next_row()?.map(CursorRow::Postgres)),
        }
    }
}

/// The rows of [`Stmt::query_map`].
pub struct Mapped<'s, F> {
    rows: Rows<'s>,
    f: F,
}

impl<T, F> Iterator for Mapped<'_, F>
where
    F: FnMut(&Row<'_>) -> SqlResult<T>,
{
    type Item = SqlResult<T>;

    fn next(&mut self) -> Option<SqlResult<T>> {
        match &mut self.rows {
            Rows::Sqlite(rows) => match rows.next() {
                Ok(Some(row)) => Some((self.f)(&Row::Sqlite(row))),
                Ok(None) => None,
                Err(e) => Some(Err(e.into())),
            },
            Rows::Postgres(rows) => rows.next().map(|row| (self.f)(&Row::Postgres(&row))),
            Rows::Streamed(rows) => match rows.next_row() {
                Ok(Some(row)) => Some((self.f)(&Row::Postgres(&row))),
                Ok(None) => None,
                Err(e) => Some(Err(e)),
            },
        }
    }
}

impl<'c> Db<'c> {
    /// A read transaction for reads that must see one state of the database: on SQLite one
    /// begun here (unless the connection is in one already), rolled back when the guard goes;
    /// on PostgreSQL nothing, as a request connection reads in one transaction from the start.
    pub fn read_snapshot(&self) -> SqlResult<ReadSnapshot<'c>> {
        match *self {
            Db::Sqlite(conn) if conn.is_autocommit() => {
                conn.execute_batch("BEGIN")?;
                Ok(ReadSnapshot(Some(*self)))
            }
            Db::Postgres(conn) if !conn.in_transaction() => {
                conn.batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")?;
                conn.set_in_transaction(true);
                Ok(ReadSnapshot(Some(*self)))
            }
            _ => Ok(ReadSnapshot(None)),
        }
    }

    /// Whether the connection is inside a transaction.
    pub fn in_transaction(&self) -> bool {
        match self {
            Db::Sqlite(conn) => !conn.is_autocommit(),
            Db::Postgres(conn) => conn.in_transaction(),
        }
    }

    /// Ends the transaction the store began, discarding what it did.
    pub fn rollback(&self) -> SqlResult<()> {
        if let Db::Postgres(conn) = self {
            conn.set_in_transaction(false);
        }
        self.execute_batch("ROLLBACK")
    }
}

/// See [`Db::read_snapshot`].
pub struct ReadSnapshot<'c>(Option<Db<'c>>);

impl Drop for ReadSnapshot<'_> {
    fn drop(&mut self) {
        if let Some(db) = self.0 {
            // Nothing to keep: the reads wrote nothing. Should the ROLLBACK fail, the pool
            // closes the connection it gets back inside a transaction.
            let _ = db.rollback();
        }
    }
}

/// Rows added to one table in bulk ([`Db::bulk_insert`]): on SQLite each as it comes, by one
/// prepared statement; on PostgreSQL gathered and sent by `COPY`, whose one round trip for
/// thousands of rows an insert per row (a round trip each) would take minutes to match.
pub enum BulkInsert<'c> {
    Sqlite(Stmt<'c>),
    Postgres(pg::Copy<'c>),
}

impl<'c> Db<'c> {
    /// Inserts into `table`'s `columns` (see [`BulkInsert`]); the rows are all written once
    /// [`BulkInsert::finish`] returns.
    pub fn bulk_insert(&self, table: &str, columns: &[&str]) -> SqlResult<BulkInsert<'c>> {
        match *self {
            Db::Sqlite(_) => {
                let places: Vec<String> = (1..=columns.len()).map(|i| format!("?{i}")).collect();
                Ok(BulkInsert::Sqlite(self.prepare_cached(&format!(
                    "INSERT INTO {table} ({}) VALUES ({})",
                    columns.join(", "),
                    places.join(", ")
                ))?))
            }
            Db::Postgres(conn) => Ok(BulkInsert::Postgres(pg::Copy::new(conn, table, columns)?)),
        }
    }
}

impl BulkInsert<'_> {
    pub fn add(&mut self, row: &[&dyn Param]) -> SqlResult<()> {
        match self {
            BulkInsert::Sqlite(stmt) => stmt.execute(row).map(|_| ()),
            BulkInsert::Postgres(copy) => copy.add(row.iter().map(|p| Owned::of(p.value()))),
        }
    }

    /// Writes what is still gathered.
    pub fn finish(mut self) -> SqlResult<()> {
        self.flush()
    }

    /// Writes what is gathered so far: every row added is in the table when it returns.
    pub fn flush(&mut self) -> SqlResult<()> {
        match self {
            BulkInsert::Sqlite(_) => Ok(()),
            BulkInsert::Postgres(copy) => copy.send(),
        }
    }
}

impl Db<'_> {
    /// Waits until no other transaction holds `key`, and holds it until the transaction this
    /// connection is in ends. PostgreSQL's transaction advisory lock; on SQLite nothing, since
    /// its write transactions already exclude each other.
    pub fn lock_transaction(&self, key: i64) -> SqlResult<()> {
        if self.dialect() == Dialect::Postgres {
            self.query_row(
                "SELECT pg_advisory_xact_lock(?1)::text",
                params![key],
                |r| r.get::<String>(0),
            )?;
        }
        Ok(())
    }
}

/// A transaction of a [`Db`]: its statements run on the connection it derefs to.
pub struct Tx<'c> {
    db: Db<'c>,
    open: bool,
}

impl<'c> Deref for Tx<'c> {
    type Target = Db<'c>;

    fn deref(&self) -> &Db<'c> {
        &self.db
    }
}

impl Tx<'_> {
    pub fn commit(mut self) -> SqlResult<()> {
        self.open = false;
        if let Db::Postgres(conn) = self.db {
            conn.set_in_transaction(false);
        }
        self.db.execute_batch("COMMIT")
    }
}

impl Drop for Tx<'_> {
    fn drop(&mut self) {
        if self.open {
            // Should the ROLLBACK fail, the pool closes the connection it gets back inside a
            // transaction.
            let _ = self.db.rollback();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A streamed query reads past several batches, with parameters; one left early closes its
    /// cursor; outside a transaction (where no cursor lives) the rows come as one answer.
    #[test]
    fn many_rows_are_read_a_batch_at_a_time_through_a_cursor() {
        let database = crate::store::postgres::testing::TestDatabase::create();
        let conn = PgConn::new(database.connect_as(&database.owner));
        let db = Db::Postgres(&conn);
        let sql = "SELECT n FROM generate_series(1, ?1::bigint) AS n WHERE n % ?2 = 0";
        let count = |stmt: &mut Stmt<'_>, every: i64| {
            let read: Vec<i64> = stmt
                .query_map(params![25_000i64, every], |r| r.get(0))
                .unwrap()
                .collect::<Result<_, _>>()
                .unwrap();
            (read.len(), read.last().copied())
        };
        let mut outside = db.prepare_streamed(sql).unwrap();
        assert_eq!(count(&mut outside, 5), (5_000, Some(25_000)));
        let open_cursors = |tx: &Db<'_>| -> i64 {
            tx.query_row(
                "SELECT count(*) FROM pg_cursors WHERE name LIKE 'regintel_rows_%'",
                params![],
                |r| r.get(0),
            )
            .unwrap()
        };
        let tx = db.transaction().unwrap();
        let mut stmt = tx.prepare_streamed(sql).unwrap();
        assert_eq!(count(&mut stmt, 1), (25_000, Some(25_000)));
        {
            let mut left = stmt.query(params![25_000i64, 2i64]).unwrap();
            assert!(left.next_row().unwrap().is_some());
            assert_eq!(open_cursors(&tx), 1, "read through a cursor");
        }
        assert_eq!(open_cursors(&tx), 0, "closed when left");
        assert_eq!(count(&mut stmt, 3), (8_333, Some(24_999)));
    }
}
