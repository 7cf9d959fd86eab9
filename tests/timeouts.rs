//! Stopping statements: cancel requests, statement_timeout (SET, startup options,
//! the server's flag), lock_timeout, idle_in_transaction_session_timeout, the HTTP
//! time limit and HTTP clients that hang up; and limits that answer at once.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::TestServer;
use tokio_postgres::error::SqlState;

/// Never ends on its own.
const ENDLESS: &str =
    "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c";

async fn connect_with(server: &TestServer, options: &str) -> tokio_postgres::Client {
    let config = format!(
        "host=127.0.0.1 port={} user=postgres dbname=litewire {options}",
        server.pg.port()
    );
    let (client, connection) = tokio_postgres::connect(&config, tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(async move {
        let _ = connection.await;
    });
    client
}

/// `SHOW name`'s value.
async fn show(client: &tokio_postgres::Client, name: &str) -> String {
    let messages = client.simple_query(&format!("SHOW {name}")).await.unwrap();
    messages
        .iter()
        .find_map(|message| match message {
            tokio_postgres::SimpleQueryMessage::Row(row) => row.get(0).map(str::to_owned),
            _ => None,
        })
        .expect("a row")
}

fn code(error: &tokio_postgres::Error) -> Option<&SqlState> {
    error.as_db_error().map(|e| e.code())
}

fn message(error: &tokio_postgres::Error) -> String {
    error
        .as_db_error()
        .map_or_else(|| error.to_string(), |e| e.message().to_owned())
}

/// Runs the endless statement and returns its error and how long it ran.
async fn endless(client: &tokio_postgres::Client) -> (tokio_postgres::Error, Duration) {
    let started = Instant::now();
    let error = client
        .simple_query(ENDLESS)
        .await
        .expect_err("an endless statement must be stopped");
    (error, started.elapsed())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statement_timeout_from_set_startup_options_and_the_server_flag() {
    let server = TestServer::start("shared", &[]);
    let client = connect_with(&server, "").await;
    assert_eq!(show(&client, "statement_timeout").await, "0");
    client
        .batch_execute("SET statement_timeout = '200ms'")
        .await
        .unwrap();
    let (error, took) = endless(&client).await;
    assert_eq!(code(&error), Some(&SqlState::QUERY_CANCELED), "{error}");
    assert_eq!(
        message(&error),
        "canceling statement due to statement timeout"
    );
    assert!(took < Duration::from_secs(5), "took {took:?}");
    // The session goes on, and a fast statement is not affected.
    let rows = client.query("SELECT 1", &[]).await.unwrap();
    assert_eq!(rows.len(), 1);
    client
        .batch_execute("RESET statement_timeout")
        .await
        .unwrap();

    // `-c statement_timeout=...` at startup (PGOPTIONS), through the extended protocol.
    let optioned = connect_with(&server, "options='-c statement_timeout=150'").await;
    let error = optioned.query(ENDLESS, &[]).await.unwrap_err();
    assert_eq!(code(&error), Some(&SqlState::QUERY_CANCELED), "{error}");
    drop(server);

    let server = TestServer::start("private", &["--statement-timeout-ms", "250"]);
    let client = connect_with(&server, "").await;
    assert_eq!(show(&client, "statement_timeout").await, "250");
    let (error, _) = endless(&client).await;
    assert_eq!(
        message(&error),
        "canceling statement due to statement timeout"
    );
    // A bad value is refused and the setting keeps its value.
    assert!(
        client
            .batch_execute("SET statement_timeout = 'soon'")
            .await
            .is_err()
    );
}

/// Cancels the endless statement with the driver's CancelRequest while the
/// server has `workers` threads; one of them is busy with the statement.
async fn cancel_with_the_right_key(extra: &[&str]) {
    let server = TestServer::start("shared", extra);
    let client = connect_with(&server, "").await;
    let token = client.cancel_token();
    let canceler = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        token.cancel_query(tokio_postgres::NoTls).await
    });
    let running = tokio::time::timeout(Duration::from_secs(20), endless(&client))
        .await
        .expect("the cancel request must stop the statement");
    canceler.await.unwrap().expect("cancel request sent");
    let (error, _) = running;
    assert_eq!(code(&error), Some(&SqlState::QUERY_CANCELED), "{error}");
    assert_eq!(message(&error), "canceling statement due to user request");
    // The connection is still usable and the cancel does not linger.
    let rows = client.query("SELECT 1", &[]).await.unwrap();
    assert_eq!(rows.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_request_stops_the_statement() {
    cancel_with_the_right_key(&[]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_request_is_answered_while_the_only_worker_runs_the_statement() {
    cancel_with_the_right_key(&["--worker-threads", "1"]).await;
    cancel_with_the_right_key(&["--worker-threads", "1", "--thread-per-core"]).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_request_with_a_wrong_secret_does_nothing() {
    let server = TestServer::start("shared", &[]);
    let client = connect_with(&server, "").await;
    let pid: i32 = client
        .query_one("SELECT pg_backend_pid()", &[])
        .await
        .unwrap()
        .get(0);
    client
        .batch_execute("SET statement_timeout = '1500ms'")
        .await
        .unwrap();
    let pg = server.pg;
    let sender = tokio::task::spawn_blocking(move || {
        std::thread::sleep(Duration::from_millis(300));
        for secret in [0_i32, 1, -1, 12345] {
            let mut socket = TcpStream::connect(pg).unwrap();
            let mut request = Vec::new();
            for field in [16_i32, 80_877_102, pid, secret] {
                request.extend_from_slice(&field.to_be_bytes());
            }
            socket.write_all(&request).unwrap();
            // The server closes the connection without a word.
            let mut rest = Vec::new();
            let _ = socket.read_to_end(&mut rest);
            assert!(rest.is_empty());
        }
    });
    let (error, took) = endless(&client).await;
    sender.await.unwrap();
    assert_eq!(
        message(&error),
        "canceling statement due to statement timeout",
        "a wrong secret must not cancel"
    );
    assert!(took >= Duration::from_millis(1400), "took {took:?}");
}

async fn lock_timeout_bounds_the_wait_for_the_writer(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let writer = connect_with(&server, "").await;
    writer
        .batch_execute("CREATE TABLE t (a int)")
        .await
        .unwrap();
    writer
        .batch_execute("BEGIN; INSERT INTO t VALUES (1)")
        .await
        .unwrap();
    let other = connect_with(&server, "").await;
    other
        .batch_execute("SET lock_timeout = '200ms'")
        .await
        .unwrap();
    let started = Instant::now();
    let error = other
        .batch_execute("INSERT INTO t VALUES (2)")
        .await
        .unwrap_err();
    assert_eq!(code(&error), Some(&SqlState::LOCK_NOT_AVAILABLE), "{error}");
    assert!(started.elapsed() < Duration::from_secs(3));
    writer.batch_execute("COMMIT").await.unwrap();
    other
        .batch_execute("INSERT INTO t VALUES (2)")
        .await
        .unwrap();
}

async fn idle_in_transaction_timeout_ends_the_session_and_frees_its_locks(cache: &str) {
    let server = TestServer::start(cache, &["--idle-in-transaction-timeout-ms", "300"]);
    let idle = connect_with(&server, "").await;
    assert_eq!(
        show(&idle, "idle_in_transaction_session_timeout").await,
        "300"
    );
    idle.batch_execute("CREATE TABLE t (a int)").await.unwrap();
    idle.batch_execute("BEGIN; INSERT INTO t VALUES (1)")
        .await
        .unwrap();
    // Idle outside a transaction is fine, however long.
    let patient = connect_with(&server, "").await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let error = idle.batch_execute("COMMIT").await.unwrap_err();
    assert!(
        code(&error) == Some(&SqlState::IDLE_IN_TRANSACTION_SESSION_TIMEOUT) || idle.is_closed(),
        "{error}"
    );
    // Its transaction was rolled back and the write lock released at once.
    patient
        .batch_execute("SET lock_timeout = '500ms'; INSERT INTO t VALUES (2)")
        .await
        .unwrap();
    let count: i64 = patient
        .query_one("SELECT count(*) FROM t", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(count, 1);
    // A session may turn it off for itself.
    patient
        .batch_execute("SET idle_in_transaction_session_timeout = 0; BEGIN; SELECT 1")
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(700)).await;
    patient.batch_execute("COMMIT").await.unwrap();
}

in_both_cache_modes!(
    lock_timeout_bounds_the_wait_for_the_writer,
    idle_in_transaction_timeout_ends_the_session_and_frees_its_locks,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_requests_have_a_time_limit() {
    let server = TestServer::start("shared", &["--http-timeout-ms", "300"]);
    let body = serde_json::json!({ "statements": [ENDLESS] }).to_string();
    let started = Instant::now();
    let (status, json) = server.post(&body, Some("application/json")).await;
    assert_eq!(status, 200, "{json}");
    assert_eq!(
        json[0]["error"],
        "canceling statement due to statement timeout"
    );
    assert!(started.elapsed() < Duration::from_secs(5));
}

async fn http_client_that_hangs_up_stops_its_statement(cache: &str) {
    let server = TestServer::start(cache, &["--http-timeout-ms", "0"]);
    server.http_query("CREATE TABLE t (a int)").await;
    // A write that never ends holds the write permit while it runs.
    let endless_write = format!("INSERT INTO t {}", ENDLESS.replace("count(*)", "x"));
    let body = serde_json::json!({ "statements": [endless_write] }).to_string();
    let mut socket = TcpStream::connect(server.http).unwrap();
    write!(
        socket,
        "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{}",
        body.len(),
        body
    )
    .unwrap();
    std::thread::sleep(Duration::from_millis(300));
    drop(socket);
    let client = connect_with(&server, "").await;
    client
        .batch_execute("SET lock_timeout = '5s'; INSERT INTO t VALUES (1)")
        .await
        .expect("the abandoned statement must have stopped and let the writer in");
}

in_both_cache_modes!(http_client_that_hangs_up_stops_its_statement);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_max_connections_clients_are_refused_at_once_and_health_still_answers() {
    let server = TestServer::start("shared", &["--max-connections", "2"]);
    let first = connect_with(&server, "").await;
    let second = connect_with(&server, "").await;
    first.batch_execute("SELECT 1").await.unwrap();
    second.batch_execute("SELECT 1").await.unwrap();

    let started = Instant::now();
    let config = format!(
        "host=127.0.0.1 port={} user=postgres dbname=litewire",
        server.pg.port()
    );
    let refused = tokio_postgres::connect(&config, tokio_postgres::NoTls)
        .await
        .err()
        .expect("a third client must be refused");
    assert_eq!(code(&refused), Some(&SqlState::TOO_MANY_CONNECTIONS));
    assert_eq!(message(&refused), "sorry, too many clients already");
    assert!(started.elapsed() < Duration::from_secs(2));

    let started = Instant::now();
    let response = reqwest::Client::new()
        .post(server.url("/"))
        .body(r#"{"statements": ["SELECT 1"]}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 503);
    assert!(response.headers().contains_key("retry-after"));
    let (status, _) = server.get("/health").await;
    assert_eq!(status, 200);
    assert!(started.elapsed() < Duration::from_secs(2));

    // A place frees up when a client leaves.
    drop(first);
    tokio::time::sleep(Duration::from_millis(300)).await;
    let third = connect_with(&server, "").await;
    third.batch_execute("SELECT 1").await.unwrap();
}

/// While as many endless statements run as there are worker threads, from both
/// front ends, `/health` and a point SELECT on another connection still answer.
async fn long_statements_do_not_stall_the_others(workers: &str) {
    let server = TestServer::start(
        "shared",
        &["--worker-threads", workers, "--http-timeout-ms", "20000"],
    );
    let setup = connect_with(&server, "").await;
    setup
        .batch_execute("CREATE TABLE t (id int PRIMARY KEY, v text); INSERT INTO t VALUES (1, 'a')")
        .await
        .unwrap();
    let body = serde_json::json!({ "statements": [ENDLESS] }).to_string();
    let http_url = server.url("/");
    let over_http = tokio::spawn(async move {
        reqwest::Client::new()
            .post(http_url)
            .body(body)
            .send()
            .await
            .map(|r| r.status().as_u16())
    });
    let busy = connect_with(&server, "options='-c statement_timeout=20000'").await;
    let token = busy.cancel_token();
    let over_pg = tokio::spawn(async move { endless(&busy).await });
    tokio::time::sleep(Duration::from_millis(500)).await;

    let started = Instant::now();
    let (status, _) = server.get("/health").await;
    assert_eq!(status, 200);
    let other = connect_with(&server, "").await;
    let row = other
        .query_one("SELECT v FROM t WHERE id = $1", &[&1_i32])
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "a");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "answered after {:?}",
        started.elapsed()
    );
    assert!(!over_pg.is_finished() && !over_http.is_finished());
    token.cancel_query(tokio_postgres::NoTls).await.unwrap();
    let (error, _) = over_pg.await.unwrap();
    assert_eq!(message(&error), "canceling statement due to user request");
    over_http.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_statements_on_every_worker_do_not_stall_the_others() {
    long_statements_do_not_stall_the_others("2").await;
    long_statements_do_not_stall_the_others("1").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_clients_that_do_not_send_their_headers_are_closed() {
    let server = TestServer::start("shared", &["--startup-timeout-ms", "300"]);
    let started = Instant::now();
    let mut socket = TcpStream::connect(server.http).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    socket
        .write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    let mut rest = Vec::new();
    let _ = socket.read_to_end(&mut rest);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "closed after {:?}",
        started.elapsed()
    );
    let (status, _) = server.get("/health").await;
    assert_eq!(status, 200);
}
