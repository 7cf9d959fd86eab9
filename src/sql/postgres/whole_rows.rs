//! A relation's row read whole: `t` where a value goes (`SELECT t FROM t`,
//! `row_to_json(t)`, `f(t.*)`) is the row of the relation of FROM it names,
//! typed `record` (see `json::record_json` for how JSON functions read it).

use sqlparser::ast::Expr;

use super::build::{call, ident, string};
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
}
