//! Sequence values: `nextval`, `currval`, `setval`, `lastval` and
//! `pg_get_serial_sequence`, as SQL functions on every connection.
//!
//! Definitions and persisted state are rows of `litewire_sequences` in the
//! database file (see `sql::dialect::sequences`, which writes them). PostgreSQL's
//! rule that `nextval` is never undone, not even by the ROLLBACK of the
//! transaction that called it, cannot be had from SQLite alone: a connection
//! cannot commit anything on its own inside a transaction, and another
//! connection cannot write while the transaction holds the file's write lock.
//! So the counters live in memory, one per sequence for the whole server
//! ([`Sequences`]), and the row is only their durable copy:
//! - `nextval` takes the next value from the in-memory counter (under its lock:
//!   concurrent sessions never get the same value) and writes it to the row in
//!   the caller's own transaction. A statement that calls it is classified as a
//!   write, so it runs on the writer connection under the write permit.
//! - ROLLBACK undoes the row's update but not the counter, so the next call goes
//!   on from the counter. The counter is read from the row again only when the
//!   row's `token` changed (the sequence was created again or restarted) or after
//!   a restart of the server.
//! - At a clean shutdown every counter is written back to its row
//!   (`Sequences::persist`), so values handed out in rolled-back transactions are
//!   not handed out again after a restart.
//!
//! Crash semantics: every value used by a committed transaction was written to
//! the row in that same transaction, so it is never handed out again after a
//! crash; values handed out only in transactions that rolled back (or were in
//! flight at the crash) since the last clean shutdown may be. This is
//! PostgreSQL's own guarantee (it flushes a sequence's WAL record only with a
//! commit).
//!
//! `currval` and `lastval` answer from the session's own values, which follow the
//! session from connection to connection: each connection's slot says which
//! session uses it now (set whenever a session takes a connection, see
//! `HeldConnection::assign`).

use std::collections::HashMap;
use std::ffi::{CStr, c_int, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use libsqlite3_sys as ffi;
use sqlx::SqliteConnection;

use super::functions::{Arg, Out};
use crate::sql::quote::identifier_as_postgres;
use crate::sql::relation_name;

/// Catalog oids of sequences: this plus their row's `oid`.
pub(super) const SEQUENCE_OID: i64 = 1 << 28;

/// The server's counters, by sequence name.
#[derive(Debug, Default)]
pub(super) struct Sequences {
    counters: Mutex<HashMap<String, Counter>>,
}

/// A sequence's state in memory, for the incarnation its row's `token` names,
/// with the definition it was last advanced by.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Counter {
    token: i64,
    last_value: i64,
    is_called: bool,
    bounds: Bounds,
}

/// How a sequence advances.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Bounds {
    increment: i64,
    min: i64,
    max: i64,
    cycle: bool,
}

impl Sequences {
    /// Writes every counter back to its row (at shutdown, outside any transaction).
    pub(super) async fn persist(&self, conn: &mut SqliteConnection) {
        let counters: Vec<(String, Counter)> = match self.counters.lock() {
            Ok(counters) => counters.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            Err(_) => return,
        };
        for (name, counter) in counters {
            let written = sqlx::query(
                "UPDATE main.litewire_sequences SET last_value = ?1, is_called = ?2 \
                 WHERE name = ?3 AND token = ?4",
            )
            .bind(counter.last_value)
            .bind(counter.is_called)
            .bind(&name)
            .bind(counter.token)
            .execute(&mut *conn)
            .await;
            if let Err(error) = written {
                tracing::warn!(%error, sequence = %name, "saving a sequence at shutdown");
            }
        }
    }
}

/// A session's `currval` and `lastval`.
#[derive(Debug, Default)]
pub(super) struct SessionValues {
    values: Mutex<SessionState>,
    /// The session is describing a statement: SQLx's type inference steps a
    /// query once when SQLite calls it read-only, which `SELECT nextval(...)`
    /// is to SQLite; that step must not advance a sequence.
    describing: AtomicBool,
}

