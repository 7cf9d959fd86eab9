//! Filling the emulated catalog: the relations made on a connection's first
//! catalog query, the rows that never change (namespaces, types, functions),
//! the rows read from the schema when it changed, and the rows of the session
//! and of litewire's own tables (sequences, comments, enum types) every time.

use std::fmt::Write as _;

use sqlx::{AssertSqlSafe, SqliteConnection};

use super::activity_rows::{DatabaseStats, catalog_rows as activity_rows, database_row, timestamp};
use super::domain_types;
use super::enum_types::{catalog_rows as enum_rows, remember_enums};
use super::function_rows::catalog_rows as function_rows;
use super::introspect::read_schema;
use super::oids::{
    DATABASE_OID, DATABASE_OWNER_ROLE, ENUM_LABEL, ENUM_TYPE, EXTENSION_OIDS, NAMESPACES,
    PUBLIC_NAMESPACE, ROLE_OID,
};
use super::partition_rows::read_partitions;
use super::rows::insert;
use super::schema_namespaces::{schema_names, stored_names};
use super::schema_rows::schema_rows;
use super::sequence_rows::catalog_rows as sequence_rows;
use super::statement_rows::{StatementsView, catalog_rows as statement_rows};
use super::system_relations;
use super::table_stat_rows::catalog_rows as table_stat_rows;
use super::time_zone_rows;
use super::type_functions;
use super::types::{BTREE_OPCLASSES, TYPES, remember_domains, storage_of};
use crate::engine::backends::BackendRow;
use crate::engine::functions;
use crate::engine::identity::SessionIdentity;
use crate::engine::locks::{AdvisoryKey, LockRow};
use crate::engine::settings::Settings;
use crate::engine::table_stats::Changes;
use crate::error::Error;
use crate::sql::COMMENTS_TABLE;
use crate::sql::extensions::{EXTENSIONS, EXTENSIONS_TABLE};
use crate::sql::matviews::MATVIEWS_TABLE;
use crate::sql::quote::literal;
use crate::sql::relations::{self, Contents, Definition, RELATIONS};
use crate::sql::routines::FUNCTIONS_TABLE;
use crate::sql::schemas::SCHEMAS_TABLE;

/// Brings the catalog tables of this connection up to date with the schema and
/// with the session, creating them on first use.
pub(in crate::engine) async fn prepare(
    conn: &mut SqliteConnection,
    session: &SessionView,
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
    let own_tables: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM main.sqlite_schema WHERE type = 'table' \
         AND name IN ('litewire_sequences', 'litewire_comments', 'litewire_enums', \
         'litewire_extensions', 'litewire_matviews', 'litewire_schemas', 'litewire_functions', \
         'litewire_domains')",
    )
    .fetch_all(&mut *conn)
    .await?;
    let schemas = own_tables.iter().any(|t| t == SCHEMAS_TABLE);
    if schemas && created.is_some() {
        script.push_str(&stored_names());
    }
    if filled != Some(version) {
        let schema = read_schema(conn).await?;
        let names: Vec<String> = match schemas {
            true => {
                sqlx::query_scalar("SELECT name FROM main.litewire_schemas")
                    .fetch_all(&mut *conn)
                    .await?
            }
            false => Vec::new(),
        };
        let partitions = read_partitions(conn).await?;
        schema_rows(&mut script, &schema, &names, &partitions);
        let _ = writeln!(
            script,
            "DELETE FROM temp.litewire_catalog_state; INSERT INTO temp.litewire_catalog_state VALUES ({version});"
        );
    }
    session_rows(&mut script, session);
    // Sequences, comments and enum types are rows, not schema: their relations
    // are filled every time (after the session's, which name their owner).
    if own_tables.iter().any(|t| t == "litewire_sequences") {
        script.push_str(&sequence_rows());
    }
    if own_tables.iter().any(|t| t == COMMENTS_TABLE) {
        script.push_str(&comment_rows());
    }
    if own_tables.iter().any(|t| t == EXTENSIONS_TABLE) {
        script.push_str(&extension_rows());
    }
    if own_tables.iter().any(|t| t == MATVIEWS_TABLE) {
        script.push_str(&matview_rows());
    }
    if own_tables.iter().any(|t| t == FUNCTIONS_TABLE) {
        script.push_str(&function_rows(conn).await?);
    }
    // So are enum types.
    let enums = own_tables.iter().any(|t| t == "litewire_enums");
    if enums {
        script.push_str(&enum_rows(ENUM_TYPE, ENUM_LABEL));
    }
    let domains = match domain_types::kept(&own_tables) {
        true => {
            let (rows, names) = domain_types::catalog_rows(conn).await?;
            script.push_str(&rows);
            Some(names)
        }
        false => None,
    };
    if schemas {
        script.push_str(&schema_names());
    }
    script.push_str("RELEASE litewire_catalog;\n");
    sqlx::raw_sql(AssertSqlSafe(script))
        .execute(&mut *conn)
        .await?;
    if enums {
        remember_enums(conn).await?;
    }
    if let Some(names) = domains {
        remember_domains(names);
    }
    Ok(())
}

