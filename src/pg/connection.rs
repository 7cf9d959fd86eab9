//! One PostgreSQL client connection: what it owns (its session, prepared
//! statements, portals, a COPY in progress) and how it ends. The protocols on top
//! of it each have their file: `simple` (Query), `extended` (Parse, Bind,
//! Describe, Execute, Sync, ...), `copy_in` and `copy_out`.
//!
//! Replies are fed into the connection's write buffer and flushed once, at
//! ReadyForQuery (simple protocol) or Sync/Flush (extended protocol): a flush per
//! message would cost a segment per message and, with delayed ACKs, 40 ms stalls.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use futures::lock::Mutex;
use pgwire::api::{ClientInfo, Type};

use super::copy_decoder::CopyDecoder;
use super::encode::TypedColumns;
use super::param_types::ParamTypes;
use crate::engine::{CopyIn, CursorId, Inbox, QueryResult, Session, TransactionState, Value};
use crate::error::Error;
use crate::sql::{Plan, SessionCommand, Statement};

/// A statement prepared with Parse.
pub(super) struct Prepared {
    /// `None` for the empty query.
    pub(super) statement: Option<Statement>,
    /// The statement as the client wrote it, which parameter types are
    /// inferred from (its casts name PostgreSQL's types, not SQLite's).
    pub(super) query: String,
    /// Parameter types as the client declared them (`UNKNOWN` where it sent 0).
    pub(super) param_types: Vec<Type>,
    /// Every parameter's type as Describe announced it: the client's where it
    /// gave one, else inferred from the statement. Bind decodes by these.
    pub(super) described_params: OnceLock<Vec<Type>>,
    /// Result columns as announced by Describe: rows are then encoded with exactly
    /// these types, whatever the values turn out to be.
    pub(super) described: OnceLock<TypedColumns>,
}

/// A portal made by Bind: a statement with its parameters and, once executed with
/// a row limit, the rows not sent yet.
pub(super) struct Portal {
    pub(super) prepared: Arc<Prepared>,
    pub(super) params: Vec<Value>,
    pub(super) result_formats: Vec<i16>,
    pub(super) progress: Progress,
}

/// How far a portal's execution has got.
pub(super) enum Progress {
    NotRun,
    /// Executed with a row limit and read straight from SQLite: the session's
    /// cursor has the rows still to come.
    Cursor(CursorId),
    /// Executed with a row limit: the rows after `sent` are still to come.
    Suspended {
        result: QueryResult,
        sent: usize,
    },
    /// Every row was sent; executing again sends none.
    Done(QueryResult),
}

/// Statements and portals by name. Each is looked up several times per
/// statement run: a fast hash (the names are the client's own, and only its
/// own connection's maps hold them).
pub(super) type ByName<T> = HashMap<String, T, foldhash::fast::RandomState>;

pub(super) struct State {
    pub(super) session: Session,
    /// Whether the session knows the client's startup parameters yet.
    pub(super) identified: bool,
    pub(super) statements: ByName<Arc<Prepared>>,
    pub(super) portals: ByName<Portal>,
    /// A `COPY ... FROM STDIN` waiting for its data.
    pub(super) copy: Option<CopyState>,
    pub(super) param_types: ParamTypes,
}

pub(super) struct CopyState {
    pub(super) sink: CopyIn,
    pub(super) decoder: CopyDecoder,
}

impl CopyState {
    /// Inserts the rows one decoding step produced.
    pub(super) async fn insert(
        &mut self,
        session: &mut Session,
        rows: Result<Vec<Vec<Value>>, Error>,
    ) -> Result<(), Error> {
        for row in rows? {
            session.copy_row(&mut self.sink, row).await?;
        }
        Ok(())
    }
}

