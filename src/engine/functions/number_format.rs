//! `to_char(number, format)`: PostgreSQL's numeric template patterns. `9` a
//! digit (blank when it leads), `0` a digit (zero when it leads), `.`/`D`
//! the decimal point, `,`/`G` a group separator (blank before the first
//! digit), `S` a sign anchored to the number, `MI`/`PL`/`SG` a sign at their
//! place, `PR` angle brackets around a negative number, `L` the currency
//! symbol (blank in the C locale), `TH` an ordinal suffix, `V` a shift by
//! ten per digit after it, `EEEE` scientific notation, `RN` Roman numerals,
//! `FM` no padding and no trailing zeros; quoted text as it is. A number
//! wider than its digits is all `#`. Rounding is half away from zero, on
//! the decimal digits the number prints as.

use super::call::{Arg, Call, Out};
use super::definition::{Args, Function, Volatility};
use super::formatting::ordinal;

pub(super) const FUNCTIONS: &[Function] = &[Function::helper(
    "litewire_to_char_number",
    Args::Fixed(&["numeric", "text", "bool"]),
    Volatility::Immutable,
    to_char,
)];

#[derive(Debug, Clone, PartialEq)]
enum Part {
    Digit {
        zero: bool,
    },
    Point,
    Group,
    /// `S`.
    Sign,
    Minus,
    Plus,
    SignAlways,
    Brackets,
    Currency,
    Ordinal {
        upper: bool,
    },
    Shift,
    Exponent,
    Roman {
        upper: bool,
    },
    Text(String),
}

/// The format's parts, and whether `FM` asked for no padding.
fn parse(format: &str) -> (Vec<Part>, bool) {
    let mut parts = Vec::new();
    let mut fill = false;
    let mut rest = format;
    while let Some(c) = rest.chars().next() {
        let upper = rest.to_ascii_uppercase();
        let word = |w: &str| upper.starts_with(w);
        let (part, len) = if word("FM") {
            fill = true;
            rest = &rest[2..];
            continue;
        } else if word("EEEE") {
            (Part::Exponent, 4)
        } else if word("PR") {
            (Part::Brackets, 2)
        } else if word("MI") {
            (Part::Minus, 2)
        } else if word("PL") {
            (Part::Plus, 2)
        } else if word("SG") {
            (Part::SignAlways, 2)
        } else if word("TH") {
            (
                Part::Ordinal {
                    upper: rest.starts_with('T'),
                },
                2,
            )
        } else if word("RN") {
            (
                Part::Roman {
                    upper: rest.starts_with('R'),
                },
                2,
            )
        } else {
            match c {
                '9' => (Part::Digit { zero: false }, 1),
                '0' => (Part::Digit { zero: true }, 1),
                '.' | 'D' | 'd' => (Part::Point, 1),
                ',' | 'G' | 'g' => (Part::Group, 1),
                'S' | 's' => (Part::Sign, 1),
                'L' | 'l' => (Part::Currency, 1),
                'V' | 'v' => (Part::Shift, 1),
                '"' => {
                    // Up to the closing quote; `\` takes the next character.
                    let mut text = String::new();
                    let mut chars = rest.char_indices().skip(1);
                    let mut end = rest.len();
                    while let Some((i, c)) = chars.next() {
                        match c {
                            '"' => {
                                end = i + 1;
                                break;
                            }
                            '\\' => {
                                if let Some((_, next)) = chars.next() {
                                    text.push(next);
                                }
                            }
                            other => text.push(other),
                        }
                    }
                    (Part::Text(text), end)
                }
                '\\' if rest[1..].starts_with('"') => (Part::Text("\"".into()), 2),
                other => (Part::Text(other.to_string()), other.len_utf8()),
            }
        };
        parts.push(part);
        rest = &rest[len..];
    }
    (parts, fill)
}

/// A number's decimal digits: its sign, integer digits and fraction digits.
struct Digits {
    negative: bool,
    integer: String,
    fraction: String,
}

