//! LISTEN and NOTIFY: channels between sessions.
//!
//! A session's `NOTIFY` (or `pg_notify()`) is queued in its transaction and
//! delivered only when that transaction commits, once per listening session,
//! in commit order (the committing session delivers while it still holds the
//! write permit, when it wrote); a notification repeated within one transaction
//! (same channel and payload) is delivered once, as PostgreSQL does. Each
//! listener has a queue of its own, which its front end empties whenever the
//! session is idle (or after its current statement).
//!
//! A listener that does not read cannot grow the server's memory without bound:
//! its queue holds at most [`QUEUE_BYTES`]. A transaction whose notifications
//! would not fit in a listener's queue fails at COMMIT with 54000 (`too many
//! notifications in the NOTIFY queue`), as PostgreSQL's NOTIFY does when its
//! queue is full, and the notifications already queued stay.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use tokio::sync::Notify;

use super::control::SessionId;
use crate::error::{Error, ErrorKind, SqlState};

/// How many bytes of notifications one listener's queue holds at most.
pub(super) const QUEUE_BYTES: usize = 8 << 20;

/// The longest payload PostgreSQL accepts (its queue pages' size, less headers).
const MAX_PAYLOAD: usize = 7999;

/// One notification, as the front end sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Notification {
    /// The pid of the session that sent it.
    pub pid: i32,
    pub channel: String,
    pub payload: String,
}

impl Notification {
    fn size(&self) -> usize {
        self.channel.len() + self.payload.len() + 16
    }
}

/// Every listening session's queue, by channel.
#[derive(Debug, Default)]
pub(super) struct Notifier {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    channels: HashMap<String, HashSet<SessionId>>,
    listeners: HashMap<SessionId, Arc<Inbox>>,
}

/// A session's queue of notifications, and the wake-up its front end waits on.
#[derive(Debug, Default)]
pub struct Inbox {
    queue: Mutex<Queue>,
    arrived: Notify,
    /// Whether the session ever listened: until then nothing can arrive, and
    /// its front end need not wait for anything.
    listened: AtomicBool,
}

#[derive(Debug, Default)]
struct Queue {
    items: VecDeque<Notification>,
    bytes: usize,
}

impl Inbox {
    /// Whether notifications may arrive: the session has listened.
    pub fn may_receive(&self) -> bool {
        self.listened.load(Ordering::Acquire)
    }

    /// The notifications queued so far, oldest first.
    pub fn take(&self) -> Vec<Notification> {
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        queue.bytes = 0;
        queue.items.drain(..).collect()
    }

    /// Waits until a notification may have arrived.
    pub async fn arrived(&self) {
        self.arrived.notified().await;
    }

    fn room(&self) -> usize {
        let queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        QUEUE_BYTES.saturating_sub(queue.bytes)
    }

    fn push(&self, notification: Notification) {
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        queue.bytes += notification.size();
        queue.items.push_back(notification);
        drop(queue);
        self.arrived.notify_one();
    }
}

/// What a transaction will change in LISTEN state and send, at its commit.
#[derive(Debug, Default, Clone)]
pub(super) struct Pending {
    /// Channel changes in order: `Some(channel)` listens, `Some` with `false`
    /// unlistens, `None` unlistens from everything.
    listens: Vec<(Option<String>, bool)>,
    notifications: Vec<(String, String)>,
}

impl Pending {
    pub(super) fn is_empty(&self) -> bool {
        self.listens.is_empty() && self.notifications.is_empty()
    }

    /// Adds `other`'s changes and notifications after these.
    pub(super) fn append(&mut self, other: Pending) {
        self.listens.extend(other.listens);
        for (channel, payload) in other.notifications {
            if !self
                .notifications
                .contains(&(channel.clone(), payload.clone()))
            {
                self.notifications.push((channel, payload));
            }
        }
    }

    pub(super) fn listen(&mut self, channel: &str) {
        self.listens.push((Some(channel.to_owned()), true));
    }

    pub(super) fn unlisten(&mut self, channel: Option<&str>) {
        self.listens.push((channel.map(str::to_owned), false));
    }

    /// Queues a notification, checking it as PostgreSQL does; the same channel
    /// and payload twice in one transaction is sent once.
    pub(super) fn notify(&mut self, channel: &str, payload: &str) -> Result<(), Error> {
        if channel.is_empty() {
            return Err(Error::new(
                ErrorKind::InvalidParameterValue,
                "channel name cannot be empty",
            ));
        }
        if channel.len() >= 64 {
            return Err(Error::new(
                ErrorKind::InvalidParameterValue,
                "channel name too long",
            ));
        }
        if payload.len() > MAX_PAYLOAD {
            return Err(Error::new(
                ErrorKind::InvalidParameterValue,
                "payload string too long",
            ));
        }
        let entry = (channel.to_owned(), payload.to_owned());
        if !self.notifications.contains(&entry) {
            self.notifications.push(entry);
        }
        Ok(())
    }
}

