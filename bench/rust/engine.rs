//! The engine alone, in process: microseconds per point SELECT and per single-row
//! INSERT through litewire's engine API (a pinned SQLx connection per session), next
//! to the same statements on raw rusqlite (same SQLite build), in both cache modes,
//! with 1 and 8 concurrent sessions. A third point-SELECT line runs the statement
//! through SQLx's own `lock_handle()` escape hatch on the caller's thread, to show
//! what the SQLx channel hand-offs cost.
//!
//! `cargo bench --bench engine`

use std::ffi::CString;
use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use clap::Parser;
use criterion::{Criterion, criterion_group, criterion_main};
use litewire::config::Config;
use litewire::engine::{Engine, Role, Value};
use litewire::sql::{Statement, parse_single};
use sqlx::ConnectOptions;
use sqlx::sqlite::SqliteConnectOptions;
use tokio::runtime::Runtime;

const ROWS: i64 = 10_000;
const CONCURRENCY: usize = 8;

fn runtime() -> Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime")
}

fn statement(sql: &str) -> Statement {
    parse_single(sql).expect("parse").expect("one statement")
}

fn create_table(path: &Path) {
    let conn = rusqlite::Connection::open(path).expect("open");
    conn.execute_batch(
        "PRAGMA journal_mode=WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
         WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 10000)
         INSERT INTO t SELECT i, 'value ' || i FROM c;
         CREATE TABLE w (id INTEGER PRIMARY KEY, v TEXT);",
    )
    .expect("create");
}

fn engine(rt: &Runtime, path: &Path, cache: &str) -> Arc<Engine> {
    let config = Config::parse_from([
        "litewire",
        "--db",
        path.to_str().expect("utf-8 path"),
        "--cache",
        cache,
    ]);
    rt.block_on(Engine::open(&config)).expect("engine")
}

fn bench_engine(c: &mut Criterion, rt: &Runtime, path: &Path) {
    let select = statement("SELECT v FROM t WHERE id = $1");
    let insert = statement("INSERT INTO w (v) VALUES ($1)");
    for cache in ["shared", "private"] {
        let engine = engine(rt, path, cache);
        let mut session = engine.session(Role::ReadWrite);
        let mut i = 0i64;
        c.bench_function(&format!("point_select/litewire_engine/{cache}/1"), |b| {
            b.iter(|| {
                i = i % ROWS + 1;
                black_box(
                    rt.block_on(session.execute(&select, &[Value::Integer(i)]))
                        .expect("select"),
                );
            })
        });
        c.bench_function(&format!("insert/litewire_engine/{cache}/1"), |b| {
            b.iter(|| {
                let params = [Value::Text("x".into())];
                black_box(
                    rt.block_on(session.execute(&insert, &params))
                        .expect("insert"),
                );
            })
        });
        rt.block_on(session.close());
        for (name, stmt) in [("point_select", &select), ("insert", &insert)] {
            c.bench_function(
                &format!("{name}/litewire_engine/{cache}/{CONCURRENCY}"),
                |b| b.iter_custom(|iters| rt.block_on(concurrent_engine(&engine, stmt, iters))),
            );
        }
        rt.block_on(engine.close());
    }
}

/// `iters` statements spread over 8 concurrent sessions: the wall time for all of
/// them, so criterion reports throughput as time per statement.
async fn concurrent_engine(engine: &Arc<Engine>, stmt: &Statement, iters: u64) -> Duration {
    let per_task = iters.div_ceil(CONCURRENCY as u64);
    let start = Instant::now();
    let tasks: Vec<_> = (0..CONCURRENCY)
        .map(|t| {
            let engine = engine.clone();
            let stmt = stmt.clone();
            tokio::spawn(async move {
                let mut session = engine.session(Role::ReadWrite);
                for n in 0..per_task {
                    let param = if stmt.param_count == 1 && stmt.sql.starts_with("SELECT") {
                        Value::Integer((n as i64 * 7 + t as i64) % ROWS + 1)
                    } else {
                        Value::Text("x".into())
                    };
                    session.execute(&stmt, &[param]).await.expect("execute");
                }
                session.close().await;
            })
        })
        .collect();
    for task in tasks {
        task.await.expect("task");
    }
    start.elapsed()
}

