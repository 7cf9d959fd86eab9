//! Client programs from other ecosystems that tests drive a server with: npm
//! packages installed once into `target/` (the virtualenv is `python`'s), and
//! any client run to completion with its output shown when it fails.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use super::TestServer;

/// Clears every PG* variable (PGPASSWORD, PGSSLMODE, PGOPTIONS, ...) from
/// `command`'s environment: libpq and the drivers read them, and none of the
/// caller's may leak into a test.
pub fn without_pg_environment(command: &mut Command) -> &mut Command {
    for (key, _) in std::env::vars_os() {
        if key.to_string_lossy().starts_with("PG") {
            command.env_remove(key);
        }
    }
    command
}

/// Longest a client program may run; a hung one is killed and its output shown.
const DEADLINE: Duration = Duration::from_secs(120);

/// Runs `command` (a client pointed at `server`) until it exits and returns its
/// output (stdout and stderr); panics with it and the server's last log lines
/// unless it succeeds.
pub fn run_to_success(mut command: Command, server: &TestServer, what: &str) -> String {
    let log_path = server.dir.path().join("client.log");
    let log = File::create(&log_path).expect("client log file");
    let mut child = command
        .stdin(Stdio::null())
        .stdout(log.try_clone().expect("client log file"))
        .stderr(log)
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {what}: {e}"));
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait for the client") {
            break Some(status);
        }
        if started.elapsed() > DEADLINE {
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
            return output;
        }
        Some(status) => format!("failed ({status})"),
        None => format!("did not finish within {DEADLINE:?}"),
    };
    let logs = server.logs();
    let tail = &logs[logs.len().saturating_sub(30)..];
    panic!(
        "{what} {verdict}:\n{output}\n--- last server log lines ---\n{}",
        tail.join("\n")
    );
}

/// `target/node-clients/node_modules`: the npm packages `tests/js/package.json`
/// pins, installed on first use; `run-tests` installs the same.
pub fn node_modules() -> PathBuf {
    static MODULES: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    MODULES
        .get_or_init(|| {
            let manifest = source_dir().join("tests/js/package.json");
            installed("node-clients", &manifest, |staging| {
                std::fs::create_dir_all(staging)
                    .and_then(|()| std::fs::copy(&manifest, staging.join("package.json")))
                    .map_err(|e| format!("prepare {}: {e}", staging.display()))?;
                // No install scripts: Prisma's would download engines this
                // machine cannot reach, and none of the clients needs one.
                let npm = run(Command::new("npm")
                    .args([
                        "install",
                        "--no-fund",
                        "--no-audit",
                        "--silent",
                        "--ignore-scripts",
                        "--prefix",
                    ])
                    .arg(staging));
                if !npm.as_ref().is_ok_and(|o| o.status.success()) {
                    return Err(format!(
                        "cannot install {} with npm (apt-get install npm; is the registry \
                         reachable?): {}",
                        manifest.display(),
                        describe(&npm)
                    ));
                }
                Ok(())
            })
            .map(|prefix| prefix.join("node_modules"))
        })
        .clone()
        .unwrap_or_else(|error| panic!("{error}"))
}

/// `target/node-clients/prisma/client`: the Prisma client of the models in
/// `tests/js/prisma/schema.prisma`, generated on first use by the `prisma`
/// that `tests/js/package.json` pins. Generating needs no engine binary (the
/// client is Prisma 7's, with no query engine); the variable tells the CLI
/// so, as it would fetch its schema engine otherwise.
pub fn prisma_client() -> PathBuf {
    static CLIENT: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    CLIENT
        .get_or_init(|| {
            let modules = node_modules();
            let schema = source_dir().join("tests/js/prisma/schema.prisma");
            // Inside the npm install, where the CLI finds `@prisma/client`
            // (and which a new install replaces, client and all).
            installed("node-clients/prisma", &schema, |staging| {
                std::fs::create_dir_all(staging)
                    .and_then(|()| std::fs::copy(&schema, staging.join("schema.prisma")))
                    .map_err(|e| format!("prepare {}: {e}", staging.display()))?;
                let generate = run(Command::new("node")
                    .arg(modules.join("prisma/build/index.js"))
                    .args(["generate", "--schema"])
                    .arg(staging.join("schema.prisma"))
                    .env("PRISMA_SCHEMA_ENGINE_BINARY", "/bin/true")
                    .env("PRISMA_HIDE_UPDATE_MESSAGE", "1")
                    .env("CHECKPOINT_DISABLE", "1")
                    .current_dir(staging));
                match generate.as_ref().is_ok_and(|o| o.status.success()) {
                    true => Ok(()),
                    false => Err(format!("prisma generate: {}", describe(&generate))),
                }
            })
            .map(|dir| dir.join("client"))
        })
        .clone()
        .unwrap_or_else(|error| panic!("{error}"))
}

