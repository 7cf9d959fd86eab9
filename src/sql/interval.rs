//! PostgreSQL's `interval`: months, days and microseconds, kept apart because
//! a month and a day have no fixed length (`'1 mon'` after January 31st is
//! February's end; `'1 day'` across a time change is 23 or 25 hours).
//!
//! litewire stores an interval as PostgreSQL's own output text
//! (`IntervalStyle` postgres: `1 year 2 mons 3 days 04:05:06.5`), which reads
//! back exactly; this module reads every input form PostgreSQL takes (unit
//! words and abbreviations, fractions that cascade into smaller units,
//! `h:m:s`, `@ ... ago`, ISO 8601 `P1Y2M3DT4H5M6S`), writes that text, and
//! does interval arithmetic as PostgreSQL does it, for the engine's functions
//! and the wire format (16 bytes: microseconds, days, months).

use std::cmp::Ordering;
use std::fmt::Write as _;

use super::datetime::{
    USECS_PER_DAY, USECS_PER_SEC, civil_from_days, days_from_civil, days_in_month,
};

/// Days from 1970-01-01 to 2000-01-01.
const PG_EPOCH_DAYS: i64 = 10_957;
const USECS_PER_HOUR: i64 = 3600 * USECS_PER_SEC;
const USECS_PER_MINUTE: i64 = 60 * USECS_PER_SEC;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Interval {
    pub months: i32,
    pub days: i32,
    pub usecs: i64,
}

/// Why an interval could not be made.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IntervalError {
    /// 22007: not an interval.
    Syntax,
    /// 22008: a field beyond its type's range.
    OutOfRange,
}

impl Interval {
    fn checked(months: f64, days: f64, usecs: f64) -> Result<Interval, IntervalError> {
        let fits32 = |v: f64| v.is_finite() && v >= f64::from(i32::MIN) && v <= f64::from(i32::MAX);
        if !fits32(months) || !fits32(days) || !usecs.is_finite() || usecs.abs() >= 9.2e18 {
            return Err(IntervalError::OutOfRange);
        }
        Ok(Interval {
            months: months as i32,
            days: days as i32,
            usecs: usecs as i64,
        })
    }

    /// PostgreSQL's output (`IntervalStyle` postgres).
    pub fn format(&self) -> String {
        let mut out = String::new();
        let (mut is_zero, mut is_before) = (true, false);
        let mut part = |value: i64, unit: &str, out: &mut String| {
            if value == 0 {
                return;
            }
            let _ = write!(
                out,
                "{}{}{value} {unit}{}",
                if is_zero { "" } else { " " },
                if is_before && value > 0 { "+" } else { "" },
                if value != 1 { "s" } else { "" }
            );
            is_before = value < 0;
            is_zero = false;
        };
        let months = i64::from(self.months);
        part(months / 12, "year", &mut out);
        part(months % 12, "mon", &mut out);
        part(i64::from(self.days), "day", &mut out);
        let time = self.usecs;
        if is_zero || time != 0 {
            let minus = time < 0;
            let time = time.unsigned_abs();
            let micros = time % USECS_PER_SEC as u64;
            let seconds = time / USECS_PER_SEC as u64;
            let _ = write!(
                out,
                "{}{}{:02}:{:02}:{:02}",
                if is_zero { "" } else { " " },
                if minus {
                    "-"
                } else if is_before {
                    "+"
                } else {
                    ""
                },
                seconds / 3600,
                seconds / 60 % 60,
                seconds % 60
            );
            if micros != 0 {
                out.push_str(format!(".{micros:06}").trim_end_matches('0'));
            }
        }
        out
    }

    /// The span PostgreSQL compares intervals by: a month as 30 days, a day
    /// as 24 hours.
    pub fn span(&self) -> i128 {
        i128::from(self.usecs)
            + (i128::from(self.days) + i128::from(self.months) * 30) * i128::from(USECS_PER_DAY)
    }

