//! `ALTER TABLE` forms SQLite lacks, by rebuilding the table: SQLite's own
//! procedure for schema changes it has no statement for
//! (<https://www.sqlite.org/lang_altertable.html#otheralter>). Under a savepoint,
//! so that it works inside a client's transaction as well as alone and a failure
//! leaves everything as it was:
//!
//! 1. the table's definition is read from `sqlite_schema` and edited (see
//!    `sql::table_definition`);
//! 2. a table is made under the new definition and the rows copied into it,
//!    rowids kept, each column through its `USING` expression if it has one
//!    (SQLite checks NOT NULL and UNIQUE as the rows go in; the CHECKs are
//!    checked after, each by a query, but for those added `NOT VALID`, which
//!    hold only for rows written later);
//! 3. the old table is dropped, the new one renamed to its name, and the old
//!    table's indexes and triggers made again (views name the table and need
//!    nothing);
//! 4. `foreign_key_check` over the table and the tables that reference it
//!    (but for foreign keys added `NOT VALID`).
//!
//! Steps 2 and 3 run with foreign keys off: with them on, dropping the old
//! table would first delete its rows, running the ON DELETE actions of the
//! tables that reference it (a CASCADE would empty them). `PRAGMA foreign_keys`
//! cannot change inside a transaction, so the connection's flag is switched with
//! `sqlite3_db_config`, which can; and `legacy_alter_table` keeps the rename
//! from rewriting or checking the views and triggers that name the table. Both
//! are back as they were before anything else runs on the connection.

use std::ffi::c_int;

use libsqlite3_sys as ffi;
use sqlx::{AssertSqlSafe, Executor, Row, SqliteConnection};

use super::access::Access;
use super::connection::HeldConnection;
use crate::error::SqlState;
use crate::error::{Error, ErrorKind};
use crate::sql::enums::add_checks;
use crate::sql::quote::identifier;
use crate::sql::table_definition::{
    ConstraintKind, Mark, TableDefinition, mentions, no_such_column, renamed_index,
};
use crate::sql::{AlterAction, AlterTable};

/// The new table's name while it is filled.
const SCRATCH: &str = "litewire_rebuild";

/// Runs `alter` on the connection (the writer, under the write permit).
pub(super) async fn run(conn: &mut HeldConnection, alter: &AlterTable) -> Result<(), Error> {
    conn.sqlx().execute("SAVEPOINT litewire_rebuild").await?;
    let result = rebuild(conn, alter).await;
    let sqlx = conn.sqlx();
    match result {
        Ok(()) => {
            sqlx.execute("RELEASE litewire_rebuild").await?;
            Ok(())
        }
        Err(error) => {
            sqlx.execute("ROLLBACK TO litewire_rebuild").await?;
            sqlx.execute("RELEASE litewire_rebuild").await?;
            Err(error)
        }
    }
}

/// A schema object of the table to make again after the swap.
pub(super) struct Dependent {
    pub(super) name: String,
    pub(super) sql: String,
}

async fn rebuild(conn: &mut HeldConnection, alter: &AlterTable) -> Result<(), Error> {
    let sqlx = conn.sqlx();
    for (i, statement) in alter.before.iter().enumerate() {
        execute(sqlx, statement).await?;
        if i == 0
            && let Some(condition) = &alter.only_if
        {
            let holds: bool =
                sqlx::query_scalar(AssertSqlSafe(format!("SELECT ({condition}) <> 0")))
                    .fetch_one(&mut *sqlx)
                    .await?;
            if !holds {
                return Ok(());
            }
        }
    }
    // A temporary table first, as PostgreSQL looks in `pg_temp` first.
    let Some(row) = sqlx::query(
        "SELECT name, sql, 'temp' FROM temp.sqlite_schema \
         WHERE type = 'table' AND name = ?1 COLLATE NOCASE \
         UNION ALL SELECT name, sql, 'main' FROM main.sqlite_schema \
         WHERE type = 'table' AND name = ?1 COLLATE NOCASE LIMIT 1",
    )
    .bind(&alter.table)
    .fetch_optional(&mut *sqlx)
    .await?
    else {
        if alter.if_exists {
            return Ok(());
        }
        return Err(Error::new(
            ErrorKind::Sqlite {
                code: ffi::SQLITE_ERROR,
            },
            format!("relation \"{}\" does not exist", alter.table),
        ));
    };
    let table: String = row.try_get(0)?;
    let old = TableDefinition::parse(&row.try_get::<String, _>(1)?)?;
    let schema = match row.try_get::<String, _>(2)?.as_str() {
        "temp" => Schema::Temp,
        _ => Schema::Main,
    };
    let mut dependents: Vec<Dependent> = sqlx::query(AssertSqlSafe(format!(
        "SELECT name, sql FROM {}.sqlite_schema WHERE tbl_name = ?1 \
         AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, rowid",
        schema.name()
    )))
    .bind(&table)
    .fetch_all(&mut *sqlx)
    .await?
    .iter()
    .map(|r| {
        Ok(Dependent {
            name: r.try_get(0)?,
            sql: r.try_get(1)?,
        })
    })
    .collect::<Result<_, Error>>()?;
    let mut new = old.clone();
    for action in &alter.actions {
        apply(&mut new, &mut dependents, action)?;
    }
    add_checks(&mut new, &super::catalog::load_enums(conn.sqlx()).await?);
    swap(conn, schema, &table, &table, &old, &new, &dependents).await?;
    check_views(conn.sqlx(), &table).await?;
    check_foreign_keys(conn.sqlx(), &table, &new).await
}

