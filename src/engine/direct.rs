//! Statements run on the session's own task, through SQLite's C API, on the
//! connection SQLx hands us.
//!
//! SQLx's SQLite driver runs each connection on a thread of its own: every query
//! is a command sent to that thread and rows and completion sent back, several
//! cross-thread hand-offs that cost about 150 µs per statement on a small machine,
//! 40 times what SQLite itself needs for a point SELECT. SQLx also offers
//! [`SqliteConnection::lock_handle`], which locks the connection for the caller and
//! exposes its `sqlite3*`. A session takes that lock once ([`HeldHandle`]) and keeps
//! it while it runs statements: prepare (cached per connection), bind, step and
//! read rows right here. It lets go only when SQLx itself must use the connection
//! (Describe's type inference, scripts, the catalog) or gets it back. SQLx still
//! opens, configures, pools, checks and closes the connections.
//!
//! Taking the lock again right after letting it go can hang in SQLx 0.9: its
//! connection thread has to take the lock back first (`tests/sqlx_lock_handle.rs`
//! shows it). A ping, answered only once that thread runs again, is sent before
//! every new lock on a connection whose lock was let go.
//!
//! A statement blocks the calling runtime worker while SQLite runs it, as a
//! PostgreSQL backend is busy while it runs a query; one that runs long hands the
//! worker's other tasks to a fresh thread (see `control`), except on
//! `--thread-per-core` runtimes (see `workers`).
//!
//! With the shared cache, a table another connection has locked makes SQLite
//! answer `SQLITE_LOCKED_SHAREDCACHE`; the statement then waits, asynchronously,
//! for `sqlite3_unlock_notify` to say that the other transaction ended, and runs
//! again. Like a PostgreSQL lock wait, it waits as long as the lock is held, unless
//! the statement is canceled or times out; SQLite refuses the wait (an error) where
//! it would deadlock.

use std::collections::HashMap;
use std::ffi::{CStr, c_int, c_void};
use std::ptr::NonNull;
use std::sync::Arc;

use libsqlite3_sys as ffi;
use tokio::sync::oneshot;

use super::connection::HeldHandle;
use super::control::{Running, StatementControl};
use super::result::{Column, QueryResult};
use super::value::{StorageClass, Value};
use crate::error::{Error, ErrorKind};
use crate::sql::CommandKind;

/// A prepared statement, finalized when dropped.
struct Prepared(NonNull<ffi::sqlite3_stmt>);

// SAFETY: SQLite is built thread-safe (serialized); a statement is only used while
// its connection is locked for the user, from one task at a time.
unsafe impl Send for Prepared {}
// SAFETY: nothing reads or runs a statement through a shared reference: it is
// only used through `&mut Statements`.
unsafe impl Sync for Prepared {}

impl Drop for Prepared {
    fn drop(&mut self) {
        // SAFETY: the statement was prepared by us and is finalized exactly once.
        unsafe { ffi::sqlite3_finalize(self.0.as_ptr()) };
    }
}

/// Prepared statements of one connection, by SQL. They must be finalized before
/// the connection closes, so the session drops this before its connection.
///
/// Statements with parameters are prepared once and run many times: they get the
/// configured capacity. Literal SQL (simple queries, HTTP) gets a small cache of
/// its own: an app's repeated queries hit it, one-off literals (pgbench's simple
/// mode) only churn it, without evicting the prepared ones.
#[derive(Default)]
pub(super) struct Statements {
    prepared: Cache,
    literals: Cache,
}

impl Statements {
    pub(super) fn new(capacity: usize) -> Self {
        Statements {
            prepared: Cache::new(capacity),
            literals: Cache::new(LITERAL_CAPACITY),
        }
    }
}

const LITERAL_CAPACITY: usize = 16;

#[derive(Default)]
struct Cache {
    map: HashMap<Arc<str>, Prepared>,
    capacity: usize,
}

