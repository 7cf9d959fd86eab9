//! Running one statement: its cached prepared statement bound and stepped on
//! the session's task, rows handed to the sink as SQLite produces them (the
//! first few read ahead to type expression columns), the statement reset
//! however the run ends.

use std::ffi::c_int;
use std::ptr::NonNull;
use std::sync::Arc;

use libsqlite3_sys as ffi;
use tokio::sync::oneshot;

use super::lock_wait::{SQLITE_LOCKED_SHAREDCACHE, register_unlock_notify, wait_unlocked};
use super::statements::{Cached, Statements, cached_statement};
use super::values::{all_typed, bind, columns, error, read_row, statement_error};
use crate::engine::control::{self, StatementControl};
use crate::engine::handle::HeldHandle;
use crate::engine::result::{Column, Completion, Discard, LOOKAHEAD_ROWS, ResultSink};
use crate::engine::value::Value;
use crate::error::Error;
use crate::sql::CommandKind;

/// One statement to run: its SQL, the values bound to `?1..?N`, and what the
/// result should say.
#[derive(Debug, Clone, Copy)]
pub(in crate::engine) struct Query<'a> {
    pub sql: &'a str,
    pub params: &'a [Value],
    pub kind: CommandKind,
    pub returns_rows: bool,
    /// Whether the statement takes parameters (which statement cache keeps it).
    pub parameters: bool,
}

/// Runs `query`, handing its rows to `sink` as SQLite produces them. With a
/// `control`, the statement stops (SQLITE_INTERRUPT) when the control says so, and
/// so does a wait for a shared-cache lock.
pub(in crate::engine) async fn run<S: ResultSink>(
    handle: &mut HeldHandle,
    statements: &mut Statements,
    query: Query<'_>,
    control: Option<&StatementControl>,
    sink: &mut S,
) -> Result<(), Error> {
    loop {
        // SAFETY: the handle is locked for this session.
        let stmt = match unsafe {
            cached_statement(handle.db(), statements, query.sql, query.parameters)?
        } {
            Ok(stmt) => stmt,
            Err(unlocked) => {
                wait_unlocked(unlocked, control).await?;
                continue;
            }
        };
        // SAFETY: `stmt` is a statement of the handle's connection, which stays
        // locked for us while it runs; `Running` resets it however this ends.
        let mut running = unsafe { Running::new(handle, stmt) };
        match running.stream(query, control, sink).await? {
            Streamed::Done => return Ok(()),
            Streamed::Locked(unlocked) => {
                drop(running);
                wait_unlocked(unlocked, control).await?;
            }
        }
    }
}

/// Runs statements that take no parameters and return nothing (`BEGIN`,
/// `COMMIT`, `SAVEPOINT x`, ...).
pub(in crate::engine) async fn execute(
    handle: &mut HeldHandle,
    statements: &mut Statements,
    sql: &'static str,
) -> Result<(), Error> {
    let query = Query {
        sql,
        params: &[],
        kind: CommandKind::Other("OK"),
        returns_rows: false,
        parameters: false,
    };
    run(handle, statements, query, None, &mut Discard).await
}

/// The result columns `sql` would produce, without running it: names and the
/// declared types of the table columns they come from.
pub(in crate::engine) async fn describe(
    handle: &mut HeldHandle,
    statements: &mut Statements,
    sql: &str,
    parameters: bool,
) -> Result<Vec<Column>, Error> {
    loop {
        // SAFETY: the handle is locked for this session.
        match unsafe { cached_statement(handle.db(), statements, sql, parameters)? } {
            // SAFETY: a statement of the locked handle, not running.
            Ok(stmt) => return Ok(unsafe { described(stmt.0.as_ptr()) }),
            Err(unlocked) => drop(unlocked.await),
        }
    }
}

/// # Safety
/// `stmt` must be a valid statement, locked for the caller.
pub(super) unsafe fn described(stmt: *mut ffi::sqlite3_stmt) -> Vec<Column> {
    // SAFETY: per the caller.
    unsafe { columns(stmt, ffi::sqlite3_column_count(stmt), &[]) }
}

