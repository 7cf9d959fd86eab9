//! LISTEN, UNLISTEN and NOTIFY in a session (see `notifications` for how they
//! travel): inside a transaction they wait for its commit, and a rollback
//! forgets them; outside one they take effect at once. Notifications arrive in
//! the session's inbox, which its front end empties.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::state::{Session, TransactionState};
use crate::engine::notifications::{Inbox, Pending};
use crate::engine::result::QueryResult;
use crate::error::{Error, ErrorKind};
use crate::sql::{CommandKind, NotifyCommand};

impl Session {
    /// Lets the session LISTEN, and gives its front end the inbox its
    /// notifications arrive in, to deliver them.
    pub fn enable_notifications(&mut self) -> Arc<Inbox> {
        self.can_listen = true;
        self.engine.shared.notifier.inbox(self.served.session)
    }

    /// `LISTEN`, `UNLISTEN`, `NOTIFY`.
    pub(super) fn channel_command(
        &mut self,
        command: &NotifyCommand,
        kind: CommandKind,
    ) -> Result<QueryResult, Error> {
        match command {
            NotifyCommand::Listen(_) if !self.can_listen => {
                return Err(Error::new(
                    ErrorKind::Unsupported,
                    "LISTEN needs a PostgreSQL connection to deliver notifications on; \
                     it is not available over HTTP",
                ));
            }
            NotifyCommand::Listen(channel) => self.channels.listen(channel),
            NotifyCommand::Unlisten(channel) => self.channels.unlisten(channel.as_deref()),
            NotifyCommand::Notify { channel, payload } => {
                self.channels.notify(channel, payload)?;
            }
        }
        if self.state == TransactionState::Idle {
            let pending = self.take_channels();
            self.engine.shared.notifier.check_room(&pending)?;
            let locker = self.served.locker();
            self.engine
                .shared
                .notifier
                .commit(locker.session, locker.pid, pending);
        }
        Ok(QueryResult::empty(kind))
    }

    /// What the open transaction (or the statement that ran outside one) has
    /// to apply and send: its LISTEN changes and NOTIFY statements, and
    /// `pg_notify()`'s calls.
    pub(super) fn take_channels(&mut self) -> Pending {
        let mut pending = std::mem::take(&mut self.channels);
        pending.append(self.served.take_notifications());
        pending
    }

    /// A statement ran outside a transaction block: its notifications go now,
    /// and the advisory locks taken for its transaction are given back.
    pub(super) fn end_autocommit_statement(&mut self, committed: bool) {
        let pending = self.take_channels();
        if committed && !pending.is_empty() {
            let locker = self.served.locker();
            self.engine
                .shared
                .notifier
                .commit(locker.session, locker.pid, pending);
        }
        self.release_transaction_locks();
    }

    /// Gives back the advisory locks the transaction took, if it took any.
    pub(super) fn release_transaction_locks(&self) {
        if self
            .served
            .took_transaction_locks
            .swap(false, Ordering::AcqRel)
        {
            self.engine
                .shared
                .locks
                .transaction_ended(self.served.session);
        }
    }

    /// The channels the session listens on (`pg_listening_channels()`).
    pub fn listening_channels(&self) -> Vec<String> {
        self.engine.shared.notifier.channels(self.served.session)
    }
}
