//! Engine errors as PostgreSQL ErrorResponses: SQLSTATE from SQLite's result codes
//! (and, for SQLITE_ERROR, which covers most of the SQL mistakes, its message).

use pgwire::error::{ErrorInfo, PgWireError};

use super::types::EncodeError;
use crate::error::{Error, ErrorKind};

pub fn sqlstate(error: &Error) -> &str {
    match &error.kind {
        ErrorKind::SqlState(state) => state.as_str(),
        ErrorKind::Sqlite { code } => sqlite_sqlstate(*code, code & 0xff, &error.message),
        ErrorKind::Syntax => "42601",
        ErrorKind::TransactionAborted => "25P02",
        ErrorKind::SerializationFailure => "40001",
        ErrorKind::LockTimeout => "55P03",
        ErrorKind::NoActiveTransaction => "25P01",
        ErrorKind::InvalidRequest => "08P01",
        ErrorKind::InsufficientPrivilege => "42501",
        ErrorKind::ReadOnlyTransaction => "25006",
        ErrorKind::InvalidParameter => "22P02",
        ErrorKind::InvalidParameterValue => "22023",
        ErrorKind::Unsupported => "0A000",
        ErrorKind::BadCopyData => "22P04",
        ErrorKind::TooManyConnections => "53300",
        ErrorKind::Unavailable => "57P03",
        ErrorKind::QueryCanceled => "57014",
        ErrorKind::AdminShutdown => "57P01",
        ErrorKind::UndefinedObject => "42704",
        ErrorKind::InvalidCursorName => "34000",
        ErrorKind::DuplicateCursor => "42P03",
        ErrorKind::CantChangeRuntimeParam => "55P02",
        ErrorKind::ActiveTransaction => "25001",
        ErrorKind::Internal => "XX000",
    }
}

/// By extended result code first (constraint kinds), then by primary code.
fn sqlite_sqlstate(code: i32, primary: i32, message: &str) -> &'static str {
    use libsqlite3_sys as ffi;
    match code {
        ffi::SQLITE_CONSTRAINT_UNIQUE | ffi::SQLITE_CONSTRAINT_PRIMARYKEY => "23505",
        ffi::SQLITE_CONSTRAINT_NOTNULL => "23502",
        ffi::SQLITE_CONSTRAINT_FOREIGNKEY => "23503",
        ffi::SQLITE_CONSTRAINT_CHECK => "23514",
        _ => match primary {
            ffi::SQLITE_ERROR => error_message_sqlstate(message),
            // `ON DELETE RESTRICT` fails with the primary code only.
            ffi::SQLITE_CONSTRAINT if message == "FOREIGN KEY constraint failed" => "23503",
            ffi::SQLITE_CONSTRAINT => "23000",
            ffi::SQLITE_BUSY | ffi::SQLITE_LOCKED => "55P03",
            ffi::SQLITE_MISMATCH => "42804",
            ffi::SQLITE_RANGE => "08P01",
            ffi::SQLITE_READONLY => "25006",
            ffi::SQLITE_FULL => "53100",
            ffi::SQLITE_NOMEM => "53200",
            ffi::SQLITE_TOOBIG => "54000",
            ffi::SQLITE_INTERRUPT => "57014",
            ffi::SQLITE_AUTH | ffi::SQLITE_PERM => "42501",
            ffi::SQLITE_CORRUPT | ffi::SQLITE_NOTADB => "XX001",
            ffi::SQLITE_IOERR | ffi::SQLITE_CANTOPEN => "58030",
            _ => "XX000",
        },
    }
}

