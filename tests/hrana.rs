//! Hrana over HTTP at the protocol level, against a real litewire process:
//! pipelines and batons, batch conditions, describe, sequence, stored SQL and
//! its limit, forged and stale batons, stream expiry releasing the write lock,
//! the stream limit, read-only transactions, `/v3/cursor` and `/v1`.

mod common;

use std::time::Duration;

use common::TestServer;
use serde_json::{Value as Json, json};

/// POSTs `body` to `path`; returns the status and the JSON answer.
async fn post(server: &TestServer, path: &str, body: &Json) -> (u16, Json) {
    let response = reqwest::Client::new()
        .post(server.url(path))
        .json(body)
        .send()
        .await
        .expect("POST");
    let status = response.status().as_u16();
    (status, response.json().await.expect("JSON answer"))
}

/// Runs a pipeline that must succeed as a whole; returns its answer.
async fn pipeline(server: &TestServer, body: Json) -> Json {
    let (status, answer) = post(server, "/v3/pipeline", &body).await;
    assert_eq!(status, 200, "{answer}");
    answer
}

fn execute(sql: &str) -> Json {
    json!({"type": "execute", "stmt": {"sql": sql}})
}

fn close() -> Json {
    json!({"type": "close"})
}

/// The response of each request, or its error.
fn responses(answer: &Json) -> Vec<&Json> {
    answer["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| match r["type"].as_str() {
            Some("ok") => &r["response"],
            _ => &r["error"],
        })
        .collect()
}

fn integer(value: i64) -> Json {
    json!({"type": "integer", "value": value.to_string()})
}

async fn count(server: &TestServer, table: &str) -> Json {
    let answer = pipeline(
        server,
        json!({"requests": [execute(&format!("SELECT count(*) FROM {table}")), close()]}),
    )
    .await;
    responses(&answer)[0]["result"]["rows"][0][0].clone()
}

#[tokio::test]
async fn version_probes_and_values_as_sqld_encodes_them() {
    let server = TestServer::start("shared", &[]);
    for path in ["/v2", "/v3"] {
        let status = reqwest::get(server.url(path)).await.expect("GET").status();
        assert_eq!(status, 200, "{path}");
    }
    let answer = pipeline(
        &server,
        json!({"requests": [
            execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT UNIQUE, f REAL, b BLOB)"),
            {"type": "execute", "stmt": {
                "sql": "INSERT INTO t (name, f, b) VALUES (?, :f, @b)",
                "args": [{"type": "text", "value": "x"}],
                "named_args": [
                    {"name": "f", "value": {"type": "float", "value": 0.5}},
                    {"name": "@b", "value": {"type": "blob", "base64": "AAH+/w=="}},
                ],
            }},
            {"type": "execute", "stmt": {
                "sql": "SELECT id, name, f, b, NULL AS n, ? AS big FROM t",
                "args": [integer(i64::MAX)],
            }},
            {"type": "execute", "stmt": {"sql": "INSERT INTO t (name) VALUES ('x')"}},
            close(),
        ]}),
    )
    .await;
    assert_eq!(answer["baton"], Json::Null);
    let results = responses(&answer);
    assert_eq!(results[1]["result"]["affected_row_count"], 1);
    assert_eq!(results[1]["result"]["last_insert_rowid"], "1");
    let select = &results[2]["result"];
    assert_eq!(
        select["cols"],
        json!([
            {"name": "id", "decltype": "INTEGER"},
            {"name": "name", "decltype": "TEXT"},
            {"name": "f", "decltype": "REAL"},
            {"name": "b", "decltype": "BLOB"},
            {"name": "n", "decltype": null},
            {"name": "big", "decltype": null},
        ])
    );
    assert_eq!(
        select["rows"][0],
        json!([
            integer(1),
            {"type": "text", "value": "x"},
            {"type": "float", "value": 0.5},
            {"type": "blob", "base64": "AAH+/w"},
            {"type": "null"},
            integer(i64::MAX),
        ])
    );
    assert_eq!(select["last_insert_rowid"], Json::Null);
    assert_eq!(select["affected_row_count"], 0);
    assert_eq!(select["rows_read"], 1);
    assert!(select["query_duration_ms"].is_number());
    assert_eq!(results[3]["code"], "SQLITE_CONSTRAINT_UNIQUE");
    assert!(
        results[3]["message"]
            .as_str()
            .unwrap()
            .contains("UNIQUE constraint failed: t.name")
    );
    assert_eq!(results[4]["type"], "close");
}

