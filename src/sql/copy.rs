//! `COPY`: what is copied, in which direction, in which format.
//!
//! `COPY t [(cols)] FROM STDIN` and `COPY t [(cols)] | (query) TO STDOUT` become
//! plans the PostgreSQL front end runs through its copy sub-protocol. Options come
//! in PostgreSQL's two spellings, `WITH (FORMAT csv, HEADER true, ...)` and the
//! older `WITH CSV HEADER DELIMITER AS ','` that psql's `\copy` passes through as
//! the user typed it; both are read into one list of options, then checked and
//! resolved once, so the front end sees only [`CopyOptions`] with defaults filled in.
//!
//! A file name or `PROGRAM` would be read or written by the server, on the server's
//! filesystem, on behalf of a remote client: that is refused.

use std::sync::Arc;

use super::lexer::TokenKind;
use super::quote::{unquote_identifier, unquote_literal};
use super::translate::Rewrite;
use super::words::Words;
use super::{Plan, Statement};
use crate::error::{Error, ErrorKind};

/// `COPY ... FROM STDIN`: the target table and how its rows are written.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyFrom {
    pub table: String,
    /// Empty: every column of the table, in order.
    pub columns: Vec<String>,
    pub options: CopyOptions,
}

/// `COPY ... TO STDOUT`: the query whose rows are sent, and how they are written.
#[derive(Debug, Clone, PartialEq)]
pub struct CopyTo {
    /// `SELECT cols FROM t` for a table, or the parenthesized query itself.
    pub query: Statement,
    pub options: CopyOptions,
}

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

/// What the statement names before `TO` / `FROM`.
enum Target {
    Table { table: String, columns: Vec<String> },
    Query(String),
}

/// An option's argument as written: none, one word or string, `*`, or `(cols)`.
#[derive(Debug, Clone, PartialEq)]
enum Arg {
    None,
    Value(String),
    Star,
    Columns(Vec<String>),
}

/// `COPY [BINARY] target FROM STDIN | TO STDOUT [[WITH] options]`.
pub(super) fn parse(w: &Words) -> Result<Rewrite, Error> {
    let mut i = 1;
    let mut options = Vec::new();
    if w.is(i, "BINARY") {
        options.push(("format".to_owned(), Arg::Value("binary".to_owned())));
        i += 1;
    }
    let (target, i) = target(w, i)?;
    let to = if w.is(i, "TO") {
        true
    } else if w.is(i, "FROM") {
        false
    } else {
        return Err(syntax_near(w, i));
    };
    endpoint(w, i + 1, to)?;
    let mut i = i + 2;
    if w.is(i, "WITH") {
        i += 1;
    }
    if w.kind(i) == Some(TokenKind::LeftParen) {
        options.extend(generic_options(w, i)?);
    } else {
        options.extend(legacy_options(w, i)?);
    }
    let options = resolve(&options, to)?;
    match (target, to) {
        (Target::Table { table, columns }, false) => Ok(Rewrite {
            sql: String::new(),
            plan: Plan::CopyFrom(Arc::new(CopyFrom {
                table,
                columns,
                options,
            })),
        }),
        (Target::Query(_), false) => Err(Error::new(
            ErrorKind::Syntax,
            "COPY FROM copies into a table, not into a query",
        )),
        (target, true) => {
            let query = query(target)?;
            Ok(Rewrite {
                sql: query.sql.to_string(),
                plan: Plan::CopyTo(Arc::new(CopyTo { query, options })),
            })
        }
    }
}

/// The table (with its optional column list) or the parenthesized query at `i`.
fn target(w: &Words, i: usize) -> Result<(Target, usize), Error> {
    if w.kind(i) == Some(TokenKind::LeftParen) {
        let close = w.closing(i).ok_or_else(|| syntax_near(w, i))?;
        if close == i + 1 {
            return Err(syntax_near(w, close));
        }
        let sql = &w.sql[w.tokens[i + 1].start..w.tokens[close - 1].end];
        return Ok((Target::Query(sql.to_owned()), close + 1));
    }
    let (table, i) = w.name(i).ok_or_else(|| syntax_near(w, i))?;
    if w.kind(i) != Some(TokenKind::LeftParen) {
        return Ok((
            Target::Table {
                table,
                columns: Vec::new(),
            },
            i,
        ));
    }
    let (columns, i) = parenthesized_names(w, i)?;
    Ok((Target::Table { table, columns }, i))
}

/// The names in the parentheses opening at `open`, and the index after them.
fn parenthesized_names(w: &Words, open: usize) -> Result<(Vec<String>, usize), Error> {
    let close = w.closing(open).ok_or_else(|| syntax_near(w, open))?;
    let (names, end) = w.name_list(open + 1, &[]);
    if end != close || names.is_empty() {
        return Err(syntax_near(w, end));
    }
    Ok((names, close + 1))
}

