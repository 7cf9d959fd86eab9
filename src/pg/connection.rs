//! One PostgreSQL client connection: its session, prepared statements and portals,
//! and the simple and extended query protocols on top of them.
//!
//! Replies are fed into the connection's write buffer and flushed once, at
//! ReadyForQuery (simple protocol) or Sync/Flush (extended protocol): a flush per
//! message would cost a segment per message and, with delayed ACKs, 40 ms stalls.

use std::collections::HashMap;
use std::fmt::Debug;
use std::iter;
use std::sync::{Arc, OnceLock};

use async_trait::async_trait;
use futures::{Sink, SinkExt};
use pgwire::api::portal::Portal as PgPortal;
use pgwire::api::query::{ExtendedQueryHandler, SimpleQueryHandler};
use pgwire::api::results::{
    DescribePortalResponse, DescribeStatementResponse, FieldInfo, Response,
};
use pgwire::api::stmt::{QueryParser, StoredStatement};
use pgwire::api::store::PortalStore;
use pgwire::api::{ClientInfo, ClientPortalStore, PgWireConnectionState, Type};
use pgwire::error::{PgWireError, PgWireResult};
use pgwire::messages::PgWireBackendMessage;
use pgwire::messages::copy::CopyInResponse;
use pgwire::messages::data::{NoData, ParameterDescription};
use pgwire::messages::extendedquery::{
    Bind, BindComplete, Close, CloseComplete, Describe, Execute, Flush, Parse, ParseComplete,
    PortalSuspended, Sync as PgSync, TARGET_TYPE_BYTE_PORTAL, TARGET_TYPE_BYTE_STATEMENT,
};
use pgwire::messages::response::{EmptyQueryResponse, ReadyForQuery, TransactionStatus};
use pgwire::messages::simplequery::Query;
use pgwire::messages::startup::ParameterStatus;
use tokio::sync::Mutex;

use super::copy::CopyDecoder;
use super::copy_out;
use super::encode::{RowShape, command_tag};
use super::errors::{error_info, to_pgwire};
use super::params;
use crate::engine::{
    Column, CopyIn, EngineError, ErrorKind, QueryResult, Session, TransactionState, Value,
};
use crate::sql::{self, CopyFrom, Plan, SessionCommand, Statement};

/// A statement prepared with Parse.
struct Prepared {
    /// `None` for the empty query.
    statement: Option<Statement>,
    /// Parameter types as the client declared them (`UNKNOWN` where it sent 0).
    param_types: Vec<Type>,
    /// Every parameter's type as Describe announced it: the client's where it
    /// gave one, else inferred from the statement. Bind decodes by these.
    described_params: OnceLock<Vec<Type>>,
    /// Result columns as announced by Describe: rows are then encoded with exactly
    /// these types, whatever the values turn out to be.
    described: OnceLock<Arc<Vec<Column>>>,
}

/// A portal made by Bind: a statement with its parameters and, once executed with
/// a row limit, the rows not sent yet.
struct Portal {
    prepared: Arc<Prepared>,
    params: Vec<Value>,
    result_formats: Vec<i16>,
    progress: Progress,
}

/// How far a portal's execution has got.
enum Progress {
    NotRun,
    /// Executed with a row limit: the rows after `sent` are still to come.
    Suspended {
        result: QueryResult,
        sent: usize,
    },
    /// Every row was sent; executing again sends none.
    Done(QueryResult),
}

struct State {
    session: Session,
    /// Whether the session knows the client's startup parameters yet.
    identified: bool,
    statements: HashMap<String, Arc<Prepared>>,
    portals: HashMap<String, Portal>,
    /// A `COPY ... FROM STDIN` waiting for its data.
    copy: Option<CopyState>,
}

struct CopyState {
    sink: CopyIn,
    decoder: CopyDecoder,
}

impl CopyState {
    /// Inserts the rows one decoding step produced.
    async fn insert(
        &mut self,
        session: &mut Session,
        rows: Result<Vec<Vec<Value>>, EngineError>,
    ) -> Result<(), EngineError> {
        for row in rows? {
            session.copy_row(&mut self.sink, row).await?;
        }
        Ok(())
    }
}

/// Everything one client connection owns.
pub struct PgConnection {
    state: Mutex<State>,
}

impl PgConnection {
    pub fn new(session: Session) -> Self {
        PgConnection {
            state: Mutex::new(State {
                session,
                identified: false,
                statements: HashMap::new(),
                portals: HashMap::new(),
                copy: None,
            }),
        }
    }

