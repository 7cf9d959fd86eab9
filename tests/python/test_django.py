"""Django (its postgresql backend on psycopg 3) against a running litewire server.

tests/django.rs starts a fresh server for each test class and runs it as
`python -m unittest test_django.<Class>` from this directory, where
django_settings.py points the backend at LITEWIRE_PG_HOST/LITEWIRE_PG_PORT
and django_shop is a small app of the usual kind. Each class migrates first:
the built-in apps (contenttypes, auth, admin, sessions) and django_shop, which
runs Django's own DDL (identity columns, ALTER TABLE ... ADD CONSTRAINT ...
DEFERRABLE INITIALLY DEFERRED, ALTER COLUMN ... TYPE, DROP NOT NULL, indexes
with operator classes) and its bulk INSERT ... SELECT * FROM unnest(...).
"""

import os
from datetime import date
from decimal import Decimal

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "django_settings")

import django  # noqa: E402

django.setup()

import unittest  # noqa: E402

from django.test.utils import setup_test_environment  # noqa: E402

# The test client records the templates' contexts (the admin's changelist).
setup_test_environment()

from django.contrib.auth.models import Permission, User  # noqa: E402
from django.contrib.contenttypes.models import ContentType  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import IntegrityError, connection, transaction  # noqa: E402
from django.db.models import Count, Q  # noqa: E402
from django.test import Client  # noqa: E402

from django_shop.models import Category, Product  # noqa: E402


