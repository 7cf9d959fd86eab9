//! The real `pgbench` binary, unmodified, against litewire: initialisation (client-
//! and server-side generation) and every built-in script in every protocol mode.

mod common;

use std::process::Output;

use common::{TestServer, stderr, stdout};

in_both_cache_modes!(pgbench_runs_unmodified);

fn pgbench(server: &TestServer, args: &[&str]) -> Output {
    std::process::Command::new("pgbench")
        .args([
            "-h",
            "127.0.0.1",
            "-p",
            &server.pg.port().to_string(),
            "-U",
            "postgres",
        ])
        .args(args)
        .arg("postgres")
        .output()
        .expect("run pgbench (is postgresql-15 installed?)")
}

/// pgbench succeeded and printed no error, failed transaction or abort.
fn assert_clean(what: &str, out: &Output) {
    let text = format!("{}{}", stdout(out), stderr(out));
    assert!(out.status.success(), "{what}: {text}");
    for line in text.lines() {
        let lower = line.to_ascii_lowercase();
        assert!(
            !lower.contains("error") && !lower.contains("abort"),
            "{what}: {line}\n{text}"
        );
    }
}

fn balances(server: &TestServer) -> String {
    let out = server.psql(&[
        "-At",
        "-c",
        "SELECT (SELECT sum(abalance) FROM pgbench_accounts), (SELECT sum(tbalance) FROM pgbench_tellers), \
         (SELECT sum(bbalance) FROM pgbench_branches), (SELECT sum(delta) FROM pgbench_history)",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out).trim().to_owned()
}

async fn pgbench_runs_unmodified(cache: &str) {
    let server = TestServer::start(cache, &[]);

    let out = pgbench(&server, &["-i", "-s", "1"]);
    assert_clean("pgbench -i", &out);
    assert!(
        stderr(&out).contains("100000 of 100000 tuples"),
        "{}",
        stderr(&out)
    );
    let plan = server.psql(&[
        "-At",
        "-c",
        "EXPLAIN QUERY PLAN SELECT abalance FROM pgbench_accounts WHERE aid = 1",
    ]);
    assert!(
        stdout(&plan).contains("USING INDEX pgbench_accounts_pkey"),
        "{}",
        stdout(&plan)
    );
    let count = server.psql(&["-At", "-c", "SELECT count(*) FROM pgbench_accounts"]);
    assert_eq!(stdout(&count), "100000\n");

    let out = pgbench(&server, &["-i", "-I", "dtGvp", "-s", "1"]);
    assert_clean("pgbench -i -I dtGvp", &out);
    assert_eq!(
        stdout(&server.psql(&["-At", "-c", "SELECT count(*) FROM pgbench_accounts"])),
        "100000\n"
    );

    for mode in ["simple", "extended", "prepared"] {
        for script in ["tpcb-like", "simple-update", "select-only"] {
            let what = format!("pgbench -b {script} -M {mode}");
            if script == "tpcb-like" {
                // Balances start from zero so that the TPC-B invariant can be checked.
                assert_clean(
                    "re-init",
                    &pgbench(&server, &["-i", "-I", "dtGvp", "-s", "1"]),
                );
            }
            let out = pgbench(
                &server,
                &["-b", script, "-M", mode, "-c", "8", "-j", "2", "-t", "20"],
            );
            assert_clean(&what, &out);
            let text = stdout(&out);
            assert!(
                text.contains("number of failed transactions: 0 (0.000%)"),
                "{what}: {text}"
            );
            assert!(
                text.contains("number of transactions actually processed: 160/160"),
                "{what}: {text}"
            );
            if script == "tpcb-like" {
                let sums = balances(&server);
                let parts: Vec<&str> = sums.split('|').collect();
                assert_eq!(parts.len(), 4, "{sums}");
                assert!(
                    parts.iter().all(|p| *p == parts[0]),
                    "TPC-B invariant broken after {what}: {sums}"
                );
            }
        }
    }
}
