//! Casts, as PostgreSQL makes them: explicit (`CAST(x AS t)`, `x::t`),
//! implicit (an operand or argument made the type its operator or function
//! takes) and in assignment (a value stored into a column of another type).
//!
//! SQLite keeps numbers as numbers and everything else as text, so most
//! widenings need nothing; a conversion that has rules of its own (text read
//! as a number with PostgreSQL's input rules, a float rounded to an integer, a
//! narrowing that must fit, a boolean printed as `true`) is the engine's
//! `litewire_cast(value, from, to)`. An untyped literal is read as its type
//! here, so `WHERE id = '7'` compares with the number 7 and `'abc'::int` fails
//! as PostgreSQL fails it (22P02).

use sqlparser::ast::{DataType, Expr};

use super::build::{boolean, call, null, number, string};
use super::errors::{
    Fail, Result, cannot_cast, datatype_mismatch, datetime_input_error, interval_input_error,
    invalid_input, invalid_parameter, out_of_range,
};
use super::numeric_scales;
use super::object_ids;
use super::translator::{Translator, Typed, Untyped};
use super::types::{Category, Modifier, PgType};
use crate::error::SqlState;
use crate::sql::datetime;
use crate::sql::datetime_input::{DateOrder, InputError, Target, in_range, stored};
use crate::sql::interval::Interval;

/// How a value becomes another type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum CastContext {
    /// `CAST`, `::`: any cast PostgreSQL has.
    Explicit,
    /// Storing into a column: numeric narrowing and string reading allowed.
    Assignment,
    /// An operand or argument: only widenings.
    Implicit,
}

impl Translator<'_> {
    /// `value` as type `target`, or PostgreSQL's error when `context` does not
    /// allow that cast.
    pub(super) fn cast(
        &mut self,
        value: Typed,
        target: &PgType,
        context: CastContext,
    ) -> Result<Typed> {
        let name = value.name.clone();
        // A numeric keeps its display scale, an integer's is 0; one shown as
        // text shows it.
        let scale = match (&value.untyped, target) {
            (Some(Untyped::Literal(text)), PgType::Numeric) => numeric_scales::literal_scale(text),
            (_, PgType::Numeric) => value.numeric_scale(),
            _ => None,
        };
        let shown = match (&value.ty, value.scale) {
            (PgType::Numeric, Some(scale)) if target.is_string() => {
                Some(numeric_scales::shown(value.expr.clone(), scale))
            }
            _ => None,
        };
        let mut cast = match &value.untyped {
            Some(Untyped::Null) => Typed::new(null(), target.clone()),
            Some(Untyped::Param(n)) => {
                let declared = self.param_type(*n, Some(target));
                let from = declared.unwrap_or_else(|| target.clone());
                convert(Typed::new(value.expr.clone(), from), target, context)?
            }
            Some(Untyped::Literal(text)) => literal(text, target)?,
            None => convert(value, target, context)?,
        };
        if let Some(shown) = shown {
            cast.expr = shown;
        }
        Ok(Typed { name, ..cast }.scaled(scale))
    }

    /// `value` as an operand or argument of type `target`, where PostgreSQL
    /// would cast it implicitly; `None` where it would not.
    pub(super) fn coerce(&mut self, value: Typed, target: &PgType) -> Result<Option<Typed>> {
        if value.untyped.is_some() || value.ty.casts_implicitly_to(target) {
            return self.cast(value, target, CastContext::Implicit).map(Some);
        }
        Ok(None)
    }

    /// `CAST(value AS data_type)`, `value::data_type`: converted here when the
    /// translation knows the type, else left to the statement-level
    /// translation (catalog types, arrays, ...) with the type it names.
    pub(super) fn explicit_cast(&mut self, value: Typed, data_type: &DataType) -> Result<Typed> {
        let named = cast_type(data_type);
        if named.is_none()
            && !matches!(value.untyped, Some(Untyped::Param(_)))
            && let Some(domain) = self.domain_named(data_type)
        {
            return self.domain_cast(value, &domain);
        }
        // A parameter keeps its cast, which tells its type to a client that
        // asks (`$1::int8`); what litewire cannot type keeps SQLite's cast.
        let kept = matches!(value.untyped, Some(Untyped::Param(_)))
            || (value.ty.is_opaque() && !matches!(named, Some(PgType::Reg(_))));
        if let (Some(Untyped::Param(n)), Some(ty)) = (&value.untyped, &named) {
            self.param_type(*n, Some(ty));
        }
        let literal = matches!(value.untyped, Some(Untyped::Literal(_)));
        // A JSON literal must read as JSON (the cast itself is left as it is).
        if let (Some(Untyped::Literal(text)), Some(ty @ (PgType::Json | PgType::Jsonb))) =
            (&value.untyped, &named)
            && serde_json::from_str::<serde::de::IgnoredAny>(text).is_err()
        {
            return Err(invalid_input(ty, text));
        }
        let target = match &named {
            Some(ty) if converts(ty) && !kept => ty.clone(),
            // A boolean array's elements become `true` and `false`.
            Some(ty @ PgType::Array(element))
                if element.is_string() && value.ty == PgType::Array(Box::new(PgType::Bool)) =>
            {
                ty.clone()
            }
            // A literal of a type read here (dates, bytea) is read now.
            Some(ty) if literal && reads_literal(ty) => ty.clone(),
            _ => {
                let expr = Expr::Cast {
                    kind: sqlparser::ast::CastKind::DoubleColon,
                    expr: Box::new(value.expr),
                    data_type: data_type.clone(),
                    format: None,
                };
                return Ok(Typed {
                    expr,
                    ty: named.unwrap_or(PgType::Opaque),
                    untyped: None,
                    name: value.name,
                    column: None,
                    scale: None,
                });
            }
        };
        let modifier = checked_modifier(&target, &data_type.to_string())?;
        // An interval literal is read in the type's fields (`'5'::interval hour`).
        if let (Some(Untyped::Literal(text)), Some(Modifier::Interval(fields))) =
            (&value.untyped, &modifier)
        {
            let read = fields
                .read(text)
                .map_err(|error| super::errors::interval_input_error(text, error))?;
            return self::literal(&read.format(), &PgType::Interval);
        }
        let mut cast = self.cast(value, &target, CastContext::Explicit)?;
        if let Some(modifier) = modifier {
            // `varchar(n)` cuts what is cast to it, `numeric(p, s)` rounds.
            cast.expr = fit(cast.expr, &target, modifier, CastContext::Explicit);
            cast.scale = modifier.numeric_scale().or(cast.scale);
        }
        cast.column = None;
        Ok(cast)
    }
}

