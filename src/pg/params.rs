//! Bind parameters: PostgreSQL text or binary values into SQLite values.
//!
//! Parameters sent untyped (OID 0, as pgbench and psql do) arrive as text and are
//! bound as text: SQLite's column affinity converts them where a column is compared
//! or assigned, so `aid = $1` still uses the index on an INTEGER column. Untyped
//! parameters sent in binary (a node-postgres Buffer) mean nothing as text; Bind
//! decodes those by the type inferred from their use, as PostgreSQL does.
//!
//! Typed dates, times, timestamps and uuids become the canonical text they are
//! stored as (timestamptz converted to UTC); see [`super::types`] for the storage
//! conventions. A numeric stays decimal text, which a NUMERIC column's affinity
//! turns into a number when that loses nothing.
//!
//! An array (bound for `x = ANY($1)`) becomes PostgreSQL's array text, `{1,2}`,
//! each element written as a value of its type is stored (a timestamptz in UTC,
//! a boolean as 0 or 1, a bytea as `\\x` and hex digits), which is what the array
//! functions compare column values with.

use std::fmt::Write as _;

use pgwire::api::Type;

use super::numeric::Numeric;
use super::uuid;
use crate::engine::{Value, format_array, parse_array};
use crate::error::{Error, ErrorKind};
use crate::sql::datetime;
use crate::sql::datetime_input::{DateOrder, Target, stored};
use crate::sql::interval::Interval;
use crate::sql::jsonb;
use crate::sql::quote::parse_bool;
use crate::sql::time_zone::Zone;

/// Which format (0 text, 1 binary) applies to item `i` under PostgreSQL's rule: no
/// codes means all text, one code applies to all, otherwise one per item.
pub fn format_code(codes: &[i16], i: usize) -> i16 {
    match codes {
        [] => 0,
        [one] => *one,
        many => many.get(i).copied().unwrap_or(0),
    }
}

/// The array types parameters may have, by element type.
static ARRAYS: [(Type, Type); 20] = [
    (Type::BOOL, Type::BOOL_ARRAY),
    (Type::BYTEA, Type::BYTEA_ARRAY),
    (Type::INT2, Type::INT2_ARRAY),
    (Type::INT4, Type::INT4_ARRAY),
    (Type::INT8, Type::INT8_ARRAY),
    (Type::FLOAT4, Type::FLOAT4_ARRAY),
    (Type::FLOAT8, Type::FLOAT8_ARRAY),
    (Type::NUMERIC, Type::NUMERIC_ARRAY),
    (Type::TEXT, Type::TEXT_ARRAY),
    (Type::VARCHAR, Type::VARCHAR_ARRAY),
    (Type::BPCHAR, Type::BPCHAR_ARRAY),
    (Type::NAME, Type::NAME_ARRAY),
    (Type::DATE, Type::DATE_ARRAY),
    (Type::TIME, Type::TIME_ARRAY),
    (Type::TIMESTAMP, Type::TIMESTAMP_ARRAY),
    (Type::TIMESTAMPTZ, Type::TIMESTAMPTZ_ARRAY),
    (Type::UUID, Type::UUID_ARRAY),
    (Type::JSON, Type::JSON_ARRAY),
    (Type::JSONB, Type::JSONB_ARRAY),
    (Type::OID, Type::OID_ARRAY),
];

/// The array type of `element` (text[] for an element type without one here).
pub fn array_of(element: &Type) -> Type {
    ARRAYS
        .iter()
        .find(|(e, _)| e == element)
        .map_or(Type::TEXT_ARRAY, |(_, array)| array.clone())
}

/// The element type of one of the array types above.
pub(super) fn element_of(array: &Type) -> Option<&'static Type> {
    ARRAYS.iter().find(|(_, a)| a == array).map(|(e, _)| e)
}

