//! A value given to one of PostgreSQL's parameters, checked as PostgreSQL
//! checks it and written as `SHOW` prints it: booleans as `on`/`off`, an
//! enum's word in its own case, numbers within the parameter's range and in
//! its unit (`SET work_mem = '1.5MB'` shows `1536kB`), with PostgreSQL's
//! messages for what it refuses (22023) and for parameters a session cannot
//! change (55P02).

use super::reference::{Context, Kind, Parameter, Unit};
use crate::error::{Error, ErrorKind};
use crate::sql::quote::parse_bool;

impl Parameter {
    /// Whether a session may `SET` it, or PostgreSQL's error saying why not.
    pub(super) fn settable(&self) -> Result<(), Error> {
        let name = self.known.name;
        let why = match self.context {
            Context::User => return Ok(()),
            Context::Startup => "cannot be set after connection start",
            Context::Reload => "cannot be changed now",
            Context::Restart => "cannot be changed without restarting the server",
            Context::Internal => "cannot be changed",
        };
        Err(Error::new(
            ErrorKind::CantChangeRuntimeParam,
            format!("parameter \"{name}\" {why}"),
        ))
    }

    /// `value` as the parameter holds it, or PostgreSQL's error for it.
    pub(super) fn check(&self, value: &str) -> Result<String, Error> {
        let name = self.known.name;
        let invalid = || {
            Error::new(
                ErrorKind::InvalidParameterValue,
                format!("invalid value for parameter \"{name}\": \"{value}\""),
            )
        };
        match self.kind {
            Kind::Bool => match parse_bool(value) {
                Some(true) => Ok("on".into()),
                Some(false) => Ok("off".into()),
                None => Err(Error::new(
                    ErrorKind::InvalidParameterValue,
                    format!("parameter \"{name}\" requires a Boolean value"),
                )),
            },
            Kind::Enum(words) => words
                .iter()
                .find(|w| w.eq_ignore_ascii_case(value.trim()))
                .map(|w| (*w).to_owned())
                .or_else(|| on_or_off(words, value))
                .ok_or_else(invalid),
            Kind::Text => Ok(value.to_owned()),
            Kind::Integer(unit, min, max) => {
                let n = in_base_unit(value, unit).ok_or_else(invalid)?.round();
                if !(min as f64..=max as f64).contains(&n) {
                    return Err(out_of_range(name, &format!("{n}"), unit, min, max));
                }
                Ok(shown(n as i64, unit))
            }
            Kind::Real(unit, min, max) => {
                let n = in_base_unit(value, unit).ok_or_else(invalid)?;
                if !(min..=max).contains(&n) {
                    return Err(out_of_range(name, &format!("{n}"), unit, min, max));
                }
                // A fraction of a millisecond is shown in microseconds.
                Ok(match unit {
                    Unit::Ms if n.fract() != 0.0 => format!("{}us", (n * 1000.0).round()),
                    Unit::None => format!("{n}"),
                    _ => shown(n as i64, unit),
                })
            }
        }
    }
}

/// An enum that has `on` and `off` also takes, as PostgreSQL's do, the
/// other spellings of a Boolean (`synchronous_commit = false`).
fn on_or_off(words: &[&str], value: &str) -> Option<String> {
    if !(words.contains(&"on") && words.contains(&"off")) {
        return None;
    }
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "yes" | "1" => Some("on".to_owned()),
        "false" | "no" | "0" => Some("off".to_owned()),
        _ => None,
    }
}

fn out_of_range(
    name: &str,
    value: &str,
    unit: Unit,
    min: impl std::fmt::Display,
    max: impl std::fmt::Display,
) -> Error {
    let unit = match unit_name(unit) {
        "" => String::new(),
        unit => format!(" {unit}"),
    };
    Error::new(
        ErrorKind::InvalidParameterValue,
        format!(
            "{value}{unit} is outside the valid range for parameter \"{name}\" ({min} .. {max})"
        ),
    )
}

fn unit_name(unit: Unit) -> &'static str {
    match unit {
        Unit::None => "",
        Unit::Bytes => "B",
        Unit::Kb => "kB",
        Unit::Blocks => "8kB",
        Unit::Mb => "MB",
        Unit::Ms => "ms",
        Unit::S => "s",
        Unit::Min => "min",
    }
}

