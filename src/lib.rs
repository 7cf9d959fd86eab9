//! litewire: a SQLite database served over the PostgreSQL wire protocol and HTTP JSON.
//!
//! # Layout
//!
//! Requests flow front end → SQL → engine, and imports run the same way: the front
//! ends use `sql` and `engine`, the engine uses `sql`, and `sql` uses neither (only
//! the leaf `error`). No file imports another that imports it back: a folder's
//! `mod.rs` only declares and re-exports. `tests/layout.rs` holds the tree to that;
//! `docs/architecture.md` names every module below these and the way one statement
//! takes through them.
//!
//! - [`pg`]: the PostgreSQL front end (pgwire): startup, the simple and extended
//!   protocols and COPY (one file each), value encoding and decoding, SQLSTATEs.
//! - [`http`]: the HTTP front end (axum): `POST /` batches, `/health`, `/version`,
//!   and Hrana for the libsql SDKs (`http::hrana`).
//! - [`sql`]: pure SQL text work: splitting a query string, classifying statements,
//!   translating the PostgreSQL dialect (sqlparser), COPY and session commands,
//!   parameter hints, quoting, and the list of emulated catalog relations.
//! - [`engine`]: the SQLx pool, sessions and transactions (isolation levels, row
//!   and advisory locks, deadlock detection, LISTEN/NOTIFY), the write permit,
//!   direct execution through SQLite's C API, the emulated catalog, PostgreSQL's SQL
//!   functions (a file per family, one registry that also fills `pg_proc`), sequences (counters that ROLLBACK does not undo), table
//!   rebuilds (the `ALTER TABLE` forms SQLite lacks), and the one way results reach
//!   both front ends ([`engine::ResultSink`], row by row; [`engine::QueryResult`]
//!   keeps a whole result).
//! - [`error`]: the one error a statement fails with, with SQLite's codes kept or
//!   PostgreSQL's SQLSTATE.
//! - [`auth`]: users, passwords (SCRAM-SHA-256, md5), tokens and the role a
//!   login grants, for both front ends.
//! - [`tls`]: TLS for both ports (rustls).
//! - [`traffic`]: the bytes each front end's clients send and receive, counted.
//! - [`config`]: every knob (clap, `LITEWIRE_*` environment variables).
//! - [`server`]: startup (engine, listeners) and the clean shutdown path.
//! - [`shutdown`]: signals, and the shutdown notice everything that serves watches.
//! - [`listener`]: the sockets listened on (TCP, and Unix-domain for the
//!   PostgreSQL port) and the connections they give.
//! - [`workers`]: the threads that serve connections and the accept loop.
//! - `fuzz` (tests only): bounded fuzzing of the decoders clients feed, inside
//!   `cargo test`.

pub mod auth;
pub mod config;
pub mod engine;
pub mod error;
#[cfg(test)]
mod fuzz;
pub mod http;
pub mod listener;
pub mod pg;
pub mod server;
pub mod shutdown;
pub mod sql;
pub mod tls;
pub mod traffic;
pub mod workers;

/// The PostgreSQL version litewire presents itself as: psql picks its catalog
/// queries by it, pgbench its COPY options.
pub const SERVER_VERSION: &str = concat!("15.0 (litewire ", env!("CARGO_PKG_VERSION"), ")");
