//! The HTTP JSON front end (axum).
//!
//! - `POST /`: a batch of statements, answered with one JSON element per statement;
//!   the body is read as JSON whatever its Content-Type (load tools send
//!   `text/html` or none).
//! - `GET /health`: 200 when the database answers a query (on a connection of
//!   its own: a full pool or busy sessions do not hold it up).
//!
//! A request's statements run for at most `--http-timeout-ms`, and stop when the
//! client hangs up; a request that finds every pooled connection taken gets 503
//! with `Retry-After` at once; a connection that does not send its headers within
//! `--startup-timeout-ms` is closed.
//! - `GET /version`: litewire's and SQLite's versions, compile options, cache mode.
//! - Hrana (`/v2`, `/v3`, `/v1`), for the libsql SDKs: see [`hrana`].
//!
//! Every route but `/health` needs credentials when users are configured (`auth`),
//! and the listener speaks HTTPS when TLS is configured.

mod answer;
mod auth;
mod budget;
pub mod hrana;
pub(crate) mod request;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Extension, FromRequestParts, State};
use axum::http::StatusCode;
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use serde_json::json;
use tokio::net::{TcpListener, TcpStream};
use tokio_rustls::TlsAcceptor;

use crate::auth::Auth;
use crate::config::Config;
use crate::engine::{ClientGone, Engine, Session};
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
    let every_request = EveryRequest {
        limits: Some(ServerLimits {
            time: config.http_timeout(),
            response_bytes: config.http_max_response_bytes,
        }),
        // Without users every caller is trusted; with them, `auth` says who.
        trusted: (!auth.enabled()).then(auth::Caller::trusted),
        body_limit: config.http_body_limit,
    };
    let app = router(engine, auth, streams.clone());
    serve_app(
        listener,
        app,
        every_request,
        workers,
        tls,
        shutdown,
        config.startup_timeout(),
    )
    .await;
    // Streams left open hold connections the engine waits for when it closes.
    streams.close_all().await;
}

/// The server's limits on every request: how long its statements may run, and
/// how many bytes of JSON its answer may take.
#[derive(Debug, Clone, Copy)]
struct ServerLimits {
    time: Option<Duration>,
    response_bytes: usize,
}

/// One request's bounds, for whichever session runs its statements: its
/// deadline (`--http-timeout-ms` from its arrival), the client whose hang-up
/// stops them, and the size of its answer (`--http-max-response-bytes`).
#[derive(Clone)]
pub struct RequestLimits {
    deadline: Option<Instant>,
    client: Option<Arc<dyn ClientGone>>,
    pub response_bytes: usize,
}

impl<S: Send + Sync> FromRequestParts<S> for RequestLimits {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let arrived = Instant::now();
        let limits = parts.extensions.get::<ServerLimits>();
        Ok(RequestLimits {
            deadline: limits.and_then(|l| l.time).map(|time| arrived + time),
            client: parts
                .extensions
                .get::<Client>()
                .map(|Client(probe)| probe.clone()),
            response_bytes: limits.map_or(usize::MAX, |l| l.response_bytes),
        })
    }
}

impl RequestLimits {
    /// Bounds `session`'s statements by this request, until `release`.
    pub fn apply(&self, session: &mut Session) {
        session.limit_until(self.deadline);
        session.control().watch_client(self.client.clone());
    }

    /// Lets a session that outlives the request go (a Hrana stream's): no
    /// deadline, and no socket watched that may be closed and reused.
    pub fn release(session: &mut Session) {
        session.limit_until(None);
        session.control().watch_client(None);
    }
}

/// The connection a request came on, to notice that its client hung up.
#[derive(Clone)]
struct Client(Arc<dyn ClientGone>);

/// Whether the client of a connection hung up, seen from its socket without
/// reading from it: a read that would block means it is still there.
struct SocketProbe {
    #[cfg(unix)]
    fd: std::os::fd::RawFd,
}

impl SocketProbe {
    fn of(socket: &TcpStream) -> SocketProbe {
        #[cfg(unix)]
        {
            use std::os::fd::AsRawFd;
            SocketProbe {
                fd: socket.as_raw_fd(),
            }
        }
        #[cfg(not(unix))]
        {
            let _ = socket;
            SocketProbe {}
        }
    }
}

