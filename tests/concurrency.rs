//! Concurrency as PostgreSQL promises it, checked with concurrent clients:
//! locking reads (`FOR UPDATE`, `NOWAIT`, `SKIP LOCKED`), REPEATABLE READ and
//! SERIALIZABLE transactions that never lose an update, advisory locks and
//! deadlock detection. Every test passes against PostgreSQL 15 too
//! (`LITEWIRE_TEST_POSTGRES=... cargo test --test concurrency -- --ignored`).

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use common::target::Target;
use tokio_postgres::Client;
use tokio_postgres::error::SqlState;

against_litewire_and_postgres!(
    counters_under_for_update_lose_nothing,
    counters_under_repeatable_read_lose_nothing,
    counters_under_serializable_lose_nothing,
    write_skew_is_refused_under_serializable,
    repeatable_read_reads_one_snapshot,
    nowait_fails_at_once,
    skip_locked_queue_hands_each_job_once,
    transfers_keep_the_sum_for_every_audit,
    advisory_locks_across_sessions,
    advisory_lock_waits_end_with_cancel_and_timeout,
    a_deadlock_fails_one_of_two,
    isolation_levels_are_asked_every_way,
    read_only_transactions_refuse_writes,
    locks_are_visible_in_pg_locks,
);

const CLIENTS: usize = 4;
const INCREMENTS: usize = 30;

/// Whether `error` is one a client retries the whole transaction on.
fn retryable(error: &tokio_postgres::Error) -> bool {
    matches!(
        error.code(),
        Some(&SqlState::T_R_SERIALIZATION_FAILURE) | Some(&SqlState::T_R_DEADLOCK_DETECTED)
    )
}

/// Makes `table` anew (a calibration database keeps tables between runs).
async fn fresh_table(client: &Client, table: &str, columns: &str) {
    client
        .batch_execute(&format!(
            "DROP TABLE IF EXISTS {table}; CREATE TABLE {table} ({columns})"
        ))
        .await
        .expect("make the table");
}

/// `CLIENTS` clients each run `INCREMENTS` read-then-write increments of one
/// counter in transactions begun with `begin`, each retried on 40001 until it
/// commits; returns the final count and the retries.
async fn increment_concurrently(
    target: &Target,
    table: &str,
    begin: &str,
    select: &str,
) -> (i64, u64) {
    let setup = target.connect().await;
    fresh_table(&setup, table, "id int PRIMARY KEY, n int NOT NULL").await;
    setup
        .batch_execute(&format!("INSERT INTO {table} VALUES (1, 0)"))
        .await
        .unwrap();
    let retries = Arc::new(AtomicU64::new(0));
    let mut workers = Vec::new();
    for _ in 0..CLIENTS {
        let client = target.connect().await;
        let (table, begin, select) = (table.to_owned(), begin.to_owned(), select.to_owned());
        let retries = retries.clone();
        workers.push(tokio::spawn(async move {
            for _ in 0..INCREMENTS {
                loop {
                    let attempt = async {
                        client.batch_execute(&begin).await?;
                        let row = client
                            .query_one(&format!("SELECT n FROM {table} WHERE id = 1{select}"), &[])
                            .await?;
                        let n: i32 = row.get(0);
                        client
                            .execute(
                                &format!("UPDATE {table} SET n = $1 WHERE id = 1"),
                                &[&(n + 1)],
                            )
                            .await?;
                        client.batch_execute("COMMIT").await
                    }
                    .await;
                    match attempt {
                        Ok(()) => break,
                        Err(error) if retryable(&error) => {
                            retries.fetch_add(1, Ordering::Relaxed);
                            client.batch_execute("ROLLBACK").await.unwrap();
                        }
                        Err(error) => panic!("increment failed: {error:?}"),
                    }
                }
            }
        }));
    }
    for worker in workers {
        worker.await.expect("worker");
    }
    let row = setup
        .query_one(&format!("SELECT n FROM {table} WHERE id = 1"), &[])
        .await
        .unwrap();
    (row.get::<_, i32>(0).into(), retries.load(Ordering::Relaxed))
}