/// Marks a session as describing a statement until dropped.
pub(super) struct Describing(Arc<SessionValues>);

impl Drop for Describing {
    fn drop(&mut self) {
        self.0.describing.store(false, Ordering::Release);
    }
}

#[derive(Debug, Default)]
struct SessionState {
    current: HashMap<String, i64>,
    last: Option<String>,
}

impl SessionValues {
    /// Marks the session as describing a statement (see `describing`).
    pub(super) fn describing(self: &Arc<Self>) -> Describing {
        self.describing.store(true, Ordering::Release);
        Describing(self.clone())
    }

    /// Forgets every value (`DISCARD ALL`).
    pub(super) fn clear(&self) {
        if let Ok(mut values) = self.values.lock() {
            *values = SessionState::default();
        }
    }

    fn record(&self, name: &str, value: i64, last: bool) {
        if let Ok(mut values) = self.values.lock() {
            values.current.insert(name.to_owned(), value);
            if last {
                values.last = Some(name.to_owned());
            }
        }
    }
}

/// What a connection's slot holds: the server's counters and the values of the
/// session that uses the connection now.
struct Slot {
    sequences: Arc<Sequences>,
    session: Mutex<Arc<SessionValues>>,
}

const SLOT: &CStr = c"litewire.sequences";

/// Gives a new connection its slot.
///
/// # Safety
/// `db` must be a valid connection, locked for the caller.
pub(super) unsafe fn install(
    db: *mut ffi::sqlite3,
    sequences: Arc<Sequences>,
) -> Result<(), String> {
    let slot = Box::new(Slot {
        sequences,
        session: Mutex::new(Arc::default()),
    });
    let raw = Box::into_raw(slot).cast::<c_void>();
    // SAFETY: `db` is valid (caller's contract); SQLite owns `raw` from here and
    // frees it with `release` when the connection closes.
    let rc = unsafe { ffi::sqlite3_set_clientdata(db, SLOT.as_ptr(), raw, Some(release)) };
    if rc != ffi::SQLITE_OK {
        // SAFETY: SQLite did not take `raw`, which came from `Box::into_raw`.
        drop(unsafe { Box::from_raw(raw.cast::<Slot>()) });
        return Err("could not attach the sequence state to a connection".to_owned());
    }
    Ok(())
}

unsafe extern "C" fn release(raw: *mut c_void) {
    if !raw.is_null() {
        // SAFETY: `raw` is the box `install` handed to SQLite, released once.
        drop(unsafe { Box::from_raw(raw.cast::<Slot>()) });
    }
}

/// The connection's slot, if it has one.
///
/// # Safety
/// `db` must be a valid connection; the slot lives as long as it does.
unsafe fn slot<'a>(db: *mut ffi::sqlite3) -> Option<&'a Slot> {
    // SAFETY: per the caller; the slot holds a `Slot` pointer or null.
    let raw = unsafe { ffi::sqlite3_get_clientdata(db, SLOT.as_ptr()) }.cast::<Slot>();
    // SAFETY: non-null pointers are the live box installed above.
    unsafe { raw.as_ref() }
}

/// Makes `session` the one whose values the connection's functions use.
///
/// # Safety
/// `db` must be a valid connection, locked for the caller.
pub(super) unsafe fn serve(db: *mut ffi::sqlite3, session: &Arc<SessionValues>) {
    // SAFETY: per the caller.
    if let Some(slot) = unsafe { slot(db) }
        && let Ok(mut current) = slot.session.lock()
        && !Arc::ptr_eq(&current, session)
    {
        *current = session.clone();
    }
}

/// A sequence's row.
struct Row {
    name: String,
    bounds: Bounds,
    last_value: i64,
    is_called: bool,
    token: i64,
}

/// One value of a row read back.
enum Cell {
    Int(i64),
    Text(String),
    Null,
}

impl Cell {
    fn int(&self) -> i64 {
        match self {
            Cell::Int(i) => *i,
            _ => 0,
        }
    }
}

enum Bind<'a> {
    Int(i64),
    Text(&'a str),
}

