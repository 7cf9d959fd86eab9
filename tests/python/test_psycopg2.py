"""psycopg2 against a running litewire server.

psycopg2 (on libpq) speaks only the simple query protocol: it writes every
parameter into the statement as a literal (`'2024-02-29'::date`,
`'\\x00ff'::bytea`, `'...'::uuid`), and reads every result as text, by the
type oid the server announced. The server is found through LITEWIRE_PG_HOST
(default 127.0.0.1) and LITEWIRE_PG_PORT; tests/psycopg2.rs starts a fresh
server for each test class and runs it as `python -m unittest
test_psycopg2.<Class>`. Every expectation is what PostgreSQL 15 answers to the
same statements.
"""

import io
import os
import unittest
import uuid
from datetime import date, datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import psycopg2
import psycopg2.errorcodes
import psycopg2.extensions
import psycopg2.extras

HOST = os.environ.get("LITEWIRE_PG_HOST", "127.0.0.1")
PORT = int(os.environ["LITEWIRE_PG_PORT"])
# The tables of the statement-shape tests, shared with the other drivers' suites.
STATEMENT_SHAPES = (Path(__file__).parent.parent / "fixtures" / "statement_shapes.sql").read_text()

# uuid.UUID parameters and uuid results.
psycopg2.extras.register_uuid()


def connect(**kwargs):
    return psycopg2.connect(
        host=HOST, port=PORT, user="postgres", dbname="litewire", connect_timeout=10, **kwargs
    )


class Case(unittest.TestCase):
    """A test with a connection of its own (a transaction is open after the
    first statement, as psycopg2 does by default), closed after it."""

    def setUp(self):
        self.conn = connect()
        self.cur = self.conn.cursor()

    def tearDown(self):
        self.conn.close()

    def one(self, sql, params=None):
        self.cur.execute(sql, params)
        return self.cur.fetchone()


class ConnectionTests(Case):
    def test_connect_and_server_identity(self):
        self.assertTrue(150000 <= self.conn.server_version < 160000, self.conn.server_version)
        self.assertEqual(self.conn.get_parameter_status("client_encoding"), "UTF8")
        self.assertEqual(self.one("SELECT current_database(), current_user"), ("litewire", "postgres"))
        self.assertEqual(
            self.conn.get_transaction_status(), psycopg2.extensions.TRANSACTION_STATUS_INTRANS
        )

    def test_ddl_and_rowcount(self):
        self.cur.execute("CREATE TABLE probe (id serial PRIMARY KEY, v text)")
        self.cur.execute("INSERT INTO probe (v) VALUES (%s), (%s)", ("a", "b"))
        self.assertEqual(self.cur.rowcount, 2)
        self.assertEqual(self.cur.statusmessage, "INSERT 0 2")
        self.cur.execute("UPDATE probe SET v = v || %s", ("!",))
        self.assertEqual(self.cur.rowcount, 2)
        self.conn.commit()
        self.cur.execute("DROP TABLE probe")
        self.assertEqual(self.cur.statusmessage, "DROP TABLE")
        self.conn.commit()


TYPED_DDL = """CREATE TABLE typed (
    k integer PRIMARY KEY, i2 smallint, i4 integer, i8 bigint, f8 double precision,
    n numeric(12,2), t text, vc varchar(20), b boolean, by bytea, d date, ts timestamp,
    tz timestamptz, u uuid, j json, jb jsonb
)"""

COLUMNS = ["i2", "i4", "i8", "f8", "n", "t", "vc", "b", "by", "d", "ts", "tz", "u", "j", "jb"]

ROWS = [
    (
        -12_345, 2_000_000_000, -9_000_000_000_000, -2.25e-10, Decimal("12345678.90"),
        "héllo, wörld", "O'Brien", True, b"\x00\x01\xff\\", date(2024, 2, 29),
        datetime(1999, 12, 31, 23, 59, 59, 999_999),
        datetime(2024, 1, 1, 10, 0, 0, 500_000, tzinfo=timezone.utc),
        uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
        {"a": [1, 2, None], "b": "x"}, {"nested": {"ok": True}},
    ),
    (
        32_767, -1, 0, 1e300, Decimal("-0.05"), "", "", False, b"", date(1, 1, 2),
        datetime(2000, 1, 1), datetime(1970, 1, 1, tzinfo=timezone.utc), uuid.UUID(int=0), [], {},
    ),
    (None,) * 15,
]

