//! Recursive `WITH` queries as PostgreSQL allows them. SQLite runs what
//! PostgreSQL refuses: a queue order or a cut of the recursion (`ORDER BY`,
//! `LIMIT`, `OFFSET` in the query itself), a recursive reference on the
//! nullable side of an outer join (42P19), a recursive member that changes
//! a column's type (42804); SQLite might never end, or answer otherwise.

use std::ops::ControlFlow;

use sqlparser::ast::{
    Expr, Join, JoinOperator, LimitClause, Query, SetExpr, TableFactor, TableWithJoins,
    visit_expressions, visit_expressions_mut, visit_relations,
};

use super::aggregates::is_aggregate;
use super::columns::QueryColumn;
use super::errors::{Fail, Result, datatype_mismatch, not_implemented};
use super::types::PgType;

/// Refuses what PostgreSQL refuses in the query `name` that reads itself.
pub(super) fn check(query: &Query, name: &str) -> Result<()> {
    let refused = if query.order_by.is_some() {
        Some("ORDER BY in a recursive query is not implemented")
    } else if matches!(
        &query.limit_clause,
        Some(LimitClause::LimitOffset {
            offset: Some(_),
            ..
        }) | Some(LimitClause::OffsetCommaLimit { .. })
    ) {
        Some("OFFSET in a recursive query is not implemented")
    } else if query.limit_clause.is_some() {
        Some("LIMIT in a recursive query is not implemented")
    } else if !query.locks.is_empty() {
        Some("FOR UPDATE/SHARE in a recursive query is not implemented")
    } else {
        None
    };
    if let Some(message) = refused {
        return Err(not_implemented(message));
    }
    let SetExpr::SetOperation { right, .. } = &*query.body else {
        return Ok(());
    };
    let SetExpr::Select(select) = &**right else {
        return Ok(());
    };
    if select.from.iter().any(|item| outer_joined(item, name)) {
        return Err(invalid_recursion(format!(
            "recursive reference to query \"{name}\" must not appear within an outer join"
        )));
    }
    // A subquery's aggregates are its own.
    let mut projection = select.projection.clone();
    let _ = visit_expressions_mut(&mut projection, |expr| {
        if matches!(expr, Expr::Subquery(_) | Expr::Exists { .. }) {
            *expr = super::build::null();
        }
        ControlFlow::<()>::Continue(())
    });
    let aggregates = visit_expressions(&projection, |expr| match expr {
        Expr::Function(function)
            if function.over.is_none()
                && is_aggregate(&function.name.to_string().to_ascii_lowercase()) =>
        {
            ControlFlow::Break(())
        }
        _ => ControlFlow::Continue(()),
    });
    if aggregates.is_break() {
        return Err(invalid_recursion(
            "aggregate functions are not allowed in a recursive query's recursive term".into(),
        ));
    }
    Ok(())
}

fn invalid_recursion(message: String) -> Fail {
    Fail::Pg(crate::error::Error::state(
        crate::error::SqlState::parse("42P19").unwrap_or(crate::error::SqlState::SYNTAX_ERROR),
        message,
    ))
}

/// Refuses a recursive query whose non-recursive member gives a column
/// another type than the whole query has.
pub(super) fn check_types(name: &str, anchor: &[QueryColumn], whole: &[QueryColumn]) -> Result<()> {
    for (i, (first, overall)) in anchor.iter().zip(whole).enumerate() {
        let known = |ty: &PgType| *ty != PgType::Unknown && !ty.is_opaque();
        if first.untyped.is_none()
            && known(&first.ty)
            && known(&overall.ty)
            && first.ty != overall.ty
        {
            return Err(datatype_mismatch(format!(
                "recursive query \"{name}\" column {} has type {} in non-recursive term but type {} overall",
                i + 1,
                first.ty.display(),
                overall.ty.display()
            )));
        }
    }
    Ok(())
}

/// Whether `name` is read on the nullable side of an outer join of `item`
/// (a join in parentheses included).
fn outer_joined(item: &TableWithJoins, name: &str) -> bool {
    let nested = |factor: &TableFactor| match factor {
        TableFactor::NestedJoin {
            table_with_joins, ..
        } => outer_joined(table_with_joins, name),
        _ => false,
    };
    if nested(&item.relation) || item.joins.iter().any(|join| nested(&join.relation)) {
        return true;
    }
    let mut left_reads = reads(&item.relation, name);
    for Join {
        relation,
        join_operator,
        ..
    } in &item.joins
    {
        let right_reads = reads(relation, name);
        let nullable = match join_operator {
            JoinOperator::Left(_) | JoinOperator::LeftOuter(_) => right_reads,
            JoinOperator::Right(_) | JoinOperator::RightOuter(_) => left_reads,
            JoinOperator::FullOuter(_) => left_reads || right_reads,
            _ => false,
        };
        if nullable {
            return true;
        }
        left_reads |= right_reads;
    }
    false
}

/// Whether a FROM item reads the relation `name` (in a nested join too).
fn reads(factor: &TableFactor, name: &str) -> bool {
    match factor {
        TableFactor::Table { name: table, .. } => {
            table.0.len() == 1
                && table.0[0]
                    .as_ident()
                    .is_some_and(|ident| ident.value.eq_ignore_ascii_case(name))
        }
        TableFactor::NestedJoin {
            table_with_joins, ..
        } => {
            reads(&table_with_joins.relation, name)
                || table_with_joins
                    .joins
                    .iter()
                    .any(|join| reads(&join.relation, name))
        }
        _ => false,
    }
}

/// Whether `query` reads the relation `name` anywhere.
pub(super) fn reads_itself(query: &Query, name: &str) -> bool {
    visit_relations(query, |relation| {
        match relation.0.len() == 1
            && relation.0[0]
                .as_ident()
                .is_some_and(|ident| ident.value.eq_ignore_ascii_case(name))
        {
            true => ControlFlow::Break(()),
            false => ControlFlow::Continue(()),
        }
    })
    .is_break()
}