/// The modifier a cast or a new column declares, refused as PostgreSQL
/// refuses one out of range (22023); `None` for a type without one.
pub(super) fn checked_modifier(ty: &PgType, declared: &str) -> Result<Option<Modifier>> {
    let Some((_, args)) = declared.split_once('(') else {
        // An interval's fields come without parentheses (`interval hour`).
        return Ok(Modifier::of(ty, declared));
    };
    let numbers: Vec<i64> = args
        .split(')')
        .next()
        .unwrap_or("")
        .split(',')
        .filter_map(|a| a.trim().parse().ok())
        .collect();
    let refused = |message: String| Err(invalid_parameter(message));
    match (ty, numbers.as_slice()) {
        (PgType::Varchar | PgType::Bpchar, [length]) if *length < 1 => {
            let name = if *ty == PgType::Varchar {
                "varchar"
            } else {
                "bpchar"
            };
            refused(format!("length for type {name} must be at least 1"))
        }
        (PgType::Varchar | PgType::Bpchar, [length]) if *length > 10_485_760 => {
            let name = if *ty == PgType::Varchar {
                "varchar"
            } else {
                "bpchar"
            };
            refused(format!("length for type {name} cannot exceed 10485760"))
        }
        (PgType::Numeric, [precision, ..]) if !(1..=1000).contains(precision) => refused(format!(
            "NUMERIC precision {precision} must be between 1 and 1000"
        )),
        (PgType::Numeric, [_, scale]) if !(-1000..=1000).contains(scale) => refused(format!(
            "NUMERIC scale {scale} must be between -1000 and 1000"
        )),
        _ => Ok(Modifier::of(ty, declared)),
    }
}

/// The type a cast names, as the translation knows it.
pub(super) fn cast_type(data_type: &DataType) -> Option<PgType> {
    let text = data_type.to_string();
    PgType::from_name(&text)
}

