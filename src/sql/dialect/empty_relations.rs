//! A query over catalog relations that are always empty here (policies, triggers,
//! publications, inheritance, ...) is answered with no rows (unless it aggregates
//! them into one: `count(*)` is 0) and its column names
//! without being translated at all: psql asks those questions in syntax SQLite has
//! no equivalent for, and the answer is known.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, GroupByExpr, JoinOperator, Query, Select, SetExpr, SetOperator, TableFactor,
    visit_expressions,
};

use super::column_names::output_name;
use crate::sql::postgres::is_aggregate;
use crate::sql::quote::identifier;
use crate::sql::relations::{self, Contents};
use crate::sql::syntax_tree::{first_select, idents};

/// A query that must return no rows because it reads, at its top level and not
/// through an outer join, a relation that is always empty: answered as
/// `SELECT NULL AS col, ... WHERE false` with the query's column names.
pub(super) fn known_empty(query: &Query) -> Option<String> {
    if !set_is_empty(&query.body) {
        return None;
    }
    let select = first_select(&query.body)?;
    let names = select
        .projection
        .iter()
        .map(output_name)
        .collect::<Option<Vec<_>>>()?;
    let columns = names
        .iter()
        .map(|n| format!("NULL AS {}", identifier(n)))
        .collect::<Vec<_>>()
        .join(", ");
    // The query's parameters stay its own, bound and typed as written.
    let mut placeholders = Vec::new();
    let _ = visit_expressions(query, |expr| {
        if let Expr::Value(value) = expr
            && let sqlparser::ast::Value::Placeholder(p) = &value.value
            && !placeholders.contains(p)
        {
            placeholders.push(p.clone());
        }
        ControlFlow::<()>::Continue(())
    });
    match placeholders.is_empty() {
        true => Some(format!("SELECT {columns} WHERE false")),
        false => Some(format!(
            "SELECT {columns} WHERE false AND coalesce(NULL, {}) IS NULL",
            placeholders.join(", ")
        )),
    }
}

pub(super) fn set_is_empty(body: &SetExpr) -> bool {
    match body {
        SetExpr::Select(select) => select_is_empty(select),
        SetExpr::Query(query) => set_is_empty(&query.body),
        SetExpr::SetOperation {
            op, left, right, ..
        } => match op {
            SetOperator::Union => set_is_empty(left) && set_is_empty(right),
            SetOperator::Intersect => set_is_empty(left) || set_is_empty(right),
            _ => set_is_empty(left),
        },
        _ => false,
    }
}

fn select_is_empty(select: &Select) -> bool {
    // An aggregate over no rows is one row (`count(*)` is 0), unless grouped.
    let ungrouped =
        matches!(&select.group_by, GroupByExpr::Expressions(keys, _) if keys.is_empty());
    if ungrouped && (select.having.is_some() || aggregates(select)) {
        return false;
    }
    select.from.iter().any(|table| {
        is_empty_relation(&table.relation)
            || table.joins.iter().any(|join| {
                matches!(
                    join.join_operator,
                    JoinOperator::Join(_) | JoinOperator::Inner(_) | JoinOperator::CrossJoin(_)
                ) && is_empty_relation(&join.relation)
            })
    })
}

/// Whether the select list calls an aggregate (outside a window).
fn aggregates(select: &Select) -> bool {
    let found = visit_expressions(&select.projection, |expr| match expr {
        Expr::Function(function)
            if function.over.is_none()
                && is_aggregate(&function.name.to_string().to_ascii_lowercase()) =>
        {
            ControlFlow::Break(())
        }
        _ => ControlFlow::Continue(()),
    });
    found.is_break()
}

fn is_empty_relation(factor: &TableFactor) -> bool {
    match factor {
        TableFactor::Table {
            name, args: None, ..
        } => idents(name)
            .last()
            .and_then(|n| relations::find(&n.to_ascii_lowercase()))
            .is_some_and(|r| r.contents == Contents::Empty),
        _ => false,
    }
}
