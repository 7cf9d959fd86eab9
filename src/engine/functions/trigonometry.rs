//! PostgreSQL's trigonometric and hyperbolic functions, in radians and in
//! degrees. SQLite's own answer NULL for NaN and outside their domain, and
//! have no degree forms; PostgreSQL propagates NaN, raises 22003 ("input is
//! out of range") for an infinite angle or an argument outside the domain,
//! and computes `sind`, `cosd`, `tand`, `cotd`, `asind`, `acosd`, `atand`
//! so that the usual angles (30°, 45°, 90°, ...) give exact answers: the
//! same steps are taken here, so the last digits agree too.

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use crate::error::SqlState;

pub(super) const FUNCTIONS: &[Function] = &[
    unary("litewire_sin", sin),
    unary("litewire_cos", cos),
    unary("litewire_tan", tan),
    unary("litewire_cot", cot),
    unary("litewire_asin", asin),
    unary("litewire_acos", acos),
    unary("litewire_atan", atan),
    binary("litewire_atan2", atan2),
    unary("litewire_sind", sind),
    unary("litewire_cosd", cosd),
    unary("litewire_tand", tand),
    unary("litewire_cotd", cotd),
    unary("litewire_asind", asind),
    unary("litewire_acosd", acosd),
    unary("litewire_atand", atand),
    binary("litewire_atan2d", atan2d),
    unary("litewire_sinh", sinh),
    unary("litewire_cosh", cosh),
    unary("litewire_tanh", tanh),
    unary("litewire_asinh", asinh),
    unary("litewire_acosh", acosh),
    unary("litewire_atanh", atanh),
    unary("litewire_degrees", degrees),
    unary("litewire_radians", radians),
    unary("litewire_cbrt", cbrt),
];

type Unary = fn(f64) -> Out;
type Binary = fn(f64, f64) -> Out;

/// A function of one float: NULL gives NULL, NaN gives NaN.
macro_rules! float_body {
    ($name:ident, $f:expr) => {
        fn $name(_: &Call, args: &[Arg]) -> Out {
            let body: Unary = $f;
            match args[0].float() {
                None => Out::Null,
                Some(x) if x.is_nan() => Out::Real(f64::NAN),
                Some(x) => body(x),
            }
        }
    };
}

const fn unary(name: &'static str, body: super::call::Scalar) -> Function {
    Function::helper(name, Args::Fixed(&["any"]), Volatility::Immutable, body)
}

const fn binary(name: &'static str, body: super::call::Scalar) -> Function {
    Function::helper(
        name,
        Args::Fixed(&["any", "any"]),
        Volatility::Immutable,
        body,
    )
}

fn out_of_range() -> Out {
    Out::Fail(
        SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
        "input is out of range".to_owned(),
    )
}

/// A result checked as PostgreSQL checks it: infinite from a finite
/// argument is an overflow.
fn finite(result: f64) -> Out {
    if result.is_infinite() {
        return Out::Fail(
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            "value out of range: overflow".to_owned(),
        );
    }
    Out::Real(result)
}

/// A periodic function of a finite angle.
fn periodic(x: f64, f: fn(f64) -> f64) -> Out {
    if x.is_infinite() {
        return out_of_range();
    }
    Out::Real(f(x))
}

/// An inverse function defined on [-1, 1].
fn within_unit(x: f64, f: fn(f64) -> f64) -> Out {
    if !(-1.0..=1.0).contains(&x) {
        return out_of_range();
    }
    Out::Real(f(x))
}

