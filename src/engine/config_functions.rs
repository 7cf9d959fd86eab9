//! `current_setting()` and `set_config()` as SQL functions, anywhere in a statement.
//!
//! Drivers call them inside ordinary queries (asyncpg runs `SELECT
//! current_setting('jit') AS cur, set_config('jit', 'off', false) AS new`
//! before its type introspection, and later `set_config('jit', $1, false)`), so
//! they cannot be session commands answered beside SQLite. Each connection
//! carries, in a slot of its own, the settings of the session using it now
//! (`serve`, when a session takes the connection); the functions read and change
//! those, with `SET`'s rules (see `settings`).

use std::ffi::{CStr, c_void};
use std::sync::Mutex;

use libsqlite3_sys as ffi;

use super::functions::{Arg, Out};
use super::settings::SharedSettings;

const SLOT: &CStr = c"litewire.settings";

/// Makes `settings` the ones the connection's functions use.
///
/// # Safety
/// `db` must be a valid connection, locked for the caller.
pub(super) unsafe fn serve(db: *mut ffi::sqlite3, settings: &SharedSettings) {
    // SAFETY: per the caller.
    if let Some(slot) = unsafe { slot(db) } {
        if let Ok(mut current) = slot.lock()
            && !current.same(settings)
        {
            *current = settings.clone();
        }
        return;
    }
    let raw = Box::into_raw(Box::new(Mutex::new(settings.clone()))).cast::<c_void>();
    // SAFETY: `db` is valid and locked (caller's contract); SQLite owns `raw` from
    // here and frees it with `release` when the connection closes.
    let rc = unsafe { ffi::sqlite3_set_clientdata(db, SLOT.as_ptr(), raw, Some(release)) };
    if rc != ffi::SQLITE_OK {
        // SAFETY: SQLite did not take `raw`, which came from `Box::into_raw`.
        drop(unsafe { Box::from_raw(raw.cast::<Mutex<SharedSettings>>()) });
    }
}

unsafe extern "C" fn release(raw: *mut c_void) {
    if !raw.is_null() {
        // SAFETY: `raw` is the box `serve` handed to SQLite, released once.
        drop(unsafe { Box::from_raw(raw.cast::<Mutex<SharedSettings>>()) });
    }
}

/// # Safety
/// `db` must be a valid connection; the slot lives as long as it does.
unsafe fn slot<'a>(db: *mut ffi::sqlite3) -> Option<&'a Mutex<SharedSettings>> {
    // SAFETY: per the caller; the slot holds the box `serve` made, or null.
    let raw = unsafe { ffi::sqlite3_get_clientdata(db, SLOT.as_ptr()) };
    // SAFETY: non-null pointers are that live box.
    unsafe { raw.cast::<Mutex<SharedSettings>>().as_ref() }
}

/// The settings of the session the connection serves now.
fn settings(db: *mut ffi::sqlite3) -> Result<SharedSettings, String> {
    // SAFETY: SQLite passes the connection the function runs on, valid for the call.
    unsafe { slot(db) }
        .and_then(|slot| slot.lock().ok().map(|s| s.clone()))
        .ok_or_else(|| "settings are not available on this connection".to_owned())
}

/// PostgreSQL's boolean input (`true`, `on`, `1`, `t`, ...); SQLite's are integers.
fn truth(arg: &Arg) -> Option<bool> {
    match arg {
        Arg::Null => None,
        Arg::Int(i) => Some(*i != 0),
        Arg::Real(f) => Some(*f != 0.0),
        other => match other.text()?.trim().to_ascii_lowercase().as_str() {
            "t" | "true" | "on" | "yes" | "y" | "1" => Some(true),
            _ => Some(false),
        },
    }
}

/// `current_setting(name [, missing_ok])`.
pub(super) fn current_setting(db: *mut ffi::sqlite3, args: &[Arg]) -> Out {
    let Some(name) = args[0].text() else {
        return Out::Null;
    };
    let missing_ok = args.get(1).and_then(truth).unwrap_or(false);
    let shared = match settings(db) {
        Ok(shared) => shared,
        Err(message) => return Out::Error(message),
    };
    let value = shared.lock().current_setting(&name, missing_ok);
    match value {
        Ok(Some(value)) => Out::Text(value),
        Ok(None) => Out::Null,
        Err(error) => Out::Error(error.message),
    }
}

/// `set_config(name, value, is_local)`: `SET [LOCAL]`, answering the new value.
/// While the statement is only described, nothing changes.
pub(super) fn set_config(db: *mut ffi::sqlite3, args: &[Arg]) -> Out {
    let Some(name) = args[0].text() else {
        return Out::Error("NULL value not allowed for the name of set_config".into());
    };
    let value = args[1].text().unwrap_or_default();
    let local = truth(&args[2]).unwrap_or(false);
    let shared = match settings(db) {
        Ok(shared) => shared,
        Err(message) => return Out::Error(message),
    };
    let mut current = shared.lock();
    let result = match shared.is_describing() {
        true => current.clone().set_config(&name, &value, local),
        false => current.set_config(&name, &value, local),
    };
    match result {
        Ok(value) => Out::Text(value),
        Err(error) => Out::Error(error.message),
    }
}
