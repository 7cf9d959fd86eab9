//! Sequence functions: `nextval`, `currval`, `setval`, `lastval` and
//! `pg_get_serial_sequence` (and `litewire_error`, which sequence DDL's checks
//! and a row assignment's subquery raise). They read and write a sequence's row in `litewire_sequences` on the
//! connection they run on, inside the caller's statement, and its counter in
//! the server's memory (see `engine::sequences` for why both).

use std::ffi::{CStr, CString, c_int};
use std::sync::Arc;

use libsqlite3_sys as ffi;

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::engine::sequences::{Bounds, Counter, SEQUENCE_OID, SessionValues, advance};
use crate::error::SqlState;
use crate::sql::quote::identifier_as_postgres;
use crate::sql::relation_name;
use crate::sql::schema_names::qualified;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "nextval",
        &["regclass"],
        "int8",
        Volatility::Volatile,
        nextval,
    ),
    Function::pg(
        "currval",
        &["regclass"],
        "int8",
        Volatility::Volatile,
        currval,
    ),
    Function::pg(
        "setval",
        &["regclass", "int8"],
        "int8",
        Volatility::Volatile,
        setval,
    ),
    Function::pg(
        "setval",
        &["regclass", "int8", "bool"],
        "int8",
        Volatility::Volatile,
        setval,
    ),
    Function::pg("lastval", &[], "int8", Volatility::Volatile, lastval),
    Function::pg(
        "pg_get_serial_sequence",
        &["text", "text"],
        "text",
        Volatility::Stable,
        serial_sequence,
    ),
    Function::helper(
        "litewire_error",
        Args::Fixed(&["text"]),
        Volatility::Volatile,
        raise,
    ),
    Function::helper(
        "litewire_error",
        Args::Fixed(&["text", "text"]),
        Volatility::Volatile,
        raise_state,
    ),
];

/// A sequence's row.
struct Row {
    name: String,
    bounds: Bounds,
    last_value: i64,
    is_called: bool,
    token: i64,
    /// See `Counter::numbers`.
    numbers: Option<Arc<str>>,
}

/// One value of a row read back.
pub(super) enum Cell {
    Int(i64),
    Text(String),
    Null,
}

impl Cell {
    pub(super) fn int(&self) -> i64 {
        match self {
            Cell::Int(i) => *i,
            _ => 0,
        }
    }
}

pub(super) enum Bind<'a> {
    Int(i64),
    Text(&'a str),
}

/// Why a statement inside a function failed: SQLite's primary code and message.
pub(super) struct Failure {
    code: c_int,
    pub(super) message: String,
}

/// Runs `sql` on `db` (inside the statement that called the function) and
/// returns its first row.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
pub(super) unsafe fn first_row(
    db: *mut ffi::sqlite3,
    sql: &CStr,
    binds: &[Bind],
) -> Result<Option<Vec<Cell>>, Failure> {
    // SAFETY: as the caller promises.
    let rows = unsafe { rows(db, sql, binds, 1) }?;
    Ok(rows.into_iter().next())
}

