//! The HTTP JSON API against a real litewire process.

mod common;

use common::TestServer;
use serde_json::json;

in_both_cache_modes!(
    seed_body_with_any_content_type,
    parameters_and_blobs,
    malformed_requests,
    failed_batches_leave_nothing,
    health_and_version,
    more_clients_than_connections,
    read_only_transactions_and_channels,
    sqlite_semantics_over_http
);

const SEED: &str = r#"{ "statements": [{"q" : "SELECT * FROM t"}] }"#;

async fn seed_body_with_any_content_type(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let setup = json!({"statements": [
        "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)",
        "INSERT INTO t (v) VALUES ('a'), ('b')"
    ]});
    let (status, _) = server.post(&setup.to_string(), None).await;
    assert_eq!(status, 200);
    let expected = json!([{"results": {"columns": ["id", "v"], "rows": [[1, "a"], [2, "b"]], "rows_affected": 2}}]);
    // hey sends text/html, oha sends no Content-Type at all.
    for content_type in [Some("text/html"), None, Some("application/json")] {
        let (status, body) = server.post(SEED, content_type).await;
        assert_eq!(status, 200, "{content_type:?}");
        assert_eq!(body, expected, "{content_type:?}");
    }
    // The answer is JSON, byte for byte as serde_json writes it.
    let response = reqwest::Client::new()
        .post(server.url("/"))
        .body(SEED)
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-type"], "application/json");
    assert_eq!(response.text().await.unwrap(), expected.to_string());
}

async fn parameters_and_blobs(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let body = json!({"statements": [
        "CREATE TABLE p (id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, flag INTEGER)",
        {"q": "INSERT INTO p (name, score, data, flag) VALUES (?, ?, ?, ?)", "params": ["ann", 1.5, {"base64": "AP8="}, true]},
        {"q": "INSERT INTO p (name, score, data, flag) VALUES (:name, @score, $data, :flag)",
         "params": {"name": "bob", "@score": -2, "$data": null, ":flag": false}},
        {"q": "SELECT name, score, data, flag FROM p WHERE id >= $1 ORDER BY id", "params": [1]},
        // JSON has no infinities: they come back as null.
        "SELECT 1e999 AS inf, -1e999 AS minus_inf"
    ]});
    let (status, out) = server.post(&body.to_string(), None).await;
    assert_eq!(status, 200, "{out}");
    assert_eq!(out[1]["results"]["last_insert_rowid"], 1);
    assert_eq!(out[2]["results"]["rows_affected"], 1);
    assert_eq!(
        out[3]["results"]["rows"],
        json!([["ann", 1.5, {"base64": "AP8="}, 1], ["bob", -2.0, null, 0]])
    );
    assert_eq!(
        out[4],
        json!({"results": {"columns": ["inf", "minus_inf"], "rows": [[null, null]], "rows_affected": 1}})
    );
}

