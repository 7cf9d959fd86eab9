//! Connection startup: trust authentication and the ParameterStatus set clients
//! rely on (psql picks its catalog queries by `server_version`; pgbench sends
//! `COPY ... FREEZE` from 14 on).

use std::fmt::Debug;
use std::sync::Arc;

use async_trait::async_trait;
use futures::Sink;
use std::collections::HashMap;

use pgwire::api::auth::{
    ServerParameterProvider, StartupHandler, finish_authentication, protocol_negotiation,
    save_startup_parameters_to_metadata,
};
use pgwire::api::{ClientInfo, METADATA_DATABASE, METADATA_USER};
use pgwire::error::{ErrorInfo, PgWireError, PgWireResult};
use pgwire::messages::{PgWireBackendMessage, PgWireFrontendMessage};

use crate::engine::{Role, SessionIdentity, Settings};
use crate::sql::time_zone::Zone;

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
    let mut startup = startup_settings(client);
    startup.push(("session_authorization".to_owned(), user.clone()));
    let identity = SessionIdentity {
        user: Arc::from(user),
        database: Arc::from(database),
        backend_pid: client.pid_and_secret_key().0,
        // Set by the login (`login`); a client that skipped it has no rights.
        role: client
            .session_extensions()
            .get::<Role>()
            .map_or(Role::ReadOnly, |role| *role),
    };
    (identity, Settings::new(&startup))
}

/// The settings a client asked for at startup: its parameters, and those in
/// `options`.
fn startup_settings<C: ClientInfo>(client: &C) -> Vec<(String, String)> {
    client
        .metadata()
        .iter()
        .filter(|(name, _)| *name != METADATA_USER && *name != METADATA_DATABASE)
        .flat_map(|(name, value)| match name.as_str() {
            "options" => command_line_options(value),
            _ => vec![(name.clone(), value.clone())],
        })
        .collect()
}

/// Refuses the connection, as PostgreSQL does (FATAL, 22023), when a
/// startup setting names no time zone (`PGTZ=Nowhere`).
pub(super) fn check_startup_settings<C: ClientInfo>(client: &C) -> PgWireResult<()> {
    for (name, value) in startup_settings(client) {
        if name.eq_ignore_ascii_case("timezone") && Zone::setting(&value).is_none() {
            let message = format!("invalid value for parameter \"TimeZone\": \"{value}\"");
            let info = ErrorInfo::new("FATAL".to_owned(), "22023".to_owned(), message);
            return Err(PgWireError::UserError(Box::new(info)));
        }
    }
    Ok(())
}

/// The `options` startup parameter (`PGOPTIONS`): settings given as command-line
/// switches, `-c name=value` or `--name=value`, separated by spaces (a backslash
/// keeps the next character, spaces included).
fn command_line_options(options: &str) -> Vec<(String, String)> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut chars = options.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => word.extend(chars.next()),
            c if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            c => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    let mut settings = Vec::new();
    let mut words = words.into_iter();
    while let Some(word) = words.next() {
        let assignment = match word.as_str() {
            "-c" => words.next(),
            _ => word
                .strip_prefix("--")
                .or_else(|| word.strip_prefix("-c"))
                .map(str::to_owned),
        };
        if let Some((name, value)) = assignment.as_deref().and_then(|a| a.split_once('=')) {
            settings.push((name.replace('-', "_"), value.to_owned()));
        }
    }
    settings
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
            check_startup_settings(client)?;
            finish_authentication(client, &StartupParameters).await?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::command_line_options;

    #[test]
    fn options_as_libpq_sends_them() {
        assert_eq!(
            command_line_options(
                "-c statement_timeout=300  --lock-timeout=1s -capplication_name=a\\ b"
            ),
            vec![
                ("statement_timeout".to_owned(), "300".to_owned()),
                ("lock_timeout".to_owned(), "1s".to_owned()),
                ("application_name".to_owned(), "a b".to_owned()),
            ]
        );
        assert!(command_line_options("-c").is_empty());
    }
}
