//! Readers of sqlparser's syntax tree shared by the PostgreSQL dialect
//! translation and the inference of parameter types: names, call arguments, a
//! query's first SELECT, the kinds of binary operators.

use std::ops::ControlFlow;

use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArgumentList, Ident, ObjectName,
    ObjectNamePart, Select, SetExpr, TableFactor, Value, VisitMut, VisitorMut,
};

/// Makes `node` print as the SQL it is. sqlparser prints a string literal's
/// `''` and `\'` as they are, taking them for escapes already made
/// (`'a''''b'` would come back as `'a''b'`): a literal holding either is
/// given its printed form here. Call it before printing a tree that is to be
/// read again.
pub(crate) fn printable<T: VisitMut>(node: &mut T) {
    let _ = node.visit(&mut Literals);
    exists_with_columns(node);
}

struct Literals;

impl VisitorMut for Literals {
    type Break = ();

    fn post_visit_expr(&mut self, expr: &mut Expr) -> ControlFlow<()> {
        if let Expr::Value(value) = expr
            && let Value::SingleQuotedString(text) = &value.value
            && (text.contains("''") || text.contains("\\'"))
        {
            value.value = Value::Placeholder(format!("'{}'", text.replace('\'', "''")));
        }
        ControlFlow::Continue(())
    }
}

/// `EXISTS (SELECT FROM ...)`, a subquery of no columns (PostgreSQL's way
/// to ask only whether there are rows), as `EXISTS (SELECT 1 FROM ...)`:
/// SQLite's SELECT has at least one column. Whether any was.
pub(crate) fn exists_with_columns<T: VisitMut>(node: &mut T) -> bool {
    let mut changed = false;
    let _ = sqlparser::ast::visit_expressions_mut(node, |expr| {
        if let Expr::Exists { subquery, .. } = expr
            && let SetExpr::Select(select) = subquery.body.as_mut()
            && select.projection.is_empty()
        {
            select
                .projection
                .push(sqlparser::ast::SelectItem::UnnamedExpr(Expr::value(
                    Value::Number("1".into(), false),
                )));
            changed = true;
        }
        ControlFlow::<()>::Continue(())
    });
    changed
}

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

/// An identifier as PostgreSQL reads it: folded to lower case unless quoted.
pub(super) fn folded_ident(ident: &sqlparser::ast::Ident) -> String {
    match ident.quote_style {
        Some(_) => ident.value.clone(),
        None => ident.value.to_ascii_lowercase(),
    }
}

/// The alias a relation in FROM is given, as written.
pub(super) fn alias_of(factor: &TableFactor) -> Option<&Ident> {
    match factor {
        TableFactor::Table { alias, .. }
        | TableFactor::Derived { alias, .. }
        | TableFactor::Function { alias, .. }
        | TableFactor::TableFunction { alias, .. }
        | TableFactor::UNNEST { alias, .. } => alias.as_ref().map(|a| &a.name),
        _ => None,
    }
}

/// The last part of a name (its object's), as PostgreSQL reads it.
pub(super) fn folded_last(name: &ObjectName) -> String {
    match name.0.last() {
        Some(ObjectNamePart::Identifier(ident)) => folded_ident(ident),
        _ => String::new(),
    }
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
