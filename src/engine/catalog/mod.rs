//! An emulated PostgreSQL catalog, built from the real SQLite schema.
//!
//! psql's backslash commands, drivers and ORMs ask `pg_catalog` and
//! `information_schema` about tables, columns, indexes and types. litewire
//! answers with real relations that ordinary SQL can query: temporary tables
//! (`pg_class`, `pg_attribute`, `pg_index`, `pg_constraint`, ...) on each
//! connection, filled from `sqlite_schema` and the `pragma_table_xinfo`,
//! `pragma_index_list`, `pragma_index_info` and `pragma_foreign_key_list` of every
//! table. They live in the connection's temp database, so nothing is ever written
//! into the user's file, and are refilled only when SQLite's `schema_version`
//! changed since the last time this connection filled them.
//!
//! Object ids: a schema object's oid is 16384 plus its `sqlite_schema` rowid.
//! Primary keys over a rowid alias have no SQLite index; they get a synthetic
//! `t_pkey` index so that `\d t` shows what PostgreSQL would. Constraint ids are
//! derived from the ids of what they belong to.

mod introspect;
mod rows;
mod types;

use std::fmt::Write as _;

use sqlx::{AssertSqlSafe, SqliteConnection};

use super::settings::Settings;
use crate::error::Error;
use crate::sql::COMMENTS_TABLE;
use crate::sql::quote::literal;
use crate::sql::relations::{Contents, Definition, RELATIONS};
pub(super) use introspect::read_columns;
use introspect::read_schema;
use rows::{insert, schema_rows};
use types::TYPES;
pub use types::{format_type, type_modifier, type_oid};

/// Who the session is, for `current_user`, `pg_roles` and `pg_database`.
#[derive(Debug, Clone)]
pub struct SessionIdentity {
    pub user: String,
    pub database: String,
    pub backend_pid: i32,
    /// What the session may do (see `access`).
    pub role: crate::engine::Role,
}

impl Default for SessionIdentity {
    fn default() -> Self {
        SessionIdentity {
            user: "litewire".into(),
            database: "litewire".into(),
            backend_pid: 0,
            role: crate::engine::Role::default(),
        }
    }
}

const FIRST_OID: i64 = 16384;
const SYNTHETIC_INDEX: i64 = 1 << 24;
const CONSTRAINT: i64 = 1 << 25;
const FOREIGN_KEY: i64 = 1 << 26;
const CHECK: i64 = 1 << 27;
/// Enum types: this plus the rowid of their first label's row.
const ENUM_TYPE: i64 = 1 << 29;
/// Enum labels (`pg_enum.oid`): this plus their row's rowid.
const ENUM_LABEL: i64 = 1 << 30;
const ROLE_OID: i64 = 10;
const PUBLIC_NAMESPACE: i64 = 2200;
const DATABASE_OID: i64 = 16383;

/// Brings the catalog tables of this connection up to date with the schema and
/// with the session, creating them on first use.
pub(super) async fn prepare(
    conn: &mut SqliteConnection,
    identity: &SessionIdentity,
    settings: &Settings,
) -> Result<(), Error> {
    let created: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM temp.sqlite_schema WHERE name = 'litewire_catalog_state'",
    )
    .fetch_optional(&mut *conn)
    .await?;
    let mut script = String::from("SAVEPOINT litewire_catalog;\n");
    if created.is_none() {
        create_relations(&mut script);
        static_rows(&mut script);
    }
    let version: i64 = sqlx::query_scalar("PRAGMA main.schema_version")
        .fetch_one(&mut *conn)
        .await?;
    let filled: Option<i64> = match created {
        Some(_) => {
            sqlx::query_scalar("SELECT schema_version FROM temp.litewire_catalog_state")
                .fetch_optional(&mut *conn)
                .await?
        }
        None => None,
    };
    if filled != Some(version) {
        let schema = read_schema(conn).await?;
        schema_rows(&mut script, &schema);
        let _ = writeln!(
            script,
            "DELETE FROM temp.litewire_catalog_state; INSERT INTO temp.litewire_catalog_state VALUES ({version});"
        );
    }
    // Sequences, comments and enum types are rows, not schema: their relations
    // are filled every time.
    let own_tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM main.sqlite_schema WHERE type = 'table' \
         AND name IN ('litewire_sequences', 'litewire_comments', 'litewire_enums')",
    )
    .fetch_all(&mut *conn)
    .await?;
    if own_tables.iter().any(|t| t == "litewire_sequences") {
        script.push_str(&super::sequences::catalog_rows());
    }
    if own_tables.iter().any(|t| t == COMMENTS_TABLE) {
        script.push_str(&comment_rows());
    }
    // So are enum types.
    let enums = own_tables.iter().any(|t| t == "litewire_enums");
    if enums {
        script.push_str(&super::enums::catalog_rows(ENUM_TYPE, ENUM_LABEL));
    }
    session_rows(&mut script, identity, settings);
    script.push_str("RELEASE litewire_catalog;\n");
    sqlx::raw_sql(AssertSqlSafe(script))
        .execute(&mut *conn)
        .await?;
    if enums {
        remember_enums(conn).await?;
    }
    Ok(())
}

