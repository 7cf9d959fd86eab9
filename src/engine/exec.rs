//! What still runs through SQLx's own query API: scripts (several SQLite
//! statements for one PostgreSQL statement, all or nothing) and Describe, whose
//! type inference reads the statement's bytecode. Everything on the hot path runs
//! in `direct`.

use std::sync::Arc;

use sqlx::{AssertSqlSafe, Column as _, Executor, SqlSafeStr, SqliteConnection, TypeInfo};

use super::result::Column;
use super::value::StorageClass;
use crate::error::Error;
use crate::sql::Statement;

/// Runs the SQLite statements one PostgreSQL statement became, all or
/// nothing; answers the rows the last of them changed (a `CREATE TABLE ...
/// AS`'s INSERT).
pub(super) async fn run_script(
    conn: &mut SqliteConnection,
    parts: &[Arc<str>],
) -> Result<u64, Error> {
    let [only] = parts else {
        conn.execute("SAVEPOINT litewire_statement").await?;
        let mut changed = 0;
        for part in parts {
            match run_part(conn, part).await {
                Ok(rows) => changed = rows,
                Err(error) => {
                    conn.execute("ROLLBACK TO litewire_statement").await?;
                    conn.execute("RELEASE litewire_statement").await?;
                    return Err(error);
                }
            }
        }
        conn.execute("RELEASE litewire_statement").await?;
        return Ok(changed);
    };
    // One statement needs no savepoint (and VACUUM could not run inside one).
    run_part(conn, only).await
}

async fn run_part(conn: &mut SqliteConnection, sql: &Arc<str>) -> Result<u64, Error> {
    let done = sqlx::query(AssertSqlSafe(sql.clone()))
        .persistent(false)
        .execute(&mut *conn)
        .await?;
    Ok(done.rows_affected())
}

/// Types expression columns (those without a declared type) by the storage
/// class SQLx infers from the statement's bytecode, so that what Describe
/// announces (`count(*)` is an integer) matches the rows that follow.
pub(super) async fn infer_expression_types(
    conn: &mut SqliteConnection,
    stmt: &Statement,
    columns: &mut [Column],
) {
    // Inference can fail on statements it does not model; the types then stay
    // unknown. SQLx's walk over the bytecode of a recursive CTE does not end (it
    // runs on the connection's own thread, where nothing can stop it), so those
    // are not inferred.
    if contains_word(&stmt.sql, "RECURSIVE") {
        return;
    }
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

/// Whether `word` appears in `sql` as a word of its own, in any case.
fn contains_word(sql: &str, word: &str) -> bool {
    sql.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .any(|w| w.eq_ignore_ascii_case(word))
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
