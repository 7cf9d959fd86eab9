//! Encoding batch results as JSON, serialized straight from the engine's results
//! (no intermediate JSON tree, no copies of the rows).
//!
//! The answer is one JSON document, so the rows are kept until the batch ends:
//! they are kept within a [`Budget`] ([`Bounded`]; Hrana's pipelines use the same).

use std::sync::Arc;

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

use crate::engine::{Column, Completion, QueryResult, ResultSink, Value};
use crate::error::{Error, ErrorKind};

/// Results on their way to one JSON answer: each row is counted against the
/// answer's [`Budget`], sized as the answer's encoding writes it, before `inner`
/// keeps it. A statement that fails gives back what its rows took: the answer
/// carries its error, not its rows.
pub struct Bounded<'b, S> {
    pub inner: S,
    budget: &'b mut Budget,
    size: fn(&Value) -> usize,
    /// The budget used before the current statement.
    before_statement: usize,
}

impl<'b, S: ResultSink> Bounded<'b, S> {
    pub fn new(inner: S, budget: &'b mut Budget, size: fn(&Value) -> usize) -> Self {
        Bounded {
            inner,
            before_statement: budget.used,
            budget,
            size,
        }
    }
}

impl<S: ResultSink> ResultSink for Bounded<'_, S> {
    fn begin_statement(&mut self) -> Result<(), Error> {
        self.before_statement = self.budget.used;
        self.budget.statement()?;
        self.inner.begin_statement()
    }

    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        self.budget.columns(columns);
        self.inner.columns(columns)
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        self.budget.row(&row, self.size)?;
        self.inner.row(row)
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        self.inner.finish_statement(completion)
    }

    fn error(&mut self, error: &Error) {
        self.budget.used = self.before_statement + STATEMENT_BYTES;
        self.inner.error(error);
    }
}

/// The bytes of JSON an answer may still take (`--http-max-response-bytes`),
/// counted as rows arrive: the statement whose rows go past it fails, so a
/// huge result costs memory in proportion to the limit, not to the result.
pub struct Budget {
    /// JSON bytes the rows so far will take, roughly (never less than a third).
    used: usize,
    limit: usize,
}

/// What one statement's answer takes without its rows.
const STATEMENT_BYTES: usize = 64;

impl Budget {
    pub fn new(limit: usize) -> Self {
        Budget { used: 0, limit }
    }

    /// A statement's answer, without its rows.
    fn statement(&mut self) -> Result<(), Error> {
        self.add(STATEMENT_BYTES)
    }

    /// Column names are small: counted, never refused.
    fn columns(&mut self, columns: &[Column]) {
        self.used += columns.iter().map(|c| c.name.len() + 3).sum::<usize>();
    }

    /// A row, its values sized by `size`.
    fn row(&mut self, row: &[Value], size: fn(&Value) -> usize) -> Result<(), Error> {
        self.add(2 + row.iter().map(size).sum::<usize>())
    }

    /// Counts `bytes` more of the answer, failing past the limit.
    fn add(&mut self, bytes: usize) -> Result<(), Error> {
        self.used += bytes;
        if self.used > self.limit {
            return Err(Error::new(
                ErrorKind::InvalidRequest,
                format!(
                    "the response exceeds the server's limit of {} bytes \
                     (--http-max-response-bytes): fetch fewer rows at a time",
                    self.limit
                ),
            ));
        }
        Ok(())
    }
}

/// About how many bytes of JSON a value takes in this answer, with its
/// separator.
pub fn json_size(value: &Value) -> usize {
    1 + match value {
        Value::Null => 4,
        Value::Integer(i) => i.checked_ilog10().map_or(1, |digits| digits as usize + 2),
        Value::Real(_) => 24,
        Value::Text(s) => s.len() + 2,
        Value::Blob(b) => b.len().div_ceil(3) * 4 + 14,
    }
}

/// One element per statement: `{"results": {...}}`, `{"error": "..."}` for the
/// statement that failed, `null` for those after it (not run).
pub fn batch(results: &[Result<QueryResult, Error>], statements: usize) -> Response {
    // Most answers fit: no regrowing while they are written.
    let mut buffer = Vec::with_capacity(4096);
    let batch = Batch {
        results,
        statements,
    };
    match serde_json::to_writer(&mut buffer, &batch).map(|()| buffer) {
        Ok(body) => (
            StatusCode::OK,
            [(header::CONTENT_TYPE, "application/json")],
            body,
        )
            .into_response(),
        Err(error) => super::error(StatusCode::INTERNAL_SERVER_ERROR, &error.to_string()),
    }
}

struct Batch<'a> {
    results: &'a [Result<QueryResult, Error>],
    statements: usize,
}

impl Serialize for Batch<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        // A failed implicit COMMIT comes as one extra error: it belongs to the batch,
        // and is reported in place of the last statement's result.
        let commit_error = match self.results.get(self.statements) {
            Some(Err(error)) => Some(error),
            _ => None,
        };
        let mut seq = serializer.serialize_seq(Some(self.statements))?;
        for index in 0..self.statements {
            match (self.results.get(index), commit_error) {
                (Some(_), Some(error)) if index + 1 == self.statements => {
                    seq.serialize_element(&Failure(error))?
                }
                (Some(Ok(result)), _) => seq.serialize_element(&Success(result))?,
                (Some(Err(error)), _) => seq.serialize_element(&Failure(error))?,
                (None, _) => seq.serialize_element(&())?,
            }
        }
        seq.end()
    }
}

/// `{"error": "..."}`
struct Failure<'a>(&'a Error);

impl Serialize for Failure<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("error", &self.0.message)?;
        map.end()
    }
}

/// `{"results": {"columns": [...], "last_insert_rowid": n, "rows": [[...]], "rows_affected": n}}`
/// (`last_insert_rowid` only where the statement set one).
struct Success<'a>(&'a QueryResult);

impl Serialize for Success<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(1))?;
        map.serialize_entry("results", &Results(self.0))?;
        map.end()
    }
}

struct Results<'a>(&'a QueryResult);

impl Serialize for Results<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let result = self.0;
        let entries = 3 + usize::from(result.last_insert_rowid.is_some());
        let mut map = serializer.serialize_map(Some(entries))?;
        map.serialize_entry("columns", &Columns(result))?;
        if let Some(rowid) = result.last_insert_rowid {
            map.serialize_entry("last_insert_rowid", &rowid)?;
        }
        map.serialize_entry("rows", &Rows(&result.rows))?;
        map.serialize_entry("rows_affected", &result.rows_affected)?;
        map.end()
    }
}

struct Columns<'a>(&'a QueryResult);

impl Serialize for Columns<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.columns.iter().map(|column| &column.name))
    }
}

struct Rows<'a>(&'a [Vec<Value>]);

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|row| Row(row)))
    }
}

struct Row<'a>(&'a [Value]);

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Cell))
    }
}

/// One value: JSON's own types, `{"base64": "..."}` for a blob. JSON has no NaN or
/// infinities: serde_json writes those as null.
struct Cell<'a>(&'a Value);

impl Serialize for Cell<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Null => serializer.serialize_unit(),
            Value::Integer(i) => serializer.serialize_i64(*i),
            Value::Real(f) => serializer.serialize_f64(*f),
            Value::Text(s) => serializer.serialize_str(s),
            Value::Blob(b) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(
                    "base64",
                    &base64::engine::general_purpose::STANDARD.encode(b),
                )?;
                map.end()
            }
        }
    }
}
