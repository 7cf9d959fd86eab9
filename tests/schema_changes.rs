//! Schema changes under live sessions: nothing cached per statement text or per
//! prepared statement outlives the schema it was made for. A simple query
//! always describes what it returns; a prepared statement whose result changed
//! fails with 0A000 (`cached plan must not change result type`), as in
//! PostgreSQL, and works again once prepared again. Calibrated against
//! PostgreSQL 15 (`LITEWIRE_TEST_POSTGRES=... cargo test --test schema_changes
//! -- --ignored`).

mod common;

use std::time::Duration;

use common::target::Target;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, SimpleQueryMessage};

against_litewire_and_postgres!(
    a_simple_query_describes_the_table_as_it_is_now,
    a_prepared_statement_whose_result_changed_fails_until_prepared_again,
    ddl_while_other_sessions_run_their_statements,
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