impl Cache {
    fn new(capacity: usize) -> Self {
        Cache {
            map: HashMap::new(),
            capacity,
        }
    }

    /// Keeps a prepared statement, making room when the cache is full.
    fn insert(&mut self, sql: Arc<str>, prepared: Prepared) {
        if self.map.len() >= self.capacity.max(1)
            && let Some(evicted) = self.map.keys().next().cloned()
        {
            self.map.remove(&evicted);
        }
        self.map.insert(sql, prepared);
    }
}

/// What one attempt at running a statement came to.
enum Attempt {
    Done(QueryResult),
    /// Another connection holds a shared-cache lock; run again once notified.
    Locked(oneshot::Receiver<()>),
}

/// One statement to run: its SQL, the values bound to `?1..?N`, and what the
/// result should say.
#[derive(Debug, Clone, Copy)]
pub(super) struct Query<'a> {
    pub sql: &'a str,
    pub params: &'a [Value],
    pub kind: CommandKind,
    pub returns_rows: bool,
    /// Whether the statement takes parameters (which statement cache keeps it).
    pub parameters: bool,
}

/// Runs `query` and collects its whole result. With a `control`, the statement
/// stops (SQLITE_INTERRUPT) when the control says so, and so does a wait for a
/// shared-cache lock.
pub(super) async fn run(
    handle: &mut HeldHandle,
    statements: &mut Statements,
    query: Query<'_>,
    control: Option<&StatementControl>,
) -> Result<QueryResult, Error> {
    loop {
        let db = handle.db();
        let attempted = {
            let _running = control.map(Running::new);
            // SAFETY: the handle is locked for this session.
            unsafe { attempt(db, statements, query)? }
        };
        match (attempted, control) {
            (Attempt::Done(result), _) => return Ok(result),
            // A dropped sender (the other connection closed) also means go on.
            (Attempt::Locked(unlocked), None) => drop(unlocked.await),
            // Stopped while waiting: when the other transaction ends, SQLite's
            // callback finds the receiver gone.
            (Attempt::Locked(unlocked), Some(control)) => tokio::select! {
                _ = unlocked => {}
                reason = control.stopped() => return Err(reason.error()),
            },
        }
    }
}

/// Runs statements that take no parameters and return nothing (`BEGIN`,
/// `COMMIT`, `SAVEPOINT x`, ...).
pub(super) async fn execute(
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
    run(handle, statements, query, None).await.map(drop)
}

/// The result columns `sql` would produce, without running it: names and the
/// declared types of the table columns they come from.
pub(super) async fn describe(
    handle: &mut HeldHandle,
    statements: &mut Statements,
    sql: &str,
    parameters: bool,
) -> Result<Vec<Column>, Error> {
    loop {
        let db = handle.db();
        // SAFETY: the handle is locked for this session.
        match unsafe {
            with_statement(db, statements, sql, parameters, |stmt| Ok(described(stmt)))?
        } {
            Ok(columns) => return Ok(columns),
            Err(unlocked) => drop(unlocked.await),
        }
    }
}

/// # Safety
/// `stmt` must be a valid statement, locked for the caller.
unsafe fn described(stmt: *mut ffi::sqlite3_stmt) -> Vec<Column> {
    // SAFETY: per the caller.
    unsafe { columns(stmt, ffi::sqlite3_column_count(stmt), &[]) }
}

