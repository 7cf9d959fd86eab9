//! PostgreSQL's COPY text and CSV formats, decoded: CopyData messages split rows
//! anywhere, so bytes are buffered up to a record's end, then split into fields,
//! unescaped and typed for the target columns.

use pgwire::api::Type;

use super::params;
use super::types::column_type;
use crate::engine::{Column, Value};
use crate::error::{Error, ErrorKind};
use crate::sql::{CopyFormat, CopyFrom, CopyOptions};

/// Turns the COPY byte stream into rows of values typed for the target columns.
pub struct CopyDecoder {
    options: CopyOptions,
    skip_header: bool,
    types: Vec<Type>,
    buffer: Vec<u8>,
    /// The `\.` end-of-data line was seen: the rest is ignored.
    ended: bool,
    line: u64,
}

impl CopyDecoder {
    pub fn new(spec: &CopyFrom, columns: &[Column]) -> Self {
        CopyDecoder {
            options: spec.options.clone(),
            skip_header: spec.options.header,
            types: columns.iter().map(column_type).collect(),
            buffer: Vec::new(),
            ended: false,
            line: 0,
        }
    }

    /// Adds a chunk of data; returns the rows completed by it.
    pub fn push(&mut self, data: &[u8]) -> Result<Vec<Vec<Value>>, Error> {
        if !self.ended {
            self.buffer.extend_from_slice(data);
        }
        self.take_rows(false)
    }

    /// The stream ended: a last line without a newline is still a row.
    pub fn finish(&mut self) -> Result<Vec<Vec<Value>>, Error> {
        self.take_rows(true)
    }

    fn take_rows(&mut self, at_end: bool) -> Result<Vec<Vec<Value>>, Error> {
        let mut rows = Vec::new();
        let mut consumed = 0;
        while !self.ended {
            let rest = &self.buffer[consumed..];
            let Some(len) = record_end(rest, &self.options)
                .or((at_end && !rest.is_empty()).then_some(rest.len()))
            else {
                break;
            };
            let record = &rest[..len];
            consumed += (len + 1).min(rest.len());
            let record = record.strip_suffix(b"\r").unwrap_or(record);
            self.line += 1;
            if record == b"\\." {
                self.ended = true;
            } else if std::mem::take(&mut self.skip_header) {
                continue;
            } else {
                let fields = match self.options.format {
                    CopyFormat::Text => self.text_fields(record)?,
                    CopyFormat::Csv => self.csv_fields(record)?,
                };
                rows.push(self.typed(fields)?);
            }
        }
        self.buffer.drain(..consumed);
        if self.ended {
            self.buffer.clear();
        }
        Ok(rows)
    }

    fn bad(&self, message: impl Into<String>) -> Error {
        Error::new(
            ErrorKind::BadCopyData,
            format!("{} (COPY line {})", message.into(), self.line),
        )
    }

    /// Text format: delimiter-separated, backslash escapes (an escaped delimiter is
    /// data), the NULL string (`\N`) for NULL.
    fn text_fields(&self, record: &[u8]) -> Result<Vec<Option<String>>, Error> {
        let null = self.options.null.as_bytes();
        split_text(record, self.options.delimiter)
            .into_iter()
            .map(|raw| {
                if raw == null {
                    return Ok(None);
                }
                let bytes =
                    unescape_text(raw).ok_or_else(|| self.bad("invalid backslash escape"))?;
                String::from_utf8(bytes)
                    .map(Some)
                    .map_err(|_| self.bad("invalid UTF-8"))
            })
            .collect()
    }

