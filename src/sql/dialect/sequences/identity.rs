//! Identity added to, changed on or dropped from a column of a table that is
//! there: `ALTER TABLE t ALTER [COLUMN] c ADD GENERATED {ALWAYS | BY DEFAULT}
//! AS IDENTITY [(options)]`, `... SET GENERATED {ALWAYS | BY DEFAULT}` and
//! `... DROP IDENTITY [IF EXISTS]`: what `pg_dump` writes after each table
//! with an identity column, and how migration tools turn a column into one.
//!
//! Adding makes the column's sequence (named by `SEQUENCE NAME`, or as
//! PostgreSQL names it) and its default, `nextval` of it; dropping takes both
//! away; changing the kind is a change to the sequence's row. PostgreSQL's
//! checks come first, with its SQLSTATEs: the column is `NOT NULL`, of an
//! integer type, without a default, and (not) an identity column already.
//! SQLite fills the table's `INTEGER PRIMARY KEY` with its rowid, whatever its
//! default says, so that column cannot take its values from a sequence.

use super::super::rebuild_plan::{AlterAction, AlterTable};
use super::names::serial_sequence_name;
use super::names::{folded, sequence_name};
use super::options::{Options, read_options};
use super::sequence_table::{CREATE_TABLE, SEQUENCES_TABLE, exists, insert};
use crate::error::Error;
use crate::sql::lexer::{Token, TokenKind};
use crate::sql::quote::{identifier_as_postgres, literal};
use crate::sql::words::Words;

/// What the statement does to the column.
enum Change {
    Add {
        kind: char,
        options: Options,
        named: Option<String>,
    },
    Set {
        kind: char,
    },
    Drop {
        if_exists: bool,
    },
}

/// How the statement runs.
#[derive(Debug)]
pub(crate) enum IdentityChange {
    /// A rebuild for the column's default, its checks and the sequence's row
    /// first (adding and dropping).
    Rebuild(AlterTable),
    /// Statements alone (changing the kind, a row of the sequence).
    Script(Vec<String>),
}

/// The statement and how it runs; `None` for any other statement.
pub(crate) fn statement(sql: &str, tokens: &[Token]) -> Result<Option<IdentityChange>, Error> {
    let w = Words { sql, tokens };
    if !w.starts_with(&["ALTER", "TABLE"]) {
        return Ok(None);
    }
    let mut i = 2;
    let if_exists = w.is(i, "IF") && w.is(i + 1, "EXISTS");
    if if_exists {
        i += 2;
    }
    if w.is(i, "ONLY") {
        i += 1;
    }
    let Ok((table, next)) = sequence_name(&w, i) else {
        return Ok(None);
    };
    i = next;
    if !w.is(i, "ALTER") {
        return Ok(None);
    }
    i += 1;
    if w.is(i, "COLUMN") {
        i += 1;
    }
    let Some(column_token) = tokens
        .get(i)
        .filter(|t| matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent))
    else {
        return Ok(None);
    };
    let column = folded(column_token, sql);
    i += 1;
    let change = if w.is(i, "ADD") && w.is(i + 1, "GENERATED") {
        let (kind, next) = generated_kind(&w, i + 2);
        let Some(kind) = kind else {
            return Err(w.syntax_error(next));
        };
        if !(w.is(next, "AS") && w.is(next + 1, "IDENTITY")) {
            return Err(w.syntax_error(next));
        }
        let (options, named) = identity_options(&w, next + 2)?;
        Change::Add {
            kind,
            options,
            named,
        }
    } else if w.is(i, "SET") && w.is(i + 1, "GENERATED") {
        let (kind, next) = generated_kind(&w, i + 2);
        match kind {
            Some(kind) if next == tokens.len() => Change::Set { kind },
            _ => return Err(w.syntax_error(next)),
        }
    } else if w.is(i, "DROP") && w.is(i + 1, "IDENTITY") {
        let if_exists = w.is(i + 2, "IF") && w.is(i + 3, "EXISTS");
        let end = if if_exists { i + 4 } else { i + 2 };
        if end != tokens.len() {
            return Err(w.syntax_error(end));
        }
        Change::Drop { if_exists }
    } else {
        return Ok(None);
    };
    plan(table, column, if_exists, change).map(Some)
}

