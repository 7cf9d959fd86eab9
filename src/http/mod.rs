//! The HTTP JSON front end (axum).
//!
//! - `POST /`: a batch of statements, answered with one JSON element per statement;
//!   the body is read as JSON whatever its Content-Type (load tools send
//!   `text/html` or none).
//! - `GET /health`: 200 when the database answers a query.
//! - `GET /version`: litewire's and SQLite's versions, compile options, cache mode.
//! - Hrana (`/v2`, `/v3`, `/v1`), for the libsql SDKs: see [`hrana`].
//!
//! Every route but `/health` needs credentials when users are configured (`auth`),
//! and the listener speaks HTTPS when TLS is configured.

mod auth;
pub mod hrana;
mod request;
mod response;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Extension, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use serde_json::json;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

use crate::auth::Auth;
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
    auth: Arc<Auth>,
    tls: Option<TlsAcceptor>,
    shutdown: Shutdown,
) {
    let limits = hrana::Limits {
        expiry: config.hrana_stream_expiry(),
        max_streams: config.hrana_max_streams,
        max_stored_sql: config.hrana_max_stored_sql,
    };
    let streams = hrana::Streams::start(engine.clone(), limits, shutdown.clone());
    serve_router(
        listener,
        router(
            engine,
            auth,
            config.http_body_limit,
            config.http_max_response_bytes,
            streams.clone(),
        ),
        workers,
        tls,
        shutdown,
    )
    .await;
    // Streams left open hold connections the engine waits for when it closes.
    streams.close_all().await;
}

/// Serves `app` on `listener`'s connections, each on one of the `workers`, until
/// `shutdown` fires; over TLS when given an acceptor. (The HTTP ceiling benchmark
/// serves its own router through it.)
pub async fn serve_router(
    listener: TcpListener,
    app: Router,
    workers: Arc<Workers>,
    tls: Option<TlsAcceptor>,
    shutdown: Shutdown,
) {
    let watch = shutdown.clone();
    workers
        .accept(listener, &watch, move |socket, peer| {
            let (app, tls, shutdown) = (app.clone(), tls.clone(), shutdown.clone());
            async move {
                match tls {
                    None => serve_connection(socket, peer, app, shutdown).await,
                    Some(tls) => match tls.accept(socket).await {
                        Ok(socket) => serve_connection(socket, peer, app, shutdown).await,
                        Err(error) => tracing::debug!(%error, %peer, "TLS handshake failed"),
                    },
                }
            }
        })
        .await;
}

/// One HTTP/1.1 connection, kept alive across requests; on shutdown it finishes
/// the request in flight and closes.
async fn serve_connection<S>(socket: S, peer: SocketAddr, app: Router, shutdown: Shutdown)
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
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

pub fn router(
    engine: Arc<Engine>,
    auth: Arc<Auth>,
    body_limit: usize,
    response_limit: usize,
    streams: Arc<hrana::Streams>,
) -> Router {
    Router::new()
        .route("/", post(execute))
        .route("/health", get(health))
        .route("/version", get(version))
        .with_state(Shared {
            engine,
            response_limit,
        })
        .merge(hrana::router(streams))
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn_with_state(
            auth,
            auth::authenticate,
        ))
}

async fn execute(
    State(shared): State<Shared>,
    Extension(caller): Extension<auth::Caller>,
    body: Bytes,
) -> Response {
    let batch = match request::parse(&body) {
        Ok(batch) => batch,
        Err(request::BadRequest(message)) => return error(StatusCode::BAD_REQUEST, &message),
    };
    let mut session = caller.session(&shared.engine);
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
