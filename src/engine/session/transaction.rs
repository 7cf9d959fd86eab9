//! Transactions: BEGIN with its modes, COMMIT, ROLLBACK, the transactions COPY
//! runs in, and the write permit a transaction holds from its first write (or
//! locking read) to its end.
//!
//! A READ COMMITTED transaction opens in SQLite only at its first write, on the
//! writer connection (see `routing`), so its reads each see the latest commit
//! and hold nothing between statements. A REPEATABLE READ or SERIALIZABLE one
//! reads one snapshot from its first statement on (see `isolation`).
//! Notifications and LISTEN changes wait for the commit, and are delivered
//! while the permit is still held, so in commit order.

use std::sync::atomic::Ordering;
use std::time::Instant;

use tokio::sync::OwnedSemaphorePermit;

use super::state::{Rows, Session, TransactionState, WriteLock};
use crate::engine::locks::{Resource, WaitLimits};
use crate::engine::result::QueryResult;
use crate::error::{Error, ErrorKind, SqlState};
use crate::sql::{
    Action, Begin, CommandKind, Isolation, LockWait, Plan, Statement, TransactionModes,
    savepoint_name,
};

impl Session {
    /// Starts a transaction that refuses every write until it ends (libsql's
    /// `BEGIN TRANSACTION READONLY`). Inside a transaction, like `BEGIN`, it
    /// changes nothing.
    pub async fn begin_read_only(&mut self) -> Result<QueryResult, Error> {
        if self.state == TransactionState::Idle {
            self.begin_transaction(false).await?;
            self.read_only = true;
        }
        Ok(QueryResult::empty(CommandKind::Begin))
    }

    pub(super) async fn begin(&mut self, stmt: &Statement) -> Result<QueryResult, Error> {
        if self.state != TransactionState::Idle {
            // PostgreSQL warns and carries on in the open transaction.
            return Ok(QueryResult::empty(stmt.kind));
        }
        let begin = match &stmt.plan {
            Plan::Begin(begin) => *begin,
            _ => Begin::default(),
        };
        // `BEGIN IMMEDIATE|EXCLUSIVE` (SQLite's) asks for the write lock now.
        self.begin_transaction(begin.immediate).await?;
        let modes = self
            .set_transaction_modes(begin.modes)
            .and_then(|()| self.standby_isolation(Some(self.isolation)));
        if let Err(error) = modes {
            self.rollback().await?;
            return Err(error);
        }
        Ok(QueryResult::empty(stmt.kind))
    }

    /// Starts a transaction in the session's default modes; `immediate` takes
    /// the write permit and lock up front. Otherwise nothing opens in SQLite
    /// until the first statement needs it (see `routing` and `isolation`).
    pub(super) async fn begin_transaction(&mut self, immediate: bool) -> Result<(), Error> {
        if immediate {
            self.open_write_transaction().await?;
        } else if self.local {
            self.local_read = self
                .engine
                .shared_reads
                .as_ref()
                .and_then(|r| r.begin(true));
            if let Err(error) = self.execute_direct("BEGIN").await {
                self.local_read = None;
                return Err(error);
            }
            self.open = true;
        }
        self.state = TransactionState::Active;
        self.began_work = false;
        let defaults = {
            let settings = self.settings.lock();
            let value = |name: &str| settings.get(name).unwrap_or_default();
            TransactionModes {
                isolation: Isolation::parse(&value("default_transaction_isolation")),
                // A follower's transactions read only, as a standby's do.
                read_only: Some(
                    value("default_transaction_read_only") == "on" || self.engine.is_follower(),
                ),
                deferrable: Some(value("default_transaction_deferrable") == "on"),
            }
        };
        self.settings.lock().begin_transaction();
        self.isolation = Isolation::ReadCommitted;
        self.read_only = false;
        self.deferrable = false;
        self.set_transaction_modes(defaults)
    }

