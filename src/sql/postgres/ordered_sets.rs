//! Ordered-set aggregates: `percentile_cont(f) WITHIN GROUP (ORDER BY x)`,
//! `percentile_disc` (of a fraction or an array of them) and `mode`, called as
//! the engine's aggregates with the sorted value as an argument and SQLite's
//! aggregate `ORDER BY` (`litewire_percentile_cont(f, x ORDER BY x)`), typed
//! as PostgreSQL types them: `percentile_cont` a float8, the others the sorted
//! value's type (arrays of them for an array of fractions).
//!
//! The hypothetical-set aggregates (`rank(a, b) WITHIN GROUP (ORDER BY x, y
//! DESC)`, `dense_rank`, `percent_rank`, `cume_dist`) take one direct argument
//! per sort key, each made the key's type as PostgreSQL's `select_common_type`
//! makes it; the engine's aggregate gets, for each row, where it sorts against
//! the hypothetical row, written here as a comparison with the keys'
//! directions and NULL places.

use sqlparser::ast::{
    Function, FunctionArg, FunctionArgExpr, FunctionArgumentClause, FunctionArgumentList,
    FunctionArguments, Ident, ObjectName,
};

use sqlparser::ast::{BinaryOperator, Expr, OrderByExpr, OrderBySort};

use super::aggregates::is_aggregate;
use super::build::{binary, call, case_when, nested, number};
use super::errors::{Result, not_implemented, syntax, undefined_function, wrong_object_type};
use super::scope::Scope;
use super::translator::{Translator, Typed};
use super::types::PgType;

