//! `ALTER TABLE` forms SQLite lacks, run by rebuilding the table, against a real
//! server: data, rowids, indexes, triggers, views and the foreign keys of other
//! tables survive; a rebuild that fails (duplicates for a new UNIQUE, orphans for
//! a new FOREIGN KEY, rows a CHECK refuses, NULLs under SET NOT NULL, an unknown
//! constraint) changes nothing and says why with PostgreSQL's SQLSTATE; inside a
//! client's transaction too, from the simple and the extended protocol; and psql's
//! `\d` shows the constraints under PostgreSQL's names. Also: foreign keys
//! checked at COMMIT (`DEFERRABLE INITIALLY DEFERRED`, `SET CONSTRAINTS ALL
//! DEFERRED`), `CREATE INDEX CONCURRENTLY`, and enum types (`CREATE TYPE ... AS
//! ENUM`, `ALTER TYPE ... ADD VALUE`, `DROP TYPE`) as drivers see them.
//! Calibrated against PostgreSQL too: constraints added `NOT VALID` and
//! validated, `NO INHERIT`, and `ALTER CONSTRAINT`'s deferral of a foreign key.

mod common;

use common::target::Target;
use common::{TestServer, sqlstate, stderr, stdout};
use tokio_postgres::Client;

against_litewire_and_postgres!(
    temporary_tables_are_altered_in_place,
    not_valid_constraints_hold_for_new_rows_until_validated,
    foreign_keys_change_their_deferral,
    views_are_renamed
);

in_both_cache_modes!(
    rebuild_keeps_rows_rowids_and_dependent_objects,
    foreign_keys_pointing_at_a_rebuilt_table_survive,
    failed_rebuilds_change_nothing,
    constraints_are_added_dropped_and_renamed_by_postgres_names,
    columns_change_type_nullability_and_default,
    psql_describes_the_rebuilt_table,
    deferred_foreign_keys_are_checked_at_commit,
    create_index_concurrently_creates_the_index,
    enum_types_hold_columns_to_their_labels,
    drop_column_takes_its_indexes_and_constraints
);

/// Every row of `sql` as text, columns joined with `|`.
async fn rows(client: &Client, sql: &str) -> Vec<String> {
    client
        .simple_query(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e:?}"))
        .into_iter()
        .filter_map(|m| match m {
            tokio_postgres::SimpleQueryMessage::Row(row) => Some(
                (0..row.len())
                    .map(|i| row.get(i).unwrap_or("NULL").to_owned())
                    .collect::<Vec<_>>()
                    .join("|"),
            ),
            _ => None,
        })
        .collect()
}

/// The schema as SQLite keeps it, and every table's rows with their rowids.
async fn snapshot(client: &Client) -> Vec<String> {
    let mut all = rows(
        client,
        "SELECT type || ' ' || name || ' ' || coalesce(sql, '') FROM sqlite_schema ORDER BY name",
    )
    .await;
    for table in ["p", "c", "t"] {
        all.extend(
            rows(
                client,
                &format!("SELECT rowid, * FROM {table} ORDER BY rowid"),
            )
            .await,
        );
    }
    all
}

const SCHEMA: &str = "
    CREATE TABLE p (id integer PRIMARY KEY, name text);
    CREATE TABLE c (id int PRIMARY KEY, pid int REFERENCES p(id) ON DELETE CASCADE, n int);
    CREATE TABLE t (a int, b text, c text);
    CREATE TABLE log (m text);
    INSERT INTO p VALUES (1, 'one'), (2, NULL);
    INSERT INTO c VALUES (10, 1, 5), (11, 2, 5), (12, 2, 6);
    INSERT INTO t VALUES (1, 'x', 'y'), (2, 'gone', NULL), (3, 'z', NULL);
    DELETE FROM t WHERE a = 2;
    INSERT INTO t VALUES (4, 'q', 'r');
    CREATE INDEX t_b ON t (b);
    CREATE TRIGGER t_logged AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.b); END;
    CREATE VIEW v AS SELECT a, b FROM t;
";

