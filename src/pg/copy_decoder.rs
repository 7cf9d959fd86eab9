//! PostgreSQL's COPY text, CSV and binary formats, decoded: CopyData messages
//! split rows anywhere, so bytes are buffered up to a record's end, then split
//! into fields, unescaped (text, CSV) and typed for the target columns. Binary
//! fields are each column type's binary form, decoded as binary parameters are.

use pgwire::api::Type;

use super::params;
use super::types::column_type;
use crate::engine::{Column, Value};
use crate::error::{Error, ErrorKind};
use crate::sql::time_zone::Zone;
use crate::sql::{CopyFormat, CopyFrom, CopyOptions};

/// Turns the COPY byte stream into rows of values typed for the target columns.
pub struct CopyDecoder {
    options: CopyOptions,
    /// A CSV/text HEADER line, or the binary format's file header, is still ahead.
    skip_header: bool,
    types: Vec<Type>,
    buffer: Vec<u8>,
    /// The `\.` end-of-data line was seen: the rest is ignored.
    ended: bool,
    line: u64,
    /// The session's time zone: a timestamptz without an offset is its local
    /// time (`None`: UTC).
    zone: Option<Zone>,
}

impl CopyDecoder {
    pub fn new(spec: &CopyFrom, columns: &[Column]) -> Self {
        CopyDecoder {
            options: spec.options.clone(),
            skip_header: spec.options.header || spec.options.format == CopyFormat::Binary,
            types: columns.iter().map(column_type).collect(),
            buffer: Vec::new(),
            ended: false,
            line: 0,
            zone: None,
        }
    }

    /// Reads timestamptz values without an offset as `zone`'s local time.
    pub fn in_zone(self, zone: Option<Zone>) -> Self {
        CopyDecoder { zone, ..self }
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
        if self.options.format == CopyFormat::Binary {
            return self.take_binary_rows(at_end);
        }
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
                    CopyFormat::Csv => self.csv_fields(record)?,
                    CopyFormat::Text | CopyFormat::Binary => self.text_fields(record)?,
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

    /// Binary format: the signature, flags and a header extension; then per row
    /// a 16-bit field count and each field as a 32-bit length (-1: NULL) and its
    /// bytes; a count of -1 ends the data.
    fn take_binary_rows(&mut self, at_end: bool) -> Result<Vec<Vec<Value>>, Error> {
        let mut consumed = 0;
        if self.skip_header {
            match binary_header_len(&self.buffer) {
                Ok(Some(len)) => {
                    consumed = len;
                    self.skip_header = false;
                }
                Ok(None) if !at_end => return Ok(Vec::new()),
                Ok(None) => return Err(self.bad("unexpected EOF in COPY binary header")),
                Err(message) => return Err(self.bad(message)),
            }
        }
        let mut rows = Vec::new();
        while !self.ended {
            let rest = &self.buffer[consumed..];
            let Some(count) = be_i16(rest, 0) else {
                break;
            };
            if count == -1 {
                self.ended = true;
                break;
            }
            let Some((len, fields)) = binary_fields(rest, count) else {
                break;
            };
            self.line += 1;
            let row = self.typed_binary(&self.buffer[consumed..], &fields)?;
            rows.push(row);
            consumed += len;
        }
        if at_end && !self.ended && consumed < self.buffer.len() {
            return Err(self.bad("unexpected EOF in COPY data"));
        }
        self.buffer.drain(..consumed);
        if self.ended {
            self.buffer.clear();
        }
        Ok(rows)
    }

    /// One binary row: `fields` are ranges into `record` (None: NULL).
    fn typed_binary(
        &self,
        record: &[u8],
        fields: &[Option<std::ops::Range<usize>>],
    ) -> Result<Vec<Value>, Error> {
        if fields.len() != self.types.len() {
            return Err(self.bad(format!(
                "row field count is {}, expected {}",
                fields.len(),
                self.types.len()
            )));
        }
        fields
            .iter()
            .zip(&self.types)
            .map(|(field, ty)| {
                let raw = field.clone().map(|range| &record[range]);
                params::decode(raw, ty, true, None).map_err(|e| self.bad(e.message))
            })
            .collect()
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
                Some(text) => params::decode(Some(text.as_bytes()), ty, false, self.zone.as_ref())
                    .map_err(|e| self.bad(e.message)),
            })
            .collect()
    }
}

/// The binary format's file header: this signature, 32-bit flags, then a
/// header extension of the 32-bit length that follows.
const BINARY_SIGNATURE: &[u8] = b"PGCOPY\n\xff\r\n\0";

