//! `interval` arithmetic for the PostgreSQL port's translation: timestamps
//! moved by intervals, the interval between timestamps, intervals added,
//! scaled, negated and compared by their span, `age`, the `justify_*`
//! functions, and `sum`/`avg`/`min`/`max` over intervals. Intervals travel as
//! the text litewire stores them in; `sql::interval` does the arithmetic.

use super::aggregate::{Accumulator, callbacks};
use super::call::{Arg, Call, Out, with_read as with};
use super::definition::{Args, Body, Function, Volatility};
use crate::error::SqlState;
use crate::sql::datetime::{self, USECS_PER_DAY};
use crate::sql::interval::{Interval, IntervalError};
use crate::sql::time_zone::Zone;

const IMMUTABLE: Volatility = Volatility::Immutable;

const fn aggregate<A: Accumulator>(name: &'static str) -> Function {
    Function {
        name,
        args: Args::Fixed(&["interval"]),
        result: "interval",
        volatility: IMMUTABLE,
        body: Body::Aggregate(callbacks::<A>()),
        listed: false,
    }
}

pub(super) const FUNCTIONS: &[Function] = &[
    Function::immutable_helper("litewire_interval_in", &["text"], interval_in),
    Function::immutable_helper(
        "litewire_timestamp_plus",
        &["timestamp", "interval", "int4", "text"],
        timestamp_plus,
    ),
    Function::immutable_helper(
        "litewire_timestamp_minus",
        &["timestamp", "timestamp", "text"],
        timestamp_minus,
    ),
    Function::immutable_helper(
        "litewire_time_plus",
        &["time", "interval", "int4"],
        time_plus,
    ),
    Function::immutable_helper("litewire_time_minus", &["time", "time"], time_minus),
    Function::immutable_helper(
        "litewire_interval_add",
        &["interval", "interval", "int4"],
        add,
    ),
    Function::immutable_helper("litewire_interval_mul", &["interval", "float8"], multiply),
    Function::immutable_helper("litewire_interval_div", &["interval", "float8"], divide),
    Function::immutable_helper("litewire_interval_neg", &["interval"], negate),
    Function::immutable_helper("litewire_interval_cmp", &["interval", "interval"], compare),
    Function::immutable_helper("litewire_interval_key", &["interval"], sort_key),
    Function::immutable_helper("litewire_interval_step", &["interval"], series_step),
    Function::pg(
        "make_interval",
        &["int4", "int4", "int4", "int4", "int4", "int4", "float8"],
        "interval",
        IMMUTABLE,
        make_interval,
    ),
    Function::pg(
        "justify_days",
        &["interval"],
        "interval",
        IMMUTABLE,
        justify_days,
    ),
    Function::pg(
        "justify_hours",
        &["interval"],
        "interval",
        IMMUTABLE,
        justify_hours,
    ),
    Function::pg(
        "justify_interval",
        &["interval"],
        "interval",
        IMMUTABLE,
        justify_interval,
    ),
    Function::pg(
        "age",
        &["timestamptz", "timestamptz"],
        "interval",
        IMMUTABLE,
        age,
    ),
    Function::pg(
        "age",
        &["timestamptz"],
        "interval",
        Volatility::Stable,
        age_today,
    ),
    aggregate::<Sum>("litewire_interval_sum"),
    aggregate::<Average>("litewire_interval_avg"),
    aggregate::<Extreme<true>>("litewire_interval_max"),
    aggregate::<Extreme<false>>("litewire_interval_min"),
];

fn failure(error: IntervalError, text: &str) -> Out {
    match error {
        IntervalError::Syntax => Out::Fail(
            SqlState::INVALID_DATETIME_FORMAT,
            format!("invalid input syntax for type interval: \"{text}\""),
        ),
        IntervalError::OutOfRange => Out::Fail(
            SqlState::parse("22008").unwrap_or(SqlState::NUMERIC_VALUE_OUT_OF_RANGE),
            "interval out of range".to_owned(),
        ),
    }
}

/// An interval argument; `Ok(None)` for NULL.
fn interval(arg: &Arg) -> Result<Option<Interval>, Out> {
    let Some(text) = arg.text() else {
        return Ok(None);
    };
    Interval::parse(&text)
        .map(Some)
        .map_err(|e| failure(e, &text))
}

/// A timestamp argument, in microseconds since 2000-01-01.
fn timestamp(arg: &Arg, with_tz: bool) -> Result<Option<i64>, Out> {
    let Some(text) = arg.text() else {
        return Ok(None);
    };
    datetime::parse_timestamp(&text, with_tz)
        .map(Some)
        .ok_or_else(|| {
            Out::Fail(
                SqlState::INVALID_DATETIME_FORMAT,
                format!("invalid input syntax for type timestamp: \"{text}\""),
            )
        })
}

fn shown(result: Result<Interval, IntervalError>) -> Out {
    match result {
        Ok(interval) => Out::Text(interval.format()),
        Err(error) => failure(error, ""),
    }
}

fn interval_in(_: &Call, args: &[Arg]) -> Out {
    with(interval(&args[0]), |i| Out::Text(i.format()))
}

