//! JSON's set-returning functions in FROM: `json[b]_array_elements[_text]`,
//! `json[b]_each[_text]`, `json[b]_object_keys` and `jsonb_path_query`
//! (over the array of what its path finds), as SQLite's `json_each`
//! of the value (checked to be an array or an object first, as PostgreSQL
//! checks it), each element written back as jsonb or as text. The value may
//! read columns of the items before it (see `set_returning`).

use super::build::{call, string};
use super::casts::CastContext;
use super::errors::Result;
use super::scope::Scope;
use super::set_returning::{EachColumn, RowFunction, over_each};
use super::translator::Translator;
use super::types::PgType;
use sqlparser::ast::TableFactor;

/// An element of `json_each` as JSON text (objects and arrays as they are,
/// scalars quoted as JSON writes them).
const ELEMENT_JSON: &str = "litewire_jsonb_in(CASE WHEN {type} IN ('object', 'array') THEN {value} \
     WHEN {type} = 'true' THEN 'true' WHEN {type} = 'false' THEN 'false' \
     WHEN {type} = 'null' THEN 'null' ELSE json_quote({value}) END)";

/// An element as `->>` gives it: strings unquoted, JSON null as NULL.
const ELEMENT_TEXT: &str = "CASE WHEN {type} IN ('object', 'array') THEN litewire_jsonb_in({value}) \
     WHEN {type} = 'true' THEN 'true' WHEN {type} = 'false' THEN 'false' \
     WHEN {type} = 'null' THEN NULL ELSE CAST({value} AS TEXT) END";

/// A `json` value's element, its written text (`as_text`: as `->>` gives it),
/// found in the value `json_each` reads by its key or index.
const WRITTEN_JSON: &str = "litewire_json_text_get({json}, {key}, 0)";
const WRITTEN_TEXT: &str = "litewire_json_text_get({json}, {key}, 1)";

impl Translator<'_> {
    /// One of JSON's set-returning functions, if `function` is one.
    pub(super) fn json_rows(
        &mut self,
        function: &RowFunction,
        scope: &mut Scope,
    ) -> Result<Option<TableFactor>> {
        let name = function.name.as_str();
        let jsonb = name.starts_with("jsonb");
        let kind = name
            .trim_start_matches("jsonb_")
            .trim_start_matches("json_");
        let (element_json, element_text) = match jsonb {
            true => (ELEMENT_JSON, ELEMENT_TEXT),
            false => (WRITTEN_JSON, WRITTEN_TEXT),
        };
        if jsonb && matches!(kind, "path_query" | "path_query_tz") {
            return self.path_rows(function, scope).map(Some);
        }
        let (expect, columns): (&str, Vec<(&str, &str, PgType)>) = match kind {
            "array_elements" => ("array", vec![("value", element_json, PgType::Jsonb)]),
            "array_elements_text" => ("array", vec![("value", element_text, PgType::Text)]),
            "each" => (
                "object",
                vec![
                    ("key", "{key}", PgType::Text),
                    ("value", element_json, PgType::Jsonb),
                ],
            ),
            "each_text" => (
                "object",
                vec![
                    ("key", "{key}", PgType::Text),
                    ("value", element_text, PgType::Text),
                ],
            ),
            "object_keys" => ("object", vec![(name, "{key}", PgType::Text)]),
            _ => return Ok(None),
        };
        let [argument] = function.args.as_slice() else {
            return Ok(None);
        };
        let value = self.argument(argument, scope)?;
        let json_type = if jsonb { PgType::Jsonb } else { PgType::Json };
        let value = match value.ty {
            PgType::Json | PgType::Jsonb => value,
            _ => self.cast(value, &json_type, CastContext::Implicit)?,
        };
        let item = function.item_name();
        let mut each = Vec::with_capacity(columns.len());
        for (i, (default_name, template, ty)) in columns.into_iter().enumerate() {
            // A jsonb column of `json_each` (`each` of a json value) is json.
            let ty = if ty == PgType::Jsonb {
                json_type.clone()
            } else {
                ty
            };
            each.push(EachColumn {
                name: function.column_name(i, default_name),
                computed: over_each(&item, template)?,
                ty,
            });
        }
        let source = call(
            "litewire_json_expect",
            vec![value.expr, string(expect), string(name)],
        );
        // An array's rows are numbered by their index, an object's by their
        // place among its keys (`json_each` gives them in order, `id` rising).
        let each = match expect {
            "array" => function.numbered(each)?,
            _ => function.numbered_by(
                each,
                "(SELECT count(*) FROM json_each({json}) AS litewire_keys \
                 WHERE litewire_keys.id <= {id})",
            )?,
        };
        self.each(scope, &item, source, each).map(Some)
    }

    /// `jsonb_path_query(target, path [, vars [, silent]])`: a row per item
    /// the path finds, from the array of them.
    fn path_rows(&mut self, function: &RowFunction, scope: &mut Scope) -> Result<TableFactor> {
        let mut args = Vec::with_capacity(function.args.len());
        for argument in &function.args {
            args.push(self.argument(argument, scope)?);
        }
        if !(2..=4).contains(&args.len()) {
            let types: Vec<PgType> = args.iter().map(|a| a.ty.clone()).collect();
            return Err(super::errors::undefined_function(&function.name, &types));
        }
        let target = self.cast(args[0].clone(), &PgType::Jsonb, CastContext::Implicit)?;
        let call_args = self.path_arguments(&args, target.expr)?;
        let item = function.item_name();
        let each = vec![EachColumn {
            name: function.column_name(0, &function.name),
            computed: over_each(&item, ELEMENT_JSON)?,
            ty: PgType::Jsonb,
        }];
        let source = call("litewire_jsonb_path_query_array", call_args);
        let each = function.numbered(each)?;
        self.each(scope, &item, source, each)
    }
}
