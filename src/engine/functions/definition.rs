//! What defines one SQL function: its name, PostgreSQL's argument and result
//! types, its volatility, and the body SQLite calls. Each family lists its
//! functions with these; the registry registers and catalogs them.

use std::ffi::c_int;

use libsqlite3_sys as ffi;

use super::call::Scalar;

/// PostgreSQL's volatility classes (`pg_proc.provolatile`). Only immutable
/// functions are deterministic to SQLite: it may then evaluate a call once for
/// many rows, or use it in an index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Volatility {
    Immutable,
    Stable,
    Volatile,
}

/// How a function takes its arguments.
#[derive(Debug, Clone, Copy)]
pub(super) enum Args {
    /// Exactly these, by PostgreSQL type name.
    Fixed(&'static [&'static str]),
    /// Any number of this type (`VARIADIC "any"`).
    Variadic(&'static str),
}

/// What runs when SQLite calls the function.
#[derive(Clone, Copy)]
pub(super) enum Body {
    Scalar(Scalar),
    /// An aggregate, through SQLite's step and final callbacks.
    Aggregate(Aggregate),
}

/// An aggregate's callbacks, as SQLite takes them.
#[derive(Clone, Copy)]
pub(super) struct Aggregate {
    pub(super) step:
        unsafe extern "C" fn(*mut ffi::sqlite3_context, c_int, *mut *mut ffi::sqlite3_value),
    pub(super) finish: unsafe extern "C" fn(*mut ffi::sqlite3_context),
}

/// One SQL function.
#[derive(Clone, Copy)]
pub(super) struct Function {
    pub(super) name: &'static str,
    pub(super) args: Args,
    /// PostgreSQL's result type.
    pub(super) result: &'static str,
    pub(super) volatility: Volatility,
    pub(super) body: Body,
    /// Listed in `pg_proc`; `false` for litewire's own helpers, which only the
    /// dialect translation calls (`litewire_array`, ...).
    pub(super) listed: bool,
}

impl Function {
    /// A function PostgreSQL has, listed in `pg_proc`.
    pub(super) const fn pg(
        name: &'static str,
        args: &'static [&'static str],
        result: &'static str,
        volatility: Volatility,
        body: Scalar,
    ) -> Function {
        Function {
            name,
            args: Args::Fixed(args),
            result,
            volatility,
            body: Body::Scalar(body),
            listed: true,
        }
    }

    /// One of litewire's own helpers for the dialect translation: not listed.
    pub(super) const fn helper(
        name: &'static str,
        args: Args,
        volatility: Volatility,
        body: Scalar,
    ) -> Function {
        Function {
            name,
            args,
            result: "text",
            volatility,
            body: Body::Scalar(body),
            listed: false,
        }
    }

    /// An immutable function PostgreSQL has, of these arguments.
    pub(super) const fn immutable(
        name: &'static str,
        args: &'static [&'static str],
        result: &'static str,
        body: Scalar,
    ) -> Function {
        Function::pg(name, args, result, Volatility::Immutable, body)
    }

    /// An immutable helper of these arguments.
    pub(super) const fn immutable_helper(
        name: &'static str,
        args: &'static [&'static str],
        body: Scalar,
    ) -> Function {
        Function::helper(name, Args::Fixed(args), Volatility::Immutable, body)
    }

    /// SQLite's argument count: -1 for any.
    pub(super) fn arity(&self) -> c_int {
        match self.args {
            Args::Fixed(args) => args.len() as c_int,
            Args::Variadic(_) => -1,
        }
    }
}
