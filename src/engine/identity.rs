//! Who a session is: the user and database it logged in to, its backend pid,
//! and the role that decides what it may do. The catalog answers
//! `current_user`, `pg_roles` and `pg_database` from it.

use std::sync::{Arc, LazyLock};

use super::access::Role;

/// Who the session is, for `current_user`, `pg_roles` and `pg_database`. The
/// names are shared, not copied, with whatever else shows them
/// (`pg_stat_activity`): an HTTP request's session is made and dropped per
/// request.
#[derive(Debug, Clone)]
pub struct SessionIdentity {
    pub user: Arc<str>,
    pub database: Arc<str>,
    pub backend_pid: i32,
    /// What the session may do (see `access`).
    pub role: Role,
}

/// The name of the user and database a session has until it says otherwise.
pub static DEFAULT_NAME: LazyLock<Arc<str>> = LazyLock::new(|| Arc::from("litewire"));

impl Default for SessionIdentity {
    fn default() -> Self {
        SessionIdentity {
            user: DEFAULT_NAME.clone(),
            database: DEFAULT_NAME.clone(),
            backend_pid: 0,
            role: Role::default(),
        }
    }
}
