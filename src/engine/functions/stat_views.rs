//! The statistics views' functions.
//!
//! `pg_stat_force_next_flush()`: PostgreSQL's sessions report their counts
//! now and then, litewire's counts are the server's own and always current,
//! so there is nothing to flush.
//!
//! `pg_stat_statements_reset([userid [, dbid [, queryid]]])`: forgets the
//! statement counts `pg_stat_statements` shows (see `statement_stats`). A
//! readonly user may not (42501, as anyone but a superuser in PostgreSQL);
//! admins and readwrite users, who own the database's contents, may. A 0
//! argument matches every user, database or statement. Every session runs as the one role
//! and in the one database the catalog names, so a user or database id that
//! is not theirs matches nothing.

use super::call::{Arg, Call, Out};
use super::definition::{Function, Volatility};
use crate::engine::access::Role;
use crate::engine::catalog::oids::{DATABASE_OID, ROLE_OID};
use crate::engine::statement_stats::ResetFilter;
use crate::error::SqlState;

pub(super) const FUNCTIONS: &[Function] = &[
    Function::pg(
        "pg_stat_force_next_flush",
        &[],
        "void",
        Volatility::Volatile,
        |_, _| Out::Text(String::new()),
    ),
    Function::pg(
        "pg_stat_statements_reset",
        &[],
        "void",
        Volatility::Volatile,
        reset,
    ),
    Function::pg(
        "pg_stat_statements_reset",
        &["oid"],
        "void",
        Volatility::Volatile,
        reset,
    ),
    Function::pg(
        "pg_stat_statements_reset",
        &["oid", "oid"],
        "void",
        Volatility::Volatile,
        reset,
    ),
    Function::pg(
        "pg_stat_statements_reset",
        &["oid", "oid", "int8"],
        "void",
        Volatility::Volatile,
        reset,
    ),
];

/// The role id and database id every session has.
const OWN_IDS: [i64; 2] = [ROLE_OID, DATABASE_OID];

fn reset(call: &Call, args: &[Arg]) -> Out {
    let context = &call.context;
    let role = context
        .served()
        .and_then(|served| context.server.backends.role(served.pid()));
    if role.is_none_or(|role| role == Role::ReadOnly) {
        return Out::Fail(
            SqlState::INSUFFICIENT_PRIVILEGE,
            "permission denied for function pg_stat_statements_reset".into(),
        );
    }
    if args.contains(&Arg::Null) {
        return Out::Null;
    }
    let id = |i: usize| args.get(i).and_then(Arg::int).unwrap_or(0);
    let foreign = OWN_IDS
        .iter()
        .enumerate()
        .any(|(i, own)| id(i) != 0 && id(i) != *own);
    if !foreign {
        let queryid = Some(id(2)).filter(|queryid| *queryid != 0);
        let scoped = id(0) != 0 || id(1) != 0;
        context
            .server
            .statements
            .reset(ResetFilter { queryid, scoped });
    }
    Out::Text(String::new())
}
