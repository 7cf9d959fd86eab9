//! Time zones, as PostgreSQL reads and shows them: the session's `TimeZone`
//! (an IANA name in any case, a POSIX `TZ` string, a number of hours or an
//! interval), a zone named in date/time input or after `AT TIME ZONE`
//! (those, or an abbreviation such as `PST`), and a timestamptz shown in one.
//!
//! litewire stores every timestamptz in UTC (`2024-05-06 05:08:09+00`), so the
//! stored value never depends on a session; only what a session reads and is
//! shown does. The zone rules are the IANA database compiled into the binary,
//! so a zone name never reaches the filesystem.

use std::fmt::Write as _;
use std::sync::{Arc, LazyLock};

use jiff::Timestamp;
use jiff::civil;
use jiff::tz::{AmbiguousOffset, TimeZone};

use super::datetime::{
    PG_EPOCH_DAYS, TIMESTAMP_INFINITY, TIMESTAMP_MINUS_INFINITY, USECS_PER_SEC, civil_from_days,
    format_timestamp,
};
use super::interval::Interval;
use super::time_zone_abbreviations::ABBREVIATIONS;

/// Seconds from 1970-01-01 to 2000-01-01, the epoch of stored microseconds.
const UNIX_TO_PG_SECS: i64 = PG_EPOCH_DAYS * 86_400;

/// A time zone and the name `SHOW TimeZone` gives it: one pointer, as every
/// result a session reads carries its zone.
#[derive(Debug, Clone)]
pub struct Zone(Arc<Rules>);

#[derive(Debug)]
struct Rules {
    name: String,
    rules: TimeZone,
    /// The offset east of UTC in seconds when it never changes (UTC itself, a
    /// fixed offset): read without a look at the rules.
    fixed: Option<i64>,
}

impl PartialEq for Zone {
    fn eq(&self, other: &Zone) -> bool {
        self.0.name == other.0.name
    }
}

static UTC: LazyLock<Zone> = LazyLock::new(|| {
    Zone(Arc::new(Rules {
        name: "UTC".to_owned(),
        rules: TimeZone::UTC,
        fixed: Some(0),
    }))
});

impl Zone {
    /// UTC, the zone of a session that set none.
    pub fn utc() -> Zone {
        UTC.clone()
    }

    /// The `TimeZone` setting's value: an IANA zone name in any case (shown as
    /// the database spells it), a POSIX `TZ` string (`UTC+3`, `<+03>-3`), a
    /// number of hours east of UTC (`-5`, `5.5`, as `SET TIME ZONE -5`
    /// writes), or `INTERVAL '...'` (as `SET TIME ZONE INTERVAL ...` does).
    pub fn setting(value: &str) -> Option<Zone> {
        if let Some(hours) = value.trim().parse::<f64>().ok().filter(|h| h.is_finite()) {
            return Zone::fixed((hours * 3600.0).round() as i64);
        }
        let lowered = value.trim_start().to_ascii_lowercase();
        if lowered.starts_with("interval") {
            let mut pieces = value.split('\'');
            let quoted = pieces.nth(1)?;
            // A bare number with `HOUR` after it counts hours (`'-8' HOUR`).
            let unit_hours = pieces
                .next()
                .is_some_and(|rest| rest.trim_start().to_ascii_lowercase().starts_with("hour"));
            let interval = match quoted.trim().parse::<f64>() {
                Ok(hours) if unit_hours && hours.is_finite() => {
                    return Zone::fixed((hours * 3600.0).round() as i64);
                }
                _ => Interval::parse(quoted).ok()?,
            };
            if interval.months != 0 || interval.days != 0 {
                return None;
            }
            return Zone::fixed(interval.usecs / USECS_PER_SEC);
        }
        Zone::rules(value)
    }

    /// A zone named in date/time input or after `AT TIME ZONE`: an
    /// abbreviation of PostgreSQL's default set (a fixed offset), else
    /// whatever [`Zone::setting`] reads as a name.
    pub fn named(name: &str) -> Option<Zone> {
        match abbreviation(name) {
            Some(offset) => Zone::fixed(offset),
            None => Zone::rules(name),
        }
    }

