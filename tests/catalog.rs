//! psql's backslash commands, information_schema and session commands, answered
//! from the emulated catalog of a real schema. Expected outputs are what
//! PostgreSQL 15 prints for the same schema, except where noted.

mod common;

use std::process::Command;

use common::{TestServer, stderr, stdout};

in_both_cache_modes!(
    backslash_commands_describe_the_schema,
    psql_display_commands,
    information_schema_for_tools,
    session_commands_and_functions,
    postgres_dialect,
    catalog_never_touches_the_database_file,
    information_schema_constraints,
    catalog_queries_drivers_send,
    unnest_with_ordinality_in_from,
    pg_proc_lists_the_functions_that_exist,
    every_listed_built_in_function_runs,
    catalog_queries_use_the_whole_dialect,
    object_ids_read_and_show_names
);

const SCHEMA: &str = "
CREATE TABLE parent (id serial PRIMARY KEY, name varchar(40) NOT NULL UNIQUE, created timestamptz DEFAULT now());
CREATE TABLE child (id integer PRIMARY KEY, pid int REFERENCES parent(id) ON DELETE CASCADE, note text DEFAULT 'x', n numeric(10,2) CHECK (n >= 0), flag boolean);
CREATE INDEX child_pid ON child(pid);
CREATE VIEW v AS SELECT * FROM child;
";

/// Runs psql with `-c command` and returns its output, asserting success.
fn psql(server: &TestServer, command: &str) -> String {
    let out = server.psql(&["-c", command]);
    assert!(
        out.status.success(),
        "psql -c {command:?} failed: {}",
        stderr(&out)
    );
    stdout(&out)
}

fn with_schema(cache: &str) -> TestServer {
    let server = TestServer::start(cache, &[]);
    let out = server.psql(&["-q", "-c", SCHEMA]);
    assert!(out.status.success(), "{}", stderr(&out));
    server
}

async fn backslash_commands_describe_the_schema(cache: &str) {
    let server = with_schema(cache);
    let cases: &[(&str, &str)] = &[
        (
            "\\dt",
            "         List of relations
 Schema |  Name  | Type  |  Owner   
--------+--------+-------+----------
 public | child  | table | postgres
 public | parent | table | postgres
(2 rows)

",
        ),
        (
            "\\d",
            "              List of relations
 Schema |     Name      |   Type   |  Owner   
--------+---------------+----------+----------
 public | child         | table    | postgres
 public | parent        | table    | postgres
 public | parent_id_seq | sequence | postgres
 public | v             | view     | postgres
(4 rows)

",
        ),
        // PostgreSQL shows the default as 'x'::text and the check as
        // CHECK (n >= 0::numeric).
        (
            "\\d child",
            "                  Table \"public.child\"
 Column |     Type      | Collation | Nullable | Default 
--------+---------------+-----------+----------+---------
 id     | integer       |           | not null | 
 pid    | integer       |           |          | 
 note   | text          |           |          | 'x'
 n      | numeric(10,2) |           |          | 
 flag   | boolean       |           |          | 
Indexes:
    \"child_pkey\" PRIMARY KEY, btree (id)
    \"child_pid\" btree (pid)
Check constraints:
    \"child_n_check\" CHECK (n >= 0)
Foreign-key constraints:
    \"child_pid_fkey\" FOREIGN KEY (pid) REFERENCES parent(id) ON DELETE CASCADE

",
        ),
        (
            "\\d parent",
            "                                     Table \"public.parent\"
 Column  |           Type           | Collation | Nullable |              Default               
---------+--------------------------+-----------+----------+------------------------------------
 id      | integer                  |           | not null | nextval('parent_id_seq'::regclass)
 name    | character varying(40)    |           | not null | 
 created | timestamp with time zone |           |          | now()
Indexes:
    \"parent_pkey\" PRIMARY KEY, btree (id)
    \"parent_name_key\" UNIQUE CONSTRAINT, btree (name)
Referenced by:
    TABLE \"child\" CONSTRAINT \"child_pid_fkey\" FOREIGN KEY (pid) REFERENCES parent(id) ON DELETE CASCADE

",
        ),
        (
            "\\di",
            "                  List of relations
 Schema |      Name       | Type  |  Owner   | Table  
--------+-----------------+-------+----------+--------
 public | child_pid       | index | postgres | child
 public | child_pkey      | index | postgres | child
 public | parent_name_key | index | postgres | parent
 public | parent_pkey     | index | postgres | parent
(4 rows)

",
        ),
        (
            "\\dv",
            "        List of relations
 Schema | Name | Type |  Owner   
--------+------+------+----------
 public | v    | view | postgres
(1 row)

",
        ),
        (
            "\\d parent_name_key",
            "           Index \"public.parent_name_key\"
 Column |         Type          | Key? | Definition 
--------+-----------------------+------+------------
 name   | character varying(40) | yes  | name
unique, btree, for table \"public.parent\"

",
        ),
        (
            "\\d v",
            "                     View \"public.v\"
 Column |     Type      | Collation | Nullable | Default 
--------+---------------+-----------+----------+---------
 id     | integer       |           |          | 
 pid    | integer       |           |          | 
 note   | text          |           |          | 
 n      | numeric(10,2) |           |          | 
 flag   | boolean       |           |          | 

",
        ),
        (
            "\\du",
            "                                   List of roles
 Role name |                         Attributes                         | Member of 
-----------+------------------------------------------------------------+-----------
 postgres  | Superuser, Create role, Create DB, Replication, Bypass RLS | {}

",
        ),
        (
            "\\ds",
            "              List of relations
 Schema |     Name      |   Type   |  Owner   
--------+---------------+----------+----------
 public | parent_id_seq | sequence | postgres
(1 row)

",
        ),
        // As initdb leaves it, public belongs to pg_database_owner.
        (
            "\\dn",
            "      List of schemas
  Name  |       Owner       
--------+-------------------
 public | pg_database_owner
(1 row)

",
        ),
        (
            "\\dt par*",
            "         List of relations
 Schema |  Name  | Type  |  Owner   
--------+--------+-------+----------
 public | parent | table | postgres
(1 row)

",
        ),
    ];
    for (command, expected) in cases {
        let out = server.psql(&["-c", command]);
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        assert_eq!(stdout(&out), *expected, "psql {command}");
        let expected_stderr = if expected.is_empty() {
            "Did not find any relations.\n"
        } else {
            ""
        };
        assert_eq!(stderr(&out), expected_stderr, "psql {command}");
    }
    let none = server.psql(&["-c", "\\d nosuch"]);
    assert!(!none.status.success());
    assert!(stderr(&none).contains("Did not find any relation named \"nosuch\""));
}

