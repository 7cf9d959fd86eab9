//! The PostgreSQL protocol spoken badly, over raw sockets: malformed, truncated and
//! oversized messages get 08P01 and the connection closes, a client that does not
//! finish startup is closed, and shutdown tells each client as PostgreSQL does.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::TestServer;

/// A raw connection that has finished startup.
struct Raw {
    socket: TcpStream,
}

fn message(tag: u8, body: &[u8]) -> Vec<u8> {
    let mut out = vec![tag];
    out.extend_from_slice(&(body.len() as i32 + 4).to_be_bytes());
    out.extend_from_slice(body);
    out
}

impl Raw {
    fn connect(server: &TestServer) -> Raw {
        let mut socket = TcpStream::connect(server.pg).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut body = vec![0, 3, 0, 0];
        body.extend_from_slice(b"user\0postgres\0database\0litewire\0\0");
        let mut startup = (body.len() as i32 + 4).to_be_bytes().to_vec();
        startup.extend_from_slice(&body);
        socket.write_all(&startup).unwrap();
        let mut raw = Raw { socket };
        raw.until(b'Z');
        raw
    }

    /// Reads one backend message: its tag and body; `None` once the server closed.
    fn read(&mut self) -> Option<(u8, Vec<u8>)> {
        let mut head = [0u8; 5];
        self.socket.read_exact(&mut head).ok()?;
        let length = i32::from_be_bytes([head[1], head[2], head[3], head[4]]) as usize;
        let mut body = vec![0u8; length - 4];
        self.socket.read_exact(&mut body).ok()?;
        Some((head[0], body))
    }

    /// Reads messages up to and including one tagged `tag`; returns them all.
    fn until(&mut self, tag: u8) -> Vec<(u8, Vec<u8>)> {
        let mut seen = Vec::new();
        loop {
            let message = self.read().expect("the server closed the connection");
            let done = message.0 == tag;
            seen.push(message);
            if done {
                return seen;
            }
        }
    }

    /// Expects an ErrorResponse with `severity` and `code`, then the end of the
    /// connection; returns the error's message.
    fn expect_fatal(&mut self, code: &str) -> String {
        let (tag, body) = self.read().expect("an ErrorResponse");
        assert_eq!(tag, b'E', "{}", String::from_utf8_lossy(&body));
        let fields = error_fields(&body);
        assert_eq!(field(&fields, b'S'), "FATAL", "{fields:?}");
        assert_eq!(field(&fields, b'C'), code, "{fields:?}");
        assert!(self.read().is_none(), "the connection must be closed");
        field(&fields, b'M')
    }
}

fn error_fields(body: &[u8]) -> Vec<(u8, String)> {
    body.split(|&b| b == 0)
        .filter(|f| !f.is_empty())
        .map(|f| (f[0], String::from_utf8_lossy(&f[1..]).into_owned()))
        .collect()
}

fn field(fields: &[(u8, String)], kind: u8) -> String {
    fields
        .iter()
        .find(|(k, _)| *k == kind)
        .map(|(_, v)| v.clone())
        .unwrap_or_default()
}

/// Sends `bytes` on a fresh connection and expects 08P01 and a closed connection.
fn violation(server: &TestServer, bytes: &[u8]) -> String {
    let mut raw = Raw::connect(server);
    raw.socket.write_all(bytes).unwrap();
    raw.expect_fatal("08P01")
}

/// The server still serves an ordinary client.
fn still_serves(server: &TestServer) {
    let output = server.psql(&["-At", "-c", "SELECT 40 + 2"]);
    assert_eq!(common::stdout(&output).trim(), "42", "{output:?}");
}

#[test]
fn truncated_and_inconsistent_messages_get_protocol_violation() {
    let server = TestServer::start("shared", &[]);
    // A Parse that ends inside its parameter types (pgwire's decoder panicked).
    violation(&server, &message(b'P', b"s\0SELECT $1\0\0\x05\0\0"));
    // A Bind that ends inside a parameter value.
    violation(&server, &message(b'B', b"\0\0\0\0\0\x01\0\0\0\x10ab"));
    // A Bind that claims more formats than it has.
    violation(&server, &message(b'B', b"\0\0\0\x07"));
    // A Query whose length says 2: its text would come from the next message.
    let mut bytes = b"Q\0\0\0\x02".to_vec();
    bytes.extend_from_slice(&message(b'Q', b"SELECT 1\0"));
    violation(&server, &bytes);
    // A Query without its terminating NUL, a Sync with a body, an unknown type.
    violation(&server, &message(b'Q', b"SELECT 1"));
    violation(&server, &message(b'S', b"junk"));
    let said = violation(&server, &message(b'F', b"\0\0\0\0"));
    assert!(said.contains("invalid frontend message type"), "{said}");
    // Many of them do not cost the server anything.
    for _ in 0..50 {
        violation(&server, &message(b'P', b"s\0"));
    }
    still_serves(&server);
}

