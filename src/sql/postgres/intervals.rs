//! `interval` in expressions: timestamps and dates moved by an interval,
//! the interval between two timestamps, intervals added, scaled, negated and
//! compared (by their span, a month as 30 days, not by their text), each
//! answered by the engine's interval functions, which do PostgreSQL's
//! calendar arithmetic (see `sql::interval`).

use crate::sql::interval_fields::IntervalFields;
use sqlparser::ast::Expr;

use super::build::{binary as node, call, number, string};
use super::casts::CastContext;
use super::errors::Result;
use super::translator::{Translator, Typed};
use super::types::PgType;

/// The engine's name for a timestamp type.
fn kind(ty: &PgType) -> &'static str {
    match ty {
        PgType::Timestamptz => "timestamptz",
        _ => "timestamp",
    }
}

impl Translator<'_> {
    /// `left symbol right` where an interval takes part, or a timestamp is
    /// subtracted from one; `None` when it is not such an operation.
    pub(super) fn interval_arithmetic(
        &mut self,
        left: &Typed,
        symbol: &str,
        right: &Typed,
    ) -> Result<Option<Typed>> {
        use PgType::{Date, Interval, Timestamp, Timestamptz};
        let moment = |t: &PgType| matches!(t, Date | Timestamp | Timestamptz);
        // `timestamp + 'text'`: the only `+` a timestamp has takes an interval.
        let stamp = |t: &PgType| matches!(t, Timestamp | Timestamptz);
        if symbol == "+" && stamp(&left.ty) && right.untyped.is_some() {
            let right = self.cast(right.clone(), &Interval, CastContext::Implicit)?;
            return self.interval_arithmetic(left, symbol, &right);
        }
        if symbol == "+" && stamp(&right.ty) && left.untyped.is_some() {
            let left = self.cast(left.clone(), &Interval, CastContext::Implicit)?;
            return self.interval_arithmetic(&left, symbol, right);
        }
        let sign = |s: &str| number(if s == "-" { "-1" } else { "1" });
        let typed = |expr: Expr, ty: PgType| Ok(Some(Typed::new(expr, ty)));
        match (&left.ty, symbol, &right.ty) {
            (l, "+" | "-", Interval) if moment(l) => {
                let ty = if *l == Date { Timestamp } else { l.clone() };
                let expr = call(
                    "litewire_timestamp_plus",
                    vec![
                        left.expr.clone(),
                        right.expr.clone(),
                        sign(symbol),
                        string(kind(&ty)),
                    ],
                );
                typed(expr, ty)
            }
            (Interval, "+", r) if moment(r) => {
                let ty = if *r == Date { Timestamp } else { r.clone() };
                let expr = call(
                    "litewire_timestamp_plus",
                    vec![
                        right.expr.clone(),
                        left.expr.clone(),
                        sign("+"),
                        string(kind(&ty)),
                    ],
                );
                typed(expr, ty)
            }
            (l, "-", r) if moment(l) && moment(r) && (stamp(l) || stamp(r)) => {
                // Both read as one type: a timestamptz if either is (a date or
                // timestamp is then a local time of the session's zone).
                let ty = match (l, r) {
                    (Timestamptz, _) | (_, Timestamptz) => Timestamptz,
                    _ => Timestamp,
                };
                let as_ty = |this: &mut Self, side: &Typed| -> Result<Expr> {
                    Ok(match this.coerce(side.clone(), &ty)? {
                        Some(coerced) => coerced.expr,
                        None => side.expr.clone(),
                    })
                };
                let (a, b) = (as_ty(self, left)?, as_ty(self, right)?);
                let expr = call("litewire_timestamp_minus", vec![a, b, string(kind(&ty))]);
                typed(expr, Interval)
            }
            // `date + time`: the day at that time.
            (Date, "+", PgType::Time) | (PgType::Time, "+", Date) => {
                let (date, time) = match left.ty {
                    Date => (left, right),
                    _ => (right, left),
                };
                let expr = call(
                    "litewire_timestamp_plus",
                    vec![
                        date.expr.clone(),
                        time.expr.clone(),
                        sign("+"),
                        string("timestamp"),
                    ],
                );
                typed(expr, Timestamp)
            }
            // A time of day moved by an interval, and the interval between two.
            (PgType::Time, "+" | "-", Interval) | (Interval, "+", PgType::Time) => {
                let (time, by) = match left.ty {
                    PgType::Time => (left, right),
                    _ => (right, left),
                };
                let expr = call(
                    "litewire_time_plus",
                    vec![time.expr.clone(), by.expr.clone(), sign(symbol)],
                );
                typed(expr, PgType::Time)
            }
            (PgType::Time, "-", PgType::Time) => typed(
                call(
                    "litewire_time_minus",
                    vec![left.expr.clone(), right.expr.clone()],
                ),
                Interval,
            ),
            (Interval, "+" | "-", Interval) => typed(
                call(
                    "litewire_interval_add",
                    vec![left.expr.clone(), right.expr.clone(), sign(symbol)],
                ),
                Interval,
            ),
            (Interval, "*" | "/", _) if right.ty.is_numeric() || right.untyped.is_some() => {
                let factor = self.cast(right.clone(), &PgType::Float8, CastContext::Implicit)?;
                let function = if symbol == "*" {
                    "litewire_interval_mul"
                } else {
                    "litewire_interval_div"
                };
                typed(
                    call(function, vec![left.expr.clone(), factor.expr]),
                    Interval,
                )
            }
            (_, "*", Interval) if left.ty.is_numeric() || left.untyped.is_some() => {
                let factor = self.cast(left.clone(), &PgType::Float8, CastContext::Implicit)?;
                typed(
                    call(
                        "litewire_interval_mul",
                        vec![right.expr.clone(), factor.expr],
                    ),
                    Interval,
                )
            }
            _ => Ok(None),
        }
    }

    /// `-interval`.
    pub(super) fn interval_negation(&self, operand: Typed) -> Typed {
        Typed::new(
            call("litewire_interval_neg", vec![operand.expr]),
            PgType::Interval,
        )
    }

    /// A comparison of two intervals, by their spans.
    pub(super) fn interval_comparison(
        &self,
        left: Typed,
        op: &sqlparser::ast::BinaryOperator,
        right: Typed,
    ) -> Typed {
        let order = call("litewire_interval_cmp", vec![left.expr, right.expr]);
        Typed::new(node(order, op.clone(), number("0")), PgType::Bool)
    }
}

