//! JSON's set-returning functions in FROM: `json[b]_array_elements[_text]`,
//! `json[b]_each[_text]` and `json[b]_object_keys`, as queries over SQLite's
//! `json_each` of the value (checked to be an array or an object first, as
//! PostgreSQL checks it), each element written back as jsonb or as text.

use sqlparser::ast::{FunctionArg, FunctionArgExpr, TableFactor};

use super::casts::CastContext;
use super::errors::Result;
use super::scope::{Item, Scope, ScopeColumn};
use super::series::{derived, function_call};
use super::translator::Translator;
use super::types::PgType;
use crate::sql::quote::{identifier, literal};

/// An element of `json_each` as JSON text (objects and arrays as they are,
/// scalars quoted as JSON writes them).
const ELEMENT_JSON: &str = "litewire_jsonb_in(CASE WHEN type IN ('object', 'array') THEN value \
     WHEN type = 'true' THEN 'true' WHEN type = 'false' THEN 'false' \
     WHEN type = 'null' THEN 'null' ELSE json_quote(value) END)";

/// An element as `->>` gives it: strings unquoted, JSON null as NULL.
const ELEMENT_TEXT: &str = "CASE WHEN type IN ('object', 'array') THEN litewire_jsonb_in(value) \
     WHEN type = 'true' THEN 'true' WHEN type = 'false' THEN 'false' \
     WHEN type = 'null' THEN NULL ELSE CAST(value AS TEXT) END";

impl Translator<'_> {
    /// One of JSON's set-returning functions, if `factor` calls one.
    pub(super) fn json_rows(
        &mut self,
        factor: &TableFactor,
        scope: &mut Scope,
    ) -> Result<Option<TableFactor>> {
        let Some((function, alias, args)) = function_call(factor) else {
            return Ok(None);
        };
        let jsonb = function.starts_with("jsonb");
        let kind = function
            .trim_start_matches("jsonb_")
            .trim_start_matches("json_");
        let (expect, columns): (&str, Vec<(&str, &str, PgType)>) = match kind {
            "array_elements" => ("array", vec![("value", ELEMENT_JSON, PgType::Jsonb)]),
            "array_elements_text" => ("array", vec![("value", ELEMENT_TEXT, PgType::Text)]),
            "each" => (
                "object",
                vec![
                    ("key", "key", PgType::Text),
                    ("value", ELEMENT_JSON, PgType::Jsonb),
                ],
            ),
            "each_text" => (
                "object",
                vec![
                    ("key", "key", PgType::Text),
                    ("value", ELEMENT_TEXT, PgType::Text),
                ],
            ),
            "object_keys" => ("object", vec![(function.as_str(), "key", PgType::Text)]),
            _ => return Ok(None),
        };
        let [FunctionArg::Unnamed(FunctionArgExpr::Expr(argument))] = args else {
            return Ok(None);
        };
        let value = self.expr(argument, scope)?;
        let json_type = if jsonb { PgType::Jsonb } else { PgType::Json };
        let value = match value.ty {
            PgType::Json | PgType::Jsonb => value,
            _ => self.cast(value, &json_type, CastContext::Implicit)?,
        };
        let item = alias
            .as_ref()
            .map_or_else(|| function.clone(), |a| a.name.value.clone());
        let mut select = Vec::with_capacity(columns.len());
        let mut scope_columns = Vec::with_capacity(columns.len());
        for (i, (default_name, expr, ty)) in columns.into_iter().enumerate() {
            let named = alias
                .as_ref()
                .and_then(|a| a.columns.get(i))
                .map_or_else(|| default_name.to_owned(), |c| c.name.value.clone());
            // A jsonb column of `json_each` (`each` of a json value) is json.
            let ty = if ty == PgType::Jsonb {
                json_type.clone()
            } else {
                ty
            };
            select.push(format!("{expr} AS {}", identifier(&named)));
            scope_columns.push(ScopeColumn::new(named, ty));
        }
        let rows = format!(
            "SELECT {} FROM json_each(litewire_json_expect({}, {}, {}))",
            select.join(", "),
            value.expr,
            literal(expect),
            literal(&function),
        );
        scope.items.push(Item {
            name: item.clone(),
            columns: scope_columns,
            open: false,
        });
        derived(&rows, &item).map(Some)
    }
}
