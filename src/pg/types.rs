//! PostgreSQL types for SQLite columns, and values in PostgreSQL's wire formats.
//!
//! A column's type comes from its declared type when it has one (as PostgreSQL
//! would name it: `int` is int4, `varchar(10)` varchar), otherwise from the storage
//! class of its values. Text output follows PostgreSQL's own printing.
//!
//! Types SQLite lacks are stored as plain values that SQLite's tools and date
//! functions still understand: booleans as 0/1, dates, times and timestamps as ISO
//! text (timestamptz in UTC with `+00`), uuids as lowercase hyphenated text, and
//! numerics as SQLite numbers (or text when they do not fit one). On the way out a
//! stored value is read as the column's type; one that does not read as it is sent
//! unchanged in text format and refused in binary format.
//!
//! Arrays are stored as PostgreSQL's array text (`{1,2,NULL}`); on the way out
//! each element is read as the element type, for either format.

use std::fmt::Write as _;

use bytes::{BufMut, BytesMut};
use pgwire::api::Type;

use super::numeric::Numeric;
use super::params::{element_of, parse_bytea};
use super::uuid;
use crate::engine::{
    Column, StorageClass, Value, array_shape, format_array, parse_array, sub_arrays,
    write_float4_digits, write_float8_digits,
};
use crate::sql::datetime;
use crate::sql::interval::Interval;
use crate::sql::quote::parse_bool;
use crate::sql::time_zone::Zone;

/// The session's settings text output follows: how many digits floats get
/// (`extra_float_digits`: above 0, the shortest digits that read back
/// exactly; PostgreSQL's default 1), and `bytea` in hex or, with
/// `bytea_output = escape`, PostgreSQL's escape format; timestamptz values
/// in the session's `TimeZone` (`None`: UTC, as they are stored).
#[derive(Debug, Clone, PartialEq)]
pub struct TextFormat {
    pub float_digits: i32,
    pub bytea_escape: bool,
    pub zone: Option<Zone>,
}

impl Default for TextFormat {
    fn default() -> Self {
        TextFormat {
            float_digits: 1,
            bytea_escape: false,
            zone: None,
        }
    }
}

impl TextFormat {
    /// The format a session's settings ask for.
    pub fn of(settings: &crate::engine::Settings) -> Self {
        TextFormat {
            float_digits: settings.extra_float_digits(),
            bytea_escape: settings.bytea_escape(),
            zone: settings.time_zone().cloned(),
        }
    }
}

/// A result column's PostgreSQL type and type modifier (`atttypmod`: -1 for none;
/// for `numeric(p, s)` it carries the scale values are shown with).
#[derive(Debug, Clone, PartialEq)]
pub struct FieldType {
    pub ty: Type,
    pub typmod: i32,
}

impl FieldType {
    pub fn of(column: &Column) -> FieldType {
        match column.decltype.as_deref() {
            Some(decl) => {
                let ty = declared_type(decl);
                let typmod = i32::try_from(crate::engine::type_modifier(decl)).unwrap_or(-1);
                FieldType { ty, typmod }
            }
            None => FieldType::plain(storage_type(column.storage)),
        }
    }

    /// A type without modifier.
    pub fn plain(ty: Type) -> FieldType {
        FieldType { ty, typmod: -1 }
    }

    /// The scale of a `numeric(p, s)` column.
    fn numeric_scale(&self) -> Option<usize> {
        let packed = self.typmod.checked_sub(4)?;
        (self.ty == Type::NUMERIC && packed >= 0)
            .then(|| crate::engine::numeric_modifier(i64::from(packed)).1.max(0) as usize)
    }
}

/// The PostgreSQL type a result column is reported as.
pub fn column_type(column: &Column) -> Type {
    FieldType::of(column).ty
}

