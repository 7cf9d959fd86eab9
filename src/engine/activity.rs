//! What a live session is doing, as `pg_stat_activity` shows it: who it is,
//! where its client is, the query it runs or ran last, since when, and
//! whether it is inside a transaction.
//!
//! The front ends report the two moments PostgreSQL reports: a query starts
//! (a simple Query message, an Execute, an HTTP statement) and the session
//! goes back to wait for its client. Both are one uncontended lock and one
//! clock read; the query's text goes into a buffer kept from one query to the
//! next, so reporting allocates nothing once the session is warm. What a
//! session waits for inside a statement (the write permit, an advisory lock)
//! is not reported here: the lock table knows it, and `pg_stat_activity` asks
//! it when read.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use super::access::Role;
use super::backend_kind::BackendKind;
use super::identity::{DEFAULT_NAME, SessionIdentity};
use super::metrics::Metrics;
use super::settings::SharedSettings;

/// PostgreSQL's `track_activity_query_size` default: the query text kept is at
/// most this many bytes, less the C string's terminator.
const QUERY_SIZE: usize = 1024;

/// `pg_stat_activity.state`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Logging in: no state yet (NULL, as in PostgreSQL).
    Starting,
    Active,
    Idle,
    IdleInTransaction,
    IdleInFailedTransaction,
}

/// The states as metric labels, in [`State::index`] order.
pub const SESSION_STATES: [&str; 5] = [
    "starting",
    "active",
    "idle",
    "idle_in_transaction",
    "idle_in_transaction_aborted",
];

impl State {
    pub(super) fn index(self) -> usize {
        match self {
            State::Starting => 0,
            State::Active => 1,
            State::Idle => 2,
            State::IdleInTransaction => 3,
            State::IdleInFailedTransaction => 4,
        }
    }

    pub(super) fn name(self) -> Option<&'static str> {
        match self {
            State::Starting => None,
            State::Active => Some("active"),
            State::Idle => Some("idle"),
            State::IdleInTransaction => Some("idle in transaction"),
            State::IdleInFailedTransaction => Some("idle in transaction (aborted)"),
        }
    }
}

/// One session's activity, shared between the session and the registry that
/// lists it.
#[derive(Debug)]
pub(super) struct Activity {
    pid: i32,
    backend_start: SystemTime,
    /// Queries that take this long are logged (`--log-min-duration-statement`).
    slow: Option<Duration>,
    /// The session's settings (`application_name` is read from them).
    settings: SharedSettings,
    /// Queries' durations are counted there.
    metrics: Arc<Metrics>,
    now: Mutex<Doing>,
}

/// Where a session's client connects from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClientAddress {
    Tcp(SocketAddr),
    /// A Unix-domain socket: `pg_stat_activity` shows no address and port -1,
    /// and logs say `[local]`, as PostgreSQL's do.
    Local,
}

impl std::fmt::Display for ClientAddress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientAddress::Tcp(address) => address.fmt(f),
            ClientAddress::Local => f.write_str("[local]"),
        }
    }
}

/// What `pg_stat_activity` reads of a session, as of the last report.
#[derive(Debug, Clone)]
pub(super) struct Doing {
    pub(super) kind: BackendKind,
    pub(super) user: Arc<str>,
    pub(super) database: Arc<str>,
    pub(super) role: Role,
    pub(super) client: Option<ClientAddress>,
    pub(super) state: State,
    pub(super) query: String,
    pub(super) query_start: Option<SystemTime>,
    pub(super) xact_start: Option<SystemTime>,
    pub(super) state_change: SystemTime,
}

/// A session's row, read at one moment.
#[derive(Debug, Clone)]
pub(super) struct Snapshot {
    pub(super) backend_start: SystemTime,
    pub(super) doing: Doing,
}

impl Activity {
    pub(super) fn new(
        pid: i32,
        role: Role,
        slow: Option<Duration>,
        settings: SharedSettings,
        metrics: Arc<Metrics>,
    ) -> Activity {
        let now = SystemTime::now();
        Activity {
            pid,
            backend_start: now,
            slow,
            settings,
            metrics,
            now: Mutex::new(Doing {
                kind: BackendKind::Postgres,
                user: DEFAULT_NAME.clone(),
                database: DEFAULT_NAME.clone(),
                role,
                client: None,
                state: State::Starting,
                query: String::new(),
                query_start: None,
                xact_start: None,
                state_change: now,
            }),
        }
    }

