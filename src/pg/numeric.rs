//! PostgreSQL `numeric`: exact decimals in text and in the base-10000 binary format.
//!
//! SQLite keeps numeric values as INTEGER, REAL or (when they do not fit) TEXT. A
//! REAL is read through its shortest round-trip decimal form, so `12.5` is the
//! decimal 12.5 and not the binary fraction nearest to it.

use bytes::{BufMut, BytesMut};

/// Binary sign words.
const POSITIVE: u16 = 0x0000;
const NEGATIVE: u16 = 0x4000;
const NAN: u16 = 0xC000;
const POSITIVE_INFINITY: u16 = 0xD000;
const NEGATIVE_INFINITY: u16 = 0xF000;
/// The largest display scale the binary format carries.
const MAX_DSCALE: usize = 0x3FFF;
/// Exponents beyond PostgreSQL's own input limit are refused, which also keeps a
/// short text from expanding into millions of digits.
const MAX_EXPONENT: i64 = 1000;

/// A numeric value: NaN, an infinity, or a finite decimal.
#[derive(Debug, Clone, PartialEq)]
pub enum Numeric {
    NaN,
    Infinity { negative: bool },
    Finite(Decimal),
}

/// `digits × 10^-scale`. `digits` holds decimal digits (0-9), most significant
/// first, without leading zeros (empty for zero); `scale` is also the number of
/// fraction digits shown, so `12.50` keeps its trailing zero.
#[derive(Debug, Clone, PartialEq)]
pub struct Decimal {
    negative: bool,
    digits: Vec<u8>,
    scale: usize,
}

impl Numeric {
    /// Reads decimal text: `[+-]digits[.digits][e[+-]digits]`, `NaN`, `Infinity`.
    pub fn parse(text: &str) -> Option<Numeric> {
        let text = text.trim();
        let (negative, body) = match text.as_bytes().first() {
            Some(b'-') => (true, &text[1..]),
            Some(b'+') => (false, &text[1..]),
            _ => (false, text),
        };
        if body.eq_ignore_ascii_case("nan") {
            return (body.len() == text.len()).then_some(Numeric::NaN);
        }
        if body.eq_ignore_ascii_case("infinity") || body.eq_ignore_ascii_case("inf") {
            return Some(Numeric::Infinity { negative });
        }
        let (mantissa, exponent) = match body.find(['e', 'E']) {
            Some(at) => (&body[..at], parse_exponent(&body[at + 1..])?),
            None => (body, 0),
        };
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all_digits = int.bytes().chain(frac.bytes()).all(|b| b.is_ascii_digit());
        if !all_digits || (int.is_empty() && frac.is_empty()) {
            return None;
        }
        let digits = int.bytes().chain(frac.bytes()).map(|b| b - b'0').collect();
        let scale = i64::try_from(frac.len()).ok()? - exponent;
        Some(Numeric::Finite(Decimal::new(negative, digits, scale)))
    }

    /// The decimal a double prints as (its shortest round-trip form).
    pub fn from_f64(value: f64) -> Numeric {
        if value.is_nan() {
            Numeric::NaN
        } else if value.is_infinite() {
            Numeric::Infinity {
                negative: value < 0.0,
            }
        } else {
            // Rust prints finite doubles as plain decimals, never with an exponent.
            Numeric::parse(&value.to_string()).unwrap_or(Numeric::NaN)
        }
    }

    pub fn from_i64(value: i64) -> Numeric {
        Numeric::parse(&value.to_string()).unwrap_or(Numeric::NaN)
    }

    /// Rounds (half away from zero, as PostgreSQL does) or pads to `scale` digits
    /// after the point, as a `numeric(p, scale)` column shows its values.
    pub fn with_scale(self, scale: usize) -> Numeric {
        match self {
            Numeric::Finite(decimal) => Numeric::Finite(decimal.with_scale(scale)),
            special => special,
        }
    }

    /// PostgreSQL's text output.
    pub fn to_text(&self) -> String {
        match self {
            Numeric::NaN => "NaN".into(),
            Numeric::Infinity { negative: false } => "Infinity".into(),
            Numeric::Infinity { negative: true } => "-Infinity".into(),
            Numeric::Finite(decimal) => decimal.to_text(),
        }
    }

