//! Domains in the engine (see `sql::domains` for how they are kept): a value
//! refused by a CHECK a domain gave its column fails with PostgreSQL's error
//! for the domain, not SQLite's words for the constraint.

use crate::error::{Error, SqlState};
use crate::sql::domains::CHECK_PREFIX;

/// SQLite's "CHECK constraint failed: litewire_domain:d[:c]" as PostgreSQL
/// says it: 23502 for a NULL the domain does not allow, 23514 naming the
/// domain's CHECK otherwise.
pub(super) fn explain(error: Error) -> Error {
    if error.sqlite_code() != Some(libsqlite3_sys::SQLITE_CONSTRAINT_CHECK) {
        return error;
    }
    let Some((_, named)) = error.message.split_once(CHECK_PREFIX) else {
        return error;
    };
    match named.trim().split_once(':') {
        Some((domain, check)) => Error::state(
            SqlState::CHECK_VIOLATION,
            format!("value for domain {domain} violates check constraint \"{check}\""),
        ),
        None => Error::state(
            SqlState::NOT_NULL_VIOLATION,
            format!("domain {} does not allow null values", named.trim()),
        ),
    }
}
