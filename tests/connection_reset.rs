//! A pooled connection serving a new session carries nothing of the previous one:
//! TEMP tables, views and triggers are gone, per-connection PRAGMAs are back to the
//! server's settings, whether the connection was kept for the next session or went
//! back to the pool; `DISCARD ALL` drops TEMP objects at once.
//!
//! PRAGMAs that the server refuses outright cannot leave anything behind: for
//! those, the refusal is what is checked.

mod common;

use common::{TestServer, stderr, stdout};
use serde_json::{Value as Json, json};

/// Per-connection PRAGMAs a client might change, a value to change them to, and
/// the value a fresh session must see.
const PRAGMAS: [(&str, &str, i64); 5] = [
    ("foreign_keys", "OFF", 1),
    ("recursive_triggers", "ON", 0),
    ("reverse_unordered_selects", "ON", 0),
    ("query_only", "ON", 0),
    ("defer_foreign_keys", "ON", 0),
];

async fn batch(server: &TestServer, statements: &[&str]) -> Json {
    let body = json!({ "statements": statements }).to_string();
    let (status, json) = server.post(&body, Some("application/json")).await;
    assert_eq!(status, 200, "{json}");
    json
}

/// HTTP requests run one after another, each in a session that ends before its
/// answer: the next request gets the same (kept) connection.
async fn kept_connection_is_reset(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let first = batch(
        &server,
        &[
            "CREATE TEMP TABLE secret AS SELECT 42 AS x",
            "CREATE TEMP VIEW secret_view AS SELECT x FROM secret",
        ],
    )
    .await;
    assert!(first[0]["results"].is_object(), "{first}");
    let mut changed = Vec::new();
    for (pragma, value, _) in PRAGMAS {
        let set = batch(&server, &[&format!("PRAGMA {pragma} = {value}")]).await;
        if set[0]["results"].is_object() {
            changed.push(pragma);
        }
    }
    let read = batch(&server, &["SELECT x FROM secret"]).await;
    let error = read[0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("no such table"), "{read}");
    let read = batch(&server, &["SELECT x FROM secret_view"]).await;
    assert!(read[0]["error"].is_string(), "{read}");
    for (pragma, _, fresh) in PRAGMAS {
        let now = server.http_query(&format!("PRAGMA {pragma}")).await;
        assert_eq!(
            now["rows"][0][0], fresh,
            "PRAGMA {pragma} (changed: {changed:?})"
        );
    }
    // Writes still work (query_only is off) and the catalog is made again.
    server.http_query("CREATE TABLE t (x integer)").await;
    let tables = server
        .http_query("SELECT relname FROM pg_class WHERE relname = 't'")
        .await;
    assert_eq!(tables["rows"][0][0], "t");
}

/// With one connection in the pool, the next psql session waits for the one the
/// last session gave back to the pool.
async fn pooled_connection_is_reset(cache: &str) {
    let server = TestServer::start(cache, &["--max-connections", "1"]);
    let made = server.psql(&[
        "-c",
        "CREATE TEMP TABLE secret AS SELECT 42 AS x",
        "-c",
        "CREATE TEMP TRIGGER never AFTER INSERT ON secret BEGIN SELECT 1; END",
    ]);
    assert!(made.status.success(), "{}", stderr(&made));
    let _ = server.psql(&["-c", "PRAGMA foreign_keys = OFF"]);
    let read = server.psql(&["-c", "SELECT x FROM secret"]);
    assert!(!read.status.success(), "{}", stdout(&read));
    assert!(
        stderr(&read).contains("relation \"secret\" does not exist"),
        "{}",
        stderr(&read)
    );
    let fk = server.psql(&["-tA", "-c", "PRAGMA foreign_keys"]);
    assert_eq!(stdout(&fk).trim(), "1", "{}", stderr(&fk));
    let dt = server.psql(&["-c", "CREATE TABLE t (x int)", "-c", "\\dt"]);
    assert!(stdout(&dt).contains(" t "), "{}", stdout(&dt));
}

/// `DISCARD ALL` drops the session's TEMP objects, as in PostgreSQL.
async fn discard_all_drops_temp_objects(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client
        .batch_execute("CREATE TEMP TABLE scratch (x int); INSERT INTO scratch VALUES (1)")
        .await
        .unwrap();
    let rows = client.query("SELECT x FROM scratch", &[]).await.unwrap();
    assert_eq!(rows.len(), 1);
    client.batch_execute("DISCARD ALL").await.unwrap();
    let error = client
        .query("SELECT x FROM scratch", &[])
        .await
        .expect_err("the TEMP table is gone");
    assert_eq!(error.code().map(|c| c.code()), Some("42P01"), "{error:?}");
    // The catalog works on the reset connection.
    let rows = client
        .query("SELECT count(*) FROM pg_catalog.pg_type", &[])
        .await
        .unwrap();
    assert!(rows[0].get::<_, i64>(0) > 0);
}

/// Writes run on the engine's one writer connection: a PRAGMA run there, inside a
/// transaction that had written, is gone for the next writer.
async fn the_writer_connection_is_reset(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client
        .batch_execute("CREATE TABLE positive (x integer CHECK (x > 0))")
        .await
        .unwrap();
    client
        .batch_execute("BEGIN; INSERT INTO positive VALUES (1)")
        .await
        .unwrap();
    let set = client
        .batch_execute("PRAGMA ignore_check_constraints = ON")
        .await;
    if let Err(error) = set {
        // Refused outright: nothing could be left behind.
        assert_eq!(error.code().map(|c| c.code()), Some("42501"), "{error:?}");
        return;
    }
    // The PRAGMA took effect for this transaction's writes.
    client
        .batch_execute("INSERT INTO positive VALUES (-1); COMMIT")
        .await
        .unwrap();
    let (other, _other_task) = server.connect().await;
    let error = other
        .batch_execute("INSERT INTO positive VALUES (-2)")
        .await
        .expect_err("the CHECK constraint is enforced again");
    assert_eq!(error.code().map(|c| c.code()), Some("23514"), "{error:?}");
}

in_both_cache_modes!(
    the_writer_connection_is_reset,
    kept_connection_is_reset,
    pooled_connection_is_reset,
    discard_all_drops_temp_objects
);
