//! A scalar subquery's value, as PostgreSQL gives it: the one row's value,
//! NULL for no row, and 21000 for more than one, where SQLite would give the
//! first row's. The PostgreSQL port's translation reads a subquery that may
//! return several rows through `litewire_single`, an aggregate over its rows.

use std::ffi::c_int;

use libsqlite3_sys as ffi;

use super::definition::{Aggregate, Args, Body, Function, Volatility};
use crate::error::{Error, SqlState};

pub(super) const FUNCTIONS: &[Function] = &[Function {
    name: "litewire_single",
    args: Args::Fixed(&["anyelement"]),
    result: "anyelement",
    volatility: Volatility::Immutable,
    body: Body::Aggregate(Aggregate {
        step: single_step,
        finish: single_final,
    }),
    listed: false,
}];

/// The aggregate's state, in SQLite's (zeroed) aggregate context: the rows
/// seen and a copy of the first one's value.
#[repr(C)]
struct Single {
    rows: i64,
    value: *mut ffi::sqlite3_value,
}

/// # Safety
/// `ctx` must be the context of a running aggregate call.
unsafe fn state(ctx: *mut ffi::sqlite3_context, create: bool) -> *mut Single {
    let size = if create {
        std::mem::size_of::<Single>() as c_int
    } else {
        0
    };
    // SAFETY: per the caller; SQLite zeroes the context on first allocation.
    unsafe { ffi::sqlite3_aggregate_context(ctx, size).cast() }
}

unsafe extern "C" fn single_step(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: a running aggregate call with `argc` (1) valid arguments; the
    // copy is SQLite's, freed in `single_final`.
    unsafe {
        let single = state(ctx, true);
        if single.is_null() {
            ffi::sqlite3_result_error_nomem(ctx);
            return;
        }
        (*single).rows += 1;
        if (*single).rows > 1 {
            let message = Error::function_message(
                SqlState::parse("21000").unwrap_or(SqlState::FEATURE_NOT_SUPPORTED),
                "more than one row returned by a subquery used as an expression",
            );
            ffi::sqlite3_result_error(ctx, message.as_ptr().cast(), message.len() as c_int);
            return;
        }
        if argc >= 1 {
            (*single).value = ffi::sqlite3_value_dup(*argv);
        }
    }
}

unsafe extern "C" fn single_final(ctx: *mut ffi::sqlite3_context) {
    // SAFETY: the final call of a running aggregate; the copy, if any, was
    // made by `single_step` and is freed exactly once.
    unsafe {
        let single = state(ctx, false);
        if single.is_null() || (*single).value.is_null() {
            ffi::sqlite3_result_null(ctx);
            return;
        }
        ffi::sqlite3_result_value(ctx, (*single).value);
        ffi::sqlite3_value_free((*single).value);
        (*single).value = std::ptr::null_mut();
    }
}
