//! `COPY ... TO STDOUT` on the wire: CopyOutResponse, an optional header line, one
//! CopyData per row in PostgreSQL's text or CSV format, CopyDone, then `COPY n`
//! (`rows` sends them as the query produces its rows; this file encodes the lines).
//!
//! Values are first printed as PostgreSQL prints them (the same text output as a
//! DataRow), then escaped or quoted for the format, byte for byte as PostgreSQL's
//! own COPY writes them, so that files made here load anywhere PostgreSQL's do.

use bytes::{BufMut, Bytes, BytesMut};
use pgwire::api::Type;

use super::types::{FieldType, TextFormat, encode_text};
use crate::engine::{Column, Value};
use crate::sql::{CopyFormat, CopyOptions, ForceQuote};

/// Writes rows as lines of the COPY format, one buffer reused for all of them.
pub struct CopyEncoder<'a> {
    options: &'a CopyOptions,
    types: Vec<FieldType>,
    /// Per column: quoted in CSV even when it does not need to be.
    force_quote: Vec<bool>,
    line: BytesMut,
    value: BytesMut,
    /// How floats print (the session's `extra_float_digits`: pg_dump sets 3).
    digits: TextFormat,
}

impl<'a> CopyEncoder<'a> {
    pub fn new(options: &'a CopyOptions, columns: &[Column], digits: TextFormat) -> Self {
        let force_quote = columns
            .iter()
            .map(|column| match &options.force_quote {
                ForceQuote::None => false,
                ForceQuote::All => true,
                ForceQuote::Columns(names) => {
                    names.iter().any(|n| n.eq_ignore_ascii_case(&column.name))
                }
            })
            .collect();
        CopyEncoder {
            options,
            types: columns.iter().map(FieldType::of).collect(),
            force_quote,
            line: BytesMut::new(),
            value: BytesMut::new(),
            digits,
        }
    }

    /// The header line: the column names, escaped or quoted like any value.
    pub fn header(&mut self, columns: &[Column]) -> Bytes {
        for (i, column) in columns.iter().enumerate() {
            self.separate(i);
            self.field(column.name.as_bytes(), false);
        }
        self.end_line()
    }

    /// One row as a line; NULLs as the NULL string, never quoted or escaped.
    pub fn row(&mut self, row: &[Value]) -> Bytes {
        for (i, value) in row.iter().enumerate() {
            self.separate(i);
            if matches!(value, Value::Null) {
                self.line.put_slice(self.options.null.as_bytes());
                continue;
            }
            let text = FieldType::plain(Type::TEXT);
            let ty = self.types.get(i).unwrap_or(&text);
            let mut printed = std::mem::take(&mut self.value);
            printed.clear();
            encode_text(&mut printed, value, ty, &self.digits);
            self.field(&printed, self.force_quote.get(i).copied().unwrap_or(false));
            self.value = printed;
        }
        self.end_line()
    }

    fn separate(&mut self, column: usize) {
        if column > 0 {
            self.line.put_u8(self.options.delimiter);
        }
    }

    fn field(&mut self, text: &[u8], force_quote: bool) {
        match self.options.format {
            // COPY TO in binary is refused when the statement is parsed.
            CopyFormat::Text | CopyFormat::Binary => {
                escape_text(&mut self.line, text, self.options.delimiter)
            }
            CopyFormat::Csv => {
                let single_column = self.types.len() == 1;
                quote_csv(
                    &mut self.line,
                    text,
                    self.options,
                    force_quote,
                    single_column,
                )
            }
        }
    }

    fn end_line(&mut self) -> Bytes {
        self.line.put_u8(b'\n');
        self.line.split().freeze()
    }
}

