//! The PostgreSQL wire protocol front end (crate pgwire).
//!
//! Each accepted socket gets its own [`PgConnection`] (session, prepared statements,
//! portals). When the client goes away, for whatever reason, the connection's
//! session is closed, which rolls back any transaction it left open.

mod connection;
mod copy_decoder;
mod copy_in;
mod copy_out;
mod datetime;
mod encode;
mod errors;
mod extended;
mod login;
mod numeric;
mod params;
mod reply;
mod rows;
mod simple;
mod startup;
mod types;
mod uuid;

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use futures::FutureExt;

use pgwire::api::PgWireServerHandlers;
use pgwire::tokio::process_socket;
use tokio::net::TcpListener;

pub use connection::PgConnection;
pub use login::Gate;

use crate::engine::{Engine, Role};
use crate::shutdown::Shutdown;
use crate::workers::Workers;

/// The handlers pgwire asks for, all backed by one connection's state.
struct Handlers {
    connection: Arc<PgConnection>,
    login: Arc<login::Login>,
}

impl PgWireServerHandlers for Handlers {
    fn simple_query_handler(&self) -> Arc<impl pgwire::api::query::SimpleQueryHandler> {
        self.connection.clone()
    }

    fn extended_query_handler(&self) -> Arc<impl pgwire::api::query::ExtendedQueryHandler> {
        self.connection.clone()
    }

    fn startup_handler(&self) -> Arc<impl pgwire::api::auth::StartupHandler> {
        self.login.clone()
    }

    fn copy_handler(&self) -> Arc<impl pgwire::api::copy::CopyHandler> {
        self.connection.clone()
    }
}

/// Serves PostgreSQL clients until `shutdown` fires, then waits for the
/// connections in flight to finish their current work and close.
pub async fn serve(
    listener: TcpListener,
    engine: Arc<Engine>,
    workers: Arc<Workers>,
    gate: Arc<Gate>,
    shutdown: Shutdown,
) {
    let watch = shutdown.clone();
    workers
        .accept(listener, &watch, move |socket, peer| {
            let engine = engine.clone();
            let gate = gate.clone();
            let shutdown = shutdown.clone();
            async move {
                tracing::debug!(%peer, "postgres client connected");
                serve_connection(socket, engine, gate, shutdown).await;
                tracing::debug!(%peer, "postgres client disconnected");
            }
        })
        .await;
}

async fn serve_connection(
    socket: tokio::net::TcpStream,
    engine: Arc<Engine>,
    gate: Arc<Gate>,
    shutdown: Shutdown,
) {
    // Read-only until the login says who the client is (`login`, `startup`).
    let connection = Arc::new(PgConnection::new(engine.session(Role::ReadOnly)));
    let tls = gate.tls.clone();
    let handlers = Handlers {
        connection: connection.clone(),
        login: Arc::new(login::Login::new(gate)),
    };
    // Boxed so that it can be dropped (with pgwire's handler clones) before close.
    // pgwire's message decoder panics on some truncated messages (a Bind or Parse
    // shorter than its fields); catching it here ends that connection the way a
    // protocol error would, with its session rolled back, and nothing else.
    let mut process =
        Box::pin(AssertUnwindSafe(process_socket(socket, tls, handlers)).catch_unwind());
    let result = tokio::select! {
        result = &mut process => Some(result),
        () = shutdown.wait() => {
            // Let the message in flight finish, then hang up.
            tokio::select! {
                result = &mut process => Some(result),
                () = connection.idle() => None,
            }
        }
    };
    match result {
        Some(Ok(Err(error))) => tracing::debug!(%error, "postgres connection ended with an error"),
        Some(Err(_panic)) => {
            tracing::warn!("malformed message from a postgres client: connection closed")
        }
        _ => {}
    }
    drop(process);
    // pgwire has dropped its handler clones by now; ours is the last one.
    match Arc::try_unwrap(connection) {
        Ok(connection) => connection.close().await,
        Err(_) => tracing::warn!("postgres connection state still shared at close"),
    }
}
