//! PostgreSQL types for SQLite columns, and values in PostgreSQL's wire formats.
//!
//! A column's type comes from its declared type when it has one (as PostgreSQL
//! would name it: `int` is int4, `varchar(10)` varchar), otherwise from the storage
//! class of its values. Text output follows PostgreSQL's own printing.

use std::fmt::Write as _;

use bytes::{BufMut, BytesMut};
use pgwire::api::Type;

use crate::engine::{Column, StorageClass, Value};

/// The PostgreSQL type a result column is reported as.
pub fn column_type(column: &Column) -> Type {
    match column.decltype.as_deref() {
        Some(decl) => declared_type(decl),
        None => storage_type(column.storage),
    }
}

/// Maps a SQLite declared type to the PostgreSQL type it names.
pub fn declared_type(decl: &str) -> Type {
    let lower = decl.trim().to_ascii_lowercase();
    let base = lower.split('(').next().unwrap_or("").trim();
    match base {
        "int" | "integer" | "int4" | "mediumint" | "serial" | "serial4" => Type::INT4,
        "bigint" | "int8" | "bigserial" | "serial8" => Type::INT8,
        "smallint" | "int2" | "tinyint" | "smallserial" | "serial2" => Type::INT2,
        // SQLite stores every REAL as an 8-byte double.
        "real" | "double" | "double precision" | "float" | "float8" => Type::FLOAT8,
        "float4" => Type::FLOAT4,
        "bool" | "boolean" => Type::BOOL,
        "text" | "clob" => Type::TEXT,
        "varchar" | "character varying" | "nvarchar" | "varying character" | "native character" => {
            Type::VARCHAR
        }
        "char" | "character" | "bpchar" | "nchar" => Type::BPCHAR,
        "blob" | "bytea" => Type::BYTEA,
        "numeric" | "decimal" => Type::NUMERIC,
        "date" => Type::DATE,
        "time" | "time without time zone" => Type::TIME,
        "timestamp" | "datetime" | "timestamp without time zone" => Type::TIMESTAMP,
        "timestamptz" | "timestamp with time zone" => Type::TIMESTAMPTZ,
        "uuid" => Type::UUID,
        "json" => Type::JSON,
        "jsonb" => Type::JSONB,
        // SQLite's affinity rules, for everything else.
        _ if base.contains("int") => Type::INT8,
        _ if base.contains("char") || base.contains("clob") || base.contains("text") => Type::TEXT,
        _ if base.contains("real") || base.contains("floa") || base.contains("doub") => {
            Type::FLOAT8
        }
        _ if base.is_empty() || base.contains("blob") => Type::BYTEA,
        _ => Type::NUMERIC,
    }
}

fn storage_type(storage: Option<StorageClass>) -> Type {
    match storage {
        Some(StorageClass::Integer) => Type::INT8,
        Some(StorageClass::Real) => Type::FLOAT8,
        Some(StorageClass::Blob) => Type::BYTEA,
        _ => Type::TEXT,
    }
}

/// Why a value could not be put on the wire.
#[derive(Debug)]
pub struct EncodeError {
    pub sqlstate: &'static str,
    pub message: String,
}

/// Appends one DataRow field (length, then bytes; -1 for NULL) to `buf`.
pub fn encode_field(
    buf: &mut BytesMut,
    value: &Value,
    ty: &Type,
    binary: bool,
) -> Result<(), EncodeError> {
    if matches!(value, Value::Null) {
        buf.put_i32(-1);
        return Ok(());
    }
    let len_at = buf.len();
    buf.put_i32(0);
    if binary {
        encode_binary(buf, value, ty)?;
    } else {
        encode_text(buf, value, ty);
    }
    let len = i32::try_from(buf.len() - len_at - 4).map_err(|_| EncodeError {
        sqlstate: "54000",
        message: "value too large to send".into(),
    })?;
    buf[len_at..len_at + 4].copy_from_slice(&len.to_be_bytes());
    Ok(())
}

/// PostgreSQL's text output of a value shown as `ty`.
pub fn encode_text(buf: &mut BytesMut, value: &Value, ty: &Type) {
    match value {
        Value::Null => {}
        Value::Integer(i) if *ty == Type::BOOL => buf.put_slice(if *i != 0 { b"t" } else { b"f" }),
        Value::Integer(i) => {
            let _ = write!(Writer(buf), "{i}");
        }
        Value::Real(f) => write_float(buf, *f),
        Value::Text(s) => buf.put_slice(s.as_bytes()),
        Value::Blob(b)
            if *ty == Type::BYTEA || !matches!(*ty, Type::TEXT | Type::VARCHAR | Type::BPCHAR) =>
        {
            write_bytea_hex(buf, b)
        }
        Value::Blob(b) => buf.put_slice(&String::from_utf8_lossy(b).into_owned().into_bytes()),
    }
}

