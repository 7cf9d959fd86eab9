//! How the server learns it must stop, and how everything that serves learns it.
//!
//! `signal` turns SIGINT/SIGTERM into a future; a [`ShutdownTrigger`] fires a
//! [`Shutdown`] that every listener and connection holds a clone of and watches, so
//! that accepting stops and work in flight can finish or be cut short in one place.

use tokio::sync::watch;

/// A cloneable signal that the server is shutting down.
#[derive(Clone, Debug)]
pub struct Shutdown {
    receiver: watch::Receiver<bool>,
}

/// The sending side of [`Shutdown`].
#[derive(Debug)]
pub struct ShutdownTrigger {
    sender: watch::Sender<bool>,
}

impl Shutdown {
    pub fn new() -> (ShutdownTrigger, Shutdown) {
        let (sender, receiver) = watch::channel(false);
        (ShutdownTrigger { sender }, Shutdown { receiver })
    }

    /// Whether shutdown has been triggered: an atomic read, cheap enough for every
    /// message. This receiver never marks a value seen, and the only value ever
    /// sent is `true`, so any change means shutdown (as does a dropped trigger).
    pub fn is_triggered(&self) -> bool {
        self.receiver.has_changed().unwrap_or(true)
    }

    /// Resolves once shutdown has been triggered (at once if it already was).
    pub async fn wait(&self) {
        let mut receiver = self.receiver.clone();
        // An error means the trigger is gone, which also means: shut down.
        let _ = receiver.wait_for(|stopping| *stopping).await;
    }
}

impl ShutdownTrigger {
    pub fn trigger(&self) {
        self.sender.send_replace(true);
    }
}

/// Listens for SIGINT and SIGTERM from the moment it is called (so that a signal
/// sent as soon as the server announces itself is not missed); the returned
/// future resolves on the first. Call it inside the runtime.
pub fn signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let term = signal(SignalKind::terminate());
        let interrupt = signal(SignalKind::interrupt());
        async move {
            match (term, interrupt) {
                (Ok(mut term), Ok(mut interrupt)) => {
                    tokio::select! {
                        _ = term.recv() => {}
                        _ = interrupt.recv() => {}
                    }
                }
                _ => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}
