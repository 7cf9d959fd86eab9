//! Reading a definition's tokens: a keyword at a position, a name, the end of
//! a parenthesized group; and whether a text names a word at all.

use crate::sql::lexer::{Token, TokenKind, tokenize};
use crate::sql::quote::{unquote_identifier, unquote_literal};

pub(super) fn is(sql: &str, tokens: &[Token], i: usize, kw: &str) -> bool {
    tokens.get(i).is_some_and(|t| t.is_keyword(sql, kw))
}

pub(super) fn ident(sql: &str, tokens: &[Token], i: usize) -> Option<String> {
    let token = tokens.get(i)?;
    match token.kind {
        TokenKind::Word | TokenKind::QuotedIdent => Some(unquote_identifier(token.text(sql))),
        // SQLite takes a string where a name is expected.
        TokenKind::String => Some(unquote_literal(token.text(sql))),
        _ => None,
    }
}

/// The index after the token at `i`, or after the parenthesized group it opens.
pub(super) fn skip_group(tokens: &[Token], i: usize) -> usize {
    if tokens.get(i).map(|t| t.kind) != Some(TokenKind::LeftParen) {
        return i + 1;
    }
    let mut depth = 0usize;
    for (j, t) in tokens.iter().enumerate().skip(i) {
        match t.kind {
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
    }
    tokens.len()
}

/// Whether `sql` names `word` (as a word of its own, in any case).
pub fn mentions(sql: &str, word: &str) -> bool {
    tokenize(sql).iter().any(|t| {
        matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent)
            && unquote_identifier(t.text(sql)).eq_ignore_ascii_case(word)
    })
}