    /// CSV: fields in quotes may hold anything, with the escape character before a
    /// quote or escape inside them; only an unquoted NULL string is NULL.
    fn csv_fields(&self, record: &[u8]) -> Result<Vec<Option<String>>, Error> {
        let CopyOptions {
            delimiter,
            quote,
            escape,
            ..
        } = self.options;
        let mut fields = Vec::new();
        let mut field = Vec::new();
        let mut quoted = false;
        let mut was_quoted = false;
        let mut i = 0;
        loop {
            let byte = record.get(i).copied();
            match (quoted, byte) {
                (true, Some(b))
                    if b == escape
                        && record
                            .get(i + 1)
                            .is_some_and(|next| *next == quote || *next == escape) =>
                {
                    field.push(record[i + 1]);
                    i += 1;
                }
                (true, Some(b)) if b == quote => quoted = false,
                (true, Some(b)) => field.push(b),
                (true, None) => return Err(self.bad("unterminated CSV quoted field")),
                (false, Some(b)) if b == quote => {
                    quoted = true;
                    was_quoted = true;
                }
                (false, Some(b)) if b != delimiter => field.push(b),
                (false, _) => {
                    fields.push(self.csv_value(std::mem::take(&mut field), was_quoted)?);
                    was_quoted = false;
                    if byte.is_none() {
                        return Ok(fields);
                    }
                }
            }
            i += 1;
        }
    }

    fn csv_value(&self, field: Vec<u8>, was_quoted: bool) -> Result<Option<String>, Error> {
        if !was_quoted && field == self.options.null.as_bytes() {
            return Ok(None);
        }
        String::from_utf8(field)
            .map(Some)
            .map_err(|_| self.bad("invalid UTF-8"))
    }

    fn typed(&self, fields: Vec<Option<String>>) -> Result<Vec<Value>, Error> {
        if fields.len() != self.types.len() {
            let problem = if fields.len() > self.types.len() {
                "extra data after last expected column"
            } else {
                "missing data for a column"
            };
            return Err(self.bad(problem));
        }
        fields
            .into_iter()
            .zip(&self.types)
            .map(|(field, ty)| match field {
                None => Ok(Value::Null),
                Some(text) => params::decode(Some(text.as_bytes()), ty, false)
                    .map_err(|e| self.bad(e.message)),
            })
            .collect()
    }
}

