//! Every knob litewire has, in one place.
//!
//! Each flag can also be set through a `LITEWIRE_*` environment variable, so the
//! same binary runs unchanged from a shell, a systemd unit or a container.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Parser, Subcommand, ValueEnum};

/// How SQLite connections of the pool share their page cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CacheMode {
    /// One page cache for every connection (`cache=shared`); table-level locks.
    Shared,
    /// A page cache per connection; WAL snapshot isolation between connections.
    Private,
}

impl CacheMode {
    pub fn as_str(self) -> &'static str {
        match self {
            CacheMode::Shared => "shared",
            CacheMode::Private => "private",
        }
    }
}

/// SQLite's `PRAGMA synchronous` levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Synchronous {
    Off,
    Normal,
    Full,
    Extra,
}

/// Who checkpoints the WAL into the database file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Replication {
    /// litewire: SQLite's automatic checkpoints, and a last one at shutdown.
    None,
    /// Litestream replicates the file from its WAL and must be its only
    /// checkpointer: litewire never checkpoints.
    Litestream,
}

impl Replication {
    pub fn as_str(self) -> &'static str {
        match self {
            Replication::None => "none",
            Replication::Litestream => "litestream",
        }
    }
}

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LogFormat {
    /// One line of text per event (in colour on a terminal).
    Text,
    /// One JSON object per line: time, level, target, message and the event's fields.
    Json,
}

/// Whether clients must authenticate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuthMode {
    /// Everyone who reaches a port is let in, as a `readwrite` user.
    Trust,
    /// Users of `--users` / `LITEWIRE_PASSWORD` only.
    Password,
}

/// Password methods the PostgreSQL port may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PgAuthMethod {
    /// SCRAM-SHA-256: the password never crosses the wire.
    #[value(name = "scram-sha-256")]
    ScramSha256,
    /// PostgreSQL's md5 challenge, for old clients, for users with an md5 verifier.
    Md5,
    /// The password in clear, and only over TLS.
    Password,
}

/// What the binary is asked to do besides serving.
#[derive(Debug, Clone, Subcommand)]
pub enum Command {
    /// Reads a password (from the terminal, or stdin when piped) and prints the
    /// users-file line for NAME, with a SCRAM-SHA-256 verifier.
    Passwd {
        /// The user's name.
        name: String,
        /// admin, readwrite or readonly.
        #[arg(long, default_value = "readwrite")]
        role: String,
        /// Print an md5 verifier instead (only for clients that cannot do SCRAM).
        #[arg(long)]
        md5: bool,
    },
    /// Writes the database (`--db`) as a plain SQL script that `psql -f`
    /// restores into PostgreSQL: its types, tables, sequences, views, rows
    /// (as COPY), keys, indexes and comments. Opens the file read-only, so it
    /// runs beside a serving litewire.
    Dump {
        /// Where to write the script (standard output when absent).
        #[arg(short = 'f', long)]
        file: Option<PathBuf>,
    },
}

/// Command-line and environment configuration of the server.
#[derive(Debug, Clone, Parser)]
#[command(
    name = "litewire",
    version,
    about = "Serve a SQLite database over the PostgreSQL wire protocol and HTTP JSON"
)]
pub struct Config {
    /// SQLite database file to serve (created if absent).
    #[arg(long, env = "LITEWIRE_DB", default_value = "litewire.db")]
    pub db: PathBuf,

    /// Address of the PostgreSQL wire protocol listener.
    #[arg(long, env = "LITEWIRE_PG_LISTEN", default_value = "127.0.0.1:5432")]
    pub pg_listen: SocketAddr,

