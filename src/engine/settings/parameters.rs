//! The parameters PostgreSQL has, as litewire knows them: their canonical
//! spelling, defaults, which are reported to the client, which are read-only,
//! and the rules their values must follow.

use std::collections::HashMap;
use std::sync::LazyLock;
use std::time::Duration;

use super::reference::{Known, PARAMETERS, Parameter};
use crate::error::{Error, ErrorKind};

pub(super) const fn known(
    name: &'static str,
    default: &'static str,
    reported: bool,
    description: &'static str,
) -> Known {
    Known {
        name,
        default,
        reported,
        description,
    }
}

/// The parameters clients commonly set or show. Names not listed here (and not
/// custom `prefix.name` ones) are rejected as PostgreSQL rejects them.
pub(super) const KNOWN: &[Known] = &[
    known(
        "application_name",
        "",
        true,
        "Sets the application name to be reported in statistics and logs.",
    ),
    known(
        "array_nulls",
        "on",
        false,
        "Enable input of NULL elements in arrays.",
    ),
    known(
        "block_size",
        "8192",
        false,
        "Shows the size of a disk block.",
    ),
    known(
        "bytea_output",
        "hex",
        false,
        "Sets the output format for bytea.",
    ),
    known(
        "check_function_bodies",
        "on",
        false,
        "Check routine bodies during CREATE FUNCTION and CREATE PROCEDURE.",
    ),
    known(
        "client_encoding",
        "UTF8",
        true,
        "Sets the client's character set encoding.",
    ),
    known(
        "client_min_messages",
        "notice",
        false,
        "Sets the message levels that are sent to the client.",
    ),
    known(
        "DateStyle",
        "ISO, MDY",
        true,
        "Sets the display format for date and time values.",
    ),
    known(
        "default_table_access_method",
        "heap",
        false,
        "Sets the default table access method for new tables.",
    ),
    known(
        "default_tablespace",
        "",
        false,
        "Sets the default tablespace to create tables and indexes in.",
    ),
    known(
        "deadlock_timeout",
        "1s",
        false,
        "Sets the time to wait on a lock before checking for deadlock.",
    ),
    known(
        "default_transaction_deferrable",
        "off",
        false,
        "Sets the default deferrable status of new transactions.",
    ),
    known(
        "default_transaction_isolation",
        "read committed",
        false,
        "Sets the transaction isolation level of each new transaction.",
    ),
    known(
        "default_transaction_read_only",
        "off",
        true,
        "Sets the default read-only status of new transactions.",
    ),
    known(
        "extra_float_digits",
        "1",
        false,
        "Sets the number of digits displayed for floating-point values.",
    ),
    known(
        "idle_in_transaction_session_timeout",
        "0",
        false,
        "Sets the maximum allowed idle time between queries, when in a transaction.",
    ),
    known(
        "in_hot_standby",
        "off",
        true,
        "Shows whether hot standby is currently active.",
    ),
    known(
        "integer_datetimes",
        "on",
        true,
        "Shows whether datetimes are integer based.",
    ),
    known(
        "IntervalStyle",
        "postgres",
        true,
        "Sets the display format for interval values.",
    ),
    known(
        "is_superuser",
        "on",
        true,
        "Shows whether the current user is a superuser.",
    ),
    known(
        "jit",
        "off",
        false,
        "Allow JIT compilation (litewire has none).",
    ),
    known(
        "lc_collate",
        "C",
        false,
        "Shows the collation order locale.",
    ),
    known(
        "lc_ctype",
        "C",
        false,
        "Shows the character classification and case conversion locale.",
    ),
    known(
        "lc_messages",
        "C",
        false,
        "Sets the language in which messages are displayed.",
    ),
    known(
        "lc_monetary",
        "C",
        false,
        "Sets the locale for formatting monetary amounts.",
    ),
    known(
        "lc_numeric",
        "C",
        false,
        "Sets the locale for formatting numbers.",
    ),
    known(
        "lc_time",
        "C",
        false,
        "Sets the locale for formatting date and time values.",
    ),
    known(
        "lock_timeout",
        "0",
        false,
        "Sets the maximum allowed duration of any wait for a lock.",
    ),
    known(
        "max_connections",
        "100",
        false,
        "Sets the maximum number of concurrent connections.",
    ),
    known(
        "max_identifier_length",
        "63",
        false,
        "Shows the maximum identifier length.",
    ),
    known(
        "max_index_keys",
        "32",
        false,
        "Shows the maximum number of index keys.",
    ),
    known("row_security", "on", false, "Enable row security."),
    known(
        "search_path",
        "\"$user\", public",
        false,
        "Sets the schema search order for names that are not schema-qualified.",
    ),
    known(
        "server_encoding",
        "UTF8",
        true,
        "Shows the server (database) character set encoding.",
    ),
    known(
        "server_version",
        crate::SERVER_VERSION,
        true,
        "Shows the server version.",
    ),
    known(
        "server_version_num",
        "150000",
        false,
        "Shows the server version as an integer.",
    ),
    known(
        "session_authorization",
        "litewire",
        true,
        "Sets the session user name.",
    ),
    known(
        "standard_conforming_strings",
        "on",
        true,
        "Causes '...' strings to treat backslashes literally.",
    ),
    known(
        "statement_timeout",
        "0",
        false,
        "Sets the maximum allowed duration of any statement.",
    ),
    known(
        "synchronous_commit",
        "on",
        false,
        "Sets the current transaction's synchronization level.",
    ),
    known(
        "TimeZone",
        "Etc/UTC",
        true,
        "Sets the time zone for displaying and interpreting time stamps.",
    ),
    known(
        "transaction_deferrable",
        "off",
        false,
        "Whether to defer a read-only serializable transaction until it can be executed with no possible serialization failures.",
    ),
    known(
        "transaction_isolation",
        "read committed",
        false,
        "Sets the current transaction's isolation level.",
    ),
    known(
        "transaction_read_only",
        "off",
        false,
        "Sets the current transaction's read-only status.",
    ),
    known(
        "xmloption",
        "content",
        false,
        "Sets whether XML data in implicit parsing and serialization operations is to be considered as documents or content fragments.",
    ),
];

