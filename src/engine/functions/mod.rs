//! PostgreSQL's SQL functions that SQLite lacks, registered on every connection.
//!
//! One file per family (settings, sequences, signals to other sessions, sleeping, the statistics views, catalog, arrays, strings,
//! regular expressions, `bytea` functions, digests and encodings, dates and times, intervals,
//! ordered-set aggregates, `to_char`, JSON,
//! `format` and quoting, random values and UUIDs, statistics aggregates, and the arithmetic (numeric in decimal), math, trigonometry, comparisons,
//! conversions, type modifiers and scalar subqueries of the PostgreSQL port's
//! translation), each a list of definitions with PostgreSQL's argument and result types and
//! volatility; `registry` registers them all on a connection and lists them in
//! `pg_proc`; `aggregate` lets an aggregate be plain Rust state. The dialect translation turns PostgreSQL syntax into calls of
//! these (`~` into `regexp()`, arrays into the `litewire_array*` helpers). A
//! function reaches the state it needs (the session's settings, the sequence
//! counters) through the connection's context (`context`), not the engine.

mod aggregate;
mod arithmetic;
mod array_elements;
mod arrays;
mod bitwise;
mod bytes;
mod call;
mod catalog;
mod comparisons;
mod context;
mod conversions;
mod crypto;
mod date_parsing;
mod dates;
mod datetime;
mod decimal;
mod definition;
mod division;
mod encoding;
mod explain;
mod format;
mod formatting;
mod intervals;
mod json;
mod json_path;
mod json_text;
mod json_verbatim;
mod locks;
mod math;
mod modifiers;
mod network;
mod number_format;
mod numeric_spread;
mod ordered_sets;
mod partitioning;
mod postgres_functions;
mod prng;
mod random;
mod records;
mod recovery;
mod regexp_rows;
mod regexps;
mod registry;
mod sequences;
mod settings;
mod signals;
mod sleep;
mod stat_views;
mod statistics;
mod strings;
mod subqueries;
mod trigonometry;
mod zoned;

pub use array_elements::{array_shape, sub_arrays};
pub use arrays::{format_array, parse_array};
pub(super) use context::{FunctionContext, ServedSession, ServerShared};
pub(super) use registry::{catalog_rows, register};
