//! A unique violation named as PostgreSQL names it. SQLite says which table
//! and columns (`UNIQUE constraint failed: t.a, t.b`); PostgreSQL says which
//! constraint or unique index (`duplicate key value violates unique
//! constraint "t_a_key"`) and sends its schema, table and name as fields of
//! the error, which clients read: Prisma reports the violated fields by that
//! index name. The name is found, on the connection the statement failed on,
//! as the catalog shows it: a unique index by its own name, a `UNIQUE` or
//! `PRIMARY KEY` constraint by the name its `CREATE TABLE` gives it or
//! PostgreSQL's default (`t_a_key`, `t_pkey`).

use std::ffi::{CStr, c_int};
use std::ptr::NonNull;

use libsqlite3_sys as ffi;

use crate::error::Violated;
use crate::sql::table_definition::{ConstraintKind, TableDefinition};

/// The table's `CREATE TABLE` text, and the unique index over exactly the
/// columns (by position), with its origin (`c`: `CREATE INDEX`, `u`, `pk`).
const LOOKUP: &str = "SELECT s.sql, il.name, il.origin FROM sqlite_schema AS s \
     LEFT JOIN pragma_index_list(s.name) AS il ON il.\"unique\" AND \
     (SELECT group_concat(name, ',') FROM \
     (SELECT name FROM pragma_index_info(il.name) ORDER BY seqno)) = ?2 \
     WHERE s.type = 'table' AND s.name = ?1";

/// The constraint a SQLite unique failure (`message`, extended `code`) broke;
/// `None` where the message names no table's columns or the table is not
/// found (a temporary one).
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
pub(super) unsafe fn unique(db: *mut ffi::sqlite3, code: c_int, message: &str) -> Option<Violated> {
    if code != ffi::SQLITE_CONSTRAINT_UNIQUE && code != ffi::SQLITE_CONSTRAINT_PRIMARYKEY {
        return None;
    }
    let list = message.strip_prefix("UNIQUE constraint failed: ")?;
    // A unique index on expressions is named by SQLite itself.
    if let Some(index) = list
        .strip_prefix("index '")
        .and_then(|i| i.strip_suffix('\''))
    {
        // SAFETY: per the caller.
        let row = unsafe { lookup(db, INDEX_TABLE, &[index])? };
        let table = row.into_iter().next().flatten()?;
        let (schema, name) = split_stored(&table);
        return Some(unique_violated(
            schema,
            name,
            split_stored(index).1.to_owned(),
        ));
    }
    let mut table = None;
    let mut columns = Vec::new();
    for qualified in list.split(", ") {
        let (of, column) = qualified.rsplit_once('.')?;
        if table.get_or_insert(of) != &of {
            return None;
        }
        columns.push(column.to_owned());
    }
    let stored = table?;
    // SAFETY: per the caller.
    let row = unsafe { lookup(db, LOOKUP, &[stored, &columns.join(",")])? };
    let [sql, index, origin] = <[Option<String>; 3]>::try_from(row).ok()?;
    let sql = sql?;
    let (schema, name) = split_stored(stored);
    let constraint = match (index, origin.as_deref()) {
        (Some(index), Some("c")) => split_stored(&index).1.to_owned(),
        (_, origin) => {
            let kind = match (origin, code) {
                (Some("pk"), _) | (None, ffi::SQLITE_CONSTRAINT_PRIMARYKEY) => {
                    ConstraintKind::PrimaryKey
                }
                (Some("u"), _) => ConstraintKind::Unique,
                _ => return None,
            };
            let declared = TableDefinition::parse(&sql)
                .ok()
                .and_then(|definition| definition.key_name(kind, &columns));
            match (declared, kind) {
                (Some(declared), _) => split_stored(&declared).1.to_owned(),
                (None, ConstraintKind::PrimaryKey) => format!("{name}_pkey"),
                (None, _) => format!("{name}_{}_key", columns.join("_")),
            }
        }
    };
    Some(unique_violated(schema, name, constraint))
}

fn unique_violated(schema: Option<&str>, table: &str, constraint: String) -> Violated {
    Violated {
        message: format!("duplicate key value violates unique constraint \"{constraint}\""),
        schema: schema.unwrap_or("public").to_owned(),
        table: table.to_owned(),
        constraint,
    }
}

