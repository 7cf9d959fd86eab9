//! Random values: `random()`, `setseed()`, `gen_random_uuid()`.
//!
//! PostgreSQL's `random()` is a float8 in [0, 1) where SQLite's is a 64-bit
//! integer, so the PostgreSQL port calls `litewire_random` for it (the HTTP
//! front ends keep SQLite's). After `setseed(x)` a session's values are
//! PostgreSQL's own for that seed: its generator (xoroshiro128**, seeded
//! through splitmix64) is followed step by step, so a test that seeds and
//! expects a sequence reads the same numbers here.

use std::sync::PoisonError;

use libsqlite3_sys as ffi;

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use super::prng::Seeded;
use crate::error::SqlState;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "gen_random_uuid",
        &[],
        "uuid",
        Volatility::Volatile,
        random_uuid,
    ),
    Function::helper(
        "litewire_random",
        Args::Fixed(&[]),
        Volatility::Volatile,
        random,
    ),
    Function::pg(
        "setseed",
        &["float8"],
        "void",
        Volatility::Volatile,
        setseed,
    ),
];

/// `random()`: from the session's seeded generator after `setseed`, from
/// SQLite's randomness source otherwise.
fn random(call: &Call, _args: &[Arg]) -> Out {
    if let Some(served) = call.context.served() {
        let mut seeded = served
            .random_seed
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(state) = seeded.as_mut() {
            return Out::Real(state.next_double());
        }
    }
    let mut bytes = [0u8; 8];
    // SAFETY: the buffer is 8 writable bytes.
    unsafe { ffi::sqlite3_randomness(8, bytes.as_mut_ptr().cast()) };
    Out::Real((u64::from_le_bytes(bytes) >> 12) as f64 / (1u64 << 52) as f64)
}

/// `setseed(x)`, x in [-1, 1]: the session's next `random()` values are
/// PostgreSQL's for that seed.
fn setseed(call: &Call, args: &[Arg]) -> Out {
    let Some(seed) = args[0].float() else {
        return Out::Null;
    };
    if !(-1.0..=1.0).contains(&seed) {
        return Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            format!("setseed parameter {seed} is out of allowed range [-1,1]"),
        );
    }
    if let Some(served) = call.context.served() {
        *served
            .random_seed
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = Some(Seeded::from_seed(seed));
    }
    // `void`: PostgreSQL sends an empty value, not NULL.
    Out::Text(String::new())
}

/// `gen_random_uuid()` (and `uuid-ossp`'s `uuid_generate_v4()`): a version 4
/// UUID from SQLite's randomness source.
pub(super) fn random_uuid(_: &Call, _args: &[Arg]) -> Out {
    let mut bytes = [0u8; 16];
    // SAFETY: the buffer is 16 writable bytes.
    unsafe { ffi::sqlite3_randomness(16, bytes.as_mut_ptr().cast()) };
    shown(&versioned(bytes, 4))
}

/// A UUID as PostgreSQL prints it.
pub(super) fn shown(bytes: &[u8; 16]) -> Out {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    Out::Text(format!(
        "{}-{}-{}-{}-{}",
        &hex[0..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..32]
    ))
}

/// The bytes with the version and RFC 4122 variant set.
pub(super) fn versioned(mut bytes: [u8; 16], version: u8) -> [u8; 16] {
    bytes[6] = (bytes[6] & 0x0f) | (version << 4);
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    bytes
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::{call, text};
    use super::*;

    #[test]
    fn seeded_values_are_postgres_own() {
        let mut seeded = Seeded::from_seed(0.5);
        let first = seeded.next_double();
        assert!((0.0..1.0).contains(&first));
        assert_ne!(first, seeded.next_double());
        assert_eq!(Seeded::from_seed(0.5).next_double(), first);
    }

    #[test]
    fn uuids_are_version_4() {
        let uuid = text(call(random_uuid, &[]));
        assert_eq!(uuid.len(), 36);
        assert_eq!(&uuid[14..15], "4");
    }
}
