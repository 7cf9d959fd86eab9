//! How many bytes of JSON an answer may take (`--http-max-response-bytes`).
//!
//! Hrana's pipelines keep their results until the pipeline ends: each row is
//! counted against the answer's [`Budget`] as it arrives ([`Bounded`]), so the
//! statement whose rows go past the limit fails instead of the server holding a
//! huge result. `POST /`, which writes its answer as the rows come, fails the
//! same way ([`too_large`]).

use std::sync::Arc;

use crate::engine::{Column, Completion, ResultSink, Value};
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
            return Err(too_large(self.limit));
        }
        Ok(())
    }
}

/// The failure of the statement that took an answer past `limit` bytes.
pub fn too_large(limit: usize) -> Error {
    Error::new(
        ErrorKind::InvalidRequest,
        format!(
            "the response exceeds the server's limit of {limit} bytes \
             (--http-max-response-bytes): fetch fewer rows at a time"
        ),
    )
}
