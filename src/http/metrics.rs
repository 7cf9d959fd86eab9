//! The operators' routes: `GET /ready` for load balancers (503 while the
//! server starts or stops), and `GET /metrics`,
//! the server's counters, histograms and gauges in
//! Prometheus' text format (version 0.0.4), behind the same credentials as
//! every other route. Names follow Prometheus' conventions: `litewire_`,
//! base units (seconds, bytes), `_total` on counters; the process's own are
//! the standard `process_*` (read from `/proc/self`).

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use serde_json::json;

use crate::auth::Auth;
use crate::engine::{BUCKETS, Engine, FRONTENDS, Histogram, SESSION_STATES};
use crate::shutdown::Shutdown;

/// What the operators' routes read: the engine, the logins, the database
/// file (for its WAL's size), and whether the server shuts down.
#[derive(Clone)]
pub(super) struct Scraped {
    pub(super) engine: Arc<Engine>,
    /// Counts failed logins.
    pub(super) auth: Arc<Auth>,
    pub(super) db: PathBuf,
    /// `/ready` says when the server shuts down.
    pub(super) shutdown: Shutdown,
}

/// `GET /ready`: 200 while the server serves, 503 once it shuts down (a load
/// balancer stops sending it work while the requests in flight finish).
pub(super) async fn ready(State(scraped): State<Scraped>) -> Response {
    match scraped.shutdown.is_triggered() {
        false => (StatusCode::OK, Json(json!({"status": "ready"}))).into_response(),
        true => (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "shutting down"})),
        )
            .into_response(),
    }
}

/// What `--metrics-listen`'s listener answers while the database opens:
/// `/ready` (and anything else) 503.
pub fn starting_router() -> axum::Router {
    axum::Router::new().fallback(|| async {
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(json!({"status": "starting"})),
        )
    })
}

pub(super) async fn metrics(State(scraped): State<Scraped>) -> Response {
    let body = render(&scraped.engine, &scraped.auth, &scraped.db);
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        body,
    )
        .into_response()
}

