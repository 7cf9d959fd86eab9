//! Digests and encodings: `md5`, `sha224`-`sha512`, `encode` and `decode`
//! (`hex`, `base64`, `escape`), `to_hex`, and `unistr`'s Unicode escapes
//! (SQLite has its own `unistr`, which takes what PostgreSQL refuses, so the
//! PostgreSQL port calls `litewire_unistr`). A `bytea` is stored as a blob;
//! text given where a `bytea` is taken stands for its UTF-8 bytes.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;

use super::call::{Arg, Call, Out};
use super::definition::{Function, Volatility};
use crate::error::SqlState;

const IMMUTABLE: Volatility = Volatility::Immutable;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg("md5", &["bytea"], "text", IMMUTABLE, md5),
    Function::pg("sha224", &["bytea"], "bytea", IMMUTABLE, sha224),
    Function::pg("sha256", &["bytea"], "bytea", IMMUTABLE, sha256),
    Function::pg("sha384", &["bytea"], "bytea", IMMUTABLE, sha384),
    Function::pg("sha512", &["bytea"], "bytea", IMMUTABLE, sha512),
    Function::pg("encode", &["bytea", "text"], "text", IMMUTABLE, encode),
    Function::pg("decode", &["text", "text"], "bytea", IMMUTABLE, decode),
    Function::pg("to_hex", &["int8"], "text", IMMUTABLE, to_hex),
    Function::helper(
        "litewire_to_hex4",
        super::definition::Args::Fixed(&["int4"]),
        IMMUTABLE,
        to_hex4,
    ),
    Function::helper(
        "litewire_unistr",
        super::definition::Args::Fixed(&["text"]),
        IMMUTABLE,
        unistr,
    ),
];

/// `unistr(text)`: `\XXXX`, `\+XXXXXX`, `\uXXXX` and `\UXXXXXXXX` the
/// characters they name (a UTF-16 surrogate pair as one), `\\` a
/// backslash; anything else after a backslash is 42601, as an unpaired
/// surrogate is, and a code point outside Unicode 22023.
fn unistr(_: &Call, args: &[Arg]) -> Out {
    let Some(text) = args[0].text() else {
        return Out::Null;
    };
    match unescape_unicode(&text) {
        Ok(text) => Out::Text(text),
        Err(out) => out,
    }
}

fn unescape_unicode(text: &str) -> Result<String, Out> {
    let syntax = |message: &str| Out::Fail(SqlState::SYNTAX_ERROR, message.to_owned());
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut high: Option<u32> = None;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            if high.is_some() {
                return Err(syntax("invalid Unicode surrogate pair"));
            }
            let c = text[i..].chars().next().unwrap_or_default();
            out.push(c);
            i += c.len_utf8();
            continue;
        }
        if bytes.get(i + 1) == Some(&b'\\') {
            out.push('\\');
            i += 2;
            continue;
        }
        // The escape's form: where its digits start and how many there are.
        let hex_at = |from: usize, count: usize| {
            bytes
                .get(from..from + count)
                .filter(|digits| digits.iter().all(u8::is_ascii_hexdigit))
                .and_then(|digits| u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok())
        };
        let (code, length) = match bytes.get(i + 1) {
            Some(b'u') => (hex_at(i + 2, 4), 6),
            Some(b'+') => (hex_at(i + 2, 6), 8),
            Some(b'U') => (hex_at(i + 2, 8), 10),
            _ => (hex_at(i + 1, 4), 5),
        };
        let Some(code) = code else {
            return Err(syntax("invalid Unicode escape"));
        };
        if code == 0 || code > 0x10FFFF {
            return Err(Out::Fail(
                SqlState::INVALID_PARAMETER_VALUE,
                format!("invalid Unicode code point: {code:04X}"),
            ));
        }
        i += length;
        let low = (0xDC00..=0xDFFF).contains(&code);
        let code = match (high.take(), low) {
            (Some(first), true) => 0x10000 + ((first - 0xD800) << 10) + (code - 0xDC00),
            (Some(_), false) | (None, true) => {
                return Err(syntax("invalid Unicode surrogate pair"));
            }
            (None, false) if (0xD800..=0xDBFF).contains(&code) => {
                high = Some(code);
                continue;
            }
            (None, false) => code,
        };
        out.push(char::from_u32(code).ok_or_else(|| syntax("invalid Unicode surrogate pair"))?);
    }
    match high {
        Some(_) => Err(syntax("invalid Unicode surrogate pair")),
        None => Ok(out),
    }
}

/// A value's bytes: a blob's own, text's UTF-8; numbers as their text.
fn bytes(arg: &Arg) -> Option<Vec<u8>> {
    match arg {
        Arg::Blob(b) => Some(b.to_vec()),
        Arg::Text(s) => Some(s.as_bytes().to_vec()),
        other => other.text().map(String::into_bytes),
    }
}

