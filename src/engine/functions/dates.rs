//! `date ± integer` and `date - date` on PostgreSQL's calendar: BC dates
//! (stored `0044-03-15 BC`, which SQLite's date functions cannot read) and
//! the infinities count as PostgreSQL counts them, and a result beyond the
//! type's range is 22008 rather than NULL.

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;
use crate::sql::datetime::{self, DATE_INFINITY, DATE_MINUS_INFINITY};
use crate::sql::datetime_input::in_range;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::helper(
        "litewire_date_plus",
        Args::Fixed(&["date", "int4"]),
        Volatility::Immutable,
        date_plus,
    ),
    Function::helper(
        "litewire_date_minus",
        Args::Fixed(&["date", "date"]),
        Volatility::Immutable,
        date_minus,
    ),
];

/// A stored date as days since 2000-01-01 (or an infinity); `Err` for text
/// that is no date.
fn days(arg: &Arg) -> Result<Option<i64>, Out> {
    let Some(text) = arg.text() else {
        return Ok(None);
    };
    datetime::parse_date(&text).map(Some).ok_or_else(|| {
        Out::Fail(
            SqlState::INVALID_DATETIME_FORMAT,
            format!("invalid input syntax for type date: \"{text}\""),
        )
    })
}

/// `litewire_date_plus(date, n)`: the date `n` days later (earlier when
/// negative); an infinite date stays so.
fn date_plus(_: &Call, args: &[Arg]) -> Out {
    let (date, n) = match (days(&args[0]), args[1].int()) {
        (Ok(Some(date)), Some(n)) => (date, n),
        (Err(out), _) => return out,
        _ => return Out::Null,
    };
    if matches!(date, DATE_INFINITY | DATE_MINUS_INFINITY) {
        return Out::Text(datetime::format_date(date));
    }
    match date.checked_add(n).filter(|moved| in_range(*moved, false)) {
        Some(moved) => Out::Text(datetime::format_date(moved)),
        None => Out::out_of_range("date out of range".to_owned()),
    }
}

/// `litewire_date_minus(a, b)`: the days from `b` to `a`.
fn date_minus(_: &Call, args: &[Arg]) -> Out {
    match (days(&args[0]), days(&args[1])) {
        (Ok(Some(a)), Ok(Some(b))) => {
            let infinite = |d: i64| matches!(d, DATE_INFINITY | DATE_MINUS_INFINITY);
            if infinite(a) || infinite(b) {
                return Out::out_of_range("cannot subtract infinite dates".to_owned());
            }
            Out::Int(a - b)
        }
        (Err(out), _) | (_, Err(out)) => out,
        _ => Out::Null,
    }
}
