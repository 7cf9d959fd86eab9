//! Values fitted to their type's modifier, for the PostgreSQL port's
//! translation: `litewire_fit(value, kind, first, second, explicit)`. SQLite
//! keeps whatever it is given; PostgreSQL cuts a `varchar(n)` or `char(n)`
//! value in an explicit cast and refuses a longer one in a column (22001)
//! unless only spaces are cut, and rounds a `numeric(p, s)` to `s` decimals,
//! half away from zero, refusing a value that then needs more than `p`
//! digits (22003). Rounding works on the decimal digits, not the float: a
//! stored `1.005` is `1.01` in `numeric(4, 2)`, as in PostgreSQL. Date-time
//! types round their seconds to their digits; an interval type is also cut
//! to its fields (`interval hour to minute` drops the seconds).

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;

pub(super) const FUNCTIONS: &[Function] = &[Function::helper(
    "litewire_fit",
    Args::Fixed(&["any", "text", "int4", "int4", "int4"]),
    Volatility::Immutable,
    fit,
)];

fn fit(_: &Call, args: &[Arg]) -> Out {
    let (Arg::Text(kind), Some(first), Some(second), Some(explicit)) =
        (&args[1], args[2].int(), args[3].int(), args[4].int())
    else {
        return Out::Null;
    };
    let value = &args[0];
    match *kind {
        _ if *value == Arg::Null => Out::Null,
        "varchar" | "bpchar" => fit_length(
            value,
            kind,
            usize::try_from(first).unwrap_or(0),
            explicit != 0,
        ),
        "numeric" => fit_numeric(
            value,
            i32::try_from(first).unwrap_or(0),
            i32::try_from(second).unwrap_or(0),
        ),
        "timestamp" | "timestamptz" | "time" => fit_precision(value, kind, first),
        "interval" => fit_interval(value, first),
        _ => Out::Error(format!("unknown type modifier {kind}")),
    }
}

/// An interval type with fields or digits (given as its `atttypmod`): the
/// value, read in the type's fields (a bare `5` counts the last field's
/// units, as PostgreSQL reads text given to the type), cut to its last field
/// and rounded to its digits; text that reads as no interval is 22007.
fn fit_interval(value: &Arg, typmod: i64) -> Out {
    use crate::sql::interval_fields::IntervalFields;
    let (Some(text), Some(fields)) = (value.text(), IntervalFields::from_typmod(typmod)) else {
        return value.unchanged();
    };
    match fields.read(&text) {
        Ok(interval) => Out::Text(interval.format()),
        Err(_) => Out::Fail(
            SqlState::INVALID_DATETIME_FORMAT,
            format!("invalid input syntax for type interval: \"{text}\""),
        ),
    }
}

/// `timestamp(p)`, `timestamptz(p)`, `time(p)`: rounded to `digits`
/// fractional digits of seconds, half away from zero, as PostgreSQL rounds
/// them (text that reads as no such value stays as it is, for the column's
/// own check).
fn fit_precision(value: &Arg, kind: &str, digits: i64) -> Out {
    use crate::sql::datetime::{
        format_time, format_timestamp, parse_time, parse_timestamp, round_to_digits,
    };
    let Some(text) = value.text() else {
        return Out::Null;
    };
    let with_tz = kind == "timestamptz";
    let usecs = match kind {
        "time" => parse_time(&text),
        _ => parse_timestamp(&text, with_tz),
    };
    let (Some(usecs), Ok(digits)) = (usecs, u32::try_from(digits.clamp(0, 6))) else {
        return value.unchanged();
    };
    if digits == 6
        || text.eq_ignore_ascii_case("infinity")
        || text.eq_ignore_ascii_case("-infinity")
    {
        return value.unchanged();
    }
    let rounded = round_to_digits(usecs, digits);
    Out::Text(match kind {
        // A time rounded up past midnight is 24:00:00, as in PostgreSQL.
        "time" if rounded >= 86_400_000_000 => "24:00:00".to_owned(),
        "time" => format_time(rounded),
        _ => format_timestamp(rounded, with_tz),
    })
}

