//! Running the whole server: engine, both listeners, and a clean shutdown.
//!
//! On SIGINT/SIGTERM the listeners stop accepting, each PostgreSQL client is told
//! (FATAL 57P01), requests and statements in flight finish or, past the grace
//! period (`--shutdown-grace-ms`), are stopped, sessions roll back what they left
//! open, and the pool closes so the WAL is checkpointed into the database file.

use std::sync::Arc;

use tokio::net::TcpListener;

use crate::auth::Auth;
use crate::config::Config;
use crate::engine::{Engine, StopReason};
use crate::error::Error;
use crate::listener::Listener;
use crate::shutdown::Shutdown;
use crate::tls::Tls;
use crate::workers::Workers;
use crate::{http, pg};

/// A server that is bound and about to serve.
pub struct Server {
    engine: Arc<Engine>,
    pg_listener: TcpListener,
    /// `--pg-socket-dir`'s.
    pg_socket_listeners: Vec<Listener>,
    http_listener: TcpListener,
    /// `--metrics-listen`'s.
    metrics_listener: Option<TcpListener>,
    workers: Arc<Workers>,
    auth: Arc<Auth>,
    tls: Option<Tls>,
    config: Config,
}

impl Server {
    /// Checks the security settings, opens the database and binds both listeners.
    pub async fn bind(mut config: Config) -> Result<Server, Box<dyn std::error::Error>> {
        // Looked for once: Litestream's directory may appear later.
        config.replication = Some(config.replication());
        let auth = Arc::new(Auth::from_config(&config)?);
        let tls = Tls::from_config(&config)?;
        if config.pg_require_tls && tls.is_none() {
            return Err(
                "--pg-require-tls needs TLS: give --tls-cert and --tls-key, or \
                        --tls-self-signed"
                    .into(),
            );
        }
        let workers = Arc::new(Workers::start(config.workers(), config.thread_per_core)?);
        // The operations listener opens first: while the database opens, its
        // `/ready` answers 503.
        let metrics_listener = match config.metrics_listen {
            Some(address) => {
                let listener = std::net::TcpListener::bind(address)?;
                listener.set_nonblocking(true)?;
                Some(listener)
            }
            None => None,
        };
        let starting = match &metrics_listener {
            Some(listener) => Some(TcpListener::from_std(listener.try_clone()?)?),
            None => None,
        };
        let (started, stop) = Shutdown::new();
        let opening = async {
            let engine = Engine::open(&config).await;
            started.trigger();
            engine
        };
        let answering = async {
            if let Some(listener) = starting {
                let router = http::starting_router();
                http::serve_router(listener, router, workers.clone(), None, stop).await;
            }
        };
        let (engine, ()) = tokio::join!(opening, answering);
        let engine = engine?;
        report_build(&engine);
        let pg_listener = TcpListener::bind(config.pg_listen).await?;
        let port = pg_listener.local_addr()?.port();
        let pg_socket_listeners = config
            .pg_socket_dirs()
            .iter()
            .map(|dir| {
                Listener::unix(dir, port, config.pg_socket_permissions, &config.db).map_err(
                    |error| {
                        format!(
                            "could not create a Unix-domain socket in directory \"{}\": {error}",
                            dir.display()
                        )
                    },
                )
            })
            .collect::<Result<Vec<_>, _>>()?;
        let http_listener = TcpListener::bind(config.http_listen).await?;
        let metrics_listener = metrics_listener.map(TcpListener::from_std).transpose()?;
        Ok(Server {
            engine,
            pg_listener,
            pg_socket_listeners,
            http_listener,
            metrics_listener,
            workers,
            auth,
            tls,
            config,
        })
    }

    /// Serves until `shutdown` fires, then shuts down cleanly.
    pub async fn run(self, shutdown: Shutdown) -> Result<(), Error> {
        tracing::info!(
            postgres = %self.pg_listener.local_addr().map_or_else(|e| e.to_string(), |a| a.to_string()),
            postgres_sockets = %self.pg_socket_listeners.iter().map(Listener::describe).collect::<Vec<_>>().join(", "),
            http = %self.http_listener.local_addr().map_or_else(|e| e.to_string(), |a| a.to_string()),
            metrics = %self.metrics_listener.as_ref().and_then(|l| l.local_addr().ok()).map_or_else(|| "off".to_owned(), |a| a.to_string()),
            db = %self.config.db.display(),
            cache = self.config.cache.as_str(),
            replication = self.config.replication().as_str(),
            auth = if self.auth.enabled() { "password" } else { "trust" },
            users = self.auth.user_count(),
            tls = self.tls.is_some(),
            "litewire is serving"
        );
        let gate = Arc::new(pg::Gate {
            auth: self.auth.clone(),
            tls: self.tls.as_ref().map(|tls| tls.postgres.clone()),
            require_tls: self.config.pg_require_tls,
        });
        // Once shutdown has begun and the grace period is over, running
        // statements are stopped, so that their connections can close.
        let grace = self.config.shutdown_grace();
        let engine = self.engine.clone();
        let stopping = shutdown.clone();
        let stopper = tokio::spawn(async move {
            stopping.wait().await;
            tokio::time::sleep(grace).await;
            tracing::info!("stopping the statements still running");
            engine.stop_all(StopReason::Shutdown);
        });
        let mut pg_listeners = vec![Listener::Tcp(self.pg_listener)];
        pg_listeners.extend(self.pg_socket_listeners);
        let pg = pg::serve(
            pg_listeners,
            self.engine.clone(),
            self.workers.clone(),
            gate,
            &self.config,
            shutdown.clone(),
        );
        let http = http::serve(
            self.http_listener,
            self.engine.clone(),
            self.workers.clone(),
            &self.config,
            self.auth.clone(),
            self.tls.as_ref().map(|tls| tls.http.clone()),
            shutdown.clone(),
        );
        // The operations listener outlives the others: while they drain it
        // answers `/ready` with 503 (and `/metrics` with the draining).
        let (drained, operations_stop) = Shutdown::new();
        let operations = async {
            if let Some(listener) = self.metrics_listener {
                http::serve_operations(
                    listener,
                    self.engine.clone(),
                    self.workers.clone(),
                    &self.config,
                    self.auth.clone(),
                    shutdown,
                    operations_stop,
                )
                .await;
            }
        };
        let serving = async {
            tokio::join!(pg, http);
            drained.trigger();
        };
        tokio::join!(serving, operations);
        stopper.abort();
        self.engine.close().await;
        tracing::info!("litewire stopped");
        Ok(())
    }
}

/// Logs SQLite's version and compile options, and warns when the build lost
/// `.cargo/config.toml`'s flags (a shell `LIBSQLITE3_FLAGS` overrides them).
fn report_build(engine: &Engine) {
    let info = engine.info();
    tracing::info!(
        sqlite = %info.sqlite_version,
        options = %info.compile_options.join(" "),
        "SQLite build"
    );
    for defect in info.build_defects() {
        tracing::warn!(
            "SQLite was {defect}. Was LIBSQLITE3_FLAGS set in the shell when building? Unset it \
             and rebuild."
        );
    }
}
