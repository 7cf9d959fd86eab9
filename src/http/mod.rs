//! The HTTP JSON front end (axum).
//!
//! - `POST /`: a batch of statements, answered with one JSON element per statement;
//!   the body is read as JSON whatever its Content-Type (load tools send
//!   `text/html` or none).
//! - `GET /health`: 200 when the database answers a query.
//! - `GET /version`: litewire's and SQLite's versions, compile options, cache mode.

mod request;
mod response;

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::json;
use tokio::net::TcpListener;

use crate::config::Config;
use crate::engine::Engine;
use crate::server::Shutdown;

/// Serves HTTP until `shutdown` fires; requests in flight are finished first.
pub async fn serve(
    listener: TcpListener,
    engine: Arc<Engine>,
    config: &Config,
    shutdown: Shutdown,
) {
    let app = router(engine, config.http_body_limit);
    let served = axum::serve(listener, app)
        .with_graceful_shutdown(async move { shutdown.wait().await })
        .await;
    if let Err(error) = served {
        tracing::error!(%error, "the HTTP server failed");
    }
}

pub fn router(engine: Arc<Engine>, body_limit: usize) -> Router {
    Router::new()
        .route("/", post(execute))
        .route("/health", get(health))
        .route("/version", get(version))
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(engine)
}

async fn execute(State(engine): State<Arc<Engine>>, body: Bytes) -> Response {
    let batch = match request::parse(&body) {
        Ok(batch) => batch,
        Err(request::BadRequest(message)) => return error(StatusCode::BAD_REQUEST, &message),
    };
    let mut session = engine.session();
    let results = session.execute_batch(&batch).await;
    // A batch that opened a transaction and did not end it is rolled back here.
    session.close().await;
    response::batch(&results, batch.len())
}

async fn health(State(engine): State<Arc<Engine>>) -> Response {
    match engine.ping().await {
        Ok(()) => (StatusCode::OK, axum::Json(json!({"status": "ok"}))).into_response(),
        Err(e) => error(StatusCode::SERVICE_UNAVAILABLE, &e.message),
    }
}

async fn version(State(engine): State<Arc<Engine>>) -> Response {
    let info = engine.info();
    axum::Json(json!({
        "litewire": info.version,
        "sqlite_version": info.sqlite_version,
        "compile_options": info.compile_options,
        "cache": info.cache.as_str(),
        "postgres_server_version": crate::pg::SERVER_VERSION,
    }))
    .into_response()
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}
