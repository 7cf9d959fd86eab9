//! pgx, Go's most used PostgreSQL driver, against a real litewire process: it
//! prepares every statement, takes the parameter types from Describe and sends
//! parameters and reads results in binary wherever it knows the type.
//!
//! The checks are the Go program `tests/go/pgx` (typed scans of every common
//! type in binary and, over the simple protocol, in text;
//! the parameter-typed statement shapes, `CopyFrom`, `SendBatch`,
//! transactions, `pgconn.PgError` codes). It is built against pgx v4 from
//! Debian (`golang-go golang-github-jackc-pgx-v4-dev`, which `run-tests`
//! installs) in GOPATH mode, with no network, into `target/go-pgx` on first use.

mod common;

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use common::{TestServer, clients};

in_both_cache_modes!(typed_scans_shapes_copy_batch_and_errors);

async fn typed_scans_shapes_copy_batch_and_errors(cache: &str) {
    let program = pgx_program();
    let server = TestServer::start(cache, &[]);
    let mut command = Command::new(program);
    command.env(
        "LITEWIRE_PG_URL",
        format!(
            "postgres://postgres@127.0.0.1:{}/litewire?sslmode=disable",
            server.pg.port()
        ),
    );
    clients::without_pg_environment(&mut command);
    clients::run_to_success(
        command,
        &server,
        &format!("the pgx program against litewire --cache {cache}"),
    );
}

/// Debian's Go packages, where GOPATH mode finds pgx v4 and its dependencies.
const GOPATH: &str = "/usr/share/gocode";

/// `target/go-pgx/pgx`, built once per test run from `tests/go/pgx` (Go caches
/// the compiled packages in `target/go-pgx/cache`, so later runs relink only).
fn pgx_program() -> PathBuf {
    static PROGRAM: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PROGRAM
        .get_or_init(|| {
            let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                .parent()
                .expect("target dir")
                .join("go-pgx");
            let program = out.join("pgx");
            // Each test binary builds under its own name and renames, so a
            // concurrent run never executes a half-written file.
            let staging = out.join(format!("pgx.{}", std::process::id()));
            let build = clients::run(
                Command::new("go")
                    .args(["build", "-o"])
                    .arg(&staging)
                    .arg("./tests/go/pgx")
                    .current_dir(clients::source_dir())
                    .env("GO111MODULE", "off")
                    .env("GOPATH", GOPATH)
                    .env("GOCACHE", out.join("cache"))
                    .env("GOFLAGS", ""),
            );
            if !build.as_ref().is_ok_and(|o| o.status.success()) {
                return Err(format!(
                    "cannot build tests/go/pgx (apt-get install golang-go \
                     golang-github-jackc-pgx-v4-dev): {}",
                    clients::describe(&build)
                ));
            }
            std::fs::rename(&staging, &program)
                .map_err(|e| format!("rename {}: {e}", staging.display()))?;
            Ok(program)
        })
        .clone()
        .unwrap_or_else(|error| panic!("{error}"))
}