/// Parameters only the server sets: `SET` of these fails as in PostgreSQL.
pub(super) const READ_ONLY: &[&str] = &[
    "block_size",
    "in_hot_standby",
    "lc_collate",
    "lc_ctype",
    "max_connections",
    "integer_datetimes",
    "is_superuser",
    "max_identifier_length",
    "max_index_keys",
    "server_encoding",
    "server_version",
    "server_version_num",
];

/// A parameter by name (any case): litewire's own entry where it has one
/// (its defaults, what it reports), else PostgreSQL's (see `reference`).
pub(super) fn lookup(name: &str) -> Option<&'static Known> {
    // Sessions are made per HTTP request: a hash lookup, not a scan.
    static BY_NAME: LazyLock<HashMap<String, &'static Known, foldhash::fast::RandomState>> =
        LazyLock::new(|| {
            PARAMETERS
                .iter()
                .map(|p| &p.known)
                .chain(KNOWN.iter())
                .map(|known| (known.name.to_ascii_lowercase(), known))
                .collect()
        });
    match name.bytes().any(|c| c.is_ascii_uppercase()) {
        true => BY_NAME.get(&name.to_ascii_lowercase()).copied(),
        false => BY_NAME.get(name).copied(),
    }
}

/// PostgreSQL's description of a parameter (its values, when it may change),
/// by its canonical name.
pub(super) fn reference(canonical: &str) -> Option<&'static Parameter> {
    static BY_NAME: LazyLock<
        HashMap<&'static str, &'static Parameter, foldhash::fast::RandomState>,
    > = LazyLock::new(|| PARAMETERS.iter().map(|p| (p.known.name, p)).collect());
    BY_NAME.get(canonical).copied()
}

/// Every parameter, litewire's entry where it has one, in no order.
pub(super) fn every() -> impl Iterator<Item = &'static Known> {
    KNOWN.iter().chain(
        PARAMETERS
            .iter()
            .map(|p| &p.known)
            .filter(|k| !KNOWN.iter().any(|own| own.name == k.name)),
    )
}

/// PostgreSQL's spelling of a parameter name; custom `prefix.name` parameters
/// are accepted as they are, anything else unknown is 42704.
pub(super) fn canonical(name: &str) -> Result<String, Error> {
    if let Some(known) = lookup(name) {
        return Ok(known.name.to_owned());
    }
    if name.contains('.') {
        return Ok(name.to_ascii_lowercase());
    }
    Err(unrecognized(name))
}

pub(super) fn unrecognized(name: &str) -> Error {
    Error::new(
        ErrorKind::UndefinedObject,
        format!("unrecognized configuration parameter \"{name}\""),
    )
}

