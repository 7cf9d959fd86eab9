//! The Hrana routes: the version probes, pipelines (`pipeline`), cursors
//! (`cursor`) and the stateless `v1` requests, on the stream registry.

use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use axum::routing::{get, post};

use super::streams::Streams;
use super::{cursor, pipeline, v1};

/// The Hrana routes, on the stream registry.
pub fn router(streams: Arc<Streams>) -> Router {
    Router::new()
        .route("/v2", get(version_probe))
        .route("/v3", get(version_probe))
        .route("/v2/pipeline", post(pipeline::pipeline))
        .route("/v3/pipeline", post(pipeline::pipeline))
        .route("/v3/cursor", post(cursor::cursor))
        .route("/v1/execute", post(v1::execute))
        .route("/v1/batch", post(v1::batch))
        .with_state(streams)
}

async fn version_probe() -> StatusCode {
    StatusCode::OK
}
