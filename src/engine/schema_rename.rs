//! `ALTER SCHEMA s RENAME TO t` (see `sql::schemas::SchemaRename`): every
//! object of `s` moved to `t`, and every definition that names one
//! rewritten, under one savepoint, so that a failure leaves all as it was.
//!
//! SQLite keeps each definition as written and renames neither indexes nor
//! views, and a table's definition names its enum types and domains (their
//! CHECKs) and its sequences (`nextval('"s.q"')`) in its text. So the views,
//! triggers and indexes that change are dropped first and made again last;
//! each table whose definition changes is rebuilt under its new definition
//! and name (rows copied with their rowids, as `rebuild` does), with its
//! indexes and triggers; and litewire's own rows (sequences, types,
//! domains, materialized views, comments, functions and their bodies, the schema)
//! take the new names.

use sqlx::{AssertSqlSafe, Executor, Row};

use super::connection::HeldConnection;
use super::rebuild::{Dependent, Schema, execute, swap};
use crate::error::Error;
use crate::sql::quote::{identifier, literal};
use crate::sql::schemas::SchemaRename;
use crate::sql::table_definition::TableDefinition;

/// Runs `rename` on the connection (the writer, under the write permit).
pub(super) async fn run(conn: &mut HeldConnection, rename: &SchemaRename) -> Result<(), Error> {
    conn.sqlx()
        .execute("SAVEPOINT litewire_schema_rename")
        .await?;
    let result = rename_all(conn, rename).await;
    let sqlx = conn.sqlx();
    if result.is_err() {
        sqlx.execute("ROLLBACK TO litewire_schema_rename").await?;
    }
    sqlx.execute("RELEASE litewire_schema_rename").await?;
    result
}

/// A row of `sqlite_schema` with a definition.
struct Object {
    kind: String,
    name: String,
    table: String,
    sql: String,
}

impl Object {
    fn renamed(&self, rename: &SchemaRename) -> String {
        rename
            .renamed(&self.name)
            .unwrap_or_else(|| self.name.clone())
    }

    fn drop_sql(&self) -> String {
        format!(
            "DROP {} IF EXISTS main.{}",
            self.kind.to_ascii_uppercase(),
            identifier(&self.name)
        )
    }
}

/// litewire's own tables whose rows name objects: each table and the
/// columns that hold a SQLite name.
const NAMED_ROWS: &[(&str, &[&str])] = &[
    ("litewire_sequences", &["name", "owned_table"]),
    (crate::sql::enums::ENUMS_TABLE, &["type"]),
    (crate::sql::domains::DOMAINS_TABLE, &["name"]),
    (crate::sql::matviews::MATVIEWS_TABLE, &["name"]),
    (crate::sql::COMMENTS_TABLE, &["relation"]),
    (crate::sql::routines::FUNCTIONS_TABLE, &["name"]),
];

/// litewire's own tables whose rows hold SQL that may name objects: each
/// table and the column.
const DEFINITION_ROWS: &[(&str, &str)] = &[
    (crate::sql::matviews::MATVIEWS_TABLE, "definition"),
    (crate::sql::routines::FUNCTIONS_TABLE, "body"),
];

async fn rename_all(conn: &mut HeldConnection, rename: &SchemaRename) -> Result<(), Error> {
    for check in &rename.checks {
        execute(conn.sqlx(), check).await?;
    }
    let objects: Vec<Object> = sqlx::query(
        "SELECT type, name, tbl_name, sql FROM main.sqlite_schema \
         WHERE sql IS NOT NULL ORDER BY rowid",
    )
    .fetch_all(conn.sqlx())
    .await?
    .iter()
    .map(|row| {
        Ok(Object {
            kind: row.try_get(0)?,
            name: row.try_get(1)?,
            table: row.try_get(2)?,
            sql: row.try_get(3)?,
        })
    })
    .collect::<Result<_, Error>>()?;
    let changes =
        |o: &Object| rename.renamed(&o.name).is_some() || rename.renamed_sql(&o.sql) != o.sql;
    let rebuilt: Vec<&Object> = objects
        .iter()
        .filter(|o| o.kind == "table" && changes(o))
        .collect();
    let of_rebuilt = |o: &Object| {
        rebuilt
            .iter()
            .any(|t| t.name.eq_ignore_ascii_case(&o.table))
    };
    // Made again last: what changes and goes with no rebuilt table.
    let remade: Vec<&Object> = objects
        .iter()
        .filter(|o| o.kind != "table" && changes(o) && (o.kind == "view" || !of_rebuilt(o)))
        .collect();
    for object in remade.iter().rev() {
        execute(conn.sqlx(), &object.drop_sql()).await?;
    }
    for table in &rebuilt {
        let old = TableDefinition::parse(&table.sql)?;
        let new = TableDefinition::parse(&rename.renamed_sql(&table.sql))?;
        let dependents: Vec<Dependent> = objects
            .iter()
            .filter(|o| {
                matches!(o.kind.as_str(), "index" | "trigger")
                    && o.table.eq_ignore_ascii_case(&table.name)
            })
            .map(|o| Dependent {
                name: o.renamed(rename),
                sql: rename.renamed_sql(&o.sql),
            })
            .collect();
        let to = table.renamed(rename);
        swap(
            conn,
            Schema::Main,
            &table.name,
            &to,
            &old,
            &new,
            &dependents,
        )
        .await?;
    }
    for object in &remade {
        execute(conn.sqlx(), &rename.renamed_sql(&object.sql)).await?;
    }
    own_rows(conn, rename, &objects).await
}

/// litewire's own rows under the new names.
async fn own_rows(
    conn: &mut HeldConnection,
    rename: &SchemaRename,
    objects: &[Object],
) -> Result<(), Error> {
    let exists = |table: &str| {
        objects
            .iter()
            .any(|o| o.kind == "table" && o.name.eq_ignore_ascii_case(table))
    };
    let (from, to) = (format!("{}.", rename.from), format!("{}.", rename.to));
    let mut script = Vec::new();
    for (table, columns) in NAMED_ROWS.iter().filter(|(t, _)| exists(t)) {
        for column in *columns {
            script.push(format!(
                "UPDATE main.{table} SET {column} = {} || substr({column}, {}) \
                 WHERE substr({column}, 1, {}) = {}",
                literal(&to),
                from.len() + 1,
                from.len(),
                literal(&from)
            ));
        }
    }
    for (table, column) in DEFINITION_ROWS.iter().filter(|(t, _)| exists(t)) {
        let rows: Vec<(i64, String)> = sqlx::query_as(AssertSqlSafe(format!(
            "SELECT rowid, {column} FROM main.{table}"
        )))
        .fetch_all(conn.sqlx())
        .await?;
        for (rowid, text) in rows {
            let renamed = rename.renamed_sql(&text);
            if renamed != text {
                script.push(format!(
                    "UPDATE main.{table} SET {column} = {} WHERE rowid = {rowid}",
                    literal(&renamed)
                ));
            }
        }
    }
    script.push(format!(
        "UPDATE main.{} SET name = {} WHERE name = {}",
        crate::sql::schemas::SCHEMAS_TABLE,
        literal(&rename.to),
        literal(&rename.from)
    ));
    for statement in &script {
        execute(conn.sqlx(), statement).await?;
    }
    Ok(())
}
