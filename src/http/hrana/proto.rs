//! Hrana's JSON messages, as the libsql SDKs send and read them.
//!
//! The shapes follow `HRANA_3_SPEC.md` (its JSON encoding) and, where the spec
//! leaves room, what sqld answers: integers travel as strings (JSON numbers lose
//! precision past 2^53), blobs as base64 without padding (padded input is
//! accepted too), `last_insert_rowid` as a string or null. Requests are decoded
//! strictly enough to reject nonsense with a clear message, and loosely enough to
//! ignore fields this server does not use (`replication_index`).

use std::sync::Arc;

use base64::Engine as _;
use base64::alphabet;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde::de::{self, Deserializer};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::{Deserialize, Serialize};

use crate::engine::{Column, Completion, QueryResult, Value};
use crate::sql::CommandKind;

/// Base64 as sqld writes it (no padding) and reads it (with or without).
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_encode_padding(false)
        .with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// `POST /v2/pipeline`, `POST /v3/pipeline`.
#[derive(Debug, Deserialize)]
pub struct PipelineRequest {
    #[serde(default)]
    pub baton: Option<String>,
    pub requests: Vec<StreamRequest>,
}

/// `POST /v3/cursor`.
#[derive(Debug, Deserialize)]
pub struct CursorRequest {
    #[serde(default)]
    pub baton: Option<String>,
    pub batch: Batch,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamRequest {
    Close,
    Execute {
        stmt: Stmt,
    },
    Batch {
        batch: Batch,
    },
    Sequence {
        #[serde(default)]
        sql: Option<String>,
        #[serde(default)]
        sql_id: Option<i32>,
    },
    Describe {
        #[serde(default)]
        sql: Option<String>,
        #[serde(default)]
        sql_id: Option<i32>,
    },
    StoreSql {
        sql_id: i32,
        sql: String,
    },
    CloseSql {
        sql_id: i32,
    },
    GetAutocommit,
}

/// A statement: its SQL (or the id of SQL stored on the stream) and arguments.
#[derive(Debug, Deserialize)]
pub struct Stmt {
    #[serde(default)]
    pub sql: Option<String>,
    #[serde(default)]
    pub sql_id: Option<i32>,
    #[serde(default)]
    pub args: Vec<HranaValue>,
    #[serde(default)]
    pub named_args: Vec<NamedArg>,
    #[serde(default = "want_rows_default")]
    pub want_rows: bool,
}

fn want_rows_default() -> bool {
    true
}

#[derive(Debug, Deserialize)]
pub struct NamedArg {
    pub name: String,
    pub value: HranaValue,
}

#[derive(Debug, Deserialize)]
pub struct Batch {
    pub steps: Vec<BatchStep>,
}

#[derive(Debug, Deserialize)]
pub struct BatchStep {
    #[serde(default)]
    pub condition: Option<BatchCond>,
    pub stmt: Stmt,
}

/// When a batch step runs, in terms of the steps before it.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BatchCond {
    Ok { step: u32 },
    Error { step: u32 },
    Not { cond: Box<BatchCond> },
    And { conds: Vec<BatchCond> },
    Or { conds: Vec<BatchCond> },
    IsAutocommit,
}

/// A value in Hrana's encoding, decoded into the engine's.
#[derive(Debug, Clone, PartialEq)]
pub struct HranaValue(pub Value);

impl<'de> Deserialize<'de> for HranaValue {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(tag = "type", rename_all = "snake_case")]
        enum Tagged {
            Null,
            Integer { value: IntegerText },
            Float { value: f64 },
            Text { value: String },
            Blob { base64: String },
        }
        /// Integers come as strings; a JSON number is taken too.
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum IntegerText {
            Text(String),
            Number(i64),
        }
        Ok(HranaValue(match Tagged::deserialize(deserializer)? {
            Tagged::Null => Value::Null,
            Tagged::Integer {
                value: IntegerText::Number(i),
            } => Value::Integer(i),
            Tagged::Integer {
                value: IntegerText::Text(text),
            } => Value::Integer(text.parse().map_err(|_| {
                de::Error::custom(format!("integer value \"{text}\" is not a 64-bit integer"))
            })?),
            Tagged::Float { value } => Value::Real(value),
            Tagged::Text { value } => Value::Text(value),
            Tagged::Blob { base64 } => Value::Blob(
                BASE64
                    .decode(base64.as_bytes())
                    .map_err(|e| de::Error::custom(format!("invalid base64 in a blob: {e}")))?,
            ),
        }))
    }
}

