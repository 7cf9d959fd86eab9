//! Every live session, by its pid: a PostgreSQL client, an HTTP request, a
//! Hrana stream. Each has its statement control (what stops its statement)
//! and its activity (what it does); the registry lets shutdown stop them all,
//! `pg_stat_activity` list them, and `pg_cancel_backend()` /
//! `pg_terminate_backend()` reach one from another session, with
//! PostgreSQL's rules on who may signal whom.
//!
//! The pid is the one the client knows the session by: BackendKeyData's on the
//! PostgreSQL port, `pg_backend_pid()` everywhere.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, Weak};
use std::time::{Duration, Instant};

use super::access::Role;
use super::activity::{Activity, Snapshot};
use super::control::{SessionId, StatementControl, StopReason};
use super::metrics::Metrics;
use super::settings::SharedSettings;

/// A live session as others see it.
#[derive(Debug)]
pub(super) struct Backend {
    /// The number the lock table and the notifier know it by (never reused).
    pub(super) id: SessionId,
    pub(super) pid: i32,
    pub(super) control: Arc<StatementControl>,
    pub(super) activity: Activity,
}

/// The registry.
#[derive(Debug, Default)]
pub(super) struct Backends {
    /// By pid, with a fast hash (each HTTP request's session comes and goes here).
    sessions: Mutex<HashMap<i32, Arc<Backend>, foldhash::fast::RandomState>>,
    next_pid: AtomicI32,
    next_id: AtomicU64,
    /// `--log-min-duration-statement` in milliseconds plus one; 0: off.
    slow_query_ms: AtomicU64,
    /// Set once the server shuts down: sessions started afterwards are stopped at once.
    shutting_down: AtomicBool,
    /// Sessions ended by `pg_terminate_backend()` (`pg_stat_database.sessions_killed`).
    terminated: AtomicU64,
}

/// A session's place in the registry, held while the session lives.
#[derive(Debug)]
pub(super) struct Registered {
    backend: Arc<Backend>,
    backends: Weak<Backends>,
}

/// A signal one session sends another.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Signal {
    /// `pg_cancel_backend()`: its running statement stops (57014).
    Cancel,
    /// `pg_terminate_backend()`: the session ends (FATAL 57P01).
    Terminate,
}

/// A session's row of `pg_stat_activity`, read at one moment.
#[derive(Debug, Clone)]
pub(super) struct BackendRow {
    pub(super) pid: i32,
    pub(super) application_name: String,
    pub(super) activity: Snapshot,
}

impl Backends {
    fn sessions(&self) -> MutexGuard<'_, HashMap<i32, Arc<Backend>, foldhash::fast::RandomState>> {
        self.sessions.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queries that take `slow` or longer are logged, from the next session on.
    pub(super) fn log_queries_from(&self, slow: Option<Duration>) {
        let millis = slow.map_or(0, |slow| {
            u64::try_from(slow.as_millis())
                .unwrap_or(u64::MAX)
                .saturating_add(1)
        });
        self.slow_query_ms.store(millis, Ordering::Relaxed);
    }

    /// A new session's place, under a pid no live session has.
    pub(super) fn register(
        self: &Arc<Self>,
        role: Role,
        settings: SharedSettings,
        metrics: &Arc<Metrics>,
    ) -> Registered {
        let control = Arc::new(StatementControl::default());
        if self.shutting_down.load(Ordering::SeqCst) {
            control.stop(StopReason::Shutdown);
        }
        let slow = self.slow_query();
        let mut sessions = self.sessions();
        let backend = loop {
            // Positive, as process ids are; wrapped around, a pid still in use
            // is skipped.
            let pid = self.next_pid.fetch_add(1, Ordering::Relaxed) & i32::MAX;
            if pid == 0 {
                continue;
            }
            if let std::collections::hash_map::Entry::Vacant(vacant) = sessions.entry(pid) {
                let backend = Arc::new(Backend {
                    id: self.next_id.fetch_add(1, Ordering::Relaxed),
                    pid,
                    control,
                    activity: Activity::new(pid, role, slow, settings, metrics.clone()),
                });
                vacant.insert(backend.clone());
                break backend;
            }
        };
        drop(sessions);
        Registered {
            backend,
            backends: Arc::downgrade(self),
        }
    }

    /// Stops every session's statement, now and from now on.
    pub(super) fn stop_all(&self, reason: StopReason) {
        if reason == StopReason::Shutdown {
            self.shutting_down.store(true, Ordering::SeqCst);
        }
        let controls: Vec<Arc<StatementControl>> = self
            .sessions()
            .values()
            .map(|backend| backend.control.clone())
            .collect();
        for control in controls {
            control.stop(reason);
        }
    }

    fn slow_query(&self) -> Option<Duration> {
        match self.slow_query_ms.load(Ordering::Relaxed) {
            0 => None,
            millis => Some(Duration::from_millis(millis - 1)),
        }
    }

    fn find(&self, pid: i32) -> Option<Arc<Backend>> {
        self.sessions().get(&pid).cloned()
    }

