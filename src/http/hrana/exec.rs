//! Running Hrana requests on a stream's engine session: `execute`, `batch` (with
//! step conditions), `sequence`, `describe`, stored SQL and `get_autocommit`.
//!
//! A stream is one engine [`Session`], so a transaction opened by one request is
//! still open for the next. The session follows SQLite's rule for errors inside
//! a transaction (the failed statement alone is undone), which is what libsql
//! clients expect, not PostgreSQL's.

use std::collections::HashMap;
use std::time::Instant;

use serde::Serialize;

use super::super::budget::{Bounded, Budget};
use super::super::limits::RequestLimits;
use super::batch_progress::BatchProgress;
use super::errors;
use super::proto::{
    self, Batch, BatchOutcome, DescribeOutcome, DescribeParam, HranaError, HranaValue, NamedArg,
    Stmt, StmtOutcome, StreamRequest,
};
use crate::engine::{Discard, QueryResult, ResultSink, Session, TransactionState, Value};
use crate::sql::{self, Action, CommandKind, Plan, Statement};

/// What a stream holds between requests: its session and its stored SQL.
pub struct StreamState {
    session: Session,
    stored: HashMap<i32, String>,
    max_stored: usize,
}

/// The answer to one request of a pipeline (`close` is the caller's).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamResponse {
    Close,
    Execute { result: StmtOutcome },
    Batch { result: BatchOutcome },
    Sequence,
    Describe { result: DescribeOutcome },
    StoreSql,
    CloseSql,
    GetAutocommit { is_autocommit: bool },
}

impl StreamState {
    pub fn new(mut session: Session, max_stored: usize) -> Self {
        session.keep_transaction_on_error();
        StreamState {
            session,
            stored: HashMap::new(),
            max_stored,
        }
    }

    /// Whether another session ended this one (`pg_terminate_backend()`).
    pub fn terminated(&self) -> bool {
        self.session.control().terminated().is_some()
    }

    /// Ends the stream: an open transaction is rolled back.
    pub async fn close(self) {
        self.session.close().await;
    }

    /// Answers one request other than `close`.
    pub async fn handle(
        &mut self,
        request: StreamRequest,
        budget: &mut Budget,
    ) -> Result<StreamResponse, HranaError> {
        match request {
            StreamRequest::Close => Ok(StreamResponse::Close),
            StreamRequest::Execute { stmt } => self
                .execute(stmt, budget)
                .await
                .map(|result| StreamResponse::Execute { result }),
            StreamRequest::Batch { batch } => Ok(StreamResponse::Batch {
                result: self.batch(batch, budget).await,
            }),
            StreamRequest::Sequence { sql, sql_id } => {
                let sql = self.sql_text(sql, sql_id)?;
                self.sequence(&sql).await.map(|()| StreamResponse::Sequence)
            }
            StreamRequest::Describe { sql, sql_id } => {
                let sql = self.sql_text(sql, sql_id)?;
                self.describe(&sql)
                    .await
                    .map(|result| StreamResponse::Describe { result })
            }
            StreamRequest::StoreSql { sql_id, sql } => self
                .store_sql(sql_id, sql)
                .map(|()| StreamResponse::StoreSql),
            StreamRequest::CloseSql { sql_id } => {
                self.stored.remove(&sql_id);
                Ok(StreamResponse::CloseSql)
            }
            StreamRequest::GetAutocommit => Ok(StreamResponse::GetAutocommit {
                is_autocommit: self.is_autocommit(),
            }),
        }
    }

    pub fn is_autocommit(&self) -> bool {
        self.session.transaction_state() == TransactionState::Idle
    }

    /// Bounds the stream's statements by the request that has it now.
    pub fn serve(&mut self, limits: &RequestLimits) {
        limits.apply(&mut self.session);
    }

    /// Between requests: no deadline, no client watched.
    pub fn idle(&mut self) {
        RequestLimits::release(&mut self.session);
    }

    /// Runs one statement; its rows count against the answer's `budget`.
    pub async fn execute(
        &mut self,
        stmt: Stmt,
        budget: &mut Budget,
    ) -> Result<StmtOutcome, HranaError> {
        let want_rows = stmt.want_rows;
        let mut result = Bounded::new(
            QueryResult::empty(CommandKind::Select),
            budget,
            proto::encoded_size,
        );
        let duration_ms = self.execute_into(stmt, &mut result).await?;
        Ok(StmtOutcome {
            result: result.inner,
            want_rows,
            duration_ms,
        })
    }

