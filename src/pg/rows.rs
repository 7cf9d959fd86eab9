//! Results on their way to a PostgreSQL client, as the engine produces them.
//!
//! [`WireRows`] is the PostgreSQL front end's [`ResultSink`]: it encodes each row
//! (a DataRow, or a CopyData line for COPY TO) as SQLite hands it over, and feeds
//! the messages into the connection's write buffer a batch at a time, pausing the
//! statement while a slow client drains its socket. A result of any size costs a
//! batch of rows, not the whole result, and its first rows reach the client before
//! its last ones are computed.

use std::collections::VecDeque;
use std::sync::Arc;

use futures::Sink;
use pgwire::api::Type;
use pgwire::error::{ErrorInfo, PgWireError};
use pgwire::messages::PgWireBackendMessage;
use pgwire::messages::copy::{CopyData, CopyDone, CopyOutResponse};

use super::copy_out::CopyEncoder;
use super::encode::{RowShape, TypedColumns, command_tag};
use super::errors::{encode_error_info, error_info_in};
use super::reply::feed;
use super::types::TextFormat;
use crate::engine::{Column, Completion, ResultSink, SharedSettings, Value};
use crate::error::{Error, ErrorKind, SqlState};
use crate::sql::CopyOptions;

/// Encoded messages kept before they are fed to the client: a DataRow is small, so
/// this bounds the rows held, and the bytes bound covers wide rows.
const BATCH_MESSAGES: usize = 256;
const BATCH_BYTES: usize = 64 * 1024;

/// How a statement's results go on the wire.
pub(super) enum Announce<'a> {
    /// Simple protocol: a RowDescription of the result's columns, rows in text.
    RowDescription,
    /// Extended protocol: Describe announced the columns (or the client did not
    /// ask); rows in the portal's formats, typed by what Describe said.
    Portal {
        described: Option<TypedColumns>,
        param_types: &'a [Type],
        formats: &'a [i16],
    },
    /// `COPY ... TO STDOUT`: CopyOutResponse, lines of CopyData, CopyDone.
    Copy(&'a CopyOptions),
}

/// The encoding of the statement running now.
enum Encoding<'a> {
    None,
    Rows(RowShape),
    Copy(CopyEncoder<'a>),
}

/// The PostgreSQL front end's result sink over one client connection.
pub(super) struct WireRows<'a, C> {
    client: &'a mut C,
    /// How each statement still to come goes on the wire, in order.
    plans: VecDeque<Announce<'a>>,
    current: Option<Announce<'a>>,
    encoding: Encoding<'a>,
    pending: Vec<PgWireBackendMessage>,
    pending_bytes: usize,
    /// Simple protocol: a failed statement's ErrorResponse is sent here. Extended
    /// protocol: the error goes back to pgwire, which sends it and skips to Sync.
    sends_errors: bool,
    /// A value that could not be encoded, with its own SQLSTATE.
    encode_failure: Option<ErrorInfo>,
    /// Statements that finished.
    finished: usize,
    /// How the last statement that finished ended.
    last: Option<Completion>,
    /// The query the statements came from, which errors point into.
    query: &'a str,
    /// The session's settings: each result prints floats as
    /// `extra_float_digits` says when it starts (a `SET` earlier in the batch counts).
    settings: SharedSettings,
}

impl<'a, C> WireRows<'a, C>
where
    C: Sink<PgWireBackendMessage> + Unpin + Send,
    PgWireError: From<C::Error>,
{
    /// Statements of a simple Query, one plan each; errors are sent as they happen.
    pub(super) fn simple(
        client: &'a mut C,
        settings: SharedSettings,
        query: &'a str,
        plans: impl IntoIterator<Item = Announce<'a>>,
    ) -> Self {
        Self::new(client, settings, query, plans.into_iter().collect(), true)
    }

    /// One portal's statement (`query`); its error is left to the caller.
    pub(super) fn portal(
        client: &'a mut C,
        settings: SharedSettings,
        query: &'a str,
        plan: Announce<'a>,
    ) -> Self {
        Self::new(client, settings, query, VecDeque::from([plan]), false)
    }

    fn new(
        client: &'a mut C,
        settings: SharedSettings,
        query: &'a str,
        plans: VecDeque<Announce<'a>>,
        sends_errors: bool,
    ) -> Self {
        WireRows {
            query,
            settings,
            client,
            plans,
            current: None,
            encoding: Encoding::None,
            pending: Vec::new(),
            pending_bytes: 0,
            sends_errors,
            encode_failure: None,
            finished: 0,
            last: None,
        }
    }

    /// How many statements finished (the others failed or did not run).
    pub(super) fn finished(&self) -> usize {
        self.finished
    }

    /// How the last statement that finished ended.
    pub(super) fn last(&self) -> Option<Completion> {
        self.last
    }

    /// Feeds what is pending into the connection's write buffer.
    pub(super) async fn send_pending(&mut self) -> Result<(), PgWireError> {
        self.pending_bytes = 0;
        for message in std::mem::take(&mut self.pending) {
            feed(self.client, message).await?;
        }
        Ok(())
    }

    /// The error to send for a failed statement: an encoding failure keeps its own
    /// SQLSTATE; others point into the query where they name a token of it.
    pub(super) fn error_info(&mut self, error: &Error) -> ErrorInfo {
        let statement = self.finished;
        self.encode_failure
            .take()
            .unwrap_or_else(|| error_info_in(error, self.query, statement))
    }

    fn push(&mut self, message: PgWireBackendMessage, bytes: usize) {
        self.pending.push(message);
        self.pending_bytes += bytes;
    }
}

