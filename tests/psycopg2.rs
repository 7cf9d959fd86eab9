//! psycopg2 (a Python driver on libpq that speaks only the simple protocol:
//! parameters are written into the statement as literals, results read as
//! text by their type oids) against a real litewire process.
//!
//! The tests themselves are `tests/python/test_psycopg2.py`; each Rust test
//! starts a fresh server and runs one of its test classes with the
//! virtualenv's Python (`target/py-venv`, from `tests/python/requirements.txt`).

mod common;

use common::python::run_pg_unittest;

in_both_cache_modes!(
    connection,
    types,
    statement_shapes,
    copy,
    transactions,
    errors,
    metadata,
    named_cursors
);

async fn connection(cache: &str) {
    run_pg_unittest(cache, "test_psycopg2", "ConnectionTests");
}

async fn types(cache: &str) {
    run_pg_unittest(cache, "test_psycopg2", "TypeTests");
}

async fn statement_shapes(cache: &str) {
    run_pg_unittest(cache, "test_psycopg2", "ShapeTests");
}

async fn copy(cache: &str) {
    run_pg_unittest(cache, "test_psycopg2", "CopyTests");
}

async fn transactions(cache: &str) {
    run_pg_unittest(cache, "test_psycopg2", "TransactionTests");
}

async fn errors(cache: &str) {
    run_pg_unittest(cache, "test_psycopg2", "ErrorTests");
}

async fn metadata(cache: &str) {
    run_pg_unittest(cache, "test_psycopg2", "MetadataTests");
}

async fn named_cursors(cache: &str) {
    run_pg_unittest(cache, "test_psycopg2", "NamedCursorTests");
}
