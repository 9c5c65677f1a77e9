//! A PostgreSQL connection as the store's SQL facade (`store::sql::Db`) drives it: its prepared
//! statements, cursors and COPY, and values converted to and from the types of the columns.

use std::cell::RefCell;
use std::collections::HashMap;
use std::error::Error;

use postgres::types::{IsNull, ToSql, Type, to_sql_checked};

use super::translate::translate;
use crate::store::values::{Owned, Param, SqlError, SqlResult, Value};

/// Runs `f`, which waits for PostgreSQL, so that it cannot hold up the async tasks of the thread:
/// on a worker thread of tokio's multi-threaded runtime, they move to another thread meanwhile
/// (authentication lookups run on those threads; SQLite's are local reads).
pub fn blocking<T>(f: impl FnOnce() -> T) -> T {
    match tokio::runtime::Handle::try_current() {
        Ok(handle) if handle.runtime_flavor() == tokio::runtime::RuntimeFlavor::MultiThread => {
            tokio::task::block_in_place(f)
        }
        _ => f(),
    }
}

/// A PostgreSQL connection and the statements prepared on it, keyed by the store's SQL.
pub struct PgConn {
    /// Taken only when the connection is dropped (see `Drop`).
    client: RefCell<Option<postgres::Client>>,
    statements: RefCell<HashMap<String, postgres::Statement>>,
    /// A transaction the store began and has not ended yet.
    transaction: std::cell::Cell<bool>,
    /// Cursors declared (see [`Streamed`]), for their names.
    cursors: std::cell::Cell<u64>,
}

impl PgConn {
    pub fn new(client: postgres::Client) -> PgConn {
        PgConn {
            client: RefCell::new(Some(client)),
            statements: Default::default(),
            transaction: Default::default(),
            cursors: Default::default(),
        }
    }

    fn client(&self) -> std::cell::RefMut<'_, postgres::Client> {
        std::cell::RefMut::map(self.client.borrow_mut(), |c| {
            c.as_mut()
                .expect("a connection has its client until it is dropped")
        })
    }

    pub fn in_transaction(&self) -> bool {
        self.transaction.get()
    }

    /// Notes that a transaction began (true) or ended (false).
    pub fn set_in_transaction(&self, open: bool) {
        self.transaction.set(open);
    }

    /// A round trip: whether the server still answers on this connection.
    pub fn check(&self) -> Result<(), postgres::Error> {
        blocking(|| self.client().simple_query("")).map(|_| ())
    }

    pub fn prepare(&self, sql: &str) -> SqlResult<postgres::Statement> {
        if let Some(stmt) = self.statements.borrow().get(sql) {
            return Ok(stmt.clone());
        }
        let stmt = blocking(|| self.client().prepare(&translate(sql)))
            .map_err(|e| prepare_failed(sql, e))?;
        self.statements
            .borrow_mut()
            .insert(sql.to_owned(), stmt.clone());
        Ok(stmt)
    }

    /// A statement for one use, not kept.
    pub fn prepare_once(&self, sql: &str) -> SqlResult<postgres::Statement> {
        blocking(|| self.client().prepare(&translate(sql))).map_err(|e| prepare_failed(sql, e))
    }

    pub fn execute(&self, stmt: &postgres::Statement, params: &[&dyn Param]) -> SqlResult<usize> {
        let values = values(params);
        let refs = refs(&values);
        let changed = blocking(|| self.client().execute(stmt, &refs))?;
        Ok(changed as usize)
    }

    pub fn query(
        &self,
        stmt: &postgres::Statement,
        params: &[&dyn Param],
    ) -> SqlResult<Vec<postgres::Row>> {
        let values = values(params);
        let refs = refs(&values);
        Ok(blocking(|| self.client().query(stmt, &refs))?)
    }

    pub fn batch_execute(&self, sql: &str) -> SqlResult<()> {
        Ok(blocking(|| self.client().batch_execute(sql))?)
    }

    /// Whether the connection is broken (the server closed it, or the network went).
    pub fn is_closed(&self) -> bool {
        self.client.borrow().as_ref().is_none_or(|c| c.is_closed())
    }
}

/// Rows a [`Streamed`] read fetches at a time.
const FETCH_ROWS: usize = 10_000;