/// Maps a SQLite declared type to the PostgreSQL type it names.
pub fn declared_type(decl: &str) -> Type {
    // One mapping for the wire and for the emulated catalog (`pg_attribute`).
    u32::try_from(crate::engine::type_oid(decl))
        .ok()
        .and_then(Type::from_oid)
        .unwrap_or(Type::TEXT)
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
    ty: &FieldType,
    binary: bool,
    digits: &TextFormat,
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
        encode_text(buf, value, ty, digits);
    }
    let len = i32::try_from(buf.len() - len_at - 4).map_err(|_| EncodeError {
        sqlstate: "54000",
        message: "value too large to send".into(),
    })?;
    buf[len_at..len_at + 4].copy_from_slice(&len.to_be_bytes());
    Ok(())
}

/// PostgreSQL's text output of a value shown as `ty`. Never fails: a stored value
/// that does not read as `ty` is sent as it is.
pub fn encode_text(buf: &mut BytesMut, value: &Value, ty: &FieldType, digits: &TextFormat) {
    if let Some(typed) = Typed::read(value, ty) {
        typed.write_text(buf, digits.zone.as_ref());
        return;
    }
    // A multidimensional array: each sub-array as an array of the type.
    if let (Some(_), Value::Text(text)) = (element_of(&ty.ty), value)
        && let Some(parts) = sub_arrays(text)
    {
        buf.put_u8(b'{');
        for (i, part) in parts.iter().enumerate() {
            if i > 0 {
                buf.put_u8(b',');
            }
            encode_text(buf, &Value::Text((*part).to_owned()), ty, digits);
        }
        buf.put_u8(b'}');
        return;
    }
    if let (Some(element), Value::Text(text)) = (element_of(&ty.ty), value)
        && let Some(items) = parse_array(text)
    {
        // Each element as its type prints (a boolean stored as 1 is `t`).
        let element = FieldType::plain(element.clone());
        let items: Vec<Option<String>> = items
            .iter()
            .map(|item| {
                let item = item.as_deref()?;
                let mut out = BytesMut::new();
                encode_text(
                    &mut out,
                    &element_value(item, &element.ty),
                    &element,
                    digits,
                );
                Some(String::from_utf8_lossy(&out).into_owned())
            })
            .collect();
        buf.put_slice(format_array(&items).as_bytes());
        return;
    }
    match value {
        Value::Null => {}
        Value::Integer(i) => {
            let _ = write!(Writer(buf), "{i}");
        }
        Value::Real(f) if ty.ty == Type::FLOAT4 => {
            let _ = write_float4_digits(&mut Writer(buf), *f as f32, digits.float_digits);
        }
        Value::Real(f) => {
            let _ = write_float8_digits(&mut Writer(buf), *f, digits.float_digits);
        }
        // A `char(n)` is shown padded with spaces to its length, as
        // PostgreSQL stores it (litewire stores it without the padding).
        Value::Text(s) if ty.ty == Type::BPCHAR && ty.typmod > 4 => {
            buf.put_slice(s.as_bytes());
            let length = usize::try_from(ty.typmod - 4).unwrap_or(0);
            let padding = length.saturating_sub(s.chars().count());
            buf.put_bytes(b' ', padding);
        }
        Value::Text(s) => buf.put_slice(s.as_bytes()),
        Value::Blob(b) if matches!(ty.ty, Type::TEXT | Type::VARCHAR | Type::BPCHAR) => {
            buf.put_slice(&String::from_utf8_lossy(b).into_owned().into_bytes())
        }
        Value::Blob(b) if digits.bytea_escape => write_bytea_escape(buf, b),
        Value::Blob(b) => write_bytea_hex(buf, b),
    }
}

/// `bytea` in PostgreSQL's escape format: printable ASCII as it is, a
/// backslash doubled, every other byte as `\ooo` in octal.
fn write_bytea_escape(buf: &mut BytesMut, bytes: &[u8]) {
    for &b in bytes {
        match b {
            b'\\' => buf.put_slice(b"\\\\"),
            0x20..=0x7e => buf.put_u8(b),
            _ => {
                let _ = write!(Writer(buf), "\\{b:03o}");
            }
        }
    }
}