impl Digits {
    fn of(arg: &Arg) -> Option<Digits> {
        let text = match arg {
            Arg::Int(i) => i.to_string(),
            Arg::Real(f) if f.is_finite() => format!("{f}"),
            Arg::Text(t) => t.trim().to_owned(),
            _ => return None,
        };
        let (negative, unsigned) = match text.strip_prefix('-') {
            Some(rest) => (true, rest.to_owned()),
            None => (false, text.trim_start_matches('+').to_owned()),
        };
        let (integer, fraction) = unsigned.split_once('.').unwrap_or((&unsigned, ""));
        if !integer
            .chars()
            .chain(fraction.chars())
            .all(|c| c.is_ascii_digit())
        {
            return None;
        }
        Some(Digits {
            negative,
            integer: integer.trim_start_matches('0').to_owned(),
            fraction: fraction.to_owned(),
        })
    }

    /// Multiplied by ten `n` times.
    fn shifted(mut self, n: usize) -> Digits {
        let mut fraction = std::mem::take(&mut self.fraction);
        fraction.extend(std::iter::repeat_n('0', n.saturating_sub(fraction.len())));
        let (moved, rest) = fraction.split_at(n);
        self.integer = format!("{}{moved}", self.integer)
            .trim_start_matches('0')
            .to_owned();
        self.fraction = rest.to_owned();
        self
    }

    /// Rounded to `places` fraction digits, half away from zero.
    fn rounded(mut self, places: usize) -> Digits {
        let mut fraction = std::mem::take(&mut self.fraction);
        let up = fraction.as_bytes().get(places).is_some_and(|d| *d >= b'5');
        fraction.truncate(places);
        fraction.extend(std::iter::repeat_n('0', places - fraction.len()));
        let mut all: Vec<u8> = format!("{}{fraction}", self.integer).into_bytes();
        if up {
            let mut i = all.len();
            loop {
                if i == 0 {
                    all.insert(0, b'1');
                    break;
                }
                i -= 1;
                if all[i] == b'9' {
                    all[i] = b'0';
                } else {
                    all[i] += 1;
                    break;
                }
            }
        }
        let split = all.len() - places;
        let text = String::from_utf8(all).unwrap_or_default();
        self.integer = text[..split].trim_start_matches('0').to_owned();
        self.fraction = text[split..].to_owned();
        if self.integer.is_empty() && self.fraction.bytes().all(|d| d == b'0') {
            self.negative = false;
        }
        self
    }
}

fn to_char(_: &Call, args: &[Arg]) -> Out {
    let (Some(digits), Some(format)) = (Digits::of(&args[0]), args[1].text()) else {
        return Out::Null;
    };
    let (parts, fill) = parse(&format);
    // A float rounds as C's printf rounds its binary value (0.125 to 0.12).
    let float = match (&args[0], &args[2]) {
        (Arg::Real(f), Arg::Int(1)) => Some(*f),
        _ => None,
    };
    if let Some(upper) = parts.iter().find_map(|p| match p {
        Part::Roman { upper } => Some(*upper),
        _ => None,
    }) {
        return Out::Text(roman(digits, upper, fill));
    }
    if parts.contains(&Part::Exponent) {
        return Out::Text(scientific(&digits, &parts, fill));
    }
    Out::Text(positional(digits, float, &parts, fill))
}

/// `RN`: 1 to 3999 in Roman numerals, fifteen wide; `#` otherwise.
fn roman(digits: Digits, upper: bool, fill: bool) -> String {
    const NUMERALS: [(u32, &str); 13] = [
        (1000, "M"),
        (900, "CM"),
        (500, "D"),
        (400, "CD"),
        (100, "C"),
        (90, "XC"),
        (50, "L"),
        (40, "XL"),
        (10, "X"),
        (9, "IX"),
        (5, "V"),
        (4, "IV"),
        (1, "I"),
    ];
    let digits = digits.rounded(0);
    let n: u32 = digits.integer.parse().unwrap_or(0);
    if digits.negative || !(1..=3999).contains(&n) {
        return "#".repeat(15);
    }
    let mut left = n;
    let mut text = String::new();
    for (value, numeral) in NUMERALS {
        while left >= value {
            text.push_str(numeral);
            left -= value;
        }
    }
    if !upper {
        text = text.to_lowercase();
    }
    match fill {
        true => text,
        false => format!("{text:>15}"),
    }
}

