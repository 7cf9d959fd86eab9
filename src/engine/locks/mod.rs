//! Locks sessions take beyond SQLite's own: advisory locks (`advisory`), and
//! the table of who holds and waits for what, with deadlock detection
//! (`table`). The write permit itself is a semaphore on the engine; the table
//! only knows its holder and waiters.

mod advisory;
mod table;

pub(super) use advisory::{AdvisoryKey, LockMode, Request, Scope};
pub(super) use table::{LockRow, LockTable, Locker, Resource, WaitLimits};
