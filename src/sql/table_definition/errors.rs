//! The errors reading and editing a definition fail with: PostgreSQL's words,
//! SQLite's code for a failed schema change.

use crate::error::{Error, ErrorKind};

/// A definition that cannot be read.
pub(super) fn malformed(sql: &str) -> Error {
    Error::new(
        ErrorKind::Syntax,
        format!("cannot read the table definition: {sql}"),
    )
}

/// A schema change refused, as SQLite refuses one (`SQLITE_ERROR`), in
/// PostgreSQL's words.
pub(super) fn schema_error(message: String) -> Error {
    Error::new(
        ErrorKind::Sqlite {
            code: libsqlite3_sys::SQLITE_ERROR,
        },
        message,
    )
}

/// 42703, as PostgreSQL says it.
pub fn no_such_column(column: &str, table: &str) -> Error {
    schema_error(format!(
        "no such column: column \"{column}\" of relation \"{table}\" does not exist"
    ))
}

/// A constraint of that name is there already.
pub(super) fn constraint_exists(name: &str, table: &str) -> Error {
    schema_error(format!(
        "constraint \"{name}\" for relation \"{table}\" already exists"
    ))
}
