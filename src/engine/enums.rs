//! Enum types in the engine (see `sql::enums` for how they are kept): running
//! their DDL, the CHECK a column declared with one gets when its table is made,
//! the tables rebuilt when a type gains a label, and PostgreSQL's error for a
//! value that is not a label.

use std::sync::Arc;

use sqlx::{Executor, SqliteConnection};

use super::catalog::{load_enums as load, remember_enums};
use super::connection::HeldConnection;
use super::exec::run_script;
use crate::error::{Error, ErrorKind};
use crate::sql::enums::{CHECK_PREFIX, EnumChange, create_table_with_checks};
use crate::sql::{AlterTable, Plan, Statement};

/// Runs enum DDL: its script, then, for a new label, the rebuild of every table
/// with a column of the type, whose CHECK must take the label too.
pub(super) async fn run(conn: &mut HeldConnection, change: &EnumChange) -> Result<(), Error> {
    let sqlx = conn.sqlx();
    sqlx.execute("SAVEPOINT litewire_enum").await?;
    let result = widen(conn, change).await;
    let sqlx = conn.sqlx();
    match result {
        Ok(()) => {
            sqlx.execute("RELEASE litewire_enum").await?;
            remember_enums(sqlx).await
        }
        Err(error) => {
            sqlx.execute("ROLLBACK TO litewire_enum").await?;
            sqlx.execute("RELEASE litewire_enum").await?;
            Err(error)
        }
    }
}

async fn widen(conn: &mut HeldConnection, change: &EnumChange) -> Result<(), Error> {
    let parts: Vec<Arc<str>> = change
        .script
        .iter()
        .map(|s| Arc::from(s.as_str()))
        .collect();
    run_script(conn.sqlx(), &parts).await?;
    let Some(name) = &change.widened else {
        return Ok(());
    };
    let tables: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT m.name FROM main.sqlite_schema AS m, pragma_table_info(m.name) AS c \
         WHERE m.type = 'table' AND (c.type = ?1 COLLATE NOCASE OR c.type = 'public.' || ?1 COLLATE NOCASE)",
    )
    .bind(name)
    .fetch_all(conn.sqlx())
    .await?;
    for table in tables {
        let alter = AlterTable {
            only_if: None,
            table,
            if_exists: false,
            before: Vec::new(),
            actions: Vec::new(),
        };
        super::rebuild::run(conn, &alter).await?;
    }
    Ok(())
}

fn makes_table_sql(sql: &str) -> bool {
    let mut words = sql.split_whitespace();
    words
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("CREATE"))
        && words
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("TABLE"))
}

/// Whether `stmt` makes a table (and so may need enum CHECKs): a look at its
/// first words, before anything is read from the file.
pub(super) fn makes_table(stmt: &Statement) -> bool {
    match &stmt.plan {
        Plan::Single => makes_table_sql(&stmt.sql),
        Plan::Script(parts) => parts.iter().any(|p| makes_table_sql(p)),
        _ => false,
    }
}

/// `stmt` with the CHECKs its enum columns need, when it makes a table and the
/// file has enum types; `None` when it needs nothing.
pub(super) async fn with_checks(
    conn: &mut SqliteConnection,
    stmt: &Statement,
) -> Result<Option<Statement>, Error> {
    if !makes_table(stmt) {
        return Ok(None);
    }
    let enums = load(conn).await?;
    if enums.is_empty() {
        return Ok(None);
    }
    Ok(match &stmt.plan {
        Plan::Single => create_table_with_checks(&stmt.sql, &enums).map(|sql| Statement {
            sql: sql.into(),
            ..stmt.clone()
        }),
        Plan::Script(parts) => {
            let mut changed = false;
            let parts: Vec<Arc<str>> = parts
                .iter()
                .map(
                    |p| match makes_table_sql(p).then(|| create_table_with_checks(p, &enums)) {
                        Some(Some(sql)) => {
                            changed = true;
                            Arc::from(sql)
                        }
                        _ => p.clone(),
                    },
                )
                .collect();
            changed.then(|| Statement {
                plan: Plan::Script(parts.into()),
                ..stmt.clone()
            })
        }
        _ => None,
    })
}

/// A value refused by an enum column's CHECK is, as in PostgreSQL, invalid input
/// for the type (22P02).
pub(super) fn explain(error: Error) -> Error {
    let refused = error.sqlite_code() == Some(libsqlite3_sys::SQLITE_CONSTRAINT_CHECK);
    match error.message.split_once(CHECK_PREFIX) {
        Some((_, name)) if refused => Error::new(
            ErrorKind::InvalidParameter,
            format!("invalid input value for enum {}", name.trim()),
        ),
        _ => error,
    }
}