    /// `SET TRANSACTION` (and `BEGIN`'s modes): the open transaction's isolation
    /// level and access mode, which `SHOW transaction_isolation` and friends
    /// then show (see `isolation`). The level is fixed once the transaction
    /// has run a query.
    pub(super) fn set_transaction_modes(&mut self, modes: TransactionModes) -> Result<(), Error> {
        if let Some(isolation) = modes.isolation {
            if self.began_work && isolation != self.isolation {
                return Err(Error::new(
                    ErrorKind::ActiveTransaction,
                    "SET TRANSACTION ISOLATION LEVEL must be called before any query",
                ));
            }
            self.isolation = isolation;
        }
        if let Some(read_only) = modes.read_only {
            if !read_only && self.engine.is_follower() {
                return Err(read_write_on_follower());
            }
            if self.began_work && self.read_only && !read_only {
                return Err(Error::new(
                    ErrorKind::ActiveTransaction,
                    "transaction read-write mode must be set before any query",
                ));
            }
            self.read_only = read_only;
        }
        if let Some(deferrable) = modes.deferrable {
            self.deferrable = deferrable;
        }
        Ok(())
    }

    /// A follower refuses SERIALIZABLE, as a PostgreSQL standby does (0A000:
    /// its serializable snapshots need the primary's read-write conflicts).
    pub(super) fn standby_isolation(&self, isolation: Option<Isolation>) -> Result<(), Error> {
        match isolation {
            Some(Isolation::Serializable) if self.engine.is_follower() => Err(Error::new(
                ErrorKind::Unsupported,
                "cannot use serializable mode in a hot standby",
            )),
            _ => Ok(()),
        }
    }

    /// Takes the write permit (and the writer connection) until the transaction
    /// ends, and opens the transaction on it.
    pub(super) async fn open_write_transaction(&mut self) -> Result<(), Error> {
        self.acquire_write(true, LockWait::Block).await?;
        if !self.open {
            if let Err(error) = self.execute_direct("BEGIN IMMEDIATE").await {
                self.release_write();
                return Err(error);
            }
            self.open = true;
        }
        Ok(())
    }

    /// Takes the write permit and, unless the session runs everything on one
    /// connection of its own (TEMP objects, a snapshot), the writer connection;
    /// `transaction`: until the transaction ends (else until the statement
    /// does). A transaction reading a snapshot that misses a commit may not
    /// write: 40001, as PostgreSQL answers a concurrent update.
    pub(super) async fn acquire_write(
        &mut self,
        transaction: bool,
        wait: LockWait,
    ) -> Result<(), Error> {
        if let Some(write) = &mut self.write {
            write.transaction |= transaction;
            return Ok(());
        }
        let permit = self.acquire_write_permit(wait).await?;
        let locker = self.served.locker();
        self.engine.shared.locks.permit_held(Some(locker));
        let stale = self
            .snapshot
            .as_ref()
            .is_some_and(|s| s.commits != self.engine.commits.load(Ordering::SeqCst));
        if stale {
            self.engine.shared.locks.permit_held(None);
            drop(permit);
            return Err(Error::new(
                ErrorKind::SerializationFailure,
                "could not serialize access due to concurrent update",
            ));
        }
        let conn = match self.local || self.snapshot.is_some() {
            true => None,
            false => {
                let mut writer = self.engine.writer().await?;
                writer.assign(self.identity.role, &self.served).await?;
                Some(writer)
            }
        };
        self.write = Some(WriteLock {
            permit,
            conn,
            transaction,
            since: Instant::now(),
            wrote: false,
        });
        Ok(())
    }

