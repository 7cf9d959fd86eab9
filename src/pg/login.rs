//! Logging in on the PostgreSQL port: TLS required or not, then the password
//! exchange the server and user allow (SCRAM-SHA-256 by default; md5 and
//! cleartext over TLS when `--pg-auth-methods` asks for them), and the role the
//! session runs with. Once the client is in, startup continues as in trust mode
//! (`startup`): parameters, backend key, ReadyForQuery.
//!
//! Every failure after the user is named reads the same, `password
//! authentication failed for user "x"` (28P01): an unknown user runs a SCRAM
//! exchange against a mock verifier and fails at the end, like a wrong password.

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use futures::{Sink, SinkExt};
use pgwire::api::auth::{
    StartupHandler, protocol_negotiation, save_startup_parameters_to_metadata,
};
use pgwire::api::{ClientInfo, METADATA_USER, PgWireConnectionState};
use pgwire::error::{ErrorInfo, PgWireError, PgWireResult};
use pgwire::messages::startup::{Authentication, PasswordMessageFamily, Startup};
use pgwire::messages::{PgWireBackendMessage, PgWireFrontendMessage};
use pgwire::tokio::TlsAcceptor;

use crate::auth::md5::Md5Verifier;
use crate::auth::scram::{Exchange, Verifier};
use crate::auth::users::{Secret, User};
use crate::auth::{self, Auth};
use crate::config::PgAuthMethod;
use crate::engine::Role;

use super::startup::TrustStartup;

const SCRAM_SHA_256: &str = "SCRAM-SHA-256";

/// What the PostgreSQL port asks of a client before it is in.
pub struct Gate {
    pub auth: Arc<Auth>,
    pub tls: Option<TlsAcceptor>,
    /// Plain connections are refused.
    pub require_tls: bool,
}

/// One connection's login.
pub struct Login {
    gate: Arc<Gate>,
    /// The client came through a Unix-domain socket, which has no TLS and never
    /// leaves the machine: `--pg-require-tls` does not apply to it.
    local: bool,
    stage: Mutex<Stage>,
}

/// The startup message's contents, replayed to `TrustStartup` once the client is in.
struct Started {
    version: (u16, u16),
    parameters: BTreeMap<String, String>,
    user: String,
}

enum Stage {
    Waiting,
    /// SASL offered; the client's first message is next.
    ScramFirst(Started, Verifier, Option<Role>),
    /// Server-first sent; the proof is next.
    ScramFinal(Started, Exchange, Option<Role>),
    Md5(Started, Md5Verifier, [u8; 4], Role),
    Cleartext(Started),
    Done,
}

impl Login {
    pub fn new(gate: Arc<Gate>, local: bool) -> Login {
        Login {
            gate,
            local,
            stage: Mutex::new(Stage::Waiting),
        }
    }

    fn take_stage(&self) -> Stage {
        self.stage
            .lock()
            .map(|mut stage| std::mem::replace(&mut *stage, Stage::Done))
            .unwrap_or(Stage::Done)
    }

    fn set_stage(&self, next: Stage) {
        if let Ok(mut stage) = self.stage.lock() {
            *stage = next;
        }
    }