/// Whether the translation converts values to `ty` itself.
fn converts(ty: &PgType) -> bool {
    matches!(
        ty,
        PgType::Bool
            | PgType::Int2
            | PgType::Int4
            | PgType::Int8
            | PgType::Numeric
            | PgType::Float4
            | PgType::Float8
            | PgType::Text
            | PgType::Varchar
            | PgType::Bpchar
            | PgType::Name
            | PgType::Oid
            | PgType::Reg(_)
            | PgType::Interval
            | PgType::Jsonb
            | PgType::Jsonpath
            | PgType::Inet
            | PgType::Cidr
            | PgType::Bytea
            | PgType::Date
            | PgType::Time
            | PgType::Timestamp
            | PgType::Timestamptz
    )
}

/// Text read as an address of `ty` (`inet` or `cidr`) by the engine.
fn inet_in(text: Expr, ty: &PgType) -> Expr {
    let cidr = number(if *ty == PgType::Cidr { "1" } else { "0" });
    call("litewire_inet_in", vec![text, cidr])
}

/// Whether a literal of `ty` is read when the statement is (see `literal`).
fn reads_literal(ty: &PgType) -> bool {
    matches!(
        ty,
        PgType::Date
            | PgType::Time
            | PgType::Timestamp
            | PgType::Timestamptz
            | PgType::Interval
            | PgType::Jsonb
            | PgType::Jsonpath
            | PgType::Inet
            | PgType::Cidr
            | PgType::Bytea
    )
}

/// A value fitted to a type's modifier by the engine's `litewire_fit`:
/// `varchar(n)` and `char(n)` cut at `n` characters by an explicit cast, and
/// refuse a longer value otherwise (22001) unless what is cut is spaces;
/// `numeric(p, s)` rounds to `s` decimals and refuses what needs more than
/// `p` digits (22003); `timestamp(p)`, `time(p)` round to `p` fractional
/// digits of seconds; an interval type with fields or digits cuts and rounds
/// its values to them (given its `atttypmod`).
pub(super) fn fit(value: Expr, ty: &PgType, modifier: Modifier, context: CastContext) -> Expr {
    let explicit = number(if matches!(context, CastContext::Explicit) {
        "1"
    } else {
        "0"
    });
    let (kind, first, second) = match modifier {
        Modifier::Length(length) if *ty == PgType::Bpchar => ("bpchar", i64::from(length), 0),
        Modifier::Length(length) => ("varchar", i64::from(length), 0),
        Modifier::Numeric { precision, scale } => ("numeric", i64::from(precision), scale),
        Modifier::Precision(digits) => match ty {
            PgType::Timestamptz => ("timestamptz", i64::from(digits), 0),
            PgType::Time => ("time", i64::from(digits), 0),
            _ => ("timestamp", i64::from(digits), 0),
        },
        Modifier::Interval(fields) => ("interval", fields.typmod(), 0),
    };
    call(
        "litewire_fit",
        vec![
            value,
            string(kind),
            number(first.to_string()),
            number(second.to_string()),
            explicit,
        ],
    )
}

