//! The `COPY` statement read: the table (and its columns) or the query, the
//! direction, the client's end of it, and the options, into the plan the front
//! end runs (see [`super`]).

use std::sync::Arc;

use super::super::lexer::TokenKind;
use super::super::rewrite::Rewrite;
use super::super::statement::{CopyFrom, CopyTo, ParseQuery, Plan, Statement};
use super::super::words::Words;
use super::option_syntax::{Arg, generic_options, legacy_options};
use super::options::resolve;
use crate::error::{Error, ErrorKind};

/// What the statement names before `TO` / `FROM`.
enum Target {
    Table { table: String, columns: Vec<String> },
    Query(String),
}

/// `COPY [BINARY] target FROM STDIN | TO STDOUT [[WITH] options]`; the query of
/// `COPY (query) TO` is read by `parse_query`.
pub(crate) fn parse(w: &Words, parse_query: ParseQuery<'_>) -> Result<Rewrite, Error> {
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
        return Err(w.syntax_error(i));
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
            let query = query(target, parse_query)?;
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
        let close = w.closing(i).ok_or_else(|| w.syntax_error(i))?;
        if close == i + 1 {
            return Err(w.syntax_error(close));
        }
        let sql = &w.sql[w.tokens[i + 1].start..w.tokens[close - 1].end];
        return Ok((Target::Query(sql.to_owned()), close + 1));
    }
    let (table, i) = w.name(i).ok_or_else(|| w.syntax_error(i))?;
    if w.kind(i) != Some(TokenKind::LeftParen) {
        return Ok((
            Target::Table {
                table,
                columns: Vec::new(),
            },
            i,
        ));
    }
    let (columns, i) = w.parenthesized_names(i)?;
    Ok((Target::Table { table, columns }, i))
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
        return Err(w.syntax_error(i));
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

/// The statement whose rows `COPY ... TO` sends.
fn query(target: Target, parse_query: ParseQuery<'_>) -> Result<Statement, Error> {
    let sql = match target {
        Target::Table { table, columns } if columns.is_empty() => format!("SELECT * FROM {table}"),
        Target::Table { table, columns } => {
            format!("SELECT {} FROM {table}", columns.join(", "))
        }
        Target::Query(sql) => sql,
    };
    match parse_query(&sql)? {
        Some(statement) if statement.returns_rows => Ok(statement),
        _ => Err(Error::new(
            ErrorKind::Unsupported,
            "COPY (query) TO needs a query that returns rows: SELECT, VALUES, or \
             INSERT/UPDATE/DELETE ... RETURNING",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::{Action, CopyFormat, CopyOptions, ForceQuote, parse_single};

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