    /// Directories where the PostgreSQL port also listens on a Unix-domain
    /// socket, `DIR/.s.PGSQL.<port>`, comma-separated (PostgreSQL's
    /// `unix_socket_directories`): `psql -h DIR`, or with no `-h` when DIR is
    /// libpq's default (`/var/run/postgresql` on Debian). None by default.
    #[arg(
        long,
        visible_alias = "unix-socket-directories",
        alias = "unix_socket_directories",
        env = "LITEWIRE_PG_SOCKET_DIR",
        value_delimiter = ','
    )]
    pub pg_socket_dir: Vec<String>,

    /// The access mode of those socket files, in octal (PostgreSQL's
    /// `unix_socket_permissions`); who may log in is still up to the
    /// authentication settings.
    #[arg(long, env = "LITEWIRE_PG_SOCKET_PERMISSIONS", default_value = "0777", value_parser = parse_octal_mode)]
    pub pg_socket_permissions: u32,

    /// Address of the HTTP JSON listener.
    #[arg(long, env = "LITEWIRE_HTTP_LISTEN", default_value = "127.0.0.1:8080")]
    pub http_listen: SocketAddr,

    /// Address of a listener of its own for `GET /metrics` and `GET /ready`,
    /// without the HTTP port's credentials or TLS: for a scraper on a private
    /// network. Off by default (both routes are on the HTTP port anyway).
    #[arg(long, env = "LITEWIRE_METRICS_LISTEN")]
    pub metrics_listen: Option<SocketAddr>,

    /// Page cache sharing between the pool's SQLite connections.
    #[arg(long, env = "LITEWIRE_CACHE", value_enum, default_value = "shared")]
    pub cache: CacheMode,

    /// Serve a file that something else writes (a Litestream follower, `litestream
    /// restore -f`, another process): opened read-only, every write refused
    /// (25006) on both ports, changes followed as they arrive, `/health`
    /// reporting the lag.
    #[arg(long, env = "LITEWIRE_READ_ONLY")]
    pub read_only: bool,

    /// Who checkpoints the WAL: `litestream` when Litestream replicates the file
    /// (litewire then never checkpoints, see docs/operations.md). Unset: found on
    /// its own, from Litestream's directory beside the file (`.NAME-litestream`).
    #[arg(long, env = "LITEWIRE_REPLICATION", value_enum)]
    pub replication: Option<Replication>,

    /// `PRAGMA synchronous` for every connection. `full` (the default, what
    /// PostgreSQL's `fsync = on` promises): a commit is acknowledged once an
    /// fsync of the WAL covers it, concurrent commits sharing one (group
    /// commit); `normal`: a power cut loses the commits since the last
    /// checkpoint.
    #[arg(long, env = "LITEWIRE_SYNCHRONOUS", value_enum, default_value = "full")]
    pub synchronous: Synchronous,

    /// Bytes of the database file SQLite reads through a memory map (`PRAGMA
    /// mmap_size`) instead of pread(2) into its page cache; 0 (SQLite's default): off.
    /// Pages still in the WAL are read with pread(2) either way.
    #[arg(long, env = "LITEWIRE_MMAP_SIZE", default_value_t = 0)]
    pub mmap_size: u64,

    /// SQLite's page cache, in KiB, per cache (one in shared mode, one per connection
    /// in private mode): `PRAGMA cache_size = -N`.
    #[arg(long, env = "LITEWIRE_CACHE_SIZE_KIB", default_value_t = 2000)]
    pub cache_size_kib: u64,

    /// Most SQLite connections the pool opens (each Postgres session in use holds
    /// one), and most PostgreSQL clients served at once: past it a new client gets
    /// FATAL 53300 at once, and an HTTP request that finds no free connection 503.
    #[arg(long, env = "LITEWIRE_MAX_CONNECTIONS", default_value_t = 128)]
    pub max_connections: u32,

    /// SQLite connections the pool keeps open even when idle.
    #[arg(long, env = "LITEWIRE_MIN_CONNECTIONS", default_value_t = 1)]
    pub min_connections: u32,

    /// A SQLite connection no session has used for this long is closed (down to
    /// `--min-connections`), its thread and memory given back, in milliseconds;
    /// 0: never.
    #[arg(
        long,
        env = "LITEWIRE_IDLE_CONNECTION_TIMEOUT_MS",
        default_value_t = 30_000
    )]
    pub idle_connection_timeout_ms: u64,

    /// How long a statement waits for a lock held by another process, and how long a
    /// writer waits for its turn, in milliseconds.
    #[arg(long, env = "LITEWIRE_BUSY_TIMEOUT_MS", default_value_t = 5000)]
    pub busy_timeout_ms: u64,

    /// How long a client waits for a free SQLite connection, in milliseconds.
    #[arg(long, env = "LITEWIRE_ACQUIRE_TIMEOUT_MS", default_value_t = 30000)]
    pub acquire_timeout_ms: u64,

    /// Prepared statements each SQLite connection keeps.
    #[arg(long, env = "LITEWIRE_STATEMENT_CACHE", default_value_t = 256)]
    pub statement_cache: usize,

    /// Largest HTTP request body accepted, in bytes.
    #[arg(long, env = "LITEWIRE_HTTP_BODY_LIMIT", default_value_t = 8 * 1024 * 1024)]
    pub http_body_limit: usize,

    /// How long a Hrana stream (a libsql client's connection over HTTP) may sit idle
    /// before it is closed and its transaction rolled back, in milliseconds.
    #[arg(
        long,
        env = "LITEWIRE_HRANA_STREAM_EXPIRY_MS",
        default_value_t = 10_000
    )]
    pub hrana_stream_expiry_ms: u64,

    /// Most Hrana streams kept open between requests (each holds a SQLite connection).
    #[arg(long, env = "LITEWIRE_HRANA_MAX_STREAMS", default_value_t = 64)]
    pub hrana_max_streams: usize,

    /// Most SQL texts a Hrana stream may store (`store_sql`).
    #[arg(long, env = "LITEWIRE_HRANA_MAX_STORED_SQL", default_value_t = 150)]
    pub hrana_max_stored_sql: usize,

    /// Largest HTTP answer, in bytes of JSON (`POST /` and Hrana pipelines): the
    /// statement whose rows would go past it fails. `POST /` sends a large answer as
    /// it is written, so the limit bounds what a client receives, not the memory.
    #[arg(
        long,
        env = "LITEWIRE_HTTP_MAX_RESPONSE_BYTES",
        default_value_t = 64 * 1024 * 1024
    )]
    pub http_max_response_bytes: usize,

    /// Let clients ATTACH other database files (off: remote clients cannot reach the
    /// server's filesystem).
    #[arg(long, env = "LITEWIRE_ALLOW_ATTACH")]
    pub allow_attach: bool,

    /// Worker threads serving connections; 0: one per CPU. Each runs statements to
    /// the end, so fewer than the CPUs leaves room for other processes.
    #[arg(long, env = "LITEWIRE_WORKER_THREADS", default_value_t = 0)]
    pub worker_threads: usize,

    /// One single-threaded runtime per worker thread, each connection staying on one
    /// (faster round trips), instead of one work-stealing runtime. A long statement
    /// then stalls the other connections on its thread (see `workers`).
    #[arg(long, env = "LITEWIRE_THREAD_PER_CORE")]
    pub thread_per_core: bool,

    /// The server's default `statement_timeout`, in milliseconds (0: none): a
    /// statement running longer fails with 57014. Clients change it with `SET` or
    /// `-c statement_timeout=...` at startup.
    #[arg(long, env = "LITEWIRE_STATEMENT_TIMEOUT_MS", default_value_t = 0)]
    pub statement_timeout_ms: u64,

    /// The server's default `lock_timeout`, in milliseconds (0: the busy timeout):
    /// how long a writer waits for its turn before failing with 55P03.
    #[arg(long, env = "LITEWIRE_LOCK_TIMEOUT_MS", default_value_t = 0)]
    pub lock_timeout_ms: u64,

    /// The server's default `default_transaction_isolation`: the isolation level
    /// of every transaction a client does not ask another one for.
    #[arg(
        long,
        env = "LITEWIRE_DEFAULT_TRANSACTION_ISOLATION",
        default_value = "read committed",
        value_parser = ["read committed", "repeatable read", "serializable"]
    )]
    pub default_transaction_isolation: String,

    /// The server's default `idle_in_transaction_session_timeout`, in milliseconds
    /// (0: none): a PostgreSQL session idle inside a transaction for longer is
    /// ended (FATAL 25P03) and its transaction rolled back, releasing its locks.
    #[arg(
        long,
        env = "LITEWIRE_IDLE_IN_TRANSACTION_TIMEOUT_MS",
        default_value_t = 300_000
    )]
    pub idle_in_transaction_timeout_ms: u64,

    /// Longest an HTTP request's statements may run, in milliseconds (0: no
    /// limit); past it the statement fails with "canceling statement due to
    /// statement timeout".
    #[arg(long, env = "LITEWIRE_HTTP_TIMEOUT_MS", default_value_t = 30_000)]
    pub http_timeout_ms: u64,

    /// How long a connection may take to finish its startup (PostgreSQL) or send
    /// its request headers (HTTP), in milliseconds, before it is closed.
    #[arg(long, env = "LITEWIRE_STARTUP_TIMEOUT_MS", default_value_t = 10_000)]
    pub startup_timeout_ms: u64,

    /// Largest PostgreSQL protocol message accepted, in bytes: a longer one gets
    /// 08P01 and the connection closes (nothing of its claimed size is allocated).
    #[arg(long, env = "LITEWIRE_MAX_MESSAGE_BYTES", default_value_t = 64 * 1024 * 1024)]
    pub max_message_bytes: usize,

    /// At SIGTERM/SIGINT, how long running statements may go on before they are
    /// interrupted, in milliseconds. Idle clients are told at once (FATAL 57P01).
    #[arg(long, env = "LITEWIRE_SHUTDOWN_GRACE_MS", default_value_t = 5000)]
    pub shutdown_grace_ms: u64,

    /// Log filter (same syntax as RUST_LOG, which wins when set).
    #[arg(long, env = "LITEWIRE_LOG_LEVEL", default_value = "info")]
    pub log_level: String,

    /// How log lines are written: text, or one JSON object per line.
    #[arg(long, env = "LITEWIRE_LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// Logs every query that ran at least this many milliseconds, with its
    /// duration and text (PostgreSQL's `log_min_duration_statement`); 0 logs
    /// every query, -1 none.
    #[arg(
        long,
        env = "LITEWIRE_LOG_MIN_DURATION_STATEMENT",
        default_value_t = -1,
        allow_negative_numbers = true,
        value_parser = clap::value_parser!(i64).range(-1..)
    )]
    pub log_min_duration_statement: i64,

    /// Logs a wait for the write permit or an advisory lock that lasts longer
    /// than the session's `deadlock_timeout` (1 s), naming who holds it, and
    /// when it ends (PostgreSQL's `log_lock_waits`).
    #[arg(long, env = "LITEWIRE_LOG_LOCK_WAITS")]
    pub log_lock_waits: bool,

    /// Statements `pg_stat_statements` keeps counts of (PostgreSQL's
    /// `pg_stat_statements.max`); when full, the least called go. 0 counts
    /// none.
    #[arg(long, env = "LITEWIRE_PG_STAT_STATEMENTS_MAX", default_value_t = 5000)]
    pub pg_stat_statements_max: usize,

    /// Logs each PostgreSQL connection: received, and authorized with its user,
    /// database and application (PostgreSQL's `log_connections`).
    #[arg(long, env = "LITEWIRE_LOG_CONNECTIONS")]
    pub log_connections: bool,

    /// Logs the end of each PostgreSQL session with how long it lasted
    /// (PostgreSQL's `log_disconnections`).
    #[arg(long, env = "LITEWIRE_LOG_DISCONNECTIONS")]
    pub log_disconnections: bool,

    /// Users file: one `name:role:verifier` per line (see `litewire passwd`).
    #[arg(long, env = "LITEWIRE_USERS")]
    pub users: Option<PathBuf>,

    /// Password of the user `postgres` (role admin), without a users file. Prefer
    /// the environment variable: a flag shows in the process list.
    #[arg(long, env = "LITEWIRE_PASSWORD", hide_env_values = true)]
    pub password: Option<String>,

    /// trust or password; default: password when users exist, otherwise trust
    /// (which refuses to start on a non-loopback listener unless given explicitly).
    #[arg(long, env = "LITEWIRE_AUTH", value_enum)]
    pub auth: Option<AuthMode>,

    /// Password methods of the PostgreSQL port, by preference; `password`
    /// (cleartext) is only used over TLS.
    #[arg(
        long,
        env = "LITEWIRE_PG_AUTH_METHODS",
        value_enum,
        value_delimiter = ',',
        default_value = "scram-sha-256"
    )]
    pub pg_auth_methods: Vec<PgAuthMethod>,

    /// Ed25519 public key (PEM, or raw base64url) that HTTP Bearer tokens are
    /// checked against.
    #[arg(long, env = "LITEWIRE_JWT_KEY_FILE")]
    pub jwt_key_file: Option<PathBuf>,

    /// TLS certificate chain (PEM) for both ports.
    #[arg(long, env = "LITEWIRE_TLS_CERT", requires = "tls_key")]
    pub tls_cert: Option<PathBuf>,

    /// TLS private key (PEM) for both ports.
    #[arg(long, env = "LITEWIRE_TLS_KEY", requires = "tls_cert")]
    pub tls_key: Option<PathBuf>,

    /// Make a self-signed certificate at startup (its SHA-256 fingerprint is
    /// logged), when no --tls-cert is given.
    #[arg(long, env = "LITEWIRE_TLS_SELF_SIGNED", conflicts_with = "tls_cert")]
    pub tls_self_signed: bool,

    /// Refuse PostgreSQL clients that do not use TLS (FATAL 28000).
    #[arg(long, env = "LITEWIRE_PG_REQUIRE_TLS")]
    pub pg_require_tls: bool,

    /// For the durability tests: keep, beside each file SQLite syncs, the file
    /// as that sync left it (`NAME.durable`), to cut the power on.
    #[arg(long, hide = true, env = "LITEWIRE_SIMULATE_POWER_LOSS")]
    pub simulate_power_loss: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// A file mode in octal (`0777`, `770`), as PostgreSQL reads
