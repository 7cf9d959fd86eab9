//! Where a statement runs: writes, and everything in a transaction that has
//! written, on the writer connection under the write permit; reads on the
//! session's own connection, each on its own snapshot (or, with the shared
//! cache, on a fresh private-cache connection when the shared snapshot is
//! old); PRAGMAs and TEMP objects on the session's own connection for good.

use super::state::{Session, TransactionState};
use super::transaction::snapshot_conflict;
use crate::engine::catalog::{self, DatabaseStats, SessionView, StatementsView};
use crate::engine::commands;
use crate::engine::connection::HeldConnection;
use crate::engine::declared_columns::DeclaredColumns;
use crate::engine::direct;
use crate::engine::domains;
use crate::engine::exec;
use crate::engine::result::{QueryResult, ResultSink};
use crate::engine::value::Value;
use crate::engine::{enums, index_rename, rebuild, schema_rename};
use crate::error::{Error, ErrorKind};
use crate::sql::{Action, CommandKind, LockWait, Plan, PreparedCommand, SessionCommand, Statement};

impl Session {
    /// Runs a statement where it belongs: writes, and everything in a transaction
    /// that has written, on the writer connection, under the write permit (for the
    /// statement alone in autocommit mode, until the end of an explicit
    /// transaction); reads on the session's own connection, each statement on
    /// its own snapshot, so a reader never holds a read transaction between
    /// statements.
    pub(super) async fn run<S: ResultSink>(
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
        if self.state == TransactionState::Idle {
            // Its own transaction committed (or not) with it.
            self.end_autocommit_statement(result.is_ok());
        }
        if self.write.as_ref().is_some_and(|w| !w.transaction) {
            self.release_write();
        }
        // An autocommit write is acknowledged once durable (see `group_commit`);
        // a failed one was undone.
        match result {
            // (A read has nothing to wait for, nor a setting to look at.)
            Ok(()) if self.unsynced.is_some() => {
                let synchronous = self.settings.lock().synchronous_commit();
                self.wait_durable(synchronous).await
            }
            Ok(()) => Ok(()),
            Err(error) => {
                self.unsynced = None;
                Err(error)
            }
        }
    }

    /// `DISCARD ALL`: the connection's own state goes too (TEMP objects, PRAGMAs).
    pub(super) async fn discard_connection_state(&mut self) -> Result<(), Error> {
        let (engine, role) = (self.engine.clone(), self.identity.role);
        self.sequence_values.clear();
        let served = self.served.clone();
        let conn = self.held().await?;
        engine.reset(conn).await?;
        conn.assign(role, &served).await
    }

