//! The PostgreSQL types of result columns that SQLite cannot tell. SQLite
//! types a column by the table column it reads; an expression reads none.
//! Three kinds of them need the translation's help:
//! - the arrays `array_agg(...)` and `ARRAY[...]` build: their value is
//!   PostgreSQL's array text, and drivers read such a column as a list only
//!   when it is announced as an array type (`_text`, `_bool`, `_int8`:
//!   PostgreSQL's own names of array types), by the type of the elements.
//! - a cast in the select list (`SELECT $1::int4`, `sum(x)::bigint`): the
//!   value is in the storage of the type it names, and drivers that decode by
//!   the announced type (sqlx) expect that type, as PostgreSQL announces it.
//! - the expressions of catalog queries (`CASE`, `min(...)`, comparisons,
//!   `pg_get_constraintdef(...)`, scalar subqueries): typed here from the
//!   catalog's column types and the functions' result types, they need no
//!   inference from SQLite's bytecode when the statement is described, which
//!   for the joins drivers send costs seconds.
//!
//! A column is followed into the subquery in FROM it comes from, and into the
//! catalog relation it reads. What is not known stays untyped.

use sqlparser::ast::{
    BinaryOperator, Expr, FunctionArguments, Query, Select, SelectItem, TableFactor, Value,
};

use super::expressions::is_boolean;
use super::type_names::type_name;
use crate::sql::relations::{self, Definition};
use crate::sql::syntax_tree::{first_select, idents, plain_args};

/// The declared type of each result column of `query` that the translation
/// knows and SQLite does not (arrays and casts only, unless `catalog`: the
/// statement reads the catalog); empty when there is none.
pub(super) fn of(query: &Query, catalog: bool) -> Vec<Option<&'static str>> {
    let Some(select) = first_select(&query.body) else {
        return Vec::new();
    };
    let mut types = Vec::with_capacity(select.projection.len());
    for item in &select.projection {
        match item {
            SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => {
                let ty = match is_cast_to_boolean(e) {
                    true => Some(CAST_TO_BOOLEAN),
                    false => type_of(e, select, 0),
                };
                let ty = ty.filter(|t| {
                    catalog || kept_outside_catalog(t) || matches!(e, Expr::Cast { .. })
                });
                types.push(ty);
            }
            // Positions after a `*` are not known.
            _ => break,
        }
    }
    if types.iter().all(Option::is_none) {
        types.clear();
    }
    types
}

/// How deep subqueries are followed.
const MAX_DEPTH: usize = 8;

/// Functions whose result is text.
const TEXT_FUNCTIONS: &[&str] = &[
    "format_type",
    "pg_get_expr",
    "pg_get_constraintdef",
    "pg_get_indexdef",
    "pg_get_viewdef",
    "pg_get_partkeydef",
    "pg_get_userbyid",
    "pg_get_triggerdef",
    "pg_get_functiondef",
    "pg_get_function_result",
    "pg_get_function_arguments",
    "pg_get_function_identity_arguments",
    "pg_get_function_sqlbody",
    "obj_description",
    "col_description",
    "shobj_description",
    "current_schema",
    "current_database",
    "current_setting",
    "set_config",
    "version",
    "pg_encoding_to_char",
    "array_to_string",
    "string_agg",
    "quote_ident",
    "lower",
    "upper",
    "trim",
    "btrim",
    "ltrim",
    "rtrim",
    "replace",
    "substr",
    "substring",
    "concat",
    "pg_size_pretty",
];

