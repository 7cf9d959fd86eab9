//! `var_pop`, `var_samp`, `stddev_pop` and `stddev_samp` (and `variance`,
//! `stddev`) of integers and `numeric`, which PostgreSQL answers in numeric,
//! exactly, to the digits its division picks: `var_pop` of 1, 2 and 4 is
//! `1.5555555555555556`, `stddev_samp` of 1.5, 2.5 and 3.25 is
//! `0.87797114607106157070`. A float8 computation agrees to about 15 digits
//! and prints others, so the spread is computed as PostgreSQL computes it,
//! from the exact N, Σx and Σx²: `(N·Σx² − (Σx)²) / (N·N)` (or `N·(N−1)`)
//! to the division's digits, and the root of that correctly rounded at the
//! same digits. Values beyond 38 digits fall back to float8's answer.

use std::marker::PhantomData;

use super::aggregate::{Accumulator, callbacks};
use super::call::{Arg, Out};
use super::decimal::Decimal;
use super::definition::{Args, Body, Function, Volatility};
use super::division::{division_scale, quotient};
use super::statistics::{Spread, SpreadFinal, StddevPop, StddevSamp, VarPop, VarSamp};

pub(super) const FUNCTIONS: &[Function] = &[
    spread::<VarPop>("litewire_numeric_var_pop"),
    spread::<VarSamp>("litewire_numeric_var_samp"),
    spread::<StddevPop>("litewire_numeric_stddev_pop"),
    spread::<StddevSamp>("litewire_numeric_stddev_samp"),
];

const fn spread<F: Exact>(name: &'static str) -> Function {
    Function {
        name,
        args: Args::Fixed(&["numeric"]),
        result: "numeric",
        volatility: Volatility::Immutable,
        body: Body::Aggregate(callbacks::<NumericSpread<F>>()),
        listed: false,
    }
}

/// Which spread: over N − 1 or N, and its root or not.
pub(super) trait Exact: SpreadFinal {
    const SAMPLE: bool;
    const ROOT: bool;
}

impl Exact for VarPop {
    const SAMPLE: bool = false;
    const ROOT: bool = false;
}
impl Exact for VarSamp {
    const SAMPLE: bool = true;
    const ROOT: bool = false;
}
impl Exact for StddevPop {
    const SAMPLE: bool = false;
    const ROOT: bool = true;
}
impl Exact for StddevSamp {
    const SAMPLE: bool = true;
    const ROOT: bool = true;
}

/// N, Σx and Σx² in decimal while they fit, beside float8's moments.
struct NumericSpread<F> {
    float: Spread<F>,
    n: i64,
    sum: Decimal,
    squares: Decimal,
    exact: bool,
    kind: PhantomData<F>,
}

impl<F> Default for NumericSpread<F> {
    fn default() -> Self {
        NumericSpread {
            float: Spread::default(),
            n: 0,
            sum: Decimal::of_int(0),
            squares: Decimal::of_int(0),
            exact: true,
            kind: PhantomData,
        }
    }
}

impl<F: Exact> Accumulator for NumericSpread<F> {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        if args[0] == Arg::Null {
            return Ok(());
        }
        self.float.step(args)?;
        self.n += 1;
        if self.exact {
            let added = Decimal::of_arg(&args[0])
                .and_then(|x| Some((self.sum.add(x)?, self.squares.add(x.mul(x)?)?)));
            match added {
                Some((sum, squares)) => (self.sum, self.squares) = (sum, squares),
                None => self.exact = false,
            }
        }
        Ok(())
    }

    fn finish(self) -> Out {
        if self.n == 0 || (F::SAMPLE && self.n == 1) {
            return Out::Null;
        }
        let exact = self
            .exact
            .then(|| exact_spread(self.n, self.sum, self.squares, F::SAMPLE, F::ROOT));
        match (exact.flatten(), self.float.finish()) {
            (Some(text), _) => Out::Text(text),
            // SQLite would hold a NaN as NULL.
            (None, Out::Real(f)) if f.is_nan() => Out::Text("NaN".to_owned()),
            (None, float) => float,
        }
    }
}

