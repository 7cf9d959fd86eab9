//! Who a client is, for both front ends: one credential store (the users file,
//! `LITEWIRE_PASSWORD`), one answer to a wrong password or an unknown user (the
//! same, so names cannot be probed), and the role a login grants.
//!
//! - [`scram`]: SCRAM-SHA-256 verifiers in PostgreSQL's format and the server
//!   side of the exchange (the PostgreSQL port; HTTP Basic checks a password
//!   against the same verifier).
//! - [`md5`]: PostgreSQL's md5 method, opt-in for old clients.
//! - [`jwt`]: Ed25519-signed bearer tokens for HTTP.
//! - [`users`]: the users file.
//!
//! With no users, the server trusts everyone as `readwrite`; it refuses to do so
//! on a non-loopback listener unless `--auth trust` says it is meant.

pub mod jwt;
pub mod md5;
pub mod scram;
pub mod users;

use std::collections::HashMap;
use std::io::{BufRead, IsTerminal};
use std::sync::Mutex;

use crate::config::{Config, PgAuthMethod};
use crate::engine::Role;
use jwt::JwtKey;
use scram::Verifier;
use users::{Secret, User, Users};

/// The user `LITEWIRE_PASSWORD` is the password of.
pub const DEFAULT_ADMIN: &str = "postgres";

/// The credential store and the rules for using it.
#[derive(Debug)]
pub struct Auth {
    enabled: bool,
    users: Users,
    jwt: Option<JwtKey>,
    pg_methods: Vec<PgAuthMethod>,
    /// Makes unknown users' SCRAM salts stable and unguessable.
    mock_secret: [u8; 32],
    /// Logins refused so far, both ports (`/metrics`).
    failures: std::sync::atomic::AtomicU64,
    /// HTTP Basic sends the password with every request; deriving SCRAM's keys
    /// (4096 HMAC rounds) each time would cost more than most statements. The last
    /// password that matched each user is remembered as a salted hash.
    recent: Mutex<HashMap<String, [u8; 32]>>,
}

impl Auth {
    /// The store `config` describes; refuses a trusting server on a non-loopback
    /// listener unless `--auth trust` was given.
    pub fn from_config(config: &Config) -> Result<Auth, String> {
        let mut users = match &config.users {
            Some(path) => Users::load(path)?,
            None => Users::default(),
        };
        if let Some(password) = &config.password {
            if password.is_empty() {
                return Err("LITEWIRE_PASSWORD is set but empty".to_owned());
            }
            users.insert(
                DEFAULT_ADMIN,
                User {
                    role: Role::Admin,
                    secret: Secret::Scram(Verifier::new(password)?),
                },
            );
        }
        let jwt = config
            .jwt_key_file
            .as_deref()
            .map(JwtKey::load)
            .transpose()?;
        let enabled = config.auth_enabled();
        if enabled && users.is_empty() && jwt.is_none() {
            return Err(
                "--auth password needs users: give --users FILE (lines from `litewire \
                        passwd NAME`) or set LITEWIRE_PASSWORD"
                    .to_owned(),
            );
        }
        if !enabled && config.auth.is_none() {
            let exposed: Vec<String> = [config.pg_listen, config.http_listen]
                .iter()
                .filter(|addr| !addr.ip().is_loopback())
                .map(ToString::to_string)
                .collect();
            if !exposed.is_empty() {
                return Err(format!(
                    "refusing to let everyone in without a password on {}: set LITEWIRE_PASSWORD \
                     (the password of user \"postgres\"), or give --users FILE (lines from \
                     `litewire passwd NAME`), or pass --auth trust if this network is trusted",
                    exposed.join(" and ")
                ));
            }
        }
        let mut mock_secret = [0u8; 32];
        ring::rand::SecureRandom::fill(&ring::rand::SystemRandom::new(), &mut mock_secret)
            .map_err(|_| "the system's random number generator failed".to_owned())?;
        Ok(Auth {
            enabled,
            users,
            jwt,
            pg_methods: config.pg_auth_methods.clone(),
            mock_secret,
            failures: Default::default(),
            recent: Mutex::new(HashMap::new()),
        })
    }

