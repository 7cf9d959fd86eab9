//! Arithmetic as PostgreSQL does it, for the PostgreSQL port's translation:
//! `litewire_arith(op, left, right, type)`. SQLite turns an integer overflow
//! into a float and a division by zero into NULL; PostgreSQL raises 22003
//! (`integer out of range`, by the operands' type: int2, int4 or int8) and
//! 22012 (`division by zero`), for every numeric type. Also the step of
//! `generate_series`, which PostgreSQL refuses when it is zero.

use super::call::{Arg, Call, Out};
use super::decimal::{Decimal, with_scale};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::helper(
        "litewire_arith",
        Args::Fixed(&["text", "any", "any", "text"]),
        Volatility::Immutable,
        arith,
    ),
    Function::helper(
        "litewire_numeric_div",
        Args::Fixed(&["numeric", "numeric", "int4", "int4"]),
        Volatility::Immutable,
        numeric_division,
    ),
    Function::helper(
        "litewire_series_step",
        Args::Fixed(&["any"]),
        Volatility::Immutable,
        series_step,
    ),
    Function::helper(
        "litewire_rint",
        Args::Fixed(&["float8"]),
        Volatility::Immutable,
        rint,
    ),
];

/// `round(float8)`: to the nearest integer, half to even (SQLite's `round`
/// rounds half away from zero, as PostgreSQL's `round(numeric)` does).
fn rint(_: &Call, args: &[Arg]) -> Out {
    match number(&args[0]) {
        Some(n) => Out::Real(float(n).round_ties_even()),
        None => Out::Null,
    }
}

const DIVISION_BY_ZERO: &str = "22012";

/// `generate_series`' step, checked: a series that never moves would never end.
fn series_step(_: &Call, args: &[Arg]) -> Out {
    match number(&args[0]) {
        None => Out::Null,
        Some(Number::Int(0) | Number::Float(0.0)) => fail("22023", "step size cannot equal zero"),
        Some(Number::Int(i)) => Out::Int(i),
        Some(Number::Float(f)) => Out::Real(f),
    }
}

fn fail(code: &str, message: &str) -> Out {
    Out::Fail(
        SqlState::parse(code).unwrap_or(SqlState::NUMERIC_VALUE_OUT_OF_RANGE),
        message.to_owned(),
    )
}

/// A number as an operand: an integer, or a float for anything else SQLite
/// holds (text that reads as a number included, as SQLite reads it).
#[derive(Clone, Copy)]
enum Number {
    Int(i64),
    Float(f64),
}

fn number(arg: &Arg) -> Option<Number> {
    match arg {
        Arg::Int(i) => Some(Number::Int(*i)),
        Arg::Real(f) => Some(Number::Float(*f)),
        Arg::Text(s) => {
            let s = s.trim();
            s.parse::<i64>()
                .map(Number::Int)
                .or_else(|_| s.parse::<f64>().map(Number::Float))
                .ok()
                .or(Some(Number::Int(0)))
        }
        Arg::Blob(_) => Some(Number::Int(0)),
        Arg::Null => None,
    }
}

fn float(n: Number) -> f64 {
    match n {
        Number::Int(i) => i as f64,
        Number::Float(f) => f,
    }
}

