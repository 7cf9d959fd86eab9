//! A PostgreSQL 15 of a test's own: a cluster made with `initdb` in a
//! temporary directory, serving on a free loopback port, stopped when dropped.
//! As root, the server runs as the `postgres` user (PostgreSQL refuses root).

use std::path::PathBuf;
use std::process::{Command, Output};

use super::{stderr, stdout};

pub struct ScratchPostgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub port: u16,
}

impl ScratchPostgres {
    pub fn start() -> ScratchPostgres {
        let bindir = Command::new("pg_config")
            .arg("--bindir")
            .output()
            .expect("pg_config (is postgresql-15 installed?)");
        let bin = PathBuf::from(stdout(&bindir).trim());
        let dir = tempfile::tempdir().expect("temp dir");
        // The server's user must reach it.
        set_mode(dir.path(), 0o777);
        let data = dir.path().join("data");
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|listener| listener.local_addr())
            .expect("a free port")
            .port();
        let out = as_server_user(
            &bin.join("initdb"),
            &[
                "-D",
                &data.to_string_lossy(),
                "-U",
                "postgres",
                "-A",
                "trust",
                "-E",
                "UTF8",
                "--locale=C.UTF-8",
            ],
        );
        assert!(
            out.status.success(),
            "initdb: {}{}",
            stdout(&out),
            stderr(&out)
        );
        let options = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            dir.path().display()
        );
        let out = as_server_user(
            &bin.join("pg_ctl"),
            &[
                "-D",
                &data.to_string_lossy(),
                "-l",
                &dir.path().join("log").to_string_lossy(),
                "-o",
                &options,
                "-w",
                "start",
            ],
        );
        assert!(
            out.status.success(),
            "pg_ctl start: {}{}",
            stdout(&out),
            stderr(&out)
        );
        ScratchPostgres { dir, bin, port }
    }

    /// `psql` against database `db` with `args`.
    pub fn psql(&self, db: &str, args: &[&str]) -> Output {
        let mut command = Command::new("psql");
        super::clients::without_pg_environment(&mut command)
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "postgres",
            ])
            .args(["-X", "-d", db])
            .args(args)
            .output()
            .expect("run psql")
    }

    /// Runs `sql` in `db`, stopping at the first error.
    pub fn run(&self, db: &str, sql: &str) {
        let out = self.psql(db, &["-v", "ON_ERROR_STOP=1", "-q", "-c", sql]);
        assert!(out.status.success(), "{sql}: {}", stderr(&out));
    }
}

impl Drop for ScratchPostgres {
    fn drop(&mut self) {
        let data = self.dir.path().join("data");
        let _ = as_server_user(
            &self.bin.join("pg_ctl"),
            &["-D", &data.to_string_lossy(), "-m", "immediate", "stop"],
        );
    }
}

fn set_mode(path: &std::path::Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// Runs a server program, as `postgres` when the test runs as root.
fn as_server_user(program: &std::path::Path, args: &[&str]) -> Output {
    let root = Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|out| stdout(&out).trim() == "0");
    let mut command = if root {
        let mut command = Command::new("runuser");
        command.args(["-u", "postgres", "--"]).arg(program);
        command
    } else {
        Command::new(program)
    };
    command
        .args(args)
        .env_remove("PGDATA")
        .current_dir("/")
        .output()
        .expect("run a PostgreSQL server program")
}