/// `STDIN` / `STDOUT` are the client. A file name or `PROGRAM` would be the
/// server's, which a remote client must not reach.
fn endpoint(w: &Words, i: usize, to: bool) -> Result<(), Error> {
    if w.is(i, "STDIN") || w.is(i, "STDOUT") {
        return Ok(());
    }
    let what = if w.is(i, "PROGRAM") {
        "a program"
    } else if w.kind(i) == Some(TokenKind::String) {
        "a file"
    } else {
        return Err(syntax_near(w, i));
    };
    let (direction, client_side) = if to {
        ("to", "COPY ... TO STDOUT")
    } else {
        ("from", "COPY ... FROM STDIN")
    };
    Err(Error::new(
        ErrorKind::InsufficientPrivilege,
        format!(
            "COPY {direction} {what} on the server is not allowed: litewire's clients cannot \
             reach its filesystem. Use {client_side}, or psql's \\copy, which reads and writes \
             files on the client."
        ),
    ))
}

/// `( name [arg] [, ...] )` starting at the parenthesis `open`.
fn generic_options(w: &Words, open: usize) -> Result<Vec<(String, Arg)>, Error> {
    let close = w.closing(open).ok_or_else(|| syntax_near(w, open))?;
    if close + 1 != w.tokens.len() {
        return Err(syntax_near(w, close + 1));
    }
    let mut options = Vec::new();
    let mut i = open + 1;
    while i < close {
        if w.kind(i) != Some(TokenKind::Word) {
            return Err(syntax_near(w, i));
        }
        let name = w.text(i).to_ascii_lowercase();
        let (arg, next) = match w.kind(i + 1) {
            _ if i + 1 == close || w.text(i + 1) == "," => (Arg::None, i + 1),
            Some(TokenKind::LeftParen) => {
                let (columns, next) = parenthesized_names(w, i + 1)?;
                (Arg::Columns(columns), next)
            }
            _ if w.text(i + 1) == "*" => (Arg::Star, i + 2),
            Some(TokenKind::Word | TokenKind::String | TokenKind::Number) => {
                (Arg::Value(unquote_literal(w.text(i + 1))), i + 2)
            }
            _ => return Err(syntax_near(w, i + 1)),
        };
        options.push((name, arg));
        i = next;
        if w.text(i) == "," && i + 1 < close {
            i += 1;
        } else if i != close {
            return Err(syntax_near(w, i));
        }
    }
    Ok(options)
}

/// The pre-9.0 spelling, still what most people type after psql's `\copy`:
/// `CSV HEADER DELIMITER [AS] ',' NULL [AS] '' QUOTE [AS] '"' ESCAPE [AS] '"'
/// FORCE QUOTE cols|* FORCE NOT NULL cols BINARY FREEZE ENCODING 'x'`.
fn legacy_options(w: &Words, mut i: usize) -> Result<Vec<(String, Arg)>, Error> {
    let mut options = Vec::new();
    while i < w.tokens.len() {
        let word = w.text(i).to_ascii_lowercase();
        let option = match word.as_str() {
            "csv" | "binary" => ("format".to_owned(), Arg::Value(word.clone())),
            "header" | "freeze" => (word.clone(), Arg::None),
            "delimiter" | "null" | "quote" | "escape" | "encoding" => {
                if w.is(i + 1, "AS") {
                    i += 1;
                }
                if w.kind(i + 1) != Some(TokenKind::String) {
                    return Err(syntax_near(w, i + 1));
                }
                i += 1;
                (word.clone(), Arg::Value(unquote_literal(w.text(i))))
            }
            "force" => {
                let (option, arg, next) = legacy_force(w, i + 1)?;
                options.push((option, arg));
                i = next;
                continue;
            }
            _ => return Err(syntax_near(w, i)),
        };
        options.push(option);
        i += 1;
    }
    Ok(options)
}

