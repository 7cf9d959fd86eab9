//! Encoding batch results as JSON.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use serde_json::{Map, Value as Json, json};

use crate::engine::{EngineError, QueryResult, Value};

/// One element per statement: `{"results": {...}}`, `{"error": "..."}` for the
/// statement that failed, `null` for those after it (not run).
pub fn batch(results: &[Result<QueryResult, EngineError>], statements: usize) -> Response {
    let mut out: Vec<Json> = results.iter().take(statements).map(element).collect();
    // A failed implicit COMMIT comes as one extra error: it belongs to the batch.
    if let (Some(Err(commit_error)), Some(last)) = (results.get(statements), out.last_mut()) {
        *last = json!({ "error": commit_error.message });
    }
    out.resize(statements, Json::Null);
    let body = Json::Array(out).to_string();
    (
        StatusCode::OK,
        [(header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response()
}

fn element(result: &Result<QueryResult, EngineError>) -> Json {
    match result {
        Ok(result) => {
            let columns: Vec<Json> = result
                .columns
                .iter()
                .map(|c| Json::String(c.name.clone()))
                .collect();
            let rows: Vec<Json> = result
                .rows
                .iter()
                .map(|row| Json::Array(row.iter().map(value).collect()))
                .collect();
            let mut results = Map::new();
            results.insert("columns".into(), Json::Array(columns));
            results.insert("rows".into(), Json::Array(rows));
            results.insert("rows_affected".into(), json!(result.rows_affected));
            if let Some(rowid) = result.last_insert_rowid {
                results.insert("last_insert_rowid".into(), json!(rowid));
            }
            json!({ "results": results })
        }
        Err(error) => json!({ "error": error.message }),
    }
}

fn value(value: &Value) -> Json {
    match value {
        Value::Null => Json::Null,
        Value::Integer(i) => json!(i),
        // JSON has no NaN or infinities: those become null.
        Value::Real(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
        Value::Text(s) => Json::String(s.clone()),
        Value::Blob(b) => json!({ "base64": base64::engine::general_purpose::STANDARD.encode(b) }),
    }
}
