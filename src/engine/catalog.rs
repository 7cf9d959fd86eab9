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

use std::fmt::Write as _;

use sqlx::{AssertSqlSafe, Row, SqliteConnection};

use super::settings::Settings;
use crate::error::Error;

/// Who the session is, for `current_user`, `pg_roles` and `pg_database`.
#[derive(Debug, Clone)]
pub struct SessionIdentity {
    pub user: String,
    pub database: String,
    pub backend_pid: i32,
}

impl Default for SessionIdentity {
    fn default() -> Self {
        SessionIdentity {
            user: "litewire".into(),
            database: "litewire".into(),
            backend_pid: 0,
        }
    }
}

const FIRST_OID: i64 = 16384;
const SYNTHETIC_INDEX: i64 = 1 << 24;
const CONSTRAINT: i64 = 1 << 25;
const FOREIGN_KEY: i64 = 1 << 26;
const CHECK: i64 = 1 << 27;
const ROLE_OID: i64 = 10;
const PUBLIC_NAMESPACE: i64 = 2200;
const DATABASE_OID: i64 = 16383;

/// A PostgreSQL type: oid, `typname`, the name `format_type` prints, length,
/// category, array type.
struct PgType {
    oid: i64,
    name: &'static str,
    display: &'static str,
    len: i64,
    category: &'static str,
    array: i64,
}

const fn ty(
    oid: i64,
    name: &'static str,
    display: &'static str,
    len: i64,
    category: &'static str,
    array: i64,
) -> PgType {
    PgType {
        oid,
        name,
        display,
        len,
        category,
        array,
    }
}

const TYPES: &[PgType] = &[
    ty(16, "bool", "boolean", 1, "B", 1000),
    ty(17, "bytea", "bytea", -1, "U", 1001),
    ty(18, "char", "\"char\"", 1, "Z", 1002),
    ty(19, "name", "name", 64, "S", 1003),
    ty(20, "int8", "bigint", 8, "N", 1016),
    ty(21, "int2", "smallint", 2, "N", 1005),
    ty(23, "int4", "integer", 4, "N", 1007),
    ty(25, "text", "text", -1, "S", 1009),
    ty(26, "oid", "oid", 4, "N", 1028),
    ty(114, "json", "json", -1, "U", 199),
    ty(700, "float4", "real", 4, "N", 1021),
    ty(701, "float8", "double precision", 8, "N", 1022),
    ty(1042, "bpchar", "character", -1, "S", 1014),
    ty(1043, "varchar", "character varying", -1, "S", 1015),
    ty(1082, "date", "date", 4, "D", 1182),
    ty(1083, "time", "time without time zone", 8, "D", 1183),
    ty(
        1114,
        "timestamp",
        "timestamp without time zone",
        8,
        "D",
        1115,
    ),
    ty(
        1184,
        "timestamptz",
        "timestamp with time zone",
        8,
        "D",
        1185,
    ),
    ty(1186, "interval", "interval", 16, "T", 1187),
    ty(1700, "numeric", "numeric", -1, "N", 1231),
    ty(2950, "uuid", "uuid", 16, "U", 2951),
    ty(3802, "jsonb", "jsonb", -1, "U", 3807),
];

/// The PostgreSQL type oid a SQLite declared type names, by PostgreSQL's names
/// first and SQLite's affinity rules for everything else. An empty declaration
/// (SQLite's "any") is text.
pub fn type_oid(decl: &str) -> i64 {
    // Every result column's type goes through here on every execution: lower-case
    // the name on the stack, not in a new String.
    let name = decl.split('(').next().unwrap_or("").trim();
    let mut buf = [0u8; 32];
    let Some(bytes) = buf.get_mut(..name.len()) else {
        return affinity_oid(&name.to_ascii_lowercase());
    };
    bytes.copy_from_slice(name.as_bytes());
    bytes.make_ascii_lowercase();
    match std::str::from_utf8(bytes) {
        Ok(base) => affinity_oid(base),
        Err(_) => affinity_oid(&name.to_ascii_lowercase()),
    }
}

/// The oid for a lower-case type name without modifiers.
fn affinity_oid(base: &str) -> i64 {
    match base {
        "int" | "integer" | "int4" | "mediumint" | "serial" | "serial4" => 23,
        "bigint" | "int8" | "bigserial" | "serial8" => 20,
        "smallint" | "int2" | "tinyint" | "smallserial" | "serial2" => 21,
        "real" | "double" | "double precision" | "float" | "float8" => 701,
        "float4" => 700,
        "bool" | "boolean" => 16,
        "text" | "clob" | "" => 25,
        "varchar" | "character varying" | "nvarchar" | "varying character" | "native character" => {
            1043
        }
        "char" | "character" | "bpchar" | "nchar" => 1042,
        "blob" | "bytea" => 17,
        "numeric" | "decimal" => 1700,
        "date" => 1082,
        "time" | "time without time zone" => 1083,
        "timestamp" | "datetime" | "timestamp without time zone" => 1114,
        "timestamptz" | "timestamp with time zone" => 1184,
        "interval" => 1186,
        "uuid" => 2950,
        "json" => 114,
        "jsonb" => 3802,
        "oid" => 26,
        "name" => 19,
        _ if base.contains("int") => 20,
        _ if base.contains("char") || base.contains("clob") || base.contains("text") => 25,
        _ if base.contains("real") || base.contains("floa") || base.contains("doub") => 701,
        _ if base.contains("blob") => 17,
        _ => 1700,
    }
}

/// PostgreSQL's `atttypmod` for a declared type: `varchar(n)` is n + 4,
/// `numeric(p, s)` is ((p << 16) | s) + 4, anything else -1.
pub fn type_modifier(decl: &str) -> i64 {
    let Some((_, args)) = decl.split_once('(') else {
        return -1;
    };
    let numbers: Vec<i64> = args
        .trim_end_matches(')')
        .split(',')
        .filter_map(|n| n.trim().parse().ok())
        .collect();
    match (type_oid(decl), numbers.as_slice()) {
        (1043 | 1042, [n]) => n + 4,
        (1700, [p]) => (p << 16) + 4,
        (1700, [p, s]) => ((p << 16) | s) + 4,
        _ => -1,
    }
}

