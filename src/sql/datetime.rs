//! Dates and times between SQLite text and PostgreSQL's representations: the
//! PostgreSQL port reads date and time literals with it, and its wire formats
//! (`pg::types`, `pg::params`) convert with it.
//!
//! SQLite has no date types, so litewire stores dates and times as ISO text that
//! SQLite's own date functions understand (`2024-01-01`, `10:00:00.5`,
//! `2024-01-01 10:00:00`, `2024-01-01 10:00:00+00`). This module reads such text,
//! tolerating what other writers produce (a `T` separator, `Z` or numeric offsets,
//! missing seconds), and converts to PostgreSQL's binary units: days since
//! 2000-01-01 for dates, microseconds since midnight for times, and microseconds
//! since 2000-01-01 00:00:00 for timestamps. The calendar is the proleptic
//! Gregorian one PostgreSQL uses, with year 0 being 1 BC.

use std::fmt::Write as _;

pub const USECS_PER_SEC: i64 = 1_000_000;
pub const USECS_PER_DAY: i64 = 86_400 * USECS_PER_SEC;
/// Days from the Unix epoch (1970-01-01) to PostgreSQL's (2000-01-01).
pub const PG_EPOCH_DAYS: i64 = 10_957;

/// Days since 1970-01-01 of a Gregorian date (the usual era/day-of-era method:
/// counting from March makes the leap day the last day of a year).
pub fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let (month, day) = (i64::from(month), i64::from(day));
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let year_of_era = y.rem_euclid(400);
    let march_month = (month + 9) % 12;
    let day_of_year = (153 * march_month + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

/// The Gregorian (year, month, day) of a day counted from 1970-01-01.
pub fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let march_month = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * march_month + 2) / 5 + 1;
    let month = (march_month + 2) % 12 + 1;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    // Both are in range by construction (1..=31, 1..=12).
    (year, day_and_month(month), day_and_month(day))
}

fn day_and_month(n: i64) -> u32 {
    u32::try_from(n).unwrap_or(1)
}

/// The days of a month of the proleptic Gregorian calendar.
pub fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// A timestamp's calendar fields, the year astronomical (1 BC is 0).
pub struct Calendar {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    /// Days since 2000-01-01.
    pub days: i64,
    /// Microseconds since midnight.
    pub time: i64,
}

/// The calendar fields of microseconds since 2000-01-01.
pub fn calendar(usecs: i64) -> Calendar {
    let days = usecs.div_euclid(USECS_PER_DAY);
    let (year, month, day) = civil_from_days(days + PG_EPOCH_DAYS);
    Calendar {
        year,
        month,
        day,
        days,
        time: usecs.rem_euclid(USECS_PER_DAY),
    }
}

/// The ISO 8601 week-numbering (year, week) of a day of `calendar`.
pub fn iso_week(calendar: &Calendar) -> (i64, i64) {
    // Monday of ISO week 1 of `year`: the week holding January 4th.
    let week_one = |year: i64| {
        let jan4 = days_from_civil(year, 1, 4);
        jan4 - (jan4 + 3).rem_euclid(7)
    };
    let today = calendar.days + PG_EPOCH_DAYS;
    let mut year = calendar.year;
    if today < week_one(year) {
        year -= 1;
    } else if today >= week_one(year + 1) {
        year += 1;
    }
    (year, (today - week_one(year)) / 7 + 1)
}

/// PostgreSQL's `infinity` and `-infinity` dates: the extremes of its binary
/// form (days since 2000-01-01 as an int4).
pub const DATE_INFINITY: i64 = i32::MAX as i64;
pub const DATE_MINUS_INFINITY: i64 = i32::MIN as i64;
/// The same for timestamps (microseconds as an int8).
pub const TIMESTAMP_INFINITY: i64 = i64::MAX;
pub const TIMESTAMP_MINUS_INFINITY: i64 = i64::MIN;

