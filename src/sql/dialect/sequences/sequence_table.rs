//! The table sequences live in, `litewire_sequences`, and the SQL that reads
//! and writes its rows (see [`super`]).

use super::options::Definition;
use crate::sql::quote::literal;

/// litewire's table of sequences, in the main database.
pub(super) const SEQUENCES_TABLE: &str = "litewire_sequences";

/// Creates the table of sequences when it does not exist yet.
pub(super) const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_sequences (\
oid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, type TEXT NOT NULL, \
start_value INTEGER NOT NULL, increment INTEGER NOT NULL, min_value INTEGER NOT NULL, \
max_value INTEGER NOT NULL, cycle INTEGER NOT NULL, last_value INTEGER NOT NULL, \
is_called INTEGER NOT NULL, token INTEGER NOT NULL, owned_table TEXT, owned_column TEXT, \
identity TEXT)";

/// A statement that fails with `message` when `condition` (SQL) holds.
pub(super) fn fail_when(condition: &str, message: &str) -> String {
    format!(
        "SELECT litewire_error({}) WHERE {condition}",
        literal(message)
    )
}

pub(super) fn exists(name: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM main.{SEQUENCES_TABLE} WHERE name = {})",
        literal(name)
    )
}

/// `INSERT`s the row of a new sequence (nothing if one of that name exists and
/// `or_ignore`, nothing unless `condition` holds).
pub(super) fn insert(
    name: &str,
    definition: &Definition,
    owner: Option<(&str, &str)>,
    identity: Option<char>,
    or_ignore: bool,
    condition: &str,
) -> String {
    let (table, column) = owner.unzip();
    let opt = |v: Option<&str>| v.map_or_else(|| "NULL".to_owned(), literal);
    format!(
        "INSERT {}INTO main.{SEQUENCES_TABLE} (name, type, start_value, increment, min_value, max_value, cycle, \
         last_value, is_called, token, owned_table, owned_column, identity) \
         SELECT {}, '{}', {}, {}, {}, {}, {}, {}, 0, random(), {}, {}, {} WHERE {condition}",
        if or_ignore { "OR IGNORE " } else { "" },
        literal(name),
        definition.data_type,
        definition.start,
        definition.increment,
        definition.min,
        definition.max,
        i64::from(definition.cycle),
        definition.start,
        opt(table),
        opt(column),
        opt(identity.map(String::from).as_deref()),
    )
}