impl Translator<'_> {
    /// `name(args) WITHIN GROUP (ORDER BY ...)`, its direct arguments
    /// translated.
    pub(super) fn ordered_set(
        &mut self,
        function: &Function,
        name: &str,
        args: Vec<Typed>,
        scope: &Scope,
    ) -> Result<Typed> {
        if function.over.is_some() {
            return Err(not_implemented(&format!(
                "OVER is not supported for ordered-set aggregate {name}"
            )));
        }
        if let FunctionArguments::List(list) = &function.args
            && list
                .clauses
                .iter()
                .any(|clause| matches!(clause, FunctionArgumentClause::OrderBy(_)))
        {
            return Err(syntax(
                "cannot use multiple ORDER BY clauses with WITHIN GROUP".into(),
            ));
        }
        if matches!(name, "rank" | "dense_rank" | "percent_rank" | "cume_dist") {
            return self.hypothetical(function, name, args, scope);
        }
        let mut types: Vec<PgType> = args.iter().map(|a| a.ty.clone()).collect();
        let [item] = function.within_group.as_slice() else {
            return Err(undefined_function(name, &types));
        };
        let sorted = self.expr(&item.expr, scope)?;
        types.push(sorted.ty.clone());
        let order = self.order_items(std::slice::from_ref(item), scope, None)?;
        let mut call_args = Vec::with_capacity(2);
        let mut engine = format!("litewire_{name}");
        let ty = match (name, args.as_slice()) {
            // An array of fractions: an array of answers.
            ("percentile_cont" | "percentile_disc", [fractions])
                if matches!(&fractions.ty, PgType::Array(element)
                    if element.is_numeric() || element.is_opaque()) =>
            {
                engine = name.replacen("percentile", "litewire_percentiles", 1);
                call_args.push(fractions.expr.clone());
                let element = match name {
                    "percentile_cont" => {
                        call_args.push(self.interpolated(sorted, name, &types)?);
                        PgType::Float8
                    }
                    _ => {
                        let ty = sorted.ty.clone();
                        call_args.push(sorted.expr);
                        ty
                    }
                };
                PgType::Array(Box::new(element))
            }
            ("percentile_cont" | "percentile_disc", [fraction]) => {
                let fraction = self
                    .coerce(fraction.clone(), &PgType::Float8)?
                    .ok_or_else(|| undefined_function(name, &types))?;
                call_args.push(fraction.expr);
                if name == "percentile_cont" {
                    call_args.push(self.interpolated(sorted, name, &types)?);
                    PgType::Float8
                } else {
                    let ty = sorted.ty.clone();
                    call_args.push(sorted.expr);
                    ty
                }
            }
            ("mode", []) => {
                let ty = sorted.ty.clone();
                call_args.push(sorted.expr);
                ty
            }
            // A plain aggregate that takes the arguments and sort keys.
            _ if is_aggregate(name) && plain_arity(name) == types.len() => {
                return Err(wrong_object_type(format!(
                    "{name} is not an ordered-set aggregate, so it cannot have WITHIN GROUP"
                )));
            }
            _ => return Err(undefined_function(name, &types)),
        };
        self.aggregate_call(function, &engine, call_args, order, scope)
            .map(|expr| Typed::new(expr, ty).named(name.to_owned(), 2))
    }

    /// The value `percentile_cont` interpolates: a float8 (a `real` one
    /// widened as PostgreSQL widens it).
    fn interpolated(&mut self, sorted: Typed, name: &str, types: &[PgType]) -> Result<Expr> {
        if sorted.ty == PgType::Float4 {
            return Ok(call("litewire_float4_value", vec![sorted.expr]));
        }
        let value = self
            .coerce(sorted, &PgType::Float8)?
            .ok_or_else(|| undefined_function(name, types))?;
        Ok(value.expr)
    }

    /// `rank(args) WITHIN GROUP (ORDER BY keys)` and its kin: as the engine's
    /// aggregate of where each row sorts against the hypothetical row.
    fn hypothetical(
        &mut self,
        function: &Function,
        name: &str,
        args: Vec<Typed>,
        scope: &Scope,
    ) -> Result<Typed> {
        let items = &function.within_group;
        let mut sorted = Vec::with_capacity(items.len());
        for item in items {
            sorted.push(self.expr(&item.expr, scope)?);
        }
        if args.len() != items.len() {
            let types: Vec<PgType> = args.iter().chain(&sorted).map(|a| a.ty.clone()).collect();
            return Err(undefined_function(name, &types));
        }
        let mut places = Vec::with_capacity(items.len());
        let mut keys = Vec::with_capacity(items.len());
        for ((key, arg), item) in sorted.into_iter().zip(args).zip(items) {
            let unified = self.unify(vec![key, arg], "WITHIN GROUP")?;
            let [key, arg] =
                <[Typed; 2]>::try_from(unified).map_err(|_| undefined_function(name, &[]))?;
            keys.push(key.expr.clone());
            places.push(self.place(key, arg, item)?);
        }
        // The first key that tells them apart places the row.
        let place = match places.len() {
            1 => places.remove(0),
            _ => {
                let mut firsts: Vec<Expr> = places
                    .into_iter()
                    .map(|p| call("nullif", vec![p, number("0")]))
                    .collect();
                firsts.push(number("0"));
                call("coalesce", firsts)
            }
        };
        let mut call_args = vec![place];
        if name == "dense_rank" {
            call_args.extend(keys);
        }
        let order = match name {
            "dense_rank" => self.order_items(items, scope, None)?,
            _ => Vec::new(),
        };
        let ty = match name {
            "rank" | "dense_rank" => PgType::Int8,
            _ => PgType::Float8,
        };
        self.aggregate_call(
            function,
            &format!("litewire_{name}"),
            call_args,
            order,
            scope,
        )
        .map(|expr| Typed::new(expr, ty).named(name.to_owned(), 2))
    }

    /// Where a row's sort key `key` places it against the hypothetical
    /// row's `value`: -1 before, 0 a peer, 1 after.
    fn place(&mut self, key: Typed, value: Typed, item: &OrderByExpr) -> Result<Expr> {
        let descending = matches!(item.options.sort, Some(OrderBySort::Desc));
        let nulls_first = item.options.nulls_first.unwrap_or(descending);
        let is_null = |e: &Expr| Expr::IsNull(Box::new(nested(e.clone())));
        let (key_null, value_null) = (is_null(&key.expr), is_null(&value.expr));
        let before = match descending {
            true => BinaryOperator::Gt,
            false => BinaryOperator::Lt,
        };
        let less = self.binary(key.clone(), &before, value.clone())?.expr;
        let equal = self.binary(key, &BinaryOperator::Eq, value)?.expr;
        let (first, last) = (number("-1"), number("1"));
        let (null_key, null_value) = match nulls_first {
            true => (first.clone(), last.clone()),
            false => (last.clone(), first.clone()),
        };
        Ok(case_when(
            vec![
                (
                    binary(key_null.clone(), BinaryOperator::And, value_null.clone()),
                    number("0"),
                ),
                (key_null, null_key),
                (value_null, null_value),
                (less, first),
                (equal, number("0")),
            ],
            last,
        ))
    }

    /// The engine's aggregate `engine(args ORDER BY order)`, with the call's
    /// `FILTER`.
    fn aggregate_call(
        &mut self,
        function: &Function,
        engine: &str,
        args: Vec<Expr>,
        order: Vec<OrderByExpr>,
        scope: &Scope,
    ) -> Result<Expr> {
        let mut translated = function.clone();
        translated.name = ObjectName::from(vec![Ident::new(engine)]);
        translated.within_group = Vec::new();
        translated.args = FunctionArguments::List(FunctionArgumentList {
            duplicate_treatment: None,
            args: args
                .into_iter()
                .map(|e| FunctionArg::Unnamed(FunctionArgExpr::Expr(e)))
                .collect(),
            clauses: match order.is_empty() {
                true => Vec::new(),
                false => vec![FunctionArgumentClause::OrderBy(order)],
            },
        });
        if let Some(filter) = &function.filter {
            translated.filter = Some(Box::new(self.condition(filter, scope, "FILTER")?));
        }
        Ok(Expr::Function(translated))
    }
}

/// How many arguments a plain aggregate takes; none for an ordered-set one.
fn plain_arity(name: &str) -> usize {
    match name {
        "percentile_cont" | "percentile_disc" | "mode" => 0,
        "corr" | "covar_pop" | "covar_samp" | "string_agg" | "json_object_agg"
        | "jsonb_object_agg" => 2,
        _ if name.starts_with("regr_") => 2,
        _ => 1,
    }
}