async fn psql_display_commands(cache: &str) {
    let server = with_schema(cache);
    // \dt+ and \l: sizes and the database list come from SQLite itself.
    let plus = psql(&server, "\\dt+");
    assert!(plus.contains(
        " Schema |  Name  | Type  |  Owner   | Persistence | Access method |    Size    | Description"
    ));
    assert!(plus.contains(
        " public | child  | table | postgres | permanent   | heap          | 4096 bytes | "
    ));
    let list = psql(&server, "\\l");
    assert!(list.contains(" litewire | postgres | UTF8     |"), "{list}");
    let conninfo = psql(&server, "\\conninfo");
    assert!(
        conninfo.starts_with(
            "You are connected to database \"litewire\" as user \"postgres\" on host \"127.0.0.1\""
        ),
        "{conninfo}"
    );
    // Expanded display and timing are psql's own, over ordinary results.
    let out = server.psql(&[
        "-c",
        "\\x on",
        "-c",
        "SELECT 1 AS a, 'b' AS b",
        "-c",
        "\\x off",
        "-c",
        "\\timing on",
        "-c",
        "SELECT 2 AS c",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("-[ RECORD 1 ]\na | 1\nb | b\n"), "{text}");
    assert!(text.contains(" c \n---\n 2\n(1 row)\n"), "{text}");
    assert!(
        text.contains("Timing is on.\n") && text.contains("Time: "),
        "{text}"
    );
}

async fn information_schema_for_tools(cache: &str) {
    let server = with_schema(cache);
    let tables = psql(
        &server,
        "SELECT table_schema, table_name, table_type FROM information_schema.tables \
         WHERE table_schema = 'public' ORDER BY table_name",
    );
    assert_eq!(
        tables,
        " table_schema | table_name | table_type \n--------------+------------+------------\n public       | child      | BASE TABLE\n public       | parent     | BASE TABLE\n public       | v          | VIEW\n(3 rows)\n\n"
    );
    let columns = psql(
        &server,
        "SELECT column_name, data_type, is_nullable, character_maximum_length, numeric_precision, numeric_scale \
         FROM information_schema.columns WHERE table_schema = 'public' AND table_name = 'parent' ORDER BY ordinal_position",
    );
    assert_eq!(
        columns,
        concat!(
            " column_name |        data_type         | is_nullable | character_maximum_length | numeric_precision | numeric_scale \n",
            "-------------+--------------------------+-------------+--------------------------+-------------------+---------------\n",
            " id          | integer                  | NO          |                          |                32 |             0\n",
            " name        | character varying        | NO          |                       40 |                   |              \n",
            " created     | timestamp with time zone | YES         |                          |                   |              \n",
            "(3 rows)\n\n"
        )
    );
    // Catalog relations answer ordinary SQL, with joins and PostgreSQL syntax.
    let keys = psql(
        &server,
        "SELECT c.conname, c.contype, r.relname AS ref FROM pg_catalog.pg_constraint c \
         LEFT JOIN pg_catalog.pg_class r ON r.oid = c.confrelid \
         WHERE c.conrelid = 'child'::regclass ORDER BY 1",
    );
    assert_eq!(
        keys,
        "    conname     | contype |  ref   \n----------------+---------+--------\n child_n_check  | c       | \n child_pid_fkey | f       | parent\n child_pkey     | p       | \n(3 rows)\n\n"
    );
}

async fn session_commands_and_functions(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let out = server.psql(&[
        "-At",
        "-c",
        "SHOW application_name",
        "-c",
        "SET application_name = 'reports'",
        "-c",
        "SELECT current_setting('application_name'), current_user, current_database(), current_schema()",
        "-c",
        "SET LOCAL statement_timeout = 5",
        "-c",
        "BEGIN ISOLATION LEVEL SERIALIZABLE; SET search_path TO public, pg_catalog; ROLLBACK",
        "-c",
        "SHOW search_path",
        "-c",
        "START TRANSACTION; SET LOCAL extra_float_digits = 3; SHOW extra_float_digits; COMMIT",
        "-c",
        "SHOW extra_float_digits",
        "-c",
        "SELECT set_config('myapp.tenant', '42', false)",
        "-c",
        "SHOW myapp.tenant",
        "-c",
        "RESET application_name",
        "-c",
        "SHOW application_name",
        "-c",
        "SELECT version() LIKE 'PostgreSQL 15.0 (litewire %', pg_backend_pid() > 0",
        "-c",
        "DISCARD ALL",
        "-c",
        "SHOW myapp.tenant",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "psql\nSET\nreports|postgres|litewire|public\nSET\nBEGIN\nSET\nROLLBACK\n\"$user\", public\nSTART TRANSACTION\nSET\n3\nCOMMIT\n1\n42\n42\nRESET\npsql\nt|t\nDISCARD ALL\n\n"
    );
    let all = psql(&server, "SHOW ALL");
    assert!(all.contains(" server_version "), "{all}");
    assert!(all.contains(" TimeZone "), "{all}");

    let unknown = server.psql(&[
        "-c",
        "\\set VERBOSITY verbose",
        "-c",
        "SHOW no_such_setting",
    ]);
    assert!(!unknown.status.success());
    assert!(
        stderr(&unknown)
            .contains("42704: unrecognized configuration parameter \"no_such_setting\""),
        "{}",
        stderr(&unknown)
    );
    let read_only = server.psql(&[
        "-c",
        "\\set VERBOSITY verbose",
        "-c",
        "SET server_version = '1'",
    ]);
    assert!(
        stderr(&read_only).contains("55P02"),
        "{}",
        stderr(&read_only)
    );
    let in_block = server.psql(&[
        "-c",
        "\\set VERBOSITY verbose",
        "-c",
        "BEGIN",
        "-c",
        "DISCARD ALL",
    ]);
    assert!(stderr(&in_block).contains("25001"), "{}", stderr(&in_block));
}

async fn postgres_dialect(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let out = server.psql(&[
        "-At",
        "-c",
        "CREATE TABLE IF NOT EXISTS public.accounts (id bigserial PRIMARY KEY, email varchar(80) UNIQUE NOT NULL, \
         balance numeric(12,2) DEFAULT 0, active boolean DEFAULT true, created timestamptz DEFAULT now(), \
         token uuid, prefs jsonb, avatar bytea)",
        "-c",
        "CREATE TABLE IF NOT EXISTS public.accounts (id serial)",
        "-c",
        "CREATE TABLE events (id int GENERATED ALWAYS AS IDENTITY PRIMARY KEY, kind text)",
        "-c",
        "COMMENT ON TABLE accounts IS 'people'",
        "-c",
        "INSERT INTO accounts (email, balance, token, prefs, avatar) VALUES \
         ('a@x.org', '10.5'::numeric, 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, '{\"dark\": true}'::jsonb, '\\xdead'::bytea) \
         RETURNING id, balance, active",
        "-c",
        "INSERT INTO accounts (email) VALUES ('b@x.org') ON CONFLICT (email) DO NOTHING RETURNING id",
        "-c",
        "INSERT INTO accounts (email, balance) VALUES ('a@x.org', 1) \
         ON CONFLICT (email) DO UPDATE SET balance = accounts.balance + EXCLUDED.balance RETURNING balance",
        "-c",
        "INSERT INTO events DEFAULT VALUES RETURNING id",
        "-c",
        "SELECT email FROM public.accounts WHERE email ILIKE 'A@%' AND active = true AND created <= now()",
        "-c",
        "SELECT E'tab\\there', 'x'::text || 1::int, CAST('42' AS integer) + 1, 2.5::float8, length(avatar), avatar = '\\xdead'::bytea FROM accounts WHERE id = 1",
        "-c",
        "SELECT count(*) FROM pg_catalog.pg_tables WHERE tablename ~ '^acc'",
        "-c",
        "TRUNCATE events",
        "-c",
        "DROP TABLE IF EXISTS events, accounts",
        "-c",
        "SELECT count(*) FROM pg_tables",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        "CREATE TABLE\nCREATE TABLE\nCREATE TABLE\nCOMMENT\n1|10.50|t\nINSERT 0 1\n2\nINSERT 0 1\n11.50\nINSERT 0 1\n1\nINSERT 0 1\n\
a@x.org\ntab\there|x1|43|2.5|2|t\n1\nTRUNCATE TABLE\nDROP TABLE\n0\n"
    );
}

/// The emulated catalog lives in each connection's temp database: the file
/// holds the user's schema only, before and after catalog queries.
async fn catalog_never_touches_the_database_file(cache: &str) {
    let mut server = with_schema(cache);
    for command in [
        "\\dt+",
        "\\d child",
        "\\l",
        "\\du",
        "SHOW ALL",
        "SELECT * FROM information_schema.columns",
    ] {
        psql(&server, command);
    }
    server.stop();
    let out = Command::new("sqlite3")
        .arg(server.db_path())
        .arg("SELECT type, name FROM sqlite_schema ORDER BY name")
        .output()
        .expect("run the sqlite3 CLI (is sqlite3 installed?)");
    assert!(out.status.success(), "{}", stderr(&out));
    // What the schema's DDL made (`litewire_sequences` holds parent's serial),
    // nothing more.
    assert_eq!(
        stdout(&out),
        "table|child\nindex|child_pid\ntable|litewire_sequences\ntable|parent\n\
         index|sqlite_autoindex_litewire_sequences_1\nindex|sqlite_autoindex_parent_1\nview|v\n"
    );
}

/// Runs `sql` with `psql -At` and returns its rows (`|` between columns).
fn rows(server: &TestServer, sql: &str) -> String {
    let out = server.psql(&["-At", "-c", sql]);
    assert!(out.status.success(), "{sql}: {}", stderr(&out));
    stdout(&out)
}

/// The constraint views of `information_schema`, answered from the real schema.
/// PostgreSQL also lists each NOT NULL column as a CHECK constraint
/// (`2200_16390_2_not_null`) in `table_constraints`.
async fn information_schema_constraints(cache: &str) {
    let server = with_schema(cache);
    assert_eq!(
        rows(
            &server,
            "SELECT constraint_schema, constraint_name, table_name, constraint_type, is_deferrable, initially_deferred \
             FROM information_schema.table_constraints ORDER BY constraint_name"
        ),
        "public|child_n_check|child|CHECK|NO|NO\n\
         public|child_pid_fkey|child|FOREIGN KEY|NO|NO\n\
         public|child_pkey|child|PRIMARY KEY|NO|NO\n\
         public|parent_name_key|parent|UNIQUE|NO|NO\n\
         public|parent_pkey|parent|PRIMARY KEY|NO|NO\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT constraint_name, table_name, column_name, ordinal_position, position_in_unique_constraint \
             FROM information_schema.key_column_usage ORDER BY constraint_name, ordinal_position"
        ),
        "child_pid_fkey|child|pid|1|1\n\
         child_pkey|child|id|1|\n\
         parent_name_key|parent|name|1|\n\
         parent_pkey|parent|id|1|\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT constraint_name, unique_constraint_schema, unique_constraint_name, match_option, update_rule, delete_rule \
             FROM information_schema.referential_constraints"
        ),
        "child_pid_fkey|public|parent_pkey|NONE|NO ACTION|CASCADE\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT table_name, column_name, constraint_name FROM information_schema.constraint_column_usage \
             ORDER BY constraint_name, table_name, column_name"
        ),
        "child|n|child_n_check\n\
         parent|id|child_pid_fkey\n\
         child|id|child_pkey\n\
         parent|name|parent_name_key\n\
         parent|id|parent_pkey\n"
    );
    // The usual join of tools listing foreign keys.
    assert_eq!(
        rows(
            &server,
            "SELECT tc.table_name, kcu.column_name, ccu.table_name AS foreign_table, ccu.column_name AS foreign_column \
             FROM information_schema.table_constraints tc \
             JOIN information_schema.key_column_usage kcu ON tc.constraint_name = kcu.constraint_name AND tc.table_schema = kcu.table_schema \
             JOIN information_schema.constraint_column_usage ccu ON ccu.constraint_name = tc.constraint_name AND ccu.table_schema = tc.table_schema \
             WHERE tc.constraint_type = 'FOREIGN KEY'"
        ),
        "child|pid|parent|id\n"
    );
}