/// How many foreign keys a table has, and the first's columns (in order).
const CHILD_KEYS: &str = "SELECT count(DISTINCT id), \
     (SELECT group_concat(\"from\", ',') FROM (SELECT \"from\" FROM pragma_foreign_key_list(?1) \
      WHERE id = (SELECT min(id) FROM pragma_foreign_key_list(?1)) ORDER BY seq)) \
     FROM pragma_foreign_key_list(?1)";

/// How many foreign keys refer to a table, and the first's table, columns
/// and actions on delete and on update.
const PARENT_KEYS: &str = "SELECT count(*), min(child), min(columns), min(on_delete), min(on_update) FROM \
     (SELECT m.name AS child, group_concat(fk.\"from\", ',') AS columns, \
      min(fk.on_delete) AS on_delete, min(fk.on_update) AS on_update \
      FROM sqlite_schema AS m, pragma_foreign_key_list(m.name) AS fk \
      WHERE m.type = 'table' AND fk.\"table\" = ?1 COLLATE NOCASE GROUP BY m.name, fk.id)";

/// A table's `CREATE TABLE` text.
const TABLE_SQL: &str = "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?1";

/// A foreign-key failure of the statement `sql` as PostgreSQL reports it:
/// the constraint it names, in PostgreSQL's words. SQLite does not say which key
/// failed, so the key is named where the statement's table has only one that
/// could have: the one it has (an `INSERT`, an `UPDATE` of a table nothing
/// refers to) or the one that refers to it and refuses the change (a
/// `DELETE`, an `UPDATE` of a table with no keys of its own); `None`
/// otherwise.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
pub(super) unsafe fn foreign_key(db: *mut ffi::sqlite3, sql: &str) -> Option<Violated> {
    let (verb, table) = written_table(sql)?;
    // SAFETY: per the caller.
    let count = |query: &str| unsafe {
        let row = lookup(db, query, &[&table])?;
        let n: usize = row.first()?.as_deref()?.parse().ok()?;
        Some((n, row))
    };
    let (children, child_row) = count(CHILD_KEYS).unwrap_or((0, Vec::new()));
    let (parents, parent_row) = count(PARENT_KEYS).unwrap_or((0, Vec::new()));
    // A key that cascades (or sets NULL or its default) does not fail
    // itself: what failed is further on, which SQLite does not say.
    let refuses = |action: Option<&Option<String>>| {
        action
            .cloned()
            .flatten()
            .is_some_and(|a| a == "NO ACTION" || a == "RESTRICT")
    };
    let child_side = match verb {
        "INSERT" if children == 1 => true,
        "UPDATE" if children == 1 && parents == 0 => true,
        "DELETE" if parents == 1 && refuses(parent_row.get(3)) => false,
        "UPDATE" if parents == 1 && children == 0 && refuses(parent_row.get(4)) => false,
        _ => return None,
    };
    let (owner, columns) = match child_side {
        true => (table.clone(), child_row.get(1).cloned().flatten()?),
        false => (
            parent_row.get(1).cloned().flatten()?,
            parent_row.get(2).cloned().flatten()?,
        ),
    };
    let columns: Vec<String> = columns.split(',').map(str::to_owned).collect();
    // SAFETY: per the caller.
    let create = unsafe { lookup(db, TABLE_SQL, &[&owner]) }
        .and_then(|row| row.into_iter().next().flatten());
    let (schema, owner_name) = split_stored(&owner);
    let constraint = create
        .and_then(|sql| TableDefinition::parse(&sql).ok())
        .and_then(|definition| definition.foreign_key_name(&columns))
        .map_or_else(
            || format!("{owner_name}_{}_fkey", columns.join("_")),
            |declared| split_stored(&declared).1.to_owned(),
        );
    let table_name = split_stored(&table).1;
    let message = match child_side {
        true => format!(
            "insert or update on table \"{table_name}\" violates foreign key constraint \"{constraint}\""
        ),
        false => format!(
            "update or delete on table \"{table_name}\" violates foreign key constraint \"{constraint}\" on table \"{owner_name}\""
        ),
    };
    Some(Violated {
        message,
        schema: schema.unwrap_or("public").to_owned(),
        table: owner_name.to_owned(),
        constraint,
    })
}

