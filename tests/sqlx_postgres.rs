//! sqlx's PostgreSQL driver against a real litewire process.
//!
//! sqlx prepares every query with `query`/`query_as` (Parse, Describe, then
//! Bind with binary parameters of the types Describe announced) and asks for
//! every result column in binary; `raw_sql` uses the simple protocol, whose
//! results are text. Every expectation is what PostgreSQL 15 answers to the
//! same statements.

mod common;

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};
use common::TestServer;
use rust_decimal::Decimal;
use serde_json::{Value as Json, json};
use sqlx::postgres::{PgPool, PgPoolOptions, PgRow};
use sqlx::{Column, Connection, Executor, Row, Statement, TypeInfo};
use uuid::Uuid;

in_both_cache_modes!(
    connect_and_ddl,
    typed_round_trips_binary,
    typed_round_trips_text,
    fetch_all_one_optional,
    statement_shapes,
    transactions,
    errors,
    metadata
);

async fn pool(server: &TestServer) -> PgPool {
    let url = format!(
        "postgres://postgres@127.0.0.1:{}/litewire?sslmode=disable",
        server.pg.port()
    );
    PgPoolOptions::new()
        .max_connections(3)
        .connect(&url)
        .await
        .expect("connect with sqlx's PgPool")
}

async fn connect_and_ddl(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let pool = pool(&server).await;
    let one: i32 = sqlx::query_scalar("SELECT 1::int4")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(one, 1);
    let database: String = sqlx::query_scalar("SELECT current_database()")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(database, "litewire");
    let created = sqlx::query("CREATE TABLE probe (id serial PRIMARY KEY, v text)")
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(created.rows_affected(), 0);
    let inserted = sqlx::query("INSERT INTO probe (v) VALUES ($1), ($2)")
        .bind("a")
        .bind("b")
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(inserted.rows_affected(), 2);
    // Several statements in one string go through the simple protocol.
    sqlx::raw_sql("CREATE INDEX probe_v ON probe (v); DROP INDEX probe_v; DROP TABLE probe")
        .execute(&pool)
        .await
        .unwrap();
    let left: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM information_schema.tables WHERE table_name = 'probe'",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(left, 0);
    pool.close().await;
}

const TYPED_DDL: &str = "CREATE TABLE typed (
    k integer PRIMARY KEY, i2 smallint, i4 integer, i8 bigint, f8 double precision,
    n numeric(12,2), t text, vc varchar(20), b boolean, by bytea, d date, ts timestamp,
    tz timestamptz, u uuid, j json, jb jsonb)";

/// One row of `typed`, in the driver's own types.
#[derive(Debug, Clone, PartialEq)]
struct Typed {
    k: i32,
    i2: Option<i16>,
    i4: Option<i32>,
    i8: Option<i64>,
    f8: Option<f64>,
    n: Option<Decimal>,
    t: Option<String>,
    vc: Option<String>,
    b: Option<bool>,
    by: Option<Vec<u8>>,
    d: Option<NaiveDate>,
    ts: Option<NaiveDateTime>,
    tz: Option<DateTime<Utc>>,
    u: Option<Uuid>,
    j: Option<Json>,
    jb: Option<Json>,
}

/// By column name, as `#[derive(FromRow)]` would read it.
impl sqlx::FromRow<'_, PgRow> for Typed {
    fn from_row(row: &PgRow) -> Result<Self, sqlx::Error> {
        Ok(Typed {
            k: row.try_get("k")?,
            i2: row.try_get("i2")?,
            i4: row.try_get("i4")?,
            i8: row.try_get("i8")?,
            f8: row.try_get("f8")?,
            n: row.try_get("n")?,
            t: row.try_get("t")?,
            vc: row.try_get("vc")?,
            b: row.try_get("b")?,
            by: row.try_get("by")?,
            d: row.try_get("d")?,
            ts: row.try_get("ts")?,
            tz: row.try_get("tz")?,
            u: row.try_get("u")?,
            j: row.try_get("j")?,
            jb: row.try_get("jb")?,
        })
    }
}