/// `unix_socket_permissions`.
fn parse_octal_mode(text: &str) -> Result<u32, String> {
    u32::from_str_radix(text.trim(), 8)
        .ok()
        .filter(|mode| *mode <= 0o777)
        .ok_or_else(|| format!("{text:?} is not a file mode in octal (0000 to 0777)"))
}

impl Config {
    /// The directories of `--pg-socket-dir`, blanks around each and empty
    /// entries dropped, as PostgreSQL reads its list.
    pub fn pg_socket_dirs(&self) -> Vec<PathBuf> {
        self.pg_socket_dir
            .iter()
            .map(|dir| dir.trim())
            .filter(|dir| !dir.is_empty())
            .map(PathBuf::from)
            .collect()
    }

    pub fn busy_timeout(&self) -> Duration {
        Duration::from_millis(self.busy_timeout_ms)
    }

    /// The queries that take at least this long are logged (`None`: none).
    pub fn slow_query(&self) -> Option<Duration> {
        u64::try_from(self.log_min_duration_statement)
            .ok()
            .map(Duration::from_millis)
    }

    /// How long an unused SQLite connection stays open (`None`: for ever).
    pub fn idle_connection_timeout(&self) -> Option<Duration> {
        (self.idle_connection_timeout_ms > 0)
            .then(|| Duration::from_millis(self.idle_connection_timeout_ms))
    }

