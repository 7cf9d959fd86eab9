"""psycopg 3 against a running litewire server.

The server is found through LITEWIRE_PG_HOST (default 127.0.0.1) and
LITEWIRE_PG_PORT; tests/psycopg.rs starts a fresh server for each test class
and runs it as `python -m unittest test_psycopg.<Class>`. Every expectation is
what PostgreSQL 15 answers to the same statements.
"""

import os
import threading
import unittest
import uuid
from datetime import date, datetime, time, timedelta, timezone
from decimal import Decimal

import psycopg
from psycopg import errors
from psycopg.pq import TransactionStatus
from psycopg.types.json import Json, Jsonb

HOST = os.environ.get("LITEWIRE_PG_HOST", "127.0.0.1")
PORT = int(os.environ["LITEWIRE_PG_PORT"])


def connect(**kwargs):
    return psycopg.connect(
        host=HOST,
        port=PORT,
        user="postgres",
        dbname="litewire",
        connect_timeout=10,
        **kwargs,
    )


def count(conn, table):
    return conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]


class ConnectionTests(unittest.TestCase):
    def test_connect_and_server_identity(self):
        with connect() as conn:
            self.assertEqual(conn.info.dbname, "litewire")
            self.assertEqual(conn.info.transaction_status, TransactionStatus.IDLE)
            self.assertTrue(
                150000 <= conn.info.server_version < 160000, conn.info.server_version
            )
            self.assertEqual(conn.execute("SELECT 1").fetchone(), (1,))

    def test_current_database_user_version(self):
        with connect(autocommit=True) as conn:
            database, user, version = conn.execute(
                "SELECT current_database(), current_user, version()"
            ).fetchone()
            self.assertEqual(database, "litewire")
            self.assertEqual(user, "postgres")
            self.assertTrue(version.startswith("PostgreSQL 15"), version)

    def test_type_info_fetch(self):
        # psycopg's own type lookup (what SQLAlchemy 2 runs on its first connect):
        # pg_type with to_regtype($1) and oid::regtype::text.
        from psycopg.types import TypeInfo

        with connect(autocommit=True) as conn:
            info = TypeInfo.fetch(conn, "int4")
            self.assertIsNotNone(info)
            self.assertEqual(
                (info.name, info.oid, info.array_oid, info.regtype, info.delimiter),
                ("int4", 23, 1007, "integer", ","),
            )
            info = TypeInfo.fetch(conn, "character varying")
            self.assertEqual(
                (info.name, info.oid, info.regtype),
                ("varchar", 1043, "character varying"),
            )
            self.assertIsNone(TypeInfo.fetch(conn, "hstore"))
            conn.execute("CREATE TABLE regclass_probe (a int)")
            oids = conn.execute(
                "SELECT to_regclass(%s) = c.oid, to_regclass('no_such_table') FROM pg_class c"
                " WHERE c.relname = 'regclass_probe'",
                ["public.regclass_probe"],
            ).fetchone()
            self.assertEqual(oids, (True, None))

    def test_set_and_show_application_name(self):
        with connect(autocommit=True, application_name="at-start") as conn:
            self.assertEqual(conn.info.parameter_status("application_name"), "at-start")
            self.assertEqual(
                conn.execute("SHOW application_name").fetchone(), ("at-start",)
            )
            conn.execute("SET application_name = 'x'")
            self.assertEqual(conn.execute("SHOW application_name").fetchone(), ("x",))
            # The server reports the change with a ParameterStatus message.
            self.assertEqual(conn.info.parameter_status("application_name"), "x")