    fn doing(&self) -> MutexGuard<'_, Doing> {
        self.now.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Who the session is, once its client said so.
    pub(super) fn identify(&self, identity: &SessionIdentity) {
        let mut doing = self.doing();
        doing.user = identity.user.clone();
        doing.database = identity.database.clone();
        doing.role = identity.role;
    }

    /// Which front end serves the session.
    pub(super) fn serves(&self, kind: BackendKind) {
        self.doing().kind = kind;
    }

    /// Where the session's client connects from.
    pub(super) fn client(&self, client: Option<ClientAddress>) {
        self.doing().client = client;
    }

    /// A query starts: the session is active, running the text of `parts`
    /// joined by `; ` (an HTTP request's statements). A query outside a
    /// transaction block starts a transaction too.
    pub(super) fn query_starts<'a>(&self, parts: impl IntoIterator<Item = &'a str>) {
        let now = SystemTime::now();
        let mut doing = self.doing();
        if doing.state == State::Active {
            // The last one ended without a wait for the client (pipelined).
            self.query_ended(&doing, now);
        }
        doing.state = State::Active;
        doing.query.clear();
        for (i, part) in parts.into_iter().enumerate() {
            if i > 0 {
                doing.query.push_str("; ");
            }
            let room = (QUERY_SIZE - 1).saturating_sub(doing.query.len());
            doing.query.push_str(truncated(part, room));
        }
        doing.query_start = Some(now);
        doing.xact_start.get_or_insert(now);
        doing.state_change = now;
    }

    /// The session waits for its client again, in `state` (one of the idle
    /// ones).
    pub(super) fn waits_for_client(&self, state: State) {
        let mut doing = self.doing();
        if doing.state == state {
            return;
        }
        let now = SystemTime::now();
        if doing.state == State::Active {
            self.query_ended(&doing, now);
        }
        doing.state = state;
        doing.state_change = now;
        // An aborted transaction has ended, though its block goes on.
        if state != State::IdleInTransaction {
            doing.xact_start = None;
        }
    }

    /// Counts the query that ends at `now`, and logs it if it took
    /// `--log-min-duration-statement` or longer, as PostgreSQL does.
    fn query_ended(&self, doing: &Doing, now: SystemTime) {
        let Some(start) = doing.query_start else {
            return;
        };
        let took = now.duration_since(start).unwrap_or_default();
        self.metrics.query(doing.kind.index(), took);
        if self.slow.is_none_or(|slow| took < slow) {
            return;
        }
        tracing::info!(
            target: "litewire::statements",
            pid = self.pid,
            user = %doing.user,
            application = %self.application_name(),
            duration_ms = took.as_secs_f64() * 1000.0,
            "duration: {:.3} ms  statement: {}",
            took.as_secs_f64() * 1000.0,
            doing.query
        );
    }

    /// `application_name` as the session set it.
    pub(super) fn application_name(&self) -> String {
        self.settings
            .lock()
            .get("application_name")
            .unwrap_or_default()
    }

    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            backend_start: self.backend_start,
            doing: self.doing().clone(),
        }
    }
}

/// `text` cut at `max` bytes, on a character boundary.
fn truncated(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_query_is_cut_on_a_character_boundary() {
        let text = "é".repeat(600);
        let cut = truncated(&text, QUERY_SIZE - 1);
        assert_eq!(cut.len(), 1022);
        assert_eq!(truncated("select 1", 1023), "select 1");
    }

    #[test]
    fn states_follow_the_transaction() {
        let settings = SharedSettings::new(crate::engine::Settings::default());
        let activity = Activity::new(1, Role::ReadWrite, None, settings, Arc::default());
        assert_eq!(activity.snapshot().doing.state.name(), None);
        activity.query_starts(["begin"]);
        let begun = activity.snapshot().doing;
        assert_eq!(begun.state.name(), Some("active"));
        assert_eq!(begun.xact_start, begun.query_start);
        activity.waits_for_client(State::IdleInTransaction);
        activity.query_starts(["select 1"]);
        let inside = activity.snapshot().doing;
        assert_eq!(inside.xact_start, begun.xact_start);
        activity.waits_for_client(State::IdleInFailedTransaction);
        let failed = activity.snapshot().doing;
        assert_eq!(failed.state.name(), Some("idle in transaction (aborted)"));
        assert_eq!(failed.xact_start, None);
        activity.waits_for_client(State::Idle);
        let idle = activity.snapshot().doing;
        assert_eq!(idle.state.name(), Some("idle"));
        assert_eq!(idle.xact_start, None);
        assert_eq!(idle.query, "select 1");
    }
}
