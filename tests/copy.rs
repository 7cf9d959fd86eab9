//! COPY FROM STDIN through a driver (tokio-postgres `copy_in`) and through psql.

mod common;

use bytes::Bytes;
use common::{TestServer, stderr, stdout};
use futures::SinkExt;

in_both_cache_modes!(
    copy_text_escapes_and_nulls,
    malformed_copy_rolls_back,
    aborted_copy_inserts_nothing,
    psql_copy_csv_file
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
