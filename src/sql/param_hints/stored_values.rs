//! Values stored into columns take the columns' declared types: the rows of an
//! INSERT (VALUES or the select list of INSERT ... SELECT, with or without a
//! column list) and the assignments of UPDATE and ON CONFLICT ... DO UPDATE.

use sqlparser::ast::{
    AssignmentTarget, Expr, ObjectName, OnConflictAction, OnInsert, SelectItem, SetExpr,
    Statement as Ast, TableFactor, TableObject,
};

use super::hint::ParamHint;
use super::inference::Inference;
use crate::sql::syntax_tree::last_ident;

impl Inference<'_> {
    /// Values an INSERT, UPDATE or ON CONFLICT stores into columns.
    pub(super) fn stored_values(&mut self, statement: &Ast) {
        match statement {
            Ast::Insert(insert) => {
                let TableObject::TableName(name) = &insert.table else {
                    return;
                };
                let Some(table) = last_ident(name) else {
                    return;
                };
                let target = |index: usize| -> Option<ParamHint> {
                    if insert.columns.is_empty() {
                        return Some(ParamHint::Position {
                            table: table.clone(),
                            index,
                        });
                    }
                    Some(ParamHint::Column {
                        tables: vec![table.clone()],
                        column: insert.columns.get(index).and_then(last_ident)?,
                    })
                };
                if let Some(source) = &insert.source {
                    for row in stored_rows(&source.body) {
                        for (index, expr) in row.into_iter().enumerate() {
                            if let Some(hint) = target(index) {
                                self.expect(expr, &hint);
                            }
                        }
                    }
                }
                if let Some(OnInsert::OnConflict(conflict)) = &insert.on
                    && let OnConflictAction::DoUpdate(update) = &conflict.action
                {
                    for assignment in &update.assignments {
                        self.assigned(&table, &assignment.target, &assignment.value);
                    }
                }
            }
            Ast::Update(update) => {
                let TableFactor::Table { name, .. } = &update.table.relation else {
                    return;
                };
                let Some(table) = last_ident(name) else {
                    return;
                };
                for assignment in &update.assignments {
                    self.assigned(&table, &assignment.target, &assignment.value);
                }
            }
            _ => {}
        }
    }

    /// `SET col = value`, and `SET (a, b) = ($1, $2)` element by element.
    fn assigned(&mut self, table: &str, target: &AssignmentTarget, value: &Expr) {
        let hint = |name: &ObjectName| {
            Some(ParamHint::Column {
                tables: vec![table.to_owned()],
                column: last_ident(name)?,
            })
        };
        match (target, value) {
            (AssignmentTarget::ColumnName(name), value) => {
                if let Some(hint) = hint(name) {
                    self.expect(value, &hint);
                }
            }
            (AssignmentTarget::Tuple(names), Expr::Tuple(values)) => {
                for (name, value) in names.iter().zip(values) {
                    if let Some(hint) = hint(name) {
                        self.expect(value, &hint);
                    }
                }
            }
            _ => {}
        }
    }
}

/// The rows of values an INSERT's source produces: each VALUES row, or each
/// SELECT's list (both sides of a UNION).
fn stored_rows(body: &SetExpr) -> Vec<Vec<&Expr>> {
    match body {
        SetExpr::Values(values) => values.rows.iter().map(|row| row.iter().collect()).collect(),
        SetExpr::Select(select) => vec![
            select
                .projection
                .iter()
                .map_while(|item| match item {
                    SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. } => {
                        Some(expr)
                    }
                    _ => None,
                })
                .collect(),
        ],
        SetExpr::SetOperation { left, right, .. } => {
            let mut rows = stored_rows(left);
            rows.extend(stored_rows(right));
            rows
        }
        SetExpr::Query(query) => stored_rows(&query.body),
        _ => Vec::new(),
    }
}
