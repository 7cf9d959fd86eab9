//! Users, passwords, TLS and roles against a real litewire process: psql, pgbench,
//! tokio-postgres and psycopg log in with SCRAM-SHA-256; TLS is checked with
//! `sslmode=verify-full` against a CA made here; HTTP takes Basic credentials and
//! Ed25519 tokens; read-only users and the PRAGMA rules are enforced by SQLite's
//! authorizer on both front ends.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{SystemTime, UNIX_EPOCH};

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use ring::signature::{Ed25519KeyPair, KeyPair};
use rustls_pki_types::pem::PemObject;
use serde_json::{Value as Json, json};

use common::python::venv_python;
use common::{TestServer, stderr, stdout};

const ADMIN: (&str, &str) = ("ann", "admin-pw");
const WRITER: (&str, &str) = ("bob", "writer-pw");
const READER: (&str, &str) = ("carl", "reader-pw");

/// The users file, made with `litewire passwd` as an operator would.
struct Users {
    dir: tempfile::TempDir,
    path: PathBuf,
}

fn users() -> Users {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut lines = String::new();
    for ((name, password), role) in
        [ADMIN, WRITER, READER]
            .into_iter()
            .zip(["admin", "readwrite", "readonly"])
    {
        lines.push_str(&passwd(&["passwd", name, "--role", role], password));
    }
    lines.push_str(&passwd(&["passwd", "dora", "--md5"], "old-pw"));
    let path = dir.path().join("users");
    std::fs::write(&path, lines).expect("write users file");
    Users { dir, path }
}

/// Runs `litewire <args>` with `password` on stdin; returns its line.
fn passwd(args: &[&str], password: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_litewire"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run litewire passwd");
    writeln!(child.stdin.take().expect("stdin"), "{password}").expect("write password");
    let output = child.wait_with_output().expect("litewire passwd");
    assert!(output.status.success(), "{}", stderr(&output));
    let line = stdout(&output);
    assert!(
        !line.contains(password),
        "the password is in the users file"
    );
    line
}

fn start(users: &Users, extra: &[&str]) -> TestServer {
    let mut args = vec!["--users", users.path.to_str().expect("utf-8 path")];
    args.extend_from_slice(extra);
    TestServer::start("shared", &args)
}

/// libpq with only the variables given (none of the caller's PG* leak in).
fn libpq(program: &str, password: &str) -> Command {
    let mut command = Command::new(program);
    common::clients::without_pg_environment(&mut command);
    command
        .env("PGPASSWORD", password)
        .env("PGCONNECT_TIMEOUT", "10")
        .stdin(Stdio::null());
    command
}

/// psql as `user`, with errors showing their SQLSTATE.
fn psql(server: &TestServer, (user, password): (&str, &str), args: &[&str]) -> Output {
    libpq("psql", password)
        .args(["-h", "127.0.0.1", "-p", &server.pg.port().to_string()])
        .args([
            "-U",
            user,
            "-d",
            "litewire",
            "-X",
            "-v",
            "VERBOSITY=verbose",
        ])
        .args(args)
        .output()
        .expect("run psql")
}

fn failed_login(user: &str) -> String {
    format!("password authentication failed for user \"{user}\"")
}

#[test]
fn psql_and_pgbench_log_in_with_the_right_password_only() {
    let users = users();
    let server = start(&users, &[]);
    let port = server.pg.port().to_string();

    let output = psql(&server, WRITER, &["-c", "SELECT current_user"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("bob"), "{}", stdout(&output));

    // A wrong password and an unknown user read the same.
    for (user, password) in [
        (WRITER.0, "wrong"),
        ("nobody", "wrong"),
        ("nobody", WRITER.1),
    ] {
        let output = psql(&server, (user, password), &["-c", "SELECT 1"]);
        assert!(!output.status.success());
        assert!(
            stderr(&output).contains(&format!("FATAL:  {}", failed_login(user))),
            "{}",
            stderr(&output)
        );
    }

    // pgbench -i runs DDL, COPY and VACUUM as a readwrite user.
    let pgbench = |password: &str, extra: &[&str]| {
        libpq("pgbench", password)
            .args(["-h", "127.0.0.1", "-p", &port, "-U", WRITER.0])
            .args(extra)
            .arg("litewire")
            .output()
            .expect("run pgbench")
    };
    let output = pgbench(WRITER.1, &["-i", "-s", "1"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stderr(&output).contains("vacuuming"), "{}", stderr(&output));
    let output = pgbench(WRITER.1, &["-t", "20", "-c", "2", "-M", "prepared"]);
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("number of failed transactions: 0"),
        "{}",
        stdout(&output)
    );
    let output = pgbench("wrong", &["-t", "1"]);
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains(&failed_login(WRITER.0)),
        "{}",
        stderr(&output)
    );
}

