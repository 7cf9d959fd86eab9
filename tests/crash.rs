//! Crash safety: the server killed with SIGKILL while several clients commit
//! transactions loses no commit it acknowledged and leaves no transaction half
//! applied, at `--synchronous normal` and `full`. Each transaction writes three
//! places (two inserts and a counter); the clients record every COMMIT the server
//! answered; after the kill the file must pass `integrity_check`, hold every
//! acknowledged transaction whole, hold nothing of the others but whole ones (a
//! commit may land without its answer reaching the client), and serve again.

mod common;

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::TestServer;

const WRITERS: i64 = 4;
/// Acknowledged commits to wait for before the kill.
const BEFORE_KILL: usize = 200;

async fn killed_under_writers(synchronous: &str) {
    let server = TestServer::start("shared", &["--synchronous", synchronous]);
    let (setup, _task) = server.connect().await;
    setup
        .batch_execute(
            "CREATE TABLE a (writer integer, seq integer, PRIMARY KEY (writer, seq));
             CREATE TABLE b (writer integer, seq integer, pad text, PRIMARY KEY (writer, seq));
             CREATE TABLE counters (writer integer PRIMARY KEY, n integer NOT NULL);
             INSERT INTO counters VALUES (0, 0), (1, 0), (2, 0), (3, 0);",
        )
        .await
        .unwrap();

    let acked: Arc<Mutex<BTreeSet<(i64, i64)>>> = Arc::default();
    let mut writers = Vec::new();
    for writer in 0..WRITERS {
        let (client, task) = server.connect().await;
        let acked = acked.clone();
        writers.push(tokio::spawn(async move {
            let _task = task;
            for seq in 0.. {
                let transaction = format!(
                    "BEGIN;
                     INSERT INTO a VALUES ({writer}, {seq});
                     INSERT INTO b VALUES ({writer}, {seq}, printf('%.500c', 'x'));
                     UPDATE counters SET n = n + 1 WHERE writer = {writer};
                     COMMIT;"
                );
                if client.batch_execute(&transaction).await.is_err() {
                    break;
                }
                acked.lock().unwrap().insert((writer, seq));
            }
        }));
    }
    while acked.lock().unwrap().len() < BEFORE_KILL {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (dir, db) = server.kill();
    for writer in writers {
        writer.await.unwrap();
    }
    let acked = acked.lock().unwrap().clone();

    {
        // SQLite recovers the WAL as it opens the file.
        let conn = rusqlite::Connection::open(&db).unwrap();
        let integrity: String = conn
            .query_row("PRAGMA integrity_check", [], |row| row.get(0))
            .unwrap();
        assert_eq!(integrity, "ok");
        let pairs = |table: &str| -> BTreeSet<(i64, i64)> {
            let mut stmt = conn
                .prepare(&format!("SELECT writer, seq FROM {table}"))
                .unwrap();
            stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))
                .unwrap()
                .map(Result::unwrap)
                .collect()
        };
        let (a, b) = (pairs("a"), pairs("b"));
        let missing: Vec<_> = acked.difference(&a).collect();
        assert!(missing.is_empty(), "acknowledged commits lost: {missing:?}");
        assert_eq!(a, b, "a transaction was half applied");
        for writer in 0..WRITERS {
            let n: i64 = conn
                .query_row(
                    "SELECT n FROM counters WHERE writer = ?1",
                    [writer],
                    |row| row.get(0),
                )
                .unwrap();
            let rows = a.iter().filter(|(w, _)| *w == writer).count() as i64;
            assert_eq!(n, rows, "writer {writer}'s counter disagrees with its rows");
            // Each writer commits in order: what survived is a prefix.
            let seqs: Vec<i64> = a
                .iter()
                .filter(|(w, _)| *w == writer)
                .map(|(_, s)| *s)
                .collect();
            assert!(seqs.iter().enumerate().all(|(i, s)| *s == i as i64));
        }
    }

    let server = TestServer::start_at(dir, db, "shared", &["--synchronous", synchronous]);
    let (client, _task) = server.connect().await;
    let rows = client.query("SELECT count(*) FROM a", &[]).await.unwrap();
    assert!(rows[0].get::<_, i64>(0) >= acked.len() as i64);
    client
        .batch_execute("INSERT INTO a VALUES (99, 0)")
        .await
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_at_synchronous_normal() {
    killed_under_writers("normal").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_at_synchronous_full() {
    killed_under_writers("full").await;
}