/// One value of a result, written in Hrana's encoding.
pub struct Cell<'a>(pub &'a Value);

impl Serialize for Cell<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        match self.0 {
            Value::Null => map.serialize_entry("type", "null")?,
            Value::Integer(i) => {
                map.serialize_entry("type", "integer")?;
                // As a string, written from a stack buffer.
                map.serialize_entry("value", itoa::Buffer::new().format(*i))?;
            }
            Value::Real(f) => {
                map.serialize_entry("type", "float")?;
                map.serialize_entry("value", f)?;
            }
            Value::Text(s) => {
                map.serialize_entry("type", "text")?;
                map.serialize_entry("value", s)?;
            }
            Value::Blob(b) => {
                map.serialize_entry("type", "blob")?;
                map.serialize_entry("base64", &BASE64.encode(b))?;
            }
        }
        map.end()
    }
}

/// About how many bytes of JSON a value takes as [`Cell`] writes it, with its
/// separator (for the answer's size limit).
pub fn encoded_size(value: &Value) -> usize {
    1 + match value {
        Value::Null => 15,
        Value::Integer(_) => 50,
        Value::Real(_) => 48,
        Value::Text(s) => s.len() + 28,
        Value::Blob(b) => b.len().div_ceil(3) * 4 + 28,
    }
}

/// An error as Hrana reports it: a message and a machine-readable code.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HranaError {
    pub message: String,
    pub code: String,
}

impl HranaError {
    pub fn new(code: &str, message: impl Into<String>) -> Self {
        HranaError {
            message: message.into(),
            code: code.to_owned(),
        }
    }
}

/// A statement's result, with how long it took.
pub struct StmtOutcome {
    pub result: QueryResult,
    pub want_rows: bool,
    pub duration_ms: f64,
}

/// `StmtResult`: columns, rows, counts.
impl Serialize for StmtOutcome {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let result = &self.result;
        let rows: &[Vec<Value>] = if self.want_rows { &result.rows } else { &[] };
        let mut map = serializer.serialize_map(Some(7))?;
        map.serialize_entry("cols", &Cols(&result.columns))?;
        map.serialize_entry("rows", &Rows(rows))?;
        let counts = Counts::of(&result.completion(), result.returns_rows());
        counts.serialize_into(&mut map, self.duration_ms)?;
        map.end()
    }
}

/// The counts Hrana reports for a statement. `rows_read` and `rows_written` are
/// the rows it returned and changed (SQLite has no count of the rows it scanned).
pub struct Counts {
    /// Rows changed by INSERT, UPDATE and DELETE (with or without RETURNING); 0
    /// for everything else (SQLite's `changes()` still counts the last DML after
    /// DDL).
    affected_row_count: u64,
    /// As sqld: the rowid an INSERT produced, as a string; null for anything else.
    last_insert_rowid: Option<String>,
    rows_read: u64,
}

impl Counts {
    pub fn of(completion: &Completion, returns_rows: bool) -> Counts {
        let dml = matches!(
            completion.kind,
            CommandKind::Insert | CommandKind::Update | CommandKind::Delete
        );
        let inserted = completion.kind == CommandKind::Insert && completion.rows_affected > 0;
        Counts {
            affected_row_count: if dml { completion.rows_affected } else { 0 },
            last_insert_rowid: completion
                .last_insert_rowid
                .filter(|_| inserted)
                .map(|rowid| rowid.to_string()),
            rows_read: if returns_rows {
                completion.rows_affected
            } else {
                0
            },
        }
    }