/// Bytes or milliseconds in one of the parameter's units, and whether the
/// unit measures memory.
fn scale(unit: Unit) -> (f64, bool) {
    match unit {
        Unit::None => (1.0, false),
        Unit::Bytes => (1.0, true),
        Unit::Kb => (1024.0, true),
        Unit::Blocks => (8192.0, true),
        Unit::Mb => (1024.0 * 1024.0, true),
        Unit::Ms => (1.0, false),
        Unit::S => (1000.0, false),
        Unit::Min => (60_000.0, false),
    }
}

const MEMORY: &[(&str, f64)] = &[
    ("TB", 1024.0 * 1024.0 * 1024.0 * 1024.0),
    ("GB", 1024.0 * 1024.0 * 1024.0),
    ("MB", 1024.0 * 1024.0),
    ("kB", 1024.0),
    ("B", 1.0),
];
const TIME: &[(&str, f64)] = &[
    ("d", 86_400_000.0),
    ("h", 3_600_000.0),
    ("min", 60_000.0),
    ("s", 1000.0),
    ("ms", 1.0),
    ("us", 0.001),
];

/// A number with an optional unit (`1.5MB`, `90 s`), in the parameter's unit.
fn in_base_unit(value: &str, unit: Unit) -> Option<f64> {
    let value = value.trim();
    let split = value
        .find(|c: char| c.is_ascii_alphabetic())
        .unwrap_or(value.len());
    let (number, written) = value.split_at(split);
    let number: f64 = number.trim().parse().ok()?;
    if !number.is_finite() {
        return None;
    }
    if written.is_empty() {
        return Some(number);
    }
    let (base, memory) = scale(unit);
    if unit == Unit::None {
        return None;
    }
    let units = if memory { MEMORY } else { TIME };
    let (_, factor) = units.iter().find(|(name, _)| *name == written)?;
    Some(number * factor / base)
}

/// A value in the parameter's unit as `SHOW` prints it: in the largest unit
/// that holds it whole (`4096` kB is `4MB`); -1 and 0 bare.
fn shown(n: i64, unit: Unit) -> String {
    if unit == Unit::None || n == 0 || n == -1 {
        return n.to_string();
    }
    let (base, memory) = scale(unit);
    let amount = n as f64 * base;
    let units = if memory { MEMORY } else { TIME };
    for (name, factor) in units {
        if *factor >= 1.0 && (amount / factor).fract() == 0.0 {
            return format!("{}{name}", amount / factor);
        }
    }
    format!("{n}{}", unit_name(unit))
}

#[cfg(test)]
mod tests {
    use super::super::reference::PARAMETERS;
    use super::*;

    fn parameter(name: &str) -> &'static Parameter {
        PARAMETERS
            .iter()
            .find(|p| p.known.name == name)
            .expect("a parameter")
    }

    #[test]
    fn values_read_and_show_as_postgres_does() {
        let work_mem = parameter("work_mem");
        assert_eq!(work_mem.check("1.5MB").unwrap(), "1536kB");
        assert_eq!(work_mem.check("4096").unwrap(), "4MB");
        assert_eq!(work_mem.check("10 MB").unwrap(), "10MB");
        assert!(work_mem.check("10").is_err());
        assert!(work_mem.check("10XB").is_err());
        let delay = parameter("log_min_duration_statement");
        assert_eq!(delay.check("1.5s").unwrap(), "1500ms");
        assert_eq!(delay.check("-1").unwrap(), "-1");
        assert_eq!(
            parameter("vacuum_cost_delay").check("0.5").unwrap(),
            "500us"
        );
        assert_eq!(parameter("enable_seqscan").check("OFF").unwrap(), "off");
        assert!(parameter("enable_seqscan").check("maybe").is_err());
        assert_eq!(parameter("constraint_exclusion").check("ON").unwrap(), "on");
        assert!(parameter("constraint_exclusion").check("always").is_err());
        assert!(parameter("shared_buffers").settable().is_err());
        assert!(parameter("work_mem").settable().is_ok());
    }
}
