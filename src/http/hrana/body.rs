//! Hrana's HTTP bodies: a request decoded from JSON whatever its Content-Type,
//! and an answer (or an error for the whole request) written as JSON.

use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use super::proto::HranaError;

/// Decodes a JSON body (whatever its Content-Type); a malformed one is a 400
/// that says what is wrong.
pub fn decode<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, HranaError> {
    serde_json::from_slice(body)
        .map_err(|e| HranaError::new("PROTO_ERROR", format!("invalid Hrana request: {e}")))
}

pub fn json<T: Serialize>(status: StatusCode, body: &T) -> Response {
    // Most answers fit: no regrowing while they are written.
    let mut buffer = Vec::with_capacity(4096);
    match serde_json::to_writer(&mut buffer, body).map(|()| buffer) {
        Ok(body) => (status, [(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(error) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
    }
}

/// An error for the whole request: `{"message": ..., "code": ...}`, which the
/// SDKs raise with its code.
pub fn failure(status: StatusCode, error: HranaError) -> Response {
    json(status, &error)
}
