//! `to_date(text, format)` and `to_timestamp(text, format)`: a date or time
//! read by `to_char`'s template patterns (`YYYY`, `YY`, `MM`, `DD`, `DDD`,
//! `HH24`, `HH12`, `MI`, `SS`, `MS`, `US`, `FF1`-`FF6`, `AM`/`PM`, month and
//! day names, `J`, `TZH`, `TZM`, `FM`, quoted text), as PostgreSQL reads
//! them when not in `FX` mode: a separator in the format skips any run of
//! separators and spaces in the text, a number is read up to the pattern's
//! width or the next non-digit.

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use super::formatting::{DAYS, MONTHS};
use crate::error::SqlState;
use crate::sql::datetime::{
    PG_EPOCH_DAYS, USECS_PER_DAY, USECS_PER_SEC, days_from_civil, days_in_month, format_date,
    format_timestamp,
};

pub(super) const FUNCTIONS: &[Function] = &[Function::helper(
    "litewire_parse_date",
    Args::Fixed(&["text", "text", "bool"]),
    Volatility::Immutable,
    parse,
)];

/// The numeric patterns, longest first where one starts another, with the
/// most digits each reads.
const NUMBERS: &[(&str, usize)] = &[
    ("YYYY", 4),
    ("Y,YYY", 5),
    ("YYY", 3),
    ("YY", 2),
    ("Y", 1),
    ("HH24", 2),
    ("HH12", 2),
    ("HH", 2),
    ("MI", 2),
    ("SSSSS", 5),
    ("SSSS", 5),
    ("SS", 2),
    ("MS", 3),
    ("US", 6),
    ("FF1", 1),
    ("FF2", 2),
    ("FF3", 3),
    ("FF4", 4),
    ("FF5", 5),
    ("FF6", 6),
    ("DDD", 3),
    ("DD", 2),
    ("MM", 2),
    ("J", 8),
    ("TZH", 3),
    ("TZM", 2),
    ("CC", 2),
];

/// What the text said, field by field.
#[derive(Default)]
struct Fields {
    year: Option<i64>,
    /// Two or three digits of a year, completed as PostgreSQL completes them.
    short_year: Option<(i64, usize)>,
    month: Option<u32>,
    day: Option<u32>,
    day_of_year: Option<u32>,
    julian: Option<i64>,
    hour: i64,
    twelve_hour: bool,
    pm: Option<bool>,
    minute: i64,
    second: i64,
    micros: i64,
    offset_minutes: i64,
    /// Whether the text gave an offset (`TZH`, `TZM`); else it is the
    /// session's local time.
    zoned: bool,
}

fn out_of_range(text: &str) -> Out {
    Out::Fail(
        SqlState::parse("22008").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
        format!("date/time field value out of range: \"{text}\""),
    )
}

fn bad_input(message: String) -> Out {
    Out::Fail(SqlState::INVALID_DATETIME_FORMAT, message)
}

/// `litewire_parse_date(text, format, timestamp)`: a date, or (for
/// `to_timestamp`) a timestamptz, read as the session's local time where the
/// text gives no offset.
fn parse(call: &Call, args: &[Arg]) -> Out {
    let (Some(text), Some(format)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    let timestamp = matches!(args[2], Arg::Int(1));
    let fields = match read(&text, &format) {
        Ok(fields) => fields,
        Err(out) => return out,
    };
    let year = match (fields.year, fields.short_year) {
        (Some(year), _) => year,
        (None, Some((short, 2))) => short + if short < 70 { 2000 } else { 1900 },
        (None, Some((short, _))) => short + if short < 100 { 2000 } else { 1000 },
        (None, None) => 1,
    };
    let days = if let Some(julian) = fields.julian {
        // Julian day 2451545 is 2000-01-01.
        julian - 2_451_545
    } else if let Some(day_of_year) = fields.day_of_year.filter(|_| fields.month.is_none()) {
        let leap = days_in_month(year, 2) == 29;
        if day_of_year == 0 || day_of_year > if leap { 366 } else { 365 } {
            return out_of_range(&text);
        }
        days_from_civil(year, 1, 1) - PG_EPOCH_DAYS + i64::from(day_of_year) - 1
    } else {
        let month = fields.month.unwrap_or(1);
        let day = fields.day.unwrap_or(1);
        if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
            return out_of_range(&text);
        }
        days_from_civil(year, month, day) - PG_EPOCH_DAYS
    };
    if !timestamp {
        return Out::Text(format_date(days));
    }
    let mut hour = fields.hour;
    if fields.twelve_hour || fields.pm.is_some() {
        if !(1..=12).contains(&hour) {
            return bad_input(format!("hour \"{hour}\" is invalid for the 12-hour clock"));
        }
        hour %= 12;
        if fields.pm == Some(true) {
            hour += 12;
        }
    }
    if hour > 24 || fields.minute > 59 || fields.second > 60 {
        return out_of_range(&text);
    }
    let seconds = hour * 3600 + fields.minute * 60 + fields.second - fields.offset_minutes * 60;
    let usecs = days * USECS_PER_DAY + seconds * USECS_PER_SEC + fields.micros;
    let usecs = match call.time_zone().filter(|_| !fields.zoned) {
        Some(zone) => zone.utc_of_local(usecs),
        None => usecs,
    };
    Out::Text(format_timestamp(usecs, true))
}

