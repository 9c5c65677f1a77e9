//! What a statement can fail with, on either database, and what such a failure means for the
//! caller: the database out of reach, a rule of the schema broken, or text it cannot store.

#[derive(Debug, thiserror::Error)]
pub enum SqlError {
    #[error(transparent)]
    Sqlite(#[from] rusqlite::Error),
    #[error(transparent)]
    Postgres(#[from] ::postgres::Error),
    /// PostgreSQL refused to prepare a statement (named by its start, for the log).
    #[error("while preparing `{sql}`: {source}")]
    Prepare {
        sql: String,
        source: ::postgres::Error,
    },
    /// A query for one row found none.
    #[error("the query returned no rows")]
    NoRows,
    /// A column's value is not of the type asked for.
    #[error("column {column}: {message}")]
    Conversion { column: usize, message: String },
    /// The wrong number of parameters for a statement.
    #[error("the statement takes {expected} parameters, given {given}")]
    ParameterCount { expected: usize, given: usize },
}

pub type SqlResult<T> = Result<T, SqlError>;

impl SqlError {
    /// The database cannot be reached now (PostgreSQL down, restarting, or the network
    /// between): a later try may succeed. (SQLite's "busy" is told apart where it is mapped.)
    pub fn is_unreachable(&self) -> bool {
        let error = match self {
            SqlError::Postgres(e) | SqlError::Prepare { source: e, .. } => e,
            _ => return false,
        };
        if error.is_closed() {
            return true;
        }
        if let Some(code) = error.code() {
            // Class 08: connection exceptions; 57P01-03: shutting down, crashed, starting.
            let code = code.code();
            return code.starts_with("08") || matches!(code, "57P01" | "57P02" | "57P03");
        }
        std::error::Error::source(error).is_some_and(|s| s.is::<std::io::Error>())
    }

    /// PostgreSQL refused a text value itself (SQLSTATE 22021 `character_not_in_repertoire`,
    /// 22P02 `invalid_text_representation`, 22P05 `untranslatable_character`): the input's fault,
    /// where request text slipped past the checks made before any query.
    pub fn is_refused_text(&self) -> bool {
        match self {
            SqlError::Postgres(e) | SqlError::Prepare { source: e, .. } => {
                e.code().is_some_and(refused_text)
            }
            _ => false,
        }
    }

    /// A uniqueness (or other) constraint refused the write.
    pub fn is_constraint_violation(&self) -> bool {
        match self {
            SqlError::Sqlite(e) => {
                e.sqlite_error_code() == Some(rusqlite::ErrorCode::ConstraintViolation)
            }
            SqlError::Postgres(e) => e.code().is_some_and(|code| {
                code.code().starts_with("23") // integrity constraint violation
            }),
            _ => false,
        }
    }
}

fn refused_text(code: &::postgres::error::SqlState) -> bool {
    use ::postgres::error::SqlState;
    [
        SqlState::CHARACTER_NOT_IN_REPERTOIRE,
        SqlState::INVALID_TEXT_REPRESENTATION,
        SqlState::UNTRANSLATABLE_CHARACTER,
    ]
    .contains(code)
}

/// Whether `err`, wrapped however deep, is one of [`SqlError::is_refused_text`].
pub fn refused_text_in(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<SqlError>()
            .is_some_and(SqlError::is_refused_text)
            || (e.downcast_ref::<::postgres::Error>())
                .and_then(::postgres::Error::code)
                .is_some_and(refused_text)
            || (e.downcast_ref::<::postgres::error::DbError>())
                .is_some_and(|db| refused_text(db.code()))
    })
}
