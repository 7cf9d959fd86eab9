//! `SUBSTRING` in its forms, told apart by its arguments' types as
//! PostgreSQL tells them apart: `substring(s FROM n FOR k)` (characters or
//! bytes by position), `substring(s FROM pattern)` (what a POSIX regular
//! expression matches: its first parenthesized part, else all of it) and
//! `substring(s SIMILAR pattern ESCAPE e)`, also spelled `substring(s FROM
//! pattern FOR e)` (what a `SIMILAR TO` pattern marks with the escaped `"`).
//! A string `FROM` is a pattern, and so is an untyped one unless `FOR` is an
//! integer.

use sqlparser::ast::Expr;

use super::build::{call, number};
use super::errors::{Fail, Result, undefined_function};
use super::scope::Scope;
use super::translator::{Translator, Typed, Untyped};
use super::types::PgType;

impl Translator<'_> {
    pub(super) fn substring(
        &mut self,
        value: &Expr,
        from: &Option<Box<Expr>>,
        length: &Option<Box<Expr>>,
        shorthand: bool,
        scope: &Scope,
    ) -> Result<Typed> {
        let name = if shorthand { "substr" } else { "substring" };
        let value = self.expr(value, scope)?;
        if value.ty == PgType::Bytea {
            let mut args = vec![value];
            args.push(match from {
                Some(from) => self.expr(from, scope)?,
                None => Typed::new(number("1"), PgType::Int4),
            });
            if let Some(length) = length {
                args.push(self.expr(length, scope)?);
            }
            let bytes = self
                .bytea_function("substring", &args)?
                .ok_or(Fail::Unsupported("substring of bytes"))?;
            return Ok(bytes.named(name, 2));
        }
        let value = self.text_argument(value, "substring")?;
        let mut from = match from {
            Some(from) => Some(self.expr(from, scope)?),
            None => None,
        };
        let length = match length {
            Some(length) => Some(self.expr(length, scope)?),
            None => None,
        };
        let counts = length.as_ref().is_some_and(|l| l.ty.is_integer());
        if let Some(pattern) = from.take_if(|f| f.ty.is_string() || (untyped(f) && !counts)) {
            let pattern = self.text_argument(pattern, "substring")?;
            let Some(escape) = length else {
                let args = vec![value.expr, pattern.expr];
                let expr = call("litewire_substring_regex", args);
                return Ok(Typed::new(expr, PgType::Text).named(name, 2));
            };
            if !escape.ty.is_string() && !untyped(&escape) && !escape.ty.is_opaque() {
                let types = [PgType::Text, PgType::Text, escape.ty];
                return Err(undefined_function("substring", &types));
            }
            let escape = self.text_argument(escape, "substring")?;
            let args = vec![value.expr, pattern.expr, escape.expr];
            let expr = call("litewire_substring_similar", args);
            return Ok(Typed::new(expr, PgType::Text).named(name, 2));
        }
        let start = match from {
            Some(from) => self.int_argument(from, "substring")?.expr,
            None => number("1"),
        };
        let mut args = vec![value.expr, start];
        if let Some(length) = length {
            args.push(self.int_argument(length, "substring")?.expr);
        }
        Ok(Typed::new(call("litewire_substr", args), PgType::Text).named(name, 2))
    }
}

/// Whether `value` is a literal or `NULL` of no type yet.
fn untyped(value: &Typed) -> bool {
    matches!(value.untyped, Some(Untyped::Literal(_) | Untyped::Null))
}
