//! Seeing and steering what the server does: `pg_stat_activity` while
//! PostgreSQL clients, pgbench and HTTP requests run, and
//! `pg_cancel_backend()` / `pg_terminate_backend()` with PostgreSQL's rules on
//! who may signal whom. The calibrated tests pass against PostgreSQL 15
//! (`LITEWIRE_TEST_POSTGRES=... cargo test --test operations -- --ignored`).

mod common;

use std::net::IpAddr;
use std::time::{Duration, Instant};

use common::TestServer;
use common::target::Target;
use futures::SinkExt;
use tokio_postgres::Client;

against_litewire_and_postgres!(
    activity_views_have_postgres_columns,
    activity_follows_each_session,
    cancel_and_terminate_follow_postgres_rules,
    statements_are_counted_as_postgres_counts_them,
    table_changes_are_counted_as_postgres_counts_them,
);

/// PostgreSQL 15's columns of `pg_stat_activity`, with their type names.
const ACTIVITY_COLUMNS: &[(&str, &str)] = &[
    ("datid", "oid"),
    ("datname", "name"),
    ("pid", "int4"),
    ("leader_pid", "int4"),
    ("usesysid", "oid"),
    ("usename", "name"),
    ("application_name", "text"),
    ("client_addr", "inet"),
    ("client_hostname", "text"),
    ("client_port", "int4"),
    ("backend_start", "timestamptz"),
    ("xact_start", "timestamptz"),
    ("query_start", "timestamptz"),
    ("state_change", "timestamptz"),
    ("wait_event_type", "text"),
    ("wait_event", "text"),
    ("state", "text"),
    ("backend_xid", "xid"),
    ("backend_xmin", "xid"),
    ("query_id", "int8"),
    ("query", "text"),
    ("backend_type", "text"),
];

/// PostgreSQL 15's columns of `pg_stat_database`.
const DATABASE_COLUMNS: &[(&str, &str)] = &[
    ("datid", "oid"),
    ("datname", "name"),
    ("numbackends", "int4"),
    ("xact_commit", "int8"),
    ("xact_rollback", "int8"),
    ("blks_read", "int8"),
    ("blks_hit", "int8"),
    ("tup_returned", "int8"),
    ("tup_fetched", "int8"),
    ("tup_inserted", "int8"),
    ("tup_updated", "int8"),
    ("tup_deleted", "int8"),
    ("conflicts", "int8"),
    ("temp_files", "int8"),
    ("temp_bytes", "int8"),
    ("deadlocks", "int8"),
    ("checksum_failures", "int8"),
    ("checksum_last_failure", "timestamptz"),
    ("blk_read_time", "float8"),
    ("blk_write_time", "float8"),
    ("session_time", "float8"),
    ("active_time", "float8"),
    ("idle_in_transaction_time", "float8"),
    ("sessions", "int8"),
    ("sessions_abandoned", "int8"),
    ("sessions_fatal", "int8"),
    ("sessions_killed", "int8"),
    ("stats_reset", "timestamptz"),
];

/// PostgreSQL 15's columns of `pg_locks`.
const LOCKS_COLUMNS: &[(&str, &str)] = &[
    ("locktype", "text"),
    ("database", "oid"),
    ("relation", "oid"),
    ("page", "int4"),
    ("tuple", "int2"),
    ("virtualxid", "text"),
    ("transactionid", "xid"),
    ("classid", "oid"),
    ("objid", "oid"),
    ("objsubid", "int2"),
    ("virtualtransaction", "text"),
    ("pid", "int4"),
    ("mode", "text"),
    ("granted", "bool"),
    ("fastpath", "bool"),
    ("waitstart", "timestamptz"),
];

/// PostgreSQL 15's columns of `pg_stat_statements` (version 1.10).
const STATEMENTS_COLUMNS: &[(&str, &str)] = &[
    ("userid", "oid"),
    ("dbid", "oid"),
    ("toplevel", "bool"),
    ("queryid", "int8"),
    ("query", "text"),
    ("plans", "int8"),
    ("total_plan_time", "float8"),
    ("min_plan_time", "float8"),
    ("max_plan_time", "float8"),
    ("mean_plan_time", "float8"),
    ("stddev_plan_time", "float8"),
    ("calls", "int8"),
    ("total_exec_time", "float8"),
    ("min_exec_time", "float8"),
    ("max_exec_time", "float8"),
    ("mean_exec_time", "float8"),
    ("stddev_exec_time", "float8"),
    ("rows", "int8"),
    ("shared_blks_hit", "int8"),
    ("shared_blks_read", "int8"),
    ("shared_blks_dirtied", "int8"),
    ("shared_blks_written", "int8"),
    ("local_blks_hit", "int8"),
    ("local_blks_read", "int8"),
    ("local_blks_dirtied", "int8"),
    ("local_blks_written", "int8"),
    ("temp_blks_read", "int8"),
    ("temp_blks_written", "int8"),
    ("blk_read_time", "float8"),
    ("blk_write_time", "float8"),
    ("temp_blk_read_time", "float8"),
    ("temp_blk_write_time", "float8"),
    ("wal_records", "int8"),
    ("wal_fpi", "int8"),
    ("wal_bytes", "numeric"),
    ("jit_functions", "int8"),
    ("jit_generation_time", "float8"),
    ("jit_inlining_count", "int8"),
    ("jit_inlining_time", "float8"),
    ("jit_optimization_count", "int8"),
    ("jit_optimization_time", "float8"),
    ("jit_emission_count", "int8"),
    ("jit_emission_time", "float8"),
];

/// PostgreSQL 15's columns of `pg_stat_user_tables`.
const USER_TABLES_COLUMNS: &[(&str, &str)] = &[
    ("relid", "oid"),
    ("schemaname", "name"),
    ("relname", "name"),
    ("seq_scan", "int8"),
    ("seq_tup_read", "int8"),
    ("idx_scan", "int8"),
    ("idx_tup_fetch", "int8"),
    ("n_tup_ins", "int8"),
    ("n_tup_upd", "int8"),
    ("n_tup_del", "int8"),
    ("n_tup_hot_upd", "int8"),
    ("n_live_tup", "int8"),
    ("n_dead_tup", "int8"),
    ("n_mod_since_analyze", "int8"),
    ("n_ins_since_vacuum", "int8"),
    ("last_vacuum", "timestamptz"),
    ("last_autovacuum", "timestamptz"),
    ("last_analyze", "timestamptz"),
    ("last_autoanalyze", "timestamptz"),
    ("vacuum_count", "int8"),
    ("autovacuum_count", "int8"),
    ("analyze_count", "int8"),
    ("autoanalyze_count", "int8"),
];

