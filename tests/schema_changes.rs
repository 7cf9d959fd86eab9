//! Schema changes under live sessions: nothing cached per statement text or per
//! prepared statement outlives the schema it was made for. A simple query
//! always describes what it returns; a prepared statement whose result changed
//! fails with 0A000 (`cached plan must not change result type`), as in
//! PostgreSQL, and works again once prepared again. Calibrated against
//! PostgreSQL 15 (`LITEWIRE_TEST_POSTGRES=... cargo test --test schema_changes
//! -- --ignored`).

mod common;

use std::time::Duration;

use common::TestServer;
use common::target::Target;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, SimpleQueryMessage};

against_litewire_and_postgres!(
    a_simple_query_describes_the_table_as_it_is_now,
    a_prepared_statement_whose_result_changed_fails_until_prepared_again,
    ddl_while_other_sessions_run_their_statements,
    a_replaced_view_is_read_as_it_is_now,
);

/// The column count of the RowDescription and of every DataRow of a simple query.
async fn simple_shape(client: &Client, sql: &str) -> (usize, Vec<usize>) {
    let messages = client.simple_query(sql).await.expect("simple query");
    let mut described = 0;
    let mut rows = Vec::new();
    for message in messages {
        match message {
            SimpleQueryMessage::RowDescription(columns) => described = columns.len(),
            SimpleQueryMessage::Row(row) => rows.push(row.len()),
            _ => {}
        }
    }
    (described, rows)
}

async fn a_simple_query_describes_the_table_as_it_is_now(target: &Target) {
    let (reader, writer) = (target.connect().await, target.connect().await);
    writer
        .batch_execute(
            "DROP TABLE IF EXISTS st; CREATE TABLE st (a int, b int); INSERT INTO st VALUES (1, 2)",
        )
        .await
        .unwrap();
    assert_eq!(
        simple_shape(&reader, "SELECT * FROM st").await,
        (2, vec![2])
    );
    writer
        .batch_execute("DROP TABLE st; CREATE TABLE st (a int, b int, c text); INSERT INTO st VALUES (1, 2, 'x')")
        .await
        .unwrap();
    assert_eq!(
        simple_shape(&reader, "SELECT * FROM st").await,
        (3, vec![3])
    );
    // The same session's own DDL too.
    reader
        .batch_execute("ALTER TABLE st DROP COLUMN c")
        .await
        .unwrap();
    assert_eq!(
        simple_shape(&reader, "SELECT * FROM st").await,
        (2, vec![2])
    );
}

async fn a_prepared_statement_whose_result_changed_fails_until_prepared_again(target: &Target) {
    let (reader, writer) = (target.connect().await, target.connect().await);
    writer
        .batch_execute(
            "DROP TABLE IF EXISTS pt; CREATE TABLE pt (a int, b int); INSERT INTO pt VALUES (1, 2)",
        )
        .await
        .unwrap();
    let prepared = reader.prepare("SELECT * FROM pt").await.unwrap();
    assert_eq!(prepared.columns().len(), 2);
    assert_eq!(reader.query(&prepared, &[]).await.unwrap()[0].len(), 2);
    writer
        .batch_execute("ALTER TABLE pt ADD COLUMN c text")
        .await
        .unwrap();
    let error = reader
        .query(&prepared, &[])
        .await
        .expect_err("the result changed");
    assert_eq!(error.code(), Some(&SqlState::FEATURE_NOT_SUPPORTED));
    assert_eq!(
        error.as_db_error().map(|e| e.message()),
        Some("cached plan must not change result type")
    );
    let again = reader.prepare("SELECT * FROM pt").await.unwrap();
    assert_eq!(again.columns().len(), 3);
    assert_eq!(reader.query(&again, &[]).await.unwrap()[0].len(), 3);
}

/// One session adds and drops a column over and over while others run the
/// same statements, simple and prepared: every answer has the shape it
/// describes, and a prepared statement either answers or fails with 0A000.
async fn ddl_while_other_sessions_run_their_statements(target: &Target) {
    let setup = target.connect().await;
    setup
        .batch_execute("DROP TABLE IF EXISTS live; CREATE TABLE live (a int); INSERT INTO live VALUES (1), (2)")
        .await
        .unwrap();
    let simple = target.connect().await;
    let extended = target.connect().await;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let simple_runs = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let mut runs = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let (described, rows) = simple_shape(&simple, "SELECT * FROM live").await;
                assert!(rows.iter().all(|r| *r == described), "{described} {rows:?}");
                runs += 1;
            }
            runs
        })
    };
    let extended_runs = {
        let stop = stop.clone();
        tokio::spawn(async move {
            let (mut runs, mut refused) = (0, 0);
            let mut prepared = extended.prepare("SELECT * FROM live").await.unwrap();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                match extended.query(&prepared, &[]).await {
                    Ok(rows) => {
                        assert!(rows.iter().all(|r| r.len() == prepared.columns().len()));
                        runs += 1;
                    }
                    Err(error) => {
                        assert_eq!(
                            error.code(),
                            Some(&SqlState::FEATURE_NOT_SUPPORTED),
                            "{error}"
                        );
                        refused += 1;
                        prepared = extended.prepare("SELECT * FROM live").await.unwrap();
                    }
                }
            }
            (runs, refused)
        })
    };
    let writer = target.connect().await;
    for _ in 0..15 {
        writer
            .batch_execute("ALTER TABLE live ADD COLUMN b text")
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(10)).await;
        writer
            .batch_execute("ALTER TABLE live DROP COLUMN b")
            .await
            .unwrap();
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let simple_runs = simple_runs.await.unwrap();
    let (extended_runs, refused) = extended_runs.await.unwrap();
    println!("{simple_runs} simple runs, {extended_runs} prepared runs, {refused} refused");
    assert!(simple_runs > 0 && extended_runs > 0);
}