    /// Resolves once no message is being processed.
    pub async fn idle(&self) {
        drop(self.state.lock().await);
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

    /// Starts `COPY ... FROM STDIN`: answers CopyInResponse and waits for data.
    async fn start_copy<C>(
        &self,
        client: &mut C,
        state: &mut State,
        spec: &CopyFrom,
        extended: bool,
    ) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin,
        PgWireError: From<C::Error>,
    {
        let sink = state
            .session
            .copy_begin(spec)
            .await
            .map_err(|e| to_pgwire(&e))?;
        let decoder = CopyDecoder::new(spec, sink.columns());
        let columns = sink.columns().len() as i16;
        state.copy = Some(CopyState { sink, decoder });
        client.set_state(PgWireConnectionState::CopyInProgress(extended));
        let response = CopyInResponse::new(0, columns, vec![0; columns as usize]);
        client
            .send(PgWireBackendMessage::CopyInResponse(response))
            .await?;
        Ok(())
    }

    pub(super) async fn copy_data<C>(&self, client: &mut C, data: &[u8]) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin,
    {
        let mut guard = self.state.lock().await;
        let state = &mut *guard;
        let Some(copy) = state.copy.as_mut() else {
            return Ok(());
        };
        let rows = copy.decoder.push(data);
        if let Err(error) = copy.insert(&mut state.session, rows).await {
            self.fail_copy(client, state).await;
            return Err(to_pgwire(&error));
        }
        Ok(())
    }

    pub(super) async fn copy_done<C>(&self, client: &mut C) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin,
        PgWireError: From<C::Error>,
    {
        let mut guard = self.state.lock().await;
        let state = &mut *guard;
        let Some(mut copy) = state.copy.take() else {
            return Ok(());
        };
        let rows = copy.decoder.finish();
        let result = match copy.insert(&mut state.session, rows).await {
            Ok(()) => state.session.copy_end(copy.sink).await,
            Err(error) => {
                state.session.copy_abort(copy.sink).await;
                Err(error)
            }
        };
        client.set_transaction_status(transaction_status(&state.session));
        let result = result.map_err(|e| to_pgwire(&e))?;
        feed(client, command_tag(&result, 0)).await
    }

    pub(super) async fn copy_abort<C>(&self, client: &mut C)
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin,
    {
        let mut state = self.state.lock().await;
        self.fail_copy(client, &mut state).await;
    }

    async fn fail_copy<C>(&self, client: &mut C, state: &mut State)
    where
        C: ClientInfo,
    {
        if let Some(copy) = state.copy.take() {
            state.session.copy_abort(copy.sink).await;
        }
        client.set_transaction_status(transaction_status(&state.session));
    }
}

impl State {
    /// Gives the session the client's identity and startup settings, once.
    fn identify<C: ClientInfo>(&mut self, client: &C) {
        if !self.identified {
            let (identity, settings) = super::startup::session_start(client);
            self.session.identify(identity, settings);
            self.identified = true;
        }
    }