/// The fields `text` gives by `format`.
fn read(text: &str, format: &str) -> Result<Fields, Out> {
    let mut fields = Fields::default();
    let mut input = text;
    let mut rest = format;
    let mut offset_sign = 1;
    while !rest.is_empty() {
        if let Some(after) = strip(rest, "FM") {
            rest = after;
            continue;
        }
        if let Some(after) = rest.strip_prefix('"') {
            let end = after.find('"').unwrap_or(after.len());
            let literal = &after[..end];
            // Each character of quoted text skips one of the input.
            let skip: usize = input
                .chars()
                .take(literal.chars().count())
                .map(char::len_utf8)
                .sum();
            input = &input[skip..];
            rest = after.get(end + 1..).unwrap_or("");
            continue;
        }
        if let Some((pattern, width)) = NUMBERS.iter().find(|(p, _)| strip(rest, p).is_some()) {
            rest = &rest[pattern.len()..];
            input = input.trim_start_matches(' ');
            let mut value_text = String::new();
            let mut consumed = 0;
            let negative = *pattern == "TZH" && (input.starts_with('-') || input.starts_with('+'));
            if negative {
                offset_sign = if input.starts_with('-') { -1 } else { 1 };
                consumed = 1;
            }
            for c in input[consumed..].chars() {
                if value_text.len() == *width
                    || !(c.is_ascii_digit() || (c == ',' && *pattern == "Y,YYY"))
                {
                    break;
                }
                if c != ',' {
                    value_text.push(c);
                }
                consumed += 1;
            }
            // A year read by YYYY takes more digits when they run on.
            if *pattern == "YYYY" {
                for c in input[consumed..].chars() {
                    if !c.is_ascii_digit()
                        || !rest.starts_with(|f: char| !f.is_ascii_alphanumeric())
                    {
                        break;
                    }
                    value_text.push(c);
                    consumed += 1;
                }
            }
            if value_text.is_empty() {
                return Err(bad_input(format!(
                    "invalid value \"{}\" for \"{pattern}\"",
                    input.chars().take(*width).collect::<String>()
                )));
            }
            let value: i64 = value_text.parse().unwrap_or(0);
            let digits = value_text.len();
            input = &input[consumed..];
            match *pattern {
                "YYYY" | "Y,YYY" => fields.year = Some(value),
                "YYY" | "YY" | "Y" => fields.short_year = Some((value, digits)),
                "HH24" => fields.hour = value,
                "HH12" | "HH" => {
                    fields.hour = value;
                    fields.twelve_hour = true;
                }
                "MI" => fields.minute = value,
                "SS" => fields.second = value,
                "SSSS" | "SSSSS" => {
                    fields.hour = value / 3600;
                    fields.minute = value / 60 % 60;
                    fields.second = value % 60;
                }
                "MS" => fields.micros = value * 10_i64.pow(3 - digits as u32) * 1000,
                "US" | "FF1" | "FF2" | "FF3" | "FF4" | "FF5" | "FF6" => {
                    fields.micros = value * 10_i64.pow(6 - digits as u32);
                }
                "DDD" => fields.day_of_year = u32::try_from(value).ok(),
                "DD" => fields.day = u32::try_from(value).ok(),
                "MM" => fields.month = u32::try_from(value).ok(),
                "J" => fields.julian = Some(value),
                "TZH" => {
                    fields.offset_minutes += offset_sign * value * 60;
                    fields.zoned = true;
                }
                "TZM" => {
                    fields.offset_minutes += offset_sign * value;
                    fields.zoned = true;
                }
                _ => {}
            }
            continue;
        }
        if let Some(after) = ["A.M.", "P.M.", "AM", "PM"]
            .iter()
            .find_map(|p| strip(rest, p))
        {
            let word = &rest[..rest.len() - after.len()];
            rest = after;
            input = input.trim_start_matches(' ');
            let upper: String = input
                .chars()
                .take(word.len())
                .collect::<String>()
                .to_ascii_uppercase();
            fields.pm = match upper.as_str() {
                "AM" | "A.M." => Some(false),
                "PM" | "P.M." => Some(true),
                _ => {
                    return Err(bad_input(format!(
                        "invalid value \"{upper}\" for \"{word}\""
                    )));
                }
            };
            input = &input[upper.len()..];
            continue;
        }
        if let Some((after, full)) = [("MONTH", true), ("MON", false)]
            .iter()
            .find_map(|(p, full)| strip(rest, p).map(|a| (a, *full)))
        {
            rest = after;
            input = input.trim_start_matches(' ');
            let found = MONTHS.iter().enumerate().find_map(|(i, name)| {
                let wanted = if full { name } else { &name[..3] };
                strip(input, wanted).map(|_| (i, wanted.len()))
            });
            let Some((month, len)) = found else {
                return Err(bad_input(format!(
                    "invalid value \"{}\" for \"MON\"",
                    input.chars().take(3).collect::<String>()
                )));
            };
            fields.month = Some(month as u32 + 1);
            input = &input[len..];
            continue;
        }
        if let Some((after, full)) = [("DAY", true), ("DY", false)]
            .iter()
            .find_map(|(p, full)| strip(rest, p).map(|a| (a, *full)))
        {
            rest = after;
            input = input.trim_start_matches(' ');
            let len = DAYS
                .iter()
                .map(|name| if full { *name } else { &name[..3] })
                .find(|wanted| strip(input, wanted).is_some())
                .map_or(0, str::len);
            input = &input[len..];
            continue;
        }
        // A letter or digit in the format skips one character of the text;
        // a separator or space skips the run of them there is (if any).
        let c = rest.chars().next().unwrap_or(' ');
        rest = &rest[c.len_utf8()..];
        if c.is_ascii_alphanumeric() {
            input = input.get(1..).unwrap_or("");
        } else {
            let skipped = input.trim_start_matches(|i: char| !i.is_ascii_alphanumeric());
            // The sign of an offset read next stays.
            let kept = input[..input.len() - skipped.len()].ends_with(['+', '-'])
                && strip(rest, "TZH").is_some();
            input = &input[input.len() - skipped.len() - usize::from(kept)..];
        }
    }
    Ok(fields)
}