/// `9.99EEEE`: one digit, the fraction digits asked for, `e±NN`.
fn scientific(digits: &Digits, parts: &[Part], fill: bool) -> String {
    let point = parts.iter().position(|p| *p == Part::Point);
    let places = point.map_or(0, |at| {
        parts[at..]
            .iter()
            .filter(|p| matches!(p, Part::Digit { .. }))
            .count()
    });
    let value: f64 = format!(
        "{}{}.{}",
        if digits.negative { "-" } else { "" },
        if digits.integer.is_empty() {
            "0"
        } else {
            &digits.integer
        },
        digits.fraction
    )
    .parse()
    .unwrap_or(0.0);
    let shown = format!("{value:.places$e}");
    let (mantissa, exponent) = shown.split_once('e').unwrap_or((&shown, "0"));
    let exponent: i32 = exponent.parse().unwrap_or(0);
    let sign = if exponent < 0 { '-' } else { '+' };
    let body = format!("{mantissa}e{sign}{:02}", exponent.abs());
    match (body.starts_with('-'), fill) {
        (false, false) => format!(" {body}"),
        _ => body,
    }
}

/// The digit layout: every part in order.
fn positional(digits: Digits, float: Option<f64>, parts: &[Part], fill: bool) -> String {
    let point = parts.iter().position(|p| *p == Part::Point);
    let shift = parts.iter().position(|p| *p == Part::Shift);
    let is_digit = |p: &Part| matches!(p, Part::Digit { .. });
    let count = |range: &[Part]| range.iter().filter(|p| is_digit(p)).count();
    let shifted = shift.map_or(0, |at| count(&parts[at..]));
    let post = point.map_or(0, |at| count(&parts[at..]));
    let pre = count(parts) - post;
    let digits = match float.map(|f| f * 10f64.powi(shifted as i32)) {
        Some(f) => Digits::of(&Arg::Text(&format!("{f:.post$}"))).unwrap_or(digits),
        None => digits.shifted(shifted).rounded(post),
    };
    let negative = digits.negative;
    // Fraction digits `FM` drops: trailing zeros at `9`s.
    let post_zeros: Vec<bool> = point.map_or_else(Vec::new, |at| {
        parts[at..]
            .iter()
            .filter_map(|p| match p {
                Part::Digit { zero } => Some(*zero),
                _ => None,
            })
            .collect()
    });
    let mut fraction = digits.fraction.clone();
    if fill {
        while fraction.ends_with('0') && post_zeros.get(fraction.len() - 1) == Some(&false) {
            fraction.pop();
        }
    }
    // A zero integer part is not shown before a fraction (`.50`), unless
    // nothing of the fraction is left to show.
    let integer = match digits.integer.as_str() {
        "" if post == 0 || (fill && fraction.is_empty()) => "0".to_owned(),
        other => other.to_owned(),
    };
    let overflow = integer.len() > pre;
    let zero_start = parts
        .iter()
        .filter(|p| is_digit(p))
        .take(pre)
        .position(|p| *p == Part::Digit { zero: true });
    let explicit = parts.iter().any(|p| {
        matches!(
            p,
            Part::Sign | Part::Minus | Part::SignAlways | Part::Brackets
        )
    });
    let anchored_sign = parts.iter().position(|p| *p == Part::Sign);
    let first_digit = parts.iter().position(is_digit);
    let leading_s = anchored_sign.is_some_and(|s| first_digit.is_none_or(|d| s < d));
    let brackets = parts.contains(&Part::Brackets);
    // The sign written before the number's first character, if any.
    let mut pending: Option<&str> = if brackets {
        Some(if negative {
            "<"
        } else if fill {
            ""
        } else {
            " "
        })
    } else if leading_s {
        Some(if negative { "-" } else { "+" })
    } else if !explicit {
        Some(if negative {
            "-"
        } else if fill {
            ""
        } else {
            " "
        })
    } else {
        None
    };
    let blanks = pre.saturating_sub(integer.len());
    let mut out = String::new();
    let mut position = 0;
    let mut started = false;
    let mut fraction_digits = fraction.chars();
    let mut in_fraction = false;
    for part in parts {
        match part {
            Part::Digit { .. } if !in_fraction => {
                let at = position;
                position += 1;
                if overflow {
                    if let Some(sign) = pending.take() {
                        out.push_str(sign);
                    }
                    out.push('#');
                } else if at < blanks {
                    if zero_start.is_some_and(|z| z <= at) {
                        if let Some(sign) = pending.take() {
                            out.push_str(sign);
                        }
                        out.push('0');
                        started = true;
                    } else if !fill {
                        out.push(' ');
                    }
                } else {
                    if let Some(sign) = pending.take() {
                        out.push_str(sign);
                    }
                    out.push_str(&integer[at - blanks..=at - blanks]);
                    started = true;
                }
            }
            Part::Digit { .. } => match (overflow, fraction_digits.next()) {
                (true, _) => out.push('#'),
                (false, Some(d)) => out.push(d),
                (false, None) => {}
            },
            Part::Point => {
                if let Some(sign) = pending.take() {
                    out.push_str(sign);
                }
                out.push('.');
                in_fraction = true;
            }
            Part::Group => match (started || overflow, fill) {
                (true, _) => out.push(','),
                (false, false) => out.push(' '),
                (false, true) => {}
            },
            Part::Sign if !leading_s => out.push(if negative { '-' } else { '+' }),
            Part::Sign => {}
            Part::Minus => match (negative, fill) {
                (true, _) => out.push('-'),
                (false, false) => out.push(' '),
                (false, true) => {}
            },
            Part::Plus => match (negative, fill) {
                (false, _) => out.push('+'),
                (true, false) => out.push(' '),
                (true, true) => {}
            },
            Part::SignAlways => out.push(if negative { '-' } else { '+' }),
            Part::Brackets => match (negative, fill) {
                (true, _) => out.push('>'),
                (false, false) => out.push(' '),
                (false, true) => {}
            },
            Part::Currency => {
                if !fill {
                    out.push(' ');
                }
            }
            Part::Ordinal { upper } if !negative && !overflow => {
                let n: i64 = integer
                    .get(integer.len().saturating_sub(2)..)
                    .and_then(|tail| tail.parse().ok())
                    .unwrap_or(0);
                let suffix = ordinal(n);
                out.push_str(&if *upper {
                    suffix.to_uppercase()
                } else {
                    suffix.to_owned()
                });
            }
            Part::Text(text) => out.push_str(text),
            Part::Ordinal { .. } | Part::Shift | Part::Exponent | Part::Roman { .. } => {}
        }
    }
    if let Some(sign) = pending {
        out.push_str(sign);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::call::tests::{call, text};
    use super::*;

    fn shown(value: Arg, format: &str) -> String {
        text(call(to_char, &[value, Arg::Text(format), Arg::Int(0)]))
    }

    #[test]
    fn digits_signs_and_points_fall_as_postgres_puts_them() {
        for (value, format, expected) in [
            (Arg::Int(5), "999", "   5"),
            (Arg::Int(-5), "FM999", "-5"),
            (Arg::Int(5), "099", " 005"),
            (Arg::Int(-5), "999S", "  5-"),
            (Arg::Int(-5), "999PR", "  <5>"),
            (Arg::Real(0.5), "9.99", "  .50"),
            (Arg::Real(-0.5), "0.99", "-0.50"),
            (Arg::Int(5), "FM9.99", "5."),
            (Arg::Int(0), "FM9.99", "0."),
            (Arg::Real(1234.567), "9G999D99", " 1,234.57"),
            (Arg::Int(12), "9.99", " #.##"),
            (Arg::Int(12), "999th", "  12th"),
            (Arg::Int(5), "9V99", " 500"),
            (Arg::Int(1234), "RN", "       MCCXXXIV"),
            (Arg::Real(1234.567), "9.99EEEE", " 1.23e+03"),
            (Arg::Text("0.125"), "0.99", " 0.13"),
        ] {
            assert_eq!(shown(value, format), expected, "{format}");
        }
    }
}
