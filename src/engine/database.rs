//! The database every front end shares: the readers' pool, the writer
//! connection and its write permit, the fresh-snapshot pool, the caches, and
//! the connections parked between sessions.
//!
//! Readers run concurrently on pooled connections (in the configured cache mode);
//! a [`Session`] pins one for its life. Writers take the write permit first, a
//! fair FIFO semaphore, so they queue inside litewire instead of spinning in
//! SQLite's busy handler, and no "database is locked" reaches a client; the
//! permit's holder writes on the writer connection, which has a page cache of its
//! own, so that the shared cache's table locks never make a reader wait for a
//! writer or a writer for a reader (see `Session::run` and `snapshots`).

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use sqlx::{Row, SqlitePool};
use tokio::sync::Semaphore;

use super::activity::SESSION_STATES;
use super::backend_kind::FRONTENDS;
use super::connection::HeldConnection;
use super::control::StopReason;
use super::declared_types::DeclaredTypes;
use super::file_watch::{self, FileWatch, Watcher};
use super::functions::ServerShared;
use super::group_commit::GroupCommit;
use super::metrics::Metrics;
use super::parked::{self, Parked};
use super::power_loss;
use super::schema::SchemaCache;
use super::settings::ServerDefaults;
use super::snapshots::SharedReads;
use super::statement_stats::StatementStats;
use super::{catalog, pool};
use crate::config::{CacheMode, Config};
use crate::error::Error;

/// Facts about the running server, reported at startup and by `GET /version`.
#[derive(Debug, Clone)]
pub struct ServerInfo {
    pub version: &'static str,
    pub sqlite_version: String,
    pub compile_options: Vec<String>,
    pub cache: CacheMode,
}

impl ServerInfo {
    /// What SQLite's build lacks of `.cargo/config.toml`'s flags (empty when it has
    /// them all): a process-wide mutex on a hot path, or functions missing.
    pub fn build_defects(&self) -> Vec<&'static str> {
        let has = |option: &str| self.compile_options.iter().any(|o| o == option);
        let mut defects = Vec::new();
        if !has("DEFAULT_MEMSTATUS=0") {
            defects.push(
                "built without SQLITE_DEFAULT_MEMSTATUS=0: every allocation takes a global mutex",
            );
        }
        if has("ENABLE_MEMORY_MANAGEMENT") {
            defects.push(
                "built with SQLITE_ENABLE_MEMORY_MANAGEMENT: every page fetch takes a global mutex",
            );
        }
        if !has("ENABLE_MATH_FUNCTIONS") {
            defects.push(
                "built without SQLITE_ENABLE_MATH_FUNCTIONS: sqrt(), power(), ln() ... are missing",
            );
        }
        defects
    }
}

/// The shared engine: pool, write permit, caches.
#[derive(Debug)]
pub struct Engine {
    /// The readers: each session holds one of these connections.
    pool: SqlitePool,
    /// The writer: one connection, used by whoever holds the write permit.
    writer_pool: SqlitePool,
    /// The writer connection while no session holds it.
    writer_idle: Mutex<Option<HeldConnection>>,
    /// With the shared cache: the reads in flight on it, to tell when its snapshot
    /// misses a commit (see `snapshots`).
    pub(super) shared_reads: Option<Arc<SharedReads>>,
    /// Connections with a private cache, for reads that the shared cache would
    /// answer from an old snapshot.
    fresh_pool: SqlitePool,
    pub(super) write_permit: Arc<Semaphore>,
    /// What every connection's functions share: the sequences' counters (see
    /// `sequences`), the lock table (see `locks`), LISTEN/NOTIFY's channels
    /// (see `notifications`) and the live sessions (see `backends`).
    pub(super) shared: ServerShared,
    /// Write transactions committed so far: a snapshot taken when this was N
    /// misses a commit once it is more (see `session::isolation`).
    pub(super) commits: AtomicU64,
    pub(super) declared_types: DeclaredTypes,
    /// The relations the PostgreSQL port reads statements against.
    pub(super) schema: SchemaCache,
    info: ServerInfo,
    pub(super) write_wait: Duration,
    pub(super) allow_attach: bool,
    /// Prepared statements each session keeps.
    statement_cache: usize,
    /// Connections of ended sessions, for the next session (see `parked`).
    parked: Parked,
    max_connections: usize,
    /// How a connection is cleaned between sessions.
    reset: pool::Reset,
    /// How the writer connection is (its commits may sync otherwise).
    writer_reset: pool::Reset,
    /// With `--synchronous full`: the fsyncs commits share (see `group_commit`).
    pub(super) group_commit: Option<GroupCommit>,
    /// How many sessions hold a connection of the readers' pool.
    holding: Arc<AtomicUsize>,
    /// The defaults the server's flags give every session's settings (the
    /// timeouts, the isolation level), as `SHOW` prints them.
    pub(super) server_defaults: Arc<ServerDefaults>,
    /// The connection `/health` asks, outside the pool: a full pool must not make
    /// the server look dead.
    health: tokio::sync::Mutex<Option<sqlx::SqliteConnection>>,
    outside: pool::Outside,
    /// Changes other processes make to the file (see `file_watch`).
    pub(super) file_watch: FileWatch,
}

