//! Who holds and who waits for what: the write permit's holder, the advisory
//! locks, and every session waiting for one of them. It answers `pg_locks` and
//! `pg_blocking_pids()`, and finds deadlocks: a session that has waited
//! `deadlock_timeout` looks for a circle of waits through itself, as
//! PostgreSQL's deadlock detector does, and if there is one it gives up its
//! wait with 40P01 so that the others go on.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use super::advisory::{AdvisoryKey, AdvisoryLocks, Request, Scope};
use crate::engine::control::{SessionId, StatementControl};
use crate::error::{Error, ErrorKind, SqlState};

/// What a session can wait for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::engine) enum Resource {
    WritePermit,
    Advisory(Request),
}

/// A session that holds or waits for something: its id, and the pid its client
/// knows it by (BackendKeyData), which messages and `pg_locks` show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::engine) struct Locker {
    pub(in crate::engine) session: SessionId,
    pub(in crate::engine) pid: i32,
}

#[derive(Debug, Default)]
pub(in crate::engine) struct LockTable {
    state: Mutex<State>,
    /// The write permit's holder: set and cleared once per writing transaction,
    /// so it has a lock of its own, which nothing else contends for.
    permit_holder: Mutex<Option<Locker>>,
    /// Waits longer than `deadlock_timeout` are logged (`--log-lock-waits`).
    log_waits: AtomicBool,
}

#[derive(Debug, Default)]
struct State {
    advisory: AdvisoryLocks,
    /// Who waits for what, with the waiter's pid.
    waiting: HashMap<SessionId, (Resource, i32)>,
    /// When each wait began (`pg_locks.waitstart`).
    wait_started: HashMap<SessionId, SystemTime>,
    /// The pids of the sessions that took advisory locks (until they end).
    pids: HashMap<SessionId, i32>,
}

/// How long a wait may last, and what may end it early.
pub(in crate::engine) struct WaitLimits<'a> {
    pub(in crate::engine) control: &'a StatementControl,
    /// `lock_timeout`, or the server's busy timeout for the write permit.
    pub(in crate::engine) timeout: Option<Duration>,
    /// The session's `deadlock_timeout`: when to look for a deadlock, and
    /// when a wait is logged (`--log-lock-waits`).
    pub(in crate::engine) deadlock_timeout: Duration,
    /// Whether the waiter can be in a deadlock at all.
    pub(in crate::engine) may_deadlock: bool,
}

impl LockTable {
    /// Logs waits that last longer than the waiter's `deadlock_timeout`.
    pub(in crate::engine) fn log_waits(&self, log: bool) {
        self.log_waits.store(log, Ordering::Relaxed);
    }

    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The write permit now belongs to `holder` (`None`: to nobody).
    pub(in crate::engine) fn permit_held(&self, holder: Option<Locker>) {
        *self.holder() = holder;
    }

    fn holder(&self) -> MutexGuard<'_, Option<Locker>> {
        self.permit_holder
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Runs `body` on the advisory locks.
    pub(in crate::engine) fn advisory<T>(
        &self,
        locker: Locker,
        body: impl FnOnce(&mut AdvisoryLocks) -> T,
    ) -> T {
        let mut state = self.state();
        state.pids.insert(locker.session, locker.pid);
        body(&mut state.advisory)
    }

    /// The session ended: its locks go, and the table forgets it.
    pub(in crate::engine) fn session_ended(&self, session: SessionId) {
        let mut state = self.state();
        state.advisory.release_all(session, None);
        state.waiting.remove(&session);
        state.wait_started.remove(&session);
        state.pids.remove(&session);
        drop(state);
        let mut holder = self.holder();
        if holder.is_some_and(|h| h.session == session) {
            *holder = None;
        }
    }

    /// Its transaction ended: the locks taken for it go.
    pub(in crate::engine) fn transaction_ended(&self, session: SessionId) {
        self.state()
            .advisory
            .release_all(session, Some(Scope::Transaction));
    }

