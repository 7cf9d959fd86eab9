//! The plan of an `ALTER TABLE` the engine runs by rebuilding the table (see
//! `engine::rebuild`): the table, the statements that run first, and the
//! changes to its definition. `alter_table` reads most of them; identity
//! added to or dropped from a column is one too (see `sequences`).

use crate::sql::table_definition::{Column, Constraint};

/// An `ALTER TABLE` the engine runs by rebuilding the table.
#[derive(Debug, Clone, PartialEq)]
pub struct AlterTable {
    /// The table, unquoted.
    pub table: String,
    /// `ALTER TABLE IF EXISTS`: a missing table is no error.
    pub if_exists: bool,
    /// A condition (SQL), read once the first of `before` ran (which makes
    /// the tables of litewire's own it may read): the statement does nothing
    /// more where it does not hold (`DROP IDENTITY IF EXISTS` of a column that
    /// has none).
    pub only_if: Option<String>,
    /// Statements that run first, in the same transaction (the sequences of
    /// `serial` columns being added).
    pub before: Vec<String>,
    pub actions: Vec<AlterAction>,
}

/// One action of an `ALTER TABLE`, in SQLite's dialect.
#[derive(Debug, Clone, PartialEq)]
pub enum AlterAction {
    AddColumn {
        column: Column,
        if_not_exists: bool,
    },
    AddConstraint(Constraint),
    /// `DROP COLUMN`: the column goes with the indexes and constraints that use
    /// it, as in PostgreSQL.
    DropColumn {
        column: String,
        if_exists: bool,
    },
    DropConstraint {
        name: String,
        if_exists: bool,
    },
    RenameConstraint {
        from: String,
        to: String,
    },
    /// `VALIDATE CONSTRAINT`: a CHECK or foreign key added `NOT VALID` checked
    /// against the rows, and marked valid.
    ValidateConstraint {
        name: String,
    },
    /// `ALTER CONSTRAINT fk [NOT] DEFERRABLE [INITIALLY DEFERRED|IMMEDIATE]`.
    AlterConstraint {
        name: String,
        deferrable: bool,
        deferred: bool,
    },
    /// `ALTER COLUMN c TYPE t [USING expr]`.
    SetType {
        column: String,
        type_sql: String,
        using: Option<String>,
    },
    SetNotNull {
        column: String,
        not_null: bool,
    },
    /// `SET DEFAULT expr`, or `DROP DEFAULT` (`None`).
    SetDefault {
        column: String,
        expr: Option<String>,
    },
}
