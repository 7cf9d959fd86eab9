//! Date and time functions: `EXTRACT(field FROM value)`, `date_part` and
//! `date_trunc`, typed as PostgreSQL types them (`numeric`, `float8`, the
//! value's timestamp type) and answered by the engine's functions, which are
//! told the value's type, since the stored text does not say it.

use sqlparser::ast::{DateTimeField, Expr};

use super::build::{boolean, call, string};
use super::casts::CastContext;
use super::errors::{Result, ambiguous_function, undefined_function};
use super::scope::Scope;
use super::translator::{Translator, Typed};
use super::types::PgType;

/// The name the engine's functions know a date/time type by.
fn kind(ty: &PgType) -> Option<&'static str> {
    Some(match ty {
        PgType::Date => "date",
        PgType::Time => "time",
        PgType::Timestamp => "timestamp",
        PgType::Timestamptz => "timestamptz",
        PgType::Interval => "interval",
        // A value of a type the translation does not know: its text decides.
        PgType::Opaque => "timestamp",
        _ => return None,
    })
}

impl Translator<'_> {
    /// `EXTRACT(field FROM value)`.
    pub(super) fn extract(
        &mut self,
        field: &DateTimeField,
        value: &Expr,
        scope: &Scope,
    ) -> Result<Typed> {
        let field = match field {
            DateTimeField::Custom(ident) => ident.value.clone(),
            other => other.to_string(),
        };
        let value = self.expr(value, scope)?;
        let shown = "pg_catalog.extract";
        let value_kind = self.date_time_kind(&value, shown, PgType::Unknown)?;
        Ok(Typed::new(
            call(
                "litewire_extract",
                vec![
                    string(&field.to_ascii_lowercase()),
                    value.expr,
                    string(value_kind),
                ],
            ),
            PgType::Numeric,
        )
        .named("extract", 2))
    }

    /// `date_part(field, value)` and `date_trunc(field, value)`, if `name` is
    /// one of them, with its arguments translated.
    pub(super) fn date_function(&mut self, name: &str, args: &[Typed]) -> Result<Option<Typed>> {
        let engine = match name {
            "date_part" => "litewire_date_part",
            "date_trunc" => "litewire_date_trunc",
            "to_char" => return self.formatted(args),
            "to_date" | "to_timestamp" if args.len() == 2 => return self.parsed(name, args),
            "timezone" if args.len() == 2 => {
                return self.in_zone(args[1].clone(), args[0].clone()).map(Some);
            }
            _ => return Ok(None),
        };
        let [field, value] = args else {
            return Ok(None);
        };
        let field_type = match field.untyped {
            Some(_) => PgType::Unknown,
            None => field.ty.clone(),
        };
        let field = self.text_argument(field.clone(), name)?;
        let value_kind = self.date_time_kind(value, name, field_type)?;
        let ty = match (name, value_kind) {
            ("date_part", _) => PgType::Float8,
            ("date_trunc", "interval") => {
                return Err(undefined_function(name, &[PgType::Text, PgType::Interval]));
            }
            (_, "timestamp") => PgType::Timestamp,
            _ => PgType::Timestamptz,
        };
        Ok(Some(
            Typed::new(
                call(
                    engine,
                    vec![field.expr, value.expr.clone(), string(value_kind)],
                ),
                ty,
            )
            .named(name.to_owned(), 2),
        ))
    }

    /// `value AT TIME ZONE zone`, `timezone(zone, value)`: the zone a name
    /// (`Europe/Paris`, `PST`, a POSIX `TZ` string) or an interval east of
    /// UTC, read when the statement runs (it may be a column).
    pub(super) fn at_time_zone(
        &mut self,
        value: &Expr,
        zone: &Expr,
        scope: &Scope,
    ) -> Result<Typed> {
        let value = self.expr(value, scope)?;
        let zone = self.expr(zone, scope)?;
        self.in_zone(value, zone)
    }

    /// [`Self::at_time_zone`] of translated operands.
    fn in_zone(&mut self, value: Typed, zone: Typed) -> Result<Typed> {
        let (zone, zone_kind) = match zone.ty {
            PgType::Interval => (zone, "interval"),
            _ => (self.text_argument(zone, "timezone")?, "text"),
        };
        // An untyped literal is a timestamptz, as PostgreSQL prefers.
        let value = match value.untyped {
            Some(_) => self.cast(value, &PgType::Timestamptz, CastContext::Implicit)?,
            None => value,
        };
        let (value, ty) = match value.ty {
            PgType::Timestamptz => (value, PgType::Timestamp),
            PgType::Timestamp => (value, PgType::Timestamptz),
            PgType::Date => {
                let value = self
                    .coerce(value, &PgType::Timestamptz)?
                    .ok_or_else(|| super::errors::not_implemented("AT TIME ZONE of this type"))?;
                (value, PgType::Timestamp)
            }
            _ => return Err(super::errors::not_implemented("AT TIME ZONE of this type")),
        };
        let from = if ty == PgType::Timestamp {
            "timestamptz"
        } else {
            "timestamp"
        };
        Ok(Typed::new(
            call(
                "litewire_at_zone",
                vec![value.expr, zone.expr, string(zone_kind), string(from)],
            ),
            ty,
        )
        .named("timezone", 2))
    }

    /// `to_char(value, format)` of a date, timestamp, timestamptz or number;
    /// `None` for other values.
    fn formatted(&mut self, args: &[Typed]) -> Result<Option<Typed>> {
        let [value, format] = args else {
            return Ok(None);
        };
        let kind = match value.ty {
            PgType::Date => "date",
            PgType::Timestamp => "timestamp",
            PgType::Timestamptz => "timestamptz",
            // A number's template patterns (see the engine's `number_format`).
            ref ty if ty.is_numeric() => {
                let format = self.text_argument(format.clone(), "to_char")?;
                let float = matches!(ty, PgType::Float4 | PgType::Float8);
                let number = call(
                    "litewire_to_char_number",
                    vec![value.expr.clone(), format.expr, boolean(float)],
                );
                return Ok(Some(Typed::new(number, PgType::Text).named("to_char", 2)));
            }
            _ => return Ok(None),
        };
        let format = self.text_argument(format.clone(), "to_char")?;
        Ok(Some(
            Typed::new(
                call(
                    "litewire_to_char",
                    vec![value.expr.clone(), format.expr, string(kind)],
                ),
                PgType::Text,
            )
            .named("to_char", 2),
        ))
    }

    /// `to_date(text, format)`, `to_timestamp(text, format)`: the text read
    /// by the format's template patterns (see the engine's `date_parsing`).
    fn parsed(&mut self, name: &str, args: &[Typed]) -> Result<Option<Typed>> {
        let [text, format] = args else {
            return Ok(None);
        };
        let text = self.text_argument(text.clone(), name)?;
        let format = self.text_argument(format.clone(), name)?;
        let timestamp = name == "to_timestamp";
        let ty = if timestamp {
            PgType::Timestamptz
        } else {
            PgType::Date
        };
        let parsed = call(
            "litewire_parse_date",
            vec![text.expr, format.expr, boolean(timestamp)],
        );
        Ok(Some(Typed::new(parsed, ty).named(name, 2)))
    }

    /// The engine's name for the type of a date/time function's value: an
    /// untyped literal could be any of them (42725), another type none (42883).
    fn date_time_kind(
        &mut self,
        value: &Typed,
        function: &str,
        field_type: PgType,
    ) -> Result<&'static str> {
        let shown = match value.untyped {
            Some(_) => PgType::Unknown,
            None => value.ty.clone(),
        };
        if value.untyped.is_some() {
            return Err(ambiguous_function(function, &[field_type, shown]));
        }
        kind(&value.ty).ok_or_else(|| undefined_function(function, &[field_type, shown]))
    }
}

/// `CURRENT_DATE`, `LOCALTIMESTAMP` and `LOCALTIME`: the moment now on the
/// session's clock.
pub(super) fn local_now(name: &str) -> Option<Typed> {
    let name = name.to_ascii_lowercase();
    let ty = match name.as_str() {
        "current_date" => PgType::Date,
        "localtimestamp" => PgType::Timestamp,
        "localtime" => PgType::Time,
        _ => return None,
    };
    let now = super::casts::runtime_cast(super::casts::now_utc(), &PgType::Timestamptz, &ty);
    Some(Typed::new(now, ty).named(name, 2))
}