async fn rebuild_keeps_rows_rowids_and_dependent_objects(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();
    let before = rows(&client, "SELECT rowid, a, b, c FROM t ORDER BY rowid").await;
    assert_eq!(before, ["1|1|x|y", "3|3|z|NULL", "4|4|q|r"]);
    client
        .batch_execute(
            "ALTER TABLE t ADD CONSTRAINT t_a_check CHECK (a > 0), ALTER COLUMN b SET NOT NULL, \
             ALTER COLUMN c SET DEFAULT 'dflt', ALTER COLUMN a TYPE bigint",
        )
        .await
        .unwrap();
    // The rows, under their rowids.
    assert_eq!(
        rows(&client, "SELECT rowid, a, b, c FROM t ORDER BY rowid").await,
        before
    );
    // The index, the trigger and the view.
    assert_eq!(
        rows(
            &client,
            "SELECT name FROM sqlite_schema WHERE tbl_name = 't' AND type <> 'table' ORDER BY name"
        )
        .await,
        ["t_b", "t_logged"]
    );
    let plan = rows(&client, "EXPLAIN QUERY PLAN SELECT * FROM t WHERE b = 'z'").await;
    assert!(plan.iter().any(|r| r.contains("t_b")), "{plan:?}");
    client
        .batch_execute("INSERT INTO t (a, b) VALUES (5, 'n')")
        .await
        .unwrap();
    assert_eq!(rows(&client, "SELECT m FROM log").await, ["n"]);
    assert_eq!(
        rows(&client, "SELECT a, b FROM v WHERE a = 5").await,
        ["5|n"]
    );
    // The new definition holds.
    assert_eq!(rows(&client, "SELECT c FROM t WHERE a = 5").await, ["dflt"]);
    assert_eq!(
        sqlstate(&client, "INSERT INTO t (a, b) VALUES (-1, 'n')").await,
        "23514"
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO t (a) VALUES (7)").await,
        "23502"
    );
    // Several rebuilds in a row, from the extended protocol.
    client
        .execute("ALTER TABLE t ALTER COLUMN c DROP DEFAULT", &[])
        .await
        .unwrap();
    client
        .execute("ALTER TABLE t ALTER COLUMN b DROP NOT NULL", &[])
        .await
        .unwrap();
    client
        .execute("INSERT INTO t (a) VALUES (8)", &[])
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT b, c FROM t WHERE a = 8").await,
        ["NULL|NULL"]
    );
    // A `serial` column added to a table with rows numbers them.
    client
        .batch_execute("ALTER TABLE t ADD COLUMN n serial")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT rowid, n FROM t ORDER BY rowid").await,
        ["1|1", "3|2", "4|3", "5|4", "6|5"]
    );
    client
        .batch_execute("INSERT INTO t (a, b) VALUES (9, 'm')")
        .await
        .unwrap();
    assert_eq!(rows(&client, "SELECT n FROM t WHERE a = 9").await, ["6"]);
    // The database is sound.
    assert_eq!(rows(&client, "PRAGMA integrity_check").await, ["ok"]);
}

async fn foreign_keys_pointing_at_a_rebuilt_table_survive(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();
    // Inside the client's transaction, where PRAGMA foreign_keys cannot change:
    // the rebuilt parent's old rows must not cascade into the child.
    client
        .batch_execute(
            "BEGIN; ALTER TABLE p ALTER COLUMN name SET DEFAULT 'anon'; \
             INSERT INTO p (id) VALUES (3); COMMIT",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT id, pid FROM c ORDER BY id").await,
        ["10|1", "11|2", "12|2"]
    );
    assert_eq!(
        rows(&client, "SELECT name FROM p WHERE id = 3").await,
        ["anon"]
    );
    // And out of one.
    client
        .batch_execute("ALTER TABLE p ADD CONSTRAINT p_name_check CHECK (length(name) > 0)")
        .await
        .unwrap();
    assert_eq!(rows(&client, "SELECT count(*) FROM c").await, ["3"]);
    // Foreign keys are still enforced, and their actions still run.
    assert_eq!(
        sqlstate(&client, "INSERT INTO c VALUES (13, 99, 1)").await,
        "23503"
    );
    client
        .batch_execute("DELETE FROM p WHERE id = 2")
        .await
        .unwrap();
    assert_eq!(rows(&client, "SELECT id FROM c").await, ["10"]);
    assert_eq!(rows(&client, "PRAGMA foreign_keys").await, ["1"]);
    // The child rebuilt keeps its key to the parent.
    client
        .batch_execute("ALTER TABLE c ALTER COLUMN n SET NOT NULL")
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "INSERT INTO c VALUES (14, 99, 1)").await,
        "23503"
    );
    assert_eq!(
        rows(&client, "PRAGMA foreign_key_check").await,
        Vec::<String>::new()
    );
}