    pub fn compare(&self, other: &Interval) -> Ordering {
        self.span().cmp(&other.span())
    }

    pub fn negate(&self) -> Result<Interval, IntervalError> {
        Ok(Interval {
            months: self.months.checked_neg().ok_or(IntervalError::OutOfRange)?,
            days: self.days.checked_neg().ok_or(IntervalError::OutOfRange)?,
            usecs: self.usecs.checked_neg().ok_or(IntervalError::OutOfRange)?,
        })
    }

    pub fn add(&self, other: &Interval) -> Result<Interval, IntervalError> {
        Ok(Interval {
            months: self
                .months
                .checked_add(other.months)
                .ok_or(IntervalError::OutOfRange)?,
            days: self
                .days
                .checked_add(other.days)
                .ok_or(IntervalError::OutOfRange)?,
            usecs: self
                .usecs
                .checked_add(other.usecs)
                .ok_or(IntervalError::OutOfRange)?,
        })
    }

    /// `interval * factor`, fractions of months and days cascading down as
    /// PostgreSQL's `interval_mul` cascades them.
    pub fn multiply(&self, factor: f64) -> Result<Interval, IntervalError> {
        let round = |v: f64| (v * 1e6).round_ties_even() / 1e6;
        let months = f64::from(self.months) * factor;
        let days = f64::from(self.days) * factor;
        if !months.is_finite() || !days.is_finite() {
            return Err(IntervalError::OutOfRange);
        }
        let (whole_months, whole_days) = (months.trunc(), days.trunc());
        let month_days = round((months - whole_months) * 30.0);
        let mut seconds = round((days - whole_days + month_days - month_days.trunc()) * 86_400.0);
        let mut days = whole_days;
        if seconds.abs() >= 86_400.0 {
            days += (seconds / 86_400.0).trunc();
            seconds -= (seconds / 86_400.0).trunc() * 86_400.0;
        }
        days += month_days.trunc();
        let usecs = (self.usecs as f64 * factor + seconds * USECS_PER_SEC as f64).round_ties_even();
        Interval::checked(whole_months, days, usecs)
    }

    /// `justify_hours`: whole days out of the time, the signs made to agree.
    pub fn justify_hours(&self) -> Result<Interval, IntervalError> {
        let (days, usecs) = same_sign(
            i64::from(self.days) + self.usecs / USECS_PER_DAY,
            self.usecs % USECS_PER_DAY,
        );
        let days = i32::try_from(days).map_err(|_| IntervalError::OutOfRange)?;
        Ok(Interval {
            days,
            usecs,
            ..*self
        })
    }

    /// `justify_days`: whole months of 30 days out of the days.
    pub fn justify_days(&self) -> Result<Interval, IntervalError> {
        let mut months = i64::from(self.months) + i64::from(self.days / 30);
        let mut days = self.days % 30;
        if months > 0 && days < 0 {
            days += 30;
            months -= 1;
        } else if months < 0 && days > 0 {
            days -= 30;
            months += 1;
        }
        let months = i32::try_from(months).map_err(|_| IntervalError::OutOfRange)?;
        Ok(Interval {
            months,
            days,
            ..*self
        })
    }

    /// `justify_interval`: both, with one sign throughout.
    pub fn justify(&self) -> Result<Interval, IntervalError> {
        let mut months = i64::from(self.months);
        let mut days = i64::from(self.days) + self.usecs / USECS_PER_DAY;
        let usecs = self.usecs % USECS_PER_DAY;
        months += days / 30;
        days %= 30;
        if months > 0 && (days < 0 || (days == 0 && usecs < 0)) {
            days += 30;
            months -= 1;
        } else if months < 0 && (days > 0 || (days == 0 && usecs > 0)) {
            days -= 30;
            months += 1;
        }
        let (days, usecs) = same_sign(days, usecs);
        Ok(Interval {
            months: i32::try_from(months).map_err(|_| IntervalError::OutOfRange)?,
            days: i32::try_from(days).map_err(|_| IntervalError::OutOfRange)?,
            usecs,
        })
    }

