//! An interval type's modifier: the fields it keeps and the fractional digits
//! of its seconds (`interval day to second(2)`, `interval hour`, `interval(3)`).
//! PostgreSQL cuts a value of such a type below its last field and rounds its
//! seconds to the digits, in casts and in columns, and packs both into the
//! column's `atttypmod` (the fields as a bit mask in the high half, the digits
//! in the low half), which `format_type` spells back.
//!
//! SQLite reads a declared type as a few words, but not `to`: a column's type
//! is declared `interval day_to_second(2)` in the file, read back here as the
//! same modifier.

use super::datetime::round_to_digits;
use super::interval::{Interval, IntervalError};

/// PostgreSQL's bits for each field (`INTERVAL_MASK` of its `DTK_` units).
const MONTH: u32 = 1 << 1;
const YEAR: u32 = 1 << 2;
const DAY: u32 = 1 << 3;
const HOUR: u32 = 1 << 10;
const MINUTE: u32 = 1 << 11;
const SECOND: u32 = 1 << 12;
/// No fields named: every one kept.
const FULL_RANGE: u32 = 0x7FFF;
/// No digits named: all six kept.
const FULL_PRECISION: i64 = 0xFFFF;
/// The most fractional digits of seconds an interval keeps.
const MAX_PRECISION: u32 = 6;

/// The field lists PostgreSQL's grammar takes, as it spells them.
const FIELDS: &[(&str, u32)] = &[
    ("year", YEAR),
    ("month", MONTH),
    ("day", DAY),
    ("hour", HOUR),
    ("minute", MINUTE),
    ("second", SECOND),
    ("year to month", YEAR | MONTH),
    ("day to hour", DAY | HOUR),
    ("day to minute", DAY | HOUR | MINUTE),
    ("day to second", DAY | HOUR | MINUTE | SECOND),
    ("hour to minute", HOUR | MINUTE),
    ("hour to second", HOUR | MINUTE | SECOND),
    ("minute to second", MINUTE | SECOND),
];

const USECS_PER_HOUR: i64 = 3_600_000_000;
const USECS_PER_MINUTE: i64 = 60_000_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntervalFields {
    /// A bit mask of the fields kept ([`FULL_RANGE`]: all).
    range: u32,
    /// Fractional digits of seconds kept (`None`: all).
    precision: Option<u32>,
}

impl IntervalFields {
    /// The modifier a type's spelling names: PostgreSQL's (`interval day to
    /// second(2)`, `INTERVAL(3)`) or a column's declared type in the file
    /// (`interval day_to_second(2)`); `None` for plain `interval`, fields
    /// PostgreSQL does not take, or another type.
    pub fn parse(spelled: &str) -> Option<IntervalFields> {
        let lower = spelled.trim().to_ascii_lowercase();
        let lower = lower.strip_prefix("pg_catalog.").unwrap_or(&lower);
        let (base, digits) = match lower.split_once('(') {
            Some((base, rest)) => (base, Some(rest.split(')').next()?.trim())),
            None => (lower, None),
        };
        let fields = base.strip_prefix("interval")?;
        if !(fields.is_empty() || fields.starts_with([' ', '\t', '\n'])) {
            return None;
        }
        let fields = fields.replace('_', " ");
        let fields: Vec<&str> = fields.split_whitespace().collect();
        let range = match fields.as_slice() {
            [] => FULL_RANGE,
            words => {
                let spelled = words.join(" ");
                FIELDS
                    .iter()
                    .find(|(name, _)| *name == spelled)
                    .map(|(_, range)| *range)?
            }
        };
        // More digits than six are six, as PostgreSQL reduces them (with a warning).
        let precision = match digits {
            None => None,
            Some(digits) => Some(digits.parse::<u32>().ok()?.min(MAX_PRECISION)),
        };
        (range != FULL_RANGE || precision.is_some()).then_some(IntervalFields { range, precision })
    }

    /// PostgreSQL's `atttypmod` for the type.
    pub fn typmod(self) -> i64 {
        (i64::from(self.range) << 16) | self.precision.map_or(FULL_PRECISION, i64::from)
    }

    /// The modifier `atttypmod` packs; `None` for -1 (plain `interval`) or a
    /// value no interval type has.
    pub fn from_typmod(typmod: i64) -> Option<IntervalFields> {
        if typmod < 0 {
            return None;
        }
        let range = u32::try_from(typmod >> 16).ok()?;
        if range != FULL_RANGE && !FIELDS.iter().any(|(_, r)| *r == range) {
            return None;
        }
        let precision = match typmod & 0xFFFF {
            FULL_PRECISION => None,
            digits => Some(u32::try_from(digits).ok().filter(|d| *d <= MAX_PRECISION)?),
        };
        Some(IntervalFields { range, precision })
    }

    /// The type as PostgreSQL's `format_type` spells it.
    pub fn spelled(self) -> String {
        let mut out = "interval".to_owned();
        if let Some((name, _)) = FIELDS.iter().find(|(_, r)| *r == self.range) {
            out.push(' ');
            out.push_str(name);
        }
        if let Some(digits) = self.precision {
            out.push_str(&format!("({digits})"));
        }
        out
    }

    /// The type as a column declares it in the file: words SQLite reads.
    pub fn declared(self) -> String {
        self.spelled().replace(" to ", "_to_")
    }

    /// The declared type's name, without its digits (`interval day_to_second`),
    /// and its digits.
    pub fn declared_parts(self) -> (String, Option<u32>) {
        let mut spelled = self.declared();
        if let Some(open) = spelled.find('(') {
            spelled.truncate(open);
        }
        (spelled, self.precision)
    }

