"""asyncpg against a running litewire server.

asyncpg speaks only the extended protocol, describes every statement and then
encodes each parameter strictly by the type the server announced (an int for
a parameter described as text is refused), in binary. The server is found
through LITEWIRE_PG_HOST (default 127.0.0.1) and LITEWIRE_PG_PORT;
tests/asyncpg.rs starts a fresh server for each test class and runs it as
`python -m unittest test_asyncpg.<Class>`. Every expectation is what
PostgreSQL 15 answers to the same statements.
"""

import asyncio
import json
import os
import unittest
import uuid
from datetime import date, datetime, time, timezone
from decimal import Decimal
from pathlib import Path

import asyncpg

HOST = os.environ.get("LITEWIRE_PG_HOST", "127.0.0.1")
PORT = int(os.environ["LITEWIRE_PG_PORT"])
# The tables of the statement-shape tests, shared with the other drivers' suites.
STATEMENT_SHAPES = (Path(__file__).parent.parent / "fixtures" / "statement_shapes.sql").read_text()


async def connect():
    return await asyncpg.connect(
        host=HOST, port=PORT, user="postgres", database="litewire", timeout=10
    )


class Case(unittest.IsolatedAsyncioTestCase):
    """A test with a connection of its own, closed after it."""

    async def asyncSetUp(self):
        self.conn = await connect()

    async def asyncTearDown(self):
        await self.conn.close()

    async def param_types(self, sql):
        statement = await self.conn.prepare(sql)
        return [t.name for t in statement.get_parameters()]


class ConnectionTests(Case):
    async def test_connect_and_server_identity(self):
        version = self.conn.get_server_version()
        self.assertEqual((version.major, version.minor), (15, 0))
        self.assertEqual(await self.conn.fetchval("SELECT 1"), 1)
        self.assertEqual(await self.conn.fetchval("SELECT current_database()"), "litewire")
        self.assertFalse(self.conn.is_in_transaction())

    async def test_ddl_and_status(self):
        self.assertEqual(
            await self.conn.execute("CREATE TABLE ddl_probe (id serial PRIMARY KEY, v text)"),
            "CREATE TABLE",
        )
        self.assertEqual(
            await self.conn.execute("INSERT INTO ddl_probe (v) VALUES ('a'), ('b')"),
            "INSERT 0 2",
        )
        self.assertEqual(await self.conn.execute("DROP TABLE ddl_probe"), "DROP TABLE")


TYPED_DDL = """CREATE TABLE typed (
    k integer PRIMARY KEY, i2 smallint, i4 integer, i8 bigint, f8 double precision,
    n numeric(10,2), t text, b boolean, by bytea, d date, ts timestamp,
    tz timestamptz, u uuid, j json, jb jsonb
)"""

ROWS = [
    (
        -12_345,
        2_000_000_000,
        -9_000_000_000_000,
        -2.25e-10,
        Decimal("12345678.90"),
        "héllo, wörld",
        True,
        b"\x00\x01\xff",
        date(2024, 2, 29),
        datetime(1999, 12, 31, 23, 59, 59, 999_999),
        datetime(2024, 1, 1, 10, 0, 0, 500_000, tzinfo=timezone.utc),
        uuid.UUID("a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"),
        {"a": [1, 2, None], "b": "x"},
        {"nested": {"ok": True}},
    ),
    (
        32_767,
        -1,
        0,
        1e300,
        Decimal("-0.05"),
        "",
        False,
        b"",
        # Not date.min, which asyncpg sends as -infinity.
        date(1, 1, 2),
        datetime(2000, 1, 1),
        datetime(1970, 1, 1, tzinfo=timezone.utc),
        uuid.UUID(int=0),
        [],
        {},
    ),
    (None,) * 14,
]

COLUMNS = ["i2", "i4", "i8", "f8", "n", "t", "b", "by", "d", "ts", "tz", "u", "j", "jb"]
JSON_COLUMNS = {"j", "jb"}


def encoded(row):
    """asyncpg sends json and jsonb as the JSON text."""
    return [
        json.dumps(v) if c in JSON_COLUMNS and v is not None else v
        for c, v in zip(COLUMNS, row)
    ]


def decoded(column, value):
    if value is None:
        return None
    if column in JSON_COLUMNS:
        return json.loads(value)
    if column == "u":
        return uuid.UUID(str(value))
    return value