float_body!(sin, |x| periodic(x, f64::sin));
float_body!(cos, |x| periodic(x, f64::cos));
float_body!(tan, |x| periodic(x, f64::tan));
float_body!(cot, |x| {
    if x.is_infinite() {
        return out_of_range();
    }
    Out::Real(1.0 / x.tan())
});
float_body!(asin, |x| within_unit(x, f64::asin));
float_body!(acos, |x| within_unit(x, f64::acos));
float_body!(atan, |x| Out::Real(x.atan()));
float_body!(sinh, |x| Out::Real(x.sinh()));
float_body!(cosh, |x| Out::Real(x.cosh()));
float_body!(tanh, |x| Out::Real(x.tanh()));
float_body!(asinh, |x| Out::Real(x.asinh()));
float_body!(acosh, |x| {
    if x < 1.0 {
        return out_of_range();
    }
    Out::Real(x.acosh())
});
float_body!(atanh, |x| {
    if !(-1.0..=1.0).contains(&x) {
        return out_of_range();
    }
    // The poles are infinities, not errors.
    Out::Real(match x {
        1.0 => f64::INFINITY,
        -1.0 => f64::NEG_INFINITY,
        x => x.atanh(),
    })
});
float_body!(degrees, |x| finite_unless(x, x / RADIANS_PER_DEGREE));
float_body!(radians, |x| {
    let result = x * RADIANS_PER_DEGREE;
    if result == 0.0 && x != 0.0 {
        return Out::Fail(
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            "value out of range: underflow".to_owned(),
        );
    }
    finite_unless(x, result)
});
float_body!(cbrt, |x| Out::Real(x.cbrt()));

/// A product checked for overflow unless the argument is itself infinite.
fn finite_unless(x: f64, result: f64) -> Out {
    if x.is_infinite() {
        Out::Real(result)
    } else {
        finite(result)
    }
}

fn two_floats(args: &[Arg], body: Binary) -> Out {
    match (args[0].float(), args[1].float()) {
        (Some(y), Some(x)) if y.is_nan() || x.is_nan() => Out::Real(f64::NAN),
        (Some(y), Some(x)) => body(y, x),
        _ => Out::Null,
    }
}

fn atan2(_: &Call, args: &[Arg]) -> Out {
    two_floats(args, |y, x| Out::Real(y.atan2(x)))
}

fn atan2d(_: &Call, args: &[Arg]) -> Out {
    two_floats(args, |y, x| finite(y.atan2(x) / 1f64.atan() * 45.0))
}

// The degree forms, step for step as PostgreSQL computes them: reduce the
// angle to the first quadrant, then scale by the function's value at a
// known angle so that 30°, 45°, 60° and 90° come out exact.

const RADIANS_PER_DEGREE: f64 = 0.017_453_292_519_943_295;

fn sind_0_to_30(x: f64) -> f64 {
    let sin_30 = (30.0 * RADIANS_PER_DEGREE).sin();
    ((x * RADIANS_PER_DEGREE).sin() / sin_30) / 2.0
}

fn cosd_0_to_60(x: f64) -> f64 {
    let one_minus_cos_60 = 1.0 - (60.0 * RADIANS_PER_DEGREE).cos();
    let one_minus_cos_x = 1.0 - (x * RADIANS_PER_DEGREE).cos();
    1.0 - (one_minus_cos_x / one_minus_cos_60) / 2.0
}

fn sind_q1(x: f64) -> f64 {
    if x <= 30.0 {
        sind_0_to_30(x)
    } else {
        cosd_0_to_60(90.0 - x)
    }
}

fn cosd_q1(x: f64) -> f64 {
    if x <= 60.0 {
        cosd_0_to_60(x)
    } else {
        sind_0_to_30(90.0 - x)
    }
}

/// An angle in degrees reduced to [0, 90], with the sign the function's
/// value takes: `flips` says whether it changes sign when a negative angle
/// is mirrored, when one past 180° is mirrored, and when one past 90° is
/// folded back (sin: yes, yes, no; cos: no, no, yes; tan and cot: all).
fn first_quadrant(x: f64, flips: [bool; 3]) -> (f64, f64) {
    let mut sign = 1.0;
    let mut x = x % 360.0;
    let mut step = |flip: bool| {
        if flip {
            sign = -sign;
        }
    };
    if x < 0.0 {
        x = -x;
        step(flips[0]);
    }
    if x > 180.0 {
        x = 360.0 - x;
        step(flips[1]);
    }
    if x > 90.0 {
        x = 180.0 - x;
        step(flips[2]);
    }
    (x, sign)
}

const SINE: [bool; 3] = [true, true, false];
const COSINE: [bool; 3] = [false, false, true];
const TANGENT: [bool; 3] = [true, true, true];

