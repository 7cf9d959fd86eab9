//! Python's `libsql-client` (0.3, the stateless `/v1/execute` and `/v1/batch`
//! protocol it speaks for http:// URLs) against a real litewire process.
//!
//! The test is `tests/python/test_libsql_client.py`, run with the virtualenv's
//! Python (`target/py-venv`, which `tests/python/requirements.txt` gives
//! `libsql-client` too).

mod common;

use std::process::Command;

use common::{TestServer, clients, python};

in_both_cache_modes!(values_batches_and_errors);

async fn values_batches_and_errors(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let mut command = Command::new(python::venv_python());
    command
        .args(["-u", "-m", "unittest", "-v", "test_libsql_client"])
        .current_dir(python::python_dir())
        .env("LITEWIRE_HTTP_URL", format!("http://{}", server.http))
        // No __pycache__ in the source tree.
        .env("PYTHONDONTWRITEBYTECODE", "1");
    clients::run_to_success(
        command,
        &server,
        &format!("libsql-client against litewire --cache {cache}"),
    );
}
