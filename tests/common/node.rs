//! node-postgres for the tests that run JavaScript: `target/node-pg`, installed from
//! `tests/node/package.json` on first use (or by `.ci/run`), the way `python` makes
//! the virtualenv.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

pub fn node_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node")
}

/// The `node_modules` folder holding `pg`, for NODE_PATH.
pub fn node_modules() -> PathBuf {
    static MODULES: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    MODULES
        .get_or_init(install)
        .clone()
        .unwrap_or_else(|error| panic!("{error}"))
}

/// Ready when `target/node-pg` holds a copy of the package.json it was installed
/// from (copied last, so a half-made one is never taken for ready).
fn install() -> Result<PathBuf, String> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .to_path_buf();
    let prefix = target.join("node-pg");
    let modules = prefix.join("node_modules");
    let manifest_path = node_dir().join("package.json");
    let manifest = std::fs::read_to_string(&manifest_path)
        .map_err(|e| format!("read {}: {e}", manifest_path.display()))?;
    let ready = || {
        modules.join("pg").exists()
            && std::fs::read_to_string(prefix.join("package.json"))
                .ok()
                .as_deref()
                == Some(&manifest)
    };
    if ready() {
        return Ok(modules);
    }
    let lock_path = target.join("node-pg.lock");
    let lock = File::create(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("lock {}: {e}", lock_path.display()))?;
    if ready() {
        return Ok(modules);
    }
    let staging = target.join("node-pg.new");
    for dir in [&staging, &prefix] {
        if dir.exists() {
            std::fs::remove_dir_all(dir).map_err(|e| format!("remove {}: {e}", dir.display()))?;
        }
    }
    std::fs::create_dir_all(&staging).map_err(|e| format!("{}: {e}", staging.display()))?;
    std::fs::write(staging.join("package.json"), "{}")
        .map_err(|e| format!("write package.json: {e}"))?;
    let installed = Command::new("npm")
        .args(["install", "--no-fund", "--no-audit", "--silent", "--prefix"])
        .arg(&staging)
        .arg(format!("pg@{}", pg_version(&manifest)?))
        .stdin(Stdio::null())
        .output();
    match installed {
        Ok(output) if output.status.success() => {}
        other => {
            return Err(format!(
                "cannot install node-postgres with npm (is npm installed, is the registry \
                 reachable? .ci/run installs both): {other:?}"
            ));
        }
    }
    std::fs::write(staging.join("package.json"), &manifest)
        .map_err(|e| format!("write the package.json stamp: {e}"))?;
    std::fs::rename(&staging, &prefix).map_err(|e| format!("rename {}: {e}", staging.display()))?;
    Ok(modules)
}

/// The pg version package.json pins.
fn pg_version(manifest: &str) -> Result<String, String> {
    let json: serde_json::Value =
        serde_json::from_str(manifest).map_err(|e| format!("tests/node/package.json: {e}"))?;
    json["dependencies"]["pg"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| "tests/node/package.json names no pg version".to_owned())
}
