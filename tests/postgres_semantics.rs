//! On the PostgreSQL port a statement means what it means in PostgreSQL 15,
//! whatever SQLite would make of the same text: LIKE's case, where NULLs
//! sort, booleans, dates and arrays as values, checked integer arithmetic,
//! PostgreSQL's input rules in casts, result types and column names, and
//! PostgreSQL's errors. Each answer is PostgreSQL 15's, in text (simple
//! protocol) and binary (extended protocol); every test passes against
//! PostgreSQL 15 too (`LITEWIRE_TEST_POSTGRES=... cargo test --test
//! postgres_semantics -- --ignored`).

mod common;

use chrono::NaiveDate;
use common::target::Target;
use common::text_rows;
use tokio_postgres::types::Type;
use tokio_postgres::{Client, SimpleQueryMessage};

against_litewire_and_postgres!(
    like_matches_case_as_postgres_does,
    nulls_sort_last_ascending_and_first_descending,
    conditions_are_booleans,
    dates_and_arrays_are_values,
    integer_arithmetic_is_checked,
    casts_read_text_with_postgres_input_rules,
    result_columns_are_named_and_typed_as_postgres_does,
    errors_carry_postgres_sqlstates,
    grouped_queries_are_checked,
    case_changes_cover_unicode,
    inserts_read_values_as_their_columns_types,
    subqueries_used_as_values_return_one_row,
    floats_keep_their_range_nan_and_printed_digits,
    errors_point_at_what_they_are_about,
    series_count_up_and_down,
    format_reads_postgres_specifiers,
    values_fit_their_columns_modifiers,
    with_queries_calling_volatile_functions_run_once,
    texts_differing_in_integer_literals_mean_each_their_own,
    chained_transactions_and_savepoints_keep_their_modes,
    cursor_and_copy_queries_mean_what_they_mean_alone,
    postgres_parameters_are_set_checked_and_shown,
    defaults_fill_any_row_of_values,
    create_table_as_counts_its_rows,
    create_table_as_keeps_the_query_types,
    select_into_makes_a_table,
    cursors_declared_since_a_savepoint_end_with_it,
    char_columns_show_their_padding,
    index_options_sqlite_lacks_are_accepted,
    numeric_arithmetic_is_decimal,
    errors_reading_a_statement_abort_the_transaction,
    views_mean_what_their_query_means,
    defaults_and_checks_mean_what_they_mean_in_a_query,
    string_literals_keep_their_quotes,
    delete_using_joins_other_relations,
    joined_changes_return_the_joined_rows,
    changes_after_with_read_its_queries,
    outer_relations_expand_in_subqueries,
    primary_key_columns_refuse_null,
    upserts_change_a_row_once,
    with_column_lists_name_the_first_columns,
    row_assignments_set_several_columns,
    updates_assign_defaults_through_aliases,
    temp_tables_are_read_as_postgres_reads_them,
    query_strings_run_as_implicit_transaction_blocks,
    bytea_shows_as_bytea_output_says,
    offset_stands_without_limit,
    arrays_contain_and_overlap,
    unique_violations_name_their_constraint,
    set_returning_calls_over_one_array_advance_together,
    sql_functions_read_as_their_bodies,
    information_schema_has_every_view,
    the_catalog_lists_its_own_relations,
    domains_hold_their_columns_and_casts_to_their_rules,
    foreign_key_violations_name_their_constraint,
    explain_answers_with_the_query_plan,
    with_queries_change_data_and_return_rows,
    indexes_are_renamed_and_their_settings_checked,
    merge_decides_every_row_before_changing_any,
    types_keep_their_modifiers_in_every_spelling,
);

/// A fresh table for one test: dropped first, so a calibration run can repeat.
async fn table(client: &Client, name: &str, definition: &str, rows: &str) {
    client
        .batch_execute(&format!(
            "DROP TABLE IF EXISTS {name}; CREATE TABLE {name} ({definition}); INSERT INTO {name} VALUES {rows}"
        ))
        .await
        .unwrap();
}

/// The one row of `sql` in text format, NULL as `"NULL"`.
async fn text_row(client: &Client, sql: &str) -> Vec<String> {
    let mut rows = text_rows(client, sql).await;
    assert_eq!(rows.len(), 1, "{sql}");
    rows.remove(0)
        .into_iter()
        .map(|v| v.unwrap_or_else(|| "NULL".into()))
        .collect()
}

/// The first column of every row, in text format.
async fn column(client: &Client, sql: &str) -> Vec<String> {
    text_rows(client, sql)
        .await
        .into_iter()
        .map(|row| row[0].clone().unwrap_or_else(|| "NULL".into()))
        .collect()
}

/// The SQLSTATE `sql` fails with, in the extended protocol.
async fn sqlstate(client: &Client, sql: &str) -> String {
    let error = client
        .query(sql, &[])
        .await
        .map(|rows| format!("{} rows", rows.len()))
        .expect_err(sql);
    error
        .code()
        .map(|c| c.code().to_owned())
        .unwrap_or_else(|| format!("{error:?}"))
}

async fn like_matches_case_as_postgres_does(target: &Target) {
    let client = target.connect().await;
    assert_eq!(
        text_row(
            &client,
            r"SELECT 'abc' LIKE 'ABC', 'abc' ILIKE 'ABC', 'a%c' LIKE 'a\%c', 'abc' LIKE 'a\%c',
                     'x_z' LIKE 'x#_z' ESCAPE '#', 'Émile' ILIKE 'émile', 'abc' ~~ 'a%',
                     'ABC' !~~* 'a%', 'abc' NOT LIKE 'a_'"
        )
        .await,
        ["f", "t", "t", "f", "t", "t", "t", "f", "t"]
    );
    table(
        &client,
        "sem_names",
        "id int PRIMARY KEY, name text",
        "(1, 'Anna'), (2, 'anton'), (3, 'Bert')",
    )
    .await;
    assert_eq!(
        column(
            &client,
            "SELECT name FROM sem_names WHERE name LIKE 'A%' ORDER BY id"
        )
        .await,
        ["Anna"]
    );
    assert_eq!(
        column(
            &client,
            "SELECT name FROM sem_names WHERE name ILIKE 'a%' ORDER BY id"
        )
        .await,
        ["Anna", "anton"]
    );
    // In binary, through a parameter.
    let rows = client
        .query("SELECT name LIKE $1 FROM sem_names ORDER BY id", &[&"an%"])
        .await
        .unwrap();
    let matched: Vec<bool> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(matched, [false, true, false]);
    // SQLite's own LIKE stays deterministic: a partial index may use it.
    client
        .batch_execute(
            "DROP TABLE IF EXISTS sem_fruit; CREATE TABLE sem_fruit (k int, fruit text); \
             CREATE UNIQUE INDEX sem_berries ON sem_fruit (k) WHERE fruit LIKE '%berry'",
        )
        .await
        .unwrap();
    client
        .batch_execute("INSERT INTO sem_fruit VALUES (1, 'blackberry'), (1, 'apple')")
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "INSERT INTO sem_fruit VALUES (1, 'raspberry')").await,
        "23505"
    );
    // A pattern ending in the escape character fails once a match reaches it.
    assert_eq!(text_row(&client, r"SELECT 'a' LIKE 'a\'").await, ["f"]);
    assert_eq!(sqlstate(&client, r"SELECT 'ab' LIKE 'a\'").await, "22025");
}

async fn nulls_sort_last_ascending_and_first_descending(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_n",
        "id int PRIMARY KEY, x int, s text",
        "(1, 2, 'b'), (2, NULL, 'n'), (3, 1, 'a')",
    )
    .await;
    assert_eq!(
        column(&client, "SELECT id FROM sem_n ORDER BY x").await,
        ["3", "1", "2"]
    );
    assert_eq!(
        column(&client, "SELECT id FROM sem_n ORDER BY x DESC").await,
        ["2", "1", "3"]
    );
    assert_eq!(
        column(&client, "SELECT id FROM sem_n ORDER BY x NULLS FIRST").await,
        ["2", "3", "1"]
    );
    assert_eq!(
        column(&client, "SELECT id FROM sem_n ORDER BY 1 DESC").await,
        ["3", "2", "1"]
    );
    // By an output column's name and position, in windows and aggregates.
    assert_eq!(
        column(&client, "SELECT x AS k, id FROM sem_n ORDER BY k").await,
        ["1", "2", "NULL"]
    );
    assert_eq!(
        column(
            &client,
            "SELECT id FROM (SELECT id, row_number() OVER (ORDER BY x) AS r FROM sem_n) w ORDER BY r"
        )
        .await,
        ["3", "1", "2"]
    );
    assert_eq!(
        column(
            &client,
            "SELECT string_agg(s, ',' ORDER BY x DESC) FROM sem_n"
        )
        .await,
        ["n,b,a"]
    );
    // Keyset pagination over a nullable column sees each row once.
    assert_eq!(
        column(
            &client,
            "SELECT id FROM sem_n WHERE x > 1 OR x IS NULL ORDER BY x LIMIT 5"
        )
        .await,
        ["1", "2"]
    );
}

async fn conditions_are_booleans(target: &Target) {
    let client = target.connect().await;
    let sql = "SELECT 'b' > 'B', EXISTS (SELECT 1 WHERE false), 2 = ANY (ARRAY[1, 2]), \
               gen_random_uuid() IS NOT NULL, 'TrUe'::text::boolean, NOT (1 < 2), \
               1 IS DISTINCT FROM NULL, 3 BETWEEN 1 AND 2";
    assert_eq!(
        text_row(&client, sql).await,
        ["t", "f", "t", "t", "t", "f", "t", "f"]
    );
    let statement = client.prepare(sql).await.unwrap();
    assert!(statement.columns().iter().all(|c| *c.type_() == Type::BOOL));
    let row = client.query_one(&statement, &[]).await.unwrap();
    let values: Vec<bool> = (0..8).map(|i| row.get(i)).collect();
    assert_eq!(values, [true, false, true, true, true, false, true, false]);
    // A condition must be one.
    assert_eq!(sqlstate(&client, "SELECT 1 WHERE 1").await, "42804");
    assert_eq!(sqlstate(&client, "SELECT 1 WHERE 'maybe'").await, "22P02");
    // Booleans stay booleans through subqueries, CTEs, VALUES and joins.
    let sql = "WITH c AS (SELECT 1 = 2 AS odd) \
               SELECT s.x, c.odd, v.column1, j.linked FROM (SELECT true AS x) s, c, \
               (VALUES (3 NOT IN (1, 2))) v \
               LEFT JOIN (SELECT true AS linked) j ON true";
    assert_eq!(text_row(&client, sql).await, ["t", "f", "t", "t"]);
    let row = client.query_one(sql, &[]).await.unwrap();
    assert!(row.columns().iter().all(|c| *c.type_() == Type::BOOL));
}

async fn dates_and_arrays_are_values(target: &Target) {
    let client = target.connect().await;
    assert_eq!(
        text_row(
            &client,
            "SELECT CAST('2024-01-31' AS date) + 1, DATE '2024-03-01' - DATE '2024-02-01', \
             DATE '2024-03-01' - 1, 7 + DATE '2024-02-27', \
             DATE '2024-01-01' = TIMESTAMP '2024-01-01 00:00:00', \
             DATE '2024-01-02' > TIMESTAMP '2024-01-01 23:59:59'"
        )
        .await,
        ["2024-02-01", "29", "2024-02-29", "2024-03-05", "t", "t"]
    );
    let row = client
        .query_one(
            "SELECT CAST('2024-01-31' AS date) + 1, DATE '2024-03-01' - DATE '2024-02-01'",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(
        row.get::<_, NaiveDate>(0),
        NaiveDate::from_ymd_opt(2024, 2, 1).unwrap()
    );
    assert_eq!(row.get::<_, i32>(1), 29);

    table(
        &client,
        "sem_tags",
        "id int PRIMARY KEY, tags text[]",
        "(1, '{red,green,blue}'), (2, '{}')",
    )
    .await;
    assert_eq!(
        text_rows(
            &client,
            "SELECT tags[1], tags[2:3], tags[5], tags[:1] FROM sem_tags ORDER BY id"
        )
        .await,
        [
            [Some("red"), Some("{green,blue}"), None, Some("{red}")].map(|v| v.map(str::to_owned)),
            [None, Some("{}"), None, Some("{}")].map(|v| v.map(str::to_owned)),
        ]
    );
    let row = client
        .query_one("SELECT tags[2], tags[2:3] FROM sem_tags WHERE id = 1", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, &str>(0), "green");
    assert_eq!(row.get::<_, Vec<String>>(1), ["green", "blue"]);
}

async fn integer_arithmetic_is_checked(target: &Target) {
    let client = target.connect().await;
    for (sql, state) in [
        ("SELECT 1/0", "22012"),
        ("SELECT 5 % 0", "22012"),
        ("SELECT 1.5 / 0", "22012"),
        ("SELECT 1::float8 / 0", "22012"),
        ("SELECT 2147483647::int4 + 1", "22003"),
        ("SELECT (-9223372036854775808)::int8 * -1", "22003"),
        ("SELECT 32767::int2 + 1::int2", "22003"),
        ("SELECT -(-2147483648)::int4", "22003"),
        ("SELECT 2147483648::int4", "22003"),
        ("SELECT '9223372036854775807'::float8::int8", "22003"),
        ("SELECT 2147483647.5::float8::int4", "22003"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    assert_eq!(
        text_row(
            &client,
            "SELECT 7 / 2, -7 / 2, 7 % 3, -7 % 3, 2147483647::int8 + 1, 9 / 3 * 2"
        )
        .await,
        ["3", "-3", "1", "-1", "2147483648", "6"]
    );
    // In a table: the column's type decides.
    table(
        &client,
        "sem_counts",
        "id int PRIMARY KEY, small smallint, big bigint",
        "(1, 32767, 9223372036854775807)",
    )
    .await;
    assert_eq!(
        sqlstate(&client, "UPDATE sem_counts SET small = small + 1").await,
        "22003"
    );
    assert_eq!(
        sqlstate(&client, "SELECT big + 1 FROM sem_counts").await,
        "22003"
    );
    let row = client
        .query_one("SELECT small - 1, big - 1 FROM sem_counts", &[])
        .await
        .unwrap();
    // smallint - integer is an integer.
    assert_eq!(row.get::<_, i32>(0), 32766);
    assert_eq!(row.get::<_, i64>(1), 9223372036854775806);
}

async fn casts_read_text_with_postgres_input_rules(target: &Target) {
    let client = target.connect().await;
    for sql in [
        "SELECT '[1,2,]'::json",
        "SELECT '01'::jsonb",
        "SELECT 'true false'::json",
        "SELECT ''::jsonb",
    ] {
        assert_eq!(sqlstate(&client, sql).await, "22P02", "{sql}");
    }
    assert_eq!(
        text_row(
            &client,
            "SELECT ' 1 '::int, '1.5'::numeric::int, 2.5::int, 2.5::float8::int, \
             'TrUe'::boolean, ' off '::boolean, 'y'::boolean, '1e3'::float8, 1::boolean, true::int"
        )
        .await,
        ["1", "2", "3", "2", "t", "f", "t", "1000", "t", "1"]
    );
    for sql in [
        "SELECT '1e3'::int",
        "SELECT 'abc'::int",
        "SELECT '1.5'::int",
        "SELECT 'maybe'::boolean",
        "SELECT ''::float8",
        "SELECT 'x'::numeric",
    ] {
        assert_eq!(sqlstate(&client, sql).await, "22P02", "{sql}");
    }
    assert_eq!(
        sqlstate(&client, "SELECT '99999999999'::int").await,
        "22003"
    );
    // A literal compared with a column takes the column's type.
    table(&client, "sem_ids", "id int PRIMARY KEY", "(7), (8)").await;
    assert_eq!(
        column(&client, "SELECT id FROM sem_ids WHERE id = '7'").await,
        ["7"]
    );
    assert_eq!(
        sqlstate(&client, "SELECT id FROM sem_ids WHERE id = 'seven'").await,
        "22P02"
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO sem_ids VALUES ('nine')").await,
        "22P02"
    );
}

async fn result_columns_are_named_and_typed_as_postgres_does(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_t",
        "x int, y bigint, f float8, s text",
        "(1, 2, 0.5, 'a'), (3, 4, 1.5, 'b')",
    )
    .await;
    let sql = "SELECT 1, 1 + 2::int8, count(*), sum(x), sum(y), avg(x), length('abc'), \
               'a' || 1, x, x::text, 'a'::text, CASE WHEN x > 1 THEN 'big' END, \
               row_number() OVER (ORDER BY x), max(f), 1 > 0, 1.5, coalesce(x, 0), \
               upper(s), s IS NULL, x / 2 AS half, sum(f), DATE '2024-01-01', \
               trim(LEADING '\\x00'::bytea FROM '\\x0061'::bytea), substring('\\x61'::bytea FROM 1) \
               FROM sem_t GROUP BY x, s, f";
    let statement = client.prepare(sql).await.unwrap();
    let described: Vec<(&str, &Type)> = statement
        .columns()
        .iter()
        .map(|c| (c.name(), c.type_()))
        .collect();
    assert_eq!(
        described,
        [
            ("?column?", &Type::INT4),
            ("?column?", &Type::INT8),
            ("count", &Type::INT8),
            ("sum", &Type::INT8),
            ("sum", &Type::NUMERIC),
            ("avg", &Type::NUMERIC),
            ("length", &Type::INT4),
            ("?column?", &Type::TEXT),
            ("x", &Type::INT4),
            ("x", &Type::TEXT),
            ("text", &Type::TEXT),
            ("case", &Type::TEXT),
            ("row_number", &Type::INT8),
            ("max", &Type::FLOAT8),
            ("?column?", &Type::BOOL),
            ("?column?", &Type::NUMERIC),
            ("coalesce", &Type::INT4),
            ("upper", &Type::TEXT),
            ("?column?", &Type::BOOL),
            ("half", &Type::INT4),
            ("sum", &Type::FLOAT8),
            ("date", &Type::DATE),
            ("ltrim", &Type::BYTEA),
            ("substring", &Type::BYTEA),
        ]
    );
    // The same names in the simple protocol's RowDescription.
    let messages = client
        .simple_query("SELECT count(*), 1 + 1, x FROM sem_t GROUP BY x ORDER BY x")
        .await
        .unwrap();
    let names: Vec<String> = messages
        .iter()
        .find_map(|m| match m {
            SimpleQueryMessage::RowDescription(columns) => {
                Some(columns.iter().map(|c| c.name().to_owned()).collect())
            }
            _ => None,
        })
        .unwrap();
    assert_eq!(names, ["count", "?column?", "x"]);
    let row = client
        .query_one("SELECT count(*), sum(x), 1 + 1 FROM sem_t", &[])
        .await
        .unwrap();
    assert_eq!(
        (
            row.get::<_, i64>(0),
            row.get::<_, i64>(1),
            row.get::<_, i32>(2)
        ),
        (2, 4, 2)
    );
}

async fn errors_carry_postgres_sqlstates(target: &Target) {
    let client = target.connect().await;
    table(&client, "sem_e", "a int, b text", "(1, 'x')").await;
    table(&client, "sem_f", "a int, c text", "(1, 'y')").await;
    for (sql, state) in [
        ("SELECT nope FROM sem_e", "42703"),
        ("SELECT sem_e.nope FROM sem_e", "42703"),
        ("SELECT a FROM sem_e, sem_f", "42702"),
        ("SELECT z.a FROM sem_e", "42P01"),
        ("SELECT a FROM nope", "42P01"),
        ("CREATE TABLE sem_system (a int, xmin int)", "42701"),
        ("ALTER TABLE sem_e ADD COLUMN ctid int", "42701"),
        (
            "ALTER TABLE sem_e ADD COLUMN k int PRIMARY KEY, ADD PRIMARY KEY (a)",
            "42P16",
        ),
        ("SELECT a FROM sem_e GROUP BY 3", "42P10"),
        ("SELECT a FROM sem_e ORDER BY 2", "42P10"),
        ("SELECT length(1)", "42883"),
        ("SELECT b + 1 FROM sem_e", "42883"),
        ("SELECT 'a' + 1", "22P02"),
        ("SELEC 1", "42601"),
        ("SELECT 1 UNION SELECT 1, 2", "42601"),
        ("SELECT 1 UNION SELECT 'a'", "22P02"),
        ("SELECT a FROM sem_e UNION SELECT b FROM sem_e", "42804"),
        ("INSERT INTO sem_e (a) VALUES (1, 2)", "42601"),
        ("INSERT INTO sem_e (nope) VALUES (1)", "42703"),
        ("UPDATE sem_e SET a = true", "42804"),
        ("SELECT (SELECT a, b FROM sem_e)", "42601"),
        (
            "INSERT INTO sem_e VALUES (1, 'x') ON CONFLICT (b) DO NOTHING",
            "42P10",
        ),
        (
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT count(*) FROM x) SELECT * FROM x",
            "42P19",
        ),
        // SQLite would loop forever on these.
        (
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x ORDER BY 1) SELECT * FROM x",
            "0A000",
        ),
        (
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x LIMIT 10 OFFSET 1) SELECT * FROM x",
            "0A000",
        ),
        (
            "WITH RECURSIVE x(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x FOR UPDATE) SELECT * FROM x",
            "0A000",
        ),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    // Savepoints and VACUUM, in PostgreSQL's words.
    client.batch_execute("BEGIN").await.unwrap();
    let error = client
        .batch_execute("ROLLBACK TO SAVEPOINT nope")
        .await
        .unwrap_err();
    assert_eq!(error.code().map(|c| c.code()), Some("3B001"));
    assert_eq!(
        error.as_db_error().map(|e| e.message()),
        Some("savepoint \"nope\" does not exist")
    );
    client.batch_execute("ROLLBACK").await.unwrap();
    let error = client
        .batch_execute("BEGIN; VACUUM; COMMIT")
        .await
        .unwrap_err();
    assert_eq!(error.code().map(|c| c.code()), Some("25001"));
    client.batch_execute("ROLLBACK").await.unwrap();
    let error = client
        .query("SELECT nope FROM sem_e", &[])
        .await
        .unwrap_err();
    let db = error.as_db_error().unwrap();
    assert_eq!(db.message(), "column \"nope\" does not exist");
    let error = client.query("SELECT a FROM nope", &[]).await.unwrap_err();
    assert_eq!(
        error.as_db_error().unwrap().message(),
        "relation \"nope\" does not exist"
    );
}

