//! CHECK constraints, read back from the `CREATE TABLE` text SQLite keeps.
//!
//! SQLite enforces CHECK constraints but has no pragma that lists them; the
//! emulated catalog (`\d table`'s "Check constraints:") needs their names and
//! expressions.

use sqlparser::ast::{ColumnOption, Statement as Ast, TableConstraint};
use sqlparser::dialect::{PostgreSqlDialect, SQLiteDialect};
use sqlparser::parser::Parser;

/// One CHECK constraint of a table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckConstraint {
    /// The name it was declared with, if any.
    pub name: Option<String>,
    /// The column it was declared on, for a column constraint.
    pub column: Option<String>,
    /// Its expression, as SQL.
    pub expr: String,
}

/// The CHECK constraints of a `CREATE TABLE` statement; none if it does not parse.
pub fn check_constraints(create_table: &str) -> Vec<CheckConstraint> {
    // SQLite's reading first; PostgreSQL's takes what it lacks (`text[]`).
    let Ok(statements) = Parser::parse_sql(&SQLiteDialect {}, create_table)
        .or_else(|_| Parser::parse_sql(&PostgreSqlDialect {}, create_table))
    else {
        return Vec::new();
    };
    let Some(Ast::CreateTable(table)) = statements.first() else {
        return Vec::new();
    };
    let mut checks = Vec::new();
    for column in &table.columns {
        for option in &column.options {
            if let ColumnOption::Check(check) = &option.option {
                checks.push(CheckConstraint {
                    name: option
                        .name
                        .as_ref()
                        .or(check.name.as_ref())
                        .map(|n| n.value.clone()),
                    column: Some(column.name.value.clone()),
                    expr: check.expr.to_string(),
                });
            }
        }
    }
    for constraint in &table.constraints {
        if let TableConstraint::Check(check) = constraint {
            checks.push(CheckConstraint {
                name: check.name.as_ref().map(|n| n.value.clone()),
                column: None,
                expr: check.expr.to_string(),
            });
        }
    }
    checks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_and_table_checks() {
        let checks = check_constraints(
            "CREATE TABLE t (a int CHECK (a > 0), b text CONSTRAINT short CHECK (length(b) < 5), CHECK (a < 10))",
        );
        assert_eq!(
            checks,
            vec![
                CheckConstraint {
                    name: None,
                    column: Some("a".into()),
                    expr: "a > 0".into()
                },
                CheckConstraint {
                    name: Some("short".into()),
                    column: Some("b".into()),
                    expr: "length(b) < 5".into()
                },
                CheckConstraint {
                    name: None,
                    column: None,
                    expr: "a < 10".into()
                },
            ]
        );
        assert!(check_constraints("not a table").is_empty());
    }
}
