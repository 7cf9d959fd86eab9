//! Engine errors as Hrana reports them: SQLite's message with its result code's
//! name (`SQLITE_CONSTRAINT_UNIQUE`, as newer sqld versions send), and names of
//! our own for failures that happen before SQLite (`SQL_PARSE_ERROR`, ...). The
//! SDKs surface the code as the error's `code`, so apps switch on these names.

use libsqlite3_sys as ffi;

use super::proto::HranaError;
use crate::error::{Error, ErrorKind};

pub fn from_engine(error: Error) -> HranaError {
    let code = match error.kind {
        ErrorKind::Sqlite { code } => {
            return HranaError::new(
                sqlite_code_name(code),
                format!("SQLite error: {}", error.message),
            );
        }
        ErrorKind::Syntax => "SQL_PARSE_ERROR",
        ErrorKind::LockTimeout | ErrorKind::TooManyConnections => "SQLITE_BUSY",
        ErrorKind::SerializationFailure => "SQLITE_BUSY_SNAPSHOT",
        ErrorKind::InsufficientPrivilege => "SQLITE_AUTH",
        ErrorKind::ReadOnlyTransaction => "SQLITE_READONLY",
        ErrorKind::InvalidRequest | ErrorKind::InvalidParameter => "ARGS_INVALID",
        ErrorKind::Unsupported => "SQL_UNSUPPORTED",
        ErrorKind::QueryCanceled => "SQLITE_INTERRUPT",
        ErrorKind::Unavailable | ErrorKind::AdminShutdown => "SERVER_SHUTTING_DOWN",
        ErrorKind::NoActiveTransaction
        | ErrorKind::ActiveTransaction
        | ErrorKind::TransactionAborted
        | ErrorKind::UndefinedObject
        | ErrorKind::InvalidCursorName
        | ErrorKind::DuplicateCursor
        | ErrorKind::InvalidParameterValue
        | ErrorKind::CantChangeRuntimeParam
        | ErrorKind::BadCopyData
        | ErrorKind::SqlState(_) => "SQLITE_ERROR",
        ErrorKind::Internal => "INTERNAL",
    };
    HranaError::new(code, error.message)
}

/// The name of a SQLite result code: the extended code's where it has one of its
/// own, else the primary code's.
pub fn sqlite_code_name(code: i32) -> &'static str {
    extended_name(code).unwrap_or_else(|| primary_name(code & 0xff))
}

fn extended_name(code: i32) -> Option<&'static str> {
    Some(match code {
        ffi::SQLITE_CONSTRAINT_CHECK => "SQLITE_CONSTRAINT_CHECK",
        ffi::SQLITE_CONSTRAINT_COMMITHOOK => "SQLITE_CONSTRAINT_COMMITHOOK",
        ffi::SQLITE_CONSTRAINT_DATATYPE => "SQLITE_CONSTRAINT_DATATYPE",
        ffi::SQLITE_CONSTRAINT_FOREIGNKEY => "SQLITE_CONSTRAINT_FOREIGNKEY",
        ffi::SQLITE_CONSTRAINT_FUNCTION => "SQLITE_CONSTRAINT_FUNCTION",
        ffi::SQLITE_CONSTRAINT_NOTNULL => "SQLITE_CONSTRAINT_NOTNULL",
        ffi::SQLITE_CONSTRAINT_PINNED => "SQLITE_CONSTRAINT_PINNED",
        ffi::SQLITE_CONSTRAINT_PRIMARYKEY => "SQLITE_CONSTRAINT_PRIMARYKEY",
        ffi::SQLITE_CONSTRAINT_ROWID => "SQLITE_CONSTRAINT_ROWID",
        ffi::SQLITE_CONSTRAINT_TRIGGER => "SQLITE_CONSTRAINT_TRIGGER",
        ffi::SQLITE_CONSTRAINT_UNIQUE => "SQLITE_CONSTRAINT_UNIQUE",
        ffi::SQLITE_CONSTRAINT_VTAB => "SQLITE_CONSTRAINT_VTAB",
        ffi::SQLITE_BUSY_RECOVERY => "SQLITE_BUSY_RECOVERY",
        ffi::SQLITE_BUSY_SNAPSHOT => "SQLITE_BUSY_SNAPSHOT",
        ffi::SQLITE_BUSY_TIMEOUT => "SQLITE_BUSY_TIMEOUT",
        ffi::SQLITE_LOCKED_SHAREDCACHE => "SQLITE_LOCKED_SHAREDCACHE",
        ffi::SQLITE_READONLY_DBMOVED => "SQLITE_READONLY_DBMOVED",
        ffi::SQLITE_ERROR_MISSING_COLLSEQ => "SQLITE_ERROR_MISSING_COLLSEQ",
        ffi::SQLITE_ERROR_RETRY => "SQLITE_ERROR_RETRY",
        _ => return None,
    })
}

fn primary_name(code: i32) -> &'static str {
    match code {
        ffi::SQLITE_ERROR => "SQLITE_ERROR",
        ffi::SQLITE_INTERNAL => "SQLITE_INTERNAL",
        ffi::SQLITE_PERM => "SQLITE_PERM",
        ffi::SQLITE_ABORT => "SQLITE_ABORT",
        ffi::SQLITE_BUSY => "SQLITE_BUSY",
        ffi::SQLITE_LOCKED => "SQLITE_LOCKED",
        ffi::SQLITE_NOMEM => "SQLITE_NOMEM",
        ffi::SQLITE_READONLY => "SQLITE_READONLY",
        ffi::SQLITE_INTERRUPT => "SQLITE_INTERRUPT",
        ffi::SQLITE_IOERR => "SQLITE_IOERR",
        ffi::SQLITE_CORRUPT => "SQLITE_CORRUPT",
        ffi::SQLITE_NOTFOUND => "SQLITE_NOTFOUND",
        ffi::SQLITE_FULL => "SQLITE_FULL",
        ffi::SQLITE_CANTOPEN => "SQLITE_CANTOPEN",
        ffi::SQLITE_PROTOCOL => "SQLITE_PROTOCOL",
        ffi::SQLITE_SCHEMA => "SQLITE_SCHEMA",
        ffi::SQLITE_TOOBIG => "SQLITE_TOOBIG",
        ffi::SQLITE_CONSTRAINT => "SQLITE_CONSTRAINT",
        ffi::SQLITE_MISMATCH => "SQLITE_MISMATCH",
        ffi::SQLITE_MISUSE => "SQLITE_MISUSE",
        ffi::SQLITE_AUTH => "SQLITE_AUTH",
        ffi::SQLITE_RANGE => "SQLITE_RANGE",
        ffi::SQLITE_NOTADB => "SQLITE_NOTADB",
        _ => "SQLITE_UNKNOWN",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extended_codes_keep_their_names() {
        assert_eq!(sqlite_code_name(2067), "SQLITE_CONSTRAINT_UNIQUE");
        assert_eq!(sqlite_code_name(1299), "SQLITE_CONSTRAINT_NOTNULL");
        assert_eq!(sqlite_code_name(1), "SQLITE_ERROR");
        // An extended code without a name of its own falls back to its primary code.
        assert_eq!(sqlite_code_name(ffi::SQLITE_IOERR_READ), "SQLITE_IOERR");
    }
}