/// Why a statement inside a function failed: SQLite's primary code and message.
struct Failure {
    code: c_int,
    message: String,
}

/// Runs `sql` on `db` (inside the statement that called the function) and
/// returns its first row.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
unsafe fn first_row(
    db: *mut ffi::sqlite3,
    sql: &CStr,
    binds: &[Bind],
) -> Result<Option<Vec<Cell>>, Failure> {
    let failure = |db: *mut ffi::sqlite3, code: c_int| {
        // SAFETY: `db` is valid; the message is copied at once.
        let message = unsafe { CStr::from_ptr(ffi::sqlite3_errmsg(db)) }
            .to_string_lossy()
            .into_owned();
        Failure {
            code: code & 0xff,
            message,
        }
    };
    let mut stmt = std::ptr::null_mut();
    // SAFETY: `db` is valid; `sql` is NUL-terminated.
    let rc =
        unsafe { ffi::sqlite3_prepare_v2(db, sql.as_ptr(), -1, &mut stmt, std::ptr::null_mut()) };
    if rc != ffi::SQLITE_OK {
        return Err(failure(db, rc));
    }
    // SAFETY: `stmt` was prepared above and is finalized before returning;
    // text binds are copied by SQLite (SQLITE_TRANSIENT).
    unsafe {
        for (i, bind) in binds.iter().enumerate() {
            let index = i as c_int + 1;
            match bind {
                Bind::Int(v) => ffi::sqlite3_bind_int64(stmt, index, *v),
                Bind::Text(t) => ffi::sqlite3_bind_text64(
                    stmt,
                    index,
                    t.as_ptr().cast(),
                    t.len() as u64,
                    ffi::SQLITE_TRANSIENT(),
                    ffi::SQLITE_UTF8 as u8,
                ),
            };
        }
        let rc = ffi::sqlite3_step(stmt);
        let result = match rc {
            ffi::SQLITE_ROW => {
                let width = ffi::sqlite3_column_count(stmt);
                let row = (0..width)
                    .map(|i| match ffi::sqlite3_column_type(stmt, i) {
                        ffi::SQLITE_INTEGER => Cell::Int(ffi::sqlite3_column_int64(stmt, i)),
                        ffi::SQLITE_TEXT => {
                            let text = ffi::sqlite3_column_text(stmt, i);
                            if text.is_null() {
                                Cell::Null
                            } else {
                                Cell::Text(
                                    CStr::from_ptr(text.cast()).to_string_lossy().into_owned(),
                                )
                            }
                        }
                        _ => Cell::Null,
                    })
                    .collect();
                Ok(Some(row))
            }
            ffi::SQLITE_DONE => Ok(None),
            other => Err(failure(db, other)),
        };
        ffi::sqlite3_finalize(stmt);
        result
    }
}

fn not_found(name: &str) -> String {
    format!("relation \"{name}\" does not exist")
}

/// The sequence a function argument names: its text (`'s'`, `'public.s'`) or
/// its catalog oid.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
unsafe fn read_row(db: *mut ffi::sqlite3, arg: &Arg) -> Result<Row, String> {
    const BY_NAME: &CStr = c"SELECT name, increment, min_value, max_value, cycle, last_value, is_called, token FROM main.litewire_sequences WHERE name = ?1";
    const BY_OID: &CStr = c"SELECT name, increment, min_value, max_value, cycle, last_value, is_called, token FROM main.litewire_sequences WHERE oid = ?1";
    let (name, found) = match arg {
        Arg::Text(text) => {
            let name =
                relation_name(text).ok_or_else(|| format!("invalid name syntax: \"{text}\""))?;
            // SAFETY: per the caller.
            let found = unsafe { first_row(db, BY_NAME, &[Bind::Text(&name)]) };
            (name, found)
        }
        Arg::Int(oid) => {
            // SAFETY: per the caller.
            let found = unsafe { first_row(db, BY_OID, &[Bind::Int(oid - SEQUENCE_OID)]) };
            (oid.to_string(), found)
        }
        _ => return Err(format!("invalid name syntax: \"{}\"", arg_text(arg))),
    };
    match found {
        Ok(Some(cells)) => Ok(Row {
            name: match &cells[0] {
                Cell::Text(name) => name.clone(),
                _ => name,
            },
            bounds: Bounds {
                increment: cells[1].int(),
                min: cells[2].int(),
                max: cells[3].int(),
                cycle: cells[4].int() != 0,
            },
            last_value: cells[5].int(),
            is_called: cells[6].int() != 0,
            token: cells[7].int(),
        }),
        Ok(None) => Err(not_found(&name)),
        // No sequence was ever made in this file.
        Err(failure) if failure.message.contains("no such table") => Err(not_found(&name)),
        Err(failure) => Err(failure.message),
    }
}

