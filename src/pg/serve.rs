//! Serving the PostgreSQL port: accepting connections, TLS, and each
//! connection's message loop, from its first byte to its close.
//!
//! litewire runs each connection's message loop itself ([`serve_connection`]),
//! with pgwire's codec and message dispatch, so that it can hold the connection
//! to PostgreSQL's rules pgwire's own loop lacks: frames are checked before they
//! are decoded (`frames`), a client that does not finish startup in time is
//! closed, clients past `--max-connections` get 53300, a session idle inside a
//! transaction for too long is ended (25P03), and at shutdown each client is told
//! (57P01). CancelRequests are answered on the accepting thread, before a
//! connection reaches a worker (see `cancel`): a worker may be busy running the
//! very statement to cancel.
//!
//! A connection first negotiates TLS as the client asks (an SSLRequest, or
//! PostgreSQL 17's direct TLS), with pgwire's negotiation, then logs in through
//! the [`Gate`] (`login`: SCRAM-SHA-256 and the other methods, or trust).

use std::net::SocketAddr;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures::{FutureExt, SinkExt, StreamExt};
use pgwire::api::query::ExtendedQueryHandler;
use pgwire::api::{ClientInfo, DefaultClient, NoopHandler, PgWireConnectionState};
use pgwire::error::{ErrorInfo, PgWireError};
use pgwire::messages::response::{GssEncResponse, SslResponse};
use pgwire::messages::startup::SecretKey;
use pgwire::messages::{PgWireBackendMessage, PgWireFrontendMessage, SslNegotiationMetaMessage};
use pgwire::tokio::server::{
    MaybeTls, PgWireMessageServerCodec, negotiate_tls, process_error, process_message,
};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::time::Instant;
use tokio_util::codec::{Framed, FramedParts};

use super::cancel::CancelKeys;
use super::connection::PgConnection;
use super::connection_log::ConnectionLog;
use super::frames::{self, Guarded};
use super::login::{Gate, Login};
use super::reply::notification_message;
use crate::config::Config;
use crate::engine::{BackendKind, ClientAddress, Engine, Role, StatementControl, StopReason};
use crate::listener::{Listener, Stream};
use crate::shutdown::Shutdown;
use crate::traffic::Metered;
use crate::workers::Workers;

/// What every connection of the front end shares.
struct Frontend {
    engine: Arc<Engine>,
    /// Who may log in, and TLS.
    gate: Arc<Gate>,
    cancel_keys: Arc<CancelKeys>,
    /// PostgreSQL clients past startup, served now.
    clients: AtomicUsize,
    max_clients: usize,
    startup_timeout: Duration,
    max_message: usize,
    shutdown: Shutdown,
    log_connections: bool,
    log_disconnections: bool,
}

type Codec = PgWireMessageServerCodec<<PgConnection as ExtendedQueryHandler>::Statement>;

type Socket = Framed<Guarded<Metered<MaybeTls>>, Codec>;

/// Serves PostgreSQL clients on every listener until `shutdown` fires; each
/// connection then tells its client and closes (a running statement first
/// finishes, or is stopped once the grace period is over).
pub async fn serve(
    listeners: Vec<Listener>,
    engine: Arc<Engine>,
    workers: Arc<Workers>,
    gate: Arc<Gate>,
    config: &Config,
    shutdown: Shutdown,
) {
    let frontend = Arc::new(Frontend {
        engine,
        gate,
        cancel_keys: Arc::default(),
        clients: AtomicUsize::new(0),
        max_clients: config.max_connections.max(1) as usize,
        startup_timeout: config.startup_timeout(),
        max_message: config.max_message_bytes,
        shutdown: shutdown.clone(),
        log_connections: config.log_connections,
        log_disconnections: config.log_disconnections,
    });
    let accepting = listeners.into_iter().map(|listener| {
        let triage = frontend.clone();
        let frontend = frontend.clone();
        workers.accept_triaged(
            listener,
            &shutdown,
            move |socket| {
                let frontend = triage.clone();
                async move { answer_cancel_request(socket, &frontend).await }
            },
            move |socket, peer| {
                let frontend = frontend.clone();
                async move {
                    tracing::debug!(%peer, "postgres client connected");
                    serve_connection(socket, peer, frontend).await;
                    tracing::debug!(%peer, "postgres client disconnected");
                }
            },
        )
    });
    futures::future::join_all(accepting).await;
}

const CANCEL_REQUEST_CODE: [u8; 4] = 80_877_102_i32.to_be_bytes();

