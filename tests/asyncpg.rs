//! asyncpg (a Python driver with its own implementation of the protocol: extended
//! queries only, every parameter encoded in binary by the type Describe
//! announced) against a real litewire process.
//!
//! The tests themselves are `tests/python/test_asyncpg.py`; each Rust test starts
//! a fresh server and runs one of its test classes with the virtualenv's Python
//! (`target/py-venv`, from `tests/python/requirements.txt`).

mod common;

use common::python::run_pg_unittest;

in_both_cache_modes!(
    connection,
    types,
    fetch_and_prepared_statements,
    statement_shapes,
    transactions,
    errors,
    introspection,
    notifications
);

async fn connection(cache: &str) {
    run_pg_unittest(cache, "test_asyncpg", "ConnectionTests");
}

async fn types(cache: &str) {
    run_pg_unittest(cache, "test_asyncpg", "TypeTests");
}

async fn fetch_and_prepared_statements(cache: &str) {
    run_pg_unittest(cache, "test_asyncpg", "FetchTests");
}

async fn statement_shapes(cache: &str) {
    run_pg_unittest(cache, "test_asyncpg", "ShapeTests");
}

async fn transactions(cache: &str) {
    run_pg_unittest(cache, "test_asyncpg", "TransactionTests");
}

async fn errors(cache: &str) {
    run_pg_unittest(cache, "test_asyncpg", "ErrorTests");
}

async fn introspection(cache: &str) {
    run_pg_unittest(cache, "test_asyncpg", "IntrospectionTests");
}

async fn notifications(cache: &str) {
    run_pg_unittest(cache, "test_asyncpg", "NotifyTests");
}
