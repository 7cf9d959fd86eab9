//! tokio-postgres (a real driver: extended protocol, binary results) against litewire.

mod common;

use std::str::FromStr;

use chrono::{DateTime, NaiveDate, NaiveDateTime, NaiveTime, Utc};
use common::{TestServer, stderr, stdout, text_rows};
use rust_decimal::Decimal;
use serde_json::{Value as Json, json};
use tokio_postgres::error::SqlState;
use tokio_postgres::types::{IsNull, Kind, ToSql, Type, to_sql_checked};
use tokio_postgres::{Client, SimpleQueryMessage};
use uuid::Uuid;

in_both_cache_modes!(
    simple_queries,
    extended_queries_with_untyped_parameters,
    typed_binary_values,
    portals_with_row_limits,
    query_typed_without_a_prepared_statement,
    driver_errors,
    every_type_round_trips_as_typed_parameters,
    sql_literals_read_back_as_postgres_types,
    unreadable_stored_values,
    parameter_types_inferred_from_columns,
    unknown_binary_parameters_decoded_by_inferred_type,
    parameter_types_of_statement_shapes,
    array_parameters_for_any,
    settings_functions_anywhere_in_a_query,
    arrays_round_trip_in_binary,
    casts_to_bool_and_infinite_dates,
    comments_are_kept_and_described
);

const SCHEMA: &str = "CREATE TABLE items (id integer PRIMARY KEY, name varchar(20) NOT NULL, price double precision, qty bigint, data bytea, ok boolean);
INSERT INTO items VALUES (1, 'apple', 1.25, 10, '\\x00ff'::bytea, true), (2, 'pear', NULL, 5000000000, NULL, false), (3, 'fig', 3.5, 7, '\\x'::bytea, true);";

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

    // Parameters without declared types are described as what they are used as:
    // compared with `id integer`, $1 is an int4, and the driver sends an i32.
    let statement = client
        .prepare("SELECT name FROM items WHERE id = $1")
        .await
        .unwrap();
    assert_eq!(statement.params(), &[Type::INT4]);
    assert_eq!(statement.columns()[0].type_(), &Type::VARCHAR);
    let row = client.query_one(&statement, &[&2i32]).await.unwrap();
    assert_eq!(row.get::<_, String>(0), "pear");

    // The same statement, executed again: parameters reuse the prepared statement.
    for (id, name) in [(1i32, "apple"), (3, "fig")] {
        let row = client.query_one(&statement, &[&id]).await.unwrap();
        assert_eq!(row.get::<_, String>(0), name);
    }

    // Inserted and assigned columns, comparisons with an alias, LIMIT, casts.
    let insert = client
        .prepare(
            "INSERT INTO items (id, name, price, qty, data, ok) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .await
        .unwrap();
    assert_eq!(
        insert.params(),
        &[
            Type::INT4,
            Type::VARCHAR,
            Type::FLOAT8,
            Type::INT8,
            Type::BYTEA,
            Type::BOOL
        ]
    );
    let inserted = client
        .execute(
            &insert,
            &[&4i32, &"kiwi", &0.5f64, &9i64, &vec![1u8, 2], &true],
        )
        .await
        .unwrap();
    assert_eq!(inserted, 1);
    let update = client
        .prepare("UPDATE items SET qty = $1 WHERE qty > $2 AND name <> $3")
        .await
        .unwrap();
    assert_eq!(update.params(), &[Type::INT8, Type::INT8, Type::TEXT]);
    let updated = client
        .execute(&update, &[&0i64, &8i64, &"pear"])
        .await
        .unwrap();
    assert_eq!(updated, 2);
    let limited = client
        .prepare(
            "SELECT i.name FROM items AS i WHERE i.price BETWEEN $1 AND $2 ORDER BY i.id LIMIT $3",
        )
        .await
        .unwrap();
    assert_eq!(limited.params(), &[Type::FLOAT8, Type::FLOAT8, Type::INT8]);
    let rows = client
        .query(&limited, &[&0.0f64, &2.0f64, &1i64])
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].get::<_, String>(0), "apple");
    let cast = client.prepare("SELECT $1::bigint + 1").await.unwrap();
    assert_eq!(cast.params(), &[Type::INT8]);
    assert_eq!(
        client
            .query_one(&cast, &[&41i64])
            .await
            .unwrap()
            .get::<_, i64>(0),
        42
    );

    // A parameter nothing types stays text; $2 before $1, and one used twice.
    let row = client
        .query_one("SELECT $2 || '-' || $1 || '-' || $2", &[&"a", &"b"])
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>(0), "b-a-b");

    // No rows still describes its columns.
    let rows = client
        .query("SELECT id, name FROM items WHERE id > $1", &[&100i32])
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

    // Expressions take PostgreSQL's types: `1 + 1` is an integer.
    let row = client
        .query_one("SELECT 1 + 1, 0.5::float8, 'x', x'01'", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i32>(0), 2);
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