async fn grouped_queries_are_checked(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_g",
        "id int PRIMARY KEY, dept text, pay int",
        "(1, 'a', 10), (2, 'a', 20), (3, 'b', 5)",
    )
    .await;
    table(&client, "sem_g_wide", "id bigint", "(1)").await;
    for sql in [
        "SELECT dept, pay FROM sem_g GROUP BY dept",
        "SELECT pay, count(*) FROM sem_g",
        "SELECT dept FROM sem_g GROUP BY dept HAVING pay > 1",
        "SELECT dept, count(*) FROM sem_g GROUP BY dept ORDER BY pay",
        // Grouping by the column USING merged (made bigint) does not group a
        // table's own.
        "SELECT g.id FROM sem_g g LEFT JOIN sem_g_wide h USING (id) GROUP BY id",
    ] {
        assert_eq!(sqlstate(&client, sql).await, "42803", "{sql}");
    }
    // The merged column is grouped by the joined table's, and by itself.
    for sql in [
        "SELECT id FROM sem_g g LEFT JOIN sem_g_wide h USING (id) GROUP BY g.id ORDER BY 1",
        "SELECT id FROM sem_g g LEFT JOIN sem_g_wide h USING (id) GROUP BY id ORDER BY 1",
        "SELECT g.id FROM sem_g g LEFT JOIN sem_g_wide h USING (id) GROUP BY g.id ORDER BY 1",
        "SELECT g.id FROM sem_g g LEFT JOIN sem_g h USING (id) GROUP BY id ORDER BY 1",
    ] {
        assert_eq!(column(&client, sql).await, ["1", "2", "3"], "{sql}");
    }
    // What PostgreSQL accepts: grouped columns, aggregates, expressions of
    // grouped columns, columns of a table grouped by its primary key.
    assert_eq!(
        text_rows(
            &client,
            "SELECT dept, upper(dept), count(*), sum(pay) FROM sem_g GROUP BY dept ORDER BY dept"
        )
        .await,
        [
            ["a", "A", "2", "30"].map(|v| Some(v.to_owned())),
            ["b", "B", "1", "5"].map(|v| Some(v.to_owned())),
        ]
    );
    assert_eq!(
        column(&client, "SELECT pay FROM sem_g GROUP BY id ORDER BY id").await,
        ["10", "20", "5"]
    );
    assert_eq!(
        column(
            &client,
            "SELECT pay + 1 FROM sem_g GROUP BY pay + 1 ORDER BY 1"
        )
        .await,
        ["6", "11", "21"]
    );
    assert_eq!(column(&client, "SELECT count(*) FROM sem_g").await, ["3"]);
    // A grouping key matches a part of an expression in the select list,
    // HAVING and ORDER BY.
    assert_eq!(
        text_rows(
            &client,
            "SELECT upper(dept) || '!', count(*) FROM sem_g GROUP BY upper(dept) \
             HAVING upper(dept) <> 'C' ORDER BY upper(dept) DESC"
        )
        .await,
        [
            ["B!", "1"].map(|v| Some(v.to_owned())),
            ["A!", "2"].map(|v| Some(v.to_owned())),
        ]
    );
    assert_eq!(
        sqlstate(
            &client,
            "SELECT pay + 1 FROM sem_g GROUP BY pay + 1 ORDER BY pay"
        )
        .await,
        "42803"
    );
    // HAVING without GROUP BY makes one group of all the rows, even none.
    assert_eq!(
        column(&client, "SELECT 1 AS one FROM sem_g HAVING 1 < 2").await,
        ["1"]
    );
    assert_eq!(
        column(&client, "SELECT 1 FROM sem_g HAVING 1 > 2").await,
        Vec::<String>::new()
    );
    assert_eq!(
        text_row(
            &client,
            "SELECT 'x', 2 FROM sem_g WHERE false HAVING count(*) = 0"
        )
        .await,
        ["x", "2"]
    );
    assert_eq!(
        sqlstate(&client, "SELECT pay FROM sem_g HAVING 1 < 2").await,
        "42803"
    );
}

async fn case_changes_cover_unicode(target: &Target) {
    let client = target.connect().await;
    assert_eq!(
        text_row(
            &client,
            "SELECT upper('é'), lower('ÀÉÎ'), initcap('hello wORLD-élan'), upper('straße'), \
             length('héllo'), 'é' > 'z', substr('héllo', 2, 3), substr('abcdef', -1, 3)"
        )
        .await,
        [
            "É",
            "àéî",
            "Hello World-Élan",
            "STRAßE",
            "5",
            "t",
            "éll",
            "a"
        ]
    );
}

async fn inserts_read_values_as_their_columns_types(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS sem_ins; \
             CREATE TABLE sem_ins (id int, note text DEFAULT 'none', data bytea, ok boolean DEFAULT true)",
        )
        .await
        .unwrap();
    // Fewer values than columns: the rest take their defaults.
    client
        .batch_execute(
            r"INSERT INTO sem_ins VALUES ('1'); INSERT INTO sem_ins VALUES (2, 'two', '\x00ff', 'yes')",
        )
        .await
        .unwrap();
    assert_eq!(
        text_rows(
            &client,
            "SELECT id, note, data, ok FROM sem_ins ORDER BY id"
        )
        .await,
        [
            [Some("1"), Some("none"), None, Some("t")].map(|v| v.map(str::to_owned)),
            [Some("2"), Some("two"), Some(r"\x00ff"), Some("t")].map(|v| v.map(str::to_owned)),
        ]
    );
    let row = client
        .query_one("SELECT data FROM sem_ins WHERE id = 2", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, Vec<u8>>(0), [0, 255]);
    for (sql, state) in [
        ("INSERT INTO sem_ins VALUES ('one')", "22P02"),
        ("INSERT INTO sem_ins (ok) VALUES (1)", "42804"),
        ("INSERT INTO sem_ins (id) VALUES (true)", "42804"),
        ("INSERT INTO sem_ins (data) VALUES ('\\x0')", "22023"),
        ("INSERT INTO sem_ins (data) VALUES ('\\q')", "22P02"),
        ("UPDATE sem_ins SET id = 'x'", "22P02"),
        (
            "INSERT INTO sem_ins (id) VALUES (1) ON CONFLICT DO UPDATE SET ok = true",
            "42601",
        ),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
}

async fn subqueries_used_as_values_return_one_row(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_o",
        "id int PRIMARY KEY, a int",
        "(1, 1), (2, 2), (3, 3)",
    )
    .await;
    table(
        &client,
        "sem_y",
        "a int, y int",
        "(1, 10), (2, 20), (2, 21)",
    )
    .await;
    assert_eq!(
        text_rows(
            &client,
            "SELECT id, (SELECT y FROM sem_y WHERE sem_y.a = sem_o.a), \
             (SELECT max(y) FROM sem_y WHERE sem_y.a = sem_o.a) FROM sem_o WHERE id <> 2 ORDER BY id"
        )
        .await,
        [
            [Some("1"), Some("10"), Some("10")].map(|v| v.map(str::to_owned)),
            [Some("3"), None, None].map(|v| v.map(str::to_owned)),
        ]
    );
    for sql in [
        "SELECT id, (SELECT y FROM sem_y WHERE sem_y.a = sem_o.a) FROM sem_o",
        "SELECT (SELECT y FROM sem_y)",
        "UPDATE sem_o SET a = (SELECT y FROM sem_y) WHERE id = 1",
        "SELECT id FROM sem_o WHERE a = (SELECT a FROM sem_y WHERE y > 10)",
    ] {
        assert_eq!(sqlstate(&client, sql).await, "21000", "{sql}");
    }
    assert_eq!(
        column(&client, "SELECT a FROM sem_o WHERE id = 1").await,
        ["1"]
    );
}

