//! `POST /v3/cursor`: a batch whose results come back as newline-delimited JSON,
//! one entry per line: the header (`{"baton", "base_url"}`), then per step
//! `step_begin` (its columns), a `row` per row and `step_end`, or `step_error`.
//! `@libsql/client` sends its batches this way once the server speaks Hrana 3.
//!
//! The batch runs on its own task, which writes entries into a bounded channel
//! that the response body drains: the body never holds more than a few chunks,
//! and a client that reads slowly holds the task back. The engine hands over a
//! step's rows once the step is done (a [`QueryResult`]); `write_step` is the one
//! place that would write each row as SQLite produces it, were the engine to
//! offer rows one at a time.

use std::convert::Infallible;
use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{Extension, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use tokio::sync::mpsc;

use super::super::auth::Caller;
use super::exec::BatchProgress;
use super::proto::{
    Cols, CursorRequest, HranaError, Row, StmtOutcome, affected_rows, last_insert_rowid, rows_read,
};
use super::streams::{Lease, StreamError, Streams};
use crate::engine::QueryResult;

/// Entries are sent in chunks of about this many bytes.
const CHUNK: usize = 64 * 1024;
/// Chunks in flight between the batch's task and the response body.
const CHUNKS_IN_FLIGHT: usize = 4;

pub async fn cursor(
    State(streams): State<Arc<Streams>>,
    Extension(caller): Extension<Caller>,
    body: Bytes,
) -> Response {
    let request: CursorRequest = match super::decode(&body) {
        Ok(request) => request,
        Err(error) => return super::failure(StatusCode::BAD_REQUEST, error),
    };
    // The stream outlives the cursor: the client closes it with a pipeline.
    let lease = match streams
        .lease(request.baton.as_deref(), false, &caller)
        .await
    {
        Ok(lease) => lease,
        Err(StreamError(error)) => return super::failure(StatusCode::BAD_REQUEST, error),
    };
    let (sender, receiver) = mpsc::channel::<Bytes>(CHUNKS_IN_FLIGHT);
    tokio::spawn(run(lease, request, Writer::new(sender)));
    let chunks = futures::stream::unfold(receiver, |mut receiver| async move {
        let chunk = receiver.recv().await?;
        Some((Ok::<_, Infallible>(chunk), receiver))
    });
    (
        [(header::CONTENT_TYPE, "text/plain")],
        Body::from_stream(chunks),
    )
        .into_response()
}

/// Runs the batch, writing its entries, then gives the stream back. A client
/// that hangs up stops the batch after the step in progress.
async fn run(mut lease: Lease, request: CursorRequest, mut writer: Writer) {
    let header = Header {
        baton: lease.baton(),
        base_url: None,
    };
    // The header goes out at once: the client reads the baton before the rows.
    let header_sent = match writer.entry(&header).await {
        Ok(()) => writer.flush().await,
        Err(gone) => Err(gone),
    };
    if header_sent.is_ok() {
        let mut progress = BatchProgress::default();
        for (index, step) in request.batch.steps.into_iter().enumerate() {
            let Ok(state) = lease.state() else { break };
            if !progress.should_run(step.condition.as_ref(), state.is_autocommit()) {
                progress.skipped();
                continue;
            }
            let outcome = state.execute(step.stmt).await;
            progress.ran(outcome.is_ok());
            if write_step(&mut writer, index, outcome).await.is_err() {
                break;
            }
        }
        // The client learns of a failed write by the body ending early.
        let _ = writer.flush().await;
    }
    lease.finish(false).await;
}

/// A step's entries: `step_begin`, its rows and `step_end`, or `step_error`.
async fn write_step(
    writer: &mut Writer,
    step: usize,
    outcome: Result<StmtOutcome, HranaError>,
) -> Result<(), Gone> {
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(error) => return writer.entry(&Entry::StepError { step, error }).await,
    };
    let result = &outcome.result;
    writer
        .entry(&Entry::StepBegin {
            step,
            cols: Cols(&result.columns),
        })
        .await?;
    if outcome.want_rows {
        for row in &result.rows {
            writer.entry(&Entry::Row { row: Row(row) }).await?;
        }
    }
    writer
        .entry(&Entry::StepEnd(StepEnd {
            result,
            duration_ms: outcome.duration_ms,
        }))
        .await
}

#[derive(Serialize)]
struct Header {
    baton: Option<String>,
    base_url: Option<String>,
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Entry<'a> {
    StepBegin { step: usize, cols: Cols<'a> },
    Row { row: Row<'a> },
    StepEnd(StepEnd<'a>),
    StepError { step: usize, error: HranaError },
}

struct StepEnd<'a> {
    result: &'a QueryResult,
    duration_ms: f64,
}

impl Serialize for StepEnd<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(5))?;
        map.serialize_entry("affected_row_count", &affected_rows(self.result))?;
        map.serialize_entry("last_insert_rowid", &last_insert_rowid(self.result))?;
        map.serialize_entry("rows_read", &rows_read(self.result))?;
        map.serialize_entry("rows_written", &affected_rows(self.result))?;
        map.serialize_entry("query_duration_ms", &self.duration_ms)?;
        map.end()
    }
}

/// The client stopped reading (it hung up).
struct Gone;

/// Writes entries as JSON lines, sent in chunks.
struct Writer {
    buffer: Vec<u8>,
    sender: mpsc::Sender<Bytes>,
}

impl Writer {
    fn new(sender: mpsc::Sender<Bytes>) -> Self {
        Writer {
            buffer: Vec::with_capacity(CHUNK),
            sender,
        }
    }

    async fn entry<T: Serialize>(&mut self, entry: &T) -> Result<(), Gone> {
        if let Err(error) = serde_json::to_writer(&mut self.buffer, entry) {
            // Our own types always serialize; should one not, the client sees
            // the body end early.
            tracing::warn!(%error, "a cursor entry did not serialize");
            return Err(Gone);
        }
        self.buffer.push(b'\n');
        if self.buffer.len() >= CHUNK {
            self.flush().await?;
        }
        Ok(())
    }

    async fn flush(&mut self) -> Result<(), Gone> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK));
        self.sender.send(Bytes::from(chunk)).await.map_err(|_| Gone)
    }
}
