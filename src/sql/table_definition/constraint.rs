//! One constraint of a column or of a table, as its text reads: its name (when
//! declared with one), its kind, its text, and the columns a table constraint
//! lists.
//!
//! What PostgreSQL says of a constraint and SQLite's syntax cannot (`NOT
//! VALID`, `NO INHERIT`) is kept in the text SQLite keeps, as a comment after
//! the keyword that says what the constraint is (`CHECK /*NOT VALID*/ (a > 0)`):
//! it survives restarts and rebuilds, and SQLite reads past it.

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

/// What a constraint's text is marked with (see the module's docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Added `NOT VALID`: the rows already there were not checked.
    NotValid,
    /// `NO INHERIT`.
    NoInherit,
}

impl Mark {
    fn comment(self) -> &'static str {
        match self {
            Mark::NotValid => "/*NOT VALID*/",
            Mark::NoInherit => "/*NO INHERIT*/",
        }
    }
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
        let kind = kind_of(text, &tokens, at);
        // PostgreSQL's trailing `NO INHERIT` (of a CHECK) and `NOT VALID`
        // become marks.
        let mut end = tokens.len();
        let mut marks = Vec::new();
        while end >= at + 2 {
            let pair = (tokens[end - 2].text(text), tokens[end - 1].text(text));
            let mark = match (
                pair.0.to_ascii_uppercase().as_str(),
                pair.1.to_ascii_uppercase().as_str(),
            ) {
                ("NO", "INHERIT") if kind == ConstraintKind::Check => Mark::NoInherit,
                ("NOT", "VALID") => Mark::NotValid,
                _ => break,
            };
            marks.push(mark);
            end -= 2;
        }
        let last = tokens
            .get(end.max(at + 1) - 1)
            .ok_or_else(|| malformed(text))?;
        let body = text[first.start..last.end].trim().to_owned();
        let columns = match kind {
            ConstraintKind::PrimaryKey | ConstraintKind::Unique | ConstraintKind::ForeignKey => {
                first_group_names(text, &tokens, at)
            }
            _ => Vec::new(),
        };
        let mut constraint = Constraint {
            name,
            kind,
            body,
            columns,
        };
        for mark in marks {
            constraint.set_mark(mark, true);
        }
        Ok(constraint)
    }

    /// Whether the constraint's text carries `mark`.
    pub fn marked(&self, mark: Mark) -> bool {
        self.body.contains(mark.comment())
    }

    /// Marks the constraint with `mark`, or takes the mark away.
    pub fn set_mark(&mut self, mark: Mark, on: bool) {
        let comment = mark.comment();
        self.body = self.body.replace(&format!(" {comment}"), "");
        if on {
            let keyword = self
                .body
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(self.body.len());
            self.body.insert_str(keyword, &format!(" {comment}"));
        }
    }

    /// A foreign key's `[NOT] DEFERRABLE` and `INITIALLY ...` written anew.
    pub fn set_deferral(&mut self, deferrable: bool, deferred: bool) {
        let body = &self.body;
        let tokens = tokenize(body);
        let mut kept = String::new();
        let mut from = 0;
        let mut i = 0;
        while i < tokens.len() {
            let words = if is(body, &tokens, i, "DEFERRABLE") {
                1
            } else if is(body, &tokens, i, "NOT") && is(body, &tokens, i + 1, "DEFERRABLE")
                || is(body, &tokens, i, "INITIALLY")
            {
                2
            } else {
                0
            };
            if words == 0 {
                i += 1;
                continue;
            }
            kept.push_str(body[from..tokens[i].start].trim_end());
            from = tokens[(i + words).min(tokens.len()) - 1].end;
            i += words;
        }
        kept.push_str(&body[from..]);
        if deferrable {
            kept.push_str(" DEFERRABLE INITIALLY ");
            kept.push_str(if deferred { "DEFERRED" } else { "IMMEDIATE" });
        }
        self.body = kept.trim().to_owned();
    }

    pub(super) fn sql(&self) -> String {
        match &self.name {
            Some(name) => format!("CONSTRAINT {} {}", identifier(name), self.body),
            None => self.body.clone(),
        }
    }

    /// A CHECK's expression (what its parentheses hold).
    pub fn check_expression(&self) -> &str {
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