async fn floats_keep_their_range_nan_and_printed_digits(target: &Target) {
    let client = target.connect().await;
    for (sql, state) in [
        ("SELECT '10e400'::float8", "22003"),
        ("SELECT '-1e-400'::float8", "22003"),
        ("SELECT '1e39'::float4", "22003"),
        ("SELECT 1e200::float8 * 1e200::float8", "22003"),
        ("SELECT 1e-300::float8 * 1e-300::float8", "22003"),
        ("SELECT ln(0::float8)", "2201E"),
        ("SELECT log(-1::float8)", "2201E"),
        ("SELECT sqrt(-1::float8)", "2201F"),
        ("SELECT power(0::float8, -1::float8)", "2201F"),
        ("SELECT power(-8::float8, 0.5::float8)", "2201F"),
        ("SELECT exp(1000::float8)", "22003"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    // Zero from a zero operand, or divided by infinity, is no underflow.
    assert_eq!(
        text_row(
            &client,
            "SELECT 2::float8 * 0, 2::float8 / 'Infinity', 'NaN'::float8 + 1, 'Infinity'::float8 / 'Infinity'"
        )
        .await,
        ["0", "0", "NaN", "NaN"]
    );
    assert_eq!(
        text_row(
            &client,
            "SELECT power('NaN'::float8, 0::float8), ln('NaN'::float8), exp('-Infinity'::float8), log(100::float8), sqrt(16::float8)"
        )
        .await,
        ["1", "NaN", "0", "2", "4"]
    );
    // NaN is a value: stored, equal to itself, above every number.
    table(
        &client,
        "sem_floats",
        "id int PRIMARY KEY, f float8",
        "(1, 1.5), (2, 'NaN'), (3, '-Infinity'), (4, NULL), (5, 'Infinity')",
    )
    .await;
    assert_eq!(
        column(&client, "SELECT f FROM sem_floats ORDER BY f").await,
        ["-Infinity", "1.5", "Infinity", "NaN", "NULL"]
    );
    assert_eq!(
        column(&client, "SELECT id FROM sem_floats WHERE f = 'NaN'").await,
        ["2"]
    );
    let row = client
        .query_one("SELECT f FROM sem_floats WHERE id = 2", &[])
        .await
        .unwrap();
    assert!(row.get::<_, f64>(0).is_nan());
    // extra_float_digits: 15 + n significant digits at 0 and below, the
    // shortest exact digits above; binary always carries the exact value.
    let sql =
        "SELECT 0.1::float8 + 0.2::float8, 2::float8 / 3, 2::float4 / 3::float4, 2::float4 / 3";
    assert_eq!(
        text_row(&client, sql).await,
        [
            "0.30000000000000004",
            "0.6666666666666666",
            "0.6666667",
            "0.6666666666666666"
        ]
    );
    client
        .simple_query("SET extra_float_digits = 0")
        .await
        .unwrap();
    assert_eq!(
        text_row(&client, sql).await,
        ["0.3", "0.666666666666667", "0.666667", "0.666666666666667"]
    );
    assert_eq!(
        text_row(
            &client,
            "SET extra_float_digits = -3; SELECT 1.2345678901234e200::float8, -0.000012345::float8"
        )
        .await,
        ["1.23456789012e+200", "-1.2345e-05"]
    );
    let row = client.query_one(sql, &[]).await.unwrap();
    assert_eq!(row.get::<_, f64>(0), 0.1 + 0.2);
    // float4 with any other number is float8 arithmetic.
    assert_eq!(row.columns()[2].type_(), &Type::FLOAT4);
    assert_eq!(row.columns()[3].type_(), &Type::FLOAT8);
    for sql in [
        "SET extra_float_digits = 4",
        "SET extra_float_digits = 'many'",
    ] {
        let error = client.simple_query(sql).await.expect_err(sql);
        assert_eq!(error.code().map(|c| c.code()), Some("22023"), "{sql}");
    }
    client
        .simple_query("RESET extra_float_digits")
        .await
        .unwrap();
    assert_eq!(
        text_row(&client, "SELECT 0.1::float8 + 0.2::float8").await,
        ["0.30000000000000004"]
    );
}

async fn errors_point_at_what_they_are_about(target: &Target) {
    let client = target.connect().await;
    table(&client, "sem_points", "id int PRIMARY KEY", "(1)").await;
    // The 1-based character position of the token each error is about, in
    // the extended protocol (Parse) and in a simple query of many statements.
    let position =
        |error: tokio_postgres::Error| match error.as_db_error().and_then(|e| e.position()) {
            Some(tokio_postgres::error::ErrorPosition::Original(at)) => Some(*at),
            _ => None,
        };
    for (sql, at) in [
        ("SELEC 1", 1),
        ("SELECT 1 +", 11),
        ("SELECT 'é', nope FROM sem_points", 13),
        ("SELECT sem_points.nope FROM sem_points", 8),
        ("SELECT id FROM nope", 16),
        ("SELECT 1, 'x'::int", 11),
        ("SELECT 1, '1e400'::float8", 11),
    ] {
        let error = client.query(sql, &[]).await.expect_err(sql);
        assert_eq!(position(error), Some(at), "{sql}");
    }
    let error = client
        .simple_query("SELECT 1; SELECT id FROM sem_points; SELECT nope FROM sem_points")
        .await
        .expect_err("unknown column");
    assert_eq!(position(error), Some(45));
    // An error about no token has no position.
    let error = client.query("SELECT 1 / 0", &[]).await.expect_err("1 / 0");
    assert_eq!(position(error), None);
}

async fn series_count_up_and_down(target: &Target) {
    let client = target.connect().await;
    assert_eq!(
        column(&client, "SELECT * FROM generate_series(1, 5)").await,
        ["1", "2", "3", "4", "5"]
    );
    assert_eq!(
        column(&client, "SELECT n FROM generate_series(5, 1, -2) AS g(n)").await,
        ["5", "3", "1"]
    );
    assert!(
        column(&client, "SELECT * FROM generate_series(5, 1)")
            .await
            .is_empty()
    );
    assert!(
        column(&client, "SELECT * FROM generate_series(1, NULL)")
            .await
            .is_empty()
    );
    // A step of zero would never end: PostgreSQL refuses it.
    assert_eq!(
        sqlstate(&client, "SELECT * FROM generate_series(1, 5, 0)").await,
        "22023"
    );
}

async fn format_reads_postgres_specifiers(target: &Target) {
    let client = target.connect().await;
    assert_eq!(
        text_row(
            &client,
            "SELECT format('INSERT INTO %I VALUES(%L, %L, %s)', 'my tab', 10, NULL, true), \
             format('%2$s %1$s %s|%-4s|%3$*1$L|%%', 5, 'b', 'c''d'), \
             quote_ident('select'), quote_ident('ok_1'), quote_literal(E'a\\\\b'), quote_nullable(NULL)"
        )
        .await,
        [
            "INSERT INTO \"my tab\" VALUES('10', NULL, t)",
            "b 5 b|c'd |'c''d'|%",
            "\"select\"",
            "ok_1",
            "E'a\\\\b'",
            "NULL",
        ]
    );
    for (sql, state) in [
        ("SELECT format('%s %s', 1)", "22023"),
        ("SELECT format('%z', 1)", "22023"),
        ("SELECT format('%0$s', 1)", "22023"),
        ("SELECT format('%I', NULL)", "22004"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
}

async fn values_fit_their_columns_modifiers(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_fits",
        "id int PRIMARY KEY, n numeric(4, 2), v varchar(3), c char(3)",
        "(1, 1.005, 'ab', 'a'), (2, -2.5, 'abc  ', 'abc')",
    )
    .await;
    // Rounded to the scale, half away from zero, on the decimal digits.
    assert_eq!(
        text_rows(&client, "SELECT n, v FROM sem_fits ORDER BY id").await,
        [
            [Some("1.01"), Some("ab")].map(|v| v.map(str::to_owned)),
            [Some("-2.50"), Some("abc")].map(|v| v.map(str::to_owned)),
        ]
    );
    for (sql, state) in [
        ("INSERT INTO sem_fits VALUES (3, 123.4, 'a', 'a')", "22003"),
        ("INSERT INTO sem_fits VALUES (3, 99.999, 'a', 'a')", "22003"),
        ("INSERT INTO sem_fits VALUES (3, 1, 'abcd', 'a')", "22001"),
        ("INSERT INTO sem_fits VALUES (3, 1, 'a', 'abcd')", "22001"),
        ("UPDATE sem_fits SET v = 'toolong'", "22001"),
        ("UPDATE sem_fits SET n = n * 100", "22003"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    // Nothing of a refused statement was written.
    assert_eq!(
        column(&client, "SELECT count(*) FROM sem_fits").await,
        ["2"]
    );
    // Parameters fit too; an explicit cast cuts and rounds.
    client
        .execute(
            "INSERT INTO sem_fits VALUES ($1, $2::float8, $3, 'x')",
            &[&4_i32, &7.12345_f64, &"xyz "],
        )
        .await
        .unwrap();
    assert_eq!(
        text_row(
            &client,
            "SELECT n, v, 'abcd'::varchar(2), 1.256::numeric(3, 2), 2.5::numeric(1) FROM sem_fits WHERE id = 4"
        )
        .await,
        ["7.12", "xyz", "ab", "1.26", "3"]
    );
    // A negative scale rounds to tens and hundreds; one above the precision
    // keeps only a small fraction.
    table(
        &client,
        "sem_fits_scales",
        "h numeric(4, -2), f numeric(2, 5)",
        "(12345, 0.00099)",
    )
    .await;
    assert_eq!(
        text_row(
            &client,
            "SELECT h, f, 1234.5::numeric(3, -1) FROM sem_fits_scales"
        )
        .await,
        ["12300", "0.00099", "1230"]
    );
    assert_eq!(
        column(
            &client,
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute \
             WHERE attrelid = 'sem_fits_scales'::regclass AND attnum > 0 ORDER BY attnum"
        )
        .await,
        ["numeric(4,-2)", "numeric(2,5)"]
    );
    for (sql, state) in [
        ("INSERT INTO sem_fits_scales VALUES (999950, 0)", "22003"),
        ("INSERT INTO sem_fits_scales VALUES (0, 0.00123)", "22003"),
        ("SELECT 1::numeric(0)", "22023"),
        ("SELECT 1::numeric(5, 2000)", "22023"),
        ("SELECT 'a'::varchar(0)", "22023"),
        ("CREATE TABLE sem_fits_bad (a numeric(1001))", "22023"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
}

async fn with_queries_calling_volatile_functions_run_once(target: &Target) {
    let client = target.connect().await;
    // Read twice, the same five random numbers: a UNION of them is five rows.
    assert_eq!(
        column(
            &client,
            "WITH q(x) AS (SELECT random() FROM (VALUES (1), (2), (3), (4), (5)) v) \
             SELECT count(*) FROM (SELECT x FROM q UNION SELECT x FROM q) s"
        )
        .await,
        ["5"]
    );
}

/// Texts that differ only in their integer literals share one reading on
/// litewire (the literals become parameters): each must still give its own
/// answer, name, type and error.
async fn texts_differing_in_integer_literals_mean_each_their_own(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_shapes",
        "id int PRIMARY KEY, a int, b text",
        "(1, 10, 'x'), (2, 20, 'y'), (3, 30, NULL)",
    )
    .await;
    for (id, expected) in [(1, "10"), (3, "30"), (2, "20")] {
        assert_eq!(
            column(
                &client,
                &format!("SELECT a FROM sem_shapes WHERE id = {id}")
            )
            .await,
            [expected]
        );
    }
    assert_eq!(
        column(
            &client,
            "SELECT id FROM sem_shapes ORDER BY id DESC LIMIT 2"
        )
        .await,
        ["3", "2"]
    );
    assert_eq!(
        column(
            &client,
            "SELECT id FROM sem_shapes ORDER BY id DESC LIMIT 1"
        )
        .await,
        ["3"]
    );
    // Positions are syntax, not values.
    assert_eq!(
        text_rows(&client, "SELECT a, b FROM sem_shapes ORDER BY 2").await[0],
        [Some("10".to_owned()), Some("x".to_owned())]
    );
    assert_eq!(
        text_rows(&client, "SELECT a, b FROM sem_shapes ORDER BY 1 DESC").await[0],
        [Some("30".to_owned()), None]
    );
    // Names and checks as for any literal.
    let rows = client
        .simple_query("SELECT 7, 7 + 1 AS eight")
        .await
        .unwrap();
    let Some(SimpleQueryMessage::Row(row)) = rows
        .iter()
        .find(|m| matches!(m, SimpleQueryMessage::Row(_)))
    else {
        panic!("no row")
    };
    assert_eq!(row.columns()[0].name(), "?column?");
    assert_eq!(row.columns()[1].name(), "eight");
    assert_eq!(text_row(&client, "SELECT 1 + 1").await, ["2"]);
    assert_eq!(sqlstate(&client, "SELECT 2147483647 + 1").await, "22003");
    assert_eq!(
        client
            .simple_query("SELECT 2147483647 + 1")
            .await
            .expect_err("overflow")
            .code()
            .map(|c| c.code().to_owned()),
        Some("22003".to_owned())
    );
    client
        .simple_query("UPDATE sem_shapes SET a = a + 5 WHERE id = 2")
        .await
        .unwrap();
    client
        .simple_query("UPDATE sem_shapes SET a = a + 1 WHERE id = 3")
        .await
        .unwrap();
    assert_eq!(
        column(&client, "SELECT a FROM sem_shapes ORDER BY id").await,
        ["10", "25", "31"]
    );
    // After the schema changes, the same shape is read again.
    client
        .simple_query("ALTER TABLE sem_shapes ADD COLUMN c int DEFAULT 4")
        .await
        .unwrap();
    assert_eq!(
        text_row(&client, "SELECT * FROM sem_shapes WHERE id = 1").await,
        ["1", "10", "x", "4"]
    );
}

async fn chained_transactions_and_savepoints_keep_their_modes(target: &Target) {
    let client = target.connect().await;
    table(&client, "sem_chain", "a int", "(0)").await;
    let show = |name: &'static str| {
        let client = &client;
        async move { column(client, &format!("SHOW {name}")).await }
    };
    client
        .batch_execute("START TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .await
        .unwrap();
    client.batch_execute("COMMIT AND CHAIN").await.unwrap();
    // A new transaction, with the same modes.
    assert_eq!(show("transaction_isolation").await, ["repeatable read"]);
    assert_eq!(show("transaction_read_only").await, ["on"]);
    assert_eq!(
        sqlstate(&client, "INSERT INTO sem_chain VALUES (1)").await,
        "25006"
    );
    // A failed transaction ends rolled back; the chain goes on.
    client.batch_execute("ROLLBACK AND CHAIN").await.unwrap();
    assert_eq!(show("transaction_isolation").await, ["repeatable read"]);
    client.batch_execute("COMMIT").await.unwrap();
    assert_eq!(show("transaction_isolation").await, ["read committed"]);
    let error = client
        .batch_execute("COMMIT AND CHAIN")
        .await
        .expect_err("no transaction");
    assert_eq!(error.code().map(|c| c.code()), Some("25P01"));
    // A savepoint gives back the read-only mode set after it.
    client
        .batch_execute("BEGIN; SET TRANSACTION READ WRITE; SAVEPOINT x; SET TRANSACTION READ ONLY")
        .await
        .unwrap();
    assert_eq!(show("transaction_read_only").await, ["on"]);
    client
        .batch_execute("ROLLBACK TO SAVEPOINT x")
        .await
        .unwrap();
    assert_eq!(show("transaction_read_only").await, ["off"]);
    client
        .batch_execute("SAVEPOINT y; SET TRANSACTION READ ONLY; RELEASE SAVEPOINT y")
        .await
        .unwrap();
    assert_eq!(show("transaction_read_only").await, ["off"]);
    client
        .batch_execute("INSERT INTO sem_chain VALUES (2); COMMIT")
        .await
        .unwrap();
    assert_eq!(
        column(&client, "SELECT a FROM sem_chain ORDER BY a").await,
        ["0", "2"]
    );
}

async fn cursor_and_copy_queries_mean_what_they_mean_alone(target: &Target) {
    use futures::TryStreamExt;
    let client = target.connect().await;
    table(&client, "sem_cursor", "a int", "(1), (NULL)").await;
    client
        .batch_execute(
            "BEGIN; DECLARE c CURSOR FOR SELECT a, a = 1 AS one FROM sem_cursor ORDER BY a DESC",
        )
        .await
        .unwrap();
    assert_eq!(
        text_rows(&client, "FETCH 10 FROM c").await,
        [[None, None], [Some("1".to_owned()), Some("t".to_owned())]]
    );
    client
        .batch_execute("DECLARE d CURSOR FOR SELECT a / 0 FROM sem_cursor")
        .await
        .unwrap();
    let error = client
        .simple_query("FETCH 1 FROM d")
        .await
        .expect_err("division by zero");
    assert_eq!(error.code().map(|c| c.code()), Some("22012"));
    client.batch_execute("ROLLBACK").await.unwrap();
    let stream = client
        .copy_out("COPY (SELECT a, 'AbC' LIKE 'abc' AS l FROM sem_cursor ORDER BY a) TO STDOUT")
        .await
        .unwrap();
    let chunks: Vec<bytes::Bytes> = stream.try_collect().await.unwrap();
    assert_eq!(
        String::from_utf8(chunks.concat()).unwrap(),
        "1\tf\n\\N\tf\n"
    );
}

async fn postgres_parameters_are_set_checked_and_shown(target: &Target) {
    let client = target.connect().await;
    // What pg_dump and planners' users set: accepted, shown as PostgreSQL shows it.
    client
        .batch_execute(
            "SET synchronize_seqscans TO off; SET enable_seqscan = OFF; \
             SET work_mem = '1.5MB'; SET random_page_cost = 1.1; SET row_security = off",
        )
        .await
        .unwrap();
    for (name, shown) in [
        ("synchronize_seqscans", "off"),
        ("enable_seqscan", "off"),
        ("work_mem", "1536kB"),
        ("random_page_cost", "1.1"),
        ("max_wal_size", "1GB"),
    ] {
        assert_eq!(
            column(&client, &format!("SHOW {name}")).await,
            [shown],
            "{name}"
        );
    }
    client.batch_execute("RESET work_mem").await.unwrap();
    assert_eq!(column(&client, "SHOW work_mem").await, ["4MB"]);
    // An enum with `on` and `off` takes a Boolean's other spellings; `local`
    // is a value (only `SET TIME ZONE LOCAL` means the default).
    for (set, name, shown) in [
        (
            "SET synchronous_commit = false",
            "synchronous_commit",
            "off",
        ),
        ("SET synchronous_commit TO 1", "synchronous_commit", "on"),
        (
            "SET synchronous_commit = local",
            "synchronous_commit",
            "local",
        ),
        (
            "SET constraint_exclusion = 'yes'",
            "constraint_exclusion",
            "on",
        ),
        (
            "SET TIME ZONE 'Europe/Paris'; SET TIME ZONE LOCAL",
            "TimeZone",
            "Etc/UTC",
        ),
    ] {
        client.batch_execute(set).await.expect(set);
        assert_eq!(
            column(&client, &format!("SHOW {name}")).await,
            [shown],
            "{set}"
        );
    }
    // At COMMIT a SET LOCAL gives way to the session's value: as it was, or as
    // a plain SET or RESET later in the transaction left it; ROLLBACK undoes
    // every change the transaction made.
    for (batch, shown) in [
        (
            "BEGIN; SET work_mem = '8MB'; SET LOCAL work_mem = '16MB'; COMMIT",
            "8MB",
        ),
        (
            "SET work_mem = '2MB'; RESET work_mem; BEGIN; SET LOCAL work_mem = '16MB'; COMMIT",
            "4MB",
        ),
        (
            "BEGIN; SET LOCAL work_mem = '5MB'; SET work_mem = '6MB'; COMMIT",
            "6MB",
        ),
        (
            "BEGIN; SET LOCAL work_mem = '7MB'; RESET work_mem; SET LOCAL work_mem = '9MB'; COMMIT",
            "4MB",
        ),
        // The SET before BEGIN in the same string is in the same transaction.
        (
            "SET work_mem = '2MB'; BEGIN; SET work_mem = '3MB'; ROLLBACK",
            "4MB",
        ),
    ] {
        client.batch_execute(batch).await.expect(batch);
        assert_eq!(column(&client, "SHOW work_mem").await, [shown], "{batch}");
        client.batch_execute("RESET work_mem").await.unwrap();
    }
    for (sql, state) in [
        ("SET work_mem = 10", "22023"),
        ("SET enable_seqscan = 'maybe'", "22023"),
        ("SET bytea_output = 'esc'", "22023"),
        ("SET synchronous_commit = 'maybe'", "22023"),
        ("SET bytea_output = true", "22023"),
        ("SET shared_buffers = '1GB'", "55P02"),
        ("SET no_such_parameter = 1", "42704"),
    ] {
        let error = client.batch_execute(sql).await.expect_err(sql);
        assert_eq!(error.code().map(|c| c.code()), Some(state), "{sql}");
    }
}

/// `DEFAULT` in any row of a multi-row `VALUES`, beside parameters, as query
/// builders send a batch insert with optional columns.
async fn defaults_fill_any_row_of_values(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS with_defaults; \
             CREATE TABLE with_defaults (id serial PRIMARY KEY, a int DEFAULT 7, \
             b text DEFAULT 'x', n int, d int GENERATED BY DEFAULT AS IDENTITY)",
        )
        .await
        .unwrap();
    let rows = client
        .query(
            "INSERT INTO with_defaults (a, b) VALUES (DEFAULT, $1), ($2, DEFAULT) \
             RETURNING id, a, b, n, d",
            &[&"y", &1i32],
        )
        .await
        .unwrap();
    let got: Vec<(i32, i32, String, Option<i32>, i32)> = rows
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
        .collect();
    assert_eq!(
        got,
        [
            (1, 7, "y".to_owned(), None, 1),
            (2, 1, "x".to_owned(), None, 2)
        ]
    );
    assert_eq!(
        text_row(
            &client,
            "INSERT INTO with_defaults VALUES (DEFAULT, 5, DEFAULT, DEFAULT) RETURNING *"
        )
        .await,
        ["3", "5", "x", "NULL", "3"]
    );
    client
        .batch_execute(
            "DROP TABLE IF EXISTS required; CREATE TABLE required (a int NOT NULL, b int DEFAULT 1)",
        )
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "INSERT INTO required VALUES (DEFAULT, 2)").await,
        "23502"
    );
}

/// `CREATE TABLE ... AS` completes as `SELECT n`, n the rows it stored (in a
/// transaction too); `execute` reads n from the tag.
async fn create_table_as_counts_its_rows(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS ctas_source, ctas_all, ctas_none, ctas_values; \
             CREATE TABLE ctas_source (a int); INSERT INTO ctas_source VALUES (1), (2), (3), (4), (5)",
        )
        .await
        .unwrap();
    for (sql, rows) in [
        ("CREATE TABLE ctas_all AS SELECT * FROM ctas_source", 5),
        (
            "CREATE TABLE ctas_none AS SELECT * FROM ctas_source WHERE a > 10",
            0,
        ),
        ("CREATE TABLE ctas_values AS VALUES (1), (2)", 2),
    ] {
        assert_eq!(client.execute(sql, &[]).await.unwrap(), rows, "{sql}");
    }
    client.batch_execute("BEGIN").await.unwrap();
    let in_transaction = client
        .execute(
            "CREATE TEMP TABLE ctas_temp AS SELECT a FROM ctas_source WHERE a < 3",
            &[],
        )
        .await
        .unwrap();
    client.batch_execute("ROLLBACK").await.unwrap();
    assert_eq!(in_transaction, 2);
}

/// The new table's columns have the query's types (a column's modifier
/// kept), and names listed before AS rename them.
async fn create_table_as_keeps_the_query_types(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS ctas_typed_source, ctas_typed, ctas_named, ctas_empty, ctas_public; \
             CREATE TABLE ctas_typed_source (a int, c char(4), e numeric(6,2), v varchar(5)); \
             INSERT INTO ctas_typed_source VALUES (1, 'ab', 1.5, 'xy')",
        )
        .await
        .unwrap();
    let stored = client
        .execute(
            "CREATE TABLE ctas_typed AS SELECT a, c, e, v, a::int8 AS big, a > 0 AS flag, \
             'lit' AS l, ARRAY[a] AS arr, DATE '2024-01-02' AS d FROM ctas_typed_source",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(stored, 1);
    assert_eq!(
        column(
            &client,
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute \
             WHERE attrelid = 'ctas_typed'::regclass AND attnum > 0 ORDER BY attnum"
        )
        .await,
        [
            "integer",
            "character(4)",
            "numeric(6,2)",
            "character varying(5)",
            "bigint",
            "boolean",
            "text",
            "integer[]",
            "date"
        ]
    );
    assert_eq!(
        text_row(&client, "SELECT * FROM ctas_typed").await,
        [
            "1",
            "ab  ",
            "1.50",
            "xy",
            "1",
            "t",
            "lit",
            "{1}",
            "2024-01-02"
        ]
    );
    let rows = client
        .query("SELECT flag, big, d FROM ctas_typed", &[])
        .await
        .unwrap();
    assert!(rows[0].get::<_, bool>(0));
    assert_eq!(rows[0].get::<_, i64>(1), 1);
    assert_eq!(
        rows[0].get::<_, NaiveDate>(2),
        NaiveDate::from_ymd_opt(2024, 1, 2).unwrap()
    );
    client
        .batch_execute(
            "CREATE TABLE ctas_named (x, y) AS SELECT a, v FROM ctas_typed_source; \
             CREATE TABLE ctas_empty AS SELECT a FROM ctas_typed_source WITH NO DATA",
        )
        .await
        .unwrap();
    assert_eq!(
        text_row(&client, "SELECT x, y FROM ctas_named").await,
        ["1", "xy"]
    );
    assert_eq!(
        column(&client, "SELECT count(*) FROM ctas_empty").await,
        ["0"]
    );
    client
        .batch_execute("CREATE TABLE public.ctas_public AS SELECT 7 AS seven")
        .await
        .unwrap();
    assert_eq!(
        column(&client, "SELECT seven FROM public.ctas_public").await,
        ["7"]
    );
    assert_eq!(
        sqlstate(&client, "CREATE TABLE ctas_too_many (x, y) AS SELECT 1").await,
        "42601"
    );
}

/// A `char(n)` value is shown padded to its length, compared and measured
/// without the padding.
async fn char_columns_show_their_padding(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_char",
        "c char(5), d char",
        "('ab', 'x'), ('abcde', NULL)",
    )
    .await;
    assert_eq!(
        text_rows(
            &client,
            "SELECT c, d, length(c), c = 'ab', c || '|' FROM sem_char ORDER BY c"
        )
        .await,
        [
            ["ab   ", "x", "2", "t", "ab|"].map(|v| Some(v.to_owned())),
            ["abcde", "", "5", "f", "abcde|"].map(|v| Some(v.to_owned())),
        ]
        .map(|mut row| {
            // d of the second row is NULL.
            if row[0].as_deref() == Some("abcde") {
                row[1] = None;
            }
            row
        })
    );
    let rows = client
        .query("SELECT c FROM sem_char ORDER BY c", &[])
        .await
        .unwrap();
    assert_eq!(rows[0].get::<_, String>(0), "ab   ");
}

/// What an index has in PostgreSQL and not in SQLite changes no answer: it
/// is accepted, and an unnamed index gets PostgreSQL's name.
async fn index_options_sqlite_lacks_are_accepted(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_ix",
        "f1 int, f2 text",
        "(1, 'a'), (NULL, 'b')",
    )
    .await;
    client
        .batch_execute(
            "CREATE INDEX sem_ix_desc ON sem_ix (f1 DESC NULLS LAST); \
             CREATE INDEX ON sem_ix (f1, f2); \
             CREATE UNIQUE INDEX ON sem_ix USING btree (f2 text_pattern_ops) INCLUDE (f1) WHERE f1 > 0",
        )
        .await
        .unwrap();
    assert_eq!(
        column(
            &client,
            "SELECT indexname::text FROM pg_indexes WHERE tablename = 'sem_ix' ORDER BY 1"
        )
        .await,
        ["sem_ix_desc", "sem_ix_f1_f2_idx", "sem_ix_f2_f1_idx"]
    );
    assert_eq!(
        column(&client, "SELECT f2 FROM sem_ix ORDER BY f1 DESC NULLS LAST").await,
        ["a", "b"]
    );
}

