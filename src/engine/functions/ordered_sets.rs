//! PostgreSQL's ordered-set aggregates: `percentile_cont(f) WITHIN GROUP
//! (ORDER BY x)`, `percentile_disc` (of one fraction or an array of them) and
//! `mode`. The translation calls them as `litewire_percentile_cont(f, x ORDER
//! BY x)`, so SQLite hands the values in sort order (its order for the type,
//! with NULLs skipped here as PostgreSQL skips them), and each answers from
//! the sorted values as PostgreSQL does.
//!
//! The hypothetical-set aggregates (`rank(args) WITHIN GROUP (ORDER BY
//! cols)`, `dense_rank`, `percent_rank`, `cume_dist`) take, for each row,
//! where it sorts against the hypothetical row (-1 before, 0 a peer, 1 after),
//! which the translation writes as a comparison in SQL; `dense_rank` also
//! takes the sort keys, in sort order, to count the peer groups before it.

use super::aggregate::{Accumulator, callbacks};
use super::arrays::{format_array, parse_array};
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
    ordered::<Several<true>>("litewire_percentiles_cont", &["float8[]", "float8"]),
    ordered::<Several<false>>("litewire_percentiles_disc", &["float8[]", "anyelement"]),
    ordered::<Hypothetical<RANK>>("litewire_rank", &["int4"]),
    ordered::<Hypothetical<PERCENT_RANK>>("litewire_percent_rank", &["int4"]),
    ordered::<Hypothetical<CUME_DIST>>("litewire_cume_dist", &["int4"]),
    Function {
        args: Args::Variadic("any"),
        ..ordered::<Hypothetical<DENSE_RANK>>("litewire_dense_rank", &[])
    },
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

    fn arg(&self) -> Arg<'_> {
        match self {
            Kept::Int(i) => Arg::Int(*i),
            Kept::Real(f) => Arg::Real(*f),
            Kept::Text(s) => Arg::Text(s),
            Kept::Blob(b) => Arg::Blob(b),
        }
    }

    /// Equal as sort keys: an integer and a float of one value are.
    fn same(&self, other: &Kept) -> bool {
        match (self.arg().float(), other.arg().float()) {
            (Some(a), Some(b))
                if !matches!((self, other), (Kept::Text(_), _) | (_, Kept::Text(_))) =>
            {
                a == b
            }
            _ => self == other,
        }
    }
}

/// A fraction, which must lie in [0, 1].
fn checked(value: Option<f64>) -> Result<Option<f64>, Out> {
    match value {
        Some(f) if !(0.0..=1.0).contains(&f) => Err(Out::Fail(
            SqlState::NUMERIC_VALUE_OUT_OF_RANGE,
            format!("percentile value {f} is not between 0 and 1"),
        )),
        _ => Ok(value),
    }
}

/// `percentile_cont`'s answer from the sorted values (not empty).
fn interpolated(values: &[f64], f: f64) -> f64 {
    let position = f * (values.len() - 1) as f64;
    let (first, second) = (position.floor() as usize, position.ceil() as usize);
    let (low, high) = (values[first], values[second]);
    match first == second {
        true => low,
        false => low + (high - low) * (position - first as f64),
    }
}

/// `percentile_disc`'s row among `count` sorted values (not none).
fn discrete_row(count: usize, f: f64) -> usize {
    ((f * count as f64).ceil() as usize).saturating_sub(1)
}