#[tokio::test]
async fn tokio_postgres_scram_and_28p01() {
    let users = users();
    let server = start(&users, &[]);
    let connect = |(user, password): (&str, &str)| {
        let config = format!(
            "host=127.0.0.1 port={} user={user} password={password} dbname=litewire",
            server.pg.port()
        );
        async move { tokio_postgres::connect(&config, tokio_postgres::NoTls).await }
    };
    let (client, connection) = connect(ADMIN).await.expect("SCRAM login");
    let task = tokio::spawn(connection);
    let row = client
        .query_one("SELECT $1::text || 'y'", &[&"x"])
        .await
        .expect("query");
    assert_eq!(row.get::<_, String>(0), "xy");
    drop(client);
    let _ = task.await;

    let wrong = connect((ADMIN.0, "nope"))
        .await
        .err()
        .expect("wrong password refused");
    let unknown = connect(("nobody", ADMIN.1))
        .await
        .err()
        .expect("unknown user refused");
    for (error, user) in [(wrong, ADMIN.0), (unknown, "nobody")] {
        let db = error.as_db_error().expect("a server error");
        assert_eq!(
            db.code(),
            &tokio_postgres::error::SqlState::INVALID_PASSWORD
        );
        assert_eq!(db.severity(), "FATAL");
        assert_eq!(db.message(), failed_login(user));
    }
}

#[test]
fn psycopg_scram() {
    let users = users();
    let server = start(&users, &[]);
    let script = r#"
import sys, psycopg
port = sys.argv[1]
with psycopg.connect(host="127.0.0.1", port=port, user="bob", password="writer-pw", dbname="litewire") as conn:
    conn.execute("CREATE TABLE py (a int)")
    conn.execute("INSERT INTO py VALUES (%s)", (7,))
    print("value", conn.execute("SELECT a FROM py").fetchone()[0])
try:
    psycopg.connect(host="127.0.0.1", port=port, user="bob", password="nope", dbname="litewire")
except psycopg.OperationalError as e:
    print("refused", e)
"#;
    let output = libpq(venv_python().to_str().expect("path"), "")
        .env_remove("PGPASSWORD")
        .args(["-c", script, &server.pg.port().to_string()])
        .output()
        .expect("run python");
    let out = stdout(&output);
    assert!(output.status.success(), "{out}{}", stderr(&output));
    assert!(out.contains("value 7"), "{out}");
    assert!(
        out.contains("refused") && out.contains(&failed_login("bob")),
        "{out}"
    );
}

#[test]
fn md5_only_when_enabled() {
    let users = users();
    let dora = ("dora", "old-pw");
    // SCRAM only (the default): a user with only an md5 verifier cannot log in.
    let server = start(&users, &[]);
    let output = psql(&server, dora, &["-c", "SELECT 1"]);
    assert!(
        stderr(&output).contains(&failed_login("dora")),
        "{}",
        stderr(&output)
    );
    drop(server);
    let server = start(&users, &["--pg-auth-methods", "scram-sha-256,md5"]);
    let output = psql(&server, dora, &["-c", "SELECT current_user"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let output = psql(&server, (dora.0, "wrong"), &["-c", "SELECT 1"]);
    assert!(
        stderr(&output).contains(&failed_login("dora")),
        "{}",
        stderr(&output)
    );
    // SCRAM users still use SCRAM.
    let output = psql(&server, WRITER, &["-c", "SELECT 1"]);
    assert!(output.status.success(), "{}", stderr(&output));
}

/// A CA and a certificate for localhost signed by it, as PEM files in `dir`.
fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let mut ca_params = rcgen::CertificateParams::new(Vec::<String>::new()).expect("CA params");
    ca_params.is_ca = rcgen::IsCa::Ca(rcgen::BasicConstraints::Unconstrained);
    ca_params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "litewire test CA");
    ca_params.key_usages = vec![
        rcgen::KeyUsagePurpose::KeyCertSign,
        rcgen::KeyUsagePurpose::CrlSign,
    ];
    let ca_key = rcgen::KeyPair::generate().expect("CA key");
    let ca = rcgen::CertifiedIssuer::self_signed(ca_params, ca_key).expect("CA certificate");
    let params =
        rcgen::CertificateParams::new(vec!["localhost".to_owned(), "127.0.0.1".to_owned()])
            .expect("server params");
    let key = rcgen::KeyPair::generate().expect("server key");
    let cert = params.signed_by(&key, &ca).expect("server certificate");
    let paths = (
        dir.join("ca.pem"),
        dir.join("server.pem"),
        dir.join("server.key"),
    );
    std::fs::write(&paths.0, ca.pem()).expect("write CA");
    std::fs::write(&paths.1, cert.pem()).expect("write certificate");
    std::fs::write(&paths.2, key.serialize_pem()).expect("write key");
    paths
}

