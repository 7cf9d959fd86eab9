//! Date and time functions: `EXTRACT` and `date_part`, `date_trunc`,
//! `make_date`, `make_time` and `make_timestamp`, over the ISO text litewire
//! stores dates and times as (see `sql::datetime`).
//!
//! The translation passes the value's type along (`litewire_extract(field,
//! value, type)`), since stored text alone does not say whether it is a date
//! or a timestamp. `EXTRACT` answers `numeric` as PostgreSQL 15 does (seconds
//! with six decimals, milliseconds with three), `date_part` the same as
//! `float8`. Fields are read by PostgreSQL's rules: an unknown one is 22023, a
//! known one the type does not have 0A000.

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use super::division::{division_scale, quotient};
use crate::error::SqlState;
use crate::sql::datetime::{
    self, DATE_INFINITY, DATE_MINUS_INFINITY, TIMESTAMP_INFINITY, TIMESTAMP_MINUS_INFINITY,
    USECS_PER_DAY, USECS_PER_SEC,
};
use crate::sql::datetime_input::{Target, in_range};
use crate::sql::interval::Interval;
use crate::sql::time_zone::Zone;

const IMMUTABLE: Volatility = Volatility::Immutable;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg("timeofday", &[], "text", Volatility::Volatile, timeofday),
    Function::helper(
        "litewire_extract",
        Args::Fixed(&["text", "any", "text"]),
        IMMUTABLE,
        extract,
    ),
    Function::helper(
        "litewire_date_part",
        Args::Fixed(&["text", "any", "text"]),
        IMMUTABLE,
        date_part,
    ),
    Function::helper(
        "litewire_date_trunc",
        Args::Fixed(&["text", "any", "text"]),
        IMMUTABLE,
        date_trunc,
    ),
    Function {
        name: "litewire_datetime_in",
        args: Args::Fixed(&["text", "text"]),
        result: "text",
        // The session's `DateStyle` decides.
        volatility: Volatility::Stable,
        body: super::definition::Body::Scalar(datetime_in),
        listed: false,
    },
    Function::pg(
        "to_timestamp",
        &["float8"],
        "timestamptz",
        IMMUTABLE,
        to_timestamp,
    ),
    Function::helper(
        "litewire_at_zone",
        Args::Fixed(&["timestamptz", "text", "text", "text"]),
        IMMUTABLE,
        at_zone,
    ),
    Function::pg("isfinite", &["date"], "bool", IMMUTABLE, isfinite),
    Function::pg("isfinite", &["timestamp"], "bool", IMMUTABLE, isfinite),
    Function::pg("isfinite", &["timestamptz"], "bool", IMMUTABLE, isfinite),
    Function::pg("isfinite", &["interval"], "bool", IMMUTABLE, isfinite),
    Function::pg(
        "make_date",
        &["int4", "int4", "int4"],
        "date",
        IMMUTABLE,
        make_date,
    ),
    Function::pg(
        "make_time",
        &["int4", "int4", "float8"],
        "time",
        IMMUTABLE,
        make_time,
    ),
    Function::pg(
        "make_timestamp",
        &["int4", "int4", "int4", "int4", "int4", "float8"],
        "timestamp",
        IMMUTABLE,
        make_timestamp,
    ),
    Function::pg(
        "make_timestamptz",
        &["int4", "int4", "int4", "int4", "int4", "float8"],
        "timestamptz",
        Volatility::Stable,
        make_timestamptz,
    ),
    Function::pg(
        "make_timestamptz",
        &["int4", "int4", "int4", "int4", "int4", "float8", "text"],
        "timestamptz",
        Volatility::Stable,
        make_timestamptz,
    ),
];

/// Days from 1970-01-01 to PostgreSQL's epoch, 2000-01-01.
const PG_EPOCH_DAYS: i64 = 10_957;
/// The Julian day number of 2000-01-01.
const PG_EPOCH_JULIAN: i64 = 2_451_545;

