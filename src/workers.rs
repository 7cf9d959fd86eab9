//! The threads that serve connections, and the accept loop that hands connections to
//! them. Two arrangements (`--thread-per-core`):
//!
//! - **Work-stealing (the default)**: one tokio multi-thread runtime with a worker
//!   per CPU. A connection's task may move between threads, and a statement that
//!   outlives a short budget hands its thread's other tasks to a fresh thread (see
//!   `engine::control`), so long statements on every worker still stall nobody.
//! - **Thread per core**: one single-threaded runtime per CPU, and each connection
//!   handed whole to one of them, round robin. A round trip wakes one thread, not a
//!   second one to steal the task, which made `pgbench -S -M prepared -c 8` on 2 CPUs
//!   faster (docs/BENCHMARKS.md has the figures). The price: a statement runs to the end on its
//!   thread, so a long query (or a lock wait in SQLite's busy handler) stalls every
//!   connection that shares the thread.
//!
//! PostgreSQL connections first go through a triage on the accepting thread, which
//! never runs statements: a CancelRequest is answered there, even while every
//! worker is busy with the statements it would cancel.
//!
//! Either way the accepting runtime gives up the socket (`into_std`) and the serving
//! one registers it (`from_std` inside the task), so readiness events are delivered
//! where the connection runs.

use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::runtime::Handle;
use tokio::sync::oneshot;
use tokio::task::JoinSet;

use crate::engine::ClientAddress;
use crate::listener::{Handover, Listener, Stream};
use crate::shutdown::Shutdown;

/// The pause after a failed `accept`.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// The runtimes that serve connections, running until dropped.
pub struct Workers {
    workers: Vec<Worker>,
    next: AtomicUsize,
}

struct Worker {
    handle: Handle,
    stop: Option<oneshot::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Workers {
    /// Starts `count` worker threads (at least one): one work-stealing runtime, or
    /// with `per_core` one single-threaded runtime each.
    pub fn start(count: usize, per_core: bool) -> std::io::Result<Workers> {
        let count = count.max(1);
        let workers = if per_core {
            (0..count)
                .map(|index| {
                    Worker::start(
                        tokio::runtime::Builder::new_current_thread(),
                        format!("litewire-worker-{index}"),
                    )
                })
                .collect::<std::io::Result<Vec<_>>>()?
        } else {
            let mut runtime = tokio::runtime::Builder::new_multi_thread();
            runtime.worker_threads(count).thread_name("litewire-worker");
            vec![Worker::start(runtime, "litewire-workers".to_owned())?]
        };
        Ok(Workers {
            workers,
            next: AtomicUsize::new(0),
        })
    }

    /// Accepts connections until `shutdown` fires, handing each to the next worker
    /// to be served by `serve` there; then waits for the connections in flight
    /// (which watch `shutdown` themselves) to finish.
    pub async fn accept<F, Fut>(&self, listener: Listener, shutdown: &Shutdown, serve: F)
    where
        F: Fn(Stream, ClientAddress) -> Fut + Clone + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.accept_with(listener, shutdown, None::<NoTriage>, serve)
            .await;
    }

