//! `POST /v1/execute` and `POST /v1/batch`: the stateless Hrana-over-HTTP of
//! Python's `libsql-client` (0.3). Each request runs on a session of its own,
//! closed at its end (a transaction it leaves open is rolled back); the
//! statement and batch shapes are Hrana's.

use std::sync::Arc;

use crate::engine::BackendKind;

use axum::body::Bytes;
use axum::extract::{Extension, State};
use axum::http::StatusCode;
use axum::response::Response;
use serde::{Deserialize, Serialize};

use super::super::auth::Caller;
use super::super::budget::Budget;
use super::super::limits::RequestLimits;
use super::body::{decode, failure, json};
use super::exec::StreamState;
use super::proto::{Batch, BatchOutcome, Stmt, StmtOutcome};
use super::streams::Streams;

#[derive(Deserialize)]
struct ExecuteRequest {
    stmt: Stmt,
}

#[derive(Deserialize)]
struct BatchRequest {
    batch: Batch,
}

#[derive(Serialize)]
struct Answer<T> {
    result: T,
}

/// `{"stmt": Stmt}` → `{"result": StmtResult}`; a failed statement is a 400
/// with `{"message", "code"}`.
pub async fn execute(
    State(streams): State<Arc<Streams>>,
    Extension(caller): Extension<Caller>,
    limits: RequestLimits,
    body: Bytes,
) -> Response {
    let request: ExecuteRequest = match decode(&body) {
        Ok(request) => request,
        Err(error) => return failure(StatusCode::BAD_REQUEST, error),
    };
    let mut state = stateless(&streams, &caller, &limits);
    let mut budget = Budget::new(limits.response_bytes);
    let outcome: Result<StmtOutcome, _> = state.execute(request.stmt, &mut budget).await;
    state.close().await;
    match outcome {
        Ok(result) => json(StatusCode::OK, &Answer { result }),
        Err(error) => failure(StatusCode::BAD_REQUEST, error),
    }
}

/// `{"batch": Batch}` → `{"result": BatchResult}`.
pub async fn batch(
    State(streams): State<Arc<Streams>>,
    Extension(caller): Extension<Caller>,
    limits: RequestLimits,
    body: Bytes,
) -> Response {
    let request: BatchRequest = match decode(&body) {
        Ok(request) => request,
        Err(error) => return failure(StatusCode::BAD_REQUEST, error),
    };
    let mut state = stateless(&streams, &caller, &limits);
    let mut budget = Budget::new(limits.response_bytes);
    let result: BatchOutcome = state.batch(request.batch, &mut budget).await;
    state.close().await;
    json(StatusCode::OK, &Answer { result })
}

/// A one-request stream: no baton, no stored SQL.
fn stateless(streams: &Streams, caller: &Caller, limits: &RequestLimits) -> StreamState {
    let mut state = StreamState::new(caller.session(streams.engine(), BackendKind::Hrana), 0);
    state.serve(limits);
    state
}