    /// Whether clients must authenticate.
    pub fn enabled(&self) -> bool {
        self.enabled
    }

    pub fn user(&self, name: &str) -> Option<&User> {
        self.users.get(name)
    }

    /// How many users the store has (for the startup log).
    pub fn user_count(&self) -> usize {
        self.users.len()
    }

    /// The PostgreSQL port's methods, by preference.
    pub fn pg_methods(&self) -> &[PgAuthMethod] {
        &self.pg_methods
    }

    /// The verifier an unknown user's SCRAM exchange runs against (it fails).
    pub fn mock_verifier(&self, name: &str) -> Verifier {
        Verifier::mock(name, &self.mock_secret)
    }

    /// The role `password` logs `name` in as, if it is that user's password. An
    /// unknown user costs the same key derivation as a wrong password, so that the
    /// time taken does not tell whether a name exists.
    pub fn check_password(&self, name: &str, password: &str) -> Option<Role> {
        let Some(user) = self.users.get(name) else {
            self.mock_verifier(name).matches(password);
            return None;
        };
        let remembered = {
            let mut salted = self.mock_secret.to_vec();
            salted.extend_from_slice(name.as_bytes());
            salted.push(0);
            salted.extend_from_slice(password.as_bytes());
            scram::sha256(&salted)
        };
        let recent = self
            .recent
            .lock()
            .ok()
            .and_then(|recent| recent.get(name).copied());
        if recent.is_some_and(|hash| scram::constant_time_eq(&hash, &remembered)) {
            return Some(user.role);
        }
        let matches = match &user.secret {
            Secret::Scram(verifier) => verifier.matches(password),
            Secret::Md5(verifier) => verifier.matches(password, name),
        };
        if !matches {
            return None;
        }
        if let Ok(mut recent) = self.recent.lock() {
            recent.insert(name.to_owned(), remembered);
        }
        Some(user.role)
    }

    /// The role a bearer token grants, or why it is refused.
    pub fn check_token(&self, token: &str) -> Result<Role, String> {
        match &self.jwt {
            Some(key) => key.verify(token),
            None => Err(
                "bearer tokens are not configured on this server (see --jwt-key-file)".to_owned(),
            ),
        }
    }

    /// Whether bearer tokens are accepted.
    pub fn tokens(&self) -> bool {
        self.jwt.is_some()
    }
}

/// The one message for a failed login, whatever failed.
impl Auth {
    /// Counts a login refused for its credentials.
    pub fn count_failure(&self) {
        self.failures
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Logins refused so far.
    pub fn failures(&self) -> u64 {
        self.failures.load(std::sync::atomic::Ordering::Relaxed)
    }
}

pub fn failed(user: &str) -> String {
    format!("password authentication failed for user \"{user}\"")
}

/// `litewire passwd`: reads a password and returns the users-file line.
pub fn passwd(name: &str, role: &str, md5: bool) -> Result<String, String> {
    if name.is_empty() || name.contains(':') || name.contains(char::is_whitespace) {
        return Err("a user name must be non-empty, without ':' or spaces".to_owned());
    }
    let role = role.parse::<Role>()?;
    let password = read_password()?;
    if password.is_empty() {
        return Err("empty password".to_owned());
    }
    Ok(if md5 {
        format!(
            "{name}:{}:{}",
            role.as_str(),
            md5::Md5Verifier::new(&password, name)
        )
    } else {
        users::line(name, role, &Verifier::new(&password)?)
    })
}

/// A password from the terminal (asked twice, not echoed) or stdin's first line.
fn read_password() -> Result<String, String> {
    if std::io::stdin().is_terminal() {
        let first = rpassword::prompt_password("Password: ").map_err(|e| e.to_string())?;
        let again = rpassword::prompt_password("Again: ").map_err(|e| e.to_string())?;
        if first != again {
            return Err("the passwords differ".to_owned());
        }
        Ok(first)
    } else {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| e.to_string())?;
        Ok(line.trim_end_matches(['\n', '\r']).to_owned())
    }
}
