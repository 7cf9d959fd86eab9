//! A relation's row read whole: `t` where a value goes (`SELECT t FROM t`,
//! `row_to_json(t)`, `f(t.*)`) is the row of the relation of FROM it names,
//! typed `record` (see `json::record_json` for how JSON functions read it).

use sqlparser::ast::{BinaryOperator, Expr, FunctionArg, FunctionArgExpr, FunctionArguments};

use super::build::{call, ident, string};
use super::casts::CastContext;
use super::errors::Result;
use super::scope::Scope;
use super::translator::{Translator, Typed};
use super::types::PgType;

impl Translator<'_> {
    /// The row of the relation of FROM `name` names (`t` in `SELECT t FROM
    /// t`, `row_to_json(t)`, `t.*` as an argument), typed `record`: its
    /// columns read, handed to `litewire_record` with their kinds (see
    /// `json::record_json` for what reads them back).
    pub(super) fn whole_row(&mut self, name: &str, scope: &Scope) -> Result<Option<Typed>> {
        let Some((relation, columns)) = scope.row(name) else {
            return Ok(None);
        };
        let mut fields = Vec::new();
        let mut values = Vec::new();
        for column in &columns {
            let parts = [ident(&relation), ident(&column.name)];
            let read = self.compound(&Expr::CompoundIdentifier(parts.to_vec()), &parts, scope)?;
            fields.push((column.name.clone(), read.ty));
            values.push(read.expr);
        }
        let kinds: Vec<String> = fields
            .iter()
            .map(|(_, ty)| super::json::json_kind(ty))
            .collect();
        let mut args = vec![string(&kinds.join(","))];
        args.extend(values);
        let row = Typed::new(call("litewire_record", args), PgType::Record(fields));
        Ok(Some(row.named(relation, 2)))
    }

    /// `ROW(a, b, ...)`: a row of the values, its columns `f1`, `f2`, ...
    /// (an untyped literal is text), typed `record` as a relation's row is.
    pub(super) fn row_value(&mut self, values: &[Typed]) -> Result<Typed> {
        let mut fields = Vec::new();
        let mut args = vec![string("")];
        for (i, value) in values.iter().enumerate() {
            let value = match value.untyped {
                Some(_) => self.cast(value.clone(), &PgType::Text, CastContext::Implicit)?,
                None => value.clone(),
            };
            fields.push((format!("f{}", i + 1), value.ty));
            args.push(value.expr);
        }
        let kinds: Vec<String> = fields
            .iter()
            .map(|(_, ty)| super::json::json_kind(ty))
            .collect();
        args[0] = string(&kinds.join(","));
        let row = Typed::new(call("litewire_record", args), PgType::Record(fields));
        Ok(row.named("row".to_owned(), 2))
    }
}

/// A comparison of `ROW(...)` values, with each written as the row value
/// SQLite compares column by column (`(a, b) < (1, 2)`), as PostgreSQL
/// compares rows; `None` for any other expression.
pub(super) fn compared_rows(expr: &Expr) -> Option<Expr> {
    let Expr::BinaryOp { left, op, right } = expr else {
        return None;
    };
    use BinaryOperator as B;
    if !matches!(op, B::Eq | B::NotEq | B::Lt | B::LtEq | B::Gt | B::GtEq) {
        return None;
    }
    let tuple = |side: &Expr| -> Option<Expr> {
        let Expr::Function(function) = side else {
            return None;
        };
        let FunctionArguments::List(list) = &function.args else {
            return None;
        };
        if !function.name.to_string().eq_ignore_ascii_case("row") {
            return None;
        }
        let items = list
            .args
            .iter()
            .map(|arg| match arg {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(item)) => Some(item.clone()),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Expr::Tuple(items))
    };
    let (l, r) = (tuple(left), tuple(right));
    if l.is_none() && r.is_none() {
        return None;
    }
    Some(Expr::BinaryOp {
        left: Box::new(l.unwrap_or_else(|| (**left).clone())),
        op: op.clone(),
        right: Box::new(r.unwrap_or_else(|| (**right).clone())),
    })
}
