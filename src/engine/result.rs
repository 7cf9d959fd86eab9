//! The one result model every front end encodes, and the one way results reach it.
//!
//! The engine hands each statement's results to a [`ResultSink`] row by row, as
//! SQLite produces them: a front end that writes rows to its client as they come
//! (the PostgreSQL front end, a streamed HTTP response) never holds more than a
//! batch of them, whatever the size of the result. [`QueryResult`] is the sink that
//! keeps everything (a whole statement's result in memory), for callers that want
//! the rows as a value; a `Vec<Result<QueryResult, Error>>` keeps a batch.
//! Neither front end needs to know anything about sqlx.

use std::future::Future;
use std::sync::Arc;

use super::value::{StorageClass, Value};
use crate::error::Error;
use crate::sql::CommandKind;

/// A result column: its name and, when it comes straight from a table column, the
/// type that column was declared with (`int`, `varchar(10)`, `timestamp`, ...).
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub name: String,
    pub decltype: Option<Arc<str>>,
    /// For expressions: the storage class of the first non-NULL value among the
    /// first rows (see [`LOOKAHEAD_ROWS`]), if any.
    pub storage: Option<StorageClass>,
}

/// How many rows the engine reads ahead, before announcing the columns, to type an
/// expression column by its first non-NULL value: a streamed result cannot wait
/// for its last row to say what its columns are.
pub const LOOKAHEAD_ROWS: usize = 64;

/// How a statement ended.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Completion {
    pub kind: CommandKind,
    /// Rows returned (statements that return rows) or changed (the others).
    pub rows_affected: u64,
    /// Set by statements that do not return rows.
    pub last_insert_rowid: Option<i64>,
}

/// Where results go, as SQLite produces them.
///
/// For each statement the engine calls `begin_statement`, then (for a statement that
/// returns rows) `columns` once and `row` for each row, then `finish_statement`;
/// or, when the statement fails, `error` instead of `finish_statement`, at
/// whatever point it failed. In a batch, an `error` after the last statement's
/// `finish_statement`, without a `begin_statement`, is the failure of the batch's
/// implicit COMMIT.
///
/// An `Err` from a sink method fails the statement with that error (a response
/// that grew past its limit, a client that went away): the engine stops stepping
/// it and reports it like any other failure, `error` included.
///
/// Between rows, while `wants_flush` says so, the engine awaits `flush` before it
/// asks SQLite for the next row: that is where a front end writes out what it
/// holds and waits for a slow client, with the statement paused mid-way.
pub trait ResultSink: Send {
    fn begin_statement(&mut self) -> Result<(), Error> {
        Ok(())
    }

    /// The statement's result columns, before its first row.
    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error>;

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error>;

    /// Whether rows wait to be written out before the next one is produced.
    fn wants_flush(&self) -> bool {
        false
    }

    /// Writes out what the sink holds.
    fn flush(&mut self) -> impl Future<Output = Result<(), Error>> + Send {
        std::future::ready(Ok(()))
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error>;

    /// The statement failed (its `columns` and some rows may have come already).
    fn error(&mut self, error: &Error) {
        let _ = error;
    }
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

    /// A statement's end without its rows (a portal's, once they were sent).
    pub fn completed(completion: Completion) -> Self {
        QueryResult {
            kind: completion.kind,
            rows_affected: completion.rows_affected,
            last_insert_rowid: completion.last_insert_rowid,
            ..QueryResult::empty(completion.kind)
        }
    }

    /// How the statement ended.
    pub fn completion(&self) -> Completion {
        Completion {
            kind: self.kind,
            rows_affected: self.rows_affected,
            last_insert_rowid: self.last_insert_rowid,
        }
    }

    /// Hands a result made whole (session commands, transaction control) to
    /// `sink`, as the engine hands a statement's rows.
    pub async fn send_to<S: ResultSink>(self, sink: &mut S) -> Result<(), Error> {
        let completion = self.completion();
        if self.returns_rows() {
            sink.columns(&self.columns)?;
            for row in self.rows {
                sink.row(row)?;
                if sink.wants_flush() {
                    sink.flush().await?;
                }
            }
        }
        sink.finish_statement(completion)
    }
}

/// The buffered sink: the whole result in memory.
impl ResultSink for QueryResult {
    fn begin_statement(&mut self) -> Result<(), Error> {
        *self = QueryResult::empty(self.kind);
        Ok(())
    }

    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        self.columns = columns.clone();
        Ok(())
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        self.rows.push(row);
        Ok(())
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        self.kind = completion.kind;
        self.rows_affected = completion.rows_affected;
        self.last_insert_rowid = completion.last_insert_rowid;
        Ok(())
    }
}

