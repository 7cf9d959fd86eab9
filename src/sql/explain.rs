//! `EXPLAIN [ANALYZE] [VERBOSE] statement` and `EXPLAIN (option [, ...])
//! statement` on the PostgreSQL port: one text column `QUERY PLAN`, a row
//! per line, as PostgreSQL answers, holding SQLite's plan of the statement as
//! the PostgreSQL port reads it (see `engine::functions::explain`). PostgreSQL's
//! options are read and checked (`COSTS`, `VERBOSE`, `TIMING`, `SUMMARY`, ...
//! change nothing here: SQLite's plan has no costs); `ANALYZE` runs a query
//! and shows its rows and (unless `SUMMARY off`) its time, and is refused (0A000) for a statement that
//! changes data; a format other than `TEXT` is refused (0A000). SQLite's own
//! `EXPLAIN QUERY PLAN` passes through.

use super::classify::{self, CommandKind};
use super::lexer::{TokenKind, tokenize};
use super::quote::literal;
use super::statement::{Plan, Statement};
use super::statement_fields::statement as built;
use super::words::Words;
use crate::error::{Error, SqlState};

/// The statement an `EXPLAIN` runs; `None` for any other (and for SQLite's
/// `EXPLAIN QUERY PLAN`). `build` reads the statement explained.
pub(super) fn statement(
    w: &Words,
    build: &dyn Fn(&str) -> Result<Statement, Error>,
) -> Option<Result<Statement, Error>> {
    if !w.is(0, "EXPLAIN") || w.is(1, "QUERY") {
        return None;
    }
    Some(explained(w, build))
}

fn explained(
    w: &Words,
    build: &dyn Fn(&str) -> Result<Statement, Error>,
) -> Result<Statement, Error> {
    let mut analyze = false;
    // With ANALYZE, the planning and execution times (PostgreSQL's default).
    let mut summary = true;
    let mut i = 1;
    if w.kind(1) == Some(TokenKind::LeftParen) {
        let close = w.closing(1).ok_or_else(|| w.syntax_error(1))?;
        i = 2;
        while i < close {
            let name = w.text(i).to_ascii_lowercase();
            let value_end = (i + 1..close).find(|&j| w.text(j) == ",").unwrap_or(close);
            let value = (i + 1..value_end)
                .map(|j| w.text(j).to_ascii_lowercase())
                .collect::<Vec<_>>()
                .join(" ");
            let value = value.trim_matches('\'');
            let flag = || match value {
                "" | "true" | "on" | "1" => Ok(true),
                "false" | "off" | "0" => Ok(false),
                _ => Err(Error::state(
                    SqlState::SYNTAX_ERROR,
                    format!("{name} requires a Boolean value"),
                )),
            };
            match name.as_str() {
                "analyze" | "analyse" => analyze = flag()?,
                "summary" => summary = flag()?,
                "verbose" | "costs" | "settings" | "buffers" | "wal" | "timing" => {
                    flag()?;
                }
                "format" if value == "text" => {}
                "format" if ["json", "xml", "yaml"].contains(&value) => {
                    return Err(Error::state(
                        SqlState::FEATURE_NOT_SUPPORTED,
                        format!("EXPLAIN (FORMAT {}) is not supported", value.to_uppercase()),
                    ));
                }
                "format" => {
                    return Err(Error::state(
                        SqlState::INVALID_PARAMETER_VALUE,
                        format!("unrecognized value for EXPLAIN option \"format\": \"{value}\""),
                    ));
                }
                _ => {
                    return Err(Error::state(
                        SqlState::SYNTAX_ERROR,
                        format!("unrecognized EXPLAIN option \"{name}\""),
                    ));
                }
            }
            i = value_end + 1;
        }
        i = close + 1;
    } else {
        if w.is(i, "ANALYZE") || w.is(i, "ANALYSE") {
            analyze = true;
            i += 1;
        }
        if w.is(i, "VERBOSE") {
            i += 1;
        }
    }
    let start = w.tokens.get(i).ok_or_else(|| w.syntax_error(i))?.start;
    let inner = build(&w.sql[start..])?;
    let explainable = matches!(
        inner.kind,
        CommandKind::Select | CommandKind::Insert | CommandKind::Update | CommandKind::Delete
    );
    if !explainable {
        return Err(w.syntax_error(i));
    }
    if inner.plan != Plan::Single || inner.param_count > 0 {
        return Err(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            "EXPLAIN of this statement is not supported",
        ));
    }
    if analyze && inner.writes() {
        return Err(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            "EXPLAIN ANALYZE of a statement that changes data is not supported",
        ));
    }
    let sql = format!(
        "SELECT value AS \"QUERY PLAN\" FROM json_each(litewire_query_plan({}{}))",
        literal(&inner.sql),
        match (analyze, summary) {
            (false, _) => "",
            (true, true) => ", 1",
            (true, false) => ", 2",
        }
    );
    let shape = classify::classify(&sql, &tokenize(&sql))?;
    Ok(Statement {
        catalog: inner.catalog,
        column_types: Some(std::sync::Arc::from([Some("text")])),
        ..built(sql.into(), &shape, 0, Plan::Single)
    })
}