/// Catalog queries in the shapes drivers and ORMs send them: relations and
/// columns qualified with their schema, set-returning functions in the select
/// list, array aggregates (announced as arrays), subscripts, functions.
async fn catalog_queries_drivers_send(cache: &str) {
    let server = with_schema(cache);
    assert_eq!(
        rows(
            &server,
            "SELECT pg_catalog.pg_class.relname, pg_catalog.pg_namespace.nspname FROM pg_catalog.pg_class \
             JOIN pg_catalog.pg_namespace ON pg_catalog.pg_namespace.oid = pg_catalog.pg_class.relnamespace \
             WHERE pg_catalog.pg_class.relkind = ANY (ARRAY['r'::VARCHAR, 'p'::VARCHAR]) \
             AND pg_catalog.pg_table_is_visible(pg_catalog.pg_class.oid) \
             AND pg_catalog.pg_namespace.nspname <> 'pg_catalog' ORDER BY 1"
        ),
        "child|public\nparent|public\n"
    );
    // Key columns, one row per element of pg_index.indkey, in order (a
    // vector's subscripts start at 0, as in PostgreSQL).
    assert_eq!(
        rows(
            &server,
            "SELECT c.relname, unnest(i.indkey) AS attnum, generate_subscripts(i.indkey, 1) AS ord \
             FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid ORDER BY 1, 3"
        ),
        "child_pid|2|0\nchild_pkey|1|0\nparent_name_key|2|0\nparent_pkey|1|0\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT con.conname, array_agg(a.attname::text ORDER BY a.attnum), \
             con.conkey[1], con.confkey[1], json_build_object('k', con.contype) \
             FROM pg_constraint con JOIN pg_attribute a ON a.attrelid = con.conrelid \
             WHERE con.contype = 'f' GROUP BY con.conname, con.conkey, con.confkey, con.contype"
        ),
        "child_pid_fkey|{id,pid,note,n,flag}|2|1|{\"k\" : \"f\"}\n"
    );
    // A scalar subquery over a relation that is always empty is NULL.
    assert_eq!(
        rows(
            &server,
            "SELECT relname, (SELECT seqstart FROM pg_sequence WHERE seqrelid = c.oid) FROM pg_class c WHERE relname = 'parent'"
        ),
        "parent|\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT s.n, trim(both '\"' from '\"x\"') FROM pg_catalog.generate_series(2, 4) s(n) ORDER BY 1"
        ),
        "2|x\n3|x\n4|x\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT format_type(a.atttypid, a.atttypmod), pg_get_expr(d.adbin, d.adrelid), col_description(a.attrelid, a.attnum), \
             obj_description(a.attrelid, 'pg_class'), has_table_privilege(a.attrelid, 'SELECT'), a.attrelid::regclass \
             FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum \
             WHERE a.attrelid = 'public.child'::regclass AND a.attnum = 3"
        ),
        // PostgreSQL prints the default as 'x'::text.
        "text|'x'|||t|child\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT pg_get_constraintdef(oid, true) FROM pg_constraint WHERE conrelid = 'child'::regclass ORDER BY conname"
        ),
        "CHECK (n >= 0)\nFOREIGN KEY (pid) REFERENCES parent(id) ON DELETE CASCADE\nPRIMARY KEY (id)\n"
    );
    // An aggregated array is announced as an array (a driver reads it as one),
    // and its values travel in text format.
    let (client, _task) = server.connect().await;
    let prepared = client
        .prepare(
            "SELECT array_agg(attname::text ORDER BY attnum) AS names, array_agg(attnum > 1 ORDER BY attnum) AS flags \
             FROM pg_catalog.pg_attribute WHERE attrelid = 'parent'::regclass",
        )
        .await
        .expect("array_agg over the catalog");
    let types: Vec<_> = prepared
        .columns()
        .iter()
        .map(|c| c.type_().clone())
        .collect();
    assert_eq!(
        types,
        [
            tokio_postgres::types::Type::TEXT_ARRAY,
            tokio_postgres::types::Type::BOOL_ARRAY
        ]
    );
    let simple = client
        .simple_query(
            "SELECT array_agg(attname::text ORDER BY attnum), array_agg(attnum > 1 ORDER BY attnum) \
             FROM pg_attribute WHERE attrelid = 'parent'::regclass",
        )
        .await
        .expect("simple query");
    let row = simple
        .iter()
        .find_map(|m| match m {
            tokio_postgres::SimpleQueryMessage::Row(row) => Some(row),
            _ => None,
        })
        .expect("a row");
    assert_eq!(row.get(0), Some("{id,name,created}"));
    assert_eq!(row.get(1), Some("{f,t,t}"));
}

