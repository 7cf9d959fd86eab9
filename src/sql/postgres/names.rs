//! The names PostgreSQL gives result columns that have no alias (its
//! `FigureColname`): a column's own name, a function's name, a cast's type
//! name when what is cast has none of its own, `case`, `exists`, `array`, and
//! `?column?` for anything else. Each translated expression carries its name
//! and how strongly it holds it (see `Typed::name`); these are the names of
//! the parts that are not a column.

use sqlparser::ast::{DataType, Function, ObjectNamePart};

use super::types::PgType;

/// A function call's name (its last part, as written, folded to lower case
/// unless quoted).
pub(super) fn function_name(function: &Function) -> String {
    match function.name.0.last() {
        Some(ObjectNamePart::Identifier(ident)) => folded(&ident.value, ident.quote_style),
        _ => "?column?".to_owned(),
    }
}

/// One part of a qualified name as PostgreSQL reads it.
pub(super) fn folded_part(part: &ObjectNamePart) -> String {
    match part {
        ObjectNamePart::Identifier(ident) => folded(&ident.value, ident.quote_style),
        other => other.to_string(),
    }
}

/// An identifier as PostgreSQL stores it: folded to lower case unless quoted.
pub(super) fn folded(value: &str, quote: Option<char>) -> String {
    match quote {
        Some(_) => value.to_owned(),
        None => value.to_ascii_lowercase(),
    }
}

/// The name a cast to `data_type` gives an expression without a name of its
/// own: PostgreSQL's internal name of the type (`int4`, `bool`, `numeric`).
/// A type of the user's is named without its schema (`schemas`).
pub(super) fn cast_name(data_type: &DataType, ty: &PgType, schemas: &[String]) -> String {
    if let Some(name) = ty.name() {
        return name.to_owned();
    }
    let DataType::Custom(name, _) = data_type else {
        return data_type.to_string().to_ascii_lowercase();
    };
    let last = match name.0.last() {
        Some(ObjectNamePart::Identifier(ident)) => folded(&ident.value, ident.quote_style),
        _ => return "?column?".to_owned(),
    };
    // A schema's type is the SQLite name `schema.name` by now.
    without_schema(&last, schemas).to_owned()
}

/// A SQLite name without the schema of the user's (one of `schemas`) it
/// starts with: `mood` of `app.mood` (see `schema_names`).
pub(super) fn without_schema<'a>(stored: &'a str, schemas: &[String]) -> &'a str {
    schemas
        .iter()
        .find_map(|schema| stored.strip_prefix(schema.as_str())?.strip_prefix('.'))
        .unwrap_or(stored)
}