/// `Some(true)` for `infinity` (or `+infinity`), `Some(false)` for `-infinity`.
fn infinity(text: &str) -> Option<bool> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("infinity") || text.eq_ignore_ascii_case("+infinity") {
        Some(true)
    } else if text.eq_ignore_ascii_case("-infinity") {
        Some(false)
    } else {
        None
    }
}

/// Microseconds rounded to `digits` fractional digits of a second (at most
/// six), half away from zero, as PostgreSQL rounds `timestamp(p)`, `time(p)`
/// and `interval(p)` values.
pub fn round_to_digits(usecs: i64, digits: u32) -> i64 {
    let scale = 10_i64.pow(6 - digits.min(6));
    let half = scale / 2;
    match usecs >= 0 {
        true => (usecs + half) / scale * scale,
        false => -((-usecs + half) / scale * scale),
    }
}

/// A date from text (`YYYY-MM-DD`, or a timestamp whose date part is taken,
/// or `[-]infinity`), as days since 2000-01-01.
pub fn parse_date(text: &str) -> Option<i64> {
    match infinity(text) {
        Some(true) => Some(DATE_INFINITY),
        Some(false) => Some(DATE_MINUS_INFINITY),
        None => parse_parts(text)?.date,
    }
}

/// A time of day from text (`HH:MM[:SS[.f]]`, any date or offset ignored, as
/// PostgreSQL's `time` does), as microseconds since midnight.
pub fn parse_time(text: &str) -> Option<i64> {
    parse_parts(text)?.time
}

/// A timestamp from text, as microseconds since 2000-01-01 00:00:00. With
/// `with_tz` an offset is applied to give UTC (none means UTC); without, the
/// offset is ignored, as PostgreSQL's `timestamp` ignores it.
pub fn parse_timestamp(text: &str, with_tz: bool) -> Option<i64> {
    match infinity(text) {
        Some(true) => return Some(TIMESTAMP_INFINITY),
        Some(false) => return Some(TIMESTAMP_MINUS_INFINITY),
        None => {}
    }
    let parts = parse_parts(text)?;
    let local = parts
        .date?
        .checked_mul(USECS_PER_DAY)?
        .checked_add(parts.time.unwrap_or(0))?;
    let offset = if with_tz {
        parts.offset.unwrap_or(0)
    } else {
        0
    };
    local.checked_sub(offset.checked_mul(USECS_PER_SEC)?)
}

/// The system clock now, as a stored timestamptz's microseconds (since
/// 2000-01-01 UTC).
pub fn now() -> i64 {
    let since_unix = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_micros()).unwrap_or(0));
    since_unix - PG_EPOCH_DAYS * USECS_PER_DAY
}

/// A timestamp from Unix seconds (how some writers store times as numbers).
pub fn timestamp_from_unix(seconds: f64) -> Option<i64> {
    let usecs = (seconds * USECS_PER_SEC as f64).round();
    // The bounds keep the conversion exact and the subtraction from overflowing.
    if !usecs.is_finite() || usecs.abs() >= 9.0e18 {
        return None;
    }
    (usecs as i64).checked_sub(PG_EPOCH_DAYS * USECS_PER_DAY)
}

/// `YYYY-MM-DD` (with ` BC` before year 1) for days since 2000-01-01.
pub fn format_date(days: i64) -> String {
    match days {
        DATE_INFINITY => return "infinity".to_owned(),
        DATE_MINUS_INFINITY => return "-infinity".to_owned(),
        _ => {}
    }
    let mut out = String::with_capacity(13);
    let bc = write_date(&mut out, days);
    if bc {
        out.push_str(" BC");
    }
    out
}

/// `HH:MM:SS`, with a fraction only when nonzero and without trailing zeros.
pub fn format_time(usecs: i64) -> String {
    let mut out = String::with_capacity(15);
    write_time(&mut out, usecs);
    out
}

