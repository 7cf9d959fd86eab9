//! One constraint of a column or of a table, as its text reads: its name (when
//! declared with one), its kind, its text, and the columns a table constraint
//! lists.

use super::errors::malformed;
use super::tokens::{ident, is, skip_group};
use crate::error::Error;
use crate::sql::lexer::{Token, TokenKind, tokenize};
use crate::sql::quote::identifier;

/// What a constraint is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConstraintKind {
    PrimaryKey,
    Unique,
    Check,
    ForeignKey,
    NotNull,
    Null,
    Default,
    /// `COLLATE`, `GENERATED ... AS`, anything else a column may carry.
    Other,
}

/// One constraint of a column or of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constraint {
    /// The name it was declared with (`CONSTRAINT name`), unquoted.
    pub name: Option<String>,
    pub kind: ConstraintKind,
    /// Its text from the keyword that says what it is (`FOREIGN KEY (a) ...`).
    pub body: String,
    /// The columns a table constraint lists (PRIMARY KEY, UNIQUE, FOREIGN KEY).
    pub columns: Vec<String>,
}

impl Constraint {
    /// Reads a constraint's text (`[CONSTRAINT name] kind ...`).
    pub fn parse(text: &str) -> Result<Constraint, Error> {
        let tokens = tokenize(text);
        let mut at = 0;
        let mut name = None;
        if is(text, &tokens, 0, "CONSTRAINT") {
            name = Some(ident(text, &tokens, 1).ok_or_else(|| malformed(text))?);
            at = 2;
        }
        let first = tokens.get(at).ok_or_else(|| malformed(text))?;
        let body = text[first.start..].trim().to_owned();
        let kind = kind_of(text, &tokens, at);
        let columns = match kind {
            ConstraintKind::PrimaryKey | ConstraintKind::Unique | ConstraintKind::ForeignKey => {
                first_group_names(text, &tokens, at)
            }
            _ => Vec::new(),
        };
        Ok(Constraint {
            name,
            kind,
            body,
            columns,
        })
    }

    pub(super) fn sql(&self) -> String {
        match &self.name {
            Some(name) => format!("CONSTRAINT {} {}", identifier(name), self.body),
            None => self.body.clone(),
        }
    }

    /// A CHECK's expression (what its parentheses hold).
    pub(super) fn check_expression(&self) -> &str {
        let body = self.body.trim();
        match (body.find('('), body.rfind(')')) {
            (Some(open), Some(close)) if open < close => &body[open + 1..close],
            _ => body,
        }
    }
}

pub(super) fn kind_of(sql: &str, tokens: &[Token], i: usize) -> ConstraintKind {
    let kinds = [
        ("PRIMARY", ConstraintKind::PrimaryKey),
        ("UNIQUE", ConstraintKind::Unique),
        ("CHECK", ConstraintKind::Check),
        ("FOREIGN", ConstraintKind::ForeignKey),
        ("REFERENCES", ConstraintKind::ForeignKey),
        ("NOT", ConstraintKind::NotNull),
        ("NULL", ConstraintKind::Null),
        ("DEFAULT", ConstraintKind::Default),
    ];
    kinds
        .iter()
        .find(|(kw, _)| is(sql, tokens, i, kw))
        .map_or(ConstraintKind::Other, |(_, kind)| *kind)
}

/// The column names of the first parenthesized list after `from` (each item's
/// first name: `a COLLATE x DESC` is `a`).
fn first_group_names(sql: &str, tokens: &[Token], from: usize) -> Vec<String> {
    let Some(open) = (from..tokens.len()).find(|&i| tokens[i].kind == TokenKind::LeftParen) else {
        return Vec::new();
    };
    // `REFERENCES p (id)` of a column constraint lists the other table's columns.
    if is(sql, tokens, from, "REFERENCES") {
        return Vec::new();
    }
    let close = skip_group(tokens, open) - 1;
    let mut names = Vec::new();
    let mut expect = true;
    for i in open + 1..close {
        if tokens[i].text(sql) == "," {
            expect = true;
        } else if expect {
            if let Some(name) = ident(sql, tokens, i) {
                names.push(name);
            }
            expect = false;
        }
    }
    names
}
