//! What depends on the session's `TimeZone`: a timestamptz is stored in UTC,
//! and the session's zone says which local time it is when it is shown as
//! text, converted to a date, a time or a timestamp, and which moment a local
//! time (a date, a timestamp, input without an offset) names.
//!
//! The translation cannot fold these into a statement it caches for every
//! session, so they run here, where the session that runs the statement is
//! known (see `context`).

use super::call::{Arg, Call, Out};
use crate::error::SqlState;
use crate::sql::datetime::{
    self, DATE_INFINITY, DATE_MINUS_INFINITY, TIMESTAMP_INFINITY, TIMESTAMP_MINUS_INFINITY,
    USECS_PER_DAY,
};
use crate::sql::datetime_input::{DateOrder, InputError, Target, stored};
use crate::sql::time_zone::Zone;

impl Call<'_> {
    /// The session's time zone; UTC when it set none (or no session runs).
    pub(super) fn time_zone(&self) -> Option<Zone> {
        self.context
            .served()
            .and_then(|served| served.settings.lock().time_zone().cloned())
    }

    /// The field order the session's `DateStyle` gives numeric dates.
    pub(super) fn date_order(&self) -> DateOrder {
        let style = self
            .context
            .served()
            .and_then(|served| served.settings.lock().get("DateStyle").ok())
            .unwrap_or_default();
        DateOrder::of_style(&style)
    }
}

/// The date/time types, by the names the translation gives them.
pub(super) fn target(name: &str) -> Option<Target> {
    Some(match name {
        "date" => Target::Date,
        "time" => Target::Time,
        "timestamp" => Target::Timestamp,
        "timestamptz" => Target::Timestamptz,
        _ => return None,
    })
}

fn is_text(name: &str) -> bool {
    matches!(name, "text" | "varchar" | "bpchar" | "name" | "unknown")
}

/// `litewire_cast` to or from a date/time type: `None` where it is neither
/// (or nothing changes).
pub(super) fn date_time_cast(call: &Call, value: &Arg, from: &str, to: &str) -> Option<Out> {
    let text = match value {
        Arg::Null => return Some(Out::Null),
        Arg::Text(text) => *text,
        _ => return None,
    };
    if is_text(to) {
        // Only a timestamptz shows differently: in the session's zone.
        if from != "timestamptz" {
            return None;
        }
        return call.time_zone()?.show(text).map(Out::Text);
    }
    let to_kind = target(to)?;
    if from == to {
        return None;
    }
    let zone = || call.time_zone().unwrap_or_else(Zone::utc);
    if is_text(from) {
        return Some(input(text, to_kind, call.date_order(), &zone()));
    }
    // A moment on the session's clock (microseconds), read as `from`.
    let local = match from {
        "date" => match datetime::parse_date(text)? {
            DATE_INFINITY => TIMESTAMP_INFINITY,
            DATE_MINUS_INFINITY => TIMESTAMP_MINUS_INFINITY,
            days => days * USECS_PER_DAY,
        },
        "timestamp" => datetime::parse_timestamp(text, false)?,
        "timestamptz" => zone().local_of_utc(datetime::parse_timestamp(text, true)?),
        _ => return None,
    };
    let utc = || zone().utc_of_local(local);
    Some(Out::Text(stored_as(to_kind, local, utc)?))
}

/// A moment stored as `target`: the date, time or timestamp of its local
/// time, or (a timestamptz) the moment `utc` gives; `None` for the time of
/// an infinity.
fn stored_as(target: Target, local: i64, utc: impl FnOnce() -> i64) -> Option<String> {
    let infinite = matches!(local, TIMESTAMP_INFINITY | TIMESTAMP_MINUS_INFINITY);
    Some(match target {
        Target::Date => datetime::format_date(match local {
            TIMESTAMP_INFINITY => DATE_INFINITY,
            TIMESTAMP_MINUS_INFINITY => DATE_MINUS_INFINITY,
            _ => local.div_euclid(USECS_PER_DAY),
        }),
        Target::Time if infinite => return None,
        Target::Time => datetime::format_time(local.rem_euclid(USECS_PER_DAY)),
        Target::Timestamp => datetime::format_timestamp(local, false),
        Target::Timestamptz => datetime::format_timestamp(utc(), true),
    })
}

/// Date/time input read as `target` in the session's field order and zone,
/// with PostgreSQL's errors.
pub(super) fn input(text: &str, target: Target, order: DateOrder, zone: &Zone) -> Out {
    let shown = match target {
        Target::Date => "date",
        Target::Time => "time without time zone",
        Target::Timestamp => "timestamp without time zone",
        Target::Timestamptz => "timestamp with time zone",
    };
    if let Some(special) = special_input(text, target, zone) {
        return Out::Text(special);
    }
    match stored(text, target, order, Some(zone)) {
        Ok(stored) => Out::Text(stored),
        Err(InputError::BadFormat | InputError::SessionZone) => Out::Fail(
            SqlState::INVALID_DATETIME_FORMAT,
            format!("invalid input syntax for type {shown}: \"{text}\""),
        ),
        Err(InputError::OutOfRange) => Out::out_of_range(format!(
            "{} out of range: \"{text}\"",
            if target == Target::Date {
                "date"
            } else {
                "timestamp"
            }
        )),
        Err(_) => Out::out_of_range(format!("date/time field value out of range: \"{text}\"")),
    }
}

/// PostgreSQL's special input words: `infinity`, `-infinity`, `epoch`, and
/// `now`, `today`, `tomorrow`, `yesterday` on the session's clock.
fn special_input(text: &str, target: Target, zone: &Zone) -> Option<String> {
    let word = text.trim().to_ascii_lowercase();
    let now = datetime::now;
    let epoch = -datetime::PG_EPOCH_DAYS * USECS_PER_DAY;
    let utc = match word.as_str() {
        "infinity" | "+infinity" => TIMESTAMP_INFINITY,
        "-infinity" => TIMESTAMP_MINUS_INFINITY,
        "epoch" => epoch,
        "now" => now(),
        "today" | "tomorrow" | "yesterday" => {
            let days = match word.as_str() {
                "tomorrow" => 1,
                "yesterday" => -1,
                _ => 0,
            };
            let today = zone.local_of_utc(now()).div_euclid(USECS_PER_DAY);
            zone.utc_of_local((today + days) * USECS_PER_DAY)
        }
        _ => return None,
    };
    // `epoch` is 1970-01-01 00:00 on every clock: UTC for a timestamptz,
    // the local time for the others.
    let local = match word.as_str() {
        "epoch" => epoch,
        _ => zone.local_of_utc(utc),
    };
    stored_as(target, local, || utc)
}