/// A typed value converted to `target`.
fn convert(value: Typed, target: &PgType, context: CastContext) -> Result<Typed> {
    let from = value.ty.clone();
    if from == *target || from == PgType::Unknown || from.is_opaque() || target.is_opaque() {
        let expr = match (&from, target) {
            (f, PgType::Reg(kind)) if f.is_opaque() => object_ids::from_untyped(value.expr, *kind),
            (f, PgType::Jsonpath) if f.is_opaque() => {
                call("litewire_jsonpath_in", vec![value.expr])
            }
            (f, t @ (PgType::Inet | PgType::Cidr)) if f.is_opaque() => inet_in(value.expr, t),
            // Whatever an untyped column holds is read as the type.
            (f, t) if f.is_opaque() && converts(t) && *t != PgType::Text => {
                runtime_cast(value.expr, &PgType::Opaque, t)
            }
            _ => value.expr,
        };
        return Ok(Typed::new(expr, target.clone()));
    }
    // A boolean array's text shows `t` and `f` where it holds 1 and 0.
    if from == PgType::bool_array() && target.is_string() {
        let shown = super::build::call("litewire_bool_array_text", vec![value.expr]);
        return Ok(Typed::new(shown, target.clone()));
    }
    // A row's text is what `litewire_record` writes.
    if let (PgType::Record(_), to) = (&from, target)
        && to.is_string()
    {
        return Ok(Typed::new(value.expr, to.clone()));
    }
    // A path is read (and printed as PostgreSQL prints it) from text.
    match (&from, target) {
        (text, PgType::Jsonpath) if text.is_string() && context == CastContext::Explicit => {
            let read = call("litewire_jsonpath_in", vec![value.expr]);
            return Ok(Typed::new(read, PgType::Jsonpath));
        }
        (PgType::Jsonpath, to) if to.is_string() => return Ok(Typed::new(value.expr, to.clone())),
        // An address from text, as its type reads it; as text, with its mask.
        (text, to @ (PgType::Inet | PgType::Cidr))
            if text.is_string() && context == CastContext::Explicit =>
        {
            return Ok(Typed::new(inet_in(value.expr, to), to.clone()));
        }
        (PgType::Inet | PgType::Cidr, to) if to.is_string() => {
            let shown = call("litewire_inet_text", vec![value.expr]);
            return Ok(Typed::new(shown, to.clone()));
        }
        // An `inet` as a `cidr`: its network.
        (PgType::Inet, PgType::Cidr) => {
            let network = call("network", vec![value.expr]);
            return Ok(Typed::new(network, PgType::Cidr));
        }
        (PgType::Cidr, PgType::Inet) => return Ok(Typed::new(value.expr, PgType::Inet)),
        _ => {}
    }
    // A `reg*` is read from a name and shown as one.
    match (&from, target) {
        (PgType::Reg(kind), to) if to.is_string() && allowed(&from, target, context) => {
            return Ok(Typed::new(object_ids::shown(value.expr, *kind), to.clone()));
        }
        (text, PgType::Reg(kind)) if text.is_string() && context == CastContext::Explicit => {
            return Ok(Typed::new(
                object_ids::looked_up(value.expr, *kind),
                target.clone(),
            ));
        }
        _ => {}
    }
    if !allowed(&from, target, context) {
        return Err(match context {
            CastContext::Explicit => cannot_cast(&from, target),
            _ => datatype_mismatch(format!(
                "expression is of type {} but {} is expected",
                from.display(),
                target.display()
            )),
        });
    }
    let expr = match plain(&from, target) {
        true => value.expr,
        false => runtime_cast(value.expr, &from, target),
    };
    Ok(Typed::new(expr, target.clone()))
}

/// Whether PostgreSQL has a cast from `from` to `to` in `context`.
fn allowed(from: &PgType, to: &PgType, context: CastContext) -> bool {
    if from.casts_implicitly_to(to) {
        return true;
    }
    let (a, b) = (from.category(), to.category());
    match context {
        CastContext::Implicit => false,
        CastContext::Assignment => {
            (a == Category::Numeric && b == Category::Numeric)
                || b == Category::String
                || (a == Category::DateTime && b == Category::DateTime)
                || matches!((from, to), (PgType::Jsonb, PgType::Json))
        }
        CastContext::Explicit => match (from, to) {
            _ if b == Category::String || a == Category::String => true,
            _ if a == Category::Numeric && b == Category::Numeric => true,
            (PgType::Bool, PgType::Int4) | (PgType::Int4, PgType::Bool) => true,
            _ if a == Category::DateTime && b == Category::DateTime => !matches!(
                (from, to),
                (
                    PgType::Time,
                    PgType::Date | PgType::Timestamp | PgType::Timestamptz
                ) | (PgType::Date, PgType::Time)
            ),
            (PgType::Json, PgType::Jsonb) | (PgType::Jsonb, PgType::Json) => true,
            (PgType::Jsonb, t) if t.is_numeric() || *t == PgType::Bool => true,
            (PgType::Array(x), PgType::Array(y)) => allowed(x, y, context),
            (PgType::Int4 | PgType::Int8, PgType::Oid) => true,
            (PgType::Reg(_), PgType::Reg(_) | PgType::Int4 | PgType::Int8 | PgType::Oid) => true,
            _ => false,
        },
    }
}