#[tokio::test]
async fn batch_conditions() {
    let server = TestServer::start("shared", &[]);
    let step = |sql: &str, condition: Json| json!({"condition": condition, "stmt": {"sql": sql}});
    let answer = pipeline(
        &server,
        json!({"requests": [{"type": "batch", "batch": {"steps": [
            {"stmt": {"sql": "SELECT 1"}},
            {"stmt": {"sql": "SELECT * FROM missing"}},
            step("SELECT 'ok 0'", json!({"type": "ok", "step": 0})),
            step("SELECT 'ok 1'", json!({"type": "ok", "step": 1})),
            step("SELECT 'error 1'", json!({"type": "error", "step": 1})),
            step("SELECT 'not ok 1'", json!({"type": "not", "cond": {"type": "ok", "step": 1}})),
            step("SELECT 'and'", json!({"type": "and", "conds": [
                {"type": "ok", "step": 0}, {"type": "error", "step": 1}]})),
            step("SELECT 'and false'", json!({"type": "and", "conds": [
                {"type": "ok", "step": 0}, {"type": "ok", "step": 1}]})),
            step("SELECT 'or'", json!({"type": "or", "conds": [
                {"type": "ok", "step": 1}, {"type": "ok", "step": 0}]})),
            // A skipped step is neither ok nor an error.
            step("SELECT 'ok 3'", json!({"type": "ok", "step": 3})),
            step("SELECT 'error 3'", json!({"type": "error", "step": 3})),
            step("BEGIN", json!({"type": "is_autocommit"})),
            step("SELECT 'in tx'", json!({"type": "not", "cond": {"type": "is_autocommit"}})),
            step("ROLLBACK", json!({"type": "not", "cond": {"type": "is_autocommit"}})),
            step("SELECT 'autocommit again'", json!({"type": "is_autocommit"})),
        ]}}, close()]}),
    )
    .await;
    let result = &responses(&answer)[0]["result"];
    let ran: Vec<bool> = result["step_results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| !r.is_null())
        .collect();
    assert_eq!(
        ran,
        [
            true, false, true, false, true, true, true, false, true, false, false, true, true,
            true, true
        ]
    );
    let errors = result["step_errors"].as_array().unwrap();
    assert_eq!(errors[1]["code"], "SQLITE_ERROR");
    assert!(
        errors
            .iter()
            .enumerate()
            .all(|(i, e)| e.is_null() == (i != 1))
    );
}

#[tokio::test]
async fn describe_and_sequence() {
    let server = TestServer::start("shared", &[]);
    let answer = pipeline(
        &server,
        json!({"requests": [
            {"type": "sequence", "sql": "CREATE TABLE t (id INTEGER PRIMARY KEY, v varchar(10)); INSERT INTO t VALUES (1, 'a'); INSERT INTO t VALUES (2, 'b');"},
            {"type": "describe", "sql": "SELECT id, v AS value, ?2 + 1 FROM t WHERE v = :v OR id = ?"},
            {"type": "describe", "sql": "INSERT INTO t VALUES (?, ?)"},
            {"type": "describe", "sql": "EXPLAIN SELECT * FROM t"},
            {"type": "describe", "sql": "SELECT * FROM nope"},
            {"type": "sequence", "sql": "INSERT INTO t VALUES (3, 'c'); INSERT INTO nope VALUES (1); INSERT INTO t VALUES (4, 'd')"},
            close(),
        ]}),
    )
    .await;
    let results = responses(&answer);
    assert_eq!(results[0]["type"], "sequence");
    assert_eq!(
        results[1]["result"],
        json!({
            "params": [{"name": null}, {"name": null}, {"name": ":v"}, {"name": null}],
            "cols": [
                {"name": "id", "decltype": "INTEGER"},
                {"name": "value", "decltype": "varchar(10)"},
                {"name": "?2 + 1", "decltype": null},
            ],
            "is_explain": false,
            "is_readonly": true,
        })
    );
    assert_eq!(results[2]["result"]["is_readonly"], false);
    assert_eq!(results[2]["result"]["cols"], json!([]));
    assert_eq!(results[3]["result"]["is_explain"], true);
    assert_eq!(results[4]["code"], "SQLITE_ERROR");
    // A sequence stops at its first error; what ran before it stays.
    assert!(
        results[5]["message"]
            .as_str()
            .unwrap()
            .contains("no such table: nope")
    );
    assert_eq!(count(&server, "t").await, integer(3));
}

#[tokio::test]
async fn stored_sql_and_its_limit() {
    let server = TestServer::start("shared", &["--hrana-max-stored-sql", "2"]);
    let store = |id: i32, sql: &str| json!({"type": "store_sql", "sql_id": id, "sql": sql});
    let by_id = |id: i32| json!({"type": "execute", "stmt": {"sql_id": id}});
    let answer = pipeline(
        &server,
        json!({"requests": [
            store(1, "SELECT 1"),
            store(2, "SELECT 2"),
            store(3, "SELECT 3"),
            store(1, "SELECT 'again'"),
            by_id(2),
            by_id(3),
            {"type": "close_sql", "sql_id": 1},
            store(3, "SELECT 3"),
            by_id(3),
            {"type": "execute", "stmt": {"sql": "SELECT 1", "sql_id": 2}},
            close(),
            by_id(2),
        ]}),
    )
    .await;
    let results = responses(&answer);
    assert_eq!(results[0]["type"], "store_sql");
    assert_eq!(results[1]["type"], "store_sql");
    assert_eq!(results[2]["code"], "SQL_STORE_FULL");
    assert!(
        results[2]["message"]
            .as_str()
            .unwrap()
            .contains("--hrana-max-stored-sql")
    );
    assert_eq!(results[3]["code"], "SQL_EXISTS");
    assert_eq!(results[4]["result"]["rows"][0][0], integer(2));
    assert_eq!(results[5]["code"], "SQL_NOT_FOUND");
    assert_eq!(results[6]["type"], "close_sql");
    assert_eq!(results[7]["type"], "store_sql");
    assert_eq!(results[8]["result"]["rows"][0][0], integer(3));
    assert_eq!(results[9]["code"], "PROTO_ERROR");
    // Nothing runs on a closed stream.
    assert_eq!(results[11]["code"], "STREAM_CLOSED");
}

/// Makes table `t` and opens a stream with a transaction that inserted one
/// row into it; returns the stream's baton.
async fn stream_inside_a_transaction(server: &TestServer) -> String {
    pipeline(
        server,
        json!({"requests": [execute("CREATE TABLE t (x INTEGER)"), close()]}),
    )
    .await;
    let open = pipeline(
        server,
        json!({"requests": [execute("BEGIN"), execute("INSERT INTO t VALUES (1)")]}),
    )
    .await;
    open["baton"].as_str().expect("a baton").to_owned()
}

#[tokio::test]
async fn transactions_span_requests_and_batons_cannot_be_forged_or_reused() {
    // Private cache: readers see the last commit instead of waiting for the
    // open transaction's table lock (shared cache).
    let server = TestServer::start("private", &[]);
    let baton = stream_inside_a_transaction(&server).await;

    // A baton with one character changed names no stream of this server.
    let mut forged = baton.clone().into_bytes();
    forged[3] = if forged[3] == b'A' { b'B' } else { b'A' };
    let forged = String::from_utf8(forged).unwrap();
    for bad in [forged.as_str(), "", "bm90IGEgYmF0b24"] {
        let (status, answer) = post(
            &server,
            "/v3/pipeline",
            &json!({"baton": bad, "requests": [execute("COMMIT")]}),
        )
        .await;
        assert_eq!(status, 400, "{answer}");
        assert_eq!(answer["code"], "BATON_INVALID");
    }

    // The real baton continues the stream: the transaction is still open.
    let second = pipeline(
        &server,
        json!({"baton": baton, "requests": [
            execute("INSERT INTO t VALUES (2)"),
            {"type": "get_autocommit"},
        ]}),
    )
    .await;
    assert_eq!(responses(&second)[1]["is_autocommit"], false);
    let next = second["baton"].as_str().unwrap().to_owned();
    assert_ne!(next, baton);

    // Used once, a baton is stale: refused, and the stream is untouched.
    let (status, answer) = post(
        &server,
        "/v3/pipeline",
        &json!({"baton": baton, "requests": [execute("ROLLBACK")]}),
    )
    .await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["code"], "BATON_STALE");

    // Other streams do not see the uncommitted rows; after COMMIT they do.
    assert_eq!(count(&server, "t").await, integer(0));
    let last = pipeline(
        &server,
        json!({"baton": next, "requests": [execute("COMMIT"), close()]}),
    )
    .await;
    assert_eq!(last["baton"], Json::Null);
    assert_eq!(count(&server, "t").await, integer(2));
}

