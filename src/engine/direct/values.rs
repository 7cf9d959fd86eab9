//! Values between Rust and SQLite's C API: parameters bound, rows and result
//! columns read, the connection's error read with its extended code.

use std::ffi::{CStr, c_int};
use std::sync::Arc;

use libsqlite3_sys as ffi;

use crate::engine::result::Column;
use crate::engine::value::{StorageClass, Value};
use crate::error::Error;

/// # Safety
/// `stmt` must be a valid statement, locked for the caller.
pub(super) unsafe fn bind(stmt: *mut ffi::sqlite3_stmt, index: c_int, value: &Value) -> c_int {
    // SAFETY: per the caller.
    unsafe {
        match value {
            Value::Null => ffi::sqlite3_bind_null(stmt, index),
            Value::Integer(i) => ffi::sqlite3_bind_int64(stmt, index, *i),
            Value::Real(f) => ffi::sqlite3_bind_double(stmt, index, *f),
            Value::Text(s) => ffi::sqlite3_bind_text64(
                stmt,
                index,
                s.as_ptr().cast(),
                s.len() as u64,
                ffi::SQLITE_TRANSIENT(),
                ffi::SQLITE_UTF8 as u8,
            ),
            Value::Blob(b) => ffi::sqlite3_bind_blob64(
                stmt,
                index,
                b.as_ptr().cast(),
                b.len() as u64,
                ffi::SQLITE_TRANSIENT(),
            ),
        }
    }
}

/// # Safety
/// A row of `stmt` must be current.
pub(super) unsafe fn read_row(stmt: *mut ffi::sqlite3_stmt, width: c_int) -> Vec<Value> {
    // SAFETY: per the caller; pointers are read before the next step.
    (0..width).map(|i| unsafe { read_value(stmt, i) }).collect()
}

/// # Safety
/// A row of `stmt` must be current and `i` one of its columns.
pub(super) unsafe fn read_value(stmt: *mut ffi::sqlite3_stmt, i: c_int) -> Value {
    // SAFETY: per the caller; text and blob pointers stay valid until the next
    // step or column call, and are copied at once.
    unsafe {
        match ffi::sqlite3_column_type(stmt, i) {
            ffi::SQLITE_INTEGER => Value::Integer(ffi::sqlite3_column_int64(stmt, i)),
            ffi::SQLITE_FLOAT => Value::Real(ffi::sqlite3_column_double(stmt, i)),
            ffi::SQLITE_TEXT => {
                let ptr = ffi::sqlite3_column_text(stmt, i);
                let len = usize::try_from(ffi::sqlite3_column_bytes(stmt, i)).unwrap_or(0);
                let bytes = if ptr.is_null() {
                    &[][..]
                } else {
                    std::slice::from_raw_parts(ptr, len)
                };
                // SQLite does not check that TEXT is UTF-8; show what is there.
                Value::Text(String::from_utf8_lossy(bytes).into_owned())
            }
            ffi::SQLITE_BLOB => {
                let ptr = ffi::sqlite3_column_blob(stmt, i).cast::<u8>();
                let len = usize::try_from(ffi::sqlite3_column_bytes(stmt, i)).unwrap_or(0);
                if ptr.is_null() {
                    Value::Blob(Vec::new())
                } else {
                    Value::Blob(std::slice::from_raw_parts(ptr, len).to_vec())
                }
            }
            _ => Value::Null,
        }
    }
}

/// Result columns: names, the declared type of the table column each comes from,
/// and for expressions the storage class of their first non-NULL value.
///
/// # Safety
/// `stmt` must be a valid statement, locked for the caller.
pub(super) unsafe fn columns(
    stmt: *mut ffi::sqlite3_stmt,
    width: c_int,
    rows: &[Vec<Value>],
) -> Vec<Column> {
    (0..width)
        .map(|i| {
            // SAFETY: per the caller; the strings are copied at once.
            let (name, decltype) = unsafe {
                (
                    text(ffi::sqlite3_column_name(stmt, i)).unwrap_or_default(),
                    text(ffi::sqlite3_column_decltype(stmt, i)),
                )
            };
            let storage = rows
                .iter()
                .filter_map(|row| row.get(usize::try_from(i).unwrap_or(0)))
                .map(Value::storage_class)
                .find(|class| *class != StorageClass::Null);
            Column {
                name,
                decltype: decltype.filter(|d| !d.is_empty()).map(Arc::from),
                storage,
            }
        })
        .collect()
}

/// Whether every column has a type: a declared one, or its first value's.
pub(super) fn all_typed(columns: &[Column]) -> bool {
    columns
        .iter()
        .all(|c| c.decltype.is_some() || c.storage.is_some())
}

/// # Safety
/// `ptr` must be null or a NUL-terminated string valid for the call.
pub(super) unsafe fn text(ptr: *const std::ffi::c_char) -> Option<String> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: per the caller.
    Some(
        unsafe { CStr::from_ptr(ptr) }
            .to_string_lossy()
            .into_owned(),
    )
}

/// The connection's current error, with SQLite's extended code.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
pub(super) unsafe fn error(db: *mut ffi::sqlite3, rc: c_int) -> Error {
    // SAFETY: per the caller.
    let (code, message) = unsafe {
        let code = ffi::sqlite3_extended_errcode(db);
        let message = text(ffi::sqlite3_errmsg(db)).unwrap_or_default();
        (if code == ffi::SQLITE_OK { rc } else { code }, message)
    };
    // SAFETY: per the caller.
    let violated = unsafe { super::violations::unique(db, code, &message) };
    Error {
        violated: violated.map(Box::new),
        ..Error::sqlite(code, message)
    }
}

/// The connection's current error after `stmt` failed: as [`error`], with a
/// foreign-key failure's key, as PostgreSQL names it, where the statement
/// tells which it was (see `violations::foreign_key`); SQLite's error stays
/// what the HTTP front ends send.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller, and
/// `stmt` one of its statements.
pub(super) unsafe fn statement_error(
    db: *mut ffi::sqlite3,
    stmt: *mut ffi::sqlite3_stmt,
    rc: c_int,
) -> Error {
    // SAFETY: per the caller.
    let error = unsafe { error(db, rc) };
    // `ON DELETE RESTRICT` fails as a trigger does, with the same message.
    let foreign_key = error
        .sqlite_code()
        .is_some_and(|code| code & 0xff == ffi::SQLITE_CONSTRAINT)
        && error.message == "FOREIGN KEY constraint failed";
    if !foreign_key {
        return error;
    }
    // SAFETY: per the caller; the text lives as long as the statement.
    let Some(sql) = (unsafe { text(ffi::sqlite3_sql(stmt)) }) else {
        return error;
    };
    // SAFETY: per the caller.
    let violated = unsafe { super::violations::foreign_key(db, &sql) };
    Error {
        violated: violated.map(Box::new),
        ..error
    }
}