/// Runs `body` on the prepared statement for `sql` (cached, or prepared now and
/// cached), then resets it. `Err` of the inner result: a shared-cache lock to
/// wait for.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
unsafe fn with_statement<T>(
    db: *mut ffi::sqlite3,
    statements: &mut Statements,
    sql: &str,
    parameters: bool,
    body: impl FnOnce(*mut ffi::sqlite3_stmt) -> Result<T, Error>,
) -> Result<Result<T, oneshot::Receiver<()>>, Error> {
    let cache = if parameters {
        &mut statements.prepared
    } else {
        &mut statements.literals
    };
    if !cache.map.contains_key(sql) {
        // SAFETY: per the caller.
        match unsafe { prepare_or_wait(db, sql, parameters)? } {
            Ok(prepared) => cache.insert(Arc::from(sql), prepared),
            Err(unlocked) => return Ok(Err(unlocked)),
        }
    }
    let Some(stmt) = cache.map.get(sql).map(|p| p.0.as_ptr()) else {
        return Err(Error::new(ErrorKind::Internal, "statement cache"));
    };
    let outcome = body(stmt);
    // SAFETY: `stmt` belongs to `db`, locked for us; a reset statement holds no
    // locks and can run again.
    unsafe {
        ffi::sqlite3_reset(stmt);
        ffi::sqlite3_clear_bindings(stmt);
    }
    outcome.map(Ok)
}

/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
unsafe fn attempt(
    db: *mut ffi::sqlite3,
    statements: &mut Statements,
    query: Query<'_>,
) -> Result<Attempt, Error> {
    // SAFETY: per the caller; the statement belongs to `db`.
    let outcome = unsafe {
        with_statement(db, statements, query.sql, query.parameters, |stmt| {
            bind_and_step(db, stmt, query.params, query.kind, query.returns_rows)
        })?
    };
    match outcome {
        Ok(attempt) => Ok(attempt),
        Err(unlocked) => Ok(Attempt::Locked(unlocked)),
    }
}

/// Prepares `sql`, or, when a shared-cache lock is in the way, says when to try
/// again.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
unsafe fn prepare_or_wait(
    db: *mut ffi::sqlite3,
    sql: &str,
    persistent: bool,
) -> Result<Result<Prepared, oneshot::Receiver<()>>, Error> {
    // SAFETY: per the caller.
    match unsafe { prepare(db, sql, persistent) } {
        Err(e) if e.sqlite_code() == Some(SQLITE_LOCKED_SHAREDCACHE) => {
            // SAFETY: per the caller.
            unsafe { register_unlock_notify(db, ffi::SQLITE_LOCKED) }.map(Err)
        }
        other => other.map(Ok),
    }
}

/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
unsafe fn prepare(db: *mut ffi::sqlite3, sql: &str, persistent: bool) -> Result<Prepared, Error> {
    let flags = if persistent {
        ffi::SQLITE_PREPARE_PERSISTENT
    } else {
        0
    };
    let mut stmt = std::ptr::null_mut();
    let mut tail = std::ptr::null();
    let len = c_int::try_from(sql.len())
        .map_err(|_| Error::new(ErrorKind::InvalidRequest, "statement too long"))?;
    // SAFETY: `sql` outlives the call; SQLite copies what it keeps.
    let rc = unsafe {
        ffi::sqlite3_prepare_v3(db, sql.as_ptr().cast(), len, flags, &mut stmt, &mut tail)
    };
    if rc != ffi::SQLITE_OK {
        // SAFETY: per the caller.
        return Err(unsafe { error(db, rc) });
    }
    match NonNull::new(stmt) {
        Some(stmt) => Ok(Prepared(stmt)),
        // Only comments or whitespace: SQLite prepares nothing.
        None => Err(Error::new(ErrorKind::Syntax, "empty statement")),
    }
}