/// numeric arithmetic is decimal: `0.1 + 0.2` is `0.3`, not the float sum
/// `0.30000000000000004` (compared, and shown as float8, so that the
/// answer does not depend on the scale PostgreSQL shows).
async fn numeric_arithmetic_is_decimal(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_money",
        "amount numeric(10,2)",
        "(0.10), (0.20), (19.99)",
    )
    .await;
    assert_eq!(
        text_row(
            &client,
            "SELECT 0.1 + 0.2 = 0.3, 1.1 * 3 = 3.3, 0.3 / 0.1 = 3, 1.0 - 0.9 = 0.1, 5.5 % 2 = 1.5, \
             (0.1 + 0.2)::float8, (19.99 * 3)::float8, (0.3 / 0.1)::float8"
        )
        .await,
        ["t", "t", "t", "t", "t", "0.3", "59.97", "3"]
    );
    assert_eq!(
        text_row(
            &client,
            "SELECT sum(amount) = 20.29, (sum(amount) - 20)::float8, avg(amount) * 3 = 20.29, \
             sum(amount * 3)::float8, round(avg(amount), 4)::float8 FROM sem_money"
        )
        .await,
        ["t", "0.29", "f", "60.87", "6.7633"]
    );
    // float8 keeps float arithmetic.
    assert_eq!(
        text_row(&client, "SELECT 0.1::float8 + 0.2::float8").await,
        ["0.30000000000000004"]
    );
}

/// An error found while reading a statement (a literal that is not its
/// column's type, an unknown column) aborts the transaction block like any
/// other: what follows is 25P02 until ROLLBACK, and nothing is committed.
async fn errors_reading_a_statement_abort_the_transaction(target: &Target) {
    let client = target.connect().await;
    table(&client, "sem_abort", "a int", "(1)").await;
    for bad in [
        "INSERT INTO sem_abort VALUES ('error')",
        "SELECT nosuchcol FROM sem_abort",
        "SELECT 1/0",
    ] {
        client.batch_execute("BEGIN").await.unwrap();
        let error = client.simple_query(bad).await.expect_err(bad);
        assert!(error.code().is_some(), "{bad}: {error:?}");
        let next = client
            .simple_query("INSERT INTO sem_abort VALUES (2)")
            .await
            .expect_err("the transaction is aborted");
        assert_eq!(
            next.code().map(|c| c.code().to_owned()).as_deref(),
            Some("25P02"),
            "after {bad}"
        );
        client.batch_execute("COMMIT").await.unwrap();
    }
    assert_eq!(column(&client, "SELECT a FROM sem_abort").await, ["1"]);
}

/// `SELECT ... INTO t` makes and fills a table, as `CREATE TABLE t AS` does.
async fn select_into_makes_a_table(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "sem_into_source",
        "a int, b text",
        "(2, 'x'), (1, 'y')",
    )
    .await;
    client
        .batch_execute("DROP TABLE IF EXISTS sem_into")
        .await
        .unwrap();
    let stored = client
        .execute(
            "SELECT a, b || '!' AS c INTO sem_into FROM sem_into_source WHERE a > 1",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(stored, 1);
    assert_eq!(
        text_row(&client, "SELECT a, c FROM sem_into").await,
        ["2", "x!"]
    );
    assert_eq!(
        column(
            &client,
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute \
             WHERE attrelid = 'sem_into'::regclass AND attnum > 0 ORDER BY attnum"
        )
        .await,
        ["integer", "text"]
    );
}

/// `ROLLBACK TO` a savepoint closes the cursors declared since; `RELEASE`
/// hands them to the transaction around it.
async fn cursors_declared_since_a_savepoint_end_with_it(target: &Target) {
    let client = target.connect().await;
    table(&client, "sem_cursor", "a int", "(1), (2)").await;
    client
        .batch_execute(
            "BEGIN; DECLARE kept CURSOR FOR SELECT a FROM sem_cursor ORDER BY a; \
             SAVEPOINT x; DECLARE undone CURSOR FOR SELECT a FROM sem_cursor; \
             SAVEPOINT y; DECLARE released CURSOR FOR SELECT a FROM sem_cursor ORDER BY a; \
             RELEASE y; ROLLBACK TO x",
        )
        .await
        .unwrap();
    assert_eq!(column(&client, "FETCH kept").await, ["1"]);
    let error = client
        .simple_query("FETCH released")
        .await
        .expect_err("closed with its savepoint");
    assert_eq!(error.code().map(|c| c.code()), Some("34000"));
    client.batch_execute("ROLLBACK; BEGIN").await.unwrap();
    client
        .batch_execute(
            "SAVEPOINT x; DECLARE moved CURSOR FOR SELECT a FROM sem_cursor ORDER BY a; \
             RELEASE x; SAVEPOINT z; ROLLBACK TO z",
        )
        .await
        .unwrap();
    assert_eq!(column(&client, "FETCH moved").await, ["1"]);
    client.batch_execute("COMMIT").await.unwrap();
}

