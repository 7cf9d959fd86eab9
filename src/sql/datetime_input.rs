//! PostgreSQL's date and time input beyond ISO 8601: `January 8, 1999`,
//! `1/8/1999`, `08-Jan-99`, `19990108`, `1999.008`, `J2451187`, `99 BC`,
//! `10:00 pm`, read as PostgreSQL's `DecodeDateTime` reads them: the text cut
//! into fields, month names first, then each number by what is already known
//! and by the session's `DateStyle` field order (`MDY`, `DMY` or `YMD`), two-
//! digit years taken as 1970-2069, and the date checked last.
//!
//! `sql::datetime` reads the ISO forms litewire stores; this reads what a
//! client may write, and answers in the units `sql::datetime` uses.

use super::datetime::{USECS_PER_DAY, USECS_PER_SEC, civil_from_days, days_from_civil};
use super::time_zone::{Zone, abbreviation};

/// Days from 1970-01-01 to 2000-01-01.
const PG_EPOCH_DAYS: i64 = 10_957;
/// The Julian day number of 1970-01-01.
const UNIX_EPOCH_JULIAN: i64 = 2_440_588;

/// `DateStyle`'s field order for numeric dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DateOrder {
    Mdy,
    Dmy,
    Ymd,
}

impl DateOrder {
    /// The order a `DateStyle` value names (`ISO, MDY`, `German`, `dmy`...).
    pub fn of_style(style: &str) -> DateOrder {
        let style = style.to_ascii_lowercase();
        let has = |word: &str| style.split([',', ' ']).any(|w| w.trim() == word);
        if has("ymd") {
            DateOrder::Ymd
        } else if has("dmy") || has("euro") || has("european") || has("german") {
            DateOrder::Dmy
        } else {
            DateOrder::Mdy
        }
    }
}

/// Why input was refused, as PostgreSQL's `DTERR_*`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputError {
    /// 22007: invalid input syntax.
    BadFormat,
    /// 22008: a field out of range.
    FieldOverflow,
    /// 22008, with the hint that another `DateStyle` may be meant.
    MonthDayOverflow,
    /// 22008: a valid date outside the type's range.
    OutOfRange,
    /// A timestamptz without an offset or zone of its own, read before the
    /// session's zone is known (when a statement is translated).
    SessionZone,
}

/// The Julian day number of 2000-01-01.
const PG_EPOCH_JULIAN: i64 = 2_451_545;

/// Whether a date (days since 2000-01-01) is in `date`'s range, 4714-11-24 BC
/// up to 5874897 AD (`timestamp`'s, to 294276 AD, with `timestamp`).
pub fn in_range(days: i64, timestamp: bool) -> bool {
    let end = if timestamp {
        109_203_528
    } else {
        2_147_483_494
    };
    (0..end).contains(&(days + PG_EPOCH_JULIAN))
}

/// What was read: a date (days since 2000-01-01), a time of day
/// (microseconds), and an offset (seconds east of UTC) or a zone by name.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct DateTime {
    pub date: Option<i64>,
    pub time: Option<i64>,
    pub offset: Option<i64>,
    pub zone: Option<Zone>,
    /// Whether a month was named (`time` refuses a date written so).
    pub named_month: bool,
}

const YEAR: u8 = 1;
const MONTH: u8 = 2;
const DAY: u8 = 4;
const DOY: u8 = 8;
const DATE: u8 = YEAR | MONTH | DAY;

/// The fields read so far.
#[derive(Debug, Default)]
struct Fields {
    mask: u8,
    year: i64,
    month: i64,
    day: i64,
    doy: i64,
    two_digit_year: bool,
    text_month: bool,
    bc: bool,
    julian: Option<i64>,
    time: Option<i64>,
    pm: Option<bool>,
    offset: Option<i64>,
    zone: Option<Zone>,
}

/// A keyword's meaning.
enum Word {
    Month(i64),
    Ignored,
    Bc(bool),
    Meridiem(bool),
    Julian,
    Utc,
}

