//! SQLite connections left by sessions that ended are closed once unused for
//! `--idle-connection-timeout-ms` (down to `--min-connections`): each has a
//! thread of its own, so a burst of clients that left shows in the server's
//! threads until then, and not after. Memory is taken in small pages: no
//! transparent huge pages, which turn each 4 KiB touched into 2 MiB held.

mod common;

use std::time::Duration;

use common::{CACHE_MODES, TestServer};

/// Opens `count` sessions at once, each running a query, and closes them.
async fn burst(server: &TestServer, count: usize) {
    let mut clients = Vec::new();
    for _ in 0..count {
        clients.push(server.connect().await);
    }
    for (client, _) in &clients {
        let row = client
            .query_one("SELECT count(*) FROM t", &[])
            .await
            .expect("query");
        assert_eq!(row.get::<_, i64>(0), 1);
    }
    drop(clients);
}

/// A server with `--idle-connection-timeout-ms idle` and a table of one row.
async fn start(cache: &str, idle: &str) -> TestServer {
    let server = TestServer::start(cache, &["--idle-connection-timeout-ms", idle]);
    let (client, _task) = server.connect().await;
    client
        .batch_execute("CREATE TABLE t (n int); INSERT INTO t VALUES (1)")
        .await
        .expect("setup");
    server
}

/// Waits up to 10 s for the server's threads to drop to `at_most`.
async fn threads_drop_to(server: &TestServer, at_most: u64) -> u64 {
    let mut now = server.threads();
    for _ in 0..100 {
        if now <= at_most {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
        now = server.threads();
    }
    now
}

#[tokio::test]
async fn a_burst_of_clients_leaves_no_connections_behind() {
    for cache in CACHE_MODES {
        let server = start(cache, "300").await;
        tokio::time::sleep(Duration::from_millis(500)).await;
        let idle = server.threads();
        burst(&server, 20).await;
        let busy = server.threads();
        assert!(
            busy >= idle + 15,
            "{cache}: {busy} threads after 20 sessions, {idle} before"
        );
        let after = threads_drop_to(&server, idle + 2).await;
        assert!(
            after <= idle + 2,
            "{cache}: {after} threads left, {idle} before the burst"
        );
        // The next sessions still find a connection.
        burst(&server, 3).await;
    }
}

#[tokio::test]
async fn without_a_timeout_the_connections_stay_for_the_next_sessions() {
    let server = start("shared", "0").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let idle = server.threads();
    burst(&server, 20).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let after = server.threads();
    assert!(
        after >= idle + 15,
        "{after} threads after the burst, {idle} before"
    );
}

#[tokio::test]
async fn memory_is_held_in_small_pages() {
    for cache in CACHE_MODES {
        let server = start(cache, "30000").await;
        burst(&server, 20).await;
        assert_eq!(server.huge_pages_allowed(), 0, "{cache}");
        assert_eq!(server.anon_huge_pages_kib(), 0, "{cache}");
    }
}