# The type oids cursor.description announces for the columns of `typed`.
TYPE_CODES = [23, 21, 23, 20, 701, 1700, 25, 1043, 16, 17, 1082, 1114, 1184, 2950, 114, 3802]


def adapted(row):
    """The parameters for a row: bytes through psycopg2.Binary, JSON through Json."""
    out = []
    for column, value in zip(COLUMNS, row):
        if value is None:
            out.append(None)
        elif column == "by":
            out.append(psycopg2.Binary(value))
        elif column in ("j", "jb"):
            out.append(psycopg2.extras.Json(value))
        else:
            out.append(value)
    return out


def readable(column, value):
    """bytea comes back as a memoryview; timestamptz in the session's zone."""
    if value is None:
        return None
    if column == "by":
        return bytes(value)
    return value


class TypeTests(Case):
    def setUp(self):
        super().setUp()
        self.cur.execute("DROP TABLE IF EXISTS typed")
        self.cur.execute(TYPED_DDL)

    def check_rows(self):
        self.cur.execute("SELECT * FROM typed ORDER BY k")
        self.assertEqual([d.type_code for d in self.cur.description], TYPE_CODES)
        self.assertEqual(
            [d.name for d in self.cur.description], ["k"] + COLUMNS
        )
        got = [
            tuple(readable(c, v) for c, v in zip(COLUMNS, row[1:])) for row in self.cur.fetchall()
        ]
        self.assertEqual(got, ROWS)

    def test_execute_round_trips(self):
        marks = ", ".join(["%s"] * (len(COLUMNS) + 1))
        for k, row in enumerate(ROWS):
            self.cur.execute(
                f"INSERT INTO typed (k, {', '.join(COLUMNS)}) VALUES ({marks})", [k, *adapted(row)]
            )
        self.check_rows()
        # numeric(12,2) keeps its scale as text.
        self.assertEqual(str(self.one("SELECT n FROM typed WHERE k = 1")[0]), "-0.05")

    def test_executemany_and_execute_values(self):
        marks = ", ".join(["%s"] * (len(COLUMNS) + 1))
        self.cur.executemany(
            f"INSERT INTO typed VALUES ({marks})",
            [[k, *adapted(row)] for k, row in enumerate(ROWS[:2])],
        )
        self.assertEqual(self.cur.rowcount, 2)
        psycopg2.extras.execute_values(
            self.cur, "INSERT INTO typed VALUES %s", [[2, *adapted(ROWS[2])]]
        )
        self.check_rows()
        # execute_values with RETURNING and a page size smaller than the rows.
        self.cur.execute("DELETE FROM typed")
        returned = psycopg2.extras.execute_values(
            self.cur,
            "INSERT INTO typed (k, t, tz) VALUES %s RETURNING k, tz",
            [(k, f"r{k}", datetime(2024, 1, 1, k, tzinfo=timezone.utc)) for k in range(5)],
            page_size=2,
            fetch=True,
        )
        self.assertEqual(
            [(k, tz.astimezone(timezone.utc).hour) for k, tz in returned],
            [(k, k) for k in range(5)],
        )

    def test_timestamptz_in_another_zone(self):
        self.cur.execute("INSERT INTO typed (k, tz) VALUES (%s, %s)", (1, datetime(
            2024, 6, 1, 12, 0, tzinfo=timezone(timedelta(hours=2)))))
        (value,) = self.one("SELECT tz FROM typed")
        self.assertEqual(value, datetime(2024, 6, 1, 10, 0, tzinfo=timezone.utc))

    def test_literals_and_casts(self):
        row = self.one(
            "SELECT %s::int, %s::bigint, %s::numeric, %s::text, %s::bool, %s::date, %s::uuid",
            (41, 2**40, Decimal("1.50"), "x", True, date(2024, 2, 29), uuid.UUID(int=1)),
        )
        self.assertEqual(
            row, (41, 2**40, Decimal("1.50"), "x", True, date(2024, 2, 29), uuid.UUID(int=1))
        )