    /// `text` read as a value of the type: a bare number at the right end
    /// counts the units of its last field (`'5'::interval hour` is five hours,
    /// `'1 2'::interval day to hour` a day and two hours), as PostgreSQL reads
    /// it, then the value kept as the type keeps it.
    pub fn read(self, text: &str) -> Result<Interval, IntervalError> {
        let unit = match self.range {
            YEAR => "year",
            r if r == MONTH || r == YEAR | MONTH => "month",
            DAY => "day",
            r if r == HOUR || r == DAY | HOUR => "hour",
            r if r == MINUTE || r == HOUR | MINUTE || r == DAY | HOUR | MINUTE => "minute",
            _ => "second",
        };
        Ok(self.fit(Interval::parse_in(text, unit)?))
    }

    /// `value` as the type keeps it: the fields below its last cut off (toward
    /// zero), the seconds rounded to its digits (half away from zero), as
    /// PostgreSQL's `AdjustIntervalForTypmod` does.
    pub fn fit(self, value: Interval) -> Interval {
        let mut out = value;
        let truncated = |usecs: i64, unit: i64| usecs / unit * unit;
        match self.range {
            YEAR => {
                out.months = out.months / 12 * 12;
                out.days = 0;
                out.usecs = 0;
            }
            r if r == MONTH || r == YEAR | MONTH => {
                out.days = 0;
                out.usecs = 0;
            }
            DAY => out.usecs = 0,
            HOUR => out.usecs = truncated(out.usecs, USECS_PER_HOUR),
            MINUTE => out.usecs = truncated(out.usecs, USECS_PER_MINUTE),
            r if r == DAY | HOUR => out.usecs = truncated(out.usecs, USECS_PER_HOUR),
            r if r == DAY | HOUR | MINUTE || r == HOUR | MINUTE => {
                out.usecs = truncated(out.usecs, USECS_PER_MINUTE);
            }
            _ => {}
        }
        if let Some(digits) = self.precision {
            out.usecs = round_to_digits(out.usecs, digits);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fitted(spelled: &str, value: &str) -> String {
        let fields = IntervalFields::parse(spelled).expect(spelled);
        let value = Interval::parse(value).expect(value);
        fields.fit(value).format()
    }

    #[test]
    fn spellings_read_back() {
        for spelled in [
            "interval day to second(2)",
            "interval hour",
            "interval(3)",
            "interval year to month",
            "interval second(0)",
        ] {
            let fields = IntervalFields::parse(spelled).unwrap();
            assert_eq!(fields.spelled(), spelled);
            assert_eq!(IntervalFields::parse(&fields.declared()), Some(fields));
            assert_eq!(IntervalFields::from_typmod(fields.typmod()), Some(fields));
        }
        assert_eq!(
            IntervalFields::parse("INTERVAL DAY TO SECOND(2)").map(IntervalFields::typmod),
            Some(470_286_338)
        );
        assert_eq!(
            IntervalFields::parse("interval(2)").map(IntervalFields::typmod),
            Some(2_147_418_114)
        );
        assert_eq!(
            IntervalFields::parse("interval day").map(IntervalFields::typmod),
            Some(589_823)
        );
        assert_eq!(
            IntervalFields::parse("interval(9)").map(IntervalFields::spelled),
            Some("interval(6)".to_owned())
        );
        for other in [
            "interval",
            "interval month to day",
            "intervals",
            "int4",
            "interval(x)",
        ] {
            assert_eq!(IntervalFields::parse(other), None, "{other}");
        }
    }

    #[test]
    fn a_bare_number_counts_the_last_fields_units() {
        // PostgreSQL 15's answers.
        let cases = [
            ("interval hour", "5", "05:00:00"),
            ("interval day to hour", "5", "05:00:00"),
            ("interval minute to second", "5", "00:00:05"),
            ("interval year to month", "14", "1 year 2 mons"),
            ("interval day", "2.5", "2 days"),
            (
                "interval hour to minute",
                "1 day 02:03:04",
                "1 day 02:03:00",
            ),
        ];
        for (spelled, text, expected) in cases {
            let fields = IntervalFields::parse(spelled).expect(spelled);
            let read = fields.read(text).expect(text).format();
            assert_eq!(read, expected, "{text}::{spelled}");
        }
    }

    #[test]
    fn values_are_cut_to_the_fields_and_rounded_to_the_digits() {
        // PostgreSQL 15's answers.
        let cases = [
            ("interval year", "1 year 5 mons 3 days 04:05:06", "1 year"),
            (
                "interval month",
                "1 year 5 mons 3 days 04:05:06",
                "1 year 5 mons",
            ),
            ("interval day", "1 day 2 hours", "1 day"),
            ("interval hour", "3 days 04:05:06", "3 days 04:00:00"),
            ("interval minute", "-04:05:06", "-04:05:00"),
            ("interval day to hour", "3 days 04:05:06", "3 days 04:00:00"),
            (
                "interval hour to minute",
                "1 day 02:03:04",
                "1 day 02:03:00",
            ),
            (
                "interval day to second(2)",
                "1 day 02:03:04.567",
                "1 day 02:03:04.57",
            ),
            ("interval(2)", "1.2345 seconds", "00:00:01.23"),
            ("interval(0)", "-1.5 seconds", "-00:00:02"),
            (
                "interval second(1)",
                "1 mon 00:00:00.25",
                "1 mon 00:00:00.3",
            ),
        ];
        for (spelled, value, expected) in cases {
            assert_eq!(fitted(spelled, value), expected, "{value}::{spelled}");
        }
    }
}