    /// The role of the session of `pid`, if it is live.
    pub(super) fn role(&self, pid: i32) -> Option<Role> {
        self.find(pid)
            .map(|backend| backend.activity.snapshot().doing.role)
    }

    /// Every live session's row, by pid.
    pub(super) fn rows(&self) -> Vec<BackendRow> {
        let backends: Vec<Arc<Backend>> = self.sessions().values().cloned().collect();
        let mut rows: Vec<BackendRow> = backends
            .iter()
            .map(|backend| BackendRow {
                pid: backend.pid,
                application_name: backend.activity.application_name(),
                activity: backend.activity.snapshot(),
            })
            .collect();
        rows.sort_by_key(|row| row.pid);
        rows
    }

    /// Sends `signal` from the session of pid `from` to the session of pid
    /// `to`. Ok(false): there is no such session; Err: PostgreSQL's refusal
    /// (42501). Only an admin may signal an admin's session; anyone else only
    /// sessions of their own user.
    pub(super) fn signal(&self, from: i32, to: i32, signal: Signal) -> Result<bool, &'static str> {
        let Some(target) = self.find(to) else {
            return Ok(false);
        };
        let sender = self.find(from).map(|backend| backend.activity.snapshot());
        let (sender_role, sender_user) = match &sender {
            Some(sender) => (sender.doing.role, &*sender.doing.user),
            None => (Role::ReadOnly, ""),
        };
        let target_doing = target.activity.snapshot().doing;
        if sender_role != Role::Admin
            && (target_doing.role == Role::Admin || &*target_doing.user != sender_user)
        {
            return Err(match signal {
                Signal::Cancel => "permission denied to cancel query",
                Signal::Terminate => "permission denied to terminate process",
            });
        }
        let reason = match signal {
            Signal::Cancel => StopReason::Cancel,
            Signal::Terminate => StopReason::Terminate,
        };
        if reason == StopReason::Terminate && target.control.terminated().is_none() {
            self.terminated.fetch_add(1, Ordering::Relaxed);
        }
        target.control.stop(reason);
        Ok(true)
    }

    /// Sessions ended by another so far.
    pub(super) fn terminated(&self) -> u64 {
        self.terminated.load(Ordering::Relaxed)
    }

    /// Waits until the session of `pid` has ended, at most `timeout`; whether
    /// it has.
    pub(super) fn wait_gone(&self, pid: i32, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        loop {
            if self.find(pid).is_none() {
                return true;
            }
            let now = Instant::now();
            if now >= until {
                return false;
            }
            std::thread::sleep((until - now).min(Duration::from_millis(5)));
        }
    }
}

impl Registered {
    pub(super) fn control(&self) -> &Arc<StatementControl> {
        &self.backend.control
    }

    pub(super) fn activity(&self) -> &Activity {
        &self.backend.activity
    }

    pub(super) fn pid(&self) -> i32 {
        self.backend.pid
    }

    /// The number the session is known by (see [`SessionId`]).
    pub(super) fn id(&self) -> SessionId {
        self.backend.id
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(backends) = self.backends.upgrade() {
            backends.sessions().remove(&self.backend.pid);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::identity::SessionIdentity;
    use crate::engine::settings::Settings;

    fn session(backends: &Arc<Backends>, user: &str, role: Role) -> Registered {
        let settings = SharedSettings::new(Settings::default());
        let registered = backends.register(role, settings, &Arc::default());
        registered.activity().identify(&SessionIdentity {
            user: Arc::from(user),
            role,
            ..SessionIdentity::default()
        });
        registered
    }

    #[test]
    fn only_admins_signal_other_users_and_admins() {
        let backends = Arc::new(Backends::default());
        let ann = session(&backends, "ann", Role::Admin);
        let bob = session(&backends, "bob", Role::ReadWrite);
        let bob_again = session(&backends, "bob", Role::ReadWrite);
        let carl = session(&backends, "carl", Role::ReadOnly);
        let refused = Err("permission denied to cancel query");
        assert_eq!(
            backends.signal(carl.pid(), bob.pid(), Signal::Cancel),
            refused
        );
        assert_eq!(
            backends.signal(bob.pid(), ann.pid(), Signal::Cancel),
            refused
        );
        assert_eq!(
            backends.signal(bob.pid(), carl.pid(), Signal::Terminate),
            Err("permission denied to terminate process")
        );
        assert_eq!(bob.control().reason(), None);
        assert_eq!(
            backends.signal(bob_again.pid(), bob.pid(), Signal::Cancel),
            Ok(true)
        );
        assert_eq!(bob.control().reason(), Some(StopReason::Cancel));
        assert_eq!(
            backends.signal(ann.pid(), carl.pid(), Signal::Terminate),
            Ok(true)
        );
        assert_eq!(carl.control().terminated(), Some(false));
        let gone = carl.pid();
        drop(carl);
        assert!(backends.wait_gone(gone, Duration::ZERO));
        assert_eq!(backends.signal(ann.pid(), gone, Signal::Cancel), Ok(false));
        let pids: Vec<i32> = backends.rows().iter().map(|row| row.pid).collect();
        assert_eq!(pids, vec![ann.pid(), bob.pid(), bob_again.pid()]);
    }
}
