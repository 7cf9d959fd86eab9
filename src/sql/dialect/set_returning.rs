//! Set-returning functions in a select list: `SELECT unnest(a) AS x,
//! generate_subscripts(a, 1) AS i FROM t` gives a row per element of `a`, which
//! drivers' catalog queries use to turn `pg_index.indkey` into rows. SQLite has
//! table-valued functions instead: the select reads
//! `json_each(litewire_array_json(a))` beside its other relations, and the calls
//! become that relation's element and position. Several of them in one select
//! advance together, as in PostgreSQL, paced by the first one's array.
//! `information_schema._pg_expandarray(a)` (pgjdbc's key columns) gives records
//! `(x, n)` of element and position; `(_pg_expandarray(a)).n` one of their fields.
//!
//! `pg_listening_channels()` is the `unnest` of the session's channels. In FROM,
//! these are relations of their own (see [`super::table_factors`]).

use sqlparser::ast::{AccessExpr, Expr, FunctionArguments, Select, SelectItem, SetExpr};

use super::expressions::record_field;
use super::replacement::{parse_expr, parse_query};
use crate::sql::syntax_tree::{idents, plain_args};

/// The relation of the elements.
const ELEMENTS: &str = "litewire_elements";

/// Rewrites the set-returning calls of `select`'s list; returns whether there were any.
pub(super) fn expand(select: &mut Select) -> bool {
    let mut paced_by: Option<String> = None;
    for item in &mut select.projection {
        let expr = match item {
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => e,
            _ => continue,
        };
        // `(_pg_expandarray(a)).n`: one field of the record.
        let (call, field) = match &*expr {
            Expr::CompoundFieldAccess { root, access_chain } => match access_chain.as_slice() {
                [AccessExpr::Dot(Expr::Identifier(field))] => (unnested(root), Some(field)),
                _ => continue,
            },
            other => (other, None),
        };
        let Some((function, array, dimension)) = set_returning_call(call) else {
            continue;
        };
        let first = paced_by.get_or_insert_with(|| array.clone()).clone();
        let element = if array == first {
            format!("{ELEMENTS}.value")
        } else {
            format!("json_extract(litewire_array_json({array}), '$[' || {ELEMENTS}.key || ']')")
        };
        let position = format!("{ELEMENTS}.key + 1");
        let sql = match (function, field.map(|f| record_field(&f.value))) {
            // Arrays here have one dimension.
            // A vector's (`pg_index.indkey`) subscripts start at 0, an
            // array's at 1.
            ("generate_subscripts", None) => format!(
                "CASE WHEN {dimension} = 1 THEN {ELEMENTS}.key + \
                 CASE WHEN substr(ltrim({array}), 1, 1) = '{{' THEN 1 ELSE 0 END END"
            ),
            ("unnest", None) => element,
            // A record prints as PostgreSQL prints one: `(x,n)`.
            ("_pg_expandarray", None) => format!("'(' || {element} || ',' || ({position}) || ')'"),
            ("_pg_expandarray", Some(Some(1))) => element,
            ("_pg_expandarray", Some(Some(2))) => position,
            _ => continue,
        };
        if let Some(replacement) = parse_expr(&sql) {
            *expr = replacement;
        }
    }
    let Some(array) = paced_by else {
        return false;
    };
    let from = format!("SELECT 1 FROM json_each(litewire_array_json({array})) AS {ELEMENTS}");
    if let Some(query) = parse_query(&from)
        && let SetExpr::Select(elements) = *query.body
    {
        select.from.extend(elements.from);
    }
    true
}

/// `expr` without its parentheses.
fn unnested(expr: &Expr) -> &Expr {
    match expr {
        Expr::Nested(inner) => unnested(inner),
        other => other,
    }
}

/// `unnest(array)`, `generate_subscripts(array, dimension)` or
/// `information_schema._pg_expandarray(array)`: the function, the array's SQL
/// and the dimension's.
fn set_returning_call(expr: &Expr) -> Option<(&'static str, String, String)> {
    let Expr::Function(function) = expr else {
        return None;
    };
    let name = idents(&function.name).last()?.to_ascii_lowercase();
    let FunctionArguments::List(list) = &function.args else {
        return None;
    };
    let args = plain_args(list);
    match (name.as_str(), args.as_slice()) {
        ("unnest", [array]) => Some(("unnest", array.to_string(), String::new())),
        // The session's channels, as the array the engine's helper gives.
        ("pg_listening_channels", []) => Some((
            "unnest",
            "litewire_listening_channels()".to_owned(),
            String::new(),
        )),
        ("_pg_expandarray", [array]) => Some(("_pg_expandarray", array.to_string(), String::new())),
        ("generate_subscripts", [array, dimension]) => Some((
            "generate_subscripts",
            array.to_string(),
            dimension.to_string(),
        )),
        _ => None,
    }
}
