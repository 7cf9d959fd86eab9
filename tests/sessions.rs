//! Sessions and transactions across both front ends, disconnects and shutdown.

mod common;

use std::time::Duration;

use common::TestServer;
use serde_json::json;

in_both_cache_modes!(
    writes_are_visible_across_front_ends,
    disconnect_inside_a_transaction_rolls_back,
    concurrent_writers_never_see_locked,
    waits_never_block_the_worker_thread,
    a_long_query_does_not_hold_up_others,
    shutdown_checkpoints_the_wal
);

async fn writes_are_visible_across_front_ends(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute("CREATE TABLE x (id integer PRIMARY KEY, v text)")
        .await
        .unwrap();
    client
        .execute("INSERT INTO x VALUES (1, 'from postgres')", &[])
        .await
        .unwrap();
    let results = server.http_query("SELECT v FROM x WHERE id = 1").await;
    assert_eq!(results["rows"], json!([["from postgres"]]));

    server
        .http_query("INSERT INTO x VALUES (2, 'from http')")
        .await;
    let row = client
        .query_one("SELECT v FROM x WHERE id = 2", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, &str>(0), "from http");
}

async fn disconnect_inside_a_transaction_rolls_back(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute("CREATE TABLE d (v int)")
        .await
        .unwrap();

    let (doomed, connection) = server.connect().await;
    doomed
        .batch_execute("BEGIN; INSERT INTO d VALUES (1); INSERT INTO d VALUES (2)")
        .await
        .unwrap();
    // Hang up without COMMIT or ROLLBACK: drop the client and its socket.
    connection.abort();
    drop(doomed);

    // A write needs the write lock the dead transaction held: it must be released.
    let inserted = tokio::time::timeout(
        Duration::from_secs(10),
        client.execute("INSERT INTO d VALUES (3)", &[]),
    )
    .await
    .expect("the abandoned transaction still holds the write lock")
    .unwrap();
    assert_eq!(inserted, 1);
    let values: Vec<i32> = client
        .query("SELECT v FROM d ORDER BY v", &[])
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(
        values,
        vec![3],
        "nothing of the abandoned transaction is visible"
    );
    assert_eq!(
        server.http_query("SELECT count(*) FROM d").await["rows"],
        json!([[1]])
    );

    // New sessions start outside any transaction: a ROLLBACK cannot undo their work.
    let (next, _conn) = server.connect().await;
    next.execute("INSERT INTO d VALUES (4)", &[]).await.unwrap();
    next.batch_execute("ROLLBACK").await.unwrap();
    assert_eq!(
        server.http_query("SELECT count(*) FROM d").await["rows"],
        json!([[2]])
    );
}

/// With one worker thread every connection shares it: a session waiting for the
/// write permit must wait without blocking the thread, or the session it waits for
/// could never COMMIT.
async fn waits_never_block_the_worker_thread(cache: &str) {
    for threading in [
        &["--worker-threads", "1"][..],
        &["--worker-threads", "1", "--thread-per-core"],
    ] {
        waits_never_block_one_thread(cache, threading).await;
    }
}

async fn waits_never_block_one_thread(cache: &str, threading: &[&str]) {
    let server = TestServer::start(cache, threading);
    let (holder, _holder_conn) = server.connect().await;
    holder
        .batch_execute("CREATE TABLE t (id integer PRIMARY KEY, v text)")
        .await
        .unwrap();
    holder
        .batch_execute("BEGIN; INSERT INTO t VALUES (1, 'held')")
        .await
        .unwrap();
    let (writer, _writer_conn) = server.connect().await;
    let write = tokio::spawn(async move {
        writer
            .execute("INSERT INTO t VALUES (2, 'queued')", &[])
            .await
            .map(|_| ())
    });
    let (reader, _reader_conn) = server.connect().await;
    let read = tokio::spawn(async move {
        reader
            .query_one("SELECT count(*) FROM t", &[])
            .await
            .map(|row| row.get::<_, i64>(0))
    });
    // Over HTTP too, on the same thread.
    let health = server.get("/health").await;
    assert_eq!(health.0, 200, "{health:?}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !write.is_finished(),
        "the second writer did not wait for the first"
    );
    holder.batch_execute("COMMIT").await.unwrap();
    let waited = tokio::time::timeout(Duration::from_secs(10), async {
        (write.await.unwrap(), read.await.unwrap())
    })
    .await
    .expect("a waiting session blocked the worker thread");
    waited.0.unwrap();
    // The reader reads the snapshot before the COMMIT (0 rows) or after (1 or 2).
    let seen = waited.1.unwrap();
    assert!((0..=2).contains(&seen), "{seen}");
    assert_eq!(
        server.http_query("SELECT count(*) AS n FROM t").await["rows"],
        json!([[2]])
    );
}

