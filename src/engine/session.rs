//! A session: one client's view of the database and of its transaction.
//!
//! A session takes a pooled connection on first use and keeps it (pinned) until it
//! ends, so a busy client pays for no pool round trips; it reads there. Writes go
//! to the engine's writer connection, under the write permit: a transaction opens
//! in SQLite at its first write, on the writer, and runs there to its end, so no
//! read transaction is ever held between statements on the readers' connections
//! and table locks never cross between readers and the writer (see `run`).
//! Transaction control is interpreted here, with PostgreSQL's rules: an error
//! inside a transaction fails it until ROLLBACK, COMMIT of a failed transaction
//! rolls back, and a session that ends inside a transaction rolls back.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use tokio::sync::OwnedSemaphorePermit;

use super::catalog::{self, SessionIdentity};
use super::commands;
use super::connection::HeldConnection;
use super::control::{Registered, StatementControl};
use super::declared_columns::{DeclaredColumns, declared};
use super::direct;
use super::named_cursors::NamedCursors;
use super::result::ResultSink;
use super::sequences::SessionValues;
use super::settings::{Settings, SharedSettings};
use super::snapshots::SharedRead;
use super::{Column, Engine, Holding, QueryResult, Value, exec};
use crate::error::{Error, ErrorKind};
use crate::sql::CommandKind;
use crate::sql::{Action, CursorCommand, ParamHint, Plan, SessionCommand, Statement};

/// PostgreSQL's varchar, which its operators take as text.
const VARCHAR_OID: i64 = 1043;

/// Where a session stands with respect to transactions (PostgreSQL's I / T / E).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TransactionState {
    Idle,
    Active,
    Failed,
}

pub struct Session {
    engine: Arc<Engine>,
    /// The session's own connection (a reader), taken on first use and kept until
    /// the session ends.
    conn: Option<HeldConnection>,
    state: TransactionState,
    /// The right to write, held for a write statement or from a transaction's
    /// first write to its end, with the writer connection the writes run on.
    write: Option<WriteLock>,
    /// Whether a SQLite transaction is open (on the writer connection, or on the
    /// session's own for a session that keeps TEMP objects).
    open: bool,
    /// The session made TEMP objects, or changed its own connection with a PRAGMA,
    /// which only that connection has: it runs everything there, writes included
    /// (under the write permit).
    local: bool,
    /// The statement running now goes to the session's own connection whatever
    /// the session holds (a PRAGMA, a TEMP object).
    route_local: bool,
    /// The statement running now reads on the shared cache (see `snapshots`).
    shared_read: Option<SharedRead>,
    /// A local session's transaction reads on the shared cache until it ends.
    local_read: Option<SharedRead>,
    /// A connection with a private cache for the statement running now, which the
    /// shared cache would answer from an old snapshot.
    fresh: Option<HeldConnection>,
    /// Statements left open between fetches, on the session's own connection.
    cursors: HashMap<CursorId, OpenCursor>,
    next_cursor: CursorId,
    identity: SessionIdentity,
    /// Shared with the connections that run its statements (`set_config()`).
    settings: SharedSettings,
    /// SQLite's rule instead of PostgreSQL's: a failed statement inside a
    /// transaction undoes only itself, and the transaction goes on.
    errors_keep_transaction: bool,
    /// The open transaction refuses writes (`begin_read_only`).
    read_only: bool,
    /// Counts `conn` as held (see `Engine::has_free_connection`).
    holding: Option<Holding>,
    /// Stops the running statement from outside (cancel, timeout, shutdown).
    control: Registered,
    /// No statement runs past this (the HTTP front end's request limit).
    time_limit: Option<Instant>,
    /// The session's `currval`/`lastval` values.
    sequence_values: Arc<SessionValues>,
    /// Cursors made with `DECLARE` (see `named_cursors`).
    pub(super) named_cursors: NamedCursors,
}

/// Names an open cursor of a session.
pub type CursorId = u64;

