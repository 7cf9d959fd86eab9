//! Django (its `postgresql` backend on psycopg 3) against a real litewire process:
//! `migrate` of the built-in apps (contenttypes, auth, admin, sessions) and of a
//! small app, the ORM's create/read/update/delete, `transaction.atomic`,
//! IntegrityError, and the admin's changelist.
//!
//! The tests themselves are `tests/python/test_django.py` (settings in
//! `django_settings.py`, the app in `django_shop/`); each Rust test starts a
//! fresh server and runs one of its test classes with the virtualenv's Python
//! (`target/py-venv`, from `tests/python/requirements.txt`).

mod common;

use common::python::run_pg_unittest;

in_both_cache_modes!(migrate, orm_and_admin);

async fn migrate(cache: &str) {
    run_pg_unittest(cache, "test_django", "MigrateTests");
}

async fn orm_and_admin(cache: &str) {
    run_pg_unittest(cache, "test_django", "OrmTests");
}
