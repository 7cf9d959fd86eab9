//! Catalog and introspection functions psql and drivers call in their catalog
//! queries: `format_type()`, `pg_size_pretty()`; `litewire_written`, which
//! carries the PostgreSQL text of a stored expression for the catalog to show
//! (see `sql::written`); and `litewire_qualified`, a definition with its names
//! qualified when `public` is not on `search_path` (see
//! `sql::qualified_names`), as a user type's name is by `format_type()`.

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use super::settings::{schema_made, search_path_schemas};
use crate::engine::catalog::types::{format_type, is_domain, is_user_type};
use crate::sql::qualified_names::{FUNCTION as QUALIFIED, shown};
use crate::sql::quote::identifier_as_postgres;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "format_type",
        &["oid", "int4"],
        "text",
        Volatility::Stable,
        format_type_fn,
    ),
    Function::pg(
        "pg_size_pretty",
        &["int8"],
        "text",
        Volatility::Immutable,
        size_pretty,
    ),
    Function::helper(
        crate::sql::written::FUNCTION,
        Args::Fixed(&["any", "text"]),
        Volatility::Immutable,
        first,
    ),
    Function::helper(
        QUALIFIED,
        Args::Fixed(&["text"]),
        Volatility::Stable,
        qualified_fn,
    ),
];

/// Whether the file's relations and types (all in `public`) are found by
/// their bare names on the session's `search_path`.
fn public_visible(call: &Call) -> bool {
    search_path_schemas(call, false).map_or(true, |schemas| schemas.iter().any(|s| s == "public"))
}

/// `litewire_qualified(definition)`.
fn qualified_fn(call: &Call, args: &[Arg]) -> Out {
    let Some(text) = args[0].text() else {
        return Out::Null;
    };
    let qualify = !public_visible(call);
    // Only a name of a schema of the user's (`"s.t"`) has a dot.
    if !qualify && !text.contains('.') {
        return Out::Text(text);
    }
    Out::Text(shown(&text, &|schema| schema_made(call, schema), qualify))
}

/// `litewire_written(value, text)`: the value.
fn first(_: &Call, args: &[Arg]) -> Out {
    match args[0] {
        Arg::Null => Out::Null,
        Arg::Int(i) => Out::Int(i),
        Arg::Real(f) => Out::Real(f),
        Arg::Text(t) => Out::Text(t.to_owned()),
        Arg::Blob(b) => Out::Blob(b.to_vec()),
    }
}

/// `format_type(type_oid, typemod)`; a type of the user's named with its
/// schema when that is not on `search_path`, as PostgreSQL names it.
fn format_type_fn(call: &Call, args: &[Arg]) -> Out {
    let Some(oid) = args[0].int() else {
        return Out::Null;
    };
    let shown = format_type(oid, args[1].int());
    if !(is_user_type(oid) || is_domain(oid)) {
        return Out::Text(shown);
    }
    // A type of a schema of the user's is `schema.name` in the file.
    let (schema, name) = match shown.split_once('.') {
        Some((schema, name)) if schema_made(call, schema) => (schema, name),
        _ => ("public", shown.as_str()),
    };
    let visible = search_path_schemas(call, false)
        .map_or(schema == "public", |path| path.iter().any(|s| s == schema));
    Out::Text(match visible {
        true => identifier_as_postgres(name),
        false => format!(
            "{}.{}",
            identifier_as_postgres(schema),
            identifier_as_postgres(name)
        ),
    })
}

/// `pg_size_pretty(bytes)`, rounding as PostgreSQL does.
fn size_pretty(_: &Call, args: &[Arg]) -> Out {
    let Some(mut size) = args[0].int() else {
        return Out::Null;
    };
    const LIMIT: i64 = 10 * 1024;
    const LIMIT2: i64 = LIMIT * 2 - 1;
    let half_rounded = |x: i64| (x + if x < 0 { -1 } else { 1 }) / 2;
    if size.abs() < LIMIT {
        return Out::Text(format!("{size} bytes"));
    }
    // One extra bit is kept for rounding.
    size >>= 9;
    for unit in ["kB", "MB", "GB", "TB"] {
        if size.abs() < LIMIT2 || unit == "TB" {
            return Out::Text(format!("{} {unit}", half_rounded(size)));
        }
        size >>= 10;
    }
    Out::Null
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::{call, text};
    use super::*;

    #[test]
    fn sizes_round_as_postgres() {
        assert_eq!(text(call(size_pretty, &[Arg::Int(8192)])), "8192 bytes");
        assert_eq!(text(call(size_pretty, &[Arg::Int(16384)])), "16 kB");
        assert_eq!(
            text(call(size_pretty, &[Arg::Int(10 * 1024 * 1024)])),
            "10 MB"
        );
    }
}
