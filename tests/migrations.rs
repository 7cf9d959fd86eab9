//! DDL as migration tools, ORMs and `pg_dump` write it: `ALTER ... OWNER TO`,
//! names qualified with `public` (quoted or not) wherever a table is named,
//! identity columns (`GENERATED ALWAYS` refusing values, identity added to,
//! changed on and dropped from a column, `pg_sequences`), the `pgcrypto` and
//! `uuid-ossp` extensions, functions of one value in FROM, materialized views,
//! `GRANT` and `REVOKE`, `LOCK TABLE`, the catalog as `pg_dump` and
//! introspecting tools read it (aggregates, `tableoid`), and a plain dump made
//! by PostgreSQL 15's `pg_dump` loaded by psql. Every test
//! passes against PostgreSQL 15 too (`LITEWIRE_TEST_POSTGRES=... cargo test
//! --test migrations -- --ignored`).

mod common;

use std::process::Command;

use common::clients::without_pg_environment;
use common::target::Target;
use common::{sqlstate, stderr, text_rows};
use tokio_postgres::{Client, SimpleQueryMessage};

against_litewire_and_postgres!(
    owner_to_checks_its_object_and_changes_nothing,
    tables_qualified_with_public_are_the_tables,
    generated_always_identity_takes_no_values,
    identity_is_added_to_changed_on_and_dropped_from_a_column,
    pgcrypto_and_uuid_ossp_are_created_and_work,
    functions_of_one_value_are_relations_in_from,
    aggregates_over_empty_catalog_relations_are_one_row,
    materialized_views_hold_their_query_rows_until_refreshed,
    grants_check_their_objects_and_change_nothing,
    a_postgres_15_dump_loads_with_psql,
    table_locks_are_taken_in_transaction_blocks,
    catalog_rows_name_their_relation_by_tableoid,
    catalog_relations_have_postgres_15_columns,
    prepared_statements_run_by_name,
    sequences_read_as_relations,
    search_path_decides_the_current_schemas,
    serial_and_identity_primary_keys_are_numbered_by_their_sequences,
    generated_columns_take_only_default,
);

/// The rows of `sql` in text format (simple protocol), NULL as `None`.
async fn rows(client: &Client, sql: &str) -> Vec<Vec<Option<String>>> {
    text_rows(client, sql).await
}

/// One row's values, every one present.
fn row(values: &[&str]) -> Vec<Option<String>> {
    values.iter().map(|v| Some((*v).to_owned())).collect()
}

/// The message and detail `sql` fails with.
async fn failure(client: &Client, sql: &str) -> (String, String, Option<String>) {
    let error = client
        .batch_execute(sql)
        .await
        .expect_err(&format!("{sql} should fail"));
    let db = error
        .as_db_error()
        .unwrap_or_else(|| panic!("{sql}: {error:?}"));
    (
        db.code().code().to_owned(),
        db.message().to_owned(),
        db.detail().map(str::to_owned),
    )
}