/// Whether SQLite's value already is the target's: a numeric widening, a
/// string to a string, a boolean to an integer.
fn plain(from: &PgType, to: &PgType) -> bool {
    match (from, to) {
        (PgType::Int2 | PgType::Int4 | PgType::Int8, PgType::Numeric) => true,
        (a, b) if a.is_integer() && b.is_integer() => a.casts_implicitly_to(b),
        (PgType::Float4, PgType::Float8) => true,
        // A text is read as bytea's input (`\x0102`), not taken as bytes.
        (_, PgType::Bytea) => false,
        (a, b) if a.is_string() && b.is_string() => {
            // A bpchar's trailing spaces go when it becomes text.
            *a != PgType::Bpchar
        }
        (PgType::Bool, PgType::Int4) => true,
        // An oid is the same number whichever `reg*` it is read as.
        (PgType::Reg(_), b) if b.is_integer() || *b == PgType::Oid => true,
        (a, PgType::Reg(_)) if a.is_integer() || *a == PgType::Oid => true,
        (PgType::Date, PgType::Timestamp | PgType::Timestamptz) => false,
        _ => false,
    }
}

/// The engine's conversion of `expr` from `from` to `to`.
pub(super) fn runtime_cast(expr: Expr, from: &PgType, to: &PgType) -> Expr {
    call(
        "litewire_cast",
        vec![expr, string(&type_key(from)), string(&type_key(to))],
    )
}

/// The name the engine's `litewire_cast` knows a type by.
fn type_key(ty: &PgType) -> String {
    match ty {
        PgType::Array(element) => format!("{}[]", type_key(element)),
        PgType::Other(_) | PgType::Opaque => "unknown".to_owned(),
        PgType::Unknown => "text".to_owned(),
        other => other.name().unwrap_or("text").to_owned(),
    }
}

/// A string literal read as `target`, now: a number, a boolean or text is
/// written as SQLite's literal; any other type is converted by the engine.
pub(super) fn literal(text: &str, target: &PgType) -> Result<Typed> {
    let expr = match target {
        PgType::Unknown | PgType::Text | PgType::Varchar | PgType::Name => string(text),
        PgType::Bpchar => string(text.trim_end_matches(' ')),
        PgType::Int2 | PgType::Int4 | PgType::Int8 => number(integer(text, target)?.to_string()),
        PgType::Oid => {
            let n = integer(text, &PgType::Int8)?;
            if !(0..=i64::from(u32::MAX)).contains(&n) {
                return Err(out_of_range(target, text));
            }
            number(n.to_string())
        }
        PgType::Reg(kind) => object_ids::literal(text, *kind)?,
        PgType::Bool => match crate::sql::quote::parse_bool(text) {
            Some(value) => boolean(value),
            None => return Err(invalid_input(target, text)),
        },
        PgType::Numeric | PgType::Float4 | PgType::Float8 => number_literal(text, target)?,
        PgType::Bytea => {
            let bytes = bytea_input(text)?;
            let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            Expr::value(sqlparser::ast::Value::HexStringLiteral(hex))
        }
        PgType::Date | PgType::Time | PgType::Timestamp | PgType::Timestamptz => {
            date_time_literal(text, target)?
        }
        PgType::Jsonb => match crate::sql::jsonb::normalize(text) {
            Ok(normalized) => string(&normalized),
            Err(_) => return Err(invalid_input(&PgType::Json, text)),
        },
        PgType::Jsonpath => match crate::sql::json_path::parse(text) {
            Ok(path) => string(&path.to_string()),
            Err(message) => return Err(super::errors::syntax_error_message(message)),
        },
        PgType::Inet | PgType::Cidr => {
            let cidr = *target == PgType::Cidr;
            match crate::sql::inet::Inet::parse(text, cidr) {
                Ok(address) => string(&address.format(cidr)),
                Err(error) => return Err(super::errors::inet_input_error(text, cidr, error)),
            }
        }
        PgType::Interval => match Interval::parse(text) {
            Ok(interval) => string(&interval.format()),
            Err(error) => return Err(interval_input_error(text, error)),
        },
        // uuids, JSON, ...: stored as the text they are written as.
        _ => string(text),
    };
    Ok(Typed::new(expr, target.clone()))
}

/// The statement's moment as a stored timestamptz (what `now()` gives).
pub(super) fn now_utc() -> Expr {
    call(
        "strftime",
        vec![string("%Y-%m-%d %H:%M:%f+00"), string("now")],
    )
}