    /// Appends the binary format: ndigits, weight, sign, dscale (each 16 bits),
    /// then the base-10000 digits. None if the value is too large for it.
    pub fn write_binary(&self, buf: &mut BytesMut) -> Option<()> {
        let (sign, decimal) = match self {
            Numeric::NaN => (NAN, None),
            Numeric::Infinity { negative: false } => (POSITIVE_INFINITY, None),
            Numeric::Infinity { negative: true } => (NEGATIVE_INFINITY, None),
            Numeric::Finite(d) => (if d.negative { NEGATIVE } else { POSITIVE }, Some(d)),
        };
        let Some(decimal) = decimal else {
            buf.put_slice(&[0, 0, 0, 0]);
            buf.put_u16(sign);
            buf.put_u16(0);
            return Some(());
        };
        let (groups, weight) = decimal.base_10000();
        if decimal.scale > MAX_DSCALE {
            return None;
        }
        buf.put_u16(u16::try_from(groups.len()).ok().filter(|n| *n <= 0x7FFF)?);
        buf.put_i16(i16::try_from(weight).ok()?);
        buf.put_u16(sign);
        buf.put_u16(u16::try_from(decimal.scale).ok()?);
        for group in groups {
            buf.put_u16(group);
        }
        Some(())
    }

    /// Reads the binary format. Digits beyond the display scale are rounded away.
    pub fn read_binary(raw: &[u8]) -> Option<Numeric> {
        let word = |i: usize| {
            raw.get(2 * i..2 * i + 2)
                .map(|w| u16::from_be_bytes([w[0], w[1]]))
        };
        let ndigits = usize::from(word(0)?);
        let weight = i64::from(word(1)? as i16);
        let sign = word(2)?;
        let dscale = usize::from(word(3)?);
        if raw.len() != 8 + 2 * ndigits || dscale > MAX_DSCALE {
            return None;
        }
        let negative = match sign {
            POSITIVE => false,
            NEGATIVE => true,
            NAN => return Some(Numeric::NaN),
            POSITIVE_INFINITY => return Some(Numeric::Infinity { negative: false }),
            NEGATIVE_INFINITY => return Some(Numeric::Infinity { negative: true }),
            _ => return None,
        };
        let groups: Vec<u16> = (0..ndigits).map(|i| word(4 + i)).collect::<Option<_>>()?;
        if groups.iter().any(|g| *g >= 10_000) {
            return None;
        }
        Some(Numeric::Finite(
            Decimal::from_base_10000(negative, &groups, weight).with_scale(dscale),
        ))
    }
}

fn parse_exponent(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || digits.len() > 6 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let exponent: i64 = text.parse().ok()?;
    (exponent.abs() <= MAX_EXPONENT).then_some(exponent)
}

impl Decimal {
    /// `digits × 10^-scale`, normalised: a negative scale becomes trailing zeros.
    fn new(negative: bool, mut digits: Vec<u8>, scale: i64) -> Decimal {
        let scale = if scale < 0 {
            let zeros = usize::try_from(-scale).unwrap_or(0);
            digits.resize(digits.len() + zeros, 0);
            0
        } else {
            usize::try_from(scale).unwrap_or(0)
        };
        let leading = digits.iter().take_while(|d| **d == 0).count();
        digits.drain(..leading);
        Decimal {
            negative: negative && !digits.is_empty(),
            digits,
            scale,
        }
    }

    fn with_scale(mut self, scale: usize) -> Decimal {
        if scale >= self.scale {
            self.digits
                .resize(self.digits.len() + (scale - self.scale), 0);
        } else {
            let dropped = self.scale - scale;
            let kept = self.digits.len().saturating_sub(dropped);
            let round_up =
                self.digits.get(kept).is_some_and(|d| *d >= 5) && dropped <= self.digits.len();
            self.digits.truncate(kept);
            if round_up {
                increment(&mut self.digits);
            }
        }
        Decimal::new(
            self.negative,
            self.digits,
            i64::try_from(scale).unwrap_or(0),
        )
    }

