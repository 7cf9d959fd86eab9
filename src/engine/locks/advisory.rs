//! Advisory locks: named mutexes applications take with `pg_advisory_lock()` and
//! friends (migration tools to run alone, apps around a critical section), with
//! PostgreSQL's rules: a key is one `bigint` or two `int`s (two distinct key
//! spaces), shared or exclusive mode, held for the session or for the
//! transaction, re-entrant (a session may hold a lock several times and must
//! release it as many times), and a session's own locks never conflict with its
//! requests. A request waits behind an earlier conflicting waiter, as in
//! PostgreSQL, so an exclusive waiter is not starved by a stream of sharers.
//!
//! The lock functions run inside a SQLite statement, which cannot wait; one
//! that would have to wait records what it waits for ([`AdvisoryLocks::block`])
//! and fails the statement, and the session waits for the lock outside SQLite
//! (see `session::locking`), then runs the statement again. The grant it waited for is kept as *pending* until the
//! function asks for it again; what the failed attempt took is given back first
//! (the attempt's journal), so a statement taking several locks counts each once.

use std::collections::{HashMap, VecDeque};

use tokio::sync::oneshot;

use crate::engine::control::SessionId;

/// An advisory lock's key: `pg_advisory_lock(bigint)` and
/// `pg_advisory_lock(int, int)` name different locks even for equal numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::engine) enum AdvisoryKey {
    Big(i64),
    Pair(i32, i32),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::engine) enum LockMode {
    Shared,
    Exclusive,
}

impl LockMode {
    fn conflicts(self, other: LockMode) -> bool {
        self == LockMode::Exclusive || other == LockMode::Exclusive
    }

    /// PostgreSQL's name of the mode, as `pg_locks.mode` shows it.
    pub(in crate::engine) fn name(self) -> &'static str {
        match self {
            LockMode::Shared => "ShareLock",
            LockMode::Exclusive => "ExclusiveLock",
        }
    }
}

/// How long a lock is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::engine) enum Scope {
    Session,
    Transaction,
}

/// One request: a key, a mode, a scope.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(in crate::engine) struct Request {
    pub(in crate::engine) key: AdvisoryKey,
    pub(in crate::engine) mode: LockMode,
    pub(in crate::engine) scope: Scope,
}

/// Who holds one key, and how many times each.
#[derive(Debug, Default)]
pub(super) struct KeyState {
    holders: HashMap<SessionId, Counts>,
    waiters: VecDeque<Waiter>,
}

/// How many times a session holds a key, by mode and scope.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    session_shared: u32,
    session_exclusive: u32,
    xact_shared: u32,
    xact_exclusive: u32,
}

impl Counts {
    fn slot(&mut self, mode: LockMode, scope: Scope) -> &mut u32 {
        match (mode, scope) {
            (LockMode::Shared, Scope::Session) => &mut self.session_shared,
            (LockMode::Exclusive, Scope::Session) => &mut self.session_exclusive,
            (LockMode::Shared, Scope::Transaction) => &mut self.xact_shared,
            (LockMode::Exclusive, Scope::Transaction) => &mut self.xact_exclusive,
        }
    }

    fn holds(&self, mode: LockMode) -> bool {
        match mode {
            LockMode::Shared => self.session_shared + self.xact_shared > 0,
            LockMode::Exclusive => self.session_exclusive + self.xact_exclusive > 0,
        }
    }

    fn is_empty(&self) -> bool {
        self.session_shared + self.session_exclusive + self.xact_shared + self.xact_exclusive == 0
    }
}

/// A session waiting for a key.
#[derive(Debug)]
struct Waiter {
    session: SessionId,
    request: Request,
    granted: oneshot::Sender<()>,
}

/// Every advisory lock, and each session's bookkeeping for its statement in
/// flight.
#[derive(Debug, Default)]
pub(in crate::engine) struct AdvisoryLocks {
    keys: HashMap<AdvisoryKey, KeyState>,
    /// What each session's running statement took so far (given back if the
    /// statement must wait and run again).
    journal: HashMap<SessionId, Vec<Request>>,
    /// Grants a session waited for, not yet asked for again by its statement.
    pending: HashMap<SessionId, Vec<Request>>,
    /// What a session's statement stopped to wait for.
    blocked: HashMap<SessionId, Request>,
}