/// A date or time literal in the form it is stored in (ISO text, a
/// timestamptz in UTC), or, for `now`, `today` and friends, the expression
/// that gives it when the statement runs.
fn date_time_literal(text: &str, target: &PgType) -> Result<Expr> {
    let word = text.trim().to_ascii_lowercase();
    let with_tz = *target == PgType::Timestamptz;
    // The statement's moment, and a day on the session's clock from it.
    let now = now_utc;
    let today = |days: &str| -> Expr {
        let date = runtime_cast(now(), &PgType::Timestamptz, &PgType::Date);
        let date = match days {
            "+0" => date,
            _ => call("date", vec![date, string(&format!("{days} days"))]),
        };
        match target {
            PgType::Date => date,
            _ => runtime_cast(date, &PgType::Date, target),
        }
    };
    let parsed = match (word.as_str(), target) {
        ("today", PgType::Date | PgType::Timestamp | PgType::Timestamptz) => {
            return Ok(today("+0"));
        }
        ("tomorrow", PgType::Date | PgType::Timestamp | PgType::Timestamptz) => {
            return Ok(today("+1"));
        }
        ("yesterday", PgType::Date | PgType::Timestamp | PgType::Timestamptz) => {
            return Ok(today("-1"));
        }
        ("now", PgType::Timestamptz) => return Ok(now()),
        ("now", _) => return Ok(runtime_cast(now(), &PgType::Timestamptz, target)),
        ("epoch", PgType::Date) => Some(datetime::format_date(
            datetime::parse_date("1970-01-01").unwrap_or(0),
        )),
        ("epoch", PgType::Timestamp | PgType::Timestamptz) => {
            datetime::parse_timestamp("1970-01-01", with_tz)
                .map(|usecs| datetime::format_timestamp(usecs, with_tz))
        }
        ("allballs", PgType::Time) => Some("00:00:00".to_owned()),
        (_, PgType::Date) => match datetime::parse_date(text) {
            Some(days @ (datetime::DATE_INFINITY | datetime::DATE_MINUS_INFINITY)) => {
                Some(datetime::format_date(days))
            }
            Some(days) if !in_range(days, false) => {
                return Err(datetime_input_error(target, text, InputError::OutOfRange));
            }
            days => days.map(datetime::format_date),
        },
        (_, PgType::Time) => datetime::parse_time(text).map(datetime::format_time),
        // A timestamptz without an offset is the session's local time: read
        // below.
        _ if with_tz => datetime::parse_timestamp(text, true)
            .filter(|usecs| {
                matches!(
                    *usecs,
                    datetime::TIMESTAMP_INFINITY | datetime::TIMESTAMP_MINUS_INFINITY
                )
            })
            .map(|usecs| datetime::format_timestamp(usecs, true)),
        _ => datetime::parse_timestamp(text, false)
            .map(|usecs| datetime::format_timestamp(usecs, false)),
    };
    if let Some(stored) = parsed {
        return Ok(string(&stored));
    }
    // PostgreSQL's other input forms: read now when every `DateStyle` field
    // order reads the text alike, else when the statement runs, in the
    // session's order; a timestamptz without an offset then too, in the
    // session's zone.
    let input_target = match target {
        PgType::Date => Target::Date,
        PgType::Time => Target::Time,
        PgType::Timestamp => Target::Timestamp,
        _ => Target::Timestamptz,
    };
    let [mdy, dmy, ymd] = [DateOrder::Mdy, DateOrder::Dmy, DateOrder::Ymd]
        .map(|order| stored(text, input_target, order, None));
    let session_zone = [&mdy, &dmy, &ymd].contains(&&Err(InputError::SessionZone));
    if mdy != dmy || mdy != ymd || session_zone {
        let type_name = target.name().unwrap_or("timestamptz");
        return Ok(call(
            "litewire_datetime_in",
            vec![string(text), string(type_name)],
        ));
    }
    match mdy {
        Ok(stored) => Ok(string(&stored)),
        Err(error) => Err(datetime_input_error(target, text, error)),
    }
}

/// [`bytea_input`] for the engine's `litewire_cast` of a text made at run
/// time: the bytes, or PostgreSQL's SQLSTATE and message.
pub fn bytea_from_text(text: &str) -> std::result::Result<Vec<u8>, (SqlState, String)> {
    bytea_input(text).map_err(|fail| match fail {
        Fail::Pg(error) => match error.kind {
            crate::error::ErrorKind::SqlState(state) => (state, error.message),
            _ => (SqlState::INVALID_TEXT_REPRESENTATION, error.message),
        },
        Fail::Unsupported(what) => (SqlState::INVALID_TEXT_REPRESENTATION, what.to_owned()),
    })
}

