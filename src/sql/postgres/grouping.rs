//! Grouped queries as PostgreSQL checks them: once a select groups (`GROUP
//! BY`, or an aggregate in its select list, `HAVING` or `ORDER BY`), every
//! column it reads outside an aggregate must be grouped, belong to a table
//! whose primary key is grouped, or sit in an expression that is itself a
//! grouping key; anything else is 42803. SQLite would answer with the column
//! of some row of the group.

use std::ops::ControlFlow;

use sqlparser::ast::{Expr, Value, visit_expressions, visit_expressions_mut};

use super::columns::QueryColumn;
use super::errors::{Fail, Result, grouping};
use super::ordering::{check_position, position};
use super::scope::Scope;
use super::translator::{ColumnRef, Translator};

/// What one expression of a select (an item of its list, `HAVING`, a sort
/// key) reads.
#[derive(Debug, Default)]
pub(super) struct Reads {
    /// The expression as written, which a grouping key may match whole.
    pub(super) original: Option<Expr>,
    /// The column it is, when it reads one as it is.
    pub(super) column: Option<ColumnRef>,
    /// The columns it reads outside aggregates.
    pub(super) ungrouped: Vec<ColumnRef>,
}

/// One `GROUP BY` key.
#[derive(Debug)]
pub(super) struct GroupKey {
    pub(super) expr: Expr,
    /// What it stands for as written (a select item's expression for a
    /// position or an output name).
    original: Expr,
    column: Option<ColumnRef>,
}

impl Translator<'_> {
    /// Runs `read` with the columns it reads outside aggregates collected.
    pub(super) fn reading<T>(
        &mut self,
        read: impl FnOnce(&mut Self) -> Result<T>,
    ) -> Result<(T, Vec<ColumnRef>)> {
        let outer = self.ungrouped.replace(Vec::new());
        let result = read(self);
        let collected = std::mem::replace(&mut self.ungrouped, outer).unwrap_or_default();
        result.map(|value| (value, collected))
    }

    /// One `GROUP BY` item: a position in the select list, an output column's
    /// name, or an expression.
    pub(super) fn group_key(
        &mut self,
        item: &Expr,
        scope: &Scope,
        columns: Option<&[QueryColumn]>,
        reads: &[Reads],
    ) -> Result<GroupKey> {
        let selected = |i: usize| reads.get(i);
        if let Some(position) = position(item) {
            check_position("GROUP BY", position, columns)?;
            let read = selected(position as usize - 1);
            return Ok(GroupKey {
                expr: item.clone(),
                original: read
                    .and_then(|r| r.original.clone())
                    .unwrap_or_else(|| item.clone()),
                column: read.and_then(|r| r.column.clone()),
            });
        }
        match self.reading(|t| t.expr(item, scope)) {
            Ok((typed, _)) => Ok(GroupKey {
                expr: typed.expr,
                original: item.clone(),
                column: typed.column,
            }),
            // An output column's name, which no input column has.
            Err(Fail::Pg(error)) => {
                let Expr::Identifier(name) = item else {
                    return Err(Fail::Pg(error));
                };
                let index = columns.and_then(|c| {
                    c.iter()
                        .position(|c| c.name.eq_ignore_ascii_case(&name.value))
                });
                match index {
                    Some(i) => Ok(GroupKey {
                        expr: item.clone(),
                        original: selected(i)
                            .and_then(|r| r.original.clone())
                            .unwrap_or_else(|| item.clone()),
                        column: selected(i).and_then(|r| r.column.clone()),
                    }),
                    None => Err(Fail::Pg(error)),
                }
            }
            Err(other) => Err(other),
        }
    }
}

/// Checks a grouped select's expressions against its keys.
pub(super) fn check(keys: &[GroupKey], reads: &[Reads], scope: &Scope) -> Result<()> {
    let grouped = |column: &ColumnRef| {
        keys.iter().any(|key| {
            key.column
                .as_ref()
                .is_some_and(|k| same_column(k, column, scope))
        })
    };
    for read in reads {
        // Columns read inside a part that is a grouping key as written
        // (`lower(c)` beside `GROUP BY lower(c)`) are grouped.
        let outside = read.original.as_ref().map(|o| names_outside_keys(o, keys));
        for column in &read.ungrouped {
            let covered = outside
                .as_ref()
                .is_some_and(|names| !names.iter().any(|n| n.eq_ignore_ascii_case(&column.name)));
            if covered || grouped(column) || key_grouped(column, scope, &grouped) {
                continue;
            }
            let name = match &column.relation {
                Some(relation) => format!("{relation}.{}", column.name),
                None => column.name.clone(),
            };
            return Err(grouping(format!(
                "column \"{name}\" must appear in the GROUP BY clause or be used in an aggregate function"
            )));
        }
    }
    Ok(())
}

/// The column names `expr` reads outside its parts that match a grouping
/// key as written.
fn names_outside_keys(expr: &Expr, keys: &[GroupKey]) -> Vec<String> {
    let mut rest = expr.clone();
    // Innermost first: a part is replaced once its own parts were looked at.
    let _ = visit_expressions_mut(&mut rest, |part| {
        if keys.iter().any(|key| key.original == *part) {
            *part = Expr::Value(Value::Null.into());
        }
        ControlFlow::<()>::Continue(())
    });
    let mut names = Vec::new();
    let _ = visit_expressions(&rest, |part| {
        match part {
            Expr::Identifier(name) => names.push(name.value.clone()),
            Expr::CompoundIdentifier(parts) => {
                names.extend(parts.last().map(|name| name.value.clone()));
            }
            _ => {}
        }
        ControlFlow::<()>::Continue(())
    });
    names
}

/// Whether grouping by `key` groups `column`. A column `USING` merged reads
/// the joined tables' columns (PostgreSQL: `SELECT f1 ... GROUP BY t1.f1`);
/// grouping by it groups a table's own only where it is that column
/// unchanged, of the same type (not where `USING` made it another type).
fn same_column(key: &ColumnRef, column: &ColumnRef, scope: &Scope) -> bool {
    key.name.eq_ignore_ascii_case(&column.name)
        && match (&key.relation, &column.relation) {
            (Some(x), Some(y)) => x.eq_ignore_ascii_case(y),
            (_, None) => true,
            (None, Some(relation)) => {
                let merged = scope
                    .merged
                    .iter()
                    .find(|c| c.name.eq_ignore_ascii_case(&column.name));
                let own = scope
                    .items
                    .iter()
                    .find(|item| item.name.eq_ignore_ascii_case(relation))
                    .and_then(|item| {
                        item.columns
                            .iter()
                            .find(|c| c.name.eq_ignore_ascii_case(&column.name))
                    });
                matches!((merged, own), (Some(m), Some(o)) if m.ty == o.ty && m.computed.is_none())
            }
        }
}

/// Whether `column`'s table has a primary key and every column of it is
/// grouped: the rest of the row then depends on the key.
fn key_grouped(column: &ColumnRef, scope: &Scope, grouped: &impl Fn(&ColumnRef) -> bool) -> bool {
    let Some(relation) = &column.relation else {
        return false;
    };
    let Some(item) = scope
        .items
        .iter()
        .find(|item| item.name.eq_ignore_ascii_case(relation))
    else {
        return false;
    };
    let mut key = item.columns.iter().filter(|c| c.primary_key).peekable();
    key.peek().is_some()
        && key.all(|c| {
            grouped(&ColumnRef {
                relation: Some(item.name.clone()),
                name: c.name.clone(),
                not_null: c.not_null,
                primary_key: true,
                declared: c.declared,
                modifier: c.modifier,
            })
        })
}