async fn columns_of(client: &Client, relation: &str) -> Vec<(String, String)> {
    let statement = client
        .prepare(&format!("SELECT * FROM {relation}"))
        .await
        .expect("prepare");
    statement
        .columns()
        .iter()
        .map(|c| (c.name().to_owned(), c.type_().name().to_owned()))
        .collect()
}

fn owned(columns: &[(&str, &str)]) -> Vec<(String, String)> {
    columns
        .iter()
        .map(|(name, ty)| ((*name).to_owned(), (*ty).to_owned()))
        .collect()
}

async fn activity_views_have_postgres_columns(target: &Target) {
    let client = target.connect().await;
    assert_eq!(
        columns_of(&client, "pg_stat_activity").await,
        owned(ACTIVITY_COLUMNS)
    );
    assert_eq!(columns_of(&client, "pg_locks").await, owned(LOCKS_COLUMNS));
    assert_eq!(
        columns_of(&client, "pg_stat_database").await,
        owned(DATABASE_COLUMNS)
    );
    // Every column reads back in binary format too (the extended protocol's
    // typed rows): the session's own row has an address, times and a state.
    let own = client
        .query_one(
            "SELECT client_addr, client_port, backend_start, state, datid \
             FROM pg_stat_activity WHERE pid = pg_backend_pid()",
            &[],
        )
        .await
        .expect("own row");
    assert_eq!(
        own.get::<_, Option<IpAddr>>(0),
        Some(IpAddr::from([127, 0, 0, 1]))
    );
    assert!(own.get::<_, i32>(1) > 0);
    assert!(own.get::<_, Option<std::time::SystemTime>>(2).is_some());
    assert_eq!(own.get::<_, &str>(3), "active");
    assert!(own.get::<_, u32>(4) > 0);
}

/// Statement counts by normalized text, calls and rows, of the statements
/// that name the table `stats_probe`, with the times checked for sense.
async fn probe_statements(client: &Client) -> Vec<(String, i64, i64)> {
    let rows = client
        .query(
            "SELECT query, calls, rows, total_exec_time, min_exec_time, max_exec_time, \
             mean_exec_time, stddev_exec_time FROM pg_stat_statements \
             WHERE query LIKE '%stats_probe%' AND query NOT LIKE '%TABLE%' ORDER BY query",
            &[],
        )
        .await
        .expect("pg_stat_statements");
    rows.iter()
        .map(|row| {
            let calls: i64 = row.get(1);
            let (total, min, max, mean, stddev): (f64, f64, f64, f64, f64) =
                (row.get(3), row.get(4), row.get(5), row.get(6), row.get(7));
            assert!(
                min >= 0.0 && min <= mean && mean <= max,
                "{min} {mean} {max}"
            );
            assert!((mean * calls as f64 - total).abs() <= 1e-6 * total.max(1.0));
            assert!(stddev >= 0.0 && (calls > 1 || stddev == 0.0));
            (row.get(0), calls, row.get(2))
        })
        .collect()
}

/// Reads the rows of `sql` through a portal, `batch` rows per Execute, in a
/// transaction of its own; how many there were.
async fn read_portal(client: &mut Client, sql: &str, batch: i32) -> usize {
    let transaction = client.transaction().await.expect("BEGIN");
    let statement = transaction.prepare(sql).await.expect("prepare");
    let portal = transaction.bind(&statement, &[]).await.expect("bind");
    let mut read = 0;
    loop {
        let rows = transaction
            .query_portal(&portal, batch)
            .await
            .expect("execute");
        read += rows.len();
        if rows.len() < batch as usize {
            break;
        }
    }
    transaction.commit().await.expect("COMMIT");
    read
}