    /// Gives the writer connection back, then the permit. A writer connection
    /// still inside a transaction goes back to the pool, whose release hook rolls
    /// it back.
    pub(super) fn release_write(&mut self) {
        if let Some(WriteLock {
            permit,
            conn,
            wrote,
            since,
            ..
        }) = self.write.take()
        {
            self.engine
                .shared
                .metrics
                .permit_holds
                .observe(since.elapsed());
            if let Some(conn) = conn {
                if self.open {
                    self.open = false;
                    drop(conn);
                } else if conn.changed() {
                    conn.discard();
                } else {
                    self.engine.park_writer(conn);
                }
            }
            // Counted before the next writer can start: a read that begins once
            // this write was answered must see it, and a snapshot taken before
            // it is stale.
            if wrote {
                self.engine.commits.fetch_add(1, Ordering::SeqCst);
                if let Some(reads) = &self.engine.shared_reads {
                    reads.committed();
                }
                // Its place in the WAL, before the next writer's.
                if let Some(group) = &self.engine.group_commit {
                    self.unsynced = Some(group.written());
                }
            }
            self.engine.shared.locks.permit_held(None);
            drop(permit);
        }
    }

    pub(super) async fn commit(&mut self) -> Result<QueryResult, Error> {
        match self.state {
            TransactionState::Idle => Ok(QueryResult::empty(CommandKind::Commit)),
            TransactionState::Failed => {
                self.rollback().await?;
                Ok(QueryResult::empty(CommandKind::Rollback))
            }
            TransactionState::Active => {
                let channels = self.take_channels();
                if let Err(error) = self.engine.shared.notifier.check_room(&channels) {
                    self.rollback().await?;
                    return Err(error);
                }
                // `SET LOCAL synchronous_commit` holds for this commit, and
                // ends with it.
                let synchronous =
                    self.engine.group_commit.is_none() || self.settings.lock().synchronous_commit();
                if self.open {
                    let committed = self.execute_direct("COMMIT").await;
                    if let Err(error) = committed {
                        // A failed COMMIT ends the transaction, as in PostgreSQL.
                        let error = snapshot_conflict(error);
                        self.rollback().await?;
                        return Err(error);
                    }
                    self.open = false;
                }
                let locker = self.served.locker();
                self.engine
                    .shared
                    .notifier
                    .commit(locker.session, locker.pid, channels);
                self.end_transaction(true);
                self.wait_durable(synchronous).await?;
                Ok(QueryResult::empty(CommandKind::Commit))
            }
        }
    }

    /// Under group commit, returns once an fsync covers the session's last
    /// commit: a commit is acknowledged only then. Unless `synchronous` (the
    /// session's `synchronous_commit`, as its commit began) is off: then at
    /// once, as PostgreSQL does; a later fsync covers it, a power cut before
    /// one loses it.
    pub(super) async fn wait_durable(&mut self, synchronous: bool) -> Result<(), Error> {
        match (self.unsynced.take(), &self.engine.group_commit) {
            (Some(ticket), Some(group)) if synchronous => group.durable(ticket).await,
            _ => Ok(()),
        }
    }

    /// `COMMIT AND CHAIN`, `ROLLBACK AND CHAIN`: the transaction ends (a
    /// failed one rolls back), and a new one begins with its modes.
    pub(super) async fn chain(&mut self, action: Action) -> Result<QueryResult, Error> {
        if self.state == TransactionState::Idle {
            let word = if action == Action::Commit {
                "COMMIT"
            } else {
                "ROLLBACK"
            };
            return Err(Error::new(
                ErrorKind::NoActiveTransaction,
                format!("{word} AND CHAIN can only be used in transaction blocks"),
            ));
        }
        let modes = TransactionModes {
            isolation: Some(self.isolation),
            read_only: Some(self.read_only),
            deferrable: Some(self.deferrable),
        };
        let ended = match action {
            Action::Commit => self.commit().await?,
            _ => {
                self.rollback().await?;
                QueryResult::empty(CommandKind::Rollback)
            }
        };
        self.begin_transaction(false).await?;
        self.set_transaction_modes(modes)?;
        Ok(ended)
    }

    pub(super) async fn rollback(&mut self) -> Result<(), Error> {
        if self.state == TransactionState::Idle {
            return Ok(());
        }
        drop(self.take_channels());
        // SQLite may already have rolled back on its own (after SQLITE_FULL, say).
        if self.open {
            match self.execute_direct("ROLLBACK").await {
                Ok(()) => self.open = false,
                Err(error) => {
                    tracing::debug!(%error, "ROLLBACK");
                    self.open = !self.held().await?.in_autocommit().await?;
                }
            }
        }
        self.end_transaction(false);
        Ok(())
    }