    /// What a statement leaves behind in the front end: `DEALLOCATE` and
    /// `DISCARD ALL` drop prepared statements (and portals).
    fn after(&mut self, statement: &Statement) {
        match &statement.plan {
            Plan::Session(SessionCommand::DiscardAll) => {
                self.statements.clear();
                self.portals.clear();
            }
            Plan::Session(SessionCommand::Deallocate(None)) => self.statements.clear(),
            Plan::Session(SessionCommand::Deallocate(Some(name))) => {
                self.statements.remove(name);
            }
            _ => {}
        }
    }
}

/// Sends ParameterStatus for each reported setting the session changed.
async fn report_settings<C>(client: &mut C, session: &mut Session) -> PgWireResult<()>
where
    C: Sink<PgWireBackendMessage> + Unpin,
    PgWireError: From<C::Error>,
{
    for (name, value) in session.take_setting_changes() {
        feed(
            client,
            PgWireBackendMessage::ParameterStatus(ParameterStatus::new(name, value)),
        )
        .await?;
    }
    Ok(())
}

fn transaction_status(session: &Session) -> TransactionStatus {
    match session.transaction_state() {
        TransactionState::Idle => TransactionStatus::Idle,
        TransactionState::Active => TransactionStatus::Transaction,
        TransactionState::Failed => TransactionStatus::Error,
    }
}

async fn feed<C>(client: &mut C, message: PgWireBackendMessage) -> PgWireResult<()>
where
    C: Sink<PgWireBackendMessage> + Unpin,
    PgWireError: From<C::Error>,
{
    client.feed(message).await.map_err(PgWireError::from)
}

/// Sends `rows` as DataRow messages.
async fn feed_rows<C>(client: &mut C, shape: &RowShape, rows: &[Vec<Value>]) -> PgWireResult<()>
where
    C: Sink<PgWireBackendMessage> + Unpin,
    PgWireError: From<C::Error>,
{
    for row in rows {
        let message = shape.data_row(row).map_err(|e| {
            PgWireError::UserError(Box::new(pgwire::error::ErrorInfo::new(
                "ERROR".to_owned(),
                e.sqlstate.to_owned(),
                e.message,
            )))
        })?;
        feed(client, message).await?;
    }
    Ok(())
}

#[async_trait]
impl SimpleQueryHandler for PgConnection {
    async fn on_query<C>(&self, client: &mut C, query: Query) -> PgWireResult<()>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        if !matches!(client.state(), PgWireConnectionState::ReadyForQuery) {
            return Err(PgWireError::NotReadyForQuery);
        }
        client.set_state(PgWireConnectionState::QueryInProgress);
        let mut state = self.state.lock().await;
        state.identify(client);
        match sql::parse_batch(&query.query) {
            Ok(statements) if statements.is_empty() => {
                feed(
                    client,
                    PgWireBackendMessage::EmptyQueryResponse(EmptyQueryResponse::new()),
                )
                .await?;
            }
            Ok(statements)
                if statements
                    .iter()
                    .any(|s| matches!(s.plan, Plan::CopyFrom(_))) =>
            {
                let started = match statements.as_slice() {
                    [
                        Statement {
                            plan: Plan::CopyFrom(spec),
                            ..
                        },
                    ] => self.start_copy(client, &mut state, spec, false).await,
                    _ => Err(to_pgwire(&EngineError::new(
                        ErrorKind::Unsupported,
                        "COPY FROM STDIN must be sent as a query of its own",
                    ))),
                };
                if started.is_err() {
                    // pgwire answers the error with ReadyForQuery from this state.
                    client.set_state(PgWireConnectionState::ReadyForQuery);
                    client.set_transaction_status(transaction_status(&state.session));
                }
                return started;
            }
            Ok(statements) => {
                let batch: Vec<(Statement, Vec<Value>)> =
                    statements.into_iter().map(|s| (s, Vec::new())).collect();
                let outcomes = state.session.execute_batch(&batch).await;
                // A failed implicit COMMIT adds an outcome after the last statement's.
                let statements = batch.iter().map(|(s, _)| Some(s));
                for (outcome, statement) in outcomes
                    .into_iter()
                    .zip(statements.chain(iter::repeat(None)))
                {
                    let sent = match (outcome, statement.map(|s| &s.plan)) {
                        (Ok(result), Some(Plan::CopyTo(spec))) => {
                            copy_out::send(client, spec, &result).await
                        }
                        (Ok(result), _) => {
                            if let Some(statement) = statement {
                                state.after(statement);
                            }
                            send_simple_result(client, &result).await
                        }
                        (Err(error), _) => Err(to_pgwire(&error)),
                    };
                    if let Err(error) = sent {
                        feed(
                            client,
                            PgWireBackendMessage::ErrorResponse(error_response(error)),
                        )
                        .await?;
                    }
                }
            }
            Err(error) => {
                feed(
                    client,
                    PgWireBackendMessage::ErrorResponse(error_info(&error).into()),
                )
                .await?;
            }
        }
        report_settings(client, &mut state.session).await?;
        let status = transaction_status(&state.session);
        client.set_transaction_status(status);
        client.set_state(PgWireConnectionState::ReadyForQuery);
        client
            .send(PgWireBackendMessage::ReadyForQuery(ReadyForQuery::new(
                status,
            )))
            .await?;
        Ok(())
    }

    async fn do_query<C>(&self, _client: &mut C, _query: &str) -> PgWireResult<Vec<Response>>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        // `on_query` above does all the work.
        Ok(Vec::new())
    }
}

fn error_response(error: PgWireError) -> pgwire::messages::response::ErrorResponse {
    let info: pgwire::error::ErrorInfo = error.into();
    info.into()
}

