//! The server's counters and histograms, for Prometheus (`GET /metrics`).
//!
//! Kept as plain atomics, added to where the event happens: a statement's
//! outcome and the rows it returned (an add each), a query's duration (three),
//! a read or write of a client's socket (one), a write transaction's end
//! and its hold on the write permit, a wait for the permit, a stopped
//! statement (failed logins are counted by `auth`). Nothing is allocated or locked on the statement
//! path, and no library sits in it. What can be read when scraped (sessions
//! by state, pool connections, the WAL's size, the process's memory) is read
//! then, not counted.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use super::backend_kind::{BackendKind, FRONTENDS};
use super::control::StopReason;
use crate::sql::CommandKind;

/// A histogram's upper bounds, in seconds: from half a millisecond (a point
/// read) to ten seconds.
pub const BUCKETS: [f64; 14] = [
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// [`BUCKETS`] in nanoseconds, which observations compare with.
const BUCKET_NANOS: [u64; BUCKETS.len()] = {
    let mut nanos = [0; BUCKETS.len()];
    let mut i = 0;
    while i < BUCKETS.len() {
        nanos[i] = (BUCKETS[i] * 1e9) as u64;
        i += 1;
    }
    nanos
};

/// Durations counted into [`BUCKETS`] (and one more, `+Inf`).
#[derive(Debug, Default)]
pub struct Histogram {
    buckets: [AtomicU64; BUCKETS.len() + 1],
    sum_nanos: AtomicU64,
}

impl Histogram {
    pub(super) fn observe(&self, took: Duration) {
        let nanos = u64::try_from(took.as_nanos()).unwrap_or(u64::MAX);
        let bucket = BUCKET_NANOS
            .iter()
            .position(|bound| nanos <= *bound)
            .unwrap_or(BUCKETS.len());
        self.buckets[bucket].fetch_add(1, Ordering::Relaxed);
        self.sum_nanos.fetch_add(nanos, Ordering::Relaxed);
    }

    /// The cumulative count at each bound (the last: every observation), and
    /// the sum in seconds.
    pub fn read(&self) -> (Vec<u64>, f64) {
        let mut total = 0;
        let cumulative = self
            .buckets
            .iter()
            .map(|bucket| {
                total += bucket.load(Ordering::Relaxed);
                total
            })
            .collect();
        let sum = self.sum_nanos.load(Ordering::Relaxed) as f64 / 1e9;
        (cumulative, sum)
    }
}

/// The statement kinds counted apart (`kind` label).
pub const STATEMENT_KINDS: [&str; 8] = [
    "select",
    "insert",
    "update",
    "delete",
    "transaction",
    "copy",
    "fetch",
    "other",
];

/// Why statements were stopped (`reason` label), as [`StopReason`] numbers them.
pub const STOP_REASONS: [&str; 4] = ["cancel", "timeout", "shutdown", "terminate"];

#[derive(Debug, Default)]
pub struct Metrics {
    /// By kind, then succeeded (0) or failed (1).
    statements: [[AtomicU64; 2]; STATEMENT_KINDS.len()],
    /// Queries' durations, by front end.
    pub queries: [Histogram; FRONTENDS.len()],
    /// Transactions ended, PostgreSQL's way: a block (explicit, or a query
    /// string's implicit one) or a statement run outside any.
    pub commits: AtomicU64,
    pub rollbacks: AtomicU64,
    /// Waits given up with 40P01.
    pub deadlocks: AtomicU64,
    /// Sessions started, every front end.
    pub sessions: AtomicU64,
    /// Waits for the write permit that did wait.
    pub permit_waits: Histogram,
    /// How long the write permit was held, each time.
    pub permit_holds: Histogram,
    stopped: [AtomicU64; STOP_REASONS.len()],
    /// Rows statements returned to clients.
    pub rows_returned: AtomicU64,
    /// Bytes received from and sent to clients, by front end.
    received: [AtomicU64; FRONTENDS.len()],
    sent: [AtomicU64; FRONTENDS.len()],
}

impl Metrics {
    pub(super) fn statement(&self, kind: CommandKind, failed: bool) {
        let kind = match kind {
            CommandKind::Select | CommandKind::CreateTableAs => 0,
            CommandKind::Insert => 1,
            CommandKind::Update => 2,
            CommandKind::Delete => 3,
            CommandKind::Begin | CommandKind::Commit | CommandKind::Rollback => 4,
            CommandKind::Copy => 5,
            CommandKind::Fetch => 6,
            CommandKind::Merge | CommandKind::Other(_) => 7,
        };
        self.statements[kind][usize::from(failed)].fetch_add(1, Ordering::Relaxed);
    }

    /// A query of the front end at `frontend` in [`FRONTENDS`] took `took`.
    pub(super) fn query(&self, frontend: usize, took: Duration) {
        if let Some(histogram) = self.queries.get(frontend) {
            histogram.observe(took);
        }
    }

    /// `bytes` came from a client of `frontend`.
    pub fn received(&self, frontend: BackendKind, bytes: usize) {
        self.received[frontend.index()].fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// `bytes` went to a client of `frontend`.
    pub fn sent(&self, frontend: BackendKind, bytes: usize) {
        self.sent[frontend.index()].fetch_add(bytes as u64, Ordering::Relaxed);
    }

    /// Bytes received and sent, by front end.
    pub fn traffic(&self) -> impl Iterator<Item = (&'static str, u64, u64)> + '_ {
        FRONTENDS
            .iter()
            .zip(self.received.iter().zip(&self.sent))
            .map(|(frontend, (received, sent))| {
                (
                    *frontend,
                    received.load(Ordering::Relaxed),
                    sent.load(Ordering::Relaxed),
                )
            })
    }

    pub(super) fn stopped(&self, reason: StopReason) {
        self.stopped[stop_index(reason)].fetch_add(1, Ordering::Relaxed);
    }

    /// Statements by kind: (kind, succeeded, failed).
    pub fn statements(&self) -> impl Iterator<Item = (&'static str, u64, u64)> + '_ {
        STATEMENT_KINDS
            .iter()
            .zip(&self.statements)
            .map(|(kind, [ok, failed])| {
                (
                    *kind,
                    ok.load(Ordering::Relaxed),
                    failed.load(Ordering::Relaxed),
                )
            })
    }

    /// Stopped statements by reason.
    pub fn stops(&self) -> impl Iterator<Item = (&'static str, u64)> + '_ {
        STOP_REASONS
            .iter()
            .zip(&self.stopped)
            .map(|(reason, count)| (*reason, count.load(Ordering::Relaxed)))
    }
}

/// `reason`'s place in [`STOP_REASONS`].
fn stop_index(reason: StopReason) -> usize {
    match reason {
        StopReason::Cancel => 0,
        StopReason::Timeout => 1,
        StopReason::Shutdown => 2,
        StopReason::Terminate => 3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_histogram_counts_cumulatively() {
        let histogram = Histogram::default();
        histogram.observe(Duration::from_micros(300));
        histogram.observe(Duration::from_millis(3));
        histogram.observe(Duration::from_secs(60));
        let (cumulative, sum) = histogram.read();
        assert_eq!(cumulative.len(), BUCKETS.len() + 1);
        assert_eq!(&cumulative[..4], &[1, 1, 1, 2]);
        assert_eq!(cumulative.last(), Some(&3));
        assert!((sum - 60.0033).abs() < 1e-9);
    }
}
