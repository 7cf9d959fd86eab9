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
/// `select_div_scale`: 16 significant digits at least, by base-10000 weights).
pub(super) fn division_scale(n: u128, d: u128) -> u32 {
    let weight_and_first = |mut v: u128| {
        let mut weight = 0i64;
        if v == 0 {
            return (0, 0);
        }
        while v >= 10_000 {
            v /= 10_000;
            weight += 1;
        }
        (weight, v)
    };
    let ((w1, f1), (w2, f2)) = (weight_and_first(n), weight_and_first(d));
    let mut weight = w1 - w2;
    if f1 <= f2 {
        weight -= 1;
    }
    (16 - weight * 4).clamp(0, 1000) as u32
}
