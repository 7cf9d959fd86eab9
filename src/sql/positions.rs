//! Where in the query an error points: PostgreSQL sends the position of the
//! token an error is about (psql draws its `LINE 1: ... ^` from it), and errors
//! litewire reports in PostgreSQL's words name that token, so it is found again
//! in the text the client sent.

use super::lexer::{Token, TokenKind, tokenize};
use super::quote::unquote_identifier;
use super::split::split;

/// The 1-based character position in `query` that an error `message` about
/// its `statement`-th statement points at, if the message names a token of it
/// (`syntax error at or near "x"`, `column "x" does not exist`, ...).
pub fn error_position(query: &str, statement: usize, message: &str) -> Option<usize> {
    let tokens = tokenize(query);
    let ranges = split(&tokens, query);
    let (first, end) = match ranges.get(statement) {
        Some(&(_, _, first, end)) => (first, end),
        None => (0, tokens.len()),
    };
    let tokens = &tokens[first..end];
    if message == "syntax error at end of input" {
        let last = tokens.last()?;
        return Some(query[..last.end].chars().count() + 1);
    }
    let token = match literal_text(message) {
        Some(text) => tokens
            .iter()
            .find(|t| t.kind == TokenKind::String && literal_is(t.text(query), text))?,
        None => {
            let needle = named_token(message)?;
            tokens.iter().find(|t| names(t, query, needle))?
        }
    };
    Some(query[..token.start].chars().count() + 1)
}

/// The token an error message is about, as the message spells it.
fn named_token(message: &str) -> Option<&str> {
    let quoted = |rest: &str, suffix: &str| -> Option<String> {
        let inner = rest.strip_suffix(suffix)?;
        Some(inner.trim_matches('"').to_owned())
    };
    let name = if let Some(rest) = message.strip_prefix("syntax error at or near ") {
        return rest.strip_prefix('"')?.strip_suffix('"');
    } else if let Some(rest) = message.strip_prefix("column ") {
        quoted(rest, " does not exist")?
    } else if let Some(rest) = message.strip_prefix("relation ") {
        quoted(rest, " does not exist")?
    } else if let Some(rest) = message.strip_prefix("column reference ") {
        quoted(rest, " is ambiguous")?
    } else if let Some(rest) = message.strip_prefix("function ") {
        let signature = rest.strip_suffix(" does not exist")?;
        signature.split('(').next()?.to_owned()
    } else {
        return None;
    };
    // `t.x` points at `x`'s first token, `t`.
    let first = name.split('.').next().unwrap_or(&name);
    let at = message.find(first)?;
    Some(&message[at..at + first.len()])
}

/// The text of the literal a value error is about (`invalid input syntax for
/// type integer: "x"`, `"1e400" is out of range for type double precision`).
fn literal_text(message: &str) -> Option<&str> {
    if message.starts_with("invalid input syntax for type ") {
        let (_, quoted) = message.split_once(": \"")?;
        return quoted.strip_suffix('"');
    }
    let rest = message.strip_prefix("value ").unwrap_or(message);
    let (text, tail) = rest.strip_prefix('"')?.rsplit_once('"')?;
    tail.starts_with(" is out of range for type ")
        .then_some(text)
}

/// Whether a string literal token (`'it''s'`, `E'x'`) holds `text`.
fn literal_is(token: &str, text: &str) -> bool {
    let body = token.trim_start_matches(|c: char| c != '\'');
    body.strip_prefix('\'')
        .and_then(|b| b.strip_suffix('\''))
        .is_some_and(|inner| inner.replace("''", "'") == text)
}

/// Whether `token` is the one spelled `needle` in a message.
fn names(token: &Token, query: &str, needle: &str) -> bool {
    let text = token.text(query);
    match token.kind {
        TokenKind::Word => text.eq_ignore_ascii_case(needle),
        TokenKind::QuotedIdent => unquote_identifier(text) == needle,
        _ => query[token.start..].starts_with(needle),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_point_at_the_token_they_name() {
        let at = |query: &str, statement: usize, message: &str| {
            error_position(query, statement, message)
        };
        assert_eq!(
            at("SELEC 1", 0, "syntax error at or near \"SELEC\""),
            Some(1)
        );
        assert_eq!(
            at("SELECT 1 +", 0, "syntax error at end of input"),
            Some(11)
        );
        assert_eq!(
            at(
                "SELECT a FROM t; SELECT é, a FROM t",
                1,
                "column \"a\" does not exist"
            ),
            Some(28)
        );
        assert_eq!(
            at(
                "SELECT * FROM \"Tab\"",
                0,
                "relation \"Tab\" does not exist"
            ),
            Some(15)
        );
        assert_eq!(
            at("SELECT t.nope FROM t", 0, "column t.nope does not exist"),
            Some(8)
        );
        assert_eq!(
            at("SELECT f(1)", 0, "function f(integer) does not exist"),
            Some(8)
        );
        assert_eq!(
            at("SELECT nosuch(1)", 0, "function nosuch does not exist"),
            Some(8)
        );
        assert_eq!(
            at(
                "SELECT 'a''b'::int",
                0,
                "invalid input syntax for type integer: \"a'b\""
            ),
            Some(8)
        );
        assert_eq!(
            at(
                "SELECT 1, '1e400'::float8",
                0,
                "\"1e400\" is out of range for type double precision"
            ),
            Some(11)
        );
        assert_eq!(at("SELECT 1", 0, "division by zero"), None);
    }
}
