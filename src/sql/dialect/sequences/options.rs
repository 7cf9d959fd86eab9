//! The options of a sequence: as `CREATE`/`ALTER SEQUENCE` write them and as
//! an identity column's `GENERATED ... AS IDENTITY (...)` gives them, and the
//! definition they resolve to, with PostgreSQL's defaults and checks.

use sqlparser::ast::{Expr, SequenceOptions as AstOption};

use super::names::{folded, sequence_name};
use crate::error::{Error, ErrorKind};
use crate::sql::lexer::TokenKind;
use crate::sql::words::Words;

/// The integer types a sequence may have, with their bounds.
pub(super) fn type_bounds(name: &str) -> Option<(&'static str, i64, i64)> {
    match name.to_ascii_lowercase().as_str() {
        "smallint" | "int2" | "smallserial" | "serial2" => {
            Some(("smallint", i16::MIN.into(), i16::MAX.into()))
        }
        "integer" | "int" | "int4" | "serial" | "serial4" => {
            Some(("integer", i32::MIN.into(), i32::MAX.into()))
        }
        "bigint" | "int8" | "bigserial" | "serial8" => Some(("bigint", i64::MIN, i64::MAX)),
        _ => None,
    }
}

/// The options of `CREATE`/`ALTER SEQUENCE` and of an identity column, as given.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct Options {
    pub data_type: Option<String>,
    pub increment: Option<i64>,
    /// `Some(None)`: `NO MINVALUE`.
    pub min: Option<Option<i64>>,
    pub max: Option<Option<i64>>,
    pub start: Option<i64>,
    /// `Some(None)`: `RESTART` without a value (the start value).
    pub restart: Option<Option<i64>>,
    pub cycle: Option<bool>,
    /// `Some(None)`: `OWNED BY NONE`.
    pub owned_by: Option<Option<(String, String)>>,
}

/// A sequence definition with every option resolved.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Definition {
    pub(super) data_type: &'static str,
    pub(super) start: i64,
    pub(super) increment: i64,
    pub(super) min: i64,
    pub(super) max: i64,
    pub(super) cycle: bool,
}

pub(super) fn invalid(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidParameterValue, message)
}

pub(super) fn syntax(message: impl Into<String>) -> Error {
    Error::new(ErrorKind::Syntax, message)
}

impl Options {
    /// The definition `CREATE SEQUENCE` makes of these options, with
    /// PostgreSQL's defaults and checks.
    pub(super) fn resolve(&self, default_type: &str) -> Result<Definition, Error> {
        let type_name = self.data_type.as_deref().unwrap_or(default_type);
        let (data_type, type_min, type_max) = type_bounds(type_name).ok_or_else(|| {
            invalid("sequence type must be smallint, integer, or bigint".to_owned())
        })?;
        let increment = self.increment.unwrap_or(1);
        if increment == 0 {
            return Err(invalid("INCREMENT must not be zero"));
        }
        let min = self
            .min
            .flatten()
            .unwrap_or(if increment > 0 { 1 } else { type_min });
        let max = self
            .max
            .flatten()
            .unwrap_or(if increment > 0 { type_max } else { -1 });
        if min < type_min || max > type_max {
            return Err(invalid(format!(
                "MINVALUE ({min}) and MAXVALUE ({max}) must fit in type {data_type}"
            )));
        }
        if min >= max {
            return Err(invalid(format!(
                "MINVALUE ({min}) must be less than MAXVALUE ({max})"
            )));
        }
        let start = self.start.unwrap_or(if increment > 0 { min } else { max });
        if start < min {
            return Err(invalid(format!(
                "START value ({start}) cannot be less than MINVALUE ({min})"
            )));
        }
        if start > max {
            return Err(invalid(format!(
                "START value ({start}) cannot be greater than MAXVALUE ({max})"
            )));
        }
        Ok(Definition {
            data_type,
            start,
            increment,
            min,
            max,
            cycle: self.cycle.unwrap_or(false),
        })
    }

    /// Options given to an identity column in `GENERATED ... AS IDENTITY (...)`.
    pub(crate) fn from_ast(options: &[AstOption]) -> Result<Options, Error> {
        let mut out = Options::default();
        for option in options {
            match option {
                AstOption::DataType(t) => out.data_type = Some(t.to_string()),
                AstOption::IncrementBy(e, _) => out.increment = Some(number(e)?),
                AstOption::MinValue(e) => out.min = Some(e.as_ref().map(number).transpose()?),
                AstOption::MaxValue(e) => out.max = Some(e.as_ref().map(number).transpose()?),
                AstOption::StartWith(e, _) => out.start = Some(number(e)?),
                AstOption::Cache(e) => {
                    number(e)?;
                }
                AstOption::Cycle(no) => out.cycle = Some(!no),
                AstOption::OwnedBy(_) => {}
            }
        }
        Ok(out)
    }
}

