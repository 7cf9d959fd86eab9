"""SQLAlchemy 2 (with psycopg 3) against a running litewire server.

The server is found through LITEWIRE_PG_HOST (default 127.0.0.1) and
LITEWIRE_PG_PORT; tests/reflection.rs starts a fresh server for each test class
and runs it as `python -m unittest test_sqlalchemy.<Class>`. The reflected
schema is what PostgreSQL 15 reflects for the same DDL, except where noted.
"""

import os
import unittest

from sqlalchemy import (
    Boolean,
    DateTime,
    Integer,
    MetaData,
    Numeric,
    String,
    create_engine,
    inspect,
    text,
)
from sqlalchemy.dialects import postgresql

HOST = os.environ.get("LITEWIRE_PG_HOST", "127.0.0.1")
PORT = int(os.environ["LITEWIRE_PG_PORT"])

SCHEMA = [
    "CREATE TABLE parent (id serial PRIMARY KEY, name varchar(40) NOT NULL UNIQUE, "
    "created timestamptz DEFAULT now())",
    "CREATE TABLE child (id integer PRIMARY KEY, pid int REFERENCES parent(id) ON DELETE CASCADE, "
    "note text DEFAULT 'x', n numeric(10,2) CHECK (n >= 0), flag boolean NOT NULL, code varchar(8), "
    "CONSTRAINT child_note_code_key UNIQUE (note, code))",
    "CREATE INDEX child_pid ON child(pid)",
    "CREATE UNIQUE INDEX child_code_flag ON child(code, flag)",
    "CREATE VIEW v AS SELECT id, note FROM child",
]


def engine():
    return create_engine(
        f"postgresql+psycopg://postgres@{HOST}:{PORT}/litewire",
        connect_args={"connect_timeout": 10},
    )


def with_schema():
    eng = engine()
    with eng.begin() as conn:
        for statement in SCHEMA:
            conn.execute(text(statement))
    return eng


class InspectTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.engine = with_schema()
        cls.inspector = inspect(cls.engine)

    @classmethod
    def tearDownClass(cls):
        cls.engine.dispose()

    def test_table_and_view_names(self):
        self.assertEqual(sorted(self.inspector.get_table_names()), ["child", "parent"])
        self.assertEqual(self.inspector.get_view_names(), ["v"])
        self.assertTrue(self.inspector.has_table("child"))
        self.assertFalse(self.inspector.has_table("nosuch"))
        self.assertEqual(self.inspector.get_schema_names(), ["information_schema", "public"])

    def test_columns(self):
        columns = {c["name"]: c for c in self.inspector.get_columns("child")}
        self.assertEqual(list(columns), ["id", "pid", "note", "n", "flag", "code"])
        types = {name: c["type"] for name, c in columns.items()}
        self.assertIsInstance(types["id"], Integer)
        self.assertIsInstance(types["pid"], Integer)
        self.assertIsInstance(types["note"], postgresql.TEXT)
        self.assertIsInstance(types["n"], Numeric)
        self.assertEqual((types["n"].precision, types["n"].scale), (10, 2))
        self.assertIsInstance(types["flag"], Boolean)
        self.assertIsInstance(types["code"], String)
        self.assertEqual(types["code"].length, 8)
        nullable = {name: c["nullable"] for name, c in columns.items()}
        self.assertEqual(
            nullable,
            {"id": False, "pid": True, "note": True, "n": True, "flag": False, "code": True},
        )
        # PostgreSQL shows 'x'::text.
        self.assertEqual(columns["note"]["default"], "'x'")
        self.assertIsNone(columns["pid"]["default"])

        parent = {c["name"]: c for c in self.inspector.get_columns("parent")}
        self.assertIsInstance(parent["name"]["type"], String)
        self.assertEqual(parent["name"]["type"].length, 40)
        self.assertIsInstance(parent["created"]["type"], DateTime)
        self.assertTrue(parent["created"]["type"].timezone)
        self.assertEqual(parent["created"]["default"], "now()")
        view = [c["name"] for c in self.inspector.get_columns("v")]
        self.assertEqual(view, ["id", "note"])

    def test_primary_keys(self):
        pk = self.inspector.get_pk_constraint("child")
        self.assertEqual((pk["constrained_columns"], pk["name"]), (["id"], "child_pkey"))
        self.assertEqual(
            self.inspector.get_pk_constraint("parent")["constrained_columns"], ["id"]
        )

    def test_foreign_keys(self):
        keys = self.inspector.get_foreign_keys("child")
        self.assertEqual(len(keys), 1, keys)
        key = keys[0]
        self.assertEqual(key["name"], "child_pid_fkey")
        self.assertEqual(key["constrained_columns"], ["pid"])
        self.assertEqual(key["referred_table"], "parent")
        self.assertEqual(key["referred_columns"], ["id"])
        self.assertEqual(key["options"], {"ondelete": "CASCADE"})
        self.assertEqual(self.inspector.get_foreign_keys("parent"), [])

    def test_indexes(self):
        indexes = sorted(self.inspector.get_indexes("child"), key=lambda i: i["name"])
        self.assertEqual(
            [(i["name"], i["unique"], i["column_names"]) for i in indexes],
            [
                ("child_code_flag", True, ["code", "flag"]),
                ("child_note_code_key", True, ["note", "code"]),
                ("child_pid", False, ["pid"]),
            ],
        )
        self.assertEqual(indexes[1]["duplicates_constraint"], "child_note_code_key")
        self.assertNotIn("duplicates_constraint", indexes[0])

    def test_unique_constraints(self):
        self.assertEqual(
            [
                (u["name"], u["column_names"])
                for u in self.inspector.get_unique_constraints("child")
            ],
            [("child_note_code_key", ["note", "code"])],
        )
        self.assertEqual(
            [
                (u["name"], u["column_names"])
                for u in self.inspector.get_unique_constraints("parent")
            ],
            [("parent_name_key", ["name"])],
        )

    def test_check_constraints(self):
        # PostgreSQL's text is (n >= (0)::numeric).
        self.assertEqual(
            self.inspector.get_check_constraints("child"),
            [{"name": "child_n_check", "sqltext": "n >= 0", "comment": None}],
        )

    def test_metadata_reflect(self):
        metadata = MetaData()
        metadata.reflect(self.engine, only=["parent", "child"])
        child = metadata.tables["child"]
        self.assertEqual([c.name for c in child.primary_key], ["id"])
        (fk,) = child.foreign_keys
        self.assertEqual(fk.target_fullname, "parent.id")
        self.assertEqual(fk.ondelete, "CASCADE")


if __name__ == "__main__":
    unittest.main()
