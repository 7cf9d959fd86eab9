//! The schemas made with `CREATE SCHEMA` (see `sql::schemas`) in the
//! catalog: their `pg_namespace` rows, and every row of an object SQLite
//! names `"s.x"` shown as `x` in namespace `s`.
//!
//! The rows are filled under SQLite's names (that is what the fills join
//! on), so a refill first gives `pg_class` its SQLite names back
//! ([`stored_names`]) and names them as PostgreSQL does once all is filled
//! ([`schema_names`]). Each step touches only rows of such schemas.

use super::oids::{PUBLIC_NAMESPACE, ROLE_OID, SCHEMA_NAMESPACES};
use crate::sql::schemas::SCHEMAS_TABLE;

/// `pg_class` under SQLite's names, as the last refill left it.
pub(super) fn stored_names() -> String {
    format!(
        "UPDATE temp.pg_class SET relname = n.nspname || '.' || pg_class.relname, \
         relnamespace = {PUBLIC_NAMESPACE} FROM temp.pg_namespace n \
         WHERE n.oid = pg_class.relnamespace AND n.oid >= {SCHEMA_NAMESPACES};\n"
    )
}

/// The schemas' `pg_namespace` rows, and the catalog's rows of their
/// objects under PostgreSQL's names. Rows named so already (kept from an
/// earlier refill) are left as they are.
pub(super) fn schema_names() -> String {
    let prefixed =
        |column: &str| format!("substr({column}, 1, length(n.nspname) + 1) = n.nspname || '.'");
    let bare = |column: &str| format!("substr({column}, length(n.nspname) + 2)");
    let users = format!("n.oid >= {SCHEMA_NAMESPACES}");
    let mut sql = format!(
        "DELETE FROM temp.pg_namespace WHERE oid >= {SCHEMA_NAMESPACES};\n\
         INSERT INTO temp.pg_namespace SELECT {SCHEMA_NAMESPACES} + rowid, name, {ROLE_OID}, NULL \
         FROM main.{SCHEMAS_TABLE};\n\
         UPDATE temp.pg_class SET relnamespace = n.oid, relname = {} FROM temp.pg_namespace n \
         WHERE {users} AND pg_class.relnamespace = {PUBLIC_NAMESPACE} AND {};\n\
         UPDATE temp.pg_type SET typnamespace = n.oid, typname = {} FROM temp.pg_namespace n \
         WHERE {users} AND pg_type.typnamespace = {PUBLIC_NAMESPACE} AND {};\n\
         UPDATE temp.pg_proc SET pronamespace = n.oid, proname = {} FROM temp.pg_namespace n \
         WHERE {users} AND pg_proc.pronamespace = {PUBLIC_NAMESPACE} AND {};\n\
         UPDATE temp.pg_constraint SET connamespace = c.relnamespace, \
         conname = CASE WHEN {} THEN {} ELSE conname END \
         FROM temp.pg_class c JOIN temp.pg_namespace n ON n.oid = c.relnamespace \
         WHERE {users} AND c.oid = pg_constraint.conrelid AND pg_constraint.connamespace = {PUBLIC_NAMESPACE};\n",
        bare("pg_class.relname"),
        prefixed("pg_class.relname"),
        bare("pg_type.typname"),
        prefixed("pg_type.typname"),
        bare("pg_proc.proname"),
        prefixed("pg_proc.proname"),
        prefixed("pg_constraint.conname"),
        bare("pg_constraint.conname"),
    );
    // The views of the catalog that name a schema in words.
    for (table, names) in [
        ("pg_tables", &["tablename"][..]),
        ("pg_views", &["viewname"]),
        ("pg_matviews", &["matviewname"]),
        ("pg_sequences", &["sequencename"]),
        ("pg_indexes", &["tablename", "indexname"]),
        ("pg_stat_user_tables", &["relname"]),
        ("pg_stat_user_indexes", &["relname", "indexrelname"]),
    ] {
        let first = format!("{table}.{}", names[0]);
        let renamed: Vec<String> = names
            .iter()
            .map(|name| {
                let column = format!("{table}.{name}");
                format!(
                    "{name} = CASE WHEN {} THEN {} ELSE {name} END",
                    prefixed(&column),
                    bare(&column)
                )
            })
            .collect();
        sql.push_str(&format!(
            "UPDATE temp.{table} SET schemaname = n.nspname, {} FROM temp.pg_namespace n \
             WHERE {users} AND {table}.schemaname = 'public' AND {};\n",
            renamed.join(", "),
            prefixed(&first)
        ));
    }
    sql
}
