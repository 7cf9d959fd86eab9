//! `ORDER BY` as PostgreSQL reads it: a number is a position in the select
//! list (42P10 past its end), a bare name an output column's before an input
//! column's, anything else an expression over FROM; NULLs come last in
//! ascending order and first in descending, as in PostgreSQL (SQLite puts
//! them first), unless the key cannot be NULL (a `NOT NULL` column keeps the
//! sort an index gives for free).

use sqlparser::ast::{Expr, OrderBy, OrderByExpr, OrderByKind, Value};

use super::build::{call, ident, numeric_key};
use super::columns::QueryColumn;
use super::errors::{Result, position_out_of_range};
use super::scope::{Item, Scope};
use super::translator::Translator;
use super::types::PgType;

impl Translator<'_> {
    /// `ORDER BY` of a `SELECT`: positions and output names first, then
    /// expressions over its FROM.
    pub(super) fn select_order(
        &mut self,
        order_by: &OrderBy,
        scope: &Scope,
        columns: Option<&[QueryColumn]>,
    ) -> Result<OrderBy> {
        let OrderByKind::Expressions(items) = &order_by.kind else {
            return Ok(order_by.clone());
        };
        let items = self.order_items(items, scope, columns)?;
        Ok(OrderBy {
            kind: OrderByKind::Expressions(items),
            interpolate: order_by.interpolate.clone(),
        })
    }

    /// `ORDER BY` of a set operation or `VALUES`: output columns only.
    pub(super) fn output_order(
        &mut self,
        order_by: &OrderBy,
        columns: Option<&[QueryColumn]>,
        outer: Option<&Scope>,
    ) -> Result<OrderBy> {
        let mut scope = match outer {
            Some(outer) => Scope::child(outer),
            None => Scope::default(),
        };
        match columns {
            Some(columns) => scope.items.push(Item {
                name: String::new(),
                columns: columns.iter().map(QueryColumn::scope_column).collect(),
                open: false,
            }),
            None => scope.items.push(Item {
                name: String::new(),
                columns: Vec::new(),
                open: true,
            }),
        }
        let mut ordered = self.select_order(order_by, &scope, columns)?;
        // SQLite orders a set operation only by its output columns as they
        // are: an interval or address column keeps its text's order there.
        if let OrderByKind::Expressions(items) = &mut ordered.kind {
            for item in items {
                if let Expr::Function(function) = &item.expr
                    && matches!(
                        function.name.to_string().as_str(),
                        "litewire_interval_key" | "litewire_inet_key"
                    )
                    && let sqlparser::ast::FunctionArguments::List(list) = &function.args
                    && let [
                        sqlparser::ast::FunctionArg::Unnamed(
                            sqlparser::ast::FunctionArgExpr::Expr(column),
                        ),
                    ] = list.args.as_slice()
                {
                    item.expr = column.clone();
                }
            }
        }
        Ok(ordered)
    }

    /// Sort keys, with NULLs placed as PostgreSQL places them.
    pub(super) fn order_items(
        &mut self,
        items: &[OrderByExpr],
        scope: &Scope,
        columns: Option<&[QueryColumn]>,
    ) -> Result<Vec<OrderByExpr>> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            let mut translated = item.clone();
            let not_null = if let Some(position) = position(&item.expr) {
                check_position("ORDER BY", position, columns)?;
                if let Some(key) = columns.and_then(|c| output_key(c, position as usize - 1, scope))
                {
                    translated.expr = key;
                }
                columns
                    .and_then(|c| c.get(position as usize - 1))
                    .is_some_and(|c| c.not_null)
            } else if let (Expr::Identifier(name), Some(columns)) = (&item.expr, columns)
                && let Some((index, column)) = output_named(columns, &name.value)?
            {
                if let Some(key) = output_key(columns, index, scope) {
                    translated.expr = key;
                } else if let Some(key) = sort_key(&column.ty)
                    && column.column
                    && let Ok(typed) = self.expr(&item.expr, scope)
                    && typed.ty == column.ty
                {
                    translated.expr = call(key, vec![typed.expr]);
                } else if scope.items.iter().any(|item| item.computed()) {
                    // By its position: beside a `json_each` (a set-returning
                    // function's rows), whose own columns are `id`, `key`,
                    // `value`..., SQLite would take the name for one of them
                    // where the output column has no `AS` (`SELECT t.id ...
                    // ORDER BY id`).
                    translated.expr = super::build::number((index + 1).to_string());
                }
                column.not_null
            } else {
                let typed = self.expr(&item.expr, scope)?;
                translated.expr = match typed.ty {
                    // An interval sorts by its span, not its text.
                    PgType::Interval => call("litewire_interval_key", vec![typed.expr]),
                    // An address by PostgreSQL's order, not its text's.
                    PgType::Inet | PgType::Cidr => call("litewire_inet_key", vec![typed.expr]),
                    PgType::Numeric if typed.computed_numeric() => numeric_key(typed.expr),
                    _ => typed.expr,
                };
                match &item.expr {
                    Expr::Identifier(name) => scope.column(&name.value).is_ok_and(|r| r.not_null),
                    Expr::CompoundIdentifier(parts) if parts.len() == 2 => scope
                        .qualified(&parts[0].value, &parts[1].value)
                        .is_ok_and(|r| r.not_null),
                    _ => false,
                }
            };
            if translated.options.nulls_first.is_none() && !not_null {
                let descending = matches!(
                    translated.options.sort,
                    Some(sqlparser::ast::OrderBySort::Desc)
                );
                translated.options.nulls_first = Some(descending);
            }
            out.push(translated);
        }
        Ok(out)
    }
}