/// Runs `sql` on `db` (inside the statement that called the function) and
/// returns its rows, `most` at most.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
pub(super) unsafe fn rows(
    db: *mut ffi::sqlite3,
    sql: &CStr,
    binds: &[Bind],
    most: usize,
) -> Result<Vec<Vec<Cell>>, Failure> {
    let failure = |db: *mut ffi::sqlite3, code: c_int| {
        // SAFETY: `db` is valid; the message is copied at once.
        let message = unsafe { CStr::from_ptr(ffi::sqlite3_errmsg(db)) }
            .to_string_lossy()
            .into_owned();
        Failure {
            code: code & 0xff,
            message,
        }
    };
    let mut stmt = std::ptr::null_mut();
    // SAFETY: `db` is valid; `sql` is NUL-terminated.
    let rc =
        unsafe { ffi::sqlite3_prepare_v2(db, sql.as_ptr(), -1, &mut stmt, std::ptr::null_mut()) };
    if rc != ffi::SQLITE_OK {
        return Err(failure(db, rc));
    }
    // SAFETY: `stmt` was prepared above and is finalized before returning;
    // text binds are copied by SQLite (SQLITE_TRANSIENT).
    unsafe {
        for (i, bind) in binds.iter().enumerate() {
            let index = i as c_int + 1;
            match bind {
                Bind::Int(v) => ffi::sqlite3_bind_int64(stmt, index, *v),
                Bind::Text(t) => ffi::sqlite3_bind_text64(
                    stmt,
                    index,
                    t.as_ptr().cast(),
                    t.len() as u64,
                    ffi::SQLITE_TRANSIENT(),
                    ffi::SQLITE_UTF8 as u8,
                ),
            };
        }
        let mut rows = Vec::new();
        let result = loop {
            if rows.len() >= most {
                break Ok(rows);
            }
            match ffi::sqlite3_step(stmt) {
                ffi::SQLITE_ROW => {
                    let width = ffi::sqlite3_column_count(stmt);
                    rows.push(
                        (0..width)
                            .map(|i| match ffi::sqlite3_column_type(stmt, i) {
                                ffi::SQLITE_INTEGER => {
                                    Cell::Int(ffi::sqlite3_column_int64(stmt, i))
                                }
                                ffi::SQLITE_TEXT => {
                                    let text = ffi::sqlite3_column_text(stmt, i);
                                    if text.is_null() {
                                        Cell::Null
                                    } else {
                                        Cell::Text(
                                            CStr::from_ptr(text.cast())
                                                .to_string_lossy()
                                                .into_owned(),
                                        )
                                    }
                                }
                                _ => Cell::Null,
                            })
                            .collect(),
                    );
                }
                ffi::SQLITE_DONE => break Ok(rows),
                other => break Err(failure(db, other)),
            }
        };
        ffi::sqlite3_finalize(stmt);
        result
    }
}

fn not_found(name: &str) -> Out {
    fail(
        SqlState::UNDEFINED_TABLE,
        format!("relation \"{name}\" does not exist"),
    )
}

/// The sequence a function argument names: its text (`'s'`, `'public.s'`) or
/// its catalog oid.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
unsafe fn read_row(db: *mut ffi::sqlite3, arg: &Arg) -> Result<Row, Out> {
    // The last column: the owning table when the owning column is its rowid.
    macro_rules! row_where {
        ($condition:literal) => {
            match CStr::from_bytes_with_nul(
                concat!(
                    "SELECT name, increment, min_value, max_value, cycle, last_value, is_called, token, \
                     CASE WHEN owned_table IS NOT NULL \
                     AND (SELECT count(*) FROM pragma_table_info(owned_table) k WHERE k.pk > 0) = 1 \
                     AND EXISTS (SELECT 1 FROM pragma_table_info(owned_table) p WHERE p.pk = 1 \
                     AND p.name = owned_column COLLATE NOCASE AND upper(p.type) = 'INTEGER') \
                     THEN (SELECT m.name FROM main.sqlite_schema m \
                     WHERE m.type = 'table' AND m.name = owned_table COLLATE NOCASE) END \
                     FROM main.litewire_sequences WHERE ",
                    $condition,
                    "\0"
                )
                .as_bytes(),
            ) {
                Ok(sql) => sql,
                Err(_) => panic!("a query with one NUL, at its end"),
            }
        };
    }
    const BY_NAME: &CStr = row_where!("name = ?1");
    const BY_OID: &CStr = row_where!("oid = ?1");
    let (name, found) = match arg {
        Arg::Text(text) => {
            let name = relation_name(text).ok_or_else(|| {
                fail(
                    SqlState::INVALID_NAME,
                    format!("invalid name syntax: \"{text}\""),
                )
            })?;
            // SAFETY: per the caller.
            let found = unsafe { first_row(db, BY_NAME, &[Bind::Text(&name)]) };
            (name, found)
        }
        Arg::Int(oid) => {
            // SAFETY: per the caller.
            let found = unsafe { first_row(db, BY_OID, &[Bind::Int(oid - SEQUENCE_OID)]) };
            (oid.to_string(), found)
        }
        _ => {
            return Err(fail(
                SqlState::INVALID_NAME,
                format!("invalid name syntax: \"{}\"", arg.display()),
            ));
        }
    };
    match found {
        Ok(Some(cells)) => Ok(Row {
            name: match &cells[0] {
                Cell::Text(name) => name.clone(),
                _ => name,
            },
            bounds: Bounds {
                increment: cells[1].int(),
                min: cells[2].int(),
                max: cells[3].int(),
                cycle: cells[4].int() != 0,
            },
            last_value: cells[5].int(),
            is_called: cells[6].int() != 0,
            token: cells[7].int(),
            numbers: match &cells[8] {
                Cell::Text(table) => Some(table.as_str().into()),
                _ => None,
            },
        }),
        // SAFETY: per the caller.
        Ok(None) => Err(unsafe { not_found_in(db, &name) }),
        // No sequence was ever made in this file.
        Err(failure) if failure.message.contains("no such table") => {
            // SAFETY: per the caller.
            Err(unsafe { not_found_in(db, &name) })
        }
        Err(failure) => Err(Out::Error(failure.message)),
    }
}