/// Length of the binary header at the start of `data`; None while incomplete.
fn binary_header_len(data: &[u8]) -> Result<Option<usize>, &'static str> {
    let fixed = BINARY_SIGNATURE.len() + 8;
    if data.len() < BINARY_SIGNATURE.len() {
        return Ok(None);
    }
    if !data.starts_with(BINARY_SIGNATURE) {
        return Err("COPY file signature not recognized");
    }
    let Some(extension) = be_i32(data, BINARY_SIGNATURE.len() + 4) else {
        return Ok(None);
    };
    let extension =
        usize::try_from(extension).map_err(|_| "invalid COPY file header (extension length)")?;
    Ok((data.len() >= fixed + extension).then_some(fixed + extension))
}

/// The byte length of the binary row at the start of `data` (whose field count,
/// `count`, was read) and its fields' byte ranges; None while incomplete.
fn binary_fields(data: &[u8], count: i16) -> Option<(usize, Vec<Option<std::ops::Range<usize>>>)> {
    let mut at = 2;
    let mut fields = Vec::with_capacity(usize::try_from(count).unwrap_or(0));
    for _ in 0..count.max(0) {
        let len = be_i32(data, at)?;
        at += 4;
        match usize::try_from(len) {
            Ok(len) if data.len() >= at + len => {
                fields.push(Some(at..at + len));
                at += len;
            }
            Ok(_) => return None,
            Err(_) => fields.push(None),
        }
    }
    Some((at, fields))
}

fn be_i16(data: &[u8], at: usize) -> Option<i16> {
    Some(i16::from_be_bytes(data.get(at..at + 2)?.try_into().ok()?))
}

fn be_i32(data: &[u8], at: usize) -> Option<i32> {
    Some(i32::from_be_bytes(data.get(at..at + 4)?.try_into().ok()?))
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
            CopyFormat::Binary => "BINARY",
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

    /// A binary COPY stream: header, then rows of (length, bytes) fields.
    fn binary_stream(rows: &[&[Option<&[u8]>]]) -> Vec<u8> {
        let mut out = BINARY_SIGNATURE.to_vec();
        out.extend_from_slice(&0i32.to_be_bytes());
        out.extend_from_slice(&3i32.to_be_bytes());
        out.extend_from_slice(b"ext");
        for row in rows {
            out.extend_from_slice(&(row.len() as i16).to_be_bytes());
            for field in *row {
                match field {
                    Some(bytes) => {
                        out.extend_from_slice(&(bytes.len() as i32).to_be_bytes());
                        out.extend_from_slice(bytes);
                    }
                    None => out.extend_from_slice(&(-1i32).to_be_bytes()),
                }
            }
        }
        out.extend_from_slice(&(-1i16).to_be_bytes());
        out
    }

    #[test]
    fn binary_rows_split_anywhere() {
        let spec = spec(CopyFormat::Binary);
        let stream = binary_stream(&[
            &[Some(&7i32.to_be_bytes()), Some(b"seven")],
            &[Some(&(-1i32).to_be_bytes()), None],
        ]);
        let want = vec![
            vec![Value::Integer(7), Value::Text("seven".into())],
            vec![Value::Integer(-1), Value::Null],
        ];
        for split in 0..stream.len() {
            let mut decoder = CopyDecoder::new(&spec, &columns(&["integer", "text"]));
            let mut rows = decoder.push(&stream[..split]).unwrap();
            rows.extend(decoder.push(&stream[split..]).unwrap());
            rows.extend(decoder.finish().unwrap());
            assert_eq!(rows, want, "split at {split}");
        }
    }

    #[test]
    fn malformed_binary_is_an_error() {
        let spec = spec(CopyFormat::Binary);
        let columns = columns(&["integer", "text"]);
        let mut decoder = CopyDecoder::new(&spec, &columns);
        assert!(decoder.push(b"PGCOPY\n\xfe\r\n\0xxxxxxxx").is_err());
        // A row with one field for two columns.
        let one_field = binary_stream(&[&[Some(&7i32.to_be_bytes())]]);
        assert!(CopyDecoder::new(&spec, &columns).push(&one_field).is_err());
        // An integer of the wrong width.
        let short = binary_stream(&[&[Some(&[0, 7]), Some(b"x")]]);
        assert!(CopyDecoder::new(&spec, &columns).push(&short).is_err());
        // The stream stops inside a row.
        let whole = binary_stream(&[&[Some(&7i32.to_be_bytes()), Some(b"seven")]]);
        let mut decoder = CopyDecoder::new(&spec, &columns);
        assert!(decoder.push(&whole[..whole.len() - 6]).unwrap().is_empty());
        assert!(decoder.finish().is_err());
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