/// The kinds of value the functions take, by the type the translation names.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    Date,
    Time,
    Timestamp,
    Timestamptz,
}

impl Kind {
    fn of(name: &str) -> Option<Kind> {
        Some(match name {
            "date" => Kind::Date,
            "time" => Kind::Time,
            "timestamp" => Kind::Timestamp,
            "timestamptz" => Kind::Timestamptz,
            _ => return None,
        })
    }

    fn display(self) -> &'static str {
        match self {
            Kind::Date => "date",
            Kind::Time => "time without time zone",
            Kind::Timestamp => "timestamp without time zone",
            Kind::Timestamptz => "timestamp with time zone",
        }
    }
}

/// A value read: microseconds since 2000-01-01 (a date at its midnight, a
/// time since midnight), or an infinity.
enum Moment {
    At(i64),
    Infinite { negative: bool },
}

fn read(value: &str, kind: Kind) -> Result<Moment, Out> {
    let invalid = || {
        Out::Fail(
            SqlState::INVALID_DATETIME_FORMAT,
            format!(
                "invalid input syntax for type {}: \"{value}\"",
                kind.display()
            ),
        )
    };
    let usecs = match kind {
        Kind::Date => match datetime::parse_date(value).ok_or_else(invalid)? {
            DATE_INFINITY => return Ok(Moment::Infinite { negative: false }),
            DATE_MINUS_INFINITY => return Ok(Moment::Infinite { negative: true }),
            days => days * USECS_PER_DAY,
        },
        Kind::Time => datetime::parse_time(value).ok_or_else(invalid)?,
        Kind::Timestamp | Kind::Timestamptz => {
            match datetime::parse_timestamp(value, kind == Kind::Timestamptz).ok_or_else(invalid)? {
                TIMESTAMP_INFINITY => return Ok(Moment::Infinite { negative: false }),
                TIMESTAMP_MINUS_INFINITY => return Ok(Moment::Infinite { negative: true }),
                usecs => usecs,
            }
        }
    };
    Ok(Moment::At(usecs))
}

/// PostgreSQL's unit names, with the abbreviations and plurals it accepts.
fn unit(name: &str) -> Option<&'static str> {
    let lower = name.trim().to_ascii_lowercase();
    if let Some(unit) = crate::sql::interval::canonical_unit(&lower) {
        return Some(match unit {
            "microsecond" => "microseconds",
            "millisecond" => "milliseconds",
            other => other,
        });
    }
    Some(match lower.as_str() {
        "quarter" | "qtr" => "quarter",
        "epoch" => "epoch",
        "julian" | "j" => "julian",
        "dow" => "dow",
        "isodow" => "isodow",
        "doy" => "doy",
        "isoyear" => "isoyear",
        "timezone" => "timezone",
        "timezone_h" | "timezone_hour" => "timezone_hour",
        "timezone_m" | "timezone_minute" => "timezone_minute",
        _ => return None,
    })
}

fn not_recognized(field: &str, kind: Kind) -> Out {
    Out::Fail(
        SqlState::INVALID_PARAMETER_VALUE,
        format!(
            "unit \"{field}\" not recognized for type {}",
            kind.display()
        ),
    )
}

fn not_supported(field: &str, kind: Kind) -> Out {
    Out::Fail(
        SqlState::FEATURE_NOT_SUPPORTED,
        format!("unit \"{field}\" not supported for type {}", kind.display()),
    )
}

/// A field's value.
#[derive(Debug, PartialEq)]
enum Value {
    Integer(i64),
    /// A decimal, as its digits.
    Decimal(String),
    Infinite {
        negative: bool,
    },
    Null,
}

/// `n` counted in units of `10^-scale`, as a decimal with `scale` digits.
fn scaled(n: i64, scale: u32) -> Value {
    Value::Decimal(quotient(i128::from(n), 10i128.pow(scale), scale))
}

