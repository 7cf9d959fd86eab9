//! `ALTER INDEX old RENAME TO new` (see `sql::index_renames`): SQLite
//! renames no index, so the index is dropped and made again from its own
//! definition under the new name, with its comment, in one savepoint. So is a
//! view for `ALTER VIEW ... RENAME TO` (the views that read it by its old name
//! are left as they are).

use sqlx::{AssertSqlSafe, Executor};

use super::connection::HeldConnection;
use crate::error::{Error, SqlState};
use crate::sql::IndexRename;
use crate::sql::index_renames::renamed_sql;
use crate::sql::quote::identifier;

/// Runs `rename` on the connection (the writer, under the write permit).
pub(super) async fn run(conn: &mut HeldConnection, rename: &IndexRename) -> Result<(), Error> {
    let sqlx = conn.sqlx();
    let (kind, keyword) = match rename.view {
        true => ("view", "VIEW"),
        false => ("index", "INDEX"),
    };
    let found: Option<(Option<String>,)> = sqlx::query_as(
        "SELECT sql FROM main.sqlite_schema WHERE type = ?2 AND name = ?1 COLLATE NOCASE",
    )
    .bind(&rename.from)
    .bind(kind)
    .fetch_optional(&mut *sqlx)
    .await?;
    let missing = || {
        Error::state(
            SqlState::UNDEFINED_TABLE,
            format!("relation \"{}\" does not exist", rename.from),
        )
    };
    let sql = match found {
        None if rename.if_exists => return Ok(()),
        None => return Err(missing()),
        Some((sql,)) => sql,
    };
    // SQLite's own index of a key declared in its table has no definition.
    let Some(made) = sql
        .as_deref()
        .and_then(|sql| renamed_sql(sql, keyword, &rename.to))
    else {
        return Err(Error::state(
            SqlState::FEATURE_NOT_SUPPORTED,
            format!(
                "renaming \"{}\", the index of a key declared with its table, is not supported",
                rename.from
            ),
        ));
    };
    let taken: Option<(i64,)> =
        sqlx::query_as("SELECT 1 FROM main.sqlite_schema WHERE name = ?1 COLLATE NOCASE")
            .bind(&rename.to)
            .fetch_optional(&mut *sqlx)
            .await?;
    if taken.is_some() && !rename.to.eq_ignore_ascii_case(&rename.from) {
        return Err(Error::state(
            SqlState::DUPLICATE_TABLE,
            format!("relation \"{}\" already exists", rename.to),
        ));
    }
    sqlx.execute("SAVEPOINT litewire_index_rename").await?;
    let result = async {
        sqlx.execute(AssertSqlSafe(format!(
            "DROP {keyword} main.{}",
            identifier(&rename.from)
        )))
        .await?;
        sqlx.execute(AssertSqlSafe(made)).await?;
        let comments: Option<(String,)> = sqlx::query_as(
            "SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name = 'litewire_comments'",
        )
        .fetch_optional(&mut *sqlx)
        .await?;
        if comments.is_some() {
            sqlx::query("UPDATE main.litewire_comments SET relation = ?2 WHERE relation = ?1")
                .bind(&rename.from)
                .bind(&rename.to)
                .execute(&mut *sqlx)
                .await?;
        }
        Ok::<(), Error>(())
    }
    .await;
    if result.is_err() {
        sqlx.execute("ROLLBACK TO litewire_index_rename").await?;
    }
    sqlx.execute("RELEASE litewire_index_rename").await?;
    result
}
