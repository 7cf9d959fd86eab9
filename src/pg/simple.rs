//! The simple query protocol: a Query message holds one or more statements, run as
//! one implicit transaction, each answered with its rows and command tag, then one
//! ReadyForQuery.

use std::fmt::Debug;

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
use super::errors::{error_info_in, to_pgwire};
use super::reply::{feed, feed_notifications, report_settings, transaction_status};
use super::rows::{Announce, WireRows};
use crate::engine::{Blocks, Value};
use crate::error::{Error, ErrorKind};
use crate::sql::{self, Dialect, Plan, Statement};

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
        state.session.report_query(&query.query);
        let parsed = state
            .session
            .read_against_schema(|schema| {
                sql::parse_batch_in(&query.query, Dialect::Postgres(schema))
            })
            .await;
        match parsed {
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
                            fingerprint,
                            ..
                        },
                    ] => {
                        self.start_copy(client, &mut state, spec, fingerprint.as_ref(), false)
                            .await
                    }
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
                let plans = batch.iter().map(|(statement, _)| match &statement.plan {
                    Plan::CopyTo(spec) => Announce::Copy(&spec.options),
                    _ => Announce::RowDescription,
                });
                let mut sink =
                    WireRows::simple(client, state.session.shared_settings(), &query.query, plans);
                state
                    .session
                    .execute_batch_into(&batch, Blocks::Postgres, &mut sink)
                    .await;
                let finished = sink.finished();
                sink.send_pending().await?;
                for (statement, _) in batch.iter().take(finished) {
                    state.after(statement);
                }
            }
            Err(error) => {
                // A statement that cannot be read is an error like any other:
                // inside a transaction block it aborts the block (25P02 until
                // ROLLBACK), as PostgreSQL does.
                state.session.fail_transaction();
                feed(
                    client,
                    PgWireBackendMessage::ErrorResponse(
                        error_info_in(&error, &query.query, usize::MAX).into(),
                    ),
                )
                .await?;
            }
        }
        report_settings(client, &mut state.session).await?;
        feed_notifications(client, &self.notifications, &state.session).await?;
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