fn timestamp_out_of_range() -> Out {
    Out::Fail(
        SqlState::parse("22008").unwrap_or(SqlState::NUMERIC_VALUE_OUT_OF_RANGE),
        "timestamp out of range".to_owned(),
    )
}

/// `litewire_timestamp_plus(timestamp, interval, sign, kind)`.
fn timestamp_plus(call: &Call, args: &[Arg]) -> Out {
    let with_tz = args[3].text().as_deref() == Some("timestamptz");
    let read = timestamp(&args[0], with_tz).and_then(|t| Ok(t.zip(interval(&args[1])?)));
    with(read, |(at, by)| {
        let by = match args[2].int() {
            Some(-1) => match by.negate() {
                Ok(by) => by,
                Err(e) => return failure(e, ""),
            },
            _ => by,
        };
        // A timestamptz moves by months and days on the session's clock (a
        // day can be 23 or 25 hours), by the rest in elapsed time.
        let moved = match call.time_zone().filter(|_| with_tz) {
            Some(zone) => {
                let calendar = Interval { usecs: 0, ..by };
                calendar
                    .add_to(zone.local_of_utc(at))
                    .map(|local| zone.utc_of_local(local))
                    .and_then(|moved| moved.checked_add(by.usecs))
            }
            None => by.add_to(at),
        };
        match moved {
            Some(moved)
                if crate::sql::datetime_input::in_range(moved.div_euclid(USECS_PER_DAY), true) =>
            {
                Out::Text(datetime::format_timestamp(moved, with_tz))
            }
            _ => timestamp_out_of_range(),
        }
    })
}

/// `litewire_timestamp_minus(a, b, kind)`: `a - b`.
fn timestamp_minus(_: &Call, args: &[Arg]) -> Out {
    let with_tz = args[2].text().as_deref() == Some("timestamptz");
    let read = timestamp(&args[0], with_tz).and_then(|a| Ok(a.zip(timestamp(&args[1], with_tz)?)));
    with(read, |(a, b)| shown(Interval::between(a, b)))
}

/// A time of day argument, in microseconds since midnight.
fn time(arg: &Arg) -> Result<Option<i64>, Out> {
    let Some(text) = arg.text() else {
        return Ok(None);
    };
    datetime::parse_time(&text).map(Some).ok_or_else(|| {
        Out::Fail(
            SqlState::INVALID_DATETIME_FORMAT,
            format!("invalid input syntax for type time: \"{text}\""),
        )
    })
}

/// `time ± interval`: moved by the interval's time part (its months and
/// days are no time of day), around the clock, as PostgreSQL does.
fn time_plus(_: &Call, args: &[Arg]) -> Out {
    let read = time(&args[0]).and_then(|t| Ok(t.zip(interval(&args[1])?)));
    with(read, |(at, by)| {
        let by = match args[2].int() {
            Some(-1) => by.usecs.checked_neg(),
            _ => Some(by.usecs),
        };
        match by.and_then(|by| at.checked_add(by.rem_euclid(USECS_PER_DAY))) {
            Some(moved) => Out::Text(datetime::format_time(moved.rem_euclid(USECS_PER_DAY))),
            None => failure(IntervalError::OutOfRange, ""),
        }
    })
}

/// `time - time`: the interval between, in hours, minutes and seconds.
fn time_minus(_: &Call, args: &[Arg]) -> Out {
    let read = time(&args[0]).and_then(|a| Ok(a.zip(time(&args[1])?)));
    with(read, |(a, b)| {
        let between = Interval {
            usecs: a - b,
            ..Interval::default()
        };
        Out::Text(between.format())
    })
}

fn two(args: &[Arg]) -> Result<Option<(Interval, Interval)>, Out> {
    Ok(interval(&args[0])?.zip(interval(&args[1])?))
}

fn add(_: &Call, args: &[Arg]) -> Out {
    with(two(args), |(a, b)| {
        let b = match args[2].int() {
            Some(-1) => b.negate(),
            _ => Ok(b),
        };
        shown(b.and_then(|b| a.add(&b)))
    })
}

fn multiply(_: &Call, args: &[Arg]) -> Out {
    with(interval(&args[0]), |a| match args[1].float() {
        Some(factor) => shown(a.multiply(factor)),
        None => Out::Null,
    })
}

fn divide(_: &Call, args: &[Arg]) -> Out {
    with(interval(&args[0]), |a| match args[1].float() {
        Some(0.0) => Out::Fail(
            SqlState::parse("22012").unwrap_or(SqlState::NUMERIC_VALUE_OUT_OF_RANGE),
            "division by zero".to_owned(),
        ),
        Some(divisor) => shown(a.multiply(1.0 / divisor)),
        None => Out::Null,
    })
}

fn negate(_: &Call, args: &[Arg]) -> Out {
    with(interval(&args[0]), |a| shown(a.negate()))
}

fn compare(_: &Call, args: &[Arg]) -> Out {
    with(two(args), |(a, b)| Out::Int(a.compare(&b) as i64))
}