fn arg_text(arg: &Arg) -> String {
    match arg {
        Arg::Int(i) => i.to_string(),
        Arg::Real(f) => f.to_string(),
        Arg::Text(t) => (*t).to_owned(),
        Arg::Blob(b) => String::from_utf8_lossy(b).into_owned(),
        Arg::Null => String::new(),
    }
}

/// Writes a sequence's state to its row, in the caller's transaction.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
unsafe fn write_row(
    db: *mut ffi::sqlite3,
    function: &str,
    row: &Row,
    counter: Counter,
) -> Result<(), String> {
    const UPDATE: &CStr = c"UPDATE main.litewire_sequences SET last_value = ?1, is_called = ?2 WHERE name = ?3 AND token = ?4";
    // SAFETY: per the caller.
    let written = unsafe {
        first_row(
            db,
            UPDATE,
            &[
                Bind::Int(counter.last_value),
                Bind::Int(i64::from(counter.is_called)),
                Bind::Text(&row.name),
                Bind::Int(row.token),
            ],
        )
    };
    written
        .map(drop)
        .map_err(|failure| write_failure(function, failure))
}

/// What a failed write of a sequence's row tells the client.
fn write_failure(function: &str, failure: Failure) -> String {
    match failure.code {
        ffi::SQLITE_AUTH | ffi::SQLITE_READONLY => {
            format!("cannot execute {function}() in a read-only transaction")
        }
        _ => failure.message,
    }
}

/// Runs a function body with the connection's slot, turning its error into
/// SQLite's.
fn with_slot(db: *mut ffi::sqlite3, body: impl FnOnce(&Slot) -> Result<Out, String>) -> Out {
    // SAFETY: SQLite passes the connection the function runs on, valid for the call.
    match unsafe { slot(db) } {
        Some(slot) => body(slot).unwrap_or_else(Out::Error),
        None => Out::Error("sequences are not available on this connection".into()),
    }
}

fn session(slot: &Slot) -> Arc<SessionValues> {
    slot.session.lock().map(|s| s.clone()).unwrap_or_default()
}

/// Refuses a call that would change a sequence while its session is only
/// describing a statement (the error is never seen: the inference ignores it).
fn changes_allowed(slot: &Slot) -> Result<(), String> {
    match session(slot).describing.load(Ordering::Acquire) {
        true => Err("sequences do not change while a statement is described".into()),
        false => Ok(()),
    }
}

/// `nextval(sequence)`.
pub(super) fn nextval(db: *mut ffi::sqlite3, args: &[Arg]) -> Out {
    if args[0] == Arg::Null {
        return Out::Null;
    }
    with_slot(db, |slot| {
        changes_allowed(slot)?;
        // SAFETY: `db` is the connection this function runs on.
        if let Some(next) = unsafe { advance_known(db, slot, &args[0]) }? {
            return Ok(Out::Int(next));
        }
        // SAFETY: as above.
        let row = unsafe { read_row(db, &args[0]) }?;
        let mut counters = slot
            .sequences
            .counters
            .lock()
            .map_err(|_| "the sequence counters are unavailable".to_owned())?;
        let current = match counters.get(&row.name) {
            Some(counter) if counter.token == row.token => *counter,
            _ => Counter {
                token: row.token,
                last_value: row.last_value,
                is_called: row.is_called,
                bounds: row.bounds,
            },
        };
        let next = if current.is_called {
            advance(&row.name, &row.bounds, current.last_value)?
        } else {
            current.last_value
        };
        let counter = Counter {
            token: row.token,
            last_value: next,
            is_called: true,
            bounds: row.bounds,
        };
        // Written while the counter is held: the row never goes back in time.
        // SAFETY: as above.
        unsafe { write_row(db, "nextval", &row, counter) }?;
        counters.insert(row.name.clone(), counter);
        drop(counters);
        session(slot).record(&row.name, next, true);
        Ok(Out::Int(next))
    })
}

