//! The JSON answer to `POST /`, written as the rows come ([`Answer`]): each
//! value goes straight into the answer's bytes, with no result kept in between.
//! An answer that outgrows a chunk goes out a chunk at a time while the
//! statements run (`chunks`), so its memory is a few chunks whatever its size.

use std::sync::Arc;
use std::time::Instant;

use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use base64::Engine as _;
use serde::Serialize;

use super::budget::too_large;
use super::chunks::{CHUNK, ChunkSender};
use crate::engine::{Column, Completion, ResultSink, Value};
use crate::error::{Error, ErrorKind};

/// The answer to `POST /`, written as its statements run: one element per
/// statement, `{"results": {"columns": [...], "last_insert_rowid": n, "rows":
/// [[...]], "rows_affected": n}}` (`last_insert_rowid` only where the statement
/// set one), `{"error": "..."}` for the statement that failed, `null` for those
/// after it (not run). A failed implicit COMMIT belongs to the batch: its error
/// takes the place of the last statement's element.
///
/// Past `limit` bytes the statement being written fails; its element, rows and
/// all, gives way to its error.
///
/// Once the answer passes [`CHUNK`] bytes it is sent as it grows, chunked. A
/// failure whose element has begun to go out can no longer take its place: the
/// answer is broken off there (see `chunks`), and the batch rolled back as
/// always, so a client sees either a whole answer or a failed transfer.
pub struct Answer {
    /// The answer's bytes from `sent` on.
    json: Vec<u8>,
    /// The bytes sent ahead of `json`.
    sent: usize,
    /// Where the chunks go, and until when the client may take to read them
    /// (`None`: the answer is kept whole).
    chunks: Option<(ChunkSender, Option<Instant>)>,
    /// A failure came after its element began to go out.
    broken: bool,
    limit: usize,
    statements: usize,
    /// Elements begun so far.
    elements: usize,
    /// Where the last element begins (from the answer's start).
    element_start: usize,
    /// The statement being written, from `begin_statement` to its end.
    open: Option<OpenStatement>,
}

/// Where a statement's element stands while its rows come.
struct OpenStatement {
    /// Where `last_insert_rowid` goes (from the answer's start): right after the
    /// closed columns array, once the rows began (`None` before).
    after_columns: Option<usize>,
}

/// How an answer ended.
pub enum Ended {
    /// Whole, never sent: the bytes.
    Whole(Vec<u8>),
    /// Sent in chunks, to the end or broken off.
    Sent,
}

impl Answer {
    /// The answer to a batch of `statements`, at most about `limit` bytes.
    pub fn new(statements: usize, limit: usize) -> Self {
        // Most answers fit, and the size is within mimalloc's small objects.
        let mut json = Vec::with_capacity(1024);
        json.push(b'[');
        Answer {
            json,
            sent: 0,
            chunks: None,
            broken: false,
            limit,
            statements,
            elements: 0,
            element_start: 1,
            open: None,
        }
    }

    /// Sends the answer through `chunks` once it passes a chunk, the client
    /// taking each before `deadline`.
    pub fn streamed(mut self, chunks: ChunkSender, deadline: Option<Instant>) -> Self {
        self.chunks = Some((chunks, deadline));
        self
    }

    /// Ends the answer: whole, or its last chunk sent (or the body broken off).
    pub async fn end(mut self) -> Ended {
        let Some((chunks, deadline)) = self.chunks.take() else {
            return Ended::Whole(self.finish());
        };
        if self.sent == 0 && !self.broken {
            return Ended::Whole(self.finish());
        }
        if self.broken {
            chunks.abort().await;
            return Ended::Sent;
        }
        let last = self.finish();
        if chunks.send(last, deadline).await.is_err() {
            // The client is gone, or its body timed out: its statements have
            // ended; the body ends unfinished when the sender goes.
            tracing::debug!("the last chunk of an answer was not taken");
        }
        Ended::Sent
    }

    /// The answer's JSON (what is left of it), its statements that did not run
    /// as `null`.
    fn finish(mut self) -> Vec<u8> {
        for element in self.elements..self.statements {
            if element > 0 {
                self.json.push(b',');
            }
            self.json.extend_from_slice(b"null");
        }
        self.json.push(b']');
        self.json
    }

    /// The answer's size so far.
    fn len(&self) -> usize {
        self.sent + self.json.len()
    }

