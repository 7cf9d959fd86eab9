//! `COPY ... FROM STDIN` on the wire: CopyInResponse, then CopyData messages
//! decoded (`copy_decoder`) and streamed into the engine's COPY batch by batch,
//! ended by CopyDone (commit) or CopyFail (nothing is left behind).

use std::fmt::Debug;
use std::sync::Arc;

use async_trait::async_trait;
use futures::{Sink, SinkExt};
use pgwire::api::copy::CopyHandler;
use pgwire::api::{ClientInfo, PgWireConnectionState};
use pgwire::error::{ErrorInfo, PgWireError, PgWireResult};
use pgwire::messages::PgWireBackendMessage;
use pgwire::messages::copy::{CopyData, CopyDone, CopyFail, CopyInResponse};

use super::connection::{CopyState, PgConnection, State};
use super::copy_decoder::CopyDecoder;
use super::encode::command_tag;
use super::errors::to_pgwire;
use super::reply::{feed, transaction_status};
use crate::sql::{CopyFormat, CopyFrom, Fingerprint};

impl PgConnection {
    /// Starts `COPY ... FROM STDIN`: answers CopyInResponse and waits for data.
    pub(super) async fn start_copy<C>(
        &self,
        client: &mut C,
        state: &mut State,
        spec: &CopyFrom,
        fingerprint: Option<&Arc<Fingerprint>>,
        extended: bool,
    ) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin,
        PgWireError: From<C::Error>,
    {
        let sink = state
            .session
            .copy_begin(spec, fingerprint)
            .await
            .map_err(|e| to_pgwire(&e))?;
        let zone = state.session.shared_settings().lock().time_zone().cloned();
        let decoder = CopyDecoder::new(spec, sink.columns()).in_zone(zone);
        let columns = sink.columns().len() as i16;
        state.copy = Some(CopyState { sink, decoder });
        client.set_state(PgWireConnectionState::CopyInProgress(extended));
        let format = i8::from(spec.options.format == CopyFormat::Binary);
        let response =
            CopyInResponse::new(format, columns, vec![i16::from(format); columns as usize]);
        client
            .send(PgWireBackendMessage::CopyInResponse(response))
            .await?;
        Ok(())
    }

    async fn copy_data<C>(&self, client: &mut C, data: &[u8]) -> PgWireResult<()>
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

    async fn copy_done<C>(&self, client: &mut C) -> PgWireResult<()>
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
        feed(client, command_tag(&result.completion(), 0)).await
    }

    async fn copy_abort<C>(&self, client: &mut C)
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

fn copy_failed(message: String) -> PgWireError {
    PgWireError::UserError(Box::new(ErrorInfo::new(
        "ERROR".into(),
        "57014".into(),
        message,
    )))
}

#[async_trait]
impl CopyHandler for PgConnection {
    async fn on_copy_data<C>(&self, client: &mut C, copy_data: CopyData) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        self.copy_data(client, &copy_data.data).await
    }

    async fn on_copy_done<C>(&self, client: &mut C, _done: CopyDone) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        self.copy_done(client).await
    }

    async fn on_copy_fail<C>(&self, client: &mut C, fail: CopyFail) -> PgWireError
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        self.copy_abort(client).await;
        copy_failed(format!("COPY from stdin failed: {}", fail.message))
    }
}
