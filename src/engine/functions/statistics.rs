//! PostgreSQL's statistics aggregates: `var_pop`, `var_samp` (`variance`),
//! `stddev_pop`, `stddev_samp` (`stddev`) over one column, and `covar_pop`,
//! `covar_samp`, `corr` and the `regr_*` family over (Y, X) pairs.
//!
//! They accumulate as PostgreSQL's float8 aggregates do (the Youngs-Cramer
//! update of N, Sx and Sxx rather than a running sum of squares, which loses
//! digits), with its rules for NaN and infinity (an infinite input makes a
//! variance NaN, not infinite; finite inputs that overflow are 22003), so the
//! digits printed are PostgreSQL's. A row with a NULL argument is skipped.
//! Integer and `numeric` arguments have their own, exact spread (see
//! `numeric_spread`).

use std::marker::PhantomData;

use super::aggregate::{Accumulator, callbacks};
use super::call::{Arg, Call, Out};
use super::definition::{Args, Body, Function, Volatility};
use super::division::{division_scale, quotient};
use crate::error::SqlState;

/// The aggregate `name` over `args`, computed by `A`.
const fn aggregate<A: Accumulator>(
    name: &'static str,
    args: &'static [&'static str],
    result: &'static str,
) -> Function {
    Function {
        name,
        args: Args::Fixed(args),
        result,
        volatility: Volatility::Immutable,
        body: Body::Aggregate(callbacks::<A>()),
        listed: true,
    }
}

const ONE: &[&str] = &["float8"];
const PAIR: &[&str] = &["float8", "float8"];

pub(super) const FUNCTIONS: &[Function] = &[
    aggregate::<Spread<VarPop>>("var_pop", ONE, "float8"),
    aggregate::<Spread<VarSamp>>("var_samp", ONE, "float8"),
    aggregate::<Spread<VarSamp>>("variance", ONE, "float8"),
    aggregate::<Spread<StddevPop>>("stddev_pop", ONE, "float8"),
    aggregate::<Spread<StddevSamp>>("stddev_samp", ONE, "float8"),
    aggregate::<Spread<StddevSamp>>("stddev", ONE, "float8"),
    aggregate::<Pairs<RegrCount>>("regr_count", PAIR, "int8"),
    aggregate::<Pairs<RegrSxx>>("regr_sxx", PAIR, "float8"),
    aggregate::<Pairs<RegrSyy>>("regr_syy", PAIR, "float8"),
    aggregate::<Pairs<RegrSxy>>("regr_sxy", PAIR, "float8"),
    aggregate::<Pairs<RegrAvgX>>("regr_avgx", PAIR, "float8"),
    aggregate::<Pairs<RegrAvgY>>("regr_avgy", PAIR, "float8"),
    aggregate::<Pairs<RegrR2>>("regr_r2", PAIR, "float8"),
    aggregate::<Pairs<RegrSlope>>("regr_slope", PAIR, "float8"),
    aggregate::<Pairs<RegrIntercept>>("regr_intercept", PAIR, "float8"),
    aggregate::<Pairs<CovarPop>>("covar_pop", PAIR, "float8"),
    aggregate::<Pairs<CovarSamp>>("covar_samp", PAIR, "float8"),
    aggregate::<Pairs<Corr>>("corr", PAIR, "float8"),
    Function {
        listed: false,
        ..aggregate::<FloatSum>("litewire_float_sum", ONE, "float8")
    },
    Function {
        listed: false,
        ..aggregate::<Spread<Mean>>("litewire_float_avg", ONE, "float8")
    },
    Function {
        listed: false,
        ..aggregate::<Float4Sum>("litewire_float4_sum", &["float4"], "float4")
    },
    Function {
        listed: false,
        ..aggregate::<IntegerMean>("litewire_int_avg", &["int8"], "numeric")
    },
    Function::helper(
        "litewire_float4_value",
        Args::Fixed(&["float4"]),
        Volatility::Immutable,
        float4_value,
    ),
];

/// A `real` argument as float8 sees it: the float4 nearest the stored value,
/// widened (`57.4::float4::float8` is 57.400001525878906), as PostgreSQL's
/// float4 aggregates read their input.
fn float4_value(_: &Call, args: &[Arg]) -> Out {
    match number(&args[0]) {
        Ok(Some(f)) => Out::Real(f64::from(f as f32)),
        Ok(None) => Out::Null,
        Err(out) => out,
    }
}