/// [`not_found`], or for `app.s` where there is no schema `app`, PostgreSQL's
/// error for that.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
unsafe fn not_found_in(db: *mut ffi::sqlite3, name: &str) -> Out {
    const SCHEMA: &CStr = c"SELECT 1 FROM main.litewire_schemas WHERE name = ?1";
    let Some((schema, _)) = name.split_once('.') else {
        return not_found(name);
    };
    // SAFETY: per the caller.
    match unsafe { first_row(db, SCHEMA, &[Bind::Text(schema)]) } {
        Ok(Some(_)) => not_found(name),
        // No such schema (or no table of schemas at all).
        _ => fail(
            SqlState::INVALID_SCHEMA_NAME,
            format!("schema \"{schema}\" does not exist"),
        ),
    }
}

/// Writes a sequence's state to its row, in the caller's transaction.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
unsafe fn write_row(
    db: *mut ffi::sqlite3,
    function: &str,
    row: &Row,
    counter: &Counter,
) -> Result<(), Out> {
    const UPDATE: &CStr = c"UPDATE main.litewire_sequences SET last_value = ?1, is_called = ?2 WHERE name = ?3 AND token = ?4";
    // SAFETY: per the caller.
    let written = unsafe {
        first_row(
            db,
            UPDATE,
            &[
                Bind::Int(counter.last_value),
                Bind::Int(i64::from(counter.is_called)),
                Bind::Text(&row.name),
                Bind::Int(row.token),
            ],
        )
    };
    written
        .map(drop)
        .map_err(|failure| write_failure(function, failure))
}

/// What a failed write of a sequence's row tells the client.
fn write_failure(function: &str, failure: Failure) -> Out {
    match failure.code {
        ffi::SQLITE_AUTH | ffi::SQLITE_READONLY => fail(
            SqlState::READ_ONLY_SQL_TRANSACTION,
            format!("cannot execute {function}() in a read-only transaction"),
        ),
        _ => Out::Error(failure.message),
    }
}

/// Runs a function body, turning its error into SQLite's.
fn run(body: impl FnOnce() -> Result<Out, Out>) -> Out {
    body().unwrap_or_else(|failed| failed)
}

/// An error with PostgreSQL's SQLSTATE.
fn fail(state: SqlState, message: String) -> Out {
    Out::Fail(state, message)
}

/// The values of the session the connection serves now (none on a
/// connection that serves no session: `currval` finds nothing there).
fn session(call: &Call) -> Arc<SessionValues> {
    call.context
        .served()
        .map(|served| served.sequence_values.clone())
        .unwrap_or_default()
}

/// Refuses a call that would change a sequence while its session is only
/// describing a statement (the error is never seen: the inference ignores it).
fn changes_allowed(call: &Call) -> Result<(), Out> {
    match session(call).is_describing() {
        true => Err(Out::Error(
            "sequences do not change while a statement is described".into(),
        )),
        false => Ok(()),
    }
}