fn type_of(expr: &Expr, select: &Select, depth: usize) -> Option<&'static str> {
    if depth > MAX_DEPTH {
        return None;
    }
    if is_boolean(expr) {
        return Some("boolean");
    }
    match expr {
        Expr::Nested(inner) => type_of(inner, select, depth),
        Expr::Cast { data_type, .. } => cast_type(&type_name(data_type)),
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(_) | Value::EscapedStringLiteral(_) => Some("text"),
            Value::Number(n, _) if n.parse::<i32>().is_ok() => Some("int4"),
            _ => None,
        },
        Expr::Case {
            conditions,
            else_result,
            ..
        } => conditions
            .iter()
            .map(|when| &when.result)
            .chain(else_result.as_deref())
            .find_map(|result| type_of(result, select, depth + 1)),
        Expr::BinaryOp {
            op: BinaryOperator::StringConcat,
            ..
        } => Some("text"),
        Expr::Subquery(query) => {
            let inner = first_select(&query.body)?;
            let first = match inner.projection.first()? {
                SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => e,
                _ => return None,
            };
            type_of(first, inner, depth + 1)
        }
        Expr::Function(function) => function_type(function, select, depth),
        Expr::Array(array) => Some(match array.elem.first() {
            Some(first) => array_of(first, select, depth),
            None => "_text",
        }),
        Expr::Identifier(_) | Expr::CompoundIdentifier(_) => column_type(expr, select, depth),
        _ => None,
    }
}

fn function_type(
    function: &sqlparser::ast::Function,
    select: &Select,
    depth: usize,
) -> Option<&'static str> {
    let name = idents(&function.name).last()?.to_ascii_lowercase();
    let FunctionArguments::List(list) = &function.args else {
        return TEXT_FUNCTIONS.contains(&name.as_str()).then_some("text");
    };
    let args = plain_args(list);
    match name.as_str() {
        "array_agg" => Some(array_of(args.first()?, select, depth)),
        "count" => Some("int8"),
        "bool_and" | "bool_or" | "every" => Some("boolean"),
        name if BOOLEAN_FUNCTIONS.contains(&name) => Some(CAST_TO_BOOLEAN),
        name if VOID_FUNCTIONS.contains(&name) => Some(VOID),
        "pg_blocking_pids" => Some("_int4"),
        "json_build_object" | "json_build_array" | "json_object" | "json_array" => Some("json"),
        "min" | "max" | "coalesce" | "nullif" => {
            args.iter().find_map(|a| type_of(a, select, depth + 1))
        }
        _ if TEXT_FUNCTIONS.contains(&name.as_str()) => Some("text"),
        _ => None,
    }
}

/// The functions that answer a boolean: the privilege and visibility
/// checks, the advisory lock functions that answer whether they took (or
/// gave back) the lock, and the signals to other sessions, whether they were
/// sent.
const BOOLEAN_FUNCTIONS: &[&str] = &[
    "has_table_privilege",
    "has_schema_privilege",
    "has_database_privilege",
    "has_column_privilege",
    "has_any_column_privilege",
    "has_sequence_privilege",
    "has_function_privilege",
    "pg_table_is_visible",
    "pg_type_is_visible",
    "pg_function_is_visible",
    "pg_cancel_backend",
    "pg_terminate_backend",
    "pg_is_in_recovery",
    "pg_try_advisory_lock",
    "pg_try_advisory_lock_shared",
    "pg_try_advisory_xact_lock",
    "pg_try_advisory_xact_lock_shared",
    "pg_advisory_unlock",
    "pg_advisory_unlock_shared",
];

/// The functions that return nothing (PostgreSQL's `void`).
const VOID_FUNCTIONS: &[&str] = &[
    "pg_advisory_lock",
    "pg_advisory_lock_shared",
    "pg_advisory_xact_lock",
    "pg_advisory_xact_lock_shared",
    "pg_advisory_unlock_all",
    "pg_notify",
    "pg_sleep",
    "pg_sleep_for",
    "pg_stat_force_next_flush",
    "pg_stat_statements_reset",
];

const VOID: &str = "void";

/// The type of `x::bool`, spelled apart from the `boolean` of comparisons:
/// SQLite's value is 0 or 1, which only the announced type makes a boolean,
/// and unlike a comparison's, PostgreSQL's clients ask for it by name.
const CAST_TO_BOOLEAN: &str = "bool";