/// `query_typed`: Parse with the parameter types, Bind, Execute, in one round
/// trip and without a Describe; results still arrive typed, in binary.
async fn query_typed_without_a_prepared_statement(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute(
            "CREATE TABLE events (id integer PRIMARY KEY, at timestamptz, tag uuid, ok boolean)",
        )
        .await
        .unwrap();
    let at: DateTime<Utc> = "2024-02-29T23:59:59.5Z".parse().unwrap();
    let tag = Uuid::from_str("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11").unwrap();
    let inserted = client
        .query_typed(
            "INSERT INTO events VALUES ($1, $2, $3, $4) RETURNING id",
            &[
                (&7i32, Type::INT4),
                (&at, Type::TIMESTAMPTZ),
                (&tag, Type::UUID),
                (&true, Type::BOOL),
            ],
        )
        .await
        .unwrap();
    assert_eq!(inserted[0].get::<_, i32>(0), 7);
    let rows = client
        .query_typed(
            "SELECT at, tag, ok FROM events WHERE id = $1 AND at <= $2",
            &[(&7i32, Type::INT4), (&at, Type::TIMESTAMPTZ)],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].get::<_, DateTime<Utc>>(0), at);
    assert_eq!(rows[0].get::<_, Uuid>(1), tag);
    assert!(rows[0].get::<_, bool>(2));
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

    let cases: [(&str, &SqlState); 4] = [
        ("INSERT INTO e VALUES (1)", &SqlState::UNIQUE_VIOLATION),
        ("SELECT * FROM nope", &SqlState::UNDEFINED_TABLE),
        ("SELECT FROM WHERE", &SqlState::SYNTAX_ERROR),
        // A parameter number past SQLite's limit is refused before anything is
        // sized by it (Describe used to allocate that many parameter types).
        ("SELECT $9999999999", &SqlState::SYNTAX_ERROR),
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

/// One column of each PostgreSQL type litewire maps.
const ALL_TYPES: &str = "CREATE TABLE everything (b boolean, i2 smallint, i4 integer, i8 bigint, f4 real, f8 double precision, n numeric(10,2), t text, vc varchar(20), c char(3), by bytea, d date, tm time, ts timestamp, tz timestamptz, u uuid, j json, jb jsonb)";

/// The types `everything`'s columns are described as, PostgreSQL's.
const ALL_TYPE_OIDS: [Type; 18] = [
    Type::BOOL,
    Type::INT2,
    Type::INT4,
    Type::INT8,
    Type::FLOAT4,
    Type::FLOAT8,
    Type::NUMERIC,
    Type::TEXT,
    Type::VARCHAR,
    Type::BPCHAR,
    Type::BYTEA,
    Type::DATE,
    Type::TIME,
    Type::TIMESTAMP,
    Type::TIMESTAMPTZ,
    Type::UUID,
    Type::JSON,
    Type::JSONB,
];

/// A row of `everything` as the driver's own Rust types.
#[derive(Debug, PartialEq)]
struct Everything {
    b: bool,
    i2: i16,
    i4: i32,
    i8: i64,
    f4: f32,
    f8: f64,
    n: Decimal,
    t: String,
    vc: String,
    c: String,
    by: Vec<u8>,
    d: NaiveDate,
    tm: NaiveTime,
    ts: NaiveDateTime,
    tz: DateTime<Utc>,
    u: Uuid,
    j: Json,
    jb: Json,
}

impl Everything {
    fn from_row(row: &tokio_postgres::Row) -> Everything {
        Everything {
            b: row.get("b"),
            i2: row.get("i2"),
            i4: row.get("i4"),
            i8: row.get("i8"),
            f4: row.get("f4"),
            f8: row.get("f8"),
            n: row.get("n"),
            t: row.get("t"),
            vc: row.get("vc"),
            c: row.get("c"),
            by: row.get("by"),
            d: row.get("d"),
            tm: row.get("tm"),
            ts: row.get("ts"),
            tz: row.get("tz"),
            u: row.get("u"),
            j: row.get("j"),
            jb: row.get("jb"),
        }
    }

    async fn insert(&self, client: &Client) {
        let statement = client
            .prepare_typed(
                "INSERT INTO everything VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
                &[
                    Type::BOOL,
                    Type::INT2,
                    Type::INT4,
                    Type::INT8,
                    Type::FLOAT4,
                    Type::FLOAT8,
                    Type::NUMERIC,
                    Type::TEXT,
                    Type::VARCHAR,
                    Type::BPCHAR,
                    Type::BYTEA,
                    Type::DATE,
                    Type::TIME,
                    Type::TIMESTAMP,
                    Type::TIMESTAMPTZ,
                    Type::UUID,
                    Type::JSON,
                    Type::JSONB,
                ],
            )
            .await
            .unwrap();
        let inserted = client
            .execute(
                &statement,
                &[
                    &self.b, &self.i2, &self.i4, &self.i8, &self.f4, &self.f8, &self.n, &self.t,
                    &self.vc, &self.c, &self.by, &self.d, &self.tm, &self.ts, &self.tz, &self.u,
                    &self.j, &self.jb,
                ],
            )
            .await
            .unwrap();
        assert_eq!(inserted, 1);
    }
}

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn time(h: u32, m: u32, s: u32, micro: u32) -> NaiveTime {
    NaiveTime::from_hms_micro_opt(h, m, s, micro).unwrap()
}

async fn every_type_round_trips_as_typed_parameters(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(ALL_TYPES).await.unwrap();

    let rows = [
        Everything {
            b: true,
            i2: -12_345,
            i4: 2_000_000_000,
            i8: -9_000_000_000_000,
            f4: 1.5,
            f8: -2.25e-10,
            n: Decimal::from_str("12345678.90").unwrap(),
            t: "héllo, wörld".into(),
            vc: "varchar".into(),
            c: "abc".into(),
            by: vec![0, 1, 255],
            d: date(2024, 2, 29),
            tm: time(23, 59, 59, 123_456),
            ts: date(1999, 12, 31).and_time(time(23, 59, 59, 999_999)),
            tz: date(2024, 1, 1).and_time(time(10, 0, 0, 500_000)).and_utc(),
            u: Uuid::from_str("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11").unwrap(),
            j: json!({"a": [1, 2.5, null], "s": "x"}),
            jb: json!({"k": "v"}),
        },
        Everything {
            b: false,
            i2: 0,
            i4: -1,
            i8: i64::MAX,
            f4: -0.25,
            f8: 1e300,
            n: Decimal::from_str("-0.05").unwrap(),
            t: String::new(),
            vc: "v".into(),
            c: "xyz".into(),
            by: Vec::new(),
            d: date(1969, 7, 20),
            tm: time(0, 0, 0, 0),
            ts: date(1900, 3, 1).and_time(time(0, 0, 0, 1)),
            tz: date(1960, 2, 29).and_time(time(12, 34, 56, 0)).and_utc(),
            u: Uuid::nil(),
            j: json!([]),
            jb: json!(null),
        },
    ];
    for row in &rows {
        row.insert(&client).await;
    }
    client
        .execute("INSERT INTO everything (b) VALUES (NULL)", &[])
        .await
        .unwrap();

    let read = client
        .query("SELECT * FROM everything ORDER BY rowid", &[])
        .await
        .unwrap();
    let types: Vec<Type> = read[0]
        .columns()
        .iter()
        .map(|c| c.type_().clone())
        .collect();
    assert_eq!(types, ALL_TYPE_OIDS);
    assert_eq!(Everything::from_row(&read[0]), rows[0]);
    assert_eq!(Everything::from_row(&read[1]), rows[1]);
    // numeric(10,2) keeps its scale even though SQLite stores a REAL.
    assert_eq!(read[0].get::<_, Decimal>("n").to_string(), "12345678.90");
    assert_eq!(read[1].get::<_, Decimal>("n").to_string(), "-0.05");
    let null = &read[2];
    assert_eq!(null.get::<_, Option<Decimal>>("n"), None);
    assert_eq!(null.get::<_, Option<NaiveDate>>("d"), None);
    assert_eq!(null.get::<_, Option<NaiveTime>>("tm"), None);
    assert_eq!(null.get::<_, Option<NaiveDateTime>>("ts"), None);
    assert_eq!(null.get::<_, Option<DateTime<Utc>>>("tz"), None);
    assert_eq!(null.get::<_, Option<Uuid>>("u"), None);

    // What SQLite holds is what its own tools and date functions read.
    let stored = text_rows(
        &client,
        "SELECT typeof(n), d, tm, ts, tz, u, date(ts, '+1 day') FROM everything WHERE rowid = 1",
    )
    .await;
    assert_eq!(
        stored[0],
        [
            "real",
            "2024-02-29",
            "23:59:59.123456",
            "1999-12-31 23:59:59.999999",
            "2024-01-01 10:00:00.5+00",
            "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
            "2000-01-01",
        ]
        .map(|s| Some(s.to_owned()))
    );
    // The same row in text format, as PostgreSQL prints it.
    let shown = text_rows(
        &client,
        "SELECT b, n, f8, d, tm, ts, tz, u FROM everything ORDER BY rowid LIMIT 2",
    )
    .await;
    let expected = [
        [
            "t",
            "12345678.90",
            "-2.25e-10",
            "2024-02-29",
            "23:59:59.123456",
            "1999-12-31 23:59:59.999999",
            "2024-01-01 10:00:00.5+00",
            "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
        ],
        [
            "f",
            "-0.05",
            "1e+300",
            "1969-07-20",
            "00:00:00",
            "1900-03-01 00:00:00.000001",
            "1960-02-29 12:34:56+00",
            "00000000-0000-0000-0000-000000000000",
        ],
    ];
    for (row, expected) in shown.iter().zip(expected) {
        assert_eq!(row, &expected.map(|s| Some(s.to_owned())));
    }
}

async fn sql_literals_read_back_as_postgres_types(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(ALL_TYPES).await.unwrap();
    // Written the way the sqlite3 shell or hand-written SQL would write them:
    // with SQLite's meaning, through the HTTP API (the PostgreSQL port would
    // refuse `1` for a boolean, as PostgreSQL does).
    server
        .http_query(
            "INSERT INTO everything (b, n, d, tm, ts, tz, u) VALUES
               ('t', 12.5, '2024-02-29', '07:05', '2024-02-29 23:59:59.25', '2024-02-29T23:59:59.25Z', '{A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11}'),
               ('false', 3, '1899-12-31', '12:00:00.000001', '1970-01-01T00:00:00', '2024-03-01 01:30:00+02:00', 'a0eebc999c0b4ef8bb6d6bb9bd380a11'),
               (1, '-0.005', '2000-01-01', '24:00:00', 1709251199, CURRENT_TIMESTAMP, x'a0eebc999c0b4ef8bb6d6bb9bd380a11');",
        )
        .await;

    let rows = client
        .query(
            "SELECT b, n, d, tm, ts, tz, u FROM everything ORDER BY rowid",
            &[],
        )
        .await
        .unwrap();
    let uuid = Uuid::from_str("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11").unwrap();
    let leap = date(2024, 2, 29).and_time(time(23, 59, 59, 250_000));

    assert!(rows[0].get::<_, bool>("b"));
    assert_eq!(rows[0].get::<_, Decimal>("n").to_string(), "12.50");
    assert_eq!(rows[0].get::<_, NaiveDate>("d"), date(2024, 2, 29));
    assert_eq!(rows[0].get::<_, NaiveTime>("tm"), time(7, 5, 0, 0));
    assert_eq!(rows[0].get::<_, NaiveDateTime>("ts"), leap);
    assert_eq!(rows[0].get::<_, DateTime<Utc>>("tz"), leap.and_utc());
    assert_eq!(rows[0].get::<_, Uuid>("u"), uuid);

    assert!(!rows[1].get::<_, bool>("b"));
    assert_eq!(rows[1].get::<_, Decimal>("n").to_string(), "3.00");
    assert_eq!(rows[1].get::<_, NaiveDate>("d"), date(1899, 12, 31));
    assert_eq!(rows[1].get::<_, NaiveTime>("tm"), time(12, 0, 0, 1));
    assert_eq!(
        rows[1].get::<_, NaiveDateTime>("ts"),
        date(1970, 1, 1).and_time(time(0, 0, 0, 0))
    );
    assert_eq!(
        rows[1].get::<_, DateTime<Utc>>("tz"),
        date(2024, 2, 29).and_time(time(23, 30, 0, 0)).and_utc()
    );
    assert_eq!(rows[1].get::<_, Uuid>("u"), uuid);

    assert!(rows[2].get::<_, bool>("b"));
    // Rounded half away from zero to the declared scale, as PostgreSQL rounds.
    assert_eq!(rows[2].get::<_, Decimal>("n").to_string(), "-0.01");
    assert_eq!(rows[2].get::<_, NaiveDate>("d"), date(2000, 1, 1));
    // 24:00:00 is beyond chrono's NaiveTime; the text form shows it.
    assert_eq!(
        rows[2].get::<_, NaiveDateTime>("ts"),
        date(2024, 2, 29).and_time(time(23, 59, 59, 0))
    );
    let now = rows[2].get::<_, DateTime<Utc>>("tz");
    assert!((Utc::now() - now).num_seconds().abs() < 60, "{now}");
    assert_eq!(rows[2].get::<_, Uuid>("u"), uuid);

    let shown = text_rows(
        &client,
        "SELECT n, tm, ts, tz FROM everything ORDER BY rowid",
    )
    .await;
    let shown: Vec<Vec<String>> = shown
        .into_iter()
        .map(|row| row.into_iter().map(Option::unwrap).collect())
        .collect();
    assert_eq!(
        shown[0],
        [
            "12.50",
            "07:05:00",
            "2024-02-29 23:59:59.25",
            "2024-02-29 23:59:59.25+00"
        ]
    );
    assert_eq!(
        shown[1],
        [
            "3.00",
            "12:00:00.000001",
            "1970-01-01 00:00:00",
            "2024-02-29 23:30:00+00"
        ]
    );
    assert_eq!(shown[2][..3], ["-0.01", "24:00:00", "2024-02-29 23:59:59"]);
}

async fn unreadable_stored_values(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(ALL_TYPES).await.unwrap();
    // Stored by a SQLite client: the PostgreSQL port refuses such values.
    server
        .http_query("INSERT INTO everything (d, u, n) VALUES ('someday', 'not-a-uuid', 'lots')")
        .await;

    // Text format sends what is stored.
    let shown = text_rows(&client, "SELECT d, u, n FROM everything").await;
    assert_eq!(
        shown[0],
        ["someday", "not-a-uuid", "lots"].map(|s| Some(s.to_owned()))
    );
    // Binary format cannot, and says so.
    for column in ["d", "u", "n"] {
        let error = client
            .query(&format!("SELECT {column} FROM everything"), &[])
            .await
            .unwrap_err();
        assert_eq!(
            error.code(),
            Some(&SqlState::INVALID_BINARY_REPRESENTATION),
            "{column}: {error:?}"
        );
    }
    // The connection is still usable.
    let row = client
        .query_one("SELECT count(*) FROM everything", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 1);
}

/// Describe announces the type of the column a parameter fills or is compared
/// with, so a driver encodes an int for an integer column without being told.
async fn parameter_types_inferred_from_columns(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();

    // INSERT without a column list: each parameter takes the column at its position.
    let insert = client
        .prepare("INSERT INTO items VALUES ($1, $2, $3, $4, $5, $6)")
        .await
        .unwrap();
    assert_eq!(
        insert.params(),
        &[
            Type::INT4,
            Type::VARCHAR,
            Type::FLOAT8,
            Type::INT8,
            Type::BYTEA,
            Type::BOOL
        ]
    );
    let blob: &[u8] = &[1, 0, 2];
    client
        .execute(&insert, &[&10i32, &"kiwi", &0.5f64, &8i64, &blob, &true])
        .await
        .unwrap();

    // Multi-row VALUES, literals among the parameters, a generated column
    // given its DEFAULT.
    client
        .batch_execute(
            "CREATE TABLE pairs (a bigint, b text, twice bigint GENERATED ALWAYS AS (a * 2) STORED, c boolean)",
        )
        .await
        .unwrap();
    let pairs = client
        .prepare("INSERT INTO pairs VALUES ($1, 'x', DEFAULT, $2), ($3, $4, DEFAULT, false)")
        .await
        .unwrap();
    assert_eq!(
        pairs.params(),
        &[Type::INT8, Type::BOOL, Type::INT8, Type::TEXT]
    );
    client
        .execute(&pairs, &[&7i64, &true, &9i64, &"y"])
        .await
        .unwrap();
    let rows = client
        .query("SELECT a, b, twice, c FROM pairs ORDER BY a", &[])
        .await
        .unwrap();
    let read: Vec<(i64, String, i64, bool)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
        .collect();
    assert_eq!(
        read,
        vec![(7, "x".into(), 14, true), (9, "y".into(), 18, false)]
    );

    // UPDATE ... SET takes the column's type; a comparison the other operand's, where a
    // varchar is text (PostgreSQL has no varchar operators of its own).
    let update = client
        .prepare("UPDATE items SET qty = $1, data = $2 WHERE name = $3 AND id = $4")
        .await
        .unwrap();
    assert_eq!(
        update.params(),
        &[Type::INT8, Type::BYTEA, Type::TEXT, Type::INT4]
    );
    let changed = client
        .execute(&update, &[&99i64, &blob, &"kiwi", &10i32])
        .await
        .unwrap();
    assert_eq!(changed, 1);
    let row = client
        .query_one(
            "SELECT qty, data, price FROM items WHERE id = $1",
            &[&10i32],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 99);
    assert_eq!(row.get::<_, Vec<u8>>(1), blob);
    assert_eq!(row.get::<_, f64>(2), 0.5);

    // More values than the table has columns: the extra parameter is text, as
    // nothing determines its type, and the statement fails with SQLite's error.
    let error = match client
        .prepare("INSERT INTO pairs VALUES ($1, $2, $3, $4)")
        .await
    {
        Ok(statement) => {
            assert_eq!(
                statement.params(),
                &[Type::INT8, Type::TEXT, Type::BOOL, Type::TEXT]
            );
            client
                .execute(&statement, &[&1i64, &"z", &true, &"extra"])
                .await
                .unwrap_err()
        }
        Err(error) => error,
    };
    assert!(error.code().is_some(), "{error:?}");
    assert_eq!(
        client
            .query("SELECT a FROM pairs", &[])
            .await
            .unwrap()
            .len(),
        2
    );
}

/// Bytes sent in binary with no type, as node-postgres sends a Buffer and
/// libpq-based drivers send bytes: whatever the client says they are.
#[derive(Debug)]
struct Untyped(Vec<u8>);

impl ToSql for Untyped {
    fn to_sql(
        &self,
        _: &Type,
        out: &mut bytes::BytesMut,
    ) -> Result<IsNull, Box<dyn std::error::Error + Sync + Send>> {
        out.extend_from_slice(&self.0);
        Ok(IsNull::No)
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// A binary parameter of unspecified type (OID 0) is decoded by the type its
/// use implies, without the client describing the statement first.
async fn unknown_binary_parameters_decoded_by_inferred_type(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();
    let unspecified = Type::new("unknown".into(), 0, Kind::Simple, "pg_catalog".into());
    let bytes = Untyped(vec![0, 159, 146, 150, 255]);
    let id = Untyped(42i32.to_be_bytes().to_vec());
    let qty = Untyped(6_000_000_000i64.to_be_bytes().to_vec());

    for sql in [
        "INSERT INTO items VALUES ($1, 'raw', NULL, $2, $3, NULL)",
        "INSERT INTO items (id, name, qty, data) VALUES ($1, 'raw', $2, $3)",
    ] {
        client
            .query_typed(
                sql,
                &[
                    (&id, unspecified.clone()),
                    (&qty, unspecified.clone()),
                    (&bytes, unspecified.clone()),
                ],
            )
            .await
            .unwrap();
        let rows = client
            .query_typed(
                "SELECT id, qty, data FROM items WHERE data = $1",
                &[(&bytes, unspecified.clone())],
            )
            .await
            .unwrap();
        assert_eq!(rows.len(), 1, "{sql}");
        assert_eq!(rows[0].get::<_, i32>(0), 42);
        assert_eq!(rows[0].get::<_, i64>(1), 6_000_000_000);
        assert_eq!(rows[0].get::<_, Vec<u8>>(2), bytes.0);
        client
            .execute("DELETE FROM items WHERE id = 42", &[])
            .await
            .unwrap();
    }

    // Where nothing determines a type it is text, as in PostgreSQL: bytes that are
    // not UTF-8 are refused with 22P02, and the connection carries on.
    let error = client
        .query_typed("SELECT $1", &[(&bytes, unspecified.clone())])
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(&SqlState::INVALID_TEXT_REPRESENTATION));
    // Wrong-length bytes for an integer column are refused the same way.
    let error = client
        .query_typed(
            "SELECT name FROM items WHERE id = $1",
            &[(&bytes, unspecified.clone())],
        )
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(&SqlState::INVALID_TEXT_REPRESENTATION));
    let rows = client
        .query_typed(
            "SELECT name FROM items WHERE id = $1",
            &[(&Untyped(1i32.to_be_bytes().to_vec()), unspecified)],
        )
        .await
        .unwrap();
    assert_eq!(rows[0].get::<_, &str>(0), "apple");
}

/// Prepares `sql`, checks the parameter types Describe announced, and runs it with
/// `values` (sent in binary, encoded by those types); returns the rows.
async fn prepared_rows(
    client: &Client,
    sql: &str,
    types: &[Type],
    values: &[&(dyn ToSql + Sync)],
) -> Vec<tokio_postgres::Row> {
    let statement = client
        .prepare(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e:?}"));
    assert_eq!(statement.params(), types, "{sql}");
    client
        .query(&statement, values)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e:?}"))
}

