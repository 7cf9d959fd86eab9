//! Signalling another session: `pg_cancel_backend(pid)` stops its running
//! statement (57014 there), `pg_terminate_backend(pid [, timeout])` ends it
//! (FATAL 57P01 there), with PostgreSQL's rules on who may signal whom (see
//! `engine::backends`). A pid that is no session's answers false.

use std::time::Duration;

use super::call::{Arg, Call, Out};
use super::definition::{Function, Volatility};
use crate::engine::backends::Signal;
use crate::error::SqlState;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "pg_cancel_backend",
        &["int4"],
        "bool",
        Volatility::Volatile,
        cancel_backend,
    ),
    Function::pg(
        "pg_terminate_backend",
        &["int4"],
        "bool",
        Volatility::Volatile,
        terminate_backend,
    ),
    Function::pg(
        "pg_terminate_backend",
        &["int4", "int8"],
        "bool",
        Volatility::Volatile,
        terminate_backend,
    ),
];

fn cancel_backend(call: &Call, args: &[Arg]) -> Out {
    send(call, args, Signal::Cancel)
}

/// With a timeout (milliseconds, 0: none), waits that long for the session
/// to end: false if it has not.
fn terminate_backend(call: &Call, args: &[Arg]) -> Out {
    let timeout = match args.get(1) {
        Some(Arg::Null) => return Out::Null,
        Some(timeout) => timeout.int().unwrap_or(0),
        None => 0,
    };
    if timeout < 0 {
        return Out::Fail(
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            "\"timeout\" must not be negative".into(),
        );
    }
    let sent = send(call, args, Signal::Terminate);
    match (sent, args[0].int()) {
        (Out::Int(1), Some(pid)) if timeout > 0 => {
            let pid = i32::try_from(pid).unwrap_or(0);
            let backends = &call.context.server.backends;
            let wait = || backends.wait_gone(pid, Duration::from_millis(timeout.unsigned_abs()));
            Out::Int(i64::from(crate::engine::control::off_serving_thread(wait)))
        }
        (sent, _) => sent,
    }
}

fn send(call: &Call, args: &[Arg], signal: Signal) -> Out {
    let Some(pid) = args[0].int() else {
        return Out::Null;
    };
    let Ok(pid) = i32::try_from(pid) else {
        return Out::Int(0);
    };
    let from = call.context.served().map_or(0, |served| served.pid());
    match call.context.server.backends.signal(from, pid, signal) {
        // A session that signals itself stops this very statement, as
        // PostgreSQL's does at its next look at its interrupts: 57014, or
        // FATAL 57P01 and the connection closes.
        Ok(true) if pid == from => Out::Interrupted,
        Ok(sent) => Out::Int(i64::from(sent)),
        Err(refusal) => Out::Fail(SqlState::INSUFFICIENT_PRIVILEGE, refusal.into()),
    }
}