    /// Waits for `granted` (the write permit, or an advisory lock's grant) as
    /// `locker`, until `limits` says to stop: a cancel or the statement's
    /// deadline (57014), `timeout` (55P03), or a deadlock found after
    /// `deadlock_timeout` (40P01).
    pub(in crate::engine) async fn wait<T>(
        &self,
        locker: Locker,
        resource: Resource,
        granted: impl Future<Output = T>,
        limits: WaitLimits<'_>,
    ) -> Result<T, Error> {
        {
            let mut state = self.state();
            state.waiting.insert(locker.session, (resource, locker.pid));
            state.wait_started.insert(locker.session, SystemTime::now());
        }
        let _waiting = Waiting {
            table: self,
            session: locker.session,
        };
        let timeout = async {
            match limits.timeout {
                Some(timeout) => tokio::time::sleep(timeout).await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(granted, timeout);
        let log = self.log_waits.load(Ordering::Relaxed);
        let started = std::time::Instant::now();
        let deadlock_check = async {
            match limits.may_deadlock || log {
                true => tokio::time::sleep(limits.deadlock_timeout).await,
                false => std::future::pending().await,
            }
        };
        tokio::pin!(deadlock_check);
        let mut checked = !limits.may_deadlock && !log;
        let mut logged = false;
        loop {
            tokio::select! {
                value = &mut granted => {
                    if logged {
                        tracing::info!(
                            target: "litewire::locks",
                            pid = locker.pid,
                            "process {} acquired {} after {:.3} ms",
                            locker.pid,
                            describe(&resource),
                            started.elapsed().as_secs_f64() * 1000.0
                        );
                    }
                    return Ok(value);
                }
                reason = limits.control.stopped() => return Err(limits.control.stop_error(reason)),
                () = &mut timeout => return Err(lock_timeout(resource, limits.timeout)),
                () = &mut deadlock_check, if !checked => {
                    checked = true;
                    if log {
                        logged = true;
                        self.log_wait(locker.pid, &resource, started.elapsed());
                    }
                    if !limits.may_deadlock {
                        continue;
                    }
                    if let Some(detail) = self.deadlock(locker.session) {
                        return Err(Error::state(SqlState::DEADLOCK_DETECTED, "deadlock detected")
                            .with_detail(detail));
                    }
                }
            }
        }
    }

    /// PostgreSQL's line for a wait that has lasted `waited`, with who holds
    /// what it waits for.
    fn log_wait(&self, pid: i32, resource: &Resource, waited: Duration) {
        let holders: Vec<String> = self.blocking_pids(pid).iter().map(i32::to_string).collect();
        tracing::info!(
            target: "litewire::locks",
            pid,
            "process {pid} still waiting for {} after {:.3} ms; process holding the lock: {}",
            describe(resource),
            waited.as_secs_f64() * 1000.0,
            holders.join(", ")
        );
    }

    /// The circle of waits through `session`, as PostgreSQL's DETAIL describes
    /// it, if there is one.
    fn deadlock(&self, session: SessionId) -> Option<String> {
        let holder = *self.holder();
        let state = self.state();
        let mut path = vec![session];
        if !state.reaches(holder, session, &mut path) {
            return None;
        }
        let pid = |s: &SessionId| state.pid(holder, *s);
        let lines: Vec<String> = path
            .windows(2)
            .map(|pair| {
                let what = state
                    .waiting
                    .get(&pair[0])
                    .map_or_else(String::new, |(resource, _)| describe(resource));
                format!(
                    "Process {} waits for {what}; blocked by process {}.",
                    pid(&pair[0]),
                    pid(&pair[1])
                )
            })
            .collect();
        Some(lines.join("\n"))
    }

    /// The pids of the sessions the session of `pid` waits for
    /// (`pg_blocking_pids`).
    pub(in crate::engine) fn blocking_pids(&self, pid: i32) -> Vec<i32> {
        let holder = *self.holder();
        let state = self.state();
        let sessions = state
            .waiting
            .iter()
            .map(|(session, (_, p))| (session, p))
            .chain(state.pids.iter());
        let mut pids: Vec<i32> = sessions
            .filter(|(_, p)| **p == pid)
            .flat_map(|(session, _)| state.blockers(holder, *session))
            .map(|s| state.pid(holder, s))
            .collect();
        pids.sort_unstable();
        pids.dedup();
        pids
    }

    /// The pids waiting for the write permit or an advisory lock, each with
    /// PostgreSQL's name of the wait (`pg_stat_activity.wait_event`).
    pub(in crate::engine) fn waits(&self) -> Vec<(i32, &'static str)> {
        self.state()
            .waiting
            .values()
            .map(|(resource, pid)| {
                let event = match resource {
                    // PostgreSQL's name for a lock on an object that is no
                    // relation: the permit is a lock on the database.
                    Resource::WritePermit => "object",
                    Resource::Advisory(_) => "advisory",
                };
                (*pid, event)
            })
            .collect()
    }

    /// Every advisory lock held or waited for, and the write permit's holder and
    /// waiters, for `pg_locks`: what, whose pid, mode, granted.
    pub(in crate::engine) fn rows(&self) -> Vec<LockRow> {
        let holder = *self.holder();
        let state = self.state();
        let pid = |s: &SessionId| state.pid(holder, *s);
        let mut rows: Vec<LockRow> = state
            .advisory
            .rows()
            .into_iter()
            .map(|(key, session, mode, granted)| LockRow {
                advisory: Some(key),
                pid: pid(&session),
                mode: mode.name(),
                granted,
                waitstart: (!granted)
                    .then(|| state.wait_started.get(&session).copied())
                    .flatten(),
            })
            .collect();
        if let Some(holder) = holder {
            rows.push(LockRow {
                advisory: None,
                pid: holder.pid,
                mode: "ExclusiveLock",
                granted: true,
                waitstart: None,
            });
        }
        for (session, (resource, waiter)) in &state.waiting {
            if *resource == Resource::WritePermit {
                rows.push(LockRow {
                    advisory: None,
                    pid: *waiter,
                    mode: "ExclusiveLock",
                    granted: false,
                    waitstart: state.wait_started.get(session).copied(),
                });
            }
        }
        rows
    }
}

/// One row of `pg_locks`: an advisory lock (its key), or the write permit.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::engine) struct LockRow {
    pub(in crate::engine) advisory: Option<AdvisoryKey>,
    pub(in crate::engine) pid: i32,
    pub(in crate::engine) mode: &'static str,
    pub(in crate::engine) granted: bool,
    /// When an ungranted lock's wait began.
    pub(in crate::engine) waitstart: Option<SystemTime>,
}

impl State {
    /// The pid of `session`, the permit's holder's included.
    fn pid(&self, holder: Option<Locker>, session: SessionId) -> i32 {
        match holder {
            Some(holder) if holder.session == session => holder.pid,
            _ => self
                .waiting
                .get(&session)
                .map(|(_, pid)| *pid)
                .or_else(|| self.pids.get(&session).copied())
                .unwrap_or(0),
        }
    }