/// Parameter types wherever PostgreSQL infers them: the columns a statement
/// stores into, the other operand of an operator, CASE and `coalesce`, the
/// arguments of functions with fixed signatures, subqueries, RETURNING, LIMIT.
/// Each statement then runs with values of those types, in binary.
async fn parameter_types_of_statement_shapes(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();
    client
        .batch_execute(
            "CREATE TABLE archive (id bigint, label text, price numeric(10,2), at timestamptz);
             CREATE TABLE orders (item integer, amount bigint);
             INSERT INTO orders VALUES (1, 3), (3, 40)",
        )
        .await
        .unwrap();
    let at = date(2024, 5, 6).and_time(time(7, 8, 9, 0)).and_utc();

    // INSERT ... SELECT: the select list takes the target columns, the rest
    // the columns of the tables it reads.
    prepared_rows(
        &client,
        "INSERT INTO archive (id, label, price, at) SELECT id + $1, name || $2, $3, $4 FROM items WHERE id = $5",
        &[Type::INT4, Type::TEXT, Type::NUMERIC, Type::TIMESTAMPTZ, Type::INT4],
        &[&100i32, &"-old", &Decimal::from_str("9.99").unwrap(), &at, &1i32],
    )
    .await;
    prepared_rows(
        &client,
        "INSERT INTO archive SELECT $1, $2, $3, $4",
        &[Type::INT8, Type::TEXT, Type::NUMERIC, Type::TIMESTAMPTZ],
        &[
            &7_000_000_000i64,
            &"new",
            &Decimal::from_str("0.50").unwrap(),
            &at,
        ],
    )
    .await;
    let rows = client
        .query(
            "SELECT id, label, price::text, at FROM archive ORDER BY id",
            &[],
        )
        .await
        .unwrap();
    let archived: Vec<(i64, String, String, DateTime<Utc>)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
        .collect();
    assert_eq!(
        archived,
        vec![
            (101, "apple-old".into(), "9.99".into(), at),
            (7_000_000_000, "new".into(), "0.50".into(), at),
        ]
    );

    // ON CONFLICT ... DO UPDATE SET and RETURNING.
    let rows = prepared_rows(
        &client,
        "INSERT INTO items (id, name, qty) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET qty = items.qty + $4, price = $5 RETURNING id, qty, name || $6",
        &[Type::INT4, Type::VARCHAR, Type::INT8, Type::INT8, Type::FLOAT8, Type::TEXT],
        &[&1i32, &"apple", &0i64, &5i64, &2.5f64, &"!"],
    )
    .await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].get::<_, i64>(1), 15);
    assert_eq!(rows[0].get::<_, String>(2), "apple!");

    // Comparisons, arithmetic, LIKE, BETWEEN, IN, coalesce, LIMIT and OFFSET.
    let rows = prepared_rows(
        &client,
        "SELECT id FROM items WHERE qty * $1 > $2 AND name LIKE $3 AND coalesce(price, $4) BETWEEN $5 AND $6 AND id IN ($7, $8) ORDER BY id LIMIT $9 OFFSET $10",
        &[
            Type::INT8,
            Type::INT8,
            Type::TEXT,
            Type::FLOAT8,
            Type::FLOAT8,
            Type::FLOAT8,
            Type::INT4,
            Type::INT4,
            Type::INT8,
            Type::INT8,
        ],
        &[
            &2i64, &10i64, &"%i%", &3.5f64, &3.0f64, &4.0f64, &2i32, &3i32, &5i64, &0i64,
        ],
    )
    .await;
    let ids: Vec<i32> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(ids, vec![3]);

    // CASE, `||`, functions with fixed signatures and with their argument's type.
    let rows = prepared_rows(
        &client,
        "SELECT CASE WHEN id = $1 THEN $2 ELSE name END, $3 || name, upper($4) FROM items WHERE length(name) > $5 AND abs(qty) >= $6 ORDER BY id",
        &[Type::INT4, Type::VARCHAR, Type::TEXT, Type::TEXT, Type::INT4, Type::INT8],
        &[&3i32, &"FIG", &"a ", &"x", &3i32, &7i64],
    )
    .await;
    let read: Vec<(String, String, String)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect();
    assert_eq!(
        read,
        vec![
            ("apple".into(), "a apple".into(), "X".into()),
            ("pear".into(), "a pear".into(), "X".into()),
        ]
    );

    // Subqueries: their own tables first, then the outer query's.
    let rows = prepared_rows(
        &client,
        "SELECT name FROM items WHERE id IN (SELECT item FROM orders WHERE amount > $1) AND qty < (SELECT max(amount) FROM orders) + $2 ORDER BY id",
        &[Type::INT8, Type::INT8],
        &[&5i64, &0i64],
    )
    .await;
    let names: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(names, vec!["fig"]);

    // Columns of WITH queries and derived tables have the types of what they select.
    let rows = prepared_rows(
        &client,
        "WITH o AS (SELECT item, amount * 2 AS twice FROM orders) SELECT i.name FROM items i JOIN o ON o.item = i.id WHERE o.twice > $1 AND i.id IN (SELECT x.item FROM (SELECT item FROM orders WHERE amount < $2) AS x) ORDER BY i.id",
        &[Type::INT8, Type::INT8],
        &[&10i64, &50i64],
    )
    .await;
    let names: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(names, vec!["fig"]);

    // UPDATE with arithmetic on the assigned column and RETURNING.
    let rows = prepared_rows(
        &client,
        "UPDATE items SET price = price * $1 WHERE ok = $2 AND price IS NOT NULL RETURNING id",
        &[Type::FLOAT8, Type::BOOL],
        &[&2.0f64, &true],
    )
    .await;
    assert_eq!(rows.len(), 2);

    // Row values, assigned and compared element by element.
    let rows = prepared_rows(
        &client,
        "UPDATE items SET (qty, price) = ($1, $2) WHERE (id, name) = ($3, $4) RETURNING id",
        &[Type::INT8, Type::FLOAT8, Type::INT4, Type::TEXT],
        &[&1i64, &0.25f64, &2i32, &"pear"],
    )
    .await;
    assert_eq!(rows.len(), 1);

    // Casts name the type; nothing else typing a parameter leaves it text.
    prepared_rows(
        &client,
        "SELECT $1::date < '2025-01-01', $2::timestamptz, $3, substr($4, $5)",
        &[
            Type::DATE,
            Type::TIMESTAMPTZ,
            Type::TEXT,
            Type::TEXT,
            Type::INT4,
        ],
        &[&date(2024, 2, 29), &at, &"t", &"abc", &2i32],
    )
    .await;
}

