//! Aggregates written as plain Rust state: a type that takes one row's
//! arguments at a time ([`Accumulator::step`]) and gives the result at the end
//! ([`Accumulator::finish`]). The two C callbacks SQLite calls are generic over
//! that type, so each aggregate family writes no `unsafe` of its own: the state
//! is boxed on the first row, kept behind a pointer in SQLite's aggregate
//! context, and freed by the final call (which SQLite makes exactly once, also
//! when a statement is abandoned).

use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

use libsqlite3_sys as ffi;

use super::call::{Arg, Out, read_args, set_result};
use super::definition::Aggregate;

/// One aggregate's running state.
pub(super) trait Accumulator: Default + 'static {
    /// Takes one row's arguments; an `Err` ends the statement with that error.
    fn step(&mut self, args: &[Arg]) -> Result<(), Out>;
    /// The aggregate's value (also over no rows, from the default state).
    fn finish(self) -> Out;
}

/// The callbacks SQLite registers for `A`.
pub(super) const fn callbacks<A: Accumulator>() -> Aggregate {
    Aggregate {
        step: step::<A>,
        finish: finish::<A>,
    }
}

/// The pointer-sized slot in SQLite's aggregate context that owns the state.
///
/// # Safety
/// `ctx` must be the context of a running aggregate call.
unsafe fn slot<A>(ctx: *mut ffi::sqlite3_context, create: bool) -> *mut *mut A {
    let size = if create {
        std::mem::size_of::<*mut A>() as c_int
    } else {
        0
    };
    // SAFETY: per the caller; SQLite zeroes the slot on first allocation.
    unsafe { ffi::sqlite3_aggregate_context(ctx, size).cast() }
}

unsafe extern "C" fn step<A: Accumulator>(
    ctx: *mut ffi::sqlite3_context,
    argc: c_int,
    argv: *mut *mut ffi::sqlite3_value,
) {
    // SAFETY: SQLite calls this for a running aggregate with `argc` valid
    // arguments; the slot holds null or a box made here, owned by the slot.
    unsafe {
        let slot = slot::<A>(ctx, true);
        if slot.is_null() {
            ffi::sqlite3_result_error_nomem(ctx);
            return;
        }
        if (*slot).is_null() {
            *slot = Box::into_raw(Box::<A>::default());
        }
        let state = &mut **slot;
        let args = read_args(argc, argv);
        let stepped = catch_unwind(AssertUnwindSafe(|| state.step(&args))).unwrap_or_else(|_| {
            Err(Out::Error(
                "internal error in a litewire aggregate".to_owned(),
            ))
        });
        if let Err(out) = stepped {
            set_result(ctx, out);
        }
    }
}

unsafe extern "C" fn finish<A: Accumulator>(ctx: *mut ffi::sqlite3_context) {
    // SAFETY: the final call of a running aggregate; the box, if any, was made
    // by `step` and is taken back exactly once (the slot is cleared).
    unsafe {
        let slot = slot::<A>(ctx, false);
        let state = if slot.is_null() || (*slot).is_null() {
            A::default()
        } else {
            let state = *Box::from_raw(*slot);
            *slot = std::ptr::null_mut();
            state
        };
        let out = catch_unwind(AssertUnwindSafe(|| state.finish()))
            .unwrap_or_else(|_| Out::Error("internal error in a litewire aggregate".to_owned()));
        set_result(ctx, out);
    }
}
