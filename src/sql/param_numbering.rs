//! Parameters as SQLite numbers them: PostgreSQL's `$N` rewritten to `?N`,
//! the count of parameters a statement takes, and the names of its named ones
//! for the front ends whose values come by name (the HTTP API, Hrana).

use std::sync::Arc;

use super::lexer::{Token, TokenKind, tokenize};
use super::statement::Statement;
use crate::error::{Error, ErrorKind};

/// The highest parameter number SQLite accepts (its `SQLITE_MAX_VARIABLE_NUMBER`).
/// A statement naming a higher one fails at once, before anything is sized by
/// its parameter count.
const MAX_PARAMS: usize = 32_766;

/// Rewrites `$N` to `?N` and counts parameters the way SQLite numbers them.
pub(super) fn number_params(text: &str, tokens: &[Token]) -> Result<(Arc<str>, usize), Error> {
    let mut numbering = ParamNumbering::default();
    let mut rewritten: Option<String> = None;
    let mut copied = 0;
    for token in tokens {
        match token.kind {
            TokenKind::Param(n) => {
                numbering.positional(n);
                let out = rewritten.get_or_insert_with(|| String::with_capacity(text.len()));
                out.push_str(&text[copied..token.start]);
                out.push('?');
                out.push_str(&text[token.start + 1..token.end]);
                copied = token.end;
            }
            TokenKind::NamedParam => numbering.named(token.text(text)),
            _ => {}
        }
    }
    let sql = match rewritten {
        Some(mut out) => {
            out.push_str(&text[copied..]);
            out.into()
        }
        None => text.into(),
    };
    if numbering.count > MAX_PARAMS {
        return Err(Error::new(
            ErrorKind::Syntax,
            format!(
                "there is no parameter ${}: a statement takes at most {MAX_PARAMS}",
                numbering.count
            ),
        ));
    }
    Ok((sql, numbering.count))
}

/// SQLite's parameter numbering: `?N` is N, a bare `?` is one more than the largest
/// so far, and each distinct `:name`/`@name`/`$name` takes the next number once.
#[derive(Default)]
struct ParamNumbering {
    count: usize,
    names: Vec<String>,
}

impl ParamNumbering {
    fn positional(&mut self, n: usize) {
        self.count = self.count.max(n);
    }

    fn named(&mut self, token: &str) {
        if let Some(body) = token.strip_prefix('?') {
            let n = body.parse().unwrap_or(self.count + 1);
            self.positional(n);
        } else if !self.names.iter().any(|name| name == token) {
            self.names.push(token.to_owned());
            self.positional(self.count + 1);
        }
    }
}

/// Rewrites named parameters (`:x`, `@x`, `$x`) to numbered ones and returns, for
/// each number from 1, the parameter's name without its prefix. Used where values
/// come as a name → value map (the HTTP API).
pub fn number_named_params(stmt: &Statement) -> (Statement, Vec<String>) {
    let sql = &*stmt.sql;
    let mut names: Vec<String> = Vec::new();
    let mut out = String::with_capacity(sql.len());
    let mut copied = 0;
    for token in tokenize(sql) {
        if token.kind != TokenKind::NamedParam || token.text(sql).starts_with('?') {
            continue;
        }
        let name = &token.text(sql)[1..];
        let index = match names.iter().position(|n| n == name) {
            Some(i) => i + 1,
            None => {
                names.push(name.to_owned());
                names.len()
            }
        };
        out.push_str(&sql[copied..token.start]);
        out.push('?');
        out.push_str(&index.to_string());
        copied = token.end;
    }
    out.push_str(&sql[copied..]);
    let numbered = Statement {
        sql: out.into(),
        param_count: names.len().max(stmt.param_count),
        ..stmt.clone()
    };
    (numbered, names)
}

/// The name of each parameter of `sql` as SQLite numbers them (element 0 is
/// parameter 1): `:x`, `@x` or `$x` for a named one, `None` for a positional one
/// (`?`, `?N`). Used where values come by name and by position at once (Hrana).
pub fn parameter_names(sql: &str) -> Vec<Option<String>> {
    let mut numbering = ParamNumbering::default();
    let mut names: Vec<Option<String>> = Vec::new();
    for token in tokenize(sql) {
        match token.kind {
            TokenKind::Param(n) => numbering.positional(n),
            TokenKind::NamedParam => {
                let text = token.text(sql);
                let known = numbering.names.len();
                numbering.named(text);
                if !text.starts_with('?') && numbering.names.len() > known {
                    names.resize(numbering.count, None);
                    names[numbering.count - 1] = Some(text.to_owned());
                }
            }
            _ => {}
        }
    }
    names.resize(numbering.count, None);
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::parse_single;

    #[test]
    fn parameter_numbers_past_sqlites_limit_are_refused() {
        let statement = parse_single("SELECT $32766").unwrap().unwrap();
        assert_eq!(statement.param_count, 32_766);
        for sql in [
            "SELECT $32767",
            "SELECT $9999999999",
            "SELECT ?99999999",
            "SELECT $99999999999999999999999",
        ] {
            let error = parse_single(sql).unwrap_err();
            assert_eq!(error.kind, ErrorKind::Syntax, "{sql}");
        }
    }

    #[test]
    fn names_parameters_as_sqlite_numbers_them() {
        assert_eq!(
            parameter_names("select ?, :a, ?5, @b, :a, $c"),
            vec![
                None,
                Some(":a".to_owned()),
                None,
                None,
                None,
                Some("@b".to_owned()),
                Some("$c".to_owned()),
            ]
        );
        assert!(parameter_names("select 1").is_empty());
    }

    #[test]
    fn rewrites_positional_parameters() {
        let stmt = parse_single("select $2, '$1', $1").unwrap().unwrap();
        assert_eq!(&*stmt.sql, "select ?2, '$1', ?1");
        assert_eq!(stmt.param_count, 2);
    }

    #[test]
    fn counts_parameters_as_sqlite_numbers_them() {
        assert_eq!(
            parse_single("select ?, ?, ?5")
                .unwrap()
                .unwrap()
                .param_count,
            5
        );
        assert_eq!(
            parse_single("select :a, @b, :a")
                .unwrap()
                .unwrap()
                .param_count,
            2
        );
    }

    #[test]
    fn numbers_named_parameters() {
        let stmt = parse_single("select :a, @b, $c, :a, 'x:y'")
            .unwrap()
            .unwrap();
        let (numbered, names) = number_named_params(&stmt);
        assert_eq!(&*numbered.sql, "select ?1, ?2, ?3, ?1, 'x:y'");
        assert_eq!(names, vec!["a", "b", "c"]);
    }
}