/// The fraction argument: the first row's (PostgreSQL takes it once), which
/// must lie in [0, 1].
fn fraction(slot: &mut Option<Option<f64>>, arg: &Arg) -> Result<(), Out> {
    if slot.is_some() {
        return Ok(());
    }
    *slot = Some(checked(arg.float())?);
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
        Out::Real(interpolated(&self.values, f))
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
        let row = discrete_row(self.values.len(), f);
        self.values.swap_remove(row).out()
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

/// `percentile_cont(fractions[])` (`CONTINUOUS`) and `percentile_disc`: an
/// array of the answers, one for each fraction (NULL for a NULL one).
#[derive(Default)]
struct Several<const CONTINUOUS: bool> {
    /// The first row's fractions (NULL for a NULL array).
    fractions: Option<Option<Vec<Option<f64>>>>,
    values: Vec<Kept>,
}

impl<const CONTINUOUS: bool> Accumulator for Several<CONTINUOUS> {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        if self.fractions.is_none() {
            let fractions = match args[0].text() {
                None => None,
                Some(text) => {
                    let items = parse_array(&text).ok_or_else(|| {
                        Out::Fail(
                            SqlState::INVALID_TEXT_REPRESENTATION,
                            format!("malformed array literal: \"{text}\""),
                        )
                    })?;
                    let read = |item: Option<String>| match item {
                        None => Ok(None),
                        Some(item) => checked(Arg::Text(&item).float()),
                    };
                    Some(items.into_iter().map(read).collect::<Result<_, _>>()?)
                }
            };
            self.fractions = Some(fractions);
        }
        match (Kept::of(&args[1]), CONTINUOUS) {
            (None, _) => {}
            (Some(Kept::Text(_) | Kept::Blob(_)), true) => {
                return Err(Out::Fail(
                    SqlState::DATATYPE_MISMATCH,
                    "percentile_cont takes numbers".to_owned(),
                ));
            }
            (Some(value), _) => self.values.push(value),
        }
        Ok(())
    }

    fn finish(self) -> Out {
        let (Some(Some(fractions)), false) = (self.fractions, self.values.is_empty()) else {
            return Out::Null;
        };
        let numbers: Vec<f64> = match CONTINUOUS {
            true => self.values.iter().filter_map(|v| v.arg().float()).collect(),
            false => Vec::new(),
        };
        let answer = |f: f64| match CONTINUOUS {
            true => Arg::Real(interpolated(&numbers, f)).text(),
            false => self.values[discrete_row(self.values.len(), f)].arg().text(),
        };
        let items: Vec<Option<String>> =
            fractions.into_iter().map(|f| f.and_then(answer)).collect();
        Out::Text(format_array(&items))
    }
}

/// Which hypothetical-set aggregate a [`Hypothetical`] is.
const RANK: u8 = 0;
const DENSE_RANK: u8 = 1;
const PERCENT_RANK: u8 = 2;
const CUME_DIST: u8 = 3;

/// A hypothetical-set aggregate: the rows counted by where they sort against
/// the hypothetical row.
#[derive(Default)]
struct Hypothetical<const KIND: u8> {
    rows: i64,
    before: i64,
    peers: i64,
    /// `dense_rank`: the peer groups before, and the last one's keys.
    groups_before: i64,
    last: Option<Vec<Option<Kept>>>,
}

impl<const KIND: u8> Accumulator for Hypothetical<KIND> {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        self.rows += 1;
        match args[0].int() {
            Some(-1) => self.before += 1,
            Some(0) => self.peers += 1,
            _ => return Ok(()),
        }
        if KIND == DENSE_RANK && args[0].int() == Some(-1) {
            let keys: Vec<Option<Kept>> = args[1..].iter().map(Kept::of).collect();
            let same = |last: &Vec<Option<Kept>>| {
                last.iter().zip(&keys).all(|pair| match pair {
                    (Some(a), Some(b)) => a.same(b),
                    (a, b) => a.is_none() && b.is_none(),
                })
            };
            if !self.last.as_ref().is_some_and(same) {
                self.groups_before += 1;
                self.last = Some(keys);
            }
        }
        Ok(())
    }

    fn finish(self) -> Out {
        match KIND {
            RANK => Out::Int(self.before + 1),
            DENSE_RANK => Out::Int(self.groups_before + 1),
            PERCENT_RANK if self.rows == 0 => Out::Real(0.0),
            PERCENT_RANK => Out::Real(self.before as f64 / self.rows as f64),
            _ => Out::Real((self.before + self.peers + 1) as f64 / (self.rows + 1) as f64),
        }
    }
}