/// SQLITE_ERROR is SQLite's catch-all; its message tells the cases apart.
fn error_message_sqlstate(message: &str) -> &'static str {
    // Enum types' own (see `sql::enums`).
    if message.starts_with("type \"") {
        if message.ends_with("already exists") {
            return "42710";
        }
        if message.ends_with("does not exist") {
            return "42704";
        }
    }
    const BY_MESSAGE: &[(&str, &str)] = &[
        ("syntax error", "42601"),
        ("incomplete input", "42601"),
        ("unrecognized token", "42601"),
        ("no such table", "42P01"),
        ("unknown database ", "3F000"),
        ("no such view", "42P01"),
        ("no such index", "42704"),
        ("no such column", "42703"),
        ("has no column named", "42703"),
        ("no such function", "42883"),
        ("wrong number of arguments", "42883"),
        ("\" for relation \"", "42710"),
        ("enum label \"", "42710"),
        ("multiple primary keys", "42P16"),
        ("already exists", "42P07"),
        ("ambiguous column name", "42702"),
        ("too many attached databases", "42501"),
        ("datatype mismatch", "42804"),
        ("integer overflow", "22003"),
        ("invalid input syntax for type", "22P02"),
        ("cannot start a transaction within a transaction", "25001"),
        ("cannot commit - no transaction is active", "25P01"),
        ("because other objects depend on it", "2BP01"),
        ("in a read-only transaction", "25006"),
        ("invalid name syntax", "42602"),
        // `COMMENT ON COLUMN` of a column that is not there (see `sql::comments`).
        ("\" of relation \"", "42703"),
        ("\" does not exist", "42P01"),
        ("must be less than MAXVALUE", "22023"),
        ("must lie between MINVALUE and MAXVALUE", "22023"),
        // `set_config()` and `current_setting()` (see `engine::config_functions`):
        // what `SET` and `SHOW` answer with their own kinds.
        ("unrecognized configuration parameter", "42704"),
        // An array element of the wrong spelling (`'{maybe}'::boolean[]`).
        ("invalid input syntax for type", "22P02"),
        ("\" cannot be changed", "55P02"),
        ("invalid value for parameter", "22P02"),
        ("is not supported: litewire speaks UTF8", "0A000"),
        // What SQLite refuses in its own words that PostgreSQL names otherwise.
        (
            "does not match any PRIMARY KEY or UNIQUE constraint",
            "42P10",
        ),
        ("circular reference:", "42P19"),
        ("multiple recursive references:", "42P19"),
        ("recursive aggregate queries not supported", "42P19"),
        ("misuse of aggregate", "42803"),
        ("misuse of window function", "42803"),
        ("HAVING clause on a non-aggregate query", "42803"),
        (
            "DISTINCT aggregates must have exactly one argument",
            "0A000",
        ),
        ("unsupported use of NULLS", "0A000"),
        ("may not use \"TABLE.*\" wildcards", "0A000"),
        ("values for", "42601"),
        ("no such savepoint", "3B001"),
        ("cannot VACUUM from within a transaction", "25001"),
        ("because it is a view", "55000"),
        ("may not be altered", "42809"),
        ("in foreign key definition", "42703"),
        ("bad JSON path", "22P02"),
        ("malformed JSON", "22P02"),
        ("invalid Unicode escape", "22025"),
    ];
    BY_MESSAGE
        .iter()
        .find(|(needle, _)| message.contains(needle))
        .map_or("XX000", |(_, state)| state)
}

/// The ErrorResponse fields for an engine error.
pub fn error_info(error: &Error) -> ErrorInfo {
    // Shutdown ends the session: PostgreSQL reports it as FATAL.
    let severity = match error.kind {
        ErrorKind::AdminShutdown => "FATAL",
        _ => "ERROR",
    };
    let message = match (&error.kind, &error.violated) {
        (ErrorKind::Sqlite { .. }, Some(violated)) => violated.message.clone(),
        (ErrorKind::Sqlite { .. }, None) => {
            postgres_message(&error.message).unwrap_or_else(|| error.message.clone())
        }
        _ => error.message.clone(),
    };
    let mut info = ErrorInfo::new(severity.to_owned(), sqlstate(error).to_owned(), message);
    info.detail.clone_from(&error.detail);
    if let Some(violated) = &error.violated {
        info.schema = Some(violated.schema.clone());
        info.table = Some(violated.table.clone());
        info.constraint = Some(violated.constraint.clone());
    }
    info
}