    /// Picks the exchange for `started.user` and sends its first message.
    async fn challenge<C>(&self, client: &mut C, started: Started) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        let auth = &self.gate.auth;
        let user = auth.user(&started.user);
        let methods = auth.pg_methods();
        let (message, stage) = match user {
            Some(User {
                secret: Secret::Md5(verifier),
                role,
            }) if methods.contains(&PgAuthMethod::Md5) => {
                let mut salt = [0u8; 4];
                ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut salt)
                    .map_err(|_| failed(&self.gate.auth, &started.user))?;
                let message = Authentication::MD5Password(salt.to_vec());
                (message, Stage::Md5(started, verifier.clone(), salt, *role))
            }
            _ if methods.contains(&PgAuthMethod::ScramSha256) => {
                let (verifier, role) = match user {
                    Some(found) => match &found.secret {
                        Secret::Scram(verifier) => (verifier.clone(), Some(found.role)),
                        Secret::Md5(_) => (auth.mock_verifier(&started.user), None),
                    },
                    None => (auth.mock_verifier(&started.user), None),
                };
                let message = Authentication::SASL(vec![SCRAM_SHA_256.to_owned()]);
                (message, Stage::ScramFirst(started, verifier, role))
            }
            _ if methods.contains(&PgAuthMethod::Password) && client.is_secure() => {
                (Authentication::CleartextPassword, Stage::Cleartext(started))
            }
            _ => {
                return Err(fatal(
                    "28000",
                    "no password method of this server fits this connection (cleartext \
                     passwords need TLS; see --pg-auth-methods)"
                        .to_owned(),
                ));
            }
        };
        self.set_stage(stage);
        client.set_state(PgWireConnectionState::AuthenticationInProgress);
        client
            .send(PgWireBackendMessage::Authentication(message))
            .await?;
        Ok(())
    }

    /// The next step of the exchange in progress.
    async fn answer<C>(&self, client: &mut C, message: PasswordMessageFamily) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        match self.take_stage() {
            Stage::ScramFirst(started, verifier, role) => {
                let initial = message.into_sasl_initial_response()?;
                if initial.auth_method != SCRAM_SHA_256 {
                    return Err(PgWireError::UnsupportedSASLAuthMethod(initial.auth_method));
                }
                let data = initial.data.unwrap_or_default();
                let (exchange, server_first) = Exchange::start(verifier, &data)
                    .map_err(|_| failed(&self.gate.auth, &started.user))?;
                self.set_stage(Stage::ScramFinal(started, exchange, role));
                client
                    .send(PgWireBackendMessage::Authentication(
                        Authentication::SASLContinue(server_first.into_bytes().into()),
                    ))
                    .await?;
                Ok(())
            }
            Stage::ScramFinal(started, exchange, role) => {
                let response = message.into_sasl_response()?;
                let server_final = exchange.finish(&response.data);
                match (server_final, role) {
                    (Ok(server_final), Some(role)) => {
                        client
                            .feed(PgWireBackendMessage::Authentication(
                                Authentication::SASLFinal(server_final.into_bytes().into()),
                            ))
                            .await?;
                        admit(client, started, role).await
                    }
                    _ => Err(failed(&self.gate.auth, &started.user)),
                }
            }
            Stage::Md5(started, verifier, salt, role) => {
                let password = message.into_password()?;
                if verifier.check_response(&salt, &password.password) {
                    admit(client, started, role).await
                } else {
                    Err(failed(&self.gate.auth, &started.user))
                }
            }
            Stage::Cleartext(started) => {
                let password = message.into_password()?;
                match self
                    .gate
                    .auth
                    .check_password(&started.user, &password.password)
                {
                    Some(role) => admit(client, started, role).await,
                    None => Err(failed(&self.gate.auth, &started.user)),
                }
            }
            Stage::Waiting | Stage::Done => {
                Err(fatal("08P01", "unexpected password message".to_owned()))
            }
        }
    }
}

#[async_trait]
impl StartupHandler for Login {
    async fn on_startup<C>(
        &self,
        client: &mut C,
        message: PgWireFrontendMessage,
    ) -> PgWireResult<()>
    where
        C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
        C::Error: Debug,
        PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
    {
        match message {
            PgWireFrontendMessage::Startup(startup) => {
                if self.gate.require_tls && !self.local && !client.is_secure() {
                    return Err(fatal(
                        "28000",
                        "this server accepts only TLS connections (use sslmode=require or \
                         stronger)"
                            .to_owned(),
                    ));
                }
                if !self.gate.auth.enabled() {
                    client.session_extensions().insert(Role::ReadWrite);
                    return TrustStartup
                        .on_startup(client, PgWireFrontendMessage::Startup(startup))
                        .await;
                }
                protocol_negotiation(client, &startup).await?;
                save_startup_parameters_to_metadata(client, &startup);
                super::startup::check_startup_settings(client)?;
                let user = client
                    .metadata()
                    .get(METADATA_USER)
                    .cloned()
                    .unwrap_or_default();
                let started = Started {
                    version: (startup.protocol_number_major, startup.protocol_number_minor),
                    parameters: startup.parameters,
                    user,
                };
                self.challenge(client, started).await
            }
            PgWireFrontendMessage::PasswordMessageFamily(message) => {
                self.answer(client, message).await
            }
            _ => Ok(()),
        }
    }
}

/// Lets the client in as `role`: the rest of startup is trust mode's.
async fn admit<C>(client: &mut C, started: Started, role: Role) -> PgWireResult<()>
where
    C: ClientInfo + Sink<PgWireBackendMessage> + Unpin + Send + Sync,
    C::Error: Debug,
    PgWireError: From<<C as Sink<PgWireBackendMessage>>::Error>,
{
    client.session_extensions().insert(role);
    let mut startup = Startup::new();
    (startup.protocol_number_major, startup.protocol_number_minor) = started.version;
    startup.parameters = started.parameters;
    TrustStartup
        .on_startup(client, PgWireFrontendMessage::Startup(startup))
        .await
}

fn failed(auth: &Auth, user: &str) -> PgWireError {
    auth.count_failure();
    fatal("28P01", auth::failed(user))
}

fn fatal(code: &str, message: String) -> PgWireError {
    PgWireError::UserError(Box::new(ErrorInfo::new(
        "FATAL".to_owned(),
        code.to_owned(),
        message,
    )))
}
