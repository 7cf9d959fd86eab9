//! Advisory lock functions (`pg_advisory_lock()` and the rest of PostgreSQL's
//! family, with one `bigint` key or two `int` keys), `pg_blocking_pids()`, and
//! LISTEN/NOTIFY's `pg_notify()` and `pg_listening_channels()`.
//!
//! A lock function that would have to wait does not wait inside SQLite: it
//! records what it waits for in the lock table and fails the statement; the
//! session waits outside SQLite, where a cancel, `statement_timeout`,
//! `lock_timeout` and the deadlock check can end the wait, and then runs the
//! statement again (see `engine::session::locking`).

use std::sync::atomic::Ordering;

use super::arrays::format_array;
use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::engine::locks::{AdvisoryKey, LockMode, Request, Scope};
use crate::error::SqlState;

const BIG: &[&str] = &["int8"];
const PAIR: &[&str] = &["int4", "int4"];

/// One lock function of each key form.
macro_rules! both_keys {
    ($name:literal, $result:literal, $body:expr) => {
        [
            Function::pg($name, BIG, $result, Volatility::Volatile, $body),
            Function::pg($name, PAIR, $result, Volatility::Volatile, $body),
        ]
    };
}

pub(super) const FUNCTIONS: &[Function] = &{
    let lock = both_keys!("pg_advisory_lock", "void", lock_session_exclusive);
    let lock_shared = both_keys!("pg_advisory_lock_shared", "void", lock_session_shared);
    let try_lock = both_keys!("pg_try_advisory_lock", "bool", try_session_exclusive);
    let try_shared = both_keys!("pg_try_advisory_lock_shared", "bool", try_session_shared);
    let xact = both_keys!("pg_advisory_xact_lock", "void", lock_xact_exclusive);
    let xact_shared = both_keys!("pg_advisory_xact_lock_shared", "void", lock_xact_shared);
    let try_xact = both_keys!("pg_try_advisory_xact_lock", "bool", try_xact_exclusive);
    let try_xact_shared = both_keys!("pg_try_advisory_xact_lock_shared", "bool", try_xact_shared);
    let unlock = both_keys!("pg_advisory_unlock", "bool", unlock_exclusive);
    let unlock_shared = both_keys!("pg_advisory_unlock_shared", "bool", unlock_shared);
    [
        lock[0],
        lock[1],
        lock_shared[0],
        lock_shared[1],
        try_lock[0],
        try_lock[1],
        try_shared[0],
        try_shared[1],
        xact[0],
        xact[1],
        xact_shared[0],
        xact_shared[1],
        try_xact[0],
        try_xact[1],
        try_xact_shared[0],
        try_xact_shared[1],
        unlock[0],
        unlock[1],
        unlock_shared[0],
        unlock_shared[1],
        Function::pg(
            "pg_advisory_unlock_all",
            &[],
            "void",
            Volatility::Volatile,
            unlock_all,
        ),
        Function::pg(
            "pg_notify",
            &["text", "text"],
            "void",
            Volatility::Volatile,
            notify,
        ),
        Function::pg(
            "pg_blocking_pids",
            &["int4"],
            "_int4",
            Volatility::Volatile,
            blocking_pids,
        ),
        Function::helper(
            "litewire_listening_channels",
            Args::Fixed(&[]),
            Volatility::Stable,
            listening_channels,
        ),
    ]
};

/// The key a call names; `None` when an argument is NULL (the call is then NULL).
fn key(args: &[Arg]) -> Result<Option<AdvisoryKey>, Out> {
    if args.contains(&Arg::Null) {
        return Ok(None);
    }
    let int = |arg: &Arg| {
        arg.int().ok_or_else(|| {
            Out::Fail(
                SqlState::INVALID_TEXT_REPRESENTATION,
                format!(
                    "invalid input syntax for type bigint: \"{}\"",
                    arg.display()
                ),
            )
        })
    };
    Ok(Some(match args {
        [one] => AdvisoryKey::Big(int(one)?),
        [a, b] => {
            let narrow = |n: i64| {
                i32::try_from(n).map_err(|_| {
                    Out::Fail(
                        SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
                        "integer out of range".into(),
                    )
                })
            };
            AdvisoryKey::Pair(narrow(int(a)?)?, narrow(int(b)?)?)
        }
        _ => return Ok(None),
    }))
}

