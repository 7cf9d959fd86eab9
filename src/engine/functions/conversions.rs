//! Casts as PostgreSQL makes them, for the PostgreSQL port's translation:
//! `litewire_cast(value, from, to)`. SQLite's `CAST` reads `'abc'` as 0 and
//! `'1e3'` as 1000 and truncates 1.5 to 1; PostgreSQL refuses the first two
//! (22P02), rounds the third, checks the range of every integer type (22003)
//! and reads booleans as `'TrUe'`, `' yes '`, `'1'`. `from` tells how the
//! stored value is to be read (a boolean is stored as 0 or 1, a float is
//! rounded half to even, a numeric half away from zero); `unknown` reads it by
//! its storage class. A boolean array becomes a text array of `true` and
//! `false`, as each element's cast to text.

use super::arrays::{format_array, parse_array};
use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::engine::value::write_float8;
use crate::error::SqlState;
use crate::sql::interval::Interval;
use crate::sql::quote::parse_bool;

pub(super) const FUNCTIONS: &[Function] = &[Function::helper(
    "litewire_cast",
    Args::Fixed(&["any", "text", "text"]),
    Volatility::Immutable,
    cast,
)];

fn fail(code: &str, message: String) -> Out {
    Out::Fail(
        SqlState::parse(code).unwrap_or(SqlState::INVALID_TEXT_REPRESENTATION),
        message,
    )
}

fn invalid(ty: &str, text: &str) -> Out {
    fail(
        "22P02",
        format!("invalid input syntax for type {ty}: \"{text}\""),
    )
}

/// PostgreSQL's name of a type in its messages.
fn display(ty: &str) -> &str {
    match ty {
        "int2" => "smallint",
        "int4" => "integer",
        "int8" => "bigint",
        "float4" => "real",
        "float8" => "double precision",
        "bool" => "boolean",
        other => other,
    }
}

fn cast(call: &Call, args: &[Arg]) -> Out {
    let (Arg::Text(from), Arg::Text(to)) = (&args[1], &args[2]) else {
        return Out::Null;
    };
    let value = &args[0];
    if *value == Arg::Null {
        return Out::Null;
    }
    if *from == "bool[]" && matches!(*to, "text[]" | "varchar[]" | "bpchar[]" | "name[]") {
        return bool_array_as_text(value);
    }
    if let Some(out) = super::zoned::date_time_cast(call, value, from, to) {
        return out;
    }
    match *to {
        "int2" | "int4" | "int8" | "oid" => to_integer(value, from, to),
        "bool" => to_bool(value, from),
        "numeric" | "float4" | "float8" => to_number(value, to),
        "text" | "varchar" | "bpchar" | "name" => to_text(value, from),
        // A text is bytea's input: hex (`\x0102`) or the escape format.
        "bytea" => match value {
            Arg::Text(text) => match crate::sql::postgres::bytea_from_text(text) {
                Ok(bytes) => Out::Blob(bytes),
                Err((state, message)) => Out::Fail(state, message),
            },
            _ => value.unchanged(),
        },
        "jsonb" => match value.text().map(|t| (crate::sql::jsonb::normalize(&t), t)) {
            Some((Ok(normalized), _)) => Out::Text(normalized),
            Some((Err(_), text)) => invalid("json", &text),
            None => Out::Null,
        },
        "interval" => match value.text().map(|t| (Interval::parse(&t), t)) {
            Some((Ok(interval), _)) => Out::Text(interval.format()),
            Some((Err(_), text)) => fail(
                "22007",
                format!("invalid input syntax for type interval: \"{text}\""),
            ),
            None => Out::Null,
        },
        _ => value.unchanged(),
    }
}

/// A stored boolean array (elements 1 and 0) with each element as text.
fn bool_array_as_text(value: &Arg) -> Out {
    let text = value.display();
    let Some(items) = parse_array(&text) else {
        return invalid("boolean[]", &text);
    };
    let items: Vec<Option<String>> = items
        .into_iter()
        .map(|item| {
            item.map(|element| match parse_bool(&element) {
                Some(b) => b.to_string(),
                None => element,
            })
        })
        .collect();
    Out::Text(format_array(&items))
}

fn range(ty: &str) -> (i64, i64) {
    match ty {
        "int2" => (i64::from(i16::MIN), i64::from(i16::MAX)),
        "int4" => (i64::from(i32::MIN), i64::from(i32::MAX)),
        "oid" => (0, i64::from(u32::MAX)),
        _ => (i64::MIN, i64::MAX),
    }
}