/// A `generate_series` step: any interval but a zero one (22023).
fn series_step(_: &Call, args: &[Arg]) -> Out {
    with(interval(&args[0]), |step| match step.span() {
        0 => Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            "step size cannot equal zero".to_owned(),
        ),
        _ => Out::Text(step.format()),
    })
}

/// What an interval sorts by: its span in microseconds (exact to 2^53, some
/// 285 years; beyond, to the nearest representable float).
fn sort_key(_: &Call, args: &[Arg]) -> Out {
    with(interval(&args[0]), |a| Out::Real(a.span() as f64))
}

/// `make_interval(years, months, weeks, days, hours, mins, secs)`, each
/// part in its field (the translation fills in the parts not given, 0).
fn make_interval(_: &Call, args: &[Arg]) -> Out {
    if args.contains(&Arg::Null) {
        return Out::Null;
    }
    let part = |i: usize| args[i].int().unwrap_or(0);
    let secs = args[6].float().unwrap_or(0.0);
    let micros = (secs * 1e6).round_ties_even();
    let parts = (|| {
        let months = part(0).checked_mul(12)?.checked_add(part(1))?;
        let days = part(2).checked_mul(7)?.checked_add(part(3))?;
        let usecs = (part(4).checked_mul(3_600_000_000)?)
            .checked_add(part(5).checked_mul(60_000_000)?)?
            .checked_add((micros.is_finite() && micros.abs() < 9.2e18).then_some(micros as i64)?)?;
        Some(Interval {
            months: i32::try_from(months).ok()?,
            days: i32::try_from(days).ok()?,
            usecs,
        })
    })();
    shown(parts.ok_or(IntervalError::OutOfRange))
}

fn justify_days(_: &Call, args: &[Arg]) -> Out {
    with(interval(&args[0]), |a| shown(a.justify_days()))
}

fn justify_hours(_: &Call, args: &[Arg]) -> Out {
    with(interval(&args[0]), |a| shown(a.justify_hours()))
}

fn justify_interval(_: &Call, args: &[Arg]) -> Out {
    with(interval(&args[0]), |a| shown(a.justify()))
}

/// `age(a, b)`: years, months and days between, on the calendar.
fn age(call: &Call, args: &[Arg]) -> Out {
    let read = timestamp(&args[0], true).and_then(|a| Ok(a.zip(timestamp(&args[1], true)?)));
    // Two timestamptz values (stored with their `+00`) are counted on the
    // session's clock; timestamps as they are.
    let zoned = |arg: &Arg| matches!(arg, Arg::Text(t) if t.get(10..).is_some_and(|t| t.contains(['+', '-'])));
    let zone = match zoned(&args[0]) && zoned(&args[1]) {
        true => call.time_zone().unwrap_or_else(Zone::utc),
        false => Zone::utc(),
    };
    with(read, |(a, b)| {
        shown(Interval::age(zone.local_of_utc(a), zone.local_of_utc(b)))
    })
}

/// `age(t)`: from `t` to today's midnight.
fn age_today(call: &Call, args: &[Arg]) -> Out {
    let zone = call.time_zone().unwrap_or_else(Zone::utc);
    let now = zone.local_of_utc(datetime::now());
    let today = now - now.rem_euclid(USECS_PER_DAY);
    with(timestamp(&args[0], true), |t| {
        shown(Interval::age(today, zone.local_of_utc(t)))
    })
}

/// `sum(interval)`: NULL over no rows.
#[derive(Default)]
struct Sum(Option<Interval>);

impl Accumulator for Sum {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        if let Some(value) = interval(&args[0])? {
            let total = self.0.unwrap_or_default();
            self.0 = Some(total.add(&value).map_err(|e| failure(e, ""))?);
        }
        Ok(())
    }

    fn finish(self) -> Out {
        self.0.map_or(Out::Null, |total| Out::Text(total.format()))
    }
}

/// `avg(interval)`: the sum divided by the count, as `interval / float8`.
#[derive(Default)]
struct Average {
    sum: Sum,
    count: u64,
}

impl Accumulator for Average {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        if *args.first().unwrap_or(&Arg::Null) != Arg::Null {
            self.count += 1;
        }
        self.sum.step(args)
    }

    fn finish(self) -> Out {
        match self.sum.0 {
            Some(total) if self.count > 0 => shown(total.multiply(1.0 / self.count as f64)),
            _ => Out::Null,
        }
    }
}

/// `max` (`MAX` true) or `min` of intervals, by span.
#[derive(Default)]
struct Extreme<const MAX: bool>(Option<Interval>);

impl<const MAX: bool> Accumulator for Extreme<MAX> {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        if let Some(value) = interval(&args[0])? {
            let replace = self.0.is_none_or(|best| {
                let order = value.compare(&best);
                if MAX { order.is_gt() } else { order.is_lt() }
            });
            if replace {
                self.0 = Some(value);
            }
        }
        Ok(())
    }

    fn finish(self) -> Out {
        self.0.map_or(Out::Null, |best| Out::Text(best.format()))
    }
}