/// The value of `field` for a moment of `kind`; a timestamptz's moment is on
/// the session's clock, `offset` seconds east of UTC.
fn field_value(field: &str, moment: Moment, kind: Kind, offset: i64) -> Result<Value, Out> {
    let Some(unit) = unit(field) else {
        return Err(not_recognized(field, kind));
    };
    let date_units = [
        "day",
        "week",
        "month",
        "quarter",
        "year",
        "decade",
        "century",
        "millennium",
        "julian",
        "dow",
        "isodow",
        "doy",
        "isoyear",
    ];
    let time_units = ["microseconds", "milliseconds", "second", "minute", "hour"];
    let zone_units = ["timezone", "timezone_hour", "timezone_minute"];
    let supported = match kind {
        Kind::Date => date_units.contains(&unit) || unit == "epoch",
        Kind::Time => time_units.contains(&unit) || unit == "epoch",
        Kind::Timestamp => !zone_units.contains(&unit),
        Kind::Timestamptz => true,
    };
    if !supported {
        return Err(not_supported(field, kind));
    }
    let usecs = match moment {
        Moment::At(usecs) => usecs,
        // Infinite moments have an infinite epoch, year and the like, and no
        // other field.
        Moment::Infinite { negative } => {
            return Ok(match unit {
                "epoch" | "julian" | "year" | "isoyear" | "decade" | "century" | "millennium" => {
                    Value::Infinite { negative }
                }
                _ => Value::Null,
            });
        }
    };
    let f = datetime::calendar(usecs);
    let year = f.year;
    let second_usecs = f.time % (60 * USECS_PER_SEC);
    Ok(match unit {
        "microseconds" => Value::Integer(second_usecs),
        "milliseconds" => scaled(second_usecs, 3),
        "second" => scaled(second_usecs, 6),
        "minute" => Value::Integer(f.time / (60 * USECS_PER_SEC) % 60),
        "hour" => Value::Integer(f.time / (3600 * USECS_PER_SEC)),
        "day" => Value::Integer(i64::from(f.day)),
        "month" => Value::Integer(i64::from(f.month)),
        "quarter" => Value::Integer((i64::from(f.month) - 1) / 3 + 1),
        "year" => Value::Integer(if year > 0 { year } else { year - 1 }),
        "decade" => Value::Integer(match year >= 0 {
            true => year / 10,
            false => -((8 - (year - 1)) / 10),
        }),
        "century" => Value::Integer(match year > 0 {
            true => (year + 99) / 100,
            false => -((99 - (year - 1)) / 100),
        }),
        "millennium" => Value::Integer(match year > 0 {
            true => (year + 999) / 1000,
            false => -((999 - (year - 1)) / 1000),
        }),
        "dow" => Value::Integer((f.days + PG_EPOCH_DAYS + 4).rem_euclid(7)),
        "isodow" => Value::Integer((f.days + PG_EPOCH_DAYS + 3).rem_euclid(7) + 1),
        "doy" => Value::Integer(f.days + PG_EPOCH_DAYS - datetime::days_from_civil(year, 1, 1) + 1),
        "week" => Value::Integer(datetime::iso_week(&f).1),
        "isoyear" => {
            let iso = datetime::iso_week(&f).0;
            Value::Integer(if iso > 0 { iso } else { iso - 1 })
        }
        "julian" if kind == Kind::Date => Value::Integer(f.days + PG_EPOCH_JULIAN),
        "julian" => {
            // The day number plus the fraction of the day, with the digits
            // PostgreSQL's numeric division gives it.
            let day = i128::from(USECS_PER_DAY);
            let scale = division_scale(f.time.unsigned_abs().into(), 0, day.unsigned_abs(), 0);
            let whole = i128::from(f.days + PG_EPOCH_JULIAN) * day + i128::from(f.time);
            Value::Decimal(quotient(whole, day, scale))
        }
        "epoch" if kind == Kind::Date => Value::Integer((f.days + PG_EPOCH_DAYS) * 86_400),
        "epoch" if kind == Kind::Time => scaled(f.time, 6),
        "epoch" => scaled(
            usecs + PG_EPOCH_DAYS * USECS_PER_DAY - offset * USECS_PER_SEC,
            6,
        ),
        "timezone" => Value::Integer(offset),
        "timezone_hour" => Value::Integer(offset / 3600),
        "timezone_minute" => Value::Integer(offset / 60 % 60),
        _ => Value::Integer(0),
    })
}