    pub(super) async fn run_routed<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        if let Plan::Session(command) = &stmt.plan {
            if let Some(result) = self.transaction_setting(command, stmt.kind)? {
                return result.send_to(sink).await;
            }
            let in_transaction = self.state != TransactionState::Idle;
            let result = commands::run(
                &mut self.settings.lock(),
                in_transaction,
                command,
                stmt.kind,
            )?;
            if let SessionCommand::Deallocate(name) = command {
                self.deallocate(name.as_deref());
            }
            if *command == SessionCommand::DiscardAll {
                self.deallocate(None);
                // Boxed, as the rare paths below are: the futures of every
                // statement stay small (they are moved, whole, on each call).
                Box::pin(self.discard_connection_state()).await?;
            }
            return result.send_to(sink).await;
        }
        // `EXECUTE` was resolved before it was routed (see `execute`).
        if let Plan::Prepared(command) = &stmt.plan
            && let PreparedCommand::Prepare { name, statement } = &**command
        {
            self.prepare(name, statement)?;
            return QueryResult::empty(stmt.kind).send_to(sink).await;
        }
        if let Plan::Notify(command) = &stmt.plan {
            return self
                .channel_command(command, stmt.kind)?
                .send_to(sink)
                .await;
        }
        let writes = stmt.writes();
        if writes
            && (self.read_only
                || self.state == TransactionState::Idle && self.reads_only_by_default())
        {
            return Err(read_only_refusal(stmt.kind.tag()));
        }
        let savepoint = matches!(
            stmt.action,
            Action::Savepoint | Action::Release | Action::RollbackTo
        );
        if let Some(lock) = stmt.row_lock {
            self.lock_rows(lock).await?;
        }
        match (writes || savepoint, self.state) {
            (false, _) => {}
            (true, TransactionState::Idle) => self.acquire_write(false, LockWait::Block).await?,
            (true, _) if self.snapshot.is_some() || self.local => {
                self.acquire_write(true, LockWait::Block).await?
            }
            (true, _) => self.open_write_transaction().await?,
        }
        if writes && let Some(write) = &mut self.write {
            write.wrote = true;
        }
        self.read_fresh().await?;
        if leaves_state(stmt) {
            self.held().await?.mark_dirty();
        }
        let engine = self.engine.clone();
        if stmt.catalog {
            Box::pin(self.prepare_catalog(stmt)).await?;
        }
        // A table made with columns of an enum type gets their CHECKs.
        let with_checks = match writes && enums::makes_table(stmt) {
            true => enums::with_checks(self.connection().await?, stmt).await?,
            false => None,
        };
        let stmt = with_checks.as_ref().unwrap_or(stmt);
        // Statements with parameters are prepared once and run many times;
        // literal SQL (simple queries) rarely repeats.
        let query = direct::Query {
            sql: &stmt.sql,
            params,
            kind: stmt.kind,
            returns_rows: stmt.returns_rows,
            parameters: !params.is_empty(),
        };
        let result = match &stmt.plan {
            Plan::Single => match &stmt.column_types {
                _ if stmt.kind == CommandKind::CreateTableAs => {
                    Box::pin(self.run_create_table_as(query, sink)).await
                }
                _ if stmt.waits_for_locks => {
                    let types = stmt.column_types.as_ref();
                    Box::pin(self.run_waiting_for_locks(query, types, sink)).await
                }
                Some(types) => {
                    let mut sink = DeclaredColumns::new(sink, types);
                    self.run_direct(query, &mut sink).await
                }
                None => self.run_direct(query, sink).await,
            },
            Plan::Staged(staged) => Box::pin(self.run_staged(stmt, staged, query, sink)).await,
            Plan::CopyTo(copy) => Box::pin(self.copy_to(copy, params, sink)).await,
            Plan::Script(parts) => {
                match Box::pin(exec::run_script(self.connection().await?, parts)).await {
                    // `CREATE TABLE ... AS` completes with the rows it stored.
                    Ok(changed) if stmt.kind == CommandKind::CreateTableAs => {
                        QueryResult {
                            rows_affected: changed,
                            ..QueryResult::empty(stmt.kind)
                        }
                        .send_to(sink)
                        .await
                    }
                    Ok(_) => QueryResult::empty(stmt.kind).send_to(sink).await,
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
            Plan::Rebuild(alter) => match Box::pin(rebuild::run(self.held().await?, alter)).await {
                Ok(()) => QueryResult::empty(stmt.kind).send_to(sink).await,
                Err(error) => Err(error),
            },
            Plan::Enum(change) => match Box::pin(enums::run(self.held().await?, change)).await {
                Ok(()) => QueryResult::empty(stmt.kind).send_to(sink).await,
                Err(error) => Err(error),
            },
            Plan::RenameIndex(rename) => {
                match Box::pin(index_rename::run(self.held().await?, rename)).await {
                    Ok(()) => QueryResult::empty(stmt.kind).send_to(sink).await,
                    Err(error) => Err(error),
                }
            }
            Plan::RenameSchema(rename) => {
                match Box::pin(schema_rename::run(self.held().await?, rename)).await {
                    Ok(()) => QueryResult::empty(stmt.kind).send_to(sink).await,
                    Err(error) => Err(error),
                }
            }
            Plan::Begin(_) | Plan::Chain | Plan::Notify(_) | Plan::Prepared(_) => Err(Error::new(
                ErrorKind::Internal,
                "transaction control, channels and EXECUTE do not run on SQLite",
            )),
        }
        .map_err(|error| domains::explain(enums::explain(self.explain(snapshot_conflict(error)))));
        // A staged statement's temporary objects are gone when it ends.
        if writes
            && !matches!(
                stmt.kind,
                CommandKind::Insert | CommandKind::Update | CommandKind::Delete
            )
            && !matches!(stmt.plan, Plan::Staged(_))
        {
            engine.declared_types.invalidate();
            // Again when the transaction ends: what was read of the schema
            // meanwhile may miss this change, or hold one rolled back.
            self.changed_schema = true;
        }
        result
    }

    /// With the shared cache, a statement about to read there registers its read;
    /// one that would see an old snapshot gets a connection of its own instead
    /// (but a local session's statements, which need its TEMP objects, stay).
    pub(super) async fn read_fresh(&mut self) -> Result<(), Error> {
        let on_writer = !self.route_local && self.write.as_ref().is_some_and(|w| w.conn.is_some());
        let Some(reads) = &self.engine.shared_reads else {
            return Ok(());
        };
        if on_writer || self.local_read.is_some() || self.snapshot.is_some() {
            return Ok(());
        }
        let local = self.local || self.route_local;
        match reads.begin(local) {
            Some(read) => self.shared_read = Some(read),
            None => {
                let mut fresh = self.engine.fresh_reader().await?;
                fresh.assign(self.identity.role, &self.served).await?;
                self.fresh = Some(fresh);
            }
        }
        Ok(())
    }

    /// Runs one SQLite statement on the session's connection, directly (see
    /// `direct`): no hand-off to SQLx's connection thread.
    pub(in crate::engine) async fn run_direct<S: ResultSink>(
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
    pub(super) async fn execute_direct(&mut self, sql: &'static str) -> Result<(), Error> {
        let (handle, statements) = self.held().await?.direct().await?;
        direct::execute(handle, statements, sql).await
    }

    /// The connection, for SQLx to use (the session lets go of its handle).
    pub(in crate::engine) async fn connection(
        &mut self,
    ) -> Result<&mut sqlx::SqliteConnection, Error> {
        Ok(self.held().await?.sqlx())
    }

    /// The connection the statement running now uses: the writer connection
    /// while the session holds it (unless the statement goes to the session's own),
    /// the connection a transaction's snapshot was taken on, else the session's
    /// own, taken on first use: a parked one, with its prepared statements and
    /// handle, or one from the pool.
    pub(super) async fn held(&mut self) -> Result<&mut HeldConnection, Error> {
        let writer = !self.route_local && self.write.as_ref().is_some_and(|w| w.conn.is_some());
        if writer && let Some(conn) = self.write.as_mut().and_then(|w| w.conn.as_mut()) {
            return Ok(conn);
        }
        if let Some(fresh) = &mut self.fresh {
            return Ok(fresh);
        }
        if !self.route_local
            && let Some(conn) = self.snapshot.as_mut().and_then(|s| s.conn.as_mut())
        {
            return Ok(conn);
        }
        let conn = match &mut self.conn {
            Some(conn) => conn,
            empty => {
                let mut conn = self.engine.connection().await?;
                self.holding = Some(self.engine.hold());
                conn.assign(self.identity.role, &self.served).await?;
                empty.insert(conn)
            }
        };
        Ok(conn)
    }
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

impl Session {
    /// Brings the connection's catalog up to date with the schema and with
    /// this session (who it is, its settings, the locks held and waited for).
    pub(super) async fn prepare_catalog(&mut self, stmt: &Statement) -> Result<(), Error> {
        let shared = &self.engine.shared;
        // Thousands of rows, filled only for a statement that names them.
        let tables = stmt
            .sql
            .contains("pg_stat_user_tables")
            .then(|| shared.tables.rows());
        let statements = stmt.sql.contains("pg_stat_statements").then(|| {
            let (dealloc, reset) = shared.statements.info();
            StatementsView {
                entries: shared.statements.rows(),
                dealloc,
                reset,
            }
        });
        let backends = shared.backends.rows();
        let metrics = &shared.metrics;
        let count = |counter: &std::sync::atomic::AtomicU64| {
            counter.load(std::sync::atomic::Ordering::Relaxed)
        };
        let database = DatabaseStats {
            backends: backends.len(),
            commits: count(&metrics.commits),
            rollbacks: count(&metrics.rollbacks),
            deadlocks: count(&metrics.deadlocks),
            sessions: count(&metrics.sessions),
            killed: shared.backends.terminated(),
            tuples: shared.tables.totals(),
        };
        let view = SessionView {
            identity: self.identity.clone(),
            settings: self.settings.snapshot(),
            locks: shared.locks.rows(),
            backends,
            waits: shared.locks.waits(),
            database,
            statements,
            tables,
        };
        let conn = self.connection().await?;
        catalog::prepare(conn, &view).await
    }

    /// `default_transaction_read_only`: a statement outside a transaction
    /// block is a read-only transaction of its own.
    pub(super) fn reads_only_by_default(&self) -> bool {
        self.settings
            .lock()
            .get("default_transaction_read_only")
            .is_ok_and(|value| value == "on")
    }
}

/// PostgreSQL's refusal of a write in a read-only transaction.
pub(super) fn read_only_refusal(tag: &str) -> Error {
    Error::new(
        ErrorKind::ReadOnlyTransaction,
        format!("cannot execute {tag} in a read-only transaction"),
    )
}
