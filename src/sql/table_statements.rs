//! `CREATE TABLE` and `ALTER TABLE` on the PostgreSQL port: their defaults,
//! CHECK constraints and generated columns read as PostgreSQL reads them
//! (see `postgres::table_expressions`), and columns of a domain given its base
//! type and rules (see `domains`), before SQLite gets the statement.

use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::dialect;
use super::lexer::Token;
use super::postgres::{self, Catalog};
use crate::error::Error;

/// An `ALTER TABLE` whose new defaults or CHECK constraints PostgreSQL reads
/// otherwise than SQLite would (see `postgres::alter_expressions`), written
/// with them translated; `None` where none is.
pub(super) fn alter_table(
    text: &str,
    tokens: &[Token],
    catalog: &dyn Catalog,
) -> Result<Option<String>, Error> {
    let starts = |i: usize, kw: &str| tokens.get(i).is_some_and(|t| t.is_keyword(text, kw));
    if !(starts(0, "ALTER") && starts(1, "TABLE")) {
        return Ok(None);
    }
    let Ok(mut parsed) = Parser::parse_sql(&PostgreSqlDialect {}, text) else {
        return Ok(None);
    };
    let [sqlparser::ast::Statement::AlterTable(alter)] = parsed.as_mut_slice() else {
        return Ok(None);
    };
    let widened = postgres::added_float_widths(alter);
    let domains = super::domains::apply_to_columns(
        alter
            .operations
            .iter_mut()
            .filter_map(|operation| match operation {
                sqlparser::ast::AlterTableOperation::AddColumn { column_def, .. } => {
                    Some(column_def)
                }
                _ => None,
            }),
        catalog,
    )?;
    if !postgres::alter_expressions(alter, catalog)? && !widened && !domains {
        return Ok(None);
    }
    Ok(Some(parsed[0].to_string()))
}

/// A `CREATE TABLE` whose defaults, CHECK constraints or generated columns
/// PostgreSQL reads otherwise than SQLite would (see
/// `postgres::table_expressions`), translated; `None` where none does.
pub(super) fn create_table(
    text: &str,
    catalog: &dyn Catalog,
) -> Result<Option<dialect::Translated>, Error> {
    let Ok(mut parsed) = Parser::parse_sql(&PostgreSqlDialect {}, text) else {
        return Ok(None);
    };
    let [ast] = parsed.as_mut_slice() else {
        return Ok(None);
    };
    let sqlparser::ast::Statement::CreateTable(create) = ast else {
        return Ok(None);
    };
    if create.query.is_some() {
        return Ok(None);
    }
    let widened = postgres::float_widths(create);
    let domains = super::domains::apply_to_columns(create.columns.iter_mut(), catalog)?;
    if !postgres::table_expressions(create, catalog)? && !widened && !domains {
        return Ok(None);
    }
    Ok(dialect::translate_parsed(ast, None))
}