/// PostgreSQL's bytea input: `\\x` and pairs of hex digits, or the escape
/// format (`\\\\` a backslash, `\\nnn` an octal byte, anything else as it is),
/// with PostgreSQL's errors.
fn bytea_input(text: &str) -> Result<Vec<u8>> {
    if let Some(hex) = text.strip_prefix("\\x") {
        let digits: Vec<char> = hex.chars().filter(|c| !c.is_ascii_whitespace()).collect();
        if let Some(bad) = digits.iter().find(|c| !c.is_ascii_hexdigit()) {
            return Err(invalid_parameter(format!(
                "invalid hexadecimal digit: \"{bad}\""
            )));
        }
        if !digits.len().is_multiple_of(2) {
            return Err(invalid_parameter(
                "invalid hexadecimal data: odd number of digits".into(),
            ));
        }
        return Ok(digits
            .chunks(2)
            .map(|pair| {
                let high = pair[0].to_digit(16).unwrap_or(0);
                let low = pair[1].to_digit(16).unwrap_or(0);
                (high * 16 + low) as u8
            })
            .collect());
    }
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        if first != b'\\' {
            bytes.push(first);
            rest = tail;
            continue;
        }
        match tail {
            [b'\\', more @ ..] => {
                bytes.push(b'\\');
                rest = more;
            }
            [a @ b'0'..=b'3', b @ b'0'..=b'7', c @ b'0'..=b'7', more @ ..] => {
                bytes.push((a - b'0') * 64 + (b - b'0') * 8 + (c - b'0'));
                rest = more;
            }
            // PostgreSQL names no value here.
            _ => {
                return Err(Fail::Pg(crate::error::Error::state(
                    SqlState::INVALID_TEXT_REPRESENTATION,
                    "invalid input syntax for type bytea",
                )));
            }
        }
    }
    Ok(bytes)
}

/// PostgreSQL's integer input: optional white space, a sign, digits, white
/// space; in range for `ty`.
pub(super) fn integer(text: &str, ty: &PgType) -> Result<i64> {
    let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let (negative, digits) = match trimmed.as_bytes().first() {
        Some(b'-') => (true, &trimmed[1..]),
        Some(b'+') => (false, &trimmed[1..]),
        _ => (false, trimmed),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid_input(ty, text));
    }
    let magnitude: i128 = digits.parse().map_err(|_| out_of_range(ty, text))?;
    let value = if negative { -magnitude } else { magnitude };
    let (min, max) = match ty {
        PgType::Int2 => (i16::MIN as i128, i16::MAX as i128),
        PgType::Int4 => (i32::MIN as i128, i32::MAX as i128),
        _ => (i64::MIN as i128, i64::MAX as i128),
    };
    if value < min || value > max {
        return Err(out_of_range(ty, text));
    }
    Ok(value as i64)
}

