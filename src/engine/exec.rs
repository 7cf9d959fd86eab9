//! Running one statement on one connection through sqlx, into a [`QueryResult`].

use std::sync::Arc;

use sqlx::sqlite::{SqliteArguments, SqliteRow, SqliteValueRef};
use sqlx::{
    AssertSqlSafe, Column as _, Decode, Executor, Row, SqlSafeStr, Sqlite, SqliteConnection,
    Statement as _, TypeInfo, ValueRef,
};

use super::EngineError;
use super::result::{Column, QueryResult};
use super::schema::SchemaCache;
use super::value::{StorageClass, Value};
use crate::sql::Statement;

type Query<'q> = sqlx::query::Query<'q, Sqlite, SqliteArguments>;

/// Runs `stmt` with `params` bound to `?1..?N` and collects its whole result.
pub(super) async fn run(
    conn: &mut SqliteConnection,
    schema: &SchemaCache,
    stmt: &Statement,
    params: &[Value],
) -> Result<QueryResult, EngineError> {
    let mut query = sqlx::query(AssertSqlSafe(stmt.sql.clone()));
    for param in params {
        query = bind(query, param.clone());
    }
    // Statements without parameters come from simple queries, nearly all different:
    // caching them would only evict the prepared statements that are reused.
    let query = query.persistent(!params.is_empty());

    let mut result = QueryResult::empty(stmt.kind);
    if !stmt.returns_rows {
        let done = query.execute(&mut *conn).await?;
        result.rows_affected = done.rows_affected();
        result.last_insert_rowid = Some(done.last_insert_rowid());
        return Ok(result);
    }
    let rows = query.fetch_all(&mut *conn).await?;
    result.rows = rows.iter().map(decode_row).collect::<Result<_, _>>()?;
    result.rows_affected = rows.len() as u64;
    result.columns = match rows.first() {
        Some(row) => Arc::new(columns(conn, schema, row.columns(), &result.rows).await?),
        // No rows to type expressions by; the bytecode inference of `describe` is
        // for Describe, which answers before any row exists, not for every empty result.
        None => Arc::new(prepared_columns(conn, schema, stmt).await?),
    };
    Ok(result)
}

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
    columns(conn, schema, &sqlx_columns, &[]).await
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
    rows: &[Vec<Value>],
) -> Result<Vec<Column>, EngineError> {
    let mut out = Vec::with_capacity(sqlx_columns.len());
    for (i, column) in sqlx_columns.iter().enumerate() {
        let decltype = match column.origin().table_column() {
            Some(origin) => schema.decltype(conn, &origin.table, &origin.name).await?,
            None => None,
        };
        // An expression's type is the storage class of its first non-NULL value.
        let storage = rows
            .iter()
            .filter_map(|row| row.get(i))
            .map(Value::storage_class)
            .find(|class| *class != StorageClass::Null);
        out.push(Column {
            name: column.name().to_owned(),
            decltype,
            storage,
        });
    }
    Ok(out)
}

pub(super) fn bind<'q>(query: Query<'q>, value: Value) -> Query<'q> {
    match value {
        Value::Null => query.bind(None::<i64>),
        Value::Integer(i) => query.bind(i),
        Value::Real(f) => query.bind(f),
        Value::Text(s) => query.bind(s),
        Value::Blob(b) => query.bind(b),
    }
}

fn decode_row(row: &SqliteRow) -> Result<Vec<Value>, EngineError> {
    (0..row.len())
        .map(|i| decode_value(row.try_get_raw(i)?))
        .collect()
}

fn decode_value(raw: SqliteValueRef<'_>) -> Result<Value, EngineError> {
    if raw.is_null() {
        return Ok(Value::Null);
    }
    let value = match storage_class(raw.type_info().name()) {
        Some(StorageClass::Integer) => {
            Value::Integer(<i64 as Decode<Sqlite>>::decode(raw).map_err(decode_error)?)
        }
        Some(StorageClass::Real) => {
            Value::Real(<f64 as Decode<Sqlite>>::decode(raw).map_err(decode_error)?)
        }
        Some(StorageClass::Text) => {
            let bytes = <Vec<u8> as Decode<Sqlite>>::decode(raw).map_err(decode_error)?;
            // SQLite does not check that TEXT is UTF-8; show what is there.
            Value::Text(
                String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()),
            )
        }
        _ => Value::Blob(<Vec<u8> as Decode<Sqlite>>::decode(raw).map_err(decode_error)?),
    };
    Ok(value)
}

fn decode_error(error: sqlx::error::BoxDynError) -> EngineError {
    EngineError::new(
        super::ErrorKind::Internal,
        format!("could not decode a value: {error}"),
    )
}
