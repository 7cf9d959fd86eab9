//! A session: one client's view of the database and of its transaction.
//!
//! A session takes a pooled connection on first use and keeps it (pinned) until it
//! ends, so a transaction always runs on one connection and a busy client pays for
//! no pool round trips. Transaction control is interpreted here, with PostgreSQL's
//! rules: an error inside a transaction fails it until ROLLBACK, COMMIT of a failed
//! transaction rolls back, and a session that ends inside a transaction rolls back.

use std::sync::Arc;
use std::time::Instant;

use tokio::sync::OwnedSemaphorePermit;

use super::catalog::{self, SessionIdentity};
use super::commands;
use super::connection::HeldConnection;
use super::control::{Registered, StatementControl};
use super::direct;
use super::settings::Settings;
use super::{Column, Engine, QueryResult, Value, exec};
use crate::error::{Error, ErrorKind};
use crate::sql::CommandKind;
use crate::sql::{Action, ParamHint, Plan, Statement};

/// Where a session stands with respect to transactions (PostgreSQL's I / T / E).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactionState {
    Idle,
    Active,
    Failed,
}

pub struct Session {
    engine: Arc<Engine>,
    /// Taken on first use and kept until the session ends.
    conn: Option<HeldConnection>,
    state: TransactionState,
    /// Held from a transaction's first write to its end.
    write_permit: Option<OwnedSemaphorePermit>,
    identity: SessionIdentity,
    settings: Settings,
    /// Stops the running statement from outside (cancel, timeout, shutdown).
    control: Registered,
    /// No statement runs past this (the HTTP front end's request limit).
    time_limit: Option<Instant>,
}

impl Session {
    pub(super) fn new(engine: Arc<Engine>, identity: SessionIdentity, settings: Settings) -> Self {
        let settings = settings.with_server_defaults(&engine.timeout_defaults);
        let control = engine.controls.register();
        Session {
            engine,
            conn: None,
            state: TransactionState::Idle,
            write_permit: None,
            identity,
            settings,
            control,
            time_limit: None,
        }
    }

    /// What stops this session's running statement from outside.
    pub fn control(&self) -> Arc<StatementControl> {
        self.control.control().clone()
    }

    /// No statement of this session runs past `limit`.
    pub fn limit_until(&mut self, limit: Instant) {
        self.time_limit = Some(limit);
    }

    /// How long the session may sit idle inside a transaction before it is ended
    /// (`idle_in_transaction_session_timeout`); `None`: no limit.
    pub fn idle_in_transaction_timeout(&self) -> Option<std::time::Duration> {
        self.settings
            .duration("idle_in_transaction_session_timeout")
    }

    pub fn transaction_state(&self) -> TransactionState {
        self.state
    }

