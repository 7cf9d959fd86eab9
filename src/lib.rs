//! litewire: a SQLite database served over the PostgreSQL wire protocol and HTTP JSON.
//!
//! Data flows front end → SQL → engine:
//! - [`pg`] and [`http`] decode requests and encode results;
//! - [`sql`] splits, classifies and rewrites statements;
//! - [`engine`] owns the SQLx pool, sessions and transactions, and produces the one
//!   result model both front ends encode.

pub mod config;
pub mod engine;
pub mod error;
pub mod http;
pub mod pg;
pub mod server;
pub mod shutdown;
pub mod sql;
pub mod workers;

/// The PostgreSQL version litewire presents itself as: psql picks its catalog
/// queries by it, pgbench its COPY options.
pub const SERVER_VERSION: &str = concat!("15.0 (litewire ", env!("CARGO_PKG_VERSION"), ")");
