//! pgjdbc (Java's PostgreSQL driver: extended protocol, typed parameters, a
//! timestamp or date sent as text of unspecified type for the server to read
//! by its place, binary results once a statement is prepared on the server)
//! beyond its metadata calls (those are in `reflection`): PreparedStatement
//! setters and getters of every common type in text and binary, batches,
//! generated keys, transactions with savepoints, and SQLSTATEs.
//!
//! The checks are `tests/jdbc/Statements.java`, run in Java's source-file mode
//! with Debian's pgjdbc on the class path (`common::clients::jdbc_program`);
//! each Rust test starts a fresh server and runs one section of it.

mod common;

use common::{TestServer, clients};

in_both_cache_modes!(types, statements_batches_and_keys, transactions_and_errors);

async fn types(cache: &str) {
    run_section(cache, "types");
}

async fn statements_batches_and_keys(cache: &str) {
    run_section(cache, "statements");
}

async fn transactions_and_errors(cache: &str) {
    run_section(cache, "transactions");
}

/// Runs `Statements.java <port> <section>` against a fresh server.
fn run_section(cache: &str, section: &str) {
    let server = TestServer::start(cache, &[]);
    let mut command = clients::jdbc_program("Statements.java");
    command.args([&server.pg.port().to_string(), section]);
    let printed = clients::run_to_success(
        command,
        &server,
        &format!("pgjdbc {section} against litewire --cache {cache}"),
    );
    assert_eq!(printed.trim(), format!("ok {section}"));
}
