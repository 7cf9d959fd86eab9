//! `pg_stat_statements`: how often each statement ran, how long it took and
//! how many rows it gave, by user, database and normalized text (see
//! `sql::fingerprint`).
//!
//! One map for the server, behind one lock taken once per statement that
//! completes: the statement's fingerprint was computed when it was read, so
//! counting is a lookup by its id and a few additions. Memory is bounded by
//! `--pg-stat-statements-max` entries; when a new statement finds the map
//! full, the least called 5 % (at least 10) go, as PostgreSQL deallocates, and
//! `pg_stat_statements_info.dealloc` counts it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, SystemTime};

use crate::sql::Fingerprint;

/// PostgreSQL's `pg_stat_statements.max` default.
pub const DEFAULT_MAX: usize = 5000;

#[derive(Debug)]
pub struct StatementStats {
    /// Entries kept at most; 0 counts nothing.
    max: usize,
    entries: Mutex<Entries>,
}

#[derive(Debug)]
struct Entries {
    /// By query id, then one per user and database.
    by_id: HashMap<i64, Vec<Entry>, foldhash::fast::RandomState>,
    len: usize,
    /// Times entries were evicted to make room.
    dealloc: u64,
    /// When everything was last reset (or the server started).
    reset: SystemTime,
}

/// One statement's counts, for one user in one database.
#[derive(Debug, Clone)]
pub struct Entry {
    pub user: Arc<str>,
    pub database: Arc<str>,
    pub fingerprint: Arc<Fingerprint>,
    pub calls: u64,
    pub rows: u64,
    /// Milliseconds.
    pub total: f64,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    /// The sum of squared differences from the mean (Welford's), for the
    /// standard deviation.
    sum_var: f64,
}

impl Entry {
    /// The population standard deviation of the times, in milliseconds.
    pub fn stddev(&self) -> f64 {
        match self.calls {
            0 | 1 => 0.0,
            calls => (self.sum_var / calls as f64).sqrt(),
        }
    }

    fn add(&mut self, took: f64, rows: u64) {
        self.calls += 1;
        self.rows += rows;
        self.total += took;
        if self.calls == 1 {
            (self.min, self.max, self.mean) = (took, took, took);
            return;
        }
        self.min = self.min.min(took);
        self.max = self.max.max(took);
        let before = self.mean;
        self.mean += (took - before) / self.calls as f64;
        self.sum_var += (took - before) * (took - self.mean);
    }
}

/// Which entries a reset removes (`pg_stat_statements_reset(userid, dbid,
/// queryid)`).
#[derive(Debug, Clone, Copy, Default)]
pub struct ResetFilter {
    /// One statement's; `None`: every one.
    pub queryid: Option<i64>,
    /// Whether a user or database was named: then the eviction count and the
    /// time of the last reset stay.
    pub scoped: bool,
}

impl Default for StatementStats {
    fn default() -> Self {
        StatementStats::new(DEFAULT_MAX)
    }
}

impl StatementStats {
    pub fn new(max: usize) -> StatementStats {
        StatementStats {
            max,
            entries: Mutex::new(Entries {
                by_id: HashMap::default(),
                len: 0,
                dealloc: 0,
                reset: SystemTime::now(),
            }),
        }
    }

    /// Whether statements are counted at all.
    pub(super) fn counts(&self) -> bool {
        self.max > 0
    }

    fn entries(&self) -> MutexGuard<'_, Entries> {
        self.entries.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// A statement of `user` in `database` completed in `took` with `rows`.
    pub(super) fn record(
        &self,
        fingerprint: &Arc<Fingerprint>,
        user: &Arc<str>,
        database: &Arc<str>,
        took: Duration,
        rows: u64,
    ) {
        let took = took.as_secs_f64() * 1000.0;
        let mut entries = self.entries();
        let id = fingerprint.queryid;
        // A session's user and database are the same `Arc`s statement after
        // statement: compared by address first.
        let same = |a: &Arc<str>, b: &Arc<str>| Arc::ptr_eq(a, b) || a == b;
        let mine = |entry: &&mut Entry| same(&entry.user, user) && same(&entry.database, database);
        if let Some(entry) = entries
            .by_id
            .get_mut(&id)
            .and_then(|list| list.iter_mut().find(mine))
        {
            entry.add(took, rows);
            return;
        }
        if entries.len >= self.max {
            entries.evict();
        }
        let mut entry = Entry {
            user: user.clone(),
            database: database.clone(),
            fingerprint: fingerprint.clone(),
            calls: 0,
            rows: 0,
            total: 0.0,
            min: 0.0,
            max: 0.0,
            mean: 0.0,
            sum_var: 0.0,
        };
        entry.add(took, rows);
        entries.by_id.entry(id).or_default().push(entry);
        entries.len += 1;
    }