fn typed_rows() -> Vec<Typed> {
    let date = |y, m, d| NaiveDate::from_ymd_opt(y, m, d).unwrap();
    vec![
        Typed {
            k: 1,
            i2: Some(-12_345),
            i4: Some(2_000_000_000),
            i8: Some(-9_000_000_000_000),
            f8: Some(-2.25e-10),
            n: Some("12345678.90".parse().unwrap()),
            t: Some("héllo, wörld".into()),
            vc: Some("short".into()),
            b: Some(true),
            by: Some(vec![0, 1, 0xff, b'\\']),
            d: Some(date(2024, 2, 29)),
            ts: Some(
                date(1999, 12, 31)
                    .and_hms_micro_opt(23, 59, 59, 999_999)
                    .unwrap(),
            ),
            tz: Some(
                date(2024, 1, 1)
                    .and_hms_milli_opt(10, 0, 0, 500)
                    .unwrap()
                    .and_utc(),
            ),
            u: Some(Uuid::parse_str("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11").unwrap()),
            j: Some(json!({"a": [1, 2, null], "b": "x"})),
            jb: Some(json!({"nested": {"ok": true}})),
        },
        Typed {
            k: 2,
            i2: Some(i16::MAX),
            i4: Some(i32::MIN),
            i8: Some(i64::MAX),
            f8: Some(1e300),
            n: Some("-0.05".parse().unwrap()),
            t: Some(String::new()),
            vc: Some("O'Brien".into()),
            b: Some(false),
            by: Some(Vec::new()),
            d: Some(date(1, 1, 2)),
            ts: Some(date(2000, 1, 1).and_hms_opt(0, 0, 0).unwrap()),
            tz: Some(date(1970, 1, 1).and_hms_opt(0, 0, 0).unwrap().and_utc()),
            u: Some(Uuid::nil()),
            j: Some(json!([])),
            jb: Some(json!({})),
        },
        Typed {
            k: 3,
            i2: None,
            i4: None,
            i8: None,
            f8: None,
            n: None,
            t: None,
            vc: None,
            b: None,
            by: None,
            d: None,
            ts: None,
            tz: None,
            u: None,
            j: None,
            jb: None,
        },
    ]
}

/// Creates `typed` and fills it with `typed_rows()`, every value a typed bind
/// (binary), through an INSERT without a column list.
async fn fill_typed(pool: &PgPool) {
    sqlx::query(TYPED_DDL).execute(pool).await.unwrap();
    let insert = "INSERT INTO typed VALUES \
                  ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)";
    for row in typed_rows() {
        sqlx::query(insert)
            .bind(row.k)
            .bind(row.i2)
            .bind(row.i4)
            .bind(row.i8)
            .bind(row.f8)
            .bind(row.n)
            .bind(&row.t)
            .bind(&row.vc)
            .bind(row.b)
            .bind(&row.by)
            .bind(row.d)
            .bind(row.ts)
            .bind(row.tz)
            .bind(row.u)
            .bind(&row.j)
            .bind(row.jb.clone().map(sqlx::types::Json))
            .execute(pool)
            .await
            .unwrap();
    }
}

async fn typed_round_trips_binary(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let pool = pool(&server).await;
    fill_typed(&pool).await;
    let rows: Vec<Typed> = sqlx::query_as("SELECT * FROM typed ORDER BY k")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(rows, typed_rows());

    // Binds of each type in a WHERE clause find their row again.
    let first = &typed_rows()[0];
    let found: i32 = sqlx::query_scalar(
        "SELECT k FROM typed WHERE i2 = $1 AND i8 = $2 AND f8 = $3 AND n = $4 AND by = $5 \
         AND d = $6 AND ts = $7 AND tz = $8 AND u = $9 AND b = $10 AND vc = $11",
    )
    .bind(first.i2)
    .bind(first.i8)
    .bind(first.f8)
    .bind(first.n)
    .bind(&first.by)
    .bind(first.d)
    .bind(first.ts)
    .bind(first.tz)
    .bind(first.u)
    .bind(first.b)
    .bind(&first.vc)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(found, 1);

    // A column list in another order, and casts of binds.
    sqlx::query("INSERT INTO typed (u, k, t, n) VALUES ($1, $2, $3, $4)")
        .bind(Uuid::from_u128(7))
        .bind(4_i32)
        .bind("four")
        .bind(Decimal::new(1234, 3))
        .execute(&pool)
        .await
        .unwrap();
    let (u, t, n): (Uuid, String, Decimal) =
        sqlx::query_as("SELECT u, t, n FROM typed WHERE k = $1")
            .bind(4_i32)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(
        (u, t.as_str(), n.to_string().as_str()),
        (Uuid::from_u128(7), "four", "1.23")
    );
    let (sum, text): (i64, String) = sqlx::query_as("SELECT $1::bigint + 1, $2::text || '!'")
        .bind(41_i64)
        .bind("hi")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!((sum, text.as_str()), (42, "hi!"));
    pool.close().await;
}