async fn failed_rebuilds_change_nothing(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();
    let before = snapshot(&client).await;
    for (sql, state) in [
        // Duplicates of n under a new UNIQUE (alone, as an index; with other
        // actions, in the definition).
        ("ALTER TABLE c ADD UNIQUE (n)", "23505"),
        (
            "ALTER TABLE c ADD UNIQUE (n), ALTER COLUMN n SET DEFAULT 0",
            "23505",
        ),
        // Orphans under a new FOREIGN KEY.
        (
            "ALTER TABLE c ADD FOREIGN KEY (n) REFERENCES p (id)",
            "23503",
        ),
        ("ALTER TABLE c ADD CONSTRAINT big CHECK (n > 5)", "23514"),
        ("ALTER TABLE t ALTER COLUMN c SET NOT NULL", "23502"),
        (
            "ALTER TABLE p ADD PRIMARY KEY (name), ALTER name SET DEFAULT 'x'",
            "42P16",
        ),
        ("ALTER TABLE t DROP CONSTRAINT nope", "42704"),
        ("ALTER TABLE t RENAME CONSTRAINT nope TO other", "42704"),
        ("ALTER TABLE t ALTER COLUMN nope SET NOT NULL", "42703"),
        ("ALTER TABLE nope ALTER COLUMN a SET NOT NULL", "42P01"),
    ] {
        assert_eq!(sqlstate(&client, sql).await, state, "{sql}");
        assert_eq!(snapshot(&client).await, before, "{sql}");
    }
    // Inside a transaction, the failure fails the transaction, as in PostgreSQL,
    // and a savepoint takes the table back to where it was.
    client
        .batch_execute("BEGIN; INSERT INTO t VALUES (9, 'nine', 'x'); SAVEPOINT s")
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "ALTER TABLE t ALTER COLUMN c SET NOT NULL").await,
        "23502"
    );
    assert_eq!(sqlstate(&client, "SELECT 1").await, "25P02");
    client
        .batch_execute("ROLLBACK TO s; ALTER TABLE t ALTER COLUMN b SET NOT NULL; COMMIT")
        .await
        .unwrap();
    assert_eq!(rows(&client, "SELECT b FROM t WHERE a = 9").await, ["nine"]);
    assert_eq!(
        sqlstate(&client, "INSERT INTO t (a) VALUES (10)").await,
        "23502"
    );
    // IF EXISTS: nothing to do is no error.
    client
        .batch_execute(
            "ALTER TABLE IF EXISTS nope ALTER COLUMN a SET NOT NULL; \
             ALTER TABLE t DROP CONSTRAINT IF EXISTS nope",
        )
        .await
        .unwrap();
}

async fn constraints_are_added_dropped_and_renamed_by_postgres_names(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();
    let constraints = |table: &'static str| {
        let client = &client;
        async move {
            rows(
                client,
                &format!(
                    "SELECT conname || ' ' || contype FROM pg_constraint \
                     WHERE conrelid = '{table}'::regclass ORDER BY conname"
                ),
            )
            .await
        }
    };
    client
        .batch_execute(
            "DELETE FROM c WHERE id = 12; \
             ALTER TABLE c ADD FOREIGN KEY (n) REFERENCES c (id), ADD CHECK (n > 0), ADD UNIQUE (pid, n)",
        )
        .await
        .unwrap_err();
    // n = 5 references no c.id: the whole statement failed. Make it valid.
    client
        .batch_execute(
            "DELETE FROM c WHERE id = 12; UPDATE c SET n = id; \
             ALTER TABLE c ADD FOREIGN KEY (n) REFERENCES c (id), ADD CHECK (n > 0), ADD UNIQUE (pid, n)",
        )
        .await
        .unwrap();
    assert_eq!(
        constraints("c").await,
        [
            "c_n_check c",
            "c_n_fkey f",
            "c_pid_fkey f",
            "c_pid_n_key u",
            "c_pkey p"
        ]
    );
    client
        .batch_execute(
            "ALTER TABLE c RENAME CONSTRAINT c_n_fkey TO c_self, DROP CONSTRAINT c_pid_fkey",
        )
        .await
        .unwrap_err();
    // PostgreSQL takes RENAME CONSTRAINT alone.
    client
        .batch_execute(
            "ALTER TABLE c RENAME CONSTRAINT c_n_fkey TO c_self; ALTER TABLE c DROP CONSTRAINT c_pid_fkey, \
             DROP CONSTRAINT c_pid_n_key, ADD CONSTRAINT \"Named\" UNIQUE (n)",
        )
        .await
        .unwrap();
    assert_eq!(
        constraints("c").await,
        ["Named u", "c_n_check c", "c_pkey p", "c_self f"]
    );
    // The foreign key that was dropped is gone for good; the renamed one holds.
    client
        .batch_execute("INSERT INTO c VALUES (20, 99, 20)")
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "INSERT INTO c VALUES (21, 1, 999)").await,
        "23503"
    );
    // A unique constraint added alone is one too, renamed and dropped by name.
    client
        .batch_execute("ALTER TABLE t ADD CONSTRAINT t_key UNIQUE (a)")
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "INSERT INTO t VALUES (1, 'd', 'd')").await,
        "23505"
    );
    client
        .batch_execute("ALTER TABLE t RENAME CONSTRAINT t_key TO t_a_key")
        .await
        .unwrap();
    assert_eq!(constraints("t").await, ["t_a_key u"]);
    client
        .batch_execute("ALTER TABLE t DROP CONSTRAINT t_a_key")
        .await
        .unwrap();
    client
        .batch_execute("INSERT INTO t VALUES (1, 'd', 'd')")
        .await
        .unwrap();
    assert_eq!(constraints("t").await, Vec::<String>::new());
    // A primary key added alone is a unique index under the key's name (fast on
    // a full table), shown as the primary key, and dropped by its name.
    client
        .batch_execute("ALTER TABLE log ADD PRIMARY KEY (m)")
        .await
        .unwrap();
    assert_eq!(constraints("log").await, ["log_pkey p"]);
    assert_eq!(
        rows(
            &client,
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'log'"
        )
        .await,
        ["log_pkey"]
    );
    client
        .batch_execute("ALTER TABLE log RENAME CONSTRAINT log_pkey TO log_key")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'log'"
        )
        .await,
        ["log_key"]
    );
    client
        .batch_execute("ALTER TABLE log DROP CONSTRAINT log_key")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'log'"
        )
        .await,
        ["0"]
    );
    assert_eq!(
        sqlstate(&client, "ALTER TABLE c ADD CONSTRAINT c_self CHECK (n > 1)").await,
        "42710"
    );
}

