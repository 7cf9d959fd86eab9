//! Sequence values: the server's counters and each session's `currval` and
//! `lastval` values (the SQL functions that use them are in
//! `functions::sequences`).
//!
//! Definitions and persisted state are rows of `litewire_sequences` in the
//! database file (see `sql::dialect::sequences`, which writes them). PostgreSQL's
//! rule that `nextval` is never undone, not even by the ROLLBACK of the
//! transaction that called it, cannot be had from SQLite alone: a connection
//! cannot commit anything on its own inside a transaction, and another
//! connection cannot write while the transaction holds the file's write lock.
//! So the counters live in memory, one per sequence for the whole server
//! ([`Sequences`]), and the row is only their durable copy:
//! - `nextval` takes the next value from the in-memory counter (under its lock:
//!   concurrent sessions never get the same value) and writes it to the row in
//!   the caller's own transaction. A statement that calls it is classified as a
//!   write, so it runs on the writer connection under the write permit.
//! - ROLLBACK undoes the row's update but not the counter, so the next call goes
//!   on from the counter. The counter is read from the row again only when the
//!   row's `token` changed (the sequence was created again or restarted) or after
//!   a restart of the server.
//! - At a clean shutdown every counter is written back to its row
//!   (`Sequences::persist`), so values handed out in rolled-back transactions are
//!   not handed out again after a restart.
//!
//! Crash semantics: every value used by a committed transaction was written to
//! the row in that same transaction, so it is never handed out again after a
//! crash; values handed out only in transactions that rolled back (or were in
//! flight at the crash) since the last clean shutdown may be. This is
//! PostgreSQL's own guarantee (it flushes a sequence's WAL record only with a
//! commit).
//!
//! `currval` and `lastval` answer from the session's own values, which follow the
//! session from connection to connection: each connection's functions use the
//! values of the session that took it last (see `functions::context`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use sqlx::SqliteConnection;

/// Catalog oids of sequences: this plus their row's `oid`.
pub(super) const SEQUENCE_OID: i64 = 1 << 28;

/// The server's counters, by sequence name.
#[derive(Debug, Default)]
pub(super) struct Sequences {
    pub(super) counters: Mutex<HashMap<String, Counter>>,
}

/// A sequence's state in memory, for the incarnation its row's `token` names,
/// with the definition it was last advanced by.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Counter {
    pub(super) token: i64,
    pub(super) last_value: i64,
    pub(super) is_called: bool,
    pub(super) bounds: Bounds,
    /// The table whose rowid column owns the sequence: rows SQLite numbered
    /// itself (an `INSERT ... SELECT`, COPY, the HTTP port) are passed over.
    pub(super) numbers: Option<Arc<str>>,
}

/// How a sequence advances.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Bounds {
    pub(super) increment: i64,
    pub(super) min: i64,
    pub(super) max: i64,
    pub(super) cycle: bool,
}

impl Sequences {
    /// Writes every counter back to its row (at shutdown, outside any transaction).
    pub(super) async fn persist(&self, conn: &mut SqliteConnection) {
        let counters: Vec<(String, Counter)> = match self.counters.lock() {
            Ok(counters) => counters
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            Err(_) => return,
        };
        for (name, counter) in counters {
            let written = sqlx::query(
                "UPDATE main.litewire_sequences SET last_value = ?1, is_called = ?2 \
                 WHERE name = ?3 AND token = ?4",
            )
            .bind(counter.last_value)
            .bind(counter.is_called)
            .bind(&name)
            .bind(counter.token)
            .execute(&mut *conn)
            .await;
            if let Err(error) = written {
                tracing::warn!(%error, sequence = %name, "saving a sequence at shutdown");
            }
        }
    }
}

/// A session's `currval` and `lastval`.
#[derive(Debug, Default)]
pub(super) struct SessionValues {
    values: Mutex<SessionState>,
    /// The session is describing a statement: SQLx's type inference steps a
    /// query once when SQLite calls it read-only, which `SELECT nextval(...)`
    /// is to SQLite; that step must not advance a sequence.
    describing: AtomicBool,
}

/// Marks a session as describing a statement until dropped.
pub(super) struct Describing(Arc<SessionValues>);

impl Drop for Describing {
    fn drop(&mut self) {
        self.0.describing.store(false, Ordering::Release);
    }
}

#[derive(Debug, Default)]
struct SessionState {
    current: HashMap<String, i64>,
    last: Option<String>,
}

impl SessionValues {
    /// Marks the session as describing a statement (see `describing`).
    pub(super) fn describing(self: &Arc<Self>) -> Describing {
        self.describing.store(true, Ordering::Release);
        Describing(self.clone())
    }

    /// Forgets every value (`DISCARD ALL`).
    pub(super) fn clear(&self) {
        if let Ok(mut values) = self.values.lock() {
            *values = SessionState::default();
        }
    }

    /// Records a value `nextval` (`last`) or `setval` handed out.
    pub(super) fn record(&self, name: &str, value: i64, last: bool) {
        if let Ok(mut values) = self.values.lock() {
            values.current.insert(name.to_owned(), value);
            if last {
                values.last = Some(name.to_owned());
            }
        }
    }
}

impl SessionValues {
    /// The value `nextval` last returned for `name` in this session.
    pub(super) fn current(&self, name: &str) -> Option<i64> {
        self.values.lock().ok()?.current.get(name).copied()
    }

    /// The sequence `nextval` last advanced in this session, and its value.
    pub(super) fn last(&self) -> Option<(String, i64)> {
        let values = self.values.lock().ok()?;
        let name = values.last.clone()?;
        let value = values.current.get(&name).copied()?;
        Some((name, value))
    }

    /// Whether the session is only describing a statement (see `describing`).
    pub(super) fn is_describing(&self) -> bool {
        self.describing.load(Ordering::Acquire)
    }
}

/// The value after `last`, by the sequence's increment, bounds and CYCLE.
pub(super) fn advance(name: &str, bounds: &Bounds, last: i64) -> Result<i64, String> {
    let next = last.checked_add(bounds.increment);
    match next {
        Some(next) if next >= bounds.min && next <= bounds.max => Ok(next),
        _ if bounds.cycle => Ok(if bounds.increment > 0 {
            bounds.min
        } else {
            bounds.max
        }),
        _ if bounds.increment > 0 => Err(format!(
            "nextval: reached maximum value of sequence \"{name}\" ({})",
            bounds.max
        )),
        _ => Err(format!(
            "nextval: reached minimum value of sequence \"{name}\" ({})",
            bounds.min
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bounds(increment: i64, min: i64, max: i64, cycle: bool) -> Bounds {
        Bounds {
            increment,
            min,
            max,
            cycle,
        }
    }

    #[test]
    fn advance_stops_or_cycles_at_the_bounds() {
        assert_eq!(advance("s", &bounds(1, 1, 3, false), 2), Ok(3));
        assert!(
            advance("s", &bounds(1, 1, 3, false), 3)
                .unwrap_err()
                .contains("reached maximum value of sequence \"s\" (3)")
        );
        assert_eq!(advance("s", &bounds(1, 1, 3, true), 3), Ok(1));
        assert_eq!(advance("s", &bounds(-2, -5, -1, true), -5), Ok(-1));
        assert!(
            advance("s", &bounds(-1, 1, 9, false), 1)
                .unwrap_err()
                .contains("minimum")
        );
        assert!(advance("s", &bounds(1, 1, i64::MAX, false), i64::MAX).is_err());
    }
}