async fn typed_round_trips_text(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let pool = pool(&server).await;
    fill_typed(&pool).await;
    // raw_sql is the simple protocol: every value comes back as text, and sqlx
    // parses the text of each type.
    let rows: Vec<PgRow> = sqlx::raw_sql("SELECT * FROM typed ORDER BY k")
        .fetch_all(&pool)
        .await
        .unwrap();
    let rows: Vec<Typed> = rows
        .iter()
        .map(|row| <Typed as sqlx::FromRow<PgRow>>::from_row(row).unwrap())
        .collect();
    assert_eq!(rows, typed_rows());

    // Values written as SQL literals read back in binary as the same values.
    sqlx::raw_sql(
        "INSERT INTO typed (k, i2, n, d, tz, u, jb, b) VALUES \
         (10, 7, 3.5, '2024-02-29', '2024-01-01 12:00:00+02', \
          'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11', '{\"x\": 1}', 't')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let row: Typed = sqlx::query_as("SELECT * FROM typed WHERE k = 10")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(row.i2, Some(7));
    assert_eq!(row.n, Some(Decimal::new(350, 2)));
    assert_eq!(row.d, NaiveDate::from_ymd_opt(2024, 2, 29));
    assert_eq!(
        row.tz.map(|t| t.to_rfc3339()).as_deref(),
        Some("2024-01-01T10:00:00+00:00")
    );
    assert_eq!(row.u, typed_rows()[0].u);
    assert_eq!(row.jb, Some(json!({"x": 1})));
    assert_eq!(row.b, Some(true));
    pool.close().await;
}

async fn shapes_schema(pool: &PgPool) {
    sqlx::raw_sql(include_str!("fixtures/statement_shapes.sql"))
        .execute(pool)
        .await
        .unwrap();
}

async fn fetch_all_one_optional(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let pool = pool(&server).await;
    shapes_schema(&pool).await;
    let rows: Vec<(i32, String)> =
        sqlx::query_as("SELECT id, name FROM items WHERE qty > $1 ORDER BY id")
            .bind(8_i64)
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(rows, vec![(1, "apple".into()), (2, "pear".into())]);
    let (name, price): (String, Option<f64>) =
        sqlx::query_as("SELECT name, price FROM items WHERE id = $1")
            .bind(2_i32)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((name.as_str(), price), ("pear", None));
    let none: Option<(String,)> = sqlx::query_as("SELECT name FROM items WHERE id = $1")
        .bind(9_i32)
        .fetch_optional(&pool)
        .await
        .unwrap();
    assert_eq!(none, None);
    let some: Option<i64> = sqlx::query_scalar("SELECT qty FROM items WHERE name = $1")
        .bind("pear")
        .fetch_optional(&pool)
        .await
        .unwrap();
    assert_eq!(some, Some(5_000_000_000));
    let missing = sqlx::query("SELECT 1 FROM items WHERE id = $1")
        .bind(9_i32)
        .fetch_one(&pool)
        .await;
    assert!(
        matches!(missing, Err(sqlx::Error::RowNotFound)),
        "{missing:?}"
    );
    // The same statement many times on one connection: sqlx prepares it once
    // and reuses it.
    let mut conn = pool.acquire().await.unwrap();
    for id in [1_i32, 3, 2, 1] {
        let name: String = sqlx::query_scalar("SELECT name FROM items WHERE id = $1")
            .bind(id)
            .fetch_one(&mut *conn)
            .await
            .unwrap();
        assert_eq!(name, ["apple", "pear", "fig"][id as usize - 1]);
    }
    drop(conn);
    pool.close().await;
}

async fn statement_shapes(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let pool = pool(&server).await;
    shapes_schema(&pool).await;
    let at = NaiveDate::from_ymd_opt(2024, 5, 6)
        .unwrap()
        .and_hms_opt(7, 8, 9)
        .unwrap()
        .and_utc();

    // Multi-row VALUES with and without a column list.
    sqlx::query("INSERT INTO orders (item, amount) VALUES ($1, $2), ($3, $4)")
        .bind(2_i32)
        .bind(1_i64)
        .bind(2_i32)
        .bind(6_000_000_000_i64)
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO orders VALUES ($1, $2), ($3, $4)")
        .bind(9_i32)
        .bind(1_i64)
        .bind(9_i32)
        .bind(2_i64)
        .execute(&pool)
        .await
        .unwrap();
    let total: i64 = sqlx::query_scalar("SELECT sum(amount)::bigint FROM orders WHERE item = $1")
        .bind(2_i32)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(total, 6_000_000_001);

    // INSERT ... SELECT with arithmetic and concatenation on columns.
    sqlx::query(
        "INSERT INTO archive (id, label, price, at) \
         SELECT id + $1, name || $2, $3, $4 FROM items WHERE id = $5",
    )
    .bind(100_i32)
    .bind("-old")
    .bind(Decimal::new(999, 2))
    .bind(at)
    .bind(1_i32)
    .execute(&pool)
    .await
    .unwrap();
    let archived: (i64, String, Decimal, DateTime<Utc>) =
        sqlx::query_as("SELECT id, label, price, at FROM archive")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(
        archived,
        (101, "apple-old".into(), Decimal::new(999, 2), at)
    );

    // ON CONFLICT ... DO UPDATE with RETURNING.
    let upsert = "INSERT INTO items (id, name, qty) VALUES ($1, $2, $3) ON CONFLICT (id) \
                  DO UPDATE SET qty = items.qty + $4, price = $5 RETURNING id, qty, name || $6";
    let row: (i32, i64, String) = sqlx::query_as(upsert)
        .bind(1_i32)
        .bind("apple")
        .bind(0_i64)
        .bind(5_i64)
        .bind(2.5_f64)
        .bind("!")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(row, (1, 15, "apple!".into()));
    let row: (i32, i64, String) = sqlx::query_as(upsert)
        .bind(4_i32)
        .bind("kiwi")
        .bind(2_i64)
        .bind(5_i64)
        .bind(2.5_f64)
        .bind("?")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(row, (4, 2, "kiwi?".into()));

    // Comparisons, col * $1, LIKE, coalesce, BETWEEN, IN, LIMIT/OFFSET.
    let ids: Vec<i32> = sqlx::query_scalar(
        "SELECT id FROM items WHERE qty * $1 > $2 AND name LIKE $3 \
         AND coalesce(price, $4) BETWEEN $5 AND $6 AND id IN ($7, $8) \
         ORDER BY id LIMIT $9 OFFSET $10",
    )
    .bind(2_i64)
    .bind(10_i64)
    .bind("%i%")
    .bind(3.5_f64)
    .bind(3.0_f64)
    .bind(4.0_f64)
    .bind(2_i32)
    .bind(3_i32)
    .bind(5_i64)
    .bind(0_i64)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(ids, vec![3]);

    // CASE, $1 || col, function arguments.
    let rows: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT CASE WHEN id = $1 THEN $2 ELSE name END, $3 || name, upper($4) \
         FROM items WHERE length(name) > $5 AND abs(qty) >= $6 AND id < 4 ORDER BY id",
    )
    .bind(2_i32)
    .bind("PEAR")
    .bind("a ")
    .bind("x")
    .bind(3_i32)
    .bind(7_i64)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(
        rows,
        vec![
            ("apple".into(), "a apple".into(), "X".into()),
            ("PEAR".into(), "a pear".into(), "X".into()),
        ]
    );

    // = ANY($1) with a Rust slice (a text[] parameter).
    let ids: Vec<i32> = sqlx::query_scalar("SELECT id FROM items WHERE name = ANY($1) ORDER BY id")
        .bind(vec!["fig", "apple", "none"])
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(ids, vec![1, 3]);

    // Subqueries.
    let names: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM items WHERE id IN (SELECT item FROM orders WHERE amount > $1) \
         AND qty < (SELECT max(amount) FROM orders WHERE item <> 2) + $2 ORDER BY id",
    )
    .bind(2_i64)
    .bind(0_i64)
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(names, vec!["apple", "fig"]);

    // UPDATE ... SET col = col * $1 ... RETURNING.
    let mut updated: Vec<i32> = sqlx::query_scalar(
        "UPDATE items SET price = price * $1 WHERE ok = $2 AND price IS NOT NULL RETURNING id",
    )
    .bind(2.0_f64)
    .bind(true)
    .fetch_all(&pool)
    .await
    .unwrap();
    updated.sort();
    assert_eq!(updated, vec![1, 3]);
    let price: f64 = sqlx::query_scalar("SELECT price FROM items WHERE id = 3")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(price, 7.0);

    // DELETE ... RETURNING.
    let deleted: Vec<i32> = sqlx::query_scalar("DELETE FROM orders WHERE item = $1 RETURNING item")
        .bind(9_i32)
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(deleted, vec![9, 9]);
    pool.close().await;
}