# One column per PostgreSQL type under test; `id` is assigned by the server.
TYPED_DDL = """
CREATE TABLE IF NOT EXISTS typed (
    id serial PRIMARY KEY,
    k integer NOT NULL,
    name varchar(40),
    flag boolean,
    raw bytea,
    price numeric(10,2),
    day date,
    at time,
    ts timestamp,
    tstz timestamptz,
    uid uuid,
    doc json,
    docb jsonb,
    r real,
    d double precision,
    s smallint,
    b bigint
)
"""
COLUMNS = [
    "name",
    "flag",
    "raw",
    "price",
    "day",
    "at",
    "ts",
    "tstz",
    "uid",
    "doc",
    "docb",
    "r",
    "d",
    "s",
    "b",
]
DOC = {"a": [1, 2.5, None, True], "b": "x", "nested": {"k": "v"}}
ROWS = [
    (
        "grüße, 'quoted' \"text\"",
        True,
        b"\x00\x01\xfe\xff",
        Decimal("12.50"),
        date(2024, 2, 29),
        time(13, 45, 30, 250000),
        datetime(2024, 2, 29, 13, 45, 30, 123456),
        datetime(2024, 2, 29, 13, 45, 30, 123456, tzinfo=timezone.utc),
        uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
        DOC,
        DOC,
        1.5,
        2.718281828459045,
        -12345,
        9007199254740993,  # 2**53 + 1: not representable as a double
    ),
    (
        "",
        False,
        b"",
        Decimal("-99999999.99"),
        date(1999, 12, 31),
        time(0, 0),
        datetime(1970, 1, 1, 0, 0),
        # Another offset: read back, it is the same instant.
        datetime(2023, 6, 1, 23, 30, tzinfo=timezone(timedelta(hours=5, minutes=30))),
        uuid.UUID(int=0),
        [],
        {"empty": {}},
        -0.25,
        -1e300,
        32767,
        -9223372036854775808,
    ),
    (None,) * len(COLUMNS),
]


def wrap_json(row):
    """json and jsonb parameters need Json/Jsonb wrappers; None stays None."""
    row = list(row)
    for i, wrapper in ((COLUMNS.index("doc"), Json), (COLUMNS.index("docb"), Jsonb)):
        if row[i] is not None:
            row[i] = wrapper(row[i])
    return row


