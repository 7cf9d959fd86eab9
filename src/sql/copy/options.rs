//! `COPY` options checked as PostgreSQL checks them and resolved: the format's
//! defaults filled in where the statement gave none, so the front end sees only
//! [`CopyOptions`].

use super::super::quote::unquote_identifier;
use super::option_syntax::Arg;
use crate::error::{Error, ErrorKind};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CopyFormat {
    Text,
    Csv,
    /// PostgreSQL's binary tuples (what pgx's `CopyFrom` sends); FROM only.
    Binary,
}

/// Every COPY option, resolved: PostgreSQL's defaults for the format where the
/// statement gave none. Quote, escape and FORCE_QUOTE only mean something in CSV.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyOptions {
    pub format: CopyFormat,
    pub delimiter: u8,
    pub null: String,
    pub header: bool,
    pub quote: u8,
    pub escape: u8,
    pub force_quote: ForceQuote,
}

/// Which non-NULL CSV fields are quoted whether or not they need it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForceQuote {
    None,
    All,
    /// Column names as written (unquoted), matched case-insensitively.
    Columns(Vec<String>),
}

/// Options as given, before defaults: each may be set once.
#[derive(Default)]
struct Given {
    format: Option<CopyFormat>,
    delimiter: Option<String>,
    null: Option<String>,
    header: Option<bool>,
    quote: Option<String>,
    escape: Option<String>,
    force_quote: Option<ForceQuote>,
}

/// Checks the options as PostgreSQL does and fills in the format's defaults.
pub(super) fn resolve(options: &[(String, Arg)], to: bool) -> Result<CopyOptions, Error> {
    let mut given = Given::default();
    let mut seen: Vec<&str> = Vec::new();
    for (name, arg) in options {
        if seen.contains(&name.as_str()) {
            return Err(Error::new(
                ErrorKind::Syntax,
                "conflicting or redundant options",
            ));
        }
        seen.push(name);
        apply(&mut given, name, arg, to)?;
    }
    let format = given.format.unwrap_or(CopyFormat::Text);
    if format == CopyFormat::Binary {
        binary_allowed(&given, to)?;
    }
    let csv = format == CopyFormat::Csv;
    if !csv && (given.quote.is_some() || given.escape.is_some() || given.force_quote.is_some()) {
        return Err(unsupported(
            "COPY QUOTE, ESCAPE and FORCE_QUOTE are available only in CSV mode",
        ));
    }
    let default_delimiter = if csv { "," } else { "\t" };
    let delimiter = single_byte("delimiter", given.delimiter.as_deref(), default_delimiter)?;
    let quote = single_byte("quote", given.quote.as_deref(), "\"")?;
    // The escape character defaults to the quote: `""` inside a quoted field.
    let escape = match given.escape.as_deref() {
        Some(escape) => single_byte("escape", Some(escape), "")?,
        None => quote,
    };
    let null = given
        .null
        .unwrap_or_else(|| if csv { "" } else { "\\N" }.to_owned());
    check_delimiter(delimiter, quote, &null, csv)?;
    Ok(CopyOptions {
        format,
        delimiter,
        null,
        header: given.header.unwrap_or(false),
        quote,
        escape,
        force_quote: given.force_quote.unwrap_or(ForceQuote::None),
    })
}

/// Binary COPY has no text options, and litewire reads it (FROM) but does not
/// write it (TO).
fn binary_allowed(given: &Given, to: bool) -> Result<(), Error> {
    if to {
        return Err(unsupported(
            "COPY TO in binary format is not supported: use FORMAT text or csv",
        ));
    }
    let text_options = [
        ("DELIMITER", given.delimiter.is_some()),
        ("NULL", given.null.is_some()),
        ("HEADER", given.header.is_some()),
    ];
    match text_options.iter().find(|(_, set)| *set) {
        Some((name, _)) => Err(Error::new(
            ErrorKind::Syntax,
            format!("cannot specify {name} in BINARY mode"),
        )),
        None => Ok(()),
    }
}