async fn transactions(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let pool = pool(&server).await;
    sqlx::query("CREATE TABLE ledger (id integer PRIMARY KEY, v text)")
        .execute(&pool)
        .await
        .unwrap();
    let count = || async {
        sqlx::query_scalar::<_, i64>("SELECT count(*) FROM ledger")
            .fetch_one(&pool)
            .await
            .unwrap()
    };

    let mut tx = pool.begin().await.unwrap();
    sqlx::query("INSERT INTO ledger VALUES ($1, $2)")
        .bind(1_i32)
        .bind("rolled back")
        .execute(&mut *tx)
        .await
        .unwrap();
    let inside: i64 = sqlx::query_scalar("SELECT count(*) FROM ledger")
        .fetch_one(&mut *tx)
        .await
        .unwrap();
    assert_eq!(inside, 1);
    tx.rollback().await.unwrap();
    assert_eq!(count().await, 0);

    // A transaction dropped without commit is rolled back too.
    {
        let mut tx = pool.begin().await.unwrap();
        sqlx::query("INSERT INTO ledger VALUES ($1, $2)")
            .bind(1_i32)
            .bind("dropped")
            .execute(&mut *tx)
            .await
            .unwrap();
    }
    assert_eq!(count().await, 0);

    // A nested begin is a savepoint: its rollback keeps the outer work.
    let mut tx = pool.begin().await.unwrap();
    sqlx::query("INSERT INTO ledger VALUES ($1, $2)")
        .bind(1_i32)
        .bind("kept")
        .execute(&mut *tx)
        .await
        .unwrap();
    let mut inner = tx.begin().await.unwrap();
    sqlx::query("INSERT INTO ledger VALUES ($1, $2)")
        .bind(2_i32)
        .bind("undone")
        .execute(&mut *inner)
        .await
        .unwrap();
    let duplicate = sqlx::query("INSERT INTO ledger VALUES ($1, $2)")
        .bind(1_i32)
        .bind("duplicate")
        .execute(&mut *inner)
        .await
        .unwrap_err();
    assert_eq!(
        duplicate.as_database_error().unwrap().code().as_deref(),
        Some("23505")
    );
    inner.rollback().await.unwrap();
    sqlx::query("INSERT INTO ledger VALUES ($1, $2)")
        .bind(3_i32)
        .bind("after")
        .execute(&mut *tx)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let rows: Vec<(i32, String)> = sqlx::query_as("SELECT id, v FROM ledger ORDER BY id")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(rows, vec![(1, "kept".into()), (3, "after".into())]);

    // Connection::transaction commits on Ok.
    let mut conn = pool.acquire().await.unwrap();
    conn.transaction(|tx| {
        Box::pin(async move {
            sqlx::query("INSERT INTO ledger VALUES ($1, $2)")
                .bind(4_i32)
                .bind("closure")
                .execute(&mut **tx)
                .await
        })
    })
    .await
    .unwrap();
    drop(conn);
    assert_eq!(count().await, 3);
    pool.close().await;
}

