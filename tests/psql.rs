//! The real `psql` binary against a real litewire process.

mod common;

use common::{TestServer, stderr, stdout};

in_both_cache_modes!(
    create_insert_select_with_types,
    errors_carry_sqlstate,
    multi_statement_strings,
    failed_transaction_state
);

async fn create_insert_select_with_types(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let out = server.psql(&[
        "-c",
        "CREATE TABLE items (id integer PRIMARY KEY, name text NOT NULL, price real, qty bigint, data blob, ok boolean)",
        "-c",
        "INSERT INTO items VALUES (1, 'apple', 1.25, 10, x'00ff', true), (2, 'pear', NULL, 5000000000, NULL, false)",
        "-c",
        "SELECT * FROM items ORDER BY id",
        "-c",
        "UPDATE items SET qty = qty + 1",
        "-c",
        "DELETE FROM items WHERE id = 2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let expected = "\
CREATE TABLE
INSERT 0 2
 id | name  | price |    qty     |  data  | ok 
----+-------+-------+------------+--------+----
  1 | apple |  1.25 |         10 | \\x00ff | t
  2 | pear  |       | 5000000000 |        | f
(2 rows)

UPDATE 2
DELETE 1
";
    assert_eq!(text, expected);
}

async fn errors_carry_sqlstate(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let cases = [
        ("SELECT * FROM missing", "42P01"),
        ("SELEC 1", "42601"),
        ("SELECT nope FROM (SELECT 1 AS a)", "42703"),
        ("ATTACH 'other.db' AS other", "42501"),
    ];
    for (sql, state) in cases {
        let out = server.psql(&["-c", "\\set VERBOSITY verbose", "-c", sql]);
        assert!(!out.status.success(), "{sql} should fail");
        let err = stderr(&out);
        assert!(
            err.contains(&format!("ERROR:  {state}:")),
            "{sql}: expected {state}, got {err}"
        );
    }
    let out = server.psql(&[
        "-c",
        "CREATE TABLE u (a int UNIQUE, b int NOT NULL DEFAULT 0, c int CHECK (c > 0), p int REFERENCES u(a))",
        "-c",
        "INSERT INTO u (a, c) VALUES (1, 1)",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    for (sql, state) in [
        ("INSERT INTO u (a, c) VALUES (1, 1)", "23505"),
        ("INSERT INTO u (a, b, c) VALUES (2, NULL, 1)", "23502"),
        ("INSERT INTO u (a, c) VALUES (3, -1)", "23514"),
        ("INSERT INTO u (a, c, p) VALUES (4, 1, 99)", "23503"),
    ] {
        let out = server.psql(&["-c", "\\set VERBOSITY verbose", "-c", sql]);
        let err = stderr(&out);
        assert!(
            err.contains(&format!("ERROR:  {state}:")),
            "{sql}: expected {state}, got {err}"
        );
    }
    // load_extension stays off: remote clients cannot load code from the server's disk.
    let out = server.psql(&["-c", "SELECT load_extension('/tmp/nothing')"]);
    assert!(stderr(&out).contains("not authorized"), "{}", stderr(&out));
}

async fn multi_statement_strings(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let out = server.psql(&[
        "-c",
        "CREATE TABLE m (a text); INSERT INTO m VALUES ('x;y'); SELECT a FROM m; SELECT count(*) AS n FROM m",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // psql 15 prints every statement's result, in order.
    assert_eq!(
        stdout(&out),
        "CREATE TABLE\nINSERT 0 1\n  a  \n-----\n x;y\n(1 row)\n\n n \n---\n 1\n(1 row)\n\n"
    );

    // A multi-statement string is one implicit transaction: a failure undoes it all.
    let out = server.psql(&["-c", "INSERT INTO m VALUES ('gone'); SELECT * FROM missing"]);
    assert!(!out.status.success());
    let out = server.psql(&["-At", "-c", "SELECT group_concat(a) FROM m"]);
    assert_eq!(stdout(&out), "x;y\n");
}

async fn failed_transaction_state(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let script = "\
\\set ON_ERROR_STOP 0
\\set VERBOSITY verbose
CREATE TABLE f (a int);
BEGIN;
INSERT INTO f VALUES (1);
SELECT * FROM missing;
SELECT 1;
COMMIT;
SELECT count(*) FROM f;
START TRANSACTION;
INSERT INTO f VALUES (2);
END;
SELECT count(*) FROM f;
";
    let path = server.dir.path().join("script.sql");
    std::fs::write(&path, script).unwrap();
    let out = server.psql(&["-At", "-f", path.to_str().unwrap()]);
    let err = stderr(&out);
    assert!(err.contains("ERROR:  42P01:"), "{err}");
    assert!(err.contains("ERROR:  25P02:"), "{err}");
    // COMMIT of a failed transaction rolls back (tag ROLLBACK), END commits, and
    // START TRANSACTION answers with its own tag, as in PostgreSQL.
    assert_eq!(
        stdout(&out),
        "CREATE TABLE\nBEGIN\nINSERT 0 1\nROLLBACK\n0\nSTART TRANSACTION\nINSERT 0 1\nCOMMIT\n1\n"
    );
}
