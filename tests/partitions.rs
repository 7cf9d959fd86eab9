//! Declarative partitioning: `PARTITION BY LIST | RANGE | HASH`, `PARTITION
//! OF ... FOR VALUES ... | DEFAULT`, multi-level trees, rows routed through
//! the parent and aimed at a partition, `tableoid`, UPDATE moving rows,
//! `ON CONFLICT` and `RETURNING`, the DDL's checks, `ATTACH PARTITION`,
//! `DROP` and `TRUNCATE` of partitions, and the catalog as psql reads it.
//! Every test passes against PostgreSQL 15 too (`LITEWIRE_TEST_POSTGRES=...
//! cargo test --test partitions -- --include-ignored`).

mod common;

use common::target::Target;
use common::{sqlstate, text_rows};
use tokio_postgres::Client;

against_litewire_and_postgres!(
    rows_go_to_their_partitions,
    statements_aimed_at_a_partition_keep_to_it,
    partition_ddl_is_checked_as_postgres_checks_it,
    hash_partitions_place_rows_as_postgres_does,
    the_catalog_and_psql_describe_partitions,
);

async fn rows(client: &Client, sql: &str) -> Vec<Vec<Option<String>>> {
    text_rows(client, sql).await
}

/// Rows of text values; `""` stands for NULL.
fn table(values: &[&[&str]]) -> Vec<Vec<Option<String>>> {
    values
        .iter()
        .map(|row| {
            row.iter()
                .map(|v| (!v.is_empty()).then(|| (*v).to_owned()))
                .collect()
        })
        .collect()
}

async fn setup(client: &Client, sql: &str) {
    client.batch_execute(sql).await.unwrap();
}

async fn rows_go_to_their_partitions(target: &Target) {
    let client = target.connect().await;
    setup(
        &client,
        "DROP TABLE IF EXISTS measures, cities;
         CREATE TABLE measures (city text NOT NULL, day date NOT NULL, reading int DEFAULT 0)
             PARTITION BY RANGE (day);
         CREATE TABLE measures_2023 PARTITION OF measures FOR VALUES FROM ('2023-01-01') TO ('2024-01-01');
         CREATE TABLE measures_2024 PARTITION OF measures FOR VALUES FROM ('2024-01-01') TO ('2025-01-01');
         CREATE TABLE cities (name text, country text, pop int) PARTITION BY LIST (lower(country));
         CREATE TABLE cities_fr PARTITION OF cities FOR VALUES IN ('fr', 'be');
         CREATE TABLE cities_null PARTITION OF cities FOR VALUES IN (NULL);
         CREATE TABLE cities_de PARTITION OF cities FOR VALUES IN ('de') PARTITION BY RANGE (pop);
         CREATE TABLE cities_de_small PARTITION OF cities_de FOR VALUES FROM (MINVALUE) TO (1000000);
         CREATE TABLE cities_de_big PARTITION OF cities_de FOR VALUES FROM (1000000) TO (MAXVALUE);",
    )
    .await;
    assert_eq!(
        rows(
            &client,
            "INSERT INTO measures (city, day) VALUES ('Lyon', '2023-06-01'), ('Lyon', '2024-02-29')
             RETURNING tableoid::regclass, city, reading"
        )
        .await,
        table(&[
            &["measures_2023", "Lyon", "0"],
            &["measures_2024", "Lyon", "0"]
        ])
    );
    // No partition takes 2025: the row is refused, nothing is stored.
    assert_eq!(
        sqlstate(
            &client,
            "INSERT INTO measures VALUES ('Lyon', '2024-12-31', 1), ('Lyon', '2025-01-01', 2)"
        )
        .await,
        "23514"
    );
    assert_eq!(
        rows(&client, "SELECT count(*) FROM measures").await,
        table(&[&["2"]])
    );
    setup(
        &client,
        "INSERT INTO cities VALUES ('Paris', 'FR', 2100000), ('Liège', 'Be', 190000),
             ('Berlin', 'DE', 3600000), ('Bonn', 'de', 330000), ('Atlantis', NULL, 0)",
    )
    .await;
    assert_eq!(
        rows(
            &client,
            "SELECT tableoid::regclass AS part, name FROM cities ORDER BY name"
        )
        .await,
        table(&[
            &["cities_null", "Atlantis"],
            &["cities_de_big", "Berlin"],
            &["cities_de_small", "Bonn"],
            &["cities_fr", "Liège"],
            &["cities_fr", "Paris"],
        ])
    );
    assert_eq!(
        rows(&client, "SELECT name FROM cities_de ORDER BY name").await,
        table(&[&["Berlin"], &["Bonn"]])
    );
    // A country no partition lists, and no default partition.
    assert_eq!(
        sqlstate(&client, "INSERT INTO cities VALUES ('Roma', 'it', 2800000)").await,
        "23514"
    );
    setup(
        &client,
        "CREATE TABLE cities_other PARTITION OF cities DEFAULT",
    )
    .await;
    setup(&client, "INSERT INTO cities VALUES ('Roma', 'it', 2800000)").await;
    // An UPDATE through the parent moves a row to the partition it now
    // belongs to.
    setup(
        &client,
        "UPDATE cities SET pop = 400000 WHERE name = 'Berlin'",
    )
    .await;
    assert_eq!(
        rows(
            &client,
            "SELECT tableoid::regclass, name FROM cities WHERE name IN ('Berlin', 'Roma') ORDER BY name"
        )
        .await,
        table(&[&["cities_de_small", "Berlin"], &["cities_other", "Roma"]])
    );
    // ON CONFLICT through a unique index of the parent.
    setup(
        &client,
        "CREATE UNIQUE INDEX measures_city_day ON measures (city, day);
         INSERT INTO measures VALUES ('Lyon', '2023-06-01', 5)
             ON CONFLICT (city, day) DO UPDATE SET reading = excluded.reading + 1",
    )
    .await;
    assert_eq!(
        rows(&client, "SELECT reading FROM measures_2023").await,
        table(&[&["6"]])
    );
    setup(&client, "DROP TABLE measures, cities").await;
}