async fn columns_change_type_nullability_and_default(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client
        .batch_execute(
            "CREATE TABLE m (id serial PRIMARY KEY, v text, w varchar(10)); \
             INSERT INTO m (v, w) VALUES ('1', 'a'), ('22', 'b')",
        )
        .await
        .unwrap();
    client
        .batch_execute(
            "ALTER TABLE m ALTER COLUMN v TYPE integer USING v::integer, \
             ALTER COLUMN w SET DATA TYPE text, ALTER COLUMN w SET DEFAULT now()",
        )
        .await
        .unwrap();
    // The values are integers now, and the driver is told so.
    let row = client
        .query_one("SELECT v, w FROM m WHERE id = 2", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, i32>(0), 22);
    assert_eq!(row.get::<_, String>(1), "b");
    client
        .batch_execute("INSERT INTO m (v) VALUES (3)")
        .await
        .unwrap();
    let stamped: String = client
        .query_one("SELECT w FROM m WHERE v = 3", &[])
        .await
        .unwrap()
        .get(0);
    assert!(stamped.starts_with("20"), "{stamped}");
    // The rowid primary key goes on numbering where it was, made bigint too.
    assert_eq!(
        rows(&client, "SELECT id FROM m ORDER BY id").await,
        ["1", "2", "3"]
    );
    client
        .batch_execute("ALTER TABLE m ALTER COLUMN id TYPE bigint")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "INSERT INTO m (v) VALUES (4) RETURNING id").await,
        ["4"]
    );
    // ADD COLUMN IF NOT EXISTS: nothing for a column that is there.
    client
        .batch_execute(
            "ALTER TABLE m ADD COLUMN IF NOT EXISTS v text; ALTER TABLE m ADD COLUMN IF NOT EXISTS x int",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT v, x FROM m WHERE id = 4").await,
        ["4|NULL"]
    );
}

async fn psql_describes_the_rebuilt_table(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();
    client
        .batch_execute(
            "ALTER TABLE t ADD CONSTRAINT t_a_check CHECK (a > 0), ADD COLUMN pid int, \
             ADD CONSTRAINT t_pid_fkey FOREIGN KEY (pid) REFERENCES p (id) ON DELETE SET NULL, \
             ALTER COLUMN b SET NOT NULL, ALTER COLUMN c SET DEFAULT 'd'",
        )
        .await
        .unwrap();
    let output = server.psql(&["-c", "\\d t"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let described = stdout(&output);
    for expected in [
        " b      | text    |           | not null | ",
        " c      | text    |           |          | 'd'",
        "\"t_b\" btree (b)",
        "Check constraints:\n    \"t_a_check\" CHECK (a > 0)",
        "Foreign-key constraints:\n    \"t_pid_fkey\" FOREIGN KEY (pid) REFERENCES p(id) ON DELETE SET NULL",
    ] {
        assert!(described.contains(expected), "{expected:?} in\n{described}");
    }
    let output = server.psql(&["-c", "\\d p"]);
    assert!(
        stdout(&output).contains("TABLE \"t\" CONSTRAINT \"t_pid_fkey\" FOREIGN KEY (pid) REFERENCES p(id) ON DELETE SET NULL"),
        "{}",
        stdout(&output)
    );
}

async fn deferred_foreign_keys_are_checked_at_commit(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();
    // Declared in CREATE TABLE (a `serial` column, so the statement goes
    // through the dialect's translation), and added by ALTER TABLE.
    client
        .batch_execute(
            "CREATE TABLE d (id serial PRIMARY KEY, pid int REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED, q int); \
             ALTER TABLE d ADD CONSTRAINT d_q_fkey FOREIGN KEY (q) REFERENCES p (id) DEFERRABLE INITIALLY DEFERRED",
        )
        .await
        .unwrap();
    // The catalog says so, as PostgreSQL's does.
    assert_eq!(
        rows(
            &client,
            "SELECT conname, condeferrable, condeferred, pg_get_constraintdef(oid) FROM pg_constraint \
             WHERE conrelid = 'd'::regclass AND contype = 'f' ORDER BY conname"
        )
        .await,
        [
            "d_pid_fkey|t|t|FOREIGN KEY (pid) REFERENCES p(id) DEFERRABLE INITIALLY DEFERRED",
            "d_q_fkey|t|t|FOREIGN KEY (q) REFERENCES p(id) DEFERRABLE INITIALLY DEFERRED"
        ]
    );
    for column in ["pid", "q"] {
        let id = if column == "pid" { 50 } else { 60 };
        client
            .batch_execute(&format!(
                "BEGIN; INSERT INTO d ({column}) VALUES ({id}); INSERT INTO p VALUES ({id}, 'late'); COMMIT"
            ))
            .await
            .unwrap_or_else(|e| panic!("{column}: {e:?}"));
        client.batch_execute("BEGIN").await.unwrap();
        client
            .batch_execute(&format!("INSERT INTO d ({column}) VALUES (99)"))
            .await
            .unwrap();
        assert_eq!(sqlstate(&client, "COMMIT").await, "23503", "{column}");
    }
    assert_eq!(rows(&client, "SELECT count(*) FROM d").await, ["2"]);
    // An immediate key waits for COMMIT under SET CONSTRAINTS ALL DEFERRED, from
    // either protocol.
    assert_eq!(
        sqlstate(&client, "INSERT INTO c VALUES (30, 70, 1)").await,
        "23503"
    );
    client.batch_execute("BEGIN").await.unwrap();
    client
        .execute("SET CONSTRAINTS ALL DEFERRED", &[])
        .await
        .unwrap();
    client
        .execute("INSERT INTO c VALUES (30, 70, 1)", &[])
        .await
        .unwrap();
    client
        .batch_execute("INSERT INTO p VALUES (70, 'x'); COMMIT")
        .await
        .unwrap();
    client
        .batch_execute("BEGIN; SET CONSTRAINTS ALL DEFERRED; INSERT INTO c VALUES (31, 71, 1)")
        .await
        .unwrap();
    assert_eq!(sqlstate(&client, "COMMIT").await, "23503");
    // The deferral ends with its transaction; IMMEDIATE turns it off within one.
    assert_eq!(
        sqlstate(&client, "INSERT INTO c VALUES (31, 71, 1)").await,
        "23503"
    );
    client
        .batch_execute("BEGIN; SET CONSTRAINTS ALL DEFERRED; SET CONSTRAINTS ALL IMMEDIATE")
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "INSERT INTO c VALUES (31, 71, 1)").await,
        "23503"
    );
    client.batch_execute("ROLLBACK").await.unwrap();
    assert_eq!(
        rows(&client, "SELECT id FROM c ORDER BY id").await,
        ["10", "11", "12", "30"]
    );
}