/// PostgreSQL's words for what SQLite says in its own (`no such table: t` is
/// `relation "t" does not exist`); `None` where they are the same.
fn postgres_message(message: &str) -> Option<String> {
    if let Some(name) = message.strip_prefix("no such table: ") {
        let name = name.strip_prefix("main.").unwrap_or(name);
        return Some(format!("relation \"{name}\" does not exist"));
    }
    // A name qualified with a schema there is not (SQLite reads the
    // qualifier as a database).
    if let Some(schema) = message.strip_prefix("unknown database ") {
        return Some(format!("schema \"{schema}\" does not exist"));
    }
    if let Some(name) = message.strip_prefix("no such column: ") {
        return Some(match name.contains('.') {
            true => format!("column {name} does not exist"),
            false => format!("column \"{name}\" does not exist"),
        });
    }
    // A CHECK that carries its written text (see `sql::written`) says that.
    if let Some(check) = message.strip_prefix("CHECK constraint failed: ")
        && check.contains(crate::sql::written::FUNCTION)
    {
        let shown = crate::sql::written::shown(check);
        return Some(format!("CHECK constraint failed: {shown}"));
    }
    // `t.a`: the table (`s.t` in a schema) and the column.
    if let Some((table, column)) = message
        .strip_prefix("NOT NULL constraint failed: ")
        .and_then(|failed| failed.rsplit_once('.'))
    {
        let table = table.rsplit('.').next().unwrap_or(table);
        return Some(format!(
            "null value in column \"{column}\" of relation \"{table}\" violates not-null constraint"
        ));
    }
    if let Some(name) = message.strip_prefix("ambiguous column name: ") {
        return Some(format!("column reference \"{name}\" is ambiguous"));
    }
    if let Some(name) = message.strip_prefix("no such function: ") {
        return Some(format!("function {name} does not exist"));
    }
    if let Some(near) = message
        .strip_prefix("near ")
        .and_then(|rest| rest.strip_suffix(": syntax error"))
    {
        return Some(format!("syntax error at or near {near}"));
    }
    // `table t already exists`, `index i already exists`, `view v ...`.
    if let Some(name) = ["table ", "index ", "view ", "trigger "]
        .iter()
        .find_map(|kind| message.strip_prefix(kind)?.strip_suffix(" already exists"))
    {
        return Some(format!("relation \"{name}\" already exists"));
    }
    if message == "incomplete input" {
        return Some("syntax error at end of input".into());
    }
    if let Some(name) = message.strip_prefix("no such savepoint: ") {
        return Some(format!("savepoint \"{name}\" does not exist"));
    }
    if message.starts_with("ON CONFLICT clause does not match") {
        return Some(
            "there is no unique or exclusion constraint matching the ON CONFLICT specification"
                .into(),
        );
    }
    if message == "cannot VACUUM from within a transaction" {
        return Some("VACUUM cannot run inside a transaction block".into());
    }
    None
}

/// The ErrorResponse fields for a value that could not be put on the wire.
pub fn encode_error_info(failure: EncodeError) -> ErrorInfo {
    ErrorInfo::new(
        "ERROR".to_owned(),
        failure.sqlstate.to_owned(),
        failure.message,
    )
}

/// The ErrorResponse fields of an error in the `statement`-th statement of
/// `query`, pointing at the token it is about where it names one.
pub fn error_info_in(error: &Error, query: &str, statement: usize) -> ErrorInfo {
    let mut info = error_info(error);
    if let Some(position) = crate::sql::error_position(query, statement, &info.message) {
        info.position = Some(position.to_string());
    }
    info
}

