//! The one error type of a statement, from SQL text to SQLite: what went wrong,
//! with SQLite's own codes kept. A leaf module: `sql` raises it while parsing, the
//! engine while running, and each front end maps it to its own form (SQLSTATEs,
//! HTTP statuses).

use std::fmt;

/// Why a statement failed. Front ends map this to SQLSTATEs or HTTP statuses.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ErrorKind {
    /// SQLite refused the statement; `code` is the extended result code.
    Sqlite { code: i32 },
    /// The statement text could not be understood before reaching SQLite.
    Syntax,
    /// The session is inside a transaction that already failed.
    TransactionAborted,
    /// A writer waited too long for its turn, or a read-then-write transaction lost
    /// its snapshot to another writer: retry the transaction.
    SerializationFailure,
    /// A writer waited longer than the busy timeout for the write permit.
    LockTimeout,
    /// The operator has not allowed this (ATTACH, VACUUM INTO), or the session's
    /// role does not (a PRAGMA only admins may set).
    InsufficientPrivilege,
    /// A write by a read-only session.
    ReadOnlyTransaction,
    /// A statement that is not allowed here (e.g. SAVEPOINT outside a transaction).
    NoActiveTransaction,
    /// The request itself is malformed (wrong parameter count, forbidden statement).
    InvalidRequest,
    /// COPY data that does not fit the table (wrong number of fields, bad escapes).
    BadCopyData,
    /// A feature litewire does not implement.
    Unsupported,
    /// A parameter value does not fit its declared type.
    InvalidParameter,
    /// An option's value is not allowed (a sequence's INCREMENT 0, say).
    InvalidParameterValue,
    /// Every pooled connection is held by another session.
    TooManyConnections,
    /// The server is shutting down.
    Unavailable,
    /// The statement was stopped: a cancel request or a time limit.
    QueryCanceled,
    /// The statement was stopped because the server is shutting down.
    AdminShutdown,
    /// A name that refers to nothing (an unknown setting, say).
    UndefinedObject,
    /// A cursor name that names no open cursor.
    InvalidCursorName,
    /// A cursor name already taken.
    DuplicateCursor,
    /// A setting only the server may change.
    CantChangeRuntimeParam,
    /// A statement that cannot run inside a transaction block.
    ActiveTransaction,
    /// Anything else: an internal error.
    Internal,
}

/// An error with a message meant for the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
        }
    }

    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorKind::InvalidRequest, message)
    }

    /// SQLite's extended result code, when SQLite raised the error.
    pub fn sqlite_code(&self) -> Option<i32> {
        match self.kind {
            ErrorKind::Sqlite { code } => Some(code),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl From<sqlx::Error> for Error {
    fn from(error: sqlx::Error) -> Self {
        match error {
            sqlx::Error::Database(db) => {
                let code = db
                    .code()
                    .and_then(|c| c.parse::<i32>().ok())
                    .unwrap_or(libsqlite3_sys::SQLITE_ERROR);
                Error::new(ErrorKind::Sqlite { code }, db.message())
            }
            sqlx::Error::PoolTimedOut => Error::new(
                ErrorKind::TooManyConnections,
                "sorry, too many clients already: every SQLite connection is in use (see --max-connections)",
            ),
            sqlx::Error::PoolClosed => {
                Error::new(ErrorKind::Unavailable, "the server is shutting down")
            }
            other => Error::new(ErrorKind::Internal, other.to_string()),
        }
    }
}
