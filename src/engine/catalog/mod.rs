//! An emulated PostgreSQL catalog, built from the real SQLite schema.
//!
//! psql's backslash commands, drivers and ORMs ask `pg_catalog` and
//! `information_schema` about tables, columns, indexes and types. litewire
//! answers with real relations that ordinary SQL can query: temporary tables
//! (`pg_class`, `pg_attribute`, `pg_index`, `pg_constraint`, ...) on each
//! connection, filled from `sqlite_schema` and the `pragma_table_xinfo`,
//! `pragma_index_list`, `pragma_index_info` and `pragma_foreign_key_list` of every
//! table. They live in the connection's temp database, so nothing is ever written
//! into the user's file, and are refilled only when SQLite's `schema_version`
//! changed since the last time this connection filled them.
//!
//! Primary keys over a rowid alias have no SQLite index; they get a synthetic
//! `t_pkey` index so that `\d t` shows what PostgreSQL would. Object ids are
//! in `oids`.

mod activity_rows;
mod domain_types;
mod enum_types;
mod foreign_key_rows;
mod function_rows;
mod introspect;
pub(super) mod oids;
mod partition_rows;
mod prepare;
mod rows;
mod rules;
mod schema_namespaces;
mod schema_rows;
mod sequence_rows;
mod statement_rows;
mod system_relations;
mod table_stat_rows;
mod time_zone_rows;
mod type_functions;
pub(super) mod types;

pub(super) use activity_rows::DatabaseStats;
pub(super) use enum_types::{load as load_enums, remember_enums};
pub(super) use introspect::{read_columns, rowid_type};
pub(super) use partition_rows::read_partitions;
pub(super) use prepare::{SessionView, prepare};
pub(super) use statement_rows::StatementsView;
pub use types::{format_type, numeric_modifier, type_modifier, type_oid};