class TypeTests(Case):
    """Every common type round-trips, as parameters and results, in binary."""

    async def asyncSetUp(self):
        await super().asyncSetUp()
        await self.conn.execute("DROP TABLE IF EXISTS typed")
        await self.conn.execute(TYPED_DDL)

    async def check_rows(self):
        for column in COLUMNS:
            with self.subTest(column=column):
                got = await self.conn.fetch(f"SELECT {column} FROM typed ORDER BY k")
                want = [row[COLUMNS.index(column)] for row in ROWS]
                self.assertEqual([decoded(column, r[0]) for r in got], want)

    async def test_insert_with_a_column_list(self):
        marks = ", ".join(f"${i + 1}" for i in range(len(COLUMNS) + 1))
        insert = f"INSERT INTO typed (k, {', '.join(COLUMNS)}) VALUES ({marks})"
        for k, row in enumerate(ROWS):
            await self.conn.execute(insert, k, *encoded(row))
        await self.check_rows()

    async def test_executemany_without_a_column_list(self):
        # The first-minute failure this driver had: every parameter described as
        # text, so ints were refused ("expected str, got int").
        marks = ", ".join(f"${i + 1}" for i in range(len(COLUMNS) + 1))
        insert = f"INSERT INTO typed VALUES ({marks})"
        self.assertEqual(
            await self.param_types(insert),
            ["int4", "int2", "int4", "int8", "float8", "numeric", "text", "bool",
             "bytea", "date", "timestamp", "timestamptz", "uuid", "json", "jsonb"],
        )
        await self.conn.executemany(
            insert, [[k, *encoded(row)] for k, row in enumerate(ROWS)]
        )
        self.assertEqual(await self.conn.fetchval("SELECT count(*) FROM typed"), len(ROWS))
        await self.check_rows()

    async def test_result_types(self):
        await self.conn.execute(
            "INSERT INTO typed VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
            0, *encoded(ROWS[0]),
        )
        statement = await self.conn.prepare("SELECT * FROM typed")
        self.assertEqual(
            [a.type.name for a in statement.get_attributes()],
            ["int4", "int2", "int4", "int8", "float8", "numeric", "text", "bool",
             "bytea", "date", "timestamp", "timestamptz", "uuid", "json", "jsonb"],
        )
        # numeric(10,2) keeps two decimal places.
        self.assertEqual(str(await self.conn.fetchval("SELECT n FROM typed")), "12345678.90")

    async def test_bare_parameters_keep_their_types(self):
        self.assertEqual(await self.conn.fetchval("SELECT $1::int + 1", 41), 42)
        self.assertEqual(await self.conn.fetchval("SELECT $1::bigint", 2**40), 2**40)
        self.assertEqual(await self.conn.fetchval("SELECT $1", "text"), "text")
        self.assertEqual(await self.param_types("SELECT $1::bool"), ["bool"])
        self.assertIs(await self.conn.fetchval("SELECT $1::bool", True), True)
        self.assertIs(await self.conn.fetchval("SELECT $1::boolean", False), False)
        self.assertIs(await self.conn.fetchval("SELECT 'yes'::bool"), True)
        self.assertEqual(
            await self.param_types("SELECT $1::date, $2::timestamptz, $3::uuid, $4::numeric"),
            ["date", "timestamptz", "uuid", "numeric"],
        )
        self.assertEqual(
            await self.conn.fetchval("SELECT $1::date < '2025-01-01'", date(2024, 2, 29)), True
        )


    async def test_infinite_dates_and_timestamps(self):
        # asyncpg sends date.max/date.min and datetime.max/min as PostgreSQL's
        # infinity and -infinity, and reads those back as them.
        await self.conn.execute("CREATE TABLE spans (k integer, d date, ts timestamp, tz timestamptz)")
        # (It reads a timestamptz infinity back without a time zone.)
        utc_max = datetime.max.replace(tzinfo=timezone.utc)
        utc_min = datetime.min.replace(tzinfo=timezone.utc)
        await self.conn.executemany(
            "INSERT INTO spans VALUES ($1, $2, $3, $4)",
            [(1, date.max, datetime.max, utc_max), (2, date.min, datetime.min, utc_min)],
        )
        rows = await self.conn.fetch("SELECT d, ts, tz FROM spans ORDER BY k")
        self.assertEqual(
            [tuple(r) for r in rows],
            [(date.max, datetime.max, datetime.max), (date.min, datetime.min, datetime.min)],
        )
        self.assertEqual(
            await self.conn.fetchval("SELECT d::text || ' ' || ts::text FROM spans WHERE k = 2"),
            "-infinity -infinity",
        )
        self.assertEqual(
            await self.conn.fetchval("SELECT k FROM spans WHERE d > $1", date(9999, 1, 1)), 1
        )