/// On the accepting thread: answers a CancelRequest and returns `None`, or gives
/// any other connection back, unread, to be served by a worker.
async fn answer_cancel_request(socket: Stream, frontend: &Frontend) -> Option<Stream> {
    let mut head = [0u8; 16];
    let peeked =
        tokio::time::timeout(frontend.startup_timeout, socket.peek_exact(&mut head[..8])).await;
    match peeked {
        Ok(Ok(true)) if head[..4] == 16_i32.to_be_bytes() && head[4..8] == CANCEL_REQUEST_CODE => {}
        Ok(Ok(true)) => return Some(socket),
        // Closed, or silent past the startup timeout: nothing to serve.
        _ => return None,
    }
    let mut socket = socket;
    let read = tokio::time::timeout(frontend.startup_timeout, socket.read_exact(&mut head)).await;
    if let Ok(Ok(_)) = read {
        let pid = i32::from_be_bytes([head[8], head[9], head[10], head[11]]);
        let secret = i32::from_be_bytes([head[12], head[13], head[14], head[15]]);
        let canceled = frontend.cancel_keys.cancel(pid, &SecretKey::I32(secret));
        tracing::debug!(pid, canceled, "cancel request");
    }
    None
}

/// What a client told to go hears (shutdown, `pg_terminate_backend()`).
const TERMINATED: &str = "terminating connection due to administrator command";

/// Why the message loop ended.
enum End {
    /// The client hung up or said Terminate.
    Client,
    /// A FATAL error was sent (or the connection broke).
    Fatal,
    /// Shutdown: the client must be told.
    Shutdown,
}

async fn serve_connection(socket: Stream, peer: ClientAddress, frontend: Arc<Frontend>) {
    let Some(mut socket) = negotiate(socket, peer, &frontend).await else {
        return;
    };
    // Read-only until the login says who the client is (`login`, `startup`).
    let session = frontend.engine.session(Role::ReadOnly);
    session.serves(BackendKind::Postgres);
    session.client_address(Some(peer));
    let control = session.control();
    let key = frontend.cancel_keys.register(session.pid(), &control);
    let log = ConnectionLog::received(
        peer,
        session.pid(),
        frontend.log_connections,
        frontend.log_disconnections,
    );
    let connection = Arc::new(PgConnection::new(session));
    socket.set_pid_and_secret_key(key.pid, key.secret_key());
    // pgwire's decoder is not trusted not to panic (see `frames`): a panic ends
    // this connection like a protocol violation would, and nothing else.
    let served = AssertUnwindSafe(message_loop(
        &mut socket,
        peer,
        &connection,
        &control,
        &log,
        &frontend,
    ))
    .catch_unwind()
    .await;
    let end = match served {
        Ok(end) => end,
        Err(_panic) => {
            tracing::warn!(%peer, "a postgres message could not be decoded: connection closed");
            let _ = send_fatal(&mut socket, "08P01", "invalid message").await;
            End::Fatal
        }
    };
    if let End::Shutdown = end
        && control.reason() != Some(StopReason::Shutdown)
    {
        let _ = send_fatal(&mut socket, "57P01", TERMINATED).await;
    }
    log.ended(&socket);
    drop(socket);
    drop(key);
    match Arc::try_unwrap(connection) {
        Ok(connection) => connection.close().await,
        Err(_) => tracing::warn!("postgres connection state still shared at close"),
    }
}

/// TLS first, as the client asks (an SSLRequest, or PostgreSQL 17's direct TLS
/// with ALPN `postgresql`; none on a Unix-domain socket), within the startup
/// timeout; then the socket, framed
/// for startup, its frames checked from here on (see `frames`). `None`: nothing
/// to serve (the client went, timed out, or wanted TLS that is not configured).
async fn negotiate(socket: Stream, peer: ClientAddress, frontend: &Frontend) -> Option<Socket> {
    let negotiated = tokio::time::timeout(frontend.startup_timeout, async {
        match socket {
            Stream::Tcp(socket) => {
                negotiate_tls::<<PgConnection as ExtendedQueryHandler>::Statement>(
                    socket,
                    frontend.gate.tls.clone(),
                )
                .await
            }
            unix => refuse_encryption(unix).await.map(Some),
        }
    })
    .await;
    let framed = match negotiated {
        Ok(Ok(Some(framed))) => framed,
        Ok(Ok(None)) => {
            tracing::debug!(%peer, "direct TLS from a client, but TLS is not configured");
            return None;
        }
        Ok(Err(error)) => {
            tracing::debug!(%error, %peer, "postgres connection setup failed");
            return None;
        }
        Err(_) => {
            tracing::debug!(%peer, "a postgres client did not finish TLS setup in time");
            return None;
        }
    };
    // What the negotiation read past its own messages (the StartupMessage, when
    // the client asked for no TLS) goes through the frame checks too.
    let parts = framed.into_parts();
    let metrics = frontend.engine.metrics().clone();
    // The bytes of the startup that negotiation read count too.
    metrics.received(BackendKind::Postgres, parts.read_buf.len());
    let io = Metered::new(parts.io, metrics, BackendKind::Postgres);
    let io = Guarded::with_read(io, frontend.max_message, parts.read_buf);
    let mut guarded = FramedParts::new(io, parts.codec);
    guarded.write_buf = parts.write_buf;
    Some(Framed::from_parts(guarded))
}