/// Length of the first complete record in `data` (excluding its newline). In CSV a
/// newline inside quotes belongs to the field.
fn record_end(data: &[u8], options: &CopyOptions) -> Option<usize> {
    if options.format == CopyFormat::Text {
        return data.iter().position(|b| *b == b'\n');
    }
    let (quote, escape) = (options.quote, options.escape);
    let mut quoted = false;
    let mut i = 0;
    while i < data.len() {
        let b = data[i];
        let escaped_next = quoted
            && escape != quote
            && b == escape
            && data.get(i + 1).is_some_and(|n| *n == quote || *n == escape);
        if escaped_next {
            i += 1;
        } else if b == quote {
            quoted = !quoted;
        } else if b == b'\n' && !quoted {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// Splits a text-format record at each delimiter that is not backslash-escaped.
fn split_text(record: &[u8], delimiter: u8) -> Vec<&[u8]> {
    let mut fields = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < record.len() {
        if record[i] == b'\\' {
            i += 2;
            continue;
        }
        if record[i] == delimiter {
            fields.push(&record[start..i]);
            start = i + 1;
        }
        i += 1;
    }
    fields.push(&record[start.min(record.len())..]);
    fields
}

/// PostgreSQL's text-format escapes: `\b \f \n \r \t \v \\`, octal `\NNN`, `\xHH`;
/// any other escaped character stands for itself.
fn unescape_text(raw: &[u8]) -> Option<Vec<u8>> {
    if !raw.contains(&b'\\') {
        return Some(raw.to_vec());
    }
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] != b'\\' {
            out.push(raw[i]);
            i += 1;
            continue;
        }
        let c = *raw.get(i + 1)?;
        i += 2;
        match c {
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'v' => out.push(11),
            b'0'..=b'7' => {
                let mut value = u32::from(c - b'0');
                while i < raw.len() && (b'0'..=b'7').contains(&raw[i]) && value < 0o40 {
                    value = value * 8 + u32::from(raw[i] - b'0');
                    i += 1;
                }
                out.push(value as u8);
            }
            b'x' if raw.get(i).is_some_and(u8::is_ascii_hexdigit) => {
                let digits = raw[i..]
                    .iter()
                    .take(2)
                    .take_while(|b| b.is_ascii_hexdigit())
                    .count();
                let hex = std::str::from_utf8(&raw[i..i + digits]).ok()?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += digits;
            }
            other => out.push(other),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(format: CopyFormat) -> CopyFrom {
        let options = match format {
            CopyFormat::Text => "",
            CopyFormat::Csv => "WITH (FORMAT csv, HEADER)",
        };
        from(&format!("COPY t FROM STDIN {options}"))
    }

    fn from(sql: &str) -> CopyFrom {
        match crate::sql::parse_single(sql).unwrap().unwrap().plan {
            crate::sql::Plan::CopyFrom(spec) => (*spec).clone(),
            other => panic!("{other:?}"),
        }
    }

    fn columns(decls: &[&str]) -> Vec<Column> {
        decls
            .iter()
            .map(|d| Column {
                name: "c".into(),
                decltype: Some((*d).into()),
                storage: None,
            })
            .collect()
    }

    #[test]
    fn text_rows_split_across_chunks() {
        let mut decoder = CopyDecoder::new(&spec(CopyFormat::Text), &columns(&["int", "text"]));
        assert!(decoder.push(b"1\ta\\tb").unwrap().is_empty());
        let rows = decoder.push(b"\\\\c\n2\t\\N\n\\.\nignored").unwrap();
        assert_eq!(
            rows,
            vec![
                vec![Value::Integer(1), Value::Text("a\tb\\c".into())],
                vec![Value::Integer(2), Value::Null]
            ]
        );
        assert!(decoder.finish().unwrap().is_empty());
    }

    #[test]
    fn text_escapes() {
        assert_eq!(
            unescape_text(br"a\nb\101\x41\\"),
            Some(b"a\nbAA\\".to_vec())
        );
    }

    #[test]
    fn csv_with_header_quotes_and_newlines() {
        let mut decoder = CopyDecoder::new(&spec(CopyFormat::Csv), &columns(&["int", "text"]));
        let rows = decoder
            .push(b"id,name\n1,\"a,\"\"b\"\"\nc\"\n2,\n3,\"\"")
            .unwrap();
        assert_eq!(
            rows,
            vec![
                vec![Value::Integer(1), Value::Text("a,\"b\"\nc".into())],
                vec![Value::Integer(2), Value::Null]
            ]
        );
        assert_eq!(
            decoder.finish().unwrap(),
            vec![vec![Value::Integer(3), Value::Text(String::new())]]
        );
    }

    #[test]
    fn malformed_rows_are_errors() {
        let mut decoder = CopyDecoder::new(&spec(CopyFormat::Text), &columns(&["int", "text"]));
        assert!(decoder.push(b"1\ta\textra\n").is_err());
        let mut decoder = CopyDecoder::new(&spec(CopyFormat::Text), &columns(&["int", "text"]));
        assert!(decoder.push(b"notanumber\ta\n").is_err());
    }

    #[test]
    fn escaped_delimiters_quotes_and_escapes() {
        let text = from("COPY t FROM STDIN WITH DELIMITER AS ','");
        let mut decoder = CopyDecoder::new(&text, &columns(&["text", "text"]));
        assert_eq!(
            decoder.push(b"a\\\\,b\\,c\n\\N,x").unwrap(),
            vec![vec![Value::Text(r"a\".into()), Value::Text("b,c".into())]]
        );
        assert_eq!(
            decoder.finish().unwrap(),
            vec![vec![Value::Null, Value::Text("x".into())]]
        );
        let csv = from(r"COPY t FROM STDIN WITH CSV QUOTE AS '''' ESCAPE AS '\' NULL AS 'n'");
        let mut decoder = CopyDecoder::new(&csv, &columns(&["text", "text"]));
        assert_eq!(
            decoder.push(b"'it\\'s\n\\\\',n\n'n',\\x\n").unwrap(),
            vec![
                vec![Value::Text("it's\n\\".into()), Value::Null],
                vec![Value::Text("n".into()), Value::Text("\\x".into())],
            ]
        );
    }
}