/// `YYYY-MM-DD HH:MM:SS[.f]`, and `+00` when `with_tz` (the time is UTC), for
/// microseconds since 2000-01-01 00:00:00.
pub fn format_timestamp(usecs: i64, with_tz: bool) -> String {
    match usecs {
        TIMESTAMP_INFINITY => return "infinity".to_owned(),
        TIMESTAMP_MINUS_INFINITY => return "-infinity".to_owned(),
        _ => {}
    }
    let mut out = String::with_capacity(32);
    let bc = write_date(&mut out, usecs.div_euclid(USECS_PER_DAY));
    out.push(' ');
    write_time(&mut out, usecs.rem_euclid(USECS_PER_DAY));
    if with_tz {
        out.push_str("+00");
    }
    if bc {
        out.push_str(" BC");
    }
    out
}

/// Writes the date; returns whether it is BC (the suffix goes at the very end).
fn write_date(out: &mut String, days: i64) -> bool {
    let (year, month, day) = civil_from_days(days + PG_EPOCH_DAYS);
    let bc = year <= 0;
    let shown = if bc { 1 - year } else { year };
    let _ = write!(out, "{shown:04}-{month:02}-{day:02}");
    bc
}

fn write_time(out: &mut String, usecs: i64) {
    let seconds = usecs / USECS_PER_SEC;
    let fraction = usecs % USECS_PER_SEC;
    let _ = write!(
        out,
        "{:02}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    if fraction != 0 {
        let digits = format!("{fraction:06}");
        out.push('.');
        out.push_str(digits.trim_end_matches('0'));
    }
}

/// What a date/time text held.
#[derive(Debug, Default, PartialEq)]
struct Parts {
    /// Days since 2000-01-01.
    date: Option<i64>,
    /// Microseconds since midnight.
    time: Option<i64>,
    /// Seconds east of UTC.
    offset: Option<i64>,
}

/// Reads `[date][( |T)time[offset]]`, with an optional trailing ` BC`.
fn parse_parts(text: &str) -> Option<Parts> {
    let text = text.trim();
    let (text, bc) = match text.len().checked_sub(3).and_then(|at| text.get(at..)) {
        Some(suffix) if suffix.eq_ignore_ascii_case(" bc") => (&text[..text.len() - 3], true),
        _ => (text, false),
    };
    let mut cursor = Cursor(text.as_bytes());
    let mut parts = Parts::default();
    if cursor.after_digits() == Some(b'-') {
        parts.date = Some(read_date(&mut cursor, bc)?);
        if cursor.is_empty() {
            return Some(parts);
        }
        if !(cursor.eat(b' ') || cursor.eat(b'T') || cursor.eat(b't')) {
            return None;
        }
        // A zone after a bare date (`2024-02-29 +00`, as pgjdbc sends a date)
        // is midnight there, as in PostgreSQL.
        if !cursor.starts_with_digit() {
            parts.offset = read_offset(&mut cursor)?;
            return cursor.is_empty().then_some(parts);
        }
    } else if bc {
        return None;
    }
    parts.time = Some(read_time(&mut cursor)?);
    parts.offset = read_offset(&mut cursor)?;
    cursor.is_empty().then_some(parts)
}

fn read_date(cursor: &mut Cursor, bc: bool) -> Option<i64> {
    // Years run to 5874897 (the end of `date`'s range).
    let year = cursor.number(4, 7)?;
    cursor.expect(b'-')?;
    let month = u32::try_from(cursor.number(1, 2)?).ok()?;
    cursor.expect(b'-')?;
    let day = u32::try_from(cursor.number(1, 2)?).ok()?;
    if year == 0 {
        return None;
    }
    let year = if bc { 1 - year } else { year };
    let valid = (1..=12).contains(&month) && (1..=days_in_month(year, month)).contains(&day);
    valid.then(|| days_from_civil(year, month, day) - PG_EPOCH_DAYS)
}