    /// The counts' entries and the duration, into a result's map.
    pub fn serialize_into<M: SerializeMap>(
        &self,
        map: &mut M,
        duration_ms: f64,
    ) -> Result<(), M::Error> {
        map.serialize_entry("affected_row_count", &self.affected_row_count)?;
        map.serialize_entry("last_insert_rowid", &self.last_insert_rowid)?;
        map.serialize_entry("rows_read", &self.rows_read)?;
        map.serialize_entry("rows_written", &self.affected_row_count)?;
        map.serialize_entry("query_duration_ms", &duration_ms)
    }
}

/// `[{"name": ..., "decltype": ...}]`
pub struct Cols<'a>(pub &'a [Column]);

impl Serialize for Cols<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for column in self.0 {
            seq.serialize_element(&Col(column))?;
        }
        seq.end()
    }
}

struct Col<'a>(&'a Column);

impl Serialize for Col<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("name", &self.0.name)?;
        map.serialize_entry("decltype", &self.0.decltype.as_deref())?;
        map.end()
    }
}

struct Rows<'a>(&'a [Vec<Value>]);

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(|row| Row(row)))
    }
}

/// One row: `[value, ...]` in Hrana's encoding.
pub struct Row<'a>(pub &'a [Value]);

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Cell))
    }
}

/// `BatchResult`: one result or error per step, null where the step did not run
/// (or failed, or succeeded).
pub struct BatchOutcome {
    pub steps: Vec<Option<Result<StmtOutcome, HranaError>>>,
}

impl Serialize for BatchOutcome {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let results = self
            .steps
            .iter()
            .map(|s| s.as_ref().and_then(|r| r.as_ref().ok()));
        let errors = self
            .steps
            .iter()
            .map(|s| s.as_ref().and_then(|r| r.as_ref().err()));
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("step_results", &Seq(results))?;
        map.serialize_entry("step_errors", &Seq(errors))?;
        map.end()
    }
}

/// Serializes an iterator (cloned, as serde takes `&self`).
struct Seq<I>(I);

impl<I, T> Serialize for Seq<I>
where
    I: Iterator<Item = T> + Clone,
    T: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.clone())
    }
}

/// `DescribeResult`.
#[derive(Serialize)]
pub struct DescribeOutcome {
    pub params: Vec<DescribeParam>,
    #[serde(serialize_with = "serialize_cols")]
    pub cols: Arc<Vec<Column>>,
    pub is_explain: bool,
    pub is_readonly: bool,
}

fn serialize_cols<S: Serializer>(
    cols: &Arc<Vec<Column>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    Cols(cols).serialize(serializer)
}

#[derive(Serialize)]
pub struct DescribeParam {
    pub name: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(json: &str) -> Result<Value, serde_json::Error> {
        serde_json::from_str::<HranaValue>(json).map(|v| v.0)
    }

    #[test]
    fn values_decode_as_hrana_encodes_them() {
        assert_eq!(decode(r#"{"type":"null"}"#).unwrap(), Value::Null);
        assert_eq!(
            decode(r#"{"type":"integer","value":"-9007199254740993"}"#).unwrap(),
            Value::Integer(-9007199254740993)
        );
        assert_eq!(
            decode(r#"{"type":"float","value":0.5}"#).unwrap(),
            Value::Real(0.5)
        );
        assert_eq!(
            decode(r#"{"type":"blob","base64":"Bwg="}"#).unwrap(),
            Value::Blob(vec![7, 8])
        );
        assert_eq!(
            decode(r#"{"type":"blob","base64":"Bwg"}"#).unwrap(),
            Value::Blob(vec![7, 8])
        );
        for bad in [
            r#"{"type":"integer","value":"1.5"}"#,
            r#"{"type":"blob","base64":"!!"}"#,
            r#"{"type":"date","value":"x"}"#,
            r#"{"value":"x"}"#,
        ] {
            assert!(decode(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn values_encode_as_sqld_writes_them() {
        let row = [
            Value::Integer(i64::MAX),
            Value::Real(1.5),
            Value::Text("a".into()),
            Value::Blob(vec![7, 8]),
            Value::Null,
        ];
        assert_eq!(
            serde_json::to_string(&Row(&row)).unwrap(),
            r#"[{"type":"integer","value":"9223372036854775807"},{"type":"float","value":1.5},{"type":"text","value":"a"},{"type":"blob","base64":"Bwg"},{"type":"null"}]"#
        );
    }
}