/// `format_type(oid, typmod)`: the SQL name of a type, with its modifier.
pub fn format_type(oid: i64, typmod: Option<i64>) -> String {
    let Some(t) = TYPES.iter().find(|t| t.oid == oid) else {
        return match TYPES.iter().find(|t| t.array == oid) {
            Some(element) => format!("{}[]", element.display),
            None => "???".to_owned(),
        };
    };
    let modifier = typmod.filter(|m| *m >= 4).map(|m| m - 4);
    match (oid, modifier) {
        (1043 | 1042, Some(n)) => format!("{}({n})", t.display),
        (1700, Some(m)) => format!("numeric({},{})", m >> 16, m & 0xffff),
        _ => t.display.to_owned(),
    }
}

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
        script.push_str(CREATE_TABLES);
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
    session_rows(&mut script, identity, settings);
    script.push_str("RELEASE litewire_catalog;\n");
    sqlx::raw_sql(AssertSqlSafe(script))
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// One SQLite schema object and, for tables, its columns, indexes and keys.
struct Object {
    rowid: i64,
    kind: String,
    name: String,
    sql: Option<String>,
    columns: Vec<ColumnInfo>,
    indexes: Vec<IndexInfo>,
    foreign_keys: Vec<ForeignKey>,
}

struct ColumnInfo {
    name: String,
    decl: String,
    not_null: bool,
    default: Option<String>,
    pk: i64,
    hidden: i64,
}

struct IndexInfo {
    name: String,
    unique: bool,
    origin: String,
    partial: bool,
    columns: Vec<String>,
}

struct ForeignKey {
    id: i64,
    table: String,
    from: Vec<String>,
    to: Vec<Option<String>>,
    on_update: String,
    on_delete: String,
}

async fn read_schema(conn: &mut SqliteConnection) -> Result<Vec<Object>, Error> {
    let rows = sqlx::query(
        "SELECT rowid, type, name, sql FROM main.sqlite_schema \
         WHERE type IN ('table', 'view', 'index') \
           AND name NOT IN ('sqlite_sequence', 'sqlite_stat1', 'sqlite_stat4') \
         ORDER BY rowid",
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut objects = Vec::with_capacity(rows.len());
    for row in rows {
        let mut object = Object {
            rowid: row.try_get(0)?,
            kind: row.try_get(1)?,
            name: row.try_get(2)?,
            sql: row.try_get(3)?,
            columns: Vec::new(),
            indexes: Vec::new(),
            foreign_keys: Vec::new(),
        };
        if object.kind != "index" {
            object.columns = read_columns(conn, &object.name).await?;
        }
        if object.kind == "table" {
            object.indexes = read_indexes(conn, &object.name).await?;
            object.foreign_keys = read_foreign_keys(conn, &object.name).await?;
        }
        objects.push(object);
    }
    Ok(objects)
}

async fn read_columns(conn: &mut SqliteConnection, table: &str) -> Result<Vec<ColumnInfo>, Error> {
    let rows = sqlx::query(
        "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?1, 'main')",
    )
    .bind(table)
    .fetch_all(&mut *conn)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(ColumnInfo {
                name: r.try_get(0)?,
                decl: r.try_get(1)?,
                not_null: r.try_get::<i64, _>(2)? != 0,
                default: r.try_get(3)?,
                pk: r.try_get(4)?,
                hidden: r.try_get(5)?,
            })
        })
        .collect()
}

async fn read_indexes(conn: &mut SqliteConnection, table: &str) -> Result<Vec<IndexInfo>, Error> {
    let rows = sqlx::query(
        "SELECT name, \"unique\", origin, partial FROM pragma_index_list(?1, 'main') ORDER BY seq DESC",
    )
    .bind(table)
    .fetch_all(&mut *conn)
    .await?;
    let mut indexes = Vec::with_capacity(rows.len());
    for r in rows {
        let name: String = r.try_get(0)?;
        let columns = sqlx::query_scalar::<_, Option<String>>(
            "SELECT name FROM pragma_index_info(?1, 'main') ORDER BY seqno",
        )
        .bind(&name)
        .fetch_all(&mut *conn)
        .await?
        .into_iter()
        .map(|c| c.unwrap_or_else(|| "expression".to_owned()))
        .collect();
        indexes.push(IndexInfo {
            name,
            unique: r.try_get::<i64, _>(1)? != 0,
            origin: r.try_get(2)?,
            partial: r.try_get::<i64, _>(3)? != 0,
            columns,
        });
    }
    Ok(indexes)
}

async fn read_foreign_keys(
    conn: &mut SqliteConnection,
    table: &str,
) -> Result<Vec<ForeignKey>, Error> {
    let rows = sqlx::query(
        "SELECT id, \"table\", \"from\", \"to\", on_update, on_delete \
         FROM pragma_foreign_key_list(?1, 'main') ORDER BY id, seq",
    )
    .bind(table)
    .fetch_all(&mut *conn)
    .await?;
    let mut keys: Vec<ForeignKey> = Vec::new();
    for r in rows {
        let id: i64 = r.try_get(0)?;
        let from: String = r.try_get(2)?;
        let to: Option<String> = r.try_get(3)?;
        match keys.last_mut() {
            Some(key) if key.id == id => {
                key.from.push(from);
                key.to.push(to);
            }
            _ => keys.push(ForeignKey {
                id,
                table: r.try_get(1)?,
                from: vec![from],
                to: vec![to],
                on_update: r.try_get(4)?,
                on_delete: r.try_get(5)?,
            }),
        }
    }
    Ok(keys)
}