    /// Runs one statement, handing its rows to `sink` as SQLite produces them;
    /// returns how long it took, in milliseconds.
    pub async fn execute_into<S: ResultSink>(
        &mut self,
        stmt: Stmt,
        sink: &mut S,
    ) -> Result<f64, HranaError> {
        let sql = self.sql_text(stmt.sql, stmt.sql_id)?;
        let statement = prepare(&sql)?;
        let params = bind(&statement, stmt.args, stmt.named_args)?;
        let started = Instant::now();
        self.run(&statement, &params, sink).await?;
        Ok(started.elapsed().as_secs_f64() * 1000.0)
    }

    /// Runs a batch's steps in order, each when its condition holds.
    pub async fn batch(&mut self, batch: Batch, budget: &mut Budget) -> BatchOutcome {
        let mut progress = BatchProgress::default();
        let mut steps = Vec::with_capacity(batch.steps.len());
        for step in batch.steps {
            if !progress.should_run(step.condition.as_ref(), self.is_autocommit()) {
                progress.skipped();
                steps.push(None);
                continue;
            }
            let outcome = self.execute(step.stmt, budget).await;
            progress.ran(outcome.is_ok());
            steps.push(Some(outcome));
        }
        BatchOutcome { steps }
    }

    /// Runs every statement of `sql` in turn, stopping at the first error.
    async fn sequence(&mut self, sql: &str) -> Result<(), HranaError> {
        let statements = sql::parse_batch(sql).map_err(errors::from_engine)?;
        for statement in statements {
            check_runnable(&statement)?;
            // Parameters nobody can bind here are NULL, as in SQLite.
            let params = vec![Value::Null; statement.param_count];
            self.run(&statement, &params, &mut Discard).await?;
        }
        Ok(())
    }

    async fn describe(&mut self, sql: &str) -> Result<DescribeOutcome, HranaError> {
        let statement = prepare(sql)?;
        let cols = self
            .session
            .describe(&statement)
            .await
            .map_err(errors::from_engine)?;
        let params = sql::parameter_names(&statement.sql)
            .into_iter()
            .map(|name| DescribeParam { name })
            .collect();
        Ok(DescribeOutcome {
            params,
            cols,
            is_explain: statement
                .sql
                .get(..7)
                .is_some_and(|w| w.eq_ignore_ascii_case("EXPLAIN")),
            is_readonly: !statement.writes(),
        })
    }

    fn store_sql(&mut self, sql_id: i32, sql: String) -> Result<(), HranaError> {
        if self.stored.contains_key(&sql_id) {
            return Err(HranaError::new(
                "SQL_EXISTS",
                format!("SQL text {sql_id} is already stored on this stream"),
            ));
        }
        if self.stored.len() >= self.max_stored {
            return Err(HranaError::new(
                "SQL_STORE_FULL",
                format!(
                    "a stream stores at most {} SQL texts (see --hrana-max-stored-sql): close \
                     some with close_sql",
                    self.max_stored
                ),
            ));
        }
        self.stored.insert(sql_id, sql);
        Ok(())
    }

    /// The statement's SQL: given inline, or stored earlier on the stream.
    fn sql_text(&self, sql: Option<String>, sql_id: Option<i32>) -> Result<String, HranaError> {
        match (sql, sql_id) {
            (Some(sql), None) => Ok(sql),
            (None, Some(id)) => self.stored.get(&id).cloned().ok_or_else(|| {
                HranaError::new(
                    "SQL_NOT_FOUND",
                    format!("no SQL text is stored with id {id} on this stream"),
                )
            }),
            (Some(_), Some(_)) => Err(HranaError::new(
                "PROTO_ERROR",
                "a statement has either \"sql\" or \"sql_id\", not both",
            )),
            (None, None) => Err(HranaError::new(
                "PROTO_ERROR",
                "a statement needs \"sql\" or \"sql_id\"",
            )),
        }
    }

    /// Runs a prepared statement; libsql's `BEGIN TRANSACTION READONLY` opens a
    /// read-only transaction.
    async fn run<S: ResultSink>(
        &mut self,
        statement: &Statement,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), HranaError> {
        self.session.report_query(&statement.sql);
        let result = if is_read_only_begin(statement) {
            match self.session.begin_read_only().await {
                Ok(begun) => begun.send_to(sink).await,
                Err(error) => Err(error),
            }
        } else {
            self.session.execute_into(statement, params, sink).await
        };
        result.map_err(errors::from_engine)
    }
}