/// Records one option in `given`.
fn apply(given: &mut Given, name: &str, arg: &Arg, to: bool) -> Result<(), Error> {
    let value = || match arg {
        Arg::Value(value) => Ok(value.clone()),
        _ => Err(Error::new(
            ErrorKind::Syntax,
            format!("COPY option \"{name}\" needs a value"),
        )),
    };
    match name {
        "format" => given.format = Some(format(&value()?)?),
        "delimiter" => given.delimiter = Some(value()?),
        "null" => given.null = Some(value()?),
        "quote" => given.quote = Some(value()?),
        "escape" => given.escape = Some(value()?),
        "header" => given.header = Some(header(arg)?),
        "force_quote" if !to => {
            return Err(unsupported("COPY FORCE_QUOTE is available only in COPY TO"));
        }
        "force_quote" => {
            given.force_quote = Some(match arg {
                Arg::Star => ForceQuote::All,
                Arg::Columns(columns) => {
                    ForceQuote::Columns(columns.iter().map(|c| unquote_identifier(c)).collect())
                }
                _ => {
                    return Err(Error::new(
                        ErrorKind::Syntax,
                        "FORCE_QUOTE takes * or a list of columns",
                    ));
                }
            })
        }
        "force_not_null" | "force_null" => {
            return Err(unsupported(&format!(
                "COPY option {} is not supported",
                name.to_ascii_uppercase()
            )));
        }
        // Rows always go in within one transaction: FREEZE changes nothing.
        "freeze" => {}
        "encoding" => {
            let encoding = value()?.to_ascii_uppercase().replace(['-', '_'], "");
            if !matches!(encoding.as_str(), "UTF8" | "UNICODE") {
                return Err(unsupported(
                    "COPY ENCODING other than UTF8 is not supported",
                ));
            }
        }
        other => {
            return Err(Error::new(
                ErrorKind::Syntax,
                format!("option \"{other}\" not recognized"),
            ));
        }
    }
    Ok(())
}

fn format(value: &str) -> Result<CopyFormat, Error> {
    match value.to_ascii_lowercase().as_str() {
        "text" => Ok(CopyFormat::Text),
        "csv" => Ok(CopyFormat::Csv),
        "binary" => Ok(CopyFormat::Binary),
        other => Err(Error::new(
            ErrorKind::Syntax,
            format!("COPY format \"{other}\" not recognized"),
        )),
    }
}

/// `HEADER`, `HEADER true|on|1`, `HEADER false|off|0`.
fn header(arg: &Arg) -> Result<bool, Error> {
    let value = match arg {
        Arg::None => return Ok(true),
        Arg::Value(value) => value.to_ascii_lowercase(),
        _ => String::new(),
    };
    match value.as_str() {
        "true" | "on" | "1" => Ok(true),
        "false" | "off" | "0" => Ok(false),
        "match" => Err(unsupported("COPY HEADER MATCH is not supported")),
        _ => Err(Error::new(
            ErrorKind::Syntax,
            "HEADER requires a Boolean value or \"match\"",
        )),
    }
}

fn single_byte(option: &str, value: Option<&str>, default: &str) -> Result<u8, Error> {
    match value.unwrap_or(default).as_bytes() {
        [byte] if byte.is_ascii() => Ok(*byte),
        _ => Err(unsupported(&format!(
            "COPY {option} must be a single one-byte character"
        ))),
    }
}

/// The delimiter must be unambiguous: not a line break, not a character that text
/// format's escapes use, not the quote, and not inside the NULL string.
fn check_delimiter(delimiter: u8, quote: u8, null: &str, csv: bool) -> Result<(), Error> {
    let invalid = |message: String| Err(Error::new(ErrorKind::Unsupported, message));
    if delimiter == b'\n' || delimiter == b'\r' {
        return invalid("COPY delimiter cannot be newline or carriage return".into());
    }
    if null.contains(['\n', '\r']) {
        return invalid("COPY null representation cannot use newline or carriage return".into());
    }
    if !csv && b"\\.abcdefghijklmnopqrstuvwxyz0123456789".contains(&delimiter) {
        return invalid(format!(
            "COPY delimiter cannot be \"{}\"",
            char::from(delimiter)
        ));
    }
    if csv && delimiter == quote {
        return invalid("COPY delimiter and quote must be different".into());
    }
    if null.as_bytes().contains(&delimiter) {
        return invalid("COPY delimiter must not appear in the NULL specification".into());
    }
    Ok(())
}

fn unsupported(message: &str) -> Error {
    Error::new(ErrorKind::Unsupported, message)
}