class ShapeTests(Case):
    """The statement shapes of ordinary apps, with psycopg2's literal parameters."""

    def setUp(self):
        super().setUp()
        self.cur.execute(
            "DROP TABLE IF EXISTS items; DROP TABLE IF EXISTS archive; DROP TABLE IF EXISTS orders;"
            + STATEMENT_SHAPES
        )

    def test_insert_select_and_on_conflict(self):
        at = datetime(2024, 5, 6, 7, 8, 9, tzinfo=timezone.utc)
        self.cur.execute(
            "INSERT INTO archive (id, label, price, at) "
            "SELECT id + %s, name || %s, %s, %s FROM items WHERE id = %s",
            (100, "-old", Decimal("9.99"), at, 1),
        )
        self.assertEqual(
            self.one("SELECT id, label, price, at FROM archive"),
            (101, "apple-old", Decimal("9.99"), at),
        )
        upsert = (
            "INSERT INTO items (id, name, qty) VALUES (%s, %s, %s) ON CONFLICT (id) "
            "DO UPDATE SET qty = items.qty + %s, price = %s RETURNING id, qty, name || %s"
        )
        self.assertEqual(self.one(upsert, (1, "apple", 0, 5, 2.5, "!")), (1, 15, "apple!"))
        self.assertEqual(self.one(upsert, (4, "kiwi", 2, 5, 2.5, "?")), (4, 2, "kiwi?"))

    def test_operators(self):
        self.cur.execute(
            "SELECT id FROM items WHERE qty * %s > %s AND name LIKE %s "
            "AND coalesce(price, %s) BETWEEN %s AND %s AND id IN %s "
            "ORDER BY id LIMIT %s OFFSET %s",
            (2, 10, "%i%", 3.5, 3.0, 4.0, (2, 3), 5, 0),
        )
        self.assertEqual(self.cur.fetchall(), [(3,)])
        self.cur.execute(
            "SELECT CASE WHEN id = %s THEN %s ELSE name END, upper(%s) FROM items "
            "WHERE length(name) > %s ORDER BY id",
            (2, "PEAR", "x", 3),
        )
        self.assertEqual(self.cur.fetchall(), [("apple", "X"), ("PEAR", "X")])

    def test_any_subqueries_update_delete(self):
        # A Python list is an ARRAY[...] literal.
        self.cur.execute(
            "SELECT id FROM items WHERE name = ANY(%s) ORDER BY id", (["fig", "apple", "none"],)
        )
        self.assertEqual(self.cur.fetchall(), [(1,), (3,)])
        self.cur.execute(
            "SELECT name FROM items WHERE id IN (SELECT item FROM orders WHERE amount > %s) "
            "AND qty < (SELECT max(amount) FROM orders) + %s ORDER BY id",
            (2, 0),
        )
        self.assertEqual(self.cur.fetchall(), [("apple",), ("fig",)])
        self.cur.execute(
            "UPDATE items SET price = price * %s WHERE ok = %s AND price IS NOT NULL RETURNING id",
            (2, True),
        )
        self.assertEqual(sorted(self.cur.fetchall()), [(1,), (3,)])
        self.cur.execute("DELETE FROM orders WHERE item = %s RETURNING amount", (3,))
        self.assertEqual(self.cur.fetchall(), [(40,)])
        self.assertEqual(self.cur.rowcount, 1)

    def test_dict_cursor_and_named_parameters(self):
        cur = self.conn.cursor(cursor_factory=psycopg2.extras.RealDictCursor)
        cur.execute("SELECT id, name FROM items WHERE id = %(id)s", {"id": 3})
        self.assertEqual(cur.fetchall(), [{"id": 3, "name": "fig"}])