fn encode_binary(buf: &mut BytesMut, value: &Value, ty: &Type) -> Result<(), EncodeError> {
    let mismatch = || EncodeError {
        sqlstate: "22P03",
        message: format!("cannot send {value:?} as binary {}", ty.name()),
    };
    let out_of_range = || EncodeError {
        sqlstate: "22003",
        message: format!("value out of range for type {}", ty.name()),
    };
    match (ty, value) {
        (&Type::INT2, Value::Integer(i)) => {
            buf.put_i16(i16::try_from(*i).map_err(|_| out_of_range())?)
        }
        (&Type::INT4, Value::Integer(i)) => {
            buf.put_i32(i32::try_from(*i).map_err(|_| out_of_range())?)
        }
        (&Type::INT8, Value::Integer(i)) => buf.put_i64(*i),
        (&Type::FLOAT4, Value::Real(f)) => buf.put_f32(*f as f32),
        (&Type::FLOAT4, Value::Integer(i)) => buf.put_f32(*i as f32),
        (&Type::FLOAT8, Value::Real(f)) => buf.put_f64(*f),
        (&Type::FLOAT8, Value::Integer(i)) => buf.put_f64(*i as f64),
        (&Type::BOOL, Value::Integer(i)) => buf.put_u8(u8::from(*i != 0)),
        (&Type::BYTEA, Value::Blob(b)) => buf.put_slice(b),
        (&Type::BYTEA, Value::Text(s)) => buf.put_slice(s.as_bytes()),
        (&Type::TEXT | &Type::VARCHAR | &Type::BPCHAR | &Type::NAME | &Type::JSON, _) => {
            encode_text(buf, value, ty)
        }
        (&Type::JSONB, _) => {
            buf.put_u8(1);
            encode_text(buf, value, ty);
        }
        _ => return Err(mismatch()),
    }
    Ok(())
}

/// float8 output as PostgreSQL prints it (shortest exact digits, exponent outside
/// 1e-4 .. 1e15, `Infinity`, `NaN`).
fn write_float(buf: &mut BytesMut, f: f64) {
    if f.is_nan() {
        buf.put_slice(b"NaN");
    } else if f.is_infinite() {
        buf.put_slice(if f > 0.0 { b"Infinity" } else { b"-Infinity" });
    } else if f == 0.0 || (1e-4..1e15).contains(&f.abs()) {
        let _ = write!(Writer(buf), "{f}");
    } else {
        let sci = format!("{f:e}");
        let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        let _ = write!(Writer(buf), "{mantissa}e{sign}{:02}", exp.abs());
    }
}

fn write_bytea_hex(buf: &mut BytesMut, bytes: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    buf.reserve(2 + bytes.len() * 2);
    buf.put_slice(b"\\x");
    for b in bytes {
        buf.put_u8(HEX[usize::from(b >> 4)]);
        buf.put_u8(HEX[usize::from(b & 0xf)]);
    }
}

/// `fmt::Write` straight into the output buffer (no intermediate String).
struct Writer<'a>(&'a mut BytesMut);

impl std::fmt::Write for Writer<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.put_slice(s.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(value: Value, ty: Type) -> String {
        let mut buf = BytesMut::new();
        encode_text(&mut buf, &value, &ty);
        String::from_utf8(buf.to_vec()).unwrap()
    }

    #[test]
    fn declared_types_map_as_postgres_names_them() {
        assert_eq!(declared_type("INT"), Type::INT4);
        assert_eq!(declared_type("integer"), Type::INT4);
        assert_eq!(declared_type("BIGINT"), Type::INT8);
        assert_eq!(declared_type("varchar(10)"), Type::VARCHAR);
        assert_eq!(declared_type("char(84)"), Type::BPCHAR);
        assert_eq!(declared_type("double precision"), Type::FLOAT8);
        assert_eq!(declared_type("BLOB"), Type::BYTEA);
        assert_eq!(declared_type("timestamp"), Type::TIMESTAMP);
        assert_eq!(declared_type("unsigned big int"), Type::INT8);
    }

    #[test]
    fn text_output_matches_postgres() {
        assert_eq!(text(Value::Real(1.5), Type::FLOAT8), "1.5");
        assert_eq!(text(Value::Real(1e20), Type::FLOAT8), "1e+20");
        assert_eq!(text(Value::Real(1.25e-7), Type::FLOAT8), "1.25e-07");
        assert_eq!(text(Value::Real(f64::INFINITY), Type::FLOAT8), "Infinity");
        assert_eq!(text(Value::Integer(1), Type::BOOL), "t");
        assert_eq!(text(Value::Blob(vec![0xde, 0xad]), Type::BYTEA), "\\xdead");
    }
}