async fn send_simple_result<C>(client: &mut C, result: &QueryResult) -> PgWireResult<()>
where
    C: Sink<PgWireBackendMessage> + Unpin,
    PgWireError: From<C::Error>,
{
    if result.returns_rows() {
        let shape = RowShape::new(&result.columns, &[]);
        feed(client, shape.row_description(&result.columns)).await?;
        feed_rows(client, &shape, &result.rows).await?;
    }
    feed(client, command_tag(result, result.rows.len())).await
}

/// The unnamed statement or portal is the empty name.
fn name_of(name: &Option<String>) -> String {
    name.clone().unwrap_or_default()
}

#[async_trait]
impl ExtendedQueryHandler for PgConnection {
    type Statement = ();
    type QueryParser = NoParser;

    fn query_parser(&self) -> Arc<Self::QueryParser> {
        Arc::new(NoParser)
    }

    async fn on_parse<C>(&self, client: &mut C, message: Parse) -> PgWireResult<()>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore<Statement = Self::Statement>,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        self.state.lock().await.identify(client);
        let statement = sql::parse_single(&message.query).map_err(|e| to_pgwire(&e))?;
        let param_types = message
            .type_oids
            .iter()
            .map(|oid| Type::from_oid(*oid).unwrap_or(Type::UNKNOWN))
            .collect();
        let prepared = Arc::new(Prepared {
            statement,
            param_types,
            described_params: OnceLock::new(),
            described: OnceLock::new(),
        });
        self.state
            .lock()
            .await
            .statements
            .insert(name_of(&message.name), prepared);
        feed(
            client,
            PgWireBackendMessage::ParseComplete(ParseComplete::new()),
        )
        .await
    }

    async fn on_bind<C>(&self, client: &mut C, message: Bind) -> PgWireResult<()>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore<Statement = Self::Statement>,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        let mut state = self.state.lock().await;
        let statement_name = name_of(&message.statement_name);
        let prepared = state
            .statements
            .get(&statement_name)
            .cloned()
            .ok_or_else(|| PgWireError::StatementNotFound(statement_name.clone()))?;
        let params = bind_params(&prepared, &message).map_err(|e| to_pgwire(&e))?;
        let portal = Portal {
            prepared,
            params,
            result_formats: message.result_column_format_codes,
            progress: Progress::NotRun,
        };
        state.portals.insert(name_of(&message.portal_name), portal);
        feed(
            client,
            PgWireBackendMessage::BindComplete(BindComplete::new()),
        )
        .await
    }

    async fn on_describe<C>(&self, client: &mut C, message: Describe) -> PgWireResult<()>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore<Statement = Self::Statement>,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        let mut state = self.state.lock().await;
        let name = name_of(&message.name);
        let (prepared, formats) = match message.target_type {
            TARGET_TYPE_BYTE_STATEMENT => {
                let prepared = state
                    .statements
                    .get(&name)
                    .cloned()
                    .ok_or_else(|| PgWireError::StatementNotFound(name.clone()))?;
                let types = describe_params(&mut state.session, &prepared)
                    .await
                    .map_err(|e| to_pgwire(&e))?
                    .iter()
                    .map(Type::oid)
                    .collect();
                feed(
                    client,
                    PgWireBackendMessage::ParameterDescription(ParameterDescription::new(types)),
                )
                .await?;
                (prepared, Vec::new())
            }
            TARGET_TYPE_BYTE_PORTAL => {
                let portal = state
                    .portals
                    .get(&name)
                    .ok_or_else(|| PgWireError::PortalNotFound(name.clone()))?;
                (portal.prepared.clone(), portal.result_formats.clone())
            }
            other => return Err(PgWireError::InvalidTargetType(other)),
        };
        let columns = match prepared.described.get() {
            Some(columns) => columns.clone(),
            None => {
                let columns = match &prepared.statement {
                    Some(statement) => state
                        .session
                        .describe(statement)
                        .await
                        .map_err(|e| to_pgwire(&e))?,
                    None => Arc::new(Vec::new()),
                };
                let columns = typed_by_params(columns, &prepared.param_types);
                prepared.described.get_or_init(|| columns).clone()
            }
        };
        let message = if columns.is_empty() {
            PgWireBackendMessage::NoData(NoData::new())
        } else {
            RowShape::new(&columns, &formats).row_description(&columns)
        };
        feed(client, message).await
    }

    async fn on_execute<C>(&self, client: &mut C, message: Execute) -> PgWireResult<()>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore<Statement = Self::Statement>,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        let mut guard = self.state.lock().await;
        let state = &mut *guard;
        let name = name_of(&message.name);
        let portal = state
            .portals
            .get_mut(&name)
            .ok_or_else(|| PgWireError::PortalNotFound(name.clone()))?;
        let Some(statement) = portal.prepared.statement.clone() else {
            return feed(
                client,
                PgWireBackendMessage::EmptyQueryResponse(EmptyQueryResponse::new()),
            )
            .await;
        };
        if let Plan::CopyFrom(spec) = &statement.plan {
            let result = self.start_copy(client, state, spec, true).await;
            client.set_transaction_status(transaction_status(&state.session));
            return result;
        }
        if let Plan::CopyTo(spec) = &statement.plan {
            let result = state.session.execute(&statement, &portal.params).await;
            client.set_transaction_status(transaction_status(&state.session));
            return copy_out::send(client, spec, &result.map_err(|e| to_pgwire(&e))?).await;
        }
        let (result, sent) = match std::mem::replace(&mut portal.progress, Progress::NotRun) {
            Progress::NotRun => {
                let result = state.session.execute(&statement, &portal.params).await;
                client.set_transaction_status(transaction_status(&state.session));
                report_settings(client, &mut state.session).await?;
                (result.map_err(|e| to_pgwire(&e))?, 0)
            }
            Progress::Suspended { result, sent } => (result, sent),
            Progress::Done(result) => (result, usize::MAX),
        };
        send_portal_rows(client, portal, result, sent, message.max_rows).await?;
        state.after(&statement);
        Ok(())
    }

    async fn on_sync<C>(&self, client: &mut C, _message: PgSync) -> PgWireResult<()>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore<Statement = Self::Statement>,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        let mut state = self.state.lock().await;
        state.portals.remove("");
        let status = transaction_status(&state.session);
        client.set_transaction_status(status);
        client
            .send(PgWireBackendMessage::ReadyForQuery(ReadyForQuery::new(
                status,
            )))
            .await?;
        Ok(())
    }

    async fn on_flush<C>(&self, client: &mut C, _message: Flush) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        client.flush().await?;
        Ok(())
    }

    async fn on_close<C>(&self, client: &mut C, message: Close) -> PgWireResult<()>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore<Statement = Self::Statement>,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        let mut state = self.state.lock().await;
        let name = name_of(&message.name);
        match message.target_type {
            TARGET_TYPE_BYTE_STATEMENT => {
                state.statements.remove(&name);
            }
            TARGET_TYPE_BYTE_PORTAL => {
                state.portals.remove(&name);
            }
            _ => {}
        }
        feed(
            client,
            PgWireBackendMessage::CloseComplete(CloseComplete::new()),
        )
        .await
    }

    async fn do_query<C>(
        &self,
        _client: &mut C,
        _portal: &PgPortal<()>,
        _max_rows: usize,
    ) -> PgWireResult<Response>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore<Statement = Self::Statement>,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        Err(PgWireError::ApiError(
            "portals are executed by on_execute".into(),
        ))
    }

    async fn do_describe_statement<C>(
        &self,
        _client: &mut C,
        _target: &StoredStatement<()>,
    ) -> PgWireResult<DescribeStatementResponse>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore<Statement = Self::Statement>,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        Ok(DescribeStatementResponse::new(Vec::new(), Vec::new()))
    }

    async fn do_describe_portal<C>(
        &self,
        _client: &mut C,
        _target: &PgPortal<()>,
    ) -> PgWireResult<DescribePortalResponse>
    where
        C: ClientInfo + ClientPortalStore + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::PortalStore: PortalStore<Statement = Self::Statement>,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        Ok(DescribePortalResponse::new(Vec::new()))
    }
}

