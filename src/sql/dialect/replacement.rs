//! Replacements written as SQL text and parsed back: a rewrite says what it
//! wants in SQLite's terms as text (which reads like the SQL it stands for),
//! and gets the syntax tree to put in place of the old one.

use sqlparser::ast::{Expr, Query};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

/// An expression's replacement, and whether it reads the catalog.
pub(super) struct Replacement {
    pub(super) expr: Expr,
    pub(super) catalog: bool,
}

pub(super) fn plain(sql: String) -> Option<Replacement> {
    Some(Replacement {
        expr: parse_expr(&sql)?,
        catalog: false,
    })
}

pub(super) fn from_catalog(sql: String) -> Option<Replacement> {
    Some(Replacement {
        expr: parse_expr(&sql)?,
        catalog: true,
    })
}

pub(super) fn parse_expr(sql: &str) -> Option<Expr> {
    Parser::new(&PostgreSqlDialect {})
        .try_with_sql(sql)
        .and_then(|mut p| p.parse_expr())
        .ok()
}

/// The query `sql`, parsed.
pub(super) fn parse_query(sql: &str) -> Option<Box<Query>> {
    Parser::new(&PostgreSqlDialect {})
        .try_with_sql(sql)
        .and_then(|mut p| p.parse_query())
        .ok()
}