/// Everything one client connection owns. Its handlers run one at a time, so the
/// lock is never contended: futures' mutex takes it and gives it back with an
/// atomic operation each (tokio's goes through a semaphore's wait list).
pub struct PgConnection {
    pub(super) state: Mutex<State>,
    /// The session's LISTEN notifications, delivered between transactions.
    pub(super) notifications: Arc<Inbox>,
}

impl PgConnection {
    pub fn new(mut session: Session) -> Self {
        PgConnection {
            notifications: session.enable_notifications(),
            state: Mutex::new(State {
                session,
                identified: false,
                statements: ByName::default(),
                portals: ByName::default(),
                copy: None,
                param_types: ParamTypes::default(),
            }),
        }
    }

    /// The connection waits for its client: the session is reported idle, and
    /// the answer is how long the client may stay silent (the
    /// idle-in-transaction timeout while a transaction is open, else no limit).
    pub async fn wait_for_client(&self) -> Option<std::time::Duration> {
        // Asked before every wait, between handlers: the lock is free then.
        let state = match self.state.try_lock() {
            Some(state) => state,
            None => self.state.lock().await,
        };
        state.session.report_idle();
        match state.session.transaction_state() {
            TransactionState::Idle => None,
            _ => state.session.idle_in_transaction_timeout(),
        }
    }

    /// Whether the session is outside a transaction (between handlers).
    pub async fn idle(&self) -> bool {
        let state = match self.state.try_lock() {
            Some(state) => state,
            None => self.state.lock().await,
        };
        state.session.transaction_state() == TransactionState::Idle
    }

    /// Ends the connection's session: an unfinished COPY and an open transaction
    /// are rolled back.
    pub async fn close(self) {
        let mut state = self.state.into_inner();
        if let Some(copy) = state.copy.take() {
            state.session.copy_abort(copy.sink).await;
        }
        state.session.close().await;
    }
}

impl State {
    /// Gives the session the client's identity and startup settings, once.
    pub(super) fn identify<C: ClientInfo>(&mut self, client: &C) {
        if !self.identified {
            let (identity, settings) = super::startup::session_start(client);
            self.session.identify(identity, settings);
            self.identified = true;
        }
    }

    /// Drops a portal, closing its cursor if it has one.
    pub(super) fn drop_portal(&mut self, name: &str) {
        if let Some(portal) = self.portals.remove(name) {
            self.forget(portal);
        }
    }

    /// Keeps a new portal, dropping the one it replaces.
    pub(super) fn keep_portal(&mut self, name: String, portal: Portal) {
        if let Some(replaced) = self.portals.insert(name, portal) {
            self.forget(replaced);
        }
    }

    /// Portals end with their transaction: once the session is outside one, the
    /// portals still reading from SQLite go.
    pub(super) fn end_portals_outside_transactions(&mut self) {
        if self.session.transaction_state() != TransactionState::Idle {
            return;
        }
        let reading: Vec<String> = self
            .portals
            .iter()
            .filter(|(_, portal)| matches!(portal.progress, Progress::Cursor(_)))
            .map(|(name, _)| name.clone())
            .collect();
        for name in reading {
            self.drop_portal(&name);
        }
    }

    fn forget(&mut self, portal: Portal) {
        if let Progress::Cursor(id) = portal.progress {
            self.session.close_cursor(id);
        }
    }

    /// What a statement leaves behind in the front end: `DEALLOCATE` and
    /// `DISCARD ALL` drop prepared statements (and portals).
    pub(super) fn after(&mut self, statement: &Statement) {
        match &statement.plan {
            Plan::Session(SessionCommand::DiscardAll) => {
                self.statements.clear();
                let names: Vec<String> = self.portals.keys().cloned().collect();
                for name in names {
                    self.drop_portal(&name);
                }
            }
            Plan::Session(SessionCommand::Deallocate(None)) => self.statements.clear(),
            Plan::Session(SessionCommand::Deallocate(Some(name))) => {
                self.statements.remove(name);
            }
            _ => {}
        }
    }
}