    /// The sessions `session` waits for now.
    fn blockers(&self, holder: Option<Locker>, session: SessionId) -> Vec<SessionId> {
        match self.waiting.get(&session).map(|(resource, _)| resource) {
            Some(Resource::WritePermit) => holder
                .map(|h| h.session)
                .filter(|holder| *holder != session)
                .into_iter()
                .collect(),
            Some(Resource::Advisory(request)) => {
                self.advisory.blockers(session, request.key, request.mode)
            }
            None => Vec::new(),
        }
    }

    /// Whether following waits from the end of `path` leads back to `target`;
    /// `path` then holds the circle, `target` at both ends.
    fn reaches(
        &self,
        holder: Option<Locker>,
        target: SessionId,
        path: &mut Vec<SessionId>,
    ) -> bool {
        let Some(&last) = path.last() else {
            return false;
        };
        for next in self.blockers(holder, last) {
            if next == target {
                path.push(next);
                return true;
            }
            if path.contains(&next) {
                continue;
            }
            path.push(next);
            if self.reaches(holder, target, path) {
                return true;
            }
            path.pop();
        }
        false
    }
}

/// Removes a session's wait from the table however the wait ends.
struct Waiting<'a> {
    table: &'a LockTable,
    session: SessionId,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        let mut state = self.table.state();
        state.waiting.remove(&self.session);
        state.wait_started.remove(&self.session);
    }
}

/// What a wait is for, in the words of PostgreSQL's deadlock report.
fn describe(resource: &Resource) -> String {
    match resource {
        Resource::WritePermit => "ExclusiveLock on the database's write lock".into(),
        Resource::Advisory(request) => {
            let (high, low, kind) = match request.key {
                AdvisoryKey::Big(key) => ((key >> 32) as u32, key as u32, 1),
                AdvisoryKey::Pair(a, b) => (a as u32, b as u32, 2),
            };
            format!(
                "{} on advisory lock [0,{high},{low},{kind}]",
                request.mode.name()
            )
        }
    }
}

fn lock_timeout(resource: Resource, timeout: Option<Duration>) -> Error {
    let millis = timeout.map_or(0, |t| t.as_millis());
    let message = match resource {
        Resource::WritePermit => format!(
            "canceling statement due to lock timeout: could not obtain the write lock within {millis} ms"
        ),
        Resource::Advisory(_) => "canceling statement due to lock timeout".to_owned(),
    };
    Error::new(ErrorKind::LockTimeout, message)
}

#[cfg(test)]
mod tests {
    use super::super::advisory::LockMode;
    use super::*;

    fn key(n: i64) -> Request {
        Request {
            key: AdvisoryKey::Big(n),
            mode: LockMode::Exclusive,
            scope: Scope::Session,
        }
    }

    #[test]
    fn a_circle_of_waits_is_a_deadlock() {
        let table = LockTable::default();
        let (a, b) = (
            Locker {
                session: 1,
                pid: 101,
            },
            Locker {
                session: 2,
                pid: 102,
            },
        );
        table.permit_held(Some(a));
        assert!(table.advisory(b, |locks| locks.try_acquire(2, key(9))));
        {
            let mut state = table.state();
            state.waiting.insert(1, (Resource::Advisory(key(9)), 101));
        }
        assert!(table.deadlock(1).is_none(), "b waits for nothing yet");
        table
            .state()
            .waiting
            .insert(2, (Resource::WritePermit, 102));
        let detail = table.deadlock(1).expect("a circle");
        assert!(detail.contains("Process 101 waits for ExclusiveLock on advisory lock [0,0,9,1]; blocked by process 102."), "{detail}");
        assert!(detail.contains("Process 102 waits for ExclusiveLock on the database's write lock; blocked by process 101."), "{detail}");
        assert_eq!(table.blocking_pids(102), vec![101]);
        table.session_ended(1);
        assert!(table.deadlock(2).is_none());
    }
}