/// `nextval` of a sequence whose counter this server has already advanced:
/// one statement writes the next value, provided the row still has the
/// counter's token and definition (no ALTER, DROP or RESTART since). `None`:
/// the row must be read first.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
unsafe fn advance_known(
    db: *mut ffi::sqlite3,
    slot: &Slot,
    arg: &Arg,
) -> Result<Option<i64>, String> {
    const UPDATE: &CStr = c"UPDATE main.litewire_sequences SET last_value = ?1, is_called = 1 WHERE name = ?2 AND token = ?3 AND increment = ?4 AND min_value = ?5 AND max_value = ?6 AND cycle = ?7";
    let Some(name) = (match arg {
        Arg::Text(text) => relation_name(text),
        _ => None,
    }) else {
        return Ok(None);
    };
    let Ok(mut counters) = slot.sequences.counters.lock() else {
        return Ok(None);
    };
    let Some(counter) = counters.get(&name).copied() else {
        return Ok(None);
    };
    let bounds = counter.bounds;
    let next = match counter.is_called {
        true => match advance(&name, &bounds, counter.last_value) {
            Ok(next) => next,
            // Reported after the row is read: its bounds may have changed.
            Err(_) => return Ok(None),
        },
        false => counter.last_value,
    };
    // SAFETY: per the caller.
    let written = unsafe {
        first_row(
            db,
            UPDATE,
            &[
                Bind::Int(next),
                Bind::Text(&name),
                Bind::Int(counter.token),
                Bind::Int(bounds.increment),
                Bind::Int(bounds.min),
                Bind::Int(bounds.max),
                Bind::Int(i64::from(bounds.cycle)),
            ],
        )
    };
    // SAFETY: per the caller; the count is the UPDATE's, which just ran.
    let changed = written.is_ok() && unsafe { ffi::sqlite3_changes64(db) } == 1;
    match written {
        Ok(_) if changed => {
            counters.insert(
                name.clone(),
                Counter {
                    last_value: next,
                    is_called: true,
                    ..counter
                },
            );
            drop(counters);
            session(slot).record(&name, next, true);
            Ok(Some(next))
        }
        Ok(_) => Ok(None),
        Err(failure) => Err(write_failure("nextval", failure)),
    }
}

/// The value after `last`, by the sequence's increment, bounds and CYCLE.
fn advance(name: &str, bounds: &Bounds, last: i64) -> Result<i64, String> {
    let next = last.checked_add(bounds.increment);
    match next {
        Some(next) if next >= bounds.min && next <= bounds.max => Ok(next),
        _ if bounds.cycle => Ok(if bounds.increment > 0 {
            bounds.min
        } else {
            bounds.max
        }),
        _ if bounds.increment > 0 => Err(format!(
            "nextval: reached maximum value of sequence \"{name}\" ({})",
            bounds.max
        )),
        _ => Err(format!(
            "nextval: reached minimum value of sequence \"{name}\" ({})",
            bounds.min
        )),
    }
}

