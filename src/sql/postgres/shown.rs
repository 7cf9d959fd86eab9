//! The outermost select list (or `RETURNING`) as PostgreSQL shows its
//! values: a `reg*` oid as the name of its object (see `object_ids`), a
//! numeric whose display scale the statement fixes with those digits (see
//! `numeric_scales`). Only the columns shown change: what reads them inside
//! the statement, `ORDER BY` by position or name included, reads the value
//! itself (an oid, a number), as in PostgreSQL.

use sqlparser::ast::{Expr, OrderByKind, Query, SelectItem, SetExpr, Value};

use super::build::ident;
use super::columns::QueryColumn;
use super::numeric_scales;
use super::object_ids;
use super::types::PgType;

/// How a column is shown, where that is not as SQLite holds it.
fn shown(column: &QueryColumn, value: Expr) -> Option<Expr> {
    match (&column.ty, column.scale) {
        (PgType::Reg(kind), _) => Some(object_ids::shown(value, *kind)),
        // A table's `numeric(p, s)` column is shown with its modifier's scale.
        (PgType::Numeric, Some(scale)) if !column.column => {
            Some(numeric_scales::shown(value, scale))
        }
        _ => None,
    }
}

/// A select list's (or `RETURNING`'s) columns as they are shown; the
/// position, name and value of each changed, or `None` where none is.
pub(super) fn show_items(
    items: &mut [SelectItem],
    columns: &[QueryColumn],
) -> Option<Vec<(usize, String, Expr)>> {
    if !columns
        .iter()
        .any(|c| shown(c, Expr::value(Value::Null)).is_some())
    {
        return None;
    }
    // A `*` stands for the columns the other items leave (one `*` at most).
    let is_star = |item: &SelectItem| {
        matches!(
            item,
            SelectItem::Wildcard(_) | SelectItem::QualifiedWildcard(..)
        )
    };
    let stars = items.iter().filter(|item| is_star(item)).count();
    let star_width = columns.len().checked_sub(items.len() - stars)?;
    if stars > 1 || (stars == 0 && star_width != 0) {
        return None;
    }
    let mut values: Vec<(usize, String, Expr)> = Vec::new();
    let mut at = 0;
    for item in items.iter_mut() {
        if is_star(item) {
            at += star_width;
            continue;
        }
        let position = at;
        at += 1;
        let (SelectItem::UnnamedExpr(expr) | SelectItem::ExprWithAlias { expr, .. }) = item else {
            continue;
        };
        let Some(value) = shown(&columns[position], expr.clone()) else {
            continue;
        };
        let name = columns[position].name.clone();
        values.push((position + 1, name.clone(), expr.clone()));
        *item = SelectItem::ExprWithAlias {
            expr: value,
            alias: ident(&name),
        };
    }
    Some(values)
}

/// The outermost select list's columns as they are shown; its `ORDER BY`
/// still orders by the values.
pub(super) fn show(query: &mut Query, columns: &[QueryColumn]) {
    let SetExpr::Select(select) = &mut *query.body else {
        return;
    };
    let Some(values) = show_items(&mut select.projection, columns) else {
        return;
    };
    // `ORDER BY 1` or the column's name: the value, not what is shown.
    let Some(order_by) = &mut query.order_by else {
        return;
    };
    let OrderByKind::Expressions(items) = &mut order_by.kind else {
        return;
    };
    for item in items {
        let position = match &item.expr {
            Expr::Value(value) => match &value.value {
                Value::Number(n, _) => n.parse::<usize>().ok(),
                _ => None,
            },
            Expr::Identifier(ident) => values
                .iter()
                .find(|(_, name, _)| name == &ident.value)
                .map(|(position, _, _)| *position),
            _ => None,
        };
        if let Some((_, _, expr)) = position.and_then(|p| values.iter().find(|(at, ..)| *at == p)) {
            item.expr = expr.clone();
        }
    }
}
