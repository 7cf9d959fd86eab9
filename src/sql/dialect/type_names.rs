//! Type names as the translation compares them (lower case, without schema or
//! modifiers) and as PostgreSQL prints them (its internal names: `bool`,
//! `int4`, ...).

use sqlparser::ast::{ArrayElemTypeDef, DataType, Ident, ObjectName, TimezoneInfo, TypeModifier};

use crate::sql::interval_fields::IntervalFields;
use crate::sql::syntax_tree::idents;

/// The lower-case name of a type, without its schema and modifiers.
pub(super) fn type_name(data_type: &DataType) -> String {
    let full = match data_type {
        DataType::Custom(name, _) => idents(name).last().cloned().unwrap_or_default(),
        other => other.to_string(),
    };
    let lower = full.to_ascii_lowercase();
    lower.split('(').next().unwrap_or("").trim().to_owned()
}

/// PostgreSQL's own name for a type (`boolean` is `bool`), as it names the
/// column of a cast.
pub(super) fn internal_type_name(name: &str) -> String {
    match name {
        "boolean" => "bool",
        "integer" | "int" => "int4",
        "bigint" => "int8",
        "smallint" => "int2",
        "real" => "float4",
        "double precision" | "double" | "float" => "float8",
        "character varying" => "varchar",
        "character" | "char" => "bpchar",
        "decimal" => "numeric",
        "timestamp with time zone" => "timestamptz",
        other => other,
    }
    .to_owned()
}

/// A type PostgreSQL spells with words or `[]` after its modifier
/// (`timestamp(2) without time zone`, `time(3) with time zone`,
/// `varchar(20)[]`), or with `to` (`interval day to second(2)`), which SQLite
/// cannot read as a declared type, written with the modifier last
/// (`timestamp(2)`, `timetz(3)`, `varchar[](20)`) or the words joined
/// (`interval day_to_second(2)`); a bit string's type as text (`bit_text(3)`);
/// whether it was.
pub(super) fn respell_for_sqlite(data_type: &mut DataType) -> bool {
    let (name, modifiers) = match &*data_type {
        DataType::Array(ArrayElemTypeDef::SquareBracket(inner, _)) => {
            let interval = match &**inner {
                DataType::Interval {
                    fields: Some(_), ..
                } => IntervalFields::parse(&inner.to_string()),
                _ => None,
            };
            let (name, modifiers) = match (short_name(inner), interval) {
                (Some((name, precision)), _) => (name.to_owned(), vec![precision.to_string()]),
                (None, Some(fields)) => {
                    let (name, precision) = fields.declared_parts();
                    (name, precision.iter().map(u32::to_string).collect())
                }
                (None, None) => {
                    let written = inner.to_string();
                    let Some((name, rest)) = written.split_once('(') else {
                        return false;
                    };
                    let Some((inside, _)) = rest.split_once(')') else {
                        return false;
                    };
                    let modifiers = inside.split(',').map(|m| m.trim().to_owned()).collect();
                    (name.trim().to_owned(), modifiers)
                }
            };
            (format!("{name}[]"), modifiers)
        }
        // A plain `timestamp(2)` is already what SQLite reads.
        DataType::Timestamp(_, TimezoneInfo::None) | DataType::Time(_, TimezoneInfo::None) => {
            return false;
        }
        // A bit string's `0`s and `1`s are text: `bit(3)` alone would give the
        // column SQLite's numeric affinity, which reads `'010'` as 10.
        DataType::Bit(length) => (BIT_TEXT.to_owned(), vec![length.unwrap_or(1).to_string()]),
        DataType::BitVarying(length) | DataType::VarBit(length) => (
            VARBIT_TEXT.to_owned(),
            length.iter().map(u64::to_string).collect(),
        ),
        // `interval day to second(2)`: SQLite reads no `to` in a type.
        DataType::Interval {
            fields: Some(_), ..
        } => {
            let Some(fields) = IntervalFields::parse(&data_type.to_string()) else {
                return false;
            };
            *data_type = DataType::Custom(
                ObjectName::from(vec![Ident::new(fields.declared())]),
                Vec::new(),
            );
            return true;
        }
        other => match short_name(other) {
            Some((name, precision)) => (name.to_owned(), vec![precision.to_string()]),
            None => return false,
        },
    };
    *data_type = DataType::Custom(
        ObjectName::from(vec![Ident::new(name)]),
        (modifiers.into_iter())
            .map(|m| TypeModifier::Number(m, false))
            .collect(),
    );
    true
}

/// How a `bit(n)` column is declared in the file (its values keep their
/// zeros), and a `bit varying(n)` one; the catalog (`type_oid`) reads them
/// back as those.
const BIT_TEXT: &str = "bit_text";
const VARBIT_TEXT: &str = "varbit_text";

/// A date-time type with a precision, by its short name.
fn short_name(data_type: &DataType) -> Option<(&'static str, u64)> {
    Some(match data_type {
        DataType::Timestamp(Some(p), TimezoneInfo::WithoutTimeZone | TimezoneInfo::None) => {
            ("timestamp", *p)
        }
        DataType::Timestamp(Some(p), TimezoneInfo::WithTimeZone | TimezoneInfo::Tz) => {
            ("timestamptz", *p)
        }
        DataType::Time(Some(p), TimezoneInfo::WithoutTimeZone | TimezoneInfo::None) => ("time", *p),
        DataType::Time(Some(p), TimezoneInfo::WithTimeZone | TimezoneInfo::Tz) => ("timetz", *p),
        _ => return None,
    })
}