async fn statements_aimed_at_a_partition_keep_to_it(target: &Target) {
    let client = target.connect().await;
    setup(
        &client,
        "DROP TABLE IF EXISTS orders;
         CREATE TABLE orders (id int, region text, total int DEFAULT 10) PARTITION BY LIST (region);
         CREATE TABLE orders_east PARTITION OF orders FOR VALUES IN ('east');
         CREATE TABLE orders_west PARTITION OF orders FOR VALUES IN ('west');
         CREATE TABLE orders_rest PARTITION OF orders DEFAULT;",
    )
    .await;
    // Into a partition: its own rows only (the default takes no row
    // another partition would).
    assert_eq!(
        rows(
            &client,
            "INSERT INTO orders_east (id, region) VALUES (1, 'east') RETURNING *"
        )
        .await,
        table(&[&["1", "east", "10"]])
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO orders_east VALUES (2, 'west', 5)").await,
        "23514"
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO orders_rest VALUES (2, 'west', 5)").await,
        "23514"
    );
    setup(
        &client,
        "INSERT INTO orders_rest VALUES (3, 'north', 7);
         INSERT INTO orders_west SELECT 4, 'west', 8;
         INSERT INTO orders VALUES (5, 'west', 9);",
    )
    .await;
    // UPDATE and DELETE reach the partition's rows only.
    assert_eq!(
        client
            .execute("UPDATE orders_west SET total = total + 100", &[])
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        sqlstate(
            &client,
            "UPDATE orders_west SET region = 'east' WHERE id = 4"
        )
        .await,
        "23514"
    );
    assert_eq!(
        client
            .execute("DELETE FROM orders_rest WHERE total > 0", &[])
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        rows(
            &client,
            "SELECT tableoid::regclass, id, total FROM orders ORDER BY id"
        )
        .await,
        table(&[
            &["orders_east", "1", "10"],
            &["orders_west", "4", "108"],
            &["orders_west", "5", "109"]
        ])
    );
    // With parameters, through the extended protocol.
    let inserted = client
        .execute(
            "INSERT INTO orders_east (id, region, total) VALUES ($1, $2, $3)",
            &[&6i32, &"east", &1i32],
        )
        .await
        .unwrap();
    assert_eq!(inserted, 1);
    setup(&client, "TRUNCATE orders_west").await;
    assert_eq!(
        rows(&client, "SELECT id FROM orders ORDER BY id").await,
        table(&[&["1"], &["6"]])
    );
    // Dropping a partition drops its rows with it.
    setup(&client, "DROP TABLE orders_east").await;
    assert_eq!(
        rows(&client, "SELECT count(*) FROM orders").await,
        table(&[&["0"]])
    );
    setup(&client, "INSERT INTO orders VALUES (7, 'east', 1)").await;
    assert_eq!(
        rows(&client, "SELECT tableoid::regclass FROM orders").await,
        table(&[&["orders_rest"]])
    );
    setup(&client, "DROP TABLE orders").await;
}

