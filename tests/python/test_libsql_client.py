"""Python's libsql-client (0.3) against a running litewire server, over HTTP.

The client speaks the stateless Hrana-over-HTTP protocol (/v1/execute,
/v1/batch) for http:// URLs. The server is found through LITEWIRE_HTTP_URL;
tests/libsql_python.rs starts a fresh server and runs this module.
"""

import asyncio
import os
import unittest

import libsql_client

URL = os.environ["LITEWIRE_HTTP_URL"]


def run(coroutine):
    return asyncio.run(coroutine)


class LibsqlClientTests(unittest.TestCase):
    def test_values_batches_and_errors(self):
        run(self.values_batches_and_errors())

    async def values_batches_and_errors(self):
        async with libsql_client.create_client(URL) as client:
            await client.execute(
                "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT UNIQUE, price REAL, raw BLOB, note TEXT)"
            )
            inserted = await client.execute(
                "INSERT INTO items (name, price, raw, note) VALUES (?, ?, ?, ?)",
                ["apple", 1.25, b"\x00\x01\xfe\xff", None],
            )
            self.assertEqual(inserted.rows_affected, 1)
            self.assertEqual(inserted.last_insert_rowid, 1)
            await client.execute(
                "INSERT INTO items (name, price) VALUES (:name, :price)",
                {"name": "pear", "price": 0.5},
            )

            rs = await client.execute("SELECT id, name, price, raw, note FROM items ORDER BY id")
            self.assertEqual(rs.columns, ("id", "name", "price", "raw", "note"))
            self.assertEqual(len(rs.rows), 2)
            first = rs.rows[0]
            self.assertEqual(first["id"], 1)
            self.assertEqual(first["name"], "apple")
            self.assertEqual(first["price"], 1.25)
            self.assertEqual(first["raw"], b"\x00\x01\xfe\xff")
            self.assertIsNone(first["note"])
            big = await client.execute("SELECT ?", [2**62 + 1])
            self.assertEqual(big.rows[0][0], 2**62 + 1)

            results = await client.batch(
                [
                    ("UPDATE items SET price = price * 2 WHERE name = ?", ["pear"]),
                    "SELECT price FROM items WHERE name = 'pear'",
                ]
            )
            self.assertEqual(results[0].rows_affected, 1)
            self.assertEqual(results[1].rows[0][0], 1.0)

            # A batch runs in one transaction: the failing statement undoes the first.
            with self.assertRaises(libsql_client.LibsqlError) as failed:
                await client.batch(
                    [
                        "UPDATE items SET price = 0",
                        "INSERT INTO items (name) VALUES ('apple')",
                    ]
                )
            self.assertEqual(failed.exception.code, "SQLITE_CONSTRAINT_UNIQUE")
            prices = await client.execute("SELECT sum(price) FROM items")
            self.assertEqual(prices.rows[0][0], 2.25)

            with self.assertRaises(libsql_client.LibsqlError) as missing:
                await client.execute("SELECT * FROM nope")
            self.assertIn("no such table: nope", str(missing.exception))
            self.assertEqual(missing.exception.code, "SQLITE_ERROR")


if __name__ == "__main__":
    unittest.main()