/// `currval(sequence)`: the value `nextval` last returned in this session.
pub(super) fn currval(db: *mut ffi::sqlite3, args: &[Arg]) -> Out {
    if args[0] == Arg::Null {
        return Out::Null;
    }
    with_slot(db, |slot| {
        // SAFETY: `db` is the connection this function runs on.
        let row = unsafe { read_row(db, &args[0]) }?;
        let session = session(slot);
        let values = session
            .values
            .lock()
            .map_err(|_| "the session's sequence values are unavailable".to_owned())?;
        match values.current.get(&row.name) {
            Some(value) => Ok(Out::Int(*value)),
            None => Err(format!(
                "currval of sequence \"{}\" is not yet defined in this session",
                row.name
            )),
        }
    })
}

/// `lastval()`: the value `nextval` last returned in this session, of any sequence.
pub(super) fn lastval(db: *mut ffi::sqlite3, _args: &[Arg]) -> Out {
    with_slot(db, |slot| {
        let session = session(slot);
        let (name, value) = {
            let values = session
                .values
                .lock()
                .map_err(|_| "the session's sequence values are unavailable".to_owned())?;
            let name = values.last.clone();
            let value = name.as_ref().and_then(|n| values.current.get(n).copied());
            (name, value)
        };
        let undefined = || "lastval is not yet defined in this session".to_owned();
        let (Some(name), Some(value)) = (name, value) else {
            return Err(undefined());
        };
        // A dropped sequence has no last value any more.
        // SAFETY: `db` is the connection this function runs on.
        match unsafe { read_row(db, &Arg::Text(&identifier_as_postgres(&name))) } {
            Ok(_) => Ok(Out::Int(value)),
            _ => Err(undefined()),
        }
    })
}

/// `setval(sequence, value [, is_called])`.
pub(super) fn setval(db: *mut ffi::sqlite3, args: &[Arg]) -> Out {
    if args.contains(&Arg::Null) {
        return Out::Null;
    }
    with_slot(db, |slot| {
        changes_allowed(slot)?;
        let value = match &args[1] {
            Arg::Int(v) => *v,
            Arg::Text(t) => t
                .trim()
                .parse()
                .map_err(|_| format!("invalid input syntax for type bigint: \"{t}\""))?,
            Arg::Real(f) if f.fract() == 0.0 => *f as i64,
            other => {
                return Err(format!(
                    "invalid input syntax for type bigint: \"{}\"",
                    arg_text(other)
                ));
            }
        };
        let is_called = match args.get(2) {
            None => true,
            Some(Arg::Int(i)) => *i != 0,
            Some(Arg::Text(t)) => crate::sql::quote::parse_bool(t)
                .ok_or_else(|| format!("invalid input syntax for type boolean: \"{t}\""))?,
            Some(other) => {
                return Err(format!(
                    "invalid input syntax for type boolean: \"{}\"",
                    arg_text(other)
                ));
            }
        };
        // SAFETY: `db` is the connection this function runs on.
        let row = unsafe { read_row(db, &args[0]) }?;
        if value < row.bounds.min || value > row.bounds.max {
            return Err(format!(
                "setval: value {value} is out of bounds for sequence \"{}\" ({}..{})",
                row.name, row.bounds.min, row.bounds.max
            ));
        }
        let counter = Counter {
            token: row.token,
            last_value: value,
            is_called,
            bounds: row.bounds,
        };
        let mut counters = slot
            .sequences
            .counters
            .lock()
            .map_err(|_| "the sequence counters are unavailable".to_owned())?;
        // SAFETY: as above.
        unsafe { write_row(db, "setval", &row, counter) }?;
        counters.insert(row.name.clone(), counter);
        drop(counters);
        if is_called {
            session(slot).record(&row.name, value, false);
        }
        Ok(Out::Int(value))
    })
}

