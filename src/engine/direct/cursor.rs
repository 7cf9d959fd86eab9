//! A statement left open between fetches (a PostgreSQL portal run with a row
//! limit, a streaming `DECLARE`d cursor).

use std::collections::VecDeque;
use std::ffi::c_int;
use std::sync::Arc;

use libsqlite3_sys as ffi;

use super::lock_wait::{SQLITE_LOCKED_SHAREDCACHE, register_unlock_notify, wait_unlocked};
use super::run::Query;
use super::statements::{Prepared, prepare};
use super::values::{all_typed, bind, columns, error, read_row, statement_error};
use crate::engine::control::{self, StatementControl};
use crate::engine::handle::HeldHandle;
use crate::engine::result::{Column, Completion, LOOKAHEAD_ROWS, ResultSink};
use crate::engine::value::Value;
use crate::error::Error;
use crate::sql::CommandKind;

/// A statement left open between fetches (a PostgreSQL portal run with a row
/// limit): its own prepared statement, stepped a batch of rows at a time, so a
/// result of any size is never held whole. Finalized when dropped, which the
/// session does before its connection goes anywhere.
pub(in crate::engine) struct Cursor {
    stmt: Prepared,
    kind: CommandKind,
    columns: Option<Arc<Vec<Column>>>,
    /// Rows read ahead to type the columns, not fetched yet.
    ahead: VecDeque<Vec<Value>>,
    done: bool,
}

impl Cursor {
    /// Prepares and binds `query` on `handle`'s connection.
    pub(in crate::engine) fn open(
        handle: &mut HeldHandle,
        query: Query<'_>,
    ) -> Result<Cursor, Error> {
        let db = handle.db();
        // SAFETY: the handle is locked for this session.
        let stmt = unsafe { prepare(db, query.sql, false)? };
        for (i, value) in query.params.iter().enumerate() {
            let index = c_int::try_from(i + 1).unwrap_or(c_int::MAX);
            // SAFETY: a statement of the locked handle; values are copied.
            let rc = unsafe { bind(stmt.0.as_ptr(), index, value) };
            if rc != ffi::SQLITE_OK {
                // SAFETY: as above.
                return Err(unsafe { error(db, rc) });
            }
        }
        Ok(Cursor {
            stmt,
            kind: query.kind,
            columns: None,
            ahead: VecDeque::new(),
            done: false,
        })
    }

    /// Hands up to `max_rows` more rows to `sink` (columns first), then finishes
    /// the statement if no row is left. Returns whether rows are left.
    pub(in crate::engine) async fn fetch<S: ResultSink>(
        &mut self,
        handle: &mut HeldHandle,
        control: Option<&StatementControl>,
        max_rows: usize,
        sink: &mut S,
    ) -> Result<bool, Error> {
        if self.columns.is_none() {
            while !self.done && self.ahead.len() < LOOKAHEAD_ROWS {
                match self.step(handle, control).await? {
                    Some(row) => self.ahead.push_back(row),
                    None => self.done = true,
                }
                if all_typed(&self.typed_columns()) {
                    break;
                }
            }
            self.columns = Some(Arc::new(self.typed_columns()));
        }
        if let Some(columns) = &self.columns {
            sink.columns(columns)?;
        }
        let mut fetched = 0u64;
        while max_rows == 0 || fetched < max_rows as u64 {
            let row = match self.ahead.pop_front() {
                Some(row) => row,
                None if self.done => break,
                None => match self.step(handle, control).await? {
                    Some(row) => row,
                    None => {
                        self.done = true;
                        break;
                    }
                },
            };
            sink.row(row)?;
            fetched += 1;
            if sink.wants_flush() {
                sink.flush().await?;
            }
        }
        // Rows left, unless the last one was just taken: look one step ahead.
        if self.ahead.is_empty() && !self.done {
            match self.step(handle, control).await? {
                Some(row) => self.ahead.push_back(row),
                None => self.done = true,
            }
        }
        if self.done && self.ahead.is_empty() {
            sink.finish_statement(Completion {
                kind: self.kind,
                rows_affected: fetched,
                last_insert_rowid: None,
            })?;
            return Ok(false);
        }
        Ok(true)
    }

    /// The columns, typed by the rows read ahead.
    fn typed_columns(&mut self) -> Vec<Column> {
        let stmt = self.stmt.0.as_ptr();
        // SAFETY: a statement of the locked handle.
        unsafe {
            columns(
                stmt,
                ffi::sqlite3_column_count(stmt),
                self.ahead.make_contiguous(),
            )
        }
    }

    /// The next row, waiting out a shared-cache lock (only ever before the first
    /// row: table locks are taken as a statement starts).
    async fn step(
        &mut self,
        handle: &mut HeldHandle,
        control: Option<&StatementControl>,
    ) -> Result<Option<Vec<Value>>, Error> {
        loop {
            let unlocked = {
                let _watch = control.map(control::Running::new);
                let (db, stmt) = (handle.db(), self.stmt.0.as_ptr());
                // SAFETY: a statement of the locked handle.
                match unsafe { ffi::sqlite3_step(stmt) } {
                    ffi::SQLITE_ROW => {
                        // SAFETY: a row is current.
                        return Ok(Some(unsafe {
                            read_row(stmt, ffi::sqlite3_column_count(stmt))
                        }));
                    }
                    ffi::SQLITE_DONE => return Ok(None),
                    rc => {
                        // SAFETY: the handle is locked for us.
                        if unsafe { ffi::sqlite3_extended_errcode(db) } != SQLITE_LOCKED_SHAREDCACHE
                        {
                            // SAFETY: as above.
                            return Err(unsafe { statement_error(db, stmt, rc) });
                        }
                        // SAFETY: as above.
                        unsafe {
                            ffi::sqlite3_reset(stmt);
                            register_unlock_notify(db, rc)?
                        }
                    }
                }
            };
            wait_unlocked(unlocked, control).await?;
        }
    }
}