/// How long closing connections are given before their memory is trimmed.
const CLOSING: Duration = Duration::from_millis(500);

impl Engine {
    /// Opens (creating if needed) the database file and its pool.
    pub async fn open(config: &Config) -> Result<Arc<Engine>, Error> {
        let shared = ServerShared {
            statements: Arc::new(StatementStats::new(config.pg_stat_statements_max)),
            follower: config.read_only,
            ..ServerShared::default()
        };
        shared.backends.log_queries_from(config.slow_query());
        shared.locks.log_waits(config.log_lock_waits);
        if config.read_only {
            file_watch::rollback_mode_for_litestream(&config.db).await?;
        }
        if config.simulate_power_loss {
            power_loss::install();
        }
        let pool = pool::connect(config, &shared).await?;
        let writer_pool = pool::connect_writer(config, &shared).await?;
        let fresh_pool = pool::connect_fresh(config, &shared).await?;
        let info = read_server_info(&pool, config.cache).await?;
        let group_commit = match pool::group_commits(config) {
            true => Some(GroupCommit::new(&main_file(&writer_pool).await?)),
            false => None,
        };
        catalog::remember_enums(&mut *pool.acquire().await?).await?;
        let outside = pool::Outside::new(config);
        let engine = Arc::new(Engine {
            pool,
            writer_pool,
            writer_idle: Mutex::new(None),
            shared_reads: (config.cache == CacheMode::Shared).then(Arc::default),
            fresh_pool,
            write_permit: Arc::new(Semaphore::new(1)),
            shared,
            commits: AtomicU64::new(0),
            declared_types: DeclaredTypes::default(),
            schema: SchemaCache::default(),
            info,
            write_wait: config.busy_timeout(),
            allow_attach: config.allow_attach,
            statement_cache: config.statement_cache,
            parked: Parked::default(),
            max_connections: config.max_connections as usize,
            reset: pool::Reset::new(config, config.synchronous),
            writer_reset: pool::Reset::new(config, pool::writer_synchronous(config)),
            group_commit,
            holding: Arc::default(),
            // Those that are off (0, as the built-in defaults) need not be set.
            // Those that are PostgreSQL's own defaults need not be set.
            server_defaults: Arc::new(ServerDefaults::new(server_defaults(config))),
            health: tokio::sync::Mutex::new(None),
            outside: outside.clone(),
            file_watch: FileWatch::new(&config.db),
        });
        let watcher = Watcher::new(outside, &config.db);
        tokio::spawn(Engine::watch_file(Arc::downgrade(&engine), watcher));
        if let Some(idle) = config.idle_connection_timeout() {
            let keep = config.min_connections as usize;
            tokio::spawn(Engine::trim_parked(Arc::downgrade(&engine), idle, keep));
        }
        Ok(engine)
    }