/// `unnest(...) WITH ORDINALITY` in FROM: each array's elements side by side and
/// their position from 1, under the alias's column names or PostgreSQL's
/// defaults. Expected rows are PostgreSQL 15's.
async fn unnest_with_ordinality_in_from(cache: &str) {
    let server = with_schema(cache);
    let cases = [
        (
            "SELECT * FROM unnest(ARRAY['a','b','c']) WITH ORDINALITY AS t(x, n)",
            "a|1\nb|2\nc|3\n",
        ),
        (
            "SELECT * FROM unnest(ARRAY[1,2], ARRAY['x','y']) WITH ORDINALITY koi(key, option, ord)",
            "1|x|1\n2|y|2\n",
        ),
        (
            "SELECT t, ordinality FROM unnest(ARRAY[7,8]) WITH ORDINALITY t",
            "7|1\n8|2\n",
        ),
        (
            "SELECT ordinality, unnest FROM unnest(ARRAY[7,8]) WITH ORDINALITY ORDER BY 1 DESC",
            "2|8\n1|7\n",
        ),
        (
            "SELECT key + ord FROM unnest(ARRAY[10,20], ARRAY[1,0]) WITH ORDINALITY AS koi(key, option, ord) \
             WHERE option = '0'",
            "22\n",
        ),
        // Arrays of other lengths: as many rows as the longest, NULL where a
        // shorter one has ended, each element of its own type.
        (
            "SELECT * FROM unnest(ARRAY[1,2], ARRAY['a','b','c'])",
            "1|a\n2|b\n|c\n",
        ),
        (
            "SELECT pg_typeof(a), a + 1 FROM unnest(ARRAY[1,2], ARRAY[true]) AS u(a, b) \
             WHERE b IS NULL",
            "integer|3\n",
        ),
        (
            "SELECT v.n, u.* FROM (VALUES (1, ARRAY['a','b']), (2, ARRAY['c'])) v(n, a), \
             unnest(v.a, ARRAY[10,20]) WITH ORDINALITY u(x, y, o) ORDER BY 1, 4",
            "1|a|10|1\n1|b|20|2\n2|c|10|1\n2||20|2\n",
        ),
        (
            "SELECT count(*) FROM unnest(NULL::int[], ARRAY[1,2,3])",
            "3\n",
        ),
    ];
    for (sql, expected) in cases {
        assert_eq!(rows(&server, sql), expected, "{sql}");
    }
}

