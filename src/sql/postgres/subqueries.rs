//! A subquery used as a value, as PostgreSQL runs it: its one row's value,
//! NULL for none, and 21000 when it returns more than one. SQLite takes the
//! first row, so a subquery that may return several is read through the
//! engine's `litewire_single` aggregate, which fails on a second row; one
//! that cannot (an aggregate without `GROUP BY`, `LIMIT 1`, no FROM) runs as
//! it is.

use sqlparser::ast::{
    Expr, FunctionArguments, GroupByExpr, LimitClause, Query, SelectItem, SetExpr, Value,
};
use sqlparser::dialect::PostgreSqlDialect;
use sqlparser::parser::Parser;

use super::aggregates::is_aggregate;
use super::build::ident;
use super::names::function_name;

/// The name the subquery's column gets inside the wrapping query.
const VALUE: &str = "litewire_value";

/// `query` as a scalar subquery's body: as it is when it returns at most one
/// row, else wrapped to fail on a second.
pub(super) fn scalar(query: Query) -> Query {
    if at_most_one_row(&query) {
        return query;
    }
    let mut named = query.clone();
    if !name_the_column(&mut named.body) {
        return query;
    }
    crate::sql::syntax_tree::printable(&mut named);
    let sql = format!(
        "SELECT litewire_single({}) FROM ({named}) AS litewire_rows",
        ident(VALUE)
    );
    Parser::new(&PostgreSqlDialect {})
        .try_with_sql(&sql)
        .and_then(|mut parser| parser.parse_query())
        .map_or(query, |wrapped| *wrapped)
}

fn at_most_one_row(query: &Query) -> bool {
    let limited = matches!(
        &query.limit_clause,
        Some(LimitClause::LimitOffset { limit: Some(Expr::Value(v)), .. })
            if matches!(&v.value, Value::Number(n, _) if n == "0" || n == "1")
    );
    limited
        || match &*query.body {
            SetExpr::Select(select) => {
                let ungrouped = matches!(&select.group_by, GroupByExpr::Expressions(keys, _) if keys.is_empty());
                let aggregates = select.projection.iter().any(|item| match item {
                    SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                        is_aggregate_call(e)
                    }
                    _ => false,
                });
                (select.from.is_empty() || (ungrouped && aggregates)) && select.having.is_none()
            }
            SetExpr::Values(values) => values.rows.len() <= 1,
            _ => false,
        }
}

fn is_aggregate_call(expr: &Expr) -> bool {
    match expr {
        Expr::Function(function) => {
            function.over.is_none()
                && !matches!(function.args, FunctionArguments::None)
                && is_aggregate(&function_name(function))
        }
        Expr::Nested(inner) => is_aggregate_call(inner),
        _ => false,
    }
}

/// Names the one column of `body` (its first select's, for a set operation)
/// [`VALUE`]; `false` when it cannot (`*`).
fn name_the_column(body: &mut SetExpr) -> bool {
    match body {
        SetExpr::Select(select) => match select.projection.as_mut_slice() {
            [item] => {
                let expr = match item {
                    SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                        e.clone()
                    }
                    _ => return false,
                };
                *item = SelectItem::ExprWithAlias {
                    expr,
                    alias: ident(VALUE),
                };
                true
            }
            _ => false,
        },
        SetExpr::SetOperation { left, .. } => name_the_column(left),
        SetExpr::Query(query) => name_the_column(&mut query.body),
        _ => false,
    }
}
