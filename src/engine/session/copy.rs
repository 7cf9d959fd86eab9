//! COPY: `FROM STDIN` rows streamed in by a front end and inserted in batches, and
//! `TO STDOUT` rows of a query handed to the front end to write out.
//!
//! A COPY FROM runs in one transaction (its own, or a savepoint inside the client's), so
//! a malformed row or a client that gives up leaves nothing behind. Rows go in
//! through one multi-row INSERT prepared once, so each round trip to SQLite's
//! thread carries a whole batch, not one row.

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use super::state::Session;
use crate::engine::declared_columns::DeclaredColumns;
use crate::engine::direct::Query;
use crate::engine::result::{Column, Completion, Discard, QueryResult, ResultSink};
use crate::engine::schema::SessionCatalog;
use crate::engine::value::Value;
use crate::error::{Error, ErrorKind};
use crate::sql::CommandKind;
use crate::sql::partitions::CopyTarget;
use crate::sql::quote::identifier;
use crate::sql::{self, CopyFrom, CopyTo, Fingerprint, ForceQuote};

/// Bound variables per INSERT stay well under SQLite's limit (32766).
const MAX_VARIABLES: usize = 8192;
const MAX_BATCH_ROWS: usize = 256;

/// An open COPY: target columns, the batch being filled, rows so far.
pub struct CopyIn {
    columns: Arc<Vec<Column>>,
    table: String,
    column_list: String,
    batch_rows: usize,
    full_batch_sql: Arc<str>,
    /// A partition's rows go to its root (see `sql::partitions`).
    partition: Option<CopyTarget>,
    pending: Vec<Value>,
    rows: u64,
    /// The COPY started the transaction (and so commits it), rather than a
    /// savepoint inside the client's.
    own_transaction: bool,
    /// What `pg_stat_statements` counts it under, and when it began.
    counted: Option<(Arc<Fingerprint>, Instant)>,
}

impl CopyIn {
    /// The target columns, with their declared types, in the order values come.
    pub fn columns(&self) -> &[Column] {
        &self.columns
    }
}

impl Session {
    /// Starts a COPY into `spec.table`. A COPY that cannot start inside a
    /// transaction fails the transaction, as any failed statement does.
    pub async fn copy_begin(
        &mut self,
        spec: &CopyFrom,
        fingerprint: Option<&Arc<Fingerprint>>,
    ) -> Result<CopyIn, Error> {
        let began = Instant::now();
        let started = self.open_copy(spec).await;
        match started {
            Ok(mut copy) => {
                copy.counted = fingerprint
                    .filter(|_| self.engine.shared.statements.counts())
                    .map(|fingerprint| (fingerprint.clone(), began));
                Ok(copy)
            }
            Err(error) => {
                self.fail_transaction();
                self.engine
                    .shared
                    .metrics
                    .statement(CommandKind::Copy, true);
                Err(error)
            }
        }
    }

    async fn open_copy(&mut self, spec: &CopyFrom) -> Result<CopyIn, Error> {
        let column_list = if spec.columns.is_empty() {
            "*".to_owned()
        } else {
            spec.columns.join(", ")
        };
        let probe =
            sql::parse_single(&format!("SELECT {column_list} FROM {} LIMIT 0", spec.table))?
                .ok_or_else(|| Error::invalid("COPY needs a table"))?;
        let columns = self.describe(&probe).await?;
        if columns.is_empty() {
            return Err(Error::invalid("COPY target has no columns"));
        }
        let column_list = columns
            .iter()
            .map(|c| identifier(&c.name))
            .collect::<Vec<_>>()
            .join(", ");
        let batch_rows = (MAX_VARIABLES / columns.len()).clamp(1, MAX_BATCH_ROWS);
        // A partition's rows are its root's (see `sql::partitions`).
        let schema = self.schema().await?;
        let catalog = SessionCatalog::new(&schema, || self.search_path());
        let partition = sql::partitions::copy_target(&catalog, &spec.table);
        let own_transaction = self.begin_copy_transaction().await?;
        Ok(CopyIn {
            full_batch_sql: insert_sql(
                partition.as_ref(),
                &spec.table,
                &column_list,
                columns.len(),
                batch_rows,
            )
            .into(),
            partition,
            table: spec.table.clone(),
            column_list,
            batch_rows,
            pending: Vec::with_capacity(batch_rows * columns.len()),
            columns,
            rows: 0,
            own_transaction,
            counted: None,
        })
    }

    /// Adds one row (as many values as there are columns), inserting full batches.
    pub async fn copy_row(&mut self, copy: &mut CopyIn, row: Vec<Value>) -> Result<(), Error> {
        if row.len() != copy.columns.len() {
            return Err(Error::new(
                ErrorKind::BadCopyData,
                format!(
                    "row {} has {} values; the COPY expects {}",
                    copy.rows + 1,
                    row.len(),
                    copy.columns.len()
                ),
            ));
        }
        copy.pending.extend(row);
        copy.rows += 1;
        if copy.pending.len() == copy.batch_rows * copy.columns.len() {
            let sql = copy.full_batch_sql.clone();
            self.copy_flush(copy, sql, true).await?;
        }
        Ok(())
    }

