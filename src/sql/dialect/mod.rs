//! PostgreSQL dialect into SQLite, on sqlparser's syntax tree.
//!
//! Statements that look PostgreSQL-specific (see [`wants`]) are parsed with
//! sqlparser's PostgreSQL dialect, rewritten, and printed back as SQLite SQL:
//! - casts (`x::int`, `CAST(x AS varchar(10))`) become SQLite casts, and
//!   `::regclass`/`::regtype`/`::regnamespace` look names up in the catalog;
//! - `~`, `~*`, `!~`, `OPERATOR(pg_catalog.~)` use the `regexp()` function, `ILIKE`
//!   is SQLite's (ASCII case-insensitive) `LIKE`, `COLLATE pg_catalog.default` goes;
//! - `E'...'` strings are unescaped, arrays become PostgreSQL array text built by
//!   litewire's SQL functions, `x = ANY(...)` a membership test;
//! - schema qualifiers `public.` and `pg_catalog.` go (catalog relations are
//!   per-connection temporary tables), `information_schema.x` is
//!   `information_schema_x`;
//! - functions: `now()`, `current_user`, `version()`, `current_setting()`,
//!   `pg_get_indexdef()` and the others psql and drivers call are answered from the
//!   catalog or from litewire's SQL functions;
//! - `CREATE TABLE`: a `serial` or identity column gets a sequence of its own
//!   (see [`sequences`]), and stays SQLite's `INTEGER PRIMARY KEY` (the rowid)
//!   when it is the table's one-column primary key; non-constant defaults get
//!   SQLite's parentheses;
//! - `nextval('s'::regclass)` and the other sequence functions take the name as
//!   text (the sequence is no catalog relation SQLite could look up);
//! - parenthesised members of `UNION`/`EXCEPT`/`INTERSECT` are made ones SQLite
//!   accepts (see [`set_operations`]).
//!
//! A query over catalog relations that are always empty here (policies, triggers,
//! publications, inheritance, ...) is answered with no rows and its column names
//! without being translated at all (see [`empty_relations`]).
//!
//! Statements sqlparser cannot parse, and statements the rewrite leaves unchanged,
//! pass through as written: SQLite SQL keeps working.

mod alter_table;
mod catalog_lookups;
mod column_names;
mod create_index;
mod create_table;
mod empty_relations;
mod expressions;
mod functions;
mod rebuild_plan;
mod replacement;
mod result_types;
mod rewriter;
mod schemas;
mod sequences;
mod set_operations;
mod set_returning;
mod system_columns;
mod table_factors;
mod translation;
mod type_names;

pub(super) use alter_table::statement as alter_table;
pub(super) use create_table::has_no_inherit;
pub use rebuild_plan::{AlterAction, AlterTable};
pub use sequences::relation_name;
pub(super) use sequences::{
    IdentityChange, identity_statement, relation_must_exist, restart_owned_sequences,
    sequence_must_exist, statement as sequence_statement,
};
pub(super) use translation::{Translated, translate, translate_parsed, wants};