/// Normalises the values whose spelling PostgreSQL normalises, and refuses the
/// encodings litewire cannot speak.
pub(super) fn validate(canonical: &str, value: &str) -> Result<String, Error> {
    match canonical {
        "client_encoding" => {
            let upper = value.to_ascii_uppercase().replace(['-', '_'], "");
            if upper == "UTF8" || upper == "UNICODE" {
                Ok("UTF8".to_owned())
            } else {
                Err(Error::new(
                    ErrorKind::Unsupported,
                    format!("client encoding \"{value}\" is not supported: litewire speaks UTF8"),
                ))
            }
        }
        "DateStyle" => Ok(date_style(value)),
        // Shown as PostgreSQL shows it: the database's spelling of a zone name,
        // `<-05>+05` for a number of hours.
        "TimeZone" => match crate::sql::time_zone::Zone::setting(value) {
            Some(zone) => Ok(zone.name().to_owned()),
            None => Err(Error::new(
                ErrorKind::InvalidParameterValue,
                format!("invalid value for parameter \"TimeZone\": \"{value}\""),
            )),
        },
        "extra_float_digits" => match value.trim().parse::<i32>() {
            Ok(n) if (-15..=3).contains(&n) => Ok(n.to_string()),
            Ok(n) => Err(Error::new(
                ErrorKind::InvalidParameterValue,
                format!(
                    "{n} is outside the valid range for parameter \"extra_float_digits\" (-15 .. 3)"
                ),
            )),
            Err(_) => Err(Error::new(
                ErrorKind::InvalidParameterValue,
                format!("invalid value for parameter \"extra_float_digits\": \"{value}\""),
            )),
        },
        "default_transaction_isolation" | "transaction_isolation" => {
            match crate::sql::Isolation::parse(value) {
                Some(level) => Ok(level.name().to_owned()),
                None => Err(Error::new(
                    ErrorKind::InvalidParameterValue,
                    format!("invalid value for parameter \"{canonical}\": \"{value}\""),
                )),
            }
        }
        "default_transaction_read_only"
        | "default_transaction_deferrable"
        | "transaction_read_only"
        | "transaction_deferrable" => match crate::sql::quote::parse_bool(value) {
            Some(true) => Ok("on".to_owned()),
            Some(false) => Ok("off".to_owned()),
            None => Err(Error::new(
                ErrorKind::InvalidParameterValue,
                format!("parameter \"{canonical}\" requires a Boolean value"),
            )),
        },
        "statement_timeout"
        | "lock_timeout"
        | "idle_in_transaction_session_timeout"
        | "deadlock_timeout" => match parse_duration(value) {
            Some(_) => Ok(value.trim().to_owned()),
            None => Err(Error::new(
                ErrorKind::InvalidParameter,
                format!("invalid value for parameter \"{canonical}\": \"{value}\""),
            )),
        },
        _ => match reference(canonical) {
            Some(parameter) => parameter.check(value),
            None => Ok(value.to_owned()),
        },
    }
}

/// A PostgreSQL time value in milliseconds: a bare number is milliseconds, or a
/// number with a unit (`us`, `ms`, `s`, `min`, `h`, `d`), as in `'1.5s'`.
pub fn parse_duration(value: &str) -> Option<Duration> {
    let value = value.trim();
    // Whole milliseconds, as the server's flags give them: no float parsing.
    if let Ok(millis) = value.parse::<u32>() {
        return (millis <= i32::MAX as u32).then(|| Duration::from_millis(u64::from(millis)));
    }
    let split = value
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(value.len());
    let (number, unit) = value.split_at(split);
    let number: f64 = number.parse().ok()?;
    let millis_per_unit = match unit.trim() {
        "" | "ms" => 1.0,
        "us" => 0.001,
        "s" => 1000.0,
        "min" => 60_000.0,
        "h" => 3_600_000.0,
        "d" => 86_400_000.0,
        _ => return None,
    };
    let millis = number * millis_per_unit;
    // PostgreSQL's limit for these settings: INT_MAX milliseconds.
    (millis.is_finite() && millis <= f64::from(i32::MAX))
        .then(|| Duration::from_micros((millis * 1000.0) as u64))
}

/// `DateStyle` keeps PostgreSQL's two-part form (`ISO, MDY`); output stays ISO.
pub(super) fn date_style(value: &str) -> String {
    let mut style = "ISO";
    let mut order = "MDY";
    for part in value.split(',').map(|p| p.trim().to_ascii_uppercase()) {
        match part.as_str() {
            "ISO" | "SQL" | "POSTGRES" | "GERMAN" => style = "ISO",
            "MDY" | "US" | "NONEURO" | "NONEUROPEAN" => order = "MDY",
            "DMY" | "EURO" | "EUROPEAN" => order = "DMY",
            "YMD" => order = "YMD",
            _ => {}
        }
    }
    format!("{style}, {order}")
}
