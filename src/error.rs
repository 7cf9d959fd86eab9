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
    /// An error PostgreSQL raises with this SQLSTATE (a deadlock, a division by
    /// zero, ...), for the many conditions that need no kind of their own.
    SqlState(SqlState),
    /// Anything else: an internal error.
    Internal,
}

/// Marks the SQLSTATE of an error a SQL function raised (see
/// [`Error::function_message`]).
const FUNCTION_ERROR: char = '\u{1f}';

/// A PostgreSQL SQLSTATE: five ASCII letters and digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SqlState([u8; 5]);

impl SqlState {
    pub const ADMIN_SHUTDOWN: SqlState = SqlState(*b"57P01");
    pub const DATATYPE_MISMATCH: SqlState = SqlState(*b"42804");
    pub const DEADLOCK_DETECTED: SqlState = SqlState(*b"40P01");
    pub const DUPLICATE_COLUMN: SqlState = SqlState(*b"42701");
    pub const DUPLICATE_OBJECT: SqlState = SqlState(*b"42710");
    pub const DUPLICATE_SCHEMA: SqlState = SqlState(*b"42P06");
    pub const DUPLICATE_TABLE: SqlState = SqlState(*b"42P07");
    pub const INVALID_OBJECT_DEFINITION: SqlState = SqlState(*b"42P17");
    pub const UNDEFINED_COLUMN: SqlState = SqlState(*b"42703");
    pub const DEPENDENT_OBJECTS_STILL_EXIST: SqlState = SqlState(*b"2BP01");
    pub const RESERVED_NAME: SqlState = SqlState(*b"42939");
    pub const FEATURE_NOT_SUPPORTED: SqlState = SqlState(*b"0A000");
    pub const INSUFFICIENT_PRIVILEGE: SqlState = SqlState(*b"42501");
    pub const INVALID_DATETIME_FORMAT: SqlState = SqlState(*b"22007");
    pub const INVALID_FUNCTION_DEFINITION: SqlState = SqlState(*b"42P13");
    pub const DUPLICATE_FUNCTION: SqlState = SqlState(*b"42723");
    pub const UNDEFINED_FUNCTION: SqlState = SqlState(*b"42883");
    pub const INVALID_NAME: SqlState = SqlState(*b"42602");
    pub const INVALID_SCHEMA_NAME: SqlState = SqlState(*b"3F000");
    pub const INVALID_PARAMETER_VALUE: SqlState = SqlState(*b"22023");
    pub const INVALID_TABLE_DEFINITION: SqlState = SqlState(*b"42P16");
    pub const INVALID_TEXT_REPRESENTATION: SqlState = SqlState(*b"22P02");
    pub const NULL_VALUE_NOT_ALLOWED: SqlState = SqlState(*b"22004");
    pub const NUMERIC_VALUE_OUT_OF_RANGE: SqlState = SqlState(*b"22003");
    pub const OBJECT_NOT_IN_PREREQUISITE_STATE: SqlState = SqlState(*b"55000");
    pub const QUERY_CANCELED: SqlState = SqlState(*b"57014");
    pub const READ_ONLY_SQL_TRANSACTION: SqlState = SqlState(*b"25006");
    pub const SEQUENCE_GENERATOR_LIMIT_EXCEEDED: SqlState = SqlState(*b"2200H");
    pub const UNDEFINED_PARAMETER: SqlState = SqlState(*b"42P02");
    pub const UNDEFINED_TABLE: SqlState = SqlState(*b"42P01");
    pub const UNDEFINED_OBJECT: SqlState = SqlState(*b"42704");
    pub const CHECK_VIOLATION: SqlState = SqlState(*b"23514");
    pub const NOT_NULL_VIOLATION: SqlState = SqlState(*b"23502");
    pub const WRONG_OBJECT_TYPE: SqlState = SqlState(*b"42809");
    pub const SYNTAX_ERROR: SqlState = SqlState(*b"42601");
    pub const LOCK_NOT_AVAILABLE: SqlState = SqlState(*b"55P03");
    pub const PROGRAM_LIMIT_EXCEEDED: SqlState = SqlState(*b"54000");
    pub const ARRAY_SUBSCRIPT_ERROR: SqlState = SqlState(*b"2202E");
    pub const CHARACTER_NOT_IN_REPERTOIRE: SqlState = SqlState(*b"22021");
    pub const UNTRANSLATABLE_CHARACTER: SqlState = SqlState(*b"22P05");
    pub const IO_ERROR: SqlState = SqlState(*b"58030");

    /// The SQLSTATE `code` spells, if it is one.
    pub fn parse(code: &str) -> Option<SqlState> {
        let bytes: [u8; 5] = code.as_bytes().try_into().ok()?;
        bytes
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            .then_some(SqlState(bytes))
    }

    pub fn as_str(&self) -> &str {
        // Built only from ASCII (see `parse` and the constants).
        std::str::from_utf8(&self.0).unwrap_or("XX000")
    }
}

/// An error with a message meant for the client.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: ErrorKind,
    pub message: String,
    /// More about it, on a line of its own (PostgreSQL's DETAIL).
    pub detail: Option<String>,
    /// The constraint a row broke, where it is known.
    pub violated: Option<Box<Violated>>,
}

/// A constraint a row broke, as PostgreSQL's error names it: the error's
/// message in PostgreSQL's words, which the PostgreSQL front end sends for
/// SQLite's (the HTTP front ends keep SQLite's), and its fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violated {
    pub message: String,
    pub schema: String,
    pub table: String,
    pub constraint: String,
}

impl Error {
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Error {
            kind,
            message: message.into(),
            detail: None,
            violated: None,
        }
    }

    /// The error with `detail` (PostgreSQL's DETAIL field).
    pub fn with_detail(mut self, detail: impl Into<String>) -> Self {
        self.detail = Some(detail.into());
        self
    }

    /// An error SQLite reported: its extended result code and message, or, for
    /// an error a SQL function raised in PostgreSQL's terms (see
    /// [`Error::function_message`]), that error.
    pub fn sqlite(code: i32, message: impl Into<String>) -> Self {
        let message = message.into();
        if let Some(marked) = message.strip_prefix(FUNCTION_ERROR)
            && let Some((code, text)) = marked.split_once(FUNCTION_ERROR)
            && let Some(state) = SqlState::parse(code)
        {
            return Self::state(state, text);
        }
        Self::new(ErrorKind::Sqlite { code }, message)
    }

    /// The message a SQL function hands SQLite to raise this error: SQLite keeps
    /// only a message, so the SQLSTATE travels in front of it, between markers
    /// no client text contains, and [`Error::sqlite`] reads it back.
    pub fn function_message(state: SqlState, message: &str) -> String {
        format!(
            "{FUNCTION_ERROR}{}{FUNCTION_ERROR}{message}",
            state.as_str()
        )
    }

    /// An error PostgreSQL raises with `state`.
    pub fn state(state: SqlState, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::SqlState(state), message)
    }

    /// 0A000: `what` (a feature, named as PostgreSQL's messages name them)
    /// is not supported.
    pub fn not_supported(what: &str) -> Self {
        Self::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            format!("{what} is not supported"),
        )
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
                Error::sqlite(code, db.message())
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
