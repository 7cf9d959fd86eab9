//! `numeric` arithmetic in decimal. SQLite holds a numeric value that is not
//! an integer as a float, whose shortest decimal form is the number that
//! was written (`0.1` is held as the float nearest 0.1, which prints as
//! `0.1`). Adding the floats would answer `0.30000000000000004` for `0.1 +
//! 0.2`; PostgreSQL's numeric answers `0.3`. So the operands are read as
//! their shortest decimal forms, the arithmetic is exact (to PostgreSQL's
//! 20 digits for division), and the result is stored as the float nearest
//! it. Operands too long or too far from the point for 38 digits fall back
//! to float arithmetic. `sum` and `avg` of numeric add the same way; `avg`
//! answers with the digits PostgreSQL's division shows, as text (which the
//! translation compares and sorts as a number).

use super::aggregate::{Accumulator, callbacks};
use super::call::{Arg, Call, Out};
use super::definition::{Aggregate, Args, Body, Function, Volatility};
use super::division::{division_scale, quotient};

pub(super) const FUNCTIONS: &[Function] = &[
    numeric_aggregate("litewire_numeric_sum", callbacks::<NumericSum>()),
    numeric_aggregate("litewire_numeric_avg", callbacks::<NumericAvg>()),
    Function::helper(
        "litewire_numeric_round",
        Args::Fixed(&["numeric", "int4"]),
        Volatility::Immutable,
        round_places,
    ),
    Function::helper(
        "litewire_numeric_trunc",
        Args::Fixed(&["numeric", "int4"]),
        Volatility::Immutable,
        truncate_places,
    ),
    Function::helper(
        "litewire_numeric_scale",
        Args::Fixed(&["numeric", "int4"]),
        Volatility::Immutable,
        display_scale,
    ),
    Function::helper(
        "litewire_min_scale",
        Args::Fixed(&["numeric"]),
        Volatility::Immutable,
        min_scale,
    ),
    Function::helper(
        "litewire_trim_scale",
        Args::Fixed(&["numeric"]),
        Volatility::Immutable,
        trim_scale,
    ),
    Function::helper(
        "litewire_numeric_key",
        Args::Fixed(&["numeric"]),
        Volatility::Immutable,
        order_key,
    ),
    Function::helper(
        "litewire_numeric_shown",
        Args::Fixed(&["numeric", "int4"]),
        Volatility::Immutable,
        shown,
    ),
];

/// `litewire_numeric_key(x)`: text that compares (byte by byte) as the
/// numeric `x` does, every digit counted, however it is held (an integer, a
/// float, a numeric's digits as text: `20.2899999999999999` is below
/// `20.29`, which a float would not tell): a class (`0` negative, `1` zero,
/// `2` positive, `3` NaN, which PostgreSQL sorts above every number), then
/// the decimal exponent and the significant digits, inverted for a negative
/// number and ended by `~`, so that a longer one is the smaller.
fn order_key(_: &Call, args: &[Arg]) -> Out {
    let written = match &args[0] {
        Arg::Null => return Out::Null,
        Arg::Int(i) => i.to_string(),
        Arg::Real(f) => format!("{f:e}"),
        Arg::Text(text) => (*text).to_owned(),
        Arg::Blob(bytes) => String::from_utf8_lossy(bytes).into_owned(),
    };
    Out::Text(numeric_key(written.trim()))
}

