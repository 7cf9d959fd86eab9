//! The readers' connections parked between sessions, and their trimming.
//!
//! A session that ends parks its connection, with its prepared statements and
//! locked handle, for the next session: handing it back to SQLx's pool would
//! cost a ping through the connection's thread and lose what was prepared on
//! it. The next session takes the one parked last (its pages and statements are
//! the warmest). A burst of clients leaves many parked; each holds a SQLite
//! connection, its thread and, in the private cache mode, a page cache of its
//! own. Those parked longer than `--idle-connection-timeout-ms` are closed,
//! down to `--min-connections`: after the burst the memory comes back.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::connection::HeldConnection;

/// Connections of ended sessions, oldest first; once closed, nothing more is
/// parked (the pool's close waits for every connection to come back).
#[derive(Debug, Default)]
pub(super) struct Parked {
    state: Mutex<State>,
}

#[derive(Debug, Default)]
struct State {
    /// Parked in this order: the last is the warmest.
    connections: Vec<(HeldConnection, Instant)>,
    closed: bool,
}

impl Parked {
    /// The connection parked last, if any.
    pub(super) fn take(&self) -> Option<HeldConnection> {
        let mut state = self.state.lock().ok()?;
        state.connections.pop().map(|(connection, _)| connection)
    }

    /// Parks `connection` unless closed or `limit` are parked already; gives it
    /// back otherwise, for the caller to drop outside the lock.
    pub(super) fn park(&self, connection: HeldConnection, limit: usize) -> Option<HeldConnection> {
        match self.state.lock() {
            Ok(mut state) if !state.closed && state.connections.len() < limit => {
                state.connections.push((connection, Instant::now()));
                None
            }
            _ => Some(connection),
        }
    }

    /// Takes out those parked for longer than `idle` while more than `keep`
    /// are parked, for the caller to drop outside the lock.
    pub(super) fn expired(&self, idle: Duration, keep: usize) -> Vec<HeldConnection> {
        let Ok(mut state) = self.state.lock() else {
            return Vec::new();
        };
        let now = Instant::now();
        let stale = state
            .connections
            .iter()
            .take_while(|(_, since)| now.duration_since(*since) >= idle)
            .count()
            .min(state.connections.len().saturating_sub(keep));
        state
            .connections
            .drain(..stale)
            .map(|(connection, _)| connection)
            .collect()
    }

    /// Parks nothing more, and gives back every connection parked.
    pub(super) fn close(&self) -> Vec<HeldConnection> {
        match self.state.lock() {
            Ok(mut state) => {
                state.closed = true;
                std::mem::take(&mut state.connections)
                    .into_iter()
                    .map(|(connection, _)| connection)
                    .collect()
            }
            Err(_) => Vec::new(),
        }
    }

    pub(super) fn is_closed(&self) -> bool {
        self.state.lock().map_or(true, |state| state.closed)
    }
}

/// Returns the memory closed connections freed to the system. SQLite allocates
/// with the C library's malloc, whose per-thread arenas keep what their threads
/// freed (a hundred connection threads, a hundred arenas' worth) until told.
pub(super) fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks glibc's own arenas, under their locks.
    unsafe {
        libc::malloc_trim(0);
    }
}
