//! `to_char(timestamp | timestamptz | date, format)`: PostgreSQL's template
//! patterns (`YYYY`, `MM`, `DD`, `HH24`, `MI`, `SS`, `MS`, `US`, `Month`,
//! `Dy`, `AM`, `IW`, `Q`, `TZ`, ...), its `FM` (no padding) and `TH`
//! (ordinal) modifiers, quoted text and `\` escapes; anything else is copied.
//! Month and day names are English, as PostgreSQL's without `TM`.

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;
use crate::sql::datetime::{
    self, Calendar, PG_EPOCH_DAYS, USECS_PER_DAY, USECS_PER_SEC, days_from_civil,
};
use crate::sql::time_zone::Zone;

pub(super) const FUNCTIONS: &[Function] = &[Function::helper(
    "litewire_to_char",
    Args::Fixed(&["timestamptz", "text", "text"]),
    Volatility::Stable,
    to_char,
)];

pub(super) const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];
pub(super) const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const ROMAN: [&str; 12] = [
    "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII",
];

/// The patterns, longest first where one is the start of another.
const PATTERNS: &[&str] = &[
    "HH24", "HH12", "HH", "MI", "SSSSS", "SSSS", "SS", "MS", "US", "FF1", "FF2", "FF3", "FF4",
    "FF5", "FF6", "A.M.", "a.m.", "P.M.", "p.m.", "AM", "am", "PM", "pm", "Y,YYY", "YYYY", "YYY",
    "YY", "IYYY", "IYY", "IY", "B.C.", "b.c.", "A.D.", "a.d.", "BC", "bc", "AD", "ad", "MONTH",
    "Month", "month", "MON", "Mon", "mon", "MM", "DAY", "Day", "day", "DY", "Dy", "dy", "DDD",
    "IDDD", "DD", "D", "ID", "I", "Y", "WW", "W", "IW", "CC", "J", "Q", "RM", "rm", "TZH", "TZM",
    "TZ", "tz", "OF",
];

/// The English ordinal suffix of `n` (`1st`, `12th`, `23rd`).
pub(super) fn ordinal(n: i64) -> &'static str {
    match (n % 100, n % 10) {
        (11..=13, _) => "th",
        (_, 1) => "st",
        (_, 2) => "nd",
        (_, 3) => "rd",
        _ => "th",
    }
}

/// `text` in the case the pattern is written in: upper, capitalized, lower.
fn cased(text: &str, pattern: &str) -> String {
    let mut letters = pattern.chars().filter(|c| c.is_alphabetic());
    match (letters.next(), letters.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && b.is_uppercase() => text.to_uppercase(),
        (Some(a), _) if a.is_uppercase() => text.to_owned(),
        _ => text.to_lowercase(),
    }
}

