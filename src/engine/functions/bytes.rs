//! `bytea` functions: `substring`/`substr`, `btrim`/`ltrim`/`rtrim` and
//! `TRIM(... FROM ...)`, `get_bit`, `set_bit`, `get_byte`, `set_byte`,
//! `bit_count`, `string_agg(bytea, bytea)`. SQLite's own `substr` and
//! `trim` count characters of a blob's text, so the PostgreSQL port calls
//! `litewire_bytea_substr` and `litewire_bytea_trim` for a `bytea`; bits
//! count as PostgreSQL counts them (bit 0 the lowest of the first byte).

use super::aggregate::{Accumulator, callbacks};
use super::call::{Arg, Call, Out};
use super::definition::{Args, Body, Function, Volatility};
use crate::error::SqlState;

const IMMUTABLE: Volatility = Volatility::Immutable;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "convert_to",
        &["text", "name"],
        "bytea",
        IMMUTABLE,
        convert_to,
    ),
    Function::pg(
        "convert_from",
        &["bytea", "name"],
        "text",
        IMMUTABLE,
        convert_from,
    ),
    Function::pg("bit_length", &["text"], "int4", IMMUTABLE, bit_length),
    Function::helper(
        "litewire_bytea_substr",
        Args::Fixed(&["bytea", "int4", "int4"]),
        IMMUTABLE,
        substr,
    ),
    Function::helper(
        "litewire_bytea_substr",
        Args::Fixed(&["bytea", "int4"]),
        IMMUTABLE,
        substr,
    ),
    Function::helper(
        "litewire_bytea_trim",
        Args::Fixed(&["bytea", "bytea", "text"]),
        IMMUTABLE,
        trim,
    ),
    Function::pg("get_bit", &["bytea", "int8"], "int4", IMMUTABLE, get_bit),
    Function::pg(
        "set_bit",
        &["bytea", "int8", "int4"],
        "bytea",
        IMMUTABLE,
        set_bit,
    ),
    Function::pg("get_byte", &["bytea", "int4"], "int4", IMMUTABLE, get_byte),
    Function::pg(
        "set_byte",
        &["bytea", "int4", "int4"],
        "bytea",
        IMMUTABLE,
        set_byte,
    ),
    Function::pg("bit_count", &["bytea"], "int8", IMMUTABLE, bit_count),
    Function {
        name: "litewire_bytea_agg",
        args: Args::Fixed(&["bytea", "bytea"]),
        result: "bytea",
        volatility: IMMUTABLE,
        body: Body::Aggregate(callbacks::<ByteaAgg>()),
        listed: false,
    },
];

/// A `bytea` argument's bytes (text stands for its UTF-8 bytes).
fn bytes(arg: &Arg) -> Option<Vec<u8>> {
    match arg {
        Arg::Blob(b) => Some(b.to_vec()),
        Arg::Null => None,
        other => other.text().map(String::into_bytes),
    }
}

/// `substring(bytes FROM start [FOR count])`, counting bytes from 1.
fn substr(_: &Call, args: &[Arg]) -> Out {
    let (Some(value), Some(start)) = (bytes(&args[0]), args[1].int()) else {
        return Out::Null;
    };
    let end = match args.get(2) {
        None => i64::MAX,
        Some(count) => match count.int() {
            Some(n) if n < 0 => {
                return Out::Fail(
                    SqlState::parse("22011").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
                    "negative substring length not allowed".into(),
                );
            }
            Some(n) => start.saturating_add(n),
            None => return Out::Null,
        },
    };
    let clamp = |at: i64| usize::try_from((at - 1).clamp(0, value.len() as i64)).unwrap_or(0);
    let (from, to) = (clamp(start), clamp(end));
    Out::Blob(value[from..to.max(from)].to_vec())
}

/// `btrim`, `ltrim`, `rtrim` of bytes: those in `set` cut from the ends
/// `mode` names (`both`, `leading`, `trailing`).
fn trim(_: &Call, args: &[Arg]) -> Out {
    let (Some(value), Some(set), Some(mode)) = (bytes(&args[0]), bytes(&args[1]), args[2].text())
    else {
        return Out::Null;
    };
    let kept = |b: &u8| !set.contains(b);
    let start = match mode.as_str() {
        "trailing" => 0,
        _ => value.iter().position(kept).unwrap_or(value.len()),
    };
    let end = match mode.as_str() {
        "leading" => value.len(),
        _ => value.iter().rposition(kept).map_or(start, |i| i + 1),
    };
    Out::Blob(value[start..end.max(start)].to_vec())
}

