//! `COPY ... FROM STDIN` on the wire: CopyInResponse, then CopyData messages that
//! split rows anywhere, decoded from PostgreSQL's text or CSV format and streamed
//! into the engine's COPY batch by batch.

use std::fmt::Debug;

use async_trait::async_trait;
use futures::Sink;
use pgwire::api::copy::CopyHandler;
use pgwire::api::{ClientInfo, Type};
use pgwire::error::{ErrorInfo, PgWireError, PgWireResult};
use pgwire::messages::PgWireBackendMessage;
use pgwire::messages::copy::{CopyData, CopyDone, CopyFail};

use super::connection::PgConnection;
use super::params;
use super::types::column_type;
use crate::engine::{Column, EngineError, ErrorKind, Value};
use crate::sql::{CopyFormat, CopyFrom};

/// Turns the COPY byte stream into rows of values typed for the target columns.
pub struct CopyDecoder {
    format: CopyFormat,
    delimiter: u8,
    null: Vec<u8>,
    skip_header: bool,
    types: Vec<Type>,
    buffer: Vec<u8>,
    /// The `\.` end-of-data line was seen: the rest is ignored.
    ended: bool,
    line: u64,
}

impl CopyDecoder {
    pub fn new(spec: &CopyFrom, columns: &[Column]) -> Result<Self, EngineError> {
        let default_delimiter = if spec.format == CopyFormat::Csv {
            ","
        } else {
            "\t"
        };
        let delimiter = spec.delimiter.as_deref().unwrap_or(default_delimiter);
        let [delimiter] = delimiter.as_bytes() else {
            return Err(EngineError::invalid(
                "COPY delimiter must be a single one-byte character",
            ));
        };
        let default_null = if spec.format == CopyFormat::Csv {
            ""
        } else {
            "\\N"
        };
        Ok(CopyDecoder {
            format: spec.format,
            delimiter: *delimiter,
            null: spec
                .null
                .as_deref()
                .unwrap_or(default_null)
                .as_bytes()
                .to_vec(),
            skip_header: spec.header,
            types: columns.iter().map(column_type).collect(),
            buffer: Vec::new(),
            ended: false,
            line: 0,
        })
    }

    /// Adds a chunk of data; returns the rows completed by it.
    pub fn push(&mut self, data: &[u8]) -> Result<Vec<Vec<Value>>, EngineError> {
        if !self.ended {
            self.buffer.extend_from_slice(data);
        }
        self.take_rows(false)
    }

    /// The stream ended: a last line without a newline is still a row.
    pub fn finish(&mut self) -> Result<Vec<Vec<Value>>, EngineError> {
        self.take_rows(true)
    }

    fn take_rows(&mut self, at_end: bool) -> Result<Vec<Vec<Value>>, EngineError> {
        let mut rows = Vec::new();
        let mut consumed = 0;
        while !self.ended {
            let rest = &self.buffer[consumed..];
            let Some(len) = record_end(rest, self.format)
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
                let fields = match self.format {
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

    fn bad(&self, message: impl Into<String>) -> EngineError {
        EngineError::new(
            ErrorKind::BadCopyData,
            format!("{} (COPY line {})", message.into(), self.line),
        )
    }

    /// Text format: delimiter-separated, backslash escapes, `\N` for NULL.
    fn text_fields(&self, record: &[u8]) -> Result<Vec<Option<String>>, EngineError> {
        record
            .split(|b| *b == self.delimiter)
            .map(|raw| {
                if raw == self.null.as_slice() {
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

    /// CSV: `"` quotes, `""` inside quotes; an unquoted NULL string is NULL.
    fn csv_fields(&self, record: &[u8]) -> Result<Vec<Option<String>>, EngineError> {
        let mut fields = Vec::new();
        let mut field = Vec::new();
        let mut quoted = false;
        let mut was_quoted = false;
        let mut i = 0;
        loop {
            let byte = record.get(i).copied();
            match (quoted, byte) {
                (true, Some(b'"')) if record.get(i + 1) == Some(&b'"') => {
                    field.push(b'"');
                    i += 1;
                }
                (true, Some(b'"')) => quoted = false,
                (true, Some(b)) => field.push(b),
                (true, None) => return Err(self.bad("unterminated CSV quoted field")),
                (false, Some(b'"')) => {
                    quoted = true;
                    was_quoted = true;
                }
                (false, Some(b)) if b != self.delimiter => field.push(b),
                (false, _) => {
                    let value = if !was_quoted && field == self.null {
                        None
                    } else {
                        Some(
                            String::from_utf8(std::mem::take(&mut field))
                                .map_err(|_| self.bad("invalid UTF-8"))?,
                        )
                    };
                    fields.push(value);
                    field.clear();
                    was_quoted = false;
                    if byte.is_none() {
                        return Ok(fields);
                    }
                }
            }
            i += 1;
        }
    }

    fn typed(&self, fields: Vec<Option<String>>) -> Result<Vec<Value>, EngineError> {
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
fn record_end(data: &[u8], format: CopyFormat) -> Option<usize> {
    match format {
        CopyFormat::Text => data.iter().position(|b| *b == b'\n'),
        CopyFormat::Csv => {
            let mut quoted = false;
            data.iter().position(|b| {
                if *b == b'"' {
                    quoted = !quoted;
                }
                *b == b'\n' && !quoted
            })
        }
    }
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

fn copy_failed(message: String) -> PgWireError {
    PgWireError::UserError(Box::new(ErrorInfo::new(
        "ERROR".into(),
        "57014".into(),
        message,
    )))
}

#[async_trait]
impl CopyHandler for PgConnection {
    async fn on_copy_data<C>(&self, client: &mut C, copy_data: CopyData) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        self.copy_data(client, &copy_data.data).await
    }

    async fn on_copy_done<C>(&self, client: &mut C, _done: CopyDone) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        self.copy_done(client).await
    }

    async fn on_copy_fail<C>(&self, client: &mut C, fail: CopyFail) -> PgWireError
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        self.copy_abort(client).await;
        copy_failed(format!("COPY from stdin failed: {}", fail.message))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(format: CopyFormat) -> CopyFrom {
        CopyFrom {
            table: "t".into(),
            columns: vec![],
            format,
            delimiter: None,
            null: None,
            header: format == CopyFormat::Csv,
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
        let mut decoder =
            CopyDecoder::new(&spec(CopyFormat::Text), &columns(&["int", "text"])).unwrap();
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
        let mut decoder =
            CopyDecoder::new(&spec(CopyFormat::Csv), &columns(&["int", "text"])).unwrap();
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
        let mut decoder =
            CopyDecoder::new(&spec(CopyFormat::Text), &columns(&["int", "text"])).unwrap();
        assert!(decoder.push(b"1\ta\textra\n").is_err());
        let mut decoder =
            CopyDecoder::new(&spec(CopyFormat::Text), &columns(&["int", "text"])).unwrap();
        assert!(decoder.push(b"notanumber\ta\n").is_err());
    }
}
