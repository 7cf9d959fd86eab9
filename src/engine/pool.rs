//! Building the SQLx pool: connection options and the hooks that keep pooled
//! connections safe to hand out, and the reset that makes a connection that served
//! one session carry nothing of it to the next.

use std::ffi::c_int;
use std::sync::Arc;

use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{AssertSqlSafe, Connection, Executor, SqliteConnection, SqlitePool};

use super::access::{Access, AttachRule, Role};
use super::functions::ServerShared;
use super::table_stats::TableStats;
use crate::config::{CacheMode, Config, Replication, Synchronous};
use crate::error::Error;
use crate::sql::quote::identifier;

/// The readers' pool: the connections sessions hold, in the configured cache mode.
pub(super) async fn connect(config: &Config, shared: &ServerShared) -> Result<SqlitePool, Error> {
    open(
        config,
        config.cache,
        config.max_connections.max(1),
        config.min_connections.min(config.max_connections),
        shared,
        config.synchronous,
    )
    .await
}

/// The writer's pool: one connection, with a page cache of its own whatever the
/// readers' mode, so that its table locks never reach the readers (with a shared
/// cache, SQLite locks tables between the connections sharing it: a reader would
/// wait for the writer's transaction, and a writer for any reader's).
///
/// Under group commit (`--synchronous full`) its commits write the WAL without
/// syncing it: the sessions sync it after, together (see `group_commit`).
pub(super) async fn connect_writer(
    config: &Config,
    shared: &ServerShared,
) -> Result<SqlitePool, Error> {
    open(
        config,
        CacheMode::Private,
        1,
        1,
        shared,
        writer_synchronous(config),
    )
    .await
}

/// How the writer's commits sync (see `connect_writer`).
pub(super) fn writer_synchronous(config: &Config) -> Synchronous {
    match group_commits(config) {
        true => Synchronous::Normal,
        false => config.synchronous,
    }
}

/// Whether the writer's commits are synced by group commit: `--synchronous
/// full` on a file litewire writes.
pub(super) fn group_commits(config: &Config) -> bool {
    config.synchronous == Synchronous::Full && !config.read_only
}

/// Connections with a cache of their own for reads the shared cache would answer
/// from an old snapshot (see `snapshots`); opened only when needed.
pub(super) async fn connect_fresh(
    config: &Config,
    shared: &ServerShared,
) -> Result<SqlitePool, Error> {
    open(
        config,
        CacheMode::Private,
        config.max_connections.max(1),
        0,
        shared,
        config.synchronous,
    )
    .await
}

async fn open(
    config: &Config,
    cache: CacheMode,
    max_connections: u32,
    min_connections: u32,
    shared: &ServerShared,
    synchronous: Synchronous,
) -> Result<SqlitePool, Error> {
    let reset = Reset::new(config, synchronous);
    let shared = shared.clone();
    let options = options(config)
        .shared_cache(cache == CacheMode::Shared)
        .synchronous(self::synchronous(synchronous));
    let attach = AttachRule {
        allowed: config.allow_attach,
        admin_only: config.auth_enabled(),
    };
    let checkpoints = Checkpoints::of(config);
    let pool = SqlitePoolOptions::new()
        .max_connections(max_connections)
        .min_connections(min_connections)
        .acquire_timeout(config.acquire_timeout())
        // Connections are pinned to sessions and checked on release; a ping per
        // acquire would cost a round trip to the connection's thread for nothing.
        .test_before_acquire(false)
        // Those the engine did not park (see `parked`), and the fresh
        // readers', are closed once unused this long.
        .idle_timeout(config.idle_connection_timeout())
        .after_connect(move |conn, _meta| {
            let shared = shared.clone();
            Box::pin(async move { prepare_connection(conn, attach, checkpoints, shared).await })
        })
        .after_release(move |conn, _meta| {
            let reset = reset.clone();
            Box::pin(async move {
                roll_back_leftover(conn).await?;
                reset.run(conn).await.map(|()| true)
            })
        })
        .connect_with(options)
        .await?;
    Ok(pool)
}

/// How every connection to the file is opened. A follower's (`--read-only`)
/// opens the file read-only, as it is, in whatever journal mode its writer
/// keeps it (Litestream's follower writes it in rollback mode).
fn options(config: &Config) -> SqliteConnectOptions {
    let options = SqliteConnectOptions::new().filename(&config.db);
    let options = if config.read_only {
        options.read_only(true).create_if_missing(false)
    } else {
        options
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
    };
    options
        .synchronous(synchronous(config.synchronous))
        .busy_timeout(config.busy_timeout())
        .foreign_keys(true)
        .shared_cache(config.cache == CacheMode::Shared)
        .statement_cache_capacity(config.statement_cache)
        .pragma("mmap_size", mmap_size(config).to_string())
        .pragma("cache_size", format!("-{}", config.cache_size_kib))
        .pragma(
            "wal_autocheckpoint",
            Checkpoints::of(config).autocheckpoint_pages().to_string(),
        )
}