/// An SQL literal.
fn lit(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

fn opt_lit(text: Option<&str>) -> String {
    text.map_or_else(|| "NULL".to_owned(), lit)
}

/// A double-quoted identifier where PostgreSQL would quote it.
fn ident(name: &str) -> String {
    let plain = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
    if plain {
        name.to_owned()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

fn idents(names: &[String]) -> String {
    names
        .iter()
        .map(|n| ident(n))
        .collect::<Vec<_>>()
        .join(", ")
}

fn insert(script: &mut String, table: &str, values: &[String]) {
    let _ = writeln!(
        script,
        "INSERT INTO temp.{table} VALUES ({});",
        values.join(", ")
    );
}

/// A relation's PostgreSQL-facing index name: SQLite's automatic indexes get
/// the names PostgreSQL gives the constraints behind them.
fn index_name(table: &str, index: &IndexInfo) -> String {
    match index.origin.as_str() {
        "pk" => format!("{table}_pkey"),
        "u" => format!("{table}_{}_key", index.columns.join("_")),
        _ => index.name.clone(),
    }
}

fn schema_rows(script: &mut String, objects: &[Object]) {
    for table in SCHEMA_TABLES {
        let _ = writeln!(script, "DELETE FROM temp.{table};");
    }
    let oid_of = |name: &str| {
        objects
            .iter()
            .find(|o| o.name.eq_ignore_ascii_case(name) && o.kind != "index")
            .map(|o| FIRST_OID + o.rowid)
    };
    for object in objects {
        match object.kind.as_str() {
            "table" => table_rows(script, object, objects, &oid_of),
            "view" => view_rows(script, object),
            _ => {}
        }
    }
}

fn table_rows(
    script: &mut String,
    table: &Object,
    objects: &[Object],
    oid_of: &dyn Fn(&str) -> Option<i64>,
) {
    let oid = FIRST_OID + table.rowid;
    let rowid_pk = rowid_primary_key(table);
    let has_index = rowid_pk.is_some() || !table.indexes.is_empty();
    // In PostgreSQL foreign keys are enforced by triggers on both tables, and psql
    // only lists keys ("Foreign-key constraints", "Referenced by") when it sees them.
    let has_triggers = !table.foreign_keys.is_empty()
        || objects.iter().any(|o| {
            o.foreign_keys
                .iter()
                .any(|k| k.table.eq_ignore_ascii_case(&table.name))
        });
    relation_row(
        script,
        oid,
        &table.name,
        "r",
        table.columns.len(),
        (has_index, has_triggers),
    );
    storage_row(script, oid, &table.name);
    attribute_rows(script, oid, &table.columns);
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_tables VALUES ('public', {}, (SELECT user_name FROM temp.litewire_session), NULL, {has_index}, false, false, false);",
        lit(&table.name)
    );
    if let Some(column) = rowid_pk {
        let index = IndexInfo {
            name: format!("{}_pkey", table.name),
            unique: true,
            origin: "pk".into(),
            partial: false,
            columns: vec![column],
        };
        index_rows(
            script,
            table,
            oid,
            SYNTHETIC_INDEX + table.rowid,
            &index,
            None,
        );
    }
    for index in &table.indexes {
        let sqlite_index = objects
            .iter()
            .find(|o| o.kind == "index" && o.name == index.name);
        let index_oid = sqlite_index.map_or(SYNTHETIC_INDEX + table.rowid, |o| FIRST_OID + o.rowid);
        let sql = sqlite_index.and_then(|o| o.sql.as_deref());
        index_rows(script, table, oid, index_oid, index, sql);
    }
    for key in &table.foreign_keys {
        foreign_key_rows(script, table, oid, key, oid_of);
    }
    check_rows(script, table, oid);
}

/// CHECK constraints, named as PostgreSQL names them when they have no name:
/// `t_col_check` after the column they are declared on or first mention, else
/// `t_check`, `t_check1`, ...
fn check_rows(script: &mut String, table: &Object, table_oid: i64) {
    let checks = table
        .sql
        .as_deref()
        .map(crate::sql::check_constraints)
        .unwrap_or_default();
    if checks.is_empty() {
        return;
    }
    let _ = writeln!(
        script,
        "UPDATE temp.pg_class SET relchecks = {} WHERE oid = {table_oid};",
        checks.len()
    );
    let mut unnamed = 0;
    for (i, check) in checks.iter().enumerate() {
        let mentioned = check
            .column
            .clone()
            .or_else(|| first_column(table, &check.expr));
        let name = match (&check.name, mentioned) {
            (Some(name), _) => name.clone(),
            (None, Some(column)) => format!("{}_{column}_check", table.name),
            (None, None) => {
                unnamed += 1;
                match unnamed {
                    1 => format!("{}_check", table.name),
                    n => format!("{}_check{}", table.name, n - 1),
                }
            }
        };
        let attnum = check.column.as_ref().and_then(|c| {
            table
                .columns
                .iter()
                .position(|col| col.name.eq_ignore_ascii_case(c))
        });
        let key = attnum.map_or_else(String::new, |p| format!("{{{}}}", p + 1));
        let oid = CHECK + table_oid * 64 + i as i64;
        constraint_row(
            script,
            oid,
            &name,
            "c",
            table_oid,
            0,
            0,
            &key,
            "NULL",
            ("a", "a"),
        );
        insert(
            script,
            "litewire_definitions",
            &[oid.to_string(), lit(&format!("CHECK ({})", check.expr))],
        );
    }
}

/// The first of `table`'s columns that `expr` names.
fn first_column(table: &Object, expr: &str) -> Option<String> {
    expr.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find_map(|word| {
            table
                .columns
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(word))
        })
        .map(|c| c.name.clone())
}

/// The column of an `INTEGER PRIMARY KEY` (the rowid alias), which has no index
/// of its own in SQLite.
fn rowid_primary_key(table: &Object) -> Option<String> {
    let pk: Vec<&ColumnInfo> = table.columns.iter().filter(|c| c.pk > 0).collect();
    let has_pk_index = table.indexes.iter().any(|i| i.origin == "pk");
    match pk.as_slice() {
        [only] if !has_pk_index => Some(only.name.clone()),
        _ => None,
    }
}

/// Where `pg_table_size()` finds a relation in SQLite's `dbstat`.
fn storage_row(script: &mut String, oid: i64, sqlite_name: &str) {
    insert(
        script,
        "litewire_storage",
        &[oid.to_string(), lit(sqlite_name)],
    );
}

fn relation_row(
    script: &mut String,
    oid: i64,
    name: &str,
    kind: &str,
    natts: usize,
    (has_index, has_triggers): (bool, bool),
) {
    let am = match kind {
        "r" => 2,
        "i" => 403,
        _ => 0,
    };
    insert(
        script,
        "pg_class",
        &[
            oid.to_string(),
            lit(name),
            PUBLIC_NAMESPACE.to_string(),
            "0".into(),
            "0".into(),
            ROLE_OID.to_string(),
            am.to_string(),
            oid.to_string(),
            "0".into(),
            "0".into(),
            "-1".into(),
            "0".into(),
            "0".into(),
            has_index.to_string(),
            "false".into(),
            "'p'".into(),
            lit(kind),
            natts.to_string(),
            "0".into(),
            "false".into(),
            has_triggers.to_string(),
            "false".into(),
            "false".into(),
            "false".into(),
            "true".into(),
            "'d'".into(),
            "false".into(),
            "0".into(),
            "NULL".into(),
            "NULL".into(),
            "NULL".into(),
        ],
    );
}

fn attribute_rows(script: &mut String, relation: i64, columns: &[ColumnInfo]) {
    for (i, column) in columns.iter().enumerate() {
        let typid = type_oid(&column.decl);
        let len = TYPES.iter().find(|t| t.oid == typid).map_or(-1, |t| t.len);
        let generated = if column.hidden >= 2 { "'s'" } else { "''" };
        // Fixed-length types are stored plain, the others extended.
        let storage = if len > 0 { "'p'" } else { "'x'" };
        let collation = if matches!(typid, 25 | 1042 | 1043) {
            100
        } else {
            0
        };
        let attnum = i + 1;
        insert(
            script,
            "pg_attribute",
            &[
                relation.to_string(),
                lit(&column.name),
                typid.to_string(),
                "-1".into(),
                len.to_string(),
                attnum.to_string(),
                "0".into(),
                type_modifier(&column.decl).to_string(),
                storage.into(),
                "''".into(),
                (column.not_null || column.pk > 0).to_string(),
                column.default.is_some().to_string(),
                "''".into(),
                generated.into(),
                "false".into(),
                collation.to_string(),
            ],
        );
        if let Some(default) = &column.default {
            let _ = writeln!(
                script,
                "INSERT INTO temp.pg_attrdef VALUES ({}, {relation}, {attnum}, {});",
                CONSTRAINT + relation * 64 + attnum as i64,
                lit(&shown_default(default))
            );
        }
    }
}

/// A column default as PostgreSQL would show it: the expressions the dialect
/// translation wrote for `now()` and `gen_random_uuid()` read back as those.
fn shown_default(default: &str) -> String {
    let bare = default
        .strip_prefix('(')
        .and_then(|d| d.strip_suffix(')'))
        .unwrap_or(default);
    match bare {
        "strftime('%Y-%m-%d %H:%M:%f+00', 'now')" => "now()".to_owned(),
        "gen_random_uuid()" => "gen_random_uuid()".to_owned(),
        _ => default.to_owned(),
    }
}

fn index_rows(
    script: &mut String,
    table: &Object,
    table_oid: i64,
    oid: i64,
    index: &IndexInfo,
    sql: Option<&str>,
) {
    let name = index_name(&table.name, index);
    let primary = index.origin == "pk";
    let attnums: Vec<String> = index
        .columns
        .iter()
        .map(|c| {
            table
                .columns
                .iter()
                .position(|col| col.name.eq_ignore_ascii_case(c))
                .map_or(0, |p| p + 1)
                .to_string()
        })
        .collect();
    relation_row(script, oid, &name, "i", index.columns.len(), (false, false));
    if oid < SYNTHETIC_INDEX {
        // A synthetic primary key index has no b-tree of its own.
        storage_row(script, oid, &index.name);
    }
    let unique = if index.unique { "UNIQUE " } else { "" };
    let predicate = sql
        .filter(|_| index.partial)
        .and_then(|s| {
            let upper = s.to_ascii_uppercase();
            upper.rfind(" WHERE ").map(|at| s[at..].to_owned())
        })
        .unwrap_or_default();
    let definition = format!(
        "CREATE {unique}INDEX {} ON public.{} USING btree ({}){predicate}",
        ident(&name),
        ident(&table.name),
        idents(&index.columns)
    );
    insert(
        script,
        "pg_index",
        &[
            oid.to_string(),
            table_oid.to_string(),
            index.columns.len().to_string(),
            index.columns.len().to_string(),
            index.unique.to_string(),
            primary.to_string(),
            "false".into(),
            "true".into(),
            "false".into(),
            "true".into(),
            "false".into(),
            "true".into(),
            "true".into(),
            "false".into(),
            lit(&attnums.join(" ")),
            "NULL".into(),
            opt_lit(
                index
                    .partial
                    .then_some(predicate.trim_start_matches(" WHERE ")),
            ),
            "false".into(),
        ],
    );
    index_attributes(script, table, oid, index);
    insert(
        script,
        "litewire_definitions",
        &[oid.to_string(), lit(&definition)],
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_indexes VALUES ('public', {}, {}, NULL, {});",
        lit(&table.name),
        lit(&name),
        lit(&definition)
    );
    let contype = match index.origin.as_str() {
        "pk" => "p",
        "u" => "u",
        _ => return,
    };
    let keyword = if primary { "PRIMARY KEY" } else { "UNIQUE" };
    let constraint = CONSTRAINT + oid;
    constraint_row(
        script,
        constraint,
        &name,
        contype,
        table_oid,
        oid,
        0,
        &format!("{{{}}}", attnums.join(",")),
        "NULL",
        ("a", "a"),
    );
    insert(
        script,
        "litewire_definitions",
        &[
            constraint.to_string(),
            lit(&format!("{keyword} ({})", idents(&index.columns))),
        ],
    );
}

/// An index's columns, as `pg_attribute` rows of the index relation.
fn index_attributes(script: &mut String, table: &Object, oid: i64, index: &IndexInfo) {
    let columns: Vec<ColumnInfo> = index
        .columns
        .iter()
        .map(|name| ColumnInfo {
            name: name.clone(),
            decl: table
                .columns
                .iter()
                .find(|c| c.name.eq_ignore_ascii_case(name))
                .map_or_else(String::new, |c| c.decl.clone()),
            not_null: false,
            default: None,
            pk: 0,
            hidden: 0,
        })
        .collect();
    attribute_rows(script, oid, &columns);
}

#[allow(clippy::too_many_arguments)]
fn constraint_row(
    script: &mut String,
    oid: i64,
    name: &str,
    contype: &str,
    relation: i64,
    index: i64,
    foreign: i64,
    key: &str,
    foreign_key: &str,
    actions: (&str, &str),
) {
    insert(
        script,
        "pg_constraint",
        &[
            oid.to_string(),
            lit(name),
            PUBLIC_NAMESPACE.to_string(),
            lit(contype),
            "false".into(),
            "false".into(),
            "true".into(),
            relation.to_string(),
            "0".into(),
            index.to_string(),
            "0".into(),
            foreign.to_string(),
            lit(actions.0),
            lit(actions.1),
            "'s'".into(),
            "true".into(),
            "0".into(),
            "true".into(),
            lit(key),
            foreign_key.to_owned(),
            "NULL".into(),
        ],
    );
}

fn foreign_key_rows(
    script: &mut String,
    table: &Object,
    table_oid: i64,
    key: &ForeignKey,
    oid_of: &dyn Fn(&str) -> Option<i64>,
) {
    let name = format!("{}_{}_fkey", table.name, key.from.join("_"));
    let attnum = |cols: &[String]| -> String {
        let nums: Vec<String> = cols
            .iter()
            .map(|c| {
                table
                    .columns
                    .iter()
                    .position(|col| col.name.eq_ignore_ascii_case(c))
                    .map_or(0, |p| p + 1)
                    .to_string()
            })
            .collect();
        format!("{{{}}}", nums.join(","))
    };
    let to: Vec<String> = key.to.iter().flatten().cloned().collect();
    let references = if to.is_empty() {
        ident(&key.table)
    } else {
        format!("{}({})", ident(&key.table), idents(&to))
    };
    let mut definition = format!(
        "FOREIGN KEY ({}) REFERENCES {references}",
        idents(&key.from)
    );
    for (event, action) in [("UPDATE", &key.on_update), ("DELETE", &key.on_delete)] {
        if action != "NO ACTION" {
            let _ = write!(definition, " ON {event} {action}");
        }
    }
    let oid = FOREIGN_KEY + table_oid * 64 + key.id;
    constraint_row(
        script,
        oid,
        &name,
        "f",
        table_oid,
        0,
        oid_of(&key.table).unwrap_or(0),
        &attnum(&key.from),
        "NULL",
        (action_code(&key.on_update), action_code(&key.on_delete)),
    );
    insert(
        script,
        "litewire_definitions",
        &[oid.to_string(), lit(&definition)],
    );
}

/// `pg_constraint.confupdtype` / `confdeltype` for SQLite's action names.
fn action_code(action: &str) -> &'static str {
    match action {
        "RESTRICT" => "r",
        "CASCADE" => "c",
        "SET NULL" => "n",
        "SET DEFAULT" => "d",
        _ => "a",
    }
}