async fn create_index_concurrently_creates_the_index(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client.batch_execute(SCHEMA).await.unwrap();
    for _ in 0..2 {
        client
            .batch_execute("CREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS t_a ON t (a)")
            .await
            .unwrap();
    }
    assert_eq!(
        sqlstate(&client, "INSERT INTO t VALUES (1, 'a', 'b')").await,
        "23505"
    );
    client
        .batch_execute("CREATE INDEX CONCURRENTLY t_c ON public.t (c)")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT indexname FROM pg_indexes WHERE tablename = 't' ORDER BY 1"
        )
        .await,
        ["t_a", "t_b", "t_c"]
    );
    client
        .batch_execute("DROP INDEX CONCURRENTLY t_c")
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM sqlite_schema WHERE name = 't_c'"
        )
        .await,
        ["0"]
    );
}

async fn enum_types_hold_columns_to_their_labels(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client
        .batch_execute(
            "CREATE TYPE mood AS ENUM ('sad', 'ok', 'happy'); \
             CREATE TABLE person (id serial PRIMARY KEY, name text, current mood NOT NULL DEFAULT 'ok'); \
             INSERT INTO person (name, current) VALUES ('a', 'sad'), ('b', 'happy'); \
             INSERT INTO person (name) VALUES ('c')",
        )
        .await
        .unwrap();
    // A value that is no label: 22P02, from either protocol.
    let error = client
        .execute(
            "INSERT INTO person (name, current) VALUES ($1, $2)",
            &[&"d", &"angry"],
        )
        .await
        .unwrap_err();
    assert_eq!(error.code().map(|c| c.code()), Some("22P02"), "{error:?}");
    let message = error.as_db_error().map(|e| e.message().to_owned());
    assert_eq!(
        message.as_deref(),
        Some("invalid input value for enum mood"),
        "{error:?}"
    );
    assert_eq!(
        sqlstate(&client, "UPDATE person SET current = 'x' WHERE id = 1").await,
        "22P02"
    );
    // A new label is taken at once, by the tables already made; sort orders hold.
    client
        .batch_execute("ALTER TYPE mood ADD VALUE 'angry' BEFORE 'sad'; ALTER TYPE mood ADD VALUE IF NOT EXISTS 'ok'")
        .await
        .unwrap();
    client
        .execute(
            "INSERT INTO person (name, current) VALUES ($1, $2)",
            &[&"d", &"angry"],
        )
        .await
        .unwrap();
    // Values come back as text, typed as drivers expect.
    let row = client
        .query_one("SELECT name, current FROM person WHERE name = 'd'", &[])
        .await
        .unwrap();
    assert_eq!(row.get::<_, String>(1), "angry");
    assert_eq!(
        rows(
            &client,
            "SELECT name || ':' || current FROM person ORDER BY id"
        )
        .await,
        ["a:sad", "b:happy", "c:ok", "d:angry"]
    );
    // The catalog: a pg_type row of type 'e', its pg_enum rows, the column's type.
    assert_eq!(
        rows(
            &client,
            "SELECT t.typname || ' ' || t.typtype || ' ' || e.enumlabel FROM pg_type t \
             JOIN pg_enum e ON e.enumtypid = t.oid ORDER BY e.enumsortorder"
        )
        .await,
        ["mood e angry", "mood e sad", "mood e ok", "mood e happy"]
    );
    assert_eq!(
        rows(
            &client,
            "SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a \
             JOIN pg_type t ON t.oid = a.atttypid WHERE a.attname = 'current' AND t.typtype = 'e'"
        )
        .await,
        ["mood"]
    );
    // No CHECK of the table's own shows for it.
    assert_eq!(
        rows(
            &client,
            "SELECT count(*) FROM pg_constraint WHERE contype = 'c'"
        )
        .await,
        ["0"]
    );
    let output = server.psql(&["-c", "\\d person", "-c", "\\dT"]);
    let described = stdout(&output);
    assert!(
        described.contains(" current | mood    |"),
        "{described}{}",
        stderr(&output)
    );
    assert!(described.contains(" public | mood |"), "{described}");
    // A column added or retyped to the enum is held to it too.
    client
        .batch_execute(
            "ALTER TABLE person ADD COLUMN later mood, ALTER COLUMN name TYPE mood USING 'ok'",
        )
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "UPDATE person SET later = 'nope'").await,
        "22P02"
    );
    assert_eq!(
        sqlstate(&client, "UPDATE person SET name = 'nope'").await,
        "22P02"
    );
    // Errors: a type made twice, a type still used, an unknown one.
    assert_eq!(
        sqlstate(&client, "CREATE TYPE mood AS ENUM ('x')").await,
        "42710"
    );
    assert_eq!(
        sqlstate(&client, "ALTER TYPE mood ADD VALUE 'ok'").await,
        "42710"
    );
    assert_eq!(sqlstate(&client, "DROP TYPE mood").await, "2BP01");
    assert_eq!(sqlstate(&client, "DROP TYPE nope").await, "42704");
    client
        .batch_execute("DROP TYPE IF EXISTS nope; DROP TABLE person; DROP TYPE mood")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, "SELECT count(*) FROM pg_type WHERE typtype = 'e'").await,
        ["0"]
    );
}

