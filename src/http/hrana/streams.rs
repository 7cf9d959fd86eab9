//! Hrana streams across HTTP requests, and the batons that name them (made and
//! checked in `batons`).
//!
//! A pipeline that does not close its stream gets a baton back; the next request
//! that brings it continues the same engine session, so a transaction spans
//! requests. A baton is the stream's id and its sequence number, signed with a
//! keyed MAC (HMAC-SHA256 under a key drawn at startup): a client cannot forge
//! one for someone else's stream. Each baton is good once: using it moves the
//! stream's sequence on, so a replayed or stale baton is refused and touches
//! nothing.
//!
//! A stream left idle longer than the expiry is closed by a background task: its
//! transaction is rolled back and its write permit (and SQLite's write lock)
//! released, so a client that vanished mid-transaction cannot hold the database.
//! At most `max_streams` streams are kept between requests; each holds a
//! connection.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use tokio::sync::Notify;

use super::super::auth::Caller;
use super::batons::BatonKey;
use super::exec::StreamState;
use super::proto::HranaError;
use crate::engine::{BackendKind, Engine};
use crate::shutdown::Shutdown;

/// How long streams live and how many there may be.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub expiry: Duration,
    pub max_streams: usize,
    pub max_stored_sql: usize,
}

pub struct Streams {
    engine: Arc<Engine>,
    limits: Limits,
    batons: BatonKey,
    next_id: AtomicU64,
    open: Mutex<HashMap<u64, Entry>>,
}

struct Entry {
    /// The user that opened the stream: only they may continue it.
    owner: String,
    /// The sequence number the stream's next baton carries.
    seq: u64,
    /// `None` while a request is using the stream.
    state: Option<StreamState>,
    last_used: Instant,
    /// Wakes a request that brought the baton of a stream still in use (a
    /// cursor's, whose baton is sent before its rows).
    returned: Arc<Notify>,
}

/// Why a request could not get its stream: HTTP 400 with this error.
pub struct StreamError(pub HranaError);

/// A stream taken out for one request. It goes back with [`Lease::finish`]; a
/// lease dropped before that (the client went away mid-request) ends the
/// stream, and its session rolls back.
pub struct Lease {
    streams: Arc<Streams>,
    /// `None` for a stream that ends with its first request (never registered).
    id: Option<u64>,
    seq: u64,
    state: Option<StreamState>,
}