/// The field, value and kind of a call, and the session's zone for a
/// timestamptz (whose moment is then on the zone's clock); `None` when the
/// value is NULL.
fn arguments(call: &Call, args: &[Arg]) -> Result<Option<(String, Moment, Kind, Zone)>, Out> {
    let (Some(field), Some(value), Some(kind)) = (args[0].text(), args[1].text(), args[2].text())
    else {
        return Ok(None);
    };
    let kind = Kind::of(&kind).unwrap_or(Kind::Timestamp);
    // A date is a local day already (`date_trunc` makes it a timestamptz).
    let zone = match kind {
        Kind::Timestamptz | Kind::Date => call.time_zone().unwrap_or_else(Zone::utc),
        _ => Zone::utc(),
    };
    let moment = match read(&value, kind)? {
        Moment::At(usecs) if kind == Kind::Timestamptz => Moment::At(zone.local_of_utc(usecs)),
        moment => moment,
    };
    Ok(Some((field, moment, kind, zone)))
}

/// The field of the value a call names (an interval's or a moment's);
/// `None` when the value is NULL.
fn requested(call: &Call, args: &[Arg]) -> Result<Option<Value>, Out> {
    if args[2].text().as_deref() == Some("interval") {
        let (Some(field), Some(text)) = (args[0].text(), args[1].text()) else {
            return Ok(None);
        };
        let interval = Interval::parse(&text).map_err(|_| {
            Out::Fail(
                SqlState::INVALID_DATETIME_FORMAT,
                format!("invalid input syntax for type interval: \"{text}\""),
            )
        })?;
        return interval_field(&field, &interval).map(Some);
    }
    match arguments(call, args)? {
        Some((field, Moment::At(local), kind, zone)) => {
            let offset = zone.offset_at(zone.utc_of_local(local));
            field_value(&field, Moment::At(local), kind, offset).map(Some)
        }
        Some((field, moment, kind, _)) => field_value(&field, moment, kind, 0).map(Some),
        None => Ok(None),
    }
}

/// A field of an interval, as PostgreSQL splits one: years and months from
/// the months, hours (any number of them) down to microseconds from the time.
fn interval_field(field: &str, interval: &Interval) -> Result<Value, Out> {
    let shown = "interval";
    let Some(unit) = unit(field) else {
        return Err(Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            format!("unit \"{field}\" not recognized for type {shown}"),
        ));
    };
    let months = i64::from(interval.months);
    let (years, month) = (months / 12, months % 12);
    let time = interval.usecs;
    let second_usecs = time % (60 * USECS_PER_SEC);
    Ok(match unit {
        "microseconds" => Value::Integer(second_usecs),
        "milliseconds" => scaled(second_usecs, 3),
        "second" => scaled(second_usecs, 6),
        "minute" => Value::Integer(time / (60 * USECS_PER_SEC) % 60),
        "hour" => Value::Integer(time / (3600 * USECS_PER_SEC)),
        "day" => Value::Integer(i64::from(interval.days)),
        "month" => Value::Integer(month),
        "quarter" => Value::Integer(month / 3 + 1),
        "year" => Value::Integer(years),
        "decade" => Value::Integer(years / 10),
        "century" => Value::Integer(years / 100),
        "millennium" => Value::Integer(years / 1000),
        // A year as 365.25 days, a month as 30.
        "epoch" => {
            let quarter_days = 1461 * years + 120 * month + 4 * i64::from(interval.days);
            scaled(quarter_days * (86_400 / 4) * USECS_PER_SEC + time, 6)
        }
        _ => {
            return Err(Out::Fail(
                SqlState::FEATURE_NOT_SUPPORTED,
                format!("unit \"{field}\" not supported for type {shown}"),
            ));
        }
    })
}

