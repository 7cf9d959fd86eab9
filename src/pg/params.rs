//! Bind parameters: PostgreSQL text or binary values into SQLite values.
//!
//! Parameters sent untyped (OID 0, as pgbench and psql do) arrive as text and are
//! bound as text: SQLite's column affinity converts them where a column is compared
//! or assigned, so `aid = $1` still uses the index on an INTEGER column.

use pgwire::api::Type;

use crate::engine::{EngineError, ErrorKind, Value};

/// Which format (0 text, 1 binary) applies to item `i` under PostgreSQL's rule: no
/// codes means all text, one code applies to all, otherwise one per item.
pub fn format_code(codes: &[i16], i: usize) -> i16 {
    match codes {
        [] => 0,
        [one] => *one,
        many => many.get(i).copied().unwrap_or(0),
    }
}

pub fn decode(raw: Option<&[u8]>, ty: &Type, binary: bool) -> Result<Value, EngineError> {
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

fn decode_text(text: &str, ty: &Type) -> Result<Value, EngineError> {
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
        _ => Value::Text(text.to_owned()),
    };
    Ok(value)
}

fn decode_binary(raw: &[u8], ty: &Type) -> Result<Value, EngineError> {
    let fixed = |n: usize| -> Result<&[u8], EngineError> {
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

fn parse_bool(text: &str) -> Option<bool> {
    match text.trim().to_ascii_lowercase().as_str() {
        "t" | "true" | "y" | "yes" | "on" | "1" => Some(true),
        "f" | "false" | "n" | "no" | "off" | "0" => Some(false),
        _ => None,
    }
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

fn invalid(ty: &Type, what: &str) -> EngineError {
    EngineError::new(
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

    #[test]
    fn format_codes_follow_the_protocol() {
        assert_eq!(format_code(&[], 3), 0);
        assert_eq!(format_code(&[1], 3), 1);
        assert_eq!(format_code(&[0, 1], 1), 1);
        assert_eq!(format_code(&[0, 1], 9), 0);
    }
}
