//! Stopping a running statement from outside it: a client's cancel request, a
//! statement timeout, the server shutting down, or an HTTP client that went away.
//!
//! A statement runs synchronously inside `sqlite3_step` on the thread that polls its
//! session, so nothing on that thread can stop it; another thread sets the
//! session's [`StatementControl`] instead, and SQLite's progress handler, called
//! every [`PROGRESS_OPS`] virtual machine instructions, sees it and makes the
//! statement fail with `SQLITE_INTERRUPT`. The handler is installed once per
//! connection (see `pool`) and finds the control of the statement running on its
//! thread through a thread-local set only while a session's statement runs
//! ([`Running`]): statements SQLx runs on its own thread, and the engine's own
//! `BEGIN`/`COMMIT`/`ROLLBACK`, are never interrupted.
//!
//! Waits that are not inside SQLite (the write permit, a shared-cache table lock)
//! watch [`StatementControl::stopped`] instead.
//!
//! The same handler keeps a long statement from stalling the other connections of
//! its serving thread. A statement runs on the thread that polls its session; once
//! it has run for [`SERVING_BUDGET`], the handler hands that thread's runtime work
//! (its tokio worker "core", with every other task queued there) to a fresh thread
//! through `tokio::task::block_in_place`, and the statement finishes where it is,
//! off the serving threads. Short statements never get there and pay nothing. This
//! needs the work-stealing runtime: on `--thread-per-core` runtimes a statement
//! still runs to its end on its thread.

use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use futures::task::AtomicWaker;
use tokio::sync::Notify;

use crate::error::{Error, ErrorKind};

/// How many SQLite VM instructions run between two looks at the control.
pub(super) const PROGRESS_OPS: c_int = 1000;

/// Why a statement was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StopReason {
    /// The client asked (PostgreSQL CancelRequest), or went away (HTTP).
    Cancel,
    /// The statement ran past its time limit.
    Timeout,
    /// The server is shutting down.
    Shutdown,
    /// Another session ended this one (`pg_terminate_backend()`).
    Terminate,
}

impl StopReason {
    fn code(self) -> u8 {
        match self {
            StopReason::Cancel => 1,
            StopReason::Timeout => 2,
            StopReason::Shutdown => 3,
            StopReason::Terminate => 4,
        }
    }

    fn from_code(code: u8) -> Option<StopReason> {
        match code {
            1 => Some(StopReason::Cancel),
            2 => Some(StopReason::Timeout),
            3 => Some(StopReason::Shutdown),
            4 => Some(StopReason::Terminate),
            _ => None,
        }
    }

    /// The error the stopped statement fails with, in PostgreSQL's words.
    pub fn error(self) -> Error {
        match self {
            StopReason::Cancel => Error::new(
                ErrorKind::QueryCanceled,
                "canceling statement due to user request",
            ),
            StopReason::Timeout => Error::new(
                ErrorKind::QueryCanceled,
                "canceling statement due to statement timeout",
            ),
            StopReason::Shutdown | StopReason::Terminate => Error::new(
                ErrorKind::AdminShutdown,
                "terminating connection due to administrator command",
            ),
        }
    }
}

/// Whether the client a statement runs for has gone away (asked while it runs).
pub trait ClientGone: Send + Sync {
    fn gone(&self) -> bool;
}

/// How long a statement runs before its thread's other work moves to a fresh thread.
const SERVING_BUDGET: Duration = Duration::from_millis(2);

/// How long the statement's thread pauses while handing its work over: the fresh
/// thread must take it before the pause ends, or the work stays (and the hand-over
/// is tried again later).
const HANDOFF_PAUSE: Duration = Duration::from_millis(1);

/// How often a running statement asks whether its client is still there.
const CLIENT_LOOK_INTERVAL: Duration = Duration::from_millis(50);