    /// The interval added to a timestamp (microseconds since 2000-01-01):
    /// months first, kept within the month's days, then days, then time.
    pub fn add_to(&self, timestamp: i64) -> Option<i64> {
        let mut timestamp = timestamp;
        if self.months != 0 {
            let days = timestamp.div_euclid(USECS_PER_DAY);
            let time = timestamp.rem_euclid(USECS_PER_DAY);
            let (year, month, day) = civil_from_days(days + PG_EPOCH_DAYS);
            let total = year * 12 + i64::from(month) - 1 + i64::from(self.months);
            let (year, month) = (total.div_euclid(12), (total.rem_euclid(12) + 1) as u32);
            let day = day.min(days_in_month(year, month));
            timestamp = (days_from_civil(year, month, day) - PG_EPOCH_DAYS)
                .checked_mul(USECS_PER_DAY)?
                .checked_add(time)?;
        }
        timestamp
            .checked_add(i64::from(self.days).checked_mul(USECS_PER_DAY)?)?
            .checked_add(self.usecs)
    }

    /// `a - b` for timestamps: their difference in days and time.
    pub fn between(a: i64, b: i64) -> Result<Interval, IntervalError> {
        let usecs = a.checked_sub(b).ok_or(IntervalError::OutOfRange)?;
        Interval {
            usecs,
            ..Interval::default()
        }
        .justify_hours()
    }

    /// `age(a, b)`: years, months and days between two timestamps, counted on
    /// the calendar, with the time of day.
    pub fn age(a: i64, b: i64) -> Result<Interval, IntervalError> {
        let split = |t: i64| {
            let (y, m, d) = civil_from_days(t.div_euclid(USECS_PER_DAY) + PG_EPOCH_DAYS);
            (y, i64::from(m), i64::from(d), t.rem_euclid(USECS_PER_DAY))
        };
        let ((y1, m1, d1, t1), (y2, m2, d2, t2)) = (split(a), split(b));
        let negative = a < b;
        let sign = if negative { -1 } else { 1 };
        let (mut years, mut months, mut days, mut time) = (
            sign * (y1 - y2),
            sign * (m1 - m2),
            sign * (d1 - d2),
            sign * (t1 - t2),
        );
        while time < 0 {
            time += USECS_PER_DAY;
            days -= 1;
        }
        while days < 0 {
            // Borrow the length of the earlier timestamp's month.
            let (year, month) = if negative { (y1, m1) } else { (y2, m2) };
            days += i64::from(days_in_month(year, month as u32));
            months -= 1;
        }
        while months < 0 {
            months += 12;
            years -= 1;
        }
        Interval::checked(
            (sign * (years * 12 + months)) as f64,
            (sign * days) as f64,
            (sign * time) as f64,
        )
    }

    /// PostgreSQL's input forms, as `interval` reads them.
    pub fn parse(text: &str) -> Result<Interval, IntervalError> {
        Interval::parse_in(text, "second")
    }