/// `pg_proc` lists the functions litewire answers to, with PostgreSQL's result
/// types and volatility, and counts over it are answered (one row, 0 when
/// nothing matches). Expected: what PostgreSQL 15 answers.
async fn pg_proc_lists_the_functions_that_exist(cache: &str) {
    let server = TestServer::start(cache, &[]);
    assert_eq!(
        rows(
            &server,
            "SELECT p.proname, p.pronargs, t.typname, p.provolatile FROM pg_proc p \
             JOIN pg_type t ON t.oid = p.prorettype WHERE p.proname IN ('nextval', \
             'set_config', 'format_type', 'gen_random_uuid', 'array_to_string') ORDER BY 1, 2"
        ),
        "array_to_string|2|text|s\narray_to_string|3|text|s\nformat_type|2|text|s\n\
         gen_random_uuid|0|uuid|v\nnextval|1|int8|v\nset_config|3|text|v\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT count(*) FROM pg_proc WHERE proname = 'no_such_function'"
        ),
        "0\n"
    );
    // litewire's own helpers for the dialect translation are not PostgreSQL's.
    assert_eq!(
        rows(
            &server,
            "SELECT count(*) FROM pg_proc WHERE proname LIKE 'litewire%'"
        ),
        "0\n"
    );
}

/// Each of PostgreSQL's built-in functions that `pg_proc` lists with its own
/// row (oid below litewire's 9000) runs when called with NULLs of its
/// argument types (in FROM when it returns a set, with `OVER ()` as a window
/// function, with `WITHIN GROUP` as an ordered-set aggregate): the catalog
/// lists no function that is not there. (Types' support functions, input
/// and output among them, are listed for the clients that map types through
/// them, not to be called.)
async fn every_listed_built_in_function_runs(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let (client, _connection) = server.connect().await;
    let text = |row: &tokio_postgres::SimpleQueryRow, i: usize| row.get(i).unwrap_or("").to_owned();
    let query = |sql: &'static str| {
        let client = &client;
        async move {
            let messages = client.simple_query(sql).await.expect(sql);
            messages
                .into_iter()
                .filter_map(|m| match m {
                    tokio_postgres::SimpleQueryMessage::Row(row) => {
                        Some((0..row.len()).map(|i| text(&row, i)).collect::<Vec<_>>())
                    }
                    _ => None,
                })
                .collect::<Vec<_>>()
        }
    };
    let types: std::collections::HashMap<String, String> =
        query("SELECT oid::text, format_type(oid, NULL) FROM pg_type")
            .await
            .into_iter()
            .map(|row| (row[0].clone(), row[1].clone()))
            .collect();
    // What a probe passes for a pseudo-type: "any", anyelement,
    // anynonarray, anycompatible; anyarray, anycompatiblearray.
    let type_name = |oid: &str| match oid {
        "2276" | "2283" | "2776" | "5077" => Some("int4".to_owned()),
        "2277" | "5078" => Some("int4[]".to_owned()),
        _ => types.get(oid).cloned(),
    };
    let functions = query(
        "SELECT p.proname, p.prokind, p.proretset, p.provariadic::text, p.proargtypes, \
         coalesce(a.aggkind, ''), coalesce(a.aggnumdirectargs, 0)::text \
         FROM pg_proc p LEFT JOIN pg_aggregate a ON a.aggfnoid = p.oid WHERE p.oid < 9000 \
         AND p.oid NOT IN (SELECT typinput FROM pg_type UNION SELECT typoutput FROM pg_type \
         UNION SELECT typreceive FROM pg_type UNION SELECT typsend FROM pg_type \
         UNION SELECT typmodin FROM pg_type UNION SELECT typmodout FROM pg_type)",
    )
    .await;
    assert!(
        functions.len() > 600,
        "{} built-ins listed",
        functions.len()
    );
    let mut failed = Vec::new();
    for f in &functions {
        let (name, kind, set, variadic, direct) = (&f[0], &f[1], f[2] == "t", &f[3], &f[6]);
        let Some(mut values) = (f[4].split_whitespace())
            .map(|oid| type_name(oid).map(|name| format!("NULL::{name}")))
            .collect::<Option<Vec<String>>>()
        else {
            // A type's support function, taking what no value is here
            // (`cstring`, `internal`).
            continue;
        };
        if variadic != "0" && variadic != "2276" {
            // Called with the elements, not with an array.
            if let (Some(last), Some(element)) = (values.last_mut(), type_name(variadic)) {
                *last = format!("NULL::{element}");
            }
        }
        if kind == "a" && values.is_empty() {
            values.push("*".to_owned());
        }
        let direct: usize = direct.parse().unwrap_or(0);
        let call = match f[5].as_str() {
            "h" => format!("{name}({0}) WITHIN GROUP (ORDER BY {0})", values[0]),
            "o" => format!(
                "{name}({}) WITHIN GROUP (ORDER BY {})",
                values[..direct].join(", "),
                values[direct..].join(", ")
            ),
            _ if kind == "w" => format!("{name}({}) OVER ()", values.join(", ")),
            _ => format!("{name}({})", values.join(", ")),
        };
        let sql = match set {
            true => format!("SELECT * FROM {call} AS probe LIMIT 0"),
            false => format!("SELECT {call}"),
        };
        if let Err(e) = client.simple_query(&sql).await {
            failed.push(format!("{sql}: {e}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

/// Catalog queries read as any other query is: `DISTINCT ON`, `LATERAL`,
/// set-returning functions in step, a vector subscripted (drizzle-kit reads
/// indexes so). The answers are PostgreSQL 15's for the same schema.
async fn catalog_queries_use_the_whole_dialect(cache: &str) {
    let server = with_schema(cache);
    assert_eq!(
        rows(
            &server,
            "SELECT DISTINCT ON (t.relname, ic.relname, k.i) t.relname, ic.relname, k.i, a.attname, \
             i.indisunique, i.indoption[k.i - 1] & 1 = 1 AS descending, opc.opcname \
             FROM pg_class t JOIN pg_index i ON t.oid = i.indrelid \
             JOIN pg_class ic ON ic.oid = i.indexrelid \
             CROSS JOIN LATERAL (SELECT unnest(i.indkey), generate_subscripts(i.indkey, 1) + 1) AS k(attnum, i) \
             LEFT JOIN pg_attribute AS a ON i.indrelid = a.attrelid AND k.attnum = a.attnum \
             JOIN pg_namespace c ON c.oid = t.relnamespace \
             JOIN pg_opclass opc ON opc.oid = ANY(i.indclass) \
             WHERE c.nspname = 'public' AND t.relname IN ('parent', 'child') \
             ORDER BY t.relname, ic.relname, k.i"
        ),
        "child|child_pid|1|pid|f|f|int4_ops\n\
         child|child_pkey|1|id|t|f|int4_ops\n\
         parent|parent_name_key|1|name|t|f|text_ops\n\
         parent|parent_pkey|1|id|t|f|int4_ops\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT DISTINCT ON (contype) contype, conname FROM pg_constraint \
             WHERE conrelid IN ('parent'::regclass, 'child'::regclass) ORDER BY contype, conname DESC"
        ),
        "c|child_n_check\nf|child_pid_fkey\np|parent_pkey\nu|parent_name_key\n"
    );
    assert_eq!(
        rows(
            &server,
            "SELECT x.relname FROM pg_class x WHERE x.tableoid = 'pg_class'::regclass \
             AND x.relname IN ('parent', 'child') ORDER BY 1 OFFSET 1"
        ),
        "parent\n"
    );
}

/// The `reg*` types are oids read from names and shown as names: in the
/// select list a name, in a comparison or a join an oid, in `ORDER BY` the
/// oid's order; `pg_type`'s functions are rows of `pg_proc`, as clients that
/// build their type map from `pg_type JOIN pg_proc` read them. Expected: what
/// PostgreSQL 15 answers for the same schema.
async fn object_ids_read_and_show_names(cache: &str) {
    let server = with_schema(cache);
    psql(
        &server,
        "CREATE TYPE mood AS ENUM ('calm', 'busy'); CREATE TABLE aardvark (x int)",
    );
    let cases = [
        (
            "SELECT 'child'::regclass, 1259::regclass, 'int'::regtype, 1043::regtype, \
             'public'::regnamespace, 'int4in'::regproc, 0::regclass, to_regclass('parent'), \
             to_regclass('nope') IS NULL",
            "child|pg_class|integer|character varying|public|int4in|-|parent|t\n",
        ),
        // Ordered by oid (the order they were made in), not by name.
        (
            "SELECT c.oid::regclass FROM pg_class c \
             WHERE c.relname IN ('child', 'parent', 'aardvark') ORDER BY 1",
            "parent\nchild\naardvark\n",
        ),
        (
            "SELECT relname FROM pg_class WHERE oid = 'child'::regclass",
            "child\n",
        ),
        // A text read when the statement runs, by name.
        (
            "SELECT relname::regclass, NULL::text::regclass IS NULL \
             FROM pg_class WHERE relname = 'child'",
            "child|t\n",
        ),
        (
            "SELECT 'child'::regclass::oid = (SELECT oid FROM pg_class WHERE relname = 'child'), \
             'child'::regclass || '!', 'pg_type'::regclass::oid, pg_typeof('child'::regclass)",
            "t|child!|1247|regclass\n",
        ),
        (
            "SELECT t.typname, p.proname, p.pronargs FROM pg_type t JOIN pg_proc p ON p.oid = t.typinput \
             WHERE t.typname IN ('int4', 'text', 'bool', '_int4', 'varchar', 'mood') ORDER BY 1",
            "_int4|array_in|3\nbool|boolin|1\nint4|int4in|1\nmood|enum_in|2\ntext|textin|1\nvarchar|varcharin|3\n",
        ),
        (
            "SELECT typname, typinput, typoutput, typreceive, typsend, typmodin, typmodout, pg_typeof(typinput) \
             FROM pg_type WHERE typname IN ('varchar', '_text', 'mood', 'uuid') ORDER BY 1",
            "_text|array_in|array_out|array_recv|array_send|-|-|regproc\n\
             mood|enum_in|enum_out|enum_recv|enum_send|-|-|regproc\n\
             uuid|uuid_in|uuid_out|uuid_recv|uuid_send|-|-|regproc\n\
             varchar|varcharin|varcharout|varcharrecv|varcharsend|varchartypmodin|varchartypmodout|regproc\n",
        ),
        // pgjdbc's test for an array type.
        (
            "SELECT typname, typinput = 'array_in'::regproc AS is_array FROM pg_type \
             WHERE typname IN ('int4', '_int4') ORDER BY 1",
            "_int4|t\nint4|f\n",
        ),
    ];
    for (sql, expected) in cases {
        assert_eq!(rows(&server, sql), expected, "{sql}");
    }
    for (sql, message) in [
        (
            "SELECT 'nope'::regclass",
            "relation \"nope\" does not exist",
        ),
        ("SELECT 'nope'::regtype", "type \"nope\" does not exist"),
        ("SELECT 'nope'::regproc", "function \"nope\" does not exist"),
        (
            "SELECT 'nope'::text::regclass",
            "relation \"nope\" does not exist",
        ),
        (
            "SELECT '1259'::text::regclass",
            "relation \"1259\" does not exist",
        ),
    ] {
        let out = server.psql(&["-c", sql]);
        assert!(!out.status.success(), "{sql}");
        assert!(stderr(&out).contains(message), "{sql}: {}", stderr(&out));
    }
}
