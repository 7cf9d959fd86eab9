//! Session settings: what `SET`, `SHOW`, `RESET` and `current_setting()` see.
//!
//! SQLite has no such thing, but PostgreSQL clients set and read these all the
//! time (drivers at connect, psql's `\encoding`, ORMs' `search_path`). Values are
//! kept per session with PostgreSQL's transaction rules: a `SET` inside a
//! transaction that rolls back is undone, and `SET LOCAL` lasts until the
//! transaction ends. Parameters PostgreSQL reports to the client (`GUC_REPORT`)
//! are queued for a ParameterStatus message whenever they change.
//!
//! Most values are recorded, not enforced: litewire always speaks UTF-8 and prints
//! timestamps in UTC with an explicit offset. The timeouts (`statement_timeout`,
//! `lock_timeout`, `idle_in_transaction_session_timeout`) are enforced; their
//! defaults come from the server's flags ([`Settings::with_server_defaults`]).

mod checks;
mod parameters;
mod reference;
mod shared;
mod values;

pub use shared::SharedSettings;
pub use values::{ServerDefaults, Settings};