fn view_rows(script: &mut String, view: &Object) {
    let oid = FIRST_OID + view.rowid;
    relation_row(
        script,
        oid,
        &view.name,
        "v",
        view.columns.len(),
        (false, false),
    );
    attribute_rows(script, oid, &view.columns);
    let definition = view
        .sql
        .as_deref()
        .and_then(|sql| {
            let upper = sql.to_ascii_uppercase();
            upper
                .find(" AS ")
                .map(|at| format!(" {};", sql[at + 4..].trim()))
        })
        .unwrap_or_default();
    insert(
        script,
        "litewire_definitions",
        &[oid.to_string(), lit(&definition)],
    );
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_views VALUES ('public', {}, (SELECT user_name FROM temp.litewire_session), {});",
        lit(&view.name),
        lit(&definition)
    );
}

fn session_rows(script: &mut String, identity: &SessionIdentity, settings: &Settings) {
    for table in SESSION_TABLES {
        let _ = writeln!(script, "DELETE FROM temp.{table};");
    }
    let user = lit(&identity.user);
    insert(
        script,
        "litewire_session",
        &[
            user.clone(),
            lit(&identity.database),
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
        lit(&identity.database)
    );
    for (name, value, description) in settings.all() {
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_settings VALUES ({}, {}, NULL, 'litewire', {}, NULL, 'user', 'string', 'session', NULL, NULL, NULL, NULL, NULL, NULL, NULL, false);",
            lit(&name),
            lit(&value),
            lit(description)
        );
    }
}

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
            lit(name)
        );
    }
    for t in TYPES {
        let collation = if t.category == "S" { 100 } else { 0 };
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_type VALUES ({}, {}, 11, {ROLE_OID}, {}, {}, 'b', {}, false, true, ',', 0, 0, {}, 0, -1, 0, {collation}, NULL, NULL);",
            t.oid,
            lit(t.name),
            t.len,
            t.len > 0 && t.len <= 8,
            lit(t.category),
            t.array
        );
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_type VALUES ({}, {}, 11, {ROLE_OID}, -1, false, 'b', 'A', false, true, ',', 0, {}, 0, 0, -1, 0, {collation}, NULL, NULL);",
            t.array,
            lit(&format!("_{}", t.name)),
            t.oid
        );
    }
    script.push_str(
        "INSERT INTO temp.pg_am VALUES (2, 'heap', 't'), (403, 'btree', 'i');\n\
         INSERT INTO temp.pg_collation VALUES (100, 'default', 11, 'd', 6, NULL, NULL), (950, 'C', 11, 'c', -1, 'C', 'C'), (951, 'POSIX', 11, 'c', -1, 'POSIX', 'POSIX');\n\
         INSERT INTO temp.pg_tablespace VALUES (1663, 'pg_default', 10, NULL, NULL), (1664, 'pg_global', 10, NULL, NULL);\n",
    );
}

