//! `pg_stat_statements`' and `pg_stat_statements_info`'s rows, from the
//! server's statement counts (see `statement_stats`). As in PostgreSQL, a
//! user who is not an admin sees the text and id of its own user's statements
//! only: another's text is `<insufficient privilege>`, its id NULL.
//!
//! What PostgreSQL counts of planning, buffers, WAL and JIT has no
//! counterpart in SQLite: 0, as PostgreSQL shows with those counts off.

use std::fmt::Write as _;
use std::time::SystemTime;

use super::activity_rows::timestamp;
use super::oids::{DATABASE_OID, ROLE_OID};
use crate::engine::access::Role;
use crate::engine::identity::SessionIdentity;
use crate::engine::statement_stats::Entry;
use crate::sql::quote::literal;

/// The counts as `pg_stat_statements` reads them, taken when the statement
/// that reads it starts.
pub(in crate::engine) struct StatementsView {
    pub(in crate::engine) entries: Vec<Entry>,
    pub(in crate::engine) dealloc: u64,
    pub(in crate::engine) reset: SystemTime,
}

/// The rows for `viewer`.
pub(super) fn catalog_rows(script: &mut String, view: &StatementsView, viewer: &SessionIdentity) {
    script.push_str(
        "DELETE FROM temp.pg_stat_statements;\nDELETE FROM temp.pg_stat_statements_info;\n",
    );
    for entry in &view.entries {
        let visible = viewer.role == Role::Admin || viewer.user == entry.user;
        let (queryid, query) = match visible {
            true => (
                entry.fingerprint.queryid.to_string(),
                literal(&entry.fingerprint.text),
            ),
            false => ("NULL".to_owned(), literal("<insufficient privilege>")),
        };
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_stat_statements VALUES ({ROLE_OID}, {DATABASE_OID}, true, {queryid}, {query}, 0, 0, 0, 0, 0, 0, {calls}, {total:?}, {min:?}, {max:?}, {mean:?}, {stddev:?}, {rows}, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);",
            calls = entry.calls,
            total = entry.total,
            min = entry.min,
            max = entry.max,
            mean = entry.mean,
            stddev = entry.stddev(),
            rows = entry.rows,
        );
    }
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_stat_statements_info VALUES ({}, {});",
        view.dealloc,
        timestamp(Some(view.reset))
    );
}