/// Applies one action to the definition (or, for constraints that are indexes
/// of their own, to the indexes made again after the swap).
fn apply(
    def: &mut TableDefinition,
    dependents: &mut Vec<Dependent>,
    action: &AlterAction,
) -> Result<(), Error> {
    let index_named = |dependents: &[Dependent], name: &str| {
        dependents
            .iter()
            .position(|d| d.name.eq_ignore_ascii_case(name) && is_index(&d.sql))
    };
    match action {
        AlterAction::AddColumn {
            column,
            if_not_exists,
        } => {
            let exists = def
                .columns()
                .any(|c| c.name.eq_ignore_ascii_case(&column.name));
            if !(exists && *if_not_exists) {
                def.add_column(column.clone())?;
            }
        }
        AlterAction::DropColumn { column, if_exists } => {
            if def.drop_column(column) {
                // Its indexes go with it.
                dependents.retain(|d| !(is_index(&d.sql) && mentions(index_body(&d.sql), column)));
            } else if !*if_exists {
                return Err(no_such_column(column, &def.table));
            }
        }
        AlterAction::AddConstraint(constraint) => {
            if let Some(name) = &constraint.name
                && index_named(dependents, name).is_some()
            {
                return Err(already_exists(name, &def.table));
            }
            def.add_constraint(constraint.clone())?
        }
        AlterAction::DropConstraint { name, if_exists } => {
            if !def.drop_constraint(name) {
                match index_named(dependents, name) {
                    Some(i) => drop(dependents.remove(i)),
                    None if *if_exists => {}
                    None => return Err(no_such_constraint(name, &def.table)),
                }
            }
        }
        AlterAction::RenameConstraint { from, to } => {
            if index_named(dependents, to).is_some() {
                return Err(already_exists(to, &def.table));
            }
            if !def.rename_constraint(from, to)? {
                let i = index_named(dependents, from)
                    .ok_or_else(|| no_such_constraint(from, &def.table))?;
                let renamed = renamed_index(&dependents[i].sql, to)
                    .ok_or_else(|| no_such_constraint(from, &def.table))?;
                dependents[i] = Dependent {
                    name: to.clone(),
                    sql: renamed,
                };
            }
        }
        AlterAction::ValidateConstraint { name } => {
            let constraint = def.constraint_mut(name);
            match constraint {
                Some(c) if matches!(c.kind, ConstraintKind::Check | ConstraintKind::ForeignKey) => {
                    c.set_mark(Mark::NotValid, false)
                }
                None if index_named(dependents, name).is_none() => {
                    return Err(no_such_constraint(name, &def.table));
                }
                _ => {
                    return Err(wrong_kind(
                        name,
                        &def.table,
                        "a foreign key or check constraint",
                    ));
                }
            }
        }
        AlterAction::AlterConstraint {
            name,
            deferrable,
            deferred,
        } => {
            let constraint = def.constraint_mut(name);
            match constraint {
                Some(c) if c.kind == ConstraintKind::ForeignKey => {
                    c.set_deferral(*deferrable, *deferred)
                }
                None if index_named(dependents, name).is_none() => {
                    return Err(no_such_constraint(name, &def.table));
                }
                _ => return Err(wrong_kind(name, &def.table, "a foreign key constraint")),
            }
        }
        AlterAction::SetType {
            column,
            type_sql,
            using,
        } => {
            let column = def.column_mut(column)?;
            // The rowid's alias stays one (a `serial` key made `bigint`): its
            // type must stay INTEGER for that.
            let rowid_alias = column.type_sql.eq_ignore_ascii_case("INTEGER")
                && column
                    .constraints
                    .iter()
                    .any(|c| c.kind == ConstraintKind::PrimaryKey);
            if !(rowid_alias && is_integer_type(type_sql)) {
                column.type_sql = type_sql.clone();
            }
            if let Some(using) = using {
                column.source = Some(using.clone());
            }
        }
        AlterAction::SetNotNull { column, not_null } => {
            def.column_mut(column)?.set_not_null(*not_null)
        }
        AlterAction::SetDefault { column, expr } => {
            def.column_mut(column)?.set_default(expr.as_deref())
        }
    }
    Ok(())
}