fn numeric_key(written: &str) -> String {
    let (negative, unsigned) = match written.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, written.strip_prefix('+').unwrap_or(written)),
    };
    match unsigned.to_ascii_lowercase().as_str() {
        "inf" | "infinity" => return if negative { "0!" } else { "2~" }.to_owned(),
        "nan" => return "3".to_owned(),
        _ => {}
    }
    let (mantissa, exponent) = match unsigned.find(['e', 'E']) {
        Some(at) => (
            &unsigned[..at],
            unsigned[at + 1..].parse::<i64>().unwrap_or(0),
        ),
        None => (unsigned, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: String = whole.chars().chain(fraction.chars()).collect();
    let leading = digits.len() - digits.trim_start_matches('0').len();
    let significant = digits.trim_start_matches('0').trim_end_matches('0');
    if significant.is_empty() || !significant.bytes().all(|b| b.is_ascii_digit()) {
        // Zero, or text that is no number (kept in order among its kind).
        return match significant.is_empty() {
            true => "1".to_owned(),
            false => format!("3{written}"),
        };
    }
    // 0.d1d2... × 10^point
    let point = whole.len() as i64 - leading as i64 + exponent;
    let biased = (point + 50_000).clamp(0, 99_999);
    match negative {
        false => format!("2{biased:05}{significant}"),
        true => {
            let inverted: String = (significant.bytes())
                .map(|b| char::from(b'9' - (b - b'0')))
                .collect();
            format!("0{:05}{inverted}~", 99_999 - biased)
        }
    }
}

/// `scale(x)`: the display scale the translation knows (the second
/// argument, -1 where it knows none), else the value's digits after the point.
fn display_scale(_: &Call, args: &[Arg]) -> Out {
    let Some(value) = Decimal::exact(&args[0]) else {
        return Out::Null;
    };
    match args[1].int().filter(|shown| *shown >= 0) {
        Some(shown) => Out::Int(shown),
        None => Out::Int(i64::from(value.parts().1)),
    }
}

/// The value without the zeros that end its fraction.
fn trimmed(value: Decimal) -> Decimal {
    let (mut digits, mut scale) = value.parts();
    while scale > 0 && digits % 10 == 0 {
        digits /= 10;
        scale -= 1;
    }
    Decimal { digits, scale }
}

/// `min_scale(x)`: the fewest digits after the point that show the value.
fn min_scale(_: &Call, args: &[Arg]) -> Out {
    match Decimal::exact(&args[0]) {
        Some(value) => Out::Int(i64::from(trimmed(value).parts().1)),
        None => Out::Null,
    }
}

/// `trim_scale(x)`: the value with those digits only.
fn trim_scale(_: &Call, args: &[Arg]) -> Out {
    let Some(value) = Decimal::exact(&args[0]) else {
        return args[0].unchanged();
    };
    let value = trimmed(value);
    match with_scale(value, value.parts().1) {
        Some(text) => Out::Text(text),
        None => args[0].unchanged(),
    }
}

/// The most digits after the point a value is shown with here.
const MOST_SHOWN: u32 = 1000;

/// A numeric as text with `scale` digits after the point (its display
/// scale, which the translation knows and SQLite's float does not): padded
/// with zeros, or rounded half away from zero. What is no number here (NaN,
/// beyond 38 digits) is shown as it is.
fn shown(_: &Call, args: &[Arg]) -> Out {
    let (Some(value), Some(scale)) = (Decimal::of_arg(&args[0]), args[1].int()) else {
        return args[0].unchanged();
    };
    match u32::try_from(scale).ok().and_then(|s| with_scale(value, s)) {
        Some(text) => Out::Text(text),
        None => args[0].unchanged(),
    }
}

/// `value` written with `scale` digits after the point, rounded half away
/// from zero (a zero without its sign).
pub(super) fn with_scale(value: Decimal, scale: u32) -> Option<String> {
    let (digits, own) = value.parts();
    let unit = 10i128.checked_pow(own).filter(|_| scale <= MOST_SHOWN)?;
    let text = quotient(digits, unit, scale);
    Some(match text.strip_prefix('-') {
        Some(zero) if zero.bytes().all(|b| b == b'0' || b == b'.') => zero.to_owned(),
        _ => text,
    })
}

/// `round(numeric, places)`: half away from zero, at any place (a negative
/// one left of the point: `round(155, -1)` is 160).
fn round_places(_: &Call, args: &[Arg]) -> Out {
    to_places(args, true)
}

/// `trunc(numeric, places)`: the digits past the place dropped.
fn truncate_places(_: &Call, args: &[Arg]) -> Out {
    to_places(args, false)
}

fn to_places(args: &[Arg], round: bool) -> Out {
    let (Some(value), Some(places)) = (Decimal::of_arg(&args[0]), args[1].int()) else {
        return match args[0] {
            Arg::Null => Out::Null,
            _ if args[1] == Arg::Null => Out::Null,
            // Beyond what is exact here: the float's rounding.
            _ => args[0].unchanged(),
        };
    };
    // Shown with the digits asked for (PostgreSQL's result has that display
    // scale: `round(20, 2)` is 20.00), as text the translation reads as a
    // number where it compares or sorts it.
    let shown = u32::try_from(places.max(0)).unwrap_or(0);
    match value
        .to_places(places, round)
        .and_then(|r| with_scale(r, shown))
    {
        Some(text) => Out::Text(text),
        None => args[0].unchanged(),
    }
}

const fn numeric_aggregate(name: &'static str, callbacks: Aggregate) -> Function {
    Function {
        name,
        args: Args::Fixed(&["numeric"]),
        result: "numeric",
        volatility: Volatility::Immutable,
        body: Body::Aggregate(callbacks),
        listed: false,
    }
}

/// The most digits to the right of the point kept exactly.
const MOST_SCALE: u32 = 30;

/// The digits of a quotient's fraction: PostgreSQL's numeric division gives
/// at least 16 significant digits, which a float holds all of.
const QUOTIENT_SCALE: u32 = 20;

/// `digits / 10^scale`, exactly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Decimal {
    digits: i128,
    scale: u32,
}