/// The installed extensions' `pg_extension` rows (after the built-in ones),
/// from the table `CREATE EXTENSION` keeps them in (see `sql::extensions`).
fn extension_rows() -> String {
    let first = EXTENSION_OIDS + EXTENSIONS.len() as i64;
    format!(
        "DELETE FROM temp.pg_extension WHERE oid >= {first};\n\
         INSERT INTO temp.pg_extension SELECT {first} + e.rowid, e.name, {ROLE_OID}, {PUBLIC_NAMESPACE}, \
         true, e.version, NULL, NULL FROM main.{EXTENSIONS_TABLE} e;\n"
    )
}

/// `pg_matviews`' rows, from the definitions `CREATE MATERIALIZED VIEW`
/// keeps (see `sql::matviews`), whether populated or not.
fn matview_rows() -> String {
    format!(
        "DELETE FROM temp.pg_matviews;\n\
         INSERT INTO temp.pg_matviews SELECT 'public', m.name, (SELECT user_name FROM temp.litewire_session), \
         NULL, EXISTS (SELECT 1 FROM main.sqlite_schema i WHERE i.type = 'index' AND i.tbl_name = m.name COLLATE NOCASE), \
         m.populated <> 0, m.definition FROM main.{MATVIEWS_TABLE} m \
         WHERE EXISTS (SELECT 1 FROM main.sqlite_schema t WHERE t.type = 'table' AND t.name = m.name COLLATE NOCASE);\n"
    )
}

/// `pg_description`'s rows, from the comments `COMMENT ON` kept (see
/// `sql::comments`): a relation's with `objsubid` 0, a column's with its number.
/// Comments whose object is gone are left out.
fn comment_rows() -> String {
    format!(
        "DELETE FROM temp.pg_description WHERE classoid = 1259;\n\
         INSERT INTO temp.pg_description SELECT c.oid, 1259, coalesce(a.attnum, 0), m.description \
         FROM main.{COMMENTS_TABLE} m JOIN temp.pg_class c ON c.relname = m.relation COLLATE NOCASE \
         LEFT JOIN temp.pg_attribute a ON m.column_name <> '' AND a.attrelid = c.oid \
         AND a.attname = m.column_name COLLATE NOCASE \
         WHERE m.column_name = '' OR a.attnum IS NOT NULL;\n"
    )
}