fn word(text: &str) -> Option<Word> {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    const LONG: [&str; 12] = [
        "january",
        "february",
        "march",
        "april",
        "may",
        "june",
        "july",
        "august",
        "september",
        "october",
        "november",
        "december",
    ];
    const DAYS: [&str; 14] = [
        "sun",
        "mon",
        "tue",
        "wed",
        "thu",
        "fri",
        "sat",
        "sunday",
        "monday",
        "tuesday",
        "wednesday",
        "thursday",
        "friday",
        "saturday",
    ];
    if let Some(i) = MONTHS.iter().chain(&LONG).position(|m| *m == text) {
        return Some(Word::Month(i as i64 % 12 + 1));
    }
    Some(match text {
        "sept" => Word::Month(9),
        // `t` separates an ISO 8601 date from its time.
        "tues" | "wednes" | "thur" | "thurs" | "on" | "at" | "t" => Word::Ignored,
        _ if DAYS.contains(&text) => Word::Ignored,
        "bc" => Word::Bc(true),
        "ad" => Word::Bc(false),
        "am" => Word::Meridiem(false),
        "pm" => Word::Meridiem(true),
        "j" | "jd" | "julian" => Word::Julian,
        "z" | "zulu" | "utc" | "gmt" | "ut" => Word::Utc,
        _ => return None,
    })
}

/// One field of the input, as PostgreSQL's `ParseDateTime` cuts it.
#[derive(Debug, PartialEq)]
enum Token {
    /// Digits with `-`, `/` or `.` between (or a text month): a date.
    Date(String),
    /// Digits with `:`: a time.
    Time(String),
    /// Digits, perhaps with one `.`.
    Number(String),
    Word(String),
    /// `+` or `-` and digits: an offset.
    Zone(String),
}

fn tokens(text: &str) -> Result<Vec<Token>, InputError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let take = |i: &mut usize, keep: &dyn Fn(char) -> bool, buf: &mut String| {
        while *i < chars.len() && keep(chars[*i]) {
            buf.push(chars[*i].to_ascii_lowercase());
            *i += 1;
        }
    };
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let mut field = String::new();
            take(&mut i, &|c| c.is_ascii_digit(), &mut field);
            match chars.get(i) {
                Some(':') => {
                    take(
                        &mut i,
                        &|c| c.is_ascii_digit() || c == ':' || c == '.',
                        &mut field,
                    );
                    out.push(Token::Time(field));
                }
                Some(&delimiter @ ('-' | '/' | '.')) => {
                    field.push(delimiter);
                    i += 1;
                    if chars.get(i).is_some_and(char::is_ascii_digit) {
                        take(&mut i, &|c| c.is_ascii_digit(), &mut field);
                        let mut date = delimiter != '.';
                        if chars.get(i) == Some(&delimiter) {
                            date = true;
                            take(
                                &mut i,
                                &|c| c.is_ascii_digit() || c == delimiter,
                                &mut field,
                            );
                        }
                        out.push(if date {
                            Token::Date(field)
                        } else {
                            Token::Number(field)
                        });
                    } else {
                        take(
                            &mut i,
                            &|c| c.is_alphanumeric() || c == delimiter,
                            &mut field,
                        );
                        out.push(Token::Date(field));
                    }
                }
                _ => out.push(Token::Number(field)),
            }
        } else if c == '.' {
            let mut field = String::from(".");
            i += 1;
            take(&mut i, &|c| c.is_ascii_digit(), &mut field);
            out.push(Token::Number(field));
        } else if c.is_alphabetic() {
            let mut field = String::new();
            take(&mut i, &|c| c.is_alphabetic(), &mut field);
            let next = chars.get(i).copied();
            let is_date = match next {
                Some('-' | '/' | '.') => true,
                Some(d) if d == '+' || d.is_ascii_digit() => word(&field).is_none(),
                _ => false,
            };
            if is_date {
                take(
                    &mut i,
                    &|c| c.is_alphanumeric() || matches!(c, '+' | '-' | '/' | '_' | '.' | ':'),
                    &mut field,
                );
                out.push(Token::Date(field));
            } else {
                out.push(Token::Word(field));
            }
        } else if c == '+' || c == '-' {
            let mut field = String::from(c);
            i += 1;
            while chars.get(i).is_some_and(|c| c.is_whitespace()) {
                i += 1;
            }
            if chars.get(i).is_some_and(char::is_ascii_digit) {
                take(
                    &mut i,
                    &|c| c.is_ascii_digit() || matches!(c, ':' | '.' | '-'),
                    &mut field,
                );
                out.push(Token::Zone(field));
            } else if chars.get(i).is_some_and(|c| c.is_alphabetic()) {
                take(&mut i, &|c| c.is_alphabetic(), &mut field);
                out.push(Token::Word(field));
            } else {
                return Err(InputError::BadFormat);
            }
        } else if c.is_ascii_punctuation() {
            i += 1;
        } else {
            return Err(InputError::BadFormat);
        }
    }
    Ok(out)
}