/// Whether a result column's type is announced in any statement, not only
/// in catalog queries: arrays, casts to boolean, and the results of functions
/// that answer a boolean or nothing.
pub(super) fn kept_outside_catalog(ty: &str) -> bool {
    ty.starts_with('_') || ty == CAST_TO_BOOLEAN || ty == VOID
}

/// `x::bool`, `CAST(x AS boolean)`.
fn is_cast_to_boolean(expr: &Expr) -> bool {
    match expr {
        Expr::Nested(inner) => is_cast_to_boolean(inner),
        Expr::Cast { data_type, .. } => cast_type(&type_name(data_type)) == Some("boolean"),
        _ => false,
    }
}

/// The declared type a cast to the type named `name` gives, where litewire's
/// cast keeps the value in that type's storage.
fn cast_type(name: &str) -> Option<&'static str> {
    if let Some(element) = name.strip_suffix("[]") {
        return Some(array_type(cast_type(element.trim_end())));
    }
    Some(match name {
        "int" | "int4" | "integer" => "int4",
        "int2" | "smallint" => "int2",
        "int8" | "bigint" => "int8",
        "oid" => "oid",
        "text" | "name" => "text",
        "varchar" | "character varying" => "varchar",
        "float8" | "double precision" => "float8",
        "bool" | "boolean" => "boolean",
        "numeric" | "decimal" => "numeric",
        "date" => "date",
        "time" => "time",
        "timestamp" => "timestamp",
        "timestamptz" | "timestamp with time zone" => "timestamptz",
        "uuid" => "uuid",
        "json" => "json",
        "jsonb" => "jsonb",
        "bytea" => "bytea",
        _ => return None,
    })
}

/// The array type of `element`'s values (in `select`).
fn array_of(element: &Expr, select: &Select, depth: usize) -> &'static str {
    array_type(type_of(element, select, depth + 1))
}

/// The array type of elements of type `element`.
fn array_type(element: Option<&str>) -> &'static str {
    match element {
        Some("boolean") => "_bool",
        Some("int4") => "_int4",
        Some("int2") => "_int2",
        Some("int8") => "_int8",
        Some("oid") => "_oid",
        Some("float8") => "_float8",
        _ => "_text",
    }
}

/// The type of a column reference: the expression behind it in a subquery in
/// FROM, or the declared type of a catalog relation's column.
fn column_type(column: &Expr, select: &Select, depth: usize) -> Option<&'static str> {
    let (relation, column) = match column {
        Expr::Identifier(column) => (None, column.value.as_str()),
        Expr::CompoundIdentifier(parts) => match parts.as_slice() {
            [relation, column] => (Some(relation.value.as_str()), column.value.as_str()),
            [.., relation, column] => (Some(relation.value.as_str()), column.value.as_str()),
            _ => return None,
        },
        _ => return None,
    };
    let factors = select
        .from
        .iter()
        .flat_map(|t| std::iter::once(&t.relation).chain(t.joins.iter().map(|j| &j.relation)));
    for factor in factors {
        match factor {
            TableFactor::Derived {
                subquery, alias, ..
            } => {
                let named = alias.as_ref().map(|a| a.name.value.as_str());
                if relation.is_some_and(|r| Some(r) != named) {
                    continue;
                }
                let Some(inner) = first_select(&subquery.body) else {
                    continue;
                };
                let found = inner.projection.iter().find_map(|item| match item {
                    SelectItem::ExprWithAlias { expr, alias } if alias.value == column => {
                        Some(expr)
                    }
                    SelectItem::UnnamedExpr(expr) if output_column(expr) == Some(column) => {
                        Some(expr)
                    }
                    _ => None,
                });
                if let Some(expr) = found {
                    return type_of(expr, inner, depth + 1);
                }
            }
            TableFactor::Table {
                name, alias, args, ..
            } if args.is_none() => {
                let table = idents(name).last()?.to_ascii_lowercase();
                let named = alias
                    .as_ref()
                    .map_or(table.as_str(), |a| a.name.value.as_str());
                if relation.is_some_and(|r| !r.eq_ignore_ascii_case(named)) {
                    continue;
                }
                if let Some(ty) = catalog_column(&table, column) {
                    return Some(ty);
                }
            }
            _ => {}
        }
    }
    None
}

