//! Hrana over HTTP: the protocol the libsql SDKs (`@libsql/client` and the ORMs
//! on it, `libsql-client` for Python, ...) speak, so apps written for sqld or
//! Turso run unmodified against a SQLite file served by litewire.
//!
//! - `GET /v2`, `GET /v3`: version probes (the SDKs pick the newest that answers).
//! - `POST /v2/pipeline`, `POST /v3/pipeline`: requests on a stream (`exec`),
//!   kept open across HTTP requests by batons (`streams`).
//! - `POST /v3/cursor`: a batch whose results come back as newline-delimited
//!   JSON entries (`cursor`).
//! - `POST /v1/execute`, `POST /v1/batch`: the stateless protocol of Python's
//!   `libsql-client` (`v1`).
//!
//! Messages are JSON (`proto`); Hrana's protobuf encoding is not spoken.

mod cursor;
mod errors;
mod exec;
mod proto;
mod streams;
mod v1;

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Extension, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Serialize;

use super::limits::RequestLimits;
use super::auth::Caller;
use super::budget::Budget;
use exec::StreamResponse;
use proto::{HranaError, PipelineRequest, StreamRequest};
pub use streams::{Limits, Streams};

/// The Hrana routes, on the stream registry.
pub fn router(streams: Arc<Streams>) -> Router {
    Router::new()
        .route("/v2", get(version_probe))
        .route("/v3", get(version_probe))
        .route("/v2/pipeline", post(pipeline))
        .route("/v3/pipeline", post(pipeline))
        .route("/v3/cursor", post(cursor::cursor))
        .route("/v1/execute", post(v1::execute))
        .route("/v1/batch", post(v1::batch))
        .with_state(streams)
}

async fn version_probe() -> StatusCode {
    StatusCode::OK
}

#[derive(Serialize)]
struct PipelineResponse {
    baton: Option<String>,
    base_url: Option<String>,
    results: Vec<StreamResult>,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum StreamResult {
    Ok { response: StreamResponse },
    Error { error: HranaError },
}

/// Runs a pipeline's requests in order on its stream. A request that fails
/// does not stop the ones after it (each has its own result); `close` ends the
/// stream, and requests after it fail.
async fn pipeline(
    State(streams): State<Arc<Streams>>,
    Extension(caller): Extension<Caller>,
    limits: RequestLimits,
    body: Bytes,
) -> Response {
    let request: PipelineRequest = match decode(&body) {
        Ok(request) => request,
        Err(error) => return failure(StatusCode::BAD_REQUEST, error),
    };
    let one_request = matches!(request.requests.last(), Some(StreamRequest::Close));
    let mut lease = match streams
        .lease(request.baton.as_deref(), one_request, &caller)
        .await
    {
        Ok(lease) => lease,
        Err(streams::StreamError(error)) => return failure(StatusCode::BAD_REQUEST, error),
    };
    if let Ok(state) = lease.state() {
        state.serve(&limits);
    }
    let mut budget = Budget::new(limits.response_bytes);
    let mut results = Vec::with_capacity(request.requests.len());
    let mut closed = false;
    for request in request.requests {
        let result = match (closed, request) {
            (true, _) => Err(HranaError::new(
                "STREAM_CLOSED",
                "the stream was closed by an earlier request of the pipeline",
            )),
            (false, StreamRequest::Close) => {
                closed = true;
                Ok(StreamResponse::Close)
            }
            (false, request) => match lease.state() {
                Ok(state) => state.handle(request, &mut budget).await,
                Err(error) => Err(error),
            },
        };
        results.push(match result {
            Ok(response) => StreamResult::Ok { response },
            Err(error) => StreamResult::Error { error },
        });
    }
    let baton = lease.finish(closed).await;
    json(
        StatusCode::OK,
        &PipelineResponse {
            baton,
            base_url: None,
            results,
        },
    )
}

/// Decodes a JSON body (whatever its Content-Type); a malformed one is a 400
/// that says what is wrong.
fn decode<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, HranaError> {
    serde_json::from_slice(body)
        .map_err(|e| HranaError::new("PROTO_ERROR", format!("invalid Hrana request: {e}")))
}

fn json<T: Serialize>(status: StatusCode, body: &T) -> Response {
    // Most answers fit: no regrowing while they are written.
    let mut buffer = Vec::with_capacity(4096);
    match serde_json::to_writer(&mut buffer, body).map(|()| buffer) {
        Ok(body) => (status, [(header::CONTENT_TYPE, "application/json")], body).into_response(),
        Err(error) => (StatusCode::INTERNAL_SERVER_ERROR, error.to_string()).into_response(),
    }
}

/// An error for the whole request: `{"message": ..., "code": ...}`, which the
/// SDKs raise with its code.
fn failure(status: StatusCode, error: HranaError) -> Response {
    json(status, &error)
}
