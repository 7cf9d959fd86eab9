//! Expression rewrites: PostgreSQL casts (`::type`, `::regclass`), operators
//! (`~`, `ILIKE`, `= ANY(...)`, `OPERATOR(pg_catalog.~)`), array constructors and the
//! functions psql and drivers call, each as the SQLite expression (or catalog
//! lookup) that answers it.

use sqlparser::ast::{
    AccessExpr, BinaryOperator, DataType, Expr, FunctionArg, FunctionArgExpr, FunctionArguments,
    Ident, ObjectName, Query, SelectItem, SetExpr, Subscript, TrimWhereField, Value,
};

use super::empty_relations::set_is_empty;
use super::replacement::{Replacement, from_catalog, parse_expr, plain};
use super::schemas::{is_schema, relation_in_schema};
use super::type_names::{internal_type_name, type_name};
use crate::sql::quote::{literal, parse_bool};
use crate::sql::syntax_tree::{idents, is_comparison};

/// The SQLite expression for a PostgreSQL one, where they differ.
pub(super) fn rewrite_expr(expr: &Expr) -> Option<Replacement> {
    match expr {
        Expr::Cast {
            expr, data_type, ..
        } => cast(expr, data_type),
        Expr::Collate { expr, .. } => Some(Replacement {
            expr: (**expr).clone(),
            catalog: false,
        }),
        Expr::ILike {
            negated,
            expr,
            pattern,
            escape_char,
            any,
        } => Some(Replacement {
            expr: Expr::Like {
                negated: *negated,
                any: *any,
                expr: expr.clone(),
                pattern: pattern.clone(),
                escape_char: escape_char.clone(),
            },
            catalog: false,
        }),
        Expr::BinaryOp { left, op, right } => binary(left, op, right),
        Expr::AnyOp {
            left,
            compare_op: BinaryOperator::Eq,
            right,
            ..
        } => any(left, right),
        Expr::Array(array) => plain(format!("litewire_array({})", list(&array.elem))),
        Expr::Function(function) => function_call(function),
        Expr::TypedString(typed) => plain(typed.value.to_string()),
        Expr::CompoundIdentifier(parts) => qualified_column(parts),
        Expr::CompoundFieldAccess { root, access_chain } => match access_chain.as_slice() {
            // `a[i]`, `t.a[i]`: PostgreSQL's arrays count from 1, its vectors from 0.
            [path @ .., AccessExpr::Subscript(Subscript::Index { index })] => {
                let array = column_path(root, path)?;
                plain(format!("litewire_array_element({array}, {index})"))
            }
            // `(r).x`: a field of a record (by its position).
            [AccessExpr::Dot(Expr::Identifier(field))] => {
                let position = record_field(&field.value)?;
                plain(format!("litewire_record_field({root}, {position})"))
            }
            _ => None,
        },
        Expr::Trim {
            trim_where,
            trim_what: Some(what),
            expr,
            trim_characters: None,
        } => {
            let function = match trim_where {
                Some(TrimWhereField::Leading) => "ltrim",
                Some(TrimWhereField::Trailing) => "rtrim",
                _ => "trim",
            };
            plain(format!("{function}({expr}, {what})"))
        }
        // A subquery over a relation that is always empty here (`pg_sequence`,
        // `pg_inherits`, ...) has no rows, whatever it computes.
        Expr::Subquery(query) if set_is_empty(&query.body) => plain("NULL".into()),
        Expr::Exists { subquery, negated } if set_is_empty(&subquery.body) => {
            plain(negated.to_string())
        }
        _ => None,
    }
}

/// `root.a.b` (the value a subscript applies to): a column, named as
/// [`qualified_column`] names it.
fn column_path(root: &Expr, path: &[AccessExpr]) -> Option<Expr> {
    if path.is_empty() {
        return Some(root.clone());
    }
    let Expr::Identifier(first) = root else {
        return None;
    };
    let mut parts = vec![first.clone()];
    for access in path {
        match access {
            AccessExpr::Dot(Expr::Identifier(part)) => parts.push(part.clone()),
            _ => return None,
        }
    }
    Some(qualified_column(&parts).map_or(Expr::CompoundIdentifier(parts), |r| r.expr))
}

/// The position of a field of the records litewire builds: those of
/// `information_schema._pg_expandarray`, `(x, n)`.
pub(super) fn record_field(name: &str) -> Option<usize> {
    match name.to_ascii_lowercase().as_str() {
        "x" => Some(1),
        "n" => Some(2),
        _ => None,
    }
}