/// A batch, buffered: one element per statement run, the error where one failed
/// (and one more error when the batch's implicit COMMIT failed).
impl ResultSink for Vec<Result<QueryResult, Error>> {
    fn begin_statement(&mut self) -> Result<(), Error> {
        self.push(Ok(QueryResult::empty(CommandKind::Other(""))));
        Ok(())
    }

    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        current(self)?.columns(columns)
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        current(self)?.row(row)
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        current(self)?.finish_statement(completion)
    }

    fn error(&mut self, error: &Error) {
        match self.last_mut() {
            Some(last @ Ok(_)) if !last.as_ref().is_ok_and(finished) => *last = Err(error.clone()),
            _ => self.push(Err(error.clone())),
        }
    }
}

/// Whether a buffered statement's result is complete: `finish_statement` gives
/// every statement a kind other than the placeholder `begin_statement` sets.
fn finished(result: &QueryResult) -> bool {
    result.kind != CommandKind::Other("")
}

fn current(batch: &mut [Result<QueryResult, Error>]) -> Result<&mut QueryResult, Error> {
    match batch.last_mut() {
        Some(Ok(result)) => Ok(result),
        _ => Err(Error::new(
            crate::error::ErrorKind::Internal,
            "a result came without its statement",
        )),
    }
}

/// A sink that keeps nothing: statements run for their effect.
#[derive(Debug, Default)]
pub struct Discard;

impl ResultSink for Discard {
    fn columns(&mut self, _columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        Ok(())
    }

    fn row(&mut self, _row: Vec<Value>) -> Result<(), Error> {
        Ok(())
    }

    fn finish_statement(&mut self, _completion: Completion) -> Result<(), Error> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    fn completion(kind: CommandKind, rows: u64) -> Completion {
        Completion {
            kind,
            rows_affected: rows,
            last_insert_rowid: None,
        }
    }

    #[test]
    fn a_buffered_batch_keeps_each_statement_and_the_failure() {
        let mut batch: Vec<Result<QueryResult, Error>> = Vec::new();
        let columns = Arc::new(vec![Column {
            name: "x".into(),
            decltype: None,
            storage: None,
        }]);
        batch.begin_statement().unwrap();
        batch.columns(&columns).unwrap();
        batch.row(vec![Value::Integer(1)]).unwrap();
        batch.row(vec![Value::Integer(2)]).unwrap();
        batch
            .finish_statement(completion(CommandKind::Select, 2))
            .unwrap();
        batch.begin_statement().unwrap();
        batch.columns(&columns).unwrap();
        batch.row(vec![Value::Integer(3)]).unwrap();
        let failure = Error::new(ErrorKind::Internal, "boom");
        batch.error(&failure);
        // A failed COMMIT after everything: one more element.
        batch.error(&failure);
        assert_eq!(batch.len(), 3);
        let first = batch[0].as_ref().unwrap();
        assert_eq!(
            first.rows,
            vec![vec![Value::Integer(1)], vec![Value::Integer(2)]]
        );
        assert_eq!(first.kind, CommandKind::Select);
        assert_eq!(batch[1], Err(failure.clone()));
        assert_eq!(batch[2], Err(failure));
    }

    #[test]
    fn a_failed_commit_after_a_finished_statement_is_one_more_element() {
        let mut batch: Vec<Result<QueryResult, Error>> = Vec::new();
        batch.begin_statement().unwrap();
        batch
            .finish_statement(completion(CommandKind::Insert, 1))
            .unwrap();
        batch.error(&Error::new(ErrorKind::Internal, "commit"));
        assert_eq!(batch.len(), 2);
        assert!(batch[0].is_ok());
        assert!(batch[1].is_err());
    }
}