fn render(engine: &Engine, auth: &Auth, db: &Path) -> String {
    let mut out = String::with_capacity(8 * 1024);
    let metrics = engine.metrics();

    family(
        &mut out,
        "litewire_sessions",
        "gauge",
        "Live sessions, by front end and state.",
    );
    for (frontend, states) in FRONTENDS.iter().zip(engine.session_counts()) {
        for (state, count) in SESSION_STATES.iter().zip(states) {
            sample(
                &mut out,
                "litewire_sessions",
                &[("frontend", frontend), ("state", state)],
                count,
            );
        }
    }

    let (in_use, max) = engine.connections_in_use();
    family(
        &mut out,
        "litewire_pool_connections",
        "gauge",
        "SQLite reader connections held by sessions.",
    );
    sample(&mut out, "litewire_pool_connections", &[], in_use);
    family(
        &mut out,
        "litewire_pool_connections_max",
        "gauge",
        "SQLite reader connections there may be (--max-connections).",
    );
    sample(&mut out, "litewire_pool_connections_max", &[], max);

    if let Some(lag) = engine.replica_lag() {
        family(
            &mut out,
            "litewire_replica_lag_seconds",
            "gauge",
            "A follower's (--read-only) time since it last saw its file change.",
        );
        sample(
            &mut out,
            "litewire_replica_lag_seconds",
            &[],
            lag.as_secs_f64(),
        );
    }

    family(
        &mut out,
        "litewire_statements_total",
        "counter",
        "Statements run, by kind and outcome.",
    );
    for (kind, ok, failed) in metrics.statements() {
        for (outcome, count) in [("ok", ok), ("error", failed)] {
            sample(
                &mut out,
                "litewire_statements_total",
                &[("kind", kind), ("outcome", outcome)],
                count,
            );
        }
    }

    family(
        &mut out,
        "litewire_statements_stopped_total",
        "counter",
        "Statements stopped from outside, by reason.",
    );
    for (reason, count) in metrics.stops() {
        sample(
            &mut out,
            "litewire_statements_stopped_total",
            &[("reason", reason)],
            count,
        );
    }

    family(
        &mut out,
        "litewire_query_duration_seconds",
        "histogram",
        "Queries' durations (a query string, an Execute, an HTTP request, a Hrana statement), by front end.",
    );
    for (frontend, histogram) in FRONTENDS.iter().zip(&metrics.queries) {
        histogram_samples(
            &mut out,
            "litewire_query_duration_seconds",
            Some(("frontend", frontend)),
            histogram,
        );
    }

    family(
        &mut out,
        "litewire_transactions_total",
        "counter",
        "Transactions ended (a block, or a statement outside any), by outcome.",
    );
    let commits = metrics.commits.load(std::sync::atomic::Ordering::Relaxed);
    let rollbacks = metrics.rollbacks.load(std::sync::atomic::Ordering::Relaxed);
    sample(
        &mut out,
        "litewire_transactions_total",
        &[("outcome", "commit")],
        commits,
    );
    sample(
        &mut out,
        "litewire_transactions_total",
        &[("outcome", "rollback")],
        rollbacks,
    );

    if let Some((written, syncs)) = engine.group_commit_counts() {
        family(
            &mut out,
            "litewire_group_commit_commits_total",
            "counter",
            "Commits acknowledged after a shared fsync of the WAL (--synchronous full).",
        );
        sample(
            &mut out,
            "litewire_group_commit_commits_total",
            &[],
            written,
        );
        family(
            &mut out,
            "litewire_wal_syncs_total",
            "counter",
            "Fsyncs of the WAL made for those commits: fewer than the commits when they share them.",
        );
        sample(&mut out, "litewire_wal_syncs_total", &[], syncs);
    }

    family(
        &mut out,
        "litewire_rows_total",
        "counter",
        "Rows statements returned to clients, and rows inserted, updated and deleted in tables.",
    );
    let returned = metrics
        .rows_returned
        .load(std::sync::atomic::Ordering::Relaxed);
    let [inserted, updated, deleted] = engine.rows_changed();
    for (operation, count) in [
        ("returned", returned),
        ("inserted", inserted),
        ("updated", updated),
        ("deleted", deleted),
    ] {
        sample(
            &mut out,
            "litewire_rows_total",
            &[("operation", operation)],
            count,
        );
    }

    family(
        &mut out,
        "litewire_network_bytes_total",
        "counter",
        "Bytes received from and sent to clients (after TLS), by front end (Hrana's are HTTP's).",
    );
    for (frontend, received, sent) in metrics.traffic() {
        if frontend == "hrana" {
            continue;
        }
        for (direction, count) in [("received", received), ("sent", sent)] {
            sample(
                &mut out,
                "litewire_network_bytes_total",
                &[("frontend", frontend), ("direction", direction)],
                count,
            );
        }
    }

    family(
        &mut out,
        "litewire_deadlocks_total",
        "counter",
        "Waits given up to break a deadlock (40P01).",
    );
    sample(
        &mut out,
        "litewire_deadlocks_total",
        &[],
        metrics.deadlocks.load(std::sync::atomic::Ordering::Relaxed),
    );

    family(
        &mut out,
        "litewire_write_permit_wait_seconds",
        "histogram",
        "Waits for the write permit (only those that had to wait).",
    );
    histogram_samples(
        &mut out,
        "litewire_write_permit_wait_seconds",
        None,
        &metrics.permit_waits,
    );
    family(
        &mut out,
        "litewire_write_permit_hold_seconds",
        "histogram",
        "How long the write permit was held, each time it was taken.",
    );
    histogram_samples(
        &mut out,
        "litewire_write_permit_hold_seconds",
        None,
        &metrics.permit_holds,
    );

    family(
        &mut out,
        "litewire_login_failures_total",
        "counter",
        "Logins refused (wrong password, unknown user, bad token), both ports.",
    );
    sample(
        &mut out,
        "litewire_login_failures_total",
        &[],
        auth.failures(),
    );

    family(
        &mut out,
        "litewire_wal_bytes",
        "gauge",
        "Size of the database's write-ahead log file.",
    );
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    let wal_bytes = std::fs::metadata(&wal).map_or(0, |m| m.len());
    sample(&mut out, "litewire_wal_bytes", &[], wal_bytes);
    wal_frame_samples(&mut out, db);

    process_samples(&mut out);
    out
}