    /// Closes the connections parked longer than `idle`, keeping `keep`, until
    /// the engine closes (see `parked`).
    async fn trim_parked(engine: std::sync::Weak<Engine>, idle: Duration, keep: usize) {
        // Looked at twice per period: none stays parked past 1.5 times it.
        let mut every = tokio::time::interval(idle / 2);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            let Some(engine) = engine.upgrade().filter(|engine| !engine.is_closed()) else {
                break;
            };
            let expired = engine.parked.expired(idle, keep);
            if expired.is_empty() {
                continue;
            }
            tracing::debug!(closed = expired.len(), "idle connections closed");
            for connection in expired {
                connection.discard();
            }
            drop(engine);
            // Each closes on its own thread: give them a moment, then hand
            // what they freed back to the system.
            tokio::time::sleep(CLOSING).await;
            let _ = tokio::task::spawn_blocking(parked::give_back_freed_memory).await;
        }
    }

    /// Follows the changes other processes make to the file until the engine
    /// closes (see `file_watch`).
    async fn watch_file(engine: std::sync::Weak<Engine>, mut watcher: Watcher) {
        loop {
            tokio::time::sleep(file_watch::INTERVAL).await;
            let Some(engine) = engine.upgrade().filter(|engine| !engine.is_closed()) else {
                break;
            };
            let changes = watcher.look(&engine.file_watch).await;
            if changes.schema {
                engine.declared_types.invalidate();
            }
            if changes.data
                && let Some(reads) = &engine.shared_reads
            {
                // Reads that start from now on must see it (see `snapshots`).
                reads.committed();
            }
        }
        watcher.close().await;
    }

    /// Whether the engine was closed (see `close`).
    pub(super) fn is_closed(&self) -> bool {
        self.parked.is_closed()
    }

    /// Whether the server is a follower (`--read-only`): a standby, whose every
    /// transaction reads only.
    pub(super) fn is_follower(&self) -> bool {
        self.shared.follower
    }

    /// A follower's lag: how long since it last saw the file change, `None`
    /// unless it is one (`--read-only`).
    pub fn replica_lag(&self) -> Option<Duration> {
        self.is_follower().then(|| self.file_watch.lag())
    }

    /// Checks that the database answers a query, on a connection of its own: it
    /// never waits for the pool, nor for sessions' statements.
    pub async fn ping(self: &Arc<Self>) -> Result<(), Error> {
        use sqlx::Connection;
        let mut health = self.health.lock().await;
        let conn = match &mut *health {
            Some(conn) => conn,
            empty => empty.insert(self.outside.connect().await?),
        };
        let answered = sqlx::query("SELECT count(*) FROM sqlite_schema")
            .fetch_one(&mut *conn)
            .await;
        if answered.is_err() {
            // Opened afresh on the next check.
            if let Some(conn) = health.take() {
                let _ = conn.close().await;
            }
        }
        answered.map(drop).map_err(Error::from)
    }

    /// Whether a new session would get a connection without waiting for one.
    /// (Counted by the sessions holding one: the pool's own count also holds
    /// connections it is opening or closing, which no session waits long for.)
    pub fn has_free_connection(&self) -> bool {
        self.holding.load(Ordering::Acquire) < self.max_connections
    }

    /// Counts a session as holding one of the readers' connections, until dropped.
    pub(super) fn hold(&self) -> Holding {
        self.holding.fetch_add(1, Ordering::AcqRel);
        Holding(self.holding.clone())
    }

    /// Stops every session's running statement (cancel, shutdown); at shutdown,
    /// statements started afterwards stop at once too.
    pub fn stop_all(&self, reason: StopReason) {
        self.shared.backends.stop_all(reason);
    }

    /// A connection for a new session: an idle one if there is one (reset if its
    /// last session may have left state on it), else one from the pool (reset
    /// when it went back).
    pub(super) async fn connection(&self) -> Result<HeldConnection, Error> {
        match self.parked.take() {
            Some(mut idle) => {
                if idle.take_dirty() {
                    self.reset(&mut idle).await?;
                }
                Ok(idle)
            }
            None => {
                HeldConnection::acquire(
                    &self.pool,
                    self.statement_cache,
                    self.declared_types.counter(),
                )
                .await
            }
        }
    }

    /// The writer connection, for the holder of the write permit (reset if its
    /// last holder may have left state on it).
    pub(super) async fn writer(&self) -> Result<HeldConnection, Error> {
        let idle = self
            .writer_idle
            .lock()
            .ok()
            .and_then(|mut idle| idle.take());
        match idle {
            Some(mut writer) => {
                if writer.take_dirty() {
                    self.writer_reset
                        .run(writer.sqlx())
                        .await
                        .map_err(Error::from)?;
                }
                Ok(writer)
            }
            None => {
                HeldConnection::acquire(
                    &self.writer_pool,
                    self.statement_cache,
                    self.declared_types.counter(),
                )
                .await
            }
        }
    }

    /// A connection with a private cache, for one read (see `snapshots`).
    pub(super) async fn fresh_reader(&self) -> Result<HeldConnection, Error> {
        HeldConnection::acquire(
            &self.fresh_pool,
            self.statement_cache,
            self.declared_types.counter(),
        )
        .await
    }

    /// Keeps the writer connection, outside any transaction, for the next holder
    /// of the write permit.
    pub(super) fn park_writer(&self, writer: HeldConnection) {
        let rejected = match self.writer_idle.lock() {
            Ok(mut idle) if idle.is_none() && !self.is_closed() => {
                *idle = Some(writer);
                None
            }
            _ => Some(writer),
        };
        drop(rejected);
    }

    /// Resets a connection for a new session (see `pool::Reset`).
    pub(super) async fn reset(&self, conn: &mut HeldConnection) -> Result<(), Error> {
        self.reset.run(conn.sqlx()).await.map_err(Error::from)
    }

    /// Keeps an ended session's connection for the next session, or gives it
    /// back to the pool when enough are kept or sessions may be waiting for one.
    pub(super) fn park(&self, idle: HeldConnection) {
        // Sessions wait for the pool only when it is at its size limit, and only a
        // connection given back to the pool wakes them: then none is kept.
        let pool_full = self.pool.size() as usize >= self.max_connections;
        let limit = if pool_full { 0 } else { self.max_connections };
        let rejected = self.parked.park(idle, limit);
        drop(rejected);
    }

    pub fn info(&self) -> &ServerInfo {
        &self.info
    }

    /// The server's counters and histograms (`/metrics`).
    pub fn metrics(&self) -> &Arc<Metrics> {
        &self.shared.metrics
    }

    /// Rows inserted, updated and deleted in the database's tables since the
    /// server started (see `table_stats`).
    pub fn rows_changed(&self) -> [u64; 3] {
        self.shared.tables.totals()
    }

    /// How many live sessions each front end has in each state (see
    /// [`SESSION_STATES`]), by [`FRONTENDS`] order.
    pub fn session_counts(&self) -> [[u64; SESSION_STATES.len()]; FRONTENDS.len()] {
        let mut counts = [[0; SESSION_STATES.len()]; FRONTENDS.len()];
        for row in self.shared.backends.rows() {
            let doing = &row.activity.doing;
            counts[doing.kind.index()][doing.state.index()] += 1;
        }
        counts
    }

    /// Under group commit: the commits written, and the fsyncs of the WAL that
    /// made them durable.
    pub fn group_commit_counts(&self) -> Option<(u64, u64)> {
        self.group_commit.as_ref().map(GroupCommit::counts)
    }

    /// Readers' connections held by sessions, and how many there may be.
    pub fn connections_in_use(&self) -> (usize, usize) {
        (self.holding.load(Ordering::Acquire), self.max_connections)
    }

    /// Closes every connection and checkpoints the WAL into the file (unless
    /// Litestream replicates it, see `pool::Checkpoints`).
    pub async fn close(&self) {
        drop(self.parked.close());
        let writer = self
            .writer_idle
            .lock()
            .ok()
            .and_then(|mut idle| idle.take());
        drop(writer);
        self.writer_pool.close().await;
        self.fresh_pool.close().await;
        if let Some(conn) = self.health.lock().await.take() {
            use sqlx::Connection;
            let _ = conn.close().await;
        }
        self.pool.close().await;
        // The last connection to close checkpoints the WAL into the file; a
        // discarded connection still closing behind could be that one, so the
        // checkpoint is made here too.
        use sqlx::Connection;
        if let Ok(mut conn) = self.outside.connect().await {
            // Values handed out in rolled-back transactions are not handed out
            // again (see `sequences`).
            self.shared.sequences.persist(&mut conn).await;
            if self.outside.checkpoints() == pool::Checkpoints::Litewire {
                let checkpoint = sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
                    .execute(&mut conn)
                    .await;
                if let Err(error) = checkpoint {
                    tracing::warn!(%error, "WAL checkpoint at shutdown");
                }
            }
            let _ = conn.close().await;
        }
    }
}

