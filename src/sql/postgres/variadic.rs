//! `f(a, VARIADIC array)`: the array as the variadic parameter's values
//! (read as the argument named `sql::variadic_args::MARKER`). PostgreSQL's
//! `concat` and `concat_ws` then join the array's elements (NULLs skipped, a
//! NULL array NULL), which is `array_to_string`; `format` takes its elements
//! as its arguments, by the engine's `litewire_format_variadic`. A function
//! litewire types that has no variadic parameter does not exist for an
//! array (42883), as in PostgreSQL; any other is not supported.

use sqlparser::ast::{Expr, FunctionArg, FunctionArgExpr, FunctionArgumentList};

use super::build::{call, string};
use super::errors::{Fail, Result, datatype_mismatch, syntax, undefined_function};
use super::scope::Scope;
use super::translator::{Translator, Typed};
use super::types::PgType;
use crate::error::Error;
use crate::sql::variadic_args::MARKER;

/// The expression after `VARIADIC`, if `arg` is one.
fn variadic_argument(arg: &FunctionArg) -> Option<&Expr> {
    match arg {
        FunctionArg::Named {
            name,
            arg: FunctionArgExpr::Expr(e),
            ..
        } if name.value == MARKER => Some(e),
        FunctionArg::ExprNamed {
            name: Expr::Identifier(name),
            arg: FunctionArgExpr::Expr(e),
            ..
        } if name.value == MARKER => Some(e),
        _ => None,
    }
}

impl Translator<'_> {
    /// A call with a `VARIADIC` argument; `None` for one without.
    pub(super) fn variadic_call(
        &mut self,
        list: &FunctionArgumentList,
        name: &str,
        known: bool,
        scope: &Scope,
    ) -> Result<Option<Typed>> {
        let Some((last, fixed)) = list.args.split_last() else {
            return Ok(None);
        };
        let Some(array) = variadic_argument(last) else {
            if list.args.iter().any(|a| variadic_argument(a).is_some()) {
                return Err(syntax("syntax error at or near \",\"".into()));
            }
            return Ok(None);
        };
        let mut args = Vec::with_capacity(list.args.len());
        for arg in fixed {
            match arg {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => args.push(self.expr(e, scope)?),
                _ => return Err(unsupported(name)),
            }
        }
        let mut array = self.expr(array, scope)?;
        // Its elements as text: a boolean as `t` or `f`.
        if array.ty == PgType::bool_array() {
            array.expr = call("litewire_bool_array_text", vec![array.expr]);
        }
        if array.untyped.is_some() || !matches!(array.ty, PgType::Array(_) | PgType::Opaque) {
            return Err(datatype_mismatch(
                "VARIADIC argument must be an array".into(),
            ));
        }
        let joined = |separator: Expr| call("array_to_string", vec![array.expr.clone(), separator]);
        let expr = match (name, args.as_mut_slice()) {
            ("concat", []) => joined(string("")),
            ("concat_ws", [separator]) => {
                let separator = self.text_argument(separator.clone(), name)?;
                joined(separator.expr)
            }
            ("format", [template]) => {
                let template = self.text_argument(template.clone(), name)?;
                call(
                    "litewire_format_variadic",
                    vec![template.expr, array.expr.clone()],
                )
            }
            _ if known => {
                let types: Vec<PgType> =
                    args.iter().chain([&array]).map(|a| a.ty.clone()).collect();
                return Err(undefined_function(name, &types));
            }
            _ => return Err(unsupported(name)),
        };
        Ok(Some(
            Typed::new(expr, PgType::Text).named(name.to_owned(), 2),
        ))
    }
}

fn unsupported(name: &str) -> Fail {
    Fail::Pg(Error::not_supported(&format!(
        "VARIADIC in a call of {name}"
    )))
}
