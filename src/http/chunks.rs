//! A response body written a chunk at a time by the task that runs the
//! statements, so an answer of any size goes out in bounded memory: the task
//! sends chunks into a bounded channel that the body drains, and a client that
//! reads slowly holds the task back (`POST /`'s large answers, Hrana's cursors).
//!
//! A body that cannot be finished as it began (a statement failed after its rows
//! started to go out) is broken off ([`ChunkSender::abort`]): hyper closes the
//! connection without the terminating chunk, so no client takes a partial answer
//! for a whole one.

use std::time::Instant;

use axum::body::{Body, Bytes};
use tokio::sync::mpsc;

use crate::engine::StopReason;
use crate::error::Error;

/// Chunks are sent at about this many bytes.
pub const CHUNK: usize = 64 * 1024;
/// Chunks in flight between the running task and the response body.
const CHUNKS_IN_FLIGHT: usize = 4;

/// What the body receives: a chunk, or the order to break off.
type Item = Result<Bytes, BrokenOff>;

/// Why a body ended without its last chunk (hyper logs it and closes the connection).
#[derive(Debug)]
pub struct BrokenOff;

impl std::fmt::Display for BrokenOff {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the answer failed after its first bytes were sent")
    }
}

impl std::error::Error for BrokenOff {}

/// The running task's end of the body.
pub struct ChunkSender {
    sender: mpsc::Sender<Item>,
}

/// The body's end: what the running task sends.
pub struct ChunkReceiver {
    receiver: mpsc::Receiver<Item>,
}

/// Why a chunk did not go out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NotSent {
    /// The client hung up (the body was dropped).
    Gone,
    /// The client did not read it before the request's deadline.
    TimedOut,
}

impl NotSent {
    /// The error of the statement whose rows could not go out, as a statement
    /// stopped for the same reason fails.
    pub fn error(self) -> Error {
        match self {
            NotSent::Gone => StopReason::Cancel.error(),
            NotSent::TimedOut => StopReason::Timeout.error(),
        }
    }
}

pub fn channel() -> (ChunkSender, ChunkReceiver) {
    let (sender, receiver) = mpsc::channel(CHUNKS_IN_FLIGHT);
    (ChunkSender { sender }, ChunkReceiver { receiver })
}

impl ChunkSender {
    /// Sends `chunk` once the body has room for it, waiting at most until
    /// `deadline`.
    pub async fn send(&self, chunk: Vec<u8>, deadline: Option<Instant>) -> Result<(), NotSent> {
        let sent = self.sender.send(Ok(Bytes::from(chunk)));
        let sent = match deadline {
            Some(deadline) => tokio::time::timeout_at(deadline.into(), sent)
                .await
                .map_err(|_| NotSent::TimedOut)?,
            None => sent.await,
        };
        sent.map_err(|_| NotSent::Gone)
    }

    /// Breaks the body off after what was sent.
    pub async fn abort(self) {
        // A client already gone needs no telling.
        let _ = self.sender.send(Err(BrokenOff)).await;
    }
}

impl ChunkReceiver {
    /// The next chunk, `None` once the sender is done (or dropped).
    pub async fn recv(&mut self) -> Option<Result<Bytes, BrokenOff>> {
        self.receiver.recv().await
    }

    /// The body: `first` (a chunk already received), then every chunk sent.
    pub fn into_body(self, first: Option<Item>) -> Body {
        let chunks =
            futures::stream::unfold((first, self.receiver), |(first, mut receiver)| async move {
                let item = match first {
                    Some(item) => item,
                    None => receiver.recv().await?,
                };
                Some((item, (None, receiver)))
            });
        Body::from_stream(chunks)
    }
}
