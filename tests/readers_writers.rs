//! Readers and writers never wait for each other, in either cache mode: the
//! writer's connection has a page cache of its own, so the shared cache's table
//! locks never cross between it and the readers, and a reader holds no read
//! transaction between statements. A commit is seen by the next statement of
//! every session, including sessions inside a transaction that has only read (as
//! in PostgreSQL's READ COMMITTED).
//!
//! "Never waits" is checked as "answers while the other side still holds its
//! transaction open": each statement gets a generous deadline, only so that a
//! wait shows up as a failure instead of a hang.

mod common;

use std::time::Duration;

use common::TestServer;
use serde_json::json;
use tokio::time::timeout;

const DEADLINE: Duration = Duration::from_secs(10);

async fn setup(server: &TestServer) {
    server
        .http_query("CREATE TABLE t (id integer PRIMARY KEY, v text)")
        .await;
    server.http_query("INSERT INTO t VALUES (1, 'one')").await;
}

async fn count(client: &tokio_postgres::Client) -> i64 {
    timeout(DEADLINE, client.query_one("SELECT count(*) FROM t", &[]))
        .await
        .expect("the read waited for a writer")
        .unwrap()
        .get(0)
}

/// A session writes inside an open transaction; others read the table at once,
/// from the last committed snapshot, over both front ends.
async fn readers_do_not_wait_for_an_open_write(cache: &str) {
    let server = TestServer::start(cache, &[]);
    setup(&server).await;
    let (writer, _w) = server.connect().await;
    writer
        .batch_execute(
            "BEGIN; INSERT INTO t VALUES (2, 'two'); UPDATE t SET v = 'uno' WHERE id = 1",
        )
        .await
        .unwrap();
    let (reader, _r) = server.connect().await;
    assert_eq!(count(&reader).await, 1);
    let row = timeout(
        DEADLINE,
        reader.query_one("SELECT v FROM t WHERE id = 1", &[]),
    )
    .await
    .expect("the read waited")
    .unwrap();
    assert_eq!(row.get::<_, String>(0), "one");
    let over_http = timeout(DEADLINE, server.http_query("SELECT count(*) FROM t"))
        .await
        .expect("the HTTP read waited");
    assert_eq!(over_http["rows"], json!([[1]]));
    writer.batch_execute("COMMIT").await.unwrap();
    assert_eq!(count(&reader).await, 2);
}

/// A session idle inside a transaction that has only read a table (what psycopg2
/// and JDBC leave behind after any SELECT) never holds up a writer of it.
async fn writers_do_not_wait_for_an_idle_reader(cache: &str) {
    let server = TestServer::start(cache, &[]);
    setup(&server).await;
    let (reader, _r) = server.connect().await;
    reader.batch_execute("BEGIN").await.unwrap();
    assert_eq!(count(&reader).await, 1);
    let (writer, _w) = server.connect().await;
    timeout(
        DEADLINE,
        writer.execute("INSERT INTO t VALUES (2, 'two')", &[]),
    )
    .await
    .expect("the writer waited for an idle reader")
    .unwrap();
    let over_http = timeout(
        DEADLINE,
        server.http_query("INSERT INTO t VALUES (3, 'three')"),
    )
    .await
    .expect("the HTTP writer waited for an idle reader");
    assert_eq!(over_http["rows_affected"], 1);
    // The reader's next statement sees both commits, still inside its transaction.
    assert_eq!(count(&reader).await, 3);
    reader.batch_execute("COMMIT").await.unwrap();
}

/// After a commit, the next statement of every reader session sees it: sessions
/// idle, sessions inside a read-only transaction, new sessions, HTTP.
async fn a_commit_is_seen_by_every_next_statement(cache: &str) {
    let server = TestServer::start(cache, &[]);
    setup(&server).await;
    let mut readers = Vec::new();
    for in_transaction in [false, true, false, true] {
        let (client, task) = server.connect().await;
        if in_transaction {
            client.batch_execute("BEGIN").await.unwrap();
        }
        assert_eq!(count(&client).await, 1);
        readers.push((client, task));
    }
    for n in 2..=4i64 {
        let (writer, _w) = server.connect().await;
        writer
            .batch_execute(&format!("BEGIN; INSERT INTO t VALUES ({n}, 'x'); COMMIT"))
            .await
            .unwrap();
        for (client, _) in &readers {
            assert_eq!(count(client).await, n);
        }
        let (fresh, _f) = server.connect().await;
        assert_eq!(count(&fresh).await, n);
        let over_http = server.http_query("SELECT count(*) FROM t").await;
        assert_eq!(over_http["rows"], json!([[n]]));
    }
}