async fn drop_column_takes_its_indexes_and_constraints(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _task) = server.connect().await;
    client
        .batch_execute(
            "CREATE TABLE k (id int PRIMARY KEY, a int UNIQUE, b int, c int CHECK (c > 0), \
             CONSTRAINT k_ab UNIQUE (a, b), CHECK (b < 100)); \
             CREATE INDEX k_b ON k (b); CREATE INDEX k_c ON k (c); \
             INSERT INTO k VALUES (1, 1, 1, 1), (2, 2, 2, 2); \
             CREATE VIEW kv AS SELECT id, c FROM k",
        )
        .await
        .unwrap();
    // SQLite alone refuses each of these; PostgreSQL drops what uses the column.
    client
        .batch_execute(
            "ALTER TABLE k DROP COLUMN a, DROP COLUMN IF EXISTS nope; ALTER TABLE k DROP COLUMN b",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT name FROM sqlite_schema WHERE tbl_name = 'k' AND sql IS NOT NULL ORDER BY name"
        )
        .await,
        ["k", "k_c"]
    );
    assert_eq!(
        rows(&client, "SELECT rowid, * FROM k ORDER BY id").await,
        ["1|1|1", "2|2|2"]
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO k VALUES (3, 0)").await,
        "23514"
    );
    // A column a view reads stays, as in PostgreSQL without CASCADE.
    assert_eq!(
        sqlstate(&client, "ALTER TABLE k DROP COLUMN c").await,
        "2BP01"
    );
    assert_eq!(
        sqlstate(&client, "ALTER TABLE k DROP COLUMN nope").await,
        "42703"
    );
    assert_eq!(
        rows(&client, "SELECT * FROM kv ORDER BY id").await,
        ["1|1", "2|2"]
    );
}

/// The message of the error `sql` fails with.
async fn message(client: &Client, sql: &str) -> String {
    let error = client
        .batch_execute(sql)
        .await
        .expect_err(&format!("{sql} should fail"));
    error
        .as_db_error()
        .map(|e| e.message().to_owned())
        .unwrap_or_else(|| panic!("{sql}: {error:?}"))
}

/// `name`'s constraints: name, convalidated, connoinherit and definition
/// (without the parentheses PostgreSQL adds around a CHECK's expression).
async fn constraints(client: &Client, table: &str) -> Vec<String> {
    rows(
        client,
        &format!(
            "SELECT conname, convalidated, connoinherit, \
             replace(replace(pg_get_constraintdef(oid), '((', '('), '))', ')') \
             FROM pg_constraint WHERE conrelid = '{table}'::regclass AND contype IN ('c', 'f') \
             ORDER BY conname"
        ),
    )
    .await
}