/// The settings the server's flags give every session, where they are not
/// PostgreSQL's own defaults.
fn server_defaults(config: &Config) -> Vec<(&'static str, String)> {
    let mut defaults: Vec<(&'static str, String)> = [
        ("statement_timeout", config.statement_timeout_ms),
        ("lock_timeout", config.lock_timeout_ms),
        (
            "idle_in_transaction_session_timeout",
            config.idle_in_transaction_timeout_ms,
        ),
    ]
    .into_iter()
    .filter(|(_, millis)| *millis != 0)
    .map(|(name, millis)| (name, millis.to_string()))
    .collect();
    if config.default_transaction_isolation != "read committed" {
        defaults.push((
            "default_transaction_isolation",
            config.default_transaction_isolation.clone(),
        ));
    }
    // Where the PostgreSQL port listens, as PostgreSQL reports its own.
    let port = config.pg_listen.port();
    if port != 0 && port != 5432 {
        defaults.push(("port", port.to_string()));
    }
    defaults.push(("listen_addresses", config.pg_listen.ip().to_string()));
    let socket_dirs: Vec<String> = config
        .pg_socket_dirs()
        .iter()
        .map(|dir| dir.display().to_string())
        .collect();
    if !socket_dirs.is_empty() {
        defaults.push(("unix_socket_directories", socket_dirs.join(", ")));
    }
    if config.pg_socket_permissions != 0o777 {
        defaults.push((
            "unix_socket_permissions",
            format!("{:04o}", config.pg_socket_permissions),
        ));
    }
    if config.read_only {
        // As on a PostgreSQL standby: every transaction reads only.
        defaults.push(("default_transaction_read_only", "on".to_owned()));
    }
    defaults
}

/// The database file as SQLite names it (a full path, links resolved): its
/// WAL is that name with `-wal`.
async fn main_file(pool: &SqlitePool) -> Result<std::path::PathBuf, Error> {
    let file: String = sqlx::query("SELECT file FROM pragma_database_list WHERE name = 'main'")
        .fetch_one(pool)
        .await?
        .try_get(0)?;
    Ok(file.into())
}

async fn read_server_info(pool: &SqlitePool, cache: CacheMode) -> Result<ServerInfo, Error> {
    let mut conn = pool.acquire().await?;
    let sqlite_version: String = sqlx::query("SELECT sqlite_version()")
        .fetch_one(&mut *conn)
        .await?
        .try_get(0)?;
    let compile_options = sqlx::query("SELECT compile_options FROM pragma_compile_options")
        .fetch_all(&mut *conn)
        .await?
        .iter()
        .map(|row| row.try_get::<String, _>(0))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(ServerInfo {
        version: env!("CARGO_PKG_VERSION"),
        sqlite_version,
        compile_options,
        cache,
    })
}

/// A session's hold on a readers' connection (see `Engine::has_free_connection`).
pub(super) struct Holding(Arc<AtomicUsize>);

impl Drop for Holding {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}