/// Sends the portal's rows from `sent` on, at most `max_rows` of them (0: all), and
/// either PortalSuspended (rows remain, kept in the portal) or CommandComplete.
async fn send_portal_rows<C>(
    client: &mut C,
    portal: &mut Portal,
    result: QueryResult,
    sent: usize,
    max_rows: i32,
) -> PgWireResult<()>
where
    C: Sink<PgWireBackendMessage> + Unpin,
    PgWireError: From<C::Error>,
{
    let from = sent.min(result.rows.len());
    let remaining = result.rows.len() - from;
    let count = usize::try_from(max_rows)
        .ok()
        .filter(|n| *n > 0)
        .map_or(remaining, |limit| limit.min(remaining));
    let columns = match portal.prepared.described.get() {
        Some(described) => described.clone(),
        None => typed_by_params(result.columns.clone(), &portal.prepared.param_types),
    };
    let shape = RowShape::new(&columns, &portal.result_formats);
    feed_rows(client, &shape, &result.rows[from..from + count]).await?;
    let to = from + count;
    if to < result.rows.len() {
        portal.progress = Progress::Suspended { result, sent: to };
        feed(
            client,
            PgWireBackendMessage::PortalSuspended(PortalSuspended::new()),
        )
        .await
    } else {
        feed(client, command_tag(&result, count)).await?;
        portal.progress = Progress::Done(result);
        Ok(())
    }
}

