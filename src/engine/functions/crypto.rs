//! The functions of the `pgcrypto` and `uuid-ossp` extensions that
//! applications use: `digest`, `hmac`, `gen_random_bytes`, and the UUIDs of
//! every version `uuid-ossp` makes (`uuid_generate_v1`, `v1mc`, `v3`, `v4`,
//! `v5`, `uuid_nil`, `uuid_ns_*`). They are always there; `CREATE EXTENSION`
//! records the extension for the catalog (see `sql::extensions`).
//!
//! Version 1 UUIDs carry a node; `uuid-ossp` takes the machine's MAC address
//! for `uuid_generate_v1`, which a server should not publish, so both v1
//! functions use a random multicast node, as `uuid_generate_v1mc` does.

use std::time::{SystemTime, UNIX_EPOCH};

use hmac::{KeyInit, Mac, SimpleHmac};
use libsqlite3_sys as ffi;
use sha2::Digest;

use super::call::{Arg, Call, Out};
use super::definition::{Function, Volatility};
use super::random::{random_uuid, shown, versioned};
use crate::error::SqlState;

const IMMUTABLE: Volatility = Volatility::Immutable;
const VOLATILE: Volatility = Volatility::Volatile;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg("digest", &["bytea", "text"], "bytea", IMMUTABLE, digest),
    Function::pg(
        "hmac",
        &["bytea", "bytea", "text"],
        "bytea",
        IMMUTABLE,
        hmac,
    ),
    Function::pg(
        "gen_random_bytes",
        &["int4"],
        "bytea",
        VOLATILE,
        random_bytes,
    ),
    Function::pg("uuid_nil", &[], "uuid", IMMUTABLE, nil),
    Function::pg("uuid_ns_dns", &[], "uuid", IMMUTABLE, namespace_dns),
    Function::pg("uuid_ns_url", &[], "uuid", IMMUTABLE, namespace_url),
    Function::pg("uuid_ns_oid", &[], "uuid", IMMUTABLE, namespace_oid),
    Function::pg("uuid_ns_x500", &[], "uuid", IMMUTABLE, namespace_x500),
    Function::pg("uuid_generate_v1", &[], "uuid", VOLATILE, time_based),
    Function::pg("uuid_generate_v1mc", &[], "uuid", VOLATILE, time_based),
    Function::pg(
        "uuid_generate_v3",
        &["uuid", "text"],
        "uuid",
        IMMUTABLE,
        name_md5,
    ),
    Function::pg("uuid_generate_v4", &[], "uuid", VOLATILE, random_uuid),
    Function::pg(
        "uuid_generate_v5",
        &["uuid", "text"],
        "uuid",
        IMMUTABLE,
        name_sha1,
    ),
];

/// A value's bytes: a blob's own, text's UTF-8.
fn bytes(arg: &Arg) -> Option<Vec<u8>> {
    match arg {
        Arg::Blob(b) => Some(b.to_vec()),
        other => other.text().map(String::into_bytes),
    }
}

/// The algorithms `digest` and `hmac` know, by the names pgcrypto takes.
#[derive(Clone, Copy)]
enum Algorithm {
    Md5,
    Sha1,
    Sha224,
    Sha256,
    Sha384,
    Sha512,
}

fn algorithm(arg: &Arg) -> Result<Algorithm, Out> {
    let name = arg.display();
    Ok(match name.to_ascii_lowercase().as_str() {
        "md5" => Algorithm::Md5,
        "sha1" => Algorithm::Sha1,
        "sha224" => Algorithm::Sha224,
        "sha256" => Algorithm::Sha256,
        "sha384" => Algorithm::Sha384,
        "sha512" => Algorithm::Sha512,
        _ => {
            return Err(Out::Fail(
                SqlState::INVALID_PARAMETER_VALUE,
                format!("Cannot use \"{name}\": No such hash algorithm"),
            ));
        }
    })
}

fn hashed(algorithm: Algorithm, data: &[u8]) -> Vec<u8> {
    match algorithm {
        Algorithm::Md5 => md5_hasher::Md5::digest(data).to_vec(),
        Algorithm::Sha1 => sha1::Sha1::digest(data).to_vec(),
        Algorithm::Sha224 => sha2::Sha224::digest(data).to_vec(),
        Algorithm::Sha256 => sha2::Sha256::digest(data).to_vec(),
        Algorithm::Sha384 => sha2::Sha384::digest(data).to_vec(),
        Algorithm::Sha512 => sha2::Sha512::digest(data).to_vec(),
    }
}

fn keyed<M: Mac + KeyInit>(key: &[u8], data: &[u8]) -> Vec<u8> {
    match <M as KeyInit>::new_from_slice(key) {
        Ok(mut mac) => {
            mac.update(data);
            mac.finalize().into_bytes().to_vec()
        }
        // HMAC takes a key of any length.
        Err(_) => Vec::new(),
    }
}

/// `digest(data, type)`.
fn digest(_: &Call, args: &[Arg]) -> Out {
    let (Some(data), false) = (bytes(&args[0]), matches!(args[1], Arg::Null)) else {
        return Out::Null;
    };
    match algorithm(&args[1]) {
        Ok(algorithm) => Out::Blob(hashed(algorithm, &data)),
        Err(out) => out,
    }
}

