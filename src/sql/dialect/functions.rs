//! The functions psql, drivers and ORMs call, as the SQLite expressions (or
//! catalog lookups) that answer them: session and server information, catalog
//! functions, visibility and privilege checks (always true), aggregates under
//! SQLite's names, `ARRAY(SELECT ...)`.

use sqlparser::ast::{
    Expr, Function, FunctionArg, FunctionArgExpr, FunctionArguments, Ident, ObjectName, Query,
    SelectItem, SetExpr,
};

use super::catalog_lookups::{name_of, named, oid_by_name, oid_by_plain_name, reg_output};
use super::replacement::{Replacement, from_catalog, parse_expr, plain};
use super::schemas::is_schema;
use crate::sql::schema_names::FIRST_SCHEMA_OID;
use crate::sql::syntax_tree::{idents, is_parameter};

/// A definition with the names it refers to qualified when the session's
/// `search_path` leaves their schema out (see `sql::qualified_names`).
fn qualified(definition: Replacement) -> Option<Replacement> {
    Some(Replacement {
        expr: parse_expr(&format!(
            "{}({})",
            crate::sql::qualified_names::FUNCTION,
            definition.expr
        ))?,
        catalog: definition.catalog,
    })
}

/// The privileges that change something (a sequence's `UPDATE` is `setval`).
const WRITE_PRIVILEGES: &[&str] = &[
    "INSERT", "UPDATE", "DELETE", "TRUNCATE", "CREATE", "TRIGGER", "MAINTAIN",
];

