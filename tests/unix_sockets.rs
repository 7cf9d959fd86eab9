//! The PostgreSQL port on a Unix-domain socket (`--pg-socket-dir`), as
//! PostgreSQL offers it: psql and tokio-postgres connect through
//! `DIR/.s.PGSQL.<port>`, a cancel arrives the same way, an SSLRequest there is
//! answered `N`, the lock file keeps a second server off the socket while its
//! owner lives and hands over the files of one that died, and both files go at
//! shutdown.

mod common;

use std::io::{Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use common::{CACHE_MODES, TestServer, stderr, stdout};

/// A server listening on a socket in a directory of its own (inside its
/// temporary directory, so the path stays short enough for a socket).
fn start(cache: &str, extra: &[&str]) -> (TestServer, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let sockets = dir.path().join("s");
    std::fs::create_dir(&sockets).expect("socket dir");
    let db = dir.path().join("test.db");
    let mut args = vec!["--pg-socket-dir", sockets.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    let server = TestServer::start_at(dir, db, cache, &args);
    (server, sockets)
}

/// psql through the socket in `sockets`.
fn psql_local(sockets: &Path, port: u16, sql: &str) -> Output {
    Command::new("psql")
        .args([
            "-X",
            "-A",
            "-t",
            "-q",
            "-v",
            "ON_ERROR_STOP=1",
            "-U",
            "postgres",
        ])
        .args(["-d", "litewire", "-p", &port.to_string(), "-c", sql])
        .arg("-h")
        .arg(sockets)
        .env("PGCONNECT_TIMEOUT", "10")
        .env_remove("PGHOST")
        .output()
        .expect("run psql")
}

fn socket_files(sockets: &Path, port: u16) -> (PathBuf, PathBuf) {
    (
        sockets.join(format!(".s.PGSQL.{port}")),
        sockets.join(format!(".s.PGSQL.{port}.lock")),
    )
}

#[test]
fn psql_connects_through_the_socket_and_is_shown_as_local() {
    for cache in CACHE_MODES {
        let (mut server, sockets) = start(cache, &["--log-connections"]);
        let port = server.pg.port();
        let (socket, lock) = socket_files(&sockets, port);
        // PostgreSQL's default mode for the socket, and a lock file with our pid first.
        let mode = std::fs::metadata(&socket)
            .expect("socket file")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o777, "{cache}");
        let locked = std::fs::read_to_string(&lock).expect("lock file");
        assert_eq!(
            locked.lines().next(),
            Some(server.pid().to_string().as_str()),
            "{cache}"
        );

        let out = psql_local(
            &sockets,
            port,
            "CREATE TABLE t (n int); INSERT INTO t VALUES (1), (2); \
             SELECT sum(n) FROM t;",
        );
        assert_eq!(stdout(&out).trim(), "3", "{cache}: {}", stderr(&out));
        let dir_setting = psql_local(&sockets, port, "SHOW unix_socket_directories");
        assert_eq!(
            stdout(&dir_setting).trim(),
            sockets.display().to_string(),
            "{cache}"
        );
        let seen = psql_local(
            &sockets,
            port,
            "SELECT client_addr IS NULL, client_port FROM pg_stat_activity WHERE pid = pg_backend_pid()",
        );
        assert_eq!(stdout(&seen).trim(), "t|-1", "{cache}: {}", stderr(&seen));
        // The client's address and port: none on the socket, as PostgreSQL has them.
        let client = psql_local(
            &sockets,
            port,
            "SELECT inet_client_addr() IS NULL, inet_client_port() IS NULL",
        );
        assert_eq!(
            stdout(&client).trim(),
            "t|t",
            "{cache}: {}",
            stderr(&client)
        );
        // The same database over TCP.
        let tcp = server.psql(&["-A", "-t", "-c", "SELECT count(*) FROM t"]);
        assert_eq!(stdout(&tcp).trim(), "2", "{cache}: {}", stderr(&tcp));
        let client = server.psql(&[
            "-A",
            "-t",
            "-c",
            "SELECT inet_client_addr(), inet_client_port() BETWEEN 1 AND 65535, \
             inet_client_port() = (SELECT client_port FROM pg_stat_activity WHERE pid = pg_backend_pid())",
        ]);
        assert_eq!(
            stdout(&client).trim(),
            "127.0.0.1|t|t",
            "{cache}: {}",
            stderr(&client)
        );
        assert!(
            server
                .logs()
                .iter()
                .any(|line| line.contains("connection received: host=[local]")),
            "{cache}: {:?}",
            server.logs()
        );

        // A clean shutdown takes both files away.
        assert!(server.stop().success(), "{cache}");
        assert!(!socket.exists() && !lock.exists(), "{cache}");
    }
}

#[tokio::test]
async fn a_cancel_arrives_through_the_socket() {
    let (server, sockets) = start("shared", &[]);
    let config = format!(
        "host={} port={} user=postgres dbname=litewire",
        sockets.display(),
        server.pg.port()
    );
    let (client, connection) = tokio_postgres::connect(&config, tokio_postgres::NoTls)
        .await
        .expect("connect through the socket");
    tokio::spawn(async move {
        let _ = connection.await;
    });
    let cancel = client.cancel_token();
    let canceller = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(300)).await;
        cancel.cancel_query(tokio_postgres::NoTls).await
    });
    let error = client
        .simple_query("SELECT pg_sleep(30)")
        .await
        .expect_err("canceled");
    assert_eq!(
        error.code().map(|code| code.code()),
        Some("57014"),
        "{error}"
    );
    canceller.await.expect("join").expect("cancel request sent");
    let rows = client
        .query_one("SELECT 40 + 2", &[])
        .await
        .expect("after the cancel");
    assert_eq!(rows.get::<_, i32>(0), 42);
}