/// `pg_catalog.pg_class.relname`: a column of a catalog relation named with its
/// schema, as the relation itself is named once its schema is gone.
fn qualified_column(parts: &[Ident]) -> Option<Replacement> {
    let [schema, relation, rest @ ..] = parts else {
        return None;
    };
    if rest.is_empty() {
        return None;
    }
    let relation = relation_in_schema(&schema.value, relation)?;
    let mut unqualified = vec![relation];
    unqualified.extend(rest.iter().cloned());
    Some(Replacement {
        expr: Expr::CompoundIdentifier(unqualified),
        catalog: false,
    })
}

fn list(items: &[Expr]) -> String {
    items
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

fn cast(inner: &Expr, data_type: &DataType) -> Option<Replacement> {
    let name = type_name(data_type);
    let literal = string_literal(inner);
    match name.as_str() {
        // A parameter is a name to look up, as a literal is; a column an oid to name.
        "regclass" => Some(match literal {
            Some(text) => oid_or_lookup(&text, "class")?,
            None if is_parameter(inner) => oid_by_name("class", &inner.to_string())?,
            None => name_of("class", inner)?,
        }),
        "regtype" => Some(match literal {
            Some(text) => oid_or_lookup(&text, "type")?,
            None if is_parameter(inner) => oid_by_name("type", &inner.to_string())?,
            None => plain(format!("format_type({inner}, NULL)"))?,
        }),
        "regnamespace" => name_of("namespace", inner),
        "regproc" | "regprocedure" | "regoper" | "regrole" => {
            plain(format!("CAST({inner} AS TEXT)"))
        }
        "bool" | "boolean" => match literal.as_deref().map(parse_bool) {
            Some(Some(b)) => plain(b.to_string()),
            _ => plain(format!("CAST({inner} AS INTEGER)")),
        },
        "bytea" => match literal.as_deref().and_then(|t| t.strip_prefix("\\x")) {
            Some(hex) if hex.bytes().all(|b| b.is_ascii_hexdigit()) => plain(format!("X'{hex}'")),
            _ => plain(format!("CAST({inner} AS BLOB)")),
        },
        // A literal that is no number of the type is refused, as PostgreSQL
        // refuses it (SQLite's CAST would read `'abc'` as 0).
        _ if literal
            .as_deref()
            .is_some_and(|text| !reads_as_number(text, &name)) =>
        {
            let text = literal.unwrap_or_default();
            plain(format!(
                "litewire_error({})",
                crate::sql::quote::literal(&format!(
                    "invalid input syntax for type {}: \"{text}\"",
                    internal_type_name(&name)
                ))
            ))
        }
        // SQLite's CAST takes the affinity the type name implies, and these
        // names imply the right one: kept, so that the type stays visible (a
        // parameter under `$1::bigint` is described as int8).
        "int" | "int2" | "int4" | "int8" | "integer" | "smallint" | "bigint" | "float"
        | "float4" | "float8" | "real" | "double" | "double precision" | "numeric" | "decimal"
        | "varchar" | "character varying" | "text" => {
            plain(format!("CAST({inner} AS {})", unqualified(data_type)))
        }
        "oid" | "xid" => plain(format!("CAST({inner} AS INTEGER)")),
        // Booleans in an array are stored as a boolean column stores them (0/1),
        // whatever spelling the literal used (`'{t,f}'::boolean[]`).
        _ if data_type_is_array(data_type)
            && matches!(
                type_name(data_type).trim_end_matches("[]").trim(),
                "bool" | "boolean"
            ) =>
        {
            plain(format!("litewire_array_bool({inner})"))
        }
        _ if data_type_is_array(data_type) => Some(Replacement {
            expr: inner.clone(),
            catalog: false,
        }),
        // Text-like types and everything SQLite stores as text: dates, times,
        // uuid, json, name, char, varchar.
        _ => plain(format!("CAST({inner} AS TEXT)")),
    }
}

/// Whether `text` reads as a value of the numeric type `name`; true for any
/// text when `name` is no numeric type.
fn reads_as_number(text: &str, name: &str) -> bool {
    let text = text.trim();
    match name {
        "int" | "int2" | "int4" | "int8" | "integer" | "smallint" | "bigint" => {
            text.parse::<i64>().is_ok()
        }
        "float" | "float4" | "float8" | "real" | "double" | "double precision" => {
            text.parse::<f64>().is_ok()
        }
        "numeric" | "decimal" => {
            text.eq_ignore_ascii_case("nan")
                || (text.parse::<f64>().is_ok()
                    && text
                        .bytes()
                        .all(|b| b.is_ascii_digit() || b".+-eE".contains(&b)))
        }
        _ => true,
    }
}

/// A type as SQLite can read it: without a `pg_catalog.` qualifier.
fn unqualified(data_type: &DataType) -> String {
    match data_type {
        DataType::Custom(name, modifiers) => {
            let name = idents(name).last().cloned().unwrap_or_default();
            if modifiers.is_empty() {
                name
            } else {
                let modifiers: Vec<String> = modifiers.iter().map(ToString::to_string).collect();
                format!("{name}({})", modifiers.join(","))
            }
        }
        other => other.to_string(),
    }
}

fn data_type_is_array(data_type: &DataType) -> bool {
    matches!(data_type, DataType::Array(_)) || data_type.to_string().ends_with("[]")
}

/// `'t'::regclass::text`, `$1::regtype::text`: the name of what a name or
/// oid given as a literal or parameter refers to (the cast to an oid alone
/// would print the oid). Rewritten before the inner cast is (see
/// `Rewriter::pre_visit_expr`).
pub(super) fn name_of_reg_cast(expr: &Expr) -> Option<Replacement> {
    let Expr::Cast {
        expr: inner,
        data_type: outer,
        ..
    } = expr
    else {
        return None;
    };
    if !matches!(
        type_name(outer).as_str(),
        "text" | "varchar" | "character varying" | "name"
    ) {
        return None;
    }
    let Expr::Cast {
        expr: value,
        data_type: reg,
        ..
    } = &**inner
    else {
        return None;
    };
    let kind = match type_name(reg).as_str() {
        "regclass" => "class",
        "regtype" => "type",
        _ => return None,
    };
    // A name is looked up as a parameter's is: a type by either of its names
    // (`int4`, `integer`).
    let oid = match string_literal(value) {
        Some(text) if text.trim().parse::<i64>().is_ok() => oid_or_lookup(&text, kind)?,
        Some(text) => oid_by_name(kind, &literal(&text))?,
        None if is_parameter(value) => oid_by_name(kind, &value.to_string())?,
        None => return None,
    };
    let name = match kind {
        "class" => name_of("class", &oid.expr)?,
        _ => plain(format!("format_type({}, NULL)", oid.expr))?,
    };
    Some(Replacement {
        expr: name.expr,
        catalog: true,
    })
}

/// `'16384'::regclass` is an oid; `'t'::regclass` the oid of relation `t`.
fn oid_or_lookup(text: &str, kind: &str) -> Option<Replacement> {
    if let Ok(oid) = text.trim().parse::<i64>() {
        return plain(oid.to_string());
    }
    let name = text.rsplit('.').next().unwrap_or(text).trim_matches('"');
    from_catalog(format!(
        "(SELECT litewire_oid FROM {} WHERE litewire_name = {})",
        named(kind)?,
        literal(name)
    ))
}

/// The objects of `kind` as a relation of `litewire_oid` and `litewire_name`
/// (or definition), read from the one catalog relation that has them. Its
/// columns are all `litewire_*`, so that an unqualified column in a condition
/// on it (psql writes `pg_get_constraintdef(oid)`) still refers to the outer
/// query; and it is one relation, not a union of them all, because SQLx's type
/// inference of a whole statement walks every branch of what it reads.
fn named(kind: &str) -> Option<String> {
    let (oid, name, relation) = match kind {
        "class" => ("oid", "relname", "pg_class"),
        "namespace" => ("oid", "nspname", "pg_namespace"),
        "role" => ("oid", "rolname", "pg_roles"),
        "type" => ("oid", "typname", "pg_type"),
        "definition" => ("oid", "definition", "litewire_definitions"),
        "column" => ("attrelid * 10000 + attnum", "attname", "pg_attribute"),
        "storage" => ("oid", "name", "litewire_storage"),
        _ => return None,
    };
    Some(format!(
        "(SELECT {oid} AS litewire_oid, {name} AS litewire_name FROM {relation})"
    ))
}

/// `to_regtype(name)`, `to_regclass(name)`: the oid of the catalog object of
/// `kind` that the text `name` names, NULL for none. The name may carry a schema
/// and is matched without case; a type is found by its `typname` (`int4`) or its
/// SQL name (`integer`, `character varying`, `integer[]`).
fn oid_by_name(kind: &str, name: &str) -> Option<Replacement> {
    // Read through subqueries whose columns are all `litewire_*` (see
    // [`named`]), with `name` unqualified once.
    let (names, relation) = match kind {
        "type" => (
            "typname AS litewire_name, format_type(oid, NULL) AS litewire_sql_name",
            "pg_type",
        ),
        _ => (
            "relname AS litewire_name, relname AS litewire_sql_name",
            "pg_class",
        ),
    };
    from_catalog(format!(
        "(SELECT litewire_oid FROM (SELECT oid AS litewire_oid, {names} FROM {relation}), (SELECT lower(CASE WHEN instr({name}, '.') > 0 THEN substr({name}, instr({name}, '.') + 1) ELSE {name} END) AS litewire_wanted) WHERE litewire_wanted IN (litewire_name, litewire_sql_name))"
    ))
}

/// The name (or definition) of the catalog object of `kind` with oid `oid`.
fn name_of(kind: &str, oid: impl std::fmt::Display) -> Option<Replacement> {
    from_catalog(format!(
        "(SELECT litewire_name FROM {} WHERE litewire_oid = {oid})",
        named(kind)?
    ))
}

fn is_parameter(expr: &Expr) -> bool {
    matches!(expr, Expr::Value(v) if matches!(v.value, Value::Placeholder(_)))
}

fn string_literal(expr: &Expr) -> Option<String> {
    match expr {
        Expr::Value(v) => match &v.value {
            Value::SingleQuotedString(s) | Value::EscapedStringLiteral(s) => Some(s.clone()),
            _ => None,
        },
        _ => None,
    }
}

fn binary(left: &Expr, op: &BinaryOperator, right: &Expr) -> Option<Replacement> {
    let op_name = match op {
        BinaryOperator::PGCustomBinaryOperator(parts) => parts.last()?.clone(),
        BinaryOperator::PGRegexMatch => "~".into(),
        BinaryOperator::PGRegexIMatch => "~*".into(),
        BinaryOperator::PGRegexNotMatch => "!~".into(),
        BinaryOperator::PGRegexNotIMatch => "!~*".into(),
        BinaryOperator::PGLikeMatch => "~~".into(),
        BinaryOperator::PGILikeMatch => "~~*".into(),
        BinaryOperator::PGNotLikeMatch => "!~~".into(),
        BinaryOperator::PGNotILikeMatch => "!~~*".into(),
        _ => return None,
    };
    let sql = match op_name.as_str() {
        "~" => format!("regexp({right}, {left})"),
        "~*" => format!("regexp('(?i)' || {right}, {left})"),
        "!~" => format!("NOT regexp({right}, {left})"),
        "!~*" => format!("NOT regexp('(?i)' || {right}, {left})"),
        "~~" | "~~*" => format!("{left} LIKE {right}"),
        "!~~" | "!~~*" => format!("{left} NOT LIKE {right}"),
        "=" | "<>" | "<" | ">" | "<=" | ">=" => format!("{left} {op_name} {right}"),
        _ => return None,
    };
    plain(sql)
}

/// `x = ANY(...)`: a list or subquery is `IN`, an array value a membership test.
fn any(left: &Expr, right: &Expr) -> Option<Replacement> {
    match right {
        Expr::Subquery(query) => plain(format!("{left} IN ({query})")),
        Expr::Nested(inner) if matches!(**inner, Expr::Subquery(_)) => {
            plain(format!("{left} IN {inner}"))
        }
        // `ARRAY[...]`, already rewritten (children are visited first).
        Expr::Function(f) if idents(&f.name) == ["litewire_array"] => {
            let items = arguments(f)?;
            plain(format!("{left} IN ({})", list(&items)))
        }
        _ => plain(format!("litewire_array_contains({right}, {left})")),
    }
}

/// The plain argument expressions of a call (`None` for `*` and the like).
fn arguments(function: &sqlparser::ast::Function) -> Option<Vec<Expr>> {
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

fn function_call(function: &sqlparser::ast::Function) -> Option<Replacement> {
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
        ("current_schema", 0) => plain("'public'".into()),
        ("current_schemas", 1) => plain(format!(
            "CASE WHEN {} THEN '{{pg_catalog,public}}' ELSE '{{public}}' END",
            arg(0)
        )),
        ("version", 0) => plain(format!(
            "'PostgreSQL {} on SQLite ' || sqlite_version()",
            crate::SERVER_VERSION
        )),
        (
            "pg_table_is_visible"
            | "pg_type_is_visible"
            | "pg_function_is_visible"
            | "pg_collation_is_visible"
            | "pg_opclass_is_visible"
            | "pg_operator_is_visible"
            | "pg_conversion_is_visible"
            | "has_table_privilege"
            | "has_schema_privilege"
            | "has_database_privilege"
            | "has_column_privilege"
            | "has_any_column_privilege"
            | "has_function_privilege"
            | "has_sequence_privilege",
            _,
        ) => plain("true".into()),
        ("pg_is_in_recovery" | "pg_relation_is_publishable", _) => plain("false".into()),
        ("to_regtype", 1) => oid_by_name("type", &arg(0)),
        ("to_regclass", 1) => oid_by_name("class", &arg(0)),
        ("pg_get_userbyid", 1) => name_of("role", arg(0)),
        ("pg_encoding_to_char", 1) => plain("'UTF8'".into()),
        // Comments `COMMENT ON` kept (see `sql::comments`), on relations only.
        ("obj_description", 1) => description(&arg(0), "0"),
        ("obj_description", 2) => {
            let relation = description(&arg(0), "0")?;
            from_catalog(format!(
                "CASE WHEN {} = 'pg_class' THEN {} END",
                arg(1),
                relation.expr
            ))
        }
        ("col_description", 2) => description(&arg(0), &arg(1)),
        ("obj_description" | "col_description" | "shobj_description", _) => plain("NULL".into()),
        ("pg_get_expr", 2 | 3) => strict(&args[1..], plain(arg(0))?),
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
        ("pg_get_indexdef" | "pg_get_constraintdef" | "pg_get_viewdef", 1..=3) => {
            strict(&args[1..], name_of("definition", arg(0))?)
        }
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
        ("string_agg", 2) => plain(format!("group_concat({}, {})", arg(0), arg(1))),
        // Aggregates keep their clauses (`ORDER BY`, `DISTINCT`, `FILTER`).
        ("array_agg", 1) => Some(renamed(function, "litewire_array_agg")),
        ("bool_and" | "every", 1) => Some(renamed(function, "min")),
        ("bool_or", 1) => Some(renamed(function, "max")),
        ("json_build_object" | "jsonb_build_object", _) => Some(renamed(function, "json_object")),
        ("json_build_array" | "jsonb_build_array", _) => Some(renamed(function, "json_array")),
        ("array_upper" | "array_length", 2) => plain(format!("litewire_array_length({})", arg(0))),
        ("gen_random_uuid" | "uuid_generate_v4", 0) => plain("gen_random_uuid()".into()),
        _ if schema.is_some_and(|s| is_schema(s, "pg_catalog")) => {
            // `pg_catalog.lower(x)`: the same function, unqualified.
            Some(renamed(function, &name))
        }
        _ => None,
    }
}

/// The rewrite of a strict function whose arguments `unused` (`pretty`, a
/// relation) the rewrite does not need: NULL when one of them is, as in
/// PostgreSQL. A parameter among them stays in the statement, which keeps the
/// parameters the client binds.
fn strict(unused: &[Expr], rewrite: Replacement) -> Option<Replacement> {
    let tests: Vec<String> = unused
        .iter()
        .filter(|e| match e {
            Expr::Value(v) => matches!(v.value, Value::Placeholder(_)),
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

/// Whether `expr` is a condition (PostgreSQL types it boolean).
pub(super) fn is_boolean(expr: &Expr) -> bool {
    match expr {
        Expr::BinaryOp { op, .. } => {
            is_comparison(op) || matches!(op, BinaryOperator::And | BinaryOperator::Or)
        }
        Expr::UnaryOp {
            op: sqlparser::ast::UnaryOperator::Not,
            ..
        }
        | Expr::IsNull(_)
        | Expr::IsNotNull(_)
        | Expr::IsTrue(_)
        | Expr::IsFalse(_)
        | Expr::In { .. }
        | Expr::Between { .. }
        | Expr::Like { .. }
        | Expr::ILike { .. }
        | Expr::Exists { .. } => true,
        Expr::Nested(inner) => is_boolean(inner),
        Expr::Value(v) => matches!(v.value, Value::Boolean(_)),
        _ => false,
    }
}

/// The same call of another function: arguments and clauses are kept.
fn renamed(function: &sqlparser::ast::Function, name: &str) -> Replacement {
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
    let expr = match item {
        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => e.clone(),
        _ => return None,
    };
    *item = SelectItem::ExprWithAlias {
        expr,
        alias: Ident::new("litewire_element"),
    };
    plain(format!(
        "(SELECT litewire_array_agg(litewire_element) FROM ({query}) AS litewire_rows)"
    ))
}