/// A cursor and, with the shared cache, the read it keeps in flight there.
struct OpenCursor {
    cursor: direct::Cursor,
    /// The statement's `column_types`.
    column_types: Option<Arc<[Option<&'static str>]>>,
    _read: Option<SharedRead>,
}

/// The write permit and, unless the session runs everything on its own
/// connection, the engine's writer connection, which only the permit's holder uses.
struct WriteLock {
    permit: OwnedSemaphorePermit,
    conn: Option<HeldConnection>,
    /// Held to the end of the transaction (else: to the end of the statement).
    transaction: bool,
}

impl Session {
    pub(super) fn new(engine: Arc<Engine>, identity: SessionIdentity, settings: Settings) -> Self {
        let settings = settings.with_server_defaults(&engine.timeout_defaults);
        let control = engine.controls.register();
        Session {
            engine,
            conn: None,
            state: TransactionState::Idle,
            write: None,
            open: false,
            local: false,
            route_local: false,
            shared_read: None,
            local_read: None,
            fresh: None,
            cursors: HashMap::new(),
            next_cursor: 0,
            identity,
            settings: SharedSettings::new(settings),
            errors_keep_transaction: false,
            read_only: false,
            holding: None,
            control,
            time_limit: None,
            sequence_values: Arc::default(),
            named_cursors: NamedCursors::default(),
        }
    }

    /// Switches the session to SQLite's rule for errors in a transaction (the
    /// failed statement alone is undone), for clients that expect SQLite's
    /// behaviour rather than PostgreSQL's (Hrana).
    pub fn keep_transaction_on_error(&mut self) {
        self.errors_keep_transaction = true;
    }

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

    /// What stops this session's running statement from outside.
    pub fn control(&self) -> Arc<StatementControl> {
        self.control.control().clone()
    }

    /// No statement of this session runs past `limit` (`None`: no limit but
    /// `statement_timeout`).
    pub fn limit_until(&mut self, limit: Option<Instant>) {
        self.time_limit = limit;
    }

    /// How long the session may sit idle inside a transaction before it is ended
    /// (`idle_in_transaction_session_timeout`); `None`: no limit.
    pub fn idle_in_transaction_timeout(&self) -> Option<std::time::Duration> {
        self.settings
            .lock()
            .duration("idle_in_transaction_session_timeout")
    }

    pub fn transaction_state(&self) -> TransactionState {
        self.state
    }

    /// Records who the client is and what it asked for at startup, before its
    /// first statement.
    pub fn identify(&mut self, identity: SessionIdentity, settings: Settings) {
        self.identity = identity;
        self.settings
            .replace(settings.with_server_defaults(&self.engine.timeout_defaults));
    }

    /// The session's settings as they are now.
    pub fn settings(&self) -> Settings {
        self.settings.snapshot()
    }

    /// Reported settings that changed since the last call (for ParameterStatus).
    pub fn take_setting_changes(&mut self) -> Vec<(String, String)> {
        self.settings.lock().take_changes()
    }

    /// Runs one statement with its parameters (`?1..?N`) and collects its result.
    pub async fn execute(
        &mut self,
        stmt: &Statement,
        params: &[Value],
    ) -> Result<QueryResult, Error> {
        let mut result = QueryResult::empty(stmt.kind);
        self.execute_into(stmt, params, &mut result).await?;
        Ok(result)
    }

    /// Runs one statement with its parameters (`?1..?N`), handing its rows to
    /// `sink` as SQLite produces them. A failure is reported to the sink and
    /// returned.
    pub async fn execute_into<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        let ran = match sink.begin_statement() {
            Ok(()) => self.dispatch(stmt, params, sink).await,
            Err(error) => Err(error),
        };
        if let Err(error) = &ran {
            sink.error(error);
        }
        ran
    }