async fn malformed_requests(cache: &str) {
    let server = TestServer::start(cache, &["--http-body-limit", "1024"]);
    let bad = [
        "not json",
        "[]",
        r#"{"statements": "SELECT 1"}"#,
        r#"{"statements": [], "extra": 1}"#,
        r#"{"statements": [{"q": "SELECT 1", "param": []}]}"#,
        r#"{"statements": [{"q": 42}]}"#,
        r#"{"statements": [7]}"#,
        r#"{"statements": [{"q": "SELECT ?", "params": [[1]]}]}"#,
        r#"{"statements": [{"q": "SELECT ?", "params": [{"base64": "!!"}]}]}"#,
        r#"{"statements": [{"q": "SELECT :a", "params": {"b": 1}}]}"#,
        r#"{"statements": [{"q": "SELECT 1; SELECT 2"}]}"#,
    ];
    for body in bad {
        let (status, out) = server.post(body, None).await;
        assert_eq!(status, 400, "{body} -> {out}");
        assert!(
            out["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{body} -> {out}"
        );
    }
    let huge = json!({"statements": [format!("SELECT '{}'", "x".repeat(2048))]}).to_string();
    let response = reqwest::Client::new()
        .post(server.url("/"))
        .body(huge)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 413);
    // The server is still fine.
    let (status, out) = server
        .post(r#"{"statements": ["SELECT 1 AS one"]}"#, None)
        .await;
    assert_eq!(
        (status, out[0]["results"]["rows"].clone()),
        (200, json!([[1]]))
    );
}

async fn failed_batches_leave_nothing(cache: &str) {
    let server = TestServer::start(cache, &[]);
    server.http_query("CREATE TABLE b (v TEXT UNIQUE)").await;
    let body = json!({"statements": [
        "INSERT INTO b VALUES ('one')",
        "INSERT INTO b VALUES ('two')",
        "INSERT INTO b VALUES ('one')",
        "INSERT INTO b VALUES ('three')"
    ]});
    let (status, out) = server.post(&body.to_string(), None).await;
    assert_eq!(status, 200);
    assert!(out[0]["results"].is_object());
    assert!(
        out[2]["error"].as_str().unwrap().contains("UNIQUE"),
        "{out}"
    );
    assert!(
        out[3].is_null(),
        "statements after the failure are not run: {out}"
    );
    let rows = server.http_query("SELECT count(*) FROM b").await;
    assert_eq!(
        rows["rows"],
        json!([[0]]),
        "the failed batch was rolled back"
    );

    // A batch that manages its own transaction and leaves it open is rolled back.
    let body = json!({"statements": ["BEGIN", "INSERT INTO b VALUES ('x')"]});
    let (status, _) = server.post(&body.to_string(), None).await;
    assert_eq!(status, 200);
    assert_eq!(
        server.http_query("SELECT count(*) FROM b").await["rows"],
        json!([[0]])
    );
    // ...and one that commits keeps its writes.
    let body = json!({"statements": ["BEGIN", "INSERT INTO b VALUES ('y')", "COMMIT"]});
    server.post(&body.to_string(), None).await;
    assert_eq!(
        server.http_query("SELECT v FROM b").await["rows"],
        json!([["y"]])
    );
}

async fn health_and_version(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (status, body) = server.get("/health").await;
    assert_eq!((status, body), (200, json!({"status": "ok"})));
    let (status, version) = server.get("/version").await;
    assert_eq!(status, 200);
    assert_eq!(version["cache"], cache);
    assert_eq!(version["litewire"], env!("CARGO_PKG_VERSION"));
    assert!(
        version["sqlite_version"]
            .as_str()
            .unwrap()
            .starts_with("3.")
    );
    let options: Vec<&str> = version["compile_options"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|o| o.as_str())
        .collect();
    assert!(options.contains(&"DEFAULT_MEMSTATUS=0"), "{options:?}");
    assert!(options.contains(&"ENABLE_MATH_FUNCTIONS"), "{options:?}");
    assert!(
        !options.contains(&"ENABLE_MEMORY_MANAGEMENT"),
        "{options:?}"
    );
    assert!(
        !server
            .logs()
            .iter()
            .any(|l| l.contains("Was LIBSQLITE3_FLAGS set"))
    );
}

/// While PostgreSQL sessions hold every pooled connection, an HTTP request is told
/// at once (503, `Retry-After`) instead of waiting; once a session ends, its
/// connection serves the next request.
async fn more_clients_than_connections(cache: &str) {
    let server = TestServer::start(
        cache,
        &["--max-connections", "2", "--acquire-timeout-ms", "3000"],
    );
    let setup = json!({"statements": ["CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)", "INSERT INTO t (v) VALUES ('a')"]});
    assert_eq!(server.post(&setup.to_string(), None).await.0, 200);
    // Two PostgreSQL sessions hold both connections.
    let (first, _first_conn) = server.connect().await;
    let (second, second_conn) = server.connect().await;
    for client in [&first, &second] {
        client
            .batch_execute("BEGIN; SELECT * FROM t")
            .await
            .unwrap();
    }
    let started = std::time::Instant::now();
    let response = reqwest::Client::new()
        .post(server.url("/"))
        .body(r#"{"statements": ["SELECT v FROM t"]}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 503);
    assert_eq!(response.headers()["retry-after"], "1");
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    // The second session ends and its connection comes free.
    second.batch_execute("COMMIT").await.unwrap();
    drop(second);
    let _ = second_conn.await;
    // The server sees the client leave a moment after the client does.
    let mut answer = (0, json!(null));
    for _ in 0..50 {
        answer = server
            .post(r#"{"statements": ["SELECT v FROM t"]}"#, None)
            .await;
        if answer.0 != 503 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(answer.0, 200, "{}", answer.1);
    assert_eq!(answer.1[0]["results"]["rows"], json!([["a"]]));
}

/// A read-only transaction refuses writes here as on the PostgreSQL port, and
/// NOTIFY is sent from a request, but LISTEN, whose notifications need a
/// connection to arrive on, is refused with a message saying so.
async fn read_only_transactions_and_channels(cache: &str) {
    let server = TestServer::start(cache, &[]);
    server.http_query("CREATE TABLE ro (v int)").await;
    let body = json!({"statements": [
        "BEGIN TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY",
        "SELECT count(*) FROM ro",
        "INSERT INTO ro VALUES (1)",
        "COMMIT"
    ]});
    let (status, out) = server.post(&body.to_string(), None).await;
    assert_eq!(status, 200);
    assert_eq!(out[1]["results"]["rows"], json!([[0]]), "{out}");
    assert_eq!(
        out[2]["error"].as_str(),
        Some("cannot execute INSERT in a read-only transaction"),
        "{out}"
    );
    assert_eq!(
        server.http_query("SELECT count(*) FROM ro").await["rows"],
        json!([[0]])
    );
    let (_, out) = server
        .post(&json!({"statements": ["LISTEN jobs"]}).to_string(), None)
        .await;
    assert!(
        out[0]["error"]
            .as_str()
            .is_some_and(|e| e.contains("not available over HTTP")),
        "{out}"
    );
    let (_, out) = server
        .post(
            &json!({"statements": ["NOTIFY jobs, 'from http'"]}).to_string(),
            None,
        )
        .await;
    assert!(out[0]["results"].is_object(), "{out}");
}

/// The HTTP API keeps SQLite's meaning, which libsql clients expect; the
/// PostgreSQL port reads the same text as PostgreSQL does.
async fn sqlite_semantics_over_http(cache: &str) {
    let server = TestServer::start(cache, &[]);
    server.http_query("CREATE TABLE n (x int, s text)").await;
    server
        .http_query("INSERT INTO n VALUES (NULL, 'Abc'), (1, 'abc')")
        .await;
    let sql = "SELECT 'abc' LIKE 'ABC', 1 / 0, 'b' > 'B', upper('é'), 2147483647 + 1";
    assert_eq!(
        server.http_query(sql).await["rows"],
        json!([[1, null, 1, "é", 2147483648_i64]])
    );
    // SQLite's format is printf; PostgreSQL's reads `%I` and `%L`.
    assert_eq!(
        server.http_query("SELECT format('%d|%5.1f', 7, 2.5)").await["rows"],
        json!([["7|  2.5"]])
    );
    let out = server.psql(&["-At", "-c", "SELECT format('%I=%L', 'A b', 'it''s')"]);
    assert_eq!(String::from_utf8_lossy(&out.stdout), "\"A b\"='it''s'\n");
    assert_eq!(
        server.http_query("SELECT x FROM n ORDER BY x").await["rows"],
        json!([[null], [1]])
    );
    let out = server.psql(&["-At", "-c", sql]);
    assert!(
        !out.status.success(),
        "1/0 is an error on the PostgreSQL port"
    );
    let out = server.psql(&[
        "-At",
        "-c",
        "SELECT 'abc' LIKE 'ABC', 'b' > 'B', upper('é'), 2147483647::int8 + 1",
        "-c",
        "SELECT x FROM n ORDER BY x",
    ]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "f|t|É|2147483648\n1\n\n"
    );
}
