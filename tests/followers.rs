//! A follower (`--read-only`) serves a file that something else writes: here
//! another litewire on the same file. Every write is refused with 25006 on both
//! ports and a transaction asked to write with 0A000, whatever the session
//! sets; rows and schema changes the writer makes are seen as soon as they are
//! committed; `/health` and `/metrics` say how long since the last change.
//! Every SQLSTATE here is what a PostgreSQL 15 hot standby answers (checked on
//! one made with `pg_basebackup -R`). (A follower of a Litestream replica is
//! in tests/litestream.rs.)

mod common;

use common::{TestServer, sqlstate, text_rows};

in_both_cache_modes!(a_follower_reads_what_the_writer_commits_and_writes_nothing);

async fn a_follower_reads_what_the_writer_commits_and_writes_nothing(cache: &str) {
    let writer = TestServer::start(cache, &[]);
    let (primary, _task) = writer.connect().await;
    primary
        .batch_execute(
            "CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL, done boolean);
             INSERT INTO notes (body, done) VALUES ('first', false);",
        )
        .await
        .unwrap();
    let dir = tempfile::tempdir().expect("temp dir");
    let follower = TestServer::start_at(dir, writer.db.clone(), cache, &["--read-only"]);
    let (client, _task) = follower.connect().await;
    assert_eq!(
        text_rows(&client, "SELECT id, body, done FROM notes").await,
        [[Some("1".into()), Some("first".into()), Some("f".into())]]
    );

    // Writes of every kind, before and after asking for read-write.
    for sql in [
        "INSERT INTO notes (body) VALUES ('no')",
        "UPDATE notes SET done = true",
        "DELETE FROM notes",
        "CREATE TABLE t (a int)",
        "DROP TABLE notes",
        "ALTER TABLE notes ADD COLUMN x int",
        "CREATE INDEX ON notes (body)",
        "TRUNCATE notes",
        "SELECT nextval('notes_id_seq')",
    ] {
        assert_eq!(sqlstate(&client, sql).await, "25006", "{sql}");
    }
    client
        .batch_execute("SET default_transaction_read_only = off")
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "INSERT INTO notes (body) VALUES ('no')").await,
        "25006"
    );
    // As on a PostgreSQL standby: every transaction reads only, and asking
    // for one that writes is refused.
    assert_eq!(
        text_rows(&client, "SHOW transaction_read_only").await,
        [[Some("on".into())]]
    );
    // SERIALIZABLE needs the primary's read-write conflicts: refused too.
    for sql in [
        "BEGIN READ WRITE",
        "SET transaction_read_only = off",
        "START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ WRITE",
        "BEGIN ISOLATION LEVEL SERIALIZABLE",
        "SET transaction_isolation = serializable",
    ] {
        assert_eq!(sqlstate(&client, sql).await, "0A000", "{sql}");
    }
    client
        .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ; SELECT 1; COMMIT")
        .await
        .unwrap();
    client
        .batch_execute("SET default_transaction_isolation = serializable")
        .await
        .unwrap();
    assert_eq!(sqlstate(&client, "BEGIN; SELECT 1; COMMIT").await, "0A000");
    client
        .batch_execute("ROLLBACK; RESET default_transaction_isolation")
        .await
        .unwrap();
    client.batch_execute("BEGIN").await.unwrap();
    assert_eq!(
        text_rows(&client, "SHOW transaction_read_only").await,
        [[Some("on".into())]]
    );
    assert_eq!(
        sqlstate(&client, "SET TRANSACTION READ WRITE").await,
        "0A000"
    );
    client.batch_execute("ROLLBACK").await.unwrap();
    // A standby, as PostgreSQL's says.
    let recovery = "SELECT pg_is_in_recovery()";
    let standby: bool = client.query_one(recovery, &[]).await.unwrap().get(0);
    let primary_standby: bool = primary.query_one(recovery, &[]).await.unwrap().get(0);
    assert!(standby && !primary_standby);
    let (status, answer) = follower
        .post(
            r#"{"statements": ["INSERT INTO notes (body) VALUES ('no')"]}"#,
            None,
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let error = answer[0]["error"].as_str().unwrap_or_default();
    assert!(error.contains("read-only transaction"), "{answer}");

    // What the writer commits, rows and schema, reaches the follower.
    primary
        .batch_execute(
            "INSERT INTO notes (body, done) VALUES ('second', true);
             ALTER TABLE notes ADD COLUMN due date DEFAULT '2026-12-24';
             CREATE TABLE tags (note int REFERENCES notes, tag varchar(20));
             INSERT INTO tags VALUES (2, 'home');",
        )
        .await
        .unwrap();
    // At once, through the extended protocol: the follower's cached schema
    // is behind the file's, and is read again when a statement needs it.
    let joined = "SELECT n.id, n.done, n.due, t.tag FROM notes n JOIN tags t ON t.note = n.id";
    let rows = client.query(joined, &[]).await.unwrap();
    assert_eq!(rows.len(), 1);
    let (id, done, due, tag): (i32, bool, chrono::NaiveDate, String) = (
        rows[0].get(0),
        rows[0].get(1),
        rows[0].get(2),
        rows[0].get(3),
    );
    assert_eq!(
        (id, done, due.to_string(), tag.as_str()),
        (2, true, "2026-12-24".to_owned(), "home")
    );
    let described = follower.psql(&["-c", "\\d tags"]);
    let text = common::stdout(&described);
    assert!(
        text.contains("character varying(20)") && text.contains("REFERENCES notes(id)"),
        "{text}"
    );

    let (status, health) = follower.get("/health").await;
    assert_eq!(status, 200);
    assert_eq!(health["read_only"], true, "{health}");
    let lag = health["lag_seconds"].as_f64().expect("lag_seconds");
    assert!((0.0..60.0).contains(&lag), "{health}");
    let (_, writer_health) = writer.get("/health").await;
    assert!(
        writer_health.get("lag_seconds").is_none(),
        "{writer_health}"
    );
}
