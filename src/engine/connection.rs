//! A pooled SQLite connection as a session holds it: the SQLx connection, its
//! SQLite handle locked for the session's direct use (see `direct`), and the
//! statements prepared on it. The three live and die together, and this is the
//! one place that knows how: the lock borrows the connection's state, statements
//! must be finalized while the handle is still valid, and SQLx may only use the
//! connection once the lock is let go.
//!
//! A session takes one of these on first use and keeps it; when the session ends
//! outside a transaction the engine parks it, lock and statements included, for
//! the next session (see `Engine::park`), which gets it reset first if the last
//! session could have left anything on it.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;

use libsqlite3_sys as ffi;
use sqlx::pool::PoolConnection;
use sqlx::{Sqlite, SqliteConnection, SqlitePool};

use super::access::{Access, Role};
use super::direct::Statements;
use super::functions::{FunctionContext, ServedSession};
use super::handle::HeldHandle;
use crate::error::Error;

/// A pooled connection, held by one session (or parked for the next).
pub(super) struct HeldConnection {
    statements: Statements,
    handle: Option<HeldHandle>,
    conn: PoolConnection<Sqlite>,
    /// Whether the handle was let go since it was last locked: SQLx's connection
    /// thread must then be seen to take it back before the next lock.
    released: bool,
    /// The connection's authorizer state, once a session has taken it.
    access: Option<Arc<Access>>,
    /// Whether a session may have left state on the connection (TEMP objects,
    /// PRAGMAs) that the next one must not see (see `pool::Reset`).
    dirty: bool,
}

impl std::fmt::Debug for HeldConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HeldConnection")
            .field("locked", &self.handle.is_some())
            .finish()
    }
}

impl HeldConnection {
    /// A connection from the pool, with room for `statement_cache` prepared
    /// statements, kept while the schema stays at the generation `schema` counts.
    pub(super) async fn acquire(
        pool: &SqlitePool,
        statement_cache: usize,
        schema: Arc<AtomicU64>,
    ) -> Result<HeldConnection, Error> {
        Ok(HeldConnection {
            statements: Statements::new(statement_cache, schema),
            handle: None,
            conn: pool.acquire().await?,
            released: false,
            access: None,
            dirty: false,
        })
    }

    /// Hands the connection to a session of `role` (see `access`), whose
    /// sequence values (`currval`) and settings its functions use (see
    /// `functions::context`).
    pub(super) async fn assign(
        &mut self,
        role: Role,
        served: &Arc<ServedSession>,
    ) -> Result<(), Error> {
        let (handle, _) = self.direct().await?;
        let db = handle.db();
        // SAFETY: the handle is locked for us and valid; the context lives as
        // long as the connection.
        if let Some(functions) = unsafe { FunctionContext::of(db) } {
            functions.serve(served);
        }
        let access = match &self.access {
            Some(access) => access.clone(),
            // SAFETY: the handle is locked for us and valid.
            None => unsafe { Access::of(db) }.ok_or_else(|| {
                Error::new(
                    crate::error::ErrorKind::Internal,
                    "a connection without its authorizer",
                )
            })?,
        };
        // SAFETY: `access` is the state installed on `db`, which is locked for us.
        unsafe { access.set_role(db, access.session_role(role)) };
        self.access = Some(access);
        Ok(())
    }

    /// Why the authorizer refused, in place of SQLite's "not authorized".
    pub(super) fn explain(&self, error: Error) -> Error {
        match &self.access {
            Some(access) => access.explain(error),
            None => error,
        }
    }

    /// Whether a session changed the connection's settings (a PRAGMA), so that it
    /// must be closed rather than serve another session.
    pub(super) fn changed(&self) -> bool {
        self.access.as_ref().is_some_and(|access| access.changed())
    }

    /// Closes the connection instead of giving it back to the pool.
    /// Its place in the pool is free at once (the next session need not wait for
    /// the close, nor be told the pool is full); the connection closes behind.
    pub(super) fn discard(self) {
        let mut this = std::mem::ManuallyDrop::new(self);
        // As `Drop` does: statements finalized, then the lock let go.
        this.statements = Statements::default();
        this.handle = None;
        // SAFETY: `this` is never used nor dropped again: each field that owns
        // something is read out exactly once here and dropped (or consumed).
        let (statements, access, conn) = unsafe {
            (
                std::ptr::read(&this.statements),
                std::ptr::read(&this.access),
                std::ptr::read(&this.conn),
            )
        };
        drop((statements, access));
        drop(conn.detach());
    }

    /// Notes that the session ran something that may leave state behind.
    pub(super) fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    /// Whether the connection must be reset before another session uses it
    /// (and from now on, that it need not).
    pub(super) fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
    }

    /// The locked SQLite handle and the statements prepared on it, locking the
    /// handle first if SQLx had it.
    pub(super) async fn direct(&mut self) -> Result<(&mut HeldHandle, &mut Statements), Error> {
        let handle = match &mut self.handle {
            Some(handle) => handle,
            empty => {
                let after_release = std::mem::take(&mut self.released);
                // SAFETY: the lock lives in `self.handle`, which is let go before
                // SQLx uses the connection again (`sqlx`) and before the
                // connection itself is dropped (`Drop` below).
                empty.insert(unsafe { HeldHandle::lock(&mut self.conn, after_release).await? })
            }
        };
        Ok((handle, &mut self.statements))
    }

    /// Whether no transaction is open on the connection.
    pub(super) async fn in_autocommit(&mut self) -> Result<bool, Error> {
        let (handle, _) = self.direct().await?;
        // SAFETY: the handle is locked for us.
        Ok(unsafe { ffi::sqlite3_get_autocommit(handle.db()) } != 0)
    }

    /// The connection, for SQLx's own API: the handle is let go first (SQLx would
    /// wait for it forever otherwise).
    pub(super) fn sqlx(&mut self) -> &mut SqliteConnection {
        if self.handle.take().is_some() {
            self.released = true;
        }
        &mut self.conn
    }
}

impl Drop for HeldConnection {
    fn drop(&mut self) {
        // Statements are finalized while the handle is valid and locked, then the
        // lock is let go; only then does the connection go back to the pool.
        self.statements = Statements::default();
        self.handle = None;
    }
}
