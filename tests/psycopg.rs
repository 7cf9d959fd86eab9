//! psycopg 3 (a Python driver on libpq) against a real litewire process.
//!
//! The tests themselves are `tests/python/test_psycopg.py`; each Rust test starts a
//! fresh server and runs one of its test classes with the virtualenv's Python.
//! The virtualenv (`target/py-venv`, from `tests/python/requirements.txt`) is made
//! by `run-tests`, or on first use (`common::python`).

mod common;

use common::python::run_pg_unittest;

in_both_cache_modes!(
    connection,
    types,
    prepared_statements,
    insert_update_returning,
    transactions,
    copy,
    errors,
    server_cursors,
    notifications,
    isolation_levels
);

async fn connection(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "ConnectionTests");
}

async fn types(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "TypeTests");
}

async fn prepared_statements(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "PreparedTests");
}

async fn insert_update_returning(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "DmlTests");
}

async fn transactions(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "TransactionTests");
}

async fn copy(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "CopyTests");
}

async fn errors(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "ErrorTests");
}

async fn server_cursors(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "ServerCursorTests");
}

async fn notifications(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "NotifyTests");
}

async fn isolation_levels(cache: &str) {
    run_pg_unittest(cache, "test_psycopg", "IsolationTests");
}