fn report(level: &str, retries: u64) {
    let transactions = (CLIENTS * INCREMENTS) as u64;
    println!(
        "{level}: {retries} retries for {transactions} transactions ({} per 1 000)",
        retries * 1000 / transactions
    );
}

async fn counters_under_for_update_lose_nothing(target: &Target) {
    let (count, retries) =
        increment_concurrently(target, "counter_for_update", "BEGIN", " FOR UPDATE").await;
    report("READ COMMITTED, FOR UPDATE", retries);
    assert_eq!(count, (CLIENTS * INCREMENTS) as i64);
    assert_eq!(retries, 0, "a locking read never needs a retry");
}

async fn counters_under_repeatable_read_lose_nothing(target: &Target) {
    let (count, retries) = increment_concurrently(
        target,
        "counter_repeatable_read",
        "BEGIN ISOLATION LEVEL REPEATABLE READ",
        "",
    )
    .await;
    report("REPEATABLE READ", retries);
    assert_eq!(count, (CLIENTS * INCREMENTS) as i64);
}

async fn counters_under_serializable_lose_nothing(target: &Target) {
    let (count, retries) = increment_concurrently(
        target,
        "counter_serializable",
        "BEGIN ISOLATION LEVEL SERIALIZABLE",
        "",
    )
    .await;
    report("SERIALIZABLE", retries);
    assert_eq!(count, (CLIENTS * INCREMENTS) as i64);
}

/// Two doctors on call; two transactions each see both on call and take one
/// off. PostgreSQL's SERIALIZABLE fails one of them: somebody stays on call.
async fn write_skew_is_refused_under_serializable(target: &Target) {
    let setup = target.connect().await;
    fresh_table(
        &setup,
        "doctors",
        "name text PRIMARY KEY, on_call boolean NOT NULL",
    )
    .await;
    for round in 0..5 {
        setup
            .batch_execute(
                "DELETE FROM doctors; INSERT INTO doctors VALUES ('alice', true), ('bob', true)",
            )
            .await
            .unwrap();
        let (a, b) = (target.connect().await, target.connect().await);
        for client in [&a, &b] {
            client
                .batch_execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
                .await
                .unwrap();
            let on_call: i64 = client
                .query_one("SELECT count(*) FROM doctors WHERE on_call", &[])
                .await
                .unwrap()
                .get(0);
            assert_eq!(on_call, 2, "round {round}");
        }
        let first = a
            .batch_execute("UPDATE doctors SET on_call = false WHERE name = 'alice'; COMMIT")
            .await;
        let second = b
            .batch_execute("UPDATE doctors SET on_call = false WHERE name = 'bob'; COMMIT")
            .await;
        let failures: Vec<&tokio_postgres::Error> = [&first, &second]
            .into_iter()
            .filter_map(|r| r.as_ref().err())
            .collect();
        assert_eq!(failures.len(), 1, "round {round}: {first:?} {second:?}");
        assert_eq!(
            failures[0].code(),
            Some(&SqlState::T_R_SERIALIZATION_FAILURE),
            "round {round}"
        );
        for client in [&a, &b] {
            client.batch_execute("ROLLBACK").await.unwrap();
        }
        let on_call: i64 = setup
            .query_one("SELECT count(*) FROM doctors WHERE on_call", &[])
            .await
            .unwrap()
            .get(0);
        assert_eq!(on_call, 1, "round {round}: somebody stays on call");
    }
}