/// An SSLRequest, then a GSSENCRequest, each answered `N`, then a startup
/// that logs in: what a driver asking for encryption on a socket sees.
#[test]
fn encryption_requests_on_the_socket_are_refused_and_startup_goes_on() {
    let (server, sockets) = start("shared", &[]);
    let (socket, _) = socket_files(&sockets, server.pg.port());
    let mut stream = UnixStream::connect(&socket).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    for code in [80_877_103_i32, 80_877_104] {
        let mut request = 8_i32.to_be_bytes().to_vec();
        request.extend_from_slice(&code.to_be_bytes());
        stream.write_all(&request).expect("request");
        let mut answer = [0u8; 1];
        stream.read_exact(&mut answer).expect("answer");
        assert_eq!(&answer, b"N", "code {code}");
    }
    let mut body = 196_608_i32.to_be_bytes().to_vec();
    for part in ["user", "postgres", "database", "litewire", ""] {
        body.extend_from_slice(part.as_bytes());
        body.push(0);
    }
    let mut startup = (body.len() as i32 + 4).to_be_bytes().to_vec();
    startup.extend_from_slice(&body);
    stream.write_all(&startup).expect("startup");
    let mut head = [0u8; 9];
    stream.read_exact(&mut head).expect("authentication");
    // AuthenticationOk: 'R', length 8, code 0.
    assert_eq!(head, [b'R', 0, 0, 0, 8, 0, 0, 0, 0]);
}

/// A litewire of its own on `listen`, with its socket in `sockets`.
fn litewire_in(sockets: &Path, db: &str, listen: &str, extra: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_litewire"));
    command
        .arg("--db")
        .arg(sockets.join(db))
        .args(["--pg-listen", listen, "--http-listen", "127.0.0.1:0"])
        .arg("--pg-socket-dir")
        .arg(sockets)
        .args(extra)
        .stdin(Stdio::null());
    command
}

/// Whether psql gets in through the socket for `port` within 10 s.
fn answers_within(sockets: &Path, port: u16) -> bool {
    (0..100).any(|_| {
        let answered = psql_local(sockets, port, "SELECT 1").status.success();
        if !answered {
            std::thread::sleep(Duration::from_millis(100));
        }
        answered
    })
}

