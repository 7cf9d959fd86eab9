//! One column of a definition: its name, its declared type as written and its
//! constraints, cut at the keywords that start a column constraint, and the
//! edits `ALTER COLUMN` makes to them.

use super::constraint::{Constraint, ConstraintKind};
use super::errors::malformed;
use super::tokens::{ident, is, skip_group};
use crate::error::Error;
use crate::sql::lexer::{Token, TokenKind, tokenize};
use crate::sql::quote::identifier;

/// One column: its name, its declared type and its constraints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Column {
    pub name: String,
    /// The declared type as written (may be empty).
    pub type_sql: String,
    pub constraints: Vec<Constraint>,
    /// What fills it when the table is rebuilt, as an expression over the old
    /// table's columns: the column itself, a `USING` expression, or nothing for
    /// a new column (its default then applies).
    pub source: Option<String>,
}

impl Column {
    /// Reads a column definition (`name [type] [constraints]`).
    pub fn parse(text: &str) -> Result<Column, Error> {
        let tokens = tokenize(text);
        let name = ident(text, &tokens, 0).ok_or_else(|| malformed(text))?;
        let mut at = 1;
        while at < tokens.len() && !starts_constraint(text, &tokens, at) {
            at = skip_group(&tokens, at);
        }
        let type_sql = match (tokens.get(1), at.checked_sub(1).and_then(|i| tokens.get(i))) {
            (Some(first), Some(last)) if at > 1 => text[first.start..last.end].to_owned(),
            _ => String::new(),
        };
        let mut constraints = Vec::new();
        while at < tokens.len() {
            let start = at;
            let mut kind_at = at;
            if is(text, &tokens, at, "CONSTRAINT") {
                kind_at = at + 2;
            }
            let mut end = kind_at + 1;
            if is(text, &tokens, kind_at, "DEFAULT") {
                // DEFAULT takes one term: a literal, a signed number, a word or a
                // parenthesized expression.
                if matches!(tokens.get(end).map(|t| t.text(text)), Some("+" | "-")) {
                    end += 1;
                }
                end = skip_group(&tokens, end);
            } else {
                while end < tokens.len() && !starts_constraint(text, &tokens, end) {
                    end = skip_group(&tokens, end);
                }
            }
            let end = end.min(tokens.len());
            let last = &tokens[end - 1];
            constraints.push(Constraint::parse(&text[tokens[start].start..last.end])?);
            at = end;
        }
        Ok(Column {
            source: Some(identifier(&name)),
            name,
            type_sql,
            constraints,
        })
    }

    pub(super) fn sql(&self) -> String {
        let mut out = identifier(&self.name);
        if !self.type_sql.is_empty() {
            out.push(' ');
            out.push_str(&self.type_sql);
        }
        for constraint in &self.constraints {
            out.push(' ');
            out.push_str(&constraint.sql());
        }
        out
    }

    /// A generated column's expression (`GENERATED ALWAYS AS (expr)` or `AS
    /// (expr)`), without its parentheses.
    pub fn generation(&self) -> Option<&str> {
        self.constraints.iter().find_map(|c| {
            let body = c.body.as_str();
            let tokens = tokenize(body);
            let first = tokens.first()?.text(body);
            if !first.eq_ignore_ascii_case("GENERATED") && !first.eq_ignore_ascii_case("AS") {
                return None;
            }
            let open = tokens.iter().position(|t| t.kind == TokenKind::LeftParen)?;
            let close = tokens.get(skip_group(&tokens, open).checked_sub(1)?)?;
            body.get(tokens[open].end..close.start).map(str::trim)
        })
    }

    fn has(&self, kind: ConstraintKind) -> bool {
        self.constraints.iter().any(|c| c.kind == kind)
    }