async fn owner_to_checks_its_object_and_changes_nothing(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP VIEW IF EXISTS mig_owned_view; DROP TABLE IF EXISTS mig_owned; \
             DROP SEQUENCE IF EXISTS mig_owned_seq; DROP TYPE IF EXISTS mig_owned_mood; \
             CREATE TABLE mig_owned (id int PRIMARY KEY, v text); \
             CREATE VIEW mig_owned_view AS SELECT id FROM mig_owned; \
             CREATE SEQUENCE mig_owned_seq; CREATE TYPE mig_owned_mood AS ENUM ('ok')",
        )
        .await
        .unwrap();
    // What pg_dump writes after each object: accepted, and nothing changes.
    for sql in [
        "ALTER TABLE mig_owned OWNER TO postgres",
        "ALTER TABLE public.mig_owned OWNER TO CURRENT_USER",
        "ALTER TABLE IF EXISTS mig_nothing OWNER TO postgres",
        "ALTER VIEW mig_owned_view OWNER TO postgres",
        "ALTER SEQUENCE public.mig_owned_seq OWNER TO postgres",
        "ALTER TYPE mig_owned_mood OWNER TO postgres",
        "ALTER SCHEMA public OWNER TO postgres",
    ] {
        client
            .batch_execute(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e:?}"));
    }
    assert_eq!(
        rows(&client, "SELECT count(*) FROM mig_owned").await,
        [row(&["0"])]
    );
    for (sql, state) in [
        ("ALTER TABLE mig_nothing OWNER TO postgres", "42P01"),
        ("ALTER SEQUENCE mig_nothing OWNER TO postgres", "42P01"),
        ("ALTER TYPE mig_nothing OWNER TO postgres", "42704"),
        ("ALTER SCHEMA mig_nothing OWNER TO postgres", "3F000"),
        ("ALTER TABLE mig_nothing.t OWNER TO postgres", "3F000"),
        ("ALTER TABLE mig_owned OWNER TO 'postgres'", "42601"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
}

async fn tables_qualified_with_public_are_the_tables(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS mig_child, mig_child2, mig_parent; \
             CREATE TABLE \"public\".\"mig_parent\" (id int PRIMARY KEY); \
             CREATE TABLE mig_child (id int REFERENCES public.mig_parent (id)); \
             CREATE TABLE mig_child2 (id int, \
                CONSTRAINT mig_child2_fk FOREIGN KEY (id) REFERENCES \"public\".\"mig_parent\" (id)); \
             ALTER TABLE \"public\".\"mig_child\" ADD COLUMN note text; \
             INSERT INTO \"public\".\"mig_parent\" VALUES (1)",
        )
        .await
        .unwrap();
    client
        .batch_execute("INSERT INTO mig_child VALUES (1, 'a'); INSERT INTO mig_child2 VALUES (1)")
        .await
        .unwrap();
    // The references are enforced: they name the table.
    assert_eq!(
        sqlstate(&client, "INSERT INTO mig_child VALUES (2, 'b')").await,
        "23503"
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO mig_child2 VALUES (2)").await,
        "23503"
    );
    assert_eq!(
        rows(
            &client,
            "SELECT c.id, c.note FROM \"public\".\"mig_child\" c JOIN public.mig_parent p USING (id)"
        )
        .await,
        [row(&["1", "a"])]
    );
    // A quoted name keeps its quotes (and its spaces and capitals) qualified.
    client
        .batch_execute(
            "DROP TABLE IF EXISTS \"Mig Odd\"; \
             CREATE TABLE public.\"Mig Odd\" (\"Note\" text); \
             INSERT INTO \"public\".\"Mig Odd\" VALUES ('x')",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT \"Note\" FROM public.\"Mig Odd\"").await,
        [row(&["x"])]
    );
    // `'public'::regnamespace` is the schema's oid, as `relnamespace` holds
    // it; a column of oids cast so reads as names.
    assert_eq!(
        rows(
            &client,
            "SELECT relname, relnamespace::regnamespace::text FROM pg_class \
             WHERE relnamespace = 'public'::regnamespace AND relname = 'mig_parent'"
        )
        .await,
        [row(&["mig_parent", "public"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT 'pg_catalog'::regnamespace::oid = (SELECT oid FROM pg_namespace WHERE nspname = 'pg_catalog'), \
                    'postgres'::regrole::oid = (SELECT oid FROM pg_roles WHERE rolname = 'postgres')"
        )
        .await,
        [row(&["t", "t"])]
    );
}

async fn generated_always_identity_takes_no_values(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS mig_always; \
             CREATE TABLE mig_always (k text PRIMARY KEY, \
                id int GENERATED ALWAYS AS IDENTITY (START WITH 10), v int)",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_always (k, v) VALUES ('a', 1) RETURNING id"
        )
        .await,
        [row(&["10"])]
    );
    let refused = failure(
        &client,
        "INSERT INTO mig_always (k, id, v) VALUES ('b', 5, 2)",
    )
    .await;
    assert_eq!(
        refused,
        (
            "428C9".to_owned(),
            "cannot insert a non-DEFAULT value into column \"id\"".to_owned(),
            Some("Column \"id\" is an identity column defined as GENERATED ALWAYS.".to_owned())
        )
    );
    // A row of DEFAULTs and one with a value: the whole statement fails.
    assert_eq!(
        sqlstate(
            &client,
            "INSERT INTO mig_always (k, id) VALUES ('c', DEFAULT), ('d', 7)"
        )
        .await,
        "428C9"
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO mig_always VALUES ('e', 8, 0)").await,
        "428C9"
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO mig_always (k, id) SELECT 'f', 9").await,
        "428C9"
    );
    let (state, message, _) = failure(&client, "UPDATE mig_always SET id = 3").await;
    assert_eq!(
        (state.as_str(), message.as_str()),
        ("428C9", "column \"id\" can only be updated to DEFAULT")
    );
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_always (k, id, v) VALUES ('g', DEFAULT, 3) RETURNING id"
        )
        .await,
        [row(&["11"])]
    );
    // OVERRIDING SYSTEM VALUE takes the value; OVERRIDING USER VALUE the
    // sequence's.
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_always (k, id, v) OVERRIDING SYSTEM VALUE VALUES ('h', 100, 4) RETURNING id"
        )
        .await,
        [row(&["100"])]
    );
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_always (k, id, v) OVERRIDING USER VALUE VALUES ('i', 200, 5) RETURNING id"
        )
        .await,
        [row(&["12"])]
    );
    assert_eq!(
        rows(
            &client,
            "UPDATE mig_always SET id = DEFAULT WHERE k = 'a' RETURNING id"
        )
        .await,
        [row(&["13"])]
    );
    assert_eq!(
        rows(&client, "SELECT k, id FROM mig_always ORDER BY k").await,
        [
            row(&["a", "13"]),
            row(&["g", "11"]),
            row(&["h", "100"]),
            row(&["i", "12"])
        ]
    );
}