/// What the catalog shows of the session that asks: who it is, its settings,
/// the locks held and waited for and the live sessions (everyone's).
pub(in crate::engine) struct SessionView {
    pub(in crate::engine) identity: SessionIdentity,
    pub(in crate::engine) settings: Settings,
    pub(in crate::engine) locks: Vec<LockRow>,
    /// Every live session (`pg_stat_activity`), and who waits in the lock table.
    pub(in crate::engine) backends: Vec<BackendRow>,
    pub(in crate::engine) waits: Vec<(i32, &'static str)>,
    pub(in crate::engine) database: DatabaseStats,
    /// The statement and table counts, for a statement that reads them.
    pub(in crate::engine) statements: Option<StatementsView>,
    pub(in crate::engine) tables: Option<Vec<(String, Changes)>>,
}

fn session_rows(script: &mut String, session: &SessionView) {
    let (identity, settings) = (&session.identity, &session.settings);
    for relation in RELATIONS.iter().filter(|r| r.contents == Contents::Session) {
        let _ = writeln!(script, "DELETE FROM temp.{};", relation.name);
    }
    lock_rows(script, &session.locks);
    activity_rows(script, &session.backends, &session.waits, identity);
    database_row(script, &session.database, &identity.database);
    if let Some(statements) = &session.statements {
        statement_rows(script, statements, identity);
    }
    if let Some(tables) = &session.tables {
        table_stat_rows(script, tables);
    }
    let user = literal(&identity.user);
    insert(
        script,
        "litewire_session",
        &[
            user.clone(),
            literal(&identity.database),
            identity.backend_pid.to_string(),
            literal(identity.role.as_str()),
        ],
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_roles VALUES ({user}, true, true, true, true, true, true, -1, '********', NULL, true, NULL, {ROLE_OID}), \
         ('pg_database_owner', false, true, false, false, false, false, -1, '********', NULL, false, NULL, {DATABASE_OWNER_ROLE});"
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_user VALUES ({user}, {ROLE_OID}, true, true, true, true, '********', NULL, NULL);"
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_database VALUES ({DATABASE_OID}, {}, {ROLE_OID}, 6, 'c', false, true, -1, 0, 1, 1663, 'C.UTF-8', 'C.UTF-8', NULL, NULL, NULL);",
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

/// `pg_locks`: advisory locks as PostgreSQL shows them (`classid`, `objid`
/// and `objsubid` spell the key: a `bigint`'s high and low halves with 1, two
/// `int`s with 2), and the database's write permit as an object lock on the
/// database (`pg_database`'s class, the database's oid).
fn lock_rows(script: &mut String, locks: &[LockRow]) {
    const PG_DATABASE_CLASS: i64 = 1262;
    for lock in locks {
        let (locktype, classid, objid, objsubid) = match lock.advisory {
            Some(AdvisoryKey::Big(key)) => {
                ("advisory", (key >> 32) as u32 as i64, key as u32 as i64, 1)
            }
            Some(AdvisoryKey::Pair(a, b)) => ("advisory", a as u32 as i64, b as u32 as i64, 2),
            None => ("object", PG_DATABASE_CLASS, DATABASE_OID, 0),
        };
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_locks VALUES ('{locktype}', {DATABASE_OID}, NULL, NULL, NULL, NULL, NULL, {classid}, {objid}, {objsubid}, '{pid}/1', {pid}, '{mode}', {granted}, false, {waitstart});",
            pid = lock.pid,
            mode = lock.mode,
            granted = lock.granted,
            waitstart = timestamp(lock.waitstart),
        );
    }
}

/// The `pg_type` columns `static_rows` fills (the others keep their defaults).
const PG_TYPE_COLUMNS: &str = "oid, typname, typnamespace, typowner, typlen, typbyval, typtype, typcategory, typispreferred, typisdefined, typdelim, typrelid, typelem, typarray, typbasetype, typtypmod, typndims, typcollation, typdefault, typacl, typstorage, typinput, typoutput, typreceive, typsend, typmodin, typmodout, typanalyze, typsubscript";

/// A type's functions as `PG_TYPE_COLUMNS`' last values.
fn functions_of(oid: i64) -> String {
    let oids: Vec<String> = type_functions::of_type(oid)
        .iter()
        .map(i64::to_string)
        .collect();
    oids.join(", ")
}

fn static_rows(script: &mut String) {
    for (i, (name, version)) in EXTENSIONS.iter().enumerate() {
        // plpgsql lives in pg_catalog, the others in public.
        let namespace = match *name {
            "plpgsql" => 11,
            _ => PUBLIC_NAMESPACE,
        };
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_extension VALUES ({oid}, {}, {ROLE_OID}, {namespace}, {}, {}, NULL, NULL);",
            literal(name),
            namespace != 11,
            literal(version),
            oid = EXTENSION_OIDS + i as i64,
        );
    }
    for &(oid, name) in NAMESPACES {
        // As initdb leaves it: `public` belongs to `pg_database_owner` and
        // has its comment (`pg_dump` writes neither unless they changed).
        let owner = if oid == PUBLIC_NAMESPACE {
            DATABASE_OWNER_ROLE
        } else {
            ROLE_OID
        };
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_namespace VALUES ({oid}, {}, {owner}, NULL);",
            literal(name)
        );
    }
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_description VALUES ({PUBLIC_NAMESPACE}, 2615, 0, 'standard public schema');"
    );
    script.push_str(&functions::catalog_rows());
    type_functions::catalog_rows(script);
    system_relations::catalog_rows(script);
    time_zone_rows::catalog_rows(script);
    for t in TYPES {
        let collation = if t.category == "S" { 100 } else { 0 };
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_type ({PG_TYPE_COLUMNS}) VALUES ({}, {}, 11, {ROLE_OID}, {}, {}, 'b', {}, false, true, ',', 0, 0, {}, 0, -1, 0, {collation}, NULL, NULL, {}, {});",
            t.oid,
            literal(t.name),
            t.len,
            t.len > 0 && t.len <= 8,
            literal(t.category),
            t.array,
            literal(storage_of(t.oid).1),
            functions_of(t.oid),
        );
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_type ({PG_TYPE_COLUMNS}) VALUES ({}, {}, 11, {ROLE_OID}, -1, false, 'b', 'A', false, true, ',', 0, {}, 0, 0, -1, 0, {collation}, NULL, NULL, 'x', {});",
            t.array,
            literal(&format!("_{}", t.name)),
            t.oid,
            functions_of(t.array),
        );
    }
    for (oid, name, ty) in BTREE_OPCLASSES {
        // opcfamily: PostgreSQL's families have oids of their own; the class's
        // stands for it.
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_opclass VALUES ({oid}, 403, {}, 11, {ROLE_OID}, {oid}, {ty}, true, 0);",
            literal(name)
        );
    }
    script.push_str(
        "INSERT INTO temp.pg_am VALUES (2, 'heap', 'heap_tableam_handler', 't'), (403, 'btree', 'bthandler', 'i');\n\
         INSERT INTO temp.pg_language VALUES (12, 'internal', 10, false, false, 0, 0, 2246, NULL), (13, 'c', 10, false, false, 0, 0, 2247, NULL), (14, 'sql', 10, false, true, 0, 0, 2248, NULL), (13563, 'plpgsql', 10, true, true, 13560, 13561, 13562, NULL);\n\
         INSERT INTO temp.pg_collation VALUES (100, 'default', 11, 10, 'd', true, -1, NULL, NULL, NULL, NULL), (950, 'C', 11, 10, 'c', true, -1, 'C', 'C', NULL, NULL), (951, 'POSIX', 11, 10, 'c', true, -1, 'POSIX', 'POSIX', NULL, NULL);\n\
         INSERT INTO temp.pg_tablespace VALUES (1663, 'pg_default', 10, NULL, NULL), (1664, 'pg_global', 10, NULL, NULL);\n",
    );
}

/// Creates every catalog relation of the list in the connection's temp schema.
fn create_relations(script: &mut String) {
    for relation in relations::all() {
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