/// The declared type of `column` of the catalog relation `table`.
fn catalog_column(table: &str, column: &str) -> Option<&'static str> {
    let Definition::Table(columns) = relations::find(table)?.definition else {
        return None;
    };
    columns.split(',').find_map(|definition| {
        let mut words = definition.split_whitespace();
        let name = words.next()?;
        let ty = words.next()?;
        name.eq_ignore_ascii_case(column).then_some(ty)
    })
}

fn output_column(expr: &Expr) -> Option<&str> {
    match expr {
        Expr::Identifier(ident) => Some(&ident.value),
        Expr::CompoundIdentifier(parts) => parts.last().map(|p| p.value.as_str()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sqlparser::dialect::PostgreSqlDialect;
    use sqlparser::parser::Parser;

    fn types(sql: &str, catalog: bool) -> Vec<Option<&'static str>> {
        let statements = Parser::parse_sql(&PostgreSqlDialect {}, sql).expect("parses");
        let sqlparser::ast::Statement::Query(query) = &statements[0] else {
            panic!("not a query");
        };
        of(query, catalog)
    }

    #[test]
    fn expressions_of_catalog_queries() {
        assert_eq!(
            types(
                "SELECT c.relname, CASE WHEN c.oid IS NOT NULL THEN pg_get_constraintdef(c.oid, true) END, \
                 min(a.attnum), count(*), a.attnum > 0, bool_and(a.attnotnull), (SELECT n.nspname FROM pg_namespace n), \
                 coalesce(x.y, 0), 'k' || c.relname, UNNAMED(1) FROM pg_class c JOIN pg_attribute a ON true, t x GROUP BY 1",
                true
            ),
            [
                Some("TEXT"),
                Some("text"),
                Some("INTEGER"),
                Some("int8"),
                Some("boolean"),
                Some("boolean"),
                Some("TEXT"),
                Some("int4"),
                Some("text"),
                None
            ]
        );
        // Outside the catalog, only arrays and casts.
        assert_eq!(
            types(
                "SELECT count(*), array_agg(a.b), a.b::int4, sum(a.c)::bigint, 1, \
                 '2024-02-29'::date, a.u::uuid, a.n::numeric(10, 2) FROM t a",
                false
            ),
            [
                None,
                Some("_text"),
                Some("int4"),
                Some("int8"),
                None,
                Some("date"),
                Some("uuid"),
                Some("numeric")
            ]
        );
        assert_eq!(
            types("SELECT $1::bool, (CAST(x AS boolean)), x = 1 FROM t", false),
            [Some("bool"), Some("bool"), None]
        );
    }

    #[test]
    fn arrays_by_their_elements() {
        assert_eq!(
            types(
                "SELECT array_agg(CAST(c.name AS TEXT) ORDER BY c.n), array_agg(c.n = 0), array_agg(c.n::bigint), array_agg(a.attnum) \
                 FROM t c, pg_attribute a",
                false
            ),
            [Some("_text"), Some("_bool"), Some("_int8"), Some("_text")]
        );
        // Through a subquery in FROM, to the expression behind its column.
        assert_eq!(
            types(
                "SELECT q.elements, q.flags FROM pg_index i LEFT JOIN (SELECT array_agg(e.name) AS elements, \
                 array_agg(e.is_expr) AS flags FROM (SELECT a.attname AS name, a.attnum = 0 AS is_expr FROM pg_attribute a) AS e) AS q ON true",
                false
            ),
            [Some("_text"), Some("_bool")]
        );
        assert!(types("SELECT *, array_agg(x) FROM pg_class", false).is_empty());
        assert_eq!(
            types(
                "SELECT ARRAY[1, 2], ARRAY['a'], ARRAY[]::int[], ARRAY[true]",
                false
            ),
            [Some("_int4"), Some("_text"), Some("_int4"), Some("_bool")]
        );
    }
}