/// # Safety
/// `stmt` must be a statement of `db`, which is locked for the caller.
unsafe fn bind_and_step(
    db: *mut ffi::sqlite3,
    stmt: *mut ffi::sqlite3_stmt,
    params: &[Value],
    kind: CommandKind,
    returns_rows: bool,
) -> Result<Attempt, Error> {
    for (i, value) in params.iter().enumerate() {
        let index = c_int::try_from(i + 1).unwrap_or(c_int::MAX);
        // SAFETY: per the caller; text and blobs are copied (SQLITE_TRANSIENT).
        let rc = unsafe { bind(stmt, index, value) };
        if rc != ffi::SQLITE_OK {
            // SAFETY: per the caller.
            return Err(unsafe { error(db, rc) });
        }
    }
    let mut result = QueryResult::empty(kind);
    // SAFETY: per the caller.
    let width = unsafe { ffi::sqlite3_column_count(stmt) };
    loop {
        // SAFETY: per the caller.
        match unsafe { ffi::sqlite3_step(stmt) } {
            ffi::SQLITE_ROW => {
                // SAFETY: a row is current.
                result.rows.push(unsafe { read_row(stmt, width) });
            }
            ffi::SQLITE_DONE => break,
            rc => {
                // SAFETY: per the caller.
                let code = unsafe { ffi::sqlite3_extended_errcode(db) };
                if code == SQLITE_LOCKED_SHAREDCACHE {
                    // SAFETY: per the caller.
                    return unsafe { register_unlock_notify(db, rc) }.map(Attempt::Locked);
                }
                // SAFETY: per the caller.
                return Err(unsafe { error(db, rc) });
            }
        }
    }
    if returns_rows && width > 0 {
        result.rows_affected = result.rows.len() as u64;
        // SAFETY: per the caller.
        result.columns = Arc::new(unsafe { columns(stmt, width, &result.rows) });
    } else {
        // SAFETY: per the caller.
        unsafe {
            result.rows_affected = u64::try_from(ffi::sqlite3_changes64(db)).unwrap_or(0);
            result.last_insert_rowid = Some(ffi::sqlite3_last_insert_rowid(db));
        }
    }
    Ok(Attempt::Done(result))
}

const SQLITE_LOCKED_SHAREDCACHE: c_int = ffi::SQLITE_LOCKED | (1 << 8);

/// Asks SQLite to say when the connection holding the lock we ran into is done.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
unsafe fn register_unlock_notify(
    db: *mut ffi::sqlite3,
    rc: c_int,
) -> Result<oneshot::Receiver<()>, Error> {
    let (tx, rx) = oneshot::channel::<()>();
    let arg = Box::into_raw(Box::new(tx)).cast::<c_void>();
    // SAFETY: per the caller; SQLite calls `unlocked` once with `arg` (maybe right
    // away), which takes the box back.
    let registered = unsafe { ffi::sqlite3_unlock_notify(db, Some(unlocked), arg) };
    if registered != ffi::SQLITE_OK {
        // A deadlock: SQLite will never call back, so the box is ours again.
        // SAFETY: `arg` came from Box::into_raw above and was not handed out.
        drop(unsafe { Box::from_raw(arg.cast::<oneshot::Sender<()>>()) });
        // SAFETY: per the caller.
        return Err(unsafe { error(db, rc) });
    }
    Ok(rx)
}

unsafe extern "C" fn unlocked(args: *mut *mut c_void, count: c_int) {
    for i in 0..usize::try_from(count).unwrap_or(0) {
        // SAFETY: SQLite passes back the `count` pointers registered above, each
        // a boxed sender, each exactly once.
        let sender = unsafe { Box::from_raw((*args.add(i)).cast::<oneshot::Sender<()>>()) };
        let _ = sender.send(());
    }
}

/// # Safety
/// `stmt` must be a valid statement, locked for the caller.
unsafe fn bind(stmt: *mut ffi::sqlite3_stmt, index: c_int, value: &Value) -> c_int {
    // SAFETY: per the caller.
    unsafe {
        match value {
            Value::Null => ffi::sqlite3_bind_null(stmt, index),
            Value::Integer(i) => ffi::sqlite3_bind_int64(stmt, index, *i),
            Value::Real(f) => ffi::sqlite3_bind_double(stmt, index, *f),
            Value::Text(s) => ffi::sqlite3_bind_text64(
                stmt,
                index,
                s.as_ptr().cast(),
                s.len() as u64,
                ffi::SQLITE_TRANSIENT(),
                ffi::SQLITE_UTF8 as u8,
            ),
            Value::Blob(b) => ffi::sqlite3_bind_blob64(
                stmt,
                index,
                b.as_ptr().cast(),
                b.len() as u64,
                ffi::SQLITE_TRANSIENT(),
            ),
        }
    }
}

