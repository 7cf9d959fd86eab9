//! The Python that runs the driver tests: a virtualenv, `target/py-venv`, made from
//! `tests/python/requirements.txt` on first use (or by `run-tests`), and the way a
//! test class of a PostgreSQL driver (`tests/python/test_<driver>.py`) is run.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

use super::TestServer;
use super::clients::{describe, run, run_to_success, without_pg_environment};

pub fn python_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/python")
}

/// Runs `python -m unittest <module>.<class>` against a fresh server's PostgreSQL
/// port (`LITEWIRE_PG_HOST`, `LITEWIRE_PG_PORT`, `LITEWIRE_CACHE`); panics with
/// the Python output unless every test passes.
pub fn run_pg_unittest(cache: &str, module: &str, class: &str) {
    let server = TestServer::start(cache, &[]);
    run_unittest(&server, cache, module, class);
}

/// The virtualenv's python, made on first use; concurrent tests and processes wait for
/// one maker.
pub fn venv_python() -> PathBuf {
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

    // One maker at a time, across test binaries and run-tests.
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
             (Debian: apt-get install python3-venv; run-tests installs it): {}",
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

/// Runs `python -m unittest <module>.<class>` from `tests/python` against
/// `server`, with the virtualenv's Python; fails with the Python output.
pub fn run_unittest(server: &TestServer, cache: &str, module: &str, class: &str) {
    let mut command = Command::new(venv_python());
    command
        .args(["-u", "-m", "unittest", "-v", &format!("{module}.{class}")])
        .current_dir(python_dir())
        .env("LITEWIRE_PG_HOST", "127.0.0.1")
        .env("LITEWIRE_PG_PORT", server.pg.port().to_string())
        .env("LITEWIRE_CACHE", cache)
        // No __pycache__ in the source tree.
        .env("PYTHONDONTWRITEBYTECODE", "1");
    without_pg_environment(&mut command);
    run_to_success(
        command,
        server,
        &format!("{module}.{class} against litewire --cache {cache}"),
    );
}