impl Decimal {
    pub(super) fn of_int(i: i64) -> Decimal {
        Decimal {
            digits: i128::from(i),
            scale: 0,
        }
    }

    /// The float's shortest decimal form (what it prints as), if it fits.
    pub(super) fn of_float(f: f64) -> Option<Decimal> {
        if !f.is_finite() {
            return None;
        }
        let text = format!("{f:e}");
        let (mantissa, exponent) = text.split_once('e')?;
        let exponent: i64 = exponent.parse().ok()?;
        let negative = mantissa.starts_with('-');
        let (whole, fraction) = mantissa
            .trim_start_matches('-')
            .split_once('.')
            .unwrap_or((mantissa.trim_start_matches('-'), ""));
        let digits: i128 = format!("{whole}{fraction}").parse().ok()?;
        let digits = if negative { -digits } else { digits };
        let power = exponent - fraction.len() as i64;
        if power >= 0 {
            let factor = 10i128.checked_pow(u32::try_from(power).ok()?)?;
            return Some(Decimal {
                digits: digits.checked_mul(factor)?,
                scale: 0,
            });
        }
        let scale = u32::try_from(-power).ok()?;
        (scale <= MOST_SCALE).then_some(Decimal { digits, scale })
    }

    /// A number as it is written, every digit kept (`3.50` has scale 2),
    /// if it is one that fits.
    pub(super) fn written(text: &str) -> Option<Decimal> {
        let text = text.trim();
        let (mantissa, exponent) = match text.find(['e', 'E']) {
            Some(at) => (&text[..at], text[at + 1..].parse::<i64>().ok()?),
            None => (text, 0),
        };
        let (negative, unsigned) = match mantissa.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, mantissa.strip_prefix('+').unwrap_or(mantissa)),
        };
        let (whole, fraction) = unsigned.split_once('.').unwrap_or((unsigned, ""));
        let all_digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
        if whole.len() + fraction.len() == 0 || !all_digits(whole) || !all_digits(fraction) {
            return None;
        }
        let digits: i128 = format!("{whole}{fraction}").parse().ok()?;
        let digits = if negative { -digits } else { digits };
        let scale = i64::try_from(fraction.len()).ok()? - exponent;
        match u32::try_from(scale) {
            Ok(scale) => (scale <= MOST_SCALE).then_some(Decimal { digits, scale }),
            Err(_) => Some(Decimal {
                digits: digits.checked_mul(10i128.checked_pow(u32::try_from(-scale).ok()?)?)?,
                scale: 0,
            }),
        }
    }

    /// A numeric argument with every digit it was written with (a numeric's
    /// digits as text keep their scale); `None` for NULL, NaN and what does
    /// not fit.
    pub(super) fn exact(arg: &Arg) -> Option<Decimal> {
        match arg {
            Arg::Text(text) => Decimal::written(text),
            other => Decimal::of_arg(other),
        }
    }

    /// An operand as SQLite holds it.
    pub(super) fn of_arg(arg: &Arg) -> Option<Decimal> {
        match arg {
            Arg::Int(i) => Some(Decimal::of_int(*i)),
            Arg::Real(f) => Decimal::of_float(*f),
            Arg::Text(s) => match s.trim().parse::<i64>() {
                Ok(i) => Some(Decimal::of_int(i)),
                Err(_) => Decimal::of_float(s.trim().parse().ok()?),
            },
            Arg::Blob(_) | Arg::Null => None,
        }
    }

    /// The float nearest the number.
    pub(super) fn to_f64(self) -> f64 {
        format!("{}e-{}", self.digits, self.scale)
            .parse()
            .unwrap_or(f64::NAN)
    }

    /// Both numbers' digits at one scale.
    fn aligned(self, other: Decimal) -> Option<(i128, i128, u32)> {
        let scale = self.scale.max(other.scale);
        let widen = |d: Decimal| d.digits.checked_mul(10i128.checked_pow(scale - d.scale)?);
        Some((widen(self)?, widen(other)?, scale))
    }

    pub(super) fn add(self, other: Decimal) -> Option<Decimal> {
        let (a, b, scale) = self.aligned(other)?;
        Some(Decimal {
            digits: a.checked_add(b)?,
            scale,
        })
    }

    pub(super) fn sub(self, other: Decimal) -> Option<Decimal> {
        let (a, b, scale) = self.aligned(other)?;
        Some(Decimal {
            digits: a.checked_sub(b)?,
            scale,
        })
    }

    pub(super) fn mul(self, other: Decimal) -> Option<Decimal> {
        let scale = self.scale + other.scale;
        (scale <= 2 * MOST_SCALE).then_some(())?;
        Some(Decimal {
            digits: self.digits.checked_mul(other.digits)?,
            scale,
        })
    }

    /// The remainder of truncating division, as PostgreSQL's numeric `%`.
    pub(super) fn rem(self, other: Decimal) -> Option<Decimal> {
        let (a, b, scale) = self.aligned(other)?;
        (b != 0).then_some(())?;
        Some(Decimal {
            digits: a % b,
            scale,
        })
    }

    /// The quotient to 20 digits after the point, rounded half away from
    /// zero, as the float nearest it.
    pub(super) fn div(self, other: Decimal) -> Option<f64> {
        let (a, b, _) = self.aligned(other)?;
        // Long division multiplies remainders below the divisor by ten.
        (b != 0 && b.unsigned_abs() < u128::MAX / 10).then_some(())?;
        quotient(a, b, QUOTIENT_SCALE).parse().ok()
    }

    /// The quotient as PostgreSQL's numeric division writes it, each
    /// operand shown with its display scale (at least its own digits): to
    /// `select_div_scale`'s digits, rounded half away from zero.
    pub(super) fn shown_quotient(self, other: Decimal, scales: (u32, u32)) -> Option<String> {
        let at = |value: Decimal, shown: u32| {
            let scale = shown.max(value.scale);
            let digits = value
                .digits
                .checked_mul(10i128.checked_pow(scale - value.scale)?)?;
            Some((digits, scale))
        };
        let ((n, n_scale), (d, d_scale)) = (at(self, scales.0)?, at(other, scales.1)?);
        let scale = division_scale(n.unsigned_abs(), n_scale, d.unsigned_abs(), d_scale);
        // n / 10^n_scale ÷ d / 10^d_scale
        let numerator = n.checked_mul(10i128.checked_pow(d_scale)?)?;
        let denominator = d.checked_mul(10i128.checked_pow(n_scale)?)?;
        // Long division multiplies remainders below the divisor by ten.
        (denominator != 0 && denominator.unsigned_abs() < u128::MAX / 10).then_some(())?;
        Some(quotient(numerator, denominator, scale))
    }

    /// The quotient truncated toward zero (PostgreSQL's `div`).
    pub(super) fn div_trunc(self, other: Decimal) -> Option<Decimal> {
        let (a, b, _) = self.aligned(other)?;
        (b != 0).then_some(())?;
        Some(Decimal {
            digits: a / b,
            scale: 0,
        })
    }

    /// The greatest common divisor, not negative (PostgreSQL's `gcd`).
    pub(super) fn gcd(self, other: Decimal) -> Option<Decimal> {
        let (mut a, mut b, scale) = self.aligned(other)?;
        (a, b) = (a.checked_abs()?, b.checked_abs()?);
        while b != 0 {
            (a, b) = (b, a % b);
        }
        Some(Decimal { digits: a, scale })
    }

    /// The least common multiple, not negative (PostgreSQL's `lcm`).
    pub(super) fn lcm(self, other: Decimal) -> Option<Decimal> {
        let gcd = self.gcd(other)?;
        if gcd.digits == 0 {
            return Some(Decimal::of_int(0));
        }
        let (a, b, scale) = self.aligned(other)?;
        let product = (a / gcd.digits).checked_mul(b)?.checked_abs()?;
        Some(Decimal {
            digits: product,
            scale,
        })
    }

    /// The number cut to `places` digits after the point (before it when
    /// negative), rounded half away from zero or truncated.
    fn to_places(self, places: i64, round: bool) -> Option<Decimal> {
        let places = places.clamp(-40, i64::from(MOST_SCALE));
        if places >= i64::from(self.scale) {
            return Some(self);
        }
        let dropped = u32::try_from(i64::from(self.scale) - places).ok()?;
        let factor = 10i128.checked_pow(dropped)?;
        let mut kept = self.digits / factor;
        let rest = self.digits % factor;
        if round && rest.unsigned_abs() * 2 >= factor.unsigned_abs() {
            kept += self.digits.signum();
        }
        let (digits, scale) = match u32::try_from(places) {
            Ok(scale) => (kept, scale),
            Err(_) => (
                kept.checked_mul(10i128.checked_pow(u32::try_from(-places).ok()?)?)?,
                0,
            ),
        };
        Some(Decimal { digits, scale })
    }

    /// Its digits and how many of them are right of the point.
    pub(super) fn parts(self) -> (i128, u32) {
        (self.digits, self.scale)
    }

    pub(super) fn is_zero(self) -> bool {
        self.digits == 0
    }

    fn is_integer(self) -> bool {
        self.scale == 0
    }
}

