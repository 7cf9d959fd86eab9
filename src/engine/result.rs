//! The one result model every front end encodes.
//!
//! The engine answers each statement with a [`QueryResult`]; the Postgres front end
//! turns it into RowDescription/DataRow/CommandComplete, the HTTP front end into
//! JSON. Neither needs to know anything about sqlx.

use std::sync::Arc;

use super::value::{StorageClass, Value};
use crate::sql::CommandKind;

/// A result column: its name and, when it comes straight from a table column, the
/// type that column was declared with (`int`, `varchar(10)`, `timestamp`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    pub decltype: Option<Arc<str>>,
    /// For expressions: the storage class of the first value seen, if any.
    pub storage: Option<StorageClass>,
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

    /// A result of text columns (what session commands answer).
    pub fn text(kind: CommandKind, names: &[&str], rows: Vec<Vec<String>>) -> QueryResult {
        let columns = names
            .iter()
            .map(|name| Column {
                name: (*name).to_owned(),
                decltype: Some(Arc::from("text")),
                storage: Some(StorageClass::Text),
            })
            .collect();
        let rows: Vec<Vec<Value>> = rows
            .into_iter()
            .map(|row| row.into_iter().map(Value::Text).collect())
            .collect();
        QueryResult {
            kind,
            columns: Arc::new(columns),
            rows_affected: rows.len() as u64,
            rows,
            last_insert_rowid: None,
        }
    }
}