/// A temporary table is altered as a table is (a rebuilt one stays
/// temporary, and is found before a table of the same name).
async fn temporary_tables_are_altered_in_place(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS tmp_fk;
             CREATE TABLE tmp_fk (kept int);
             CREATE TEMP TABLE tmp_pk (id int PRIMARY KEY);
             CREATE TEMP TABLE tmp_fk (ref int);
             INSERT INTO tmp_pk VALUES (42);
             INSERT INTO tmp_fk VALUES (42);
             ALTER TABLE tmp_fk ADD FOREIGN KEY (ref) REFERENCES tmp_pk;
             ALTER TABLE tmp_fk ADD COLUMN x int DEFAULT 5;
             ALTER TABLE tmp_fk ADD CHECK (x > 0);
             ALTER TABLE tmp_fk ALTER COLUMN x TYPE bigint",
        )
        .await
        .unwrap();
    assert_eq!(
        sqlstate(&client, "INSERT INTO tmp_fk VALUES (43, 1)").await,
        "23503"
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO tmp_fk VALUES (42, 0)").await,
        "23514"
    );
    assert_eq!(rows(&client, "SELECT ref, x FROM tmp_fk").await, ["42|5"]);
    assert_eq!(
        rows(&client, "SELECT pg_typeof(x) FROM tmp_fk").await,
        ["bigint"]
    );
    // Another session sees the table of the same name alone, as it was: the
    // rebuilt one stayed temporary.
    let other = target.connect().await;
    assert_eq!(rows(&other, "SELECT count(kept) FROM tmp_fk").await, ["0"]);
}

async fn not_valid_constraints_hold_for_new_rows_until_validated(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS nv_c, nv_p, nv_t, nv_n CASCADE;
             CREATE TABLE nv_p (id int PRIMARY KEY);
             CREATE TABLE nv_c (x int, y int);
             INSERT INTO nv_p VALUES (1);
             INSERT INTO nv_c VALUES (1, 1), (5, 20);
             ALTER TABLE nv_c ADD CONSTRAINT fk FOREIGN KEY (x) REFERENCES nv_p NOT VALID;
             ALTER TABLE nv_c ADD CONSTRAINT small CHECK (y < 10) NOT VALID",
        )
        .await
        .unwrap();
    assert_eq!(
        constraints(&client, "nv_c").await,
        [
            "fk|f|t|FOREIGN KEY (x) REFERENCES nv_p(id) NOT VALID",
            "small|f|f|CHECK (y < 10) NOT VALID",
        ]
    );
    // New and changed rows are checked.
    assert_eq!(
        sqlstate(&client, "INSERT INTO nv_c VALUES (1, 30)").await,
        "23514"
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO nv_c VALUES (7, 1)").await,
        "23503"
    );
    assert_eq!(
        sqlstate(&client, "UPDATE nv_c SET y = 21 WHERE x = 5").await,
        "23514"
    );
    // A rebuild keeps them unchecked for the rows already there.
    client
        .batch_execute("ALTER TABLE nv_c ALTER y TYPE bigint")
        .await
        .unwrap();
    // VALIDATE checks the rows, and fails leaving the constraint not valid.
    assert_eq!(
        message(&client, "ALTER TABLE nv_c VALIDATE CONSTRAINT small").await,
        "check constraint \"small\" of relation \"nv_c\" is violated by some row"
    );
    assert_eq!(
        sqlstate(&client, "ALTER TABLE nv_c VALIDATE CONSTRAINT small").await,
        "23514"
    );
    assert_eq!(
        sqlstate(&client, "ALTER TABLE nv_c VALIDATE CONSTRAINT fk").await,
        "23503"
    );
    assert_eq!(
        message(&client, "ALTER TABLE nv_c VALIDATE CONSTRAINT fk").await,
        "insert or update on table \"nv_c\" violates foreign key constraint \"fk\""
    );
    assert_eq!(
        sqlstate(&client, "ALTER TABLE nv_c VALIDATE CONSTRAINT nope").await,
        "42704"
    );
    client
        .batch_execute(
            "INSERT INTO nv_p VALUES (5);
             ALTER TABLE nv_c VALIDATE CONSTRAINT fk, ALTER y TYPE int;
             DELETE FROM nv_c WHERE y >= 10;
             ALTER TABLE nv_c VALIDATE CONSTRAINT small;
             ALTER TABLE nv_c VALIDATE CONSTRAINT small",
        )
        .await
        .unwrap();
    assert_eq!(
        constraints(&client, "nv_c").await,
        [
            "fk|t|t|FOREIGN KEY (x) REFERENCES nv_p(id)",
            "small|t|f|CHECK (y < 10)",
        ]
    );
    // Keys cannot be NOT VALID; only CHECKs and foreign keys are validated.
    assert_eq!(
        sqlstate(&client, "ALTER TABLE nv_c ADD UNIQUE (x) NOT VALID").await,
        "0A000"
    );
    client
        .batch_execute("ALTER TABLE nv_c ADD CONSTRAINT u UNIQUE (y)")
        .await
        .unwrap();
    assert_eq!(
        message(&client, "ALTER TABLE nv_c VALIDATE CONSTRAINT u").await,
        "constraint \"u\" of relation \"nv_c\" is not a foreign key or check constraint"
    );
    // A new table's CHECK marked NOT VALID is valid; NO INHERIT is recorded.
    client
        .batch_execute(
            "CREATE TABLE nv_t (a int CHECK (a > 0) NO INHERIT, b int, \
             CONSTRAINT nb CHECK (b > 0) NO INHERIT NOT VALID);
             CREATE TABLE nv_n (a int);
             INSERT INTO nv_n VALUES (-1);
             ALTER TABLE nv_n ADD CONSTRAINT pos CHECK (a > 0) NO INHERIT NOT VALID",
        )
        .await
        .unwrap();
    assert_eq!(
        constraints(&client, "nv_t").await,
        [
            "nb|t|t|CHECK (b > 0) NO INHERIT",
            "nv_t_a_check|t|t|CHECK (a > 0) NO INHERIT",
        ]
    );
    assert_eq!(
        constraints(&client, "nv_n").await,
        ["pos|f|t|CHECK (a > 0) NO INHERIT NOT VALID"]
    );
    assert_eq!(
        sqlstate(&client, "INSERT INTO nv_t VALUES (-1, 1)").await,
        "23514"
    );
    assert_eq!(
        sqlstate(&client, "CREATE TABLE nv_x (a int, UNIQUE (a) NOT VALID)").await,
        "0A000"
    );
    client
        .batch_execute("DROP TABLE nv_c, nv_p, nv_t, nv_n")
        .await
        .unwrap();
}