    /// Records who the client is and what it asked for at startup, before its
    /// first statement.
    pub fn identify(&mut self, identity: SessionIdentity, settings: Settings) {
        self.identity = identity;
        self.settings = settings.with_server_defaults(&self.engine.timeout_defaults);
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Reported settings that changed since the last call (for ParameterStatus).
    pub fn take_setting_changes(&mut self) -> Vec<(String, String)> {
        self.settings.take_changes()
    }

    /// Runs one statement with its parameters (`?1..?N`).
    pub async fn execute(
        &mut self,
        stmt: &Statement,
        params: &[Value],
    ) -> Result<QueryResult, Error> {
        if params.len() != stmt.param_count {
            return Err(Error::invalid(format!(
                "the statement takes {} parameters but {} were supplied",
                stmt.param_count,
                params.len()
            )));
        }
        let control = self.control.control().clone();
        control.start(self.deadline());
        let result = self
            .execute_statement(stmt, params)
            .await
            .map_err(|error| control.explain(error));
        control.finish();
        result
    }

    /// When a statement starting now must stop: `statement_timeout` from now, or
    /// the session's time limit, whichever comes first.
    fn deadline(&self) -> Option<Instant> {
        let timeout = self
            .settings
            .duration("statement_timeout")
            .map(|timeout| Instant::now() + timeout);
        match (timeout, self.time_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    async fn execute_statement(
        &mut self,
        stmt: &Statement,
        params: &[Value],
    ) -> Result<QueryResult, Error> {
        match stmt.action {
            Action::Begin => self.begin(stmt).await,
            Action::Commit => self.commit().await,
            Action::Rollback => self
                .rollback()
                .await
                .map(|()| QueryResult::empty(CommandKind::Rollback)),
            _ => self.run_in_transaction(stmt, params).await,
        }
    }

    /// Runs several statements as one unit, as PostgreSQL runs a multi-statement
    /// query string: unless the batch manages its own transaction, it runs inside
    /// one, so a failure leaves none of its writes behind. Stops at the first error,
    /// which is the last element of the answer.
    pub async fn execute_batch(
        &mut self,
        batch: &[(Statement, Vec<Value>)],
    ) -> Vec<Result<QueryResult, Error>> {
        let implicit = batch.len() > 1
            && self.state == TransactionState::Idle
            && batch
                .iter()
                .all(|(stmt, _)| !stmt.action.controls_transaction());
        let mut results = Vec::with_capacity(batch.len());
        if implicit {
            let writes = batch.iter().any(|(stmt, _)| stmt.writes());
            if let Err(error) = self.begin_transaction(writes).await {
                results.push(Err(error));
                return results;
            }
        }
        for (stmt, params) in batch {
            let result = self.execute(stmt, params).await;
            let failed = result.is_err();
            results.push(result);
            if failed {
                break;
            }
        }
        if implicit {
            let failed = results.last().is_some_and(Result::is_err);
            if failed {
                if let Err(error) = self.rollback().await {
                    tracing::warn!(%error, "rollback of a failed batch");
                }
            } else if let Err(error) = self.commit().await {
                results.push(Err(error));
            }
        }
        results
    }

    /// The result columns `stmt` would produce, without running it.
    pub async fn describe(&mut self, stmt: &Statement) -> Result<Arc<Vec<Column>>, Error> {
        if !stmt.returns_rows {
            return Ok(Arc::new(Vec::new()));
        }
        if stmt.catalog {
            // The emulated catalog's tables must exist for SQLite to prepare it.
            let (identity, settings) = (self.identity.clone(), self.settings.clone());
            catalog::prepare(self.connection().await?, &identity, &settings).await?;
        }
        let (handle, statements) = self.held().await?.direct().await?;
        let parameters = stmt.param_count > 0;
        let mut columns = direct::describe(handle, statements, &stmt.sql, parameters).await?;
        if columns.iter().any(|c| c.decltype.is_none()) {
            let conn = self.connection().await?;
            exec::infer_expression_types(conn, stmt, &mut columns).await;
        }
        Ok(Arc::new(columns))
    }

    /// The declared type each parameter of `stmt` is used as (compared with,
    /// assigned to, cast to), where the statement shows one.
    pub async fn describe_params(
        &mut self,
        stmt: &Statement,
    ) -> Result<Vec<Option<Arc<str>>>, Error> {
        let engine = self.engine.clone();
        let mut types = Vec::with_capacity(stmt.param_count);
        for hint in crate::sql::param_hints(&stmt.sql, stmt.param_count) {
            let declared = match hint {
                Some(ParamHint::Declared(name)) => Some(Arc::from(name)),
                Some(ParamHint::Column { tables, column }) => {
                    let conn = self.connection().await?;
                    let mut found = None;
                    for table in &tables {
                        found = engine.declared_types.decltype(conn, table, &column).await?;
                        if found.is_some() {
                            break;
                        }
                    }
                    found
                }
                None => None,
            };
            types.push(declared);
        }
        Ok(types)
    }

    /// Ends the session: rolls back an open transaction and returns the connection.
    pub async fn close(mut self) {
        if self.state != TransactionState::Idle
            && let Err(error) = self.rollback().await
        {
            tracing::warn!(%error, "rollback at session end failed");
        }
    }

    async fn run_in_transaction(
        &mut self,
        stmt: &Statement,
        params: &[Value],
    ) -> Result<QueryResult, Error> {
        match (self.state, stmt.action) {
            (TransactionState::Failed, Action::RollbackTo) => {}
            (TransactionState::Failed, _) => return Err(transaction_aborted()),
            (TransactionState::Idle, Action::Savepoint | Action::Release | Action::RollbackTo) => {
                return Err(Error::new(
                    ErrorKind::NoActiveTransaction,
                    "savepoints can only be used in transaction blocks",
                ));
            }
            (_, Action::WriteFile) if !self.engine.allow_attach => {
                return Err(Error::new(
                    ErrorKind::InsufficientPrivilege,
                    "ATTACH and VACUUM INTO are disabled on this server (see --allow-attach)",
                ));
            }
            _ => {}
        }
        let result = self.run(stmt, params).await;
        match (&result, self.state) {
            (Err(_), TransactionState::Active) => self.state = TransactionState::Failed,
            (Ok(_), TransactionState::Failed) => self.state = TransactionState::Active,
            _ => {}
        }
        result
    }

    /// Runs a statement, holding the write permit if it writes: for the statement
    /// alone in autocommit mode, until the end of an explicit transaction.
    async fn run(&mut self, stmt: &Statement, params: &[Value]) -> Result<QueryResult, Error> {
        if let Plan::Session(command) = &stmt.plan {
            let in_transaction = self.state != TransactionState::Idle;
            return commands::run(&mut self.settings, in_transaction, command, stmt.kind);
        }
        let writes = stmt.writes();
        let _statement_permit = match (writes, self.state) {
            (false, _) => None,
            (true, TransactionState::Idle) => Some(self.acquire_write_permit().await?),
            (true, _) => {
                if self.write_permit.is_none() {
                    self.write_permit = Some(self.acquire_write_permit().await?);
                }
                None
            }
        };
        let engine = self.engine.clone();
        if stmt.catalog {
            let (identity, settings) = (self.identity.clone(), self.settings.clone());
            catalog::prepare(self.connection().await?, &identity, &settings).await?;
        }
        let result = match &stmt.plan {
            // Statements with parameters are prepared once and run many times;
            // literal SQL (simple queries) rarely repeats.
            Plan::Single => {
                self.run_direct(direct::Query {
                    sql: &stmt.sql,
                    params,
                    kind: stmt.kind,
                    returns_rows: stmt.returns_rows,
                    parameters: !params.is_empty(),
                })
                .await
            }
            Plan::CopyTo(copy) => super::copy::copy_to(self, copy, params).await,
            Plan::Script(parts) => exec::run_script(self.connection().await?, parts)
                .await
                .map(|()| QueryResult::empty(stmt.kind)),
            Plan::Nothing => Ok(QueryResult::empty(stmt.kind)),
            Plan::CopyFrom(_) => Err(Error::new(
                ErrorKind::Unsupported,
                "COPY FROM STDIN needs the PostgreSQL copy protocol",
            )),
            Plan::Session(_) => Err(Error::new(
                ErrorKind::Internal,
                "session commands do not run on SQLite",
            )),
        }
        .map_err(snapshot_conflict);
        if writes
            && !matches!(
                stmt.kind,
                CommandKind::Insert | CommandKind::Update | CommandKind::Delete
            )
        {
            engine.declared_types.invalidate();
        }
        result
    }

    async fn begin(&mut self, stmt: &Statement) -> Result<QueryResult, Error> {
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
    async fn begin_transaction(&mut self, immediate: bool) -> Result<(), Error> {
        if immediate {
            self.write_permit = Some(self.acquire_write_permit().await?);
        }
        let sql = if immediate {
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN"
        };
        if let Err(error) = self.execute_direct(sql).await {
            self.write_permit = None;
            return Err(error);
        }
        self.state = TransactionState::Active;
        self.settings.begin_transaction();
        Ok(())
    }

    async fn commit(&mut self) -> Result<QueryResult, Error> {
        match self.state {
            TransactionState::Idle => Ok(QueryResult::empty(CommandKind::Commit)),
            TransactionState::Failed => {
                self.rollback().await?;
                Ok(QueryResult::empty(CommandKind::Rollback))
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

    async fn rollback(&mut self) -> Result<(), Error> {
        if self.state == TransactionState::Idle {
            return Ok(());
        }
        // SQLite may already have rolled back on its own (after SQLITE_FULL, say).
        if let Err(error) = self.execute_direct("ROLLBACK").await {
            tracing::debug!(%error, "ROLLBACK");
        }
        self.end_transaction(false);
        Ok(())
    }

    /// Marks an open transaction as failed (after an error outside `execute`).
    pub(super) fn fail_transaction(&mut self) {
        if self.state == TransactionState::Active {
            self.state = TransactionState::Failed;
        }
    }

    fn end_transaction(&mut self, committed: bool) {
        self.state = TransactionState::Idle;
        self.write_permit = None;
        self.settings.end_transaction(committed);
    }

    /// Waits for the write permit: at most `lock_timeout` (else the server's
    /// busy timeout), and no longer than the statement may run.
    async fn acquire_write_permit(&self) -> Result<OwnedSemaphorePermit, Error> {
        let wait = self
            .settings
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
                if self.write_permit.is_none() {
                    self.write_permit = Some(self.acquire_write_permit().await?);
                }
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

    /// Runs one SQLite statement on the session's connection, directly (see
    /// `direct`): no hand-off to SQLx's connection thread.
    pub(super) async fn run_direct(
        &mut self,
        query: direct::Query<'_>,
    ) -> Result<QueryResult, Error> {
        let control = self.control.control().clone();
        let (handle, statements) = self.held().await?.direct().await?;
        direct::run(handle, statements, query, Some(&control)).await
    }

    /// Runs a parameterless statement whose result is only success or failure.
    async fn execute_direct(&mut self, sql: &'static str) -> Result<(), Error> {
        let (handle, statements) = self.held().await?.direct().await?;
        direct::execute(handle, statements, sql).await
    }

    /// The connection, for SQLx to use (the session lets go of its handle).
    pub(super) async fn connection(&mut self) -> Result<&mut sqlx::SqliteConnection, Error> {
        Ok(self.held().await?.sqlx())
    }

    /// The session's connection, taken on first use: a parked one, with its
    /// prepared statements and handle, or one from the pool.
    async fn held(&mut self) -> Result<&mut HeldConnection, Error> {
        let conn = match &mut self.conn {
            Some(conn) => conn,
            empty => empty.insert(self.engine.connection().await?),
        };
        Ok(conn)
    }
}

/// A session that ends outside a transaction leaves its connection, and the
/// statements prepared on it, to the next session. One that ends inside a
/// transaction (without `close`) hands the connection back to the pool, whose
/// release hook rolls it back.
impl Drop for Session {
    fn drop(&mut self) {
        if self.state == TransactionState::Idle
            && let Some(conn) = self.conn.take()
        {
            self.engine.park(conn);
        }
    }
}

fn transaction_aborted() -> Error {
    Error::new(
        ErrorKind::TransactionAborted,
        "current transaction is aborted, commands ignored until end of transaction block",
    )
}

/// A write that lost its snapshot to another writer is a serialization failure:
/// PostgreSQL clients know to retry those.
fn snapshot_conflict(error: Error) -> Error {
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