/// The verb of an `INSERT`, `UPDATE` or `DELETE` and the table it writes, as
/// SQLite names it.
fn written_table(sql: &str) -> Option<(&'static str, String)> {
    let mut rest = sql.trim_start();
    let mut word = || {
        let trimmed = rest.trim_start();
        let end = match trimmed.strip_prefix('"') {
            Some(quoted) => quoted.find('"').map(|i| i + 2)?,
            None => trimmed
                .find(|c: char| c.is_whitespace() || c == '(')
                .unwrap_or(trimmed.len()),
        };
        let (taken, left) = trimmed.split_at(end);
        rest = left;
        Some(taken.to_owned())
    };
    let first = word()?.to_ascii_uppercase();
    let verb = match first.as_str() {
        "INSERT" | "REPLACE" => "INSERT",
        "UPDATE" => "UPDATE",
        "DELETE" => "DELETE",
        _ => return None,
    };
    let mut name = word()?;
    while [
        "INTO", "FROM", "OR", "ROLLBACK", "ABORT", "FAIL", "IGNORE", "REPLACE",
    ]
    .iter()
    .any(|kw| name.eq_ignore_ascii_case(kw))
    {
        name = word()?;
    }
    let name = name.strip_prefix("main.").unwrap_or(&name);
    let unquoted = match name.strip_prefix('"').and_then(|n| n.strip_suffix('"')) {
        Some(inner) => inner.replace("\"\"", "\""),
        None => name.to_owned(),
    };
    Some((verb, unquoted))
}

/// The table of an index.
const INDEX_TABLE: &str = "SELECT tbl_name FROM sqlite_schema WHERE type = 'index' AND name = ?1";

/// The first row of `sql` with `binds` as its parameters, as text.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
unsafe fn lookup(db: *mut ffi::sqlite3, sql: &str, binds: &[&str]) -> Option<Vec<Option<String>>> {
    let mut stmt = std::ptr::null_mut();
    // SAFETY: per the caller; `sql` outlives the call.
    let rc = unsafe {
        ffi::sqlite3_prepare_v2(
            db,
            sql.as_ptr().cast(),
            c_int::try_from(sql.len()).ok()?,
            &mut stmt,
            std::ptr::null_mut(),
        )
    };
    let stmt = Finalized(NonNull::new(stmt)?);
    if rc != ffi::SQLITE_OK {
        return None;
    }
    let raw = stmt.0.as_ptr();
    for (index, text) in (1..).zip(binds) {
        // SAFETY: a statement of the locked handle; SQLite copies the text.
        let rc = unsafe {
            ffi::sqlite3_bind_text(
                raw,
                index,
                text.as_ptr().cast(),
                c_int::try_from(text.len()).ok()?,
                ffi::SQLITE_TRANSIENT(),
            )
        };
        if rc != ffi::SQLITE_OK {
            return None;
        }
    }
    // SAFETY: as above.
    if unsafe { ffi::sqlite3_step(raw) } != ffi::SQLITE_ROW {
        return None;
    }
    // SAFETY: a row is current; each text is copied before the next call.
    let column = |i: c_int| unsafe {
        let text = ffi::sqlite3_column_text(raw, i);
        (!text.is_null()).then(|| CStr::from_ptr(text.cast()).to_string_lossy().into_owned())
    };
    // SAFETY: as above.
    let width = unsafe { ffi::sqlite3_column_count(raw) };
    Some((0..width).map(column).collect())
}

/// A statement finalized when dropped.
struct Finalized(NonNull<ffi::sqlite3_stmt>);

impl Drop for Finalized {
    fn drop(&mut self) {
        // SAFETY: prepared here and finalized exactly once.
        unsafe { ffi::sqlite3_finalize(self.0.as_ptr()) };
    }
}

/// A SQLite name as its schema and the name in it (a schema's objects are
/// stored as `s.name`, and schema names hold no dot).
fn split_stored(stored: &str) -> (Option<&str>, &str) {
    match stored.split_once('.') {
        Some((schema, name)) => (Some(schema), name),
        None => (None, stored),
    }
}