async fn statements_are_counted_as_postgres_counts_them(target: &Target) {
    let mut client = target.connect().await;
    client
        .batch_execute(
            "CREATE EXTENSION IF NOT EXISTS pg_stat_statements; \
             DROP TABLE IF EXISTS stats_probe; CREATE TABLE stats_probe (a int, b text)",
        )
        .await
        .expect("setup");
    let again = client
        .batch_execute("CREATE EXTENSION pg_stat_statements")
        .await;
    assert_eq!(sqlstate_of(again.map(|_| Vec::new())), "42710");
    let missing = client
        .batch_execute("CREATE EXTENSION no_such_extension")
        .await;
    assert_eq!(sqlstate_of(missing.map(|_| Vec::new())), "0A000");
    assert_eq!(
        columns_of(&client, "pg_stat_statements").await,
        owned(STATEMENTS_COLUMNS)
    );
    assert_eq!(
        columns_of(&client, "pg_stat_statements_info").await,
        owned(&[("dealloc", "int8"), ("stats_reset", "timestamptz")])
    );
    let listed = client
        .query_one(
            "SELECT extversion FROM pg_extension WHERE extname = 'pg_stat_statements'",
            &[],
        )
        .await
        .expect("pg_extension");
    assert_eq!(listed.get::<_, &str>(0), "1.10");

    client
        .batch_execute("SELECT pg_stat_statements_reset()")
        .await
        .expect("reset");
    // Constants become parameters; each statement of a string counts apart.
    client
        .batch_execute(
            "INSERT INTO stats_probe VALUES (1, 'a'), (2, 'b'); \
             INSERT INTO stats_probe VALUES (3, 'c'), (4, 'd'); \
             SELECT a FROM stats_probe WHERE b = 'a' AND a > -5 ORDER BY 1",
        )
        .await
        .expect("statements");
    client
        .batch_execute("select a from stats_probe where b = 'zz' and a > 7 order by 1")
        .await
        .expect("statement");
    client
        .batch_execute("UPDATE stats_probe SET b = 'x' WHERE a >= 3")
        .await
        .expect("update");
    // COPY counts the rows it copied.
    let copy = client
        .copy_in("COPY stats_probe (a, b) FROM STDIN")
        .await
        .expect("COPY");
    futures::pin_mut!(copy);
    copy.send(bytes::Bytes::from_static(b"10\tj\n11\tk\n"))
        .await
        .expect("copy data");
    assert_eq!(copy.finish().await.expect("COPY done"), 2);
    // A portal read a few rows at a time counts once, with the rows of its
    // last Execute (PostgreSQL's count).
    let read = read_portal(&mut client, "SELECT a FROM stats_probe ORDER BY a", 4).await;
    assert_eq!(read, 6);
    // A prepared statement keeps its own parameters.
    let count = client
        .prepare("SELECT count(*) FROM stats_probe WHERE a < $1")
        .await
        .expect("prepare");
    for bound in [2, 3, 9] {
        client.query_one(&count, &[&bound]).await.expect("count");
    }
    // A failed statement is not counted.
    let failed = client.batch_execute("SELECT a / 0 FROM stats_probe").await;
    assert_eq!(sqlstate_of(failed.map(|_| Vec::new())), "22012");
    let counted = probe_statements(&client).await;
    let expected = [
        ("COPY stats_probe (a, b) FROM STDIN", 1, 2),
        ("INSERT INTO stats_probe VALUES ($1, $2), ($3, $4)", 2, 4),
        ("SELECT a FROM stats_probe ORDER BY a", 1, 2),
        (
            "SELECT a FROM stats_probe WHERE b = $1 AND a > $2 ORDER BY 1",
            2,
            1,
        ),
        ("SELECT count(*) FROM stats_probe WHERE a < $1", 3, 3),
        ("UPDATE stats_probe SET b = $1 WHERE a >= $2", 1, 2),
    ];
    let expected: Vec<(String, i64, i64)> = expected
        .iter()
        .map(|(query, calls, rows)| ((*query).to_owned(), *calls, *rows))
        .collect();
    assert_eq!(counted, expected);

    // One statement's counts go; then all, and the time of the reset moves.
    let (before,): (std::time::SystemTime,) = {
        let row = client
            .query_one("SELECT stats_reset FROM pg_stat_statements_info", &[])
            .await
            .expect("info");
        (row.get(0),)
    };
    let update_id: i64 = client
        .query_one(
            "SELECT queryid FROM pg_stat_statements WHERE query LIKE 'UPDATE stats_probe%'",
            &[],
        )
        .await
        .expect("queryid")
        .get(0);
    client
        .query("SELECT pg_stat_statements_reset(0, 0, $1)", &[&update_id])
        .await
        .expect("reset one");
    assert_eq!(probe_statements(&client).await.len(), 5);
    client
        .batch_execute("SELECT pg_stat_statements_reset()")
        .await
        .expect("reset all");
    assert!(probe_statements(&client).await.is_empty());
    let row = client
        .query_one(
            "SELECT dealloc, stats_reset FROM pg_stat_statements_info",
            &[],
        )
        .await
        .expect("info");
    assert_eq!(row.get::<_, i64>(0), 0);
    assert!(row.get::<_, std::time::SystemTime>(1) > before);
}

/// `pg_stat_user_tables`' rows inserted, updated and deleted of a table,
/// once the session's counts are reported.
async fn table_changes(client: &Client, table: &str) -> (i64, i64, i64) {
    client
        .batch_execute("SELECT pg_stat_force_next_flush()")
        .await
        .expect("flush");
    let row = client
        .query_one(
            "SELECT n_tup_ins, n_tup_upd, n_tup_del, schemaname::text, relid = $1::text::regclass \
             FROM pg_stat_user_tables WHERE relname = $1",
            &[&table],
        )
        .await
        .expect("pg_stat_user_tables");
    assert_eq!(row.get::<_, &str>(3), "public");
    assert!(row.get::<_, bool>(4), "relid is the table's oid");
    (row.get(0), row.get(1), row.get(2))
}

async fn table_changes_are_counted_as_postgres_counts_them(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS tup_probe; \
             CREATE TABLE tup_probe (a int PRIMARY KEY, b text)",
        )
        .await
        .expect("setup");
    assert_eq!(
        columns_of(&client, "pg_stat_user_tables").await,
        owned(USER_TABLES_COLUMNS)
    );
    assert_eq!(table_changes(&client, "tup_probe").await, (0, 0, 0));
    // Rows of a transaction that rolled back count too; an upsert that
    // updates is an update.
    client
        .batch_execute(
            "INSERT INTO tup_probe VALUES (1, 'a'), (2, 'b'), (3, 'c'); \
             UPDATE tup_probe SET b = 'x' WHERE a >= 2; \
             DELETE FROM tup_probe WHERE a = 3; \
             INSERT INTO tup_probe VALUES (1, 'z') ON CONFLICT (a) DO UPDATE SET b = excluded.b",
        )
        .await
        .expect("changes");
    client
        .batch_execute("BEGIN; INSERT INTO tup_probe VALUES (7, 'r'); ROLLBACK")
        .await
        .expect("rolled back");
    assert_eq!(table_changes(&client, "tup_probe").await, (4, 3, 1));
    // A table made again under the name starts from nothing.
    client
        .batch_execute(
            "DROP TABLE tup_probe; CREATE TABLE tup_probe (a int PRIMARY KEY, b text); \
             INSERT INTO tup_probe VALUES (5, 'e')",
        )
        .await
        .expect("again");
    assert_eq!(table_changes(&client, "tup_probe").await, (1, 0, 0));
}

/// One row of `pg_stat_activity`, the times as whether they are set.
async fn activity_of(client: &Client, pid: i32) -> Vec<Option<String>> {
    let row = client
        .query_one(
            "SELECT state, wait_event_type, wait_event, query, backend_type, application_name, \
                    CASE WHEN xact_start IS NULL THEN 'false' ELSE 'true' END, \
                    CASE WHEN query_start IS NULL THEN 'false' ELSE 'true' END, \
                    CASE WHEN state_change >= backend_start THEN 'true' ELSE 'false' END, \
                    usename::text \
             FROM pg_stat_activity WHERE pid = $1",
            &[&pid],
        )
        .await
        .unwrap_or_else(|error| panic!("the row of {pid}: {error:?}"));
    (0..row.len()).map(|i| row.get(i)).collect()
}

fn strings(values: &[Option<&str>]) -> Vec<Option<String>> {
    values.iter().map(|v| v.map(str::to_owned)).collect()
}

