//! Hrana over HTTP: the protocol the libsql SDKs (`@libsql/client` and the ORMs
//! on it, `libsql-client` for Python, ...) speak, so apps written for sqld or
//! Turso run unmodified against a SQLite file served by litewire.
//!
//! - `GET /v2`, `GET /v3`: version probes (the SDKs pick the newest that answers).
//! - `POST /v2/pipeline`, `POST /v3/pipeline`: requests on a stream (`pipeline`,
//!   `exec`), kept open across HTTP requests by batons (`streams`).
//! - `POST /v3/cursor`: a batch whose results come back as newline-delimited
//!   JSON entries (`cursor`).
//! - `POST /v1/execute`, `POST /v1/batch`: the stateless protocol of Python's
//!   `libsql-client` (`v1`).
//!
//! Messages are JSON (`proto`, `body`); Hrana's protobuf encoding is not spoken.
//! The routes are in `routes`; engine errors become Hrana's in `errors`.

mod batch_progress;
mod batons;
mod body;
mod cursor;
mod errors;
mod exec;
mod pipeline;
mod proto;
mod routes;
mod streams;
mod v1;

pub use routes::router;
pub use streams::{Limits, Streams};