/// `x = ANY($1)` takes an array of `x`'s type, sent in binary or as text.
async fn array_parameters_for_any(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();

    let names =
        |rows: Vec<tokio_postgres::Row>| -> Vec<String> { rows.iter().map(|r| r.get(0)).collect() };
    let rows = prepared_rows(
        &client,
        "SELECT name FROM items WHERE id = ANY($1) ORDER BY id",
        &[Type::INT4_ARRAY],
        &[&vec![3i32, 1, 99]],
    )
    .await;
    assert_eq!(names(rows), vec!["apple", "fig"]);
    let rows = prepared_rows(
        &client,
        "SELECT name FROM items WHERE qty = ANY($1) OR name = ANY($2)",
        &[Type::INT8_ARRAY, Type::TEXT_ARRAY],
        &[&vec![5_000_000_000i64], &vec!["no such", "fig"]],
    )
    .await;
    let mut found = names(rows);
    found.sort();
    assert_eq!(found, vec!["fig", "pear"]);
    let rows = prepared_rows(
        &client,
        "SELECT count(*) FROM items WHERE ok = ANY($1)",
        &[Type::BOOL_ARRAY],
        &[&vec![false]],
    )
    .await;
    assert_eq!(rows[0].get::<_, i64>(0), 1);
    // An empty array matches nothing; a NULL element matches nothing either.
    let rows = prepared_rows(
        &client,
        "SELECT name FROM items WHERE id = ANY($1)",
        &[Type::INT4_ARRAY],
        &[&Vec::<Option<i32>>::new()],
    )
    .await;
    assert!(rows.is_empty());
    let rows = prepared_rows(
        &client,
        "SELECT name FROM items WHERE id = ANY($1)",
        &[Type::INT4_ARRAY],
        &[&vec![None, Some(2i32)]],
    )
    .await;
    assert_eq!(names(rows), vec!["pear"]);

    // The same array as text, with its type given by the client.
    let statement = client
        .prepare_typed(
            "SELECT name FROM items WHERE id = ANY($1) ORDER BY id",
            &[Type::TEXT],
        )
        .await
        .unwrap();
    let rows = client.query(&statement, &[&"{2, 3}"]).await.unwrap();
    assert_eq!(names(rows), vec!["pear", "fig"]);

    // Untyped (OID 0) and binary: decoded as the inferred int4[].
    let unspecified = Type::new("unknown".into(), 0, Kind::Simple, "pg_catalog".into());
    let mut raw: Vec<u8> = [1i32, 0, 23, 1, 1]
        .iter()
        .flat_map(|w| w.to_be_bytes())
        .collect();
    raw.extend(4i32.to_be_bytes());
    raw.extend(2i32.to_be_bytes());
    let rows = client
        .query_typed(
            "SELECT name FROM items WHERE id = ANY($1)",
            &[(&Untyped(raw), unspecified)],
        )
        .await
        .unwrap();
    assert_eq!(names(rows), vec!["pear"]);

    // A malformed array is refused with 22P02 and the connection carries on.
    let error = client
        .query_typed(
            "SELECT name FROM items WHERE id = ANY($1)",
            &[(&Untyped(vec![0, 0, 0, 1]), Type::INT4_ARRAY)],
        )
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(&SqlState::INVALID_TEXT_REPRESENTATION));
    assert_eq!(
        client.query("SELECT 1", &[]).await.unwrap()[0].get::<_, i32>(0),
        1
    );
}