/// An index out of a value's range (2202E), as PostgreSQL words it.
fn out_of_range(index: i64, last: i64) -> Out {
    Out::Fail(
        SqlState::parse("2202E").unwrap_or(SqlState::INVALID_PARAMETER_VALUE),
        format!("index {index} out of valid range, 0..{last}"),
    )
}

/// The byte and the mask of bit `n`; `Err` past the end.
fn bit_at(value: &[u8], n: i64) -> Result<(usize, u8), Out> {
    let bits = value.len() as i64 * 8;
    if !(0..bits).contains(&n) {
        return Err(out_of_range(n, bits - 1));
    }
    Ok(((n / 8) as usize, 1 << (n % 8)))
}

fn get_bit(_: &Call, args: &[Arg]) -> Out {
    let (Some(value), Some(n)) = (bytes(&args[0]), args[1].int()) else {
        return Out::Null;
    };
    match bit_at(&value, n) {
        Ok((byte, mask)) => Out::Int(i64::from(value[byte] & mask != 0)),
        Err(out) => out,
    }
}

fn set_bit(_: &Call, args: &[Arg]) -> Out {
    let (Some(mut value), Some(n), Some(bit)) = (bytes(&args[0]), args[1].int(), args[2].int())
    else {
        return Out::Null;
    };
    if bit != 0 && bit != 1 {
        return Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            "new bit must be 0 or 1".into(),
        );
    }
    match bit_at(&value, n) {
        Ok((byte, mask)) => {
            match bit {
                0 => value[byte] &= !mask,
                _ => value[byte] |= mask,
            }
            Out::Blob(value)
        }
        Err(out) => out,
    }
}

fn byte_at(value: &[u8], n: i64) -> Result<usize, Out> {
    let len = value.len() as i64;
    match usize::try_from(n) {
        Ok(i) if n < len => Ok(i),
        _ => Err(out_of_range(n, len - 1)),
    }
}

fn get_byte(_: &Call, args: &[Arg]) -> Out {
    let (Some(value), Some(n)) = (bytes(&args[0]), args[1].int()) else {
        return Out::Null;
    };
    match byte_at(&value, n) {
        Ok(i) => Out::Int(i64::from(value[i])),
        Err(out) => out,
    }
}

fn set_byte(_: &Call, args: &[Arg]) -> Out {
    let (Some(mut value), Some(n), Some(new)) = (bytes(&args[0]), args[1].int(), args[2].int())
    else {
        return Out::Null;
    };
    match byte_at(&value, n) {
        Ok(i) => {
            // PostgreSQL keeps the low eight bits of the new value.
            value[i] = (new & 0xff) as u8;
            Out::Blob(value)
        }
        Err(out) => out,
    }
}

fn bit_count(_: &Call, args: &[Arg]) -> Out {
    match bytes(&args[0]) {
        Some(value) => Out::Int(value.iter().map(|b| i64::from(b.count_ones())).sum()),
        None => Out::Null,
    }
}

/// `string_agg(bytea, delimiter)`: the values joined, NULL values skipped,
/// each delimiter the one given with the value after it; NULL for none.
#[derive(Default)]
struct ByteaAgg(Option<Vec<u8>>);

impl Accumulator for ByteaAgg {
    fn step(&mut self, args: &[Arg]) -> Result<(), Out> {
        let Some(value) = args.first().and_then(bytes) else {
            return Ok(());
        };
        match &mut self.0 {
            None => self.0 = Some(value),
            Some(joined) => {
                if let Some(delimiter) = args.get(1).and_then(bytes) {
                    joined.extend(delimiter);
                }
                joined.extend(value);
            }
        }
        Ok(())
    }

    fn finish(self) -> Out {
        self.0.map_or(Out::Null, Out::Blob)
    }
}

/// The encodings `convert_to` and `convert_from` know: UTF8 (the server's),
/// and LATIN1 and SQL_ASCII, one byte a character.
#[derive(Clone, Copy, PartialEq)]
enum Encoding {
    Utf8,
    Latin1,
    Ascii,
}

fn encoding(arg: &Arg, which: &str) -> Result<Encoding, Out> {
    let name = arg.text().unwrap_or_default();
    let folded: String = (name.chars())
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_uppercase();
    match folded.as_str() {
        "UTF8" | "UNICODE" => Ok(Encoding::Utf8),
        "LATIN1" | "ISO88591" => Ok(Encoding::Latin1),
        "SQLASCII" => Ok(Encoding::Ascii),
        _ => Err(Out::Fail(
            SqlState::INVALID_PARAMETER_VALUE,
            format!("invalid {which} encoding name \"{name}\""),
        )),
    }
}