/// `nextval(sequence)`.
fn nextval(call: &Call, args: &[Arg]) -> Out {
    let db = call.db;
    if args[0] == Arg::Null {
        return Out::Null;
    }
    run(|| {
        changes_allowed(call)?;
        // SAFETY: `db` is the connection this function runs on.
        if let Some(next) = unsafe { advance_known(call, &args[0]) }? {
            return Ok(Out::Int(next));
        }
        // SAFETY: as above.
        let row = unsafe { read_row(db, &args[0]) }?;
        let mut counters = call
            .context
            .server
            .sequences
            .counters
            .lock()
            .map_err(|_| Out::Error("the sequence counters are unavailable".into()))?;
        let current = match counters.get(&row.name) {
            Some(counter) if counter.token == row.token => counter.clone(),
            _ => Counter {
                token: row.token,
                last_value: row.last_value,
                is_called: row.is_called,
                bounds: row.bounds,
                numbers: row.numbers.clone(),
            },
        };
        let next = if current.is_called {
            advance(&row.name, &row.bounds, current.last_value)
                .map_err(|limit| fail(SqlState::SEQUENCE_GENERATOR_LIMIT_EXCEEDED, limit))?
        } else {
            current.last_value
        };
        let loaded = counters
            .get(&row.name)
            .is_none_or(|counter| counter.token != row.token);
        // SAFETY: as above.
        let next = unsafe { past_numbered_rows(call, &row.name, &current, next, loaded) }?;
        let counter = Counter {
            token: row.token,
            last_value: next,
            is_called: true,
            bounds: row.bounds,
            numbers: row.numbers.clone(),
        };
        // Written while the counter is held: the row never goes back in time.
        // SAFETY: as above.
        unsafe { write_row(db, "nextval", &row, &counter) }?;
        counters.insert(row.name.clone(), counter);
        drop(counters);
        session(call).record(&row.name, next, true);
        Ok(Out::Int(next))
    })
}

/// `next`, or past the rows of the table whose rowid the sequence numbers
/// (see `Counter::numbers`) that were inserted with a value from elsewhere:
/// rows SQLite numbered itself (an `INSERT ... DEFAULT VALUES`, a COPY, the
/// HTTP port) and rows given their ids. The server's update hook keeps the
/// highest rowid inserted since it started; `loaded`, a counter just read
/// from its row, also looks at the rows that were there before. (PostgreSQL's
/// sequence would have numbered the first kind; for the second, its `nextval`
/// would go on handing out values up to them, and an INSERT of one would fail
/// with 23505.)
///
/// # Safety
/// `db` must be the connection the calling function runs on.
unsafe fn past_numbered_rows(
    call: &Call,
    name: &str,
    counter: &Counter,
    next: i64,
    loaded: bool,
) -> Result<i64, Out> {
    let Some(table) = &counter.numbers else {
        return Ok(next);
    };
    if counter.bounds.increment <= 0 {
        return Ok(next);
    }
    let mut highest = call.context.server.tables.highest_rowid(table);
    if loaded {
        let sql = CString::new(format!(
            "SELECT max(rowid) FROM main.\"{}\"",
            table.replace('"', "\"\"")
        ))
        .map_err(|_| Out::Error(format!("invalid table name \"{table}\"")))?;
        // SAFETY: per the caller.
        match unsafe { first_row(call.db, &sql, &[]) } {
            Ok(Some(cells)) => {
                if let Cell::Int(max) = cells[0] {
                    highest = Some(highest.map_or(max, |h| h.max(max)));
                }
            }
            Ok(None) => {}
            Err(failure) => return Err(Out::Error(failure.message)),
        }
    }
    match highest {
        Some(highest) if highest >= next => advance(name, &counter.bounds, highest)
            .map_err(|limit| fail(SqlState::SEQUENCE_GENERATOR_LIMIT_EXCEEDED, limit)),
        _ => Ok(next),
    }
}