    /// An IANA zone or a POSIX `TZ` string.
    fn rules(name: &str) -> Option<Zone> {
        if let Some(zone) = fixed_name(name) {
            return Some(zone);
        }
        // A name is a path in the database: no empty or relative parts.
        if name.is_empty()
            || name
                .split('/')
                .any(|part| part.is_empty() || part.starts_with('.'))
        {
            return None;
        }
        if let Ok(rules) = TimeZone::get(name) {
            let shown = rules.iana_name().unwrap_or(name).to_owned();
            return Some(Zone::with_rules(shown, rules));
        }
        let rules = TimeZone::posix(name).ok()?;
        Some(Zone::with_rules(name.to_owned(), rules))
    }

    fn with_rules(name: String, rules: TimeZone) -> Zone {
        let fixed = rules
            .to_fixed_offset()
            .ok()
            .map(|offset| i64::from(offset.seconds()));
        Zone(Arc::new(Rules { name, rules, fixed }))
    }

    /// A fixed offset east of UTC, named as PostgreSQL names one
    /// (`<-05>+05`: the offset, then the POSIX spelling, whose sign is the
    /// other way round).
    pub fn fixed(east: i64) -> Option<Zone> {
        // PostgreSQL's limit for a zone's offset.
        if east.abs() > 15 * 3600 + 59 * 60 {
            return None;
        }
        let offset = jiff::tz::Offset::from_seconds(i32::try_from(east).ok()?).ok()?;
        let mut name = String::from("<");
        write_offset(&mut name, east);
        name.push('>');
        write_offset(&mut name, -east);
        Some(Zone(Arc::new(Rules {
            name,
            rules: TimeZone::fixed(offset),
            fixed: Some(east),
        })))
    }

    /// The name `SHOW TimeZone` gives it.
    pub fn name(&self) -> &str {
        &self.0.name
    }

    /// Whether it is UTC at every moment (its shown times are the stored ones).
    pub fn is_utc(&self) -> bool {
        self.0.fixed == Some(0)
    }

    /// Seconds east of UTC at a moment (microseconds since 2000-01-01 UTC).
    pub fn offset_at(&self, utc: i64) -> i64 {
        match self.0.fixed {
            Some(offset) => offset,
            None => i64::from(self.0.rules.to_offset(instant(utc)).seconds()),
        }
    }

    /// The zone's abbreviation at a moment (`CEST`, `EST`, or the offset
    /// as `+03` where the zone has no letters for it).
    pub fn abbreviation_at(&self, utc: i64) -> String {
        let info = self.0.rules.to_offset_info(instant(utc));
        let abbreviation = info.abbreviation();
        match abbreviation.is_empty() || self.0.fixed.is_some() && self.0.name.starts_with('<') {
            true => {
                let mut out = String::new();
                write_offset(&mut out, i64::from(info.offset().seconds()));
                out
            }
            false => abbreviation.to_owned(),
        }
    }

    /// Whether the zone keeps daylight-saving time at a moment.
    pub fn is_dst_at(&self, utc: i64) -> bool {
        self.0.rules.to_offset_info(instant(utc)).dst().is_dst()
    }

    /// The moment (microseconds since 2000-01-01 UTC) a local time of this zone
    /// names. A local time a transition skips is read with the offset before
    /// it, one a transition repeats with the offset after it, as PostgreSQL
    /// reads them.
    pub fn utc_of_local(&self, local: i64) -> i64 {
        if matches!(local, TIMESTAMP_INFINITY | TIMESTAMP_MINUS_INFINITY) {
            return local;
        }
        if let Some(offset) = self.0.fixed {
            return local.saturating_sub(offset * USECS_PER_SEC);
        }
        let offset =
            match civil_time(local).map(|at| self.0.rules.to_ambiguous_timestamp(at).offset()) {
                Some(AmbiguousOffset::Unambiguous { offset }) => offset,
                Some(AmbiguousOffset::Gap { before, .. }) => before,
                Some(AmbiguousOffset::Fold { after, .. }) => after,
                // Beyond the rules' years: the offset there.
                None => self.0.rules.to_offset(instant(local)),
            };
        local.saturating_sub(i64::from(offset.seconds()) * USECS_PER_SEC)
    }