class TypeTests(unittest.TestCase):
    """Every type round-trips to the same Python value, of the same Python type."""

    def setUp(self):
        with connect(autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS typed")
            cur = conn.execute(TYPED_DDL)
            self.assertEqual(cur.statusmessage, "CREATE TABLE")
            # IF NOT EXISTS on an existing table is not an error.
            cur = conn.execute(TYPED_DDL)
            self.assertEqual(cur.statusmessage, "CREATE TABLE")

    def roundtrip(self, binary, prepare):
        # %b sends parameters in binary, %t in text; the cursor picks the result format.
        mark = "%b" if binary else "%t"
        threshold = 0 if prepare else None
        with connect(prepare_threshold=threshold) as conn:
            cur = conn.cursor(binary=binary)
            insert = "INSERT INTO typed (k, {}) VALUES ({})".format(
                ", ".join(COLUMNS), ", ".join([mark] * (len(COLUMNS) + 1))
            )
            cur.executemany(
                insert, [[k] + wrap_json(row) for k, row in enumerate(ROWS)]
            )
            self.assertEqual(cur.rowcount, len(ROWS))
            conn.commit()

        # Read back one column at a time, so that each type fails on its own.
        with connect(prepare_threshold=threshold, autocommit=True) as conn:
            cur = conn.cursor(binary=binary)
            for i, column in enumerate(COLUMNS):
                with self.subTest(column=column):
                    cur.execute(
                        f"SELECT {column} FROM typed WHERE k >= {mark} ORDER BY k",
                        [0],
                        prepare=prepare,
                    )
                    got = [row[0] for row in cur.fetchall()]
                    want = [row[i] for row in ROWS]
                    self.assertEqual(got, want)
                    self.assertEqual([type(v) for v in got], [type(v) for v in want])

    def test_text_parameters_and_results(self):
        self.roundtrip(binary=False, prepare=False)

    def test_binary_parameters_and_results(self):
        self.roundtrip(binary=True, prepare=False)

    def test_text_prepared(self):
        self.roundtrip(binary=False, prepare=True)

    def test_binary_prepared(self):
        self.roundtrip(binary=True, prepare=True)

    def test_numeric_keeps_its_scale(self):
        with connect() as conn:
            conn.execute(
                "INSERT INTO typed (k, price) VALUES (1, %s), (2, %s)",
                [Decimal("12.5"), Decimal(3)],
            )
            for binary in (False, True):
                cur = conn.cursor(binary=binary)
                cur.execute("SELECT price FROM typed ORDER BY k")
                # numeric(10,2) always has two decimal places.
                self.assertEqual(
                    [str(r[0]) for r in cur.fetchall()],
                    ["12.50", "3.00"],
                    f"binary={binary}",
                )

    def test_parameters_keep_their_types(self):
        # A bare parameter's result column has the parameter's declared type.
        values = [v for v in ROWS[0] if not isinstance(v, dict)]
        for binary in (False, True):
            mark = "%b" if binary else "%t"
            with connect() as conn:
                cur = conn.cursor(binary=binary)
                cur.execute("SELECT " + ", ".join([mark] * len(values)), values)
                for want, value in zip(values, cur.fetchone()):
                    with self.subTest(binary=binary, want=want):
                        self.assertEqual(value, want)
                        self.assertIs(type(value), type(want))


class PreparedTests(unittest.TestCase):
    def setUp(self):
        with connect(autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS items")
            conn.execute(
                "CREATE TABLE items (id integer PRIMARY KEY, name varchar(20) NOT NULL, qty bigint)"
            )
            conn.cursor().executemany(
                "INSERT INTO items (id, name, qty) VALUES (%s, %s, %s)",
                [(1, "apple", 10), (2, "pear", 5000000000), (3, "fig", 7)],
            )

    def test_prepare_threshold_zero(self):
        # Every statement is prepared server-side, then executed by name.
        with connect(prepare_threshold=0, autocommit=True) as conn:
            for _ in range(3):
                for ident, name in ((1, "apple"), (2, "pear"), (3, "fig")):
                    row = conn.execute(
                        "SELECT name, qty FROM items WHERE id = %s", [ident]
                    ).fetchone()
                    self.assertEqual(row[0], name)
            cur = conn.execute(
                "UPDATE items SET qty = qty + %s WHERE qty < %s", [1, 100]
            )
            self.assertEqual(cur.rowcount, 2)
            cur = conn.execute(
                "UPDATE items SET qty = qty + %s WHERE qty < %s", [1, 100]
            )
            self.assertEqual(cur.rowcount, 2)
            self.assertEqual(
                conn.execute("SELECT qty FROM items ORDER BY id").fetchall(),
                [(12,), (5000000000,), (9,)],
            )

    def test_prepared_statements_survive_rollback(self):
        # On rollback psycopg drops its prepared statements with DEALLOCATE ALL,
        # then prepares them again.
        with connect(prepare_threshold=0) as conn:
            query = "SELECT name FROM items WHERE id = %s"
            self.assertEqual(conn.execute(query, [1]).fetchone(), ("apple",))
            conn.rollback()
            self.assertEqual(conn.execute(query, [2]).fetchone(), ("pear",))
            with self.assertRaises(errors.UndefinedTable):
                conn.execute("SELECT * FROM no_such_table WHERE id = %s", [1])
            conn.rollback()
            self.assertEqual(conn.execute(query, [3]).fetchone(), ("fig",))
            conn.execute("DEALLOCATE ALL")
            self.assertEqual(conn.execute(query, [1]).fetchone(), ("apple",))

    def test_execute_prepare_true(self):
        with connect(autocommit=True) as conn:
            cur = conn.cursor()
            for binary in (False, True):
                cur = conn.cursor(binary=binary)
                for limit, names in ((1, ["apple"]), (2, ["apple", "pear"]), (0, [])):
                    cur.execute(
                        "SELECT name FROM items ORDER BY id LIMIT %s",
                        [limit],
                        prepare=True,
                    )
                    self.assertEqual([r[0] for r in cur.fetchall()], names)
                # An empty result still describes its columns.
                cur.execute(
                    "SELECT id, name FROM items WHERE id > %s", [100], prepare=True
                )
                self.assertEqual(cur.fetchall(), [])
                self.assertEqual([c.name for c in cur.description], ["id", "name"])


class DmlTests(unittest.TestCase):
    def setUp(self):
        with connect(autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS people")
            conn.execute("DROP TABLE IF EXISTS kv")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS people (id serial PRIMARY KEY, name varchar(20) NOT NULL, age smallint)"
            )
            conn.execute(
                "CREATE TABLE IF NOT EXISTS kv (k text PRIMARY KEY, v text NOT NULL, hits integer NOT NULL DEFAULT 1)"
            )

    def test_executemany(self):
        with connect() as conn:
            rows = [(f"p{i}", i) for i in range(50)]
            cur = conn.cursor()
            cur.executemany("INSERT INTO people (name, age) VALUES (%s, %s)", rows)
            self.assertEqual(cur.rowcount, 50)
            conn.commit()
            self.assertEqual(
                conn.execute("SELECT name, age FROM people ORDER BY age").fetchall(),
                rows,
            )

    def test_returning(self):
        with connect(autocommit=True) as conn:
            row = conn.execute(
                "INSERT INTO people (name, age) VALUES (%s, %s) RETURNING id, name",
                ["ann", 30],
            ).fetchone()
            self.assertEqual(row, (1, "ann"))
            row = conn.execute(
                "INSERT INTO people (name) VALUES (%s) RETURNING id, age", ["bob"]
            ).fetchone()
            self.assertEqual(row, (2, None))

            cur = conn.cursor()
            cur.executemany(
                "INSERT INTO people (name) VALUES (%s) RETURNING id",
                [("c",), ("d",)],
                returning=True,
            )
            ids = []
            while True:
                ids.extend(r[0] for r in cur.fetchall())
                if not cur.nextset():
                    break
            self.assertEqual(ids, [3, 4])

            cur = conn.execute(
                "UPDATE people SET age = age + 1 WHERE name = %s RETURNING age", ["ann"]
            )
            self.assertEqual(cur.fetchall(), [(31,)])
            cur = conn.execute("DELETE FROM people WHERE id > %s RETURNING name", [2])
            self.assertEqual(sorted(cur.fetchall()), [("c",), ("d",)])
            self.assertEqual(cur.rowcount, 2)

    def test_on_conflict_do_update(self):
        upsert = (
            "INSERT INTO kv (k, v) VALUES (%s, %s) "
            "ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, hits = kv.hits + 1 "
            "RETURNING k, v, hits"
        )
        with connect(autocommit=True) as conn:
            self.assertEqual(
                conn.execute(upsert, ["a", "one"]).fetchone(), ("a", "one", 1)
            )
            self.assertEqual(
                conn.execute(upsert, ["a", "two"]).fetchone(), ("a", "two", 2)
            )
            cur = conn.execute(
                "INSERT INTO kv (k, v) VALUES (%s, %s) ON CONFLICT DO NOTHING",
                ["a", "three"],
            )
            self.assertEqual(cur.rowcount, 0)
            self.assertEqual(
                conn.execute("SELECT k, v, hits FROM kv").fetchall(), [("a", "two", 2)]
            )


class TransactionTests(unittest.TestCase):
    def setUp(self):
        with connect(autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS ledger")
            conn.execute("CREATE TABLE ledger (id integer PRIMARY KEY, note text)")

    def test_transaction_block_commits(self):
        with connect(autocommit=True) as conn, connect(autocommit=True) as other:
            with conn.transaction():
                conn.execute("INSERT INTO ledger VALUES (1, 'a'), (2, 'b')")
                self.assertEqual(
                    conn.info.transaction_status, TransactionStatus.INTRANS
                )
            self.assertEqual(conn.info.transaction_status, TransactionStatus.IDLE)
            self.assertEqual(count(other, "ledger"), 2)

    def test_exception_rolls_back(self):
        with connect(autocommit=True) as conn:
            with self.assertRaises(RuntimeError), conn.transaction():
                conn.execute("INSERT INTO ledger VALUES (1, 'gone')")
                raise RuntimeError("roll back the transaction")
            self.assertEqual(conn.info.transaction_status, TransactionStatus.IDLE)
            self.assertEqual(count(conn, "ledger"), 0)

    def test_nested_transaction_is_a_savepoint(self):
        with connect(autocommit=True) as conn:
            with conn.transaction():
                conn.execute("INSERT INTO ledger VALUES (1, 'kept')")
                try:
                    with conn.transaction():
                        conn.execute("INSERT INTO ledger VALUES (2, 'undone')")
                        raise RuntimeError("roll back to the savepoint")
                except RuntimeError:
                    pass
                conn.execute("INSERT INTO ledger VALUES (3, 'kept too')")
            self.assertEqual(
                conn.execute("SELECT id FROM ledger ORDER BY id").fetchall(),
                [(1,), (3,)],
            )

    def test_explicit_rollback_and_commit(self):
        with connect() as conn, connect(autocommit=True) as other:
            conn.execute("INSERT INTO ledger VALUES (1, 'x')")
            self.assertEqual(conn.info.transaction_status, TransactionStatus.INTRANS)
            conn.rollback()
            self.assertEqual(count(conn, "ledger"), 0)
            conn.execute("INSERT INTO ledger VALUES (2, 'y')")
            conn.commit()
            self.assertEqual(count(other, "ledger"), 1)

    def test_uncommitted_rows_are_invisible_elsewhere(self):
        with connect() as conn, connect(autocommit=True) as other:
            conn.execute("INSERT INTO ledger VALUES (1, 'x')")
            # Read from a thread with a deadline, so that a blocked read is seen
            # as such instead of hanging the test.
            result = {}

            def read():
                try:
                    result["count"] = count(other, "ledger")
                except psycopg.Error as error:
                    result["error"] = error

            reader = threading.Thread(target=read)
            reader.start()
            reader.join(5)
            blocked = reader.is_alive()
            conn.rollback()  # releases a blocked reader
            reader.join(30)
            # Readers never wait for writers, in either cache mode: the writer's
            # connection has a page cache of its own, so the shared cache's table
            # locks never reach readers; they read the last committed snapshot.
            self.assertFalse(blocked, "a read waited for another session's open write")
            self.assertEqual(result, {"count": 0})


class CopyTests(unittest.TestCase):
    # id, name, ok, note; `name` of row 2 needs escaping in text and quoting in CSV.
    ROWS = ((1, "apple", True, None), (2, "a\tb\\c\nd", False, "x"))

    def setUp(self):
        with connect(autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS fruit")
            conn.execute(
                "CREATE TABLE fruit (id integer PRIMARY KEY, name text NOT NULL, ok boolean, note varchar(10))"
            )

    def copy_rows_in(self, conn):
        cur = conn.cursor()
        with cur.copy("COPY fruit (id, name, ok, note) FROM STDIN") as copy:
            for row in self.ROWS:
                copy.write_row(row)
        self.assertEqual(cur.rowcount, 2)

    def test_copy_from_stdin_write_row(self):
        with connect() as conn:
            self.copy_rows_in(conn)
            conn.commit()
            self.assertEqual(
                conn.execute(
                    "SELECT id, name, ok, note FROM fruit ORDER BY id"
                ).fetchall(),
                list(self.ROWS),
            )

    def test_copy_to_stdout_rows(self):
        with connect() as conn:
            self.copy_rows_in(conn)
            cur = conn.cursor()
            with cur.copy("COPY fruit TO STDOUT") as copy:
                rows = list(copy.rows())
            # Without set_types, values come back as the text PostgreSQL sends.
            self.assertEqual(
                rows, [("1", "apple", "t", None), ("2", "a\tb\\c\nd", "f", "x")]
            )
            self.assertEqual(cur.rowcount, 2)

            with cur.copy("COPY fruit (id, ok, name) TO STDOUT") as copy:
                copy.set_types(["int4", "bool", "text"])
                rows = list(copy.rows())
            self.assertEqual(rows, [(1, True, "apple"), (2, False, "a\tb\\c\nd")])

    def test_copy_to_stdout_text_chunks(self):
        with connect() as conn:
            self.copy_rows_in(conn)
            cur = conn.cursor()
            with cur.copy("COPY fruit TO STDOUT") as copy:
                data = b"".join(bytes(chunk) for chunk in copy)
            self.assertEqual(data, b"1\tapple\tt\t\\N\n2\ta\\tb\\\\c\\nd\tf\tx\n")

    def test_copy_to_stdout_csv_header(self):
        with connect() as conn:
            self.copy_rows_in(conn)
            cur = conn.cursor()
            with cur.copy("COPY fruit TO STDOUT (FORMAT csv, HEADER)") as copy:
                data = b"".join(bytes(chunk) for chunk in copy)
            self.assertEqual(data, b'id,name,ok,note\n1,apple,t,\n2,"a\tb\\c\nd",f,x\n')

    def test_copy_query_to_stdout(self):
        with connect() as conn:
            self.copy_rows_in(conn)
            cur = conn.cursor()
            with cur.copy(
                "COPY (SELECT id * 10 AS tens, upper(name) AS shout FROM fruit WHERE id = 1) TO STDOUT"
            ) as copy:
                self.assertEqual(list(copy.rows()), [("10", "APPLE")])
            with cur.copy(
                "COPY (SELECT id, note FROM fruit ORDER BY id) TO STDOUT WITH (FORMAT csv, HEADER true)"
            ) as copy:
                data = b"".join(bytes(chunk) for chunk in copy)
            self.assertEqual(data, b"id,note\n1,\n2,x\n")


class ErrorTests(unittest.TestCase):
    def setUp(self):
        with connect(autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS uniq")
            conn.execute("CREATE TABLE uniq (id integer PRIMARY KEY)")
            conn.execute("INSERT INTO uniq VALUES (1)")

    def assert_usable(self, conn):
        self.assertEqual(conn.execute("SELECT count(*) FROM uniq").fetchone(), (1,))

    def test_error_classes(self):
        cases = [
            ("INSERT INTO uniq VALUES (1)", errors.UniqueViolation, "23505"),
            ("SELECT * FROM no_such_table", errors.UndefinedTable, "42P01"),
            ("SELEC 1", errors.SyntaxError, "42601"),
        ]
        with connect() as conn:
            for sql, error, sqlstate in cases:
                with self.subTest(sql=sql):
                    with self.assertRaises(error) as caught:
                        conn.execute(sql)
                    self.assertEqual(caught.exception.sqlstate, sqlstate)
                    self.assertEqual(
                        conn.info.transaction_status, TransactionStatus.INERROR
                    )
                    conn.rollback()
                    self.assert_usable(conn)
                    conn.rollback()

    def test_failed_transaction(self):
        with connect() as conn:
            conn.execute("INSERT INTO uniq VALUES (2)")
            with self.assertRaises(errors.UniqueViolation):
                conn.execute("INSERT INTO uniq VALUES (1)")
            # Every statement fails until the transaction is rolled back.
            with self.assertRaises(errors.InFailedSqlTransaction):
                conn.execute("SELECT 1")
            conn.rollback()
            self.assertEqual(conn.info.transaction_status, TransactionStatus.IDLE)
            # The row inserted before the error is gone.
            self.assert_usable(conn)

    def test_errors_in_autocommit_and_prepared(self):
        with connect(autocommit=True, prepare_threshold=0) as conn:
            for _ in range(2):
                with self.assertRaises(errors.UniqueViolation):
                    conn.execute("INSERT INTO uniq VALUES (%s)", [1])
                with self.assertRaises(errors.UndefinedTable):
                    conn.execute("SELECT * FROM no_such_table WHERE id = %s", [1])
                # No rollback needed outside a transaction.
                self.assertEqual(conn.info.transaction_status, TransactionStatus.IDLE)
                self.assert_usable(conn)


if __name__ == "__main__":
    unittest.main()


class ServerCursorTests(unittest.TestCase):
    """psycopg's server-side cursors: DECLARE with parameters, the cursor
    described as a portal, then FETCH FORWARD n."""

    def test_named_cursor(self):
        with connect() as conn:
            conn.execute("DROP TABLE IF EXISTS numbers")
            conn.execute("CREATE TABLE numbers (n integer PRIMARY KEY, label text)")
            conn.cursor().executemany(
                "INSERT INTO numbers VALUES (%s, %s)", [(n, f"n{n}") for n in range(1, 26)]
            )
            conn.commit()
            with conn.cursor(name="numbers_cursor") as cur:
                cur.itersize = 3
                cur.execute("SELECT n, label FROM numbers WHERE n > %s ORDER BY n", (20,))
                self.assertEqual([c.name for c in cur.description], ["n", "label"])
                self.assertEqual(cur.fetchone(), (21, "n21"))
                self.assertEqual(cur.fetchmany(2), [(22, "n22"), (23, "n23")])
                self.assertEqual(cur.fetchall(), [(24, "n24"), (25, "n25")])
            conn.commit()
            with conn.cursor(name="again") as cur:
                cur.execute("SELECT n FROM numbers WHERE n < %s ORDER BY n", (4,))
                self.assertEqual(list(cur), [(1,), (2,), (3,)])


class NotifyTests(unittest.TestCase):
    """LISTEN/NOTIFY: delivered at commit, in commit order, once per listener,
    deduplicated within a transaction, nothing from a rollback; an idle
    listener gets them at once (conn.notifies)."""

    def received(self, listener, count, timeout=5):
        got = []
        for notify in listener.notifies(timeout=timeout, stop_after=count):
            got.append((notify.channel, notify.payload, notify.pid))
        return got

    def test_commit_order_and_rollback(self):
        with connect(autocommit=True) as listener, connect(autocommit=True) as a, connect(
            autocommit=True
        ) as b:
            listener.execute("LISTEN jobs")
            self.assertEqual(
                listener.execute("SELECT pg_listening_channels()").fetchall(),
                [("jobs",)],
            )
            a.execute("NOTIFY jobs, 'one'")
            with a.transaction():
                a.execute("NOTIFY jobs, 'two'")
                a.execute("NOTIFY jobs, 'two'")
                a.execute("SELECT pg_notify('jobs', 'three')")
            try:
                with a.transaction():
                    a.execute("NOTIFY jobs, 'rolled back'")
                    raise RuntimeError("roll back")
            except RuntimeError:
                pass
            # b commits after a began: b's arrives first.
            a.execute("BEGIN")
            a.execute("NOTIFY jobs, 'later'")
            b.execute("BEGIN")
            b.execute("NOTIFY jobs, 'sooner'")
            b.execute("COMMIT")
            a.execute("COMMIT")
            a.execute("NOTIFY other, 'not listened'")
            got = self.received(listener, 5)
            pid_a, pid_b = a.info.backend_pid, b.info.backend_pid
            self.assertEqual(
                got,
                [
                    ("jobs", "one", pid_a),
                    ("jobs", "two", pid_a),
                    ("jobs", "three", pid_a),
                    ("jobs", "sooner", pid_b),
                    ("jobs", "later", pid_a),
                ],
            )
            listener.execute("UNLISTEN *")
            a.execute("NOTIFY jobs, 'unheard'")
            self.assertEqual(self.received(listener, 1, timeout=0.5), [])
            self.assertEqual(listener.execute("SELECT pg_listening_channels()").fetchall(), [])

    def test_a_listener_in_a_transaction_gets_them_after_it(self):
        with connect(autocommit=True) as listener, connect(autocommit=True) as sender:
            got = []
            listener.add_notify_handler(lambda n: got.append((n.channel, n.payload)))
            listener.execute("LISTEN Events")
            listener.execute("BEGIN")
            listener.execute("SELECT 1")
            sender.execute("NOTIFY events, 'x'")
            listener.execute("SELECT 1")
            self.assertEqual(got, [], "nothing arrives inside a transaction")
            listener.execute("COMMIT")
            listener.execute("SELECT 1")
            self.assertEqual(got, [("events", "x")])

    def test_payload_limits(self):
        with connect(autocommit=True) as conn:
            conn.execute("NOTIFY jobs, %s" % ("'" + "x" * 7999 + "'"))
            with self.assertRaises(errors.InvalidParameterValue):
                conn.execute("NOTIFY jobs, %s" % ("'" + "x" * 8000 + "'"))
            with self.assertRaises(errors.InvalidParameterValue):
                conn.execute("SELECT pg_notify('', 'x')")


class IsolationTests(unittest.TestCase):
    """Isolation levels and read-only transactions as psycopg and SQLAlchemy
    ask for them (`conn.isolation_level`, `conn.read_only`, `create_engine(...,
    isolation_level=...)`)."""

    def setUp(self):
        with connect(autocommit=True) as conn:
            conn.execute("DROP TABLE IF EXISTS iso")
            conn.execute("CREATE TABLE iso (id int PRIMARY KEY, v int NOT NULL)")
            conn.execute("INSERT INTO iso VALUES (1, 10)")

    def test_psycopg_isolation_level(self):
        with connect() as conn, connect(autocommit=True) as other:
            conn.isolation_level = psycopg.IsolationLevel.REPEATABLE_READ
            self.assertEqual(
                conn.execute("SHOW transaction_isolation").fetchone(), ("repeatable read",)
            )
            self.assertEqual(conn.execute("SELECT v FROM iso").fetchone(), (10,))
            other.execute("UPDATE iso SET v = 11")
            self.assertEqual(conn.execute("SELECT v FROM iso").fetchone(), (10,))
            with self.assertRaises(errors.SerializationFailure):
                conn.execute("UPDATE iso SET v = v + 1")
            conn.rollback()
            self.assertEqual(conn.execute("SELECT v FROM iso").fetchone(), (11,))
            conn.commit()
            conn.read_only = True
            with self.assertRaises(errors.ReadOnlySqlTransaction):
                conn.execute("INSERT INTO iso VALUES (2, 0)")
            conn.rollback()

    def test_sqlalchemy_isolation_level(self):
        from sqlalchemy import create_engine, text

        url = f"postgresql+psycopg://postgres@{HOST}:{PORT}/litewire"
        engine = create_engine(url, isolation_level="SERIALIZABLE")
        with engine.connect() as conn:
            self.assertEqual(
                conn.execute(text("SHOW transaction_isolation")).scalar(), "serializable"
            )
            conn.rollback()
            repeatable = conn.execution_options(isolation_level="REPEATABLE READ")
            self.assertEqual(
                repeatable.execute(text("SHOW transaction_isolation")).scalar(),
                "repeatable read",
            )
        engine.dispose()
