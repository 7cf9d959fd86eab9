//! `@libsql/client` (the libsql SDK for JavaScript, which Drizzle, Kysely and
//! Prisma's libsql adapter build on) against a real litewire process, over Hrana.
//!
//! The tests are the node scripts in `tests/js/`; each Rust test starts a fresh
//! server and runs one script with `LITEWIRE_URL` pointing at its HTTP port. The
//! SDK is installed from npm into `target/node-clients` at the version pinned
//! in `tests/js/package.json`, by `run-tests` or on first use (`common::clients`).

mod common;

use common::{TestServer, clients};

in_both_cache_modes!(
    execute_with_every_value_type,
    batch_modes_and_atomicity,
    transactions_across_requests,
    execute_multiple_and_migrate,
    concurrent_clients
);

async fn execute_with_every_value_type(cache: &str) {
    run_script(cache, "execute.cjs");
}

async fn batch_modes_and_atomicity(cache: &str) {
    run_script(cache, "batch.cjs");
}

async fn transactions_across_requests(cache: &str) {
    run_script(cache, "transaction.cjs");
}

async fn execute_multiple_and_migrate(cache: &str) {
    run_script(cache, "migrate.cjs");
}

async fn concurrent_clients(cache: &str) {
    run_script(cache, "concurrent.cjs");
}

/// Runs `tests/js/<script>` against a fresh server; fails with its output.
fn run_script(cache: &str, script: &str) {
    let server = TestServer::start(cache, &[]);
    let mut command = clients::node_script(script);
    command.env("LITEWIRE_URL", format!("http://{}", server.http));
    clients::run_to_success(
        command,
        &server,
        &format!("{script} against litewire --cache {cache}"),
    );
}