/// `hmac(data, key, type)`.
fn hmac(_: &Call, args: &[Arg]) -> Out {
    let (Some(data), Some(key), false) = (
        bytes(&args[0]),
        bytes(&args[1]),
        matches!(args[2], Arg::Null),
    ) else {
        return Out::Null;
    };
    let mac = match algorithm(&args[2]) {
        Ok(Algorithm::Md5) => keyed::<SimpleHmac<md5_hasher::Md5>>(&key, &data),
        Ok(Algorithm::Sha1) => keyed::<SimpleHmac<sha1::Sha1>>(&key, &data),
        Ok(Algorithm::Sha224) => keyed::<SimpleHmac<sha2::Sha224>>(&key, &data),
        Ok(Algorithm::Sha256) => keyed::<SimpleHmac<sha2::Sha256>>(&key, &data),
        Ok(Algorithm::Sha384) => keyed::<SimpleHmac<sha2::Sha384>>(&key, &data),
        Ok(Algorithm::Sha512) => keyed::<SimpleHmac<sha2::Sha512>>(&key, &data),
        Err(out) => return out,
    };
    Out::Blob(mac)
}

fn random(bytes: &mut [u8]) {
    // SAFETY: `bytes` is `bytes.len()` writable bytes (at most 1 024 here).
    unsafe { ffi::sqlite3_randomness(bytes.len() as i32, bytes.as_mut_ptr().cast()) };
}

/// `gen_random_bytes(n)`: 1 to 1 024 random bytes.
fn random_bytes(_: &Call, args: &[Arg]) -> Out {
    let Some(count) = args[0].int() else {
        return Out::Null;
    };
    if !(1..=1024).contains(&count) {
        return Out::Fail(
            SqlState::parse("39000").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
            "Length not in range".into(),
        );
    }
    let mut out = vec![0u8; count as usize];
    random(&mut out);
    Out::Blob(out)
}

/// A UUID's bytes from its text (with or without hyphens or braces).
fn parsed(arg: &Arg) -> Option<[u8; 16]> {
    let text = arg.text()?;
    let digits: Vec<u8> = text
        .bytes()
        .filter(|b| !matches!(b, b'-' | b'{' | b'}'))
        .collect();
    if digits.len() != 32 {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, pair) in digits.chunks(2).enumerate() {
        let pair = std::str::from_utf8(pair).ok()?;
        out[i] = u8::from_str_radix(pair, 16).ok()?;
    }
    Some(out)
}

fn nil(_: &Call, _: &[Arg]) -> Out {
    shown(&[0; 16])
}

/// RFC 4122's name spaces: they differ in their first byte only.
fn namespace(first: u8) -> Out {
    let mut bytes = [
        0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30,
        0xc8,
    ];
    bytes[3] = first;
    shown(&bytes)
}

fn namespace_dns(_: &Call, _: &[Arg]) -> Out {
    namespace(0x10)
}

fn namespace_url(_: &Call, _: &[Arg]) -> Out {
    namespace(0x11)
}

fn namespace_oid(_: &Call, _: &[Arg]) -> Out {
    namespace(0x12)
}

fn namespace_x500(_: &Call, _: &[Arg]) -> Out {
    namespace(0x14)
}

/// A name-based UUID: the hash of the name space's bytes and the name's.
fn name_based(args: &[Arg], algorithm: Algorithm, version: u8) -> Out {
    let (Some(space), Some(name)) = (parsed(&args[0]), bytes(&args[1])) else {
        return Out::Null;
    };
    let mut input = space.to_vec();
    input.extend_from_slice(&name);
    let hash = hashed(algorithm, &input);
    let mut out = [0u8; 16];
    out.copy_from_slice(&hash[..16]);
    shown(&versioned(out, version))
}

fn name_md5(_: &Call, args: &[Arg]) -> Out {
    name_based(args, Algorithm::Md5, 3)
}

fn name_sha1(_: &Call, args: &[Arg]) -> Out {
    name_based(args, Algorithm::Sha1, 5)
}

/// A version 1 UUID: 100-nanosecond intervals since 1582-10-15, a random
/// clock sequence and a random multicast node.
fn time_based(_: &Call, _: &[Arg]) -> Out {
    const GREGORIAN_OFFSET: u64 = 0x01B2_1DD2_1381_4000;
    let since_unix = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() / 100);
    let ticks = (since_unix as u64).wrapping_add(GREGORIAN_OFFSET);
    let mut bytes = [0u8; 16];
    bytes[0..4].copy_from_slice(&((ticks & 0xffff_ffff) as u32).to_be_bytes());
    bytes[4..6].copy_from_slice(&(((ticks >> 32) & 0xffff) as u16).to_be_bytes());
    bytes[6..8].copy_from_slice(&(((ticks >> 48) & 0x0fff) as u16).to_be_bytes());
    random(&mut bytes[8..16]);
    bytes[10] |= 0x01;
    shown(&versioned(bytes, 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_based_uuids_are_rfc_4122s() {
        // uuid-ossp's answers for uuid_generate_v5(uuid_ns_url(), 'x') and
        // uuid_generate_v3(uuid_ns_dns(), 'x').
        let url = parsed(&Arg::Text("6ba7b811-9dad-11d1-80b4-00c04fd430c8")).unwrap();
        let mut input = url.to_vec();
        input.push(b'x');
        let mut out = [0u8; 16];
        out.copy_from_slice(&hashed(Algorithm::Sha1, &input)[..16]);
        assert_eq!(
            shown(&versioned(out, 5)),
            Out::Text("4cd605e7-afa2-5360-b5b9-c5e9fb5c76f4".into())
        );
        let dns = parsed(&Arg::Text("6ba7b810-9dad-11d1-80b4-00c04fd430c8")).unwrap();
        let mut input = dns.to_vec();
        input.push(b'x');
        out.copy_from_slice(&hashed(Algorithm::Md5, &input)[..16]);
        assert_eq!(
            shown(&versioned(out, 3)),
            Out::Text("ec794efe-a384-3b11-a0b6-ec8995bc6acc".into())
        );
    }
}
