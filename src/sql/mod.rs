//! From client SQL to statements the engine can run.
//!
//! A query string is split into statements, each statement is classified (what it
//! does to the transaction, whether it writes, which command tag it answers with)
//! and its PostgreSQL-style `$N` parameters are rewritten to SQLite's `?N`. This is
//! one lexer pass per statement: no full parse on the hot path.

mod batch_effects;
mod checks;
mod classify;
mod comments;
mod copy;
mod create_as;
mod cursors;
pub mod datetime;
pub mod datetime_input;
mod dialect;
pub mod domains;
pub mod enums;
mod explain;
pub mod extensions;
mod fingerprint;
mod grants;
pub mod index_renames;
pub mod inet;
pub mod interval;
pub mod interval_fields;
mod joined_returning;
pub mod json_path;
mod json_path_print;
pub mod json_spans;
pub mod jsonb;
mod known_queries;
mod lexer;
mod literals;
pub mod matviews;
mod merge;
mod modifying_ctes;
mod notifications;
mod ownership;
mod param_hints;
mod param_numbering;
mod parse;
mod parsed;
pub mod partitions;
mod pg15_information_schema;
mod pg15_relations;
mod positions;
pub mod postgres;
mod prepared;
pub mod qualified_names;
mod qualified_operators;
pub mod quote;
pub mod relations;
mod rewrite;
pub mod routines;
mod row_locks;
pub mod schema_names;
pub mod schemas;
mod session;
mod sort_operators;
mod spellings;
mod split;
mod statement;
mod statement_fields;
mod syntax_tree;
pub mod table_definition;
mod table_locks;
mod table_statements;
pub mod time_zone;
mod time_zone_abbreviations;
mod transaction_modes;
mod translate;
mod variadic_args;
pub mod views;
mod words;
pub mod written;

pub use checks::{CheckConstraint, check_constraints};
pub use classify::{Action, CommandKind};
pub use comments::COMMENTS_TABLE;
pub use copy::{CopyFormat, CopyOptions, ForceQuote};
pub use dialect::{AlterAction, AlterTable, relation_name};
pub use fingerprint::Fingerprint;
pub use notifications::NotifyCommand;
pub use param_hints::{ParamHint, param_hints};
pub use param_numbering::{number_named_params, parameter_names};
pub use parse::{Dialect, parse_batch, parse_batch_in, parse_single, parse_single_in};
pub use positions::error_position;
pub use row_locks::{LockWait, RowLock};
pub use session::SessionCommand;
pub use statement::{
    CopyFrom, CopyTo, CursorCommand, IndexRename, Plan, PreparedCommand, Staged, Statement,
};
pub use transaction_modes::{Begin, Isolation, TransactionModes, savepoint_name};