/// A numeric result: an integer while every operand was one and it fits,
/// else the float nearest it.
pub(super) fn numeric_out(result: Decimal) -> Out {
    match (result.is_integer(), i64::try_from(result.digits)) {
        (true, Ok(i)) => Out::Int(i),
        _ => Out::Real(result.to_f64()),
    }
}

/// `sum(numeric)`: exact while the values fit, else float addition.
#[derive(Default)]
struct NumericSum {
    exact: Option<Decimal>,
    float: f64,
    /// A value did not fit: the float sum answers.
    inexact: bool,
    any: bool,
    /// Every value was an integer.
    integers: bool,
    started: bool,
}

impl NumericSum {
    fn add(&mut self, arg: &Arg) {
        let value = match arg {
            Arg::Null => return,
            Arg::Int(i) => *i as f64,
            other => other.float().unwrap_or(0.0),
        };
        if !self.started {
            self.started = true;
            self.integers = true;
        }
        self.integers &= matches!(arg, Arg::Int(_));
        self.any = true;
        self.float += value;
        if self.inexact {
            return;
        }
        let sum =
            Decimal::of_arg(arg).and_then(|d| d.add(self.exact.unwrap_or(Decimal::of_int(0))));
        match sum {
            Some(sum) => self.exact = Some(sum),
            None => self.inexact = true,
        }
    }