/// `convert_to(text, encoding)`: the text's bytes in that encoding.
fn convert_to(_: &Call, args: &[Arg]) -> Out {
    let Some(text) = args[0].text() else {
        return Out::Null;
    };
    match encoding(&args[1], "destination") {
        Ok(Encoding::Utf8 | Encoding::Ascii) => Out::Blob(text.into_bytes()),
        Ok(Encoding::Latin1) => {
            let bytes: Option<Vec<u8>> = text
                .chars()
                .map(|c| u8::try_from(u32::from(c)).ok())
                .collect();
            match bytes {
                Some(bytes) => Out::Blob(bytes),
                None => Out::Fail(
                    SqlState::UNTRANSLATABLE_CHARACTER,
                    "character has no equivalent in encoding \"LATIN1\"".into(),
                ),
            }
        }
        Err(out) => out,
    }
}

/// `convert_from(bytes, encoding)`: the text those bytes are in that encoding.
fn convert_from(_: &Call, args: &[Arg]) -> Out {
    let bytes = match &args[0] {
        Arg::Null => return Out::Null,
        Arg::Blob(b) => b.to_vec(),
        other => other.text().unwrap_or_default().into_bytes(),
    };
    match encoding(&args[1], "source") {
        Ok(Encoding::Latin1) => Out::Text(bytes.iter().map(|&b| char::from(b)).collect()),
        Ok(_) => match String::from_utf8(bytes) {
            Ok(text) => Out::Text(text),
            Err(error) => {
                let at = error.utf8_error().valid_up_to();
                let byte = error.as_bytes().get(at).copied().unwrap_or(0);
                Out::Fail(
                    SqlState::CHARACTER_NOT_IN_REPERTOIRE,
                    format!("invalid byte sequence for encoding \"UTF8\": 0x{byte:02x}"),
                )
            }
        },
        Err(out) => out,
    }
}

/// `bit_length(text | bytea)`: its bytes, counted in bits.
fn bit_length(_: &Call, args: &[Arg]) -> Out {
    match &args[0] {
        Arg::Null => Out::Null,
        Arg::Blob(b) => Out::Int(b.len() as i64 * 8),
        other => Out::Int(other.text().map_or(0, |t| t.len()) as i64 * 8),
    }
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::call;
    use super::*;

    #[test]
    fn bits_count_from_the_first_bytes_lowest() {
        let value = [0x12, 0x34, 0x56, 0x78, 0x90, 0xab, 0xcd, 0xef, 0x00];
        assert_eq!(
            call(get_bit, &[Arg::Blob(&value), Arg::Int(43)]),
            Out::Int(1)
        );
        assert_eq!(
            call(set_bit, &[Arg::Blob(&value), Arg::Int(43), Arg::Int(0)]),
            Out::Blob(vec![0x12, 0x34, 0x56, 0x78, 0x90, 0xa3, 0xcd, 0xef, 0x00])
        );
        assert!(matches!(
            call(get_bit, &[Arg::Blob(&value), Arg::Int(99)]),
            Out::Fail(..)
        ));
        assert_eq!(
            call(get_byte, &[Arg::Blob(&value), Arg::Int(3)]),
            Out::Int(0x78)
        );
        assert_eq!(call(bit_count, &[Arg::Blob(&value[..5])]), Out::Int(15));
    }

    #[test]
    fn substrings_and_trims_count_bytes() {
        let value = b"string";
        assert_eq!(
            call(substr, &[Arg::Blob(value), Arg::Int(-10), Arg::Int(12)]),
            Out::Blob(b"s".to_vec())
        );
        assert_eq!(
            call(substr, &[Arg::Blob(value), Arg::Int(2)]),
            Out::Blob(b"tring".to_vec())
        );
        assert_eq!(
            call(
                trim,
                &[
                    Arg::Blob(b"\0Tom\0"),
                    Arg::Blob(b"\0"),
                    Arg::Text("leading")
                ]
            ),
            Out::Blob(b"Tom\0".to_vec())
        );
        assert_eq!(
            call(
                trim,
                &[Arg::Blob(b"\0\0"), Arg::Blob(b"\0"), Arg::Text("both")]
            ),
            Out::Blob(Vec::new())
        );
    }
}
