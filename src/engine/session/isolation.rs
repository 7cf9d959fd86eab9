//! REPEATABLE READ and SERIALIZABLE: one snapshot for the whole transaction.
//!
//! SQLite in WAL mode fixes a read transaction's snapshot at its first read, and
//! refuses a write from a snapshot older than the latest commit
//! (`SQLITE_BUSY_SNAPSHOT`): a serializable model. At the transaction's first
//! statement, a SQLite read transaction is opened on a connection with a
//! private cache (the shared cache's one snapshot is every reader's, so it
//! cannot be held for one transaction): the session's own connection, or, with
//! the shared cache, one taken for the transaction. Every statement of the
//! transaction runs there, writes too (under the write permit). The engine
//! counts committed writes; a transaction whose snapshot was taken before the
//! count moved may not write or lock rows: it fails with 40001, as PostgreSQL
//! fails a transaction whose rows another one updated, and the client retries.
//!
//! At this granularity (the database, not rows) a write conflicts with any
//! commit since the snapshot, so some transactions PostgreSQL would let
//! through are refused; none that it refuses is let through. Lost updates and
//! write skew cannot happen: every transaction that writes saw every commit
//! before its own. Read-only transactions never fail.

use std::sync::atomic::Ordering;

use super::state::{Session, Snapshot, TransactionState};
use super::transaction::read_write_on_follower;
use crate::engine::result::QueryResult;
use crate::error::{Error, ErrorKind};
use crate::sql::quote::parse_bool;
use crate::sql::{
    Action, CommandKind, Isolation, Plan, SessionCommand, Statement, TransactionModes,
};

impl Session {
    /// The transaction's first statement that reads or writes fixes its
    /// isolation level and, above READ COMMITTED, takes its snapshot.
    pub(super) async fn begin_work(&mut self, stmt: &Statement) -> Result<(), Error> {
        if self.state != TransactionState::Active || self.began_work || !does_work(stmt) {
            return Ok(());
        }
        self.began_work = true;
        // A transaction that holds the write permit from its start (`BEGIN
        // IMMEDIATE`, a batch that writes) sees every commit: nothing needs fixing.
        if self.isolation != Isolation::ReadCommitted && self.write.is_none() {
            self.take_snapshot().await?;
        }
        Ok(())
    }

    /// Opens the transaction's read transaction and reads, so that SQLite fixes
    /// its snapshot now. The count of commits is read first: a commit that lands
    /// in between makes the snapshot look stale (a needless 40001 at worst),
    /// never fresh.
    async fn take_snapshot(&mut self) -> Result<(), Error> {
        let commits = self.engine.commits.load(Ordering::SeqCst);
        let conn = match self.local || self.engine.shared_reads.is_none() {
            true => None,
            false => {
                let mut fresh = self.engine.fresh_reader().await?;
                fresh.assign(self.identity.role, &self.served).await?;
                Some(fresh)
            }
        };
        self.snapshot = Some(Snapshot { conn, commits });
        if !self.open {
            self.execute_direct("BEGIN").await?;
            self.open = true;
        }
        self.execute_direct("SELECT 1 FROM main.sqlite_schema LIMIT 1")
            .await
    }
}

impl Session {
    /// `SET TRANSACTION`, `SET SESSION CHARACTERISTICS AS TRANSACTION`, and `SET`
    /// of `transaction_isolation`, `transaction_read_only` and
    /// `transaction_deferrable`, which change the open transaction (outside
    /// one, PostgreSQL warns and changes nothing), and `SHOW` of those three,
    /// which tells the open transaction's modes (outside one, the defaults the
    /// next will have); `None` for any other command.
    pub(super) fn transaction_setting(
        &mut self,
        command: &SessionCommand,
        kind: CommandKind,
    ) -> Result<Option<QueryResult>, Error> {
        let in_transaction = self.state != TransactionState::Idle;
        let modes = match command {
            SessionCommand::SetTransaction(modes) => *modes,
            SessionCommand::SetSessionCharacteristics(modes) => {
                let mut settings = self.settings.lock();
                let on = |b: bool| if b { "on" } else { "off" };
                if let Some(isolation) = modes.isolation {
                    settings.set(
                        "default_transaction_isolation",
                        isolation.name(),
                        false,
                        in_transaction,
                    )?;
                }
                if let Some(read_only) = modes.read_only {
                    settings.set(
                        "default_transaction_read_only",
                        on(read_only),
                        false,
                        in_transaction,
                    )?;
                }
                if let Some(deferrable) = modes.deferrable {
                    settings.set(
                        "default_transaction_deferrable",
                        on(deferrable),
                        false,
                        in_transaction,
                    )?;
                }
                return Ok(Some(QueryResult::empty(kind)));
            }
            SessionCommand::Show(Some(name)) => {
                let on = |b: bool| if b { "on" } else { "off" };
                let (name, value) = match name.to_ascii_lowercase().as_str() {
                    "transaction_isolation" => (
                        "transaction_isolation",
                        match in_transaction {
                            true => self.isolation.name().to_owned(),
                            false => self.settings.lock().get("default_transaction_isolation")?,
                        },
                    ),
                    "transaction_read_only" => (
                        "transaction_read_only",
                        match in_transaction {
                            true => on(self.read_only).to_owned(),
                            false if self.engine.is_follower() => on(true).to_owned(),
                            false => self.settings.lock().get("default_transaction_read_only")?,
                        },
                    ),
                    "transaction_deferrable" => (
                        "transaction_deferrable",
                        match in_transaction {
                            true => on(self.deferrable).to_owned(),
                            false => self.settings.lock().get("default_transaction_deferrable")?,
                        },
                    ),
                    _ => return Ok(None),
                };
                return Ok(Some(QueryResult::text(kind, &[name], vec![vec![value]])));
            }
            SessionCommand::Set {
                name,
                value: Some(value),
                ..
            } => match name.to_ascii_lowercase().as_str() {
                "transaction_isolation" => TransactionModes {
                    isolation: Some(Isolation::parse(value).ok_or_else(|| bad_value(name, value))?),
                    ..TransactionModes::default()
                },
                "transaction_read_only" => TransactionModes {
                    read_only: Some(parse_bool(value).ok_or_else(|| bad_value(name, value))?),
                    ..TransactionModes::default()
                },
                "transaction_deferrable" => TransactionModes {
                    deferrable: Some(parse_bool(value).ok_or_else(|| bad_value(name, value))?),
                    ..TransactionModes::default()
                },
                _ => return Ok(None),
            },
            _ => return Ok(None),
        };
        self.standby_isolation(modes.isolation)?;
        if in_transaction {
            self.set_transaction_modes(modes)?;
        } else if modes.read_only == Some(false) && self.engine.is_follower() {
            return Err(read_write_on_follower());
        }
        Ok(Some(QueryResult::empty(kind)))
    }
}

fn bad_value(name: &str, value: &str) -> Error {
    Error::new(
        ErrorKind::InvalidParameterValue,
        format!("invalid value for parameter \"{name}\": \"{value}\""),
    )
}

/// Whether a statement reads or writes data (session commands and transaction
/// control do not: they may come before `SET TRANSACTION`).
fn does_work(stmt: &Statement) -> bool {
    !matches!(
        stmt.plan,
        Plan::Session(_) | Plan::Begin(_) | Plan::Chain | Plan::Notify(_)
    ) && !matches!(
        stmt.action,
        Action::Savepoint | Action::Release | Action::RollbackTo
    )
}