/// `set_config()` and `current_setting()` are functions like any other: in a
/// select list beside others, with parameters, and changing what `SHOW` sees
/// with `SET`'s transaction rules.
async fn settings_functions_anywhere_in_a_query(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    let show = |name: &'static str| {
        let client = &client;
        async move {
            let rows = client.simple_query(&format!("SHOW {name}")).await.unwrap();
            match &rows[1] {
                SimpleQueryMessage::Row(row) => row.get(0).unwrap().to_owned(),
                other => panic!("SHOW answered {other:?}"),
            }
        }
    };
    // asyncpg's first query before its type introspection, and its last.
    let row = client
        .query_one(
            "SELECT current_setting('jit') AS cur, set_config('jit', 'on', false) AS new",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(
        (row.get::<_, String>("cur"), row.get::<_, String>("new")),
        ("off".to_owned(), "on".to_owned())
    );
    assert_eq!(show("jit").await, "on");
    let restored: String = client
        .query_one("SELECT set_config('jit', $1, false)", &[&"off"])
        .await
        .unwrap()
        .get(0);
    assert_eq!(restored, "off");
    assert_eq!(show("jit").await, "off");

    // Per row, with values from the query; a custom setting is known once set.
    let rows = client
        .query(
            "SELECT set_config('app.last', name, false) FROM (SELECT 'a' AS name UNION ALL SELECT 'b') ORDER BY 1",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(show("app.last").await, "b");
    let missing: Option<String> = client
        .query_one("SELECT current_setting('app.never_set', true)", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(missing, None);

    // is_local lasts until the transaction ends; a rolled-back one undoes it all.
    client.batch_execute("BEGIN").await.unwrap();
    client
        .query_one("SELECT set_config('app.last', 'local', true)", &[])
        .await
        .unwrap();
    assert_eq!(show("app.last").await, "local");
    client.batch_execute("COMMIT").await.unwrap();
    assert_eq!(show("app.last").await, "b");
    client.batch_execute("BEGIN").await.unwrap();
    client
        .query_one(
            "SELECT pg_catalog.set_config('app.last', 'gone', false)",
            &[],
        )
        .await
        .unwrap();
    client.batch_execute("ROLLBACK").await.unwrap();
    assert_eq!(show("app.last").await, "b");

    // Describing a statement changes nothing.
    client
        .prepare("SELECT set_config('app.last', 'described', false)")
        .await
        .unwrap();
    assert_eq!(show("app.last").await, "b");

    // The SQLSTATEs SET and SHOW answer with.
    let error = client
        .query_one("SELECT current_setting('no_such_setting')", &[])
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(&SqlState::UNDEFINED_OBJECT), "{error}");
    let error = client
        .query_one("SELECT 1, set_config('server_version', '1', false)", &[])
        .await
        .unwrap_err();
    assert_eq!(
        error.code(),
        Some(&SqlState::CANT_CHANGE_RUNTIME_PARAM),
        "{error}"
    );
}

/// Arrays of every common element type, bound as binary parameters and read
/// back as binary results: from array columns, `array_agg` and `ARRAY[...]`.
async fn arrays_round_trip_in_binary(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute(
            "CREATE TABLE arrays (id integer PRIMARY KEY, i2 smallint[], i4 int[], i8 bigint[], \
             f4 float4[], f8 double precision[], b boolean[], t text[], v varchar[], \
             by bytea[], n numeric[], d date[], ts timestamp[], tz timestamptz[], u uuid[], \
             j jsonb[])",
        )
        .await
        .unwrap();
    let i2 = vec![Some(1i16), None, Some(-32768)];
    let i4 = vec![Some(7i32), Some(i32::MIN)];
    let i8 = vec![Some(5_000_000_000i64)];
    let f4 = vec![Some(1.5f32), Some(f32::INFINITY)];
    let f8 = vec![Some(-2.25e-10f64), None];
    let b = vec![Some(true), Some(false), None];
    let t = vec![
        Some("plain".to_owned()),
        Some("with, comma".to_owned()),
        Some(String::new()),
        Some("NULL".to_owned()),
        Some("q\"uote\\".to_owned()),
        None,
    ];
    let v = vec![Some("héllo".to_owned())];
    let by = vec![Some(vec![0u8, 1, 255]), Some(Vec::new()), None];
    let n = vec![
        Some(Decimal::from_str("12.50").unwrap()),
        Some(Decimal::from(-3)),
    ];
    let d = vec![Some(date(2024, 2, 29)), Some(date(1999, 12, 31))];
    let ts = vec![Some(date(2000, 1, 1).and_time(time(10, 0, 0, 500_000)))];
    let tz: Vec<Option<DateTime<Utc>>> =
        vec![Some(date(1970, 1, 1).and_time(time(0, 0, 1, 0)).and_utc())];
    let u = vec![Some(Uuid::from_u128(
        0xa0ee_bc99_9c0b_4ef8_bb6d_6bb9_bd38_0a11,
    ))];
    let j = vec![Some(json!({"a": [1, null]})), Some(json!("s"))];
    client
        .execute(
            "INSERT INTO arrays VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)",
            &[&1i32, &i2, &i4, &i8, &f4, &f8, &b, &t, &v, &by, &n, &d, &ts, &tz, &u, &j],
        )
        .await
        .unwrap();
    let row = client
        .query_one("SELECT * FROM arrays WHERE id = 1", &[])
        .await
        .unwrap();
    assert_eq!(row.columns()[2].type_(), &Type::INT4_ARRAY);
    assert_eq!(row.get::<_, Vec<Option<i16>>>("i2"), i2);
    assert_eq!(row.get::<_, Vec<Option<i32>>>("i4"), i4);
    assert_eq!(row.get::<_, Vec<Option<i64>>>("i8"), i8);
    assert_eq!(row.get::<_, Vec<Option<f32>>>("f4"), f4);
    assert_eq!(row.get::<_, Vec<Option<f64>>>("f8"), f8);
    assert_eq!(row.get::<_, Vec<Option<bool>>>("b"), b);
    assert_eq!(row.get::<_, Vec<Option<String>>>("t"), t);
    assert_eq!(row.get::<_, Vec<Option<String>>>("v"), v);
    assert_eq!(row.get::<_, Vec<Option<Vec<u8>>>>("by"), by);
    assert_eq!(row.get::<_, Vec<Option<Decimal>>>("n"), n);
    assert_eq!(row.get::<_, Vec<Option<NaiveDate>>>("d"), d);
    assert_eq!(row.get::<_, Vec<Option<NaiveDateTime>>>("ts"), ts);
    assert_eq!(row.get::<_, Vec<Option<DateTime<Utc>>>>("tz"), tz);
    assert_eq!(row.get::<_, Vec<Option<Uuid>>>("u"), u);
    assert_eq!(row.get::<_, Vec<Option<Json>>>("j"), j);

    // The same values in text, as PostgreSQL prints them.
    let text = text_rows(&client, "SELECT b, t, by FROM arrays").await;
    assert_eq!(
        text[0],
        vec![
            Some("{t,f,NULL}".to_owned()),
            Some(r#"{plain,"with, comma","","NULL","q\"uote\\",NULL}"#.to_owned()),
            Some(r#"{"\\x0001ff","\\x",NULL}"#.to_owned()),
        ]
    );

    // Arrays the query builds.
    client
        .batch_execute("INSERT INTO arrays (id) VALUES (2), (3)")
        .await
        .unwrap();
    let row = client
        .query_one(
            "SELECT array_agg(id::int ORDER BY id), array_agg(CAST(id AS text) ORDER BY id DESC), \
             ARRAY[1, 2], ARRAY['x', NULL], ARRAY[true] FROM arrays",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, Vec<i32>>(0), vec![1, 2, 3]);
    assert_eq!(row.get::<_, Vec<String>>(1), vec!["3", "2", "1"]);
    assert_eq!(row.get::<_, Vec<i32>>(2), vec![1, 2]);
    assert_eq!(
        row.get::<_, Vec<Option<String>>>(3),
        vec![Some("x".into()), None]
    );
    assert_eq!(row.get::<_, Vec<bool>>(4), vec![true]);
    // An empty array, and one compared whole as a parameter.
    let empty: Vec<i32> = client
        .query_one("SELECT i4 FROM arrays WHERE id = $1", &[&1i32])
        .await
        .unwrap()
        .get::<_, Vec<i32>>(0)
        .into_iter()
        .filter(|x| *x > 100)
        .collect();
    assert!(empty.is_empty());
    client
        .execute(
            "UPDATE arrays SET i4 = $1 WHERE id = 2",
            &[&Vec::<i32>::new()],
        )
        .await
        .unwrap();
    let row = client
        .query_one("SELECT i4 FROM arrays WHERE id = 2", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, Vec<i32>>(0), Vec::<i32>::new());
    let id: i32 = client
        .query_one("SELECT id FROM arrays WHERE i8 = $1", &[&i8])
        .await
        .unwrap()
        .get(0);
    assert_eq!(id, 1);

    // A stored value that is no array is refused in binary, not sent wrong.
    client
        .batch_execute("INSERT INTO arrays (id, i4) VALUES (4, 'not an array')")
        .await
        .unwrap();
    let error = client
        .query_one("SELECT i4 FROM arrays WHERE id = 4", &[])
        .await
        .unwrap_err();
    assert_eq!(error.code().map(SqlState::code), Some("22P03"), "{error}");
}

/// `$1::bool` answers a boolean in both formats; dates and timestamps keep
/// PostgreSQL's `infinity` and `-infinity`.
async fn casts_to_bool_and_infinite_dates(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    let row = client
        .query_one(
            "SELECT $1::bool, CAST($2 AS boolean), 'on'::bool",
            &[&true, &false],
        )
        .await
        .unwrap();
    assert_eq!(row.columns()[0].type_(), &Type::BOOL);
    assert_eq!(
        (
            row.get::<_, bool>(0),
            row.get::<_, bool>(1),
            row.get::<_, bool>(2)
        ),
        (true, false, true)
    );
    let text = text_rows(&client, "SELECT 1::bool, (0)::boolean, 'no'::bool").await;
    assert_eq!(
        text[0],
        vec![
            Some("t".to_owned()),
            Some("f".to_owned()),
            Some("f".to_owned())
        ]
    );

    client
        .batch_execute(
            "CREATE TABLE spans (k integer, d date, ts timestamp, tz timestamptz); \
             INSERT INTO spans VALUES (1, 'infinity', '+Infinity', 'infinity'), \
             (2, '-infinity', '-infinity', '-INFINITY'), (3, '2024-01-01', '2024-01-01', '2024-01-01')",
        )
        .await
        .unwrap();
    let text = text_rows(&client, "SELECT d, ts, tz FROM spans ORDER BY d").await;
    let strings = |v: &[&str]| v.iter().map(|s| Some((*s).to_owned())).collect::<Vec<_>>();
    assert_eq!(text[0], strings(&["-infinity", "-infinity", "-infinity"]));
    assert_eq!(text[2], strings(&["infinity", "infinity", "infinity"]));
    // Binary: the int4 and int8 extremes PostgreSQL sends for them.
    let rows = client
        .query("SELECT d, ts FROM spans WHERE k < 3 ORDER BY k", &[])
        .await
        .unwrap();
    let raw = |row: &tokio_postgres::Row, i| row.get::<_, Raw>(i).0;
    assert_eq!(raw(&rows[0], 0), i32::MAX.to_be_bytes());
    assert_eq!(raw(&rows[1], 0), i32::MIN.to_be_bytes());
    assert_eq!(raw(&rows[0], 1), i64::MAX.to_be_bytes());
    assert_eq!(raw(&rows[1], 1), i64::MIN.to_be_bytes());
}

/// A result value's bytes as they came, whatever its type.
struct Raw(Vec<u8>);

impl<'a> tokio_postgres::types::FromSql<'a> for Raw {
    fn from_sql(_: &Type, raw: &'a [u8]) -> Result<Self, Box<dyn std::error::Error + Sync + Send>> {
        Ok(Raw(raw.to_vec()))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// `COMMENT ON` keeps descriptions: `obj_description`, `col_description` and
/// psql's `\d+` show them, in the caller's transaction, and the file keeps them.
async fn comments_are_kept_and_described(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _conn) = server.connect().await;
    client
        .batch_execute(
            "CREATE TABLE items (id integer PRIMARY KEY, name text); \
             COMMENT ON TABLE public.items IS 'Things we sell'; \
             COMMENT ON COLUMN items.name IS 'What it''s called'; \
             CREATE VIEW cheap AS SELECT id FROM items; \
             COMMENT ON VIEW cheap IS 'a view'",
        )
        .await
        .unwrap();
    let descriptions = |sql: &'static str| {
        let client = &client;
        async move {
            let row = client.query_one(sql, &[]).await.unwrap();
            (0..row.len())
                .map(|i| row.get::<_, Option<String>>(i))
                .collect::<Vec<_>>()
        }
    };
    let all = "SELECT obj_description('items'::regclass, 'pg_class'), \
               col_description('items'::regclass, 2), col_description('items'::regclass, 1), \
               obj_description('cheap'::regclass), obj_description('items'::regclass, 'pg_namespace')";
    assert_eq!(
        descriptions(all).await,
        vec![
            Some("Things we sell".to_owned()),
            Some("What it's called".to_owned()),
            None,
            Some("a view".to_owned()),
            None
        ]
    );
    let out = server.psql(&["-c", "\\dt+ items", "-c", "\\d+ items"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(shown.contains("| Things we sell"), "{shown}");
    assert!(shown.contains("| What it's called"), "{shown}");

    // Rolled back with the transaction; dropped by NULL or ''.
    client
        .batch_execute("BEGIN; COMMENT ON TABLE items IS 'changed'; ROLLBACK")
        .await
        .unwrap();
    client
        .batch_execute("COMMENT ON COLUMN items.name IS NULL; COMMENT ON VIEW cheap IS ''")
        .await
        .unwrap();
    assert_eq!(
        descriptions(all).await,
        vec![Some("Things we sell".to_owned()), None, None, None, None]
    );
    // The objects must exist; comments on other kinds of objects are accepted.
    let error = client
        .batch_execute("COMMENT ON TABLE nope IS 'x'")
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(&SqlState::UNDEFINED_TABLE), "{error}");
    let error = client
        .batch_execute("COMMENT ON COLUMN items.nope IS 'x'")
        .await
        .unwrap_err();
    assert_eq!(error.code(), Some(&SqlState::UNDEFINED_COLUMN), "{error}");
    client
        .batch_execute("COMMENT ON SCHEMA public IS 'standard public schema'")
        .await
        .unwrap();
    // litewire's table of comments stays out of the catalog.
    let tables: i64 = client
        .query_one(
            "SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'litewire%'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(tables, 0);
}
