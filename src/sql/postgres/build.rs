//! Syntax-tree nodes the translation puts in place of PostgreSQL's: calls of
//! the engine's functions, literals, parenthesised operations. Built as nodes,
//! not parsed from text: the translation of a statement runs once per text,
//! but a bulk `INSERT` of a thousand rows builds thousands of them.

use sqlparser::ast::{
    BinaryOperator, Expr, Function, FunctionArg, FunctionArgExpr, FunctionArgumentList,
    FunctionArguments, Ident, ObjectName, Query, Select, SetExpr, Statement, TableFactor,
    UnaryOperator, Value,
};

/// `name(args...)`.
pub(super) fn call(name: &str, args: Vec<Expr>) -> Expr {
    Expr::Function(Function {
        name: ObjectName::from(vec![Ident::new(name)]),
        uses_odbc_syntax: false,
        parameters: FunctionArguments::None,
        args: FunctionArguments::List(FunctionArgumentList {
            duplicate_treatment: None,
            args: args
                .into_iter()
                .map(|arg| FunctionArg::Unnamed(FunctionArgExpr::Expr(arg)))
                .collect(),
            clauses: Vec::new(),
        }),
        within_group: Vec::new(),
        filter: None,
        null_treatment: None,
        over: None,
    })
}

/// A string literal.
pub(super) fn string(text: &str) -> Expr {
    Expr::value(Value::SingleQuotedString(text.to_owned()))
}

/// A number literal, as SQLite reads it.
pub(super) fn number(text: impl Into<String>) -> Expr {
    Expr::value(Value::Number(text.into(), false))
}

pub(super) fn null() -> Expr {
    Expr::value(Value::Null)
}

/// `DEFAULT` where a value may stand (a row of `VALUES`, an assignment).
pub(super) fn default_keyword() -> Expr {
    Expr::Identifier(Ident::new("DEFAULT"))
}

/// A boolean as SQLite stores it.
pub(super) fn boolean(value: bool) -> Expr {
    number(if value { "1" } else { "0" })
}

/// `(left op right)`.
pub(super) fn binary(left: Expr, op: BinaryOperator, right: Expr) -> Expr {
    Expr::Nested(Box::new(Expr::BinaryOp {
        left: Box::new(left),
        op,
        right: Box::new(right),
    }))
}

/// `(NOT operand)`.
pub(super) fn not(operand: Expr) -> Expr {
    Expr::Nested(Box::new(Expr::UnaryOp {
        op: UnaryOperator::Not,
        expr: Box::new(operand),
    }))
}

/// A boolean as PostgreSQL's output shows it: `t`, `f`, or NULL.
pub(super) fn boolean_shown(value: Expr) -> Expr {
    let when = |stored: bool, shown: &str| sqlparser::ast::CaseWhen {
        condition: number(if stored { "1" } else { "0" }),
        result: string(shown),
    };
    Expr::Case {
        case_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        end_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        operand: Some(Box::new(value)),
        conditions: vec![when(true, "t"), when(false, "f")],
        else_result: None,
    }
}

/// A `numeric` value as a number to SQLite (see [`numeric_key`]), as a
/// float where it is not an integer.
pub(super) fn numeric_value(expr: Expr) -> Expr {
    Expr::Cast {
        kind: sqlparser::ast::CastKind::Cast,
        expr: Box::new(expr),
        data_type: sqlparser::ast::DataType::Numeric(sqlparser::ast::ExactNumberInfo::None),
        format: None,
    }
}

/// A `numeric` value as what compares and sorts as the number: a computed
/// numeric keeps its display digits as text (`avg(int)`'s
/// `10.5000000000000000`, `extract`'s `9.500000`), which SQLite would compare
/// and sort as text, after every number (`'10.5' < '9.5'`), and which as a
/// float would lose digits past 17 (`20.2899999999999999` is no `20.29`): the
/// engine's order key of it, every digit counted.
pub(super) fn numeric_key(expr: Expr) -> Expr {
    call("litewire_numeric_key", vec![expr])
}

/// A boolean read back from an array's text: `t` (or `true`, or the `1` of
/// an array written before booleans were kept as `t` and `f`) is 1, `f` 0.
pub(super) fn boolean_read(text: Expr) -> Expr {
    let when = |shown: &str, stored: bool| sqlparser::ast::CaseWhen {
        condition: string(shown),
        result: number(if stored { "1" } else { "0" }),
    };
    let operand = Expr::Cast {
        kind: sqlparser::ast::CastKind::Cast,
        expr: Box::new(text),
        data_type: sqlparser::ast::DataType::Text,
        format: None,
    };
    Expr::Nested(Box::new(Expr::Case {
        case_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        end_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        operand: Some(Box::new(operand)),
        conditions: vec![
            when("t", true),
            when("f", false),
            when("1", true),
            when("0", false),
            when("true", true),
            when("false", false),
        ],
        else_result: None,
    }))
}

