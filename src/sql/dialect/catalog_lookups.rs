//! Catalog objects looked up in SQL, by name or by oid: what `::regclass`,
//! `::regtype`, `to_regclass()`, `pg_get_userbyid()` and the `pg_get_*def()`
//! functions become. Each kind of object is read from the one catalog relation
//! that has it.

use super::replacement::{Replacement, from_catalog, plain};
use super::system_columns::relation_oid;
use crate::sql::quote::literal;

/// `'16384'::regclass` is an oid; `'t'::regclass` the oid of relation `t`.
pub(super) fn oid_or_lookup(text: &str, kind: &str) -> Option<Replacement> {
    if let Ok(oid) = text.trim().parse::<i64>() {
        return plain(oid.to_string());
    }
    let name = match kind {
        // As SQLite names it: `app.t` for `t` of schema `app` (see
        // `schema_names`), `t` for `public.t`.
        "class" => super::sequences::relation_name(text)?,
        "type" => type_alias(text.rsplit('.').next().unwrap_or(text).trim_matches('"')).to_owned(),
        _ => text
            .rsplit('.')
            .next()
            .unwrap_or(text)
            .trim_matches('"')
            .to_owned(),
    };
    // A catalog relation is no row of `pg_class`, but has its oid.
    if kind == "class"
        && let Some(oid) = relation_oid(&name)
    {
        return plain(oid.to_string());
    }
    oid_named(kind, &literal(&name))
}

/// A `pg_class` row's name as SQLite knows the relation: qualified with its
/// schema unless that is `pg_catalog` or `public` (a schema of the user's:
/// see `schema_names`; `information_schema.tables`).
const STORED_RELNAME: &str = "CASE WHEN relnamespace IN (11, 2200) THEN relname \
     ELSE (SELECT nspname FROM pg_namespace WHERE oid = relnamespace) || '.' || relname END";

/// A type's other names that are neither its `typname` nor its SQL name
/// (`format_type`'s), as `regtype` reads them.
pub(super) fn type_alias(name: &str) -> &str {
    match name.to_ascii_lowercase().as_str() {
        "int" => "int4",
        "float" => "float8",
        "decimal" => "numeric",
        "char" | "character" => "bpchar",
        _ => name,
    }
}

/// The oid of the object of `kind` whose name is the SQL expression `name`.
pub(super) fn oid_named(kind: &str, name: &str) -> Option<Replacement> {
    from_catalog(format!(
        "(SELECT litewire_oid FROM {} WHERE litewire_name = {name})",
        named(kind)?
    ))
}