/// A view's query is read as any query is: its rows, its columns' names and
/// types are PostgreSQL's, and its `*` the columns there were when it was
/// made.
async fn views_mean_what_their_query_means(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP VIEW IF EXISTS view_groups, view_a_names, view_renamed, view_typed; \
             DROP TABLE IF EXISTS view_source; \
             CREATE TABLE view_source (id int, n int, s text, m numeric(6,2)); \
             INSERT INTO view_source VALUES (1, 5, 'Abc', 1.5), (2, -1, 'abc', 2), (3, NULL, NULL, NULL); \
             CREATE VIEW view_groups AS SELECT sum(n), count(*), n > 0, s LIKE 'A%' AS l \
               FROM view_source GROUP BY n, s; \
             CREATE VIEW view_a_names AS SELECT * FROM view_source WHERE s LIKE 'a%'",
        )
        .await
        .unwrap();
    assert_eq!(
        text_rows(&client, "SELECT * FROM view_groups ORDER BY 1").await,
        [
            [Some("-1"), Some("1"), Some("f"), Some("f")],
            [Some("5"), Some("1"), Some("t"), Some("t")],
            [None, Some("1"), None, None],
        ]
        .map(|row| row.map(|v| v.map(str::to_owned)).to_vec())
    );
    let rows = client
        .query("SELECT * FROM view_groups ORDER BY 1", &[])
        .await
        .unwrap();
    let names: Vec<&str> = rows[0].columns().iter().map(|c| c.name()).collect();
    assert_eq!(names, ["sum", "count", "?column?", "l"]);
    let types: Vec<&Type> = rows[0].columns().iter().map(|c| c.type_()).collect();
    assert_eq!(types, [&Type::INT8, &Type::INT8, &Type::BOOL, &Type::BOOL]);
    assert!(rows[1].get::<_, bool>(2));
    assert_eq!(
        column(
            &client,
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute \
             WHERE attrelid = 'view_groups'::regclass AND attnum > 0 ORDER BY attnum"
        )
        .await,
        ["bigint", "bigint", "boolean", "boolean"]
    );
    // A column added to the table later is not the view's.
    client
        .batch_execute("ALTER TABLE view_source ADD COLUMN extra int")
        .await
        .unwrap();
    assert_eq!(
        text_rows(&client, "SELECT * FROM view_a_names").await,
        [["2", "-1", "abc", "2.00"]
            .map(|v| Some(v.to_owned()))
            .to_vec()]
    );
    // `OR REPLACE` keeps the columns there were, in order, and may add more.
    client
        .batch_execute(
            "CREATE OR REPLACE VIEW view_a_names AS SELECT id, n, s, m, 1 AS one FROM view_source",
        )
        .await
        .unwrap();
    assert_eq!(
        column(&client, "SELECT one FROM view_a_names WHERE id = 3").await,
        ["1"]
    );
    for (sql, state) in [
        (
            "CREATE OR REPLACE VIEW view_a_names AS SELECT id FROM view_source",
            "42P16",
        ),
        (
            "CREATE OR REPLACE VIEW view_a_names AS SELECT n, id, s, m, 1 AS one FROM view_source",
            "42P16",
        ),
        ("CREATE OR REPLACE VIEW view_source AS SELECT 1", "42809"),
        ("CREATE VIEW view_typed (x, y, z) AS SELECT 1, 2", "42601"),
        ("CREATE VIEW view_typed AS SELECT 1 AS a, 2 AS a", "42701"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    // Names listed with the view come first; the rest are the query's.
    client
        .batch_execute(
            "CREATE VIEW view_renamed (x) AS SELECT 1 AS a, 2 AS b; \
             CREATE VIEW view_typed AS SELECT id, m, DATE '2024-01-31' + id AS d, ARRAY[id] AS a \
               FROM view_source",
        )
        .await
        .unwrap();
    let rows = client
        .query("SELECT * FROM view_renamed", &[])
        .await
        .unwrap();
    let names: Vec<&str> = rows[0].columns().iter().map(|c| c.name()).collect();
    assert_eq!(names, ["x", "b"]);
    assert_eq!(
        text_row(&client, "SELECT * FROM view_typed WHERE id = 1").await,
        ["1", "1.50", "2024-02-01", "{1}"]
    );
    let rows = client
        .query("SELECT d, a FROM view_typed WHERE id = 1", &[])
        .await
        .unwrap();
    assert_eq!(
        rows[0].get::<_, NaiveDate>(0),
        NaiveDate::from_ymd_opt(2024, 2, 1).unwrap()
    );
    assert_eq!(rows[0].get::<_, Vec<i32>>(1), [1]);
}

/// A column's default, a CHECK constraint and a generated column are read as
/// the same expression in a query is, and shown as they were written.
async fn defaults_and_checks_mean_what_they_mean_in_a_query(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS table_expressions; \
             CREATE TABLE table_expressions ( \
               id int, \
               name text CHECK (name LIKE 'A%'), \
               due date DEFAULT DATE '2024-01-31' + 1, \
               later timestamp DEFAULT TIMESTAMP '2024-01-01 10:00' + interval '1 hour', \
               flag boolean DEFAULT 'yes', \
               quote text DEFAULT 'it''s', \
               n int CHECK (n / 0 > 1 OR n IS NULL), \
               code text CHECK (char_length(code) <= 3), \
               twice int GENERATED ALWAYS AS (id * 2) STORED)",
        )
        .await
        .unwrap();
    for (sql, state) in [
        (
            "INSERT INTO table_expressions (id, name) VALUES (1, 'abc')",
            "23514",
        ),
        (
            "INSERT INTO table_expressions (id, n) VALUES (1, 5)",
            "22012",
        ),
        (
            "INSERT INTO table_expressions (id, code) VALUES (1, 'abcd')",
            "23514",
        ),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    client
        .batch_execute("INSERT INTO table_expressions (id, name, code) VALUES (2, 'Abc', 'ab')")
        .await
        .unwrap();
    assert_eq!(
        text_row(
            &client,
            "SELECT due, later, flag, quote, twice, flag = true FROM table_expressions"
        )
        .await,
        ["2024-02-01", "2024-01-01 11:00:00", "t", "it's", "4", "t"]
    );
    let rows = client
        .query("SELECT due, flag FROM table_expressions", &[])
        .await
        .unwrap();
    assert_eq!(
        rows[0].get::<_, NaiveDate>(0),
        NaiveDate::from_ymd_opt(2024, 2, 1).unwrap()
    );
    assert!(rows[0].get::<_, bool>(1));
    // The catalog shows the CHECK constraints with what they say.
    assert_eq!(
        column(
            &client,
            "SELECT conname FROM pg_constraint \
             WHERE conrelid = 'table_expressions'::regclass AND contype = 'c' ORDER BY 1",
        )
        .await,
        [
            "table_expressions_code_check",
            "table_expressions_n_check",
            "table_expressions_name_check"
        ]
    );
    let definition = column(
        &client,
        "SELECT pg_get_constraintdef(oid) FROM pg_constraint \
         WHERE conname = 'table_expressions_code_check'",
    )
    .await;
    assert!(
        definition[0].contains("char_length(code)"),
        "{definition:?}"
    );
    assert!(!definition[0].contains("litewire"), "{definition:?}");
    // What ALTER TABLE adds means the same.
    client
        .batch_execute(
            "DROP TABLE IF EXISTS altered_expressions; \
             CREATE TABLE altered_expressions (id int PRIMARY KEY, name text); \
             INSERT INTO altered_expressions VALUES (1, 'Alice'); \
             ALTER TABLE altered_expressions ADD CONSTRAINT altered_upper CHECK (name LIKE 'A%'); \
             ALTER TABLE altered_expressions ADD COLUMN tag text DEFAULT 'a' || 'b', \
                 ADD COLUMN flag boolean DEFAULT 1 > 0, ADD COLUMN n numeric(5, 2) DEFAULT 1.005; \
             ALTER TABLE altered_expressions ALTER COLUMN tag SET DEFAULT upper('x') || 'y'; \
             INSERT INTO altered_expressions (id, name) VALUES (2, 'Ann')",
        )
        .await
        .unwrap();
    assert_eq!(
        text_rows(
            &client,
            "SELECT tag, flag, n FROM altered_expressions ORDER BY id"
        )
        .await,
        [
            ["ab", "t", "1.01"].map(|v| Some(v.to_owned())),
            ["Xy", "t", "1.01"].map(|v| Some(v.to_owned())),
        ]
    );
    assert_eq!(
        sqlstate(
            &client,
            "INSERT INTO altered_expressions (id, name) VALUES (3, 'alex')"
        )
        .await,
        "23514"
    );
}

/// A literal holding quotes in a row keeps them all.
async fn string_literals_keep_their_quotes(target: &Target) {
    let client = target.connect().await;
    assert_eq!(
        text_row(&client, r"SELECT 'a''''b', length(''''''), 'x''', '\''s'").await,
        ["a''b", "2", "x'", r"\'s"]
    );
    // Through the rewrites that wrap a subquery too.
    client
        .batch_execute(
            "DROP TABLE IF EXISTS quoted_rows; CREATE TABLE quoted_rows (a text); \
             INSERT INTO quoted_rows VALUES ('x'), ('y')",
        )
        .await
        .unwrap();
    assert_eq!(
        text_row(
            &client,
            "SELECT (SELECT 'a''''b' FROM quoted_rows WHERE a = 'x'), \
             (SELECT q.c FROM (SELECT 'c''''d' FROM quoted_rows WHERE a = 'y') q(c))"
        )
        .await,
        ["a''b", "c''d"]
    );
}

/// `DELETE ... USING` deletes the rows some row of the listed relations
/// matches.
async fn delete_using_joins_other_relations(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS delete_keys, delete_rows; \
             CREATE TABLE delete_keys (a int, b int); CREATE TABLE delete_rows (x int, y int); \
             INSERT INTO delete_keys VALUES (5, 10), (15, 20), (100, 100), (200, 1000); \
             INSERT INTO delete_rows VALUES (5, 20), (6, 7), (7, 8), (500, 100)",
        )
        .await
        .unwrap();
    let deleted = client
        .execute(
            "DELETE FROM delete_rows USING delete_keys k WHERE delete_rows.x = k.a",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(deleted, 1);
    let deleted = client
        .execute(
            "DELETE FROM delete_rows AS r USING delete_keys WHERE r.y = delete_keys.b",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(deleted, 1);
    assert_eq!(
        column(&client, "SELECT x FROM delete_rows ORDER BY x").await,
        ["6", "7"]
    );
    // The relations beside the target do not see it.
    for (sql, state) in [
        (
            "DELETE FROM delete_rows USING delete_keys WHERE nope = 1",
            "42703",
        ),
        (
            "DELETE FROM delete_rows USING (SELECT * FROM delete_keys WHERE b = y) s",
            "42703",
        ),
        (
            "DELETE FROM delete_rows USING (SELECT * FROM delete_keys WHERE b = delete_rows.y) s",
            "42P01",
        ),
        (
            "UPDATE delete_rows SET x = b FROM (SELECT * FROM delete_keys WHERE b = delete_rows.y) s",
            "42P01",
        ),
        // A name the target and a relation both have is ambiguous.
        (
            "DELETE FROM delete_rows USING delete_rows AS d2 WHERE x = 6",
            "42702",
        ),
        (
            "UPDATE delete_rows SET y = 0 FROM delete_rows AS d2 WHERE x = 6",
            "42702",
        ),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    assert_eq!(
        column(&client, "SELECT x || ':' || y FROM delete_rows ORDER BY x").await,
        ["6:7", "7:8"]
    );
}

/// The rows of `sql` (simple protocol), sorted (`RETURNING` has no order),
/// NULL as `"NULL"`, each row's values joined by `|`; then the command tag.
async fn returned(client: &Client, sql: &str) -> (Vec<String>, Vec<String>, String) {
    let mut names = Vec::new();
    let mut rows = Vec::new();
    let mut tag = String::new();
    for message in client
        .simple_query(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e:?}"))
    {
        match message {
            SimpleQueryMessage::RowDescription(columns) => {
                names = columns.iter().map(|c| c.name().to_owned()).collect();
            }
            SimpleQueryMessage::Row(row) => rows.push(
                (0..row.len())
                    .map(|i| row.get(i).unwrap_or("NULL"))
                    .collect::<Vec<_>>()
                    .join("|"),
            ),
            SimpleQueryMessage::CommandComplete(n) => tag = n.to_string(),
            _ => {}
        }
    }
    rows.sort();
    (names, rows, tag)
}

/// `UPDATE ... FROM` and `DELETE ... USING` with `RETURNING`: what they
/// return reads the joined rows (`RETURNING *` is the target's columns, then
/// the other relations'), each target row changed once, and a failure keeps
/// none of the change.
async fn joined_changes_return_the_joined_rows(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS jr_items, jr_prices, jr_dates;
             CREATE TABLE jr_items (id int PRIMARY KEY, label text, price numeric(6,2));
             CREATE TABLE jr_prices (k int, name text);
             CREATE TABLE jr_dates (k int, due date);
             INSERT INTO jr_items SELECT g, 'item ' || g, g * 1.5 FROM generate_series(1, 8) g;
             INSERT INTO jr_prices VALUES (3, 'three'), (4, 'four'), (4, 'FOUR'), (30, 'none');
             INSERT INTO jr_dates VALUES (3, '2024-01-31'), (5, '2024-02-29');",
        )
        .await
        .unwrap();
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (names, rows, tag) = returned(
        &client,
        "UPDATE jr_items SET label = p.name FROM jr_prices p \
         WHERE p.k = jr_items.id AND p.name <> 'FOUR' RETURNING *",
    )
    .await;
    assert_eq!(names, strings(&["id", "label", "price", "k", "name"]));
    assert_eq!(
        rows,
        strings(&["3|three|4.50|3|three", "4|four|6.00|4|four"])
    );
    assert_eq!(tag, "2");
    // What the target returns is its row as changed; expressions read both.
    let (names, rows, _) = returned(
        &client,
        "UPDATE jr_items i SET price = i.price * 2 FROM jr_prices \
         WHERE jr_prices.k = i.id AND jr_prices.name = 'three' \
         RETURNING i.id, jr_prices.name || '!' AS shout, price, upper(label)",
    )
    .await;
    assert_eq!(names, strings(&["id", "shout", "price", "upper"]));
    assert_eq!(rows, strings(&["3|three!|9.00|THREE"]));
    // Joins in FROM keep their meaning (USING merges its column; an outer
    // join's missing side is NULL), and a target row several rows join is
    // changed once.
    let (names, rows, tag) = returned(
        &client,
        "UPDATE jr_items AS q SET id = q.id + 100 FROM jr_prices LEFT JOIN jr_dates USING (k) \
         WHERE jr_prices.k = q.id RETURNING q.id, k, due + 1 AS next",
    )
    .await;
    assert_eq!(names, strings(&["id", "k", "next"]));
    assert_eq!(rows, strings(&["103|3|2024-02-01", "104|4|NULL"]));
    assert_eq!(tag, "2");
    let (names, rows, tag) = returned(
        &client,
        "DELETE FROM jr_items r USING (VALUES (5), (6)) AS s (x), jr_dates \
         WHERE r.id = s.x AND jr_dates.k = 5 RETURNING r.id, s.x, jr_dates.*",
    )
    .await;
    assert_eq!(names, strings(&["id", "x", "k", "due"]));
    assert_eq!(rows, strings(&["5|5|5|2024-02-29", "6|6|5|2024-02-29"]));
    assert_eq!(tag, "2");
    // Parameters anywhere; the returned columns typed in binary.
    let rows = client
        .query(
            "DELETE FROM jr_items USING jr_prices WHERE jr_prices.k + 100 = jr_items.id \
             AND jr_prices.name = $1 RETURNING jr_items.price, jr_prices.k",
            &[&"three"],
        )
        .await
        .unwrap();
    let read: Vec<(rust_decimal::Decimal, i32)> =
        rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    assert_eq!(read, [(rust_decimal::Decimal::new(900, 2), 3)]);
    // A failure in what is returned keeps nothing of the change.
    assert_eq!(
        sqlstate(
            &client,
            "DELETE FROM jr_items USING jr_prices WHERE jr_prices.k + 100 = jr_items.id \
             RETURNING nope"
        )
        .await,
        "42703"
    );
    assert_eq!(
        column(&client, "SELECT id FROM jr_items ORDER BY id").await,
        ["1", "2", "7", "8", "104"]
    );
    // A join that matches nothing changes and returns nothing.
    let (names, rows, tag) = returned(
        &client,
        "UPDATE jr_items SET label = 'x' FROM jr_prices WHERE jr_prices.k = -1 RETURNING *",
    )
    .await;
    assert_eq!(names, strings(&["id", "label", "price", "k", "name"]));
    assert!(rows.is_empty());
    assert_eq!(tag, "0");
}

/// `WITH ... INSERT | UPDATE | DELETE`: the change reads the `WITH` queries
/// with PostgreSQL's rules; an `INSERT` whose rows are narrower than the
/// table fills the leading columns, whatever the rows come from.
async fn changes_after_with_read_its_queries(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "cw_rows",
        "a int, b text DEFAULT 'none', c int",
        "(1, 'one', 1), (2, 'two', 2), (3, 'three', 3)",
    )
    .await;
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let (names, rows, tag) = returned(
        &client,
        "WITH RECURSIVE keys (k) AS (SELECT 1 UNION ALL SELECT k + 1 FROM keys WHERE k < 2) \
         DELETE FROM cw_rows USING keys WHERE keys.k = cw_rows.a RETURNING cw_rows.b, keys.k",
    )
    .await;
    assert_eq!(names, strings(&["b", "k"]));
    assert_eq!(rows, strings(&["one|1", "two|2"]));
    assert_eq!(tag, "2");
    // Without RETURNING too; the keys compare as PostgreSQL compares them.
    let changed = client
        .execute(
            "WITH keys AS (SELECT 'THREE' AS k) UPDATE cw_rows SET c = 30 FROM keys \
             WHERE upper(cw_rows.b) = keys.k",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(changed, 1);
    let changed = client
        .execute(
            "WITH keys AS (SELECT 'THREE' AS k) DELETE FROM cw_rows USING keys WHERE b = keys.k",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(changed, 0);
    let (names, rows, tag) = returned(
        &client,
        "WITH s AS (SELECT g FROM generate_series(7, 8) g) INSERT INTO cw_rows SELECT g FROM s \
         RETURNING *",
    )
    .await;
    assert_eq!(names, strings(&["a", "b", "c"]));
    assert_eq!(rows, strings(&["7|none|NULL", "8|none|NULL"]));
    assert_eq!(tag, "2");
    let (_, rows, _) = returned(
        &client,
        "INSERT INTO cw_rows SELECT 9, 'nine' UNION ALL SELECT 10, 'ten' RETURNING *",
    )
    .await;
    assert_eq!(rows, strings(&["10|ten|NULL", "9|nine|NULL"]));
    // A `WITH` of the query's own, and one before the INSERT too.
    let (_, rows, _) = returned(
        &client,
        "WITH o AS (SELECT 1 AS n) INSERT INTO cw_rows WITH s AS (SELECT 11 AS v)          SELECT v + n FROM s, o RETURNING a, b",
    )
    .await;
    assert_eq!(rows, strings(&["12|none"]));
    assert_eq!(
        sqlstate(&client, "INSERT INTO cw_rows SELECT 1, 'x', 2, 3").await,
        "42601"
    );
    assert_eq!(
        column(&client, "SELECT a FROM cw_rows ORDER BY a").await,
        ["3", "7", "8", "9", "10", "12"]
    );
}

/// `outer.*` in a subquery (a `LATERAL` one, a scalar one) expands to the
/// outer relation's columns, as a column of it would be read.
async fn outer_relations_expand_in_subqueries(target: &Target) {
    let client = target.connect().await;
    table(&client, "oe_words", "w text", "('doh!'), ('hi')").await;
    table(
        &client,
        "oe_pairs",
        "q1 int8, q2 int8",
        "(123, 456), (4567890123456789, 123)",
    )
    .await;
    assert_eq!(
        text_rows(
            &client,
            "SELECT * FROM oe_words t1 LEFT JOIN oe_pairs p ON p.q2 = 123, \
             LATERAL (SELECT p.q1, t2.w FROM oe_words t2 ORDER BY t2.w LIMIT 1) AS ss1, \
             LATERAL (SELECT ss1.* FROM oe_words t3 LIMIT 1) AS ss2 WHERE t1.w = ss2.w"
        )
        .await,
        [[
            Some("doh!".to_owned()),
            Some("4567890123456789".to_owned()),
            Some("123".to_owned()),
            Some("4567890123456789".to_owned()),
            Some("doh!".to_owned()),
            Some("4567890123456789".to_owned()),
            Some("doh!".to_owned()),
        ]]
    );
    assert_eq!(
        column(
            &client,
            "SELECT x.q2 FROM oe_pairs, LATERAL (SELECT oe_pairs.*) x ORDER BY 1"
        )
        .await,
        ["123", "456"]
    );
    assert_eq!(
        sqlstate(
            &client,
            "SELECT (SELECT oe_pairs.* FROM oe_words LIMIT 1) FROM oe_pairs"
        )
        .await,
        "42601"
    );
    assert_eq!(
        sqlstate(
            &client,
            "SELECT (SELECT nope.* FROM oe_words LIMIT 1) FROM oe_pairs"
        )
        .await,
        "42P01"
    );
}

/// A primary key's columns are `NOT NULL`, declared so or not.
async fn primary_key_columns_refuse_null(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS pk_single, pk_pair;
             CREATE TABLE pk_single (a int PRIMARY KEY, b text);
             CREATE TABLE pk_pair (a int, b text, c int, PRIMARY KEY (a, b));",
        )
        .await
        .unwrap();
    for sql in [
        "INSERT INTO pk_single VALUES (NULL, 'x')",
        "INSERT INTO pk_pair VALUES (1, NULL, 1)",
    ] {
        let error = client.execute(sql, &[]).await.expect_err(sql);
        let error = error.as_db_error().expect("a database error");
        assert_eq!(error.code().code(), "23502", "{sql}");
        assert!(
            error.message().ends_with("violates not-null constraint"),
            "{sql}: {}",
            error.message()
        );
    }
    client
        .execute("INSERT INTO pk_pair VALUES (1, 'a', NULL)", &[])
        .await
        .unwrap();
    assert_eq!(
        column(
            &client,
            "SELECT attname || ':' || attnotnull FROM pg_attribute \
             WHERE attrelid = 'pk_pair'::regclass AND attnum > 0 ORDER BY attnum"
        )
        .await,
        ["a:true", "b:true", "c:false"]
    );
}

/// `INSERT ... ON CONFLICT DO UPDATE` refuses (21000) rows that would change
/// one row twice, and changes nothing then.
async fn upserts_change_a_row_once(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "upsert_once",
        "k int PRIMARY KEY, v int",
        "(1, 1), (2, 2)",
    )
    .await;
    for sql in [
        "INSERT INTO upsert_once VALUES (4, 1), (4, 2) ON CONFLICT (k) DO UPDATE SET v = 0",
        "INSERT INTO upsert_once VALUES (1, 5), (3, 3), (1, 6) ON CONFLICT (k) DO UPDATE SET v = 0",
        "INSERT INTO upsert_once (v, k) VALUES (7, 3), (8, '3') ON CONFLICT (k) DO UPDATE SET v = 0",
        // The first inserts the row the second would change.
        "INSERT INTO upsert_once VALUES (7, 1), (7, 2) ON CONFLICT (k) DO UPDATE SET v = 0 \
         WHERE upsert_once.v > 100",
    ] {
        assert_eq!(sqlstate(&client, sql).await, "21000", "{sql}");
    }
    let statement = client
        .prepare(
            "INSERT INTO upsert_once VALUES ($1, 10), ($2, 20) \
             ON CONFLICT (k) DO UPDATE SET v = excluded.v",
        )
        .await
        .unwrap();
    let error = client
        .execute(&statement, &[&2i32, &2i32])
        .await
        .unwrap_err();
    assert_eq!(error.code().map(|c| c.code()), Some("21000"));
    assert_eq!(
        client.execute(&statement, &[&2i32, &5i32]).await.unwrap(),
        2
    );
    // A row a `WHERE` leaves as it was is changed by neither.
    assert_eq!(
        client
            .execute(
                "INSERT INTO upsert_once VALUES (1, 7), (1, 8) ON CONFLICT (k) \
                 DO UPDATE SET v = excluded.v WHERE upsert_once.v > 100",
                &[],
            )
            .await
            .unwrap(),
        0
    );
    // Rows of distinct keys, and keys that DO NOTHING skips, go in as ever.
    assert_eq!(
        client
            .execute(
                "INSERT INTO upsert_once VALUES (6, 1), (6, 2) ON CONFLICT (k) DO NOTHING",
                &[],
            )
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        column(&client, "SELECT k || ':' || v FROM upsert_once ORDER BY k").await,
        ["1:1", "2:10", "5:20", "6:1"]
    );
}

/// A `WITH` query's column list names its first columns (the rest keep
/// theirs); one longer than the columns is 42P10.
async fn with_column_lists_name_the_first_columns(target: &Target) {
    let client = target.connect().await;
    let (names, rows, _) = returned(
        &client,
        "WITH x (n) AS (SELECT 1, 2 AS two) SELECT * FROM x",
    )
    .await;
    assert_eq!(names, ["n", "two"]);
    assert_eq!(rows, ["1|2"]);
    let (names, rows, _) = returned(
        &client,
        "WITH RECURSIVE x (n) AS (SELECT 1, 'a' AS s UNION ALL SELECT n + 1, s FROM x WHERE n < 3) \
         SELECT n, s FROM x",
    )
    .await;
    assert_eq!(names, ["n", "s"]);
    assert_eq!(rows, ["1|a", "2|a", "3|a"]);
    for sql in [
        "WITH x (n, b) AS (SELECT 1) SELECT * FROM x",
        "WITH RECURSIVE x (n, b) AS (SELECT 1 UNION ALL SELECT n + 1 FROM x WHERE n < 3) SELECT * FROM x",
    ] {
        assert_eq!(sqlstate(&client, sql).await, "42P10", "{sql}");
    }
}

/// `SET (a, b) = (...)`: several columns from a list of values, `ROW(...)`
/// or a subquery, which gives one row (none: NULLs; a second: 21000).
async fn row_assignments_set_several_columns(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS row_set; CREATE TABLE row_set (a int, b int, c text); \
             INSERT INTO row_set VALUES (5, 10, 'foo'), (10, 15, NULL)",
        )
        .await
        .unwrap();
    let run = |sql: &'static str| {
        let client = &client;
        async move { client.execute(sql, &[]).await.unwrap() }
    };
    assert_eq!(
        run("UPDATE row_set SET (c, b) = ('bugle', b + 11) WHERE c = 'foo'").await,
        1
    );
    assert_eq!(
        run("UPDATE row_set SET (b, a) = (SELECT a + 1, b FROM row_set WHERE a = 10) WHERE c IS NULL")
            .await,
        1
    );
    assert_eq!(
        text_rows(&client, "SELECT a, b, c FROM row_set ORDER BY b").await,
        [
            vec![Some("15".to_owned()), Some("11".to_owned()), None],
            vec![
                Some("5".to_owned()),
                Some("21".to_owned()),
                Some("bugle".to_owned())
            ],
        ]
    );
    assert_eq!(
        sqlstate(
            &client,
            "UPDATE row_set SET (b, a) = (SELECT a + 1, b FROM row_set)"
        )
        .await,
        "21000"
    );
    run("UPDATE row_set SET (a, b) = ROW(1, 2) WHERE c = 'bugle'").await;
    run("UPDATE row_set AS r SET (a, b) = (SELECT r.b, r.a) WHERE c IS NULL").await;
    run("UPDATE row_set SET (a, b) = (SELECT 7, 8 WHERE false) WHERE c = 'bugle'").await;
    run("UPDATE row_set SET (a, b) = ROW(v.*) FROM (VALUES (11, 15)) AS v (i, j) WHERE row_set.c IS NULL").await;
    assert_eq!(
        text_rows(&client, "SELECT a, b FROM row_set ORDER BY c").await,
        [
            vec![None, None],
            vec![Some("11".to_owned()), Some("15".to_owned())]
        ]
    );
    for (sql, state) in [
        ("UPDATE row_set SET (a, b) = (1, 2, 3)", "42601"),
        ("UPDATE row_set SET (a, b) = (SELECT 1)", "42601"),
        ("UPDATE row_set SET (a, b) = ('x', 2)", "22P02"),
        // `(v.*)` is no row constructor: refused, where `ROW(v.*)` is one.
        (
            "UPDATE row_set SET (a, b) = (v.*) FROM (VALUES (1, 2)) AS v (i, j)",
            "0A000",
        ),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
}

