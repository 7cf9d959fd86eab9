//! Sequences as SQL text: `CREATE`/`ALTER`/`DROP SEQUENCE`, and the sequences
//! that `serial` and identity columns own.
//!
//! A sequence is a row of `litewire_sequences`, a table of litewire's own in the
//! database file (made on first use, hidden from the catalog's table lists): its
//! definition (type, start, increment, bounds, cycle, owner) and its persisted
//! state (`last_value`, `is_called`). Sequence DDL is therefore ordinary,
//! transactional SQL on that table, run as one script (all or nothing), and it
//! rolls back with the transaction as PostgreSQL's does. Values are handed out by
//! the engine's `nextval()` (see `engine::sequences`), which keeps the counters
//! that ROLLBACK must not undo.
//!
//! Each definition carries a random `token`, drawn again whenever the sequence
//! is (re)created or restarted: it tells the engine that its in-memory counter
//! belongs to an older incarnation and must be read again from the row.
//!
//! A `serial` or identity column that is not the table's one-column primary key
//! becomes a column whose default is `nextval('t_col_seq')`, with the sequence
//! owned by the column; SQLite evaluates a non-deterministic function in a
//! DEFAULT for every row it inserts, so explicit values, multi-row VALUES and
//! `INSERT ... SELECT` behave as in PostgreSQL without triggers or a rewrite of
//! every INSERT. The one-column `INTEGER PRIMARY KEY` keeps SQLite's rowid
//! assignment (no sequence at all): the fast path, and the storage every SQLite
//! tool expects.
//!
//! SQLite has no DROP hook, so the sequences of a dropped table are not dropped
//! with it: they stay out of the catalog (their owner is gone) and are removed
//! when a table of that name is created again.

use sqlparser::ast::{Expr, SequenceOptions as AstOption};

use super::super::lexer::{Token, TokenKind};
use super::super::quote::{literal, unquote_identifier};
use super::super::words::Words;
use crate::error::{Error, ErrorKind};

/// litewire's table of sequences, in the main database.
pub const SEQUENCES_TABLE: &str = "litewire_sequences";

/// Creates the table of sequences when it does not exist yet.
const CREATE_TABLE: &str = "CREATE TABLE IF NOT EXISTS main.litewire_sequences (\
oid INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, type TEXT NOT NULL, \
start_value INTEGER NOT NULL, increment INTEGER NOT NULL, min_value INTEGER NOT NULL, \
max_value INTEGER NOT NULL, cycle INTEGER NOT NULL, last_value INTEGER NOT NULL, \
is_called INTEGER NOT NULL, token INTEGER NOT NULL, owned_table TEXT, owned_column TEXT, \
identity TEXT)";

/// The integer types a sequence may have, with their bounds.
fn type_bounds(name: &str) -> Option<(&'static str, i64, i64)> {
    match name.to_ascii_lowercase().as_str() {
        "smallint" | "int2" | "smallserial" | "serial2" => {
            Some(("smallint", i16::MIN.into(), i16::MAX.into()))
        }
        "integer" | "int" | "int4" | "serial" | "serial4" => {
            Some(("integer", i32::MIN.into(), i32::MAX.into()))
        }
        "bigint" | "int8" | "bigserial" | "serial8" => Some(("bigint", i64::MIN, i64::MAX)),
        _ => None,
    }
}

/// The options of `CREATE`/`ALTER SEQUENCE` and of an identity column, as given.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Options {
    pub data_type: Option<String>,
    pub increment: Option<i64>,
    /// `Some(None)`: `NO MINVALUE`.
    pub min: Option<Option<i64>>,
    pub max: Option<Option<i64>>,
    pub start: Option<i64>,
    /// `Some(None)`: `RESTART` without a value (the start value).
    pub restart: Option<Option<i64>>,
    pub cycle: Option<bool>,
    /// `Some(None)`: `OWNED BY NONE`.
    pub owned_by: Option<Option<(String, String)>>,
}

/// A sequence definition with every option resolved.
#[derive(Debug, Clone, PartialEq)]
struct Definition {
    data_type: &'static str,
    start: i64,
    increment: i64,
    min: i64,
    max: i64,
    cycle: bool,
}

fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidParameterValue, message)
}

fn syntax(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Syntax, message)
}