async fn pid_of(client: &Client) -> i32 {
    client
        .query_one("SELECT pg_backend_pid()", &[])
        .await
        .expect("pg_backend_pid()")
        .get(0)
}

/// A client of `target` logged in as `user` with `application_name`.
async fn connect_as(target: &Target, user: &str, application: &str) -> Client {
    let conninfo = target
        .conninfo()
        .replace("user=postgres", &format!("user={user}"));
    let (client, connection) = tokio_postgres::connect(
        &format!("{conninfo} application_name={application}"),
        tokio_postgres::NoTls,
    )
    .await
    .expect("connect");
    tokio::spawn(async move {
        let _ = connection.await;
    });
    client
}

async fn activity_follows_each_session(target: &Target) {
    let watcher = target.connect().await;
    let watched = connect_as(target, "postgres", "watched").await;
    let pid = pid_of(&watched).await;
    let user = watcher
        .query_one("SELECT current_user::text", &[])
        .await
        .expect("current_user")
        .get::<_, String>(0);
    let expected = |state, wait: [Option<&str>; 2], query, in_transaction| {
        let mut row = strings(&[Some(state), wait[0], wait[1], Some(query)]);
        row.extend(strings(&[
            Some("client backend"),
            Some("watched"),
            Some(in_transaction),
            Some("true"),
            Some("true"),
            Some(&user),
        ]));
        row
    };
    let client_read = [Some("Client"), Some("ClientRead")];
    assert_eq!(
        activity_of(&watcher, pid).await,
        expected("idle", client_read, "SELECT pg_backend_pid()", "false")
    );
    watched.batch_execute("BEGIN").await.expect("BEGIN");
    watched.batch_execute("SELECT 1").await.expect("SELECT 1");
    assert_eq!(
        activity_of(&watcher, pid).await,
        expected("idle in transaction", client_read, "SELECT 1", "true")
    );
    let failed = watched.batch_execute("SELECT 1/0").await;
    assert!(failed.is_err());
    assert_eq!(
        activity_of(&watcher, pid).await,
        expected(
            "idle in transaction (aborted)",
            client_read,
            "SELECT 1/0",
            "false"
        )
    );
    watched.batch_execute("ROLLBACK").await.expect("ROLLBACK");
    assert_eq!(
        activity_of(&watcher, pid).await,
        expected("idle", client_read, "ROLLBACK", "false")
    );
    let own = pid_of(&watcher).await;
    let row = activity_of(&watcher, own).await;
    assert_eq!(row[0].as_deref(), Some("active"));
    assert_eq!(row[1], None, "an active session waits for nothing");
}

/// A statement that runs until it is stopped (for hours, in little memory).
const ENDLESS: &str =
    "SELECT count(*) FROM generate_series(1, 100000) a, generate_series(1, 100000) b";