async fn identity_is_added_to_changed_on_and_dropped_from_a_column(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS mig_added, mig_defaulted, mig_serials; \
             DROP SEQUENCE IF EXISTS mig_added_named_seq; \
             CREATE TABLE mig_added (id bigint, v text NOT NULL); \
             CREATE TABLE mig_defaulted (id int NOT NULL DEFAULT 4); \
             CREATE TABLE mig_serials (k int PRIMARY KEY, a serial, b int)",
        )
        .await
        .unwrap();
    let add = "ALTER TABLE mig_added ALTER COLUMN id ADD GENERATED BY DEFAULT AS IDENTITY \
               (SEQUENCE NAME public.mig_added_named_seq START WITH 10 INCREMENT BY 10 \
               NO MINVALUE NO MAXVALUE CACHE 1)";
    for (sql, state, message) in [
        (
            add,
            "55000",
            "column \"id\" of relation \"mig_added\" must be declared NOT NULL before identity can be added",
        ),
        (
            "ALTER TABLE mig_added ALTER COLUMN v ADD GENERATED ALWAYS AS IDENTITY",
            "22023",
            "identity column type must be smallint, integer, or bigint",
        ),
        (
            "ALTER TABLE mig_defaulted ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY",
            "55000",
            "column \"id\" of relation \"mig_defaulted\" already has a default value",
        ),
        (
            "ALTER TABLE mig_defaulted ALTER COLUMN id DROP IDENTITY",
            "55000",
            "column \"id\" of relation \"mig_defaulted\" is not an identity column",
        ),
        (
            "ALTER TABLE mig_defaulted ALTER COLUMN id SET GENERATED ALWAYS",
            "55000",
            "column \"id\" of relation \"mig_defaulted\" is not an identity column",
        ),
        (
            "ALTER TABLE mig_defaulted ALTER COLUMN nope ADD GENERATED ALWAYS AS IDENTITY",
            "42703",
            "column \"nope\" of relation \"mig_defaulted\" does not exist",
        ),
        (
            "ALTER TABLE mig_nothing ALTER COLUMN id DROP IDENTITY",
            "42P01",
            "relation \"mig_nothing\" does not exist",
        ),
    ] {
        let (got_state, got_message, _) = failure(&client, sql).await;
        assert_eq!(
            (got_state.as_str(), got_message.as_str()),
            (state, message),
            "{sql}"
        );
    }
    // IF EXISTS: nothing to do, no error, the default kept.
    client
        .batch_execute(
            "ALTER TABLE mig_defaulted ALTER COLUMN id DROP IDENTITY IF EXISTS; \
             ALTER TABLE IF EXISTS mig_nothing ALTER COLUMN id DROP IDENTITY",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_defaulted DEFAULT VALUES RETURNING id"
        )
        .await,
        [row(&["4"])]
    );
    // As pg_dump writes it: the column made NOT NULL first, the sequence named.
    client
        .batch_execute(&format!(
            "ALTER TABLE mig_added ALTER COLUMN id SET NOT NULL; {add}"
        ))
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_added (v) VALUES ('a'), ('b') RETURNING id"
        )
        .await,
        [row(&["10"]), row(&["20"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT sequencename, data_type, start_value, increment_by, max_value, last_value \
             FROM pg_sequences WHERE sequencename = 'mig_added_named_seq'"
        )
        .await,
        [row(&[
            "mig_added_named_seq",
            "bigint",
            "10",
            "10",
            "9223372036854775807",
            "20"
        ])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT attidentity, pg_get_serial_sequence('mig_added', 'id') FROM pg_attribute \
             WHERE attrelid = 'mig_added'::regclass AND attname = 'id'"
        )
        .await,
        [row(&["d", "public.mig_added_named_seq"])]
    );
    assert_eq!(
        sqlstate(
            &client,
            "ALTER TABLE mig_added ALTER COLUMN id ADD GENERATED ALWAYS AS IDENTITY"
        )
        .await,
        "55000"
    );
    client
        .batch_execute("ALTER TABLE mig_added ALTER COLUMN id SET GENERATED ALWAYS")
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "INSERT INTO mig_added (id, v) VALUES (1, 'c')").await,
        "428C9"
    );
    client
        .batch_execute(
            "ALTER TABLE mig_added ALTER COLUMN id DROP IDENTITY; \
             INSERT INTO mig_added (id, v) VALUES (1, 'c')",
        )
        .await
        .unwrap();
    // Dropped with its sequence and its default.
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM pg_sequences WHERE sequencename = 'mig_added_named_seq'"
        )
        .await,
        [row(&["0"])]
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO mig_added (v) VALUES ('d')").await,
        "23502"
    );
    // A serial column added later leaves the table's other sequences alone.
    client
        .batch_execute("ALTER TABLE mig_serials ADD COLUMN c serial")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_serials (k) VALUES (1) RETURNING a, c"
        )
        .await,
        [row(&["1", "1"])]
    );
}

async fn pgcrypto_and_uuid_ossp_are_created_and_work(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute("DROP EXTENSION IF EXISTS pgcrypto; DROP EXTENSION IF EXISTS \"uuid-ossp\"")
        .await
        .unwrap();
    client
        .batch_execute(
            "CREATE EXTENSION pgcrypto; CREATE EXTENSION IF NOT EXISTS \"uuid-ossp\" WITH SCHEMA public; \
             CREATE EXTENSION IF NOT EXISTS pgcrypto",
        )
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "CREATE EXTENSION pgcrypto").await,
        "42710"
    );
    assert_eq!(
        rows(
            &client,
            "SELECT extname, extversion, extnamespace::int FROM pg_extension \
             WHERE extname IN ('pgcrypto', 'uuid-ossp') ORDER BY extname"
        )
        .await,
        [
            row(&["pgcrypto", "1.3", "2200"]),
            row(&["uuid-ossp", "1.1", "2200"])
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT digest('abc', 'sha1'), digest('abc'::bytea, 'md5'), \
             hmac('abc', 'key', 'sha256'), hmac('abc'::bytea, 'k'::bytea, 'md5'), \
             length(gen_random_bytes(16))"
        )
        .await,
        [row(&[
            "\\xa9993e364706816aba3e25717850c26c9cd0d89d",
            "\\x900150983cd24fb0d6963f7d28e17f72",
            "\\x9c196e32dc0175f86f4b1cb89289d6619de6bee699e4c378e68309ed97a1a6ab",
            "\\x75972c9c6569f2f407752ddb02ac79de",
            "16"
        ])]
    );
    assert_eq!(
        sqlstate(&client, "SELECT digest('abc', 'nosuch')").await,
        "22023"
    );
    assert_eq!(
        sqlstate(&client, "SELECT gen_random_bytes(0)").await,
        "39000"
    );
    assert_eq!(
        rows(
            &client,
            "SELECT uuid_nil(), uuid_ns_url(), uuid_generate_v5(uuid_ns_url(), 'x'), \
             uuid_generate_v3(uuid_ns_dns(), 'x'), substr(uuid_generate_v1()::text, 15, 1), \
             substr(uuid_generate_v1mc()::text, 15, 1), substr(uuid_generate_v4()::text, 15, 1), \
             uuid_generate_v4() <> uuid_generate_v4()"
        )
        .await,
        [row(&[
            "00000000-0000-0000-0000-000000000000",
            "6ba7b811-9dad-11d1-80b4-00c04fd430c8",
            "4cd605e7-afa2-5360-b5b9-c5e9fb5c76f4",
            "ec794efe-a384-3b11-a0b6-ec8995bc6acc",
            "1",
            "1",
            "4",
            "t"
        ])]
    );
    // The typed value, read through the driver's binary format.
    let typed = client
        .query_one("SELECT uuid_generate_v5(uuid_ns_url(), 'x')", &[])
        .await
        .unwrap();
    assert_eq!(
        typed.get::<_, uuid::Uuid>(0).to_string(),
        "4cd605e7-afa2-5360-b5b9-c5e9fb5c76f4"
    );
    client
        .batch_execute("DROP EXTENSION \"uuid-ossp\"")
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "DROP EXTENSION \"uuid-ossp\"").await,
        "42704"
    );
    assert_eq!(
        rows(
            &client,
            "SELECT extname FROM pg_extension WHERE extname IN ('pgcrypto', 'uuid-ossp')"
        )
        .await,
        [row(&["pgcrypto"])]
    );
    assert_eq!(
        sqlstate(&client, "CREATE EXTENSION nosuch_extension").await,
        "0A000"
    );
    client
        .batch_execute("DROP EXTENSION pgcrypto")
        .await
        .unwrap();
}