/// `nextval` of a sequence whose counter this server has already advanced:
/// one statement writes the next value, provided the row still has the
/// counter's token and definition (no ALTER, DROP or RESTART since). `None`:
/// the row must be read first.
///
/// # Safety
/// `db` must be the connection the calling function runs on.
unsafe fn advance_known(call: &Call, arg: &Arg) -> Result<Option<i64>, Out> {
    let db = call.db;
    const UPDATE: &CStr = c"UPDATE main.litewire_sequences SET last_value = ?1, is_called = 1 WHERE name = ?2 AND token = ?3 AND increment = ?4 AND min_value = ?5 AND max_value = ?6 AND cycle = ?7";
    let Some(name) = (match arg {
        Arg::Text(text) => relation_name(text),
        _ => None,
    }) else {
        return Ok(None);
    };
    let Ok(mut counters) = call.context.server.sequences.counters.lock() else {
        return Ok(None);
    };
    let Some(counter) = counters.get(&name).cloned() else {
        return Ok(None);
    };
    let bounds = counter.bounds;
    let next = match counter.is_called {
        true => match advance(&name, &bounds, counter.last_value) {
            Ok(next) => next,
            // Reported after the row is read: its bounds may have changed.
            Err(_) => return Ok(None),
        },
        false => counter.last_value,
    };
    // SAFETY: per the caller.
    let Ok(next) = (unsafe { past_numbered_rows(call, &name, &counter, next, false) }) else {
        return Ok(None);
    };
    // SAFETY: per the caller.
    let written = unsafe {
        first_row(
            db,
            UPDATE,
            &[
                Bind::Int(next),
                Bind::Text(&name),
                Bind::Int(counter.token),
                Bind::Int(bounds.increment),
                Bind::Int(bounds.min),
                Bind::Int(bounds.max),
                Bind::Int(i64::from(bounds.cycle)),
            ],
        )
    };
    // SAFETY: per the caller; the count is the UPDATE's, which just ran.
    let changed = written.is_ok() && unsafe { ffi::sqlite3_changes64(db) } == 1;
    match written {
        Ok(_) if changed => {
            counters.insert(
                name.clone(),
                Counter {
                    last_value: next,
                    is_called: true,
                    ..counter
                },
            );
            drop(counters);
            session(call).record(&name, next, true);
            Ok(Some(next))
        }
        Ok(_) => Ok(None),
        Err(failure) => Err(write_failure("nextval", failure)),
    }
}

/// `currval(sequence)`: the value `nextval` last returned in this session.
fn currval(call: &Call, args: &[Arg]) -> Out {
    let db = call.db;
    if args[0] == Arg::Null {
        return Out::Null;
    }
    run(|| {
        // SAFETY: `db` is the connection this function runs on.
        let row = unsafe { read_row(db, &args[0]) }?;
        match session(call).current(&row.name) {
            Some(value) => Ok(Out::Int(value)),
            None => Err(fail(
                SqlState::OBJECT_NOT_IN_PREREQUISITE_STATE,
                format!(
                    "currval of sequence \"{}\" is not yet defined in this session",
                    row.name
                ),
            )),
        }
    })
}

/// `lastval()`: the value `nextval` last returned in this session, of any sequence.
fn lastval(call: &Call, _args: &[Arg]) -> Out {
    let db = call.db;
    run(|| {
        let undefined = || {
            fail(
                SqlState::OBJECT_NOT_IN_PREREQUISITE_STATE,
                "lastval is not yet defined in this session".into(),
            )
        };
        let Some((name, value)) = session(call).last() else {
            return Err(undefined());
        };
        // A dropped sequence has no last value any more.
        // SAFETY: `db` is the connection this function runs on.
        match unsafe { read_row(db, &Arg::Text(&identifier_as_postgres(&name))) } {
            Ok(_) => Ok(Out::Int(value)),
            _ => Err(undefined()),
        }
    })
}