impl Notifier {
    fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The inbox of `session`, made on first use.
    pub(super) fn inbox(&self, session: SessionId) -> Arc<Inbox> {
        self.state().listeners.entry(session).or_default().clone()
    }

    /// The channels `session` listens on, sorted.
    pub(super) fn channels(&self, session: SessionId) -> Vec<String> {
        let state = self.state();
        let mut channels: Vec<String> = state
            .channels
            .iter()
            .filter(|(_, sessions)| sessions.contains(&session))
            .map(|(channel, _)| channel.clone())
            .collect();
        channels.sort();
        channels
    }

    /// Whether every listener has room for `pending`'s notifications (checked
    /// before the transaction commits).
    pub(super) fn check_room(&self, pending: &Pending) -> Result<(), Error> {
        let state = self.state();
        let mut need: HashMap<SessionId, usize> = HashMap::new();
        for (channel, payload) in &pending.notifications {
            for session in state.channels.get(channel).into_iter().flatten() {
                *need.entry(*session).or_default() += channel.len() + payload.len() + 16;
            }
        }
        for (session, bytes) in need {
            if state
                .listeners
                .get(&session)
                .is_some_and(|inbox| inbox.room() < bytes)
            {
                return Err(Error::state(
                    SqlState::PROGRAM_LIMIT_EXCEEDED,
                    "too many notifications in the NOTIFY queue",
                ));
            }
        }
        Ok(())
    }

    /// Applies a committed transaction's LISTEN changes, then delivers its
    /// notifications to every session listening on their channels (the sender
    /// included, as PostgreSQL does).
    pub(super) fn commit(&self, session: SessionId, pid: i32, pending: Pending) {
        let mut state = self.state();
        for (channel, listen) in pending.listens {
            match (channel, listen) {
                (Some(channel), true) => {
                    state.channels.entry(channel).or_default().insert(session);
                    state
                        .listeners
                        .entry(session)
                        .or_default()
                        .listened
                        .store(true, Ordering::Release);
                }
                (Some(channel), false) => {
                    if let Some(sessions) = state.channels.get_mut(&channel) {
                        sessions.remove(&session);
                        if sessions.is_empty() {
                            state.channels.remove(&channel);
                        }
                    }
                }
                (None, _) => forget(&mut state, session),
            }
        }
        for (channel, payload) in pending.notifications {
            let Some(sessions) = state.channels.get(&channel) else {
                continue;
            };
            for listener in sessions {
                if let Some(inbox) = state.listeners.get(listener) {
                    inbox.push(Notification {
                        pid,
                        channel: channel.clone(),
                        payload: payload.clone(),
                    });
                }
            }
        }
    }

    /// The session ended: it listens no more.
    pub(super) fn session_ended(&self, session: SessionId) {
        let mut state = self.state();
        forget(&mut state, session);
        state.listeners.remove(&session);
    }
}

fn forget(state: &mut State, session: SessionId) {
    state.channels.retain(|_, sessions| {
        sessions.remove(&session);
        !sessions.is_empty()
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delivered_at_commit_once_per_listener_deduplicated() {
        let notifier = Notifier::default();
        let mut listen = Pending::default();
        listen.listen("jobs");
        notifier.commit(1, 101, listen);
        let inbox = notifier.inbox(1);
        let mut sent = Pending::default();
        sent.notify("jobs", "a").unwrap();
        sent.notify("jobs", "a").unwrap();
        sent.notify("jobs", "b").unwrap();
        sent.notify("other", "c").unwrap();
        assert!(inbox.take().is_empty(), "nothing before the commit");
        notifier.check_room(&sent).unwrap();
        notifier.commit(2, 202, sent);
        let got: Vec<(i32, String, String)> = inbox
            .take()
            .into_iter()
            .map(|n| (n.pid, n.channel, n.payload))
            .collect();
        assert_eq!(
            got,
            vec![
                (202, "jobs".into(), "a".into()),
                (202, "jobs".into(), "b".into())
            ]
        );
        assert_eq!(notifier.channels(1), vec!["jobs".to_owned()]);
        let mut unlisten = Pending::default();
        unlisten.unlisten(None);
        notifier.commit(1, 101, unlisten);
        assert!(notifier.channels(1).is_empty());
    }

    #[test]
    fn payloads_and_queues_are_bounded() {
        let mut pending = Pending::default();
        assert!(pending.notify("c", &"x".repeat(7999)).is_ok());
        assert!(pending.notify("c", &"x".repeat(8000)).is_err());
        assert!(pending.notify("", "x").is_err());
        let notifier = Notifier::default();
        let mut listen = Pending::default();
        listen.listen("c");
        notifier.commit(1, 1, listen);
        let mut big = Pending::default();
        for i in 0..QUEUE_BYTES / 8000 + 1 {
            big.notify("c", &format!("{i:>7990}")).unwrap();
        }
        let error = notifier.check_room(&big).unwrap_err();
        assert_eq!(
            error.kind,
            ErrorKind::SqlState(SqlState::PROGRAM_LIMIT_EXCEEDED)
        );
    }
}