/// The types date/time input is read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Date,
    Time,
    Timestamp,
    Timestamptz,
}

/// Input read as `target` and written in the form litewire stores (see
/// `sql::datetime`): a timestamptz in UTC, a timestamp without its offset.
///
/// A timestamptz without an offset or zone of its own is the session's local
/// time: `session` is its zone, `None` while it is not known (then
/// [`InputError::SessionZone`]).
pub fn stored(
    text: &str,
    target: Target,
    order: DateOrder,
    session: Option<&Zone>,
) -> Result<String, InputError> {
    let read = read(text, order)?;
    let date = || match read.date {
        Some(days) if in_range(days, target != Target::Date) => Ok(days),
        Some(_) => Err(InputError::OutOfRange),
        None => Err(InputError::BadFormat),
    };
    Ok(match target {
        Target::Date => super::datetime::format_date(date()?),
        Target::Time if read.named_month => return Err(InputError::BadFormat),
        Target::Time => super::datetime::format_time(read.time.ok_or(InputError::BadFormat)?),
        Target::Timestamp | Target::Timestamptz => {
            let with_tz = target == Target::Timestamptz;
            let mut usecs = date()? * USECS_PER_DAY + read.time.unwrap_or(0);
            if with_tz {
                usecs = match (read.offset, &read.zone, session) {
                    (Some(offset), _, _) => usecs - offset * USECS_PER_SEC,
                    (None, Some(zone), _) | (None, None, Some(zone)) => zone.utc_of_local(usecs),
                    (None, None, None) => return Err(InputError::SessionZone),
                };
            }
            super::datetime::format_timestamp(usecs, with_tz)
        }
    })
}

/// Reads date/time input with the session's field order.
pub fn read(text: &str, order: DateOrder) -> Result<DateTime, InputError> {
    let mut f = Fields::default();
    let mut tokens = tokens(text)?.into_iter().peekable();
    while let Some(token) = tokens.next() {
        match token {
            // A zone name (`America/New_York`, `EST5EDT`).
            Token::Date(field) if is_zone_name(&field) => {
                zone_name(&field, &mut f)?;
            }
            Token::Date(field) => {
                if f.mask & DATE == DATE {
                    return Err(InputError::BadFormat);
                }
                date_fields(&field, &mut f, order)?;
            }
            Token::Time(field) => {
                if f.time.is_some() {
                    return Err(InputError::BadFormat);
                }
                f.time = Some(time_field(&field)?);
            }
            Token::Number(field) => number_field(&field, &mut f, order)?,
            Token::Zone(field) => {
                if f.offset.is_some() {
                    return Err(InputError::BadFormat);
                }
                f.offset = Some(offset(&field)?);
            }
            Token::Word(field) if word(&field).is_none() => zone_name(&field, &mut f)?,
            Token::Word(field) => match word(&field).ok_or(InputError::BadFormat)? {
                Word::Month(month) => {
                    if f.text_month {
                        return Err(InputError::BadFormat);
                    }
                    // A number already read as the month was the day; any
                    // other month already read makes two.
                    if f.mask & MONTH != 0 {
                        if f.mask & DAY != 0 || !(1..=31).contains(&f.month) {
                            return Err(InputError::BadFormat);
                        }
                        f.day = f.month;
                        f.mask |= DAY;
                    }
                    f.month = month;
                    f.mask |= MONTH;
                    f.text_month = true;
                }
                Word::Ignored => {}
                Word::Bc(bc) => f.bc = bc,
                Word::Meridiem(pm) => f.pm = Some(pm),
                Word::Julian => {
                    let Some(Token::Number(digits)) = tokens.next() else {
                        return Err(InputError::BadFormat);
                    };
                    let day: i64 = digits.parse().map_err(|_| InputError::BadFormat)?;
                    f.julian = Some(day);
                    f.mask |= DATE;
                }
                Word::Utc => f.offset = Some(0),
            },
        }
    }
    finish(f)
}