pub(super) fn function_call(function: &Function) -> Option<Replacement> {
    let parts = idents(&function.name);
    let (schema, name) = match parts.as_slice() {
        [name] => (None, name.to_ascii_lowercase()),
        [schema, name] => (Some(schema.as_str()), name.to_ascii_lowercase()),
        _ => return None,
    };
    if let FunctionArguments::Subquery(query) = &function.args {
        return (name == "array").then(|| array_of(query)).flatten();
    }
    let args = arguments(function)?;
    let arg = |i: usize| args.get(i).map(ToString::to_string).unwrap_or_default();
    let bare_call = matches!(function.args, FunctionArguments::None);
    match (name.as_str(), args.len()) {
        ("now" | "transaction_timestamp" | "statement_timestamp" | "clock_timestamp", 0)
            if !bare_call =>
        {
            plain("strftime('%Y-%m-%d %H:%M:%f+00', 'now')".into())
        }
        ("current_user" | "session_user" | "current_role" | "user", 0) if bare_call => {
            from_catalog("(SELECT user_name FROM litewire_session)".into())
        }
        ("current_database", 0) | ("current_catalog", 0) => {
            from_catalog("(SELECT database_name FROM litewire_session)".into())
        }
        ("pg_backend_pid", 0) => from_catalog("(SELECT backend_pid FROM litewire_session)".into()),
        // The session's own row of `pg_stat_activity`: NULL on a Unix-domain
        // socket, whose port that view shows as -1.
        ("inet_client_addr", 0) => from_catalog(
            "(SELECT client_addr FROM pg_stat_activity \
             WHERE pid = (SELECT backend_pid FROM litewire_session))"
                .into(),
        ),
        ("inet_client_port", 0) => from_catalog(
            "(SELECT client_port FROM pg_stat_activity \
             WHERE pid = (SELECT backend_pid FROM litewire_session) AND client_port <> -1)"
                .into(),
        ),
        ("version", 0) => plain(format!(
            "'PostgreSQL {} on SQLite ' || sqlite_version()",
            crate::SERVER_VERSION
        )),
        // With schemas of the user's, a relation is visible when its schema
        // is the first on `search_path` to have one of its name; without, all
        // are but `information_schema`'s, which is never on the path.
        ("pg_table_is_visible", 1) => from_catalog(format!(
            "(CASE WHEN EXISTS (SELECT 1 FROM pg_class litewire_i WHERE litewire_i.oid = {0} \
             AND litewire_i.relnamespace = (SELECT litewire_s.oid FROM pg_namespace litewire_s \
             WHERE litewire_s.nspname = 'information_schema')) THEN false \
             WHEN NOT EXISTS (SELECT 1 FROM pg_namespace WHERE oid >= {FIRST_SCHEMA_OID}) THEN true \
             ELSE coalesce((SELECT coalesce((SELECT litewire_v.litewire_namespace = litewire_c.relnamespace FROM \
             (SELECT litewire_o.relnamespace AS litewire_namespace, (SELECT litewire_p.key \
             FROM json_each(litewire_array_json(current_schemas(true))) litewire_p \
             JOIN pg_namespace litewire_n ON litewire_n.nspname = litewire_p.value \
             WHERE litewire_n.oid = litewire_o.relnamespace) AS litewire_place \
             FROM pg_class litewire_o WHERE litewire_o.relname = litewire_c.relname) litewire_v \
             WHERE litewire_v.litewire_place IS NOT NULL ORDER BY litewire_v.litewire_place LIMIT 1), false) \
             FROM pg_class litewire_c WHERE litewire_c.oid = {0}), true) END)",
            arg(0)
        )),
        (
            "pg_table_is_visible"
            | "pg_type_is_visible"
            | "pg_function_is_visible"
            | "pg_collation_is_visible"
            | "pg_opclass_is_visible"
            | "pg_operator_is_visible"
            | "pg_conversion_is_visible"
            | "has_function_privilege",
            _,
        ) => plain("true".into()),
        // What a session may do is its role's (see `sql::grants`): a
        // read-only one reads, and writes nothing.
        (
            "has_table_privilege"
            | "has_schema_privilege"
            | "has_database_privilege"
            | "has_column_privilege"
            | "has_any_column_privilege"
            | "has_sequence_privilege",
            1..,
        ) => from_catalog(format!(
            "((SELECT role FROM litewire_session) <> 'readonly' OR NOT ({}))",
            WRITE_PRIVILEGES
                .iter()
                .map(|p| format!("instr(upper({}), '{p}') > 0", arg(args.len() - 1)))
                .collect::<Vec<_>>()
                .join(" OR ")
        )),
        ("pg_relation_is_publishable", _) => plain("false".into()),
        // No object has privileges of its own (see `sql::grants`): every ACL,
        // and so every default one, is NULL.
        ("acldefault", 2) => plain("NULL".into()),
        ("to_regtype", 1) => oid_by_name("type", &arg(0)),
        ("to_regclass", 1) => oid_by_name("class", &arg(0)),
        ("to_regproc", 1) => oid_by_plain_name("proc", &arg(0)),
        ("to_regnamespace", 1) => oid_by_plain_name("namespace", &arg(0)),
        ("to_regrole", 1) => oid_by_plain_name("role", &arg(0)),
        // What a `reg*` result column shows (see `sql::postgres::object_ids`).
        ("regclassout", 1) => reg_output("class", &arg(0)),
        ("regtypeout", 1) => reg_output("type", &arg(0)),
        ("regprocout", 1) => reg_output("proc", &arg(0)),
        ("regnamespaceout", 1) => reg_output("namespace", &arg(0)),
        ("regroleout", 1) => reg_output("role", &arg(0)),
        ("pg_get_userbyid", 1) => name_of("role", arg(0)),
        // `\df`'s columns: a function's result type and its arguments as
        // `name type, ...`.
        ("pg_get_function_result", 1) => name_of("function result", arg(0)),
        ("pg_get_function_arguments" | "pg_get_function_identity_arguments", 1) => {
            name_of("function arguments", arg(0))
        }
        ("pg_encoding_to_char", 1) => plain("'UTF8'".into()),
        // Comments `COMMENT ON` kept (see `sql::comments`), on relations, and
        // PostgreSQL's own on its schemas and functions.
        ("obj_description", 1) => description(&arg(0), "0"),
        ("obj_description", 2) => from_catalog(format!(
            "(SELECT description FROM pg_description WHERE objoid = ({}) AND objsubid = 0 \
             AND classoid = (SELECT oid FROM pg_class WHERE relname = ({}) AND relnamespace = 11))",
            arg(0),
            arg(1)
        )),
        ("col_description", 2) => description(&arg(0), &arg(1)),
        ("obj_description" | "col_description" | "shobj_description", _) => plain("NULL".into()),
        ("pg_get_expr", 2 | 3) => strict(&args[1..], qualified(plain(arg(0))?)?),
        // `pg_get_indexdef(index, column, pretty)`: one column's name, or the
        // whole definition for column 0.
        ("pg_get_indexdef", 3) => {
            let column = name_of("column", format!("({}) * 10000 + ({})", arg(0), arg(1)))?;
            let definition = name_of("definition", arg(0))?;
            let both = from_catalog(format!(
                "CASE WHEN ({}) = 0 THEN {} ELSE {} END",
                arg(1),
                definition.expr,
                column.expr
            ))?;
            strict(&args[2..], both)
        }
        // `pg_get_viewdef(text)` takes the view's name.
        ("pg_get_viewdef", 1..=2)
            if matches!(
                args.first(),
                Some(Expr::Value(v)) if matches!(v.value, sqlparser::ast::Value::SingleQuotedString(_))
            ) =>
        {
            let oid = oid_by_name("class", &arg(0))?;
            strict(&args[1..], qualified(name_of("definition", oid.expr)?)?)
        }
        ("pg_get_constraintdef" | "pg_get_viewdef", 1..=3) => {
            strict(&args[1..], qualified(name_of("definition", arg(0))?)?)
        }
        // The key is kept under `-oid` (see `engine::catalog::partition_rows`).
        ("pg_get_partkeydef", 1) => name_of("definition", format!("-({})", arg(0))),
        // Its table is always qualified, as PostgreSQL's is.
        ("pg_get_indexdef", 1..=2) => strict(&args[1..], name_of("definition", arg(0))?),
        // A body kept as text (`prosrc`), never as a parsed `BEGIN ATOMIC`.
        ("pg_get_function_sqlbody", 1) => plain("NULL".into()),
        ("pg_get_triggerdef" | "pg_get_statisticsobjdef_columns" | "pg_get_functiondef", _) => {
            plain("NULL".into())
        }
        ("pg_table_size" | "pg_relation_size" | "pg_total_relation_size", 1) => {
            from_catalog(format!(
                "(SELECT sum(pgsize) FROM dbstat WHERE name IN (SELECT litewire_name FROM {} WHERE litewire_oid = {}))",
                named("storage")?,
                arg(0)
            ))
        }
        ("pg_partition_ancestors", 1) => plain(format!("CAST({} AS INTEGER)", arg(0))),
        // Aggregates keep their clauses (`ORDER BY`, `DISTINCT`, `FILTER`);
        // `string_agg` is SQLite's own.
        ("array_agg", 1) => Some(renamed(function, "litewire_array_agg")),
        ("bool_and" | "every", 1) => Some(renamed(function, "min")),
        ("bool_or", 1) => Some(renamed(function, "max")),
        ("json_build_object" | "jsonb_build_object", _) => Some(renamed(function, "json_object")),
        ("json_build_array" | "jsonb_build_array", _) => Some(renamed(function, "json_array")),
        ("gen_random_uuid" | "uuid_generate_v4", 0) => plain("gen_random_uuid()".into()),
        _ if schema.is_some_and(|s| is_schema(s, "pg_catalog")) => {
            // `pg_catalog.lower(x)`: the same function, unqualified.
            Some(renamed(function, &name))
        }
        _ => None,
    }
}