fn encode_binary(buf: &mut BytesMut, value: &Value, field: &FieldType) -> Result<(), EncodeError> {
    let ty = &field.ty;
    let mismatch = || EncodeError {
        sqlstate: "22P03",
        message: format!("cannot send {value:?} as binary {}", ty.name()),
    };
    let out_of_range = || EncodeError {
        sqlstate: "22003",
        message: format!("value out of range for type {}", ty.name()),
    };
    if let Some(typed) = Typed::read(value, field) {
        return typed.write_binary(buf).ok_or_else(out_of_range);
    }
    if let Some(element) = element_of(ty) {
        let Value::Text(text) = value else {
            return Err(mismatch());
        };
        let (dims, items) = array_shape(text).ok_or_else(mismatch)?;
        return encode_binary_array(buf, &dims, &items, element);
    }
    match (ty, value) {
        (&Type::INT2, Value::Integer(i)) => {
            buf.put_i16(i16::try_from(*i).map_err(|_| out_of_range())?)
        }
        (&Type::INT4, Value::Integer(i)) => {
            buf.put_i32(i32::try_from(*i).map_err(|_| out_of_range())?)
        }
        (&Type::INT8, Value::Integer(i)) => buf.put_i64(*i),
        (
            &Type::OID
            | &Type::XID
            | &Type::REGPROC
            | &Type::REGCLASS
            | &Type::REGTYPE
            | &Type::REGNAMESPACE
            | &Type::REGROLE,
            Value::Integer(i),
        ) => buf.put_u32(u32::try_from(*i).map_err(|_| out_of_range())?),
        // An object id shown by its name: an oid that names nothing shows as
        // its number, a type's name is its oid; the binary form of any other
        // name would need the catalog, which encoding has not.
        (
            &Type::REGPROC | &Type::REGCLASS | &Type::REGNAMESPACE | &Type::REGROLE,
            Value::Text(shown),
        ) => buf.put_u32(shown.parse().map_err(|_| mismatch())?),
        (&Type::REGTYPE, Value::Text(name)) => {
            buf.put_u32(u32::try_from(crate::engine::type_oid(name)).map_err(|_| mismatch())?)
        }
        (&Type::INET, Value::Text(text)) => {
            encode_binary_inet(buf, text, false).ok_or_else(mismatch)?
        }
        (&Type::CIDR, Value::Text(text)) => {
            encode_binary_inet(buf, text, true).ok_or_else(mismatch)?
        }
        (&Type::FLOAT4, Value::Real(f)) => buf.put_f32(*f as f32),
        (&Type::FLOAT4, Value::Integer(i)) => buf.put_f32(*i as f32),
        (&Type::FLOAT8, Value::Real(f)) => buf.put_f64(*f),
        (&Type::FLOAT8, Value::Integer(i)) => buf.put_f64(*i as f64),
        // A NaN is kept as text (SQLite would make it NULL).
        (&Type::FLOAT4, Value::Text(s)) => buf.put_f32(s.parse().map_err(|_| mismatch())?),
        (&Type::FLOAT8, Value::Text(s)) => buf.put_f64(s.parse().map_err(|_| mismatch())?),
        (&Type::BYTEA, Value::Blob(b)) => buf.put_slice(b),
        (&Type::BYTEA, Value::Text(s)) => buf.put_slice(s.as_bytes()),
        // `void`'s binary form is no bytes, as PostgreSQL's `void_send`.
        (&Type::VOID, _) => {}
        (&Type::TEXT | &Type::VARCHAR | &Type::BPCHAR | &Type::NAME | &Type::JSON, _) => {
            encode_text(buf, value, field, &TextFormat::default())
        }
        // jsonb's and jsonpath's binary form: a version byte, then the text.
        (&Type::JSONB | &Type::JSONPATH, _) => {
            buf.put_u8(1);
            encode_text(buf, value, field, &TextFormat::default());
        }
        _ => return Err(mismatch()),
    }
    Ok(())
}