/// The rows a statement produced so far: those read ahead to type the columns,
/// whether the columns went to the sink, and how many rows there were.
#[derive(Default)]
pub(super) struct Produced {
    ahead: Vec<Vec<Value>>,
    announced: bool,
    count: u64,
}

/// Why stepping paused.
pub(super) enum Paused {
    Flush,
    Done,
    Locked(oneshot::Receiver<()>),
}

/// What running a statement came to.
pub(super) enum Streamed {
    Done,
    /// Another connection holds a shared-cache lock, and no row has reached the
    /// sink yet: run again once notified.
    Locked(oneshot::Receiver<()>),
}

/// A statement being stepped. It is reset when this is dropped, however the run
/// ends (finished, failed, or abandoned by a client that went away while the
/// statement was paused between rows), so a cached statement never keeps a read
/// transaction open.
pub(super) struct Running<'h> {
    handle: &'h mut HeldHandle,
    stmt: NonNull<ffi::sqlite3_stmt>,
}

// SAFETY: SQLite is built thread-safe (serialized); the statement is only used
// through `&mut Running`, by the session that holds its connection's lock.
unsafe impl Send for Running<'_> {}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        // SAFETY: `stmt` belongs to the locked handle; a reset statement holds no
        // locks and can run again.
        unsafe {
            ffi::sqlite3_reset(self.stmt.as_ptr());
            ffi::sqlite3_clear_bindings(self.stmt.as_ptr());
        }
    }
}

impl<'h> Running<'h> {
    /// # Safety
    /// `stmt` must be a valid statement of `handle`'s connection.
    unsafe fn new(handle: &'h mut HeldHandle, stmt: Cached) -> Self {
        Running {
            handle,
            stmt: stmt.0,
        }
    }

    /// Binds the parameters, steps the statement and hands its rows to `sink`. The
    /// first rows are read ahead (up to [`LOOKAHEAD_ROWS`]) until every expression
    /// column has a non-NULL value to be typed by; the rest go straight through.
    async fn stream<S: ResultSink>(
        &mut self,
        query: Query<'_>,
        control: Option<&StatementControl>,
        sink: &mut S,
    ) -> Result<Streamed, Error> {
        self.bind(query.params)?;
        let stmt = self.stmt.as_ptr();
        // SAFETY: a valid statement.
        let returns_rows = query.returns_rows && unsafe { ffi::sqlite3_column_count(stmt) } > 0;
        let mut rows = Produced::default();
        loop {
            // The control watches SQLite only while it steps on this thread: the
            // task may move to another thread while the sink flushes.
            let paused = {
                let _watch = control.map(control::Running::new);
                self.step_until_pause(returns_rows, &mut rows, sink)?
            };
            match paused {
                Paused::Flush => sink.flush().await?,
                Paused::Done => break,
                Paused::Locked(unlocked) => return Ok(Streamed::Locked(unlocked)),
            }
        }
        let db = self.handle.db();
        let Produced {
            mut ahead,
            announced,
            count: rows,
        } = rows;
        let completion = if returns_rows {
            if !announced {
                let columns = self.columns(&ahead);
                announce(columns, &mut ahead, sink)?;
            }
            Completion {
                kind: query.kind,
                rows_affected: rows,
                last_insert_rowid: None,
            }
        } else {
            // SAFETY: the handle is locked for us.
            unsafe {
                Completion {
                    kind: query.kind,
                    rows_affected: u64::try_from(ffi::sqlite3_changes64(db)).unwrap_or(0),
                    last_insert_rowid: Some(ffi::sqlite3_last_insert_rowid(db)),
                }
            }
        };
        sink.finish_statement(completion)?;
        Ok(Streamed::Done)
    }

