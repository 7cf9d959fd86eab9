//! psycopg 3 (a Python driver on libpq) against a real litewire process.
//!
//! The tests themselves are `tests/python/test_psycopg.py`; each Rust test starts a
//! fresh server and runs one of its test classes with the virtualenv's Python.
//! The virtualenv (`target/py-venv`, from `tests/python/requirements.txt`) is made
//! by `.ci/run`, or on first use (`common::python`).

mod common;

use common::{TestServer, python};

in_both_cache_modes!(
    connection,
    types,
    prepared_statements,
    insert_update_returning,
    transactions,
    copy,
    errors
);

async fn connection(cache: &str) {
    run_python_class(cache, "ConnectionTests");
}

async fn types(cache: &str) {
    run_python_class(cache, "TypeTests");
}

async fn prepared_statements(cache: &str) {
    run_python_class(cache, "PreparedTests");
}

async fn insert_update_returning(cache: &str) {
    run_python_class(cache, "DmlTests");
}

async fn transactions(cache: &str) {
    run_python_class(cache, "TransactionTests");
}

async fn copy(cache: &str) {
    run_python_class(cache, "CopyTests");
}

async fn errors(cache: &str) {
    run_python_class(cache, "ErrorTests");
}

/// Runs `test_psycopg.<class>` against a fresh server; fails with the Python output.
fn run_python_class(cache: &str, class: &str) {
    let server = TestServer::start(cache, &[]);
    python::run_unittest(&server, cache, "test_psycopg", class);
}