/// The rows of a query read [`FETCH_ROWS`] at a time through a cursor of the transaction the
/// connection is in (`DECLARE`, `FETCH`), for reads of many rows: all of them at once would
/// be held in memory together (the public rows: about 250 MB more at the bundled data's size).
pub struct Streamed<'c> {
    conn: &'c PgConn,
    name: String,
    fetch: postgres::Statement,
    batch: std::vec::IntoIter<postgres::Row>,
    done: bool,
}

impl<'c> Streamed<'c> {
    pub fn new(conn: &'c PgConn, sql: &str, params: &[&dyn Param]) -> SqlResult<Streamed<'c>> {
        let name = format!("regintel_rows_{}", conn.cursors.get());
        conn.cursors.set(conn.cursors.get() + 1);
        let declare = format!("DECLARE {name} NO SCROLL CURSOR FOR {}", translate(sql));
        let values = values(params);
        let refs = refs(&values);
        let fetch = blocking(|| -> Result<_, postgres::Error> {
            let mut client = conn.client();
            client.execute(declare.as_str(), &refs)?;
            client.prepare(&format!("FETCH {FETCH_ROWS} FROM {name}"))
        })
        .map_err(|e| prepare_failed(sql, e))?;
        Ok(Streamed {
            conn,
            name,
            fetch,
            batch: Vec::new().into_iter(),
            done: false,
        })
    }

    pub fn next_row(&mut self) -> SqlResult<Option<postgres::Row>> {
        loop {
            if let Some(row) = self.batch.next() {
                return Ok(Some(row));
            }
            if self.done {
                return Ok(None);
            }
            let rows = blocking(|| self.conn.client().query(&self.fetch, &[]))?;
            self.done = rows.len() < FETCH_ROWS;
            self.batch = rows.into_iter();
        }
    }
}

/// The cursor is closed, read to its end or not; one the server ended with its transaction is
/// gone already, and the error that says so means nothing here.
impl Drop for Streamed<'_> {
    fn drop(&mut self) {
        let _ = self.conn.batch_execute(&format!("CLOSE {}", self.name));
    }
}

/// Rows gathered for one `COPY ... FROM STDIN BINARY`, sent when this many are gathered, or
/// when their texts and blobs take this many bytes (a block of a long series may be megabytes).
const COPY_ROWS: usize = 20_000;
const COPY_BYTES: usize = 16 << 20;

/// Rows for a table, sent by `COPY` (see [`super::BulkInsert`]).
pub struct Copy<'c> {
    conn: &'c PgConn,
    sql: String,
    types: Vec<Type>,
    rows: Vec<Vec<Owned>>,
    bytes: usize,
}