/// Starts a litewire on `(host, port)` whose socket in `sockets` another
/// server left, and checks that it answers there and holds the lock.
fn takes_over(sockets: &Path, db: &str, (host, port): (&str, u16), extra: &[&str]) -> KillOnDrop {
    let child = litewire_in(sockets, db, &format!("{host}:{port}"), extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run litewire");
    let child = KillOnDrop(child);
    assert!(
        answers_within(sockets, port),
        "the socket of port {port} was not taken over"
    );
    let (_, lock) = socket_files(sockets, port);
    let locked = std::fs::read_to_string(&lock).expect("lock");
    assert_eq!(
        locked.lines().next(),
        Some(child.0.id().to_string().as_str())
    );
    child
}

#[test]
fn the_lock_keeps_a_second_server_off_and_a_dead_owners_files_are_taken_over() {
    let (server, sockets) = start("shared", &[]);
    let port = server.pg.port();
    let (socket, lock) = socket_files(&sockets, port);
    // Another server on the same port number (another loopback address) and
    // directory: refused while the first one lives.
    let second = litewire_in(&sockets, "other.db", &format!("127.0.0.2:{port}"), &[])
        .output()
        .expect("run a second litewire");
    assert!(!second.status.success());
    let said = stderr(&second);
    assert!(
        said.contains(&format!("PID {}", server.pid())) && said.contains("lock file"),
        "{said}"
    );
    assert!(psql_local(&sockets, port, "SELECT 1").status.success());

    // Killed, it leaves both files; the next server on the same port takes
    // them over, with the mode it is given.
    let (_dir, _db) = server.kill();
    assert!(socket.exists() && lock.exists());
    let _next = takes_over(
        &sockets,
        "other.db",
        ("127.0.0.1", port),
        &["--pg-socket-permissions", "0700"],
    );
    let mode = std::fs::metadata(&socket)
        .expect("socket")
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o700);

    // A lock whose owner is gone, and a socket file, left by a crash.
    let stale_port = port.wrapping_add(1).max(1024);
    let (stale_socket, stale_lock) = socket_files(&sockets, stale_port);
    let mut gone = Command::new("true").spawn().expect("spawn");
    let gone_pid = gone.id();
    gone.wait().expect("wait");
    std::fs::write(
        &stale_lock,
        format!("{gone_pid}\n/elsewhere\n0\n{stale_port}\n"),
    )
    .expect("lock");
    std::fs::write(&stale_socket, "").expect("stale socket");
    let _taken = takes_over(&sockets, "third.db", ("127.0.0.3", stale_port), &[]);
}

struct KillOnDrop(std::process::Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn tls_required_on_tcp_still_lets_the_local_socket_in() {
    let (server, sockets) = start("shared", &["--tls-self-signed", "--pg-require-tls"]);
    let plain = Command::new("psql")
        .args([
            "-X",
            "-A",
            "-t",
            "-U",
            "postgres",
            "-d",
            "litewire",
            "-h",
            "127.0.0.1",
        ])
        .args(["-p", &server.pg.port().to_string(), "-c", "SELECT 1"])
        .env("PGSSLMODE", "disable")
        .output()
        .expect("psql");
    assert!(!plain.status.success());
    assert!(stderr(&plain).contains("only TLS"), "{}", stderr(&plain));
    let local = psql_local(&sockets, server.pg.port(), "SELECT 1");
    assert_eq!(stdout(&local).trim(), "1", "{}", stderr(&local));
}

#[test]
fn a_missing_directory_stops_startup_with_a_clear_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let missing = dir.path().join("nowhere");
    let out = Command::new(env!("CARGO_BIN_EXE_litewire"))
        .arg("--db")
        .arg(dir.path().join("t.db"))
        .args(["--pg-listen", "127.0.0.1:0", "--http-listen", "127.0.0.1:0"])
        .arg("--unix-socket-directories")
        .arg(&missing)
        .stdin(Stdio::null())
        .output()
        .expect("run litewire");
    assert!(!out.status.success());
    let said = stderr(&out);
    assert!(
        said.contains("could not create a Unix-domain socket in directory")
            && said.contains("nowhere"),
        "{said}"
    );
}
