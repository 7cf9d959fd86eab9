//! Type names as the translation compares them (lower case, without schema or
//! modifiers) and as PostgreSQL prints them (its internal names: `bool`,
//! `int4`, ...).

use sqlparser::ast::DataType;

use crate::sql::syntax_tree::idents;

/// The lower-case name of a type, without its schema and modifiers.
pub(super) fn type_name(data_type: &DataType) -> String {
    let full = match data_type {
        DataType::Custom(name, _) => idents(name).last().cloned().unwrap_or_default(),
        other => other.to_string(),
    };
    let lower = full.to_ascii_lowercase();
    lower.split('(').next().unwrap_or("").trim().to_owned()
}

/// PostgreSQL's own name for a type (`boolean` is `bool`), as it names the
/// column of a cast.
pub(super) fn internal_type_name(name: &str) -> String {
    match name {
        "boolean" => "bool",
        "integer" | "int" => "int4",
        "bigint" => "int8",
        "smallint" => "int2",
        "real" => "float4",
        "double precision" | "double" | "float" => "float8",
        "character varying" => "varchar",
        "character" | "char" => "bpchar",
        "decimal" => "numeric",
        "timestamp with time zone" => "timestamptz",
        other => other,
    }
    .to_owned()
}