/// Whether a declared type is one of PostgreSQL's integer types.
fn is_integer_type(type_sql: &str) -> bool {
    matches!(
        type_sql.trim().to_ascii_lowercase().as_str(),
        "integer" | "int" | "int4" | "bigint" | "int8" | "smallint" | "int2"
    )
}

/// What follows an index's `ON table`: its columns and WHERE clause.
fn index_body(sql: &str) -> &str {
    sql.find('(').map_or(sql, |open| &sql[open..])
}

fn is_index(sql: &str) -> bool {
    let upper = sql.trim_start().to_ascii_uppercase();
    upper.starts_with("CREATE INDEX") || upper.starts_with("CREATE UNIQUE INDEX")
}

/// Steps 2 and 3: the new table, filled, in the old one's place, named `to`
/// (the old one's name but for a renamed schema's table).
/// Where SQLite keeps a table: the database's own tables, or the
/// connection's temporary ones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Schema {
    Main,
    Temp,
}

impl Schema {
    fn name(self) -> &'static str {
        match self {
            Schema::Main => "main",
            Schema::Temp => "temp",
        }
    }
}

pub(super) async fn swap(
    conn: &mut HeldConnection,
    schema: Schema,
    table: &str,
    to: &str,
    old: &TableDefinition,
    new: &TableDefinition,
    dependents: &[Dependent],
) -> Result<(), Error> {
    let keep_rowid = !old.without_rowid() && !new.without_rowid();
    let mut targets = Vec::new();
    let mut sources = Vec::new();
    if keep_rowid {
        targets.push("rowid".to_owned());
        sources.push("rowid".to_owned());
    }
    for column in new.columns() {
        if let Some(source) = &column.source {
            targets.push(identifier(&column.name));
            sources.push(source.clone());
        }
    }
    let within = schema.name();
    let create = match schema {
        Schema::Main => new.create_sql(SCRATCH),
        Schema::Temp => new
            .create_sql(SCRATCH)
            .replacen("CREATE TABLE", "CREATE TEMP TABLE", 1),
    };
    let statements = [
        format!("DROP TABLE IF EXISTS {within}.{SCRATCH}"),
        create,
        format!(
            "INSERT INTO {within}.{SCRATCH} ({}) SELECT {} FROM {within}.{}",
            targets.join(", "),
            sources.join(", "),
            identifier(table)
        ),
        format!("DROP TABLE {within}.{}", identifier(table)),
        format!(
            "ALTER TABLE {within}.{SCRATCH} RENAME TO {}",
            identifier(to)
        ),
    ];
    let flags = Flags::switch(conn).await?;
    let mut result = Ok(());
    for (i, statement) in statements
        .iter()
        .map(String::as_str)
        .chain(dependents.iter().map(|d| d.sql.as_str()))
        .enumerate()
    {
        result = execute(conn.sqlx(), statement).await;
        // Once filled, the new table's rows hold its CHECKs.
        if i == 2 && result.is_ok() {
            result = check_rows(conn.sqlx(), table, new).await;
        }
        if result.is_err() {
            break;
        }
    }
    flags.restore(conn).await?;
    result.map_err(|error| {
        let message = error
            .message
            .replace(&format!("{SCRATCH}."), &format!("{table}."));
        Error { message, ..error }
    })
}

/// Every row of the new table, filled, holds every CHECK but those marked
/// `NOT VALID` (23514, as PostgreSQL words it).
async fn check_rows(
    conn: &mut SqliteConnection,
    table: &str,
    def: &TableDefinition,
) -> Result<(), Error> {
    for (name, check) in def.named_constraints() {
        if check.kind != ConstraintKind::Check || check.marked(Mark::NotValid) {
            continue;
        }
        let violated = sqlx::query(AssertSqlSafe(format!(
            "SELECT 1 FROM {SCRATCH} WHERE NOT ({}) LIMIT 1",
            check.check_expression()
        )))
        .persistent(false)
        .fetch_optional(&mut *conn)
        .await?;
        if violated.is_none() {
            continue;
        }
        // An enum's or a domain's CHECK fails as SQLite fails it, for the
        // type's own error.
        let internal = name.starts_with(crate::sql::enums::CHECK_PREFIX)
            || name.starts_with(crate::sql::domains::CHECK_PREFIX);
        return Err(match internal {
            true => Error::new(
                ErrorKind::Sqlite {
                    code: ffi::SQLITE_CONSTRAINT_CHECK,
                },
                format!("CHECK constraint failed: {name}"),
            ),
            false => Error::state(
                SqlState::CHECK_VIOLATION,
                format!(
                    "check constraint \"{name}\" of relation \"{table}\" is violated by some row"
                ),
            ),
        });
    }
    Ok(())
}

