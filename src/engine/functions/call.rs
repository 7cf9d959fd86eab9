//! How SQLite calls litewire's functions: arguments read from SQLite's values
//! without copying ([`Arg`]), a result written back ([`Out`]), and the one
//! trampoline every registered function goes through, which hands the body the
//! connection and its [`FunctionContext`] and turns a panic into an SQL error
//! instead of unwinding into C.

use std::ffi::{c_int, c_void};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;

use libsqlite3_sys as ffi;

use super::context::FunctionContext;
use crate::error::{Error, SqlState};

/// One argument as SQLite passed it.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::engine) enum Arg<'a> {
    Null,
    Int(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
}

impl Arg<'_> {
    /// The value as text (as PostgreSQL would print it inside an array).
    pub(in crate::engine) fn text(&self) -> Option<String> {
        match self {
            Arg::Null => None,
            Arg::Int(i) => Some(i.to_string()),
            Arg::Real(f) => {
                let mut text = String::new();
                let _ = crate::engine::value::write_float8(&mut text, *f);
                Some(text)
            }
            Arg::Text(s) => Some((*s).to_owned()),
            Arg::Blob(b) => Some(String::from_utf8_lossy(b).into_owned()),
        }
    }

    /// The value as an integer, if it reads as one.
    pub(super) fn int(&self) -> Option<i64> {
        match self {
            Arg::Int(i) => Some(*i),
            Arg::Real(f) => Some(*f as i64),
            Arg::Text(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// The value as a float, if it reads as one.
    pub(super) fn float(&self) -> Option<f64> {
        match self {
            Arg::Int(i) => Some(*i as f64),
            Arg::Real(f) => Some(*f),
            Arg::Text(s) => s.trim().parse().ok(),
            _ => None,
        }
    }

    /// The value returned as it came (a blob as text).
    pub(super) fn unchanged(&self) -> Out {
        match self {
            Arg::Null => Out::Null,
            Arg::Int(i) => Out::Int(*i),
            Arg::Real(f) => Out::Real(*f),
            Arg::Text(s) => Out::Text((*s).to_owned()),
            Arg::Blob(b) => Out::Text(String::from_utf8_lossy(b).into_owned()),
        }
    }

    /// The value as text, NULL as the empty string (for messages).
    pub(super) fn display(&self) -> String {
        self.text().unwrap_or_default()
    }
}

/// Runs `body` on an argument as read (`Ok(None)`: NULL, whose answer is
/// NULL; `Err`: why it does not read).
pub(super) fn with_read<T>(read: Result<Option<T>, Out>, body: impl FnOnce(T) -> Out) -> Out {
    match read {
        Ok(Some(value)) => body(value),
        Ok(None) => Out::Null,
        Err(out) => out,
    }
}

/// What a function returns.
#[derive(Debug, PartialEq)]
pub(in crate::engine) enum Out {
    Null,
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
    Error(String),
    /// An error with PostgreSQL's SQLSTATE.
    Fail(SqlState, String),
    /// The statement was told to stop (cancel, timeout, terminate): it fails
    /// as SQLite's interrupt does, which the engine explains with the reason.
    Interrupted,
}

impl Out {
    /// A date or time out of its type's range (22008), with PostgreSQL's
    /// message.
    pub(super) fn out_of_range(message: String) -> Out {
        Out::Fail(
            SqlState::parse("22008").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
            message,
        )
    }
}

/// What a function body gets besides its arguments: the connection it runs on
/// (for the functions that read or write through it) and what the connection's
/// functions share (see `context`).
pub(super) struct Call<'a> {
    pub(super) db: *mut ffi::sqlite3,
    pub(super) context: &'a FunctionContext,
}

/// A scalar function's body.
pub(super) type Scalar = fn(&Call, &[Arg]) -> Out;

/// What SQLite keeps as a scalar function's user data: its body and the
/// connection's context, freed by `release` when the connection closes or the
/// function is replaced.
pub(super) struct Registered {
    pub(super) body: Scalar,
    pub(super) context: Arc<FunctionContext>,
}

/// Frees a [`Registered`] that SQLite no longer needs.
///
/// # Safety
/// `raw` must be a pointer made by `Box::into_raw(Box<Registered>)`, released once.
pub(super) unsafe extern "C" fn release(raw: *mut c_void) {
    if !raw.is_null() {
        // SAFETY: per the caller.
        drop(unsafe { Box::from_raw(raw.cast::<Registered>()) });
    }
}

/// Every scalar function's entry point from SQLite.
///
/// # Safety
/// SQLite calls it with a valid context whose user data is a live [`Registered`]
/// and `argc` valid arguments.
pub(super) unsafe extern "C" fn call_scalar(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: per this function's contract.
    unsafe {
        let registered = &*ffi::sqlite3_user_data(ctx).cast::<Registered>();
        let call = Call {
            db: ffi::sqlite3_context_db_handle(ctx),
            context: &registered.context,
        };
        let args = read_args(argc, argv);
        let out = catch_unwind(AssertUnwindSafe(|| (registered.body)(&call, &args)))
            .unwrap_or_else(|_| Out::Error("internal error in a litewire SQL function".into()));
        set_result(ctx, out);
    }
}

/// Reads SQLite's arguments into [`Arg`]s borrowing SQLite's buffers.
///
/// # Safety
/// `argv` must hold `argc` valid values, alive for the duration of the call.
pub(super) unsafe fn read_args<'a>(
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) -> Vec<Arg<'a>> {
    let count = usize::try_from(argc).unwrap_or(0);
    (0..count)
        .map(|i| {
            // SAFETY: i < argc, per the caller.
            let value = unsafe { *argv.add(i) };
            // SAFETY: `value` is a valid protected value for this call.
            unsafe { read_arg(value) }
        })
        .collect()
}