fn read_time(cursor: &mut Cursor) -> Option<i64> {
    let hour = cursor.number(1, 2)?;
    cursor.expect(b':')?;
    let minute = cursor.number(2, 2)?;
    let (second, fraction) = if cursor.eat(b':') {
        let second = cursor.number(2, 2)?;
        let fraction = if cursor.eat(b'.') {
            read_fraction(cursor)?
        } else {
            0
        };
        (second, fraction)
    } else {
        (0, 0)
    };
    if minute > 59 || second > 59 {
        return None;
    }
    let usecs = ((hour * 60 + minute) * 60 + second) * USECS_PER_SEC + fraction;
    // 24:00:00 is a valid time (the end of a day), as in PostgreSQL.
    (usecs <= USECS_PER_DAY).then_some(usecs)
}

/// Fractional seconds as microseconds, rounded to the nearest one.
fn read_fraction(cursor: &mut Cursor) -> Option<i64> {
    let digits = cursor.digit_run();
    if digits.is_empty() {
        return None;
    }
    let mut usecs = 0;
    for i in 0..6 {
        usecs = usecs * 10 + digits.get(i).map_or(0, |d| i64::from(d - b'0'));
    }
    let round_up = digits.get(6).is_some_and(|d| *d >= b'5');
    Some(usecs + i64::from(round_up))
}

/// An optional UTC offset: `Z`, `UTC`, `GMT`, or `±HH[[:]MM[[:]SS]]`, possibly
/// after spaces. The outer None is a malformed offset.
fn read_offset(cursor: &mut Cursor) -> Option<Option<i64>> {
    while cursor.eat(b' ') {}
    if cursor.is_empty() {
        return Some(None);
    }
    if cursor.eat(b'Z') || cursor.eat(b'z') || cursor.eat_word("UTC") || cursor.eat_word("GMT") {
        return Some(Some(0));
    }
    let sign = if cursor.eat(b'+') {
        1
    } else if cursor.eat(b'-') {
        -1
    } else {
        return None;
    };
    let hours = cursor.number(1, 2)?;
    let mut seconds = hours * 3600;
    for scale in [60, 1] {
        let colon = cursor.eat(b':');
        if !colon && !cursor.starts_with_digit() {
            break;
        }
        let field = cursor.number(2, 2)?;
        if field > 59 {
            return None;
        }
        seconds += field * scale;
    }
    (hours <= 15).then_some(Some(sign * seconds))
}

/// A position in ASCII date/time text.
struct Cursor<'a>(&'a [u8]);

