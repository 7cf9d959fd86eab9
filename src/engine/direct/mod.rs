//! Statements run on the session's own task, through SQLite's C API, on the
//! connection SQLx hands us.
//!
//! SQLx's SQLite driver runs each connection on a thread of its own: every query
//! is a command sent to that thread and rows and completion sent back, several
//! cross-thread hand-offs that cost about 150 µs per statement on a small machine,
//! 40 times what SQLite itself needs for a point SELECT. SQLx also offers
//! [`SqliteConnection::lock_handle`], which locks the connection for the caller and
//! exposes its `sqlite3*`. A session takes that lock once ([`HeldHandle`]) and keeps
//! it while it runs statements: prepare (cached per connection), bind, step and
//! read rows right here. It lets go only when SQLx itself must use the connection
//! (Describe's type inference, scripts, the catalog) or gets it back. SQLx still
//! opens, configures, pools, checks and closes the connections.
//!
//! Taking the lock again right after letting it go can hang in SQLx 0.9: its
//! connection thread has to take the lock back first (`tests/sqlx_lock_handle.rs`
//! shows it). A ping, answered only once that thread runs again, is sent before
//! every new lock on a connection whose lock was let go.
//!
//! A statement blocks the calling runtime worker while SQLite runs it, as a
//! PostgreSQL backend is busy while it runs a query; the runtime has a worker per
//! core, and other connections move to the others (unless `--thread-per-core`
//! keeps them on this one, see `workers`). With the shared cache, a table another connection has locked makes
//! SQLite answer `SQLITE_LOCKED_SHAREDCACHE`; the statement then waits,
//! asynchronously, for `sqlite3_unlock_notify` to say that the other transaction
//! ended, and runs again. Like a PostgreSQL lock wait without `lock_timeout`, it
//! waits as long as the lock is held; SQLite refuses the wait (an error) where it
//! would deadlock.

mod cursor;
mod lock_wait;
mod run;
mod statements;
mod values;
mod violations;

pub(super) use cursor::Cursor;
pub(super) use run::{Query, describe, execute, run};
pub(super) use statements::Statements;