/// The spread as PostgreSQL's `numeric_stddev_internal` computes it, if its
/// digits fit.
fn exact_spread(
    n: i64,
    sum: Decimal,
    squares: Decimal,
    sample: bool,
    root: bool,
) -> Option<String> {
    let numerator = Decimal::of_int(n).mul(squares)?.sub(sum.mul(sum)?)?;
    let (digits, scale) = numerator.parts();
    // Rounding cannot make it negative here, but PostgreSQL's guard stands.
    if digits <= 0 {
        return Some("0".to_owned());
    }
    let n = i128::from(n);
    let denominator = n.checked_mul(if sample { n - 1 } else { n })?;
    let result_scale = division_scale(digits.unsigned_abs(), scale, denominator.unsigned_abs(), 0);
    let divisor = denominator.checked_mul(10i128.checked_pow(scale)?)?;
    (divisor.unsigned_abs() < u128::MAX / 10).then_some(())?;
    let variance = quotient(digits, divisor, result_scale);
    if !root {
        return Some(variance);
    }
    let mantissa: u128 = variance.replace('.', "").parse().ok()?;
    let shifted = Wide::product(mantissa, 10u128.checked_pow(result_scale)?);
    Some(scaled(shifted.rounded_root(), result_scale))
}

/// `digits / 10^scale` with every digit of the scale shown.
fn scaled(digits: u128, scale: u32) -> String {
    let text = format!("{digits:0>width$}", width = scale as usize + 1);
    let (whole, fraction) = text.split_at(text.len() - scale as usize);
    match scale {
        0 => whole.to_owned(),
        _ => format!("{whole}.{fraction}"),
    }
}

/// A 256-bit unsigned integer, enough for a 38-digit number shifted by 38
/// digits: the square whose root is the deviation's digits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Wide {
    high: u128,
    low: u128,
}

impl Wide {
    /// `a · b`, from 64-bit halves.
    fn product(a: u128, b: u128) -> Wide {
        const HALF: u128 = u64::MAX as u128;
        let (a1, a0, b1, b0) = (a >> 64, a & HALF, b >> 64, b & HALF);
        let (p00, p01, p10, p11) = (a0 * b0, a0 * b1, a1 * b0, a1 * b1);
        let middle = (p00 >> 64) + (p01 & HALF) + (p10 & HALF);
        Wide {
            high: p11 + (p01 >> 64) + (p10 >> 64) + (middle >> 64),
            low: (p00 & HALF) | (middle << 64),
        }
    }

    fn minus(self, other: Wide) -> Wide {
        let (low, borrow) = self.low.overflowing_sub(other.low);
        Wide {
            high: self.high - other.high - u128::from(borrow),
            low,
        }
    }

    /// The square root rounded half up to an integer: the largest `r` with
    /// `r² ≤ self`, plus one where `self − r² > r` (the root is at least
    /// `r + ½`).
    fn rounded_root(self) -> u128 {
        let mut root = 0u128;
        for bit in (0..128).rev() {
            let candidate = root | (1 << bit);
            if Wide::product(candidate, candidate) <= self {
                root = candidate;
            }
        }
        let rest = self.minus(Wide::product(root, root));
        match rest > (Wide { high: 0, low: root }) {
            true => root + 1,
            false => root,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(text: &str) -> Decimal {
        Decimal::of_arg(&Arg::Text(text)).expect("fits")
    }

    fn spread(values: &[&str], sample: bool, root: bool) -> Option<String> {
        let (mut sum, mut squares) = (Decimal::of_int(0), Decimal::of_int(0));
        for v in values {
            sum = sum.add(d(v))?;
            squares = squares.add(d(v).mul(d(v))?)?;
        }
        exact_spread(values.len() as i64, sum, squares, sample, root)
    }

    #[test]
    fn spreads_have_postgres_digits() {
        assert_eq!(
            spread(&["1", "2", "4"], false, false).as_deref(),
            Some("1.5555555555555556")
        );
        assert_eq!(
            spread(&["1", "2", "4"], true, false).as_deref(),
            Some("2.3333333333333333")
        );
        assert_eq!(
            spread(&["10", "20", "40"], false, true).as_deref(),
            Some("12.4721912892464713")
        );
        assert_eq!(
            spread(&["1.5", "2.5", "3.25"], true, true).as_deref(),
            Some("0.87797114607106157070")
        );
        assert_eq!(spread(&["5", "5"], true, false).as_deref(), Some("0"));
    }

    #[test]
    fn wide_roots_round_half_up() {
        assert_eq!(Wide::product(u128::MAX, u128::MAX).high, u128::MAX - 1);
        assert_eq!(Wide::product(10, 10).rounded_root(), 10);
        assert_eq!(Wide::product(1, 12).rounded_root(), 3); // 3.46
        assert_eq!(Wide::product(1, 13).rounded_root(), 4); // 3.61
        let big = 10u128.pow(38);
        assert_eq!(Wide::product(big, big).rounded_root(), big);
    }
}