    /// [`Interval::parse`] for a type whose last field is `last` (`hour` for
    /// `interval day to hour`): a number without a unit counts those.
    pub fn parse_in(text: &str, last: &'static str) -> Result<Interval, IntervalError> {
        let lower = text.trim().to_ascii_lowercase();
        if let Some(iso) = lower.strip_prefix('p') {
            return parse_iso(iso);
        }
        let body = lower.strip_prefix('@').unwrap_or(&lower).trim();
        let (body, ago) = match body.strip_suffix("ago") {
            Some(rest) => (rest.trim_end(), true),
            None => (body, false),
        };
        let tokens = tokenize(body)?;
        if tokens.is_empty() {
            return Err(IntervalError::Syntax);
        }
        // Each field with its unit: a number's own, or `None` for a bare one.
        let mut fields = Vec::with_capacity(tokens.len());
        let mut i = 0;
        while i < tokens.len() {
            match &tokens[i] {
                Token::Time(text) => fields.push(Field::Time(text)),
                Token::Number(value) => match tokens.get(i + 1) {
                    Some(Token::Word(unit)) => {
                        fields.push(Field::Number(*value, Some(unit)));
                        i += 1;
                    }
                    _ => fields.push(Field::Number(*value, None)),
                },
                Token::Word(_) => return Err(IntervalError::Syntax),
            }
            i += 1;
        }
        // As PostgreSQL's `DecodeInterval`: right to left, a bare number
        // takes the unit of the field to its right (at the right end, the
        // type's last field); left of hours or of a time it is days. Each
        // field is given once.
        let mut acc = Accumulator::default();
        let (mut pending, mut given) = (last, 0u32);
        for field in fields.iter().rev() {
            let mask = match *field {
                Field::Time(text) => {
                    acc.time(text)?;
                    pending = "day";
                    unit_mask("hour") | unit_mask("minute") | unit_mask("second")
                }
                Field::Number(value, unit) => {
                    let unit = unit.map_or(pending, |u| canonical_unit(u).unwrap_or("?"));
                    acc.unit(value, unit)?;
                    pending = if unit == "hour" { "day" } else { unit };
                    unit_mask(unit)
                }
            };
            if given & mask != 0 {
                return Err(IntervalError::Syntax);
            }
            given |= mask;
        }
        let interval = acc.finish()?;
        match ago {
            true => interval.negate(),
            false => Ok(interval),
        }
    }
}

/// Days and a time of day given one sign (a day borrowed or lent).
fn same_sign(days: i64, usecs: i64) -> (i64, i64) {
    match (days, usecs) {
        (d, u) if d > 0 && u < 0 => (d - 1, u + USECS_PER_DAY),
        (d, u) if d < 0 && u > 0 => (d + 1, u - USECS_PER_DAY),
        other => other,
    }
}

/// A field of interval input: a number and its unit (if written), or a time.
enum Field<'t> {
    Number(f64, Option<&'t str>),
    Time(&'t str),
}

/// A unit's name as PostgreSQL spells it in input (lower case), as the one
/// name it has here.
pub fn canonical_unit(unit: &str) -> Option<&'static str> {
    Some(match unit {
        "microsecond" | "microseconds" | "us" | "usec" | "usecs" | "useconds" => "microsecond",
        "millisecond" | "milliseconds" | "ms" | "msec" | "msecs" | "mseconds" => "millisecond",
        "second" | "seconds" | "s" | "sec" | "secs" => "second",
        "minute" | "minutes" | "m" | "min" | "mins" => "minute",
        "hour" | "hours" | "h" | "hr" | "hrs" => "hour",
        "day" | "days" | "d" => "day",
        "week" | "weeks" | "w" => "week",
        "month" | "months" | "mon" | "mons" => "month",
        "year" | "years" | "y" | "yr" | "yrs" => "year",
        "decade" | "decades" | "dec" | "decs" => "decade",
        "century" | "centuries" | "c" | "cent" => "century",
        "millennium" | "millennia" | "mil" | "mils" | "millenniums" => "millennium",
        _ => return None,
    })
}

/// The bit a unit's field takes (a field given twice is refused).
fn unit_mask(unit: &str) -> u32 {
    const UNITS: [&str; 12] = [
        "microsecond",
        "millisecond",
        "second",
        "minute",
        "hour",
        "day",
        "week",
        "month",
        "year",
        "decade",
        "century",
        "millennium",
    ];
    UNITS.iter().position(|u| *u == unit).map_or(0, |i| 1 << i)
}

#[derive(Debug, PartialEq)]
enum Token {
    Number(f64),
    /// `[-]h:m[:s]`.
    Time(String),
    Word(String),
}

