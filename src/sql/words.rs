//! A statement's tokens read as words: keywords, names (qualified or not),
//! lists and parenthesized groups. The one cursor the statement-level
//! recognisers (translations, COPY, session commands) read statements with.

use super::lexer::{Token, TokenKind};
use super::quote::unquote_identifier;
use crate::error::{Error, ErrorKind};

/// The statement's tokens with helpers to read them as words.
pub(super) struct Words<'a> {
    pub sql: &'a str,
    pub tokens: &'a [Token],
}

impl Words<'_> {
    pub(super) fn text(&self, i: usize) -> &str {
        self.tokens.get(i).map_or("", |t| t.text(self.sql))
    }

    pub(super) fn is(&self, i: usize, kw: &str) -> bool {
        self.tokens
            .get(i)
            .is_some_and(|t| t.is_keyword(self.sql, kw))
    }

    pub(super) fn starts_with(&self, kws: &[&str]) -> bool {
        kws.iter().enumerate().all(|(i, kw)| self.is(i, kw))
    }

    pub(super) fn kind(&self, i: usize) -> Option<TokenKind> {
        self.tokens.get(i).map(|t| t.kind)
    }

    /// Reads a possibly schema-qualified name at `i`; returns it without a `public.`
    /// or `main.` qualifier, and the index after it.
    pub(super) fn name(&self, mut i: usize) -> Option<(String, usize)> {
        let mut parts = Vec::new();
        loop {
            match self.kind(i)? {
                TokenKind::Word | TokenKind::QuotedIdent => parts.push(self.text(i).to_owned()),
                _ => return None,
            }
            i += 1;
            if self.text(i) != "." {
                break;
            }
            i += 1;
        }
        if parts.len() > 1
            && matches!(
                unquote_identifier(&parts[0]).to_ascii_lowercase().as_str(),
                "public" | "main"
            )
        {
            parts.remove(0);
        }
        Some((parts.join("."), i))
    }

    /// Comma-separated names from `i` until a word that is not a name continuation.
    pub(super) fn name_list(&self, mut i: usize, stop: &[&str]) -> (Vec<String>, usize) {
        let mut names = Vec::new();
        while i < self.tokens.len() && !stop.iter().any(|kw| self.is(i, kw)) {
            let Some((name, next)) = self.name(i) else {
                break;
            };
            names.push(name);
            i = next;
            if self.text(i) == "," {
                i += 1;
            }
        }
        (names, i)
    }

    /// The index of the parenthesis closing the one at `open`.
    pub(super) fn closing(&self, open: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (i, t) in self.tokens.iter().enumerate().skip(open) {
            match t.kind {
                TokenKind::LeftParen => depth += 1,
                TokenKind::RightParen => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// The identifier at `i` as the name it stands for (quotes removed).
    pub(super) fn ident(&self, i: usize) -> Option<String> {
        let token = self.tokens.get(i)?;
        match token.kind {
            TokenKind::Word => Some(token.text(self.sql).to_owned()),
            TokenKind::QuotedIdent => Some(unquote_identifier(token.text(self.sql))),
            _ => None,
        }
    }

    /// A dotted name at `i` (`a` or `a.b`, as setting names are), unquoted, and
    /// the index after it.
    pub(super) fn dotted_name(&self, mut i: usize) -> Option<(String, usize)> {
        let mut name = self.ident(i)?;
        i += 1;
        while self.text(i) == "." {
            name.push('.');
            name.push_str(&self.ident(i + 1)?);
            i += 2;
        }
        Some((name, i))
    }

    /// PostgreSQL's syntax error at the token at `i`, or at the end of input.
    pub(super) fn syntax_error(&self, i: usize) -> Error {
        let message = match self.text(i) {
            "" => "syntax error at end of input".to_owned(),
            near => format!("syntax error at or near \"{near}\""),
        };
        Error::new(ErrorKind::Syntax, message)
    }

    /// The names in the parentheses opening at `open`, and the index after them.
    pub(super) fn parenthesized_names(&self, open: usize) -> Result<(Vec<String>, usize), Error> {
        let close = self.closing(open).ok_or_else(|| self.syntax_error(open))?;
        let (names, end) = self.name_list(open + 1, &[]);
        if end != close || names.is_empty() {
            return Err(self.syntax_error(end));
        }
        Ok((names, close + 1))
    }
}
