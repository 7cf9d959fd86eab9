//! Whether the shared cache's snapshot is current.
//!
//! With the shared cache, the readers' connections share one pager, and so one WAL
//! snapshot: it is taken when the first of them starts reading and kept while any
//! of them still reads. The writer has a cache of its own; what it commits while
//! a shared-cache read is in flight (a client reading a large result slowly, say)
//! stays invisible to every reader that starts meanwhile, which PostgreSQL
//! semantics forbid: a statement sees what was committed before it began.
//!
//! [`SharedReads`] counts the reads in flight on the shared cache and remembers
//! which commits their snapshot includes. A read that would start on an old
//! snapshot is told so, and runs on a connection with a private cache instead
//! (see `Session`). Commits are counted when the write permit is given back.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

#[derive(Debug, Default)]
pub(super) struct SharedReads {
    /// Writes given back so far (each may have committed).
    commits: AtomicU64,
    reads: Mutex<Reads>,
}

#[derive(Debug, Default)]
struct Reads {
    /// Reads in flight on the shared cache.
    active: usize,
    /// `commits` when the first of them started: the snapshot includes those.
    snapshot: u64,
}

/// One read in flight on the shared cache.
#[derive(Debug)]
pub(super) struct SharedRead(Arc<SharedReads>);

impl Drop for SharedRead {
    fn drop(&mut self) {
        if let Ok(mut reads) = self.0.reads.lock() {
            reads.active = reads.active.saturating_sub(1);
        }
    }
}

impl SharedReads {
    /// A write was given back: reads that start from now on must see it.
    pub(super) fn committed(&self) {
        self.commits.fetch_add(1, Ordering::SeqCst);
    }

    /// Registers a read about to start on the shared cache, or `None` when the
    /// snapshot it would get misses a commit. `anyway`: register it even then
    /// (a read that cannot go elsewhere).
    pub(super) fn begin(self: &Arc<Self>, anyway: bool) -> Option<SharedRead> {
        let mut reads = self.reads.lock().ok()?;
        let commits = self.commits.load(Ordering::SeqCst);
        if reads.active == 0 {
            reads.snapshot = commits;
        } else if reads.snapshot < commits && !anyway {
            return None;
        }
        reads.active += 1;
        Some(SharedRead(self.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_read_in_flight_across_a_commit_makes_later_reads_stale() {
        let reads = Arc::new(SharedReads::default());
        let first = reads.begin(false).expect("nothing in flight");
        let second = reads.begin(false).expect("no commit since");
        reads.committed();
        assert!(reads.begin(false).is_none(), "the snapshot misses a commit");
        let forced = reads.begin(true).expect("registered anyway");
        drop((first, second, forced));
        // Nothing in flight: the next read takes a new snapshot.
        let fresh = reads.begin(false).expect("a new snapshot");
        assert!(reads.begin(false).is_some());
        drop(fresh);
    }
}