async fn updates_assign_defaults_through_aliases(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS upd_default; \
             CREATE TABLE upd_default (a int DEFAULT 10, b int, n numeric(5, 2) DEFAULT 1.005, \
                                       l text DEFAULT 'a' || 'b'); \
             INSERT INTO upd_default VALUES (5, 10, 2, 'foo'), (10, 15, 3, NULL)",
        )
        .await
        .unwrap();
    let run = |sql: &'static str| {
        let client = &client;
        async move { client.execute(sql, &[]).await.unwrap() }
    };
    // DEFAULT is the column's default, as an INSERT's would be; a column
    // without one becomes NULL.
    assert_eq!(
        run("UPDATE upd_default SET a = DEFAULT, b = DEFAULT WHERE a = 5").await,
        1
    );
    assert_eq!(
        run("UPDATE upd_default SET (n, l) = (DEFAULT, DEFAULT) WHERE a = 10 AND b = 15").await,
        1
    );
    // The target's alias needs no AS.
    assert_eq!(
        run("UPDATE upd_default u SET b = u.a + 1 WHERE u.b IS NULL").await,
        1
    );
    assert_eq!(
        text_rows(&client, "SELECT a, b, n, l FROM upd_default ORDER BY b").await,
        [
            ["10", "11", "2.00", "foo"].map(|v| Some(v.to_owned())),
            ["10", "15", "1.01", "ab"].map(|v| Some(v.to_owned())),
        ]
    );
    assert_eq!(run("DELETE FROM upd_default d WHERE d.b = 11").await, 1);
    for (sql, state) in [
        ("UPDATE upd_default SET a = 1, a = 2", "42601"),
        ("UPDATE upd_default SET (a, b) = (1, 2), b = 3", "42601"),
        ("UPDATE upd_default SET missing = DEFAULT", "42703"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
}

async fn temp_tables_are_read_as_postgres_reads_them(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS temp_shadowed; CREATE TABLE temp_shadowed (a int); \
             INSERT INTO temp_shadowed VALUES (1); \
             CREATE TEMP TABLE temp_shadowed (b boolean, k int PRIMARY KEY); \
             INSERT INTO temp_shadowed VALUES (true, 1), (false, 2); \
             CREATE TEMP TABLE temp_child (k int UNIQUE, d int); \
             INSERT INTO temp_child VALUES (1, 100), (4, 400)",
        )
        .await
        .unwrap();
    // The TEMP table's columns, over the main one's: booleans are t/f, and
    // a subquery's on the nullable side of a join keeps its type.
    assert_eq!(
        text_rows(
            &client,
            "SELECT p.b, ss.linked, ss.d FROM temp_shadowed p \
             LEFT JOIN (SELECT c.*, true AS linked FROM temp_child c) AS ss ON p.k = ss.k ORDER BY p.k"
        )
        .await,
        [
            vec![Some("t".to_owned()), Some("t".to_owned()), Some("100".to_owned())],
            vec![Some("f".to_owned()), None, None],
        ]
    );
    assert_eq!(
        sqlstate(&client, "SELECT k / 0 FROM temp_shadowed").await,
        "22012"
    );
    client
        .batch_execute("DROP TABLE temp_shadowed")
        .await
        .unwrap();
    // Dropped, the main table is seen again.
    assert_eq!(column(&client, "SELECT a FROM temp_shadowed").await, ["1"]);
}

async fn query_strings_run_as_implicit_transaction_blocks(target: &Target) {
    let client = target.connect().await;
    table(&client, "sem_implicit", "a int", "(0)").await;
    let run = |sql: &'static str| {
        let client = &client;
        async move {
            client
                .batch_execute(sql)
                .await
                .err()
                .and_then(|e| e.code().cloned())
        }
    };
    // An error undoes the whole string.
    assert!(
        run("INSERT INTO sem_implicit VALUES (1); SELECT 1/0")
            .await
            .is_some()
    );
    // COMMIT ends the implicit block with what came before; the statements
    // after it are another block, undone by their error.
    assert!(
        run("INSERT INTO sem_implicit VALUES (2); COMMIT; INSERT INTO sem_implicit VALUES (3); SELECT 1/0")
            .await
            .is_some()
    );
    // ROLLBACK undoes what came before it in the string.
    assert!(
        run("INSERT INTO sem_implicit VALUES (4); ROLLBACK; SELECT 2")
            .await
            .is_none()
    );
    // BEGIN makes the block explicit: it outlives the string, with what
    // ran before it.
    assert!(
        run("INSERT INTO sem_implicit VALUES (5); BEGIN; INSERT INTO sem_implicit VALUES (6)")
            .await
            .is_none()
    );
    assert!(run("ROLLBACK").await.is_none());
    assert!(
        run("INSERT INTO sem_implicit VALUES (7); BEGIN; INSERT INTO sem_implicit VALUES (8)")
            .await
            .is_none()
    );
    assert!(run("COMMIT").await.is_none());
    // A chain or a savepoint has no block to live in.
    for sql in [
        "INSERT INTO sem_implicit VALUES (9); COMMIT AND CHAIN",
        "INSERT INTO sem_implicit VALUES (10); SAVEPOINT s",
        "INSERT INTO sem_implicit VALUES (11); COMMIT; SAVEPOINT s",
    ] {
        assert_eq!(
            run(sql).await,
            Some(tokio_postgres::error::SqlState::NO_ACTIVE_SQL_TRANSACTION),
            "{sql}"
        );
    }
    assert_eq!(
        column(&client, "SELECT a FROM sem_implicit ORDER BY a").await,
        ["0", "2", "7", "8", "11"]
    );
}

async fn bytea_shows_as_bytea_output_says(target: &Target) {
    let client = target.connect().await;
    let shown = "SELECT '\\xdeadbeef'::bytea, 'a\\\\b'::bytea, '\\x00ff41'::bytea, ''::bytea";
    assert_eq!(
        text_row(&client, shown).await,
        ["\\xdeadbeef", "\\x615c62", "\\x00ff41", "\\x"]
    );
    client
        .batch_execute("SET bytea_output = escape")
        .await
        .unwrap();
    assert_eq!(
        text_row(&client, shown).await,
        ["\\336\\255\\276\\357", "a\\\\b", "\\000\\377A", ""]
    );
    client.batch_execute("RESET bytea_output").await.unwrap();
    assert_eq!(text_row(&client, shown).await[0], "\\xdeadbeef");
}

async fn offset_stands_without_limit(target: &Target) {
    let client = target.connect().await;
    table(&client, "offsets", "n int", "(3), (1), (2), (NULL)").await;
    assert_eq!(
        column(&client, "SELECT n FROM offsets ORDER BY n OFFSET 2").await,
        ["3", "NULL"]
    );
    assert_eq!(
        column(
            &client,
            "SELECT n FROM offsets ORDER BY n LIMIT ALL OFFSET 3"
        )
        .await,
        ["NULL"]
    );
    // A parameter, as ORMs page (`OFFSET $1`).
    let rows = client
        .query("SELECT n FROM offsets ORDER BY n DESC OFFSET $1", &[&3i64])
        .await
        .unwrap();
    let values: Vec<Option<i32>> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(values, [Some(1)]);
}

async fn arrays_contain_and_overlap(target: &Target) {
    let client = target.connect().await;
    assert_eq!(
        text_row(
            &client,
            "SELECT ARRAY[1, 2] @> ARRAY[2], ARRAY[1, NULL] @> ARRAY[NULL]::int[], \
             ARRAY[1, 1] <@ ARRAY[1], '{}'::int[] <@ ARRAY[1], ARRAY[3] && ARRAY[1, 2], \
             ARRAY['a', 'b'] && '{b,c}', NULL::text[] @> ARRAY['a']"
        )
        .await,
        ["t", "f", "t", "t", "f", "t", "NULL"]
    );
    table(
        &client,
        "tagged",
        "id int, tags text[]",
        "(1, '{red,blue}'), (2, '{blue}'), (3, NULL)",
    )
    .await;
    // An untyped parameter is an array of the column's type (Prisma's `has`).
    let rows = client
        .query(
            "SELECT id FROM tagged WHERE tags @> $1 ORDER BY id",
            &[&vec!["blue"]],
        )
        .await
        .unwrap();
    let ids: Vec<i32> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(ids, [1, 2]);
    assert_eq!(
        column(&client, "SELECT id FROM tagged WHERE tags && '{red,green}'").await,
        ["1"]
    );
    assert_eq!(
        sqlstate(&client, "SELECT ARRAY[1] @> ARRAY['a']").await,
        "42883"
    );
}

async fn unique_violations_name_their_constraint(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS accounts_u; \
             CREATE TABLE accounts_u (id int PRIMARY KEY, email text UNIQUE, a int, b int, code text, \
             CONSTRAINT accounts_u_pair UNIQUE (a, b)); \
             CREATE UNIQUE INDEX accounts_u_lower ON accounts_u (b) WHERE b > 100; \
             CREATE UNIQUE INDEX accounts_u_folded ON accounts_u (lower(code)); \
             INSERT INTO accounts_u VALUES (1, 'x', 1, 1, 'K1'), (2, 'y', 2, 101, 'K2')",
        )
        .await
        .unwrap();
    for (sql, constraint) in [
        (
            "INSERT INTO accounts_u VALUES (1, 'z', 3, 3, NULL)",
            "accounts_u_pkey",
        ),
        (
            "INSERT INTO accounts_u VALUES (3, 'x', 3, 3, NULL)",
            "accounts_u_email_key",
        ),
        (
            "INSERT INTO accounts_u VALUES (3, 'z', 1, 1, NULL)",
            "accounts_u_pair",
        ),
        (
            "UPDATE accounts_u SET b = 101 WHERE id = 1",
            "accounts_u_lower",
        ),
        (
            "INSERT INTO accounts_u VALUES (3, 'z', 3, 3, 'k1')",
            "accounts_u_folded",
        ),
    ] {
        let error = client.execute(sql, &[]).await.expect_err(sql);
        let db = error.as_db_error().expect(sql);
        assert_eq!(db.code().code(), "23505", "{sql}");
        assert_eq!(
            db.message(),
            format!("duplicate key value violates unique constraint \"{constraint}\""),
            "{sql}"
        );
        assert_eq!(
            (db.schema(), db.table(), db.constraint()),
            (Some("public"), Some("accounts_u"), Some(constraint)),
            "{sql}"
        );
    }
}

async fn set_returning_calls_over_one_array_advance_together(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "srf_step",
        "id int, a text[]",
        "(1, '{x,y}'), (2, '{}'), (3, NULL), (4, '{z}')",
    )
    .await;
    let rows = text_rows(
        &client,
        "SELECT id, unnest(a) AS v, generate_subscripts(a, 1) AS i FROM srf_step ORDER BY id, i",
    )
    .await;
    let rows: Vec<Vec<String>> = rows
        .into_iter()
        .map(|row| row.into_iter().map(Option::unwrap_or_default).collect())
        .collect();
    assert_eq!(rows, [["1", "x", "1"], ["1", "y", "2"], ["4", "z", "1"]]);
    // An output column named as a column of the function's rows would be.
    assert_eq!(
        column(
            &client,
            "SELECT id FROM srf_step, unnest(a) WITH ORDINALITY AS u(v, n) ORDER BY id DESC, n"
        )
        .await,
        ["4", "1", "1"]
    );
}

async fn sql_functions_read_as_their_bodies(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS fn_items, fn_defaults; \
             DROP FUNCTION IF EXISTS doubled(int); DROP FUNCTION IF EXISTS item_count(int); \
             DROP FUNCTION IF EXISTS label(text, int); DROP FUNCTION IF EXISTS answer(); \
             DROP FUNCTION IF EXISTS first_or(text); DROP FUNCTION IF EXISTS gone(); \
             CREATE TABLE fn_items (id int PRIMARY KEY, owner int, price numeric(10,2), name text); \
             INSERT INTO fn_items VALUES (1, 7, 10, 'lamp'), (2, 7, 2.5, 'bulb'), (3, 8, 99.5, 'desk'); \
             CREATE FUNCTION doubled(p int) RETURNS bigint LANGUAGE sql IMMUTABLE \
               AS $$ SELECT p * 2 $$; \
             CREATE FUNCTION item_count(owner int) RETURNS bigint LANGUAGE sql STABLE \
               AS 'SELECT count(*) FROM fn_items WHERE fn_items.owner = item_count.owner'; \
             CREATE FUNCTION label(name text, n int) RETURNS text LANGUAGE sql \
               RETURN upper(name) || '#' || n; \
             CREATE FUNCTION answer() RETURNS int LANGUAGE sql AS 'SELECT 42'; \
             CREATE FUNCTION first_or(text) RETURNS text LANGUAGE sql STRICT \
               AS 'SELECT coalesce(min(name), $1) FROM fn_items WHERE name > $1'",
        )
        .await
        .unwrap();
    // An argument read by name, by number, by its function's name; a body
    // that reads a table, in a grouped query; the result's type declared.
    assert_eq!(
        text_row(
            &client,
            "SELECT doubled(owner), pg_typeof(doubled(owner)) FROM fn_items WHERE id = 3"
        )
        .await,
        ["16", "bigint"]
    );
    assert_eq!(
        text_rows(
            &client,
            "SELECT owner, item_count(owner), pg_typeof(item_count(owner)) FROM fn_items \
             GROUP BY owner ORDER BY owner"
        )
        .await,
        [
            [Some("7".into()), Some("2".into()), Some("bigint".into())],
            [Some("8".into()), Some("1".into()), Some("bigint".into())]
        ]
    );
    assert_eq!(
        column(
            &client,
            "SELECT label(name, id) FROM fn_items WHERE doubled(id) <> 4 ORDER BY 1"
        )
        .await,
        ["DESK#3", "LAMP#1"]
    );
    assert_eq!(
        text_row(
            &client,
            "SELECT answer(), answer() + 1, first_or('c'), first_or(NULL), first_or('z')"
        )
        .await,
        ["42", "43", "desk", "NULL", "z"]
    );
    // A parameter takes the argument's type.
    let rows = client
        .query("SELECT label($1, $2)", &[&"ada", &7i32])
        .await
        .unwrap();
    assert_eq!(rows[0].get::<_, String>(0), "ADA#7");
    // In a default; made in a transaction rolled back, it is gone.
    client
        .batch_execute(
            "CREATE TABLE fn_defaults (id int, n int DEFAULT answer()); \
             INSERT INTO fn_defaults (id) VALUES (1)",
        )
        .await
        .unwrap();
    client
        .batch_execute(
            "BEGIN; CREATE FUNCTION gone() RETURNS int LANGUAGE sql AS 'SELECT 1'; ROLLBACK",
        )
        .await
        .unwrap();
    assert_eq!(column(&client, "SELECT n FROM fn_defaults").await, ["42"]);
    assert_eq!(sqlstate(&client, "SELECT gone()").await, "42883");
    // A statement prepared before `OR REPLACE` reads the new body.
    let prepared = client.prepare("SELECT answer()").await.unwrap();
    client
        .batch_execute(
            "CREATE OR REPLACE FUNCTION answer() RETURNS int LANGUAGE sql AS 'SELECT 43'",
        )
        .await
        .unwrap();
    let rows = client.query(&prepared, &[]).await.unwrap();
    assert_eq!(rows[0].get::<_, i32>(0), 43);
    assert_eq!(
        text_row(
            &client,
            "SELECT proname, pronargs, format_type(prorettype, NULL), provolatile, proisstrict \
             FROM pg_proc WHERE proname = 'item_count'"
        )
        .await,
        ["item_count", "1", "bigint", "s", "f"]
    );
    for (sql, state) in [
        (
            "CREATE FUNCTION answer() RETURNS int LANGUAGE sql AS 'SELECT 1'",
            "42723",
        ),
        (
            "CREATE OR REPLACE FUNCTION answer() RETURNS text LANGUAGE sql AS 'SELECT ''x'''",
            "42P13",
        ),
        (
            "CREATE FUNCTION wrong() RETURNS int LANGUAGE sql AS 'SELECT ''x''::text'",
            "42P13",
        ),
        (
            "CREATE FUNCTION nowhere() RETURNS int LANGUAGE sql AS 'SELECT x FROM no_such_table'",
            "42P01",
        ),
        ("SELECT doubled('x'::text)", "42883"),
        ("SELECT label('a')", "42883"),
        ("DROP FUNCTION no_such_function(int)", "42883"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
    }
    // Code in other languages is refused by name (PostgreSQL runs PL/pgSQL).
    if target.is_litewire() {
        assert_eq!(
            sqlstate(
                &client,
                "CREATE FUNCTION pl() RETURNS int LANGUAGE plpgsql AS 'BEGIN RETURN 1; END'"
            )
            .await,
            "0A000"
        );
    }
    client
        .batch_execute(
            "DROP TABLE fn_defaults; DROP FUNCTION answer; DROP FUNCTION label(text, int)",
        )
        .await
        .unwrap();
    assert_eq!(sqlstate(&client, "SELECT answer()").await, "42883");
}