async fn errors(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let pool = pool(&server).await;
    sqlx::query("CREATE TABLE uniq (id integer PRIMARY KEY, v text NOT NULL)")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO uniq VALUES ($1, $2)")
        .bind(1_i32)
        .bind("a")
        .execute(&pool)
        .await
        .unwrap();
    let code = |result: Result<sqlx::postgres::PgQueryResult, sqlx::Error>| {
        let error = result.expect_err("the statement fails");
        let database = error
            .as_database_error()
            .unwrap_or_else(|| panic!("a database error: {error:?}"));
        database.code().map(|c| c.into_owned())
    };
    let duplicate = sqlx::query("INSERT INTO uniq VALUES ($1, $2)")
        .bind(1_i32)
        .bind("b")
        .execute(&pool)
        .await;
    let error = duplicate.as_ref().unwrap_err().as_database_error().unwrap();
    assert!(error.is_unique_violation(), "{error:?}");
    assert_eq!(code(duplicate).as_deref(), Some("23505"));
    let null = sqlx::query("INSERT INTO uniq VALUES ($1, $2)")
        .bind(2_i32)
        .bind(None::<String>)
        .execute(&pool)
        .await;
    assert_eq!(code(null).as_deref(), Some("23502"));
    let table = sqlx::query("SELECT * FROM no_such_table")
        .execute(&pool)
        .await;
    assert_eq!(code(table).as_deref(), Some("42P01"));
    let syntax = sqlx::query("SELEC 1").execute(&pool).await;
    assert_eq!(
        code(syntax).map(|c| c[..2].to_owned()).as_deref(),
        Some("42")
    );

    // In a failed transaction everything is refused until ROLLBACK (25P02).
    let mut tx = pool.begin().await.unwrap();
    let failed = sqlx::query("SELECT * FROM nope").execute(&mut *tx).await;
    assert_eq!(code(failed).as_deref(), Some("42P01"));
    let refused = sqlx::query("SELECT 1").execute(&mut *tx).await;
    assert_eq!(code(refused).as_deref(), Some("25P02"));
    tx.rollback().await.unwrap();
    let count: i64 = sqlx::query_scalar("SELECT count(*) FROM uniq")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(count, 1);
    pool.close().await;
}

