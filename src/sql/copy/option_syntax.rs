//! `COPY` options as written, in either of PostgreSQL's spellings: the
//! parenthesized `(FORMAT csv, HEADER true, ...)` and the older words
//! `CSV HEADER DELIMITER AS ','` (what psql's `\copy` passes through as typed),
//! read into one list of names and arguments for [`super::options`] to check.

use super::super::lexer::TokenKind;
use super::super::quote::unquote_literal;
use super::super::words::Words;
use crate::error::Error;

/// An option's argument as written: none, one word or string, `*`, or `(cols)`.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Arg {
    None,
    Value(String),
    Star,
    Columns(Vec<String>),
}

/// `( name [arg] [, ...] )` starting at the parenthesis `open`.
pub(super) fn generic_options(w: &Words, open: usize) -> Result<Vec<(String, Arg)>, Error> {
    let close = w.closing(open).ok_or_else(|| w.syntax_error(open))?;
    if close + 1 != w.tokens.len() {
        return Err(w.syntax_error(close + 1));
    }
    let mut options = Vec::new();
    let mut i = open + 1;
    while i < close {
        if w.kind(i) != Some(TokenKind::Word) {
            return Err(w.syntax_error(i));
        }
        let name = w.text(i).to_ascii_lowercase();
        let (arg, next) = match w.kind(i + 1) {
            _ if i + 1 == close || w.text(i + 1) == "," => (Arg::None, i + 1),
            Some(TokenKind::LeftParen) => {
                let (columns, next) = w.parenthesized_names(i + 1)?;
                (Arg::Columns(columns), next)
            }
            _ if w.text(i + 1) == "*" => (Arg::Star, i + 2),
            Some(TokenKind::Word | TokenKind::String | TokenKind::Number) => {
                (Arg::Value(unquote_literal(w.text(i + 1))), i + 2)
            }
            _ => return Err(w.syntax_error(i + 1)),
        };
        options.push((name, arg));
        i = next;
        if w.text(i) == "," && i + 1 < close {
            i += 1;
        } else if i != close {
            return Err(w.syntax_error(i));
        }
    }
    Ok(options)
}

/// The pre-9.0 spelling, still what most people type after psql's `\copy`:
/// `CSV HEADER DELIMITER [AS] ',' NULL [AS] '' QUOTE [AS] '"' ESCAPE [AS] '"'
/// FORCE QUOTE cols|* FORCE NOT NULL cols BINARY FREEZE ENCODING 'x'`.
pub(super) fn legacy_options(w: &Words, mut i: usize) -> Result<Vec<(String, Arg)>, Error> {
    let mut options = Vec::new();
    while i < w.tokens.len() {
        let word = w.text(i).to_ascii_lowercase();
        let option = match word.as_str() {
            "csv" | "binary" => ("format".to_owned(), Arg::Value(word.clone())),
            "header" | "freeze" => (word.clone(), Arg::None),
            "delimiter" | "null" | "quote" | "escape" | "encoding" => {
                if w.is(i + 1, "AS") {
                    i += 1;
                }
                if w.kind(i + 1) != Some(TokenKind::String) {
                    return Err(w.syntax_error(i + 1));
                }
                i += 1;
                (word.clone(), Arg::Value(unquote_literal(w.text(i))))
            }
            "force" => {
                let (option, arg, next) = legacy_force(w, i + 1)?;
                options.push((option, arg));
                i = next;
                continue;
            }
            _ => return Err(w.syntax_error(i)),
        };
        options.push(option);
        i += 1;
    }
    Ok(options)
}

/// `FORCE QUOTE cols|*`, `FORCE NOT NULL cols`, `FORCE NULL cols` (columns without
/// parentheses), from the word after `FORCE`.
fn legacy_force(w: &Words, i: usize) -> Result<(String, Arg, usize), Error> {
    let (option, at) = if w.is(i, "QUOTE") {
        ("force_quote", i + 1)
    } else if w.is(i, "NOT") && w.is(i + 1, "NULL") {
        ("force_not_null", i + 2)
    } else if w.is(i, "NULL") {
        ("force_null", i + 1)
    } else {
        return Err(w.syntax_error(i));
    };
    if w.text(at) == "*" {
        return Ok((option.to_owned(), Arg::Star, at + 1));
    }
    let option_words = [
        "CSV",
        "BINARY",
        "HEADER",
        "FREEZE",
        "DELIMITER",
        "NULL",
        "QUOTE",
        "ESCAPE",
        "ENCODING",
        "FORCE",
    ];
    let (columns, next) = w.name_list(at, &option_words);
    if columns.is_empty() {
        return Err(w.syntax_error(at));
    }
    Ok((option.to_owned(), Arg::Columns(columns), next))
}