/// Every view still reads: none names a column the table no longer has.
async fn check_views(conn: &mut SqliteConnection, table: &str) -> Result<(), Error> {
    let views: Vec<String> =
        sqlx::query_scalar("SELECT name FROM main.sqlite_schema WHERE type = 'view'")
            .fetch_all(&mut *conn)
            .await?;
    for view in views {
        let reads = execute(
            conn,
            &format!("SELECT * FROM {} LIMIT 0", identifier(&view)),
        )
        .await;
        if reads.is_err() {
            return Err(Error::new(
                ErrorKind::Sqlite {
                    code: ffi::SQLITE_ERROR,
                },
                format!(
                    "cannot alter table \"{table}\" because other objects depend on it \
                     (view {view} reads what the change takes away)"
                ),
            ));
        }
    }
    Ok(())
}

/// Step 4: every row of the table, and of the tables referencing it, has the
/// row its foreign keys reference.
async fn check_foreign_keys(
    conn: &mut SqliteConnection,
    table: &str,
    def: &TableDefinition,
) -> Result<(), Error> {
    let children: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT m.name FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS f \
         WHERE m.type = 'table' AND f.\"table\" = ?1 COLLATE NOCASE AND m.name <> ?1",
    )
    .bind(table)
    .fetch_all(&mut *conn)
    .await?;
    for checked in std::iter::once(table.to_owned()).chain(children) {
        let violations = sqlx::query(
            "SELECT \"parent\", fkid, min(rowid) FROM pragma_foreign_key_check(?1) GROUP BY fkid",
        )
        .bind(&checked)
        .fetch_all(&mut *conn)
        .await
        .map_err(|error| {
            let error = Error::from(error);
            Error::new(
                error.kind,
                format!(
                    "cannot alter table \"{table}\" because other objects depend on it: {}",
                    error.message
                ),
            )
        })?;
        if violations.is_empty() {
            continue;
        }
        let child = if checked == table {
            Some(def.clone())
        } else {
            let sql: Option<String> = sqlx::query_scalar(
                "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1",
            )
            .bind(&checked)
            .fetch_optional(&mut *conn)
            .await?;
            sql.and_then(|sql| TableDefinition::parse(&sql).ok())
        };
        for violation in violations {
            let parent: String = violation.try_get(0)?;
            let fkid: i64 = violation.try_get(1)?;
            let rowid: Option<i64> = violation.try_get(2)?;
            let columns: Vec<String> = sqlx::query_scalar(
                "SELECT \"from\" FROM pragma_foreign_key_list(?1) WHERE id = ?2 ORDER BY seq",
            )
            .bind(&checked)
            .bind(fkid)
            .fetch_all(&mut *conn)
            .await?;
            // A key added NOT VALID leaves the rows already there alone.
            let key = child.as_ref().and_then(|d| d.foreign_key(&columns));
            if key.is_some_and(|k| k.marked(Mark::NotValid)) {
                continue;
            }
            let name = child
                .as_ref()
                .and_then(|d| d.foreign_key_name(&columns))
                .unwrap_or_else(|| format!("{checked}_{}_fkey", columns.join("_")));
            let mut error = Error::new(
                ErrorKind::Sqlite {
                    code: ffi::SQLITE_CONSTRAINT_FOREIGNKEY,
                },
                format!(
                    "insert or update on table \"{checked}\" violates foreign key constraint \"{name}\""
                ),
            );
            if let Some(rowid) = rowid {
                let values: Vec<String> = columns
                    .iter()
                    .map(|c| format!("CAST({} AS TEXT)", identifier(c)))
                    .collect();
                let row = sqlx::query(AssertSqlSafe(format!(
                    "SELECT {} FROM {} WHERE rowid = ?1",
                    values.join(", "),
                    identifier(&checked)
                )))
                .bind(rowid)
                .fetch_optional(&mut *conn)
                .await?;
                if let Some(row) = row {
                    let values = (0..columns.len())
                        .map(|i| {
                            row.try_get::<Option<String>, _>(i)
                                .map(Option::unwrap_or_default)
                        })
                        .collect::<Result<Vec<_>, _>>()?;
                    error = error.with_detail(format!(
                        "Key ({})=({}) is not present in table \"{parent}\".",
                        columns.join(", "),
                        values.join(", ")
                    ));
                }
            }
            return Err(error);
        }
    }
    Ok(())
}

