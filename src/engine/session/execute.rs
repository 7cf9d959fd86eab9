//! Running statements: one at a time or a batch as one unit, each under the
//! session's statement control (cancel, timeouts), with PostgreSQL's rules for
//! an error inside a transaction (it fails the transaction until ROLLBACK).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::state::{Session, TransactionState};
use super::transaction::transaction_aborted;
use crate::engine::result::{Column, Completion, QueryResult, ResultSink};
use crate::engine::schema::SessionCatalog;
use crate::engine::value::Value;
use crate::error::{Error, ErrorKind, SqlState};
use crate::sql::{
    self, Action, CommandKind, Dialect, Fingerprint, Plan, PreparedCommand, Statement,
};

impl Session {
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

    pub(super) async fn dispatch<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        // `EXECUTE name (args)`: the statement `PREPARE` kept, with the
        // values as its parameters (see `prepared`). Boxed, as the rare paths
        // are: every statement's future stays small.
        if let Plan::Prepared(command) = &stmt.plan
            && let PreparedCommand::Execute { name, args } = &**command
        {
            let (kept, values) = self.prepared_execution(name, args)?;
            return Box::pin(self.dispatch(&kept, &values, sink)).await;
        }
        // A statement read with its literals as parameters runs with them.
        let literal_values = literal_values(stmt, params);
        let params = literal_values.as_deref().unwrap_or(params);
        if params.len() != stmt.param_count {
            return Err(Error::invalid(format!(
                "the statement takes {} parameters but {} were supplied",
                stmt.param_count,
                params.len()
            )));
        }
        let reread;
        let (stmt, params) = match &stmt.read_against {
            Some((version, text))
                if *version != self.schema_generation()
                    && self.state != TransactionState::Failed =>
            {
                // Read against a schema that has changed since: read again,
                // from its own text (literals and all).
                let schema = self.schema().await?;
                let catalog = SessionCatalog::new(&schema, || self.search_path());
                match sql::parse_single_in(text, Dialect::Postgres(&catalog))? {
                    Some(fresh) => {
                        reread = fresh;
                        let params = match literal_values {
                            Some(_) => &[],
                            None => params,
                        };
                        (&reread, params)
                    }
                    None => (stmt, params),
                }
            }
            _ => (stmt, params),
        };
        let control = self.control.control().clone();
        // Outside a transaction block a statement is a transaction of its own.
        let own_transaction = self.state == TransactionState::Idle
            && !matches!(
                stmt.action,
                Action::Begin | Action::Commit | Action::Rollback
            );
        // A table lock lasts until the transaction ends: one of its own
        // would end at once (PostgreSQL refuses it).
        if own_transaction && stmt.kind == CommandKind::Other("LOCK TABLE") {
            return Err(Error::new(
                ErrorKind::NoActiveTransaction,
                "LOCK TABLE can only be used in transaction blocks",
            ));
        }
        // A session shut down or terminated runs nothing more.
        if let Some(reason) = control.ended() {
            self.engine.shared.metrics.stopped(reason);
            return Err(control.stop_error(reason));
        }
        control.start(self.deadline());
        // Timed for `pg_stat_statements` when it counts statements.
        let counted = stmt
            .fingerprint
            .as_ref()
            .filter(|_| self.engine.shared.statements.counts());
        let started = counted.map(|_| Instant::now());
        let mut sink = Counted::new(sink);
        let result = self
            .execute_statement(stmt, params, &mut sink)
            .await
            .map_err(|error| control.explain(error));
        if let (Some(fingerprint), Some(started), Ok(())) = (counted, started, &result) {
            let rows = match stmt.kind {
                CommandKind::Other(_)
                | CommandKind::Begin
                | CommandKind::Commit
                | CommandKind::Rollback => 0,
                _ => sink.rows,
            };
            self.count_statement(fingerprint, started.elapsed(), rows);
        }
        // Asked before the deadline is cleared: a timeout is one.
        let stopped = result.as_ref().err().and_then(|_| control.reason());
        control.finish();
        let metrics = &self.engine.shared.metrics;
        metrics.statement(stmt.kind, result.is_err());
        if stmt.returns_rows || stmt.kind == CommandKind::Fetch {
            metrics
                .rows_returned
                .fetch_add(sink.rows, std::sync::atomic::Ordering::Relaxed);
        }
        if let Some(reason) = stopped {
            metrics.stopped(reason);
        }
        if own_transaction && self.state == TransactionState::Idle {
            let ended = match result.is_ok() {
                true => &metrics.commits,
                false => &metrics.rollbacks,
            };
            ended.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        if let Err(error) = &result
            && matches!(error.kind, ErrorKind::SqlState(state) if state == SqlState::DEADLOCK_DETECTED)
        {
            metrics
                .deadlocks
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
        result
    }

    /// `pg_stat_statements` counts a statement that completed, having run for
    /// `took`, with `rows`.
    pub(super) fn count_statement(
        &self,
        fingerprint: &Arc<Fingerprint>,
        took: Duration,
        rows: u64,
    ) {
        let identity = &self.identity;
        self.engine.shared.statements.record(
            fingerprint,
            &identity.user,
            &identity.database,
            took,
            rows,
        );
    }

    /// When a statement starting now must stop: `statement_timeout` from now, or
    /// the session's time limit, whichever comes first.
    pub(super) fn deadline(&self) -> Option<Instant> {
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

    pub(super) async fn execute_statement<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        match stmt.action {
            Action::Commit | Action::Rollback if stmt.plan == Plan::Chain => {
                self.chain(stmt.action).await?.send_to(sink).await
            }
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
    /// query string: outside a transaction block, statements run inside an
    /// implicit one, so a failure leaves none of their writes behind. Stops at
    /// the first error; a failed implicit COMMIT is one more error after the
    /// last statement.
    ///
    /// Transaction control inside the string follows PostgreSQL: `BEGIN`
    /// turns the implicit block into an explicit one that outlives the string
    /// (what ran before it included); `COMMIT` and `ROLLBACK` end the implicit
    /// block (committed, or undone) and the statements after them start
    /// another; `AND CHAIN` and savepoints there are 25P01.
    ///
    /// With [`Blocks::WholeBatch`] (the HTTP front ends, SQLite's meaning) a
    /// batch that controls transactions itself runs each statement on its
    /// own, and any other in one implicit transaction.
    pub async fn execute_batch_into<S: ResultSink>(
        &mut self,
        batch: &[(Statement, Vec<Value>)],
        blocks: Blocks,
        sink: &mut S,
    ) {
        // TEMP objects the batch makes must be there for its other statements.
        if batch.iter().any(|(stmt, _)| stmt.creates_temp) {
            self.local = true;
        }
        let several = batch.len() > 1
            && (blocks == Blocks::Postgres
                || batch
                    .iter()
                    .all(|(stmt, _)| !stmt.action.controls_transaction()));
        let mut implicit = false;
        for (i, (stmt, params)) in batch.iter().enumerate() {
            let controls = stmt.action.controls_transaction();
            if several && !implicit && !controls && self.state == TransactionState::Idle {
                // The block runs to the next transaction control.
                let writes = batch[i..]
                    .iter()
                    .take_while(|(stmt, _)| !stmt.action.controls_transaction())
                    .any(|(stmt, _)| stmt.writes());
                if let Err(error) = self.begin_transaction(writes).await {
                    // The statement is the one that could not start.
                    if sink.begin_statement().is_ok() {
                        sink.error(&error);
                    }
                    return;
                }
                implicit = true;
            }
            if implicit && controls {
                match implicit_control(stmt) {
                    // The block goes on as an explicit one, or ends with the
                    // statement.
                    Ok(()) => implicit = false,
                    Err(error) => {
                        if sink.begin_statement().is_ok() {
                            sink.error(&error);
                        }
                        self.rollback_batch().await;
                        return;
                    }
                }
            }
            if self.execute_into(stmt, params, sink).await.is_err() {
                if implicit {
                    self.rollback_batch().await;
                }
                return;
            }
        }
        if implicit && let Err(error) = self.commit().await {
            sink.error(&error);
        }
    }

    /// Undoes a failed string's implicit transaction block.
    async fn rollback_batch(&mut self) {
        if let Err(error) = self.rollback().await {
            tracing::warn!(%error, "rollback of a failed batch");
        }
    }

    pub(super) async fn run_in_transaction<S: ResultSink>(
        &mut self,
        stmt: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        match (self.state, stmt.action) {
            (TransactionState::Failed, Action::RollbackTo) => {}
            (TransactionState::Failed, _) => return Err(transaction_aborted()),
            (TransactionState::Idle, Action::Savepoint | Action::Release | Action::RollbackTo) => {
                return implicit_control(stmt);
            }
            (_, Action::WriteFile) if !self.engine.allow_attach => {
                return Err(Error::new(
                    ErrorKind::InsufficientPrivilege,
                    "ATTACH and VACUUM INTO are disabled on this server (see --allow-attach)",
                ));
            }
            _ => {}
        }
        self.begin_work(stmt).await?;
        let result = self.run(stmt, params, sink).await;
        match (&result, self.state) {
            (Err(_), TransactionState::Active) if !self.errors_keep_transaction => {
                self.state = TransactionState::Failed;
                Box::pin(self.abort_failed_transaction()).await;
            }
            (Ok(_), TransactionState::Failed) => self.state = TransactionState::Active,
            _ => {}
        }
        if result.is_ok() {
            self.track_savepoint(stmt);
        }
        result
    }
}

/// Where a batch's implicit transaction blocks begin and end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blocks {
    /// PostgreSQL's rules for a query string's transaction control.
    Postgres,
    /// One block for a whole batch that does not control transactions.
    WholeBatch,
}

/// Whether transaction control may end or extend an implicit transaction
/// block: `BEGIN`, `COMMIT` and `ROLLBACK` may; PostgreSQL refuses a chain
/// or a savepoint there (25P01).
fn implicit_control(stmt: &Statement) -> Result<(), Error> {
    let refused = |what: &str| {
        Err(Error::new(
            ErrorKind::NoActiveTransaction,
            format!("{what} can only be used in transaction blocks"),
        ))
    };
    match stmt.action {
        Action::Commit if stmt.plan == Plan::Chain => refused("COMMIT AND CHAIN"),
        Action::Rollback if stmt.plan == Plan::Chain => refused("ROLLBACK AND CHAIN"),
        Action::Savepoint => refused("SAVEPOINT"),
        Action::Release => refused("RELEASE SAVEPOINT"),
        Action::RollbackTo => refused("ROLLBACK TO SAVEPOINT"),
        _ => Ok(()),
    }
}

/// The literals a statement read with them as parameters runs with, when the
/// client bound none.
fn literal_values(stmt: &Statement, params: &[Value]) -> Option<Vec<Value>> {
    match (&stmt.literals, params.is_empty()) {
        (Some(literals), true) => Some(literals.iter().map(|n| Value::Integer(*n)).collect()),
        _ => None,
    }
}

/// A sink that notes how many rows its statement returned or changed, for
/// `pg_stat_statements` and the rows metric.
pub(super) struct Counted<'s, S> {
    sink: &'s mut S,
    /// As the statement's completion says.
    pub(super) rows: u64,
    /// Rows handed on (a portal's batch ends without a completion).
    pub(super) streamed: u64,
}

impl<'s, S> Counted<'s, S> {
    pub(super) fn new(sink: &'s mut S) -> Self {
        Counted {
            sink,
            rows: 0,
            streamed: 0,
        }
    }

    pub(super) fn into_inner(self) -> &'s mut S {
        self.sink
    }
}

impl<S: ResultSink> ResultSink for Counted<'_, S> {
    fn begin_statement(&mut self) -> Result<(), Error> {
        self.sink.begin_statement()
    }

    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        self.sink.columns(columns)
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        self.streamed += 1;
        self.sink.row(row)
    }

    fn wants_flush(&self) -> bool {
        self.sink.wants_flush()
    }

    fn flush(&mut self) -> impl Future<Output = Result<(), Error>> + Send {
        self.sink.flush()
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        self.rows = completion.rows_affected;
        self.sink.finish_statement(completion)
    }

    fn error(&mut self, error: &Error) {
        self.sink.error(error);
    }
}