/// The objects of `kind` as a relation of `litewire_oid` and `litewire_name`
/// (or definition), read from the one catalog relation that has them. Its
/// columns are all `litewire_*`, so that an unqualified column in a condition
/// on it (psql writes `pg_get_constraintdef(oid)`) still refers to the outer
/// query; and it is one relation, not a union of them all, because SQLx's type
/// inference of a whole statement walks every branch of what it reads.
pub(super) fn named(kind: &str) -> Option<String> {
    let (oid, name, relation) = match kind {
        "class" => ("oid", STORED_RELNAME, "pg_class"),
        "namespace" => ("oid", "nspname", "pg_namespace"),
        "role" => ("oid", "rolname", "pg_roles"),
        "type" => ("oid", "typname", "pg_type"),
        "proc" => ("oid", "proname", "pg_proc"),
        "definition" => ("oid", "definition", "litewire_definitions"),
        "column" => ("attrelid * 10000 + attnum", "attname", "pg_attribute"),
        "storage" => ("oid", "name", "litewire_storage"),
        "function result" => ("oid", "result", "litewire_signatures"),
        "function arguments" => ("oid", "arguments", "litewire_signatures"),
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
pub(super) fn oid_by_name(kind: &str, name: &str) -> Option<Replacement> {
    // A quoted identifier (`'"books"'::regclass`, as ActiveRecord writes
    // one) is its name.
    let unquoted = format!("replace({name}, '\"', '')");
    let name = unquoted.as_str();
    // Read through subqueries whose columns are all `litewire_*` (see
    // [`named`]), with `name` unqualified once.
    let (names, relation) = match kind {
        "type" => (
            "typname AS litewire_name, format_type(oid, NULL) AS litewire_sql_name",
            "pg_type",
        ),
        _ => {
            // A catalog relation has its oid whether or not the catalog
            // made its row yet.
            return from_catalog(format!(
                "(SELECT coalesce((SELECT litewire_oid FROM (SELECT oid AS litewire_oid, lower({}) AS litewire_name FROM pg_class) \
                 WHERE litewire_wanted = litewire_name), {}) FROM \
                 (SELECT lower(CASE WHEN lower({name}) LIKE 'public.%' OR lower({name}) LIKE 'pg\\_catalog.%' ESCAPE '\\' \
                 THEN substr({name}, instr({name}, '.') + 1) ELSE {name} END) AS litewire_wanted))",
                STORED_RELNAME,
                super::system_columns::relation_oid_named("litewire_wanted")
            ));
        }
    };
    from_catalog(format!(
        "(SELECT litewire_oid FROM (SELECT oid AS litewire_oid, {names} FROM {relation}), (SELECT lower(CASE WHEN instr({name}, '.') > 0 THEN substr({name}, instr({name}, '.') + 1) ELSE {name} END) AS litewire_wanted) WHERE litewire_wanted IN (litewire_name, litewire_sql_name))"
    ))
}

/// The name (or definition) of the catalog object of `kind` with oid `oid`.
pub(super) fn name_of(kind: &str, oid: impl std::fmt::Display) -> Option<Replacement> {
    from_catalog(format!(
        "(SELECT litewire_name FROM {} WHERE litewire_oid = {oid})",
        named(kind)?
    ))
}

/// An object's oid by its name as `to_regproc()`, `to_regnamespace()` and
/// `to_regrole()` read one: a schema qualifier and quotes left out, the case
/// ignored; NULL for none.
pub(super) fn oid_by_plain_name(kind: &str, name: &str) -> Option<Replacement> {
    from_catalog(format!(
        "(SELECT litewire_oid FROM {}, (SELECT lower(trim(CASE WHEN instr({name}, '.') > 0 \
         THEN substr({name}, instr({name}, '.') + 1) ELSE {name} END, '\"')) AS litewire_wanted) \
         WHERE lower(litewire_name) = litewire_wanted ORDER BY litewire_oid LIMIT 1)",
        named(kind)?
    ))
}

/// The text a `reg*` oid shows as (`regclassout()` and kin): the object's
/// name, `-` for 0, and the number for an oid that names nothing. The oid is
/// read once, as `litewire_reg`.
pub(super) fn reg_output(kind: &str, oid: &str) -> Option<Replacement> {
    let name = match kind {
        "class" => format!(
            "coalesce((SELECT litewire_name FROM (SELECT oid AS litewire_oid, \
             CASE WHEN relnamespace IN (11, 2200) THEN quote_ident(relname) \
             ELSE quote_ident((SELECT nspname FROM pg_namespace WHERE oid = relnamespace)) || '.' || quote_ident(relname) END \
             AS litewire_name FROM pg_class) WHERE litewire_oid = litewire_reg), {})",
            super::system_columns::relation_named("litewire_reg")
        ),
        "type" => "(SELECT format_type(litewire_oid, NULL) FROM (SELECT oid AS litewire_oid FROM pg_type) \
             WHERE litewire_oid = litewire_reg)"
            .to_owned(),
        "proc" => format!(
            "(SELECT litewire_name FROM {} WHERE litewire_oid = litewire_reg)",
            named("proc")?
        ),
        "namespace" | "role" => format!(
            "(SELECT quote_ident(litewire_name) FROM {} WHERE litewire_oid = litewire_reg)",
            named(kind)?
        ),
        _ => return None,
    };
    from_catalog(format!(
        "(SELECT CASE WHEN litewire_reg IS NULL THEN NULL WHEN litewire_reg = 0 THEN '-' \
         ELSE coalesce({name}, CAST(litewire_reg AS TEXT)) END FROM (SELECT {oid} AS litewire_reg))"
    ))
}