async fn metadata(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let pool = pool(&server).await;
    sqlx::query(TYPED_DDL).execute(&pool).await.unwrap();
    sqlx::query("CREATE TABLE parent (id integer PRIMARY KEY, name text NOT NULL, note text)")
        .execute(&pool)
        .await
        .unwrap();
    let mut conn = pool.acquire().await.unwrap();

    // The column types a prepared statement announces, as sqlx reads them.
    let statement = (&mut *conn)
        .prepare(sqlx::SqlStr::from_static(
            "SELECT * FROM typed WHERE k = $1",
        ))
        .await
        .unwrap();
    let types: Vec<&str> = statement
        .columns()
        .iter()
        .map(|c| c.type_info().name())
        .collect();
    assert_eq!(
        types,
        [
            "INT4",
            "INT2",
            "INT4",
            "INT8",
            "FLOAT8",
            "NUMERIC",
            "TEXT",
            "VARCHAR",
            "BOOL",
            "BYTEA",
            "DATE",
            "TIMESTAMP",
            "TIMESTAMPTZ",
            "UUID",
            "JSON",
            "JSONB"
        ]
    );
    let parameters: Vec<&str> = match statement.parameters() {
        Some(sqlx::Either::Left(types)) => types.iter().map(|t| t.name()).collect(),
        other => panic!("parameter types: {other:?}"),
    };
    assert_eq!(parameters, ["INT4"]);

    // The query sqlx's `describe` (what its query! macros run) reads column
    // nullability with: parenthesised UNION ALL members, casts of binds, a join
    // with pg_attribute by the table oid and column number a RowDescription
    // carries.
    let table: i32 = sqlx::query_scalar("SELECT $1::regclass::oid::int4")
        .bind("parent")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    let nullable: Vec<Option<bool>> = sqlx::query_scalar(
        "SELECT NOT attnotnull FROM ( ( SELECT $1::int4 AS idx, $2::int4 AS table_id, \
         $3::int2 AS col_idx ) UNION ALL ( SELECT $4::int4, $5::int4, $6::int2 ) UNION ALL \
         ( SELECT $7::int4, $8::int4, $9::int2 ) ) AS col LEFT JOIN pg_catalog.pg_attribute \
         ON table_id IS NOT NULL AND attrelid = table_id AND attnum = col_idx ORDER BY idx",
    )
    .bind(0_i32)
    .bind(table)
    .bind(2_i16)
    .bind(1_i32)
    .bind(table)
    .bind(3_i16)
    .bind(2_i32)
    .bind(None::<i32>)
    .bind(None::<i16>)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    assert_eq!(nullable, [Some(false), Some(true), None]);

    // The catalog as an application reads it through sqlx.
    let columns: Vec<(String, String, String)> = sqlx::query_as(
        "SELECT column_name::text, data_type::text, is_nullable::text \
         FROM information_schema.columns WHERE table_name = $1 ORDER BY ordinal_position",
    )
    .bind("parent")
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    assert_eq!(
        columns,
        [
            ("id".into(), "integer".into(), "NO".into()),
            ("name".into(), "text".into(), "NO".into()),
            ("note".into(), "text".into(), "YES".into())
        ]
    );
    let name: String = sqlx::query_scalar("SELECT relname::text FROM pg_class WHERE oid = $1")
        .bind(sqlx::postgres::types::Oid(u32::try_from(table).unwrap()))
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert_eq!(name, "parent");
    let (class, ty): (String, String) =
        sqlx::query_as("SELECT $1::regclass::text, $2::regtype::text")
            .bind("parent")
            .bind("int8")
            .fetch_one(&mut *conn)
            .await
            .unwrap();
    assert_eq!((class.as_str(), ty.as_str()), ("parent", "bigint"));
    drop(conn);
    pool.close().await;
}