/// One pattern's text for a moment; `fill` false under `FM`.
fn field(pattern: &str, m: &Calendar, fill: bool, zone: Option<&Shown>) -> (String, Option<i64>) {
    let number = |value: i64, width: usize| -> (String, Option<i64>) {
        let text = match fill {
            true if value < 0 => format!("-{:0width$}", -value, width = width),
            true => format!("{value:0width$}"),
            false => value.to_string(),
        };
        (text, Some(value))
    };
    let year = if m.year > 0 { m.year } else { 1 - m.year };
    let hour = m.time / (3600 * USECS_PER_SEC);
    let hour12 = match hour % 12 {
        0 => 12,
        h => h,
    };
    let weekday = ((m.days + PG_EPOCH_DAYS) + 4).rem_euclid(7) as usize;
    let day_of_year = (m.days + PG_EPOCH_DAYS) - days_from_civil(m.year, 1, 1) + 1;
    let (iso_year, iso_week_number) = datetime::iso_week(m);
    let padded = |name: &str| match fill {
        true => format!("{name:<9}"),
        false => name.to_owned(),
    };
    match pattern {
        "HH24" => number(hour, 2),
        "HH12" | "HH" => number(hour12, 2),
        "MI" => number(m.time / (60 * USECS_PER_SEC) % 60, 2),
        "SS" => number(m.time / USECS_PER_SEC % 60, 2),
        "SSSS" | "SSSSS" => number(m.time / USECS_PER_SEC, 0),
        "MS" => number(m.time % USECS_PER_SEC / 1000, 3),
        "US" => number(m.time % USECS_PER_SEC, 6),
        p if p.starts_with("FF") => {
            let digits = p[2..].parse::<u32>().unwrap_or(6);
            let fraction = m.time % USECS_PER_SEC / 10i64.pow(6 - digits);
            (format!("{fraction:0width$}", width = digits as usize), None)
        }
        "AM" | "PM" => ((if hour < 12 { "AM" } else { "PM" }).to_owned(), None),
        "am" | "pm" => ((if hour < 12 { "am" } else { "pm" }).to_owned(), None),
        "A.M." | "P.M." => ((if hour < 12 { "A.M." } else { "P.M." }).to_owned(), None),
        "a.m." | "p.m." => ((if hour < 12 { "a.m." } else { "p.m." }).to_owned(), None),
        "Y,YYY" => (format!("{},{:03}", year / 1000, year % 1000), Some(year)),
        "YYYY" => number(year, 4),
        "YYY" => number(year % 1000, 3),
        "YY" => number(year % 100, 2),
        "Y" => number(year % 10, 1),
        "IYYY" => number(iso_year, 4),
        "IYY" => number(iso_year % 1000, 3),
        "IY" => number(iso_year % 100, 2),
        "I" => number(iso_year % 10, 1),
        "BC" | "AD" => ((if m.year > 0 { "AD" } else { "BC" }).to_owned(), None),
        "bc" | "ad" => ((if m.year > 0 { "ad" } else { "bc" }).to_owned(), None),
        "B.C." | "A.D." => ((if m.year > 0 { "A.D." } else { "B.C." }).to_owned(), None),
        "b.c." | "a.d." => ((if m.year > 0 { "a.d." } else { "b.c." }).to_owned(), None),
        "MONTH" | "Month" | "month" => {
            (padded(&cased(MONTHS[m.month as usize - 1], pattern)), None)
        }
        "MON" | "Mon" | "mon" => (cased(&MONTHS[m.month as usize - 1][..3], pattern), None),
        "MM" => number(i64::from(m.month), 2),
        "DAY" | "Day" | "day" => (padded(&cased(DAYS[weekday], pattern)), None),
        "DY" | "Dy" | "dy" => (cased(&DAYS[weekday][..3], pattern), None),
        "DDD" => number(day_of_year, 3),
        "IDDD" => {
            let monday_week_one = days_from_civil(iso_year, 1, 4);
            let start = monday_week_one - (monday_week_one + 3).rem_euclid(7);
            number((m.days + PG_EPOCH_DAYS) - start + 1, 3)
        }
        "DD" => number(i64::from(m.day), 2),
        "D" => number(weekday as i64 + 1, 1),
        "ID" => number(if weekday == 0 { 7 } else { weekday as i64 }, 1),
        "W" => number((i64::from(m.day) - 1) / 7 + 1, 1),
        "WW" => number((day_of_year - 1) / 7 + 1, 2),
        "IW" => number(iso_week_number, 2),
        "CC" => number(
            match m.year > 0 {
                true => (m.year + 99) / 100,
                false => -((99 - (m.year - 1)) / 100),
            },
            2,
        ),
        "J" => number((m.days + PG_EPOCH_DAYS) + 2_440_588, 0),
        "Q" => number((i64::from(m.month) - 1) / 3 + 1, 1),
        "RM" => (padded_roman(ROMAN[m.month as usize - 1], fill), None),
        "rm" => (
            padded_roman(&ROMAN[m.month as usize - 1].to_lowercase(), fill),
            None,
        ),
        // A timestamptz shows the session's zone; a timestamp has none.
        "TZ" | "tz" | "TZH" | "TZM" | "OF" => {
            let Some(zone) = zone else {
                return (String::new(), None);
            };
            let sign = if zone.offset < 0 { '-' } else { '+' };
            let text = match pattern {
                "TZ" => zone.abbreviation.to_uppercase(),
                "tz" => zone.abbreviation.to_lowercase(),
                "TZH" => format!("{sign}{:02}", zone.offset.abs() / 3600),
                "TZM" => format!("{:02}", zone.offset.abs() / 60 % 60),
                _ => {
                    let mut text = String::new();
                    crate::sql::time_zone::write_offset(&mut text, zone.offset);
                    text
                }
            };
            (text, None)
        }
        _ => (String::new(), None),
    }
}

fn padded_roman(numeral: &str, fill: bool) -> String {
    match fill {
        true => format!("{numeral:<4}"),
        false => numeral.to_owned(),
    }
}

/// The longest pattern `rest` starts with. Names (`Month`, `Dy`, `AM`, ...)
/// match in the case they are written in, which is the case they print in;
/// numbers in upper or lower case (`YYYY`, `yyyy`; `Dd` is `D` twice).
fn pattern_at(rest: &str) -> Option<&'static str> {
    const NAMED: &[&str] = &[
        "MONTH", "MON", "DAY", "DY", "AM", "PM", "A.M.", "P.M.", "BC", "AD", "B.C.", "A.D.", "RM",
        "TZ",
    ];
    PATTERNS
        .iter()
        .copied()
        .filter(|p| {
            rest.starts_with(p)
                || (!NAMED.contains(&p.to_ascii_uppercase().as_str())
                    && rest.starts_with(&p.to_ascii_lowercase()))
        })
        .max_by_key(|p| p.len())
}