/// The WAL's frames, and how many of them checkpoints have copied into the
/// database file, from the WAL index's header (the `-shm` file, in SQLite's
/// documented format: `mxFrame` at byte 16, `nBackfill` at byte 96, in the
/// machine's byte order). The difference is what the next checkpoint has to
/// copy; both drop to 0 when the WAL starts over. Absent without a WAL index.
fn wal_frame_samples(out: &mut String, db: &Path) {
    use std::io::Read as _;
    let mut shm = db.as_os_str().to_owned();
    shm.push("-shm");
    let mut header = [0u8; 100];
    let read = std::fs::File::open(&shm).and_then(|mut file| file.read_exact(&mut header));
    if read.is_err() {
        return;
    }
    let word = |at: usize| {
        u32::from_ne_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
    };
    family(
        out,
        "litewire_wal_frames",
        "gauge",
        "Pages in the write-ahead log: written to it, and copied into the database file by checkpoints.",
    );
    sample(
        out,
        "litewire_wal_frames",
        &[("state", "written")],
        word(16),
    );
    sample(
        out,
        "litewire_wal_frames",
        &[("state", "checkpointed")],
        word(96),
    );
}

fn family(out: &mut String, name: &str, kind: &str, help: &str) {
    let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} {kind}");
}

fn sample(out: &mut String, name: &str, labels: &[(&str, &str)], value: impl std::fmt::Display) {
    out.push_str(name);
    if !labels.is_empty() {
        out.push('{');
        for (i, (label, value)) in labels.iter().enumerate() {
            if i > 0 {
                out.push(',');
            }
            // Label values here are fixed words: nothing to escape.
            let _ = write!(out, "{label}=\"{value}\"");
        }
        out.push('}');
    }
    let _ = writeln!(out, " {value}");
}

fn histogram_samples(
    out: &mut String,
    name: &str,
    label: Option<(&str, &str)>,
    histogram: &Histogram,
) {
    let (cumulative, sum) = histogram.read();
    let bucket = format!("{name}_bucket");
    let bounds = BUCKETS
        .iter()
        .map(f64::to_string)
        .chain(std::iter::once("+Inf".to_owned()));
    for (bound, count) in bounds.zip(&cumulative) {
        let mut labels: Vec<(&str, &str)> = label.into_iter().collect();
        labels.push(("le", &bound));
        sample(out, &bucket, &labels, count);
    }
    let labels: Vec<(&str, &str)> = label.into_iter().collect();
    sample(out, &format!("{name}_sum"), &labels, sum);
    let count = cumulative.last().copied().unwrap_or(0);
    sample(out, &format!("{name}_count"), &labels, count);
}

/// The standard process metrics, from `/proc/self` (absent where there is none).
fn process_samples(out: &mut String) {
    const PAGE: u64 = 4096;
    const TICKS_PER_SECOND: f64 = 100.0;
    if let Ok(statm) = std::fs::read_to_string("/proc/self/statm")
        && let Some(pages) = statm
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u64>().ok())
    {
        family(
            out,
            "process_resident_memory_bytes",
            "gauge",
            "Resident memory size in bytes.",
        );
        sample(out, "process_resident_memory_bytes", &[], pages * PAGE);
    }
    if let Ok(stat) = std::fs::read_to_string("/proc/self/stat")
        // The fields after the command name, which is in parentheses.
        && let Some((_, fields)) = stat.rsplit_once(')')
    {
        let fields: Vec<&str> = fields.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
        // utime and stime are the stat file's fields 14 and 15 (11 and 12 here).
        if let (Some(user), Some(system)) = (ticks(11), ticks(12)) {
            family(
                out,
                "process_cpu_seconds_total",
                "counter",
                "Total user and system CPU time spent in seconds.",
            );
            sample(
                out,
                "process_cpu_seconds_total",
                &[],
                (user + system) as f64 / TICKS_PER_SECOND,
            );
        }
    }
    if let Ok(fds) = std::fs::read_dir("/proc/self/fd") {
        family(
            out,
            "process_open_fds",
            "gauge",
            "Number of open file descriptors.",
        );
        sample(out, "process_open_fds", &[], fds.count());
    }
}