impl AdvisoryLocks {
    /// Takes `request` for `session` if nothing conflicts: held by another
    /// session in a conflicting mode, or asked for earlier by a conflicting
    /// waiter. A grant the session waited for is taken first.
    pub(in crate::engine) fn try_acquire(&mut self, session: SessionId, request: Request) -> bool {
        if let Some(pending) = self.pending.get_mut(&session)
            && let Some(at) = pending.iter().position(|p| *p == request)
        {
            pending.swap_remove(at);
            self.journal.entry(session).or_default().push(request);
            return true;
        }
        let state = self.keys.entry(request.key).or_default();
        let holds_any = state.holders.get(&session).is_some_and(|c| !c.is_empty());
        let blocked = conflicting_holders(state, session, request.mode)
            .next()
            .is_some()
            || (!holds_any
                && state
                    .waiters
                    .iter()
                    .any(|w| w.session != session && w.request.mode.conflicts(request.mode)));
        if blocked {
            return false;
        }
        *state
            .holders
            .entry(session)
            .or_default()
            .slot(request.mode, request.scope) += 1;
        self.journal.entry(session).or_default().push(request);
        true
    }

    /// Releases one hold of `key` in `mode` at session scope; false if the
    /// session holds none.
    pub(in crate::engine) fn release(
        &mut self,
        session: SessionId,
        key: AdvisoryKey,
        mode: LockMode,
    ) -> bool {
        let released = self.drop_one(
            session,
            Request {
                key,
                mode,
                scope: Scope::Session,
            },
        );
        if released {
            self.grant_waiters(key);
        }
        released
    }

    fn drop_one(&mut self, session: SessionId, request: Request) -> bool {
        let Some(state) = self.keys.get_mut(&request.key) else {
            return false;
        };
        let Some(counts) = state.holders.get_mut(&session) else {
            return false;
        };
        let slot = counts.slot(request.mode, request.scope);
        if *slot == 0 {
            return false;
        }
        *slot -= 1;
        if counts.is_empty() {
            state.holders.remove(&session);
        }
        true
    }

    /// Releases every lock of `session` held at `scope` (every lock when
    /// `scope` is `None`: the session ended).
    pub(in crate::engine) fn release_all(&mut self, session: SessionId, scope: Option<Scope>) {
        let mut touched = Vec::new();
        for (key, state) in &mut self.keys {
            if let Some(counts) = state.holders.get_mut(&session) {
                match scope {
                    Some(Scope::Transaction) => {
                        counts.xact_shared = 0;
                        counts.xact_exclusive = 0;
                    }
                    Some(Scope::Session) => {
                        counts.session_shared = 0;
                        counts.session_exclusive = 0;
                    }
                    None => *counts = Counts::default(),
                }
                if counts.is_empty() {
                    state.holders.remove(&session);
                    touched.push(*key);
                }
            }
        }
        if scope.is_none() {
            self.journal.remove(&session);
            self.pending.remove(&session);
            self.blocked.remove(&session);
            for state in self.keys.values_mut() {
                state.waiters.retain(|w| w.session != session);
            }
        }
        for key in touched {
            self.grant_waiters(key);
        }
    }

    /// `session`'s statement must wait for `request`: it fails, and the session
    /// waits (see [`Self::take_blocked`]).
    pub(in crate::engine) fn block(&mut self, session: SessionId, request: Request) {
        self.blocked.insert(session, request);
    }

    /// What `session`'s failed statement stopped to wait for, if that is why it
    /// failed.
    pub(in crate::engine) fn take_blocked(&mut self, session: SessionId) -> Option<Request> {
        self.blocked.remove(&session)
    }

    /// A statement starts: nothing taken yet.
    pub(in crate::engine) fn begin_statement(&mut self, session: SessionId) {
        if let Some(journal) = self.journal.get_mut(&session) {
            journal.clear();
        }
    }

    /// The statement must run again after a wait: what it took is given back,
    /// and what it was granted but did not ask for again too.
    pub(in crate::engine) fn undo_statement(&mut self, session: SessionId) {
        let taken = self.journal.remove(&session).unwrap_or_default();
        for request in taken.into_iter().rev() {
            if self.drop_one(session, request) {
                self.grant_waiters(request.key);
            }
        }
    }

