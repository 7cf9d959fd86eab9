//! `PREPARE name [(type, ...)] AS statement` and `EXECUTE name [(value, ...)]`:
//! statements a session keeps by name at the SQL level, as `pg_dump` prepares
//! its per-object queries. The statement is read when it is prepared, with
//! its `$n` parameters; the session keeps it (see `engine::session`), and an
//! `EXECUTE` runs it with its values as the parameters. `DEALLOCATE` drops it.

use super::lexer::TokenKind;
use super::quote::{unquote_identifier, unquote_literal};
use super::statement::PreparedCommand;
use super::words::Words;
use crate::error::Error;

/// `PREPARE`: the name and the text of the statement it prepares; `None` for
/// any other statement.
pub(super) fn prepare(w: &Words) -> Option<Result<(String, usize), Error>> {
    if !w.is(0, "PREPARE") {
        return None;
    }
    Some(read_prepare(w))
}

/// The name, and where the prepared statement's text starts.
fn read_prepare(w: &Words) -> Result<(String, usize), Error> {
    let name = name(w, 1)?;
    let mut i = 2;
    if w.kind(i) == Some(TokenKind::LeftParen) {
        i = w.closing(i).ok_or_else(|| w.syntax_error(i))? + 1;
    }
    if !w.is(i, "AS") || i + 1 >= w.tokens.len() {
        return Err(w.syntax_error(i + usize::from(w.is(i, "AS"))));
    }
    Ok((name, w.tokens[i + 1].start))
}

/// `EXECUTE name [(value, ...)]`, its values constants as PostgreSQL's client
/// tools write them (strings, numbers, `NULL`, booleans, a cast of one).
pub(super) fn execute(w: &Words) -> Option<Result<PreparedCommand, Error>> {
    if !w.is(0, "EXECUTE") {
        return None;
    }
    Some(read_execute(w))
}

fn read_execute(w: &Words) -> Result<PreparedCommand, Error> {
    let name = name(w, 1)?;
    let mut args = Vec::new();
    let mut i = 2;
    if w.kind(i) == Some(TokenKind::LeftParen) {
        let close = w.closing(i).ok_or_else(|| w.syntax_error(i))?;
        i += 1;
        while i < close {
            let (arg, next) = value(w, i)?;
            args.push(arg);
            i = next;
            // `::type`: the value is read as its parameter's type anyway.
            if w.text(i) == ":" && w.text(i + 1) == ":" {
                i += 2;
                while i < close && w.text(i) != "," {
                    i += 1;
                }
            }
            match w.text(i) {
                "," => i += 1,
                _ if i == close => {}
                _ => return Err(w.syntax_error(i)),
            }
        }
        i = close + 1;
    }
    if i != w.tokens.len() {
        return Err(w.syntax_error(i));
    }
    Ok(PreparedCommand::Execute { name, args })
}

/// One constant at `i`, and the index after it.
fn value(w: &Words, i: usize) -> Result<((Option<String>, bool), usize), Error> {
    let (negative, at) = match w.text(i) {
        "-" => (true, i + 1),
        _ => (false, i),
    };
    let text = w.text(at);
    let value = match w.kind(at) {
        Some(TokenKind::Number) => {
            let sign = if negative { "-" } else { "" };
            (Some(format!("{sign}{text}")), true)
        }
        Some(TokenKind::String) if !negative => (Some(unquote_literal(text)), false),
        Some(TokenKind::Word) if !negative && w.is(at, "NULL") => (None, false),
        Some(TokenKind::Word) if !negative && (w.is(at, "TRUE") || w.is(at, "FALSE")) => {
            (Some(text.to_ascii_lowercase()), false)
        }
        _ => return Err(w.syntax_error(at)),
    };
    Ok((value, at + 1))
}

/// The statement's name at `i`, as PostgreSQL folds it.
fn name(w: &Words, i: usize) -> Result<String, Error> {
    match w.kind(i) {
        Some(TokenKind::Word) => Ok(w.text(i).to_ascii_lowercase()),
        Some(TokenKind::QuotedIdent) => Ok(unquote_identifier(w.text(i))),
        _ => Err(w.syntax_error(i)),
    }
}
