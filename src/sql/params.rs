//! Parameter types, inferred from where each parameter is used.
//!
//! SQLite does not type parameters, but PostgreSQL drivers ask for them
//! (Describe answers with ParameterDescription) and then encode values to match:
//! tokio-postgres refuses to send an `i32` for a parameter described as text.
//! A parameter compared with, assigned to or inserted into a column takes that
//! column's declared type (an INSERT without a column list fills the table's
//! columns in order); one under a cast takes the cast's type; `LIMIT` and
//! `OFFSET` take bigint. The engine resolves column hints against the schema.

use std::collections::HashMap;
use std::ops::ControlFlow;

use sqlparser::ast::{
    AssignmentTarget, BinaryOperator, Expr, InTarget, ObjectName, ObjectNamePart, Query, SetExpr,
    Statement as Ast, TableFactor, TableObject, Value, Visit, Visitor,
};
use sqlparser::dialect::SQLiteDialect;
use sqlparser::parser::Parser;

/// What a parameter's type should be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParamHint {
    /// The declared type of `column` in the first of `tables` that has it.
    Column { tables: Vec<String>, column: String },
    /// The declared type of the `index`th (0-based) column that an INSERT without
    /// a column list fills in `table`: its columns in order, less generated ones.
    Position { table: String, index: usize },
    /// A type named in the statement (a cast), as SQLite would declare it.
    Declared(String),
}

/// A hint for each of the `count` parameters `?1..?N` of SQLite `sql`.
pub fn param_hints(sql: &str, count: usize) -> Vec<Option<ParamHint>> {
    let mut hints = vec![None; count];
    let Ok(statements) = Parser::parse_sql(&SQLiteDialect {}, sql) else {
        return hints;
    };
    let Some(ast) = statements.first() else {
        return hints;
    };
    let scope = Scope::of(ast);
    let mut collector = Collector {
        scope: &scope,
        hints: &mut hints,
    };
    collector.statement(ast);
    let _ = ast.visit(&mut collector);
    hints
}

/// The tables a statement reads or writes, by alias and by name.
struct Scope {
    aliases: HashMap<String, String>,
    tables: Vec<String>,
}

impl Scope {
    fn of(ast: &Ast) -> Scope {
        let mut scope = Scope {
            aliases: HashMap::new(),
            tables: Vec::new(),
        };
        let _ = ast.visit(&mut scope);
        scope
    }

    fn add(&mut self, name: &ObjectName, alias: Option<String>) {
        let Some(table) = last(name) else {
            return;
        };
        if let Some(alias) = alias {
            self.aliases
                .insert(alias.to_ascii_lowercase(), table.clone());
        }
        self.aliases
            .insert(table.to_ascii_lowercase(), table.clone());
        if !self.tables.contains(&table) {
            self.tables.push(table);
        }
    }

    /// The tables a column reference may belong to.
    fn tables_for(&self, qualifier: Option<&str>) -> Vec<String> {
        match qualifier.and_then(|q| self.aliases.get(&q.to_ascii_lowercase())) {
            Some(table) => vec![table.clone()],
            None => self.tables.clone(),
        }
    }
}

impl Visitor for Scope {
    type Break = ();

    fn pre_visit_table_factor(&mut self, factor: &TableFactor) -> ControlFlow<()> {
        if let TableFactor::Table { name, alias, .. } = factor {
            self.add(name, alias.as_ref().map(|a| a.name.value.clone()));
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_statement(&mut self, statement: &Ast) -> ControlFlow<()> {
        if let Ast::Insert(insert) = statement
            && let TableObject::TableName(name) = &insert.table
        {
            self.add(
                name,
                insert.table_alias.as_ref().map(|a| a.alias.value.clone()),
            );
        }
        ControlFlow::Continue(())
    }
}

struct Collector<'a> {
    scope: &'a Scope,
    hints: &'a mut Vec<Option<ParamHint>>,
}

impl Collector<'_> {
    fn set(&mut self, param: &Expr, hint: ParamHint) {
        if let Some(n) = placeholder(param)
            && let Some(slot) = self.hints.get_mut(n - 1)
            && slot.is_none()
        {
            *slot = Some(hint);
        }
    }

    fn column_hint(&self, expr: &Expr) -> Option<ParamHint> {
        let (qualifier, column) = match expr {
            Expr::Identifier(ident) => (None, ident.value.clone()),
            Expr::CompoundIdentifier(parts) => match parts.as_slice() {
                [.., q, c] => (Some(q.value.as_str()), c.value.clone()),
                _ => return None,
            },
            _ => return None,
        };
        Some(ParamHint::Column {
            tables: self.scope.tables_for(qualifier),
            column,
        })
    }

