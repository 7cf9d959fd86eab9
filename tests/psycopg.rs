//! psycopg 3 (a Python driver on libpq) against a real litewire process.
//!
//! The tests themselves are `tests/python/test_psycopg.py`; each Rust test starts a
//! fresh server and runs one of its test classes with the virtualenv's Python.
//! The virtualenv (`target/py-venv`, from `tests/python/requirements.txt`) is made
//! by `.ci/run`, or on first use (`common::python`).

mod common;

use std::process::Command;

use common::python::{python_dir, venv_python};
use common::{TestServer, clients};

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
    let python = venv_python();
    let server = TestServer::start(cache, &[]);
    let mut command = Command::new(python);
    command
        .args([
            "-u",
            "-m",
            "unittest",
            "-v",
            &format!("test_psycopg.{class}"),
        ])
        .current_dir(python_dir())
        .env("LITEWIRE_PG_HOST", "127.0.0.1")
        .env("LITEWIRE_PG_PORT", server.pg.port().to_string())
        .env("LITEWIRE_CACHE", cache)
        // No __pycache__ in the source tree.
        .env("PYTHONDONTWRITEBYTECODE", "1");
    // libpq reads PG* variables (sslmode, options, service...): none may leak in.
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("PG") {
            command.env_remove(key);
        }
    }
    clients::run_to_success(
        command,
        &server,
        &format!("psycopg {class} against litewire --cache {cache}"),
    );
}