/// An argument as a float8; NULL as `None`.
fn number(arg: &Arg) -> Result<Option<f64>, Out> {
    match arg {
        Arg::Null => Ok(None),
        Arg::Int(i) => Ok(Some(*i as f64)),
        Arg::Real(f) => Ok(Some(*f)),
        Arg::Text(s) => match s.trim().to_ascii_lowercase().as_str() {
            "nan" => Ok(Some(f64::NAN)),
            "infinity" | "inf" | "+infinity" => Ok(Some(f64::INFINITY)),
            "-infinity" | "-inf" => Ok(Some(f64::NEG_INFINITY)),
            t => t.parse().map(Some).map_err(|_| {
                Out::Fail(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    format!("invalid input syntax for type double precision: \"{s}\""),
                )
            }),
        },
        Arg::Blob(_) => Err(Out::Fail(
            SqlState::DATATYPE_MISMATCH,
            "a statistics aggregate takes numbers".to_owned(),
        )),
    }
}

fn overflow() -> Out {
    Out::Fail(
        SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
        "value out of range: overflow".to_owned(),
    )
}

fn real(value: Option<f64>) -> Out {
    value.map_or(Out::Null, Out::Real)
}

/// N, Sx and Sxx of one column.
#[derive(Default, Clone, Copy)]
pub(super) struct Moments {
    n: f64,
    sx: f64,
    sxx: f64,
}

impl Moments {
    fn add(&mut self, x: f64) -> Result<(), Out> {
        let previous = *self;
        self.n += 1.0;
        self.sx += x;
        if previous.n > 0.0 {
            let tmp = x * self.n - self.sx;
            self.sxx += tmp * tmp / (self.n * previous.n);
            // Finite inputs that overflow are an error; an infinite one makes
            // the spread NaN (never infinite).
            if self.sx.is_infinite() || self.sxx.is_infinite() {
                if !previous.sx.is_infinite() && !x.is_infinite() {
                    return Err(overflow());
                }
                self.sxx = f64::NAN;
            }
        } else if !x.is_finite() {
            // Alone, an infinite or NaN input would otherwise leave a spread of 0.
            self.sxx = f64::NAN;
        }
        Ok(())
    }
}

/// A one-column aggregate: its moments and what it gives from them (`F`).
pub(super) struct Spread<F> {
    moments: Moments,
    result: PhantomData<F>,
}

impl<F> Default for Spread<F> {
    fn default() -> Self {
        Spread {
            moments: Moments::default(),
            result: PhantomData,
        }
    }
}

/// What a one-column aggregate gives from its moments.
pub(super) trait SpreadFinal: 'static {
    fn value(m: &Moments) -> Option<f64>;
}

impl<F: SpreadFinal> Accumulator for Spread<F> {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        match number(&args[0])? {
            Some(x) => self.moments.add(x),
            None => Ok(()),
        }
    }

    fn finish(self) -> Out {
        real(F::value(&self.moments))
    }
}

/// `sum(float8)` as PostgreSQL adds: left to right, in plain float8 (not
/// SQLite's compensated sum, whose last digits differ), NaN and infinities
/// as values, and finite inputs that overflow an error.
#[derive(Default)]
struct FloatSum(Option<f64>);

impl Accumulator for FloatSum {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        if let Some(x) = number(&args[0])? {
            let total = self.0.map_or(x, |sum| sum + x);
            if total.is_infinite() && self.0.is_some_and(f64::is_finite) && x.is_finite() {
                return Err(overflow());
            }
            self.0 = Some(total);
        }
        Ok(())
    }

    fn finish(self) -> Out {
        real(self.0)
    }
}

/// `sum(real)`: in float4 arithmetic, as PostgreSQL adds reals.
#[derive(Default)]
struct Float4Sum(Option<f32>);

impl Accumulator for Float4Sum {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        if let Some(x) = number(&args[0])? {
            let x = x as f32;
            let total = self.0.map_or(x, |sum| sum + x);
            if total.is_infinite() && self.0.is_some_and(f32::is_finite) && x.is_finite() {
                return Err(overflow());
            }
            self.0 = Some(total);
        }
        Ok(())
    }

    fn finish(self) -> Out {
        real(self.0.map(f64::from))
    }
}