impl Cursor<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn eat(&mut self, byte: u8) -> bool {
        match self.0.split_first() {
            Some((first, rest)) if *first == byte => {
                self.0 = rest;
                true
            }
            _ => false,
        }
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        self.eat(byte).then_some(())
    }

    fn eat_word(&mut self, word: &str) -> bool {
        match self.0.get(..word.len()) {
            Some(head) if head.eq_ignore_ascii_case(word.as_bytes()) => {
                self.0 = &self.0[word.len()..];
                true
            }
            _ => false,
        }
    }

    fn starts_with_digit(&self) -> bool {
        self.0.first().is_some_and(u8::is_ascii_digit)
    }

    /// The byte after the leading run of digits (to tell a date from a time).
    fn after_digits(&self) -> Option<u8> {
        self.0.iter().copied().find(|b| !b.is_ascii_digit())
    }

    fn digit_run(&mut self) -> &[u8] {
        let len = self.0.iter().take_while(|b| b.is_ascii_digit()).count();
        let (digits, rest) = self.0.split_at(len);
        self.0 = rest;
        digits
    }

    /// A run of `min..=max` digits as a number.
    fn number(&mut self, min: usize, max: usize) -> Option<i64> {
        let len = self
            .0
            .iter()
            .take(max)
            .take_while(|b| b.is_ascii_digit())
            .count();
        if len < min {
            return None;
        }
        let (digits, rest) = self.0.split_at(len);
        self.0 = rest;
        Some(digits.iter().fold(0, |n, d| n * 10 + i64::from(d - b'0')))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i64, m: u32, d: u32) -> i64 {
        days_from_civil(y, m, d) - PG_EPOCH_DAYS
    }

    #[test]
    fn infinities_as_postgresql_has_them() {
        assert_eq!(parse_date("infinity"), Some(i64::from(i32::MAX)));
        assert_eq!(parse_date(" -Infinity"), Some(i64::from(i32::MIN)));
        assert_eq!(format_date(DATE_INFINITY), "infinity");
        assert_eq!(format_date(DATE_MINUS_INFINITY), "-infinity");
        assert_eq!(parse_timestamp("+infinity", true), Some(i64::MAX));
        assert_eq!(parse_timestamp("-infinity", false), Some(i64::MIN));
        assert_eq!(format_timestamp(i64::MAX, true), "infinity");
        assert_eq!(format_timestamp(i64::MIN, false), "-infinity");
        assert_eq!(parse_date("infinityx"), None);
    }

    #[test]
    fn civil_days_round_trip_across_eras() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(2000, 1, 1), PG_EPOCH_DAYS);
        assert_eq!(days_from_civil(1969, 12, 31), -1);
        assert_eq!(
            days_from_civil(2000, 3, 1) - days_from_civil(2000, 2, 28),
            2
        );
        assert_eq!(
            days_from_civil(1900, 3, 1) - days_from_civil(1900, 2, 28),
            1
        );
        for days in (-800_000..800_000).step_by(997) {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
        }
    }

    #[test]
    fn dates_parse_and_print_as_postgres() {
        assert_eq!(parse_date("2000-01-01"), Some(0));
        assert_eq!(parse_date("1999-12-31"), Some(-1));
        assert_eq!(parse_date("1969-07-20"), Some(date(1969, 7, 20)));
        assert_eq!(parse_date("2024-02-29"), Some(date(2024, 2, 29)));
        assert_eq!(parse_date(" 2024-3-5 "), Some(date(2024, 3, 5)));
        // A zone after the date, as pgjdbc's setDate sends it.
        assert_eq!(parse_date("2024-02-29 +00"), Some(date(2024, 2, 29)));
        assert_eq!(
            parse_timestamp("2024-02-29 +02", true),
            Some(date(2024, 2, 29) * USECS_PER_DAY - 2 * 3600 * USECS_PER_SEC)
        );
        assert_eq!(parse_date("2024-02-29 x"), None);
        assert_eq!(parse_date("2024-01-01 23:59:59+05"), Some(date(2024, 1, 1)));
        assert_eq!(parse_date("0044-03-15 BC"), Some(date(-43, 3, 15)));
        for bad in [
            "2023-02-29",
            "1900-02-29",
            "2024-13-01",
            "2024-00-10",
            "0000-01-01",
        ] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
        for bad in ["2024-01-32", "24-01-01", "2024/01/01", "", "10:00:00", "x"] {
            assert_eq!(parse_date(bad), None, "{bad}");
        }
        assert_eq!(format_date(0), "2000-01-01");
        assert_eq!(format_date(date(1969, 7, 20)), "1969-07-20");
        assert_eq!(format_date(date(2024, 2, 29)), "2024-02-29");
        assert_eq!(format_date(date(1, 1, 1)), "0001-01-01");
        assert_eq!(format_date(date(0, 1, 1)), "0001-01-01 BC");
        assert_eq!(format_date(date(-43, 3, 15)), "0044-03-15 BC");
    }

    #[test]
    fn times_parse_and_print_as_postgres() {
        assert_eq!(parse_time("00:00:00"), Some(0));
        assert_eq!(parse_time("10:30"), Some(37_800 * USECS_PER_SEC));
        assert_eq!(parse_time("1:02:03.5"), Some(3_723_500_000));
        assert_eq!(parse_time("23:59:59.999999"), Some(USECS_PER_DAY - 1));
        assert_eq!(parse_time("23:59:59.9999996"), Some(USECS_PER_DAY));
        assert_eq!(parse_time("00:00:00.0000004"), Some(0));
        assert_eq!(parse_time("24:00:00"), Some(USECS_PER_DAY));
        assert_eq!(
            parse_time("2024-01-01T08:00:00Z"),
            Some(8 * 3600 * USECS_PER_SEC)
        );
        for bad in [
            "24:00:01",
            "12:60:00",
            "12:00:60",
            "12",
            "12:0",
            "12:00:00.",
            "2024-01-01",
        ] {
            assert_eq!(parse_time(bad), None, "{bad}");
        }
        assert_eq!(format_time(0), "00:00:00");
        assert_eq!(format_time(3_723_500_000), "01:02:03.5");
        assert_eq!(format_time(USECS_PER_DAY - 1), "23:59:59.999999");
        assert_eq!(format_time(USECS_PER_DAY), "24:00:00");
        assert_eq!(format_time(120_000_010), "00:02:00.00001");
    }

    #[test]
    fn timestamps_accept_common_writers_forms() {
        let noon = date(2024, 1, 1) * USECS_PER_DAY + 12 * 3600 * USECS_PER_SEC;
        for text in [
            "2024-01-01 12:00:00",
            "2024-01-01T12:00:00",
            "2024-01-01 12:00",
            "2024-01-01 12:00:00Z",
            "2024-01-01 12:00:00.000000+00",
            "2024-01-01 12:00:00 UTC",
        ] {
            assert_eq!(parse_timestamp(text, true), Some(noon), "{text}");
            assert_eq!(parse_timestamp(text, false), Some(noon), "{text}");
        }
        let hour = 3600 * USECS_PER_SEC;
        for text in [
            "2024-01-01 14:00:00+02",
            "2024-01-01T14:00:00+02:00",
            "2024-01-01 09:00:00-0300",
            "2024-01-01 17:30:00+05:30",
        ] {
            assert_eq!(parse_timestamp(text, true), Some(noon), "{text}");
        }
        // Without time zone the offset is ignored.
        assert_eq!(
            parse_timestamp("2024-01-01 14:00:00+02", false),
            Some(noon + 2 * hour)
        );
        assert_eq!(parse_timestamp("2024-01-01", false), Some(noon - 12 * hour));
        for bad in [
            "2024-01-01 25:00",
            "2024-01-01X12:00",
            "12:00:00",
            "2024-01-01 12:00+2x",
        ] {
            assert_eq!(parse_timestamp(bad, true), None, "{bad}");
        }
    }

    #[test]
    fn timestamps_print_as_postgres() {
        let t = parse_timestamp("2024-02-29 23:59:59.25", false).unwrap();
        assert_eq!(format_timestamp(t, false), "2024-02-29 23:59:59.25");
        assert_eq!(format_timestamp(t, true), "2024-02-29 23:59:59.25+00");
        assert_eq!(format_timestamp(0, true), "2000-01-01 00:00:00+00");
        assert_eq!(format_timestamp(-1, false), "1999-12-31 23:59:59.999999");
        let moon = parse_timestamp("1969-07-20 20:17:40", false).unwrap();
        assert_eq!(format_timestamp(moon, false), "1969-07-20 20:17:40");
        let bc = parse_timestamp("0001-12-31 23:00:00+00 BC", true).unwrap();
        assert_eq!(format_timestamp(bc, true), "0001-12-31 23:00:00+00 BC");
    }

    #[test]
    fn unix_seconds_become_timestamps() {
        assert_eq!(timestamp_from_unix(946_684_800.0), Some(0));
        assert_eq!(timestamp_from_unix(946_684_800.5), Some(500_000));
        assert_eq!(
            timestamp_from_unix(0.0),
            Some(-PG_EPOCH_DAYS * USECS_PER_DAY)
        );
        assert_eq!(timestamp_from_unix(f64::NAN), None);
        assert_eq!(timestamp_from_unix(1e300), None);
    }
}