class CopyTests(Case):
    ROWS = [(1, "apple", True, None), (2, "a\tb\\c\nd", False, "x")]

    def setUp(self):
        super().setUp()
        self.cur.execute("DROP TABLE IF EXISTS fruit")
        self.cur.execute(
            "CREATE TABLE fruit (id integer PRIMARY KEY, name text NOT NULL, ok boolean, note varchar(10))"
        )
        self.conn.commit()

    def test_copy_expert_from_and_to_stdin_text(self):
        data = io.StringIO("1\tapple\tt\t\\N\n2\ta\\tb\\\\c\\nd\tf\tx\n")
        self.cur.copy_expert("COPY fruit (id, name, ok, note) FROM STDIN", data)
        self.assertEqual(self.cur.rowcount, 2)
        self.conn.commit()
        self.cur.execute("SELECT id, name, ok, note FROM fruit ORDER BY id")
        self.assertEqual(self.cur.fetchall(), self.ROWS)
        out = io.StringIO()
        self.cur.copy_expert("COPY fruit TO STDOUT", out)
        self.assertEqual(out.getvalue(), "1\tapple\tt\t\\N\n2\ta\\tb\\\\c\\nd\tf\tx\n")

    def test_copy_expert_csv_with_header(self):
        data = io.StringIO('id,name,ok,note\n1,apple,t,\n2,"a\tb\\c\nd",f,x\n')
        self.cur.copy_expert("COPY fruit FROM STDIN WITH (FORMAT csv, HEADER true)", data)
        self.conn.commit()
        out = io.StringIO()
        self.cur.copy_expert("COPY (SELECT * FROM fruit ORDER BY id) TO STDOUT WITH CSV HEADER", out)
        self.assertEqual(out.getvalue(), 'id,name,ok,note\n1,apple,t,\n2,"a\tb\\c\nd",f,x\n')

    def test_copy_from_and_to(self):
        self.cur.copy_from(io.StringIO("7\tseven\tt\t\\N\n"), "fruit", columns=("id", "name", "ok", "note"))
        out = io.StringIO()
        self.cur.copy_to(out, "fruit")
        self.assertEqual(out.getvalue(), "7\tseven\tt\t\\N\n")


class TransactionTests(Case):
    def setUp(self):
        super().setUp()
        self.cur.execute("DROP TABLE IF EXISTS ledger")
        self.cur.execute("CREATE TABLE ledger (id integer PRIMARY KEY, v text)")
        self.conn.commit()

    def count(self):
        return self.one("SELECT count(*) FROM ledger")[0]

    def test_commit_and_rollback(self):
        self.cur.execute("INSERT INTO ledger VALUES (%s, %s)", (1, "a"))
        self.conn.rollback()
        self.assertEqual(self.count(), 0)
        self.cur.execute("INSERT INTO ledger VALUES (%s, %s)", (1, "a"))
        self.conn.commit()
        other = connect()
        try:
            other_cur = other.cursor()
            other_cur.execute("SELECT v FROM ledger")
            self.assertEqual(other_cur.fetchall(), [("a",)])
        finally:
            other.close()

    def test_context_manager_and_savepoints(self):
        with self.conn:
            with self.conn.cursor() as cur:
                cur.execute("INSERT INTO ledger VALUES (%s, %s)", (1, "kept"))
                cur.execute("SAVEPOINT s")
                cur.execute("INSERT INTO ledger VALUES (%s, %s)", (2, "undone"))
                with self.assertRaises(psycopg2.errors.UniqueViolation):
                    cur.execute("INSERT INTO ledger VALUES (%s, %s)", (1, "dup"))
                cur.execute("ROLLBACK TO SAVEPOINT s")
                cur.execute("INSERT INTO ledger VALUES (%s, %s)", (3, "after"))
        self.cur.execute("SELECT id, v FROM ledger ORDER BY id")
        self.assertEqual(self.cur.fetchall(), [(1, "kept"), (3, "after")])

    def test_autocommit_and_isolation(self):
        self.conn.rollback()
        self.conn.autocommit = True
        self.cur.execute("INSERT INTO ledger VALUES (%s, %s)", (1, "auto"))
        self.assertEqual(
            self.conn.get_transaction_status(), psycopg2.extensions.TRANSACTION_STATUS_IDLE
        )
        self.conn.autocommit = False
        self.conn.set_session(isolation_level="SERIALIZABLE")
        self.cur.execute("INSERT INTO ledger VALUES (%s, %s)", (2, "serializable"))
        self.conn.commit()
        self.conn.set_session(readonly=True)
        self.assertEqual(self.count(), 2)
        self.conn.rollback()