    fn to_text(&self) -> String {
        let int_len = self.digits.len().saturating_sub(self.scale);
        let mut out = String::with_capacity(self.digits.len() + self.scale + 3);
        if self.negative {
            out.push('-');
        }
        if int_len == 0 {
            out.push('0');
        }
        out.extend(self.digits[..int_len].iter().map(|d| char::from(b'0' + d)));
        if self.scale > 0 {
            out.push('.');
            let zeros = self.scale - (self.digits.len() - int_len);
            out.extend(std::iter::repeat_n('0', zeros));
            out.extend(self.digits[int_len..].iter().map(|d| char::from(b'0' + d)));
        }
        out
    }

    /// Base-10000 digits without leading or trailing zero groups, and the weight
    /// (power of 10000) of the first one.
    fn base_10000(&self) -> (Vec<u16>, i64) {
        let int_len = self.digits.len().saturating_sub(self.scale);
        let lead = (4 - int_len % 4) % 4;
        let frac_zeros = self.scale.saturating_sub(self.digits.len());
        let tail = (4 - self.scale % 4) % 4;
        let padded: Vec<u8> = std::iter::repeat_n(0, lead)
            .chain(self.digits[..int_len].iter().copied())
            .chain(std::iter::repeat_n(0, frac_zeros))
            .chain(self.digits[int_len..].iter().copied())
            .chain(std::iter::repeat_n(0, tail))
            .collect();
        let mut groups: Vec<u16> = padded
            .chunks(4)
            .map(|c| c.iter().fold(0, |n, d| n * 10 + u16::from(*d)))
            .collect();
        let mut weight = i64::try_from((lead + int_len) / 4).unwrap_or(0) - 1;
        let leading = groups.iter().take_while(|g| **g == 0).count();
        groups.drain(..leading);
        weight -= i64::try_from(leading).unwrap_or(0);
        let trailing = groups.iter().rev().take_while(|g| **g == 0).count();
        groups.truncate(groups.len() - trailing);
        if groups.is_empty() {
            weight = 0;
        }
        (groups, weight)
    }

    /// The decimal `Σ groups[i] × 10000^(weight - i)`, with every digit it holds.
    fn from_base_10000(negative: bool, groups: &[u16], weight: i64) -> Decimal {
        let count = i64::try_from(groups.len()).unwrap_or(0);
        let highest = weight.max(0);
        let lowest = (weight - count + 1).min(0);
        let mut digits =
            Vec::with_capacity(usize::try_from(4 * (highest - lowest + 1)).unwrap_or(0));
        for power in (lowest..=highest).rev() {
            let group = usize::try_from(weight - power)
                .ok()
                .and_then(|i| groups.get(i))
                .copied()
                .unwrap_or(0);
            digits.extend(
                [group / 1000, group / 100 % 10, group / 10 % 10, group % 10].map(|d| d as u8),
            );
        }
        Decimal::new(negative, digits, -4 * lowest)
    }
}

