//! psycopg 3 (a Python driver on libpq) against a real litewire process.
//!
//! The tests themselves are `tests/python/test_psycopg.py`; each Rust test starts a
//! fresh server and runs one of its test classes with the virtualenv's Python.
//! The virtualenv (`target/py-venv`, from `tests/python/requirements.txt`) is made
//! by `.ci/run`, or here on first use.

mod common;

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::TestServer;

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

/// Longest a test class may run; a hung client is killed and its output shown.
const CLASS_DEADLINE: Duration = Duration::from_secs(120);

fn python_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python")
}

/// Runs `test_psycopg.<class>` against a fresh server; fails with the Python output.
fn run_python_class(cache: &str, class: &str) {
    let python = venv_python();
    let server = TestServer::start(cache, &[]);
    let log_path = server.dir.path().join("python.log");
    let log = File::create(&log_path).expect("python log file");
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
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("python log file"))
        .stderr(log);
    // libpq reads PG* variables (sslmode, options, service...): none may leak in.
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("PG") {
            command.env_remove(key);
        }
    }
    let mut child = command.spawn().expect("run the virtualenv's python");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for python") {
            break Some(status);
        }
        if started.elapsed() > CLASS_DEADLINE {
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
        None => format!("did not finish within {CLASS_DEADLINE:?}"),
    };
    let logs = server.logs();
    let tail = &logs[logs.len().saturating_sub(30)..];
    panic!(
        "psycopg {class} against litewire --cache {cache} {verdict}:\n{output}\n\
         --- last server log lines ---\n{}",
        tail.join("\n")
    );
}

/// The virtualenv's python, made on first use; concurrent tests and processes wait for
/// one maker.
fn venv_python() -> PathBuf {
    static PYTHON: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PYTHON
        .get_or_init(prepare_venv)
        .clone()
        .unwrap_or_else(|error| panic!("{error}"))
}

/// `target/py-venv` is ready when it holds a copy of the requirements it was made from
/// (written last, so a half-made one is never taken for ready).
fn prepare_venv() -> Result<PathBuf, String> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .to_path_buf();
    let venv = target.join("py-venv");
    let python = venv.join("bin/python");
    let stamp = venv.join(".requirements");
    let requirements_path = python_dir().join("requirements.txt");
    let requirements = std::fs::read_to_string(&requirements_path)
        .map_err(|e| format!("read {}: {e}", requirements_path.display()))?;
    let ready = || {
        python.exists() && std::fs::read_to_string(&stamp).ok().as_deref() == Some(&requirements)
    };
    if ready() {
        return Ok(python);
    }

    // One maker at a time, across test binaries and .ci/run.
    let lock_path = target.join("py-venv.lock");
    let lock = File::create(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("lock {}: {e}", lock_path.display()))?;
    if ready() {
        return Ok(python);
    }
    eprintln!("creating the psycopg virtualenv in {}", venv.display());
    // Made under a temporary name and renamed: `bin/python` finds its environment
    // relative to itself, so the rename keeps it working.
    let staging = target.join("py-venv.new");
    for dir in [&staging, &venv] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| format!("remove {}: {e}", dir.display()))?;
        }
    }
    let made = run(Command::new("python3").arg("-m").arg("venv").arg(&staging));
    if !made.as_ref().is_ok_and(|o| o.status.success()) {
        return Err(format!(
            "cannot create the virtualenv for the psycopg tests with `python3 -m venv` \
             (Debian: apt-get install python3-venv; .ci/run installs it): {}",
            describe(&made)
        ));
    }
    let installed = run(Command::new(staging.join("bin/python"))
        .args([
            "-m",
            "pip",
            "install",
            "--disable-pip-version-check",
            "-q",
            "-r",
        ])
        .arg(&requirements_path));
    if !installed.as_ref().is_ok_and(|o| o.status.success()) {
        return Err(format!(
            "cannot install {} into the psycopg virtualenv (is PyPI reachable?): {}",
            requirements_path.display(),
            describe(&installed)
        ));
    }
    std::fs::write(staging.join(".requirements"), &requirements)
        .map_err(|e| format!("write the virtualenv stamp: {e}"))?;
    std::fs::rename(&staging, &venv).map_err(|e| format!("rename the virtualenv: {e}"))?;
    Ok(python)
}

fn run(command: &mut Command) -> std::io::Result<Output> {
    command.stdin(Stdio::null()).output()
}

fn describe(result: &std::io::Result<Output>) -> String {
    match result {
        Ok(output) => format!(
            "{}\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ),
        Err(error) => error.to_string(),
    }
}
