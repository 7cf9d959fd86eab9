//! `generate_series` in FROM, typed as PostgreSQL types it: a column of the
//! arguments' number type, named by the alias (`generate_series(1, 3) AS
//! g(n)`, `... g`, or `generate_series`), or, over timestamps with an interval
//! step, the timestamps from `start` to `stop`, by a recursive query that
//! moves each by the step as `timestamp + interval` does. The integer form is
//! left to the statement-level translation, which writes it as a recursive
//! query of its own.

use sqlparser::ast::{FunctionArg, FunctionArgExpr, TableAlias, TableFactor};

use super::build::from_item;
use super::casts::CastContext;
use super::errors::{Fail, Result, undefined_function};
use super::scope::{Item, Scope, ScopeColumn};
use super::translator::{Translator, Typed};
use super::types::PgType;
use crate::sql::quote::identifier;

impl Translator<'_> {
    /// `generate_series(args) [AS] alias`, if `factor` is one.
    pub(super) fn series(
        &mut self,
        factor: &TableFactor,
        scope: &mut Scope,
    ) -> Result<Option<TableFactor>> {
        let Some(("generate_series", alias, args)) = function_call(factor)
            .as_ref()
            .map(|(n, a, r)| (n.as_str(), *a, *r))
        else {
            return Ok(None);
        };
        let mut typed = Vec::with_capacity(args.len());
        for arg in args {
            let FunctionArg::Unnamed(FunctionArgExpr::Expr(expr)) = arg else {
                return Ok(None);
            };
            typed.push(self.expr(expr, scope)?);
        }
        let types: Vec<PgType> = typed.iter().map(|t| t.ty.clone()).collect();
        if types.iter().any(PgType::is_opaque) {
            return Ok(None);
        }
        let item = alias
            .as_ref()
            .map_or_else(|| "generate_series".to_owned(), |a| a.name.value.clone());
        let column = alias
            .as_ref()
            .and_then(|a| a.columns.first())
            .map_or_else(|| item.clone(), |c| c.name.value.clone());
        let moment = |t: &Typed| {
            matches!(t.ty, PgType::Timestamp | PgType::Timestamptz | PgType::Date)
                || t.untyped.is_some()
        };
        let (ty, replaced) = match typed.as_slice() {
            [start, stop, step]
                if step.ty == PgType::Interval || (moment(start) && step.untyped.is_some()) =>
            {
                if start.untyped.is_some() && stop.untyped.is_some() {
                    return Err(super::errors::ambiguous_function("generate_series", &types));
                }
                let ty = match (&start.ty, &stop.ty) {
                    (PgType::Timestamp, PgType::Timestamp) => PgType::Timestamp,
                    (PgType::Timestamp, _) if stop.untyped.is_some() => PgType::Timestamp,
                    (_, PgType::Timestamp) if start.untyped.is_some() => PgType::Timestamp,
                    _ => PgType::Timestamptz,
                };
                let as_type = |me: &mut Self, t: &Typed| {
                    me.coerce(t.clone(), &ty)?
                        .ok_or_else(|| undefined_function("generate_series", &types))
                };
                let start = as_type(self, start)?;
                let stop = as_type(self, stop)?;
                let step = self.cast(step.clone(), &PgType::Interval, CastContext::Implicit)?;
                let rows = timestamp_rows(&start, &stop, &step, &ty, &column)?;
                (ty, Some(rows))
            }
            [_, _] | [_, _, _] => {
                let ty = match () {
                    _ if types.contains(&PgType::Numeric) => PgType::Numeric,
                    _ if types.contains(&PgType::Int8) => PgType::Int8,
                    _ if typed
                        .iter()
                        .all(|t| t.ty.is_integer() || t.untyped.is_some()) =>
                    {
                        PgType::Int4
                    }
                    _ => return Err(undefined_function("generate_series", &types)),
                };
                (ty, None)
            }
            _ => return Err(undefined_function("generate_series", &types)),
        };
        scope.items.push(Item {
            name: item.clone(),
            columns: vec![ScopeColumn::new(column, ty)],
            open: false,
        });
        let Some(rows) = replaced else {
            return Ok(Some(factor.clone()));
        };
        Ok(Some(derived(&rows, &item)?))
    }
}

/// A set-returning function in FROM, without `WITH ORDINALITY`: its name in
/// lower case, its alias and its arguments.
fn function_call(factor: &TableFactor) -> Option<(String, &Option<TableAlias>, &[FunctionArg])> {
    let TableFactor::Table {
        name,
        alias,
        args: Some(args),
        with_ordinality: false,
        ..
    } = factor
    else {
        return None;
    };
    let [part] = name.0.as_slice() else {
        return None;
    };
    let function = part.as_ident()?.value.to_ascii_lowercase();
    Some((function, alias, args.args.as_slice()))
}

/// The timestamps from `start` to `stop` by `step` (downwards for a negative
/// step; a zero one is 22023), as a query of one column named `column`.
fn timestamp_rows(
    start: &Typed,
    stop: &Typed,
    step: &Typed,
    ty: &PgType,
    column: &str,
) -> Result<String> {
    let kind = if *ty == PgType::Timestamptz {
        "timestamptz"
    } else {
        "timestamp"
    };
    let (start, stop, step) = (&start.expr, &stop.expr, &step.expr);
    let next = format!("litewire_timestamp_plus(t, step, 1, '{kind}')");
    Ok(format!(
        "WITH RECURSIVE litewire_series(t, step, stop, up) AS (\
         SELECT {start}, litewire_interval_step({step}), {stop}, \
         litewire_interval_cmp({step}, '00:00:00') > 0 \
         UNION ALL SELECT {next}, step, stop, up FROM litewire_series \
         WHERE CASE WHEN up THEN {next} <= stop ELSE {next} >= stop END) \
         SELECT t AS {column} FROM litewire_series \
         WHERE CASE WHEN up THEN t <= stop ELSE t >= stop END",
        column = identifier(column)
    ))
}

/// `(rows) AS name`, as a FROM item.
fn derived(rows: &str, name: &str) -> Result<TableFactor> {
    from_item(&format!("({rows}) AS {}", identifier(name)))
        .ok_or(Fail::Unsupported("generate_series over timestamps"))
}
