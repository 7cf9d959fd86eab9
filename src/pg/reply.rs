//! Feeding backend messages into a connection's write buffer, and the few replies
//! every protocol sends (ParameterStatus, transaction status, errors, rows).

use futures::{Sink, SinkExt};
use pgwire::error::{PgWireError, PgWireResult};
use pgwire::messages::PgWireBackendMessage;
use pgwire::messages::response::{NotificationResponse, TransactionStatus};
use pgwire::messages::startup::ParameterStatus;

use super::encode::RowShape;
use super::errors::encode_error_info;
use crate::engine::{Inbox, Notification, Session, TransactionState, Value};

/// Sends ParameterStatus for each reported setting the session changed.
pub(super) async fn report_settings<C>(client: &mut C, session: &mut Session) -> PgWireResult<()>
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

/// Feeds the LISTEN notifications that arrived, as NotificationResponse
/// messages, when the session is outside a transaction: as in PostgreSQL, a
/// session inside one gets them once it ends.
pub(super) async fn feed_notifications<C>(
    client: &mut C,
    inbox: &Inbox,
    session: &Session,
) -> PgWireResult<()>
where
    C: Sink<PgWireBackendMessage> + Unpin,
    PgWireError: From<C::Error>,
{
    if session.transaction_state() != TransactionState::Idle {
        return Ok(());
    }
    for notification in inbox.take() {
        feed(client, notification_message(notification)).await?;
    }
    Ok(())
}

/// One notification as the message that carries it.
pub(super) fn notification_message(notification: Notification) -> PgWireBackendMessage {
    PgWireBackendMessage::NotificationResponse(NotificationResponse::new(
        notification.pid,
        notification.channel,
        notification.payload,
    ))
}

pub(super) fn transaction_status(session: &Session) -> TransactionStatus {
    match session.transaction_state() {
        TransactionState::Idle => TransactionStatus::Idle,
        TransactionState::Active => TransactionStatus::Transaction,
        TransactionState::Failed => TransactionStatus::Error,
    }
}

pub(super) async fn feed<C>(client: &mut C, message: PgWireBackendMessage) -> PgWireResult<()>
where
    C: Sink<PgWireBackendMessage> + Unpin,
    PgWireError: From<C::Error>,
{
    client.feed(message).await.map_err(PgWireError::from)
}

/// Sends `rows` as DataRow messages.
pub(super) async fn feed_rows<C>(
    client: &mut C,
    shape: &RowShape,
    rows: &[Vec<Value>],
) -> PgWireResult<()>
where
    C: Sink<PgWireBackendMessage> + Unpin,
    PgWireError: From<C::Error>,
{
    for row in rows {
        let (message, _) = shape
            .data_row(row)
            .map_err(|e| PgWireError::UserError(Box::new(encode_error_info(e))))?;
        feed(client, message).await?;
    }
    Ok(())
}