/// One session's stop switch and statement deadline, shared with whoever may stop
/// it (the cancel registry, the engine at shutdown, the HTTP front end).
#[derive(Default)]
pub struct StatementControl {
    /// A [`StopReason`] code, 0 when none.
    stop: AtomicU8,
    /// When the running statement times out: nanoseconds after [`epoch`] plus
    /// one, 0 when it has no limit.
    deadline: AtomicU64,
    notify: Notify,
    /// Asked now and then while a statement runs; a client gone stops it.
    client: Mutex<Option<Arc<dyn ClientGone>>>,
    /// A statement failed because the session was terminated: its client has
    /// been told (see [`Self::terminated`]).
    told: AtomicBool,
    /// The connection waiting for its client, woken by a termination (one
    /// waiter, polled on every wait: cheaper than a `Notify`).
    terminated_waker: AtomicWaker,
}

impl std::fmt::Debug for StatementControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StatementControl")
            .field("stop", &self.stop)
            .field("deadline", &self.deadline)
            .finish()
    }
}

impl StatementControl {
    /// Stops the session's running statement, if any. A cancel that arrives
    /// while no query runs is forgotten when the next query starts, as in
    /// PostgreSQL; a shutdown or a termination is not.
    pub fn stop(&self, reason: StopReason) {
        self.stop.store(reason.code(), Ordering::SeqCst);
        self.notify.notify_waiters();
        if reason == StopReason::Terminate {
            self.terminated_waker.wake();
        }
    }

    /// Stops statements once `client` says it has gone away (`None`: no client
    /// is watched, as between two requests of one Hrana stream).
    pub fn watch_client(&self, client: Option<Arc<dyn ClientGone>>) {
        if let Ok(mut watched) = self.client.lock() {
            *watched = client;
        }
    }

    /// Stops the statement if its client has gone away.
    fn look_at_client(&self) {
        let client = self
            .client
            .try_lock()
            .ok()
            .and_then(|client| client.clone());
        if client.is_some_and(|client| client.gone()) {
            self.stop(StopReason::Cancel);
        }
    }