float_body!(sind, |x| {
    if x.is_infinite() {
        return out_of_range();
    }
    let (x, sign) = first_quadrant(x, SINE);
    finite(sign * sind_q1(x))
});
float_body!(cosd, |x| {
    if x.is_infinite() {
        return out_of_range();
    }
    let (x, sign) = first_quadrant(x, COSINE);
    finite(sign * cosd_q1(x))
});
float_body!(tand, |x| {
    if x.is_infinite() {
        return out_of_range();
    }
    let (x, sign) = first_quadrant(x, TANGENT);
    let tan_45 = sind_q1(45.0) / cosd_q1(45.0);
    // tand(90) is infinite, not an overflow; plain zero, never minus zero.
    Out::Real(sign * (sind_q1(x) / cosd_q1(x)) / tan_45 + 0.0)
});
float_body!(cotd, |x| {
    if x.is_infinite() {
        return out_of_range();
    }
    let (x, sign) = first_quadrant(x, TANGENT);
    let cot_45 = cosd_q1(45.0) / sind_q1(45.0);
    Out::Real(sign * (cosd_q1(x) / sind_q1(x)) / cot_45 + 0.0)
});

fn asind_q1(x: f64) -> f64 {
    if x <= 0.5 {
        (x.asin() / 0.5f64.asin()) * 30.0
    } else {
        90.0 - (x.acos() / 0.5f64.acos()) * 60.0
    }
}

fn acosd_q1(x: f64) -> f64 {
    if x <= 0.5 {
        90.0 - (x.asin() / 0.5f64.asin()) * 30.0
    } else {
        (x.acos() / 0.5f64.acos()) * 60.0
    }
}

float_body!(asind, |x| {
    if !(-1.0..=1.0).contains(&x) {
        return out_of_range();
    }
    finite(if x >= 0.0 { asind_q1(x) } else { -asind_q1(-x) })
});
float_body!(acosd, |x| {
    if !(-1.0..=1.0).contains(&x) {
        return out_of_range();
    }
    finite(if x >= 0.0 {
        acosd_q1(x)
    } else {
        90.0 + asind_q1(-x)
    })
});
float_body!(atand, |x| finite(x.atan() / 1f64.atan() * 45.0));

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    fn real(out: Out) -> f64 {
        match out {
            Out::Real(f) => f,
            other => panic!("not a float: {other:?}"),
        }
    }

    #[test]
    fn degrees_give_exact_answers_at_the_usual_angles() {
        for (angle, expected) in [(0, 0.0), (30, 0.5), (90, 1.0), (150, 0.5), (210, -0.5)] {
            assert_eq!(
                real(call(sind, &[Arg::Int(angle)])),
                expected,
                "sind({angle})"
            );
        }
        for (angle, expected) in [(0, 1.0), (60, 0.5), (90, 0.0), (120, -0.5), (180, -1.0)] {
            assert_eq!(
                real(call(cosd, &[Arg::Int(angle)])),
                expected,
                "cosd({angle})"
            );
        }
        for (angle, expected) in [(0, 0.0), (45, 1.0), (135, -1.0), (180, 0.0), (225, 1.0)] {
            assert_eq!(
                real(call(tand, &[Arg::Int(angle)])),
                expected,
                "tand({angle})"
            );
        }
        assert_eq!(real(call(asind, &[Arg::Real(0.5)])), 30.0);
        assert_eq!(real(call(acosd, &[Arg::Real(-0.5)])), 120.0);
        assert_eq!(real(call(atand, &[Arg::Int(1)])), 45.0);
    }

    #[test]
    fn nan_propagates_and_domains_are_checked() {
        assert!(real(call(sinh, &[Arg::Text("NaN")])).is_nan());
        assert!(matches!(call(acosh, &[Arg::Real(0.5)]), Out::Fail(..)));
        assert!(matches!(call(sin, &[Arg::Text("Infinity")]), Out::Fail(..)));
        assert!(matches!(call(asin, &[Arg::Int(2)]), Out::Fail(..)));
        assert_eq!(real(call(atanh, &[Arg::Int(1)])), f64::INFINITY);
        assert_eq!(call(cos, &[Arg::Null]), Out::Null);
    }
}
