//! What the functions of one connection reach: the server's sequence counters,
//! lock table and live sessions, and the session that uses the connection now (its settings
//! for `current_setting()`/`set_config()`, its values for
//! `currval()`/`lastval()`, who it is for the advisory locks, and its
//! notifications waiting for its commit).
//!
//! A connection serves one session after another (sessions take and park
//! connections, see `Engine::park`), so the session's part is swapped in
//! whenever a session takes the connection (`HeldConnection::assign`). The
//! context is made once per connection, when its functions are registered, and
//! every function's user data holds it; the connection's client-data slot holds
//! it too, so that whoever holds the handle can find it again.

use std::ffi::{CStr, c_void};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use libsqlite3_sys as ffi;

use crate::engine::backends::Backends;
use crate::engine::control::SessionId;
use crate::engine::locks::{LockTable, Locker};
use crate::engine::metrics::Metrics;
use crate::engine::notifications::{Notifier, Pending};
use crate::engine::sequences::{Sequences, SessionValues};
use crate::engine::settings::SharedSettings;
use crate::engine::statement_stats::StatementStats;
use crate::engine::table_stats::TableStats;

/// What every connection's functions share with the whole server.
#[derive(Debug, Clone, Default)]
pub(in crate::engine) struct ServerShared {
    pub(in crate::engine) sequences: Arc<Sequences>,
    pub(in crate::engine) locks: Arc<LockTable>,
    pub(in crate::engine) notifier: Arc<Notifier>,
    pub(in crate::engine) backends: Arc<Backends>,
    pub(in crate::engine) metrics: Arc<Metrics>,
    pub(in crate::engine) statements: Arc<StatementStats>,
    pub(in crate::engine) tables: Arc<TableStats>,
    /// The server is a follower (`--read-only`).
    pub(in crate::engine) follower: bool,
}

/// The state a connection's functions reach.
pub(in crate::engine) struct FunctionContext {
    pub(super) server: ServerShared,
    served: Mutex<Option<Arc<ServedSession>>>,
}

/// What of a session its statements' functions reach, on whichever connection
/// they run.
#[derive(Debug)]
pub(in crate::engine) struct ServedSession {
    pub(in crate::engine) settings: SharedSettings,
    pub(in crate::engine) sequence_values: Arc<SessionValues>,
    pub(in crate::engine) session: SessionId,
    /// The pid its client knows it by.
    pid: i32,
    /// `pg_notify()`'s notifications, sent when the transaction commits.
    pub(in crate::engine) notifications: Mutex<Pending>,
    /// Whether `notifications` may hold any (its lock is taken only then).
    notified: AtomicBool,
    /// Whether the session ever took an advisory lock: only then can it be
    /// part of a deadlock (nobody waits for a session that holds none).
    pub(in crate::engine) took_advisory_locks: AtomicBool,
    /// Whether its transaction took advisory locks, given back when it ends.
    pub(in crate::engine) took_transaction_locks: AtomicBool,
    /// `random()`'s generator once `setseed()` seeded it.
    pub(in crate::engine) random_seed: Mutex<Option<super::prng::Seeded>>,
}

impl ServedSession {
    pub(in crate::engine) fn new(settings: SharedSettings, session: SessionId, pid: i32) -> Self {
        ServedSession {
            settings,
            sequence_values: Arc::default(),
            session,
            pid,
            notifications: Mutex::default(),
            notified: AtomicBool::new(false),
            took_advisory_locks: AtomicBool::new(false),
            took_transaction_locks: AtomicBool::new(false),
            random_seed: Mutex::new(None),
        }
    }

    /// Who the session is, for the lock table.
    pub(in crate::engine) fn locker(&self) -> Locker {
        Locker {
            session: self.session,
            pid: self.pid,
        }
    }

    /// The pid its client knows it by.
    pub(in crate::engine) fn pid(&self) -> i32 {
        self.pid
    }

    /// Queues a `pg_notify()` notification for the transaction's end.
    pub(in crate::engine) fn notify(
        &self,
        channel: &str,
        payload: &str,
    ) -> Result<(), crate::error::Error> {
        let queued = self
            .notifications
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .notify(channel, payload);
        self.notified.store(true, Ordering::Release);
        queued
    }

    /// The notifications waiting for the transaction's end, taken.
    pub(in crate::engine) fn take_notifications(&self) -> Pending {
        if !self.notified.swap(false, Ordering::AcqRel) {
            return Pending::default();
        }
        std::mem::take(
            &mut *self
                .notifications
                .lock()
                .unwrap_or_else(PoisonError::into_inner),
        )
    }
}

const SLOT: &CStr = c"litewire.functions";

impl FunctionContext {
    pub(super) fn new(server: ServerShared) -> Arc<FunctionContext> {
        Arc::new(FunctionContext {
            server,
            served: Mutex::new(None),
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

    /// Makes `session` the one the connection's functions serve.
    pub(in crate::engine) fn serve(&self, session: &Arc<ServedSession>) {
        let mut served = self.served.lock().unwrap_or_else(PoisonError::into_inner);
        if !served.as_ref().is_some_and(|s| Arc::ptr_eq(s, session)) {
            *served = Some(session.clone());
        }
    }

    /// The session the connection serves now.
    pub(super) fn served(&self) -> Option<Arc<ServedSession>> {
        self.served
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

unsafe extern "C" fn release(raw: *mut c_void) {
    if !raw.is_null() {
        // SAFETY: `raw` is the `Arc` `attach` handed to SQLite, released once.
        drop(unsafe { Arc::from_raw(raw.cast::<FunctionContext>()) });
    }
}