/// The SSLRequest and GSSENCRequest codes.
const ENCRYPTION_REQUEST_CODES: [[u8; 4]; 2] =
    [80_877_103_i32.to_be_bytes(), 80_877_104_i32.to_be_bytes()];

/// A Unix-domain socket has no TLS, as in PostgreSQL: each SSLRequest or
/// GSSENCRequest (libpq sends none there, other drivers may) is answered `N`,
/// and the socket is framed for the StartupMessage.
async fn refuse_encryption(mut socket: Stream) -> std::io::Result<Framed<MaybeTls, Codec>> {
    let mut head = [0u8; 8];
    loop {
        if !socket.peek_exact(&mut head).await? {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        let asks_encryption = head[..4] == 8_i32.to_be_bytes()
            && ENCRYPTION_REQUEST_CODES
                .iter()
                .any(|code| head[4..] == *code);
        if !asks_encryption {
            break;
        }
        socket.read_exact(&mut head).await?;
        socket.write_all(b"N").await?;
    }
    // PostgreSQL shows a Unix-domain client no address; pgwire wants one.
    let unnamed = SocketAddr::from(([0, 0, 0, 0], 0));
    let io = match socket {
        Stream::Tcp(socket) => MaybeTls::Plain(socket),
        Stream::Unix(socket) => MaybeTls::Unix(socket),
    };
    let mut framed = Framed::new(io, Codec::new(DefaultClient::new(unnamed, false)));
    framed.set_state(PgWireConnectionState::AwaitingStartup);
    Ok(framed)
}

/// Reads and answers messages until the connection must end.
async fn message_loop(
    socket: &mut Socket,
    peer: ClientAddress,
    connection: &Arc<PgConnection>,
    control: &StatementControl,
    log: &ConnectionLog,
    frontend: &Frontend,
) -> End {
    let startup_deadline = Instant::now() + frontend.startup_timeout;
    let startup = Arc::new(Login::new(
        frontend.gate.clone(),
        peer == ClientAddress::Local,
    ));
    let noop = Arc::new(NoopHandler);
    let mut counted = None;
    // One wait for the whole connection: a fresh one per message would register
    // (and drop) a waiter on the shutdown signal every time.
    let shutdown = frontend.shutdown.wait();
    tokio::pin!(shutdown);
    let terminated = control.until_terminated();
    tokio::pin!(terminated);
    let mut authorized = false;
    loop {
        // Another session ended this one (`pg_terminate_backend()`): the
        // client is told, unless a statement of its already failed saying so.
        if let Some(told) = control.terminated() {
            if !told {
                let _ = send_fatal(socket, "57P01", TERMINATED).await;
            }
            return End::Fatal;
        }
        let starting = matches!(
            socket.state(),
            PgWireConnectionState::AwaitingSslRequest
                | PgWireConnectionState::AwaitingStartup
                | PgWireConnectionState::AuthenticationInProgress
        );
        if !starting && !authorized {
            authorized = true;
            log.authorized(socket);
        }
        // A message the client already sent (pipelined: Bind, Execute, Sync
        // arrive together) is read at once, without arming the timers and the
        // shutdown wait that only matter while the connection would wait.
        let buffered = match starting || frontend.shutdown.is_triggered() {
            true => None,
            false => socket.next().now_or_never(),
        };
        let message = match buffered {
            Some(message) => message,
            None => {
                let idle_limit = match starting {
                    true => None,
                    false => connection.wait_for_client().await,
                };
                tokio::select! {
                    biased;
                    () = &mut shutdown => return End::Shutdown,
                    () = &mut terminated => {
                        let _ = send_fatal(socket, "57P01", TERMINATED).await;
                        return End::Fatal;
                    }
                    () = sleep_until(startup_deadline), if starting => {
                        tracing::debug!("a postgres client did not finish startup in time");
                        let _ = send_fatal(socket, "08006", "canceling authentication due to timeout").await;
                        return End::Fatal;
                    }
                    () = sleep_for(idle_limit), if idle_limit.is_some() => {
                        let _ = send_fatal(
                            socket,
                            "25P03",
                            "terminating connection due to idle-in-transaction timeout",
                        )
                        .await;
                        return End::Fatal;
                    }
                    message = socket.next() => message,
                    // An idle listener gets its notifications at once.
                    () = connection.notifications.arrived(),
                        if !starting && connection.notifications.may_receive() => {
                        if connection.idle().await {
                            for notification in connection.notifications.take() {
                                if socket.feed(notification_message(notification)).await.is_err() {
                                    return End::Client;
                                }
                            }
                            if socket.flush().await.is_err() {
                                return End::Client;
                            }
                        }
                        continue;
                    }
                }
            }
        };
        let message = match message {
            None => return End::Client,
            Some(Ok(message)) => message,
            Some(Err(error)) => {
                let message = match &error {
                    PgWireError::IoError(io) => match frames::violation_of(io) {
                        Some(violation) => violation.to_string(),
                        None => return End::Client,
                    },
                    other => other.to_string(),
                };
                tracing::debug!(%message, "postgres protocol violation");
                let _ = send_fatal(socket, "08P01", &message).await;
                return End::Fatal;
            }
        };
        match message {
            PgWireFrontendMessage::Terminate(_) => return End::Client,
            PgWireFrontendMessage::SslNegotiation(negotiation) => {
                let refusal = match negotiation {
                    SslNegotiationMetaMessage::PostgresSsl(_) => {
                        PgWireBackendMessage::SslResponse(SslResponse::Refuse)
                    }
                    SslNegotiationMetaMessage::PostgresGss(_) => {
                        PgWireBackendMessage::GssEncResponse(GssEncResponse::Refuse)
                    }
                    SslNegotiationMetaMessage::None => {
                        socket.set_state(PgWireConnectionState::AwaitingStartup);
                        continue;
                    }
                };
                if socket.send(refusal).await.is_err() {
                    return End::Fatal;
                }
                continue;
            }
            PgWireFrontendMessage::CancelRequest(cancel) => {
                frontend.cancel_keys.cancel(cancel.pid, &cancel.secret_key);
                return End::Client;
            }
            PgWireFrontendMessage::Startup(_) if counted.is_none() => {
                let count = frontend.clients.fetch_add(1, Ordering::SeqCst);
                counted = Some(ClientCount(&frontend.clients));
                if count >= frontend.max_clients {
                    let _ = send_fatal(socket, "53300", "sorry, too many clients already").await;
                    return End::Fatal;
                }
            }
            _ => {}
        }
        let extended = match socket.state() {
            PgWireConnectionState::CopyInProgress(extended) => extended,
            _ => message.is_extended_query(),
        };
        let processed = process_message(
            message,
            socket,
            startup.clone(),
            connection.clone(),
            connection.clone(),
            connection.clone(),
            noop.clone(),
        )
        .await;
        if let Err(error) = processed {
            let fatal = error.is_fatal();
            // As in PostgreSQL, any error inside a transaction block aborts it,
            // also one of Parse, Bind or Describe (a statement that does not
            // prepare): until ROLLBACK everything else is refused (25P02).
            if !fatal {
                connection.state.lock().await.session.fail_transaction();
            }
            if process_error(socket, error, extended).await.is_err() || fatal {
                return End::Fatal;
            }
        }
    }
}

/// Counts a client for `--max-connections` while it lives.
struct ClientCount<'a>(&'a AtomicUsize);

impl Drop for ClientCount<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Sleeps until `deadline`; the timer is made only when first polled (a
/// disabled `select!` branch is never polled).
async fn sleep_until(deadline: Instant) {
    tokio::time::sleep_until(deadline).await
}

async fn sleep_for(limit: Option<Duration>) {
    match limit {
        Some(limit) => tokio::time::sleep(limit).await,
        None => std::future::pending().await,
    }
}

/// Sends a FATAL ErrorResponse: the connection closes after it.
async fn send_fatal(socket: &mut Socket, code: &str, message: &str) -> Result<(), PgWireError> {
    let info = ErrorInfo::new("FATAL".to_owned(), code.to_owned(), message.to_owned());
    socket
        .send(PgWireBackendMessage::ErrorResponse(info.into()))
        .await?;
    Ok(())
}
