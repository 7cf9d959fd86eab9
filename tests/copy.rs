//! COPY FROM STDIN and COPY TO STDOUT through a driver (tokio-postgres `copy_in`,
//! `copy_out`) and through psql's `\copy`. Expected outputs are what PostgreSQL 15
//! prints for the same rows.

mod common;

use bytes::Bytes;
use common::{TestServer, stderr, stdout};
use futures::{SinkExt, TryStreamExt};

in_both_cache_modes!(
    copy_text_escapes_and_nulls,
    malformed_copy_rolls_back,
    aborted_copy_inserts_nothing,
    psql_copy_csv_file,
    psql_copy_to_stdout,
    psql_copy_round_trip_through_files,
    driver_copy_out,
    copy_out_inside_a_transaction,
    copy_out_errors
);

async fn copy_in(
    client: &tokio_postgres::Client,
    sql: &str,
    chunks: &[&[u8]],
) -> Result<u64, tokio_postgres::Error> {
    let sink = client.copy_in(sql).await?;
    futures::pin_mut!(sink);
    for chunk in chunks {
        sink.send(Bytes::copy_from_slice(chunk)).await?;
    }
    sink.finish().await
}

async fn copy_text_escapes_and_nulls(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute("CREATE TABLE c (id int, note text, data bytea)")
        .await
        .unwrap();
    // Rows split across CopyData messages at awkward places.
    let n = copy_in(
        &client,
        "COPY c FROM STDIN",
        &[
            b"1\ttab\\there\t\\\\x00ff\n2\tline\\nbreak\t\\N\n3\tback\\\\sla",
            b"sh\t\\N\n",
        ],
    )
    .await
    .unwrap();
    assert_eq!(n, 3);
    let rows = client
        .query("SELECT id, note, data FROM c ORDER BY id", &[])
        .await
        .unwrap();
    let notes: Vec<Option<String>> = rows.iter().map(|r| r.get(1)).collect();
    assert_eq!(
        notes,
        vec![
            Some("tab\there".into()),
            Some("line\nbreak".into()),
            Some("back\\slash".into())
        ]
    );
    assert_eq!(rows[0].get::<_, Option<Vec<u8>>>(2), Some(vec![0, 255]));
    assert_eq!(rows[1].get::<_, Option<Vec<u8>>>(2), None);

    // A large COPY spans many insert batches.
    let data: String = (0..5000).map(|i| format!("{i}\tn{i}\t\\N\n")).collect();
    let n = copy_in(
        &client,
        "COPY c (id, note, data) FROM STDIN",
        &[data.as_bytes()],
    )
    .await
    .unwrap();
    assert_eq!(n, 5000);
    let row = client
        .query_one("SELECT count(*), sum(id) FROM c", &[])
        .await
        .unwrap();
    assert_eq!(
        (row.get::<_, i64>(0), row.get::<_, i64>(1)),
        (5003, 12_497_506)
    );
}

async fn malformed_copy_rolls_back(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute("CREATE TABLE c (id int, note text)")
        .await
        .unwrap();
    let mut good: String = (0..1000).map(|i| format!("{i}\tok\n")).collect();
    good.push_str("1001\tone\ttoo many\n");
    let error = copy_in(&client, "COPY c FROM STDIN", &[good.as_bytes()])
        .await
        .unwrap_err();
    assert_eq!(error.code().map(|c| c.code()), Some("22P04"), "{error:?}");
    let row = client
        .query_one("SELECT count(*) FROM c", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 0, "the whole COPY was rolled back");

    // Inside a transaction, a failed COPY fails the transaction.
    client
        .batch_execute("BEGIN; INSERT INTO c VALUES (-1, 'kept?')")
        .await
        .unwrap();
    let error = copy_in(&client, "COPY c FROM STDIN", &[b"x\ty\n"])
        .await
        .unwrap_err();
    assert_eq!(error.code().map(|c| c.code()), Some("22P04"), "{error:?}");
    let aborted = client.query("SELECT 1", &[]).await.unwrap_err();
    assert_eq!(aborted.code().map(|c| c.code()), Some("25P02"));
    client.batch_execute("ROLLBACK").await.unwrap();
    let row = client
        .query_one("SELECT count(*) FROM c", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 0);
}

async fn aborted_copy_inserts_nothing(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute("CREATE TABLE c (id int)")
        .await
        .unwrap();
    {
        let sink = client.copy_in("COPY c FROM STDIN").await.unwrap();
        futures::pin_mut!(sink);
        let rows: String = (0..2000).map(|i| format!("{i}\n")).collect();
        sink.send(Bytes::from(rows)).await.unwrap();
        // Dropping the sink without finish() sends CopyFail.
    }
    let row = client
        .query_one("SELECT count(*) FROM c", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 0);
    // The session and the write lock are free again.
    client
        .execute("INSERT INTO c VALUES (1)", &[])
        .await
        .unwrap();
}