/// `varchar(n)`, `char(n)`: at most `length` characters.
fn fit_length(value: &Arg, kind: &str, length: usize, explicit: bool) -> Out {
    let Some(text) = value.text() else {
        return Out::Null;
    };
    let Some((cut, _)) = text.char_indices().nth(length) else {
        return value.unchanged();
    };
    if explicit || text[cut..].bytes().all(|b| b == b' ') {
        return Out::Text(text[..cut].to_owned());
    }
    Out::Fail(
        SqlState::parse("22001").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
        match kind {
            "bpchar" => format!("value too long for type character({length})"),
            _ => format!("value too long for type character varying({length})"),
        },
    )
}

/// `numeric(precision, scale)`: rounded to `scale` decimals (a negative
/// scale rounds to tens, hundreds, ...), refused unless its absolute value is
/// then below 10^(precision - scale).
fn fit_numeric(value: &Arg, precision: i32, scale: i32) -> Out {
    let digits = match value {
        Arg::Int(i) => i.to_string(),
        // The shortest decimal that reads back as the float: what was written.
        Arg::Real(f) if f.is_finite() => format!("{f}"),
        Arg::Real(f) if f.is_nan() => return value.unchanged(),
        Arg::Real(_) => return overflow(),
        Arg::Text(text) => match text.trim().parse::<f64>() {
            Ok(f) if f.is_nan() => return value.unchanged(),
            Ok(f) if f.is_finite() && !text.contains(['e', 'E']) => text.trim().to_owned(),
            Ok(f) if f.is_finite() => format!("{f}"),
            Ok(_) => return overflow(),
            Err(_) => return value.unchanged(),
        },
        _ => return value.unchanged(),
    };
    let rounded = round_decimal(&digits, scale);
    if magnitude(&rounded).is_some_and(|m| m >= precision - scale) {
        return overflow();
    }
    match (scale <= 0, rounded.parse::<i64>()) {
        (true, Ok(i)) => Out::Int(i),
        _ => rounded
            .parse::<f64>()
            .map_or_else(|_| value.unchanged(), Out::Real),
    }
}

/// The power of ten of a decimal's first significant digit (`123.4` is 2,
/// `0.05` is -2); `None` for zero.
fn magnitude(decimal: &str) -> Option<i32> {
    let unsigned = decimal.trim_start_matches(['-', '+']);
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let whole = whole.trim_start_matches('0');
    if !whole.is_empty() {
        return i32::try_from(whole.len()).ok().map(|n| n - 1);
    }
    let zeros = fraction.bytes().position(|b| b != b'0')?;
    i32::try_from(zeros).ok().map(|n| -n - 1)
}

fn overflow() -> Out {
    Out::Fail(
        SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
        "numeric field overflow".into(),
    )
}