/// `SELECT $1`: SQLite knows nothing of a bare parameter's type, but the client
/// said what it sent, and PostgreSQL answers with that type (named `?column?`).
fn typed_by_params(columns: Arc<Vec<Column>>, param_types: &[Type]) -> Arc<Vec<Column>> {
    let param_of = |column: &Column| -> Option<&Type> {
        if column.decltype.is_some() {
            return None;
        }
        let n: usize = column.name.strip_prefix('?')?.parse().ok()?;
        param_types
            .get(n.checked_sub(1)?)
            .filter(|ty| **ty != Type::UNKNOWN)
    };
    if !columns.iter().any(|c| param_of(c).is_some()) {
        return columns;
    }
    let typed = columns
        .iter()
        .map(|column| match param_of(column) {
            Some(ty) => Column {
                name: "?column?".to_owned(),
                decltype: Some(Arc::from(ty.name())),
                storage: column.storage,
            },
            None => column.clone(),
        })
        .collect();
    Arc::new(typed)
}

/// The parameter types Describe announces (and Bind then decodes by): the
/// client's own, else the declared type of what the parameter is used as, else
/// text. Computed once per prepared statement.
async fn describe_params<'p>(
    session: &mut Session,
    prepared: &'p Prepared,
) -> Result<&'p [Type], EngineError> {
    if let Some(types) = prepared.described_params.get() {
        return Ok(types);
    }
    let inferred = match &prepared.statement {
        Some(statement) => session.describe_params(statement).await?,
        None => Vec::new(),
    };
    let types = inferred
        .iter()
        .enumerate()
        .map(|(i, declared)| match prepared.param_types.get(i) {
            Some(ty) if *ty != Type::UNKNOWN => ty.clone(),
            _ => declared
                .as_deref()
                .map_or(Type::TEXT, super::types::declared_type),
        })
        .collect();
    Ok(prepared.described_params.get_or_init(|| types))
}

fn bind_params(prepared: &Prepared, bind: &Bind) -> Result<Vec<Value>, EngineError> {
    let expected = prepared.statement.as_ref().map_or(0, |s| s.param_count);
    if bind.parameters.len() != expected {
        return Err(EngineError::invalid(format!(
            "bind message supplies {} parameters, but prepared statement requires {expected}",
            bind.parameters.len()
        )));
    }
    bind.parameters
        .iter()
        .enumerate()
        .map(|(i, raw)| {
            let ty = prepared
                .described_params
                .get()
                .and_then(|types| types.get(i))
                .or_else(|| prepared.param_types.get(i))
                .cloned()
                .unwrap_or(Type::UNKNOWN);
            let binary = params::format_code(&bind.parameter_format_codes, i) == 1;
            params::decode(raw.as_deref(), &ty, binary)
        })
        .collect()
}

/// pgwire wants a parser type; statements are parsed in `on_parse` instead.
#[derive(Debug)]
pub struct NoParser;

#[async_trait]
impl QueryParser for NoParser {
    type Statement = ();

    async fn parse_sql<C>(
        &self,
        _client: &C,
        _sql: &str,
        _types: &[Option<Type>],
    ) -> PgWireResult<Option<()>>
    where
        C: ClientInfo + Unpin + Send + Sync,
    {
        Ok(None)
    }

    fn get_parameter_types(&self, _stmt: &()) -> PgWireResult<Vec<Type>> {
        Ok(Vec::new())
    }

    fn get_result_schema(
        &self,
        _stmt: &(),
        _column_format: Option<&pgwire::api::portal::Format>,
    ) -> PgWireResult<Vec<FieldInfo>> {
        Ok(Vec::new())
    }
}
