//! `litewire_partition_hash(modulus, remainder, key...)`: whether a row's
//! key belongs to the hash partition `(modulus, remainder)` (see
//! `sql::partitions`), hashed as PostgreSQL 15 hashes it, so a row lands in
//! the partition PostgreSQL would put it in: each key's extended hash with
//! the partition seed (integers as `hashint8extended`, text as
//! `hashtextextended` of its bytes, floats as `hashfloat8extended`),
//! combined with `hash_combine64`, modulo the modulus. Values of other types
//! are hashed as their stored text, which PostgreSQL does not do (a date is
//! its day number there): the partitions still split the rows, but not as
//! PostgreSQL's would.

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};

pub(super) const FUNCTIONS: &[Function] = &[Function {
    result: "bool",
    ..Function::helper(
        "litewire_partition_hash",
        Args::Variadic("any"),
        Volatility::Immutable,
        satisfies,
    )
}];

/// PostgreSQL's `HASH_PARTITION_SEED`.
const SEED: u64 = 0x7A5B_2236_7996_DCFD;

fn satisfies(_: &Call, args: &[Arg]) -> Out {
    let (Some(modulus), Some(remainder)) = (
        args.first().and_then(Arg::int),
        args.get(1).and_then(Arg::int),
    ) else {
        return Out::Null;
    };
    if modulus <= 0 {
        return Out::Null;
    }
    let hash = args[2..].iter().fold(0u64, |row, key| match key_hash(key) {
        Some(hash) => combine(row, hash),
        None => row,
    });
    Out::Int(i64::from(hash % modulus as u64 == remainder as u64))
}

/// One key's extended hash; `None` for NULL, which PostgreSQL skips.
fn key_hash(key: &Arg) -> Option<u64> {
    Some(match key {
        Arg::Null => return None,
        Arg::Int(i) => {
            // `hashint8extended`: equal to `hashint4extended` for every int4.
            let low = *i as u32;
            let high = (*i >> 32) as u32;
            hash_u32(low ^ if *i >= 0 { high } else { !high }, SEED)
        }
        Arg::Real(f) => match *f {
            0.0 => SEED,
            f if f.is_nan() => hash_bytes(&f64::NAN.to_le_bytes(), SEED),
            f => hash_bytes(&f.to_le_bytes(), SEED),
        },
        Arg::Text(s) => hash_bytes(s.as_bytes(), SEED),
        Arg::Blob(b) => hash_bytes(b, SEED),
    })
}

/// `hash_combine64`.
fn combine(a: u64, b: u64) -> u64 {
    a ^ b
        .wrapping_add(0x49a0_f4dd_15e5_a8e3)
        .wrapping_add(a << 54)
        .wrapping_add(a >> 7)
}

fn mix(a: &mut u32, b: &mut u32, c: &mut u32) {
    *a = a.wrapping_sub(*c);
    *a ^= c.rotate_left(4);
    *c = c.wrapping_add(*b);
    *b = b.wrapping_sub(*a);
    *b ^= a.rotate_left(6);
    *a = a.wrapping_add(*c);
    *c = c.wrapping_sub(*b);
    *c ^= b.rotate_left(8);
    *b = b.wrapping_add(*a);
    *a = a.wrapping_sub(*c);
    *a ^= c.rotate_left(16);
    *c = c.wrapping_add(*b);
    *b = b.wrapping_sub(*a);
    *b ^= a.rotate_left(19);
    *a = a.wrapping_add(*c);
    *c = c.wrapping_sub(*b);
    *c ^= b.rotate_left(4);
    *b = b.wrapping_add(*a);
}

fn finish(a: &mut u32, b: &mut u32, c: &mut u32) {
    *c ^= *b;
    *c = c.wrapping_sub(b.rotate_left(14));
    *a ^= *c;
    *a = a.wrapping_sub(c.rotate_left(11));
    *b ^= *a;
    *b = b.wrapping_sub(a.rotate_left(25));
    *c ^= *b;
    *c = c.wrapping_sub(b.rotate_left(16));
    *a ^= *c;
    *a = a.wrapping_sub(c.rotate_left(4));
    *b ^= *a;
    *b = b.wrapping_sub(a.rotate_left(14));
    *c ^= *b;
    *c = c.wrapping_sub(b.rotate_left(24));
}

/// The state lookup3 starts from for `length` bytes, with the seed mixed in.
fn start(length: u32, seed: u64) -> (u32, u32, u32) {
    let init = 0x9e37_79b9u32.wrapping_add(length).wrapping_add(3_923_095);
    let (mut a, mut b, mut c) = (init, init, init);
    if seed != 0 {
        a = a.wrapping_add((seed >> 32) as u32);
        b = b.wrapping_add(seed as u32);
        mix(&mut a, &mut b, &mut c);
    }
    (a, b, c)
}

/// `hash_uint32_extended`.
fn hash_u32(k: u32, seed: u64) -> u64 {
    let (mut a, mut b, mut c) = start(4, seed);
    a = a.wrapping_add(k);
    finish(&mut a, &mut b, &mut c);
    (u64::from(b) << 32) | u64::from(c)
}

/// `hash_bytes_extended` (lookup3, little-endian).
fn hash_bytes(bytes: &[u8], seed: u64) -> u64 {
    let (mut a, mut b, mut c) = start(bytes.len() as u32, seed);
    let word = |chunk: &[u8]| {
        chunk
            .iter()
            .enumerate()
            .fold(0u32, |w, (i, byte)| w | (u32::from(*byte) << (8 * i)))
    };
    let mut rest = bytes;
    while rest.len() >= 12 {
        a = a.wrapping_add(word(&rest[0..4]));
        b = b.wrapping_add(word(&rest[4..8]));
        c = c.wrapping_add(word(&rest[8..12]));
        mix(&mut a, &mut b, &mut c);
        rest = &rest[12..];
    }
    // The last bytes: c's lowest byte is left for the length.
    a = a.wrapping_add(word(&rest[..rest.len().min(4)]));
    if rest.len() > 4 {
        b = b.wrapping_add(word(&rest[4..rest.len().min(8)]));
    }
    if rest.len() > 8 {
        c = c.wrapping_add(word(&rest[8..]) << 8);
    }
    finish(&mut a, &mut b, &mut c);
    (u64::from(b) << 32) | u64::from(c)
}