/// An `inet` in PostgreSQL's binary format: the address family (2 for IPv4,
/// 3 for IPv6), the netmask's bits, whether it is a `cidr`, the address's length and
/// its bytes. The text is an address with an optional `/bits`.
fn encode_binary_inet(buf: &mut BytesMut, text: &str, cidr: bool) -> Option<()> {
    let (address, bits) = match text.split_once('/') {
        Some((address, bits)) => (address, Some(bits.parse::<u8>().ok()?)),
        None => (text, None),
    };
    let (family, bytes): (u8, Vec<u8>) = match address.parse::<std::net::IpAddr>().ok()? {
        std::net::IpAddr::V4(v4) => (2, v4.octets().to_vec()),
        std::net::IpAddr::V6(v6) => (3, v6.octets().to_vec()),
    };
    let max_bits = u8::try_from(bytes.len() * 8).ok()?;
    let bits = bits.unwrap_or(max_bits);
    if bits > max_bits {
        return None;
    }
    buf.put_u8(family);
    buf.put_u8(bits);
    buf.put_u8(u8::from(cidr));
    buf.put_u8(u8::try_from(bytes.len()).ok()?);
    buf.put_slice(&bytes);
    Some(())
}

/// PostgreSQL's binary array format, one dimension (none when empty): the
/// number of dimensions, whether any element is NULL, the element type, the
/// length and lower bound (1), then each element as a length (-1: NULL) and
/// its binary value.
fn encode_binary_array(
    buf: &mut BytesMut,
    dims: &[usize],
    items: &[Option<String>],
    element: &Type,
) -> Result<(), EncodeError> {
    let too_long = || EncodeError {
        sqlstate: "54000",
        message: "array too large to send".into(),
    };
    let ndim = if items.is_empty() { 0 } else { dims.len() };
    buf.put_i32(i32::try_from(ndim).map_err(|_| too_long())?);
    buf.put_i32(i32::from(items.iter().any(Option::is_none)));
    buf.put_i32(i32::try_from(element.oid()).map_err(|_| too_long())?);
    for length in &dims[..ndim] {
        buf.put_i32(i32::try_from(*length).map_err(|_| too_long())?);
        buf.put_i32(1);
    }
    let field = FieldType::plain(element.clone());
    for item in items {
        match item {
            Some(item) => encode_field(
                buf,
                &element_value(item, element),
                &field,
                true,
                &TextFormat::default(),
            )?,
            None => buf.put_i32(-1),
        }
    }
    Ok(())
}

/// An array element (its text, as the array holds it) as the value a column
/// of the element's type stores, so that it encodes as one.
fn element_value(item: &str, element: &Type) -> Value {
    let parsed = match *element {
        Type::INT2 | Type::INT4 | Type::INT8 | Type::OID => item.parse().ok().map(Value::Integer),
        Type::FLOAT4 | Type::FLOAT8 => match item {
            "Infinity" => Some(Value::Real(f64::INFINITY)),
            "-Infinity" => Some(Value::Real(f64::NEG_INFINITY)),
            _ => item.parse().ok().map(Value::Real),
        },
        Type::BYTEA => parse_bytea(item).map(Value::Blob),
        _ => None,
    };
    parsed.unwrap_or_else(|| Value::Text(item.to_owned()))
}

/// A stored value read as one of the types whose SQLite storage differs from
/// their wire form (see the module docs).
#[derive(Debug, PartialEq)]
enum Typed {
    Bool(bool),
    Numeric(Numeric),
    /// Days since 2000-01-01.
    Date(i64),
    /// Microseconds since midnight.
    Time(i64),
    /// Microseconds since 2000-01-01 00:00:00 (UTC when `with_tz`).
    Timestamp {
        usecs: i64,
        with_tz: bool,
    },
    Uuid([u8; 16]),
    Interval(Interval),
}

