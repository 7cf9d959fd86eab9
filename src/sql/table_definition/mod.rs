//! A table's `CREATE TABLE` text, as SQLite keeps it, read into its columns and
//! constraints and edited: what an `ALTER TABLE` that SQLite cannot run itself
//! changes before the engine rebuilds the table under the new definition (see
//! `engine::rebuild`).
//!
//! The text is cut at its top-level commas and each part at the keywords that
//! start a column constraint; everything is kept as written except the parts an
//! edit touches, so SQLite syntax this module does not model (collations,
//! conflict clauses, `AUTOINCREMENT`, `WITHOUT ROWID`, ...) survives a rebuild.
//!
//! Constraints are known by the names PostgreSQL gives them (`t_pkey`,
//! `t_c_key`, `t_c_fkey`, `t_c_check`), the names the emulated catalog shows.

mod column;
mod constraint;
mod constraint_names;
mod definition;
mod errors;
mod index_statement;
mod tokens;

pub use column::Column;
pub use constraint::{Constraint, ConstraintKind, Mark};
pub use definition::TableDefinition;
pub use errors::no_such_column;
pub use index_statement::{index_keys, renamed_index};
pub use tokens::mentions;
