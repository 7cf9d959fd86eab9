//! SQLx 0.9's `SqliteConnection::lock_handle()`, which the engine uses to run
//! statements on the session's own task.
//!
//! Taking the lock again right after letting it go can hang: the connection's
//! thread has not taken the lock back yet (in a loop of lock, unlock, lock it
//! hangs within a few hundred iterations on a 2-core machine). A ping, which that
//! thread answers only once it runs again, in between prevents it; this is what
//! the engine does before every new lock on a connection whose lock was let go.

use std::time::Duration;

use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn relocking_after_a_ping_never_hangs() {
    let dir = tempfile::tempdir().unwrap();
    let mut conn = SqliteConnectOptions::new()
        .filename(dir.path().join("t.db"))
        .create_if_missing(true)
        .connect()
        .await
        .unwrap();
    for i in 0..5_000u32 {
        {
            let locked = tokio::time::timeout(Duration::from_secs(10), conn.lock_handle()).await;
            match locked {
                Ok(handle) => drop(handle.unwrap()),
                Err(_) => panic!("lock_handle hung at iteration {i}"),
            }
        }
        tokio::time::timeout(Duration::from_secs(10), conn.ping())
            .await
            .expect("ping answered")
            .unwrap();
    }
}