/// # Safety
/// A row of `stmt` must be current.
unsafe fn read_row(stmt: *mut ffi::sqlite3_stmt, width: c_int) -> Vec<Value> {
    // SAFETY: per the caller; pointers are read before the next step.
    (0..width).map(|i| unsafe { read_value(stmt, i) }).collect()
}

/// # Safety
/// A row of `stmt` must be current and `i` one of its columns.
unsafe fn read_value(stmt: *mut ffi::sqlite3_stmt, i: c_int) -> Value {
    // SAFETY: per the caller; text and blob pointers stay valid until the next
    // step or column call, and are copied at once.
    unsafe {
        match ffi::sqlite3_column_type(stmt, i) {
            ffi::SQLITE_INTEGER => Value::Integer(ffi::sqlite3_column_int64(stmt, i)),
            ffi::SQLITE_FLOAT => Value::Real(ffi::sqlite3_column_double(stmt, i)),
            ffi::SQLITE_TEXT => {
                let ptr = ffi::sqlite3_column_text(stmt, i);
                let len = usize::try_from(ffi::sqlite3_column_bytes(stmt, i)).unwrap_or(0);
                let bytes = if ptr.is_null() {
                    &[][..]
                } else {
                    std::slice::from_raw_parts(ptr, len)
                };
                // SQLite does not check that TEXT is UTF-8; show what is there.
                Value::Text(String::from_utf8_lossy(bytes).into_owned())
            }
            ffi::SQLITE_BLOB => {
                let ptr = ffi::sqlite3_column_blob(stmt, i).cast::<u8>();
                let len = usize::try_from(ffi::sqlite3_column_bytes(stmt, i)).unwrap_or(0);
                if ptr.is_null() {
                    Value::Blob(Vec::new())
                } else {
                    Value::Blob(std::slice::from_raw_parts(ptr, len).to_vec())
                }
            }
            _ => Value::Null,
        }
    }
}

/// Result columns: names, the declared type of the table column each comes from,
/// and for expressions the storage class of their first non-NULL value.
///
/// # Safety
/// `stmt` must be a valid statement, locked for the caller.
unsafe fn columns(stmt: *mut ffi::sqlite3_stmt, width: c_int, rows: &[Vec<Value>]) -> Vec<Column> {
    (0..width)
        .map(|i| {
            // SAFETY: per the caller; the strings are copied at once.
            let (name, decltype) = unsafe {
                (
                    text(ffi::sqlite3_column_name(stmt, i)).unwrap_or_default(),
                    text(ffi::sqlite3_column_decltype(stmt, i)),
                )
            };
            let storage = rows
                .iter()
                .filter_map(|row| row.get(usize::try_from(i).unwrap_or(0)))
                .map(Value::storage_class)
                .find(|class| *class != StorageClass::Null);
            Column {
                name,
                decltype: decltype.filter(|d| !d.is_empty()).map(Arc::from),
                storage,
            }
        })
        .collect()
}

/// # Safety
/// `ptr` must be null or a NUL-terminated string valid for the call.
unsafe fn text(ptr: *const std::ffi::c_char) -> Option<String> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: per the caller.
    Some(
        unsafe { CStr::from_ptr(ptr) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// The connection's current error, with SQLite's extended code.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
unsafe fn error(db: *mut ffi::sqlite3, rc: c_int) -> Error {
    // SAFETY: per the caller.
    let (code, message) = unsafe {
        let code = ffi::sqlite3_extended_errcode(db);
        let message = text(ffi::sqlite3_errmsg(db)).unwrap_or_default();
        (if code == ffi::SQLITE_OK { rc } else { code }, message)
    };
    Error::new(ErrorKind::Sqlite { code }, message)
}