/// `ALWAYS` or `BY DEFAULT` at `i`, and the index after it.
fn generated_kind(w: &Words, i: usize) -> (Option<char>, usize) {
    if w.is(i, "ALWAYS") {
        (Some('a'), i + 1)
    } else if w.is(i, "BY") && w.is(i + 1, "DEFAULT") {
        (Some('d'), i + 2)
    } else {
        (None, i)
    }
}

/// `(options)` at `i`, to the end of the statement, with the name `SEQUENCE
/// NAME` gives (its schema dropped).
fn identity_options(w: &Words, i: usize) -> Result<(Options, Option<String>), Error> {
    if i == w.tokens.len() {
        return Ok((Options::default(), None));
    }
    if w.kind(i) != Some(TokenKind::LeftParen) {
        return Err(w.syntax_error(i));
    }
    let close = w.closing(i).ok_or_else(|| w.syntax_error(i))?;
    if close + 1 != w.tokens.len() {
        return Err(w.syntax_error(close + 1));
    }
    let inner = &w.tokens[i + 1..close];
    let mut named = None;
    let mut rest: Vec<Token> = Vec::with_capacity(inner.len());
    let inner_words = Words {
        sql: w.sql,
        tokens: inner,
    };
    let mut j = 0;
    while j < inner.len() {
        if inner_words.is(j, "SEQUENCE") && inner_words.is(j + 1, "NAME") {
            let (name, next) = sequence_name(&inner_words, j + 2)?;
            named = Some(name);
            j = next;
        } else {
            rest.push(inner[j]);
            j += 1;
        }
    }
    let options = read_options(
        &Words {
            sql: w.sql,
            tokens: &rest,
        },
        0,
        false,
    )?;
    Ok((options, named))
}