/// A transaction that reads, then writes, then reads sees its own write, and the
/// others see it only once it commits.
async fn a_transaction_sees_its_own_writes(cache: &str) {
    let server = TestServer::start(cache, &[]);
    setup(&server).await;
    let (session, _s) = server.connect().await;
    let (other, _o) = server.connect().await;
    session.batch_execute("BEGIN").await.unwrap();
    assert_eq!(count(&session).await, 1);
    session
        .execute("INSERT INTO t VALUES (2, 'two')", &[])
        .await
        .unwrap();
    assert_eq!(count(&session).await, 2);
    assert_eq!(count(&other).await, 1);
    session.batch_execute("ROLLBACK").await.unwrap();
    assert_eq!(count(&session).await, 1);
    assert_eq!(count(&other).await, 1);
}

in_both_cache_modes!(
    readers_do_not_wait_for_an_open_write,
    writers_do_not_wait_for_an_idle_reader,
    a_commit_is_seen_by_every_next_statement,
    a_transaction_sees_its_own_writes,
);

/// A client that stops reading a large result pauses its statement mid-way
/// (rows are produced as the client takes them). Meanwhile others' commits are
/// still seen by the next statement of every other session.
async fn a_paused_result_hides_no_commit(cache: &str) {
    let server = TestServer::start(cache, &[]);
    setup(&server).await;
    let mut slow = std::net::TcpStream::connect(server.pg).unwrap();
    start_up(&mut slow);
    let query = b"SELECT a.id, b.id, c.id, printf('%.200c', 'x') FROM \
        (WITH RECURSIVE c(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM c WHERE id < 1000) SELECT id FROM c) a, \
        (WITH RECURSIVE c(id) AS (SELECT 1 UNION ALL SELECT id + 1 FROM c WHERE id < 1000) SELECT id FROM c) b, \
        t c\0";
    let mut message = vec![b'Q'];
    message.extend_from_slice(&(query.len() as i32 + 4).to_be_bytes());
    message.extend_from_slice(query);
    std::io::Write::write_all(&mut slow, &message).unwrap();
    // Let the server fill the socket buffers and pause.
    tokio::time::sleep(Duration::from_millis(500)).await;

    let (reader, _r) = server.connect().await;
    assert_eq!(count(&reader).await, 1);
    let (writer, _w) = server.connect().await;
    timeout(
        DEADLINE,
        writer.execute("INSERT INTO t VALUES (2, 'two')", &[]),
    )
    .await
    .expect("the writer waited for a paused reader")
    .unwrap();
    assert_eq!(count(&reader).await, 2);
    let (fresh, _f) = server.connect().await;
    assert_eq!(count(&fresh).await, 2);
    assert_eq!(
        server.http_query("SELECT count(*) FROM t").await["rows"],
        json!([[2]])
    );
    drop(slow);
}

/// The startup exchange of a raw PostgreSQL connection, up to ReadyForQuery.
fn start_up(stream: &mut std::net::TcpStream) {
    use std::io::{Read, Write};
    let params = b"user\0postgres\0database\0litewire\0\0";
    let mut startup = Vec::new();
    startup.extend_from_slice(&(params.len() as i32 + 8).to_be_bytes());
    startup.extend_from_slice(&196608i32.to_be_bytes());
    startup.extend_from_slice(params);
    stream.write_all(&startup).unwrap();
    loop {
        let mut header = [0u8; 5];
        stream.read_exact(&mut header).unwrap();
        let len = i32::from_be_bytes([header[1], header[2], header[3], header[4]]) as usize;
        let mut body = vec![0u8; len - 4];
        stream.read_exact(&mut body).unwrap();
        if header[0] == b'Z' {
            return;
        }
    }
}

in_both_cache_modes!(a_paused_result_hides_no_commit);