/// A parameter's value from its wire form; a timestamptz written without an
/// offset is the local time of `zone` (the session's, `None` for UTC).
pub fn decode(
    raw: Option<&[u8]>,
    ty: &Type,
    binary: bool,
    zone: Option<&Zone>,
) -> Result<Value, Error> {
    let Some(raw) = raw else {
        return Ok(Value::Null);
    };
    if let Some(element) = element_of(ty) {
        return decode_array(raw, ty, element, binary, zone);
    }
    if binary {
        decode_binary(raw, ty)
    } else {
        let text = std::str::from_utf8(raw).map_err(|_| invalid(ty, "invalid UTF-8"))?;
        decode_text(text, ty, zone)
    }
}

fn decode_text(text: &str, ty: &Type, zone: Option<&Zone>) -> Result<Value, Error> {
    let value = match *ty {
        Type::INT2 | Type::INT4 | Type::INT8 | Type::OID => {
            Value::Integer(text.trim().parse().map_err(|_| invalid(ty, text))?)
        }
        Type::FLOAT4 | Type::FLOAT8 => {
            Value::Real(text.trim().parse().map_err(|_| invalid(ty, text))?)
        }
        Type::BOOL => Value::Integer(i64::from(
            parse_bool(text).ok_or_else(|| invalid(ty, text))?,
        )),
        Type::BYTEA => Value::Blob(parse_bytea(text).ok_or_else(|| invalid(ty, text))?),
        Type::NUMERIC => match Numeric::parse(text) {
            Some(_) => Value::Text(text.trim().to_owned()),
            None => return Err(invalid(ty, text)),
        },
        Type::DATE => canonical(datetime::parse_date(text), datetime::format_date, ty, text)?,
        Type::TIME => canonical(datetime::parse_time(text), datetime::format_time, ty, text)?,
        Type::TIMESTAMPTZ if let Some(zone) = zone => {
            let read = stored(text, Target::Timestamptz, DateOrder::Mdy, Some(zone));
            Value::Text(read.map_err(|_| invalid(ty, text))?)
        }
        Type::TIMESTAMP | Type::TIMESTAMPTZ => {
            let with_tz = *ty == Type::TIMESTAMPTZ;
            let usecs = datetime::parse_timestamp(text, with_tz);
            canonical(usecs, |u| datetime::format_timestamp(u, with_tz), ty, text)?
        }
        Type::UUID => canonical(uuid::parse(text), |b| uuid::format(&b), ty, text)?,
        Type::INTERVAL => canonical(Interval::parse(text).ok(), |i| i.format(), ty, text)?,
        // Stored in jsonb's own form, as a literal is.
        Type::JSONB => canonical(jsonb::normalize(text).ok(), |j| j, ty, text)?,
        _ => Value::Text(text.to_owned()),
    };
    Ok(value)
}

/// The stored text of a parsed value, or the error for the input it came from.
fn canonical<T>(
    parsed: Option<T>,
    format: impl FnOnce(T) -> String,
    ty: &Type,
    input: &str,
) -> Result<Value, Error> {
    parsed
        .map(|v| Value::Text(format(v)))
        .ok_or_else(|| invalid(ty, input))
}