class FetchTests(Case):
    async def asyncSetUp(self):
        await super().asyncSetUp()
        await self.conn.execute(
            """DROP TABLE IF EXISTS items;
            CREATE TABLE items (id integer PRIMARY KEY, name varchar(20) NOT NULL,
                                price double precision, qty bigint);
            INSERT INTO items VALUES (1, 'apple', 1.25, 10), (2, 'pear', NULL, 5000000000),
                                     (3, 'fig', 3.5, 7)"""
        )

    async def test_fetch_fetchrow_fetchval(self):
        rows = await self.conn.fetch("SELECT id, name FROM items WHERE qty > $1 ORDER BY id", 8)
        self.assertEqual([tuple(r) for r in rows], [(1, "apple"), (2, "pear")])
        self.assertEqual(rows[0]["name"], "apple")
        row = await self.conn.fetchrow("SELECT name, price FROM items WHERE id = $1", 2)
        self.assertEqual((row["name"], row["price"]), ("pear", None))
        self.assertIsNone(await self.conn.fetchrow("SELECT name FROM items WHERE id = $1", 9))
        self.assertEqual(await self.conn.fetchval("SELECT count(*) FROM items"), 3)
        self.assertEqual(
            await self.conn.fetchval("SELECT qty FROM items WHERE name = $1", "pear"),
            5_000_000_000,
        )

    async def test_prepared_statements(self):
        statement = await self.conn.prepare("SELECT name FROM items WHERE id = $1")
        self.assertEqual([t.name for t in statement.get_parameters()], ["int4"])
        self.assertEqual([a.name for a in statement.get_attributes()], ["name"])
        self.assertEqual(await statement.fetchval(1), "apple")
        self.assertEqual(await statement.fetchval(3), "fig")
        self.assertEqual([tuple(r) for r in await statement.fetch(2)], [("pear",)])
        with self.assertRaises(asyncpg.DataError):
            await statement.fetchval("1")  # an int4 parameter takes an int

    async def test_cursor_in_a_transaction(self):
        async with self.conn.transaction():
            names = [
                r["name"]
                async for r in self.conn.cursor("SELECT name FROM items ORDER BY id", prefetch=1)
            ]
        self.assertEqual(names, ["apple", "pear", "fig"])