fn tokenize(text: &str) -> Result<Vec<Token>, IntervalError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() || c == ',' {
            i += 1;
        } else if c.is_ascii_digit() || c == '.' || c == '+' || c == '-' {
            let start = i;
            i += 1;
            while i < chars.len() && (chars[i].is_ascii_digit() || matches!(chars[i], '.' | ':')) {
                i += 1;
            }
            let token: String = chars[start..i].iter().collect();
            if token.contains(':') {
                out.push(Token::Time(token));
            } else {
                let value = token.parse::<f64>().map_err(|_| IntervalError::Syntax)?;
                out.push(Token::Number(value));
            }
        } else if c.is_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_alphabetic() {
                i += 1;
            }
            out.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            return Err(IntervalError::Syntax);
        }
    }
    Ok(out)
}

/// The fields read so far, fractions kept until the end.
#[derive(Default)]
struct Accumulator {
    months: f64,
    days: f64,
    usecs: f64,
    seen_time: bool,
}

impl Accumulator {
    /// `value unit`: whole units, and a fraction cascading into smaller ones
    /// (a month's fraction as days of 30, a day's as hours).
    fn unit(&mut self, value: f64, unit: &str) -> Result<(), IntervalError> {
        let (whole, fraction) = (value.trunc(), value.fract());
        let day = USECS_PER_DAY as f64;
        match canonical_unit(unit).ok_or(IntervalError::Syntax)? {
            "microsecond" => self.usecs += value,
            "millisecond" => self.usecs += value * 1000.0,
            "second" => self.usecs += value * 1e6,
            "minute" => self.usecs += value * USECS_PER_MINUTE as f64,
            "hour" => self.usecs += value * USECS_PER_HOUR as f64,
            "day" => {
                self.days += whole;
                self.usecs += fraction * day;
            }
            "week" => {
                let days = value * 7.0;
                self.days += days.trunc();
                self.usecs += days.fract() * day;
            }
            "month" => {
                self.months += whole;
                let days = fraction * 30.0;
                self.days += days.trunc();
                self.usecs += days.fract() * day;
            }
            "year" => self.years(value, 1.0),
            "decade" => self.years(value, 10.0),
            "century" => self.years(value, 100.0),
            _ => self.years(value, 1000.0),
        }
        Ok(())
    }

    fn years(&mut self, value: f64, scale: f64) {
        let years = value * scale;
        self.months += years.trunc() * 12.0 + (years.fract() * 12.0).round_ties_even();
    }

    /// `[-]h:m[:s[.f]]` (or `m:s.f`, when the second field has a fraction).
    fn time(&mut self, text: &str) -> Result<(), IntervalError> {
        if self.seen_time {
            return Err(IntervalError::Syntax);
        }
        self.seen_time = true;
        let (negative, digits) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text.strip_prefix('+').unwrap_or(text)),
        };
        let fields: Vec<&str> = digits.split(':').collect();
        let number = |s: &str| s.parse::<f64>().map_err(|_| IntervalError::Syntax);
        let usecs = match fields.as_slice() {
            [h, m] if m.contains('.') => number(h)? * USECS_PER_MINUTE as f64 + number(m)? * 1e6,
            [h, m] => number(h)? * USECS_PER_HOUR as f64 + number(m)? * USECS_PER_MINUTE as f64,
            [h, m, s] => {
                number(h)? * USECS_PER_HOUR as f64
                    + number(m)? * USECS_PER_MINUTE as f64
                    + number(s)? * 1e6
            }
            _ => return Err(IntervalError::Syntax),
        };
        self.usecs += if negative { -usecs } else { usecs };
        Ok(())
    }

    fn finish(self) -> Result<Interval, IntervalError> {
        Interval::checked(self.months, self.days, self.usecs.round_ties_even())
    }
}