fn decode_binary(raw: &[u8], ty: &Type) -> Result<Value, Error> {
    let fixed = |n: usize| -> Result<&[u8], Error> {
        if raw.len() == n {
            Ok(raw)
        } else {
            Err(invalid(ty, "wrong binary length"))
        }
    };
    let value = match *ty {
        Type::INT2 => Value::Integer(i16::from_be_bytes(array(fixed(2)?)).into()),
        Type::INT4 => Value::Integer(i32::from_be_bytes(array(fixed(4)?)).into()),
        Type::INT8 => Value::Integer(i64::from_be_bytes(array(fixed(8)?))),
        Type::OID => Value::Integer(u32::from_be_bytes(array(fixed(4)?)).into()),
        Type::FLOAT4 => Value::Real(f32::from_be_bytes(array(fixed(4)?)).into()),
        Type::FLOAT8 => Value::Real(f64::from_be_bytes(array(fixed(8)?))),
        Type::BOOL => Value::Integer(i64::from(fixed(1)?[0] != 0)),
        Type::TEXT | Type::VARCHAR | Type::BPCHAR | Type::NAME | Type::JSON | Type::UNKNOWN => {
            Value::Text(String::from_utf8(raw.to_vec()).map_err(|_| invalid(ty, "invalid UTF-8"))?)
        }
        Type::NUMERIC => Value::Text(
            Numeric::read_binary(raw)
                .ok_or_else(|| invalid(ty, "malformed binary numeric"))?
                .to_text(),
        ),
        Type::DATE => Value::Text(datetime::format_date(
            i32::from_be_bytes(array(fixed(4)?)).into(),
        )),
        Type::TIME => {
            let usecs = i64::from_be_bytes(array(fixed(8)?));
            if !(0..=datetime::USECS_PER_DAY).contains(&usecs) {
                return Err(invalid(ty, "time out of range"));
            }
            Value::Text(datetime::format_time(usecs))
        }
        Type::TIMESTAMP | Type::TIMESTAMPTZ => Value::Text(datetime::format_timestamp(
            i64::from_be_bytes(array(fixed(8)?)),
            *ty == Type::TIMESTAMPTZ,
        )),
        Type::UUID => Value::Text(uuid::format(&array(fixed(16)?))),
        Type::INTERVAL => {
            let bytes: [u8; 16] = array(fixed(16)?);
            let interval = Interval {
                usecs: i64::from_be_bytes(array(&bytes[..8])),
                days: i32::from_be_bytes(array(&bytes[8..12])),
                months: i32::from_be_bytes(array(&bytes[12..])),
            };
            Value::Text(interval.format())
        }
        Type::JSONB => match raw.split_first() {
            Some((1, json)) => {
                let text = std::str::from_utf8(json).map_err(|_| invalid(ty, "invalid UTF-8"))?;
                Value::Text(jsonb::normalize(text).map_err(|_| invalid(ty, text))?)
            }
            _ => return Err(invalid(ty, "unknown jsonb version")),
        },
        _ => Value::Blob(raw.to_vec()),
    };
    Ok(value)
}

/// An array parameter as the array text its elements are stored as.
fn decode_array(
    raw: &[u8],
    ty: &Type,
    element: &Type,
    binary: bool,
    zone: Option<&Zone>,
) -> Result<Value, Error> {
    let items = if binary {
        binary_array_items(raw, ty, element)?
    } else {
        let text = std::str::from_utf8(raw).map_err(|_| invalid(ty, "invalid UTF-8"))?;
        parse_array(text)
            .ok_or_else(|| invalid(ty, text))?
            .iter()
            .map(|item| match item {
                Some(item) => decode_text(item, element, zone),
                None => Ok(Value::Null),
            })
            .collect::<Result<Vec<_>, _>>()?
    };
    let texts: Vec<Option<String>> = items.into_iter().map(element_text).collect();
    Ok(Value::Text(format_array(&texts)))
}

/// The elements of PostgreSQL's binary array format: dimensions, a null flag
/// and the element type, each dimension's length and lower bound, then each
/// element as a length (-1 for NULL) and its bytes. One dimension, or none for
/// an empty array.
fn binary_array_items(raw: &[u8], ty: &Type, element: &Type) -> Result<Vec<Value>, Error> {
    let mut reader = Reader { rest: raw, ty };
    let ndim = i32::from_be_bytes(array(reader.take(4)?));
    reader.take(8)?; // the null flag and the element type: each element says itself
    let count = match ndim {
        0 => 0,
        1 => {
            let length = i32::from_be_bytes(array(reader.take(4)?));
            reader.take(4)?; // the lower bound
            usize::try_from(length).map_err(|_| invalid(ty, "negative array length"))?
        }
        _ => return Err(invalid(ty, "only one-dimensional arrays are supported")),
    };
    let mut items = Vec::with_capacity(count.min(raw.len() / 4));
    for _ in 0..count {
        let length = i32::from_be_bytes(array(reader.take(4)?));
        items.push(match usize::try_from(length) {
            Ok(length) => decode_binary(reader.take(length)?, element)?,
            Err(_) => Value::Null,
        });
    }
    if !reader.rest.is_empty() {
        return Err(invalid(ty, "trailing bytes after the array"));
    }
    Ok(items)
}

