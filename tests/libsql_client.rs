//! `@libsql/client` (the libsql SDK for JavaScript, which Drizzle, Kysely and
//! Prisma's libsql adapter build on) against a real litewire process, over Hrana.
//!
//! The tests are the node scripts in `tests/js/`; each Rust test starts a fresh
//! server and runs one script with `LITEWIRE_URL` pointing at its HTTP port. The
//! SDK is installed from npm into `target/libsql-client` at the version pinned
//! in `tests/js/package.json`, by `.ci/run` or here on first use.

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::TestServer;

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

/// Longest a script may run; a hung client is killed and its output shown.
const SCRIPT_DEADLINE: Duration = Duration::from_secs(120);

fn js_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/js")
}

/// Runs `tests/js/<script>` against a fresh server; fails with its output.
fn run_script(cache: &str, script: &str) {
    let node_modules = client_modules();
    let server = TestServer::start(cache, &[]);
    let log_path = server.dir.path().join("node.log");
    let log = File::create(&log_path).expect("node log file");
    let mut child = Command::new("node")
        .arg(js_dir().join(script))
        .env("NODE_PATH", &node_modules)
        .env("LITEWIRE_URL", format!("http://{}", server.http))
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("node log file"))
        .stderr(log)
        .spawn()
        .expect("run node (is nodejs installed? .ci/run installs it)");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for node") {
            break Some(status);
        }
        if started.elapsed() > SCRIPT_DEADLINE {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let output = std::fs::read_to_string(&log_path).unwrap_or_default();
    let verdict = match status {
        Some(status) if status.success() => {
            println!("{output}");
            return;
        }
        Some(status) => format!("failed ({status})"),
        None => format!("did not finish within {SCRIPT_DEADLINE:?}"),
    };
    let logs = server.logs();
    let tail = &logs[logs.len().saturating_sub(30)..];
    panic!(
        "{script} against litewire --cache {cache} {verdict}:\n{output}\n\
         --- last server log lines ---\n{}",
        tail.join("\n")
    );
}

/// `target/libsql-client/node_modules`, installed on first use; concurrent tests
/// and processes wait for one installer.
fn client_modules() -> PathBuf {
    static MODULES: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    MODULES
        .get_or_init(install_client)
        .clone()
        .unwrap_or_else(|error| panic!("{error}"))
}

/// The install is ready when it holds a copy of the `package.json` it was made
/// from (written by npm before it installs, so the lock file is the stamp).
fn install_client() -> Result<PathBuf, String> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .to_path_buf();
    let prefix = target.join("libsql-client");
    let modules = prefix.join("node_modules");
    let stamp = prefix.join(".package.json");
    let manifest_path = js_dir().join("package.json");
    let manifest = std::fs::read_to_string(&manifest_path)
        .map_err(|e| format!("read {}: {e}", manifest_path.display()))?;
    let ready = || std::fs::read_to_string(&stamp).ok().as_deref() == Some(&manifest);
    if ready() {
        return Ok(modules);
    }
    let lock_path = target.join("libsql-client.lock");
    let lock = File::create(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("lock {}: {e}", lock_path.display()))?;
    if ready() {
        return Ok(modules);
    }
    eprintln!("installing @libsql/client into {}", prefix.display());
    std::fs::create_dir_all(&prefix).map_err(|e| format!("{}: {e}", prefix.display()))?;
    std::fs::write(prefix.join("package.json"), &manifest)
        .map_err(|e| format!("write package.json: {e}"))?;
    let installed = Command::new("npm")
        .args(["install", "--no-fund", "--no-audit", "--silent", "--prefix"])
        .arg(&prefix)
        .output();
    match installed {
        Ok(output) if output.status.success() => {}
        Ok(output) => {
            return Err(format!(
                "npm install of @libsql/client failed (is the npm registry reachable?): {}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        Err(e) => return Err(format!("cannot run npm (apt-get install npm): {e}")),
    }
    std::fs::write(&stamp, &manifest).map_err(|e| format!("write the install stamp: {e}"))?;
    Ok(modules)
}
