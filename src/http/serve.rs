//! Serving the HTTP port: each connection on one of the workers, over TLS when
//! configured, kept alive across requests (HTTP/1.1, hyper), each request given
//! what the server sets on every request (its limits, the connection's client
//! probe, the trusted caller when no credentials are asked for) before it
//! reaches the router; on shutdown the request in flight finishes first.

use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio_rustls::TlsAcceptor;

use super::auth::Caller;
use super::hrana::{Limits, Streams};
use super::limits::{Client, ServerLimits};
use super::metrics::Scraped;
use super::routes::{operations_router, router};
use super::socket_probe::SocketProbe;
use crate::auth::Auth;
use crate::config::Config;
use crate::engine::{BackendKind, ClientAddress, Engine, Metrics};
use crate::listener::Listener;
use crate::shutdown::Shutdown;
use crate::traffic::Metered;
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
    let limits = Limits {
        expiry: config.hrana_stream_expiry(),
        max_streams: config.hrana_max_streams,
        max_stored_sql: config.hrana_max_stored_sql,
    };
    let streams = Streams::start(engine.clone(), limits, shutdown.clone());
    let every_request = EveryRequest {
        limits: Some(ServerLimits {
            time: config.http_timeout(),
            response_bytes: config.http_max_response_bytes,
        }),
        // Without users every caller is trusted; with them, `auth` says who.
        trusted: (!auth.enabled()).then(Caller::trusted),
        body_limit: config.http_body_limit,
        metrics: engine.metrics().clone(),
    };
    let app = router(
        engine,
        auth,
        streams.clone(),
        config.db.clone(),
        shutdown.clone(),
    );
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
        trusted: Some(Caller::trusted()),
        body_limit: DEFAULT_BODY_LIMIT,
        metrics: Arc::default(),
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

/// Serves `GET /metrics` and `GET /ready` alone on `listener`
/// (`--metrics-listen`): no credentials, no TLS. `/ready` answers 503 once
/// `shutdown` fires; the listener serves until `stop` does.
pub async fn serve_operations(
    listener: TcpListener,
    engine: Arc<Engine>,
    workers: Arc<Workers>,
    config: &Config,
    auth: Arc<Auth>,
    shutdown: Shutdown,
    stop: Shutdown,
) {
    let scraped = Scraped {
        engine,
        auth,
        db: config.db.clone(),
        shutdown,
    };
    serve_router(listener, operations_router(scraped), workers, None, stop).await;
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
    trusted: Option<Caller>,
    body_limit: usize,
    /// Counts the bytes of every connection.
    metrics: Arc<Metrics>,
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
        .accept(Listener::Tcp(listener), &watch, move |socket, peer| {
            let connection = HttpConnection {
                peer,
                app: app.clone(),
                every_request: every_request.clone(),
                // Seen from the TCP socket, under TLS too.
                client: Client {
                    probe: Arc::new(SocketProbe::of(&socket)),
                    peer,
                },
                shutdown: shutdown.clone(),
                header_timeout,
            };
            let tls = tls.clone();
            let metrics = every_request.metrics.clone();
            async move {
                match tls {
                    None => {
                        let socket = Metered::new(socket, metrics, BackendKind::Http);
                        connection.serve(socket).await
                    }
                    Some(tls) => match tokio::time::timeout(header_timeout, tls.accept(socket))
                        .await
                    {
                        Ok(Ok(socket)) => {
                            let socket = Metered::new(socket, metrics, BackendKind::Http);
                            connection.serve(socket).await
                        }
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
    peer: ClientAddress,
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