async fn functions_of_one_value_are_relations_in_from(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS mig_tags; CREATE TABLE mig_tags (id int, tags text[]); \
             INSERT INTO mig_tags VALUES (1, '{x,y}')",
        )
        .await
        .unwrap();
    for (sql, expected) in [
        ("SELECT * FROM lower('A')", vec![row(&["a"])]),
        ("SELECT x FROM lower('A') AS x", vec![row(&["a"])]),
        ("SELECT y FROM lower('A') AS x (y)", vec![row(&["a"])]),
        (
            "SELECT lower, ordinality FROM lower('A') WITH ORDINALITY",
            vec![row(&["a", "1"])],
        ),
        (
            "SELECT current_schema FROM current_schema()",
            vec![row(&["public"])],
        ),
        (
            "SELECT * FROM generate_subscripts(ARRAY[5, 6, 7], 1)",
            vec![row(&["1"]), row(&["2"]), row(&["3"])],
        ),
        (
            "SELECT g, ordinality FROM generate_subscripts(ARRAY[5, 6, 7], 1, true) WITH ORDINALITY AS g",
            vec![row(&["3", "1"]), row(&["2", "2"]), row(&["1", "3"])],
        ),
        (
            "SELECT count(*) FROM generate_subscripts(ARRAY[5, 6, 7], 2)",
            vec![row(&["0"])],
        ),
        (
            "SELECT id, s FROM mig_tags, generate_subscripts(mig_tags.tags, 1) AS s ORDER BY s",
            vec![row(&["1", "1"]), row(&["1", "2"])],
        ),
        (
            "SELECT id, generate_subscripts(tags, 1) AS i FROM mig_tags ORDER BY i",
            vec![row(&["1", "1"]), row(&["1", "2"])],
        ),
    ] {
        assert_eq!(rows(&client, sql).await, expected, "{sql}");
    }
    // The column is typed as the function's value.
    let typed = client
        .prepare("SELECT * FROM current_schema()")
        .await
        .unwrap();
    assert_eq!(typed.columns()[0].name(), "current_schema");
    assert_eq!(typed.columns()[0].type_().name(), "name");
    assert_eq!(sqlstate(&client, "SELECT * FROM count(1)").await, "42803");
}

async fn aggregates_over_empty_catalog_relations_are_one_row(target: &Target) {
    let client = target.connect().await;
    for (sql, names, expected) in [
        (
            "SELECT count(*) FROM pg_policy",
            vec!["count"],
            vec![row(&["0"])],
        ),
        (
            "SELECT count(*) AS n, max(pubname) FROM pg_catalog.pg_publication",
            vec!["n", "max"],
            vec![vec![Some("0".to_owned()), None]],
        ),
        (
            "SELECT count(*) FROM pg_policy GROUP BY polname",
            vec!["count"],
            vec![],
        ),
        (
            "SELECT count(*) FROM pg_class WHERE relname = 'mig_none'",
            vec!["count"],
            vec![row(&["0"])],
        ),
    ] {
        let statement = client.prepare(sql).await.unwrap();
        let named: Vec<&str> = statement.columns().iter().map(|c| c.name()).collect();
        assert_eq!(named, names, "{sql}");
        assert_eq!(rows(&client, sql).await, expected, "{sql}");
    }
}

