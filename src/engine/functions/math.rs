//! PostgreSQL's logarithms, roots, powers and exponentials, `gcd`, `lcm`,
//! `div` and `width_bucket`, for the PostgreSQL port's translation. SQLite's
//! math functions answer NULL for a NaN and for an argument outside their
//! domain; PostgreSQL propagates NaN
//! and raises its errors: `ln(0)` and `ln(-1)` (2201E), `sqrt(-1)`,
//! `power(0, -1)` and `power(-8, 1.0 / 3)` (2201F), an overflow or underflow
//! of `exp` and `power` (22003).

use super::call::{Arg, Call, Out};
use super::decimal::{Decimal, numeric_out};
use super::definition::{Function, Volatility};
use crate::error::SqlState;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "factorial",
        &["int8"],
        "numeric",
        Volatility::Immutable,
        factorial,
    ),
    Function::immutable_helper("litewire_ln", &["any"], ln),
    Function::immutable_helper("litewire_log10", &["any"], log10),
    Function::immutable_helper("litewire_log", &["any", "any"], log),
    Function::immutable_helper("litewire_exp", &["any"], exp),
    Function::immutable_helper("litewire_sqrt", &["any"], sqrt),
    Function::immutable_helper("litewire_power", &["any", "any"], power),
    Function::immutable_helper("litewire_gcd", &["any", "any"], gcd),
    Function::immutable_helper("litewire_gcd4", &["any", "any"], gcd4),
    Function::immutable_helper("litewire_lcm", &["any", "any"], lcm),
    Function::immutable_helper("litewire_lcm4", &["any", "any"], lcm4),
    Function::immutable_helper("litewire_div", &["any", "any"], div),
    Function::immutable_helper(
        "litewire_width_bucket",
        &["any", "any", "any", "any"],
        width_bucket,
    ),
];

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

/// `gcd` and `lcm` of integers (`int4`'s range when `int4`) or of
/// numerics, in decimal.
fn divisors(args: &[Arg], lcm: bool, int4: bool) -> Out {
    let (Some(a), Some(b)) = (Decimal::of_arg(&args[0]), Decimal::of_arg(&args[1])) else {
        return Out::Null;
    };
    let result = match lcm {
        true => a.lcm(b),
        false => a.gcd(b),
    };
    let out = result.map(numeric_out);
    let (min, max, message) = match int4 {
        true => (
            i64::from(i32::MIN),
            i64::from(i32::MAX),
            "integer out of range",
        ),
        false => (i64::MIN, i64::MAX, "bigint out of range"),
    };
    let integers = matches!(args[0], Arg::Int(_)) && matches!(args[1], Arg::Int(_));
    match out {
        Some(Out::Int(n)) if integers && (n < min || n > max) => fail("22003", message),
        Some(Out::Real(_)) | None if integers => fail("22003", message),
        Some(out) => out,
        None => fail("22003", "value overflows numeric format"),
    }
}

fn gcd(_: &Call, args: &[Arg]) -> Out {
    divisors(args, false, false)
}

fn gcd4(_: &Call, args: &[Arg]) -> Out {
    divisors(args, false, true)
}

fn lcm(_: &Call, args: &[Arg]) -> Out {
    divisors(args, true, false)
}

fn lcm4(_: &Call, args: &[Arg]) -> Out {
    divisors(args, true, true)
}

/// `div(a, b)`: the quotient truncated toward zero, in decimal.
fn div(_: &Call, args: &[Arg]) -> Out {
    let (Some(a), Some(b)) = (Decimal::of_arg(&args[0]), Decimal::of_arg(&args[1])) else {
        return Out::Null;
    };
    if b.is_zero() {
        return fail("22012", "division by zero");
    }
    match a.div_trunc(b) {
        Some(quotient) => numeric_out(quotient),
        None => fail("22003", "value overflows numeric format"),
    }
}

/// `width_bucket(operand, low, high, count)`: the bucket of `count` equal
/// ones between `low` and `high` the operand falls in (0 below, `count + 1`
/// above; reversed when `low > high`).
fn width_bucket(_: &Call, args: &[Arg]) -> Out {
    let (Some(operand), Some(low), Some(high), Some(count)) = (
        args[0].float(),
        args[1].float(),
        args[2].float(),
        args[3].int(),
    ) else {
        return Out::Null;
    };
    if count <= 0 {
        return fail("2201G", "count must be greater than zero");
    }
    if operand.is_nan() || low.is_nan() || high.is_nan() {
        return fail(
            "2201G",
            "operand, lower bound, and upper bound cannot be NaN",
        );
    }
    if !low.is_finite() || !high.is_finite() {
        return fail("2201G", "lower and upper bounds must be finite");
    }
    if low == high {
        return fail("2201G", "lower bound cannot equal upper bound");
    }
    let n = count as f64;
    let bucket = if low < high {
        match operand {
            x if x < low => 0,
            x if x >= high => count + 1,
            x => ((x - low) / (high - low) * n).floor() as i64 + 1,
        }
    } else {
        match operand {
            x if x > low => 0,
            x if x <= high => count + 1,
            x => ((low - x) / (low - high) * n).floor() as i64 + 1,
        }
    };
    match i32::try_from(bucket) {
        Ok(bucket) => Out::Int(i64::from(bucket)),
        Err(_) => fail("22003", "integer out of range"),
    }
}

/// `factorial(n)`: n!, exact however many digits it has.
fn factorial(_: &Call, args: &[Arg]) -> Out {
    let Some(n) = args[0].int() else {
        return Out::Null;
    };
    if n < 0 {
        return Out::Fail(
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            "factorial of a negative number is undefined".into(),
        );
    }
    if n > 32177 {
        return Out::Fail(
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            "value overflows numeric format".into(),
        );
    }
    // Base 10^9 limbs, least significant first.
    const BASE: u64 = 1_000_000_000;
    let mut limbs: Vec<u64> = vec![1];
    for factor in 2..=n.unsigned_abs() {
        let mut carry = 0;
        for limb in &mut limbs {
            let product = *limb * factor + carry;
            *limb = product % BASE;
            carry = product / BASE;
        }
        while carry > 0 {
            limbs.push(carry % BASE);
            carry /= BASE;
        }
    }
    let mut digits = limbs.last().map_or_else(String::new, u64::to_string);
    for limb in limbs.iter().rev().skip(1) {
        digits.push_str(&format!("{limb:09}"));
    }
    Out::Text(digits)
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
