//! What the store binds to statements and reads from rows on either database, and what a
//! statement can fail with: the bottom of the store, shared by both backends and the facade
//! above them (`store::sql`). SQLite has few storage classes and PostgreSQL many types; a value
//! is carried in SQLite's terms (a boolean is an integer) and converted where PostgreSQL needs.

mod error;

pub use error::{SqlError, SqlResult, refused_text_in};

/// A value bound to a statement, borrowed from the caller.
#[derive(Debug, Clone, Copy)]
pub enum Value<'a> {
    Null,
    Integer(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
    Boolean(bool),
}

/// What may be bound to a statement's parameter.
pub trait Param: rusqlite::ToSql + Sync {
    fn value(&self) -> Value<'_>;
}

macro_rules! integer_params {
    ($($t:ty),*) => {$(
        impl Param for $t {
            fn value(&self) -> Value<'_> {
                Value::Integer(*self as i64)
            }
        }
    )*};
}
integer_params!(i64, i32, u16, u32, u8);

impl Param for f64 {
    fn value(&self) -> Value<'_> {
        Value::Real(*self)
    }
}
impl Param for bool {
    fn value(&self) -> Value<'_> {
        Value::Boolean(*self)
    }
}
impl Param for str {
    fn value(&self) -> Value<'_> {
        Value::Text(self)
    }
}
impl Param for String {
    fn value(&self) -> Value<'_> {
        Value::Text(self)
    }
}
impl Param for [u8] {
    fn value(&self) -> Value<'_> {
        Value::Blob(self)
    }
}
impl Param for Vec<u8> {
    fn value(&self) -> Value<'_> {
        Value::Blob(self)
    }
}
impl<const N: usize> Param for [u8; N] {
    fn value(&self) -> Value<'_> {
        Value::Blob(self)
    }
}
impl<T: Param + ?Sized> Param for &T {
    fn value(&self) -> Value<'_> {
        (**self).value()
    }
}
impl<T: Param> Param for Option<T> {
    fn value(&self) -> Value<'_> {
        match self {
            Some(v) => v.value(),
            None => Value::Null,
        }
    }
}

/// The parameters of a statement: `params![a, b]`.
macro_rules! params {
    () => { &[] as &[&dyn $crate::store::values::Param] };
    ($($p:expr),+ $(,)?) => { &[$(&$p as &dyn $crate::store::values::Param),+] as &[&dyn $crate::store::values::Param] };
}
pub(crate) use params;

/// A column's value as read, before it is converted to the type asked for.
#[derive(Debug, Clone, PartialEq)]
pub enum Owned {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Owned {
    /// Bytes it holds beside itself.
    pub fn heap_bytes(&self) -> usize {
        match self {
            Owned::Text(text) => text.len(),
            Owned::Blob(bytes) => bytes.len(),
            _ => 0,
        }
    }

    pub fn of(value: Value<'_>) -> Owned {
        match value {
            Value::Null => Owned::Null,
            Value::Integer(i) => Owned::Integer(i),
            Value::Boolean(b) => Owned::Integer(b.into()),
            Value::Real(r) => Owned::Real(r),
            Value::Text(t) => Owned::Text(t.to_owned()),
            Value::Blob(b) => Owned::Blob(b.to_vec()),
        }
    }

    pub fn value(&self) -> Value<'_> {
        match self {
            Owned::Null => Value::Null,
            Owned::Integer(i) => Value::Integer(*i),
            Owned::Real(r) => Value::Real(*r),
            Owned::Text(t) => Value::Text(t),
            Owned::Blob(b) => Value::Blob(b),
        }
    }
}

/// Any value, as it is: for copying rows whatever their columns.
impl Column for Owned {
    fn from_sqlite(row: &rusqlite::Row<'_>, index: usize) -> rusqlite::Result<Self> {
        use rusqlite::types::ValueRef;
        Ok(match row.get_ref(index)? {
            ValueRef::Null => Owned::Null,
            ValueRef::Integer(i) => Owned::Integer(i),
            ValueRef::Real(r) => Owned::Real(r),
            ValueRef::Text(t) => Owned::Text(
                std::str::from_utf8(t)
                    .map_err(|e| rusqlite::Error::Utf8Error(index, e))?
                    .to_owned(),
            ),
            ValueRef::Blob(b) => Owned::Blob(b.to_vec()),
        })
    }
    fn from_owned(value: Owned) -> Result<Self, String> {
        Ok(value)
    }
}

impl rusqlite::ToSql for Owned {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef};
        Ok(ToSqlOutput::Borrowed(match self {
            Owned::Null => ValueRef::Null,
            Owned::Integer(i) => ValueRef::Integer(*i),
            Owned::Real(r) => ValueRef::Real(*r),
            Owned::Text(t) => ValueRef::Text(t.as_bytes()),
            Owned::Blob(b) => ValueRef::Blob(b),
        }))
    }
}

impl Param for Owned {
    fn value(&self) -> Value<'_> {
        Owned::value(self)
    }
}

/// What a column may be read as.
pub trait Column: Sized {
    fn from_sqlite(row: &rusqlite::Row<'_>, index: usize) -> rusqlite::Result<Self>;
    /// From the value PostgreSQL gave (booleans arrive as integers 0 and 1, as SQLite keeps
    /// them).
    fn from_owned(value: Owned) -> Result<Self, String>;
}

macro_rules! sqlite_column {
    () => {
        fn from_sqlite(row: &rusqlite::Row<'_>, index: usize) -> rusqlite::Result<Self> {
            row.get(index)
        }
    };
}

fn wrong(value: &Owned, wanted: &str) -> String {
    format!("{value:?} is not {wanted}")
}

macro_rules! integer_columns {
    ($($t:ty),*) => {$(
        impl Column for $t {
            sqlite_column!();
            fn from_owned(value: Owned) -> Result<Self, String> {
                match value {
                    Owned::Integer(i) => <$t>::try_from(i).map_err(|e| e.to_string()),
                    other => Err(wrong(&other, stringify!($t))),
                }
            }
        }
    )*};
}
integer_columns!(i64, i32, u16, u32, u8);

impl Column for bool {
    sqlite_column!();
    fn from_owned(value: Owned) -> Result<Self, String> {
        match value {
            Owned::Integer(i) => Ok(i != 0),
            other => Err(wrong(&other, "a boolean")),
        }
    }
}
impl Column for f64 {
    sqlite_column!();
    fn from_owned(value: Owned) -> Result<Self, String> {
        match value {
            Owned::Real(r) => Ok(r),
            Owned::Integer(i) => Ok(i as f64),
            other => Err(wrong(&other, "a number")),
        }
    }
}
impl Column for String {
    sqlite_column!();
    fn from_owned(value: Owned) -> Result<Self, String> {
        match value {
            Owned::Text(t) => Ok(t),
            other => Err(wrong(&other, "text")),
        }
    }
}
impl Column for Vec<u8> {
    sqlite_column!();
    fn from_owned(value: Owned) -> Result<Self, String> {
        match value {
            Owned::Blob(b) => Ok(b),
            other => Err(wrong(&other, "a blob")),
        }
    }
}
impl<T: Column + rusqlite::types::FromSql> Column for Option<T> {
    fn from_sqlite(row: &rusqlite::Row<'_>, index: usize) -> rusqlite::Result<Self> {
        row.get(index)
    }
    fn from_owned(value: Owned) -> Result<Self, String> {
        match value {
            Owned::Null => Ok(None),
            value => T::from_owned(value).map(Some),
        }
    }
}