async fn materialized_views_hold_their_query_rows_until_refreshed(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP MATERIALIZED VIEW IF EXISTS mig_mv, mig_mv_empty; DROP TABLE IF EXISTS mig_mv_source; \
             CREATE TABLE mig_mv_source (id int PRIMARY KEY, b boolean, t timestamptz); \
             INSERT INTO mig_mv_source VALUES (1, true, '2024-01-01 00:00:00+00'), (2, false, NULL)",
        )
        .await
        .unwrap();
    // Made with its rows (the tag counts them) and the query's types.
    let made = client
        .simple_query("CREATE MATERIALIZED VIEW mig_mv AS SELECT id, b, t FROM mig_mv_source")
        .await
        .unwrap();
    assert!(
        made.iter()
            .any(|m| matches!(m, SimpleQueryMessage::CommandComplete(2))),
        "{made:?}"
    );
    client
        .batch_execute(
            "CREATE MATERIALIZED VIEW mig_mv_empty (n) AS SELECT count(*) FROM mig_mv_source WITH NO DATA; \
             CREATE MATERIALIZED VIEW IF NOT EXISTS mig_mv AS SELECT 1",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT id, b, t FROM mig_mv ORDER BY id").await,
        [
            row(&["1", "t", "2024-01-01 00:00:00+00"]),
            vec![Some("2".to_owned()), Some("f".to_owned()), None]
        ]
    );
    let (state, message, _) = failure(&client, "SELECT * FROM mig_mv_empty").await;
    assert_eq!(
        (state.as_str(), message.as_str()),
        (
            "55000",
            "materialized view \"mig_mv_empty\" has not been populated"
        )
    );
    // The rows stay until a refresh reads the query again.
    client
        .batch_execute("INSERT INTO mig_mv_source VALUES (3, true, NULL)")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT count(*) FROM mig_mv").await,
        [row(&["2"])]
    );
    client
        .batch_execute("REFRESH MATERIALIZED VIEW mig_mv; REFRESH MATERIALIZED VIEW mig_mv_empty")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT (SELECT count(*) FROM mig_mv), n FROM mig_mv_empty"
        )
        .await,
        [row(&["3", "3"])]
    );
    // CONCURRENTLY needs a unique index.
    assert_eq!(
        sqlstate(&client, "REFRESH MATERIALIZED VIEW CONCURRENTLY mig_mv").await,
        "55000"
    );
    client
        .batch_execute(
            "CREATE UNIQUE INDEX mig_mv_id ON mig_mv (id); \
             REFRESH MATERIALIZED VIEW CONCURRENTLY mig_mv",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT matviewname, hasindexes, ispopulated FROM pg_matviews \
             WHERE matviewname LIKE 'mig_mv%' ORDER BY 1"
        )
        .await,
        [row(&["mig_mv", "t", "t"]), row(&["mig_mv_empty", "f", "t"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT relname, relkind FROM pg_class WHERE relname LIKE 'mig_mv%' \
             AND relkind IN ('r', 'm') ORDER BY 1"
        )
        .await,
        [
            row(&["mig_mv", "m"]),
            row(&["mig_mv_empty", "m"]),
            row(&["mig_mv_source", "r"])
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM information_schema.tables WHERE table_name LIKE 'mig_mv%'"
        )
        .await,
        [row(&["1"])]
    );
    // Neither written to nor dropped as a table or a view.
    for (sql, state) in [
        ("INSERT INTO mig_mv VALUES (9, true, NULL)", "42809"),
        ("UPDATE mig_mv_empty SET n = 1", "42809"),
        ("DELETE FROM mig_mv", "42809"),
        ("DROP TABLE mig_mv", "42809"),
        ("DROP VIEW mig_mv", "42809"),
        ("REFRESH MATERIALIZED VIEW mig_mv_source", "0A000"),
        ("REFRESH MATERIALIZED VIEW mig_nothing", "42P01"),
        (
            "REFRESH MATERIALIZED VIEW CONCURRENTLY mig_mv WITH NO DATA",
            "42601",
        ),
        ("DROP MATERIALIZED VIEW mig_mv_source", "42809"),
        ("DROP MATERIALIZED VIEW mig_nothing", "42P01"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    client
        .batch_execute(
            "REFRESH MATERIALIZED VIEW mig_mv WITH NO DATA; \
             DROP MATERIALIZED VIEW IF EXISTS mig_nothing, mig_mv_empty",
        )
        .await
        .unwrap();
    assert_eq!(sqlstate(&client, "SELECT * FROM mig_mv").await, "55000");
    client
        .batch_execute("DROP MATERIALIZED VIEW mig_mv")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM pg_matviews WHERE matviewname LIKE 'mig_mv%'"
        )
        .await,
        [row(&["0"])]
    );
    // The same name makes a new one.
    client
        .batch_execute(
            "CREATE MATERIALIZED VIEW mig_mv AS SELECT id FROM mig_mv_source WHERE b; \
             DROP MATERIALIZED VIEW mig_mv",
        )
        .await
        .unwrap();
}