    /// The local time (microseconds since 2000-01-01 on the zone's clock) of a
    /// moment.
    pub fn local_of_utc(&self, utc: i64) -> i64 {
        if matches!(utc, TIMESTAMP_INFINITY | TIMESTAMP_MINUS_INFINITY) {
            return utc;
        }
        utc.saturating_add(self.offset_at(utc) * USECS_PER_SEC)
    }

    /// A stored timestamptz's text shown in this zone; `None` for text that
    /// is no timestamp.
    pub fn show(&self, stored: &str) -> Option<String> {
        super::datetime::parse_timestamp(stored, true).map(|usecs| self.format(usecs))
    }

    /// A timestamptz as PostgreSQL shows it in this zone:
    /// `2024-05-06 03:08:09-04`, the offset to the second where it has one
    /// (`+05:21:10`), `BC` last.
    pub fn format(&self, utc: i64) -> String {
        if self.is_utc() || matches!(utc, TIMESTAMP_INFINITY | TIMESTAMP_MINUS_INFINITY) {
            return format_timestamp(utc, true);
        }
        let offset = self.offset_at(utc);
        let mut out = format_timestamp(utc + offset * USECS_PER_SEC, false);
        let bc = out.ends_with(" BC");
        if bc {
            out.truncate(out.len() - 3);
        }
        write_offset(&mut out, offset);
        if bc {
            out.push_str(" BC");
        }
        out
    }
}

/// Every zone name the rules know, as `pg_timezone_names` lists them.
pub fn zone_names() -> Vec<String> {
    jiff::tz::db()
        .available()
        .map(|name| name.as_str().to_owned())
        .collect()
}

/// PostgreSQL's default abbreviations: name, offset east of UTC in seconds,
/// whether it is a daylight-saving time (`pg_timezone_abbrevs`).
pub fn abbreviations() -> &'static [(&'static str, i32, bool)] {
    ABBREVIATIONS
}

/// A time zone abbreviation's offset east of UTC in seconds (`pst` is -8 hours).
pub fn abbreviation(name: &str) -> Option<i64> {
    let upper = name.to_ascii_uppercase();
    ABBREVIATIONS
        .binary_search_by(|(abbreviation, _, _)| (*abbreviation).cmp(upper.as_str()))
        .ok()
        .map(|at| i64::from(ABBREVIATIONS[at].1))
}

/// `+05`, `-03:30`, `+00:53:28`: an offset east of UTC as PostgreSQL prints
/// one after a time.
pub fn write_offset(out: &mut String, east: i64) {
    let sign = if east < 0 { '-' } else { '+' };
    let seconds = east.abs();
    let _ = write!(out, "{sign}{:02}", seconds / 3600);
    if seconds % 3600 != 0 {
        let _ = write!(out, ":{:02}", seconds / 60 % 60);
        if seconds % 60 != 0 {
            let _ = write!(out, ":{:02}", seconds % 60);
        }
    }
}

/// A fixed offset in the POSIX form [`Zone::fixed`] names it with
/// (`<+05:30>-05:30`, which the POSIX reader refuses for its colon).
fn fixed_name(name: &str) -> Option<Zone> {
    let (_, posix) = name.strip_prefix('<')?.split_once('>')?;
    let (sign, digits) = match posix.as_bytes().first()? {
        b'+' => (1, &posix[1..]),
        b'-' => (-1, &posix[1..]),
        _ => (1, posix),
    };
    let mut west = 0;
    let mut parts = 0;
    for (part, scale) in digits.split(':').zip([3600, 60, 1]) {
        if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        west += part.parse::<i64>().ok()? * scale;
        parts += 1;
    }
    if parts != digits.split(':').count() {
        return None;
    }
    let zone = Zone::fixed(-sign * west)?;
    (zone.name() == name).then_some(zone)
}

/// A stored moment as the rules' timestamp, held within the years they cover.
fn instant(usecs: i64) -> Timestamp {
    let seconds = usecs
        .div_euclid(USECS_PER_SEC)
        .saturating_add(UNIX_TO_PG_SECS);
    let seconds = seconds.clamp(Timestamp::MIN.as_second(), Timestamp::MAX.as_second());
    Timestamp::from_second(seconds).unwrap_or(Timestamp::UNIX_EPOCH)
}