/// Tables refilled when the schema changes.
const SCHEMA_TABLES: &[&str] = &[
    "litewire_storage",
    "pg_class",
    "pg_attribute",
    "pg_attrdef",
    "pg_index",
    "pg_constraint",
    "pg_tables",
    "pg_views",
    "pg_indexes",
    "litewire_definitions",
];

/// Tables refilled for the session on every catalog statement.
const SESSION_TABLES: &[&str] = &[
    "litewire_session",
    "pg_roles",
    "pg_user",
    "pg_database",
    "pg_settings",
];

/// The catalog relations, with PostgreSQL 15's columns (those clients read).
/// Booleans are declared `boolean` so that they print as `t`/`f`.
const CREATE_TABLES: &str = r#"
CREATE TEMP TABLE litewire_catalog_state (schema_version INTEGER);
CREATE TEMP TABLE litewire_session (user_name TEXT, database_name TEXT, backend_pid INTEGER);
CREATE TEMP TABLE litewire_definitions (oid INTEGER PRIMARY KEY, definition TEXT);
CREATE TEMP TABLE litewire_storage (oid INTEGER PRIMARY KEY, name TEXT);
CREATE TEMP TABLE pg_namespace (oid INTEGER, nspname TEXT, nspowner INTEGER, nspacl TEXT);
CREATE TEMP TABLE pg_class (oid INTEGER PRIMARY KEY, relname TEXT, relnamespace INTEGER, reltype INTEGER, reloftype INTEGER, relowner INTEGER, relam INTEGER, relfilenode INTEGER, reltablespace INTEGER, relpages INTEGER, reltuples REAL, relallvisible INTEGER, reltoastrelid INTEGER, relhasindex boolean, relisshared boolean, relpersistence TEXT, relkind TEXT, relnatts INTEGER, relchecks INTEGER, relhasrules boolean, relhastriggers boolean, relhassubclass boolean, relrowsecurity boolean, relforcerowsecurity boolean, relispopulated boolean, relreplident TEXT, relispartition boolean, relrewrite INTEGER, relacl TEXT, reloptions TEXT, relpartbound TEXT);
CREATE TEMP TABLE pg_attribute (attrelid INTEGER, attname TEXT, atttypid INTEGER, attstattarget INTEGER, attlen INTEGER, attnum INTEGER, attndims INTEGER, atttypmod INTEGER, attstorage TEXT, attcompression TEXT, attnotnull boolean, atthasdef boolean, attidentity TEXT, attgenerated TEXT, attisdropped boolean, attcollation INTEGER);
CREATE TEMP TABLE pg_attrdef (oid INTEGER, adrelid INTEGER, adnum INTEGER, adbin TEXT);
CREATE TEMP TABLE pg_index (indexrelid INTEGER, indrelid INTEGER, indnatts INTEGER, indnkeyatts INTEGER, indisunique boolean, indisprimary boolean, indisexclusion boolean, indimmediate boolean, indisclustered boolean, indisvalid boolean, indcheckxmin boolean, indisready boolean, indislive boolean, indisreplident boolean, indkey TEXT, indexprs TEXT, indpred TEXT, indnullsnotdistinct boolean);
CREATE TEMP TABLE pg_constraint (oid INTEGER, conname TEXT, connamespace INTEGER, contype TEXT, condeferrable boolean, condeferred boolean, convalidated boolean, conrelid INTEGER, contypid INTEGER, conindid INTEGER, conparentid INTEGER, confrelid INTEGER, confupdtype TEXT, confdeltype TEXT, confmatchtype TEXT, conislocal boolean, coninhcount INTEGER, connoinherit boolean, conkey TEXT, confkey TEXT, conbin TEXT);
CREATE TEMP TABLE pg_type (oid INTEGER, typname TEXT, typnamespace INTEGER, typowner INTEGER, typlen INTEGER, typbyval boolean, typtype TEXT, typcategory TEXT, typispreferred boolean, typisdefined boolean, typdelim TEXT, typrelid INTEGER, typelem INTEGER, typarray INTEGER, typbasetype INTEGER, typtypmod INTEGER, typndims INTEGER, typcollation INTEGER, typdefault TEXT, typacl TEXT);
CREATE TEMP TABLE pg_am (oid INTEGER, amname TEXT, amtype TEXT);
CREATE TEMP TABLE pg_collation (oid INTEGER, collname TEXT, collnamespace INTEGER, collprovider TEXT, collencoding INTEGER, collcollate TEXT, collctype TEXT);
CREATE TEMP TABLE pg_tablespace (oid INTEGER, spcname TEXT, spcowner INTEGER, spcacl TEXT, spcoptions TEXT);
CREATE TEMP TABLE pg_description (objoid INTEGER, classoid INTEGER, objsubid INTEGER, description TEXT);
CREATE TEMP TABLE pg_database (oid INTEGER, datname TEXT, datdba INTEGER, encoding INTEGER, datlocprovider TEXT, datistemplate boolean, datallowconn boolean, datconnlimit INTEGER, dattablespace INTEGER, datcollate TEXT, datctype TEXT, daticulocale TEXT, datacl TEXT);
CREATE TEMP TABLE pg_roles (rolname TEXT, rolsuper boolean, rolinherit boolean, rolcreaterole boolean, rolcreatedb boolean, rolcanlogin boolean, rolreplication boolean, rolconnlimit INTEGER, rolpassword TEXT, rolvaliduntil TEXT, rolbypassrls boolean, rolconfig TEXT, oid INTEGER);
CREATE TEMP TABLE pg_user (usename TEXT, usesysid INTEGER, usecreatedb boolean, usesuper boolean, userepl boolean, usebypassrls boolean, passwd TEXT, valuntil TEXT, useconfig TEXT);
CREATE TEMP TABLE pg_settings (name TEXT, setting TEXT, unit TEXT, category TEXT, short_desc TEXT, extra_desc TEXT, context TEXT, vartype TEXT, source TEXT, min_val TEXT, max_val TEXT, enumvals TEXT, boot_val TEXT, reset_val TEXT, sourcefile TEXT, sourceline INTEGER, pending_restart boolean);
CREATE TEMP TABLE pg_tables (schemaname TEXT, tablename TEXT, tableowner TEXT, tablespace TEXT, hasindexes boolean, hasrules boolean, hastriggers boolean, rowsecurity boolean);
CREATE TEMP TABLE pg_views (schemaname TEXT, viewname TEXT, viewowner TEXT, definition TEXT);
CREATE TEMP TABLE pg_indexes (schemaname TEXT, tablename TEXT, indexname TEXT, tablespace TEXT, indexdef TEXT);
CREATE TEMP TABLE pg_auth_members (oid INTEGER, roleid INTEGER, member INTEGER, grantor INTEGER, admin_option boolean);
CREATE TEMP TABLE pg_event_trigger (oid INTEGER, evtname TEXT, evtevent TEXT, evtowner INTEGER, evtfoid INTEGER, evtenabled TEXT, evttags TEXT);
CREATE TEMP TABLE pg_extension (oid INTEGER, extname TEXT, extowner INTEGER, extnamespace INTEGER, extrelocatable boolean, extversion TEXT, extconfig TEXT, extcondition TEXT);
CREATE TEMP TABLE pg_foreign_data_wrapper (oid INTEGER, fdwname TEXT, fdwowner INTEGER, fdwhandler INTEGER, fdwvalidator INTEGER, fdwacl TEXT, fdwoptions TEXT);
CREATE TEMP TABLE pg_foreign_server (oid INTEGER, srvname TEXT, srvowner INTEGER, srvfdw INTEGER, srvtype TEXT, srvversion TEXT, srvacl TEXT, srvoptions TEXT);
CREATE TEMP TABLE pg_foreign_table (ftrelid INTEGER, ftserver INTEGER, ftoptions TEXT);
CREATE TEMP TABLE pg_inherits (inhrelid INTEGER, inhparent INTEGER, inhseqno INTEGER, inhdetachpending boolean);
CREATE TEMP TABLE pg_partitioned_table (partrelid INTEGER, partstrat TEXT, partnatts INTEGER, partdefid INTEGER, partattrs TEXT, partclass TEXT, partcollation TEXT, partexprs TEXT);
CREATE TEMP TABLE pg_policy (oid INTEGER, polname TEXT, polrelid INTEGER, polcmd TEXT, polpermissive boolean, polroles TEXT, polqual TEXT, polwithcheck TEXT);
CREATE TEMP TABLE pg_proc (oid INTEGER, proname TEXT, pronamespace INTEGER, proowner INTEGER, prolang INTEGER, procost REAL, prorows REAL, provariadic INTEGER, prosupport INTEGER, prokind TEXT, prosecdef boolean, proleakproof boolean, proisstrict boolean, proretset boolean, provolatile TEXT, proparallel TEXT, pronargs INTEGER, pronargdefaults INTEGER, prorettype INTEGER, proargtypes TEXT, proallargtypes TEXT, proargmodes TEXT, proargnames TEXT, prosrc TEXT, proacl TEXT);
CREATE TEMP TABLE pg_publication (oid INTEGER, pubname TEXT, pubowner INTEGER, puballtables boolean, pubinsert boolean, pubupdate boolean, pubdelete boolean, pubtruncate boolean, pubviaroot boolean);
CREATE TEMP TABLE pg_publication_namespace (oid INTEGER, pnpubid INTEGER, pnnspid INTEGER);
CREATE TEMP TABLE pg_publication_rel (oid INTEGER, prpubid INTEGER, prrelid INTEGER, prqual TEXT, prattrs TEXT);
CREATE TEMP TABLE pg_rewrite (oid INTEGER, rulename TEXT, ev_class INTEGER, ev_type TEXT, ev_enabled TEXT, is_instead boolean, ev_qual TEXT, ev_action TEXT);
CREATE TEMP TABLE pg_sequence (seqrelid INTEGER, seqtypid INTEGER, seqstart INTEGER, seqincrement INTEGER, seqmax INTEGER, seqmin INTEGER, seqcache INTEGER, seqcycle boolean);
CREATE TEMP TABLE pg_statistic_ext (oid INTEGER, stxrelid INTEGER, stxname TEXT, stxnamespace INTEGER, stxowner INTEGER, stxstattarget INTEGER, stxkeys TEXT, stxkind TEXT, stxexprs TEXT);
CREATE TEMP TABLE pg_subscription (oid INTEGER, subdbid INTEGER, subname TEXT, subowner INTEGER, subenabled boolean, subconninfo TEXT, subslotname TEXT, subsynccommit TEXT, subpublications TEXT);
CREATE TEMP TABLE pg_trigger (oid INTEGER, tgrelid INTEGER, tgparentid INTEGER, tgname TEXT, tgfoid INTEGER, tgtype INTEGER, tgenabled TEXT, tgisinternal boolean, tgconstrrelid INTEGER, tgconstrindid INTEGER, tgconstraint INTEGER, tgdeferrable boolean, tginitdeferred boolean, tgnargs INTEGER, tgattr TEXT, tgargs BLOB, tgqual TEXT, tgoldtable TEXT, tgnewtable TEXT);
CREATE TEMP TABLE pg_enum (oid INTEGER, enumtypid INTEGER, enumsortorder REAL, enumlabel TEXT);
CREATE TEMP TABLE pg_range (rngtypid INTEGER, rngsubtype INTEGER, rngmultitypid INTEGER, rngcollation INTEGER, rngsubopc INTEGER, rngcanonical INTEGER, rngsubdiff INTEGER);
CREATE TEMP VIEW litewire_names (litewire_kind, litewire_oid, litewire_name) AS
  SELECT 'class', oid, relname FROM pg_class
  UNION ALL SELECT 'namespace', oid, nspname FROM pg_namespace
  UNION ALL SELECT 'role', oid, rolname FROM pg_roles
  UNION ALL SELECT 'type', oid, typname FROM pg_type
  UNION ALL SELECT 'definition', oid, definition FROM litewire_definitions
  UNION ALL SELECT 'column', attrelid * 10000 + attnum, attname FROM pg_attribute
  UNION ALL SELECT 'storage', oid, name FROM litewire_storage;
