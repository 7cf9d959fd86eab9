//! Prepared statements of one connection, cached by their SQL, and preparing
//! one (or learning, with the shared cache, that a table lock is in the way).

use std::collections::HashMap;
use std::ffi::c_int;
use std::ptr::NonNull;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use libsqlite3_sys as ffi;
use tokio::sync::oneshot;

use super::lock_wait::{SQLITE_LOCKED_SHAREDCACHE, register_unlock_notify};
use super::values::error;
use crate::error::{Error, ErrorKind};

/// A prepared statement, finalized when dropped.
pub(super) struct Prepared(pub(super) NonNull<ffi::sqlite3_stmt>);

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
///
/// Both are emptied when the schema changes. SQLite prepares a statement again
/// on its own only where the statement checks the schema's version, which it
/// does when it opens a table: one that opens none (`count(*)` of a view of
/// constants joined by `UNION ALL`, which SQLite counts branch by branch) would
/// go on answering from the view it was prepared against, and so would one
/// prepared from the connection's copy of the schema before another
/// connection changed it.
#[derive(Default)]
pub(in crate::engine) struct Statements {
    prepared: Cache,
    literals: Cache,
    /// The schema's generation, as the engine counts it (it moves on after
    /// every statement that may change the schema, see `declared_types`).
    schema: Arc<AtomicU64>,
    /// The generation the statements kept were prepared at; `None` until
    /// the first: the connection, from the pool, may hold an old copy of the
    /// schema.
    prepared_at: Option<u64>,
}

impl Statements {
    pub(in crate::engine) fn new(capacity: usize, schema: Arc<AtomicU64>) -> Self {
        Statements {
            prepared: Cache::new(capacity),
            literals: Cache::new(LITERAL_CAPACITY),
            prepared_at: None,
            schema,
        }
    }

    /// The cache of statements with or without parameters, both emptied
    /// first if the schema moved on since they were prepared. The
    /// connection's own copy of the schema is then read again too, as SQLite
    /// reads it when a statement that opens a table finds it out of date: a
    /// statement prepared from the old copy that opens none would never learn.
    ///
    /// # Safety
    /// `db` must be a valid connection handle, locked for the caller.
    unsafe fn cache(&mut self, db: *mut ffi::sqlite3, parameters: bool) -> &mut Cache {
        let generation = self.schema.load(Ordering::Acquire);
        if self.prepared_at != Some(generation) {
            self.prepared.map.clear();
            self.literals.map.clear();
            // SAFETY: per the caller; the text is a constant.
            let rc = unsafe {
                ffi::sqlite3_exec(
                    db,
                    c"SELECT 1 FROM sqlite_schema LIMIT 1".as_ptr(),
                    None,
                    std::ptr::null_mut(),
                    std::ptr::null_mut(),
                )
            };
            // A writer's lock in the way: read again before the next statement.
            if !matches!(rc & 0xff, ffi::SQLITE_LOCKED | ffi::SQLITE_BUSY) {
                self.prepared_at = Some(generation);
            }
        }
        match parameters {
            true => &mut self.prepared,
            false => &mut self.literals,
        }
    }
}

pub(super) const LITERAL_CAPACITY: usize = 16;

/// Looked up before every statement: a fast hash (randomly seeded per process)
/// rather than SipHash, which cost more than the rest of the lookup.
#[derive(Default)]
pub(super) struct Cache {
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

/// The prepared statement for `sql`: cached, or prepared now and cached. `Err` of
/// the inner result: a shared-cache lock to wait for.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
pub(super) unsafe fn cached_statement(
    db: *mut ffi::sqlite3,
    statements: &mut Statements,
    sql: &str,
    parameters: bool,
) -> Result<Result<Cached, oneshot::Receiver<()>>, Error> {
    // SAFETY: per the caller.
    let cache = unsafe { statements.cache(db, parameters) };
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
pub(super) unsafe fn prepare_or_wait(
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
pub(super) unsafe fn prepare(
    db: *mut ffi::sqlite3,
    sql: &str,
    persistent: bool,
) -> Result<Prepared, Error> {
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
pub(super) struct Cached(pub(super) NonNull<ffi::sqlite3_stmt>);

// SAFETY: SQLite is built thread-safe (serialized); the statement is only used by
// the session that holds its connection's lock.
unsafe impl Send for Cached {}