impl Typed {
    /// `value` read as `ty`; None when `ty` is not such a type or the value does
    /// not read as one.
    fn read(value: &Value, ty: &FieldType) -> Option<Typed> {
        let text = match value {
            Value::Text(text) => Some(text.as_str()),
            _ => None,
        };
        let typed = match ty.ty {
            Type::BOOL => Typed::Bool(match value {
                Value::Integer(i) => *i != 0,
                Value::Real(f) => *f != 0.0,
                _ => parse_bool(text?)?,
            }),
            Type::NUMERIC => {
                let numeric = match value {
                    Value::Integer(i) => Numeric::from_i64(*i),
                    Value::Real(f) => Numeric::from_f64(*f),
                    _ => Numeric::parse(text?)?,
                };
                Typed::Numeric(match ty.numeric_scale() {
                    Some(scale) => numeric.with_scale(scale),
                    None => numeric,
                })
            }
            Type::DATE => Typed::Date(datetime::parse_date(text?)?),
            Type::TIME => Typed::Time(datetime::parse_time(text?)?),
            Type::TIMESTAMP | Type::TIMESTAMPTZ => {
                let with_tz = ty.ty == Type::TIMESTAMPTZ;
                let usecs = match value {
                    Value::Integer(i) => datetime::timestamp_from_unix(*i as f64)?,
                    Value::Real(f) => datetime::timestamp_from_unix(*f)?,
                    _ => datetime::parse_timestamp(text?, with_tz)?,
                };
                Typed::Timestamp { usecs, with_tz }
            }
            Type::INTERVAL => Typed::Interval(Interval::parse(text?).ok()?),
            Type::UUID => Typed::Uuid(match value {
                Value::Blob(bytes) => <[u8; 16]>::try_from(bytes.as_slice()).ok()?,
                _ => uuid::parse(text?)?,
            }),
            _ => return None,
        };
        Some(typed)
    }

    fn write_text(&self, buf: &mut BytesMut, zone: Option<&Zone>) {
        let text = match self {
            Typed::Bool(b) => return buf.put_slice(if *b { b"t" } else { b"f" }),
            Typed::Numeric(n) => n.to_text(),
            Typed::Date(days) => datetime::format_date(*days),
            Typed::Time(usecs) => datetime::format_time(*usecs),
            Typed::Timestamp {
                usecs,
                with_tz: true,
            } if zone.is_some() => zone.map(|zone| zone.format(*usecs)).unwrap_or_default(),
            Typed::Timestamp { usecs, with_tz } => datetime::format_timestamp(*usecs, *with_tz),
            Typed::Uuid(bytes) => uuid::format(bytes),
            Typed::Interval(interval) => interval.format(),
        };
        buf.put_slice(text.as_bytes());
    }