    /// The statement ended: grants it waited for and did not ask for again are
    /// given back.
    pub(in crate::engine) fn end_statement(&mut self, session: SessionId) {
        self.journal.remove(&session);
        let unused = self.pending.remove(&session).unwrap_or_default();
        for request in unused {
            if self.drop_one(session, request) {
                self.grant_waiters(request.key);
            }
        }
    }

    /// Queues `session` for `request`; the receiver answers once it holds it.
    pub(in crate::engine) fn enqueue(
        &mut self,
        session: SessionId,
        request: Request,
    ) -> oneshot::Receiver<()> {
        let (granted, receiver) = oneshot::channel();
        self.keys
            .entry(request.key)
            .or_default()
            .waiters
            .push_back(Waiter {
                session,
                request,
                granted,
            });
        self.grant_waiters(request.key);
        receiver
    }

    /// A waiter gave up (cancel, timeout, deadlock): it leaves the queue, and a
    /// grant that raced with it is given back.
    pub(in crate::engine) fn abandon(&mut self, session: SessionId, request: Request) {
        if let Some(state) = self.keys.get_mut(&request.key) {
            state
                .waiters
                .retain(|w| !(w.session == session && w.request == request));
        }
        if let Some(pending) = self.pending.get_mut(&session)
            && let Some(at) = pending.iter().position(|p| *p == request)
        {
            pending.swap_remove(at);
            self.drop_one(session, request);
        }
        self.grant_waiters(request.key);
    }

    /// Grants the waiters at the head of `key`'s queue that no longer conflict.
    fn grant_waiters(&mut self, key: AdvisoryKey) {
        let Some(state) = self.keys.get_mut(&key) else {
            return;
        };
        while let Some(first) = state.waiters.front() {
            if conflicting_holders(state, first.session, first.request.mode)
                .next()
                .is_some()
            {
                break;
            }
            let Some(waiter) = state.waiters.pop_front() else {
                break;
            };
            let request = waiter.request;
            if waiter.granted.send(()).is_err() {
                // Gone meanwhile: nothing to grant.
                continue;
            }
            *state
                .holders
                .entry(waiter.session)
                .or_default()
                .slot(request.mode, request.scope) += 1;
            self.pending
                .entry(waiter.session)
                .or_default()
                .push(request);
        }
        if state.holders.is_empty() && state.waiters.is_empty() {
            self.keys.remove(&key);
        }
    }

    /// The sessions holding `key` in a mode that conflicts with `mode`.
    pub(in crate::engine) fn blockers(
        &self,
        session: SessionId,
        key: AdvisoryKey,
        mode: LockMode,
    ) -> Vec<SessionId> {
        self.keys
            .get(&key)
            .map(|state| conflicting_holders(state, session, mode).collect())
            .unwrap_or_default()
    }

    /// Every hold and wait, for `pg_locks`: key, session, mode, granted.
    pub(in crate::engine) fn rows(&self) -> Vec<(AdvisoryKey, SessionId, LockMode, bool)> {
        let mut rows = Vec::new();
        for (key, state) in &self.keys {
            for (session, counts) in &state.holders {
                for mode in [LockMode::Shared, LockMode::Exclusive] {
                    if counts.holds(mode) {
                        rows.push((*key, *session, mode, true));
                    }
                }
            }
            for waiter in &state.waiters {
                rows.push((*key, waiter.session, waiter.request.mode, false));
            }
        }
        rows
    }
}

