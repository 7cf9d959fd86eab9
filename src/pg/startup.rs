//! Connection startup: trust authentication and the ParameterStatus set clients
//! rely on (psql picks its catalog queries by `server_version`; pgbench sends
//! `COPY ... FREEZE` from 14 on).

use std::fmt::Debug;
use std::sync::atomic::{AtomicI32, Ordering};

use async_trait::async_trait;
use futures::Sink;
use std::collections::HashMap;

use pgwire::api::auth::{
    ServerParameterProvider, StartupHandler, finish_authentication, protocol_negotiation,
    save_startup_parameters_to_metadata,
};
use pgwire::api::{ClientInfo, METADATA_DATABASE, METADATA_USER};
use pgwire::error::{PgWireError, PgWireResult};
use pgwire::messages::startup::SecretKey;
use pgwire::messages::{PgWireBackendMessage, PgWireFrontendMessage};

use crate::engine::{Role, SessionIdentity, Settings};

/// Backend process ids are per connection, as in PostgreSQL.
static NEXT_PID: AtomicI32 = AtomicI32::new(1);

pub struct TrustStartup;

/// Who the client said it is, and the settings it asked for at startup.
pub fn session_start<C: ClientInfo>(client: &C) -> (SessionIdentity, Settings) {
    let metadata = client.metadata();
    let user = metadata
        .get(METADATA_USER)
        .cloned()
        .unwrap_or_else(|| "litewire".to_owned());
    let database = metadata
        .get(METADATA_DATABASE)
        .cloned()
        .unwrap_or_else(|| user.clone());
    let mut startup: Vec<(String, String)> = metadata
        .iter()
        .filter(|(name, _)| *name != METADATA_USER && *name != METADATA_DATABASE)
        .map(|(name, value)| (name.clone(), value.clone()))
        .collect();
    startup.push(("session_authorization".to_owned(), user.clone()));
    let identity = SessionIdentity {
        user,
        database,
        backend_pid: client.pid_and_secret_key().0,
        // Set by the login (`login`); a client that skipped it has no rights.
        role: client
            .session_extensions()
            .get::<Role>()
            .map_or(Role::ReadOnly, |role| *role),
    };
    (identity, Settings::new(&startup))
}

/// The ParameterStatus set sent at startup: every reported setting, as the
/// session will start with it.
struct StartupParameters;

impl ServerParameterProvider for StartupParameters {
    fn server_parameters<C>(&self, client: &C) -> Option<HashMap<String, String>>
    where
        C: ClientInfo,
    {
        let (_, settings) = session_start(client);
        Some(settings.reported().into_iter().collect())
    }
}

#[async_trait]
impl StartupHandler for TrustStartup {
    async fn on_startup<C>(
        &self,
        client: &mut C,
        message: PgWireFrontendMessage,
    ) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        if let PgWireFrontendMessage::Startup(ref startup) = message {
            protocol_negotiation(client, startup).await?;
            save_startup_parameters_to_metadata(client, startup);
            let pid = NEXT_PID.fetch_add(1, Ordering::Relaxed);
            client.set_pid_and_secret_key(pid, SecretKey::I32(pid.rotate_left(13) ^ 0x5bd1_e995));
            finish_authentication(client, &StartupParameters).await?;
        }
        Ok(())
    }
}
