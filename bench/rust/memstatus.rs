//! What SQLite's memory statistics cost, SQLite alone: N threads each repeatedly open a
//! connection, run one point SELECT (`SELECT v FROM t WHERE id = ?1`, 10 000 rows, WAL)
//! and close it again, as a server that opens a connection per request would. With
//! memory statistics on (`SQLITE_DEFAULT_MEMSTATUS=1`), every allocation and free in
//! SQLite takes one global mutex to keep the counters; opening a connection and loading
//! its schema allocates a lot.
//!
//! The variant is whatever SQLite this binary was built with (`LIBSQLITE3_FLAGS`); it
//! is read back at run time, from `pragma_compile_options` and `sqlite3_memory_used()`
//! (which stays 0 without statistics), and printed with every row, so a row can never
//! carry the wrong label. `bench/memstatus.sh` builds and runs both variants.
//!
//! `cargo bench --bench memstatus`
//! (env: MEMSTATUS_THREADS="1 2 4 8" MEMSTATUS_SECS=2 MEMSTATUS_RUNS=5)

use std::hint::black_box;
use std::path::Path;
use std::sync::Barrier;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use rusqlite::{Connection, OpenFlags};

const ROWS: i64 = 10_000;

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_owned())
}

fn create_table(path: &Path) -> Connection {
    let conn = Connection::open(path).expect("open");
    conn.execute_batch(
        "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;
         CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT);
         WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 10000)
         INSERT INTO t SELECT i, 'value ' || i FROM c;",
    )
    .expect("create");
    conn
}

/// "memstatus=0" or "memstatus=1", from what the linked SQLite says about itself; panics
/// when its compile options and its allocation counter disagree.
fn variant(conn: &Connection) -> String {
    let option: Option<String> = conn
        .query_row(
            "SELECT compile_options FROM pragma_compile_options
             WHERE compile_options LIKE 'DEFAULT_MEMSTATUS=%'",
            [],
            |row| row.get(0),
        )
        .ok();
    // SAFETY: a plain read of SQLite's global counter, callable from any thread.
    let used = unsafe { rusqlite::ffi::sqlite3_memory_used() };
    // Statistics are on unless compiled with DEFAULT_MEMSTATUS=0 (SQLite lists the
    // option only when it differs from its default, 1); the counter must agree.
    let on = option.as_deref() != Some("DEFAULT_MEMSTATUS=0");
    assert_eq!(
        on,
        used > 0,
        "compile option {option:?} but sqlite3_memory_used() = {used}"
    );
    println!(
        "# SQLite {}: compile option {}, sqlite3_memory_used() = {used} bytes with one connection open",
        rusqlite::version(),
        option
            .as_deref()
            .unwrap_or("DEFAULT_MEMSTATUS absent (on, the default)"),
    );
    format!("memstatus={}", u8::from(on))
}

/// One request: open, point SELECT, close.
fn request(path: &Path, id: i64) {
    let conn = Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .expect("open");
    let v: String = conn
        .query_row("SELECT v FROM t WHERE id = ?1", [id], |row| row.get(0))
        .expect("row");
    black_box(v);
    conn.close().map_err(|(_, e)| e).expect("close");
}

/// Requests per second over `secs` seconds of wall time, with `threads` threads
/// running requests back to back.
fn run(path: &Path, threads: usize, secs: f64) -> f64 {
    let stop = AtomicBool::new(false);
    let start = Barrier::new(threads + 1);
    let (total, elapsed) = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|t| {
                let (stop, start) = (&stop, &start);
                scope.spawn(move || {
                    start.wait();
                    let mut n = 0i64;
                    while !stop.load(Ordering::Relaxed) {
                        request(path, (n * 7919 + t as i64) % ROWS + 1);
                        n += 1;
                    }
                    n as u64
                })
            })
            .collect();
        start.wait();
        let began = Instant::now();
        std::thread::sleep(Duration::from_secs_f64(secs));
        stop.store(true, Ordering::Relaxed);
        let total: u64 = workers.into_iter().map(|w| w.join().expect("worker")).sum();
        (total, began.elapsed())
    });
    total as f64 / elapsed.as_secs_f64()
}

fn main() {
    let threads: Vec<usize> = env_or("MEMSTATUS_THREADS", "1 2 4 8")
        .split_whitespace()
        .map(|t| t.parse().expect("MEMSTATUS_THREADS: numbers"))
        .collect();
    let secs: f64 = env_or("MEMSTATUS_SECS", "2")
        .parse()
        .expect("MEMSTATUS_SECS");
    let runs: usize = env_or("MEMSTATUS_RUNS", "5")
        .parse()
        .expect("MEMSTATUS_RUNS");

    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("memstatus.db");
    // Held open for the whole run: without it, each time the last connection closes
    // SQLite checkpoints and deletes the WAL, and the next open recreates it.
    let holder = create_table(&path);
    let variant = variant(&holder);
    println!("# {runs} runs of {secs} s per row; requests = open + point SELECT + close");
    println!(
        "{:<12} {:>7} {:>12} {:>12} {:>12}",
        "variant", "threads", "median_rps", "min_rps", "max_rps"
    );
    for &n in &threads {
        run(&path, n, secs.min(0.5)); // warm-up
        let mut rates: Vec<f64> = (0..runs).map(|_| run(&path, n, secs)).collect();
        rates.sort_by(f64::total_cmp);
        println!(
            "{variant:<12} {n:>7} {:>12.0} {:>12.0} {:>12.0}",
            rates[rates.len() / 2],
            rates[0],
            rates[rates.len() - 1],
        );
    }
    drop(holder);
}
