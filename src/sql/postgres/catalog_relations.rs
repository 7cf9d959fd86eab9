//! The relations of the emulated catalog (`pg_class`, `pg_index`, ...) as
//! the reading sees them, so that a catalog query may use what only the
//! reading writes for SQLite (`DISTINCT ON`, `LATERAL`, a set-returning
//! function in FROM). Their columns are named; only booleans are typed,
//! every other column left to the catalog's own declared types, which the
//! engine reports as it always has.

use super::scope::ScopeColumn;
use super::types::PgType;
use crate::sql::relations::{Definition, Relation};

/// The columns of `relation`, when it is a table (a view's are not listed).
pub(super) fn columns(relation: &Relation) -> Option<Vec<ScopeColumn>> {
    let Definition::Table(definition) = relation.definition else {
        return None;
    };
    definition
        .split(", ")
        .map(|column| {
            let (name, declared) = column.split_once(' ')?;
            let ty = match declared.split(' ').next() {
                Some("boolean") => PgType::Bool,
                _ => PgType::Opaque,
            };
            let mut column = ScopeColumn::new(name.trim_matches('"'), ty);
            column.declared = true;
            Some(column)
        })
        .collect()
}