/// The one value a simple query returns.
async fn simple_value(client: &Client, sql: &str) -> String {
    let messages = client.simple_query(sql).await.expect("simple query");
    let mut values = messages.iter().filter_map(|message| match message {
        SimpleQueryMessage::Row(row) => row.get(0).map(str::to_owned),
        _ => None,
    });
    values.next().expect("a row")
}

/// A view replaced (`CREATE OR REPLACE`, or dropped and made again, by the
/// session itself or another) is read as it is now by a query that ran
/// before. SQLite's count of a view of constants reads no table, so its
/// prepared statement never learns of the change on its own.
async fn a_replaced_view_is_read_as_it_is_now(target: &Target) {
    let (session, other) = (target.connect().await, target.connect().await);
    session
        .batch_execute("DROP VIEW IF EXISTS rv; CREATE VIEW rv AS SELECT 1 AS n UNION ALL SELECT 2")
        .await
        .unwrap();
    let queries = [
        "SELECT count(*) FROM rv",
        // Its integer literal is a parameter of the statement SQLite runs.
        "SELECT count(*) + 10 FROM rv",
        "SELECT sum(n) FROM rv",
    ];
    let answers = async |client: &Client| {
        let mut answers = Vec::new();
        for sql in queries {
            answers.push(simple_value(client, sql).await);
        }
        answers
    };
    assert_eq!(answers(&session).await, ["2", "12", "3"]);
    session
        .batch_execute(
            "CREATE OR REPLACE VIEW rv AS SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3",
        )
        .await
        .unwrap();
    assert_eq!(answers(&session).await, ["3", "13", "6"]);
    assert_eq!(answers(&other).await, ["3", "13", "6"]);
    other.batch_execute("DROP VIEW rv").await.unwrap();
    other
        .batch_execute("CREATE VIEW rv AS SELECT 5 AS n")
        .await
        .unwrap();
    assert_eq!(answers(&session).await, ["1", "11", "5"]);
    assert_eq!(answers(&other).await, ["1", "11", "5"]);
    // After a change elsewhere in the schema too.
    other
        .batch_execute("DROP VIEW rv; CREATE VIEW rv AS SELECT 7 AS n UNION ALL SELECT 8")
        .await
        .unwrap();
    other
        .batch_execute("DROP TABLE IF EXISTS unrelated; CREATE TABLE unrelated (a int)")
        .await
        .unwrap();
    assert_eq!(answers(&session).await, ["2", "12", "15"]);
    session
        .batch_execute("DROP VIEW rv; DROP TABLE unrelated")
        .await
        .unwrap();
}

/// On the HTTP port, a view dropped and made again, within one request and
/// across requests.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_replaced_view_is_read_as_it_is_now_over_http() {
    for cache in ["shared", "private"] {
        let server = TestServer::start(cache, &[]);
        let count = "SELECT count(*) FROM hv";
        let remake = |rows: usize| {
            let selects = (1..=rows)
                .map(|n| format!("SELECT {n} AS n"))
                .collect::<Vec<_>>()
                .join(" UNION ALL ");
            [
                "DROP VIEW IF EXISTS hv".to_owned(),
                format!("CREATE VIEW hv AS {selects}"),
            ]
        };
        for statement in remake(2) {
            server.http_query(&statement).await;
        }
        assert_eq!(server.http_query(count).await["rows"][0][0], 2, "{cache}");
        for statement in remake(3) {
            server.http_query(&statement).await;
        }
        assert_eq!(server.http_query(count).await["rows"][0][0], 3, "{cache}");
        let [drop, create] = remake(4);
        let body = serde_json::json!({ "statements": [count, drop, create, count] });
        let (status, json) = server
            .post(&body.to_string(), Some("application/json"))
            .await;
        assert_eq!(status, 200, "{json}");
        assert_eq!(json[0]["results"]["rows"][0][0], 3, "{cache}: {json}");
        assert_eq!(json[3]["results"]["rows"][0][0], 4, "{cache}: {json}");
    }
}