/// A decimal number's text rounded to `scale` decimals, half away from zero
/// (`-1.005` to 2 is `-1.01`; `1250` to -2 is `1300`).
fn round_decimal(text: &str, scale: i32) -> String {
    let (sign, unsigned) = match text.strip_prefix('-') {
        Some(rest) => ("-", rest),
        None => ("", text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let kept_fraction = usize::try_from(scale).unwrap_or(0);
    if scale >= 0 && fraction.len() <= kept_fraction {
        return format!(
            "{sign}{whole}{}{fraction}",
            if fraction.is_empty() { "" } else { "." }
        );
    }
    // The digits, with enough leading zeros that the first dropped one exists.
    let dropped_whole = usize::try_from(-scale).unwrap_or(0);
    let mut digits: Vec<u8> = std::iter::repeat_n(b'0', dropped_whole + 1)
        .chain(whole.bytes())
        .chain(fraction.bytes())
        .collect();
    let point = dropped_whole + 1 + whole.len();
    let cut = point + kept_fraction - dropped_whole;
    let round_up = digits.get(cut).is_some_and(|d| *d >= b'5');
    digits.truncate(cut);
    if round_up {
        // Carry from the last kept digit up; the leading zero takes the last.
        for digit in digits.iter_mut().rev() {
            if *digit == b'9' {
                *digit = b'0';
            } else {
                *digit += 1;
                break;
            }
        }
    }
    digits.resize(point.max(cut), b'0');
    let whole = String::from_utf8_lossy(&digits[..point]);
    let whole = whole.trim_start_matches('0');
    let whole = if whole.is_empty() { "0" } else { whole };
    match kept_fraction {
        0 => format!("{sign}{whole}"),
        _ => format!(
            "{sign}{whole}.{}",
            String::from_utf8_lossy(&digits[point..])
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    fn run(value: Arg, kind: &str, first: i64, second: i64, explicit: bool) -> Out {
        call(
            fit,
            &[
                value,
                Arg::Text(kind),
                Arg::Int(first),
                Arg::Int(second),
                Arg::Int(i64::from(explicit)),
            ],
        )
    }

    #[test]
    fn decimals_round_half_away_from_zero() {
        assert_eq!(round_decimal("1.005", 2), "1.01");
        assert_eq!(round_decimal("-1.005", 2), "-1.01");
        assert_eq!(round_decimal("9.995", 2), "10.00");
        assert_eq!(round_decimal("0.5", 0), "1");
        assert_eq!(round_decimal(".4", 0), "0");
        assert_eq!(round_decimal("12", 2), "12");
        assert_eq!(round_decimal("1250", -2), "1300");
        assert_eq!(round_decimal("-1249.9", -2), "-1200");
        assert_eq!(round_decimal("99.5", -2), "100");
        assert_eq!(round_decimal("0.00123", 5), "0.00123");
        assert_eq!(round_decimal("0.001235", 5), "0.00124");
    }

    #[test]
    fn numerics_fit_their_precision_and_scale() {
        assert_eq!(
            run(Arg::Real(1.005), "numeric", 4, 2, false),
            Out::Real(1.01)
        );
        assert_eq!(run(Arg::Int(99), "numeric", 4, 2, false), Out::Real(99.0));
        assert_eq!(run(Arg::Real(2.5), "numeric", 3, 0, false), Out::Int(3));
        assert!(matches!(
            run(Arg::Real(123.4), "numeric", 4, 2, false),
            Out::Fail(..)
        ));
        assert!(matches!(
            run(Arg::Real(99.999), "numeric", 4, 2, false),
            Out::Fail(..)
        ));
        assert_eq!(run(Arg::Null, "numeric", 4, 2, false), Out::Null);
        assert_eq!(
            run(Arg::Int(12345), "numeric", 4, -2, false),
            Out::Int(12300)
        );
        assert!(matches!(
            run(Arg::Int(999_950), "numeric", 4, -2, false),
            Out::Fail(..)
        ));
        assert_eq!(
            run(Arg::Real(0.00099), "numeric", 2, 5, false),
            Out::Real(0.00099)
        );
        assert!(matches!(
            run(Arg::Real(0.00123), "numeric", 2, 5, false),
            Out::Fail(..)
        ));
    }

    #[test]
    fn lengths_cut_or_refuse() {
        assert_eq!(
            run(Arg::Text("abcd"), "varchar", 2, 0, true),
            Out::Text("ab".into())
        );
        assert!(matches!(
            run(Arg::Text("abcd"), "bpchar", 3, 0, false),
            Out::Fail(..)
        ));
        assert_eq!(
            run(Arg::Text("abc  "), "varchar", 3, 0, false),
            Out::Text("abc".into())
        );
        assert_eq!(
            run(Arg::Text("éé"), "varchar", 2, 0, false),
            Out::Text("éé".into())
        );
    }
}