/// A stream abandoned inside a write transaction holds the write lock until it
/// expires; then its transaction is rolled back and other writers get through.
#[tokio::test]
async fn an_expired_stream_releases_the_write_lock() {
    let server = TestServer::start(
        "shared",
        &[
            "--hrana-stream-expiry-ms",
            "1500",
            "--busy-timeout-ms",
            "200",
        ],
    );
    pipeline(
        &server,
        json!({"requests": [execute("CREATE TABLE t (x INTEGER)"), close()]}),
    )
    .await;
    let abandoned = pipeline(
        &server,
        json!({"requests": [execute("BEGIN IMMEDIATE"), execute("INSERT INTO t VALUES (1)")]}),
    )
    .await;
    let baton = abandoned["baton"].as_str().unwrap().to_owned();

    let write = json!({"requests": [execute("INSERT INTO t VALUES (2)"), close()]});
    let blocked = pipeline(&server, write.clone()).await;
    assert_eq!(responses(&blocked)[0]["code"], "SQLITE_BUSY", "{blocked}");

    tokio::time::sleep(Duration::from_millis(2500)).await;
    let after = pipeline(&server, write).await;
    assert_eq!(
        responses(&after)[0]["result"]["affected_row_count"],
        1,
        "{after}"
    );
    // The abandoned insert was rolled back.
    assert_eq!(count(&server, "t").await, integer(1));
    let (status, answer) = post(
        &server,
        "/v3/pipeline",
        &json!({"baton": baton, "requests": [execute("COMMIT")]}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(answer["code"], "STREAM_EXPIRED");
}

#[tokio::test]
async fn open_streams_are_bounded() {
    let server = TestServer::start("shared", &["--hrana-max-streams", "2"]);
    let open = json!({"requests": [execute("SELECT 1")]});
    let a = pipeline(&server, open.clone()).await;
    pipeline(&server, open.clone()).await;
    let (status, answer) = post(&server, "/v2/pipeline", &open).await;
    assert_eq!(status, 400);
    assert_eq!(answer["code"], "STREAMS_EXHAUSTED");
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("--hrana-max-streams")
    );
    // A stream its request closes is never kept: the limit does not apply.
    let one_request = pipeline(&server, json!({"requests": [execute("SELECT 1"), close()]})).await;
    assert_eq!(
        responses(&one_request)[0]["result"]["rows"][0][0],
        integer(1)
    );
    pipeline(&server, json!({"baton": a["baton"], "requests": [close()]})).await;
    pipeline(&server, open).await;
}

#[tokio::test]
async fn read_only_transactions_refuse_writes() {
    let server = TestServer::start("private", &[]);
    let answer = pipeline(
        &server,
        json!({"requests": [
            execute("CREATE TABLE t (x INTEGER)"),
            execute("BEGIN TRANSACTION READONLY"),
            execute("SELECT count(*) FROM t"),
            execute("INSERT INTO t VALUES (1)"),
            {"type": "get_autocommit"},
            execute("COMMIT"),
            execute("INSERT INTO t VALUES (2)"),
            close(),
        ]}),
    )
    .await;
    let results = responses(&answer);
    assert_eq!(results[2]["result"]["rows"][0][0], integer(0));
    assert_eq!(results[3]["code"], "SQLITE_READONLY");
    // The refused write leaves the transaction open.
    assert_eq!(results[4]["is_autocommit"], false);
    assert_eq!(results[6]["result"]["affected_row_count"], 1);
}

#[tokio::test]
async fn malformed_requests_get_clear_errors() {
    let server = TestServer::start("shared", &[]);
    for body in [
        json!({"requests": [{"type": "execute"}]}),
        json!({"requests": [{"type": "frobnicate"}]}),
        json!({"requests": [{"type": "execute", "stmt": {"sql": "SELECT ?", "args": [{"type": "integer", "value": "1.5"}]}}]}),
        json!({"reqs": []}),
    ] {
        let (status, answer) = post(&server, "/v3/pipeline", &body).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(answer["code"], "PROTO_ERROR", "{answer}");
    }
    let answer = pipeline(
        &server,
        json!({"requests": [
            {"type": "execute", "stmt": {"sql": "SELECT ?", "args": [integer(1), integer(2)]}},
            {"type": "execute", "stmt": {"sql": "SELECT :a", "named_args": [{"name": "b", "value": integer(1)}]}},
            execute("SELECT 1; SELECT 2"),
            execute("  "),
            close(),
        ]}),
    )
    .await;
    let codes: Vec<Option<&str>> = responses(&answer)
        .iter()
        .map(|r| r["code"].as_str())
        .collect();
    assert_eq!(
        codes,
        [
            Some("ARGS_INVALID"),
            Some("ARGS_INVALID"),
            Some("SQL_MANY_STATEMENTS"),
            Some("SQL_NO_STATEMENT"),
            None
        ]
    );
}

/// `/v3/cursor` answers in newline-delimited JSON, written in chunks as the
/// steps run; the stream stays open for the next request.
#[tokio::test]
async fn cursor_streams_entries() {
    let server = TestServer::start("shared", &[]);
    pipeline(
        &server,
        json!({"requests": [
            execute("CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT)"),
            execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) \
                     INSERT INTO t SELECT i, printf('%.100c', 'x') FROM n"),
            close(),
        ]}),
    )
    .await;
    let body = json!({"batch": {"steps": [
        {"stmt": {"sql": "BEGIN"}},
        {"stmt": {"sql": "SELECT id, pad FROM t ORDER BY id"}},
        {"stmt": {"sql": "SELECT * FROM nope"}},
        {"condition": {"type": "ok", "step": 2}, "stmt": {"sql": "SELECT 1"}},
        {"stmt": {"sql": "INSERT INTO t (pad) VALUES ('y')"}},
    ]}});
    let response = reqwest::Client::new()
        .post(server.url("/v3/cursor"))
        .json(&body)
        .send()
        .await
        .expect("POST /v3/cursor");
    assert_eq!(response.status(), 200);
    let mut response = response;
    let mut pending = Vec::new();
    let mut entries = Vec::new();
    let mut chunk_count = 0;
    while let Some(chunk) = response.chunk().await.expect("cursor chunk") {
        chunk_count += 1;
        pending.extend_from_slice(&chunk);
        while let Some(end) = pending.iter().position(|b| *b == b'\n') {
            let line: Vec<u8> = pending.drain(..=end).collect();
            entries.push(serde_json::from_slice::<Json>(&line).expect("an NDJSON entry"));
        }
    }
    assert!(pending.is_empty());
    assert!(chunk_count > 1, "a 10 MB answer comes in several chunks");
    let baton = entries[0]["baton"]
        .as_str()
        .expect("the header's baton")
        .to_owned();
    let kinds = |kind: &str| entries.iter().filter(|e| e["type"] == kind).count();
    assert_eq!(kinds("row"), 100_000);
    assert_eq!(kinds("step_begin"), 3);
    assert_eq!(kinds("step_end"), 3);
    assert_eq!(kinds("step_error"), 1);
    let rows: Vec<&Json> = entries.iter().filter(|e| e["type"] == "row").collect();
    assert_eq!(rows[0]["row"][0], integer(1));
    assert_eq!(rows[99_999]["row"][0], integer(100_000));
    let begin = entries.iter().find(|e| e["step"] == 1).unwrap();
    assert_eq!(
        begin["cols"][0],
        json!({"name": "id", "decltype": "INTEGER"})
    );
    let error = entries.iter().find(|e| e["type"] == "step_error").unwrap();
    assert_eq!(error["step"], 2);
    let last = entries.last().unwrap();
    assert_eq!(last["type"], "step_end");
    assert_eq!(last["affected_row_count"], 1);
    assert_eq!(last["last_insert_rowid"], "100001");

    // The cursor's stream is still in its transaction: roll it back.
    let answer = pipeline(
        &server,
        json!({"baton": baton, "requests": [{"type": "get_autocommit"}, execute("ROLLBACK"), close()]}),
    )
    .await;
    assert_eq!(responses(&answer)[0]["is_autocommit"], false);
    assert_eq!(count(&server, "t").await, integer(100_000));
}

