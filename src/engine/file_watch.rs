//! Changes that other processes make to the database file.
//!
//! litewire learns of its own changes as it makes them: its DDL drops the
//! cached schema, its commits are counted for the shared cache's readers (see
//! `snapshots`). A file that something else writes changes without litewire
//! knowing: a follower's (`--read-only`), which Litestream or another server
//! updates, or any file a `sqlite3` shell changes under a running server. A
//! task asks SQLite on a connection of its own every [`INTERVAL`]: `PRAGMA
//! data_version` moves when another connection committed, `PRAGMA
//! schema_version` when the schema changed, and the file's own time when
//! Litestream wrote pages straight into it (which SQLite does not notice). A
//! new schema drops the cached declarations; a commit is counted for the
//! shared cache's readers; and the time of the last one seen is a follower's
//! lag (`/health`, `/metrics`).

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use sqlx::SqliteConnection;

use super::pool::{FOLLOWER_MAPPED, Outside};

/// How often the file is asked: how long a change can go unnoticed.
pub(super) const INTERVAL: Duration = Duration::from_millis(50);

/// When a change made by another process was last seen.
#[derive(Debug)]
pub(super) struct FileWatch {
    last_change: Mutex<SystemTime>,
}

impl FileWatch {
    /// Until a change is seen, the file's own last modification stands for it.
    pub(super) fn new(db: &Path) -> Self {
        FileWatch {
            last_change: Mutex::new(last_modified(db).unwrap_or_else(SystemTime::now)),
        }
    }

    /// Seconds since the last change seen.
    pub(super) fn lag(&self) -> Duration {
        let last = self
            .last_change
            .lock()
            .map_or_else(|_| SystemTime::now(), |last| *last);
        SystemTime::now().duration_since(last).unwrap_or_default()
    }

    fn changed(&self) {
        if let Ok(mut last) = self.last_change.lock() {
            *last = SystemTime::now();
        }
    }
}

/// When the file or its WAL was last written, by anyone.
fn last_modified(db: &Path) -> Option<SystemTime> {
    let modified = |path: &Path| {
        std::fs::metadata(path)
            .and_then(|meta| meta.modified())
            .ok()
    };
    let wal = PathBuf::from(format!("{}-wal", db.display()));
    modified(db).max(modified(&wal))
}

/// A copy that `litestream restore -f` keeps starts in WAL mode (its header is
/// the primary's), though Litestream writes it as a rollback-journal file: it
/// writes pages straight into the file under SQLite's exclusive lock, and marks
/// the header rollback mode when it next writes page 1. Until then every SQLite
/// reader holds the file's shared lock for as long as it is open, as WAL mode
/// wants, and Litestream waits for its exclusive lock forever. So a follower of
/// such a copy (a `NAME-txid` file beside it and nothing in its WAL) switches
/// it to rollback mode once, through SQLite and its locks, before it opens it
/// read-only. A file another SQLite process writes in WAL mode has no `-txid`
/// and is left as it is.
pub(super) async fn rollback_mode_for_litestream(db: &Path) -> Result<(), sqlx::Error> {
    use sqlx::ConnectOptions;
    let beside = |suffix: &str| PathBuf::from(format!("{}{suffix}", db.display()));
    if !beside("-txid").exists() {
        return Ok(());
    }
    let size = std::fs::metadata(db).map_or(0, |meta| meta.len());
    if size > FOLLOWER_MAPPED {
        tracing::warn!(
            db = %db.display(),
            size,
            "a Litestream follow copy larger than the 2 GiB read through a memory map: \
             pages past it are read through SQLite's cache, which Litestream does not \
             tell of every change"
        );
    }
    let wal_empty = std::fs::metadata(beside("-wal")).map_or(true, |meta| meta.len() == 0);
    if !wal_empty || !in_wal_mode(db) {
        return Ok(());
    }
    tracing::info!(db = %db.display(), "a Litestream follow copy in WAL mode: switching it to rollback mode");
    let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(db)
        .connect()
        .await?;
    sqlx::query("PRAGMA journal_mode = DELETE")
        .execute(&mut conn)
        .await?;
    use sqlx::Connection;
    conn.close().await
}

/// Whether the file's header says WAL mode (bytes 18 and 19 are 2).
fn in_wal_mode(db: &Path) -> bool {
    use std::io::Read;
    let mut header = [0u8; 20];
    std::fs::File::open(db)
        .and_then(|mut file| file.read_exact(&mut header))
        .is_ok_and(|()| header[18] == 2 && header[19] == 2)
}

/// What a look at the file found changed since the last look.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Changes {
    /// Another connection committed.
    pub data: bool,
    /// The schema changed.
    pub schema: bool,
}

/// The watcher's connection and what it saw last.
#[derive(Debug)]
pub(super) struct Watcher {
    outside: Outside,
    db: PathBuf,
    conn: Option<SqliteConnection>,
    /// `data_version` and `schema_version`.
    seen: Option<(i64, i64)>,
    modified: Option<SystemTime>,
}

impl Watcher {
    pub(super) fn new(outside: Outside, db: &Path) -> Self {
        Watcher {
            outside,
            db: db.to_path_buf(),
            conn: None,
            seen: None,
            modified: last_modified(db),
        }
    }

    /// Looks at the file once; a change is noted in `watch` as seen now.
    pub(super) async fn look(&mut self, watch: &FileWatch) -> Changes {
        if self.conn.is_none() {
            self.conn = self.outside.connect().await.ok();
        }
        let Some(conn) = self.conn.as_mut() else {
            return Changes::default();
        };
        let versions: Result<(i64, i64), _> =
            sqlx::query_as("SELECT * FROM pragma_data_version(), pragma_schema_version()")
                .fetch_one(&mut *conn)
                .await;
        let Ok((data, schema)) = versions else {
            // Opened again on the next look.
            self.conn = None;
            return Changes::default();
        };
        // Pages Litestream writes straight into a follower's file change
        // neither version (SQLite learns of a rollback-mode file's changes
        // from its change counter, which Litestream moves only with page 1):
        // the file's own time says they came.
        let modified = last_modified(&self.db);
        let mut changes = match self.seen {
            Some((seen_data, seen_schema)) => Changes {
                data: data != seen_data,
                schema: schema != seen_schema,
            },
            None => Changes::default(),
        };
        changes.data |= modified != self.modified;
        self.seen = Some((data, schema));
        self.modified = modified;
        if changes.data {
            watch.changed();
        }
        changes
    }

    pub(super) async fn close(self) {
        if let Some(conn) = self.conn {
            use sqlx::Connection;
            let _ = conn.close().await;
        }
    }
}