/// Waits until the session of `pid` runs `ENDLESS`.
async fn until_running(watcher: &Client, pid: i32) {
    let started = Instant::now();
    loop {
        let row = watcher
            .query_one(
                "SELECT state = 'active' AND query LIKE '%generate_series%' \
                 FROM pg_stat_activity WHERE pid = $1",
                &[&pid],
            )
            .await
            .expect("the session's row");
        if row.get::<_, bool>(0) {
            return;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the statement never started"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn sqlstate_of(result: Result<Vec<tokio_postgres::Row>, tokio_postgres::Error>) -> String {
    match result {
        Ok(_) => "no error".to_owned(),
        Err(error) => error
            .code()
            .map_or_else(|| error.to_string(), |code| code.code().to_owned()),
    }
}

async fn cancel_and_terminate_follow_postgres_rules(target: &Target) {
    if !target.is_litewire() {
        // PostgreSQL's users are roles made once; litewire's (trust mode) are
        // whoever logs in, each a `readwrite` user.
        let admin = target.connect().await;
        for role in ["ops_bob", "ops_carl"] {
            let _ = admin
                .batch_execute(&format!("CREATE ROLE {role} LOGIN"))
                .await;
        }
    }
    let runner = connect_as(target, "ops_bob", "runner").await;
    let peer = connect_as(target, "ops_bob", "peer").await;
    let stranger = connect_as(target, "ops_carl", "stranger").await;
    let pid = pid_of(&runner).await;

    // Another user's session shows who, not what.
    let seen = stranger
        .query_one(
            "SELECT usename::text, query, state FROM pg_stat_activity WHERE pid = $1",
            &[&pid],
        )
        .await
        .expect("row");
    assert_eq!(seen.get::<_, &str>(0), "ops_bob");
    assert_eq!(seen.get::<_, &str>(1), "<insufficient privilege>");
    assert_eq!(seen.get::<_, Option<&str>>(2), None);

    // One Query message: from the moment it shows as active, a cancel stops
    // it (the extended protocol shows a query active from its Parse, and a
    // cancel before its Execute is forgotten).
    let running = tokio::spawn(async move {
        let result = runner.simple_query(ENDLESS).await.map(|_| Vec::new());
        (runner, sqlstate_of(result))
    });
    until_running(&peer, pid).await;
    let refused = stranger
        .query("SELECT pg_cancel_backend($1)", &[&pid])
        .await;
    assert_eq!(sqlstate_of(refused), "42501");
    let refused = stranger
        .query("SELECT pg_terminate_backend($1)", &[&pid])
        .await;
    assert_eq!(sqlstate_of(refused), "42501");
    let cancelled = peer
        .query_one("SELECT pg_cancel_backend($1)", &[&pid])
        .await
        .expect("pg_cancel_backend");
    assert!(cancelled.get::<_, bool>(0));
    let (runner, outcome) = running.await.expect("the runner");
    assert_eq!(outcome, "57014", "the cancelled statement");
    // A session that cancels itself stops the statement that asks.
    let itself = common::sqlstate(&runner, "SELECT pg_cancel_backend(pg_backend_pid())").await;
    assert_eq!(itself, "57014");
    // Cancelled, the session goes on.
    let row = runner
        .query_one("SELECT 1", &[])
        .await
        .expect("after cancel");
    assert_eq!(row.get::<_, i32>(0), 1);

    // Terminated inside a transaction block, it ends.
    runner.batch_execute("BEGIN").await.expect("BEGIN");
    let nobody = peer
        .query_one("SELECT pg_terminate_backend(2147483000)", &[])
        .await
        .expect("an unknown pid");
    assert!(!nobody.get::<_, bool>(0));
    let negative = peer
        .query("SELECT pg_terminate_backend($1, -1)", &[&pid])
        .await;
    assert_eq!(sqlstate_of(negative), "22003");
    let terminated = peer
        .query_one("SELECT pg_terminate_backend($1, 10000)", &[&pid])
        .await
        .expect("pg_terminate_backend");
    assert!(terminated.get::<_, bool>(0), "gone within the timeout");
    assert!(runner.query("SELECT 1", &[]).await.is_err());
    let left = peer
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = $1",
            &[&pid],
        )
        .await
        .expect("count");
    assert_eq!(left.get::<_, i64>(0), 0);

    // A session that cancels itself fails its statement; one that terminates
    // itself ends at once, with no answer to its statement.
    let cancelled = peer
        .query("SELECT pg_cancel_backend(pg_backend_pid())", &[])
        .await;
    assert_eq!(sqlstate_of(cancelled), "57014");
    let ended = peer
        .query("SELECT pg_terminate_backend(pg_backend_pid())", &[])
        .await;
    assert_eq!(sqlstate_of(ended), "57P01");
    assert!(peer.is_closed() || peer.query("SELECT 1", &[]).await.is_err());
}

/// litewire's own sessions: HTTP requests waiting for the write permit are
/// listed with what they wait for and whom, next to pgbench's clients, and
/// can be ended from psql.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_requests_and_pgbench_are_listed_and_can_be_ended() {
    let server = TestServer::start("shared", &[]);
    let init = pgbench(&server, &["-i", "-s", "1"])
        .output()
        .expect("pgbench -i");
    assert!(init.status.success(), "{}", common::stderr(&init));
    let bench = pgbench(&server, &["-n", "-S", "-c", "2", "-T", "10"])
        .spawn()
        .expect("pgbench -S");

    // One session holds the write permit, idle in its transaction.
    let holder = as_litewire(&server).await;
    holder
        .batch_execute("BEGIN; UPDATE pgbench_branches SET bbalance = bbalance + 1 WHERE bid = 1")
        .await
        .expect("the holder's write");
    let holder_pid = pid_of(&holder).await;
    let http = {
        let url = server.url("/");
        tokio::spawn(async move {
            let body = serde_json::json!({"statements": [
                "UPDATE pgbench_branches SET bbalance = bbalance - 1 WHERE bid = 1"
            ]});
            let response = reqwest::Client::new()
                .post(url)
                .json(&body)
                .send()
                .await
                .expect("POST /");
            response.text().await.expect("body")
        })
    };

    let watcher = as_litewire(&server).await;
    let started = Instant::now();
    let http_pid = loop {
        let rows = watcher
            .query(
                "SELECT pid FROM pg_stat_activity WHERE backend_type = 'http request' \
                 AND wait_event = 'object'",
                &[],
            )
            .await
            .expect("http sessions");
        if let Some(row) = rows.first() {
            break row.get::<_, i32>(0);
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "no waiting HTTP session"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    let waiting = watcher
        .query_one(
            "SELECT state, wait_event_type, query, pg_blocking_pids(pid)::text, client_addr \
             FROM pg_stat_activity WHERE pid = $1",
            &[&http_pid],
        )
        .await
        .expect("the HTTP session");
    assert_eq!(waiting.get::<_, &str>(0), "active");
    assert_eq!(waiting.get::<_, &str>(1), "Lock");
    assert!(
        waiting
            .get::<_, &str>(2)
            .starts_with("UPDATE pgbench_branches")
    );
    assert_eq!(waiting.get::<_, String>(3), format!("{{{holder_pid}}}"));
    assert_eq!(
        waiting.get::<_, Option<IpAddr>>(4),
        Some(IpAddr::from([127, 0, 0, 1]))
    );
    // pg_locks: the holder's permit, and the request's wait, since when.
    let lock = watcher
        .query_one(
            "SELECT locktype, mode, granted, \
                    CASE WHEN waitstart IS NULL THEN 'no' ELSE 'yes' END \
             FROM pg_locks WHERE pid = $1",
            &[&http_pid],
        )
        .await
        .expect("the HTTP session's lock");
    assert_eq!(lock.get::<_, &str>(0), "object");
    assert_eq!(lock.get::<_, &str>(1), "ExclusiveLock");
    assert!(!lock.get::<_, bool>(2));
    assert_eq!(lock.get::<_, &str>(3), "yes");
    let held = watcher
        .query_one(
            "SELECT granted, CASE WHEN waitstart IS NULL THEN 'no' ELSE 'yes' END \
             FROM pg_locks WHERE pid = $1",
            &[&holder_pid],
        )
        .await
        .expect("the holder's lock");
    assert!(held.get::<_, bool>(0));
    assert_eq!(held.get::<_, &str>(1), "no");
    let holder_row = activity_of(&watcher, holder_pid).await;
    assert_eq!(holder_row[0].as_deref(), Some("idle in transaction"));
    // pgbench's two clients, once both have connected.
    loop {
        let benching = watcher
            .query_one(
                "SELECT count(*) FROM pg_stat_activity WHERE application_name = 'pgbench' \
                 AND backend_type = 'client backend'",
                &[],
            )
            .await
            .expect("pgbench's sessions")
            .get::<_, i64>(0);
        assert!(benching <= 2, "{benching} pgbench sessions");
        if benching == 2 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "pgbench never connected"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    let ended = watcher
        .query_one("SELECT pg_terminate_backend($1)", &[&http_pid])
        .await
        .expect("pg_terminate_backend");
    assert!(ended.get::<_, bool>(0));
    let answer = http.await.expect("the HTTP request");
    assert!(
        answer.contains("terminating connection due to administrator command"),
        "{answer}"
    );
    holder.batch_execute("ROLLBACK").await.expect("ROLLBACK");
    let bench = bench.wait_with_output().expect("pgbench");
    assert!(bench.status.success(), "{}", common::stderr(&bench));
}

/// A client logged in as `litewire`: in trust mode HTTP requests run as that
/// user, and a session of the same user sees them whole.
async fn as_litewire(server: &TestServer) -> Client {
    server.connect_as("litewire").await.0
}

fn pgbench(server: &TestServer, args: &[&str]) -> std::process::Command {
    let mut command = std::process::Command::new("pgbench");
    command
        .args(["-h", "127.0.0.1", "-p", &server.pg.port().to_string()])
        .args(["-U", "postgres"])
        .args(args)
        .arg("litewire")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    command
}

/// Waits until a log line contains `text`; returns it.
fn until_logged(server: &TestServer, text: &str) -> String {
    let started = Instant::now();
    loop {
        if let Some(line) = server.logs().into_iter().find(|line| line.contains(text)) {
            return line;
        }
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "never logged {text:?}: {:#?}",
            server.logs()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_queries_connections_and_lock_waits_are_logged() {
    let server = TestServer::start(
        "shared",
        &[
            "--log-min-duration-statement",
            "0",
            "--log-connections",
            "--log-disconnections",
            "--log-lock-waits",
        ],
    );
    let (holder, holder_conn) = server.connect().await;
    let holder_pid = pid_of(&holder).await;
    holder
        .batch_execute("CREATE TABLE w (v int); BEGIN; INSERT INTO w VALUES (1)")
        .await
        .expect("the holder's write");
    let (waiter, _waiter_conn) = server.connect().await;
    let waiter_pid = pid_of(&waiter).await;
    waiter
        .batch_execute("SET deadlock_timeout = '50ms'")
        .await
        .expect("SET");
    let waiting = tokio::spawn(async move {
        waiter
            .batch_execute("INSERT INTO w VALUES (2)")
            .await
            .map(|()| waiter)
    });
    let still = until_logged(&server, "still waiting for");
    assert!(
        still.contains(&format!(
            "process {waiter_pid} still waiting for ExclusiveLock on the database's write lock after"
        )) && still.contains(&format!("process holding the lock: {holder_pid}")),
        "{still}"
    );
    holder.batch_execute("COMMIT").await.expect("COMMIT");
    let waiter = waiting.await.expect("the waiter").expect("its insert");
    let acquired = until_logged(&server, &format!("process {waiter_pid} acquired"));
    assert!(acquired.contains(" ms"), "{acquired}");

    let slow = until_logged(&server, "statement: INSERT INTO w VALUES (2)");
    assert!(slow.contains("duration: "), "{slow}");
    assert!(slow.contains(&format!("pid={waiter_pid}")), "{slow}");
    let received = until_logged(&server, "connection received: host=127.0.0.1 port=");
    assert!(
        received.contains(&format!("pid={holder_pid}")),
        "{received}"
    );
    until_logged(
        &server,
        "connection authorized: user=postgres database=litewire",
    );
    drop(waiter);
    drop(holder);
    holder_conn.abort();
    let ended = until_logged(&server, "disconnection: session time: 0:00:");
    assert!(
        ended.contains("user=postgres database=litewire host=127.0.0.1"),
        "{ended}"
    );

    // Under the threshold, nothing is logged.
    let quick = TestServer::start("shared", &["--log-min-duration-statement", "60000"]);
    let (client, _conn) = quick.connect().await;
    client.batch_execute("SELECT 42").await.expect("SELECT 42");
    client.batch_execute("SELECT 43").await.expect("SELECT 43");
    assert!(
        !quick.logs().iter().any(|line| line.contains("duration:")),
        "{:#?}",
        quick.logs()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_parse_line_by_line() {
    let mut server = TestServer::start(
        "shared",
        &["--log-format", "json", "--log-min-duration-statement", "0"],
    );
    let (client, _conn) = server.connect().await;
    client.batch_execute("SELECT 42").await.expect("SELECT 42");
    until_logged(&server, "statement: SELECT 42");
    assert!(server.stop().success());
    let lines: Vec<serde_json::Value> = server
        .logs()
        .iter()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    let serving = lines
        .iter()
        .find(|line| line["message"] == "litewire is serving")
        .expect("the serving line");
    assert_eq!(serving["level"], "INFO");
    assert!(
        serving["postgres"]
            .as_str()
            .is_some_and(|a| a.starts_with("127.0.0.1:"))
    );
    let slow = lines
        .iter()
        .find(|line| {
            line["message"]
                .as_str()
                .is_some_and(|m| m.ends_with("statement: SELECT 42"))
        })
        .expect("the statement's line");
    assert!(slow["pid"].as_i64().is_some_and(|pid| pid > 0), "{slow}");
    assert!(
        slow["duration_ms"].as_f64().is_some_and(|ms| ms >= 0.0),
        "{slow}"
    );
    assert_eq!(slow["user"], "postgres");
    assert!(slow["timestamp"].is_string(), "{slow}");
}

/// `pg_stat_database`'s transaction counts for the database, and its backends.
async fn database_counts(client: &Client) -> (i64, i64, i32) {
    let row = client
        .query_one(
            "SELECT xact_commit, xact_rollback, numbackends FROM pg_stat_database \
             WHERE datname = current_database()",
            &[],
        )
        .await
        .expect("pg_stat_database");
    (row.get(0), row.get(1), row.get(2))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pg_stat_database_counts_pgbench_transactions() {
    let server = TestServer::start("shared", &[]);
    let init = pgbench(&server, &["-i", "-s", "1"])
        .output()
        .expect("pgbench -i");
    assert!(init.status.success(), "{}", common::stderr(&init));
    let (watcher, _conn) = server.connect().await;
    watcher
        .batch_execute("SELECT pg_stat_statements_reset()")
        .await
        .expect("reset");
    let (commits, rollbacks, backends) = database_counts(&watcher).await;
    assert_eq!(backends, 1, "the watcher alone");
    let run = pgbench(&server, &["-n", "-S", "-c", "2", "-t", "100"])
        .output()
        .expect("pgbench -S");
    assert!(run.status.success(), "{}", common::stderr(&run));
    assert!(
        common::stdout(&run).contains("number of transactions actually processed: 200/200"),
        "{}",
        common::stdout(&run)
    );
    // The 200 point reads, pgbench's two look-ups (the scale, partitions)
    // and the watcher's first read (counted once it ended).
    let (after, _, _) = database_counts(&watcher).await;
    assert_eq!(after - commits, 200 + 2 + 1);
    // TPC-B's explicit blocks count once each; a failed statement rolls back.
    let run = pgbench(&server, &["-n", "-c", "1", "-t", "10"])
        .output()
        .expect("pgbench");
    assert!(run.status.success(), "{}", common::stderr(&run));
    assert!(watcher.batch_execute("SELECT 1/0").await.is_err());
    let (last, failed, _) = database_counts(&watcher).await;
    assert_eq!(last - after, 10 + 2 + 1);
    assert_eq!(failed - rollbacks, 1);
    // pg_stat_statements counted each of pgbench's statements once per
    // transaction: 200 point reads, then 10 more in TPC-B's.
    let calls = |text: &'static str| {
        let watcher = &watcher;
        async move {
            let row = watcher
                .query_one(
                    "SELECT calls, rows FROM pg_stat_statements WHERE query = $1",
                    &[&text],
                )
                .await
                .expect(text);
            (row.get::<_, i64>(0), row.get::<_, i64>(1))
        }
    };
    assert_eq!(
        calls("SELECT abalance FROM pgbench_accounts WHERE aid = $1").await,
        (210, 210)
    );
    assert_eq!(
        calls("UPDATE pgbench_accounts SET abalance = abalance + $1 WHERE aid = $2").await,
        (10, 10)
    );
    assert_eq!(calls("END").await, (10, 0));
}

/// `GET /metrics` as Prometheus reads it.
async fn scrape(server: &TestServer) -> String {
    let response = reqwest::get(server.url("/metrics"))
        .await
        .expect("GET /metrics");
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"].to_str().expect("ascii");
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    response.text().await.expect("body")
}

/// The value of the sample `name` (with its labels, as written) in a scrape.
fn sample(scrape: &str, name: &str) -> f64 {
    scrape
        .lines()
        .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
        .unwrap_or_else(|| panic!("no {name} in the scrape"))
        .parse()
        .expect("a number")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_what_pgbench_and_http_did_and_pass_promtool() {
    let server = TestServer::start("shared", &[]);
    let init = pgbench(&server, &["-i", "-s", "1"])
        .output()
        .expect("pgbench -i");
    assert!(init.status.success(), "{}", common::stderr(&init));
    let before = scrape(&server).await;
    let run = pgbench(&server, &["-n", "-c", "2", "-t", "50"])
        .output()
        .expect("pgbench");
    assert!(run.status.success(), "{}", common::stderr(&run));
    server.http_query("SELECT 1").await;
    let (status, _) = server
        .post(r#"{"statements": ["SELECT * FROM no_such_table"]}"#, None)
        .await;
    assert_eq!(status, 200);
    // A one-request Hrana stream: one statement, its stream closed with it.
    let hrana = reqwest::Client::new()
        .post(server.url("/v3/pipeline"))
        .json(&serde_json::json!({"requests": [
            {"type": "execute", "stmt": {"sql": "SELECT 2"}},
            {"type": "close"}
        ]}))
        .send()
        .await
        .expect("POST /v3/pipeline");
    assert_eq!(hrana.status(), 200);
    let after = scrape(&server).await;
    let grew = |name: &str| sample(&after, name) - sample(&before, name);
    // TPC-B: 100 transactions of BEGIN, 3 UPDATEs, a SELECT, an INSERT, END;
    // and pgbench's two look-ups, the HTTP and the Hrana SELECT, each a
    // transaction of its own; the failed HTTP one rolled back.
    assert_eq!(
        grew(r#"litewire_transactions_total{outcome="commit"}"#),
        100.0 + 2.0 + 2.0
    );
    assert_eq!(
        grew(r#"litewire_transactions_total{outcome="rollback"}"#),
        1.0
    );
    assert_eq!(
        grew(r#"litewire_statements_total{kind="update",outcome="ok"}"#),
        300.0
    );
    assert_eq!(
        grew(r#"litewire_statements_total{kind="insert",outcome="ok"}"#),
        100.0
    );
    // pgbench's own look at the scale adds a few.
    let selects = grew(r#"litewire_statements_total{kind="select",outcome="ok"}"#);
    assert!((102.0..=111.0).contains(&selects), "{selects}");
    assert_eq!(
        grew(r#"litewire_statements_total{kind="select",outcome="error"}"#),
        1.0
    );
    assert_eq!(
        grew(r#"litewire_query_duration_seconds_count{frontend="http"}"#),
        2.0
    );
    assert_eq!(
        grew(r#"litewire_query_duration_seconds_count{frontend="hrana"}"#),
        1.0
    );
    assert!(grew(r#"litewire_query_duration_seconds_count{frontend="postgres"}"#) >= 700.0);
    assert!(grew(r#"litewire_write_permit_hold_seconds_count"#) >= 100.0);
    assert!(sample(&after, "process_resident_memory_bytes") > 1e6);
    // Rows: TPC-B's, as the tables saw them change; the SELECTs' one row each.
    assert_eq!(grew(r#"litewire_rows_total{operation="inserted"}"#), 100.0);
    assert_eq!(grew(r#"litewire_rows_total{operation="updated"}"#), 300.0);
    assert_eq!(grew(r#"litewire_rows_total{operation="deleted"}"#), 0.0);
    let returned = grew(r#"litewire_rows_total{operation="returned"}"#);
    assert!((104.0..=113.0).contains(&returned), "{returned}");
    // The WAL holds TPC-B's pages until a checkpoint copies them (here one
    // from another connection to the file, as any checkpointer may).
    let written = sample(&after, r#"litewire_wal_frames{state="written"}"#);
    assert!(written > 0.0, "{written}");
    assert!(sample(&after, r#"litewire_wal_frames{state="checkpointed"}"#) <= written);
    {
        use sqlx::{ConnectOptions, Executor};
        let mut file = sqlx::sqlite::SqliteConnectOptions::new()
            .filename(&server.db)
            .connect()
            .await
            .expect("open the database file");
        file.execute("PRAGMA wal_checkpoint(PASSIVE)")
            .await
            .expect("checkpoint");
    }
    let checkpointed = scrape(&server).await;
    assert_eq!(
        sample(
            &checkpointed,
            r#"litewire_wal_frames{state="checkpointed"}"#
        ),
        sample(&checkpointed, r#"litewire_wal_frames{state="written"}"#),
    );
    // A portal read three rows at a time returns its rows once each.
    {
        let (mut client, _conn) = server.connect().await;
        let before = scrape(&server).await;
        let sql = "SELECT aid FROM pgbench_accounts WHERE aid <= 10";
        assert_eq!(read_portal(&mut client, sql, 3).await, 10);
        let read = scrape(&server).await;
        let returned = r#"litewire_rows_total{operation="returned"}"#;
        assert_eq!(sample(&read, returned) - sample(&before, returned), 10.0);
    }
    // Bytes: at least what each client wrote and read.
    for (frontend, least) in [("postgres", 100.0 * 7.0 * 20.0), ("http", 200.0)] {
        for direction in ["received", "sent"] {
            let name = format!(
                r#"litewire_network_bytes_total{{frontend="{frontend}",direction="{direction}"}}"#
            );
            assert!(grew(&name) >= least, "{name}: {}", grew(&name));
        }
    }

    let mut promtool = std::process::Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run promtool (is prometheus installed?)");
    use std::io::Write as _;
    promtool
        .stdin
        .take()
        .expect("stdin")
        .write_all(after.as_bytes())
        .expect("write the scrape");
    let checked = promtool.wait_with_output().expect("promtool");
    assert!(
        checked.status.success() && checked.stdout.is_empty() && checked.stderr.is_empty(),
        "promtool: {}{}",
        common::stdout(&checked),
        common::stderr(&checked)
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_listener_serves_scrapers_without_credentials() {
    let server = TestServer::start(
        "shared",
        &["--password", "s3cret", "--metrics-listen", "127.0.0.1:0"],
    );
    let address = metrics_address(&server);
    let client = reqwest::Client::new();
    let scrape = client
        .get(format!("http://{address}/metrics"))
        .send()
        .await
        .expect("GET /metrics");
    assert_eq!(scrape.status(), 200);
    let text = scrape.text().await.expect("body");
    assert!(text.contains("# TYPE litewire_sessions gauge"), "{text}");
    let ready = client
        .get(format!("http://{address}/ready"))
        .send()
        .await
        .expect("GET /ready");
    assert_eq!(ready.status(), 200);
    // Nothing else is served there; the HTTP port still asks for credentials.
    let other = client
        .post(format!("http://{address}/"))
        .body(r#"{"statements": ["SELECT 1"]}"#)
        .send()
        .await
        .expect("POST /");
    assert_eq!(other.status(), 404);
    let guarded = client
        .get(server.url("/metrics"))
        .send()
        .await
        .expect("GET /metrics on the HTTP port");
    assert_eq!(guarded.status(), 401);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_ends_when_shutdown_begins() {
    let mut server = TestServer::start(
        "shared",
        &[
            "--metrics-listen",
            "127.0.0.1:0",
            "--shutdown-grace-ms",
            "10000",
        ],
    );
    let address = metrics_address(&server);
    let ready = format!("http://{address}/ready");
    assert_eq!(
        reqwest::get(&ready).await.expect("GET /ready").status(),
        200
    );
    // A statement that runs on keeps the server draining for a while.
    let (client, _conn) = server.connect().await;
    let running = tokio::spawn(async move { client.simple_query("SELECT pg_sleep(2)").await });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let pid = server.pid().to_string();
    let _ = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status();
    let deadline = Instant::now() + Duration::from_secs(2);
    let mut status = 200;
    while status == 200 && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(50)).await;
        status = reqwest::get(&ready)
            .await
            .expect("GET /ready while draining")
            .status()
            .as_u16();
    }
    assert_eq!(status, 503, "/ready while shutting down");
    let scrape = reqwest::get(format!("http://{address}/metrics"))
        .await
        .expect("GET /metrics while draining");
    assert_eq!(scrape.status(), 200);
    // The running statement finished within the grace period.
    assert!(running.await.expect("join").is_ok());
    assert!(server.stop().success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readiness_waits_for_the_database_to_open() {
    use sqlx::{ConnectOptions, Executor};
    // Another process's exclusive lock keeps the database from opening.
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("test.db");
    let mut holder = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&db)
        .create_if_missing(true)
        .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
        .connect()
        .await
        .expect("create the database");
    holder
        .execute("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; CREATE TABLE held (a int)")
        .await
        .expect("hold the database");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    let address = format!("127.0.0.1:{port}");
    let starting = {
        let address = address.clone();
        std::thread::spawn(move || {
            TestServer::start_at(
                dir,
                db,
                "shared",
                &["--metrics-listen", &address, "--busy-timeout-ms", "20000"],
            )
        })
    };
    let ready = format!("http://{address}/ready");
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Ok(response) = reqwest::get(&ready).await {
            break response.status().as_u16();
        }
        assert!(Instant::now() < deadline, "the listener did not open");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(status, 503, "/ready while the database opens");
    holder.execute("COMMIT").await.expect("let go");
    drop(holder);
    let server = starting.join().expect("the server started");
    assert_eq!(
        reqwest::get(&ready).await.expect("GET /ready").status(),
        200
    );
    assert_eq!(metrics_address(&server), address);
}

/// The `--metrics-listen` listener's address, from the line the server
/// announces itself with.
fn metrics_address(server: &TestServer) -> String {
    let serving = server
        .logs()
        .into_iter()
        .find(|line| line.contains("litewire is serving"))
        .expect("the serving line");
    serving
        .split_whitespace()
        .find_map(|field| field.strip_prefix("metrics="))
        .expect("the metrics listener's address")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prometheus_scrapes_the_server() {
    let server = TestServer::start("shared", &[]);
    server.http_query("CREATE TABLE p (v int)").await;
    for v in 0..3 {
        server
            .http_query(&format!("INSERT INTO p VALUES ({v})"))
            .await;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: litewire\n    static_configs:\n      - targets: ['{}']\n",
            server.http
        ),
    )
    .expect("write prometheus.yml");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let mut prometheus = std::process::Command::new("prometheus")
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.path().join("data").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("run prometheus (is prometheus installed?)");
    let query = format!(
        "http://127.0.0.1:{port}/api/v1/query?query=litewire_statements_total%7Bkind%3D%22insert%22%2Coutcome%3D%22ok%22%7D"
    );
    let started = Instant::now();
    let value = loop {
        let answer = match reqwest::get(&query).await {
            Ok(response) => response.json::<serde_json::Value>().await.ok(),
            Err(_) => None,
        };
        let value = answer.as_ref().and_then(|a| {
            a["data"]["result"][0]["value"][1]
                .as_str()
                .map(str::to_owned)
        });
        if let Some(value) = value {
            break value;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "Prometheus never answered: {answer:?}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let _ = prometheus.kill();
    let _ = prometheus.wait();
    assert_eq!(value, "3");
}