#[test]
fn oversized_messages_are_refused_from_their_header() {
    let server = TestServer::start("shared", &["--max-message-bytes", "100000"]);
    let mut raw = Raw::connect(&server);
    // Claims 1 GB and sends only its header: refused at once.
    let started = Instant::now();
    raw.socket
        .write_all(&[b'Q', 0x3f, 0xff, 0xff, 0xff])
        .unwrap();
    let said = raw.expect_fatal("08P01");
    assert!(said.contains("limit"), "{said}");
    assert!(started.elapsed() < Duration::from_secs(5));
    // Under the limit is fine.
    let mut raw = Raw::connect(&server);
    let mut sql = b"SELECT '".to_vec();
    sql.extend(std::iter::repeat_n(b'x', 50_000));
    sql.extend_from_slice(b"' IS NOT NULL\0");
    raw.socket.write_all(&message(b'Q', &sql)).unwrap();
    let replies = raw.until(b'Z');
    assert!(replies.iter().any(|(tag, _)| *tag == b'D'));
    still_serves(&server);
}

#[test]
fn bad_startup_packets_and_silent_clients_are_closed() {
    let server = TestServer::start("shared", &["--startup-timeout-ms", "300"]);
    // A startup packet of an unknown protocol.
    let mut socket = TcpStream::connect(server.pg).unwrap();
    socket
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    socket.write_all(&[0, 0, 0, 8, 0, 9, 0, 0]).unwrap();
    let mut reply = Vec::new();
    let _ = socket.read_to_end(&mut reply);
    assert_eq!(reply.first(), Some(&b'E'), "{reply:?}");
    assert!(String::from_utf8_lossy(&reply).contains("08P01"));

    // A client that connects and says nothing, or stops halfway through startup.
    for partial in [&b""[..], &[0, 0, 0, 40, 0, 3, 0, 0, b'u']] {
        let started = Instant::now();
        let mut socket = TcpStream::connect(server.pg).unwrap();
        socket
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        socket.write_all(partial).unwrap();
        let mut rest = Vec::new();
        let _ = socket.read_to_end(&mut rest);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "closed after {:?}",
            started.elapsed()
        );
    }
    still_serves(&server);
}

#[test]
fn shutdown_tells_idle_clients_and_stops_running_statements() {
    let mut server = TestServer::start("shared", &["--shutdown-grace-ms", "500"]);
    let setup = server.psql(&["-c", "CREATE TABLE t (a int)"]);
    assert!(setup.status.success(), "{setup:?}");
    let mut idle = Raw::connect(&server);
    // One inside a transaction, with a write the shutdown must roll back.
    let mut writer = Raw::connect(&server);
    writer
        .socket
        .write_all(&message(b'Q', b"BEGIN; INSERT INTO t VALUES (1)\0"))
        .unwrap();
    writer.until(b'Z');
    // One running a statement that never ends.
    let mut busy = Raw::connect(&server);
    busy.socket
        .write_all(&message(
            b'Q',
            b"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c\0",
        ))
        .unwrap();
    std::thread::sleep(Duration::from_millis(300));

    let started = Instant::now();
    let status = server.stop();
    assert!(status.success(), "{status:?}");
    assert!(
        started.elapsed() < Duration::from_millis(1500 + 1000),
        "stopped after {:?}",
        started.elapsed()
    );
    let said = idle.expect_fatal("57P01");
    assert_eq!(said, "terminating connection due to administrator command");
    writer.expect_fatal("57P01");
    // The running statement's client is told too (once it was stopped).
    let mut fatal = false;
    while let Some((tag, body)) = busy.read() {
        if tag == b'E' {
            let fields = error_fields(&body);
            assert_eq!(field(&fields, b'C'), "57P01", "{fields:?}");
            fatal |= field(&fields, b'S') == "FATAL";
        }
    }
    assert!(fatal);

    // The open transaction rolled back; the WAL was checkpointed into the file.
    let wal = server.db.with_extension("db-wal");
    assert!(
        std::fs::metadata(&wal).map_or(true, |m| m.len() == 0),
        "WAL left behind"
    );
    let output = std::process::Command::new("sqlite3")
        .arg(&server.db)
        .arg("SELECT count(*) FROM t; PRAGMA integrity_check;")
        .output()
        .unwrap();
    assert_eq!(common::stdout(&output), "0\nok\n");
}