class ShapeTests(Case):
    """Parameter types wherever PostgreSQL infers them, bound with Python values."""

    async def asyncSetUp(self):
        await super().asyncSetUp()
        await self.conn.execute(
            "DROP TABLE IF EXISTS items; DROP TABLE IF EXISTS archive; DROP TABLE IF EXISTS orders;"
            + STATEMENT_SHAPES
        )

    async def test_insert_select(self):
        at = datetime(2024, 5, 6, 7, 8, 9, tzinfo=timezone.utc)
        sql = (
            "INSERT INTO archive (id, label, price, at) "
            "SELECT id + $1, name || $2, $3, $4 FROM items WHERE id = $5"
        )
        self.assertEqual(
            await self.param_types(sql), ["int4", "text", "numeric", "timestamptz", "int4"]
        )
        await self.conn.execute(sql, 100, "-old", Decimal("9.99"), at, 1)
        await self.conn.execute("INSERT INTO archive SELECT $1, $2, $3, $4", 7, "new", 1, at)
        rows = await self.conn.fetch("SELECT id, label, price, at FROM archive ORDER BY id")
        self.assertEqual(
            [tuple(r) for r in rows],
            [(7, "new", Decimal("1.00"), at), (101, "apple-old", Decimal("9.99"), at)],
        )

    async def test_on_conflict_and_returning(self):
        sql = (
            "INSERT INTO items (id, name, qty) VALUES ($1, $2, $3) ON CONFLICT (id) "
            "DO UPDATE SET qty = items.qty + $4, price = $5 RETURNING id, qty, name || $6"
        )
        self.assertEqual(
            await self.param_types(sql), ["int4", "varchar", "int8", "int8", "float8", "text"]
        )
        row = await self.conn.fetchrow(sql, 1, "apple", 0, 5, 2.5, "!")
        self.assertEqual(tuple(row), (1, 15, "apple!"))
        row = await self.conn.fetchrow(sql, 4, "kiwi", 2, 5, 2.5, "?")
        self.assertEqual(tuple(row), (4, 2, "kiwi?"))

    async def test_operators(self):
        sql = (
            "SELECT id FROM items WHERE qty * $1 > $2 AND name LIKE $3 "
            "AND coalesce(price, $4) BETWEEN $5 AND $6 AND id IN ($7, $8) "
            "ORDER BY id LIMIT $9 OFFSET $10"
        )
        self.assertEqual(
            await self.param_types(sql),
            ["int8", "int8", "text", "float8", "float8", "float8", "int4", "int4", "int8", "int8"],
        )
        rows = await self.conn.fetch(sql, 2, 10, "%i%", 3.5, 3.0, 4.0, 2, 3, 5, 0)
        self.assertEqual([r["id"] for r in rows], [3])

    async def test_case_concat_and_functions(self):
        sql = (
            "SELECT CASE WHEN id = $1 THEN $2 ELSE name END, $3 || name, upper($4) "
            "FROM items WHERE length(name) > $5 AND abs(qty) >= $6 ORDER BY id"
        )
        self.assertEqual(
            await self.param_types(sql), ["int4", "varchar", "text", "text", "int4", "int8"]
        )
        rows = await self.conn.fetch(sql, 2, "PEAR", "a ", "x", 3, 7)
        self.assertEqual(
            [tuple(r) for r in rows], [("apple", "a apple", "X"), ("PEAR", "a pear", "X")]
        )

    async def test_any_with_a_list(self):
        # A varchar compares as text: the parameter is text[], which asyncpg
        # encodes without looking the type up in the catalog (it would for int4[]).
        sql = "SELECT id FROM items WHERE name = ANY($1) ORDER BY id"
        self.assertEqual(await self.param_types(sql), ["text[]"])
        rows = await self.conn.fetch(sql, ["fig", "apple", "none"])
        self.assertEqual([r["id"] for r in rows], [1, 3])
        self.assertEqual(await self.conn.fetch(sql, []), [])
        self.assertEqual(await self.conn.fetch(sql, [None, "pear"]), [(2,)])

    async def test_subqueries(self):
        sql = (
            "SELECT name FROM items WHERE id IN (SELECT item FROM orders WHERE amount > $1) "
            "AND qty < (SELECT max(amount) FROM orders) + $2 ORDER BY id"
        )
        self.assertEqual(await self.param_types(sql), ["int8", "int8"])
        rows = await self.conn.fetch(sql, 2, 0)
        self.assertEqual([r["name"] for r in rows], ["apple", "fig"])

    async def test_update_returning(self):
        sql = "UPDATE items SET price = price * $1 WHERE ok = $2 AND price IS NOT NULL RETURNING id"
        self.assertEqual(await self.param_types(sql), ["float8", "bool"])
        rows = await self.conn.fetch(sql, 2.0, True)
        self.assertEqual(sorted(r["id"] for r in rows), [1, 3])
        self.assertEqual(await self.conn.fetchval("SELECT price FROM items WHERE id = 3"), 7.0)

    async def test_casts_and_untyped(self):
        self.assertEqual(
            await self.param_types("SELECT $1::date, $2::timestamptz, $3, substr($4, $5)"),
            ["date", "timestamptz", "text", "text", "int4"],
        )
        self.assertEqual(
            await self.conn.fetchval("SELECT substr($1, $2)", "abcdef", 3), "cdef"
        )