class ErrorTests(Case):
    def setUp(self):
        super().setUp()
        self.cur.execute("DROP TABLE IF EXISTS uniq")
        self.cur.execute("CREATE TABLE uniq (id integer PRIMARY KEY, v text NOT NULL)")
        self.cur.execute("INSERT INTO uniq VALUES (1, 'a')")
        self.conn.commit()

    def failing(self, sql, params=None):
        with self.assertRaises(psycopg2.Error) as caught:
            self.cur.execute(sql, params)
        self.conn.rollback()
        return caught.exception

    def test_errors_carry_their_sqlstate(self):
        error = self.failing("INSERT INTO uniq VALUES (%s, %s)", (1, "b"))
        self.assertEqual(error.pgcode, psycopg2.errorcodes.UNIQUE_VIOLATION)
        self.assertIsInstance(error, psycopg2.errors.UniqueViolation)
        self.assertIsInstance(error, psycopg2.IntegrityError)
        error = self.failing("INSERT INTO uniq VALUES (%s, %s)", (2, None))
        self.assertEqual(error.pgcode, "23502")
        error = self.failing("SELECT * FROM no_such_table")
        self.assertEqual(error.pgcode, "42P01")
        self.assertIsInstance(error, psycopg2.ProgrammingError)
        error = self.failing("SELEC 1")
        self.assertEqual(error.pgcode[:2], "42")
        error = self.failing("SELECT %s::int", ("abc",))
        self.assertEqual(error.pgcode[:2], "22")
        self.assertEqual(self.one("SELECT count(*) FROM uniq"), (1,))

    def test_failed_transaction(self):
        with self.assertRaises(psycopg2.errors.UndefinedTable):
            self.cur.execute("SELECT * FROM nope")
        with self.assertRaises(psycopg2.errors.InFailedSqlTransaction) as caught:
            self.cur.execute("SELECT 1")
        self.assertEqual(caught.exception.pgcode, "25P02")
        self.conn.rollback()
        self.assertEqual(self.one("SELECT 1"), (1,))


class MetadataTests(Case):
    def test_description_and_catalog(self):
        self.cur.execute(
            "CREATE TABLE meta (id integer PRIMARY KEY, name varchar(40) NOT NULL, n numeric(10,2))"
        )
        self.cur.execute("SELECT id, name, n FROM meta")
        self.assertEqual(
            [(d.name, d.type_code) for d in self.cur.description],
            [("id", 23), ("name", 1043), ("n", 1700)],
        )
        self.cur.execute(
            "SELECT column_name, data_type, is_nullable FROM information_schema.columns "
            "WHERE table_name = %s ORDER BY ordinal_position",
            ("meta",),
        )
        self.assertEqual(
            self.cur.fetchall(),
            [("id", "integer", "NO"), ("name", "character varying", "NO"), ("n", "numeric", "YES")],
        )
        self.cur.execute(
            "SELECT a.attname, format_type(a.atttypid, a.atttypmod) FROM pg_attribute a "
            "JOIN pg_class c ON c.oid = a.attrelid WHERE c.relname = %s AND a.attnum > 0 "
            "ORDER BY a.attnum",
            ("meta",),
        )
        self.assertEqual(
            self.cur.fetchall(),
            [("id", "integer"), ("name", "character varying(40)"), ("n", "numeric(10,2)")],
        )
        # psycopg2's own type lookups (register_composite, register_hstore) query
        # pg_type by name.
        self.cur.execute("SELECT oid, typarray FROM pg_type WHERE typname = %s", ("uuid",))
        self.assertEqual(self.cur.fetchone(), (2950, 2951))