fn out_of_range(ty: &str) -> Out {
    let message = match ty {
        "int2" => "smallint out of range",
        "int8" => "bigint out of range",
        "oid" => "OID out of range",
        _ => "integer out of range",
    };
    fail("22003", message.to_owned())
}

fn to_integer(value: &Arg, from: &str, to: &str) -> Out {
    let (min, max) = range(to);
    let n = match value {
        Arg::Int(i) => *i,
        // A numeric NaN or infinity has no integer (a float's is out of range).
        Arg::Real(f) if from == "numeric" && !f.is_finite() => {
            let what = if f.is_nan() { "NaN" } else { "infinity" };
            return fail("0A000", format!("cannot convert {what} to {}", display(to)));
        }
        Arg::Real(f) => {
            // float4/float8 round half to even (`rint`), numeric half away
            // from zero.
            let rounded = match from {
                "float4" | "float8" => f.round_ties_even(),
                _ => f.round(),
            };
            // `max + 1` is a power of two, exact as a float (`max` itself may
            // not be: int8's rounds up to 2^63).
            if !rounded.is_finite() || rounded < min as f64 || rounded >= max as f64 + 1.0 {
                return out_of_range(to);
            }
            rounded as i64
        }
        Arg::Text(s) => match from {
            "numeric" => match (decimal_rounded(s.trim()), s.trim().parse::<f64>()) {
                (Some(n), _) if n < i128::from(min) || n > i128::from(max) => {
                    return out_of_range(to);
                }
                (Some(n), _) => n as i64,
                (None, Ok(f)) => return to_integer(&Arg::Real(f), from, to),
                (None, Err(_)) => return invalid(display(to), s),
            },
            _ => match integer_input(s) {
                Some(Ok(n)) => n,
                Some(Err(())) => return out_of_range(to),
                None => return invalid(display(to), s),
            },
        },
        Arg::Blob(_) | Arg::Null => return invalid(display(to), &value.display()),
    };
    if n < min || n > max {
        return out_of_range(to);
    }
    Out::Int(n)
}

/// A numeric's text (`-12.5`) rounded half away from zero to an integer,
/// exactly however many digits it has; `None` for another form (an
/// exponent, `NaN`) or beyond `i128`.
fn decimal_rounded(text: &str) -> Option<i128> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text.strip_prefix('+').unwrap_or(text)),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !all_digits(whole) || !all_digits(fraction) {
        return None;
    }
    let mut n: i128 = if whole.is_empty() {
        0
    } else {
        whole.parse().ok()?
    };
    if fraction.as_bytes().first().is_some_and(|&d| d >= b'5') {
        n = n.checked_add(1)?;
    }
    Some(if negative { -n } else { n })
}

/// PostgreSQL's integer input: white space, a sign, digits, white space.
/// `None`: not an integer; `Some(Err)`: out of range of int8.
fn integer_input(text: &str) -> Option<Result<i64, ()>> {
    let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let digits = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(trimmed.trim_start_matches('+').parse::<i64>().map_err(drop))
}

fn to_bool(value: &Arg, from: &str) -> Out {
    match value {
        Arg::Int(i) => Out::Int(i64::from(*i != 0)),
        Arg::Text(s) => match parse_bool(s) {
            Some(b) => Out::Int(i64::from(b)),
            None if from == "bool" => match s.trim() {
                "1" => Out::Int(1),
                "0" => Out::Int(0),
                _ => invalid("boolean", s),
            },
            None => invalid("boolean", s),
        },
        Arg::Real(f) => Out::Int(i64::from(*f != 0.0)),
        _ => invalid("boolean", &value.display()),
    }
}

fn to_number(value: &Arg, to: &str) -> Out {
    let f = match value {
        Arg::Int(i) => match to {
            "numeric" => return Out::Int(*i),
            _ => *i as f64,
        },
        Arg::Real(f) => *f,
        Arg::Text(s) => match float_input(s) {
            Some(f) if to != "numeric" && beyond_range(s, f, to) => {
                return fail(
                    "22003",
                    format!("\"{s}\" is out of range for type {}", display(to)),
                );
            }
            Some(f) => f,
            None => return invalid(display(to), s),
        },
        _ => return invalid(display(to), &value.display()),
    };
    // A float4 keeps its float8 value (what a `real` column stores); the
    // range is float4's.
    if to == "float4" && (f as f32).is_infinite() && f.is_finite() {
        return fail("22003", format!("\"{f}\" is out of range for type real"));
    }
    if to == "numeric" && f.fract() == 0.0 && f.abs() < 9.0e15 {
        return Out::Int(f as i64);
    }
    Out::Real(f)
}