/// Whether a date-like token names a zone: it starts with letters that are
/// not a month (`Jan-08-99` is a date).
fn is_zone_name(field: &str) -> bool {
    let letters: String = field.chars().take_while(|c| c.is_alphabetic()).collect();
    !letters.is_empty() && word(&letters).is_none()
}

/// A zone named in the input: an abbreviation (`PST`) is an offset, a zone
/// name's offset is the one it has at the time read.
fn zone_name(name: &str, f: &mut Fields) -> Result<(), InputError> {
    if f.offset.is_some() || f.zone.is_some() {
        return Err(InputError::BadFormat);
    }
    match abbreviation(name) {
        Some(offset) => f.offset = Some(offset),
        None => f.zone = Some(Zone::named(name).ok_or(InputError::BadFormat)?),
    }
    Ok(())
}

/// A date token: its text fields (month names) first, then its numbers.
fn date_fields(text: &str, f: &mut Fields, order: DateOrder) -> Result<(), InputError> {
    let mut parts = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        rest = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
        if rest.is_empty() {
            return Err(InputError::BadFormat);
        }
        let end = match rest.starts_with(|c: char| c.is_ascii_digit()) {
            true => rest.find(|c: char| !c.is_ascii_digit()),
            false => rest.find(|c: char| !c.is_alphabetic()),
        }
        .unwrap_or(rest.len());
        if end == 0 {
            return Err(InputError::BadFormat);
        }
        parts.push(&rest[..end]);
        rest = &rest[end..];
    }
    let mut local = Fields::default();
    for part in parts
        .iter()
        .filter(|p| p.starts_with(|c: char| c.is_alphabetic()))
    {
        match word(part) {
            Some(Word::Month(month)) if local.mask & MONTH == 0 => {
                local.month = month;
                local.mask |= MONTH;
                local.text_month = true;
            }
            Some(Word::Ignored) => {}
            _ => return Err(InputError::BadFormat),
        }
    }
    for part in parts
        .iter()
        .filter(|p| p.starts_with(|c: char| c.is_ascii_digit()))
    {
        number(part, &mut local, order)?;
    }
    if local.mask & !DOY != DATE {
        return Err(InputError::BadFormat);
    }
    f.year = local.year;
    f.month = local.month;
    f.day = local.day;
    f.doy = local.doy;
    f.two_digit_year = local.two_digit_year;
    f.text_month |= local.text_month;
    f.mask |= local.mask;
    Ok(())
}

/// A number token outside a date: a run-together date (`19990108`), a date
/// with a day of year (`1999.008`), or one field.
fn number_field(text: &str, f: &mut Fields, order: DateOrder) -> Result<(), InputError> {
    let dot = text.find('.');
    if dot.is_some() && f.mask & DATE == 0 {
        return date_fields(text, f, order);
    }
    if text.len() >= 6 && dot.is_none() && (f.mask & DATE == 0 || f.time.is_none()) {
        return run_together(text, f);
    }
    number(text, f, order)
}

