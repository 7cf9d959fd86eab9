//! The extended query protocol: Parse, Bind, Describe, Execute, Close, Flush and
//! Sync over the connection's prepared statements and portals.

use std::fmt::Debug;
use std::sync::{Arc, OnceLock};

use async_trait::async_trait;
use futures::{Sink, SinkExt};
use pgwire::api::portal::Portal as PgPortal;
use pgwire::api::query::ExtendedQueryHandler;
use pgwire::api::results::{
    DescribePortalResponse, DescribeStatementResponse, FieldInfo, Response,
};
use pgwire::api::stmt::{QueryParser, StoredStatement};
use pgwire::api::store::PortalStore;
use pgwire::api::{ClientInfo, ClientPortalStore, Type};
use pgwire::error::{PgWireError, PgWireResult};
use pgwire::messages::PgWireBackendMessage;
use pgwire::messages::data::{NoData, ParameterDescription};
use pgwire::messages::extendedquery::{
    Bind, BindComplete, Close, CloseComplete, Describe, Execute, Flush, Parse, ParseComplete,
    PortalSuspended, Sync as PgSync, TARGET_TYPE_BYTE_PORTAL, TARGET_TYPE_BYTE_STATEMENT,
};
use pgwire::messages::response::{EmptyQueryResponse, ReadyForQuery};