impl<'c> Copy<'c> {
    pub fn new(conn: &'c PgConn, table: &str, columns: &[&str]) -> SqlResult<Copy<'c>> {
        let columns = columns.join(", ");
        // The columns' types, as the binary format needs them.
        let probe = conn.prepare(&format!("SELECT {columns} FROM {table} LIMIT 0"))?;
        Ok(Copy {
            conn,
            sql: format!("COPY {table} ({columns}) FROM STDIN BINARY"),
            types: probe.columns().iter().map(|c| c.type_().clone()).collect(),
            rows: Vec::new(),
            bytes: 0,
        })
    }

    pub fn add(&mut self, row: impl Iterator<Item = Owned>) -> SqlResult<()> {
        let row: Vec<Owned> = row.collect();
        self.bytes += row.iter().map(Owned::heap_bytes).sum::<usize>();
        self.rows.push(row);
        if self.rows.len() >= COPY_ROWS || self.bytes >= COPY_BYTES {
            self.send()?;
        }
        Ok(())
    }

    /// Sends the rows gathered.
    pub fn send(&mut self) -> SqlResult<()> {
        if self.rows.is_empty() {
            return Ok(());
        }
        let rows = std::mem::take(&mut self.rows);
        self.bytes = 0;
        blocking(|| -> SqlResult<()> {
            let mut client = self.conn.client();
            let writer = client.copy_in(&self.sql)?;
            let mut writer = postgres::binary_copy::BinaryCopyInWriter::new(writer, &self.types);
            for row in &rows {
                let values: Vec<PgValue<'_>> = row.iter().map(|v| PgValue(v.value())).collect();
                writer.write(&refs(&values))?;
            }
            writer.finish()?;
            Ok(())
        })
    }
}

fn prepare_failed(sql: &str, source: postgres::Error) -> SqlError {
    let sql: String = sql.split_whitespace().collect::<Vec<_>>().join(" ");
    SqlError::Prepare {
        sql: sql.chars().take(300).collect(),
        source,
    }
}

/// Closing a client waits for its runtime, which cannot start on an async thread.
impl Drop for PgConn {
    fn drop(&mut self) {
        let client = self.client.get_mut().take();
        blocking(|| drop(client));
    }
}

fn values<'a>(params: &'a [&'a dyn Param]) -> Vec<PgValue<'a>> {
    params.iter().map(|p| PgValue(p.value())).collect()
}

fn refs<'a>(values: &'a [PgValue<'a>]) -> Vec<&'a (dyn ToSql + Sync)> {
    values.iter().map(|v| v as &(dyn ToSql + Sync)).collect()
}

/// A bound value, converted to whatever type PostgreSQL inferred for its parameter.
#[derive(Debug)]
struct PgValue<'a>(Value<'a>);

fn mismatch(value: &Value<'_>, ty: &Type) -> Box<dyn Error + Sync + Send> {
    format!("a {value:?} cannot be bound to a parameter of type {ty}").into()
}

impl ToSql for PgValue<'_> {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut postgres::types::private::BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match self.0 {
            Value::Null => Ok(IsNull::Yes),
            Value::Integer(i) => match *ty {
                Type::INT8 => i.to_sql(ty, out),
                Type::INT4 => i32::try_from(i)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(i)?.to_sql(ty, out),
                Type::FLOAT8 => (i as f64).to_sql(ty, out),
                Type::BOOL => (i != 0).to_sql(ty, out),
                Type::TEXT | Type::VARCHAR => i.to_string().to_sql(ty, out),
                _ => Err(mismatch(&self.0, ty)),
            },
            Value::Boolean(b) => match *ty {
                Type::BOOL => b.to_sql(ty, out),
                Type::INT8 => i64::from(b).to_sql(ty, out),
                Type::INT4 => i32::from(b).to_sql(ty, out),
                _ => Err(mismatch(&self.0, ty)),
            },
            Value::Real(r) => match *ty {
                Type::FLOAT8 => r.to_sql(ty, out),
                Type::FLOAT4 => (r as f32).to_sql(ty, out),
                _ => Err(mismatch(&self.0, ty)),
            },
            Value::Text(t) => match *ty {
                Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::UNKNOWN => {
                    t.to_sql(ty, out)
                }
                _ => Err(mismatch(&self.0, ty)),
            },
            Value::Blob(b) => match *ty {
                Type::BYTEA => b.to_sql(ty, out),
                _ => Err(mismatch(&self.0, ty)),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Column `index` of `row` as SQLite would hold it: booleans as 0 and 1.
pub fn column(row: &postgres::Row, index: usize) -> SqlResult<Owned> {
    let conversion = |message: String| SqlError::Conversion {
        column: index,
        message,
    };
    let Some(column) = row.columns().get(index) else {
        return Err(conversion("no such column".into()));
    };
    let value = match *column.type_() {
        Type::INT8 => row.try_get::<_, Option<i64>>(index)?.map(Owned::Integer),
        Type::INT4 => row
            .try_get::<_, Option<i32>>(index)?
            .map(|i| Owned::Integer(i.into())),
        Type::INT2 => row
            .try_get::<_, Option<i16>>(index)?
            .map(|i| Owned::Integer(i.into())),
        Type::BOOL => row
            .try_get::<_, Option<bool>>(index)?
            .map(|b| Owned::Integer(b.into())),
        Type::FLOAT8 => row.try_get::<_, Option<f64>>(index)?.map(Owned::Real),
        Type::FLOAT4 => row
            .try_get::<_, Option<f32>>(index)?
            .map(|r| Owned::Real(r.into())),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME => {
            row.try_get::<_, Option<String>>(index)?.map(Owned::Text)
        }
        Type::BYTEA => row.try_get::<_, Option<Vec<u8>>>(index)?.map(Owned::Blob),
        ref other => {
            return Err(conversion(format!(
                "a column of type {other} (cast it in the query)"
            )));
        }
    };
    Ok(value.unwrap_or(Owned::Null))
}