/// `yymmdd`, `yyyymmdd` (a date), or `hhmmss` (a time once the date is known).
fn run_together(text: &str, f: &mut Fields) -> Result<(), InputError> {
    let n = text.len();
    let at = |from: usize, to: usize| {
        text[from..to]
            .parse::<i64>()
            .map_err(|_| InputError::BadFormat)
    };
    if f.mask & DATE != DATE {
        f.day = at(n - 2, n)?;
        f.month = at(n - 4, n - 2)?;
        f.year = at(0, n - 4)?;
        f.two_digit_year = n - 4 == 2;
        f.mask |= DATE;
        return Ok(());
    }
    if n == 6 && f.time.is_none() {
        let (h, m, s) = (at(0, 2)?, at(2, 4)?, at(4, 6)?);
        f.time = Some(((h * 60 + m) * 60 + s) * USECS_PER_SEC);
        return Ok(());
    }
    Err(InputError::BadFormat)
}

/// One numeric field, placed by what is known already and the field order.
fn number(text: &str, f: &mut Fields, order: DateOrder) -> Result<(), InputError> {
    let value: i64 = text.parse().map_err(|_| InputError::BadFormat)?;
    let len = text.len();
    if len == 3 && f.mask & DATE == YEAR && (1..=366).contains(&value) {
        f.doy = value;
        f.mask |= DOY | MONTH | DAY;
        return Ok(());
    }
    let field = match f.mask & DATE {
        0 if len >= 3 || order == DateOrder::Ymd => YEAR,
        0 if order == DateOrder::Dmy => DAY,
        0 => MONTH,
        YEAR => MONTH,
        MONTH if f.text_month && (len >= 3 || order == DateOrder::Ymd) => YEAR,
        MONTH => DAY,
        m if m == YEAR | MONTH => {
            // DD-MON-YYYY even in YMD order: the first number was the day.
            if f.text_month && len >= 3 && f.two_digit_year {
                f.day = f.year;
                f.year = value;
                f.two_digit_year = false;
                f.mask |= DAY;
                return Ok(());
            }
            DAY
        }
        DAY => MONTH,
        m if m == MONTH | DAY => YEAR,
        _ => return Err(InputError::BadFormat),
    };
    match field {
        YEAR => {
            f.year = value;
            f.two_digit_year = len <= 2;
        }
        MONTH => f.month = value,
        _ => f.day = value,
    }
    f.mask |= field;
    Ok(())
}

/// `hh:mm[:ss[.f]]`.
fn time_field(text: &str) -> Result<i64, InputError> {
    let mut parts = text.split(':');
    let hour: i64 = parts
        .next()
        .unwrap_or("")
        .parse()
        .map_err(|_| InputError::BadFormat)?;
    let minute: i64 = parts
        .next()
        .unwrap_or("")
        .parse()
        .map_err(|_| InputError::BadFormat)?;
    let seconds: f64 = match parts.next() {
        Some(s) => s.parse().map_err(|_| InputError::BadFormat)?,
        None => 0.0,
    };
    if parts.next().is_some() {
        return Err(InputError::BadFormat);
    }
    let usecs = (seconds * USECS_PER_SEC as f64).round() as i64;
    if hour < 0 || !(0..60).contains(&minute) || !(0..=60 * USECS_PER_SEC).contains(&usecs) {
        return Err(InputError::FieldOverflow);
    }
    let time = (hour * 60 + minute) * 60 * USECS_PER_SEC + usecs;
    if time > USECS_PER_DAY {
        return Err(InputError::FieldOverflow);
    }
    Ok(time)
}

/// `±hh[[:]mm[[:]ss]]`, in seconds east of UTC.
fn offset(text: &str) -> Result<i64, InputError> {
    let (sign, digits) = text.split_at(1);
    let sign = if sign == "-" { -1 } else { 1 };
    let parts: Vec<&str> = match digits.contains(':') {
        true => digits.split(':').collect(),
        false if digits.len() > 2 => {
            let (h, rest) = digits.split_at(digits.len() - 2);
            vec![h, rest]
        }
        false => vec![digits],
    };
    let mut seconds = 0;
    for (part, scale) in parts.iter().zip([3600, 60, 1]) {
        let n: i64 = part.parse().map_err(|_| InputError::BadFormat)?;
        if scale != 3600 && n > 59 {
            return Err(InputError::FieldOverflow);
        }
        seconds += n * scale;
    }
    if seconds > 15 * 3600 + 59 * 60 {
        return Err(InputError::FieldOverflow);
    }
    Ok(sign * seconds)
}

