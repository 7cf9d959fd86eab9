//! What statement preparation costs in litewire's own code, before SQLite sees it:
//! the fast path (SQLite SQL and pgbench's statements, one lexer pass) against the
//! PostgreSQL-dialect path (a full sqlparser parse, rewrite and print), which only
//! statements with PostgreSQL syntax take, once per prepared statement.
//!
//! `cargo bench --bench sql`

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use litewire::sql::parse_single;

const CASES: &[(&str, &str)] = &[
    (
        "fast/pgbench_select",
        "SELECT abalance FROM pgbench_accounts WHERE aid = $1",
    ),
    (
        "fast/pgbench_update",
        "UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2",
    ),
    (
        "fast/pgbench_insert",
        "INSERT INTO pgbench_history (tid, bid, aid, delta, mtime) VALUES ($1, $2, $3, $4, CURRENT_TIMESTAMP)",
    ),
    (
        "translated/cast_ilike",
        "SELECT id::text, name FROM public.users WHERE name ILIKE $1 AND created < now()",
    ),
    (
        "translated/psql_describe_lookup",
        "SELECT c.oid, n.nspname, c.relname FROM pg_catalog.pg_class c LEFT JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.relname OPERATOR(pg_catalog.~) '^(child)$' COLLATE pg_catalog.default AND pg_catalog.pg_table_is_visible(c.oid) ORDER BY 2, 3",
    ),
];

fn parse(c: &mut Criterion) {
    for (name, sql) in CASES {
        c.bench_function(&format!("parse/{name}"), |b| {
            b.iter(|| parse_single(black_box(sql)).expect("parses"))
        });
    }
}

criterion_group! {
    name = sql_benches;
    config = Criterion::default().sample_size(30).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(500));
    targets = parse
}
criterion_main!(sql_benches);