/// A cursor's rows go out as SQLite produces them: a million rows (well over
/// 100 MB of JSON) cost the server a few MB, and a client that hangs up stops
/// the statement, so its stream comes back for the next request.
#[tokio::test]
async fn cursor_rows_stream_in_bounded_memory_and_stop_with_the_client() {
    // No time limit: a debug build on a busy machine may take longer than the
    // default's 30 s to write a million rows, and it is the client's hang-up
    // that must stop the endless statement below.
    let server = TestServer::start("shared", &["--http-timeout-ms", "0"]);
    pipeline(&server, json!({"requests": [execute("SELECT 1"), close()]})).await;
    let idle = server.peak_rss_kib();
    let rows = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) \
                SELECT i, printf('%.100c', 'x') FROM n";
    let body = json!({"batch": {"steps": [{"stmt": {"sql": rows}}]}});
    let mut response = reqwest::Client::new()
        .post(server.url("/v3/cursor"))
        .json(&body)
        .send()
        .await
        .expect("POST /v3/cursor");
    let (mut lines, mut bytes, mut tail) = (0usize, 0usize, Vec::new());
    while let Some(chunk) = response.chunk().await.expect("cursor chunk") {
        lines += chunk.iter().filter(|b| **b == b'\n').count();
        bytes += chunk.len();
        tail = chunk.to_vec();
    }
    // The header, step_begin, the rows, step_end.
    assert_eq!(lines, 1_000_003);
    assert!(bytes > 100_000_000, "{bytes} bytes");
    let last = tail
        .split(|b| *b == b'\n')
        .rev()
        .nth(1)
        .expect("a last entry");
    let last: Json = serde_json::from_slice(last).expect("an NDJSON entry");
    assert_eq!(last["type"], "step_end", "{last}");
    let grown = server.peak_rss_kib().saturating_sub(idle);
    eprintln!("peak RSS grew by {grown} KiB for {bytes} bytes of cursor");
    assert!(grown < 24 * 1024, "peak RSS grew by {grown} KiB");

    // A statement that never ends, whose client reads one chunk and hangs up.
    let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c";
    let body = json!({"batch": {"steps": [{"stmt": {"sql": endless}}]}});
    let mut response = reqwest::Client::new()
        .post(server.url("/v3/cursor"))
        .json(&body)
        .send()
        .await
        .expect("POST /v3/cursor");
    let first = response.chunk().await.expect("chunk").expect("the header");
    let header: Json =
        serde_json::from_slice(first.split(|b| *b == b'\n').next().unwrap()).expect("the header");
    let baton = header["baton"].as_str().expect("a baton").to_owned();
    let _ = response.chunk().await.expect("a chunk of rows");
    drop(response);
    // The stream is given back once the statement stops; while it ran, the
    // request would wait and then be refused as busy.
    let answer = pipeline(
        &server,
        json!({"baton": baton, "requests": [execute("SELECT 42"), close()]}),
    )
    .await;
    assert_eq!(
        responses(&answer)[0]["result"]["rows"][0][0],
        integer(42),
        "{answer}"
    );
}

