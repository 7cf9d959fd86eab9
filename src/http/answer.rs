//! The JSON answer to `POST /`, written as the rows come ([`Answer`]): each
//! value goes straight into the answer's bytes, with no result kept in between,
//! so the answer's size is simply the bytes written.

use std::sync::Arc;

use axum::body::Body;
use axum::http::{HeaderValue, header};
use axum::response::Response;
use base64::Engine as _;
use serde::Serialize;

use super::budget::too_large;
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
/// all, gives way to its error, so the answer never holds much more than the limit.
pub struct Answer {
    json: Vec<u8>,
    limit: usize,
    statements: usize,
    /// Elements begun so far.
    elements: usize,
    /// Where the last element begins.
    element_start: usize,
    /// The statement being written, from `begin_statement` to its end.
    open: Option<OpenStatement>,
}

/// Where a statement's element stands while its rows come.
struct OpenStatement {
    /// Where `last_insert_rowid` goes: right after the closed columns array,
    /// once the rows began (`None` before).
    after_columns: Option<usize>,
}

impl Answer {
    /// The answer to a batch of `statements`, at most about `limit` bytes.
    pub fn new(statements: usize, limit: usize) -> Self {
        // Most answers fit, and the size is within mimalloc's small objects.
        let mut json = Vec::with_capacity(1024);
        json.push(b'[');
        Answer {
            json,
            limit,
            statements,
            elements: 0,
            element_start: 1,
            open: None,
        }
    }

    /// The HTTP answer: 200, each statement's outcome in its element.
    pub fn into_response(self) -> Response {
        let mut response = Response::new(Body::from(self.finish()));
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        response
    }

    /// The answer's JSON, its statements that did not run as `null`.
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

    fn within_limit(&self) -> Result<(), Error> {
        match self.json.len() > self.limit {
            true => Err(too_large(self.limit)),
            false => Ok(()),
        }
    }

    /// Closes the columns array and opens the rows one, once per statement;
    /// returns where the columns array ends.
    fn begin_rows(json: &mut Vec<u8>, open: &mut OpenStatement) -> usize {
        if let Some(after_columns) = open.after_columns {
            return after_columns;
        }
        json.push(b']');
        let after_columns = json.len();
        json.extend_from_slice(br#","rows":["#);
        open.after_columns = Some(after_columns);
        after_columns
    }
}

impl ResultSink for Answer {
    fn begin_statement(&mut self) -> Result<(), Error> {
        if self.elements > 0 {
            self.json.push(b',');
        }
        self.elements += 1;
        self.element_start = self.json.len();
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
        let Some(open) = self.open.as_mut() else {
            return Err(missing_statement());
        };
        let first_row = open.after_columns.is_none();
        Answer::begin_rows(&mut self.json, open);
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

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        let Some(mut open) = self.open.take() else {
            return Err(missing_statement());
        };
        let after_columns = Answer::begin_rows(&mut self.json, &mut open);
        self.json.extend_from_slice(br#"],"rows_affected":"#);
        self.json.extend_from_slice(
            itoa::Buffer::new()
                .format(completion.rows_affected)
                .as_bytes(),
        );
        self.json.extend_from_slice(b"}}");
        if let Some(rowid) = completion.last_insert_rowid {
            let mut entry = br#","last_insert_rowid":"#.to_vec();
            entry.extend_from_slice(itoa::Buffer::new().format(rowid).as_bytes());
            self.json.splice(after_columns..after_columns, entry);
        }
        Ok(())
    }

    fn error(&mut self, error: &Error) {
        // The failed statement's element, or (the implicit COMMIT failed after
        // the last statement ended) the last statement's.
        if self.elements == 0 {
            self.elements = 1;
        }
        self.open = None;
        self.json.truncate(self.element_start);
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
}