class NamedCursorTests(Case):
    """Server-side cursors: psycopg2 runs DECLARE ... CURSOR and FETCH FORWARD n."""

    def setUp(self):
        super().setUp()
        self.cur.execute("DROP TABLE IF EXISTS numbers")
        self.cur.execute("CREATE TABLE numbers (n integer PRIMARY KEY, label text)")
        psycopg2.extras.execute_values(
            self.cur, "INSERT INTO numbers VALUES %s", [(n, f"n{n}") for n in range(1, 26)]
        )
        self.conn.commit()

    def test_iterate_fetchone_fetchmany_fetchall(self):
        cur = self.conn.cursor(name="numbers_cursor")
        cur.itersize = 4
        cur.execute("SELECT n, label FROM numbers WHERE n > %s ORDER BY n", (0,))
        self.assertEqual(cur.fetchone(), (1, "n1"))
        self.assertEqual(cur.fetchmany(3), [(2, "n2"), (3, "n3"), (4, "n4")])
        self.assertEqual([d.type_code for d in cur.description], [23, 25])
        self.assertEqual([row[0] for row in cur], list(range(5, 26)))
        self.assertEqual(cur.fetchall(), [])
        cur.close()
        # The transaction goes on after the cursor closes.
        self.assertEqual(self.one("SELECT count(*) FROM numbers"), (25,))
        self.conn.commit()

    def test_after_a_write_in_the_transaction(self):
        self.cur.execute("INSERT INTO numbers VALUES (%s, %s)", (100, "new"))
        cur = self.conn.cursor(name="after_write")
        cur.execute("SELECT n FROM numbers WHERE n > 20 ORDER BY n")
        self.assertEqual(cur.fetchmany(2), [(21,), (22,)])
        self.assertEqual(cur.fetchall(), [(23,), (24,), (25,), (100,)])
        cur.close()
        self.conn.rollback()
        self.assertEqual(self.one("SELECT count(*) FROM numbers"), (25,))

    def test_with_hold_outlives_the_commit(self):
        cur = self.conn.cursor(name="held", withhold=True)
        cur.execute("SELECT n FROM numbers ORDER BY n")
        self.assertEqual(cur.fetchmany(2), [(1,), (2,)])
        self.conn.commit()
        self.assertEqual(len(cur.fetchall()), 23)
        cur.close()

    def test_sql_level_cursor_errors(self):
        self.conn.autocommit = True
        with self.assertRaises(psycopg2.Error) as caught:
            self.cur.execute("DECLARE c CURSOR FOR SELECT 1")
        self.assertEqual(caught.exception.pgcode, "25P01")
        with self.assertRaises(psycopg2.Error) as caught:
            self.cur.execute("FETCH 1 FROM nope")
        self.assertEqual(caught.exception.pgcode, "34000")
        self.cur.execute("BEGIN")
        self.cur.execute("DECLARE c CURSOR FOR SELECT n FROM numbers ORDER BY n")
        with self.assertRaises(psycopg2.Error) as caught:
            self.cur.execute("DECLARE c CURSOR FOR SELECT 1")
        self.assertEqual(caught.exception.pgcode, "42P03")
        self.cur.execute("ROLLBACK")
        self.cur.execute("BEGIN")
        self.cur.execute("DECLARE c CURSOR FOR SELECT n FROM numbers ORDER BY n")
        self.cur.execute("FETCH 2 FROM c")
        self.assertEqual(self.cur.fetchall(), [(1,), (2,)])
        self.assertEqual(self.cur.statusmessage, "FETCH 2")
        self.cur.execute("FETCH ALL FROM c")
        self.assertEqual(len(self.cur.fetchall()), 23)
        self.cur.execute("FETCH NEXT FROM c")
        self.assertEqual(self.cur.fetchall(), [])
        self.assertEqual(self.cur.statusmessage, "FETCH 0")
        self.cur.execute("CLOSE c")
        self.assertEqual(self.cur.statusmessage, "CLOSE CURSOR")
        self.cur.execute("COMMIT")