fn conflicting_holders(
    state: &KeyState,
    session: SessionId,
    mode: LockMode,
) -> impl Iterator<Item = SessionId> + '_ {
    state.holders.iter().filter_map(move |(holder, counts)| {
        let conflicts = *holder != session
            && [LockMode::Shared, LockMode::Exclusive]
                .into_iter()
                .any(|held| counts.holds(held) && held.conflicts(mode));
        conflicts.then_some(*holder)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exclusive(n: i64) -> Request {
        Request {
            key: AdvisoryKey::Big(n),
            mode: LockMode::Exclusive,
            scope: Scope::Session,
        }
    }

    fn shared(n: i64) -> Request {
        Request {
            mode: LockMode::Shared,
            ..exclusive(n)
        }
    }

    #[test]
    fn reentrant_and_released_as_often_as_taken() {
        let mut locks = AdvisoryLocks::default();
        assert!(locks.try_acquire(1, exclusive(7)));
        assert!(locks.try_acquire(1, exclusive(7)));
        assert!(!locks.try_acquire(2, exclusive(7)));
        assert!(locks.release(1, AdvisoryKey::Big(7), LockMode::Exclusive));
        assert!(!locks.try_acquire(2, shared(7)));
        assert!(locks.release(1, AdvisoryKey::Big(7), LockMode::Exclusive));
        assert!(!locks.release(1, AdvisoryKey::Big(7), LockMode::Exclusive));
        assert!(locks.try_acquire(2, shared(7)));
        assert!(locks.try_acquire(3, shared(7)));
    }

    #[test]
    fn key_spaces_and_own_locks_do_not_conflict() {
        let mut locks = AdvisoryLocks::default();
        assert!(locks.try_acquire(1, exclusive(1)));
        let pair = Request {
            key: AdvisoryKey::Pair(0, 1),
            ..exclusive(1)
        };
        assert!(locks.try_acquire(2, pair));
        assert!(
            locks.try_acquire(1, shared(1)),
            "a session's own locks never conflict"
        );
    }

    #[test]
    fn waiters_are_granted_in_order_and_block_later_sharers() {
        let mut locks = AdvisoryLocks::default();
        assert!(locks.try_acquire(1, shared(5)));
        let mut waiting = locks.enqueue(2, exclusive(5));
        assert!(waiting.try_recv().is_err());
        assert!(
            !locks.try_acquire(3, shared(5)),
            "a sharer queues behind the exclusive waiter"
        );
        assert!(locks.release(1, AdvisoryKey::Big(5), LockMode::Shared));
        assert!(waiting.try_recv().is_ok(), "granted once the sharer left");
        assert_eq!(
            locks.blockers(3, AdvisoryKey::Big(5), LockMode::Shared),
            vec![2]
        );
        // The grant is pending until the statement asks again, and counted once.
        locks.begin_statement(2);
        assert!(locks.try_acquire(2, exclusive(5)));
        locks.end_statement(2);
        assert!(locks.release(2, AdvisoryKey::Big(5), LockMode::Exclusive));
        assert!(locks.try_acquire(3, shared(5)));
    }

    #[test]
    fn a_statement_run_again_takes_each_lock_once() {
        let mut locks = AdvisoryLocks::default();
        assert!(locks.try_acquire(9, exclusive(2)));
        locks.begin_statement(1);
        assert!(locks.try_acquire(1, exclusive(1)));
        assert!(!locks.try_acquire(1, exclusive(2)));
        locks.undo_statement(1);
        let mut waiting = locks.enqueue(1, exclusive(2));
        locks.release_all(9, None);
        assert!(waiting.try_recv().is_ok());
        locks.begin_statement(1);
        assert!(locks.try_acquire(1, exclusive(1)));
        assert!(locks.try_acquire(1, exclusive(2)));
        locks.end_statement(1);
        assert!(locks.release(1, AdvisoryKey::Big(1), LockMode::Exclusive));
        assert!(!locks.release(1, AdvisoryKey::Big(1), LockMode::Exclusive));
        assert!(locks.release(1, AdvisoryKey::Big(2), LockMode::Exclusive));
    }

    #[test]
    fn transaction_locks_go_with_the_transaction() {
        let mut locks = AdvisoryLocks::default();
        let xact = Request {
            scope: Scope::Transaction,
            ..exclusive(3)
        };
        assert!(locks.try_acquire(1, xact));
        assert!(locks.try_acquire(1, exclusive(4)));
        locks.release_all(1, Some(Scope::Transaction));
        assert!(locks.try_acquire(2, exclusive(3)));
        assert!(!locks.try_acquire(2, exclusive(4)));
        locks.release_all(1, None);
        assert!(locks.try_acquire(2, exclusive(4)));
    }
}