impl Translator<'_> {
    /// `INTERVAL 'text' [field]`: a bare number counts the field's units.
    pub(super) fn interval_expression(
        &mut self,
        interval: &sqlparser::ast::Interval,
    ) -> Result<Typed> {
        let text = match interval.value.as_ref() {
            Expr::Value(value) => match &value.value {
                sqlparser::ast::Value::SingleQuotedString(text) => text.clone(),
                other => other.to_string(),
            },
            _ => return Err(super::errors::syntax("INTERVAL".to_owned())),
        };
        // Its fields and digits, as the type `interval <fields>(p)` has them.
        let lower = |field: &sqlparser::ast::DateTimeField| field.to_string().to_ascii_lowercase();
        let mut spelled = match (&interval.leading_field, &interval.last_field) {
            (Some(first), Some(last)) => format!("interval {} to {}", lower(first), lower(last)),
            (Some(first), None) => format!("interval {}", lower(first)),
            _ => "interval".to_owned(),
        };
        if let Some(digits) = interval.fractional_seconds_precision.or(interval
            .leading_precision
            .filter(|_| interval.last_field.is_none()))
        {
            spelled.push_str(&format!("({digits})"));
        }
        let text = match IntervalFields::parse(&spelled) {
            Some(fields) => fields
                .read(&text)
                .map_err(|error| super::errors::interval_input_error(&text, error))?
                .format(),
            None => text,
        };
        Ok(super::casts::literal(&text, &PgType::Interval)?.named("interval", 1))
    }
}
