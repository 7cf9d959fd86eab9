//! The HTTP JSON front end (axum).
//!
//! - `POST /`: a batch of statements, answered with one JSON element per statement;
//!   the body is read as JSON whatever its Content-Type (load tools send
//!   `text/html` or none).
//! - `GET /health`: 200 when the database answers a query.
//! - `GET /version`: litewire's and SQLite's versions, compile options, cache mode.

mod request;
mod response;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};

use crate::config::Config;
use crate::engine::Engine;
use crate::shutdown::Shutdown;
use crate::workers::Workers;

/// Serves HTTP until `shutdown` fires; requests in flight are finished first.
pub async fn serve(
    listener: TcpListener,
    engine: Arc<Engine>,
    workers: Arc<Workers>,
    config: &Config,
    shutdown: Shutdown,
) {
    serve_router(
        listener,
        router(
            engine,
            config.http_body_limit,
            config.http_max_response_bytes,
        ),
        workers,
        shutdown,
    )
    .await;
}

/// Serves `app` on `listener`'s connections, each on one of the `workers`, until
/// `shutdown` fires. (The HTTP ceiling benchmark serves its own router through it.)
pub async fn serve_router(
    listener: TcpListener,
    app: Router,
    workers: Arc<Workers>,
    shutdown: Shutdown,
) {
    let watch = shutdown.clone();
    workers
        .accept(listener, &watch, move |socket, peer| {
            serve_connection(socket, peer, app.clone(), shutdown.clone())
        })
        .await;
}

/// One HTTP/1.1 connection, kept alive across requests; on shutdown it finishes
/// the request in flight and closes.
async fn serve_connection(socket: TcpStream, peer: SocketAddr, app: Router, shutdown: Shutdown) {
    let service = TowerToHyperService::new(app);
    let connection =
        hyper::server::conn::http1::Builder::new().serve_connection(TokioIo::new(socket), service);
    tokio::pin!(connection);
    let served = tokio::select! {
        served = connection.as_mut() => served,
        () = shutdown.wait() => {
            connection.as_mut().graceful_shutdown();
            connection.await
        }
    };
    if let Err(error) = served {
        tracing::debug!(%error, %peer, "HTTP connection ended with an error");
    }
}

/// What the handlers share.
#[derive(Clone)]
struct Shared {
    engine: Arc<Engine>,
    /// Largest response, in bytes of JSON.
    response_limit: usize,
}

pub fn router(engine: Arc<Engine>, body_limit: usize, response_limit: usize) -> Router {
    Router::new()
        .route("/", post(execute))
        .route("/health", get(health))
        .route("/version", get(version))
        .layer(DefaultBodyLimit::max(body_limit))
        .with_state(Shared {
            engine,
            response_limit,
        })
}

async fn execute(State(shared): State<Shared>, body: Bytes) -> Response {
    let batch = match request::parse(&body) {
        Ok(batch) => batch,
        Err(request::BadRequest(message)) => return error(StatusCode::BAD_REQUEST, &message),
    };
    let mut session = shared.engine.session();
    let mut results = response::Collected::new(batch.len(), shared.response_limit);
    session.execute_batch_into(&batch, &mut results).await;
    // A batch that opened a transaction and did not end it is rolled back here.
    session.close().await;
    results.into_response()
}

async fn health(State(Shared { engine, .. }): State<Shared>) -> Response {
    match engine.ping().await {
        Ok(()) => (StatusCode::OK, axum::Json(json!({"status": "ok"}))).into_response(),
        Err(e) => error(StatusCode::SERVICE_UNAVAILABLE, &e.message),
    }
}

async fn version(State(Shared { engine, .. }): State<Shared>) -> Response {
    let info = engine.info();
    axum::Json(json!({
        "litewire": info.version,
        "sqlite_version": info.sqlite_version,
        "compile_options": info.compile_options,
        "cache": info.cache.as_str(),
        "postgres_server_version": crate::SERVER_VERSION,
    }))
    .into_response()
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}