/// Adds one to a decimal digit string (which may grow by a digit).
fn increment(digits: &mut Vec<u8>) {
    for d in digits.iter_mut().rev() {
        if *d == 9 {
            *d = 0;
        } else {
            *d += 1;
            return;
        }
    }
    digits.insert(0, 1);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(input: &str) -> String {
        Numeric::parse(input).unwrap().to_text()
    }

    fn scaled(input: &str, scale: usize) -> String {
        Numeric::parse(input).unwrap().with_scale(scale).to_text()
    }

    fn binary(input: &str) -> Vec<u8> {
        let mut buf = BytesMut::new();
        Numeric::parse(input)
            .unwrap()
            .write_binary(&mut buf)
            .unwrap();
        buf.to_vec()
    }

    /// The binary format written out by hand: header words, then digit words.
    fn words(words: &[u16]) -> Vec<u8> {
        words.iter().flat_map(|w| w.to_be_bytes()).collect()
    }

    #[test]
    fn text_keeps_the_written_scale() {
        assert_eq!(text("12.50"), "12.50");
        assert_eq!(text("+007"), "7");
        assert_eq!(text("-0.00"), "0.00");
        assert_eq!(text(".5"), "0.5");
        assert_eq!(text("5."), "5");
        assert_eq!(text("-0.0001"), "-0.0001");
        assert_eq!(text("1.5e3"), "1500");
        assert_eq!(text("1.5E-3"), "0.0015");
        assert_eq!(text("nan"), "NaN");
        assert_eq!(text("-Infinity"), "-Infinity");
        assert_eq!(
            text("123456789012345678901234567890.123456789"),
            "123456789012345678901234567890.123456789"
        );
        for bad in [
            "", "-", ".", "1.2.3", "1e", "1e99999", "abc", "1 2", "-nan", "0x10",
        ] {
            assert_eq!(Numeric::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn numbers_convert_through_their_shortest_decimal() {
        assert_eq!(Numeric::from_f64(12.5).to_text(), "12.5");
        assert_eq!(Numeric::from_f64(0.1).to_text(), "0.1");
        assert_eq!(Numeric::from_f64(-0.0).to_text(), "0");
        assert_eq!(Numeric::from_f64(1e20).to_text(), "100000000000000000000");
        assert_eq!(Numeric::from_f64(f64::NAN).to_text(), "NaN");
        assert_eq!(
            Numeric::from_i64(i64::MIN).to_text(),
            "-9223372036854775808"
        );
        assert_eq!(Numeric::from_i64(0).to_text(), "0");
    }

    #[test]
    fn scale_rounds_half_away_from_zero() {
        assert_eq!(scaled("12.5", 2), "12.50");
        assert_eq!(scaled("3", 2), "3.00");
        assert_eq!(scaled("2.345", 2), "2.35");
        assert_eq!(scaled("-2.345", 2), "-2.35");
        assert_eq!(scaled("2.344", 2), "2.34");
        assert_eq!(scaled("9.995", 2), "10.00");
        assert_eq!(scaled("-0.004", 2), "0.00");
        assert_eq!(scaled("0.005", 2), "0.01");
        assert_eq!(scaled("0.0005", 2), "0.00");
        assert_eq!(scaled("99.5", 0), "100");
    }

    #[test]
    fn binary_matches_postgres_layout() {
        // ndigits, weight, sign, dscale, digits.
        assert_eq!(binary("0"), words(&[0, 0, 0, 0]));
        assert_eq!(binary("0.00"), words(&[0, 0, 0, 2]));
        assert_eq!(binary("12.50"), words(&[2, 0, 0, 2, 12, 5000]));
        assert_eq!(binary("-12.50"), words(&[2, 0, 0x4000, 2, 12, 5000]));
        assert_eq!(binary("10000"), words(&[1, 1, 0, 0, 1]));
        assert_eq!(
            binary("123456789.0001"),
            words(&[4, 2, 0, 4, 1, 2345, 6789, 1])
        );
        assert_eq!(binary("0.00001"), words(&[1, -2i16 as u16, 0, 5, 1000]));
        assert_eq!(binary("NaN"), words(&[0, 0, 0xC000, 0]));
        assert_eq!(binary("-Infinity"), words(&[0, 0, 0xF000, 0]));
    }

    #[test]
    fn binary_round_trips() {
        for input in [
            "0",
            "0.00",
            "1",
            "-1",
            "12.50",
            "-12.50",
            "9999",
            "10000",
            "0.0001",
            "0.00001",
            "-0.000000012345",
            "123456789012345678901234567890.123456789",
            "1e100",
            "NaN",
            "Infinity",
        ] {
            let parsed = Numeric::parse(input).unwrap();
            assert_eq!(
                Numeric::read_binary(&binary(input)),
                Some(parsed),
                "{input}"
            );
        }
    }

    #[test]
    fn malformed_binary_is_refused() {
        assert_eq!(Numeric::read_binary(&[0, 0]), None);
        assert_eq!(Numeric::read_binary(&words(&[1, 0, 0, 0])), None);
        assert_eq!(Numeric::read_binary(&words(&[1, 0, 0, 0, 10_000])), None);
        assert_eq!(Numeric::read_binary(&words(&[0, 0, 0x1234, 0])), None);
        assert_eq!(Numeric::read_binary(&words(&[0, 0, 0, 0x4000])), None);
        // Digits past the display scale are rounded away.
        assert_eq!(
            Numeric::read_binary(&words(&[2, 0, 0, 1, 1, 2500])).map(|n| n.to_text()),
            Some("1.3".into())
        );
    }
}