impl Options {
    /// The definition `CREATE SEQUENCE` makes of these options, with
    /// PostgreSQL's defaults and checks.
    fn resolve(&self, default_type: &str) -> Result<Definition, Error> {
        let type_name = self.data_type.as_deref().unwrap_or(default_type);
        let (data_type, type_min, type_max) = type_bounds(type_name).ok_or_else(|| {
            invalid("sequence type must be smallint, integer, or bigint".to_owned())
        })?;
        let increment = self.increment.unwrap_or(1);
        if increment == 0 {
            return Err(invalid("INCREMENT must not be zero"));
        }
        let min = self
            .min
            .flatten()
            .unwrap_or(if increment > 0 { 1 } else { type_min });
        let max = self
            .max
            .flatten()
            .unwrap_or(if increment > 0 { type_max } else { -1 });
        if min < type_min || max > type_max {
            return Err(invalid(format!(
                "MINVALUE ({min}) and MAXVALUE ({max}) must fit in type {data_type}"
            )));
        }
        if min >= max {
            return Err(invalid(format!(
                "MINVALUE ({min}) must be less than MAXVALUE ({max})"
            )));
        }
        let start = self.start.unwrap_or(if increment > 0 { min } else { max });
        if start < min {
            return Err(invalid(format!(
                "START value ({start}) cannot be less than MINVALUE ({min})"
            )));
        }
        if start > max {
            return Err(invalid(format!(
                "START value ({start}) cannot be greater than MAXVALUE ({max})"
            )));
        }
        Ok(Definition {
            data_type,
            start,
            increment,
            min,
            max,
            cycle: self.cycle.unwrap_or(false),
        })
    }

    /// Options given to an identity column in `GENERATED ... AS IDENTITY (...)`.
    pub(crate) fn from_ast(options: &[AstOption]) -> Result<Options, Error> {
        let mut out = Options::default();
        for option in options {
            match option {
                AstOption::DataType(t) => out.data_type = Some(t.to_string()),
                AstOption::IncrementBy(e, _) => out.increment = Some(number(e)?),
                AstOption::MinValue(e) => out.min = Some(e.as_ref().map(number).transpose()?),
                AstOption::MaxValue(e) => out.max = Some(e.as_ref().map(number).transpose()?),
                AstOption::StartWith(e, _) => out.start = Some(number(e)?),
                AstOption::Cache(e) => {
                    number(e)?;
                }
                AstOption::Cycle(no) => out.cycle = Some(!no),
                AstOption::OwnedBy(_) => {}
            }
        }
        Ok(out)
    }
}

fn number(expr: &Expr) -> Result<i64, Error> {
    let text = expr.to_string().replace(' ', "");
    text.parse()
        .map_err(|_| syntax(format!("syntax error at or near \"{text}\"")))
}

/// A PostgreSQL name as it is spelled in SQL: unquoted words fold to lower case.
fn folded(token: &Token, sql: &str) -> String {
    let text = token.text(sql);
    match token.kind {
        TokenKind::QuotedIdent => unquote_identifier(text),
        _ => text.to_ascii_lowercase(),
    }
}

/// A relation name written as text (`nextval('s')`, `'public.t'`): what
/// PostgreSQL's `regclass` input makes of it, without the schema (litewire has
/// one). `None` for text that is no name.
pub fn relation_name(text: &str) -> Option<String> {
    let tokens = super::super::lexer::tokenize(text);
    let mut parts = Vec::new();
    let mut i = 0;
    loop {
        let token = tokens.get(i)?;
        if !matches!(token.kind, TokenKind::Word | TokenKind::QuotedIdent) {
            return None;
        }
        parts.push(folded(token, text));
        i += 1;
        match tokens.get(i) {
            None => break,
            Some(t) if t.text(text) == "." => i += 1,
            Some(_) => return None,
        }
    }
    parts.pop()
}

/// The name PostgreSQL gives the sequence of a `serial` or identity column.
pub(crate) fn serial_sequence_name(table: &str, column: &str) -> String {
    format!("{table}_{column}_seq")
}

