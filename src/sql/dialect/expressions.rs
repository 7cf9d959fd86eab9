//! Expression rewrites: PostgreSQL casts (`::type`, `::regclass`), operators
//! (`~`, `ILIKE`, `= ANY(...)`, `OPERATOR(pg_catalog.~)`), array constructors and the
//! functions psql and drivers call (see [`super::functions`]), each as the SQLite
//! expression (or catalog lookup, see [`super::catalog_lookups`]) that answers it.

use sqlparser::ast::{
    AccessExpr, BinaryOperator, DataType, Expr, Ident, Subscript, TrimWhereField, Value,
};

use super::catalog_lookups::{name_of, oid_by_name, oid_named, oid_or_lookup, type_alias};
use super::empty_relations::set_is_empty;
use super::functions::{arguments, function_call};
use super::replacement::{Replacement, from_catalog, plain};
use super::schemas::relation_in_schema;
use super::type_names::{internal_type_name, type_name};
use crate::sql::quote::{literal, parse_bool};
use crate::sql::syntax_tree::{idents, is_comparison, is_parameter};

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
        // `pg_policy`, ...) has no rows, whatever it computes.
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

/// Whether `expr` is a cast to a text type (`$1::text`, `name::varchar`):
/// under `::regclass` a name, not an oid.
fn is_text(expr: &Expr) -> bool {
    let expr = match expr {
        Expr::Nested(inner) => inner,
        expr => expr,
    };
    matches!(expr, Expr::Cast { data_type, .. }
        if matches!(type_name(data_type).as_str(), "text" | "varchar" | "character varying" | "name"))
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
        // A parameter or a text is a name to look up, as a literal is; a
        // column an oid to name.
        "regclass" => Some(match literal {
            Some(text) => oid_or_lookup(&text, "class")?,
            None if is_parameter(inner) || is_text(inner) => {
                oid_by_name("class", &inner.to_string())?
            }
            // A function's text (`pg_get_serial_sequence(...)::regclass`):
            // the relation as regclass shows it, `public` left out.
            None if matches!(inner, Expr::Function(_)) => plain(format!(
                "(SELECT CASE WHEN lower(litewire_n) LIKE 'public.%' THEN substr(litewire_n, 8) \
                 ELSE litewire_n END FROM (SELECT {inner} AS litewire_n))"
            ))?,
            None => name_of("class", inner)?,
        }),
        "regtype" => Some(match literal {
            Some(text) => oid_or_lookup(&text, "type")?,
            None if is_parameter(inner) || is_text(inner) => {
                oid_by_name("type", &inner.to_string())?
            }
            None => plain(format!("format_type({inner}, NULL)"))?,
        }),
        // A schema or a role by name, as `regclass`; a column of oids is
        // shown by name.
        "regnamespace" | "regrole" => {
            let kind = if name == "regrole" {
                "role"
            } else {
                "namespace"
            };
            match literal {
                Some(text) => oid_or_lookup(&text, kind),
                None if is_parameter(inner) || is_text(inner) => {
                    oid_named(kind, &inner.to_string())
                }
                None => name_of(kind, inner),
            }
        }
        "regproc" | "regprocedure" | "regoper" => plain(format!("CAST({inner} AS TEXT)")),
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
        // `'{int,int8}'::regtype[]`: the array of their oids.
        _ if data_type_is_array(data_type)
            && let Some(text) = &literal
            && let kind @ ("type" | "class") =
                match type_name(data_type).trim_end_matches("[]").trim() {
                    "regtype" => "type",
                    "regclass" => "class",
                    _ => "",
                } =>
        {
            reg_array(text, kind)
        }
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

/// `'{a,b}'::regtype[]` (or `regclass[]`): the array of the oids the names
/// name (0 for a name that names nothing), built when the statement runs.
fn reg_array(text: &str, kind: &str) -> Option<Replacement> {
    let inner = text.trim().strip_prefix('{')?.strip_suffix('}')?;
    let mut parts = Vec::new();
    for name in inner.split(',').map(|n| n.trim().trim_matches('"')) {
        let name = match kind {
            "type" => type_alias(name),
            _ => name,
        };
        let oid = oid_by_name(kind, &literal(name))?;
        parts.push(format!("coalesce({}, 0)", oid.expr));
    }
    from_catalog(format!(
        "('{{' || {} || '}}')",
        match parts.is_empty() {
            true => "''".to_owned(),
            false => parts.join(" || ',' || "),
        }
    ))
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
    // A catalog boolean compared with a boolean's text (`indisprimary =
    // 'f'`): the text as the boolean it spells (the column holds 1 or 0).
    if matches!(op, BinaryOperator::Eq | BinaryOperator::NotEq) {
        for (column, value) in [(left, right), (right, left)] {
            if is_boolean_column(column)
                && let Some(Some(truth)) = string_literal(value).as_deref().map(parse_bool)
            {
                let op = if *op == BinaryOperator::Eq { "=" } else { "<>" };
                return plain(format!("{column} {op} {truth}"));
            }
        }
    }
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

/// Whether `expr` names a column that every catalog relation having one of
/// that name declares `boolean`.
fn is_boolean_column(expr: &Expr) -> bool {
    let name = match expr {
        Expr::Identifier(ident) => &ident.value,
        Expr::CompoundIdentifier(parts) => match parts.last() {
            Some(ident) => &ident.value,
            None => return false,
        },
        _ => return false,
    };
    let mut types = crate::sql::relations::all().filter_map(|r| r.column_type(name));
    let mut any = false;
    let all = types.all(|ty| {
        any = true;
        ty == "boolean"
    });
    any && all
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