#[tokio::test]
async fn v1_execute_and_batch() {
    let server = TestServer::start("shared", &[]);
    let (status, answer) = post(
        &server,
        "/v1/execute",
        &json!({"stmt": {"sql": "CREATE TABLE t (x INTEGER UNIQUE)"}}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    let (status, answer) = post(
        &server,
        "/v1/batch",
        &json!({"batch": {"steps": [
            {"stmt": {"sql": "INSERT INTO t VALUES (?)", "args": [integer(1)]}},
            {"stmt": {"sql": "INSERT INTO t VALUES (1)"}},
            {"condition": {"type": "error", "step": 1}, "stmt": {"sql": "SELECT x FROM t"}},
        ]}}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["result"]["step_results"][0]["affected_row_count"], 1);
    assert_eq!(
        answer["result"]["step_errors"][1]["code"],
        "SQLITE_CONSTRAINT_UNIQUE"
    );
    assert_eq!(
        answer["result"]["step_results"][2]["rows"][0][0],
        integer(1)
    );
    let (status, answer) = post(
        &server,
        "/v1/execute",
        &json!({"stmt": {"sql": "SELECT * FROM nope"}}),
    )
    .await;
    assert_eq!(status, 400);
    assert_eq!(answer["code"], "SQLITE_ERROR");
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("no such table")
    );
}

/// SIGTERM with a stream open inside a write transaction: the server rolls it
/// back and stops (the pool's close does not wait for the stream forever), and
/// the file holds only what was committed.
#[tokio::test]
async fn shutdown_rolls_back_open_streams() {
    let mut server = TestServer::start("shared", &[]);
    pipeline(
        &server,
        json!({"requests": [execute("CREATE TABLE t (x INTEGER)"), close()]}),
    )
    .await;
    let open = pipeline(
        &server,
        json!({"requests": [execute("BEGIN IMMEDIATE"), execute("INSERT INTO t VALUES (1)")]}),
    )
    .await;
    assert!(open["baton"].is_string());
    assert!(server.stop().success());
    let output = std::process::Command::new("sqlite3")
        .arg(server.db_path())
        .arg("SELECT count(*) FROM t")
        .output()
        .expect("run sqlite3");
    assert_eq!(common::stdout(&output).trim(), "0");
}

/// The cursor's header carries the baton before its rows: a request that brings
/// it while the cursor still runs waits for the cursor to end (here, for longer
/// than the client lets the cursor run: it is refused as busy, and the baton
/// stays good).
#[tokio::test]
async fn a_baton_from_a_cursor_waits_for_the_cursor() {
    let server = TestServer::start("private", &["--hrana-stream-expiry-ms", "1000"]);
    pipeline(
        &server,
        json!({"requests": [
            execute("CREATE TABLE t (id INTEGER PRIMARY KEY, pad TEXT)"),
            execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100000) \
                     INSERT INTO t SELECT i, printf('%.100c', 'x') FROM n"),
            close(),
        ]}),
    )
    .await;
    let mut cursor = reqwest::Client::new()
        .post(server.url("/v3/cursor"))
        .json(&json!({"batch": {"steps": [{"stmt": {"sql": "SELECT * FROM t"}}]}}))
        .send()
        .await
        .expect("POST /v3/cursor");
    let first = cursor.chunk().await.expect("chunk").expect("the header");
    let header_end = first
        .iter()
        .position(|b| *b == b'\n')
        .expect("a header line");
    let header: Json = serde_json::from_slice(&first[..header_end]).expect("header JSON");
    let baton = header["baton"].as_str().expect("a baton").to_owned();

    // The cursor's rows are not read, so it cannot finish: the request waits,
    // then gives up.
    let (status, answer) = post(
        &server,
        "/v3/pipeline",
        &json!({"baton": baton, "requests": [{"type": "get_autocommit"}]}),
    )
    .await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["code"], "STREAM_BUSY");

    let mut rows = first[header_end + 1..]
        .iter()
        .filter(|b| **b == b'\n')
        .count();
    while let Some(chunk) = cursor.chunk().await.expect("cursor chunk") {
        rows += chunk.iter().filter(|b| **b == b'\n').count();
    }
    // step_begin, 100000 rows, step_end.
    assert_eq!(rows, 100_002);
    let answer = pipeline(
        &server,
        json!({"baton": baton, "requests": [{"type": "get_autocommit"}, close()]}),
    )
    .await;
    assert_eq!(responses(&answer)[0]["is_autocommit"], true);
}

