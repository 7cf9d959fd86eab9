//! litewire: a SQLite database served over the PostgreSQL wire protocol and HTTP JSON.
//!
//! # Layout
//!
//! Requests flow front end → SQL → engine, and imports run the same way: the front
//! ends use `sql` and `engine`, the engine uses `sql`, and `sql` uses neither (only
//! the leaf `error`). `tests/layout.rs` holds the tree to that.
//!
//! - [`pg`]: the PostgreSQL front end (pgwire): startup, the simple and extended
//!   protocols and COPY (one file each), value encoding and decoding, SQLSTATEs.
//! - [`http`]: the HTTP front end (axum): `POST /` batches, `/health`, `/version`.
//! - [`sql`]: pure SQL text work: splitting a query string, classifying statements,
//!   translating the PostgreSQL dialect (sqlparser), COPY and session commands,
//!   parameter hints, quoting, and the list of emulated catalog relations.
//! - [`engine`]: the SQLx pool, sessions and transactions, the write permit, direct
//!   execution through SQLite's C API, the emulated catalog, SQL functions, and the
//!   one result model ([`engine::QueryResult`]) both front ends encode.
//! - [`error`]: the one error a statement fails with, with SQLite's codes kept.
//! - [`config`]: every knob (clap, `LITEWIRE_*` environment variables).
//! - [`server`]: startup (engine, listeners) and the clean shutdown path.
//! - [`shutdown`]: signals, and the shutdown notice everything that serves watches.
//! - [`workers`]: the threads that serve connections and the accept loop.

pub mod config;
pub mod engine;
pub mod error;
#[cfg(test)]
mod fuzz;
pub mod http;
pub mod pg;
pub mod server;
pub mod shutdown;
pub mod sql;
pub mod workers;

/// The PostgreSQL version litewire presents itself as: psql picks its catalog
/// queries by it, pgbench its COPY options.
pub const SERVER_VERSION: &str = concat!("15.0 (litewire ", env!("CARGO_PKG_VERSION"), ")");
