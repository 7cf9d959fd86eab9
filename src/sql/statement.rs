//! One statement, ready to run on SQLite, and its plan: how the engine runs it.
//!
//! The plans that hold a statement of their own (the query `COPY ... TO` sends,
//! the query a cursor reads) are described here too: a statement holds its plan
//! and those plans hold a statement, so the types live together. The code that
//! reads those statements gets the parser as a [`ParseQuery`] from its caller.

use std::sync::Arc;

use super::classify::{Action, CommandKind};
use super::copy::options::CopyOptions;
use super::dialect::AlterTable;
use super::enums::EnumChange;
use super::fingerprint::Fingerprint;
use super::notifications::NotifyCommand;
use super::row_locks::RowLock;
use super::schemas::SchemaRename;
use super::session::SessionCommand;
use super::transaction_modes::Begin;
use crate::error::Error;

/// One statement, ready to run on SQLite.
#[derive(Debug, Clone, PartialEq)]
pub struct Statement {
    /// SQLite SQL (positional parameters already in `?N` form).
    pub sql: Arc<str>,
    /// What running it means for the session.
    pub action: Action,
    /// The command kind (and so the command tag) of its result.
    pub kind: CommandKind,
    /// Whether it describes rows (SELECT, RETURNING, PRAGMA, ...).
    pub returns_rows: bool,
    /// How many positional parameters it takes (the highest `$N` / `?N`).
    pub param_count: usize,
    /// How the engine runs it.
    pub plan: Plan,
    /// Whether it reads the emulated PostgreSQL catalog, which the engine brings
    /// up to date with the schema before running it.
    pub catalog: bool,
    /// PostgreSQL's types of result columns where the translation knows them
    /// better than SQLite's declared types (the arrays of `array_agg`, the
    /// expressions of catalog queries, every expression on the PostgreSQL
    /// port), by position; `None` when there is none.
    pub column_types: Option<Arc<[Option<&'static str>]>>,
    /// Whether it is a PRAGMA, in any form: it may change its connection.
    pub pragma: bool,
    /// Whether it is `CREATE TEMP|TEMPORARY ...`: an object that lives on the
    /// session's own connection.
    pub creates_temp: bool,
    /// The row locks of a query with `FOR UPDATE` and friends (taken out of
    /// `sql`), which the engine takes.
    pub row_lock: Option<RowLock>,
    /// Whether it calls a function that waits for an advisory lock: it may stop
    /// to wait and run again, so its rows are held until it ends.
    pub waits_for_locks: bool,
    /// Read with PostgreSQL's rules against this version of the schema (see
    /// `Catalog::version`), from this text: once the schema is another, the
    /// text is read again (a statement after a `CREATE TABLE` in the same
    /// batch, a prepared statement after an `ALTER TABLE`).
    pub read_against: Option<(u64, Arc<str>)>,
    /// The integer literals of a statement read with them taken out as its
    /// parameters (see `literals`), in order: what it runs with when the
    /// client binds none.
    pub literals: Option<Arc<[i64]>>,
    /// What `pg_stat_statements` counts it under: its text as PostgreSQL
    /// normalizes it, and that form's id.
    pub fingerprint: Option<Arc<Fingerprint>>,
}

/// How a statement runs on SQLite.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// `sql` is one SQLite statement.
    Single,
    /// Several SQLite statements that run as one, all or nothing (no parameters).
    Script(Arc<[Arc<str>]>),
    /// Nothing to run: the statement means nothing for SQLite (VACUUM of a table).
    Nothing,
    /// `COPY ... FROM STDIN`: rows arrive through the front end's copy protocol.
    CopyFrom(Arc<CopyFrom>),
    /// `COPY ... TO STDOUT`: a query whose rows leave through the copy protocol.
    CopyTo(Arc<CopyTo>),
    /// `SET`, `SHOW`, ...: answered from the session's settings, not by SQLite.
    Session(SessionCommand),
    /// `DECLARE ... CURSOR`, `FETCH`, `CLOSE`: the session's SQL-level cursors.
    Cursor(Arc<CursorCommand>),
    /// An `ALTER TABLE` SQLite has no statement for: the engine rebuilds the
    /// table under its new definition.
    Rebuild(Arc<AlterTable>),
    /// `CREATE TYPE ... AS ENUM`, `DROP TYPE`, `ALTER TYPE ... ADD VALUE`.
    Enum(Arc<EnumChange>),
    /// `ALTER SCHEMA ... RENAME TO`: the engine renames what the schema holds.
    RenameSchema(Arc<SchemaRename>),
    /// `ALTER INDEX ... RENAME TO`: the engine makes the index again.
    RenameIndex(Arc<IndexRename>),
    /// `BEGIN` and `START TRANSACTION`, with their modes.
    Begin(Begin),
    /// `COMMIT AND CHAIN`, `ROLLBACK AND CHAIN`: the transaction ends and a
    /// new one with its modes begins.
    Chain,
    /// `LISTEN`, `UNLISTEN`, `NOTIFY`: channels the engine keeps.
    Notify(Arc<NotifyCommand>),
    /// `PREPARE name AS statement`, `EXECUTE name (args)`: statements the
    /// session keeps by name (see `sql::prepared`).
    Prepared(Arc<PreparedCommand>),
    /// `sql` (one SQLite statement, as `Single`) between the statements that
    /// prepare it and those that clean up after it, all in one savepoint
    /// (see `sql::modifying_ctes`).
    Staged(Arc<Staged>),
}

