//! tokio-postgres (a real driver: extended protocol, binary results) against litewire.

mod common;

use common::TestServer;
use tokio_postgres::SimpleQueryMessage;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::Type;

in_both_cache_modes!(
    simple_queries,
    extended_queries_with_untyped_parameters,
    typed_binary_values,
    portals_with_row_limits,
    driver_errors
);

const SCHEMA: &str = "CREATE TABLE items (id integer PRIMARY KEY, name varchar(20) NOT NULL, price double precision, qty bigint, data bytea, ok boolean);
INSERT INTO items VALUES (1, 'apple', 1.25, 10, x'00ff', 1), (2, 'pear', NULL, 5000000000, NULL, 0), (3, 'fig', 3.5, 7, x'', 1);";

async fn simple_queries(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    let messages = client
        .simple_query(&format!("{SCHEMA} SELECT name, qty FROM items ORDER BY id"))
        .await
        .unwrap();
    let rows: Vec<(String, String)> = messages
        .iter()
        .filter_map(|m| match m {
            SimpleQueryMessage::Row(row) => Some((
                row.get(0).unwrap().to_owned(),
                row.get(1).unwrap().to_owned(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        rows,
        vec![
            ("apple".into(), "10".into()),
            ("pear".into(), "5000000000".into()),
            ("fig".into(), "7".into())
        ]
    );
    let counts: Vec<u64> = messages
        .iter()
        .filter_map(|m| match m {
            SimpleQueryMessage::CommandComplete(n) => Some(*n),
            _ => None,
        })
        .collect();
    assert_eq!(counts, vec![0, 3, 3]);
}

async fn extended_queries_with_untyped_parameters(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();

    // Parameters without declared types are described and sent as text.
    let statement = client
        .prepare("SELECT name FROM items WHERE id = $1")
        .await
        .unwrap();
    assert_eq!(statement.params(), &[Type::TEXT]);
    assert_eq!(statement.columns()[0].type_(), &Type::VARCHAR);
    let row = client.query_one(&statement, &[&"2"]).await.unwrap();
    assert_eq!(row.get::<_, String>(0), "pear");

    // The same statement, executed again: parameters reuse the prepared statement.
    for (id, name) in [("1", "apple"), ("3", "fig")] {
        let row = client.query_one(&statement, &[&id]).await.unwrap();
        assert_eq!(row.get::<_, String>(0), name);
    }

    // $2 before $1, and a parameter used twice.
    let row = client
        .query_one("SELECT $2 || '-' || $1 || '-' || $2", &[&"a", &"b"])
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "b-a-b");

    let inserted = client
        .execute(
            "INSERT INTO items (id, name) VALUES ($1, $2)",
            &[&"4", &"kiwi"],
        )
        .await
        .unwrap();
    assert_eq!(inserted, 1);
    let updated = client
        .execute("UPDATE items SET qty = 0 WHERE qty > $1", &[&"8"])
        .await
        .unwrap();
    assert_eq!(updated, 2);
    // No rows still describes its columns.
    let rows = client
        .query("SELECT id, name FROM items WHERE id > $1", &[&"100"])
        .await
        .unwrap();
    assert!(rows.is_empty());
}

async fn typed_binary_values(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();

    let rows = client
        .query(
            "SELECT id, name, price, qty, data, ok FROM items ORDER BY id",
            &[],
        )
        .await
        .unwrap();
    let types: Vec<Type> = rows[0]
        .columns()
        .iter()
        .map(|c| c.type_().clone())
        .collect();
    assert_eq!(
        types,
        vec![
            Type::INT4,
            Type::VARCHAR,
            Type::FLOAT8,
            Type::INT8,
            Type::BYTEA,
            Type::BOOL
        ]
    );
    assert_eq!(rows[0].get::<_, i32>(0), 1);
    assert_eq!(rows[0].get::<_, &str>(1), "apple");
    assert_eq!(rows[0].get::<_, Option<f64>>(2), Some(1.25));
    assert_eq!(rows[1].get::<_, Option<f64>>(2), None);
    assert_eq!(rows[1].get::<_, i64>(3), 5_000_000_000);
    assert_eq!(rows[0].get::<_, Vec<u8>>(4), vec![0, 255]);
    assert!(rows[0].get::<_, bool>(5));
    assert!(!rows[1].get::<_, bool>(5));

    // Typed, binary parameters round-trip.
    let insert = client
        .prepare_typed(
            "INSERT INTO items VALUES ($1, $2, $3, $4, $5, $6)",
            &[
                Type::INT4,
                Type::VARCHAR,
                Type::FLOAT8,
                Type::INT8,
                Type::BYTEA,
                Type::BOOL,
            ],
        )
        .await
        .unwrap();
    let blob: Vec<u8> = vec![1, 2, 3, 0];
    client
        .execute(&insert, &[&10i32, &"melon", &2.5f64, &-9i64, &blob, &true])
        .await
        .unwrap();
    let row = client
        .query_one(
            "SELECT name, price, qty, data, ok FROM items WHERE id = 10",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, &str>(0), "melon");
    assert_eq!(row.get::<_, f64>(1), 2.5);
    assert_eq!(row.get::<_, i64>(2), -9);
    assert_eq!(row.get::<_, Vec<u8>>(3), blob);
    assert!(row.get::<_, bool>(4));

    // Expressions take their type from the value.
    let row = client
        .query_one("SELECT 1 + 1, 0.5, 'x', x'01'", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 2);
    assert_eq!(row.get::<_, f64>(1), 0.5);
    assert_eq!(row.get::<_, &str>(2), "x");
    assert_eq!(row.get::<_, Vec<u8>>(3), vec![1]);
}

async fn portals_with_row_limits(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (mut client, _conn) = server.connect().await;
    client
        .batch_execute("CREATE TABLE seq (n int); WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 10) INSERT INTO seq SELECT n FROM c")
        .await
        .unwrap();
    let tx = client.transaction().await.unwrap();
    let statement = tx.prepare("SELECT n FROM seq ORDER BY n").await.unwrap();
    let portal = tx.bind(&statement, &[]).await.unwrap();
    let mut seen = Vec::new();
    loop {
        let rows = tx.query_portal(&portal, 4).await.unwrap();
        if rows.is_empty() {
            break;
        }
        assert!(rows.len() <= 4);
        seen.extend(rows.iter().map(|r| r.get::<_, i32>(0)));
    }
    assert_eq!(seen, (1..=10).collect::<Vec<_>>());
    tx.commit().await.unwrap();
}

async fn driver_errors(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute("CREATE TABLE e (a int PRIMARY KEY)")
        .await
        .unwrap();
    client
        .execute("INSERT INTO e VALUES (1)", &[])
        .await
        .unwrap();

    let cases: [(&str, &SqlState); 3] = [
        ("INSERT INTO e VALUES (1)", &SqlState::UNIQUE_VIOLATION),
        ("SELECT * FROM nope", &SqlState::UNDEFINED_TABLE),
        ("SELECT FROM WHERE", &SqlState::SYNTAX_ERROR),
    ];
    for (sql, state) in cases {
        let error = client.execute(sql, &[]).await.unwrap_err();
        assert_eq!(error.code(), Some(state), "{sql}: {error:?}");
    }
    // The session is usable after errors in the extended protocol.
    let row = client
        .query_one("SELECT count(*) FROM e", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 1);
}
