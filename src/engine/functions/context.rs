//! What the functions of one connection share: the server's sequence counters,
//! and the session that uses the connection now (its settings for
//! `current_setting()`/`set_config()`, its values for `currval()`/`lastval()`).
//!
//! A connection serves one session after another (sessions take and park
//! connections, see `Engine::park`), so the session's part is swapped in
//! whenever a session takes the connection (`HeldConnection::assign`). The
//! context is made once per connection, when its functions are registered, and
//! every function's user data holds it; the connection's client-data slot holds
//! it too, so that whoever holds the handle can find it again.

use std::ffi::{CStr, c_void};
use std::sync::{Arc, Mutex};

use libsqlite3_sys as ffi;

use crate::engine::sequences::{Sequences, SessionValues};
use crate::engine::settings::SharedSettings;

/// The state a connection's functions reach.
pub(in crate::engine) struct FunctionContext {
    pub(super) sequences: Arc<Sequences>,
    served: Mutex<Served>,
}

/// The session a connection serves now.
#[derive(Clone)]
pub(super) struct Served {
    pub(super) settings: Option<SharedSettings>,
    pub(super) sequence_values: Arc<SessionValues>,
}

const SLOT: &CStr = c"litewire.functions";

impl FunctionContext {
    pub(super) fn new(sequences: Arc<Sequences>) -> Arc<FunctionContext> {
        Arc::new(FunctionContext {
            sequences,
            served: Mutex::new(Served {
                settings: None,
                sequence_values: Arc::default(),
            }),
        })
    }

    /// Keeps `context` in the connection's slot (see [`Self::of`]).
    ///
    /// # Safety
    /// `db` must be a valid connection, locked for the caller.
    pub(super) unsafe fn attach(
        db: *mut ffi::sqlite3,
        context: &Arc<FunctionContext>,
    ) -> Result<(), String> {
        let raw = Arc::into_raw(context.clone()).cast_mut().cast::<c_void>();
        // SAFETY: `db` is valid and locked (caller's contract); SQLite owns `raw`
        // from here and frees it with `release` when the connection closes.
        let rc = unsafe { ffi::sqlite3_set_clientdata(db, SLOT.as_ptr(), raw, Some(release)) };
        if rc != ffi::SQLITE_OK {
            // SAFETY: SQLite did not take `raw`, which came from `Arc::into_raw`.
            drop(unsafe { Arc::from_raw(raw.cast::<FunctionContext>()) });
            return Err("could not attach the functions' state to a connection".into());
        }
        Ok(())
    }

    /// The context of a connection whose functions were registered.
    ///
    /// # Safety
    /// `db` must be a valid connection; the reference lives no longer than it.
    pub(in crate::engine) unsafe fn of<'a>(db: *mut ffi::sqlite3) -> Option<&'a FunctionContext> {
        // SAFETY: per the caller; the slot holds the pointer `attach` made, or null.
        let raw = unsafe { ffi::sqlite3_get_clientdata(db, SLOT.as_ptr()) };
        // SAFETY: a non-null pointer is the live `Arc` kept by the slot.
        unsafe { raw.cast::<FunctionContext>().as_ref() }
    }

    /// Makes this session's settings and sequence values the ones the
    /// connection's functions use.
    pub(in crate::engine) fn serve(
        &self,
        settings: &SharedSettings,
        sequence_values: &Arc<SessionValues>,
    ) {
        if let Ok(mut served) = self.served.lock() {
            if !served.settings.as_ref().is_some_and(|s| s.same(settings)) {
                served.settings = Some(settings.clone());
            }
            if !Arc::ptr_eq(&served.sequence_values, sequence_values) {
                served.sequence_values = sequence_values.clone();
            }
        }
    }

    /// The session the connection serves now.
    pub(super) fn served(&self) -> Served {
        self.served
            .lock()
            .map(|s| s.clone())
            .unwrap_or_else(|poisoned| poisoned.into_inner().clone())
    }
}

unsafe extern "C" fn release(raw: *mut c_void) {
    if !raw.is_null() {
        // SAFETY: `raw` is the `Arc` `attach` handed to SQLite, released once.
        drop(unsafe { Arc::from_raw(raw.cast::<FunctionContext>()) });
    }
}