/// What a recognised sequence statement becomes: SQLite statements run as one.
pub(crate) fn statement(sql: &str, tokens: &[Token]) -> Result<Option<Vec<String>>, Error> {
    let w = Words { sql, tokens };
    let mut i = 1;
    if w.is(0, "CREATE") && (w.is(1, "TEMP") || w.is(1, "TEMPORARY")) {
        i = 2;
    }
    if !w.is(i, "SEQUENCE") {
        return Ok(None);
    }
    let script = if w.is(0, "CREATE") {
        create(&w, i + 1)?
    } else if w.is(0, "ALTER") {
        alter(&w, i + 1)?
    } else if w.is(0, "DROP") {
        drop_sequences(&w, i + 1)?
    } else {
        return Ok(None);
    };
    Ok(Some(script))
}

/// Reads a sequence name at `i` (its schema, if any, dropped).
fn sequence_name(w: &Words, mut i: usize) -> Result<(String, usize), Error> {
    let mut name = None;
    loop {
        match w.tokens.get(i) {
            Some(t) if matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent) => {
                name = Some(folded(t, w.sql));
                i += 1;
            }
            _ => break,
        }
        if w.text(i) != "." {
            break;
        }
        i += 1;
    }
    match name {
        Some(name) => Ok((name, i)),
        None => Err(syntax(format!("syntax error at or near \"{}\"", w.text(i)))),
    }
}

fn if_exists(w: &Words, i: usize) -> (bool, usize) {
    if w.is(i, "IF") && w.is(i + 1, "EXISTS") {
        (true, i + 2)
    } else {
        (false, i)
    }
}

/// A signed integer at `i`.
fn integer(w: &Words, i: usize) -> Result<(i64, usize), Error> {
    let (negative, at) = match w.text(i) {
        "-" => (true, i + 1),
        "+" => (false, i + 1),
        _ => (false, i),
    };
    if w.kind(at) != Some(TokenKind::Number) {
        return Err(syntax(format!(
            "syntax error at or near \"{}\"",
            w.text(at)
        )));
    }
    let text = format!("{}{}", if negative { "-" } else { "" }, w.text(at));
    let value = text
        .parse()
        .map_err(|_| invalid(format!("value \"{text}\" is out of range for type bigint")))?;
    Ok((value, at + 1))
}

/// Sequence options from `i` to the end of the statement.
fn options(w: &Words, mut i: usize, alter: bool) -> Result<Options, Error> {
    let mut out = Options::default();
    while i < w.tokens.len() {
        if w.is(i, "AS") {
            let (name, next) = sequence_name(w, i + 1)?;
            out.data_type = Some(name);
            i = next;
        } else if w.is(i, "INCREMENT") {
            i += 1;
            if w.is(i, "BY") {
                i += 1;
            }
            let (value, next) = integer(w, i)?;
            out.increment = Some(value);
            i = next;
        } else if w.is(i, "MINVALUE") || w.is(i, "MAXVALUE") {
            let (value, next) = integer(w, i + 1)?;
            if w.is(i, "MINVALUE") {
                out.min = Some(Some(value));
            } else {
                out.max = Some(Some(value));
            }
            i = next;
        } else if w.is(i, "NO") && w.is(i + 1, "MINVALUE") {
            out.min = Some(None);
            i += 2;
        } else if w.is(i, "NO") && w.is(i + 1, "MAXVALUE") {
            out.max = Some(None);
            i += 2;
        } else if w.is(i, "NO") && w.is(i + 1, "CYCLE") {
            out.cycle = Some(false);
            i += 2;
        } else if w.is(i, "CYCLE") {
            out.cycle = Some(true);
            i += 1;
        } else if w.is(i, "START") {
            i += 1;
            if w.is(i, "WITH") {
                i += 1;
            }
            let (value, next) = integer(w, i)?;
            out.start = Some(value);
            i = next;
        } else if alter && w.is(i, "RESTART") {
            i += 1;
            if w.is(i, "WITH") {
                i += 1;
            }
            if matches!(w.kind(i), Some(TokenKind::Number)) || matches!(w.text(i), "-" | "+") {
                let (value, next) = integer(w, i)?;
                out.restart = Some(Some(value));
                i = next;
            } else {
                out.restart = Some(None);
            }
        } else if w.is(i, "CACHE") {
            i = integer(w, i + 1)?.1;
        } else if w.is(i, "OWNED") && w.is(i + 1, "BY") {
            if w.is(i + 2, "NONE") {
                out.owned_by = Some(None);
                i += 3;
            } else {
                let start = i + 2;
                let mut parts = Vec::new();
                let mut j = start;
                while let Some(t) = w.tokens.get(j) {
                    if !matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent) {
                        break;
                    }
                    parts.push(folded(t, w.sql));
                    j += 1;
                    if w.text(j) != "." {
                        break;
                    }
                    j += 1;
                }
                let column = parts.pop();
                let table = parts.pop();
                match (table, column) {
                    (Some(table), Some(column)) => out.owned_by = Some(Some((table, column))),
                    _ => {
                        return Err(syntax(
                            "invalid OWNED BY option: specify OWNED BY table.column or OWNED BY NONE",
                        ));
                    }
                }
                i = j;
            }
        } else {
            return Err(syntax(format!("syntax error at or near \"{}\"", w.text(i))));
        }
    }
    Ok(out)
}