/// The plain argument expressions of a call (`None` for `*` and the like).
pub(super) fn arguments(function: &Function) -> Option<Vec<Expr>> {
    match &function.args {
        FunctionArguments::None => Some(Vec::new()),
        FunctionArguments::Subquery(_) => None,
        FunctionArguments::List(list) => list
            .args
            .iter()
            .map(|arg| match arg {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e.clone()),
                _ => None,
            })
            .collect(),
    }
}

/// The description of object `oid`'s part `subid` (a column's number, 0 for
/// the relation itself) in `pg_description`.
fn description(oid: &str, subid: &str) -> Option<Replacement> {
    from_catalog(format!(
        "(SELECT description FROM pg_description WHERE objoid = ({oid}) AND objsubid = ({subid}))"
    ))
}

/// The rewrite of a strict function whose arguments `unused` (`pretty`, a
/// relation) the rewrite does not need: NULL when one of them is, as in
/// PostgreSQL. A parameter among them stays in the statement, which keeps the
/// parameters the client binds.
fn strict(unused: &[Expr], rewrite: Replacement) -> Option<Replacement> {
    let tests: Vec<String> = unused
        .iter()
        .filter(|e| match e {
            Expr::Value(_) => is_parameter(e),
            _ => true,
        })
        .map(|e| format!("({e}) IS NULL"))
        .collect();
    if tests.is_empty() {
        return Some(rewrite);
    }
    let sql = format!(
        "CASE WHEN {} THEN NULL ELSE {} END",
        tests.join(" OR "),
        rewrite.expr
    );
    Some(Replacement {
        expr: parse_expr(&sql)?,
        catalog: rewrite.catalog,
    })
}

/// The same call of another function: arguments and clauses are kept.
fn renamed(function: &Function, name: &str) -> Replacement {
    let mut call = function.clone();
    call.name = ObjectName::from(vec![Ident::new(name)]);
    Replacement {
        expr: Expr::Function(call),
        catalog: false,
    }
}

/// `ARRAY(SELECT x ...)`: the rows' values as PostgreSQL array text. The
/// subquery's one column is named so the aggregate can refer to it.
fn array_of(query: &Query) -> Option<Replacement> {
    let mut query = query.clone();
    let SetExpr::Select(select) = query.body.as_mut() else {
        return None;
    };
    let [item] = select.projection.as_mut_slice() else {
        return None;
    };
    let (expr, alias) = match item {
        SelectItem::UnnamedExpr(e) => (e.clone(), None),
        SelectItem::ExprWithAlias { expr, alias } => (expr.clone(), Some(alias.value.clone())),
        _ => return None,
    };
    *item = SelectItem::ExprWithAlias {
        expr,
        alias: Ident::new("litewire_element"),
    };
    // The query's ORDER BY may name the column by its alias.
    if let (Some(alias), Some(order_by)) = (alias, query.order_by.as_mut())
        && let sqlparser::ast::OrderByKind::Expressions(items) = &mut order_by.kind
    {
        for item in items {
            if matches!(&item.expr, Expr::Identifier(i) if i.value.eq_ignore_ascii_case(&alias)) {
                item.expr = Expr::Identifier(Ident::new("litewire_element"));
            }
        }
    }
    plain(format!(
        "(SELECT litewire_array_agg(litewire_element) FROM ({query}) AS litewire_rows)"
    ))
}
