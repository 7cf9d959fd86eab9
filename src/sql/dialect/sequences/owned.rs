//! The sequences that `serial` and identity columns own: made with their table
//! (or with the column `ALTER TABLE ... ADD COLUMN` adds), and restarted by
//! `TRUNCATE ... RESTART IDENTITY`.

use super::names::{relation_name, serial_sequence_name};
use super::options::{Options, type_bounds};
use super::sequence_table::{CREATE_TABLE, SEQUENCES_TABLE, insert};
use crate::error::Error;
use crate::sql::quote::literal;

/// The statements that restart the sequences owned by columns of `tables`
/// (`TRUNCATE ... RESTART IDENTITY`), names as written in SQL.
pub(crate) fn restart_owned_sequences(tables: &[String]) -> Vec<String> {
    let tables: Vec<String> = tables
        .iter()
        .filter_map(|t| relation_name(t))
        .map(|t| literal(&t))
        .collect();
    vec![
        CREATE_TABLE.to_owned(),
        format!(
            "UPDATE main.{SEQUENCES_TABLE} SET last_value = start_value, is_called = 0, token = random() \
             WHERE owned_table COLLATE NOCASE IN ({})",
            tables.join(", ")
        ),
    ]
}

/// A column of a new table that takes its values from a sequence of its own.
#[derive(Debug)]
pub(crate) struct OwnedSequence {
    pub table: String,
    pub column: String,
    /// The column's type (`serial` or `integer`, say), for the sequence's.
    pub column_type: String,
    pub options: Options,
    /// `a` (ALWAYS) or `d` (BY DEFAULT) for identity columns.
    pub identity: Option<char>,
    /// The name `SEQUENCE NAME` gives it, where not PostgreSQL's own.
    pub named: Option<String>,
}

impl OwnedSequence {
    pub(crate) fn name(&self) -> String {
        match &self.named {
            Some(name) => name.clone(),
            None => serial_sequence_name(&self.table, &self.column),
        }
    }
}

/// The statements that run before a `CREATE TABLE` whose columns own
/// sequences: the table of sequences is made, and, unless the table exists
/// already (`IF NOT EXISTS`), sequences left by a dropped table of the same name
/// go and the new ones are added. (A failing `CREATE TABLE` undoes them all.)
/// `table_exists`: the columns are added to a table already there (`ALTER
/// TABLE ... ADD COLUMN`), rather than made with it.
pub(crate) fn owned_sequences(
    sequences: &[OwnedSequence],
    table_exists: bool,
) -> Result<Vec<String>, Error> {
    let mut script = vec![CREATE_TABLE.to_owned()];
    for sequence in sequences {
        let table = literal(&sequence.table);
        let presence = if table_exists { "" } else { "NOT " };
        let absent = format!(
            "{presence}EXISTS (SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = {table} COLLATE NOCASE)"
        );
        // What a dropped table of the same name left: its sequences, or,
        // when the table is there, the one a dropped column of the same
        // name left (never the sequences of its other columns).
        let cleanup = match table_exists {
            false => format!(
                "DELETE FROM main.{SEQUENCES_TABLE} WHERE owned_table = {table} COLLATE NOCASE AND {absent}"
            ),
            true => format!(
                "DELETE FROM main.{SEQUENCES_TABLE} WHERE owned_table = {table} COLLATE NOCASE \
                 AND owned_column = {} COLLATE NOCASE",
                literal(&sequence.column)
            ),
        };
        if !script.contains(&cleanup) {
            script.push(cleanup);
        }
        let default_type = type_bounds(&sequence.column_type).map_or("integer", |(t, _, _)| t);
        let definition = sequence.options.resolve(default_type)?;
        script.push(insert(
            &sequence.name(),
            &definition,
            Some((&sequence.table, &sequence.column)),
            sequence.identity,
            false,
            &absent,
        ));
    }
    Ok(script)
}
