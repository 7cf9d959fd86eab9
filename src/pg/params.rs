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

use pgwire::api::Type;

use super::numeric::Numeric;
use super::{datetime, uuid};
use crate::engine::Value;
use crate::error::{Error, ErrorKind};
use crate::sql::quote::parse_bool;

/// Which format (0 text, 1 binary) applies to item `i` under PostgreSQL's rule: no
/// codes means all text, one code applies to all, otherwise one per item.
pub fn format_code(codes: &[i16], i: usize) -> i16 {
    match codes {
        [] => 0,
        [one] => *one,
        many => many.get(i).copied().unwrap_or(0),
    }
}

pub fn decode(raw: Option<&[u8]>, ty: &Type, binary: bool) -> Result<Value, Error> {
    let Some(raw) = raw else {
        return Ok(Value::Null);
    };
    if binary {
        decode_binary(raw, ty)
    } else {
        let text = std::str::from_utf8(raw).map_err(|_| invalid(ty, "invalid UTF-8"))?;
        decode_text(text, ty)
    }
}

fn decode_text(text: &str, ty: &Type) -> Result<Value, Error> {
    let value = match *ty {
        Type::INT2 | Type::INT4 | Type::INT8 => {
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
        Type::TIMESTAMP | Type::TIMESTAMPTZ => {
            let with_tz = *ty == Type::TIMESTAMPTZ;
            let usecs = datetime::parse_timestamp(text, with_tz);
            canonical(usecs, |u| datetime::format_timestamp(u, with_tz), ty, text)?
        }
        Type::UUID => canonical(uuid::parse(text), |b| uuid::format(&b), ty, text)?,
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
        Type::JSONB => match raw.split_first() {
            Some((1, json)) => Value::Text(
                String::from_utf8(json.to_vec()).map_err(|_| invalid(ty, "invalid UTF-8"))?,
            ),
            _ => return Err(invalid(ty, "unknown jsonb version")),
        },
        _ => Value::Blob(raw.to_vec()),
    };
    Ok(value)
}

fn array<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0; N];
    out.copy_from_slice(bytes);
    out
}

/// `\x` hex form (PostgreSQL's output) or raw bytes.
fn parse_bytea(text: &str) -> Option<Vec<u8>> {
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
            decode(Some(b"42"), &Type::UNKNOWN, false).unwrap(),
            Value::Text("42".into())
        );
    }

    #[test]
    fn typed_text_and_binary() {
        assert_eq!(
            decode(Some(b"42"), &Type::INT4, false).unwrap(),
            Value::Integer(42)
        );
        assert_eq!(
            decode(Some(&7i32.to_be_bytes()), &Type::INT4, true).unwrap(),
            Value::Integer(7)
        );
        assert_eq!(
            decode(Some(b"\\x0aff"), &Type::BYTEA, false).unwrap(),
            Value::Blob(vec![10, 255])
        );
        assert_eq!(
            decode(Some(b"true"), &Type::BOOL, false).unwrap(),
            Value::Integer(1)
        );
        assert_eq!(decode(None, &Type::INT4, false).unwrap(), Value::Null);
        assert!(decode(Some(b"x"), &Type::INT8, false).is_err());
        assert!(decode(Some(&[1, 2]), &Type::INT4, true).is_err());
    }

    fn text_param(raw: &str, ty: Type) -> Result<Value, Error> {
        decode(Some(raw.as_bytes()), &ty, false)
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
        let binary = |raw: &[u8], ty: Type| decode(Some(raw), &ty, true);
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
        let binary = |raw: &[u8], ty: Type| decode(Some(raw), &ty, true);
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

    #[test]
    fn format_codes_follow_the_protocol() {
        assert_eq!(format_code(&[], 3), 0);
        assert_eq!(format_code(&[1], 3), 1);
        assert_eq!(format_code(&[0, 1], 1), 1);
        assert_eq!(format_code(&[0, 1], 9), 0);
    }
}