/// `setval(sequence, value [, is_called])`.
fn setval(call: &Call, args: &[Arg]) -> Out {
    let db = call.db;
    if args.contains(&Arg::Null) {
        return Out::Null;
    }
    run(|| {
        changes_allowed(call)?;
        let value = match &args[1] {
            Arg::Int(v) => *v,
            Arg::Text(t) => t.trim().parse().map_err(|_| {
                fail(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    format!("invalid input syntax for type bigint: \"{t}\""),
                )
            })?,
            Arg::Real(f) if f.fract() == 0.0 => *f as i64,
            other => {
                return Err(fail(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    format!(
                        "invalid input syntax for type bigint: \"{}\"",
                        other.display()
                    ),
                ));
            }
        };
        let is_called = match args.get(2) {
            None => true,
            Some(Arg::Int(i)) => *i != 0,
            Some(Arg::Text(t)) => crate::sql::quote::parse_bool(t).ok_or_else(|| {
                fail(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    format!("invalid input syntax for type boolean: \"{t}\""),
                )
            })?,
            Some(other) => {
                return Err(fail(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    format!(
                        "invalid input syntax for type boolean: \"{}\"",
                        other.display()
                    ),
                ));
            }
        };
        // SAFETY: `db` is the connection this function runs on.
        let row = unsafe { read_row(db, &args[0]) }?;
        if value < row.bounds.min || value > row.bounds.max {
            return Err(fail(
                SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
                format!(
                    "setval: value {value} is out of bounds for sequence \"{}\" ({}..{})",
                    row.name, row.bounds.min, row.bounds.max
                ),
            ));
        }
        let counter = Counter {
            token: row.token,
            last_value: value,
            is_called,
            bounds: row.bounds,
            numbers: row.numbers.clone(),
        };
        let mut counters = call
            .context
            .server
            .sequences
            .counters
            .lock()
            .map_err(|_| Out::Error("the sequence counters are unavailable".into()))?;
        // SAFETY: as above.
        unsafe { write_row(db, "setval", &row, &counter) }?;
        counters.insert(row.name.clone(), counter);
        drop(counters);
        if is_called {
            session(call).record(&row.name, value, false);
        }
        Ok(Out::Int(value))
    })
}

/// `pg_get_serial_sequence(table, column)`: the sequence a `serial` or identity
/// column owns, schema-qualified, or NULL.
fn serial_sequence(call: &Call, args: &[Arg]) -> Out {
    let db = call.db;
    const TABLE: &CStr = c"SELECT 1 FROM main.sqlite_schema WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE";
    const OWNED: &CStr = c"SELECT name FROM main.litewire_sequences WHERE owned_table = ?1 COLLATE NOCASE AND owned_column = ?2";
    let (Arg::Text(table), Arg::Text(column)) = (&args[0], &args[1]) else {
        return Out::Null;
    };
    let Some(table) = relation_name(table) else {
        return fail(
            SqlState::INVALID_NAME,
            format!("invalid name syntax: \"{table}\""),
        );
    };
    // SAFETY: `db` is the connection this function runs on.
    match unsafe { first_row(db, TABLE, &[Bind::Text(&table)]) } {
        Ok(Some(_)) => {}
        Ok(None) => return not_found(&table),
        Err(failure) => return Out::Error(failure.message),
    }
    // SAFETY: as above.
    match unsafe { first_row(db, OWNED, &[Bind::Text(&table), Bind::Text(column)]) } {
        Ok(Some(cells)) => match &cells[0] {
            Cell::Text(name) => {
                // A sequence of a schema of the user's is named `app.s` in
                // SQLite (see `sql::schema_names`).
                const SCHEMA: &CStr =
                    c"SELECT name FROM main.litewire_schemas WHERE ?1 LIKE name || '.%'";
                // SAFETY: as above.
                let schemas = match unsafe { first_row(db, SCHEMA, &[Bind::Text(name)]) } {
                    Ok(Some(cells)) => cells
                        .into_iter()
                        .filter_map(|cell| match cell {
                            Cell::Text(schema) => Some(schema),
                            _ => None,
                        })
                        .collect(),
                    // No table of schemas: no schema of the user's.
                    _ => Vec::new(),
                };
                Out::Text(qualified(name, &schemas))
            }
            _ => Out::Null,
        },
        // No table of sequences: no sequence at all.
        Ok(None) | Err(_) => Out::Null,
    }
}

/// `litewire_error(message)`: fails with `message` (sequence DDL's checks).
fn raise(_: &Call, args: &[Arg]) -> Out {
    Out::Error(args[0].display())
}

/// `litewire_error(sqlstate, message)`: fails with PostgreSQL's SQLSTATE.
fn raise_state(_: &Call, args: &[Arg]) -> Out {
    match crate::error::SqlState::parse(&args[0].display()) {
        Some(state) => Out::Fail(state, args[1].display()),
        None => Out::Error(args[1].display()),
    }
}
