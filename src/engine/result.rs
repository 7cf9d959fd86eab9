//! The one result model every front end encodes.
//!
//! The engine answers each statement with a [`QueryResult`]; the Postgres front end
//! turns it into RowDescription/DataRow/CommandComplete, the HTTP front end into
//! JSON. Neither needs to know anything about sqlx.

use std::sync::Arc;

use super::value::{StorageClass, Value};

/// A result column: its name and, when it comes straight from a table column, the
/// type that column was declared with (`int`, `varchar(10)`, `timestamp`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    pub decltype: Option<Arc<str>>,
    /// For expressions: the storage class of the first value seen, if any.
    pub storage: Option<StorageClass>,
}

/// What kind of statement produced a result; front ends derive their command tags
/// and transaction bookkeeping from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommandKind {
    Select,
    Insert,
    Update,
    Delete,
    Begin,
    Commit,
    Rollback,
    /// `COPY ... FROM STDIN`; `rows_affected` rows were copied.
    Copy,
    /// Any other statement; the text is its command tag (`CREATE TABLE`, `PRAGMA`, ...).
    Other(&'static str),
}

/// Everything one statement produced.
#[derive(Debug, Clone, PartialEq)]
pub struct QueryResult {
    pub kind: CommandKind,
    pub columns: Arc<Vec<Column>>,
    pub rows: Vec<Vec<Value>>,
    pub rows_affected: u64,
    pub last_insert_rowid: Option<i64>,
}

impl QueryResult {
    /// A result with neither rows nor columns (transaction control, DDL, ...).
    pub fn empty(kind: CommandKind) -> Self {
        QueryResult {
            kind,
            columns: Arc::new(Vec::new()),
            rows: Vec::new(),
            rows_affected: 0,
            last_insert_rowid: None,
        }
    }

    /// Whether the statement describes rows (even zero of them).
    pub fn returns_rows(&self) -> bool {
        !self.columns.is_empty()
    }
}