/// The year adjusted (BC, two digits), the date checked.
fn finish(mut f: Fields) -> Result<DateTime, InputError> {
    let mut out = DateTime {
        offset: f.offset,
        zone: f.zone.take(),
        named_month: f.text_month,
        ..DateTime::default()
    };
    if let Some(mut time) = f.time {
        if let Some(pm) = f.pm {
            let hour = time / (3600 * USECS_PER_SEC);
            if !(1..=12).contains(&hour) {
                return Err(InputError::FieldOverflow);
            }
            if hour == 12 {
                time -= 12 * 3600 * USECS_PER_SEC;
            }
            if pm {
                time += 12 * 3600 * USECS_PER_SEC;
            }
        }
        out.time = Some(time);
    }
    if let Some(julian) = f.julian {
        out.date = Some(julian - UNIX_EPOCH_JULIAN - PG_EPOCH_DAYS);
        return Ok(out);
    }
    if f.mask == 0 {
        return Ok(out);
    }
    if f.mask & YEAR != 0 {
        if f.bc {
            if f.year <= 0 {
                return Err(InputError::FieldOverflow);
            }
            f.year = 1 - f.year;
        } else if f.two_digit_year {
            f.year += match f.year {
                y if y < 70 => 2000,
                y if y < 100 => 1900,
                _ => 0,
            };
        } else if f.year <= 0 {
            return Err(InputError::FieldOverflow);
        }
    }
    if f.mask & DOY != 0 {
        let days = days_from_civil(f.year, 1, 1) + f.doy - 1;
        let (year, month, day) = civil_from_days(days);
        (f.year, f.month, f.day) = (year, i64::from(month), i64::from(day));
    }
    if (f.mask & MONTH != 0 && !(1..=12).contains(&f.month))
        || (f.mask & DAY != 0 && !(1..=31).contains(&f.day))
    {
        return Err(InputError::MonthDayOverflow);
    }
    if f.mask & DATE != DATE {
        return Err(InputError::BadFormat);
    }
    let (month, day) = (f.month as u32, f.day as u32);
    let days = days_from_civil(f.year, month, day);
    if civil_from_days(days) != (f.year, month, day) {
        return Err(InputError::FieldOverflow);
    }
    out.date = Some(days - PG_EPOCH_DAYS);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(text: &str, order: DateOrder) -> Result<(i64, u32, u32), InputError> {
        let read = read(text, order)?;
        Ok(civil_from_days(
            read.date.ok_or(InputError::BadFormat)? + PG_EPOCH_DAYS,
        ))
    }

    #[test]
    fn dates_read_in_every_documented_form() {
        use DateOrder::*;
        let jan8 = Ok((1999, 1, 8));
        assert_eq!(date("January 8, 1999", Ymd), jan8);
        assert_eq!(date("1/8/1999", Mdy), jan8);
        assert_eq!(date("8/1/1999", Dmy), jan8);
        assert_eq!(date("19990108", Mdy), jan8);
        assert_eq!(date("990108", Mdy), jan8);
        assert_eq!(date("1999.008", Mdy), jan8);
        assert_eq!(date("J2451187", Mdy), jan8);
        assert_eq!(date("99-Jan-08", Ymd), jan8);
        assert_eq!(date("08-Jan-99", Dmy), jan8);
        assert_eq!(date("08-Jan-1999", Ymd), jan8);
        assert_eq!(date("Jan-08-99", Mdy), jan8);
        assert_eq!(date("1999 Jan 08", Mdy), jan8);
        assert_eq!(date("January 8, 99 BC", Mdy), Ok((-98, 1, 8)));
        assert_eq!(date("01/02/03", Ymd), Ok((2001, 2, 3)));
        assert_eq!(date("1/18/1999", Dmy), Err(InputError::MonthDayOverflow));
        assert_eq!(date("1999-02-30", Ymd), Err(InputError::FieldOverflow));
        assert_eq!(date("1999 08 Jan", Ymd), jan8);
        assert_eq!(date("99 08 Jan", Dmy), Err(InputError::BadFormat));
    }
}
