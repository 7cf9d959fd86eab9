//! Readers of sqlparser's syntax tree shared by the PostgreSQL dialect
//! translation and the inference of parameter types: names, call arguments, a
//! query's first SELECT, the kinds of binary operators.

use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArgumentList, ObjectName,
    ObjectNamePart, Select, SetExpr, Value,
};

/// The identifiers of a possibly qualified name, in order.
pub(super) fn idents(name: &ObjectName) -> Vec<String> {
    name.0
        .iter()
        .filter_map(|part| match part {
            ObjectNamePart::Identifier(ident) => Some(ident.value.clone()),
            ObjectNamePart::Function(_) => None,
        })
        .collect()
}

/// The last part of a name (a qualified name's object), when it is an identifier.
pub(super) fn last_ident(name: &ObjectName) -> Option<String> {
    match name.0.last()? {
        ObjectNamePart::Identifier(ident) => Some(ident.value.clone()),
        ObjectNamePart::Function(_) => None,
    }
}

/// The first SELECT of a query body (the left side of a UNION, ...), which
/// names the query's columns.
pub(super) fn first_select(body: &SetExpr) -> Option<&Select> {
    match body {
        SetExpr::Select(select) => Some(select),
        SetExpr::Query(query) => first_select(&query.body),
        SetExpr::SetOperation { left, .. } => first_select(left),
        _ => None,
    }
}

/// The plain expressions among a call's arguments (named ones and `*` left
/// out).
pub(super) fn plain_args(list: &FunctionArgumentList) -> Vec<&Expr> {
    list.args
        .iter()
        .filter_map(|arg| match arg {
            FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
            _ => None,
        })
        .collect()
}

/// Whether `expr` is a parameter (`$1`, `?1`).
pub(super) fn is_parameter(expr: &Expr) -> bool {
    matches!(expr, Expr::Value(v) if matches!(v.value, Value::Placeholder(_)))
}

/// `=`, `<>`, `<`, `<=`, `>`, `>=`.
pub(super) fn is_comparison(op: &BinaryOperator) -> bool {
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

/// `+`, `-`, `*`, `/`, `%`.
pub(super) fn is_arithmetic(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::Plus
            | BinaryOperator::Minus
            | BinaryOperator::Multiply
            | BinaryOperator::Divide
            | BinaryOperator::Modulo
    )
}

/// LIKE spelled as an operator and the regular expression matches.
pub(super) fn is_text_match(op: &BinaryOperator) -> bool {
    matches!(
        op,
        BinaryOperator::PGRegexMatch
            | BinaryOperator::PGRegexIMatch
            | BinaryOperator::PGRegexNotMatch
            | BinaryOperator::PGRegexNotIMatch
            | BinaryOperator::PGLikeMatch
            | BinaryOperator::PGILikeMatch
            | BinaryOperator::PGNotLikeMatch
            | BinaryOperator::PGNotILikeMatch
    )
}