/// Whether text that reads as `f` names a number the float type cannot hold:
/// too large (read as infinity) or too small (read as zero from nonzero digits).
fn beyond_range(text: &str, f: f64, to: &str) -> bool {
    let f = match to {
        "float4" => f64::from(f as f32),
        _ => f,
    };
    let mantissa = text.split(['e', 'E']).next().unwrap_or("");
    let named = mantissa.bytes().any(|b| b.is_ascii_alphabetic());
    match named {
        true => false,
        false if f.is_infinite() => true,
        false => f == 0.0 && mantissa.bytes().any(|b| matches!(b, b'1'..=b'9')),
    }
}

/// PostgreSQL's numeric and float input (`1.5`, ` -2e3 `, `.5`, `NaN`,
/// `Infinity`).
fn float_input(text: &str) -> Option<f64> {
    let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let body = trimmed.strip_prefix(['+', '-']).unwrap_or(trimmed);
    let negative = trimmed.starts_with('-');
    let special = match body.to_ascii_lowercase().as_str() {
        "nan" => Some(f64::NAN),
        "infinity" | "inf" => Some(if negative {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        }),
        _ => None,
    };
    if special.is_some() {
        return special;
    }
    let numeric = body
        .bytes()
        .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'));
    if !numeric || !body.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    trimmed.parse().ok()
}

fn to_text(value: &Arg, from: &str) -> Out {
    match (value, from) {
        (Arg::Int(i), "bool") => Out::Text(if *i != 0 { "true" } else { "false" }.to_owned()),
        (Arg::Real(f), _) => {
            let mut text = String::new();
            let _ = write_float8(&mut text, *f);
            Out::Text(text)
        }
        (Arg::Text(s), "bpchar") => Out::Text(s.trim_end_matches(' ').to_owned()),
        (Arg::Int(i), _) => Out::Text(i.to_string()),
        (Arg::Text(s), _) => Out::Text((*s).to_owned()),
        (Arg::Blob(b), _) => {
            let mut text = String::with_capacity(2 + b.len() * 2);
            text.push_str("\\x");
            for byte in *b {
                text.push_str(&format!("{byte:02x}"));
            }
            Out::Text(text)
        }
        (Arg::Null, _) => Out::Null,
    }
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    fn run(value: Arg, from: &str, to: &str) -> Out {
        call(cast, &[value, Arg::Text(from), Arg::Text(to)])
    }

    fn failed(out: Out, code: &str) -> bool {
        matches!(out, Out::Fail(state, _) if state.as_str() == code)
    }

    #[test]
    fn text_reads_with_postgres_input_rules() {
        assert_eq!(run(Arg::Text(" 12 "), "text", "int4"), Out::Int(12));
        assert!(failed(run(Arg::Text("1e3"), "text", "int4"), "22P02"));
        assert!(failed(run(Arg::Text("abc"), "text", "int8"), "22P02"));
        assert!(failed(
            run(Arg::Text("2147483648"), "text", "int4"),
            "22003"
        ));
        assert_eq!(run(Arg::Text("TrUe"), "text", "bool"), Out::Int(1));
        assert_eq!(run(Arg::Text(" off "), "text", "bool"), Out::Int(0));
        assert!(failed(run(Arg::Text("maybe"), "text", "bool"), "22P02"));
        assert_eq!(run(Arg::Text("1e3"), "text", "float8"), Out::Real(1000.0));
        assert!(failed(run(Arg::Text("e3"), "text", "numeric"), "22P02"));
    }

    #[test]
    fn numbers_round_as_postgres_rounds_them() {
        assert_eq!(run(Arg::Real(2.5), "float8", "int4"), Out::Int(2));
        assert_eq!(run(Arg::Real(2.5), "numeric", "int4"), Out::Int(3));
        assert_eq!(run(Arg::Real(-2.5), "numeric", "int4"), Out::Int(-3));
        assert!(failed(run(Arg::Real(3e9), "float8", "int4"), "22003"));
        assert!(failed(run(Arg::Int(40000), "int4", "int2"), "22003"));
        assert_eq!(run(Arg::Int(1), "bool", "text"), Out::Text("true".into()));
        assert_eq!(
            run(Arg::Real(0.1), "float8", "text"),
            Out::Text("0.1".into())
        );
        assert_eq!(
            run(Arg::Text("2024-01-31"), "date", "timestamptz"),
            Out::Text("2024-01-31 00:00:00+00".into())
        );
    }
}
