//! PostgreSQL's numeric division of integers, for the functions that answer
//! with it (`avg` of integers, `EXTRACT(julian ...)`): the scale it picks
//! (`select_div_scale`: at least 16 significant digits) and the digits,
//! rounded half away from zero.

use std::fmt::Write as _;

/// `n / d` to `scale` digits, rounded half away from zero, by long division.
pub(super) fn quotient(n: i128, d: i128, scale: u32) -> String {
    let negative = (n < 0) != (d < 0) && n != 0;
    let (n, d) = (n.unsigned_abs(), d.unsigned_abs());
    let mut digits = Vec::with_capacity(scale as usize + 1);
    let mut remainder = n % d;
    for _ in 0..=scale {
        remainder *= 10;
        digits.push((remainder / d) as u8);
        remainder %= d;
    }
    let mut whole = n / d;
    // The extra digit rounds.
    if digits.pop().is_some_and(|last| last >= 5) {
        let mut i = digits.len();
        loop {
            if i == 0 {
                whole += 1;
                break;
            }
            i -= 1;
            if digits[i] == 9 {
                digits[i] = 0;
            } else {
                digits[i] += 1;
                break;
            }
        }
    }
    let mut text = String::new();
    if negative {
        text.push('-');
    }
    let _ = write!(text, "{whole}");
    if scale > 0 {
        text.push('.');
        text.extend(digits.iter().map(|d| char::from(b'0' + d)));
    }
    text
}

/// The digits PostgreSQL's numeric division keeps for `n / d` (its
/// `select_div_scale`: 16 significant digits at least, by base-10000 weights,
/// and never fewer than either operand shows), each operand its digits and
/// the count of them right of the point.
pub(super) fn division_scale(n: u128, n_scale: u32, d: u128, d_scale: u32) -> u32 {
    // The weight of the leading base-10000 digit (groups of four decimal
    // digits either side of the point) and that digit.
    let weight_and_first = |v: u128, scale: u32| {
        if v == 0 {
            return (0, 0);
        }
        let digits = v.ilog10() as i64 + 1;
        let exponent = digits - 1 - i64::from(scale);
        let weight = exponent.div_euclid(4);
        let leading = (exponent - 4 * weight + 1) as u32;
        (
            weight,
            v / 10u128.pow((digits as u32).saturating_sub(leading)),
        )
    };
    let ((w1, f1), (w2, f2)) = (weight_and_first(n, n_scale), weight_and_first(d, d_scale));
    let mut weight = w1 - w2;
    if f1 <= f2 {
        weight -= 1;
    }
    (16 - weight * 4)
        .max(i64::from(n_scale.max(d_scale)))
        .clamp(0, 1000) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_scale_is_postgres_select_div_scale() {
        // 1 / 3, 14 / 9, 7.25 / 3, 4.625 / 6, 123456 / 7, 1 / 30000.
        assert_eq!(division_scale(1, 0, 3, 0), 20);
        assert_eq!(division_scale(14, 0, 9, 0), 16);
        assert_eq!(division_scale(725, 2, 3, 0), 16);
        assert_eq!(division_scale(4625, 3, 6, 0), 20);
        assert_eq!(division_scale(123_456, 0, 7, 0), 12);
        assert_eq!(division_scale(1, 0, 30_000, 0), 24);
        // Never fewer digits than an operand shows.
        assert_eq!(division_scale(123_456_789, 0, 1, 30), 30);
        assert_eq!(quotient(725, 300, 16), "2.4166666666666667");
    }
}
