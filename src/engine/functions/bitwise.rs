//! PostgreSQL's bitwise aggregates over integers: `bit_and`, `bit_or` and
//! `bit_xor`. NULLs are skipped; no value at all is NULL. (litewire has no
//! `bit` type, so only the integer forms exist.)

use super::aggregate::{Accumulator, callbacks};
use super::call::{Arg, Out};
use super::definition::{Args, Body, Function, Volatility};

const AND: u8 = 0;
const OR: u8 = 1;
const XOR: u8 = 2;

const fn bitwise<const OP: u8>(name: &'static str) -> Function {
    Function {
        name,
        args: Args::Fixed(&["int8"]),
        result: "int8",
        volatility: Volatility::Immutable,
        body: Body::Aggregate(callbacks::<Bits<OP>>()),
        listed: true,
    }
}

pub(super) const FUNCTIONS: &[Function] = &[
    bitwise::<AND>("bit_and"),
    bitwise::<OR>("bit_or"),
    bitwise::<XOR>("bit_xor"),
];

/// The values combined so far by `OP`.
#[derive(Default)]
struct Bits<const OP: u8> {
    value: Option<i64>,
}

impl<const OP: u8> Accumulator for Bits<OP> {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        let Some(value) = (!matches!(args[0], Arg::Null))
            .then(|| args[0].int())
            .flatten()
        else {
            return Ok(());
        };
        self.value = Some(match (self.value, OP) {
            (None, _) => value,
            (Some(old), AND) => old & value,
            (Some(old), OR) => old | value,
            (Some(old), _) => old ^ value,
        });
        Ok(())
    }

    fn finish(self) -> Out {
        self.value.map_or(Out::Null, Out::Int)
    }
}
