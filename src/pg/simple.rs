//! The simple query protocol: a Query message holds one or more statements, run as
//! one implicit transaction, each answered with its rows and command tag, then one
//! ReadyForQuery.

use std::fmt::Debug;
use std::iter;

use async_trait::async_trait;
use futures::{Sink, SinkExt};
use pgwire::api::query::SimpleQueryHandler;
use pgwire::api::results::Response;
use pgwire::api::store::PortalStore;
use pgwire::api::{ClientInfo, ClientPortalStore, PgWireConnectionState};
use pgwire::error::{PgWireError, PgWireResult};
use pgwire::messages::PgWireBackendMessage;
use pgwire::messages::response::{EmptyQueryResponse, ReadyForQuery};
use pgwire::messages::simplequery::Query;

use super::connection::PgConnection;
use super::copy_out;
use super::encode::{RowShape, command_tag};
use super::errors::{error_info, to_pgwire};
use super::reply::{error_response, feed, feed_rows, report_settings, transaction_status};
use crate::engine::{QueryResult, Value};
use crate::error::{Error, ErrorKind};
use crate::sql::{self, Plan, Statement};

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
                    _ => Err(to_pgwire(&Error::new(
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