use super::connection::{PgConnection, Portal, Prepared, Progress, State};
use super::encode::{RowShape, TypedColumns, command_tag};
use super::errors::{to_pgwire, to_pgwire_in};
use super::params;
use super::reply::{feed, feed_notifications, feed_rows, report_settings, transaction_status};
use super::rows::{Announce, WireRows};
use super::types::TextFormat;
use crate::engine::{QueryResult, Value};
use crate::error::Error;
use crate::sql::time_zone::Zone;
use crate::sql::{self, Dialect, Plan};

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
        let statement = {
            let mut state = self.state.lock().await;
            state.identify(client);
            state
                .session
                .read_against_schema(|schema| {
                    sql::parse_single_in(&message.query, Dialect::Postgres(schema))
                })
                .await
                .map_err(|e| to_pgwire_in(&e, &message.query))?
        };
        let param_types = message
            .type_oids
            .iter()
            .map(|oid| Type::from_oid(*oid).unwrap_or(Type::UNKNOWN))
            .collect();
        let prepared = Arc::new(Prepared {
            statement,
            query: message.query,
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
        if of_unknown_type(&prepared, &message) {
            // Boxed: the first Bind's path keeps the future of every Bind small.
            Box::pin(describe_params(&mut state, &prepared))
                .await
                .map_err(|e| to_pgwire_in(&e, &prepared.query))?;
        }
        let zone = || state.session.shared_settings().lock().time_zone().cloned();
        let params = bind_params(&prepared, &message, &zone).map_err(|e| to_pgwire(&e))?;
        let portal = Portal {
            prepared,
            params,
            result_formats: message.result_column_format_codes,
            progress: Progress::NotRun,
        };
        state.keep_portal(name_of(&message.portal_name), portal);
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
                let types = describe_params(&mut state, &prepared)
                    .await
                    .map_err(|e| to_pgwire_in(&e, &prepared.query))?
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
            TARGET_TYPE_BYTE_PORTAL => match state.portals.get(&name) {
                Some(portal) => (portal.prepared.clone(), portal.result_formats.clone()),
                // A cursor made with DECLARE is a portal too, as in PostgreSQL
                // (psycopg's server-side cursors describe it so): its rows
                // come by FETCH, in text.
                None => {
                    let columns = state
                        .session
                        .cursor_columns(&name)
                        .map_err(|_| PgWireError::PortalNotFound(name.clone()))?;
                    let message = if columns.is_empty() {
                        PgWireBackendMessage::NoData(NoData::new())
                    } else {
                        RowShape::new(&TypedColumns::new(columns), &[]).row_description()
                    };
                    return feed(client, message).await;
                }
            },
            other => return Err(PgWireError::InvalidTargetType(other)),
        };
        let described = match prepared.described.get() {
            Some(described) => described,
            None => {
                let columns = match &prepared.statement {
                    Some(statement) => state
                        .session
                        .describe(statement)
                        .await
                        .map_err(|e| to_pgwire_in(&e, &prepared.query))?,
                    None => Arc::new(Vec::new()),
                };
                let described = TypedColumns::with_param_types(columns, &prepared.param_types);
                prepared.described.get_or_init(|| described)
            }
        };
        let message = if described.is_empty() {
            PgWireBackendMessage::NoData(NoData::new())
        } else {
            RowShape::new(described, &formats).row_description()
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
        state.session.report_query(&portal.prepared.query);
        let Some(statement) = portal.prepared.statement.clone() else {
            return feed(
                client,
                PgWireBackendMessage::EmptyQueryResponse(EmptyQueryResponse::new()),
            )
            .await;
        };
        if let Plan::CopyFrom(spec) = &statement.plan {
            let fingerprint = statement.fingerprint.as_ref();
            let result = self
                .start_copy(client, state, spec, fingerprint, true)
                .await;
            client.set_transaction_status(transaction_status(&state.session));
            return result;
        }
        let mut progress = std::mem::replace(&mut portal.progress, Progress::NotRun);
        // A row limit: the rows stay in SQLite until fetched, when the statement
        // can be read as a cursor.
        if matches!(progress, Progress::NotRun) && message.max_rows > 0 {
            let opened = state.session.open_cursor(&statement, &portal.params).await;
            client.set_transaction_status(transaction_status(&state.session));
            if let Some(id) = opened.map_err(|e| to_pgwire_in(&e, &portal.prepared.query))? {
                state.session.count_portal(id, &statement);
                progress = Progress::Cursor(id);
            }
        }
        if let Progress::Cursor(id) = progress {
            let limit = usize::try_from(message.max_rows).unwrap_or(0);
            let mut sink = WireRows::portal(
                client,
                state.session.shared_settings(),
                &portal.prepared.query,
                portal_rows(portal),
            );
            let fetched = state
                .session
                .fetch(id, limit, &mut sink)
                .await
                .map_err(|e| PgWireError::UserError(Box::new(sink.error_info(&e))));
            let last = sink.last();
            sink.send_pending().await?;
            client.set_transaction_status(transaction_status(&state.session));
            if fetched? {
                portal.progress = Progress::Cursor(id);
                return feed(
                    client,
                    PgWireBackendMessage::PortalSuspended(PortalSuspended::new()),
                )
                .await;
            }
            if let Some(completion) = last {
                portal.progress = Progress::Done(QueryResult::completed(completion));
            }
            return Ok(());
        }
        let streamed = match (&progress, &statement.plan) {
            (_, Plan::CopyTo(spec)) => Some(Announce::Copy(&spec.options)),
            // Every row now: they go to the client as SQLite produces them.
            (Progress::NotRun, _) if message.max_rows <= 0 => Some(portal_rows(portal)),
            _ => None,
        };
        if let Some(plan) = streamed {
            let mut sink = WireRows::portal(
                client,
                state.session.shared_settings(),
                &portal.prepared.query,
                plan,
            );
            let ran = state
                .session
                .execute_into(&statement, &portal.params, &mut sink)
                .await
                .map_err(|e| PgWireError::UserError(Box::new(sink.error_info(&e))));
            let last = sink.last();
            sink.send_pending().await?;
            client.set_transaction_status(transaction_status(&state.session));
            report_settings(client, &mut state.session).await?;
            ran?;
            if let Some(completion) = last {
                portal.progress = Progress::Done(QueryResult::completed(completion));
            }
            state.after(&statement);
            return Ok(());
        }
        let (result, sent) = match progress {
            Progress::NotRun => {
                let result = state.session.execute(&statement, &portal.params).await;
                client.set_transaction_status(transaction_status(&state.session));
                report_settings(client, &mut state.session).await?;
                (
                    result.map_err(|e| to_pgwire_in(&e, &portal.prepared.query))?,
                    0,
                )
            }
            Progress::Suspended { result, sent } => (result, sent),
            Progress::Done(result) => (result, usize::MAX),
            Progress::Cursor(_) => (QueryResult::empty(statement.kind), usize::MAX),
        };
        let digits = TextFormat::of(&state.session.shared_settings().lock());
        send_portal_rows(client, portal, result, sent, message.max_rows, digits).await?;
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
        state.drop_portal("");
        state.end_portals_outside_transactions();
        feed_notifications(client, &self.notifications, &state.session).await?;
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
                state.drop_portal(&name);
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

/// How a portal's rows go on the wire: typed as its statement's Describe
/// announced them (or by the client's parameter types), in the portal's formats.
fn portal_rows(portal: &Portal) -> Announce<'_> {
    Announce::Portal {
        described: portal.prepared.described.get().cloned(),
        param_types: &portal.prepared.param_types,
        formats: &portal.result_formats,
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
    digits: TextFormat,
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
        None => {
            TypedColumns::with_param_types(result.columns.clone(), &portal.prepared.param_types)
        }
    };
    let shape = RowShape::new(&columns, &portal.result_formats).printing_floats(digits);
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
        feed(client, command_tag(&result.completion(), count)).await?;
        portal.progress = Progress::Done(result);
        Ok(())
    }
}