/// Every view of PostgreSQL 15's `information_schema` answers, with its
/// columns (counted here; the names and types are PostgreSQL's, which the
/// calibration run checks by running the same queries), and those whose
/// objects SQLite has hold their rows: CHECK constraints, sequences,
/// functions, the database's name.
async fn information_schema_has_every_view(target: &Target) {
    let client = target.connect().await;
    let views: &[(&str, usize)] = &[
        ("_pg_foreign_data_wrappers", 7),
        ("_pg_foreign_servers", 9),
        ("_pg_foreign_table_columns", 4),
        ("_pg_foreign_tables", 7),
        ("_pg_user_mappings", 7),
        ("administrable_role_authorizations", 3),
        ("applicable_roles", 3),
        ("attributes", 31),
        ("character_sets", 8),
        ("check_constraint_routine_usage", 6),
        ("check_constraints", 4),
        ("collation_character_set_applicability", 6),
        ("collations", 4),
        ("column_column_usage", 5),
        ("column_domain_usage", 7),
        ("column_options", 6),
        ("column_privileges", 8),
        ("column_udt_usage", 7),
        ("columns", 44),
        ("constraint_column_usage", 7),
        ("constraint_table_usage", 6),
        ("data_type_privileges", 5),
        ("domain_constraints", 8),
        ("domain_udt_usage", 6),
        ("domains", 27),
        ("element_types", 29),
        ("enabled_roles", 1),
        ("foreign_data_wrapper_options", 4),
        ("foreign_data_wrappers", 5),
        ("foreign_server_options", 4),
        ("foreign_servers", 7),
        ("foreign_table_options", 5),
        ("foreign_tables", 5),
        ("information_schema_catalog_name", 1),
        ("key_column_usage", 9),
        ("parameters", 32),
        ("referential_constraints", 9),
        ("role_column_grants", 8),
        ("role_routine_grants", 10),
        ("role_table_grants", 8),
        ("role_udt_grants", 7),
        ("role_usage_grants", 8),
        ("routine_column_usage", 10),
        ("routine_privileges", 10),
        ("routine_routine_usage", 6),
        ("routine_sequence_usage", 9),
        ("routine_table_usage", 9),
        ("routines", 82),
        ("schemata", 7),
        ("sequences", 12),
        ("sql_features", 7),
        ("sql_implementation_info", 5),
        ("sql_parts", 5),
        ("sql_sizing", 4),
        ("table_constraints", 11),
        ("table_privileges", 8),
        ("tables", 12),
        ("transforms", 8),
        ("triggered_update_columns", 7),
        ("triggers", 17),
        ("udt_privileges", 7),
        ("usage_privileges", 8),
        ("user_defined_types", 29),
        ("user_mapping_options", 5),
        ("user_mappings", 3),
        ("view_column_usage", 7),
        ("view_routine_usage", 6),
        ("view_table_usage", 6),
        ("views", 10),
    ];
    for (view, count) in views {
        let statement = client
            .prepare(&format!("SELECT * FROM information_schema.{view} LIMIT 0"))
            .await
            .unwrap_or_else(|e| panic!("{view}: {e}"));
        assert_eq!(statement.columns().len(), *count, "{view}");
    }
    client
        .batch_execute(
            "DROP TABLE IF EXISTS isv_items; DROP SEQUENCE IF EXISTS isv_counter; \
             DROP FUNCTION IF EXISTS isv_add_one(int); \
             CREATE TABLE isv_items (id serial PRIMARY KEY, n numeric CONSTRAINT isv_positive CHECK (n > 0)); \
             CREATE SEQUENCE isv_counter INCREMENT BY 5 START WITH 10; \
             CREATE FUNCTION isv_add_one(i int) RETURNS int LANGUAGE sql IMMUTABLE AS 'SELECT i + 1'",
        )
        .await
        .unwrap();
    assert_eq!(
        text_row(
            &client,
            "SELECT constraint_schema, constraint_name, check_clause LIKE '%n > %' \
             FROM information_schema.check_constraints WHERE constraint_name LIKE 'isv%'"
        )
        .await,
        ["public", "isv_positive", "t"]
    );
    assert_eq!(
        text_rows(
            &client,
            "SELECT sequence_name, data_type, numeric_precision, start_value, maximum_value, \
             increment, cycle_option FROM information_schema.sequences \
             WHERE sequence_name LIKE 'isv%' ORDER BY 1"
        )
        .await,
        [
            [
                "isv_counter",
                "bigint",
                "64",
                "10",
                "9223372036854775807",
                "5",
                "NO"
            ]
            .map(|v| Some(v.to_owned())),
            [
                "isv_items_id_seq",
                "integer",
                "32",
                "1",
                "2147483647",
                "1",
                "NO"
            ]
            .map(|v| Some(v.to_owned())),
        ]
    );
    assert_eq!(
        text_row(
            &client,
            "SELECT routine_schema, routine_type, data_type, type_udt_name, routine_body, \
             external_language, is_deterministic, starts_with(specific_name, 'isv_add_one_') \
             FROM information_schema.routines WHERE routine_name = 'isv_add_one'"
        )
        .await,
        [
            "public", "FUNCTION", "integer", "int4", "SQL", "SQL", "YES", "t"
        ]
    );
    assert_eq!(
        text_row(
            &client,
            "SELECT catalog_name = current_database() FROM information_schema.information_schema_catalog_name"
        )
        .await,
        ["t"]
    );
}

/// PostgreSQL's own relations are rows of `pg_class` in `pg_catalog` and
/// `information_schema`, with their columns in `pg_attribute`: what `\dS`,
/// `\d pg_namespace` and introspection read.
async fn the_catalog_lists_its_own_relations(target: &Target) {
    let client = target.connect().await;
    let cases: &[(&str, &[&str])] = &[
        (
            "SELECT relname, relkind FROM pg_class WHERE oid = 'pg_class'::regclass",
            &["pg_class|r"],
        ),
        (
            "SELECT c.relname, n.nspname, c.relkind FROM pg_class c \
             JOIN pg_namespace n ON n.oid = c.relnamespace \
             WHERE c.relname IN ('pg_type', 'pg_tables', 'tables', 'columns') ORDER BY 2, 1",
            &[
                "columns|information_schema|v",
                "tables|information_schema|v",
                "pg_tables|pg_catalog|v",
                "pg_type|pg_catalog|r",
            ],
        ),
        (
            "SELECT attname, format_type(atttypid, atttypmod), attnotnull FROM pg_attribute \
             WHERE attrelid = 'pg_namespace'::regclass AND attnum > 0 ORDER BY attnum",
            &[
                "oid|oid|t",
                "nspname|name|t",
                "nspowner|oid|t",
                "nspacl|aclitem[]|f",
            ],
        ),
        (
            "SELECT table_schema, table_type FROM information_schema.tables \
             WHERE table_name = 'pg_class'",
            &["pg_catalog|BASE TABLE"],
        ),
        (
            "SELECT pg_table_is_visible('pg_class'::regclass), \
             pg_table_is_visible('information_schema.tables'::regclass), \
             'information_schema.tables'::regclass",
            &["t|f|information_schema.tables"],
        ),
    ];
    for (sql, expected) in cases {
        let rows: Vec<String> = text_rows(&client, sql)
            .await
            .into_iter()
            .map(|row| {
                row.into_iter()
                    .map(Option::unwrap_or_default)
                    .collect::<Vec<_>>()
                    .join("|")
            })
            .collect();
        assert_eq!(rows, *expected, "{sql}");
    }
}

/// The message `sql` fails with, and its SQLSTATE.
async fn failure(client: &Client, sql: &str) -> (String, String) {
    let error = client.batch_execute(sql).await.expect_err(sql);
    let db = error
        .as_db_error()
        .unwrap_or_else(|| panic!("{sql}: {error:?}"));
    (db.code().code().to_owned(), db.message().to_owned())
}

/// A domain's base type, NOT NULL, CHECKs and default hold for a column of
/// it (a text domain keeps `01234` as text) and for a value cast to it, with
/// PostgreSQL's errors; the catalog gives the column the domain as its type.
async fn domains_hold_their_columns_and_casts_to_their_rules(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS dm_addr; DROP DOMAIN IF EXISTS dm_posint, dm_zip; \
             CREATE DOMAIN dm_posint AS integer NOT NULL CHECK (VALUE > 0); \
             CREATE DOMAIN dm_zip text CONSTRAINT dm_zip_digits CHECK (VALUE ~ '^[0-9]{5}$') DEFAULT '00000'; \
             CREATE TABLE dm_addr (id dm_posint PRIMARY KEY, z dm_zip, n dm_posint); \
             INSERT INTO dm_addr (id, n) VALUES (1, 5); \
             INSERT INTO dm_addr VALUES (2, '01234', 7)",
        )
        .await
        .unwrap();
    assert_eq!(
        text_rows(&client, "SELECT id, z, n, n + 1 FROM dm_addr ORDER BY id").await,
        [
            ["1", "00000", "5", "6"].map(|v| Some(v.to_owned())),
            ["2", "01234", "7", "8"].map(|v| Some(v.to_owned())),
        ]
    );
    let broken = [
        (
            "INSERT INTO dm_addr VALUES (3, '1234', 1)",
            "23514",
            "value for domain dm_zip violates check constraint \"dm_zip_digits\"",
        ),
        (
            "INSERT INTO dm_addr VALUES (3, '12345', -1)",
            "23514",
            "value for domain dm_posint violates check constraint \"dm_posint_check\"",
        ),
        (
            "UPDATE dm_addr SET n = NULL WHERE id = 1",
            "23502",
            "domain dm_posint does not allow null values",
        ),
        (
            "SELECT (-1)::dm_posint",
            "23514",
            "value for domain dm_posint violates check constraint \"dm_posint_check\"",
        ),
        (
            "SELECT NULL::dm_posint",
            "23502",
            "domain dm_posint does not allow null values",
        ),
        (
            "DROP DOMAIN dm_posint",
            "2BP01",
            "cannot drop type dm_posint because other objects depend on it",
        ),
        (
            "CREATE DOMAIN dm_posint AS int",
            "42710",
            "type \"dm_posint\" already exists",
        ),
        (
            "CREATE DOMAIN dm_other AS no_such_type",
            "42704",
            "type \"no_such_type\" does not exist",
        ),
    ];
    for (sql, state, message) in broken {
        assert_eq!(
            failure(&client, sql).await,
            (state.to_owned(), message.to_owned()),
            "{sql}"
        );
    }
    assert_eq!(
        text_row(
            &client,
            "SELECT 5::dm_posint + 1, '01234'::dm_zip, NULL::dm_zip IS NULL"
        )
        .await,
        ["6", "01234", "t"]
    );
    client
        .batch_execute(
            "DROP TABLE IF EXISTS dm_plain; DROP DOMAIN IF EXISTS dm_maybe; \
             CREATE DOMAIN dm_maybe AS int DEFAULT NULL; \
             CREATE TABLE dm_plain (m dm_maybe); INSERT INTO dm_plain DEFAULT VALUES",
        )
        .await
        .unwrap();
    assert_eq!(
        text_row(&client, "SELECT count(*), count(m) FROM dm_plain").await,
        ["1", "0"]
    );
    assert_eq!(
        column(
            &client,
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute \
             WHERE attrelid = 'dm_addr'::regclass AND attnum > 0 ORDER BY attnum"
        )
        .await,
        ["dm_posint", "dm_zip", "dm_posint"]
    );
    assert_eq!(
        text_rows(
            &client,
            "SELECT t.typname, format_type(t.typbasetype, t.typtypmod), t.typnotnull, t.typinput, c.conname \
             FROM pg_type t LEFT JOIN pg_constraint c ON c.contypid = t.oid \
             WHERE t.typname IN ('dm_posint', 'dm_zip') ORDER BY 1"
        )
        .await,
        [
            ["dm_posint", "integer", "t", "domain_in", "dm_posint_check"].map(|v| Some(v.to_owned())),
            ["dm_zip", "text", "f", "domain_in", "dm_zip_digits"].map(|v| Some(v.to_owned())),
        ]
    );
    assert_eq!(
        text_rows(
            &client,
            "SELECT column_name, data_type, domain_name FROM information_schema.columns \
             WHERE table_name = 'dm_addr' ORDER BY ordinal_position"
        )
        .await,
        [
            ["id", "integer", "dm_posint"].map(|v| Some(v.to_owned())),
            ["z", "text", "dm_zip"].map(|v| Some(v.to_owned())),
            ["n", "integer", "dm_posint"].map(|v| Some(v.to_owned())),
        ]
    );
    client
        .batch_execute("DROP TABLE dm_addr, dm_plain; DROP DOMAIN dm_posint, dm_zip, dm_maybe")
        .await
        .unwrap();
    assert_eq!(
        failure(&client, "DROP DOMAIN dm_zip").await,
        (
            "42704".to_owned(),
            "type \"dm_zip\" does not exist".to_owned()
        )
    );
}

/// A foreign-key failure names the key, as PostgreSQL's does, where the
/// table written has one key that could have failed: the row's own key
/// (`INSERT`, `UPDATE`), the key that refers to the row (`DELETE`, `ON
/// DELETE RESTRICT` too), a key named in its `CREATE TABLE` by that name.
async fn foreign_key_violations_name_their_constraint(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS fk_child, fk_named, fk_parent, fk_other, fk_kept_by, fk_kept; \
             CREATE TABLE fk_parent (id int PRIMARY KEY); \
             CREATE TABLE fk_other (id int PRIMARY KEY); \
             CREATE TABLE fk_kept (id int PRIMARY KEY); \
             CREATE TABLE fk_kept_by (kid int REFERENCES fk_kept ON DELETE RESTRICT); \
             INSERT INTO fk_kept VALUES (1); INSERT INTO fk_kept_by VALUES (1); \
             CREATE TABLE fk_child (id int, pid int REFERENCES fk_parent (id)); \
             CREATE TABLE fk_named (x int, CONSTRAINT fk_named_x_refs FOREIGN KEY (x) REFERENCES fk_other (id)); \
             INSERT INTO fk_parent VALUES (1); INSERT INTO fk_other VALUES (1); \
             INSERT INTO fk_child VALUES (1, 1); INSERT INTO fk_named VALUES (1)",
        )
        .await
        .unwrap();
    let cases = [
        (
            "INSERT INTO fk_child VALUES (2, 9)",
            "insert or update on table \"fk_child\" violates foreign key constraint \"fk_child_pid_fkey\"",
            "fk_child",
            "fk_child_pid_fkey",
        ),
        (
            "UPDATE fk_named SET x = 5",
            "insert or update on table \"fk_named\" violates foreign key constraint \"fk_named_x_refs\"",
            "fk_named",
            "fk_named_x_refs",
        ),
        (
            "DELETE FROM fk_kept",
            "update or delete on table \"fk_kept\" violates foreign key constraint \"fk_kept_by_kid_fkey\" on table \"fk_kept_by\"",
            "fk_kept_by",
            "fk_kept_by_kid_fkey",
        ),
        (
            "DELETE FROM fk_parent",
            "update or delete on table \"fk_parent\" violates foreign key constraint \"fk_child_pid_fkey\" on table \"fk_child\"",
            "fk_child",
            "fk_child_pid_fkey",
        ),
    ];
    // Behind a cascade, the key that fails is further on: it is named right
    // or not at all (SQLite does not say which), never as the cascading one.
    client
        .batch_execute(
            "DROP TABLE IF EXISTS fk_deep, fk_middle, fk_top; \
             CREATE TABLE fk_top (id int PRIMARY KEY); \
             CREATE TABLE fk_middle (id int PRIMARY KEY, tid int REFERENCES fk_top ON DELETE CASCADE); \
             CREATE TABLE fk_deep (mid int REFERENCES fk_middle ON DELETE RESTRICT); \
             INSERT INTO fk_top VALUES (1); INSERT INTO fk_middle VALUES (1, 1); INSERT INTO fk_deep VALUES (1)",
        )
        .await
        .unwrap();
    let error = client
        .batch_execute("DELETE FROM fk_top")
        .await
        .expect_err("cascade");
    let db = error.as_db_error().expect("a database error");
    assert_eq!(db.code().code(), "23503");
    assert!(
        matches!(db.constraint(), None | Some("fk_deep_mid_fkey")),
        "{:?}",
        db.constraint()
    );
    for (sql, message, table, constraint) in cases {
        let error = client.batch_execute(sql).await.expect_err(sql);
        let db = error
            .as_db_error()
            .unwrap_or_else(|| panic!("{sql}: {error:?}"));
        assert_eq!(
            (db.code().code(), db.message(), db.table(), db.constraint()),
            ("23503", message, Some(table), Some(constraint)),
            "{sql}"
        );
    }
}