    /// Every entry, as of now.
    pub fn rows(&self) -> Vec<Entry> {
        let entries = self.entries();
        entries.by_id.values().flatten().cloned().collect()
    }

    /// `pg_stat_statements_info`: entries evicted, and when all were reset.
    pub fn info(&self) -> (u64, SystemTime) {
        let entries = self.entries();
        (entries.dealloc, entries.reset)
    }

    /// Forgets the entries `filter` matches; a reset of everything also
    /// resets the eviction count and the time of the last reset.
    pub fn reset(&self, filter: ResetFilter) {
        let mut entries = self.entries();
        match filter.queryid {
            None => {
                entries.by_id.clear();
                entries.len = 0;
                if !filter.scoped {
                    entries.dealloc = 0;
                    entries.reset = SystemTime::now();
                }
            }
            Some(id) => {
                if let Some(list) = entries.by_id.remove(&id) {
                    entries.len -= list.len();
                }
            }
        }
    }
}

impl Entries {
    /// Makes room: the least called 5 % go (at least 10).
    fn evict(&mut self) {
        let mut calls: Vec<u64> = self.by_id.values().flatten().map(|e| e.calls).collect();
        let victims = (self.len * 5 / 100).max(10).min(self.len);
        if victims == 0 {
            return;
        }
        calls.sort_unstable();
        let limit = calls[victims - 1];
        // Those below the limit go, and of those at it as many as still must.
        let mut at_limit = victims - calls.iter().filter(|c| **c < limit).count();
        for list in self.by_id.values_mut() {
            list.retain(|entry| match entry.calls.cmp(&limit) {
                std::cmp::Ordering::Less => false,
                std::cmp::Ordering::Equal if at_limit > 0 => {
                    at_limit -= 1;
                    false
                }
                _ => true,
            });
        }
        self.by_id.retain(|_, list| !list.is_empty());
        self.len = self.by_id.values().map(Vec::len).sum();
        self.dealloc += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fingerprint(id: i64) -> Arc<Fingerprint> {
        Arc::new(Fingerprint {
            queryid: id,
            text: format!("select {id}").into(),
        })
    }

    #[test]
    fn counts_times_and_rows_per_user() {
        let stats = StatementStats::new(100);
        let (alice, bob, db): (Arc<str>, Arc<str>, Arc<str>) =
            ("alice".into(), "bob".into(), "db".into());
        let select = fingerprint(1);
        for ms in [1, 2, 3, 6] {
            stats.record(&select, &alice, &db, Duration::from_millis(ms), 2);
        }
        stats.record(&select, &bob, &db, Duration::from_millis(5), 1);
        let rows = stats.rows();
        let mine = rows.iter().find(|e| &*e.user == "alice").expect("alice");
        assert_eq!((mine.calls, mine.rows), (4, 8));
        assert!((mine.total - 12.0).abs() < 1e-9);
        assert!((mine.mean - 3.0).abs() < 1e-9);
        assert_eq!((mine.min, mine.max), (1.0, 6.0));
        // Population deviation of 1, 2, 3, 6: sqrt(14 / 4).
        assert!((mine.stddev() - 3.5f64.sqrt()).abs() < 1e-9);
        assert_eq!(rows.len(), 2);
        stats.reset(ResetFilter {
            queryid: Some(1),
            scoped: false,
        });
        assert!(stats.rows().is_empty());
    }

    #[test]
    fn a_full_map_lets_the_least_called_go() {
        let stats = StatementStats::new(20);
        let (user, db): (Arc<str>, Arc<str>) = ("u".into(), "d".into());
        for id in 0..20 {
            for _ in 0..=id {
                stats.record(&fingerprint(id), &user, &db, Duration::ZERO, 0);
            }
        }
        stats.record(&fingerprint(99), &user, &db, Duration::ZERO, 0);
        let kept: Vec<i64> = stats.rows().iter().map(|e| e.fingerprint.queryid).collect();
        assert_eq!(kept.len(), 11);
        assert!(kept.contains(&99) && kept.contains(&19) && !kept.contains(&9));
        assert_eq!(stats.info().0, 1);
        assert!(!StatementStats::new(0).counts());
    }
}
