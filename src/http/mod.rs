//! The HTTP JSON front end (axum).
//!
//! - `POST /`: a batch of statements, answered with one JSON element per statement;
//!   the body is read as JSON whatever its Content-Type (load tools send
//!   `text/html` or none).
//! - `GET /health`: 200 when the database answers a query (on a connection of
//!   its own: a full pool or busy sessions do not hold it up).
//! - `GET /version`: litewire's and SQLite's versions, compile options, cache mode.
//! - `GET /metrics`: Prometheus' text format; `GET /ready`: 503 once the
//!   server shuts down (`metrics`).
//! - Hrana (`/v2`, `/v3`, `/v1`), for the libsql SDKs: see [`hrana`].
//!
//! A request's statements run for at most `--http-timeout-ms`, and stop when the
//! client hangs up; a request that finds every pooled connection taken gets 503
//! with `Retry-After` at once; a connection that does not send its headers within
//! `--startup-timeout-ms` is closed.
//!
//! Every route but `/health` needs credentials when users are configured (`auth`),
//! and the listener speaks HTTPS when TLS is configured.
//!
//! - `serve`: the listener and its connections; `routes`: the router and the
//!   handlers of `POST /`, `/health` and `/version`.
//! - `request`: decoding `POST /`'s body; `answer`: writing its JSON answer;
//!   `chunks`: a large answer sent a chunk at a time (and Hrana's cursors).
//! - `limits`: a request's deadline, client and answer size; `socket_probe`
//!   notices a client that hung up; `budget` counts an answer's bytes.
//! - `auth`: who is calling.

mod answer;
mod auth;
mod budget;
mod chunks;
pub mod hrana;
mod limits;
mod metrics;
pub(crate) mod request;
mod routes;
mod serve;
mod socket_probe;

pub use limits::RequestLimits;
pub use metrics::starting_router;
pub use serve::{serve, serve_operations, serve_router};
