//! Sequence names: as SQL spells them (unquoted words fold to lower case), as
//! `regclass` reads a name given as text, and as PostgreSQL names the sequence
//! of a `serial` or identity column.

use crate::error::{Error, ErrorKind};
use crate::sql::lexer::{Token, TokenKind, tokenize};
use crate::sql::quote::unquote_identifier;
use crate::sql::words::Words;

/// A PostgreSQL name as it is spelled in SQL: unquoted words fold to lower case.
pub(super) fn folded(token: &Token, sql: &str) -> String {
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
    let tokens = tokenize(text);
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
    // `public.s` is `s`; `app.s` is the SQLite name of `s` of schema `app`
    // (see `schema_names`).
    let name = parts.pop()?;
    match parts.pop() {
        Some(schema) if schema != "public" && schema != "pg_catalog" && parts.is_empty() => {
            Some(crate::sql::schema_names::stored_name(&schema, &name))
        }
        _ => Some(name),
    }
}

/// The name PostgreSQL gives the sequence of a `serial` or identity column.
pub(super) fn serial_sequence_name(table: &str, column: &str) -> String {
    format!("{table}_{column}_seq")
}

/// Reads a sequence name at `i` (its schema, if any, dropped).
pub(super) fn sequence_name(w: &Words, mut i: usize) -> Result<(String, usize), Error> {
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
        None => Err(Error::new(
            ErrorKind::Syntax,
            format!("syntax error at or near \"{}\"", w.text(i)),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relation_names_as_regclass_reads_them() {
        assert_eq!(relation_name("s").as_deref(), Some("s"));
        assert_eq!(relation_name("Public.S").as_deref(), Some("s"));
        assert_eq!(relation_name("\"My Seq\"").as_deref(), Some("My Seq"));
        assert_eq!(relation_name("a b"), None);
        assert_eq!(relation_name(""), None);
    }
}