/// How much of a follower's file SQLite reads through a memory map: the most
/// it maps.
pub(super) const FOLLOWER_MAPPED: u64 = 0x7fff_0000;

/// The most of the file read through a memory map: `--mmap-size`, and on a
/// follower all of it that SQLite maps (2 GiB). Litestream's follower writes
/// pages straight into the file and says so to SQLite's page cache only when
/// it writes page 1 (see `file_watch`); a page read through the map is read
/// from the file as it is, and never kept in the cache.
fn mmap_size(config: &Config) -> u64 {
    if config.read_only {
        config.mmap_size.max(FOLLOWER_MAPPED)
    } else {
        config.mmap_size
    }
}

/// Whether litewire checkpoints the WAL into the database file. When Litestream
/// replicates the file it must be the only checkpointer: it copies each page
/// from the WAL before a checkpoint of its own moves it into the file, and a
/// checkpoint it did not make leaves a gap in the replica it can only mend with
/// a new snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Checkpoints {
    /// SQLite's automatic checkpoint every 1000 pages, and one when the last
    /// connection closes.
    Litewire,
    /// None at all: not automatic, not on close, not at shutdown.
    Never,
}

impl Checkpoints {
    pub(super) fn of(config: &Config) -> Self {
        match config.replication() {
            Replication::None => Checkpoints::Litewire,
            Replication::Litestream => Checkpoints::Never,
        }
    }

    /// `PRAGMA wal_autocheckpoint`.
    fn autocheckpoint_pages(self) -> u32 {
        match self {
            Checkpoints::Litewire => 1000,
            Checkpoints::Never => 0,
        }
    }
}

/// Connections opened outside the pools (the health check's, the one that
/// closes the file at shutdown): the pool's options, but a private cache (a
/// table lock in the shared cache must not hold them up) and a short busy wait.
#[derive(Debug, Clone)]
pub(super) struct Outside {
    options: SqliteConnectOptions,
    checkpoints: Checkpoints,
}

impl Outside {
    pub(super) fn new(config: &Config) -> Self {
        Outside {
            options: options(config)
                .shared_cache(false)
                .busy_timeout(std::time::Duration::from_millis(1000)),
            checkpoints: Checkpoints::of(config),
        }
    }

    pub(super) async fn connect(&self) -> Result<SqliteConnection, sqlx::Error> {
        use sqlx::ConnectOptions;
        let mut conn = self.options.connect().await?;
        if self.checkpoints == Checkpoints::Never {
            {
                let mut handle = conn.lock_handle().await?;
                // SAFETY: the handle is locked for us and valid for the duration of the call.
                unsafe { no_checkpoint_on_close(handle.as_raw_handle().as_ptr()) };
            }
            // The next statement locks the handle again: SQLx's connection
            // thread must have taken it back first (see `direct`).
            conn.ping().await?;
        }
        Ok(conn)
    }

    pub(super) fn checkpoints(&self) -> Checkpoints {
        self.checkpoints
    }
}