/// A REPEATABLE READ transaction sees what was committed before its first
/// statement, whatever commits later; READ COMMITTED sees each commit.
async fn repeatable_read_reads_one_snapshot(target: &Target) {
    let (reader, writer) = (target.connect().await, target.connect().await);
    fresh_table(&writer, "snapshot_stability", "id int PRIMARY KEY, v int").await;
    writer
        .batch_execute("INSERT INTO snapshot_stability VALUES (1, 1)")
        .await
        .unwrap();
    reader
        .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        .await
        .unwrap();
    let value = |row: tokio_postgres::Row| row.get::<_, i32>(0);
    let first = value(
        reader
            .query_one("SELECT v FROM snapshot_stability WHERE id = 1", &[])
            .await
            .unwrap(),
    );
    writer
        .batch_execute(
            "UPDATE snapshot_stability SET v = 2 WHERE id = 1; INSERT INTO snapshot_stability VALUES (2, 2)",
        )
        .await
        .unwrap();
    let again = value(
        reader
            .query_one("SELECT v FROM snapshot_stability WHERE id = 1", &[])
            .await
            .unwrap(),
    );
    let rows: i64 = reader
        .query_one("SELECT count(*) FROM snapshot_stability", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(
        (first, again, rows),
        (1, 1, 1),
        "one snapshot for the whole transaction"
    );
    // Its first write after that commit is refused.
    let error = reader
        .execute("UPDATE snapshot_stability SET v = 3 WHERE id = 1", &[])
        .await
        .expect_err("a write from a stale snapshot");
    assert_eq!(error.code(), Some(&SqlState::T_R_SERIALIZATION_FAILURE));
    reader.batch_execute("ROLLBACK").await.unwrap();
    // READ COMMITTED sees each commit.
    reader.batch_execute("BEGIN").await.unwrap();
    let before = value(
        reader
            .query_one("SELECT v FROM snapshot_stability WHERE id = 1", &[])
            .await
            .unwrap(),
    );
    writer
        .batch_execute("UPDATE snapshot_stability SET v = 4 WHERE id = 1")
        .await
        .unwrap();
    let after = value(
        reader
            .query_one("SELECT v FROM snapshot_stability WHERE id = 1", &[])
            .await
            .unwrap(),
    );
    reader.batch_execute("COMMIT").await.unwrap();
    assert_eq!((before, after), (2, 4));
}

async fn nowait_fails_at_once(target: &Target) {
    let (holder, other) = (target.connect().await, target.connect().await);
    fresh_table(&holder, "nowait_rows", "id int PRIMARY KEY").await;
    holder
        .batch_execute("INSERT INTO nowait_rows VALUES (1)")
        .await
        .unwrap();
    holder
        .batch_execute("BEGIN; SELECT * FROM nowait_rows WHERE id = 1 FOR UPDATE")
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let error = other
        .batch_execute("SELECT * FROM nowait_rows WHERE id = 1 FOR UPDATE NOWAIT")
        .await
        .expect_err("the row is locked");
    assert_eq!(error.code(), Some(&SqlState::LOCK_NOT_AVAILABLE));
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "NOWAIT did not wait"
    );
    holder.batch_execute("COMMIT").await.unwrap();
    other
        .batch_execute("SELECT * FROM nowait_rows WHERE id = 1 FOR UPDATE NOWAIT")
        .await
        .expect("free once the holder committed");
}