class TransactionTests(Case):
    async def asyncSetUp(self):
        await super().asyncSetUp()
        await self.conn.execute(
            "DROP TABLE IF EXISTS ledger; CREATE TABLE ledger (id integer PRIMARY KEY, v text)"
        )

    async def count(self):
        return await self.conn.fetchval("SELECT count(*) FROM ledger")

    async def test_commit(self):
        async with self.conn.transaction():
            self.assertTrue(self.conn.is_in_transaction())
            await self.conn.execute("INSERT INTO ledger VALUES ($1, $2)", 1, "a")
        self.assertFalse(self.conn.is_in_transaction())
        self.assertEqual(await self.count(), 1)

    async def test_rollback_on_exception(self):
        with self.assertRaises(ZeroDivisionError):
            async with self.conn.transaction():
                await self.conn.execute("INSERT INTO ledger VALUES ($1, $2)", 1, "a")
                1 / 0
        self.assertEqual(await self.count(), 0)

    async def test_nested_transaction_is_a_savepoint(self):
        async with self.conn.transaction():
            await self.conn.execute("INSERT INTO ledger VALUES ($1, $2)", 1, "kept")
            with self.assertRaises(asyncpg.UniqueViolationError):
                async with self.conn.transaction():
                    await self.conn.execute("INSERT INTO ledger VALUES ($1, $2)", 2, "undone")
                    await self.conn.execute("INSERT INTO ledger VALUES ($1, $2)", 1, "dup")
            await self.conn.execute("INSERT INTO ledger VALUES ($1, $2)", 3, "after")
        rows = await self.conn.fetch("SELECT id, v FROM ledger ORDER BY id")
        self.assertEqual([tuple(r) for r in rows], [(1, "kept"), (3, "after")])

    async def test_isolation_options(self):
        async with self.conn.transaction(isolation="serializable"):
            await self.conn.execute("INSERT INTO ledger VALUES ($1, $2)", 1, "s")
        async with self.conn.transaction(readonly=True):
            self.assertEqual(await self.count(), 1)


class ErrorTests(Case):
    async def asyncSetUp(self):
        await super().asyncSetUp()
        await self.conn.execute(
            "DROP TABLE IF EXISTS uniq; CREATE TABLE uniq (id integer PRIMARY KEY, v text NOT NULL)"
        )

    async def test_errors_carry_their_sqlstate_class(self):
        await self.conn.execute("INSERT INTO uniq VALUES ($1, $2)", 1, "a")
        with self.assertRaises(asyncpg.UniqueViolationError) as caught:
            await self.conn.execute("INSERT INTO uniq VALUES ($1, $2)", 1, "b")
        self.assertEqual(caught.exception.sqlstate, "23505")
        with self.assertRaises(asyncpg.NotNullViolationError):
            await self.conn.execute("INSERT INTO uniq VALUES ($1, $2)", 2, None)
        with self.assertRaises(asyncpg.UndefinedTableError):
            await self.conn.fetch("SELECT * FROM no_such_table")
        with self.assertRaises(asyncpg.PostgresSyntaxError):
            await self.conn.fetch("SELEC 1")
        with self.assertRaises(asyncpg.IntegrityConstraintViolationError):
            await self.conn.execute("INSERT INTO uniq VALUES ($1, $2)", 1, "c")
        # The connection carries on.
        self.assertEqual(await self.conn.fetchval("SELECT count(*) FROM uniq"), 1)

    async def test_failed_transaction(self):
        with self.assertRaises(asyncpg.UniqueViolationError):
            async with self.conn.transaction():
                await self.conn.execute("INSERT INTO uniq VALUES (1, 'a'), (1, 'b')")
        tr = self.conn.transaction()
        await tr.start()
        with self.assertRaises(asyncpg.UndefinedTableError):
            await self.conn.execute("SELECT * FROM nope")
        with self.assertRaises(asyncpg.InFailedSQLTransactionError):
            await self.conn.fetchval("SELECT 1")
        await tr.rollback()
        self.assertEqual(await self.conn.fetchval("SELECT count(*) FROM uniq"), 0)