    fn within_limit(&self) -> Result<(), Error> {
        match self.len() > self.limit {
            true => Err(too_large(self.limit)),
            false => Ok(()),
        }
    }

    /// Closes the columns array and opens the rows one, once per statement;
    /// returns where the columns array ends (from the answer's start).
    fn begin_rows(&mut self) -> Option<usize> {
        let open = self.open.as_mut()?;
        if let Some(after_columns) = open.after_columns {
            return Some(after_columns);
        }
        self.json.push(b']');
        let after_columns = self.sent + self.json.len();
        self.json.extend_from_slice(br#","rows":["#);
        open.after_columns = Some(after_columns);
        Some(after_columns)
    }
}

/// The HTTP answer: 200 and JSON, `body` whole or chunked.
pub fn response(body: Body) -> Response {
    let mut response = Response::new(body);
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

impl ResultSink for Answer {
    fn begin_statement(&mut self) -> Result<(), Error> {
        if self.elements > 0 {
            self.json.push(b',');
        }
        self.elements += 1;
        self.element_start = self.len();
        self.json.extend_from_slice(br#"{"results":{"columns":["#);
        self.open = Some(OpenStatement {
            after_columns: None,
        });
        self.within_limit()
    }

    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        if self.open.is_none() {
            return Err(missing_statement());
        }
        for (index, column) in columns.iter().enumerate() {
            if index > 0 {
                self.json.push(b',');
            }
            text(&mut self.json, &column.name);
        }
        Ok(())
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        let Some(open) = self.open.as_ref() else {
            return Err(missing_statement());
        };
        let first_row = open.after_columns.is_none();
        self.begin_rows();
        if !first_row {
            self.json.push(b',');
        }
        self.json.push(b'[');
        for (index, value) in row.iter().enumerate() {
            if index > 0 {
                self.json.push(b',');
            }
            cell(&mut self.json, value);
        }
        self.json.push(b']');
        self.within_limit()
    }

    fn wants_flush(&self) -> bool {
        self.json.len() >= CHUNK && self.chunks.is_some()
    }

    async fn flush(&mut self) -> Result<(), Error> {
        let Some((chunks, deadline)) = &self.chunks else {
            return Ok(());
        };
        let chunk = std::mem::replace(&mut self.json, Vec::with_capacity(CHUNK + CHUNK / 4));
        // Gone from here on, whether the client takes them or not.
        self.sent += chunk.len();
        chunks
            .send(chunk, *deadline)
            .await
            .map_err(|not_sent| not_sent.error())
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        let Some(after_columns) = self.begin_rows() else {
            return Err(missing_statement());
        };
        self.open = None;
        self.json.extend_from_slice(br#"],"rows_affected":"#);
        self.json.extend_from_slice(
            itoa::Buffer::new()
                .format(completion.rows_affected)
                .as_bytes(),
        );
        if let Some(rowid) = completion.last_insert_rowid {
            let mut entry = br#","last_insert_rowid":"#.to_vec();
            entry.extend_from_slice(itoa::Buffer::new().format(rowid).as_bytes());
            match after_columns.checked_sub(self.sent) {
                // Beside the columns, in the order serde_json writes the keys.
                Some(at) => drop(self.json.splice(at..at, entry)),
                // The columns went out with the first chunk: last.
                None => self.json.extend_from_slice(&entry),
            }
        }
        self.json.extend_from_slice(b"}}");
        Ok(())
    }

    fn error(&mut self, error: &Error) {
        // The failed statement's element, or (the implicit COMMIT failed after
        // the last statement ended) the last statement's.
        if self.elements == 0 {
            self.elements = 1;
        }
        self.open = None;
        let Some(element_start) = self.element_start.checked_sub(self.sent) else {
            // Part of the element is out: the answer can only be broken off.
            tracing::warn!(%error, "a streamed answer is broken off");
            self.broken = true;
            return;
        };
        self.json.truncate(element_start);
        self.json.extend_from_slice(br#"{"error":"#);
        text(&mut self.json, &error.message);
        self.json.push(b'}');
    }
}

fn missing_statement() -> Error {
    Error::new(ErrorKind::Internal, "a result came without its statement")
}

/// One value: JSON's own types, `{"base64": "..."}` for a blob.
#[inline]
fn cell(json: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => json.extend_from_slice(b"null"),
        Value::Integer(i) => json.extend_from_slice(itoa::Buffer::new().format(*i).as_bytes()),
        // JSON has no NaN or infinities: serde_json writes those as null.
        Value::Real(f) => scalar(json, f),
        Value::Text(s) => text(json, s),
        Value::Blob(b) => {
            json.extend_from_slice(br#"{"base64":""#);
            json.extend_from_slice(
                base64::engine::general_purpose::STANDARD
                    .encode(b)
                    .as_bytes(),
            );
            json.extend_from_slice(br#""}"#);
        }
    }
}

/// A string: as it is when JSON escapes none of its characters (most text),
/// through serde_json otherwise.
#[inline]
fn text(json: &mut Vec<u8>, s: &str) {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        scalar(json, s);
        return;
    }
    json.push(b'"');
    json.extend_from_slice(s.as_bytes());
    json.push(b'"');
}

/// A string or a float, written by serde_json itself: its escapes, its number
/// formatting. Writing a `str` or an `f64` into memory cannot fail.
fn scalar<T: Serialize + ?Sized>(json: &mut Vec<u8>, value: &T) {
    let written = serde_json::to_writer(json, value);
    debug_assert!(written.is_ok(), "{written:?}");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::CommandKind;
    use serde_json::{Map, Value as Json, json};

    fn columns(names: &[&str]) -> Arc<Vec<Column>> {
        Arc::new(
            names
                .iter()
                .map(|name| Column {
                    name: (*name).to_owned(),
                    decltype: None,
                    storage: None,
                })
                .collect(),
        )
    }

    fn completion(rows_affected: u64, last_insert_rowid: Option<i64>) -> Completion {
        Completion {
            kind: CommandKind::Select,
            rows_affected,
            last_insert_rowid,
        }
    }

    /// A statement that returns `rows` under `names`, fed to `answer` as the
    /// engine feeds it.
    fn select(answer: &mut Answer, names: &[&str], rows: &[Vec<Value>]) -> Result<(), Error> {
        answer.begin_statement()?;
        answer.columns(&columns(names))?;
        for row in rows {
            answer.row(row.clone())?;
        }
        answer.finish_statement(completion(rows.len() as u64, None))
    }

    /// What serde_json makes of a value (its own map orders the keys).
    fn expected_value(value: &Value) -> Json {
        match value {
            Value::Null => Json::Null,
            Value::Integer(i) => json!(i),
            // Not finite: null.
            Value::Real(f) => Json::from(*f),
            Value::Text(s) => json!(s),
            Value::Blob(b) => {
                json!({"base64": base64::engine::general_purpose::STANDARD.encode(b)})
            }
        }
    }

    fn expected_results(
        names: &[&str],
        rows: &[Vec<Value>],
        rows_affected: u64,
        last_insert_rowid: Option<i64>,
    ) -> Json {
        let mut results = Map::new();
        results.insert("columns".into(), json!(names));
        results.insert(
            "rows".into(),
            rows.iter()
                .map(|row| row.iter().map(expected_value).collect::<Json>())
                .collect::<Json>(),
        );
        results.insert("rows_affected".into(), json!(rows_affected));
        if let Some(rowid) = last_insert_rowid {
            results.insert("last_insert_rowid".into(), json!(rowid));
        }
        json!({ "results": results })
    }

    fn assert_same(answer: Answer, expected: Json) {
        let written = String::from_utf8(answer.finish()).unwrap();
        let serialized = serde_json::to_string(&expected).unwrap();
        assert_eq!(written, serialized);
    }

    fn every_kind_of_value() -> Vec<Vec<Value>> {
        vec![
            vec![
                Value::Null,
                Value::Integer(-42),
                Value::Real(1.5),
                Value::Text("plain".into()),
                Value::Blob(vec![0, 255, 1]),
            ],
            vec![
                Value::Integer(i64::MAX),
                Value::Integer(i64::MIN),
                Value::Real(f64::NAN),
                Value::Text("\"quoted\" back\\slash /\n\t\r\u{1}\u{1f}\u{7f} é 日本 😀".into()),
                Value::Blob(Vec::new()),
            ],
            vec![
                Value::Integer(0),
                Value::Real(f64::INFINITY),
                Value::Real(f64::NEG_INFINITY),
                Value::Real(1e300),
                Value::Real(-0.1),
            ],
            vec![
                Value::Real(0.0),
                Value::Real(123456789.125),
                Value::Real(5e-324),
                Value::Text(String::new()),
                Value::Text("plain but for DEL \u{7f}, é, 日本 and 😀".into()),
            ],
        ]
    }

    #[test]
    fn writes_what_serde_json_writes() {
        let names = ["null \"n\"", "i", "r", "t\u{0}", "é"];
        let rows = every_kind_of_value();
        let mut answer = Answer::new(5, usize::MAX);
        select(&mut answer, &names, &rows).unwrap();
        // An INSERT: no columns, a rowid.
        answer.begin_statement().unwrap();
        answer.finish_statement(completion(1, Some(-9))).unwrap();
        // A query with no rows; an INSERT ... RETURNING with a rowid.
        select(&mut answer, &["x"], &[]).unwrap();
        answer.begin_statement().unwrap();
        answer.columns(&columns(&["id"])).unwrap();
        answer.row(vec![Value::Integer(3)]).unwrap();
        answer.finish_statement(completion(1, Some(3))).unwrap();
        // Fails after some rows: its rows are dropped.
        answer.begin_statement().unwrap();
        answer.columns(&columns(&["a"])).unwrap();
        answer.row(vec![Value::Integer(1)]).unwrap();
        answer.error(&Error::invalid("no such \"thing\"\n"));
        assert_same(
            answer,
            json!([
                expected_results(&names, &rows, 4, None),
                expected_results(&[], &[], 1, Some(-9)),
                expected_results(&["x"], &[], 0, None),
                expected_results(&["id"], &[vec![Value::Integer(3)]], 1, Some(3)),
                {"error": "no such \"thing\"\n"},
            ]),
        );
    }

    #[test]
    fn statements_after_a_failure_are_null() {
        let mut answer = Answer::new(4, usize::MAX);
        select(&mut answer, &["a"], &[vec![Value::Integer(1)]]).unwrap();
        answer.begin_statement().unwrap();
        answer.error(&Error::invalid("syntax error"));
        assert_same(
            answer,
            json!([
                expected_results(&["a"], &[vec![Value::Integer(1)]], 1, None),
                {"error": "syntax error"},
                null,
                null,
            ]),
        );
        assert_same(Answer::new(0, usize::MAX), json!([]));
        assert_same(Answer::new(2, usize::MAX), json!([null, null]));
    }

    #[test]
    fn a_failed_commit_replaces_the_last_statement() {
        let mut answer = Answer::new(2, usize::MAX);
        select(&mut answer, &["a"], &[vec![Value::Integer(1)]]).unwrap();
        answer.begin_statement().unwrap();
        answer.finish_statement(completion(1, Some(5))).unwrap();
        answer.error(&Error::invalid("database is locked"));
        assert_same(
            answer,
            json!([
                expected_results(&["a"], &[vec![Value::Integer(1)]], 1, None),
                {"error": "database is locked"},
            ]),
        );
    }

    #[test]
    fn past_the_limit_the_statement_fails() {
        let row = vec![Value::Text("x".repeat(100))];
        let mut answer = Answer::new(3, 1000);
        select(&mut answer, &["small"], std::slice::from_ref(&row)).unwrap();
        answer.begin_statement().unwrap();
        answer.columns(&columns(&["big"])).unwrap();
        let failure = (0..100)
            .find_map(|_| answer.row(row.clone()).err())
            .expect("the limit is reached");
        assert!(
            failure.message.contains("limit of 1000 bytes")
                && failure.message.contains("--http-max-response-bytes"),
            "{failure:?}"
        );
        answer.error(&failure);
        assert!(answer.json.len() < 1000);
        assert_same(
            answer,
            json!([
                expected_results(&["small"], &[row], 1, None),
                {"error": failure.message},
                null,
            ]),
        );
        // A statement that begins past the limit fails at once.
        let mut answer = Answer::new(2, 10);
        let failure = answer.begin_statement().unwrap_err();
        answer.error(&failure);
        assert_same(answer, json!([{"error": failure.message}, null]));
    }

    /// Feeds `rows` as the engine does, flushing between rows when asked.
    async fn streamed_select(
        answer: &mut Answer,
        rows: &[Vec<Value>],
        last_insert_rowid: Option<i64>,
    ) -> Result<(), Error> {
        answer.begin_statement()?;
        answer.columns(&columns(&["n", "t"]))?;
        for row in rows {
            answer.row(row.clone())?;
            if answer.wants_flush() {
                answer.flush().await?;
            }
        }
        answer.finish_statement(completion(rows.len() as u64, last_insert_rowid))
    }

    /// What the body receives: its bytes, and whether it was broken off.
    async fn received(mut receiver: super::super::chunks::ChunkReceiver) -> (Vec<u8>, bool) {
        let mut bytes = Vec::new();
        while let Some(item) = receiver.recv().await {
            match item {
                Ok(chunk) => bytes.extend_from_slice(&chunk),
                Err(_) => return (bytes, true),
            }
        }
        (bytes, false)
    }

    fn numbered(rows: i64) -> Vec<Vec<Value>> {
        (0..rows)
            .map(|n| vec![Value::Integer(n), Value::Text(format!("row number {n}"))])
            .collect()
    }

    #[tokio::test]
    async fn a_large_answer_goes_out_in_chunks_and_reads_the_same() {
        let (chunks, receiver) = super::super::chunks::channel();
        let reading = tokio::spawn(received(receiver));
        let rows = numbered(20_000);
        let mut answer = Answer::new(3, usize::MAX).streamed(chunks, None);
        streamed_select(&mut answer, &rows, Some(7)).await.unwrap();
        // A small statement after the chunks: a failure still takes its place.
        answer.begin_statement().unwrap();
        answer.error(&Error::invalid("no such table: nope"));
        assert!(answer.sent > CHUNK, "{} bytes sent ahead", answer.sent);
        assert!(answer.json.len() < 2 * CHUNK);
        assert!(matches!(answer.end().await, Ended::Sent));
        let (bytes, broken) = reading.await.unwrap();
        assert!(!broken);
        let written: Json = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            written,
            json!([
                expected_results(&["n", "t"], &rows, 20_000, Some(7)),
                {"error": "no such table: nope"},
                null,
            ])
        );
    }

    #[tokio::test]
    async fn a_small_answer_stays_whole() {
        let (chunks, receiver) = super::super::chunks::channel();
        let rows = numbered(10);
        let mut answer = Answer::new(1, usize::MAX).streamed(chunks, None);
        streamed_select(&mut answer, &rows, None).await.unwrap();
        let Ended::Whole(json) = answer.end().await else {
            panic!("a small answer was sent in chunks");
        };
        let written: Json = serde_json::from_slice(&json).unwrap();
        assert_eq!(
            written,
            json!([expected_results(&["n", "t"], &rows, 10, None)])
        );
        assert_eq!(received(receiver).await, (Vec::new(), false));
    }

    #[tokio::test]
    async fn a_failure_after_the_first_chunk_breaks_the_answer_off() {
        let (chunks, receiver) = super::super::chunks::channel();
        let reading = tokio::spawn(received(receiver));
        let mut answer = Answer::new(2, 3 * CHUNK).streamed(chunks, None);
        let failure = streamed_select(&mut answer, &numbered(100_000), None)
            .await
            .unwrap_err();
        assert!(failure.message.contains("--http-max-response-bytes"));
        answer.error(&failure);
        assert!(matches!(answer.end().await, Ended::Sent));
        let (bytes, broken) = reading.await.unwrap();
        assert!(broken);
        assert!(bytes.len() > CHUNK && bytes.len() <= 3 * CHUNK);
        assert!(serde_json::from_slice::<Json>(&bytes).is_err());
    }

    #[tokio::test]
    async fn a_client_that_stops_reading_stops_the_statement() {
        let (chunks, receiver) = super::super::chunks::channel();
        let deadline = Instant::now() + std::time::Duration::from_millis(200);
        let mut answer = Answer::new(1, usize::MAX).streamed(chunks, Some(deadline));
        let failure = streamed_select(&mut answer, &numbered(1_000_000), None)
            .await
            .unwrap_err();
        assert_eq!(
            failure.message,
            "canceling statement due to statement timeout"
        );
        // A client that hangs up: canceled.
        drop(receiver);
        let (chunks, receiver) = super::super::chunks::channel();
        drop(receiver);
        let mut answer = Answer::new(1, usize::MAX).streamed(chunks, None);
        let failure = streamed_select(&mut answer, &numbered(1_000_000), None)
            .await
            .unwrap_err();
        assert_eq!(failure.message, "canceling statement due to user request");
    }
}
