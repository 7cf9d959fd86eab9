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
//! PostgreSQL backend is busy while it runs a query; the runtime has a worker per
//! core, and other connections move to the others (unless `--thread-per-core`
//! keeps them on this one, see `workers`). With the shared cache, a table another connection has locked makes
//! SQLite answer `SQLITE_LOCKED_SHAREDCACHE`; the statement then waits,
//! asynchronously, for `sqlite3_unlock_notify` to say that the other transaction
//! ended, and runs again. Like a PostgreSQL lock wait without `lock_timeout`, it
//! waits as long as the lock is held; SQLite refuses the wait (an error) where it
//! would deadlock.

use std::collections::HashMap;
use std::ffi::{CStr, c_int, c_void};
use std::ptr::NonNull;
use std::sync::Arc;

use libsqlite3_sys as ffi;
use tokio::sync::oneshot;

use super::connection::HeldHandle;
use super::control::{self, StatementControl};
use super::result::{Column, Completion, Discard, LOOKAHEAD_ROWS, ResultSink};
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

/// Looked up before every statement: a fast hash (randomly seeded per process)
/// rather than SipHash, which cost more than the rest of the lookup.
#[derive(Default)]
struct Cache {
    map: HashMap<Arc<str>, Prepared, foldhash::fast::RandomState>,
    capacity: usize,
}

impl Cache {
    fn new(capacity: usize) -> Self {
        Cache {
            map: HashMap::default(),
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

/// Runs `query`, handing its rows to `sink` as SQLite produces them. With a
/// `control`, the statement stops (SQLITE_INTERRUPT) when the control says so, and
/// so does a wait for a shared-cache lock.
pub(super) async fn run<S: ResultSink>(
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

/// Waits for another connection's shared-cache lock to go, or for `control` to
/// stop the statement (when the other transaction ends, SQLite's callback finds
/// the receiver gone). A dropped sender (the other connection closed) also means
/// go on.
async fn wait_unlocked(
    unlocked: oneshot::Receiver<()>,
    control: Option<&StatementControl>,
) -> Result<(), Error> {
    match control {
        None => drop(unlocked.await),
        Some(control) => tokio::select! {
            _ = unlocked => {}
            reason = control.stopped() => return Err(reason.error()),
        },
    }
    Ok(())
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
    run(handle, statements, query, None, &mut Discard).await
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
unsafe fn described(stmt: *mut ffi::sqlite3_stmt) -> Vec<Column> {
    // SAFETY: per the caller.
    unsafe { columns(stmt, ffi::sqlite3_column_count(stmt), &[]) }
}

/// The prepared statement for `sql`: cached, or prepared now and cached. `Err` of
/// the inner result: a shared-cache lock to wait for.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
unsafe fn cached_statement(
    db: *mut ffi::sqlite3,
    statements: &mut Statements,
    sql: &str,
    parameters: bool,
) -> Result<Result<Cached, oneshot::Receiver<()>>, Error> {
    let cache = if parameters {
        &mut statements.prepared
    } else {
        &mut statements.literals
    };
    if let Some(prepared) = cache.map.get(sql) {
        return Ok(Ok(Cached(prepared.0)));
    }
    // SAFETY: per the caller.
    match unsafe { prepare_or_wait(db, sql, parameters)? } {
        Ok(prepared) => {
            let cached = Cached(prepared.0);
            cache.insert(Arc::from(sql), prepared);
            Ok(Ok(cached))
        }
        Err(unlocked) => Ok(Err(unlocked)),
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

/// A cached statement, as found for one run: its pointer, which stays valid while
/// the statement stays in the cache (nothing else uses the cache meanwhile).
#[derive(Clone, Copy)]
struct Cached(NonNull<ffi::sqlite3_stmt>);

// SAFETY: SQLite is built thread-safe (serialized); the statement is only used by
// the session that holds its connection's lock.
unsafe impl Send for Cached {}

/// The rows a statement produced so far: those read ahead to type the columns,
/// whether the columns went to the sink, and how many rows there were.
#[derive(Default)]
struct Produced {
    ahead: Vec<Vec<Value>>,
    announced: bool,
    count: u64,
}

/// Why stepping paused.
enum Paused {
    Flush,
    Done,
    Locked(oneshot::Receiver<()>),
}

/// What running a statement came to.
enum Streamed {
    Done,
    /// Another connection holds a shared-cache lock, and no row has reached the
    /// sink yet: run again once notified.
    Locked(oneshot::Receiver<()>),
}

/// A statement being stepped. It is reset when this is dropped, however the run
/// ends (finished, failed, or abandoned by a client that went away while the
/// statement was paused between rows), so a cached statement never keeps a read
/// transaction open.
struct Running<'h> {
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
        let width = unsafe { ffi::sqlite3_column_count(stmt) };
        let returns_rows = query.returns_rows && width > 0;
        let mut rows = Produced::default();
        loop {
            // The control watches SQLite only while it steps on this thread: the
            // task may move to another thread while the sink flushes.
            let paused = {
                let _watch = control.map(control::Running::new);
                self.step_until_pause(returns_rows, width, &mut rows, sink)?
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
                let columns = self.columns(width, &ahead);
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
        width: c_int,
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
                        let columns = self.columns(width, &rows.ahead);
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
        for (i, value) in params.iter().enumerate() {
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
                Err(unsafe { error(db, rc) })
            }
        }
    }

    fn columns(&self, width: c_int, rows: &[Vec<Value>]) -> Vec<Column> {
        // SAFETY: a statement of the locked handle.
        unsafe { columns(self.stmt.as_ptr(), width, rows) }
    }
}

/// Announces the columns, typed by the rows read ahead, then hands those rows on.
fn announce<S: ResultSink>(
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

enum Step {
    Row(Vec<Value>),
    Done,
    Locked(oneshot::Receiver<()>),
}

/// Whether every column has a type: a declared one, or its first value's.
fn all_typed(columns: &[Column]) -> bool {
    columns
        .iter()
        .all(|c| c.decltype.is_some() || c.storage.is_some())
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

/// A statement left open between fetches (a PostgreSQL portal run with a row
/// limit): its own prepared statement, stepped a batch of rows at a time, so a
/// result of any size is never held whole. Finalized when dropped, which the
/// session does before its connection goes anywhere.
pub(super) struct Cursor {
    stmt: Prepared,
    kind: CommandKind,
    columns: Option<Arc<Vec<Column>>>,
    /// Rows read ahead to type the columns, not fetched yet.
    ahead: std::collections::VecDeque<Vec<Value>>,
    done: bool,
}

impl Cursor {
    /// Prepares and binds `query` on `handle`'s connection.
    pub(super) fn open(handle: &mut HeldHandle, query: Query<'_>) -> Result<Cursor, Error> {
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
            ahead: std::collections::VecDeque::new(),
            done: false,
        })
    }

    /// Hands up to `max_rows` more rows to `sink` (columns first), then finishes
    /// the statement if no row is left. Returns whether rows are left.
    pub(super) async fn fetch<S: ResultSink>(
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
                            return Err(unsafe { error(db, rc) });
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
