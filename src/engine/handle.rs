//! A connection's SQLite handle, locked for one session at a time through SQLx's
//! `lock_handle` (see `direct` for why statements run through it).

use std::ptr::NonNull;

use libsqlite3_sys as ffi;
use sqlx::sqlite::LockedSqliteHandle;
use sqlx::{Connection as _, SqliteConnection};

use crate::error::Error;

/// A connection's SQLite handle, locked for one session at a time.
pub(super) struct HeldHandle {
    _guard: LockedSqliteHandle<'static>,
    db: NonNull<ffi::sqlite3>,
}

// SAFETY: SQLite is built thread-safe (serialized); the handle is only used
// through `&mut HeldHandle`, by the session that holds the lock.
unsafe impl Send for HeldHandle {}

// SAFETY: as above, nothing uses the handle through a shared reference.
unsafe impl Sync for HeldHandle {}

impl HeldHandle {
    /// Locks `conn`'s handle. `after_release`: the lock was let go since the last
    /// time, so SQLx's connection thread must be seen to take it back first
    /// (SQLx 0.9 can hang on a lock taken right after another; a ping answers
    /// only once that thread runs again).
    ///
    /// # Safety
    /// The returned value must be dropped before `conn` is closed or dropped, and
    /// nothing may use `conn` through SQLx while it lives (that would wait for the
    /// lock forever). The lock itself lives in SQLx's shared connection state on
    /// the heap, so `conn` may move meanwhile. `HeldConnection` keeps both rules.
    pub(super) async unsafe fn lock(
        conn: &mut SqliteConnection,
        after_release: bool,
    ) -> Result<HeldHandle, Error> {
        if after_release {
            conn.ping().await?;
        }
        let mut guard = conn.lock_handle().await?;
        let db = guard.as_raw_handle();
        // SAFETY: per this function's contract, the guard does not outlive the
        // connection whose state it borrows.
        let guard = unsafe {
            std::mem::transmute::<LockedSqliteHandle<'_>, LockedSqliteHandle<'static>>(guard)
        };
        Ok(HeldHandle { _guard: guard, db })
    }

    pub(super) fn db(&mut self) -> *mut ffi::sqlite3 {
        self.db.as_ptr()
    }
}
