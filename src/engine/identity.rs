//! Who a session is: the user and database it logged in to, its backend pid,
//! and the role that decides what it may do. The catalog answers
//! `current_user`, `pg_roles` and `pg_database` from it.

use super::access::Role;

/// Who the session is, for `current_user`, `pg_roles` and `pg_database`.
#[derive(Debug, Clone)]
pub struct SessionIdentity {
    pub user: String,
    pub database: String,
    pub backend_pid: i32,
    /// What the session may do (see `access`).
    pub role: Role,
}

impl Default for SessionIdentity {
    fn default() -> Self {
        SessionIdentity {
            user: "litewire".into(),
            database: "litewire".into(),
            backend_pid: 0,
            role: Role::default(),
        }
    }
}
