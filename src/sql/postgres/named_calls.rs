//! Calls PostgreSQL reads as something other than a function by their
//! name: a type's name (`float8(x)`) is a cast, and the functions behind a
//! type's comparison operators (`booleq(a, b)`, `int4lt(a, b)`) are the
//! comparison. Each is written as that expression, then read as any other.
//! A range type's constructor (`int4range(1, 5)`) is refused: litewire has no
//! range types.

use sqlparser::ast::{BinaryOperator, Expr, Function, FunctionArg, FunctionArgExpr};

use super::errors::{Result, not_implemented};

/// `float8(x)`: a call named by a type, of one argument, which PostgreSQL
/// reads as a cast to the type (where no function has the name: SQLite's
/// `date`, `time`, `json` keep theirs); a range type's constructor is
/// refused as not implemented (0A000), not unknown.
pub(super) fn function_style_cast(
    function: &Function,
    list: &sqlparser::ast::FunctionArgumentList,
    name: &str,
) -> Result<Option<Expr>> {
    let base = name
        .strip_suffix("multirange")
        .or_else(|| name.strip_suffix("range"));
    if matches!(base, Some("int4" | "int8" | "num" | "ts" | "tstz" | "date")) {
        return Err(not_implemented(&format!(
            "range types are not supported: {name}()"
        )));
    }
    Ok(cast_by_type_name(function, list, name))
}

fn cast_by_type_name(
    function: &Function,
    list: &sqlparser::ast::FunctionArgumentList,
    name: &str,
) -> Option<Expr> {
    // Not the keywords (`numeric(...)`, `integer(...)` are PostgreSQL's
    // syntax errors).
    const CASTS: &[&str] = &[
        "int2",
        "int4",
        "int8",
        "float4",
        "float8",
        "bool",
        "text",
        "bpchar",
        "name",
        "oid",
        "uuid",
        "bytea",
        "timestamptz",
    ];
    let [FunctionArg::Unnamed(FunctionArgExpr::Expr(arg))] = list.args.as_slice() else {
        return None;
    };
    let plain = function.over.is_none()
        && function.filter.is_none()
        && function.within_group.is_empty()
        && list.clauses.is_empty()
        && list.duplicate_treatment.is_none()
        && function.name.0.len() == 1;
    (plain && CASTS.contains(&name)).then(|| Expr::Cast {
        kind: sqlparser::ast::CastKind::Cast,
        expr: Box::new(arg.clone()),
        data_type: sqlparser::ast::DataType::Custom(function.name.clone(), Vec::new()),
        format: None,
    })
}

/// `booleq(a, b)`, `int4lt(a, b)`, ...: the functions behind a type's
/// comparison operators, called by name: the comparison of the arguments as
/// that type.
pub(super) fn comparison_function(
    function: &Function,
    list: &sqlparser::ast::FunctionArgumentList,
    name: &str,
) -> Option<Expr> {
    const TYPES: &[&str] = &[
        "bool", "int2", "int4", "int8", "float4", "float8", "numeric", "text", "date",
    ];
    let [
        FunctionArg::Unnamed(FunctionArgExpr::Expr(a)),
        FunctionArg::Unnamed(FunctionArgExpr::Expr(b)),
    ] = list.args.as_slice()
    else {
        return None;
    };
    if function.over.is_some() || function.filter.is_some() || function.name.0.len() != 1 {
        return None;
    }
    let ty = TYPES.iter().find(|t| name.starts_with(**t))?;
    let op = match &name[ty.len()..] {
        "eq" => BinaryOperator::Eq,
        "ne" => BinaryOperator::NotEq,
        "lt" => BinaryOperator::Lt,
        "le" => BinaryOperator::LtEq,
        "gt" => BinaryOperator::Gt,
        "ge" => BinaryOperator::GtEq,
        _ => return None,
    };
    let typed = |e: &Expr| Expr::Cast {
        kind: sqlparser::ast::CastKind::DoubleColon,
        expr: Box::new(e.clone()),
        data_type: sqlparser::ast::DataType::Custom(
            sqlparser::ast::ObjectName::from(vec![sqlparser::ast::Ident::new(*ty)]),
            Vec::new(),
        ),
        format: None,
    };
    Some(Expr::Nested(Box::new(Expr::BinaryOp {
        left: Box::new(typed(a)),
        op,
        right: Box::new(typed(b)),
    })))
}