async fn grants_check_their_objects_and_change_nothing(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS mig_granted; DROP SEQUENCE IF EXISTS mig_granted_seq; \
             CREATE TABLE mig_granted (id int); CREATE SEQUENCE mig_granted_seq",
        )
        .await
        .unwrap();
    for sql in [
        "GRANT SELECT ON mig_granted TO PUBLIC",
        "GRANT SELECT, INSERT (id) ON TABLE mig_granted, public.mig_granted TO postgres WITH GRANT OPTION",
        "GRANT USAGE, SELECT ON SEQUENCE mig_granted_seq TO PUBLIC",
        "GRANT USAGE ON SCHEMA public TO PUBLIC",
        "GRANT ALL ON ALL TABLES IN SCHEMA public TO postgres",
        "REVOKE SELECT ON mig_granted FROM PUBLIC",
        "REVOKE ALL ON SCHEMA public FROM PUBLIC",
        "GRANT ALL ON SCHEMA public TO PUBLIC",
    ] {
        client
            .batch_execute(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e:?}"));
    }
    for (sql, state) in [
        ("GRANT SELECT ON mig_nothing TO PUBLIC", "42P01"),
        ("GRANT USAGE ON SCHEMA mig_nothing TO PUBLIC", "3F000"),
        ("REVOKE USAGE ON SEQUENCE mig_nothing FROM PUBLIC", "42P01"),
        ("GRANT SELECT ON mig_granted", "42601"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    assert_eq!(
        rows(
            &client,
            "SELECT has_table_privilege('mig_granted', 'SELECT')"
        )
        .await,
        [row(&["t"])]
    );
}

async fn a_postgres_15_dump_loads_with_psql(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP MATERIALIZED VIEW IF EXISTS dump_counts; DROP VIEW IF EXISTS dump_names; \
             DROP TABLE IF EXISTS dump_note, dump_person; DROP TYPE IF EXISTS dump_mood; \
             DROP SEQUENCE IF EXISTS dump_note_id_seq",
        )
        .await
        .unwrap();
    // Made by `pg_dump` 15 from a database with an enum, identity and
    // bigserial columns, a foreign key, an index, a view, a materialized
    // view, a comment, a grant and the pgcrypto extension.
    let dump = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/pg15_dump.sql");
    let mut psql = Command::new("psql");
    without_pg_environment(&mut psql).args([
        target.conninfo().as_str(),
        "-X",
        "-q",
        "-v",
        "ON_ERROR_STOP=1",
        "-f",
        dump,
    ]);
    let loaded = psql.output().expect("run psql");
    assert!(loaded.status.success(), "{}", stderr(&loaded));
    assert_eq!(
        rows(
            &client,
            "SELECT id, name, mood, tags, profile, balance, created FROM dump_person ORDER BY id"
        )
        .await,
        [
            row(&[
                "1",
                "ann",
                "happy",
                "{a,b}",
                "{\"k\": 1}",
                "1.50",
                "2024-05-06 07:08:09+00"
            ]),
            vec![
                Some("2".to_owned()),
                Some("bob".to_owned()),
                Some("sad".to_owned()),
                None,
                None,
                None,
                Some("2024-05-07 00:00:00+00".to_owned())
            ]
        ]
    );
    // The sequences go on from where the dump left them.
    assert_eq!(
        rows(
            &client,
            "INSERT INTO dump_person (name) VALUES ('cy') RETURNING id"
        )
        .await,
        [row(&["3"])]
    );
    assert_eq!(
        rows(
            &client,
            "INSERT INTO dump_note (person, body) VALUES (3, 'new') RETURNING id"
        )
        .await,
        [row(&["3"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT (SELECT n FROM dump_counts), (SELECT count(*) FROM dump_names), \
             obj_description('dump_person'::regclass, 'pg_class'), \
             (SELECT attidentity FROM pg_attribute WHERE attrelid = 'dump_person'::regclass \
              AND attname = 'id')"
        )
        .await,
        [row(&["2", "3", "people", "d"])]
    );
    // Its constraints hold.
    assert_eq!(
        sqlstate(&client, "INSERT INTO dump_person (name) VALUES ('ann')").await,
        "23505"
    );
    assert_eq!(
        sqlstate(
            &client,
            "INSERT INTO dump_person (name, mood) VALUES ('dee', 'angry')"
        )
        .await,
        "22P02"
    );
    client
        .batch_execute("DELETE FROM dump_person WHERE id = 1")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT id FROM dump_note ORDER BY id").await,
        [row(&["2"]), row(&["3"])]
    );
    // And pg_dump reads it back: its catalog queries, its prepared
    // statements, its sequences read as relations, its COPY.
    let mut pg_dump = Command::new("pg_dump");
    without_pg_environment(&mut pg_dump).args([target.conninfo().as_str()]);
    let dumped = pg_dump.output().expect("run pg_dump");
    assert!(dumped.status.success(), "{}", stderr(&dumped));
    let script = String::from_utf8_lossy(&dumped.stdout);
    for expected in [
        "CREATE TYPE public.dump_mood AS ENUM (",
        "CREATE TABLE public.dump_person (",
        "CREATE MATERIALIZED VIEW public.dump_counts AS",
        "COPY public.dump_note (id, person, body) FROM stdin;",
        "\n2\tbob\tsad\t\\N\t\\N\t\\N\t2024-05-07 00:00:00+00\n",
        "SELECT pg_catalog.setval('public.dump_note_id_seq', 3, true);",
        "CREATE INDEX dump_note_person ON public.dump_note USING btree (person);",
    ] {
        assert!(script.contains(expected), "{expected}\n{script}");
    }
}

async fn table_locks_are_taken_in_transaction_blocks(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS mig_locked, mig_locked2; \
             CREATE TABLE mig_locked (a int); CREATE TABLE mig_locked2 (a int)",
        )
        .await
        .unwrap();
    let (state, message, _) = failure(&client, "LOCK TABLE mig_locked").await;
    assert_eq!(
        (state.as_str(), message.as_str()),
        ("25P01", "LOCK TABLE can only be used in transaction blocks")
    );
    for sql in [
        // As pg_dump takes them, in its read-only snapshot.
        "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY; \
         LOCK TABLE public.mig_locked IN ACCESS SHARE MODE; SELECT count(*) FROM mig_locked; COMMIT",
        "BEGIN; LOCK TABLE mig_locked, ONLY mig_locked2 IN EXCLUSIVE MODE NOWAIT; \
         INSERT INTO mig_locked VALUES (1); COMMIT",
        "BEGIN; LOCK mig_locked; COMMIT",
        "BEGIN; LOCK TABLE mig_locked IN SHARE ROW EXCLUSIVE MODE; ROLLBACK",
    ] {
        client
            .batch_execute(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e:?}"));
    }
    for (sql, state) in [
        ("BEGIN; LOCK TABLE mig_nothing", "42P01"),
        ("BEGIN; LOCK TABLE mig_locked IN BOGUS MODE", "42601"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
        client.batch_execute("ROLLBACK").await.unwrap();
    }
    assert_eq!(
        rows(&client, "SELECT count(*) FROM mig_locked").await,
        [row(&["1"])]
    );
}

async fn catalog_rows_name_their_relation_by_tableoid(target: &Target) {
    let client = target.connect().await;
    assert_eq!(
        rows(
            &client,
            "SELECT x.tableoid, n.tableoid, x.extname FROM pg_extension x \
             JOIN pg_namespace n ON n.oid = x.extnamespace WHERE x.extname = 'plpgsql'"
        )
        .await,
        [row(&["3079", "2615", "plpgsql"])]
    );
    let statement = client
        .prepare("SELECT tableoid, relname FROM pg_class WHERE relname = 'pg_class'")
        .await
        .unwrap();
    assert_eq!(statement.columns()[0].name(), "tableoid");
    assert_eq!(
        rows(
            &client,
            "SELECT array_remove(ARRAY[1, 2, 3, 2], 2), \
             array_remove(ARRAY['check_option=local', 'x'], 'check_option=local')"
        )
        .await,
        [row(&["{1,3}", "{x}"])]
    );
}

async fn catalog_relations_have_postgres_15_columns(target: &Target) {
    let client = target.connect().await;
    for (relation, columns) in [
        ("pg_am", "oid,amname,amhandler,amtype"),
        (
            "pg_collation",
            "oid,collname,collnamespace,collowner,collprovider,collisdeterministic,collencoding,\
             collcollate,collctype,colliculocale,collversion",
        ),
        (
            "pg_constraint",
            "oid,conname,connamespace,contype,condeferrable,condeferred,convalidated,conrelid,\
             contypid,conindid,conparentid,confrelid,confupdtype,confdeltype,confmatchtype,\
             conislocal,coninhcount,connoinherit,conkey,confkey,conpfeqop,conppeqop,conffeqop,\
             confdelsetcols,conexclop,conbin",
        ),
        (
            "pg_database",
            "oid,datname,datdba,encoding,datlocprovider,datistemplate,datallowconn,datconnlimit,\
             datfrozenxid,datminmxid,dattablespace,datcollate,datctype,daticulocale,\
             datcollversion,datacl",
        ),
        (
            "pg_proc",
            "oid,proname,pronamespace,proowner,prolang,procost,prorows,provariadic,prosupport,\
             prokind,prosecdef,proleakproof,proisstrict,proretset,provolatile,proparallel,\
             pronargs,pronargdefaults,prorettype,proargtypes,proallargtypes,proargmodes,\
             proargnames,proargdefaults,protrftypes,prosrc,probin,prosqlbody,proconfig,proacl",
        ),
        (
            "pg_subscription",
            "oid,subdbid,subskiplsn,subname,subowner,subenabled,subbinary,substream,\
             subtwophasestate,subdisableonerr,subconninfo,subslotname,subsynccommit,\
             subpublications",
        ),
        ("pg_auth_members", "roleid,member,grantor,admin_option"),
        (
            "pg_prepared_xacts",
            "transaction,gid,prepared,owner,database",
        ),
        (
            "pg_init_privs",
            "objoid,classoid,objsubid,privtype,initprivs",
        ),
        (
            "pg_language",
            "oid,lanname,lanowner,lanispl,lanpltrusted,lanplcallfoid,laninline,lanvalidator,lanacl",
        ),
        (
            "pg_ts_config",
            "oid,cfgname,cfgnamespace,cfgowner,cfgparser",
        ),
    ] {
        let statement = client
            .prepare(&format!("SELECT * FROM pg_catalog.{relation}"))
            .await
            .unwrap_or_else(|e| panic!("{relation}: {e:?}"));
        let named: Vec<&str> = statement.columns().iter().map(|c| c.name()).collect();
        assert_eq!(named.join(","), columns, "{relation}");
    }
    // What pg_dump reads in a read-only snapshot of its own: no options, no
    // rows where nothing is kept.
    client
        .batch_execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM pg_class c, pg_options_to_table(c.reloptions) o \
             WHERE c.relname = 'pg_class'"
        )
        .await,
        [row(&["0"])]
    );
    assert_eq!(
        rows(&client, "SELECT count(*) FROM pg_prepared_xacts").await,
        [row(&["0"])]
    );
    client.batch_execute("COMMIT").await.unwrap();
}

