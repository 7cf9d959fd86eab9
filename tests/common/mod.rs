//! A real litewire process on ephemeral loopback ports, over a real SQLite file,
//! and the clients the tests drive it with.
#![allow(dead_code)]

pub mod clients;
pub mod python;
pub mod scratch_postgres;
pub mod target;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{Arc, Mutex, mpsc};
use std::time::Duration;

use serde_json::Value as Json;

/// The two page-cache modes every behaviour is tested in.
pub const CACHE_MODES: [&str; 2] = ["shared", "private"];

pub struct TestServer {
    child: Option<Child>,
    pub pg: SocketAddr,
    pub http: SocketAddr,
    pub dir: tempfile::TempDir,
    pub db: PathBuf,
    logs: Arc<Mutex<Vec<String>>>,
}

impl TestServer {
    /// Starts litewire with `--cache <cache>` and any extra flags.
    pub fn start(cache: &str, extra: &[&str]) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("test.db");
        Self::start_at(dir, db, cache, extra)
    }

    /// Starts litewire on an existing database file.
    pub fn start_at(
        dir: tempfile::TempDir,
        db: PathBuf,
        cache: &str,
        extra: &[&str],
    ) -> TestServer {
        let mut child = Command::new(env!("CARGO_BIN_EXE_litewire"))
            .arg("--db")
            .arg(&db)
            .args([
                "--pg-listen",
                "127.0.0.1:0",
                "--http-listen",
                "127.0.0.1:0",
                "--cache",
                cache,
            ])
            .args(extra)
            .env_remove("RUST_LOG")
            .env("LITEWIRE_LOG_LEVEL", "info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn litewire");
        let stderr = child.stderr.take().expect("stderr");
        let logs = Arc::new(Mutex::new(Vec::new()));
        let (ready_tx, ready_rx) = mpsc::channel();
        let sink = logs.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                // Kept before it is announced: `logs()` has it once started.
                sink.lock().unwrap().push(line.clone());
                if line.contains("litewire is serving") {
                    let _ = ready_tx.send(line);
                }
            }
        });
        let line = ready_rx
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| panic!("litewire did not start: {:?}", logs.lock().unwrap()));
        TestServer {
            child: Some(child),
            pg: field(&line, "postgres"),
            http: field(&line, "http"),
            dir,
            db,
            logs,
        }
    }

    pub fn logs(&self) -> Vec<String> {
        self.logs.lock().unwrap().clone()
    }

    /// Runs `psql` against the server with `args` (e.g. `-c`, SQL), returning its output.
    pub fn psql(&self, args: &[&str]) -> Output {
        Command::new("psql")
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.pg.port().to_string(),
                "-U",
                "postgres",
                "-d",
                "litewire",
            ])
            .args(["-X", "-v", "ON_ERROR_STOP=1"])
            .args(args)
            .env("PGCONNECT_TIMEOUT", "10")
            .output()
            .expect("run psql (is postgresql-client installed?)")
    }

    /// A connected tokio-postgres client; its connection task runs in the background.
    pub async fn connect(&self) -> (tokio_postgres::Client, tokio::task::JoinHandle<()>) {
        self.connect_as("postgres").await
    }

    /// A connected tokio-postgres client logged in as `user` (trust mode).
    pub async fn connect_as(
        &self,
        user: &str,
    ) -> (tokio_postgres::Client, tokio::task::JoinHandle<()>) {
        let config = format!(
            "host=127.0.0.1 port={} user={user} dbname=litewire",
            self.pg.port()
        );
        let (client, connection) = tokio_postgres::connect(&config, tokio_postgres::NoTls)
            .await
            .expect("connect with tokio-postgres");
        let task = tokio::spawn(async move {
            let _ = connection.await;
        });
        (client, task)
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.http, path)
    }

    /// POSTs `body` to `/` with the given Content-Type; returns status and JSON.
    pub async fn post(&self, body: &str, content_type: Option<&str>) -> (u16, Json) {
        let mut request = reqwest::Client::new()
            .post(self.url("/"))
            .body(body.to_owned());
        if let Some(content_type) = content_type {
            request = request.header("Content-Type", content_type);
        }
        let response = request.send().await.expect("POST /");
        let status = response.status().as_u16();
        let json = response.json().await.expect("JSON response");
        (status, json)
    }

    /// Runs one SQL statement over HTTP and returns its `results` object.
    pub async fn http_query(&self, sql: &str) -> Json {
        let body = serde_json::json!({ "statements": [sql] }).to_string();
        let (status, json) = self.post(&body, Some("application/json")).await;
        assert_eq!(status, 200, "{json}");
        json[0]["results"].clone()
    }

    pub async fn get(&self, path: &str) -> (u16, Json) {
        let response = reqwest::get(self.url(path)).await.expect("GET");
        let status = response.status().as_u16();
        (status, response.json().await.expect("JSON"))
    }

    /// Sends SIGTERM and waits for the process to exit; returns its exit status.
    pub fn stop(&mut self) -> std::process::ExitStatus {
        let mut child = self.child.take().expect("server running");
        let pid = child.id().to_string();
        let _ = Command::new("kill").args(["-TERM", &pid]).status();
        for _ in 0..300 {
            if let Some(status) = child.try_wait().expect("wait") {
                return status;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        panic!("litewire did not stop within 15 s of SIGTERM");
    }

    /// The server process's id.
    pub fn pid(&self) -> u32 {
        self.child.as_ref().expect("server running").id()
    }

    /// The server's peak resident memory so far (`VmHWM`), in KiB.
    pub fn peak_rss_kib(&self) -> u64 {
        self.status("VmHWM")
    }

    /// The server's threads now.
    pub fn threads(&self) -> u64 {
        self.status("Threads")
    }

    /// Whether the kernel may give the server transparent huge pages
    /// (`THP_enabled`: 1 or 0).
    pub fn huge_pages_allowed(&self) -> u64 {
        self.status("THP_enabled")
    }

    /// The server's anonymous memory in transparent huge pages, in KiB.
    pub fn anon_huge_pages_kib(&self) -> u64 {
        let rollup = std::fs::read_to_string(format!("/proc/{}/smaps_rollup", self.pid()))
            .expect("read /proc/PID/smaps_rollup");
        rollup
            .lines()
            .find_map(|line| line.strip_prefix("AnonHugePages:"))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .expect("AnonHugePages in /proc/PID/smaps_rollup")
    }

    /// A number of `/proc/PID/status` (`VmHWM`, `Threads`), without its unit.
    fn status(&self, field: &str) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.pid()))
            .expect("read /proc/PID/status");
        status
            .lines()
            .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
            .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or_else(|| panic!("{field} in /proc/PID/status"))
    }

    /// Kills the server with SIGKILL (no shutdown at all) and hands back its
    /// directory and database file, to start another server on them.
    pub fn kill(mut self) -> (tempfile::TempDir, PathBuf) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
        let dir = std::mem::replace(&mut self.dir, tempfile::tempdir().expect("temp dir"));
        (dir, self.db.clone())
    }

    pub fn db_path(&self) -> &Path {
        &self.db
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The address logged as `key`, in a text line (`key=...`) or a JSON one
/// (`"key":"..."`).
fn field(line: &str, key: &str) -> SocketAddr {
    let (text, json) = (format!("{key}="), format!("\"{key}\":\""));
    let start = match line.find(&text) {
        Some(at) => at + text.len(),
        None => {
            line.find(&json)
                .unwrap_or_else(|| panic!("no {key} in {line}"))
                + json.len()
        }
    };
    let rest = &line[start..];
    let end = rest
        .find(|c: char| c.is_whitespace() || c == '"')
        .unwrap_or(rest.len());
    rest[..end]
        .parse()
        .unwrap_or_else(|_| panic!("bad address in {line}"))
}

pub fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

pub fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// Runs each named `async fn(cache: &str)` as two tests, one per cache mode.
#[macro_export]
macro_rules! in_both_cache_modes {
    ($($name:ident),* $(,)?) => {
        $(
            mod $name {
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn shared() {
                    super::$name("shared").await
                }

                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn private() {
                    super::$name("private").await
                }
            }
        )*
    };
}

/// The SQLSTATE `sql` fails with; panics if it succeeds or carries none.
pub async fn sqlstate(client: &tokio_postgres::Client, sql: &str) -> String {
    let error = client
        .batch_execute(sql)
        .await
        .expect_err(&format!("{sql} should fail"));
    error
        .code()
        .map(|c| c.code().to_owned())
        .unwrap_or_else(|| panic!("{sql}: no SQLSTATE in {error:?}"))
}

/// The rows of a simple query in text format, NULL as `None`.
pub async fn text_rows(client: &tokio_postgres::Client, sql: &str) -> Vec<Vec<Option<String>>> {
    client
        .simple_query(sql)
        .await
        .unwrap_or_else(|e| panic!("{sql}: {e:?}"))
        .into_iter()
        .filter_map(|message| match message {
            tokio_postgres::SimpleQueryMessage::Row(row) => Some(
                (0..row.len())
                    .map(|i| row.get(i).map(str::to_owned))
                    .collect(),
            ),
            _ => None,
        })
        .collect()
}