/// The zone a timestamptz is shown in, at the moment shown.
struct Shown {
    abbreviation: String,
    /// Seconds east of UTC.
    offset: i64,
}

/// The template applied to a moment (on the clock of `zone`, if any).
fn render(format: &str, usecs: i64, zone: Option<&Shown>) -> String {
    let m = datetime::calendar(usecs);
    let mut out = String::with_capacity(format.len() + 8);
    let mut rest = format;
    while !rest.is_empty() {
        let fill = !rest.starts_with("FM");
        if !fill {
            rest = &rest[2..];
            if rest.is_empty() {
                break;
            }
        }
        // `TM` (translation) and `FX` (exact input) change nothing here.
        if rest.starts_with("TM") || rest.starts_with("FX") {
            rest = &rest[2..];
            continue;
        }
        if let Some(pattern) = pattern_at(rest) {
            let (text, value) = field(pattern, &m, fill, zone);
            out.push_str(&text);
            rest = &rest[pattern.len()..];
            if let Some(value) = value {
                if let Some(after) = rest.strip_prefix("TH") {
                    out.push_str(&ordinal(value).to_uppercase());
                    rest = after;
                } else if let Some(after) = rest.strip_prefix("th") {
                    out.push_str(ordinal(value));
                    rest = after;
                }
            }
            continue;
        }
        let mut chars = rest.chars();
        match chars.next() {
            Some('"') => {
                // Quoted text, with `\"` for a quote inside.
                let mut inner = chars.as_str();
                loop {
                    let mut it = inner.chars();
                    match it.next() {
                        None => break,
                        Some('"') => {
                            inner = it.as_str();
                            break;
                        }
                        Some('\\') => {
                            if let Some(c) = it.next() {
                                out.push(c);
                            }
                        }
                        Some(c) => out.push(c),
                    }
                    inner = it.as_str();
                }
                rest = inner;
            }
            Some('\\') => {
                if let Some(c) = chars.next() {
                    out.push(c);
                }
                rest = chars.as_str();
            }
            Some(c) => {
                out.push(c);
                rest = chars.as_str();
            }
            None => break,
        }
    }
    out
}

/// `litewire_to_char(value, format, kind)`.
fn to_char(call: &Call, args: &[Arg]) -> Out {
    let (Some(value), Some(format), Some(kind)) = (args[0].text(), args[1].text(), args[2].text())
    else {
        return Out::Null;
    };
    // A date is read as a timestamptz, the type PostgreSQL casts it to here.
    let with_tz = kind != "timestamp";
    let usecs = match kind.as_str() {
        "date" => datetime::parse_date(&value).map(|days| days * USECS_PER_DAY),
        _ => datetime::parse_timestamp(&value, with_tz),
    };
    match usecs {
        // Infinite moments print nothing, as in PostgreSQL.
        Some(datetime::TIMESTAMP_INFINITY | datetime::TIMESTAMP_MINUS_INFINITY) => Out::Null,
        Some(usecs) if kind == "date" && (usecs / USECS_PER_DAY).abs() >= i64::from(i32::MAX) => {
            Out::Null
        }
        Some(usecs) if !with_tz => Out::Text(render(&format, usecs, None)),
        // On the session's clock: a date is its local midnight already.
        Some(usecs) => {
            let zone = call.time_zone().unwrap_or_else(Zone::utc);
            let (utc, local) = match kind.as_str() {
                "date" => (zone.utc_of_local(usecs), usecs),
                _ => (usecs, zone.local_of_utc(usecs)),
            };
            let shown = Shown {
                abbreviation: zone.abbreviation_at(utc),
                offset: zone.offset_at(utc),
            };
            Out::Text(render(&format, local, Some(&shown)))
        }
        None => Out::Fail(
            SqlState::INVALID_DATETIME_FORMAT,
            format!("invalid input syntax for type timestamp: \"{value}\""),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_render_as_postgres() {
        let usecs = datetime::parse_timestamp("2024-03-05 14:07:09.123456", false).unwrap_or(0);
        assert_eq!(
            render("YYYY-MM-DD HH24:MI:SS", usecs, None),
            "2024-03-05 14:07:09"
        );
        assert_eq!(
            render("FMMonth FMDDth, YYYY", usecs, None),
            "March 5th, 2024"
        );
        assert_eq!(
            render("Day Mon HH12:MI AM", usecs, None),
            "Tuesday   Mar 02:07 PM"
        );
        assert_eq!(render("\"Q\"Q IW MS US", usecs, None), "Q1 10 123 123456");
    }
}
