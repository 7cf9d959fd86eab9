//! Thread-per-core serving: one single-threaded runtime per worker thread, and each
//! accepted connection handed whole to one of them, round robin.
//!
//! Why not tokio's work-stealing runtime: a PostgreSQL client's round trip is a few
//! microseconds of work (decode, run the statement on the session's own SQLite
//! handle, encode). On a work-stealing runtime every socket wake-up may also wake an
//! idle worker to steal it, so each round trip paid futex wake-ups and a migration
//! between threads; under `pgbench -c 8` on 2 CPUs that was most of the server's
//! time. A connection that stays on one thread costs one wake-up per round trip, and
//! a busy thread serves many ready sockets per `epoll_wait`.
//!
//! A connection is registered with its worker's reactor (`from_std` inside the
//! worker), so its readiness events are delivered on the thread that runs it.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::net::{TcpListener, TcpStream};
use tokio::runtime::Handle;
use tokio::sync::oneshot;
use tokio::task::JoinSet;

use crate::server::Shutdown;

/// The pause after a failed `accept`.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// The worker threads, each running its own current-thread runtime until dropped.
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
    /// Starts `count` worker threads (at least one).
    pub fn start(count: usize) -> std::io::Result<Workers> {
        let workers = (0..count.max(1))
            .map(Worker::start)
            .collect::<std::io::Result<Vec<_>>>()?;
        Ok(Workers {
            workers,
            next: AtomicUsize::new(0),
        })
    }

    /// Accepts connections until `shutdown` fires, handing each to the next worker
    /// to be served by `serve` there; then waits for the connections in flight
    /// (which watch `shutdown` themselves) to finish.
    pub async fn accept<F, Fut>(&self, listener: TcpListener, shutdown: &Shutdown, serve: F)
    where
        F: Fn(TcpStream, SocketAddr) -> Fut + Clone + Send + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let mut connections = JoinSet::new();
        loop {
            tokio::select! {
                accepted = listener.accept() => {
                    // Leave the accepting thread's reactor; the worker registers it.
                    match accepted.and_then(|(socket, peer)| Ok((socket.into_std()?, peer))) {
                        Ok((socket, peer)) => {
                            let serve = serve.clone();
                            connections.spawn_on(
                                async move {
                                    match TcpStream::from_std(socket) {
                                        Ok(socket) => serve(socket, peer).await,
                                        Err(error) => tracing::warn!(%error, %peer, "registering a connection failed"),
                                    }
                                },
                                self.next(),
                            );
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
    }

    /// The runtime the next connection goes to.
    fn next(&self) -> &Handle {
        let index = self.next.fetch_add(1, Ordering::Relaxed) % self.workers.len();
        &self.workers[index].handle
    }
}

impl Worker {
    fn start(index: usize) -> std::io::Result<Worker> {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()?;
        let handle = runtime.handle().clone();
        let (stop, stopped) = oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name(format!("litewire-worker-{index}"))
            .spawn(move || {
                // Runs the connections spawned onto it until told to stop; dropping
                // the runtime then drops whatever is left.
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