/// Parses one statement of SQLite SQL.
fn prepare(sql: &str) -> Result<Statement, HranaError> {
    let mut statements = sql::parse_batch(sql).map_err(errors::from_engine)?;
    if statements.len() > 1 {
        return Err(HranaError::new(
            "SQL_MANY_STATEMENTS",
            "the SQL text holds several statements: send them as a batch or a sequence",
        ));
    }
    let statement = statements
        .pop()
        .ok_or_else(|| HranaError::new("SQL_NO_STATEMENT", "the SQL text holds no statement"))?;
    check_runnable(&statement)?;
    Ok(statement)
}

fn check_runnable(statement: &Statement) -> Result<(), HranaError> {
    match statement.plan {
        Plan::CopyFrom(_) | Plan::CopyTo(_) => Err(HranaError::new(
            "SQL_UNSUPPORTED",
            "COPY needs the PostgreSQL protocol's copy mode",
        )),
        _ => Ok(()),
    }
}

/// `BEGIN TRANSACTION READONLY`, which `@libsql/client` sends for read
/// transactions and batches.
fn is_read_only_begin(statement: &Statement) -> bool {
    statement.action == Action::Begin
        && statement
            .sql
            .split_ascii_whitespace()
            .any(|word| word.eq_ignore_ascii_case("READONLY"))
}

/// The values for `?1..?N`: positional arguments in order, named ones by name
/// (with or without their `:`, `@` or `$`); parameters given no value are NULL,
/// as in SQLite.
fn bind(
    statement: &Statement,
    args: Vec<HranaValue>,
    named_args: Vec<NamedArg>,
) -> Result<Vec<Value>, HranaError> {
    let count = statement.param_count;
    if args.len() > count {
        return Err(HranaError::new(
            "ARGS_INVALID",
            format!(
                "{} arguments were given to a statement that takes {count}",
                args.len()
            ),
        ));
    }
    let mut values: Vec<Value> = args.into_iter().map(|arg| arg.0).collect();
    values.resize(count, Value::Null);
    if named_args.is_empty() {
        return Ok(values);
    }
    let names = sql::parameter_names(&statement.sql);
    for arg in named_args {
        let position = names.iter().position(|name| {
            name.as_deref()
                .is_some_and(|name| name == arg.name || name.get(1..) == Some(arg.name.as_str()))
        });
        match position.and_then(|i| values.get_mut(i)) {
            Some(slot) => *slot = arg.value.0,
            None => {
                return Err(HranaError::new(
                    "ARGS_INVALID",
                    format!("the statement has no parameter named \"{}\"", arg.name),
                ));
            }
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statement(sql: &str) -> Statement {
        prepare(sql).unwrap()
    }

    fn named(name: &str, value: Value) -> NamedArg {
        NamedArg {
            name: name.to_owned(),
            value: HranaValue(value),
        }
    }

    #[test]
    fn binds_positional_and_named_arguments() {
        let stmt = statement("select ?, :a, @b");
        let values = bind(
            &stmt,
            vec![HranaValue(Value::Integer(1))],
            vec![
                named(":a", Value::Integer(2)),
                named("b", Value::Integer(3)),
            ],
        )
        .unwrap();
        assert_eq!(
            values,
            vec![Value::Integer(1), Value::Integer(2), Value::Integer(3)]
        );
        // Unbound parameters are NULL.
        assert_eq!(bind(&stmt, vec![], vec![]).unwrap(), vec![Value::Null; 3]);
        assert!(bind(&stmt, vec![], vec![named("c", Value::Null)]).is_err());
        assert!(
            bind(
                &statement("select 1"),
                vec![HranaValue(Value::Null)],
                vec![]
            )
            .is_err()
        );
    }

    #[test]
    fn one_statement_per_execute() {
        assert_eq!(prepare("").unwrap_err().code, "SQL_NO_STATEMENT");
        assert_eq!(
            prepare("select 1; select 2").unwrap_err().code,
            "SQL_MANY_STATEMENTS"
        );
        assert!(is_read_only_begin(&statement("BEGIN TRANSACTION READONLY")));
        assert!(!is_read_only_begin(&statement("BEGIN IMMEDIATE")));
    }
}