impl<C> ResultSink for WireRows<'_, C>
where
    C: Sink<PgWireBackendMessage> + Unpin + Send,
    PgWireError: From<C::Error>,
{
    fn begin_statement(&mut self) -> Result<(), Error> {
        self.current = self.plans.pop_front();
        self.encoding = Encoding::None;
        Ok(())
    }

    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        let digits = TextFormat::of(&self.settings.lock());
        let announced = match self.current.take() {
            Some(Announce::Copy(options)) => {
                // SQLite allows at most 32767 result columns, so this always fits.
                let count = i16::try_from(columns.len()).unwrap_or(i16::MAX);
                let response = CopyOutResponse::new(0, count, vec![0; columns.len()]);
                self.push(PgWireBackendMessage::CopyOutResponse(response), 0);
                let mut encoder = CopyEncoder::new(options, columns, digits);
                if options.header {
                    let header = encoder.header(columns);
                    let bytes = header.len();
                    self.push(PgWireBackendMessage::CopyData(CopyData::new(header)), bytes);
                }
                self.encoding = Encoding::Copy(encoder);
                Announce::Copy(options)
            }
            Some(Announce::Portal {
                described,
                param_types,
                formats,
            }) => {
                // As PostgreSQL refuses to run a prepared statement whose result
                // changed: the client decodes rows by the description it has.
                if described.as_ref().is_some_and(|d| d.differ_from(columns)) {
                    return Err(Error::state(
                        SqlState::FEATURE_NOT_SUPPORTED,
                        "cached plan must not change result type",
                    ));
                }
                let typed = match &described {
                    Some(described) => described.clone(),
                    None => TypedColumns::with_param_types(columns.clone(), param_types),
                };
                self.encoding =
                    Encoding::Rows(RowShape::new(&typed, formats).printing_floats(digits));
                Announce::Portal {
                    described,
                    param_types,
                    formats,
                }
            }
            Some(Announce::RowDescription) | None => {
                let shape =
                    RowShape::new(&TypedColumns::new(columns.clone()), &[]).printing_floats(digits);
                self.push(shape.row_description(), 0);
                self.encoding = Encoding::Rows(shape);
                Announce::RowDescription
            }
        };
        self.current = Some(announced);
        Ok(())
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        let (message, bytes) = match &mut self.encoding {
            Encoding::Rows(shape) => match shape.data_row(&row) {
                Ok((message, bytes)) => (message, bytes),
                Err(failure) => {
                    let error = Error::new(ErrorKind::InvalidParameter, failure.message.clone());
                    self.encode_failure = Some(encode_error_info(failure));
                    return Err(error);
                }
            },
            Encoding::Copy(encoder) => {
                let line = encoder.row(&row);
                let bytes = line.len();
                (PgWireBackendMessage::CopyData(CopyData::new(line)), bytes)
            }
            Encoding::None => {
                return Err(Error::new(
                    ErrorKind::Internal,
                    "a row came before its columns",
                ));
            }
        };
        self.push(message, bytes);
        Ok(())
    }

    fn wants_flush(&self) -> bool {
        self.pending.len() >= BATCH_MESSAGES || self.pending_bytes >= BATCH_BYTES
    }

    async fn flush(&mut self) -> Result<(), Error> {
        self.send_pending()
            .await
            .map_err(|e| Error::new(ErrorKind::Unavailable, format!("client gone: {e}")))
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        if let Encoding::Copy(_) = self.encoding {
            self.push(PgWireBackendMessage::CopyDone(CopyDone::new()), 0);
        }
        let rows = usize::try_from(completion.rows_affected).unwrap_or(usize::MAX);
        self.push(command_tag(&completion, rows), 0);
        self.last = Some(completion);
        self.encoding = Encoding::None;
        self.finished += 1;
        Ok(())
    }

    fn error(&mut self, error: &Error) {
        self.encoding = Encoding::None;
        if self.sends_errors {
            let info = self.error_info(error);
            self.push(PgWireBackendMessage::ErrorResponse(info.into()), 0);
        }
    }
}
