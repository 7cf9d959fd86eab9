//! A request's bounds: how long its statements may run (`--http-timeout-ms`),
//! the client whose hang-up stops them, and how many bytes of JSON its answer may
//! take (`--http-max-response-bytes`). The server sets them on every request
//! (`serve`); handlers take them as [`RequestLimits`] and put them on the session
//! that runs the request's statements.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::FromRequestParts;
use axum::http::request::Parts;

use crate::engine::{ClientAddress, ClientGone, Session};

/// The server's limits on every request: how long its statements may run, and
/// how many bytes of JSON its answer may take.
#[derive(Debug, Clone, Copy)]
pub(super) struct ServerLimits {
    pub(super) time: Option<Duration>,
    pub(super) response_bytes: usize,
}

/// One request's bounds, for whichever session runs its statements: its
/// deadline (`--http-timeout-ms` from its arrival), the client whose hang-up
/// stops them, and the size of its answer (`--http-max-response-bytes`).
#[derive(Clone)]
pub struct RequestLimits {
    deadline: Option<Instant>,
    client: Option<Arc<dyn ClientGone>>,
    /// Where the request comes from.
    peer: Option<ClientAddress>,
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
                .map(|client| client.probe.clone()),
            peer: parts.extensions.get::<Client>().map(|client| client.peer),
            response_bytes: limits.map_or(usize::MAX, |l| l.response_bytes),
        })
    }
}

impl RequestLimits {
    /// Bounds `session`'s statements by this request, until `release`.
    pub fn apply(&self, session: &mut Session) {
        session.limit_until(self.deadline);
        session.control().watch_client(self.client.clone());
        session.client_address(self.peer);
    }

    /// When the request's statements must stop, and its answer be sent.
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Lets a session that outlives the request go (a Hrana stream's): no
    /// deadline, and no socket watched that may be closed and reused.
    pub fn release(session: &mut Session) {
        session.limit_until(None);
        session.control().watch_client(None);
        session.report_idle();
    }
}

/// The connection a request came on: to notice that its client hung up, and
/// where it comes from (one extension: each more costs every request).
#[derive(Clone)]
pub(super) struct Client {
    pub(super) probe: Arc<dyn ClientGone>,
    pub(super) peer: ClientAddress,
}
