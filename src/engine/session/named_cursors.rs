//! The session's SQL-level cursors (`DECLARE`, `FETCH`, `CLOSE`; see
//! `sql::cursors`). A cursor declared in a transaction that has not written
//! reads its rows from SQLite as they are fetched, like a portal run with a row
//! limit; one that cannot (the transaction has written, the statement must run
//! elsewhere, `WITH HOLD`) is run whole when declared and fetched from memory.
//! Cursors end with their transaction, except `WITH HOLD` ones, which a COMMIT
//! keeps until the session closes them.

use std::sync::Arc;

use super::state::{NamedCursor, Rows, Session, TransactionState, no_cursor};
use crate::engine::result::{Column, Completion, ResultSink};
use crate::engine::value::Value;
use crate::error::{Error, ErrorKind};
use crate::sql::{CommandKind, CursorCommand, Statement};

impl Session {
    /// The columns of the cursor `name` made with DECLARE.
    pub fn cursor_columns(&self, name: &str) -> Result<Arc<Vec<Column>>, Error> {
        self.named_cursors.columns(name)
    }

    /// Runs a cursor command, its result (rows for FETCH) to `sink`.
    pub(super) async fn run_cursor_command<S: ResultSink>(
        &mut self,
        command: &CursorCommand,
        kind: CommandKind,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        match command {
            CursorCommand::Declare { name, hold, query } => {
                self.declare(name, *hold, query, params).await?;
                finish(sink, kind, 0)
            }
            CursorCommand::Fetch { name, count } => self.fetch_named(name, *count, sink).await,
            CursorCommand::Close(name) => {
                let closed: Vec<NamedCursor> = match name {
                    Some(name) => {
                        vec![
                            self.named_cursors
                                .by_name
                                .remove(name)
                                .ok_or_else(|| no_cursor(name))?,
                        ]
                    }
                    None => self.named_cursors.by_name.drain().map(|(_, c)| c).collect(),
                };
                for cursor in closed {
                    if let Rows::Open(id) = cursor.rows {
                        self.close_cursor(id);
                    }
                }
                finish(sink, kind, 0)
            }
        }
    }

    async fn declare(
        &mut self,
        name: &str,
        hold: bool,
        query: &Statement,
        params: &[Value],
    ) -> Result<(), Error> {
        if self.named_cursors.by_name.contains_key(name) {
            return Err(Error::new(
                ErrorKind::DuplicateCursor,
                format!("cursor \"{name}\" already exists"),
            ));
        }
        let in_transaction = self.transaction_state() != TransactionState::Idle;
        if !hold && !in_transaction {
            return Err(Error::new(
                ErrorKind::NoActiveTransaction,
                "DECLARE CURSOR can only be used in transaction blocks",
            ));
        }
        let columns = self.describe(query).await?;
        let opened = match hold {
            true => None,
            false => self.open_cursor(query, params).await?,
        };
        let rows = match opened {
            Some(id) => Rows::Open(id),
            None => {
                let result = Box::pin(self.execute(query, params)).await?;
                Rows::Kept(result.rows.into())
            }
        };
        self.named_cursors.by_name.insert(
            name.to_owned(),
            NamedCursor {
                columns,
                rows,
                hold,
                savepoints: self.savepoints.len(),
            },
        );
        Ok(())
    }

    async fn fetch_named<S: ResultSink>(
        &mut self,
        name: &str,
        count: Option<u64>,
        sink: &mut S,
    ) -> Result<(), Error> {
        let limit = count.map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
        let cursor = self
            .named_cursors
            .by_name
            .get_mut(name)
            .ok_or_else(|| no_cursor(name))?;
        let columns = cursor.columns.clone();
        match &mut cursor.rows {
            Rows::Open(id) => {
                let id = *id;
                let mut fetched = Fetched { sink, rows: 0 };
                let max_rows = if limit == usize::MAX { 0 } else { limit };
                let left = self.fetch(id, max_rows, &mut fetched).await?;
                let rows = fetched.rows;
                if !left && let Some(cursor) = self.named_cursors.by_name.get_mut(name) {
                    cursor.rows = Rows::Done;
                }
                finish(sink, CommandKind::Fetch, rows)
            }
            Rows::Kept(kept) => {
                let taken: Vec<Vec<Value>> = kept.drain(..limit.min(kept.len())).collect();
                send(sink, &columns, taken)
            }
            Rows::Done => send(sink, &columns, Vec::new()),
        }
    }
}

fn send<S: ResultSink>(
    sink: &mut S,
    columns: &Arc<Vec<Column>>,
    rows: Vec<Vec<Value>>,
) -> Result<(), Error> {
    sink.columns(columns)?;
    let count = rows.len() as u64;
    for row in rows {
        sink.row(row)?;
    }
    finish(sink, CommandKind::Fetch, count)
}

fn finish<S: ResultSink>(sink: &mut S, kind: CommandKind, rows: u64) -> Result<(), Error> {
    sink.finish_statement(Completion {
        kind,
        rows_affected: rows,
        last_insert_rowid: None,
    })
}

/// The rows of one FETCH from a cursor read from SQLite, counted: the
/// statement's own completion is the FETCH's, sent after them.
struct Fetched<'a, S> {
    sink: &'a mut S,
    rows: u64,
}

impl<S: ResultSink> ResultSink for Fetched<'_, S> {
    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        self.sink.columns(columns)
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        self.rows += 1;
        self.sink.row(row)
    }

    fn wants_flush(&self) -> bool {
        self.sink.wants_flush()
    }

    fn flush(&mut self) -> impl Future<Output = Result<(), Error>> + Send {
        self.sink.flush()
    }

    fn finish_statement(&mut self, _completion: Completion) -> Result<(), Error> {
        Ok(())
    }
}