/// The last connection to the file to close must not checkpoint it.
///
/// # Safety
/// `db` must be a valid connection handle, locked for the caller.
unsafe fn no_checkpoint_on_close(db: *mut libsqlite3_sys::sqlite3) {
    // SAFETY: per the caller.
    unsafe {
        super::rebuild::set_db_config(db, libsqlite3_sys::SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1)
    };
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
/// - PostgreSQL's functions that SQLite lacks are registered (see `functions`),
///   with the server's state they share (sequence counters, the lock table).
/// - the progress handler that lets a statement be stopped is installed (see
///   `control`), and the update hook that counts rows changed per table (see
///   `table_stats`).
async fn prepare_connection(
    conn: &mut SqliteConnection,
    attach: AttachRule,
    checkpoints: Checkpoints,
    shared: ServerShared,
) -> Result<(), sqlx::Error> {
    let registered = {
        let mut handle = conn.lock_handle().await?;
        let db = handle.as_raw_handle().as_ptr();
        if checkpoints == Checkpoints::Never {
            // SAFETY: the handle is locked for us and valid for the duration of the call.
            unsafe { no_checkpoint_on_close(db) };
        }
        if !attach.allowed {
            // SAFETY: the handle is locked for us and valid for the duration of the call.
            unsafe { libsqlite3_sys::sqlite3_limit(db, libsqlite3_sys::SQLITE_LIMIT_ATTACHED, 1) };
        }
        // SAFETY: the handle is locked for us; the handler takes no argument and
        // only reads a thread-local (see `control`).
        unsafe {
            libsqlite3_sys::sqlite3_progress_handler(
                db,
                super::control::PROGRESS_OPS,
                Some(super::control::progress),
                std::ptr::null_mut(),
            )
        };
        // SAFETY: as above.
        unsafe { Access::install(db, attach, shared.follower, shared.tables.clone()) }
            // SAFETY: as above.
            .and_then(|()| unsafe { super::functions::register(db, &shared) })
            // SAFETY: as above.
            .and_then(|()| unsafe { TableStats::watch(db, &shared.tables) })
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

/// What a connection must not carry from one session to the next: the TEMP
/// objects a client made (tables, views, triggers; the emulated catalog's tables
/// are made again on first use) and every per-connection PRAGMA a client can
/// change, set back to the server's configuration or SQLite's default.
///
/// Not `case_sensitive_like`: setting it, even to its default, replaces
/// SQLite's LIKE with one that is not deterministic, which no partial index or
/// generated column may then use ("malformed database schema"); a connection
/// whose session set it is closed, not reset (see `access`).
#[derive(Debug, Clone)]
pub(super) struct Reset {
    pragmas: Arc<str>,
}

impl Reset {
    /// The reset of a connection of `config` whose commits sync at `synchronous`.
    pub(super) fn new(config: &Config, synchronous: Synchronous) -> Self {
        let synchronous = match synchronous {
            Synchronous::Off => "OFF",
            Synchronous::Normal => "NORMAL",
            Synchronous::Full => "FULL",
            Synchronous::Extra => "EXTRA",
        };
        let pragmas = format!(
            "PRAGMA foreign_keys = ON;
             PRAGMA query_only = OFF;
             PRAGMA synchronous = {synchronous};
             PRAGMA cache_size = -{cache_size};
             PRAGMA mmap_size = {mmap_size};
             PRAGMA busy_timeout = {busy_timeout};
             PRAGMA max_page_count = 4294967294;
             PRAGMA locking_mode = NORMAL;
             PRAGMA wal_autocheckpoint = {autocheckpoint};
             PRAGMA journal_size_limit = -1;
             PRAGMA recursive_triggers = OFF;
             PRAGMA defer_foreign_keys = OFF;
             PRAGMA reverse_unordered_selects = OFF;
             PRAGMA automatic_index = ON;
             PRAGMA temp_store = DEFAULT;
             PRAGMA cell_size_check = OFF;
             PRAGMA ignore_check_constraints = OFF;
             PRAGMA legacy_alter_table = OFF;
             PRAGMA writable_schema = OFF;
             PRAGMA analysis_limit = 0;
             PRAGMA threads = 0;
             SELECT count(*) FROM main.sqlite_schema;",
            cache_size = config.cache_size_kib,
            mmap_size = mmap_size(config),
            busy_timeout = config.busy_timeout_ms,
            autocheckpoint = Checkpoints::of(config).autocheckpoint_pages(),
        );
        Reset {
            pragmas: Arc::from(pragmas),
        }
    }

    /// Resets `conn` (outside any transaction). The read at the end makes a
    /// `locking_mode = EXCLUSIVE` connection let go of its file lock.
    pub(super) async fn run(&self, conn: &mut SqliteConnection) -> Result<(), sqlx::Error> {
        let temp: Vec<(String, String)> = sqlx::query_as(
            "SELECT type, name FROM temp.sqlite_schema \
             WHERE type IN ('table', 'view', 'trigger') AND name NOT LIKE 'sqlite_%'",
        )
        .fetch_all(&mut *conn)
        .await?;
        {
            // The reset is the server's own work, whoever used the connection
            // last: as admin (the next session sets its role again). The query
            // above came between this lock and any before it (see `direct`).
            let mut handle = conn.lock_handle().await?;
            let db = handle.as_raw_handle().as_ptr();
            // SAFETY: the handle is locked for us and valid during these calls.
            if let Some(access) = unsafe { Access::of(db) } {
                // SAFETY: as above; `access` is the state installed on `db`.
                unsafe { access.set_role(db, Role::Admin) };
            }
        }
        let mut script = String::new();
        for (kind, name) in &temp {
            let kind = match kind.as_str() {
                "view" => "VIEW",
                "trigger" => "TRIGGER",
                _ => "TABLE",
            };
            script.push_str(&format!(
                "DROP {kind} IF EXISTS temp.{};\n",
                identifier(name)
            ));
        }
        script.push_str(&self.pragmas);
        sqlx::raw_sql(AssertSqlSafe(script))
            .execute(&mut *conn)
            .await?;
        Ok(())
    }
}
