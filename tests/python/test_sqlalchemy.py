"""SQLAlchemy 2 (with psycopg 3) against a running litewire server.

The server is found through LITEWIRE_PG_HOST (default 127.0.0.1) and
LITEWIRE_PG_PORT; tests/reflection.rs starts a fresh server for each test class
and runs it as `python -m unittest test_sqlalchemy.<Class>`. The reflected
schema is what PostgreSQL 15 reflects for the same DDL, except where noted.
"""

import os
import unittest
from datetime import datetime
from decimal import Decimal

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    Numeric,
    String,
    Table,
    UniqueConstraint,
    create_engine,
    delete,
    func,
    inspect,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

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


class Base(DeclarativeBase):
    pass


class Author(Base):
    __tablename__ = "author"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(40), unique=True)
    books: Mapped[list["Book"]] = relationship(back_populates="author")


class Book(Base):
    __tablename__ = "book"
    __table_args__ = (CheckConstraint("price >= 0", name="book_price_check"),)
    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(80))
    price: Mapped[Decimal] = mapped_column(Numeric(8, 2))
    author_id: Mapped[int] = mapped_column(ForeignKey("author.id"))
    author: Mapped[Author] = relationship(back_populates="books")


class CoreAndOrmTests(unittest.TestCase):
    def setUp(self):
        self.engine = engine()

    def tearDown(self):
        self.engine.dispose()

    def test_core_round_trip(self):
        metadata = MetaData()
        items = Table(
            "items",
            metadata,
            Column("id", Integer, primary_key=True),
            Column("name", String(50), nullable=False),
            Column("qty", Integer, nullable=False, server_default="0"),
            Column("seen", DateTime(timezone=True)),
            UniqueConstraint("name"),
        )
        metadata.create_all(self.engine)
        # create_all looks before it creates: a second call is a no-op.
        metadata.create_all(self.engine)
        seen = datetime.fromisoformat("2024-05-01T10:00:00+00:00")
        with self.engine.begin() as conn:
            ids = conn.execute(
                insert(items).returning(items.c.id),
                [
                    {"name": "apple", "qty": 0, "seen": seen},
                    {"name": "pear", "qty": 3, "seen": None},
                ],
            ).scalars().all()
            self.assertEqual(ids, [1, 2])
            conn.execute(update(items).where(items.c.name == "apple").values(qty=items.c.qty + 5))
            conn.execute(delete(items).where(items.c.name == "pear"))
        with self.engine.connect() as conn:
            rows = conn.execute(select(items.c.name, items.c.qty, items.c.seen)).all()
            self.assertEqual(rows, [("apple", 5, seen)])
            self.assertEqual(conn.execute(select(func.count()).select_from(items)).scalar(), 1)
        # The table reflects as it was declared.
        columns = {c["name"]: c for c in inspect(self.engine).get_columns("items")}
        self.assertEqual(list(columns), ["id", "name", "qty", "seen"])
        # SQLAlchemy writes DEFAULT '0'; PostgreSQL shows it as 0, litewire as written.
        self.assertEqual(columns["qty"]["default"], "'0'")
        metadata.drop_all(self.engine)
        self.assertFalse(inspect(self.engine).has_table("items"))

    def test_orm_session_and_rollback(self):
        Base.metadata.create_all(self.engine)
        with Session(self.engine) as session:
            ann = Author(name="ann")
            ann.books = [
                Book(title="one", price=Decimal("9.50")),
                Book(title="two", price=Decimal("12.00")),
            ]
            session.add(ann)
            session.commit()
            self.assertIsNotNone(ann.id)

        with Session(self.engine) as session:
            author = session.scalars(select(Author).where(Author.name == "ann")).one()
            self.assertEqual(
                sorted((b.title, b.price) for b in author.books),
                [("one", Decimal("9.50")), ("two", Decimal("12.00"))],
            )
            author.books[0].price = Decimal("8.00")
            session.commit()

        with Session(self.engine) as session:
            session.add(Author(name="bob"))
            session.flush()
            self.assertEqual(session.scalar(select(func.count()).select_from(Author)), 2)
            session.rollback()
            self.assertEqual(session.scalar(select(func.count()).select_from(Author)), 1)

        with Session(self.engine) as session:
            session.add(Author(name="ann"))
            with self.assertRaises(IntegrityError) as caught:
                session.commit()
            self.assertEqual(caught.exception.orig.sqlstate, "23505")
            session.rollback()
            book = session.scalars(select(Book).order_by(Book.title)).first()
            self.assertEqual((book.title, book.price), ("one", Decimal("8.00")))
            session.delete(book)
            session.commit()
            self.assertEqual(session.scalar(select(func.count()).select_from(Book)), 1)

        reflected = inspect(self.engine)
        self.assertEqual(
            [
                (k["constrained_columns"], k["referred_table"], k["referred_columns"])
                for k in reflected.get_foreign_keys("book")
            ],
            [(["author_id"], "author", ["id"])],
        )
        self.assertEqual(
            reflected.get_check_constraints("book"),
            [{"name": "book_price_check", "sqltext": "price >= 0", "comment": None}],
        )


if __name__ == "__main__":
    unittest.main()