/// `EXTRACT(field FROM value)`: a `numeric`.
fn extract(call: &Call, args: &[Arg]) -> Out {
    match requested(call, args) {
        Ok(Some(Value::Integer(i))) => Out::Int(i),
        Ok(Some(Value::Decimal(digits))) => Out::Text(digits),
        Ok(Some(Value::Infinite { negative })) => {
            Out::Text(if negative { "-Infinity" } else { "Infinity" }.to_owned())
        }
        Ok(Some(Value::Null) | None) => Out::Null,
        Err(out) => out,
    }
}

/// `date_part(field, value)`: the same as a `float8`.
fn date_part(call: &Call, args: &[Arg]) -> Out {
    match requested(call, args) {
        Ok(Some(Value::Null) | None) => Out::Null,
        Ok(Some(Value::Integer(i))) => Out::Real(i as f64),
        Ok(Some(Value::Decimal(digits))) => Out::Real(digits.parse().unwrap_or(f64::NAN)),
        Ok(Some(Value::Infinite { negative })) => Out::Real(match negative {
            true => f64::NEG_INFINITY,
            false => f64::INFINITY,
        }),
        Err(out) => out,
    }
}

/// `date_trunc(field, value)`: a timestamp (or timestamptz) cut down to the
/// start of its field.
fn date_trunc(call: &Call, args: &[Arg]) -> Out {
    let (field, moment, kind, zone) = match arguments(call, args) {
        Ok(Some(parts)) => parts,
        Ok(None) => return Out::Null,
        Err(out) => return out,
    };
    let usecs = match moment {
        Moment::At(usecs) => usecs,
        Moment::Infinite { .. } => return args[1].unchanged(),
    };
    let kind = if kind == Kind::Date {
        Kind::Timestamptz
    } else {
        kind
    };
    let f = datetime::calendar(usecs);
    let year = f.year;
    let at = |year: i64, month: u32, day: u32, time: i64| {
        (datetime::days_from_civil(year, month, day) - PG_EPOCH_DAYS) * USECS_PER_DAY + time
    };
    let truncated = match unit(&field) {
        Some("microseconds") => usecs,
        Some("milliseconds") => usecs - usecs.rem_euclid(1000),
        Some("second") => usecs - usecs.rem_euclid(USECS_PER_SEC),
        Some("minute") => usecs - usecs.rem_euclid(60 * USECS_PER_SEC),
        Some("hour") => usecs - usecs.rem_euclid(3600 * USECS_PER_SEC),
        Some("day") => usecs - f.time,
        Some("week") => {
            let monday = (f.days + PG_EPOCH_DAYS + 3).rem_euclid(7);
            (f.days - monday) * USECS_PER_DAY
        }
        Some("month") => at(year, f.month, 1, 0),
        Some("quarter") => at(year, (f.month - 1) / 3 * 3 + 1, 1, 0),
        Some("year") => at(year, 1, 1, 0),
        Some("decade") => at(
            match year > 0 {
                true => year / 10 * 10,
                false => -((8 - (year - 1)) / 10) * 10,
            },
            1,
            1,
            0,
        ),
        Some("century") => at(
            match year > 0 {
                true => (year + 99) / 100 * 100 - 99,
                false => -((99 - (year - 1)) / 100) * 100 + 1,
            },
            1,
            1,
            0,
        ),
        Some("millennium") => at(
            match year > 0 {
                true => (year + 999) / 1000 * 1000 - 999,
                false => -((999 - (year - 1)) / 1000) * 1000 + 1,
            },
            1,
            1,
            0,
        ),
        Some(_) => return not_supported(&field, kind),
        None => return not_recognized(&field, kind),
    };
    // A timestamptz is cut on the session's clock, then read back from it.
    Out::Text(match kind {
        Kind::Timestamptz => datetime::format_timestamp(zone.utc_of_local(truncated), true),
        _ => datetime::format_timestamp(truncated, false),
    })
}