impl Streams {
    /// The registry, and its expiry task, which runs until `shutdown`.
    pub fn start(engine: Arc<Engine>, limits: Limits, shutdown: Shutdown) -> Arc<Streams> {
        let streams = Arc::new(Streams {
            engine,
            limits,
            batons: BatonKey::generate(),
            next_id: AtomicU64::new(1),
            open: Mutex::new(HashMap::new()),
        });
        tokio::spawn(expire_idle(Arc::downgrade(&streams), shutdown));
        streams
    }

    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }

    /// The stream `baton` names, or a new one when there is none. A new stream
    /// that the request itself closes (`one_request`, as every `execute` +
    /// `close` pipeline of the SDKs) is neither registered nor counted against
    /// the limit, which bounds the streams kept between requests. A stream
    /// belongs to the caller that opened it: another's baton is refused.
    pub async fn lease(
        self: &Arc<Self>,
        baton: Option<&str>,
        one_request: bool,
        caller: &Caller,
    ) -> Result<Lease, StreamError> {
        match baton {
            None if one_request => Ok(Lease {
                streams: self.clone(),
                id: None,
                seq: 0,
                state: Some(self.new_state(caller)),
            }),
            None => self.open_new(caller),
            Some(baton) => {
                let (id, seq) = self.batons.verify(baton).map_err(StreamError)?;
                self.take(id, seq, &caller.user).await
            }
        }
    }

    fn open_new(self: &Arc<Self>, caller: &Caller) -> Result<Lease, StreamError> {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        {
            let mut open = self.lock();
            if open.len() >= self.limits.max_streams {
                return Err(StreamError(HranaError::new(
                    "STREAMS_EXHAUSTED",
                    format!(
                        "{} Hrana streams are open, the most this server allows (see \
                         --hrana-max-streams): close streams when done with them",
                        self.limits.max_streams
                    ),
                )));
            }
            open.insert(
                id,
                Entry {
                    owner: caller.user.to_string(),
                    seq: 1,
                    state: None,
                    last_used: Instant::now(),
                    returned: Arc::new(Notify::new()),
                },
            );
        }
        Ok(Lease {
            streams: self.clone(),
            id: Some(id),
            seq: 1,
            state: Some(self.new_state(caller)),
        })
    }

    fn new_state(&self, caller: &Caller) -> StreamState {
        StreamState::new(
            caller.session(&self.engine, BackendKind::Hrana),
            self.limits.max_stored_sql,
        )
    }

    /// Takes the stream out of the registry for one request; waits while a
    /// cursor still has it.
    async fn take(self: &Arc<Self>, id: u64, seq: u64, user: &str) -> Result<Lease, StreamError> {
        let deadline = Instant::now() + self.limits.expiry;
        loop {
            let returned = {
                let mut open = self.lock();
                let entry = open.get_mut(&id).ok_or_else(|| {
                    StreamError(HranaError::new(
                        "STREAM_EXPIRED",
                        "the stream has expired or was closed: its transaction, if any, was \
                         rolled back",
                    ))
                })?;
                if entry.owner != user {
                    return Err(StreamError(HranaError::new(
                        "BATON_INVALID",
                        "the baton belongs to another user's stream",
                    )));
                }
                if entry.seq != seq {
                    return Err(StreamError(HranaError::new(
                        "BATON_STALE",
                        "the baton was already used: each baton is good for one request, send \
                         the one the last response returned",
                    )));
                }
                match entry.state.take() {
                    Some(state) => {
                        entry.seq += 1;
                        return Ok(Lease {
                            streams: self.clone(),
                            id: Some(id),
                            seq: entry.seq,
                            state: Some(state),
                        });
                    }
                    None => entry.returned.clone().notified_owned(),
                }
            };
            // Made under the lock, the future sees every `notify_waiters` from
            // then on, even one that comes before it is first polled.
            if tokio::time::timeout_at(deadline.into(), returned)
                .await
                .is_err()
            {
                return Err(StreamError(HranaError::new(
                    "STREAM_BUSY",
                    "the stream is still in use by another request",
                )));
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Entry>> {
        // A panic while holding the lock leaves the map consistent (every
        // change is one insert or remove): carry on with it.
        self.open.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Closes every idle stream (at shutdown, so that the pool can close).
    pub async fn close_all(&self) {
        let states: Vec<StreamState> = self
            .lock()
            .drain()
            .filter_map(|(_, mut entry)| {
                entry.returned.notify_waiters();
                entry.state.take()
            })
            .collect();
        for state in states {
            state.close().await;
        }
    }

    /// Closes the streams idle for longer than the expiry, and those another
    /// session terminated (their transactions roll back now, not at expiry).
    async fn expire(&self) {
        let expiry = self.limits.expiry;
        let expired: Vec<StreamState> = {
            let mut open = self.lock();
            let ids: Vec<u64> = open
                .iter()
                .filter(|(_, e)| {
                    e.state
                        .as_ref()
                        .is_some_and(|state| e.last_used.elapsed() >= expiry || state.terminated())
                })
                .map(|(id, _)| *id)
                .collect();
            ids.iter()
                .filter_map(|id| open.remove(id))
                .filter_map(|mut entry| {
                    entry.returned.notify_waiters();
                    entry.state.take()
                })
                .collect()
        };
        for state in expired {
            tracing::debug!("closing an expired Hrana stream");
            state.close().await;
        }
    }
}

/// Checks for expired streams a few times per expiry period.
async fn expire_idle(streams: Weak<Streams>, shutdown: Shutdown) {
    let Some(period) = streams
        .upgrade()
        .map(|s| (s.limits.expiry / 4).clamp(Duration::from_millis(10), Duration::from_secs(1)))
    else {
        return;
    };
    let mut ticks = tokio::time::interval(period);
    loop {
        tokio::select! {
            _ = ticks.tick() => {}
            () = shutdown.wait() => return,
        }
        match streams.upgrade() {
            Some(streams) => streams.expire().await,
            None => return,
        }
    }
}

impl Lease {
    pub fn state(&mut self) -> Result<&mut StreamState, HranaError> {
        self.state
            .as_mut()
            .ok_or_else(|| HranaError::new("STREAM_CLOSED", "the stream was closed"))
    }

    /// The baton the stream answers to once this request is done (none for a
    /// stream that ends with the request).
    pub fn baton(&self) -> Option<String> {
        self.id.map(|id| self.streams.batons.sign(id, self.seq))
    }

    /// Gives the stream back for the next request, and returns its baton; or,
    /// when `close` (or when the stream was for this request only), ends it,
    /// rolling back what it left open.
    pub async fn finish(mut self, close: bool) -> Option<String> {
        let mut state = self.state.take()?;
        state.idle();
        let id = match self.id {
            Some(id) if !close => id,
            id => {
                if let Some(id) = id {
                    self.streams.lock().remove(&id);
                }
                state.close().await;
                return None;
            }
        };
        let mut open = self.streams.lock();
        let entry = open.get_mut(&id)?;
        entry.state = Some(state);
        entry.last_used = Instant::now();
        entry.returned.notify_waiters();
        drop(open);
        self.baton()
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let (Some(_), Some(id)) = (&self.state, self.id) {
            // Unfinished: the session is dropped with the lease, and its
            // connection's release rolls back what it left open.
            if let Some(entry) = self.streams.lock().remove(&id) {
                entry.returned.notify_waiters();
            }
        }
    }
}