/// `pg_get_serial_sequence(table, column)`: the sequence a `serial` or identity
/// column owns, schema-qualified, or NULL.
pub(super) fn serial_sequence(db: *mut ffi::sqlite3, args: &[Arg]) -> Out {
    const TABLE: &CStr = c"SELECT 1 FROM main.sqlite_schema WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE";
    const OWNED: &CStr = c"SELECT name FROM main.litewire_sequences WHERE owned_table = ?1 COLLATE NOCASE AND owned_column = ?2";
    let (Arg::Text(table), Arg::Text(column)) = (&args[0], &args[1]) else {
        return Out::Null;
    };
    let Some(table) = relation_name(table) else {
        return Out::Error(format!("invalid name syntax: \"{table}\""));
    };
    // SAFETY: `db` is the connection this function runs on.
    match unsafe { first_row(db, TABLE, &[Bind::Text(&table)]) } {
        Ok(Some(_)) => {}
        Ok(None) => return Out::Error(not_found(&table)),
        Err(failure) => return Out::Error(failure.message),
    }
    // SAFETY: as above.
    match unsafe { first_row(db, OWNED, &[Bind::Text(&table), Bind::Text(column)]) } {
        Ok(Some(cells)) => match &cells[0] {
            Cell::Text(name) => Out::Text(format!("public.{}", identifier_as_postgres(name))),
            _ => Out::Null,
        },
        // No table of sequences: no sequence at all.
        Ok(None) | Err(_) => Out::Null,
    }
}

/// `litewire_error(message)`: fails with `message` (sequence DDL's checks).
pub(super) fn raise(_db: *mut ffi::sqlite3, args: &[Arg]) -> Out {
    Out::Error(arg_text(&args[0]))
}

/// For the catalog: the SQL that fills the sequence relations (`pg_class` rows of
/// kind `S`, `pg_sequence`, identity columns in `pg_attribute`) from the table of
/// sequences. Sequences whose owning table is gone are left out.
pub(super) fn catalog_rows() -> String {
    let visible = "(s.owned_table IS NULL OR EXISTS (SELECT 1 FROM main.sqlite_schema m \
                   WHERE m.type = 'table' AND m.name = s.owned_table COLLATE NOCASE))";
    format!(
        "DELETE FROM temp.pg_class WHERE relkind = 'S';\n\
         DELETE FROM temp.pg_sequence;\n\
         INSERT INTO temp.pg_class SELECT {SEQUENCE_OID} + s.oid, s.name, 2200, 0, 0, 10, 0, {SEQUENCE_OID} + s.oid, 0, 1, -1, 0, 0, \
         false, false, 'p', 'S', 3, 0, false, false, false, false, false, true, 'n', false, 0, NULL, NULL, NULL \
         FROM main.litewire_sequences s WHERE {visible};\n\
         INSERT INTO temp.pg_sequence SELECT {SEQUENCE_OID} + s.oid, CASE s.type WHEN 'smallint' THEN 21 WHEN 'integer' THEN 23 ELSE 20 END, \
         s.start_value, s.increment, s.max_value, s.min_value, 1, s.cycle FROM main.litewire_sequences s WHERE {visible};\n\
         UPDATE temp.pg_attribute SET attidentity = s.identity FROM main.litewire_sequences s \
         JOIN temp.pg_class c ON c.relname = s.owned_table COLLATE NOCASE AND c.relkind = 'r' \
         WHERE s.identity IS NOT NULL AND pg_attribute.attrelid = c.oid AND pg_attribute.attname = s.owned_column;\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(increment: i64, min: i64, max: i64, cycle: bool) -> Bounds {
        Bounds {
            increment,
            min,
            max,
            cycle,
        }
    }

    #[test]
    fn advance_stops_or_cycles_at_the_bounds() {
        assert_eq!(advance("s", &bounds(1, 1, 3, false), 2), Ok(3));
        assert!(
            advance("s", &bounds(1, 1, 3, false), 3)
                .unwrap_err()
                .contains("reached maximum value of sequence \"s\" (3)")
        );
        assert_eq!(advance("s", &bounds(1, 1, 3, true), 3), Ok(1));
        assert_eq!(advance("s", &bounds(-2, -5, -1, true), -5), Ok(-1));
        assert!(
            advance("s", &bounds(-1, 1, 9, false), 1)
                .unwrap_err()
                .contains("minimum")
        );
        assert!(advance("s", &bounds(1, 1, i64::MAX, false), i64::MAX).is_err());
    }
}