async fn partition_ddl_is_checked_as_postgres_checks_it(target: &Target) {
    let client = target.connect().await;
    setup(
        &client,
        "DROP TABLE IF EXISTS events, plain_events, not_parted;
         CREATE TABLE events (kind text, at int) PARTITION BY RANGE (at);
         CREATE TABLE events_low PARTITION OF events FOR VALUES FROM (0) TO (100);
         CREATE TABLE not_parted (a int);",
    )
    .await;
    for (sql, state) in [
        // Overlapping ranges, an empty one, and a bound of another strategy.
        (
            "CREATE TABLE events_x PARTITION OF events FOR VALUES FROM (50) TO (150)",
            "42P17",
        ),
        (
            "CREATE TABLE events_x PARTITION OF events FOR VALUES FROM (200) TO (200)",
            "42P17",
        ),
        (
            "CREATE TABLE events_x PARTITION OF events FOR VALUES IN (1)",
            "42P16",
        ),
        (
            "CREATE TABLE events_x PARTITION OF events FOR VALUES FROM (1, 2) TO (3, 4)",
            "42P16",
        ),
        (
            "CREATE TABLE events_x PARTITION OF not_parted FOR VALUES IN (1)",
            "42P17",
        ),
        (
            "CREATE TABLE events_x PARTITION OF no_such_table FOR VALUES IN (1)",
            "42P01",
        ),
        (
            "CREATE TABLE events_low PARTITION OF events FOR VALUES FROM (500) TO (600)",
            "42P07",
        ),
        ("CREATE TABLE bad (a int) PARTITION BY LIST (a, a)", "42P17"),
        ("CREATE TABLE bad (a int) PARTITION BY RANGE (b)", "42703"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    // A default partition's rows that a new partition would take keep it
    // from being made.
    setup(
        &client,
        "CREATE TABLE events_other PARTITION OF events DEFAULT;
         INSERT INTO events VALUES ('a', 150), ('b', 5)",
    )
    .await;
    assert_eq!(
        sqlstate(
            &client,
            "CREATE TABLE events_mid PARTITION OF events FOR VALUES FROM (100) TO (200)"
        )
        .await,
        "23514"
    );
    assert_eq!(
        sqlstate(
            &client,
            "CREATE TABLE events_d2 PARTITION OF events DEFAULT"
        )
        .await,
        "42P17"
    );
    setup(
        &client,
        "CREATE TABLE events_high PARTITION OF events FOR VALUES FROM (1000) TO (MAXVALUE)",
    )
    .await;
    // ATTACH PARTITION: a table whose rows fit, then one whose rows do not.
    setup(
        &client,
        "CREATE TABLE plain_events (kind text, at int);
         INSERT INTO plain_events VALUES ('c', 300), ('d', 399)",
    )
    .await;
    assert_eq!(
        sqlstate(
            &client,
            "ALTER TABLE events ATTACH PARTITION plain_events FOR VALUES FROM (300) TO (399)"
        )
        .await,
        "23514"
    );
    setup(
        &client,
        "ALTER TABLE events ATTACH PARTITION plain_events FOR VALUES FROM (300) TO (400)",
    )
    .await;
    assert_eq!(
        rows(
            &client,
            "SELECT tableoid::regclass, kind FROM events ORDER BY at"
        )
        .await,
        table(&[
            &["events_low", "b"],
            &["events_other", "a"],
            &["plain_events", "c"],
            &["plain_events", "d"]
        ])
    );
    // Partition DDL is transactional.
    setup(
        &client,
        "BEGIN;
         CREATE TABLE events_tx PARTITION OF events FOR VALUES FROM (500) TO (600);
         ROLLBACK;",
    )
    .await;
    assert_eq!(
        sqlstate(&client, "INSERT INTO events_tx VALUES ('e', 550)").await,
        "42P01"
    );
    setup(&client, "DROP TABLE events, not_parted").await;
    assert_eq!(
        sqlstate(&client, "SELECT * FROM plain_events").await,
        "42P01"
    );
}

async fn hash_partitions_place_rows_as_postgres_does(target: &Target) {
    let client = target.connect().await;
    setup(
        &client,
        "DROP TABLE IF EXISTS accounts;
         CREATE TABLE accounts (id int, owner text) PARTITION BY HASH (id, owner);
         CREATE TABLE accounts_0 PARTITION OF accounts FOR VALUES WITH (MODULUS 4, REMAINDER 0);
         CREATE TABLE accounts_1 PARTITION OF accounts FOR VALUES WITH (MODULUS 4, REMAINDER 1);
         CREATE TABLE accounts_2 PARTITION OF accounts FOR VALUES WITH (MODULUS 4, REMAINDER 2);
         CREATE TABLE accounts_3 PARTITION OF accounts FOR VALUES WITH (MODULUS 4, REMAINDER 3);
         INSERT INTO accounts SELECT i, 'text number ' || i FROM generate_series(-20, 40) i;
         INSERT INTO accounts VALUES (NULL, 'x'), (5, NULL), (0, ''),
             (7, 'a longer text with more than twelve bytes: é');",
    )
    .await;
    assert_eq!(
        rows(
            &client,
            "SELECT tableoid::regclass, count(*), sum(id) FROM accounts GROUP BY 1 ORDER BY 1"
        )
        .await,
        table(&[
            &["accounts_0", "17", "212"],
            &["accounts_1", "16", "162"],
            &["accounts_2", "14", "108"],
            &["accounts_3", "18", "140"]
        ])
    );
    assert_eq!(
        sqlstate(
            &client,
            "CREATE TABLE accounts_x PARTITION OF accounts FOR VALUES WITH (MODULUS 8, REMAINDER 5)"
        )
        .await,
        "42P17"
    );
    assert_eq!(
        sqlstate(
            &client,
            "CREATE TABLE accounts_d PARTITION OF accounts DEFAULT"
        )
        .await,
        "42P16"
    );
    setup(&client, "DROP TABLE accounts").await;
}

async fn the_catalog_and_psql_describe_partitions(target: &Target) {
    let client = target.connect().await;
    setup(
        &client,
        "DROP TABLE IF EXISTS sales;
         CREATE TABLE sales (region text, amount int) PARTITION BY LIST (lower(region));
         CREATE TABLE sales_eu PARTITION OF sales FOR VALUES IN ('fr', 'de');
         CREATE TABLE sales_us PARTITION OF sales FOR VALUES IN ('us') PARTITION BY RANGE (amount);
         CREATE TABLE sales_us_small PARTITION OF sales_us FOR VALUES FROM (MINVALUE) TO (100);
         CREATE TABLE sales_rest PARTITION OF sales DEFAULT;",
    )
    .await;
    assert_eq!(
        rows(
            &client,
            "SELECT relname, relkind, relispartition, pg_get_expr(relpartbound, oid)
             FROM pg_class WHERE relname LIKE 'sales%' ORDER BY relname"
        )
        .await,
        table(&[
            &["sales", "p", "f", ""],
            &["sales_eu", "r", "t", "FOR VALUES IN ('fr', 'de')"],
            &["sales_rest", "r", "t", "DEFAULT"],
            &["sales_us", "p", "t", "FOR VALUES IN ('us')"],
            &[
                "sales_us_small",
                "r",
                "t",
                "FOR VALUES FROM (MINVALUE) TO (100)"
            ],
        ])
    );
    assert_eq!(
        rows(
            &client,
            "SELECT pg_get_partkeydef('sales'::regclass), pg_get_partkeydef('sales_us'::regclass)"
        )
        .await,
        table(&[&["LIST (lower(region))", "RANGE (amount)"]])
    );
    assert_eq!(
        rows(
            &client,
            "SELECT inhrelid::regclass::text, inhparent::regclass::text FROM pg_inherits
             WHERE inhparent IN ('sales'::regclass, 'sales_us'::regclass) ORDER BY 1"
        )
        .await,
        table(&[
            &["sales_eu", "sales"],
            &["sales_rest", "sales"],
            &["sales_us", "sales"],
            &["sales_us_small", "sales_us"]
        ])
    );
    assert_eq!(
        rows(
            &client,
            "SELECT partstrat, partnatts, partdefid::regclass::text FROM pg_partitioned_table
             WHERE partrelid = 'sales'::regclass"
        )
        .await,
        table(&[&["l", "1", "sales_rest"]])
    );
    let psql = |command: &str| target.psql(command);
    let described = psql("\\d+ sales");
    for line in [
        "Partitioned table \"public.sales\"",
        "Partition key: LIST (lower(region))",
        "Partitions: sales_eu FOR VALUES IN ('fr', 'de'),",
        "sales_us FOR VALUES IN ('us'), PARTITIONED,",
        "sales_rest DEFAULT",
    ] {
        assert!(
            described.contains(line),
            "\\d+ sales shows {line}:\n{described}"
        );
    }
    let described = psql("\\d sales_us");
    for line in [
        "Partitioned table \"public.sales_us\"",
        "Partition of: sales FOR VALUES IN ('us')",
        "Partition key: RANGE (amount)",
    ] {
        assert!(
            described.contains(line),
            "\\d sales_us shows {line}:\n{described}"
        );
    }
    let listed = psql("\\dt sales*");
    let kinds: Vec<Vec<&str>> = listed
        .lines()
        .filter(|line| line.contains(" sales"))
        .map(|line| line.split('|').map(str::trim).skip(1).take(2).collect())
        .collect();
    assert_eq!(
        kinds,
        [
            ["sales", "partitioned table"],
            ["sales_eu", "table"],
            ["sales_rest", "table"],
            ["sales_us", "partitioned table"],
            ["sales_us_small", "table"]
        ],
        "\\dt sales*:\n{listed}"
    );
    setup(&client, "DROP TABLE sales").await;
}