CREATE TEMP VIEW information_schema_schemata AS
  SELECT (SELECT database_name FROM litewire_session) AS catalog_name, nspname AS schema_name,
         (SELECT user_name FROM litewire_session) AS schema_owner, NULL AS default_character_set_catalog,
         NULL AS default_character_set_schema, NULL AS default_character_set_name, NULL AS sql_path
  FROM pg_namespace;
CREATE TEMP VIEW information_schema_tables AS
  SELECT (SELECT database_name FROM litewire_session) AS table_catalog, 'public' AS table_schema,
         relname AS table_name, CASE relkind WHEN 'v' THEN 'VIEW' ELSE 'BASE TABLE' END AS table_type,
         NULL AS self_referencing_column_name, NULL AS reference_generation,
         NULL AS user_defined_type_catalog, NULL AS user_defined_type_schema, NULL AS user_defined_type_name,
         CASE relkind WHEN 'v' THEN 'NO' ELSE 'YES' END AS is_insertable_into, 'NO' AS is_typed, NULL AS commit_action
  FROM pg_class WHERE relkind IN ('r', 'v');
CREATE TEMP VIEW information_schema_views AS
  SELECT (SELECT database_name FROM litewire_session) AS table_catalog, schemaname AS table_schema,
         viewname AS table_name, definition AS view_definition, 'NONE' AS check_option,
         'NO' AS is_updatable, 'NO' AS is_insertable_into
  FROM pg_views;