/// Reads a binary value front to back.
struct Reader<'a> {
    rest: &'a [u8],
    ty: &'a Type,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], Error> {
        if self.rest.len() < n {
            return Err(invalid(self.ty, "truncated binary value"));
        }
        let (head, tail) = self.rest.split_at(n);
        self.rest = tail;
        Ok(head)
    }
}

/// An element as array text holds it: the text of the value as stored.
fn element_text(value: Value) -> Option<String> {
    match value {
        Value::Null => None,
        Value::Integer(i) => Some(i.to_string()),
        Value::Real(f) => Some(f.to_string()),
        Value::Text(s) => Some(s),
        // PostgreSQL's text form of bytea, which reads back as the same bytes.
        Value::Blob(b) => {
            let mut hex = String::with_capacity(2 + 2 * b.len());
            hex.push_str("\\x");
            for byte in b {
                let _ = write!(hex, "{byte:02x}");
            }
            Some(hex)
        }
    }
}

fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0; N];
    out.copy_from_slice(bytes);
    out
}

/// `\x` hex form (PostgreSQL's output) or raw bytes.
pub(super) fn parse_bytea(text: &str) -> Option<Vec<u8>> {
    let Some(hex) = text.strip_prefix("\\x") else {
        return Some(text.as_bytes().to_vec());
    };
    if hex.len() % 2 != 0 {
        return None;
    }
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok())
        .collect()
}

