//! `greatest` and `least` for the PostgreSQL port's translation: SQLite's
//! `max(a, b)` and `min(a, b)` are NULL when any argument is; PostgreSQL's
//! skip NULLs and are NULL only when every argument is.

use std::cmp::Ordering;

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};

/// `num_nulls(...)`, `num_nonnulls(...)`: how many arguments are (not) NULL.
const fn counting(name: &'static str, body: super::call::Scalar) -> Function {
    Function {
        name,
        args: Args::Variadic("any"),
        result: "int4",
        volatility: Volatility::Immutable,
        body: super::definition::Body::Scalar(body),
        listed: true,
    }
}

pub(super) const FUNCTIONS: &[Function] = &[
    counting("num_nulls", num_nulls),
    counting("num_nonnulls", num_nonnulls),
    Function::helper(
        "litewire_greatest",
        Args::Variadic("any"),
        Volatility::Immutable,
        greatest,
    ),
    Function::helper(
        "litewire_least",
        Args::Variadic("any"),
        Volatility::Immutable,
        least,
    ),
];

/// SQLite's order of values: numbers (by value), then text (by code
/// point), then blobs.
fn compare(a: &Arg, b: &Arg) -> Ordering {
    let rank = |v: &Arg| match v {
        Arg::Null => 0,
        Arg::Int(_) | Arg::Real(_) => 1,
        Arg::Text(_) => 2,
        Arg::Blob(_) => 3,
    };
    match (a, b) {
        (Arg::Int(x), Arg::Int(y)) => x.cmp(y),
        (Arg::Int(x), Arg::Real(y)) => (*x as f64).total_cmp(y),
        (Arg::Real(x), Arg::Int(y)) => x.total_cmp(&(*y as f64)),
        (Arg::Real(x), Arg::Real(y)) => x.total_cmp(y),
        (Arg::Text(x), Arg::Text(y)) => x.cmp(y),
        (Arg::Blob(x), Arg::Blob(y)) => x.cmp(y),
        _ => rank(a).cmp(&rank(b)),
    }
}

fn pick(args: &[Arg], wanted: Ordering) -> Out {
    let best = args
        .iter()
        .filter(|a| **a != Arg::Null)
        .reduce(|best, a| if compare(a, best) == wanted { a } else { best });
    match best {
        None | Some(Arg::Null) => Out::Null,
        Some(Arg::Int(i)) => Out::Int(*i),
        Some(Arg::Real(f)) => Out::Real(*f),
        Some(Arg::Text(s)) => Out::Text((*s).to_owned()),
        Some(Arg::Blob(b)) => Out::Text(String::from_utf8_lossy(b).into_owned()),
    }
}

fn greatest(_: &Call, args: &[Arg]) -> Out {
    pick(args, Ordering::Greater)
}

fn least(_: &Call, args: &[Arg]) -> Out {
    pick(args, Ordering::Less)
}

fn nulls(args: &[Arg]) -> i64 {
    args.iter().filter(|a| matches!(a, Arg::Null)).count() as i64
}

fn num_nulls(_: &Call, args: &[Arg]) -> Out {
    Out::Int(nulls(args))
}

fn num_nonnulls(_: &Call, args: &[Arg]) -> Out {
    Out::Int(args.len() as i64 - nulls(args))
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    #[test]
    fn nulls_are_skipped() {
        assert_eq!(
            call(greatest, &[Arg::Int(1), Arg::Null, Arg::Int(3)]),
            Out::Int(3)
        );
        assert_eq!(
            call(least, &[Arg::Null, Arg::Real(2.5), Arg::Int(3)]),
            Out::Real(2.5)
        );
        assert_eq!(call(greatest, &[Arg::Null, Arg::Null]), Out::Null);
        assert_eq!(
            call(least, &[Arg::Text("b"), Arg::Text("B")]),
            Out::Text("B".into())
        );
    }
}