    fn total(&self) -> Out {
        match (self.any, self.inexact, self.exact) {
            (false, _, _) => Out::Null,
            (true, false, Some(sum)) if self.integers => numeric_out(sum),
            (true, false, Some(sum)) => Out::Real(sum.to_f64()),
            _ => Out::Real(self.float),
        }
    }
}

impl Accumulator for NumericSum {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        self.add(&args[0]);
        Ok(())
    }

    fn finish(self) -> Out {
        self.total()
    }
}

/// `avg(numeric)`: the exact sum divided by the count.
#[derive(Default)]
struct NumericAvg {
    sum: NumericSum,
    count: i64,
}

impl Accumulator for NumericAvg {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        if args[0] != Arg::Null {
            self.count += 1;
        }
        self.sum.add(&args[0]);
        Ok(())
    }

    fn finish(self) -> Out {
        if self.count == 0 {
            return Out::Null;
        }
        let exact = match (self.sum.inexact, self.sum.exact) {
            (false, Some(sum)) => sum.mean(self.count),
            _ => None,
        };
        exact.map_or_else(|| Out::Real(self.sum.float / self.count as f64), Out::Text)
    }
}

impl Decimal {
    /// `self / count` with the digits PostgreSQL's numeric division shows
    /// (`avg` of 1.5, 2.5 and 3.25 is `2.4166666666666667`).
    fn mean(self, count: i64) -> Option<String> {
        let divisor = i128::from(count).checked_mul(10i128.checked_pow(self.scale)?)?;
        (divisor.unsigned_abs() < u128::MAX / 10).then_some(())?;
        let unsigned = |v: i128| v.unsigned_abs();
        let scale = division_scale(
            unsigned(self.digits),
            self.scale,
            unsigned(i128::from(count)),
            0,
        );
        Some(quotient(self.digits, divisor, scale))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(f: f64) -> Decimal {
        Decimal::of_float(f).expect("fits")
    }

    #[test]
    fn order_keys_compare_as_the_numbers() {
        let ordered = [
            "-Infinity",
            "-1e20",
            "-12.5",
            "-12.25",
            "-0.123",
            "-0.12",
            "-1e-20",
            "0",
            "1e-20",
            "0.12",
            "0.123",
            "9.5",
            "10.5",
            "20.2899999999999999",
            "20.29",
            "1e20",
            "Infinity",
            "NaN",
        ];
        for pair in ordered.windows(2) {
            assert!(numeric_key(pair[0]) < numeric_key(pair[1]), "{pair:?}");
        }
        for same in [
            ["20.29", "20.290"],
            ["0", "0.000"],
            ["1e2", "100"],
            ["-3.50", "-3.5"],
        ] {
            assert_eq!(numeric_key(same[0]), numeric_key(same[1]), "{same:?}");
        }
        assert_eq!(numeric_key(&format!("{:e}", 10.5f64)), numeric_key("10.5"));
    }

    #[test]
    fn written_numbers_keep_every_digit() {
        let parts = |text: &str| Decimal::written(text).map(Decimal::parts);
        assert_eq!(
            parts("3.5000000000000000"),
            Some((35_000_000_000_000_000, 16))
        );
        assert_eq!(parts(" -0.50 "), Some((-50, 2)));
        assert_eq!(parts("1.5e-3"), Some((15, 4)));
        assert_eq!(parts("2.5E+2"), Some((250, 0)));
        assert_eq!(parts("NaN"), None);
        assert_eq!(parts("1.2.3"), None);
        let seven = Decimal::written("7.0").expect("a number");
        let two = Decimal::of_int(2);
        assert_eq!(
            seven.shown_quotient(two, (1, 0)).as_deref(),
            Some("3.5000000000000000")
        );
        assert_eq!(
            with_scale(seven.mul(two).expect("fits"), 1).as_deref(),
            Some("14.0")
        );
    }

    #[test]
    fn floats_read_as_the_decimals_they_print_as() {
        assert_eq!(d(0.1).add(d(0.2)).map(Decimal::to_f64), Some(0.3));
        assert_eq!(
            d(1.1).mul(Decimal::of_int(3)).map(Decimal::to_f64),
            Some(3.3)
        );
        assert_eq!(d(0.3).div(d(0.1)), Some(3.0));
        assert_eq!(d(1.0).sub(d(0.9)).map(Decimal::to_f64), Some(0.1));
        assert_eq!(d(5.5).rem(d(2.0)).map(Decimal::to_f64), Some(1.5));
        assert_eq!(d(-7.25).rem(d(2.0)).map(Decimal::to_f64), Some(-1.25));
        assert_eq!(
            d(1e20),
            Decimal {
                digits: 10i128.pow(20),
                scale: 0
            }
        );
        assert_eq!(Decimal::of_float(1e-300), None);
        assert_eq!(d(1e37).div(d(9e37)), None);
        assert_eq!(Decimal::of_float(f64::NAN), None);
    }

    #[test]
    fn sums_are_exact() {
        let mut sum = NumericSum::default();
        for value in [Arg::Real(0.1), Arg::Real(0.2), Arg::Null] {
            sum.add(&value);
        }
        assert_eq!(sum.total(), Out::Real(0.3));
        let mut avg = NumericAvg::default();
        for value in [Arg::Real(0.1), Arg::Real(0.2)] {
            avg.step(&[value]).expect("adds");
        }
        assert_eq!(avg.finish(), Out::Text("0.15000000000000000000".to_owned()));
    }
}