pub fn source_dir() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `target/<name>`, made by `make` from `spec` unless it is ready: it is when it
/// holds a copy of `spec` (written last, so a half-made one is never taken for
/// ready). One maker at a time, across test binaries and `run-tests`; made under a
/// temporary name and renamed (npm's modules find their files relative to
/// themselves, so the rename keeps them working).
fn installed(
    name: &str,
    spec: &Path,
    make: impl FnOnce(&Path) -> Result<(), String>,
) -> Result<PathBuf, String> {
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .expect("target dir")
        .to_path_buf();
    let dir = target.join(name);
    let stamp = dir.join(STAMP);
    let wanted =
        std::fs::read_to_string(spec).map_err(|e| format!("read {}: {e}", spec.display()))?;
    let ready = || std::fs::read_to_string(&stamp).ok().as_deref() == Some(&wanted);
    if ready() {
        return Ok(dir);
    }
    let lock_path = target.join(format!("{name}.lock"));
    let lock = File::create(&lock_path).map_err(|e| format!("{}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("lock {}: {e}", lock_path.display()))?;
    if ready() {
        return Ok(dir);
    }
    eprintln!("installing {} into {}", spec.display(), dir.display());
    let staging = target.join(format!("{name}.new"));
    for old in [&staging, &dir] {
        if old.exists() {
            std::fs::remove_dir_all(old).map_err(|e| format!("remove {}: {e}", old.display()))?;
        }
    }
    make(&staging)?;
    std::fs::write(staging.join(STAMP), &wanted)
        .map_err(|e| format!("write the install stamp: {e}"))?;
    std::fs::rename(&staging, &dir).map_err(|e| format!("rename {}: {e}", staging.display()))?;
    Ok(dir)
}

/// The copy of the spec an install was made from.
const STAMP: &str = ".package.json";

/// Runs `command` to its end, with nothing on its stdin.
pub fn run(command: &mut Command) -> std::io::Result<Output> {
    command.stdin(Stdio::null()).output()
}

/// A finished command's status and output, or why it could not run, for a message.
pub fn describe(result: &std::io::Result<Output>) -> String {
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

/// `node tests/js/<script>` with the npm clients on its module path, to be
/// given where the server is.
pub fn node_script(script: &str) -> Command {
    let mut command = Command::new("node");
    command
        .arg(source_dir().join("tests/js").join(script))
        .env("NODE_PATH", node_modules());
    command
}

/// `timeout 180 node tests/js/<script>`: a program that drives a server on
/// its own (a hung client fails the test rather than the run).
pub fn node_program(script: &str) -> Command {
    let mut command = Command::new("timeout");
    command
        .arg("180")
        .arg("node")
        .arg(source_dir().join("tests/js").join(script))
        .env("NODE_PATH", node_modules());
    command
}

/// Runs a program that checks a first day with a tool and prints
/// `<tool>: ok` when every check passed; fails with its output otherwise.
pub fn assert_passes(command: &mut Command, tool: &str) {
    without_pg_environment(command);
    let result = run(command);
    let output = describe(&result);
    assert!(
        result.as_ref().is_ok_and(|o| o.status.success()),
        "the {tool} program failed:\n{output}"
    );
    assert!(output.contains(&format!("{tool}: ok")), "{output}");
}

/// Debian's pgjdbc (libpostgresql-jdbc-java, which `run-tests` installs).
pub const PGJDBC_JAR: &str = "/usr/share/java/postgresql.jar";

/// `java -cp <pgjdbc> tests/jdbc/<file>`: a Java source file run with pgjdbc on
/// its class path (Java's source-file mode), to be given its arguments.
pub fn jdbc_program(file: &str) -> Command {
    assert!(
        Path::new(PGJDBC_JAR).exists(),
        "{PGJDBC_JAR} is missing: apt-get install libpostgresql-jdbc-java default-jre-headless"
    );
    let mut command = Command::new("java");
    command
        .args(["-cp", PGJDBC_JAR])
        .arg(source_dir().join("tests/jdbc").join(file));
    command
}