/// PostgreSQL's numeric and float input, written as a SQLite number (or, for
/// the special values, the engine's reading of them).
/// Whether SQLite reads the decimal number `text` as the nearest double:
/// it does when both the significant digits and the power of ten are exact
/// doubles (at most 15 digits, a scale within 10^±22), so that one
/// correctly rounded multiplication or division gives the answer. Past
/// that its reading can be an ulp off (`1.2345678901234e-200`).
pub(super) fn read_exactly_by_sqlite(text: &str) -> bool {
    let body = text.trim_start_matches(['+', '-']).to_ascii_lowercase();
    let (mantissa, exponent) = match body.split_once('e') {
        Some((m, e)) => (m, e.parse::<i64>().unwrap_or(i64::MAX)),
        None => (body.as_str(), 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = format!("{whole}{fraction}");
    let significant = digits.trim_start_matches('0');
    let trailing_zeros = significant.len() - significant.trim_end_matches('0').len();
    let count = significant.len() - trailing_zeros;
    let scale = exponent
        .saturating_sub(fraction.len() as i64)
        .saturating_add(trailing_zeros as i64);
    count == 0 || (count <= 15 && (-22..=22).contains(&scale))
}

fn number_literal(text: &str, ty: &PgType) -> Result<Expr> {
    let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace());
    let lower = trimmed.to_ascii_lowercase();
    let special = matches!(
        lower.trim_start_matches(['+', '-']),
        "nan" | "infinity" | "inf"
    );
    if special {
        return Ok(runtime_cast(string(trimmed), &PgType::Unknown, ty));
    }
    let body = lower.trim_start_matches(['+', '-']);
    let (mantissa, exponent) = match body.split_once('e') {
        Some((m, e)) => (m, Some(e)),
        None => (body, None),
    };
    let digits = mantissa.replace('.', "");
    let valid = !digits.is_empty()
        && mantissa.matches('.').count() <= 1
        && digits.bytes().all(|b| b.is_ascii_digit())
        && exponent.is_none_or(|e| {
            let e = e.strip_prefix(['+', '-']).unwrap_or(e);
            !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
        });
    if !valid || trimmed.starts_with("--") {
        return Err(invalid_input(ty, text));
    }
    // Beyond the float's range: too large, or too small to be told from zero.
    let value: f64 = trimmed.parse().unwrap_or(0.0);
    let value = match ty {
        PgType::Float4 => f64::from(value as f32),
        _ => value,
    };
    let nonzero = digits.bytes().any(|b| b != b'0');
    if *ty != PgType::Numeric && (value.is_infinite() || (value == 0.0 && nonzero)) {
        return Err(out_of_range(ty, text));
    }
    // SQLite's own reading of long or far-scaled numbers can miss the
    // nearest double by an ulp; the engine reads those as PostgreSQL does.
    if *ty != PgType::Numeric && !read_exactly_by_sqlite(trimmed) {
        return Ok(runtime_cast(string(trimmed), &PgType::Unknown, ty));
    }
    // A number SQLite reads back as written (`.5` as 0.5, `1.` as 1.0).
    let mut sql = trimmed.to_owned();
    if sql.starts_with('.') || sql.starts_with("-.") || sql.starts_with("+.") {
        sql = sql.replacen('.', "0.", 1);
    }
    if sql.contains(".e") || sql.contains(".E") || sql.ends_with('.') {
        sql = sql.replacen('.', ".0", 1);
    }
    // A float is a float to SQLite too (`'7'::float8` is not the integer 7).
    if *ty != PgType::Numeric && !sql.contains(['.', 'e', 'E']) {
        sql.push_str(".0");
    }
    Ok(number(sql))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_read_as_postgres_reads_them() {
        assert_eq!(integer(" 42 ", &PgType::Int4).ok(), Some(42));
        assert_eq!(integer("-1000", &PgType::Int4).ok(), Some(-1000));
        assert!(integer("1_000", &PgType::Int4).is_err());
        assert!(integer("1e3", &PgType::Int4).is_err());
        assert!(integer("1.5", &PgType::Int4).is_err());
        assert!(integer("2147483648", &PgType::Int4).is_err());
        assert_eq!(integer("2147483648", &PgType::Int8).ok(), Some(2147483648));
        assert!(integer("", &PgType::Int8).is_err());
    }

    #[test]
    fn bytea_reads_both_formats() {
        assert_eq!(bytea_input("\\x00ff").ok(), Some(vec![0, 255]));
        assert_eq!(bytea_input("\\x").ok(), Some(vec![]));
        assert!(bytea_input("\\x0").is_err());
        assert!(bytea_input("\\x0g").is_err());
        assert_eq!(
            bytea_input("a\\\\b\\001").ok(),
            Some(vec![b'a', b'\\', b'b', 1])
        );
        assert!(bytea_input("\\q").is_err());
    }

    #[test]
    fn numbers_read_as_postgres_reads_them() {
        let read = |text: &str, ty: &PgType| number_literal(text, ty).ok().map(|e| e.to_string());
        assert_eq!(read(" 1.5 ", &PgType::Numeric).as_deref(), Some("1.5"));
        assert_eq!(read(".5", &PgType::Float8).as_deref(), Some("0.5"));
        assert_eq!(read("1e3", &PgType::Float8).as_deref(), Some("1e3"));
        assert!(read("abc", &PgType::Numeric).is_none());
        assert!(read("1.2.3", &PgType::Numeric).is_none());
        assert!(
            read("NaN", &PgType::Float8)
                .unwrap()
                .starts_with("litewire_cast")
        );
    }
}
