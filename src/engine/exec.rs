//! What still runs through SQLx's own query API: scripts (several SQLite
//! statements for one PostgreSQL statement, all or nothing) and Describe, whose
//! type inference reads the statement's bytecode. Everything on the hot path runs
//! in `direct`.

use std::sync::Arc;

use sqlx::{
    AssertSqlSafe, Column as _, Executor, SqlSafeStr, SqliteConnection, Statement as _, TypeInfo,
};

use super::EngineError;
use super::result::Column;
use super::schema::SchemaCache;
use super::value::StorageClass;
use crate::sql::Statement;

/// Runs the SQLite statements one PostgreSQL statement became, all or nothing.
pub(super) async fn run_script(
    conn: &mut SqliteConnection,
    parts: &[Arc<str>],
) -> Result<(), EngineError> {
    let [only] = parts else {
        conn.execute("SAVEPOINT litewire_statement").await?;
        for part in parts {
            if let Err(error) = run_part(conn, part).await {
                conn.execute("ROLLBACK TO litewire_statement").await?;
                conn.execute("RELEASE litewire_statement").await?;
                return Err(error);
            }
        }
        conn.execute("RELEASE litewire_statement").await?;
        return Ok(());
    };
    // One statement needs no savepoint (and VACUUM could not run inside one).
    run_part(conn, only).await
}

async fn run_part(conn: &mut SqliteConnection, sql: &Arc<str>) -> Result<(), EngineError> {
    sqlx::query(AssertSqlSafe(sql.clone()))
        .persistent(false)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The result columns of `stmt`, without running it. Expression columns get the
/// storage class sqlx infers from the statement's bytecode, so that what Describe
/// announces (`count(*)` is an integer) matches the rows that follow.
pub(super) async fn describe(
    conn: &mut SqliteConnection,
    schema: &SchemaCache,
    stmt: &Statement,
) -> Result<Arc<Vec<Column>>, EngineError> {
    let mut columns = prepared_columns(conn, schema, stmt).await?;
    if columns.iter().any(|c| c.decltype.is_none()) {
        // Inference can fail on statements it does not model; the types then stay unknown.
        if let Ok(described) = (&mut *conn)
            .describe(AssertSqlSafe(stmt.sql.clone()).into_sql_str())
            .await
        {
            for (column, inferred) in columns.iter_mut().zip(described.columns()) {
                if column.decltype.is_none() {
                    column.storage = storage_class(inferred.type_info().name());
                }
            }
        }
    }
    Ok(Arc::new(columns))
}

/// The result columns of `stmt` as SQLite prepares them: names and declared types.
async fn prepared_columns(
    conn: &mut SqliteConnection,
    schema: &SchemaCache,
    stmt: &Statement,
) -> Result<Vec<Column>, EngineError> {
    let prepared = (&mut *conn)
        .prepare(AssertSqlSafe(stmt.sql.clone()).into_sql_str())
        .await?;
    let sqlx_columns = prepared.columns().to_vec();
    columns(conn, schema, &sqlx_columns).await
}

/// sqlx's type names for SQLite values, as storage classes.
fn storage_class(name: &str) -> Option<StorageClass> {
    match name {
        "INTEGER" | "BOOLEAN" => Some(StorageClass::Integer),
        "REAL" => Some(StorageClass::Real),
        "TEXT" | "DATE" | "TIME" | "DATETIME" => Some(StorageClass::Text),
        "BLOB" => Some(StorageClass::Blob),
        _ => None,
    }
}

async fn columns(
    conn: &mut SqliteConnection,
    schema: &SchemaCache,
    sqlx_columns: &[sqlx::sqlite::SqliteColumn],
) -> Result<Vec<Column>, EngineError> {
    let mut out = Vec::with_capacity(sqlx_columns.len());
    for column in sqlx_columns {
        let decltype = match column.origin().table_column() {
            Some(origin) => schema.decltype(conn, &origin.table, &origin.name).await?,
            None => None,
        };
        out.push(Column {
            name: column.name().to_owned(),
            decltype,
            storage: None,
        });
    }
    Ok(out)
}