/// `litewire_datetime_in(text, type)`: date/time input whose meaning depends
/// on the session: on its `DateStyle` (`01/02/03`), read in its order, or on
/// its `TimeZone` (a timestamptz without an offset, `today`).
fn datetime_in(call: &Call, args: &[Arg]) -> Out {
    let (Some(text), Some(type_name)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    let target = super::zoned::target(&type_name).unwrap_or(Target::Timestamptz);
    let zone = call.time_zone().unwrap_or_else(Zone::utc);
    super::zoned::input(&text, target, call.date_order(), &zone)
}

/// `to_timestamp(seconds)`: a Unix time as a timestamptz.
fn to_timestamp(_: &Call, args: &[Arg]) -> Out {
    let seconds = match &args[0] {
        Arg::Null => return Out::Null,
        Arg::Int(i) => *i as f64,
        Arg::Real(f) => *f,
        other => match other.text().map(|t| t.trim().to_ascii_lowercase()) {
            Some(t) if t == "infinity" => return Out::Text("infinity".to_owned()),
            Some(t) if t == "-infinity" => return Out::Text("-infinity".to_owned()),
            Some(t) if t == "nan" => f64::NAN,
            Some(t) => t.parse().unwrap_or(f64::NAN),
            None => return Out::Null,
        },
    };
    if seconds.is_nan() {
        return Out::out_of_range("timestamp cannot be NaN".to_owned());
    }
    if seconds.is_infinite() {
        return Out::Text(
            if seconds > 0.0 {
                "infinity"
            } else {
                "-infinity"
            }
            .to_owned(),
        );
    }
    match datetime::timestamp_from_unix(seconds) {
        Some(usecs) if in_range(usecs.div_euclid(USECS_PER_DAY), true) => {
            Out::Text(datetime::format_timestamp(usecs, true))
        }
        _ => Out::out_of_range(format!("timestamp out of range: \"{seconds}\"")),
    }
}

/// `litewire_at_zone(value, zone, zone_kind, kind)`: `value AT TIME ZONE
/// zone`, the zone named by text or given as an interval east of UTC. A
/// timestamptz becomes the zone's local timestamp; a timestamp, read as the
/// zone's local time, a timestamptz.
fn at_zone(_: &Call, args: &[Arg]) -> Out {
    let (Some(value), Some(zone), Some(zone_kind), Some(kind)) = (
        args[0].text(),
        args[1].text(),
        args[2].text(),
        args[3].text(),
    ) else {
        return Out::Null;
    };
    let zone = match zone_kind.as_str() {
        "interval" => match Interval::parse(&zone) {
            Ok(interval) if interval.months == 0 && interval.days == 0 => {
                match Zone::fixed(interval.usecs / USECS_PER_SEC) {
                    Some(zone) => zone,
                    None => return zone_not_recognized(&zone),
                }
            }
            Ok(_) => {
                return Out::Fail(
                    SqlState::INVALID_PARAMETER_VALUE,
                    format!("interval time zone \"{zone}\" must not include months or days"),
                );
            }
            Err(_) => return zone_not_recognized(&zone),
        },
        _ => match Zone::named(&zone) {
            Some(zone) => zone,
            None => return zone_not_recognized(&zone),
        },
    };
    let with_tz = kind == "timestamptz";
    let Some(usecs) = datetime::parse_timestamp(&value, with_tz) else {
        return Out::Fail(
            SqlState::INVALID_DATETIME_FORMAT,
            format!("invalid input syntax for type timestamp: \"{value}\""),
        );
    };
    Out::Text(match with_tz {
        true => datetime::format_timestamp(zone.local_of_utc(usecs), false),
        false => datetime::format_timestamp(zone.utc_of_local(usecs), true),
    })
}

fn zone_not_recognized(name: &str) -> Out {
    Out::Fail(
        SqlState::INVALID_PARAMETER_VALUE,
        format!("time zone \"{name}\" not recognized"),
    )
}

/// The days since 2000-01-01 of a date given by its fields (a negative year
/// is BC), if it exists.
fn date_of(year: i64, month: i64, day: i64) -> Result<i64, Out> {
    let invalid = || {
        Out::out_of_range(format!(
            "date field value out of range: {year}-{month:02}-{day:02}"
        ))
    };
    if year == 0 || !(1..=12).contains(&month) || day < 1 {
        return Err(invalid());
    }
    // Astronomical numbering: 1 BC is year 0.
    let astronomical = if year < 0 { year + 1 } else { year };
    let (month, day) = (month as u32, day as u32);
    let days = datetime::days_from_civil(astronomical, month, day);
    // A day past the month's end comes back as another date.
    if datetime::civil_from_days(days) != (astronomical, month, day) {
        return Err(invalid());
    }
    Ok(days - PG_EPOCH_DAYS)
}

fn time_of(hour: i64, minute: i64, second: f64) -> Result<i64, Out> {
    let usecs = (second * USECS_PER_SEC as f64).round();
    let midnight_after = hour == 24 && minute == 0 && usecs == 0.0;
    if !((0..=23).contains(&hour) || midnight_after)
        || !(0..=59).contains(&minute)
        || !(0.0..=60.0 * USECS_PER_SEC as f64).contains(&usecs)
    {
        return Err(Out::out_of_range(format!(
            "time field value out of range: {hour}:{minute:02}:{second:02}"
        )));
    }
    Ok((hour * 60 + minute) * 60 * USECS_PER_SEC + usecs as i64)
}

fn ints<const N: usize>(args: &[Arg]) -> Option<[i64; N]> {
    let mut out = [0; N];
    for (slot, arg) in out.iter_mut().zip(args) {
        *slot = arg.int()?;
    }
    Some(out)
}

/// `isfinite(date | timestamp | interval)`: false for `infinity` and
/// `-infinity` (an interval is always finite in PostgreSQL 15).
fn isfinite(_: &Call, args: &[Arg]) -> Out {
    match args[0].text() {
        None => Out::Null,
        Some(text) => {
            let infinite = matches!(text.trim(), "infinity" | "-infinity" | "+infinity");
            Out::Int(i64::from(!infinite))
        }
    }
}

fn make_date(_: &Call, args: &[Arg]) -> Out {
    let Some([year, month, day]) = ints::<3>(args) else {
        return Out::Null;
    };
    match date_of(year, month, day) {
        Ok(days) => Out::Text(datetime::format_date(days)),
        Err(out) => out,
    }
}

fn make_time(_: &Call, args: &[Arg]) -> Out {
    let (Some([hour, minute]), Some(second)) = (ints::<2>(args), args[2].float()) else {
        return Out::Null;
    };
    match time_of(hour, minute, second) {
        Ok(usecs) => Out::Text(datetime::format_time(usecs)),
        Err(out) => out,
    }
}

fn make_timestamp(_: &Call, args: &[Arg]) -> Out {
    let (Some([year, month, day, hour, minute]), Some(second)) = (ints::<5>(args), args[5].float())
    else {
        return Out::Null;
    };
    let made = date_of(year, month, day)
        .and_then(|days| Ok(days * USECS_PER_DAY + time_of(hour, minute, second)?));
    match made {
        Ok(usecs) => Out::Text(datetime::format_timestamp(usecs, false)),
        Err(out) => out,
    }
}

/// `make_timestamptz(year, month, day, hour, min, sec [, zone])`: the local
/// time of the zone given, else of the session's.
fn make_timestamptz(call: &Call, args: &[Arg]) -> Out {
    let (Some([year, month, day, hour, minute]), Some(second)) = (ints::<5>(args), args[5].float())
    else {
        return Out::Null;
    };
    let zone = match args.get(6) {
        Some(Arg::Null) => return Out::Null,
        Some(name) => match Zone::named(&name.display()) {
            Some(zone) => zone,
            None => return zone_not_recognized(&name.display()),
        },
        None => call.time_zone().unwrap_or_else(Zone::utc),
    };
    let made = date_of(year, month, day)
        .and_then(|days| Ok(days * USECS_PER_DAY + time_of(hour, minute, second)?));
    match made {
        Ok(local) => Out::Text(datetime::format_timestamp(zone.utc_of_local(local), true)),
        Err(out) => out,
    }
}

/// `timeofday()`: the wall-clock time now, as text in the session's time
/// zone: `Mon Dec 07 08:48:29.976781 2026 UTC`.
fn timeofday(call: &Call, _: &[Arg]) -> Out {
    let stamp = crate::sql::datetime::now();
    let zone = call.time_zone().unwrap_or_else(Zone::utc);
    let at = crate::sql::datetime::calendar(zone.local_of_utc(stamp));
    let abbreviation = zone.abbreviation_at(stamp);
    const DAYS: [&str; 7] = ["Sat", "Sun", "Mon", "Tue", "Wed", "Thu", "Fri"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    // 2000-01-01, day 0, was a Saturday.
    let weekday = DAYS[usize::try_from(at.days.rem_euclid(7)).unwrap_or(0)];
    let month = MONTHS[(at.month as usize).saturating_sub(1) % 12];
    let (seconds, micros) = (at.time / 1_000_000, at.time % 1_000_000);
    Out::Text(format!(
        "{weekday} {month} {:02} {:02}:{:02}:{:02}.{micros:06} {} {abbreviation}",
        at.day,
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60,
        at.year
    ))
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    fn extract_of(field: &str, value: &str, kind: &str) -> Out {
        call(
            extract,
            &[Arg::Text(field), Arg::Text(value), Arg::Text(kind)],
        )
    }

    #[test]
    fn fields_follow_postgres_calendar_rules() {
        assert_eq!(extract_of("century", "0001-12-31 BC", "date"), Out::Int(-1));
        assert_eq!(extract_of("century", "0101-12-31 BC", "date"), Out::Int(-2));
        assert_eq!(extract_of("century", "2000-12-31", "date"), Out::Int(20));
        assert_eq!(extract_of("millennium", "2001-01-01", "date"), Out::Int(3));
        assert_eq!(extract_of("year", "0001-01-01 BC", "date"), Out::Int(-1));
        assert_eq!(extract_of("isodow", "2020-08-09", "date"), Out::Int(7));
        assert_eq!(extract_of("dow", "2020-08-09", "date"), Out::Int(0));
        assert_eq!(extract_of("week", "2021-01-01", "date"), Out::Int(53));
        assert_eq!(extract_of("isoyear", "2021-01-01", "date"), Out::Int(2020));
        assert_eq!(
            extract_of("second", "2020-01-01 12:34:56.5", "timestamp"),
            Out::Text("56.500000".into())
        );
        assert_eq!(
            extract_of("epoch", "1970-01-02 00:00:00+00", "timestamptz"),
            Out::Text("86400.000000".into())
        );
        assert!(matches!(
            extract_of("hour", "2020-01-01", "date"),
            Out::Fail(..)
        ));
        assert!(matches!(
            extract_of("fortnight", "2020-01-01", "date"),
            Out::Fail(..)
        ));
    }
}