/// `avg` of integers: their exact sum divided by their count as PostgreSQL's
/// numeric division divides (`1.5000000000000000`).
#[derive(Default)]
struct IntegerMean {
    sum: i128,
    count: i128,
}

impl Accumulator for IntegerMean {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        match &args[0] {
            Arg::Null => {}
            Arg::Int(i) => {
                self.sum += i128::from(*i);
                self.count += 1;
            }
            other => {
                let value = other.int().ok_or_else(|| {
                    Out::Fail(
                        SqlState::DATATYPE_MISMATCH,
                        "avg takes integers here".to_owned(),
                    )
                })?;
                self.sum += i128::from(value);
                self.count += 1;
            }
        }
        Ok(())
    }

    fn finish(self) -> Out {
        if self.count == 0 {
            return Out::Null;
        }
        let scale = division_scale(self.sum.unsigned_abs(), 0, self.count.unsigned_abs(), 0);
        Out::Text(quotient(self.sum, self.count, scale))
    }
}

/// `avg(float8)`: Sx / N of the moments PostgreSQL keeps.
struct Mean;

impl SpreadFinal for Mean {
    fn value(m: &Moments) -> Option<f64> {
        (m.n > 0.0).then(|| m.sx / m.n)
    }
}

pub(super) struct VarPop;
pub(super) struct VarSamp;
pub(super) struct StddevPop;
pub(super) struct StddevSamp;

impl SpreadFinal for VarPop {
    fn value(m: &Moments) -> Option<f64> {
        (m.n > 0.0).then(|| m.sxx / m.n)
    }
}
impl SpreadFinal for VarSamp {
    fn value(m: &Moments) -> Option<f64> {
        (m.n > 1.0).then(|| m.sxx / (m.n - 1.0))
    }
}
impl SpreadFinal for StddevPop {
    fn value(m: &Moments) -> Option<f64> {
        VarPop::value(m).map(f64::sqrt)
    }
}
impl SpreadFinal for StddevSamp {
    fn value(m: &Moments) -> Option<f64> {
        VarSamp::value(m).map(f64::sqrt)
    }
}

/// N, Sx, Sxx, Sy, Syy and Sxy of (Y, X) pairs.
#[derive(Default, Clone, Copy)]
struct CoMoments {
    n: f64,
    sx: f64,
    sxx: f64,
    sy: f64,
    syy: f64,
    sxy: f64,
}

impl CoMoments {
    fn add(&mut self, y: f64, x: f64) -> Result<(), Out> {
        let previous = *self;
        self.n += 1.0;
        self.sx += x;
        self.sy += y;
        if previous.n > 0.0 {
            let tmp_x = x * self.n - self.sx;
            let tmp_y = y * self.n - self.sy;
            let scale = 1.0 / (self.n * previous.n);
            self.sxx += tmp_x * tmp_x * scale;
            self.syy += tmp_y * tmp_y * scale;
            self.sxy += tmp_x * tmp_y * scale;
            let x_over = self.sx.is_infinite() || self.sxx.is_infinite();
            let y_over = self.sy.is_infinite() || self.syy.is_infinite();
            let (x_finite, y_finite) = (
                !previous.sx.is_infinite() && !x.is_infinite(),
                !previous.sy.is_infinite() && !y.is_infinite(),
            );
            if (x_over && x_finite)
                || (y_over && y_finite)
                || (self.sxy.is_infinite() && x_finite && y_finite)
            {
                return Err(overflow());
            }
            for s in [&mut self.sxx, &mut self.syy, &mut self.sxy] {
                if s.is_infinite() {
                    *s = f64::NAN;
                }
            }
        } else {
            if !x.is_finite() {
                (self.sxx, self.sxy) = (f64::NAN, f64::NAN);
            }
            if !y.is_finite() {
                (self.syy, self.sxy) = (f64::NAN, f64::NAN);
            }
        }
        Ok(())
    }
}

/// A two-column aggregate over (Y, X): its co-moments and what it gives from
/// them (`F`).
struct Pairs<F> {
    moments: CoMoments,
    result: PhantomData<F>,
}

impl<F> Default for Pairs<F> {
    fn default() -> Self {
        Pairs {
            moments: CoMoments::default(),
            result: PhantomData,
        }
    }
}