    /// Marks the start of a client's query (a query string, an Execute, a
    /// request's statements): a cancel that arrived while none ran is
    /// forgotten, as PostgreSQL forgets one that arrives while it waits for
    /// the client. One that arrives from here on stops the query's statements.
    pub(super) fn query_starts(&self) {
        let _ = self.stop.compare_exchange(
            StopReason::Cancel.code(),
            0,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
    }

    /// Marks the start of a statement that may run until `deadline`.
    pub(super) fn start(&self, deadline: Option<Instant>) {
        let _ = self.stop.compare_exchange(
            StopReason::Timeout.code(),
            0,
            Ordering::SeqCst,
            Ordering::SeqCst,
        );
        let nanos = deadline.map_or(0, |deadline| {
            let since = deadline.saturating_duration_since(epoch()).as_nanos();
            u64::try_from(since).unwrap_or(u64::MAX - 1) + 1
        });
        self.deadline.store(nanos, Ordering::SeqCst);
    }

    /// Marks the end of the statement: its deadline no longer applies.
    pub(super) fn finish(&self) {
        self.deadline.store(0, Ordering::SeqCst);
    }

    /// Whether the session must end (shutdown, terminated): no statement of
    /// it may start.
    pub(super) fn ended(&self) -> Option<StopReason> {
        StopReason::from_code(self.stop.load(Ordering::Relaxed))
            .filter(|reason| matches!(reason, StopReason::Shutdown | StopReason::Terminate))
    }

    /// `Some` once another session terminated this one; `Some(true)` when a
    /// statement already failed with the FATAL error that says so.
    pub fn terminated(&self) -> Option<bool> {
        (self.stop.load(Ordering::Relaxed) == StopReason::Terminate.code())
            .then(|| self.told.load(Ordering::Relaxed))
    }

    /// Resolves once another session terminates this one (one waiter at a
    /// time: the connection's message loop).
    pub async fn until_terminated(&self) {
        std::future::poll_fn(|cx| {
            self.terminated_waker.register(cx.waker());
            match self.terminated() {
                Some(_) => std::task::Poll::Ready(()),
                None => std::task::Poll::Pending,
            }
        })
        .await
    }

    /// The error a statement stopped for `reason` fails with.
    pub(super) fn stop_error(&self, reason: StopReason) -> Error {
        if reason == StopReason::Terminate {
            self.told.store(true, Ordering::Relaxed);
        }
        reason.error()
    }

    /// Why the running statement must stop, if it must.
    pub fn reason(&self) -> Option<StopReason> {
        if let Some(reason) = StopReason::from_code(self.stop.load(Ordering::Relaxed)) {
            return Some(reason);
        }
        let deadline = self.deadline()?;
        (Instant::now() >= deadline).then_some(StopReason::Timeout)
    }

    fn deadline(&self) -> Option<Instant> {
        match self.deadline.load(Ordering::Relaxed) {
            0 => None,
            nanos => Some(epoch() + Duration::from_nanos(nanos - 1)),
        }
    }

    /// Resolves once the running statement must stop (never while nothing stops it).
    pub async fn stopped(&self) -> StopReason {
        loop {
            let notified = self.notify.notified();
            tokio::pin!(notified);
            notified.as_mut().enable();
            if let Some(reason) = self.reason() {
                return reason;
            }
            match self.deadline() {
                Some(deadline) => {
                    tokio::select! {
                        () = notified => {}
                        () = tokio::time::sleep_until(deadline.into()) => {}
                    }
                }
                None => notified.await,
            }
        }
    }

    /// The error for a statement that failed while this control said stop:
    /// SQLite's "interrupted" becomes PostgreSQL's cancel or timeout error.
    pub(super) fn explain(&self, error: Error) -> Error {
        let interrupted =
            error.sqlite_code().map(|code| code & 0xff) == Some(libsqlite3_sys::SQLITE_INTERRUPT);
        match self.reason() {
            Some(reason) if interrupted => self.stop_error(reason),
            _ => error,
        }
    }
}

/// The instant deadlines are counted from.
fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

/// A live session, by the number it is registered under (see `backends`; the
/// lock table and the notifier know sessions by it).
pub(super) type SessionId = u64;

thread_local! {
    /// The control of the statement this thread is running, null when none.
    static RUNNING: Cell<*const StatementControl> = const { Cell::new(std::ptr::null()) };
    /// When the running statement next asks whether its client is still there.
    static NEXT_LOOK: Cell<Option<Instant>> = const { Cell::new(None) };
    /// When the running statement started, and when it next hands its thread's
    /// other work over (`None`: it will not).
    static HANDOFF: Cell<Option<(Instant, Instant)>> = const { Cell::new(None) };
}

/// While alive, the progress handler on this thread consults `control`.
pub(super) struct Running<'a> {
    _control: std::marker::PhantomData<&'a StatementControl>,
    previous: *const StatementControl,
}

