//! Ordered-set aggregates: `percentile_cont(f) WITHIN GROUP (ORDER BY x)`,
//! `percentile_disc` and `mode`, called as the engine's aggregates with the
//! sorted value as an argument and SQLite's aggregate `ORDER BY`
//! (`litewire_percentile_cont(f, x ORDER BY x)`), typed as PostgreSQL types
//! them: `percentile_cont` a float8, the others the sorted value's type.

use sqlparser::ast::{
    Function, FunctionArg, FunctionArgExpr, FunctionArgumentClause, FunctionArgumentList,
    FunctionArguments, Ident, ObjectName,
};

use super::errors::{Result, syntax, undefined_function};
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
        let mut types: Vec<PgType> = args.iter().map(|a| a.ty.clone()).collect();
        let [item] = function.within_group.as_slice() else {
            return Err(undefined_function(name, &types));
        };
        let sorted = self.expr(&item.expr, scope)?;
        types.push(sorted.ty.clone());
        let order = self.order_items(std::slice::from_ref(item), scope, None)?;
        let mut call_args = Vec::with_capacity(2);
        let ty = match (name, args.as_slice()) {
            ("percentile_cont" | "percentile_disc", [fraction]) => {
                let fraction = self
                    .coerce(fraction.clone(), &PgType::Float8)?
                    .ok_or_else(|| undefined_function(name, &types))?;
                call_args.push(fraction.expr);
                if name == "percentile_cont" {
                    let value = self
                        .coerce(sorted, &PgType::Float8)?
                        .ok_or_else(|| undefined_function(name, &types))?;
                    call_args.push(value.expr);
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
            _ => return Err(undefined_function(name, &types)),
        };
        let mut translated = function.clone();
        translated.name = ObjectName::from(vec![Ident::new(format!("litewire_{name}"))]);
        translated.within_group = Vec::new();
        translated.args = FunctionArguments::List(FunctionArgumentList {
            duplicate_treatment: None,
            args: call_args
                .into_iter()
                .map(|e| FunctionArg::Unnamed(FunctionArgExpr::Expr(e)))
                .collect(),
            clauses: vec![FunctionArgumentClause::OrderBy(order)],
        });
        if let Some(filter) = &function.filter {
            translated.filter = Some(Box::new(self.condition(filter, scope, "FILTER")?));
        }
        Ok(Typed::new(sqlparser::ast::Expr::Function(translated), ty).named(name.to_owned(), 2))
    }
}