async fn prepared_statements_run_by_name(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DEALLOCATE ALL; DROP TABLE IF EXISTS mig_prepared; \
             CREATE TABLE mig_prepared (id int PRIMARY KEY, v text); \
             INSERT INTO mig_prepared VALUES (1, 'a'), (2, 'b'); \
             PREPARE mig_get(int) AS SELECT id, v FROM mig_prepared WHERE id = $1; \
             PREPARE mig_put(int, text) AS INSERT INTO mig_prepared VALUES ($1, $2)",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "EXECUTE mig_get(2)").await,
        [row(&["2", "b"])]
    );
    assert_eq!(
        rows(&client, "EXECUTE mig_get('1')").await,
        [row(&["1", "a"])]
    );
    client
        .batch_execute("EXECUTE mig_put(3, 'c'); EXECUTE mig_put(4, NULL)")
        .await
        .unwrap();
    client
        .batch_execute("BEGIN; EXECUTE mig_put(5, 'e'); ROLLBACK")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT id, v FROM mig_prepared WHERE id > 2 ORDER BY id"
        )
        .await,
        [row(&["3", "c"]), vec![Some("4".to_owned()), None]]
    );
    let (state, message, detail) = failure(&client, "EXECUTE mig_get").await;
    assert_eq!(
        (state.as_str(), message.as_str(), detail.as_deref()),
        (
            "42601",
            "wrong number of parameters for prepared statement \"mig_get\"",
            Some("Expected 1 parameters but got 0.")
        )
    );
    for (sql, state) in [
        ("PREPARE mig_get AS SELECT 1", "42P05"),
        ("EXECUTE mig_nothing(1)", "26000"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    client.batch_execute("DEALLOCATE mig_get").await.unwrap();
    assert_eq!(sqlstate(&client, "EXECUTE mig_get(1)").await, "26000");
    client.batch_execute("DEALLOCATE ALL").await.unwrap();
    assert_eq!(sqlstate(&client, "EXECUTE mig_put(6, 'f')").await, "26000");
}

async fn sequences_read_as_relations(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP SEQUENCE IF EXISTS mig_counter; CREATE SEQUENCE mig_counter START WITH 5",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT last_value, log_cnt, is_called FROM mig_counter"
        )
        .await,
        [row(&["5", "0", "f"])]
    );
    client
        .batch_execute("SELECT nextval('mig_counter'); SELECT nextval('mig_counter')")
        .await
        .unwrap();
    // As pg_dump reads it: qualified, two of its columns.
    assert_eq!(
        rows(
            &client,
            "SELECT last_value, is_called FROM public.mig_counter"
        )
        .await,
        [row(&["6", "t"])]
    );
}

