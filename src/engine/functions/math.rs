//! PostgreSQL's logarithms, roots, powers and exponentials for the
//! PostgreSQL port's translation. SQLite's math functions answer NULL for a
//! NaN and for an argument outside their domain; PostgreSQL propagates NaN
//! and raises its errors: `ln(0)` and `ln(-1)` (2201E), `sqrt(-1)`,
//! `power(0, -1)` and `power(-8, 1.0 / 3)` (2201F), an overflow or underflow
//! of `exp` and `power` (22003).

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;

pub(super) const FUNCTIONS: &[Function] = &[
    helper("litewire_ln", &["any"], ln),
    helper("litewire_log10", &["any"], log10),
    helper("litewire_log", &["any", "any"], log),
    helper("litewire_exp", &["any"], exp),
    helper("litewire_sqrt", &["any"], sqrt),
    helper("litewire_power", &["any", "any"], power),
];

const fn helper(
    name: &'static str,
    args: &'static [&'static str],
    body: super::call::Scalar,
) -> Function {
    Function::helper(name, Args::Fixed(args), Volatility::Immutable, body)
}

fn fail(code: &str, message: &str) -> Out {
    Out::Fail(
        SqlState::parse(code).unwrap_or(SqlState::NUMERIC_VALUE_OUT_OF_RANGE),
        message.to_owned(),
    )
}

/// A result checked as PostgreSQL checks a float result: infinite or zero
/// from operands that make neither is out of range.
fn checked(result: f64, infinite_ok: bool, zero_ok: bool) -> Out {
    if result.is_infinite() && !infinite_ok {
        return fail("22003", "value out of range: overflow");
    }
    if result == 0.0 && !zero_ok {
        return fail("22003", "value out of range: underflow");
    }
    Out::Real(result)
}

fn logarithm(x: f64, of: fn(f64) -> f64) -> Out {
    match x {
        x if x.is_nan() => Out::Real(f64::NAN),
        0.0 => fail("2201E", "cannot take logarithm of zero"),
        x if x < 0.0 => fail("2201E", "cannot take logarithm of a negative number"),
        x => Out::Real(of(x)),
    }
}

fn ln(_: &Call, args: &[Arg]) -> Out {
    args[0].float().map_or(Out::Null, |x| logarithm(x, f64::ln))
}

fn log10(_: &Call, args: &[Arg]) -> Out {
    args[0]
        .float()
        .map_or(Out::Null, |x| logarithm(x, f64::log10))
}

/// `log(base, x)`.
fn log(_: &Call, args: &[Arg]) -> Out {
    let (Some(base), Some(x)) = (args[0].float(), args[1].float()) else {
        return Out::Null;
    };
    if base.is_nan() || x.is_nan() {
        return Out::Real(f64::NAN);
    }
    if base == 0.0 || x == 0.0 {
        return fail("2201E", "cannot take logarithm of zero");
    }
    if base < 0.0 || x < 0.0 {
        return fail("2201E", "cannot take logarithm of a negative number");
    }
    if base == 1.0 {
        return fail("22012", "division by zero");
    }
    Out::Real(x.ln() / base.ln())
}

fn exp(_: &Call, args: &[Arg]) -> Out {
    let Some(x) = args[0].float() else {
        return Out::Null;
    };
    if x.is_nan() {
        return Out::Real(f64::NAN);
    }
    checked(x.exp(), x.is_infinite(), x == f64::NEG_INFINITY)
}

fn sqrt(_: &Call, args: &[Arg]) -> Out {
    match args[0].float() {
        None => Out::Null,
        Some(x) if x < 0.0 => fail("2201F", "cannot take square root of a negative number"),
        Some(x) => Out::Real(x.sqrt()),
    }
}

fn power(_: &Call, args: &[Arg]) -> Out {
    let (Some(base), Some(exponent)) = (args[0].float(), args[1].float()) else {
        return Out::Null;
    };
    // PostgreSQL (and POSIX's pow): 1 to any power and any number to the
    // power 0 are 1, NaN included.
    if base == 1.0 || exponent == 0.0 {
        return Out::Real(1.0);
    }
    if base.is_nan() || exponent.is_nan() {
        return Out::Real(f64::NAN);
    }
    if base == 0.0 && exponent < 0.0 {
        return fail("2201F", "zero raised to a negative power is undefined");
    }
    if base < 0.0 && exponent.is_finite() && exponent.fract() != 0.0 {
        return fail(
            "2201F",
            "a negative number raised to a non-integer power yields a complex result",
        );
    }
    if base.is_infinite() && base < 0.0 && exponent.is_finite() && exponent.fract() != 0.0 {
        return fail(
            "2201F",
            "a negative number raised to a non-integer power yields a complex result",
        );
    }
    let infinite_ok = base.is_infinite() || exponent.is_infinite() || base == 0.0;
    let zero_ok = base == 0.0 || base.is_infinite() || exponent.is_infinite();
    checked(base.powf(exponent), infinite_ok, zero_ok)
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    fn state(out: Out) -> String {
        match out {
            Out::Fail(state, _) => state.as_str().to_owned(),
            other => format!("{other:?}"),
        }
    }

    #[test]
    fn domains_and_nan_as_postgres_has_them() {
        assert_eq!(state(call(ln, &[Arg::Real(0.0)])), "2201E");
        assert_eq!(state(call(ln, &[Arg::Int(-1)])), "2201E");
        assert_eq!(state(call(sqrt, &[Arg::Int(-4)])), "2201F");
        assert_eq!(state(call(power, &[Arg::Int(0), Arg::Int(-1)])), "2201F");
        assert_eq!(state(call(power, &[Arg::Int(-8), Arg::Real(0.5)])), "2201F");
        assert_eq!(state(call(exp, &[Arg::Real(1000.0)])), "22003");
        assert_eq!(state(call(exp, &[Arg::Real(-1000.0)])), "22003");
        assert_eq!(call(exp, &[Arg::Real(f64::NEG_INFINITY)]), Out::Real(0.0));
        assert_eq!(
            call(power, &[Arg::Text("NaN"), Arg::Int(0)]),
            Out::Real(1.0)
        );
        assert_eq!(
            call(power, &[Arg::Int(1), Arg::Text("NaN")]),
            Out::Real(1.0)
        );
        assert!(matches!(call(ln, &[Arg::Text("NaN")]), Out::Real(f) if f.is_nan()));
        assert_eq!(call(power, &[Arg::Int(2), Arg::Int(10)]), Out::Real(1024.0));
        assert_eq!(call(log, &[Arg::Int(2), Arg::Int(8)]), Out::Real(3.0));
        assert_eq!(call(sqrt, &[Arg::Null]), Out::Null);
    }
}