/// `text` after `pattern`, matched without regard to case.
fn strip<'t>(text: &'t str, pattern: &str) -> Option<&'t str> {
    let head = text.get(..pattern.len())?;
    head.eq_ignore_ascii_case(pattern)
        .then(|| &text[pattern.len()..])
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::{call, text};
    use super::*;

    fn parsed(value: &str, format: &str, timestamp: bool) -> String {
        text(call(
            parse,
            &[
                Arg::Text(value),
                Arg::Text(format),
                Arg::Int(i64::from(timestamp)),
            ],
        ))
    }

    #[test]
    fn templates_read_dates_and_times() {
        assert_eq!(parsed("20100309", "YYYYMMDD", false), "2010-03-09");
        assert_eq!(parsed("05 Dec 2000", "DD Mon YYYY", false), "2000-12-05");
        assert_eq!(parsed("2024-1-5", "YYYY-MM-DD", false), "2024-01-05");
        assert_eq!(parsed("15/03/99", "DD/MM/YY", false), "1999-03-15");
        assert_eq!(
            parsed("2011-12-18 11:38 PM", "YYYY-MM-DD HH12:MI PM", true),
            "2011-12-18 23:38:00+00"
        );
        assert_eq!(
            parsed("2011-12-18 23:38:15.25", "YYYY-MM-DD HH24:MI:SS.MS", true),
            "2011-12-18 23:38:15.25+00"
        );
    }
}
