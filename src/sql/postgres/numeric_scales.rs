//! The digits a `numeric` is shown with. PostgreSQL's numeric keeps a display
//! scale with each value: a literal's digits after the point (`1.10` has 2),
//! a `numeric(p, s)` column's or cast's `s`, and for arithmetic the larger of
//! the operands' (`+`, `-`, `%`) or their sum (`*`); `round(x)` has 0,
//! `sum`, `min`, `max` and `abs` their argument's (`round(x, n)` is shown
//! with `n` digits by the engine, `n` being perhaps a parameter). SQLite holds such a value
//! as a float, which shows its shortest digits (`1.1`, `20`): where the
//! statement fixes the scale, the outermost select list shows the value with
//! it (`1.10`, `20.00`), and so does its text (`price::text`). A division
//! of operands whose scales are known answers PostgreSQL's digits from the
//! engine. Where the value decides (an unconstrained column), the value
//! shows as it is.

use sqlparser::ast::{Expr, Value};

use super::build::{call, number};
use super::translator::{Typed, common_scale};
use super::types::PgType;

/// The scale of a number as it is written (`1.10`, `'2.5e-3'`), if it is one.
pub(super) fn literal_scale(text: &str) -> Option<u32> {
    let text = text.trim();
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(at) => (&text[..at], text[at + 1..].parse::<i64>().ok()?),
        None => (text, 0),
    };
    let mantissa = mantissa.trim_start_matches(['+', '-']);
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.len() + fraction.len() == 0 || !digits(whole) || !digits(fraction) {
        return None;
    }
    let fraction = i64::try_from(fraction.len()).ok()?;
    u32::try_from((fraction - exponent).max(0)).ok()
}

/// The scale of `left symbol right`, both numeric operands (an integer's
/// scale is 0); `None` for a division, whose digits its values decide.
pub(super) fn arithmetic(symbol: &str, left: &Typed, right: &Typed) -> Option<u32> {
    let (left, right) = (left.numeric_scale()?, right.numeric_scale()?);
    match symbol {
        "+" | "-" | "%" => Some(left.max(right)),
        "*" => left.checked_add(right),
        _ => None,
    }
}

/// A numeric division, by the engine, which answers with the digits
/// PostgreSQL's division keeps (at least 16 significant ones: `7.0 / 2` is
/// `3.5000000000000000`) as text, read as a number where it is compared or
/// sorted; `None` for any other operation. An operand whose scale the
/// statement does not fix (an unconstrained column's) has its value's own,
/// which decides the quotient's digits only past 16 of them.
pub(super) fn division(symbol: &str, ty: &PgType, left: &Typed, right: &Typed) -> Option<Expr> {
    if symbol != "/" || *ty != PgType::Numeric {
        return None;
    }
    let scale = |operand: &Typed| operand.numeric_scale().unwrap_or(0);
    let (left_scale, right_scale) = (scale(left), scale(right));
    Some(call(
        "litewire_numeric_div",
        vec![
            left.expr.clone(),
            right.expr.clone(),
            number(left_scale.to_string()),
            number(right_scale.to_string()),
        ],
    ))
}

/// The scale values of one column share (`CASE`'s branches, `coalesce`'s
/// arguments, a `VALUES` column): a NULL shows no digits and fixes none.
pub(super) fn common(values: &[Typed]) -> Option<u32> {
    let is_null = |value: &&Typed| matches!(&value.expr, Expr::Value(v) if v.value == Value::Null);
    common_scale(
        values
            .iter()
            .filter(|v| !is_null(v))
            .map(Typed::numeric_scale),
    )
}

/// The scale of a function's numeric result, where its arguments fix it.
pub(super) fn function_result(name: &str, args: &[Typed]) -> Option<u32> {
    let first = || args.first().and_then(Typed::numeric_scale);
    match (name, args) {
        // With places (a parameter's, perhaps), the engine's value shows them.
        ("round" | "trunc" | "ceil" | "ceiling" | "floor", [_]) => first().map(|_| 0),
        ("abs" | "sum" | "min" | "max" | "nullif", _) => first(),
        ("coalesce" | "greatest" | "least", _) => common(args),
        _ => None,
    }
}

/// A numeric shown with `scale` digits after the point, as text (which the
/// wire sends as the numeric it spells).
pub(super) fn shown(value: Expr, scale: u32) -> Expr {
    call(
        "litewire_numeric_shown",
        vec![value, number(scale.to_string())],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_scales_as_postgres_reads_them() {
        for (text, scale) in [
            ("1.10", Some(2)),
            ("5", Some(0)),
            (".5", Some(1)),
            ("5.", Some(0)),
            ("1.5e-3", Some(4)),
            ("2.5E+1", Some(0)),
            (" -0.250 ", Some(3)),
            ("NaN", None),
            ("1.2.3", None),
            ("", None),
            ("e5", None),
        ] {
            assert_eq!(literal_scale(text), scale, "{text}");
        }
    }
}