CREATE TEMP VIEW information_schema_columns AS
  SELECT (SELECT database_name FROM litewire_session) AS table_catalog, 'public' AS table_schema,
         c.relname AS table_name, a.attname AS column_name, a.attnum AS ordinal_position,
         d.adbin AS column_default, CASE WHEN a.attnotnull THEN 'NO' ELSE 'YES' END AS is_nullable,
         format_type(a.atttypid, NULL) AS data_type,
         CASE WHEN a.atttypid IN (1042, 1043) AND a.atttypmod >= 4 THEN a.atttypmod - 4 END AS character_maximum_length,
         CASE WHEN a.atttypid = 1700 AND a.atttypmod >= 4 THEN (a.atttypmod - 4) >> 16
              WHEN a.atttypid = 21 THEN 16 WHEN a.atttypid = 23 THEN 32 WHEN a.atttypid = 20 THEN 64
              WHEN a.atttypid = 700 THEN 24 WHEN a.atttypid = 701 THEN 53 END AS numeric_precision,
         CASE WHEN a.atttypid = 1700 AND a.atttypmod >= 4 THEN (a.atttypmod - 4) & 65535
              WHEN a.atttypid IN (20, 21, 23) THEN 0 END AS numeric_scale,
         (SELECT database_name FROM litewire_session) AS udt_catalog, 'pg_catalog' AS udt_schema,
         t.typname AS udt_name, 'NO' AS is_identity, CASE WHEN a.attgenerated = '' THEN 'NEVER' ELSE 'ALWAYS' END AS is_generated,
         'YES' AS is_updatable
  FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_type t ON t.oid = a.atttypid
  LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
  WHERE c.relkind IN ('r', 'v') AND a.attnum > 0;
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_and_modifiers() {
        assert_eq!(type_oid("varchar(20)"), 1043);
        assert_eq!(type_modifier("varchar(20)"), 24);
        assert_eq!(format_type(1043, Some(24)), "character varying(20)");
        assert_eq!(type_modifier("numeric(10,2)"), ((10 << 16) | 2) + 4);
        assert_eq!(
            format_type(1700, Some(type_modifier("numeric(10, 2)"))),
            "numeric(10,2)"
        );
        assert_eq!(format_type(23, Some(-1)), "integer");
        assert_eq!(format_type(1184, None), "timestamp with time zone");
        assert_eq!(format_type(1007, None), "integer[]");
        assert_eq!(type_oid("INTEGER"), 23);
        assert_eq!(type_oid("unsigned big int"), 20);
        assert_eq!(type_oid(" VarChar (20) "), 1043);
        assert_eq!(
            type_oid("a custom type with a name longer than thirty-two bytes"),
            1700
        );
        assert_eq!(
            type_oid("a long type name that mentions its interest in text"),
            20
        );
        assert_eq!(type_oid(""), 25);
    }

    #[test]
    fn identifiers_quote_like_postgres() {
        assert_eq!(ident("abc_1"), "abc_1");
        assert_eq!(ident("Abc"), "\"Abc\"");
        assert_eq!(ident("a b"), "\"a b\"");
    }
}