/// The HTTP port's limits hold for Hrana as for `POST /`: a statement stops at
/// `--http-timeout-ms` (counted from each request of a stream), and rows past
/// `--http-max-response-bytes` fail their statement, leaving the stream usable.
#[tokio::test]
async fn pipelines_keep_the_http_limits() {
    let server = TestServer::start(
        "shared",
        &[
            "--http-timeout-ms",
            "300",
            "--http-max-response-bytes",
            "100000",
        ],
    );
    let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) \
                   SELECT count(*) FROM c";
    let big = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 100000) \
               SELECT x, 'row ' || x FROM c";
    let started = std::time::Instant::now();
    let answer = pipeline(&server, json!({"requests": [execute(endless), close()]})).await;
    let message = responses(&answer)[0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(message.contains("statement timeout"), "{answer}");
    assert!(started.elapsed() < Duration::from_secs(10));

    let first = pipeline(&server, json!({"requests": [execute("SELECT 1")]})).await;
    // Later than the first request's deadline: the second has its own.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let second = pipeline(
        &server,
        json!({"baton": first["baton"], "requests": [execute(big), execute("SELECT 2")]}),
    )
    .await;
    let message = responses(&second)[0]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(
        message.contains("exceeds") && message.contains("--http-max-response-bytes"),
        "{second}"
    );
    // The budget is the answer's: the next request of the pipeline still fits.
    assert_eq!(responses(&second)[1]["result"]["rows"][0][0], integer(2));
    let third = pipeline(
        &server,
        json!({"baton": second["baton"], "requests": [execute(endless), close()]}),
    )
    .await;
    let message = responses(&third)[0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("statement timeout"), "{third}");

    let (status, answer) = post(&server, "/v1/execute", &json!({"stmt": {"sql": big}})).await;
    assert_eq!(status, 400, "{answer}");
    assert!(
        answer["message"]
            .as_str()
            .is_some_and(|m| m.contains("exceeds")),
        "{answer}"
    );
}