/// `EXPLAIN` answers one text column `QUERY PLAN`, a row per line of the
/// plan (what the plan holds is each server's own), inside a transaction
/// too; its options are checked; `ANALYZE` runs the query.
async fn explain_answers_with_the_query_plan(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "explained",
        "a int PRIMARY KEY, b text",
        "(1, 'x'), (2, 'y')",
    )
    .await;
    for sql in [
        "EXPLAIN SELECT * FROM explained WHERE a = 1",
        "EXPLAIN (COSTS OFF) SELECT b FROM explained ORDER BY b",
        "EXPLAIN (VERBOSE, COSTS OFF) UPDATE explained SET b = 'z' WHERE a = 2",
        "EXPLAIN ANALYZE SELECT count(*) FROM explained",
    ] {
        let statement = client.prepare(sql).await.unwrap();
        let columns: Vec<(&str, &Type)> = statement
            .columns()
            .iter()
            .map(|c| (c.name(), c.type_()))
            .collect();
        assert_eq!(columns, [("QUERY PLAN", &Type::TEXT)], "{sql}");
        let lines = text_rows(&client, sql).await;
        assert!(!lines.is_empty(), "{sql}");
        if sql.contains("ANALYZE") {
            assert!(
                lines.iter().any(|l| l[0]
                    .as_deref()
                    .is_some_and(|l| l.starts_with("Execution Time: "))),
                "{sql}: {lines:?}"
            );
        }
    }
    // Without its times, ANALYZE shows the rows the top of the plan gave.
    let lines = text_rows(
        &client,
        "EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) SELECT count(*) FROM explained",
    )
    .await;
    assert!(
        lines[0][0]
            .as_deref()
            .is_some_and(|l| l.ends_with("(actual rows=1 loops=1)")),
        "{lines:?}"
    );
    // EXPLAIN without ANALYZE changes nothing; a plan inside a transaction
    // leaves it usable.
    client
        .batch_execute("BEGIN; EXPLAIN DELETE FROM explained; ")
        .await
        .unwrap();
    assert_eq!(
        text_rows(&client, "SELECT count(*) FROM explained").await,
        [[Some("2".to_owned())]]
    );
    client.batch_execute("COMMIT").await.unwrap();
    for (sql, state) in [
        ("EXPLAIN (BOGUS) SELECT 1", "42601"),
        ("EXPLAIN (ANALYZE maybe) SELECT 1", "42601"),
        ("EXPLAIN (FORMAT xml2) SELECT 1", "22023"),
        ("EXPLAIN CREATE TABLE never (a int)", "42601"),
    ] {
        assert_eq!(common::sqlstate(&client, sql).await, state, "{sql}");
    }
    client.batch_execute("DROP TABLE explained").await.unwrap();
}

/// `INSERT`, `UPDATE` and `DELETE` in `WITH`: each runs once, the main
/// statement reads the rows each returned, and a failure anywhere keeps
/// none of the changes.
async fn with_queries_change_data_and_return_rows(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS queue, done;
             CREATE TABLE queue (id int PRIMARY KEY, job text);
             CREATE TABLE done (id int, job text, tries int DEFAULT 1);
             INSERT INTO queue VALUES (1, 'a'), (2, 'b'), (3, 'c');",
        )
        .await
        .unwrap();
    let moved = client
        .execute(
            "WITH taken AS (DELETE FROM queue WHERE id < 3 RETURNING *)
             INSERT INTO done (id, job) SELECT id, job FROM taken",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(moved, 2);
    assert_eq!(
        text_rows(&client, "SELECT id, job, tries FROM done ORDER BY id").await,
        [
            [
                Some("1".to_owned()),
                Some("a".to_owned()),
                Some("1".to_owned())
            ],
            [
                Some("2".to_owned()),
                Some("b".to_owned()),
                Some("1".to_owned())
            ]
        ]
    );
    // Returned expressions keep their names and types; several changes run
    // in one statement; a column list renames.
    let statement = client
        .prepare(
            "WITH added AS (INSERT INTO queue VALUES (10, 'x'), (11, 'y') RETURNING id * 2 AS twice, job)
             SELECT twice + 1 AS next, upper(job) FROM added ORDER BY twice",
        )
        .await
        .unwrap();
    let columns: Vec<(&str, &Type)> = statement
        .columns()
        .iter()
        .map(|c| (c.name(), c.type_()))
        .collect();
    assert_eq!(columns, [("next", &Type::INT4), ("upper", &Type::TEXT)]);
    let rows = client.query(&statement, &[]).await.unwrap();
    let read: Vec<(i32, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    assert_eq!(read, [(21, "X".to_owned()), (23, "Y".to_owned())]);
    assert_eq!(
        text_rows(
            &client,
            "WITH up AS (UPDATE queue SET job = job || '!' RETURNING id),
                  logged (n) AS (INSERT INTO done (id) VALUES (99) RETURNING id)
             SELECT (SELECT count(*) FROM up), (SELECT n FROM logged)"
        )
        .await,
        [[Some("3".to_owned()), Some("99".to_owned())]]
    );
    // Without RETURNING, the change still runs.
    client
        .batch_execute("WITH gone AS (DELETE FROM done WHERE id = 99) SELECT 1")
        .await
        .unwrap();
    assert_eq!(
        text_rows(&client, "SELECT count(*) FROM done").await,
        [[Some("2".to_owned())]]
    );
    // A failure after the change undoes it, in or out of a transaction.
    assert_eq!(
        common::sqlstate(
            &client,
            "WITH taken AS (DELETE FROM queue RETURNING id)
             INSERT INTO done (id) SELECT id / 0 FROM taken"
        )
        .await,
        "22012"
    );
    assert_eq!(
        common::sqlstate(
            &client,
            "WITH again AS (INSERT INTO queue VALUES (3, 'dup') RETURNING *) SELECT * FROM again"
        )
        .await,
        "23505"
    );
    assert_eq!(
        text_rows(&client, "SELECT count(*) FROM queue").await,
        [[Some("3".to_owned())]]
    );
    client
        .batch_execute(
            "BEGIN; WITH taken AS (DELETE FROM queue RETURNING *) SELECT count(*) FROM taken; ROLLBACK",
        )
        .await
        .unwrap();
    assert_eq!(
        text_rows(&client, "SELECT count(*) FROM queue").await,
        [[Some("3".to_owned())]]
    );
    // Parameters reach the data change and the statement alike.
    let rows = client
        .query(
            "WITH gone AS (DELETE FROM queue WHERE id = $1::int RETURNING job)
             SELECT job || $2::text FROM gone",
            &[&10i32, &"?"],
        )
        .await
        .unwrap();
    let read: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    assert_eq!(read, ["x!?"]);
    assert_eq!(
        text_rows(&client, "SELECT count(*) FROM queue").await,
        [[Some("2".to_owned())]]
    );
    client
        .batch_execute("DROP TABLE queue, done")
        .await
        .unwrap();
}

/// `ALTER INDEX ... RENAME TO` keeps the index (its definition, its
/// comment) under the new name; `ALTER INDEX`'s planner settings are
/// accepted where PostgreSQL accepts them.
async fn indexes_are_renamed_and_their_settings_checked(target: &Target) {
    let client = target.connect().await;
    table(
        &client,
        "indexed",
        "a int PRIMARY KEY, b text, c int",
        "(1, 'x', 2)",
    )
    .await;
    client
        .batch_execute(
            "CREATE INDEX indexed_b ON indexed (b, (c * 2));
             COMMENT ON INDEX indexed_b IS 'by b';
             ALTER INDEX indexed_b RENAME TO indexed_b_c;
             ALTER INDEX IF EXISTS indexed_gone RENAME TO indexed_other;
             ALTER INDEX indexed_b_c ALTER COLUMN 2 SET STATISTICS 100;
             ALTER INDEX indexed_b_c SET (fillfactor = 70);",
        )
        .await
        .unwrap();
    assert_eq!(
        text_rows(
            &client,
            "SELECT indexname, obj_description(indexname::regclass, 'pg_class') FROM pg_indexes
             WHERE tablename = 'indexed' AND indexname LIKE 'indexed_b%'"
        )
        .await,
        [[Some("indexed_b_c".to_owned()), Some("by b".to_owned())]]
    );
    // The renamed index still serves its queries.
    assert_eq!(
        text_rows(&client, "SELECT a FROM indexed WHERE b = 'x' AND c * 2 = 4").await,
        [[Some("1".to_owned())]]
    );
    for (sql, state) in [
        ("ALTER INDEX indexed_b RENAME TO indexed_c", "42P01"),
        ("ALTER INDEX indexed_b_c RENAME TO indexed", "42P07"),
        (
            "ALTER INDEX indexed_b_c ALTER COLUMN 1 SET STATISTICS 100",
            "0A000",
        ),
        (
            "ALTER INDEX indexed_b_c ALTER COLUMN 3 SET STATISTICS 100",
            "42703",
        ),
        ("ALTER INDEX indexed_nope SET (fillfactor = 70)", "42P01"),
    ] {
        assert_eq!(common::sqlstate(&client, sql).await, state, "{sql}");
    }
    client.batch_execute("DROP TABLE indexed").await.unwrap();
}

/// `MERGE`: each source row takes the first `WHEN` clause that holds,
/// decided against the tables as the statement found them; the tag counts
/// the rows changed; a target row two source rows would change, an
/// unreachable clause, a view and a failing action are refused with nothing
/// changed.
async fn merge_decides_every_row_before_changing_any(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP VIEW IF EXISTS merge_view; DROP TABLE IF EXISTS merge_stock;
             CREATE TABLE merge_stock (id serial PRIMARY KEY, item text, qty int DEFAULT 7);
             INSERT INTO merge_stock (item, qty) VALUES ('apple', 10), ('pear', 20), ('fig', 30);
             CREATE VIEW merge_view AS SELECT * FROM merge_stock;",
        )
        .await
        .unwrap();
    // Matched rows update or delete by the first clause that holds; a source
    // row matching nothing is inserted, `DEFAULT` taking the column's default.
    let changed = client
        .execute(
            "MERGE INTO merge_stock s
             USING (VALUES ('apple', 5), ('pear', -20), ('kiwi', 3), ('lime', 0)) AS d (item, delta)
             ON s.item = d.item
             WHEN MATCHED AND s.qty + d.delta <= 0 THEN DELETE
             WHEN MATCHED THEN UPDATE SET qty = s.qty + d.delta
             WHEN NOT MATCHED AND d.delta > 0 THEN INSERT (item, qty) VALUES (d.item, d.delta)
             WHEN NOT MATCHED THEN INSERT VALUES (DEFAULT, d.item, DEFAULT)",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(changed, 4);
    assert_eq!(
        merge_stock(&client).await,
        ["apple:15", "fig:30", "kiwi:3", "lime:7"]
    );
    // Rows a clause inserts are not matched by later source rows; a source
    // in WITH; `DO NOTHING`; `INSERT DEFAULT VALUES`.
    let changed = client
        .execute(
            "WITH incoming AS (SELECT 'plum' AS item UNION ALL SELECT 'plum' UNION ALL SELECT 'fig')
             MERGE INTO merge_stock USING incoming ON merge_stock.item = incoming.item
             WHEN MATCHED THEN DO NOTHING
             WHEN NOT MATCHED THEN INSERT DEFAULT VALUES",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(changed, 2);
    assert_eq!(
        column(
            &client,
            "SELECT count(*) FROM merge_stock WHERE item IS NULL AND qty = 7"
        )
        .await,
        ["2"]
    );
    client
        .batch_execute("DELETE FROM merge_stock WHERE item IS NULL")
        .await
        .unwrap();
    let before = merge_stock(&client).await;
    for (sql, state) in [
        // Two source rows would change one target row.
        (
            "MERGE INTO merge_stock t USING (VALUES ('fig'), ('fig')) AS d (item) ON t.item = d.item
             WHEN MATCHED THEN UPDATE SET qty = 0",
            "21000",
        ),
        (
            "MERGE INTO merge_stock t USING merge_stock d ON t.id = d.id
             WHEN MATCHED THEN DELETE WHEN MATCHED AND d.qty > 1 THEN UPDATE SET qty = 1",
            "42601",
        ),
        (
            "MERGE INTO merge_view v USING merge_stock d ON v.id = d.id WHEN MATCHED THEN DELETE",
            "0A000",
        ),
        (
            "MERGE INTO merge_stock t USING merge_stock d ON t.id = d.id
             WHEN NOT MATCHED AND t.qty > 0 THEN INSERT VALUES (1, 'x', 1)",
            "42P01",
        ),
        (
            "MERGE INTO merge_stock t USING merge_missing d ON t.id = d.id WHEN MATCHED THEN DELETE",
            "42P01",
        ),
        (
            "WITH RECURSIVE d AS (SELECT 1 AS id) MERGE INTO merge_stock t USING d ON t.id = d.id
             WHEN MATCHED THEN DELETE",
            "42601",
        ),
        // The update runs before the failing insert: it is undone.
        (
            "MERGE INTO merge_stock t USING (VALUES ('fig', 1), ('new', 0)) AS d (item, n)
             ON t.item = d.item
             WHEN MATCHED THEN UPDATE SET qty = 0
             WHEN NOT MATCHED THEN INSERT (item, qty) VALUES (d.item, 1 / d.n)",
            "22012",
        ),
    ] {
        assert_eq!(common::sqlstate(&client, sql).await, state, "{sql}");
    }
    assert_eq!(merge_stock(&client).await, before);
    // In a transaction, a MERGE is undone with it.
    client
        .batch_execute(
            "BEGIN;
             MERGE INTO merge_stock t USING merge_stock d ON t.id = d.id WHEN MATCHED THEN DELETE;
             ROLLBACK;",
        )
        .await
        .unwrap();
    assert_eq!(merge_stock(&client).await, before);
    assert_eq!(
        text_rows(
            &client,
            "MERGE INTO merge_stock t USING (SELECT 'fig' AS item) d ON t.item = d.item
             WHEN MATCHED THEN UPDATE SET qty = t.qty * 2"
        )
        .await,
        Vec::<Vec<Option<String>>>::new()
    );
    assert_eq!(
        column(&client, "SELECT qty FROM merge_stock WHERE item = 'fig'").await,
        ["60"]
    );
    // Parameters, in the source and in the clauses.
    let merge = "MERGE INTO merge_stock t USING (SELECT $1::text AS item, $2::int AS n) d
                 ON t.item = d.item
                 WHEN MATCHED THEN UPDATE SET qty = t.qty + d.n
                 WHEN NOT MATCHED THEN INSERT (item, qty) VALUES (d.item, $2 * 2)";
    for (item, n) in [("fig", 5), ("date", 4)] {
        let changed = client.execute(merge, &[&item, &n]).await.unwrap();
        assert_eq!(changed, 1);
    }
    assert_eq!(
        merge_stock(&client).await,
        ["apple:15", "date:8", "fig:65", "kiwi:3", "lime:7"]
    );
}

async fn merge_stock(client: &Client) -> Vec<String> {
    // Not the ids: which of two inserted rows is numbered first is the plan's.
    let sql = "SELECT concat_ws(':', item, qty) FROM merge_stock ORDER BY item";
    column(client, sql).await
}

/// Types with a modifier before more words or `[]` (`timestamp(2) without
/// time zone`, `varchar(20)[]`), in CREATE TABLE and ALTER TABLE, keep their
/// type and modifier in the catalog.
async fn types_keep_their_modifiers_in_every_spelling(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS spelled;
             CREATE TABLE spelled (a timestamp(2) without time zone, b timestamp(3) with time zone,
                 c time(1) without time zone, d varchar(20)[], e numeric(5,2)[], f timestamp(0)[]);
             ALTER TABLE spelled ADD COLUMN g timestamp(4) with time zone;
             INSERT INTO spelled (a, b, c, d)
             VALUES ('2024-01-02 03:04:05.456', '2024-01-02 03:04:05.4567+00', '23:59:59.96', '{x,y}');",
        )
        .await
        .unwrap();
    assert_eq!(
        column(
            &client,
            "SELECT format_type(atttypid, atttypmod) FROM pg_attribute
             WHERE attrelid = 'spelled'::regclass AND attnum > 0 ORDER BY attnum"
        )
        .await,
        [
            "timestamp(2) without time zone",
            "timestamp(3) with time zone",
            "time(1) without time zone",
            "character varying(20)[]",
            "numeric(5,2)[]",
            "timestamp(0) without time zone[]",
            "timestamp(4) with time zone",
        ]
    );
    assert_eq!(
        text_row(
            &client,
            "SELECT a, b, c, '01:02:03.5'::time(0), d[2], pg_typeof(a), pg_typeof(d), pg_typeof(f)
             FROM spelled"
        )
        .await,
        [
            // Rounded to the column's (or the cast's) digits of seconds.
            "2024-01-02 03:04:05.46",
            "2024-01-02 03:04:05.457+00",
            "24:00:00",
            "01:02:04",
            "y",
            "timestamp without time zone",
            "character varying[]",
            "timestamp without time zone[]"
        ]
    );
}
