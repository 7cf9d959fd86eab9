//! `POST /v3/cursor`: a batch whose results come back as newline-delimited JSON,
//! one entry per line: the header (`{"baton", "base_url"}`), then per step
//! `step_begin` (its columns), a `row` per row and `step_end`, or `step_error`.
//! `@libsql/client` sends its batches this way once the server speaks Hrana 3.
//!
//! The batch runs on its own task, which sends entries a chunk at a time into the
//! response body (`chunks`): a client that reads slowly holds the task back, one
//! that does not read by the request's deadline stops it. Rows are written as
//! SQLite produces them (`StepSink`), so a result of any size goes out in bounded
//! memory.

use std::sync::Arc;
use std::time::Instant;

use super::super::auth::Caller;
use super::super::chunks::{self, CHUNK, ChunkSender, NotSent};
use super::super::limits::RequestLimits;
use super::batch_progress::BatchProgress;
use super::body::{decode, failure};
use super::proto::{Cols, Counts, CursorRequest, HranaError, Row};
use super::streams::{Lease, StreamError, Streams};
use crate::engine::{Column, Completion, ResultSink, Value};
use crate::error::Error;
use axum::body::Bytes;
use axum::extract::{Extension, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

pub async fn cursor(
    State(streams): State<Arc<Streams>>,
    Extension(caller): Extension<Caller>,
    limits: RequestLimits,
    body: Bytes,
) -> Response {
    let request: CursorRequest = match decode(&body) {
        Ok(request) => request,
        Err(error) => return failure(StatusCode::BAD_REQUEST, error),
    };
    // The stream outlives the cursor: the client closes it with a pipeline.
    let mut lease = match streams
        .lease(request.baton.as_deref(), false, &caller)
        .await
    {
        Ok(lease) => lease,
        Err(StreamError(error)) => return failure(StatusCode::BAD_REQUEST, error),
    };
    // Its rows stream, in bounded memory: the deadline and the client's
    // hang-up bound it, not the response size.
    if let Ok(state) = lease.state() {
        state.serve(&limits);
    }
    let (sender, receiver) = chunks::channel();
    tokio::spawn(run(lease, request, Writer::new(sender, limits.deadline())));
    (
        [(header::CONTENT_TYPE, "text/plain")],
        receiver.into_body(None),
    )
        .into_response()
}

/// Runs the batch, writing its entries, then gives the stream back. A client
/// that hangs up stops the batch, and the statement in progress.
async fn run(mut lease: Lease, request: CursorRequest, mut writer: Writer) {
    let header = Header {
        baton: lease.baton(),
        base_url: None,
    };
    // The header goes out at once: the client reads the baton before the rows.
    writer.push(&header);
    if writer.flush().await.is_ok() {
        let mut progress = BatchProgress::default();
        for (step, entry) in request.batch.steps.into_iter().enumerate() {
            let Ok(state) = lease.state() else { break };
            if !progress.should_run(entry.condition.as_ref(), state.is_autocommit()) {
                progress.skipped();
                continue;
            }
            let mut sink = StepSink {
                writer: &mut writer,
                step,
                want_rows: entry.stmt.want_rows,
                returns_rows: false,
                completion: None,
            };
            let ran = state.execute_into(entry.stmt, &mut sink).await;
            progress.ran(ran.is_ok());
            match (ran, sink.completion.take()) {
                (Ok(duration_ms), Some(completion)) => {
                    let counts = Counts::of(&completion, sink.returns_rows);
                    writer.push(&Entry::StepEnd(StepEnd {
                        counts,
                        duration_ms,
                    }));
                }
                (Ok(_), None) => {}
                (Err(error), _) => writer.push(&Entry::StepError { step, error }),
            }
            if writer.gone.is_some() {
                break;
            }
        }
        // The client learns of a failed write by the body ending early.
        let _ = writer.flush().await;
    }
    lease.finish(false).await;
}

/// One step's entries as the engine produces its rows: `step_begin` with the
/// columns, a `row` entry per row (when the step wants rows), sent a chunk at a
/// time; the caller writes `step_end` or `step_error`.
struct StepSink<'w> {
    writer: &'w mut Writer,
    step: usize,
    want_rows: bool,
    returns_rows: bool,
    completion: Option<Completion>,
}

impl ResultSink for StepSink<'_> {
    fn columns(&mut self, columns: &Arc<Vec<Column>>) -> Result<(), Error> {
        self.returns_rows = !columns.is_empty();
        self.writer.push(&Entry::StepBegin {
            step: self.step,
            cols: Cols(columns),
        });
        Ok(())
    }

    fn row(&mut self, row: Vec<Value>) -> Result<(), Error> {
        if self.want_rows {
            self.writer.push(&Entry::Row { row: Row(&row) });
        }
        Ok(())
    }

    fn wants_flush(&self) -> bool {
        self.writer.buffer.len() >= CHUNK
    }

    async fn flush(&mut self) -> Result<(), Error> {
        self.writer.flush().await.map_err(NotSent::error)
    }

    fn finish_statement(&mut self, completion: Completion) -> Result<(), Error> {
        if !self.returns_rows {
            // Statements without rows begin their step here, with no columns.
            self.writer.push(&Entry::StepBegin {
                step: self.step,
                cols: Cols(&[]),
            });
        }
        self.completion = Some(completion);
        Ok(())
    }
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
    StepEnd(StepEnd),
    StepError { step: usize, error: HranaError },
}

struct StepEnd {
    counts: Counts,
    duration_ms: f64,
}

impl Serialize for StepEnd {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(5))?;
        self.counts.serialize_into(&mut map, self.duration_ms)?;
        map.end()
    }
}

/// Writes entries as JSON lines, sent in chunks.
struct Writer {
    buffer: Vec<u8>,
    sender: ChunkSender,
    /// The request's deadline: a chunk the client has not taken by then stops
    /// the batch.
    deadline: Option<Instant>,
    /// The client hung up or stopped reading: nothing more is sent.
    gone: Option<NotSent>,
}

impl Writer {
    fn new(sender: ChunkSender, deadline: Option<Instant>) -> Self {
        Writer {
            buffer: Vec::with_capacity(CHUNK),
            sender,
            deadline,
            gone: None,
        }
    }

    /// Adds an entry to the chunk being made (sent by `flush`).
    fn push<T: Serialize>(&mut self, entry: &T) {
        if let Err(error) = serde_json::to_writer(&mut self.buffer, entry) {
            // Our own types always serialize; should one not, the client sees
            // the body end early.
            tracing::warn!(%error, "a cursor entry did not serialize");
            self.gone = Some(NotSent::Gone);
        }
        self.buffer.push(b'\n');
    }

    async fn flush(&mut self) -> Result<(), NotSent> {
        if let Some(gone) = self.gone {
            return Err(gone);
        }
        if self.buffer.is_empty() {
            return Ok(());
        }
        let chunk = std::mem::replace(&mut self.buffer, Vec::with_capacity(CHUNK));
        let sent = self.sender.send(chunk, self.deadline).await;
        if let Err(not_sent) = sent {
            self.gone = Some(not_sent);
        }
        sent
    }
}