    /// Steps the statement, handing rows to `sink`, until the sink wants a flush,
    /// the statement is done, or a shared-cache lock is in the way.
    fn step_until_pause<S: ResultSink>(
        &mut self,
        returns_rows: bool,
        rows: &mut Produced,
        sink: &mut S,
    ) -> Result<Paused, Error> {
        loop {
            match self.step()? {
                Step::Row(row) if returns_rows => {
                    rows.count += 1;
                    if rows.announced {
                        sink.row(row)?;
                    } else {
                        rows.ahead.push(row);
                        let columns = self.columns(&rows.ahead);
                        if rows.ahead.len() >= LOOKAHEAD_ROWS || all_typed(&columns) {
                            rows.announced = true;
                            announce(columns, &mut rows.ahead, sink)?;
                        }
                    }
                    if sink.wants_flush() {
                        return Ok(Paused::Flush);
                    }
                }
                // Rows of a statement that is not supposed to return any.
                Step::Row(_) => {}
                Step::Done => return Ok(Paused::Done),
                Step::Locked(unlocked) if !rows.announced => return Ok(Paused::Locked(unlocked)),
                Step::Locked(_) => {
                    // SAFETY: the handle is locked for us.
                    return Err(unsafe { error(self.handle.db(), ffi::SQLITE_LOCKED) });
                }
            }
        }
    }

    fn bind(&mut self, params: &[Value]) -> Result<(), Error> {
        // A stage of a statement run in stages takes the statement's
        // parameters, but may use only the first of them.
        // SAFETY: a statement of the locked handle.
        let count = unsafe { ffi::sqlite3_bind_parameter_count(self.stmt.as_ptr()) };
        let used = usize::try_from(count).unwrap_or(0);
        for (i, value) in params.iter().take(used).enumerate() {
            let index = c_int::try_from(i + 1).unwrap_or(c_int::MAX);
            // SAFETY: a statement of the locked handle; text and blobs are copied
            // (SQLITE_TRANSIENT).
            let rc = unsafe { bind(self.stmt.as_ptr(), index, value) };
            if rc != ffi::SQLITE_OK {
                // SAFETY: the handle is locked for us.
                return Err(unsafe { error(self.handle.db(), rc) });
            }
        }
        Ok(())
    }

    fn step(&mut self) -> Result<Step, Error> {
        let (db, stmt) = (self.handle.db(), self.stmt.as_ptr());
        // SAFETY: a statement of the locked handle.
        match unsafe { ffi::sqlite3_step(stmt) } {
            // SAFETY: a row is current.
            ffi::SQLITE_ROW => Ok(Step::Row(unsafe {
                read_row(stmt, ffi::sqlite3_column_count(stmt))
            })),
            ffi::SQLITE_DONE => Ok(Step::Done),
            rc => {
                // SAFETY: the handle is locked for us.
                let code = unsafe { ffi::sqlite3_extended_errcode(db) };
                if code == SQLITE_LOCKED_SHAREDCACHE {
                    // SAFETY: as above.
                    return unsafe { register_unlock_notify(db, rc) }.map(Step::Locked);
                }
                // SAFETY: as above.
                Err(unsafe { statement_error(db, stmt, rc) })
            }
        }
    }

    /// The result columns, as the statement has them now: a statement prepared
    /// before a schema change is prepared again by its first step, and may then
    /// have other columns than before it ran (`SELECT *` of a table made anew).
    fn columns(&self, rows: &[Vec<Value>]) -> Vec<Column> {
        let stmt = self.stmt.as_ptr();
        // SAFETY: a statement of the locked handle.
        unsafe { columns(stmt, ffi::sqlite3_column_count(stmt), rows) }
    }
}

/// Announces the columns, typed by the rows read ahead, then hands those rows on.
pub(super) fn announce<S: ResultSink>(
    columns: Vec<Column>,
    ahead: &mut Vec<Vec<Value>>,
    sink: &mut S,
) -> Result<(), Error> {
    sink.columns(&Arc::new(columns))?;
    for row in ahead.drain(..) {
        sink.row(row)?;
    }
    Ok(())
}

pub(super) enum Step {
    Row(Vec<Value>),
    Done,
    Locked(oneshot::Receiver<()>),
}