/// Takes a lock, waiting (outside SQLite) when `wait`; answers whether it
/// was taken.
fn acquire(call: &Call, args: &[Arg], mode: LockMode, scope: Scope, wait: bool) -> Out {
    let key = match key(args) {
        Ok(Some(key)) => key,
        Ok(None) => return Out::Null,
        Err(failed) => return failed,
    };
    let Some(served) = call.context.served() else {
        return Out::Error("advisory locks need a session".into());
    };
    let request = Request { key, mode, scope };
    let locker = served.locker();
    served.took_advisory_locks.store(true, Ordering::Release);
    if scope == Scope::Transaction {
        served.took_transaction_locks.store(true, Ordering::Release);
    }
    let taken = call.context.server.locks.advisory(locker, |locks| {
        let taken = locks.try_acquire(locker.session, request);
        if !taken && wait {
            locks.block(locker.session, request);
        }
        taken
    });
    match (taken, wait) {
        (true, true) => Out::Text(String::new()),
        (false, true) => Out::Error("waiting for an advisory lock".into()),
        (taken, false) => Out::Int(i64::from(taken)),
    }
}

fn lock_session_exclusive(call: &Call, args: &[Arg]) -> Out {
    acquire(call, args, LockMode::Exclusive, Scope::Session, true)
}

fn lock_session_shared(call: &Call, args: &[Arg]) -> Out {
    acquire(call, args, LockMode::Shared, Scope::Session, true)
}

fn try_session_exclusive(call: &Call, args: &[Arg]) -> Out {
    acquire(call, args, LockMode::Exclusive, Scope::Session, false)
}

fn try_session_shared(call: &Call, args: &[Arg]) -> Out {
    acquire(call, args, LockMode::Shared, Scope::Session, false)
}

fn lock_xact_exclusive(call: &Call, args: &[Arg]) -> Out {
    acquire(call, args, LockMode::Exclusive, Scope::Transaction, true)
}

fn lock_xact_shared(call: &Call, args: &[Arg]) -> Out {
    acquire(call, args, LockMode::Shared, Scope::Transaction, true)
}

fn try_xact_exclusive(call: &Call, args: &[Arg]) -> Out {
    acquire(call, args, LockMode::Exclusive, Scope::Transaction, false)
}

fn try_xact_shared(call: &Call, args: &[Arg]) -> Out {
    acquire(call, args, LockMode::Shared, Scope::Transaction, false)
}

/// Releases one session-level hold; false (PostgreSQL also warns) when the
/// session held none.
fn release(call: &Call, args: &[Arg], mode: LockMode) -> Out {
    let key = match key(args) {
        Ok(Some(key)) => key,
        Ok(None) => return Out::Null,
        Err(failed) => return failed,
    };
    let Some(served) = call.context.served() else {
        return Out::Int(0);
    };
    let locker = served.locker();
    let released = call
        .context
        .server
        .locks
        .advisory(locker, |locks| locks.release(locker.session, key, mode));
    Out::Int(i64::from(released))
}

fn unlock_exclusive(call: &Call, args: &[Arg]) -> Out {
    release(call, args, LockMode::Exclusive)
}

fn unlock_shared(call: &Call, args: &[Arg]) -> Out {
    release(call, args, LockMode::Shared)
}

/// `pg_advisory_unlock_all()`: every session-level lock of the session.
fn unlock_all(call: &Call, _args: &[Arg]) -> Out {
    if let Some(served) = call.context.served() {
        let locker = served.locker();
        call.context.server.locks.advisory(locker, |locks| {
            locks.release_all(locker.session, Some(Scope::Session))
        });
    }
    Out::Text(String::new())
}

/// `pg_blocking_pids(pid)`: the sessions the session of `pid` waits for.
fn blocking_pids(call: &Call, args: &[Arg]) -> Out {
    let Some(pid) = args[0].int().and_then(|pid| i32::try_from(pid).ok()) else {
        return Out::Null;
    };
    let pids: Vec<Option<String>> = call
        .context
        .server
        .locks
        .blocking_pids(pid)
        .into_iter()
        .map(|pid| Some(pid.to_string()))
        .collect();
    Out::Text(format_array(&pids))
}

/// `pg_notify(channel, payload)`: `NOTIFY`, sent when the transaction commits.
fn notify(call: &Call, args: &[Arg]) -> Out {
    let Some(channel) = args[0].text() else {
        return Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            "channel name cannot be empty".into(),
        );
    };
    let payload = args[1].text().unwrap_or_default();
    let Some(served) = call.context.served() else {
        return Out::Error("notifications need a session".into());
    };
    match served.notify(&channel, &payload) {
        Ok(()) => Out::Text(String::new()),
        Err(error) => Out::Fail(SqlState::INVALID_PARAMETER_VALUE, error.message),
    }
}

/// `litewire_listening_channels()`: the channels the session listens on, as an
/// array (`pg_listening_channels()` is its `unnest`).
fn listening_channels(call: &Call, _args: &[Arg]) -> Out {
    let channels: Vec<Option<String>> = call
        .context
        .served()
        .map(|served| call.context.server.notifier.channels(served.session))
        .unwrap_or_default()
        .into_iter()
        .map(Some)
        .collect();
    Out::Text(format_array(&channels))
}