/// `litewire_arith(op, left, right, type)`: `op` one of `+ - * / %`, `type`
/// the operands' (`int2`, `int4`, `int8`, `numeric`, `float4`, `float8`, or
/// `unknown` for SQLite's own arithmetic with PostgreSQL's division by zero).
fn arith(_: &Call, args: &[Arg]) -> Out {
    let (Arg::Text(op), Some(left), Some(right), Arg::Text(ty)) =
        (&args[0], number(&args[1]), number(&args[2]), &args[3])
    else {
        return Out::Null;
    };
    let range = match *ty {
        "int2" => Some((
            i64::from(i16::MIN),
            i64::from(i16::MAX),
            "smallint out of range",
        )),
        "int4" => Some((
            i64::from(i32::MIN),
            i64::from(i32::MAX),
            "integer out of range",
        )),
        "int8" => Some((i64::MIN, i64::MAX, "bigint out of range")),
        _ => None,
    };
    if *ty == "numeric"
        && let Some(out) = written_arith(op, &args[1], &args[2])
    {
        return out;
    }
    let zero = match right {
        Number::Int(0) => true,
        Number::Float(f) => f == 0.0,
        Number::Int(_) => false,
    };
    // NaN divided by zero is NaN, as any arithmetic on NaN.
    let nan = matches!(left, Number::Float(f) if f.is_nan());
    if zero && !nan && matches!(*op, "/" | "%") {
        return fail(DIVISION_BY_ZERO, "division by zero");
    }
    match (left, right) {
        (Number::Int(a), Number::Int(b)) => {
            let result = match *op {
                "+" => a.checked_add(b),
                "-" => a.checked_sub(b),
                "*" => a.checked_mul(b),
                "/" if *ty == "numeric" && a % b != 0 => {
                    return Out::Real(a as f64 / b as f64);
                }
                "/" => a.checked_div(b),
                "%" => Some(a.wrapping_rem(b)),
                _ => return Out::Error(format!("unknown operator {op}")),
            };
            match (result, range) {
                (Some(n), Some((min, max, message))) if n < min || n > max => {
                    fail("22003", message)
                }
                (Some(n), _) => Out::Int(n),
                (None, Some((_, _, message))) => fail("22003", message),
                // numeric and SQLite's own: beyond int8, a float.
                (None, None) => float_result(op, a as f64, b as f64, ty),
            }
        }
        (a, b) => match range {
            // An integer column holding a float: PostgreSQL would hold none.
            Some(_) => float_result(op, float(a), float(b), "numeric"),
            None if *ty == "numeric" => {
                decimal_result(op, a, b).unwrap_or_else(|| float_result(op, float(a), float(b), ty))
            }
            None => float_result(op, float(a), float(b), ty),
        },
    }
}

/// `litewire_numeric_div(left, right, left_scale, right_scale)`: numeric
/// division with the digits PostgreSQL's shows (`7.0 / 2` is
/// `3.5000000000000000`), as text, each operand shown with the display scale
/// the translation knows (at least its own digits: a text operand's all of
/// them); what does not fit is divided as `litewire_arith` divides.
fn numeric_division(call: &Call, args: &[Arg]) -> Out {
    let shown = match (Decimal::exact(&args[0]), Decimal::exact(&args[1])) {
        (Some(left), Some(right)) if !right.is_zero() => {
            let scale = |arg: &Arg| arg.int().and_then(|s| u32::try_from(s).ok());
            scale(&args[2])
                .zip(scale(&args[3]))
                .and_then(|scales| left.shown_quotient(right, scales))
        }
        _ => None,
    };
    match shown {
        Some(text) => Out::Text(text),
        None => arith(
            call,
            &[
                Arg::Text("/"),
                args[0].clone(),
                args[1].clone(),
                Arg::Text("numeric"),
            ],
        ),
    }
}

/// numeric arithmetic where an operand is a numeric's digits as text (a
/// division's, `avg`'s, `round(x, n)`'s: see `decimal`), which carry its
/// display scale: the result has the scale PostgreSQL's gives it (the larger
/// for `+`, `-`, `%`, the sum for `*`, `select_div_scale`'s for `/`), as
/// text. `None` where no operand is such text, or the numbers do not fit.
fn written_arith(op: &str, left: &Arg, right: &Arg) -> Option<Out> {
    if !matches!(left, Arg::Text(_)) && !matches!(right, Arg::Text(_)) {
        return None;
    }
    let (a, b) = (Decimal::exact(left)?, Decimal::exact(right)?);
    if b.is_zero() && matches!(op, "/" | "%") {
        return Some(fail(DIVISION_BY_ZERO, "division by zero"));
    }
    let result = match op {
        "+" => a.add(b)?,
        "-" => a.sub(b)?,
        "*" => a.mul(b)?,
        "%" => a.rem(b)?,
        "/" => {
            return a
                .shown_quotient(b, (a.parts().1, b.parts().1))
                .map(Out::Text);
        }
        _ => return None,
    };
    with_scale(result, result.parts().1).map(Out::Text)
}

/// numeric arithmetic on the decimals the operands print as (see
/// `decimal`); `None` where they do not fit it.
fn decimal_result(op: &str, a: Number, b: Number) -> Option<Out> {
    let decimal = |n: Number| match n {
        Number::Int(i) => Some(Decimal::of_int(i)),
        Number::Float(f) => Decimal::of_float(f),
    };
    let (a, b) = (decimal(a)?, decimal(b)?);
    let result = match op {
        "+" => a.add(b)?,
        "-" => a.sub(b)?,
        "*" => a.mul(b)?,
        "%" => a.rem(b)?,
        "/" => return a.div(b).map(Out::Real),
        _ => return None,
    };
    Some(Out::Real(result.to_f64()))
}