    /// Inserts what is left and commits the COPY: `COPY n`.
    pub async fn copy_end(&mut self, mut copy: CopyIn) -> Result<QueryResult, Error> {
        let rows = copy.pending.len() / copy.columns.len();
        if rows > 0 {
            let sql = insert_sql(
                copy.partition.as_ref(),
                &copy.table,
                &copy.column_list,
                copy.columns.len(),
                rows,
            )
            .into();
            if let Err(error) = self.copy_flush(&mut copy, sql, false).await {
                self.copy_abort(copy).await;
                return Err(error);
            }
        }
        let ended = self.end_copy_transaction(copy.own_transaction, true).await;
        self.engine
            .shared
            .metrics
            .statement(CommandKind::Copy, ended.is_err());
        ended?;
        if let Some((fingerprint, began)) = &copy.counted {
            self.count_statement(fingerprint, began.elapsed(), copy.rows);
        }
        let mut result = QueryResult::empty(CommandKind::Copy);
        result.rows_affected = copy.rows;
        Ok(result)
    }

    /// Undoes the whole COPY (malformed data, CopyFail, or a lost client).
    pub async fn copy_abort(&mut self, copy: CopyIn) {
        self.engine
            .shared
            .metrics
            .statement(CommandKind::Copy, true);
        if let Err(error) = self.end_copy_transaction(copy.own_transaction, false).await {
            tracing::warn!(%error, "rolling back a COPY failed");
        }
    }

    async fn copy_flush(
        &mut self,
        copy: &mut CopyIn,
        sql: Arc<str>,
        persistent: bool,
    ) -> Result<(), Error> {
        let values: Vec<Value> = copy.pending.drain(..).collect();
        self.run_direct(
            Query {
                sql: &sql,
                params: &values,
                kind: CommandKind::Insert,
                returns_rows: false,
                parameters: persistent,
            },
            &mut Discard,
        )
        .await
    }
}

impl Session {
    /// Runs the query of `COPY ... TO STDOUT`, handing its rows to `sink` as they come,
    /// tagged `COPY n`. The session runs it like any statement (inside the client's
    /// transaction, if one is open), so a failing query fails that transaction.
    pub(super) async fn copy_to<S: ResultSink>(
        &mut self,
        spec: &CopyTo,
        params: &[Value],
        sink: &mut S,
    ) -> Result<(), Error> {
        let query = &spec.query;
        let mut copy = CopyRows {
            force_quote: &spec.options.force_quote,
            sink,
        };
        let run = Query {
            sql: &query.sql,
            params,
            kind: query.kind,
            returns_rows: true,
            parameters: !params.is_empty(),
        };
        // The query's columns typed as its reading typed them (booleans as
        // `t`/`f`, ...), as for the same query on its own.
        match &query.column_types {
            Some(types) => {
                let mut typed = DeclaredColumns::new(&mut copy, types);
                self.run_direct(run, &mut typed).await
            }
            None => self.run_direct(run, &mut copy).await,
        }
    }
}

/// The rows of a COPY TO's query, on their way to the front end's sink: the
/// columns checked against FORCE_QUOTE, the statement tagged `COPY n`.
struct CopyRows<'a, S> {
    force_quote: &'a ForceQuote,
    sink: &'a mut S,
}

impl<S: ResultSink> ResultSink for CopyRows<'_, S> {
    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        check_force_quote(self.force_quote, columns)?;
        self.sink.columns(columns)
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        self.sink.row(row)
    }

    fn wants_flush(&self) -> bool {
        self.sink.wants_flush()
    }

    fn flush(&mut self) -> impl Future<Output = Result<(), Error>> + Send {
        self.sink.flush()
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        self.sink.finish_statement(Completion {
            kind: CommandKind::Copy,
            last_insert_rowid: None,
            ..completion
        })
    }
}

/// FORCE_QUOTE may only name columns the COPY writes.
fn check_force_quote(force: &ForceQuote, columns: &[Column]) -> Result<(), Error> {
    let ForceQuote::Columns(names) = force else {
        return Ok(());
    };
    match names
        .iter()
        .find(|name| !columns.iter().any(|c| c.name.eq_ignore_ascii_case(name)))
    {
        Some(name) => Err(Error::new(
            ErrorKind::Syntax,
            format!("FORCE_QUOTE column \"{name}\" not referenced by COPY"),
        )),
        None => Ok(()),
    }
}

fn insert_sql(
    partition: Option<&CopyTarget>,
    table: &str,
    column_list: &str,
    columns: usize,
    rows: usize,
) -> String {
    if let Some(partition) = partition {
        return partition.insert(column_list, columns, rows);
    }
    let row = format!("({})", vec!["?"; columns].join(","));
    format!(
        "INSERT INTO {table} ({column_list}) VALUES {}",
        vec![row; rows].join(",")
    )
}
