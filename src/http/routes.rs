//! The routes of the HTTP front end: `POST /` (a batch of statements, answered
//! as the rows come, see `answer`, and sent as it is written once large), `GET
//! /health`, `GET /version`, `GET /ready` and `GET /metrics` (see `metrics`),
//! and Hrana's (`hrana`); every one but `/health` behind the credentials check
//! (`auth`) when users are configured.

use std::path::PathBuf;
use std::sync::Arc;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Extension, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::json;

use super::answer::{self, Answer, Ended};
use super::auth::{Caller, authenticate};
use super::chunks;
use super::hrana::{self, Streams};
use super::limits::RequestLimits;
use super::metrics::{Scraped, metrics, ready};
use super::request;
use crate::auth::Auth;
use crate::engine::{BackendKind, Blocks, Engine};
use crate::shutdown::Shutdown;

/// The routes, behind the credentials check when users are configured.
pub(super) fn router(
    engine: Arc<Engine>,
    auth: Arc<Auth>,
    streams: Arc<Streams>,
    db: PathBuf,
    shutdown: Shutdown,
) -> Router {
    let scraped = Scraped {
        engine: engine.clone(),
        auth: auth.clone(),
        db,
        shutdown,
    };
    let router = Router::new()
        .route("/", post(execute))
        .route("/health", get(health))
        .route("/version", get(version))
        .with_state(engine)
        .merge(hrana::router(streams))
        .merge(operations_router(scraped));
    match auth.enabled() {
        true => router.layer(axum::middleware::from_fn_with_state(auth, authenticate)),
        false => router,
    }
}

/// `GET /metrics` and `GET /ready`: on the HTTP port, and alone on
/// `--metrics-listen`.
pub(super) fn operations_router(scraped: Scraped) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .route("/ready", get(ready))
        .with_state(scraped)
}

async fn execute(
    State(engine): State<Arc<Engine>>,
    Extension(caller): Extension<Caller>,
    limits: RequestLimits,
    body: Bytes,
) -> Response {
    let batch = match request::parse(&body) {
        Ok(batch) => batch,
        Err(request::BadRequest(message)) => return error(StatusCode::BAD_REQUEST, &message),
    };
    if !engine.has_free_connection() {
        let mut response = error(
            StatusCode::SERVICE_UNAVAILABLE,
            "sorry, too many clients already: every SQLite connection is in use (see --max-connections)",
        );
        response.headers_mut().insert(
            axum::http::header::RETRY_AFTER,
            axum::http::HeaderValue::from_static("1"),
        );
        return response;
    }
    let mut session = caller.session(&engine, BackendKind::Http);
    limits.apply(&mut session);
    session.report_query_parts(batch.iter().map(|(statement, _)| &*statement.sql));
    let (chunks, mut receiver) = chunks::channel();
    let mut answer =
        Answer::new(batch.len(), limits.response_bytes).streamed(chunks, limits.deadline());
    let mut run = Box::pin(async move {
        session
            .execute_batch_into(&batch, Blocks::WholeBatch, &mut answer)
            .await;
        // A batch that opened a transaction and did not end it is rolled back here.
        session.close().await;
        answer.end().await
    });
    // Most answers are done before they fill a chunk, and go out whole; a larger
    // one goes on on a task of its own, sent as it is written.
    let first = tokio::select! {
        biased;
        ended = &mut run => match ended {
            Ended::Whole(json) => return answer::response(Body::from(json)),
            Ended::Sent => None,
        },
        first = receiver.recv() => {
            tokio::spawn(run);
            first
        }
    };
    answer::response(receiver.into_body(first))
}

/// Whether the database answers; a follower (`--read-only`) also says how long
/// since it last saw its file change.
async fn health(State(engine): State<Arc<Engine>>) -> Response {
    match engine.ping().await {
        Ok(()) => {
            let body = match engine.replica_lag() {
                Some(lag) => json!({
                    "status": "ok",
                    "read_only": true,
                    "lag_seconds": lag.as_secs_f64(),
                }),
                None => json!({"status": "ok"}),
            };
            (StatusCode::OK, axum::Json(body)).into_response()
        }
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
        "postgres_server_version": crate::SERVER_VERSION,
    }))
    .into_response()
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}
