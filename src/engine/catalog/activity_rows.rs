//! `pg_stat_activity`'s rows: every live session as the registry last heard
//! of it (see `backends`), with what it waits for from the lock table; and
//! `pg_stat_database`'s, from the server's counters (see `metrics`).
//!
//! As in PostgreSQL, a session sees everything of its own user's sessions, and
//! an admin (PostgreSQL's superuser) of everyone's; of another user's session
//! only who and which, with `<insufficient privilege>` for its query and NULL
//! for where it connects from, its times and its state.

use std::fmt::Write as _;
use std::time::{SystemTime, UNIX_EPOCH};

use super::oids::{DATABASE_OID, ROLE_OID};
use crate::engine::access::Role;
use crate::engine::activity::ClientAddress;
use crate::engine::backends::BackendRow;
use crate::engine::identity::SessionIdentity;
use crate::engine::table_stats::Changes;
use crate::sql::datetime::{PG_EPOCH_DAYS, USECS_PER_DAY, format_timestamp};
use crate::sql::quote::literal;

/// The rows for `viewer`; `waits` are the pids waiting in the lock table, each
/// with PostgreSQL's name of what it waits for.
pub(super) fn catalog_rows(
    script: &mut String,
    backends: &[BackendRow],
    waits: &[(i32, &'static str)],
    viewer: &SessionIdentity,
) {
    for backend in backends {
        let doing = &backend.activity.doing;
        let visible = viewer.role == Role::Admin || viewer.user == doing.user;
        let named = |name: &str| match name {
            "" => "NULL".to_owned(),
            name => literal(name),
        };
        let (datname, usename) = (named(&doing.database), named(&doing.user));
        let application_name = literal(&backend.application_name);
        let backend_type = literal(doing.kind.backend_type());
        let pid = backend.pid;
        if !visible {
            let _ = writeln!(
                script,
                "INSERT INTO temp.pg_stat_activity VALUES ({DATABASE_OID}, {datname}, {pid}, NULL, {ROLE_OID}, {usename}, {application_name}, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, '<insufficient privilege>', {backend_type});"
            );
            continue;
        }
        let (client_addr, client_port) = match doing.client {
            Some(ClientAddress::Tcp(addr)) => {
                (literal(&addr.ip().to_string()), addr.port().to_string())
            }
            Some(ClientAddress::Local) => ("NULL".to_owned(), "-1".to_owned()),
            None => ("NULL".to_owned(), "NULL".to_owned()),
        };
        let state = doing.state.name();
        let (wait_type, wait_event) = match waits.iter().find(|(waiter, _)| *waiter == pid) {
            Some((_, event)) => ("'Lock'", literal(event)),
            None if state.is_some_and(|state| state != "active") => {
                ("'Client'", literal("ClientRead"))
            }
            None => ("NULL", "NULL".to_owned()),
        };
        let _ = writeln!(
            script,
            "INSERT INTO temp.pg_stat_activity VALUES ({DATABASE_OID}, {datname}, {pid}, NULL, {ROLE_OID}, {usename}, {application_name}, {client_addr}, NULL, {client_port}, {backend_start}, {xact_start}, {query_start}, {state_change}, {wait_type}, {wait_event}, {state}, NULL, NULL, NULL, {query}, {backend_type});",
            backend_start = timestamp(Some(backend.activity.backend_start)),
            xact_start = timestamp(doing.xact_start),
            query_start = timestamp(doing.query_start),
            state_change = timestamp(Some(doing.state_change)),
            state = state.map_or_else(|| "NULL".to_owned(), literal),
            query = literal(&doing.query),
        );
    }
}

/// What `pg_stat_database` counts of the database.
pub(in crate::engine) struct DatabaseStats {
    pub(in crate::engine) backends: usize,
    pub(in crate::engine) commits: u64,
    pub(in crate::engine) rollbacks: u64,
    pub(in crate::engine) deadlocks: u64,
    pub(in crate::engine) sessions: u64,
    pub(in crate::engine) killed: u64,
    /// Rows inserted, updated and deleted (see `table_stats`).
    pub(in crate::engine) tuples: Changes,
}

/// `pg_stat_database`'s row of the database. What SQLite cannot tell (blocks
/// read and hit, tuples read, temporary files, the times) is 0; checksums are
/// off.
pub(super) fn database_row(script: &mut String, stats: &DatabaseStats, database: &str) {
    let DatabaseStats {
        backends,
        commits,
        rollbacks,
        deadlocks,
        sessions,
        killed,
        tuples: [inserted, updated, deleted],
    } = stats;
    let _ = writeln!(
        script,
        "INSERT INTO temp.pg_stat_database VALUES ({DATABASE_OID}, {}, {backends}, {commits}, {rollbacks}, 0, 0, 0, 0, {inserted}, {updated}, {deleted}, 0, 0, 0, {deadlocks}, NULL, NULL, 0, 0, 0, 0, 0, {sessions}, 0, 0, {killed}, NULL);",
        literal(database)
    );
}

/// A time as `timestamptz` keeps it (UTC text), or NULL.
pub(super) fn timestamp(time: Option<SystemTime>) -> String {
    let Some(time) = time else {
        return "NULL".to_owned();
    };
    let Ok(since) = time.duration_since(UNIX_EPOCH) else {
        return "NULL".to_owned();
    };
    let usecs =
        i64::try_from(since.as_micros()).unwrap_or(i64::MAX / 2) - PG_EPOCH_DAYS * USECS_PER_DAY;
    literal(&format_timestamp(usecs, true))
}