/// `FORCE QUOTE cols|*`, `FORCE NOT NULL cols`, `FORCE NULL cols` (columns without
/// parentheses), from the word after `FORCE`.
fn legacy_force(w: &Words, i: usize) -> Result<(String, Arg, usize), Error> {
    let (option, at) = if w.is(i, "QUOTE") {
        ("force_quote", i + 1)
    } else if w.is(i, "NOT") && w.is(i + 1, "NULL") {
        ("force_not_null", i + 2)
    } else if w.is(i, "NULL") {
        ("force_null", i + 1)
    } else {
        return Err(syntax_near(w, i));
    };
    if w.text(at) == "*" {
        return Ok((option.to_owned(), Arg::Star, at + 1));
    }
    let option_words = [
        "CSV",
        "BINARY",
        "HEADER",
        "FREEZE",
        "DELIMITER",
        "NULL",
        "QUOTE",
        "ESCAPE",
        "ENCODING",
        "FORCE",
    ];
    let (columns, next) = w.name_list(at, &option_words);
    if columns.is_empty() {
        return Err(syntax_near(w, at));
    }
    Ok((option.to_owned(), Arg::Columns(columns), next))
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
fn resolve(options: &[(String, Arg)], to: bool) -> Result<CopyOptions, Error> {
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

/// The statement whose rows `COPY ... TO` sends.
fn query(target: Target) -> Result<Statement, Error> {
    let sql = match target {
        Target::Table { table, columns } if columns.is_empty() => format!("SELECT * FROM {table}"),
        Target::Table { table, columns } => {
            format!("SELECT {} FROM {table}", columns.join(", "))
        }
        Target::Query(sql) => sql,
    };
    match super::parse_single(&sql)? {
        Some(statement) if statement.returns_rows => Ok(statement),
        _ => Err(unsupported(
            "COPY (query) TO needs a query that returns rows: SELECT, VALUES, or \
             INSERT/UPDATE/DELETE ... RETURNING",
        )),
    }
}

fn unsupported(message: &str) -> Error {
    Error::new(ErrorKind::Unsupported, message)
}

fn syntax_near(w: &Words, i: usize) -> Error {
    let message = match w.tokens.get(i) {
        Some(_) => format!("syntax error at or near \"{}\"", w.text(i)),
        None => "syntax error at end of input".to_owned(),
    };
    Error::new(ErrorKind::Syntax, message)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::{Action, parse_single};

    fn plan(sql: &str) -> Plan {
        parse_single(sql).unwrap().unwrap().plan
    }

    fn copy_to(sql: &str) -> CopyTo {
        match plan(sql) {
            Plan::CopyTo(spec) => (*spec).clone(),
            other => panic!("{sql}: {other:?}"),
        }
    }

    fn copy_from(sql: &str) -> CopyFrom {
        match plan(sql) {
            Plan::CopyFrom(spec) => (*spec).clone(),
            other => panic!("{sql}: {other:?}"),
        }
    }

    fn error(sql: &str) -> Error {
        parse_single(sql).unwrap_err()
    }

    #[test]
    fn defaults_follow_the_format() {
        let text = copy_to("COPY t TO STDOUT").options;
        assert_eq!(
            (text.format, text.delimiter, text.null.as_str(), text.header),
            (CopyFormat::Text, b'\t', "\\N", false)
        );
        let csv = copy_to("COPY t TO STDOUT CSV").options;
        assert_eq!(
            (csv.delimiter, csv.null.as_str(), csv.quote, csv.escape),
            (b',', "", b'"', b'"')
        );
        assert_eq!(
            copy_to("copy t to stdout with (quote '''', format csv)")
                .options
                .escape,
            b'\''
        );
    }

    #[test]
    fn both_option_spellings_read_the_same() {
        let generic = copy_to(
            "COPY t TO STDOUT WITH (FORMAT csv, HEADER true, DELIMITER ';', NULL 'n', \
             QUOTE '''', ESCAPE E'\\\\', FORCE_QUOTE (a, \"B\"))",
        );
        // psql's `\copy t to stdout with ...` sends this spelling as typed.
        let legacy = copy_to(
            "COPY  t TO STDOUT with csv header delimiter as ';' null as 'n' \
             quote as '''' escape as '\\' force quote a, \"B\"",
        );
        assert_eq!(generic, legacy);
        assert_eq!(
            generic.options,
            CopyOptions {
                format: CopyFormat::Csv,
                delimiter: b';',
                null: "n".into(),
                header: true,
                quote: b'\'',
                escape: b'\\',
                force_quote: ForceQuote::Columns(vec!["a".into(), "B".into()]),
            }
        );
        assert_eq!(
            copy_to("COPY t TO STDOUT (FORMAT csv, FORCE_QUOTE *)")
                .options
                .force_quote,
            ForceQuote::All
        );
        assert!(!copy_to("COPY t TO STDOUT (HEADER off)").options.header);
        assert!(
            copy_from("COPY t FROM STDIN WITH ENCODING 'utf-8' FREEZE")
                .options
                .format
                == CopyFormat::Text
        );
    }

    #[test]
    fn tables_columns_and_queries() {
        let table = copy_to("COPY public.t (a, \"b c\") TO STDOUT");
        assert_eq!(&*table.query.sql, "SELECT a, \"b c\" FROM t");
        let query = copy_to("COPY  ( select * from t where a = 'x)' ) TO STDOUT with csv header");
        assert_eq!(&*query.query.sql, "select * from t where a = 'x)'");
        assert_eq!(query.query.action, Action::Read);
        let returning = parse_single("COPY (INSERT INTO t VALUES (1) RETURNING a) TO STDOUT")
            .unwrap()
            .unwrap();
        assert_eq!(
            returning.action,
            Action::Write,
            "COPY TO writes what its query writes"
        );
        let from = copy_from("COPY  t (a, b) FROM STDIN with csv header");
        assert_eq!(
            (from.table.as_str(), from.columns, from.options.header),
            ("t", vec!["a".to_owned(), "b".to_owned()], true)
        );
        assert!(
            copy_from("copy pgbench_accounts from stdin with (freeze on)")
                .columns
                .is_empty()
        );
    }

    #[test]
    fn server_files_and_programs_are_refused() {
        for sql in [
            "COPY t TO '/tmp/out'",
            "COPY t FROM '/etc/passwd'",
            "COPY t TO PROGRAM 'cat'",
            "COPY (SELECT 1) TO '/tmp/x' WITH CSV",
        ] {
            assert_eq!(error(sql).kind, ErrorKind::InsufficientPrivilege, "{sql}");
        }
        assert!(error("COPY t TO '/tmp/out'").message.contains("\\copy"));
    }

    #[test]
    fn binary_from_stdin() {
        for sql in [
            "COPY BINARY t FROM STDIN",
            "COPY t (a, b) FROM STDIN (FORMAT binary)",
            "copy t from stdin with binary",
        ] {
            assert_eq!(copy_from(sql).options.format, CopyFormat::Binary, "{sql}");
        }
    }

    #[test]
    fn invalid_options_are_errors() {
        let cases = [
            ("COPY t TO STDOUT (FORMAT binary)", ErrorKind::Unsupported),
            ("COPY BINARY t TO STDOUT", ErrorKind::Unsupported),
            (
                "COPY t FROM STDIN (FORMAT binary, HEADER)",
                ErrorKind::Syntax,
            ),
            ("COPY t FROM STDIN WITH BINARY NULL 'x'", ErrorKind::Syntax),
            ("COPY t TO STDOUT (FORMAT xml)", ErrorKind::Syntax),
            ("COPY t TO STDOUT (QUOTE '\"')", ErrorKind::Unsupported),
            ("COPY t TO STDOUT (DELIMITER ',,')", ErrorKind::Unsupported),
            (
                "COPY t TO STDOUT (FORMAT csv, DELIMITER '\"')",
                ErrorKind::Unsupported,
            ),
            ("COPY t TO STDOUT (DELIMITER 'a')", ErrorKind::Unsupported),
            ("COPY t TO STDOUT (HEADER, HEADER)", ErrorKind::Syntax),
            ("COPY t TO STDOUT (BOGUS 1)", ErrorKind::Syntax),
            (
                "COPY t FROM STDIN (FORMAT csv, FORCE_QUOTE *)",
                ErrorKind::Unsupported,
            ),
            (
                "COPY t TO STDOUT WITH CSV FORCE NOT NULL a",
                ErrorKind::Unsupported,
            ),
            ("COPY (SELECT 1) FROM STDIN", ErrorKind::Syntax),
            (
                "COPY (CREATE TABLE x (a)) TO STDOUT",
                ErrorKind::Unsupported,
            ),
            ("COPY t TO STDOUT (FORMAT csv", ErrorKind::Syntax),
            ("COPY t", ErrorKind::Syntax),
        ];
        for (sql, kind) in cases {
            assert_eq!(error(sql).kind, kind, "{sql}");
        }
    }

    #[test]
    fn escape_strings() {
        // psql's `\copy ... delimiter E'\t'` and friends: options spelled as
        // escape strings mean what their escapes say.
        let tab = copy_from("COPY t FROM STDIN WITH (DELIMITER E'\\t')").options;
        assert_eq!(tab.delimiter, b'\t');
        let legacy = copy_from("COPY t FROM STDIN DELIMITER AS E'|' NULL AS E'\\\\N'").options;
        assert_eq!((legacy.delimiter, legacy.null.as_str()), (b'|', "\\N"));
        let quote = copy_from("COPY t FROM STDIN WITH (FORMAT csv, QUOTE E'\\'')").options;
        assert_eq!((quote.quote, quote.escape), (b'\'', b'\''));
        // An escape that makes a delimiter of more than one byte is refused (0A000, as in PostgreSQL).
        assert_eq!(
            error("COPY t FROM STDIN WITH (DELIMITER E'\\t\\t')").kind,
            ErrorKind::Unsupported
        );
    }
}