fn bench_rusqlite(c: &mut Criterion, path: &Path) {
    let conn = rusqlite::Connection::open(path).expect("open");
    conn.execute_batch("PRAGMA synchronous=NORMAL")
        .expect("pragma");
    let mut i = 0i64;
    c.bench_function("point_select/rusqlite/-/1", |b| {
        let mut stmt = conn
            .prepare_cached("SELECT v FROM t WHERE id = ?1")
            .expect("prepare");
        b.iter(|| {
            i = i % ROWS + 1;
            let v: String = stmt.query_row([i], |row| row.get(0)).expect("row");
            black_box(v);
        })
    });
    c.bench_function("insert/rusqlite/-/1", |b| {
        let mut stmt = conn
            .prepare_cached("INSERT INTO w (v) VALUES (?1)")
            .expect("prepare");
        b.iter(|| black_box(stmt.execute(["x"]).expect("insert")))
    });
    for (name, sql) in [
        ("point_select", "SELECT v FROM t WHERE id = ?1"),
        ("insert", "INSERT INTO w (v) VALUES (?1)"),
    ] {
        c.bench_function(&format!("{name}/rusqlite/-/{CONCURRENCY}"), |b| {
            b.iter_custom(|iters| concurrent_rusqlite(path, sql, iters))
        });
    }
}

/// 8 threads, a connection each (busy timeout for the writers); wall time for all.
fn concurrent_rusqlite(path: &Path, sql: &str, iters: u64) -> Duration {
    let per_thread = iters.div_ceil(CONCURRENCY as u64);
    let start = Instant::now();
    std::thread::scope(|scope| {
        for t in 0..CONCURRENCY {
            scope.spawn(move || {
                let conn = rusqlite::Connection::open(path).expect("open");
                conn.busy_timeout(Duration::from_secs(10))
                    .expect("busy timeout");
                let mut stmt = conn.prepare_cached(sql).expect("prepare");
                for n in 0..per_thread {
                    if sql.starts_with("SELECT") {
                        let id = (n as i64 * 7 + t as i64) % ROWS + 1;
                        let _: String = stmt.query_row([id], |row| row.get(0)).expect("row");
                    } else {
                        stmt.execute(["x"]).expect("insert");
                    }
                }
            });
        }
    });
    start.elapsed()
}

/// The same point SELECT on a SQLx connection, through `lock_handle()`: SQLx opened
/// and configured the connection; the statement runs on this thread, with no
/// channel hand-off to the connection's worker thread.
fn bench_lock_handle(c: &mut Criterion, rt: &Runtime, path: &Path) {
    use libsqlite3_sys as ffi;
    let options = SqliteConnectOptions::new().filename(path);
    let mut conn = rt.block_on(options.connect()).expect("connect");
    let mut handle = rt.block_on(conn.lock_handle()).expect("lock");
    let db = handle.as_raw_handle().as_ptr();
    let sql = CString::new("SELECT v FROM t WHERE id = ?1").expect("sql");
    let mut stmt = std::ptr::null_mut();
    // SAFETY: `db` is locked for us; the statement is finalized before the lock ends.
    let rc =
        unsafe { ffi::sqlite3_prepare_v2(db, sql.as_ptr(), -1, &mut stmt, std::ptr::null_mut()) };
    assert_eq!(rc, ffi::SQLITE_OK);
    let mut i = 0i64;
    c.bench_function("point_select/sqlx_lock_handle/-/1", |b| {
        b.iter(|| {
            i = i % ROWS + 1;
            // SAFETY: `stmt` is a valid prepared statement of the locked connection.
            unsafe {
                ffi::sqlite3_bind_int64(stmt, 1, i);
                assert_eq!(ffi::sqlite3_step(stmt), ffi::SQLITE_ROW);
                let text = ffi::sqlite3_column_text(stmt, 0);
                let len = ffi::sqlite3_column_bytes(stmt, 0) as usize;
                black_box(std::slice::from_raw_parts(text, len).to_vec());
                ffi::sqlite3_reset(stmt);
            }
        })
    });
    // SAFETY: as above.
    unsafe { ffi::sqlite3_finalize(stmt) };
    drop(handle);
    drop(conn);
}

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("bench.db");
    create_table(&path);
    let rt = runtime();
    bench_rusqlite(c, &path);
    bench_lock_handle(c, &rt, &path);
    bench_engine(c, &rt, &path);
}

criterion_group! {
    name = engine_benches;
    config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    targets = benches
}
criterion_main!(engine_benches);
