//! Transactions: BEGIN, COMMIT, ROLLBACK and the transactions COPY runs in, and
//! the write permit a transaction holds from its first write to its end. A
//! transaction opens in SQLite only at its first write, on the writer
//! connection (see `routing`), so reads hold nothing between statements.

use tokio::sync::OwnedSemaphorePermit;

use super::state::{Session, TransactionState, WriteLock};
use crate::engine::result::QueryResult;
use crate::error::{Error, ErrorKind};
use crate::sql::{CommandKind, Statement};

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
        // `BEGIN IMMEDIATE|EXCLUSIVE` asks for the write lock now; anything else
        // (including PostgreSQL's isolation clauses) starts a deferred transaction.
        let upper = stmt.sql.to_ascii_uppercase();
        self.begin_transaction(upper.contains("IMMEDIATE") || upper.contains("EXCLUSIVE"))
            .await?;
        Ok(QueryResult::empty(stmt.kind))
    }

    /// Starts a transaction; `immediate` takes the write permit and lock up front.
    /// Otherwise nothing opens in SQLite until the first write: reads run each on
    /// the latest snapshot, as in PostgreSQL's READ COMMITTED, and hold nothing
    /// that a writer (or, with the shared cache, another reader) would wait for.
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
        self.settings.lock().begin_transaction();
        Ok(())
    }

    /// Takes the write permit (and the writer connection) until the transaction
    /// ends, and opens the transaction on it.
    pub(super) async fn open_write_transaction(&mut self) -> Result<(), Error> {
        self.acquire_write(true).await?;
        if !self.open {
            if let Err(error) = self.execute_direct("BEGIN IMMEDIATE").await {
                self.release_write();
                return Err(error);
            }
            self.open = true;
        }
        Ok(())
    }

    /// Takes the write permit and, unless the session runs everything on its own
    /// connection, the writer connection; `transaction`: until the transaction
    /// ends (else until the statement does).
    pub(super) async fn acquire_write(&mut self, transaction: bool) -> Result<(), Error> {
        if let Some(write) = &mut self.write {
            write.transaction |= transaction;
            return Ok(());
        }
        let permit = self.acquire_write_permit().await?;
        let conn = match self.local {
            true => None,
            false => {
                let mut writer = self.engine.writer().await?;
                writer
                    .assign(self.identity.role, &self.sequence_values, &self.settings)
                    .await?;
                Some(writer)
            }
        };
        self.write = Some(WriteLock {
            permit,
            conn,
            transaction,
        });
        Ok(())
    }

    /// Gives the writer connection back, then the permit. A writer connection
    /// still inside a transaction goes back to the pool, whose release hook rolls
    /// it back.
    pub(super) fn release_write(&mut self) {
        if let Some(WriteLock { permit, conn, .. }) = self.write.take() {
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
            // this write was answered must see it.
            if let Some(reads) = &self.engine.shared_reads {
                reads.committed();
            }
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
            TransactionState::Active if !self.open => {
                self.end_transaction(true);
                Ok(QueryResult::empty(CommandKind::Commit))
            }
            TransactionState::Active => {
                let committed = self.execute_direct("COMMIT").await;
                match committed {
                    Ok(_) => {
                        self.end_transaction(true);
                        Ok(QueryResult::empty(CommandKind::Commit))
                    }
                    Err(error) => {
                        // A failed COMMIT ends the transaction, as in PostgreSQL.
                        let error = snapshot_conflict(error);
                        self.rollback().await?;
                        Err(error)
                    }
                }
            }
        }
    }

    pub(super) async fn rollback(&mut self) -> Result<(), Error> {
        if self.state == TransactionState::Idle {
            return Ok(());
        }
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

    pub(super) fn end_transaction(&mut self, committed: bool) {
        self.state = TransactionState::Idle;
        // Portals end with their transaction, as in PostgreSQL.
        self.cursors.clear();
        self.named_cursors.end_transaction(committed);
        self.local_read = None;
        if committed {
            self.open = false;
        }
        self.release_write();
        // A local session's own connection, still in a failed transaction, goes
        // back to the pool when the session ends (see `Drop`).
        self.read_only = false;
        self.settings.lock().end_transaction(committed);
    }

    /// Waits for the write permit: at most `lock_timeout` (else the server's
    /// busy timeout), and no longer than the statement may run.
    pub(super) async fn acquire_write_permit(&self) -> Result<OwnedSemaphorePermit, Error> {
        let wait = self
            .settings
            .lock()
            .duration("lock_timeout")
            .unwrap_or(self.engine.write_wait);
        let permit = tokio::time::timeout(wait, self.engine.write_permit.clone().acquire_owned());
        tokio::select! {
            acquired = permit => match acquired {
                Ok(Ok(permit)) => Ok(permit),
                Ok(Err(_closed)) => Err(Error::new(
                    ErrorKind::Unavailable,
                    "the server is shutting down",
                )),
                Err(_elapsed) => Err(Error::new(
                    ErrorKind::LockTimeout,
                    format!(
                        "canceling statement due to lock timeout: could not obtain the write lock within {} ms",
                        wait.as_millis()
                    ),
                )),
            },
            reason = self.control.control().stopped() => Err(reason.error()),
        }
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
