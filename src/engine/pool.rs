//! Building the SQLx pool: connection options and the hooks that keep pooled
//! connections safe to hand out.

use std::ffi::c_int;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Connection, Executor, SqliteConnection, SqlitePool};

use super::access::{Access, AttachRule};
use crate::config::{CacheMode, Config, Synchronous};
use crate::error::Error;

pub(super) async fn connect(config: &Config) -> Result<SqlitePool, Error> {
    let options = SqliteConnectOptions::new()
        .filename(&config.db)
        .create_if_missing(true)
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(synchronous(config.synchronous))
        .busy_timeout(config.busy_timeout())
        .foreign_keys(true)
        .shared_cache(config.cache == CacheMode::Shared)
        .statement_cache_capacity(config.statement_cache)
        .pragma("mmap_size", config.mmap_size.to_string())
        .pragma("cache_size", format!("-{}", config.cache_size_kib));
    let attach = AttachRule {
        allowed: config.allow_attach,
        admin_only: config.auth_enabled(),
    };
    let pool = SqlitePoolOptions::new()
        .max_connections(config.max_connections.max(1))
        .min_connections(config.min_connections.min(config.max_connections))
        .acquire_timeout(config.acquire_timeout())
        // Connections are pinned to sessions and checked on release; a ping per
        // acquire would cost a round trip to the connection's thread for nothing.
        .test_before_acquire(false)
        .idle_timeout(None)
        .after_connect(move |conn, _meta| {
            Box::pin(async move { prepare_connection(conn, attach).await })
        })
        .after_release(|conn, _meta| Box::pin(async move { roll_back_leftover(conn).await }))
        .connect_with(options)
        .await?;
    Ok(pool)
}

fn synchronous(level: Synchronous) -> SqliteSynchronous {
    match level {
        Synchronous::Off => SqliteSynchronous::Off,
        Synchronous::Normal => SqliteSynchronous::Normal,
        Synchronous::Full => SqliteSynchronous::Full,
        Synchronous::Extra => SqliteSynchronous::Extra,
    }
}

/// Sets up a new connection through its SQLite handle, in one lock (SQLx 0.9 can
/// hang on a lock taken right after another, see `direct`):
/// - remote clients must not reach the server's filesystem: the authorizer refuses
///   `ATTACH` of a file (unless the operator allows it), and with the attached
///   database limit at one, only VACUUM's own temporary database fits besides;
/// - the authorizer (see `access`) decides what each session's role may do;
/// - PostgreSQL's functions that SQLite lacks are registered (see `functions`).
async fn prepare_connection(
    conn: &mut SqliteConnection,
    attach: AttachRule,
) -> Result<(), sqlx::Error> {
    let registered = {
        let mut handle = conn.lock_handle().await?;
        let db = handle.as_raw_handle().as_ptr();
        if !attach.allowed {
            // SAFETY: the handle is locked for us and valid for the duration of the call.
            unsafe { libsqlite3_sys::sqlite3_limit(db, libsqlite3_sys::SQLITE_LIMIT_ATTACHED, 1) };
        }
        // SAFETY: as above.
        unsafe { Access::install(db, attach) }
            // SAFETY: as above.
            .and_then(|()| unsafe { super::functions::register(db) })
    };
    registered.map_err(|message| sqlx::Error::Configuration(message.into()))?;
    // The first session locks the handle again at once: SQLx's connection thread
    // must have taken it back first (see `direct`).
    conn.ping().await
}

/// A connection must never go back to the pool inside a transaction: sqlx does not
/// track a raw `BEGIN`, so the next user would inherit someone else's writes.
async fn roll_back_leftover(conn: &mut SqliteConnection) -> Result<bool, sqlx::Error> {
    // A session may have just let go of the handle; SQLx's connection thread must
    // take it back before it can be locked again (see `direct`).
    conn.ping().await?;
    let autocommit: c_int = {
        let mut handle = conn.lock_handle().await?;
        // SAFETY: the handle is locked for us and valid for the duration of the call.
        unsafe { libsqlite3_sys::sqlite3_get_autocommit(handle.as_raw_handle().as_ptr()) }
    };
    if autocommit == 0 {
        tracing::warn!("a connection came back to the pool inside a transaction: rolling it back");
        conn.execute("ROLLBACK").await?;
    }
    Ok(true)
}
