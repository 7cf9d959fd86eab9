//! Reading SQLite's schema: every table, view and index of the main database,
//! with columns (`pragma_table_xinfo`), indexes (`pragma_index_list`,
//! `pragma_index_info`) and foreign keys (`pragma_foreign_key_list`); a rowid
//! column a sequence numbers is typed from the sequence's row. The one
//! reader of this metadata: the catalog is built from it, and the declared-type
//! cache (`engine::declared_types`) reads columns through it.

use sqlx::{Row, SqliteConnection};

use super::types::type_oid;
use crate::error::Error;
use crate::sql::views;

/// One SQLite schema object and, for tables, its columns, indexes and keys.
pub(in crate::engine) struct Object {
    pub(in crate::engine) rowid: i64,
    pub(in crate::engine) kind: String,
    pub(in crate::engine) name: String,
    pub(in crate::engine) sql: Option<String>,
    pub(in crate::engine) columns: Vec<ColumnInfo>,
    pub(in crate::engine) indexes: Vec<IndexInfo>,
    pub(in crate::engine) foreign_keys: Vec<ForeignKey>,
    /// A materialized view's query as written (see `sql::matviews`).
    pub(in crate::engine) query: Option<String>,
}

pub(in crate::engine) struct ColumnInfo {
    pub(in crate::engine) name: String,
    pub(in crate::engine) decl: String,
    pub(in crate::engine) not_null: bool,
    pub(in crate::engine) default: Option<String>,
    pub(in crate::engine) pk: i64,
    pub(in crate::engine) hidden: i64,
}

#[derive(Clone)]
pub(in crate::engine) struct IndexInfo {
    pub(in crate::engine) name: String,
    pub(in crate::engine) unique: bool,
    pub(in crate::engine) origin: String,
    pub(in crate::engine) partial: bool,
    pub(in crate::engine) columns: Vec<String>,
}

pub(in crate::engine) struct ForeignKey {
    pub(in crate::engine) id: i64,
    pub(in crate::engine) table: String,
    pub(in crate::engine) from: Vec<String>,
    pub(in crate::engine) to: Vec<Option<String>>,
    pub(in crate::engine) on_update: String,
    pub(in crate::engine) on_delete: String,
}

pub(super) async fn read_schema(conn: &mut SqliteConnection) -> Result<Vec<Object>, Error> {
    // A materialized view is a table with a view of litewire's beside it
    // (see `sql::matviews`): kind `matview` here. Litestream's bookkeeping
    // tables (`_litestream_seq`, `_litestream_lock`) are not the user's.
    let rows = sqlx::query(
        "SELECT rowid, CASE WHEN type = 'table' AND EXISTS (SELECT 1 FROM main.sqlite_schema v \
         WHERE v.type = 'view' AND v.name = 'litewire_matview_' || s.name COLLATE NOCASE) \
         THEN 'matview' ELSE type END, name, sql FROM main.sqlite_schema s \
         WHERE type IN ('table', 'view', 'index') \
           AND name NOT IN ('sqlite_sequence', 'sqlite_stat1', 'sqlite_stat4') \
           AND name NOT LIKE 'litewire\\_%' ESCAPE '\\' \
           AND name NOT LIKE '\\_litestream\\_%' ESCAPE '\\' \
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
            query: None,
        };
        if object.kind != "index" {
            object.columns = read_columns(conn, "main", &object.name).await?;
        }
        // A view litewire made names its computed columns' types.
        if object.kind == "view"
            && let Some((types, _)) = object.sql.as_deref().and_then(views::header)
        {
            for (column, ty) in object.columns.iter_mut().zip(types) {
                // SQLite's type stands where it names the same type, with
                // the modifier it may add.
                if !ty.is_empty() && type_oid(&ty) != type_oid(&column.decl) {
                    column.decl = ty;
                }
            }
        }
        if matches!(object.kind.as_str(), "table" | "matview") {
            object.indexes = read_indexes(conn, &object.name).await?;
            object.foreign_keys = read_foreign_keys(conn, &object.name).await?;
        }
        if object.kind == "matview" {
            object.query = sqlx::query_scalar(
                "SELECT definition FROM main.litewire_matviews WHERE name = ?1 COLLATE NOCASE",
            )
            .bind(&object.name)
            .fetch_optional(&mut *conn)
            .await?;
        }
        objects.push(object);
    }
    Ok(objects)
}

/// The columns of `schema.table` (`main`, `temp` or an attached database's name).
pub(in crate::engine) async fn read_columns(
    conn: &mut SqliteConnection,
    schema: &str,
    table: &str,
) -> Result<Vec<ColumnInfo>, Error> {
    let rows = sqlx::query(
        "SELECT name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?1, ?2)",
    )
    .bind(table)
    .bind(schema)
    .fetch_all(&mut *conn)
    .await?;
    let mut columns = rows
        .iter()
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
        .collect::<Result<Vec<_>, Error>>()?;
    let keys = columns.iter().filter(|c| c.pk > 0).count();
    if schema == "main"
        && let Some(rowid) = columns.iter_mut().find(|c| c.pk == 1 && keys == 1)
        && let Some(ty) = rowid_type(
            conn,
            table,
            &rowid.name,
            &rowid.decl,
            rowid.default.as_deref(),
        )
        .await?
    {
        rowid.decl = ty;
    }
    Ok(columns)
}

/// The PostgreSQL type of a table's rowid alias that a sequence fills
/// (`bigserial PRIMARY KEY`, `bigint GENERATED ... AS IDENTITY PRIMARY KEY`):
/// SQLite numbers only a column declared `INTEGER`, so its sequence's row
/// keeps the type it was declared with. `None` for any other column.
pub(in crate::engine) async fn rowid_type(
    conn: &mut SqliteConnection,
    table: &str,
    column: &str,
    decl: &str,
    default: Option<&str>,
) -> Result<Option<String>, Error> {
    if !decl.eq_ignore_ascii_case("integer") || !default.is_some_and(|d| d.starts_with("nextval("))
    {
        return Ok(None);
    }
    let ty: Option<String> = sqlx::query_scalar(
        "SELECT type FROM main.litewire_sequences \
         WHERE owned_table = ?1 COLLATE NOCASE AND owned_column = ?2 COLLATE NOCASE",
    )
    .bind(table)
    .bind(column)
    .fetch_optional(&mut *conn)
    .await?;
    Ok(ty.filter(|ty| ty != "integer"))
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