    /// INSERT values and UPDATE assignments name their columns directly.
    fn statement(&mut self, ast: &Ast) {
        match ast {
            Ast::Insert(insert) => {
                let TableObject::TableName(name) = &insert.table else {
                    return;
                };
                let Some(table) = last(name) else { return };
                let Some(SetExpr::Values(values)) = insert.source.as_ref().map(|q| q.body.as_ref())
                else {
                    return;
                };
                for row in &values.rows {
                    for (index, expr) in row.iter().enumerate() {
                        let hint = if insert.columns.is_empty() {
                            ParamHint::Position {
                                table: table.clone(),
                                index,
                            }
                        } else {
                            let Some(column) = insert.columns.get(index).and_then(last) else {
                                continue;
                            };
                            ParamHint::Column {
                                tables: vec![table.clone()],
                                column,
                            }
                        };
                        self.set(expr, hint);
                    }
                }
            }
            Ast::Update(update) => {
                for assignment in &update.assignments {
                    if let AssignmentTarget::ColumnName(name) = &assignment.target
                        && let Some(column) = last(name)
                    {
                        let hint = ParamHint::Column {
                            tables: self.scope.tables.first().cloned().into_iter().collect(),
                            column,
                        };
                        self.set(&assignment.value, hint);
                    }
                }
            }
            _ => {}
        }
    }

    fn compared(&mut self, a: &Expr, b: &Expr) {
        if let Some(hint) = self.column_hint(a) {
            self.set(b, hint);
        }
        if let Some(hint) = self.column_hint(b) {
            self.set(a, hint);
        }
    }
}

impl Visitor for Collector<'_> {
    type Break = ();

    fn pre_visit_query(&mut self, query: &Query) -> ControlFlow<()> {
        if let Some(limit) = &query.limit_clause {
            let _ = limit.visit(&mut LimitParams { hints: self.hints });
        }
        ControlFlow::Continue(())
    }

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        match expr {
            Expr::BinaryOp { left, op, right } if is_comparison(op) => self.compared(left, right),
            Expr::Like { expr, pattern, .. } | Expr::ILike { expr, pattern, .. } => {
                self.compared(expr, pattern)
            }
            Expr::In {
                expr,
                target: InTarget::List(list),
                ..
            } => {
                for item in list {
                    self.compared(expr, item);
                }
            }
            Expr::Between {
                expr, low, high, ..
            } => {
                self.compared(expr, low);
                self.compared(expr, high);
            }
            Expr::Cast {
                expr, data_type, ..
            } => self.set(expr, ParamHint::Declared(data_type.to_string())),
            _ => {}
        }
        ControlFlow::Continue(())
    }
}

/// Every parameter inside `LIMIT`/`OFFSET` is a row count.
struct LimitParams<'a> {
    hints: &'a mut Vec<Option<ParamHint>>,
}

impl Visitor for LimitParams<'_> {
    type Break = ();

    fn pre_visit_expr(&mut self, expr: &Expr) -> ControlFlow<()> {
        if let Some(n) = placeholder(expr)
            && let Some(slot) = self.hints.get_mut(n - 1)
            && slot.is_none()
        {
            *slot = Some(ParamHint::Declared("bigint".into()));
        }
        ControlFlow::Continue(())
    }
}

fn is_comparison(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::Eq
            | BinaryOperator::NotEq
            | BinaryOperator::Lt
            | BinaryOperator::LtEq
            | BinaryOperator::Gt
            | BinaryOperator::GtEq
    )
}

/// `?N` (1-based), looking through parentheses.
fn placeholder(expr: &Expr) -> Option<usize> {
    match expr {
        Expr::Value(v) => match &v.value {
            Value::Placeholder(p) => p.strip_prefix('?')?.parse().ok().filter(|n| *n > 0),
            _ => None,
        },
        Expr::Nested(inner) => placeholder(inner),
        _ => None,
    }
}

fn last(name: &ObjectName) -> Option<String> {
    match name.0.last()? {
        ObjectNamePart::Identifier(ident) => Some(ident.value.clone()),
        ObjectNamePart::Function(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(table: &str, column: &str) -> Option<ParamHint> {
        Some(ParamHint::Column {
            tables: vec![table.into()],
            column: column.into(),
        })
    }

    #[test]
    fn hints_from_use() {
        assert_eq!(
            param_hints("INSERT INTO t (a, b) VALUES (?1, ?2)", 2),
            vec![column("t", "a"), column("t", "b")]
        );
        let position = |index| {
            Some(ParamHint::Position {
                table: "t".into(),
                index,
            })
        };
        assert_eq!(
            param_hints("INSERT INTO t VALUES (?1, 'x', ?2), (?3, ?4, ?5)", 5),
            vec![
                position(0),
                position(2),
                position(0),
                position(1),
                position(2)
            ]
        );
        assert_eq!(
            param_hints("INSERT INTO t (b, a) VALUES (?1, ?2), (?3, ?4)", 4),
            vec![
                column("t", "b"),
                column("t", "a"),
                column("t", "b"),
                column("t", "a")
            ]
        );
        assert_eq!(
            param_hints("UPDATE t SET a = ?2 WHERE id = ?1", 2),
            vec![column("t", "id"), column("t", "a")]
        );
        assert_eq!(
            param_hints(
                "SELECT * FROM t AS x JOIN u ON u.k = x.k WHERE x.a > ?1 AND u.b IN (?2) LIMIT ?3",
                3
            ),
            vec![
                column("t", "a"),
                column("u", "b"),
                Some(ParamHint::Declared("bigint".into()))
            ]
        );
        assert_eq!(
            param_hints("SELECT CAST(?1 AS INTEGER)", 1),
            vec![Some(ParamHint::Declared("INTEGER".into()))]
        );
        assert_eq!(param_hints("SELECT ?1", 1), vec![None]);
        assert_eq!(param_hints("not sql at all", 1), vec![None]);
    }
}