class IntrospectionTests(Case):
    async def test_plain_session_needs_no_introspection(self):
        # Every type litewire announces is one asyncpg knows without asking
        # the catalog: a whole session of ordinary statements runs.
        await self.conn.execute("CREATE TABLE plain (id integer, at timestamptz, tags text)")
        await self.conn.execute(
            "INSERT INTO plain VALUES ($1, $2, $3)", 1, datetime(2024, 1, 1, tzinfo=timezone.utc), "x"
        )
        row = await self.conn.fetchrow("SELECT * FROM plain")
        self.assertEqual(row["id"], 1)

    async def test_arrays_go_through_asyncpg_type_introspection(self):
        # int4[] is no type asyncpg knows built in: it runs its introspection
        # query (after current_setting('jit') and set_config('jit', 'off',
        # false)), then decodes and encodes the arrays in binary.
        await self.conn.execute(
            "CREATE TABLE arrays (id integer PRIMARY KEY, xs int[], tags text[], "
            "big bigint[], flags boolean[], days date[])"
        )
        await self.conn.execute(
            "INSERT INTO arrays VALUES (1, '{1,2,3}', '{a,\"b c\"}', '{5000000000}', '{t,f}', "
            "'{2024-02-29}')"
        )
        row = await self.conn.fetchrow("SELECT xs, tags, big, flags, days FROM arrays")
        self.assertEqual(
            tuple(row), ([1, 2, 3], ["a", "b c"], [5_000_000_000], [True, False], [date(2024, 2, 29)])
        )
        # Array parameters, NULL elements and empty arrays included.
        await self.conn.execute(
            "INSERT INTO arrays (id, xs, tags, big, flags, days) VALUES ($1, $2, $3, $4, $5, $6)",
            2, [4, None, -6], ["x", None, ""], [], [None], [date(1999, 12, 31)],
        )
        row = await self.conn.fetchrow("SELECT xs, tags, big, flags, days FROM arrays WHERE id = 2")
        self.assertEqual(tuple(row), ([4, None, -6], ["x", None, ""], [], [None], [date(1999, 12, 31)]))
        self.assertEqual(
            await self.conn.fetchval("SELECT id FROM arrays WHERE xs = $1", [1, 2, 3]), 1
        )
        # The session's settings are as they were.
        self.assertEqual(await self.conn.fetchval("SHOW jit"), "off")

    async def test_array_expressions(self):
        await self.conn.execute("CREATE TABLE names (id integer, name text)")
        await self.conn.executemany(
            "INSERT INTO names VALUES ($1, $2)", [(1, "ann"), (2, "bob"), (3, None)]
        )
        self.assertEqual(
            await self.conn.fetchval("SELECT array_agg(name ORDER BY id) FROM names"),
            ["ann", "bob", None],
        )
        self.assertEqual(
            await self.conn.fetchval("SELECT array_agg(id::int ORDER BY id DESC) FROM names"),
            [3, 2, 1],
        )
        self.assertEqual(await self.conn.fetchval("SELECT ARRAY[1, 2, 3]"), [1, 2, 3])
        self.assertEqual(await self.conn.fetchval("SELECT ARRAY['a', 'b']"), ["a", "b"])
        self.assertEqual(await self.conn.fetchval("SELECT ARRAY[true, false]"), [True, False])

    async def test_json_type_codec(self):
        # set_type_codec looks the type up by name in pg_type.
        await self.conn.set_type_codec(
            "json", encoder=json.dumps, decoder=json.loads, schema="pg_catalog"
        )
        await self.conn.set_type_codec(
            "jsonb", encoder=json.dumps, decoder=json.loads, schema="pg_catalog"
        )
        await self.conn.execute("CREATE TABLE docs (id integer, j json, jb jsonb)")
        doc = {"a": [1, 2, None], "b": {"c": "d"}}
        await self.conn.execute("INSERT INTO docs VALUES ($1, $2, $3)", 1, doc, [doc])
        row = await self.conn.fetchrow("SELECT j, jb FROM docs")
        self.assertEqual((row["j"], row["jb"]), (doc, [doc]))

    async def test_introspection_types(self):
        # What asyncpg's introspection returns for a type is what it builds its
        # codec from: the element type of an array, the kind and category.
        rows = await self.conn.fetch(
            "SELECT oid, typname, typelem, typcategory FROM pg_type WHERE oid = ANY($1::oid[]) ORDER BY oid",
            [23, 1007],
        )
        self.assertEqual(
            [tuple(r) for r in rows], [(23, "int4", 0, "N"), (1007, "_int4", 23, "A")]
        )


class NotifyTests(Case):
    async def test_add_listener(self):
        got = asyncio.Queue()
        await self.conn.add_listener(
            "events", lambda conn, pid, channel, payload: got.put_nowait((channel, payload))
        )
        sender = await connect()
        try:
            await sender.execute("NOTIFY events, 'one'")
            async with sender.transaction():
                await sender.execute("SELECT pg_notify('events', 'two')")
            self.assertEqual(await asyncio.wait_for(got.get(), 5), ("events", "one"))
            self.assertEqual(await asyncio.wait_for(got.get(), 5), ("events", "two"))
        finally:
            await sender.close()