/// Reads the file's enum types into what `format_type` and `type_oid` know of
/// them (at startup, after enum DDL, and with the catalog).
pub(super) async fn remember_enums(conn: &mut SqliteConnection) -> Result<(), Error> {
    let made: Option<i64> = sqlx::query_scalar(
        "SELECT 1 FROM main.sqlite_schema WHERE type = 'table' AND name = 'litewire_enums'",
    )
    .fetch_optional(&mut *conn)
    .await?;
    let names: Vec<(i64, String)> = match made {
        Some(_) => {
            sqlx::query_as(AssertSqlSafe(format!(
                "SELECT {ENUM_TYPE} + min(rowid), type FROM main.litewire_enums GROUP BY type"
            )))
            .fetch_all(&mut *conn)
            .await?
        }
        None => Vec::new(),
    };
    types::remember_enums(names);
    Ok(())
}

/// `pg_description`'s rows, from the comments `COMMENT ON` kept (see
/// `sql::comments`): a relation's with `objsubid` 0, a column's with its number.
/// Comments whose object is gone are left out.
fn comment_rows() -> String {
    format!(
        "DELETE FROM temp.pg_description;\n\
         INSERT INTO temp.pg_description SELECT c.oid, 1259, coalesce(a.attnum, 0), m.description \
         FROM main.{COMMENTS_TABLE} m JOIN temp.pg_class c ON c.relname = m.relation COLLATE NOCASE \
         LEFT JOIN temp.pg_attribute a ON m.column_name <> '' AND a.attrelid = c.oid \
         AND a.attname = m.column_name COLLATE NOCASE \
         WHERE m.column_name = '' OR a.attnum IS NOT NULL;\n"
    )
}

fn session_rows(script: &mut String, identity: &SessionIdentity, settings: &Settings) {
    for relation in RELATIONS.iter().filter(|r| r.contents == Contents::Session) {
        let _ = writeln!(script, "DELETE FROM temp.{};", relation.name);
    }
    let user = literal(&identity.user);
    insert(
        script,
        "litewire_session",
        &[
            user.clone(),
            literal(&identity.database),
            identity.backend_pid.to_string(),
        ],
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_roles VALUES ({user}, true, true, true, true, true, true, -1, '********', NULL, true, NULL, {ROLE_OID});"
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_user VALUES ({user}, {ROLE_OID}, true, true, true, true, '********', NULL, NULL);"
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_database VALUES ({DATABASE_OID}, {}, {ROLE_OID}, 6, 'c', false, true, -1, 1663, 'C.UTF-8', 'C.UTF-8', NULL, NULL);",
        literal(&identity.database)
    );
    for (name, value, description) in settings.all() {
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_settings VALUES ({}, {}, NULL, 'litewire', {}, NULL, 'user', 'string', 'session', NULL, NULL, NULL, NULL, NULL, NULL, NULL, false);",
            literal(&name),
            literal(&value),
            literal(description)
        );
    }
}

/// The `pg_type` columns `static_rows` fills (the others keep their defaults).
const PG_TYPE_COLUMNS: &str = "oid, typname, typnamespace, typowner, typlen, typbyval, typtype, typcategory, typispreferred, typisdefined, typdelim, typrelid, typelem, typarray, typbasetype, typtypmod, typndims, typcollation, typdefault, typacl";

fn static_rows(script: &mut String) {
    for (oid, name) in [
        (11, "pg_catalog"),
        (99, "pg_toast"),
        (PUBLIC_NAMESPACE, "public"),
        (13183, "information_schema"),
    ] {
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_namespace VALUES ({oid}, {}, {ROLE_OID}, NULL);",
            literal(name)
        );
    }
    for t in TYPES {
        let collation = if t.category == "S" { 100 } else { 0 };
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_type ({PG_TYPE_COLUMNS}) VALUES ({}, {}, 11, {ROLE_OID}, {}, {}, 'b', {}, false, true, ',', 0, 0, {}, 0, -1, 0, {collation}, NULL, NULL);",
            t.oid,
            literal(t.name),
            t.len,
            t.len > 0 && t.len <= 8,
            literal(t.category),
            t.array
        );
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_type ({PG_TYPE_COLUMNS}) VALUES ({}, {}, 11, {ROLE_OID}, -1, false, 'b', 'A', false, true, ',', 0, {}, 0, 0, -1, 0, {collation}, NULL, NULL);",
            t.array,
            literal(&format!("_{}", t.name)),
            t.oid
        );
    }
    script.push_str(
        "INSERT INTO temp.pg_am VALUES (2, 'heap', 't'), (403, 'btree', 'i');\n\
         INSERT INTO temp.pg_collation VALUES (100, 'default', 11, 'd', 6, NULL, NULL), (950, 'C', 11, 'c', -1, 'C', 'C'), (951, 'POSIX', 11, 'c', -1, 'POSIX', 'POSIX');\n\
         INSERT INTO temp.pg_tablespace VALUES (1663, 'pg_default', 10, NULL, NULL), (1664, 'pg_global', 10, NULL, NULL);\n",
    );
}

/// Creates every catalog relation of the list in the connection's temp schema.
fn create_relations(script: &mut String) {
    for relation in RELATIONS {
        let _ = match relation.definition {
            Definition::Table(columns) => {
                writeln!(script, "CREATE TEMP TABLE {} ({columns});", relation.name)
            }
            Definition::View(body) => {
                writeln!(script, "CREATE TEMP VIEW {} {body};", relation.name)
            }
        };
    }
}