impl ClientGone for SocketProbe {
    fn gone(&self) -> bool {
        #[cfg(unix)]
        {
            use std::os::fd::FromRawFd;
            // SAFETY: the descriptor is the socket of the connection whose request
            // is being served, open until that request ends (the probe is only
            // asked while one of its statements runs); `ManuallyDrop` leaves it open.
            let socket =
                std::mem::ManuallyDrop::new(unsafe { std::net::TcpStream::from_raw_fd(self.fd) });
            // The socket is non-blocking (tokio's): no data yet is WouldBlock.
            match socket.peek(&mut [0u8; 1]) {
                Ok(0) => true,
                Ok(_) => false,
                Err(error) => error.kind() != std::io::ErrorKind::WouldBlock,
            }
        }
        #[cfg(not(unix))]
        {
            false
        }
    }
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
    let every_request = EveryRequest {
        limits: None,
        trusted: Some(auth::Caller::trusted()),
        body_limit: DEFAULT_BODY_LIMIT,
    };
    serve_app(
        listener,
        app,
        every_request,
        workers,
        tls,
        shutdown,
        DEFAULT_HEADER_TIMEOUT,
    )
    .await;
}

/// axum's own default for the size of a request body.
const DEFAULT_BODY_LIMIT: usize = 2 * 1024 * 1024;

/// What the server gives every request's handlers, as request extensions. They
/// are added by one step in front of the router, per request: a layer on the
/// router itself would wrap every route, and clone each wrapping per request.
#[derive(Clone)]
struct EveryRequest {
    limits: Option<ServerLimits>,
    /// The caller when no credentials are asked for.
    trusted: Option<auth::Caller>,
    body_limit: usize,
}

/// hyper's own default for the time a client may take to send its headers.
const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(30);

async fn serve_app(
    listener: TcpListener,
    app: Router,
    every_request: EveryRequest,
    workers: Arc<Workers>,
    tls: Option<TlsAcceptor>,
    shutdown: Shutdown,
    header_timeout: Duration,
) {
    let watch = shutdown.clone();
    workers
        .accept(listener, &watch, move |socket, peer| {
            let connection = HttpConnection {
                peer,
                app: app.clone(),
                every_request: every_request.clone(),
                // Seen from the TCP socket, under TLS too.
                client: Client(Arc::new(SocketProbe::of(&socket))),
                shutdown: shutdown.clone(),
                header_timeout,
            };
            let tls = tls.clone();
            async move {
                match tls {
                    None => connection.serve(socket).await,
                    Some(tls) => match tokio::time::timeout(header_timeout, tls.accept(socket))
                        .await
                    {
                        Ok(Ok(socket)) => connection.serve(socket).await,
                        Ok(Err(error)) => tracing::debug!(%error, %peer, "TLS handshake failed"),
                        Err(_) => tracing::debug!(%peer, "TLS handshake timed out"),
                    },
                }
            }
        })
        .await;
}

/// One HTTP/1.1 connection, kept alive across requests; on shutdown it finishes
/// the request in flight and closes.
struct HttpConnection {
    peer: SocketAddr,
    app: Router,
    every_request: EveryRequest,
    client: Client,
    shutdown: Shutdown,
    header_timeout: Duration,
}

impl HttpConnection {
    async fn serve<S>(self, socket: S)
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let HttpConnection {
            peer,
            app,
            every_request,
            client,
            shutdown,
            header_timeout,
        } = self;
        let app = tower::ServiceBuilder::new()
            .layer(DefaultBodyLimit::max(every_request.body_limit))
            .map_request(
                move |mut request: axum::http::Request<hyper::body::Incoming>| {
                    let extensions = request.extensions_mut();
                    extensions.insert(client.clone());
                    if let Some(limits) = every_request.limits {
                        extensions.insert(limits);
                    }
                    if let Some(caller) = &every_request.trusted {
                        extensions.insert(caller.clone());
                    }
                    request
                },
            )
            .service(app);
        let service = TowerToHyperService::new(app);
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .serve_connection(TokioIo::new(socket), service);
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
}

fn router(engine: Arc<Engine>, auth: Arc<Auth>, streams: Arc<hrana::Streams>) -> Router {
    let router = Router::new()
        .route("/", post(execute))
        .route("/health", get(health))
        .route("/version", get(version))
        .with_state(engine)
        .merge(hrana::router(streams));
    match auth.enabled() {
        true => router.layer(axum::middleware::from_fn_with_state(
            auth,
            auth::authenticate,
        )),
        false => router,
    }
}

async fn execute(
    State(engine): State<Arc<Engine>>,
    Extension(caller): Extension<auth::Caller>,
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
    let mut session = caller.session(&engine);
    limits.apply(&mut session);
    let mut answer = answer::Answer::new(batch.len(), limits.response_bytes);
    session.execute_batch_into(&batch, &mut answer).await;
    // A batch that opened a transaction and did not end it is rolled back here.
    session.close().await;
    answer.into_response()
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
        "postgres_server_version": crate::SERVER_VERSION,
    }))
    .into_response()
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": message }))).into_response()
}