impl<'a> Running<'a> {
    pub(super) fn new(control: &'a StatementControl) -> Running<'a> {
        let previous = RUNNING.with(|running| running.replace(control));
        let now = Instant::now();
        NEXT_LOOK.with(|next| next.set(Some(now + CLIENT_LOOK_INTERVAL)));
        HANDOFF.with(|handoff| handoff.set(Some((now, now + SERVING_BUDGET))));
        Running {
            _control: std::marker::PhantomData,
            previous,
        }
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        RUNNING.with(|running| running.set(self.previous));
    }
}

/// Calls `f` with the control of the statement running on this thread, if
/// any (a SQL function that waits looks at it).
pub(super) fn with_running<T>(f: impl FnOnce(Option<&StatementControl>) -> T) -> T {
    RUNNING.with(|running| {
        let control = running.get();
        // SAFETY: a non-null pointer was set by a `Running` that borrows the
        // control and is still alive (see `progress`); `f` runs inside it, on
        // this thread.
        f(unsafe { control.as_ref() })
    })
}

/// SQLite's progress handler: non-zero stops the running statement.
///
/// # Safety
/// Called by SQLite only, on the thread running the statement.
pub(super) unsafe extern "C" fn progress(_arg: *mut c_void) -> c_int {
    RUNNING.with(|running| {
        let control = running.get();
        if control.is_null() {
            return 0;
        }
        // SAFETY: a non-null pointer was set by a `Running` that borrows the
        // control and is still alive (it resets the pointer when dropped), and the
        // statement runs inside that borrow on this very thread.
        let control = unsafe { &*control };
        let now = Instant::now();
        if NEXT_LOOK.with(|next| next.get().is_some_and(|at| now >= at)) {
            NEXT_LOOK.with(|next| next.set(Some(now + CLIENT_LOOK_INTERVAL)));
            control.look_at_client();
        }
        if let Some((started, at)) = HANDOFF.with(Cell::get)
            && now >= at
        {
            // Tried again at doubling intervals: a hand-over that did happen makes
            // later tries cost only their pause.
            let again = now + now.saturating_duration_since(started);
            HANDOFF.with(|handoff| handoff.set(Some((started, again))));
            if !hand_over_serving_work() {
                HANDOFF.with(|handoff| handoff.set(None));
            }
        }
        c_int::from(control.reason().is_some())
    })
}

/// Runs `wait`, a wait that blocks its thread inside a statement, with the
/// calling runtime worker's other work moved to a fresh thread first where that
/// can be done (the work-stealing runtime): the session waited for may be
/// served on this very thread.
pub(super) fn off_serving_thread<T>(wait: impl FnOnce() -> T) -> T {
    use tokio::runtime::{Handle, RuntimeFlavor};
    let work_stealing = Handle::try_current()
        .is_ok_and(|handle| handle.runtime_flavor() == RuntimeFlavor::MultiThread);
    match work_stealing {
        true => tokio::task::block_in_place(wait),
        false => wait(),
    }
}

/// Moves the calling runtime worker's other work to a fresh thread, so that the
/// statement running here holds up nobody else. Returns false where that cannot
/// be done (outside a work-stealing runtime).
fn hand_over_serving_work() -> bool {
    use tokio::runtime::{Handle, RuntimeFlavor};
    let work_stealing = Handle::try_current()
        .is_ok_and(|handle| handle.runtime_flavor() == RuntimeFlavor::MultiThread);
    if !work_stealing {
        return false;
    }
    // block_in_place refuses (panics) only outside a work-stealing worker, ruled
    // out above; a panic must not cross SQLite's C frames either way.
    std::panic::catch_unwind(|| {
        tokio::task::block_in_place(|| std::thread::sleep(HANDOFF_PAUSE));
    })
    .is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancel_is_forgotten_by_the_next_query_but_a_shutdown_is_not() {
        let control = StatementControl::default();
        control.stop(StopReason::Cancel);
        assert_eq!(control.reason(), Some(StopReason::Cancel));
        control.query_starts();
        assert_eq!(control.reason(), None);
        // Sent once the query started, before its statement: it stops it.
        control.stop(StopReason::Cancel);
        control.start(None);
        assert_eq!(control.reason(), Some(StopReason::Cancel));
        control.stop(StopReason::Shutdown);
        control.query_starts();
        control.start(None);
        assert_eq!(control.reason(), Some(StopReason::Shutdown));
    }

    #[test]
    fn a_deadline_in_the_past_is_a_timeout_until_the_statement_ends() {
        let control = StatementControl::default();
        control.start(Some(Instant::now()));
        assert_eq!(control.reason(), Some(StopReason::Timeout));
        control.finish();
        assert_eq!(control.reason(), None);
        control.start(Some(Instant::now() + Duration::from_secs(3600)));
        assert_eq!(control.reason(), None);
    }

    #[tokio::test]
    async fn waits_end_when_stopped_or_at_the_deadline() {
        let control = Arc::new(StatementControl::default());
        control.start(Some(Instant::now() + Duration::from_millis(20)));
        assert_eq!(control.stopped().await, StopReason::Timeout);
        control.start(None);
        let stopper = control.clone();
        tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(20)).await;
            stopper.stop(StopReason::Cancel);
        });
        assert_eq!(control.stopped().await, StopReason::Cancel);
    }
}