/// Text format: backslash, the delimiter and the control characters that have a
/// letter escape are backslash-escaped; other bytes pass as they are.
fn escape_text(out: &mut BytesMut, text: &[u8], delimiter: u8) {
    for &byte in text {
        let escape = match byte {
            b'\\' => Some(b'\\'),
            b'\x08' => Some(b'b'),
            b'\x0c' => Some(b'f'),
            b'\n' => Some(b'n'),
            b'\r' => Some(b'r'),
            b'\t' => Some(b't'),
            b'\x0b' => Some(b'v'),
            _ if byte == delimiter => Some(byte),
            _ => None,
        };
        match escape {
            Some(letter) => {
                out.put_u8(b'\\');
                out.put_u8(letter);
            }
            None => out.put_u8(byte),
        }
    }
}

/// CSV: a field is quoted when asked to, when it would read back as NULL (it
/// equals the NULL string), when it holds the delimiter, the quote or a line break,
/// or when it is `\.` alone on its line (the end-of-data marker). Inside quotes the
/// quote and escape characters are preceded by the escape character.
fn quote_csv(
    out: &mut BytesMut,
    text: &[u8],
    options: &CopyOptions,
    force: bool,
    single_column: bool,
) {
    let CopyOptions {
        delimiter,
        quote,
        escape,
        ..
    } = *options;
    let needs_quotes = force
        || text == options.null.as_bytes()
        || (single_column && text == b"\\.")
        || text
            .iter()
            .any(|&b| b == delimiter || b == quote || b == b'\n' || b == b'\r');
    if !needs_quotes {
        out.put_slice(text);
        return;
    }
    out.put_u8(quote);
    for &byte in text {
        if byte == quote || byte == escape {
            out.put_u8(escape);
        }
        out.put_u8(byte);
    }
    out.put_u8(quote);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::{Plan, parse_single};

    fn options(sql: &str) -> CopyOptions {
        match parse_single(sql).unwrap().unwrap().plan {
            Plan::CopyTo(spec) => spec.options.clone(),
            other => panic!("{other:?}"),
        }
    }

    fn columns(decls: &[&str]) -> Vec<Column> {
        decls
            .iter()
            .enumerate()
            .map(|(i, d)| Column {
                name: format!("c{i}"),
                decltype: Some((*d).into()),
                storage: None,
            })
            .collect()
    }

    fn line(sql: &str, decls: &[&str], row: &[Value]) -> String {
        let options = options(sql);
        let columns = columns(decls);
        let bytes = CopyEncoder::new(&options, &columns, TextFormat::default()).row(row);
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn text_escapes_like_postgres() {
        let row = [
            Value::Text("a\tb\nc\\d\r\x08\x0c\x0b\x01".into()),
            Value::Null,
            Value::Blob(vec![0, 255]),
            Value::Integer(1),
        ];
        assert_eq!(
            line("COPY t TO STDOUT", &["text", "text", "bytea", "bool"], &row),
            "a\\tb\\nc\\\\d\\r\\b\\f\\v\x01\t\\N\t\\\\x00ff\tt\n"
        );
        assert_eq!(
            line(
                "COPY t TO STDOUT WITH DELIMITER ',' NULL ''",
                &["text", "text"],
                &[Value::Text("x,y".into()), Value::Null]
            ),
            "x\\,y,\n"
        );
    }

    #[test]
    fn csv_quotes_only_what_needs_it() {
        let row = [
            Value::Text(" sp ,\"q\"".into()),
            Value::Text(String::new()),
            Value::Null,
            Value::Text("a\\b".into()),
            Value::Text("\\.".into()),
        ];
        let decls = ["text"; 5];
        assert_eq!(
            line("COPY t TO STDOUT (FORMAT csv)", &decls, &row),
            "\" sp ,\"\"q\"\"\",\"\",,a\\b,\\.\n"
        );
        assert_eq!(
            line(
                r"COPY t TO STDOUT WITH CSV ESCAPE '\' FORCE QUOTE *",
                &decls,
                &row
            ),
            "\" sp ,\\\"q\\\"\",\"\",,\"a\\\\b\",\"\\\\.\"\n"
        );
        assert_eq!(
            line(
                "COPY t TO STDOUT (FORMAT csv)",
                &["text"],
                &[Value::Text("\\.".into())]
            ),
            "\"\\.\"\n"
        );
    }
}