fn number(expr: &Expr) -> Result<i64, Error> {
    let text = expr.to_string().replace(' ', "");
    text.parse()
        .map_err(|_| syntax(format!("syntax error at or near \"{text}\"")))
}

/// A signed integer at `i`.
fn integer(w: &Words, i: usize) -> Result<(i64, usize), Error> {
    let (negative, at) = match w.text(i) {
        "-" => (true, i + 1),
        "+" => (false, i + 1),
        _ => (false, i),
    };
    if w.kind(at) != Some(TokenKind::Number) {
        return Err(syntax(format!(
            "syntax error at or near \"{}\"",
            w.text(at)
        )));
    }
    let text = format!("{}{}", if negative { "-" } else { "" }, w.text(at));
    let value = text
        .parse()
        .map_err(|_| invalid(format!("value \"{text}\" is out of range for type bigint")))?;
    Ok((value, at + 1))
}

/// Sequence options from `i` to the end of the statement.
pub(super) fn read_options(w: &Words, mut i: usize, alter: bool) -> Result<Options, Error> {
    let mut out = Options::default();
    while i < w.tokens.len() {
        if w.is(i, "AS") {
            let (name, next) = sequence_name(w, i + 1)?;
            out.data_type = Some(name);
            i = next;
        } else if w.is(i, "INCREMENT") {
            i += 1;
            if w.is(i, "BY") {
                i += 1;
            }
            let (value, next) = integer(w, i)?;
            out.increment = Some(value);
            i = next;
        } else if w.is(i, "MINVALUE") || w.is(i, "MAXVALUE") {
            let (value, next) = integer(w, i + 1)?;
            if w.is(i, "MINVALUE") {
                out.min = Some(Some(value));
            } else {
                out.max = Some(Some(value));
            }
            i = next;
        } else if w.is(i, "NO") && w.is(i + 1, "MINVALUE") {
            out.min = Some(None);
            i += 2;
        } else if w.is(i, "NO") && w.is(i + 1, "MAXVALUE") {
            out.max = Some(None);
            i += 2;
        } else if w.is(i, "NO") && w.is(i + 1, "CYCLE") {
            out.cycle = Some(false);
            i += 2;
        } else if w.is(i, "CYCLE") {
            out.cycle = Some(true);
            i += 1;
        } else if w.is(i, "START") {
            i += 1;
            if w.is(i, "WITH") {
                i += 1;
            }
            let (value, next) = integer(w, i)?;
            out.start = Some(value);
            i = next;
        } else if alter && w.is(i, "RESTART") {
            i += 1;
            if w.is(i, "WITH") {
                i += 1;
            }
            if matches!(w.kind(i), Some(TokenKind::Number)) || matches!(w.text(i), "-" | "+") {
                let (value, next) = integer(w, i)?;
                out.restart = Some(Some(value));
                i = next;
            } else {
                out.restart = Some(None);
            }
        } else if w.is(i, "CACHE") {
            i = integer(w, i + 1)?.1;
        } else if w.is(i, "OWNED") && w.is(i + 1, "BY") {
            if w.is(i + 2, "NONE") {
                out.owned_by = Some(None);
                i += 3;
            } else {
                let start = i + 2;
                let mut parts = Vec::new();
                let mut j = start;
                while let Some(t) = w.tokens.get(j) {
                    if !matches!(t.kind, TokenKind::Word | TokenKind::QuotedIdent) {
                        break;
                    }
                    parts.push(folded(t, w.sql));
                    j += 1;
                    if w.text(j) != "." {
                        break;
                    }
                    j += 1;
                }
                let column = parts.pop();
                let table = parts.pop();
                match (table, column) {
                    (Some(table), Some(column)) => out.owned_by = Some(Some((table, column))),
                    _ => {
                        return Err(syntax(
                            "invalid OWNED BY option: specify OWNED BY table.column or OWNED BY NONE",
                        ));
                    }
                }
                i = j;
            }
        } else {
            return Err(syntax(format!("syntax error at or near \"{}\"", w.text(i))));
        }
    }
    Ok(out)
}