/// The parameter types Describe announces (and Bind then decodes by): the
/// client's own, else the type of what the parameter is used as, else text.
/// Computed once per prepared statement.
async fn describe_params<'p>(
    state: &mut State,
    prepared: &'p Prepared,
) -> Result<&'p [Type], Error> {
    if let Some(types) = prepared.described_params.get() {
        return Ok(types);
    }
    let inferred = match &prepared.statement {
        Some(statement) => {
            let generation = state.session.schema_generation();
            match state.param_types.declared(&prepared.query, generation) {
                Some(declared) => declared,
                None => {
                    let hints = state.param_types.hints(
                        &prepared.query,
                        &statement.sql,
                        statement.param_count,
                    );
                    let declared = state.session.describe_params(hints).await?;
                    state
                        .param_types
                        .keep(&prepared.query, generation, &declared);
                    declared
                }
            }
        }
        None => Vec::new(),
    };
    let types = inferred
        .iter()
        .enumerate()
        .map(|(i, declared)| match prepared.param_types.get(i) {
            Some(ty) if *ty != Type::UNKNOWN => ty.clone(),
            _ => declared.as_deref().map_or(Type::TEXT, param_type),
        })
        .collect();
    Ok(prepared.described_params.get_or_init(|| types))
}

/// The PostgreSQL type of a declared type, `[]` for an array of it.
fn param_type(declared: &str) -> Type {
    let declared = declared.trim_end();
    let element = declared.trim_end_matches("[]");
    let ty = super::types::declared_type(element);
    if element.len() < declared.len() {
        params::array_of(&ty)
    } else {
        ty
    }
}

/// Whether `bind` sends a value whose type the client left unspecified. As in
/// PostgreSQL, such a value is read as the type inferred for its place: binary
/// bytes mean nothing until then (a Buffer bound for a bytea column, an int for
/// an integer one), and text is parsed by that type (`'10'` bound beside
/// `qty * $1` is the integer 10, not a string SQLite would sort after every
/// number; `'abc'` for `$1::int` is refused with 22P02).
fn of_unknown_type(prepared: &Prepared, bind: &Bind) -> bool {
    prepared.described_params.get().is_none()
        && bind.parameters.iter().enumerate().any(|(i, value)| {
            value.is_some()
                && prepared
                    .param_types
                    .get(i)
                    .is_none_or(|ty| *ty == Type::UNKNOWN)
        })
}

fn bind_params(
    prepared: &Prepared,
    bind: &Bind,
    session_zone: &dyn Fn() -> Option<Zone>,
) -> Result<Vec<Value>, Error> {
    // The session's zone, read once and only for a timestamptz in text.
    let zone = std::cell::OnceCell::new();
    let expected = prepared.statement.as_ref().map_or(0, |s| s.param_count);
    if bind.parameters.len() != expected {
        return Err(Error::invalid(format!(
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
            let zoned = !binary && matches!(ty, Type::TIMESTAMPTZ | Type::TIMESTAMPTZ_ARRAY);
            let zone = match zoned {
                true => zone.get_or_init(session_zone).as_ref(),
                false => None,
            };
            params::decode(raw.as_deref(), &ty, binary, zone)
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
