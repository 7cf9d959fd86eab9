//! node-postgres (`pg`, pure JavaScript: text parameters typed by the server,
//! Buffers sent in binary with no type, results parsed by its type parsers)
//! against a real litewire process.
//!
//! The tests are the node scripts `tests/js/node_pg_*.cjs`; each Rust test
//! starts a fresh server and runs one script with `LITEWIRE_PG_PORT` pointing at
//! its PostgreSQL port. `pg` is installed from npm into `target/node-clients` at
//! the version pinned in `tests/js/package.json`, by `run-tests` or on first use
//! (`common::clients`).

mod common;

use common::{TestServer, clients};

in_both_cache_modes!(
    types_buffers_and_parsers,
    named_statements_and_shapes,
    transactions_and_errors,
    notifications
);

async fn types_buffers_and_parsers(cache: &str) {
    run_script(cache, "node_pg_types.cjs");
}

async fn named_statements_and_shapes(cache: &str) {
    run_script(cache, "node_pg_statements.cjs");
}

async fn transactions_and_errors(cache: &str) {
    run_script(cache, "node_pg_transactions.cjs");
}

async fn notifications(cache: &str) {
    run_script(cache, "node_pg_notifications.cjs");
}

/// Runs `tests/js/<script>` against a fresh server; fails with its output.
fn run_script(cache: &str, script: &str) {
    let server = TestServer::start(cache, &[]);
    let mut command = clients::node_script(script);
    command.env("LITEWIRE_PG_PORT", server.pg.port().to_string());
    clients::without_pg_environment(&mut command);
    clients::run_to_success(
        command,
        &server,
        &format!("{script} against litewire --cache {cache}"),
    );
}