fn hex(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

fn md5(_: &Call, args: &[Arg]) -> Out {
    bytes(&args[0]).map_or(Out::Null, |b| Out::Text(format!("{:x}", ::md5::compute(b))))
}

fn digest<D: sha2::Digest>(args: &[Arg]) -> Out {
    bytes(&args[0]).map_or(Out::Null, |b| Out::Blob(D::digest(&b).to_vec()))
}

fn sha224(_: &Call, args: &[Arg]) -> Out {
    digest::<sha2::Sha224>(args)
}

fn sha256(_: &Call, args: &[Arg]) -> Out {
    digest::<sha2::Sha256>(args)
}

fn sha384(_: &Call, args: &[Arg]) -> Out {
    digest::<sha2::Sha384>(args)
}

fn sha512(_: &Call, args: &[Arg]) -> Out {
    digest::<sha2::Sha512>(args)
}

fn unknown_encoding(name: &str) -> Out {
    Out::Fail(
        SqlState::INVALID_PARAMETER_VALUE,
        format!("unrecognized encoding: \"{name}\""),
    )
}

/// `encode(bytea, format)`.
fn encode(_: &Call, args: &[Arg]) -> Out {
    let (Some(data), Some(format)) = (bytes(&args[0]), args[1].text()) else {
        return Out::Null;
    };
    Out::Text(match format.to_ascii_lowercase().as_str() {
        "hex" => hex(&data),
        // PostgreSQL breaks base64 into lines of 76 characters.
        "base64" => {
            let encoded = STANDARD.encode(&data);
            let lines: Vec<&str> = encoded
                .as_bytes()
                .chunks(76)
                .map(|chunk| std::str::from_utf8(chunk).unwrap_or_default())
                .collect();
            lines.join("\n")
        }
        "escape" => escape(&data),
        _ => return unknown_encoding(&format),
    })
}

/// `bytea`'s escape format: `\` doubled, NUL and bytes from 0x80 as octal.
pub(super) fn escape(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len());
    for &b in data {
        match b {
            b'\\' => out.push_str("\\\\"),
            0 | 0x80..=0xff => out.push_str(&format!("\\{b:03o}")),
            b => out.push(char::from(b)),
        }
    }
    out
}

fn invalid_input(message: String) -> Out {
    Out::Fail(SqlState::INVALID_PARAMETER_VALUE, message)
}

/// `decode(text, format)`.
fn decode(_: &Call, args: &[Arg]) -> Out {
    let (Some(text), Some(format)) = (args[0].text(), args[1].text()) else {
        return Out::Null;
    };
    let decoded = match format.to_ascii_lowercase().as_str() {
        "hex" => decode_hex(&text),
        "base64" => {
            let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
            STANDARD
                .decode(compact)
                .map_err(|_| invalid_input("invalid base64 end sequence".into()))
        }
        "escape" => decode_escape(&text),
        _ => return unknown_encoding(&format),
    };
    match decoded {
        Ok(data) => Out::Blob(data),
        Err(out) => out,
    }
}

fn decode_hex(text: &str) -> Result<Vec<u8>, Out> {
    let digits: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    if digits.len() % 2 == 1 {
        return Err(invalid_input(
            "invalid hexadecimal data: odd number of digits".into(),
        ));
    }
    digits
        .chunks(2)
        .map(|pair| {
            let digit = |c: char| {
                c.to_digit(16)
                    .ok_or_else(|| invalid_input(format!("invalid hexadecimal digit: \"{c}\"")))
            };
            Ok((digit(pair[0])? * 16 + digit(pair[1])?) as u8)
        })
        .collect()
}

fn decode_escape(text: &str) -> Result<Vec<u8>, Out> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'\\' {
            out.push(bytes[i]);
            i += 1;
        } else if bytes.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else {
            let octal = bytes.get(i + 1..i + 4).filter(|d| {
                matches!(d[0], b'0'..=b'3') && d[1..].iter().all(|b| matches!(b, b'0'..=b'7'))
            });
            let Some(d) = octal else {
                return Err(Out::Fail(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    "invalid input syntax for type bytea".into(),
                ));
            };
            out.push((d[0] - b'0') * 64 + (d[1] - b'0') * 8 + (d[2] - b'0'));
            i += 4;
        }
    }
    Ok(out)
}

/// `to_hex(bigint)`: a negative one in two's complement, as 64 bits.
fn to_hex(_: &Call, args: &[Arg]) -> Out {
    args[0]
        .int()
        .map_or(Out::Null, |n| Out::Text(format!("{:x}", n as u64)))
}

/// `to_hex(integer)`: a negative one as 32 bits.
fn to_hex4(_: &Call, args: &[Arg]) -> Out {
    args[0]
        .int()
        .map_or(Out::Null, |n| Out::Text(format!("{:x}", n as i32 as u32)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_round_trips() {
        let data = [0u8, b'a', b'\\', 0xde, b'z'];
        assert_eq!(escape(&data), "\\000a\\\\\\336z");
        assert_eq!(decode_escape(&escape(&data)).ok(), Some(data.to_vec()));
        assert!(decode_escape("\\9").is_err());
        assert_eq!(decode_hex("de ad").ok(), Some(vec![0xde, 0xad]));
        assert!(decode_hex("abc").is_err());
    }
}