/// ISO 8601's `PnYnMnWnDTnHnMnS` (after the `P`).
fn parse_iso(text: &str) -> Result<Interval, IntervalError> {
    let mut acc = Accumulator::default();
    let mut in_time = false;
    let mut number = String::new();
    for c in text.chars() {
        match c {
            't' => in_time = true,
            '0'..='9' | '.' | '-' | '+' => number.push(c),
            unit => {
                let value: f64 = number.parse().map_err(|_| IntervalError::Syntax)?;
                number.clear();
                let unit = match (unit, in_time) {
                    ('y', false) => "year",
                    ('m', false) => "month",
                    ('w', false) => "week",
                    ('d', false) => "day",
                    ('h', true) => "hour",
                    ('m', true) => "minute",
                    ('s', true) => "second",
                    _ => return Err(IntervalError::Syntax),
                };
                acc.unit(value, unit)?;
            }
        }
    }
    if !number.is_empty() {
        return Err(IntervalError::Syntax);
    }
    acc.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(text: &str) -> String {
        Interval::parse(text)
            .map(|i| i.format())
            .unwrap_or_else(|e| format!("{e:?}"))
    }

    #[test]
    fn input_reads_and_output_writes_as_postgres() {
        assert_eq!(shown("1 day 02:30:00"), "1 day 02:30:00");
        assert_eq!(shown("1 year 2 months 3 days"), "1 year 2 mons 3 days");
        assert_eq!(shown("-1 days +02:00"), "-1 days +02:00:00");
        assert_eq!(shown("1.5 months"), "1 mon 15 days");
        assert_eq!(shown("1.5 days"), "1 day 12:00:00");
        assert_eq!(shown("@ 1 hour ago"), "-01:00:00");
        assert_eq!(shown("P1Y2M3DT4H5M6S"), "1 year 2 mons 3 days 04:05:06");
        assert_eq!(shown("0"), "00:00:00");
        assert_eq!(shown("10"), "00:00:10");
        assert_eq!(shown("1 week"), "7 days");
        assert_eq!(shown("-1 year -2 mons +3 days"), "-1 years -2 mons +3 days");
        assert_eq!(shown("1.5 seconds"), "00:00:01.5");
        assert_eq!(shown("banana"), "Syntax");
        // Bare numbers right to left: seconds, and days left of a time or hours.
        assert_eq!(shown("1 2:03"), "1 day 02:03:00");
        assert_eq!(shown("1 2 hours"), "1 day 02:00:00");
        assert_eq!(shown("1 2"), "Syntax");
        assert_eq!(shown("2 1 day"), "Syntax");
        assert_eq!(shown("1 day 2 days"), "Syntax");
        assert_eq!(shown("1 day 2"), "1 day 00:00:02");
        assert_eq!(shown("1 week 2 days"), "9 days");
    }

    #[test]
    fn arithmetic_follows_the_calendar() {
        let month = Interval::parse("1 mon").unwrap();
        let jan31 = (days_from_civil(2024, 1, 31) - PG_EPOCH_DAYS) * USECS_PER_DAY;
        let feb29 = (days_from_civil(2024, 2, 29) - PG_EPOCH_DAYS) * USECS_PER_DAY;
        assert_eq!(month.add_to(jan31), Some(feb29));
        assert_eq!(Interval::between(feb29, jan31).unwrap().format(), "29 days");
        assert_eq!(
            Interval::age(feb29 + 3_600_000_000, jan31)
                .unwrap()
                .format(),
            "29 days 01:00:00"
        );
        let day = Interval::parse("1 day").unwrap();
        assert_eq!(
            day.compare(&Interval::parse("24 hours").unwrap()),
            Ordering::Equal
        );
        assert_eq!(day.multiply(1.5).unwrap().format(), "1 day 12:00:00");
        assert_eq!(month.multiply(0.5).unwrap().format(), "15 days");
    }
}