/// A statement runs to the end on its thread; with the default (work-stealing)
/// threads, other connections go on meanwhile, HTTP and PostgreSQL alike.
async fn a_long_query_does_not_hold_up_others(cache: &str) {
    let server = TestServer::start(cache, &["--worker-threads", "2"]);
    let (long, _long_conn) = server.connect().await;
    let query = tokio::spawn(async move {
        let messages = long
            .simple_query(
                "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 5000000) \
                 SELECT count(*) FROM c",
            )
            .await?;
        Ok::<_, tokio_postgres::Error>(messages.into_iter().find_map(|message| match message {
            tokio_postgres::SimpleQueryMessage::Row(row) => row.get(0).map(str::to_owned),
            _ => None,
        }))
    });
    // Let it start, then connect and query, several times over, while it runs.
    tokio::time::sleep(Duration::from_millis(100)).await;
    for _ in 0..4 {
        let (status, _) = server.get("/health").await;
        assert_eq!(status, 200);
        let (client, _conn) = server.connect().await;
        let row = client.query_one("SELECT 1", &[]).await.unwrap();
        assert_eq!(row.get::<_, i32>(0), 1);
    }
    assert!(
        !query.is_finished(),
        "the other connections were served only after the long query ended"
    );
    assert_eq!(query.await.unwrap().unwrap().as_deref(), Some("5000000"));
}

async fn concurrent_writers_never_see_locked(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (setup, _conn) = server.connect().await;
    setup
        .batch_execute("CREATE TABLE acct (id integer PRIMARY KEY, bal integer NOT NULL); INSERT INTO acct VALUES (1, 0), (2, 0)")
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for worker in 0..8 {
        let (client, conn) = server.connect().await;
        tasks.push(tokio::spawn(async move {
            for i in 0..25 {
                // Write transactions from 8 clients at once: the write permit
                // queues them, and no "database is locked" may escape.
                client
                    .batch_execute(&format!(
                        "BEGIN; UPDATE acct SET bal = bal + 1 WHERE id = 1; SELECT bal FROM acct WHERE id = 1; \
                         UPDATE acct SET bal = bal - 1 WHERE id = 2; COMMIT; -- {worker}/{i}"
                    ))
                    .await
                    .unwrap_or_else(|e| panic!("worker {worker}: {e:?}"));
                let row = client.query_one("SELECT sum(bal) FROM acct", &[]).await.unwrap();
                assert_eq!(row.get::<_, i64>(0), 0, "a reader saw half a transaction");
            }
            drop(conn);
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let row = setup
        .query_one("SELECT bal FROM acct WHERE id = 1", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i32>(0), 200);
}

async fn shutdown_checkpoints_the_wal(cache: &str) {
    let mut server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute("CREATE TABLE s (v text); INSERT INTO s VALUES ('kept')")
        .await
        .unwrap();
    let wal = server.db_path().with_extension("db-wal");
    assert!(wal.exists(), "WAL mode keeps a -wal file while serving");
    drop(client);
    let status = server.stop();
    assert!(status.success(), "exit status after SIGTERM: {status:?}");
    let wal_size = std::fs::metadata(&wal).map(|m| m.len()).unwrap_or(0);
    assert_eq!(
        wal_size, 0,
        "the WAL was checkpointed into the database at shutdown"
    );
    // The plain SQLite file holds the data.
    let out = std::process::Command::new("sqlite3")
        .arg(server.db_path())
        .arg("SELECT v FROM s")
        .output()
        .expect("run the sqlite3 CLI");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "kept\n");
}

/// Bytes that are not the protocol end that connection, never the server.
#[tokio::test]
async fn malformed_bytes_never_crash_the_server() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = TestServer::start("shared", &[]);
    let startup = {
        let body = b"\x00\x03\x00\x00user\x00postgres\x00\x00";
        let mut msg = ((body.len() + 4) as i32).to_be_bytes().to_vec();
        msg.extend_from_slice(body);
        msg
    };
    let garbage: Vec<Vec<u8>> = vec![
        b"GET / HTTP/1.1\r\n\r\n".to_vec(),
        vec![0xff; 64],
        vec![0, 0, 0, 8, 0xde, 0xad, 0xbe, 0xef],
        // A valid startup, then an unknown message type, then a Query claiming 2 GB.
        [startup.clone(), b"~\x00\x00\x00\x08abcd".to_vec()].concat(),
        [startup.clone(), b"Q\x7f\xff\xff\xffSELECT 1".to_vec()].concat(),
        // A Bind for a statement that does not exist, and a Parse without its query.
        [
            startup.clone(),
            b"B\x00\x00\x00\x0cportal\x00nope\x00S\x00\x00\x00\x04".to_vec(),
        ]
        .concat(),
        [startup, b"P\x00\x00\x00\x05\x00".to_vec()].concat(),
    ];
    let mut answers = Vec::new();
    for bytes in garbage {
        let mut stream = tokio::net::TcpStream::connect(server.pg).await.unwrap();
        stream.write_all(&bytes).await.unwrap();
        let mut sink = Vec::new();
        // Whatever the server answers, it must end or keep the connection; read briefly.
        let _ =
            tokio::time::timeout(Duration::from_millis(500), stream.read_to_end(&mut sink)).await;
        answers.push(sink);
    }
    let (client, _conn) = server.connect().await;
    let row = client.query_one("SELECT 40 + 2", &[]).await.unwrap();
    assert_eq!(row.get::<_, i32>(0), 42);
    let (status, _) = server.get("/health").await;
    assert_eq!(status, 200);
    // The unknown type, the oversized Query and the truncated Parse (which tripped
    // pgwire's decoder) get a protocol violation before the connection closes.
    for answer in [&answers[3], &answers[4], &answers[6]] {
        let text = String::from_utf8_lossy(answer);
        assert!(text.contains("FATAL") && text.contains("08P01"), "{text:?}");
    }
}