class Migrated(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        call_command("migrate", verbosity=0)


class MigrateTests(Migrated):
    def test_every_table_is_there(self):
        tables = set(connection.introspection.table_names())
        for table in [
            "django_migrations",
            "django_content_type",
            "auth_user",
            "auth_permission",
            "auth_user_groups",
            "django_admin_log",
            "django_session",
            "django_shop_category",
            "django_shop_product",
        ]:
            self.assertIn(table, tables)

    def test_migrations_recorded_and_nothing_left_to_do(self):
        from django.db.migrations.executor import MigrationExecutor

        executor = MigrationExecutor(connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        self.assertEqual(plan, [])
        # A second migrate runs nothing and fails on nothing.
        call_command("migrate", verbosity=0)

    def test_post_migrate_rows(self):
        # Content types and permissions come from bulk INSERT ... SELECT * FROM
        # unnest(...) RETURNING id.
        product = ContentType.objects.get(app_label="django_shop", model="product")
        codenames = set(
            Permission.objects.filter(content_type=product).values_list("codename", flat=True)
        )
        self.assertEqual(
            codenames, {"add_product", "change_product", "delete_product", "view_product"}
        )
        ids = list(Permission.objects.values_list("id", flat=True))
        self.assertEqual(len(ids), len(set(ids)))


class OrmTests(Migrated):
    def setUp(self):
        Product.objects.all().delete()
        Category.objects.all().delete()
        self.fruit = Category.objects.create(name="fruit")
        self.tools = Category.objects.create(name="tools", description="hardware")
        Product.objects.bulk_create(
            [
                Product(category=self.fruit, name="apple", price=Decimal("1.25")),
                Product(
                    category=self.fruit,
                    name="pear",
                    price=Decimal("2.50"),
                    in_stock=False,
                    released=date(2024, 2, 29),
                ),
                Product(
                    category=self.tools,
                    name="hammer",
                    price=Decimal("19.99"),
                    attributes={"weight": 1.5, "tags": ["steel"]},
                ),
            ]
        )

    def test_create_read_update_delete(self):
        fig = Product.objects.create(category=self.fruit, name="fig", price=Decimal("3.10"))
        self.assertIsNotNone(fig.pk)
        got = Product.objects.get(pk=fig.pk)
        self.assertEqual((got.name, got.price, got.in_stock), ("fig", Decimal("3.10"), True))
        self.assertIsNotNone(got.added.tzinfo)
        self.assertEqual(got.attributes, {})
        got.price = Decimal("3.20")
        got.attributes = {"ripe": True}
        got.save()
        self.assertEqual(Product.objects.get(pk=fig.pk).attributes, {"ripe": True})
        updated = Product.objects.filter(category=self.fruit).update(in_stock=True)
        self.assertEqual(updated, 3)
        self.assertEqual(Product.objects.filter(in_stock=False).count(), 0)
        hammer = Product.objects.get(name="hammer")
        self.assertEqual(hammer.attributes["tags"], ["steel"])
        self.assertEqual(Product.objects.filter(attributes__weight=1.5).get().pk, hammer.pk)
        deleted, _ = Product.objects.filter(name__startswith="f").delete()
        self.assertEqual(deleted, 1)
        # CASCADE through the foreign key.
        self.tools.delete()
        self.assertFalse(Product.objects.filter(name="hammer").exists())

    def test_queries(self):
        names = list(Product.objects.values_list("name", flat=True))
        self.assertEqual(names, ["apple", "hammer", "pear"])  # Meta.ordering
        self.assertEqual(
            list(
                Product.objects.filter(price__gt=Decimal("2"), category__name="fruit").values_list(
                    "name", flat=True
                )
            ),
            ["pear"],
        )
        self.assertEqual(
            list(Product.objects.filter(Q(name__icontains="AM") | Q(released__year=2024))
                 .order_by("-price").values_list("name", flat=True)),
            ["hammer", "pear"],
        )
        counts = dict(
            Category.objects.annotate(n=Count("products")).values_list("name", "n")
        )
        self.assertEqual(counts, {"fruit": 2, "tools": 1})
        self.assertEqual(
            list(Product.objects.filter(name__in=["pear", "kiwi"]).values_list("name", flat=True)),
            ["pear"],
        )

    def test_atomic_rollback(self):
        with self.assertRaises(RuntimeError):
            with transaction.atomic():
                Product.objects.create(category=self.fruit, name="kiwi", price=Decimal("1"))
                with transaction.atomic():
                    Product.objects.filter(name="apple").update(price=Decimal("9"))
                raise RuntimeError("undo")
        self.assertFalse(Product.objects.filter(name="kiwi").exists())
        self.assertEqual(Product.objects.get(name="apple").price, Decimal("1.25"))
        # A savepoint rolled back inside a transaction that commits.
        with transaction.atomic():
            Product.objects.create(category=self.fruit, name="kiwi", price=Decimal("1"))
            try:
                with transaction.atomic():
                    Product.objects.create(category=self.fruit, name="lime", price=Decimal("1"))
                    raise RuntimeError("inner")
            except RuntimeError:
                pass
        self.assertTrue(Product.objects.filter(name="kiwi").exists())
        self.assertFalse(Product.objects.filter(name="lime").exists())

    def test_integrity_errors(self):
        with self.assertRaises(IntegrityError):
            with transaction.atomic():
                Category.objects.create(name="fruit")
        with self.assertRaises(IntegrityError):
            with transaction.atomic():
                Product.objects.create(category_id=999_999, name="orphan", price=Decimal("1"))
        # The connection carries on.
        self.assertEqual(Category.objects.count(), 2)

    def test_admin_changelist(self):
        # The admin's changelist runs what an admin page does: a filtered,
        # ordered, counted, paginated query with select_related, after a
        # session-backed login.
        User.objects.filter(username="admin").delete()
        admin = User.objects.create_superuser("admin", "admin@example.com", "pw")
        client = Client()
        client.force_login(admin)
        response = client.get("/admin/django_shop/product/", {"in_stock__exact": "1", "o": "-3"})
        self.assertEqual(response.status_code, 200)
        changelist = response.context["cl"]
        self.assertEqual(changelist.result_count, 2)
        self.assertEqual(changelist.full_result_count, 3)
        self.assertEqual([p.name for p in changelist.result_list], ["hammer", "apple"])
        response = client.get("/admin/django_shop/product/", {"q": "pea"})
        self.assertEqual([p.name for p in response.context["cl"].result_list], ["pear"])
        response = client.get(f"/admin/django_shop/product/{Product.objects.get(name='pear').pk}/change/")
        self.assertEqual(response.status_code, 200)
        self.assertIn(b'value="pear"', response.content)


if __name__ == "__main__":
    unittest.main()
