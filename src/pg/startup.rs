//! Connection startup: trust authentication and the ParameterStatus set clients
//! rely on (psql picks its catalog queries by `server_version`; pgbench sends
//! `COPY ... FREEZE` from 14 on).

use std::fmt::Debug;
use std::sync::atomic::{AtomicI32, Ordering};

use async_trait::async_trait;
use futures::Sink;
use pgwire::api::ClientInfo;
use pgwire::api::auth::{
    DefaultServerParameterProvider, StartupHandler, finish_authentication, protocol_negotiation,
    save_startup_parameters_to_metadata,
};
use pgwire::error::{PgWireError, PgWireResult};
use pgwire::messages::startup::SecretKey;
use pgwire::messages::{PgWireBackendMessage, PgWireFrontendMessage};

/// The PostgreSQL version litewire presents itself as.
pub const SERVER_VERSION: &str = concat!("15.0 (litewire ", env!("CARGO_PKG_VERSION"), ")");

/// Backend process ids are per connection, as in PostgreSQL.
static NEXT_PID: AtomicI32 = AtomicI32::new(1);

pub struct TrustStartup;

fn server_parameters() -> DefaultServerParameterProvider {
    let mut params = DefaultServerParameterProvider::default();
    params.server_version = SERVER_VERSION.to_owned();
    params.server_encoding = "UTF8".to_owned();
    params.client_encoding = Some("UTF8".to_owned());
    params.date_style = "ISO, MDY".to_owned();
    params.interval_style = "postgres".to_owned();
    params.time_zone = "Etc/UTC".to_owned();
    params.integer_datetimes = true;
    params.standard_conforming_strings = true;
    params.is_superuser = true;
    params
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
            finish_authentication(client, &server_parameters()).await?;
        }
        Ok(())
    }
}
