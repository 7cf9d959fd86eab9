//! The types that literals and casts give a value, named as parameter hints
//! name them.

use sqlparser::ast::{ArrayElemTypeDef, DataType, Value};

use crate::sql::syntax_tree::last_ident;

/// The type of a literal, as PostgreSQL types a constant: an integer that fits
/// is an integer, other numbers numeric, a quoted string (compared with a
/// parameter) text.
pub(super) fn literal_type(value: &Value) -> Option<&'static str> {
    match value {
        Value::Number(digits, _) if digits.parse::<i32>().is_ok() => Some("integer"),
        Value::Number(digits, _) if digits.parse::<i64>().is_ok() => Some("bigint"),
        Value::Number(..) => Some("numeric"),
        Value::SingleQuotedString(_) | Value::EscapedStringLiteral(_) => Some("text"),
        Value::DollarQuotedString(_) => Some("text"),
        Value::Boolean(_) => Some("boolean"),
        _ => None,
    }
}

/// A cast's type as a declared type name (without a schema), or `None` for a
/// type litewire has no PostgreSQL counterpart for in parameters: those that
/// name catalog objects (`regclass`, ...), intervals and types PostgreSQL does
/// not have built in, which drivers then send as text.
pub(super) fn cast_type(data_type: &DataType) -> Option<String> {
    let name = match data_type {
        DataType::Array(
            ArrayElemTypeDef::SquareBracket(element, _) | ArrayElemTypeDef::AngleBracket(element),
        ) => return cast_type(element).map(|name| format!("{name}[]")),
        DataType::Custom(name, modifiers) if modifiers.is_empty() => last_ident(name)?,
        DataType::Custom(name, modifiers) => {
            let modifiers: Vec<String> = modifiers.iter().map(ToString::to_string).collect();
            format!("{}({})", last_ident(name)?, modifiers.join(","))
        }
        other => other.to_string(),
    };
    let base = name.split('(').next()?.trim().to_ascii_lowercase();
    BUILT_IN.contains(&base.as_str()).then_some(name)
}

/// The names of the built-in types a parameter can be decoded as.
const BUILT_IN: &[&str] = &[
    "smallint",
    "int2",
    "integer",
    "int",
    "int4",
    "bigint",
    "int8",
    "real",
    "float4",
    "float",
    "float8",
    "double",
    "double precision",
    "numeric",
    "decimal",
    "boolean",
    "bool",
    "text",
    "varchar",
    "character varying",
    "char",
    "character",
    "bpchar",
    "name",
    "bytea",
    "date",
    "time",
    "time without time zone",
    "timestamp",
    "timestamp without time zone",
    "timestamptz",
    "timestamp with time zone",
    "uuid",
    "json",
    "jsonb",
    "oid",
];