/// A stream is a session of `pg_stat_activity`: listed with its state and its
/// last statement, and ended from psql, its transaction rolled back at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_is_listed_and_can_be_terminated() {
    let server = TestServer::start("private", &[]);
    let baton = stream_inside_a_transaction(&server).await;

    // HTTP callers run as `litewire` in trust mode; a session of that user
    // sees their sessions whole.
    let (psql, _connection) = server.connect_as("litewire").await;
    let row = psql
        .query_one(
            "SELECT pid, state, query, wait_event FROM pg_stat_activity \
             WHERE backend_type = 'hrana stream'",
            &[],
        )
        .await
        .expect("the stream's row");
    let pid: i32 = row.get(0);
    assert_eq!(row.get::<_, &str>(1), "idle in transaction");
    assert_eq!(row.get::<_, &str>(2), "INSERT INTO t VALUES (1)");
    assert_eq!(row.get::<_, &str>(3), "ClientRead");
    let ended = psql
        .query_one("SELECT pg_terminate_backend($1)", &[&pid])
        .await
        .expect("pg_terminate_backend");
    assert!(ended.get::<_, bool>(0));

    // Gone within the sweep (at most a second), its insert undone.
    let started = std::time::Instant::now();
    while psql
        .query_one(
            "SELECT count(*) FROM pg_stat_activity WHERE pid = $1",
            &[&pid],
        )
        .await
        .expect("count")
        .get::<_, i64>(0)
        > 0
    {
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "the stream stays"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(count(&server, "t").await, integer(0));
    let (status, _) = post(
        &server,
        "/v3/pipeline",
        &json!({"baton": baton, "requests": [execute("COMMIT")]}),
    )
    .await;
    assert_eq!(status, 400, "the baton names no stream any more");
}
