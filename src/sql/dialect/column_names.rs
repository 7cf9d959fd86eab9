//! The names PostgreSQL gives result columns that have no alias: a column's
//! own name, a function's, the type of a cast, `case`, else `?column?`. The
//! translated statement names its columns so, whatever SQLite would call them.

use sqlparser::ast::{Expr, SelectItem};

use super::type_names::{internal_type_name, type_name};
use crate::sql::syntax_tree::idents;

/// The name PostgreSQL gives a result column.
pub(super) fn output_name(item: &SelectItem) -> Option<String> {
    match item {
        SelectItem::ExprWithAlias { alias, .. } => Some(alias.value.clone()),
        SelectItem::UnnamedExpr(expr) => Some(expr_name(expr)),
        _ => None,
    }
}

pub(super) fn expr_name(expr: &Expr) -> String {
    match expr {
        Expr::Identifier(ident) => ident.value.clone(),
        Expr::CompoundIdentifier(parts) => {
            parts.last().map_or_else(String::new, |p| p.value.clone())
        }
        Expr::Cast {
            expr, data_type, ..
        } => match **expr {
            Expr::Identifier(_) | Expr::CompoundIdentifier(_) => expr_name(expr),
            _ => internal_type_name(&type_name(data_type)),
        },
        Expr::Function(f) => idents(&f.name).last().cloned().unwrap_or_default(),
        Expr::Case { .. } => "case".into(),
        _ => "?column?".into(),
    }
}