/// An error of a statement in `query`, for pgwire to send.
pub fn to_pgwire_in(error: &Error, query: &str) -> PgWireError {
    PgWireError::UserError(Box::new(error_info_in(error, query, 0)))
}

pub fn to_pgwire(error: &Error) -> PgWireError {
    PgWireError::UserError(Box::new(error_info(error)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(code: i32, message: &str) -> String {
        sqlstate(&Error::new(ErrorKind::Sqlite { code }, message)).to_owned()
    }

    #[test]
    fn a_function_raises_its_sqlstate() {
        let message = Error::function_message(crate::error::SqlState::DEADLOCK_DETECTED, "x");
        let error = Error::sqlite(libsqlite3_sys::SQLITE_ERROR, message);
        assert_eq!(sqlstate(&error), "40P01");
        assert_eq!(error.message, "x");
    }

    #[test]
    fn sqlite_words_become_postgres_words() {
        let message =
            |text: &str| error_info(&Error::sqlite(libsqlite3_sys::SQLITE_ERROR, text)).message;
        assert_eq!(message("no such table: t"), "relation \"t\" does not exist");
        assert_eq!(message("no such column: t.x"), "column t.x does not exist");
        assert_eq!(message("no such column: x"), "column \"x\" does not exist");
        assert_eq!(
            message("table t already exists"),
            "relation \"t\" already exists"
        );
        assert_eq!(
            message("near \"selec\": syntax error"),
            "syntax error at or near \"selec\""
        );
        assert_eq!(
            message("UNIQUE constraint failed: t.id"),
            "UNIQUE constraint failed: t.id"
        );
        assert_eq!(
            message("NOT NULL constraint failed: s.items.id"),
            "null value in column \"id\" of relation \"items\" violates not-null constraint"
        );
    }

    #[test]
    fn maps_sqlite_codes_and_messages() {
        use libsqlite3_sys as ffi;
        assert_eq!(
            state(ffi::SQLITE_ERROR, "near \"selec\": syntax error"),
            "42601"
        );
        assert_eq!(state(ffi::SQLITE_ERROR, "no such table: nope"), "42P01");
        assert_eq!(state(ffi::SQLITE_ERROR, "no such column: x"), "42703");
        for (message, expected) in [
            ("no such savepoint: s1", "3B001"),
            ("misuse of aggregate function max()", "42803"),
            ("circular reference: x", "42P19"),
            ("cannot VACUUM from within a transaction", "25001"),
            (
                "ON CONFLICT clause does not match any PRIMARY KEY or UNIQUE constraint",
                "42P10",
            ),
        ] {
            assert_eq!(state(ffi::SQLITE_ERROR, message), expected, "{message}");
        }
        assert_eq!(
            state(
                ffi::SQLITE_CONSTRAINT_UNIQUE,
                "UNIQUE constraint failed: t.a"
            ),
            "23505"
        );
        assert_eq!(
            state(
                ffi::SQLITE_CONSTRAINT_NOTNULL,
                "NOT NULL constraint failed: t.a"
            ),
            "23502"
        );
        assert_eq!(
            state(
                ffi::SQLITE_CONSTRAINT_FOREIGNKEY,
                "FOREIGN KEY constraint failed"
            ),
            "23503"
        );
        assert_eq!(
            state(
                ffi::SQLITE_CONSTRAINT_CHECK,
                "CHECK constraint failed: a > 0"
            ),
            "23514"
        );
        assert_eq!(
            state(ffi::SQLITE_CONSTRAINT, "FOREIGN KEY constraint failed"),
            "23503"
        );
        assert_eq!(state(ffi::SQLITE_BUSY, "database is locked"), "55P03");
        assert_eq!(
            state(ffi::SQLITE_ERROR, "relation \"s\" does not exist"),
            "42P01"
        );
        assert_eq!(state(ffi::SQLITE_ERROR, "something else"), "XX000");
    }
}
