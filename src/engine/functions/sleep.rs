//! Delaying execution: `pg_sleep(seconds)` and `pg_sleep_for(interval)`.
//!
//! The wait blocks the thread the statement runs on, so that thread's other
//! work moves elsewhere first (see `control::off_serving_thread`), and it
//! looks at the statement's control every few milliseconds: a cancel, a
//! timeout, a terminate or the shutdown ends it, the statement failing with
//! the error they give, as in PostgreSQL.

use std::time::{Duration, Instant};

use super::call::{Arg, Call, Out};
use super::definition::{Function, Volatility};
use crate::engine::control::{off_serving_thread, with_running};
use crate::error::SqlState;
use crate::sql::interval::Interval;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg("pg_sleep", &["float8"], "void", Volatility::Volatile, sleep),
    Function::pg(
        "pg_sleep_for",
        &["interval"],
        "void",
        Volatility::Volatile,
        sleep_for,
    ),
];

/// The longest look-away while sleeping.
const LOOK_INTERVAL: Duration = Duration::from_millis(10);

fn sleep(_call: &Call, args: &[Arg]) -> Out {
    match args[0].float() {
        Some(seconds) if seconds > 0.0 => wait(Duration::from_secs_f64(seconds.min(1e9))),
        Some(_) => Out::Text(String::new()),
        None => Out::Null,
    }
}

fn sleep_for(_call: &Call, args: &[Arg]) -> Out {
    let Some(text) = args[0].text() else {
        return Out::Null;
    };
    match Interval::parse(&text) {
        Ok(interval) => {
            let micros = u64::try_from(interval.span()).unwrap_or(0);
            wait(Duration::from_micros(micros))
        }
        Err(_) => Out::Fail(
            SqlState::INVALID_DATETIME_FORMAT,
            format!("invalid input syntax for type interval: \"{text}\""),
        ),
    }
}

fn wait(duration: Duration) -> Out {
    let until = Instant::now() + duration;
    let stopped = off_serving_thread(|| {
        with_running(|control| {
            loop {
                if control.is_some_and(|control| control.reason().is_some()) {
                    return true;
                }
                let now = Instant::now();
                if now >= until {
                    return false;
                }
                std::thread::sleep((until - now).min(LOOK_INTERVAL));
            }
        })
    });
    match stopped {
        false => Out::Text(String::new()),
        true => Out::Interrupted,
    }
}
