//! Waiting out a shared-cache table lock: SQLite answers
//! `SQLITE_LOCKED_SHAREDCACHE` when another connection sharing the cache holds a
//! table, and `sqlite3_unlock_notify` says when that connection's transaction
//! ended; the statement waits for it asynchronously (or for its control to stop
//! it), then runs again.

use std::ffi::{c_int, c_void};

use libsqlite3_sys as ffi;
use tokio::sync::oneshot;

use super::values::error;
use crate::engine::control::StatementControl;
use crate::error::Error;

pub(super) const SQLITE_LOCKED_SHAREDCACHE: c_int = ffi::SQLITE_LOCKED | (1 << 8);

/// Asks SQLite to say when the connection holding the lock we ran into is done.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
pub(super) unsafe fn register_unlock_notify(
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

pub(super) unsafe extern "C" fn unlocked(args: *mut *mut c_void, count: c_int) {
    for i in 0..usize::try_from(count).unwrap_or(0) {
        // SAFETY: SQLite passes back the `count` pointers registered above, each
        // a boxed sender, each exactly once.
        let sender = unsafe { Box::from_raw((*args.add(i)).cast::<oneshot::Sender<()>>()) };
        let _ = sender.send(());
    }
}

/// Waits for another connection's shared-cache lock to go, or for `control` to
/// stop the statement (when the other transaction ends, SQLite's callback finds
/// the receiver gone). A dropped sender (the other connection closed) also means
/// go on.
pub(super) async fn wait_unlocked(
    unlocked: oneshot::Receiver<()>,
    control: Option<&StatementControl>,
) -> Result<(), Error> {
    match control {
        None => drop(unlocked.await),
        Some(control) => tokio::select! {
            _ = unlocked => {}
            reason = control.stopped() => return Err(control.stop_error(reason)),
        },
    }
    Ok(())
}