    /// As [`Workers::accept`], but each connection first goes through `triage` on
    /// the accepting thread, which never runs statements: it may answer the
    /// connection itself (`None`) or give it back to be served by a worker. A
    /// PostgreSQL CancelRequest must be answered even while every worker is busy
    /// running statements.
    pub async fn accept_triaged<T, TFut, F, Fut>(
        &self,
        listener: Listener,
        shutdown: &Shutdown,
        triage: T,
        serve: F,
    ) where
        T: Fn(Stream) -> TFut + Clone + 'static,
        TFut: Future<Output = Option<Stream>> + 'static,
        F: Fn(Stream, ClientAddress) -> Fut + Clone + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        self.accept_with(listener, shutdown, Some(triage), serve)
            .await;
    }

    async fn accept_with<T, TFut, F, Fut>(
        &self,
        listener: Listener,
        shutdown: &Shutdown,
        triage: Option<T>,
        serve: F,
    ) where
        T: Fn(Stream) -> TFut + Clone + 'static,
        TFut: Future<Output = Option<Stream>> + 'static,
        F: Fn(Stream, ClientAddress) -> Fut + Clone + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let mut connections = JoinSet::new();
        // Triage runs here, on the accepting thread (a current-thread runtime).
        let local = tokio::task::LocalSet::new();
        let accepting = async {
            loop {
                tokio::select! {
                    accepted = listener.accept() => {
                        match accepted {
                            Ok((socket, peer)) => {
                                let worker = self.next().clone();
                                let serve = serve.clone();
                                match &triage {
                                    Some(triage) => {
                                        let triage = triage.clone();
                                        let handed = tokio::task::spawn_local(async move {
                                            if let Some(socket) = triage(socket).await
                                                && let Some(socket) = leave(socket, peer)
                                            {
                                                let _ = worker.spawn(serve_on_worker(socket, peer, serve)).await;
                                            }
                                        });
                                        connections.spawn(async move { let _ = handed.await; });
                                    }
                                    None => {
                                        if let Some(socket) = leave(socket, peer) {
                                            connections.spawn_on(serve_on_worker(socket, peer, serve), &worker);
                                        }
                                    }
                                }
                            }
                            Err(error) if is_connection_error(&error) => {
                                tracing::debug!(%error, "a connection ended before it was accepted");
                            }
                            Err(error) => {
                                // Out of file descriptors, most likely: give connections
                                // in flight a moment to end instead of spinning on it.
                                tracing::warn!(%error, "accepting a connection failed");
                                tokio::time::sleep(ACCEPT_BACKOFF).await;
                            }
                        }
                    }
                    Some(_) = connections.join_next(), if !connections.is_empty() => {}
                    () = shutdown.wait() => break,
                }
            }
            while connections.join_next().await.is_some() {}
        };
        local.run_until(accepting).await;
    }

    /// The runtime the next connection goes to.
    fn next(&self) -> &Handle {
        let index = self.next.fetch_add(1, Ordering::Relaxed) % self.workers.len();
        &self.workers[index].handle
    }
}

/// The accepting runtime gives up the socket (`into_std`) and the serving one
/// registers it ([`serve_on_worker`]), so that readiness events are delivered
/// where it is served.
fn leave(socket: Stream, peer: ClientAddress) -> Option<Handover> {
    match socket.into_handover() {
        Ok(socket) => Some(socket),
        Err(error) => {
            tracing::warn!(%error, %peer, "handing a connection over failed");
            None
        }
    }
}

async fn serve_on_worker<F, Fut>(socket: Handover, peer: ClientAddress, serve: F)
where
    F: Fn(Stream, ClientAddress) -> Fut,
    Fut: Future<Output = ()>,
{
    match socket.register() {
        Ok(socket) => serve(socket, peer).await,
        Err(error) => tracing::warn!(%error, %peer, "registering a connection failed"),
    }
}

/// The stack of a thread that serves connections. A statement is read and
/// run through nested futures and recursive readings (a cursor's or COPY's
/// query inside a statement), which an unoptimized build lays out on far more
/// stack than a release build: 2 MiB, a thread's default, was found too
/// little there. Only the pages a thread touches are ever committed.
const SERVING_STACK: usize = 8 * 1024 * 1024;

/// The triage of connections that need none.
type NoTriage = fn(Stream) -> std::future::Ready<Option<Stream>>;

/// Errors of one connection, not of the listener: the next accept may succeed at once.
fn is_connection_error(error: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(
        error.kind(),
        ConnectionAborted | ConnectionRefused | ConnectionReset
    )
}

impl Worker {
    /// Builds the runtime and keeps it on a thread of its own, which drops it (with
    /// whatever is left on it) when told to stop: a runtime must not be dropped from
    /// async code.
    fn start(mut runtime: tokio::runtime::Builder, name: String) -> std::io::Result<Worker> {
        let runtime = runtime
            .enable_all()
            .thread_stack_size(SERVING_STACK)
            .build()?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(name)
            .stack_size(SERVING_STACK)
            .spawn(move || {
                // A current-thread runtime runs its connections here; a multi-thread
                // one on its own workers, while this thread only waits.
                let _ = runtime.block_on(stopped);
            })?;
        Ok(Worker {
            handle,
            stop: Some(stop),
            thread: Some(thread),
        })
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}
