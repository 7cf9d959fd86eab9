//! `POST /v2/pipeline` and `POST /v3/pipeline`: a pipeline's requests run in
//! order on one stream (`exec`), opened for it or continued by its baton
//! (`streams`); the answer holds each request's result and the baton that
//! continues the stream, unless the pipeline closed it.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Extension, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::Serialize;

use super::super::auth::Caller;
use super::super::budget::Budget;
use super::super::limits::RequestLimits;
use super::body::{decode, failure, json};
use super::exec::StreamResponse;
use super::proto::{HranaError, PipelineRequest, StreamRequest};
use super::streams::{StreamError, Streams};

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
pub async fn pipeline(
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
        Err(StreamError(error)) => return failure(StatusCode::BAD_REQUEST, error),
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