async fn psql_copy_csv_file(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let csv = server.dir.path().join("in.csv");
    std::fs::write(&csv, "id,name\n1,\"Smith, Jo\"\n2,\n3,\"say \"\"hi\"\"\"\n").unwrap();
    let out = server.psql(&[
        "-c",
        "CREATE TABLE people (id int, name text)",
        "-c",
        &format!(
            "\\copy people FROM '{}' WITH (FORMAT csv, HEADER true)",
            csv.display()
        ),
        "-At",
        "-c",
        "SELECT id, coalesce(name, '<null>') FROM people ORDER BY id",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "CREATE TABLE\nCOPY 3\n1|Smith, Jo\n2|<null>\n3|say \"hi\"\n"
    );
}

/// Values that need escaping or quoting in both formats, NULLs, bytea, booleans
/// and floats that PostgreSQL prints in its own way.
const SAMPLE: &str = "
CREATE TABLE t (id int, note text, data bytea, ok boolean, f double precision);
INSERT INTO t VALUES
  (1, E'tab\\there', '\\x00ff', true, 1.5),
  (2, E'line\\nbreak\\\\back\\r', NULL, false, 1e20),
  (3, NULL, '\\x', NULL, 0.1),
  (4, ' sp ,\"q\"', '\\x616263', true, -2.5e-7),
  (5, '', NULL, NULL, 'Infinity');
";

/// `\copy t to stdout` as PostgreSQL 15 prints it.
const SAMPLE_TEXT: &str = "\
1\ttab\\there\t\\\\x00ff\tt\t1.5
2\tline\\nbreak\\\\back\\r\t\\N\tf\t1e+20
3\t\\N\t\\\\x\t\\N\t0.1
4\t sp ,\"q\"\t\\\\x616263\tt\t-2.5e-07
5\t\t\\N\t\\N\tInfinity
";

/// `\copy (select * from t order by id) to stdout with csv header`, likewise.
const SAMPLE_CSV: &str = "\
id,note,data,ok,f
1,tab\there,\\x00ff,t,1.5
2,\"line
break\\back\r\",,f,1e+20
3,,\\x,,0.1
4,\" sp ,\"\"q\"\"\",\\x616263,t,-2.5e-07
5,\"\",,,Infinity
";

async fn sample_server(cache: &str) -> TestServer {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(SAMPLE).await.unwrap();
    server
}

async fn psql_copy_to_stdout(cache: &str) {
    let server = sample_server(cache).await;
    let out = server.psql(&["-c", "\\copy t to stdout"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), SAMPLE_TEXT);

    let out = server.psql(&[
        "-c",
        "\\copy (select * from t order by id) to stdout with csv header",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), SAMPLE_CSV);

    let out = server.psql(&[
        "-c",
        "\\copy t (id, note) to stdout with (format csv, header true, force_quote (note), \
         null 'NULL', delimiter ';')",
        "-c",
        "\\copy t (id, note) to stdout with delimiter as ',' null as ''",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let expected = "\
id;note
1;\"tab\there\"
2;\"line
break\\back\r\"
3;NULL
4;\" sp ,\"\"q\"\"\"
5;\"\"
1,tab\\there
2,line\\nbreak\\\\back\\r
3,
4, sp \\,\"q\"
5,
";
    assert_eq!(stdout(&out), expected);

    // COPY TO among other statements of one query string.
    let out = server.psql(&[
        "-At",
        "-c",
        "COPY (SELECT id FROM t WHERE id < 3 ORDER BY id) TO STDOUT; SELECT 'after'",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out), "1\n2\nafter\n");
}

async fn psql_copy_round_trip_through_files(cache: &str) {
    let server = sample_server(cache).await;
    let csv = server.dir.path().join("t.csv");
    let text = server.dir.path().join("t.txt");
    let out = server.psql(&[
        "-c",
        "CREATE TABLE from_csv (id int, note text, data bytea, ok boolean, f double precision)",
        "-c",
        "CREATE TABLE from_text (id int, note text, data bytea, ok boolean, f double precision)",
        "-c",
        &format!("\\copy t to '{}' with csv header", csv.display()),
        "-c",
        &format!("\\copy t to '{}' with delimiter ','", text.display()),
        "-c",
        &format!("\\copy from_csv from '{}' with csv header", csv.display()),
        "-c",
        &format!(
            "\\copy from_text from '{}' with (delimiter ',')",
            text.display()
        ),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "CREATE TABLE\nCREATE TABLE\nCOPY 5\nCOPY 5\nCOPY 5\nCOPY 5\n"
    );
    let written = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(written, SAMPLE_CSV);
    for table in ["from_csv", "from_text"] {
        let out = server.psql(&["-c", &format!("\\copy {table} to stdout")]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert_eq!(stdout(&out), SAMPLE_TEXT, "{table}");
    }
}

async fn copy_out_bytes(
    client: &tokio_postgres::Client,
    sql: &str,
) -> Result<String, tokio_postgres::Error> {
    let stream = client.copy_out(sql).await?;
    let chunks: Vec<Bytes> = stream.try_collect().await?;
    let bytes: Vec<u8> = chunks.concat();
    Ok(String::from_utf8(bytes).expect("UTF-8 COPY output"))
}

async fn driver_copy_out(cache: &str) {
    let server = sample_server(cache).await;
    let (client, _conn) = server.connect().await;
    // tokio-postgres runs COPY through Parse / Bind / Execute.
    let text = copy_out_bytes(&client, "COPY t TO STDOUT").await.unwrap();
    assert_eq!(text, SAMPLE_TEXT);
    let csv = copy_out_bytes(
        &client,
        "COPY (SELECT * FROM t ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER)",
    )
    .await
    .unwrap();
    assert_eq!(csv, SAMPLE_CSV);
    let empty = copy_out_bytes(
        &client,
        "COPY (SELECT id FROM t WHERE id > 99) TO STDOUT CSV HEADER",
    )
    .await
    .unwrap();
    assert_eq!(empty, "id\n", "the header comes even without rows");
    // The connection is usable afterwards.
    let row = client
        .query_one("SELECT count(*) FROM t", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 5);
}

async fn copy_out_inside_a_transaction(cache: &str) {
    let server = sample_server(cache).await;
    let (client, _conn) = server.connect().await;
    client
        .batch_execute(
            "BEGIN; DELETE FROM t WHERE id > 1; INSERT INTO t (id, note) VALUES (6, 'uncommitted')",
        )
        .await
        .unwrap();
    let seen = copy_out_bytes(
        &client,
        "COPY (SELECT id, note FROM t ORDER BY id) TO STDOUT CSV",
    )
    .await
    .unwrap();
    assert_eq!(seen, "1,tab\there\n6,uncommitted\n");
    if cache == "private" {
        // With a shared page cache another reader waits for the table lock instead.
        let out = server.psql(&["-At", "-c", "SELECT count(*) FROM t"]);
        assert_eq!(stdout(&out), "5\n", "other sessions do not see it");
    }
    client.batch_execute("ROLLBACK").await.unwrap();
    let after = copy_out_bytes(&client, "COPY (SELECT count(*) FROM t) TO STDOUT")
        .await
        .unwrap();
    assert_eq!(after, "5\n");
}

async fn copy_out_errors(cache: &str) {
    let server = sample_server(cache).await;
    let (client, _conn) = server.connect().await;
    let code = |error: tokio_postgres::Error| error.code().map(|c| c.code().to_owned());

    let missing = copy_out_bytes(&client, "COPY missing TO STDOUT")
        .await
        .unwrap_err();
    assert_eq!(code(missing).as_deref(), Some("42P01"));
    let binary = copy_out_bytes(&client, "COPY t TO STDOUT (FORMAT binary)")
        .await
        .unwrap_err();
    assert_eq!(code(binary).as_deref(), Some("0A000"));

    // Inside a transaction a failing COPY fails the transaction.
    client.batch_execute("BEGIN").await.unwrap();
    let missing = copy_out_bytes(&client, "COPY (SELECT nope FROM t) TO STDOUT")
        .await
        .unwrap_err();
    assert_eq!(code(missing).as_deref(), Some("42703"));
    let aborted = client.query("SELECT 1", &[]).await.unwrap_err();
    assert_eq!(code(aborted).as_deref(), Some("25P02"));
    client.batch_execute("ROLLBACK").await.unwrap();

    // Files and programs would be the server's: refused, whichever direction.
    for sql in [
        "COPY t TO '/tmp/litewire-copy-test'",
        "COPY t FROM '/etc/hostname'",
        "COPY t TO PROGRAM 'cat'",
    ] {
        let out = server.psql(&["-c", "\\set VERBOSITY verbose", "-c", sql]);
        assert!(!out.status.success(), "{sql} should fail");
        let err = stderr(&out);
        assert!(
            err.contains("ERROR:  42501:") && err.contains("\\copy"),
            "{sql}: {err}"
        );
    }
    assert!(!std::path::Path::new("/tmp/litewire-copy-test").exists());

    // Over HTTP there is no copy mode: a clear error, not a hang.
    let body = serde_json::json!({ "statements": ["COPY t TO STDOUT"] }).to_string();
    let (status, json) = server.post(&body, Some("application/json")).await;
    assert_eq!(status, 400, "{json}");
    assert!(
        json["error"].as_str().unwrap_or("").contains("COPY"),
        "{json}"
    );
}