pub(super) async fn execute(conn: &mut SqliteConnection, sql: &str) -> Result<(), Error> {
    sqlx::query(AssertSqlSafe(sql.to_owned()))
        .persistent(false)
        .execute(&mut *conn)
        .await?;
    Ok(())
}

/// The connection's foreign key, legacy ALTER TABLE and CHECK flags as they
/// were.
struct Flags {
    foreign_keys: c_int,
    legacy_alter_table: c_int,
    ignore_checks: bool,
}

impl Flags {
    /// Foreign keys off, legacy ALTER TABLE on, CHECKs not checked (see
    /// `check_rows`); returns what they were.
    async fn switch(conn: &mut HeldConnection) -> Result<Flags, Error> {
        let ignore_checks: bool = sqlx::query_scalar("PRAGMA ignore_check_constraints")
            .fetch_one(conn.sqlx())
            .await?;
        checks_off(conn, true).await?;
        let (handle, _) = conn.direct().await?;
        let db = handle.db();
        // SAFETY: the handle is locked for this session; each call passes the
        // (int, int*) pair these options take.
        let flags = unsafe {
            Flags {
                foreign_keys: set_db_config(db, ffi::SQLITE_DBCONFIG_ENABLE_FKEY, 0),
                legacy_alter_table: set_db_config(db, ffi::SQLITE_DBCONFIG_LEGACY_ALTER_TABLE, 1),
                ignore_checks,
            }
        };
        Ok(flags)
    }

    async fn restore(self, conn: &mut HeldConnection) -> Result<(), Error> {
        checks_off(conn, self.ignore_checks).await?;
        let (handle, _) = conn.direct().await?;
        let db = handle.db();
        // SAFETY: as in `switch`.
        unsafe {
            set_db_config(db, ffi::SQLITE_DBCONFIG_ENABLE_FKEY, self.foreign_keys);
            set_db_config(
                db,
                ffi::SQLITE_DBCONFIG_LEGACY_ALTER_TABLE,
                self.legacy_alter_table,
            );
        }
        Ok(())
    }
}

/// `PRAGMA ignore_check_constraints`, which litewire's own statements may set
/// whatever the session's role (see `access`).
async fn checks_off(conn: &mut HeldConnection, off: bool) -> Result<(), Error> {
    let access = {
        let (handle, _) = conn.direct().await?;
        // SAFETY: the handle is locked for this session.
        unsafe { Access::of(handle.db()) }
    };
    if let Some(access) = &access {
        access.allow_check_switch(true);
    }
    let pragma = format!("PRAGMA ignore_check_constraints = {off}");
    let result = execute(conn.sqlx(), &pragma).await;
    if let Some(access) = &access {
        access.allow_check_switch(false);
    }
    result
}

/// Sets a boolean `sqlite3_db_config` option; returns its value before.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
pub(super) unsafe fn set_db_config(db: *mut ffi::sqlite3, option: c_int, value: c_int) -> c_int {
    let mut before: c_int = 0;
    // SAFETY: per the caller; -1 only reads the option.
    unsafe {
        ffi::sqlite3_db_config(db, option, -1 as c_int, &mut before as *mut c_int);
        ffi::sqlite3_db_config(db, option, value, std::ptr::null_mut::<c_int>());
    }
    before
}

fn no_such_constraint(name: &str, table: &str) -> Error {
    Error::new(
        ErrorKind::UndefinedObject,
        format!("constraint \"{name}\" of relation \"{table}\" does not exist"),
    )
}

/// 42809: `VALIDATE` or `ALTER CONSTRAINT` of a constraint it does not apply to.
fn wrong_kind(name: &str, table: &str, what: &str) -> Error {
    Error::state(
        SqlState::WRONG_OBJECT_TYPE,
        format!("constraint \"{name}\" of relation \"{table}\" is not {what}"),
    )
}

fn already_exists(name: &str, table: &str) -> Error {
    Error::new(
        ErrorKind::Sqlite {
            code: ffi::SQLITE_ERROR,
        },
        format!("constraint \"{name}\" for relation \"{table}\" already exists"),
    )
}