fn plan(
    table: String,
    column: String,
    if_exists: bool,
    change: Change,
) -> Result<IdentityChange, Error> {
    let (t, c) = (literal(&table), literal(&column));
    let info = format!("pragma_table_info({t}) WHERE name = {c} COLLATE NOCASE");
    let owned = format!("owned_table = {t} COLLATE NOCASE AND owned_column = {c} COLLATE NOCASE");
    let is_identity = format!(
        "EXISTS (SELECT 1 FROM main.{SEQUENCES_TABLE} WHERE {owned} AND identity IS NOT NULL)"
    );
    let of = format!("column \"{column}\" of relation \"{table}\"");
    // With IF EXISTS, a missing table is no error and nothing is done (the
    // rebuild then finds no table).
    let present = format!(
        "EXISTS (SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = {t} COLLATE NOCASE)"
    );
    let fail = |state: &str, message: &str, condition: &str| {
        format!(
            "SELECT litewire_error({}, {}) WHERE {present} AND ({condition})",
            literal(state),
            literal(message)
        )
    };
    let mut only_if = None;
    let mut before = vec![CREATE_TABLE.to_owned()];
    if !if_exists {
        before.push(format!(
            "SELECT litewire_error('42P01', {}) WHERE NOT {present}",
            literal(&format!("relation \"{table}\" does not exist"))
        ));
    }
    before.push(fail(
        "42703",
        &format!("{of} does not exist"),
        &format!("NOT EXISTS (SELECT 1 FROM {info})"),
    ));
    let actions = match change {
        Change::Add {
            kind,
            options,
            named,
        } => {
            before.push(fail(
                "55000",
                &format!("{of} must be declared NOT NULL before identity can be added"),
                &format!("EXISTS (SELECT 1 FROM {info} AND \"notnull\" = 0 AND pk = 0)"),
            ));
            before.push(fail(
                "55000",
                &format!("{of} is already an identity column"),
                &is_identity,
            ));
            before.push(fail(
                "55000",
                &format!("{of} already has a default value"),
                &format!("EXISTS (SELECT 1 FROM {info} AND dflt_value IS NOT NULL)"),
            ));
            before.push(fail(
                "0A000",
                &format!(
                    "{of} is the table's INTEGER PRIMARY KEY, which SQLite numbers itself: \
                     it cannot become an identity column"
                ),
                &format!(
                    "EXISTS (SELECT 1 FROM {info} AND pk = 1 AND type = 'INTEGER' COLLATE NOCASE) \
                     AND (SELECT count(*) FROM pragma_table_info({t}) WHERE pk > 0) = 1"
                ),
            ));
            let name = named.unwrap_or_else(|| serial_sequence_name(&table, &column));
            // What a dropped table or column of the same name left.
            before.push(format!("DELETE FROM main.{SEQUENCES_TABLE} WHERE {owned}"));
            before.push(fail(
                "42P07",
                &format!("relation \"{name}\" already exists"),
                &exists(&name),
            ));
            // The sequence has the column's type unless its options say: one
            // row made for whichever type the column has.
            for (type_name, spellings) in INTEGER_TYPES {
                let condition = format!(
                    "{present} AND EXISTS (SELECT 1 FROM {info} AND lower(type) IN ({spellings}))"
                );
                let sequence_type = options.data_type.as_deref().unwrap_or(type_name);
                before.push(match options.resolve(sequence_type) {
                    Ok(definition) => insert(
                        &name,
                        &definition,
                        Some((&table, &column)),
                        Some(kind),
                        false,
                        &condition,
                    ),
                    Err(error) => format!(
                        "SELECT litewire_error('22023', {}) WHERE {condition}",
                        literal(&error.message)
                    ),
                });
            }
            let spellings: Vec<&str> = INTEGER_TYPES.iter().map(|(_, s)| *s).collect();
            before.push(fail(
                "22023",
                "identity column type must be smallint, integer, or bigint",
                &format!(
                    "EXISTS (SELECT 1 FROM {info} AND lower(type) NOT IN ({}))",
                    spellings.join(", ")
                ),
            ));
            vec![AlterAction::SetDefault {
                column,
                expr: Some(format!(
                    "nextval({})",
                    literal(&identifier_as_postgres(&name))
                )),
            }]
        }
        Change::Set { kind } => {
            before.push(fail(
                "55000",
                &format!("{of} is not an identity column"),
                &format!("NOT {is_identity}"),
            ));
            before.push(format!(
                "UPDATE main.{SEQUENCES_TABLE} SET identity = '{kind}' \
                 WHERE {owned} AND identity IS NOT NULL"
            ));
            return Ok(IdentityChange::Script(before));
        }
        Change::Drop { if_exists: quiet } => {
            if quiet {
                only_if = Some(format!("{present} AND {is_identity}"));
            } else {
                before.push(fail(
                    "55000",
                    &format!("{of} is not an identity column"),
                    &format!("NOT {is_identity}"),
                ));
            }
            before.push(format!(
                "DELETE FROM main.{SEQUENCES_TABLE} WHERE {owned} AND identity IS NOT NULL"
            ));
            vec![AlterAction::SetDefault { column, expr: None }]
        }
    };
    Ok(IdentityChange::Rebuild(AlterTable {
        table,
        if_exists,
        only_if,
        before,
        actions,
    }))
}

/// PostgreSQL's integer types, with the spellings SQLite keeps of them.
const INTEGER_TYPES: [(&str, &str); 3] = [
    ("smallint", "'smallint', 'int2'"),
    ("integer", "'integer', 'int', 'int4'"),
    ("bigint", "'bigint', 'int8'"),
];