#[test]
fn tls_verify_full_and_required() {
    let users = users();
    let (ca, cert, key) = certificates(users.dir.path());
    let server = start(
        &users,
        &[
            "--tls-cert",
            cert.to_str().expect("path"),
            "--tls-key",
            key.to_str().expect("path"),
            "--pg-require-tls",
        ],
    );
    let conninfo = |sslmode: &str| {
        format!(
            "host=localhost hostaddr=127.0.0.1 port={} user={} dbname=litewire sslmode={sslmode} \
             sslrootcert={}",
            server.pg.port(),
            WRITER.0,
            ca.display()
        )
    };
    let output = libpq("psql", WRITER.1)
        .args([
            "-X",
            &conninfo("verify-full"),
            "-c",
            "\\conninfo",
            "-c",
            "SELECT 1 AS one",
        ])
        .output()
        .expect("psql");
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(
        stdout(&output).contains("SSL connection (protocol: TLSv1.3"),
        "{}",
        stdout(&output)
    );

    // A certificate for another name fails verify-full.
    let output = libpq("psql", WRITER.1)
        .args([
            "-X",
            &conninfo("verify-full").replace("host=localhost", "host=example.org"),
            "-c",
            "SELECT 1",
        ])
        .output()
        .expect("psql");
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("does not match host name"),
        "{}",
        stderr(&output)
    );

    // Plain connections are refused once TLS is required.
    let output = libpq("psql", WRITER.1)
        .args(["-X", &conninfo("disable"), "-c", "SELECT 1"])
        .output()
        .expect("psql");
    assert!(!output.status.success());
    let err = stderr(&output);
    assert!(
        err.contains("FATAL:  28000") || err.contains("accepts only TLS"),
        "{err}"
    );

    // HTTPS on the same certificate.
    let output = Command::new("curl")
        .args([
            "-sS",
            "--cacert",
            ca.to_str().expect("path"),
            "-u",
            "bob:writer-pw",
        ])
        .args([
            "--resolve",
            &format!("localhost:{}:127.0.0.1", server.http.port()),
        ])
        .args(["-d", r#"{"statements":["SELECT 2 AS two"]}"#])
        .arg(format!("https://localhost:{}/", server.http.port()))
        .output()
        .expect("run curl");
    assert!(output.status.success(), "{}", stderr(&output));
    let answer: Json = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(answer[0]["results"]["rows"], json!([[2]]));
}

#[test]
fn tls_self_signed_logs_its_fingerprint() {
    let users = users();
    let server = start(&users, &["--tls-self-signed"]);
    let logs = server.logs().join("\n");
    assert!(
        logs.contains("self-signed certificate") && logs.contains("sha256="),
        "{logs}"
    );
    let output = libpq("psql", READER.1)
        .args([
            "-X",
            &format!(
                "host=127.0.0.1 port={} user={} dbname=litewire sslmode=require",
                server.pg.port(),
                READER.0
            ),
            "-c",
            "\\conninfo",
        ])
        .output()
        .expect("psql");
    assert!(
        stdout(&output).contains("SSL connection"),
        "{}",
        stderr(&output)
    );
}

async fn post(
    server: &TestServer,
    auth: Option<&str>,
    path: &str,
    statements: Json,
) -> (u16, Option<String>, Json) {
    let client = reqwest::Client::new();
    let mut request = if path == "/" {
        client
            .post(server.url(path))
            .body(json!({ "statements": statements }).to_string())
    } else {
        client.get(server.url(path))
    };
    if let Some(auth) = auth {
        request = request.header("Authorization", auth);
    }
    let response = request.send().await.expect("HTTP request");
    let status = response.status().as_u16();
    let challenge = response
        .headers()
        .get("www-authenticate")
        .map(|v| v.to_str().expect("header").to_owned());
    (status, challenge, response.json().await.expect("JSON body"))
}

fn basic((user, password): (&str, &str)) -> String {
    format!("Basic {}", STANDARD.encode(format!("{user}:{password}")))
}

#[tokio::test]
async fn http_needs_credentials_except_health_and_ready() {
    let users = users();
    let server = start(&users, &[]);
    let (status, challenge, body) = post(&server, None, "/", json!(["SELECT 1"])).await;
    assert_eq!(status, 401);
    assert!(
        challenge
            .expect("WWW-Authenticate")
            .starts_with("Basic realm=")
    );
    assert_eq!(body["error"], "authentication required");
    let (status, _, _) = post(&server, None, "/version", json!(null)).await;
    assert_eq!(status, 401);
    let (status, _, body) = post(&server, None, "/health", json!(null)).await;
    assert_eq!((status, body), (200, json!({"status": "ok"})));
    let (status, _, body) = post(&server, None, "/ready", json!(null)).await;
    assert_eq!((status, body), (200, json!({"status": "ready"})));

    let (status, _, body) = post(
        &server,
        Some(&basic(WRITER)),
        "/",
        json!(["SELECT 1 AS one"]),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body[0]["results"]["rows"], json!([[1]]));
    let (status, _, body) = post(&server, Some(&basic(READER)), "/version", json!(null)).await;
    assert_eq!(status, 200, "{body}");
    for wrong in [(WRITER.0, "nope"), ("nobody", "nope")] {
        let (status, challenge, body) =
            post(&server, Some(&basic(wrong)), "/", json!(["SELECT 1"])).await;
        assert_eq!(status, 401);
        assert!(challenge.is_some());
        assert_eq!(body["error"], failed_login(wrong.0));
    }
    let (status, _, _) = post(&server, Some("Basic !!!"), "/", json!(["SELECT 1"])).await;
    assert_eq!(status, 401);

    // /metrics is behind the credentials too, and counts the refusals (a
    // request without any is asked for them, not refused).
    let (status, _, _) = post(&server, None, "/metrics", json!(null)).await;
    assert_eq!(status, 401);
    let scrape = reqwest::Client::new()
        .get(server.url("/metrics"))
        .header("Authorization", basic(READER))
        .send()
        .await
        .expect("GET /metrics")
        .text()
        .await
        .expect("the scrape");
    assert!(
        scrape
            .lines()
            .any(|line| line == "litewire_login_failures_total 3"),
        "{scrape}"
    );
}

/// A JWT with `claims`, signed by `pair`.
fn token(pair: &Ed25519KeyPair, claims: Json) -> String {
    let signed = format!(
        "{}.{}",
        URL_SAFE_NO_PAD.encode(r#"{"alg":"EdDSA","typ":"JWT"}"#),
        URL_SAFE_NO_PAD.encode(claims.to_string())
    );
    format!(
        "{signed}.{}",
        URL_SAFE_NO_PAD.encode(pair.sign(signed.as_bytes()))
    )
}

fn key_pair() -> Ed25519KeyPair {
    let rng = ring::rand::SystemRandom::new();
    let pkcs8 = Ed25519KeyPair::generate_pkcs8(&rng).expect("generate key");
    Ed25519KeyPair::from_pkcs8(pkcs8.as_ref()).expect("key pair")
}

#[tokio::test]
async fn http_bearer_tokens() {
    let users = users();
    let pair = key_pair();
    // The public key as PEM (SubjectPublicKeyInfo), as `openssl pkey -pubout` writes it.
    let mut der = vec![
        0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00,
    ];
    der.extend_from_slice(pair.public_key().as_ref());
    let key_file = users.dir.path().join("jwt.pem");
    std::fs::write(
        &key_file,
        format!(
            "-----BEGIN PUBLIC KEY-----\n{}\n-----END PUBLIC KEY-----\n",
            STANDARD.encode(der)
        ),
    )
    .expect("write key");
    let server = start(
        &users,
        &["--jwt-key-file", key_file.to_str().expect("path")],
    );
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    let bearer = |claims: Json| format!("Bearer {}", token(&pair, claims));

    let rw = bearer(json!({"a": "rw", "exp": now + 600}));
    let (status, _, body) = post(
        &server,
        Some(&rw),
        "/",
        json!(["CREATE TABLE t (a)", "INSERT INTO t VALUES (1)"]),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body[1]["results"].is_object(), "{body}");

    let ro = bearer(json!({"a": "ro"}));
    let (status, _, body) = post(
        &server,
        Some(&ro),
        "/",
        json!(["SELECT a FROM t", "INSERT INTO t VALUES (2)"]),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body[0]["results"]["rows"], json!([[1]]));
    assert_eq!(
        body[1]["error"],
        "cannot execute INSERT in a read-only transaction"
    );

    let expired = bearer(json!({"a": "rw", "exp": now - 10}));
    let (status, challenge, body) = post(&server, Some(&expired), "/", json!(["SELECT 1"])).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("token expired"))
    );
    assert!(challenge.is_some());
    let forged = format!("Bearer {}", token(&key_pair(), json!({"a": "rw"})));
    let (status, _, body) = post(&server, Some(&forged), "/", json!(["SELECT 1"])).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("invalid token signature"))
    );
}