/// A local time (microseconds since 2000-01-01) as a civil date and time to
/// the second, when it is within the years the rules cover.
fn civil_time(local: i64) -> Option<civil::DateTime> {
    let seconds = local.div_euclid(USECS_PER_SEC);
    let days = seconds.div_euclid(86_400);
    let of_day = seconds.rem_euclid(86_400);
    let (year, month, day) = civil_from_days(days + PG_EPOCH_DAYS);
    civil::DateTime::new(
        i16::try_from(year).ok()?,
        month as i8,
        day as i8,
        (of_day / 3600) as i8,
        (of_day / 60 % 60) as i8,
        (of_day % 60) as i8,
        0,
    )
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::datetime::parse_timestamp;

    fn shown(zone: &str, stored: &str) -> String {
        let usecs = parse_timestamp(stored, true).unwrap_or_default();
        Zone::setting(zone)
            .map(|z| z.format(usecs))
            .unwrap_or_default()
    }

    fn local(zone: &str, text: &str) -> String {
        let usecs = parse_timestamp(text, false).unwrap_or_default();
        let zone = Zone::setting(zone).unwrap_or_else(Zone::utc);
        format_timestamp(zone.utc_of_local(usecs), true)
    }

    #[test]
    fn settings_read_and_show_as_postgres_does() {
        let name = |value: &str| Zone::setting(value).map(|z| z.name().to_owned());
        assert_eq!(
            name("america/new_york").as_deref(),
            Some("America/New_York")
        );
        assert_eq!(name("EST").as_deref(), Some("EST"));
        assert_eq!(name("UTC+3").as_deref(), Some("UTC+3"));
        assert_eq!(name("-5").as_deref(), Some("<-05>+05"));
        assert_eq!(name("5.5").as_deref(), Some("<+05:30>-05:30"));
        assert_eq!(
            name("INTERVAL '-08:00' HOUR TO MINUTE").as_deref(),
            Some("<-08>+08")
        );
        assert_eq!(name("<+05:30>-05:30").as_deref(), Some("<+05:30>-05:30"));
        assert_eq!(name("<-05>+05").as_deref(), Some("<-05>+05"));
        assert_eq!(name("foo"), None);
        assert_eq!(name("PST"), None);
        assert_eq!(name("../etc/passwd"), None);
        assert_eq!(name(""), None);
    }

    #[test]
    fn timestamps_show_in_the_zone() {
        let stored = "2024-05-06 07:08:09+00";
        assert_eq!(shown("America/New_York", stored), "2024-05-06 03:08:09-04");
        assert_eq!(shown("UTC+3", stored), "2024-05-06 04:08:09-03");
        assert_eq!(shown("<+03>-3", stored), "2024-05-06 10:08:09+03");
        assert_eq!(shown("5.5", stored), "2024-05-06 12:38:09+05:30");
        assert_eq!(
            shown("Asia/Kolkata", "1900-01-01 00:00:00+00"),
            "1900-01-01 05:21:10+05:21:10"
        );
        assert_eq!(shown("UTC", stored), stored);
    }

    #[test]
    fn skipped_and_repeated_local_times_read_as_postgres_reads_them() {
        // Skipped: the offset before the transition; repeated: the one after.
        assert_eq!(
            local("Europe/Paris", "2024-03-31 02:30:00"),
            "2024-03-31 01:30:00+00"
        );
        assert_eq!(
            local("Europe/Paris", "2024-10-27 02:30:00"),
            "2024-10-27 01:30:00+00"
        );
        assert_eq!(
            local("America/Chicago", "2024-05-06 07:08:09"),
            "2024-05-06 12:08:09+00"
        );
    }

    #[test]
    fn abbreviations_are_fixed_offsets() {
        assert_eq!(abbreviation("pst"), Some(-8 * 3600));
        assert_eq!(abbreviation("CEST"), Some(2 * 3600));
        assert_eq!(abbreviation("XYZ"), None);
        assert!(ABBREVIATIONS.windows(2).all(|w| w[0].0 < w[1].0));
    }
}