    /// None when the value does not fit the binary format.
    fn write_binary(&self, buf: &mut BytesMut) -> Option<()> {
        match self {
            Typed::Bool(b) => buf.put_u8(u8::from(*b)),
            Typed::Numeric(n) => n.write_binary(buf)?,
            Typed::Date(days) => buf.put_i32(i32::try_from(*days).ok()?),
            Typed::Time(usecs) | Typed::Timestamp { usecs, .. } => buf.put_i64(*usecs),
            Typed::Uuid(bytes) => buf.put_slice(bytes),
            Typed::Interval(interval) => {
                buf.put_i64(interval.usecs);
                buf.put_i32(interval.days);
                buf.put_i32(interval.months);
            }
        }
        Some(())
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
    use std::sync::Arc;

    use super::*;

    fn column(decl: &str) -> FieldType {
        FieldType::of(&Column {
            name: "c".into(),
            decltype: Some(Arc::from(decl)),
            storage: None,
        })
    }

    fn text(value: Value, ty: Type) -> String {
        text_as(value, &FieldType::plain(ty))
    }

    fn text_as(value: Value, ty: &FieldType) -> String {
        let mut buf = BytesMut::new();
        encode_text(&mut buf, &value, ty, &TextFormat::default());
        String::from_utf8(buf.to_vec()).unwrap()
    }

    fn binary(value: Value, ty: &FieldType) -> Result<Vec<u8>, EncodeError> {
        let mut buf = BytesMut::new();
        encode_binary(&mut buf, &value, ty)?;
        Ok(buf.to_vec())
    }

    fn text_value(s: &str) -> Value {
        Value::Text(s.into())
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
    fn type_modifiers_follow_postgres() {
        assert_eq!(column("numeric(10,2)").typmod, (10 << 16 | 2) + 4);
        assert_eq!(column("DECIMAL( 8 , 3 )").typmod, (8 << 16 | 3) + 4);
        assert_eq!(column("numeric(5)").typmod, (5 << 16) + 4);
        assert_eq!(column("numeric").typmod, -1);
        assert_eq!(column("numeric(2,5)").typmod, (2 << 16 | 5) + 4);
        assert_eq!(column("numeric(4,-2)").typmod, (4 << 16 | 0x7fe) + 4);
        assert_eq!(column("numeric(4,-2)").numeric_scale(), Some(0));
        assert_eq!(column("numeric(0)").typmod, -1);
        assert_eq!(column("numeric(x)").typmod, -1);
        assert_eq!(column("varchar(20)").typmod, 24);
        assert_eq!(column("char(3)").typmod, 7);
        assert_eq!(column("int(11)").typmod, -1);
        assert_eq!(column("decimal(8,3)").numeric_scale(), Some(3));
        assert_eq!(column("numeric(5)").numeric_scale(), Some(0));
        assert_eq!(column("numeric").numeric_scale(), None);
        assert_eq!(column("varchar(20)").numeric_scale(), None);
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

    #[test]
    fn booleans_stored_as_text_print_as_booleans() {
        for (stored, shown) in [
            ("t", "t"),
            ("true", "t"),
            ("1", "t"),
            ("f", "f"),
            ("no", "f"),
        ] {
            assert_eq!(text(text_value(stored), Type::BOOL), shown, "{stored}");
        }
        assert_eq!(text(text_value("maybe"), Type::BOOL), "maybe");
        let bool = FieldType::plain(Type::BOOL);
        assert_eq!(binary(text_value("true"), &bool).unwrap(), [1]);
        assert_eq!(binary(text_value("f"), &bool).unwrap(), [0]);
        assert_eq!(binary(Value::Integer(2), &bool).unwrap(), [1]);
        assert_eq!(
            binary(text_value("maybe"), &bool).unwrap_err().sqlstate,
            "22P03"
        );
    }

    #[test]
    fn numeric_columns_show_their_declared_scale() {
        let money = column("numeric(10,2)");
        assert_eq!(text_as(Value::Real(12.5), &money), "12.50");
        assert_eq!(text_as(Value::Integer(3), &money), "3.00");
        assert_eq!(text_as(Value::Real(-0.125), &money), "-0.13");
        assert_eq!(text_as(text_value("1234.5"), &money), "1234.50");
        assert_eq!(text_as(Value::Real(0.1), &column("decimal(8,3)")), "0.100");
        let plain = column("numeric");
        assert_eq!(text_as(Value::Real(12.5), &plain), "12.5");
        assert_eq!(text_as(Value::Real(0.1), &plain), "0.1");
        assert_eq!(text_as(Value::Integer(-7), &plain), "-7");
        assert_eq!(text_as(text_value("12.50"), &plain), "12.50");
        assert_eq!(text_as(text_value("n/a"), &plain), "n/a");
        // ndigits 2, weight 0, positive, dscale 2: 12 and 5000.
        assert_eq!(
            binary(Value::Real(12.5), &money).unwrap(),
            [0, 2, 0, 0, 0, 0, 0, 2, 0, 12, 0x13, 0x88]
        );
        assert_eq!(
            binary(Value::Integer(-10_000), &plain).unwrap(),
            [0, 1, 0, 1, 0x40, 0, 0, 0, 0, 1]
        );
        assert_eq!(
            binary(text_value("n/a"), &plain).unwrap_err().sqlstate,
            "22P03"
        );
    }

    #[test]
    fn dates_and_times_read_what_sqlite_writers_store() {
        let ts = FieldType::plain(Type::TIMESTAMP);
        let tz = FieldType::plain(Type::TIMESTAMPTZ);
        for stored in [
            "2024-01-01 10:00:00.5",
            "2024-01-01T10:00:00.500",
            "2024-01-01T10:00:00.5Z",
        ] {
            assert_eq!(text_as(text_value(stored), &ts), "2024-01-01 10:00:00.5");
            assert_eq!(text_as(text_value(stored), &tz), "2024-01-01 10:00:00.5+00");
        }
        // Without time zone an offset is ignored; with one it is applied.
        let offset = text_value("2024-01-01 12:00:00+02:00");
        assert_eq!(text_as(offset.clone(), &ts), "2024-01-01 12:00:00");
        assert_eq!(text_as(offset, &tz), "2024-01-01 10:00:00+00");
        assert_eq!(
            text_as(Value::Integer(946_684_800), &tz),
            "2000-01-01 00:00:00+00"
        );
        assert_eq!(
            text_as(Value::Real(946_684_800.25), &ts),
            "2000-01-01 00:00:00.25"
        );
        assert_eq!(text(text_value("2024-2-9"), Type::DATE), "2024-02-09");
        assert_eq!(text(text_value("7:05"), Type::TIME), "07:05:00");
        assert_eq!(text(text_value("yesterday"), Type::DATE), "yesterday");

        let usecs = 3_600_000_000_i64 + 500_000;
        assert_eq!(
            binary(text_value("2000-01-01 01:00:00.5"), &ts).unwrap(),
            usecs.to_be_bytes()
        );
        assert_eq!(
            binary(text_value("2000-01-01 02:00:00.5+01"), &tz).unwrap(),
            usecs.to_be_bytes()
        );
        assert_eq!(
            binary(text_value("01:00:00.5"), &FieldType::plain(Type::TIME)).unwrap(),
            usecs.to_be_bytes()
        );
        let date = FieldType::plain(Type::DATE);
        assert_eq!(
            binary(text_value("1999-12-31"), &date).unwrap(),
            (-1i32).to_be_bytes()
        );
        assert_eq!(
            binary(text_value("1960-02-29"), &date).unwrap(),
            (-14_551i32).to_be_bytes()
        );
        assert_eq!(
            binary(text_value("yesterday"), &date).unwrap_err().sqlstate,
            "22P03"
        );
        assert_eq!(
            binary(Value::Blob(vec![1]), &ts).unwrap_err().sqlstate,
            "22P03"
        );
    }

    #[test]
    fn arrays_in_both_formats() {
        let ints = FieldType::plain(Type::INT4_ARRAY);
        let words = |ws: &[i32]| ws.iter().flat_map(|w| w.to_be_bytes()).collect::<Vec<u8>>();
        // One dimension, a NULL among the elements, int4 elements, 3 from 1.
        let mut want = words(&[1, 1, 23, 3, 1, 4, 7, -1, 4]);
        want.extend(words(&[-2]));
        assert_eq!(binary(text_value("{7,NULL,-2}"), &ints).unwrap(), want);
        assert_eq!(binary(text_value("{}"), &ints).unwrap(), words(&[0, 0, 23]));
        assert_eq!(
            binary(text_value("{x}"), &ints).unwrap_err().sqlstate,
            "22P03"
        );
        assert_eq!(
            binary(text_value("not an array"), &ints)
                .unwrap_err()
                .sqlstate,
            "22P03"
        );
        let bools = FieldType::plain(Type::BOOL_ARRAY);
        assert_eq!(text_as(text_value("{1,0,NULL}"), &bools), "{t,f,NULL}");
        assert_eq!(text_as(text_value("{1, 2}"), &ints), "{1,2}");
        assert_eq!(text_as(text_value("1 2"), &ints), "1 2");
        let bytes = FieldType::plain(Type::BYTEA_ARRAY);
        let mut want = words(&[1, 0, 17, 1, 1, 2]);
        want.extend([0xde, 0xad]);
        assert_eq!(binary(text_value(r#"{"\\xdead"}"#), &bytes).unwrap(), want);
    }

    #[test]
    fn uuids_read_any_spelling_or_sixteen_bytes() {
        let uuid = FieldType::plain(Type::UUID);
        let canonical = "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11";
        let bytes = crate::pg::uuid::parse(canonical).unwrap().to_vec();
        for stored in [
            text_value("{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}"),
            text_value("a0eebc999c0b4ef8bb6d6bb9bd380a11"),
            Value::Blob(bytes.clone()),
        ] {
            assert_eq!(text_as(stored.clone(), &uuid), canonical);
            assert_eq!(binary(stored, &uuid).unwrap(), bytes);
        }
        assert_eq!(text_as(text_value("nope"), &uuid), "nope");
        assert_eq!(
            binary(text_value("nope"), &uuid).unwrap_err().sqlstate,
            "22P03"
        );
    }
}