    /// A transaction failed: as PostgreSQL does at the error, its work is
    /// undone and its locks (the write permit, advisory locks, a snapshot) are
    /// given back now, not at the client's ROLLBACK, which only ends the
    /// failed block. With savepoints in play, `ROLLBACK TO` may yet resume the
    /// transaction: it then keeps everything until it ends.
    pub(super) async fn abort_failed_transaction(&mut self) {
        if !self.savepoints.is_empty() {
            return;
        }
        drop(self.take_channels());
        if self.open {
            match self.execute_direct("ROLLBACK").await {
                Ok(()) => self.open = false,
                Err(error) => tracing::debug!(%error, "ROLLBACK of a failed transaction"),
            }
        }
        if !self.open {
            self.cursors.clear();
            self.local_read = None;
            self.snapshot = None;
            self.release_write();
            // Undone: nothing to wait for.
            self.unsynced = None;
            self.release_transaction_locks();
        }
    }

    /// Keeps the names of the savepoints in play: a failed transaction with
    /// one can be resumed, so it keeps what it holds.
    pub(super) fn track_savepoint(&mut self, stmt: &Statement) {
        let (Action::Savepoint | Action::Release | Action::RollbackTo) = stmt.action else {
            return;
        };
        let Some(name) = savepoint_name(&stmt.sql) else {
            return;
        };
        let at = self.savepoints.iter().rposition(|(s, _)| *s == name);
        match (stmt.action, at) {
            (Action::Savepoint, _) => self.savepoints.push((name, self.read_only)),
            (Action::Release, Some(at)) => {
                self.read_only = self.savepoints[at].1;
                self.savepoints.truncate(at);
                // Its cursors now belong to the transaction around it.
                for cursor in self.named_cursors.by_name.values_mut() {
                    cursor.savepoints = cursor.savepoints.min(at);
                }
            }
            (Action::RollbackTo, Some(at)) => {
                self.read_only = self.savepoints[at].1;
                self.savepoints.truncate(at + 1);
                // Cursors declared since the savepoint are undone with it.
                let undone: Vec<String> = self
                    .named_cursors
                    .by_name
                    .iter()
                    .filter(|(_, cursor)| cursor.savepoints > at)
                    .map(|(name, _)| name.clone())
                    .collect();
                for name in undone {
                    if let Some(cursor) = self.named_cursors.by_name.remove(&name)
                        && let Rows::Open(id) = cursor.rows
                    {
                        self.close_cursor(id);
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn end_transaction(&mut self, committed: bool) {
        let ended = match committed {
            true => &self.engine.shared.metrics.commits,
            false => &self.engine.shared.metrics.rollbacks,
        };
        ended.fetch_add(1, Ordering::Relaxed);
        self.state = TransactionState::Idle;
        if std::mem::take(&mut self.changed_schema) {
            self.engine.declared_types.invalidate();
        }
        // Portals end with their transaction, as in PostgreSQL.
        self.cursors.clear();
        self.named_cursors.end_transaction(committed);
        self.local_read = None;
        if committed {
            self.open = false;
        }
        // A connection taken for the snapshot goes back to its pool.
        self.snapshot = None;
        self.release_write();
        if !committed {
            // Undone: nothing to wait for.
            self.unsynced = None;
        }
        // A local session's own connection, still in a failed transaction, goes
        // back to the pool when the session ends (see `Drop`).
        self.read_only = false;
        self.isolation = Isolation::ReadCommitted;
        self.began_work = false;
        self.savepoints.clear();
        self.release_transaction_locks();
        self.settings.lock().end_transaction(committed);
    }

    /// Waits for the write permit: at most `lock_timeout` (else the server's
    /// busy timeout), no longer than the statement may run, and not at all with
    /// `NOWAIT` (55P03). A wait that closes a circle of waits fails with 40P01
    /// after `deadlock_timeout`.
    pub(super) async fn acquire_write_permit(
        &self,
        wait: LockWait,
    ) -> Result<OwnedSemaphorePermit, Error> {
        let semaphore = self.engine.write_permit.clone();
        if let Ok(permit) = semaphore.clone().try_acquire_owned() {
            return Ok(permit);
        }
        if wait == LockWait::NoWait {
            return Err(Error::state(
                SqlState::LOCK_NOT_AVAILABLE,
                "could not obtain lock on row: another transaction holds the database's write lock",
            ));
        }
        let (timeout, deadlock_timeout) = {
            let settings = self.settings.lock();
            (
                settings
                    .duration("lock_timeout")
                    .unwrap_or(self.engine.write_wait),
                settings
                    .duration("deadlock_timeout")
                    .unwrap_or(std::time::Duration::from_secs(1)),
            )
        };
        // Only a session holding advisory locks can close a circle of waits.
        let may_deadlock = self.served.took_advisory_locks.load(Ordering::Acquire);
        let limits = WaitLimits {
            control: self.control.control(),
            timeout: Some(timeout),
            deadlock_timeout,
            may_deadlock,
        };
        let waiting = Instant::now();
        let acquired = self
            .engine
            .shared
            .locks
            .wait(
                self.served.locker(),
                Resource::WritePermit,
                semaphore.acquire_owned(),
                limits,
            )
            .await;
        self.engine
            .shared
            .metrics
            .permit_waits
            .observe(waiting.elapsed());
        acquired?
            .map_err(|_closed| Error::new(ErrorKind::Unavailable, "the server is shutting down"))
    }

    /// Opens the transaction a COPY runs in: its own when the session is idle, a
    /// savepoint inside the client's otherwise. Returns whether it is its own.
    pub(super) async fn begin_copy_transaction(&mut self) -> Result<bool, Error> {
        match self.state {
            TransactionState::Failed => Err(transaction_aborted()),
            TransactionState::Idle => self.begin_transaction(true).await.map(|()| true),
            TransactionState::Active => {
                self.open_write_transaction().await?;
                self.execute_direct("SAVEPOINT litewire_copy").await?;
                Ok(false)
            }
        }
    }

    /// Commits or undoes what `begin_copy_transaction` opened. An undone COPY inside
    /// a client's transaction fails that transaction, as in PostgreSQL.
    pub(super) async fn end_copy_transaction(
        &mut self,
        own: bool,
        commit: bool,
    ) -> Result<(), Error> {
        match (own, commit) {
            (true, true) => self.commit().await.map(drop),
            (true, false) => self.rollback().await,
            (false, true) => self.execute_direct("RELEASE litewire_copy").await,
            (false, false) => {
                self.state = TransactionState::Failed;
                self.execute_direct("ROLLBACK TO litewire_copy").await?;
                self.execute_direct("RELEASE litewire_copy").await
            }
        }
    }
}

pub(super) fn transaction_aborted() -> Error {
    Error::new(
        ErrorKind::TransactionAborted,
        "current transaction is aborted, commands ignored until end of transaction block",
    )
}

/// A write that lost its snapshot to another writer is a serialization failure:
/// PostgreSQL clients know to retry those.
pub(super) fn snapshot_conflict(error: Error) -> Error {
    const SQLITE_BUSY_SNAPSHOT: i32 = libsqlite3_sys::SQLITE_BUSY | (2 << 8);
    match error.sqlite_code() {
        Some(SQLITE_BUSY_SNAPSHOT) => Error::new(
            ErrorKind::SerializationFailure,
            format!(
                "could not serialize access due to concurrent update ({})",
                error.message
            ),
        ),
        _ => error,
    }
}

/// A standby's answer to a transaction asked to write (0A000, as
/// PostgreSQL's).
pub(super) fn read_write_on_follower() -> Error {
    Error::new(
        ErrorKind::Unsupported,
        "cannot set transaction read-write mode during recovery",
    )
}