    pub fn acquire_timeout(&self) -> Duration {
        Duration::from_millis(self.acquire_timeout_ms)
    }

    pub fn hrana_stream_expiry(&self) -> Duration {
        Duration::from_millis(self.hrana_stream_expiry_ms)
    }

    /// Whether clients must authenticate: `--auth`, else whether users exist.
    pub fn auth_enabled(&self) -> bool {
        match self.auth {
            Some(AuthMode::Trust) => false,
            Some(AuthMode::Password) => true,
            None => self.users.is_some() || self.password.is_some(),
        }
    }

    /// Whether Litestream replicates the file: `--replication`, else whether
    /// Litestream's directory of state sits beside it.
    pub fn replication(&self) -> Replication {
        self.replication.unwrap_or_else(|| {
            let name = self.db.file_name().map(|name| name.to_string_lossy());
            let state = name.map(|name| self.db.with_file_name(format!(".{name}-litestream")));
            match state {
                Some(dir) if dir.is_dir() => Replication::Litestream,
                _ => Replication::None,
            }
        })
    }

    /// Whether TLS is configured.
    pub fn tls_enabled(&self) -> bool {
        self.tls_cert.is_some() || self.tls_self_signed
    }

    pub fn http_timeout(&self) -> Option<Duration> {
        (self.http_timeout_ms > 0).then(|| Duration::from_millis(self.http_timeout_ms))
    }

    pub fn startup_timeout(&self) -> Duration {
        Duration::from_millis(self.startup_timeout_ms)
    }

    pub fn shutdown_grace(&self) -> Duration {
        Duration::from_millis(self.shutdown_grace_ms)
    }

    /// How many worker threads serve connections: `worker_threads`, or one per CPU.
    pub fn workers(&self) -> usize {
        match self.worker_threads {
            0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
            n => n,
        }
    }
}