fn invalid(ty: &Type, what: &str) -> Error {
    Error::new(
        ErrorKind::InvalidParameter,
        format!("invalid input syntax for type {}: \"{what}\"", ty.name()),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untyped_text_stays_text() {
        assert_eq!(
            decode(Some(b"42"), &Type::UNKNOWN, false, None).unwrap(),
            Value::Text("42".into())
        );
    }

    #[test]
    fn typed_text_and_binary() {
        assert_eq!(
            decode(Some(b"42"), &Type::INT4, false, None).unwrap(),
            Value::Integer(42)
        );
        assert_eq!(
            decode(Some(&7i32.to_be_bytes()), &Type::INT4, true, None).unwrap(),
            Value::Integer(7)
        );
        assert_eq!(
            decode(Some(b"\\x0aff"), &Type::BYTEA, false, None).unwrap(),
            Value::Blob(vec![10, 255])
        );
        assert_eq!(
            decode(Some(b"true"), &Type::BOOL, false, None).unwrap(),
            Value::Integer(1)
        );
        assert_eq!(decode(None, &Type::INT4, false, None).unwrap(), Value::Null);
        assert!(decode(Some(b"x"), &Type::INT8, false, None).is_err());
        assert!(decode(Some(&[1, 2]), &Type::INT4, true, None).is_err());
    }

    fn text_param(raw: &str, ty: Type) -> Result<Value, Error> {
        decode(Some(raw.as_bytes()), &ty, false, None)
    }

    fn stored(s: &str) -> Result<Value, Error> {
        Ok(Value::Text(s.into()))
    }

    #[test]
    fn text_dates_and_times_are_stored_canonically() {
        assert_eq!(text_param("2024-2-9", Type::DATE), stored("2024-02-09"));
        assert_eq!(text_param("07:05", Type::TIME), stored("07:05:00"));
        assert_eq!(
            text_param("10:00:00.500000", Type::TIME),
            stored("10:00:00.5")
        );
        assert_eq!(
            text_param("2024-01-01T12:00:00.250", Type::TIMESTAMP),
            stored("2024-01-01 12:00:00.25")
        );
        assert_eq!(
            text_param("2024-01-01 12:00:00+02", Type::TIMESTAMPTZ),
            stored("2024-01-01 10:00:00+00")
        );
        assert_eq!(
            text_param("2024-01-01 01:00:00-03:30", Type::TIMESTAMPTZ),
            stored("2024-01-01 04:30:00+00")
        );
        assert_eq!(
            text_param("2024-01-01 00:30:00+01", Type::TIMESTAMPTZ),
            stored("2023-12-31 23:30:00+00")
        );
        assert_eq!(
            text_param("2024-01-01 12:00:00", Type::TIMESTAMPTZ),
            stored("2024-01-01 12:00:00+00")
        );
        for (bad, ty) in [
            ("2023-02-29", Type::DATE),
            ("25:00", Type::TIME),
            ("soon", Type::TIMESTAMP),
            ("2024-01-01 12:00:00+99", Type::TIMESTAMPTZ),
        ] {
            let error = text_param(bad, ty).unwrap_err();
            assert_eq!(error.kind, ErrorKind::InvalidParameter, "{bad}");
        }
    }

    #[test]
    fn text_uuids_and_numerics() {
        assert_eq!(
            text_param("{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}", Type::UUID),
            stored("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11")
        );
        assert!(text_param("a0eebc99", Type::UUID).is_err());
        assert_eq!(text_param(" 12.50 ", Type::NUMERIC), stored("12.50"));
        assert_eq!(text_param("-1e3", Type::NUMERIC), stored("-1e3"));
        assert!(text_param("twelve", Type::NUMERIC).is_err());
    }

    #[test]
    fn binary_dates_and_times_become_canonical_text() {
        let binary = |raw: &[u8], ty: Type| decode(Some(raw), &ty, true, None);
        assert_eq!(
            binary(&0i32.to_be_bytes(), Type::DATE),
            stored("2000-01-01")
        );
        assert_eq!(
            binary(&(-10_957i32).to_be_bytes(), Type::DATE),
            stored("1970-01-01")
        );
        assert_eq!(
            binary(&(-730_119i32).to_be_bytes(), Type::DATE),
            stored("0001-01-01")
        );
        assert_eq!(
            binary(&45_296_789_000i64.to_be_bytes(), Type::TIME),
            stored("12:34:56.789")
        );
        assert!(binary(&(-1i64).to_be_bytes(), Type::TIME).is_err());
        let leap = 8_459i64 * 86_400_000_000 + 86_399_250_000;
        assert_eq!(
            binary(&leap.to_be_bytes(), Type::TIMESTAMP),
            stored("2023-02-28 23:59:59.25")
        );
        assert_eq!(
            binary(&(-1i64).to_be_bytes(), Type::TIMESTAMPTZ),
            stored("1999-12-31 23:59:59.999999+00")
        );
        // Extremes do not panic.
        assert!(binary(&i64::MAX.to_be_bytes(), Type::TIMESTAMP).is_ok());
        assert!(binary(&i64::MIN.to_be_bytes(), Type::TIMESTAMPTZ).is_ok());
        assert!(binary(&i32::MIN.to_be_bytes(), Type::DATE).is_ok());
        assert!(binary(&[0; 4], Type::TIMESTAMP).is_err());
    }

    #[test]
    fn binary_uuids_and_numerics_become_text() {
        let binary = |raw: &[u8], ty: Type| decode(Some(raw), &ty, true, None);
        let bytes: Vec<u8> = (0..16).collect();
        assert_eq!(
            binary(&bytes, Type::UUID),
            stored("00010203-0405-0607-0809-0a0b0c0d0e0f")
        );
        assert!(binary(&bytes[..15], Type::UUID).is_err());
        // ndigits 3, weight 1, negative, dscale 3: -1 2345 . 6780
        let numeric: Vec<u8> = [3u16, 1, 0x4000, 3, 1, 2345, 6780]
            .iter()
            .flat_map(|w| w.to_be_bytes())
            .collect();
        assert_eq!(binary(&numeric, Type::NUMERIC), stored("-12345.678"));
        assert!(binary(&numeric[..10], Type::NUMERIC).is_err());
    }

    fn binary_array(header: [i32; 3], dims: &[(i32, i32)], items: &[Option<&[u8]>]) -> Vec<u8> {
        let mut raw: Vec<u8> = header.iter().flat_map(|w| w.to_be_bytes()).collect();
        for (length, lower) in dims {
            raw.extend(length.to_be_bytes());
            raw.extend(lower.to_be_bytes());
        }
        for item in items {
            match item {
                Some(bytes) => {
                    raw.extend((bytes.len() as i32).to_be_bytes());
                    raw.extend_from_slice(bytes);
                }
                None => raw.extend((-1i32).to_be_bytes()),
            }
        }
        raw
    }

    #[test]
    fn arrays_become_the_array_text_of_stored_values() {
        assert_eq!(array_of(&Type::INT8), Type::INT8_ARRAY);
        assert_eq!(array_of(&Type::INTERVAL), Type::TEXT_ARRAY);
        assert_eq!(
            text_param("{3, 1,NULL}", Type::INT8_ARRAY),
            stored("{3,1,NULL}")
        );
        assert_eq!(text_param("{t,false}", Type::BOOL_ARRAY), stored("{1,0}"));
        assert_eq!(
            text_param("{\"2024-01-01 12:00:00+02\"}", Type::TIMESTAMPTZ_ARRAY),
            stored("{\"2024-01-01 10:00:00+00\"}")
        );
        assert!(text_param("{1", Type::INT8_ARRAY).is_err());
        assert!(text_param("{x}", Type::INT4_ARRAY).is_err());

        let binary = |raw: &[u8], ty: Type| decode(Some(raw), &ty, true, None);
        let seven = 7i64.to_be_bytes();
        let raw = binary_array([1, 1, 20], &[(2, 1)], &[Some(&seven), None]);
        assert_eq!(binary(&raw, Type::INT8_ARRAY), stored("{7,NULL}"));
        let raw = binary_array([0, 0, 25], &[], &[]);
        assert_eq!(binary(&raw, Type::TEXT_ARRAY), stored("{}"));
        let raw = binary_array([1, 0, 25], &[(2, 1)], &[Some(b"a b"), Some(b"c")]);
        assert_eq!(binary(&raw, Type::TEXT_ARRAY), stored("{\"a b\",c}"));
        let oid = 23u32.to_be_bytes();
        let raw = binary_array([1, 0, 26], &[(1, 1)], &[Some(&oid)]);
        assert_eq!(binary(&raw, Type::OID_ARRAY), stored("{23}"));
        // Malformed: truncated, two dimensions, an element of the wrong size,
        // bytes after the last element.
        assert!(binary(&raw[..raw.len() - 1], Type::OID_ARRAY).is_err());
        let two = binary_array([2, 0, 20], &[(1, 1), (1, 1)], &[Some(&seven)]);
        assert!(binary(&two, Type::INT8_ARRAY).is_err());
        let raw = binary_array([1, 0, 20], &[(1, 1)], &[Some(&oid)]);
        assert!(binary(&raw, Type::INT8_ARRAY).is_err());
        let mut raw = binary_array([1, 0, 20], &[(1, 1)], &[Some(&seven)]);
        raw.push(0);
        assert!(binary(&raw, Type::INT8_ARRAY).is_err());
        let raw = binary_array([1, 0, 20], &[(-1, 1)], &[]);
        assert!(binary(&raw, Type::INT8_ARRAY).is_err());
    }

    #[test]
    fn format_codes_follow_the_protocol() {
        assert_eq!(format_code(&[], 3), 0);
        assert_eq!(format_code(&[1], 3), 1);
        assert_eq!(format_code(&[0, 1], 1), 1);
        assert_eq!(format_code(&[0, 1], 9), 0);
    }
}