/// # Safety
/// `value` must be valid for the duration of the call.
unsafe fn read_arg<'a>(value: *mut ffi::sqlite3_value) -> Arg<'a> {
    // SAFETY: per the caller; the text/blob pointers stay valid until the call
    // returns, which bounds 'a in practice.
    unsafe {
        match ffi::sqlite3_value_type(value) {
            ffi::SQLITE_INTEGER => Arg::Int(ffi::sqlite3_value_int64(value)),
            ffi::SQLITE_FLOAT => Arg::Real(ffi::sqlite3_value_double(value)),
            ffi::SQLITE_TEXT => {
                let ptr = ffi::sqlite3_value_text(value);
                let len = usize::try_from(ffi::sqlite3_value_bytes(value)).unwrap_or(0);
                if ptr.is_null() {
                    return Arg::Text("");
                }
                let bytes = std::slice::from_raw_parts(ptr, len);
                std::str::from_utf8(bytes).map_or(Arg::Blob(bytes), Arg::Text)
            }
            ffi::SQLITE_BLOB => {
                let ptr = ffi::sqlite3_value_blob(value).cast::<u8>();
                let len = usize::try_from(ffi::sqlite3_value_bytes(value)).unwrap_or(0);
                if ptr.is_null() {
                    return Arg::Blob(&[]);
                }
                Arg::Blob(std::slice::from_raw_parts(ptr, len))
            }
            _ => Arg::Null,
        }
    }
}

/// # Safety
/// `ctx` must be the context of the running call.
pub(super) unsafe fn set_result(ctx: *mut ffi::sqlite3_context, out: Out) {
    // SAFETY: per the caller; text is copied by SQLite (SQLITE_TRANSIENT) or
    // static.
    unsafe {
        match out {
            Out::Null => ffi::sqlite3_result_null(ctx),
            // SQLite turns a NaN into NULL; as the text `NaN` it stays a value,
            // reads back as a float and sorts above every number, as
            // PostgreSQL sorts it.
            Out::Real(f) if f.is_nan() => ffi::sqlite3_result_text64(
                ctx,
                c"NaN".as_ptr(),
                3,
                ffi::SQLITE_STATIC(),
                ffi::SQLITE_UTF8 as u8,
            ),
            Out::Int(i) => ffi::sqlite3_result_int64(ctx, i),
            Out::Real(f) => ffi::sqlite3_result_double(ctx, f),
            Out::Text(s) => ffi::sqlite3_result_text64(
                ctx,
                s.as_ptr().cast(),
                s.len() as u64,
                ffi::SQLITE_TRANSIENT(),
                ffi::SQLITE_UTF8 as u8,
            ),
            Out::Blob(b) => ffi::sqlite3_result_blob64(
                ctx,
                b.as_ptr().cast(),
                b.len() as u64,
                ffi::SQLITE_TRANSIENT(),
            ),
            Out::Error(message) => {
                ffi::sqlite3_result_error(ctx, message.as_ptr().cast(), message.len() as c_int)
            }
            Out::Fail(state, message) => {
                let message = Error::function_message(state, &message);
                ffi::sqlite3_result_error(ctx, message.as_ptr().cast(), message.len() as c_int)
            }
            Out::Interrupted => ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_INTERRUPT),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Calls a function body as SQLite would, on no connection (for the bodies
    /// that need none).
    pub(in crate::engine::functions) fn call(body: Scalar, args: &[Arg]) -> Out {
        let context = FunctionContext::new(Default::default());
        body(
            &Call {
                db: std::ptr::null_mut(),
                context: &context,
            },
            args,
        )
    }

    pub(in crate::engine::functions) fn text(out: Out) -> String {
        match out {
            Out::Text(s) => s,
            other => panic!("expected text, got {other:?}"),
        }
    }
}