/// A queue drained by several workers with `FOR UPDATE SKIP LOCKED`: every job
/// is done exactly once and none is left behind.
async fn skip_locked_queue_hands_each_job_once(target: &Target) {
    const JOBS: i32 = 60;
    let setup = target.connect().await;
    fresh_table(
        &setup,
        "jobs",
        "id int PRIMARY KEY, done boolean NOT NULL DEFAULT false",
    )
    .await;
    fresh_table(
        &setup,
        "jobs_done",
        "id int PRIMARY KEY, worker int NOT NULL",
    )
    .await;
    setup
        .batch_execute(&format!(
            "INSERT INTO jobs (id) SELECT n FROM generate_series(1, {JOBS}) AS s(n)"
        ))
        .await
        .unwrap();
    let mut workers = Vec::new();
    for worker in 0..CLIENTS as i32 {
        let client = target.connect().await;
        workers.push(tokio::spawn(async move {
            loop {
                client.batch_execute("BEGIN").await.unwrap();
                let job = client
                    .query_opt(
                        "SELECT id FROM jobs WHERE NOT done ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED",
                        &[],
                    )
                    .await
                    .unwrap();
                let Some(job) = job else {
                    client.batch_execute("COMMIT").await.unwrap();
                    break;
                };
                let id: i32 = job.get(0);
                client
                    .execute("UPDATE jobs SET done = true WHERE id = $1", &[&id])
                    .await
                    .unwrap();
                // A job handed out twice fails here (primary key).
                client
                    .execute("INSERT INTO jobs_done VALUES ($1, $2)", &[&id, &worker])
                    .await
                    .unwrap();
                client.batch_execute("COMMIT").await.unwrap();
            }
        }));
    }
    for worker in workers {
        worker.await.expect("worker");
    }
    let row = setup
        .query_one(
            "SELECT (SELECT count(*) FROM jobs_done), (SELECT count(*) FROM jobs WHERE NOT done)",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(
        (row.get::<_, i64>(0), row.get::<_, i64>(1)),
        (JOBS as i64, 0)
    );
}

/// The boolean `sql` answers.
async fn flag(client: &Client, sql: &str) -> bool {
    client.query_one(sql, &[]).await.unwrap().get(0)
}

/// The session's pid, as `pg_locks` and `pg_blocking_pids()` name it.
async fn backend_pid(client: &Client) -> i32 {
    client
        .query_one("SELECT pg_backend_pid()", &[])
        .await
        .unwrap()
        .get(0)
}

/// What `SHOW transaction_isolation` answers.
async fn show(client: &Client) -> String {
    client
        .query_one("SHOW transaction_isolation", &[])
        .await
        .unwrap()
        .get(0)
}

/// Transfers between accounts (SERIALIZABLE, retried) while an auditor sums
/// the balances in REPEATABLE READ transactions: every audit sees the same sum.
async fn transfers_keep_the_sum_for_every_audit(target: &Target) {
    const ACCOUNTS: i32 = 8;
    const TRANSFERS: usize = 25;
    let setup = target.connect().await;
    fresh_table(
        &setup,
        "accounts",
        "id int PRIMARY KEY, balance int NOT NULL",
    )
    .await;
    setup
        .batch_execute(&format!(
            "INSERT INTO accounts SELECT n, 100 FROM generate_series(1, {ACCOUNTS}) AS s(n)"
        ))
        .await
        .unwrap();
    let mut movers = Vec::new();
    for mover in 0..3i32 {
        let client = target.connect().await;
        movers.push(tokio::spawn(async move {
            for i in 0..TRANSFERS as i32 {
                let from = (mover + i) % ACCOUNTS + 1;
                let to = (mover * 3 + i * 5) % ACCOUNTS + 1;
                loop {
                    let attempt = async {
                        client
                            .batch_execute("BEGIN ISOLATION LEVEL SERIALIZABLE")
                            .await?;
                        client
                            .execute(
                                "UPDATE accounts SET balance = balance - 7 WHERE id = $1",
                                &[&from],
                            )
                            .await?;
                        client
                            .execute(
                                "UPDATE accounts SET balance = balance + 7 WHERE id = $1",
                                &[&to],
                            )
                            .await?;
                        client.batch_execute("COMMIT").await
                    }
                    .await;
                    match attempt {
                        Ok(()) => break,
                        Err(error) if retryable(&error) => {
                            client.batch_execute("ROLLBACK").await.unwrap();
                        }
                        Err(error) => panic!("transfer failed: {error:?}"),
                    }
                }
            }
        }));
    }
    let auditor = target.connect().await;
    let mut audits = 0;
    while movers.iter().any(|m| !m.is_finished()) || audits == 0 {
        auditor
            .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
            .await
            .unwrap();
        let first: i64 = auditor
            .query_one("SELECT sum(balance) FROM accounts", &[])
            .await
            .unwrap()
            .get(0);
        tokio::time::sleep(Duration::from_millis(5)).await;
        let second: i64 = auditor
            .query_one("SELECT sum(balance) FROM accounts", &[])
            .await
            .unwrap()
            .get(0);
        auditor.batch_execute("COMMIT").await.unwrap();
        assert_eq!((first, second), (800, 800), "audit {audits}");
        audits += 1;
    }
    for mover in movers {
        mover.await.expect("mover");
    }
    println!("{audits} audits, each saw 800");
}

/// `pg_try_advisory_lock` answers at once, `pg_advisory_lock` waits, locks are
/// re-entrant, and they go at unlock, at COMMIT (transaction locks) and when
/// their session ends.
async fn advisory_locks_across_sessions(target: &Target) {
    let (a, b) = (target.connect().await, target.connect().await);
    a.batch_execute("SELECT pg_advisory_lock(42); SELECT pg_advisory_lock(42)")
        .await
        .unwrap();
    assert!(!flag(&b, "SELECT pg_try_advisory_lock(42)").await);
    assert!(
        flag(&b, "SELECT pg_try_advisory_lock(0, 42)").await,
        "another key space"
    );
    assert!(flag(&a, "SELECT pg_advisory_unlock(42)").await);
    assert!(
        !flag(&b, "SELECT pg_try_advisory_lock(42)").await,
        "still held once"
    );
    assert!(
        !flag(&b, "SELECT pg_advisory_unlock(42)").await,
        "b holds none"
    );
    // b waits for a's last hold.
    let waiter = tokio::spawn(async move {
        b.batch_execute("SELECT pg_advisory_lock(42)")
            .await
            .unwrap();
        b
    });
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(!waiter.is_finished(), "b waits while a holds the lock");
    assert!(flag(&a, "SELECT pg_advisory_unlock(42)").await);
    let b = tokio::time::timeout(Duration::from_secs(10), waiter)
        .await
        .expect("b got the lock")
        .unwrap();
    assert!(!flag(&a, "SELECT pg_try_advisory_lock(42)").await);
    // Shared locks share; an exclusive request waits for them.
    assert!(flag(&a, "SELECT pg_try_advisory_lock_shared(7)").await);
    assert!(flag(&b, "SELECT pg_try_advisory_lock_shared(7)").await);
    assert!(!flag(&b, "SELECT pg_try_advisory_lock(7)").await);
    // Transaction locks go at COMMIT.
    a.batch_execute("BEGIN; SELECT pg_advisory_xact_lock(9)")
        .await
        .unwrap();
    assert!(!flag(&b, "SELECT pg_try_advisory_lock(9)").await);
    a.batch_execute("COMMIT").await.unwrap();
    assert!(flag(&b, "SELECT pg_try_advisory_lock(9)").await);
    // A session's locks go with it.
    drop(b);
    let mut released = false;
    for _ in 0..50 {
        if flag(&a, "SELECT pg_try_advisory_lock(42)").await {
            released = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(released, "b's lock went when b disconnected");
    a.batch_execute("SELECT pg_advisory_unlock_all()")
        .await
        .unwrap();
}

/// A wait for an advisory lock ends with the client's cancel (57014) and at
/// `lock_timeout` (55P03), and leaves the session usable.
async fn advisory_lock_waits_end_with_cancel_and_timeout(target: &Target) {
    let (holder, waiter) = (target.connect().await, target.connect().await);
    holder
        .batch_execute("SELECT pg_advisory_lock(77)")
        .await
        .unwrap();
    waiter
        .batch_execute("SET lock_timeout = '200ms'")
        .await
        .unwrap();
    let error = waiter
        .batch_execute("SELECT pg_advisory_lock(77)")
        .await
        .expect_err("lock_timeout");
    assert_eq!(error.code(), Some(&SqlState::LOCK_NOT_AVAILABLE));
    waiter.batch_execute("SET lock_timeout = 0").await.unwrap();
    let cancel = waiter.cancel_token();
    let canceller = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        cancel.cancel_query(tokio_postgres::NoTls).await
    });
    let error = waiter
        .batch_execute("SELECT pg_advisory_lock(77)")
        .await
        .expect_err("canceled");
    assert_eq!(error.code(), Some(&SqlState::QUERY_CANCELED));
    canceller.await.unwrap().unwrap();
    holder
        .batch_execute("SELECT pg_advisory_unlock(77)")
        .await
        .unwrap();
    let taken: bool = waiter
        .query_one("SELECT pg_try_advisory_lock(77)", &[])
        .await
        .unwrap()
        .get(0);
    assert!(taken, "the failed waits left nothing held");
}

/// Two sessions each hold a lock and wait for the other's: after
/// `deadlock_timeout`, one gets 40P01 and the other goes on.
async fn a_deadlock_fails_one_of_two(target: &Target) {
    let (a, b) = (target.connect().await, target.connect().await);
    for client in [&a, &b] {
        client
            .batch_execute("SET deadlock_timeout = '200ms'")
            .await
            .unwrap_or_else(|e| panic!("{e:?}"));
    }
    a.batch_execute("BEGIN; SELECT pg_advisory_xact_lock(1)")
        .await
        .unwrap();
    b.batch_execute("BEGIN; SELECT pg_advisory_xact_lock(2)")
        .await
        .unwrap();
    let first = tokio::spawn(async move {
        let result = a.batch_execute("SELECT pg_advisory_xact_lock(2)").await;
        (a, result)
    });
    tokio::time::sleep(Duration::from_millis(50)).await;
    let second = b.batch_execute("SELECT pg_advisory_xact_lock(1)").await;
    // Whichever was refused ends its transaction; the other then gets its lock.
    if second.is_err() {
        b.batch_execute("ROLLBACK").await.unwrap();
    }
    let (a, first) = tokio::time::timeout(Duration::from_secs(10), first)
        .await
        .expect("the other waiter goes on")
        .unwrap();
    let codes: Vec<Option<&SqlState>> = [&first, &second]
        .into_iter()
        .map(|r| r.as_ref().err().and_then(|e| e.code()))
        .collect();
    let deadlocks = codes
        .iter()
        .filter(|c| **c == Some(&SqlState::T_R_DEADLOCK_DETECTED))
        .count();
    assert_eq!(deadlocks, 1, "{first:?} {second:?}");
    a.batch_execute("ROLLBACK").await.unwrap();
    b.batch_execute("ROLLBACK").await.unwrap();
}

/// Every way of asking for an isolation level, and `SHOW` telling the truth.
async fn isolation_levels_are_asked_every_way(target: &Target) {
    let client = target.connect().await;
    assert_eq!(show(&client).await, "read committed");
    let cases = [
        ("BEGIN ISOLATION LEVEL REPEATABLE READ", "repeatable read"),
        (
            "START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ WRITE",
            "serializable",
        ),
        (
            "BEGIN; SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
            "serializable",
        ),
        (
            "BEGIN; SET transaction_isolation = 'repeatable read'",
            "repeatable read",
        ),
        ("BEGIN ISOLATION LEVEL READ UNCOMMITTED", "read uncommitted"),
    ];
    for (begin, level) in cases {
        client.batch_execute(begin).await.unwrap();
        let shown = show(&client).await;
        client.batch_execute("COMMIT").await.unwrap();
        // PostgreSQL shows READ UNCOMMITTED as asked, and runs it as READ COMMITTED.
        let expected = if target.is_litewire() && level == "read uncommitted" {
            "read committed"
        } else {
            level
        };
        assert_eq!(shown, expected, "{begin}");
    }
    // The level is fixed by the transaction's first query.
    client.batch_execute("BEGIN").await.unwrap();
    client.query_one("SELECT 1", &[]).await.unwrap();
    let error = client
        .batch_execute("SET TRANSACTION ISOLATION LEVEL SERIALIZABLE")
        .await
        .expect_err("too late");
    assert_eq!(error.code(), Some(&SqlState::ACTIVE_SQL_TRANSACTION));
    client.batch_execute("ROLLBACK").await.unwrap();
    // Session defaults.
    client
        .batch_execute("SET SESSION CHARACTERISTICS AS TRANSACTION ISOLATION LEVEL SERIALIZABLE")
        .await
        .unwrap();
    client.batch_execute("BEGIN").await.unwrap();
    assert_eq!(show(&client).await, "serializable");
    client.batch_execute("COMMIT").await.unwrap();
    client
        .batch_execute("SET default_transaction_isolation = 'repeatable read'")
        .await
        .unwrap();
    client.batch_execute("BEGIN").await.unwrap();
    assert_eq!(show(&client).await, "repeatable read");
    client.batch_execute("COMMIT").await.unwrap();
    let error = client
        .batch_execute("SET default_transaction_isolation = 'sometimes'")
        .await
        .expect_err("no such level");
    assert_eq!(error.code(), Some(&SqlState::INVALID_PARAMETER_VALUE));
}

async fn read_only_transactions_refuse_writes(target: &Target) {
    let client = target.connect().await;
    fresh_table(&client, "read_only_rows", "id int").await;
    for (begin, statement) in [
        ("BEGIN READ ONLY", "INSERT INTO read_only_rows VALUES (1)"),
        (
            "BEGIN ISOLATION LEVEL SERIALIZABLE READ ONLY DEFERRABLE",
            "UPDATE read_only_rows SET id = 2",
        ),
        ("BEGIN READ ONLY", "SELECT * FROM read_only_rows FOR UPDATE"),
        ("BEGIN READ ONLY", "CREATE TABLE read_only_new (id int)"),
    ] {
        client.batch_execute(begin).await.unwrap();
        let error = client
            .batch_execute(statement)
            .await
            .expect_err("a write in a read-only transaction");
        assert_eq!(
            error.code(),
            Some(&SqlState::READ_ONLY_SQL_TRANSACTION),
            "{statement}"
        );
        client.batch_execute("ROLLBACK").await.unwrap();
    }
    client
        .batch_execute("SET default_transaction_read_only = on")
        .await
        .unwrap();
    let error = client
        .batch_execute("INSERT INTO read_only_rows VALUES (1)")
        .await
        .expect_err("read-only by default");
    assert_eq!(error.code(), Some(&SqlState::READ_ONLY_SQL_TRANSACTION));
    let shown: String = client
        .query_one("SHOW transaction_read_only", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(shown, "on");
}

/// The isolation level every transaction gets unless it asks: the server's
/// flag, then the client's startup options, then `SET`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn default_isolation_from_the_server_and_the_client() {
    let server = common::TestServer::start(
        "shared",
        &["--default-transaction-isolation", "serializable"],
    );
    let target = Target::Litewire(server);
    let client = target.connect().await;
    client.batch_execute("BEGIN").await.unwrap();
    assert_eq!(show(&client).await, "serializable");
    client.batch_execute("COMMIT").await.unwrap();
    let conninfo = format!(
        "{} options='-c default_transaction_isolation=repeatable\\\\ read'",
        target.conninfo()
    );
    let (asked, connection) = tokio_postgres::connect(&conninfo, tokio_postgres::NoTls)
        .await
        .expect("connect with startup options");
    tokio::spawn(connection);
    asked.batch_execute("BEGIN").await.unwrap();
    assert_eq!(show(&asked).await, "repeatable read");
    asked.batch_execute("COMMIT").await.unwrap();
}

/// Advisory locks held and waited for are rows of `pg_locks`, and
/// `pg_blocking_pids()` names who a waiter waits for.
async fn locks_are_visible_in_pg_locks(target: &Target) {
    let (holder, waiter, observer) = (
        target.connect().await,
        target.connect().await,
        target.connect().await,
    );
    let (holder_pid, waiter_pid) = (backend_pid(&holder).await, backend_pid(&waiter).await);
    holder
        .batch_execute("SELECT pg_advisory_lock(42); SELECT pg_advisory_lock_shared(1, 2)")
        .await
        .unwrap();
    let waiting = tokio::spawn(async move {
        waiter
            .batch_execute("SELECT pg_advisory_lock(42)")
            .await
            .unwrap();
        waiter
    });
    let mut blocked_by = Vec::new();
    for _ in 0..50 {
        let row = observer
            .query_one("SELECT pg_blocking_pids($1)", &[&waiter_pid])
            .await
            .unwrap();
        blocked_by = row.get::<_, Vec<i32>>(0);
        if !blocked_by.is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(blocked_by, vec![holder_pid]);
    let rows = observer
        .query(
            "SELECT classid::int8, objid::int8, objsubid::int4, mode, granted, pid FROM pg_locks \
             WHERE locktype = 'advisory' ORDER BY objsubid, granted DESC",
            &[],
        )
        .await
        .unwrap();
    let seen: Vec<(i64, i64, i32, String, bool, i32)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5)))
        .collect();
    assert_eq!(
        seen,
        vec![
            (0, 42, 1, "ExclusiveLock".into(), true, holder_pid),
            (0, 42, 1, "ExclusiveLock".into(), false, waiter_pid),
            (1, 2, 2, "ShareLock".into(), true, holder_pid),
        ]
    );
    holder
        .batch_execute("SELECT pg_advisory_unlock_all()")
        .await
        .unwrap();
    let waiter = tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .expect("the waiter got the lock")
        .unwrap();
    waiter
        .batch_execute("SELECT pg_advisory_unlock_all()")
        .await
        .unwrap();
}