/// The shape almost every ORM's table has: a `serial`, `bigserial` or
/// identity primary key. Its rows are numbered by its sequence, whichever way
/// they arrive (VALUES with the column left out or `DEFAULT`, `INSERT ...
/// SELECT`, `DEFAULT VALUES`), so `currval` and the sequence's row follow
/// them; the catalog keeps its declared type and its default or identity,
/// which `pg_dump` writes.
async fn serial_and_identity_primary_keys_are_numbered_by_their_sequences(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS mig_pk_serial, mig_pk_identity, mig_pk_source; \
             CREATE TABLE mig_pk_serial (id serial PRIMARY KEY, x text); \
             CREATE TABLE mig_pk_identity (id bigint GENERATED ALWAYS AS IDENTITY, y int, \
                 PRIMARY KEY (id)); \
             CREATE TABLE mig_pk_source (x text, n int); \
             INSERT INTO mig_pk_source VALUES ('p', 1), ('q', 2)",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_pk_serial (x) VALUES ('a'), ('b') RETURNING id"
        )
        .await,
        [row(&["1"]), row(&["2"])]
    );
    assert_eq!(
        rows(&client, "SELECT nextval('mig_pk_serial_id_seq')").await,
        [row(&["3"])]
    );
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_pk_serial (x) SELECT x FROM mig_pk_source ORDER BY n RETURNING id, x"
        )
        .await,
        [row(&["4", "p"]), row(&["5", "q"])]
    );
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_pk_serial VALUES (DEFAULT, 'c') RETURNING id"
        )
        .await,
        [row(&["6"])]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT currval('mig_pk_serial_id_seq'), lastval(), \
             (SELECT last_value FROM mig_pk_serial_id_seq)"
        )
        .await,
        [row(&["6", "6", "6"])]
    );
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_pk_serial DEFAULT VALUES RETURNING id, currval('mig_pk_serial_id_seq')"
        )
        .await,
        [row(&["7", "7"])]
    );
    assert_eq!(
        rows(
            &client,
            "INSERT INTO mig_pk_identity (y) VALUES (7) RETURNING id, pg_typeof(id)"
        )
        .await,
        [row(&["1", "bigint"])]
    );
    let (state, _, _) = failure(&client, "INSERT INTO mig_pk_identity VALUES (9, 1)").await;
    assert_eq!(state, "428C9");
    assert_eq!(
        rows(
            &client,
            "SELECT c.relname, a.attname, format_type(a.atttypid, a.atttypmod), a.attnotnull, \
             a.attidentity, pg_get_expr(d.adbin, d.adrelid), \
             pg_get_serial_sequence(c.relname, a.attname) \
             FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid \
             LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum \
             WHERE c.relname IN ('mig_pk_serial', 'mig_pk_identity') AND a.attname = 'id' \
             ORDER BY 1"
        )
        .await,
        [
            vec![
                Some("mig_pk_identity".into()),
                Some("id".into()),
                Some("bigint".into()),
                Some("t".into()),
                Some("a".into()),
                None,
                Some("public.mig_pk_identity_id_seq".into()),
            ],
            row(&[
                "mig_pk_serial",
                "id",
                "integer",
                "t",
                "",
                "nextval('mig_pk_serial_id_seq'::regclass)",
                "public.mig_pk_serial_id_seq",
            ]),
        ]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT sequencename, data_type FROM pg_sequences \
             WHERE sequencename LIKE 'mig_pk_%' ORDER BY 1"
        )
        .await,
        [
            row(&["mig_pk_identity_id_seq", "bigint"]),
            row(&["mig_pk_serial_id_seq", "integer"]),
        ]
    );
}

/// A generated column takes `DEFAULT` (in any row of VALUES, with or without
/// a column list, and in `SET`) and refuses any other value with 428C9.
async fn generated_columns_take_only_default(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS mig_generated; \
             CREATE TABLE mig_generated (a int, g int GENERATED ALWAYS AS (a * 2) STORED, b text); \
             INSERT INTO mig_generated VALUES (1, DEFAULT, 'x'), (2, DEFAULT, 'y'); \
             INSERT INTO mig_generated VALUES (3); \
             INSERT INTO mig_generated (a, g) VALUES (4, DEFAULT)",
        )
        .await
        .unwrap();
    for sql in [
        "INSERT INTO mig_generated VALUES (5, 10, 'z')",
        "INSERT INTO mig_generated (g) SELECT 1",
        "UPDATE mig_generated SET g = 5",
    ] {
        let (state, _, detail) = failure(&client, sql).await;
        assert_eq!(state, "428C9", "{sql}");
        assert_eq!(
            detail.as_deref(),
            Some("Column \"g\" is a generated column."),
            "{sql}"
        );
    }
    assert_eq!(
        rows(
            &client,
            "UPDATE mig_generated SET g = DEFAULT, a = 10 WHERE a = 4 RETURNING a, g"
        )
        .await,
        [row(&["10", "20"])]
    );
    assert_eq!(
        rows(&client, "SELECT a, g, b FROM mig_generated ORDER BY a").await,
        [
            row(&["1", "2", "x"]),
            row(&["2", "4", "y"]),
            vec![Some("3".into()), Some("6".into()), None],
            vec![Some("10".into()), Some("20".into()), None],
        ]
    );
}

/// `current_schema()` and `current_schemas()` follow `search_path`: what
/// `pg_dump` reads to write the path its script restores under.
async fn search_path_decides_the_current_schemas(target: &Target) {
    let client = target.connect().await;
    let ask = "SELECT current_schema(), current_schemas(false)::text, current_schemas(true)::text";
    for (path, expected) in [
        ("''", [None, Some("{}"), Some("{pg_catalog}")]),
        (
            "public",
            [
                Some("public"),
                Some("{public}"),
                Some("{pg_catalog,public}"),
            ],
        ),
        (
            "pg_catalog, \"$user\", public",
            [
                Some("pg_catalog"),
                Some("{pg_catalog,public}"),
                Some("{pg_catalog,public}"),
            ],
        ),
        (
            "nothing_here, public",
            [
                Some("public"),
                Some("{public}"),
                Some("{pg_catalog,public}"),
            ],
        ),
    ] {
        client
            .batch_execute(&format!("SET search_path = {path}"))
            .await
            .unwrap();
        let expected: Vec<Option<String>> = expected.iter().map(|v| v.map(str::to_owned)).collect();
        assert_eq!(rows(&client, ask).await, [expected], "search_path = {path}");
    }
    client
        .batch_execute("SELECT pg_catalog.set_config('search_path', '', false)")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT current_schemas(false)::text").await,
        [row(&["{}"])]
    );
    client.batch_execute("RESET search_path").await.unwrap();
    assert_eq!(
        rows(&client, ask).await,
        [row(&["public", "{public}", "{pg_catalog,public}"])]
    );
}
