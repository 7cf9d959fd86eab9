//! UUID functions: `gen_random_uuid()`.

use libsqlite3_sys as ffi;

use super::call::{Arg, Call, Out};
use super::definition::{Function, Volatility};

pub(super) const FUNCTIONS: &[Function] = &[Function::pg(
    "gen_random_uuid",
    &[],
    "uuid",
    Volatility::Volatile,
    random_uuid,
)];

/// `gen_random_uuid()`: a version 4 UUID from SQLite's randomness source.
fn random_uuid(_: &Call, _args: &[Arg]) -> Out {
    let mut bytes = [0u8; 16];
    // SAFETY: the buffer is 16 writable bytes.
    unsafe { ffi::sqlite3_randomness(16, bytes.as_mut_ptr().cast()) };
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
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

#[cfg(test)]
mod tests {
    use super::super::call::tests::{call, text};
    use super::*;

    #[test]
    fn uuids_are_version_4() {
        let uuid = text(call(random_uuid, &[]));
        assert_eq!(uuid.len(), 36);
        assert_eq!(&uuid[14..15], "4");
    }
}