#[tokio::test]
async fn readonly_users_cannot_write_on_either_front_end() {
    let users = users();
    let server = start(&users, &[]);
    let output = psql(
        &server,
        ADMIN,
        &["-c", "CREATE TABLE t (a int); INSERT INTO t VALUES (1)"],
    );
    assert!(output.status.success(), "{}", stderr(&output));

    let output = psql(&server, READER, &["-c", "SELECT a FROM t"]);
    assert!(output.status.success(), "{}", stderr(&output));
    // The privilege functions answer from the role.
    for (user, expected) in [(READER, "t|f|t|f"), (ADMIN, "t|t|t|t")] {
        let output = psql(
            &server,
            user,
            &[
                "-tA",
                "-c",
                "SELECT has_table_privilege('t', 'SELECT'), has_table_privilege('t', 'INSERT, SELECT'), \
                 has_schema_privilege('public', 'USAGE'), has_schema_privilege('public', 'CREATE')",
            ],
        );
        assert_eq!(stdout(&output).trim(), expected, "{}", stderr(&output));
    }
    for sql in [
        "INSERT INTO t VALUES (2)",
        "UPDATE t SET a = 3",
        "DELETE FROM t",
        // A multi-statement script runs through another path: same answer.
        "SELECT 1; INSERT INTO t VALUES (2); SELECT 2",
    ] {
        let output = psql(&server, READER, &["-c", sql]);
        let err = stderr(&output);
        assert!(
            err.contains("ERROR:  25006: cannot execute"),
            "{sql}: {err}"
        );
    }
    for (sql, command) in [
        ("CREATE TABLE u (a int)", "CREATE TABLE"),
        ("DROP TABLE t", "DROP TABLE"),
        ("CREATE INDEX i ON t (a)", "CREATE INDEX"),
        ("VACUUM", "VACUUM"),
        ("CREATE VIEW v AS SELECT 1", "CREATE VIEW"),
        // COPY FROM writes through its own path.
        ("\\copy t (a) from program 'echo 5'", "INSERT"),
    ] {
        let err = stderr(&psql(&server, READER, &["-c", sql]));
        assert!(
            err.contains(&format!(
                "25006: cannot execute {command} in a read-only transaction"
            )),
            "{sql}: {err}"
        );
    }
    // Its own TEMP tables are its to write.
    let output = psql(
        &server,
        READER,
        &[
            "-c",
            "CREATE TEMP TABLE scratch (a int); INSERT INTO scratch VALUES (1)",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));

    // Prepared statements made by a writer on a connection do not carry the
    // writer's rights to the next session on it.
    let server_one = start(&users, &["--max-connections", "1"]);
    let insert = "INSERT INTO t VALUES (1)";
    let create = "CREATE TABLE t (a int); CREATE TABLE w (a int)";
    let output = psql(
        &server_one,
        WRITER,
        &["-c", create, "-c", insert, "-c", insert],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let err = stderr(&psql(
        &server_one,
        READER,
        &["-c", "INSERT INTO t VALUES (1)"],
    ));
    assert!(err.contains("25006"), "{err}");

    // Nor do its TEMP objects reach the next session on the connection: a TEMP
    // table that would shadow `t`, a TEMP trigger that would write with the next
    // session's rights.
    let output = psql(
        &server_one,
        READER,
        &[
            "-c",
            "CREATE TEMP TABLE t (a int)",
            "-c",
            "CREATE TEMP TRIGGER wipe AFTER INSERT ON main.w BEGIN DELETE FROM w; END",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    let output = psql(
        &server_one,
        WRITER,
        &[
            "-At",
            "-c",
            insert,
            "-c",
            "INSERT INTO w VALUES (1)",
            "-c",
            "SELECT count(*) FROM main.t",
            "-c",
            "SELECT count(*) FROM w",
        ],
    );
    assert_eq!(
        stdout(&output),
        "INSERT 0 1\nINSERT 0 1\n3\n1\n",
        "{}",
        stderr(&output)
    );

    let (status, _, body) = post(
        &server,
        Some(&basic(READER)),
        "/",
        json!(["SELECT count(*) FROM t", "INSERT INTO t VALUES (5)"]),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(body[0]["results"]["rows"], json!([[1]]));
    assert_eq!(
        body[1]["error"],
        "cannot execute INSERT in a read-only transaction"
    );
}

#[tokio::test]
async fn pragmas_that_change_the_file_are_for_admins() {
    let users = users();
    // One connection, so each session gets the connection the last one used.
    let server = start(&users, &["--max-connections", "1"]);
    for sql in [
        "PRAGMA journal_mode = DELETE",
        "PRAGMA writable_schema = 1",
        "PRAGMA synchronous = OFF",
        "PRAGMA query_only = 1",
        "PRAGMA locking_mode = EXCLUSIVE",
        "PRAGMA max_page_count = 10",
        "PRAGMA wal_autocheckpoint = 0",
        "PRAGMA cache_size = 1",
    ] {
        let err = stderr(&psql(&server, WRITER, &["-c", sql]));
        assert!(
            err.contains("ERROR:  42501: permission denied to set PRAGMA"),
            "{sql}: {err}"
        );
    }
    // Reading PRAGMAs stays open.
    let output = psql(
        &server,
        WRITER,
        &[
            "-At",
            "-c",
            "PRAGMA journal_mode",
            "-c",
            "PRAGMA foreign_keys",
        ],
    );
    assert_eq!(stdout(&output), "wal\n1\n", "{}", stderr(&output));

    // foreign_keys is the session's own: off for it, on again for the next.
    let output = psql(
        &server,
        WRITER,
        &[
            "-At",
            "-c",
            "PRAGMA foreign_keys = off",
            "-c",
            "PRAGMA foreign_keys",
        ],
    );
    assert_eq!(stdout(&output), "SELECT 0\n0\n", "{}", stderr(&output));
    let output = psql(&server, READER, &["-At", "-c", "PRAGMA foreign_keys"]);
    assert_eq!(stdout(&output), "1\n");
    let (_, _, body) = post(
        &server,
        Some(&basic(WRITER)),
        "/",
        // As @libsql/client's migrate() does: off, a transaction, on. (SQLite
        // ignores the PRAGMA inside a transaction, so the batch manages its own.)
        json!([
            "PRAGMA foreign_keys = off",
            "BEGIN",
            "PRAGMA foreign_keys",
            "COMMIT"
        ]),
    )
    .await;
    assert_eq!(body[2]["results"]["rows"], json!([[0]]), "{body}");
    let (_, _, body) = post(
        &server,
        Some(&basic(WRITER)),
        "/",
        json!(["PRAGMA foreign_keys"]),
    )
    .await;
    assert_eq!(body[0]["results"]["rows"], json!([[1]]), "{body}");

    // Admins may; what they change on the connection does not outlive their session.
    let output = psql(
        &server,
        ADMIN,
        &[
            "-At",
            "-c",
            "PRAGMA cache_size = 7",
            "-c",
            "PRAGMA query_only = 1",
            "-c",
            "PRAGMA cache_size",
        ],
    );
    assert!(stdout(&output).ends_with("\n7\n"), "{}", stdout(&output));
    let output = psql(
        &server,
        WRITER,
        &[
            "-At",
            "-c",
            "PRAGMA query_only",
            "-c",
            "CREATE TABLE after_admin (a int)",
        ],
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).starts_with("0\n"), "{}", stdout(&output));
    let output = psql(
        &server,
        ADMIN,
        &[
            "-At",
            "-c",
            "PRAGMA journal_mode = WAL",
            "-c",
            "PRAGMA wal_autocheckpoint = 500",
        ],
    );
    // (Leaving WAL while the server's other connections have the file open is
    // refused by SQLite itself, as busy.)
    assert_eq!(stdout(&output), "wal\n500\n", "{}", stderr(&output));
}

#[tokio::test]
async fn trust_mode_sessions_are_readwrite() {
    // No users: everyone is let in, and refused the PRAGMAs only admins may run.
    let server = TestServer::start("shared", &[]);
    let err = stderr(&server.psql(&["-c", "PRAGMA journal_mode = DELETE"]));
    assert!(
        err.contains("permission denied to set PRAGMA journal_mode"),
        "{err}"
    );
    let output = server.psql(&[
        "-c",
        "CREATE TABLE t (a int); INSERT INTO t VALUES (1)",
        "-c",
        "VACUUM",
    ]);
    assert!(output.status.success(), "{}", stderr(&output));
    let (status, _) = server.get("/version").await;
    assert_eq!(status, 200);
}

/// Runs litewire until it says it serves (Ok with the line) or exits (Err with
/// its output).
fn run_until_serving(args: &[&str]) -> Result<String, String> {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_litewire"))
        .arg("--db")
        .arg(dir.path().join("t.db"))
        .args(args)
        .env_remove("LITEWIRE_PASSWORD")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn litewire");
    let mut seen = String::new();
    for line in BufReader::new(child.stderr.take().expect("stderr"))
        .lines()
        .map_while(Result::ok)
    {
        seen.push_str(&line);
        seen.push('\n');
        if line.contains("litewire is serving") {
            let _ = child.kill();
            let _ = child.wait();
            return Ok(seen);
        }
    }
    let status = child.wait().expect("wait");
    assert!(!status.success(), "exited 0 without serving: {seen}");
    Err(seen)
}

#[test]
fn trust_on_a_public_listener_needs_to_be_explicit() {
    let public = ["--pg-listen", "0.0.0.0:0", "--http-listen", "127.0.0.1:0"];
    let refused = run_until_serving(&public).expect_err("trust on 0.0.0.0 refused");
    assert!(
        refused.contains("LITEWIRE_PASSWORD") && refused.contains("--auth trust"),
        "{refused}"
    );
    let mut explicit = public.to_vec();
    explicit.extend(["--auth", "trust"]);
    run_until_serving(&explicit).expect("explicit trust starts");
    let dir = tempfile::tempdir().expect("temp dir");
    let started = Command::new(env!("CARGO_BIN_EXE_litewire"))
        .args([
            "--pg-listen",
            "0.0.0.0:0",
            "--http-listen",
            "127.0.0.1:0",
            "--db",
        ])
        .arg(dir.path().join("t.db"))
        .env("LITEWIRE_PASSWORD", "pw")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut started = started;
    let line = BufReader::new(started.stderr.take().expect("stderr"))
        .lines()
        .map_while(Result::ok)
        .find(|line| line.contains("litewire is serving") || line.contains("could not start"));
    let _ = started.kill();
    let _ = started.wait();
    assert!(
        line.as_deref()
            .is_some_and(|l| l.contains("auth=\"password\"")),
        "{line:?}"
    );
}

/// PostgreSQL 17's direct TLS (`sslnegotiation=direct`): the client starts TLS at
/// once, with ALPN `postgresql`, and sends its startup message inside.
#[tokio::test]
async fn direct_tls_with_alpn() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio_rustls::rustls;

    let users = users();
    let (ca, cert, key) = certificates(users.dir.path());
    let server = start(
        &users,
        &[
            "--tls-cert",
            cert.to_str().expect("path"),
            "--tls-key",
            key.to_str().expect("path"),
            "--pg-require-tls",
        ],
    );
    let mut roots = rustls::RootCertStore::empty();
    for ca in rustls_pki_types::CertificateDer::pem_file_iter(&ca).expect("CA file") {
        roots.add(ca.expect("CA")).expect("add CA");
    }
    let provider = std::sync::Arc::new(rustls::crypto::ring::default_provider());
    let mut config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("protocols")
        .with_root_certificates(roots)
        .with_no_client_auth();
    config.alpn_protocols = vec![b"postgresql".to_vec()];
    let connector = tokio_rustls::TlsConnector::from(std::sync::Arc::new(config));
    let tcp = tokio::net::TcpStream::connect(server.pg)
        .await
        .expect("connect");
    let name = rustls_pki_types::ServerName::try_from("localhost").expect("name");
    let mut tls = connector.connect(name, tcp).await.expect("TLS handshake");
    assert_eq!(tls.get_ref().1.alpn_protocol(), Some(&b"postgresql"[..]));

    let mut startup = Vec::new();
    startup.extend_from_slice(&196_608i32.to_be_bytes());
    for part in ["user", WRITER.0, "database", "litewire", ""] {
        startup.extend_from_slice(part.as_bytes());
        startup.push(0);
    }
    let mut message = ((startup.len() + 4) as i32).to_be_bytes().to_vec();
    message.extend_from_slice(&startup);
    tls.write_all(&message).await.expect("send startup");
    let mut header = [0u8; 9];
    tls.read_exact(&mut header).await.expect("read the answer");
    // AuthenticationSASL (R, code 10): the server asks for SCRAM inside TLS.
    assert_eq!(header[0], b'R');
    assert_eq!(
        i32::from_be_bytes(header[5..9].try_into().expect("code")),
        10
    );
}

/// pgjdbc (Debian's libpostgresql-jdbc-java, which `run-tests` installs) with SCRAM.
#[test]
fn jdbc_scram() {
    const JAR: &str = "/usr/share/java/postgresql.jar";
    assert!(
        Path::new(JAR).exists(),
        "{JAR} is missing: apt-get install libpostgresql-jdbc-java default-jre-headless"
    );
    let users = users();
    let server = start(&users, &[]);
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/jdbc/Login.java");
    let output = Command::new("java")
        .args(["-cp", JAR])
        .arg(source)
        .args([&server.pg.port().to_string(), WRITER.0, WRITER.1])
        .stdin(Stdio::null())
        .output()
        .expect("run java (apt-get install default-jre-headless)");
    let out = stdout(&output);
    assert!(output.status.success(), "{out}{}", stderr(&output));
    assert!(out.contains("answer 42"), "{out}");
    assert!(
        out.contains(&format!("refused 28P01 FATAL: {}", failed_login(WRITER.0))),
        "{out}"
    );
}

/// Cleartext passwords only when asked for, and only inside TLS.
#[test]
fn cleartext_only_over_tls() {
    let users = users();
    let server = start(
        &users,
        &["--tls-self-signed", "--pg-auth-methods", "password"],
    );
    let conninfo = |sslmode: &str| {
        format!(
            "host=127.0.0.1 port={} user={} dbname=litewire sslmode={sslmode}",
            server.pg.port(),
            READER.0
        )
    };
    let output = libpq("psql", READER.1)
        .args(["-X", "-At", &conninfo("require"), "-c", "SELECT 1"])
        .output()
        .expect("psql");
    assert_eq!(stdout(&output), "1\n", "{}", stderr(&output));
    let output = libpq("psql", READER.1)
        .args(["-X", &conninfo("require"), "-c", "SELECT 1"])
        .env("PGPASSWORD", "wrong")
        .output()
        .expect("psql");
    assert!(
        stderr(&output).contains(&failed_login(READER.0)),
        "{}",
        stderr(&output)
    );
    let output = libpq("psql", READER.1)
        .args(["-X", &conninfo("disable"), "-c", "SELECT 1"])
        .output()
        .expect("psql");
    assert!(!output.status.success());
    assert!(
        stderr(&output).contains("cleartext passwords need TLS"),
        "{}",
        stderr(&output)
    );
}

/// node-postgres (pure JavaScript SCRAM) logs in; a wrong password gets 28P01.
#[test]
fn node_postgres_scram() {
    let users = users();
    let server = start(&users, &[]);
    let output = common::clients::node_script("pg_login.cjs")
        .args([&server.pg.port().to_string(), READER.0, READER.1])
        .stdin(Stdio::null())
        .output()
        .expect("run node");
    let out = stdout(&output);
    assert!(output.status.success(), "{out}{}", stderr(&output));
    assert!(out.contains("answer 42"), "{out}");
    assert!(
        out.contains(&format!("refused 28P01 {}", failed_login(READER.0))),
        "{out}"
    );
}

async fn hrana(server: &TestServer, auth: Option<&str>, body: Json) -> (u16, Json) {
    let mut request = reqwest::Client::new()
        .post(server.url("/v3/pipeline"))
        .body(body.to_string());
    if let Some(auth) = auth {
        request = request.header("Authorization", auth);
    }
    let response = request.send().await.expect("HTTP request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("JSON body"))
}

fn hrana_execute(sql: &str) -> Json {
    json!({"type": "execute", "stmt": {"sql": sql}})
}

/// Hrana streams run as the caller: they need credentials, a readonly user's
/// writes fail, and one user's baton is refused to another.
#[tokio::test]
async fn hrana_streams_run_as_their_caller() {
    let users = users();
    let server = start(&users, &[]);
    let writes = json!({"baton": null, "requests": [
        hrana_execute("CREATE TABLE h (a int)"),
        hrana_execute("INSERT INTO h VALUES (1)"),
    ]});
    let (status, _) = hrana(&server, None, writes.clone()).await;
    assert_eq!(status, 401);

    let (status, body) = hrana(&server, Some(&basic(READER)), writes.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["results"][0]["type"], "error", "{body}");
    let message = body["results"][0]["error"]["message"].as_str();
    assert!(message.unwrap_or_default().contains("read-only"), "{body}");

    let (status, body) = hrana(&server, Some(&basic(WRITER)), writes).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["results"][1]["type"], "ok", "{body}");
    let baton = body["baton"].as_str().expect("a baton").to_owned();

    let read = |baton: &str| json!({"baton": baton, "requests": [hrana_execute("SELECT count(*) FROM h")]});
    let (status, body) = hrana(&server, Some(&basic(READER)), read(&baton)).await;
    assert_eq!(status, 400, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or_default()
            .contains("another user"),
        "{body}"
    );
    // Refused, the baton is not used up: its owner continues the stream.
    let (status, body) = hrana(&server, Some(&basic(WRITER)), read(&baton)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["results"][0]["response"]["result"]["rows"][0][0]["value"], "1",
        "{body}"
    );
}
