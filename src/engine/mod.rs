//! The engine: one SQLite database behind a SQLx pool, shared by every front end.
//!
//! Readers run concurrently on pooled connections (in the configured cache mode);
//! a [`Session`] pins one for its life. Writers take the write permit first, a
//! fair FIFO semaphore, so they queue inside litewire instead of spinning in
//! SQLite's busy handler, and no "database is locked" reaches a client; the
//! permit's holder writes on the writer connection, which has a page cache of its
//! own, so that the shared cache's table locks never make a reader wait for a
//! writer or a writer for a reader (see `Session::run` and `snapshots`).

mod access;
mod activity;
mod backend_kind;
mod backends;
mod catalog;
mod commands;
mod connection;
mod control;
mod database;
mod declared_columns;
mod declared_types;
mod direct;
mod domains;
mod enums;
mod exec;
mod file_watch;
mod functions;
mod group_commit;
mod handle;
mod identity;
mod index_rename;
mod locks;
mod metrics;
mod notifications;
mod parked;
mod pool;
mod power_loss;
mod rebuild;
mod result;
mod schema;
mod schema_rename;
mod sequences;
mod session;
mod settings;
mod snapshots;
mod statement_stats;
mod table_stats;
mod value;

pub use access::Role;
pub use activity::{ClientAddress, SESSION_STATES};
pub use backend_kind::{BackendKind, FRONTENDS};
pub use catalog::{format_type, numeric_modifier, type_modifier, type_oid};
pub use control::{ClientGone, StatementControl, StopReason};
pub use database::{Engine, ServerInfo};
pub use functions::{array_shape, format_array, parse_array, sub_arrays};
pub use identity::{DEFAULT_NAME, SessionIdentity};
pub use metrics::{BUCKETS, Histogram, Metrics};
pub use notifications::{Inbox, Notification};
pub use result::{Column, Completion, Discard, LOOKAHEAD_ROWS, QueryResult, ResultSink};
pub use schema::SchemaCatalog;
pub use session::{Blocks, CopyIn, CursorId, Session, TransactionState};
pub use settings::{Settings, SharedSettings};
pub use value::{
    StorageClass, Value, write_float4, write_float4_digits, write_float8, write_float8_digits,
};
