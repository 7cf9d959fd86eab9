//! Which front end serves a session: the one name `pg_stat_activity`, the
//! metrics' `frontend` label and the session registry share.

/// The front ends (the metrics' `frontend` label), as [`BackendKind::index`]
/// numbers them.
pub const FRONTENDS: [&str; 3] = ["postgres", "http", "hrana"];

/// Which front end a session serves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackendKind {
    Postgres,
    /// A `POST /` request (its session lasts the request).
    Http,
    /// A Hrana stream (its session lasts the stream).
    Hrana,
}

impl BackendKind {
    /// Its place in [`FRONTENDS`].
    pub(super) fn index(self) -> usize {
        match self {
            BackendKind::Postgres => 0,
            BackendKind::Http => 1,
            BackendKind::Hrana => 2,
        }
    }

    /// `pg_stat_activity.backend_type`.
    pub(super) fn backend_type(self) -> &'static str {
        match self {
            BackendKind::Postgres => "client backend",
            BackendKind::Http => "http request",
            BackendKind::Hrana => "hrana stream",
        }
    }
}
