//! The PostgreSQL text of an expression litewire stores for SQLite to
//! evaluate in another form (a column's default, a CHECK constraint: see
//! `postgres::table_expressions`). It is kept in the stored expression
//! itself, `litewire_written(sqlite_expression, 'written text')`, which the
//! engine evaluates as its first argument: it survives every reading and
//! rewriting of the `CREATE TABLE` text, and the catalog shows what was
//! written (`\d`, `pg_get_expr`, `pg_get_constraintdef`, what a dump
//! writes).

use sqlparser::ast::{Expr, FunctionArg, FunctionArgExpr, FunctionArguments, Value};
use sqlparser::dialect::SQLiteDialect;
use sqlparser::parser::Parser;

/// The engine's function that carries the written text.
pub const FUNCTION: &str = "litewire_written";

/// The text `stored` was written as, if it carries one; else `stored`.
pub fn shown(stored: &str) -> String {
    written(stored).unwrap_or_else(|| stored.to_owned())
}

fn written(stored: &str) -> Option<String> {
    if !stored.contains(FUNCTION) {
        return None;
    }
    let mut expr = Parser::new(&SQLiteDialect {})
        .try_with_sql(stored)
        .ok()?
        .parse_expr()
        .ok()?;
    while let Expr::Nested(inner) = expr {
        expr = *inner;
    }
    let Expr::Function(function) = expr else {
        return None;
    };
    if !function.name.to_string().eq_ignore_ascii_case(FUNCTION) {
        return None;
    }
    let FunctionArguments::List(list) = function.args else {
        return None;
    };
    match list.args.as_slice() {
        [
            _,
            FunctionArg::Unnamed(FunctionArgExpr::Expr(Expr::Value(value))),
        ] => match &value.value {
            Value::SingleQuotedString(text) => Some(text.clone()),
            _ => None,
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_written_text_is_shown() {
        assert_eq!(
            shown("(litewire_written(litewire_like(a, 'A%', '\\'), 'a LIKE ''A%'''))"),
            "a LIKE 'A%'"
        );
        assert_eq!(shown("a > 0"), "a > 0");
        assert_eq!(shown("other(1, 'x')"), "other(1, 'x')");
    }
}