/// An output column that sorts otherwise than SQLite would sort it (a
/// computed `numeric`, text to SQLite; an interval or an address, by its
/// key), as a sort key by its name, which SQLite resolves to the output
/// column where no input column has it, and to the input column where the
/// output column reads that one as it is.
fn output_key(columns: &[QueryColumn], index: usize, scope: &Scope) -> Option<Expr> {
    let column = columns.get(index)?;
    let same = |c: &&QueryColumn| c.name.eq_ignore_ascii_case(&column.name);
    if columns.iter().filter(same).count() != 1 || column.untyped.is_some() {
        return None;
    }
    let name = Expr::Identifier(ident(&column.name));
    let input = scope.column(&column.name).is_ok();
    match sort_key(&column.ty) {
        Some(key) if !input || column.column => Some(call(key, vec![name])),
        None if column.ty == PgType::Numeric && !column.column && !input => Some(numeric_key(name)),
        _ => None,
    }
}

/// The function whose value a column of `ty` sorts by, where its text
/// would sort otherwise.
fn sort_key(ty: &PgType) -> Option<&'static str> {
    match ty {
        PgType::Interval => Some("litewire_interval_key"),
        PgType::Inet | PgType::Cidr => Some("litewire_inet_key"),
        _ => None,
    }
}

/// The output column an `ORDER BY` name refers to, if one is so named.
fn output_named<'c>(
    columns: &'c [QueryColumn],
    name: &str,
) -> Result<Option<(usize, &'c QueryColumn)>> {
    let mut found = (columns.iter().enumerate()).filter(|(_, c)| c.name.eq_ignore_ascii_case(name));
    let first = found.next();
    if first.is_some() && found.next().is_some() {
        return Err(super::errors::ambiguous_order(name));
    }
    Ok(first)
}

/// `GROUP BY 2`, `ORDER BY 1`: a position in the select list.
pub(super) fn position(expr: &Expr) -> Option<i64> {
    match expr {
        Expr::Value(v) => match &v.value {
            Value::Number(n, _) => n.parse().ok(),
            _ => None,
        },
        _ => None,
    }
}

pub(super) fn check_position(
    clause: &str,
    position: i64,
    columns: Option<&[QueryColumn]>,
) -> Result<()> {
    match columns {
        Some(columns) if position < 1 || position as usize > columns.len() => {
            Err(position_out_of_range(clause, position))
        }
        _ => Ok(()),
    }
}
