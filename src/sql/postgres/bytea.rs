//! `bytea` where a function or an operator also takes text: `substring`,
//! `substr`, `btrim`/`ltrim`/`rtrim` and `TRIM`, `LIKE`, `string_agg`.
//! PostgreSQL picks the `bytea` form by the first argument's type; SQLite's
//! functions would count a blob's characters, so the engine's
//! `litewire_bytea_*` answer. The other side is made `bytea` too (an
//! untyped literal is read as one; text is 42883, as in PostgreSQL).

use super::build::{call, string};
use super::casts::CastContext;
use super::errors::{Result, undefined_function};
use super::translator::{Translator, Typed};
use super::types::PgType;

/// The ends `TRIM` cuts.
#[derive(Clone, Copy)]
pub(super) enum Ends {
    Both,
    Leading,
    Trailing,
}

impl Translator<'_> {
    /// `name(args)` in its `bytea` form, when the first argument is one.
    pub(super) fn bytea_function(&mut self, name: &str, args: &[Typed]) -> Result<Option<Typed>> {
        let Some(first) = args.first().filter(|a| a.ty == PgType::Bytea) else {
            return Ok(None);
        };
        let typed = match (name, args.len()) {
            ("substr" | "substring", 2 | 3) => {
                let mut call_args = vec![first.expr.clone()];
                for arg in &args[1..] {
                    call_args.push(self.int_argument(arg.clone(), name)?.expr);
                }
                Typed::new(call("litewire_bytea_substr", call_args), PgType::Bytea)
            }
            ("btrim" | "ltrim" | "rtrim", 2) => {
                let ends = match name {
                    "ltrim" => Ends::Leading,
                    "rtrim" => Ends::Trailing,
                    _ => Ends::Both,
                };
                self.bytea_trim(first.clone(), args[1].clone(), ends, name)?
            }
            _ => return Ok(None),
        };
        Ok(Some(typed.named(name, 2)))
    }

    /// `TRIM([ends] set FROM value)` of bytes.
    pub(super) fn bytea_trim(
        &mut self,
        value: Typed,
        set: Typed,
        ends: Ends,
        name: &str,
    ) -> Result<Typed> {
        let set = self.bytea_operand(set, name, &value)?;
        let ends = match ends {
            Ends::Both => "both",
            Ends::Leading => "leading",
            Ends::Trailing => "trailing",
        };
        Ok(Typed::new(
            call(
                "litewire_bytea_trim",
                vec![value.expr, set.expr, string(ends)],
            ),
            PgType::Bytea,
        ))
    }

    /// A value that goes with a `bytea`: one itself, or an untyped literal
    /// read as one.
    pub(super) fn bytea_operand(
        &mut self,
        value: Typed,
        name: &str,
        beside: &Typed,
    ) -> Result<Typed> {
        match &value.ty {
            PgType::Bytea => Ok(value),
            _ if value.untyped.is_some() => self.cast(value, &PgType::Bytea, CastContext::Implicit),
            ty if ty.is_opaque() => Ok(value),
            ty => Err(undefined_function(name, &[beside.ty.clone(), ty.clone()])),
        }
    }

    /// `string_agg(bytea, delimiter)`'s delimiter, made `bytea`.
    pub(super) fn bytea_delimiter(&mut self, args: &mut [Typed]) -> Result<()> {
        if let [value, delimiter] = args {
            let made = self.bytea_operand(delimiter.clone(), "string_agg", value)?;
            *delimiter = made;
        }
        Ok(())
    }
}
