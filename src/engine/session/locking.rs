//! Row locks (`SELECT ... FOR UPDATE` and friends) at the database's
//! granularity: a locking read takes the write permit before it reads, for the
//! rest of its transaction (for the statement alone outside one), so it reads
//! the latest commit and nothing can change the rows it read until it ends.
//! `NOWAIT` fails at once with 55P03 when another transaction holds the permit.
//! `SKIP LOCKED` waits for it instead of skipping: with every row locked by the
//! permit's holder, skipping would hand a queue of workers nothing while
//! unprocessed rows remain; after the wait, what the holder did is committed,
//! so no row is handed to two transactions and none is left behind.
//!
//! Advisory locks are taken by SQL functions inside a statement; waiting for
//! one happens here, outside SQLite.

use std::sync::Arc;
use std::time::Duration;

use super::routing::read_only_refusal;
use super::state::{Session, TransactionState};
use crate::engine::declared_columns::DeclaredColumns;
use crate::engine::direct;
use crate::engine::locks::{Resource, WaitLimits};
use crate::engine::result::{QueryResult, ResultSink};
use crate::error::Error;
use crate::sql::RowLock;

impl Session {
    /// Takes what a locking read needs before it runs.
    pub(super) async fn lock_rows(&mut self, lock: RowLock) -> Result<(), Error> {
        let autocommit_read_only =
            self.state == TransactionState::Idle && self.reads_only_by_default();
        if self.read_only || autocommit_read_only {
            return Err(read_only_refusal("SELECT FOR UPDATE"));
        }
        match self.state {
            TransactionState::Idle => self.acquire_write(false, lock.wait).await,
            // The snapshot's (or the local) connection reads and writes: the
            // permit is all that is needed, and a stale snapshot fails there.
            _ if self.snapshot.is_some() || self.local => self.acquire_write(true, lock.wait).await,
            _ => {
                self.acquire_write(true, lock.wait).await?;
                self.open_write_transaction().await
            }
        }
    }
}

impl Session {
    /// Runs a statement that calls a waiting advisory lock function: when a
    /// lock it asks for is held, the statement fails inside SQLite (undoing
    /// itself), what it took so far is given back, the session waits for the
    /// lock outside SQLite (cancel, `statement_timeout`, `lock_timeout` and the
    /// deadlock check apply), and the statement runs again with the lock
    /// granted. Its rows are held until it ends, so a client never sees the
    /// rows of an attempt that ran again.
    pub(super) async fn run_waiting_for_locks<S: ResultSink>(
        &mut self,
        query: direct::Query<'_>,
        column_types: Option<&Arc<[Option<&'static str>]>>,
        sink: &mut S,
    ) -> Result<(), Error> {
        let locks = self.engine.shared.locks.clone();
        let locker = self.served.locker();
        let session = locker.session;
        loop {
            locks.advisory(locker, |l| l.begin_statement(session));
            let mut rows = QueryResult::empty(query.kind);
            let ran = match column_types {
                Some(types) => {
                    let mut typed = DeclaredColumns::new(&mut rows, types);
                    self.run_direct(query, &mut typed).await
                }
                None => self.run_direct(query, &mut rows).await,
            };
            let blocked = locks.advisory(locker, |l| l.take_blocked(session));
            let request = match (ran, blocked) {
                (Err(_), Some(request)) => request,
                (ran, _) => {
                    locks.advisory(locker, |l| l.end_statement(session));
                    ran?;
                    return rows.send_to(sink).await;
                }
            };
            let granted = locks.advisory(locker, |l| {
                l.undo_statement(session);
                l.enqueue(session, request)
            });
            let (timeout, deadlock_timeout) = {
                let settings = self.settings.lock();
                (
                    settings.duration("lock_timeout"),
                    settings
                        .duration("deadlock_timeout")
                        .unwrap_or(Duration::from_secs(1)),
                )
            };
            let limits = WaitLimits {
                control: self.control.control(),
                timeout,
                deadlock_timeout,
                may_deadlock: true,
            };
            let waited = locks
                .wait(locker, Resource::Advisory(request), granted, limits)
                .await;
            if let Err(error) = waited {
                locks.advisory(locker, |l| l.abandon(session, request));
                return Err(error);
            }
        }
    }
}