/// A statement that fails with `message` when `condition` (SQL) holds.
fn fail_when(condition: &str, message: &str) -> String {
    format!(
        "SELECT litewire_error({}) WHERE {condition}",
        literal(message)
    )
}

fn exists(name: &str) -> String {
    format!(
        "EXISTS (SELECT 1 FROM main.{SEQUENCES_TABLE} WHERE name = {})",
        literal(name)
    )
}

/// `INSERT`s the row of a new sequence (nothing if one of that name exists and
/// `or_ignore`, nothing unless `condition` holds).
fn insert(
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

/// `CREATE [TEMP] SEQUENCE [IF NOT EXISTS] name [options]`.
fn create(w: &Words, i: usize) -> Result<Vec<String>, Error> {
    let (if_not_exists, i) = if w.is(i, "IF") && w.is(i + 1, "NOT") && w.is(i + 2, "EXISTS") {
        (true, i + 3)
    } else {
        (false, i)
    };
    let (name, i) = sequence_name(w, i)?;
    let options = options(w, i, false)?;
    let definition = options.resolve("bigint")?;
    let owner = options.owned_by.clone().flatten();
    let mut script = vec![CREATE_TABLE.to_owned()];
    if !if_not_exists {
        script.push(fail_when(
            &exists(&name),
            &format!("relation \"{name}\" already exists"),
        ));
    }
    if let Some((table, _)) = &owner {
        script.push(owner_check(table));
    }
    script.push(insert(
        &name,
        &definition,
        owner.as_ref().map(|(t, c)| (t.as_str(), c.as_str())),
        None,
        if_not_exists,
        "true",
    ));
    Ok(script)
}

/// Fails unless `table` exists.
fn owner_check(table: &str) -> String {
    fail_when(
        &format!(
            "NOT EXISTS (SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = {} COLLATE NOCASE)",
            literal(table)
        ),
        &format!("relation \"{table}\" does not exist"),
    )
}

/// `ALTER SEQUENCE [IF EXISTS] name options`.
fn alter(w: &Words, i: usize) -> Result<Vec<String>, Error> {
    let (if_exists, i) = if_exists(w, i);
    let (name, i) = sequence_name(w, i)?;
    let options = options(w, i, true)?;
    if options.increment == Some(0) {
        return Err(invalid("INCREMENT must not be zero"));
    }
    let mut script = vec![CREATE_TABLE.to_owned()];
    if !if_exists {
        script.push(fail_when(
            &format!("NOT {}", exists(&name)),
            &format!("relation \"{name}\" does not exist"),
        ));
    }
    let mut sets = Vec::new();
    if let Some(data_type) = &options.data_type {
        let (canonical, type_min, type_max) = type_bounds(data_type)
            .ok_or_else(|| invalid("sequence type must be smallint, integer, or bigint"))?;
        sets.push(format!("type = '{canonical}'"));
        // Bounds at the old type's limits follow the type, as in PostgreSQL.
        if options.max.is_none() {
            sets.push(format!(
                "max_value = CASE WHEN max_value > {type_max} OR max_value IN (32767, 2147483647, 9223372036854775807) THEN {type_max} ELSE max_value END"
            ));
        }
        if options.min.is_none() {
            sets.push(format!(
                "min_value = CASE WHEN min_value < {type_min} OR min_value IN (-32768, -2147483648, -9223372036854775808) THEN {type_min} ELSE min_value END"
            ));
        }
    }
    if let Some(increment) = options.increment {
        sets.push(format!("increment = {increment}"));
    }
    // `NO MINVALUE`/`NO MAXVALUE`: the defaults for the (new) increment's sign.
    let type_limit = |max: bool| {
        let (a, b) = if max {
            ("32767", "2147483647")
        } else {
            ("-32768", "-2147483648")
        };
        let big = if max { i64::MAX } else { i64::MIN };
        format!("CASE type WHEN 'smallint' THEN {a} WHEN 'integer' THEN {b} ELSE {big} END")
    };
    match options.min {
        Some(Some(min)) => sets.push(format!("min_value = {min}")),
        Some(None) => sets.push(format!(
            "min_value = CASE WHEN increment > 0 THEN 1 ELSE {} END",
            type_limit(false)
        )),
        None => {}
    }
    match options.max {
        Some(Some(max)) => sets.push(format!("max_value = {max}")),
        Some(None) => sets.push(format!(
            "max_value = CASE WHEN increment > 0 THEN {} ELSE -1 END",
            type_limit(true)
        )),
        None => {}
    }
    if let Some(start) = options.start {
        sets.push(format!("start_value = {start}"));
    }
    if let Some(cycle) = options.cycle {
        sets.push(format!("cycle = {}", i64::from(cycle)));
    }
    match &options.owned_by {
        Some(Some((table, column))) => {
            script.push(owner_check(table));
            sets.push(format!(
                "owned_table = {}, owned_column = {}",
                literal(table),
                literal(column)
            ));
        }
        Some(None) => sets.push("owned_table = NULL, owned_column = NULL".to_owned()),
        None => {}
    }
    let quoted = literal(&name);
    if !sets.is_empty() {
        script.push(format!(
            "UPDATE main.{SEQUENCES_TABLE} SET {} WHERE name = {quoted}",
            sets.join(", ")
        ));
    }
    // RESTART comes after the other changes (`RESTART` alone: the start value,
    // which the same statement may have just set).
    if let Some(restart) = options.restart {
        let value = restart.map_or_else(|| "start_value".to_owned(), |v| v.to_string());
        script.push(format!(
            "UPDATE main.{SEQUENCES_TABLE} SET last_value = {value}, is_called = 0, token = random() WHERE name = {quoted}"
        ));
    }
    // The result must still be a valid sequence.
    let row = |condition: &str| {
        format!(
            "EXISTS (SELECT 1 FROM main.{SEQUENCES_TABLE} WHERE name = {quoted} AND {condition})"
        )
    };
    script.push(fail_when(
        &row("min_value >= max_value"),
        "MINVALUE must be less than MAXVALUE",
    ));
    script.push(fail_when(
        &row("(start_value < min_value OR start_value > max_value)"),
        "START value must lie between MINVALUE and MAXVALUE",
    ));
    if options.restart.is_some() {
        script.push(fail_when(
            &row("(last_value < min_value OR last_value > max_value)"),
            "RESTART value must lie between MINVALUE and MAXVALUE",
        ));
    }
    Ok(script)
}

/// `DROP SEQUENCE [IF EXISTS] a [, b ...] [CASCADE | RESTRICT]`. A sequence a
/// column's default uses is dropped only with CASCADE, as in PostgreSQL (which
/// also drops the default; SQLite cannot change a column's default, so the
/// column keeps it and inserts that rely on it fail).
fn drop_sequences(w: &Words, i: usize) -> Result<Vec<String>, Error> {
    let (if_exists, mut i) = if_exists(w, i);
    let mut names = Vec::new();
    loop {
        let (name, next) = sequence_name(w, i)?;
        names.push(name);
        i = next;
        if w.text(i) == "," {
            i += 1;
            continue;
        }
        break;
    }
    let cascade = w.is(i, "CASCADE");
    if cascade || w.is(i, "RESTRICT") {
        i += 1;
    }
    if i < w.tokens.len() {
        return Err(syntax(format!("syntax error at or near \"{}\"", w.text(i))));
    }
    let mut script = vec![CREATE_TABLE.to_owned()];
    for name in names {
        let quoted = literal(&name);
        if !if_exists {
            script.push(fail_when(
                &format!("NOT {}", exists(&name)),
                &format!("sequence \"{name}\" does not exist"),
            ));
        }
        if !cascade {
            script.push(fail_when(
                &format!(
                    "EXISTS (SELECT 1 FROM main.{SEQUENCES_TABLE} s WHERE s.name = {quoted} \
                     AND EXISTS (SELECT 1 FROM main.sqlite_schema m WHERE m.type = 'table' \
                     AND m.name = s.owned_table COLLATE NOCASE))"
                ),
                &format!(
                    "cannot drop sequence {name} because other objects depend on it (use DROP ... CASCADE)"
                ),
            ));
        }
        script.push(format!(
            "DELETE FROM main.{SEQUENCES_TABLE} WHERE name = {quoted}"
        ));
    }
    Ok(script)
}

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
}