async fn foreign_keys_change_their_deferral(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP TABLE IF EXISTS df_c, df_p CASCADE;
             CREATE TABLE df_p (id int PRIMARY KEY);
             CREATE TABLE df_c (x int CONSTRAINT fk REFERENCES df_p, y int CONSTRAINT pos CHECK (y > 0));
             ALTER TABLE df_c ALTER CONSTRAINT fk DEFERRABLE INITIALLY DEFERRED",
        )
        .await
        .unwrap();
    let deferral = "SELECT condeferrable, condeferred, pg_get_constraintdef(oid) \
                    FROM pg_constraint WHERE conname = 'fk' AND conrelid = 'df_c'::regclass";
    assert_eq!(
        rows(&client, deferral).await,
        ["t|t|FOREIGN KEY (x) REFERENCES df_p(id) DEFERRABLE INITIALLY DEFERRED"]
    );
    // Checked at COMMIT: a row fixed before then passes.
    client
        .batch_execute("BEGIN; INSERT INTO df_c VALUES (1, 1); INSERT INTO df_p VALUES (1); COMMIT")
        .await
        .unwrap();
    client
        .batch_execute("ALTER TABLE df_c ALTER CONSTRAINT fk DEFERRABLE")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, deferral).await,
        ["t|f|FOREIGN KEY (x) REFERENCES df_p(id) DEFERRABLE"]
    );
    client
        .batch_execute("ALTER TABLE df_c ALTER CONSTRAINT fk NOT DEFERRABLE")
        .await
        .unwrap();
    assert_eq!(
        rows(&client, deferral).await,
        ["f|f|FOREIGN KEY (x) REFERENCES df_p(id)"]
    );
    assert_eq!(
        sqlstate(&client, "BEGIN; INSERT INTO df_c VALUES (2, 1)").await,
        "23503"
    );
    client.batch_execute("ROLLBACK").await.unwrap();
    assert_eq!(
        message(&client, "ALTER TABLE df_c ALTER CONSTRAINT pos DEFERRABLE").await,
        "constraint \"pos\" of relation \"df_c\" is not a foreign key constraint"
    );
    assert_eq!(
        sqlstate(&client, "ALTER TABLE df_c ALTER CONSTRAINT pos DEFERRABLE").await,
        "42809"
    );
    assert_eq!(
        sqlstate(&client, "ALTER TABLE df_c ALTER CONSTRAINT nope DEFERRABLE").await,
        "42704"
    );
    client.batch_execute("DROP TABLE df_c, df_p").await.unwrap();
}

async fn views_are_renamed(target: &Target) {
    let client = target.connect().await;
    client
        .batch_execute(
            "DROP VIEW IF EXISTS rv_old, rv_new;
             CREATE VIEW rv_old AS SELECT 1::bigint AS a, 'x'::text AS b;
             COMMENT ON VIEW rv_old IS 'kept';
             ALTER VIEW rv_old RENAME TO rv_new;
             ALTER VIEW IF EXISTS rv_old RENAME TO rv_other",
        )
        .await
        .unwrap();
    assert_eq!(
        rows(
            &client,
            "SELECT a, b, obj_description('rv_new'::regclass) FROM rv_new"
        )
        .await,
        ["1|x|kept"]
    );
    assert_eq!(
        sqlstate(&client, "ALTER VIEW rv_old RENAME TO rv_other").await,
        "42P01"
    );
    assert_eq!(sqlstate(&client, "SELECT * FROM rv_old").await, "42P01");
    client.batch_execute("DROP VIEW rv_new").await.unwrap();
}
