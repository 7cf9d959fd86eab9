//! Interactive psql on a pseudo-terminal (util-linux `script`), as a person uses it:
//! its prompt shows the transaction status that each ReadyForQuery carries.

mod common;

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use common::TestServer;

in_both_cache_modes!(prompt_follows_transaction_status);

async fn prompt_follows_transaction_status(cache: &str) {
    let server = TestServer::start(cache, &[]);
    let mut psql = Terminal::psql(&server);

    let (banner, prompt) = psql.next_prompt();
    assert_eq!(prompt, "litewire=#", "{}", psql.transcript());
    assert!(
        banner.contains("server 15.0 (litewire"),
        "banner: {banner:?}\n{}",
        psql.transcript()
    );
    assert!(!banner.contains("WARNING"), "banner: {banner:?}");

    // Idle, in a transaction, in a failed transaction, and idle again.
    let steps: [(&str, &str, &str); 8] = [
        ("CREATE TABLE t (a int);", "CREATE TABLE", "litewire=#"),
        ("BEGIN;", "BEGIN", "litewire=*#"),
        ("INSERT INTO t VALUES (1);", "INSERT 0 1", "litewire=*#"),
        ("SELECT * FROM missing;", "ERROR:", "litewire=!#"),
        (
            "SELECT 1;",
            "ERROR:  current transaction is aborted",
            "litewire=!#",
        ),
        ("ROLLBACK;", "ROLLBACK", "litewire=#"),
        ("SELECT count(*) AS n FROM t;", "(1 row)", "litewire=#"),
        ("START TRANSACTION;", "START TRANSACTION", "litewire=*#"),
    ];
    for (input, shows, expected) in steps {
        psql.send_line(input);
        let (output, prompt) = psql.next_prompt();
        assert!(
            output.contains(shows),
            "{input}: expected {shows:?} in {output:?}\n{}",
            psql.transcript()
        );
        assert_eq!(prompt, expected, "after {input}\n{}", psql.transcript());
    }
    psql.send_line("COMMIT;");
    let (output, prompt) = psql.next_prompt();
    assert!(output.contains("COMMIT"), "{output:?}");
    assert_eq!(prompt, "litewire=#", "after COMMIT\n{}", psql.transcript());
    // The rolled-back insert is gone.
    psql.send_line("SELECT count(*) AS n FROM t;");
    let (output, _) = psql.next_prompt();
    assert!(
        output.contains(" n \r\n---\r\n 0\r\n(1 row)"),
        "{output:?}\n{}",
        psql.transcript()
    );

    psql.send_line("\\q");
    psql.wait_for_exit();
}

/// How long any one prompt may take to appear.
const PROMPT_DEADLINE: Duration = Duration::from_secs(20);

/// psql running under `script`, which gives it a pseudo-terminal: psql sees a tty on
/// stdin and stdout, so it prints its banner and prompts. Everything the terminal
/// shows (psql's output and readline's echo of our input) collects in `screen`.
struct Terminal {
    child: Child,
    stdin: Option<ChildStdin>,
    screen: Arc<(Mutex<Vec<u8>>, Condvar)>,
    /// How much of `screen` earlier prompts have consumed.
    seen: usize,
    _home: tempfile::TempDir,
}

impl Terminal {
    fn psql(server: &TestServer) -> Terminal {
        let home = tempfile::tempdir().expect("temp dir");
        let psql = format!(
            "psql -X -h 127.0.0.1 -p {} -U postgres -d litewire",
            server.pg.port()
        );
        let mut command = Command::new("script");
        command
            .args(["-q", "-f", "-e", "-c", &psql, "/dev/null"])
            .env("SHELL", "/bin/sh")
            // A plain terminal: no colours or cursor movement from readline.
            .env("TERM", "dumb")
            .env("HOME", home.path())
            .env("INPUTRC", "/dev/null")
            .env("PSQL_HISTORY", home.path().join("history"))
            .env("PAGER", "cat")
            .env("PSQL_PAGER", "cat")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        common::clients::without_pg_environment(&mut command);
        let mut child = command
            .spawn()
            .expect("run script (util-linux) with psql (postgresql-client)");
        let screen = Arc::new((Mutex::new(Vec::new()), Condvar::new()));
        for mut stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let screen = screen.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = stream.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let (bytes, changed) = &*screen;
                    bytes.lock().unwrap().extend_from_slice(&buf[..n]);
                    changed.notify_all();
                }
            });
        }
        Terminal {
            stdin: child.stdin.take(),
            child,
            screen,
            seen: 0,
            _home: home,
        }
    }

    fn send_line(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .expect("write to psql");
    }

    /// Waits for the next prompt; returns what the terminal showed before it (the echo
    /// of the input and the command's output) and the prompt itself.
    fn next_prompt(&mut self) -> (String, String) {
        let deadline = Instant::now() + PROMPT_DEADLINE;
        let (bytes, changed) = &*self.screen;
        let mut screen = bytes.lock().unwrap();
        loop {
            if let Some((start, end)) = find_prompt(&screen[self.seen..]) {
                let before = String::from_utf8_lossy(&screen[self.seen..self.seen + start]);
                // The prompt without its trailing space.
                let prompt =
                    String::from_utf8_lossy(&screen[self.seen + start..self.seen + end - 1]);
                let result = (before.into_owned(), prompt.into_owned());
                self.seen += end;
                return result;
            }
            let now = Instant::now();
            if now >= deadline {
                let text = String::from_utf8_lossy(&screen).into_owned();
                drop(screen);
                panic!("no psql prompt within {PROMPT_DEADLINE:?}; the terminal showed:\n{text}");
            }
            screen = changed.wait_timeout(screen, deadline - now).unwrap().0;
        }
    }

    fn transcript(&self) -> String {
        let screen = self.screen.0.lock().unwrap();
        format!(
            "--- terminal ---\n{}",
            String::from_utf8_lossy(&screen).replace('\r', "")
        )
    }

    fn wait_for_exit(&mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + PROMPT_DEADLINE;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait for psql") {
                assert!(status.success(), "psql exited with {status}");
                return;
            }
            assert!(
                Instant::now() < deadline,
                "psql did not exit after \\q\n{}",
                self.transcript()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        // Killing `script` closes the terminal's master side; psql gets SIGHUP and exits.
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The first `litewire=` + `#`, `*#`, `!#` or `?#` + space in `text`: its start and end.
fn find_prompt(text: &[u8]) -> Option<(usize, usize)> {
    const NAME: &[u8] = b"litewire=";
    let mut from = 0;
    while let Some(at) = text[from..]
        .windows(NAME.len())
        .position(|w| w == NAME)
        .map(|i| from + i)
    {
        let rest = &text[at + NAME.len()..];
        let status = usize::from(matches!(rest.first(), Some(b'*' | b'!' | b'?')));
        if rest.len() > status + 1 && rest[status] == b'#' && rest[status + 1] == b' ' {
            return Some((at, at + NAME.len() + status + 2));
        }
        from = at + 1;
    }
    None
}
