//! `CREATE TABLE` and `ALTER TABLE` on the PostgreSQL port: their defaults,
//! CHECK constraints and generated columns read as PostgreSQL reads them
//! (see `postgres::table_expressions`), and columns of a domain given its base
//! type and rules (see `domains`), before SQLite gets the statement.

use sqlparser::ast::{ColumnOption, ColumnOptionDef, CreateTable, Expr, TableConstraint};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::dialect;
use super::lexer::Token;
use super::postgres::{self, Catalog};
use crate::error::{Error, SqlState};
use crate::sql::lexer::TokenKind;

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

/// A `CREATE TABLE` with a table constraint marked `NOT VALID`, written
/// without the mark: a new table has no rows to leave unchecked, and PostgreSQL
/// makes the CHECK or foreign key valid. A key's mark is refused, as
/// PostgreSQL refuses it. `None` where there is none.
pub(super) fn without_not_valid(text: &str, tokens: &[Token]) -> Result<Option<String>, Error> {
    let is = |i: usize, kw: &str| tokens.get(i).is_some_and(|t| t.is_keyword(text, kw));
    let Some(open) = tokens.iter().position(|t| t.kind == TokenKind::LeftParen) else {
        return Ok(None);
    };
    let mut cuts = Vec::new();
    let mut depth = 0usize;
    let mut element = open + 1;
    for (i, token) in tokens.iter().enumerate().skip(open) {
        match token.kind {
            TokenKind::LeftParen => depth += 1,
            TokenKind::RightParen => depth = depth.saturating_sub(1),
            _ if depth == 1 && token.text(text) == "," => element = i + 1,
            _ if depth == 1 && is(i, "NOT") && is(i + 1, "VALID") => {
                let kind = if is(element, "CONSTRAINT") {
                    element + 2
                } else {
                    element
                };
                match tokens.get(kind).map(|t| t.text(text).to_ascii_uppercase()) {
                    Some(k) if k == "CHECK" || k == "FOREIGN" => cuts.push(i),
                    Some(k) if k == "UNIQUE" || k == "PRIMARY" => {
                        let k = if k == "UNIQUE" {
                            "UNIQUE"
                        } else {
                            "PRIMARY KEY"
                        };
                        return Err(Error::state(
                            SqlState::FEATURE_NOT_SUPPORTED,
                            format!("{k} constraints cannot be marked NOT VALID"),
                        ));
                    }
                    // A column's constraint cannot be: SQLite's syntax error.
                    _ => {}
                }
            }
            _ => {}
        }
    }
    if cuts.is_empty() {
        return Ok(None);
    }
    let mut sql = String::with_capacity(text.len());
    let mut from = 0;
    for i in cuts {
        sql.push_str(&text[from..tokens[i].start]);
        from = tokens[i + 1].end;
    }
    sql.push_str(&text[from..]);
    Ok(Some(sql))
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
    let no_inherit = dialect::has_no_inherit(create);
    let keys_not_null = primary_keys_not_null(create);
    if !postgres::table_expressions(create, catalog)?
        && !widened
        && !domains
        && !no_inherit
        && !keys_not_null
    {
        return Ok(None);
    }
    Ok(dialect::translate_parsed(ast, None))
}

/// A primary key's columns declared `NOT NULL`, as PostgreSQL's primary
/// key makes them (SQLite's lets NULL into any but an `INTEGER PRIMARY KEY`);
/// whether any was not.
fn primary_keys_not_null(create: &mut CreateTable) -> bool {
    let mut keys: Vec<String> = Vec::new();
    for constraint in &create.constraints {
        if let TableConstraint::PrimaryKey(key) = constraint {
            for column in &key.columns {
                if let Expr::Identifier(name) = &column.column.expr {
                    keys.push(name.value.clone());
                }
            }
        }
    }
    let mut changed = false;
    for column in &mut create.columns {
        let keyed = keys
            .iter()
            .any(|k| k.eq_ignore_ascii_case(&column.name.value))
            || (column.options.iter()).any(|o| matches!(o.option, ColumnOption::PrimaryKey(_)));
        let not_null = (column.options.iter()).any(|o| matches!(o.option, ColumnOption::NotNull));
        if keyed && !not_null {
            column.options.push(ColumnOptionDef {
                name: None,
                option: ColumnOption::NotNull,
            });
            changed = true;
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::super::lexer::tokenize;
    use super::*;

    #[test]
    fn a_new_tables_constraints_are_valid() {
        let strip = |sql: &str| without_not_valid(sql, &tokenize(sql));
        assert_eq!(
            strip("CREATE TABLE t (a int, CONSTRAINT c CHECK (a > 0) NOT VALID, FOREIGN KEY (a) REFERENCES p NOT VALID)")
                .unwrap()
                .as_deref(),
            Some("CREATE TABLE t (a int, CONSTRAINT c CHECK (a > 0) , FOREIGN KEY (a) REFERENCES p )")
        );
        assert_eq!(strip("CREATE TABLE t (a int)").unwrap(), None);
        assert!(strip("CREATE TABLE t (a int, UNIQUE (a) NOT VALID)").is_err());
    }
}