/// What a two-column aggregate gives from its co-moments.
trait PairsFinal: 'static {
    fn value(m: &CoMoments) -> Out;
}

impl<F: PairsFinal> Accumulator for Pairs<F> {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        match (number(&args[0])?, number(&args[1])?) {
            (Some(y), Some(x)) => self.moments.add(y, x),
            _ => Ok(()),
        }
    }

    fn finish(self) -> Out {
        F::value(&self.moments)
    }
}

/// Declares a two-column aggregate's final function: `None` is NULL.
macro_rules! pairs_final {
    ($($name:ident => |$m:ident| $body:expr;)*) => {$(
        struct $name;
        impl PairsFinal for $name {
            fn value($m: &CoMoments) -> Out {
                let value: Option<f64> = $body;
                real(value)
            }
        }
    )*};
}

pairs_final! {
    RegrSxx => |m| (m.n >= 1.0).then_some(m.sxx);
    RegrSyy => |m| (m.n >= 1.0).then_some(m.syy);
    RegrSxy => |m| (m.n >= 1.0).then_some(m.sxy);
    RegrAvgX => |m| (m.n >= 1.0).then(|| m.sx / m.n);
    RegrAvgY => |m| (m.n >= 1.0).then(|| m.sy / m.n);
    CovarPop => |m| (m.n >= 1.0).then(|| m.sxy / m.n);
    CovarSamp => |m| (m.n >= 2.0).then(|| m.sxy / (m.n - 1.0));
    // NULL for a horizontal or vertical line.
    Corr => |m| (m.n >= 1.0 && m.sxx != 0.0 && m.syy != 0.0)
        .then(|| m.sxy / (m.sxx * m.syy).sqrt());
    RegrR2 => |m| (m.n >= 1.0 && m.sxx != 0.0).then(|| match m.syy == 0.0 {
        true => 1.0,
        false => m.sxy * m.sxy / (m.sxx * m.syy),
    });
    RegrSlope => |m| (m.n >= 1.0 && m.sxx != 0.0).then(|| m.sxy / m.sxx);
    RegrIntercept => |m| (m.n >= 1.0 && m.sxx != 0.0)
        .then(|| (m.sy - m.sx * m.sxy / m.sxx) / m.n);
}

/// `regr_count`: the pairs with neither value NULL (0 over none).
struct RegrCount;
impl PairsFinal for RegrCount {
    fn value(m: &CoMoments) -> Out {
        Out::Int(m.n as i64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run<A: Accumulator>(rows: &[&[Arg]]) -> Out {
        let mut state = A::default();
        for row in rows {
            if let Err(out) = state.step(row) {
                return out;
            }
        }
        state.finish()
    }

    #[test]
    fn variance_is_youngs_cramer_with_postgres_edge_cases() {
        let rows: Vec<[Arg; 1]> = [56.7, 100.0, 0.09561, 324.78]
            .into_iter()
            .map(|f| [Arg::Real(f)])
            .collect();
        let rows: Vec<&[Arg]> = rows.iter().map(|r| &r[..]).collect();
        assert_eq!(
            run::<Spread<VarPop>>(&rows),
            Out::Real(15_179.545_126_138_515)
        );
        assert_eq!(run::<Spread<VarSamp>>(&[&[Arg::Real(2.0)]]), Out::Null);
        assert_eq!(run::<Spread<VarPop>>(&[&[Arg::Real(1.0)]]), Out::Real(0.0));
        assert_eq!(run::<Spread<VarPop>>(&[]), Out::Null);
        match run::<Spread<VarPop>>(&[&[Arg::Text("inf")]]) {
            Out::Real(f) => assert!(f.is_nan()),
            other => panic!("{other:?}"),
        }
        assert_eq!(
            run::<Spread<VarPop>>(&[&[Arg::Real(1e308)], &[Arg::Real(-1e308)]]),
            overflow()
        );
        assert_eq!(run::<Pairs<RegrCount>>(&[]), Out::Int(0));
        assert_eq!(
            run::<Pairs<Corr>>(&[
                &[Arg::Real(1.0), Arg::Real(1.0)],
                &[Arg::Real(1.0), Arg::Real(2.0)]
            ]),
            Out::Null
        );
    }
}