/// `(CASE WHEN condition THEN result ... ELSE otherwise END)`.
pub(super) fn case_when(whens: Vec<(Expr, Expr)>, otherwise: Expr) -> Expr {
    Expr::Nested(Box::new(Expr::Case {
        case_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        end_token: sqlparser::ast::helpers::attached_token::AttachedToken::empty(),
        operand: None,
        conditions: whens
            .into_iter()
            .map(|(condition, result)| sqlparser::ast::CaseWhen { condition, result })
            .collect(),
        else_result: Some(Box::new(otherwise)),
    }))
}

/// `expr` in parentheses, unless it is one node that needs none.
pub(super) fn nested(expr: Expr) -> Expr {
    match expr {
        Expr::Nested(_)
        | Expr::Identifier(_)
        | Expr::CompoundIdentifier(_)
        | Expr::Value(_)
        | Expr::Function(_) => expr,
        other => Expr::Nested(Box::new(other)),
    }
}

/// The query `text` is (a frame the translation fills in).
pub(super) fn parsed_query(text: &str) -> Option<Box<Query>> {
    let parsed =
        sqlparser::parser::Parser::parse_sql(&sqlparser::dialect::PostgreSqlDialect {}, text);
    match parsed.ok()?.pop()? {
        Statement::Query(query) => Some(query),
        _ => None,
    }
}

/// The expression `text` is (a frame the translation fills in).
pub(super) fn parsed_expr(text: &str) -> Option<Expr> {
    sqlparser::parser::Parser::new(&sqlparser::dialect::PostgreSqlDialect {})
        .try_with_sql(text)
        .and_then(|mut parser| parser.parse_expr())
        .ok()
}

/// The select `text` is.
pub(super) fn parsed_select(text: &str) -> Option<Box<Select>> {
    match *parsed_query(text)?.body {
        SetExpr::Select(select) => Some(select),
        _ => None,
    }
}

/// A FROM item written as text (`json_each(NULL) AS e`, `(rows) AS g`).
pub(super) fn from_item(text: &str) -> Option<TableFactor> {
    let select = parsed_select(&format!("SELECT * FROM {text}"))?;
    select.from.into_iter().next().map(|from| from.relation)
}

/// `SELECT * FROM (query) AS alias`; the query back where it cannot be
/// (never, but for a parser that would not read the frame).
pub(super) fn select_from(query: Box<Query>, alias: &str) -> Result<Box<Select>, Box<Query>> {
    let Some(mut select) = parsed_select(&format!("SELECT * FROM (SELECT 1) AS {}", ident(alias)))
    else {
        return Err(query);
    };
    match select.from.first_mut().map(|from| &mut from.relation) {
        Some(TableFactor::Derived { subquery, .. }) => {
            *subquery = query;
            Ok(select)
        }
        _ => Err(query),
    }
}

/// `(subquery) AS name`, a FROM item.
pub(super) fn derived(subquery: Box<Query>, name: &str) -> TableFactor {
    TableFactor::Derived {
        lateral: false,
        subquery,
        alias: Some(sqlparser::ast::TableAlias {
            explicit: true,
            name: ident(name),
            columns: Vec::new(),
            at: None,
        }),
        sample: None,
    }
}

/// A query of `body` alone.
pub(super) fn query_of(body: SetExpr) -> Option<Box<Query>> {
    let mut query = parsed_query("SELECT 1")?;
    *query.body = body;
    Some(query)
}

/// A quoted identifier.
pub(super) fn ident(name: &str) -> Ident {
    Ident::with_quote('"', name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_print_as_sqlite_reads_them() {
        let sum = binary(number("1"), BinaryOperator::Plus, string("it's"));
        assert_eq!(
            call("litewire_f", vec![sum, null(), boolean(true)]).to_string(),
            "litewire_f((1 + 'it''s'), NULL, 1)"
        );
        assert_eq!(not(nested(number("1"))).to_string(), "(NOT 1)");
        assert_eq!(ident("a\"b").to_string(), "\"a\"\"b\"");
    }
}
