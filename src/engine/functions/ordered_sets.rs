//! PostgreSQL's ordered-set aggregates: `percentile_cont(f) WITHIN GROUP
//! (ORDER BY x)`, `percentile_disc` and `mode`. The translation calls them as
//! `litewire_percentile_cont(f, x ORDER BY x)`, so SQLite hands the values in
//! sort order (its order for the type, with NULLs skipped here as PostgreSQL
//! skips them), and each answers from the sorted values as PostgreSQL does.

use super::aggregate::{Accumulator, callbacks};
use super::call::{Arg, Out};
use super::definition::{Args, Body, Function, Volatility};
use crate::error::SqlState;

const fn ordered<A: Accumulator>(name: &'static str, args: &'static [&'static str]) -> Function {
    Function {
        name,
        args: Args::Fixed(args),
        result: "anyelement",
        volatility: Volatility::Immutable,
        body: Body::Aggregate(callbacks::<A>()),
        listed: false,
    }
}

pub(super) const FUNCTIONS: &[Function] = &[
    ordered::<Continuous>("litewire_percentile_cont", &["float8", "float8"]),
    ordered::<Discrete>("litewire_percentile_disc", &["float8", "anyelement"]),
    ordered::<Mode>("litewire_mode", &["anyelement"]),
];

/// A value kept past its row.
#[derive(Debug, Clone, PartialEq)]
enum Kept {
    Int(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Kept {
    fn of(arg: &Arg) -> Option<Kept> {
        Some(match arg {
            Arg::Null => return None,
            Arg::Int(i) => Kept::Int(*i),
            Arg::Real(f) => Kept::Real(*f),
            Arg::Text(s) => Kept::Text((*s).to_owned()),
            Arg::Blob(b) => Kept::Blob(b.to_vec()),
        })
    }

    fn out(self) -> Out {
        match self {
            Kept::Int(i) => Out::Int(i),
            Kept::Real(f) => Out::Real(f),
            Kept::Text(s) => Out::Text(s),
            Kept::Blob(b) => Out::Blob(b),
        }
    }
}

/// The fraction argument: the first row's (PostgreSQL takes it once), which
/// must lie in [0, 1].
fn fraction(slot: &mut Option<Option<f64>>, arg: &Arg) -> Result<(), Out> {
    if slot.is_some() {
        return Ok(());
    }
    let value = arg.float();
    if let Some(f) = value
        && !(0.0..=1.0).contains(&f)
    {
        return Err(Out::Fail(
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            format!("percentile value {f} is not between 0 and 1"),
        ));
    }
    *slot = Some(value);
    Ok(())
}

/// `percentile_cont`: interpolated between the two nearest values.
#[derive(Default)]
struct Continuous {
    fraction: Option<Option<f64>>,
    values: Vec<f64>,
}

impl Accumulator for Continuous {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        fraction(&mut self.fraction, &args[0])?;
        match (&args[1], args[1].float()) {
            (Arg::Null, _) => {}
            (_, Some(f)) => self.values.push(f),
            (_, None) => {
                return Err(Out::Fail(
                    SqlState::DATATYPE_MISMATCH,
                    "percentile_cont takes numbers".to_owned(),
                ));
            }
        }
        Ok(())
    }

    fn finish(self) -> Out {
        let (Some(Some(f)), false) = (self.fraction, self.values.is_empty()) else {
            return Out::Null;
        };
        let position = f * (self.values.len() - 1) as f64;
        let (first, second) = (position.floor() as usize, position.ceil() as usize);
        let (low, high) = (self.values[first], self.values[second]);
        Out::Real(match first == second {
            true => low,
            false => low + (high - low) * (position - first as f64),
        })
    }
}

/// `percentile_disc`: the first value at or past the fraction.
#[derive(Default)]
struct Discrete {
    fraction: Option<Option<f64>>,
    values: Vec<Kept>,
}

impl Accumulator for Discrete {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        fraction(&mut self.fraction, &args[0])?;
        self.values.extend(Kept::of(&args[1]));
        Ok(())
    }

    fn finish(mut self) -> Out {
        let (Some(Some(f)), false) = (self.fraction, self.values.is_empty()) else {
            return Out::Null;
        };
        let row = (f * self.values.len() as f64).ceil() as usize;
        self.values.swap_remove(row.saturating_sub(1)).out()
    }
}

/// `mode`: the most frequent value, the first in sort order among equals.
#[derive(Default)]
struct Mode {
    best: Option<(Kept, usize)>,
    current: Option<(Kept, usize)>,
}

impl Accumulator for Mode {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        let Some(value) = Kept::of(&args[0]) else {
            return Ok(());
        };
        match &mut self.current {
            Some((run, count)) if *run == value => *count += 1,
            _ => {
                self.settle();
                self.current = Some((value, 1));
            }
        }
        Ok(())
    }

    fn finish(mut self) -> Out {
        self.settle();
        self.best.map_or(Out::Null, |(value, _)| value.out())
    }
}

impl Mode {
    /// The run just ended becomes the best if it is longer.
    fn settle(&mut self) {
        if let Some((value, count)) = self.current.take()
            && self.best.as_ref().is_none_or(|(_, best)| count > *best)
        {
            self.best = Some((value, count));
        }
    }
}