    /// `SET NOT NULL` (`true`) or `DROP NOT NULL`.
    pub fn set_not_null(&mut self, not_null: bool) {
        if not_null {
            if !self.has(ConstraintKind::NotNull) {
                self.constraints.retain(|c| c.kind != ConstraintKind::Null);
                self.constraints.push(Constraint {
                    name: None,
                    kind: ConstraintKind::NotNull,
                    body: "NOT NULL".into(),
                    columns: Vec::new(),
                });
            }
        } else {
            self.constraints
                .retain(|c| c.kind != ConstraintKind::NotNull);
        }
    }

    /// `SET DEFAULT expr` (SQLite SQL) or `DROP DEFAULT` (`None`).
    pub fn set_default(&mut self, expr: Option<&str>) {
        self.constraints
            .retain(|c| c.kind != ConstraintKind::Default);
        if let Some(expr) = expr {
            self.constraints.push(Constraint {
                name: None,
                kind: ConstraintKind::Default,
                body: format!("DEFAULT {}", default_term(expr)),
                columns: Vec::new(),
            });
        }
    }

    /// The default's expression, if it has one.
    pub fn default(&self) -> Option<&str> {
        self.constraints
            .iter()
            .find(|c| c.kind == ConstraintKind::Default)
            .map(|c| c.body["DEFAULT".len()..].trim())
    }

    /// Whether SQLite's own `ADD COLUMN` can add this column (it cannot add a
    /// key, a non-constant default, or NOT NULL without a default).
    pub fn addable_in_place(&self) -> bool {
        let default = self.default();
        let constant_default = default
            .is_none_or(|d| !d.starts_with('(') && !d.to_ascii_uppercase().starts_with("CURRENT_"));
        !self.has(ConstraintKind::PrimaryKey)
            && !self.has(ConstraintKind::Unique)
            && constant_default
            && (!self.has(ConstraintKind::NotNull) || default.is_some_and(|d| d != "NULL"))
    }
}

/// A default as SQLite's `DEFAULT` takes it: a literal or signed number as it
/// is, anything else in parentheses.
fn default_term(expr: &str) -> String {
    let tokens = tokenize(expr);
    let single = match tokens.as_slice() {
        [t] => matches!(
            t.kind,
            TokenKind::String | TokenKind::Number | TokenKind::Word
        ),
        [sign, n] => matches!(sign.text(expr), "+" | "-") && n.kind == TokenKind::Number,
        [open, ..] => open.kind == TokenKind::LeftParen && skip_group(&tokens, 0) == tokens.len(),
        [] => false,
    };
    if single {
        expr.trim().to_owned()
    } else {
        format!("({})", expr.trim())
    }
}

/// Whether a column constraint starts at `i` (outside parentheses).
fn starts_constraint(sql: &str, tokens: &[Token], i: usize) -> bool {
    let previous = |kw: &str| i > 0 && is(sql, tokens, i - 1, kw);
    if is(sql, tokens, i, "NOT") {
        // `NOT DEFERRABLE` belongs to a foreign key.
        return !is(sql, tokens, i + 1, "DEFERRABLE");
    }
    if is(sql, tokens, i, "NULL") {
        return !previous("NOT") && !previous("SET");
    }
    if is(sql, tokens, i, "DEFAULT") {
        return !previous("SET");
    }
    if is(sql, tokens, i, "AS") {
        return !previous("ALWAYS");
    }
    [
        "CONSTRAINT",
        "PRIMARY",
        "UNIQUE",
        "CHECK",
        "COLLATE",
        "REFERENCES",
        "GENERATED",
    ]
    .iter()
    .any(|kw| is(sql, tokens, i, kw))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_sqlite_can_add_in_place() {
        for (sql, addable) in [
            ("a int", true),
            ("a int DEFAULT 3 NOT NULL", true),
            ("a int NOT NULL", false),
            ("a int UNIQUE", false),
            ("a text DEFAULT (lower('x'))", false),
            ("a text DEFAULT CURRENT_TIMESTAMP", false),
        ] {
            assert_eq!(
                Column::parse(sql).unwrap().addable_in_place(),
                addable,
                "{sql}"
            );
        }
    }
}