fn float_result(op: &str, a: f64, b: f64, ty: &str) -> Out {
    let result = match op {
        "+" => a + b,
        "-" => a - b,
        "*" => a * b,
        "/" => a / b,
        "%" => a % b,
        _ => return Out::Error(format!("unknown operator {op}")),
    };
    let float = matches!(ty, "float4" | "float8");
    if result.is_infinite() && a.is_finite() && b.is_finite() {
        return match float {
            true => fail("22003", "value out of range: overflow"),
            false => fail("22003", "value overflows numeric format"),
        };
    }
    // Zero from numbers whose product or quotient is not zero.
    let zero_is_valid = a == 0.0
        || match op {
            "*" => b == 0.0,
            "/" => b.is_infinite(),
            _ => true,
        };
    if float && result == 0.0 && !zero_is_valid {
        return fail("22003", "value out of range: underflow");
    }
    Out::Real(result)
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    fn run(op: &str, a: Arg, b: Arg, ty: &str) -> Out {
        call(arith, &[Arg::Text(op), a, b, Arg::Text(ty)])
    }

    #[test]
    fn integers_are_checked_by_their_width() {
        assert_eq!(run("+", Arg::Int(1), Arg::Int(2), "int4"), Out::Int(3));
        assert!(
            matches!(run("+", Arg::Int(2147483647), Arg::Int(1), "int4"),
            Out::Fail(s, m) if s.as_str() == "22003" && m == "integer out of range")
        );
        assert_eq!(
            run("+", Arg::Int(2147483647), Arg::Int(1), "int8"),
            Out::Int(2147483648)
        );
        assert!(matches!(run("*", Arg::Int(i64::MIN), Arg::Int(-1), "int8"),
            Out::Fail(_, m) if m == "bigint out of range"));
        assert!(matches!(run("-", Arg::Int(-32768), Arg::Int(1), "int2"),
            Out::Fail(_, m) if m == "smallint out of range"));
        assert_eq!(run("/", Arg::Int(7), Arg::Int(2), "int4"), Out::Int(3));
        assert_eq!(run("/", Arg::Int(-7), Arg::Int(2), "int4"), Out::Int(-3));
        assert_eq!(run("%", Arg::Int(-7), Arg::Int(2), "int4"), Out::Int(-1));
        assert_eq!(
            run("%", Arg::Int(i64::MIN), Arg::Int(-1), "int8"),
            Out::Int(0)
        );
    }

    #[test]
    fn division_by_zero_fails_for_every_type() {
        for ty in ["int4", "numeric", "float8", "unknown"] {
            assert!(
                matches!(run("/", Arg::Int(1), Arg::Int(0), ty),
                Out::Fail(s, m) if s.as_str() == "22012" && m == "division by zero"),
                "{ty}"
            );
        }
        assert!(matches!(
            run("%", Arg::Real(1.0), Arg::Real(0.0), "numeric"),
            Out::Fail(..)
        ));
        assert_eq!(run("/", Arg::Null, Arg::Int(0), "int4"), Out::Null);
    }

    #[test]
    fn numeric_division_is_not_integer_division() {
        assert_eq!(
            run("/", Arg::Int(7), Arg::Int(2), "numeric"),
            Out::Real(3.5)
        );
        assert_eq!(run("/", Arg::Int(8), Arg::Int(2), "numeric"), Out::Int(4));
        assert!(
            matches!(run("*", Arg::Real(1e-300), Arg::Real(1e-300), "float8"),
            Out::Fail(_, m) if m == "value out of range: underflow")
        );
        assert_eq!(
            run("*", Arg::Real(2.0), Arg::Real(0.0), "float8"),
            Out::Real(0.0)
        );
        assert_eq!(
            run("/", Arg::Real(2.0), Arg::Real(f64::INFINITY), "float8"),
            Out::Real(0.0)
        );
        assert!(
            matches!(run("*", Arg::Real(1e308), Arg::Real(10.0), "float8"),
            Out::Fail(_, m) if m == "value out of range: overflow")
        );
    }
}