    async fn dispatch<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
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
            .execute_statement(stmt, params, sink)
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
            .lock()
            .duration("statement_timeout")
            .map(|timeout| Instant::now() + timeout);
        match (timeout, self.time_limit) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    async fn execute_statement<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        match stmt.action {
            Action::Begin => self.begin(stmt).await?.send_to(sink).await,
            Action::Commit => self.commit().await?.send_to(sink).await,
            Action::Rollback => {
                self.rollback().await?;
                QueryResult::empty(CommandKind::Rollback)
                    .send_to(sink)
                    .await
            }
            _ => self.run_in_transaction(stmt, params, sink).await,
        }
    }

    /// Runs several statements as one unit, as PostgreSQL runs a multi-statement
    /// query string, and collects their results: see `execute_batch_into`.
    pub async fn execute_batch(
        &mut self,
        batch: &[(Statement, Vec<Value>)],
    ) -> Vec<Result<QueryResult, Error>> {
        let mut results = Vec::with_capacity(batch.len());
        self.execute_batch_into(batch, &mut results).await;
        results
    }

    /// Runs several statements as one unit, as PostgreSQL runs a multi-statement
    /// query string: unless the batch manages its own transaction, it runs inside
    /// one, so a failure leaves none of its writes behind. Stops at the first error;
    /// a failed implicit COMMIT is one more error after the last statement.
    pub async fn execute_batch_into<S: ResultSink>(
        &mut self,
        batch: &[(Statement, Vec<Value>)],
        sink: &mut S,
    ) {
        // TEMP objects the batch makes must be there for its other statements.
        if batch.iter().any(|(stmt, _)| stmt.creates_temp) {
            self.local = true;
        }
        let implicit = batch.len() > 1
            && self.state == TransactionState::Idle
            && batch
                .iter()
                .all(|(stmt, _)| !stmt.action.controls_transaction());
        if implicit {
            let writes = batch.iter().any(|(stmt, _)| stmt.writes());
            if let Err(error) = self.begin_transaction(writes).await {
                // The first statement is the one that could not start.
                if sink.begin_statement().is_ok() {
                    sink.error(&error);
                }
                return;
            }
        }
        let mut failed = false;
        for (stmt, params) in batch {
            if self.execute_into(stmt, params, sink).await.is_err() {
                failed = true;
                break;
            }
        }
        if implicit {
            if failed {
                if let Err(error) = self.rollback().await {
                    tracing::warn!(%error, "rollback of a failed batch");
                }
            } else if let Err(error) = self.commit().await {
                sink.error(&error);
            }
        }
    }

    /// Opens a read-only query as a cursor, to fetch its rows a batch at a time
    /// (a portal run with a row limit). `None`: the statement cannot be one (it
    /// writes, or must run elsewhere than on the session's own connection): run it
    /// with `execute_into` instead.
    pub async fn open_cursor(
        &mut self,
        stmt: &Statement,
        params: &[Value],
    ) -> Result<Option<CursorId>, Error> {
        let eligible = matches!(stmt.plan, Plan::Single)
            && stmt.action == Action::Read
            && stmt.returns_rows
            && params.len() == stmt.param_count
            && self.state != TransactionState::Failed
            && self.write.is_none()
            && !self.local
            && !stmt.pragma;
        if !eligible {
            return Ok(None);
        }
        let read = match &self.engine.shared_reads {
            Some(reads) => match reads.begin(false) {
                Some(read) => Some(read),
                // The shared cache's snapshot is old: run it whole, elsewhere.
                None => return Ok(None),
            },
            None => None,
        };
        let opened = self.open_cursor_here(stmt, params).await;
        let cursor = match opened {
            Ok(cursor) => cursor,
            Err(error) => {
                self.fail_transaction();
                return Err(error);
            }
        };
        let id = self.next_cursor;
        self.next_cursor += 1;
        self.cursors.insert(
            id,
            OpenCursor {
                cursor,
                column_types: stmt.column_types.clone(),
                _read: read,
            },
        );
        Ok(Some(id))
    }

    async fn open_cursor_here(
        &mut self,
        stmt: &Statement,
        params: &[Value],
    ) -> Result<direct::Cursor, Error> {
        if stmt.catalog {
            let (identity, settings) = (self.identity.clone(), self.settings.snapshot());
            let conn = self.connection().await?;
            Box::pin(catalog::prepare(conn, &identity, &settings)).await?;
        }
        let (handle, _) = self.held().await?.direct().await?;
        direct::Cursor::open(
            handle,
            direct::Query {
                sql: &stmt.sql,
                params,
                kind: stmt.kind,
                returns_rows: true,
                parameters: !params.is_empty(),
            },
        )
    }

    /// Hands up to `max_rows` more rows of cursor `id` to `sink` (0: all of
    /// them), finishing the statement when none is left. Returns whether rows are
    /// left; a cursor with none left, or that failed, is closed.
    pub async fn fetch<S: ResultSink>(
        &mut self,
        id: CursorId,
        max_rows: usize,
        sink: &mut S,
    ) -> Result<bool, Error> {
        let fetched = match sink.begin_statement() {
            Ok(()) => {
                let control = self.control.control().clone();
                control.start(self.deadline());
                let fetched = self.fetch_from(id, max_rows, &control, sink).await;
                control.finish();
                fetched.map_err(|error| control.explain(error))
            }
            Err(error) => Err(error),
        };
        match &fetched {
            Ok(true) => {}
            Ok(false) => self.close_cursor(id),
            Err(error) => {
                sink.error(error);
                self.close_cursor(id);
                self.fail_transaction();
            }
        }
        fetched
    }

    async fn fetch_from<S: ResultSink>(
        &mut self,
        id: CursorId,
        max_rows: usize,
        control: &StatementControl,
        sink: &mut S,
    ) -> Result<bool, Error> {
        let (Some(open), Some(conn)) = (self.cursors.get_mut(&id), self.conn.as_mut()) else {
            return Err(Error::new(
                ErrorKind::UndefinedObject,
                "the portal's transaction has ended",
            ));
        };
        let (handle, _) = conn.direct().await?;
        match &open.column_types {
            Some(types) => {
                let mut sink = DeclaredColumns::new(sink, types);
                open.cursor
                    .fetch(handle, Some(control), max_rows, &mut sink)
                    .await
            }
            None => {
                open.cursor
                    .fetch(handle, Some(control), max_rows, sink)
                    .await
            }
        }
    }

    /// Closes a cursor (its statement is finalized).
    pub fn close_cursor(&mut self, id: CursorId) {
        self.cursors.remove(&id);
    }

    /// The result columns `stmt` would produce, without running it.
    pub async fn describe(&mut self, stmt: &Statement) -> Result<Arc<Vec<Column>>, Error> {
        if !stmt.returns_rows {
            return Ok(Arc::new(Vec::new()));
        }
        if let Plan::Cursor(command) = &stmt.plan {
            return match &**command {
                CursorCommand::Fetch { name, .. } => self.named_cursors.columns(name),
                _ => Ok(Arc::new(Vec::new())),
            };
        }
        if let Plan::Session(command) = &stmt.plan {
            // `SHOW`: its columns are those of its answer, which changes nothing.
            let in_transaction = self.state != TransactionState::Idle;
            let mut settings = self.settings.snapshot();
            let result = commands::run(&mut settings, in_transaction, command, stmt.kind)?;
            return Ok(result.columns);
        }
        if stmt.catalog {
            // The catalog's tables must exist for SQLite to prepare the statement.
            let (identity, settings) = (self.identity.clone(), self.settings.snapshot());
            let conn = self.connection().await?;
            Box::pin(catalog::prepare(conn, &identity, &settings)).await?;
        }
        let (handle, statements) = self.held().await?.direct().await?;
        let parameters = stmt.param_count > 0;
        let described = direct::describe(handle, statements, &stmt.sql, parameters).await;
        let mut columns = described.map_err(|error| self.explain(error))?;
        if let Some(types) = &stmt.column_types {
            columns = declared(&columns, types);
        }
        if columns.iter().any(|c| c.decltype.is_none()) {
            // The inference may run a query's first step: no sequence may
            // advance for it (see `sequences`).
            let describing = (
                self.sequence_values.describing(),
                self.settings.describing(),
            );
            let conn = self.connection().await?;
            exec::infer_expression_types(conn, stmt, &mut columns).await;
            drop(describing);
        }
        Ok(Arc::new(columns))
    }

    /// The declared type of each parameter, resolving `hints` (from
    /// [`crate::sql::param_hints`]) against the schema; an array's is its
    /// element's with `[]` appended.
    pub async fn describe_params(
        &mut self,
        hints: Vec<Option<ParamHint>>,
    ) -> Result<Vec<Option<Arc<str>>>, Error> {
        let mut types = Vec::with_capacity(hints.len());
        for mut hint in hints {
            let (mut dimensions, mut operand) = (0, false);
            let hint = loop {
                match hint {
                    Some(ParamHint::ArrayOf(element)) => {
                        dimensions += 1;
                        hint = Some(*element);
                    }
                    Some(ParamHint::Operand(beside)) => {
                        operand = true;
                        hint = Some(*beside);
                    }
                    other => break other,
                }
            };
            let declared = match hint {
                Some(hint) => self.declared_type_of(hint).await?,
                None => None,
            };
            // PostgreSQL's operators take a varchar as text.
            let declared = match declared {
                Some(decl) if operand && catalog::type_oid(&decl) == VARCHAR_OID => {
                    Some(Arc::from("text"))
                }
                other => other,
            };
            types.push(declared.map(|name| match dimensions {
                0 => name,
                n => Arc::from(format!("{name}{}", "[]".repeat(n))),
            }));
        }
        Ok(types)
    }

    /// Changes whenever a statement may have changed the schema: parameter
    /// types described under another value may be stale.
    pub fn schema_generation(&self) -> u64 {
        self.engine.declared_types.generation()
    }

    async fn declared_type_of(&mut self, hint: ParamHint) -> Result<Option<Arc<str>>, Error> {
        let engine = self.engine.clone();
        Ok(match hint {
            ParamHint::Declared(name) => Some(Arc::from(name)),
            ParamHint::Column { tables, column } => {
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
            ParamHint::Position { table, index } => {
                let conn = self.connection().await?;
                engine
                    .declared_types
                    .insertable_decltype(conn, &table, index)
                    .await?
            }
            // Unwrapped by the caller.
            ParamHint::ArrayOf(_) | ParamHint::Operand(_) => None,
        })
    }

    /// Ends the session: rolls back an open transaction and returns the connection.
    pub async fn close(mut self) {
        if self.state != TransactionState::Idle
            && let Err(error) = self.rollback().await
        {
            tracing::warn!(%error, "rollback at session end failed");
        }
    }

    async fn run_in_transaction<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
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
        let result = self.run(stmt, params, sink).await;
        match (&result, self.state) {
            (Err(_), TransactionState::Active) if !self.errors_keep_transaction => {
                self.state = TransactionState::Failed
            }
            (Ok(_), TransactionState::Failed) => self.state = TransactionState::Active,
            _ => {}
        }
        result
    }

    /// Runs a statement where it belongs: writes, and everything in a transaction
    /// that has written, on the writer connection, under the write permit (for the
    /// statement alone in autocommit mode, until the end of an explicit
    /// transaction); reads on the session's own connection, each statement on
    /// its own snapshot, so a reader never holds a read transaction between
    /// statements.
    async fn run<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        let temp = stmt.creates_temp;
        if temp {
            self.local = true;
        }
        let writer_held = self.write.as_ref().is_some_and(|w| w.conn.is_some());
        // A session that became local inside a transaction already writing on the
        // writer connection finishes that transaction there.
        self.route_local = temp || (!writer_held && (self.local || stmt.pragma));
        let result = self.run_routed(stmt, params, sink).await;
        if self.route_local && self.conn.as_ref().is_some_and(|conn| conn.changed()) {
            // A PRAGMA changed the session's own connection (`foreign_keys = off`
            // around a migration): its writes must run under it too.
            self.local = true;
        }
        self.route_local = false;
        self.shared_read = None;
        self.fresh = None;
        if self.write.as_ref().is_some_and(|w| !w.transaction) {
            self.release_write();
        }
        result
    }

    /// `DISCARD ALL`: the connection's own state goes too (TEMP objects, PRAGMAs).
    async fn discard_connection_state(&mut self) -> Result<(), Error> {
        let (engine, role) = (self.engine.clone(), self.identity.role);
        self.sequence_values.clear();
        let (values, settings) = (self.sequence_values.clone(), self.settings.clone());
        let conn = self.held().await?;
        engine.reset(conn).await?;
        conn.assign(role, &values, &settings).await
    }

    async fn run_routed<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        if let Plan::Session(command) = &stmt.plan {
            let in_transaction = self.state != TransactionState::Idle;
            let result = commands::run(
                &mut self.settings.lock(),
                in_transaction,
                command,
                stmt.kind,
            )?;
            if *command == SessionCommand::DiscardAll {
                // Boxed, as the rare paths below are: the futures of every
                // statement stay small (they are moved, whole, on each call).
                Box::pin(self.discard_connection_state()).await?;
            }
            return result.send_to(sink).await;
        }
        let writes = stmt.writes();
        if writes && self.read_only {
            return Err(Error::new(
                ErrorKind::Sqlite {
                    code: libsqlite3_sys::SQLITE_READONLY,
                },
                "attempt to write a readonly database (the transaction is read-only)",
            ));
        }
        let savepoint = matches!(
            stmt.action,
            Action::Savepoint | Action::Release | Action::RollbackTo
        );
        match (writes || savepoint, self.state) {
            (false, _) => {}
            (true, TransactionState::Idle) => self.acquire_write(false).await?,
            (true, _) => self.open_write_transaction().await?,
        }
        self.read_fresh().await?;
        if leaves_state(stmt) {
            self.held().await?.mark_dirty();
        }
        let engine = self.engine.clone();
        if stmt.catalog {
            let (identity, settings) = (self.identity.clone(), self.settings.snapshot());
            let conn = self.connection().await?;
            Box::pin(catalog::prepare(conn, &identity, &settings)).await?;
        }
        // A table made with columns of an enum type gets their CHECKs.
        let with_checks = match writes && super::enums::makes_table(stmt) {
            true => super::enums::with_checks(self.connection().await?, stmt).await?,
            false => None,
        };
        let stmt = with_checks.as_ref().unwrap_or(stmt);
        let result = match &stmt.plan {
            // Statements with parameters are prepared once and run many times;
            // literal SQL (simple queries) rarely repeats.
            Plan::Single => {
                let query = direct::Query {
                    sql: &stmt.sql,
                    params,
                    kind: stmt.kind,
                    returns_rows: stmt.returns_rows,
                    parameters: !params.is_empty(),
                };
                match &stmt.column_types {
                    Some(types) => {
                        let mut sink = DeclaredColumns::new(sink, types);
                        self.run_direct(query, &mut sink).await
                    }
                    None => self.run_direct(query, sink).await,
                }
            }
            Plan::CopyTo(copy) => Box::pin(super::copy::copy_to(self, copy, params, sink)).await,
            Plan::Script(parts) => {
                match Box::pin(exec::run_script(self.connection().await?, parts)).await {
                    Ok(()) => QueryResult::empty(stmt.kind).send_to(sink).await,
                    Err(error) => Err(error),
                }
            }
            Plan::Nothing => QueryResult::empty(stmt.kind).send_to(sink).await,
            Plan::CopyFrom(_) => Err(Error::new(
                ErrorKind::Unsupported,
                "COPY FROM STDIN needs the PostgreSQL copy protocol",
            )),
            Plan::Session(_) => Err(Error::new(
                ErrorKind::Internal,
                "session commands do not run on SQLite",
            )),
            Plan::Cursor(command) => {
                self.run_cursor_command(command, stmt.kind, params, sink)
                    .await
            }
            // Boxed, as the other rare paths: every statement's future stays small.
            Plan::Rebuild(alter) => {
                match Box::pin(super::rebuild::run(self.held().await?, alter)).await {
                    Ok(()) => QueryResult::empty(stmt.kind).send_to(sink).await,
                    Err(error) => Err(error),
                }
            }
            Plan::Enum(change) => {
                match Box::pin(super::enums::run(self.held().await?, change)).await {
                    Ok(()) => QueryResult::empty(stmt.kind).send_to(sink).await,
                    Err(error) => Err(error),
                }
            }
        }
        .map_err(|error| super::enums::explain(self.explain(snapshot_conflict(error))));
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

    /// With the shared cache, a statement about to read there registers its read;
    /// one that would see an old snapshot gets a connection of its own instead
    /// (but a local session's statements, which need its TEMP objects, stay).
    async fn read_fresh(&mut self) -> Result<(), Error> {
        let on_writer = !self.route_local && self.write.as_ref().is_some_and(|w| w.conn.is_some());
        let Some(reads) = &self.engine.shared_reads else {
            return Ok(());
        };
        if on_writer || self.local_read.is_some() {
            return Ok(());
        }
        let local = self.local || self.route_local;
        match reads.begin(local) {
            Some(read) => self.shared_read = Some(read),
            None => {
                let mut fresh = self.engine.fresh_reader().await?;
                fresh
                    .assign(self.identity.role, &self.sequence_values, &self.settings)
                    .await?;
                self.fresh = Some(fresh);
            }
        }
        Ok(())
    }

    /// Starts a transaction; `immediate` takes the write permit and lock up front.
    /// Otherwise nothing opens in SQLite until the first write: reads run each on
    /// the latest snapshot, as in PostgreSQL's READ COMMITTED, and hold nothing
    /// that a writer (or, with the shared cache, another reader) would wait for.
    async fn begin_transaction(&mut self, immediate: bool) -> Result<(), Error> {
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
    async fn open_write_transaction(&mut self) -> Result<(), Error> {
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
    async fn acquire_write(&mut self, transaction: bool) -> Result<(), Error> {
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
    fn release_write(&mut self) {
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

    async fn commit(&mut self) -> Result<QueryResult, Error> {
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

    async fn rollback(&mut self) -> Result<(), Error> {
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

    /// Marks an open transaction as failed (after an error outside `execute`:
    /// a statement that did not prepare, parameters that did not bind).
    pub fn fail_transaction(&mut self) {
        if self.state == TransactionState::Active {
            self.state = TransactionState::Failed;
        }
    }

    fn end_transaction(&mut self, committed: bool) {
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
    async fn acquire_write_permit(&self) -> Result<OwnedSemaphorePermit, Error> {
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

    /// Runs one SQLite statement on the session's connection, directly (see
    /// `direct`): no hand-off to SQLx's connection thread.
    pub(super) async fn run_direct<S: ResultSink>(
        &mut self,
        query: direct::Query<'_>,
        sink: &mut S,
    ) -> Result<(), Error> {
        let control = self.control.control().clone();
        let (handle, statements) = self.held().await?.direct().await?;
        let result = direct::run(handle, statements, query, Some(&control), sink).await;
        result.map_err(|error| self.explain(error))
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

    /// The connection the statement running now uses: the writer connection
    /// while the session holds it (unless the statement goes to the session's own),
    /// else the session's own, taken on first use: a parked one, with its prepared
    /// statements and handle, or one from the pool.
    async fn held(&mut self) -> Result<&mut HeldConnection, Error> {
        let writer = !self.route_local && self.write.as_ref().is_some_and(|w| w.conn.is_some());
        if writer && let Some(conn) = self.write.as_mut().and_then(|w| w.conn.as_mut()) {
            return Ok(conn);
        }
        if let Some(fresh) = &mut self.fresh {
            return Ok(fresh);
        }
        let conn = match &mut self.conn {
            Some(conn) => conn,
            empty => {
                let mut conn = self.engine.connection().await?;
                self.holding = Some(self.engine.hold());
                conn.assign(self.identity.role, &self.sequence_values, &self.settings)
                    .await?;
                empty.insert(conn)
            }
        };
        Ok(conn)
    }

    /// Why the authorizer refused, when it did (SQLite says only "not authorized").
    fn explain(&self, error: Error) -> Error {
        let writer = self.write.as_ref().and_then(|w| w.conn.as_ref());
        [writer, self.fresh.as_ref(), self.conn.as_ref()]
            .into_iter()
            .flatten()
            .fold(error, |error, conn| conn.explain(error))
    }
}

/// A session that ends outside a transaction leaves its connection, and the
/// statements prepared on it, to the next session. A connection left inside a
/// transaction (a session dropped without `close`) goes back to the pool, whose
/// release hook rolls it back. One whose settings a PRAGMA changed (see
/// `access`) is closed: the next session gets a new one.
impl Drop for Session {
    fn drop(&mut self) {
        // Cursors' statements are finalized while their connection is still ours.
        self.cursors.clear();
        let own_in_transaction = self.open && self.write.as_ref().is_none_or(|w| w.conn.is_none());
        self.release_write();
        match self.conn.take() {
            Some(conn) if conn.changed() => conn.discard(),
            Some(conn) if !own_in_transaction => self.engine.park(conn),
            _ => {}
        }
    }
}

fn transaction_aborted() -> Error {
    Error::new(
        ErrorKind::TransactionAborted,
        "current transaction is aborted, commands ignored until end of transaction block",
    )
}

/// Whether a statement may leave state on its connection that another session
/// must not see: anything but plain queries, DML and transaction control (DDL,
/// PRAGMAs in any form, ...), and writes to the emulated catalog's temporary
/// tables.
fn leaves_state(stmt: &Statement) -> bool {
    let plain = matches!(
        stmt.kind,
        CommandKind::Select
            | CommandKind::Insert
            | CommandKind::Update
            | CommandKind::Delete
            | CommandKind::Begin
            | CommandKind::Commit
            | CommandKind::Rollback
            | CommandKind::Copy
    );
    !plain || (stmt.catalog && stmt.writes()) || stmt.pragma
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