impl OwnedSequence {
    pub(crate) fn name(&self) -> String {
        serial_sequence_name(&self.table, &self.column)
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
        let cleanup = format!(
            "DELETE FROM main.{SEQUENCES_TABLE} WHERE owned_table = {table} COLLATE NOCASE AND {absent}"
        );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::lexer::tokenize;

    fn script(sql: &str) -> Result<Vec<String>, Error> {
        statement(sql, &tokenize(sql)).map(Option::unwrap_or_default)
    }

    #[test]
    fn create_resolves_postgres_defaults() {
        let s = script(
            "CREATE SEQUENCE public.Seq START 5 INCREMENT BY -1 MINVALUE -3 MAXVALUE 9 CYCLE",
        )
        .unwrap();
        assert_eq!(s[0], CREATE_TABLE);
        assert!(s[1].contains("relation \"seq\" already exists"), "{s:?}");
        assert!(
            s[2].contains("SELECT 'seq', 'bigint', 5, -1, -3, 9, 1, 5, 0, random(), NULL, NULL, NULL WHERE true"),
            "{s:?}"
        );
        let s = script("create sequence if not exists \"S\" as smallint").unwrap();
        assert_eq!(s.len(), 2);
        assert!(
            s[1].starts_with("INSERT OR IGNORE")
                && s[1].contains("SELECT 'S', 'smallint', 1, 1, 1, 32767, 0, 1,"),
            "{s:?}"
        );
    }

    #[test]
    fn bad_options_are_refused() {
        assert_eq!(
            script("create sequence s increment 0").unwrap_err().kind,
            ErrorKind::InvalidParameterValue
        );
        assert!(
            script("create sequence s minvalue 5 maxvalue 5")
                .unwrap_err()
                .message
                .contains("must be less than")
        );
        assert!(
            script("create sequence s start 0")
                .unwrap_err()
                .message
                .contains("cannot be less than MINVALUE")
        );
        assert_eq!(
            script("create sequence s bogus").unwrap_err().kind,
            ErrorKind::Syntax
        );
        assert!(script("create sequence s as text").is_err());
    }

    #[test]
    fn alter_and_drop() {
        let s = script("ALTER SEQUENCE s RESTART WITH 10 INCREMENT 2").unwrap();
        assert!(s.iter().any(|p| p.contains("SET increment = 2")), "{s:?}");
        assert!(
            s.iter()
                .any(|p| p.contains("SET last_value = 10, is_called = 0, token = random()")),
            "{s:?}"
        );
        let s = script("ALTER SEQUENCE IF EXISTS s RESTART").unwrap();
        assert!(!s.iter().any(|p| p.contains("does not exist")), "{s:?}");
        assert!(s.iter().any(|p| p.contains("SET last_value = start_value")));
        let s = script("DROP SEQUENCE a, b CASCADE").unwrap();
        assert_eq!(s.len(), 5, "{s:?}");
        assert_eq!(script("DROP SEQUENCE IF EXISTS a").unwrap().len(), 3);
        assert!(
            script("DROP SEQUENCE a")
                .unwrap()
                .iter()
                .any(|p| p.contains("because other objects depend on it"))
        );
        assert!(
            statement("DROP TABLE a", &tokenize("DROP TABLE a"))
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn relation_names_as_regclass_reads_them() {
        assert_eq!(relation_name("s").as_deref(), Some("s"));
        assert_eq!(relation_name("Public.S").as_deref(), Some("s"));
        assert_eq!(relation_name("\"My Seq\"").as_deref(), Some("My Seq"));
        assert_eq!(relation_name("a b"), None);
        assert_eq!(relation_name(""), None);
    }
}
