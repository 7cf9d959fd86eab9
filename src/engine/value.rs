//! SQLite values as they leave and enter the engine.

/// One SQLite value: exactly SQLite's five storage classes.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

/// A SQLite storage class, as reported for a value or inferred for a column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StorageClass {
    Null,
    Integer,
    Real,
    Text,
    Blob,
}

impl Value {
    pub fn storage_class(&self) -> StorageClass {
        match self {
            Value::Null => StorageClass::Null,
            Value::Integer(_) => StorageClass::Integer,
            Value::Real(_) => StorageClass::Real,
            Value::Text(_) => StorageClass::Text,
            Value::Blob(_) => StorageClass::Blob,
        }
    }
}

/// A float8 as PostgreSQL prints it: the shortest digits that read back the
/// same, with an exponent outside 1e-4 .. 1e15, `Infinity`, `NaN`.
pub fn write_float8(out: &mut impl std::fmt::Write, f: f64) -> std::fmt::Result {
    write_shortest(
        out,
        f,
        f.abs(),
        1e15,
        format_args!("{f}"),
        format_args!("{f:e}"),
    )
}

/// A float4 as PostgreSQL prints it: the shortest digits of the float4, with an
/// exponent outside 1e-4 .. 1e6.
pub fn write_float4(out: &mut impl std::fmt::Write, f: f32) -> std::fmt::Result {
    let wide = f64::from(f);
    write_shortest(
        out,
        wide,
        wide.abs(),
        1e6,
        format_args!("{f}"),
        format_args!("{f:e}"),
    )
}

/// A float8 as PostgreSQL prints it under `extra_float_digits`: the shortest
/// exact digits when it is above 0, else `15 + extra_float_digits` significant
/// digits as C's `%g` prints them.
pub fn write_float8_digits(
    out: &mut impl std::fmt::Write,
    f: f64,
    extra_float_digits: i32,
) -> std::fmt::Result {
    match extra_float_digits {
        1.. => write_float8(out, f),
        extra => write_significant(out, f, 15 + extra),
    }
}

/// A float4 as PostgreSQL prints it under `extra_float_digits` (its `%g` has
/// `6 + extra_float_digits` significant digits).
pub fn write_float4_digits(
    out: &mut impl std::fmt::Write,
    f: f32,
    extra_float_digits: i32,
) -> std::fmt::Result {
    match extra_float_digits {
        1.. => write_float4(out, f),
        extra => write_significant(out, f64::from(f), 6 + extra),
    }
}

/// C's `%.*g`: `digits` significant digits, trailing zeros dropped, an
/// exponent when it is below -4 or not below `digits`.
fn write_significant(out: &mut impl std::fmt::Write, f: f64, digits: i32) -> std::fmt::Result {
    if !f.is_finite() {
        return write_float8(out, f);
    }
    let digits = digits.max(1) as usize;
    let scientific = format!("{f:.*e}", digits - 1);
    let (mantissa, exponent) = scientific.split_once('e').unwrap_or((&scientific, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    if exponent < -4 || exponent >= digits as i32 {
        let sign = if exponent < 0 { '-' } else { '+' };
        let mantissa = trim_fraction(mantissa);
        write!(out, "{mantissa}e{sign}{:02}", exponent.abs())
    } else {
        let decimals = (digits as i32 - 1 - exponent).max(0) as usize;
        out.write_str(trim_fraction(&format!("{f:.decimals$}")))
    }
}

/// `1.2300` → `1.23`, `5.000` → `5`; digits before the point stay.
fn trim_fraction(digits: &str) -> &str {
    match digits.contains('.') {
        true => digits.trim_end_matches('0').trim_end_matches('.'),
        false => digits,
    }
}

fn write_shortest(
    out: &mut impl std::fmt::Write,
    f: f64,
    magnitude: f64,
    exponent_from: f64,
    plain: std::fmt::Arguments,
    scientific: std::fmt::Arguments,
) -> std::fmt::Result {
    if f.is_nan() {
        out.write_str("NaN")
    } else if f.is_infinite() {
        out.write_str(if f > 0.0 { "Infinity" } else { "-Infinity" })
    } else if f == 0.0 || (1e-4..exponent_from).contains(&magnitude) {
        out.write_fmt(plain)
    } else {
        let sci = scientific.to_string();
        let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
        let exp: i32 = exp.parse().unwrap_or(0);
        let sign = if exp < 0 { '-' } else { '+' };
        write!(out, "{mantissa}e{sign}{:02}", exp.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_print_as_postgres_prints_them() {
        let text = |f: f64| {
            let mut s = String::new();
            write_float8(&mut s, f).unwrap();
            s
        };
        assert_eq!(text(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(text(1e20), "1e+20");
        assert_eq!(text(-1.5e-7), "-1.5e-07");
        assert_eq!(text(100.0), "100");
        assert_eq!(text(f64::NEG_INFINITY), "-Infinity");
        let text4 = |f: f32| {
            let mut s = String::new();
            write_float4(&mut s, f).unwrap();
            s
        };
        assert_eq!(text4(7.8), "7.8");
        assert_eq!(text4(123456.0), "123456");
        assert_eq!(text4(1234567.0), "1.234567e+06");
        assert_eq!(text4(4567890123456789.0), "4.56789e+15");
        assert_eq!(text4(0.00001), "1e-05");
        let digits = |f: f64, extra: i32| {
            let mut s = String::new();
            write_float8_digits(&mut s, f, extra).unwrap();
            s
        };
        assert_eq!(digits(0.1 + 0.2, 0), "0.3");
        assert_eq!(digits(-100.42999999999999, 0), "-100.43");
        assert_eq!(digits(1.2345678901234e200, 0), "1.2345678901234e+200");
        assert_eq!(digits(1e15, 0), "1e+15");
        assert_eq!(digits(123456789012345.0, 0), "123456789012345");
        assert_eq!(digits(0.0001, 0), "0.0001");
        assert_eq!(digits(0.00001234, -13), "1.2e-05");
        assert_eq!(digits(-0.0, 0), "-0");
        assert_eq!(digits(f64::INFINITY, 0), "Infinity");
        let digits4 = |f: f32, extra: i32| {
            let mut s = String::new();
            write_float4_digits(&mut s, f, extra).unwrap();
            s
        };
        assert_eq!(digits4(1.2345679e20, 0), "1.23457e+20");
        assert_eq!(digits4(7.8, 0), "7.8");
    }
}
