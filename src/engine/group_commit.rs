//! Group commit: with `--synchronous full`, a commit is acknowledged only once
//! an fsync of the WAL covers it, and one fsync covers every commit written
//! before it began, as PostgreSQL's commits share their WAL flushes.
//!
//! SQLite at `synchronous=FULL` syncs the WAL inside each COMMIT, while it
//! holds the write lock: commits queue behind one another's fsyncs. Here the
//! writer connection runs at `NORMAL` (frames are written, not synced), takes a
//! ticket as it commits ([`GroupCommit::written`]) and lets the next writer in;
//! the session then waits for its ticket ([`GroupCommit::durable`]) before it
//! answers. The first session to wait syncs the WAL for every ticket issued so
//! far, while others wait for that sync or lead the next one. The sync goes
//! through SQLite's VFS, as SQLite's own syncs do (see `power_loss`, which
//! tests this).
//!
//! What this does not change: a commit is visible to other sessions as soon as
//! it is written, before its fsync (PostgreSQL shows it only after); a reader
//! may see a commit that a power cut in the next milliseconds takes away, and
//! its writer was never told it succeeded.

use std::ffi::c_int;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use libsqlite3_sys as ffi;
use tokio::sync::watch;

use crate::error::{Error, ErrorKind, SqlState};

/// The tickets of commits written and synced.
#[derive(Debug)]
pub(super) struct GroupCommit {
    /// The WAL's path, NUL-terminated twice, as SQLite's VFS expects a file name.
    wal: Arc<[u8]>,
    /// The last ticket issued.
    written: AtomicU64,
    /// The last ticket an fsync covers.
    synced: watch::Sender<u64>,
    /// A session is syncing now.
    syncing: AtomicBool,
    /// Counts syncs.
    syncs: AtomicU64,
}

impl GroupCommit {
    /// Group commit for the database file `db`, whose WAL is `db-wal`.
    pub(super) fn new(db: &Path) -> GroupCommit {
        // A Unix path holds no NUL byte.
        let mut wal = db.as_os_str().as_encoded_bytes().to_vec();
        wal.extend_from_slice(b"-wal\0\0");
        GroupCommit {
            wal: wal.into(),
            written: AtomicU64::new(0),
            synced: watch::Sender::new(0),
            syncing: AtomicBool::new(false),
            syncs: AtomicU64::new(0),
        }
    }

    /// A commit was written (still under the write permit): its ticket.
    pub(super) fn written(&self) -> u64 {
        self.written.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// Commits written, and fsyncs made for them.
    pub(super) fn counts(&self) -> (u64, u64) {
        (
            self.written.load(Ordering::Relaxed),
            self.syncs.load(Ordering::Relaxed),
        )
    }

    /// Returns once an fsync of the WAL covers `ticket`: waits for the sync in
    /// progress, or makes the next one. An fsync that fails fails the commit's
    /// acknowledgement (58030), as PostgreSQL's PANIC would end it.
    pub(super) async fn durable(&self, ticket: u64) -> Result<(), Error> {
        let mut synced = self.synced.subscribe();
        loop {
            if *synced.borrow_and_update() >= ticket {
                return Ok(());
            }
            if self
                .syncing
                .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
                .is_ok()
            {
                // Let go however this ends, even if this session's future is
                // dropped mid-sync: the others would wait for ever.
                let leading = Leading(self);
                // Every commit written before the sync starts is covered.
                let covers = self.written.load(Ordering::SeqCst);
                let result = self.sync().await;
                if result.is_ok() {
                    self.synced
                        .send_modify(|synced| *synced = (*synced).max(covers));
                }
                drop(leading);
                result?;
                continue;
            }
            if synced.changed().await.is_err() {
                return Ok(());
            }
        }
    }

    /// One fsync of the WAL, on a blocking thread: through the default VFS,
    /// on a handle of its own (a WAL file takes no locks, so opening and
    /// closing one beside SQLite's disturbs nothing).
    async fn sync(&self) -> Result<(), Error> {
        let wal = self.wal.clone();
        let done = tokio::task::spawn_blocking(move || sync_through_vfs(&wal))
            .await
            .unwrap_or(Err(ffi::SQLITE_ERROR));
        self.syncs.fetch_add(1, Ordering::Relaxed);
        done.map_err(|code| {
            Error::new(
                ErrorKind::SqlState(SqlState::IO_ERROR),
                format!("could not fsync the write-ahead log (SQLite error {code})"),
            )
        })
    }
}

/// The session that syncs now. Dropped, it lets the others look again (and
/// one of them lead the next sync), whether its sync worked or not.
struct Leading<'a>(&'a GroupCommit);

impl Drop for Leading<'_> {
    fn drop(&mut self) {
        self.0.syncing.store(false, Ordering::SeqCst);
        self.0.synced.send_modify(|_| {});
    }
}

/// Opens `wal` (NUL-terminated twice) with SQLite's default VFS, syncs it and
/// closes it.
fn sync_through_vfs(wal: &[u8]) -> Result<(), c_int> {
    // SAFETY: sqlite3_vfs_find(NULL) returns the default VFS, registered for
    // the life of the process (or NULL before SQLite is initialized, handled).
    let vfs = unsafe { ffi::sqlite3_vfs_find(std::ptr::null()) };
    if vfs.is_null() {
        return Err(ffi::SQLITE_ERROR);
    }
    // SAFETY: `vfs` is a valid VFS; its fields are read only.
    let (size, open) = unsafe { ((*vfs).szOsFile, (*vfs).xOpen) };
    let Some(open) = open else {
        return Err(ffi::SQLITE_ERROR);
    };
    // The VFS's file object, 8-byte aligned as SQLite allocates them.
    let words = usize::try_from(size).unwrap_or(0).div_ceil(8).max(1);
    let mut space = vec![0u64; words];
    let file = space.as_mut_ptr().cast::<ffi::sqlite3_file>();
    let flags = ffi::SQLITE_OPEN_READWRITE | ffi::SQLITE_OPEN_WAL;
    let mut opened = 0;
    // SAFETY: `file` points to `szOsFile` zeroed bytes that outlive the
    // handle (closed below); `wal` is NUL-terminated twice and outlives it too.
    let rc = unsafe { open(vfs, wal.as_ptr().cast(), file, flags, &mut opened) };
    // SAFETY: after xOpen, pMethods is NULL or the file's methods.
    let methods = unsafe { (*file).pMethods };
    if methods.is_null() {
        return Err(if rc == ffi::SQLITE_OK {
            ffi::SQLITE_ERROR
        } else {
            rc
        });
    }
    // SAFETY: an opened file (non-NULL pMethods) is synced, then closed once,
    // as xOpen's contract asks even when it failed.
    unsafe {
        let synced = match ((*methods).xSync, rc) {
            (Some(sync), ffi::SQLITE_OK) => sync(file, ffi::SQLITE_SYNC_NORMAL),
            (_, ffi::SQLITE_OK) => ffi::SQLITE_ERROR,
            (_, failed) => failed,
        };
        if let Some(close) = (*methods).xClose {
            close(file);
        }
        match synced {
            ffi::SQLITE_OK => Ok(()),
            failed => Err(failed),
        }
    }
}