/// `ALTER INDEX ... RENAME TO` (or `ALTER VIEW`'s): the index's name and its
/// new one.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexRename {
    pub from: String,
    pub to: String,
    pub if_exists: bool,
    /// A view, made again the same way.
    pub view: bool,
}

/// The statements around a staged one (see [`Plan::Staged`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Staged {
    pub before: Arc<[Arc<str>]>,
    pub after: Arc<[Arc<str>]>,
}

/// A prepared-statement command (see `sql::prepared`).
#[derive(Debug, Clone, PartialEq)]
pub enum PreparedCommand {
    /// `PREPARE name [(types)] AS statement`: the statement, read now.
    Prepare { name: String, statement: Statement },
    /// `EXECUTE name [(args)]`: each argument as text (`None` for NULL), and
    /// whether it was written as a number.
    Execute {
        name: String,
        args: Vec<(Option<String>, bool)>,
    },
}

impl Statement {
    /// Whether running it needs the write permit.
    pub fn writes(&self) -> bool {
        matches!(self.action, Action::Write | Action::WriteFile)
    }
}

/// `COPY ... FROM STDIN`: the target table and how its rows are written.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyFrom {
    pub table: String,
    /// Empty: every column of the table, in order.
    pub columns: Vec<String>,
    pub options: CopyOptions,
}

/// `COPY ... TO STDOUT`: the query whose rows are sent, and how they are written.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyTo {
    /// `SELECT cols FROM t` for a table, or the parenthesized query itself.
    pub query: Statement,
    pub options: CopyOptions,
}

/// A cursor command (see `sql::cursors`).
#[derive(Debug, Clone, PartialEq)]
pub enum CursorCommand {
    /// `DECLARE name [options] CURSOR [WITH | WITHOUT HOLD] FOR query`.
    Declare {
        name: String,
        /// Kept past the COMMIT of its transaction (`WITH HOLD`).
        hold: bool,
        query: Arc<Statement>,
    },
    /// `FETCH [direction] [FROM | IN] name`; `count` None is ALL.
    Fetch { name: String, count: Option<u64> },
    /// `CLOSE name`, or `CLOSE ALL` (None).
    Close(Option<String>),
}

/// Parses a statement nested in another (a cursor's query, `COPY (query) TO`):
/// `parse_single`, handed down by the parser to the code that reads those
/// statements, which so need not import the parser that calls them.
pub(super) type ParseQuery<'a> = &'a dyn Fn(&str) -> Result<Option<Statement>, Error>;
